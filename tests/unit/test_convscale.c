/*
 * Unit tests for pmConvScale: space / time / count rescaling for every
 * numeric type, integer rounding, dimensionless handling, and the
 * PM_ERR_CONV / PM_ERR_UNIT error paths.
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

#define assert_double_equal(got, want)                                                             \
    do {                                                                                           \
        double g_ = (got), w_ = (want);                                                            \
        if (!(g_ == w_))                                                                           \
            fail_msg("%s: got %.17g, expected %.17g", #got, g_, w_);                               \
    } while (0)

#define assert_float_exact(got, want)                                                              \
    do {                                                                                           \
        float g_ = (got), w_ = (want);                                                             \
        if (!(g_ == w_))                                                                           \
            fail_msg("%s: got %.9g, expected %.9g", #got, (double)g_, (double)w_);                 \
    } while (0)

static pmUnits U(int ds, int dt, int dc, int ss, int st, int sc)
{
    pmUnits u;
    memset(&u, 0, sizeof(u));
    u.dimSpace = ds;
    u.dimTime = dt;
    u.dimCount = dc;
    u.scaleSpace = (unsigned)ss;
    u.scaleTime = (unsigned)st;
    u.scaleCount = sc;
    return u;
}

static int conv32(int32_t v, pmUnits in, pmUnits out, int32_t *res)
{
    pmAtomValue i, o;
    int sts;
    i.ll = 0;
    i.l = v;
    o.ll = 0;
    sts = pmConvScale(PM_TYPE_32, &i, &in, &o, &out);
    *res = o.l;
    return sts;
}

static int convu32(uint32_t v, pmUnits in, pmUnits out, uint32_t *res)
{
    pmAtomValue i, o;
    int sts;
    i.ll = 0;
    i.ul = v;
    o.ll = 0;
    sts = pmConvScale(PM_TYPE_U32, &i, &in, &o, &out);
    *res = o.ul;
    return sts;
}

static int conv64(int64_t v, pmUnits in, pmUnits out, int64_t *res)
{
    pmAtomValue i, o;
    int sts;
    i.ll = v;
    o.ll = 0;
    sts = pmConvScale(PM_TYPE_64, &i, &in, &o, &out);
    *res = o.ll;
    return sts;
}

static int convu64(uint64_t v, pmUnits in, pmUnits out, uint64_t *res)
{
    pmAtomValue i, o;
    int sts;
    i.ull = v;
    o.ull = 0;
    sts = pmConvScale(PM_TYPE_U64, &i, &in, &o, &out);
    *res = o.ull;
    return sts;
}

static int convflt(float v, pmUnits in, pmUnits out, float *res)
{
    pmAtomValue i, o;
    int sts;
    i.ll = 0;
    i.f = v;
    o.ll = 0;
    sts = pmConvScale(PM_TYPE_FLOAT, &i, &in, &o, &out);
    *res = o.f;
    return sts;
}

static int convdbl(double v, pmUnits in, pmUnits out, double *res)
{
    pmAtomValue i, o;
    int sts;
    i.d = v;
    o.d = 0;
    sts = pmConvScale(PM_TYPE_DOUBLE, &i, &in, &o, &out);
    *res = o.d;
    return sts;
}

#define BYTE  U(1, 0, 0, PM_SPACE_BYTE, 0, 0)
#define KBYTE U(1, 0, 0, PM_SPACE_KBYTE, 0, 0)

/* ---- one conversion after another (pmConvScale keeps the last units'
 * ratio): each answers for its own units ---- */

