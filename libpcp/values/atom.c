/*
 * atom.c - text forms of single values: pmAtomStr (a pmAtomValue of a given
 * type), pmNumberStr (a double in seven columns with a K/M/G/T suffix) and
 * pmEventFlagsStr (event record flag bits).
 *
 * Strings longer than 37 characters are shown as their first 34 followed by
 * "..."; aggregates as a header and at most 12 payload bytes in hex.
 */
#include "values.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* "[type=T len=N] b0b1b2b3 ..." for an aggregate-style value block. */
static void aggregate_str(const pmValueBlock *vb, char *out, size_t cap)
{
    int len = (int)vb->vlen - PM_VAL_HDR_SIZE;
    const unsigned char *p = (const unsigned char *)vb->vbuf;
    size_t used;

    used = (size_t)pmsprintf(out, cap, "[type=%s len=%d]", pmkit_type_name((int)vb->vtype), len);
    for (int i = 0; i < len && i < 12; i++) {
        used += (size_t)pmsprintf(out + used, cap - used, "%s%02x", i % 4 == 0 ? " " : "", p[i]);
    }
    if (len > 12)
        pmsprintf(out + used, cap - used, " ...");
}

/* Decimal digits of v (and a '-' if neg) into text; no printf, since the
 * tools format a value per line. */
static void put_u64(char *text, uint64_t v, int neg)
{
    char digits[20], *end = digits + sizeof(digits), *p = pmkit_u64_digits(end, v);

    if (neg)
        *text++ = '-';
    memcpy(text, p, (size_t)(end - p));
    text[end - p] = '\0';
}

static void put_i64(char *text, int64_t v)
{
    put_u64(text, v < 0 ? 0 - (uint64_t)v : (uint64_t)v, v < 0);
}

/* "\"s\"", or its first 34 bytes and "..." if it is 38 or longer. */
static void put_quoted(char *text, const char *s)
{
    size_t n = strnlen(s, 38);

    text[0] = '"';
    if (n < 38) {
        memcpy(text + 1, s, n);
        memcpy(text + 1 + n, "\"", 2);
    } else {
        memcpy(text + 1, s, 34);
        memcpy(text + 35, "...\"", 5);
    }
}

/* printf's "%e" of d into text, without printf: its first seven digits
 * from pmkit_sig_digits; 0 where that leaves them to printf. */
static int put_e(char *text, double d)
{
    enum { P = 7 };
    char digits[P];
    uint64_t n;
    int k;

    if (pmkit_sig_digits(d, P, &n, &k) < 0)
        return 0;
    if (signbit(d))
        *text++ = '-';
    memset(digits, '0', sizeof(digits));
    pmkit_u64_digits(digits + P, n);
    *text++ = digits[0];
    *text++ = '.';
    memcpy(text, digits + 1, P - 1);
    text = pmkit_exp10_text(text + P - 1, k);
    *text = '\0';
    return 1;
}

char *pmAtomStr_r(const pmAtomValue *av, int type, char *buf, int buflen)
{
    char text[128];

    switch (type) {
    case PM_TYPE_32:
        put_i64(text, av->l);
        break;
    case PM_TYPE_U32:
        put_u64(text, av->ul, 0);
        break;
    case PM_TYPE_64:
        put_i64(text, av->ll);
        break;
    case PM_TYPE_U64:
        put_u64(text, av->ull, 0);
        break;
    case PM_TYPE_FLOAT:
    case PM_TYPE_DOUBLE:
        /* as PCP, the text cut to buflen - 1 bytes */
        if (put_e(text, type == PM_TYPE_FLOAT ? (double)av->f : av->d))
            break;
        if (buf != NULL && buflen > 0)
            snprintf(buf, (size_t)buflen, "%e", type == PM_TYPE_FLOAT ? (double)av->f : av->d);
        return buf;
    case PM_TYPE_STRING:
        if (av->cp == NULL)
            memcpy(text, "<null>", 7);
        else
            put_quoted(text, av->cp);
        break;
    case PM_TYPE_AGGREGATE:
    case PM_TYPE_AGGREGATE_STATIC:
        if (av->vbp == NULL)
            pmsprintf(text, sizeof(text), "<null>");
        else
            aggregate_str(av->vbp, text, sizeof(text));
        break;
    case PM_TYPE_EVENT:
    case PM_TYPE_HIGHRES_EVENT: {
        int nrecords = 0;
        if (av->vbp != NULL) /* ea_nrecords follows the value block header */
            memcpy(&nrecords, (const char *)av->vbp + PM_VAL_HDR_SIZE, sizeof(nrecords));
        pmsprintf(text, sizeof(text), nrecords == 1 ? "[%d event record]" : "[%d event records]",
                  nrecords);
        break;
    }
    case PM_TYPE_NOSUPPORT:
        pmsprintf(text, sizeof(text), "Error: unexpected type: Not Supported");
        break;
    case PM_TYPE_UNKNOWN:
        pmsprintf(text, sizeof(text), "Error: unexpected type: Unknown");
        break;
    default:
        pmsprintf(text, sizeof(text), "Error: unexpected type: Illegal type=%d", type);
        break;
    }
    return pmkit_copy(buf, buflen, text);
}

