/*
 * Unit tests for libpcp_pmda's agent side, called directly (no context):
 * pmdaDSO defaults, pmdaInit's identifier stamping and table checks, the
 * fetch callback return codes of interfaces 2, 3 and 5 (as observed with a
 * probe agent under Debian's PCP 6.0.3), value formats, numval on
 * failure, pmdaInstance's three query forms and its "text before the first
 * space" rule, profile filtering, and the instance-domain cache.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* RTLD_NEXT */
#endif
#include <dlfcn.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>

#include <pcp/pmapi.h>
#include <pcp/pmda.h>

enum { DOM = 42 };

/* libpcp's, as pmcd and libpcp free what an agent returns (PCP's libpcp.h) */
void __pmFreeInResult(pmInResult *res);

/* While set, realloc fails: this definition stands in front of the C
 * library's (or the sanitizer's) for the whole test program. */
static int realloc_fails;

void *realloc(void *p, size_t size)
{
    static void *(*next)(void *, size_t);

    if (realloc_fails)
        return NULL;
    if (next == NULL) {
        void *sym = dlsym(RTLD_NEXT, "realloc");
        memcpy(&next, &sym, sizeof(next));
    }
    return next(p, size);
}

static pmdaInstid colours[] = {{0, "red"}, {1, "green light"}, {5, "blue"}};
static pmdaIndom indoms[1];
static pmdaMetric metrics[5];
static int callback_status; /* what the callback returns for metric 0 */
static int calls;

static void reset_tables(void)
{
    static const pmdaMetric proto[5] = {
        {NULL, {PMDA_PMID(0, 0), PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT, {0}}},
        {NULL, {PMDA_PMID(0, 1), PM_TYPE_32, 0, PM_SEM_INSTANT, {0}}},
        {NULL, {PMDA_PMID(1, 2), PM_TYPE_DOUBLE, PM_INDOM_NULL, PM_SEM_COUNTER, {0}}},
        {NULL, {PMDA_PMID(1, 3), PM_TYPE_STRING, PM_INDOM_NULL, PM_SEM_DISCRETE, {0}}},
        {NULL, {PMDA_PMID(2, 4), PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, {0}}},
    };
    memcpy(metrics, proto, sizeof(metrics));
    indoms[0].it_indom = 0;
    indoms[0].it_numinst = 3;
    indoms[0].it_set = colours;
    calls = 0;
}

static int fetch_cb(pmdaMetric *m, unsigned int inst, pmAtomValue *atom)
{
    calls++;
    switch (pmID_item(m->m_desc.pmid)) {
    case 0:
        atom->ul = 7;
        return callback_status;
    case 1:
        if (inst == 1)
            return PM_ERR_INST;
        atom->l = (int)inst * 10;
        return 1;
    case 2:
        atom->d = 2.5;
        return 1;
    case 3:
        atom->cp = "hello";
        return 1;
    default:
        return PM_ERR_VALUE;
    }
}

/* Agents live in a static pool: libpcp_pmda has no call that frees one, and
 * memory reachable from a global is not a leak to LeakSanitizer. */
static pmdaInterface pool[32];
static int npool;

static pmdaInterface *fresh(void)
{
    assert_true(npool < 32);
    return &pool[npool++];
}

/* A DSO agent of domain DOM from the pool, set up over these tables. */
static pmdaInterface *dso_agent(int version, char *name, pmdaFetchCallBack cb, pmdaIndom *indom,
                                int nindoms, pmdaMetric *table, int nmetrics)
{
    pmdaInterface *dp = fresh();

    dp->domain = DOM;
    pmdaDSO(dp, version, name, NULL);
    assert_int_equal(dp->status, 0);
    pmdaSetFetchCallBack(dp, cb);
    pmdaInit(dp, indom, nindoms, table, nmetrics);
    return dp;
}

static pmdaInterface *agent(int version)
{
    reset_tables();
    return dso_agent(version, "unit", fetch_cb, indoms, 1, metrics, 5);
}

static pmResult *fetch(pmdaInterface *dp, int n, const unsigned int *items)
{
    pmID ids[8];
    pmResult *res = NULL;

    for (int i = 0; i < n; i++)
        ids[i] = metrics[items[i]].m_desc.pmid;
    assert_int_equal(dp->version.any.fetch(n, ids, &res, dp->version.any.ext), 0);
    return res;
}

static void release(pmdaInterface *dp, pmResult *res)
{
    dp->version.any.ext->e_resultCallBack(res);
}

