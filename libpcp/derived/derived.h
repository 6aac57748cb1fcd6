/*
 * derived.h - the derived room (libpcp/derived): what the rest of libpcp
 * asks of the derived metrics.  Names (global ones, and the current
 * context's own, which mask global ones of the same name), descriptors
 * and help, and fetches: a fetch that names derived metrics is planned
 * (their operands are added to what the source fetches) and finished
 * (their values computed from the operands').
 *
 * The functions find the current context themselves (pmWhichContext; a
 * fetch's plan is given its handle) and take no lock of another room;
 * binding a metric to a context (at its first use there, as in PCP) calls
 * the public pmLookupName and pmLookupDesc, so callers must not hold the
 * library lock or a context when they call these, except where a comment
 * says otherwise.
 */
#ifndef PMKIT_DERIVED_H
#define PMKIT_DERIVED_H

#include <pcp/pmapi.h>

#include <time.h>

/* Is pmid in the PMID space of derived metrics (domain 511, cluster below
 * 2048, item not 0)?  IS_DERIVED's test on the bits (9 of domain from bit
 * 22, 12 of cluster from bit 10, 10 of item), without its three calls. */
static inline int pmkit_is_derived(pmID pmid)
{
    return (pmid & (0x1ffu << 22 | 2048u << 10)) == (unsigned)DYNAMIC_PMID << 22 &&
           (pmid & 0x3ffu) != 0;
}

/*
 * Names.  pmid: the derived metric called name (per-context first): 0 and
 * *pmid, or PM_ERR_NAME.  name: the name of pmid into *name (malloc'd):
 * 0, or PM_ERR_PMID.  Both start the registry (the anonymous metrics and
 * the configured files) as PCP's first derived lookup does.
 */
int pmkit_derived_pmid(const char *name, pmID *pmid);
int pmkit_derived_name(pmID pmid, char **name);

/*
 * The derived children of name in order, as PCP appends them to the
 * namespace's: each direct child not already in the namespace
 * (in_pmns(child's full name, arg) says) with whether it is a leaf, given
 * to add(child, leaf, arg).  Metrics whose binding failed in the current
 * context are left out.  0, or the first error add returns.  With
 * is_leaf set, *is_leaf says whether name is itself a derived leaf.
 */
int pmkit_derived_children(const char *name, int (*in_pmns)(const char *, void *),
                           int (*add)(const char *, int, void *), void *arg, int *is_leaf);

/* Might a derived metric lie below name (len bytes)?  A quick answer
 * (no lock of another room, no binding): 0 means none does. */
int pmkit_derived_below(const char *name, size_t len);

/* Every derived leaf at or below name that is not in the namespace,
 * depth first in the children's order, each full name to leaf(name, arg);
 * only the subtrees below name that the namespace does not have
 * (in_pmns) are walked.  The count, or add's first error. */
int pmkit_derived_walk(const char *name, int (*in_pmns)(const char *, void *),
                       int (*leaf)(const char *, void *), void *arg);

/* The global metrics at or below name ("" for all) bound in the current
 * context now, as PCP binds them when they are traversed where names come
 * from pmcd (a metric that fails to bind is then no name); nothing while
 * this thread is binding a metric.  0. */
int pmkit_derived_bind_below(const char *name);
/* Has derived metric pmid failed to bind in the current context (known
 * already: nothing is bound here)?  1 or 0. */
int pmkit_derived_failed(pmID pmid);
/* Does derived metric pmid bind in the current context (bound now if it
 * is not yet, unless a binding is under way: then as far as known)? */
int pmkit_derived_visible(pmID pmid);

/* The descriptor of derived metric pmid in the current context (bound
 * now if it is not yet): 0, PM_ERR_BADDERIVE when its binding failed,
 * PM_ERR_PMID for no such metric, PM_ERR_NOCONTEXT. */
int pmkit_derived_desc(pmID pmid, pmDesc *desc);
/* Its help (PM_TEXT_ONELINE or PM_TEXT_HELP in level), malloc'd:
 * 0, or PM_ERR_TEXT. */
int pmkit_derived_text(pmID pmid, int level, char **text);

/*
 * Fetch.  plan looks at a request: 0 when it holds no derived metric that
 * binds in the current context (the source answers it as it is; PCP's
 * NOAGENT for the others); 1 with *plan, whose list (plan_list) is what
 * the source is to fetch instead, into *got (all NULL): the request's
 * other metrics and the operands.  finish computes the value sets of
 * request pmids[0..n) into out[0..n), taking the source's sets of the
 * other metrics out of fetched (NULL left there), frees the operands'
 * sets with free_sets (which leaves NULL) and releases the plan; stamp is the fetch's time.  0, or
 * -ENOMEM. Where the source fails, plan_free releases the plan once got's sets are freed (and
 * NULL).  The context keeps a released plan for the next fetch of the same request, so that a
 * repeated fetch allocates nothing but its result.
 */
typedef struct dm_plan dm_plan;
/* handle: the calling thread's current context (the caller has it without
 * pmWhichContext's lock; a context gone since has no derived state here,
 * and the source's fetch then fails as it would) */
int pmkit_derived_plan(int handle, int n, const pmID *pmids, dm_plan **plan);
int pmkit_derived_plan_list(const dm_plan *plan, pmID **list, pmValueSet ***got);
int pmkit_derived_finish(dm_plan *plan, pmValueSet **fetched, const struct timespec *stamp,
                         pmValueSet **out, const pmID *pmids,
                         void (*free_sets)(pmValueSet **sets, int n));
void pmkit_derived_plan_free(dm_plan *plan);

/* Contexts: a new context starts the registry (as pmNewContext does in
 * PCP); a destroyed one's derived state is dropped. */
void pmkit_derived_context_new(int handle);
void pmkit_derived_context_destroy(int handle);

/* The PMIDs of event.flags and event.missed (registered when the registry
 * starts, so not fixed). */
pmID pmkit_derived_event_flags(void);
pmID pmkit_derived_event_missed(void);

#endif /* PMKIT_DERIVED_H */
