/*
 * interp_callgrind.c - interpolated fetches for callgrind: instruction
 * counts a fetch, which do not depend on the machine's load, of the cases
 * bench_interp.c times (the first 1, N or all names, sorted, from 0.37 s
 * after the archive's start forwards or before its end backwards, the
 * mode set again at the end).
 *
 *   interp_callgrind ARCHIVE fwd|back N|all STEP_MS [FETCHES]
 *
 * makes 50 fetches, then FETCHES more (default 200) inside timed(), so
 *
 *   valgrind --tool=callgrind --toggle-collect=timed ./interp_callgrind ...
 *
 * counts those alone: the total over FETCHES is the cost of a fetch.
 * Built like bench/run builds the benchmarks, once against each library
 * (pkg-config libpcp from BUILD/lib/pkgconfig, and Debian's), with
 * -fno-optimize-sibling-calls so that timed() stays a frame of its own.
 * Not run by bench/run or the tests.
 */
#define INTERP_PROG "interp_callgrind"
#include "interp_common.h"

static volatile unsigned long sink;

static void fetches(int n)
{
    for (int k = 0; k < n; k++) {
        pmResult *r = fetch_one();
        sink += (unsigned long)r->numpmid + (unsigned long)r->vset[0]->numval;
        pmFreeResult(r);
    }
}

/* The fetches callgrind counts (--toggle-collect=timed). */
__attribute__((noinline)) void timed(int n);
__attribute__((noinline)) void timed(int n)
{
    fetches(n);
}

int main(int argc, char **argv)
{
    int forwards, n;

    if (argc < 5 || argc > 6) {
        fprintf(stderr, "usage: interp_callgrind ARCHIVE fwd|back N|all STEP_MS [FETCHES]\n");
        return 2;
    }
    open_archive(argv[1]);
    forwards = strcmp(argv[2], "fwd") == 0;
    want = strcmp(argv[3], "all") == 0 ? nnames : atoi(argv[3]);
    if (want < 1 || want > nnames)
        want = nnames;
    n = argc > 5 ? atoi(argv[5]) : 200;
    start(forwards, atoi(argv[4]));
    fetches(50);
    timed(n);
    printf("%lu\n", sink);
    return 0;
}
