/*
 * Unit tests for pmUnitsStr / pmUnitsStr_r.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include <pcp/pmapi.h>

struct unitcase {
    int dimSpace, dimTime, dimCount;
    int scaleSpace, scaleTime, scaleCount;
    const char *text;
};

static pmUnits make_units(const struct unitcase *uc)
{
    pmUnits u;
    memset(&u, 0, sizeof(u));
    u.dimSpace = uc->dimSpace;
    u.dimTime = uc->dimTime;
    u.dimCount = uc->dimCount;
    u.scaleSpace = (unsigned)uc->scaleSpace;
    u.scaleTime = (unsigned)uc->scaleTime;
    u.scaleCount = uc->scaleCount;
    return u;
}

/* pmUnitsStr and pmUnitsStr_r both produce uc->text */
static void check_unitcase(void **state)
{
    const struct unitcase *uc = *state;
    pmUnits u = make_units(uc);
    char buf[64];

    assert_string_equal(pmUnitsStr(&u), uc->text);
    memset(buf, 'X', sizeof(buf));
    assert_ptr_equal(pmUnitsStr_r(&u, buf, (int)sizeof(buf)), buf);
    assert_string_equal(buf, uc->text);
}

#define UC(label, ds, dt, dc, ss, st, sc, text)                                                    \
    {                                                                                              \
        label, check_unitcase, NULL, NULL, &(struct unitcase)                                      \
        {                                                                                          \
            (ds), (dt), (dc), (ss), (st), (sc), (text)                                             \
        }                                                                                          \
    }

/* ---- other behaviours ---- */

static void unitsstr_r_returns_null_below_60_bytes(void **state)
{
    pmUnits u;
    char buf[64];
    (void)state;
    memset(&u, 0, sizeof(u));
    u.dimSpace = 1;
    u.dimTime = -1;
    u.scaleSpace = PM_SPACE_MBYTE;
    u.scaleTime = PM_TIME_SEC;
    assert_null(pmUnitsStr_r(&u, buf, 59));
    assert_null(pmUnitsStr_r(&u, buf, 10));
    assert_null(pmUnitsStr_r(&u, buf, 0));
}

static void unitsstr_r_accepts_exactly_60_bytes(void **state)
{
    pmUnits u;
    char buf[60];
    (void)state;
    memset(&u, 0, sizeof(u));
    u.dimSpace = 1;
    u.dimTime = -1;
    u.scaleSpace = PM_SPACE_MBYTE;
    u.scaleTime = PM_TIME_SEC;
    assert_ptr_equal(pmUnitsStr_r(&u, buf, (int)sizeof(buf)), buf);
    assert_string_equal(buf, "Mbyte / sec");
}

static void unitsstr_ignores_pad_bits(void **state)
{
    pmUnits u;
    (void)state;
    memset(&u, 0, sizeof(u));
    u.dimSpace = 1;
    u.pad = 0xff;
    assert_string_equal(pmUnitsStr(&u), "byte");
}

