/*
 * Unit tests for pmPrintValue: output is captured with open_memstream and
 * compared byte for byte.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#include <stdarg.h>
#include <stddef.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <pcp/pmapi.h>

/* ---- helpers ---- */

static char *capture(int valfmt, int type, const pmValue *v, int minwidth)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    pmPrintValue(f, valfmt, type, v, minwidth);
    assert_int_equal(fclose(f), 0);
    assert_non_null(buf);
    return buf;
}

static void check_print(int line, int valfmt, int type, const pmValue *v, int minwidth,
                        const char *want)
{
    char *got = capture(valfmt, type, v, minwidth);
    int same = strcmp(got, want) == 0;
    if (!same) {
        print_error("line %d: got [%s], expected [%s]\n", line, got, want);
        free(got);
        fail_msg("pmPrintValue output mismatch at line %d", line);
    }
    free(got);
}

static void check_insitu(int line, int type, int32_t lval, int w, const char *want)
{
    pmValue v;
    memset(&v, 0, sizeof(v));
    v.inst = PM_IN_NULL;
    v.value.lval = lval;
    check_print(line, PM_VAL_INSITU, type, &v, w, want);
}

static void check_block(int line, int valfmt, int type, int vtype, const void *payload, size_t len,
                        int w, const char *want)
{
    pmValue v;
    pmValueBlock *vb = calloc(1, sizeof(pmValueBlock) + len + 8);
    assert_non_null(vb);
    vb->vtype = (unsigned)vtype;
    vb->vlen = (unsigned)(PM_VAL_HDR_SIZE + len);
    if (len > 0)
        memcpy(vb->vbuf, payload, len);
    memset(&v, 0, sizeof(v));
    v.inst = 0;
    v.value.pval = vb;
    check_print(line, valfmt, type, &v, w, want);
    free(vb);
}

static void check_double(int line, double d, int w, const char *want)
{
    check_block(line, PM_VAL_DPTR, PM_TYPE_DOUBLE, PM_TYPE_DOUBLE, &d, sizeof(d), w, want);
}

static void check_float(int line, float f, int w, const char *want)
{
    check_block(line, PM_VAL_DPTR, PM_TYPE_FLOAT, PM_TYPE_FLOAT, &f, sizeof(f), w, want);
}

static void check_string(int line, const char *s, int w, const char *want)
{
    check_block(line, PM_VAL_DPTR, PM_TYPE_STRING, PM_TYPE_STRING, s, strlen(s) + 1, w, want);
}

static void check_aggr(int line, const void *p, size_t len, int w, const char *want)
{
    check_block(line, PM_VAL_DPTR, PM_TYPE_AGGREGATE, PM_TYPE_AGGREGATE, p, len, w, want);
}

#define INSITU(type, lval, w, want) check_insitu(__LINE__, type, lval, w, want)
#define DBL(d, w, want)             check_double(__LINE__, d, w, want)
#define FLT(f, w, want)             check_float(__LINE__, f, w, want)
#define STR(s, w, want)             check_string(__LINE__, s, w, want)
#define AGGR(p, len, w, want)       check_aggr(__LINE__, p, len, w, want)

static int32_t float_bits(float f)
{
    int32_t b;
    memcpy(&b, &f, sizeof(b));
    return b;
}

/* ---- integers ---- */

static void print_32(void **state)
{
    (void)state;
    INSITU(PM_TYPE_32, 42, 0, "42");
    INSITU(PM_TYPE_32, 42, 1, "42");
    INSITU(PM_TYPE_32, -1, 0, "-1");
    INSITU(PM_TYPE_32, INT32_MIN, 0, "-2147483648");
}

static void print_32_right_aligned_to_minwidth(void **state)
{
    (void)state;
    INSITU(PM_TYPE_32, 42, 8, "      42");
    INSITU(PM_TYPE_32, -1, 5, "   -1");
}

static void print_u32(void **state)
{
    (void)state;
    INSITU(PM_TYPE_U32, -1, 0, "4294967295");
    INSITU(PM_TYPE_U32, 7, 4, "   7");
}

static void print_64(void **state)
{
    int64_t x = -1234567890123LL;
    (void)state;
    check_block(__LINE__, PM_VAL_DPTR, PM_TYPE_64, PM_TYPE_64, &x, 8, 0, "-1234567890123");
    check_block(__LINE__, PM_VAL_DPTR, PM_TYPE_64, PM_TYPE_64, &x, 8, 20, "      -1234567890123");
}

