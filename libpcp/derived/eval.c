/*
 * eval.c - the values of a bound derived metric from one fetch of its
 * operands, with PCP's arithmetic (probed from Debian's libpcp 6.0.3):
 *
 *   - operands are converted to the result's type (PCP's table; integer
 *     conversions wrap as C's do, through 64 bits) and the operation done
 *     in that type: integers wrap, FLOAT is float arithmetic, division
 *     is double and 0 divided by anything is 0 (not NaN or -0); a
 *     comparison is done in the type the arithmetic would have used and
 *     gives 0 or 1; operands that need rescaling are doubles times their
 *     factor;
 *   - two operands with instances meet on the instances they share, in
 *     the left one's order; one without instances goes with each; an
 *     operand with an error gives its error, one with no values none;
 *   - delta and rate pair each instance with its previous fetch's value
 *     (none at the first fetch); rate divides by the time between the
 *     fetches and, for a counter going down, adds 2^32 or 2^64 first;
 *   - the ternary pairs values by position, not instance (as PCP does);
 *   - count, sum, avg, min, max run over the instances; count of an error
 *     is 0, sum and avg of nothing 0;
 *   - [instance], matchinst and (expr)[instance] keep the instances named
 *     or matched, names asked of the context once per instance.
 * Nodes are evaluated in the order binding left them, children first, so
 * there is no recursion; each node keeps its values in a buffer of its own
 * that grows to the largest fetch and is reused, so a fetch allocates
 * nothing here once warm.
 *
 * Not PCP's (docs/compat.md): min and max of no values give no values
 * (PCP: whatever its buffer held); a ternary whose operands have fewer
 * values than positions leaves those positions out (PCP reads past its
 * arrays); (expr)[instance] selects the instance
 * (PCP crashes); strings and aggregates pass through instant(), scalar(),
 * the ternary and ! whole (PCP mangles them or crashes).
 */
#include "derived_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int is_int(int type)
{
    return type == PM_TYPE_32 || type == PM_TYPE_U32 || type == PM_TYPE_64 || type == PM_TYPE_U64;
}

/* A value of type from as type to: C's conversions, integers through 64
 * bits (signed sources sign-extended), doubles to integers truncated. */
static void convert(const pmAtomValue *in, int from, pmAtomValue *out, int to)
{
    int64_t s = 0;
    uint64_t u = 0;
    double d = 0;

    if (from == to) {
        *out = *in;
        return;
    }
    switch (from) {
    case PM_TYPE_32:
        s = in->l;
        u = (uint64_t)s;
        d = (double)s;
        break;
    case PM_TYPE_U32:
        u = in->ul;
        s = (int64_t)u;
        d = (double)u;
        break;
    case PM_TYPE_64:
        s = in->ll;
        u = (uint64_t)s;
        d = (double)s;
        break;
    case PM_TYPE_U64:
        u = in->ull;
        s = (int64_t)u;
        d = (double)u;
        break;
    case PM_TYPE_FLOAT:
        d = in->f;
        s = d >= -9.2e18 && d <= 9.2e18 ? (int64_t)d : 0;
        u = (uint64_t)s;
        break;
    case PM_TYPE_DOUBLE:
        d = in->d;
        s = d >= -9.2e18 && d <= 9.2e18 ? (int64_t)d : 0;
        u = (uint64_t)s;
        break;
    default:
        *out = *in;
        return;
    }
    switch (to) {
    case PM_TYPE_32:
        out->l = (int32_t)(uint32_t)u;
        break;
    case PM_TYPE_U32:
        out->ul = (uint32_t)u;
        break;
    case PM_TYPE_64:
        out->ll = (int64_t)u;
        break;
    case PM_TYPE_U64:
        out->ull = u;
        break;
    case PM_TYPE_FLOAT:
        out->f = (from == PM_TYPE_DOUBLE || !is_int(from))      ? (float)d
                 : (from == PM_TYPE_U32 || from == PM_TYPE_U64) ? (float)u
                                                                : (float)s;
        break;
    case PM_TYPE_DOUBLE:
        out->d = (from == PM_TYPE_U32 || from == PM_TYPE_U64) ? (double)u
                 : is_int(from)                               ? (double)s
                                                              : d;
        break;
    default:
        *out = *in;
    }
}

