/*
 * Unit tests for pmAtomStr / pmAtomStr_r, pmNumberStr / pmNumberStr_r and
 * pmEventFlagsStr / pmEventFlagsStr_r.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <pcp/pmapi.h>

#include "test_util.h"

/* A value block with room for up to 32 payload bytes, suitably aligned. */
typedef union {
    pmValueBlock vb;
    char raw[4 + 32];
    double align;
} blockbuf;

static pmValueBlock *fill_block(blockbuf *bb, int vtype, const void *payload, int len)
{
    memset(bb, 0, sizeof(*bb));
    bb->vb.vtype = (unsigned)vtype;
    bb->vb.vlen = (unsigned)(PM_VAL_HDR_SIZE + len);
    if (len > 0)
        memcpy(bb->vb.vbuf, payload, (size_t)len);
    return &bb->vb;
}

static const unsigned char a0_to_ad[] = {0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7,
                                         0xa8, 0xa9, 0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf};

/* ---- pmAtomStr: numeric types ---- */

static void atomstr_32_signed(void **state)
{
    pmAtomValue a;
    (void)state;
    a.l = -42;
    assert_string_equal(pmAtomStr(&a, PM_TYPE_32), "-42");
    a.l = INT32_MIN;
    assert_string_equal(pmAtomStr(&a, PM_TYPE_32), "-2147483648");
}

static void atomstr_u32_max(void **state)
{
    pmAtomValue a;
    (void)state;
    a.ul = UINT32_MAX;
    assert_string_equal(pmAtomStr(&a, PM_TYPE_U32), "4294967295");
}

static void atomstr_64_signed(void **state)
{
    pmAtomValue a;
    (void)state;
    a.ll = -1234567890123LL;
    assert_string_equal(pmAtomStr(&a, PM_TYPE_64), "-1234567890123");
    a.ll = INT64_MIN;
    assert_string_equal(pmAtomStr(&a, PM_TYPE_64), "-9223372036854775808");
}

static void atomstr_u64_max(void **state)
{
    pmAtomValue a;
    (void)state;
    a.ull = UINT64_MAX;
    assert_string_equal(pmAtomStr(&a, PM_TYPE_U64), "18446744073709551615");
}

static void atomstr_float_uses_e_format(void **state)
{
    pmAtomValue a;
    (void)state;
    a.f = 3.25f;
    assert_string_equal(pmAtomStr(&a, PM_TYPE_FLOAT), "3.250000e+00");
    a.f = -0.5f;
    assert_string_equal(pmAtomStr(&a, PM_TYPE_FLOAT), "-5.000000e-01");
}

static void atomstr_double_uses_e_format(void **state)
{
    pmAtomValue a;
    (void)state;
    a.d = 1.0 / 3.0;
    assert_string_equal(pmAtomStr(&a, PM_TYPE_DOUBLE), "3.333333e-01");
    a.d = 12345678.9;
    assert_string_equal(pmAtomStr(&a, PM_TYPE_DOUBLE), "1.234568e+07");
    a.d = 1e100;
    assert_string_equal(pmAtomStr(&a, PM_TYPE_DOUBLE), "1.000000e+100");
    a.d = -0.0;
    assert_string_equal(pmAtomStr(&a, PM_TYPE_DOUBLE), "-0.000000e+00");
}

/* ---- pmAtomStr: strings ---- */

static void atomstr_string_is_quoted(void **state)
{
    pmAtomValue a;
    (void)state;
    a.cp = "hello";
    assert_string_equal(pmAtomStr(&a, PM_TYPE_STRING), "\"hello\"");
    a.cp = "";
    assert_string_equal(pmAtomStr(&a, PM_TYPE_STRING), "\"\"");
    a.cp = "with \"quote\"";
    assert_string_equal(pmAtomStr(&a, PM_TYPE_STRING), "\"with \"quote\"\"");
}

