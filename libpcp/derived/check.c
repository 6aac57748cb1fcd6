/*
 * check.c - binding a derived metric's tree to a context: every metric it
 * names looked up, and the descriptor of every node computed with PCP's
 * rules and PCP's semantic errors (probed from Debian's libpcp 6.0.3 over
 * every pairing of operand kinds; the rules are PCP's, quirks included):
 *
 *   - A binary operator's result starts as a copy of its left operand's
 *     descriptor, or of its right operand's when the left is a numeric
 *     constant.  Its semantics: if either operand is a counter, that
 *     copy's; else discrete when both are, instant otherwise.  Its type:
 *     PCP's table (DOUBLE for division and for any rescaled operand, U32
 *     for comparisons and booleans).  Its units: for each of space, time
 *     and count, when both operands have the dimension at different
 *     scales the one at the smaller scale is converted and the result
 *     takes the right operand's scale if it was the left that was
 *     converted; when only the right has it, the right's scale; the
 *     dimensions add for "*", subtract for "/".
 *   - Checks, in order: counters (only + and - between counters, only *
 *     and / after one, only * before one; comparisons and booleans take
 *     them), arithmetic types, a non-counter beside a counter must be
 *     dimensionless (for * / and comparisons), dimensions (equal, or
 *     count^0 against count^1 and nothing else, as pmConvScale allows; for
 *     + -, and for comparisons only when neither operand is U32; booleans
 *     want no dimension at all), then instance domains.
 *   - Functions and unary operators as their table below; ternaries want
 *     operands of one type, instance domain (when both have one),
 *     semantics and units, and only then an arithmetic guard and a scalar
 *     guard for scalar operands (PCP's order).
 * A name that is not a metric of the context, or is itself derived, fails
 * the binding without a message, as in PCP.  Messages name operands as
 * PCP does: a metric or constant as written, anything else "<expr>".
 *
 * Binding is two passes over the tree, as PCP's: every name looked up
 * (a failure ends it there, silently), then every descriptor, children
 * first, left before right (the first error is the one reported).  Both
 * walk with an explicit stack, since a tree can be thousands of levels
 * deep, and the second leaves the nodes in evaluation order.
 *
 * Not here: values (eval.c), or when binding happens (PCP binds a metric
 * in a context when it is first used there).
 */
#include "derived_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct binder {
    const dm_source *src; /* names and descriptors of the context */
    const char *metric;   /* the derived metric's name, for messages;
                           * NULL: messages are the reason alone */
    dm_arena *arena;      /* where the bound nodes go */
    char *msg;            /* the semantic error (malloc'd), if any */
    int nomem;
} binder;

static int is_arith(int type)
{
    return type >= PM_TYPE_32 && type <= PM_TYPE_DOUBLE;
}

static int is_const(const dm_node *n)
{
    return n->kind == DN_INTEGER || n->kind == DN_DOUBLE;
}

/* An operand as PCP's messages name it. */
static const char *operand_text(const dm_node *n)
{
    if ((n->kind == DN_NAME && n->inst == NULL) || is_const(n))
        return n->name;
    return "<expr>";
}

static const char *op_text(dm_kind k)
{
    static const char *const text[] = {
        [DN_PLUS] = "+", [DN_MINUS] = "-", [DN_STAR] = "*", [DN_SLASH] = "/",
        [DN_LT] = "<",   [DN_LEQ] = "<=",  [DN_EQ] = "==",  [DN_GEQ] = ">=",
        [DN_GT] = ">",   [DN_NEQ] = "!=",  [DN_AND] = "&&", [DN_OR] = "||",
    };
    return text[k];
}

/*
 * "Semantic error: derived metric NAME: WHAT: WHY" (the first one wins),
 * WHAT made by fmt from up to three operands' texts; or WHY alone for a
 * context's own metric.
 */
static int semantic(binder *b, const char *why, const char *fmt, const char *a, const char *o,
                    const char *c)
{
    if (b->msg != NULL)
        return PM_ERR_BADDERIVE;
    if (b->metric == NULL) {
        if ((b->msg = strdup(why)) == NULL)
            b->nomem = 1;
        return b->nomem ? -ENOMEM : PM_ERR_BADDERIVE;
    }
    size_t n =
        strlen(b->metric) + strlen(fmt) + strlen(a) + strlen(o) + strlen(c) + strlen(why) + 64;
    char *what = malloc(n);
    if (what == NULL || (b->msg = malloc(n)) == NULL) {
        free(what);
        b->nomem = 1;
        return -ENOMEM;
    }
    snprintf(what, n, fmt, a, o, c);
    snprintf(b->msg, n, "Semantic error: derived metric %s: %s: %s\n", b->metric, what, why);
    free(what);
    return PM_ERR_BADDERIVE;
}

