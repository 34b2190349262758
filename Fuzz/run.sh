#!/usr/bin/env bash
# Builds the fuzz targets (libFuzzer, address sanitizer) and runs each one for a bounded time from
# its committed seed corpus, one after another; prints one line per target: runs, crashes, hangs,
# time. Exits 1 if any target crashed or hung. See Fuzz/README.md.
#
#   FUZZ_SECONDS=60      seconds per target (the long run: FUZZ_SECONDS=600)
#   FUZZ_TARGETS="..."   which targets (default: all)
#   FUZZ_TIMEOUT=10      seconds after which one input counts as a hang
#   FUZZ_SCALE_TIMEOUT=30  the same for one 1 MiB input of the scale check
#   FUZZ_FLAGS="..."     more libFuzzer flags (-jobs, -dict, -seed...)
#   FUZZ_BUILD=0         skip the build (use the last one)
#
# Before fuzzing, each target runs its big-* seeds once at 1 MiB (the scale check): a parser
# that is quadratic on big inputs takes minutes there and counts as a hang (linear ones take
# 1 to 12 s with the sanitizers on a loaded 2-core machine, hence the scale's own timeout).
set -uo pipefail

cd "$(dirname "$0")"
SWIFT=${SWIFT:-$(command -v swift || echo /opt/swift/usr/bin/swift)}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
FUZZ_TIMEOUT=${FUZZ_TIMEOUT:-10}
FUZZ_SCALE_TIMEOUT=${FUZZ_SCALE_TIMEOUT:-30}
FUZZ_TARGETS=${FUZZ_TARGETS:-fuzz-scenario fuzz-mime fuzz-uri-list fuzz-html fuzz-vcard fuzz-validation fuzz-mo fuzz-plural}
FUZZ_FLAGS=${FUZZ_FLAGS:-}
FUZZ_BUILD=${FUZZ_BUILD:-1}

# -sanitize=fuzzer instruments every module (the project's included) for coverage and links
# libFuzzer; -enable-testing lets the targets reach internal decoders (@testable import); lld
# links the fuzzer runtime beside SwiftPM's own main (gold fails on it).
BUILD_FLAGS=(-c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing
    -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld)

if [ "$FUZZ_BUILD" != 0 ]; then
    echo "Building the fuzz targets (release, -sanitize=fuzzer,address)..." >&2
    "$SWIFT" build "${BUILD_FLAGS[@]}" >&2 || { echo "error: the fuzz targets did not build" >&2; exit 2; }
fi
BIN=$("$SWIFT" build "${BUILD_FLAGS[@]}" --show-bin-path)

# New corpus entries and artifacts go under .work (ignored by git), never into corpus/.
RUN=.work/runs/$(date +%Y%m%d-%H%M%S)
mkdir -p "$RUN"

printf '%-16s %8s %12s %10s %8s %6s %8s  %s\n' target scale runs exec/s crashes hangs time corpus
failed=0
for target in $FUZZ_TARGETS; do
    [ -x "$BIN/$target" ] || { echo "error: $BIN/$target was not built" >&2; exit 2; }
    mkdir -p ".work/corpus/$target" "$RUN/$target"
    log="$RUN/$target.log"
    # The scale check: every big-* seed once, expanded to 1 MiB.
    scale_start=$(date +%s.%N)
    bigs=$(find "corpus/$target" -name 'big-*' | sort)
    if [ -n "$bigs" ]; then
        # shellcheck disable=SC2086
        FUZZ_BIG_SIZE=1048576 "$BIN/$target" -timeout="$FUZZ_SCALE_TIMEOUT" -rss_limit_mb=4096 \
            -artifact_prefix="$RUN/$target/" $bigs >"$RUN/$target-scale.log" 2>&1
    fi
    scale=$(awk -v a="$scale_start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1fs", b - a }')
    start=$(date +%s)
    # -max_len caps ordinary inputs; big ones come from the BIG: inputs (see FuzzSupport).
    # shellcheck disable=SC2086
    "$BIN/$target" -max_total_time="$FUZZ_SECONDS" -timeout="$FUZZ_TIMEOUT" -rss_limit_mb=4096 \
        -max_len=16384 -print_final_stats=1 -artifact_prefix="$RUN/$target/" $FUZZ_FLAGS \
        ".work/corpus/$target" "corpus/$target" >"$log" 2>&1
    status=$?
    elapsed=$(($(date +%s) - start))
    runs=$(grep -a '^stat::number_of_executed_units:' "$log" | tail -1 | awk '{print $2}')
    [ -n "$runs" ] || runs=$(grep -aoE '^#[0-9]+' "$log" | tail -1 | tr -d '#')
    speed=$(grep -a '^stat::average_exec_per_sec:' "$log" | tail -1 | awk '{print $2}')
    crashes=$(find "$RUN/$target" -name 'crash-*' -o -name 'oom-*' -o -name 'leak-*' | wc -l)
    hangs=$(find "$RUN/$target" -name 'timeout-*' -o -name 'slow-unit-*' | wc -l)
    corpus=$(find ".work/corpus/$target" "corpus/$target" -type f | wc -l)
    if [ "$status" -ne 0 ] && [ "$crashes" -eq 0 ] && [ "$hangs" -eq 0 ]; then crashes=1; fi
    printf '%-16s %8s %12s %10s %8s %6s %7ss  %s\n' "$target" "$scale" "${runs:-?}" "${speed:-?}" "$crashes" "$hangs" "$elapsed" "$corpus"
    if [ "$crashes" -ne 0 ] || [ "$hangs" -ne 0 ]; then
        failed=1
        echo "  $target: see $log; inputs: $(find "$RUN/$target" -type f | tr '\n' ' ')" >&2
        cat "$RUN/$target-scale.log" "$log" 2>/dev/null | grep -a -m3 -E 'FUZZ CHECK FAILED|ERROR: |Fatal error|==ERROR|Test unit written' | sed 's/^/  /' >&2
    fi
done
exit $failed
