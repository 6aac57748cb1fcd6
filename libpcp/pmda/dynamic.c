/*
 * dynamic.c - dynamic metrics: subtrees of an agent's namespace whose
 * names, help text and metric table entries change at run time
 * (pmdaExtDynamicPMNS, pmdaDynamicPMNS, pmdaDynamicLookupName,
 * pmdaDynamicLookupPMID, pmdaDynamicLookupText, pmdaDynamicMetricTable,
 * pmdaDynamicSetClusterMask).
 *
 * An agent registers each subtree with four callbacks: pmnsupdate hands
 * back the subtree's current tree (tree.c) and says whether it changed,
 * mtabcounts says how many metrics one copy of the subtree has and how
 * many extra copies there are, mtabupdate fills one copy's table entry,
 * textupdate answers help text.  What PCP 6.0.3 does with them, as
 * observed and reproduced here:
 *   - every lookup first refreshes: each registration's pmnsupdate, in
 *     registration order, and if any reported a change the metric table
 *     is rebuilt;
 *   - a name belongs to the first registration whose tree has a node of
 *     that name, a PMID to the first whose tree (by its reverse index)
 *     has a name for it.  The prefix names a registration for
 *     pmdaDynamicSetClusterMask; it, the cluster list and the cluster mask
 *     play no part in lookups, so the clusters and the mask are not kept;
 *   - the metric table is the first registration's table followed, for
 *     each registration, by `trees` copies (ids 1..trees) of each of its
 *     metrics whose PMID has a name in its tree; the table has the first
 *     table's size plus the sum of total * trees entries (zeroed when the
 *     copies need fewer), and goes to pmdaRehash.  With no copies at all
 *     the first table itself goes back.
 * pmdaDynamicPMNS has no pmdaExt, so its registrations are process-wide
 * (a list guarded for appending); they serve an agent that made none
 * with pmdaExtDynamicPMNS.
 *
 * Deliberately not PCP: a table built here is freed when replaced and a
 * table the agent owns never is; more copies than mtabcounts announced
 * grow the table instead of writing past it (and memory running out
 * meanwhile leaves the installed table as it was); missing callbacks, NULL
 * trees and a NULL pmdaExt are tolerated; pmdaDynamicSetClusterMask
 * reports 0 for a prefix registered (docs/compat.md).
 */
#include "pmda_int.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* One registered subtree. */
typedef struct dyn_ent {
    char *prefix;              /* the subtree's root, as registered */
    pmdaUpdatePMNS pmnsupdate; /* the callbacks, any of them may be NULL */
    pmdaUpdateText textupdate;
    pmdaUpdateMetric mtabupdate;
    pmdaCountMetrics mtabcounts;
    pmdaMetric *metrics; /* the agent's table the copies come from */
    int nmetrics;
    pmdaNameSpace *pmns;            /* the tree pmnsupdate handed back last */
    int total, trees;               /* mtabcounts' last answer */
    _Atomic(struct dyn_ent *) next; /* the next registration (lists only grow) */
} dyn_ent;

/* The registrations of one agent (pmda_priv.dynamic), or the process-wide ones. */
struct pmda_dyn_set {
    _Atomic(dyn_ent *) head; /* registration order */
    dyn_ent *tail;           /* the last one, for appending */
    pmdaMetric *owned;       /* the metric table this file built, now in use, or NULL */
};

static struct pmda_dyn_set legacy;
static pthread_mutex_t legacy_lock = PTHREAD_MUTEX_INITIALIZER;

/* The agent's own set, made on first need; NULL if there is no room. */
static struct pmda_dyn_set *own_set(pmdaExt *pmda)
{
    pmda_priv *priv = pmda != NULL ? pmda_priv_of(pmda) : NULL;

    if (priv == NULL)
        return NULL;
    if (priv->dynamic == NULL)
        priv->dynamic = calloc(1, sizeof(*priv->dynamic));
    return priv->dynamic;
}

/* The first registration serving pmda: its own, else the process-wide ones. */
static dyn_ent *first_ent(pmdaExt *pmda)
{
    pmda_priv *priv = pmda != NULL ? pmda_priv_of(pmda) : NULL;
    dyn_ent *e = NULL;

    if (priv != NULL && priv->dynamic != NULL)
        e = atomic_load(&priv->dynamic->head);
    return e != NULL ? e : atomic_load(&legacy.head);
}