/* The same with WHAT made of "L op R". */
static int binary_error(binder *b, const dm_node *n, const char *why)
{
    return semantic(b, why, "%s %s %s", operand_text(n->left), op_text(n->kind),
                    operand_text(n->right));
}

static dm_expr *new_expr(binder *b, const dm_node *syn)
{
    dm_expr *e = dm_arena_alloc(b->arena, sizeof(*e));

    if (e == NULL) {
        b->nomem = 1;
        return NULL;
    }
    memset(e, 0, sizeof(*e));
    e->syn = syn;
    e->kind = syn->kind;
    e->pmid = PM_ID_NULL;
    e->desc.pmid = PM_ID_NULL;
    e->desc.indom = PM_INDOM_NULL;
    e->lconv.mul = e->lconv.div = e->rconv.mul = e->rconv.div = 1;
    return e;
}

/* A metric of the context (not a derived one): its PMID and descriptor.
 * Failures are silent, as PCP's. */
static int bind_metric(binder *b, const char *name, pmID *pmid, pmDesc *desc)
{
    int sts = b->src->lookup(b->src->arg, name, pmid);

    if (sts < 0 || IS_DERIVED(*pmid))
        return PM_ERR_BADDERIVE;
    if ((sts = b->src->desc(b->src->arg, *pmid, desc)) < 0)
        return PM_ERR_BADDERIVE;
    return 0;
}

/* The type two operands meet in, PCP's order of promotion (double, float,
 * u64, 64, u32, 32): arithmetic and comparisons alike (eval.c). */
int dm_promote_type(int l, int r)
{
    static const int order[] = {PM_TYPE_DOUBLE, PM_TYPE_FLOAT, PM_TYPE_U64, PM_TYPE_64,
                                PM_TYPE_U32};

    for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++)
        if (l == order[i] || r == order[i])
            return order[i];
    return PM_TYPE_32;
}

/* PCP's result type for an arithmetic operator (before any rescaling):
 * division is always in double. */
static int result_type(int l, int r, dm_kind op)
{
    return op == DN_SLASH ? PM_TYPE_DOUBLE : dm_promote_type(l, r);
}

/* The size of scale s of a dimension in the units of scale 0 (space:
 * bytes, time: nanoseconds, count: 10^0), as exact integers. */
static double scale_size(int dim, int s)
{
    static const double time_size[] = {1, 1e3, 1e6, 1e9, 60e9, 3600e9};
    double v = 1;

    if (dim == 0) {
        for (int i = 0; i < s; i++)
            v *= 1024;
        return v;
    }
    if (dim == 1)
        return s >= 0 && s <= 5 ? time_size[s] : 1;
    for (int i = 0; i < s; i++)
        v *= 10;
    for (int i = 0; i > s; i--)
        v /= 10;
    return v;
}

/* Values of dimension power p at scale from, converted to scale to:
 * multiplied by conv->mul and divided by conv->div, as PCP keeps them. */
static void add_conversion(dm_conv *conv, int dim, int p, int from, int to)
{
    double a = scale_size(dim, from), z = scale_size(dim, to);

    if (p < 0) {
        double t = a;
        a = z;
        z = t;
        p = -p;
    }
    for (int i = 0; i < p; i++) {
        if (a > z)
            conv->mul *= a / z;
        else
            conv->div *= z / a;
    }
}

/*
 * The units of binary node e from its operands' (l, r) into e->desc.units
 * (which holds the copy it started from): scales reconciled, conversions
 * recorded in e->lconv / e->rconv, dimensions combined.
 */
