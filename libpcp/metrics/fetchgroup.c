/*
 * fetchgroup.c - fetch groups: metrics registered once with the place
 * each converted value goes (pmExtendFetchGroup_*), then fetched,
 * converted and stored in one call (pmFetchGroup).
 *
 * A group owns a context of its own.  Each registration is an entry in a
 * list, in registration order; the PMIDs to fetch are kept once each.
 * pmFetchGroup makes the group's context current (and leaves it so, as
 * PCP does), fetches every PMID, then fills each entry's outputs.
 *
 * Values, as probed from PCP's library (tests/oracle/probe_fetchgroup.c):
 *
 * - With no unit or rate conversion a value goes from the metric's type
 *   to the output type as pmExtractValue takes it.  A string metric's
 *   whole text can be a number: an integer as strtoll/strtoull read it
 *   for the integer types, a decimal floating-point number for FLOAT and
 *   DOUBLE; anything else is PM_ERR_TYPE.  As a string, an integer is
 *   printed as an integer, a FLOAT with %.9e and a DOUBLE with %.17e.
 * - With a conversion the value is taken as a DOUBLE.  A rate is the
 *   change since the group's previous fetch over the seconds between the
 *   two fetches (a nanosecond when the time did not go forwards, as in
 *   Debian's libpcp: an archive replayed backwards or at a step of 0
 *   gives a rate of 0 where the value did not change, an enormous one
 *   where it went up): PM_ERR_AGAIN on the first fetch,
 *   PM_ERR_VALUE when the previous fetch had no value for it or the value
 *   went down.  Units
 *   asked for have the metric's dimensions, or one time dimension less
 *   for a rate (whose time is then counted in seconds): the value is
 *   scaled with pmConvScale, multiplied by the factor pmParseUnitsStr
 *   gave, and becomes the output type as a DOUBLE would (%.17e as text).
 * - A value that cannot be had or converted leaves the sentinel: -1 in
 *   every bit of an integer, a NaN, a NULL string; its status says why.
 *   A discrete metric with no value in a fetch keeps its last value and
 *   status; an instance missing from a fetch is PM_ERR_VALUE.  After a
 *   fetch that fails as a whole every item and instance domain says
 *   PM_ERR_VALUE, a discrete metric's outputs staying.
 * - An event field is every value of one parameter in the records of an
 *   event metric's value (pmUnpackEventRecords), in record order, each
 *   converted as above but never as a rate, with its record's time (zero
 *   with a sentinel); past out_maxnum, PM_ERR_TOOBIG.
 *
 * Strings stored in outputs (values and instance names) belong to the
 * group: they stay until the next fetch, pmClearFetchGroup or
 * pmDestroyFetchGroup.  Not thread-safe for one group, as in PCP.
 */
#include "context.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { FG_ITEM, FG_INDOM, FG_EVENT, FG_STAMP };

/* How one metric's values become outputs. */
typedef struct fg_conv {
    pmDesc desc;
    int out_type;
    int rate;      /* a rate between fetches */
    int rescale;   /* to units, then times mult */
    pmUnits units; /* asked for */
    double mult;
} fg_conv;

/* One registration. */
typedef struct fg_entry {
    struct fg_entry *next;
    int kind;
    int slot; /* index of its PMID in the group's list */
    fg_conv conv;
    /* FG_ITEM */
    int inst; /* PM_IN_NULL for a metric without instances */
    pmAtomValue *value;
    int *sts;
    /* FG_INDOM (and FG_EVENT: values, stss, maxnum, num, sts, own_strings) */
    int *codes;
    char **names;
    pmAtomValue *values;
    int *stss;
    unsigned int maxnum;
    unsigned int *num;
    char **own_names;   /* maxnum names the group owns (values hold no pointers of ours) */
    char **own_strings; /* maxnum (1 for an item) strings stored in values */
    /* FG_STAMP: one of the two */
    struct timeval *tv;
    struct timespec *ts;
    /* FG_EVENT: the event metric's instance and type; the field's PMID
     * (conv describes the field) */
    int ev_inst;
    int ev_type;
    pmID field;
    struct timespec *times;
} fg_entry;

struct __pmFetchGroup {
    int ctx;
    fg_entry *first, **last;
    pmID *pmids;
    int npmids, cap;
    pmHighResResult *prev; /* the previous fetch, for rates */
    pmInDom *whole;        /* instance domains fetched whole */
    int nwhole;
    pmInDom *some; /* instance domains fetched instance by instance */
    int nsome;
};

/* ---------------------------------------------------------------- */
/* Outputs. */

static int out_type_ok(int type)
{
    return type == PM_TYPE_32 || type == PM_TYPE_U32 || type == PM_TYPE_64 || type == PM_TYPE_U64 ||
           type == PM_TYPE_FLOAT || type == PM_TYPE_DOUBLE || type == PM_TYPE_STRING;
}

