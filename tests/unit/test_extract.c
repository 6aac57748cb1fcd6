/*
 * Unit tests for pmExtractValue: every cell of the conversion table
 * (32, U32, 64, U64, FLOAT, DOUBLE -> 32, U32, 64, U64, FLOAT, DOUBLE),
 * the exact thresholds where PM_ERR_TRUNC / PM_ERR_SIGN start, STRING and
 * AGGREGATE copies, and the valfmt / itype / vtype / vlen input checks.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
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

/* ---- helpers ---- */

static pmValueBlock *new_block(int vtype, const void *payload, size_t len)
{
    pmValueBlock *vb = calloc(1, sizeof(pmValueBlock) + len + 8);
    assert_non_null(vb);
    vb->vtype = (unsigned)vtype;
    vb->vlen = (unsigned)(PM_VAL_HDR_SIZE + len);
    if (len > 0)
        memcpy(vb->vbuf, payload, len);
    return vb;
}

/* Fill *out with a pattern first so zeroing / partial writes are visible. */
static int extract_insitu(int itype, int32_t lval, int otype, pmAtomValue *out)
{
    pmValue v;
    memset(&v, 0, sizeof(v));
    v.inst = PM_IN_NULL;
    v.value.lval = lval;
    memset(out, 0xa5, sizeof(*out));
    return pmExtractValue(PM_VAL_INSITU, &v, itype, out, otype);
}

static int extract_block(int valfmt, int vtype, const void *payload, size_t len, int itype,
                         int otype, pmAtomValue *out)
{
    pmValue v;
    int sts;
    memset(&v, 0, sizeof(v));
    v.inst = 0;
    v.value.pval = new_block(vtype, payload, len);
    memset(out, 0xa5, sizeof(*out));
    sts = pmExtractValue(valfmt, &v, itype, out, otype);
    free(v.value.pval);
    return sts;
}

static int ext64(int64_t x, int otype, pmAtomValue *out)
{
    return extract_block(PM_VAL_DPTR, PM_TYPE_64, &x, sizeof(x), PM_TYPE_64, otype, out);
}

static int extu64(uint64_t x, int otype, pmAtomValue *out)
{
    return extract_block(PM_VAL_DPTR, PM_TYPE_U64, &x, sizeof(x), PM_TYPE_U64, otype, out);
}

static int extdbl(double x, int otype, pmAtomValue *out)
{
    return extract_block(PM_VAL_DPTR, PM_TYPE_DOUBLE, &x, sizeof(x), PM_TYPE_DOUBLE, otype, out);
}

static int extflt(float x, int otype, pmAtomValue *out)
{
    return extract_block(PM_VAL_DPTR, PM_TYPE_FLOAT, &x, sizeof(x), PM_TYPE_FLOAT, otype, out);
}

static int32_t float_bits(float f)
{
    int32_t b;
    memcpy(&b, &f, sizeof(b));
    return b;
}

/* ================= from PM_TYPE_32 (insitu) ================= */

static void from_32_to_32_copies(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(extract_insitu(PM_TYPE_32, -5, PM_TYPE_32, &a), 0);
    assert_int_equal(a.l, -5);
    assert_int_equal(extract_insitu(PM_TYPE_32, INT32_MIN, PM_TYPE_32, &a), 0);
    assert_int_equal(a.l, INT32_MIN);
    assert_int_equal(extract_insitu(PM_TYPE_32, INT32_MAX, PM_TYPE_32, &a), 0);
    assert_int_equal(a.l, INT32_MAX);
}

static void from_32_to_u32_negative_is_sign(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(extract_insitu(PM_TYPE_32, -5, PM_TYPE_U32, &a), PM_ERR_SIGN);
    assert_int_equal(extract_insitu(PM_TYPE_32, -1, PM_TYPE_U32, &a), PM_ERR_SIGN);
    assert_int_equal(extract_insitu(PM_TYPE_32, INT32_MIN, PM_TYPE_U32, &a), PM_ERR_SIGN);
}

static void from_32_to_u32_non_negative_copies(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(extract_insitu(PM_TYPE_32, 0, PM_TYPE_U32, &a), 0);
    assert_int_equal(a.ul, 0);
    assert_int_equal(extract_insitu(PM_TYPE_32, INT32_MAX, PM_TYPE_U32, &a), 0);
    assert_int_equal(a.ul, 2147483647u);
}

static void from_32_to_64_widens(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(extract_insitu(PM_TYPE_32, -5, PM_TYPE_64, &a), 0);
    assert_true(a.ll == -5);
    assert_int_equal(extract_insitu(PM_TYPE_32, INT32_MIN, PM_TYPE_64, &a), 0);
    assert_true(a.ll == INT32_MIN);
}

static void from_32_to_u64_negative_is_sign(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(extract_insitu(PM_TYPE_32, -5, PM_TYPE_U64, &a), PM_ERR_SIGN);
    assert_int_equal(extract_insitu(PM_TYPE_32, INT32_MAX, PM_TYPE_U64, &a), 0);
    assert_true(a.ull == 2147483647u);
}

static void from_32_to_float_and_double_casts(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(extract_insitu(PM_TYPE_32, -5, PM_TYPE_FLOAT, &a), 0);
    assert_float_exact(a.f, -5.0f);
    assert_int_equal(extract_insitu(PM_TYPE_32, -5, PM_TYPE_DOUBLE, &a), 0);
    assert_double_equal(a.d, -5.0);
    assert_int_equal(extract_insitu(PM_TYPE_32, INT32_MAX, PM_TYPE_FLOAT, &a), 0);
    assert_float_exact(a.f, 2147483648.0f);
    assert_int_equal(extract_insitu(PM_TYPE_32, INT32_MAX, PM_TYPE_DOUBLE, &a), 0);
    assert_double_equal(a.d, 2147483647.0);
}