static void print_u64(void **state)
{
    uint64_t x = 1795306086ULL, m = UINT64_MAX;
    (void)state;
    check_block(__LINE__, PM_VAL_DPTR, PM_TYPE_U64, PM_TYPE_U64, &x, 8, 0, "1795306086");
    check_block(__LINE__, PM_VAL_DPTR, PM_TYPE_U64, PM_TYPE_U64, &m, 8, 0, "18446744073709551615");
}

static void print_64_from_static_pointer(void **state)
{
    int64_t x = -5;
    (void)state;
    check_block(__LINE__, PM_VAL_SPTR, PM_TYPE_64, PM_TYPE_64, &x, 8, 0, "-5");
}

/* ---- floating point ---- */

static void print_double_uses_16_significant_digits(void **state)
{
    (void)state;
    DBL(0.0, 0, "0");
    DBL(1.0, 0, "1");
    DBL(100.0, 0, "100");
    DBL(0.1, 0, "0.1");
    DBL(-2.5, 0, "-2.5");
    DBL(0.016402, 0, "0.016402");
    DBL(1.0 / 3.0, 0, "0.3333333333333333");
    DBL(123456789.123456789, 0, "123456789.1234568");
}

static void print_double_exponent_forms(void **state)
{
    (void)state;
    DBL(1e20, 0, "1e+20");
    DBL(1e16, 0, "1e+16");
    DBL(1.5e-7, 0, "1.5e-07");
    DBL(1e-5, 0, "1e-05");
    DBL(12345678901234567.0, 0, "1.234567890123457e+16");
    DBL(-0.0, 0, "-0");
}

static void print_double_minwidth(void **state)
{
    (void)state;
    DBL(1.0 / 3.0, 25, "       0.3333333333333333");
    DBL(1.5, 6, "   1.5");
}

static void print_float_uses_8_significant_digits(void **state)
{
    (void)state;
    FLT(0.1f, 0, "0.1");
    FLT(2.5f, 0, "2.5");
    FLT(1.0f / 3.0f, 0, "0.33333334");
    FLT(1e10f, 0, "1e+10");
    FLT(1e-5f, 0, "9.9999997e-06");
    FLT(123456789.0f, 0, "1.2345679e+08");
    FLT(2.5f, 5, "  2.5");
}

static void print_float_insitu_legacy(void **state)
{
    (void)state;
    INSITU(PM_TYPE_FLOAT, float_bits(2.5f), 0, "2.5");
}

/* ---- strings ---- */

static void print_string_quoted(void **state)
{
    (void)state;
    STR("hello world", 0, "\"hello world\"");
    STR("", 0, "\"\"");
    STR("hi", 1, "\"hi\"");
}

static void print_string_minwidth_counts_quotes(void **state)
{
    (void)state;
    STR("hello world", 20, "       \"hello world\"");
    STR("hi", 5, " \"hi\"");
    STR("hi", 6, "  \"hi\"");
    STR("", 3, " \"\"");
}

static void print_string_block_as_unknown_is_hex(void **state)
{
    (void)state;
    check_block(__LINE__, PM_VAL_DPTR, PM_TYPE_UNKNOWN, PM_TYPE_STRING, "hello world", 12, 0,
                "[68656c6c6f20776f726c6400]");
}

/* ---- aggregates ---- */

static void print_aggregate_4_bytes_as_float_then_hex(void **state)
{
    (void)state;
    AGGR("\x01\x02\x03\xff", 4, 0, "-1.7413927e+38 [010203ff]");
}

static void print_aggregate_printable_bytes_quoted(void **state)
{
    (void)state;
    AGGR("abcd", 4, 0, "1.6777999e+22 \"abcd\" [61626364]");
    AGGR("abc", 3, 0, "\"abc\" [616263]");
    AGGR("ab cd", 5, 0, "\"ab cd\" [6162206364]");
}

static void print_aggregate_8_bytes_as_u64_double_string_hex(void **state)
{
    (void)state;
    AGGR("abcdefgh", 8, 0,
         "7523094288207667809 8.540883223036124e+194 \"abcdefgh\" [6162636465666768]");
}