/* convert(), with the common case of no conversion in line. */
static inline void to_type(const pmAtomValue *in, int from, pmAtomValue *out, int to)
{
    if (from == to)
        *out = *in;
    else
        convert(in, from, out, to);
}

static inline __attribute__((always_inline)) double as_double(const pmAtomValue *a, int type)
{
    switch (type) { /* as convert() does, in line */
    case PM_TYPE_32:
        return (double)a->l;
    case PM_TYPE_U32:
        return (double)a->ul;
    case PM_TYPE_64:
        return (double)a->ll;
    case PM_TYPE_U64:
        return (double)a->ull;
    case PM_TYPE_FLOAT:
        return (double)a->f;
    case PM_TYPE_DOUBLE:
        return a->d;
    default: {
        pmAtomValue d;
        convert(a, type, &d, PM_TYPE_DOUBLE);
        return d.d;
    }
    }
}

static int nonzero(const pmAtomValue *a, int type)
{
    switch (type) {
    case PM_TYPE_32:
        return a->l != 0;
    case PM_TYPE_U32:
        return a->ul != 0;
    case PM_TYPE_64:
        return a->ll != 0;
    case PM_TYPE_U64:
        return a->ull != 0;
    case PM_TYPE_FLOAT:
        return a->f != 0;
    case PM_TYPE_DOUBLE:
        return a->d != 0;
    default:
        return 0;
    }
}

/* Room for n values in v; 0 or -ENOMEM. */
static int room(dm_values *v, int n)
{
    if (n <= v->cap)
        return 0;
    int cap = v->cap ? v->cap : 4;
    while (cap < n)
        cap *= 2;
    dm_value *p = realloc(v->v, (size_t)cap * sizeof(*p));
    if (p == NULL)
        return -ENOMEM;
    v->v = p;
    v->cap = cap;
    return 0;
}

/* One value of vs (its j-th) as type: 32-bit integers in place, the rest
 * in their value block; strings and aggregates by pointer. */
static void extract(const pmValueSet *vs, int j, int type, pmAtomValue *a)
{
    const pmValue *v = &vs->vlist[j];

    memset(a, 0, sizeof(*a));
    if (vs->valfmt == PM_VAL_INSITU) {
        a->l = v->value.lval;
        return;
    }
    const pmValueBlock *b = v->value.pval;
    size_t len = b->vlen > PM_VAL_HDR_SIZE ? b->vlen - PM_VAL_HDR_SIZE : 0;
    switch (type) {
    case PM_TYPE_STRING:
        a->cp = (char *)b->vbuf;
        break;
    case PM_TYPE_AGGREGATE:
    case PM_TYPE_EVENT:
    case PM_TYPE_HIGHRES_EVENT:
    case PM_TYPE_AGGREGATE_STATIC:
        a->vbp = (pmValueBlock *)b;
        break;
    case PM_TYPE_FLOAT:
        if (len >= sizeof(float))
            memcpy(&a->f, b->vbuf, sizeof(float));
        break;
    default:
        if (len >= 8)
            memcpy(&a->ull, b->vbuf, 8);
        else if (len >= 4)
            memcpy(&a->ul, b->vbuf, 4);
    }
}

/* The fetched value set of e's metric (NULL: not fetched); its place is
 * asked once per plan. */
static const pmValueSet *fetched(const dm_eval_in *in, dm_expr *e)
{
    if (e->slot_plan != in->plan) {
        e->slot = in->slot(in->arg, e->pmid);
        e->slot_plan = in->plan;
    }
    return e->slot < 0 ? NULL : in->vsets[e->slot];
}

/* The values of e's metric into v, as its own type. */
static int metric_values(const dm_eval_in *in, dm_expr *e, int type, dm_values *v)
{
    const pmValueSet *vs = fetched(in, e);

    if (vs == NULL) {
        v->n = PM_ERR_PMID;
        return 0;
    }
    if (vs->numval <= 0) {
        v->n = vs->numval;
        return 0;
    }
    if (room(v, vs->numval) < 0)
        return -ENOMEM;
    int n = vs->numval, eight = type == PM_TYPE_64 || type == PM_TYPE_U64 || type == PM_TYPE_DOUBLE;
    dm_value *out = v->v;
    if (vs->valfmt == PM_VAL_INSITU) {
        for (int j = 0; j < n; j++) { /* extract()'s, in line */
            out[j].inst = vs->vlist[j].inst;
            out[j].a.ull = 0;
            out[j].a.l = vs->vlist[j].value.lval;
        }
    } else {
        for (int j = 0; j < n; j++) {
            const pmValueBlock *b = vs->vlist[j].value.pval;
            out[j].inst = vs->vlist[j].inst;
            if (eight && b->vlen >= PM_VAL_HDR_SIZE + 8)
                memcpy(&out[j].a.ull, b->vbuf, 8); /* extract()'s, in line */
            else
                extract(vs, j, type, &out[j].a);
        }
    }
    v->n = n;
    return 0;
}