/* ================= from PM_TYPE_U32 (insitu) ================= */

static void from_u32_to_32_above_int_max_is_trunc(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(extract_insitu(PM_TYPE_U32, (int32_t)0x80000000u, PM_TYPE_32, &a),
                     PM_ERR_TRUNC);
    assert_int_equal(extract_insitu(PM_TYPE_U32, -1, PM_TYPE_32, &a), PM_ERR_TRUNC);
    assert_int_equal(extract_insitu(PM_TYPE_U32, 0x7fffffff, PM_TYPE_32, &a), 0);
    assert_int_equal(a.l, 0x7fffffff);
}

static void from_u32_to_u32_copies(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(extract_insitu(PM_TYPE_U32, (int32_t)0x80000000u, PM_TYPE_U32, &a), 0);
    assert_int_equal(a.ul, 2147483648u);
    assert_int_equal(extract_insitu(PM_TYPE_U32, -1, PM_TYPE_U32, &a), 0);
    assert_int_equal(a.ul, 4294967295u);
}

static void from_u32_to_64_and_u64_widen(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(extract_insitu(PM_TYPE_U32, -1, PM_TYPE_64, &a), 0);
    assert_true(a.ll == 4294967295LL);
    assert_int_equal(extract_insitu(PM_TYPE_U32, -1, PM_TYPE_U64, &a), 0);
    assert_true(a.ull == 4294967295ULL);
    assert_int_equal(extract_insitu(PM_TYPE_U32, (int32_t)0x80000000u, PM_TYPE_64, &a), 0);
    assert_true(a.ll == 2147483648LL);
}

static void from_u32_to_float_and_double_casts(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(extract_insitu(PM_TYPE_U32, (int32_t)0x80000000u, PM_TYPE_FLOAT, &a), 0);
    assert_float_exact(a.f, 2147483648.0f);
    assert_int_equal(extract_insitu(PM_TYPE_U32, -1, PM_TYPE_DOUBLE, &a), 0);
    assert_double_equal(a.d, 4294967295.0);
}

/* ================= insitu FLOAT (legacy) and UNKNOWN ================= */

static void insitu_float_is_legacy_float_bits(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(extract_insitu(PM_TYPE_FLOAT, float_bits(2.5f), PM_TYPE_32, &a), 0);
    assert_int_equal(a.l, 2);
    assert_int_equal(extract_insitu(PM_TYPE_FLOAT, float_bits(2.5f), PM_TYPE_DOUBLE, &a), 0);
    assert_double_equal(a.d, 2.5);
    assert_int_equal(extract_insitu(PM_TYPE_FLOAT, float_bits(-2.5f), PM_TYPE_64, &a), 0);
    assert_true(a.ll == -2);
    assert_int_equal(extract_insitu(PM_TYPE_FLOAT, float_bits(-2.5f), PM_TYPE_U32, &a),
                     PM_ERR_SIGN);
    assert_int_equal(extract_insitu(PM_TYPE_FLOAT, float_bits(-2.5f), PM_TYPE_FLOAT, &a), 0);
    assert_float_exact(a.f, -2.5f);
}

static void insitu_float_threshold_checks_apply(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(extract_insitu(PM_TYPE_FLOAT, float_bits(3e9f), PM_TYPE_32, &a), PM_ERR_TRUNC);
    assert_int_equal(extract_insitu(PM_TYPE_FLOAT, float_bits(3e9f), PM_TYPE_U32, &a), 0);
    assert_int_equal(a.ul, 3000000000u);
}

static void insitu_unknown_is_treated_as_32(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(extract_insitu(PM_TYPE_UNKNOWN, 7, PM_TYPE_64, &a), 0);
    assert_true(a.ll == 7);
    assert_int_equal(extract_insitu(PM_TYPE_UNKNOWN, -7, PM_TYPE_32, &a), 0);
    assert_int_equal(a.l, -7);
    assert_int_equal(extract_insitu(PM_TYPE_UNKNOWN, -7, PM_TYPE_U32, &a), PM_ERR_SIGN);
    assert_int_equal(extract_insitu(PM_TYPE_UNKNOWN, -7, PM_TYPE_DOUBLE, &a), 0);
    assert_double_equal(a.d, -7.0);
}

/* ================= from PM_TYPE_64 ================= */

static void from_64_to_32_above_int_max_is_trunc(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(ext64(2147483647LL, PM_TYPE_32, &a), 0);
    assert_int_equal(a.l, 2147483647);
    assert_int_equal(ext64(2147483648LL, PM_TYPE_32, &a), PM_ERR_TRUNC);
    assert_int_equal(ext64(3000000000LL, PM_TYPE_32, &a), PM_ERR_TRUNC);
    assert_int_equal(ext64(INT64_MAX, PM_TYPE_32, &a), PM_ERR_TRUNC);
}

static void from_64_to_32_in_range_negative_copies(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(ext64(-1, PM_TYPE_32, &a), 0);
    assert_int_equal(a.l, -1);
    assert_int_equal(ext64(-2147483648LL, PM_TYPE_32, &a), 0);
    assert_int_equal(a.l, INT32_MIN);
}

static void from_64_to_32_large_negative_is_not_checked(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(ext64(-5000000000LL, PM_TYPE_32, &a), 0);
    assert_int_equal(a.l, -705032704);
    assert_int_equal(ext64(-2147483649LL, PM_TYPE_32, &a), 0);
    assert_int_equal(a.l, 2147483647);
    assert_int_equal(ext64(INT64_MIN, PM_TYPE_32, &a), 0);
    assert_int_equal(a.l, 0);
}

