#!/usr/bin/env bash
# Byte-identity check for refactorings: runs runlane-cli's summary, rank
# (table and JSON), usage and render (the whole window and each view, fixed
# size) on every
# profile in tests/data/ and writes each output, stderr and exit code to
# OUTDIR. Run it before and after a change and compare with `diff -r`:
#
#   tests/tools/outputs.sh build /tmp/outputs-before     # on the old tree
#   tests/tools/outputs.sh build /tmp/outputs-after      # on the new tree
#   diff -r /tmp/outputs-before /tmp/outputs-after && echo identical
#
# BUILD is a build directory (its app/cli/runlane-cli is used). Files that
# fail to load (tests/data/malformed/, invalid samples) count too: their exit
# code and message are outputs like any other. Paths are relative to
# tests/data so that two checkouts give the same messages.
set -euo pipefail

if [ $# -ne 2 ]; then
    sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cli=$(cd "$1" && pwd)/app/cli/runlane-cli
out=$2
[ -x "$cli" ] || { echo "outputs.sh: no runlane-cli in $1/app/cli" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)

# Offscreen, with settings of its own so that no user's theme counts.
config=$(mktemp -d)
trap 'rm -rf "$config"' EXIT
export QT_QPA_PLATFORM=offscreen XDG_CONFIG_HOME=$config LC_ALL=C.UTF-8

# run NAME FILE ARGS...: stdout to NAME.out, stderr to NAME.err, exit code to NAME.rc.
run() {
    local name=$1; shift
    local rc=0
    "$cli" "$@" >"$name.out" 2>"$name.err" || rc=$?
    echo "$rc" >"$name.rc"
}

cd "$root/tests/data"
count=0
while IFS= read -r file; do
    dest=$out/${file#./}
    mkdir -p "$dest"
    run "$dest/summary" summary "$file"
    run "$dest/rank" rank "$file"
    run "$dest/rank-json" rank "$file" --format json
    run "$dest/usage" usage "$file"
    run "$dest/render" render "$file" --view window --size 1200x800 -o "$dest/render.png"
    # Each view alone too: a view rendered on its own must not change when
    # the window around it is rearranged.
    for view in icicle lanes usage rank; do
        run "$dest/render-$view" render "$file" --view $view --size 900x500 -o "$dest/render-$view.png"
    done
    # render names the PNG it wrote: keep OUTDIR out of it.
    sed -i "s|$out/|OUTDIR/|g" "$dest"/render*.out "$dest"/render*.err
    count=$((count + 1))
done < <(find . -path ./screens -prune -o -type f ! -name '*.md' -print | LC_ALL=C sort)
echo "outputs.sh: $count files, $(find "$out" -type f | wc -l) outputs in $out"
