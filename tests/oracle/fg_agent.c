/*
 * fg_agent.c - a DSO agent (domain 251, entry point fg_init) for the
 * fetch-group probe: one metric of every type and semantic the fetch-group
 * API converts, with values that depend only on how many fetches the
 * agent has answered (n, counted from 1), so that two processes asking
 * the same questions see the same numbers.  Built once against each
 * libpcp_pmda (tests/oracle/CMakeLists.txt); its namespace is fg.pmns,
 * whose item numbers are the enum below.
 *
 *   fg.u32 ... fg.string   one value of each type, instant
 *   fg.counter             U64 counter in Kbyte, +1000 per fetch
 *   fg.ms                  U32 in millisec
 *   fg.discrete            U32 discrete, no value on even fetches
 *   fg.indom               U32 over instances 7, 3, 11, 1 (no 11 on even fetches)
 *   fg.big                 U32 over six instances
 *   fg.aggr                an aggregate
 *   fg.err                 a per-metric error (PM_ERR_AGAIN) on every fetch
 *   fg.down                32-bit counter that goes down by 100 per fetch
 *   fg.huge                DOUBLE 1e300
 *   fg.dcounter            DOUBLE counter in seconds, +0.5 per fetch
 *   fg.neg                 32-bit instant, -7
 *   fg.bigu64              U64 near 2^64
 *   fg.idown               32-bit instant that goes down by 3 per fetch
 *   fg.string2             more texts than fg.string, for their parsing
 *   fg.event               event records (pmdaEvent*): three records a
 *                          fetch with fg.u32, fg.ms, fg.string and fg.double
 *                          parameters, and a missed-records record
 *   fg.hrevent             the same in a high resolution array (with
 *                          fg.u32 and fg.ms), then a record without
 *                          parameters and one with fg.indom's PMID, a PMID
 *                          without a name (251.0.99) and an aggregate
 *   fg.evindom             event records over fg.indom's instances
 *
 * (Values are left out by editing pmdaFetch's result: a callback that
 * returns 0 makes PCP 6.0.3's pmdaFetch send whatever the value holds.)
 */
#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include <stdio.h>
#include <string.h>

#define FG_DOMAIN 251

enum {
    U32,
    I32,
    U64,
    I64,
    FLT,
    DBL,
    STR,
    COUNTER,
    MS,
    DISCRETE,
    INDOM,
    BIG,
    AGGR,
    ERR,
    DOWN,
    HUGE_,
    DCOUNTER,
    NEG,
    BIGU64,
    IDOWN,
    STR2,
    EVENT,
    HREVENT,
    EVINDOM,
    NMETRICS
};

static pmdaInstid indom_insts[] = {{7, "seven"}, {3, "three"}, {11, "eleven"}, {1, "one"}};
static pmdaInstid big_insts[] = {{0, "a"}, {1, "b"}, {2, "c"}, {3, "d"}, {4, "e"}, {5, "f"}};
static pmdaIndom indoms[] = {
    {0, 4, indom_insts},
    {1, 6, big_insts},
};

#define M(item, type, indom, sem, units)                                                           \
    {                                                                                              \
        NULL,                                                                                      \
        {                                                                                          \
            PMDA_PMID(0, item), type, indom, sem, units                                            \
        }                                                                                          \
    }
#define NONE   PMDA_PMUNITS(0, 0, 0, 0, 0, 0)
#define SINGLE PM_INDOM_NULL

