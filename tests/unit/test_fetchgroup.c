/*
 * Unit tests for fetch groups over tests/oracle/fg_agent.c (domain 251)
 * in a local context: what tests/oracle/probe_fetchgroup.c cannot compare
 * with PCP, because pmkit differs on purpose (docs/compat.md) or PCP's
 * answer is not something to copy: bad handles, the profile a group sets,
 * strings and names owned by the group (leaks show under ASan), values
 * that are absent, text that is a number, the rate against the group's
 * own timestamps, and event fields.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <pcp/pmapi.h>

#if !defined(FG_DSO) || !defined(FG_PMNS)
#error "build with -DFG_DSO=path/to/fg_agent.so -DFG_PMNS=path/to/fg.pmns"
#endif

static pmFG new_group(void)
{
    pmFG fg = NULL;

    assert_int_equal(pmCreateFetchGroup(&fg, PM_CONTEXT_LOCAL, NULL), 0);
    assert_non_null(fg);
    return fg;
}

static void null_handles(void **state)
{
    struct timeval tv;
    struct timespec ts;
    pmAtomValue v;
    pmFG fg = (pmFG)&tv;

    (void)state;
    assert_int_equal(pmCreateFetchGroup(NULL, PM_CONTEXT_LOCAL, NULL), -EINVAL);
    assert_int_equal(pmCreateFetchGroup(&fg, 77, NULL), PM_ERR_NOCONTEXT);
    assert_null(fg);
    assert_int_equal(pmGetFetchGroupContext(NULL), -EINVAL);
    assert_int_equal(pmExtendFetchGroup_item(NULL, "fg.u32", NULL, NULL, &v, PM_TYPE_U32, NULL),
                     -EINVAL);
    assert_int_equal(pmExtendFetchGroup_indom(NULL, "fg.indom", NULL, NULL, NULL, NULL, PM_TYPE_U32,
                                              NULL, 4, NULL, NULL),
                     -EINVAL);
    assert_int_equal(pmExtendFetchGroup_timestamp(NULL, &tv), -EINVAL);
    assert_int_equal(pmExtendFetchGroup_timespec(NULL, &ts), -EINVAL);
    assert_int_equal(pmFetchGroup(NULL), -EINVAL);
    assert_int_equal(pmClearFetchGroup(NULL), -EINVAL);
    assert_int_equal(pmDestroyFetchGroup(NULL), -EINVAL);
    fg = new_group();
    assert_int_equal(pmExtendFetchGroup_item(fg, NULL, NULL, NULL, &v, PM_TYPE_U32, NULL), -EINVAL);
    assert_int_equal(pmDestroyFetchGroup(fg), 0);
}

/* An item of one instance puts only that instance in the group's profile;
 * a whole-domain registration puts them all back. */
static void profile_follows_registrations(void **state)
{
    pmFG fg = new_group();
    pmID pmid;
    const char *name = "fg.indom";
    pmAtomValue v;
    pmResult *r;

    (void)state;
    assert_int_equal(pmLookupName(1, &name, &pmid), 1);
    assert_int_equal(pmExtendFetchGroup_item(fg, "fg.indom", "three", NULL, &v, PM_TYPE_U32, NULL),
                     0);
    assert_int_equal(pmUseContext(pmGetFetchGroupContext(fg)), 0);
    assert_int_equal(pmFetch(1, &pmid, &r), 0);
    assert_int_equal(r->vset[0]->numval, 1);
    assert_int_equal(r->vset[0]->vlist[0].inst, 3);
    pmFreeResult(r);
    assert_int_equal(pmExtendFetchGroup_item(fg, "fg.indom", "one", NULL, &v, PM_TYPE_U32, NULL),
                     0);
    assert_int_equal(pmFetch(1, &pmid, &r), 0);
    assert_int_equal(r->vset[0]->numval, 2);
    pmFreeResult(r);
    assert_int_equal(pmExtendFetchGroup_indom(fg, "fg.indom", NULL, NULL, NULL, NULL, PM_TYPE_U32,
                                              NULL, 4, NULL, NULL),
                     0);
    assert_int_equal(pmFetch(1, &pmid, &r), 0);
    assert_int_equal(r->vset[0]->numval, 4);
    pmFreeResult(r);
    assert_int_equal(pmDestroyFetchGroup(fg), 0);
}

/* An instance domain with no instance in the fetch (here: all of them
 * taken out of the group's profile) is empty, not an error. */
