/*
 * Unit tests for libpcp_pmda's namespace trees (tree.c) and dynamic-metric
 * helpers (dynamic.c), called directly.  The orders and codes checked here
 * are those Debian's PCP 6.0.3 gave a probe (children newest first, names
 * of a PMID depth first oldest first, PM_ERR_NAME / PM_ERR_PMID); the
 * cases where pmkit departs from PCP on purpose (bad names, NULLs, a name
 * below a leaf, NULL callbacks, more copies than announced, the cluster
 * mask's answer) are marked "pmkit:" and listed in docs/compat.md.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* RTLD_NEXT */
#endif
#include <dlfcn.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include "alloc_hooks.h"

/* While realloc_countdown reaches 0, realloc fails (once per arming):
 * the tree grows its node and name arrays with realloc. */
static int realloc_countdown = -1;

void *realloc(void *p, size_t size)
{
    static void *(*next)(void *, size_t);

    if (realloc_countdown >= 0 && realloc_countdown-- == 0)
        return NULL;
    if (next == NULL) {
        void *sym = dlsym(RTLD_NEXT, "realloc");
        memcpy(&next, &sym, sizeof(next));
    }
    return next(p, size);
}

#define ID(c, i) pmID_build(30, (c), (i))

static pmdaNameSpace *fresh(void)
{
    pmdaNameSpace *t = NULL;
    assert_int_equal(pmdaTreeCreate(&t), 0);
    assert_non_null(t);
    return t;
}

/* "a b c" from a list, or the error number */
static char *joined(int n, char **list, int *sts)
{
    static char buf[4096];
    size_t len = 0;

    buf[0] = '\0';
    if (n < 0) {
        snprintf(buf, sizeof(buf), "%d", n);
        return buf;
    }
    for (int i = 0; i < n; i++)
        len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s%s", i ? " " : "", list[i],
                                sts == NULL ? ""
                                : sts[i]    ? "/1"
                                            : "/0");
    return buf;
}

static const char *kids(pmdaNameSpace *t, const char *name, int traverse)
{
    char **list = NULL;
    int *sts = NULL;
    int n = pmdaTreeChildren(t, name, traverse, &list, &sts);
    const char *s = joined(n, list, sts);
    if (n > 0) {
        free(list);
        free(sts);
    }
    return s;
}

static const char *names_of(pmdaNameSpace *t, pmID pmid)
{
    char **list = NULL;
    int n = pmdaTreeName(t, pmid, &list);
    const char *s = joined(n, list, NULL);
    if (n > 0)
        free(list);
    return s;
}

