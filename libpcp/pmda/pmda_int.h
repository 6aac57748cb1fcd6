/*
 * pmda_int.h - private declarations shared by the files of libpcp_pmda.
 */
#ifndef PMKIT_PMDA_INT_H
#define PMKIT_PMDA_INT_H

#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include "context.h" /* __pmInProfile */
#include "labels.h"  /* __pmAddLabels, __pmGetContextLabels, __pmkit_flatten_labels */
#include "values.h"  /* __pmFreeInResult, __pmFreeResultValues, the event layout */

/* One metric-table entry in the lookup index: its PMID and position. */
typedef struct pmda_pmid_ix {
    pmID pmid;
    int ix;
} pmda_pmid_ix;

/*
 * What pmdaExt.e_ext points at: the library's private state for one
 * agent.  Agents never see inside it.
 */
typedef struct pmda_priv {
    pmdaInterface *dispatch; /* back pointer (never NULL), re-aimed by pmdaInterfaceMoved */
    pmResult *res;           /* fetch result skeleton, reused across fetches */
    int maxnpmids;           /* slots allocated in res */
    void *privdata;          /* pmdaSetData / pmdaExtSetData */
    pmda_pmid_ix *sorted;    /* without direct mapping: (PMID, table index) sorted */
    /* instance iteration state for __pmdaStartInst / __pmdaNextInst */
    int it_mode; /* ITER_NONE, ITER_SINGLE, ITER_CACHE or ITER_TABLE */
    pmInDom it_indom;
    pmdaIndom *it_idp;            /* ITER_TABLE: the table entry ... */
    int it_next;                  /* ... and the next position in it */
    int it_last;                  /* ITER_CACHE: the last id returned, -1 at the start */
    int it_all;                   /* the profile selects every instance of it_indom */
    struct pmda_dyn_set *dynamic; /* pmdaExtDynamicPMNS registrations (dynamic.c), or NULL */
    struct pmda_daemon *daemon;   /* pmcd connection state (daemon.c), or NULL */
} pmda_priv;

enum { ITER_NONE, ITER_SINGLE, ITER_CACHE, ITER_TABLE };

static inline pmda_priv *pmda_priv_of(const pmdaExt *pmda)
{
    return (pmda_priv *)pmda->e_ext;
}

/* Set by pmdaFetch and friends (interface >= 5); pmdaGetContext's answer. */
extern int pmda_current_context;

/* Is this an interface version libpcp_pmda serves (2 to latest; setup.c)? */
int pmda_version_ok(int version);

/* The metric table entry for pmid, or NULL (setup.c). */
pmdaMetric *pmda_find_metric(pmdaExt *pmda, pmID pmid);

/* Is there a cache for this indom; cache iteration by ascending inst (cache.c). */
int pmda_cache_exists(pmInDom indom);
/* The active instances of indom's cache, or -1 if it has none: both
 * questions under one hold of the cache lock. */
int pmda_cache_active(pmInDom indom);
/* Active instances in ascending id order: -1 when there are no more after `after`. */
int pmda_cache_next_active(pmInDom indom, int after);
/*
 * Every active instance, read under one hold of the cache lock: *ids in
 * ascending order, and *names one malloc'd block of the name pointers
 * followed by the names (pmGetInDom's layout).  Each array has at least
 * one slot; the caller frees both.  Returns the count, or -ENOMEM with
 * both NULL.
 */
int pmda_cache_pack_active(pmInDom indom, int **ids, char ***names);
/* The two arrays of that layout for n instances whose names take bytes
 * (NULs included), at least one slot each: where the names go, or NULL
 * with both NULL and freed (methods.c). */
char *pmda_pack_alloc(int n, size_t bytes, int **ids, char ***names);
/* A malloc'd copy of inst's name, taken under the cache's lock: 0,
 * PM_ERR_INST if inst is not active, or -ENOMEM. */
int pmda_cache_copy_name(pmInDom indom, int inst, char **name);
/* inst of an active entry whose name matches (to the first space), or -1. */
int pmda_cache_find_name(pmInDom indom, const char *name);

/* Does the tree's reverse index (as of its last pmdaTreeRebuildHash) hold
 * a name for pmid; does the tree have a node, leaf or not, called name
 * (tree.c; both 0 for a NULL tree). */
int pmda_tree_has_pmid(const pmdaNameSpace *tree, pmID pmid);
int pmda_tree_has_name(const pmdaNameSpace *tree, const char *name);

/* Exported by PCP's libpcp_pmda and declared in none of its installed
 * headers: a name's node below a node list (nodes.c). */
struct __pmnsNode;
PMDA_CALL void *__pmdaHelpTab(void); /* help.c: PCP's handle table, for chkhelp */
PMDA_CALL struct __pmnsNode *pmdaNodeLookup(struct __pmnsNode *, const char *);

#endif /* PMKIT_PMDA_INT_H */
