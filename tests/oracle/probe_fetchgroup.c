/*
 * probe_fetchgroup.c - the fetch-group API from one source built twice,
 * against pmkit and against Debian's libpcp, printing every answer:
 * registrations and their errors, then several fetches of items, instance
 * domains and timestamps in every output type, with unit, scale and rate
 * conversions, then clearing and destroying the group.
 *
 *   probe_fetchgroup PMNS FG_AGENT_SO
 *
 * The agent is fg_agent.c (domain 251), loaded into a local context.
 * Rates depend on the time between fetches, so a rate is printed as the
 * rate times that time, rounded: the change of the value.
 * fetchgroup_diff.sh compares the two outputs.
 */
#include <pcp/pmapi.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* in Debian's libpcp 6.0.3 but not in its pmapi.h */
extern int pmClearFetchGroup(pmFG);
extern int pmExtendFetchGroup_timespec(pmFG, struct timespec *);
extern int pmExtendFetchGroup_timeval(pmFG, struct timeval *);

static const char *err(int sts)
{
    static char buf[PM_MAXERRMSGLEN];

    return sts < 0 ? pmErrStr_r(sts, buf, sizeof(buf)) : "ok";
}

static const int types[] = {PM_TYPE_32,    PM_TYPE_U32,    PM_TYPE_64,    PM_TYPE_U64,
                            PM_TYPE_FLOAT, PM_TYPE_DOUBLE, PM_TYPE_STRING};
#define NTYPES (sizeof(types) / sizeof(types[0]))

/* v as type: sentinels show as -1 / nan / (null) */
static void print_atom(const pmAtomValue *v, int type)
{
    switch (type) {
    case PM_TYPE_32:
        printf("%d", v->l);
        break;
    case PM_TYPE_U32:
        printf("%u", v->ul);
        break;
    case PM_TYPE_64:
        printf("%lld", (long long)v->ll);
        break;
    case PM_TYPE_U64:
        printf("%llu", (unsigned long long)v->ull);
        break;
    case PM_TYPE_FLOAT:
        printf("%.9g", (double)v->f);
        break;
    case PM_TYPE_DOUBLE:
        printf("%.17g", v->d);
        break;
    case PM_TYPE_STRING:
        if (v->cp == NULL)
            printf("(null)");
        else
            printf("[%s]", v->cp);
        break;
    default:
        printf("?");
    }
}

/* v, a rate, as the change over dt seconds.  Integer rates are kept
 * away from their limits (a fast fetch makes a large rate). */
static void print_rate(const pmAtomValue *v, int type, double dt)
{
    double r;

    switch (type) {
    case PM_TYPE_32:
        r = v->l;
        break;
    case PM_TYPE_U32:
        r = v->ul;
        break;
    case PM_TYPE_64:
        r = (double)v->ll;
        break;
    case PM_TYPE_U64:
        r = (double)v->ull;
        break;
    case PM_TYPE_FLOAT:
        r = v->f;
        break;
    case PM_TYPE_DOUBLE:
        r = v->d;
        break;
    default: /* a string: only its form, digits as 9 */
        if (v->cp == NULL) {
            printf("(null)");
            return;
        }
        printf("[");
        for (const char *p = v->cp; *p; p++)
            putchar(*p >= '0' && *p <= '9' ? '9' : *p);
        printf("]");
        return;
    }
    if (isnan(r))
        printf("nan");
    else if (type != PM_TYPE_FLOAT && type != PM_TYPE_DOUBLE &&
             (r == -1 || r == 4294967295.0 || r == 18446744073709551615.0))
        printf("sentinel");
    else if (type == PM_TYPE_FLOAT || type == PM_TYPE_DOUBLE)
        printf("delta~%.1f", r * dt);
    else /* truncated: the change less up to dt, so whole while dt < 1 s */
        printf("delta~%.0f", ceil(r * dt - 1e-9));
}

/* One registered item. */
struct item {
    const char *metric, *inst, *scale;
    int type, rate; /* rate: print as a change */
    pmAtomValue v;
    int sts;
};

/* One registered instance domain. */
#define MAXNUM 8
struct indom {
    const char *metric, *scale;
    int type, rate;
    unsigned maxnum;
    int codes[MAXNUM];
    char *names[MAXNUM];
    pmAtomValue v[MAXNUM];
    int stss[MAXNUM];
    unsigned num;
    int sts;
};

