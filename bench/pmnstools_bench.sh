#!/bin/sh
# bench/pmnstools_bench.sh [BUILD_DIR] [CASE...]: pmnsmerge, pmnsadd and
# pmnsdel against Debian's.
#
# The namespaces are bench_pmns's (bench/gen_bench_pmns.c, seed 1): 3k,
# 100k and 1M names, written to BUILD_DIR/bench/pmns-data as
# pmns-N-s1-v1 (shared with bench_pmns), plus a subtree of 1000 names
# (bench1k: 10 groups of 100 leaves, domain 400) made here.  The cases:
#   merge100k   pmnsmerge NS-100k NS-3k out
#   merge1m     pmnsmerge NS-1M NS-3k out
#   add1k       pmnsadd -n COPY-OF-NS-1M bench1k
#   del1k       pmnsdel -n COPY-OF-NS-1M+bench1k bench1k
# (default: all four).  A measurement is one whole run (a fresh copy of
# the namespace for add1k and del1k, made before the clock starts), stdout
# and stderr to files; BENCH_ROUNDS rounds (default 3), the two tools
# taking turns, the best run of each counts.  Prints wall-clock seconds
# and CPU seconds (user + system, Debian's child processes included) per
# run for each side and the ratios Debian / pmkit, and checks that the two
# sides' output files are byte-identical (their warnings too).
#
# Debian's tools need minutes on the 1M-name cases (its libpcp reads a
# namespace in quadratic time, and pmnsmerge reads its output back):
# BENCH_PCP_1M_ROUNDS (default 1) rounds of those, BENCH_SKIP_PCP_1M=1 for
# none (pmkit's figures only).  Debian's pmnsadd needs pcp.env (in the
# oracle), a pcp.conf (Debian's pcp-conf: /etc/pcp.conf, or set PCP_CONF)
# and gawk.  Environment: PCP_ORACLE (default .cache/oracle/pcp).
# Timings are machine-specific and never part of the tests.
set -eu

me=pmnstools_bench
usage="usage: bench/pmnstools_bench.sh [BUILD_DIR] [merge100k|merge1m|add1k|del1k...]"
# shellcheck source=bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"
[ $# -gt 0 ] && shift
cases=${*:-merge100k merge1m add1k del1k}
rounds=${BENCH_ROUNDS:-3}
rounds_1m=${BENCH_PCP_1M_ROUNDS:-1}
bench_positive "BENCH_ROUNDS and BENCH_PCP_1M_ROUNDS must be positive integers" "$rounds" "$rounds_1m"
oracle=${PCP_ORACLE:-$top/.cache/oracle/pcp}
theirs=$oracle/usr/lib/pcp/bin
for t in pmnsmerge pmnsadd pmnsdel; do
    [ -x "$build/bin/$t" ] || die "no pmkit $t in $build/bin (build it first)"
    [ -x "$theirs/$t" ] || die "no Debian $t in $theirs (run: sh scripts/deps.sh test, or set PCP_ORACLE)"
done
PCP_CONF=${PCP_CONF:-/etc/pcp.conf}
[ -f "$PCP_CONF" ] || die "no pcp.conf at $PCP_CONF (Debian's pcp-conf package)"
command -v gawk >/dev/null 2>&1 || die "gawk is not installed (Debian's pmnsadd runs gawk --posix)"

data=$build/bench/pmns-data
work=$build/bench/pmnstools
mkdir -p "$data" "$work"
PCP_DIR=$oracle PCP_BINADM_DIR=$theirs PCP_TMPFILE_DIR=$work PCP_DERIVED_CONFIG='' LC_ALL=C
export PCP_CONF PCP_DIR PCP_BINADM_DIR PCP_TMPFILE_DIR PCP_DERIVED_CONFIG LC_ALL
unset PMNS_DEFAULT PCP_ENV_DONE

gen=$work/gen_bench_pmns
${CC:-cc} -O2 -std=c11 -I"$top/bench" -o "$gen" "$top/bench/gen_bench_pmns.c" ||
    die "cannot build $gen"
ns() {
    f=$data/pmns-$1-s1-v1
    [ -f "$f" ] || "$gen" "$f" "$1" 1 >/dev/null 2>&1 || die "gen_bench_pmns $f $1 failed"
    echo "$f"
}
sub=$work/bench1k
awk 'BEGIN {
    print "bench1k {"
    for (g = 0; g < 10; g++) printf "\tg%d\n", g
    print "}"
    for (g = 0; g < 10; g++) {
        printf "bench1k.g%d {\n", g
        for (i = 0; i < 100; i++) printf "\tm%d\t400:%d:%d\n", i, g, i
        print "}"
    }
}' >"$sub"