static void atomstr_string_null_pointer(void **state)
{
    pmAtomValue a;
    (void)state;
    a.cp = NULL;
    assert_string_equal(pmAtomStr(&a, PM_TYPE_STRING), "<null>");
}

static void atomstr_string_up_to_37_chars_printed_whole(void **state)
{
    pmAtomValue a;
    (void)state;
    a.cp = "012345678901234567890123456789012345"; /* 36 */
    assert_string_equal(pmAtomStr(&a, PM_TYPE_STRING), "\"012345678901234567890123456789012345\"");
    a.cp = "0123456789012345678901234567890123456"; /* 37 */
    assert_string_equal(pmAtomStr(&a, PM_TYPE_STRING), "\"0123456789012345678901234567890123456\"");
}

static void atomstr_string_38_chars_or_more_truncated(void **state)
{
    pmAtomValue a;
    (void)state;
    a.cp = "01234567890123456789012345678901234567"; /* 38 */
    assert_string_equal(pmAtomStr(&a, PM_TYPE_STRING), "\"0123456789012345678901234567890123...\"");
    a.cp = "0123456789012345678901234567890123456789"; /* 40 */
    assert_string_equal(pmAtomStr(&a, PM_TYPE_STRING), "\"0123456789012345678901234567890123...\"");
}

/* ---- pmAtomStr: aggregates ---- */

static void atomstr_aggregate_more_than_12_bytes_elided(void **state)
{
    blockbuf bb;
    pmAtomValue a;
    (void)state;
    a.vbp = fill_block(&bb, PM_TYPE_AGGREGATE, a0_to_ad, 16);
    assert_string_equal(pmAtomStr(&a, PM_TYPE_AGGREGATE),
                        "[type=AGGREGATE len=16] a0a1a2a3 a4a5a6a7 a8a9aaab ...");
    a.vbp = fill_block(&bb, PM_TYPE_AGGREGATE, a0_to_ad, 13);
    assert_string_equal(pmAtomStr(&a, PM_TYPE_AGGREGATE),
                        "[type=AGGREGATE len=13] a0a1a2a3 a4a5a6a7 a8a9aaab ...");
}

static void atomstr_aggregate_exactly_12_bytes(void **state)
{
    blockbuf bb;
    pmAtomValue a;
    (void)state;
    a.vbp = fill_block(&bb, PM_TYPE_AGGREGATE, a0_to_ad, 12);
    assert_string_equal(pmAtomStr(&a, PM_TYPE_AGGREGATE),
                        "[type=AGGREGATE len=12] a0a1a2a3 a4a5a6a7 a8a9aaab");
}

static void atomstr_aggregate_partial_word(void **state)
{
    blockbuf bb;
    pmAtomValue a;
    (void)state;
    a.vbp = fill_block(&bb, PM_TYPE_AGGREGATE, a0_to_ad, 5);
    assert_string_equal(pmAtomStr(&a, PM_TYPE_AGGREGATE), "[type=AGGREGATE len=5] a0a1a2a3 a4");
    a.vbp = fill_block(&bb, PM_TYPE_AGGREGATE, a0_to_ad, 4);
    assert_string_equal(pmAtomStr(&a, PM_TYPE_AGGREGATE), "[type=AGGREGATE len=4] a0a1a2a3");
    a.vbp = fill_block(&bb, PM_TYPE_AGGREGATE, "\x01\x02\x03", 3);
    assert_string_equal(pmAtomStr(&a, PM_TYPE_AGGREGATE), "[type=AGGREGATE len=3] 010203");
}

static void atomstr_aggregate_empty(void **state)
{
    blockbuf bb;
    pmAtomValue a;
    (void)state;
    a.vbp = fill_block(&bb, PM_TYPE_AGGREGATE, NULL, 0);
    assert_string_equal(pmAtomStr(&a, PM_TYPE_AGGREGATE), "[type=AGGREGATE len=0]");
}

