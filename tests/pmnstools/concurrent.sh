#!/bin/sh
# concurrent.sh BINDIR: pmnsadd and pmnsdel runs on one namespace at once
# (agents installing and removing together) lose no change.
#
#  1. 12 pmnsadd runs, each adding its own subtree (100 names) to a
#     namespace of 20000 names, started together, then in two rounds one
#     after another 10-90 ms apart (late ones open a namespace that early
#     ones, waiting, have seen replaced): every
#     subtree is in the result, every original name too, and the result
#     is the namespace the same additions made one after another give
#     (compared as sorted name lists: the order of the subtrees depends on
#     who came first);
#  2. 6 pmnsdel and 6 pmnsadd runs together: the deleted subtrees are gone,
#     the added ones there;
#  3. a run that waits for the lock while another writer renames a new
#     namespace over the old one (the test holds the lock with flock(1)
#     and replaces the file itself) must read and change the new
#     namespace, not the old one it first opened;
#  4. no temporary or lock file is left beside the namespace.
# Exit 0 pass, 1 failure.
set -u
bindir=$(cd "$1" && pwd) || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pmns_concurrent.XXXXXX") || exit 1
trap 'cd /; rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail=0
bad() {
    echo "FAIL: $*"
    fail=1
}

# The namespace: 200 groups of 100 leaves.
awk 'BEGIN {
    print "root {"
    for (g = 0; g < 200; g++) printf "\tbase%d\n", g
    print "}"
    for (g = 0; g < 200; g++) {
        printf "base%d {\n", g
        for (i = 0; i < 100; i++) printf "\tm%d\t%d:%d:%d\n", i, 1 + g % 400, g, i
        print "}"
    }
}' >ns0
# subtree k: agentk.{a,b}.mI, 100 names
for k in $(seq 0 11); do
    awk -v k="$k" 'BEGIN {
        printf "agent%d {\n\ta\n\tb\n}\n", k
        printf "agent%d.a {\n", k
        for (i = 0; i < 50; i++) printf "\tm%d\t%d:0:%d\n", i, 100 + k, i
        printf "}\nagent%d.b {\n", k
        for (i = 0; i < 50; i++) printf "\tm%d\t%d:1:%d\n", i, 100 + k, i
        print "}"
    }' >"sub$k"
done

# names NS: the namespace's full names and PMIDs, sorted, from its text
names() {
    awk '
        $2 == "{" { path = ($1 == "root") ? "" : $1 "."; next }
        $1 == "}" { next }
        NF == 2 { print path $1, $2 }' "$1" | LC_ALL=C sort
}

# The same additions one after another.
cp ns0 serial
for k in $(seq 0 11); do
    "$bindir/pmnsadd" -n serial "sub$k" >/dev/null || bad "serial pmnsadd sub$k failed"
done
names serial >serial.names

for round in 1 2 3; do
    cp ns0 ns
    pids=
    for k in $(seq 0 11); do
        # all at once in round 1; then starting one after another, so that
        # some open the namespace while others wait on one already replaced
        if [ "$round" = 1 ]; then
            "$bindir/pmnsadd" -n ns "sub$k" >"add$k.out" 2>&1 &
        else
            (sleep "0.0$((k * round % 10))" && "$bindir/pmnsadd" -n ns "sub$k") >"add$k.out" 2>&1 &
        fi
        pids="$pids $!"
    done
    for p in $pids; do
        wait "$p" || bad "round $round: a pmnsadd failed: $(cat add*.out | head -3)"
    done
    names ns >ns.names
    if ! cmp -s serial.names ns.names; then
        bad "round $round: concurrent additions lost names: $(diff serial.names ns.names | grep -c '^<') missing"
    fi
done

# Deletions and additions together: from the serial result, take agent0-5
# out while agent6-11 go in again over a namespace without them.
cp serial ns
"$bindir/pmnsdel" -n ns agent6 agent7 agent8 agent9 agent10 agent11 || bad "pmnsdel setup failed"
pids=
for k in 0 1 2 3 4 5; do
    "$bindir/pmnsdel" -n ns "agent$k" >"del$k.out" 2>&1 &
    pids="$pids $!"
    "$bindir/pmnsadd" -n ns "sub$((k + 6))" >"add$k.out" 2>&1 &
    pids="$pids $!"
done
for p in $pids; do
    wait "$p" || bad "mixed: a run failed: $(cat del*.out add*.out | head -3)"
done
names ns >mixed.names
grep -v '^agent[0-5]\.' serial.names >expect.names
cmp -s expect.names mixed.names || bad "mixed: deletions or additions lost: $(diff expect.names mixed.names | head -5)"

# A waiter whose namespace is replaced while it waits changes the new one.
cp ns0 ns
(flock -x 9 && : >locked && while [ ! -f release ]; do sleep 0.1; done) 9<ns &
holder=$!
i=0
while [ ! -f locked ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
"$bindir/pmnsadd" -n ns sub0 >waiter.out 2>&1 &
waiter=$!
# until pmnsadd waits for the lock (a blocked flock in /proc/locks), or 10 s
i=0
while ! grep -q -- '->.*FLOCK' /proc/locks 2>/dev/null && [ $i -lt 100 ]; do
    sleep 0.1
    i=$((i + 1))
done
cp ns0 ns.next
"$bindir/pmnsadd" -n ns.next sub1 >/dev/null 2>&1 || bad "pmnsadd of ns.next failed"
mv ns.next ns
: >release
wait "$holder"
wait "$waiter" || bad "the waiting pmnsadd failed: $(cat waiter.out)"
names ns >waited.names
grep -q '^agent0\.a\.m0 ' waited.names || bad "the waiting pmnsadd's names are missing"
grep -q '^agent1\.a\.m0 ' waited.names || bad "the waiting pmnsadd wrote over the namespace renamed in while it waited"

left=$(ls -A | grep -v -E '^(ns0|ns|serial|sub[0-9]+|.*\.names|.*\.out|locked|release)$')
[ -z "$left" ] || bad "files left behind: $left"
[ $fail = 0 ] && echo "PASS: concurrent pmnsadd and pmnsdel lose nothing (3 rounds of 12, a mixed round, a replaced namespace)"
exit $fail
