/*
 * ctx.c - derived metrics in contexts: each context's bindings of the
 * global metrics, made at a metric's first use there (as PCP's are; a
 * semantic error is printed then, once per context), and each context's
 * own metrics (pmAddDerived, pmAddDerivedMetric), checked in full when
 * they are added and gone with the context.  PCP_DERIVED_CONTEXT_LIMIT is
 * a context's own.
 *
 * The state of a context is found by its handle in a table of this room's
 * and held by reference, so that a context destroyed while another thread
 * evaluates in it is freed by the last holder.  Each has a mutex over its
 * bindings and evaluation state; binding calls the public pmLookupName and
 * pmLookupDesc (for the current context) with no lock of this room held,
 * and installs its result under the mutex unless another thread was
 * first.
 */
#include "derived.h"
#include "derived_int.h"
#include "registry.h"

#include <pcp/libpcp.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
    dm_mutex lock; /* guards the table (not the states) */
    dm_ctx **v;    /* by handle */
    size_t n;
} table = {DM_MUTEX_INITIALIZER, NULL, 0};

static void ctx_free(dm_ctx *c)
{
    dm_plan_discard(atomic_load(&c->plan));
    for (size_t i = 0; i < c->nglobal; i++)
        dm_bound_free(c->global[i]);
    for (size_t i = 0; i < c->nlocal; i++) {
        dm_bound_free(c->lbound[i]);
        dm_metric_free(c->local[i]);
    }
    free(c->global);
    free(c->local);
    free(c->lbound);
    pthread_mutex_destroy(&c->lock.m);
    free(c);
}

void dm_bound_free(dm_bound *b)
{
    if (b == NULL)
        return;
    dm_eval_release(&b->tree);
    free(b->tree.order);
    dm_arena_free(&b->arena);
    free(b);
}

dm_ctx *dm_ctx_get(int handle)
{
    dm_ctx *c = NULL;

    if (handle < 0)
        return NULL;
    dm_lock(&table.lock);
    if ((size_t)handle < table.n && (c = table.v[handle]) != NULL)
        dm_ref_add(&c->refs, 1);
    dm_unlock(&table.lock);
    return c;
}

dm_ctx *dm_ctx_current(void)
{
    return dm_ctx_get(pmWhichContext());
}

void dm_ctx_put(dm_ctx *c)
{
    /* the table holds a reference while it lists c, and references are
     * only taken from the table: the last one let go frees c */
    if (c != NULL && dm_ref_add(&c->refs, -1) == 1)
        ctx_free(c);
}

void pmkit_derived_context_new(int handle)
{
    dm_ctx *c;

    dm_start();
    if (handle < 0 || (c = calloc(1, sizeof(*c))) == NULL)
        return;
    c->handle = handle;
    c->limit = -1;
    atomic_init(&c->refs, 1);
    pthread_mutex_init(&c->lock.m, NULL);
    dm_lock(&table.lock);
    if ((size_t)handle >= table.n) {
        size_t n = (size_t)handle + 16;
        dm_ctx **v = realloc(table.v, n * sizeof(*v));
        if (v == NULL) {
            dm_unlock(&table.lock);
            ctx_free(c);
            return;
        }
        memset(v + table.n, 0, (n - table.n) * sizeof(*v));
        table.v = v;
        table.n = n;
    }
    dm_ctx *old = table.v[handle];
    table.v[handle] = c;
    dm_unlock(&table.lock);
    dm_ctx_put(old);
}

void pmkit_derived_context_destroy(int handle)
{
    dm_ctx *c = NULL;

    dm_lock(&table.lock);
    if (handle >= 0 && (size_t)handle < table.n) {
        c = table.v[handle];
        table.v[handle] = NULL;
    }
    dm_unlock(&table.lock);
    dm_ctx_put(c);
}

/* The source of a binding: the current context through the public API. */
static int src_lookup(void *arg, const char *name, pmID *pmid)
{
    (void)arg;
    int sts = pmLookupName(1, &name, pmid);
    return sts < 0 ? sts : 0;
}

static int src_desc(void *arg, pmID pmid, pmDesc *desc)
{
    (void)arg;
    return pmLookupDesc(pmid, desc);
}

static const dm_source context_source = {NULL, src_lookup, src_desc};

/*
 * m bound for c (its slot *slot, made if need be, under c's lock): bind
 * with no lock held, install unless another thread did.  The binding
 * (NULL when memory ran out); *msg its semantic error if it was made
 * here and failed with one (malloc'd; the caller reports it).
 */
/* Bindings under way in this thread: the lookups of their operands must
 * not bind in turn (a metric naming itself, or two naming each other). */
static _Thread_local int binding_depth;