/* The sentinel of type into *v; a string it held (ours) is freed. */
static void sentinel(pmAtomValue *v, int type, char **own)
{
    if (own != NULL) {
        free(*own);
        *own = NULL;
    }
    if (v == NULL)
        return;
    switch (type) {
    case PM_TYPE_FLOAT:
        v->f = -NAN;
        break;
    case PM_TYPE_DOUBLE:
        v->d = -NAN;
        break;
    case PM_TYPE_STRING:
        v->cp = NULL;
        break;
    default:
        v->ull = ~(uint64_t)0; /* -1 in every integer member */
        break;
    }
}

/* Where slot i of a vector entry's values is (NULL: not kept). */
static pmAtomValue *slot_value(const fg_entry *e, unsigned int i)
{
    return e->values != NULL ? &e->values[i] : NULL;
}

/* Slot i of a vector entry with nothing in it, as PCP leaves one: the
 * sentinel, no name, status PM_ERR_VALUE, the zero time. */
static void empty_slot(fg_entry *e, unsigned int i)
{
    sentinel(slot_value(e, i), e->conv.out_type, &e->own_strings[i]);
    if (e->own_names != NULL) {
        free(e->own_names[i]);
        e->own_names[i] = NULL;
    }
    if (e->names != NULL)
        e->names[i] = NULL;
    if (e->stss != NULL)
        e->stss[i] = PM_ERR_VALUE;
    if (e->times != NULL)
        e->times[i] = (struct timespec){0, 0};
}

/* A string output: text (malloc'd, now ours) replaces the old one. */
static void store_string(pmAtomValue *v, char **own, char *text)
{
    free(*own);
    *own = text;
    if (v != NULL)
        v->cp = text;
}

/* The whole of s as a decimal floating-point number (strtod's forms but
 * hexadecimal), or PM_ERR_TYPE. */
static int parse_number(const char *s, double *d)
{
    char *end;

    if (strpbrk(s, "xX") != NULL)
        return PM_ERR_TYPE;
    *d = strtod(s, &end);
    return end != s && *end == '\0' ? 0 : PM_ERR_TYPE;
}

/*
 * The whole of s as an integer of type (strtol's forms, base 0) into
 * *out: PM_ERR_TYPE if it is not one, -ERANGE if it does not fit.  As
 * with strtoul, a minus sign makes an unsigned value wrap; a 32-bit
 * unsigned value that wraps does not fit.
 */
static int parse_integer(const char *s, int type, pmAtomValue *out)
{
    char *end;
    long long ll = 0;
    unsigned long long ull = 0;

    errno = 0;
    if (type == PM_TYPE_32 || type == PM_TYPE_64)
        ll = strtoll(s, &end, 0);
    else
        ull = strtoull(s, &end, 0);
    if (end == s || *end != '\0')
        return PM_ERR_TYPE;
    if (errno == ERANGE || (type == PM_TYPE_32 && (ll < INT32_MIN || ll > INT32_MAX)) ||
        (type == PM_TYPE_U32 && ull > UINT32_MAX))
        return -ERANGE;
    switch (type) {
    case PM_TYPE_32:
        out->l = (int32_t)ll;
        break;
    case PM_TYPE_U32:
        out->ul = (uint32_t)ull;
        break;
    case PM_TYPE_64:
        out->ll = ll;
        break;
    default:
        out->ull = ull;
        break;
    }
    return 0;
}

/* The whole of s as a value of type (not a string) into *out. */
static int parse_text(const char *s, int type, pmAtomValue *out)
{
    double d;
    int sts;

    if (type != PM_TYPE_FLOAT && type != PM_TYPE_DOUBLE)
        return parse_integer(s, type, out);
    if ((sts = parse_number(s, &d)) < 0)
        return sts;
    if (type == PM_TYPE_FLOAT)
        out->f = (float)d;
    else
        out->d = d;
    return 0;
}

/* d as pmExtractValue gives a DOUBLE in type (not a string) into *out. */
static int from_double(double d, int type, pmAtomValue *out)
{
    pmValueBlock *vb;
    pmValue v;
    union {
        pmValueBlock vb;
        char bytes[PM_VAL_HDR_SIZE + sizeof(double)];
    } buf;

    vb = &buf.vb;
    vb->vtype = PM_TYPE_DOUBLE;
    vb->vlen = PM_VAL_HDR_SIZE + sizeof(double);
    memcpy(vb->vbuf, &d, sizeof(d));
    v.inst = PM_IN_NULL;
    v.value.pval = vb;
    return pmExtractValue(PM_VAL_DPTR, &v, PM_TYPE_DOUBLE, out, type);
}

