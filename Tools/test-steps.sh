#!/usr/bin/env bash
# `make test`'s runner: runs every step even when one fails, keeps each step's output in
# .build/test-logs/, and ends with one summary (each step's verdict, tests, suites, seconds, and
# every failing test by name). Exits non-zero if any step failed.
#
#   Tools/test-steps.sh NAME 'COMMAND' [NAME 'COMMAND' ...]
#
# A NAME ending in ':needs=OTHER' runs only if the step OTHER passed (the test runs need their
# build): otherwise it is reported as not run, and counts as a failure.
set -u
cd "$(dirname "$0")/.."
logs=.build/test-logs
mkdir -p "$logs"
rm -f "$logs"/*.log

names=() verdicts=() seconds=() counts=() failures=()
declare -A passed_step=()
failed=0
start_all=$(date +%s)
index=0

# The Swift Testing summary line of a log: "N tests in M suites", or empty.
summary_of() {
    grep -aE 'Test run with [0-9]+ tests? in [0-9]+ suites?' "$1" | tail -1 |
        sed -E 's/.*Test run with ([0-9]+) tests? in ([0-9]+) suites? (passed|failed).*/\1 tests in \2 suites/'
}

while [ $# -ge 2 ]; do
    spec=$1 command=$2
    shift 2
    index=$((index + 1))
    name=${spec%%:needs=*}
    needs=""
    [ "$spec" != "$name" ] && needs=${spec#*:needs=}
    log=$(printf '%s/%02d-%s.log' "$logs" "$index" "$name")
    names+=("$name")
    if [ -n "$needs" ] && [ -z "${passed_step[$needs]:-}" ]; then
        verdicts+=("NOT RUN ($needs failed)") seconds+=("0") counts+=("") failures+=("")
        failed=1
        continue
    fi
    printf '\n=== make test: step %d, %s\n$ %s\n' "$index" "$name" "$command"
    begin=$(date +%s)
    # The step's output goes to the terminal and to its log; its own exit status is kept.
    bash -o pipefail -c "$command" 2>&1 | tee "$log"
    status=${PIPESTATUS[0]}
    took=$(($(date +%s) - begin))
    seconds+=("$took")
    counts+=("$(summary_of "$log")")
    # Failing tests by name (Swift Testing prints "✘ Test "NAME" failed after ...").
    failing=$(sed -nE 's/^✘ Test (.*) failed after [0-9.]+ seconds.*/\1/p' "$log" | grep -v '^run with ' | sort -u)
    failures+=("$failing")
    if [ "$status" -eq 0 ]; then
        verdicts+=("passed")
        passed_step[$name]=1
    else
        if [ -z "$(summary_of "$log")" ] && grep -aqE 'Test run started|Executed' "$log"; then
            verdicts+=("FAILED (exit $status, no summary: the test process ended early)")
        else
            verdicts+=("FAILED (exit $status)")
        fi
        failed=1
    fi
done

total=$(($(date +%s) - start_all))
printf '\n=== make test: summary (%d min %02d s in all; logs in %s/)\n' $((total / 60)) $((total % 60)) "$logs"
printf '%-22s %8s  %-28s %s\n' "step" "seconds" "tests" "verdict"
for i in "${!names[@]}"; do
    printf '%-22s %8s  %-28s %s\n' "${names[$i]}" "${seconds[$i]}" "${counts[$i]:--}" "${verdicts[$i]}"
done
for i in "${!names[@]}"; do
    if [ -n "${failures[$i]}" ]; then
        printf '\nFailing tests in %s:\n' "${names[$i]}"
        printf '%s\n' "${failures[$i]}" | sed 's/^/  ✘ /'
    fi
done
if [ "$failed" -ne 0 ]; then
    printf '\nmake test: FAILED (see the steps above and their logs)\n'
    exit 1
fi
printf '\nmake test: every step passed\n'