static void print_aggregate_empty(void **state)
{
    (void)state;
    AGGR("", 0, 0, "\"\" []");
}

static void print_aggregate_nan_payload_skips_float(void **state)
{
    static const unsigned char nan4[4] = {0x00, 0x00, 0xc0, 0x7f};
    static const unsigned char nan8[8] = {0, 0, 0, 0, 0, 0, 0xf8, 0x7f};
    (void)state;
    AGGR(nan4, 4, 0, "[0000c07f]");
    AGGR(nan8, 8, 0, "9221120237041090560 [000000000000f87f]");
}

static void print_aggregate_minwidth_applies_to_each_item(void **state)
{
    (void)state;
    AGGR("abcd", 4, 12, "1.6777999e+22       \"abcd\"   [61626364]");
    AGGR("ab cd", 5, 4, "\"ab cd\" [6162206364]");
}

static void print_aggregate_static(void **state)
{
    (void)state;
    check_block(__LINE__, PM_VAL_SPTR, PM_TYPE_AGGREGATE_STATIC, PM_TYPE_AGGREGATE_STATIC, "abcd",
                4, 0, "1.6777999e+22 \"abcd\" [61626364]");
}

/* ---- UNKNOWN and failed extraction ---- */

static void print_unknown_insitu_as_uint_float_hex(void **state)
{
    (void)state;
    INSITU(PM_TYPE_UNKNOWN, 0x40490fdb, 0, "1078530011 3.1415927 0x40490fdb");
    INSITU(PM_TYPE_UNKNOWN, 0, 0, "0 0 0x0");
}

static void print_unknown_insitu_minwidth(void **state)
{
    (void)state;
    INSITU(PM_TYPE_UNKNOWN, 0x40490fdb, 12, "  1078530011    3.1415927 0x  40490fdb");
    INSITU(PM_TYPE_UNKNOWN, 1, 3, "  1 1.4012985e-45 0x1");
    INSITU(PM_TYPE_UNKNOWN, 1, 2, " 1 1.4012985e-45 0x 1");
}

static void print_unknown_insitu_nan_skips_float(void **state)
{
    (void)state;
    INSITU(PM_TYPE_UNKNOWN, 0x7fc00000, 0, "2143289344 0x7fc00000");
}

static void print_aggregate_insitu_like_unknown(void **state)
{
    (void)state;
    INSITU(PM_TYPE_AGGREGATE, 0x40490fdb, 0, "1078530011 3.1415927 0x40490fdb");
}

static void print_u64_block_as_unknown(void **state)
{
    uint64_t x = 1795306086ULL;
    (void)state;
    check_block(__LINE__, PM_VAL_DPTR, PM_TYPE_UNKNOWN, PM_TYPE_U64, &x, 8, 0,
                "1795306086 8.869990608623105e-315 [6632026b00000000]");
}

static void print_insitu_with_pointer_type_falls_back_to_unknown(void **state)
{
    (void)state;
    INSITU(PM_TYPE_64, 5, 0, "5 7.0064923e-45 0x5");
    INSITU(PM_TYPE_DOUBLE, 5, 0, "5 7.0064923e-45 0x5");
    INSITU(PM_TYPE_STRING, 5, 0, "5 7.0064923e-45 0x5");
    INSITU(PM_TYPE_U64, -1, 4, "4294967295 0xffffffff");
}

static void print_block_with_mismatched_type_falls_back_to_unknown(void **state)
{
    double d = 1.5;
    (void)state;
    check_block(__LINE__, PM_VAL_DPTR, PM_TYPE_64, PM_TYPE_DOUBLE, &d, 8, 0,
                "4609434218613702656 1.5 [000000000000f83f]");
}

static void print_nosupport_falls_back_to_unknown(void **state)
{
    double d = 1.5;
    (void)state;
    INSITU(PM_TYPE_NOSUPPORT, 1, 0, "1 1.4012985e-45 0x1");
    check_block(__LINE__, PM_VAL_DPTR, PM_TYPE_NOSUPPORT, PM_TYPE_DOUBLE, &d, 8, 0,
                "4609434218613702656 1.5 [000000000000f83f]");
    check_block(__LINE__, PM_VAL_SPTR, PM_TYPE_NOSUPPORT, PM_TYPE_STRING, "abc", 4, 0,
                "9.1270058e-39 [61626300]");
}

