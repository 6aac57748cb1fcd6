/*
 * dm_agent.c - a DSO agent (domain 245, entry point dm_init) for the
 * derived-metric tests: operands of every type, semantics and dimension,
 * counters that wrap, values that come and go, and instance domains that
 * differ, each value a function of n, the number of fetches answered
 * (from 1), so that two processes asking the same questions see the same
 * numbers.  Built once against each libpcp_pmda (tests/oracle/
 * CMakeLists.txt); its namespace is dm.pmns (cluster.item as below), its
 * help dm.help.
 *
 *   0.*   singular instant metrics of each type, no units
 *   1.*   counters: U32 and U64 that wrap, 32- and 64-bit signed, FLOAT,
 *         DOUBLE seconds, Kbyte, millisec, microsec, a U64 that goes down
 *   2.*   instant metrics with units: byte, Kbyte, Mbyte/sec, millisec,
 *         sec, count, count x 10^3, byte/sec, /sec, discrete ones
 *   3.*   over indom 0: zero one two three five (two is missing on even
 *         fetches), of several types, counters, strings
 *   4.*   over indom 1: eth0 eth1 lo
 *   5.*   over indom 2 (one instance) and indom 3 (none); indom 0 with
 *         only zero and one (3.9 lives here, as dm.ia.sparse)
 *   6.*   values that go missing: none on even fetches, an error each
 *         fetch, a string, an aggregate, event records; a singular
 *         metric that answers two values
 *   7.*   instant metrics of each numeric type (32 U32 64 U64 FLOAT
 *         DOUBLE) in each of six units (none, byte, Kbyte, millisec, sec,
 *         count): item 6 * type + unit, value (item + 1) * n
 *
 * dm_fetch_hook, when a test sets it (unit.derived, through dlsym), is
 * called first by each fetch: a moment inside the library's fetch.
 */
#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define DM_DOMAIN 245

static pmdaInstid ia[] = {{0, "zero"}, {1, "one"}, {2, "two"}, {3, "three"}, {5, "five"}};
static pmdaInstid ib[] = {{10, "eth0"}, {11, "eth1"}, {12, "lo"}};
static pmdaInstid ic[] = {{7, "only"}};
static pmdaIndom indoms[] = {{0, 5, ia}, {1, 3, ib}, {2, 1, ic}, {3, 0, NULL}};

#define U(ds, dt, dc, ss, st, sc) PMDA_PMUNITS(ds, dt, dc, ss, st, sc)
#define NONE                      U(0, 0, 0, 0, 0, 0)
#define M(c, i, type, indom, sem, units)                                                           \
    {                                                                                              \
        NULL,                                                                                      \
        {                                                                                          \
            PMDA_PMID(c, i), type, indom, sem, units                                               \
        }                                                                                          \
    }
#define S PM_INDOM_NULL

