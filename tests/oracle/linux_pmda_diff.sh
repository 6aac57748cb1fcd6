#!/bin/sh
# linux_pmda_diff.sh OURS_DSO PMNS PMDAS_DIR PROBE ORACLE CASES [OURS_PMINFO OURS_PROBE]
#
# pmkit's linux agent against Debian's, both loaded as DSOs by Debian's
# pminfo (-L -K clear -K add,60,DSO,linux_init) and by PROBE
# (tests/oracle/probe_linux.c built against Debian's libpcp).
#   OURS_DSO   pmkit's agent linked against Debian's libpcp_pmda/libpcp
#   PMNS       pmkit's agent namespace (the build's preprocessed pmns)
#   PMDAS_DIR  directory with linux/help.dir and help.pag (pmkit's newhelp);
#              "-" to compile pmdas/linux/help with Debian's newhelp here
#   ORACLE     Debian's pcp package unpacked (.cache/oracle/pcp)
#   CASES      tests/oracle/linux_proc: one directory per case
# With OURS_PMINFO and OURS_PROBE (pmkit's pminfo and probe_linux built
# against pmkit), pmkit's whole stack runs our side instead: OURS_DSO is
# then the agent linked against pmkit's libraries.  From a build tree:
#   sh tests/oracle/linux_pmda_diff.sh build/pmdas/linux/pmda_linux.so \
#      build/pmdas/linux/pmns build/pmdas \
#      build/bin/oracle_probe_linux_pcp .cache/oracle/pcp \
#      tests/oracle/linux_proc build/bin/pminfo \
#      build/bin/oracle_probe_linux_pmkit
#
# For every metric in PMNS:
#  1. On this machine: name, PMID, descriptor (units field by field), help
#     text present, and every instance of every instance domain (numbers,
#     names, lookups both ways) must be Debian's.  Values: discrete ones
#     equal; counters (and uptime) between two readings of Debian's agent
#     taken before and after ours; every metric and instance with a value
#     in one has one in the other.  Plus sanity against the system:
#     hinv.ncpu = cpuN lines of /proc/stat, mem.physmem = MemTotal,
#     hinv.pagesize, kernel.all.hz, kernel.uname.release.
#  2. For each case directory, with LINUX_STATSPATH=case (its proc/ tree),
#     the variables of its env file (LINUX_NCPUS, LINUX_HERTZ, ...) and
#     PCP_SYSCONF_DIR=case/sysconf (else an empty directory): pminfo -f
#     output and the probe's instance lists must be byte-identical.  A case
#     with a file named "known" (its docs/compat.md bullet) must differ.
#  3. Generated cases: random device and interface names (fixed seeds),
#     very long lines.
#  4. Persistence: instance numbers kept in $PCP_VAR_DIR/config/pmda
#     across two runs with different devices are Debian's.
# Both agents always get a fresh $PCP_VAR_DIR.  Exit 0 identical, 1 any
# difference, 2 usage, 77 skip (Debian's pminfo, agent or libpcp missing).
set -u
if [ $# -ne 6 ] && [ $# -ne 8 ]; then
    echo "Usage: linux_pmda_diff.sh OURS_DSO PMNS PMDAS_DIR PROBE ORACLE CASES [OURS_PMINFO OURS_PROBE]" >&2
    exit 2
fi
ours=$1 pmns=$2 pmdas=$3 probe=$4 oracle=$5 cases=$6
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
pminfo=$oracle/usr/bin/pminfo
theirs=$oracle/usr/lib/pcp/pmdas/linux/pmda_linux.so
root_linux=$oracle/usr/lib/pcp/pmns/root_linux
for f in "$pminfo" "$theirs" "$root_linux" "$oracle/usr/lib/pcp/bin/pmcpp"; do
    if [ ! -e "$f" ]; then
        echo "SKIP: $f not found (run: sh scripts/deps.sh test)"
        exit 77
    fi
done
our_pminfo=${7:-$pminfo} our_probe=${8:-$probe}
for f in "$ours" "$probe" "$our_pminfo" "$our_probe"; do
    if [ ! -f "$f" ]; then
        echo "SKIP: $f not built (needs Debian's libpcp3-dev and libpcp-pmda3-dev)"
        exit 77
    fi
done

make_tmp linux_pmda_diff

PCP_BINADM_DIR=$oracle/usr/lib/pcp/bin
PCP_DERIVED_CONFIG=
export PCP_BINADM_DIR PCP_DERIVED_CONFIG
unset LINUX_STATSPATH LINUX_NCPUS LINUX_HERTZ LINUX_PAGESIZE PMNS_DEFAULT PCP_PMCDCONF_PATH

if [ "$pmdas" = - ] || [ ! -f "$pmdas/linux/help.dir" ]; then
    pmdas=$tmp/pmdas
    mkdir -p "$pmdas/linux"
    if ! "$PCP_BINADM_DIR/newhelp" -n "$pmns" -o "$pmdas/linux/help" "$here/../../pmdas/linux/help"; then
        echo "FAIL: Debian's newhelp rejects pmdas/linux/help"
        exit 1
    fi
fi

names=$("$pminfo" -n "$pmns" | grep -E '^(hinv|kernel|mem|disk|network)\.')
if [ -z "$names" ]; then
    echo "FAIL: no metrics in $pmns"
    exit 1
fi
nmetrics=$(echo "$names" | wc -l)

# agent WHO ARGS...: one tool run with agent WHO (ours or theirs) and a
# fresh $PCP_VAR_DIR; the tool is pminfo, or the probe when ARGS start with "probe"
agent() {
    who=$1
    shift
    var=${VARDIR:-$(mktemp -d "$tmp/var.XXXXXX")}
    if [ "$who" = ours ]; then
        dso=$ours ns=$pmns dir=$pmdas tool=$our_pminfo prb=$our_probe
    else
        dso=$theirs ns=$root_linux dir=$oracle/usr/lib/pcp/pmdas tool=$pminfo prb=$probe
    fi
    if [ "$1" = probe ]; then
        shift
        PCP_VAR_DIR=$var PCP_PMDAS_DIR=$dir "$prb" "$dso" "$ns" "$@"
    else
        PCP_VAR_DIR=$var PCP_PMDAS_DIR=$dir \
            "$tool" -L -K clear -K "add,60,$dso,linux_init" -n "$ns" "$@"
    fi
}

nfail=0
fail() {
    echo "DIFF $*"
    nfail=$((nfail + 1))
}
# replaces oracle_lib.sh's shorten: longer excerpts of shorter lines
shorten() { head -30 | cut -c1-160; }

# ---- 1. this machine -----------------------------------------------------

# shellcheck disable=SC2086
agent ours probe $names >"$tmp/probe.ours" 2>"$tmp/err"
# shellcheck disable=SC2086
agent theirs probe $names >"$tmp/probe.theirs" 2>>"$tmp/err"
if ! cmp -s "$tmp/probe.ours" "$tmp/probe.theirs"; then
    fail "this machine: names, PMIDs, descriptors, help or instances (< ours, > Debian's)"
    diff "$tmp/probe.ours" "$tmp/probe.theirs" | shorten
fi
if grep -q -v -e 'oneline=present help=present' -e '^indom' -e '^  \[' "$tmp/probe.ours"; then
    fail "this machine: metrics without help text or descriptor"
    grep -v -e 'oneline=present help=present' -e '^indom' -e '^  \[' "$tmp/probe.ours" | shorten
fi

# flat "metric[inst] value" lines out of pminfo -f
flatten() {
    awk '/^[a-z]/ { m = $1; next }
         /No value/ { print m " novalue"; next }
         /^ *inst \[/ { i = $0; sub(/^ *inst \[/, "", i); sub(/ or .*/, "", i)
                       v = $0; sub(/.*\] value /, "", v); print m "[" i "] " v; next }
         /^ *value / { v = $0; sub(/^ *value /, "", v); print m " " v }' "$1"
}
# shellcheck disable=SC2086
agent theirs -f $names >"$tmp/before" 2>>"$tmp/err"
# shellcheck disable=SC2086
agent ours -f $names >"$tmp/ours" 2>>"$tmp/err"
# shellcheck disable=SC2086
agent theirs -f $names >"$tmp/after" 2>>"$tmp/err"
for f in before ours after; do
    flatten "$tmp/$f" >"$tmp/$f.flat"
done
# semantics of each metric: 1 counter, 3 instant, 4 discrete
awk '/ type=/ { s = $5; sub(/sem=/, "", s); print $1, s }' "$tmp/probe.theirs" >"$tmp/sem"
awk -v semf="$tmp/sem" -v bf="$tmp/before.flat" -v af="$tmp/after.flat" '
    function key(line) { return substr(line, 1, index(line, " ") - 1) }
    function val(line) { return substr(line, index(line, " ") + 1) }
    function base(k) { sub(/\[.*/, "", k); return k }
    BEGIN {
        while ((getline l < semf) > 0) { split(l, f, " "); sem[f[1]] = f[2] }
        while ((getline l < bf) > 0) b[key(l)] = val(l)
        while ((getline l < af) > 0) a[key(l)] = val(l)
    }
    {
        k = key($0); v = val($0); seen[k] = 1; m = base(k)
        if (!(k in b) && !(k in a)) { print "only ours: " $0; bad++; next }
        if (v == "novalue" || b[k] == "novalue" || a[k] == "novalue") {
            if (v != b[k] && v != a[k]) { print "value presence: " k " ours " v " Debian " b[k] "/" a[k]; bad++ }
            next
        }
        if (sem[m] == 1 || m == "kernel.all.uptime" || m == "kernel.all.idletime") {
            if (v + 0 < b[k] + 0 || v + 0 > a[k] + 0) { print "counter not between Debian readings: " k " " b[k] " <= " v " <= " a[k] "?"; bad++ }
        } else if (sem[m] == 4 && b[k] == a[k] && v != b[k]) {
            print "discrete value: " k " ours " v " Debian " b[k]; bad++
        }
    }
    END {
        for (k in b) if (!(k in seen) && (k in a)) { print "only Debian: " k " " b[k]; bad++ }
        exit bad > 0
    }' "$tmp/ours.flat" >"$tmp/values" || {
    fail "this machine: values"
    shorten <"$tmp/values"
}

# sanity against the system itself
value_of() { awk -v k="$1" 'substr($0, 1, length(k) + 1) == k " " { print substr($0, length(k) + 2) }' "$tmp/ours.flat"; }
check() {
    if [ "$2" != "$3" ]; then
        fail "this machine: $1 is $2, expected $3"
    fi
}
check hinv.ncpu "$(value_of hinv.ncpu)" "$(grep -c '^cpu[0-9]' /proc/stat)"
check "instances of kernel.percpu.cpu.user" "$(grep -c '^kernel.percpu.cpu.user\[' "$tmp/ours.flat")" \
    "$(grep -c '^cpu[0-9]' /proc/stat)"
check mem.physmem "$(value_of mem.physmem)" "$(awk '$1 == "MemTotal:" { print $2 }' /proc/meminfo)"
check hinv.pagesize "$(value_of hinv.pagesize)" "$(getconf PAGESIZE)"
check kernel.all.hz "$(value_of kernel.all.hz)" "$(getconf CLK_TCK)"
check kernel.uname.release "$(value_of kernel.uname.release)" "\"$(uname -r)\""
if [ "$(nproc --all)" != "$(value_of hinv.ncpu)" ]; then
    echo "note: nproc --all is $(nproc --all), hinv.ncpu $(value_of hinv.ncpu) (offline processors?)"
fi

# ---- 2 and 3. fixed and generated /proc trees ------------------------------

# run_case DIR: both agents on the tree DIR; returns 0 if identical
run_case() {
    (
        if [ -f "$1/env" ]; then
            while IFS='=' read -r var value; do
                case $var in LINUX_*) export "$var=$value" ;; esac
            done <"$1/env"
        fi
        mkdir -p "$tmp/nosysconf"
        PCP_SYSCONF_DIR=$tmp/nosysconf
        [ -d "$1/sysconf" ] && PCP_SYSCONF_DIR=$1/sysconf
        LINUX_STATSPATH=$1
        export PCP_SYSCONF_DIR LINUX_STATSPATH
        for who in ours theirs; do
            # shellcheck disable=SC2086
            agent $who -f $names >"$tmp/case.$who" 2>"$tmp/case.$who.err"
            # shellcheck disable=SC2086
            agent $who probe $names >>"$tmp/case.$who" 2>>"$tmp/case.$who.err"
        done
    )
    cmp -s "$tmp/case.ours" "$tmp/case.theirs"
}

ncases=0 nknown=0
one_case() {
    dir=$1 name=$2
    ncases=$((ncases + 1))
    if [ -f "$dir/known" ]; then
        if run_case "$dir"; then
            fail "case $name: listed as a known difference ($(cat "$dir/known")) but identical"
        else
            nknown=$((nknown + 1))
            echo "KNOWN $name: $(cat "$dir/known")"
        fi
    elif ! run_case "$dir"; then
        fail "case $name (< ours, > Debian's)"
        diff "$tmp/case.ours" "$tmp/case.theirs" | shorten
    fi
}

for dir in "$cases"/*/; do
    dir=${dir%/}
    one_case "$dir" "${dir##*/}"
