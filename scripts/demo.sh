#!/bin/sh
# demo.sh BUILD: the main job.  The shipped agents' namespaces and help were
# compiled by pmkit's own tools when BUILD was built (pmcpp, pmnscomp,
# newhelp: see pmdas/agent.cmake); here pmkit's pminfo loads the agents into
# a local context and shows descriptors, help text, labels and live values of the
# linux agent's metrics and of simple's.
set -eu
build=${1:-build}
bin=$build/bin
pmdas=$(cd "$build/pmdas" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

say() { printf '\n== %s\n' "$*"; }
K=
run() {
    printf '$ %s\n' "$*" | sed "s|${K:-@@}|\$K|; s|$pmdas|\$PMDAS|g; s|$tmp|\$TMP|g; s|$bin/||g"
    "$@"
}

say "the agents, as built (namespace and help compiled by pmkit's tools)"
for a in linux simple trivial; do
    printf '  %-8s' "$a"
    for f in pmda_$a.so pmns pmns.bin help.dir help.pag; do
        [ -e "$pmdas/$a/$f" ] && printf ' %s' "$f"
    done
    echo
done

say "one namespace for all three agents: pmcpp, then pmnscomp to a binary image"
cat >"$tmp/root" <<EOF
#include "$top/pmdas/linux/domain.h"
#include "$top/pmdas/simple/domain.h"
#include "$top/pmdas/trivial/domain.h"
root {
    hinv
    kernel
    mem
    network
    disk
    simple
    trivial
}
#include "$top/pmdas/linux/pmns"
#include "$top/pmdas/simple/pmns"
#include "$top/pmdas/trivial/pmns"
EOF
run "$bin/pmcpp" "$tmp/root" "$tmp/pmns"
run "$bin/pmnscomp" -n "$tmp/pmns" "$tmp/pmns.bin"
ns=$tmp/pmns.bin

# Only these agents, found where they were built; the help files beside them.
export PCP_PMDAS_DIR="$pmdas"
K="-K clear -K add,60,$pmdas/linux/pmda_linux.so,linux_init"
K="$K -K add,253,$pmdas/simple/pmda_simple.so,simple_init"
K="$K -K add,250,$pmdas/trivial/pmda_trivial.so,trivial_init"
echo
echo "K=\"$K\"" | sed "s|$pmdas|\$PMDAS|g"
# shellcheck disable=SC2086
pminfo() { run "$bin/pminfo" -L $K -n "$ns" "$@"; }

say "names and PMIDs under kernel.all"
pminfo -m kernel.all

say "descriptors and help of the load average and the CPU count"
pminfo -dtT kernel.all.load hinv.ncpu

say "live values from /proc"
pminfo -f kernel.all.load kernel.all.uptime hinv.ncpu mem.physmem mem.util.free \
    mem.util.used kernel.all.cpu.user kernel.percpu.cpu.idle disk.dev.read_bytes \
    network.interface.in.bytes

say "the simple agent: descriptors, one-line help and values"
pminfo -dtf simple

say "labels of the simple agent's metrics and instances, merged from every level"
pminfo -l simple.color simple.now

say "the instance domain of simple.now comes from simple.conf"
mkdir -p "$tmp/pmdas/simple"
cp -r "$pmdas/simple/." "$tmp/pmdas/simple/"
echo "hour,sec" >"$tmp/pmdas/simple/simple.conf"
PCP_PMDAS_DIR="$tmp/pmdas" run "$bin/pminfo" -L -K clear \
    -K "add,253,$tmp/pmdas/simple/pmda_simple.so,simple_init" -n "$ns" -f simple.now

say "errors are PCP's"
pminfo -f no.such.metric kernel.all.load.bogus 2>&1 || true
pminfo -d 60.99.99 2>&1 || true
