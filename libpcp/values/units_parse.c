/*
 * units_parse.c - pmParseUnitsStr: text such as "Kbyte / sec",
 * "count x 10^3" or "10 kilobytes / 2.5e2 count x 10^3" into a pmUnits
 * and a multiplier.
 *
 * Grammar (PCP's, as probed from Debian's libpcp 6.0.3):
 *   units    = half [ "/" half ]
 *   half     = { blank | number | unit }
 *   unit     = keyword [ "^" exponent ] ( blank | "/" | end )
 *   exponent = "0" | [ "-" ] digit19 { digit }     (from -8 to 15)
 * Blanks are isspace() characters; a number is what strtod reads from a
 * digit, '-' or '.' onwards (so "0x10", "1e3", "-inf" and "-nan", not "+2"
 * or "nan"), and needs nothing after it ("2byte", "1.5.5").  Keywords are
 * matched without regard to case, the longest first; see the table below.
 * A unit whose dimension already has a non-zero power in its half is a
 * duplicate ("byte byte"; but "byte^0 byte" is fine).
 *
 * Result.  Each half keeps its dimensions, scales and the product of its
 * numbers.  The multiplier starts as the denominator's product divided by
 * the numerator's; then, for space, count and time in that order, a
 * dimension with a non-zero power in both halves is moved to its base
 * scale (byte, 10^0, second), the multiplier times pow(f, -p) for the
 * numerator and pow(f, p) for the denominator, where f is the size of the
 * half's scale in base units and p its power.  The order matters: it is
 * what makes "ns / ns" 0.99999999999999989 and "ybyte^15 / ybyte^15" NaN,
 * as in PCP.  Otherwise a dimension keeps the scale of the half that has
 * it; a dimension left at power 0 has scale 0.  Before any of this, the
 * powers must be within -8..7 (the 4-bit fields), checked for space, time,
 * then count.  errno is PCP's too: cleared before each number, then as
 * strtod and pow leave it.
 *
 * Errors are PM_ERR_CONV with one of PCP's messages, malloc'd in *errMsg:
 * the first problem met from the left, bounds after the whole string.  The
 * outputs are zeroed (multiplier 1) first and hold that on error.
 *
 * Not PCP's (docs/compat.md): a NULL string, pmUnits or multiplier is
 * -EINVAL, and a NULL errMsg takes no message; PCP dereferences them all.
 */
#include "values.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The three dimensions, indexing the arrays below. */
enum { SPACE, TIME, COUNT, NDIMS };

/* Dimension powers must end within the signed 4-bit range. */
#define DIM_MIN (-8)
#define DIM_MAX 7
/* A unit's "^n" takes n from here (PCP's range: more than the fields). */
#define EXP_MIN (-8)
#define EXP_MAX 15

static const char msg_unknown[] = "unrecognized or duplicate base unit";
static const char msg_number[] = "invalid floating point literal";
static const char *const msg_bounds[NDIMS] = {
    "space dimension out of bounds",
    "time dimension out of bounds",
    "count dimension out of bounds",
};

typedef struct {
    const char *word; /* matched without regard to case */
    int dim;          /* SPACE, TIME or COUNT */
    int scale;        /* PM_SPACE_*, PM_TIME_* or the count's power of ten */
} keyword;

/*
 * Every word PCP takes, with its dimension and scale (PM_SPACE_*, PM_TIME_*
 * or the count's power of ten).  "count x 10^0" and "count x 10^1" are not
 * words: there "count x 10" is matched and "^0" or "^1" is its power.
 */