static void map_units(dm_expr *e, const pmDesc *ld_, const pmDesc *rd_)
{
    const pmUnits *l = &ld_->units, *r = &rd_->units;
    int ld[3] = {l->dimSpace, l->dimTime, l->dimCount};
    int rd[3] = {r->dimSpace, r->dimTime, r->dimCount};
    int ls[3] = {l->scaleSpace, l->scaleTime, l->scaleCount};
    int rs[3] = {r->scaleSpace, r->scaleTime, r->scaleCount};
    int es[3] = {e->desc.units.scaleSpace, e->desc.units.scaleTime, e->desc.units.scaleCount};
    int ed[3];

    for (int i = 0; i < 3; i++) {
        if (ld[i] != 0 && rd[i] != 0 && ls[i] != rs[i]) {
            if (ls[i] < rs[i]) {
                /* PCP takes the direction from the right operand's power */
                add_conversion(&e->lconv, i, rd[i], ls[i], rs[i]);
                es[i] = rs[i];
            } else {
                add_conversion(&e->rconv, i, rd[i], rs[i], ls[i]);
            }
            e->rescaled = 1;
        } else if (rd[i] != 0 && ld[i] == 0 && (e->kind == DN_STAR || e->kind == DN_SLASH)) {
            es[i] = rs[i];
        }
        if (e->kind == DN_STAR)
            ed[i] = ld[i] + rd[i];
        else if (e->kind == DN_SLASH)
            ed[i] = ld[i] - rd[i];
        else
            ed[i] = i == 0   ? e->desc.units.dimSpace
                    : i == 1 ? e->desc.units.dimTime
                             : e->desc.units.dimCount;
    }
    e->desc.units.dimSpace = ed[0];
    e->desc.units.dimTime = ed[1];
    e->desc.units.dimCount = ed[2];
    /* a dimension that * or / takes to 0 keeps no scale */
    int combined = e->kind == DN_STAR || e->kind == DN_SLASH;
    e->desc.units.scaleSpace = combined && ed[0] == 0 ? 0 : es[0];
    e->desc.units.scaleTime = combined && ed[1] == 0 ? 0 : es[1];
    e->desc.units.scaleCount = combined && ed[2] == 0 ? 0 : es[2];
}

static int is_relational(dm_kind k)
{
    return k >= DN_LT && k <= DN_NEQ;
}

static int dimensionless(const pmUnits *u)
{
    return u->dimSpace == 0 && u->dimTime == 0 && u->dimCount == 0;
}

/* The checks of a binary operator, in PCP's order. */
/* Dimensions as PCP compares them (pmConvScale's rule): equal, or count^0
 * against count^1 with no space or time on either side. */
static int same_dimensions(const pmUnits *a, const pmUnits *b)
{
    if (a->dimSpace != b->dimSpace || a->dimTime != b->dimTime)
        return 0;
    if (a->dimCount == b->dimCount)
        return 1;
    return a->dimSpace == 0 && a->dimTime == 0 && a->dimCount + b->dimCount == 1 &&
           (a->dimCount == 0 || b->dimCount == 0);
}

static int check_binary(binder *b, const dm_node *n, const pmDesc *l, const pmDesc *r)
{
    dm_kind k = n->kind;
    int arith = k <= DN_SLASH, boolean = k == DN_AND || k == DN_OR;
    int lc = l->sem == PM_SEM_COUNTER, rc = r->sem == PM_SEM_COUNTER;

    if (arith && lc && rc && k != DN_PLUS && k != DN_MINUS)
        return binary_error(b, n, "Illegal operator for counters");
    if (arith && lc && !rc && k != DN_STAR && k != DN_SLASH)
        return binary_error(b, n, "Illegal operator for counter and non-counter");
    if (arith && !lc && rc && k != DN_STAR)
        return binary_error(b, n, "Illegal operator for non-counter and counter");
    if (!is_arith(l->type))
        return binary_error(b, n, "Non-arithmetic type for left operand");
    if (!is_arith(r->type))
        return binary_error(b, n, "Non-arithmetic type for right operand");
    int spacetime = !same_dimensions(&l->units, &r->units);
    if (is_relational(k) && spacetime && l->type != PM_TYPE_U32 && r->type != PM_TYPE_U32)
        return binary_error(b, n, "Dimensions are not the same");
    if (!boolean && lc != rc && (k == DN_STAR || k == DN_SLASH || is_relational(k))) {
        if (lc && !dimensionless(&r->units))
            return binary_error(b, n, "Non-counter and not dimensionless for right operand");
        if (rc && !dimensionless(&l->units))
            return binary_error(b, n, "Non-counter and not dimensionless for left operand");
    }
    if ((k == DN_PLUS || k == DN_MINUS) && spacetime)
        return binary_error(b, n, "Dimensions are not the same");
    if (boolean && (!dimensionless(&l->units) || !dimensionless(&r->units)))
        return binary_error(b, n, "Dimensions are not the same");
    if (l->indom != PM_INDOM_NULL && r->indom != PM_INDOM_NULL && l->indom != r->indom)
        return binary_error(b, n, "Operands should have the same instance domain");
    return 0;
}

