/*
 * bench.h: a tiny timing harness shared by pmkit's micro-benchmarks.
 *
 * A benchmark source defines one function per case,
 *
 *     static uint64_t my_case(uint64_t n, int verify);
 *
 * which performs exactly n operations and returns a value derived from their
 * results.  With verify == 0 the function is being timed and should only fold
 * cheap bits of each result into its return value; with verify != 0 it is run
 * once, untimed, for a fixed number of operations, and should hash its results
 * completely.  That verification hash is the printed checksum: it does not
 * depend on how many iterations calibration picked, so the same source built
 * against pmkit and against PCP's libpcp prints the same checksum exactly when
 * both libraries produced the same results.
 *
 * main() lists the cases in a bench_case table and calls bench_main(), which
 * prints one line per case:  <name> <ns_per_op> <checksum>
 *
 * Timing: CLOCK_MONOTONIC; after one untimed warm-up call (which absorbs
 * lazy set-up, such as a database built on first use), each case is
 * calibrated so that one repetition takes about BENCH_REP_MS milliseconds
 * (environment, default 40), then run BENCH_REPS times; the best
 * repetition is reported.  With BENCH_CLOCK=cpu in the environment every
 * time is the process's CPU time instead (CLOCK_PROCESS_CPUTIME_ID, user
 * and system): on a machine busy with other work it leaves out the time
 * the process waited for a CPU, but also any time spent in another
 * process (a pmcd, a daemon agent), so it is for cases whose work is all
 * in the benchmark's process.
 *
 * Usage of a benchmark binary:  bench_x [-l] [NAME...]
 *   -l          list the case names and exit
 *   NAME        run only the named cases (exact names; each once, in table order)
 *
 * Only standard C11 and POSIX clock_gettime are used; compile with
 * -std=c11 -D_DEFAULT_SOURCE.
 */
#ifndef PMKIT_BENCH_H
#define PMKIT_BENCH_H

#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BENCH_REPS           5    /* timed repetitions; the best one is reported */
#define BENCH_VERIFY_OPS     1000 /* operations in the untimed checksum pass */
#define BENCH_DEFAULT_REP_MS 40   /* 5 x 40 ms + calibration ~ 0.22 s per case */

typedef uint64_t (*bench_fn)(uint64_t n, int verify);

struct bench_case {
    const char *name;
    bench_fn fn;
};

/* Everything a timed run returns ends up here, so no work can be discarded. */
static volatile uint64_t bench_sink;

/* FNV-1a, 64-bit. */
#define BENCH_HASH_INIT UINT64_C(0xcbf29ce484222325)

static inline uint64_t bench_hash_bytes(uint64_t h, const void *p, size_t len)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < len; i++) {
        h ^= s[i];
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}

