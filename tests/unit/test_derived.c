/*
 * Unit tests for derived metrics (libpcp/derived/) over tests/oracle/
 * dm_agent.c (domain 245) in local contexts: what oracle.derived_* cannot
 * compare with Debian's libpcp, because pmkit differs on purpose
 * (docs/compat.md) where PCP crashes, reads past its arrays or has no
 * limit, and what no differential shows: allocations per fetch, every
 * allocation failing in turn, fetch groups, the registration controls.
 *
 * The static library's malloc, calloc and realloc go through
 * alloc_hooks.h (ld --wrap), which counts them and can make them fail.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <pcp/pmapi.h>

#include "dm_setup.h"

#include "alloc_hooks.h"

/* A new local context (the current one). */
static int new_context(void)
{
    int ctx = pmNewContext(PM_CONTEXT_LOCAL, NULL);

    assert_true(ctx >= 0);
    return ctx;
}

/* name = expr registered in the current context; its PMID. */
static pmID add(const char *name, const char *expr)
{
    char *err = NULL;
    pmID pmid = PM_ID_NULL;
    const char *names[] = {name};

    if (pmAddDerivedMetric(name, expr, &err) < 0) {
        fprintf(stderr, "%s\n", err != NULL ? err : "?");
        free(err);
        fail();
    }
    assert_int_equal(pmLookupName(1, names, &pmid), 1);
    return pmid;
}

/* The values of one metric, fetched once: the caller frees *rp. */
static pmValueSet *fetch_one(pmID pmid, pmResult **rp)
{
    assert_int_equal(pmFetch(1, &pmid, rp), 0);
    return (*rp)->vset[0];
}

/* ---- where pmkit answers and PCP crashes or reads garbage ---- */

static void test_pmkit_answers(void **state)
{
    pmResult *r;
    pmValueSet *vs;
    pmAtomValue a;
    int ctx;

    (void)state;
    ctx = new_context();
    /* (expr)[instance]: the instance (PCP crashes) */
    pmID sel = add("u.sel", "(dm.ia.u32 + 1)[two]");
    /* min, max and scalar of no values: no values (PCP: its buffer) */
    pmID mn = add("u.min", "min(dm.ie.u32)");
    pmID mx = add("u.max", "max(dm.ie.u32)");
    pmID sc = add("u.scalar", "scalar(dm.ie.u32)");
    /* a ternary choosing positions the shorter operand does not have:
     * left out (PCP reads past its array) */
    pmID tern = add("u.tern", "dm.zero > 0 ? dm.ia.u32 : dm.ia.sparse");
    /* "!" of a double: 0 or 1 as a double (PCP writes 32 bits of it) */
    pmID not = add("u.not", "!(dm.double + 1)");
    /* strings whole through instant(), the ternary and matchinst() */
    pmID str = add("u.str", "dm.small >= 0 ? dm.string : dm.string");
    pmID mstr = add("u.mstr", "matchinst(/^t/, dm.ia.string)");

    /* instance two comes every other fetch */
    vs = fetch_one(sel, &r);
    if (vs->numval == 0) {
        pmFreeResult(r);
        vs = fetch_one(sel, &r);
    }
    assert_int_equal(vs->numval, 1);
    assert_int_equal(vs->vlist[0].inst, 2);
    pmExtractValue(vs->valfmt, &vs->vlist[0], PM_TYPE_U32, &a, PM_TYPE_U32);
    assert_true(a.ul > 201 && a.ul < 300); /* dm.ia.u32[two] is 200 + fetches */
    pmFreeResult(r);
    assert_int_equal(fetch_one(mn, &r)->numval, 0);
    pmFreeResult(r);
    assert_int_equal(fetch_one(mx, &r)->numval, 0);
    pmFreeResult(r);
    assert_int_equal(fetch_one(sc, &r)->numval, 0);
    pmFreeResult(r);
    vs = fetch_one(tern, &r);
    assert_int_equal(vs->numval, 2);
    assert_int_equal(vs->vlist[0].inst, 0);
    assert_int_equal(vs->vlist[1].inst, 1);
    pmFreeResult(r);
    vs = fetch_one(not, &r);
    assert_int_equal(vs->numval, 1);
    pmExtractValue(vs->valfmt, &vs->vlist[0], PM_TYPE_DOUBLE, &a, PM_TYPE_DOUBLE);
    assert_true(a.d == 0.0);
    pmFreeResult(r);
    vs = fetch_one(str, &r);
    assert_int_equal(vs->numval, 1);
    assert_int_equal(pmExtractValue(vs->valfmt, &vs->vlist[0], PM_TYPE_STRING, &a, PM_TYPE_STRING),
                     0);
    assert_non_null(a.cp);
    free(a.cp);
    pmFreeResult(r);
    vs = fetch_one(mstr, &r);
    assert_true(vs->numval == 1 || vs->numval == 2); /* (two and) three */
    assert_int_equal(vs->vlist[vs->numval - 1].inst, 3);
    assert_int_equal(vs->valfmt, PM_VAL_DPTR);
    assert_int_equal(vs->vlist[0].value.pval->vtype, PM_TYPE_STRING);
    pmFreeResult(r);
    pmDestroyContext(ctx);
}

