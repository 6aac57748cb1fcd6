/*
 * Unit tests for the pmID / pmInDom helpers: pmID_build, pmID_domain,
 * pmID_cluster, pmID_item, pmInDom_build, pmInDom_domain, pmInDom_serial,
 * pmIDStr[_r], pmInDomStr[_r], and the IS_DYNAMIC_ROOT / IS_DERIVED macros.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <pcp/pmapi.h>

#include "test_util.h"

/* ---- pmID_build ---- */

static void pmid_build_packs_domain_cluster_item(void **state)
{
    (void)state;
    assert_int_equal(pmID_build(253, 1, 2), 0x3f400402);
}

static void pmid_build_single_fields(void **state)
{
    (void)state;
    assert_int_equal(pmID_build(1, 0, 0), 0x00400000);
    assert_int_equal(pmID_build(0, 1, 0), 0x00000400);
    assert_int_equal(pmID_build(0, 0, 1), 0x00000001);
    assert_int_equal(pmID_build(0, 0, 0), 0x00000000);
}

static void pmid_build_maximum_fields_leave_flag_bit_clear(void **state)
{
    (void)state;
    assert_int_equal(pmID_build(511, 4095, 1023), 0x7fffffff);
}

static void pmid_build_truncates_oversized_fields(void **state)
{
    (void)state;
    assert_int_equal(pmID_build(512, 4096, 1024), 0x00000000);
    assert_int_equal(pmID_build(513, 4097, 1025), pmID_build(1, 1, 1));
    assert_int_equal(pmID_build(0xffffffffu, 0, 0), 0x7fc00000);
}

static void pmid_build_dynamic_root(void **state)
{
    (void)state;
    assert_int_equal(pmID_build(511, 60, 0), 0x7fc0f000);
}

/* ---- pmID extractors ---- */

static void pmid_extractors_return_fields(void **state)
{
    pmID id = pmID_build(253, 1, 2);
    (void)state;
    assert_int_equal(pmID_domain(id), 253);
    assert_int_equal(pmID_cluster(id), 1);
    assert_int_equal(pmID_item(id), 2);
}

static void pmid_extractors_ignore_flag_bit(void **state)
{
    (void)state;
    assert_int_equal(pmID_domain(0xbf400001u), 253);
    assert_int_equal(pmID_cluster(0xbf400001u), 0);
    assert_int_equal(pmID_item(0xbf400001u), 1);
    assert_int_equal(pmID_domain(0x80000000u), 0);
}

static void pmid_extractors_on_pm_id_null(void **state)
{
    (void)state;
    assert_int_equal(pmID_domain(PM_ID_NULL), 511);
    assert_int_equal(pmID_cluster(PM_ID_NULL), 4095);
    assert_int_equal(pmID_item(PM_ID_NULL), 1023);
}

/* ---- pmInDom ---- */

static void indom_build_packs_domain_serial(void **state)
{
    (void)state;
    assert_int_equal(pmInDom_build(253, 1), 0x3f400001);
    assert_int_equal(pmInDom_build(1, 0), 0x00400000);
    assert_int_equal(pmInDom_build(0, 0x3fffff), 0x003fffff);
}

static void indom_build_truncates_oversized_fields(void **state)
{
    (void)state;
    assert_int_equal(pmInDom_build(512, 0x400000), 0x00000000);
    assert_int_equal(pmInDom_build(511, 0x3fffff), 0x7fffffff);
}

static void indom_extractors_return_fields(void **state)
{
    pmInDom in = pmInDom_build(253, 1);
    (void)state;
    assert_int_equal(pmInDom_domain(in), 253);
    assert_int_equal(pmInDom_serial(in), 1);
}

static void indom_extractors_ignore_flag_bit(void **state)
{
    (void)state;
    assert_int_equal(pmInDom_domain(PM_INDOM_NULL), 511);
    assert_int_equal(pmInDom_serial(PM_INDOM_NULL), 0x3fffff);
    assert_int_equal(pmInDom_domain(0x80000001u), 0);
    assert_int_equal(pmInDom_serial(0x80000001u), 1);
}

/* ---- pmIDStr ---- */

