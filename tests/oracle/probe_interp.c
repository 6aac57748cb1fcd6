/*
 * probe_interp.c - interpolated fetches (pmSetMode(PM_MODE_INTERP)) from an
 * archive through whichever libpcp this is linked with; interp_diff.sh
 * runs the pmkit and the Debian builds over the same archives and compares
 * what they print.
 *
 *   probe_interp [-S] [-p] [-n MAX] [-m METRICS] [-i USEC] ARCHIVE CASE...
 *
 * -p narrows the profile first: of the instance domains of the metrics
 * fetched, the first, third, ... admit their second instance alone
 * (pmDelProfile all, pmAddProfile one), the others all but it.
 *
 * The sampling interval I is the archive's length over its records (read
 * with pmFetchArchive, in microseconds), or USEC (-i, for timing: the
 * records are then not read first).  Each CASE is a letter and a
 * factor F, the step being F times I:
 *   f  forward from the archive's start (pmSetModeHighRes, pmFetchHighRes)
 *   F  forward from 0.37 I after the start (pmSetMode, pmFetch)
 *   b  backward from the end (pmSetModeHighRes, pmFetchHighRes)
 *   B  backward from 0.37 I before the end (pmSetMode, pmFetch)
 *   e  forward from 2 steps before the start; E backward from 2 after the end
 *   aSEC.NSEC  forward from that time, the step one interval
 *   wSEED  a walk (for pmkit's cache between fetches): 60 times a
 *          pmSetModeHighRes, then 1 to 6 fetches; each time at random in
 *          the archive (and an interval beyond), near the last fetch's (up
 *          to 3 intervals either way) or at it, the step 0, 0.3, 1, 2.5,
 *          10 or 40 intervals either way; now and then the first metrics
 *          alone are asked, or the profile admits one instance of the
 *          first domain met; times and steps from SEED
 * Each case fetches the archive's first METRICS metrics (default all) in
 * one call, at most MAX times (default 200) or until PM_ERR_EOL, and
 * prints every value: in place as hex, in a block as its type, length and
 * every byte in hex (doubles to the last bit).  -S prints each value set's
 * instances in ascending order (the order of an interpolated set is not
 * PCP's in pmkit, docs/compat.md).
 */
#include <pcp/pmapi.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char **names;
static int nnames, room;

static void collect(const char *name)
{
    if (nnames == room) {
        room = room == 0 ? 256 : room * 2;
        if ((names = realloc(names, (size_t)room * sizeof(*names))) == NULL)
            exit(2);
    }
    names[nnames++] = strdup(name);
}

static int sorted;

static int by_inst(const void *a, const void *b)
{
    int x = ((const pmValue *)a)->inst, y = ((const pmValue *)b)->inst;

    return (x > y) - (x < y);
}

static void print_vset(pmValueSet *vs)
{
    if (sorted && vs->numval > 1)
        qsort(vs->vlist, (size_t)vs->numval, sizeof(pmValue), by_inst);
    printf(" %s:%d", pmIDStr(vs->pmid), vs->numval);
    if (vs->numval > 0)
        printf("/%d", vs->valfmt);
    for (int j = 0; j < vs->numval; j++) {
        const pmValue *v = &vs->vlist[j];
        if (vs->valfmt == PM_VAL_INSITU) {
            printf(" [%d]%08x", v->inst, (unsigned)v->value.lval);
            continue;
        }
        printf(" [%d]t%d,%u,", v->inst, v->value.pval->vtype, v->value.pval->vlen);
        for (unsigned k = 0; k + PM_VAL_HDR_SIZE < v->value.pval->vlen; k++)
            printf("%02x", (unsigned char)v->value.pval->vbuf[k]);
    }
}

static void print_result(int i, int sts, pmHighResResult *r)
{
    if (sts < 0) {
        printf("%d: %s\n", i, pmErrStr(sts));
        return;
    }
    printf("%d: %lld.%09ld %d", i, (long long)r->timestamp.tv_sec, r->timestamp.tv_nsec,
           r->numpmid);
    for (int k = 0; k < r->numpmid; k++)
        print_vset(r->vset[k]);
    printf("\n");
    pmFreeHighResResult(r);
}