static void empty_instance_domain(void **state)
{
    pmFG fg = new_group();
    pmAtomValue v[2];
    int stss[2] = {1, 1}, sts = 1;
    unsigned int num = 9;

    (void)state;
    assert_int_equal(pmExtendFetchGroup_indom(fg, "fg.indom", NULL, NULL, NULL, v, PM_TYPE_U32,
                                              stss, 2, &num, &sts),
                     0);
    assert_int_equal(stss[0], PM_ERR_VALUE); /* as PCP registers an empty slot */
    assert_int_equal(pmUseContext(pmGetFetchGroupContext(fg)), 0);
    assert_int_equal(pmDelProfile(pmInDom_build(251, 0), 0, NULL), 0);
    assert_int_equal(pmFetchGroup(fg), 0);
    assert_int_equal(sts, 0);
    assert_int_equal(num, 0);
    assert_int_equal(v[0].ul, UINT32_MAX);
    assert_int_equal(pmDestroyFetchGroup(fg), 0);
}

/*
 * The agent leaves fg.discrete and instance 11 of fg.indom out of even
 * fetches: a discrete metric keeps its last value and status, an item
 * whose instance is missing gets PM_ERR_VALUE and its sentinel, and an
 * instance domain lists the instances there are.
 */
static void absent_values(void **state)
{
    pmFG fg = new_group();
    pmAtomValue disc, eleven, vals[4], count;
    int disc_sts = 1, eleven_sts = 1, codes[4], stss[4], sts = 1;
    char *inames[4];
    unsigned int num = 99, kept = UINT32_MAX, prev = 0;

    (void)state;
    assert_int_equal(
        pmExtendFetchGroup_item(fg, "fg.discrete", NULL, NULL, &disc, PM_TYPE_U32, &disc_sts), 0);
    assert_int_equal(disc.ul, UINT32_MAX); /* the sentinel until a fetch */
    assert_int_equal(
        pmExtendFetchGroup_item(fg, "fg.indom", "eleven", NULL, &eleven, PM_TYPE_64, &eleven_sts),
        0);
    assert_int_equal(pmExtendFetchGroup_indom(fg, "fg.indom", NULL, codes, inames, vals,
                                              PM_TYPE_STRING, stss, 4, &num, &sts),
                     0);
    assert_int_equal(num, 0);
    assert_int_equal(pmExtendFetchGroup_item(fg, "fg.u32", NULL, NULL, &count, PM_TYPE_U32, NULL),
                     0);
    for (int f = 1; f <= 4; f++) {
        unsigned int n;
        assert_int_equal(pmFetchGroup(fg), 0);
        n = count.ul / 10; /* the agent's fetch count: one fetch a call */
        if (f > 1)
            assert_int_equal(n, prev + 1);
        prev = n;
        assert_int_equal(sts, 0);
        if (n % 2 != 0) {
            assert_int_equal(disc_sts, 0);
            assert_int_equal(disc.ul, 7 * n);
            kept = disc.ul;
            assert_int_equal(eleven_sts, 0);
            assert_int_equal(eleven.ll, 1100 + n);
            assert_int_equal(num, 4);
            assert_int_equal(codes[3], 11);
            assert_string_equal(inames[3], "eleven");
        } else {
            assert_int_equal(disc.ul, kept); /* the last value stays (the sentinel at first) */
            assert_int_equal(eleven_sts, PM_ERR_VALUE);
            assert_int_equal(eleven.ll, -1);
            assert_int_equal(num, 3);
        }
        assert_int_equal(codes[0], 1);
        assert_string_equal(inames[0], "one");
        assert_int_equal(codes[2], 7);
        assert_string_equal(inames[2], "seven");
        assert_int_equal(stss[0], 0);
        assert_int_equal(atoi(vals[2].cp), 700 + n);
    }
    assert_int_equal(pmClearFetchGroup(fg), 0);
    assert_int_equal(num, 0);
    assert_null(vals[0].cp);
    assert_null(inames[0]);
    assert_int_equal(disc.ul, UINT32_MAX);
    assert_int_equal(pmFetchGroup(fg), PM_ERR_TOOSMALL); /* nothing registered */
    assert_int_equal(pmDestroyFetchGroup(fg), 0);
}

/* fg.string2 is "-inf", "42 ", "0x10", " -7", "nan", "" by the agent's
 * fetch count modulo 6: text becomes a number only whole. */