static pmdaMetric metrics[] = {
    M(U32, PM_TYPE_U32, SINGLE, PM_SEM_INSTANT, NONE),
    M(I32, PM_TYPE_32, SINGLE, PM_SEM_INSTANT, NONE),
    M(U64, PM_TYPE_U64, SINGLE, PM_SEM_INSTANT, NONE),
    M(I64, PM_TYPE_64, SINGLE, PM_SEM_INSTANT, NONE),
    M(FLT, PM_TYPE_FLOAT, SINGLE, PM_SEM_INSTANT, NONE),
    M(DBL, PM_TYPE_DOUBLE, SINGLE, PM_SEM_INSTANT, NONE),
    M(STR, PM_TYPE_STRING, SINGLE, PM_SEM_INSTANT, NONE),
    M(COUNTER, PM_TYPE_U64, SINGLE, PM_SEM_COUNTER, PMDA_PMUNITS(1, 0, 0, PM_SPACE_KBYTE, 0, 0)),
    M(MS, PM_TYPE_U32, SINGLE, PM_SEM_INSTANT, PMDA_PMUNITS(0, 1, 0, 0, PM_TIME_MSEC, 0)),
    M(DISCRETE, PM_TYPE_U32, SINGLE, PM_SEM_DISCRETE, NONE),
    M(INDOM, PM_TYPE_U32, 0, PM_SEM_INSTANT, NONE),
    M(BIG, PM_TYPE_U32, 1, PM_SEM_INSTANT, PMDA_PMUNITS(0, 0, 1, 0, 0, PM_COUNT_ONE)),
    M(AGGR, PM_TYPE_AGGREGATE, SINGLE, PM_SEM_INSTANT, NONE),
    M(ERR, PM_TYPE_U32, SINGLE, PM_SEM_INSTANT, NONE),
    M(DOWN, PM_TYPE_32, SINGLE, PM_SEM_COUNTER, PMDA_PMUNITS(0, 0, 1, 0, 0, PM_COUNT_ONE)),
    M(HUGE_, PM_TYPE_DOUBLE, SINGLE, PM_SEM_INSTANT, NONE),
    M(DCOUNTER, PM_TYPE_DOUBLE, SINGLE, PM_SEM_COUNTER, PMDA_PMUNITS(0, 1, 0, 0, PM_TIME_SEC, 0)),
    M(NEG, PM_TYPE_32, SINGLE, PM_SEM_INSTANT, NONE),
    M(BIGU64, PM_TYPE_U64, SINGLE, PM_SEM_INSTANT, NONE),
    M(IDOWN, PM_TYPE_32, SINGLE, PM_SEM_INSTANT, NONE),
    M(STR2, PM_TYPE_STRING, SINGLE, PM_SEM_INSTANT, NONE),
    M(EVENT, PM_TYPE_EVENT, SINGLE, PM_SEM_INSTANT, NONE),
    M(HREVENT, PM_TYPE_HIGHRES_EVENT, SINGLE, PM_SEM_INSTANT, NONE),
    M(EVINDOM, PM_TYPE_EVENT, 0, PM_SEM_INSTANT, NONE),
};

static unsigned int n; /* fetches answered */
static char aggr_blob[] = "blob";
static union {
    pmValueBlock vb;
    char bytes[PM_VAL_HDR_SIZE + 8];
} aggr_param = {.bytes = {0}};
static char *texts[] = {"1e3", "12.5", "text", " 42 "};
static char *texts2[] = {"-inf", "42 ", "0x10", " -7", "nan", ""};

/* pmdaFetch, then on even fetches no fg.discrete and no instance 11 */
static int fg_fetch(int numpmid, pmID pmidlist[], pmResult **resp, pmdaExt *pmda)
{
    int sts;

    n++;
    if ((sts = pmdaFetch(numpmid, pmidlist, resp, pmda)) < 0 || n % 2 != 0)
        return sts;
    for (int i = 0; i < (*resp)->numpmid; i++) {
        pmValueSet *vs = (*resp)->vset[i];
        unsigned int item = pmID_item(vs->pmid);
        if (item == DISCRETE && vs->numval > 0)
            vs->numval = 0; /* insitu values: nothing to free */
        if (item != INDOM)
            continue;
        for (int j = 0; j < vs->numval; j++)
            if (vs->vlist[j].inst == 11) {
                memmove(&vs->vlist[j], &vs->vlist[j + 1],
                        (size_t)(vs->numval - j - 1) * sizeof(vs->vlist[0]));
                vs->numval--;
                break;
            }
    }
    return sts;
}

/* The event records of fetch n (instance inst, or PM_IN_NULL) into the
 * array of the kind asked for: its address.  pmdaFetch sends the array
 * itself, not a copy, so each instance has an array of its own. */
