/*
 * Unit tests for pmParseInterval and pmParseHighResInterval
 * (libpcp/cmdline/interval.c).
 *
 * The expected values are PCP's (Debian's libpcp 6.0.3 gives the same on
 * these inputs; tests/oracle/getopt_diff.sh runs many more through -t),
 * except where a test says it pins one of pmkit's documented differences
 * (docs/compat.md).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <cmocka.h>

#include <pcp/pmapi.h>

static void interval_grammar(void **state)
{
    static const struct {
        const char *spec;
        long sec, usec;
    } ok[] = {
        {"1", 1, 0},
        {"1.5", 1, 500000},
        {" 2 ", 2, 0},
        {"1min 30sec", 90, 0},
        {"1min30sec", 90, 0},
        {"2h", 7200, 0},
        {"1 day", 86400, 0},
        {"5 mS", 300, 0},
        {"1ms", 60, 0},
        {"1msec", 0, 1000},
        {"1usec", 0, 1},
        {"3 5 hours", 18003, 0},
        {"1.5.5", 2, 0},
        {"0x10", 16, 0},
        {"1e3", 1000, 0},
        {"+1", 1, 0},
        {"-0", 0, 0},
        {" ", 0, 0},
        {"1secs", 1, 0},
        {"1ss", 1, 0},
        {"9e18", 9000000000000000000L, 0},
        {"1d 2h 3m 4s 5msec", 93784, 5000},
    };
    (void)state;
    for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
        struct timeval tv = {-1, -1};
        char *msg = (char *)"unset";

        assert_int_equal(pmParseInterval(ok[i].spec, &tv, &msg), 0);
        assert_null(msg);
        if (tv.tv_sec != ok[i].sec || tv.tv_usec != ok[i].usec)
            fail_msg("\"%s\": %ld.%06ld", ok[i].spec, (long)tv.tv_sec, (long)tv.tv_usec);
    }
}

static void interval_errors(void **state)
{
    static const struct {
        const char *spec, *msg;
    } bad[] = {
        {"", "\n^ -- Null or empty specification\n"},
        {"x", "x\n^ -- unexpected value\n"},
        {"1 x", "1 x\n  ^ -- unexpected value\n"},
        {"1w", "1w\n ^ -- unexpected value\n"},
        {"-1", "-1\n^ -- unexpected value\n"},
        {"1min-2", "1min-2\n    ^ -- unexpected value\n"},
        {"1 m s", "1 m s\n    ^ -- unexpected value\n"},
        {"1mss", "1mss\n ^ -- unexpected value\n"},
        {"inf", "inf\n^ -- unexpected value\n"},
        {"9.3e18", "9.3e18\n^ -- unexpected value\n"},
        /* pmkit only: PCP returns garbage for these (docs/compat.md) */
        {"nan", "nan\n^ -- unexpected value\n"},
        {"5e18 5e18", "5e18 5e18\n     ^ -- unexpected value\n"},
        {"1e15d", "1e15d\n^ -- unexpected value\n"},
    };
    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct timeval tv = {-1, -1};
        char *msg = NULL;

        assert_int_equal(pmParseInterval(bad[i].spec, &tv, &msg), -1);
        assert_non_null(msg);
        assert_string_equal(msg, bad[i].msg);
        assert_int_equal(tv.tv_sec, -1); /* untouched */
        free(msg);
    }
}

/* Rounded to the nearest unit; a fraction that rounds up to a whole second
 * carries into tv_sec (pmkit; PCP leaves 1000000 in tv_usec). */
static void interval_rounding(void **state)
{
    struct timeval tv;
    struct timespec ts;
    char *msg;

    (void)state;
    assert_int_equal(pmParseInterval("2.0000005", &tv, &msg), 0);
    assert_int_equal(tv.tv_sec, 2);
    assert_int_equal(tv.tv_usec, 1);
    assert_int_equal(pmParseInterval("0.9999999", &tv, &msg), 0);
    assert_int_equal(tv.tv_sec, 1);
    assert_int_equal(tv.tv_usec, 0);
    assert_int_equal(pmParseHighResInterval("1.9999999", &ts, &msg), 0);
    assert_int_equal(ts.tv_sec, 1);
    assert_int_equal(ts.tv_nsec, 999999900);
    assert_int_equal(pmParseHighResInterval("1nsec", &ts, &msg), 0);
    assert_int_equal(ts.tv_nsec, 1);
    assert_int_equal(pmParseHighResInterval("0.9999999999", &ts, &msg), 0);
    assert_int_equal(ts.tv_sec, 1);
    assert_int_equal(ts.tv_nsec, 0);
    assert_int_equal(pmParseHighResInterval("x", &ts, &msg), -1);
    assert_string_equal(msg, "x\n^ -- unexpected value\n");
    free(msg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(interval_grammar),
        cmocka_unit_test(interval_errors),
        cmocka_unit_test(interval_rounding),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
