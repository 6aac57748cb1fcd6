/*
 * probe_derived.c - derived metrics over a local context, from one source
 * built twice, against pmkit and against Debian's libpcp: registration,
 * binding (descriptors, or PCP's semantic error on stderr), and the values
 * of several fetches of the test agent dm_agent.c, whose values depend
 * only on the number of fetches.
 *
 *   probe_derived PMNS AGENT_SO CASES
 *
 * CASES: lines "NAME = EXPR" register global derived metrics before the
 * context is opened; "@fetch N" sets the number of fetches (default 4);
 * "@ctx NAME = EXPR" adds a per-context metric once it is open; "@alone"
 * fetches each metric on its own too, last first, after the fetches of
 * all together (requests whose operands sit elsewhere); '#' starts a
 * comment.  Every metric is then described in order (which binds it, so
 * PCP prints its semantic errors then), and fetched, all together, N
 * times.
 *
 * Time: the probe's clock_gettime and gettimeofday stand in for the C
 * library's (the libraries' calls bind to the executable's), so that the
 * real time clock reads 1000000000 + 2.5 k seconds during fetch k and
 * rates are exact (the build exports them: default visibility, and
 * ENABLE_EXPORTS).  stderr goes to stdout, so that messages are seen
 * where they are printed.
 */
#define _GNU_SOURCE
#include <pcp/pmapi.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

/* the real time clock the libraries see */
static long long fake_ns = 1000000000LL * 1000000000LL;

__attribute__((visibility("default"))) int clock_gettime(clockid_t clk, struct timespec *ts)
{
    if (clk != CLOCK_REALTIME && clk != CLOCK_REALTIME_COARSE)
        return (int)syscall(SYS_clock_gettime, clk, ts);
    ts->tv_sec = (time_t)(fake_ns / 1000000000LL);
    ts->tv_nsec = (long)(fake_ns % 1000000000LL);
    return 0;
}

__attribute__((visibility("default"))) int gettimeofday(struct timeval *tv, void *tz)
{
    (void)tz;
    tv->tv_sec = (time_t)(fake_ns / 1000000000LL);
    tv->tv_usec = (long)(fake_ns % 1000000000LL / 1000);
    return 0;
}

#define MAXM 8192

static char *names[MAXM];
static pmID pmids[MAXM];
static pmDesc descs[MAXM];
static int nm, nfetch = 4, alone;

static void print_value(const pmValueSet *vs, int j, const pmDesc *d)
{
    pmAtomValue a;
    int sts = pmExtractValue(vs->valfmt, &vs->vlist[j], d->type, &a, d->type);

    if (sts < 0) {
        printf("extract: %s", pmErrStr(sts));
        return;
    }
    switch (d->type) {
    case PM_TYPE_32:
        printf("%d", a.l);
        break;
    case PM_TYPE_U32:
        printf("%u", a.ul);
        break;
    case PM_TYPE_64:
        printf("%lld", (long long)a.ll);
        break;
    case PM_TYPE_U64:
        printf("%llu", (unsigned long long)a.ull);
        break;
    case PM_TYPE_FLOAT:
        printf("%.9g", (double)a.f);
        break;
    case PM_TYPE_DOUBLE:
        printf("%.17g", a.d);
        break;
    case PM_TYPE_STRING:
        printf("\"%s\"", a.cp);
        free(a.cp);
        break;
    default:
        printf("(type %d)", d->type);
    }
}

static void print_vset(pmValueSet *vs, const pmDesc *d)
{
    if (vs->numval < 0) {
        printf(" %s\n", pmErrStr(vs->numval));
        return;
    }
    if (vs->numval == 0) {
        printf(" no values\n");
        return;
    }
    /* in the order given: PCP's order is part of the answer */
    for (int j = 0; j < vs->numval; j++) {
        if (vs->vlist[j].inst == (int)PM_IN_NULL)
            printf(" ");
        else
            printf(" [%d] ", vs->vlist[j].inst);
        print_value(vs, j, d);
    }
    printf("\n");
}

static void add_metric(const char *name, const char *expr, int per_context)
{
    char *msg = NULL;
    int sts;

    if (nm == MAXM)
        return;
    names[nm++] = strdup(name);
    if (per_context)
        sts = pmAddDerivedMetric(name, expr, &msg);
    else
        sts = pmRegisterDerivedMetric(name, expr, &msg);
    if (sts < 0) {
        printf("register %s: %d\n", name, sts);
        if (msg != NULL)
            fputs(msg, stdout);
        free(msg);
    }
}