static void pmidstr_formats_domain_cluster_item(void **state)
{
    (void)state;
    assert_string_equal(pmIDStr(pmID_build(253, 1, 2)), "253.1.2");
    assert_string_equal(pmIDStr(pmID_build(511, 4095, 1023)), "511.4095.1023");
}

static void pmidstr_pm_id_null(void **state)
{
    (void)state;
    assert_string_equal(pmIDStr(PM_ID_NULL), "PM_ID_NULL");
}

static void pmidstr_zero(void **state)
{
    (void)state;
    assert_string_equal(pmIDStr(0), "0.0.0");
}

static void pmidstr_ignores_flag_bit(void **state)
{
    (void)state;
    assert_string_equal(pmIDStr(0x80000000u), "0.0.0");
    assert_string_equal(pmIDStr(0xbf400001u), "253.0.1");
    assert_string_equal(pmIDStr(0xfffffffeu), "511.4095.1022");
}

static void pmidstr_dynamic_root_shows_cluster_star_star(void **state)
{
    (void)state;
    assert_string_equal(pmIDStr(pmID_build(511, 60, 0)), "60.*.*");
    assert_string_equal(pmIDStr(pmID_build(511, 0, 0)), "0.*.*");
    assert_string_equal(pmIDStr(0xffc0f000u), "60.*.*");
}

static void pmidstr_domain_511_with_item_is_numeric(void **state)
{
    (void)state;
    assert_string_equal(pmIDStr(pmID_build(511, 0, 1)), "511.0.1");
}

static void pmidstr_reuses_one_static_buffer(void **state)
{
    const char *a, *b;
    (void)state;
    a = pmIDStr(pmID_build(1, 2, 3));
    b = pmIDStr(pmID_build(4, 5, 6));
    assert_ptr_equal(a, b);
    assert_string_equal(a, "4.5.6");
}

static void pmidstr_r_writes_caller_buffer(void **state)
{
    char buf[32];
    (void)state;
    memset(buf, 'X', sizeof(buf));
    assert_ptr_equal(pmIDStr_r(pmID_build(253, 1, 2), buf, (int)sizeof(buf)), buf);
    assert_string_equal(buf, "253.1.2");
    assert_ptr_equal(pmIDStr_r(PM_ID_NULL, buf, (int)sizeof(buf)), buf);
    assert_string_equal(buf, "PM_ID_NULL");
    pmIDStr_r(pmID_build(511, 60, 0), buf, (int)sizeof(buf));
    assert_string_equal(buf, "60.*.*");
}

static void pmidstr_r_truncates(void **state)
{
    char buf[32];
    (void)state;
    memset(buf, 'X', sizeof(buf));
    pmIDStr_r(pmID_build(253, 1, 2), buf, 6);
    assert_string_equal(buf, "253.1");
    assert_int_equal(buf[6], 'X');
    memset(buf, 'X', sizeof(buf));
    pmIDStr_r(PM_ID_NULL, buf, 5);
    assert_string_equal(buf, "PM_I");
    memset(buf, 'X', sizeof(buf));
    pmIDStr_r(pmID_build(253, 1, 2), buf, 1);
    assert_string_equal(buf, "");
    memset(buf, 'X', sizeof(buf));
    pmIDStr_r(pmID_build(253, 1, 2), buf, 0);
    assert_int_equal(buf[0], 'X');
}

/* pmIDStr_r and pmInDomStr_r as pmsprintf("%u.%u.%u") would put them, at
 * every buflen. */
