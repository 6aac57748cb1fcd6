/*
 * Unit tests for pmParseUnitsStr (libpcp/values/units_parse.c).
 *
 * The expected values are what Debian's libpcp 6.0.3 returns on these
 * inputs (tests/oracle/parse_diff.sh runs about a thousand more through
 * both libraries), except in null_arguments, which pins pmkit's
 * documented difference (docs/compat.md): PCP crashes there.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <pcp/pmapi.h>

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

#define MSG_UNKNOWN "unrecognized or duplicate base unit"
#define MSG_NUMBER  "invalid floating point literal"

/* A pmUnits as six numbers: dimSpace dimTime dimCount, then the scales. */
typedef struct {
    int ds, dt, dc, ss, st, sc;
} fields;

typedef struct {
    const char *str;
    fields f;
    double mult;
} good_case;

typedef struct {
    const char *str, *msg;
} bad_case;

/* Fails the test unless STR parses to F and exactly MULT (NaN: any NaN). */
static void expect_ok(const char *str, fields f, double mult)
{
    pmUnits u;
    double m = -1;
    char *msg = (char *)"untouched";
    int sts;

    memset(&u, 0xff, sizeof(u));
    sts = pmParseUnitsStr(str, &u, &m, &msg);
    if (sts != 0)
        fail_msg("\"%s\": %d (%s)", str, sts, sts == PM_ERR_CONV ? msg : "?");
    assert_string_equal(msg, "untouched"); /* no message on success */
    if (u.dimSpace != f.ds || u.dimTime != f.dt || u.dimCount != f.dc ||
        (int)u.scaleSpace != f.ss || (int)u.scaleTime != f.st || u.scaleCount != f.sc || u.pad != 0)
        fail_msg("\"%s\": units %d %d %d %d %d %d pad %d", str, u.dimSpace, u.dimTime, u.dimCount,
                 u.scaleSpace, u.scaleTime, u.scaleCount, u.pad);
    if (isnan(mult) ? !isnan(m) : m != mult || signbit(m) != signbit(mult))
        fail_msg("\"%s\": multiplier %.17g, expected %.17g", str, m, mult);
}

/* Fails the test unless STR is PM_ERR_CONV with message MSG, zeroed units
 * and a multiplier of 1. */
static void expect_error(const char *str, const char *want)
{
    pmUnits u;
    double m = -1;
    char *msg = NULL;
    int sts;

    memset(&u, 0xff, sizeof(u));
    sts = pmParseUnitsStr(str, &u, &m, &msg);
    if (sts != PM_ERR_CONV)
        fail_msg("\"%s\": %d, expected PM_ERR_CONV", str, sts);
    assert_non_null(msg);
    if (strcmp(msg, want) != 0)
        fail_msg("\"%s\": \"%s\", expected \"%s\"", str, msg, want);
    free(msg);
    if (u.dimSpace || u.dimTime || u.dimCount || u.scaleSpace || u.scaleTime || u.scaleCount ||
        u.pad || m != 1)
        fail_msg("\"%s\": outputs not reset on error", str);
}

static void run_good(const good_case *c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        expect_ok(c[i].str, c[i].f, c[i].mult);
}

static void run_bad(const bad_case *c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        expect_error(c[i].str, c[i].msg);
}

/* The table of PCP's man page: "2 count" is half a count, so 0.5. */
static void man_page_examples(void **state)
{
    static const good_case c[] = {
        {"2 count", {0, 0, 1, 0, 0, 0}, 0.5},
        {"count / 7.5 nanosecond", {0, -1, 1, 0, PM_TIME_NSEC, 0}, 7.5},
        {"10 kilobytes / 2.5e2 count x 10^3", {1, 0, -1, PM_SPACE_KBYTE, 0, 3}, 25},
        {"millisecond / second^2", {0, -1, 0, 0, PM_TIME_SEC, 0}, 1000},
        {"mib/s", {1, -1, 0, PM_SPACE_MBYTE, PM_TIME_SEC, 0}, 1},
        /* and what pmUnitsStr writes */
        {"Kbyte / sec", {1, -1, 0, PM_SPACE_KBYTE, PM_TIME_SEC, 0}, 1},
        {"count x 10^6 / sec", {0, -1, 1, 0, PM_TIME_SEC, 6}, 1},
        {"Gbyte^-2 / count^3", {-2, 0, -3, PM_SPACE_GBYTE, 0, 0}, 1},
    };
    (void)state;
    run_good(c, NELEM(c));
}