static void atomstr_aggregate_null_pointer(void **state)
{
    pmAtomValue a;
    (void)state;
    a.vbp = NULL;
    assert_string_equal(pmAtomStr(&a, PM_TYPE_AGGREGATE), "<null>");
    assert_string_equal(pmAtomStr(&a, PM_TYPE_AGGREGATE_STATIC), "<null>");
}

static void atomstr_aggregate_label_comes_from_block_vtype(void **state)
{
    blockbuf bb;
    pmAtomValue a;
    (void)state;
    a.vbp = fill_block(&bb, PM_TYPE_AGGREGATE, "\x01\x02\x03", 3);
    assert_string_equal(pmAtomStr(&a, PM_TYPE_AGGREGATE_STATIC), "[type=AGGREGATE len=3] 010203");
    a.vbp = fill_block(&bb, 0, "\x01\x02\x03", 3);
    assert_string_equal(pmAtomStr(&a, PM_TYPE_AGGREGATE), "[type=32 len=3] 010203");
    a.vbp = fill_block(&bb, PM_TYPE_STRING, "\x01\x02\x03", 3);
    assert_string_equal(pmAtomStr(&a, PM_TYPE_AGGREGATE), "[type=STRING len=3] 010203");
}

/* ---- pmAtomStr: events and bad types ---- */

static void atomstr_event_record_count(void **state)
{
    pmEventArray ea;
    pmAtomValue a;
    (void)state;
    memset(&ea, 0, sizeof(ea));
    ea.ea_type = PM_TYPE_EVENT;
    ea.ea_len = 8;
    a.vbp = (pmValueBlock *)(void *)&ea;
    ea.ea_nrecords = 1;
    assert_string_equal(pmAtomStr(&a, PM_TYPE_EVENT), "[1 event record]");
    ea.ea_nrecords = 3;
    assert_string_equal(pmAtomStr(&a, PM_TYPE_EVENT), "[3 event records]");
    ea.ea_nrecords = 0;
    assert_string_equal(pmAtomStr(&a, PM_TYPE_EVENT), "[0 event records]");
}

static void atomstr_highres_event_record_count(void **state)
{
    pmHighResEventArray ea;
    pmAtomValue a;
    (void)state;
    memset(&ea, 0, sizeof(ea));
    ea.ea_type = PM_TYPE_HIGHRES_EVENT;
    ea.ea_len = 8;
    ea.ea_nrecords = 2;
    a.vbp = (pmValueBlock *)(void *)&ea;
    assert_string_equal(pmAtomStr(&a, PM_TYPE_HIGHRES_EVENT), "[2 event records]");
}

static void atomstr_nosupport_type(void **state)
{
    pmAtomValue a;
    (void)state;
    a.l = 1;
    assert_string_equal(pmAtomStr(&a, PM_TYPE_NOSUPPORT), "Error: unexpected type: Not Supported");
}

static void atomstr_unknown_type(void **state)
{
    pmAtomValue a;
    (void)state;
    a.l = 1;
    assert_string_equal(pmAtomStr(&a, PM_TYPE_UNKNOWN), "Error: unexpected type: Unknown");
}

static void atomstr_illegal_type(void **state)
{
    pmAtomValue a;
    (void)state;
    a.l = 1;
    assert_string_equal(pmAtomStr(&a, 42), "Error: unexpected type: Illegal type=42");
    assert_string_equal(pmAtomStr(&a, 11), "Error: unexpected type: Illegal type=11");
    assert_string_equal(pmAtomStr(&a, -2), "Error: unexpected type: Illegal type=-2");
}

/* ---- pmAtomStr_r ---- */

static void atomstr_r_writes_caller_buffer(void **state)
{
    pmAtomValue a;
    char buf[80];
    (void)state;
    a.l = -123456;
    assert_ptr_equal(pmAtomStr_r(&a, PM_TYPE_32, buf, (int)sizeof(buf)), buf);
    assert_string_equal(buf, "-123456");
}

