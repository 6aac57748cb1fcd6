#!/bin/sh
# derived_default_diff.sh PMINFO
#
# Debian's default derived metrics (the 62 of pcp-conf's
# /var/lib/pcp/config/derived: CPU utilisation, the iostat set, mssql and
# proc) through pmkit's pminfo (PMINFO) and Debian's, both asking the same
# pmcd: Debian's, started by hand on a free loopback port and a unix
# socket in a scratch directory, with Debian's linux agent as a DSO
# reading the fixed /proc tree of linux_proc/typical (so that values do
# not move between the two runs).  Neither side sets $PCP_DERIVED_CONFIG:
# each library loads its default configuration as it would on a Debian
# machine.  Names come from pmcd, so a derived metric whose operands
# pmcd lacks (mssql, proc) or that fails its checks is no name: PCP's
# rule for the remote namespace.
#
# Compared: -m, -d, -t -T, -f, -F, -v and -mdfT over the 62 names, -m and
# -d over the whole namespace, and the metrics of
# pminfo_derived/remote.conf (-c) that do and do not bind: stdout, stderr
# and exit status identical.  Metrics that name each other
# (pminfo_derived/cycle.conf, which crashes Debian's pminfo) must be
# reported as unknown names by pmkit's.  pmcd is stopped on every exit path.
#
# Exit 0 identical, 1 a difference or failure, 2 usage, 77 skip (Debian's
# pmcd, pminfo or linux agent, the default configuration, or python3 to
# pick a port missing).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
if [ $# -ne 1 ]; then
    echo "Usage: derived_default_diff.sh PMINFO" >&2
    exit 2
fi
oracle=${PMKIT_ORACLE_DIR:-$here/../../.cache/oracle/pcp}
pmcd=$oracle/usr/lib/pcp/bin/pmcd
theirs=$oracle/usr/bin/pminfo
linux=$oracle/usr/lib/pcp/pmdas/linux/pmda_linux.so
config=/var/lib/pcp/config/derived
need_oracle "$pmcd" "Debian's pmcd"
need_oracle "$theirs" "Debian's pminfo"
if [ ! -f "$linux" ] || [ ! -f "$oracle/usr/lib/pcp/pmns/root_linux" ]; then
    echo "SKIP: Debian's linux agent not found under $oracle (run: sh scripts/deps.sh test)"
    exit 77
fi
if ! ls "$config"/*.conf >/dev/null 2>&1; then
    echo "SKIP: no default derived configuration in $config (Debian's pcp-conf)"
    exit 77
fi
need_ours "$1" pminfo
ours=$(abspath "$1")
names=$(cat "$config"/*.conf | grep '^[a-z][^ (]* *=' | sed 's/ *=.*//')
if [ "$(echo "$names" | wc -l)" -ne 62 ]; then
    echo "FAIL: $config defines $(echo "$names" | wc -l) metrics, not Debian's 62"
    exit 1
fi

make_tmp derived_default
pmcd_pid=
trap 'stop_pmcd; cd /; rm -rf "$tmp"' EXIT

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' \
    2>/dev/null)
if [ -z "$port" ]; then
    echo "SKIP: python3 is needed to pick a free port"
    exit 77
fi
mkdir -p "$tmp/run" "$tmp/var" || exit 1
sock=$tmp/run/pmcd.socket
printf 'linux\t60\tdso\tlinux_init\t%s\n' "$linux" >"$tmp/pmcd.conf"
(
    # the agent's environment: the fixed /proc tree and its machine
    . "$here/linux_proc/typical/env"
    export LINUX_NCPUS LINUX_HERTZ LINUX_PAGESIZE
    LINUX_STATSPATH=$here/linux_proc/typical PCP_VAR_DIR=$tmp/var \
        PCP_PMDAS_DIR=$oracle/usr/lib/pcp/pmdas PCP_RUN_DIR=$tmp/run \
        PCP_BINADM_DIR=$oracle/usr/lib/pcp/bin PCP_SYSCONF_DIR=$tmp/var \
        exec "$pmcd" -f -A -i 127.0.0.1 -p "$port" -c "$tmp/pmcd.conf" \
        -n "$oracle/usr/lib/pcp/pmns/root_linux" -l "$tmp/pmcd.log" -s "$sock" \
        -x "$tmp/pmcd.err" >"$tmp/pmcd.out" 2>&1
) &
pmcd_pid=$!
wait_pmcd "$sock" linux

unset PCP_DERIVED_CONFIG PCP_VAR_DIR PMNS_DEFAULT PCP_PMCDCONF_PATH PMCD_PORT
PCP_BINADM_DIR=$oracle/usr/lib/pcp/bin
export PCP_BINADM_DIR
remote=$here/pminfo_derived/remote.conf
n=0 ndiff=0
# case ARGS...: both pminfos, compared
case_() {
    n=$((n + 1))
    for side in theirs ours; do
        if [ $side = ours ]; then bin=$ours; else bin=$theirs; fi
        "$bin" "$@" >"$tmp/$side.out" 2>"$tmp/$side.err" </dev/null
        echo "exit $?" >>"$tmp/$side.out"
    done
    if ! cmp -s "$tmp/theirs.out" "$tmp/ours.out" || ! cmp -s "$tmp/theirs.err" "$tmp/ours.err"; then
        ndiff=$((ndiff + 1))
        echo "DIFF: pminfo $(echo "$*" | cut -c1-100)"
        diff "$tmp/theirs.out" "$tmp/ours.out" | head -10 | sed 's/^/  out /'
        diff "$tmp/theirs.err" "$tmp/ours.err" | head -10 | sed 's/^/  err /'
    fi
}
h="-h unix:$sock"
# shellcheck disable=SC2086
{
    case_ $h -m $names
    seen=$(grep -c PMID "$tmp/theirs.out")
    case_ $h -d $names
    case_ $h -tT $names
    case_ $h -f $names
    case_ $h -F $names
    case_ $h -v $names
    case_ $h -mdfT $names
    case_ -h "127.0.0.1:$port" -m
    case_ -h "127.0.0.1:$port" -d
    case_ $h -c "$remote" -m x
    case_ $h -c "$remote" -m
    case_ $h -c "$remote" -df x.unknown x.good x.sem x.cst x.half x.def x.nest.a x.nest
    case_ $h -c "$remote" -f x.good kernel.all.load x.def x.cst
}
# metrics naming each other: Debian's pminfo dies of a recursion, pmkit's
# finds no such names
"$ours" $h -c "$here/pminfo_derived/cycle.conf" -d y y.a y.self >"$tmp/cycle.out" 2>&1
sts=$?
n=$((n + 1))
if [ $sts -ge 128 ] || ! grep -q '^Error: y.a: Unknown metric name' "$tmp/cycle.out"; then
    ndiff=$((ndiff + 1))
    echo "CYCLE: pmkit's pminfo exited $sts over cycle.conf"
    head -5 "$tmp/cycle.out" | sed 's/^/  /'
fi
if [ "$seen" -lt 40 ]; then
    echo "FAIL: Debian's pminfo saw $seen of the 62 default derived metrics (40 or more expected)"
    exit 1
fi
if [ $ndiff -ne 0 ]; then
    echo "derived defaults: FAILED, $ndiff of $n runs differ from Debian's pminfo"
    exit 1
fi
echo "derived defaults: $((n - 1)) runs identical to Debian's pminfo ($seen of the 62 default names bind over the linux agent), metrics naming each other refused"
exit 0
