/*
 * units.c - pmUnits as text (pmUnitsStr) and value rescaling between two
 * compatible pmUnits (pmConvScale).
 *
 * Text: dimensions with a positive power first (space, time, count), then
 * "/ " and the negative ones, each "word" or "word^n"; with no dimensions at
 * all only a count scale is shown ("x 10^n").
 *
 * Scaling: a unit with no dimensions counts as dimension count=1 (keeping
 * its scale).  Dimensions must match.  Each dimension contributes its scale
 * ratio raised to |power| to an integer multiplier or divisor; integer
 * types are then rescaled as (v * mult + div / 2) / div with C's truncating
 * division, floating types by multiplying with mult / div.  Space scales
 * stop at EBYTE and time scales at HOUR (PM_ERR_UNIT beyond), as in PCP.
 */
#include "values.h"

#include <stdbool.h>
#include <string.h>

_Static_assert(sizeof(pmUnits) == sizeof(uint32_t), "pmUnits is one 32-bit word");

static const char *const space_words[] = {
    "byte", "Kbyte", "Mbyte", "Gbyte", "Tbyte", "Pbyte", "Ebyte", "Zbyte", "Ybyte",
};
static const char *const time_words[] = {
    "nanosec", "microsec", "millisec", "sec", "min", "hour",
};

/* Text built by appending (no printf: pmUnitsStr is called per value by
 * the reporting tools).  Callers' buffers hold any units' text: at most
 * 3 words of 14 bytes with "^8 ", and "/ ". */
static size_t put_str(char *out, size_t used, const char *s)
{
    size_t n = strlen(s);

    memcpy(out + used, s, n);
    return used + n;
}

static size_t put_int(char *out, size_t used, int v)
{
    char digits[12];
    unsigned m = v < 0 ? 0u - (unsigned)v : (unsigned)v;
    int k = 0;

    do
        digits[k++] = (char)('0' + m % 10);
    while ((m /= 10) != 0);
    if (v < 0)
        out[used++] = '-';
    while (k > 0)
        out[used++] = digits[--k];
    return used;
}

/* Append the word for one dimension. */
static size_t put_word(char *out, size_t used, int which, const pmUnits *u)
{
    if (which == 0) {
        if (u->scaleSpace < sizeof(space_words) / sizeof(space_words[0]))
            return put_str(out, used, space_words[u->scaleSpace]);
        return put_int(out, put_str(out, used, "space-"), (int)u->scaleSpace);
    }
    if (which == 1) {
        if (u->scaleTime < sizeof(time_words) / sizeof(time_words[0]))
            return put_str(out, used, time_words[u->scaleTime]);
        return put_int(out, put_str(out, used, "time-"), (int)u->scaleTime);
    }
    used = put_str(out, used, "count");
    if (u->scaleCount == 1)
        return put_str(out, used, " x 10");
    if (u->scaleCount != 0)
        return put_int(out, put_str(out, used, " x 10^"), (int)u->scaleCount);
    return used;
}

/* Append "word " or "word^p " for every dimension whose power has the wanted
 * sign; returns the new length of out. */
static size_t append_dims(char *out, size_t used, const pmUnits *u, int sign)
{
    int dims[3] = {u->dimSpace, u->dimTime, u->dimCount};

    for (int i = 0; i < 3; i++) {
        int power = dims[i] * sign;

        if (power <= 0)
            continue;
        used = put_word(out, used, i, u);
        if (power != 1)
            used = put_int(out, put_str(out, used, "^"), power);
        out[used++] = ' ';
    }
    return used;
}

char *pmUnitsStr_r(const pmUnits *u, char *buf, int buflen)
{
    char text[160];
    size_t used;

    if (buflen < 60)
        return NULL;
    used = append_dims(text, 0, u, 1);
    if (u->dimSpace < 0 || u->dimTime < 0 || u->dimCount < 0)
        used = append_dims(text, put_str(text, used, "/ "), u, -1);
    if (used > 0)
        text[used - 1] = '\0'; /* the trailing space */
    else if (u->scaleCount == 1)
        memcpy(text, "x 10", 5);
    else if (u->scaleCount != 0)
        text[put_int(text, put_str(text, 0, "x 10^"), (int)u->scaleCount)] = '\0';
    else
        text[0] = '\0';
    return pmkit_copy(buf, buflen, text);
}

