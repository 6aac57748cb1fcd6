/*
 * printvalue.c - pmPrintValue (one value, as pminfo and pmval show it) and
 * pmPrintDesc (a descriptor's two summary lines).
 *
 * Numbers print with a minimum width; floats with 8 and doubles with 16
 * significant digits.  Values whose type is unknown, aggregates and values
 * that cannot be extracted as their claimed type are dumped every way that
 * makes sense for their size (unsigned integer, float or double when not a
 * NaN, quoted text when printable) and always as hex bytes.
 */
#include "values.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <string.h>

/* Write n spaces. */
static void pad(FILE *f, int n)
{
    while (n-- > 0)
        fputc(' ', f);
}

/* A 32-bit in-situ value of unknown meaning: integer, float, hex. */
static void dump_insitu(FILE *f, const pmValue *val, int minwidth)
{
    uint32_t bits = (uint32_t)val->value.lval;
    float fl;

    memcpy(&fl, &bits, sizeof(fl));
    fprintf(f, "%*u", minwidth, bits);
    if (!isnan(fl))
        fprintf(f, " %*.8g", minwidth, (double)fl);
    if (minwidth > 2)
        minwidth -= 2;
    fprintf(f, " 0x%*x", minwidth, bits);
}

static int all_printable(const unsigned char *p, int len)
{
    for (int i = 0; i < len; i++) {
        if (!isprint(p[i]))
            return 0;
    }
    return 1;
}

/* A value block of unknown meaning. */
static void dump_block(FILE *f, const pmValueBlock *vb, int minwidth)
{
    int len = (int)vb->vlen - PM_VAL_HDR_SIZE;
    const unsigned char *p = (const unsigned char *)vb->vbuf;
    int done = 0;

    if (len == 8) {
        uint64_t u;
        double d;
        memcpy(&u, p, 8);
        memcpy(&d, p, 8);
        fprintf(f, "%*" PRIu64, minwidth, u);
        if (!isnan(d))
            fprintf(f, " %*.16g", minwidth, d);
        done = 1;
    } else if (len == 4) {
        float fl;
        memcpy(&fl, p, 4);
        if (!isnan(fl)) {
            fprintf(f, "%*.8g", minwidth, (double)fl);
            done = 1;
        }
    }
    if (len < 0)
        len = 0;
    if (all_printable(p, len)) {
        if (done)
            fputc(' ', f);
        pad(f, minwidth - (len + 2));
        fprintf(f, "\"%.*s\"", len, (const char *)p);
        done = 1;
    }
    if (done)
        fputc(' ', f);
    pad(f, minwidth - (2 * len + 2));
    fputc('[', f);
    for (int i = 0; i < len; i++)
        fprintf(f, "%02x", p[i]);
    fputc(']', f);
}

static void dump_raw(FILE *f, int valfmt, const pmValue *val, int minwidth)
{
    if (valfmt == PM_VAL_INSITU)
        dump_insitu(f, val, minwidth);
    else if ((valfmt == PM_VAL_DPTR || valfmt == PM_VAL_SPTR) && val->value.pval != NULL)
        dump_block(f, val->value.pval, minwidth);
    else
        fprintf(f, "pmPrintValue: bad valfmt (%d)?\n", valfmt);
}

/* An in-situ "event" value: PCP shows it as a pmlogger control word (state
 * bits on/off and mandatory/advisory, a two-bit logging state, and the
 * interval in the remaining bits). */
static void print_control(FILE *f, uint32_t w)
{
    const char *logging = (w & 8) == 0 ? "nl" : (w & 4) == 0 ? "na" : "";

    fprintf(f, "[pmlc control %s %s %s %u]", (w & 2) ? "mand" : "adv", (w & 1) ? "on" : "off",
            logging, w >> 4);
}

/* HH:MM:SS.fraction in the reporting zone (pmNewZone's), as PCP stamps
 * event records. */
