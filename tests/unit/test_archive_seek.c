/*
 * Unit test of the archive cursor's seeks (libpcp/archive/cursor.c) and the
 * memory they keep: the temporal index held after its first use, the
 * records' heads a seek peeked at (and the next head read with each one's
 * closing length word), and the window's refills after a jump.
 *
 *   unit_archive_seek GEN TMPDIR [ARCHIVES_DIR]
 *
 * GEN (gen_archive) writes, into TMPDIR, archives of both versions with
 * jittered sample times, <mark>s and an index entry every 7 records: one
 * of two volumes, and two that a comma-separated list makes one set; the
 * pcp-testsuite's archives in ARCHIVES_DIR join them when it is given and
 * exists.  For each, every record is listed by stepping forward from the
 * start; then one cursor, reused throughout, seeks to 3000 times chosen
 * at random (each record's time, a nanosecond either side, half way to
 * the next, before the start, after the end; a record near the last
 * seek's, or at its offset in another volume or archive, a quarter of the
 * times each) in either direction and
 * steps 1 to 4 times either way, and a new cursor for each seek does the
 * same: the two must give the same records (archive, volume, offset,
 * time), which must be the ones the list says when the set is one archive
 * in time order (forward: the first record at or after the time;
 * backward: the first at the time, else the last before it).  The reused
 * cursor is told half the time that the steps will go both ways
 * (arch_cursor_both_ways), as interpolation tells it.  Then, over two
 * archives of regular records with an index entry every 16, the reads
 * an interpolated fetch's seeks and steps make are counted (check_reads),
 * and those of interpolated fetches made through a context, pmSetMode and
 * pmFetch, as a client makes them (check_interp_reads).
 * Fast: a few seconds.  Exit 0 all agree, 1 a difference, 2 usage or
 * setup.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pcp/pmapi.h>

#include "archive.h"

typedef struct rec {
    int archive, vol, numpmid;
    uint64_t off;
    struct timespec stamp;
} rec;

static int failures;

static int ts_cmp(const struct timespec *a, const struct timespec *b)
{
    if (a->tv_sec != b->tv_sec)
        return a->tv_sec < b->tv_sec ? -1 : 1;
    return (a->tv_nsec > b->tv_nsec) - (a->tv_nsec < b->tv_nsec);
}

static struct timespec ts_plus(struct timespec t, long ns)
{
    t.tv_sec += ns / 1000000000;
    t.tv_nsec += ns % 1000000000;
    if (t.tv_nsec < 0) {
        t.tv_nsec += 1000000000;
        t.tv_sec--;
    } else if (t.tv_nsec >= 1000000000) {
        t.tv_nsec -= 1000000000;
        t.tv_sec++;
    }
    return t;
}

/* splitmix64: the same walk on every run */
static uint64_t rnd(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* Every record of s, forward from the start: the count, or -1. */
static long list_records(arch_set *s, rec **out)
{
    arch_cursor *c = arch_cursor_new(s);
    arch_record r;
    long n = 0, room = 0;
    rec *v = NULL;
    int sts;

    if (c == NULL)
        return -1;
    while ((sts = arch_cursor_step(c, ARCH_FORW, &r)) > 0) {
        if (n == room) {
            room = room ? 2 * room : 1024;
            if ((v = realloc(v, (size_t)room * sizeof(*v))) == NULL)
                return -1;
        }
        v[n++] = (rec){r.archive, r.vol, r.numpmid, r.off, r.stamp};
    }
    arch_cursor_free(c);
    *out = v;
    return sts < 0 ? -1 : n;
}

/* Do two steps agree: their status and, when a record, where and when? */
static int same_step(int s1, const arch_record *a, int s2, const arch_record *b)
{
    if (s1 != s2)
        return 0;
    return s1 <= 0 || (a->archive == b->archive && a->vol == b->vol && a->off == b->off &&
                       ts_cmp(&a->stamp, &b->stamp) == 0 && a->numpmid == b->numpmid);
}

/* The record a step in dir after a seek to t in dir gives, by the list
 * (one archive, in time order): its index, or -1 for none. */
static long expected(const rec *v, long n, const struct timespec *t, int dir)
{
    long first = n; /* the first at or after t */

    for (long i = 0; i < n && first == n; i++)
        if (ts_cmp(&v[i].stamp, t) >= 0)
            first = i;
    if (dir > 0)
        return first < n ? first : -1;
    if (first < n && ts_cmp(&v[first].stamp, t) == 0)
        return first;
    return first - 1;
}

static void fail(const char *name, long k, const char *what)
{
    if (failures++ < 10)
        fprintf(stderr, "FAIL %s: seek %ld: %s\n", name, k, what);
}

static void check(const char *name, const char *spec)
{
    arch_set *s;
    arch_cursor *reused;
    rec *v = NULL;
    long n;
    int ordered = 1, sts;
    uint64_t seed = 24;

    if ((sts = arch_open(spec, 0, &s)) < 0) {
        fprintf(stderr, "FAIL %s: arch_open: %s\n", name, pmErrStr(sts));
        failures++;
        return;
    }
    if ((n = list_records(s, &v)) <= 0 || (reused = arch_cursor_new(s)) == NULL) {
        fprintf(stderr, "FAIL %s: cannot list its records\n", name);
        failures++;
        free(v);
        arch_close(s);
        return;
    }
    for (long i = 1; i < n; i++)
        ordered &= ts_cmp(&v[i - 1].stamp, &v[i].stamp) < 0;
    ordered &= arch_count(s) == 1;
    for (long k = 0, i = 0; k < 3000; k++) {
        long prev = i;
        i = (long)(rnd(&seed) % (uint64_t)n);
        if (k % 4 == 1) /* near the last, as interpolation seeks */
            i = ((prev + (long)(rnd(&seed) % 41) - 20) % n + n) % n;
        else if (k % 4 == 3) /* at its offset in another volume or archive */
            for (long j = 0; j < n; j++)
                if (v[j].off == v[prev].off &&
                    (v[j].vol != v[prev].vol || v[j].archive != v[prev].archive))
                    i = j;
        int dir = rnd(&seed) & 1 ? ARCH_FORW : ARCH_BACK, pick = (int)(rnd(&seed) % 6), s1, s2;
        struct timespec t = v[i].stamp;
        arch_cursor *fresh = arch_cursor_new(s);
        arch_record a, b;
        if (fresh == NULL) {
            fail(name, k, "out of memory");
            break;
        }
        if (pick == 1 || pick == 2)
            t = ts_plus(t, pick == 1 ? -1 : 1);
        else if (pick == 3 && i + 1 < n)
            t = ts_plus(t, (long)((v[i + 1].stamp.tv_sec - t.tv_sec) * 1000000000 +
                                  (v[i + 1].stamp.tv_nsec - t.tv_nsec)) /
                               2);
        else if (pick == 4)
            t = ts_plus(v[0].stamp, -(long)(rnd(&seed) % 5000000000u));
        else if (pick == 5)
            t = ts_plus(v[n - 1].stamp, (long)(rnd(&seed) % 5000000000u));
        s1 = arch_cursor_seek(reused, &t, dir);
        s2 = arch_cursor_seek(fresh, &t, dir);
        if (rnd(&seed) & 1) /* as an interpolated fetch says it */
            arch_cursor_both_ways(reused);
        if (s1 != s2 || s1 < 0) {
            fail(name, k, "the seeks' status");
            arch_cursor_free(fresh);
            continue;
        }
        for (int step = 0, nsteps = 1 + (int)(rnd(&seed) % 4); step < nsteps; step++) {
            int d = step == 0 ? dir : (rnd(&seed) & 1 ? ARCH_FORW : ARCH_BACK);
            s1 = arch_cursor_step(reused, d, &a);
            s2 = arch_cursor_step(fresh, d, &b);
            if (!same_step(s1, &a, s2, &b))
                fail(name, k, "the reused cursor's step is not a new cursor's");
            if (step == 0 && ordered) {
                long e = expected(v, n, &t, dir);
                if (e < 0 ? s1 != 0
                          : s1 <= 0 || a.off != v[e].off || a.vol != v[e].vol ||
                                ts_cmp(&a.stamp, &v[e].stamp) != 0)
                    fail(name, k, "the step after it is not the record the list says");
            }
        }
        arch_cursor_free(fresh);
    }
    printf("%s: %ld records, 3000 seeks%s\n", name, n, ordered ? ", checked against the list" : "");
    arch_cursor_free(reused);
    free(v);
    arch_close(s);
}

/* The reads the archive code makes (linked with -Wl,--wrap=pread). */
static long preads;

ssize_t __real_pread(int fd, void *buf, size_t n, off_t off);
ssize_t __wrap_pread(int fd, void *buf, size_t n, off_t off);
ssize_t __wrap_pread(int fd, void *buf, size_t n, off_t off)
{
    preads++;
    return __real_pread(fd, buf, n, off);
}

/*
 * The reads of an interpolated fetch's pattern, with a new cursor each
 * time (nothing remembered): a seek forward to t, half way between
 * records i - 1 and i, the record after it read (arch_cursor_both_ways
 * said), a seek back to t, the record before it read.  The archive has
 * records 1 s apart, each of every metric, and an index entry at every
 * record s with s % every == 0; i lies kf records after the entry e0
 * before t and kb records before the entry e1 after it.  From the nearer
 * entry (by time), each record's head costs one read, but the first one's
 * two; the two records take one read together, and the seek back none.
 * So at most kf + 3 from e0, kb + 3 from e1 (one more when kb is 0: the
 * record at e1 is read back from, not peeked).  Fails if any fetch reads
 * more.
 */
static void check_reads(const char *name, const char *spec, int every)
{
    arch_set *s;
    arch_cursor *warm;
    arch_record r;
    rec *v = NULL;
    long n, total = 0, fetches = 0;

    if (arch_open(spec, 0, &s) < 0) {
        fprintf(stderr, "FAIL %s: cannot open it\n", name);
        failures++;
        return;
    }
    if ((n = list_records(s, &v)) <= 2 * every + 2 || (warm = arch_cursor_new(s)) == NULL) {
        fprintf(stderr, "FAIL %s: cannot list its records\n", name);
        failures++;
        free(v);
        arch_close(s);
        return;
    }
    (void)arch_cursor_seek(warm, &v[n / 2].stamp, ARCH_FORW); /* the index, read once */
    arch_cursor_free(warm);
    /* not where a window's first refill (16 KB) would reach the volume's
     * end: pread is then called again, and finds nothing */
    for (long i = every + 1; i < n - every - 1 && v[i - 1].off + 65536 < v[n - 1].off; i++) {
        long e0 = (i - 1) / every * every, e1 = e0 + every, kf = i - e0, kb = e1 - i, most;
        struct timespec t = v[i - 1].stamp;
        arch_cursor *c = arch_cursor_new(s);
        int64_t half = ((int64_t)(v[i].stamp.tv_sec - t.tv_sec) * 1000000000 +
                        (v[i].stamp.tv_nsec - t.tv_nsec)) /
                       2;
        int ok;
        if (c == NULL) {
            fail(name, i, "out of memory");
            break;
        }
        t = ts_plus(t, (long)half);
        /* nearer e1: (kb + 1/2) intervals after t, (kf - 1/2) before */
        most = 2 * kb + 1 < 2 * kf - 1 ? kb + 3 + (kb == 0) : kf + 3;
        preads = 0;
        ok = arch_cursor_seek(c, &t, ARCH_FORW) == 0;
        arch_cursor_both_ways(c);
        ok &= arch_cursor_step(c, ARCH_FORW, &r) == 1 && r.off == v[i].off;
        ok &= arch_cursor_seek(c, &t, ARCH_BACK) == 0;
        ok &= arch_cursor_step(c, ARCH_BACK, &r) == 1 && r.off == v[i - 1].off;
        if (!ok) {
            fail(name, i, "the records around the time");
        } else if (preads > most) {
            char why[128];
            snprintf(why, sizeof(why),
                     "%ld reads, %ld at most (%ld after an entry, %ld before one)", preads, most,
                     kf, kb);
            fail(name, i, why);
        }
        total += preads;
        fetches++;
        arch_cursor_free(c);
    }
    printf("%s: %ld fetches, %.2f reads each\n", name, fetches,
           fetches ? (double)total / (double)fetches : 0.0);
    free(v);
    arch_close(s);
}

/*
 * The reads of interpolated fetches (pmSetMode(PM_MODE_INTERP) and pmFetch
 * of one metric, through a context, as a client makes them), at steps of
 * 37 s over the archive of check_reads: every fetch lies more than one
 * index entry from the last, so each finds its records afresh.  After a
 * first fetch (which also reads the index), each must read no more than
 * a seek to its time from the nearer entry makes, k records from it (one
 * read a record's head, the first one's two), and the two records around
 * the time, together: k + 3.  What interp's cache and the cursor keep
 * between them is counted here, which check_reads (the cursor alone)
 * does not see.
 */
static void check_interp_reads(const char *name, const char *spec, int every)
{
    const char *metric = "bench.group0.metric0";
    arch_set *s;
    rec *v = NULL;
    long n, total = 0, fetches = 0;
    struct timespec delta = {37, 0};
    pmResult *r;
    pmID pmid;
    int ctx;

    if (arch_open(spec, 0, &s) < 0) {
        fprintf(stderr, "FAIL %s: cannot open it\n", name);
        failures++;
        return;
    }
    n = list_records(s, &v);
    arch_close(s);
    if (n <= 2 * every + 2) {
        fprintf(stderr, "FAIL %s: cannot list its records\n", name);
        failures++;
        free(v);
        return;
    }
    if ((ctx = pmNewContext(PM_CONTEXT_ARCHIVE, spec)) < 0 || pmLookupName(1, &metric, &pmid) < 0 ||
        pmSetModeHighRes(PM_MODE_INTERP, &v[1].stamp, &delta) < 0 || pmFetch(1, &pmid, &r) < 0) {
        fprintf(stderr, "FAIL %s: cannot fetch from it as a context\n", name);
        failures++;
        if (ctx >= 0)
            pmDestroyContext(ctx);
        free(v);
        return;
    }
    pmFreeResult(r);
    for (long i = every + 1; i + every + 1 < n; i += 37) {
        /* half way between records i - 1 and i, after entry e0, before e1:
         * from e1 back to record i - 1, or from e0 forward to record i */
        long e0 = (i - 1) / every * every, e1 = e0 + every, kf = i - e0, kb = e1 - i;
        long k = kb + 1 < kf ? kb + 1 : kf;
        struct timespec t = ts_plus(v[i - 1].stamp, 500000000);
        int sts;
        if (pmSetModeHighRes(PM_MODE_INTERP, &t, &delta) < 0) {
            fail(name, i, "pmSetModeHighRes");
            break;
        }
        preads = 0;
        if ((sts = pmFetch(1, &pmid, &r)) < 0) {
            fail(name, i, pmErrStr(sts));
            break;
        }
        pmFreeResult(r);
        if (preads > k + 3) {
            char why[128];
            snprintf(why, sizeof(why), "an interpolated fetch: %ld reads, %ld at most", preads,
                     k + 3);
            fail(name, i, why);
        }
        total += preads;
        fetches++;
    }
    printf("%s: %ld interpolated fetches, %.2f reads each\n", name, fetches,
           fetches ? (double)total / (double)fetches : 0.0);
    pmDestroyContext(ctx);
    free(v);
}

static int gen(const char *genpath, const char *args, const char *tmp, const char *name)
{
    char cmd[4096];

    snprintf(cmd, sizeof(cmd), "'%s' %s '%s/%s'", genpath, args, tmp, name);
    if (system(cmd) != 0) {
        fprintf(stderr, "unit_archive_seek: %s failed\n", cmd);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    static const char *const suite[] = {"gap",     "gap2",       "dyninsts", "omnibus_v3",
                                        "bug1057", "multi-vm00", "multi-xz", "multi"};
    char spec[4096];

    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: unit_archive_seek GEN TMPDIR [ARCHIVES_DIR]\n");
        return 2;
    }
    if (gen(argv[1], "-k -m 8 -i 3 -n 6000 -x 7 -v 1", argv[2], "seek-v2") < 0 ||
        gen(argv[1], "-k -V 3 -m 8 -i 3 -n 700 -x 7", argv[2], "seek-v3") < 0 ||
        gen(argv[1], "-k -m 8 -i 3 -n 500 -x 7 -s 1700000000", argv[2], "seek-a") < 0 ||
        gen(argv[1], "-k -m 8 -i 3 -n 500 -x 7 -s 1700001000", argv[2], "seek-b") < 0 ||
        gen(argv[1], "-m 8 -i 3 -n 600 -x 16", argv[2], "reads-v2") < 0 ||
        gen(argv[1], "-V 3 -m 8 -i 3 -n 600 -x 16", argv[2], "reads-v3") < 0)
        return 2;
    for (int v = 2; v <= 3; v++) {
        char name[16];
        snprintf(name, sizeof(name), "reads-v%d", v);
        snprintf(spec, sizeof(spec), "%s/%s", argv[2], name);
        check_reads(name, spec, 16);
        check_interp_reads(name, spec, 16);
    }
    snprintf(spec, sizeof(spec), "%s/seek-v2", argv[2]);
    check("seek-v2", spec);
    snprintf(spec, sizeof(spec), "%s/seek-v3", argv[2]);
    check("seek-v3", spec);
    snprintf(spec, sizeof(spec), "%s/seek-a,%s/seek-b", argv[2], argv[2]);
    check("seek-a,seek-b", spec);
    if (argc == 4 && access(argv[3], R_OK) != 0) {
        printf("no %s: the testsuite's archives are not checked\n", argv[3]);
        argc = 3;
    }
    for (size_t i = 0; argc == 4 && i < sizeof(suite) / sizeof(*suite); i++) {
        snprintf(spec, sizeof(spec), "%s/%s", argv[3], suite[i]);
        check(suite[i], spec);
    }
    return failures ? 1 : 0;
}