static pmdaMetric metrics[] = {
    /* 0: singular instant, no units */
    M(0, 0, PM_TYPE_U32, S, PM_SEM_INSTANT, NONE),
    M(0, 1, PM_TYPE_32, S, PM_SEM_INSTANT, NONE),
    M(0, 2, PM_TYPE_U64, S, PM_SEM_INSTANT, NONE),
    M(0, 3, PM_TYPE_64, S, PM_SEM_INSTANT, NONE),
    M(0, 4, PM_TYPE_FLOAT, S, PM_SEM_INSTANT, NONE),
    M(0, 5, PM_TYPE_DOUBLE, S, PM_SEM_INSTANT, NONE),
    M(0, 6, PM_TYPE_U32, S, PM_SEM_DISCRETE, NONE),
    M(0, 7, PM_TYPE_32, S, PM_SEM_INSTANT, NONE),  /* small: 0, 1, 2, 0, ... */
    M(0, 8, PM_TYPE_U32, S, PM_SEM_INSTANT, NONE), /* 0 always */
    /* 1: counters */
    M(1, 0, PM_TYPE_U32, S, PM_SEM_COUNTER, U(0, 0, 1, 0, 0, PM_COUNT_ONE)),
    M(1, 1, PM_TYPE_U64, S, PM_SEM_COUNTER, U(1, 0, 0, PM_SPACE_BYTE, 0, 0)),
    M(1, 2, PM_TYPE_32, S, PM_SEM_COUNTER, U(0, 0, 1, 0, 0, PM_COUNT_ONE)),
    M(1, 3, PM_TYPE_64, S, PM_SEM_COUNTER, U(0, 0, 1, 0, 0, PM_COUNT_ONE)),
    M(1, 4, PM_TYPE_FLOAT, S, PM_SEM_COUNTER, U(0, 0, 1, 0, 0, PM_COUNT_ONE)),
    M(1, 5, PM_TYPE_DOUBLE, S, PM_SEM_COUNTER, U(0, 1, 0, 0, PM_TIME_SEC, 0)),
    M(1, 6, PM_TYPE_U64, S, PM_SEM_COUNTER, U(1, 0, 0, PM_SPACE_KBYTE, 0, 0)),
    M(1, 7, PM_TYPE_U32, S, PM_SEM_COUNTER, U(0, 1, 0, 0, PM_TIME_MSEC, 0)),
    M(1, 8, PM_TYPE_U64, S, PM_SEM_COUNTER, U(0, 1, 0, 0, PM_TIME_USEC, 0)),
    M(1, 9, PM_TYPE_U64, S, PM_SEM_COUNTER, U(0, 0, 1, 0, 0, PM_COUNT_ONE)),
    M(1, 10, PM_TYPE_U32, S, PM_SEM_COUNTER, NONE),
    /* 2: instant with units, discrete */
    M(2, 0, PM_TYPE_U64, S, PM_SEM_INSTANT, U(1, 0, 0, PM_SPACE_BYTE, 0, 0)),
    M(2, 1, PM_TYPE_U32, S, PM_SEM_INSTANT, U(1, 0, 0, PM_SPACE_KBYTE, 0, 0)),
    M(2, 2, PM_TYPE_FLOAT, S, PM_SEM_INSTANT, U(1, -1, 0, PM_SPACE_MBYTE, PM_TIME_SEC, 0)),
    M(2, 3, PM_TYPE_U32, S, PM_SEM_INSTANT, U(0, 1, 0, 0, PM_TIME_MSEC, 0)),
    M(2, 4, PM_TYPE_DOUBLE, S, PM_SEM_INSTANT, U(0, 1, 0, 0, PM_TIME_SEC, 0)),
    M(2, 5, PM_TYPE_U32, S, PM_SEM_INSTANT, U(0, 0, 1, 0, 0, PM_COUNT_ONE)),
    M(2, 6, PM_TYPE_U32, S, PM_SEM_INSTANT, U(0, 0, 1, 0, 0, 3)),
    M(2, 7, PM_TYPE_DOUBLE, S, PM_SEM_INSTANT, U(1, -1, 0, PM_SPACE_BYTE, PM_TIME_SEC, 0)),
    M(2, 8, PM_TYPE_DOUBLE, S, PM_SEM_INSTANT, U(0, -1, 1, 0, PM_TIME_SEC, PM_COUNT_ONE)),
    M(2, 9, PM_TYPE_U32, S, PM_SEM_DISCRETE, U(1, 0, 0, PM_SPACE_BYTE, 0, 0)),
    M(2, 10, PM_TYPE_64, S, PM_SEM_DISCRETE, NONE),
    /* 3: indom 0 */
    M(3, 0, PM_TYPE_U32, 0, PM_SEM_INSTANT, NONE),
    M(3, 1, PM_TYPE_U64, 0, PM_SEM_COUNTER, U(1, 0, 0, PM_SPACE_BYTE, 0, 0)),
    M(3, 2, PM_TYPE_DOUBLE, 0, PM_SEM_INSTANT, NONE),
    M(3, 3, PM_TYPE_32, 0, PM_SEM_INSTANT, NONE),
    M(3, 4, PM_TYPE_STRING, 0, PM_SEM_INSTANT, NONE),
    M(3, 5, PM_TYPE_U32, 0, PM_SEM_COUNTER, U(0, 1, 0, 0, PM_TIME_MSEC, 0)),
    M(3, 6, PM_TYPE_FLOAT, 0, PM_SEM_INSTANT, U(1, 0, 0, PM_SPACE_KBYTE, 0, 0)),
    M(3, 7, PM_TYPE_64, 0, PM_SEM_DISCRETE, NONE),
    M(3, 8, PM_TYPE_U32, 0, PM_SEM_COUNTER, U(0, 0, 1, 0, 0, PM_COUNT_ONE)),
    M(3, 9, PM_TYPE_U32, 0, PM_SEM_INSTANT, NONE), /* only zero and one */
    /* 4: indom 1 */
    M(4, 0, PM_TYPE_U32, 1, PM_SEM_INSTANT, NONE),
    M(4, 1, PM_TYPE_U64, 1, PM_SEM_COUNTER, U(1, 0, 0, PM_SPACE_BYTE, 0, 0)),
    M(4, 2, PM_TYPE_DOUBLE, 1, PM_SEM_INSTANT, NONE),
    /* 5: indom 2 (one instance), indom 3 (none) */
    M(5, 0, PM_TYPE_U32, 2, PM_SEM_INSTANT, NONE),
    M(5, 1, PM_TYPE_U32, 3, PM_SEM_INSTANT, NONE),
    /* 6: values that go missing, and types no arithmetic takes */
    M(6, 0, PM_TYPE_U32, S, PM_SEM_INSTANT, NONE),
    M(6, 1, PM_TYPE_U32, S, PM_SEM_INSTANT, NONE),
    M(6, 2, PM_TYPE_STRING, S, PM_SEM_INSTANT, NONE),
    M(6, 3, PM_TYPE_AGGREGATE, S, PM_SEM_INSTANT, NONE),
    M(6, 4, PM_TYPE_EVENT, S, PM_SEM_INSTANT, NONE),
    M(6, 5, PM_TYPE_U64, S, PM_SEM_COUNTER, U(1, 0, 0, PM_SPACE_BYTE, 0, 0)),
    M(6, 6, PM_TYPE_U32, S, PM_SEM_INSTANT, NONE), /* two values (dm_fetch) */
/* 7: every numeric type in six units (units of item % 6, below) */
#define T6(type)                                                                                   \
    M(7, 6 * (type), type, S, PM_SEM_INSTANT, NONE),                                               \
        M(7, 6 * (type) + 1, type, S, PM_SEM_INSTANT, U(1, 0, 0, PM_SPACE_BYTE, 0, 0)),            \
        M(7, 6 * (type) + 2, type, S, PM_SEM_INSTANT, U(1, 0, 0, PM_SPACE_KBYTE, 0, 0)),           \
        M(7, 6 * (type) + 3, type, S, PM_SEM_INSTANT, U(0, 1, 0, 0, PM_TIME_MSEC, 0)),             \
        M(7, 6 * (type) + 4, type, S, PM_SEM_INSTANT, U(0, 1, 0, 0, PM_TIME_SEC, 0)),              \
        M(7, 6 * (type) + 5, type, S, PM_SEM_INSTANT, U(0, 0, 1, 0, 0, PM_COUNT_ONE))
    T6(PM_TYPE_32),
    T6(PM_TYPE_U32),
    T6(PM_TYPE_64),
    T6(PM_TYPE_U64),
    T6(PM_TYPE_FLOAT),
    T6(PM_TYPE_DOUBLE),
};