/* One registered event field. */
struct event {
    const char *metric, *inst, *field, *scale;
    int type;
    unsigned maxnum;
    struct timespec times[MAXNUM];
    pmAtomValue v[MAXNUM];
    int stss[MAXNUM];
    unsigned num;
    int sts;
};

static struct item items[200];
static int nitems;
static struct indom indoms[16];
static int nindoms;
static struct event events[32];
static int nevents;

static void add_item(pmFG fg, const char *metric, const char *inst, const char *scale, int type,
                     int rate)
{
    struct item *it = &items[nitems];
    int sts;

    memset(it, 0x5a, sizeof(*it));
    it->metric = metric;
    it->inst = inst;
    it->scale = scale;
    it->type = type;
    it->rate = rate;
    sts = pmExtendFetchGroup_item(fg, metric, inst, scale, &it->v, type, &it->sts);
    printf("item %s inst=%s scale=%s type=%d: %d %s", metric, inst ? inst : "NULL",
           scale ? scale : "NULL", type, sts, err(sts));
    if (sts == 0) {
        printf(" now ");
        print_atom(&it->v, type);
        printf(" sts %d", it->sts);
        nitems++;
    }
    printf("\n");
}

static void add_indom(pmFG fg, const char *metric, const char *scale, int type, unsigned maxnum)
{
    struct indom *d = &indoms[nindoms];
    int sts;

    memset(d, 0x5a, sizeof(*d));
    d->metric = metric;
    d->scale = scale;
    d->type = type;
    d->rate = scale != NULL && strcmp(scale, "rate") == 0;
    d->maxnum = maxnum;
    sts = pmExtendFetchGroup_indom(fg, metric, scale, d->codes, d->names, d->v, type, d->stss,
                                   maxnum, &d->num, &d->sts);
    printf("indom %s scale=%s type=%d max=%u: %d %s", metric, scale ? scale : "NULL", type, maxnum,
           sts, err(sts));
    if (sts == 0) {
        printf(" num %u sts %d", d->num, d->sts);
        nindoms++;
    }
    printf("\n");
}

static void add_event(pmFG fg, const char *metric, const char *inst, const char *field,
                      const char *scale, int type, unsigned maxnum)
{
    struct event *e = &events[nevents];
    int sts;

    memset(e, 0x5a, sizeof(*e));
    e->metric = metric;
    e->inst = inst;
    e->field = field;
    e->scale = scale;
    e->type = type;
    e->maxnum = maxnum;
    sts = pmExtendFetchGroup_event(fg, metric, inst, field, scale, e->times, e->v, type, e->stss,
                                   maxnum, &e->num, &e->sts);
    printf("event %s inst=%s field=%s scale=%s type=%d max=%u: %d %s", metric, inst ? inst : "NULL",
           field ? field : "NULL", scale ? scale : "NULL", type, maxnum, sts, err(sts));
    if (sts == 0) {
        printf(" num %u sts %d", e->num, e->sts);
        nevents++;
    }
    printf("\n");
}

static int hide_strings; /* after a clear: the strings were freed */

static void print_all(double dt)
{
    for (int i = 0; i < nitems; i++) {
        struct item *it = &items[i];
        printf("  %s/%s/%s/%d: sts %d %s value ", it->metric, it->inst ? it->inst : "-",
               it->scale ? it->scale : "-", it->type, it->sts, err(it->sts));
        if (hide_strings && it->type == PM_TYPE_STRING)
            printf("%s", it->v.cp == NULL ? "(null)" : "(set)");
        else if (it->rate && it->sts == 0)
            print_rate(&it->v, it->type, dt);
        else
            print_atom(&it->v, it->type);
        printf("\n");
    }
    for (int i = 0; i < nindoms; i++) {
        struct indom *d = &indoms[i];
        printf("  indom %s/%s/%d/%u: sts %d %s num %u", d->metric, d->scale ? d->scale : "-",
               d->type, d->maxnum, d->sts, err(d->sts), d->num);
        for (unsigned j = 0; j < d->maxnum; j++) { /* every slot: those past num too */
            if (hide_strings) {
                printf(" {%d sts %d}", d->codes[j], d->stss[j]);
                continue;
            }
            printf(" {%d %s sts %d ", d->codes[j], d->names[j] ? d->names[j] : "(null)",
                   d->stss[j]);
            if (d->rate && d->stss[j] == 0)
                print_rate(&d->v[j], d->type, dt);
            else
                print_atom(&d->v[j], d->type);
            printf("}");
        }
        printf("\n");
    }
    for (int i = 0; i < nevents; i++) {
        struct event *e = &events[i];
        printf("  event %s/%s/%s/%s/%d/%u: sts %d %s num %u", e->metric, e->inst ? e->inst : "-",
               e->field, e->scale ? e->scale : "-", e->type, e->maxnum, e->sts, err(e->sts),
               e->num);
        for (unsigned j = 0; j < e->maxnum; j++) {
            printf(" {%lld.%09ld sts %d ", (long long)e->times[j].tv_sec, (long)e->times[j].tv_nsec,
                   e->stss[j]);
            if (hide_strings && e->type == PM_TYPE_STRING)
                printf("%s", e->v[j].cp == NULL ? "(null)" : "(set)");
            else
                print_atom(&e->v[j], e->type);
            printf("}");
        }
        printf("\n");
    }
}