/* A value of type (not a string) as text, as PCP's groups print it. */
static char *number_text(const pmAtomValue *a, int type)
{
    char buf[64];

    switch (type) {
    case PM_TYPE_32:
        snprintf(buf, sizeof(buf), "%" PRId32, a->l);
        break;
    case PM_TYPE_U32:
        snprintf(buf, sizeof(buf), "%" PRIu32, a->ul);
        break;
    case PM_TYPE_64:
        snprintf(buf, sizeof(buf), "%" PRId64, a->ll);
        break;
    case PM_TYPE_U64:
        snprintf(buf, sizeof(buf), "%" PRIu64, a->ull);
        break;
    case PM_TYPE_FLOAT:
        snprintf(buf, sizeof(buf), "%.9e", (double)a->f);
        break;
    default:
        snprintf(buf, sizeof(buf), "%.17e", a->d);
        break;
    }
    return strdup(buf);
}

/* The value v (valfmt of its set) of the metric c describes as a DOUBLE:
 * a string's whole text must be a number. */
static int to_double(const fg_conv *c, int valfmt, const pmValue *v, double *d)
{
    pmAtomValue a;
    int sts;

    if (c->desc.type != PM_TYPE_STRING) {
        if ((sts = pmExtractValue(valfmt, v, c->desc.type, &a, PM_TYPE_DOUBLE)) < 0)
            return sts;
        *d = a.d;
        return 0;
    }
    if ((sts = pmExtractValue(valfmt, v, PM_TYPE_STRING, &a, PM_TYPE_STRING)) < 0)
        return sts;
    sts = parse_number(a.cp, d);
    free(a.cp);
    return sts;
}

/*
 * The value v (valfmt of its set) of a metric described by c, without
 * conversion, into *out as c->out_type (a string into *own): 0 or an
 * error.
 */
static int convert_plain(const fg_conv *c, int valfmt, const pmValue *v, pmAtomValue *out,
                         char **own)
{
    pmAtomValue a;
    char *text;
    int sts;

    if (c->desc.type == PM_TYPE_STRING) {
        pmAtomValue scratch;
        if ((sts = pmExtractValue(valfmt, v, PM_TYPE_STRING, &a, PM_TYPE_STRING)) < 0)
            return sts;
        if (c->out_type == PM_TYPE_STRING) {
            store_string(out, own, a.cp);
            return 0;
        }
        sts = parse_text(a.cp, c->out_type, out != NULL ? out : &scratch);
        free(a.cp);
        return sts;
    }
    if (c->out_type != PM_TYPE_STRING) {
        if ((sts = pmExtractValue(valfmt, v, c->desc.type, &a, c->out_type)) < 0)
            return sts;
        if (out != NULL)
            *out = a;
        return 0;
    }
    if ((sts = pmExtractValue(valfmt, v, c->desc.type, &a, c->desc.type)) < 0)
        return sts;
    if ((text = number_text(&a, c->desc.type)) == NULL)
        return -ENOMEM;
    store_string(out, own, text);
    return 0;
}

/* A converted DOUBLE d into *out as c->out_type. */
static int store_double(const fg_conv *c, double d, pmAtomValue *out, char **own)
{
    pmAtomValue a;
    char *text;
    int sts;

    if (c->out_type == PM_TYPE_STRING) {
        a.d = d;
        if ((text = number_text(&a, PM_TYPE_DOUBLE)) == NULL)
            return -ENOMEM;
        store_string(out, own, text);
        return 0;
    }
    if ((sts = from_double(d, c->out_type, &a)) < 0)
        return sts;
    if (out != NULL)
        *out = a;
    return 0;
}

/* The units of a rate of a metric in units u whose time is in seconds. */
static pmUnits rate_units(pmUnits u)
{
    u.scaleTime = PM_TIME_SEC;
    u.dimTime--;
    return u;
}

/* The value of instance inst in set vs, or NULL. */
static const pmValue *value_of(const pmValueSet *vs, int inst)
{
    for (int i = 0; i < vs->numval; i++)
        if (vs->vlist[i].inst == inst)
            return &vs->vlist[i];
    return NULL;
}

/* The set of pmid in result r (NULL if none, or r is NULL). */
static const pmValueSet *set_of(const pmHighResResult *r, pmID pmid, int hint)
{
    if (r == NULL)
        return NULL;
    if (hint >= 0 && hint < r->numpmid && r->vset[hint]->pmid == pmid)
        return r->vset[hint];
    for (int i = 0; i < r->numpmid; i++)
        if (r->vset[i]->pmid == pmid)
            return r->vset[i];
    return NULL;
}

/*
 * One value: v (from set vs of result now) of the metric c describes,
 * converted into *out; prev is the group's previous result (for rates).
 */
