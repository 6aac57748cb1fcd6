#!/bin/sh
# bench/pmcpp_bench.sh [BUILD_DIR] [SIZE_MB]: pmcpp throughput and memory.
#
# Generates a synthetic PMNS/pmlogger-config input of about SIZE_MB MB
# (default 100) with bench/gen_cpp_input.c (#define, #include,
# #ifdef/#ifndef/#else/#endif, C comments, macro substitutions), then runs
# over it, stdout to /dev/null:
#   pmkit    BUILD_DIR/bin/pmcpp main.pmns
#   Debian   /usr/lib/pcp/bin/pmcpp main.pmns (PCP's own pmcpp)
#   mcpp     mcpp -P -W0 main.pmns, with glibc malloc tuned (see README),
#            and once more untuned ("stock malloc", a single run: it is slow)
#   cat      cat main.pmns (the floor: reading the file and nothing else)
# Each tool runs BENCH_RUNS times (default 3), interleaved round by round;
# the best wall time counts.  Max RSS comes from wait4().  Prints MB/s
# (10^6 bytes per second), max RSS, the ratio of each tool's throughput to
# Debian's pmcpp, and pmkit's throughput relative to cat.
#
# Also checks once that pmkit's output is byte-identical to Debian's (the two
# outputs are streamed through FIFOs into cmp, nothing is stored), and
# measures pmkit's max RSS on the SIZE_MB input and on one 4x smaller, which
# should be about the same (flat memory).
#
# BUILD_DIR (relative to the current directory) defaults to build/ at the top
# of the tree.  The generator, the inputs (reused while size, seed and the
# generator source are unchanged) and pmcpp-results.txt go to BUILD_DIR/bench/.
#
# Environment:
#   PMKIT_PMCPP   pmkit's pmcpp        (default BUILD_DIR/bin/pmcpp)
#   PCP_PMCPP     Debian's pmcpp       (default .cache/oracle/pcp/usr/lib/pcp/bin/pmcpp
#                                       at the top of the tree, else /usr/lib/pcp/bin/pmcpp)
#   MCPP          mcpp                 (default: mcpp from PATH)
#   PMCPP_ARGS    extra options for both pmcpps, e.g. -P (default: none)
#   BENCH_RUNS    timed runs per tool (default 3)
#   BENCH_SEED    generator seed (default 1)
#   MCPP_STOCK    0 skips the slow untuned mcpp run (default 1)
#   CC            C compiler (default cc)
#
# Exit status: 0 on success, 1 if pmkit's output differs from Debian's, if a
# tool fails on the input, or on any setup failure.  Never part of the tests.
set -eu

me=pmcpp_bench
usage="usage: bench/pmcpp_bench.sh [BUILD_DIR] [SIZE_MB]"
# shellcheck source=bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"
[ $# -le 2 ] || die "$usage"

size=${2:-100}
bench_positive "SIZE_MB must be a positive integer" "$size"
runs=${BENCH_RUNS:-3}
bench_positive "BENCH_RUNS must be a positive integer" "$runs"
seed=${BENCH_SEED:-1}
case $seed in '' | *[!0-9]*) die "BENCH_SEED must be a non-negative integer" ;; esac
CC=${CC:-cc}
out=$build/bench
command -v "$CC" >/dev/null 2>&1 || die "C compiler '$CC' not found"

pmkit=${PMKIT_PMCPP:-$build/bin/pmcpp}
if [ -n "${PCP_PMCPP-}" ]; then
    pcp=$PCP_PMCPP
elif [ -x "$top/.cache/oracle/pcp/usr/lib/pcp/bin/pmcpp" ]; then
    pcp=$top/.cache/oracle/pcp/usr/lib/pcp/bin/pmcpp
else
    pcp=/usr/lib/pcp/bin/pmcpp
fi
mcpp=${MCPP:-$(command -v mcpp 2>/dev/null || echo mcpp)}
cat=$(command -v cat)
pmcpp_args=${PMCPP_ARGS-}

# mcpp mallocs and frees a ~260 KB work buffer for every macro it expands;
# with glibc's default thresholds each of those is an mmap/mremap/munmap
# triple and mcpp spends ~85% of its time in the kernel.
# These tunables keep the buffer on the heap, which measures mcpp itself.
mcpp_tune=glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=134217728

