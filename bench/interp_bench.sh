#!/bin/sh
# bench/interp_bench.sh [BUILD_DIR] [SAMPLES [METRICS]]: interpolated
# fetches (PM_MODE_INTERP), pmkit's libpcp against Debian's.
#
# Writes an archive of SAMPLES 1-second samples (default 86400, a day) of
# METRICS metrics (default 300; gen_archive's layout: one in ten over 20
# instances, every record holding every metric, about 20 KB a record, so
# 1.8 GB for the defaults) into BUILD_DIR/bench/interp-archive/, unless one
# made by the same generator with the same arguments is already there,
# then runs bench_interp.c through bench/run (BENCH_FILTER=interp_) with
# it in $BENCH_INTERP_ARCHIVE, and prints the ratios the goals are stated
# in, from each case's best round: per direction and number of metrics,
# pmkit's cost at 1 h steps over its cost at 1 s steps (goal <= 2), and
# Debian's cost over pmkit's at each step (goal >= 20 at steps spanning 100
# records or more, >= 2 at 1 s).  See bench/bench_interp.c for the cases.
# Never part of the test suite.
#
# Environment: BENCH_ROUNDS and the rest of bench/run's; BENCH_INTERP_KEEP=0
# removes the archive afterwards.
set -eu
me=interp_bench
usage="usage: bench/interp_bench.sh [BUILD_DIR] [SAMPLES [METRICS]]"
# shellcheck source=bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"
[ $# -eq 0 ] || shift
samples=${1:-86400}
metrics=${2:-300}
bench_positive "SAMPLES and METRICS must be positive integers" "$samples" "$metrics"
d=$build/bench/interp-archive
bench_archive "$d" -m "$metrics" -n "$samples"
bench_settle "$d"
say "archive: $(du -sh "$d" | cut -f1)"
BENCH_INTERP_ARCHIVE=$d/a
BENCH_FILTER=${BENCH_FILTER:-interp_}
export BENCH_INTERP_ARCHIVE BENCH_FILTER
status=0
sh "$top/bench/run" "$build" || status=$?

if best=$(bench_best "$build/bench/bench_interp"); then
    printf '%s\n' "$best" | awk '
    { best[$1 " " $2] = $3 }
    function r(a, b) { return (a in best) && (b in best) && best[b] > 0 ? sprintf("%.2f", best[a] / best[b]) : "-" }
    END {
        split("fwd back", dirs, " "); split("1 100 all", ns, " "); split("1s 1m 10m 1h", st, " ")
        printf "%-10s %9s %9s %9s %9s %9s\n", "case", "1h/1s", "Deb/1s", "Deb/1m", "Deb/10m", "Deb/1h"
        for (i = 1; i <= 2; i++)
            for (j = 1; j <= 3; j++) {
                c = "interp_" dirs[i] "_" ns[j] "_"
                line = sprintf("%-10s %9s", dirs[i] "_" ns[j], r("K " c "1h", "K " c "1s"))
                for (s = 1; s <= 4; s++)
                    line = line sprintf(" %9s", r("P " c st[s], "K " c st[s]))
                print line
            }
    }' >"$build/bench/interp-goals.txt"
    echo
    cat "$build/bench/interp-goals.txt"
    echo "(1h/1s: pmkit at 1 h steps / pmkit at 1 s steps; Deb/x: Debian time / pmkit time)"
fi
if [ "${BENCH_INTERP_KEEP:-1}" = 0 ]; then
    rm -rf "$d"
fi
exit "$status"
