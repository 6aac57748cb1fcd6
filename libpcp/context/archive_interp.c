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
 * How: the cursor is placed at t through the temporal index (O(log n) in
 * the archive's length), then records are read outwards from t only until
 * every metric and instance has its observations, so the cost of a fetch
 * does not grow with the step between fetches, and memory holds the
 * values of the metrics asked for, nothing of the archive's length.  Not
 * yet: a metric or instance absent from the records near t (logged once,
 * or gone) is looked for as far as the nearest mark or end on each fetch;
 * a cache of those searches between fetches would bound that too.
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
} obs;

/* What is known of one metric asked for. */
typedef struct want {
    pmID pmid;
    pmDesc desc;
    int err;     /* numval when < 0 */
    int done[2]; /* the nearest record each way was met (or a mark, an end) */
    int closed[2];
    int valfmt;
    int nobs, room;
    obs *o;
} want;

enum { PRIOR = 0, NEXT = 1 };

static int ts_cmp(const struct timespec *a, const struct timespec *b)
{
    if (a->tv_sec != b->tv_sec)
        return a->tv_sec < b->tv_sec ? -1 : 1;
    return (a->tv_nsec > b->tv_nsec) - (a->tv_nsec < b->tv_nsec);
}

/* A time as Debian's interpolation holds it: seconds since base (the
 * first archive's start) in a double; differences of these have its
 * rounding, to the last bit of an interpolated double. */
static double ts_off(const struct timespec *a, const struct timespec *base)
{
    return (double)((int64_t)(a->tv_sec - base->tv_sec) * 1000000000 +
                    (a->tv_nsec - base->tv_nsec)) /
           1e9;
}