static int convert(const fg_conv *c, const pmHighResResult *now, const pmValueSet *vs,
                   const pmValue *v, const pmHighResResult *prev, int slot, pmAtomValue *out,
                   char **own)
{
    pmAtomValue a, b;
    pmUnits from;
    double d;
    int sts;

    if (!c->rate && !c->rescale)
        return convert_plain(c, vs->valfmt, v, out, own);
    from = c->desc.units;
    if (c->rate) {
        const pmValueSet *ps = set_of(prev, vs->pmid, slot);
        const pmValue *pv = ps != NULL && ps->numval > 0 ? value_of(ps, v->inst) : NULL;
        double now_d, then_d, dt;
        if (prev == NULL)
            return PM_ERR_AGAIN; /* the first fetch */
        if (pv == NULL)
            return PM_ERR_VALUE; /* not in the previous one */
        if ((sts = to_double(c, vs->valfmt, v, &now_d)) < 0 ||
            (sts = to_double(c, ps->valfmt, pv, &then_d)) < 0)
            return sts;
        if (now_d < then_d)
            return PM_ERR_VALUE; /* went down: a counter wrapped or was reset */
        /* the seconds between; none or fewer (an archive replayed backwards
         * or at a step of 0) count as a nanosecond, as in Debian's */
        if ((dt = pmtimespecSub(&now->timestamp, &prev->timestamp)) <= 0)
            dt = 1e-9;
        d = (now_d - then_d) / dt;
        if (c->rescale && from.dimTime != 0) {
            /* its time in seconds first, as the rate's divisor is: a rate of
             * milliseconds as "sec / sec" is a fraction */
            pmUnits sec = from;
            sec.scaleTime = PM_TIME_SEC;
            a.d = d;
            if ((sts = pmConvScale(PM_TYPE_DOUBLE, &a, &from, &b, &sec)) < 0)
                return sts;
            d = b.d;
        }
        from = rate_units(from);
    } else if ((sts = to_double(c, vs->valfmt, v, &d)) < 0) {
        return sts;
    }
    if (c->rescale) {
        a.d = d;
        if ((sts = pmConvScale(PM_TYPE_DOUBLE, &a, &from, &b, &c->units)) < 0)
            return sts;
        d = b.d * c->mult;
    }
    return store_double(c, d, out, own);
}

/* ---------------------------------------------------------------- */
/* Registration. */

static int use(pmFG fg)
{
    return fg == NULL ? -EINVAL : pmUseContext(fg->ctx);
}

/* The slot of pmid in the group's list, added if new: >= 0 or -ENOMEM. */
static int slot_of(pmFG fg, pmID pmid)
{
    for (int i = 0; i < fg->npmids; i++)
        if (fg->pmids[i] == pmid)
            return i;
    if (fg->npmids == fg->cap) {
        int cap = fg->cap ? fg->cap * 2 : 16;
        pmID *p = realloc(fg->pmids, (size_t)cap * sizeof(*p));
        if (p == NULL)
            return -ENOMEM;
        fg->pmids = p;
        fg->cap = cap;
    }
    fg->pmids[fg->npmids] = pmid;
    return fg->npmids++;
}

/* Is indom in list[0..n)? */
static int has_indom(const pmInDom *list, int n, pmInDom indom)
{
    for (int i = 0; i < n; i++)
        if (list[i] == indom)
            return 1;
    return 0;
}

static int add_indom(pmInDom **list, int *n, pmInDom indom)
{
    pmInDom *l = realloc(*list, (size_t)(*n + 1) * sizeof(*l));

    if (l == NULL)
        return -ENOMEM;
    l[(*n)++] = indom;
    *list = l;
    return 0;
}

/*
 * The group fetches only the instances asked for: an instance domain is
 * left out of the profile until an item asks for one of its instances,
 * and is fetched whole once a registration asks for all of them.  inst
 * is an instance, or PM_IN_NULL for the whole domain.
 */
static int profile_for(pmFG fg, pmInDom indom, int inst)
{
    int sts;

    if (indom == PM_INDOM_NULL || has_indom(fg->whole, fg->nwhole, indom))
        return 0;
    if (inst == (int)PM_IN_NULL) {
        if ((sts = add_indom(&fg->whole, &fg->nwhole, indom)) < 0)
            return sts;
        return pmAddProfile(indom, 0, NULL);
    }
    if (!has_indom(fg->some, fg->nsome, indom)) {
        if ((sts = add_indom(&fg->some, &fg->nsome, indom)) < 0)
            return sts;
        if ((sts = pmDelProfile(indom, 0, NULL)) < 0)
            return sts;
    }
    return pmAddProfile(indom, 1, &inst);
}

/*
 * What scale asks of the metric described by d: NULL (a rate for a
 * counter), "rate", "instant", or units for pmParseUnitsStr, whose
 * dimensions must be the metric's, or its rate's.  PM_ERR_CONV if not.
 */
static int parse_scale(const pmDesc *d, const char *scale, fg_conv *c)
{
    char *msg = NULL;
    pmUnits u = d->units;
    double mult;
    int sts;

    c->rate = c->rescale = 0;
    c->mult = 1;
    if (scale == NULL) {
        c->rate = d->sem == PM_SEM_COUNTER;
        return 0;
    }
    if (strcmp(scale, "rate") == 0) {
        c->rate = 1;
        return 0;
    }
    if (strcmp(scale, "instant") == 0)
        return 0;
    sts = pmParseUnitsStr(scale, &c->units, &mult, &msg);
    free(msg);
    if (sts < 0)
        return PM_ERR_CONV;
    if (c->units.dimSpace != u.dimSpace || c->units.dimCount != u.dimCount)
        return PM_ERR_CONV;
    if (c->units.dimTime == u.dimTime - 1)
        c->rate = 1;
    else if (c->units.dimTime != u.dimTime)
        return PM_ERR_CONV;
    c->rescale = 1;
    c->mult = mult;
    return 0;
}

