/*
 * archive_interp.c - pmFetch in PM_MODE_INTERP: the values of the metrics
 * asked for at one time t, computed from the records around it, as
 * Debian's libpcp 6.0.3 computes them (docs/compat.md has where not).
 *
 * For each (metric, instance) the prior observation is the last record at
 * or before t that holds it, the next the first record at or after t that
 * holds it; a <mark> record (a gap in the logging) ends either search, as
 * do the ends of the archives and the step from one archive of a set to
 * the next.  The instances looked for are every instance the metric's
 * domain ever had (the profile applied) and any the records hold; they
 * are answered in ascending order:
 *  - discrete metrics, strings and aggregates: the prior value, when there
 *    is one;
 *  - instantaneous metrics: the prior value, when there are a prior and a
 *    next;
 *  - counters: the prior and next values interpolated linearly in time
 *    with Debian's arithmetic (interpolate()), when both exist and (but
 *    for 32-bit ones) the counter did not go down; a counter that is a
 *    string or an aggregate has PM_ERR_TYPE for its numval.
 *
 * How, the first time (or with PMKIT_INTERP_CACHE=0): the cursor is placed at t through the
 * temporal index (O(log n) in the archive's length), then records are read outwards from t only
 * until every metric and instance has its observations (fetch_fresh), so the cost does not grow
 * with the step.
 *
 * Then, between fetches, a cache kept with the context (pmkit_interp_cache,
 * which pmSetMode keeps: what it holds does not depend on the time): for
 * each metric asked, a range of times over which every record has been
 * read, and those of its records that hold values of the metric or are
 * marks (events, pointing into the records, decoded for the metrics asked
 * alone).  A fetch runs fetch_fresh's three searches over these timelines
 * (walk), and reads more records from the cache's own cursor, which stays
 * where it stopped, only where a search runs off a range's end (extend);
 * after the fetch each timeline is cut back to the events its searches
 * met (trim).  So at small steps a fetch reads the one or two records it
 * has not seen, and a metric logged once, or absent up to a mark or an
 * end, is found or known absent from its timeline without reading the
 * records in between again.  Memory: the events the last fetch's searches
 * met, and the records they point into, per metric asked: at most
 * CACHE_MAX_EVENTS events each and CACHE_MAX_BYTES of records, past which
 * (or for records out of time order, a PMID twice in one record, an error
 * reading) the cache turns itself off and fetches are made afresh, so an
 * answer never depends on it (oracle.interp_cache).  In a set of several
 * archives the timelines run across them, with the <mark> between two at
 * the time a forward read gives it, whichever way it was read
 * (mark_between).  The list of PMIDs
 * asked or the archive's end changing starts it anew; a time far (more
 * than CACHE_JUMP times a range's width) from a metric's range starts that
 * metric's anew, at the index.
 *
 * The common case takes a shorter way (answer_pair, make_vset_pair): when
 * the events nearest t either way hold the same instances in the same
 * order, every instance of the domain among them, the searches would stop
 * at those two, so the value set is made in one pass over their two value
 * sets, with no observations, the times' arithmetic done once a metric and
 * a loop for each common type.  A record the timelines let go keeps its
 * block for the next record read (arch_record_select_in).
 *
 * Not here: the context's time and step (archive_ctx.c).
 */
#include "archive_interp.h"
#include "values.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* One observation of one instance. */
typedef struct obs {
    int inst;
    int have[2];          /* prior, next found */
    struct timespec t[2]; /* their times */
    const pmValueBlock *blk[2];
    pmValueBlock *copy[2]; /* owned copies of blocks */
    int32_t lval[2];
    int kind;    /* make_vset's: what it gives (value_kind) */
    size_t size; /* and the bytes of block that takes */
} obs;

/* What is known of one metric asked for. */
typedef struct want {
    pmID pmid;
    pmDesc desc;
    int err;     /* numval when < 0 */
    int done[2]; /* the nearest record each way was met (or a mark, an end) */
    int closed[2];
    int valfmt;
    int nobs, room, hint;
    obs *o;
    /* answered by answer_pair (pair[PRIOR] not NULL): the value sets of
     * the prior and next records, their times, the bytes of blocks the
     * value set takes at most and profile_all's answer; then o is unused */
    const pmValueSet *pair[2];
    struct timespec pair_t[2];
    size_t pair_bytes;
    int pair_all;
} want;

enum { PRIOR = 0, NEXT = 1 };

/* A time as Debian's interpolation holds it: seconds since base (the
 * first archive's start) in a double; differences of these have its
 * rounding, to the last bit of an interpolated double. */
static double ts_off(const struct timespec *a, const struct timespec *base)
{
    return (double)arch_ns_between(a, base) / 1e9;
}

static obs *add_obs(want *w, int inst);

/* The observation of inst (made, with add): looked for from the one after
 * the last found, as records list instances in the same order. */
static obs *find_obs(want *w, int inst, int add)
{
    for (int k = 0, i = w->hint; k < w->nobs; k++, i++) {
        if (i >= w->nobs)
            i = 0;
        if (w->o[i].inst == inst) {
            w->hint = i + 1;
            return &w->o[i];
        }
    }
    return add ? add_obs(w, inst) : NULL;
}

/* A new observation of inst, which w has none of. */
static obs *add_obs(want *w, int inst)
{
    if (w->nobs == w->room) {
        int room = w->room == 0 ? 4 : w->room * 2;
        obs *o = realloc(w->o, (size_t)room * sizeof(*o));
        if (o == NULL)
            return NULL;
        w->o = o;
        w->room = room;
    }
    memset(&w->o[w->nobs], 0, sizeof(obs));
    w->o[w->nobs].inst = inst;
    return &w->o[w->nobs++];
}

/* Keep value v (of a set in format valfmt) as side's observation: a copy
 * of its block, or (ref, for blocks the cache holds) the block itself. */
static int keep(obs *o, int side, int valfmt, const pmValue *v, const struct timespec *t, int ref)
{
    o->have[side] = 1;
    o->t[side] = *t;
    if (valfmt == PM_VAL_INSITU) {
        o->lval[side] = v->value.lval;
        return 0;
    }
    if (v->value.pval->vlen < PM_VAL_HDR_SIZE)
        return PM_ERR_LOGREC;
    if (ref) {
        o->blk[side] = v->value.pval;
        return 0;
    }
    o->copy[side] = malloc(v->value.pval->vlen);
    if (o->copy[side] == NULL)
        return -ENOMEM;
    memcpy(o->copy[side], v->value.pval, v->value.pval->vlen);
    o->blk[side] = o->copy[side];
    return 0;
}

/* Is every metric's search on this side over? */
static int all_closed(const want *w, int n, int side)
{
    for (int i = 0; i < n; i++)
        if (!w[i].closed[side])
            return 0;
    return 1;
}

/* A metric's search on side is over when its nearest record was met and
 * every instance listed has its observation on that side. */
static void update_closed(want *w, int side)
{
    if (!w->done[side])
        return;
    for (int i = 0; i < w->nobs; i++)
        if (!w->o[i].have[side])
            return;
    w->closed[side] = 1;
}

