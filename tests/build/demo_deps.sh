#!/bin/sh
# demo_deps.sh SRCDIR: make demo's configure step needs no test-only package.
#
# Runs the very Makefile rule make demo (and plain make) configures with,
# $(BUILD)/CMakeCache.txt, into a scratch build directory, with the
# test-only packages out of reach: cmocka (pkg-config looks in an empty
# directory alone) and a C++ compiler (CXX names one that does not exist).
# It must succeed, configure without the tests, and leave no trace in the
# cache of having looked for cmocka, pkg-config or C++.  What this cannot see -- a package missing from deps.sh's
# build list that this machine happens to have -- only a bare machine
# shows: docs/DEVELOPING.md, "Machines".
# Exit 0 when it holds, 1 when not, 77 (skip) without make.
set -u
unset MAKEFLAGS MFLAGS MAKELEVEL
src=$(cd "${1:?usage: demo_deps.sh SRCDIR}" && pwd) || exit 2
command -v make >/dev/null 2>&1 || {
    echo "SKIP: make not found"
    exit 77
}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/demo_deps.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
build=$tmp/build
mkdir "$tmp/no-pc"
if ! PKG_CONFIG_LIBDIR=$tmp/no-pc PKG_CONFIG_PATH= CXX=$tmp/no-c++ \
    make -C "$src" --no-print-directory "$build/CMakeCache.txt" BUILD="$build" \
    >"$tmp/log" 2>&1; then
    echo "FAIL: make demo's configure step failed without cmocka and C++:"
    cat "$tmp/log"
    exit 1
fi
verdict=0
if ! grep -q '^PMKIT_TESTS:BOOL=OFF$' "$build/CMakeCache.txt"; then
    echo "FAIL: make demo configures with the tests ($(grep '^PMKIT_TESTS:' "$build/CMakeCache.txt"))"
    verdict=1
fi
if grep -E 'CMOCKA|PKG_CONFIG_EXECUTABLE|CMAKE_CXX_COMPILER' "$build/CMakeCache.txt"; then
    echo "FAIL: make demo's configure step looked for the above"
    verdict=1
fi
[ $verdict = 0 ] && echo "PASS: make demo configures without the tests, cmocka, pkg-config or C++"
exit $verdict