/* The probe's tree: the answers Debian's library gave. */
static void test_orders(void **state)
{
    pmdaNameSpace *t = fresh();
    pmID p = 0;

    (void)state;
    assert_int_equal(pmdaTreeSize(t), 0);
    assert_int_equal(pmdaTreeInsert(t, ID(1, 1), "dyn.a.x"), 0);
    assert_int_equal(pmdaTreeInsert(t, ID(1, 2), "dyn.a.y"), 0);
    assert_int_equal(pmdaTreeInsert(t, ID(2, 0), "dyn.b"), 0);
    assert_int_equal(pmdaTreeInsert(t, ID(1, 1), "dyn.a.z"), 0);
    assert_int_equal(pmdaTreeInsert(t, ID(3, 3), "dyn.c.d.e"), 0);
    assert_int_equal(pmdaTreeInsert(t, ID(1, 7), "dyn.a.x"), PM_ERR_PMID);
    assert_int_equal(pmdaTreeInsert(t, ID(1, 1), "dyn.a.x"), 0); /* the same again */
    assert_int_equal(pmdaTreeInsert(t, ID(2, 0), "dyn.b2"), 0);
    assert_int_equal(pmdaTreeInsert(t, ID(9, 9), "dyn.a"), PM_ERR_PMID); /* a non-leaf */
    assert_int_equal(pmdaTreeSize(t), 6);
    assert_string_equal(names_of(t, ID(1, 1)), "-12358"); /* no rebuild yet */
    assert_int_equal(pmdaTreePMID(t, "dyn.a.x", &p), 0);
    assert_int_equal(p, ID(1, 1));
    p = 12345;
    assert_int_equal(pmdaTreePMID(t, "dyn.a", &p), PM_ERR_NAME);
    assert_int_equal(pmdaTreePMID(t, "dyn.a.x.y", &p), PM_ERR_NAME);
    assert_int_equal(pmdaTreePMID(t, "", &p), PM_ERR_NAME);
    assert_int_equal(p, 12345);
    assert_string_equal(kids(t, "dyn", 0), "b2/0 c/1 b/0 a/1");
    assert_string_equal(kids(t, "dyn", 1),
                        "dyn.b2/0 dyn.c.d.e/0 dyn.b/0 dyn.a.z/0 dyn.a.y/0 dyn.a.x/0");
    assert_string_equal(kids(t, "dyn.a", 0), "z/0 y/0 x/0");
    assert_string_equal(kids(t, "dyn.a.x", 0), "");
    assert_string_equal(kids(t, "dyn.a.x", 1), "dyn.a.x/0");
    assert_string_equal(kids(t, "", 0), "-12357");
    assert_string_equal(kids(t, "zz", 1), "-12357");
    pmdaTreeRebuildHash(t, 3);
    assert_string_equal(names_of(t, ID(1, 1)), "dyn.a.x dyn.a.z");
    assert_string_equal(names_of(t, ID(2, 0)), "dyn.b dyn.b2");
    assert_string_equal(names_of(t, ID(9, 9)), "-12358");
    assert_string_equal(names_of(t, PM_ID_NULL), "-12358");
    /* names added after the rebuild are not known until the next one */
    assert_int_equal(pmdaTreeInsert(t, ID(1, 1), "late"), 0);
    assert_string_equal(names_of(t, ID(1, 1)), "dyn.a.x dyn.a.z");
    pmdaTreeRebuildHash(t, -5); /* pmkit: the hint is ignored (PCP fails) */
    assert_string_equal(names_of(t, ID(1, 1)), "dyn.a.x dyn.a.z late");
    pmdaTreeRelease(t);
}

/* Names of one PMID come depth first, children oldest first. */
static void test_name_order(void **state)
{
    pmdaNameSpace *t = fresh();

    (void)state;
    assert_int_equal(pmdaTreeInsert(t, ID(1, 1), "a.x"), 0);
    assert_int_equal(pmdaTreeInsert(t, ID(1, 1), "b.y"), 0);
    assert_int_equal(pmdaTreeInsert(t, ID(1, 1), "a.z"), 0);
    pmdaTreeRebuildHash(t, 0);
    assert_string_equal(names_of(t, ID(1, 1)), "a.x a.z b.y");
    pmdaTreeRelease(t);
}