int dm_binding(void)
{
    return binding_depth;
}

static dm_bound *bind_into(dm_ctx *c, dm_bound **slot, const dm_metric *m, char **msg)
{
    dm_bound *b = calloc(1, sizeof(*b)), *keep;
    char *why = NULL;

    *msg = NULL;
    if (b == NULL)
        return NULL;
    binding_depth++;
    int sts = dm_bind(m->root, m->name, &context_source, &b->arena, &b->tree, &why);
    binding_depth--;
    if (sts == -ENOMEM) {
        dm_bound_free(b);
        return NULL;
    }
    b->state = sts == 0 ? DM_BOUND : DM_FAILED;
    if (b->state == DM_FAILED)
        dm_arena_free(&b->arena);
    dm_lock(&c->lock);
    if ((keep = *slot) == NULL) {
        *slot = keep = b;
        b = NULL;
    }
    dm_unlock(&c->lock);
    if (b == NULL)
        *msg = why;
    else
        free(why);
    dm_bound_free(b);
    return keep;
}

/* The slot of global metric k in c, the table grown to hold it (lock held). */
static dm_bound **global_slot(dm_ctx *c, size_t k)
{
    if (k >= c->nglobal) {
        size_t n = k + 64;
        dm_bound **v = realloc(c->global, n * sizeof(*v));
        if (v == NULL)
            return NULL;
        memset(v + c->nglobal, 0, (n - c->nglobal) * sizeof(*v));
        c->global = v;
        c->nglobal = n;
    }
    return &c->global[k];
}

dm_bound *dm_ctx_bind(dm_ctx *c, const dm_metric *m, int local)
{
    dm_bound **slot, *b;
    char *msg;

    dm_lock(&c->lock);
    slot = local ? &c->lbound[m->index] : global_slot(c, m->index);
    b = slot != NULL ? *slot : NULL;
    dm_unlock(&c->lock);
    if (slot == NULL || b != NULL)
        return b;
    b = bind_into(c, slot, m, &msg);
    if (msg != NULL) {
        pmprintf("%s", msg);
        pmflush();
        free(msg);
    }
    return b;
}

dm_bound *dm_ctx_peek(dm_ctx *c, const dm_metric *m, int local)
{
    dm_bound *b = NULL;

    dm_lock(&c->lock);
    if (local)
        b = c->lbound[m->index];
    else if (m->index < c->nglobal)
        b = c->global[m->index];
    dm_unlock(&c->lock);
    return b;
}

/* c's own metric called name (lock held). */
static const dm_metric *local_named(const dm_ctx *c, const char *name)
{
    for (size_t i = 0; i < c->nlocal; i++)
        if (strcmp(c->local[i]->name, name) == 0)
            return c->local[i];
    return NULL;
}

const dm_metric *dm_ctx_local_find(dm_ctx *c, const char *name)
{
    dm_lock(&c->lock);
    const dm_metric *m = local_named(c, name);
    dm_unlock(&c->lock);
    return m;
}

const dm_metric *dm_ctx_local_at(dm_ctx *c, pmID pmid)
{
    const dm_metric *m = NULL;

    if (!IS_DERIVED(pmid) || pmID_cluster(pmid) < DM_LOCAL_CLUSTER_MIN)
        return NULL;
    size_t k = (size_t)(2047 - pmID_cluster(pmid)) * 1023 + (1023 - pmID_item(pmid));
    dm_lock(&c->lock);
    if (k < c->nlocal)
        m = c->local[k];
    dm_unlock(&c->lock);
    return m;
}

int dm_context_limit(int set, int *value)
{
    dm_ctx *c = dm_ctx_current();

    if (c == NULL)
        return PM_ERR_NOCONTEXT;
    dm_lock(&c->lock);
    if (set)
        c->limit = *value;
    else
        *value = (int)c->limit;
    dm_unlock(&c->lock);
    dm_ctx_put(c);
    return 0;
}

/* A context's own metric: the checks of registration, then of binding.
 * 0; PM_ERR_BADDERIVE with *at, *why (syntax or semantic, *kind says
 * which: 1 syntax, 2 semantic, 0 other); another error. */