static void print_stamp(FILE *f, int64_t sec, int64_t frac, int highres)
{
    time_t t = (time_t)sec;
    struct tm tm;

    if (pmLocaltime(&t, &tm) == NULL)
        memset(&tm, 0, sizeof(tm));
    fprintf(f, "%02d:%02d:%02d", tm.tm_hour, tm.tm_min, tm.tm_sec);
    if (highres)
        fprintf(f, ".%09d", (int)frac);
    else
        fprintf(f, ".%03d", (int)(frac / 1000));
}

/* Read the time stamp of the record at *off and step *off past the record
 * and its parameters, adding to *missed the records a "missed" record
 * stands for; 0, or -1 when the record does not fit in the block. */
static int event_record(const pmValueBlock *vb, int highres, size_t *off, int64_t *sec,
                        int64_t *frac, int64_t *missed)
{
    const unsigned char *base = (const unsigned char *)vb;
    size_t end = vb->vlen, stamp = highres ? 16 : 8;
    uint32_t flags;
    int32_t nparams, s32, f32;

    if (*off + stamp + 8 > end)
        return -1;
    if (highres) {
        memcpy(sec, base + *off, 8);
        memcpy(frac, base + *off + 8, 8);
    } else {
        memcpy(&s32, base + *off, 4);
        memcpy(&f32, base + *off + 4, 4);
        *sec = s32, *frac = f32;
    }
    memcpy(&flags, base + *off + stamp, 4);
    memcpy(&nparams, base + *off + stamp + 4, 4);
    *off += stamp + 8;
    if (flags & PM_EVENT_FLAG_MISSED) {
        *missed += nparams; /* nparams counts missed records; no parameters follow */
        return 0;
    }
    for (int32_t p = 0; p < nparams; p++) {
        uint32_t lenword;
        if (*off + 8 > end)
            return -1;
        memcpy(&lenword, base + *off + 4, 4);
        *off += 4 + (((lenword & 0xffffff) + 3) & ~(size_t)3);
    }
    return *off <= end ? 0 : -1;
}

/* "[N event records (M missed) timestamps first...last]" for an event
 * array, M the sum of its "missed" records' counts, last the last
 * record's time (docs/compat.md: PCP's sum and last time go wrong after
 * a "missed" record). */
static void print_events(FILE *f, const pmValueBlock *vb, int highres)
{
    int32_t n;
    size_t off = 8;
    int64_t sec0 = 0, frac0 = 0, sec = 0, frac = 0, missed = 0;
    int ok;

    memcpy(&n, (const unsigned char *)vb + 4, 4);
    ok = n > 0 && event_record(vb, highres, &off, &sec0, &frac0, &missed) == 0;
    sec = sec0, frac = frac0;
    for (int32_t i = 1; ok && i < n; i++)
        ok = event_record(vb, highres, &off, &sec, &frac, &missed) == 0;
    if (!ok) { /* no records, or ones that overrun the block: the count only */
        fprintf(f, "[%d event records]", (int)n);
        return;
    }
    fprintf(f, n == 1 ? "[%d event record" : "[%d event records", (int)n);
    if (missed > 0)
        fprintf(f, " (%" PRId64 " missed)", missed);
    fprintf(f, n == 1 ? " timestamp " : " timestamps ");
    print_stamp(f, sec0, frac0, highres);
    if (n > 1) {
        fputs("...", f);
        print_stamp(f, sec, frac, highres);
    }
    fputc(']', f);
}

/*
 * The common values are formatted here, without printf (whose parsing of
 * the format and, for doubles, multi-precision digit loop cost more than
 * the rest of pmPrintValue): text identical to what fprintf gives for the
 * same format, or 0 to let fprintf do it (a negative width, a double
 * outside the range this converts exactly, another rounding mode).
 */