/* Keep only instance inst of v (none when inst is -1, the name unknown). */
static void keep_instance(dm_values *v, int inst)
{
    int k = 0;

    for (int j = 0; j < v->n; j++)
        if (inst != -1 && v->v[j].inst == inst)
            v->v[k++] = v->v[j];
    if (v->n > 0)
        v->n = k;
}

/* The instance number of e's [name] in indom, looked up once. */
static int named_instance(const dm_eval_in *in, dm_expr *e, pmInDom indom)
{
    if (e->inst_state == 0) {
        int inst = indom == PM_INDOM_NULL ? -1 : in->inst_of(in->arg, indom, e->syn->inst);
        e->inst = inst >= 0 ? inst : -1;
        e->inst_state = inst >= 0 ? 1 : -1;
    }
    return e->inst;
}

/* Does instance inst of indom match e's pattern?  Names are asked once
 * per instance and the answers kept. */
static int matches(const dm_eval_in *in, dm_expr *e, pmInDom indom, int inst)
{
    for (int i = 0; i < e->prev.n; i++)
        if (e->prev.v[i].inst == inst)
            return e->prev.v[i].a.l;
    char *name = NULL;
    int m = 0;
    if (in->name_of(in->arg, indom, inst, &name) >= 0 && name != NULL)
        m = regexec(e->syn->re, name, 0, NULL, 0) == 0;
    free(name);
    if (e->syn->invert)
        m = !m;
    if (e->prev.n >= 0 && room(&e->prev, e->prev.n + 1) == 0) {
        e->prev.v[e->prev.n].inst = inst;
        e->prev.v[e->prev.n++].a.l = m;
    }
    return m;
}

/* Copy what an operand gave (its values, error or nothing) into e. */
static int take(dm_expr *e, const dm_values *from)
{
    e->cur.n = from->n;
    if (from->n <= 0)
        return 0;
    if (room(&e->cur, from->n) < 0)
        return -ENOMEM;
    memcpy(e->cur.v, from->v, (size_t)from->n * sizeof(dm_value));
    return 0;
}

/* The status two (or three) operands leave the result with: an error (the
 * first), 0 for no values, 1 for values to compute. */
static int operands_status(const dm_values *a, const dm_values *b, const dm_values *c)
{
    if (a->n < 0)
        return a->n;
    if (b != NULL && b->n < 0)
        return b->n;
    if (c != NULL && c->n < 0)
        return c->n;
    if (a->n == 0 || (b != NULL && b->n == 0) || (c != NULL && c->n == 0))
        return 0;
    return 1;
}

/* The value of operand values ov matching instance inst (the only one
 * when the operand has no instances): its index, or -1. */
static int match(const dm_expr *op, const dm_values *ov, int inst, int hint)
{
    if (op->desc.indom == PM_INDOM_NULL)
        return 0;
    if (hint >= 0 && hint < ov->n && ov->v[hint].inst == inst)
        return hint;
    for (int j = 0; j < ov->n; j++)
        if (ov->v[j].inst == inst)
            return j;
    return -1;
}

/* An operand's value (the right one's when right) as e computes with it:
 * a double times the operand's factor (division, rescaled operands), else
 * in e's type. */
static inline void prepare(const dm_expr *e, int right, const pmAtomValue *in, pmAtomValue *out)
{
    const dm_expr *op = right ? e->right : e->left;

    if (e->rescaled || e->kind == DN_SLASH) {
        const dm_conv *cv = right ? &e->rconv : &e->lconv;
        out->d = as_double(in, op->desc.type) * cv->mul / cv->div;
    } else {
        to_type(in, op->desc.type, out, e->desc.type);
    }
}