# clock CMD...: "<wall s> <cpu s>" of CMD (user + system time of it and
# every process it waited for: Debian's pmnsadd is a shell script), its
# stdout and stderr into $work/last.*
timer=$work/runtime
cat >"$work/runtime.c" <<'CSRC'
#define _DEFAULT_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
int main(int argc, char **argv)
{
    struct timespec t0, t1;
    struct rusage ru;
    int st, out, err;
    pid_t pid;
    if (argc < 4 || (out = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0 ||
        (err = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0)
        return 2;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if ((pid = fork()) == 0) {
        dup2(out, 1);
        dup2(err, 2);
        execvp(argv[3], argv + 3);
        _exit(127);
    }
    if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) == 127)
        return 1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    getrusage(RUSAGE_CHILDREN, &ru);
    printf("%.4f %.4f\n", (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9,
           (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
               (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6);
    return 0;
}
CSRC
${CC:-cc} -O2 -o "$timer" "$work/runtime.c" || die "cannot build the timer"
clock() {
    "$timer" "$work/last.out" "$work/last.err" "$@" || die "cannot run $*"
}

# one CASE SIDE: one run of CASE by SIDE's tools; "wall cpu" on stdout,
# the output namespace in $work/CASE.SIDE
one() {
    if [ "$2" = pmkit ]; then dir=$build/bin; else dir=$theirs; fi
    res=$work/$1.$2
    rm -f "$res"
    case $1 in
    merge100k) clock "$dir/pmnsmerge" "$(ns 100000)" "$(ns 3000)" "$res" ;;
    merge1m) clock "$dir/pmnsmerge" "$(ns 1000000)" "$(ns 3000)" "$res" ;;
    add1k)
        cp "$(ns 1000000)" "$res"
        clock "$dir/pmnsadd" -n "$res" "$sub"
        ;;
    del1k)
        cp "$work/ns-1m+1k" "$res"
        clock "$dir/pmnsdel" -n "$res" bench1k
        ;;
    esac
    cp "$work/last.err" "$res.err"
}

# min "W C" "W C": the smaller of each (the second may be empty)
min() { echo "$1 ${2:-$1}" | awk '{ printf "%s %s\n", ($1 < $3) ? $1 : $3, ($2 < $4) ? $2 : $4 }'; }

for c in $cases; do
    case $c in merge100k | merge1m | add1k | del1k) ;; *) die "unknown case $c; $usage" ;; esac
done
case " $cases " in
*" del1k "*)
    cp "$(ns 1000000)" "$work/ns-1m+1k"
    "$build/bin/pmnsadd" -n "$work/ns-1m+1k" "$sub" >/dev/null || die "cannot make ns-1m+1k"
    ;;
esac

status=0
printf '%-10s %9s %9s %7s %9s %9s %7s  %s\n' case "pmkit s" "Debian s" ratio "pmkit cpu" "Deb. cpu" ratio output
for c in $cases; do
    best_pmkit='' best_pcp=''
    n=$rounds
    pcp_rounds=$rounds
    case $c in *1m | add1k | del1k) pcp_rounds=$rounds_1m ;; esac
    [ "${BENCH_SKIP_PCP_1M:-0}" = 1 ] && [ "$c" != merge100k ] && pcp_rounds=0
    r=1
    while [ $r -le "$n" ] || [ $r -le "$pcp_rounds" ]; do
        if [ $r -le "$n" ]; then
            best_pmkit=$(min "$(one "$c" pmkit)" "$best_pmkit")
        fi
        if [ $r -le "$pcp_rounds" ]; then
            best_pcp=$(min "$(one "$c" pcp)" "$best_pcp")
        fi
        r=$((r + 1))
    done
    check=-
    if [ -n "$best_pcp" ]; then
        if cmp -s "$work/$c.pmkit" "$work/$c.pcp" && cmp -s "$work/$c.pmkit.err" "$work/$c.pcp.err"; then
            check="identical ($(wc -c <"$work/$c.pmkit") bytes)"
        else
            check="DIFFERS ($work/$c.pmkit, $work/$c.pcp)"
            status=1
        fi
    else
        best_pcp='- -'
    fi
    echo "$c $best_pmkit $best_pcp $check" | awk '{
        r1 = ($4 == "-") ? "-" : sprintf("%.1fx", $4 / $2)
        r2 = ($5 == "-") ? "-" : sprintf("%.1fx", $5 / $3)
        check = $6; for (i = 7; i <= NF; i++) check = check " " $i
        printf "%-10s %9s %9s %7s %9s %9s %7s  %s\n", $1, $2, $4, r1, $3, $5, r2, check
    }'
done
exit $status
