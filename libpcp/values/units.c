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

static const char *const space_words[] = {
    "byte", "Kbyte", "Mbyte", "Gbyte", "Tbyte", "Pbyte", "Ebyte", "Zbyte", "Ybyte",
};
static const char *const time_words[] = {
    "nanosec", "microsec", "millisec", "sec", "min", "hour",
};

/* The word for one dimension; scratch holds generated words. */
static const char *dim_word(int which, const pmUnits *u, char *scratch, size_t len)
{
    if (which == 0) {
        if (u->scaleSpace < sizeof(space_words) / sizeof(space_words[0]))
            return space_words[u->scaleSpace];
        pmsprintf(scratch, len, "space-%d", (int)u->scaleSpace);
    } else if (which == 1) {
        if (u->scaleTime < sizeof(time_words) / sizeof(time_words[0]))
            return time_words[u->scaleTime];
        pmsprintf(scratch, len, "time-%d", (int)u->scaleTime);
    } else if (u->scaleCount == 0) {
        return "count";
    } else if (u->scaleCount == 1) {
        return "count x 10";
    } else {
        pmsprintf(scratch, len, "count x 10^%d", (int)u->scaleCount);
    }
    return scratch;
}

/* Append "word " or "word^p " for every dimension whose power has the wanted
 * sign; returns the new length of out. */
static size_t append_dims(char *out, size_t used, size_t cap, const pmUnits *u, int sign)
{
    int dims[3] = {u->dimSpace, u->dimTime, u->dimCount};

    for (int i = 0; i < 3; i++) {
        char scratch[32];
        int power = dims[i] * sign;
        const char *word;

        if (power <= 0)
            continue;
        word = dim_word(i, u, scratch, sizeof(scratch));
        if (power == 1)
            used += (size_t)pmsprintf(out + used, cap - used, "%s ", word);
        else
            used += (size_t)pmsprintf(out + used, cap - used, "%s^%d ", word, power);
    }
    return used;
}

char *pmUnitsStr_r(const pmUnits *u, char *buf, int buflen)
{
    char text[160];
    size_t used;

    if (buflen < 60)
        return NULL;
    text[0] = '\0';
    used = append_dims(text, 0, sizeof(text), u, 1);
    if (u->dimSpace < 0 || u->dimTime < 0 || u->dimCount < 0) {
        used += (size_t)pmsprintf(text + used, sizeof(text) - used, "/ ");
        used = append_dims(text, used, sizeof(text), u, -1);
    }
    if (used > 0)
        text[used - 1] = '\0'; /* the trailing space */
    else if (u->scaleCount == 1)
        pmsprintf(text, sizeof(text), "x 10");
    else if (u->scaleCount != 0)
        pmsprintf(text, sizeof(text), "x 10^%d", (int)u->scaleCount);
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

/* The ratio that turns a value in iu into a value in ou, or an error. */
static int scale_ratio(const pmUnits *iu, const pmUnits *ou, ratio *r)
{
    canon fi, fo;

    r->mult = r->div = 1;
    if (iu->dimSpace != 0) {
        if (space_canon(iu->scaleSpace, &fi) < 0 || space_canon(ou->scaleSpace, &fo) < 0)
            return PM_ERR_UNIT;
        fold(r, fi, fo, iu->dimSpace);
    }
    if (iu->dimTime != 0) {
        if (time_canon(iu->scaleTime, &fi) < 0 || time_canon(ou->scaleTime, &fo) < 0)
            return PM_ERR_UNIT;
        fold(r, fi, fo, iu->dimTime);
    }
    if (iu->dimCount != 0) {
        count_canon(iu->scaleCount, &fi);
        count_canon(ou->scaleCount, &fo);
        fold(r, fi, fo, iu->dimCount);
    }
    /* PCP divides by zero here and dies of SIGFPE; report the units instead */
    if (r->div == 0 || (r->div == -1 && r->mult == INT64_MIN))
        return PM_ERR_UNIT;
    if (r->mult % r->div == 0) {
        r->mult /= r->div;
        r->div = 1;
    }
    return 0;
}

/* A dimensionless unit behaves as a count. */
static pmUnits as_count(const pmUnits *u)
{
    pmUnits c = *u;

    if (c.dimSpace == 0 && c.dimTime == 0 && c.dimCount == 0)
        c.dimCount = 1;
    return c;
}

int pmConvScale(int type, const pmAtomValue *ival, const pmUnits *iunit, pmAtomValue *oval,
                const pmUnits *ounit)
{
    pmUnits iu = as_count(iunit), ou = as_count(ounit);
    ratio r;
    int sts;

    if (iu.dimSpace != ou.dimSpace || iu.dimTime != ou.dimTime || iu.dimCount != ou.dimCount)
        return PM_ERR_CONV;
    if ((sts = scale_ratio(&iu, &ou, &r)) < 0)
        return sts;

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