static void test_dso_defaults(void **state)
{
    pmdaInterface *dp;

    (void)state;
    dp = agent(PMDA_INTERFACE_5);
    assert_int_equal(dp->comm.pmda_interface, PMDA_INTERFACE_5);
    assert_int_equal(dp->comm.pmapi_version, PMAPI_VERSION_2);
    assert_ptr_equal(dp->version.any.desc, pmdaDesc);
    assert_ptr_equal(dp->version.any.store, pmdaStore);
    assert_ptr_equal(dp->version.four.pmid, pmdaPMID);
    assert_int_equal(dp->version.any.ext->e_domain, DOM);
    assert_int_equal(dp->version.any.ext->e_help, -1);
    /* direct mapping: item i at index i */
    assert_int_equal(dp->version.any.ext->e_direct, 1);
    assert_int_equal(metrics[1].m_desc.pmid, pmID_build(DOM, 0, 1));
    assert_int_equal(metrics[1].m_desc.indom, pmInDom_build(DOM, 0));
    assert_int_equal(indoms[0].it_indom, pmInDom_build(DOM, 0));
    assert_int_equal(metrics[0].m_desc.indom, PM_INDOM_NULL);

    dp = fresh();
    pmdaDSO(dp, 9, "unit", NULL);
    assert_int_equal(dp->status, PM_ERR_GENERIC);
}

static void test_init_checks(void **state)
{
    pmdaInterface *dp;

    (void)state;
    /* pmdaFetch without a callback */
    dp = fresh();
    reset_tables();
    pmdaDSO(dp, PMDA_INTERFACE_2, "unit", NULL);
    pmdaInit(dp, indoms, 1, metrics, 5);
    assert_int_equal(dp->status, PM_ERR_GENERIC);

    /* a metric naming an indom serial the table lacks */
    dp = fresh();
    reset_tables();
    metrics[1].m_desc.indom = 3;
    pmdaDSO(dp, PMDA_INTERFACE_2, "unit", NULL);
    pmdaSetFetchCallBack(dp, fetch_cb);
    pmdaInit(dp, indoms, 1, metrics, 5);
    assert_int_equal(dp->status, PM_ERR_GENERIC);

    /* count and pointer disagree */
    dp = fresh();
    reset_tables();
    pmdaDSO(dp, PMDA_INTERFACE_2, "unit", NULL);
    pmdaSetFetchCallBack(dp, fetch_cb);
    pmdaInit(dp, NULL, 1, metrics, 5);
    assert_int_equal(dp->status, PM_ERR_GENERIC);
}

static void test_desc_lookup_without_direct_map(void **state)
{
    pmdaInterface *dp;
    pmDesc d;

    (void)state;
    dp = fresh();
    dp->domain = DOM;
    reset_tables();
    metrics[2].m_desc.pmid = PMDA_PMID(1, 9); /* index 2, item 9: no direct mapping */
    pmdaDSO(dp, PMDA_INTERFACE_2, "unit", NULL);
    pmdaSetFetchCallBack(dp, fetch_cb);
    pmdaInit(dp, indoms, 1, metrics, 5);
    assert_int_equal(dp->version.any.ext->e_direct, 0);
    for (int i = 0; i < 5; i++) {
        assert_int_equal(pmdaDesc(metrics[i].m_desc.pmid, &d, dp->version.any.ext), 0);
        assert_int_equal(d.pmid, metrics[i].m_desc.pmid);
        assert_int_equal(d.type, metrics[i].m_desc.type);
    }
    assert_int_equal(pmdaDesc(pmID_build(DOM, 1, 2), &d, dp->version.any.ext), PM_ERR_PMID);
    assert_int_equal(pmdaDesc(pmID_build(DOM, 7, 0), &d, dp->version.any.ext), PM_ERR_PMID);
}

/* Interface 2: any status >= 0 means a value; 3: 0 means none; 5: 1 a value. */
static void test_callback_codes(void **state)
{
    static const struct {
        int version, status, numval;
    } cases[] = {
        {PMDA_INTERFACE_2, 0, 1},
        {PMDA_INTERFACE_2, 1, 1},
        {PMDA_INTERFACE_3, 0, 0},
        {PMDA_INTERFACE_3, 1, 1},
        {PMDA_INTERFACE_5, PMDA_FETCH_NOVALUES, 0},
        {PMDA_INTERFACE_5, PMDA_FETCH_STATIC, 1},
        {PMDA_INTERFACE_5, 3, 1},
        {PMDA_INTERFACE_7, PM_ERR_AGAIN, PM_ERR_AGAIN},
        {PMDA_INTERFACE_2, PM_ERR_PMID, PM_ERR_PMID},
    };
    const unsigned int item0 = 0;

    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        pmdaInterface *dp;
        pmResult *res;
        dp = agent(cases[i].version);
        callback_status = cases[i].status;
        res = fetch(dp, 1, &item0);
        assert_int_equal(res->numpmid, 1);
        assert_int_equal(res->vset[0]->numval, cases[i].numval);
        if (cases[i].numval == 1) {
            assert_int_equal(res->vset[0]->valfmt, PM_VAL_INSITU);
            assert_int_equal(res->vset[0]->vlist[0].inst, (int)PM_IN_NULL);
            assert_int_equal(res->vset[0]->vlist[0].value.lval, 7);
        }
        release(dp, res);
    }
}

