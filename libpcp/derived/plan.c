/*
 * plan.c - fetching derived metrics: a request that names derived metrics
 * becomes one fetch from the context's source of the request's other
 * metrics and every operand the derived ones need (PCP's prefetch), and
 * the derived metrics' value sets are then computed from what came back.
 *
 * PCP's rules for the value sets: when at least one derived metric of a
 * request binds in the context, every derived metric of the request that
 * does not (a failed binding, no such PMID) gets PM_ERR_PMID; when none
 * does, the request goes to the source as it is (which answers NOAGENT
 * for domain 511).  A derived metric named twice in a request is
 * evaluated once.  Values of 32-bit integers are in place, others in
 * value blocks allocated with their value set, as libpcp's results are.
 *
 * Evaluation holds the context's derived lock; instance names for
 * [instance] and matchinst are asked of the context under it (once per
 * instance, kept), through the public pmLookupInDom and pmNameInDom.
 */
#include "derived.h"
#include "derived_int.h"
#include "registry.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct dm_plan {
    dm_ctx *ctx;      /* held (NULL while kept by the context) */
    int n;            /* the request's size */
    pmID *pmids;      /* the request */
    size_t nlocal;    /* the context's own metrics when it was made */
    size_t nglobal;   /* the global metrics when it was made */
    int complete;     /* made whole: it can be kept for the next fetch */
    pmValueSet **got; /* what the source answers, per list entry */
    dm_bound **bound; /* per request slot: its binding, or NULL for a
                       * metric of the source, or DM_FAILED_SLOT */
    int *slot;        /* per request slot of the source: its place in list */
    pmID *list;       /* what the source fetches */
    int nlist, caplist;
    int *map; /* open addressing: list index by PMID, -1 empty */
    size_t mapsize;
    unsigned long gen; /* this evaluation (c->serial) */
    unsigned long id;  /* names it to the nodes (dm_eval_in.plan; c->serial
                        * at its first evaluation) */
};

#define FAILED_SLOT ((dm_bound *)&failed_slot)
static const int failed_slot;

static size_t hash_pmid(pmID p, size_t size)
{
    return (size_t)((p * 2654435761u) >> 7) & (size - 1);
}

static int map_find(const dm_plan *p, pmID pmid)
{
    if (p->mapsize == 0)
        return -1;
    for (size_t i = hash_pmid(pmid, p->mapsize);; i = (i + 1) & (p->mapsize - 1)) {
        int k = p->map[i];
        if (k < 0)
            return -1;
        if (p->list[k] == pmid)
            return k;
    }
}

/* Add pmid to the list (once, when unique; always otherwise): its index. */
static int list_add(dm_plan *p, pmID pmid, int unique)
{
    int k;

    if (unique && (k = map_find(p, pmid)) >= 0)
        return k;
    if (p->nlist == p->caplist) {
        int cap = p->caplist ? p->caplist * 2 : 64;
        pmID *l = realloc(p->list, (size_t)cap * sizeof(*l));
        if (l == NULL)
            return -ENOMEM;
        p->list = l;
        p->caplist = cap;
    }
    if ((size_t)(p->nlist + 1) * 2 > p->mapsize) {
        size_t size = p->mapsize ? p->mapsize * 2 : 128;
        int *m = malloc(size * sizeof(*m));
        if (m == NULL)
            return -ENOMEM;
        memset(m, 0xff, size * sizeof(*m));
        for (int j = 0; j < p->nlist; j++) {
            size_t i = hash_pmid(p->list[j], size);
            while (m[i] >= 0)
                i = (i + 1) & (size - 1);
            m[i] = j;
        }
        free(p->map);
        p->map = m;
        p->mapsize = size;
    }
    k = p->nlist++;
    p->list[k] = pmid;
    size_t i = hash_pmid(pmid, p->mapsize);
    while (p->map[i] >= 0)
        i = (i + 1) & (p->mapsize - 1);
    p->map[i] = k;
    return k;
}

void dm_plan_discard(dm_plan *p)
{
    if (p == NULL)
        return;
    free(p->pmids);
    free(p->got);
    free(p->bound);
    free(p->slot);
    free(p->list);
    free(p->map);
    free(p);
}