/* pmkit: what PCP accepts and builds into unreachable nodes is refused. */
static void test_bad_input(void **state)
{
    static const char *const bad[] = {"",    "c..d", ".e",    "f.", "g h-i", "1abc",
                                      "a.9", "_x",   "a.b-c", "x.", "."};
    pmdaNameSpace *t = fresh();
    char **list = (char **)&list;
    int *sts = (int *)&sts;
    pmID p;

    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        assert_int_equal(pmdaTreeInsert(t, ID(1, 3), bad[i]), PM_ERR_NAME);
    assert_int_equal(pmdaTreeInsert(t, ID(1, 3), NULL), PM_ERR_NAME);
    assert_int_equal(pmdaTreeInsert(t, PM_ID_NULL, "nul"), PM_ERR_PMID);
    assert_int_equal(pmdaTreeInsert(t, ID(1, 1), "b.y"), 0);
    assert_int_equal(pmdaTreeInsert(t, ID(1, 3), "b.y.w"), PM_ERR_NAME); /* below a leaf */
    assert_int_equal(pmdaTreeInsert(t, ID(1, 4), "A_1.b2"), 0);
    assert_int_equal(pmdaTreeSize(t), 2);
    assert_string_equal(kids(t, "b.y", 0), "");
    assert_int_equal(pmdaTreePMID(t, NULL, &p), PM_ERR_NAME);
    assert_int_equal(pmdaTreeChildren(t, NULL, 0, &list, &sts), PM_ERR_NAME);
    assert_int_equal(pmdaTreeChildren(t, "b.y", 0, &list, &sts), 0);
    assert_ptr_equal(list, (char **)&list); /* a leaf: untouched, as in PCP */
    assert_int_equal(pmdaTreeChildren(t, "b", 0, &list, NULL), 1); /* pmkit: no status wanted */
    assert_string_equal(list[0], "y");
    free(list);
    assert_int_equal(pmdaTreeInsert(NULL, ID(1, 1), "a"), -EINVAL);
    assert_int_equal(pmdaTreeCreate(NULL), -EINVAL);
    assert_int_equal(pmdaTreeSize(NULL), 0);
    assert_int_equal(pmdaTreePMID(NULL, "a", &p), PM_ERR_NAME);
    assert_int_equal(pmdaTreeName(NULL, 1, &list), PM_ERR_PMID);
    assert_int_equal(pmdaTreeChildren(NULL, "a", 0, &list, &sts), PM_ERR_NAME);
    pmdaTreeRebuildHash(NULL, 1);
    pmdaTreeRelease(NULL);
    pmdaTreeRelease(t);
}

#define WID(n) pmID_build(30, 1 + (n) / 1024, (n) % 1024)

/* 20000 leaves under one node, and every 5th PMID shared by 5 names. */
static void test_wide_and_shared(void **state)
{
    pmdaNameSpace *t = fresh();
    char name[64], **list;
    int *sts;
    pmID p;

    (void)state;
    for (int i = 0; i < 20000; i++) {
        snprintf(name, sizeof(name), "w.m%d", i);
        assert_int_equal(pmdaTreeInsert(t, WID(i / 5), name), 0);
    }
    assert_int_equal(pmdaTreeSize(t), 20000);
    pmdaTreeRebuildHash(t, 10);
    for (int i = 0; i < 20000; i += 997) {
        snprintf(name, sizeof(name), "w.m%d", i);
        assert_int_equal(pmdaTreePMID(t, name, &p), 0);
        assert_int_equal(p, WID(i / 5));
    }
    assert_int_equal(pmdaTreeName(t, WID(7), &list), 5);
    assert_string_equal(list[0], "w.m35");
    assert_string_equal(list[4], "w.m39");
    free(list);
    assert_int_equal(pmdaTreeChildren(t, "w", 0, &list, &sts), 20000);
    assert_string_equal(list[0], "m19999");
    assert_string_equal(list[19999], "m0");
    free(list);
    free(sts);
    pmdaTreeRelease(t);
}

/* A chain 3000 deep (no recursion anywhere), and 3^7 leaves below it. */
static void test_deep(void **state)
{
    pmdaNameSpace *t = fresh();
    size_t cap = 3000 * 3 + 16, len = 0;
    char *name = malloc(cap), **list;
    int *sts;
    pmID p;

    (void)state;
    for (int d = 0; d < 3000; d++)
        len += (size_t)snprintf(name + len, cap - len, "%sd", d ? "." : "");
    assert_int_equal(pmdaTreeInsert(t, ID(2, 1), name), 0);
    assert_int_equal(pmdaTreePMID(t, name, &p), 0);
    pmdaTreeRebuildHash(t, 1);
    assert_int_equal(pmdaTreeName(t, ID(2, 1), &list), 1);
    assert_string_equal(list[0], name);
    free(list);
    assert_int_equal(pmdaTreeChildren(t, "d", 1, &list, &sts), 1);
    assert_string_equal(list[0], name);
    free(list);
    free(sts);
    for (int i = 0; i < 3 * 3 * 3 * 3 * 3 * 3 * 3; i++) {
        int k = i;
        len = (size_t)snprintf(name, cap, "t");
        for (int d = 0; d < 7; d++, k /= 3)
            len += (size_t)snprintf(name + len, cap - len, ".n%d", k % 3);
        assert_int_equal(pmdaTreeInsert(t, ID(3, i), name), 0);
    }
    assert_int_equal(pmdaTreeChildren(t, "t", 1, &list, &sts), 2187);
    assert_string_equal(list[0], "t.n2.n2.n2.n2.n2.n2.n2");
    assert_string_equal(list[2186], "t.n0.n0.n0.n0.n0.n0.n0");
    free(list);
    free(sts);
    assert_int_equal(pmdaTreeSize(t), 2188);
    free(name);
    pmdaTreeRelease(t);
}