static void from_64_to_u32_above_uint_max_is_trunc(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(ext64(4294967295LL, PM_TYPE_U32, &a), 0);
    assert_int_equal(a.ul, 4294967295u);
    assert_int_equal(ext64(3000000000LL, PM_TYPE_U32, &a), 0);
    assert_int_equal(a.ul, 3000000000u);
    assert_int_equal(ext64(4294967296LL, PM_TYPE_U32, &a), PM_ERR_TRUNC);
    assert_int_equal(ext64(INT64_MAX, PM_TYPE_U32, &a), PM_ERR_TRUNC);
}

static void from_64_to_u32_negative_is_sign(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(ext64(-1, PM_TYPE_U32, &a), PM_ERR_SIGN);
    assert_int_equal(ext64(-5000000000LL, PM_TYPE_U32, &a), PM_ERR_SIGN);
    assert_int_equal(ext64(INT64_MIN, PM_TYPE_U32, &a), PM_ERR_SIGN);
}

static void from_64_to_64_copies(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(ext64(-5000000000LL, PM_TYPE_64, &a), 0);
    assert_true(a.ll == -5000000000LL);
    assert_int_equal(ext64(INT64_MIN, PM_TYPE_64, &a), 0);
    assert_true(a.ll == INT64_MIN);
    assert_int_equal(ext64(INT64_MAX, PM_TYPE_64, &a), 0);
    assert_true(a.ll == INT64_MAX);
}

static void from_64_to_u64_negative_is_sign(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(ext64(-1, PM_TYPE_U64, &a), PM_ERR_SIGN);
    assert_int_equal(ext64(INT64_MIN, PM_TYPE_U64, &a), PM_ERR_SIGN);
    assert_int_equal(ext64(INT64_MAX, PM_TYPE_U64, &a), 0);
    assert_true(a.ull == 9223372036854775807ULL);
}

static void from_64_to_float_and_double_casts(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(ext64(-5000000000LL, PM_TYPE_FLOAT, &a), 0);
    assert_float_exact(a.f, -5e9f);
    assert_int_equal(ext64(-5000000000LL, PM_TYPE_DOUBLE, &a), 0);
    assert_double_equal(a.d, -5e9);
    assert_int_equal(ext64(INT64_MAX, PM_TYPE_DOUBLE, &a), 0);
    assert_double_equal(a.d, 9223372036854775808.0);
}

/* ================= from PM_TYPE_U64 ================= */

static void from_u64_to_32_above_int_max_is_trunc(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(extu64(2147483647ULL, PM_TYPE_32, &a), 0);
    assert_int_equal(a.l, 2147483647);
    assert_int_equal(extu64(2147483648ULL, PM_TYPE_32, &a), PM_ERR_TRUNC);
    assert_int_equal(extu64(UINT64_MAX, PM_TYPE_32, &a), PM_ERR_TRUNC);
}

static void from_u64_to_u32_above_uint_max_is_trunc(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(extu64(4294967295ULL, PM_TYPE_U32, &a), 0);
    assert_int_equal(a.ul, 4294967295u);
    assert_int_equal(extu64(4294967296ULL, PM_TYPE_U32, &a), PM_ERR_TRUNC);
    assert_int_equal(extu64(UINT64_MAX, PM_TYPE_U32, &a), PM_ERR_TRUNC);
}

static void from_u64_to_64_above_int64_max_is_trunc(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(extu64(9223372036854775807ULL, PM_TYPE_64, &a), 0);
    assert_true(a.ll == INT64_MAX);
    assert_int_equal(extu64(9223372036854775808ULL, PM_TYPE_64, &a), PM_ERR_TRUNC);
    assert_int_equal(extu64(UINT64_MAX, PM_TYPE_64, &a), PM_ERR_TRUNC);
}

static void from_u64_to_u64_copies(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(extu64(UINT64_MAX, PM_TYPE_U64, &a), 0);
    assert_true(a.ull == UINT64_MAX);
}

static void from_u64_to_float_and_double_casts(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(extu64(UINT64_MAX, PM_TYPE_FLOAT, &a), 0);
    assert_float_exact(a.f, 18446744073709551616.0f);
    assert_int_equal(extu64(UINT64_MAX, PM_TYPE_DOUBLE, &a), 0);
    assert_double_equal(a.d, 18446744073709551616.0);
}

/* ================= from PM_TYPE_DOUBLE ================= */

static void from_double_to_32_truncates_toward_zero(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(extdbl(-2.75, PM_TYPE_32, &a), 0);
    assert_int_equal(a.l, -2);
    assert_int_equal(extdbl(2.75, PM_TYPE_32, &a), 0);
    assert_int_equal(a.l, 2);
    assert_int_equal(extdbl(-0.5, PM_TYPE_32, &a), 0);
    assert_int_equal(a.l, 0);
    assert_int_equal(extdbl(2147483646.5, PM_TYPE_32, &a), 0);
    assert_int_equal(a.l, 2147483646);
    assert_int_equal(extdbl(-2147483646.0, PM_TYPE_32, &a), 0);
    assert_int_equal(a.l, -2147483646);
}

static void from_double_to_32_trunc_from_int_max(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(extdbl(2147483647.0, PM_TYPE_32, &a), PM_ERR_TRUNC);
    assert_int_equal(extdbl(2147483648.0, PM_TYPE_32, &a), PM_ERR_TRUNC);
    assert_int_equal(extdbl(5e9, PM_TYPE_32, &a), PM_ERR_TRUNC);
    assert_int_equal(extdbl(1e30, PM_TYPE_32, &a), PM_ERR_TRUNC);
}