done

# random device names: what is a whole disk
gen_disks() {
    mkdir -p "$2/proc"
    awk -v seed="$1" 'BEGIN {
        srand(seed)
        np = split("sd hd vd xvd nvme mmcblk nbd rbd loop ram zram md dm- dm cciss/ ida/ i2o/ sr fd zd emcpower p a s", pre, " ")
        alpha = "abcdpsrmn0123456789/-+x"
        for (i = 0; i < 1500; i++) {
            x = pre[int(rand() * np) + 1]
            for (j = int(rand() * 7); j > 0; j--) x = x substr(alpha, int(rand() * length(alpha)) + 1, 1)
            if (!seen[x]++) printf " 8 %d %s %d %d %d 0 %d 0 0 0 0 %d %d\n", i, x, i, i % 7, i * 8, i * 3, i, i * 2
        }
    }' >"$2/proc/diskstats"
    printf 'LINUX_NCPUS=2\n' >"$2/env"
}
# random interface names: instances and the network.all exclusions
gen_nets() {
    mkdir -p "$2/proc/net"
    awk -v seed="$1" 'BEGIN {
        srand(seed)
        np = split("lo bond team eth en wl docker veth virbr tun br- ib", pre, " ")
        alpha = "0123456789abx.-_ "
        print "Inter-|   Receive"
        print " face |bytes"
        for (i = 0; i < 400; i++) {
            x = pre[int(rand() * np) + 1]
            for (j = int(rand() * 4); j > 0; j--) x = x substr(alpha, int(rand() * length(alpha)) + 1, 1)
            if (x ~ / $/ || seen[x]++) continue
            printf "%8s: %d %d %d 0 0 0 0 %d %d %d 0 0 0 0 0 0\n", x, i * 1000, i * 10, i % 3, i % 5, i * 500, i * 4
        }
    }' >"$2/proc/net/dev"
}
# long lines everywhere
gen_long() {
    mkdir -p "$1/proc/net"
    awk 'BEGIN {
        printf "cpu  1 2 3 4 5 6 7 8 9 10\ncpu0 1 2 3 4 5 6 7 8 9 10\nintr 123456"
        for (i = 0; i < 100000; i++) printf " %d", i % 97
        printf "\nctxt 77\n"
    }' >"$1/proc/stat"
    awk 'BEGIN {
        printf "MemTotal: 4000 kB\nVeryLongUnknownKey"
        for (i = 0; i < 20000; i++) printf "x"
        printf ": 5 kB\nMemFree: 1000 kB\n"
    }' >"$1/proc/meminfo"
    awk 'BEGIN {
        n = "sd"; for (i = 0; i < 300; i++) n = n "q"
        printf "   8 0 %s 1 2 3 4 5 6 7 8 9 10 11\n   8 16 sdb 1 2 3 4 5 6 7 8 9 10 11\n", n
    }' >"$1/proc/diskstats"
    awk 'BEGIN {
        n = "eth"; for (i = 0; i < 300; i++) n = n "z"
        printf "h1\nh2\n%s: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n", n
    }' >"$1/proc/net/dev"
    printf 'LINUX_NCPUS=2\n' >"$1/env"
}
for seed in 1 2 3; do
    gen_disks $seed "$tmp/gen/disks$seed"
    one_case "$tmp/gen/disks$seed" "generated disk names (seed $seed)"
    gen_nets $seed "$tmp/gen/nets$seed"
    one_case "$tmp/gen/nets$seed" "generated interface names (seed $seed)"
