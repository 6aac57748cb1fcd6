#!/bin/sh
# help_diff.sh NEWHELP CHKHELP PROBE_PMKIT PROBE_PCP ORACLE_BIN GEN [SEED] [COUNT]
#
# Differential test of pmkit's newhelp, chkhelp and help reader against
# Debian's.  NEWHELP and CHKHELP are pmkit's tools; PROBE_PMKIT and
# PROBE_PCP are tests/oracle/probe_help.c built against pmkit's and Debian's
# libpcp_pmda; ORACLE_BIN holds Debian's newhelp, chkhelp and pmcpp; GEN is
# gen_help, run as `GEN SEED COUNT DIR` (default seed 1, count 200).
#
# For every generated case (hNNNN.pmns, hNNNN.help [+ hNNNN.help2],
# hNNNN.args), both newhelps compile the sources with the same options in
# their own directory; then:
#  - exit status and stdout must be equal, help.dir and help.pag
#    byte-identical (stderr may differ: pmkit's diagnostics have their own
#    format);
#  - both chkhelps (-p -i -O -H, and -e) must print the same on both
#    databases: Debian's chkhelp reads pmkit's files and pmkit's reads
#    Debian's;
#  - the probe built against Debian's libpcp_pmda must answer the same on
#    pmkit's files as the pmkit probe on Debian's.
# Debian must exit 0 or 1 on every case (else GENERATOR BUG).
# HELP_DIFF_KEEP=DIR writes the generated cases to DIR (which must not exist
# yet) and keeps them.
#
# Exit 0 all identical, 1 any difference, 2 usage, 77 skip (no oracle).
set -u
if [ $# -lt 6 ] || [ $# -gt 8 ]; then
    echo "Usage: help_diff.sh NEWHELP CHKHELP PROBE_PMKIT PROBE_PCP ORACLE_BIN GEN [SEED] [COUNT]" >&2
    exit 2
fi
newhelp=$1 chkhelp=$2 probe_ours=$3 probe_theirs=$4 obin=$5 gen=$6 seed=${7:-1} count=${8:-200}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
for t in newhelp chkhelp pmcpp; do
    need_oracle "$obin/$t" "Debian's $t"
done
need_oracle "$probe_theirs" "probe built against Debian's libpcp_pmda" "install libpcp3-dev"
newhelp=$(abspath "$newhelp") chkhelp=$(abspath "$chkhelp") gen=$(abspath "$gen")
probe_ours=$(abspath "$probe_ours") probe_theirs=$(abspath "$probe_theirs") obin=$(abspath "$obin")
PCP_BINADM_DIR=$obin PCP_DERIVED_CONFIG=
export PCP_BINADM_DIR PCP_DERIVED_CONFIG
unset PMNS_DEFAULT PCP_ALT_CPP

make_tmp help_diff
generate HELP_DIFF_KEEP

ndiff=0 nbad=0 n=0
for pmns in "$cases"/*.pmns; do
    name=${pmns##*/}
    name=${name%.pmns}
    n=$((n + 1))
    srcs=$cases/$name.help
    [ -f "$cases/$name.help2" ] && srcs="$srcs $cases/$name.help2"
    args=$(cat "$cases/$name.args")
    rm -rf "$tmp/ours" "$tmp/theirs"
    mkdir "$tmp/ours" "$tmp/theirs"
    # shellcheck disable=SC2086
    (cd "$tmp/ours" && "$newhelp" $args -n "$pmns" -o help $srcs >out 2>err)
    rc1=$?
    # shellcheck disable=SC2086
    (cd "$tmp/theirs" && "$obin/newhelp" $args -n "$pmns" -o help $srcs >out 2>err)
    rc2=$?
    case $rc2 in
    0 | 1) ;;
    *)
        echo "GENERATOR BUG $name: Debian's newhelp exited $rc2"
        head -5 "$tmp/theirs/err"
        nbad=$((nbad + 1))
        continue
        ;;
    esac
    [ "$rc1" = "$rc2" ] || differ "newhelp exit $rc1 vs $rc2"
    cmp -s "$tmp/ours/out" "$tmp/theirs/out" || differ "newhelp stdout"
    for f in help.dir help.pag; do
        cmp "$tmp/ours/$f" "$tmp/theirs/$f" >/dev/null 2>&1 || differ "$f differs"
    done
    # chkhelp both ways: each tool on the other's database
    for opts in "-p -i -O -H" "-e"; do
        # shellcheck disable=SC2086
        "$chkhelp" -n "$pmns" $opts "$tmp/theirs/help" >"$tmp/c1" 2>&1
        r1=$?
        # shellcheck disable=SC2086
        "$obin/chkhelp" -n "$pmns" $opts "$tmp/ours/help" >"$tmp/c2" 2>&1
        r2=$?
        if [ "$r1" != "$r2" ] || ! cmp -s "$tmp/c1" "$tmp/c2"; then
            differ "chkhelp $opts (exit $r1 vs $r2)"
            diff "$tmp/c1" "$tmp/c2" | head -10 | sed 's/^/  /'
        fi
    done
    "$probe_ours" "$tmp/theirs/help" >"$tmp/p1" 2>&1
    "$probe_theirs" "$tmp/ours/help" >"$tmp/p2" 2>&1
    if ! cmp -s "$tmp/p1" "$tmp/p2"; then
        differ "probe answers"
        diff "$tmp/p1" "$tmp/p2" | head -10 | sed 's/^/  /'
    fi
done

if [ $n = 0 ]; then
    echo "FAIL: no cases generated in $cases"
    exit 1
fi
if [ $ndiff != 0 ] || [ $nbad != 0 ]; then
    echo "help oracle: FAILED: $ndiff differences, $nbad bad cases ($n cases, seed $seed)"
    keep_hint HELP_DIFF_KEEP
    exit 1
fi
echo "help oracle: $n generated cases identical (seed $seed): newhelp bytes, chkhelp and" \
    "libpcp_pmda both ways"
exit 0
