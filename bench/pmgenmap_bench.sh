#!/bin/sh
# bench/pmgenmap_bench.sh [BUILD_DIR] [NAMES]: pmgenmap against Debian's.
#
# Generates a map specification with NAMES metric names (default 10000):
# groups of 100 names, a comment block before every group and a comment
# line every 10 names, blank lines between groups.  Then times whole runs,
# stdout to /dev/null:
#   pmkit    BUILD_DIR/bin/pmgenmap SPEC
#   Debian   .cache/oracle/pcp/usr/bin/pmgenmap SPEC (PCP's shell + gawk script)
# A measurement is BENCH_LOOP back-to-back runs (default 20) timed together;
# BENCH_ROUNDS measurements per tool (default 5), interleaved, the best
# counts.  Prints ms per run for each and the ratio Debian / pmkit.  Also
# checks once that the two outputs are byte-identical (PACKAGE_BUILD_DATE
# is set so the date line is fixed).
#
# Debian's pmgenmap needs pcp.env (in the oracle), a pcp.conf (Debian's
# pcp-conf package, /etc/pcp.conf; or set PCP_CONF) and gawk.
#
# Environment: PMKIT_PMGENMAP, PCP_PMGENMAP (the two programs),
# BENCH_LOOP, BENCH_ROUNDS.  Exit status 1 if an output differs or a tool
# fails.  Never part of the tests.
set -eu

me=pmgenmap_bench
usage="usage: bench/pmgenmap_bench.sh [BUILD_DIR] [NAMES]"
# shellcheck source=bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"
names=${2:-10000}
loop=${BENCH_LOOP:-20}
rounds=${BENCH_ROUNDS:-5}
bench_positive "NAMES, BENCH_LOOP and BENCH_ROUNDS must be positive integers" "$names" "$loop" "$rounds"
pmkit=${PMKIT_PMGENMAP:-$build/bin/pmgenmap}
pcp=${PCP_PMGENMAP:-$top/.cache/oracle/pcp/usr/bin/pmgenmap}
[ -x "$pmkit" ] || die "no pmkit pmgenmap at $pmkit (build it, or set PMKIT_PMGENMAP)"
[ -f "$pcp" ] || die "no Debian pmgenmap at $pcp (run: sh scripts/deps.sh test, or set PCP_PMGENMAP)"
PCP_DIR=$(cd "$(dirname "$pcp")/../.." && pwd)
PCP_CONF=${PCP_CONF:-/etc/pcp.conf}
[ -f "$PCP_CONF" ] || die "no pcp.conf at $PCP_CONF (Debian's pcp-conf package)"
command -v gawk >/dev/null 2>&1 || die "gawk is not installed (Debian's pmgenmap runs gawk --posix)"
PACKAGE_BUILD_DATE='Thu Jan  1 00:00:00 UTC 1970'
export PCP_DIR PCP_CONF PACKAGE_BUILD_DATE

out=$build/bench
mkdir -p "$out"
spec=$out/pmgenmap-$names.spec
awk -v n="$names" 'BEGIN {
    for (i = 0; i < n; i++) {
        if (i % 100 == 0) {
            if (i > 0) print "}\n"
            printf "# group %d: metrics %d to %d\n# of the generated map\n", i / 100, i, i + 99
            printf "group%d {\n", i / 100
        } else if (i % 10 == 0)
            printf "    # names %d onwards\n", i
        printf "    kernel.percpu.sub%d.metric%d\tSYM_%d_%d\n", i % 7, i, i / 100, i % 100
    }
    if (n > 0) print "}"
}' >"$spec"

# time_loop PROGRAM: milliseconds per run over $loop runs
time_loop() {
    t0=$(date +%s%N)
    i=0
    while [ $i -lt "$loop" ]; do
        "$1" "$spec" >/dev/null || return 1
        i=$((i + 1))
    done
    t1=$(date +%s%N)
    echo "$t0 $t1 $loop" | awk '{ printf "%.3f\n", ($2 - $1) / 1e6 / $3 }'
}

best_pmkit='' best_pcp=''
r=1
while [ $r -le "$rounds" ]; do
    a=$(time_loop "$pmkit") || die "pmkit's pmgenmap failed on $spec"
    b=$(time_loop "$pcp") || die "Debian's pmgenmap failed on $spec"
    best_pmkit=$(echo "$a ${best_pmkit:-$a}" | awk '{ print ($1 < $2) ? $1 : $2 }')
    best_pcp=$(echo "$b ${best_pcp:-$b}" | awk '{ print ($1 < $2) ? $1 : $2 }')
    r=$((r + 1))
done

status=0
if "$pmkit" "$spec" >"$out/pmgenmap.pmkit.h" && "$pcp" "$spec" >"$out/pmgenmap.pcp.h" &&
    cmp -s "$out/pmgenmap.pmkit.h" "$out/pmgenmap.pcp.h"; then
    check="OK (byte-identical, $(wc -c <"$out/pmgenmap.pmkit.h") bytes)"
else
    check="DIFFERS (see $out/pmgenmap.pmkit.h and $out/pmgenmap.pcp.h)"
    status=1
fi
{
    echo "input:  $spec ($names names, $(wc -l <"$spec") lines, $(wc -c <"$spec") bytes)"
    echo "timing: best of $rounds rounds of $loop runs each, stdout to /dev/null"
    printf '%-18s %12s\n' tool "ms per run"
    printf '%-18s %12s\n' "pmkit pmgenmap" "$best_pmkit"
    printf '%-18s %12s\n' "Debian pmgenmap" "$best_pcp"
    echo "$best_pcp $best_pmkit" | awk '{ printf "ratio (Debian / pmkit): %.1fx\n", $1 / $2 }'
    echo "output: $check"
} | tee "$out/pmgenmap-results.txt"
exit $status