/* The metric's PMID and description, and its conversion to out_type
 * with scale: 0 or an error. */
static int describe(const char *metric, const char *scale, int out_type, pmID *pmid, fg_conv *c)
{
    int sts;

    if (metric == NULL)
        return -EINVAL;
    if ((sts = pmLookupName(1, &metric, pmid)) < 0)
        return sts;
    if ((sts = pmLookupDesc(*pmid, &c->desc)) < 0)
        return sts;
    if (c->desc.type == PM_TYPE_AGGREGATE || c->desc.type == PM_TYPE_AGGREGATE_STATIC ||
        c->desc.type == PM_TYPE_EVENT || c->desc.type == PM_TYPE_HIGHRES_EVENT ||
        !out_type_ok(out_type))
        return PM_ERR_TYPE;
    c->out_type = out_type;
    return parse_scale(&c->desc, scale, c);
}

/*
 * The instance called instance of a metric described by d: PM_IN_NULL
 * (and no name) for a metric without instances, else its number; or
 * PM_ERR_INDOM (a name for one without, or none for one with) or the
 * lookup's error.
 */
static int instance_of(const pmDesc *d, const char *instance, int *inst)
{
    *inst = (int)PM_IN_NULL;
    if (instance == NULL)
        return d->indom == PM_INDOM_NULL ? 0 : PM_ERR_INDOM;
    if (d->indom == PM_INDOM_NULL)
        return PM_ERR_INDOM;
    return (*inst = pmLookupInDom(d->indom, instance)) < 0 ? *inst : 0;
}

static fg_entry *new_entry(int kind)
{
    fg_entry *e = calloc(1, sizeof(*e));

    if (e != NULL)
        e->kind = kind;
    return e;
}

static void append(pmFG fg, fg_entry *e)
{
    *fg->last = e;
    fg->last = &e->next;
}

int pmCreateFetchGroup(pmFG *ptr, int type, const char *name)
{
    pmFG fg;
    int ctx;

    if (ptr == NULL)
        return -EINVAL;
    *ptr = NULL;
    if ((ctx = pmNewContext(type, name)) < 0)
        return ctx;
    if ((fg = calloc(1, sizeof(*fg))) == NULL) {
        pmDestroyContext(ctx);
        return -ENOMEM;
    }
    fg->ctx = ctx;
    fg->last = &fg->first;
    *ptr = fg;
    return 0;
}

int pmGetFetchGroupContext(pmFG fg)
{
    return fg == NULL ? -EINVAL : fg->ctx;
}

int pmExtendFetchGroup_item(pmFG fg, const char *metric, const char *instance, const char *scale,
                            pmAtomValue *out_value, int out_type, int *out_sts)
{
    fg_entry *e;
    fg_conv c;
    pmID pmid;
    int sts, inst, slot;

    if ((sts = use(fg)) < 0)
        return sts;
    if ((sts = describe(metric, scale, out_type, &pmid, &c)) < 0 ||
        (sts = instance_of(&c.desc, instance, &inst)) < 0)
        return sts;
    if ((e = new_entry(FG_ITEM)) == NULL ||
        (out_type == PM_TYPE_STRING && (e->own_strings = calloc(1, sizeof(char *))) == NULL)) {
        free(e);
        return -ENOMEM;
    }
    if ((slot = slot_of(fg, pmid)) < 0 || (sts = profile_for(fg, c.desc.indom, inst)) < 0) {
        free(e->own_strings);
        free(e);
        return slot < 0 ? slot : sts;
    }
    e->slot = slot;
    e->conv = c;
    e->inst = inst;
    e->value = out_value;
    e->sts = out_sts;
    sentinel(out_value, out_type, NULL);
    append(fg, e);
    return 0;
}

/*
 * A new entry of kind (FG_INDOM or FG_EVENT) for a vector of maxnum
 * values of pmid, converted as c says and fetched with instance inst of
 * indom in the profile (PM_IN_NULL: all of them), with *num set to 0; the
 * caller completes it and hands it to append_vector.  0 and *ep, or an
 * error.
 */
static int vector_entry(pmFG fg, int kind, pmID pmid, const fg_conv *c, pmInDom indom, int inst,
                        pmAtomValue values[], int stss[], unsigned int maxnum, unsigned int *num,
                        int *out_sts, fg_entry **ep)
{
    size_t n = maxnum > 0 ? maxnum : 1;
    fg_entry *e = new_entry(kind);
    int sts = -ENOMEM, slot = 0;

    if (e == NULL)
        return -ENOMEM;
    if ((e->own_strings = calloc(n, sizeof(char *))) == NULL ||
        (kind == FG_INDOM && (e->own_names = calloc(n, sizeof(char *))) == NULL) ||
        (sts = slot = slot_of(fg, pmid)) < 0 || (sts = profile_for(fg, indom, inst)) < 0) {
        free(e->own_names);
        free(e->own_strings);
        free(e);
        return sts;
    }
    e->slot = slot;
    e->conv = *c;
    e->values = values;
    e->stss = stss;
    e->maxnum = maxnum;
    e->num = num;
    e->sts = out_sts;
    if (num != NULL)
        *num = 0;
    *ep = e;
    return 0;
}

