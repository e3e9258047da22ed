#!/usr/bin/env bash
# Replays files (a fuzz corpus, a folder of odd profiles) through the views:
# `runlane-cli render` draws each as the window, the aggregated window, the
# task lanes and the rank view. The fuzz targets stop at the core; this
# catches what the views do with the profiles the fuzzer found (a ruler that
# never ends, a paint loop that does not advance). An exit code other than
# 0 or 3 (invalid input), a crash or 30 s without an image is a finding; the
# exit status is 1 if there was any.
#
#   tests/fuzz/replay-render.sh DIR|FILE...   # e.g. build-fuzz/fuzz/corpus/*
#
# RUNLANE_CLI picks the program (default: build/app/cli/runlane-cli),
# REPLAY_JOBS how many files at once (default: the number of cores).
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cli=${RUNLANE_CLI:-$root/build/app/cli/runlane-cli}
[ $# -gt 0 ] || { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
[ -x "$cli" ] || { echo "replay-render: no $cli (build first, or set RUNLANE_CLI)"; exit 2; }

one() {
    local cli=$1 file=$2 out rc
    out=$(mktemp --suffix=.png)
    for view in "--view window" "--view window --aggregated" "--view lanes" "--view rank"; do
        # shellcheck disable=SC2086 # the view's words are separate arguments
        QT_QPA_PLATFORM=offscreen timeout 30 "$cli" render "$file" $view --size 700x400 -o "$out" >/dev/null 2>&1
        rc=$?
        [ $rc -eq 0 ] || [ $rc -eq 3 ] || echo "exit $rc ($([ $rc -eq 124 ] && echo hang || echo crash or error)): render $file $view"
    done
    rm -f "$out"
}
export -f one

started=$SECONDS
findings=$(find "$@" -type f -print0 | xargs -0 -r -n 1 -P "${REPLAY_JOBS:-$(nproc)}" bash -c 'one "$0" "$1"' "$cli")
files=$(find "$@" -type f | wc -l)
echo "replay-render: $files files, 4 views each, in $((SECONDS - started)) s"
if [ -n "$findings" ]; then
    echo "$findings"
    exit 1
fi