static pmValueBlock *events(int highres, unsigned int inst)
{
    static int arrays[16] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
    int *a = &arrays[highres ? 1 : inst == PM_IN_NULL ? 0 : 2 + inst % 14];
    pmAtomValue v;
    unsigned int base = inst == PM_IN_NULL ? 0 : inst * 1000;

    if (*a < 0)
        *a = highres ? pmdaEventNewHighResArray() : pmdaEventNewArray();
    if (highres) {
        struct timespec ts = {1000 + n, 250};
        pmdaEventResetHighResArray(*a);
        pmdaEventAddHighResRecord(*a, &ts, PM_EVENT_FLAG_POINT);
        v.ul = base + n;
        pmdaEventAddHighResParam(*a, pmID_build(251, 0, U32), PM_TYPE_U32, &v);
        v.ul = 1500 * n;
        pmdaEventAddHighResParam(*a, pmID_build(251, 0, MS), PM_TYPE_U32, &v);
        ts.tv_nsec = 999999999;
        pmdaEventAddHighResMissedRecord(*a, &ts, 3);
        pmdaEventAddHighResRecord(*a, &ts, 0);
        v.ul = base + n + 100;
        pmdaEventAddHighResParam(*a, pmID_build(251, 0, U32), PM_TYPE_U32, &v);
        pmdaEventAddHighResRecord(*a, &ts, 0); /* no parameters */
        pmdaEventAddHighResRecord(*a, &ts, PM_EVENT_FLAG_POINT);
        v.ul = n + 5; /* a parameter of a metric with instances */
        pmdaEventAddHighResParam(*a, pmID_build(251, 0, INDOM), PM_TYPE_U32, &v);
        pmdaEventAddHighResParam(*a, pmID_build(251, 0, 99), PM_TYPE_U32, &v); /* no name */
        v.vbp = &aggr_param.vb;
        pmdaEventAddHighResParam(*a, pmID_build(251, 0, AGGR), PM_TYPE_AGGREGATE, &v);
        return (pmValueBlock *)pmdaEventGetHighResAddr(*a);
    } else {
        struct timeval tv = {1000 + n, 250};
        pmdaEventResetArray(*a);
        pmdaEventAddRecord(*a, &tv, PM_EVENT_FLAG_POINT);
        v.ul = base + n;
        pmdaEventAddParam(*a, pmID_build(251, 0, U32), PM_TYPE_U32, &v);
        v.ul = 1500 * n;
        pmdaEventAddParam(*a, pmID_build(251, 0, MS), PM_TYPE_U32, &v);
        v.cp = texts[n % 4];
        pmdaEventAddParam(*a, pmID_build(251, 0, STR), PM_TYPE_STRING, &v);
        tv.tv_usec = 500;
        pmdaEventAddMissedRecord(*a, &tv, 3);
        pmdaEventAddRecord(*a, &tv, PM_EVENT_FLAG_START);
        v.ul = base + n + 100;
        pmdaEventAddParam(*a, pmID_build(251, 0, U32), PM_TYPE_U32, &v);
        v.d = 0.5 * n;
        pmdaEventAddParam(*a, pmID_build(251, 0, DBL), PM_TYPE_DOUBLE, &v);
        v.ul = base + n + 200;
        pmdaEventAddParam(*a, pmID_build(251, 0, U32), PM_TYPE_U32, &v);
        return (pmValueBlock *)pmdaEventGetAddr(*a);
    }
}

static int fg_value(pmdaMetric *mdesc, unsigned int inst, pmAtomValue *atom)
{
    unsigned int item = pmID_item(mdesc->m_desc.pmid);

    if (item == EVINDOM) {
        atom->vbp = events(0, inst);
        return 1;
    }
    if (item == INDOM || item == BIG) {
        atom->ul = inst * 100 + n;
        return 1;
    }
    if (inst != PM_IN_NULL)
        return PM_ERR_INST;
    switch (item) {
    case U32:
        atom->ul = 10 * n;
        break;
    case I32:
        atom->l = -5 * (int)n;
        break;
    case U64:
        atom->ull = (1ULL << 40) + n;
        break;
    case I64:
        atom->ll = -(1LL << 35) - n;
        break;
    case FLT:
        atom->f = 1.5f * (float)n;
        break;
    case DBL:
        atom->d = 1e10 + 0.25 * n;
        break;
    case STR:
        atom->cp = texts[n % 4];
        break;
    case COUNTER:
        atom->ull = 1000ULL * n;
        break;
    case MS:
        atom->ul = 1500 * n;
        break;
    case DISCRETE:
        atom->ul = 7 * n;
        break;
    case AGGR:
        atom->vbp = (pmValueBlock *)aggr_blob; /* never fetched: the probe cannot register it */
        return PM_ERR_TYPE;
    case ERR:
        return PM_ERR_AGAIN;
    case DOWN:
        atom->l = 1000 - 100 * (int)n;
        break;
    case HUGE_:
        atom->d = 1e300;
        break;
    case DCOUNTER:
        atom->d = 0.5 * n;
        break;
    case NEG:
        atom->l = -7;
        break;
    case BIGU64:
        atom->ull = ~0ULL - 1000 + n;
        break;
    case EVENT:
    case HREVENT:
        atom->vbp = events(item == HREVENT, PM_IN_NULL);
        break;
    case STR2:
        atom->cp = texts2[n % 6];
        break;
    case IDOWN:
        atom->l = 50 - 3 * (int)n;
        break;
    default:
        return PM_ERR_PMID;
    }
    return 1;
}

void __PMDA_INIT_CALL fg_init(pmdaInterface *dp); /* the entry point, found by name */

void __PMDA_INIT_CALL fg_init(pmdaInterface *dp)
{
    pmdaDSO(dp, PMDA_INTERFACE_2, "fetch-group probe agent", NULL);
    if (dp->status != 0)
        return;
    aggr_param.vb.vtype = PM_TYPE_AGGREGATE;
    aggr_param.vb.vlen = PM_VAL_HDR_SIZE + 5;
    memcpy(aggr_param.vb.vbuf, "\x01\x7f\x80\xff", 5);
    dp->version.any.fetch = fg_fetch;
    pmdaSetFetchCallBack(dp, fg_value);
    pmdaInit(dp, indoms, sizeof(indoms) / sizeof(indoms[0]), metrics,
             sizeof(metrics) / sizeof(metrics[0]));
}
