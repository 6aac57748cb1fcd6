#!/bin/sh
# host_errors_diff.sh PMINFO FAKE_PMCD: Debian's pminfo and pmkit's against
# a pmcd that answers the fetch badly (fake_pmcd.c: an ERROR PDU, a PDU
# that does not decode, a wrong type, the end of the connection), each
# mode and option set run against a fresh fake for each side.  stdout and
# exit status must be identical, and stderr too once Debian's library
# diagnostics (timestamped "[...] pminfo(PID) ..." lines and its PDU
# buffer dump) are set aside.  Each failure is reported against the call
# that failed: "NAME: pmFetch: REASON" for every name of the batch.
#
# With -b 1 each name is a batch of its own: after an answer that does not
# decode or has the wrong type pmkit's library closes the connection
# (docs/compat.md, host contexts), so the second batch differs on purpose
# there; -b 1 is run for the answers that keep the connection.
#
# Exit 0 identical, 1 a difference, 77 skip (Debian's pminfo missing).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
oracle=${PMKIT_ORACLE_DIR:-$here/../../.cache/oracle/pcp}
theirs=$oracle/usr/bin/pminfo
need_oracle "$theirs" "Debian's pminfo"
need_ours "$1" pminfo
need_ours "$2" fake_pmcd
ours=$(abspath "$1") fake=$(abspath "$2")
make_tmp host_errors
cd "$tmp" || exit 1
unset PCP_HOST PMNS_DEFAULT PCP_NAMESPACE

# run SIDE MODE ARGS...: pminfo against a new fake pmcd in MODE
run() {
    side=$1 mode=$2
    shift 2
    rm -f sock
    "$fake" "$tmp/sock" "$mode" &
    fpid=$!
    i=0
    while [ ! -S sock ] && [ $i -lt 100 ]; do
        sleep 0.05
        i=$((i + 1))
    done
    if [ "$side" = ours ]; then bin=$ours; else bin=$theirs; fi
    "$bin" -h "unix:$tmp/sock" "$@" >"$side.out" 2>"$side.raw"
    echo "exit $?" >>"$side.out"
    kill "$fpid" 2>/dev/null
    wait "$fpid" 2>/dev/null
    grep -v -e '^\[[A-Z][a-z][a-z] .*\] pminfo([0-9]*) ' -e '__pmFindPDUBuf' -e 'pinned pdubuf' \
        "$side.raw" >"$side.err"
}

n=0 ndiff=0
# check MODE ARGS...: one case
check() {
    cmode=$1
    shift
    n=$((n + 1))
    run theirs "$cmode" "$@"
    run ours "$cmode" "$@"
    if ! cmp -s theirs.out ours.out || ! cmp -s theirs.err ours.err; then
        ndiff=$((ndiff + 1))
        echo "DIFF: fetch answered '$cmode': pminfo $*"
        diff theirs.out ours.out | sed 's/^/  stdout /'
        diff theirs.err ours.err | sed 's/^/  stderr /'
    fi
}

modes="error ipc generic undecodable numpmid numval dptr shortlen biglen wrongtype eof"
for mode in $modes; do
    check "$mode" -f trivial.time
    check "$mode" -f trivial.time trivial.time
    check "$mode" -v trivial.time
    check "$mode" -F trivial.time
    check "$mode" -fdmtT trivial.time
done
for mode in error ipc generic eof; do
    check "$mode" -b 1 -f trivial.time trivial.time
done
if [ $ndiff -gt 0 ]; then
    echo "FAIL: $ndiff of $n cases differ from Debian's pminfo"
    exit 1
fi
echo "PASS: $n cases of bad fetch answers reported as Debian's pminfo reports them"
