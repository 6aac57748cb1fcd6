/*
 * probe_fgarch.c - fetch groups over an archive in PM_MODE_INTERP, from one
 * source built twice (against pmkit and against Debian's libpcp), printing
 * every answer.
 *
 *   probe_fgarch ARCHIVE [MAXMETRICS]
 *
 * For each case (a direction and a step, from the archive's start or end)
 * a new fetch group on the archive registers the archive's metrics (names
 * sorted, the first MAXMETRICS, default 40; aggregates and events left
 * out) as items or instance domains in doubles (strings as strings), and
 * a timestamp; pmSetMode(PM_MODE_INTERP) on the group's context, then
 * twelve pmFetchGroup calls, each printed: its status, the time (when the
 * fetch worked: else it is the clock's), and every registration's status
 * and values (doubles to the last bit).  Counters are the group's rates,
 * backwards and at a step of 0 too.  fgarch_diff.sh compares the two
 * outputs.
 * Not here: live contexts (probe_fetchgroup.c has those).
 */
#include <pcp/pmapi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* in Debian's libpcp 6.0.3 but not in its pmapi.h */
extern int pmExtendFetchGroup_timeval(pmFG, struct timeval *);

#define MAXINST 64
#define NFETCH  12

static char **names;
static int nnames;

static const char *err(int sts)
{
    static char buf[PM_MAXERRMSGLEN];

    return sts < 0 ? pmErrStr_r(sts, buf, sizeof(buf)) : "ok";
}