/* text[0..len) right-aligned in minwidth columns, written at once. */
static void put_padded(FILE *f, const char *text, int len, int minwidth)
{
    char out[96];
    int padn = minwidth > len ? minwidth - len : 0;

    if (padn + len <= (int)sizeof(out)) {
        memset(out, ' ', (size_t)padn);
        memcpy(out + padn, text, (size_t)len);
        fwrite(out, 1, (size_t)(padn + len), f);
        return;
    }
    pad(f, padn);
    fwrite(text, 1, (size_t)len, f);
}

/* "%*" PRIu64 / PRId64 ("%*d", "%*u" for the 32-bit types) */
static int put_integer(FILE *f, uint64_t mag, int negative, int minwidth)
{
    char buf[24], *end = buf + sizeof(buf), *p;

    if (minwidth < 0)
        return 0;
    p = pmkit_u64_digits(end, mag);
    if (negative)
        *--p = '-';
    put_padded(f, p, (int)(end - p), minwidth);
    return 1;
}

/* "%*.16g" */
static int put_double16(FILE *f, double d, int minwidth)
{
    enum { P = 16 };
    char buf[48], digits[P], *o = buf;
    uint64_t n;
    int k, x, last;

    if (minwidth < 0 || pmkit_sig_digits(d, P, &n, &k) < 0)
        return 0;
    if (signbit(d))
        *o++ = '-';
    if (n == 0) {
        *o++ = '0';
        put_padded(f, buf, (int)(o - buf), minwidth);
        return 1;
    }
    pmkit_u64_digits(digits + P, n);
    for (last = P - 1; last > 0 && digits[last] == '0'; last--)
        ;
    x = k;
    if (x < -4 || x >= P) {
        *o++ = digits[0];
        if (last > 0) {
            *o++ = '.';
            memcpy(o, digits + 1, (size_t)last);
            o += last;
        }
        o = pmkit_exp10_text(o, x);
    } else if (x >= 0) {
        memcpy(o, digits, (size_t)x + 1);
        o += x + 1;
        if (last > x) {
            *o++ = '.';
            memcpy(o, digits + x + 1, (size_t)(last - x));
            o += last - x;
        }
    } else {
        *o++ = '0';
        *o++ = '.';
        for (int i = x + 1; i < 0; i++)
            *o++ = '0';
        memcpy(o, digits, (size_t)last + 1);
        o += last + 1;
    }
    put_padded(f, buf, (int)(o - buf), minwidth);
    return 1;
}

/* "\"%s\"" after minwidth - (len + 2) blanks, for a string value read in
 * place (what pmExtractValue would copy: the block's bytes to the first
 * NUL); 0 if the value is not a string block pmExtractValue accepts. */
static int put_string(FILE *f, int valfmt, const pmValue *val, int minwidth)
{
    const pmValueBlock *vb;
    size_t len;

    if ((valfmt != PM_VAL_DPTR && valfmt != PM_VAL_SPTR) || (vb = val->value.pval) == NULL ||
        (vb->vtype != PM_TYPE_STRING && vb->vtype != 0) || vb->vlen < PM_VAL_HDR_SIZE)
        return 0;
    len = strnlen(vb->vbuf, vb->vlen - PM_VAL_HDR_SIZE);
    if (len <= INT_MAX - 2)
        pad(f, minwidth - ((int)len + 2));
    fputc('"', f);
    fwrite(vb->vbuf, 1, len, f);
    fputc('"', f);
    return 1;
}

