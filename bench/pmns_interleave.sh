#!/bin/sh
# bench/pmns_interleave.sh [BUILD_DIR] [SIZE] [CASE...]: per-call namespace
# cases at one size, each library measured right next to the other.
#
# Debian's libpcp needs minutes to load a 1M-name namespace, and this
# machine's speed drifts over minutes, so running one library after the
# other compares two different machines.  Here PCP's bench_pmns_image runs
# once with BENCH_PMNS_PAUSE set: it loads the namespace once, then stops
# itself before timing each case.  While it is stopped, pmkit's binary runs
# the same case (opening its image takes microseconds), then PCP's process
# goes on and times it.  CASE is lookup, lookup_batch or nameid (default:
# all three), SIZE a leaf count (default 1000000); the case list is run
# BENCH_ROUNDS times (default 3).  Prints, per round and case, ns/op of
# each side and the ratio PCP/pmkit, and fails if the checksums differ.
#
# Needs BUILD_DIR/bench/bench_pmns_image.pmkit and .pcp, which bench/run
# builds (e.g. BENCH_FILTER=open_3k bench/run BUILD_DIR).  Uses the same
# BENCH_PMNS_DIR, BENCH_PMNS_SEED, BENCH_REP_MS and BENCH_PMNS_BUDGET_MS as
# the binaries.  Never part of the tests.
set -eu

me=pmns_interleave
usage="usage: bench/pmns_interleave.sh [BUILD_DIR] [SIZE] [CASE...]"
# shellcheck source=bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"
size=${2:-1000000}
if [ $# -gt 2 ]; then shift 2; else set --; fi
cases=${*:-lookup lookup_batch nameid}
rounds=${BENCH_ROUNDS:-3}
bench_positive "SIZE and BENCH_ROUNDS must be positive integers" "$size" "$rounds"
for c in $cases; do
    case $c in lookup | lookup_batch | nameid) ;; *) die "unknown case '$c' (lookup, lookup_batch, nameid)" ;; esac
done
ours=$build/bench/bench_pmns_image.pmkit
theirs=$build/bench/bench_pmns_image.pcp
for b in "$ours" "$theirs"; do
    [ -x "$b" ] || die "no $b: build it with bench/run first (e.g. BENCH_FILTER=open_3k bench/run $build)"
done
# the binaries' size labels: 1m, 100k, 2500
if [ $((size % 1000000)) -eq 0 ]; then label=$((size / 1000000))m
elif [ $((size % 1000)) -eq 0 ]; then label=$((size / 1000))k
else label=$size; fi
unset BENCH_PMNS_PAUSE BENCH_PMNS_BIG # only PCP's side stops; no size but SIZE
export BENCH_PMNS_SIZES="$size" PCP_DERIVED_CONFIG=

work=$(mktemp -d)
pcp_pid=
# shellcheck disable=SC2317 # called by the trap
cleanup() {
    if [ -n "$pcp_pid" ]; then
        kill -CONT "$pcp_pid" 2>/dev/null || :
        kill "$pcp_pid" 2>/dev/null || :
    fi
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

list=
for _ in $(seq "$rounds"); do for c in $cases; do list="$list ${c}_$label"; done; done
# shellcheck disable=SC2086 # the case names are words
BENCH_PMNS_PAUSE=1 "$theirs" $list >"$work/pcp" 2>"$work/pcp.err" & # it flushes each line
pcp_pid=$!
say "PCP's side is loading $size names (minutes at 1M)..."

field() { printf '%s\n' "$2" | awk -v k="$1" '{ print $k }'; }
stopped() { [ "$(sed 's/.*) //' "/proc/$pcp_pid/stat" 2>/dev/null | cut -c1)" = T ]; }
fail=0
printf '%-20s %12s %12s %8s\n' case pmkit pcp ratio
for name in $list; do
    while ! stopped; do
        kill -0 "$pcp_pid" 2>/dev/null || die "PCP's side ended early: $(cat "$work/pcp.err")"
        sleep 0.2
    done
    "$ours" "$name" >"$work/ours" 2>"$work/ours.err" || die "pmkit's side failed: $(cat "$work/ours.err")"
    ours_line=$(tail -1 "$work/ours")
    done_lines=$(wc -l <"$work/pcp")
    kill -CONT "$pcp_pid"
    while [ "$(wc -l <"$work/pcp")" -le "$done_lines" ]; do
        kill -0 "$pcp_pid" 2>/dev/null || die "PCP's side ended early: $(cat "$work/pcp.err")"
        sleep 0.2
    done
    theirs_line=$(tail -1 "$work/pcp")
    # each line is "name ns/op checksum"
    if [ "$(field 1 "$ours_line")" != "$name" ] || [ "$(field 1 "$theirs_line")" != "$name" ]; then
        die "unexpected output: '$ours_line' / '$theirs_line'"
    fi
    ours_ns=$(field 2 "$ours_line") ours_sum=$(field 3 "$ours_line")
    theirs_ns=$(field 2 "$theirs_line") theirs_sum=$(field 3 "$theirs_line")
    mark=
    [ "$ours_sum" = "$theirs_sum" ] || { mark='  CHECKSUMS DIFFER'; fail=1; }
    awk -v n="$name" -v a="$ours_ns" -v b="$theirs_ns" -v m="$mark" \
        'BEGIN { printf "%-20s %12.1f %12.1f %7.2fx%s\n", n, a, b, b / a, m }'
done
sts=0
wait "$pcp_pid" || sts=$?
pcp_pid=
[ "$sts" = 0 ] || die "PCP's side exited with status $sts: $(cat "$work/pcp.err")"
exit $fail
