#!/bin/sh
# fetchgroup_diff.sh ORACLE_DIR PROBE_PMKIT PROBE_PCP AGENT_PMKIT AGENT_PCP
#
# The fetch-group API, pmkit against Debian's libpcp: probe_fetchgroup.c,
# built once against each library, loads fg_agent.c (built once against
# each libpcp_pmda) into a local context and prints every registration,
# fetch, conversion, clear and destroy.  The two outputs must be
# identical.  Debian's namespace loader needs its pmcpp from the oracle
# extract.
set -eu
[ $# -eq 5 ] || { echo "usage: $0 ORACLE PROBE_PMKIT PROBE_PCP AGENT_PMKIT AGENT_PCP" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
need_oracle "$1/usr/lib/pcp/bin/pmcpp" "Debian's pmcpp"
need_built "$3" "$5"
make_tmp fetchgroup_diff
export PCP_DERIVED_CONFIG= PCP_BINADM_DIR="$1/usr/lib/pcp/bin"
"$2" "$here/fg.pmns" "$4" >"$tmp/pmkit.out" 2>"$tmp/pmkit.err" ||
    { echo "FAIL: pmkit probe exited $?"; cat "$tmp/pmkit.err"; exit 1; }
"$3" "$here/fg.pmns" "$5" >"$tmp/pcp.out" 2>"$tmp/pcp.err" ||
    { echo "FAIL: Debian probe exited $?"; cat "$tmp/pcp.err"; exit 1; }
if [ ! -s "$tmp/pcp.out" ]; then
    echo "FAIL: the probes printed nothing"
    exit 1
fi
if ! diff -u "$tmp/pcp.out" "$tmp/pmkit.out"; then
    echo "FAIL: fetch-group answers differ (- Debian, + pmkit)"
    exit 1
fi
echo "PASS: $(wc -l <"$tmp/pmkit.out") lines of fetch-group answers identical"