static void test_value_formats(void **state)
{
    pmdaInterface *dp;
    const unsigned int items[] = {1, 2, 3, 4};
    pmResult *res;
    double d;

    (void)state;
    dp = agent(PMDA_INTERFACE_5);
    res = fetch(dp, 4, items);
    /* instances in table order, the callback's PM_ERR_INST skipped */
    assert_int_equal(res->vset[0]->numval, 2);
    assert_int_equal(res->vset[0]->vlist[0].inst, 0);
    assert_int_equal(res->vset[0]->vlist[1].inst, 5);
    assert_int_equal(res->vset[0]->vlist[1].value.lval, 50);
    /* double: an 8-byte payload in a malloc'd block */
    assert_int_equal(res->vset[1]->valfmt, PM_VAL_DPTR);
    assert_int_equal(res->vset[1]->vlist[0].value.pval->vtype, PM_TYPE_DOUBLE);
    assert_int_equal(res->vset[1]->vlist[0].value.pval->vlen, PM_VAL_HDR_SIZE + 8);
    memcpy(&d, res->vset[1]->vlist[0].value.pval->vbuf, sizeof(d));
    assert_true(d == 2.5);
    /* string: strlen + 1 bytes */
    assert_int_equal(res->vset[2]->vlist[0].value.pval->vlen, PM_VAL_HDR_SIZE + 6);
    assert_string_equal(res->vset[2]->vlist[0].value.pval->vbuf, "hello");
    /* every instance failed: numval is the last callback status */
    assert_int_equal(res->vset[3]->numval, PM_ERR_VALUE);
    release(dp, res);
}

/* ---- many values, and value blocks of every size ---- */

enum { NBIG = 40 };
static pmdaInstid big_set[NBIG];
static char big_names[NBIG][16];
static char big_text[NBIG][200];

static int big_cb(pmdaMetric *m, unsigned int inst, pmAtomValue *atom)
{
    switch (pmID_item(m->m_desc.pmid)) {
    case 0: /* inst * 5 bytes: the first few fit the first guess, the rest do not */
        memset(big_text[inst], 'a' + (int)inst % 26, inst * 5);
        big_text[inst][inst * 5] = '\0';
        atom->cp = big_text[inst];
        return 1;
    case 1:
        atom->f = (float)inst + 0.5f;
        return 1;
    case 2:
        atom->d = (double)inst * 1.5;
        return 1;
    case 3: /* the agent's own copy, which pmdaFetch frees once it is stored */
        atom->cp = strdup(big_names[inst]);
        return atom->cp != NULL ? PMDA_FETCH_DYNAMIC : -ENOMEM;
    case 4: /* a cached indom that grows while it is fetched */
        if (inst < 8) {
            char name[16];
            snprintf(name, sizeof(name), "late-%u", inst + 100);
            pmdaCacheStore(pmInDom_build(DOM, 1), PMDA_CACHE_ADD, name, NULL);
        }
        atom->d = (double)inst + 0.25;
        return 1;
    case 5: /* a value too long for the first guess, when no memory is left */
        realloc_fails = 1;
        atom->cp = "longer than sixteen bytes";
        return 1;
    }
    return PM_ERR_PMID;
}

static pmdaInterface *big_agent(void)
{
    static pmdaIndom indom[2];
    static pmdaMetric table[6] = {
        {NULL, {PMDA_PMID(0, 0), PM_TYPE_STRING, 0, PM_SEM_DISCRETE, {0}}},
        {NULL, {PMDA_PMID(0, 1), PM_TYPE_FLOAT, 0, PM_SEM_INSTANT, {0}}},
        {NULL, {PMDA_PMID(0, 2), PM_TYPE_DOUBLE, 0, PM_SEM_INSTANT, {0}}},
        {NULL, {PMDA_PMID(0, 3), PM_TYPE_STRING, 0, PM_SEM_DISCRETE, {0}}},
        {NULL, {PMDA_PMID(0, 4), PM_TYPE_DOUBLE, 1, PM_SEM_INSTANT, {0}}},
        {NULL, {PMDA_PMID(0, 5), PM_TYPE_STRING, PM_INDOM_NULL, PM_SEM_DISCRETE, {0}}},
    };
    for (int i = 0; i < NBIG; i++) {
        snprintf(big_names[i], sizeof(big_names[i]), "inst-%d", i * 7);
        big_set[i].i_inst = i;
        big_set[i].i_name = big_names[i];
    }
    indom[0].it_indom = 0;
    indom[0].it_numinst = NBIG;
    indom[0].it_set = big_set;
    indom[1].it_indom = 1;
    return dso_agent(PMDA_INTERFACE_5, "big", big_cb, indom, 2, table, 6);
}

/* Value blocks share their value set's allocation: each must still be its
 * own, intact, and freeing the result must free exactly what it owns, also
 * after a caller swapped in a block of its own (ASan and LeakSanitizer
 * check the last part). */