static unsigned long long rnd_state;

static unsigned rnd(unsigned n)
{
    rnd_state ^= rnd_state << 13;
    rnd_state ^= rnd_state >> 7;
    rnd_state ^= rnd_state << 17;
    return (unsigned)(rnd_state % n);
}

static struct timespec ts_plus(struct timespec t, long long ns)
{
    ns += t.tv_nsec;
    t.tv_sec += ns / 1000000000 - (ns % 1000000000 < 0);
    t.tv_nsec = (ns % 1000000000 + 1000000000) % 1000000000;
    return t;
}

/* -p: each domain met narrowed, one way or the other (see the top). */
static void narrow_profile(int n, const pmID *pmids)
{
    pmInDom done[64];
    int ndone = 0;

    for (int k = 0; k < n && ndone < 64; k++) {
        pmDesc d;
        int *inst, m, seen = 0;
        char **inames;
        if (pmLookupDesc(pmids[k], &d) < 0 || d.indom == PM_INDOM_NULL)
            continue;
        for (int j = 0; j < ndone; j++)
            seen |= done[j] == d.indom;
        if (seen || (m = pmGetInDomArchive(d.indom, &inst, &inames)) <= 0)
            continue;
        if (ndone % 2 == 0) {
            pmDelProfile(d.indom, 0, NULL);
            pmAddProfile(d.indom, 1, &inst[m > 1 ? 1 : 0]);
        } else {
            pmDelProfile(d.indom, 1, &inst[m > 1 ? 1 : 0]);
        }
        done[ndone++] = d.indom;
        free(inst);
        free(inames);
    }
}

/* Case wSEED (see the top). */
static void walk_case(int seed, int n, pmID *pmids, long long interval, struct timespec start,
                      struct timespec end)
{
    static const double factor[] = {0, 0.3, 1, 2.5, 10, 40};
    long long span =
        ((long long)(end.tv_sec - start.tv_sec) * 1000000000 + (end.tv_nsec - start.tv_nsec)) /
        1000;
    struct timespec t = start;
    pmDesc d;
    int indom = (int)PM_INDOM_NULL;

    for (int k = 0; k < n && indom == (int)PM_INDOM_NULL; k++)
        if (pmLookupDesc(pmids[k], &d) >= 0)
            indom = (int)d.indom;

    rnd_state = 0x9e3779b97f4a7c15ull * (unsigned)(seed + 1);
    for (int seg = 0; seg < 60; seg++) {
        unsigned how = rnd(4), fetches = 1 + rnd(6);
        long long step = (long long)(factor[rnd(6)] * (double)interval) * (rnd(2) ? -1 : 1);
        int some = rnd(5) == 0 ? 1 + (int)rnd((unsigned)(n > 0 ? n : 1)) : n, sts;
        int narrow = indom != (int)PM_INDOM_NULL && rnd(6) == 0;
        struct timespec dt = ts_plus((struct timespec){0, 0}, step * 1000);
        if (how <= 1)
            t = ts_plus(start, ((long long)rnd((unsigned)(span + 2 * interval)) - interval) * 1000);
        else if (how == 2)
            t = ts_plus(t, ((long long)rnd((unsigned)(6 * interval + 1)) - 3 * interval) * 1000);
        if (narrow) { /* one instance of the domain, at random */
            int *inst, k;
            char **inames;
            if ((k = pmGetInDomArchive((pmInDom)indom, &inst, &inames)) > 0) {
                int one = inst[rnd((unsigned)k)];
                pmDelProfile((pmInDom)indom, 0, NULL);
                pmAddProfile((pmInDom)indom, 1, &one);
                free(inst);
                free(inames);
            } else {
                narrow = 0;
            }
        }
        sts = pmSetModeHighRes(PM_MODE_INTERP, &t, &dt);
        printf("seg %d: %d of %d from %lld.%09ld step %lldus%s: %d\n", seg, some, n,
               (long long)t.tv_sec, t.tv_nsec, step, narrow ? " narrow" : "", sts);
        for (unsigned i = 0; i < fetches; i++) {
            pmHighResResult *r = NULL;
            sts = pmFetchHighRes(some, pmids, &r);
            if (sts >= 0)
                t = r->timestamp;
            print_result((int)i, sts, r);
        }
        if (narrow)
            pmAddProfile((pmInDom)indom, 0, NULL);
    }
}