/* "NAME = EXPR": the two parts, or 0 */
static int split(char *line, char **name, char **expr)
{
    char *eq = strstr(line, " = ");

    if (eq == NULL)
        return 0;
    *eq = '\0';
    *name = line;
    *expr = eq + 3;
    return 1;
}

static void describe(void)
{
    for (int i = 0; i < nm; i++) {
        int sts = pmLookupName(1, (const char **)&names[i], &pmids[i]);
        if (sts < 0) {
            printf("%s: lookup: %s\n", names[i], pmErrStr(sts));
            pmids[i] = PM_ID_NULL;
            continue;
        }
        if ((sts = pmLookupDesc(pmids[i], &descs[i])) < 0) {
            printf("%s: desc: %s\n", names[i], pmErrStr(sts));
            descs[i].type = PM_TYPE_NOSUPPORT;
            continue;
        }
        unsigned int raw;
        memcpy(&raw, &descs[i].units, sizeof(raw));
        printf("%s: %s type %s indom %s sem %s units [%s] %08x\n", names[i], pmIDStr(pmids[i]),
               pmTypeStr(descs[i].type), pmInDomStr(descs[i].indom), pmSemStr(descs[i].sem),
               pmUnitsStr(&descs[i].units), raw);
    }
}

static void fetch_all(void)
{
    pmID *list = calloc((size_t)nm + 1, sizeof(pmID));
    int *idx = calloc((size_t)nm + 1, sizeof(int)), m = 0;

    for (int i = 0; i < nm; i++)
        if (pmids[i] != PM_ID_NULL) {
            idx[m] = i;
            list[m++] = pmids[i];
        }
    for (int f = 0; f < nfetch && m > 0; f++) {
        pmResult *r;
        fake_ns += 2500000000LL;
        int sts = pmFetch(m, list, &r);
        printf("fetch %d: %s\n", f, sts < 0 ? pmErrStr(sts) : "ok");
        if (sts < 0)
            continue;
        for (int k = 0; k < m; k++) {
            printf("  %s:", names[idx[k]]);
            print_vset(r->vset[k], &descs[idx[k]]);
        }
        pmFreeResult(r);
    }
    for (int k = m - 1; alone && k >= 0; k--) {
        pmResult *r;
        fake_ns += 2500000000LL;
        int sts = pmFetch(1, &list[k], &r);
        printf("alone %s:", names[idx[k]]);
        if (sts < 0) {
            printf(" %s\n", pmErrStr(sts));
            continue;
        }
        print_vset(r->vset[0], &descs[idx[k]]);
        pmFreeResult(r);
    }
    free(list);
    free(idx);
}

int main(int argc, char **argv)
{
    static char line[65536], *ctx_lines[MAXM];
    int nctx = 0, sts;
    char spec[4096], *name, *expr, *err;
    FILE *f;

    if (argc != 4) {
        fprintf(stderr, "usage: %s PMNS AGENT_SO CASES\n", argv[0]);
        return 2;
    }
    setvbuf(stdout, NULL, _IONBF, 0);
    dup2(1, 2);
    if ((sts = pmLoadASCIINameSpace(argv[1], 1)) < 0) {
        printf("namespace: %s\n", pmErrStr(sts));
        return 1;
    }
    snprintf(spec, sizeof(spec), "add,245,%s,dm_init", argv[2]);
    if ((err = pmSpecLocalPMDA("clear")) != NULL || (err = pmSpecLocalPMDA(spec)) != NULL) {
        printf("pmSpecLocalPMDA: %s\n", err);
        return 1;
    }
    if ((f = fopen(argv[3], "r")) == NULL) {
        perror(argv[3]);
        return 1;
    }
    while (fgets(line, sizeof(line), f) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0] == '#' || line[0] == '\0')
            continue;
        if (strncmp(line, "@fetch ", 7) == 0)
            nfetch = atoi(line + 7);
        else if (strcmp(line, "@alone") == 0)
            alone = 1;
        else if (strncmp(line, "@ctx ", 5) == 0 && nctx < MAXM)
            ctx_lines[nctx++] = strdup(line + 5);
        else if (split(line, &name, &expr))
            add_metric(name, expr, 0);
    }
    fclose(f);
    if ((sts = pmNewContext(PM_CONTEXT_LOCAL, NULL)) < 0) {
        printf("pmNewContext: %s\n", pmErrStr(sts));
        return 1;
    }
    for (int i = 0; i < nctx; i++)
        if (split(ctx_lines[i], &name, &expr))
            add_metric(name, expr, 1);
    describe();
    fetch_all();
    return 0;
}