static void unitsstr_reuses_one_static_buffer(void **state)
{
    pmUnits a, b;
    const char *pa, *pb;
    (void)state;
    memset(&a, 0, sizeof(a));
    memset(&b, 0, sizeof(b));
    a.dimSpace = 1;
    b.dimTime = 1;
    b.scaleTime = PM_TIME_SEC;
    pa = pmUnitsStr(&a);
    pb = pmUnitsStr(&b);
    assert_ptr_equal(pa, pb);
    assert_string_equal(pa, "sec");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        /* the table from the spec, section 3.3 */
        UC("all zero is empty", 0, 0, 0, 0, 0, 0, ""),
        UC("byte", 1, 0, 0, PM_SPACE_BYTE, 0, 0, "byte"),
        UC("Kbyte", 1, 0, 0, PM_SPACE_KBYTE, 0, 0, "Kbyte"),
        UC("Mbyte / sec", 1, -1, 0, PM_SPACE_MBYTE, PM_TIME_SEC, 0, "Mbyte / sec"),
        UC("hour / count x 10^6", 0, 1, -1, 0, PM_TIME_HOUR, 6, "hour / count x 10^6"),
        UC("nanosec", 0, 1, 0, 0, PM_TIME_NSEC, 0, "nanosec"),
        UC("microsec", 0, 1, 0, 0, PM_TIME_USEC, 0, "microsec"),
        UC("millisec", 0, 1, 0, 0, PM_TIME_MSEC, 0, "millisec"),
        UC("sec", 0, 1, 0, 0, PM_TIME_SEC, 0, "sec"),
        UC("min", 0, 1, 0, 0, PM_TIME_MIN, 0, "min"),
        UC("hour", 0, 1, 0, 0, PM_TIME_HOUR, 0, "hour"),
        UC("count", 0, 0, 1, 0, 0, 0, "count"),
        UC("count x 10", 0, 0, 1, 0, 0, 1, "count x 10"),
        UC("count x 10^3", 0, 0, 1, 0, 0, 3, "count x 10^3"),
        UC("count x 10^-3", 0, 0, 1, 0, 0, -3, "count x 10^-3"),
        UC("count x 10^-1", 0, 0, 1, 0, 0, -1, "count x 10^-1"),
        UC("/ count", 0, 0, -1, 0, 0, 0, "/ count"),
        UC("count / sec", 0, -1, 1, 0, PM_TIME_SEC, 0, "count / sec"),
        UC("dimensionless x 10", 0, 0, 0, 0, 0, 1, "x 10"),
        UC("dimensionless x 10^6", 0, 0, 0, 0, 0, 6, "x 10^6"),
        UC("dimensionless x 10^-2", 0, 0, 0, 0, 0, -2, "x 10^-2"),
        UC("dimensionless x 10^7", 0, 0, 0, 0, 0, 7, "x 10^7"),
        UC("dimensionless x 10^-8", 0, 0, 0, 0, 0, -8, "x 10^-8"),
        UC("scales ignored without dimensions", 0, 0, 0, PM_SPACE_KBYTE, PM_TIME_MSEC, 0, ""),
        UC("Gbyte^2", 2, 0, 0, PM_SPACE_GBYTE, 0, 0, "Gbyte^2"),
        UC("microsec / Tbyte^2", -2, 1, 0, PM_SPACE_TBYTE, PM_TIME_USEC, 0, "microsec / Tbyte^2"),
        UC("Pbyte / min^2 count x 10^2", 1, -2, -1, PM_SPACE_PBYTE, PM_TIME_MIN, 2,
           "Pbyte / min^2 count x 10^2"),
        UC("Ebyte", 1, 0, 0, PM_SPACE_EBYTE, 0, 0, "Ebyte"),
        UC("Zbyte", 1, 0, 0, PM_SPACE_ZBYTE, 0, 0, "Zbyte"),
        UC("Ybyte", 1, 0, 0, PM_SPACE_YBYTE, 0, 0, "Ybyte"),
        UC("space scale 9", 1, 0, 0, 9, 0, 0, "space-9"),
        UC("space scale 15", 1, 0, 0, 15, 0, 0, "space-15"),
        UC("time scale 6", 0, 1, 0, 0, 6, 0, "time-6"),
        UC("time scale 15", 0, 1, 0, 0, 15, 0, "time-15"),
        UC("/ time-15", 0, -1, 0, 0, 15, 0, "/ time-15"),
        UC("/ sec", 0, -1, 0, 0, PM_TIME_SEC, 0, "/ sec"),
        UC("/ Kbyte millisec count", -1, -1, -1, PM_SPACE_KBYTE, PM_TIME_MSEC, 0,
           "/ Kbyte millisec count"),
        UC("sec^3", 0, 3, 0, 0, PM_TIME_SEC, 0, "sec^3"),
        UC("extreme dims 7,-8,7", 7, -8, 7, PM_SPACE_BYTE, PM_TIME_SEC, -8,
           "byte^7 count x 10^-8^7 / sec^8"),
        UC("extreme dims -8,-8,-8", -8, -8, -8, 0, 0, -8, "/ byte^8 nanosec^8 count x 10^-8^8"),
        /* additional verified cases */
        UC("/ count x 10", 0, 0, -1, 0, 0, 1, "/ count x 10"),
        UC("/ count x 10^-1", 0, 0, -1, 0, 0, -1, "/ count x 10^-1"),
        UC("/ count x 10^3^2", 0, 0, -2, 0, 0, 3, "/ count x 10^3^2"),
        UC("count^2", 0, 0, 2, 0, 0, 0, "count^2"),
        UC("count x 10 squared", 0, 0, 2, 0, 0, 1, "count x 10^2"),
        UC("count / Kbyte", -1, 0, 1, PM_SPACE_KBYTE, 0, 0, "count / Kbyte"),
        UC("byte sec count", 1, 1, 1, 0, PM_TIME_SEC, 0, "byte sec count"),
        UC("count scale ignored when count dim is 0", 1, 0, 0, 0, 0, 5, "byte"),

        cmocka_unit_test(unitsstr_r_returns_null_below_60_bytes),
        cmocka_unit_test(unitsstr_r_accepts_exactly_60_bytes),
        cmocka_unit_test(unitsstr_ignores_pad_bits),
        cmocka_unit_test(unitsstr_reuses_one_static_buffer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