/* The values of value set vs of a record at t for x on side (the blocks
 * referred to, not copied, with ref). */
static int take_vset(want *x, const pmValueSet *vs, const struct timespec *t, int side, int ref)
{
    if (x->pmid != vs->pmid || x->closed[side] || x->err < 0 || vs->numval <= 0)
        return 0;
    if (!x->done[side]) {
        x->done[side] = 1;
        x->valfmt = vs->valfmt;
    }
    for (int j = 0; j < vs->numval; j++) {
        obs *o = find_obs(x, vs->vlist[j].inst, 1);
        int sts;
        if (o == NULL)
            return -ENOMEM;
        if (o->have[side])
            continue;
        if ((sts = keep(o, side, vs->valfmt, &vs->vlist[j], t, ref)) < 0)
            return sts;
    }
    update_closed(x, side);
    return 0;
}

/* The values of one record for side. */
static int take_record(want *w, int n, const pmHighResResult *r, int side)
{
    for (int k = 0; k < r->numpmid; k++)
        for (int i = 0; i < n; i++) {
            int sts = take_vset(&w[i], r->vset[k], &r->timestamp, side, 0);
            if (sts < 0)
                return sts;
        }
    return 0;
}

/* Read records from t outwards on side until every metric is closed, a
 * mark, or the end of the archives; both: the side before t is searched
 * next (arch_cursor_both_ways). */
static int search(arch_set *s, arch_cursor *cur, const struct timespec *t, want *w, int n, int side,
                  int both)
{
    int dir = side == PRIOR ? ARCH_BACK : ARCH_FORW, sts, archive = -1;
    arch_record rec;

    for (int i = 0; i < n; i++)
        update_closed(&w[i], side);
    if (all_closed(w, n, side))
        return 0;
    if ((sts = arch_cursor_seek(cur, t, dir)) < 0)
        return sts;
    if (both)
        arch_cursor_both_ways(cur);
    while (!all_closed(w, n, side)) {
        pmHighResResult *r;
        if ((sts = arch_cursor_step(cur, dir, &rec)) < 0)
            return sts;
        if (sts == 0 || rec.numpmid == 0)
            break;
        if (archive >= 0 && rec.archive != archive)
            break; /* the step from one archive to the next is a gap */
        archive = rec.archive;
        if (side == PRIOR ? arch_cmp(&rec.stamp, t) > 0 : arch_cmp(&rec.stamp, t) < 0)
            continue;
        if ((sts = arch_record_result(s, &rec, &r)) < 0)
            return sts;
        sts = take_record(w, n, r, side);
        pmFreeHighResResult(r);
        if (sts < 0)
            return sts;
    }
    for (int i = 0; i < n; i++)
        w[i].closed[side] = w[i].done[side] = 1;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Values. */

static inline int is_numeric(int type)
{
    return type == PM_TYPE_32 || type == PM_TYPE_U32 || type == PM_TYPE_64 || type == PM_TYPE_U64 ||
           type == PM_TYPE_FLOAT || type == PM_TYPE_DOUBLE;
}

/* The numeric value of side as a double, and whether next < prior. */
static inline double as_double(const obs *o, int side, int type)
{
    const pmValueBlock *b = o->blk[side];
    int64_t i64;
    uint64_t u64;
    float f;
    double d;

    switch (type) {
    case PM_TYPE_32:
        return (double)o->lval[side];
    case PM_TYPE_U32:
        return (double)(uint32_t)o->lval[side];
    case PM_TYPE_64:
        memcpy(&i64, b->vbuf, 8);
        return (double)i64;
    case PM_TYPE_U64:
        memcpy(&u64, b->vbuf, 8);
        return (double)u64;
    case PM_TYPE_FLOAT:
        memcpy(&f, b->vbuf, 4);
        return (double)f;
    default:
        memcpy(&d, b->vbuf, 8);
        return d;
    }
}

static inline int block_ok(const obs *o, int side, int type)
{
    size_t need = type == PM_TYPE_FLOAT ? 4 : 8;

    if (type == PM_TYPE_32 || type == PM_TYPE_U32)
        return 1;
    return o->blk[side] != NULL && o->blk[side]->vlen >= PM_VAL_HDR_SIZE + need;
}

/* Did a counter go down from prior to next? */
static inline int went_down(const obs *o, int type)
{
    const pmValueBlock *p = o->blk[PRIOR], *q = o->blk[NEXT];
    int64_t a, b;
    uint64_t ua, ub;

    switch (type) {
    case PM_TYPE_32:
        return o->lval[NEXT] < o->lval[PRIOR];
    case PM_TYPE_U32:
        return (uint32_t)o->lval[NEXT] < (uint32_t)o->lval[PRIOR];
    case PM_TYPE_64:
        memcpy(&a, p->vbuf, 8);
        memcpy(&b, q->vbuf, 8);
        return b < a;
    case PM_TYPE_U64:
        memcpy(&ua, p->vbuf, 8);
        memcpy(&ub, q->vbuf, 8);
        return ub < ua;
    default:
        return as_double(o, NEXT, type) < as_double(o, PRIOR, type);
    }
}

/* A double to int32 as the x86 conversion Debian's library is built with
 * does it: truncated, and INT32_MIN when out of range. */
static int32_t to_int32(double v)
{
    if (!(v > -2147483649.0 && v < 2147483648.0))
        return INT32_MIN;
    return (int32_t)v;
}

static int64_t to_int64(double v)
{
    if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0))
        return INT64_MIN;
    return (int64_t)v;
}

/* The interpolated value of a counter into a value: lval (in place) or
 * the block at blk (room for 8 bytes of payload): the prior value plus
 * the share of the difference that t is of the span, integers rounded by
 * adding a half and truncating.  As Debian's: a PM_TYPE_32 difference
 * wraps as a 32-bit integer, a PM_TYPE_U32 one does not (a counter that
 * wrapped goes down). */
/* The times of an interpolation at t between a prior and a next, as
 * Debian's arithmetic has them: t - prior, next - prior and their ratio. */
typedef struct ispan {
    double dt, span, frac;
} ispan;

static ispan span_of(const struct timespec *prior, const struct timespec *next,
                     const struct timespec *t, const struct timespec *base)
{
    double tp = ts_off(prior, base), tn = ts_off(next, base);
    ispan x;

    x.dt = ts_off(t, base) - tp;
    x.span = tn - tp;
    x.frac = x.dt / x.span;
    return x;
}