/* A vector entry's outputs, now all known, emptied; then it joins the
 * group's list. */
static void append_vector(pmFG fg, fg_entry *e)
{
    for (unsigned int i = 0; i < e->maxnum; i++)
        empty_slot(e, i);
    append(fg, e);
}

int pmExtendFetchGroup_indom(pmFG fg, const char *metric, const char *scale, int out_inst_codes[],
                             char *out_inst_names[], pmAtomValue out_values[], int out_type,
                             int out_stss[], unsigned int out_maxnum, unsigned int *out_num,
                             int *out_sts)
{
    fg_entry *e;
    fg_conv c;
    pmID pmid;
    int sts;

    if ((sts = use(fg)) < 0 || (sts = describe(metric, scale, out_type, &pmid, &c)) < 0 ||
        (sts = vector_entry(fg, FG_INDOM, pmid, &c, c.desc.indom, (int)PM_IN_NULL, out_values,
                            out_stss, out_maxnum, out_num, out_sts, &e)) < 0)
        return sts;
    e->codes = out_inst_codes;
    e->names = out_inst_names;
    append_vector(fg, e);
    return 0;
}

int pmExtendFetchGroup_event(pmFG fg, const char *metric, const char *instance, const char *field,
                             const char *scale, struct timespec out_times[],
                             pmAtomValue out_values[], int out_type, int out_stss[],
                             unsigned int out_maxnum, unsigned int *out_num, int *out_sts)
{
    fg_entry *e;
    fg_conv c;
    pmDesc ed;
    pmID pmid, fpmid;
    int sts, inst;

    if ((sts = use(fg)) < 0)
        return sts;
    if (metric == NULL || field == NULL)
        return -EINVAL;
    if ((sts = pmLookupName(1, &metric, &pmid)) < 0 || (sts = pmLookupDesc(pmid, &ed)) < 0)
        return sts;
    if (ed.type != PM_TYPE_EVENT && ed.type != PM_TYPE_HIGHRES_EVENT)
        return PM_ERR_TYPE;
    if ((sts = instance_of(&ed, instance, &inst)) < 0 ||
        (sts = describe(field, scale, out_type, &fpmid, &c)) < 0)
        return sts;
    if (c.desc.indom != PM_INDOM_NULL)
        return PM_ERR_INDOM; /* a field has one value a parameter */
    if (c.rate)
        return PM_ERR_CONV; /* no rates between records */
    if ((sts = vector_entry(fg, FG_EVENT, pmid, &c, ed.indom, inst, out_values, out_stss,
                            out_maxnum, out_num, out_sts, &e)) < 0)
        return sts;
    e->ev_inst = inst;
    e->ev_type = ed.type;
    e->field = fpmid;
    e->times = out_times;
    append_vector(fg, e);
    return 0;
}

static int add_stamp(pmFG fg, struct timeval *tv, struct timespec *ts)
{
    fg_entry *e;

    if (fg == NULL)
        return -EINVAL;
    if ((e = new_entry(FG_STAMP)) == NULL)
        return -ENOMEM;
    e->tv = tv;
    e->ts = ts;
    if (tv != NULL)
        *tv = (struct timeval){0, 0};
    if (ts != NULL)
        *ts = (struct timespec){0, 0};
    append(fg, e);
    return 0;
}

int pmExtendFetchGroup_timeval(pmFG fg, struct timeval *out_value)
{
    return add_stamp(fg, out_value, NULL);
}

int pmExtendFetchGroup_timestamp(pmFG fg, struct timeval *out_value)
{
    return add_stamp(fg, out_value, NULL);
}

int pmExtendFetchGroup_timespec(pmFG fg, struct timespec *out_value)
{
    return add_stamp(fg, NULL, out_value);
}

/* ---------------------------------------------------------------- */
/* Fetching. */

/*
 * The entry's value set in result r into *vsp, and its status: the
 * fetch's sts when that failed (r NULL), PM_ERR_VALUE when r has no set
 * for it, the set's own error, else 0; or 1 when an item or instance
 * domain of a discrete metric has no value this time (its outputs stay).
 */
static int entry_set(pmFG fg, const fg_entry *e, const pmHighResResult *r, int sts,
                     const pmValueSet **vsp)
{
    const pmValueSet *vs = r != NULL ? set_of(r, fg->pmids[e->slot], e->slot) : NULL;

    *vsp = vs;
    if (sts < 0)
        return sts;
    if (vs == NULL)
        return PM_ERR_VALUE;
    if (vs->numval < 0)
        return vs->numval;
    return vs->numval == 0 && e->kind != FG_EVENT && e->conv.desc.sem == PM_SEM_DISCRETE;
}