static unsigned int n; /* fetches answered */
static char aggr_blob[] = "blob";
static char *strings[] = {"alpha", "beta", "", "delta delta"};

/* The set of 6.6, which has no instances: its one value and another. */
static pmValueSet *two_values(pmValueSet *vs)
{
    pmValueSet *two = malloc(sizeof(*two) + sizeof(two->vlist[0]));

    if (two == NULL || vs->numval != 1 || vs->valfmt != PM_VAL_INSITU) {
        free(two);
        return vs;
    }
    *two = *vs;
    two->numval = 2;
    two->vlist[1].inst = PM_IN_NULL;
    two->vlist[1].value.lval = 9 * (int)n;
    free(vs);
    return two;
}

/* pmdaFetch, then no instances of 3.9 but zero and one, two values of
 * 6.6, and on even fetches no 6.0, 6.5 and no instance 2 of indom 0 */
void (*dm_fetch_hook)(void);

static int dm_fetch(int numpmid, pmID pmidlist[], pmResult **resp, pmdaExt *pmda)
{
    int sts;

    if (dm_fetch_hook != NULL)
        dm_fetch_hook();
    n++;
    if ((sts = pmdaFetch(numpmid, pmidlist, resp, pmda)) < 0)
        return sts;
    for (int i = 0; i < (*resp)->numpmid; i++) {
        pmValueSet *vs = (*resp)->vset[i];
        if (pmID_cluster(vs->pmid) == 3 && pmID_item(vs->pmid) == 9 && vs->numval > 2)
            vs->numval = 2; /* zero and one come first: insitu values */
        if (pmID_cluster(vs->pmid) == 6 && pmID_item(vs->pmid) == 6)
            (*resp)->vset[i] = two_values(vs);
    }
    if (n % 2 != 0)
        return sts;
    for (int i = 0; i < (*resp)->numpmid; i++) {
        pmValueSet *vs = (*resp)->vset[i];
        unsigned int c = pmID_cluster(vs->pmid), item = pmID_item(vs->pmid);
        if (c == 6 && (item == 0 || item == 5) && vs->numval > 0 && vs->valfmt == PM_VAL_INSITU)
            vs->numval = 0; /* insitu values: nothing to free */
        if (c != 3)
            continue;
        for (int j = 0; j < vs->numval; j++)
            if (vs->vlist[j].inst == 2) {
                if (vs->valfmt == PM_VAL_DPTR)
                    break; /* out-of-line values: keep (freed with the set) */
                memmove(&vs->vlist[j], &vs->vlist[j + 1],
                        (size_t)(vs->numval - j - 1) * sizeof(vs->vlist[0]));
                vs->numval--;
                break;
            }
    }
    return sts;
}