static inline __attribute__((always_inline)) void
interpolate(const obs *o, int type, const ispan *sp, int32_t *lval, pmValueBlock *blk)
{
    double p = as_double(o, PRIOR, type), q = as_double(o, NEXT, type);
    double dt = sp->dt, span = sp->span, frac = sp->frac, v;
    size_t len = type == PM_TYPE_FLOAT ? 4 : 8;

    if (type == PM_TYPE_32) { /* the difference wraps as a 32-bit integer */
        double diff = (double)(int32_t)((uint32_t)o->lval[NEXT] - (uint32_t)o->lval[PRIOR]);
        *lval = to_int32(0.5 + p + frac * diff);
        return;
    }
    if (type == PM_TYPE_U32) {
        *lval = (int32_t)(uint32_t)to_int64(0.5 + p + frac * (q - p));
        return;
    }
    v = p + dt * (q - p) / span;
    blk->vtype = (unsigned)type;
    blk->vlen = (unsigned)(PM_VAL_HDR_SIZE + len);
    if (type == PM_TYPE_64) {
        int64_t x = to_int64(v + 0.5);
        memcpy(blk->vbuf, &x, 8);
    } else if (type == PM_TYPE_U64) {
        uint64_t x = v + 0.5 >= 18446744073709551616.0 ? 0 : (uint64_t)(v + 0.5);
        memcpy(blk->vbuf, &x, 8);
    } else if (type == PM_TYPE_FLOAT) {
        float x = (float)v;
        memcpy(blk->vbuf, &x, 4);
    } else {
        memcpy(blk->vbuf, &v, 8);
    }
}

/* ------------------------------------------------------------------ */
/* The value set of one metric. */

enum { NO_VALUE, THE_PRIOR, INTERPOLATED };

/* What o gives for w (of type) at t, and the bytes of block it takes
 * (*size); at_t: its prior is at t. */
static inline __attribute__((always_inline)) int value_kind_of(const want *w, int type,
                                                               const obs *o, int at_t, size_t *size)
{
    int sem = w->desc.sem;

    *size = 0;
    if (!o->have[PRIOR])
        return NO_VALUE;
    if (at_t) /* a record at t is its own next */
        goto prior;
    if (sem == PM_SEM_COUNTER && !is_numeric(type))
        return NO_VALUE;
    if (sem == PM_SEM_COUNTER) {
        if (!o->have[NEXT] || !block_ok(o, PRIOR, type) || !block_ok(o, NEXT, type))
            return NO_VALUE;
        if (type != PM_TYPE_U32 && type != PM_TYPE_32 && went_down(o, type))
            return NO_VALUE;
        if (type != PM_TYPE_U32 && type != PM_TYPE_32)
            *size = PM_VAL_HDR_SIZE + 8;
        return INTERPOLATED;
    }
    if (sem == PM_SEM_INSTANT && !o->have[NEXT])
        return NO_VALUE;
prior:
    if (w->valfmt == PM_VAL_INSITU)
        return THE_PRIOR;
    if (o->blk[PRIOR] == NULL) /* a value in place where blocks were met first */
        return NO_VALUE;
    *size = (o->blk[PRIOR]->vlen + 7u) & ~(size_t)7;
    return THE_PRIOR;
}

static int value_kind(const want *w, const obs *o, const struct timespec *t, size_t *size)
{
    int at_t = o->have[PRIOR] && arch_cmp(&o->t[PRIOR], t) == 0;

    return value_kind_of(w, w->desc.type, o, at_t, size);
}

/* What prof says of every instance of indom, when it says the same of
 * all (no entry for the domain: __pmInProfile's answer is the profile's
 * state): 1 all in, 0 none, -1 when each must be asked. */
static int profile_all(pmInDom indom, const pmProfile *prof)
{
    if (prof == NULL)
        return 1;
    for (int i = 0; i < prof->profile_len; i++)
        if (prof->profile[i].indom == indom)
            return -1;
    return prof->state == PM_PROFILE_INCLUDE;
}

/* The value set of w at t, the profile applied: one block, the values'
 * blocks inside it (pmFreeResult frees them with it). */
/* The value set of w when it has an error, or is a counter that is not a
 * number and any observation has both sides (any): 1 made, 0 not so, or
 * -ENOMEM. */
static int error_vset(const want *w, int any, pmValueSet **out)
{
    pmValueSet *vs;

    if (w->err >= 0 && (!any || w->desc.sem != PM_SEM_COUNTER || is_numeric(w->desc.type)))
        return 0;
    if ((vs = calloc(1, sizeof(*vs))) == NULL)
        return -ENOMEM;
    vs->pmid = w->pmid;
    /* PM_ID_NULL (a name pmLookupName did not find) has no values and
     * no error, as in Debian's interpolated fetches */
    vs->numval = w->pmid == PM_ID_NULL ? 0 : w->err < 0 ? w->err : PM_ERR_TYPE;
    *out = vs;
    return 1;
}

/* The value of o (of type, kind, size bytes of block) into v, its block
 * (if any) at p; sp: the interpolation's times. */
static inline __attribute__((always_inline)) void
put_value(const obs *o, int type, int kind, size_t size, const ispan *sp, pmValue *v, uint8_t *p)
{
    v->inst = o->inst;
    if (kind == INTERPOLATED) {
        interpolate(o, type, sp, &v->value.lval, (pmValueBlock *)p);
        if (size > 0)
            v->value.pval = (pmValueBlock *)p;
    } else if (size > 0) {
        memcpy(p, o->blk[PRIOR], o->blk[PRIOR]->vlen);
        v->value.pval = (pmValueBlock *)p;
    } else {
        v->value.lval = o->lval[PRIOR];
    }
}

/* The bytes before the blocks of a value set of n values. */
static size_t vset_head(int n)
{
    return (sizeof(pmValueSet) + (size_t)(n > 1 ? n - 1 : 0) * sizeof(pmValue) + 7) & ~(size_t)7;
}

/* make_vset_pair's values, for w of type: into vs from its vlist and p
 * on; how many. */
static inline __attribute__((always_inline)) int pair_values(const want *w, int type,
                                                             const struct timespec *t,
                                                             const struct timespec *base,
                                                             pmValueSet *vs, uint8_t *p)
{
    const pmValueSet *ps = w->pair[PRIOR], *ns = w->pair[NEXT];
    obs o = {.have = {1, 1}, .t = {w->pair_t[PRIOR], w->pair_t[NEXT]}};
    int at_t = arch_cmp(&w->pair_t[PRIOR], t) == 0, k = 0, insitu = ps->valfmt == PM_VAL_INSITU;
    ispan sp = at_t ? (ispan){0, 0, 0} : span_of(&w->pair_t[PRIOR], &w->pair_t[NEXT], t, base);

    for (int j = 0; j < ps->numval; j++) {
        size_t size;
        int kind;
        o.inst = ps->vlist[j].inst;
        if (insitu) {
            o.lval[PRIOR] = ps->vlist[j].value.lval;
            o.lval[NEXT] = ns->vlist[j].value.lval;
        } else {
            o.blk[PRIOR] = ps->vlist[j].value.pval;
            o.blk[NEXT] = ns->vlist[j].value.pval;
        }
        if ((kind = value_kind_of(w, type, &o, at_t, &size)) == NO_VALUE)
            continue;
        put_value(&o, type, kind, size, &sp, &vs->vlist[k++], p);
        p += size;
    }
    return k;
}

