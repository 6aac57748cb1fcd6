#!/bin/sh
# interrupt.sh BINDIR: the namespace tools never leave a namespace half
# written, nor a temporary file, however a run ends.
#
#  1. pmnsmerge -a reading an input that is a FIFO (so it waits with its
#     temporary output file open) killed by SIGINT, SIGTERM and SIGHUP:
#     no output, no temporary left; with -f, the existing output as it was
#     (the temporary named from the start, PMKIT_OUTFILE_FAULT=named, as
#     where O_TMPFILE is missing: otherwise it has no name to leave);
#  2. writes over the file size limit (ulimit -f): pmnsmerge, pmnsadd and
#     pmnsdel fail with a message and exit 1, the namespace unchanged, no
#     temporary left;
#  3. pmnsdel on a namespace of 200000 names sent SIGTERM, SIGINT, SIGHUP or
#     SIGKILL at 20 different moments: the namespace is always either the
#     old one or the new one, whole (SIGKILL may leave a temporary file,
#     the others never);
#  4. pmnsadd and pmnsdel keep the namespace's mode (and, run as root, its
#     owner and group), even under umask 777.
# Exit 0 pass, 1 failure.
set -u
bindir=$(cd "$1" && pwd) || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pmns_interrupt.XXXXXX") || exit 1
trap 'cd /; rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail=0
bad() {
    echo "FAIL: $*"
    fail=1
}

printf 'root {\n\ta\t1:0:1\n}\n' >small

# until FILE-glob matches a file, or 10 s
wait_for() {
    i=0
    while [ $i -lt 100 ]; do
        for f in $1; do [ -e "$f" ] && return 0; done
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}

# 1. killed while reading an input
for sig in INT TERM HUP; do
    for force in "" -f; do
        rm -rf d && mkdir d && cd d || exit 1
        mkfifo fifo
        [ -n "$force" ] && cp ../small out
        # (a shell starts a background command with SIGINT ignored)
        env --default-signal=INT PMKIT_OUTFILE_FAULT=named "$bindir/pmnsmerge" -a $force ../small fifo out \
            2>/dev/null &
        pid=$!
        wait_for 'out.tmp*' || bad "$sig$force: no temporary output appeared"
        kill -s "$sig" $pid
        wait $pid
        st=$?
        [ $st -gt 128 ] || bad "$sig$force: pmnsmerge was not killed (exit $st)"
        left=$(ls -A | grep -v -x -e fifo -e out)
        [ -z "$left" ] || bad "$sig$force: left behind: $left"
        if [ -n "$force" ]; then
            cmp -s out ../small || bad "$sig$force: the existing output changed"
        else
            [ ! -e out ] || bad "$sig: an output was created"
        fi
        cd .. || exit 1
    done
done

# 2. over the file size limit: a namespace of 100000 bytes, a limit of 50 KiB
awk 'BEGIN { print "root {"; for (i = 0; i < 4000; i++) printf "\tmetric%d\t1:%d:%d\n", i, i / 1000, i % 1000; print "}" }' >big
printf 'sub {\n\tx\t2:0:1\n}\n' >subtree
rm -rf d && mkdir d && cd d || exit 1
cp ../big ns
(ulimit -f 100 && "$bindir/pmnsmerge" ../big ../small out) >out.1 2>err.1
st=$?
[ $st = 1 ] || bad "pmnsmerge over the size limit: exit $st"
grep -q 'pmnsmerge: Error: cannot write output PMNS file "out": File too large' err.1 ||
    bad "pmnsmerge over the size limit: message: $(cat err.1)"
(ulimit -f 100 && "$bindir/pmnsadd" -n ns ../subtree) >out.2 2>err.2
st=$?
[ $st = 1 ] || bad "pmnsadd over the size limit: exit $st"
grep -q 'No changes have been made to the PMNS file "ns"' out.2 ||
    bad "pmnsadd over the size limit: message: $(cat out.2 err.2)"
(ulimit -f 100 && "$bindir/pmnsdel" -n ns metric7) >out.3 2>err.3
st=$?
[ $st = 1 ] || bad "pmnsdel over the size limit: exit $st"
grep -q 'pmnsdel: Error: cannot write PMNS file "ns.new": File too large' err.3 ||
    bad "pmnsdel over the size limit: message: $(cat err.3)"
cmp -s ns ../big || bad "a failed write changed the namespace"
left=$(ls -A | grep -v -x -e ns -e 'out\.[0-9]' -e 'err\.[0-9]')
[ -z "$left" ] || bad "failed writes left behind: $left"
cd .. || exit 1

# 3. signals at any moment of a pmnsdel over a large namespace
awk 'BEGIN {
    print "root {"; for (g = 0; g < 200; g++) printf "\tg%d\n", g; print "}"
    for (g = 0; g < 200; g++) {
        printf "g%d {\n", g
        for (i = 0; i < 1000; i++) printf "\tm%d\t%d:%d:%d\n", i, 1 + g, i / 1000, i % 1000
        print "}"
    }
}' >huge
cp huge huge.less
"$bindir/pmnsdel" -n huge.less g0 || bad "pmnsdel of huge.less failed"
n=0
for delay in 0 0.01 0.02 0.03 0.05 0.07 0.1 0.13 0.16 0.2 0.25 0.3 0.35 0.4 0.5 0.6 0.8 1 1.5 2; do
    n=$((n + 1))
    case $((n % 4)) in 0) sig=TERM ;; 1) sig=INT ;; 2) sig=HUP ;; 3) sig=KILL ;; esac
    rm -rf d && mkdir d && cd d || exit 1
    cp ../huge ns
    env --default-signal=INT "$bindir/pmnsdel" -n ns g0 2>/dev/null &
    pid=$!
    sleep "$delay"
    kill -s $sig $pid 2>/dev/null
    wait $pid
    if ! cmp -s ns ../huge && ! cmp -s ns ../huge.less; then
        bad "SIG$sig after ${delay}s: the namespace is neither the old one nor the new one"
    fi
    left=$(ls -A | grep -v -x ns)
    if [ -n "$left" ] && [ $sig != KILL ]; then
        bad "SIG$sig after ${delay}s: left behind: $left"
    fi
    cd .. || exit 1
done

# 4. mode and owner kept
rm -rf d && mkdir d && cd d || exit 1
cp ../small ns
chmod 640 ns
owner=
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
    chown nobody:nogroup ns 2>/dev/null && owner=nobody:nogroup
fi
(umask 777 && "$bindir/pmnsadd" -n ns ../subtree >/dev/null) || bad "pmnsadd under umask 777 failed"
(umask 777 && "$bindir/pmnsdel" -n ns a) || bad "pmnsdel under umask 777 failed"
mode=$(stat -c %a ns)
[ "$mode" = 640 ] || bad "mode after pmnsadd and pmnsdel: $mode, not 640"
if [ -n "$owner" ]; then
    now=$(stat -c %U:%G ns)
    [ "$now" = "$owner" ] || bad "owner after pmnsadd and pmnsdel: $now, not $owner"
fi
grep -q '^sub {' ns && ! grep -q '	a	' ns || bad "pmnsadd and pmnsdel did not change the namespace: $(cat ns)"
cd .. || exit 1

[ $fail = 0 ] && echo "PASS: interrupted, failed and limited runs leave every namespace whole"
exit $fail
