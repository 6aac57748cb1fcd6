#!/bin/sh
# debian_dsos.sh LIBDIR PMINFO ORACLE_DIR
#
# Debian-built agent DSOs (ORACLE_DIR/usr/lib/pcp/pmdas, the unpacked pcp
# package: the linux, pmcd, proc, xfs, zfs and sample agents) loaded into
# a local context three ways: Debian's pminfo on Debian's libraries (the
# reference), pmkit's PMINFO on pmkit's libpcp and libpcp_pmda (LIBDIR
# first on the library path, so the agent gets pmkit's libpcp_pmda too),
# and Debian's pminfo on pmkit's libpcp beside Debian's libpcp_pmda.
# Each agent's namespace is its own "root" file (linux's and pmcd's:
# PCP's root_linux and root_pmcd) with its domain number written in
# (Debian's stdpmid is made at install time, so an unpacked package has
# none).
# Names, descriptors, one-line and help texts and labels must be
# identical (the agents' messages on stderr too, their date and pid put
# aside); values are left out where the agent reads the live system
# (processes come and go between runs).
#
# Exit 0 identical, 1 any difference, 2 usage, 77 skip.
set -u
if [ $# != 3 ]; then
    echo "Usage: debian_dsos.sh LIBDIR PMINFO ORACLE_DIR" >&2
    exit 2
fi
lib=$1 pminfo=$2 oracle=$3
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
theirs=$oracle/usr/bin/pminfo
need_oracle "$theirs" "Debian's pminfo"
need_ours "$lib/libpcp.so.3" libpcp
need_ours "$pminfo" pminfo
debian_setup
pminfo=$(abspath "$pminfo")
theirs=$(abspath "$theirs")
pmdas=$(abspath "$oracle")/usr/lib/pcp/pmdas
export PCP_PMDAS_DIR="$pmdas"
# Debian's pminfo preprocesses a text namespace with Debian's pmcpp
PCP_BINADM_DIR=$(abspath "$oracle")/usr/lib/pcp/bin
export PCP_BINADM_DIR

make_tmp debian_dsos
debian_on_ours "$theirs" pminfo

nruns=0 ndiff=0
one() { # WHO OUT ERR ARGS...: one side's run
    who=$1 out=$2 err=$3
    shift 3
    case $who in
    theirs) "$theirs" "$@" ;;
    ours) env $san LD_LIBRARY_PATH="$lib" "$pminfo" "$@" ;;
    mixed) env $san LD_LIBRARY_PATH="$tmp/lib" "$theirs" "$@" ;;
    esac >"$out" 2>"$err.all"
    echo "exit $?" >>"$out"
    # the agents' messages: their date and pid put aside
    unstamp <"$err.all" >"$err"
}
keep=p # a sed script: the lines of pminfo's output compared
run() { # AGENT DOMAIN INIT ARGS...: the three ways, compared with Debian's
    so=$pmdas/$1/pmda_$1.so
    spec="add,$2,$so,$3"
    ns=$tmp/ns.$1
    shift 3
    nruns=$((nruns + 1))
    one theirs "$tmp/theirs.all" "$tmp/theirs.err" -L -K clear -K "$spec" -n "$ns" "$@"
    sed -n "$keep" "$tmp/theirs.all" >"$tmp/theirs.out"
    for who in ours mixed; do
        # shellcheck disable=SC2086
        one $who "$tmp/$who.all" "$tmp/$who.err" -L -K clear -K "$spec" -n "$ns" "$@"
        sed -n "$keep" "$tmp/$who.all" >"$tmp/$who.out"
        if ! cmp -s "$tmp/$who.out" "$tmp/theirs.out" || ! cmp -s "$tmp/$who.err" "$tmp/theirs.err"; then
            ndiff=$((ndiff + 1))
            echo "DIFF ($who): pminfo -K $spec $*"
            diff "$tmp/theirs.out" "$tmp/$who.out" | shorten | sed 's/^/  out /'
            diff "$tmp/theirs.err" "$tmp/$who.err" | shorten | sed 's/^/  err /'
        fi
    done
}

for spec in proc:3:proc_init:PROC xfs:11:xfs_init:XFS zfs:153:zfs_init:ZFS \
    sample:29:sample_init:SAMPLE; do
    IFS=: read -r name domain init macro <<EOF
$spec
EOF
    if [ ! -f "$pmdas/$name/pmda_$name.so" ] || [ ! -f "$pmdas/$name/root" ]; then
        echo "SKIP: Debian's $name agent is missing from $pmdas (sh scripts/deps.sh test)"
        exit 77
    fi
    sed -e "s|^#include <stdpmid>|#define $macro $domain|" \
        -e "s|^#include \"\\(.*\\)\"|#include \"$pmdas/$name/\\1\"|" \
        "$pmdas/$name/root" >"$tmp/ns.$name"
    for opts in -m -d -t -T -dT; do
        run "$name" "$domain" "$init" $opts "$name"
    done
done
# Debian's linux and pmcd agents, whose namespaces are PCP's own root_linux
# and root_pmcd with their domains from stdpmid.pcp (as PCP's install makes
# them): every descriptor of linux, and the help texts of two subtrees;
# pmcd's agent cannot load outside pmcd (it needs pmcd's own symbols), so
# its run compares how that failure is reported
pmns=$(abspath "$oracle")/usr/lib/pcp/pmns
if [ ! -f "$pmns/stdpmid.pcp" ] || [ ! -f "$pmns/root_linux" ] || [ ! -f "$pmns/root_pmcd" ]; then
    echo "SKIP: PCP's namespace sources are missing from $pmns (sh scripts/deps.sh test)"
    exit 77
