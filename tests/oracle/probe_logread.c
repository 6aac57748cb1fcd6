/*
 * probe_logread.c - __pmLogRead_ctx over the archives named in
 * $PMKIT_LOGREAD_ARCHIVES (space separated), built against Debian's
 * libpcp and pmkit's; the two outputs must be identical (compare.sh).
 *
 * For each archive: every record forward to PM_ERR_EOL (its stamp and
 * value set count), a few more reads past the end, then backward and
 * forward again from there, a read with the context in PM_MODE_INTERP
 * (forward), and forward from the start after pmSetMode.  After each read
 * it prints what the context's __pmArchCtl holds: the current volume, the
 * place in its file, and ac_offset/ac_vol (which the reads leave alone).
 * Then where pmSetMode leaves PCP's reader: for times around every
 * temporal index entry (on it, a nanosecond either side, half way to the
 * next and either side of that, a quarter and three quarters of the way),
 * before the start and past the end (a second, and 2^40 seconds either
 * way: more nanoseconds than 64 bits hold), in PM_MODE_FORW, PM_MODE_BACK and
 * PM_MODE_INTERP with a positive, a negative, a zero and no step, the place right
 * after pmSetMode and the records read from there forward or backward;
 * the same with the index table emptied (as Debian's pmlogcheck empties
 * a damaged one), after two pmSetModes in a row, the records read
 * after a pmFetchArchive, and a view first asked for after pmSetMode.
 */
#include <pcp/pmapi.h>

#include "libpcp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int one(__pmContext *c, int mode, const char *tag)
{
    __pmArchCtl *ac = c->c_archctl;
    __pmResult *r = NULL;
    int sts = __pmLogRead_ctx(c, mode, NULL, &r, PMLOGREAD_NEXT);

    printf("%s %d", tag, sts);
    if (sts >= 0)
        printf(" %lld.%09d numpmid %d", (long long)r->timestamp.sec, (int)r->timestamp.nsec,
               r->numpmid);
    printf(" curvol %d tell %ld vol %d offset %ld\n", ac->ac_curvol,
           ac->ac_mfp != NULL ? (long)__pmFtell(ac->ac_mfp) : -1L, ac->ac_vol, ac->ac_offset);
    if (sts >= 0)
        __pmFreeResult(r);
    return sts;
}

/* The file's place as the view shows it. */
static void place(__pmContext *c)
{
    __pmArchCtl *ac = c->c_archctl;

    printf(" [curvol %d tell %ld vol %d offset %ld]", ac->ac_curvol,
           ac->ac_mfp != NULL ? (long)__pmFtell(ac->ac_mfp) : -1L, ac->ac_vol, ac->ac_offset);
}

/* n records read in direction mode, their stamps on one line. */
static void reads(__pmContext *c, int mode, int n)
{
    for (int i = 0; i < n; i++) {
        __pmResult *r = NULL;
        int sts = __pmLogRead_ctx(c, mode, NULL, &r, PMLOGREAD_NEXT);
        if (sts < 0) {
            printf(" %d", sts);
            return;
        }
        printf(" %lld.%09d", (long long)r->timestamp.sec, (int)r->timestamp.nsec);
        __pmFreeResult(r);
    }
}

/* pmSetModeHighRes to t in each mode, each followed by reads one way,
 * then the other; printed as secs.nsecs past the label's start. */
static void seek_to(__pmContext *c, const struct timespec *t, long long secs, long long nsecs)
{
    static const struct {
        int mode, step;
        const char *tag;
    } modes[] = {{PM_MODE_FORW, 1, "forw"},      {PM_MODE_BACK, 1, "back"},
                 {PM_MODE_INTERP, 1, "interp+"}, {PM_MODE_INTERP, -1, "interp-"},
                 {PM_MODE_INTERP, 0, "interp0"}, {PM_MODE_INTERP, 2, "interp, no step"}};

    for (int m = 0; m < 6; m++) {
        for (int dir = 0; dir < 2; dir++) {
            struct timespec step = {modes[m].step, 0};
            int sts = pmSetModeHighRes(modes[m].mode, t, modes[m].step == 2 ? NULL : &step);
            printf("seek %+lld.%09lld %s %d", secs, nsecs, modes[m].tag, sts);
            place(c);
            reads(c, dir ? PM_MODE_BACK : PM_MODE_FORW, 2);
            putchar('\n');
        }
    }
}

/* The label's start plus ns, to seek_to. */
static void seek_at(__pmContext *c, const __pmTimestamp *start, long long ns)
{
    long long at = (long long)start->nsec + ns;
    struct timespec t = {(time_t)(start->sec + at / 1000000000), (long)(at % 1000000000)};

    if (t.tv_nsec < 0) {
        t.tv_nsec += 1000000000;
        t.tv_sec--;
    }
    seek_to(c, &t, ns / 1000000000, (ns < 0 ? -ns : ns) % 1000000000);
}

/* The label's start plus secs seconds, more than nanoseconds can count
 * in 64 bits, to seek_to. */
static void seek_far(__pmContext *c, const __pmTimestamp *start, long long secs)
{
    struct timespec t = {(time_t)(start->sec + secs), (long)start->nsec};

    seek_to(c, &t, secs, 0);
}

static long long since(const __pmTimestamp *t, const __pmTimestamp *start)
{
    return (long long)(t->sec - start->sec) * 1000000000 + (t->nsec - start->nsec);
}

