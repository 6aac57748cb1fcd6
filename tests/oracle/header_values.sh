#!/bin/sh
# header_values.sh BUILDDIR: every object-like macro that Debian's PCP
# headers define (pmapi.h, pmda.h, platform_defs.h with its configuration,
# and the private libpcp.h, deprecated.h, pmdaroot.h) has the same value in
# pmkit's headers (BUILDDIR/include).
#
# The macros are those of a program including all six headers less those
# of the system headers alone.  A macro whose value is an integer or a
# string is compared by value, printed by a program built against each set
# of headers; any other (a type, a name another macro stands for) by its
# definition with the blanks taken out.  A macro pmkit does not define must
# be listed in header_values_absent with the reason; a name listed there
# that pmkit does define fails too, so the list stays true.
#
# Debian's side needs libpcp3-dev and libpcp-pmda3-dev (/usr/include/pcp)
# and PCP's libpcp.h, which Debian ships beside the sample agent in the pcp
# package ($PMKIT_ORACLE_DIR, else .cache/oracle/pcp); without them the
# test is skipped (77).  KEEP=DIR keeps the work files in DIR.
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd) || exit 2
oracle=${PMKIT_ORACLE_DIR:-$here/../../.cache/oracle/pcp}
sample=$oracle/usr/lib/pcp/pmdas/sample
cc=${CC:-cc}
if [ ! -f /usr/include/pcp/pmapi.h ] || [ ! -f /usr/include/pcp/pmdaroot.h ] ||
    [ ! -f "$sample/libpcp.h" ]; then
    echo "SKIP: needs Debian's PCP headers (libpcp3-dev, libpcp-pmda3-dev) and the pcp package" \
        "unpacked in $oracle (scripts/deps.sh test)"
    exit 77
fi
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] && tmp=$KEEP && rm -rf "$tmp" && mkdir -p "$tmp" || trap 'rm -rf "$tmp"' EXIT INT TERM

system='stdlib.h stdio.h stddef.h stdint.h inttypes.h errno.h string.h limits.h unistd.h
fcntl.h signal.h syslog.h sys/types.h sys/param.h sys/time.h time.h endian.h sys/socket.h
libgen.h dirent.h sys/stat.h sys/select.h netinet/tcp.h netinet/in.h arpa/inet.h netdb.h
stdarg.h pthread.h bits/wordsize.h'
for h in $system; do echo "#include <$h>"; done >"$tmp/system.c"
{
    echo '#include <pcp/pmapi.h>'
    echo '#include <pcp/pmda.h>'
    echo '#include <pcp/deprecated.h>'
    echo '#include "libpcp.h"'
    echo '#include <pcp/pmdaroot.h>'
} >"$tmp/pcp.c"
theirs="-I/usr/include/pcp -I$sample"
ours="-I$build/include -I$build/include/pcp"

# defs FLAGS FILE: "NAME DEFINITION" of the object-like macros FILE defines.
defs() {
    # shellcheck disable=SC2086
    $cc -D_GNU_SOURCE -E -dM $1 "$2" | sed -n 's/^#define \([A-Za-z_][A-Za-z0-9_]*\)\( \(.*\)\)\{0,1\}$/\1 \3/p' |
        sort
}
defs "" "$tmp/system.c" | cut -d' ' -f1 >"$tmp/system.names"
defs "$theirs" "$tmp/pcp.c" >"$tmp/theirs.defs" || exit 1
defs "$ours" "$tmp/pcp.c" >"$tmp/ours.defs" || exit 1
cut -d' ' -f1 "$tmp/theirs.defs" | sort -u | comm -23 - "$tmp/system.names" >"$tmp/names"
cut -d' ' -f1 "$tmp/ours.defs" | sort -u >"$tmp/ours.names"
[ -s "$tmp/names" ] || { echo "FAIL: no macros found in Debian's headers"; exit 1; }

fail=0
# NAME alone: pmkit does not define it; NAME machine: pmkit defines it where
# the machine it is built on has the thing (a header Debian's build had)
sed 's/[[:space:]]*#.*//' "$here/header_values_absent" |
    awk 'NF && $2 != "machine" { print $1 }' | sort -u >"$tmp/absent"
sed 's/[[:space:]]*#.*//' "$here/header_values_absent" |
    awk '$2 == "machine" { print $1 }' | sort -u >"$tmp/machine"
comm -23 "$tmp/names" "$tmp/ours.names" | comm -23 - "$tmp/absent" |
    comm -23 - "$tmp/machine" >"$tmp/missing"