static int add_local(dm_ctx *c, const char *name, const char *expr, long *at, char **why, int *kind)
{
    dm_metric *m = NULL;
    dm_syntax err = {0, NULL, NULL};
    int sts;

    *at = 0;
    *kind = 0;
    dm_lock(&c->lock);
    if (c->limit >= 0 && (long)c->nlocal >= c->limit)
        sts = -EDQUOT;
    else if (local_named(c, name) != NULL)
        sts = -EEXIST;
    else if (c->nlocal >= DM_MAX_LOCAL)
        sts = -ENOSPC;
    else
        sts = 0;
    dm_unlock(&c->lock);
    if (sts < 0) {
        *why = strdup(sts == -EDQUOT   ? "Too many per-context derived metrics"
                      : sts == -EEXIST ? "Duplicate per-context derived metric name"
                                       : "Per-context PMID space exhausted");
        return PM_ERR_BADDERIVE;
    }
    if ((sts = dm_metric_new(name, expr, &m, &err)) < 0) {
        *at = err.at;
        *why = err.msg != NULL ? strdup(err.msg) : NULL;
        *kind = 1;
        dm_syntax_free(&err);
        return sts;
    }
    dm_bound *b = calloc(1, sizeof(*b));
    char *msg = NULL;
    if (b == NULL) {
        dm_metric_free(m);
        return -ENOMEM;
    }
    sts = dm_bind(m->root, NULL, &context_source, &b->arena, &b->tree, &msg);
    if (sts == -ENOMEM) {
        dm_bound_free(b);
        dm_metric_free(m);
        return sts;
    }
    b->state = sts == 0 ? DM_BOUND : DM_FAILED;
    dm_lock(&c->lock);
    if (c->nlocal == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 16;
        dm_metric **v = realloc(c->local, cap * sizeof(*v));
        dm_bound **w = v != NULL ? realloc(c->lbound, cap * sizeof(*w)) : NULL;
        if (v != NULL)
            c->local = v;
        if (w != NULL) {
            c->lbound = w;
            c->cap = cap;
        }
    }
    if (c->nlocal < c->cap) {
        m->index = c->nlocal;
        m->pmid = dm_local_pmid(c->nlocal);
        c->local[c->nlocal] = m;
        c->lbound[c->nlocal++] = b;
        m = NULL;
        b = NULL;
        /* a kept plan was made without this metric (plan.c) */
        dm_plan_discard(dm_plan_take(c));
    }
    dm_unlock(&c->lock);
    if (m != NULL) {
        dm_bound_free(b);
        dm_metric_free(m);
        free(msg);
        return -ENOMEM;
    }
    if (msg != NULL) {
        *why = msg;
        *kind = 2;
        return PM_ERR_BADDERIVE;
    }
    return 0;
}

/* pmAddDerived and pmAddDerivedMetric: 0, or an error with the offset,
 * the reason (malloc'd, may be NULL) and its kind. */
static int add_current(const char *name, const char *expr, long *at, char **why, int *kind)
{
    dm_ctx *c = dm_ctx_current();
    int sts;

    *at = 0;
    *why = NULL;
    *kind = 0;
    if (c == NULL) {
        *why = strdup(pmErrStr(PM_ERR_NOCONTEXT));
        return PM_ERR_NOCONTEXT;
    }
    sts = add_local(c, name, expr, at, why, kind);
    dm_ctx_put(c);
    return sts;
}

char *pmAddDerived(const char *name, const char *expr)
{
    long at;
    char *why;
    int kind, sts = add_current(name, expr, &at, &why, &kind);

    dm_set_last_error(why);
    free(why);
    if (sts == 0)
        return NULL;
    return (char *)expr + (at > 0 ? at : 0);
}

int pmAddDerivedMetric(const char *name, const char *expr, char **errmsg)
{
    long at;
    char *why, *msg = NULL;
    int kind, sts = add_current(name, expr, &at, &why, &kind);

    dm_set_last_error(why);
    if (sts == 0) {
        free(why);
        return 0;
    }
    if (kind != 0) {
        msg = dm_error_message("pmAddDerivedMetric", name, expr, at, why);
        if (msg != NULL) {
            /* "Syntax Error: ..." or "Semantic Error: ..." */
            const char *label = kind == 1 ? "Syntax " : "Semantic ";
            char *full = malloc(strlen(label) + strlen(msg) + 1);
            if (full != NULL)
                sprintf(full, "%s%s", label, msg);
            free(msg);
            msg = full;
        }
    } else {
        size_t n = strlen(name) + (why ? strlen(why) : 0) + 80;
        if ((msg = malloc(n)) != NULL)
            snprintf(msg, n, "Error: pmAddDerivedMetric(\"%s\", ...): returns %d\n%s\n", name, sts,
                     why ? why : "");
    }
    free(why);
    if (errmsg != NULL)
        *errmsg = msg;
    else
        free(msg);
    return sts;
}

/*
 * __pmFreeDerived (dbpmda calls it): the context forgets its derived
 * metrics; their names still look up, but as PCP's then, their
 * descriptors and values come from no agent.
 */
void __pmFreeDerived(__pmContext *ctxp)
{
    if (ctxp != NULL)
        pmkit_derived_context_destroy(ctxp->c_handle);
}