static int one_case(int ctx, const char *c, int n, pmID *pmids, long long interval,
                    struct timespec start, struct timespec end, int max)
{
    double f = c[0] == 'a' ? 1.0 : atof(c + 1);
    long long step = (long long)(f * (double)interval), ns;
    int hi = strchr("fbeEa", c[0]) != NULL, back = strchr("bBE", c[0]) != NULL, sts;
    struct timespec t, d;

    if (step < 1)
        step = 1;
    switch (c[0]) {
    case 'f':
    case 'b':
        t = c[0] == 'f' ? start : end;
        break;
    case 'F':
        ns = (long long)start.tv_nsec + interval * 370;
        t.tv_sec = start.tv_sec + ns / 1000000000;
        t.tv_nsec = ns % 1000000000;
        break;
    case 'B':
        ns = (long long)end.tv_nsec - interval * 370;
        t.tv_sec = end.tv_sec + ns / 1000000000 - (ns % 1000000000 < 0);
        t.tv_nsec = (ns % 1000000000 + 1000000000) % 1000000000;
        break;
    case 'e':
    case 'E':
        ns = (c[0] == 'e' ? -2 : 2) * step * 1000;
        t = c[0] == 'e' ? start : end;
        ns += t.tv_nsec;
        t.tv_sec += ns / 1000000000 - (ns % 1000000000 < 0);
        t.tv_nsec = (ns % 1000000000 + 1000000000) % 1000000000;
        break;
    case 'w':
        printf("case %s\n", c);
        walk_case(atoi(c + 1), n, pmids, interval, start, end);
        return 0;
    case 'a': /* aSEC.NSEC: forward from that time, one interval steps */
        t.tv_sec = strtoll(c + 1, (char **)&c, 10);
        t.tv_nsec = *c == '.' ? strtol(c + 1, NULL, 10) : 0;
        c = "a";
        break;
    default:
        fprintf(stderr, "bad case %s\n", c);
        return 2;
    }
    d.tv_sec = (back ? -step : step) / 1000000;
    d.tv_nsec = (back ? -step : step) % 1000000 * 1000;
    if (hi) {
        sts = pmSetModeHighRes(PM_MODE_INTERP, &t, &d);
    } else {
        struct timeval tv = {t.tv_sec, t.tv_nsec / 1000};
        sts = pmSetMode(PM_MODE_INTERP, &tv, back ? -step / 1000 : step / 1000);
        if (step / 1000 == 0)
            sts = pmSetMode(PM_MODE_INTERP | PM_XTB_SET(PM_TIME_USEC), &tv,
                            back ? -(int)step : (int)step);
    }
    printf("case %s step %lldus from %lld.%09ld: %d\n", c, step, (long long)t.tv_sec, t.tv_nsec,
           sts);
    (void)ctx;
    for (int i = 0; i < max; i++) {
        if (hi) {
            pmHighResResult *r;
            if ((sts = pmFetchHighRes(n, pmids, &r)) < 0) {
                printf("%d: %s\n", i, pmErrStr(sts));
                if (sts == PM_ERR_EOL)
                    break;
                continue;
            }
            printf("%d: %lld.%09ld %d", i, (long long)r->timestamp.tv_sec, r->timestamp.tv_nsec,
                   r->numpmid);
            for (int k = 0; k < r->numpmid; k++)
                print_vset(r->vset[k]);
            pmFreeHighResResult(r);
        } else {
            pmResult *r;
            if ((sts = pmFetch(n, pmids, &r)) < 0) {
                printf("%d: %s\n", i, pmErrStr(sts));
                if (sts == PM_ERR_EOL)
                    break;
                continue;
            }
            printf("%d: %ld.%06ld %d", i, (long)r->timestamp.tv_sec, (long)r->timestamp.tv_usec,
                   r->numpmid);
            for (int k = 0; k < r->numpmid; k++)
                print_vset(r->vset[k]);
            pmFreeResult(r);
        }
        printf("\n");
    }
    return 0;
}