static void from_double_to_32_trunc_from_minus_int_max(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(extdbl(-2147483647.0, PM_TYPE_32, &a), PM_ERR_TRUNC);
    assert_int_equal(extdbl(-2147483648.0, PM_TYPE_32, &a), PM_ERR_TRUNC);
    assert_int_equal(extdbl(-1e30, PM_TYPE_32, &a), PM_ERR_TRUNC);
}

static void from_double_to_u32_trunc_from_uint_max(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(extdbl(4294967294.5, PM_TYPE_U32, &a), 0);
    assert_int_equal(a.ul, 4294967294u);
    assert_int_equal(extdbl(2147483648.0, PM_TYPE_U32, &a), 0);
    assert_int_equal(a.ul, 2147483648u);
    assert_int_equal(extdbl(4294967295.0, PM_TYPE_U32, &a), PM_ERR_TRUNC);
    assert_int_equal(extdbl(4294967296.0, PM_TYPE_U32, &a), PM_ERR_TRUNC);
    assert_int_equal(extdbl(5e9, PM_TYPE_U32, &a), PM_ERR_TRUNC);
}

static void from_double_to_u32_negative_is_sign(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(extdbl(-0.5, PM_TYPE_U32, &a), PM_ERR_SIGN);
    assert_int_equal(extdbl(-2.75, PM_TYPE_U32, &a), PM_ERR_SIGN);
    assert_int_equal(extdbl(-1e30, PM_TYPE_U32, &a), PM_ERR_SIGN);
    assert_int_equal(extdbl(-0.0, PM_TYPE_U32, &a), 0);
    assert_int_equal(a.ul, 0);
}

static void from_double_to_64_trunc_from_int64_max(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(extdbl(9223372036854774784.0, PM_TYPE_64, &a), 0);
    assert_true(a.ll == 9223372036854774784LL);
    assert_int_equal(extdbl(9223372036854775807.0, PM_TYPE_64, &a), PM_ERR_TRUNC);
    assert_int_equal(extdbl(1e30, PM_TYPE_64, &a), PM_ERR_TRUNC);
}

static void from_double_to_64_negative_in_range(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(extdbl(-2.75, PM_TYPE_64, &a), 0);
    assert_true(a.ll == -2);
    assert_int_equal(extdbl(-2147483648.5, PM_TYPE_64, &a), 0);
    assert_true(a.ll == -2147483648LL);
    assert_int_equal(extdbl(-9223372036854775808.0, PM_TYPE_64, &a), 0);
    assert_true(a.ll == INT64_MIN);
}

static void from_double_to_u64_trunc_from_uint64_max(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(extdbl(18446744073709549568.0, PM_TYPE_U64, &a), 0);
    assert_true(a.ull == 18446744073709549568ULL);
    assert_int_equal(extdbl(9223372036854775808.0, PM_TYPE_U64, &a), 0);
    assert_true(a.ull == 9223372036854775808ULL);
    assert_int_equal(extdbl(18446744073709551615.0, PM_TYPE_U64, &a), PM_ERR_TRUNC);
    assert_int_equal(extdbl(1e30, PM_TYPE_U64, &a), PM_ERR_TRUNC);
}

static void from_double_to_u64_negative_is_sign(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(extdbl(-0.5, PM_TYPE_U64, &a), PM_ERR_SIGN);
    assert_int_equal(extdbl(-2.75, PM_TYPE_U64, &a), PM_ERR_SIGN);
    assert_int_equal(extdbl(-1e30, PM_TYPE_U64, &a), PM_ERR_SIGN);
    assert_int_equal(extdbl(2.75, PM_TYPE_U64, &a), 0);
    assert_true(a.ull == 2);
}

static void from_double_to_float_and_double_casts(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(extdbl(-2.75, PM_TYPE_FLOAT, &a), 0);
    assert_float_exact(a.f, -2.75f);
    assert_int_equal(extdbl(1e30, PM_TYPE_FLOAT, &a), 0);
    assert_float_exact(a.f, 1e30f);
    assert_int_equal(extdbl(-2.75, PM_TYPE_DOUBLE, &a), 0);
    assert_double_equal(a.d, -2.75);
}

/* ================= from PM_TYPE_FLOAT (pointer, vlen 8) ================= */

static void from_float_to_32(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(extflt(1.5f, PM_TYPE_32, &a), 0);
    assert_int_equal(a.l, 1);
    assert_int_equal(extflt(-0.5f, PM_TYPE_32, &a), 0);
    assert_int_equal(a.l, 0);
    assert_int_equal(extflt(2147483520.0f, PM_TYPE_32, &a), 0);
    assert_int_equal(a.l, 2147483520);
    assert_int_equal(extflt(2147483648.0f, PM_TYPE_32, &a), PM_ERR_TRUNC);
    assert_int_equal(extflt(-2147483648.0f, PM_TYPE_32, &a), PM_ERR_TRUNC);
}

static void from_float_to_u32(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(extflt(1.5f, PM_TYPE_U32, &a), 0);
    assert_int_equal(a.ul, 1);
    assert_int_equal(extflt(4294967040.0f, PM_TYPE_U32, &a), 0);
    assert_int_equal(a.ul, 4294967040u);
    assert_int_equal(extflt(4294967296.0f, PM_TYPE_U32, &a), PM_ERR_TRUNC);
    assert_int_equal(extflt(-0.5f, PM_TYPE_U32, &a), PM_ERR_SIGN);
}

static void from_float_to_64(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(extflt(1.5f, PM_TYPE_64, &a), 0);
    assert_true(a.ll == 1);
    assert_int_equal(extflt(-1.0f, PM_TYPE_64, &a), 0);
    assert_true(a.ll == -1);
    assert_int_equal(extflt(9223371487098961920.0f, PM_TYPE_64, &a), 0);
    assert_true(a.ll == 9223371487098961920LL);
    assert_int_equal(extflt(9223372036854775808.0f, PM_TYPE_64, &a), PM_ERR_TRUNC);
}

