#!/bin/sh
# testsuite_access_diff.sh BUILDDIR TESTSUITE DEBIAN_LIBPCP
#
# PCP's own QA programs of access control, chkacc1, chkacc2, chkacc3 and
# multithread2 from Debian's pcp-testsuite (TESTSUITE is its unpacked
# var/lib/pcp/testsuite), built unchanged against pmkit and against
# Debian's libpcp, must print the same:
#  1. each source is compiled as the testsuite's makefile does (-DDEBUG,
#     "libpcp.h" and "localconfig.h" beside it): for pmkit, from a
#     directory holding links to the sources and the localconfig.h QA
#     writes for PCP 6.0.3, so "libpcp.h" is pmkit's <pcp/libpcp.h>
#     (BUILDDIR/include) with implicit declarations an error and
#     -Wl,--no-undefined; for Debian, beside the testsuite's own libpcp.h
#     ($PMKIT_SAN_CFLAGS: the sanitizer flags pmkit was built with);
#  2. chkacc1-3 run as QA runs them, with -4 (the default) and with -6
#     (IPv6 addresses too), and multithread2 once, with a pmcd.conf of no
#     agents for its local context: stdout, stderr and exit status must be
#     identical.
# Exit 0 identical, 1 failure, 2 usage, 77 skip (the testsuite or Debian's
# libpcp missing).
set -u
[ $# = 3 ] || { echo "Usage: testsuite_access_diff.sh BUILDDIR TESTSUITE DEBIAN_LIBPCP" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
build=$(cd "$1" && pwd) || exit 2
src=$(cd "$2" 2>/dev/null && pwd)/src
debian_lib=$3
cc=${CC:-cc}
progs="chkacc1 chkacc2 chkacc3 multithread2"
for f in "$src/libpcp.h" "$debian_lib"; do
    [ -f "$f" ] || { echo "SKIP: $f is missing (sh scripts/deps.sh test unpacks pcp-testsuite)"; exit 77; }
done
for p in $progs; do
    [ -f "$src/$p.c" ] || { echo "SKIP: $src/$p.c is missing"; exit 77; }
done
command -v "$cc" >/dev/null 2>&1 || { echo "SKIP: no C compiler ($cc)"; exit 77; }
make_tmp testsuite_access
mkdir "$tmp/pmkit" "$tmp/pcp" "$tmp/inc"
printf '#define PCP_PLATFORM linux\n#define PCP_VER 60003\n' >"$tmp/inc/localconfig.h"
: >"$tmp/pmcd.conf"
export PCP_PMCDCONF_PATH="$tmp/pmcd.conf"
for p in $progs; do
    ln -s "$src/$p.c" "$tmp/pmkit/$p.c"
    # shellcheck disable=SC2086 # $PMKIT_SAN_CFLAGS: the sanitizers of an ASan build
    # (but for shifts: chkacc1 and chkacc2 shift 1 into the sign bit, PCP's code)
    if ! "$cc" ${PMKIT_SAN_CFLAGS:-} ${PMKIT_SAN_CFLAGS:+-fno-sanitize=shift} -D_GNU_SOURCE -DDEBUG -Werror=implicit-function-declaration \
        -I"$tmp/inc" -I"$build/include/pcp" -I"$build/include" -o "$tmp/pmkit/$p" \
        "$tmp/pmkit/$p.c" -Wl,--no-undefined -L"$build/lib" -Wl,-rpath,"$build/lib" -lpcp \
        -lpthread 2>"$tmp/cc.err"; then
        echo "FAIL: $p.c does not build against pmkit:"
        cat "$tmp/cc.err"
        exit 1
    fi
    if ! "$cc" -w -D_GNU_SOURCE -DDEBUG -I"$tmp/inc" -o "$tmp/pcp/$p" "$src/$p.c" "$debian_lib" \
        -lpthread 2>"$tmp/cc.err"; then
        echo "SKIP: $p.c does not build against Debian's libpcp:"
        cat "$tmp/cc.err"
        exit 77
    fi
done

ndiff=0 n=0 lines=0
for args in "chkacc1" "chkacc1 -6" "chkacc2" "chkacc2 -6" "chkacc3" "chkacc3 -4" "chkacc3 -6" \
    "chkacc1 -x" "multithread2"; do
    n=$((n + 1))
    run_sides "./$args"
    lines=$((lines + $(cat "$tmp/pmkit.out" "$tmp/pmkit.err" | wc -l)))
done
if [ "$ndiff" -ne 0 ]; then
    echo "FAIL: $ndiff of $n runs differ (< Debian, > pmkit)"
    exit 1
fi
echo "PASS: $progs build against pmkit unchanged; $n runs identical to Debian's builds ($lines lines)"