/* A binary operator's descriptor, its operands bound. */
static int bind_binary(binder *b, const dm_node *n, dm_expr *e)
{
    const pmDesc *l = &e->left->desc, *r = &e->right->desc;
    int sts;

    if ((sts = check_binary(b, n, l, r)) < 0)
        return sts;
    e->desc = is_const(n->left) ? *r : *l;
    if (l->sem != PM_SEM_COUNTER && r->sem != PM_SEM_COUNTER)
        e->desc.sem = l->sem == PM_SEM_DISCRETE && r->sem == PM_SEM_DISCRETE ? PM_SEM_DISCRETE
                                                                             : PM_SEM_INSTANT;
    e->desc.indom = l->indom != PM_INDOM_NULL ? l->indom : r->indom;
    if (n->kind == DN_AND || n->kind == DN_OR || is_relational(n->kind)) {
        e->desc.type = PM_TYPE_U32;
        memset(&e->desc.units, 0, sizeof(e->desc.units));
        return 0;
    }
    map_units(e, l, r);
    e->desc.type = e->rescaled ? PM_TYPE_DOUBLE : result_type(l->type, r->type, n->kind);
    return 0;
}

/* The ternary: guard ? true : false (the DN_COLON under n->right). */
static int bind_ternary(binder *b, const dm_node *n, dm_expr *e)
{
    const dm_node *c = n->right;
    const char *gt = operand_text(n->left), *tt = operand_text(c->left),
               *ft = operand_text(c->right);
    const pmDesc *g = &e->left->desc, *t = &e->mid->desc, *f = &e->right->desc;

    if (t->type != f->type)
        return semantic(b, "Different types for ternary operands", "%s : %s%s", tt, ft, "");
    if (t->indom != PM_INDOM_NULL && f->indom != PM_INDOM_NULL && t->indom != f->indom)
        return semantic(b, "Different instance domains for ternary operands", "%s : %s%s", tt, ft,
                        "");
    if (t->sem != f->sem)
        return semantic(b, "Different semantics for ternary operands", "%s : %s%s", tt, ft, "");
    if (t->units.dimSpace != f->units.dimSpace || t->units.scaleSpace != f->units.scaleSpace)
        return semantic(b, "Different units or scale (space) for ternary operands", "%s : %s%s", tt,
                        ft, "");
    if (t->units.dimTime != f->units.dimTime || t->units.scaleTime != f->units.scaleTime)
        return semantic(b, "Different units or scale (time) for ternary operands", "%s : %s%s", tt,
                        ft, "");
    if (t->units.dimCount != f->units.dimCount || t->units.scaleCount != f->units.scaleCount)
        return semantic(b, "Different units or scale (count) for ternary operands", "%s : %s%s", tt,
                        ft, "");
    /* The guard is checked after its branches, as PCP does. */
    if (!is_arith(g->type))
        return semantic(b, "Non-arithmetic operand for ternary guard", "%s ? %s : %s", gt, tt, ft);
    if (g->indom != PM_INDOM_NULL && t->indom == PM_INDOM_NULL && f->indom == PM_INDOM_NULL)
        return semantic(b, "Non-scalar ternary guard with scalar expressions", "%s ? %s : %s", gt,
                        tt, ft);
    e->desc = *t;
    if (e->desc.indom == PM_INDOM_NULL)
        e->desc.indom = f->indom;
    return 0;
}

/* The functions of a metric name: their results (the metric bound in
 * the first pass: e->operand). */