static void idstr_r_matches_printf(void **state)
{
    uint64_t x = 7;
    int bad = 0;
    (void)state;

    for (int i = 0; i < 20000; i++) {
        unsigned id = (unsigned)test_splitmix(&x);
        char want[32], got[32];
        if (i % 4 == 0) /* small fields, and the dynamic roots */
            id = pmID_build(i % 8 ? (unsigned)(id % 12) : DYNAMIC_PMID, id >> 8 & 15,
                            i % 3 ? 0 : id >> 12 & 7);
        for (int kind = 0; kind < 2; kind++) {
            if (kind == 0 && pmID_domain(id) == DYNAMIC_PMID && pmID_item(id) == 0)
                snprintf(want, sizeof(want), "%u.*.*", pmID_cluster(id));
            else if (kind == 0)
                snprintf(want, sizeof(want), "%u.%u.%u", pmID_domain(id), pmID_cluster(id),
                         pmID_item(id));
            else
                snprintf(want, sizeof(want), "%u.%u", pmInDom_domain(id), pmInDom_serial(id));
            for (int n = 1; n <= 22; n++) {
                char cut[32];
                test_cut(cut, want, n);
                memset(got, 'X', sizeof(got));
                if (kind == 0)
                    pmIDStr_r(id, got, n);
                else
                    pmInDomStr_r(id, got, n);
                if (strcmp(got, cut) != 0 || got[n] != 'X') {
                    if (bad++ == 0)
                        print_error("0x%x kind %d buflen %d: got [%.*s], expected [%s]\n", id, kind,
                                    n, n, got, cut);
                }
            }
        }
    }
    assert_int_equal(bad, 0);
}

/* The helpers pmapi.h gives inline (an optimized build) answer as the
 * library's functions do, reached through pointers. */
static void inline_helpers_match_library(void **state)
{
    pmID (*volatile build)(unsigned int, unsigned int, unsigned int) = pmID_build;
    unsigned int (*volatile dom)(pmID) = pmID_domain, (*volatile clu)(pmID) = pmID_cluster,
                            (*volatile item)(pmID) = pmID_item;
    pmInDom (*volatile ibuild)(unsigned int, unsigned int) = pmInDom_build;
    unsigned int (*volatile idom)(pmInDom) = pmInDom_domain,
                            (*volatile iser)(pmInDom) = pmInDom_serial;
    uint64_t x = 11;
    (void)state;

    for (int i = 0; i < 100000; i++) {
        unsigned a = (unsigned)test_splitmix(&x), b = (unsigned)test_splitmix(&x),
                 c = (unsigned)test_splitmix(&x);
        if (i & 1) /* values inside the fields too */
            a &= 0x3ff, b &= 0x1fff, c &= 0x7ff;
        assert_int_equal(pmID_build(a, b, c), build(a, b, c));
        assert_int_equal(pmID_domain(a), dom(a));
        assert_int_equal(pmID_cluster(a), clu(a));
        assert_int_equal(pmID_item(a), item(a));
        assert_int_equal(pmInDom_build(a, b), ibuild(a, b));
        assert_int_equal(pmInDom_domain(b), idom(b));
        assert_int_equal(pmInDom_serial(b), iser(b));
    }
}

/* ---- pmInDomStr ---- */

static void indomstr_formats_domain_serial(void **state)
{
    (void)state;
    assert_string_equal(pmInDomStr(pmInDom_build(253, 1)), "253.1");
    assert_string_equal(pmInDomStr(pmInDom_build(511, 0x3fffff)), "511.4194303");
}

static void indomstr_pm_indom_null(void **state)
{
    (void)state;
    assert_string_equal(pmInDomStr(PM_INDOM_NULL), "PM_INDOM_NULL");
}

static void indomstr_zero_and_flag_bit(void **state)
{
    (void)state;
    assert_string_equal(pmInDomStr(0), "0.0");
    assert_string_equal(pmInDomStr(0x80000001u), "0.1");
    assert_string_equal(pmInDomStr(0xfffffffeu), "511.4194302");
}

static void indomstr_reuses_one_static_buffer(void **state)
{
    const char *a, *b;
    (void)state;
    a = pmInDomStr(pmInDom_build(1, 2));
    b = pmInDomStr(pmInDom_build(3, 4));
    assert_ptr_equal(a, b);
    assert_string_equal(a, "3.4");
}

static void indomstr_r_writes_caller_buffer(void **state)
{
    char buf[32];
    (void)state;
    assert_ptr_equal(pmInDomStr_r(pmInDom_build(253, 1), buf, (int)sizeof(buf)), buf);
    assert_string_equal(buf, "253.1");
    pmInDomStr_r(PM_INDOM_NULL, buf, (int)sizeof(buf));
    assert_string_equal(buf, "PM_INDOM_NULL");
}