/* Where pmSetMode leaves PCP's reader, around each index entry. */
static void seeks(__pmContext *c)
{
    __pmLogCtl *lc = c->c_archctl->ac_log;
    __pmTimestamp start = lc->label.start;
    pmResult *r = NULL;
    long long last = 0;
    int numti = lc->numti;

    seek_at(c, &start, -1000000000);
    seek_far(c, &start, -(1LL << 40));
    seek_far(c, &start, 1LL << 40);
    for (int j = 0; j < numti; j++) {
        long long t = since(&lc->ti[j].stamp, &start);
        seek_at(c, &start, t - 1);
        seek_at(c, &start, t);
        seek_at(c, &start, t + 1);
        if (j + 1 < numti) {
            long long d = since(&lc->ti[j + 1].stamp, &start) - t;
            seek_at(c, &start, t + d / 4);
            seek_at(c, &start, t + d / 2 - 1);
            seek_at(c, &start, t + d / 2);
            seek_at(c, &start, t + d / 2 + 1);
            seek_at(c, &start, t + 3 * d / 4);
        }
        last = t;
    }
    seek_at(c, &start, last + 5000000000LL);
    /* no index, as a program that empties the table sees it */
    lc->numti = 0;
    printf("numti 0\n");
    seek_at(c, &start, last / 2);
    lc->numti = numti;
    /* two pmSetModes, then reads; a pmFetch between */
    if (numti > 1) {
        struct timespec t1 = {(time_t)lc->ti[1].stamp.sec, lc->ti[1].stamp.nsec}, step = {1, 0};
        struct timespec t0 = {(time_t)start.sec, start.nsec + 1};
        pmSetModeHighRes(PM_MODE_BACK, &t1, &step);
        pmSetModeHighRes(PM_MODE_FORW, &t0, &step);
        printf("twice");
        place(c);
        reads(c, PM_MODE_FORW, 2);
        putchar('\n');
        pmSetModeHighRes(PM_MODE_FORW, &t1, &step);
        /* (the view's place after a fetch is not pmkit's to show: pmkit's
         * fetches do not read through the view's file) */
        printf("fetch %d", pmFetchArchive(&r) >= 0);
        if (r != NULL)
            pmFreeResult(r);
        reads(c, PM_MODE_FORW, 2);
        putchar('\n');
    }
}

/* A context whose view is first asked for after pmSetMode: the file
 * where pmSetMode left it, then a record read. */
static void late_view(const char *name)
{
    struct timeval end, t;
    pmLogLabel label;
    __pmContext *c;
    int h;

    if ((h = pmNewContext(PM_CONTEXT_ARCHIVE, name)) < 0 || pmGetArchiveLabel(&label) < 0 ||
        pmGetArchiveEnd(&end) < 0)
        return;
    t = label.ll_start;
    t.tv_sec += (end.tv_sec - t.tv_sec) * 3 / 5;
    pmSetMode(PM_MODE_FORW, &t, 0);
    if ((c = __pmHandleToPtr(h)) != NULL) {
        PM_UNLOCK(c->c_lock);
        printf("late view");
        place(c);
        reads(c, PM_MODE_FORW, 1);
        putchar('\n');
    }
    pmDestroyContext(h);
}

static void show_mode(int h, const char *what)
{
    __pmContext *c = __pmHandleToPtr(h);

    if (c == NULL)
        return;
    printf("c_mode %s: %#x\n", what, (unsigned)c->c_mode);
    PM_UNLOCK(c->c_lock);
}

static int probe(const char *name)
{
    pmLogLabel label;
    __pmContext *c;
    int h, sts, i;

    printf("== %s\n", strrchr(name, '/') != NULL ? strrchr(name, '/') + 1 : name);
    if ((h = pmNewContext(PM_CONTEXT_ARCHIVE, name)) < 0) {
        printf("pmNewContext: %s\n", pmErrStr(h));
        return 1;
    }
    show_mode(h, "after the open");
    if ((c = __pmHandleToPtr(h)) == NULL)
        return 1;
    PM_UNLOCK(c->c_lock);
    for (i = 0; i < 100000; i++)
        if (one(c, PM_MODE_FORW, "forw") < 0)
            break;
    one(c, PM_MODE_FORW, "past");
    for (i = 0; i < 4; i++)
        one(c, PM_MODE_BACK, "back");
    for (i = 0; i < 2; i++)
        one(c, PM_MODE_FORW, "forw");
    one(c, PM_MODE_INTERP, "interp");
    if ((sts = pmGetArchiveLabel(&label)) < 0 ||
        (sts = pmSetMode(PM_MODE_FORW, &label.ll_start, 0)) < 0) {
        printf("label/pmSetMode: %s\n", pmErrStr(sts));
        return 1;
    }
    for (i = 0; i < 3; i++)
        one(c, PM_MODE_FORW, "start");
    /* the view's c_mode: the mode as pmSetMode was last given it */
    show_mode(h, "after the reads");
    pmSetMode(PM_MODE_BACK, &label.ll_start, 0);
    show_mode(h, "back");
    pmSetMode(PM_MODE_INTERP, &label.ll_start, 1000);
    show_mode(h, "interp");
    pmSetMode(PM_MODE_INTERP | PM_XTB_SET(PM_TIME_SEC), &label.ll_start, 2);
    show_mode(h, "interp, seconds");
    seeks(c);
    late_view(name);
    pmDestroyContext(h);
    return 0;
}

int main(void)
{
    const char *list = getenv("PMKIT_LOGREAD_ARCHIVES");
    char *copy, *name, *save = NULL;
    int bad = 0;

    if (list == NULL || (copy = strdup(list)) == NULL) {
        fprintf(stderr, "probe_logread: PMKIT_LOGREAD_ARCHIVES is not set\n");
        return 2;
    }
    for (name = strtok_r(copy, " ", &save); name != NULL; name = strtok_r(NULL, " ", &save))
        bad |= probe(name);
    free(copy);
    return bad;
}