/* Every spelling of every scale, in any case. */
static void keywords(void **state)
{
    static const char *const prefixes[][3] = {
        {"k", "kilo", "kibi"},  {"m", "mega", "mebi"},  {"g", "giga", "gibi"},
        {"t", "tera", "tebi"},  {"p", "peta", "pebi"},  {"e", "exa", "exbi"},
        {"z", "zetta", "zebi"}, {"y", "yotta", "yobi"},
    };
    static const char *const forms[] = {"%sb", "%sib", "%sbyte", "%sbytes"};
    static const struct {
        const char *word;
        int scale;
    } times[] = {
        {"ns", 0},  {"nanosec", 0},  {"nanosecond", 0},  {"nanoseconds", 0},
        {"us", 1},  {"microsec", 1}, {"microsecond", 1}, {"microseconds", 1},
        {"ms", 2},  {"millisec", 2}, {"millisecond", 2}, {"milliseconds", 2},
        {"s", 3},   {"sec", 3},      {"second", 3},      {"seconds", 3},
        {"min", 4}, {"minute", 4},   {"minutes", 4},     {"h", 5},
        {"hr", 5},  {"hour", 5},     {"HOURS", 5},       {"MicroSec", 1},
    };
    char word[32];
    (void)state;

    expect_ok("byte", (fields){1, 0, 0, 0, 0, 0}, 1);
    expect_ok("BYTES", (fields){1, 0, 0, 0, 0, 0}, 1);
    for (size_t i = 0; i < NELEM(prefixes); i++) {
        fields f = {1, 0, 0, (int)i + 1, 0, 0};

        for (size_t j = 0; j < NELEM(forms); j++) {
            snprintf(word, sizeof(word), forms[j], prefixes[i][0]);
            expect_ok(word, f, 1);
        }
        for (int k = 1; k <= 2; k++) {
            snprintf(word, sizeof(word), "%sbyte", prefixes[i][k]);
            expect_ok(word, f, 1);
            snprintf(word, sizeof(word), "%sBytes", prefixes[i][k]);
            expect_ok(word, f, 1);
        }
    }
    expect_ok("KiB", (fields){1, 0, 0, PM_SPACE_KBYTE, 0, 0}, 1);
    for (size_t i = 0; i < NELEM(times); i++)
        expect_ok(times[i].word, (fields){0, 1, 0, 0, times[i].scale, 0}, 1);
    expect_ok("count", (fields){0, 0, 1, 0, 0, 0}, 1);
    expect_ok("Counts", (fields){0, 0, 1, 0, 0, 0}, 1);
}

/* Near misses are not keywords: no "b", "k", "nsec", "secs", "mins", "hrs",
 * "day", "x", "per"; plurals only where listed. */
static void not_keywords(void **state)
{
    static const char *const words[] = {
        "b",           "k",      "kilo", "kbs",      "bytess", "bit",           "nsec",
        "usec",        "msec",   "secs", "ss",       "m",      "mins",          "hrs",
        "hs",          "d",      "day",  "nanosecs", "cnt",    "event",         "x",
        "X",           "per",    "inf",  "nan",      "+5",     "counts x 10^3", "count  x 10^3",
        "count x10^3", "x 10^3", "x 10",
    };
    (void)state;
    for (size_t i = 0; i < NELEM(words); i++)
        expect_error(words[i], MSG_UNKNOWN);
}