static void test_many_values(void **state)
{
    pmdaInterface *dp;
    pmID ids[4];
    pmResult *res;
    pmValueBlock *mine;
    double d;
    float f;

    (void)state;
    dp = big_agent();
    for (int i = 0; i < 4; i++)
        ids[i] = pmID_build(DOM, 0, (unsigned int)i);
    assert_int_equal(dp->version.any.fetch(4, ids, &res, dp->version.any.ext), 0);
    for (int k = 0; k < 4; k++) {
        const pmValueSet *vs = res->vset[k];
        assert_int_equal(vs->numval, NBIG);
        assert_int_equal(vs->valfmt, PM_VAL_DPTR);
        for (int i = 0; i < NBIG; i++) {
            const pmValueBlock *vb = vs->vlist[i].value.pval;
            assert_int_equal(vs->vlist[i].inst, i);
            switch (k) {
            case 0:
                assert_int_equal(vb->vtype, PM_TYPE_STRING);
                assert_int_equal(vb->vlen, PM_VAL_HDR_SIZE + i * 5 + 1);
                assert_string_equal(vb->vbuf, big_text[i]);
                break;
            case 1:
                assert_int_equal(vb->vtype, PM_TYPE_FLOAT);
                assert_int_equal(vb->vlen, PM_VAL_HDR_SIZE + 4);
                memcpy(&f, vb->vbuf, sizeof(f));
                assert_true(f == (float)i + 0.5f);
                break;
            case 2:
                assert_int_equal(vb->vtype, PM_TYPE_DOUBLE);
                assert_int_equal(vb->vlen, PM_VAL_HDR_SIZE + 8);
                memcpy(&d, vb->vbuf, sizeof(d));
                assert_true(d == (double)i * 1.5);
                break;
            case 3:
                assert_string_equal(vb->vbuf, big_names[i]);
                break;
            }
            /* no block overlaps the next one */
            if (i > 0) {
                const pmValueBlock *prev = vs->vlist[i - 1].value.pval;
                assert_true((const char *)prev + prev->vlen <= (const char *)vb ||
                            (const char *)vb + vb->vlen <= (const char *)prev);
            }
        }
    }
    /* a caller's own block in place of one of the agent's is freed too */
    mine = malloc(PM_VAL_HDR_SIZE + 8);
    assert_non_null(mine);
    memcpy(mine, res->vset[2]->vlist[7].value.pval, PM_VAL_HDR_SIZE + 8);
    res->vset[2]->vlist[7].value.pval = mine;
    release(dp, res);
}

/* Instances the callback adds to a cached indom during the fetch come back
 * too: the value set outgrows the count it was sized for.  Each one is
 * added while an older one is still to come, as PCP's cache walk (which
 * never visits an instance added during the last one's fetch) needs. */
static void test_indom_grows_in_fetch(void **state)
{
    pmdaInterface *dp;
    pmID id = pmID_build(DOM, 0, 4);
    pmInDom indom = pmInDom_build(DOM, 1);
    pmResult *res;
    const pmValueSet *vs;
    double d;

    (void)state;
    dp = big_agent();
    assert_int_equal(pmdaCacheOp(indom, PMDA_CACHE_CULL), 0);
    assert_int_equal(pmdaCacheStore(indom, PMDA_CACHE_ADD, "first", NULL), 0);
    assert_int_equal(pmdaCacheStore(indom, PMDA_CACHE_ADD, "second", NULL), 1);
    assert_int_equal(dp->version.any.fetch(1, &id, &res, dp->version.any.ext), 0);
    vs = res->vset[0];
    /* sized for 2: first (0) adds late-100 (2), second (1) late-101 (3),
     * late-100 late-102 (4), ... inst 7 adds late-107 (9) */
    assert_int_equal(vs->numval, 10);
    for (int i = 0; i < vs->numval; i++) {
        assert_int_equal(vs->vlist[i].inst, i);
        assert_int_equal(vs->vlist[i].value.pval->vlen, PM_VAL_HDR_SIZE + 8);
        memcpy(&d, vs->vlist[i].value.pval->vbuf, sizeof(d));
        assert_true(d == (double)i + 0.25);
    }
    release(dp, res);
}

/* A value that finds no memory is not stored: with nothing stored, numval
 * is the error, not the callback's status over a vlist never written. */
static void test_fetch_no_memory(void **state)
{
    pmdaInterface *dp;
    pmID id = pmID_build(DOM, 0, 5);
    pmResult *res;
    int sts;

    (void)state;
    dp = big_agent();
    sts = dp->version.any.fetch(1, &id, &res, dp->version.any.ext);
    realloc_fails = 0;
    assert_int_equal(sts, 0);
    assert_int_equal(res->vset[0]->numval, -ENOMEM);
    release(dp, res);
}

/* Every instance's name comes back intact; __pmFreeInResult frees it all. */
static void test_many_instances(void **state)
{
    pmdaInterface *dp;
    pmInResult *r;

    (void)state;
    dp = big_agent();
    assert_int_equal(pmdaInstance(pmInDom_build(DOM, 0), PM_IN_NULL, NULL, &r, dp->version.any.ext),
                     0);
    assert_int_equal(r->numinst, NBIG);
    for (int i = 0; i < NBIG; i++) {
        assert_int_equal(r->instlist[i], i);
        assert_string_equal(r->namelist[i], big_names[i]);
    }
    /* a name the agent replaced with its own copy is freed as well (only
     * LeakSanitizer, in the sanitizer build, can tell if it is not) */
    r->namelist[3] = strdup("replaced");
    assert_non_null(r->namelist[3]);
    __pmFreeInResult(r);
}