/* ---- limits: refused whole, with a message ---- */

static void test_limits(void **state)
{
    size_t n = (size_t)1 << 20;
    char *e = malloc(n + 1), *err = NULL;

    (void)state;
    assert_non_null(e);
    /* 1 MB: over pmkit's 256 KiB (PCP takes it) */
    for (size_t i = 0; i + 1 < n; i += 2) {
        e[i] = '1';
        e[i + 1] = '+';
    }
    e[n - 1] = '1';
    e[n] = '\0';
    assert_int_equal(pmRegisterDerivedMetric("lim.long", e, &err), -1);
    assert_non_null(err);
    assert_non_null(strstr(err, "Expression too long"));
    free(err);
    /* nesting 100,000 deep, of parentheses and of unary minus: PCP's
     * parser stack limit, as PCP refuses them */
    for (int form = 0; form < 2; form++) {
        size_t d = 100000, k = 0;
        for (size_t i = 0; i < d; i++)
            e[k++] = form == 0 ? '(' : '-';
        e[k++] = '1';
        for (size_t i = 0; form == 0 && i < d; i++)
            e[k++] = ')';
        e[k] = '\0';
        err = NULL;
        assert_int_equal(pmRegisterDerivedMetric("lim.deep", e, &err), -1);
        assert_non_null(err);
        free(err);
    }
    /* nothing registered: the names are unknown */
    const char *names[] = {"lim.long", "lim.deep"};
    pmID id;
    assert_true(pmLookupName(1, &names[0], &id) < 0);
    assert_true(pmLookupName(1, &names[1], &id) < 0);
    free(e);
}

/* ---- errors and controls ---- */

static void test_errstr_and_controls(void **state)
{
    int v = 0, ctx;
    char *msg;

    (void)state;
    assert_null(pmRegisterDerived("ok.one", "dm.u32 + 1"));
    assert_null(pmDerivedErrStr());
    /* the answer points into the expression, the message is apart */
    static const char bad[] = "dm.u32 +";
    msg = pmRegisterDerived("bad.one", bad);
    assert_ptr_equal(msg, bad + 7);
    assert_non_null(pmDerivedErrStr());
    assert_non_null(strstr(pmDerivedErrStr(), "Arithmetic expression expected to follow PLUS"));
    /* the context limit is the current context's */
    assert_int_equal(pmGetDerivedControl(PCP_DERIVED_CONTEXT_LIMIT, &v), PM_ERR_NOCONTEXT);
    ctx = new_context();
    assert_int_equal(pmGetDerivedControl(PCP_DERIVED_CONTEXT_LIMIT, &v), 0);
    assert_int_equal(v, -1);
    /* a context limit of 1: the second per-context metric is refused */
    assert_int_equal(pmSetDerivedControl(PCP_DERIVED_CONTEXT_LIMIT, 1), 0);
    assert_null(pmAddDerived("lim.c1", "dm.u32"));
    assert_non_null(pmAddDerived("lim.c2", "dm.u32"));
    assert_int_equal(pmSetDerivedControl(PCP_DERIVED_CONTEXT_LIMIT, -1), 0);
    assert_int_equal(pmGetDerivedControl(PCP_DERIVED_CONTEXT_LIMIT, &v), 0);
    assert_int_equal(v, -1);
    assert_true(pmGetDerivedControl(99, &v) < 0);
    pmDestroyContext(ctx);
}