mkdir -p "$out"

# --- helpers: generator and rusage wrapper ------------------------------------
gen=$out/gen_cpp_input
$CC -O2 -std=c11 -Wall -Wextra -Wpedantic -o "$gen" "$top/bench/gen_cpp_input.c" ||
    die "cannot build the input generator"

runrss=$out/pmcpp_runrss
cat >"$runrss.c" <<'EOF'
/* pmcpp_runrss OUTFILE CMD [ARG...]: run CMD with stdout on OUTFILE, print
 * "<wall seconds> <max RSS KB> <exit status or 128+signal>" on stdout. */
#define _DEFAULT_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    struct timespec t0, t1;
    struct rusage ru;
    int st, fd;
    pid_t pid;

    if (argc < 3) {
        fprintf(stderr, "usage: pmcpp_runrss OUTFILE CMD [ARG...]\n");
        return 2;
    }
    fflush(stdout);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid = fork();
    if (pid < 0) {
        perror("pmcpp_runrss: fork");
        return 2;
    }
    if (pid == 0) {
        if ((fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0666)) < 0) {
            perror(argv[1]);
            _exit(126);
        }
        if (fd != 1) {
            dup2(fd, 1);
            close(fd);
        }
        execvp(argv[2], argv + 2);
        perror(argv[2]);
        _exit(127);
    }
    if (wait4(pid, &st, 0, &ru) < 0) {
        perror("pmcpp_runrss: wait4");
        return 2;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("%.6f %ld %d\n",
           (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9,
           ru.ru_maxrss,
           WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 255);
    return 0;
}
EOF
$CC -O2 -std=c11 -Wall -Wextra -o "$runrss" "$runrss.c" || die "cannot build the rusage wrapper"

# --- inputs ----------------------------------------------------------------------
gensum=$(cksum <"$top/bench/gen_cpp_input.c")

# make_input DIR SIZE_MB: (re)generate unless DIR/stamp says it is current.
make_input() {
    want="size=$2 seed=$seed gen=$gensum"
    if [ -f "$1/main.pmns" ] && [ -f "$1/stats" ] && [ -f "$1/stamp" ] &&
        [ "$(cat "$1/stamp")" = "$want" ]; then
        say "reusing $1 ($2 MB, seed $seed)"
        return 0
    fi
    say "generating $1 ($2 MB, seed $seed)"
    rm -rf "$1"
    "$gen" "$1" "$2" "$seed" || die "input generation failed"
    printf '%s\n' "$want" >"$1/stamp"
}
stat_of() { sed -n "s/^$2=//p" "$1/stats"; }

input=$out/cpp-input
make_input "$input" "$size"
qsize=$((size / 4))
[ "$qsize" -ge 1 ] || qsize=1
qinput=$out/cpp-input-quarter
make_input "$qinput" "$qsize"

total_bytes=$(stat_of "$input" total_bytes)
main_bytes=$(stat_of "$input" main_bytes)

# --- tools -----------------------------------------------------------------------
# Each tool: key, label, bytes it reads, runs, env (GLIBC_TUNABLES or ""), argv.
tools=''
have() { [ -x "$1" ] || command -v "$1" >/dev/null 2>&1; }
if have "$pmkit"; then tools="$tools pmkit"; else say "skipping pmkit: no pmcpp at $pmkit (build it, or set PMKIT_PMCPP)"; fi
if have "$pcp"; then tools="$tools pcp"; else say "skipping Debian pmcpp: not found at $pcp (set PCP_PMCPP)"; fi
if have "$mcpp"; then
    tools="$tools mcpp"
    [ "${MCPP_STOCK:-1}" = 0 ] || tools="$tools mcpps"
else
    say "skipping mcpp: not installed (apt-get install mcpp)"
fi
tools="$tools cat"
has() { case " $tools " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

label() {
    case $1 in
    pmkit) echo "pmkit pmcpp" ;;
    pcp) echo "Debian pmcpp" ;;
    mcpp) echo "mcpp -P (tuned malloc)" ;;
    mcpps) echo "mcpp -P (stock malloc)" ;;
    cat) echo "cat (floor)" ;;
    esac
}
bytes_of() { if [ "$1" = cat ]; then echo "$main_bytes"; else echo "$total_bytes"; fi; }
runs_of() { if [ "$1" = mcpps ]; then echo 1; else echo "$runs"; fi; }