static void conversions_in_turn_each_use_their_units(void **state)
{
    const pmUnits msec = U(0, 1, 0, 0, PM_TIME_MSEC, 0), sec = U(0, 1, 0, 0, PM_TIME_SEC, 0),
                  mbyte = U(1, 0, 0, PM_SPACE_MBYTE, 0, 0), bad = U(1, 0, 0, 15, 0, 0);
    (void)state;
    for (int i = 0; i < 3; i++) {
        int32_t r = 0;
        assert_int_equal(conv32(3000, BYTE, KBYTE, &r), 0);
        assert_int_equal(r, 3);
        assert_int_equal(conv32(3000, BYTE, KBYTE, &r), 0); /* the same units again */
        assert_int_equal(r, 3);
        assert_int_equal(conv32(3000, KBYTE, BYTE, &r), 0); /* swapped */
        assert_int_equal(r, 3072000);
        assert_int_equal(conv32(3000, BYTE, sec, &r), PM_ERR_CONV);
        assert_int_equal(conv32(3000, BYTE, bad, &r), PM_ERR_UNIT);
        assert_int_equal(conv32(3000, msec, sec, &r), 0); /* after errors */
        assert_int_equal(r, 3);
        assert_int_equal(conv32(3000, BYTE, KBYTE, &r), 0);
        assert_int_equal(conv32(3000, BYTE, BYTE, &r), 0); /* only the output differs */
        assert_int_equal(r, 3000);
        assert_int_equal(conv32(3000, BYTE, mbyte, &r), 0); /* and again */
        assert_int_equal(r, 0);
        assert_int_equal(conv32(3000, KBYTE, mbyte, &r), 0); /* only the input */
        assert_int_equal(r, 3);
        assert_int_equal(conv32(3000, mbyte, mbyte, &r), 0); /* only the input */
        assert_int_equal(r, 3000);
    }
}

/* ---- space ---- */

static void kbyte_to_byte_multiplies_by_1024(void **state)
{
    int32_t r;
    (void)state;
    assert_int_equal(conv32(1, KBYTE, BYTE, &r), 0);
    assert_int_equal(r, 1024);
}

static void byte_to_kbyte_rounds_half_up(void **state)
{
    int32_t r;
    (void)state;
    assert_int_equal(conv32(1536, BYTE, KBYTE, &r), 0);
    assert_int_equal(r, 2);
    assert_int_equal(conv32(1535, BYTE, KBYTE, &r), 0);
    assert_int_equal(r, 1);
    assert_int_equal(conv32(512, BYTE, KBYTE, &r), 0);
    assert_int_equal(r, 1);
    assert_int_equal(conv32(511, BYTE, KBYTE, &r), 0);
    assert_int_equal(r, 0);
    assert_int_equal(conv32(3, BYTE, KBYTE, &r), 0);
    assert_int_equal(r, 0);
}

static void byte_to_kbyte_negative_uses_c_division(void **state)
{
    int32_t r;
    (void)state;
    assert_int_equal(conv32(-1536, BYTE, KBYTE, &r), 0);
    assert_int_equal(r, -1);
    assert_int_equal(conv32(-1535, BYTE, KBYTE, &r), 0);
    assert_int_equal(r, 0);
}

static void byte_to_kbyte_negative_64(void **state)
{
    int64_t r;
    (void)state;
    assert_int_equal(conv64(-1536, BYTE, KBYTE, &r), 0);
    assert_true(r == -1);
    assert_int_equal(conv64(-1537, BYTE, KBYTE, &r), 0);
    assert_true(r == -1);
    assert_int_equal(conv64(-512, BYTE, KBYTE, &r), 0);
    assert_true(r == 0);
    assert_int_equal(conv64(-513, BYTE, KBYTE, &r), 0);
    assert_true(r == 0);
}

static void byte_to_kbyte_u32(void **state)
{
    uint32_t r;
    (void)state;
    assert_int_equal(convu32(1536, BYTE, KBYTE, &r), 0);
    assert_int_equal(r, 2);
}

/* Halves round up for 64-bit values too (the ratio is kept as 1024 / 2^20,
 * as PCP keeps it: a value above 2^54 overflows, as in PCP). */
static void byte_to_kbyte_u64_rounds_half_up(void **state)
{
    uint64_t r;
    (void)state;
    assert_int_equal(convu64(1535, BYTE, KBYTE, &r), 0);
    assert_true(r == 1);
    assert_int_equal(convu64(1536, BYTE, KBYTE, &r), 0);
    assert_true(r == 2);
    assert_int_equal(convu64(UINT64_C(1) << 50 | 1535, BYTE, KBYTE, &r), 0);
    assert_true(r == (UINT64_C(1) << 40 | 1));
    assert_int_equal(convu64(UINT64_C(1) << 50 | 1536, BYTE, KBYTE, &r), 0);
    assert_true(r == (UINT64_C(1) << 40 | 2));
    assert_int_equal(convu64(UINT64_C(3) << 40 | 1, BYTE, U(1, 0, 0, PM_SPACE_TBYTE, 0, 0), &r), 0);
    assert_true(r == 3);
    assert_int_equal(convu64(UINT64_C(7) << 39, BYTE, U(1, 0, 0, PM_SPACE_TBYTE, 0, 0), &r), 0);
    assert_true(r == 4);
}

