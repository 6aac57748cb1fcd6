#!/bin/sh
# pminfo_local_diff.sh debian SRCDIR
# pminfo_local_diff.sh pmkit SRCDIR BUILDDIR
#
# pminfo's metric modes (-d -f -F -t -T -v -I -m -M -b, PMID and InDom
# operands, errors) against Debian's pminfo, both running local contexts
# over PCP's simple and trivial agents (built from the sources in Debian's
# pcp package by seed_agents.sh) and the fixed agent of the pminfo golden
# cases (SRCDIR/tests/cli/pminfo/fixed_agent.c).  The pminfo under test:
#   debian  SRCDIR/pminfo/main.c built here against Debian's libpcp, with
#           the agents built against Debian's libpcp_pmda: pminfo's own
#           logic and formats over a correct library;
#   pmkit   BUILDDIR/bin/pminfo with pmkit's libpcp, the agents built
#           against pmkit's libpcp_pmda (BUILDDIR/lib): the whole stack.
# Debian's side always uses Debian's pminfo and agents built against
# Debian's libraries.  Each side has its own $PCP_PMDAS_DIR.
#
# The cases are the command lines of pminfo_local_cases.  For each, stdout,
# stderr and the exit status must be identical once each side's directory
# is written DIR and the clock and CPU values are masked (simple.now 0..59,
# simple.time.user/sys non-negative numbers, trivial.time between the epoch
# seconds before the run, less one for the coarse clock the agent's time()
# reads, and after it: clock_values.awk; an implausible value fails the
# test).
#
# In the pmkit flavour two agents that break the rules in ways that crash
# Debian's pminfo (instance lists without names, NULL help text: SIGSEGV
# inside libpcp) must be reported without a crash: pmkit's pminfo has to
# exit normally, and Debian's is checked to still crash (docs/compat.md).
#
# PMINFO_DIFF_KEEP=DIR keeps both sides' outputs in DIR.
# Exit 0 identical, 1 any difference or failure, 2 usage, 77 skip (Debian's
# pcp extract, its agent sources, libpcp3-dev or a compiler missing).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
usage() {
    echo "Usage: pminfo_local_diff.sh debian SRCDIR | pmkit SRCDIR BUILDDIR" >&2
    exit 2
}
[ $# -ge 2 ] || usage
flavour=$1
src=$(cd "$2" && pwd) || usage
case $flavour in
debian) [ $# = 2 ] || usage ;;
pmkit)
    [ $# = 3 ] || usage
    build=$(cd "$3" && pwd) || usage
    ;;
*) usage ;;
esac
oracle=${PMKIT_ORACLE_DIR:-$here/../../.cache/oracle/pcp}
theirs_pminfo=$oracle/usr/bin/pminfo
cc=${CC:-cc}
need_oracle "$theirs_pminfo" "Debian's pminfo"
make_tmp pminfo_local

# fixed SIDE INCLUDEDIR: the fixed agent into $tmp/SIDE, built with the
# headers of INCLUDEDIR
fixed() {
    if ! "$cc" -shared -fPIC -w -I"$2" -o "$tmp/$1/fixed.so" \
        "$src/tests/cli/pminfo/fixed_agent.c"; then
        echo "FAIL: building fixed_agent.c ($1)"
        exit 1
    fi
}

# The agents, each side against its library: the debian flavour's two sides
# are the same build.
sh "$here/seed_agents.sh" "$tmp/theirs" debian || exit $?
fixed theirs /usr/include
if [ "$flavour" = debian ]; then
    cp -R "$tmp/theirs" "$tmp/ours" || exit 1
else
    sh "$here/seed_agents.sh" "$tmp/ours" pmkit "$src" "$build" || exit $?
    fixed ours "$build/include"
fi

# The pminfo under test.
if [ "$flavour" = debian ]; then
    ours_pminfo=$tmp/pminfo
    if ! "$cc" -std=gnu11 -Wall -Wextra -Werror -I/usr/include -I"$src/toolsupport" \
        -o "$ours_pminfo" "$src/pminfo/main.c" "$src/toolsupport/outfile.c" -lpcp; then
        echo "FAIL: building pminfo/main.c against Debian's libpcp"
        exit 1
    fi
else
    ours_pminfo=$build/bin/pminfo
fi
need_ours "$ours_pminfo" pminfo

PCP_BINADM_DIR=$oracle/usr/lib/pcp/bin
PCP_DERIVED_CONFIG=
export PCP_BINADM_DIR PCP_DERIVED_CONFIG
unset PMNS_DEFAULT PCP_PMCDCONF_PATH

# normalise SIDE T0 T1 <raw >normalised: the side's directory is DIR; the
# clock and CPU values are checked and masked (INVALID(value) if implausible)
normalise() {
    sed "s|$tmp/$1|DIR|g" |
        awk -v t0="$2" -v t1="$3" -f "$here/clock_values.awk" -f "$here/pminfo_normalise.awk"
}