/* prepare() for an operand whose values vary; a constant's is made once. */
static pmAtomValue operand(dm_expr *e, int right, const pmAtomValue *in)
{
    const dm_expr *op = right ? e->right : e->left;
    pmAtomValue v;

    if (op->kind != DN_INTEGER && op->kind != DN_DOUBLE) {
        prepare(e, right, in, &v);
        return v;
    }
    if (!(e->fixed & (1 << right))) {
        prepare(e, right, in, &e->fix[right]);
        e->fixed |= 1 << right;
    }
    return e->fix[right];
}

/* x op y, both prepared (in line: it runs once per value). */
static inline __attribute__((always_inline)) void combine(const dm_expr *e, pmAtomValue x,
                                                          pmAtomValue y, pmAtomValue *out)
{
    dm_kind k = e->kind;

    if (e->rescaled || k == DN_SLASH) {
        double a = x.d, b = y.d;
        out->d = k == DN_PLUS    ? a + b
                 : k == DN_MINUS ? a - b
                 : k == DN_STAR  ? a * b
                 : a == 0        ? 0 /* PCP's: 0/0 and 0/-x are 0 */
                                 : a / b;
        return;
    }
#define OP(f, cast)                                                                                \
    out->f = (k == DN_PLUS)    ? (cast)(x.f + y.f)                                                 \
             : (k == DN_MINUS) ? (cast)(x.f - y.f)                                                 \
                               : (cast)(x.f * y.f)
    switch (e->desc.type) {
    case PM_TYPE_32: /* wrap through unsigned */
        x.ul = (uint32_t)x.l;
        y.ul = (uint32_t)y.l;
        OP(ul, uint32_t);
        break;
    case PM_TYPE_U32:
        OP(ul, uint32_t);
        break;
    case PM_TYPE_64:
        x.ull = (uint64_t)x.ll;
        y.ull = (uint64_t)y.ll;
        OP(ull, uint64_t);
        break;
    case PM_TYPE_U64:
        OP(ull, uint64_t);
        break;
    case PM_TYPE_FLOAT:
        OP(f, float);
        break;
    default:
        OP(d, double);
    }
#undef OP
}

/* combine() for one value, as a call (the scalar way's code stays small). */
static __attribute__((noinline)) void combine_once(const dm_expr *e, pmAtomValue x, pmAtomValue y,
                                                   pmAtomValue *out)
{
    combine(e, x, y, out);
}

/* l cmp r, or l && r, l || r: 0 or 1. */
static uint32_t logic(const dm_expr *e, const pmAtomValue *l, const pmAtomValue *r)
{
    int lt = e->left->desc.type, rt = e->right->desc.type;

    if (e->kind == DN_AND)
        return nonzero(l, lt) && nonzero(r, rt);
    if (e->kind == DN_OR)
        return nonzero(l, lt) || nonzero(r, rt);
    pmAtomValue x, y;
    int t = dm_promote_type(lt, rt), c; /* as arithmetic */
    to_type(l, lt, &x, t);
    to_type(r, rt, &y, t);
    switch (t) {
    case PM_TYPE_32:
        c = (x.l > y.l) - (x.l < y.l);
        break;
    case PM_TYPE_U32:
        c = (x.ul > y.ul) - (x.ul < y.ul);
        break;
    case PM_TYPE_64:
        c = (x.ll > y.ll) - (x.ll < y.ll);
        break;
    case PM_TYPE_U64:
        c = (x.ull > y.ull) - (x.ull < y.ull);
        break;
    case PM_TYPE_FLOAT:
        c = (x.f > y.f) - (x.f < y.f);
        if (x.f != x.f || y.f != y.f)
            return e->kind == DN_NEQ;
        break;
    default:
        c = (x.d > y.d) - (x.d < y.d);
        if (x.d != x.d || y.d != y.d)
            return e->kind == DN_NEQ;
    }
    switch (e->kind) {
    case DN_LT:
        return c < 0;
    case DN_LEQ:
        return c <= 0;
    case DN_EQ:
        return c == 0;
    case DN_GEQ:
        return c >= 0;
    case DN_GT:
        return c > 0;
    default:
        return c != 0;
    }
}

