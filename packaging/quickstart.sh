#!/usr/bin/env bash
# Runlane quick start on Debian 12: installs the packages it needs (once),
# builds, then either opens the bundled demo profile or runs every test.
#
#   ./packaging/quickstart.sh run [FILE]  # build and open the viewer on the demo (or FILE)
#   ./packaging/quickstart.sh test        # build and run the whole test suite
#
# Run it as root or as a user who may use sudo (only apt-get needs it).
# RUNLANE_BUILD_DIR picks the build directory (default: build/). `test` also
# builds everything with clang under ASan + UBSan in build-sanitize/, runs its
# tests there and every fuzz target for RUNLANE_FUZZ_SECONDS (default 30;
# the long runs are in README "Robustness").
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${RUNLANE_BUILD_DIR:-$root/build}
mode=${1:-}

packages=(
    cmake ninja-build g++            # toolchain
    qt6-base-dev qt6-charts-dev      # Qt 6.4: Core, Gui, Widgets, Concurrent, Test, Charts
    libqt6opengl6-dev                # Qt6Charts' CMake package needs Qt6OpenGL; only a
                                     # Recommends of qt6-base-dev, which we do not install
    nlohmann-json3-dev               # JSON
    libsimdjson-dev                  # fast path for large event arrays
    zlib1g-dev                       # gzip: writing compressed files (tests, convert)
    libisal-dev                      # gzip: reading, 3 x as fast as zlib
    fonts-dejavu-core                # text in offscreen renders and tests
    libqt6sql6-sqlite                # history: Qt SQL's SQLite driver (the default database)
    libqt6sql6-psql                  # history: Qt SQL's PostgreSQL driver (a team's server)
    libsqlite3-dev                   # history: a run's values through SQLite's own API, on Qt's connection
)
# Only for `test`: the sanitizer build, the fuzz targets, the history's
# PostgreSQL tests and the live tests' Prometheus.
test_packages=(
    clang libclang-rt-14-dev         # ASan, UBSan, libFuzzer
    postgresql                       # the history tests start a throwaway server (initdb, pg_ctl)
    prometheus                       # the live tests start a real server scraping a test exporter
)

usage() {
    sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
}

install_packages() {
    local missing=() p
    for p in "${packages[@]}" "$@"; do
        dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null | grep -qx installed || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "quickstart: installing ${missing[*]}"
    local sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    "${sudo[@]}" apt-get update
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
}

configure_and_build() {
    local options=(-G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo)
    # CI treats compiler warnings as errors; a developer's build only shows them.
    [ "${CI:-}" = "true" ] && options+=(-DRUNLANE_WERROR=ON)
    cmake -S "$root" -B "$build" "${options[@]}"
    cmake --build "$build" --parallel "$(nproc)"
}

case "$mode" in
run)
    install_packages
    configure_and_build
    shift
    if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
        # No screen to open a window on (ssh, container): draw the window
        # into a PNG instead and say where it is.
        out="$build/runlane-demo.png"
        echo "quickstart: no display (DISPLAY and WAYLAND_DISPLAY are unset); rendering the viewer to $out"
        "$build/app/cli/runlane-cli" render "${1:-$root/resources/demo/chronos-demo.json}" --size 1600x1000 -o "$out"
        exit 0
    fi
    # With no file the viewer opens the bundled demo profile.
    exec "$build/app/runlane" "$@"
    ;;
test)
    install_packages "${test_packages[@]}"
    configure_and_build
    (cd "$build" && QT_QPA_PLATFORM=offscreen ctest --output-on-failure --parallel "$(nproc)")
    # Everything again, built by clang with AddressSanitizer and
    # UndefinedBehaviorSanitizer (any report fails): the core's tests and
    # every widget and main-window test (offscreen, the seeded random user
    # included), then the core's fuzz targets.
    sanitize=${build%/}-sanitize
    # Line tables are all a sanitizer's report needs: full debug info made
    # this build (with ASan) the longest step of the suite.
    options=(-G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRUNLANE_FUZZ=ON -DRUNLANE_BUILD_BENCHMARKS=OFF
             "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -gline-tables-only -DNDEBUG"
             "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 -gline-tables-only -DNDEBUG")
    [ "${CI:-}" = "true" ] && options+=(-DRUNLANE_WERROR=ON)
    CC=clang CXX=clang++ cmake -S "$root" -B "$sanitize" "${options[@]}"
    cmake --build "$sanitize" --parallel "$(nproc)"
    (cd "$sanitize" && ctest --output-on-failure --parallel "$(nproc)")
    FUZZ_BUILD_DIR=$sanitize "$root/tests/fuzz/run.sh" "${RUNLANE_FUZZ_SECONDS:-30}"
    ;;
*)
    usage
    ;;
esac