/*
 * After a fetch that failed as a whole, as in Debian's libpcp: an item's
 * or instance domain's status is PM_ERR_VALUE (not the fetch's error); a
 * discrete metric's outputs stay (1), any other's are emptied (the
 * status to use).
 */
static int whole_failure(fg_entry *e)
{
    if (e->conv.desc.sem != PM_SEM_DISCRETE)
        return PM_ERR_VALUE;
    if (e->sts != NULL)
        *e->sts = PM_ERR_VALUE;
    return 1;
}

/* An item's output and status from result r (NULL: fetch error sts). */
static void fill_item(pmFG fg, fg_entry *e, const pmHighResResult *r, int sts)
{
    const pmValueSet *vs;
    const pmValue *v;
    char **own = e->own_strings;

    if (r == NULL && (sts = whole_failure(e)) > 0)
        return;
    if ((sts = entry_set(fg, e, r, sts, &vs)) > 0)
        return; /* absent for now: the last value stays */
    if (sts == 0 && (v = value_of(vs, e->inst)) == NULL)
        sts = PM_ERR_VALUE;
    else if (sts == 0)
        sts = convert(&e->conv, r, vs, v, fg->prev, e->slot, e->value, own);
    if (sts < 0)
        sentinel(e->value, e->conv.out_type, own);
    if (e->sts != NULL)
        *e->sts = sts < 0 ? sts : 0;
}

/*
 * Every instance's output of an instance domain entry; the result's
 * values are in instance order (pmFetchGroup sorted them).  With more
 * instances than slots, the first ones are stored and the count is 0, as
 * in PCP.
 */
static void fill_indom(pmFG fg, fg_entry *e, const pmHighResResult *r, int sts)
{
    const pmValueSet *vs;
    unsigned int n = 0;

    if (r == NULL && (sts = whole_failure(e)) > 0)
        return;
    if ((sts = entry_set(fg, e, r, sts, &vs)) > 0)
        return; /* absent for now: the last values stay */
    if (sts == 0) {
        n = (unsigned int)vs->numval;
        if (n > e->maxnum) {
            n = e->maxnum;
            sts = PM_ERR_TOOBIG;
        }
    }
    for (unsigned int i = 0; i < e->maxnum; i++) {
        const pmValue *v;
        int s;
        if (i >= n) {
            empty_slot(e, i);
            continue;
        }
        v = &vs->vlist[i];
        free(e->own_names[i]);
        e->own_names[i] = NULL;
        if (e->codes != NULL)
            e->codes[i] = v->inst;
        if (e->names != NULL) {
            if (v->inst != (int)PM_IN_NULL && e->conv.desc.indom != PM_INDOM_NULL)
                pmNameInDom(e->conv.desc.indom, v->inst, &e->own_names[i]);
            e->names[i] = e->own_names[i];
        }
        s = convert(&e->conv, r, vs, v, fg->prev, e->slot, slot_value(e, i), &e->own_strings[i]);
        if (s < 0)
            sentinel(slot_value(e, i), e->conv.out_type, &e->own_strings[i]);
        if (e->stss != NULL)
            e->stss[i] = s < 0 ? s : 0;
    }
    if (e->num != NULL)
        *e->num = sts < 0 ? 0 : n;
    if (e->sts != NULL)
        *e->sts = sts < 0 ? sts : 0;
}

/* One unpacked record's value of the entry's field into slot *n. */
static void fill_field(fg_entry *e, const pmValueSet *vs, struct timespec t, unsigned int *n)
{
    int s;

    if (*n < e->maxnum) {
        pmAtomValue *out = slot_value(e, *n);
        s = convert(&e->conv, NULL, vs, &vs->vlist[0], NULL, -1, out, &e->own_strings[*n]);
        if (s < 0)
            sentinel(out, e->conv.out_type, &e->own_strings[*n]);
        if (e->stss != NULL)
            e->stss[*n] = s < 0 ? s : 0;
        if (e->times != NULL) /* the zero time is the sentinel too */
            e->times[*n] = s < 0 ? (struct timespec){0, 0} : t;
    }
    (*n)++;
}

/* The field's values among one record's value sets, stamped t. */
static void fill_record(fg_entry *e, pmValueSet *const *vset, int numpmid, struct timespec t,
                        unsigned int *n)
{
    for (int j = 0; j < numpmid; j++)
        if (vset[j]->pmid == e->field && vset[j]->numval == 1)
            fill_field(e, vset[j], t, n);
}

/* Every value of the field in the records of the entry's event metric:
 * the first maxnum of them, and PM_ERR_TOOBIG if there were more. */