static void text_as_numbers(void **state)
{
    static const struct {
        int type;
        int sts[6]; /* by fetch count modulo 6 */
    } want[] = {
        {PM_TYPE_32, {PM_ERR_TYPE, PM_ERR_TYPE, 0, 0, PM_ERR_TYPE, PM_ERR_TYPE}},
        {PM_TYPE_U32, {PM_ERR_TYPE, PM_ERR_TYPE, 0, -ERANGE, PM_ERR_TYPE, PM_ERR_TYPE}},
        {PM_TYPE_U64, {PM_ERR_TYPE, PM_ERR_TYPE, 0, 0, PM_ERR_TYPE, PM_ERR_TYPE}},
        {PM_TYPE_DOUBLE, {0, PM_ERR_TYPE, PM_ERR_TYPE, 0, 0, PM_ERR_TYPE}},
    };
    pmFG fg = new_group();
    pmAtomValue v[4], count;
    int sts[4];
    unsigned int prev = 0;

    (void)state;
    for (int i = 0; i < 4; i++)
        assert_int_equal(
            pmExtendFetchGroup_item(fg, "fg.string2", NULL, NULL, &v[i], want[i].type, &sts[i]), 0);
    assert_int_equal(pmExtendFetchGroup_item(fg, "fg.u32", NULL, NULL, &count, PM_TYPE_U32, NULL),
                     0);
    for (int f = 1; f <= 6; f++) {
        unsigned int k;
        assert_int_equal(pmFetchGroup(fg), 0);
        k = count.ul / 10 % 6;
        if (f > 1) /* one fetch a call: every text comes in turn */
            assert_int_equal(k, (prev + 1) % 6);
        prev = k;
        for (int i = 0; i < 4; i++)
            assert_int_equal(sts[i], want[i].sts[k]);
        if (k == 2) { /* "0x10" */
            assert_int_equal(v[0].l, 16);
            assert_int_equal(v[2].ull, 16);
        } else if (k == 3) { /* " -7" */
            assert_int_equal(v[0].l, -7);
            assert_int_equal(v[1].ul, UINT32_MAX); /* the sentinel */
            assert_true(v[2].ull == (unsigned long long)-7);
            assert_true(v[3].d == -7.0);
        } else if (k == 4) { /* "nan" */
            assert_true(isnan(v[3].d));
        } else if (k == 0) { /* "-inf" */
            assert_true(isinf(v[3].d) && v[3].d < 0);
        }
    }
    assert_int_equal(pmDestroyFetchGroup(fg), 0);
}

/* A rate is the change over the time between the group's own timestamps. */
static void rates_against_timestamps(void **state)
{
    pmFG fg = new_group();
    pmAtomValue rate, kb;
    int rsts = 1, ksts = 1;
    struct timespec now, then;
    struct timeval tv;

    (void)state;
    assert_int_equal(
        pmExtendFetchGroup_item(fg, "fg.counter", NULL, NULL, &rate, PM_TYPE_DOUBLE, &rsts), 0);
    assert_int_equal(
        pmExtendFetchGroup_item(fg, "fg.counter", NULL, "instant", &kb, PM_TYPE_U64, &ksts), 0);
    assert_int_equal(pmExtendFetchGroup_timespec(fg, &now), 0);
    assert_int_equal(pmExtendFetchGroup_timeval(fg, &tv), 0);
    assert_int_equal(pmFetchGroup(fg), 0);
    assert_int_equal(rsts, PM_ERR_AGAIN);
    assert_true(isnan(rate.d));
    assert_int_equal(ksts, 0);
    then = now;
    usleep(2000);
    assert_int_equal(pmFetchGroup(fg), 0);
    assert_int_equal(rsts, 0);
    assert_int_equal(kb.ull % 1000, 0); /* 1000 Kbyte a fetch */
    assert_int_equal(tv.tv_sec, now.tv_sec);
    assert_int_equal(tv.tv_usec, now.tv_nsec / 1000);
    {
        double dt = (double)(now.tv_sec - then.tv_sec) + (double)(now.tv_nsec - then.tv_nsec) / 1e9;
        assert_true(dt >= 0.002);
        assert_true(fabs(rate.d * dt - 1000) < 1e-6);
    }
    assert_int_equal(pmDestroyFetchGroup(fg), 0);
}