static int eval_binary(dm_expr *e)
{
    const dm_values *L = &e->left->cur, *R = &e->right->cur;
    int lead_left = e->left->desc.indom != PM_INDOM_NULL;
    const dm_expr *other = lead_left ? e->right : e->left;
    const dm_values *lv = lead_left ? L : R, *ov = lead_left ? R : L;
    int sts = operands_status(L, R, NULL), n = 0;

    if (sts <= 0) {
        e->cur.n = sts;
        return 0;
    }
    if (room(&e->cur, lv->n) < 0)
        return -ENOMEM;
    /* the leading operand's j-th value meets the other's value of the same
     * instance: its only one (prepared once), its j-th when they go alike,
     * else searched */
    int is_arith = e->kind < DN_LT, single = other->desc.indom == PM_INDOM_NULL;
    int lead_single = !lead_left && e->right->desc.indom == PM_INDOM_NULL;
    pmAtomValue fixed, x, y;
    if (is_arith && single)
        fixed = operand(e, lead_left, &ov->v[0].a);
    if (is_arith && lead_single) { /* two values without instances */
        x = fixed;
        y = operand(e, 1, &lv->v[0].a);
        combine(e, x, y, &e->cur.v[0].a);
        e->cur.v[0].inst = PM_IN_NULL;
        for (int j = 1; j < lv->n; j++) /* an agent's extra values */
            e->cur.v[j] = e->cur.v[0];
        e->cur.n = lv->n;
        return 0;
    }
    for (int j = 0; j < lv->n; j++) {
        int inst = lv->v[j].inst, i = lead_single ? 0 : j;
        int k = single ? 0 : match(other, ov, inst, j);
        if (k < 0)
            continue;
        dm_value *out = &e->cur.v[n++];
        out->inst = e->desc.indom == PM_INDOM_NULL ? (int)PM_IN_NULL : inst;
        const pmAtomValue *l = lead_left ? &lv->v[i].a : &ov->v[k].a;
        const pmAtomValue *r = lead_left ? &ov->v[k].a : &lv->v[i].a;
        if (!is_arith) {
            out->a.ul = logic(e, l, r);
            continue;
        }
        prepare(e, !lead_left, &lv->v[i].a, lead_left ? &x : &y);
        if (single)
            *(lead_left ? &y : &x) = fixed;
        else
            prepare(e, lead_left, &ov->v[k].a, lead_left ? &y : &x);
        combine(e, x, y, &out->a);
    }
    e->cur.n = n;
    return 0;
}

/* guard ? true : false, value by value in PCP's positional way (below). */
static int eval_ternary(dm_expr *e)
{
    const dm_values *G = &e->left->cur, *T = &e->mid->cur, *F = &e->right->cur;
    int sts = operands_status(G, T, F), n = 0;

    if (sts <= 0) {
        e->cur.n = sts;
        return 0;
    }
    if (e->left->desc.indom == PM_INDOM_NULL && e->desc.indom == PM_INDOM_NULL) {
        const dm_values *pick = nonzero(&G->v[0].a, e->left->desc.type) ? T : F;
        return take(e, pick);
    }
    /* PCP goes by position: as many values as the larger operand, the
     * instances of the true operand (the false one's when the true one
     * has none), the guard's i-th value (its last when it has fewer, its
     * only one when singular) choosing the i-th value of one operand (the
     * only one of a singular operand).  Positions past the end of an
     * operand that PCP reads anyway (out of bounds) are left out. */
    int g_scalar = e->left->desc.indom == PM_INDOM_NULL;
    int t_scalar = e->mid->desc.indom == PM_INDOM_NULL,
        f_scalar = e->right->desc.indom == PM_INDOM_NULL;
    int count = T->n > F->n ? T->n : F->n;
    const dm_values *ids = t_scalar ? F : T;
    if (room(&e->cur, count) < 0)
        return -ENOMEM;
    for (int j = 0; j < count; j++) {
        int g = g_scalar ? 0 : j < G->n ? j : G->n - 1;
        int which = nonzero(&G->v[g].a, e->left->desc.type);
        const dm_values *ov = which ? T : F;
        int k = (which ? t_scalar : f_scalar) ? 0 : j;
        if (j >= ids->n || k >= ov->n)
            continue;
        e->cur.v[n].inst = ids->v[j].inst;
        e->cur.v[n++].a = ov->v[k].a;
    }
    e->cur.n = n;
    return 0;
}