const char *pmAtomStr(const pmAtomValue *av, int type)
{
    static _Thread_local char buf[80];

    return pmAtomStr_r(av, type, buf, (int)sizeof(buf));
}

/* Thresholds for pmNumberStr: scale to the suffix where the value would
 * round to 1000 or more in "%6.2f" at the next smaller scale. */
/*
 * printf's "%6.2f" followed by suffix, for a finite x of magnitude below
 * 10^15, without printf.  printf rounds the exact value of x to the
 * nearest hundredth, a tie to the even one: x * 100 rounded to a double
 * can only land on a tie (k + 0.5) when the exact product is near it, and
 * then the product's error (fma) says which side it is on.
 */
static void cents_str(double x, char suffix, char text[32])
{
    double p = x * 100.0, r = rint(p), low = floor(p);
    char digits[24];
    unsigned long long q;
    size_t n = 0, at = 0, width;
    int neg = signbit(x) != 0;

    if (p - low == 0.5) { /* a tie after rounding: was the exact product one? */
        double e = fma(x, 100.0, -p);
        if (e != 0)
            r = e > 0 ? low + 1 : low;
    }
    q = (unsigned long long)(r < 0 ? -r : r);
    do { /* digits backwards, at least "0.00" */
        digits[n++] = (char)('0' + q % 10);
        q /= 10;
        if (n == 2)
            digits[n++] = '.';
    } while (q != 0 || n < 4);
    width = n + (size_t)neg;
    for (; width + at < 6; at++)
        text[at] = ' ';
    if (neg)
        text[at++] = '-';
    while (n > 0)
        text[at++] = digits[--n];
    text[at++] = suffix;
    text[at] = '\0';
}

char *pmNumberStr_r(double value, char *buf, int buflen)
{
    static const struct {
        double pos, neg, div;
        char suffix;
    } steps[] = {
        {999995e9, -99995e9, 0, '?'}, /* too big: "inf?" */
        {999995e6, -99995e6, 1e12, 'T'}, {999995e3, -99995e3, 1e9, 'G'},
        {999995.0, -99995.0, 1e6, 'M'},  {999.995, -99.995, 1e3, 'K'},
        {0.005, -0.005, 1, ' '},
    };
    char text[32];

    pmkit_copy(text, (int)sizeof(text), "  0.00 ");
    for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
        int hit = value >= 0 ? value >= steps[i].pos : value <= steps[i].neg;
        if (!hit)
            continue;
        if (steps[i].suffix == '?')
            pmkit_copy(text, (int)sizeof(text), value >= 0 ? " inf?  " : "-inf?  ");
        else
            cents_str(value / steps[i].div, steps[i].suffix, text);
        break;
    }
    return pmkit_copy(buf, buflen, text);
}

const char *pmNumberStr(double value)
{
    static _Thread_local char buf[8];

    return pmNumberStr_r(value, buf, (int)sizeof(buf));
}

char *pmEventFlagsStr_r(int flags, char *buf, int buflen)
{
    static const char *const names[] = {"point", "start", "end", "id", "parent"};
    char text[64];
    size_t used = 0;

    /* like PCP, refuse a buffer that could not hold every name */
    if (buflen < (int)sizeof("point,start,end,id,parent"))
        return NULL;
    text[0] = '\0';
    if ((unsigned)flags & PM_EVENT_FLAG_MISSED)
        return pmkit_copy(buf, buflen, "missed");
    for (int i = 0; i < (int)(sizeof(names) / sizeof(names[0])); i++) {
        if (flags & (1 << i))
            used += (size_t)pmsprintf(text + used, sizeof(text) - used, "%s%s", used ? "," : "",
                                      names[i]);
    }
    return pmkit_copy(buf, buflen, text);
}

const char *pmEventFlagsStr(int flags)
{
    static _Thread_local char buf[64];

    return pmEventFlagsStr_r(flags, buf, (int)sizeof(buf));
}