void pmPrintValue(FILE *f, int valfmt, int type, const pmValue *val, int minwidth)
{
    pmAtomValue a;

    if (type == PM_TYPE_STRING && put_string(f, valfmt, val, minwidth))
        return;
    /* Every type but these is extracted first; what cannot be extracted
     * (including unknown and unsupported types) is dumped raw, as an
     * aggregate always is. */
    if (type != PM_TYPE_UNKNOWN && type != PM_TYPE_AGGREGATE && type != PM_TYPE_EVENT &&
        type != PM_TYPE_HIGHRES_EVENT) {
        if (pmExtractValue(valfmt, val, type, &a, type) < 0)
            type = PM_TYPE_UNKNOWN;
    }
    switch (type) {
    case PM_TYPE_32:
        if (!put_integer(f, a.l < 0 ? 0u - (uint64_t)(int64_t)a.l : (uint64_t)a.l, a.l < 0,
                         minwidth))
            fprintf(f, "%*d", minwidth, (int)a.l);
        break;
    case PM_TYPE_U32:
        if (!put_integer(f, a.ul, 0, minwidth))
            fprintf(f, "%*u", minwidth, (unsigned)a.ul);
        break;
    case PM_TYPE_64:
        if (!put_integer(f, a.ll < 0 ? 0u - (uint64_t)a.ll : (uint64_t)a.ll, a.ll < 0, minwidth))
            fprintf(f, "%*" PRId64, minwidth, a.ll);
        break;
    case PM_TYPE_U64:
        if (!put_integer(f, a.ull, 0, minwidth))
            fprintf(f, "%*" PRIu64, minwidth, a.ull);
        break;
    case PM_TYPE_FLOAT:
        fprintf(f, "%*.8g", minwidth, (double)a.f);
        break;
    case PM_TYPE_DOUBLE:
        if (!put_double16(f, a.d, minwidth))
            fprintf(f, "%*.16g", minwidth, a.d);
        break;
    case PM_TYPE_STRING:
        pad(f, minwidth - ((int)strlen(a.cp) + 2));
        fprintf(f, "\"%s\"", a.cp);
        free(a.cp);
        break;
    case PM_TYPE_AGGREGATE: /* printed raw whether or not it could be extracted */
    case PM_TYPE_UNKNOWN:
        dump_raw(f, valfmt, val, minwidth);
        break;
    case PM_TYPE_EVENT:
    case PM_TYPE_HIGHRES_EVENT:
        if (valfmt == PM_VAL_INSITU)
            print_control(f, (uint32_t)val->value.lval);
        else if ((valfmt == PM_VAL_DPTR || valfmt == PM_VAL_SPTR) && val->value.pval != NULL)
            print_events(f, val->value.pval, type == PM_TYPE_HIGHRES_EVENT);
        else
            fprintf(f, "pmPrintValue: bad valfmt (%d)?\n", valfmt);
        break;
    default: /* not reached: unextractable types were dumped above */
        break;
    }
}

/* The long type words pmPrintDesc uses, indexed by PM_TYPE_*. */
static const char *const type_words[] = {
    "32-bit int",
    "32-bit unsigned int",
    "64-bit int",
    "64-bit unsigned int",
    "float",
    "double",
    "string",
    "aggregate",
    "static aggregate",
    "event record array",
    "highres event record array",
};

void pmPrintDesc(FILE *f, const pmDesc *desc)
{
    char units[80];
    const char *u;

    if (desc->type == PM_TYPE_NOSUPPORT) {
        fprintf(f, "    Data Type: Not Supported\n");
        return;
    }
    fprintf(f, "    Data Type: ");
    if (desc->type >= 0 && desc->type < (int)(sizeof(type_words) / sizeof(type_words[0])))
        fprintf(f, "%s", type_words[desc->type]);
    else
        fprintf(f, "??? (%d)", desc->type);
    fprintf(f, "  InDom: %s 0x%x\n", pmInDomStr_r(desc->indom, units, (int)sizeof(units)),
            desc->indom);
    fprintf(f, "    Semantics: ");
    if (desc->sem == PM_SEM_COUNTER || desc->sem == PM_SEM_INSTANT || desc->sem == PM_SEM_DISCRETE)
        fprintf(f, "%s", pmSemStr_r(desc->sem, units, (int)sizeof(units)));
    else
        fprintf(f, "??? (%d)", desc->sem);
    u = pmUnitsStr_r(&desc->units, units, (int)sizeof(units));
    fprintf(f, "  Units: %s\n", u == NULL || u[0] == '\0' ? "none" : u);
}

/* The name pmPrintDesc had before it became public. */
PMKIT_ALIAS(__pmPrintDesc, pmPrintDesc);