static void atomstr_r_truncates_number(void **state)
{
    pmAtomValue a;
    char buf[16];
    (void)state;
    a.l = -123456;
    memset(buf, 'X', sizeof(buf));
    assert_ptr_equal(pmAtomStr_r(&a, PM_TYPE_32, buf, 5), buf);
    assert_string_equal(buf, "-123");
    assert_int_equal(buf[5], 'X');
}

static void atomstr_r_truncates_string(void **state)
{
    pmAtomValue a;
    char buf[16];
    (void)state;
    a.cp = "hello";
    memset(buf, 'X', sizeof(buf));
    pmAtomStr_r(&a, PM_TYPE_STRING, buf, 7);
    assert_string_equal(buf, "\"hello");
    memset(buf, 'X', sizeof(buf));
    pmAtomStr_r(&a, PM_TYPE_STRING, buf, 1);
    assert_string_equal(buf, "");
    memset(buf, 'X', sizeof(buf));
    pmAtomStr_r(&a, PM_TYPE_STRING, buf, 0);
    assert_int_equal(buf[0], 'X');
}

/* ---- pmAtomStr: doubles and floats against printf's "%e" ---- */

/* Every buflen up to the whole text, for a double (or the float it
 * rounds to); the count of differences. */
static int e_differs(double d, int type)
{
    char want[512], got[512];
    pmAtomValue a;
    int bad = 0, len;

    if (type == PM_TYPE_FLOAT)
        a.f = (float)d;
    else
        a.d = d;
    len = snprintf(want, sizeof(want), "%e", type == PM_TYPE_FLOAT ? (double)a.f : a.d);
    for (int n = len + 2; n >= 1; n -= (n > 16 ? 7 : 1)) {
        char cut[512];
        test_cut(cut, want, n);
        memset(got, 'X', sizeof(got));
        if (pmAtomStr_r(&a, type, got, n) != got || strcmp(got, cut) != 0 || got[n] != 'X') {
            if (bad++ == 0)
                print_error("%a (type %d, buflen %d): got [%.*s], expected [%s]\n", d, type, n, n,
                            got, cut);
        }
    }
    return bad;
}

static void atomstr_double_matches_printf(void **state)
{
    static const double fixed[] = {0.0,
                                   -0.0,
                                   1.0,
                                   0.1,
                                   2.5,
                                   1234567.5,
                                   1234568.5,
                                   10000005.0,
                                   10000015.0,
                                   9999999.5,
                                   9999995.0,
                                   99999995.0,
                                   1e-5,
                                   1e-16,
                                   1e-17,
                                   1e-22,
                                   1e-23,
                                   1e22,
                                   1e23,
                                   1e38,
                                   1.7e38,
                                   1.7014118346046923e38,
                                   1.7014118346046921e38,
                                   1e100,
                                   1e-100,
                                   1e300,
                                   5e-324,
                                   2.2250738585072014e-308,
                                   2.2250738585072009e-308,
                                   1.7976931348623157e308,
                                   HUGE_VAL,
                                   -HUGE_VAL,
                                   NAN,
                                   -NAN,
                                   0.30000000000000004,
                                   123456.75,
                                   999999.95,
                                   0.00012345675};
    uint64_t x = 42;
    int bad = 0;
    (void)state;

    for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
        for (int neg = 0; neg < 2; neg++) {
            bad += e_differs(neg ? -fixed[i] : fixed[i], PM_TYPE_DOUBLE);
            bad += e_differs(neg ? -fixed[i] : fixed[i], PM_TYPE_FLOAT);
        }
    for (int i = 0; i < 20000; i++) {
        uint64_t bits = test_splitmix(&x);
        double d, u = (double)(test_splitmix(&x) >> 11) / 9007199254740992.0;
        memcpy(&d, &bits, sizeof(d));
        bad += e_differs(d, PM_TYPE_DOUBLE); /* any bit pattern */
        /* every decade from 1e-30 to 1e45, and near-ties of seven digits */
        d = (1.0 + 9.0 * u) * pow(10.0, (double)(int)(test_splitmix(&x) % 76) - 30.0);
        bad += e_differs(d, PM_TYPE_DOUBLE);
        bad += e_differs(d, PM_TYPE_FLOAT);
        d = (double)(int64_t)(test_splitmix(&x) % 100000000) *
            pow(10.0, (double)(int)(test_splitmix(&x) % 30) - 15.0);
        bad += e_differs(d + 0.5 * pow(10.0, floor(log10(fabs(d) + 1)) - 6.0), PM_TYPE_DOUBLE);
    }
    /* another rounding mode: printf follows it, and so must pmAtomStr */
    if (fesetround(FE_UPWARD) == 0) {
        bad += e_differs(1.00000001, PM_TYPE_DOUBLE);
        bad += e_differs(-2.5e-7, PM_TYPE_DOUBLE);
        fesetround(FE_TONEAREST);
    }
    assert_int_equal(bad, 0);
}

