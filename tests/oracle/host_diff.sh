#!/bin/sh
# host_diff.sh PMINFO PROBE_PMKIT PROBE_PCP DAEMONS_OURS DAEMONS_THEIRS
#
# Host contexts against Debian's real pmcd, started by hand on a free
# loopback port and a unix socket in a scratch directory,
# with a private pmcd.conf and namespace: pmcd's own agent (DSO), PCP's
# simple as a DSO built against Debian's libraries (seed_agents.sh; pmcd
# loads it into itself), PCP's trivial as a pipe daemon, and pmkit's
# simple as a pipe daemon on domain 254 ("psimple"), built against pmkit
# (DAEMONS_OURS/pmkit_simple; DAEMONS_THEIRS/pcp_trivial from Debian's).
#
# Compared against that one pmcd: (a) probe_host.c built against Debian's
# libpcp (PROBE_PCP) and pmkit's (PROBE_PMKIT); (b) Debian's pminfo and
# pmkit's (PMINFO) over -h host:port, -h unix:PATH and -h local:, with
# -f -d -t -T -m -M -F -v, operands and bad names: stdout and exit status
# identical.  pmcd is stopped on every exit path.
#
# Needs no root and no network beyond loopback.  HOST_DIFF_KEEP=DIR keeps
# both sides' outputs in DIR.  Exit 0 identical, 1 a difference or
# failure, 2 usage, 77 skip (Debian's pmcd, pminfo, libraries or agent
# sources missing).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
if [ $# -ne 5 ]; then
    echo "Usage: host_diff.sh PMINFO PROBE_PMKIT PROBE_PCP DAEMONS_OURS DAEMONS_THEIRS" >&2
    exit 2
fi
oracle=${PMKIT_ORACLE_DIR:-$here/../../.cache/oracle/pcp}
pmcd=$oracle/usr/lib/pcp/bin/pmcd
their_pminfo=$oracle/usr/bin/pminfo
pmcd_dso=$oracle/usr/lib/pcp/pmdas/pmcd/pmda_pmcd.so
pmcd_pmns=$oracle/usr/lib/pcp/pmns/root_pmcd
need_oracle "$pmcd" "Debian's pmcd"
need_oracle "$their_pminfo" "Debian's pminfo"
for f in "$pmcd_dso" "$pmcd_pmns"; do
    if [ ! -f "$f" ]; then
        echo "SKIP: $f not found (run: sh scripts/deps.sh test)"
        exit 77
    fi
done
if [ ! -x "$3" ] || [ ! -x "$5/pcp_trivial" ]; then
    echo "SKIP: the programs built against Debian's libpcp are missing ($3, $5/pcp_trivial;" \
        "Debian's libpcp3-dev and libpcp-pmda3-dev: make test-deps)"
    exit 77
fi
need_ours "$1" "pminfo"
need_ours "$2" "probe_host"
need_ours "$4/pmkit_simple" "agent pmkit_simple"
ours_pminfo=$(abspath "$1") probe_ours=$(abspath "$2") probe_theirs=$(abspath "$3")
daemons_ours=$(abspath "$4") daemons_theirs=$(abspath "$5")

make_tmp host_diff
pmcd_pid=
trap 'stop_pmcd; cd /; rm -rf "$tmp"' EXIT

# The agents: PCP's simple and trivial with help files (seed_agents.sh).
if ! sh "$here/seed_agents.sh" "$tmp/agents" debian >"$tmp/seed.out" 2>&1; then
    sts=$?
    cat "$tmp/seed.out"
    [ $sts -eq 77 ] && exit 77
    echo "FAIL: seed_agents.sh could not build PCP's agents"
    exit 1
fi
# The namespace: pmcd's subtree, the seeds', and psimple (pmkit's simple
# on domain 254).
{
    sed -e '/^root {/,/^}/d' "$pmcd_pmns"
    printf 'root {\n    pmcd\n    simple\n    trivial\n    psimple\n}\n'
    sed -e '/^root {/,/^}/d' "$here/seed.pmns"
    sed -n -e '/^simple/,/^}/p' "$here/seed.pmns" | sed -e 's/^simple/psimple/' -e 's/253:/254:/'
} >"$tmp/pmns"
# the probe's pmLoadNameSpace reads without the preprocessor: the agents' part
{
    printf 'root {\n    simple\n    trivial\n    psimple\n}\n'
    sed -e '/^root {/,/^}/d' "$here/seed.pmns"
    sed -n -e '/^simple/,/^}/p' "$here/seed.pmns" | sed -e 's/^simple/psimple/' -e 's/253:/254:/'
} >"$tmp/pmns.plain"
user=$(id -un)
cat >"$tmp/pmcd.conf" <<EOF
pmcd	2	dso	pmcd_init	$pmcd_dso
simple	253	dso	simple_init	$tmp/agents/simple/pmda_simple.so
trivial	250	pipe	binary	$daemons_theirs/pcp_trivial -d 250 -U $user -l $tmp/trivial.log
psimple	254	pipe	binary	$daemons_ours/pmkit_simple -d 254 -U $user -l $tmp/psimple.log
EOF

# A free port: the kernel's choice for a socket bound to port 0.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' \
    2>/dev/null)
if [ -z "$port" ]; then
    echo "SKIP: python3 is needed to pick a free port"
    exit 77
