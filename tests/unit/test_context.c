/*
 * Unit tests for contexts and profiles over pmkit's own simple agent
 * (pmdas/simple, domain 253): what tests/oracle/probe_local.c cannot
 * compare with PCP because pmkit differs on purpose (docs/compat.md):
 * a duplicated context applies the profile it copied, a failed
 * pmNewContext keeps the previous context current, host contexts answer
 * PM_ERR_NYI, and local contexts work from a second thread.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <setjmp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <pcp/pmapi.h>

#ifndef SIMPLE_DSO
#error "build with -DSIMPLE_DSO=path/to/pmda_simple.so"
#endif

static pmID color;
static pmInDom color_indom;

/* Instances of simple.color in one fetch, as a bit mask. */
static int colours(void)
{
    pmResult *r;
    int mask = 0;

    assert_int_equal(pmFetch(1, &color, &r), 0);
    for (int i = 0; i < r->vset[0]->numval; i++)
        mask |= 1 << r->vset[0]->vlist[i].inst;
    pmFreeResult(r);
    return mask;
}

static void test_no_context(void **state)
{
    pmDesc d;

    (void)state;
    assert_int_equal(pmWhichContext(), PM_ERR_NOCONTEXT);
    assert_int_equal(pmLookupDesc(color, &d), PM_ERR_NOCONTEXT);
    assert_int_equal(pmAddProfile(PM_INDOM_NULL, 0, NULL), PM_ERR_NOCONTEXT);
    assert_int_equal(pmDupContext(), PM_ERR_NOCONTEXT);
}

static void test_failed_new_keeps_current(void **state)
{
    int ctx = pmNewContext(PM_CONTEXT_LOCAL, NULL);

    (void)state;
    assert_true(ctx >= 0);
    assert_int_equal(pmNewContext(77, NULL), PM_ERR_NOCONTEXT);
    assert_int_equal(pmWhichContext(), ctx);
    assert_int_equal(pmNewContext(PM_CONTEXT_HOST, "unix:/nonexistent/pmcd.socket"), -ENOENT);
    assert_int_equal(pmNewContext(PM_CONTEXT_HOST, NULL), PM_ERR_NOCONTEXT);
    assert_int_equal(pmNewContext(PM_CONTEXT_HOST, ""), PM_ERR_NOTHOST);
    assert_int_equal(pmWhichContext(), ctx);
    /* handles advance on failed attempts that name a source (PCP's
     * numbering: not for an unknown type or a NULL name) */
    assert_int_equal(pmNewContext(PM_CONTEXT_LOCAL, NULL), ctx + 3);
    assert_int_equal(pmDestroyContext(ctx + 3), 0);
    assert_int_equal(pmWhichContext(), PM_ERR_NOCONTEXT);
    assert_int_equal(pmDestroyContext(ctx + 3), PM_ERR_NOCONTEXT);
    assert_int_equal(pmUseContext(ctx), 0);
    assert_int_equal(pmDestroyContext(ctx), 0);
}

static void test_dup_applies_profile(void **state)
{
    int ctx = pmNewContext(PM_CONTEXT_LOCAL, NULL), dup, one = 1;

    (void)state;
    assert_true(ctx >= 0);
    assert_int_equal(colours(), 7);
    assert_int_equal(pmAddProfile(color_indom, 0, NULL), 0);
    assert_int_equal(pmDelProfile(color_indom, 1, &one), 0);
    assert_int_equal(colours(), 5);
    dup = pmDupContext();
    assert_true(dup > ctx);
    assert_int_equal(pmWhichContext(), dup);
    assert_int_equal(colours(), 5); /* PCP 6.0.3 answers 7 here */
    /* the copy is independent of the original */
    assert_int_equal(pmAddProfile(PM_INDOM_NULL, 0, NULL), 0);
    assert_int_equal(colours(), 7);
    assert_int_equal(pmUseContext(ctx), 0);
    assert_int_equal(colours(), 5);
    assert_int_equal(pmDestroyContext(dup), 0);
    assert_int_equal(pmDestroyContext(ctx), 0);
}

/* event.flags / event.missed in a local context, as Debian's libpcp answers
 * them (no agent needed): U32 discrete descriptors, no values, text. */
static void test_anonymous_derived(void **state)
{
    int ctx = pmNewContext(PM_CONTEXT_LOCAL, NULL);
    pmID ids[2] = {pmID_build(511, 0, 1), pmID_build(511, 0, 2)};
    pmResult *r;
    pmDesc d;
    char *text;

    (void)state;
    assert_true(ctx >= 0);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(pmLookupDesc(ids[i], &d), 0);
        assert_int_equal(d.type, PM_TYPE_U32);
        assert_int_equal(d.sem, PM_SEM_DISCRETE);
        assert_int_equal(d.indom, PM_INDOM_NULL);
        assert_int_equal(pmLookupText(ids[i], PM_TEXT_ONELINE, &text), 0);
        assert_true(text[0] != '\0');
        free(text);
    }
    assert_int_equal(pmLookupDesc(pmID_build(511, 0, 3), &d), PM_ERR_NOAGENT);
    assert_int_equal(pmFetch(2, ids, &r), 0);
    assert_int_equal(r->vset[0]->numval, 0);
    assert_int_equal(r->vset[1]->numval, 0);
    pmFreeResult(r);
    assert_int_equal(pmDestroyContext(ctx), 0);
}

static void *other_thread(void *arg)
{
    int *sts = arg;
    int ctx = pmNewContext(PM_CONTEXT_LOCAL, NULL);

    sts[0] = ctx;
    sts[1] = ctx >= 0 ? colours() : -1;
    if (ctx >= 0)
        pmDestroyContext(ctx);
    return NULL;
}

static void test_second_thread(void **state)
{
    pthread_t t;
    int sts[2];
    int ctx = pmNewContext(PM_CONTEXT_LOCAL, NULL);

    (void)state;
    assert_true(ctx >= 0);
    assert_int_equal(pthread_create(&t, NULL, other_thread, sts), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_true(sts[0] >= 0);
    assert_int_equal(sts[1], 7);
    /* the other thread's context was never current here */
    assert_int_equal(pmWhichContext(), ctx);
    assert_int_equal(pmDestroyContext(ctx), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_context),          cmocka_unit_test(test_failed_new_keeps_current),
        cmocka_unit_test(test_dup_applies_profile), cmocka_unit_test(test_anonymous_derived),
        cmocka_unit_test(test_second_thread),
    };
    char spec[4096];

    color = pmID_build(253, 0, 1);
    color_indom = pmInDom_build(253, 0);
    snprintf(spec, sizeof(spec), "add,253,%s,simple_init", SIMPLE_DSO);
    if (pmSpecLocalPMDA("clear") != NULL || pmSpecLocalPMDA(spec) != NULL) {
        fprintf(stderr, "cannot set up the simple agent\n");
        return 1;
    }
    setenv("PCP_STDERR", "/dev/null", 1); /* simple's warnings about its help */
    return cmocka_run_group_tests(tests, NULL, NULL);
}