/* ---- pmNumberStr ---- */

static void numberstr_small_values(void **state)
{
    (void)state;
    assert_string_equal(pmNumberStr(0.0), "  0.00 ");
    assert_string_equal(pmNumberStr(0.004), "  0.00 ");
    assert_string_equal(pmNumberStr(0.0049), "  0.00 ");
    assert_string_equal(pmNumberStr(0.005), "  0.01 ");
    assert_string_equal(pmNumberStr(1.0), "  1.00 ");
    assert_string_equal(pmNumberStr(12.345), " 12.35 ");
    assert_string_equal(pmNumberStr(999.99), "999.99 ");
    assert_string_equal(pmNumberStr(999.994), "999.99 ");
}

static void numberstr_kilo(void **state)
{
    (void)state;
    assert_string_equal(pmNumberStr(999.995), "  1.00K");
    assert_string_equal(pmNumberStr(1234.5), "  1.23K");
    assert_string_equal(pmNumberStr(999994.0), "999.99K");
}

static void numberstr_mega_giga_tera(void **state)
{
    (void)state;
    assert_string_equal(pmNumberStr(999995.0), "  1.00M");
    assert_string_equal(pmNumberStr(999994999.0), "999.99M");
    assert_string_equal(pmNumberStr(999995000.0), "  1.00G");
    assert_string_equal(pmNumberStr(1.5e9), "  1.50G");
    assert_string_equal(pmNumberStr(999995e6), "  1.00T");
    assert_string_equal(pmNumberStr(2.5e12), "  2.50T");
    assert_string_equal(pmNumberStr(999994e9), "999.99T");
}

/* pmNumberStr_r against printf's "%6.2f" (what PCP's formats with) over
 * every multiple of 0.005 in the unscaled ranges, a double either side of
 * each (the ties and near-ties of rounding to hundredths), and the same
 * values scaled into the K range. */
static void numberstr_rounds_as_printf(void **state)
{
    char got[16], want[32];
    int bad = 0;

    (void)state;
    for (int n = -19999; n < 199999 && bad < 5; n++) {
        double t = n / 200.0;
        for (int k = 0; k < 6; k++) {
            double v = k % 3 == 0 ? t : k % 3 == 1 ? nextafter(t, -1e9) : nextafter(t, 1e9);
            char suffix = ' ';
            if (k >= 3) { /* the same in thousands */
                v *= 1000.0;
                suffix = 'K';
            }
            if (v >= 0 ? v < (k >= 3 ? 999.995 : 0.005) || v >= (k >= 3 ? 999995.0 : 999.995)
                       : v > (k >= 3 ? -99.995 : -0.005) || v <= (k >= 3 ? -99995.0 : -99.995))
                continue; /* another range's */
            snprintf(want, sizeof(want), "%6.2f%c", k >= 3 ? v / 1e3 : v, suffix);
            pmNumberStr_r(v, got, (int)sizeof(got));
            if (strcmp(got, want) != 0 && bad++ < 5)
                print_message("pmNumberStr_r(%.17g) \"%s\", printf \"%s\"\n", v, got, want);
        }
    }
    assert_int_equal(bad, 0);
}