static void fill_event(pmFG fg, fg_entry *e, const pmHighResResult *r, int sts)
{
    const pmValueSet *vs;
    unsigned int n = 0;
    int idx = -1;

    sts = entry_set(fg, e, r, sts, &vs);
    for (int i = 0; sts == 0 && i < vs->numval && idx < 0; i++)
        if (vs->vlist[i].inst == e->ev_inst)
            idx = i;
    if (sts == 0 && idx < 0)
        sts = PM_ERR_VALUE;
    if (sts == 0 && e->ev_type == PM_TYPE_HIGHRES_EVENT) {
        pmHighResResult **list = NULL;
        if ((sts = pmUnpackHighResEventRecords((pmValueSet *)vs, idx, &list)) >= 0) {
            for (int k = 0; list != NULL && list[k] != NULL; k++)
                fill_record(e, list[k]->vset, list[k]->numpmid, list[k]->timestamp, &n);
            pmFreeHighResEventResult(list);
        }
    } else if (sts == 0) {
        pmResult **list = NULL;
        if ((sts = pmUnpackEventRecords((pmValueSet *)vs, idx, &list)) >= 0) {
            for (int k = 0; list != NULL && list[k] != NULL; k++) {
                struct timespec t = {list[k]->timestamp.tv_sec,
                                     (long)list[k]->timestamp.tv_usec * 1000};
                fill_record(e, list[k]->vset, list[k]->numpmid, t, &n);
            }
            pmFreeEventResult(list);
        }
    }
    if (sts < 0)
        n = 0;
    for (unsigned int i = n; i < e->maxnum; i++)
        empty_slot(e, i);
    if (e->num != NULL)
        *e->num = n < e->maxnum ? n : e->maxnum;
    if (e->sts != NULL)
        *e->sts = sts < 0 ? sts : n > e->maxnum ? PM_ERR_TOOBIG : 0;
}

/* A timestamp output: the result's time, or now if the fetch failed (as
 * PCP's). */
static void fill_stamp(fg_entry *e, const pmHighResResult *r, const struct timespec *now)
{
    struct timespec t = r != NULL ? r->timestamp : *now;

    if (e->tv != NULL) {
        e->tv->tv_sec = t.tv_sec;
        e->tv->tv_usec = t.tv_nsec / 1000;
    }
    if (e->ts != NULL)
        *e->ts = t;
}

int pmFetchGroup(pmFG fg)
{
    pmHighResResult *r = NULL;
    struct timespec now;
    int sts;

    if ((sts = use(fg)) < 0)
        return sts;
    sts = pmFetchHighRes(fg->npmids, fg->pmids, &r);
    if (sts < 0) {
        r = NULL;
        clock_gettime(CLOCK_REALTIME, &now); /* the timestamps' time */
    } else {
        pmSortHighResInstances(r); /* instance domains are stored in order */
    }
    for (fg_entry *e = fg->first; e != NULL; e = e->next) {
        switch (e->kind) {
        case FG_ITEM:
            fill_item(fg, e, r, sts);
            break;
        case FG_INDOM:
            fill_indom(fg, e, r, sts);
            break;
        case FG_EVENT:
            fill_event(fg, e, r, sts);
            break;
        case FG_STAMP:
            fill_stamp(e, r, &now);
            break;
        }
    }
    if (r != NULL) {
        if (fg->prev != NULL)
            pmFreeHighResResult(fg->prev);
        fg->prev = r;
    }
    return sts;
}

/* ---------------------------------------------------------------- */
/* Clearing and destroying. */

/* Every value output back to its sentinel (statuses of vectors to
 * PM_ERR_VALUE), every string of ours freed, every registration dropped;
 * timestamps and the context stay. */
static void clear(pmFG fg)
{
    fg_entry *e = fg->first;

    while (e != NULL) {
        fg_entry *next = e->next;
        switch (e->kind) {
        case FG_ITEM:
            sentinel(e->value, e->conv.out_type, e->own_strings);
            break;
        case FG_INDOM:
        case FG_EVENT:
            for (unsigned int i = 0; i < e->maxnum; i++)
                empty_slot(e, i);
            if (e->num != NULL)
                *e->num = 0;
            break;
        default:
            break; /* PCP leaves a timestamp as it was */
        }
        free(e->own_names);
        free(e->own_strings);
        free(e);
        e = next;
    }
    fg->first = NULL;
    fg->last = &fg->first;
    free(fg->pmids);
    fg->pmids = NULL;
    fg->npmids = fg->cap = 0;
    if (fg->prev != NULL)
        pmFreeHighResResult(fg->prev);
    fg->prev = NULL;
    free(fg->whole);
    free(fg->some);
    fg->whole = fg->some = NULL;
    fg->nwhole = fg->nsome = 0;
}

int pmClearFetchGroup(pmFG fg)
{
    if (fg == NULL)
        return -EINVAL;
    clear(fg);
    return 0;
}

int pmDestroyFetchGroup(pmFG fg)
{
    int sts;

    if (fg == NULL)
        return -EINVAL;
    clear(fg);
    sts = pmDestroyContext(fg->ctx);
    free(fg);
    return sts < 0 ? sts : 0;
}
