#!/usr/bin/env bash
# Runlane quick start on Debian 12: installs the packages it needs (once),
# builds, then opens the viewer, runs the tests or runs the checks.
#
#   ./packaging/quickstart.sh run [FILE]  # build runlane and runlane-cli, open the demo (or FILE)
#   ./packaging/quickstart.sh test        # build everything and run every test
#   ./packaging/quickstart.sh check       # ASan + UBSan build and its tests, then the fuzz targets
#   ./packaging/quickstart.sh deb         # the Debian package, from a Release build in build-release/
#
# Run it as root or as a user who may use sudo (only apt-get needs it).
# RUNLANE_BUILD_DIR picks the build directory (default: build/). `check`
# builds with clang in build-sanitize/ and build-fuzz/ (named after that
# directory) and runs every fuzz target for RUNLANE_FUZZ_SECONDS (default 30;
# the long runs are in docs/robustness.md). docs/CONTRIBUTING.md has the
# test tiers (ctest -L unit ...) and the rest of a developer's commands.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${RUNLANE_BUILD_DIR:-$root/build}
build=${build%/}
mode=${1:-}

packages=(
    cmake ninja-build g++            # toolchain
    lld                              # links the ~120 programs 5 x as fast as GNU ld
    qt6-base-dev qt6-charts-dev      # Qt 6.4: Core, Gui, Widgets, Concurrent, Test, Charts
    libqt6opengl6-dev                # Qt6Charts' CMake package needs Qt6OpenGL; only a
                                     # Recommends of qt6-base-dev, which we do not install
    nlohmann-json3-dev               # JSON
    libsimdjson-dev                  # fast path for large event arrays
    zlib1g-dev                       # gzip: writing compressed files (tests, convert)
    libisal-dev                      # gzip: reading, 3 x as fast as zlib
    libzstd-dev                      # Perfetto traces' zstd_compressed_packets
    fonts-dejavu-core                # text in offscreen renders and tests
    libqt6sql6-sqlite                # history: Qt SQL's SQLite driver (the default database)
    libqt6sql6-psql                  # history: Qt SQL's PostgreSQL driver (a team's server)
    libsqlite3-dev                   # history: a run's values through SQLite's own API, on Qt's connection
)
# For `test` and `check`: the history's PostgreSQL tests and the live tests'
# Prometheus (under CI=true a test whose server is missing fails).
server_packages=(
    postgresql                       # the history tests start a throwaway server (initdb, pg_ctl)
    prometheus                       # the live tests start a real server scraping a test exporter
)
# Only for `deb`: dpkg-shlibdeps and dpkg-buildflags; the package's test
# (tests/packaging/tst_package.cpp) checks it with the other three.
deb_packages=(
    dpkg-dev appstream desktop-file-utils lintian
)
# Only for `check`: the sanitizer build and the fuzz targets.
check_packages=(
    clang libclang-rt-14-dev         # ASan, UBSan, libFuzzer
)