static void numberstr_overflow(void **state)
{
    (void)state;
    assert_string_equal(pmNumberStr(999995e9), " inf?  ");
    assert_string_equal(pmNumberStr(1e15), " inf?  ");
    assert_string_equal(pmNumberStr(1e300), " inf?  ");
}

static void numberstr_negative_values(void **state)
{
    (void)state;
    assert_string_equal(pmNumberStr(-0.0), "  0.00 ");
    assert_string_equal(pmNumberStr(-0.004), "  0.00 ");
    assert_string_equal(pmNumberStr(-0.0049), "  0.00 ");
    assert_string_equal(pmNumberStr(-0.005), " -0.01 ");
    assert_string_equal(pmNumberStr(-1.0), " -1.00 ");
    assert_string_equal(pmNumberStr(-99.99), "-99.99 ");
}

static void numberstr_negative_scaled(void **state)
{
    (void)state;
    assert_string_equal(pmNumberStr(-99.995), " -0.10K");
    assert_string_equal(pmNumberStr(-12345.0), "-12.35K");
    assert_string_equal(pmNumberStr(-99994.0), "-99.99K");
    assert_string_equal(pmNumberStr(-99995.0), " -0.10M");
    assert_string_equal(pmNumberStr(-1e6), " -1.00M");
    assert_string_equal(pmNumberStr(-99995e3), " -0.10G");
    assert_string_equal(pmNumberStr(-99995e6), " -0.10T");
    assert_string_equal(pmNumberStr(-99994e9), "-99.99T");
}

static void numberstr_negative_overflow(void **state)
{
    (void)state;
    assert_string_equal(pmNumberStr(-99995e9), "-inf?  ");
    assert_string_equal(pmNumberStr(-1e14), "-inf?  ");
}

static void numberstr_r_writes_caller_buffer(void **state)
{
    char buf[16];
    (void)state;
    assert_ptr_equal(pmNumberStr_r(12.345, buf, (int)sizeof(buf)), buf);
    assert_string_equal(buf, " 12.35 ");
}

static void numberstr_r_truncates(void **state)
{
    char buf[16];
    (void)state;
    memset(buf, 'X', sizeof(buf));
    pmNumberStr_r(12.345, buf, 5);
    assert_string_equal(buf, " 12.");
    assert_int_equal(buf[5], 'X');
}

/* ---- pmEventFlagsStr ---- */

static void eventflags_zero_is_empty(void **state)
{
    (void)state;
    assert_string_equal(pmEventFlagsStr(0), "");
}

static void eventflags_single_bits(void **state)
{
    (void)state;
    assert_string_equal(pmEventFlagsStr(PM_EVENT_FLAG_POINT), "point");
    assert_string_equal(pmEventFlagsStr(PM_EVENT_FLAG_START), "start");
    assert_string_equal(pmEventFlagsStr(PM_EVENT_FLAG_END), "end");
    assert_string_equal(pmEventFlagsStr(PM_EVENT_FLAG_ID), "id");
    assert_string_equal(pmEventFlagsStr(PM_EVENT_FLAG_PARENT), "parent");
}

static void eventflags_combinations_comma_joined(void **state)
{
    (void)state;
    assert_string_equal(pmEventFlagsStr(0x1f), "point,start,end,id,parent");
    assert_string_equal(pmEventFlagsStr(0x03), "point,start");
    assert_string_equal(pmEventFlagsStr(0x18), "id,parent");
}