static void test_unknown_pmid(void **state)
{
    pmdaInterface *dp;
    pmID id = pmID_build(DOM, 3, 3);
    pmResult *res;

    (void)state;
    dp = agent(PMDA_INTERFACE_5);
    assert_int_equal(dp->version.any.fetch(1, &id, &res, dp->version.any.ext), 0);
    assert_int_equal(res->vset[0]->numval, PM_ERR_PMID);
    release(dp, res);
}

static void test_profile(void **state)
{
    pmdaInterface *dp;
    const unsigned int item1 = 1;
    int five = 5;
    pmInDomProfile ip = {0, PM_PROFILE_EXCLUDE, 1, &five};
    pmProfile prof = {PM_PROFILE_INCLUDE, 1, &ip};
    pmResult *res;

    (void)state;
    dp = agent(PMDA_INTERFACE_5);
    ip.indom = indoms[0].it_indom;
    assert_int_equal(pmdaProfile(&prof, dp->version.any.ext), 0);
    calls = 0;
    res = fetch(dp, 1, &item1);
    assert_int_equal(res->vset[0]->numval, 1); /* only 5 is in the profile */
    assert_int_equal(res->vset[0]->vlist[0].inst, 5);
    assert_int_equal(calls, 1);
    release(dp, res);
}

static void test_instance_queries(void **state)
{
    pmdaInterface *dp;
    pmdaExt *e;
    pmInDom indom;
    pmInResult *r;

    (void)state;
    dp = agent(PMDA_INTERFACE_5);
    e = dp->version.any.ext;
    indom = indoms[0].it_indom;

    assert_int_equal(pmdaInstance(indom, PM_IN_NULL, NULL, &r, e), 0);
    assert_int_equal(r->numinst, 3);
    assert_int_equal(r->instlist[2], 5);
    assert_string_equal(r->namelist[1], "green light");
    __pmFreeInResult(r);

    assert_int_equal(pmdaInstance(indom, 5, NULL, &r, e), 0);
    assert_null(r->instlist);
    assert_string_equal(r->namelist[0], "blue");
    free(r->namelist[0]);
    free(r->namelist);
    free(r);

    /* "green" finds "green light"; "green l" does not (it has a space) */
    assert_int_equal(pmdaInstance(indom, PM_IN_NULL, "green", &r, e), 0);
    assert_null(r->namelist);
    assert_int_equal(r->instlist[0], 1);
    free(r->instlist);
    free(r);
    assert_int_equal(pmdaInstance(indom, PM_IN_NULL, "green l", &r, e), PM_ERR_INST);
    assert_int_equal(pmdaInstance(indom, 3, NULL, &r, e), PM_ERR_INST);
    assert_int_equal(pmdaInstance(indom, 0, "red", &r, e), PM_ERR_INST);
    assert_int_equal(pmdaInstance(pmInDom_build(DOM, 9), PM_IN_NULL, NULL, &r, e), PM_ERR_INDOM);
}

static void test_cache(void **state)
{
    pmInDom indom = pmInDom_build(DOM, 77);
    char *name;
    void *priv;
    int inst, x = 1;

    (void)state;
    assert_int_equal(pmdaCacheOp(indom, PMDA_CACHE_CHECK), 0);
    assert_int_equal(pmdaCacheStore(indom, PMDA_CACHE_ADD, "sec", &x), 0);
    assert_int_equal(pmdaCacheOp(indom, PMDA_CACHE_CHECK), 1);
    assert_int_equal(pmdaCacheStore(indom, PMDA_CACHE_ADD, "min", NULL), 1);
    assert_int_equal(pmdaCacheStore(indom, PMDA_CACHE_ADD, "hour of day", NULL), 2);
    assert_int_equal(pmdaCacheStore(indom, PMDA_CACHE_ADD, "sec", &x), 0); /* again: same id */
    /* a name whose first word is taken by another name is refused, as in PCP */
    assert_int_equal(pmdaCacheStore(indom, PMDA_CACHE_ADD, "hour of night", NULL), -EINVAL);
    assert_int_equal(pmdaCacheLookup(indom, 0, &name, &priv), PMDA_CACHE_ACTIVE);
    assert_string_equal(name, "sec");
    assert_ptr_equal(priv, &x);
    assert_int_equal(pmdaCacheLookupName(indom, "hour", &inst, NULL), PMDA_CACHE_ACTIVE);
    assert_int_equal(inst, 2);
    assert_int_equal(pmdaCacheOp(indom, PMDA_CACHE_INACTIVE), 3);
    assert_int_equal(pmdaCacheOp(indom, PMDA_CACHE_SIZE_ACTIVE), 0);
    assert_int_equal(pmdaCacheStore(indom, PMDA_CACHE_ADD, "min", NULL), 1);
    assert_int_equal(pmdaCacheOp(indom, PMDA_CACHE_SIZE_ACTIVE), 1);
    assert_int_equal(pmdaCacheOp(indom, PMDA_CACHE_SIZE_INACTIVE), 2);
    assert_int_equal(pmdaCacheOp(indom, PMDA_CACHE_WALK_REWIND), 0);
    assert_int_equal(pmdaCacheOp(indom, PMDA_CACHE_WALK_NEXT), 1);
    assert_int_equal(pmdaCacheOp(indom, PMDA_CACHE_WALK_NEXT), -1);
    assert_int_equal(pmdaCacheStore(indom, PMDA_CACHE_HIDE, "nope", NULL), PM_ERR_INST);
    assert_int_equal(pmdaCacheStore(indom, PMDA_CACHE_CULL, "sec", NULL), 0);
    assert_int_equal(pmdaCacheLookup(indom, 0, NULL, NULL), PM_ERR_INST);
    /* a new name takes the id after the last one handed out */
    assert_int_equal(pmdaCacheStore(indom, PMDA_CACHE_ADD, "day", NULL), 3);
    assert_int_equal(pmdaCacheStore(PM_INDOM_NULL, PMDA_CACHE_ADD, "x", NULL), PM_ERR_INDOM);
    assert_int_equal(pmdaCacheOp(indom, 99), -EINVAL);
}