static void kbyte_to_byte_u32_large(void **state)
{
    uint32_t r;
    (void)state;
    assert_int_equal(convu32(4000000u, KBYTE, BYTE, &r), 0);
    assert_int_equal(r, 4096000000u);
}

static void ebyte_to_byte_64(void **state)
{
    int64_t r;
    (void)state;
    assert_int_equal(conv64(1, U(1, 0, 0, PM_SPACE_EBYTE, 0, 0), BYTE, &r), 0);
    assert_true(r == 1152921504606846976LL);
    assert_int_equal(conv64(1, BYTE, U(1, 0, 0, PM_SPACE_EBYTE, 0, 0), &r), 0);
    assert_true(r == 0);
}

static void inverse_space_kbyte_to_mbyte(void **state)
{
    double r;
    (void)state;
    assert_int_equal(
        convdbl(2048.0, U(-1, 0, 0, PM_SPACE_KBYTE, 0, 0), U(-1, 0, 0, PM_SPACE_MBYTE, 0, 0), &r),
        0);
    assert_double_equal(r, 2097152.0);
}

static void squared_space_gbyte_to_mbyte_float(void **state)
{
    float r;
    (void)state;
    assert_int_equal(
        convflt(1.0f, U(2, 0, 0, PM_SPACE_GBYTE, 0, 0), U(2, 0, 0, PM_SPACE_MBYTE, 0, 0), &r), 0);
    assert_float_exact(r, 1048576.0f);
}

/* ---- time ---- */

static void msec_to_sec_double(void **state)
{
    double r;
    (void)state;
    assert_int_equal(
        convdbl(1500.0, U(0, 1, 0, 0, PM_TIME_MSEC, 0), U(0, 1, 0, 0, PM_TIME_SEC, 0), &r), 0);
    assert_double_equal(r, 1.5);
}

static void sec_to_min_double(void **state)
{
    double r;
    (void)state;
    assert_int_equal(
        convdbl(90.0, U(0, 1, 0, 0, PM_TIME_SEC, 0), U(0, 1, 0, 0, PM_TIME_MIN, 0), &r), 0);
    assert_double_equal(r, 1.5);
}

static void sec_to_hour_u64_rounds_half_up(void **state)
{
    uint64_t r;
    pmUnits sec = U(0, 1, 0, 0, PM_TIME_SEC, 0), hour = U(0, 1, 0, 0, PM_TIME_HOUR, 0);
    (void)state;
    assert_int_equal(convu64(7200, sec, hour, &r), 0);
    assert_true(r == 2);
    assert_int_equal(convu64(5400, sec, hour, &r), 0);
    assert_true(r == 2);
    assert_int_equal(convu64(1800, sec, hour, &r), 0);
    assert_true(r == 1);
    assert_int_equal(convu64(1799, sec, hour, &r), 0);
    assert_true(r == 0);
}

static void hour_to_usec_u64(void **state)
{
    uint64_t r;
    (void)state;
    assert_int_equal(convu64(3, U(0, 1, 0, 0, PM_TIME_HOUR, 0), U(0, 1, 0, 0, PM_TIME_USEC, 0), &r),
                     0);
    assert_true(r == 10800000000ULL);
}

static void inverse_squared_time_double(void **state)
{
    double r;
    (void)state;
    assert_int_equal(
        convdbl(1.0, U(0, -2, 0, 0, PM_TIME_SEC, 0), U(0, -2, 0, 0, PM_TIME_MSEC, 0), &r), 0);
    assert_double_equal(r, 1.0 * ((double)1 / (double)1000000));
}

/* ---- mixed dimensions ---- */

static void mbyte_per_sec_to_kbyte_per_msec(void **state)
{
    double r;
    (void)state;
    assert_int_equal(convdbl(1.0, U(1, -1, 0, PM_SPACE_MBYTE, PM_TIME_SEC, 0),
                             U(1, -1, 0, PM_SPACE_KBYTE, PM_TIME_MSEC, 0), &r),
                     0);
    assert_double_equal(r, 1.024);
}