static obs *find_obs(want *w, int inst, int add)
{
    for (int i = 0; i < w->nobs; i++)
        if (w->o[i].inst == inst)
            return &w->o[i];
    if (!add)
        return NULL;
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

/* Keep value v (of a set in format valfmt) as side's observation. */
static int keep(obs *o, int side, int valfmt, const pmValue *v, const struct timespec *t)
{
    o->have[side] = 1;
    o->t[side] = *t;
    if (valfmt == PM_VAL_INSITU) {
        o->lval[side] = v->value.lval;
        return 0;
    }
    if (v->value.pval->vlen < PM_VAL_HDR_SIZE)
        return PM_ERR_LOGREC;
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

/* The values of one record for side. */
static int take_record(want *w, int n, const pmHighResResult *r, int side)
{
    for (int k = 0; k < r->numpmid; k++) {
        const pmValueSet *vs = r->vset[k];
        for (int i = 0; i < n; i++) {
            want *x = &w[i];
            if (x->pmid != vs->pmid || x->closed[side] || x->err < 0)
                continue;
            if (vs->numval <= 0)
                continue;
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
                if ((sts = keep(o, side, vs->valfmt, &vs->vlist[j], &r->timestamp)) < 0)
                    return sts;
            }
            update_closed(x, side);
        }
    }
    return 0;
}

/* Read records from t outwards on side until every metric is closed, a
 * mark, or the end of the archives. */
static int search(arch_set *s, arch_cursor *cur, const struct timespec *t, want *w, int n, int side)
{
    int dir = side == PRIOR ? ARCH_BACK : ARCH_FORW, sts, archive = -1;
    arch_record rec;

    for (int i = 0; i < n; i++)
        update_closed(&w[i], side);
    if (all_closed(w, n, side))
        return 0;
    if ((sts = arch_cursor_seek(cur, t, dir)) < 0)
        return sts;
    while (!all_closed(w, n, side)) {
        pmHighResResult *r;
        if ((sts = arch_cursor_step(cur, dir, &rec)) < 0)
            return sts;
        if (sts == 0 || rec.numpmid == 0)
            break;
        if (archive >= 0 && rec.archive != archive)
            break; /* the step from one archive to the next is a gap */
        archive = rec.archive;
        if (side == PRIOR ? ts_cmp(&rec.stamp, t) > 0 : ts_cmp(&rec.stamp, t) < 0)
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

static int is_numeric(int type)
{
    return type == PM_TYPE_32 || type == PM_TYPE_U32 || type == PM_TYPE_64 || type == PM_TYPE_U64 ||
           type == PM_TYPE_FLOAT || type == PM_TYPE_DOUBLE;
}

/* The numeric value of side as a double, and whether next < prior. */
static double as_double(const obs *o, int side, int type)
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

static int block_ok(const obs *o, int side, int type)
{
    size_t need = type == PM_TYPE_FLOAT ? 4 : 8;

    if (type == PM_TYPE_32 || type == PM_TYPE_U32)
        return 1;
    return o->blk[side] != NULL && o->blk[side]->vlen >= PM_VAL_HDR_SIZE + need;
}

/* Did a counter go down from prior to next? */
static int went_down(const obs *o, int type)
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

/* The interpolated value of a counter into a value: lval (in place) or a
 * new block in *blk: the prior value plus the share of the difference
 * that t is of the span, integers rounded by adding a half and truncating.
 * As Debian's: a PM_TYPE_32 difference wraps as a 32-bit integer, a
 * PM_TYPE_U32 one does not (a counter that wrapped goes down). */
static int interpolate(const obs *o, int type, const struct timespec *t,
                       const struct timespec *base, int32_t *lval, pmValueBlock **blk)
{
    double p = as_double(o, PRIOR, type), q = as_double(o, NEXT, type);
    double tp = ts_off(&o->t[PRIOR], base), tn = ts_off(&o->t[NEXT], base);
    double dt = ts_off(t, base) - tp, span = tn - tp, frac = dt / span, v;
    size_t len = type == PM_TYPE_FLOAT ? 4 : 8;

    if (type == PM_TYPE_32) { /* the difference wraps as a 32-bit integer */
        double diff = (double)(int32_t)((uint32_t)o->lval[NEXT] - (uint32_t)o->lval[PRIOR]);
        *lval = to_int32(0.5 + p + frac * diff);
        return 0;
    }
    if (type == PM_TYPE_U32) {
        *lval = (int32_t)(uint32_t)to_int64(0.5 + p + frac * (q - p));
        return 0;
    }
    v = p + dt * (q - p) / span;
    if ((*blk = malloc(PM_VAL_HDR_SIZE + len)) == NULL)
        return -ENOMEM;
    (*blk)->vtype = (unsigned)type;
    (*blk)->vlen = (unsigned)(PM_VAL_HDR_SIZE + len);
    if (type == PM_TYPE_64) {
        int64_t x = to_int64(v + 0.5);
        memcpy((*blk)->vbuf, &x, 8);
    } else if (type == PM_TYPE_U64) {
        uint64_t x = v + 0.5 >= 18446744073709551616.0 ? 0 : (uint64_t)(v + 0.5);
        memcpy((*blk)->vbuf, &x, 8);
    } else if (type == PM_TYPE_FLOAT) {
        float x = (float)v;
        memcpy((*blk)->vbuf, &x, 4);
    } else {
        memcpy((*blk)->vbuf, &v, 8);
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* The value set of one metric. */

/* The value of o for w, or 0 for none: 1 and *lval or *blk (new). */
static int value_of(const want *w, const obs *o, const struct timespec *t,
                    const struct timespec *base, int32_t *lval, pmValueBlock **blk)
{
    int type = w->desc.type, sem = w->desc.sem, sts;

    *blk = NULL;
    if (!o->have[PRIOR])
        return 0;
    if (ts_cmp(&o->t[PRIOR], t) == 0) /* a record at t is its own next */
        goto prior;
    if (sem == PM_SEM_COUNTER && !is_numeric(type))
        return 0;
    if (sem == PM_SEM_COUNTER) {
        if (!o->have[NEXT] || !block_ok(o, PRIOR, type) || !block_ok(o, NEXT, type))
            return 0;
        if (type != PM_TYPE_U32 && type != PM_TYPE_32 && went_down(o, type))
            return 0;
        if ((sts = interpolate(o, type, t, base, lval, blk)) < 0)
            return sts;
        return 1;
    }
    if (sem == PM_SEM_INSTANT && !o->have[NEXT])
        return 0;
prior:
    if (w->valfmt == PM_VAL_INSITU) {
        *lval = o->lval[PRIOR];
        return 1;
    }
    *blk = malloc(o->blk[PRIOR]->vlen);
    if (*blk == NULL)
        return -ENOMEM;
    memcpy(*blk, o->blk[PRIOR], o->blk[PRIOR]->vlen);
    return 1;
}

/* The value set of w at t, the profile applied; blocks are malloc'd apart
 * and freed with the set by pmFreeResult's rules (PM_VAL_DPTR). */
static int make_vset(const want *w, const pmProfile *prof, const struct timespec *t,
                     const struct timespec *base, pmValueSet **out)
{
    int n = 0, sts;
    pmValueSet *vs;

    int any = 0;

    for (int i = 0; i < w->nobs; i++)
        any |= w->o[i].have[PRIOR] && w->o[i].have[NEXT];
    if (w->err < 0 || (w->desc.sem == PM_SEM_COUNTER && !is_numeric(w->desc.type) && any)) {
        if ((vs = calloc(1, sizeof(*vs))) == NULL)
            return -ENOMEM;
        vs->pmid = w->pmid;
        vs->numval = w->err < 0 ? w->err : PM_ERR_TYPE;
        *out = vs;
        return 0;
    }
    vs = calloc(1, sizeof(*vs) + (size_t)(w->nobs > 0 ? w->nobs : 1) * sizeof(pmValue));
    if (vs == NULL)
        return -ENOMEM;
    vs->pmid = w->pmid;
    vs->valfmt = w->valfmt == PM_VAL_INSITU ? PM_VAL_INSITU : PM_VAL_DPTR;
    for (int i = 0; i < w->nobs; i++) {
        const obs *o = &w->o[i];
        int32_t lval = 0;
        pmValueBlock *blk;
        if (!__pmInProfile(w->desc.indom, prof, o->inst))
            continue;
        if ((sts = value_of(w, o, t, base, &lval, &blk)) < 0) {
            vs->numval = n;
            pmkit_free_vsets(&vs, 1);
            return sts;
        }
        if (sts == 0)
            continue;
        vs->vlist[n].inst = o->inst;
        if (blk != NULL)
            vs->vlist[n].value.pval = blk;
        else
            vs->vlist[n].value.lval = lval;
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

static void free_wants(want *w, int n)
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < w[i].nobs; j++) {
            free(w[i].o[j].copy[PRIOR]);
            free(w[i].o[j].copy[NEXT]);
        }
        free(w[i].o);
    }
    free(w);
}

/* The instances of w's domain at t (the profile applied) are looked for
 * whether or not the nearest records hold them, as Debian's library does. */
static int seed(arch_set *s, const pmProfile *prof, const struct timespec *t, want *w)
{
    int *inst, n, sts = 0;
    char **names;

    (void)t;
    if (w->desc.indom == PM_INDOM_NULL ||
        (n = arch_indom_union(s, w->desc.indom, &inst, &names)) < 0)
        return 0;
    for (int i = 0; i < n && sts == 0; i++)
        if (__pmInProfile(w->desc.indom, prof, inst[i]) && find_obs(w, inst[i], 1) == NULL)
            sts = -ENOMEM;
    free(inst);
    free(names);
    return sts;
}

int pmkit_interp_fetch(arch_set *s, arch_cursor *cur, const pmProfile *prof,
                       const struct timespec *t, int n, const pmID *pmids, pmValueSet **vsets)
{
    want *w = calloc((size_t)(n > 0 ? n : 1), sizeof(*w));
    int sts = 0;

    if (w == NULL)
        return -ENOMEM;
    for (int i = 0; i < n; i++) {
        w[i].pmid = pmids[i];
        if ((w[i].err = arch_desc(s, pmids[i], &w[i].desc)) < 0 ||
            w[i].desc.type == PM_TYPE_EVENT || w[i].desc.type == PM_TYPE_HIGHRES_EVENT) {
            if (w[i].err == 0)
                w[i].err = PM_ERR_TYPE;
            w[i].closed[PRIOR] = w[i].closed[NEXT] = 1;
        } else if ((sts = seed(s, prof, t, &w[i])) < 0) {
            free_wants(w, n);
            return sts;
        }
    }
    /* the nearest records after t, then before it (and the priors of the
     * instances met after), then the nexts of the instances met before */
    if ((sts = search(s, cur, t, w, n, NEXT)) >= 0)
        sts = search(s, cur, t, w, n, PRIOR);
    for (int i = 0; i < n && sts >= 0; i++)
        w[i].closed[NEXT] = 0;
    if (sts >= 0)
        sts = search(s, cur, t, w, n, NEXT);
    for (int i = 0; i < n && sts >= 0; i++) {
        if (w[i].nobs > 1)
            qsort(w[i].o, (size_t)w[i].nobs, sizeof(obs), obs_cmp);
        sts = make_vset(&w[i], prof, t, &arch_label_of(s, 0)->start, &vsets[i]);
    }
    free_wants(w, n);
    return sts;
}