/* Strings and names belong to the group: fetched again and again, cleared
 * and registered anew, then destroyed, none leaks (ASan checks). */
static void strings_are_the_groups(void **state)
{
    pmFG fg = new_group();
    pmAtomValue s, vals[6];
    char *inames[6];
    unsigned int num;

    (void)state;
    for (int round = 0; round < 2; round++) {
        assert_int_equal(
            pmExtendFetchGroup_item(fg, "fg.string", NULL, NULL, &s, PM_TYPE_STRING, NULL), 0);
        assert_int_equal(pmExtendFetchGroup_indom(fg, "fg.big", NULL, NULL, inames, vals,
                                                  PM_TYPE_STRING, NULL, 6, &num, NULL),
                         0);
        for (int f = 0; f < 5; f++)
            assert_int_equal(pmFetchGroup(fg), 0);
        assert_non_null(s.cp);
        assert_int_equal(num, 6);
        assert_string_equal(inames[5], "f");
        if (round == 0)
            assert_int_equal(pmClearFetchGroup(fg), 0);
    }
    assert_int_equal(pmDestroyFetchGroup(fg), 0);
    assert_null(s.cp);
    assert_null(inames[5]);
}

/* Event fields: NULL names are -EINVAL, a field whose values do not all
 * fit fills what fits and says PM_ERR_TOOBIG, and the strings it stores
 * are the group's (ASan sees a leak or a double free). */
static void event_fields(void **state)
{
    pmFG fg = new_group();
    pmAtomValue v[2], text[3];
    struct timespec t[2];
    int stss[2], sts = 1, tsts = 1;
    unsigned int num = 9, tnum = 9;

    (void)state;
    assert_int_equal(pmExtendFetchGroup_event(fg, NULL, NULL, "fg.u32", NULL, t, v, PM_TYPE_U32,
                                              stss, 2, &num, &sts),
                     -EINVAL);
    assert_int_equal(pmExtendFetchGroup_event(fg, "fg.event", NULL, NULL, NULL, t, v, PM_TYPE_U32,
                                              stss, 2, &num, &sts),
                     -EINVAL);
    assert_int_equal(pmExtendFetchGroup_event(fg, "fg.event", NULL, "fg.u32", NULL, t, v,
                                              PM_TYPE_U32, stss, 2, &num, &sts),
                     0);
    assert_int_equal(num, 0);
    assert_int_equal(pmExtendFetchGroup_event(fg, "fg.event", NULL, "fg.u32", NULL, NULL, text,
                                              PM_TYPE_STRING, NULL, 3, &tnum, &tsts),
                     0);
    for (int f = 0; f < 3; f++) {
        assert_int_equal(pmFetchGroup(fg), 0);
        assert_int_equal(sts, PM_ERR_TOOBIG); /* three records carry fg.u32 */
        assert_int_equal(num, 2);
        assert_int_equal(stss[0], 0);
        assert_int_equal(v[1].ul, v[0].ul + 100);
        assert_int_equal(t[0].tv_nsec, 250000); /* 250 microseconds */
        assert_int_equal(tsts, 0);
        assert_int_equal(tnum, 3);
        assert_int_equal(atoi(text[2].cp), (int)v[0].ul + 200);
    }
    assert_int_equal(pmDestroyFetchGroup(fg), 0);
    assert_null(text[0].cp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(null_handles),           cmocka_unit_test(profile_follows_registrations),
        cmocka_unit_test(empty_instance_domain),  cmocka_unit_test(absent_values),
        cmocka_unit_test(text_as_numbers),        cmocka_unit_test(rates_against_timestamps),
        cmocka_unit_test(strings_are_the_groups), cmocka_unit_test(event_fields),
    };
    char spec[4096];
    int sts;

    snprintf(spec, sizeof(spec), "add,251,%s,fg_init", FG_DSO);
    if (pmSpecLocalPMDA("clear") != NULL || pmSpecLocalPMDA(spec) != NULL) {
        fprintf(stderr, "cannot set up the fetch-group agent\n");
        return 1;
    }
    sts = pmLoadASCIINameSpace(FG_PMNS, 1);
    if (sts < 0) {
        fprintf(stderr, "namespace: %s\n", pmErrStr(sts));
        return 1;
    }
    setenv("PCP_STDERR", "/dev/null", 1); /* the agent has no help text */
    return cmocka_run_group_tests(tests, NULL, NULL);
}