static void from_float_to_u64(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(extflt(1.5f, PM_TYPE_U64, &a), 0);
    assert_true(a.ull == 1);
    assert_int_equal(extflt(18446742974197923840.0f, PM_TYPE_U64, &a), 0);
    assert_true(a.ull == 18446742974197923840ULL);
    assert_int_equal(extflt(18446744073709551616.0f, PM_TYPE_U64, &a), PM_ERR_TRUNC);
    assert_int_equal(extflt(-1.0f, PM_TYPE_U64, &a), PM_ERR_SIGN);
}

static void from_float_to_float_and_double_casts(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(extflt(1.5f, PM_TYPE_FLOAT, &a), 0);
    assert_float_exact(a.f, 1.5f);
    assert_int_equal(extflt(1.5f, PM_TYPE_DOUBLE, &a), 0);
    assert_double_equal(a.d, 1.5);
}

/* ================= STRING and AGGREGATE ================= */

static void string_to_string_returns_malloced_copy(void **state)
{
    pmValue v;
    pmAtomValue a;
    (void)state;
    v.inst = 0;
    v.value.pval = new_block(PM_TYPE_STRING, "abc", 4);
    assert_int_equal(pmExtractValue(PM_VAL_DPTR, &v, PM_TYPE_STRING, &a, PM_TYPE_STRING), 0);
    assert_non_null(a.cp);
    assert_ptr_not_equal(a.cp, v.value.pval->vbuf);
    assert_string_equal(a.cp, "abc");
    free(a.cp);
    free(v.value.pval);
}

static void string_copy_is_vlen_minus_4_bytes_plus_nul(void **state)
{
    pmAtomValue a;
    pmValue v;
    (void)state;
    v.inst = 0;
    v.value.pval = new_block(PM_TYPE_STRING, "abcdef", 3); /* no NUL in payload */
    assert_int_equal(pmExtractValue(PM_VAL_DPTR, &v, PM_TYPE_STRING, &a, PM_TYPE_STRING), 0);
    assert_string_equal(a.cp, "abc");
    free(a.cp);
    free(v.value.pval);
}

static void string_empty_copies(void **state)
{
    pmAtomValue a;
    pmValue v;
    (void)state;
    v.inst = 0;
    v.value.pval = new_block(PM_TYPE_STRING, "", 1);
    assert_int_equal(pmExtractValue(PM_VAL_DPTR, &v, PM_TYPE_STRING, &a, PM_TYPE_STRING), 0);
    assert_string_equal(a.cp, "");
    free(a.cp);
    free(v.value.pval);
}

static void string_sptr_copies(void **state)
{
    pmAtomValue a;
    pmValue v;
    (void)state;
    v.inst = 0;
    v.value.pval = new_block(PM_TYPE_STRING, "abc", 4);
    assert_int_equal(pmExtractValue(PM_VAL_SPTR, &v, PM_TYPE_STRING, &a, PM_TYPE_STRING), 0);
    assert_string_equal(a.cp, "abc");
    free(a.cp);
    free(v.value.pval);
}

static void string_to_other_types_is_conv(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(
        extract_block(PM_VAL_DPTR, PM_TYPE_STRING, "abc", 4, PM_TYPE_STRING, PM_TYPE_32, &a),
        PM_ERR_CONV);
    assert_int_equal(
        extract_block(PM_VAL_DPTR, PM_TYPE_STRING, "abc", 4, PM_TYPE_STRING, PM_TYPE_DOUBLE, &a),
        PM_ERR_CONV);
    assert_int_equal(
        extract_block(PM_VAL_DPTR, PM_TYPE_STRING, "abc", 4, PM_TYPE_STRING, PM_TYPE_AGGREGATE, &a),
        PM_ERR_CONV);
}

static void aggregate_to_aggregate_copies_whole_block(void **state)
{
    pmAtomValue a;
    pmValue v;
    (void)state;
    v.inst = 0;
    v.value.pval = new_block(PM_TYPE_AGGREGATE, "\x01\x02\x03", 3);
    assert_int_equal(pmExtractValue(PM_VAL_DPTR, &v, PM_TYPE_AGGREGATE, &a, PM_TYPE_AGGREGATE), 0);
    assert_non_null(a.vbp);
    assert_ptr_not_equal(a.vbp, v.value.pval);
    assert_int_equal(a.vbp->vtype, PM_TYPE_AGGREGATE);
    assert_int_equal(a.vbp->vlen, 7);
    assert_memory_equal(a.vbp->vbuf, "\x01\x02\x03", 3);
    free(a.vbp);
    free(v.value.pval);
}

static void aggregate_to_other_types_is_conv(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(extract_block(PM_VAL_DPTR, PM_TYPE_AGGREGATE, "\x01\x02\x03", 3,
                                   PM_TYPE_AGGREGATE, PM_TYPE_STRING, &a),
                     PM_ERR_CONV);
    assert_int_equal(extract_block(PM_VAL_DPTR, PM_TYPE_AGGREGATE, "\x01\x02\x03", 3,
                                   PM_TYPE_AGGREGATE, PM_TYPE_AGGREGATE_STATIC, &a),
                     PM_ERR_CONV);
    assert_int_equal(extract_block(PM_VAL_DPTR, PM_TYPE_AGGREGATE, "\x01\x02\x03", 3,
                                   PM_TYPE_AGGREGATE, PM_TYPE_32, &a),
                     PM_ERR_CONV);
}

