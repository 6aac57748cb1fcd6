#!/bin/sh
# mmv_programs.sh BUILDDIR ORACLE TESTSUITE_SRC DEBIAN_LIBPCP MMV_INCLUDE TRACE_INCLUDE
#
# PCP's programs that need <pcp/mmv_stats.h>, <pcp/mmv_dev.h> or
# <pcp/trace.h> and no library but libpcp, built unchanged against pmkit
# (BUILDDIR's headers and libpcp) and against Debian's (its libpcp3-dev
# headers, MMV_INCLUDE and TRACE_INCLUDE: the unpacked libpcp-mmv1-dev's
# and libpcp-trace2-dev's usr/include, DEBIAN_LIBPCP), must do the same:
#  - pcp-testsuite's badmmv (TESTSUITE_SRC) writes its damaged MMV files
#    (-h, -c, -i, -m) into $PCP_TMP_DIR/mmv: the same files, byte for byte,
#    and the same output; mmv_noinit writes a whole file by hand (the same
#    bytes once the generation numbers and the process id, the run's own,
#    are zeroed on both sides); mmv_poke sets each header flag and a
#    process id in copies of it: the same bytes;
#  - the mmv demo's mmvdump (ORACLE: the unpacked pcp package) prints each
#    of those files: the same output and exit status;
#  - the trace demo's stub.c builds as libpcp_trace-stub.so (as its
#    Makefile, -DPMTRACE_DEBUG) exporting the same symbols, and the demo's
#    pmtrace, linked to each side's stub and libpcp, prints the same for a
#    transaction, an observation, a counter, a point, each with the API
#    diagnostics, and its usage.
# Every run's stdout, stderr and exit status are compared, the side's
# directory named DIR.  pmkit's builds take $PMKIT_SAN_CFLAGS (the
# sanitizers pmkit was built with).  Exit 0 the same, 1 a difference or a
# build failure, 2 usage, 77 skip (the packages or a compiler missing).
set -u
[ $# = 6 ] || {
    echo "Usage: mmv_programs.sh BUILDDIR ORACLE TESTSUITE_SRC DEBIAN_LIBPCP MMV_INCLUDE TRACE_INCLUDE" >&2
    exit 2
}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/oracle/oracle_lib.sh
. "$here/oracle_lib.sh"
build=$(cd "$1" && pwd) || exit 2
oracle=$2
ts=$3
debian_lib=$4
mmvinc=$5
traceinc=$6
cc=${CC:-cc}
demos=$oracle/usr/share/pcp/demos
for f in "$ts/badmmv.c" "$ts/mmv_noinit.c" "$ts/mmv_poke.c" "$ts/libpcp.h" "$demos/mmv/mmvdump.c" \
    "$demos/trace/stub.c" "$demos/trace/pmtrace.c" /usr/include/pcp/pmapi.h "$debian_lib" \
    "$mmvinc/pcp/mmv_dev.h" "$traceinc/pcp/trace.h"; do
    [ -f "$f" ] || { echo "SKIP: $f is missing (sh scripts/deps.sh test installs and unpacks it)"; exit 77; }
done
command -v "$cc" >/dev/null 2>&1 || { echo "SKIP: no C compiler ($cc)"; exit 77; }
make_tmp mmv_programs
mkdir "$tmp/src" "$tmp/inc"
printf '#define PCP_PLATFORM linux\n#define PCP_VER 60003\n' >"$tmp/inc/localconfig.h"
: >"$tmp/pmcd.conf"
export PCP_PMCDCONF_PATH="$tmp/pmcd.conf"
# the sources, away from PCP's libpcp.h (pmkit's side must not see it)
cp "$ts/badmmv.c" "$ts/mmv_noinit.c" "$ts/mmv_poke.c" "$demos/mmv/mmvdump.c" "$demos/trace/stub.c" \
    "$demos/trace/pmtrace.c" "$tmp/src/"

