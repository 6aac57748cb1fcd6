/*
 * Unit tests for pmTypeStr / pmTypeStr_r and pmSemStr / pmSemStr_r.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <limits.h>
#include <string.h>
#include <cmocka.h>

#include <pcp/pmapi.h>

/* ---- pmTypeStr ---- */

static void typestr_integer_types(void **state)
{
    (void)state;
    assert_string_equal(pmTypeStr(PM_TYPE_32), "32");
    assert_string_equal(pmTypeStr(PM_TYPE_U32), "U32");
    assert_string_equal(pmTypeStr(PM_TYPE_64), "64");
    assert_string_equal(pmTypeStr(PM_TYPE_U64), "U64");
}

static void typestr_floating_types(void **state)
{
    (void)state;
    assert_string_equal(pmTypeStr(PM_TYPE_FLOAT), "FLOAT");
    assert_string_equal(pmTypeStr(PM_TYPE_DOUBLE), "DOUBLE");
}

static void typestr_string_and_aggregate_types(void **state)
{
    (void)state;
    assert_string_equal(pmTypeStr(PM_TYPE_STRING), "STRING");
    assert_string_equal(pmTypeStr(PM_TYPE_AGGREGATE), "AGGREGATE");
    assert_string_equal(pmTypeStr(PM_TYPE_AGGREGATE_STATIC), "AGGREGATE_STATIC");
}

static void typestr_event_types(void **state)
{
    (void)state;
    assert_string_equal(pmTypeStr(PM_TYPE_EVENT), "EVENT");
    assert_string_equal(pmTypeStr(PM_TYPE_HIGHRES_EVENT), "HIGHRES_EVENT");
}

static void typestr_nosupport(void **state)
{
    (void)state;
    assert_string_equal(pmTypeStr(PM_TYPE_NOSUPPORT), "NO_SUPPORT");
}

static void typestr_unknown(void **state)
{
    (void)state;
    assert_string_equal(pmTypeStr(PM_TYPE_UNKNOWN), "UNKNOWN");
}

static void typestr_illegal_values(void **state)
{
    (void)state;
    assert_string_equal(pmTypeStr(-2), "???");
    assert_string_equal(pmTypeStr(11), "???");
    assert_string_equal(pmTypeStr(254), "???");
    assert_string_equal(pmTypeStr(256), "???");
    assert_string_equal(pmTypeStr(INT_MAX), "???");
    assert_string_equal(pmTypeStr(INT_MIN), "???");
}

static void typestr_r_copies_into_buffer(void **state)
{
    char buf[32];
    (void)state;
    memset(buf, 'X', sizeof(buf));
    assert_ptr_equal(pmTypeStr_r(PM_TYPE_AGGREGATE_STATIC, buf, (int)sizeof(buf)), buf);
    assert_string_equal(buf, "AGGREGATE_STATIC");
    pmTypeStr_r(PM_TYPE_NOSUPPORT, buf, (int)sizeof(buf));
    assert_string_equal(buf, "NO_SUPPORT");
    pmTypeStr_r(42, buf, (int)sizeof(buf));
    assert_string_equal(buf, "???");
}

static void typestr_r_truncates(void **state)
{
    char buf[32];
    (void)state;
    memset(buf, 'X', sizeof(buf));
    assert_ptr_equal(pmTypeStr_r(PM_TYPE_AGGREGATE, buf, 4), buf);
    assert_string_equal(buf, "AGG");
    assert_int_equal(buf[4], 'X');
    memset(buf, 'X', sizeof(buf));
    pmTypeStr_r(PM_TYPE_AGGREGATE, buf, 1);
    assert_string_equal(buf, "");
    memset(buf, 'X', sizeof(buf));
    pmTypeStr_r(PM_TYPE_AGGREGATE, buf, 0);
    assert_int_equal(buf[0], 'X');
}

/* ---- pmSemStr ---- */

static void semstr_known_semantics(void **state)
{
    (void)state;
    assert_string_equal(pmSemStr(PM_SEM_COUNTER), "counter");
    assert_string_equal(pmSemStr(PM_SEM_INSTANT), "instant");
    assert_string_equal(pmSemStr(PM_SEM_DISCRETE), "discrete");
}

static void semstr_retired_and_illegal_values(void **state)
{
    (void)state;
    assert_string_equal(pmSemStr(0), "???");
    assert_string_equal(pmSemStr(2), "???");
    assert_string_equal(pmSemStr(5), "???");
    assert_string_equal(pmSemStr(-1), "???");
    assert_string_equal(pmSemStr(255), "???");
}

static void semstr_r_copies_into_buffer(void **state)
{
    char buf[32];
    (void)state;
    assert_ptr_equal(pmSemStr_r(PM_SEM_DISCRETE, buf, (int)sizeof(buf)), buf);
    assert_string_equal(buf, "discrete");
    pmSemStr_r(2, buf, (int)sizeof(buf));
    assert_string_equal(buf, "???");
}

static void semstr_r_truncates(void **state)
{
    char buf[32];
    (void)state;
    memset(buf, 'X', sizeof(buf));
    pmSemStr_r(PM_SEM_DISCRETE, buf, 5);
    assert_string_equal(buf, "disc");
    assert_int_equal(buf[5], 'X');
    memset(buf, 'X', sizeof(buf));
    pmSemStr_r(PM_SEM_DISCRETE, buf, 0);
    assert_int_equal(buf[0], 'X');
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(typestr_integer_types),
        cmocka_unit_test(typestr_floating_types),
        cmocka_unit_test(typestr_string_and_aggregate_types),
        cmocka_unit_test(typestr_event_types),
        cmocka_unit_test(typestr_nosupport),
        cmocka_unit_test(typestr_unknown),
        cmocka_unit_test(typestr_illegal_values),
        cmocka_unit_test(typestr_r_copies_into_buffer),
        cmocka_unit_test(typestr_r_truncates),
        cmocka_unit_test(semstr_known_semantics),
        cmocka_unit_test(semstr_retired_and_illegal_values),
        cmocka_unit_test(semstr_r_copies_into_buffer),
        cmocka_unit_test(semstr_r_truncates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