static void indomstr_r_truncates(void **state)
{
    char buf[32];
    (void)state;
    memset(buf, 'X', sizeof(buf));
    pmInDomStr_r(pmInDom_build(253, 1), buf, 5);
    assert_string_equal(buf, "253.");
    assert_int_equal(buf[5], 'X');
    memset(buf, 'X', sizeof(buf));
    pmInDomStr_r(pmInDom_build(253, 1), buf, 0);
    assert_int_equal(buf[0], 'X');
}

/* ---- IS_DYNAMIC_ROOT / IS_DERIVED ---- */

static void is_dynamic_root_needs_domain_511_and_item_0(void **state)
{
    (void)state;
    assert_true(IS_DYNAMIC_ROOT(pmID_build(511, 0, 0)));
    assert_true(IS_DYNAMIC_ROOT(pmID_build(511, 60, 0)));
    assert_true(IS_DYNAMIC_ROOT(0xffc00c00u)); /* flag bit ignored */
    assert_false(IS_DYNAMIC_ROOT(pmID_build(511, 0, 1)));
    assert_false(IS_DYNAMIC_ROOT(pmID_build(510, 0, 0)));
    assert_false(IS_DYNAMIC_ROOT(PM_ID_NULL));
}

static void is_derived_needs_domain_511_item_nonzero_cluster_bit11_clear(void **state)
{
    (void)state;
    assert_true(IS_DERIVED(pmID_build(511, 0, 1))); /* event.flags */
    assert_true(IS_DERIVED(pmID_build(511, 0, 2))); /* event.missed */
    assert_true(IS_DERIVED(pmID_build(511, 2047, 5)));
    assert_false(IS_DERIVED(pmID_build(511, 2048, 1)));
    assert_false(IS_DERIVED(pmID_build(511, 60, 0)));
    assert_false(IS_DERIVED(pmID_build(510, 0, 1)));
    assert_false(IS_DERIVED(PM_ID_NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pmid_build_packs_domain_cluster_item),
        cmocka_unit_test(pmid_build_single_fields),
        cmocka_unit_test(pmid_build_maximum_fields_leave_flag_bit_clear),
        cmocka_unit_test(pmid_build_truncates_oversized_fields),
        cmocka_unit_test(pmid_build_dynamic_root),
        cmocka_unit_test(pmid_extractors_return_fields),
        cmocka_unit_test(pmid_extractors_ignore_flag_bit),
        cmocka_unit_test(pmid_extractors_on_pm_id_null),
        cmocka_unit_test(indom_build_packs_domain_serial),
        cmocka_unit_test(indom_build_truncates_oversized_fields),
        cmocka_unit_test(indom_extractors_return_fields),
        cmocka_unit_test(indom_extractors_ignore_flag_bit),
        cmocka_unit_test(pmidstr_formats_domain_cluster_item),
        cmocka_unit_test(pmidstr_pm_id_null),
        cmocka_unit_test(pmidstr_zero),
        cmocka_unit_test(pmidstr_ignores_flag_bit),
        cmocka_unit_test(pmidstr_dynamic_root_shows_cluster_star_star),
        cmocka_unit_test(pmidstr_domain_511_with_item_is_numeric),
        cmocka_unit_test(pmidstr_reuses_one_static_buffer),
        cmocka_unit_test(pmidstr_r_writes_caller_buffer),
        cmocka_unit_test(pmidstr_r_truncates),
        cmocka_unit_test(indomstr_formats_domain_serial),
        cmocka_unit_test(indomstr_pm_indom_null),
        cmocka_unit_test(indomstr_zero_and_flag_bit),
        cmocka_unit_test(indomstr_reuses_one_static_buffer),
        cmocka_unit_test(indomstr_r_writes_caller_buffer),
        cmocka_unit_test(indomstr_r_truncates),
        cmocka_unit_test(idstr_r_matches_printf),
        cmocka_unit_test(inline_helpers_match_library),
        cmocka_unit_test(is_dynamic_root_needs_domain_511_and_item_0),
        cmocka_unit_test(is_derived_needs_domain_511_item_nonzero_cluster_bit11_clear),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