static int singular(unsigned int item, pmAtomValue *a)
{
    switch (item) {
    case 0:
        a->ul = 10 * n;
        break;
    case 1:
        a->l = -5 * (int)n + 3;
        break;
    case 2:
        a->ull = (1ULL << 40) + n;
        break;
    case 3:
        a->ll = -(1LL << 35) - n;
        break;
    case 4:
        a->f = 1.5f * (float)n;
        break;
    case 5:
        a->d = 1e10 + 0.25 * n;
        break;
    case 6:
        a->ul = 7 * n;
        break;
    case 7:
        a->l = (int)(n % 3);
        break;
    default:
        a->ul = 0;
    }
    return 1;
}

static int counter(unsigned int item, pmAtomValue *a)
{
    switch (item) {
    case 0: /* wraps between fetches 2 and 3 */
        a->ul = UINT32_MAX - 2500 + 1000 * n;
        break;
    case 1: /* wraps between fetches 3 and 4 */
        a->ull = UINT64_MAX - 3500 + 1000ULL * n;
        break;
    case 2: /* passes INT32_MAX between fetches 2 and 3 */
        a->l = (int32_t)(uint32_t)((uint32_t)INT32_MAX - 2500 + 1000 * n);
        break;
    case 3:
        a->ll = (1LL << 40) + 3 * (long long)n;
        break;
    case 4:
        a->f = 0.5f * (float)n;
        break;
    case 5:
        a->d = 0.75 * n;
        break;
    case 6:
        a->ull = 4096ULL * n;
        break;
    case 7:
        a->ul = 250 * n;
        break;
    case 8:
        a->ull = 100000ULL * n;
        break;
    case 9: /* goes down */
        a->ull = 100000ULL - 7 * n;
        break;
    default:
        a->ul = 3 * n;
    }
    return 1;
}

