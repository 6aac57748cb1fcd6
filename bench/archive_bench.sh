#!/bin/sh
# bench/archive_bench.sh [BUILD_DIR] [SAMPLES...]: archives, pmkit's libpcp
# against Debian's.
#
# For each SAMPLES (default "600 3600 21600"), writes an archive of that many
# 1-second samples of 2000 metrics (gen_archive's defaults: one in ten over
# 20 instances, about 135 KB a record, data volumes of 1 GiB; 21600 samples
# make 2.9 GB) into BUILD_DIR/bench/archives/nSAMPLES/, unless one made by
# the same generator with the same arguments is already there, settles the
# volumes in the page cache (bench_settle in bench_lib.sh), then runs
# bench_archive.c through bench/run (BENCH_FILTER=archive_) with the
# archives named in $BENCH_ARCHIVES, and prints the ratios the goals are
# stated in (each case's best round).  See bench/bench_archive.c for the
# cases and bench/README.md for how to read them.  Never part of the test
# suite.
#
# Environment: BENCH_ARCHIVE_VERSION (2 or 3, default 3), BENCH_ARCHIVE_PASSES
# (timed passes over a whole archive per process, default 2), BENCH_ROUNDS
# and the rest of bench/run's; BENCH_ARCHIVE_KEEP=0 removes the archives
# afterwards.
set -eu
me=archive_bench
usage="usage: bench/archive_bench.sh [BUILD_DIR] [SAMPLES...]"
# shellcheck source=bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"
[ $# -eq 0 ] || shift
sizes=${*:-600 3600 21600}
# shellcheck disable=SC2086
bench_positive "SAMPLES must be positive integers" $sizes
version=${BENCH_ARCHIVE_VERSION:-3}
case $version in 2 | 3) ;; *) die "BENCH_ARCHIVE_VERSION must be 2 or 3" ;; esac
dir=$build/bench/archives
spec=''
for n in $sizes; do
    d=$dir/n$n
    bench_archive "$d" -V "$version" -n "$n"
    bench_settle "$d"
    say "n$n: $(du -sh "$d" | cut -f1)"
    spec="$spec n$n=$d/a"
done
BENCH_ARCHIVES=${spec# }
BENCH_FILTER=${BENCH_FILTER:-archive_}
export BENCH_ARCHIVES BENCH_FILTER
status=0
sh "$top/bench/run" "$build" || status=$?

# The goals, from the best round of each case (bench/run's raw output).
if best=$(bench_best "$build/bench/bench_archive"); then
    printf '%s\n' "$best" | awk '
    # a / b to d decimals, or "-" for a case the run left out (BENCH_FILTER)
    function ratio(a, b, d) {
        if (!(a in best) || !(b in best) || best[b] == 0) return sprintf(" %11s", "-")
        return sprintf(" %10." d "fx", best[a] / best[b])
    }
    { best[$1 " " $2] = $3 }
    END {
        for (key in best) {
            split(key, f, " ")
            if (f[1] != "K") continue
            n = f[2]
            sub(/^archive_[a-z_]*_n/, "n", n)
            if (n in seen) continue
            seen[n] = 1
            printf "%-8s%s%s%s%s%s%s%s%s\n", n, ratio("P archive_open_" n, "K archive_open_" n, 1),
                ratio("P archive_fwd_" n, "K archive_fwd_" n, 1),
                ratio("P archive_back_" n, "K archive_back_" n, 1),
                ratio("K archive_fwd_" n, "K archive_cat_" n, 2),
                ratio("K archive_back_" n, "K archive_cat_" n, 2),
                ratio("K archive_fwd_" n, "K archive_catcmd_" n, 2),
                ratio("K archive_back_" n, "K archive_catcmd_" n, 2),
                ratio("P archive_seek_" n, "K archive_seek_" n, 1)
        }
    }' | sort -k1.2n >"$build/bench/archive-goals.txt"
    printf '\n%-8s %11s %11s %11s %11s %11s %11s %11s %11s\n' size open/Deb fwd/Deb back/Deb \
        fwd/read back/read fwd/cat back/cat seek/Deb
    cat "$build/bench/archive-goals.txt"
    echo "(x/Deb: Debian time / pmkit time; x/read: pmkit time / read() of the same volumes"
    echo " in 1 MiB blocks; x/cat: pmkit time / cat(1) of them to /dev/null)"
fi
if [ "${BENCH_ARCHIVE_KEEP:-1}" = 0 ]; then
    rm -rf "$dir"
fi
exit "$status"