done
gen_long "$tmp/gen/long"
one_case "$tmp/gen/long" "long lines"

# ---- 4. instance numbers kept across runs ---------------------------------

persist() {
    who=$1
    mkdir -p "$tmp/persist.$who/config"
    for round in 1 2; do
        (
            LINUX_STATSPATH=$tmp/gen/round$round VARDIR=$tmp/persist.$who LINUX_NCPUS=2
            export LINUX_STATSPATH VARDIR LINUX_NCPUS
            agent "$who" probe disk.dev.read network.interface.in.bytes
        )
    done
}
for round in 1 2; do
    mkdir -p "$tmp/gen/round$round/proc/net"
done
printf ' 8 0 sdc 1 0 0 0 0 0 0 0 0 0 0\n 8 0 sda 2 0 0 0 0 0 0 0 0 0 0\n 8 0 vdb 3 0 0 0 0 0 0 0 0 0 0\n' \
    >"$tmp/gen/round1/proc/diskstats"
printf ' 8 0 vdb 3 0 0 0 0 0 0 0 0 0 0\n 8 0 nvme0n1 4 0 0 0 0 0 0 0 0 0 0\n 8 0 sdc 5 0 0 0 0 0 0 0 0 0 0\n' \
    >"$tmp/gen/round2/proc/diskstats"
printf 'h\nh\n eth1: 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n lo: 2 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n' \
    >"$tmp/gen/round1/proc/net/dev"
printf 'h\nh\n wg0: 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n eth1: 2 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n' \
    >"$tmp/gen/round2/proc/net/dev"
persist ours >"$tmp/persist.ours.out" 2>&1
persist theirs >"$tmp/persist.theirs.out" 2>&1
if ! cmp -s "$tmp/persist.ours.out" "$tmp/persist.theirs.out"; then
    fail "instance numbers kept across runs (< ours, > Debian's)"
    diff "$tmp/persist.ours.out" "$tmp/persist.theirs.out" | shorten
fi

if [ $nfail != 0 ]; then
    echo "linux agent oracle: FAILED: $nfail differences ($nmetrics metrics, $ncases cases)"
    exit 1
fi
extra=
[ $nknown = 0 ] || extra=", $nknown cases differ as documented in docs/compat.md"
stack="Debian's libraries"
[ $# = 8 ] && stack="pmkit's pminfo and libraries"
echo "linux agent oracle ($stack): $nmetrics metrics identical to Debian's agent on this machine and in $ncases /proc trees$extra"
exit 0
