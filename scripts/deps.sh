#!/bin/sh
# deps.sh build|test: make sure the Debian packages pmkit needs are present.
# As root, missing packages are installed with apt-get; otherwise the exact
# command to run is printed and the script fails.  For "test" it also unpacks
# Debian's pcp package (its postinst needs systemd, so it is never installed)
# into .cache/oracle/pcp so differential tests can run the real tools, and
# pcp-testsuite (its archives), libpcp-archive1 (pmlogextract's library)
# and its -dev package's header, the -dev packages of libpcp_mmv and
# libpcp_trace (their headers), and ncompress (compress(1), for .Z volumes)
# beside it.
set -eu
what=${1:-build}
# build: what configuring without the tests, building and the demo need
# (libc6-dev named, as gcc only recommends it; the compression libraries
# for archive volumes); test: the rest, which only the tests need (cmocka,
# C++ for tests/headers, pkg-config for cmocka and tests/install, the
# oracle's libraries, ...).
build_pkgs="cmake gcc libc6-dev make gperf liblzma-dev libbz2-dev zlib1g-dev"
test_pkgs="g++ pkg-config libcmocka-dev mcpp xz-utils bzip2 libpcp3-dev libpcp-pmda3-dev valgrind gawk groff-base clang-format"
case $what in
build) want=$build_pkgs ;;
test)  want="$build_pkgs $test_pkgs" ;;
*) echo "usage: deps.sh build|test" >&2; exit 2 ;;
esac

missing=""
for p in $want; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
        missing="$missing $p"
done

if [ -n "$missing" ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "pmkit needs these Debian packages; install them with:" >&2
        echo "  sudo apt-get update && sudo apt-get install -y$missing" >&2
        exit 1
    fi
    echo "deps: installing$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    # shellcheck disable=SC2086
    apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

[ "$what" = test ] || exit 0

# The oracle: Debian's pcp package, unpacked (never configured).
top=$(cd "$(dirname "$0")/.." && pwd)
oracle="$top/.cache/oracle"
# unpack PACKAGE CHECK: PACKAGE into $oracle/PACKAGE unless CHECK (a path
# inside it) is there already
unpack() {
    [ -e "$oracle/$1/$2" ] && return 0
    mkdir -p "$oracle"
    if (cd "$oracle" && apt-get download "$1" >/dev/null 2>&1); then
        rm -rf "${oracle:?}/$1"
        dpkg-deb -x "$oracle/$1"_*.deb "$oracle/$1"
        rm -f "$oracle/$1"_*.deb
        echo "deps: unpacked Debian's $1 into $oracle/$1"
    else
        echo "deps: could not download Debian's $1 package;" \
             "tests that need it will skip" >&2
    fi
}
unpack pcp usr/bin/pmerr
unpack pcp-testsuite var/lib/pcp/testsuite/archives
unpack libpcp-archive1 usr/lib/libpcp_archive.so.1
# its <pcp/archive.h>, for the testsuite programs that include it
unpack libpcp-archive1-dev usr/include/pcp/archive.h
# the headers of libpcp_mmv and libpcp_trace, to compare pmkit's with
unpack libpcp-mmv1-dev usr/include/pcp/mmv_dev.h
unpack libpcp-trace2-dev usr/include/pcp/trace.h
unpack libpcp-gui2 usr/lib/libpcp_gui.so.2
# compress(1), to make .Z volumes (never installed: only the tests use it)
unpack ncompress usr/bin/compress