/* make_vset for a want answer_pair answered: the observations, made one
 * at a time from the two value sets, are those the searches would have
 * made; one pass (a loop for each common type), into a block of the most
 * bytes they can take. */
static int make_vset_pair(const want *w, const struct timespec *t, const struct timespec *base,
                          pmValueSet **out)
{
    int n = w->pair[PRIOR]->numval, k = 0, sts;
    size_t head = vset_head(n);
    pmValueSet *vs;
    uint8_t *p;

    if ((sts = error_vset(w, n > 0, out)) != 0)
        return sts < 0 ? sts : 0;
    if ((vs = calloc(1, head + w->pair_bytes)) == NULL)
        return -ENOMEM;
    vs->pmid = w->pmid;
    vs->valfmt = w->valfmt == PM_VAL_INSITU ? PM_VAL_INSITU : PM_VAL_DPTR;
    p = (uint8_t *)vs + head;
    if (w->pair_all > 0) {
        switch (w->desc.type) {
        case PM_TYPE_U64:
            k = pair_values(w, PM_TYPE_U64, t, base, vs, p);
            break;
        case PM_TYPE_64:
            k = pair_values(w, PM_TYPE_64, t, base, vs, p);
            break;
        case PM_TYPE_DOUBLE:
            k = pair_values(w, PM_TYPE_DOUBLE, t, base, vs, p);
            break;
        case PM_TYPE_U32:
            k = pair_values(w, PM_TYPE_U32, t, base, vs, p);
            break;
        case PM_TYPE_32:
            k = pair_values(w, PM_TYPE_32, t, base, vs, p);
            break;
        default:
            k = pair_values(w, w->desc.type, t, base, vs, p);
            break;
        }
    }
    vs->numval = k;
    if (k == 0)
        vs->valfmt = 0;
    *out = vs;
    return 0;
}

static int make_vset(want *w, const pmProfile *prof, const struct timespec *t,
                     const struct timespec *base, pmValueSet **out)
{
    size_t head, bytes = 0, size;
    int n = 0, any = 0, all, sts;
    pmValueSet *vs;
    uint8_t *p;
    ispan sp = {0, 0, 0};

    if (w->err >= 0 && w->desc.sem == PM_SEM_COUNTER && !is_numeric(w->desc.type))
        for (int i = 0; i < w->nobs; i++) /* (only such a counter asks) */
            any |= w->o[i].have[PRIOR] && w->o[i].have[NEXT];
    if ((sts = error_vset(w, any, out)) != 0)
        return sts < 0 ? sts : 0;
    all = profile_all(w->desc.indom, prof);
    for (int i = 0; i < w->nobs; i++) {
        obs *o = &w->o[i];
        o->kind = all > 0 || (all < 0 && __pmInProfile(w->desc.indom, prof, o->inst))
                      ? value_kind(w, o, t, &o->size)
                      : NO_VALUE;
        if (o->kind != NO_VALUE) {
            n++;
            bytes += o->size;
        }
    }
    head = vset_head(n);
    if ((vs = calloc(1, head + bytes)) == NULL)
        return -ENOMEM;
    vs->pmid = w->pmid;
    vs->valfmt = w->valfmt == PM_VAL_INSITU ? PM_VAL_INSITU : PM_VAL_DPTR;
    p = (uint8_t *)vs + head;
    n = 0;
    for (int i = 0; i < w->nobs; i++) {
        const obs *o = &w->o[i];
        if (o->kind == NO_VALUE)
            continue;
        size = o->size;
        if (o->kind == INTERPOLATED)
            sp = span_of(&o->t[PRIOR], &o->t[NEXT], t, base);
        put_value(o, w->desc.type, o->kind, size, &sp, &vs->vlist[n], p);
        p += size;
        n++;
    }
    vs->numval = n;
    if (n == 0)
        vs->valfmt = 0;
    *out = vs;
    return 0;
}

static int obs_cmp(const void *a, const void *b)
{
    int x = ((const obs *)a)->inst, y = ((const obs *)b)->inst;

    return (x > y) - (x < y);
}

static void free_copies(want *w)
{
    for (int j = 0; j < w->nobs; j++) {
        free(w->o[j].copy[PRIOR]);
        free(w->o[j].copy[NEXT]);
        w->o[j].copy[PRIOR] = w->o[j].copy[NEXT] = NULL;
    }
}

static void free_wants(want *w, int n)
{
    for (int i = 0; i < n; i++) {
        free_copies(&w[i]);
        free(w[i].o);
    }
    free(w);
}

/* The instances of w's domain (inst[0..n), its union: each once), the
 * profile applied, are looked for whether or not the nearest records hold
 * them, as Debian's library does; w has none yet.  Room for all of them
 * is made at once and, when the profile says the same of every instance
 * (profile_all), it is asked once, not once an instance. */
static int seed(const pmProfile *prof, const int *inst, int n, want *w)
{
    int all = profile_all(w->desc.indom, prof);

    if (n > w->room) {
        obs *o = realloc(w->o, (size_t)n * sizeof(*o));
        if (o == NULL)
            return -ENOMEM;
        w->o = o;
        w->room = n;
    }
    if (all == 0)
        return 0;
    for (int i = 0; i < n; i++)
        if (all > 0 || __pmInProfile(w->desc.indom, prof, inst[i]))
            w->o[w->nobs++] = (obs){.inst = inst[i]};
    return 0;
}

/* A metric's descriptor (or the error its value set will carry) and its
 * domain's union (*inst, malloc'd, or NULL and 0). */
static int describe(arch_set *s, want *w, int **inst)
{
    char **names;
    int n;

    *inst = NULL;
    if ((w->err = arch_desc(s, w->pmid, &w->desc)) < 0 || w->desc.type == PM_TYPE_EVENT ||
        w->desc.type == PM_TYPE_HIGHRES_EVENT) {
        if (w->err == 0)
            w->err = PM_ERR_TYPE;
        return 0;
    }
    if (w->desc.indom == PM_INDOM_NULL ||
        (n = arch_indom_union(s, w->desc.indom, inst, &names)) < 0)
        return 0;
    free(names);
    return n;
}

/* The value sets of w[0..n) at t, obs sorted. */
static int make_vsets(arch_set *s, want *w, int n, const pmProfile *prof, const struct timespec *t,
                      pmValueSet **vsets)
{
    int sts = 0;

    for (int i = 0; i < n && sts >= 0; i++) {
        int sorted = 1;
        if (w[i].pair[PRIOR] != NULL) {
            sts = make_vset_pair(&w[i], t, &arch_label_of(s, 0)->start, &vsets[i]);
            continue;
        }
        for (int j = 1; j < w[i].nobs && sorted; j++)
            sorted = w[i].o[j - 1].inst < w[i].o[j].inst;
        if (!sorted)
            qsort(w[i].o, (size_t)w[i].nobs, sizeof(obs), obs_cmp);
        sts = make_vset(&w[i], prof, t, &arch_label_of(s, 0)->start, &vsets[i]);
    }
    return sts;
}