/*
 * The plan a context keeps: c->plan is taken without the lock (an atomic
 * exchange, dm_plan_take) and stored only under it, when the plan was made
 * with the context's own metrics there are now; adding one (ctx.c) drops
 * the kept plan under the same lock.  So a plan found there is never stale
 * for the context's own metrics, and a fetch that finds its plan takes no
 * lock.
 */

/* Keep p in c (c's lock held) unless c keeps one already (another
 * thread's) or p is stale: 1 when kept.  Only holders of the lock store a
 * plan there, and takers only empty it, so a place found empty under the
 * lock stays empty until the store: no compare-exchange is needed. */
static int keep_locked(dm_ctx *c, dm_plan *p)
{
    if (!p->complete || p->nlocal != c->nlocal ||
        atomic_load_explicit(&c->plan, memory_order_relaxed) != NULL)
        return 0;
    atomic_store_explicit(&c->plan, p, memory_order_release);
    return 1;
}

/* p back to c for the next fetch, or freed. */
static void keep(dm_ctx *c, dm_plan *p)
{
    int kept;

    dm_lock(&c->lock);
    kept = keep_locked(c, p);
    dm_unlock(&c->lock);
    if (!kept)
        dm_plan_discard(p);
}

void pmkit_derived_plan_free(dm_plan *p)
{
    if (p == NULL)
        return;
    dm_ctx *c = p->ctx;
    p->ctx = NULL;
    if (c != NULL)
        keep(c, p);
    else
        dm_plan_discard(p);
    dm_ctx_put(c);
}

static size_t global_count(void)
{
    return atomic_load(&pmkit_dm_registry.published);
}

/* The plan c keeps, if it was made for this request with the global
 * metrics there are now (bindings do not change once made), taken; or
 * NULL (a kept plan for another request stays kept). */
static dm_plan *kept_plan(dm_ctx *c, int n, const pmID *pmids, size_t nglobal)
{
    dm_plan *p = dm_plan_take(c);

    if (p != NULL && p->n == n && p->nglobal == nglobal &&
        (n == 1 ? p->pmids[0] == pmids[0]
                : memcmp(p->pmids, pmids, (size_t)n * sizeof(*pmids)) == 0))
        return p;
    if (p != NULL)
        keep(c, p);
    return NULL;
}

/* The binding of derived metric pmid in c (made now if need be), or NULL
 * when pmid is no metric of c's. */
static dm_bound *binding(dm_ctx *c, pmID pmid)
{
    const dm_metric *m = dm_ctx_local_at(c, pmid);

    if (m != NULL)
        return dm_ctx_bind(c, m, 1);
    dm_registry *r = &pmkit_dm_registry;
    pthread_mutex_lock(&r->lock);
    m = dm_registry_at(r, pmid);
    pthread_mutex_unlock(&r->lock);
    if (m == NULL || dm_ctx_local_find(c, m->name) != NULL)
        return NULL; /* a context's own metric of that name masks it */
    return dm_ctx_bind(c, m, 0);
}

/* The operands of a bound tree into the list. */
static int add_operands(dm_plan *p, const dm_bound *b)
{
    for (size_t i = 0; i < b->tree.norder; i++) {
        const dm_expr *e = b->tree.order[i];
        if (e->pmid != PM_ID_NULL && e->kind != DN_DEFINED && list_add(p, e->pmid, 1) < 0)
            return -ENOMEM;
    }
    return 0;
}

static int plan_build(dm_plan *p, int n, const pmID *pmids)
{
    int any = 0;

    for (int i = 0; i < n; i++) {
        if (!pmkit_is_derived(pmids[i]))
            continue;
        dm_bound *b = binding(p->ctx, pmids[i]);
        p->bound[i] = b != NULL && b->state == DM_BOUND ? b : FAILED_SLOT;
        any |= p->bound[i] != FAILED_SLOT;
    }
    if (!any)
        return 0;
    for (int i = 0; i < n; i++) /* the source's metrics first, each its own set */
        if (p->bound[i] == NULL && (p->slot[i] = list_add(p, pmids[i], 0)) < 0)
            return -ENOMEM;
    for (int i = 0; i < n; i++)
        if (p->bound[i] != NULL && p->bound[i] != FAILED_SLOT && add_operands(p, p->bound[i]) < 0)
            return -ENOMEM;
    return 1;
}