static void numeric_to_string_or_aggregate_is_conv(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(extract_insitu(PM_TYPE_32, -5, PM_TYPE_STRING, &a), PM_ERR_CONV);
    assert_int_equal(extract_insitu(PM_TYPE_32, -5, PM_TYPE_AGGREGATE, &a), PM_ERR_CONV);
    assert_int_equal(ext64(-5, PM_TYPE_STRING, &a), PM_ERR_CONV);
    assert_int_equal(extdbl(-2.75, PM_TYPE_AGGREGATE, &a), PM_ERR_CONV);
}

/* ================= vtype 0 acceptance ================= */

static void vtype_zero_accepted_for_numeric_blocks(void **state)
{
    pmAtomValue a;
    uint64_t u = UINT64_MAX;
    double d = 1.5;
    (void)state;
    assert_int_equal(extract_block(PM_VAL_DPTR, 0, &u, sizeof(u), PM_TYPE_U64, PM_TYPE_U64, &a), 0);
    assert_true(a.ull == UINT64_MAX);
    assert_int_equal(
        extract_block(PM_VAL_DPTR, 0, &d, sizeof(d), PM_TYPE_DOUBLE, PM_TYPE_DOUBLE, &a), 0);
    assert_double_equal(a.d, 1.5);
}

static void vtype_zero_accepted_for_string(void **state)
{
    pmAtomValue a;
    pmValue v;
    (void)state;
    v.inst = 0;
    v.value.pval = new_block(0, "xyz", 4);
    assert_int_equal(pmExtractValue(PM_VAL_DPTR, &v, PM_TYPE_STRING, &a, PM_TYPE_STRING), 0);
    assert_string_equal(a.cp, "xyz");
    free(a.cp);
    free(v.value.pval);
}

static void vtype_zero_accepted_for_aggregate(void **state)
{
    pmAtomValue a;
    pmValue v;
    (void)state;
    v.inst = 0;
    v.value.pval = new_block(0, "\x01\x02\x03", 3);
    assert_int_equal(pmExtractValue(PM_VAL_DPTR, &v, PM_TYPE_AGGREGATE, &a, PM_TYPE_AGGREGATE), 0);
    assert_int_equal(a.vbp->vtype, 0);
    assert_int_equal(a.vbp->vlen, 7);
    free(a.vbp);
    free(v.value.pval);
}

/* ================= input validation ================= */

static void vtype_mismatch_is_conv(void **state)
{
    pmAtomValue a;
    double d = 1.5;
    int64_t ll = 5;
    uint64_t u = 5;
    (void)state;
    assert_int_equal(extract_block(PM_VAL_DPTR, PM_TYPE_DOUBLE, &d, 8, PM_TYPE_64, PM_TYPE_64, &a),
                     PM_ERR_CONV);
    assert_int_equal(
        extract_block(PM_VAL_DPTR, PM_TYPE_64, &ll, 8, PM_TYPE_DOUBLE, PM_TYPE_DOUBLE, &a),
        PM_ERR_CONV);
    assert_int_equal(extract_block(PM_VAL_DPTR, PM_TYPE_64, &u, 8, PM_TYPE_U64, PM_TYPE_U64, &a),
                     PM_ERR_CONV);
    assert_int_equal(
        extract_block(PM_VAL_DPTR, PM_TYPE_UNKNOWN, &d, 8, PM_TYPE_DOUBLE, PM_TYPE_DOUBLE, &a),
        PM_ERR_CONV);
    assert_int_equal(extract_block(PM_VAL_DPTR, PM_TYPE_STRING, "abc", 4, PM_TYPE_AGGREGATE,
                                   PM_TYPE_AGGREGATE, &a),
                     PM_ERR_CONV);
    assert_int_equal(
        extract_block(PM_VAL_DPTR, PM_TYPE_AGGREGATE, "abc", 4, PM_TYPE_STRING, PM_TYPE_STRING, &a),
        PM_ERR_CONV);
}

static void wrong_vlen_is_conv(void **state)
{
    pmAtomValue a;
    double d = 1.5;
    uint64_t u = 5;
    float f = 2.5f;
    (void)state;
    assert_int_equal(extract_block(PM_VAL_DPTR, PM_TYPE_U64, &u, 4, PM_TYPE_U64, PM_TYPE_U64, &a),
                     PM_ERR_CONV);
    assert_int_equal(extract_block(PM_VAL_DPTR, PM_TYPE_64, &u, 4, PM_TYPE_64, PM_TYPE_64, &a),
                     PM_ERR_CONV);
    assert_int_equal(
        extract_block(PM_VAL_DPTR, PM_TYPE_DOUBLE, &d, 4, PM_TYPE_DOUBLE, PM_TYPE_DOUBLE, &a),
        PM_ERR_CONV);
    assert_int_equal(
        extract_block(PM_VAL_DPTR, PM_TYPE_FLOAT, &d, 8, PM_TYPE_FLOAT, PM_TYPE_FLOAT, &a),
        PM_ERR_CONV);
    assert_int_equal(
        extract_block(PM_VAL_DPTR, PM_TYPE_FLOAT, &f, 4, PM_TYPE_FLOAT, PM_TYPE_FLOAT, &a), 0);
}

static void float_block_read_as_double_is_conv(void **state)
{
    pmAtomValue a;
    float f = 2.5f;
    (void)state;
    assert_int_equal(
        extract_block(PM_VAL_DPTR, PM_TYPE_FLOAT, &f, 4, PM_TYPE_DOUBLE, PM_TYPE_DOUBLE, &a),
        PM_ERR_CONV);
}