/* "count x 10^N" for N in -8..7 but 0 and 1; "count x 10" is 10^1, and
 * after it "^0" or "^1" is the power, as after any other keyword. */
static void count_scales(void **state)
{
    static const good_case c[] = {
        {"count x 10^-8", {0, 0, 1, 0, 0, -8}, 1},
        {"count x 10^-1", {0, 0, 1, 0, 0, -1}, 1},
        {"count x 10", {0, 0, 1, 0, 0, 1}, 1},
        {"count x 10^1", {0, 0, 1, 0, 0, 1}, 1},
        {"count x 10^2", {0, 0, 1, 0, 0, 2}, 1},
        {"COUNT X 10^7", {0, 0, 1, 0, 0, 7}, 1},
        {"count x 10^0", {0, 0, 0, 0, 0, 0}, 1}, /* power 0: no dimension */
        {"count x 10^3^2", {0, 0, 2, 0, 0, 3}, 1},
        {"count x 10^-8^-8", {0, 0, -8, 0, 0, -8}, 1},
        {"count x 10^3^0", {0, 0, 0, 0, 0, 0}, 1},
        {"count x 10^3/s", {0, -1, 1, 0, PM_TIME_SEC, 3}, 1},
    };
    static const bad_case bad[] = {
        {"count x 10^8", "count dimension out of bounds"}, /* "count x 10" to the 8th */
        {"count x 10^15", "count dimension out of bounds"},
        {"count x 10^16", MSG_UNKNOWN},
        {"count x 10^-9", MSG_UNKNOWN},
        {"count x 10^1^2", MSG_UNKNOWN},
        {"count x 10^0^2", MSG_UNKNOWN},
        {"count x 10^+3", MSG_UNKNOWN},
        {"count x 10^03", MSG_UNKNOWN},
        {"count x 10 ^3", MSG_UNKNOWN},
        {"count x 10^3x", MSG_UNKNOWN},
        {"count^2 x 10^3", MSG_UNKNOWN},
    };
    (void)state;
    run_good(c, NELEM(c));
    run_bad(bad, NELEM(bad));
}

/* "^n": n spelled canonically from -8 to 15; the result must fit -8..7. */
static void powers(void **state)
{
    static const good_case c[] = {
        {"byte^2", {2, 0, 0, 0, 0, 0}, 1},          {"byte^-1", {-1, 0, 0, 0, 0, 0}, 1},
        {"byte^0", {0, 0, 0, 0, 0, 0}, 1},          {"byte^7", {7, 0, 0, 0, 0, 0}, 1},
        {"byte^-8", {-8, 0, 0, 0, 0, 0}, 1},        {"kb^2", {2, 0, 0, 1, 0, 0}, 1},
        {"byte^3/s", {3, -1, 0, 0, 3, 0}, 1},       {"byte^3 ", {3, 0, 0, 0, 0, 0}, 1},
        {"byte^8 / byte^8", {0, 0, 0, 0, 0, 0}, 1}, {"byte^15 / byte^9", {6, 0, 0, 0, 0, 0}, 1},
        {"kbyte^0", {0, 0, 0, 0, 0, 0}, 1}, /* no dimension, no scale */
    };
    static const bad_case bad[] = {
        {"byte^8", "space dimension out of bounds"},
        {"byte^15", "space dimension out of bounds"},
        {"sec^8", "time dimension out of bounds"},
        {"count^8", "count dimension out of bounds"},
        {"byte^7 / byte^-1", "space dimension out of bounds"},
        {"byte^-8 / byte", "space dimension out of bounds"},
        {"byte^16", MSG_UNKNOWN},
        {"byte^-9", MSG_UNKNOWN},
        {"byte^-0", MSG_UNKNOWN},
        {"byte^+2", MSG_UNKNOWN},
        {"byte^007", MSG_UNKNOWN},
        {"byte^2.5", MSG_UNKNOWN},
        {"byte^", MSG_UNKNOWN},
        {"byte ^2", MSG_UNKNOWN},
        {"byte^ 2", MSG_UNKNOWN},
        {"byte^3^2", MSG_UNKNOWN},
        {"byte^3x", MSG_UNKNOWN},
        {"byte^35", MSG_UNKNOWN},
        {"byte^99999999999999999999", MSG_UNKNOWN},
    };
    (void)state;
    run_good(c, NELEM(c));
    run_bad(bad, NELEM(bad));
}

