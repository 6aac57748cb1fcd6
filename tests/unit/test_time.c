/*
 * Unit tests for the time helpers of libpcp/cmdline/time.c: pmtimeval and
 * pmtimespec arithmetic, reporting zones with pmCtime and pmLocaltime, and
 * pmSetMode.  The values are PCP's (tests/oracle/probe_helpers.c compares
 * many more with Debian's libpcp) except where a test says it pins one of
 * pmkit's documented differences (docs/compat.md).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <pcp/pmapi.h>

static void arithmetic(void **state)
{
    struct timeval a = {5, 900000}, b = {2, 950000};
    struct timespec c = {5, 900000000}, d = {2, 950000000};

    (void)state;
    assert_true(pmtimevalSub(&a, &b) == 2.95);
    assert_true(pmtimevalAdd(&a, &b) == 8.85);
    assert_true(pmtimevalToReal(&a) == 5.9);
    pmtimevalInc(&a, &b); /* carries a second */
    assert_int_equal(a.tv_sec, 8);
    assert_int_equal(a.tv_usec, 850000);
    pmtimevalDec(&a, &b);
    pmtimevalDec(&a, &b); /* borrows one */
    assert_int_equal(a.tv_sec, 2);
    assert_int_equal(a.tv_usec, 950000);
    assert_true(pmtimespecSub(&c, &d) == 2.95);
    pmtimespecInc(&c, &d);
    assert_int_equal(c.tv_sec, 8);
    assert_int_equal(c.tv_nsec, 850000000);
    pmtimespecDec(&c, &d);
    pmtimespecDec(&c, &d);
    assert_int_equal(c.tv_sec, 2);
    assert_int_equal(c.tv_nsec, 950000000);
}

static void from_real(void **state)
{
    struct timeval tv;
    struct timespec ts;

    (void)state;
    pmtimevalFromReal(2.5, &tv);
    assert_int_equal(tv.tv_sec, 2);
    assert_int_equal(tv.tv_usec, 500000);
    pmtimevalFromReal(0.0000005, &tv); /* PCP's rounding: not up */
    assert_int_equal(tv.tv_usec, 0);
    pmtimevalFromReal(0.0000015, &tv);
    assert_int_equal(tv.tv_usec, 2);
    pmtimevalFromReal(-1.25, &tv); /* toward zero, as PCP */
    assert_int_equal(tv.tv_sec, -1);
    assert_int_equal(tv.tv_usec, -249999);
    pmtimevalFromReal(1.9999999, &tv); /* pmkit carries; PCP gives 1 s 1000000 us */
    assert_int_equal(tv.tv_sec, 2);
    assert_int_equal(tv.tv_usec, 0);
    pmtimespecFromReal(1.9999999, &ts);
    assert_int_equal(ts.tv_sec, 1);
    assert_int_equal(ts.tv_nsec, 999999900);
    assert_int_equal(pmtimespecNow(&ts), 0);
    assert_true(ts.tv_sec > 1700000000);
}

static void zones(void **state)
{
    time_t clock = 1700000000;
    char buf[32], *tz = NULL;
    struct tm tm;
    int utc, ny;

    (void)state;
    assert_int_equal(pmWhichZone(&tz), -1); /* none yet: local time */
    assert_null(tz);
    utc = pmNewZone("UTC");
    assert_int_equal(utc, 0);
    assert_int_equal(pmWhichZone(&tz), 0);
    assert_string_equal(tz, "UTC+0"); /* three characters: offset 0, as PCP */
    assert_string_equal(pmCtime(&clock, buf), "Tue Nov 14 22:13:20 2023\n");
    ny = pmNewZone("America/New_York");
    assert_int_equal(ny, 1);
    assert_string_equal(pmCtime(&clock, buf), "Tue Nov 14 17:13:20 2023\n");
    assert_non_null(pmLocaltime(&clock, &tm));
    assert_int_equal(tm.tm_hour, 17);
    assert_int_equal(tm.tm_gmtoff, -5 * 3600);
    assert_int_equal(pmUseZone(utc), 0);
    assert_int_equal(pmWhichZone(&tz), utc);
    assert_string_equal(pmCtime(&clock, buf), "Tue Nov 14 22:13:20 2023\n");
    assert_int_equal(pmUseZone(7), -1);
    assert_int_equal(pmUseZone(-1), -1);
    assert_int_equal(pmWhichZone(&tz), utc);
    assert_null(getenv("TZ")); /* put back as it was: unset */
}

/* pmPrintStamp: milliseconds truncated; pmPrintHighResStamp: nanoseconds;
 * both in the reporting zone, made UTC here. */
static void stamps(void **state)
{
    struct timeval tv = {1700000000, 999999};
    struct timespec ts = {1700000000, 123456789};
    char *text = NULL;
    size_t size = 0;
    FILE *f;

    (void)state;
    assert_true(pmNewZone("UTC") >= 0);
    assert_non_null(f = open_memstream(&text, &size));
    pmPrintStamp(f, &tv);
    fputc(' ', f);
    pmPrintHighResStamp(f, &ts);
    fclose(f);
    assert_string_equal(text, "22:13:20.999 22:13:20.123456789");
    free(text);
}

static void no_context(void **state)
{
    struct timeval when = {0, 0};

    (void)state;
    assert_int_equal(pmNewContextZone(), PM_ERR_NOCONTEXT);
    assert_int_equal(pmSetMode(PM_MODE_LIVE, &when, 0), PM_ERR_NOCONTEXT);
    assert_int_equal(pmLookupInDomArchive(pmInDom_build(29, 1), "x"), PM_ERR_NOCONTEXT);
}

/* A local context is live: no modes, no archive calls; its zone is this
 * host's. */
static void local_context(void **state)
{
    struct timeval when = {0, 0};
    char *tz = NULL;
    int zone;

    (void)state;
    assert_null(pmSpecLocalPMDA("clear"));
    assert_true(pmNewContext(PM_CONTEXT_LOCAL, NULL) >= 0);
    assert_int_equal(pmSetMode(PM_MODE_LIVE, &when, 0), PM_ERR_MODE);
    assert_int_equal(pmSetMode(PM_MODE_INTERP, &when, 1000), PM_ERR_MODE);
    assert_int_equal(pmLookupInDomArchive(pmInDom_build(29, 1), "x"), PM_ERR_NOTARCHIVE);
    assert_int_equal(pmGetInDomArchive(PM_INDOM_NULL, NULL, NULL), PM_ERR_INDOM);
    setenv("TZ", "Asia/Tokyo", 1);
    zone = pmNewContextZone();
    assert_true(zone >= 0);
    assert_int_equal(pmWhichZone(&tz), zone);
    assert_string_equal(tz, "Asia/Tokyo");
    unsetenv("TZ");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(arithmetic), cmocka_unit_test(from_real),  cmocka_unit_test(zones),
        cmocka_unit_test(stamps),     cmocka_unit_test(no_context), cmocka_unit_test(local_context),
    };

    unsetenv("TZ");
    return cmocka_run_group_tests(tests, NULL, NULL);
}