static void test_cache_drives_instances(void **state)
{
    pmdaInterface *dp;
    pmInResult *r;
    pmInDom indom;
    const unsigned int item1 = 1;
    pmResult *res;

    (void)state;
    dp = agent(PMDA_INTERFACE_5);
    indom = indoms[0].it_indom;
    /* once a cache exists for the indom, it replaces the table */
    assert_int_equal(pmdaCacheStore(indom, PMDA_CACHE_ADD, "zero", NULL), 0);
    assert_int_equal(pmdaCacheStore(indom, PMDA_CACHE_ADD, "one", NULL), 1);
    assert_int_equal(pmdaCacheStore(indom, PMDA_CACHE_ADD, "two", NULL), 2);
    assert_int_equal(pmdaCacheStore(indom, PMDA_CACHE_HIDE, "two", NULL), 2);
    assert_int_equal(pmdaInstance(indom, PM_IN_NULL, NULL, &r, dp->version.any.ext), 0);
    assert_int_equal(r->numinst, 2);
    assert_string_equal(r->namelist[1], "one");
    __pmFreeInResult(r);
    res = fetch(dp, 1, &item1);
    assert_int_equal(res->vset[0]->numval, 1); /* 0 only: the callback refuses 1 */
    assert_int_equal(res->vset[0]->vlist[0].inst, 0);
    release(dp, res);
    assert_int_equal(pmdaCacheOp(indom, PMDA_CACHE_CULL), 3);
}

/* Remove a test's $PCP_VAR_DIR: its cache file (path) and directories. */
static void remove_var_dir(const char *dir, const char *file)
{
    char path[256];

    unlink(file);
    snprintf(path, sizeof(path), "%s/config/pmda", dir);
    rmdir(path);
    snprintf(path, sizeof(path), "%s/config", dir);
    rmdir(path);
    rmdir(dir);
}

/* A new $PCP_VAR_DIR (DIR, a mkdtemp template) with config/pmda in it, and
 * there the cache file of serial SERIAL holding TEXT; its path in PATH. */
static void var_dir_with_cache_file(char *dir, int serial, const char *text, char *path,
                                    size_t size)
{
    FILE *fp;

    assert_non_null(mkdtemp(dir));
    setenv("PCP_VAR_DIR", dir, 1);
    snprintf(path, size, "%s/config", dir);
    assert_int_equal(mkdir(path, 0755), 0);
    snprintf(path, size, "%s/config/pmda", dir);
    assert_int_equal(mkdir(path, 0755), 0);
    snprintf(path, size, "%s/config/pmda/%d.%d", dir, DOM, serial);
    assert_non_null(fp = fopen(path, "w"));
    fputs(text, fp);
    assert_int_equal(fclose(fp), 0);
}

