#!/bin/sh
# derived_values_diff.sh ORACLE_DIR PROBE_PMKIT PROBE_PCP AGENT_PMKIT AGENT_PCP GEN [SEEDS]
#
# Derived metrics' registrations, descriptors, semantic errors and values,
# pmkit against Debian's libpcp: probe_derived.c, built once against each
# library, loads the test agent dm_agent.c (built once against each
# libpcp_pmda) into a local context and prints, for each case file, every
# registration, binding and fetch.  The cases: the hand-written files of
# derived_values/, every unary form and function over a grid of operands
# (gen_derived_exprs unary), every binary operator between every pair of
# the grid (gen_derived_exprs matrix 0..11), and SEEDS (default 100) runs
# of 300 random nested expressions.  The outputs must be identical, but for
# the time and process id of the agent's own error messages.
# DERIVED_VALUES_KEEP=DIR keeps the generated cases and both outputs.
set -u
[ $# -ge 6 ] && [ $# -le 7 ] ||
    { echo "usage: $0 ORACLE PROBE_PMKIT PROBE_PCP AGENT_PMKIT AGENT_PCP GEN [SEEDS]" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
need_oracle "$1/usr/lib/pcp/bin/pmcpp" "Debian's pmcpp"
ours=$(abspath "$2") gen=$(abspath "$6") seeds=${7:-100}
need_ours "$ours" "pmkit's derived probe"
need_built "$3" "$5"
theirs=$(abspath "$3") agent_ours=$(abspath "$4") agent_theirs=$(abspath "$5")
make_tmp derived_values_diff
export PCP_DERIVED_CONFIG= PCP_BINADM_DIR="$1/usr/lib/pcp/bin"
failed=0 ncases=0 nlines=0

# run NAME CASEFILE: both probes over CASEFILE, compared
run() {
    ncases=$((ncases + $(grep -c '^[^#@].* = ' "$2")))
    "$ours" "$here/dm.pmns" "$agent_ours" "$2" 2>&1 | sed 's/^\[.*\] pcp([0-9]*) //' >"$tmp/ours.out"
    "$theirs" "$here/dm.pmns" "$agent_theirs" "$2" 2>&1 | sed 's/^\[.*\] pcp([0-9]*) //' >"$tmp/theirs.out"
    nlines=$((nlines + $(wc -l <"$tmp/theirs.out")))
    if [ -n "${DERIVED_VALUES_KEEP:-}" ]; then
        mkdir -p "$DERIVED_VALUES_KEEP"
        cp "$2" "$DERIVED_VALUES_KEEP/$1.cases"
        cp "$tmp/ours.out" "$DERIVED_VALUES_KEEP/$1.pmkit"
        cp "$tmp/theirs.out" "$DERIVED_VALUES_KEEP/$1.pcp"
    fi
    if ! grep -q '^fetch 0' "$tmp/theirs.out" && grep -q '^@fetch [1-9]' "$2"; then
        echo "FAIL: $1: Debian's probe did not get to its fetches"
        tail -3 "$tmp/theirs.out"
        failed=1
    elif ! diff -u "$tmp/theirs.out" "$tmp/ours.out" >"$tmp/diff"; then
        echo "FAIL: $1 differs (- Debian, + pmkit):"
        head -40 "$tmp/diff"
        failed=1
    fi
}

for f in "$here"/derived_values/*.cases; do
    run "$(basename "$f" .cases)" "$f"
done
{ echo "@fetch 3"; "$gen" unary; } >"$tmp/unary" && run unary "$tmp/unary"
k=0
while [ $k -lt 12 ]; do
    { echo "@fetch 2"; "$gen" matrix $k; } >"$tmp/matrix$k" && run "matrix$k" "$tmp/matrix$k"
    k=$((k + 1))
done
s=1
while [ $s -le "$seeds" ]; do
    { echo "@fetch 4"; "$gen" $s 300; } >"$tmp/random$s" && run "random$s" "$tmp/random$s"
    s=$((s + 1))
done
[ $failed -eq 0 ] || { echo "(DERIVED_VALUES_KEEP=DIR keeps the cases and outputs)"; exit 1; }
echo "PASS: $ncases derived metrics ($(ls "$here"/derived_values/*.cases | wc -l) hand-written files, the unary and binary matrices, $seeds x 300 random), $nlines lines identical"