/* ---- fetch groups fetch derived metrics ---- */

static void test_fetchgroup(void **state)
{
    pmFG fg = NULL;
    pmAtomValue a, inst_vals[8];
    int sts, ists[8], insts[8];
    unsigned n = 0;

    (void)state;
    assert_null(pmRegisterDerived("fg.sum", "dm.u32 + dm.i32"));
    assert_null(pmRegisterDerived("fg.set", "dm.ia.u32 * 2"));
    assert_int_equal(pmCreateFetchGroup(&fg, PM_CONTEXT_LOCAL, NULL), 0);
    assert_int_equal(pmExtendFetchGroup_item(fg, "fg.sum", NULL, NULL, &a, PM_TYPE_DOUBLE, &sts),
                     0);
    assert_int_equal(pmExtendFetchGroup_indom(fg, "fg.set", NULL, insts, NULL, inst_vals,
                                              PM_TYPE_U32, ists, 8, &n, NULL),
                     0);
    assert_int_equal(pmFetchGroup(fg), 0);
    assert_int_equal(sts, 0);
    assert_true(n == 4 || n == 5); /* instance two comes every other fetch */
    assert_int_equal(insts[0], 0);
    assert_int_equal(insts[1], 1);
    assert_int_equal(ists[1], 0);
    assert_true(inst_vals[1].ul > 200 && inst_vals[1].ul % 2 == 0); /* 2 x (100 + fetches) */
    assert_true(a.d != 0);
    assert_int_equal(pmDestroyFetchGroup(fg), 0);
}

/* ---- allocations: none per fetch once warm, beyond the result ---- */

static long allocations_of_fetch(int n, pmID *ids)
{
    pmResult *r;
    long before;

    alloc_left = 1L << 40;
    before = alloc_left;
    assert_int_equal(pmFetch(n, ids, &r), 0);
    long used = before - alloc_left;
    alloc_left = -1;
    pmFreeResult(r);
    return used;
}

static void test_allocations_per_fetch(void **state)
{
    enum { N = 100 };
    static const char *const forms[] = {
        "dm.u32 + dm.i32 * 2",
        "rate(dm.c.u32)",
        "dm.ia.u32 * 2 + dm.ia.i32",
        "avg(dm.ia.double) * 3",
        "delta(dm.ia.bytes) / 2",
        "dm.small ? dm.u64 : 7 * dm.u64",
        "matchinst(/^t/, dm.ia.u32)",
        "dm.ia.u32[two] + dm.u32",
        "rescale(dm.x.kbytes, \"Mbyte\")",
        "sum(dm.ib.u32) - count(dm.ia.u32)",
    };
    pmID ids[N], plain[N];
    char name[32];
    int ctx;

    (void)state;
    ctx = new_context();
    for (int i = 0; i < N; i++) {
        snprintf(name, sizeof(name), "al.m%d", i);
        ids[i] = add(name, forms[i % 10]);
    }
    const char *pn[] = {"dm.u32"};
    assert_int_equal(pmLookupName(1, pn, &plain[0]), 1);
    for (int i = 1; i < N; i++)
        plain[i] = plain[0];
    /* warm: bound, buffers grown to the largest fetch (instances come
     * and go every other fetch) */
    for (int k = 0; k < 4; k++)
        allocations_of_fetch(N, ids);
    long derived = allocations_of_fetch(N, ids);
    long again = allocations_of_fetch(N, ids);
    long base = allocations_of_fetch(N, plain);
    /* what the result needs, the same from one fetch to the next: the
     * plain metrics' fetch and a value set per derived metric (its
     * values within) */
    assert_true(derived <= base + N); /* one value set per metric */
    assert_true(again <= derived + 2 && derived <= again + 2);
    fprintf(stderr, "allocations: %ld and %ld per fetch of %d derived metrics, %ld of %d plain\n",
            derived, again, N, base, N);
    pmDestroyContext(ctx);
}