static void insitu_rejects_pointer_only_types(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(extract_insitu(PM_TYPE_64, 5, PM_TYPE_64, &a), PM_ERR_CONV);
    assert_int_equal(extract_insitu(PM_TYPE_U64, 5, PM_TYPE_U64, &a), PM_ERR_CONV);
    assert_int_equal(extract_insitu(PM_TYPE_DOUBLE, 5, PM_TYPE_DOUBLE, &a), PM_ERR_CONV);
    assert_int_equal(extract_insitu(PM_TYPE_STRING, 5, PM_TYPE_32, &a), PM_ERR_CONV);
    assert_int_equal(extract_insitu(PM_TYPE_AGGREGATE, 5, PM_TYPE_AGGREGATE, &a), PM_ERR_CONV);
    assert_int_equal(extract_insitu(PM_TYPE_AGGREGATE_STATIC, 5, PM_TYPE_32, &a), PM_ERR_CONV);
    assert_int_equal(extract_insitu(PM_TYPE_EVENT, 5, PM_TYPE_32, &a), PM_ERR_CONV);
    assert_int_equal(extract_insitu(PM_TYPE_HIGHRES_EVENT, 5, PM_TYPE_32, &a), PM_ERR_CONV);
}

static void insitu_rejects_illegal_itype(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(extract_insitu(PM_TYPE_NOSUPPORT, 5, PM_TYPE_32, &a), PM_ERR_CONV);
    assert_int_equal(extract_insitu(11, 5, PM_TYPE_32, &a), PM_ERR_CONV);
}

static void pointer_rejects_insitu_only_types(void **state)
{
    pmAtomValue a;
    int64_t ll = 5;
    (void)state;
    assert_int_equal(extract_block(PM_VAL_DPTR, PM_TYPE_64, &ll, 8, PM_TYPE_32, PM_TYPE_32, &a),
                     PM_ERR_CONV);
    assert_int_equal(extract_block(PM_VAL_DPTR, PM_TYPE_64, &ll, 8, PM_TYPE_U32, PM_TYPE_U32, &a),
                     PM_ERR_CONV);
    assert_int_equal(extract_block(PM_VAL_DPTR, 0, &ll, 8, PM_TYPE_32, PM_TYPE_32, &a),
                     PM_ERR_CONV);
}

static void pointer_rejects_event_static_and_unknown_itype(void **state)
{
    pmAtomValue a;
    double d = 1.5;
    (void)state;
    assert_int_equal(extract_block(PM_VAL_DPTR, PM_TYPE_EVENT, "\x01\x02\x03", 3, PM_TYPE_EVENT,
                                   PM_TYPE_EVENT, &a),
                     PM_ERR_CONV);
    assert_int_equal(extract_block(PM_VAL_DPTR, PM_TYPE_EVENT, "\x01\x02\x03", 3, PM_TYPE_EVENT,
                                   PM_TYPE_AGGREGATE, &a),
                     PM_ERR_CONV);
    assert_int_equal(extract_block(PM_VAL_SPTR, PM_TYPE_AGGREGATE_STATIC, "\x01\x02\x03", 3,
                                   PM_TYPE_AGGREGATE_STATIC, PM_TYPE_AGGREGATE_STATIC, &a),
                     PM_ERR_CONV);
    assert_int_equal(extract_block(PM_VAL_SPTR, PM_TYPE_AGGREGATE_STATIC, "\x01\x02\x03", 3,
                                   PM_TYPE_AGGREGATE, PM_TYPE_AGGREGATE, &a),
                     PM_ERR_CONV);
    assert_int_equal(
        extract_block(PM_VAL_DPTR, PM_TYPE_DOUBLE, &d, 8, PM_TYPE_UNKNOWN, PM_TYPE_DOUBLE, &a),
        PM_ERR_CONV);
}

static void sptr_behaves_like_dptr(void **state)
{
    pmAtomValue a;
    int64_t ll = 3000000000LL;
    (void)state;
    assert_int_equal(extract_block(PM_VAL_SPTR, PM_TYPE_64, &ll, 8, PM_TYPE_64, PM_TYPE_U32, &a),
                     0);
    assert_int_equal(a.ul, 3000000000u);
    assert_int_equal(extract_block(PM_VAL_SPTR, PM_TYPE_64, &ll, 8, PM_TYPE_64, PM_TYPE_32, &a),
                     PM_ERR_TRUNC);
}

static void bad_valfmt_is_conv(void **state)
{
    pmValue v;
    pmAtomValue a;
    double d = 1.5;
    (void)state;
    v.inst = 0;
    v.value.lval = 5;
    assert_int_equal(pmExtractValue(7, &v, PM_TYPE_32, &a, PM_TYPE_32), PM_ERR_CONV);
    assert_int_equal(pmExtractValue(3, &v, PM_TYPE_32, &a, PM_TYPE_32), PM_ERR_CONV);
    assert_int_equal(pmExtractValue(-1, &v, PM_TYPE_32, &a, PM_TYPE_32), PM_ERR_CONV);
    assert_int_equal(extract_block(3, PM_TYPE_DOUBLE, &d, 8, PM_TYPE_DOUBLE, PM_TYPE_DOUBLE, &a),
                     PM_ERR_CONV);
}

static void illegal_otype_is_conv(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(extract_insitu(PM_TYPE_32, 5, PM_TYPE_NOSUPPORT, &a), PM_ERR_CONV);
    assert_int_equal(extract_insitu(PM_TYPE_32, 5, PM_TYPE_UNKNOWN, &a), PM_ERR_CONV);
    assert_int_equal(extract_insitu(PM_TYPE_32, 5, PM_TYPE_EVENT, &a), PM_ERR_CONV);
    assert_int_equal(extract_insitu(PM_TYPE_32, 5, PM_TYPE_AGGREGATE_STATIC, &a), PM_ERR_CONV);
    assert_int_equal(extract_insitu(PM_TYPE_32, 5, 11, &a), PM_ERR_CONV);
    assert_int_equal(ext64(5, PM_TYPE_NOSUPPORT, &a), PM_ERR_CONV);
}

/* ================= output zeroing ================= */