usage() {
    sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
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

# need_space GIB WHAT DIR...: stop at once, and say why, where a build would
# fill the disk: a full disk showed up as the linker's "Bus error" a quarter
# of an hour into CI. GIB is what WHAT leaves in the DIRs from scratch
# (docs/CONTRIBUTING.md, "Disk"); what they hold already counts as built.
need_space() {
    local gib=$1 what=$2 probe=$3 dir built=0 have
    shift 2
    for dir in "$@"; do
        [ -d "$dir" ] && built=$((built + $(du -sk "$dir" 2>/dev/null | cut -f1)))
    done
    while [ ! -d "$probe" ]; do probe=$(dirname "$probe"); done
    have=$(df -Pk "$probe" | awk 'NR == 2 { print $4 }')
    if [ $((gib * 1024 * 1024 - built)) -gt "$have" ]; then
        echo "quickstart: $what needs about $gib GiB in $*; $((built / 1024)) MiB of it are there," \
            "and $((have / 1024)) MiB are free on the disk that holds them. Free some space or pick another" \
            "directory with RUNLANE_BUILD_DIR." >&2
        exit 1
    fi
}

# configure DIR [-DOPTION=VALUE...]: every option of the project is given,
# so that none keeps a value an earlier configure left in DIR's cache (a
# RUNLANE_BUILD_GUI=OFF there once dropped every viewer test unnoticed).
# CI treats compiler warnings as errors; a developer's build only shows them.
# The libraries are unity-built (CMakeLists.txt: RUNLANE_UNITY), which is
# what a build from scratch wants.
configure() {
    local dir=$1 werror=OFF
    shift
    [ "${CI:-}" = "true" ] && werror=ON
    cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRUNLANE_WERROR=$werror -DRUNLANE_UNITY=ON "$@"
}

# The normal build: `run` and `test` configure it alike, so that one after
# the other rebuilds nothing. Optimised, with line tables only (-g1): a
# crash's backtrace still names files and lines, and each file compiles in
# about 27 % less time than with full debug information (-g: 12.3 against
# 9.7 s for geckoreader.cpp; docs/performance.md, "Build times"). For a
# debugger's variables, configure a Debug build of your own (CONTRIBUTING.md).
configure_normal() {
    configure "$build" -DRUNLANE_BUILD_GUI=ON -DRUNLANE_BUILD_TESTS=ON -DRUNLANE_BUILD_BENCHMARKS=ON \
        -DRUNLANE_SANITIZE=OFF -DRUNLANE_FUZZ=OFF "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG"
}

case "$mode" in
run)
    install_packages
    need_space 1 "building runlane and runlane-cli" "$build"
    configure_normal
    # The two programs only, not the tests and benchmarks.
    cmake --build "$build" --parallel "$(nproc)" --target runlane runlane-cli
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
    install_packages "${server_packages[@]}"
    need_space 4 "building everything" "$build"
    configure_normal
    cmake --build "$build" --parallel "$(nproc)"
    (cd "$build" && QT_QPA_PLATFORM=offscreen ctest --output-on-failure --parallel "$(nproc)")
    ;;
check)
    install_packages "${server_packages[@]}" "${check_packages[@]}"
    # Every test again, built by clang with AddressSanitizer and
    # UndefinedBehaviorSanitizer (any report fails): the core's tests and
    # every widget and main-window test (offscreen, the seeded random user
    # included). Line tables are all a sanitizer's report needs: full debug
    # info made this build (with ASan) the longest step of the suite.
    sanitize=$build-sanitize
    need_space 6 "the sanitizer build and the fuzz targets' build" "$sanitize" "$build-fuzz"
    CC=clang CXX=clang++ configure "$sanitize" -DRUNLANE_BUILD_GUI=ON -DRUNLANE_BUILD_TESTS=ON \
        -DRUNLANE_BUILD_BENCHMARKS=OFF -DRUNLANE_SANITIZE=ON -DRUNLANE_FUZZ=OFF \
        "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -gline-tables-only -DNDEBUG"
    cmake --build "$sanitize" --parallel "$(nproc)"
    # Not the <unit>_reference twins: they check that the reference JSON
    # path reads what the fast one reads, which `test` does; here they were
    # 670 of the sanitizer tests' 1,450 CPU seconds. The reference path
    # still runs under the sanitizers: in the tests that force it, and in
    # the chrome and load fuzz targets, which read every input both ways.
    (cd "$sanitize" && QT_QPA_PLATFORM=offscreen ctest --output-on-failure --parallel "$(nproc)" -E '_reference$')
    # Then the core's fuzz targets, in a build of their own.
    FUZZ_BUILD_DIR=$build-fuzz "$root/tests/fuzz/run.sh" "${RUNLANE_FUZZ_SECONDS:-30}"
    ;;
deb)
    install_packages "${deb_packages[@]}"
    # The two programs, optimised and without debug information (CPack
    # strips their symbols too), hardened as Debian builds its packages
    # (dpkg-buildflags, less its -g), without tests or benchmarks.
    release=$build-release
    cxxflags="$(dpkg-buildflags --get CPPFLAGS) $(dpkg-buildflags --get CXXFLAGS | sed -E 's/(^| )-g( |$)/ /')"
    ldflags=$(DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --get LDFLAGS)
    configure "$release" -DCMAKE_BUILD_TYPE=Release -DRUNLANE_BUILD_GUI=ON -DRUNLANE_BUILD_TESTS=OFF \
        -DRUNLANE_BUILD_BENCHMARKS=OFF -DRUNLANE_SANITIZE=OFF -DRUNLANE_FUZZ=OFF \
        "-DCMAKE_CXX_FLAGS=$cxxflags" "-DCMAKE_EXE_LINKER_FLAGS=$ldflags"
    cmake --build "$release" --parallel "$(nproc)" --target runlane runlane-cli runlane-package-files
    (cd "$release" && cpack -G DEB)
    ls -l "$release"/runlane_*.deb
    ;;
*)
    usage
    ;;
esac