/* An insert that runs out of memory fails cleanly and changes nothing. */
static void test_alloc_failure(void **state)
{
    pmdaNameSpace *t = fresh();
    char name[64];
    int failures = 0;
    pmID p;

    (void)state;
    for (int i = 0; i < 300; i++) {
        snprintf(name, sizeof(name), "f.g%d.leaf_%d", i % 7, i);
        realloc_countdown = 0;
        int sts = pmdaTreeInsert(t, ID(4, i), name);
        realloc_countdown = -1;
        if (sts == -ENOMEM) {
            failures++;
            assert_int_equal(pmdaTreePMID(t, name, &p), PM_ERR_NAME);
            assert_int_equal(pmdaTreeInsert(t, ID(4, i), name), 0);
        } else {
            assert_int_equal(sts, 0);
        }
        assert_int_equal(pmdaTreeSize(t), i + 1);
    }
    assert_true(failures > 0);
    pmdaTreeRebuildHash(t, 0);
    assert_string_equal(names_of(t, ID(4, 299)), "f.g5.leaf_299");
    pmdaTreeRelease(t);
}

/* ---- the dynamic-metric helpers ---- */

static pmdaNameSpace *dtree;
static int dchanged, counts_total, counts_trees, text_calls;

static pmdaMetric dmetrics[] = {
    {NULL, {PMDA_PMID(0, 0), PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT, {0}}},
    {NULL, {PMDA_PMID(1, 0), PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_COUNTER, {0}}},
    {NULL, {PMDA_PMID(1, 1), PM_TYPE_STRING, PM_INDOM_NULL, PM_SEM_DISCRETE, {0}}},
};

static int dfetch(pmdaMetric *m, unsigned int inst, pmAtomValue *a)
{
    (void)m;
    (void)inst;
    a->ul = 1;
    return 1;
}

static int dpmns(pmdaExt *pmda, pmdaNameSpace **t)
{
    (void)pmda;
    *t = dtree;
    return dchanged;
}

static int dtext(pmdaExt *pmda, pmID pmid, int type, char **buf)
{
    (void)pmda;
    (void)pmid;
    (void)type;
    text_calls++;
    *buf = "dynamic help";
    return 0;
}

static void dcounts(int *total, int *trees)
{
    *total = counts_total;
    *trees = counts_trees;
}

static pmdaExt *dagent(pmdaInterface *d)
{
    memset(d, 0, sizeof(*d));
    pmdaDSO(d, PMDA_INTERFACE_7, "tree test", NULL);
    pmdaSetFetchCallBack(d, dfetch);
    d->domain = 30;
    pmdaInit(d, NULL, 0, dmetrics, 3);
    assert_int_equal(d->status, 0);
    return d->version.any.ext;
}