const char *pmUnitsStr(const pmUnits *u)
{
    static _Thread_local char buf[60];

    return pmUnitsStr_r(u, buf, (int)sizeof(buf));
}

typedef struct {
    int64_t mult; /* multiply the value by this */
    int64_t div;  /* then divide by this */
} ratio;

/* Two's complement multiply-add that wraps instead of overflowing, as the
 * hardware does: huge powers and values wrap exactly as they do in PCP. */
static int64_t wrap_muladd(int64_t a, int64_t b, int64_t c)
{
    return (int64_t)((uint64_t)a * (uint64_t)b + (uint64_t)c);
}

/*
 * Like PCP, every scale is related to a canonical unit (Mbyte for space,
 * the second for time, 10^0 for counts): converting from scale s contributes "into
 * canonical" factors and converting to scale s the inverse ones.  The
 * factors are kept separate (not reduced per dimension) because that is
 * what decides where PCP's 64-bit arithmetic wraps.
 */
typedef struct {
    int64_t up;   /* canonical units per unit of this scale (multiply) */
    int64_t down; /* units of this scale per canonical unit (divide) */
} canon;

static int space_canon(unsigned scale, canon *c)
{
    static const int64_t k = 1024;

    if (scale > PM_SPACE_EBYTE)
        return PM_ERR_UNIT;
    c->up = c->down = 1;
    for (unsigned s = scale; s < PM_SPACE_MBYTE; s++)
        c->down *= k;
    for (unsigned s = PM_SPACE_MBYTE; s < scale; s++)
        c->up *= k;
    return 0;
}

static int time_canon(unsigned scale, canon *c)
{
    static const int64_t per_sec[] = {1000000000, 1000000, 1000, 1, 1, 1};
    static const int64_t in_sec[] = {1, 1, 1, 1, 60, 3600};

    if (scale > PM_TIME_HOUR)
        return PM_ERR_UNIT;
    c->down = per_sec[scale];
    c->up = in_sec[scale];
    return 0;
}

/* A count scale of 10^c is 10^c canonical units (c > 0) or 10^-c units per
 * canonical unit (c < 0). */
static void count_canon(int scale, canon *c)
{
    c->up = c->down = 1;
    for (int k = 0; k < scale; k++)
        c->up *= 10;
    for (int k = 0; k < -scale; k++)
        c->down *= 10;
}

/* Fold one dimension: from-scale factors (fi) and to-scale factors (fo)
 * raised to |power|; a negative power swaps multiplier and divisor. */
static void fold(ratio *r, canon fi, canon fo, int power)
{
    int64_t m = wrap_muladd(fi.up, fo.down, 0);
    int64_t d = wrap_muladd(fi.down, fo.up, 0);

    for (int k = 0; k < (power > 0 ? power : -power); k++) {
        r->mult = wrap_muladd(r->mult, power > 0 ? m : d, 0);
        r->div = wrap_muladd(r->div, power > 0 ? d : m, 0);
    }
}

/* The ratio that turns a value in iu into a value in ou, both of the
 * dimensions d (space, time, count), or an error. */
static int scale_ratio(const pmUnits *iu, const pmUnits *ou, const int d[3], ratio *r)
{
    canon fi, fo;

    r->mult = r->div = 1;
    if (d[0] != 0) {
        if (space_canon(iu->scaleSpace, &fi) < 0 || space_canon(ou->scaleSpace, &fo) < 0)
            return PM_ERR_UNIT;
        fold(r, fi, fo, d[0]);
    }
    if (d[1] != 0) {
        if (time_canon(iu->scaleTime, &fi) < 0 || time_canon(ou->scaleTime, &fo) < 0)
            return PM_ERR_UNIT;
        fold(r, fi, fo, d[1]);
    }
    if (d[2] != 0) {
        count_canon(iu->scaleCount, &fi);
        count_canon(ou->scaleCount, &fo);
        fold(r, fi, fo, d[2]);
    }
    /* PCP divides by zero here and dies of SIGFPE; report the units instead */
    if (r->div == 0 || (r->div == -1 && r->mult == INT64_MIN))
        return PM_ERR_UNIT;
    if (r->div != 1 && r->mult % r->div == 0) {
        r->mult /= r->div;
        r->div = 1;
    }
    return 0;
}

/* The dimensions of u; a dimensionless unit behaves as a count.  Read
 * into plain ints once (the bit-fields cost a shift and mask a read). */