fi
mkdir -p "$tmp/run" || exit 1
sock=$tmp/run/pmcd.socket
PCP_BINADM_DIR=$oracle/usr/lib/pcp/bin
PCP_PMDAS_DIR=$tmp/agents
PCP_RUN_DIR=$tmp/run
PCP_DERIVED_CONFIG=
export PCP_BINADM_DIR PCP_PMDAS_DIR PCP_RUN_DIR PCP_DERIVED_CONFIG
unset PMNS_DEFAULT PCP_PMCDCONF_PATH PMCD_PORT
# agents built with ASan (pmkit_simple): the daemon's default log name is
# lost when -l replaces it, in either library (daemon_diff.sh)
printf 'leak:pmdaDaemon\n' >"$tmp/lsan.supp"
LSAN_OPTIONS=suppressions=$tmp/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}
export LSAN_OPTIONS
"$pmcd" -f -A -i 127.0.0.1 -p "$port" -c "$tmp/pmcd.conf" -n "$tmp/pmns" -l "$tmp/pmcd.log" \
    -s "$sock" -x "$tmp/pmcd.err" >"$tmp/pmcd.out" 2>&1 &
pmcd_pid=$!
# ready once the socket exists and the three agents are up (bounded: 10 s)
wait_pmcd "$sock" psimple
# a port nobody listens on: another of the kernel's, closed again
dead=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')

ndiff=0
out=${HOST_DIFF_KEEP:-$tmp/out}
mkdir -p "$out" || exit 1

# run_side SIDE NAME CMD...: CMD's stdout and exit status into $out/NAME.SIDE
# (stderr beside it); compare NAME: the two sides must be identical.
run_side() {
    rs_side=$1 rs_name=$2
    shift 2
    "$@" >"$out/$rs_name.$rs_side.raw" 2>"$out/$rs_name.$rs_side.err"
    rs_sts=$?
    mask <"$out/$rs_name.$rs_side.raw" >"$out/$rs_name.$rs_side"
    echo "exit $rs_sts" >>"$out/$rs_name.$rs_side"
}
# mask: pminfo's values of the metrics that change with time or with every
# fetch (simple.color moves on at each one, whoever asks), and pmcd's own
mask() {
    awk '/^[a-z]+\.[a-z0-9_.]+(:| |$)/ { cur = $1; sub(/:$/, "", cur) }
        /^    (value|inst \[.*\] value) / &&
            cur ~ /^(p?simple\.(color|now|time\..*)|trivial\.time|pmcd\..*)$/ {
            sub(/ value .*$/, " value <masked>")
        }
        { print }'
}
compare() {
    name=$1
    if ! cmp -s "$out/$name.pcp" "$out/$name.pmkit"; then
        differ "outputs differ"
        diff "$out/$name.pcp" "$out/$name.pmkit" | shorten
    fi
    if ! cmp -s "$out/$name.pcp.err" "$out/$name.pmkit.err"; then
        differ "stderr differs"
        diff "$out/$name.pcp.err" "$out/$name.pmkit.err" | shorten
    fi
}

# (a) the probe
run_side pcp probe "$probe_theirs" "127.0.0.1:$port" "127.0.0.1:$dead" "$tmp/nosock" \
    "$tmp/pmns.plain"
run_side pmkit probe "$probe_ours" "127.0.0.1:$port" "127.0.0.1:$dead" "$tmp/nosock" \
    "$tmp/pmns.plain"
compare probe
for side in pcp pmkit; do
    if [ "$(tail -1 "$out/probe.$side")" != "exit 0" ]; then
        differ "the $side probe failed: $(tail -1 "$out/probe.$side")"
        shorten <"$out/probe.$side.err"
    fi
done

# (b) pminfo: one case per line, "NAME ARGS..." with @H@ the host spec
n=0
while read -r cname args; do
    case $cname in '' | '#'*) continue ;; esac
    args=$(printf '%s' "$args" | sed -e "s|@H@|127.0.0.1:$port|g" -e "s|@S@|unix:$sock|g" \
        -e "s|@D@|127.0.0.1:$dead|g")
    # shellcheck disable=SC2086
    run_side pcp "pminfo_$cname" "$their_pminfo" $args
    # shellcheck disable=SC2086
    run_side pmkit "pminfo_$cname" "$ours_pminfo" $args
    compare "pminfo_$cname"
    n=$((n + 1))
done <"$here/host_cases"

# every case must have left pmcd up (an agent inside it can bring it down)
if ! kill -0 "$pmcd_pid" 2>/dev/null; then
    name=pmcd
    differ "pmcd died during the run"
    tail -5 "$tmp/pmcd.log" | shorten
fi
stop_pmcd
if grep -l 'ERROR: \(Address\|Leak\|Undefined\)Sanitizer\|runtime error:' "$tmp"/*.log \
    >/dev/null 2>&1; then
    echo "FAIL: a sanitizer report in an agent's log"
    grep -A5 'Sanitizer\|runtime error:' "$tmp"/*.log | shorten
    ndiff=$((ndiff + 1))
fi
if [ $ndiff -ne 0 ]; then
    echo "FAIL: $ndiff difference(s) from Debian's PCP (probe and $n pminfo cases)"
    exit 1
fi
echo "PASS: probe_host and $n pminfo cases identical against Debian's pmcd"
exit 0