# build SIDE NAME [CC ARGS...]: $tmp/SIDE/NAME from $tmp/src/NAME.c as
# the side builds programs; a failure fails the test (pmkit) or skips it
build() {
    side=$1 name=$2
    shift 2
    if [ "$side" = pmkit ]; then
        # shellcheck disable=SC2086 # $PMKIT_SAN_CFLAGS: the sanitizers of an ASan build
        "$cc" ${PMKIT_SAN_CFLAGS:-} -DDEBUG -D_GNU_SOURCE -Werror=implicit-function-declaration \
            -I"$tmp/inc" -I"$build/include/pcp" -I"$build/include" "$@" -L"$build/lib" \
            -Wl,-rpath,"$build/lib" -lpcp 2>"$tmp/cc.err" && return 0
        echo "FAIL: $name does not build against pmkit:"
        shorten <"$tmp/cc.err"
        exit 1
    fi
    "$cc" -w -DDEBUG -D_GNU_SOURCE -I"$tmp/inc" -I"$ts" -I"$mmvinc" -I"$traceinc" "$@" "$debian_lib" \
        2>"$tmp/cc.err" && return 0
    echo "SKIP: $name does not build against Debian's PCP:"
    shorten <"$tmp/cc.err"
    exit 77
}
for side in pmkit pcp; do
    d=$tmp/$side
    mkdir -p "$d/tmp/mmv"
    for p in badmmv mmv_noinit mmv_poke mmvdump; do
        build "$side" $p -o "$d/$p" "$tmp/src/$p.c"
    done
    build "$side" libpcp_trace-stub.so -DPMTRACE_DEBUG -shared -fPIC -o "$d/libpcp_trace-stub.so" \
        "$tmp/src/stub.c"
    build "$side" pmtrace -DPMTRACE_DEBUG -o "$d/pmtrace" "$tmp/src/pmtrace.c" "$d/libpcp_trace-stub.so" \
        -Wl,-rpath,"$d"
done

ndiff=0 n=0
# run CMD...: CMD (a program of the side's directory and its arguments) on
# both sides, from the side's directory, with its own PCP_TMP_DIR
run() {
    n=$((n + 1))
    for side in pmkit pcp; do
        (
            cd "$tmp/$side" || exit 1
            prog=$1
            shift
            PCP_TMP_DIR="$tmp/$side/tmp" exec "./$prog" "$@"
        ) </dev/null >"$tmp/$side.out" 2>"$tmp/$side.err"
        echo "exit $?" >>"$tmp/$side.out"
        for f in out err; do
            sed "s|$tmp/$side|DIR|g" "$tmp/$side.$f" >"$tmp/$side.$f.named"
        done
    done
    if ! cmp -s "$tmp/pmkit.out.named" "$tmp/pcp.out.named" ||
        ! cmp -s "$tmp/pmkit.err.named" "$tmp/pcp.err.named"; then
        ndiff=$((ndiff + 1))
        echo "DIFF: $*"
        diff "$tmp/pcp.out.named" "$tmp/pmkit.out.named" | shorten | sed 's/^/  out /'
        diff "$tmp/pcp.err.named" "$tmp/pmkit.err.named" | shorten | sed 's/^/  err /'
    fi
}
# same_files WHAT: the MMV files of both sides, names and bytes, compared
same_files() {
    n=$((n + 1))
    (cd "$tmp/pcp/tmp/mmv" && ls) >"$tmp/pcp.files"
    (cd "$tmp/pmkit/tmp/mmv" && ls) >"$tmp/pmkit.files"
    if ! cmp -s "$tmp/pcp.files" "$tmp/pmkit.files"; then
        ndiff=$((ndiff + 1))
        echo "DIFF: the files $1 (< Debian, > pmkit):"
        diff "$tmp/pcp.files" "$tmp/pmkit.files" | shorten | sed 's/^/  /'
        return
    fi
    while read -r f; do
        cmp "$tmp/pcp/tmp/mmv/$f" "$tmp/pmkit/tmp/mmv/$f" >/dev/null 2>&1 && continue
        ndiff=$((ndiff + 1))
        echo "DIFF: $f, $1, differs (offset, Debian's byte, pmkit's, in octal):"
        cmp -l "$tmp/pcp/tmp/mmv/$f" "$tmp/pmkit/tmp/mmv/$f" 2>&1 | shorten | sed 's/^/  /'
    done <"$tmp/pcp.files"
}
# zero FILE OFFSET COUNT: COUNT bytes of FILE (both sides') from OFFSET zeroed
zero() {
    for side in pmkit pcp; do
        dd if=/dev/zero of="$tmp/$side/tmp/mmv/$1" bs=1 seek="$2" count="$3" conv=notrunc 2>/dev/null ||
            { echo "FAIL: cannot zero $1 ($side)"; exit 1; }
    done
}