static double seconds(const struct timespec *a, const struct timespec *b)
{
    return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

int main(int argc, char **argv)
{
    static const char *metrics[] = {"fg.u32",    "fg.i32",    "fg.u64", "fg.i64",    "fg.float",
                                    "fg.double", "fg.string", "fg.neg", "fg.bigu64", "fg.huge"};
    char spec[4096];
    pmFG fg = NULL, fg2 = NULL;
    struct timeval tv, tv2;
    struct timespec ts, prev;
    int sts, ctx, before;

    if (argc != 3) {
        fprintf(stderr, "usage: probe_fetchgroup PMNS FG_AGENT_SO\n");
        return 2;
    }
    snprintf(spec, sizeof(spec), "add,251,%s,fg_init", argv[2]);
    {
        /* the first edit reads pmcd.conf, and reports a missing one */
        const char *msg = pmSpecLocalPMDA("clear");
        printf("clear: %s\n", msg ? msg : "ok");
        msg = pmSpecLocalPMDA(spec);
        printf("spec: %s\n", msg ? msg : "ok");
    }
    fflush(stdout); /* before the loader runs pmcpp */
    printf("load: %s\n", err(pmLoadASCIINameSpace(argv[1], 1)));

    before = pmNewContext(PM_CONTEXT_LOCAL, NULL);
    printf("context: %d\n", before >= 0);
    sts = pmCreateFetchGroup(&fg2, 77, NULL);
    printf("create bad type: %d %s null %d\n", sts, err(sts), fg2 == NULL);
    sts = pmCreateFetchGroup(&fg2, PM_CONTEXT_ARCHIVE, "/no/such/archive");
    printf("create bad archive: %s null %d\n", sts < 0 ? "error" : "ok", fg2 == NULL);
    sts = pmCreateFetchGroup(&fg, PM_CONTEXT_LOCAL, NULL);
    printf("create: %d %s\n", sts, err(sts));
    if (sts < 0)
        return 1;
    ctx = pmGetFetchGroupContext(fg);
    printf("context: own %d, not the caller's %d, current %d\n", ctx >= 0, ctx != before,
           pmWhichContext() == ctx);

    /* registrations that fail */
    add_item(fg, "fg.nosuch", NULL, NULL, PM_TYPE_U32, 0);
    add_item(fg, "no.such.metric", NULL, NULL, PM_TYPE_U32, 0);
    add_item(fg, "fg", NULL, NULL, PM_TYPE_U32, 0);
    add_item(fg, "fg.aggr", NULL, NULL, PM_TYPE_U32, 0);
    add_item(fg, "fg.u32", "seven", NULL, PM_TYPE_U32, 0);
    add_item(fg, "fg.indom", "eight", NULL, PM_TYPE_U32, 0);
    add_item(fg, "fg.u32", NULL, NULL, PM_TYPE_AGGREGATE, 0);
    add_item(fg, "fg.u32", NULL, NULL, PM_TYPE_EVENT, 0);
    add_item(fg, "fg.u32", NULL, NULL, 99, 0);
    add_item(fg, "fg.u32", NULL, NULL, -1, 0);
    add_item(fg, "fg.u32", NULL, "frob", PM_TYPE_U32, 0);
    add_item(fg, "fg.u32", NULL, "sec", PM_TYPE_U32, 0);
    add_item(fg, "fg.ms", NULL, "Kbyte", PM_TYPE_U32, 0);
    add_item(fg, "fg.ms", NULL, "sec / sec", PM_TYPE_DOUBLE, 1); /* a rate: dimensions 1 less */
    add_item(fg, "fg.counter", NULL, "Kbyte / hour^2", PM_TYPE_DOUBLE, 0);
    add_item(fg, "fg.string", NULL, "rate", PM_TYPE_DOUBLE, 0);
    add_item(fg, "fg.string", NULL, "count", PM_TYPE_DOUBLE, 0);
    add_indom(fg, "fg.nosuch", NULL, PM_TYPE_U32, 4);
    add_indom(fg, "fg.aggr", NULL, PM_TYPE_U32, 4);
    add_indom(fg, "fg.indom", "frob", PM_TYPE_U32, 4);
    add_indom(fg, "fg.indom", NULL, 99, 4);

    /* every value type into every output type, as it is */
    for (size_t m = 0; m < sizeof(metrics) / sizeof(metrics[0]); m++)
        for (size_t t = 0; t < NTYPES; t++)
            add_item(fg, metrics[m], NULL, NULL, types[t], 0);
    /* instances and semantics */
    add_item(fg, "fg.indom", "three", NULL, PM_TYPE_U32, 0);
    add_item(fg, "fg.indom", "eleven", NULL, PM_TYPE_STRING, 0);
    add_item(fg, "fg.indom", NULL, NULL, PM_TYPE_U32, 0);
    add_item(fg, "fg.big", "f", NULL, PM_TYPE_64, 0);
    add_item(fg, "fg.discrete", NULL, NULL, PM_TYPE_U32, 0);
    add_item(fg, "fg.discrete", NULL, NULL, PM_TYPE_STRING, 0);
    add_item(fg, "fg.err", NULL, NULL, PM_TYPE_U32, 0);
    add_item(fg, "fg.err", NULL, NULL, PM_TYPE_STRING, 0);
    add_item(fg, "fg.err", NULL, NULL, PM_TYPE_DOUBLE, 0);
    /* units, scales and rates */
    add_item(fg, "fg.ms", NULL, "sec", PM_TYPE_DOUBLE, 0);
    add_item(fg, "fg.ms", NULL, "microsec", PM_TYPE_U64, 0);
    add_item(fg, "fg.ms", NULL, "2 sec", PM_TYPE_DOUBLE, 0);
    add_item(fg, "fg.ms", NULL, "hour", PM_TYPE_STRING, 0);
    add_item(fg, "fg.ms", NULL, "instant", PM_TYPE_U32, 0);
    add_item(fg, "fg.ms", NULL, "rate", PM_TYPE_DOUBLE, 1);
    add_item(fg, "fg.ms", NULL, "millisec / sec", PM_TYPE_DOUBLE, 1);
    add_item(fg, "fg.big", "a", "count x 10^3", PM_TYPE_DOUBLE, 0);
    add_item(fg, "fg.counter", NULL, NULL, PM_TYPE_DOUBLE, 1);
    add_item(fg, "fg.counter", NULL, NULL, PM_TYPE_U64, 1);
    add_item(fg, "fg.counter", NULL, "instant", PM_TYPE_U64, 0);
    add_item(fg, "fg.counter", NULL, "Mbyte", PM_TYPE_DOUBLE, 0);
    add_item(fg, "fg.counter", NULL, "byte / sec", PM_TYPE_DOUBLE, 1);
    add_item(fg, "fg.counter", NULL, "Kbyte / msec", PM_TYPE_DOUBLE, 1);
    add_item(fg, "fg.counter", NULL, NULL, PM_TYPE_STRING, 1);
    add_item(fg, "fg.down", NULL, NULL, PM_TYPE_32, 1);
    add_item(fg, "fg.down", NULL, NULL, PM_TYPE_U32, 1);
    add_item(fg, "fg.down", NULL, NULL, PM_TYPE_DOUBLE, 1);
    add_item(fg, "fg.dcounter", NULL, NULL, PM_TYPE_DOUBLE, 1);
    add_item(fg, "fg.dcounter", NULL, "rate", PM_TYPE_FLOAT, 1);
    add_item(fg, "fg.dcounter", NULL, "millisec / sec", PM_TYPE_DOUBLE, 1);
    add_item(fg, "fg.dcounter", NULL, "sec / min", PM_TYPE_DOUBLE, 1);
    add_item(fg, "fg.counter", NULL, "Mbyte / hour", PM_TYPE_DOUBLE, 1);
    add_item(fg, "fg.counter", NULL, "Kbyte / millisec", PM_TYPE_DOUBLE, 1);
    add_item(fg, "fg.ms", NULL, "microsec / sec", PM_TYPE_DOUBLE, 1);
    add_item(fg, "fg.ms", NULL, "hour", PM_TYPE_32, 0);
    add_item(fg, "fg.ms", NULL, "2.5 millisec", PM_TYPE_64, 0);
    add_item(fg, "fg.big", "b", "count x 10^2 / sec", PM_TYPE_DOUBLE, 1);
    add_item(fg, "fg.u32", NULL, "rate", PM_TYPE_DOUBLE, 1);
    add_item(fg, "fg.discrete", NULL, "rate", PM_TYPE_DOUBLE, 1);
    add_item(fg, "fg.idown", NULL, "rate", PM_TYPE_DOUBLE, 1);
    add_item(fg, "fg.idown", NULL, NULL, PM_TYPE_DOUBLE, 0);
    add_item(fg, "fg.string", NULL, "instant", PM_TYPE_STRING, 0);
    add_item(fg, "fg.string2", NULL, NULL, PM_TYPE_STRING, 0);
    /* a value nobody keeps */
    sts = pmExtendFetchGroup_item(fg, "fg.u32", NULL, NULL, NULL, PM_TYPE_U32, NULL);
    printf("item NULL outputs: %d %s\n", sts, err(sts));

    add_indom(fg, "fg.indom", NULL, PM_TYPE_U32, 4);
    add_indom(fg, "fg.indom", NULL, PM_TYPE_STRING, 8);
    add_indom(fg, "fg.big", NULL, PM_TYPE_U32, 3);
    add_indom(fg, "fg.big", "count x 10^-2", PM_TYPE_DOUBLE, 6);
    add_indom(fg, "fg.u32", NULL, PM_TYPE_U32, 2);
    add_indom(fg, "fg.indom", "rate", PM_TYPE_DOUBLE, 4);
    add_indom(fg, "fg.indom", "rate", PM_TYPE_STRING, 4);
    add_indom(fg, "fg.indom", NULL, PM_TYPE_U32, 0);
    sts = pmExtendFetchGroup_indom(fg, "fg.indom", NULL, NULL, NULL, NULL, PM_TYPE_U32, NULL, 4,
                                   NULL, NULL);
    printf("indom NULL outputs: %d %s\n", sts, err(sts));

    /* event fields */
    add_event(fg, "fg.u32", NULL, "fg.u32", NULL, PM_TYPE_U32, 4);
    add_event(fg, "fg.event", NULL, "fg.nosuch", NULL, PM_TYPE_U32, 4);
    add_event(fg, "fg.nosuch", NULL, "fg.u32", NULL, PM_TYPE_U32, 4);
    add_event(fg, "fg.event", NULL, "fg.aggr", NULL, PM_TYPE_U32, 4);
    add_event(fg, "fg.event", NULL, "fg.event", NULL, PM_TYPE_U32, 4);
    add_event(fg, "fg.event", "three", "fg.u32", NULL, PM_TYPE_U32, 4);
    add_event(fg, "fg.evindom", NULL, "fg.u32", NULL, PM_TYPE_U32, 4);
    add_event(fg, "fg.evindom", "eight", "fg.u32", NULL, PM_TYPE_U32, 4);
    add_event(fg, "fg.event", NULL, "fg.u32", "rate", PM_TYPE_DOUBLE, 4);
    add_event(fg, "fg.event", NULL, "fg.ms", "Kbyte", PM_TYPE_DOUBLE, 4);
    add_event(fg, "fg.event", NULL, "fg.ms", "millisec / sec", PM_TYPE_DOUBLE, 4);
    add_event(fg, "fg.event", NULL, "fg.u32", NULL, 99, 4);
    add_event(fg, "fg.event", NULL, "fg.u32", NULL, PM_TYPE_U32, 4);
    add_event(fg, "fg.event", NULL, "fg.u32", NULL, PM_TYPE_STRING, 4);
    add_event(fg, "fg.event", NULL, "fg.u32", NULL, PM_TYPE_U32, 2);
    add_event(fg, "fg.event", NULL, "fg.u32", NULL, PM_TYPE_U32, 0);
    add_event(fg, "fg.event", NULL, "fg.ms", "sec", PM_TYPE_DOUBLE, 4);
    add_event(fg, "fg.event", NULL, "fg.ms", "instant", PM_TYPE_U32, 4);
    add_event(fg, "fg.event", NULL, "fg.string", NULL, PM_TYPE_STRING, 4);
    add_event(fg, "fg.event", NULL, "fg.string", NULL, PM_TYPE_DOUBLE, 4);
    add_event(fg, "fg.event", NULL, "fg.double", NULL, PM_TYPE_32, 4);
    add_event(fg, "fg.event", NULL, "fg.counter", NULL, PM_TYPE_U64, 4);
    add_event(fg, "fg.event", NULL, "fg.indom", NULL, PM_TYPE_U32, 4);
    add_event(fg, "fg.event", NULL, "event.missed", NULL, PM_TYPE_U32, 4);
    add_event(fg, "fg.event", NULL, "event.flags", NULL, PM_TYPE_U32, 4);
    add_event(fg, "fg.hrevent", NULL, "fg.u32", NULL, PM_TYPE_U64, 4);
    add_event(fg, "fg.hrevent", NULL, "fg.ms", "sec", PM_TYPE_FLOAT, 4);
    add_event(fg, "fg.evindom", "eleven", "fg.u32", NULL, PM_TYPE_U32, 4);
    add_event(fg, "fg.evindom", "one", "fg.double", NULL, PM_TYPE_DOUBLE, 4);
    sts = pmExtendFetchGroup_event(fg, "fg.event", NULL, "fg.u32", NULL, NULL, NULL, PM_TYPE_U32,
                                   NULL, 4, NULL, NULL);
    printf("event NULL outputs: %d %s\n", sts, err(sts));

    memset(&tv, 0x5a, sizeof(tv));
    memset(&tv2, 0x5a, sizeof(tv2));
    memset(&ts, 0x5a, sizeof(ts));
    sts = pmExtendFetchGroup_timestamp(fg, &tv);
    printf("timestamp: %d %s zero %d\n", sts, err(sts), tv.tv_sec == 0 && tv.tv_usec == 0);
    sts = pmExtendFetchGroup_timeval(fg, &tv2);
    printf("timeval: %d %s zero %d\n", sts, err(sts), tv2.tv_sec == 0 && tv2.tv_usec == 0);
    sts = pmExtendFetchGroup_timespec(fg, &ts);
    printf("timespec: %d %s zero %d\n", sts, err(sts), ts.tv_sec == 0 && ts.tv_nsec == 0);
    sts = pmExtendFetchGroup_timestamp(fg, NULL);
    printf("timestamp NULL: %d %s\n", sts, err(sts));

    printf("before any fetch:\n");
    print_all(0);
    prev = ts;
    for (int f = 1; f <= 6; f++) {
        struct timespec tsv;
        sts = pmFetchGroup(fg);
        tsv = ts;
        printf("fetch %d: %d %s, stamps agree %d, later %d\n", f, sts, err(sts),
               tv.tv_sec == tv2.tv_sec && tv.tv_usec == tv2.tv_usec && tv.tv_sec == ts.tv_sec &&
                   tv.tv_usec == ts.tv_nsec / 1000,
               f == 1 || seconds(&prev, &tsv) > 0);
        print_all(seconds(&prev, &tsv));
        prev = tsv;
        if (f == 2) {
            /* registrations after fetching */
            add_item(fg, "fg.u32", NULL, NULL, PM_TYPE_DOUBLE, 0);
            add_item(fg, "fg.counter", NULL, NULL, PM_TYPE_DOUBLE, 1);
        }
    }
    printf("which: %d\n", pmWhichContext() == ctx);
    pmUseContext(before);
    sts = pmFetchGroup(fg);
    printf("fetch from another current context: %d %s, current %d\n", sts, err(sts),
           pmWhichContext() == before);
    sts = pmClearFetchGroup(fg);
    printf("clear: %d %s\n", sts, err(sts));
    hide_strings = 1;
    print_all(0);
    sts = pmFetchGroup(fg);
    printf("fetch after clear: %d %s\n", sts, err(sts));
    print_all(0);
    sts = pmDestroyFetchGroup(fg);
    printf("destroy: %d %s\n", sts, err(sts));
    sts = pmUseContext(ctx);
    printf("its context: %d %s\n", sts, err(sts));
    return 0;
}