static void print_illegal_type_falls_back_to_unknown(void **state)
{
    double d = 1.5;
    (void)state;
    INSITU(42, 1, 0, "1 1.4012985e-45 0x1");
    INSITU(-2, 1, 0, "1 1.4012985e-45 0x1");
    check_block(__LINE__, PM_VAL_DPTR, 42, PM_TYPE_DOUBLE, &d, 8, 0,
                "4609434218613702656 1.5 [000000000000f83f]");
}

/* ---- bad valfmt ---- */

static void print_bad_valfmt_message(void **state)
{
    pmValue v;
    (void)state;
    memset(&v, 0, sizeof(v));
    v.value.lval = 5;
    check_print(__LINE__, 7, PM_TYPE_32, &v, 0, "pmPrintValue: bad valfmt (7)?\n");
    check_print(__LINE__, -1, PM_TYPE_32, &v, 0, "pmPrintValue: bad valfmt (-1)?\n");
    check_print(__LINE__, 3, PM_TYPE_UNKNOWN, &v, 0, "pmPrintValue: bad valfmt (3)?\n");
    check_print(__LINE__, 3, PM_TYPE_STRING, &v, 0, "pmPrintValue: bad valfmt (3)?\n");
}

/* ---- formatted without printf: the same text as fprintf's ---- */

static uint64_t rng_state = UINT64_C(0x243f6a8885a308d3);