static void output_is_zeroed_on_error(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(extract_insitu(PM_TYPE_32, -5, PM_TYPE_U32, &a), PM_ERR_SIGN);
    assert_true(a.ull == 0);
    assert_int_equal(extu64(UINT64_MAX, PM_TYPE_32, &a), PM_ERR_TRUNC);
    assert_true(a.ull == 0);
    assert_int_equal(extract_insitu(PM_TYPE_64, 5, PM_TYPE_64, &a), PM_ERR_CONV);
    assert_true(a.ull == 0);
}

static void output_upper_bytes_zeroed_for_32_bit_results(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(extract_insitu(PM_TYPE_32, -1, PM_TYPE_32, &a), 0);
    assert_true(a.ull == 0xffffffffULL);
    assert_int_equal(extract_insitu(PM_TYPE_U32, -1, PM_TYPE_U32, &a), 0);
    assert_true(a.ull == 0xffffffffULL);
    assert_int_equal(extract_insitu(PM_TYPE_32, -1, PM_TYPE_FLOAT, &a), 0);
    assert_true(a.ull == 0xbf800000ULL);
    assert_int_equal(extflt(2.0f, PM_TYPE_32, &a), 0);
    assert_true(a.ull == 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(from_32_to_32_copies),
        cmocka_unit_test(from_32_to_u32_negative_is_sign),
        cmocka_unit_test(from_32_to_u32_non_negative_copies),
        cmocka_unit_test(from_32_to_64_widens),
        cmocka_unit_test(from_32_to_u64_negative_is_sign),
        cmocka_unit_test(from_32_to_float_and_double_casts),
        cmocka_unit_test(from_u32_to_32_above_int_max_is_trunc),
        cmocka_unit_test(from_u32_to_u32_copies),
        cmocka_unit_test(from_u32_to_64_and_u64_widen),
        cmocka_unit_test(from_u32_to_float_and_double_casts),
        cmocka_unit_test(insitu_float_is_legacy_float_bits),
        cmocka_unit_test(insitu_float_threshold_checks_apply),
        cmocka_unit_test(insitu_unknown_is_treated_as_32),
        cmocka_unit_test(from_64_to_32_above_int_max_is_trunc),
        cmocka_unit_test(from_64_to_32_in_range_negative_copies),
        cmocka_unit_test(from_64_to_32_large_negative_is_not_checked),
        cmocka_unit_test(from_64_to_u32_above_uint_max_is_trunc),
        cmocka_unit_test(from_64_to_u32_negative_is_sign),
        cmocka_unit_test(from_64_to_64_copies),
        cmocka_unit_test(from_64_to_u64_negative_is_sign),
        cmocka_unit_test(from_64_to_float_and_double_casts),
        cmocka_unit_test(from_u64_to_32_above_int_max_is_trunc),
        cmocka_unit_test(from_u64_to_u32_above_uint_max_is_trunc),
        cmocka_unit_test(from_u64_to_64_above_int64_max_is_trunc),
        cmocka_unit_test(from_u64_to_u64_copies),
        cmocka_unit_test(from_u64_to_float_and_double_casts),
        cmocka_unit_test(from_double_to_32_truncates_toward_zero),
        cmocka_unit_test(from_double_to_32_trunc_from_int_max),
        cmocka_unit_test(from_double_to_32_trunc_from_minus_int_max),
        cmocka_unit_test(from_double_to_u32_trunc_from_uint_max),
        cmocka_unit_test(from_double_to_u32_negative_is_sign),
        cmocka_unit_test(from_double_to_64_trunc_from_int64_max),
        cmocka_unit_test(from_double_to_64_negative_in_range),
        cmocka_unit_test(from_double_to_u64_trunc_from_uint64_max),
        cmocka_unit_test(from_double_to_u64_negative_is_sign),
        cmocka_unit_test(from_double_to_float_and_double_casts),
        cmocka_unit_test(from_float_to_32),
        cmocka_unit_test(from_float_to_u32),
        cmocka_unit_test(from_float_to_64),
        cmocka_unit_test(from_float_to_u64),
        cmocka_unit_test(from_float_to_float_and_double_casts),
        cmocka_unit_test(string_to_string_returns_malloced_copy),
        cmocka_unit_test(string_copy_is_vlen_minus_4_bytes_plus_nul),
        cmocka_unit_test(string_empty_copies),
        cmocka_unit_test(string_sptr_copies),
        cmocka_unit_test(string_to_other_types_is_conv),
        cmocka_unit_test(aggregate_to_aggregate_copies_whole_block),
        cmocka_unit_test(aggregate_to_other_types_is_conv),
        cmocka_unit_test(numeric_to_string_or_aggregate_is_conv),
        cmocka_unit_test(vtype_zero_accepted_for_numeric_blocks),
        cmocka_unit_test(vtype_zero_accepted_for_string),
        cmocka_unit_test(vtype_zero_accepted_for_aggregate),
        cmocka_unit_test(vtype_mismatch_is_conv),
        cmocka_unit_test(wrong_vlen_is_conv),
        cmocka_unit_test(float_block_read_as_double_is_conv),
        cmocka_unit_test(insitu_rejects_pointer_only_types),
        cmocka_unit_test(insitu_rejects_illegal_itype),
        cmocka_unit_test(pointer_rejects_insitu_only_types),
        cmocka_unit_test(pointer_rejects_event_static_and_unknown_itype),
        cmocka_unit_test(sptr_behaves_like_dptr),
        cmocka_unit_test(bad_valfmt_is_conv),
        cmocka_unit_test(illegal_otype_is_conv),
        cmocka_unit_test(output_is_zeroed_on_error),
        cmocka_unit_test(output_upper_bytes_zeroed_for_32_bit_results),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
