#!/bin/sh
# debian_binaries_chkhelp.sh LIBDIR ORACLE_DIR
#
# Debian's chkhelp (ORACLE_DIR/usr/lib/pcp/bin/chkhelp), run once on
# Debian's libraries and once on pmkit's (LIBDIR first on the library
# path), over every help database Debian's pcp package ships, read with a
# namespace that holds no names.  -p and -i walk the open databases
# through libpcp_pmda's __pmdaHelpTab (PCP's table of handles, read field
# by field by the binary), so the two runs show that pmkit's table has
# PCP's layout and contents; the integrity check (no option) goes through
# pmdaOpenHelp alone.  stdout, stderr and the exit status must be
# identical, and the second run must have loaded pmkit's libraries.
#
# Exit 0 identical, 1 any difference, 2 usage, 77 skip.
set -u
if [ $# != 2 ]; then
    echo "Usage: debian_binaries_chkhelp.sh LIBDIR ORACLE_DIR" >&2
    exit 2
fi
lib=$1 oracle=$2
chkhelp=$oracle/usr/lib/pcp/bin/chkhelp
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
need_oracle "$chkhelp" "Debian's chkhelp"
need_ours "$lib/libpcp_pmda.so.3" libpcp_pmda
lib=$(abspath "$lib")
san=$(sanitizer_env "$lib/libpcp.so.3")
PCP_BINADM_DIR=$oracle/usr/lib/pcp/bin PCP_DERIVED_CONFIG=
export PCP_BINADM_DIR PCP_DERIVED_CONFIG
unset PMNS_DEFAULT PCP_ALT_CPP LD_LIBRARY_PATH

make_tmp debian_chkhelp
# pmkit's two libraries alone, so nothing else answers for them
mkdir "$tmp/lib"
ln -s "$lib/libpcp.so.3" "$tmp/lib/libpcp.so.3"
ln -s "$lib/libpcp_pmda.so.3" "$tmp/lib/libpcp_pmda.so.3"
# shellcheck disable=SC2086
loaded=$(env $san LD_LIBRARY_PATH="$tmp/lib" LD_TRACE_LOADED_OBJECTS=1 "$chkhelp" 2>&1)
for l in libpcp.so.3 libpcp_pmda.so.3; do
    if ! printf '%s\n' "$loaded" | grep -q "$l => $tmp/lib/$l"; then
        echo "FAIL: Debian's chkhelp does not load pmkit's $l:"
        printf '%s\n' "$loaded" | sed 's/^/    /'
        exit 1
    fi
done
printf 'root {\n}\n' >"$tmp/empty.pmns"

find "$oracle" -name help.dir -type f | sort >"$tmp/list"
n=0 nruns=0 ndiff=0
while IFS= read -r d; do
    base=${d%.dir}
    n=$((n + 1))
    for opts in "-p -i -O -H" "-p" "-i -O" ""; do
        nruns=$((nruns + 1))
        # shellcheck disable=SC2086
        env $san LD_LIBRARY_PATH="$tmp/lib" "$chkhelp" -n "$tmp/empty.pmns" $opts "$base" \
            >"$tmp/ours.out" 2>"$tmp/ours.err"
        r1=$?
        # shellcheck disable=SC2086
        "$chkhelp" -n "$tmp/empty.pmns" $opts "$base" >"$tmp/theirs.out" 2>"$tmp/theirs.err"
        r2=$?
        bad=
        [ $r1 = $r2 ] || bad="$bad exit($r1 vs $r2)"
        cmp -s "$tmp/ours.out" "$tmp/theirs.out" || bad="$bad stdout"
        cmp -s "$tmp/ours.err" "$tmp/theirs.err" || bad="$bad stderr"
        if [ -n "$bad" ]; then
            report_diff "${base#"$oracle"/}:$bad" "chkhelp -n EMPTY $opts $base"
        fi
    done
done <"$tmp/list"

if [ $n = 0 ]; then # the extract is there (need_oracle), so it is broken
    echo "FAIL: no help.dir under $oracle (remove it and run: sh scripts/deps.sh test)"
    exit 1
fi
if [ $ndiff != 0 ]; then
    echo "Debian's chkhelp on pmkit's libraries: FAILED, $ndiff of $nruns runs differ ($n databases)"
    exit 1
fi
echo "Debian's chkhelp on pmkit's libraries: $nruns runs identical ($n databases)"
exit 0