/* A fetch from the records around t alone, read through cur. */
static int fetch_fresh(arch_set *s, arch_cursor *cur, const pmProfile *prof,
                       const struct timespec *t, int n, const pmID *pmids, pmValueSet **vsets)
{
    want *w = calloc((size_t)(n > 0 ? n : 1), sizeof(*w));
    int sts = 0;

    if (w == NULL)
        return -ENOMEM;
    for (int i = 0; i < n && sts >= 0; i++) {
        int *inst, ninst;
        w[i].pmid = pmids[i];
        ninst = describe(s, &w[i], &inst);
        if (w[i].err < 0)
            w[i].closed[PRIOR] = w[i].closed[NEXT] = 1;
        else
            sts = seed(prof, inst, ninst, &w[i]);
        free(inst);
    }
    /* the nearest records after t, then before it (and the priors of the
     * instances met after), then the nexts of the instances met before */
    if (sts >= 0)
        sts = search(s, cur, t, w, n, NEXT, 1);
    if (sts >= 0)
        sts = search(s, cur, t, w, n, PRIOR, 0);
    for (int i = 0; i < n && sts >= 0; i++)
        w[i].closed[NEXT] = 0;
    if (sts >= 0)
        sts = search(s, cur, t, w, n, NEXT, 0);
    if (sts >= 0)
        sts = make_vsets(s, w, n, prof, t, vsets);
    free_wants(w, n);
    return sts;
}

/* ------------------------------------------------------------------ */
/* The cache between fetches. */

/* A record read, shared by the events that refer to it. */
typedef struct crec {
    int refs;
    size_t bytes;
    pmHighResResult *r; /* in block */
    void *block;        /* arch_record_select_in's, of cap bytes */
    size_t cap;
} crec;

/* One record in a metric's timeline: its value set, or a <mark>. */
typedef struct cev {
    struct timespec t;
    crec *rec; /* NULL for a <mark> */
    const pmValueSet *vs;
} cev;

/* What the cache knows of the metric asked for in one place of the list:
 * every record with a time in [lo, hi] has been read, and ev[] holds, in
 * time order, those of them that are marks or hold values of it (none
 * before lo when at_start, none after hi when at_end). */
typedef struct cmetric {
    int *seed, nseed; /* its domain's union */
    int hint;         /* where its value set was in the last record */
    struct timespec lo, hi;
    int at_start, at_end;
    int nev, room;
    cev *ev;
    int need, got;        /* an extension's bookkeeping */
    int keep_lo, keep_hi; /* the events the last fetch's searches met */
    int keep_all[2];      /* ... or all of them, on that side */
} cmetric;

struct pmkit_interp_cache {
    int n, off;
    pmID *pmids;
    arch_pmids *sel; /* pmids, to select value sets by */
    want *w;         /* the wants, kept between fetches with their obs */
    cmetric *m;
    struct timespec end;
    arch_cursor *cur;
    int cur_dir;           /* ARCH_FORW or ARCH_BACK after a step, else 0 */
    struct timespec cur_t; /* the time of the record it then returned */
    int64_t gap;           /* least time between records read, ns (0: none yet) */
    size_t bytes;          /* of the records held */
    crec *spare[2];        /* records let go, their blocks kept for the next */
    int nspare;
};

/* Bounds (docs/compat.md): past these a fetch is made afresh. */
#define CACHE_MAX_EVENTS 4096
#define CACHE_MAX_BYTES  (64u << 20)
#define CACHE_JUMP       8 /* a jump of more than this many record gaps starts anew */

enum { NEED_FORW = 1, NEED_BACK = 2 };

static struct timespec ts_add(struct timespec a, int64_t ns)
{
    int64_t x = (int64_t)a.tv_nsec + ns % 1000000000;

    a.tv_sec += (time_t)(ns / 1000000000);
    while (x < 0) {
        x += 1000000000;
        a.tv_sec--;
    }
    while (x >= 1000000000) {
        x -= 1000000000;
        a.tv_sec++;
    }
    a.tv_nsec = (long)x;
    return a;
}

/* A record no event refers to any more is let go; two are kept, block
 * and all, for the next records read (no allocation then: reading record
 * after record, a fetch at small steps allocates nothing for them, nor
 * one that jumps, which lets go of the records either side of the time
 * before and reads the two around the new one). */
static void rec_release(pmkit_interp_cache *c, crec *r)
{
    if (r != NULL && --r->refs == 0) {
        c->bytes -= r->bytes;
        if (c->nspare < (int)(sizeof(c->spare) / sizeof(c->spare[0]))) {
            c->spare[c->nspare++] = r;
            return;
        }
        free(r->block);
        free(r);
    }
}

/* A record to read into: one kept, or a new one. */
static crec *rec_new(pmkit_interp_cache *c)
{
    crec *r;

    if (c->nspare == 0)
        return calloc(1, sizeof(*r));
    r = c->spare[--c->nspare];
    r->r = NULL;
    return r;
}

/* Forget a metric's timeline: nothing is known but around t (an empty
 * range there: lo = t, hi just before it). */
static void metric_reset(pmkit_interp_cache *c, cmetric *m, const struct timespec *t)
{
    for (int i = 0; i < m->nev; i++)
        rec_release(c, m->ev[i].rec);
    m->nev = 0;
    m->lo = *t;
    m->hi = ts_add(*t, -1);
    m->at_start = m->at_end = 0;
}

static void cache_clear(pmkit_interp_cache *c)
{
    for (int i = 0; i < c->n; i++) {
        metric_reset(c, &c->m[i], &c->end);
        free(c->m[i].ev);
        free(c->m[i].seed);
        free_copies(&c->w[i]);
        free(c->w[i].o);
    }
    free(c->m);
    free(c->w);
    free(c->pmids);
    arch_pmids_free(c->sel);
    while (c->nspare > 0) {
        crec *r = c->spare[--c->nspare];
        free(r->block);
        free(r);
    }
    c->m = NULL;
    c->w = NULL;
    c->pmids = NULL;
    c->sel = NULL;
    c->n = 0;
}

void pmkit_interp_cache_free(pmkit_interp_cache *c)
{
    if (c == NULL)
        return;
    cache_clear(c);
    arch_cursor_free(c->cur);
    free(c);
}

static int int_cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;

    return (x > y) - (x < y);
}

/* The cache for pmids[0..n) and end, made anew when the list or the end
 * differs from the last fetch's.  0, or -ENOMEM. */