if [ -s "$tmp/missing" ]; then
    echo "FAIL: Debian's headers define these, pmkit's do not:"
    sed 's/^/  /' "$tmp/missing"
    fail=1
fi
comm -12 "$tmp/absent" "$tmp/ours.names" >"$tmp/stale"
if [ -s "$tmp/stale" ]; then
    echo "FAIL: listed in header_values_absent but pmkit defines them:"
    sed 's/^/  /' "$tmp/stale"
    fail=1
fi
comm -12 "$tmp/names" "$tmp/ours.names" >"$tmp/both"

# A program printing each macro's value: integers and strings through
# _Generic; lines that do not compile (types, pointers) are taken out and
# those macros compared by definition.
prog() {
    cat "$tmp/pcp.c"
    printf '%s\n' 'static void s_(const char *n, const char *v) { printf("%s = \"%s\"\n", n, v); }'
    printf '%s\n' 'static void i_(const char *n, long long v) { printf("%s = %lld\n", n, v); }'
    echo '#define P_(m) _Generic((m), char *: s_, const char *: s_, default: i_)(#m, (m))'
    echo 'int main(void) {'
    while read -r n; do echo "P_($n);"; done <"$1"
    echo 'return 0; }'
}
cp "$tmp/both" "$tmp/valued"
for round in 1 2 3; do
    prog "$tmp/valued" >"$tmp/v.c"
    # shellcheck disable=SC2086
    if $cc -std=gnu11 -D_GNU_SOURCE -Werror=int-conversion -fmax-errors=0 $theirs -o "$tmp/v_theirs" "$tmp/v.c" \
        2>"$tmp/v.err" &&
        $cc -std=gnu11 -D_GNU_SOURCE -Werror=int-conversion -fmax-errors=0 $ours -o "$tmp/v_ours" "$tmp/v.c" \
            2>>"$tmp/v.err"; then
        break
    fi
    # The lines at fault name the macros to compare by definition instead.
    base=$(wc -l <"$tmp/pcp.c")
    # (an error inside P_ is reported at the #define, with a note naming
    # the line that expands it)
    sed -n 's/^[^:]*v\.c:\([0-9][0-9]*\):[0-9]*: \(error\|note: in expansion of macro\).*/\1/p' \
        "$tmp/v.err" | sort -un | awk -v b="$base" '$1 > b + 4 { print $1 - b - 4 }' >"$tmp/badlines"
    [ -s "$tmp/badlines" ] || { echo "FAIL: the value program does not build:"; cat "$tmp/v.err"; exit 1; }
    awk 'FILENAME == ARGV[1] { bad[$1] = 1; next } !(FNR in bad)' "$tmp/badlines" "$tmp/valued" \
        >"$tmp/valued.next"
    mv "$tmp/valued.next" "$tmp/valued"
    [ "$round" = 3 ] && { echo "FAIL: the value program does not build:"; cat "$tmp/v.err"; exit 1; }
done
"$tmp/v_theirs" >"$tmp/theirs.values" && "$tmp/v_ours" >"$tmp/ours.values" || {
    echo "FAIL: a value program did not run"
    exit 1
}
comm -23 "$tmp/both" "$tmp/valued" >"$tmp/textual"
for side in theirs ours; do
    awk 'NR == FNR { want[$1] = 1; next } ($1 in want) { n = $1; $1 = ""; gsub(/[ \t]/, ""); print n " = " $0 }' \
        "$tmp/textual" "$tmp/$side.defs" >>"$tmp/$side.values"
done
sort -o "$tmp/theirs.values" "$tmp/theirs.values"
sort -o "$tmp/ours.values" "$tmp/ours.values"
# PCP_CALL, PCP_DATA and PMDA_CALL mark the exports: empty in Debian's
# headers, pmkit's say visibility("default").
diff "$tmp/theirs.values" "$tmp/ours.values" | grep '^[<>]' |
    grep -v -e '^. PCP_CALL =' -e '^. PCP_DATA =' -e '^. PMDA_CALL =' >"$tmp/diff"
if [ -s "$tmp/diff" ]; then
    echo "FAIL: values differ (< Debian, > pmkit):"
    cat "$tmp/diff"
    fail=1
fi
[ $fail = 0 ] || exit 1
echo "$(wc -l <"$tmp/both") macros of Debian's PCP headers compared" \
    "($(wc -l <"$tmp/valued") by value), $(wc -l <"$tmp/absent") listed absent"
exit 0
