#!/usr/bin/env bash
# Installs a built package in a clean Debian 12 root and opens it the way a
# user does: apt resolves its dependencies from the archive (not from this
# machine's packages), runlane-cli reads the demo and draws it, the file type
# of the demo is looked up in the MIME database, and the desktop entry is
# launched on a file under Xvfb and screenshot. tst_package checks the package's files; this
# checks that the package works on a machine that has nothing else.
#
#   sudo packaging/cleaninstall.sh build-release/runlane_*.deb [SCREENSHOT.png]
#
# Needs root, the network, debootstrap, Xvfb and ImageMagick's import. The
# root is made once in $CLEAN_ROOT (default /srv/runlane-bookworm, ~650 MB
# with the package's dependencies) and reused; remove it to start afresh.
set -euo pipefail

deb=$(realpath "${1:?usage: cleaninstall.sh PACKAGE.deb [SCREENSHOT.png]}")
shot=${2:-$PWD/cleaninstall.png}
root=${CLEAN_ROOT:-/srv/runlane-bookworm}
demo=$(cd "$(dirname "$0")/.." && pwd)/resources/demo/chronos-demo.json
display=:${CLEAN_DISPLAY:-79}

if [ ! -x "$root/usr/bin/apt-get" ]; then
    debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian
fi
cleanup() {
    [ -n "${xvfb:-}" ] && kill "$xvfb" 2>/dev/null || true
    umount "$root/tmp/.X11-unix" "$root/dev" "$root/proc" 2>/dev/null || true
}
trap cleanup EXIT
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
mkdir -p "$root/tmp/.X11-unix"
mount --bind /tmp/.X11-unix "$root/tmp/.X11-unix"
cp /etc/resolv.conf "$root/etc/"
cp "$deb" "$root/tmp/runlane.deb"
cp "$demo" "$root/tmp/chronos-demo.json"

in_root() { chroot "$root" env DEBIAN_FRONTEND=noninteractive DISPLAY="$display" bash -c "$1"; }
# gio (libglib2.0-bin) launches a desktop entry as a file manager does.
in_root 'apt-get update -q && apt-get install -y -q /tmp/runlane.deb xdg-utils libglib2.0-bin'
in_root 'dpkg -s runlane | grep -E "^(Version|Installed-Size):"'
in_root 'runlane-cli --version && runlane-cli summary /tmp/chronos-demo.json | head -4'
# render runs the program the package puts in /usr/libexec/runlane.
in_root 'runlane-cli render /tmp/chronos-demo.json --size 800x500 -o /tmp/render.png'
in_root 'echo "demo file type: $(xdg-mime query filetype /tmp/chronos-demo.json)"; echo "opened by: $(xdg-mime query default application/x-chronos-log)"'

Xvfb "$display" -screen 0 1920x1080x24 >/dev/null 2>&1 &
xvfb=$!
sleep 2
in_root 'gio launch /usr/share/applications/io.github.runlane.Runlane.desktop /tmp/chronos-demo.json >/tmp/launch.log 2>&1 &'
sleep 8
DISPLAY=$display import -window root "$shot"
pgrep -f '^runlane /tmp/chronos-demo.json' >/dev/null || { echo "cleaninstall: runlane is not running" >&2; cat "$root/tmp/launch.log" >&2; exit 1; }
pkill -f '^runlane /tmp/chronos-demo.json'
echo "cleaninstall: the desktop entry opened the demo; screenshot: $shot"