static int cache_for(pmkit_interp_cache *c, arch_set *s, int n, const pmID *pmids,
                     const struct timespec *end, const struct timespec *t)
{
    if (c->n == n && arch_cmp(&c->end, end) == 0 &&
        (n == 0 || memcmp(c->pmids, pmids, (size_t)n * sizeof(pmID)) == 0))
        return 0;
    cache_clear(c);
    c->end = *end;
    c->pmids = malloc((size_t)(n > 0 ? n : 1) * sizeof(pmID));
    c->sel = arch_pmids_new(pmids, n);
    c->w = calloc((size_t)(n > 0 ? n : 1), sizeof(want));
    c->m = calloc((size_t)(n > 0 ? n : 1), sizeof(cmetric));
    if (c->pmids == NULL || c->sel == NULL || c->w == NULL || c->m == NULL) {
        cache_clear(c);
        return -ENOMEM;
    }
    c->n = n;
    for (int i = 0; i < n; i++) {
        c->pmids[i] = c->w[i].pmid = pmids[i];
        c->m[i].nseed = describe(s, &c->w[i], &c->m[i].seed);
        if (c->m[i].nseed > 1) /* the observations then come sorted */
            qsort(c->m[i].seed, (size_t)c->m[i].nseed, sizeof(int), int_cmp);
        metric_reset(c, &c->m[i], t);
    }
    return 0;
}

/* Add a record's event at the end (dir forward) or the start of m's
 * timeline, when it is a mark or holds values of m.  0, or -ENOMEM. */
static int add_event(cmetric *m, const want *w, crec *r, int mark, int dir, int *dup)
{
    const pmHighResResult *res = r->r;
    const pmValueSet *vs = NULL;
    cev *e;

    if (!mark) {
        if (m->hint < res->numpmid && res->vset[m->hint]->pmid == w->pmid) {
            vs = res->vset[m->hint];
        } else {
            for (int k = 0; k < res->numpmid; k++) {
                if (res->vset[k]->pmid != w->pmid)
                    continue;
                *dup |= vs != NULL; /* twice in one record: not modelled */
                vs = res->vset[k];
                m->hint = k;
            }
        }
        if (vs == NULL || vs->numval <= 0)
            return 0;
    }
    if (m->nev == m->room) {
        int room = m->room == 0 ? 4 : m->room * 2;
        cev *ev = realloc(m->ev, (size_t)room * sizeof(*ev));
        if (ev == NULL)
            return -ENOMEM;
        m->ev = ev;
        m->room = room;
    }
    if (dir > 0) {
        e = &m->ev[m->nev];
    } else {
        memmove(&m->ev[1], &m->ev[0], (size_t)m->nev * sizeof(*e));
        e = &m->ev[0];
    }
    m->nev++;
    m->got++;
    e->t = res->timestamp;
    e->vs = vs;
    e->rec = vs != NULL ? r : NULL;
    if (vs != NULL)
        r->refs++;
    return 0;
}

/* Is metric m's known range next to a record at t just read in direction
 * dir, the records between b and t being none?  Forward: b <= hi < t;
 * backward: t < lo <= b. */
static int adjacent(const cmetric *m, int dir, const struct timespec *b, const struct timespec *t)
{
    if (dir > 0)
        return !m->at_end && arch_cmp(b, &m->hi) <= 0 && arch_cmp(&m->hi, t) < 0;
    return !m->at_start && arch_cmp(t, &m->lo) < 0 && arch_cmp(&m->lo, b) <= 0;
}

/* Give record rec (at t) to every metric that needs records that way,
 * has not got `least' events yet, and whose range it extends: a metric
 * logged once then makes no other metric keep every record up to an end. */
static int offer(pmkit_interp_cache *c, arch_set *s, const arch_record *rec, int dir,
                 const struct timespec *b, int least)
{
    crec *r = NULL;
    int sts = 0, dup = 0;

    for (int i = 0; i < c->n && sts == 0; i++) {
        cmetric *m = &c->m[i];
        if (m->need != dir || m->got >= least || !adjacent(m, dir, b, &rec->stamp))
            continue; /* only to the metrics still short of records */
        if (r == NULL) {
            if ((r = rec_new(c)) == NULL)
                return -ENOMEM;
            if ((sts = arch_record_select_in(s, rec, c->sel, &r->block, &r->cap, &r->r)) < 0) {
                r->refs = 1;
                r->bytes = 0;
                rec_release(c, r);
                return sts;
            }
            r->bytes = rec->len;
        }
        if (c->w[i].err >= 0 && (sts = add_event(m, &c->w[i], r, rec->numpmid == 0, dir, &dup)) < 0)
            break;
        if (dir > 0)
            m->hi = rec->stamp;
        else
            m->lo = rec->stamp;
        if (m->nev > CACHE_MAX_EVENTS)
            c->off = 1;
    }
    if (r != NULL) {
        c->bytes += r->bytes;
        r->refs++;
        rec_release(c, r);
    }
    if (dup || c->bytes > CACHE_MAX_BYTES)
        c->off = 1;
    return sts;
}

/* Place the cache's cursor to read in direction dir from the metrics'
 * ranges that need it, the nearest first: *b is then the time past which
 * (forward; before which, backward) no record was passed over.  When
 * those ranges are all empty (new at a time), the reading back from the
 * same place that follows the first forward is said to the cursor. */
static int place(pmkit_interp_cache *c, int dir, struct timespec *b)
{
    struct timespec from;
    int first = 1, empty = 1, sts;

    for (int i = 0; i < c->n; i++) {
        const cmetric *m = &c->m[i];
        struct timespec x = dir > 0 ? m->hi : m->lo;
        if (m->need != dir)
            continue;
        if (first || (dir > 0 ? arch_cmp(&x, b) < 0 : arch_cmp(&x, b) > 0))
            *b = x;
        first = 0;
        empty &= m->nev == 0;
    }
    if (c->cur_dir == dir && arch_cmp(&c->cur_t, b) == 0)
        return 0; /* the cursor is just past that record already */
    c->cur_dir = 0;
    from = ts_add(*b, dir);
    if ((sts = arch_cursor_seek(c->cur, &from, dir)) == 0 && dir > 0 && empty)
        arch_cursor_both_ways(c->cur);
    return sts;
}

/*
 * The <mark> between two archives of a set, met going backward before the
 * earlier archive's last record (rec): the cursor makes it a millisecond
 * before the later archive's first record, but a fetch afresh places
 * itself by reading forward, where the mark is a millisecond after rec,
 * and a time between the two has rec for its prior; so the timelines get
 * the mark at that time, whichever way they are read.  *b moves to it.
 */
static int mark_between(pmkit_interp_cache *c, arch_set *s, const arch_record *rec,
                        struct timespec *b, int least)
{
    arch_record mark = *rec;
    int sts;

    mark.vol = -1;
    mark.numpmid = 0;
    mark.len = 0;
    mark.body = NULL;
    mark.stamp = ts_add(rec->stamp, 1000000);
    if (arch_cmp(&mark.stamp, b) >= 0) {
        c->off = 1; /* archives less than that apart: not modelled */
        return 0;
    }
    if ((sts = offer(c, s, &mark, ARCH_BACK, b, least)) < 0) {
        c->cur_dir = 0;
        return sts;
    }
    *b = mark.stamp;
    return 0;
}

/* Read records in direction dir into the ranges of the metrics that need
 * it, until each has at least `least' more events or its range ends.
 * When none of them gained anything the cache is at fault: it is turned
 * off (a fetch afresh answers). */