/* count, sum, avg, min, max of a metric's values. */
static int eval_aggregate(dm_expr *e, const dm_eval_in *in)
{
    dm_values *v = &e->prev; /* scratch: the operand's values */
    int t = e->operand.type, sts;

    if ((sts = metric_values(in, e, t, v)) < 0)
        return sts;
    if (room(&e->cur, 1) < 0)
        return -ENOMEM;
    e->cur.v[0].inst = PM_IN_NULL;
    pmAtomValue *out = &e->cur.v[0].a;
    if (e->kind == DN_COUNT) {
        out->ul = v->n < 0 ? 0 : (uint32_t)v->n;
        e->cur.n = 1;
        return 0;
    }
    if (v->n < 0 || (v->n == 0 && (e->kind == DN_MIN || e->kind == DN_MAX))) {
        e->cur.n = v->n;
        return 0;
    }
    if (e->kind == DN_AVG) {
        /* PCP's way, rounding and all: each value as a float divided by
         * the count, added up in a float */
        float avg = 0;
        for (int j = 0; j < v->n; j++) {
            pmAtomValue f;
            convert(&v->v[j].a, t, &f, PM_TYPE_FLOAT);
            avg += f.f / (float)v->n;
        }
        out->f = avg;
        e->cur.n = 1;
        return 0;
    }
    memset(out, 0, sizeof(*out));
    for (int j = 0; j < v->n; j++) {
        const pmAtomValue *a = &v->v[j].a;
        if (e->kind == DN_SUM) {
            pmAtomValue s = *out;
            switch (t) {
            case PM_TYPE_32:
                out->l = (int32_t)((uint32_t)s.l + (uint32_t)a->l);
                break;
            case PM_TYPE_U32:
                out->ul = s.ul + a->ul;
                break;
            case PM_TYPE_64:
                out->ll = (int64_t)((uint64_t)s.ll + (uint64_t)a->ll);
                break;
            case PM_TYPE_U64:
                out->ull = s.ull + a->ull;
                break;
            case PM_TYPE_FLOAT:
                out->f = s.f + a->f;
                break;
            default:
                out->d = s.d + a->d;
            }
        } else if (j == 0 || (e->kind == DN_MAX ? as_double(a, t) > as_double(out, t)
                                                : as_double(a, t) < as_double(out, t))) {
            *out = *a;
        }
    }
    e->cur.n = 1;
    return 0;
}

/* delta and rate: this fetch against the last one's, instance by instance. */
static int eval_change(dm_expr *e, const dm_eval_in *in)
{
    dm_values *now = &e->scratch;
    int t = e->operand.type, sts, n = 0;

    if ((sts = metric_values(in, e, t, now)) < 0)
        return sts;
    if (now->n < 0) {
        e->cur.n = now->n;
        return 0;
    }
    double now_t = (double)in->stamp->tv_sec + (double)in->stamp->tv_nsec / 1e9;
    double dt = now_t - e->prev_time;
    if (room(&e->cur, now->n) < 0)
        return -ENOMEM;
    for (int j = 0; e->have_prev && j < now->n; j++) {
        int k = match(e, &e->prev, now->v[j].inst, j);
        if (e->operand.indom == PM_INDOM_NULL)
            k = e->prev.n > 0 ? 0 : -1;
        if (k < 0)
            continue;
        const pmAtomValue *c = &now->v[j].a, *p = &e->prev.v[k].a;
        dm_value *out = &e->cur.v[n++];
        out->inst = now->v[j].inst;
        if (e->kind == DN_DELTA) {
            switch (t) {
            case PM_TYPE_32:
                out->a.l = (int32_t)((uint32_t)c->l - (uint32_t)p->l);
                break;
            case PM_TYPE_U32:
                out->a.ll = (int64_t)c->ul - (int64_t)p->ul;
                break;
            case PM_TYPE_64:
                out->a.ll = (int64_t)((uint64_t)c->ll - (uint64_t)p->ll);
                break;
            case PM_TYPE_U64:
                out->a.d = (double)c->ull - (double)p->ull;
                break;
            case PM_TYPE_FLOAT:
                out->a.f = c->f - p->f;
                break;
            default:
                out->a.d = c->d - p->d;
            }
            continue;
        }
        double d;
        if (e->operand.sem == PM_SEM_COUNTER && is_int(t)) {
            /* a counter's change: modulo its width, so a wrap counts */
            if (t == PM_TYPE_32 || t == PM_TYPE_U32)
                d = (double)(uint32_t)(c->ul - p->ul);
            else
                d = (double)(c->ull - p->ull);
        } else {
            d = as_double(c, t) - as_double(p, t);
        }
        out->a.d = d * e->lconv.mul / e->lconv.div / dt;
    }
    e->cur.n = e->have_prev ? n : 0;
    /* now becomes the previous fetch */
    dm_values swap = e->prev;
    e->prev = *now;
    *now = swap;
    e->prev_time = now_t;
    e->have_prev = 1;
    return 0;
}

