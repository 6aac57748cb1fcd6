#!/bin/sh
# bench/newhelp_bench.sh [BUILD_DIR] [SIZES]: newhelp, pmkit against Debian.
#
# For each size N (default "3000 100000") this generates a namespace of N
# leaves (groups of 1000, unique PMIDs, one domain) and a help source with
# one entry per leaf plus N/100 InDoms (a one-line summary and two lines of
# text each, a comment line every 50 entries), then times
# `newhelp -n NS -o OUT SRC` with pmkit's and with Debian's newhelp: the
# best wall-clock time and the best CPU time (user + system, Debian's pmcpp
# child included) of BENCH_RUNS runs (default 3), the runs of the two sides
# interleaved.  It checks that the two databases are byte-identical, prints
# both times and the ratios Debian/pmkit, and says whether the goal (30x at
# 100k entries) was met.  On a busy shared machine the CPU ratio is the
# steadier one.  Never part of the test suite.
#
# Environment: PCP_NEWHELP (Debian's newhelp; default the unpacked oracle's),
# BENCH_RUNS, CC, TMPDIR.  Debian's newhelp runs Debian's pmcpp from
# PCP_BINADM_DIR (set here to the directory of PCP_NEWHELP).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
sizes=${2:-3000 100000}
runs=${BENCH_RUNS:-3}
theirs=${PCP_NEWHELP:-$top/.cache/oracle/pcp/usr/lib/pcp/bin/newhelp}
ours=$build/bin/newhelp
[ -x "$ours" ] || { echo "newhelp_bench: no $ours; build pmkit first" >&2; exit 1; }
[ -x "$theirs" ] || { echo "newhelp_bench: no Debian newhelp at $theirs (sh scripts/deps.sh test)" >&2; exit 1; }
PCP_BINADM_DIR=$(dirname "$theirs") PCP_DERIVED_CONFIG=
export PCP_BINADM_DIR PCP_DERIVED_CONFIG
tmp=$(mktemp -d "${TMPDIR:-/tmp}/newhelp_bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# runtime CMD...: run CMD, print "<wall s> <cpu s>"
cat >"$tmp/runtime.c" <<'CSRC'
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
int main(int argc, char **argv)
{
    struct timespec t0, t1;
    struct rusage ru;
    int st;
    pid_t pid;
    if (argc < 2)
        return 2;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if ((pid = fork()) == 0) {
        execvp(argv[1], argv + 1);
        _exit(127);
    }
    if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) > 1)
        return 1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    getrusage(RUSAGE_CHILDREN, &ru); /* the command and all it waited for */
    printf("%.4f %.4f\n", (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9,
           (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
               (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6);
    return 0;
}
CSRC
${CC:-cc} -O2 -o "$tmp/runtime" "$tmp/runtime.c" ||
    { echo "newhelp_bench: cannot build the timer" >&2; exit 1; }

# time_one BIN DIR: "wall cpu" of one run (leaves DIR/out.dir, DIR/out.pag);
# its exit only ends the $(...) it runs in, so callers check its status.
time_one() {
    (cd "$2" && "$tmp/runtime" "$1" -n ../ns -o out ../src 2>/dev/null) ||
        { echo "newhelp_bench: $1 failed" >&2; exit 1; }
}
min() { awk -v a="$1" -v b="$2" 'BEGIN { print (b == "" || a + 0 < b + 0) ? a : b }'; }

printf '%-8s %10s %10s %8s   %10s %10s %8s\n' entries "pmkit s" "Debian s" ratio \
    "pmkit cpu" "Debian cpu" ratio
status=0
for n in $sizes; do
    d=$tmp/$n
    mkdir -p "$d/ours" "$d/theirs"
    awk -v n="$n" 'BEGIN {
        g = int((n + 999) / 1000)
        print "root {"; print "    bench"; print "}"
        printf "bench {\n"; for (k = 0; k < g; k++) printf "    group%d\n", k; print "}"
        for (k = 0; k < g; k++) {
            printf "bench.group%d {\n", k
            for (i = k * 1000; i < n && i < (k + 1) * 1000; i++)
                printf "    metric%d\t60:%d:%d\n", i, k, i % 1000
            print "}"
        }
    }' >"$d/ns"
    awk -v n="$n" 'BEGIN {
        print "# generated help source"
        for (i = 0; i < n; i++) {
            printf "@ bench.group%d.metric%d One-line summary of metric %d\n", int(i / 1000), i, i
            printf "Longer help text for metric %d.  It explains what the value\n", i
            print "means, its units and its semantics."
            if (i % 50 == 0) print "# a comment line"
            print ""
        }
        for (i = 0; i < n / 100; i++)
            printf "@ 60.%d Instance domain %d\nThe instances of domain 60, set %d.\n\n", i, i, i
    }' >"$d/src"
    wo='' wt='' co='' ct=''
    r=1
    while [ "$r" -le "$runs" ]; do
        if [ $((r % 2)) = 1 ]; then order="ours theirs"; else order="theirs ours"; fi
        for side in $order; do
            if [ "$side" = ours ]; then
                t=$(time_one "$ours" "$d/ours") || exit 1
                # shellcheck disable=SC2086
                set -- $t
                wo=$(min "$1" "$wo") co=$(min "$2" "$co")
            else
                t=$(time_one "$theirs" "$d/theirs") || exit 1
                # shellcheck disable=SC2086
                set -- $t
                wt=$(min "$1" "$wt") ct=$(min "$2" "$ct")
            fi
        done
        r=$((r + 1))
    done
    same=identical
    if ! cmp -s "$d/ours/out.dir" "$d/theirs/out.dir" || ! cmp -s "$d/ours/out.pag" "$d/theirs/out.pag"; then
        same=DIFFER status=1
    fi
    awk -v n="$n" -v wo="$wo" -v wt="$wt" -v co="$co" -v ct="$ct" -v same="$same" 'BEGIN {
        printf "%-8s %10s %10s %7.1fx   %10s %10s %7.1fx  (databases %s)\n", n, wo, wt, wt / wo,
               co, ct, (co > 0 ? ct / co : 0), same
        if (n == 100000)
            printf "goal: >= 30x at 100k entries: %s (wall), %s (cpu)\n",
                   wt / wo >= 30 ? "met" : "NOT met", (co > 0 && ct / co >= 30) ? "met" : "NOT met"
    }'
done
exit $status