int main(int argc, char **argv)
{
    int c, max = 200, nmetrics = -1, ctx, n = 0, nrec = 0, sts, narrow = 0;
    pmID *pmids;
    pmHighResLogLabel label;
    struct timespec end, first = {0, 0}, last = {0, 0};
    long long interval, given = 0;

    while ((c = getopt(argc, argv, "n:m:Spi:")) != -1) {
        if (c == 'i')
            given = atoll(optarg);
        else if (c == 'S')
            sorted = 1;
        else if (c == 'p')
            narrow = 1;
        else if (c == 'n')
            max = atoi(optarg);
        else if (c == 'm')
            nmetrics = atoi(optarg);
        else
            return 2;
    }
    if (optind >= argc - 1) {
        fprintf(stderr,
                "usage: probe_interp [-S] [-p] [-n MAX] [-m METRICS] [-i USEC] ARCHIVE CASE...\n");
        return 2;
    }
    if ((ctx = pmNewContext(PM_CONTEXT_ARCHIVE, argv[optind])) < 0) {
        printf("context: %s\n", pmErrStr(ctx));
        return 0;
    }
    pmTraversePMNS("", collect);
    pmids = calloc((size_t)nnames + 1, sizeof(pmID));
    for (int i = 0, j; i < nnames && (nmetrics < 0 || n < nmetrics); i++) {
        pmID pmid;
        pmDesc d;
        if (pmLookupName(1, (const char **)&names[i], &pmid) < 0 || pmLookupDesc(pmid, &d) < 0 ||
            d.type == PM_TYPE_EVENT || d.type == PM_TYPE_HIGHRES_EVENT)
            continue;
        for (j = 0; j < n && pmids[j] != pmid; j++)
            ;
        if (j == n) /* Debian's interpolation loops on a PMID asked twice */
            pmids[n++] = pmid;
    }
    if (pmGetHighResArchiveLabel(&label) < 0 || pmGetHighResArchiveEnd(&end) < 0)
        return 2;
    for (; given == 0;) {
        pmHighResResult *r;
        if ((sts = pmFetchHighResArchive(&r)) < 0)
            break;
        if (getenv("PROBE_INTERP_RAW") != NULL) {
            printf("raw: %lld.%09ld %d", (long long)r->timestamp.tv_sec, r->timestamp.tv_nsec,
                   r->numpmid);
            for (int k = 0; k < r->numpmid; k++)
                print_vset(r->vset[k]);
            printf("\n");
        }
        if (nrec++ == 0)
            first = r->timestamp;
        last = r->timestamp;
        pmFreeHighResResult(r);
    }
    /* back to the start: Debian's interpolation loops when the first
     * interpolated fetch follows pmFetchArchive's PM_ERR_EOL */
    pmSetModeHighRes(PM_MODE_FORW, &label.start, NULL);
    interval = nrec > 1 ? ((long long)(last.tv_sec - first.tv_sec) * 1000000000 +
                           (last.tv_nsec - first.tv_nsec)) /
                              1000 / (nrec - 1)
                        : 1000000;
    if (given > 0)
        interval = given;
    if (interval < 1)
        interval = 1;
    printf("metrics %d records %d interval %lldus start %lld.%09ld end %lld.%09ld\n", n, nrec,
           interval, (long long)label.start.tv_sec, label.start.tv_nsec, (long long)end.tv_sec,
           end.tv_nsec);
    if (narrow)
        narrow_profile(n, pmids);
    sts = 0;
    for (int i = optind + 1; i < argc && sts == 0; i++)
        sts = one_case(ctx, argv[i], n, pmids, interval, label.start, end, max);
    for (int i = 0; i < nnames; i++)
        free(names[i]);
    free(names);
    free(pmids);
    pmDestroyContext(ctx);
    return sts;
}