/* A constant's one value, in its type. */
static void constant(dm_expr *e)
{
    const dm_node *n = e->syn;
    pmAtomValue a;
    int from = n->kind == DN_INTEGER ? PM_TYPE_U32 : PM_TYPE_DOUBLE;

    if (from == PM_TYPE_U32)
        a.ul = n->u;
    else
        a.d = n->d;
    e->cur.v[0].inst = PM_IN_NULL;
    convert(&a, from, &e->cur.v[0].a, e->desc.type);
    e->cur.n = 1;
}

/* matchinst: the operand's instances whose names match. */
static int eval_matchinst(dm_expr *e, const dm_eval_in *in)
{
    const dm_values *v = &e->left->cur;
    pmInDom indom = e->left->desc.indom;
    int n = 0;

    if (v->n <= 0 || indom == PM_INDOM_NULL) {
        e->cur.n = v->n < 0 ? v->n : 0;
        return 0;
    }
    if (room(&e->cur, v->n) < 0)
        return -ENOMEM;
    for (int j = 0; j < v->n; j++)
        if (matches(in, e, indom, v->v[j].inst))
            e->cur.v[n++] = v->v[j];
    e->cur.n = n;
    return 0;
}

/* rescale: each value converted to the units asked for, in its type. */
static int eval_rescale(dm_expr *e)
{
    const dm_values *v = &e->left->cur;
    const pmUnits *from = &e->left->desc.units;
    pmUnits to = e->syn->units;
    int t = e->desc.type;

    if (take(e, v) < 0)
        return -ENOMEM;
    for (int j = 0; j < e->cur.n; j++) {
        pmAtomValue out;
        if (pmConvScale(t, &e->cur.v[j].a, (pmUnits *)from, &out, &to) == 0)
            e->cur.v[j].a = out;
    }
    return 0;
}

/* -x and !x, value by value. */
static int eval_unary(dm_expr *e)
{
    const dm_values *v = &e->left->cur;
    int from = e->left->desc.type, t = e->desc.type;

    if (take(e, v) < 0)
        return -ENOMEM;
    for (int j = 0; j < e->cur.n; j++) {
        pmAtomValue *a = &e->cur.v[j].a, x;
        if (e->kind == DN_NOT) {
            int z = !nonzero(a, from);
            memset(a, 0, sizeof(*a));
            if (from == PM_TYPE_STRING)
                a->cp = "";
            else if (is_int(from) || from == PM_TYPE_FLOAT || from == PM_TYPE_DOUBLE) {
                x.ul = (uint32_t)z;
                convert(&x, PM_TYPE_U32, a, from);
            }
            continue;
        }
        convert(a, from, &x, t);
        switch (t) {
        case PM_TYPE_32:
            a->l = (int32_t)(0u - (uint32_t)x.l);
            break;
        case PM_TYPE_64:
            a->ll = (int64_t)(0ull - (uint64_t)x.ll);
            break;
        case PM_TYPE_FLOAT:
            a->f = -x.f;
            break;
        default:
            a->d = -x.d;
        }
    }
    return 0;
}