static void count_per_sec_to_millicount_per_msec(void **state)
{
    int32_t r;
    (void)state;
    assert_int_equal(
        conv32(7, U(0, -1, 1, 0, PM_TIME_SEC, 0), U(0, -1, 1, 0, PM_TIME_MSEC, -3), &r), 0);
    assert_int_equal(r, 7);
}

static void same_units_is_identity(void **state)
{
    int32_t r;
    pmUnits u = U(1, -1, 0, PM_SPACE_KBYTE, PM_TIME_SEC, 0);
    (void)state;
    assert_int_equal(conv32(5, u, u, &r), 0);
    assert_int_equal(r, 5);
}

/* ---- count ---- */

static void count_scale_powers_of_ten(void **state)
{
    int32_t r;
    (void)state;
    assert_int_equal(conv32(5, U(0, 0, 1, 0, 0, 3), U(0, 0, 1, 0, 0, 0), &r), 0);
    assert_int_equal(r, 5000);
    assert_int_equal(conv32(5000, U(0, 0, 1, 0, 0, 0), U(0, 0, 1, 0, 0, 3), &r), 0);
    assert_int_equal(r, 5);
    assert_int_equal(conv32(5, U(0, 0, 1, 0, 0, 0), U(0, 0, 1, 0, 0, -2), &r), 0);
    assert_int_equal(r, 500);
}

static void count_scale_negative_exponents_double(void **state)
{
    double r;
    (void)state;
    assert_int_equal(convdbl(1.0, U(0, 0, 1, 0, 0, -8), U(0, 0, 1, 0, 0, 7), &r), 0);
    assert_double_equal(r, 1.0 * ((double)1 / (double)1000000000000000LL));
}

/* ---- dimensionless ---- */

static void dimensionless_scale_treated_as_count(void **state)
{
    int32_t r;
    (void)state;
    assert_int_equal(conv32(5, U(0, 0, 0, 0, 0, 3), U(0, 0, 0, 0, 0, 0), &r), 0);
    assert_int_equal(r, 5000);
}

static void dimensionless_to_count_allowed(void **state)
{
    int32_t r;
    (void)state;
    assert_int_equal(conv32(5, U(0, 0, 0, 0, 0, 0), U(0, 0, 1, 0, 0, 0), &r), 0);
    assert_int_equal(r, 5);
    assert_int_equal(conv32(5, U(0, 0, 1, 0, 0, 0), U(0, 0, 0, 0, 0, 0), &r), 0);
    assert_int_equal(r, 5);
    assert_int_equal(conv32(5, U(0, 0, 0, 0, 0, 0), U(0, 0, 1, 0, 0, 3), &r), 0);
    assert_int_equal(r, 0);
}

static void scales_of_zero_dimensions_ignored(void **state)
{
    int32_t r;
    (void)state;
    assert_int_equal(
        conv32(5, U(0, 1, 0, PM_SPACE_ZBYTE, PM_TIME_SEC, 0), U(0, 1, 0, 0, PM_TIME_SEC, 0), &r),
        0);
    assert_int_equal(r, 5);
    assert_int_equal(conv32(5, U(1, 0, 0, 0, 6, 0), U(1, 0, 0, 0, 0, 0), &r), 0);
    assert_int_equal(r, 5);
}

/* ---- errors ---- */

static void dimension_mismatch_is_conv(void **state)
{
    int32_t r;
    (void)state;
    assert_int_equal(conv32(5, BYTE, U(0, 1, 0, 0, PM_TIME_SEC, 0), &r), PM_ERR_CONV);
    assert_int_equal(conv32(5, BYTE, U(2, 0, 0, 0, 0, 0), &r), PM_ERR_CONV);
    assert_int_equal(conv32(5, U(1, -1, 0, 0, PM_TIME_SEC, 0), BYTE, &r), PM_ERR_CONV);
}