static void collect(const char *name)
{
    char **grown = realloc(names, (nnames + 1) * sizeof(char *));

    if (grown == NULL || (grown[nnames] = strdup(name)) == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    names = grown;
    nnames++;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One registration and where its answers go. */
struct reg {
    const char *name;
    int type;
    int indom; /* registered as an instance domain */
    int sts;
    pmAtomValue v[MAXINST];
    int insts[MAXINST];
    int stss[MAXINST];
    unsigned int num;
};

static void print_value(const pmAtomValue *v, int type)
{
    if (type == PM_TYPE_STRING)
        printf("\"%s\"", v->cp != NULL ? v->cp : "(null)");
    else
        printf("%.17g", v->d);
}

static void print_reg(const struct reg *r)
{
    printf("  %s: %s", r->name, err(r->sts));
    if (!r->indom) {
        if (r->sts >= 0) {
            putchar(' ');
            print_value(&r->v[0], r->type);
        }
        putchar('\n');
        return;
    }
    printf(" num %u\n", r->num);
    for (unsigned int i = 0; i < r->num && i < MAXINST; i++) {
        printf("    [%d] %s", r->insts[i], err(r->stss[i]));
        if (r->stss[i] >= 0) {
            putchar(' ');
            print_value(&r->v[i], r->type);
        }
        putchar('\n');
    }
}

/* A fetch group on ARCHIVE with the metrics registered in REGS. */
static pmFG group(const char *archive, struct reg *regs, int *nregs, struct timeval *stamp)
{
    pmFG fg;
    int sts, n = 0;

    if ((sts = pmCreateFetchGroup(&fg, PM_CONTEXT_ARCHIVE, archive)) < 0) {
        printf("create: %s\n", err(sts));
        return NULL;
    }
    for (int i = 0; i < nnames && n < *nregs; i++) {
        pmID id;
        pmDesc d;
        struct reg *r = &regs[n];
        if (pmLookupName(1, (const char **)&names[i], &id) < 0 || pmLookupDesc(id, &d) < 0)
            continue;
        if (d.type == PM_TYPE_AGGREGATE || d.type == PM_TYPE_AGGREGATE_STATIC ||
            d.type == PM_TYPE_EVENT || d.type == PM_TYPE_HIGHRES_EVENT)
            continue;
        memset(r, 0, sizeof(*r));
        r->name = names[i];
        r->type = d.type == PM_TYPE_STRING ? PM_TYPE_STRING : PM_TYPE_DOUBLE;
        r->indom = d.indom != PM_INDOM_NULL;
        if (r->indom)
            sts = pmExtendFetchGroup_indom(fg, r->name, NULL, r->insts, NULL, r->v, r->type,
                                           r->stss, MAXINST, &r->num, &r->sts);
        else
            sts = pmExtendFetchGroup_item(fg, r->name, NULL, NULL, &r->v[0], r->type, &r->sts);
        if (sts < 0) {
            printf("register %s: %s\n", r->name, err(sts));
            continue;
        }
        n++;
    }
    printf("registered %d\n", n);
    if ((sts = pmExtendFetchGroup_timeval(fg, stamp)) < 0)
        printf("timestamp: %s\n", err(sts));
    *nregs = n;
    return fg;
}

/* One case: twelve fetches from WHEN at DELTA milliseconds a step. */
static void run_case(const char *archive, const struct timeval *when, int delta)
{
    static struct reg regs[400];
    struct timeval stamp = {0, 0};
    int nregs, maxm = nnames;
    pmFG fg;
    int sts;

    nregs = maxm < 400 ? maxm : 400;
    printf("case from %ld.%06ld step %d ms\n", (long)when->tv_sec, (long)when->tv_usec, delta);
    if ((fg = group(archive, regs, &nregs, &stamp)) == NULL)
        return;
    pmUseContext(pmGetFetchGroupContext(fg));
    if ((sts = pmSetMode(PM_MODE_INTERP, when, delta)) < 0)
        printf("pmSetMode: %s\n", err(sts));
    for (int f = 0; f < NFETCH; f++) {
        sts = pmFetchGroup(fg);
        if (sts < 0) {
            /* the time is then the clock's, on both libraries */
            printf("fetch %d: %s\n", f, err(sts));
            for (int i = 0; i < nregs; i++)
                print_reg(&regs[i]);
            continue;
        }
        /* Debian's interpolated times can have a whole second in their
         * microseconds (docs/compat.md): printed normalised */
        printf("fetch %d: %s at %ld.%06ld\n", f, err(sts),
               (long)stamp.tv_sec + (long)stamp.tv_usec / 1000000, (long)stamp.tv_usec % 1000000);
        for (int i = 0; i < nregs; i++)
            print_reg(&regs[i]);
    }
    printf("destroy: %s\n", err(pmDestroyFetchGroup(fg)));
}

int main(int argc, char **argv)
{
    static const struct {
        int from_end;
        int offset; /* ms after the start or before the end */
        int delta;  /* ms */
    } cases[] = {
        {0, 0, 1000},     {0, 300, 500},     {0, 0, 3000}, {0, 0, 250},
        {1, 0, -1000},    {1, 700, -2500},   {1, 0, -400}, {0, 1500, 0},
        {0, -1500, 1000}, {1, -1500, -1000}, {0, -1, 500}, /* from outside the archive */
    };
    int ctx, sts, maxm = 40;
    pmLogLabel label;
    struct timeval start, end;

    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: probe_fgarch ARCHIVE [MAXMETRICS]\n");
        return 2;
    }
    if (argc == 3)
        maxm = atoi(argv[2]);
    if ((ctx = pmNewContext(PM_CONTEXT_ARCHIVE, argv[1])) < 0) {
        printf("context: %s\n", err(ctx));
        return 0;
    }
    if ((sts = pmGetArchiveLabel(&label)) < 0 || (sts = pmGetArchiveEnd(&end)) < 0) {
        printf("label/end: %s\n", err(sts));
        return 0;
    }
    start = label.ll_start;
    if ((sts = pmTraversePMNS("", collect)) < 0)
        printf("traverse: %s\n", err(sts));
    qsort(names, nnames, sizeof(char *), by_name);
    if (nnames > maxm)
        nnames = maxm;
    printf("metrics %d\n", nnames);
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        struct timeval when = cases[c].from_end ? end : start;
        long us = (long)when.tv_usec + (cases[c].from_end ? -1000L : 1000L) * cases[c].offset;
        when.tv_sec += us / 1000000;
        us %= 1000000;
        if (us < 0) {
            us += 1000000;
            when.tv_sec--;
        }
        when.tv_usec = us;
        pmUseContext(ctx);
        run_case(argv[1], &when, cases[c].delta);
    }
    return 0;
}