/* PCP's cache file: "2 0 <max id>", then "<id> <last active> <name>". */
static void test_cache_persistence(void **state)
{
    pmInDom indom = pmInDom_build(DOM, 88);
    char dir[] = "/tmp/pmkit-cache-XXXXXX", path[256], line[256];
    FILE *fp;

    (void)state;
    assert_non_null(mkdtemp(dir));
    setenv("PCP_VAR_DIR", dir, 1);
    assert_int_equal(pmdaCacheStore(indom, PMDA_CACHE_ADD, "sda", NULL), 0);
    assert_int_equal(pmdaCacheOp(indom, PMDA_CACHE_SAVE), -ENOENT); /* no $PCP_VAR_DIR/config */
    snprintf(path, sizeof(path), "%s/config", dir);
    assert_int_equal(mkdir(path, 0700), 0); /* config/pmda is made on demand */
    assert_int_equal(pmdaCacheStore(indom, PMDA_CACHE_ADD, "sdb", NULL), 1);
    assert_int_equal(pmdaCacheStore(indom, PMDA_CACHE_ADD, "nvme0n1", NULL), 2);
    assert_int_equal(pmdaCacheOp(indom, PMDA_CACHE_SAVE), 3);
    assert_int_equal(pmdaCacheOp(indom, PMDA_CACHE_SAVE), 0); /* nothing changed */
    snprintf(path, sizeof(path), "%s/config/pmda/%d.88", dir, DOM);
    fp = fopen(path, "r");
    assert_non_null(fp);
    assert_non_null(fgets(line, sizeof(line), fp));
    assert_string_equal(line, "2 0 2147483647\n");
    assert_non_null(fgets(line, sizeof(line), fp));
    assert_true(strncmp(line, "0 ", 2) == 0 && strstr(line, " sda\n") != NULL);
    fclose(fp);

    /* forget everything, then load: the old ids come back, inactive */
    assert_int_equal(pmdaCacheOp(indom, PMDA_CACHE_CULL), 3);
    assert_int_equal(pmdaCacheOp(indom, PMDA_CACHE_LOAD), 3);
    assert_int_equal(pmdaCacheOp(indom, PMDA_CACHE_SIZE_ACTIVE), 0);
    assert_int_equal(pmdaCacheStore(indom, PMDA_CACHE_ADD, "nvme0n1", NULL), 2);
    assert_int_equal(pmdaCacheStore(indom, PMDA_CACHE_ADD, "sdc", NULL), 3);
    assert_int_equal(pmdaCacheLookup(indom, 1, NULL, NULL), PMDA_CACHE_INACTIVE);
    remove_var_dir(dir, path);
}

static long purged_private;

static void purged(void *priv)
{
    purged_private += (long)priv;
    /* the cache is free to use from the callback (as in PCP) */
    assert_true(pmdaCacheOp(pmInDom_build(DOM, 90), PMDA_CACHE_SIZE) >= 0);
}

/* pmdaCachePurge goes by the times in the cache file (PCP's): the write
 * that followed an entry's last activity.  Times are written into the file
 * by hand, so nothing has to wait. */
static void test_cache_purge(void **state)
{
    pmInDom indom = pmInDom_build(DOM, 90), never = pmInDom_build(DOM, 91);
    char dir[] = "/tmp/pmkit-purge-XXXXXX", path[256], text[128];

    (void)state;
    snprintf(text, sizeof(text), "2 0 2147483647\n0 1000 old\n1 %lld recent\n2 1000 again\n",
             (long long)time(NULL) + 100);
    var_dir_with_cache_file(dir, 90, text, path, sizeof(path));
    assert_int_equal(pmdaCacheOp(indom, PMDA_CACHE_LOAD), 3);
    /* made active since the write: stays, however old its time */
    assert_int_equal(pmdaCacheStore(indom, PMDA_CACHE_ADD, "again", (void *)4L), 2);
    purged_private = 0;
    assert_int_equal(pmdaCachePurgeCallback(indom, 60, purged), 1); /* "old" */
    assert_int_equal(purged_private, 0);                            /* it had no private data */
    assert_int_equal(pmdaCacheLookupName(indom, "old", NULL, NULL), PM_ERR_INST);
    /* never written: stays, even with a limit in the future */
    assert_int_equal(pmdaCacheStore(never, PMDA_CACHE_ADD, "n", (void *)16L), 0);
    assert_int_equal(pmdaCacheOp(never, PMDA_CACHE_INACTIVE), 1);
    assert_int_equal(pmdaCachePurgeCallback(never, -5, purged), 0);
    assert_int_equal(pmdaCacheStore(indom, PMDA_CACHE_ADD, "new", (void *)8L), 3);
    assert_int_equal(pmdaCachePurgeCallback(indom, 0, purged), 0); /* "recent" is ahead */
    /* SYNC writes (an entry was added) and times the active ones ("again",
     * "new"); "recent" keeps its time, 100 s ahead */
    assert_int_equal(pmdaCacheOp(indom, PMDA_CACHE_SYNC), 3);
    assert_int_equal(pmdaCacheOp(indom, PMDA_CACHE_SYNC), 0);
    assert_int_equal(pmdaCachePurgeCallback(indom, -5, purged), 2);
    assert_int_equal(purged_private, 12);
    /* the ACTIVE op ("recent" came back inactive from the file) is not
     * activity (PCP): no write, no new time */
    assert_int_equal(pmdaCacheOp(indom, PMDA_CACHE_SYNC), 1); /* after the culls */
    assert_int_equal(pmdaCacheOp(indom, PMDA_CACHE_ACTIVE), 1);
    assert_int_equal(pmdaCacheOp(indom, PMDA_CACHE_SYNC), 0);
    assert_int_equal(pmdaCachePurgeCallback(indom, -200, purged), 1); /* "recent" */
    assert_int_equal(pmdaCachePurge(PM_INDOM_NULL, 0), PM_ERR_INDOM);
    remove_var_dir(dir, path);
}

/* A line whose id is over the header's maximum is skipped like a malformed
 * one: no such id can be handed out, so the entry must not be stored under
 * another id (nor looked up under its own). */