/* ---- the plan a context keeps for a repeated request ---- */

/* A request naming a context's own metric before it exists (its PMID
 * taken from another context, where it exists) and again once added: the
 * plan kept from the first fetch must not answer the second. */
/* Two fetches of ids, "X.a" = dm.u32 + 1 and "X.b" = dm.u32 * 2: both
 * answer, the second from the first's value. */
static void fetch_both_twice(pmID *ids)
{
    pmResult *r;

    for (int k = 0; k < 2; k++) {
        assert_int_equal(pmFetch(2, ids, &r), 0);
        assert_int_equal(r->vset[0]->numval, 1);
        assert_int_equal(r->vset[1]->numval, 1);
        assert_int_equal(r->vset[1]->vlist[0].value.lval,
                         2 * (r->vset[0]->vlist[0].value.lval - 1));
        pmFreeResult(r);
    }
}

static void test_plan_after_add(void **state)
{
    pmResult *r;
    pmID ids[2];
    int first, second;

    (void)state;
    first = new_context();
    ids[0] = add("kp.a", "dm.u32 + 1");
    ids[1] = add("kp.b", "dm.u32 * 2");
    second = new_context();
    assert_int_equal(add("kp.a", "dm.u32 + 1"), ids[0]); /* by index, per context */
    for (int k = 0; k < 2; k++) {                        /* the second fetch finds the plan kept */
        assert_int_equal(pmFetch(2, ids, &r), 0);
        assert_int_equal(r->vset[0]->numval, 1);
        assert_int_equal(r->vset[1]->numval, PM_ERR_PMID);
        pmFreeResult(r);
    }
    assert_int_equal(add("kp.b", "dm.u32 * 2"), ids[1]);
    fetch_both_twice(ids);
    pmDestroyContext(second);
    pmDestroyContext(first);
}

/* A metric added to the fetching context while a fetch is under way:
 * the agent's fetch (dm_agent.c's hook, in the library's fetch between
 * the plan and the evaluation) adds it once.  A local context's agent runs
 * under the library's lock, which pmAddDerivedMetric takes too, so the add
 * is made from the fetching thread itself: the moment is exact. */
static int mid_fetch_adds;
static int mid_fetch_sts;

static void add_mid_fetch(void)
{
    char *err = NULL;

    if (mid_fetch_adds-- <= 0)
        return;
    mid_fetch_sts = pmAddDerivedMetric("mf.b", "dm.u32 * 2", &err);
    free(err);
}

/* The plan of a fetch during which the context's own metrics changed must
 * not be kept: the request names mf.b, added mid-fetch, and the next fetch
 * must see it. */
static void test_plan_after_add_mid_fetch(void **state)
{
    void (**hook)(void);
    void *dso;
    pmResult *r;
    pmID ids[2];
    int first, second;

    (void)state;
    first = new_context();
    ids[0] = add("mf.a", "dm.u32 + 1");
    ids[1] = add("mf.b", "dm.u32 * 2");
    second = new_context();
    assert_int_equal(add("mf.a", "dm.u32 + 1"), ids[0]);
    assert_non_null(dso = dlopen(DM_DSO, RTLD_NOW | RTLD_NOLOAD));
    assert_non_null(hook = (void (**)(void))dlsym(dso, "dm_fetch_hook"));
    mid_fetch_adds = 1;
    mid_fetch_sts = -1;
    *hook = add_mid_fetch;
    assert_int_equal(pmFetch(2, ids, &r), 0); /* planned before mf.b was there */
    assert_int_equal(mid_fetch_adds, 0);
    assert_int_equal(mid_fetch_sts, 0);
    assert_int_equal(r->vset[0]->numval, 1);
    assert_int_equal(r->vset[1]->numval, PM_ERR_PMID);
    pmFreeResult(r);
    fetch_both_twice(ids);
    *hook = NULL;
    dlclose(dso);
    pmDestroyContext(second);
    pmDestroyContext(first);
}

