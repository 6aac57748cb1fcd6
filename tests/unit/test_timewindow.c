/*
 * Unit tests for pmParseTimeWindow and pmParseHighResTimeWindow
 * (libpcp/cmdline/timewindow.c).
 *
 * Expected values are Debian's libpcp 6.0.3 answers for a log from
 * 2023-11-14 22:13:20.123456789 to 23:13:20.987654321 UTC (tests/oracle runs
 * thousands more through probe_timewindow.c), except the forms PCP hands
 * to its getdate parser, which pmkit reports as errors (docs/compat.md).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include <pcp/pmapi.h>

static const struct timespec log_start = {1700000000, 123456789};
static const struct timespec log_end = {1700003600, 987654321};

typedef struct {
    const char *s, *t, *a, *o;    /* the arguments */
    int sts;                      /* the return */
    long long start, end, origin; /* nanoseconds after 1700000000 */
} window_case;

static long long ns_after(const struct timespec *t)
{
    return (t->tv_sec - 1700000000LL) * 1000000000LL + t->tv_nsec;
}

static void run(const window_case *c, char **msg)
{
    struct timespec r[3];

    assert_int_equal(pmParseHighResTimeWindow(c->s, c->t, c->a, c->o, &log_start, &log_end, &r[0],
                                              &r[1], &r[2], msg),
                     c->sts);
    if (c->sts < 0)
        return;
    assert_int_equal(ns_after(&r[0]), c->start);
    assert_int_equal(ns_after(&r[1]), c->end);
    assert_int_equal(ns_after(&r[2]), c->origin);
}

#define S(x) ((x)*1000000000LL)
#define LS   123456789LL
#define LE   (S(3600) + 987654321LL)

static void offsets_and_clamps(void **state)
{
    static const window_case cases[] = {
        {NULL, NULL, NULL, NULL, 1, LS, LE, LS},
        {"10m", NULL, NULL, NULL, 1, S(600) + LS, LE, S(600) + LS},
        {"-10m", NULL, NULL, NULL, 1, LE - S(600), LE, LE - S(600)},
        {"-61m", NULL, NULL, NULL, 1, LS, LE, LS},                   /* raised to the log start */
        {"2h", NULL, NULL, NULL, 1, S(7200) + LS, LE, S(7200) + LS}, /* not lowered */
        {"10m", "20m", NULL, "-5m", 1, S(600) + LS, S(1800) + LS, S(1500) + LS},
        {NULL, "2h", NULL, NULL, 1, LS, LE, LS}, /* lowered to the log end */
        {NULL, NULL, NULL, "61m", 1, LS, LE, LE},
        {"@22:30", "@Nov 14 22:40:00 2023", NULL, NULL, 1, S(1000), S(1600), S(1000)},
        {"@13:00", NULL, NULL, NULL, 1, S(53200), LE, S(53200)}, /* the next day */
    };
    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char *msg = (char *)"unset";

        run(&cases[i], &msg);
        if (cases[i].s || cases[i].t || cases[i].o)
            assert_null(msg);
        else
            assert_string_equal(msg, "unset");
    }
}

static void alignment(void **state)
{
    static const window_case ok[] = {
        {NULL, NULL, "1h", NULL, 1, S(2800), LE, S(2800)},
        {"10m", NULL, "1m", "15m30s", 1, S(640), LE, S(1600)},
        {NULL, NULL, "1m", "-0", 1, S(40), LE, S(3580)},        /* past the end: a step down */
        {NULL, "5m", "1h", NULL, 1, S(2800), S(3100), S(2800)}, /* -T from the aligned start */
    };
    struct timespec r[3];
    char *msg = NULL;

    (void)state;
    for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
        run(&ok[i], &msg);
    assert_int_equal(pmParseHighResTimeWindow(NULL, NULL, "10h", NULL, &log_start, &log_end, &r[0],
                                              &r[1], &r[2], &msg),
                     0);
    assert_string_equal(msg, "10h\n^ -- alignment specified by -A switch could not be applied\n");
    assert_int_equal(ns_after(&r[0]), LS);
    free(msg);
    /* a warning before -T is cleared by it, as in PCP */
    assert_int_equal(pmParseHighResTimeWindow(NULL, "20m", "10h", NULL, &log_start, &log_end, &r[0],
                                              &r[1], &r[2], &msg),
                     0);
    assert_null(msg);
    assert_int_equal(pmParseHighResTimeWindow(NULL, NULL, "0", NULL, &log_start, &log_end, &r[0],
                                              &r[1], &r[2], &msg),
                     -1);
    assert_string_equal(msg, "0\n^ -- alignment specified by -A switch could not be applied\n");
    free(msg);
}

static void errors(void **state)
{
    static const struct {
        const char *s, *msg;
    } cases[] = {
        {"foo", "foo\n^ -- unexpected value\n"},
        {"-1 foo", "1 foo\n  ^ -- unexpected value\n"},
        {"@Nov 32", "Nov 32\n    ^ -- unexpected value\n"},
        {"@22:61", "22:61\n   ^ -- unexpected value\n"},
        {"@Novem 14 2023", "Novem 14 2023\n   ^ -- unexpected value\n"},
        {"@Nov 14 2023 22:30", "Nov 14 2023 22:30\n            ^ -- unexpected value\n"},
        /* pmkit's: PCP's getdate parser takes these, relative to the clock */
        {"yesterday", "yesterday\n^ -- unexpected value\n"},
        {"", "\n^ -- Null or empty specification\n"},
    };
    struct timespec r[3] = {{-7, -7}, {-7, -7}, {-7, -7}};
    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char *msg = NULL;

        assert_int_equal(pmParseHighResTimeWindow(cases[i].s, NULL, NULL, NULL, &log_start,
                                                  &log_end, &r[0], &r[1], &r[2], &msg),
                         -1);
        assert_string_equal(msg, cases[i].msg);
        assert_int_equal(r[0].tv_sec, -7); /* results untouched */
        free(msg);
    }
}

/* The timeval form: microseconds, truncated; the end of time accepted. */
static void timeval_form(void **state)
{
    struct timeval ls = {1700000000, 123456}, le = {PM_MAX_TIME_T, 0}, r[3];
    char *msg = NULL;

    (void)state;
    assert_int_equal(pmParseTimeWindow("@22:30:15.9999999", "10m", NULL, NULL, &ls, &le, &r[0],
                                       &r[1], &r[2], &msg),
                     1);
    assert_int_equal(r[0].tv_sec, 1700001015);
    assert_int_equal(r[0].tv_usec, 999999);
    assert_int_equal(r[1].tv_sec, 1700001615);
    assert_int_equal(
        pmParseTimeWindow("-10m", NULL, NULL, NULL, &ls, &le, &r[0], &r[1], &r[2], &msg),
        -1); /* nothing to count back from */
    assert_string_equal(msg, "-10m\n^ -- unexpected value\n");
    free(msg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(offsets_and_clamps),
        cmocka_unit_test(alignment),
        cmocka_unit_test(errors),
        cmocka_unit_test(timeval_form),
    };

    setenv("TZ", "UTC", 1);
    tzset();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