/* clang-format off */
static const keyword keywords[] = {
    /* space, powers of 1024 whatever the name says */
    {"byte", SPACE, 0}, {"bytes", SPACE, 0},
    {"kb", SPACE, 1}, {"kib", SPACE, 1}, {"kbyte", SPACE, 1}, {"kbytes", SPACE, 1},
    {"kilobyte", SPACE, 1}, {"kilobytes", SPACE, 1},
    {"kibibyte", SPACE, 1}, {"kibibytes", SPACE, 1},
    {"mb", SPACE, 2}, {"mib", SPACE, 2}, {"mbyte", SPACE, 2}, {"mbytes", SPACE, 2},
    {"megabyte", SPACE, 2}, {"megabytes", SPACE, 2},
    {"mebibyte", SPACE, 2}, {"mebibytes", SPACE, 2},
    {"gb", SPACE, 3}, {"gib", SPACE, 3}, {"gbyte", SPACE, 3}, {"gbytes", SPACE, 3},
    {"gigabyte", SPACE, 3}, {"gigabytes", SPACE, 3},
    {"gibibyte", SPACE, 3}, {"gibibytes", SPACE, 3},
    {"tb", SPACE, 4}, {"tib", SPACE, 4}, {"tbyte", SPACE, 4}, {"tbytes", SPACE, 4},
    {"terabyte", SPACE, 4}, {"terabytes", SPACE, 4},
    {"tebibyte", SPACE, 4}, {"tebibytes", SPACE, 4},
    {"pb", SPACE, 5}, {"pib", SPACE, 5}, {"pbyte", SPACE, 5}, {"pbytes", SPACE, 5},
    {"petabyte", SPACE, 5}, {"petabytes", SPACE, 5},
    {"pebibyte", SPACE, 5}, {"pebibytes", SPACE, 5},
    {"eb", SPACE, 6}, {"eib", SPACE, 6}, {"ebyte", SPACE, 6}, {"ebytes", SPACE, 6},
    {"exabyte", SPACE, 6}, {"exabytes", SPACE, 6},
    {"exbibyte", SPACE, 6}, {"exbibytes", SPACE, 6},
    {"zb", SPACE, 7}, {"zib", SPACE, 7}, {"zbyte", SPACE, 7}, {"zbytes", SPACE, 7},
    {"zettabyte", SPACE, 7}, {"zettabytes", SPACE, 7},
    {"zebibyte", SPACE, 7}, {"zebibytes", SPACE, 7},
    {"yb", SPACE, 8}, {"yib", SPACE, 8}, {"ybyte", SPACE, 8}, {"ybytes", SPACE, 8},
    {"yottabyte", SPACE, 8}, {"yottabytes", SPACE, 8},
    {"yobibyte", SPACE, 8}, {"yobibytes", SPACE, 8},
    /* time */
    {"ns", TIME, 0}, {"nanosec", TIME, 0}, {"nanosecond", TIME, 0}, {"nanoseconds", TIME, 0},
    {"us", TIME, 1}, {"microsec", TIME, 1}, {"microsecond", TIME, 1}, {"microseconds", TIME, 1},
    {"ms", TIME, 2}, {"millisec", TIME, 2}, {"millisecond", TIME, 2}, {"milliseconds", TIME, 2},
    {"s", TIME, 3}, {"sec", TIME, 3}, {"second", TIME, 3}, {"seconds", TIME, 3},
    {"min", TIME, 4}, {"minute", TIME, 4}, {"minutes", TIME, 4},
    {"h", TIME, 5}, {"hr", TIME, 5}, {"hour", TIME, 5}, {"hours", TIME, 5},
    /* counts */
    {"count", COUNT, 0}, {"counts", COUNT, 0}, {"count x 10", COUNT, 1},
    {"count x 10^-8", COUNT, -8}, {"count x 10^-7", COUNT, -7}, {"count x 10^-6", COUNT, -6},
    {"count x 10^-5", COUNT, -5}, {"count x 10^-4", COUNT, -4}, {"count x 10^-3", COUNT, -3},
    {"count x 10^-2", COUNT, -2}, {"count x 10^-1", COUNT, -1}, {"count x 10^2", COUNT, 2},
    {"count x 10^3", COUNT, 3}, {"count x 10^4", COUNT, 4}, {"count x 10^5", COUNT, 5},
    {"count x 10^6", COUNT, 6}, {"count x 10^7", COUNT, 7},
};
/* clang-format on */

/* One side of the '/'. */
typedef struct {
    int power[NDIMS]; /* dimension powers; 0 = not given (or given ^0) */
    int scale[NDIMS]; /* scale of each dimension given */
    double product;   /* the numbers, multiplied left to right */
} half;

/* Returns PM_ERR_CONV with a malloc'd copy of WHY in *errmsg (if any). */
static int fail(const char *why, char **errmsg)
{
    if (errmsg != NULL)
        *errmsg = strdup(why);
    return PM_ERR_CONV;
}

/* Does a unit end at p: the end of the string, a blank or a '/'? */
static int at_boundary(const char *p)
{
    return *p == '\0' || *p == '/' || isspace((unsigned char)*p);
}

/*
 * exponent = "0" | [ "-" ] digit19 { digit }, from EXP_MIN to EXP_MAX: the
 * text at p (just after a '^') into *value; returns the end, or NULL.
 * Only the canonical spelling counts ("^007", "^-0" and "^+1" do not).
 */
static const char *parse_exponent(const char *p, int *value)
{
    int sign = 1, n = 0, digits = 0;

    if (*p == '-') {
        sign = -1;
        p++;
    }
    if (*p == '0' && (sign < 0 || isdigit((unsigned char)p[1])))
        return NULL;
    /* two digits are enough for the range; stop before n can overflow */
    for (; isdigit((unsigned char)*p) && digits < 3; p++, digits++)
        n = n * 10 + (*p - '0');
    if (digits == 0 || isdigit((unsigned char)*p))
        return NULL;
    n *= sign;
    if (n < EXP_MIN || n > EXP_MAX)
        return NULL;
    *value = n;
    return p;
}

/*
 * The tail of a keyword at p: [ "^" exponent ] then a boundary.  Stores
 * the power (1 without "^") and returns the end, or NULL.
 */
static const char *parse_power(const char *p, int *power)
{
    *power = 1;
    if (*p == '^' && (p = parse_exponent(p + 1, power)) == NULL)
        return NULL;
    return at_boundary(p) ? p : NULL;
}

/*
 * unit = keyword [ "^" exponent ] boundary, at p: the longest keyword that
 * matches with a valid tail is added to h.  Returns the end, or NULL when
 * nothing matches or its dimension is already in h.
 */