/* Numbers: strtod from a digit, '-' or '.'; their product divides. */
static void numbers(void **state)
{
    static const good_case c[] = {
        {"2", {0, 0, 0, 0, 0, 0}, 0.5},
        {"2byte", {1, 0, 0, 0, 0, 0}, 0.5},
        {"byte / 2", {1, 0, 0, 0, 0, 0}, 2},
        {"2 / 3", {0, 0, 0, 0, 0, 0}, 1.5},
        {"3 5 7 / 11 13", {0, 0, 0, 0, 0, 0}, 143.0 / 105.0},
        {"0.1 0.2 0.3", {0, 0, 0, 0, 0, 0}, 166.66666666666663}, /* 1 / (0.1 * 0.2 * 0.3) */
        {"-2", {0, 0, 0, 0, 0, 0}, -0.5},
        {".5", {0, 0, 0, 0, 0, 0}, 2},
        {"1.5.5", {0, 0, 0, 0, 0, 0}, 1 / 0.75}, /* 1.5 then .5 */
        {"0x10 byte", {1, 0, 0, 0, 0, 0}, 0.0625},
        {"1e3", {0, 0, 0, 0, 0, 0}, 0.001},
        {"2ebyte", {1, 0, 0, PM_SPACE_EBYTE, 0, 0}, 0.5}, /* 2, then "ebyte" */
        {"0", {0, 0, 0, 0, 0, 0}, INFINITY},
        {"-inf", {0, 0, 0, 0, 0, 0}, -0.0},
        {"-nan", {0, 0, 0, 0, 0, 0}, NAN},
        {"1e308 1e308", {0, 0, 0, 0, 0, 0}, 0},
    };
    static const bad_case bad[] = {
        {"-", MSG_NUMBER},      {".", MSG_NUMBER},     {"-byte", MSG_NUMBER},
        {"2-byte", MSG_NUMBER}, {"1e400", MSG_NUMBER}, {"1e-400", MSG_NUMBER},
        {"5e-324", MSG_NUMBER}, {"--5", MSG_NUMBER},   {"+5", MSG_UNKNOWN},
        {"2^2", MSG_UNKNOWN},   {"2x", MSG_UNKNOWN},   {"1,5", MSG_UNKNOWN},
    };
    (void)state;
    run_good(c, NELEM(c));
    run_bad(bad, NELEM(bad));
}

/* Blanks, one '/', and what may end a unit (a blank, '/', the end). */
static void separators(void **state)
{
    static const good_case c[] = {
        {"", {0, 0, 0, 0, 0, 0}, 1},
        {" \t\n\v\f\r", {0, 0, 0, 0, 0, 0}, 1},
        {"/", {0, 0, 0, 0, 0, 0}, 1},
        {"kb/s", {1, -1, 0, 1, 3, 0}, 1},
        {"/ sec", {0, -1, 0, 0, 3, 0}, 1},
        {"sec /", {0, 1, 0, 0, 3, 0}, 1},
        {"\tbyte\t/\tsec\t", {1, -1, 0, 0, 3, 0}, 1},
        {"byte\nsec", {1, 1, 0, 0, 3, 0}, 1},
        {"sec count byte", {1, 1, 1, 0, 3, 0}, 1},
    };
    static const bad_case bad[] = {
        {"byte / count / sec", MSG_UNKNOWN},
        {"byte // sec", MSG_UNKNOWN},
        {"/ /", MSG_UNKNOWN},
        {"byte per sec", MSG_UNKNOWN},
        {"byte*sec", MSG_UNKNOWN},
        {"byte x sec", MSG_UNKNOWN},
        {"byte-sec", MSG_UNKNOWN},
        {"byte,sec", MSG_UNKNOWN},
        {"byte2", MSG_UNKNOWN},
        {"byte\x01", MSG_UNKNOWN},
        {"\xc2\xb5s", MSG_UNKNOWN},
    };
    (void)state;
    run_good(c, NELEM(c));
    run_bad(bad, NELEM(bad));
}

