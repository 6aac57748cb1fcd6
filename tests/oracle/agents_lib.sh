# agents_lib.sh - sourced by agents_diff.sh and seed_compile.sh, which set
# $here (this directory) and $pmns (the namespace of seed_agents.sh): the
# runs over a pair of simple and trivial agents and the verdict on two pairs.
# shellcheck shell=sh disable=SC2154,SC2034

# debian_probe OUT: probe_store.c built against Debian's libpcp as OUT
# (needs $cc and $here); exits 1 on failure
debian_probe() {
    if ! "$cc" -std=c11 -D_DEFAULT_SOURCE -o "$1" "$here/probe_store.c" -lpcp; then
        echo "FAIL: building probe_store.c against Debian's libpcp"
        exit 1
    fi
}

# agents_runs DIR PMINFO PROBE EXTRA OPT...: the agents of DIR (DIR/simple/
# pmda_simple.so and DIR/trivial/pmda_trivial.so, PCP_PMDAS_DIR=DIR) loaded
# with -K by PMINFO once per OPT, by PROBE (probe_store.c) once per script
# of agents_cases/, then by the command EXTRA DIR (: for none), which
# appends its own runs; each run is "== WHAT" ... "== exit N", with
# DIR/simple/simple.conf reset to "sec,min,hour" before it.  stdout goes
# through agents_normalise.awk (each side's directory written DIR) into
# DIR.out, stderr into DIR.err.
agents_runs() {
    dir=$1 run_pminfo=$2 run_probe=$3 run_extra=$4
    shift 4
    opts=$*
    set -- -K clear -K "add,253,$dir/simple/pmda_simple.so,simple_init" \
        -K "add,250,$dir/trivial/pmda_trivial.so,trivial_init"
    t0=$(date +%s)
    for opt in $opts; do
        echo "sec,min,hour" >"$dir/simple/simple.conf"
        echo "== pminfo $opt"
        PCP_PMDAS_DIR=$dir "$run_pminfo" -L "$@" -n "$pmns" "$opt" simple trivial
        echo "== exit $?"
    done >"$dir.raw" 2>"$dir.err"
    for c in "$here"/agents_cases/*; do
        echo "sec,min,hour" >"$dir/simple/simple.conf"
        echo "== ${c##*/}"
        PCP_PMDAS_DIR=$dir "$run_probe" -n "$pmns" "$@" <"$c"
        echo "== exit $?"
    done >>"$dir.raw" 2>>"$dir.err"
    "$run_extra" "$dir" >>"$dir.raw" 2>>"$dir.err"
    t1=$(date +%s)
    sed "s|$dir/|DIR/|g" "$dir.raw" |
        awk -v t0="$t0" -v t1="$t1" -f "$here/clock_values.awk" -f "$here/agents_normalise.awk" \
            >"$dir.out"
}

# agents_verdict OURS THEIRS WHAT: 0 when the runs of OURS and THEIRS (the
# DIRs of agents_runs) all succeed (agents_sane.sh), hold only plausible
# clock and CPU values and are identical, with $nruns set to their number;
# else 1, after "FAIL: WHAT" and the differences
agents_verdict() {
    verdict=0
    if ! sh "$here/agents_sane.sh" "$1" "$2"; then
        verdict=1
    fi
    if grep -n INVALID "$1.out" "$2.out"; then
        echo "FAIL: implausible clock or CPU values (above)"
        verdict=1
    fi
    if ! cmp -s "$1.out" "$2.out"; then
        echo "FAIL: $3"
        diff "$1.out" "$2.out" | head -60
        echo "--- stderr of the runs of ${1##*/}:"
        head -20 "$1.err"
        verdict=1
    fi
    nruns=$(grep -c '^== exit' "$1.out")
    return $verdict
}
