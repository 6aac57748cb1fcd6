#!/bin/sh
# local_diff.sh ORACLE_DIR PROBE_PMKIT PROBE_PCP SIMPLE_PMKIT TRIVIAL_PMKIT SIMPLE_PCP TRIVIAL_PCP
#
# The local context, pmkit against Debian's libpcp: probe_local.c, built
# once against each library, loads PCP's own simple and trivial agents
# (built from Debian's sources, once against each library's libpcp_pmda)
# and prints contexts, descriptors, help, instance domains, fetches,
# profiles, stores and error answers.  The two outputs must be identical.
# The namespace is seed.pmns and the help databases are compiled with
# Debian's newhelp, as seed_agents.sh does; values that vary with time are
# never printed by the probe.
set -eu
[ $# -eq 7 ] || { echo "usage: $0 ORACLE PROBE_PMKIT PROBE_PCP SIMPLE_PMKIT TRIVIAL_PMKIT SIMPLE_PCP TRIVIAL_PCP" >&2; exit 2; }
oracle=$1
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
newhelp=$oracle/usr/lib/pcp/bin/newhelp
seeds=$oracle/usr/lib/pcp/pmdas
conf=$oracle/etc/pcp/simple/simple.conf
for f in "$newhelp" "$seeds/simple/help" "$seeds/trivial/help" "$conf"; do
    [ -e "$f" ] || { echo "SKIP: $f is missing (make test-deps unpacks Debian's pcp)"; exit 77; }
done

make_tmp local_diff
cp "$here/seed.pmns" "$tmp/pmns"
export PCP_DERIVED_CONFIG= PCP_BINADM_DIR="$oracle/usr/lib/pcp/bin"
for side in pmkit pcp; do
    mkdir -p "$tmp/$side/simple" "$tmp/$side/trivial"
    cp "$conf" "$tmp/$side/simple/simple.conf"
done
# one compilation of each help, for both sides
for a in simple trivial; do
    sed 's/^@ SIMPLE\./@ 253./' "$seeds/$a/help" |
        "$newhelp" -n "$tmp/pmns" -v 2 -o "$tmp/pmkit/$a/help"
    cp "$tmp/pmkit/$a/help.dir" "$tmp/pmkit/$a/help.pag" "$tmp/pcp/$a/"
done

PCP_PMDAS_DIR="$tmp/pmkit" "$2" "$tmp/pmns" "$4" "$5" >"$tmp/pmkit.out" 2>"$tmp/pmkit.err" ||
    { echo "FAIL: pmkit probe exited $?"; cat "$tmp/pmkit.err"; exit 1; }
PCP_PMDAS_DIR="$tmp/pcp" "$3" "$tmp/pmns" "$6" "$7" >"$tmp/pcp.out" 2>"$tmp/pcp.err" ||
    { echo "FAIL: Debian probe exited $?"; cat "$tmp/pcp.err"; exit 1; }
if ! diff -u "$tmp/pcp.out" "$tmp/pmkit.out"; then
    echo "FAIL: local context answers differ (- Debian, + pmkit)"
    exit 1
fi
if ! diff -u "$tmp/pcp.err" "$tmp/pmkit.err"; then
    echo "FAIL: stderr differs (- Debian, + pmkit)"
    exit 1
fi
echo "PASS: $(wc -l <"$tmp/pmkit.out") lines of local-context answers identical"