fi
awk '/^[A-Z][A-Z0-9_]*[ \t]+[0-9]+/ {print "#define", $1, $2}' "$pmns/stdpmid.pcp" >"$tmp/stdpmid"
for name in linux pmcd; do
    cat "$tmp/stdpmid" "$pmns/root_$name" >"$tmp/ns.$name"
done
run linux 60 linux_init -d
run linux 60 linux_init -T kernel.all mem.util
run pmcd 2 pmcd_init -d

# xfs's labels, and the value of its control metric (its statistics are
# live on a machine with an xfs file system, so only their presence counts)
run xfs 11 xfs_init -l xfs
run xfs 11 xfs_init -f xfs.control.reset
run xfs 11 xfs_init -m xfs.buffer
run proc 3 proc_init -d proc.nprocs no.such.metric
# labels fetch first, as Debian's pminfo does: zfs refreshes (and, without
# ZFS, complains) as it fetches
run zfs 153 zfs_init -l zfs.arc zfs.pool
# proc's labels: the agent's name from "proc DSO", and each process's
# label (pid), which proc gives once asked for its instances; only pid
# 1's line is compared (the others come and go)
keep='/^    inst \[/!p;/^    inst \[1 or /p'
run proc 3 proc_init -l proc.nprocs proc.psinfo.pid
keep=p

# Debian's pmprobe, pmstore and dbpmda on pmkit's libpcp against the same
# on Debian's, with the xfs and proc agents (dbpmda's result dumps give
# addresses, " from 0x...", and its status a daemon agent's pid: left out)
run_bin() { # PROG ARGS...: Debian's PROG on both libraries, stdin $tmp/in
    prog=$(abspath "$oracle")/usr/bin/$1
    shift
    nruns=$((nruns + 1))
    "$prog" "$@" <"$tmp/in" >"$tmp/theirs.all" 2>&1
    echo "exit $?" >>"$tmp/theirs.all"
    # shellcheck disable=SC2086
    env $san LD_LIBRARY_PATH="$tmp/lib" "$prog" "$@" <"$tmp/in" >"$tmp/mixed.all" 2>&1
    echo "exit $?" >>"$tmp/mixed.all"
    for who in theirs mixed; do
        sed 's/ from 0x[0-9a-f]*//; s/(pid: [0-9]*)/(pid: N)/' "$tmp/$who.all" >"$tmp/$who.out"
    done
    if ! cmp -s "$tmp/mixed.out" "$tmp/theirs.out"; then
        ndiff=$((ndiff + 1))
        echo "DIFF (Debian's $(basename "$prog") on pmkit's libpcp): $*"
        diff "$tmp/theirs.out" "$tmp/mixed.out" | shorten | sed 's/^/  /'
    fi
}
xfs="-L -K clear -K add,11,$pmdas/xfs/pmda_xfs.so,xfs_init -n $tmp/ns.xfs"
: >"$tmp/in"
# shellcheck disable=SC2086 # the options are words
{
    run_bin pmprobe $xfs -v -f xfs.control.reset
    run_bin pmprobe $xfs -f xfs.buffer.get xfs.log
    run_bin pmprobe $xfs -I xfs.perdev.write no.such.metric
    run_bin pmstore $xfs xfs.control.reset 1
    run_bin pmstore $xfs xfs.control.reset -5
    run_bin pmstore $xfs xfs.buffer.get 1
}
# dbpmda: descriptors, values, profiles, a store, help, names and labels
# through each agent's own calls, its status, and a command it refuses
cat >"$tmp/in" <<EOF
open dso $pmdas/xfs/pmda_xfs.so xfs_init 11
desc xfs.control.reset
fetch xfs.control.reset xfs.buffer.get
profile 11.1 none
profile 11.1 add 3
store xfs.control.reset "1"
text xfs.control.reset
text indom 11.1
instance 11.1
children xfs.control
name 11.16.79
status
close
quit
EOF
run_bin dbpmda -f -n "$tmp/ns.xfs" -e
cat >"$tmp/in" <<EOF
open dso $pmdas/proc/pmda_proc.so proc_init 3
desc proc.nprocs
text proc.nprocs
text indom 3.9
children proc.psinfo
traverse proc.memory
pmid proc.nprocs
name 3.8.0
label domain
label item 3.8.0
label indom 3.9
label context
status
foo
close
quit
EOF
run_bin dbpmda -f -n "$tmp/ns.proc" -e
# and Debian's sample agent as a daemon over a pipe (on the same library
# as dbpmda), run as the user running this
cat >"$tmp/in" <<EOF
open pipe $pmdas/sample/pmdasample -d 29 -U $(id -un) -l $tmp/sample.log
desc sample.long.one
fetch sample.long.one sample.string.hullo
instance 29.2
text sample.long.one
label domain
label item 29.0.10
store sample.long.write_me "7"
fetch sample.long.write_me
children sample.secret
status
close
quit
EOF
run_bin dbpmda -f -q 60 -n "$tmp/ns.sample" -e

if [ "$ndiff" != 0 ]; then
    echo "FAIL: $ndiff runs with Debian's agent DSOs differ from Debian's programs on Debian's libraries"
    exit 1
fi
echo "PASS: $nruns runs with Debian's linux, pmcd, proc, xfs, zfs and sample agents as DSOs: pmkit's pminfo, and Debian's pminfo, pmprobe, pmstore and dbpmda on pmkit's libpcp, identical to Debian's"
exit 0
