#!/usr/bin/env bash
# `make test`'s runner: runs every step even when one fails, keeps each step's output in
# .build/test-logs/, and ends with one summary (each step's verdict, tests, suites, seconds, and
# every failing test by name). Exits non-zero if any step failed.
#
#   Tools/test-steps.sh NAME 'COMMAND' [NAME 'COMMAND' ...]
#
# A NAME ending in ':needs=OTHER' runs only if the step OTHER passed (the test runs need their
# build): otherwise it is reported as not run, and counts as a failure.
#
# A NAME ending in ':lane=LANE' (after any ':needs=') runs beside the steps of other lanes:
# consecutive laned steps start together, one lane per background job, each lane's steps in
# order, and the next unlaned step waits for all of them. Their output goes to their logs only
# (the terminal gets a line as each starts and ends). The GTK suites spend most of their time
# waiting for windows and pointers on private displays, so the X11 and Wayland suites share
# the machine's cores without slowing each other much.
set -u
cd "$(dirname "$0")/.."
logs=.build/test-logs
mkdir -p "$logs"
rm -f "$logs"/*.log "$logs"/*.result

names=() needs=() lanes=() commands=() log_files=()
failed=0
start_all=$(date +%s)

# The Swift Testing summary line of a log: "N tests in M suites", or empty.
summary_of() {
    grep -aE 'Test run with [0-9]+ tests? in [0-9]+ suites?' "$1" | tail -1 |
        sed -E 's/.*Test run with ([0-9]+) tests? in ([0-9]+) suites? (passed|failed).*/\1 tests in \2 suites/'
}

# The result file of step NAME ("STATUS SECONDS"), written when it ends.
result_of() { printf '%s/%s.result' "$logs" "$1"; }

# Runs step I: checks what it needs, runs it with its output in its log (and on the terminal
# when TEE is 1), and writes its result file.
run_step() {
    local i=$1 tee=$2 name=${names[$1]} need=${needs[$1]} log=${log_files[$1]}
    if [ -n "$need" ] && ! grep -q '^0 ' "$(result_of "$need")" 2>/dev/null; then
        echo "skipped $need" >"$(result_of "$name")"
        return
    fi
    local begin status
    begin=$(date +%s)
    if [ "$tee" = 1 ]; then
        printf '\n=== make test: step %d, %s\n$ %s\n' $((i + 1)) "$name" "${commands[$i]}"
        # The step's output goes to the terminal and to its log; its own exit status is kept.
        bash -o pipefail -c "${commands[$i]}" 2>&1 | tee "$log"
        status=${PIPESTATUS[0]}
    else
        printf '=== make test: step %d, %s (lane %s) started; output in %s\n' $((i + 1)) "$name" "${lanes[$i]}" "$log"
        bash -o pipefail -c "${commands[$i]}" >"$log" 2>&1
        status=$?
        printf '=== make test: step %d, %s ended (exit %d) after %d s\n' $((i + 1)) "$name" "$status" \
            $(($(date +%s) - begin))
    fi
    echo "$status $(($(date +%s) - begin))" >"$(result_of "$name")"
}

# Runs the steps FIRST..LAST-1, all laned: one background job per lane.
run_lanes() {
    local first=$1 last=$2 lane i
    local -a lane_names=()
    for ((i = first; i < last; i++)); do
        [[ " ${lane_names[*]:-} " == *" ${lanes[$i]} "* ]] || lane_names+=("${lanes[$i]}")
    done
    for lane in "${lane_names[@]}"; do
        (
            for ((i = first; i < last; i++)); do
                [ "${lanes[$i]}" = "$lane" ] && run_step "$i" 0
            done
        ) &
    done
    wait
}

index=0
while [ $# -ge 2 ]; do
    spec=$1 command=$2
    shift 2
    lane=""
    case $spec in *:lane=*) lane=${spec##*:lane=} spec=${spec%:lane=*} ;; esac
    name=${spec%%:needs=*}
    need=""
    [ "$spec" != "$name" ] && need=${spec#*:needs=}
    names+=("$name") needs+=("$need") lanes+=("$lane") commands+=("$command")
    log_files+=("$(printf '%s/%02d-%s.log' "$logs" $((index + 1)) "$name")")
    index=$((index + 1))
done

i=0
while [ "$i" -lt "${#names[@]}" ]; do
    if [ -z "${lanes[$i]}" ]; then
        run_step "$i" 1
        i=$((i + 1))
        continue
    fi
    j=$i
    while [ "$j" -lt "${#names[@]}" ] && [ -n "${lanes[$j]}" ]; do j=$((j + 1)); done
    run_lanes "$i" "$j"
    i=$j
done

total=$(($(date +%s) - start_all))
printf '\n=== make test: summary (%d min %02d s in all; logs in %s/)\n' $((total / 60)) $((total % 60)) "$logs"
printf '%-22s %8s  %-28s %s\n' "step" "seconds" "tests" "verdict"
failing_report=""
for i in "${!names[@]}"; do
    name=${names[$i]} log=${log_files[$i]}
    read -r status took 2>/dev/null <"$(result_of "$name")" || { status="missing" took=0; }
    case $status in
    skipped)
        verdict="NOT RUN (${needs[$i]} failed)" took=0
        failed=1
        ;;
    0) verdict="passed" ;;
    missing)
        verdict="FAILED (no result: the step did not end)"
        failed=1
        ;;
    *)
        if [ -z "$(summary_of "$log")" ] && grep -aqE 'Test run started|Executed' "$log"; then
            verdict="FAILED (exit $status, no summary: the test process ended early)"
        else
            verdict="FAILED (exit $status)"
        fi
        failed=1
        ;;
    esac
    counts=""
    [ -f "$log" ] && counts=$(summary_of "$log")
    printf '%-22s %8s  %-28s %s\n' "$name" "$took" "${counts:--}" "$verdict"
    # Failing tests by name (Swift Testing prints "✘ Test "NAME" failed after ...").
    if [ -f "$log" ]; then
        failing=$(sed -nE 's/^✘ Test (.*) failed after [0-9.]+ seconds.*/\1/p' "$log" | grep -v '^run with ' | sort -u)
        if [ -n "$failing" ]; then
            failing_report+=$(printf '\nFailing tests in %s:\n%s' "$name" "$(printf '%s\n' "$failing" | sed 's/^/  ✘ /')")
            failing_report+=$'\n'
        fi
    fi
done
# A laned step's output is only in its log: the failures' details are printed here.
for i in "${!names[@]}"; do
    [ -n "${lanes[$i]}" ] || continue
    read -r status _ 2>/dev/null <"$(result_of "${names[$i]}")" || status=missing
    if [ "$status" != 0 ] && [ "$status" != skipped ] && [ -f "${log_files[$i]}" ]; then
        printf '\n--- %s (lane %s): the failures in %s\n' "${names[$i]}" "${lanes[$i]}" "${log_files[$i]}"
        # A failure that ends "Last lines:" (a timed-out wait) is followed by the app's last
        # output lines: those are what tells why, so they come along (12 of them).
        awk '/^✘|Expectation failed|error:|Fatal error|Crash/ { print; more = (/Last lines:/) ? 12 : 0; next }
             more > 0 { print "    " $0; more-- }' "${log_files[$i]}" | head -120
    fi
done
[ -n "$failing_report" ] && printf '%s' "$failing_report"
if [ "$failed" -ne 0 ]; then
    printf '\nmake test: FAILED (see the steps above and their logs)\n'
    exit 1
fi
printf '\nmake test: every step passed\n'