static int bind_function(binder *b, const dm_node *n, dm_expr *e)
{
    static const char *const upper[] = {
        [DN_AVG] = "AVG", [DN_COUNT] = "COUNT", [DN_DELTA] = "DELTA", [DN_MAX] = "MAX",
        [DN_MIN] = "MIN", [DN_SUM] = "SUM",     [DN_RATE] = "RATE",   [DN_INSTANT] = "INSTANT",
    };
    const pmDesc *d = &e->operand;

    if (n->kind == DN_DEFINED) {
        e->desc.type = PM_TYPE_U32;
        e->desc.sem = PM_SEM_DISCRETE;
        return 0;
    }
    if (n->kind != DN_COUNT && n->kind != DN_INSTANT && !is_arith(d->type))
        return semantic(b, "Non-arithmetic operand for function", "%s(%s)%s", upper[n->kind],
                        n->left->name, "");
    e->desc = *d;
    e->desc.pmid = PM_ID_NULL;
    switch (n->kind) {
    case DN_AVG:
        e->desc.type = PM_TYPE_FLOAT;
        /* fall through */
    case DN_MAX:
    case DN_MIN:
        e->desc.sem = PM_SEM_INSTANT;
        /* fall through */
    case DN_SUM:
        e->desc.indom = PM_INDOM_NULL;
        break;
    case DN_COUNT:
        e->desc.type = PM_TYPE_U32;
        e->desc.sem = PM_SEM_INSTANT;
        e->desc.indom = PM_INDOM_NULL;
        memset(&e->desc.units, 0, sizeof(e->desc.units));
        e->desc.units.dimCount = 1;
        break;
    case DN_DELTA:
        e->desc.type = d->type == PM_TYPE_U32   ? PM_TYPE_64
                       : d->type == PM_TYPE_U64 ? PM_TYPE_DOUBLE
                                                : d->type;
        e->desc.sem = PM_SEM_INSTANT;
        break;
    case DN_RATE:
        if (d->units.dimTime != 0 && d->units.dimTime != 1)
            return semantic(b, "Incorrect time dimension for operand", "%s(%s)%s", upper[n->kind],
                            n->left->name, "");
        e->desc.type = PM_TYPE_DOUBLE;
        e->desc.sem = PM_SEM_INSTANT;
        if (d->units.dimTime == 1) {
            /* time per second: a utilisation, its values converted to seconds */
            add_conversion(&e->lconv, 1, 1, d->units.scaleTime, PM_TIME_SEC);
            e->desc.units.dimTime = 0;
            e->desc.units.scaleTime = 0;
        } else {
            e->desc.units.dimTime = -1;
            e->desc.units.scaleTime = PM_TIME_SEC;
        }
        break;
    default: /* DN_INSTANT */
        if (d->sem == PM_SEM_COUNTER)
            e->desc.sem = PM_SEM_INSTANT;
    }
    return 0;
}

/* rescale(x, "units"): the conversion of x's values to the units. */
static int bind_rescale(binder *b, const dm_node *n, dm_expr *e)
{
    const pmUnits *u = &e->left->desc.units, *t = &n->units;
    char units[64];

    pmUnitsStr_r(t, units, sizeof(units));
    if (!is_arith(e->desc.type))
        return semantic(b, "Non-arithmetic operand for function", "%s RESCALE %s%s",
                        operand_text(n->left), units[0] != '\0' ? units : "none", "");
    /* compatible when pmConvScale converts between them, as PCP asks:
     * equal dimensions, or no dimension against count^1 */
    pmAtomValue probe = {.d = 1}, out;
    if (pmConvScale(PM_TYPE_DOUBLE, &probe, (pmUnits *)u, &out, (pmUnits *)t) < 0)
        return semantic(b, "Incompatible dimensions", "%s RESCALE %s%s", operand_text(n->left),
                        units[0] != '\0' ? units : "none", "");
    e->desc.units = *t;
    return 0;
}

/* -x, !x, scalar, rescale, matchinst, (x)[inst]: one operand. */
static int bind_unary(binder *b, const dm_node *n, dm_expr *e)
{
    e->desc = e->left->desc;
    switch (n->kind) {
    case DN_NEG:
        if (!is_arith(e->desc.type))
            return semantic(b, "Non-arithmetic operand for unary negation", "- %s%s%s",
                            operand_text(n->left), "", "");
        if (e->desc.type == PM_TYPE_U32)
            e->desc.type = PM_TYPE_32;
        else if (e->desc.type == PM_TYPE_U64)
            e->desc.type = PM_TYPE_64;
        e->desc.sem = PM_SEM_INSTANT;
        return 0;
    case DN_SCALAR:
        e->desc.indom = PM_INDOM_NULL;
        return 0;
    case DN_RESCALE:
        return bind_rescale(b, n, e);
    default: /* DN_NOT, DN_MATCHINST, DN_SELECT keep their operand's */
        return 0;
    }
}

/* The descriptor of one node, its operands' known. */
static int describe(binder *b, dm_expr *e)
{
    const dm_node *n = e->syn;

    switch (n->kind) {
    case DN_INTEGER:
    case DN_DOUBLE:
    case DN_ANON:
        e->desc.type = n->desc.type;
        e->desc.sem = n->desc.sem;
        e->desc.units = n->desc.units;
        return 0;
    case DN_NAME:
        e->desc = e->operand;
        return 0;
    case DN_QUEST:
        return bind_ternary(b, n, e);
    case DN_NEG:
    case DN_NOT:
    case DN_SELECT:
    case DN_SCALAR:
    case DN_RESCALE:
    case DN_MATCHINST:
        return bind_unary(b, n, e);
    default:
        if (n->kind >= DN_PLUS && n->kind <= DN_OR)
            return bind_binary(b, n, e);
        return bind_function(b, n, e);
    }
}