int pmkit_derived_plan(int handle, int n, const pmID *pmids, dm_plan **plan)
{
    int i, sts;

    *plan = NULL;
    for (i = 0; i < n && !pmkit_is_derived(pmids[i]); i++)
        ;
    if (i == n)
        return 0;
    dm_ctx *c = dm_ctx_get(handle);
    if (c == NULL)
        return 0;
    size_t nglobal = global_count();
    dm_plan *p = kept_plan(c, n, pmids, nglobal);
    if (p != NULL) {
        p->ctx = c;
        *plan = p;
        return 1;
    }
    if ((p = calloc(1, sizeof(*p))) == NULL) {
        dm_ctx_put(c);
        return -ENOMEM;
    }
    p->n = n;
    p->ctx = c;
    dm_lock(&c->lock);
    p->nlocal = c->nlocal;
    dm_unlock(&c->lock);
    p->nglobal = nglobal;
    p->bound = calloc((size_t)n, sizeof(*p->bound));
    p->slot = calloc((size_t)n, sizeof(*p->slot));
    p->pmids = malloc((size_t)n * sizeof(*p->pmids));
    if (p->bound == NULL || p->slot == NULL || p->pmids == NULL)
        sts = -ENOMEM;
    else
        sts = plan_build(p, n, pmids);
    if (sts > 0 && (p->got = calloc(p->nlist > 0 ? (size_t)p->nlist : 1, sizeof(*p->got))) == NULL)
        sts = -ENOMEM;
    if (sts <= 0) {
        pmkit_derived_plan_free(p);
        return sts;
    }
    memcpy(p->pmids, pmids, (size_t)n * sizeof(*pmids));
    p->complete = 1;
    *plan = p;
    return 1;
}

int pmkit_derived_plan_list(const dm_plan *p, pmID **list, pmValueSet ***got)
{
    *list = p->list;
    *got = p->got;
    return p->nlist;
}

/* ---- evaluation's questions to the context ---- */

static int slot_of(void *arg, pmID pmid)
{
    return map_find(arg, pmid);
}

static int inst_of(void *arg, pmInDom indom, const char *name)
{
    (void)arg;
    return pmLookupInDom(indom, name);
}

static int name_of(void *arg, pmInDom indom, int inst, char **name)
{
    (void)arg;
    return pmNameInDom(indom, inst, name);
}

/* The payload bytes of values of type: 8 or 4 for numbers in value blocks,
 * 0 when it varies by value (strings, aggregates, events). */
static size_t fixed_len(int type)
{
    return type == PM_TYPE_64 || type == PM_TYPE_U64 || type == PM_TYPE_DOUBLE ? 8
           : type == PM_TYPE_FLOAT                                             ? sizeof(float)
                                                                               : 0;
}

/* The payload of value a of type (fixed_len 0) into *src and its length. */
static size_t var_payload(const pmAtomValue *a, int type, const void **src)
{
    if (type == PM_TYPE_STRING) {
        *src = a->cp;
        return strlen(a->cp) + 1;
    }
    *src = a->vbp->vbuf;
    return (size_t)a->vbp->vlen - PM_VAL_HDR_SIZE;
}

#define BLOCK_SIZE(len) ((PM_VAL_HDR_SIZE + (len) + 7) & ~(size_t)7)

/* The value set of a bound metric's values (root node), one allocation;
 * numbers of 8 or 4 bytes are sized and copied without a test per value. */