static void eventflags_missed_overrides_everything(void **state)
{
    (void)state;
    assert_string_equal(pmEventFlagsStr((int)PM_EVENT_FLAG_MISSED), "missed");
    assert_string_equal(pmEventFlagsStr((int)(PM_EVENT_FLAG_MISSED | PM_EVENT_FLAG_POINT)),
                        "missed");
    assert_string_equal(pmEventFlagsStr(-1), "missed");
}

static void eventflags_undefined_bits_ignored(void **state)
{
    (void)state;
    assert_string_equal(pmEventFlagsStr(0x20), "");
    assert_string_equal(pmEventFlagsStr(0x21), "point");
    assert_string_equal(pmEventFlagsStr(0x7fffffe0), "");
}

static void eventflags_r_needs_26_bytes(void **state)
{
    char buf[64];
    (void)state;
    assert_null(pmEventFlagsStr_r(1, buf, 25));
    assert_null(pmEventFlagsStr_r(1, buf, 0));
    assert_ptr_equal(pmEventFlagsStr_r(1, buf, 26), buf);
    assert_string_equal(buf, "point");
    assert_ptr_equal(pmEventFlagsStr_r(0x1f, buf, 26), buf);
    assert_string_equal(buf, "point,start,end,id,parent");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(atomstr_32_signed),
        cmocka_unit_test(atomstr_u32_max),
        cmocka_unit_test(atomstr_64_signed),
        cmocka_unit_test(atomstr_u64_max),
        cmocka_unit_test(atomstr_float_uses_e_format),
        cmocka_unit_test(atomstr_double_uses_e_format),
        cmocka_unit_test(atomstr_string_is_quoted),
        cmocka_unit_test(atomstr_string_null_pointer),
        cmocka_unit_test(atomstr_string_up_to_37_chars_printed_whole),
        cmocka_unit_test(atomstr_string_38_chars_or_more_truncated),
        cmocka_unit_test(atomstr_aggregate_more_than_12_bytes_elided),
        cmocka_unit_test(atomstr_aggregate_exactly_12_bytes),
        cmocka_unit_test(atomstr_aggregate_partial_word),
        cmocka_unit_test(atomstr_aggregate_empty),
        cmocka_unit_test(atomstr_aggregate_null_pointer),
        cmocka_unit_test(atomstr_aggregate_label_comes_from_block_vtype),
        cmocka_unit_test(atomstr_event_record_count),
        cmocka_unit_test(atomstr_highres_event_record_count),
        cmocka_unit_test(atomstr_nosupport_type),
        cmocka_unit_test(atomstr_unknown_type),
        cmocka_unit_test(atomstr_illegal_type),
        cmocka_unit_test(atomstr_r_writes_caller_buffer),
        cmocka_unit_test(atomstr_r_truncates_number),
        cmocka_unit_test(atomstr_r_truncates_string),
        cmocka_unit_test(atomstr_double_matches_printf),
        cmocka_unit_test(numberstr_small_values),
        cmocka_unit_test(numberstr_kilo),
        cmocka_unit_test(numberstr_rounds_as_printf),
        cmocka_unit_test(numberstr_mega_giga_tera),
        cmocka_unit_test(numberstr_overflow),
        cmocka_unit_test(numberstr_negative_values),
        cmocka_unit_test(numberstr_negative_scaled),
        cmocka_unit_test(numberstr_negative_overflow),
        cmocka_unit_test(numberstr_r_writes_caller_buffer),
        cmocka_unit_test(numberstr_r_truncates),
        cmocka_unit_test(eventflags_zero_is_empty),
        cmocka_unit_test(eventflags_single_bits),
        cmocka_unit_test(eventflags_combinations_comma_joined),
        cmocka_unit_test(eventflags_missed_overrides_everything),
        cmocka_unit_test(eventflags_undefined_bits_ignored),
        cmocka_unit_test(eventflags_r_needs_26_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