static void add_ent(struct pmda_dyn_set *set, const char *prefix, pmdaUpdatePMNS pmnsupdate,
                    pmdaUpdateText textupdate, pmdaUpdateMetric mtabupdate,
                    pmdaCountMetrics mtabcounts, pmdaMetric *metrics, int nmetrics)
{
    dyn_ent *e = calloc(1, sizeof(*e));

    if (e == NULL || (e->prefix = strdup(prefix != NULL ? prefix : "")) == NULL) {
        pmNotifyErr(LOG_ERR, "pmdaDynamicPMNS: no memory to register \"%s\"",
                    prefix != NULL ? prefix : "");
        free(e);
        return;
    }
    e->pmnsupdate = pmnsupdate;
    e->textupdate = textupdate;
    e->mtabupdate = mtabupdate;
    e->mtabcounts = mtabcounts;
    e->metrics = metrics;
    e->nmetrics = metrics != NULL && nmetrics > 0 ? nmetrics : 0;
    if (set->tail != NULL)
        atomic_store(&set->tail->next, e);
    else
        atomic_store(&set->head, e);
    set->tail = e;
}

void pmdaExtDynamicPMNS(const char *prefix, int *clusters, int nclusters, pmdaUpdatePMNS pmnsupdate,
                        pmdaUpdateText textupdate, pmdaUpdateMetric mtabupdate,
                        pmdaCountMetrics mtabcounts, pmdaMetric *metrics, int nmetrics,
                        pmdaExt *pmda)
{
    struct pmda_dyn_set *set = own_set(pmda);

    if (set == NULL) {
        pmNotifyErr(LOG_ERR, "pmdaExtDynamicPMNS: \"%s\" not registered: no agent state",
                    prefix != NULL ? prefix : "");
        return;
    }
    (void)clusters; /* no part in lookups (see the top of the file) */
    (void)nclusters;
    add_ent(set, prefix, pmnsupdate, textupdate, mtabupdate, mtabcounts, metrics, nmetrics);
}

void pmdaDynamicPMNS(const char *prefix, int *clusters, int nclusters, pmdaUpdatePMNS pmnsupdate,
                     pmdaUpdateText textupdate, pmdaUpdateMetric mtabupdate,
                     pmdaCountMetrics mtabcounts, pmdaMetric *metrics, int nmetrics)
{
    (void)clusters;
    (void)nclusters;
    pthread_mutex_lock(&legacy_lock);
    add_ent(&legacy, prefix, pmnsupdate, textupdate, mtabupdate, mtabcounts, metrics, nmetrics);
    pthread_mutex_unlock(&legacy_lock);
}

/* Only pmdaDynamicPMNS's registrations can be named without a pmdaExt;
 * the mask, which nothing reads, is not kept: 0 for a prefix registered. */
int pmdaDynamicSetClusterMask(const char *prefix, unsigned int mask)
{
    (void)mask;
    if (prefix == NULL)
        return -EINVAL;
    for (dyn_ent *e = atomic_load(&legacy.head); e != NULL; e = atomic_load(&e->next))
        if (strcmp(e->prefix, prefix) == 0)
            return 0;
    return -EINVAL;
}

/* Every registration's pmnsupdate, then a new metric table if any changed. */
static void refresh(pmdaExt *pmda)
{
    int changed = 0;

    for (dyn_ent *e = first_ent(pmda); e != NULL; e = atomic_load(&e->next))
        if (e->pmnsupdate != NULL && e->pmnsupdate(pmda, &e->pmns) != 0)
            changed = 1;
    if (changed)
        pmdaDynamicMetricTable(pmda);
}

pmdaNameSpace *pmdaDynamicLookupName(pmdaExt *pmda, const char *name)
{
    refresh(pmda);
    for (dyn_ent *e = first_ent(pmda); e != NULL; e = atomic_load(&e->next))
        if (pmda_tree_has_name(e->pmns, name))
            return e->pmns;
    return NULL;
}

/* The registration whose tree names pmid, after a refresh; NULL if none. */
static dyn_ent *ent_for_pmid(pmdaExt *pmda, pmID pmid)
{
    refresh(pmda);
    for (dyn_ent *e = first_ent(pmda); e != NULL; e = atomic_load(&e->next))
        if (pmda_tree_has_pmid(e->pmns, pmid))
            return e;
    return NULL;
}