# badmmv's damaged files, each kind; its usage
for opt in -h -c -i -m; do run badmmv "$opt"; done
run badmmv
run badmmv -x
same_files "badmmv wrote"
# mmv_noinit's file; the generation numbers (bytes 8 to 23 of the header)
# and the process id (32 to 35) are the run's own
for side in pmkit pcp; do : >"$tmp/$side/tmp/mmv/noinit"; done
run mmv_noinit noinit
run mmv_noinit nosuchfile
zero noinit 8 16
zero noinit 32 4
same_files "mmv_noinit wrote"
# mmv_poke: each flag, a process id, on copies of it
for flag in noprefix process sentinel none; do
    for side in pmkit pcp; do cp "$tmp/$side/tmp/mmv/noinit" "$tmp/$side/tmp/mmv/poked-$flag"; done
    run mmv_poke -f "$flag" "tmp/mmv/poked-$flag"
done
for side in pmkit pcp; do cp "$tmp/$side/tmp/mmv/noinit" "$tmp/$side/tmp/mmv/poked-pid"; done
run mmv_poke -f process -p 4242 tmp/mmv/poked-pid
run mmv_poke
run mmv_poke tmp/mmv/nosuchfile
same_files "mmv_poke changed"
# mmvdump of every file
while read -r f; do run mmvdump "tmp/mmv/$f"; done <"$tmp/pcp.files"
run mmvdump tmp/mmv/nosuchfile
run mmvdump a b

# the stub library's exports and pmtrace on it
n=$((n + 1))
for side in pmkit pcp; do
    # (less the sanitizers' own, in an ASan build)
    nm -D --defined-only "$tmp/$side/libpcp_trace-stub.so" | awk '$3 !~ /^__(odr_)?asan/ { print $2, $3 }' |
        sort >"$tmp/$side.syms"
done
if ! grep -q ' pmtraceerrstr$' "$tmp/pcp.syms" || ! cmp -s "$tmp/pcp.syms" "$tmp/pmkit.syms"; then
    ndiff=$((ndiff + 1))
    echo "DIFF: libpcp_trace-stub.so's exports (< Debian, > pmkit):"
    diff "$tmp/pcp.syms" "$tmp/pmkit.syms" | shorten | sed 's/^/  /'
fi
run pmtrace -S 1 -e true transaction
run pmtrace -S 1 -e false failing
run pmtrace -S 1 -v 2.5 observed
run pmtrace -S 1 -c 7 counted
run pmtrace -S 0x11 point
run pmtrace -q point
run pmtrace -v 1 -c 2 both
run pmtrace

if [ "$ndiff" -ne 0 ]; then
    echo "FAIL: $ndiff of $n comparisons differ (< Debian, > pmkit)"
    exit 1
fi
echo "PASS: badmmv, mmv_noinit, mmv_poke, mmvdump, libpcp_trace-stub.so and pmtrace on it build against" \
    "pmkit unchanged; $n comparisons (runs, written files, exports) identical to Debian's builds"