static pmValueSet *value_set(pmID pmid, const dm_expr *root)
{
    const dm_values *v = &root->cur;
    int type = root->desc.type, n = v->n > 0 ? v->n : 0;
    size_t head = sizeof(pmValueSet) + (n > 1 ? (size_t)(n - 1) * sizeof(pmValue) : 0);
    size_t payload = 0, flen = fixed_len(type);
    int insitu = type == PM_TYPE_32 || type == PM_TYPE_U32;
    const void *src;

    if (!insitu && flen != 0)
        payload = (size_t)n * BLOCK_SIZE(flen);
    else if (!insitu)
        for (int j = 0; j < n; j++)
            payload += BLOCK_SIZE(var_payload(&v->v[j].a, type, &src));
    head = (head + 7) & ~(size_t)7;
    pmValueSet *vs = malloc(head + payload);
    if (vs == NULL)
        return NULL;
    vs->pmid = pmid;
    vs->numval = v->n;
    vs->valfmt = insitu ? PM_VAL_INSITU : PM_VAL_DPTR;
    char *next = (char *)vs + head;
    for (int j = 0; j < n; j++) {
        pmValue *pv = &vs->vlist[j];
        const pmAtomValue *a = &v->v[j].a;
        pv->inst = v->v[j].inst;
        if (insitu) {
            pv->value.lval = a->l;
            continue;
        }
        pmValueBlock *b = (pmValueBlock *)next;
        size_t len = flen;
        if (flen == 8)
            memcpy(b->vbuf, &a->ull, 8);
        else if (flen != 0)
            memcpy(b->vbuf, &a->f, sizeof(float));
        else {
            len = var_payload(a, type, &src);
            memcpy(b->vbuf, src, len);
        }
        /* the header in one store (vtype the word's high byte, as
         * libpcp_pmda's vset_place writes it): two bit-field updates, a
         * byte store then a read of the word, cost a failed store
         * forwarding each */
        uint32_t hdr = (uint32_t)(type & 0xff) << 24 | (uint32_t)(PM_VAL_HDR_SIZE + len);
        memcpy(b, &hdr, PM_VAL_HDR_SIZE);
        pv->value.pval = b;
        next += BLOCK_SIZE(len);
    }
    return vs;
}

static pmValueSet *error_set(pmID pmid, int err)
{
    pmValueSet *vs = calloc(1, sizeof(*vs));

    if (vs != NULL) {
        vs->pmid = pmid;
        vs->numval = err;
    }
    return vs;
}

/* Evaluate p's derived metrics into out (c's lock held): 0 or -ENOMEM. */
static int finish_derived(dm_ctx *c, dm_plan *p, pmValueSet **fetched, const struct timespec *stamp,
                          pmValueSet **out, const pmID *pmids)
{
    int sts = 0;

    /* named by the context's count, under its lock: no shared counter */
    if (p->id == 0)
        p->id = ++c->serial;
    p->gen = ++c->serial;
    dm_eval_in in = {fetched, p, slot_of, inst_of, name_of, stamp, p->id};

    for (int i = 0; i < p->n; i++) {
        dm_bound *b = p->bound[i];
        if (b == NULL)
            continue; /* below, once no operand needs the source's sets */
        if (b == FAILED_SLOT) {
            out[i] = error_set(pmids[i], PM_ERR_PMID);
            continue;
        }
        if (b->gen != p->gen) {
            b->gen = p->gen;
            if (sts == 0)
                sts = dm_eval(&b->tree, &in);
        }
        out[i] = sts < 0 ? NULL : value_set(pmids[i], b->tree.root);
    }
    return sts;
}

/*
 * One lock round trip for the evaluation and for giving the plan back: the
 * operands' sets are freed before the plan can be anyone else's.
 */
int pmkit_derived_finish(dm_plan *p, pmValueSet **fetched, const struct timespec *stamp,
                         pmValueSet **out, const pmID *pmids,
                         void (*free_sets)(pmValueSet **sets, int n))
{
    dm_ctx *c = p->ctx;
    int n = p->n, sts;

    p->ctx = NULL;
    dm_lock(&c->lock);
    sts = finish_derived(c, p, fetched, stamp, out, pmids);
    /* the request's own metrics of the source: their sets move to out (an
     * operand that is also in the request read the same set above) */
    for (int i = 0; i < p->n; i++) {
        if (p->bound[i] == NULL) {
            out[i] = fetched[p->slot[i]];
            fetched[p->slot[i]] = NULL;
        }
    }
    free_sets(fetched, p->nlist);
    if (keep_locked(c, p))
        p = NULL;
    dm_unlock(&c->lock);
    dm_ctx_put(c);
    dm_plan_discard(p);
    for (int i = 0; i < n; i++)
        if (out[i] == NULL && sts == 0)
            sts = -ENOMEM;
    return sts;
}
