#!/bin/sh
# testsuite_diff.sh BUILDDIR TESTSUITE_SRC DEBIAN_LIBPCP CASES
#
# Programs of Debian's pcp-testsuite (TESTSUITE_SRC: its src directory in
# the unpacked package), built unchanged against pmkit and against
# Debian's libpcp, must behave alike.  Each line of CASES is a program and
# its arguments, as the shell reads a command ('#' starts a comment):
#  1. every program named is compiled as the testsuite's makefiles do
#     (-DDEBUG, "libpcp.h" from beside the source for Debian's side, the
#     "localconfig.h" QA writes for PCP 6.0.3 on both) against pmkit's
#     headers (BUILDDIR/include, without PCP's libpcp.h) with implicit
#     declarations an error, and linked against pmkit's libpcp with
#     -Wl,--no-undefined ($PMKIT_SAN_CFLAGS: the sanitizers pmkit was built
#     with, but for shifts: chkacc1 and chkacc2 shift 1 into the sign bit,
#     PCP's code); and against Debian's headers and libpcp;
#  2. each line is run on both sides from a directory of its own (the same
#     argv[0]), with a pmcd.conf of no agents for a local context: stdout,
#     stderr and exit status must be identical once the addresses are named
#     (0x and 9 or more hex digits become P<n> by order of first appearance,
#     counted afresh at each line that begins a dump: "Add request",
#     "Delete request", "Now try") and a message's time and process id
#     named [TIME] and PID.
# $TESTSUITE_DEBIAN_INCLUDE, when set, is a directory that must hold
# Debian's headers that libpcp3-dev lacks (<pcp/archive.h> from
# libpcp-archive1-dev, unpacked), searched on Debian's side only.
# In CASES, @ARCHIVES@ stands for the testsuite's archives directory
# (TESTSUITE_SRC/../archives), @SRC@ for TESTSUITE_SRC (its PMNS files), and a line "%sed SCRIPT" has the lines after
# it compared once SCRIPT has edited both sides' outputs (a bare "%sed"
# ends that): counts that differ by design, each such use saying why.
# Exit 0 identical, 1 a difference or a build failure, 2 usage, 77 skip
# (the testsuite extract, Debian's files or a compiler missing).
set -u
[ $# = 4 ] || { echo "Usage: testsuite_diff.sh BUILDDIR TESTSUITE_SRC DEBIAN_LIBPCP CASES" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
build=$(cd "$1" && pwd) || exit 2
ts=$2
debian_lib=$3
cases=$(abspath "$4")
cc=${CC:-cc}
for f in "$ts/libpcp.h" /usr/include/pcp/pmapi.h "$debian_lib"; do
    [ -f "$f" ] || { echo "SKIP: $f is missing (sh scripts/deps.sh test installs and unpacks it)"; exit 77; }
done
command -v "$cc" >/dev/null 2>&1 || { echo "SKIP: no C compiler ($cc)"; exit 77; }
debinc=
if [ -n "${TESTSUITE_DEBIAN_INCLUDE:-}" ]; then
    [ -d "$TESTSUITE_DEBIAN_INCLUDE" ] ||
        { echo "SKIP: $TESTSUITE_DEBIAN_INCLUDE is missing (sh scripts/deps.sh test unpacks it)"; exit 77; }
    debinc=-I$TESTSUITE_DEBIAN_INCLUDE
fi
[ -f "$cases" ] || { echo "FAIL: no cases file $cases"; exit 1; }
make_tmp testsuite_diff
mkdir "$tmp/pmkit" "$tmp/pcp" "$tmp/src" "$tmp/inc"
printf '#define PCP_PLATFORM linux\n#define PCP_VER 60003\n' >"$tmp/inc/localconfig.h"
: >"$tmp/pmcd.conf"
export PCP_PMCDCONF_PATH="$tmp/pmcd.conf"

# the addresses named, afresh at each dump's heading
addresses() {
    awk '/^(Add request|Delete request|Now try)/ { delete seen; n = 0 }
    {
        out = ""
        while (match($0, /0x[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]+/)) {
            a = substr($0, RSTART, RLENGTH)
            if (!(a in seen)) seen[a] = "P" n++
            out = out substr($0, 1, RSTART - 1) seen[a]
            $0 = substr($0, RSTART + RLENGTH)
        }
        print out $0
    }'
}

archives=$(cd "$ts/../archives" 2>/dev/null && pwd) || archives=$ts/../archives
srcdir=$(cd "$ts" && pwd)
progs=$(sed -e 's/#.*//' -e '/^%/d' "$cases" | awk 'NF { print $1 }' | sort -u)
for prog in $progs; do
    [ -f "$ts/$prog.c" ] || { echo "SKIP: $ts/$prog.c is missing"; exit 77; }
    cp "$ts/$prog.c" "$tmp/src/"
    # shellcheck disable=SC2086 # $PMKIT_SAN_CFLAGS: the sanitizers of an ASan build
    if ! "$cc" ${PMKIT_SAN_CFLAGS:-} ${PMKIT_SAN_CFLAGS:+-fno-sanitize=shift} -DDEBUG -D_GNU_SOURCE \
        -Werror=implicit-function-declaration -I"$tmp/inc" -I"$build/include/pcp" \
        -I"$build/include" -o "$tmp/pmkit/$prog" "$tmp/src/$prog.c" -Wl,--no-undefined \
        -L"$build/lib" -Wl,-rpath,"$build/lib" -lpcp -lpthread 2>"$tmp/cc.err"; then
        echo "FAIL: $prog.c does not build against pmkit:"
        shorten <"$tmp/cc.err"
        exit 1
    fi
    # shellcheck disable=SC2086 # $debinc: one option or none
    if ! "$cc" -w -DDEBUG -D_GNU_SOURCE -I"$tmp/inc" -I"$ts" $debinc -o "$tmp/pcp/$prog" "$ts/$prog.c" \
        "$debian_lib" -lpthread 2>"$tmp/cc.err"; then
        echo "SKIP: $prog.c does not build against Debian's libpcp:"
        shorten <"$tmp/cc.err"
        exit 77
    fi
done

ndiff=0 n=0 edit=
while IFS= read -r line; do
    line=${line%%#*}
    case $line in
    %sed*)
        edit=${line#%sed}
        continue
        ;;
    esac
    [ -n "$(echo "$line" | tr -d ' ')" ] || continue
    line=$(echo "$line" | sed -e "s|@ARCHIVES@|$archives|g" -e "s|@SRC@|$srcdir|g")
    n=$((n + 1))
    for side in pmkit pcp; do
        # the case's words are the arguments, quotes grouping them
        (cd "$tmp/$side" && eval "exec ./$line") >"$tmp/$side.rawout" 2>"$tmp/$side.rawerr"
        echo "exit $?" >>"$tmp/$side.rawout"
        sed "${edit:-}" "$tmp/$side.rawout" | addresses >"$tmp/$side.out"
        # a message's time and process id (pmNotifyErr) are the run's own
        sed 's/^\[[^]]*\] \([^ (]*\)([0-9]*)/[TIME] \1(PID)/' "$tmp/$side.rawerr" |
            sed "${edit:-}" | addresses >"$tmp/$side.err"
    done
    if ! cmp -s "$tmp/pmkit.out" "$tmp/pcp.out" || ! cmp -s "$tmp/pmkit.err" "$tmp/pcp.err"; then
        ndiff=$((ndiff + 1))
        echo "DIFF: $line"
        diff "$tmp/pcp.out" "$tmp/pmkit.out" | shorten | sed 's/^/  out /'
        diff "$tmp/pcp.err" "$tmp/pmkit.err" | shorten | sed 's/^/  err /'
    fi
done <"$cases"
if [ "$ndiff" -ne 0 ]; then
    echo "FAIL: $ndiff of $n testsuite program runs differ (< Debian, > pmkit)"
    exit 1
fi
echo "PASS: $(echo "$progs" | tr '\n' ' ')build against pmkit unchanged; $n runs identical to Debian's builds"
