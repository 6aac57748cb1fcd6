/*
 * archive.c - the PMAPI calls that only an archive context answers: its
 * label and end, its records one by one, the instances it ever recorded,
 * and the mode that says how it moves through time (pmSetMode, which a
 * live context refuses).
 *
 * Each is a thin layer over context/archive_ctx.c, which holds the current
 * context and reads its archives: here the answers take the PMAPI's forms
 * (struct timeval for the low-resolution calls, a result whose time stamp
 * is converted in place, PCP's checks before the context's).
 */
#include "archive_ctx.h"
#include "context.h"

#include <string.h>

int pmGetHighResArchiveLabel(pmHighResLogLabel *lp)
{
    return pmkit_archive_label(lp);
}

int pmGetArchiveLabel(pmLogLabel *lp)
{
    pmHighResLogLabel h;
    int sts = pmkit_archive_label(&h);

    if (sts < 0)
        return sts;
    memset(lp, 0, sizeof(*lp));
    lp->ll_magic = h.magic;
    lp->ll_pid = h.pid;
    lp->ll_start.tv_sec = h.start.tv_sec;
    lp->ll_start.tv_usec = h.start.tv_nsec / 1000;
    pmkit_copy(lp->ll_hostname, (int)sizeof(lp->ll_hostname), h.hostname);
    pmkit_copy(lp->ll_tz, (int)sizeof(lp->ll_tz), h.timezone);
    return 0;
}

int pmGetHighResArchiveEnd(struct timespec *tsp)
{
    return pmkit_archive_end(tsp);
}

int pmGetArchiveEnd(struct timeval *tvp)
{
    struct timespec ts;
    int sts = pmkit_archive_end(&ts);

    if (sts < 0)
        return sts;
    tvp->tv_sec = ts.tv_sec;
    tvp->tv_usec = ts.tv_nsec / 1000;
    return 0;
}

int pmFetchHighResArchive(pmHighResResult **result)
{
    return pmkit_archive_next(result);
}

int pmFetchArchive(pmResult **result)
{
    pmHighResResult *h;
    struct timespec ts;
    pmResult *r;
    int sts = pmkit_archive_next(&h);

    if (sts < 0)
        return sts;
    /* the same layout but for the time stamp: converted in place */
    ts = h->timestamp;
    r = (pmResult *)h;
    r->timestamp.tv_sec = ts.tv_sec;
    r->timestamp.tv_usec = ts.tv_nsec / 1000;
    *result = r;
    return 0;
}

/* PCP's first checks of the Archive instance calls: the instance domain
 * (PM_INDOM_NULL is PM_ERR_INDOM even without a context, as in Debian's,
 * pcp-testsuite's torture_logmeta), then a context; 0 to go on. */
static int indom_checks(pmInDom indom)
{
    if (indom == PM_INDOM_NULL)
        return PM_ERR_INDOM;
    return pmkit_ctx_type_current() == PM_CONTEXT_UNDEF ? PM_ERR_NOCONTEXT : 0;
}

int pmGetInDomArchive(pmInDom indom, int **instlist, char ***namelist)
{
    int sts = indom_checks(indom);

    return sts < 0 ? sts : pmkit_archive_indom_union(indom, instlist, namelist);
}

int pmLookupInDomArchive(pmInDom indom, const char *name)
{
    int sts = indom_checks(indom);

    if (sts < 0)
        return sts;
    if (name == NULL)
        return PM_ERR_INST_LOG;
    return pmkit_archive_union_find(indom, (int)PM_IN_NULL, name, NULL);
}

int pmNameInDomArchive(pmInDom indom, int inst, char **name)
{
    int sts = indom_checks(indom);

    return sts < 0 ? sts : pmkit_archive_union_find(indom, inst, NULL, name);
}

/* ------------------------------------------------------------------ */
/* Modes. */

/* A live context takes no mode, as in PCP. */
static int live_mode(void)
{
    return pmWhichContext() < 0 ? PM_ERR_NOCONTEXT : PM_ERR_MODE;
}

/* pmSetMode's delta: milliseconds, or with PM_XTB_SET the units of
 * PM_TIME_* it names. */
static void delta_of(int mode, int delta, struct timespec *ts)
{
    static const long long nsec[] = {
        1, 1000, 1000000, 1000000000LL, 60000000000LL, 3600000000000LL};
    int unit = PM_XTB_GET(mode);
    long long ns = unit >= PM_TIME_NSEC && unit <= PM_TIME_HOUR ? (long long)delta * nsec[unit]
                                                                : (long long)delta * 1000000;

    ts->tv_sec = (time_t)(ns / 1000000000LL);
    ts->tv_nsec = (long)(ns % 1000000000LL);
}

int pmSetMode(int mode, const struct timeval *when, int delta)
{
    struct timespec w, d;

    if (pmkit_ctx_type_current() != PM_CONTEXT_ARCHIVE)
        return live_mode();
    if (when != NULL) {
        w.tv_sec = when->tv_sec;
        w.tv_nsec = when->tv_usec * 1000;
    }
    delta_of(mode, delta, &d);
    return pmkit_archive_setmode(mode, when != NULL ? &w : NULL, &d);
}

int pmSetModeHighRes(int mode, const struct timespec *when, const struct timespec *delta)
{
    if (pmkit_ctx_type_current() != PM_CONTEXT_ARCHIVE)
        return live_mode();
    return pmkit_archive_setmode(mode, when, delta);
}
