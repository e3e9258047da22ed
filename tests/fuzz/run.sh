#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan) and runs each for a
# given time, seeded with tests/data. Crashes, leaks, timeouts and sanitizer
# reports end a target and are kept in $build/fuzz/artifacts/<target>/;
# the exit status is 1 if any target found one.
#
#   tests/fuzz/run.sh SECONDS [TARGET...]   # default: every target
#
# Targets: detect, load, baseline (the baseline-report reader and compare),
# gzip (the decompression layer alone, GzipDevice), exposition (a Prometheus
# scrape, PrometheusText), perfetto_packets (the Perfetto reader past a valid
# start, seeded with the Perfetto traces and tests/fuzz/fuzz_perfetto_seeds),
# and one per input format (the FormatRegistry's ids: chrome enso ...).
# A target's seeds are the test files its format claims, and the files of
# tests/fuzz/fuzz_<target>_seeds/ if there is one (fuzz_enso_seeds: an IDE
# + Language Server profile with every metadata type).
# FUZZ_BUILD_DIR picks the build directory (default: build-fuzz/; a fuzz
# build of its own, never another build's), FUZZ_JOBS how many targets run
# at once (default: the number of cores).
# The corpus each target grows is kept in $build/fuzz/corpus/<target> and
# reused by the next run.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${FUZZ_BUILD_DIR:-$root/build-fuzz}
seconds=${1:-}
[[ "$seconds" =~ ^[0-9]+$ ]] || { sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
shift
# The options below (the core alone, no tests) would silently take the
# viewer's tests out of a normal or sanitizer build sharing the directory.
if [ -f "$build/CMakeCache.txt" ] && ! grep -qx 'RUNLANE_FUZZ:BOOL=ON' "$build/CMakeCache.txt"; then
    echo "fuzz/run.sh: $build is not a fuzz build (RUNLANE_FUZZ is not ON there); pick another FUZZ_BUILD_DIR" >&2
    exit 2
fi
# Every option given, so that none keeps a value an earlier configure left
# in the cache. Line tables are all a sanitizer's report needs.
werror=OFF
[ "${CI:-}" = "true" ] && werror=ON
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRUNLANE_WERROR=$werror \
    -DRUNLANE_FUZZ=ON -DRUNLANE_SANITIZE=ON -DRUNLANE_BUILD_GUI=OFF -DRUNLANE_BUILD_TESTS=OFF \
    -DRUNLANE_BUILD_BENCHMARKS=OFF -DRUNLANE_UNITY=ON "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -gline-tables-only -DNDEBUG" >/dev/null
cmake --build "$build" --parallel "$(nproc)" --target fuzz_seeds
mapfile -t all < <("$build/tests/fuzz/fuzz_seeds" --targets)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")
jobs=${FUZZ_JOBS:-$(nproc)}
cmake --build "$build" --parallel "$(nproc)" --target $(printf 'fuzz_%s ' "${targets[@]}")

data=$root/tests/data
files=$(mktemp)
trap 'rm -f "$files"' EXIT
{ find "$data" -type f -not -name '*.md'; echo "$root/resources/demo/chronos-demo.json"; } >"$files"
# The seeds of a target: the test files its format's probe claims, or the
# reports for baseline (all of them for detection and for the loader that
# detects).
seeds() {
    case "$1" in
    detect | load) cat "$files" ;;
    perfetto_packets) seeds perfetto ;;
    *) tr '\n' '\0' <"$files" | xargs -0 "$build/tests/fuzz/fuzz_seeds" | awk -F'\t' -v id="$1" '$1 == id { print $2 }' ;;
    esac
    # A target's own seeds, where tests/data has too few of its shapes.
    if [ -d "$root/tests/fuzz/fuzz_$1_seeds" ]; then find "$root/tests/fuzz/fuzz_$1_seeds" -type f; fi
}

run_one() {
    local target=$1 corpus=$build/fuzz/corpus/$1 artifacts=$build/fuzz/artifacts/$1/ log=$build/fuzz/$1.log
    mkdir -p "$corpus" "$artifacts"
    local seedDir=$build/fuzz/seeds/$target
    rm -rf "$seedDir" && mkdir -p "$seedDir"
    seeds "$target" | while read -r f; do [ -f "$f" ] && cp "$f" "$seedDir/"; done
    # 64 KiB inputs: big enough for every structure, small enough to run
    # thousands a second. Leaks are checked; a 10 s input is a hang.
    local started=$SECONDS marker=$build/fuzz/$target.started
    touch "$marker" # findings of earlier runs stay in $artifacts but do not count
    ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1 \
        "$build/tests/fuzz/fuzz_$target" "$corpus" "$seedDir" -max_total_time="$seconds" -max_len=65536 \
        -timeout=10 -rss_limit_mb=4096 -dict="$root/tests/fuzz/json.dict" -artifact_prefix="$artifacts" \
        -print_final_stats=1 >"$log" 2>&1 || true
    local runs crashes elapsed=$((SECONDS - started))
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
    crashes=$(find "$artifacts" -maxdepth 1 -type f -newer "$marker" | wc -l)
    # A finding ends a target early: the time is what it actually ran.
    printf '%-11s %10s executions in %5ss, corpus %5d files, %d finding(s)\n' "$target" "${runs:-0}" "$elapsed" \
        "$(find "$corpus" -type f | wc -l)" "$crashes"
    if [ "$crashes" -ne 0 ]; then
        find "$artifacts" -maxdepth 1 -type f -newer "$marker"
        echo "--- $target: the end of $log"
        tail -n 40 "$log"
        return 1
    fi
}

status=0
running=0
for target in "${targets[@]}"; do
    run_one "$target" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
        wait -n || status=1
        running=$((running - 1))
    fi
done
while [ "$running" -gt 0 ]; do
    wait -n || status=1
    running=$((running - 1))
done
exit $status