/* One node, its operands evaluated. */
static int eval_node(dm_expr *e, const dm_eval_in *in)
{
    switch (e->kind) {
    case DN_INTEGER:
    case DN_DOUBLE:
        if (e->cur.n != 1) {
            if (room(&e->cur, 1) < 0)
                return -ENOMEM;
            constant(e);
        }
        return 0;
    case DN_ANON:
        e->cur.n = 0;
        return 0;
    case DN_NAME: {
        int sts = metric_values(in, e, e->desc.type, &e->cur);
        if (sts == 0 && e->syn->inst != NULL)
            keep_instance(&e->cur, named_instance(in, e, e->desc.indom));
        return sts;
    }
    case DN_SELECT:
        if (take(e, &e->left->cur) < 0)
            return -ENOMEM;
        keep_instance(&e->cur, named_instance(in, e, e->desc.indom));
        return 0;
    case DN_NEG:
    case DN_NOT:
        return eval_unary(e);
    case DN_SCALAR:
        if (take(e, &e->left->cur) < 0)
            return -ENOMEM;
        if (e->cur.n > 1)
            e->cur.n = 1;
        if (e->cur.n == 1)
            e->cur.v[0].inst = PM_IN_NULL;
        return 0;
    case DN_MATCHINST:
        return eval_matchinst(e, in);
    case DN_RESCALE:
        return eval_rescale(e);
    case DN_QUEST:
        return eval_ternary(e);
    case DN_DEFINED:
        if (room(&e->cur, 1) < 0)
            return -ENOMEM;
        e->cur.v[0].inst = PM_IN_NULL;
        e->cur.v[0].a.ul = (uint32_t)e->defined;
        e->cur.n = 1;
        return 0;
    case DN_INSTANT:
        return metric_values(in, e, e->desc.type, &e->cur);
    case DN_DELTA:
    case DN_RATE:
        return eval_change(e, in);
    case DN_COUNT:
    case DN_SUM:
    case DN_AVG:
    case DN_MIN:
    case DN_MAX:
        return eval_aggregate(e, in);
    default:
        return eval_binary(e);
    }
}

int dm_eval_scalar(const dm_bound_tree *t)
{
    for (size_t i = 0; i < t->norder; i++) {
        const dm_expr *e = t->order[i];
        if (e->desc.indom != PM_INDOM_NULL)
            return 0;
        switch (e->kind) {
        case DN_NAME:
            if (e->syn->inst != NULL)
                return 0;
            break;
        case DN_INTEGER:
        case DN_DOUBLE:
        case DN_PLUS:
        case DN_MINUS:
        case DN_STAR:
        case DN_SLASH:
            break;
        default:
            return 0;
        }
    }
    return t->norder > 0;
}

/* operand(), its common cases in line: a constant made once, a value
 * already of e's type. */
static inline pmAtomValue scalar_operand(dm_expr *e, int right, const pmAtomValue *in)
{
    if (e->fixed & (1 << right))
        return e->fix[right];
    if (!e->rescaled && e->kind != DN_SLASH &&
        (right ? e->right : e->left)->desc.type == e->desc.type)
        return *in;
    return operand(e, right, in);
}

/*
 * A scalar tree (dm_eval_scalar) the short way: each metric's one value,
 * each operator on its operands' one value each, as eval_binary does for
 * two operands without instances.  1 when a metric has an error, no
 * values or more than one (the general way then answers), 0, -ENOMEM.
 */
static int eval_scalar(const dm_bound_tree *t, const dm_eval_in *in)
{
    for (size_t i = 0; i < t->norder; i++) {
        dm_expr *e = t->order[i];
        if (e->cur.cap < 1 && room(&e->cur, 1) < 0)
            return -ENOMEM;
        dm_value *out = &e->cur.v[0];
        switch (e->kind) {
        case DN_INTEGER:
        case DN_DOUBLE:
            if (e->cur.n != 1)
                constant(e);
            break;
        case DN_NAME: {
            const pmValueSet *vs = fetched(in, e);
            if (vs == NULL || vs->numval != 1)
                return 1;
            out->inst = vs->vlist[0].inst;
            extract(vs, 0, e->desc.type, &out->a);
            e->cur.n = 1;
            break;
        }
        default: {
            pmAtomValue x = scalar_operand(e, 0, &e->left->cur.v[0].a);
            pmAtomValue y = scalar_operand(e, 1, &e->right->cur.v[0].a);
            combine_once(e, x, y, &out->a);
            out->inst = PM_IN_NULL;
            e->cur.n = 1;
        }
        }
    }
    return 0;
}

int dm_eval(const dm_bound_tree *t, const dm_eval_in *in)
{
    if (t->scalar) {
        int sts = eval_scalar(t, in);
        if (sts <= 0)
            return sts;
    }
    for (size_t i = 0; i < t->norder; i++) {
        int sts = eval_node(t->order[i], in);
        if (sts < 0)
            return sts;
    }
    return 0;
}

void dm_eval_release(dm_bound_tree *t)
{
    for (size_t i = 0; i < t->norder; i++) {
        dm_expr *e = t->order[i];
        free(e->cur.v);
        free(e->prev.v);
        free(e->scratch.v);
        e->cur.v = e->prev.v = e->scratch.v = NULL;
    }
}