static int withunits(unsigned int item, pmAtomValue *a)
{
    switch (item) {
    case 0:
        a->ull = 1048576ULL * n + 512;
        break;
    case 2:
        a->f = 2.5f * (float)n;
        break;
    case 4:
        a->d = 0.125 * n;
        break;
    case 7:
    case 8:
        a->d = 1000.0 / n;
        break;
    case 10:
        a->ll = -(long long)n;
        break;
    default:
        a->ul = 100 * n + item;
    }
    return 1;
}

static int indom0(unsigned int item, unsigned int inst, pmAtomValue *a)
{
    switch (item) {
    case 1:
        a->ull = 10000ULL * inst + 100 * n;
        break;
    case 2:
        a->d = inst + 0.5 * n;
        break;
    case 3:
        a->l = (int)inst * 10 - (int)n;
        break;
    case 4:
        a->cp = strings[(inst + n) % 4];
        break;
    case 5:
        a->ul = 40 * inst * n;
        break;
    case 6:
        a->f = 0.25f * (float)(inst + n);
        break;
    case 7:
        a->ll = (long long)inst - 2;
        break;
    case 8: /* wraps for instance 5 */
        a->ul = inst == 5 ? UINT32_MAX - 1500 + 1000 * n : inst * n;
        break;
    case 9: /* only zero and one are kept (dm_fetch) */
        a->ul = inst + n;
        break;
    default:
        a->ul = inst * 100 + n;
    }
    return 1;
}

/* cluster 7: (item + 1) * n in the metric's type */
static int typed(int type, unsigned int item, pmAtomValue *a)
{
    unsigned int v = (item + 1) * n;

    switch (type) {
    case PM_TYPE_32:
        a->l = (int)v;
        break;
    case PM_TYPE_U32:
        a->ul = v;
        break;
    case PM_TYPE_64:
        a->ll = v;
        break;
    case PM_TYPE_U64:
        a->ull = v;
        break;
    case PM_TYPE_FLOAT:
        a->f = (float)v;
        break;
    default:
        a->d = v;
    }
    return 1;
}

static int dm_value(pmdaMetric *mdesc, unsigned int inst, pmAtomValue *a)
{
    unsigned int c = pmID_cluster(mdesc->m_desc.pmid), item = pmID_item(mdesc->m_desc.pmid);

    if (mdesc->m_desc.indom == PM_INDOM_NULL && inst != PM_IN_NULL)
        return PM_ERR_INST;
    switch (c) {
    case 0:
        return singular(item, a);
    case 1:
        return counter(item, a);
    case 2:
        return withunits(item, a);
    case 3:
        return indom0(item, inst, a);
    case 4:
        a->ul = item == 1 ? (unsigned)(inst * 1000 + 500 * n) : inst + n;
        if (item == 1)
            a->ull = 1000ULL * inst + 500ULL * n;
        if (item == 2)
            a->d = inst * 0.5 + n;
        return 1;
    case 5:
        a->ul = inst + 3 * n;
        return 1;
    case 7:
        return typed(mdesc->m_desc.type, item, a);
    default:
        break;
    }
    switch (item) {
    case 0:
        a->ul = 11 * n;
        return 1;
    case 1:
        return PM_ERR_AGAIN;
    case 2:
        a->cp = strings[n % 4];
        return 1;
    case 3:
        a->vbp = (pmValueBlock *)aggr_blob; /* never fetched: no test asks */
        return PM_ERR_TYPE;
    case 5:
        a->ull = 5000ULL * n;
        return 1;
    case 6:
        a->ul = 4 * n;
        return 1;
    default:
        return PM_ERR_PMID;
    }
}

void __PMDA_INIT_CALL dm_init(pmdaInterface *dp); /* the entry point, found by name */

void __PMDA_INIT_CALL dm_init(pmdaInterface *dp)
{
    pmdaDSO(dp, PMDA_INTERFACE_2, "derived-metric probe agent", NULL);
    if (dp->status != 0)
        return;
    dp->version.any.fetch = dm_fetch;
    pmdaSetFetchCallBack(dp, dm_value);
    pmdaInit(dp, indoms, sizeof(indoms) / sizeof(indoms[0]), metrics,
             sizeof(metrics) / sizeof(metrics[0]));
}