static void zbyte_and_ybyte_are_unit_errors(void **state)
{
    int32_t r;
    pmUnits z = U(1, 0, 0, PM_SPACE_ZBYTE, 0, 0), y = U(1, 0, 0, PM_SPACE_YBYTE, 0, 0);
    (void)state;
    assert_int_equal(conv32(5, BYTE, z, &r), PM_ERR_UNIT);
    assert_int_equal(conv32(5, z, BYTE, &r), PM_ERR_UNIT);
    assert_int_equal(conv32(5, z, z, &r), PM_ERR_UNIT);
    assert_int_equal(conv32(5, y, y, &r), PM_ERR_UNIT);
}

static void ebyte_to_ebyte_is_fine(void **state)
{
    int32_t r;
    pmUnits e = U(1, 0, 0, PM_SPACE_EBYTE, 0, 0);
    (void)state;
    assert_int_equal(conv32(5, e, e, &r), 0);
    assert_int_equal(r, 5);
}

static void time_scale_6_is_unit_error(void **state)
{
    int32_t r;
    pmUnits sec = U(0, 1, 0, 0, PM_TIME_SEC, 0), t6 = U(0, 1, 0, 0, 6, 0);
    (void)state;
    assert_int_equal(conv32(5, sec, t6, &r), PM_ERR_UNIT);
    assert_int_equal(conv32(5, t6, sec, &r), PM_ERR_UNIT);
}

static void string_type_is_conv(void **state)
{
    pmAtomValue i, o;
    pmUnits none = U(0, 0, 0, 0, 0, 0);
    (void)state;
    i.cp = "x";
    assert_int_equal(pmConvScale(PM_TYPE_STRING, &i, &none, &o, &none), PM_ERR_CONV);
}

static void other_non_numeric_types_are_conv(void **state)
{
    pmAtomValue i, o;
    pmUnits none = U(0, 0, 0, 0, 0, 0);
    (void)state;
    i.ll = 5;
    assert_int_equal(pmConvScale(PM_TYPE_AGGREGATE, &i, &none, &o, &none), PM_ERR_CONV);
    assert_int_equal(pmConvScale(PM_TYPE_EVENT, &i, &none, &o, &none), PM_ERR_CONV);
    assert_int_equal(pmConvScale(PM_TYPE_NOSUPPORT, &i, &none, &o, &none), PM_ERR_CONV);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kbyte_to_byte_multiplies_by_1024),
        cmocka_unit_test(byte_to_kbyte_rounds_half_up),
        cmocka_unit_test(byte_to_kbyte_negative_uses_c_division),
        cmocka_unit_test(byte_to_kbyte_negative_64),
        cmocka_unit_test(byte_to_kbyte_u32),
        cmocka_unit_test(byte_to_kbyte_u64_rounds_half_up),
        cmocka_unit_test(kbyte_to_byte_u32_large),
        cmocka_unit_test(ebyte_to_byte_64),
        cmocka_unit_test(inverse_space_kbyte_to_mbyte),
        cmocka_unit_test(squared_space_gbyte_to_mbyte_float),
        cmocka_unit_test(msec_to_sec_double),
        cmocka_unit_test(sec_to_min_double),
        cmocka_unit_test(sec_to_hour_u64_rounds_half_up),
        cmocka_unit_test(hour_to_usec_u64),
        cmocka_unit_test(inverse_squared_time_double),
        cmocka_unit_test(mbyte_per_sec_to_kbyte_per_msec),
        cmocka_unit_test(count_per_sec_to_millicount_per_msec),
        cmocka_unit_test(same_units_is_identity),
        cmocka_unit_test(count_scale_powers_of_ten),
        cmocka_unit_test(count_scale_negative_exponents_double),
        cmocka_unit_test(dimensionless_scale_treated_as_count),
        cmocka_unit_test(dimensionless_to_count_allowed),
        cmocka_unit_test(scales_of_zero_dimensions_ignored),
        cmocka_unit_test(dimension_mismatch_is_conv),
        cmocka_unit_test(zbyte_and_ybyte_are_unit_errors),
        cmocka_unit_test(ebyte_to_ebyte_is_fine),
        cmocka_unit_test(time_scale_6_is_unit_error),
        cmocka_unit_test(string_type_is_conv),
        cmocka_unit_test(other_non_numeric_types_are_conv),
        cmocka_unit_test(conversions_in_turn_each_use_their_units),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