static uint64_t rng(void) /* splitmix64 */
{
    uint64_t z = (rng_state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* pmPrintValue of a DOUBLE against fprintf's "%*.16g" (what PCP prints). */
static int double_matches(double d, int w)
{
    char want[128], *got;
    pmValue v;
    pmValueBlock *vb = calloc(1, sizeof(pmValueBlock) + 8);
    int same;

    assert_non_null(vb);
    vb->vtype = PM_TYPE_DOUBLE;
    vb->vlen = PM_VAL_HDR_SIZE + 8;
    memcpy(vb->vbuf, &d, 8);
    memset(&v, 0, sizeof(v));
    v.value.pval = vb;
    snprintf(want, sizeof(want), "%*.16g", w, d);
    got = capture(PM_VAL_DPTR, PM_TYPE_DOUBLE, &v, w);
    same = strcmp(got, want) == 0;
    if (!same)
        print_error("%a width %d: got [%s], expected [%s]\n", d, w, got, want);
    free(got);
    free(vb);
    return same;
}

static void print_double_as_printf_does(void **state)
{
    static const double fixed[] = {
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.1,
        0.5,
        1e-5,
        1e-4,
        9.9999999999999995e-5,
        1e-7,
        1.5e-8,
        123456789012345.6,
        1234567890123456.0,
        1234567890123456.5, /* a tie: to even */
        1234567890123457.5,
        9999999999999999.0,
        9999999999999998.0,
        1e15,
        1e16,
        1e17,
        1e22,
        1e23,
        1.7976931348623157e308,
        4.9e-324,
        2.2250738585072014e-308,
        3.4e38,
        1e38,
        1e39,
        123.456,
        0.30000000000000004,
        2.5,
        1e100,
        -98765.4321,
        65536.0,
        4503599627370496.5,
        9007199254740993.0,
        0.000123456789012345678,
    };
    int bad = 0;
    (void)state;
    for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
        bad += !double_matches(fixed[i], 0);
        bad += !double_matches(fixed[i], 30);
        bad += !double_matches(fixed[i], -30);
    }
    bad += !double_matches(1.0 / 0.0, 5) + !double_matches(-1.0 / 0.0, 0);
    bad += !double_matches(0.0 / 0.0, 3);
    for (int i = 0; i < 200000 && bad < 10; i++) {
        uint64_t r = rng();
        double d;
        if (i % 2 == 0) { /* any bit pattern */
            memcpy(&d, &r, sizeof(d));
        } else { /* decades 1e-9 .. 1e40, and short decimals (ties of 17 digits) */
            int dec = (int)(r % 50) - 9;
            d = (double)(r >> 11) / 9007199254740992.0 * pow(10, dec);
            if (i % 4 == 1)
                d = (double)(int64_t)(r >> 20) / 1000.0 + 0.5;
            if (r & 1)
                d = -d;
        }
        bad += !double_matches(d, (int)(r >> 58));
    }
    assert_int_equal(bad, 0);
}

/* Integers and strings against fprintf's formats, widths 0..40 and beyond
 * the formatting buffer. */
static void print_integers_and_strings_as_printf_does(void **state)
{
    static const int64_t vals[] = {
        0, 1, -1, 9, 10, 2147483647, -2147483647 - 1, INT64_MAX, INT64_MIN, 1234567, -1234567};
    static const char *const strs[] = {"", "x", "hello world", "a\tb"};
    char want[256];
    (void)state;
    for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
        for (int w = -3; w <= 120; w += (w < 40 ? 1 : 40)) {
            int32_t l = (int32_t)vals[i];
            uint64_t u = (uint64_t)vals[i];
            snprintf(want, sizeof(want), "%*d", w, (int)l);
            INSITU(PM_TYPE_32, l, w, want);
            snprintf(want, sizeof(want), "%*u", w, (unsigned)l);
            INSITU(PM_TYPE_U32, l, w, want);
            snprintf(want, sizeof(want), "%*" PRId64, w, vals[i]);
            check_block(__LINE__, PM_VAL_DPTR, PM_TYPE_64, PM_TYPE_64, &vals[i], 8, w, want);
            snprintf(want, sizeof(want), "%*" PRIu64, w, u);
            check_block(__LINE__, PM_VAL_DPTR, PM_TYPE_U64, PM_TYPE_U64, &u, 8, w, want);
        }
    }
    for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++) {
        for (int w = -3; w <= 120; w += (w < 40 ? 1 : 40)) {
            int n = w - ((int)strlen(strs[i]) + 2);
            snprintf(want, sizeof(want), "%*s\"%s\"", n > 0 ? n : 0, "", strs[i]);
            STR(strs[i], w, want);
        }
    }
    /* a string block without its NUL: the bytes it has, as when copied */
    check_block(__LINE__, PM_VAL_DPTR, PM_TYPE_STRING, PM_TYPE_STRING, "abc", 3, 0, "\"abc\"");
    check_block(__LINE__, PM_VAL_SPTR, PM_TYPE_STRING, 0, "ab\0cd", 5, 6, "  \"ab\"");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(print_double_as_printf_does),
        cmocka_unit_test(print_integers_and_strings_as_printf_does),
        cmocka_unit_test(print_32),
        cmocka_unit_test(print_32_right_aligned_to_minwidth),
        cmocka_unit_test(print_u32),
        cmocka_unit_test(print_64),
        cmocka_unit_test(print_u64),
        cmocka_unit_test(print_64_from_static_pointer),
        cmocka_unit_test(print_double_uses_16_significant_digits),
        cmocka_unit_test(print_double_exponent_forms),
        cmocka_unit_test(print_double_minwidth),
        cmocka_unit_test(print_float_uses_8_significant_digits),
        cmocka_unit_test(print_float_insitu_legacy),
        cmocka_unit_test(print_string_quoted),
        cmocka_unit_test(print_string_minwidth_counts_quotes),
        cmocka_unit_test(print_string_block_as_unknown_is_hex),
        cmocka_unit_test(print_aggregate_4_bytes_as_float_then_hex),
        cmocka_unit_test(print_aggregate_printable_bytes_quoted),
        cmocka_unit_test(print_aggregate_8_bytes_as_u64_double_string_hex),
        cmocka_unit_test(print_aggregate_empty),
        cmocka_unit_test(print_aggregate_nan_payload_skips_float),
        cmocka_unit_test(print_aggregate_minwidth_applies_to_each_item),
        cmocka_unit_test(print_aggregate_static),
        cmocka_unit_test(print_unknown_insitu_as_uint_float_hex),
        cmocka_unit_test(print_unknown_insitu_minwidth),
        cmocka_unit_test(print_unknown_insitu_nan_skips_float),
        cmocka_unit_test(print_aggregate_insitu_like_unknown),
        cmocka_unit_test(print_u64_block_as_unknown),
        cmocka_unit_test(print_insitu_with_pointer_type_falls_back_to_unknown),
        cmocka_unit_test(print_block_with_mismatched_type_falls_back_to_unknown),
        cmocka_unit_test(print_nosupport_falls_back_to_unknown),
        cmocka_unit_test(print_illegal_type_falls_back_to_unknown),
        cmocka_unit_test(print_bad_valfmt_message),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