/* pmkit: NULL callbacks and trees, copies beyond mtabcounts' announcement. */
static void test_dynamic(void **state)
{
    static int clusters[] = {1};
    static pmdaInterface d; /* an agent lives as long as the process */
    pmdaExt *pmda = dagent(&d);
    char *buf = NULL;

    (void)state;
    dtree = fresh();
    assert_int_equal(pmdaTreeInsert(dtree, ID(1, 0), "dyn.a.v"), 0);
    assert_int_equal(pmdaTreeInsert(dtree, ID(1, 1), "dyn.a.l"), 0);
    pmdaTreeRebuildHash(dtree, 2);
    assert_null(pmdaDynamicLookupName(pmda, "dyn.a")); /* nothing registered */
    assert_int_equal(pmdaDynamicLookupText(ID(1, 0), PM_TEXT_HELP, &buf, pmda), -ENOENT);
    pmdaDynamicMetricTable(pmda); /* PCP crashes here */
    assert_ptr_equal(pmda->e_metrics, dmetrics);
    pmdaExtDynamicPMNS("nothing", clusters, 1, NULL, NULL, NULL, NULL, dmetrics, 3, pmda);
    pmdaExtDynamicPMNS("dyn", clusters, 1, dpmns, dtext, NULL, dcounts, dmetrics, 3, pmda);
    dchanged = 1;
    counts_total = 1; /* too few: 2 metrics x 3 copies are made */
    counts_trees = 3;
    assert_ptr_equal(pmdaDynamicLookupName(pmda, "dyn.a"), dtree);
    assert_int_equal(pmda->e_nmetrics, 3 + 6);
    assert_int_equal(pmda->e_metrics[3].m_desc.pmid, ID(1, 0)); /* plain copies */
    assert_int_equal(pmda->e_metrics[8].m_desc.type, PM_TYPE_STRING);
    counts_total = 4; /* too many: PCP's size, the rest zeroed */
    counts_trees = 2;
    pmdaDynamicMetricTable(pmda);
    assert_int_equal(pmda->e_nmetrics, 3 + 8);
    assert_int_equal(pmda->e_metrics[10].m_desc.pmid, 0);
    /* memory running out as more copies than announced are made: the
     * table stays as it was */
    counts_total = 1;
    counts_trees = 3;
    alloc_left = 1; /* the new table, not its growth */
    pmdaDynamicMetricTable(pmda);
    alloc_left = -1;
    assert_int_equal(pmda->e_nmetrics, 3 + 8);
    assert_int_equal(pmda->e_metrics[10].m_desc.pmid, 0);
    dchanged = 0;
    assert_ptr_equal(pmdaDynamicLookupPMID(pmda, ID(1, 1)), dtree);
    assert_null(pmdaDynamicLookupPMID(pmda, ID(0, 0)));
    assert_int_equal(pmdaDynamicLookupText(ID(1, 1), PM_TEXT_HELP, &buf, pmda), 0);
    assert_string_equal(buf, "dynamic help");
    assert_int_equal(text_calls, 1);
    counts_trees = 0; /* no copies: the agent's own table comes back */
    pmdaDynamicMetricTable(pmda);
    assert_ptr_equal(pmda->e_metrics, dmetrics);
    assert_int_equal(pmda->e_nmetrics, 3);
    assert_null(pmdaDynamicLookupName(NULL, "dyn.a"));
    assert_int_equal(pmdaDynamicSetClusterMask("dyn", 1), -EINVAL); /* not process-wide */
    pmdaTreeRelease(dtree);
    dtree = NULL;
}

/* pmkit: pmdaDynamicSetClusterMask answers 0 for a prefix registered
 * (PCP 6.0.3 answers -EINVAL for that one and 0 for any other). */
static void test_cluster_mask(void **state)
{
    static int clusters[] = {2};

    (void)state;
    assert_int_equal(pmdaDynamicSetClusterMask("legacy", 3), -EINVAL);
    pmdaDynamicPMNS("legacy", clusters, 1, NULL, NULL, NULL, NULL, dmetrics, 3);
    assert_int_equal(pmdaDynamicSetClusterMask("legacy", 3), 0);
    assert_int_equal(pmdaDynamicSetClusterMask("leg", 3), -EINVAL);
    assert_int_equal(pmdaDynamicSetClusterMask(NULL, 3), -EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_orders),    cmocka_unit_test(test_name_order),
        cmocka_unit_test(test_bad_input), cmocka_unit_test(test_wide_and_shared),
        cmocka_unit_test(test_deep),      cmocka_unit_test(test_alloc_failure),
        cmocka_unit_test(test_dynamic),   cmocka_unit_test(test_cluster_mask),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