/* Hash a value byte by byte, least significant first (endian independent). */
static inline uint64_t bench_hash_u64(uint64_t h, uint64_t v)
{
    for (int i = 0; i < 8; i++) {
        h ^= (v >> (8 * i)) & 0xff;
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}

/* Hash a string including its terminator (so "ab","c" differs from "a","bc"). */
static inline uint64_t bench_hash_str(uint64_t h, const char *s)
{
    if (s == NULL)
        return bench_hash_u64(h, UINT64_C(0xdeadbeef));
    return bench_hash_bytes(h, s, strlen(s) + 1);
}

/* Fold a returned string: its first byte (1 for NULL) while timed, all of it
 * when verifying. */
static inline uint64_t bench_fold_str(uint64_t h, const char *s, int verify)
{
    if (verify)
        return bench_hash_str(h, s);
    return h + (s != NULL ? (unsigned char)s[0] : 1u);
}

static inline uint64_t bench_hash_double(uint64_t h, double d)
{
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return bench_hash_u64(h, bits);
}

/* splitmix64: a fixed-seed stream, so both builds make the same calls. */
static inline uint64_t bench_rng_next(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* Uniform in [0, n), for n < 2^32. */
static inline long bench_pick(uint64_t *state, long n)
{
    return (long)(((bench_rng_next(state) >> 32) * (uint64_t)n) >> 32);
}

/* The clock BENCH_CLOCK names: "cpu", the process's CPU time; else (or
 * unset) CLOCK_MONOTONIC.  Any other value stops the benchmark. */
static inline clockid_t bench_clock(void)
{
    static int chosen = -1;
    const char *s;

    if (chosen < 0) {
        s = getenv("BENCH_CLOCK");
        if (s == NULL || *s == '\0' || strcmp(s, "wall") == 0)
            chosen = 0;
        else if (strcmp(s, "cpu") == 0)
            chosen = 1;
        else {
            fprintf(stderr, "bench: BENCH_CLOCK must be wall or cpu, not '%s'\n", s);
            exit(2);
        }
    }
    return chosen ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC;
}

static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(bench_clock(), &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline double bench_time(bench_fn fn, uint64_t n)
{
    double t0 = bench_now();
    bench_sink += fn(n, 0);
    return bench_now() - t0;
}

static inline double bench_rep_seconds(void)
{
    const char *s = getenv("BENCH_REP_MS");
    long ms = BENCH_DEFAULT_REP_MS;
    if (s != NULL && *s != '\0') {
        char *end;
        long v = strtol(s, &end, 10);
        if (*end == '\0' && v >= 1 && v <= 10000)
            ms = v;
    }
    return (double)ms / 1000.0;
}

/* One result line as bench_main prints it; for drivers of their own. */
static inline void bench_print_line(const char *name, double value, uint64_t sum)
{
    printf("%s %.2f %016" PRIx64 "\n", name, value, sum);
    fflush(stdout);
}

/*
 * Warm up, calibrate, time and print one case, with the checksum of a
 * verify_ops pass.  The repetitions stop once they have taken budget_s
 * seconds (after two at least).  When one call already takes longer than
 * a repetition (a traversal of a big namespace), the calibration call
 * counts as the first repetition.
 */
static inline void bench_run_budget(const char *name, bench_fn fn, uint64_t verify_ops,
                                    double budget_s)
{
    double target = bench_rep_seconds(), t, best = -1, spent = 0;
    uint64_t n = 1;
    int reps = 0;

    /* Lazy set-up on the first call must not pass for the calibration's
     * first, one-call step, which would then pick n from it. */
    bench_sink += fn(1, 0);

    /* Grow n until one run takes a tenth of the target, then extrapolate. */
    for (;;) {
        t = bench_time(fn, n);
        if (t >= target / 10 || n >= UINT64_C(1) << 40)
            break;
        n *= (t < target / 1000) ? 10 : 2;
    }
    if (n == 1 && t >= target) {
        best = t;
        spent = t;
        reps = 1;
    } else if (t > 0) {
        double scaled = (double)n * (target / t);
        n = scaled < 1 ? 1 : (uint64_t)scaled;
    }
    for (; reps < BENCH_REPS; reps++) {
        double el = bench_time(fn, n);
        double per = el / (double)n;
        spent += el;
        if (best < 0 || per < best)
            best = per;
        if (spent >= budget_s && reps >= 1)
            break;
    }
    bench_print_line(name, best * 1e9, fn(verify_ops, 1));
}

/* bench_run_budget() without a budget: all BENCH_REPS repetitions. */
static inline void bench_run(const struct bench_case *c)
{
    bench_run_budget(c->name, c->fn, BENCH_VERIFY_OPS, INFINITY);
}

static inline int bench_main(int argc, char **argv, const struct bench_case *cases, size_t ncases)
{
    int list = 0, first = 1;

    if (argc > 1 && strcmp(argv[1], "-l") == 0) {
        list = 1;
        first = 2;
    }
    for (int a = first; a < argc; a++) {
        size_t i = 0;
        while (i < ncases && strcmp(cases[i].name, argv[a]) != 0)
            i++;
        if (i == ncases) {
            fprintf(stderr, "%s: no benchmark named '%s'; try -l\n", argv[0], argv[a]);
            return 2;
        }
    }
    for (size_t i = 0; i < ncases; i++) {
        int want = (first >= argc);
        for (int a = first; a < argc && !want; a++)
            want = strcmp(cases[i].name, argv[a]) == 0;
        if (!want)
            continue;
        if (list)
            printf("%s\n", cases[i].name);
        else
            bench_run(&cases[i]);
    }
    return 0;
}

#define BENCH_NCASES(table) (sizeof(table) / sizeof((table)[0]))

#endif /* PMKIT_BENCH_H */