/* A dimension once per half, unless its power is 0; the same unit on both
 * sides cancels. */
static void duplicates(void **state)
{
    static const good_case c[] = {
        {"byte^0 byte", {1, 0, 0, 0, 0, 0}, 1},
        {"byte^0 kbyte", {1, 0, 0, 1, 0, 0}, 1},
        {"kbyte^0 byte", {1, 0, 0, 0, 0, 0}, 1},
        {"count^0 count", {0, 0, 1, 0, 0, 0}, 1},
        {"byte / byte", {0, 0, 0, 0, 0, 0}, 1},
        {"count sec byte / sec count byte", {0, 0, 0, 0, 0, 0}, 1},
        {"kbyte^0 / kbyte", {-1, 0, 0, 1, 0, 0}, 1}, /* one side: its scale */
        {"ns^0 / us", {0, -1, 0, 0, 1, 0}, 1},
    };
    static const bad_case bad[] = {
        {"byte byte", MSG_UNKNOWN},   {"byte kb", MSG_UNKNOWN},
        {"sec ms", MSG_UNKNOWN},      {"count count x 10^3", MSG_UNKNOWN},
        {"byte byte^0", MSG_UNKNOWN}, {"byte / count count", MSG_UNKNOWN},
    };
    (void)state;
    run_good(c, NELEM(c));
    run_bad(bad, NELEM(bad));
}

/* A dimension on both sides goes to byte, second or 10^0, through pow()
 * on each side's scale: even "ns / ns" is not exactly 1, as in PCP. */
static void mixed_scales(void **state)
{
    static const good_case c[] = {
        {"byte / kbyte", {0, 0, 0, 0, 0, 0}, 1024},
        {"kbyte / byte", {0, 0, 0, 0, 0, 0}, 1.0 / 1024},
        {"kbyte / mbyte^2", {-1, 0, 0, 0, 0, 0}, 1073741824},
        {"kbyte^2 / mbyte^3", {-1, 0, 0, 0, 0, 0}, 1099511627776.0},
        {"ms / sec", {0, 0, 0, 0, 0, 0}, 1000},
        {"ms / hour", {0, 0, 0, 0, 0, 0}, 3600000},
        {"ms / hour^-1", {0, 2, 0, 0, PM_TIME_SEC, 0}, 0.27777777777777779},
        {"ns / ns", {0, 0, 0, 0, 0, 0}, 0.99999999999999989},
        {"ns^3 / ns^3", {0, 0, 0, 0, 0, 0}, 1},
        {"ns^3 / ns^2", {0, 1, 0, 0, PM_TIME_SEC, 0}, 1e9},
        {"ns / hour^2", {0, -1, 0, 0, PM_TIME_SEC, 0}, 12959999999999998.0},
        {"ns^3 / hour", {0, 2, 0, 0, PM_TIME_SEC, 0}, 3.5999999999999996e+30},
        {"count x 10^3 / count", {0, 0, 0, 0, 0, 0}, 0.001},
        {"count x 10^-5 / count x 10^-5", {0, 0, 0, 0, 0, 0}, 0.99999999999999989},
        {"count x 10^7 / count x 10^-8", {0, 0, 0, 0, 0, 0}, 9.9999999999999988e-16},
        {"3 ns / 7 us", {0, 0, 0, 0, 0, 0}, 2333.333333333333},
        /* the order: numbers, then space, count and time, numerator first */
        {"0.3 count x 10^-7^2 ns^3 / 0.7 count x 10^-3^3 us^2",
         {0, 1, -1, 0, PM_TIME_SEC, 0},
         2.3333333333333338e+20},
        {"1e-300 byte ns^-7 / ybyte s", {0, -8, 0, 0, PM_TIME_SEC, 0}, INFINITY},
        {"1e-300 ybyte^-7 / ybyte^-7", {0, 0, 0, 0, 0, 0}, INFINITY},
        {"ybyte^15 / ybyte^15", {0, 0, 0, 0, 0, 0}, NAN}, /* 2^-1200 -> 0, times 2^1200 */
    };
    (void)state;
    run_good(c, NELEM(c));
}