/* A node's operands, in the order PCP checks them: (left, mid, right). */
static void operands(const dm_node *n, const dm_node *op[3])
{
    op[0] = op[1] = op[2] = NULL;
    if (n->kind == DN_QUEST) {
        op[0] = n->left;
        op[1] = n->right->left;
        op[2] = n->right->right;
    } else if (n->kind >= DN_AVG && n->kind <= DN_DEFINED) {
        /* the function's metric is looked up by the function's own node */
    } else {
        op[0] = n->left;
        op[2] = n->right;
    }
}

/* A walk's stack: nodes to finish, with their next operand's position. */
typedef struct walk_item {
    dm_expr *e;
    int next; /* operands pushed so far */
} walk_item;

typedef struct walk {
    walk_item *v;
    size_t n, cap;
} walk;

static int walk_push(walk *w, dm_expr *e)
{
    if (w->n == w->cap) {
        size_t cap = w->cap ? w->cap * 2 : 64;
        walk_item *v = realloc(w->v, cap * sizeof(*v));
        if (v == NULL)
            return -ENOMEM;
        w->v = v;
        w->cap = cap;
    }
    w->v[w->n++] = (walk_item){e, 0};
    return 0;
}

/* The first pass: the bound nodes made (operands linked) and every
 * metric looked up, children before parents into order[]. */
static int first_pass(binder *b, const dm_node *root, dm_expr **out, dm_expr ***order,
                      size_t *norder)
{
    walk w = {NULL, 0, 0};
    size_t cap = 0;
    int sts = 0;

    *norder = 0;
    *order = NULL;
    if ((*out = new_expr(b, root)) == NULL || walk_push(&w, *out) < 0)
        sts = -ENOMEM;
    while (sts == 0 && w.n > 0) {
        walk_item *it = &w.v[w.n - 1];
        const dm_node *op[3];
        operands(it->e->syn, op);
        while (it->next < 3 && op[it->next] == NULL)
            it->next++;
        if (it->next < 3) {
            dm_expr *c = new_expr(b, op[it->next]);
            dm_expr **slot = it->next == 0   ? &it->e->left
                             : it->next == 1 ? &it->e->mid
                                             : &it->e->right;
            it->next++;
            if (c == NULL || walk_push(&w, c) < 0) {
                sts = -ENOMEM;
                break;
            }
            *slot = c;
            continue;
        }
        dm_expr *e = it->e;
        w.n--;
        if (*norder == cap) {
            size_t ncap = cap ? cap * 2 : 32;
            dm_expr **v = realloc(*order, ncap * sizeof(*v));
            if (v == NULL) {
                sts = -ENOMEM;
                break;
            }
            *order = v;
            cap = ncap;
        }
        (*order)[(*norder)++] = e;
        const dm_node *n = e->syn;
        if (n->kind == DN_NAME)
            sts = bind_metric(b, n->name, &e->pmid, &e->operand);
        else if (n->kind == DN_DEFINED)
            e->defined = bind_metric(b, n->left->name, &e->pmid, &e->operand) == 0;
        else if (n->kind >= DN_AVG && n->kind <= DN_INSTANT)
            sts = bind_metric(b, n->left->name, &e->pmid, &e->operand);
    }
    free(w.v);
    return sts;
}

int dm_bind(const dm_node *root, const char *metric, const dm_source *src, dm_arena *arena,
            dm_bound_tree *out, char **msg)
{
    binder b = {src, metric, arena, NULL, 0};
    int sts;

    *msg = NULL;
    memset(out, 0, sizeof(*out));
    sts = first_pass(&b, root, &out->root, &out->order, &out->norder);
    for (size_t i = 0; sts == 0 && i < out->norder; i++)
        sts = describe(&b, out->order[i]);
    if (b.nomem || sts == -ENOMEM) {
        free(b.msg);
        free(out->order);
        memset(out, 0, sizeof(*out));
        return -ENOMEM;
    }
    if (sts < 0) {
        free(out->order);
        memset(out, 0, sizeof(*out));
        *msg = b.msg;
        return PM_ERR_BADDERIVE;
    }
    out->scalar = dm_eval_scalar(out);
    return 0;
}