# run_tool KEY DIR STDOUT: one run in DIR, prints "secs rss_kb status".
# shellcheck disable=SC2086
run_tool() {
    (
        cd "$2"
        case $1 in
        pmkit) exec "$runrss" "$3" "$pmkit" $pmcpp_args main.pmns ;;
        pcp) exec "$runrss" "$3" "$pcp" $pmcpp_args main.pmns ;;
        mcpp)
            GLIBC_TUNABLES=$mcpp_tune LC_ALL=C
            export GLIBC_TUNABLES LC_ALL
            exec "$runrss" "$3" "$mcpp" -P -W0 main.pmns
            ;;
        mcpps)
            LC_ALL=C
            export LC_ALL
            exec "$runrss" "$3" "$mcpp" -P -W0 main.pmns
            ;;
        cat) exec "$runrss" "$3" "$cat" main.pmns ;;
        esac
    ) 2>"$out/pmcpp-$1.err"
}

# --- timed runs ----------------------------------------------------------------
"$cat" "$input/main.pmns" "$input"/inc/* >/dev/null # warm the page cache
raw=$out/pmcpp-raw.txt
: >"$raw"
status=0
failed=''
r=1
while [ "$r" -le "$runs" ]; do
    say "round $r of $runs"
    order=$tools
    # alternate the order between rounds so drifts hit every tool alike
    if [ $((r % 2)) = 0 ]; then
        order=''
        for t in $tools; do order="$t $order"; done
    fi
    for t in $order; do
        [ "$r" -le "$(runs_of "$t")" ] || continue
        case " $failed " in *" $t "*) continue ;; esac
        res=$(run_tool "$t" "$input" /dev/null) || die "cannot run $(label "$t")"
        read -r secs rss rc <<EOF
$res
EOF
        if [ "$rc" != 0 ]; then
            say "$(label "$t") failed on the input (exit status $rc), see $out/pmcpp-$t.err:"
            head -n 5 "$out/pmcpp-$t.err" >&2
            failed="$failed $t"
            status=1
            continue
        fi
        echo "$t $secs $rss" >>"$raw"
    done
    r=$((r + 1))
done

# --- correctness: pmkit vs Debian, streamed through FIFOs into cmp ---------------
check="not run (needs both pmkit and Debian pmcpp)"
if has pmkit && has pcp; then
    f1=$out/pmcpp-fifo.pmkit f2=$out/pmcpp-fifo.pcp
    rm -f "$f1" "$f2"
    mkfifo "$f1" "$f2"
    run_tool pmkit "$input" "$f1" >"$out/pmcpp-check.pmkit" &
    p1=$!
    run_tool pcp "$input" "$f2" >"$out/pmcpp-check.pcp" &
    p2=$!
    # cmp opens both FIFOs before reading; if it stops at a difference, the
    # writers get SIGPIPE and end.
    if msg=$(cmp "$f1" "$f2" 2>&1); then same=1; else same=0; fi
    wait "$p1" || true
    wait "$p2" || true
    rm -f "$f1" "$f2"
    s1=$(awk '{ print $3 }' "$out/pmcpp-check.pmkit")
    s2=$(awk '{ print $3 }' "$out/pmcpp-check.pcp")
    if [ "$same" = 1 ] && [ "$s1" = 0 ] && [ "$s2" = 0 ]; then
        check="OK (byte-identical)"
    else
        check="DIFFERS (${msg:-no cmp message}; exit status pmkit ${s1:-?}, Debian ${s2:-?})"
        status=1
    fi
fi

# --- flat memory: pmkit on the full and the quarter-size input -------------------
flat="not run (no pmkit pmcpp)"
if has pmkit; then
    big=$(awk '$1 == "pmkit" { if (m == "" || $3 + 0 > m + 0) m = $3 } END { print m }' "$raw")
    rc=1 small=0
    if [ -n "$big" ]; then
        res=$(run_tool pmkit "$qinput" /dev/null) || die "cannot run pmkit's pmcpp"
        read -r secs small rc <<EOF
$res
EOF
    fi
    if [ -z "$big" ]; then
        flat="not run (pmkit failed on the input)"
    elif [ "$rc" = 0 ]; then
        flat=$(awk -v b="$big" -v s="$small" -v bs="$size" -v ss="$qsize" 'BEGIN {
            verdict = (b <= s * 1.2 || b - s <= 1024) ? "flat" : "GROWS WITH INPUT"
            printf "pmkit max RSS %.1f MiB at %d MB, %.1f MiB at %d MB (x%.2f): %s",
                b / 1024, bs, s / 1024, ss, (s > 0 ? b / s : 0), verdict }')
    else
        flat="pmkit failed on the smaller input"
        status=1
    fi
fi

# --- report ------------------------------------------------------------------------
report() {
    cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
    echo "host:   $(uname -srm)${cpu:+, $cpu}, $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?') CPUs"
    echo "input:  $input/main.pmns, $(stat_of "$input" main_lines) lines, $main_bytes bytes;" \
        "with $(stat_of "$input" chunk_inclusions) chunk includes + stdpmid: $total_bytes bytes read by a preprocessor"
    for t in $tools; do
        case $t in
        pmkit) echo "pmkit:  $pmkit $pmcpp_args" ;;
        pcp) echo "Debian: $pcp $pmcpp_args" ;;
        mcpp) echo "mcpp:   $mcpp -P -W0 ($("$mcpp" -v 2>&1 | head -n 1 | cut -d' ' -f1-3)), GLIBC_TUNABLES=$mcpp_tune for the tuned row" ;;
        esac
    done
    echo "timing: best of $runs interleaved runs (mcpp stock malloc: 1 run), stdout to /dev/null;" \
        "MB/s = 10^6 bytes read / wall second (cat reads main.pmns only)"
    echo
    for t in $tools; do
        echo "T $t $(bytes_of "$t") $(label "$t" | tr ' ' '_')"
    done | cat - "$raw" | awk '
    $1 == "T" { order[++n] = $2; bytes[$2] = $3; lab = $4; gsub(/_/, " ", lab); name[$2] = lab; next }
    {
        if (!($1 in best) || $2 + 0 < best[$1]) best[$1] = $2 + 0
        if (!($1 in rss) || $3 + 0 > rss[$1]) rss[$1] = $3 + 0
        cnt[$1]++
    }
    END {
        printf "%-24s %10s %9s %12s %10s\n", "tool", "MB/s", "best s", "max RSS MiB", "vs Debian"
        ref = ("pcp" in best) ? bytes["pcp"] / 1e6 / best["pcp"] : 0
        for (i = 1; i <= n; i++) {
            t = order[i]
            if (!(t in best)) { printf "%-24s %10s\n", name[t], "failed"; continue }
            mbs[t] = bytes[t] / 1e6 / best[t]
            vs = ref > 0 ? sprintf("%.2fx", mbs[t] / ref) : "-"
            printf "%-24s %10.1f %9.3f %12.1f %10s\n", name[t], mbs[t], best[t], rss[t] / 1024, vs
        }
        print ""
        if (("pmkit" in mbs) && ("cat" in mbs))
            printf "pmkit vs cat: %.2fx of cat throughput (cat takes %.0f%% of pmkit time)\n",
                mbs["pmkit"] / mbs["cat"], 100 * best["cat"] / best["pmkit"]
        if (("pmkit" in mbs) && ref > 0)
            printf "goal (pmkit >= 10x Debian pmcpp): %s, %.2fx\n",
                (mbs["pmkit"] / ref >= 10 ? "MET" : "NOT MET"), mbs["pmkit"] / ref
    }'
    echo "output: pmkit vs Debian pmcpp: $check"
    echo "memory: $flat"
}

report >"$out/pmcpp-results.txt"
cat "$out/pmcpp-results.txt"
echo "(inputs, raw timings and stderr logs in $out)"
exit "$status"