/* ---- every allocation failing in turn ---- */

static void test_allocation_failures(void **state)
{
    int done = 0;

    (void)state;
    for (long n = 0; !done && n < 2000; n++) {
        char *err = NULL;
        int ctx = pmNewContext(PM_CONTEXT_LOCAL, NULL), r1 = -ENOMEM, r2 = -ENOMEM, f = -ENOMEM;
        pmResult *res = NULL;
        pmID id = PM_ID_NULL;
        assert_true(ctx >= 0);
        alloc_left = n;
        r1 = pmAddDerivedMetric("af.a", "rate(dm.ia.count) * 2 > 3 ? dm.ia.u32 : dm.ia.u32 + 1",
                                &err);
        free(err);
        err = NULL;
        r2 = pmAddDerivedMetric("af.b", "matchinst(/^t/, dm.ia.u32) + avg(dm.ia.double)", &err);
        free(err);
        const char *names[] = {"af.a", "af.b"};
        pmID ids[2] = {PM_ID_NULL, PM_ID_NULL};
        if (r1 == 0 && r2 == 0 && pmLookupName(2, names, ids) == 2) {
            id = ids[0];
            f = pmFetch(2, ids, &res);
            if (f == 0) {
                pmFreeResult(res);
                f = pmFetch(2, ids, &res);
            }
        }
        alloc_left = -1;
        if (f == 0) {
            assert_int_equal(res->numpmid, 2);
            pmFreeResult(res);
        }
        (void)id;
        pmDestroyContext(ctx);
        /* each answer is right or an error (ASan sees any leak) */
        done = r1 == 0 && r2 == 0 && f == 0;
    }
    assert_true(done);
}

/* ---- configuration files: PCP's bugs fixed (docs/compat.md) ---- */

/* A last line with no newline is read, and lines after a quoted value over
 * lines keep their numbers (PCP drops the one, numbers the other 3). */
static void test_config_lines(void **state)
{
    char path[] = "/tmp/unit_derived_cfg.XXXXXX", errpath[] = "/tmp/unit_derived_err.XXXXXX";
    const char text[] = "cfg.a = 1\ncfg.a(helptext) = \"x\ny\"\nbad line\ncfg.b = 2";
    int fd = mkstemp(path), efd = mkstemp(errpath), saved = dup(2);
    char want[512], got[512] = "";
    pmID pmid = PM_ID_NULL;
    const char *names[] = {"cfg.b"};

    (void)state;
    assert_true(fd >= 0 && efd >= 0 && saved >= 0);
    assert_int_equal(write(fd, text, sizeof(text) - 1), (ssize_t)sizeof(text) - 1);
    close(fd);
    fflush(stderr);
    dup2(efd, 2);
    int n = pmLoadDerivedConfig(path);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    assert_int_equal(n, 2);
    ssize_t len = pread(efd, got, sizeof(got) - 1, 0);
    assert_true(len > 0);
    got[len] = '\0';
    close(efd);
    snprintf(want, sizeof(want),
             "[%s:4] Error: pmLoadDerivedConfig: missing ``='' after derived metric name\n"
             "bad line\n",
             path);
    assert_string_equal(got, want);
    new_context();
    assert_int_equal(pmLookupName(1, names, &pmid), 1);
    unlink(path);
    unlink(errpath);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pmkit_answers),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_errstr_and_controls),
        cmocka_unit_test(test_fetchgroup),
        cmocka_unit_test(test_allocations_per_fetch),
        cmocka_unit_test(test_allocation_failures),
        cmocka_unit_test(test_config_lines),
        cmocka_unit_test(test_plan_after_add),
        cmocka_unit_test(test_plan_after_add_mid_fetch),
    };

    return cmocka_run_group_tests(tests, setup, NULL);
}
