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
#include <pcp/pmapi.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char **names;
static int nnames, room;
static pmID *ids;
static int want;
static struct timeval first;
static int delta_ms;
static volatile unsigned long sink;

static void die(const char *what, int sts)
{
    fprintf(stderr, "interp_callgrind: %s: %s\n", what, pmErrStr(sts));
    exit(1);
}

static void add_name(const char *name)
{
    if (nnames == room) {
        room = room ? 2 * room : 1024;
        if ((names = realloc(names, (size_t)room * sizeof(*names))) == NULL)
            die("realloc", -ENOMEM);
    }
    if ((names[nnames++] = strdup(name)) == NULL)
        die("strdup", -ENOMEM);
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void set_mode(void)
{
    int sts = pmSetMode(PM_MODE_INTERP, &first, delta_ms);

    if (sts < 0)
        die("pmSetMode", sts);
}

static void fetches(int n)
{
    for (int k = 0; k < n; k++) {
        pmResult *r;
        int sts = pmFetch(want, ids, &r);
        if (sts == PM_ERR_EOL) {
            set_mode();
            sts = pmFetch(want, ids, &r);
        }
        if (sts < 0)
            die("pmFetch", sts);
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

/* The first time, 0.37 s into the archive each way. */
static void start(int forwards)
{
    pmLogLabel label;
    struct timeval end;
    int sts;

    if ((sts = pmGetArchiveLabel(&label)) < 0)
        die("pmGetArchiveLabel", sts);
    if ((sts = pmGetArchiveEnd(&end)) < 0)
        die("pmGetArchiveEnd", sts);
    first = forwards ? label.ll_start : end;
    first.tv_usec += forwards ? 370000 : -370000;
    if (first.tv_usec >= 1000000) {
        first.tv_sec++;
        first.tv_usec -= 1000000;
    } else if (first.tv_usec < 0) {
        first.tv_sec--;
        first.tv_usec += 1000000;
    }
}

int main(int argc, char **argv)
{
    int sts, forwards, n;

    if (argc < 5 || argc > 6) {
        fprintf(stderr, "usage: interp_callgrind ARCHIVE fwd|back N|all STEP_MS [FETCHES]\n");
        return 2;
    }
    if ((sts = pmNewContext(PM_CONTEXT_ARCHIVE, argv[1])) < 0)
        die(argv[1], sts);
    if ((sts = pmTraversePMNS("", add_name)) < 0)
        die("pmTraversePMNS", sts);
    qsort(names, (size_t)nnames, sizeof(*names), cmp_names);
    if ((ids = calloc((size_t)nnames + 1, sizeof(*ids))) == NULL)
        die("calloc", -ENOMEM);
    if ((sts = pmLookupName(nnames, (const char **)names, ids)) != nnames)
        die("pmLookupName", sts < 0 ? sts : PM_ERR_NAME);
    forwards = strcmp(argv[2], "fwd") == 0;
    want = strcmp(argv[3], "all") == 0 ? nnames : atoi(argv[3]);
    if (want < 1 || want > nnames)
        want = nnames;
    n = argc > 5 ? atoi(argv[5]) : 200;
    start(forwards);
    delta_ms = forwards ? atoi(argv[4]) : -atoi(argv[4]);
    set_mode();
    fetches(50);
    timed(n);
    printf("%lu\n", sink);
    return 0;
}
