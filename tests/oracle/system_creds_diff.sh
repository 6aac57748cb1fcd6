#!/bin/sh
# system_creds_diff.sh PROBE_PMKIT PROBE_PCP AGENT_PMKIT AGENT_PCP
#
# The credentials a local context hands its agents, pmkit against Debian's
# libpcp: probe_system_creds.c (each side with probe_system_creds_agent.c
# built against its own libpcp_pmda) with the agent asking for them
# (PMDA_FLAG_AUTHORIZE, 4) or not, for containers only (64), at interface
# 5 and 6, with $PCP_CONTAINER unset, set and empty.  Each output must be
# identical.  Exit 0 identical, 1 any difference, 2 usage, 77 skip.
set -u
[ $# -eq 4 ] || { echo "usage: $0 PROBE_PMKIT PROBE_PCP AGENT_PMKIT AGENT_PCP" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
need_built "$2" "$4"
make_tmp system_creds_diff
export PCP_DERIVED_CONFIG=
unset PCP_CONTAINER CREDS_FLAGS CREDS_IFACE
nruns=0 ndiff=0
# each case: CREDS_FLAGS CREDS_IFACE PCP_CONTAINER ('-' unset)
for c in "4 7 -" "0 7 -" "64 7 box" "4 7 box" "68 6 box" "4 7 ''" "4 5 -" "4 6 -"; do
    flags=${c%% *} rest=${c#* } iface=${rest%% *} container=${rest#* }
    for side in pmkit pcp; do
        if [ $side = pmkit ]; then probe=$1 agent=$3; else probe=$2 agent=$4; fi
        (
            export CREDS_FLAGS="$flags" CREDS_IFACE="$iface"
            case $container in
            -) ;;
            "''") export PCP_CONTAINER= ;;
            *) export PCP_CONTAINER="$container" ;;
            esac
            "$probe" "$agent"
            echo "exit $?"
        ) >"$tmp/$side.out" 2>"$tmp/$side.raw"
        # pmdaInit's warning about help text carries a date and a pid
        sed 's/^\[[^]]*\] [^(]*([0-9]*) //' "$tmp/$side.raw" >"$tmp/$side.err"
    done
    nruns=$((nruns + 1))
    if ! grep -q '^first: fetch 0 numval 1 value 7$' "$tmp/pcp.out"; then
        echo "FAIL: Debian's probe did not fetch from its agent (flags $flags, interface $iface):"
        cat "$tmp/pcp.out" "$tmp/pcp.err"
        exit 1
    fi
    if ! cmp -s "$tmp/pmkit.out" "$tmp/pcp.out" || ! cmp -s "$tmp/pmkit.err" "$tmp/pcp.err"; then
        ndiff=$((ndiff + 1))
        echo "DIFF: flags $flags, interface $iface, PCP_CONTAINER $container (- Debian, + pmkit)"
        diff -u "$tmp/pcp.out" "$tmp/pmkit.out" | sed 's/^/  /'
        diff -u "$tmp/pcp.err" "$tmp/pmkit.err" | sed 's/^/  /'
    fi
done
if [ $ndiff != 0 ]; then
    echo "FAIL: $ndiff of $nruns cases differ"
    exit 1
fi
echo "PASS: $nruns cases of local-context credentials identical"