static const char *parse_unit(const char *p, half *h)
{
    const keyword *best = NULL;
    const char *end = NULL;
    size_t best_len = 0;
    int best_power = 0;

    for (size_t i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++) {
        size_t len = strlen(keywords[i].word);
        const char *tail;
        int power;

        if (len <= best_len || strncasecmp(p, keywords[i].word, len) != 0)
            continue;
        if ((tail = parse_power(p + len, &power)) == NULL)
            continue;
        best = &keywords[i];
        best_len = len;
        best_power = power;
        end = tail;
    }
    if (best == NULL || h->power[best->dim] != 0)
        return NULL;
    h->power[best->dim] = best_power;
    h->scale[best->dim] = best->scale;
    return end;
}

/*
 * number = what strtod reads at p (a digit, '-' or '.' there): multiplied
 * into h.  Returns the end, or NULL when strtod reads nothing or the value
 * is out of range (ERANGE: overflow, or an inexact underflow).  errno is
 * left as strtod leaves it, after clearing it first, as PCP does.
 */
static const char *parse_number(const char *p, half *h)
{
    char *end;
    double value;

    errno = 0;
    value = strtod(p, &end);
    if (end == p || errno == ERANGE)
        return NULL;
    h->product *= value;
    return end;
}

/*
 * half = { blank | number | unit }, from *pp to the end of the string or,
 * for the numerator (STOP_AT_SLASH), to its first '/' (left at *pp).
 * Returns 0, or PM_ERR_CONV with the message.
 */
static int parse_half(const char **pp, int stop_at_slash, half *h, char **errmsg)
{
    const char *p = *pp;

    memset(h, 0, sizeof(*h));
    h->product = 1.0;
    for (;;) {
        const char *next;

        while (isspace((unsigned char)*p))
            p++;
        if (*p == '\0' || (stop_at_slash && *p == '/'))
            break;
        if (isdigit((unsigned char)*p) || *p == '-' || *p == '.') {
            if ((next = parse_number(p, h)) == NULL)
                return fail(msg_number, errmsg);
        } else if ((next = parse_unit(p, h)) == NULL) {
            return fail(msg_unknown, errmsg);
        }
        p = next;
    }
    *pp = p;
    return 0;
}

/* Size of scale in base units of dimension dim (bytes, seconds, counts). */
static double scale_size(int dim, int scale)
{
    static const double seconds[] = {1e-9, 1e-6, 1e-3, 1.0, 60.0, 3600.0};

    if (dim == SPACE)
        return pow(1024.0, scale);
    if (dim == TIME)
        return seconds[scale];
    return pow(10.0, scale);
}

/*
 * The scale of dimension dim in num / den: when both halves have it, the
 * base scale, both moved there by rescaling *mult; otherwise the scale of
 * the half that has it; 0 when the dimension cancels out.
 */
static int combine_scale(int dim, const half *num, const half *den, double *mult)
{
    static const int base[NDIMS] = {PM_SPACE_BYTE, PM_TIME_SEC, 0};
    int pn = num->power[dim], pd = den->power[dim];

    if (pn != 0 && pd != 0) {
        *mult *= pow(scale_size(dim, num->scale[dim]), -pn);
        *mult *= pow(scale_size(dim, den->scale[dim]), pd);
    }
    if (pn == pd)
        return 0;
    if (pn != 0 && pd != 0)
        return base[dim];
    return pn != 0 ? num->scale[dim] : den->scale[dim];
}

int pmParseUnitsStr(const char *str, pmUnits *out, double *outMult, char **errMsg)
{
    /* space, then count, then time: the order PCP's multiplier follows */
    static const int mult_order[NDIMS] = {SPACE, COUNT, TIME};
    int power[NDIMS], scale[NDIMS], sts;
    half num, den;
    double mult;

    if (out != NULL)
        memset(out, 0, sizeof(*out));
    if (outMult != NULL)
        *outMult = 1.0;
    if (str == NULL || out == NULL || outMult == NULL) {
        if (errMsg != NULL)
            *errMsg = strdup("NULL string, pmUnits or multiplier");
        return -EINVAL;
    }
    if ((sts = parse_half(&str, 1, &num, errMsg)) < 0)
        return sts;
    if (*str == '/')
        str++;
    if ((sts = parse_half(&str, 0, &den, errMsg)) < 0)
        return sts;

    /* bounds first: PCP computes nothing more (no pow() to set errno) */
    for (int d = 0; d < NDIMS; d++) {
        power[d] = num.power[d] - den.power[d];
        if (power[d] < DIM_MIN || power[d] > DIM_MAX)
            return fail(msg_bounds[d], errMsg);
    }
    mult = den.product / num.product;
    for (int i = 0; i < NDIMS; i++)
        scale[mult_order[i]] = combine_scale(mult_order[i], &num, &den, &mult);
    out->dimSpace = power[SPACE];
    out->dimTime = power[TIME];
    out->dimCount = power[COUNT];
    out->scaleSpace = (unsigned)scale[SPACE];
    out->scaleTime = (unsigned)scale[TIME];
    out->scaleCount = scale[COUNT];
    *outMult = mult;
    return 0;
}
