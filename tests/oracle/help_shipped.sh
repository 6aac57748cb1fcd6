#!/bin/sh
# help_shipped.sh CHKHELP ORACLE_DIR
#
# pmkit's chkhelp (CHKHELP) against Debian's (ORACLE_DIR/usr/lib/pcp/bin/
# chkhelp) on every help database Debian's pcp package ships (each
# help.dir under ORACLE_DIR that is a file, not a link, with its help.pag),
# read with a namespace that holds no names: chkhelp -p -i -O -H (every
# PMID and InDom with both texts) and chkhelp with no option (the integrity
# check).  stdout, stderr and the exit status must be identical.
#
# Exit 0 identical, 1 any difference, 2 usage, 77 skip (Debian's chkhelp or
# its databases missing).
set -u
if [ $# != 2 ]; then
    echo "Usage: help_shipped.sh CHKHELP ORACLE_DIR" >&2
    exit 2
fi
ours=$1 oracle=$2
theirs=$oracle/usr/lib/pcp/bin/chkhelp
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
need_oracle "$theirs" "Debian's chkhelp"
need_ours "$ours" chkhelp
PCP_BINADM_DIR=$oracle/usr/lib/pcp/bin PCP_DERIVED_CONFIG=
export PCP_BINADM_DIR PCP_DERIVED_CONFIG
unset PMNS_DEFAULT PCP_ALT_CPP

make_tmp help_shipped
printf 'root {\n}\n' >"$tmp/empty.pmns"

find "$oracle" -name help.dir -type f | sort >"$tmp/list"
n=0 nruns=0 ndiff=0
while IFS= read -r d; do
    base=${d%.dir}
    n=$((n + 1))
    for opts in "-p -i -O -H" ""; do
        nruns=$((nruns + 1))
        # shellcheck disable=SC2086
        "$ours" -n "$tmp/empty.pmns" $opts "$base" >"$tmp/ours.out" 2>"$tmp/ours.err"
        r1=$?
        # shellcheck disable=SC2086
        "$theirs" -n "$tmp/empty.pmns" $opts "$base" >"$tmp/theirs.out" 2>"$tmp/theirs.err"
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
    echo "shipped help oracle: FAILED, $ndiff of $nruns runs differ ($n databases)"
    exit 1
fi
echo "shipped help oracle: chkhelp identical to Debian's on $n databases ($nruns runs)"
exit 0