static int extend(pmkit_interp_cache *c, arch_set *s, int dir, int least)
{
    struct timespec b = {0, 0};
    arch_record rec;
    int sts, more = 1, mark_back = 0;

    for (int i = 0; i < c->n; i++)
        if (c->m[i].need == dir)
            c->m[i].got = 0;
    if ((sts = place(c, dir, &b)) < 0)
        return sts;
    while (more && !c->off) {
        if ((sts = arch_cursor_step(c->cur, dir, &rec)) < 0) {
            c->cur_dir = 0;
            return sts;
        }
        if (sts > 0 && rec.vol < 0 && dir < 0) {
            mark_back = 1; /* the <mark> between two archives: see below */
            continue;
        }
        if (sts > 0 && mark_back) {
            int err = mark_between(c, s, &rec, &b, least);
            mark_back = 0;
            if (err < 0 || c->off)
                return err;
        }
        if (sts == 0) { /* an end: the ranges next to it reach it */
            for (int i = 0; i < c->n; i++) {
                cmetric *m = &c->m[i];
                if (dir > 0 && arch_cmp(&b, &m->hi) <= 0)
                    m->at_end = m->got = 1;
                if (dir < 0 && arch_cmp(&m->lo, &b) <= 0)
                    m->at_start = m->got = 1;
            }
            c->cur_dir = 0;
            return 0;
        }
        if (dir > 0 ? arch_cmp(&rec.stamp, &b) <= 0 : arch_cmp(&rec.stamp, &b) >= 0) {
            c->off = 1; /* records out of time order: not modelled */
            return 0;
        }
        if (c->cur_dir == dir) {
            int64_t g = dir > 0 ? arch_ns_between(&rec.stamp, &b) : arch_ns_between(&b, &rec.stamp);
            if (c->gap == 0 || g < c->gap)
                c->gap = g;
        }
        if ((sts = offer(c, s, &rec, dir, &b, least)) < 0) {
            c->cur_dir = 0;
            return sts;
        }
        b = c->cur_t = rec.stamp;
        c->cur_dir = dir;
        more = 0;
        for (int i = 0; i < c->n && !more; i++)
            more = c->m[i].need == dir && c->m[i].got < least;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* The searches of a fetch over a metric's timeline. */

/* The index of the first event at or after t. */
static int ev_at_or_after(const cmetric *m, const struct timespec *t)
{
    int lo = 0, hi = m->nev;

    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (arch_cmp(&m->ev[mid].t, t) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* search() over m's timeline for x: 0, NEED_FORW or NEED_BACK when the
 * timeline ends before the search does, or an error. */
static int walk(cmetric *m, want *x, const struct timespec *t, int side)
{
    int i, step, sts;

    update_closed(x, side);
    if (x->closed[side])
        goto over;
    /* forwards from the first event at or after t, backwards from the
     * last at or before it */
    step = side == NEXT ? 1 : -1;
    i = ev_at_or_after(m, t);
    if (side != NEXT && i < m->nev && arch_cmp(&m->ev[i].t, t) == 0)
        i++;
    if (side != NEXT)
        i--;
    for (; i >= 0 && i < m->nev; i += step) {
        if (side == NEXT && i > m->keep_hi)
            m->keep_hi = i;
        if (side != NEXT && i < m->keep_lo)
            m->keep_lo = i;
        if (m->ev[i].rec == NULL)
            goto over;
        if ((sts = take_vset(x, m->ev[i].vs, &m->ev[i].t, side, 1)) < 0)
            return sts;
        if (x->closed[side])
            goto over;
    }
    if (side == NEXT ? !m->at_end : !m->at_start)
        return side == NEXT ? NEED_FORW : NEED_BACK;
    m->keep_all[side] = 1;
over:
    x->closed[side] = x->done[side] = 1;
    return 0;
}

/*
 * The common case of answer(), without its searches: the events nearest t
 * either way (one event, at t) hold values of the same instances, in the
 * same strictly ascending order and the same format, every instance seeded
 * among them, and the profile says the same of the whole domain.  The
 * searches would stop at those two events (each closes there, every
 * instance met having its observation) and keep them alone, and the
 * observations would be the two value sets' values: x gets the sets
 * (make_vset_pair makes the observations from them).  1 when so answered,
 * 0 when not that case.
 */
static int answer_pair(cmetric *m, want *x, const pmProfile *prof, const struct timespec *t)
{
    int in = ev_at_or_after(m, t), ip, n, k = 0, all;
    const pmValueSet *p, *q;
    size_t bytes = 0;

    if (in >= m->nev)
        return 0;
    ip = arch_cmp(&m->ev[in].t, t) == 0 ? in : in - 1;
    if (ip < 0 || m->ev[ip].rec == NULL || m->ev[in].rec == NULL)
        return 0;
    p = m->ev[ip].vs;
    q = m->ev[in].vs;
    n = p->numval;
    if (q->numval != n || q->valfmt != p->valfmt || (all = profile_all(x->desc.indom, prof)) < 0)
        return 0;
    for (int j = 0; j < n; j++) {
        int inst = p->vlist[j].inst;
        if (q->vlist[j].inst != inst || (j > 0 && inst <= p->vlist[j - 1].inst))
            return 0;
        if (all > 0 && k < m->nseed && m->seed[k] <= inst) {
            if (m->seed[k] != inst)
                return 0; /* a seeded instance neither event holds */
            k++;
        }
        if (p->valfmt != PM_VAL_INSITU) {
            uint32_t vlen = p->vlist[j].value.pval->vlen;
            if (vlen < PM_VAL_HDR_SIZE || q->vlist[j].value.pval->vlen < PM_VAL_HDR_SIZE)
                return 0; /* (keep's error, which the searches then meet) */
            /* value_kind's sizes: the prior's block's, or an
             * interpolated number's */
            size_t r = ((size_t)vlen + 7) & ~(size_t)7;
            bytes += r > PM_VAL_HDR_SIZE + 8 ? r : PM_VAL_HDR_SIZE + 8;
        }
    }
    if (all > 0 && k < m->nseed)
        return 0;
    x->pair[PRIOR] = p;
    x->pair[NEXT] = q;
    x->pair_t[PRIOR] = m->ev[ip].t;
    x->pair_t[NEXT] = m->ev[in].t;
    x->pair_bytes = bytes;
    x->pair_all = all;
    x->valfmt = p->valfmt;
    m->keep_lo = ip;
    m->keep_hi = in;
    return 1;
}

/*
 * Would walk(NEXT), after seed(), close at event in, the first at or after
 * t?  The common case, told without seeding or taking values: the event
 * holds values (not a mark), listed in strictly ascending order of
 * instance up to the last instance seed() would list, each of which is
 * among them.  0 when not so, or not sure.
 */
static int next_closes(const cmetric *m, const want *x, const pmProfile *prof, int in)
{
    const pmValueSet *vs;
    int all, k = 0;

    if (in >= m->nev || m->ev[in].rec == NULL || (vs = m->ev[in].vs)->numval <= 0 ||
        (all = profile_all(x->desc.indom, prof)) < 0)
        return 0;
    if (all == 0)
        return 1; /* nothing seeded: the first values close it */
    for (int j = 0; j < vs->numval && k < m->nseed; j++) {
        int inst = vs->vlist[j].inst;
        if ((j > 0 && inst <= vs->vlist[j - 1].inst) || m->seed[k] < inst)
            return 0;
        k += m->seed[k] == inst;
    }
    return k == m->nseed;
}

/* fetch_fresh()'s searches for one metric, over its timeline. */
static int answer(cmetric *m, want *x, const pmProfile *prof, const struct timespec *t)
{
    int sts;

    x->nobs = x->hint = 0;
    x->valfmt = 0;
    x->pair[PRIOR] = NULL;
    x->done[PRIOR] = x->done[NEXT] = x->closed[PRIOR] = x->closed[NEXT] = 0;
    m->keep_lo = m->nev;
    m->keep_hi = -1;
    m->keep_all[PRIOR] = m->keep_all[NEXT] = 0;
    if (x->err < 0)
        return 0;
    if (!m->at_start && arch_cmp(&m->lo, t) > 0)
        return NEED_BACK; /* records between t and the range not read */
    if (!m->at_end && arch_cmp(&m->hi, t) < 0)
        return NEED_FORW; /* (the instances are seeded once it can answer) */
    if (answer_pair(m, x, prof, t))
        return 0;
    /* no event at or before t (a jump has just read the first record
     * after it): when the search forward would close at that record, the
     * search back would then ask for the records before t, as it does */
    if (!m->at_start && m->nev > 0 && arch_cmp(&m->ev[0].t, t) > 0 && next_closes(m, x, prof, 0))
        return NEED_BACK;
    if ((sts = seed(prof, m->seed, m->nseed, x)) < 0)
        return sts;
    if ((sts = walk(m, x, t, NEXT)) != 0 || (sts = walk(m, x, t, PRIOR)) != 0)
        return sts;
    x->closed[NEXT] = 0;
    return walk(m, x, t, NEXT);
}

/* Drop the events of m the last fetch's searches did not reach. */
static void trim(pmkit_interp_cache *c, cmetric *m)
{
    int lo = m->keep_all[PRIOR] ? 0 : m->keep_lo, hi = m->keep_all[NEXT] ? m->nev - 1 : m->keep_hi;

    if (hi < m->nev - 1 && hi >= 0 && hi >= lo) {
        for (int i = hi + 1; i < m->nev; i++)
            rec_release(c, m->ev[i].rec);
        m->nev = hi + 1;
        m->hi = m->ev[hi].t;
        m->at_end = 0;
    }
    if (lo > 0 && lo < m->nev) {
        for (int i = 0; i < lo; i++)
            rec_release(c, m->ev[i].rec);
        memmove(&m->ev[0], &m->ev[lo], (size_t)(m->nev - lo) * sizeof(cev));
        m->nev -= lo;
        m->lo = m->ev[0].t;
        m->at_start = 0;
    }
}

/* A range far from t is forgotten: reading up to t would cost more than
 * finding t afresh. */
static void near(pmkit_interp_cache *c, cmetric *m, const struct timespec *t)
{
    int64_t width = arch_ns_between(&m->hi, &m->lo), wide = width > c->gap ? width : c->gap,
            jump = wide > INT64_MAX / CACHE_JUMP ? INT64_MAX : wide * CACHE_JUMP;

    if ((!m->at_end && arch_cmp(t, &m->hi) > 0 && arch_ns_between(t, &m->hi) > jump) ||
        (!m->at_start && arch_cmp(t, &m->lo) < 0 && arch_ns_between(&m->lo, t) > jump))
        metric_reset(c, m, t);
}

/* How many events an extension asks of each metric, after k that way:
 * 1, 2, 4, ... 64 (k counted). */
static int more(int *k)
{
    int n = 1 << (*k < 6 ? *k : 6);

    ++*k;
    return n;
}

/* The cached fetch: 1 done, 0 when the cache cannot answer (a set or a
 * metric it does not model, a bound passed, or an error reading the
 * records, which the fetch afresh then meets or not as it reads), or
 * -ENOMEM making the value sets. */
static int fetch_cached(pmkit_interp_cache *c, arch_set *s, const pmProfile *prof,
                        const struct timespec *t, pmValueSet **vsets)
{
    int sts, pending = 1, ext[2] = {0, 0}; /* extensions made back, forward */

    for (int i = 0; i < c->n; i++) {
        near(c, &c->m[i], t);
        c->m[i].need = -1; /* to answer */
    }
    while (pending) {
        int need[2] = {0, 0};
        pending = 0;
        for (int i = 0; i < c->n; i++) {
            cmetric *m = &c->m[i];
            if (m->need == 0)
                continue; /* (its wants hold no copies: walk refers to the cache's blocks) */
            if ((sts = answer(m, &c->w[i], prof, t)) < 0)
                return 0; /* the fetch afresh says what is wrong */
            m->need = sts == NEED_FORW ? ARCH_FORW : sts == NEED_BACK ? ARCH_BACK : 0;
            need[0] |= m->need < 0;
            need[1] |= m->need > 0;
            pending |= m->need != 0;
        }
        /* read more, a record then twice as many each time that way */
        if ((need[1] && extend(c, s, ARCH_FORW, more(&ext[1])) < 0) ||
            (need[0] && extend(c, s, ARCH_BACK, more(&ext[0])) < 0))
            return 0; /* the same */
        for (int i = 0, gained = 0; i < c->n && pending && !c->off; i++) {
            gained |= c->m[i].need != 0 && c->m[i].got > 0;
            if (i == c->n - 1 && !gained)
                c->off = 1;
        }
        if (c->off)
            return 0;
    }
    if ((sts = make_vsets(s, c->w, c->n, prof, t, vsets)) < 0)
        return sts;
    for (int i = 0; i < c->n; i++)
        trim(c, &c->m[i]);
    return 1;
}

int pmkit_interp_fetch(arch_set *s, arch_cursor *cur, pmkit_interp_cache **cache,
                       const pmProfile *prof, const struct timespec *t, const struct timespec *end,
                       int n, const pmID *pmids, pmValueSet **vsets)
{
    pmkit_interp_cache *c = *cache;
    int sts;

    if (c == NULL) {
        const char *e = getenv("PMKIT_INTERP_CACHE");
        if ((c = calloc(1, sizeof(*c))) != NULL && (c->cur = arch_cursor_new(s)) == NULL) {
            free(c);
            c = NULL;
        }
        if (c != NULL && e != NULL && strcmp(e, "0") == 0)
            c->off = 1;
        *cache = c;
    }
    if (c != NULL && !c->off) {
        if ((sts = cache_for(c, s, n, pmids, end, t)) < 0)
            return sts;
        if ((sts = fetch_cached(c, s, prof, t, vsets)) != 0)
            return sts < 0 ? sts : 0;
        cache_clear(c); /* a fetch afresh answers, from now on */
        c->off = 1;
    }
    return fetch_fresh(s, cur, prof, t, n, pmids, vsets);
}