static void test_cache_load_id_over_max(void **state)
{
    pmInDom indom = pmInDom_build(DOM, 89);
    char dir[] = "/tmp/pmkit-cache-XXXXXX", path[256];
    char *name = NULL;

    (void)state;
    var_dir_with_cache_file(dir, 89, "2 0 5\n7 0 foo\n3 0 bar\n", path, sizeof(path));

    assert_int_equal(pmdaCacheOp(indom, PMDA_CACHE_LOAD), 1);
    assert_int_equal(pmdaCacheOp(indom, PMDA_CACHE_SIZE), 1);
    assert_int_equal(pmdaCacheLookup(indom, 3, &name, NULL), PMDA_CACHE_INACTIVE);
    assert_string_equal(name, "bar");
    assert_int_equal(pmdaCacheLookupName(indom, "foo", NULL, NULL), PM_ERR_INST);
    assert_int_equal(pmdaCacheLookup(indom, 0, NULL, NULL), PM_ERR_INST);
    /* the next new name takes the id after the highest loaded */
    assert_int_equal(pmdaCacheStore(indom, PMDA_CACHE_ADD, "baz", NULL), 4);
    assert_int_equal(pmdaCacheOp(indom, PMDA_CACHE_CULL), 2);
    remove_var_dir(dir, path);
}

static void test_labels(void **state)
{
    pmLabelSet *set = NULL;

    (void)state;
    /* the first labels as written, indexed by name */
    assert_int_equal(pmdaAddLabels(&set, "{\"role\" : \"testing\", \"n\":%d}", 3), 2);
    assert_string_equal(set->json, "{\"role\":\"testing\",\"n\":3}");
    assert_int_equal(set->labels[0].name, 19); /* "n" sorts first */
    assert_int_equal(set->labels[1].namelen, 4);
    assert_int_equal(set->labels[1].valuelen, 9);
    /* later ones merged: one flat object sorted by name */
    assert_int_equal(pmdaAddNotes(&set, "{\"role\":\"prod\",\"a\":{\"b\":[1, 2]}}"), 3);
    assert_string_equal(set->json, "{\"a.b\":[1,2],\"n\":3,\"role\":\"prod\"}");
    assert_int_equal(set->labels[0].flags, PM_LABEL_OPTIONAL | PM_LABEL_COMPOUND);
    assert_int_equal(set->labels[1].flags, 0);
    assert_int_equal(set->labels[2].flags, PM_LABEL_OPTIONAL);
    /* refused with the set left alone */
    assert_int_equal(pmdaAddLabels(&set, "not json"), -EINVAL);
    assert_int_equal(pmdaAddLabels(&set, "{\"a\":1,\"a\":2}"), -EINVAL);
    assert_int_equal(pmdaAddLabels(&set, "{\"_under\":1}"), -EINVAL);
    assert_int_equal(pmdaAddLabels(&set, "{\"dot.ted\":1}"), -EINVAL);
    assert_int_equal(set->nlabels, 3);
    assert_int_equal(pmdaAddLabelFlags(set, PM_LABEL_ITEM), 1);
    assert_int_equal(set->labels[1].flags, PM_LABEL_ITEM);
    pmFreeLabelSets(set, 1);

    set = NULL; /* nested: the inner names are indexed */
    assert_int_equal(pmdaAddLabels(&set, "{\"obj\":{\"x\": 1, \"y\" : true}}"), 2);
    assert_string_equal(set->json, "{\"obj\":{\"x\":1,\"y\":true}}");
    assert_int_equal(set->compound, 1);
    assert_null(set->hash); /* private, and never set (docs/compat.md) */
    assert_int_equal(set->labels[0].namelen, 1);
    assert_int_equal(set->labels[0].flags, PM_LABEL_COMPOUND);
    pmFreeLabelSets(set, 1);
    set = NULL; /* an empty object: no labels, an empty string */
    assert_int_equal(pmdaAddLabels(&set, "{}"), 0);
    assert_string_equal(set->json, "");
    assert_int_equal(set->nlabels, 0);
    pmFreeLabelSets(set, 1);
    assert_int_equal(pmdaAddLabelFlags(NULL, PM_LABEL_ITEM), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dso_defaults),
        cmocka_unit_test(test_init_checks),
        cmocka_unit_test(test_desc_lookup_without_direct_map),
        cmocka_unit_test(test_callback_codes),
        cmocka_unit_test(test_value_formats),
        cmocka_unit_test(test_many_values),
        cmocka_unit_test(test_many_instances),
        cmocka_unit_test(test_indom_grows_in_fetch),
        cmocka_unit_test(test_fetch_no_memory),
        cmocka_unit_test(test_unknown_pmid),
        cmocka_unit_test(test_profile),
        cmocka_unit_test(test_instance_queries),
        cmocka_unit_test(test_cache),
        cmocka_unit_test(test_cache_drives_instances),
        cmocka_unit_test(test_cache_persistence),
        cmocka_unit_test(test_cache_purge),
        cmocka_unit_test(test_cache_load_id_over_max),
        cmocka_unit_test(test_labels),
    };
    setenv("PCP_STDERR", "/dev/null", 1); /* the expected LOG_CRIT messages */
    return cmocka_run_group_tests(tests, NULL, NULL);
}