pmdaNameSpace *pmdaDynamicLookupPMID(pmdaExt *pmda, pmID pmid)
{
    dyn_ent *e = ent_for_pmid(pmda, pmid);

    return e != NULL ? e->pmns : NULL;
}

int pmdaDynamicLookupText(pmID ident, int type, char **buf, pmdaExt *pmda)
{
    dyn_ent *e = ent_for_pmid(pmda, ident);

    if (e == NULL || e->textupdate == NULL)
        return -ENOENT;
    return e->textupdate(pmda, ident, type, buf);
}

/* Install table (n entries) in pmda; table is this file's (owned) or the agent's. */
static void install(pmdaExt *pmda, struct pmda_dyn_set *set, pmdaMetric *table, int n, int owned)
{
    pmdaMetric *old = set->owned;

    pmdaRehash(pmda, table, n);
    set->owned = owned ? table : NULL;
    if (old != table)
        free(old);
}

/* One more entry at slot *used of *table (*cap entries), growing it by
 * doubling when full: the slot, or NULL if memory ran out. */
static pmdaMetric *next_slot(pmdaMetric **table, size_t *cap, size_t *used)
{
    if (*used == *cap) {
        pmdaMetric *t = realloc(*table, 2 * *cap * sizeof(**table));
        if (t == NULL)
            return NULL;
        memset(t + *cap, 0, *cap * sizeof(**table));
        *table = t;
        *cap *= 2;
    }
    return &(*table)[(*used)++];
}

/* e's copies (ids 1..trees) of its metrics that its tree names: 0, or
 * -ENOMEM. */
static int add_copies(pmdaExt *pmda, dyn_ent *e, pmdaMetric **table, size_t *cap, size_t *used)
{
    if (e->pmnsupdate != NULL)
        e->pmnsupdate(pmda, &e->pmns);
    for (int m = 0; m < e->nmetrics; m++) {
        pmdaMetric *src = &e->metrics[m], *dst;
        if (!pmda_tree_has_pmid(e->pmns, src->m_desc.pmid))
            continue;
        for (int id = 1; id <= e->trees; id++) {
            if ((dst = next_slot(table, cap, used)) == NULL)
                return -ENOMEM;
            *dst = *src;
            if (e->mtabupdate != NULL)
                e->mtabupdate(src, dst, id);
        }
    }
    return 0;
}

void pmdaDynamicMetricTable(pmdaExt *pmda)
{
    struct pmda_dyn_set *set = own_set(pmda);
    dyn_ent *first = first_ent(pmda);
    size_t extra = 0, planned, cap, used;
    pmdaMetric *table;

    if (set == NULL || first == NULL)
        return;
    for (dyn_ent *e = first; e != NULL; e = atomic_load(&e->next)) {
        e->total = e->trees = 0;
        if (e->mtabcounts != NULL)
            e->mtabcounts(&e->total, &e->trees);
        if (e->total > 0 && e->trees > 0)
            extra += (size_t)e->total * (size_t)e->trees;
    }
    if (extra == 0) {
        install(pmda, set, first->metrics, first->nmetrics, 0);
        return;
    }
    cap = planned = (size_t)first->nmetrics + extra;
    if (cap > INT32_MAX || (table = calloc(cap, sizeof(*table))) == NULL) {
        pmNotifyErr(LOG_ERR, "pmdaDynamicMetricTable: no memory for %zu metrics", cap);
        return;
    }
    if (first->nmetrics > 0)
        memcpy(table, first->metrics, (size_t)first->nmetrics * sizeof(*table));
    used = (size_t)first->nmetrics;
    for (dyn_ent *e = first; e != NULL; e = atomic_load(&e->next)) {
        if (add_copies(pmda, e, &table, &cap, &used) < 0) {
            pmNotifyErr(LOG_ERR,
                        "pmdaDynamicMetricTable: no memory for more than %zu metrics; "
                        "the table stays as it was",
                        used);
            free(table);
            return;
        }
    }
    /* the planned size, zero-padded, unless more copies were made */
    install(pmda, set, table, (int)(used > planned ? used : planned), 1);
}