/* The first problem from the left wins; bounds are checked last, space
 * then time then count. */
static void error_order(void **state)
{
    static const bad_case bad[] = {
        {"byte^8 foo", MSG_UNKNOWN},
        {"byte^8 / foo", MSG_UNKNOWN},
        {"foo / 2-", MSG_UNKNOWN},
        {"2- / foo", MSG_NUMBER},
        {"count^8 sec^8 byte^8", "space dimension out of bounds"},
        {"sec^8 count^8", "time dimension out of bounds"},
    };
    (void)state;
    run_bad(bad, NELEM(bad));
}

/* pmkit only (docs/compat.md): PCP dereferences every NULL here. */
static void null_arguments(void **state)
{
    pmUnits u;
    double m = -1;
    char *msg = NULL;
    (void)state;

    memset(&u, 0xff, sizeof(u));
    assert_int_equal(pmParseUnitsStr(NULL, &u, &m, &msg), -EINVAL);
    assert_string_equal(msg, "NULL string, pmUnits or multiplier");
    free(msg);
    assert_int_equal(u.dimSpace, 0);
    assert_true(m == 1);
    msg = NULL;
    assert_int_equal(pmParseUnitsStr("byte", NULL, &m, &msg), -EINVAL);
    assert_non_null(msg);
    free(msg);
    assert_int_equal(pmParseUnitsStr("byte", &u, NULL, NULL), -EINVAL);
    /* a NULL errMsg: the status alone */
    assert_int_equal(pmParseUnitsStr("foo", &u, &m, NULL), PM_ERR_CONV);
    assert_int_equal(pmParseUnitsStr("byte^8", &u, &m, NULL), PM_ERR_CONV);
    assert_int_equal(pmParseUnitsStr("2 byte", &u, &m, NULL), 0);
    assert_int_equal(u.dimSpace, 1);
    assert_true(m == 0.5);
}

/* errno as PCP leaves it: cleared before each number and left as strtod
 * sets it; untouched by a string without numbers.  An error does not
 * leak into the next call. */
static void errno_and_state(void **state)
{
    pmUnits u;
    double m;
    char *msg = NULL;
    (void)state;

    errno = 1234;
    assert_int_equal(pmParseUnitsStr("1e400", &u, &m, &msg), PM_ERR_CONV);
    assert_int_equal(errno, ERANGE);
    free(msg);
    errno = 1234;
    assert_int_equal(pmParseUnitsStr("2 byte", &u, &m, NULL), 0);
    assert_int_equal(errno, 0);
    errno = 1234;
    assert_int_equal(pmParseUnitsStr("byte / sec", &u, &m, NULL), 0);
    assert_int_equal(errno, 1234);
    expect_ok("4 byte", (fields){1, 0, 0, 0, 0, 0}, 0.25);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(man_page_examples),
        cmocka_unit_test(keywords),
        cmocka_unit_test(not_keywords),
        cmocka_unit_test(count_scales),
        cmocka_unit_test(powers),
        cmocka_unit_test(numbers),
        cmocka_unit_test(separators),
        cmocka_unit_test(duplicates),
        cmocka_unit_test(mixed_scales),
        cmocka_unit_test(error_order),
        cmocka_unit_test(null_arguments),
        cmocka_unit_test(errno_and_state),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