static void dims_of(const pmUnits *u, int d[3])
{
    d[0] = u->dimSpace;
    d[1] = u->dimTime;
    d[2] = u->dimCount;
    if (d[0] == 0 && d[1] == 0 && d[2] == 0)
        d[2] = 1;
}

/* The bits of a pmUnits as one word, and those of its three dimensions
 * (a constant: the layout is the compiler's, so it is not written out):
 * two units whose dimension bits are equal have the same dimensions
 * without the six bit-fields read one by one. */
static inline uint32_t units_word(const pmUnits *u)
{
    uint32_t w;

    memcpy(&w, u, sizeof(w));
    return w;
}

static inline uint32_t dims_mask(void)
{
    pmUnits m;

    memset(&m, 0, sizeof(m));
    m.dimSpace = m.dimTime = m.dimCount = -1;
    return units_word(&m);
}

/* pmConvScale's arithmetic for a ratio of mult / 1. */
static int scale_whole(int type, const pmAtomValue *ival, int64_t mult, pmAtomValue *oval)
{
    switch (type) {
    case PM_TYPE_32:
        oval->l = (int32_t)wrap_muladd(ival->l, mult, 0);
        break;
    case PM_TYPE_U32:
        oval->ul = (uint32_t)wrap_muladd(ival->ul, mult, 0);
        break;
    case PM_TYPE_64:
        oval->ll = wrap_muladd(ival->ll, mult, 0);
        break;
    case PM_TYPE_U64:
        oval->ull = ival->ull * (uint64_t)mult;
        break;
    case PM_TYPE_FLOAT:
        oval->f = ival->f * (float)mult;
        break;
    case PM_TYPE_DOUBLE:
        oval->d = ival->d * (double)mult;
        break;
    default:
        return PM_ERR_CONV;
    }
    return 0;
}

/* The ratio from iunit to ounit, or PM_ERR_CONV (other dimensions) or
 * PM_ERR_UNIT. */
static int conv_ratio(const pmUnits *iunit, const pmUnits *ounit, ratio *r)
{
    int di[3], dout[3];

    dims_of(iunit, di);
    if ((units_word(iunit) ^ units_word(ounit)) & dims_mask()) { /* else the same dimensions */
        dims_of(ounit, dout);
        if (di[0] != dout[0] || di[1] != dout[1] || di[2] != dout[2])
            return PM_ERR_CONV;
    }
    return scale_ratio(iunit, ounit, di, r);
}

/* The last units a thread converted between and what they gave (a
 * program converts many values between the same two units, and working
 * the ratio out costs more than using it): sts 1 when none yet. */
typedef struct conv_memo {
    uint32_t in, out;
    int sts;
    ratio r;
} conv_memo;

static _Thread_local conv_memo memo __attribute__((tls_model("initial-exec"))) = {.sts = 1};

int pmConvScale(int type, const pmAtomValue *ival, const pmUnits *iunit, pmAtomValue *oval,
                const pmUnits *ounit)
{
    uint32_t in = units_word(iunit), out = units_word(ounit);
    conv_memo *m = &memo;
    ratio r;

    if (m->sts > 0 || m->in != in || m->out != out) {
        m->sts = conv_ratio(iunit, ounit, &m->r);
        m->in = in;
        m->out = out;
    }
    if (m->sts < 0)
        return m->sts;
    r = m->r;

    if (r.div == 1) /* no division: the same values, without its cost */
        return scale_whole(type, ival, r.mult, oval);
    switch (type) {
    case PM_TYPE_32:
        oval->l = (int32_t)(wrap_muladd(ival->l, r.mult, r.div / 2) / r.div);
        break;
    case PM_TYPE_U32:
        oval->ul = (uint32_t)(wrap_muladd(ival->ul, r.mult, r.div / 2) / r.div);
        break;
    case PM_TYPE_64:
        oval->ll = wrap_muladd(ival->ll, r.mult, r.div / 2) / r.div;
        break;
    case PM_TYPE_U64:
        oval->ull = (ival->ull * (uint64_t)r.mult + (uint64_t)(r.div / 2)) / (uint64_t)r.div;
        break;
    case PM_TYPE_FLOAT:
        oval->f = ival->f * ((float)r.mult / (float)r.div);
        break;
    case PM_TYPE_DOUBLE:
        oval->d = ival->d * ((double)r.mult / (double)r.div);
        break;
    default:
        return PM_ERR_CONV;
    }
    return 0;
}