# run SIDE N LINE: case N on one side into $tmp/SIDE.N.{out,err}
# (the variables are for the eval'd case line)
# shellcheck disable=SC2034
run() {
    dir=$tmp/$1
    if [ "$1" = ours ]; then PMINFO=$ours_pminfo; else PMINFO=$theirs_pminfo; fi
    SK="-K clear -K add,253,$dir/simple/pmda_simple.so,simple_init"
    SK="$SK -K add,250,$dir/trivial/pmda_trivial.so,trivial_init"
    SN=$dir/pmns FX=$dir/fixed.so FN=$src/tests/cli/pminfo/fixed_agent.pmns
    FK="-K clear -K add,30,$FX,fixed_init"
    DC=$src/tests/oracle/pminfo_derived
    SIMPLE_DSO=$dir/simple/pmda_simple.so
    t0=$(date +%s)
    (
        PCP_PMDAS_DIR=$dir
        export PCP_PMDAS_DIR
        eval "$3"
        echo "exit $?"
    ) >"$tmp/raw.out" 2>"$tmp/raw.err" </dev/null
    t1=$(date +%s)
    normalise "$1" "$t0" "$t1" <"$tmp/raw.out" >"$tmp/$1.$2.out"
    normalise "$1" "$t0" "$t1" <"$tmp/raw.err" >"$tmp/$1.$2.err"
}

n=0 ndiff=0
while IFS= read -r line; do
    case $line in
    '' | '#'*) continue ;;
    esac
    n=$((n + 1))
    run theirs $n "$line"
    run ours $n "$line"
    bad=
    cmp -s "$tmp/ours.$n.out" "$tmp/theirs.$n.out" || bad="$bad stdout/exit"
    cmp -s "$tmp/ours.$n.err" "$tmp/theirs.$n.err" || bad="$bad stderr"
    if grep -q 'INVALID(' "$tmp/ours.$n.out" "$tmp/theirs.$n.out"; then
        bad="$bad implausible-values"
    fi
    if [ -n "$bad" ]; then
        ndiff=$((ndiff + 1))
        echo "DIFF case $n:$bad"
        echo "  $line"
        echo "  --- stdout (< ours, > Debian's):"
        diff "$tmp/ours.$n.out" "$tmp/theirs.$n.out" | head -20 | sed 's/^/  /'
        echo "  --- stderr (< ours, > Debian's):"
        diff "$tmp/ours.$n.err" "$tmp/theirs.$n.err" | head -10 | sed 's/^/  /'
    fi
done <"$here/pminfo_local_cases"

# crashrun SIDE INIT OPTS...: that side's pminfo over the fixed agent's INIT;
# returns its exit status, output in $tmp/crash.{out,err}
crashrun() {
    if [ "$1" = ours ]; then bin=$ours_pminfo; else bin=$theirs_pminfo; fi
    dir=$tmp/$1 init=$2
    shift 2
    # a command after it, so the subshell (silenced) reports the signal
    (
        PCP_PMDAS_DIR=$dir "$bin" -L -K clear -K "add,30,$dir/fixed.so,$init" \
            -n "$src/tests/cli/pminfo/fixed_agent.pmns" "$@" fixed 30.0 \
            >"$tmp/crash.out" 2>"$tmp/crash.err" </dev/null
        rc=$?
        exit $rc
    ) 2>/dev/null
}

# Agents that crash Debian's pminfo: pmkit's must report them and exit.
ncrash=0
if [ "$flavour" = pmkit ]; then
    # instance names are needed for values, texts for -t/-T
    for c in nonames_init:-dfmtT nonames_init:-F nulltext_init:-dfmtT nulltext_init:-ItT \
        nulltext_init:-t; do
        init=${c%%:*} opts=${c#*:}
        ncrash=$((ncrash + 1))
        crashrun theirs "$init" "$opts"
        theirs_rc=$?
        crashrun ours "$init" "$opts"
        ours_rc=$?
        if [ $ours_rc -ge 128 ] || [ ! -s "$tmp/crash.out" ] ||
            grep -q -e Sanitizer -e 'runtime error' "$tmp/crash.err"; then
            ndiff=$((ndiff + 1))
            echo "CRASH $init $opts: pmkit's pminfo exited $ours_rc"
            head -10 "$tmp/crash.err" | sed 's/^/  /'
        elif [ $theirs_rc -lt 128 ]; then
            ndiff=$((ndiff + 1))
            echo "STALE $init $opts: Debian's pminfo no longer crashes (exit $theirs_rc)"
        fi
    done
fi

if [ -n "${PMINFO_DIFF_KEEP:-}" ]; then
    mkdir -p "$PMINFO_DIFF_KEEP" && cp "$tmp"/ours.* "$tmp"/theirs.* "$PMINFO_DIFF_KEEP"/
fi
if [ $n = 0 ]; then
    echo "FAIL: no cases in $here/pminfo_local_cases"
    exit 1
fi
if [ $ndiff != 0 ]; then
    echo "pminfo local oracle ($flavour library): FAILED, $ndiff of $((n + ncrash)) runs differ"
    exit 1
fi
extra=
[ $ncrash = 0 ] || extra=", and $ncrash runs with rule-breaking agents that crash Debian's pminfo"
echo "pminfo local oracle ($flavour library): $n runs identical to Debian's pminfo$extra"
exit 0
