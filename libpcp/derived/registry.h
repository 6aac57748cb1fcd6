/*
 * registry.h - the derived metrics registered in this process (global
 * ones, by pmRegisterDerived and pmLoadDerivedConfig) and what the files
 * of libpcp/derived share about them.
 */
#ifndef PMKIT_DERIVED_REGISTRY_H
#define PMKIT_DERIVED_REGISTRY_H

#include "derived_int.h"
#include "support.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

/*
 * The mutexes of this room's fetch path (the table of contexts, each
 * context's state) are not taken while the process has one thread
 * (pmkit_single_threaded), as the library's lock is not (context.c): a
 * fetch of derived metrics then makes no locked read-modify-write.  The
 * holder marks the mutex held instead; should it start a thread meanwhile
 * (an agent may), that thread takes the real mutex and waits for the mark
 * to clear.  Only the holder sets the mark, and a holder of the real mutex
 * finds it clear, so unlock tells which way it was taken from the mark.
 */
typedef struct dm_mutex {
    pthread_mutex_t m;
    atomic_int marked;
} dm_mutex;

#define DM_MUTEX_INITIALIZER                                                                       \
    {                                                                                              \
        PTHREAD_MUTEX_INITIALIZER, 0                                                               \
    }

static inline void dm_lock(dm_mutex *x)
{
    if (pmkit_single_threaded()) {
        /* no other thread can read it before one is started (pthread_create
         * orders this store before the new thread's first step) */
        atomic_store_explicit(&x->marked, 1, memory_order_relaxed);
        return;
    }
    pthread_mutex_lock(&x->m);
    while (atomic_load_explicit(&x->marked, memory_order_acquire))
        sched_yield();
}

static inline void dm_unlock(dm_mutex *x)
{
    if (atomic_load_explicit(&x->marked, memory_order_relaxed))
        atomic_store_explicit(&x->marked, 0, memory_order_release);
    else
        pthread_mutex_unlock(&x->m);
}

/* Read-modify-writes of this room's shared counters and pointers: plain
 * loads and stores while the process has one thread (as dm_lock). */
static inline int dm_ref_add(atomic_int *a, int d)
{
    if (pmkit_single_threaded()) {
        int v = atomic_load_explicit(a, memory_order_relaxed);
        atomic_store_explicit(a, v + d, memory_order_relaxed);
        return v;
    }
    return atomic_fetch_add(a, d);
}

/* One derived metric: its definition and its parsed tree. */
typedef struct dm_metric {
    size_t index;   /* in its registry (global) or context (its own) */
    char *name;     /* as registered */
    char *expr;     /* the expression as given */
    pmID pmid;      /* 511.0.n for global ones */
    dm_arena arena; /* the tree's memory */
    dm_node *root;  /* the tree */
    char *oneline;  /* help from a configuration file, or NULL */
    char *helptext;
} dm_metric;

typedef struct dm_registry {
    pthread_mutex_t lock; /* guards everything below */
    dm_metric **v;        /* the metrics in registration order */
    size_t n, cap;
    dm_metric **slots; /* open-addressing table by name */
    size_t nslots;     /* a power of two, at least twice n */
    long limit;        /* PCP_DERIVED_GLOBAL_LIMIT, -1 for none */
    int debug[3];      /* PCP_DERIVED_DEBUG_SYNTAX, _SEMANTICS, _EVAL */
    int started;       /* dm_start ran */
    char **prefixes;   /* every proper prefix of a name ("" too), a set */
    size_t nprefixes, prefix_slots;
    atomic_size_t published; /* n, for reading without the lock (a fetch
                              * asks it to know whether its plan holds) */
} dm_registry;

extern dm_registry pmkit_dm_registry;

/* The metric named name, or NULL (lock held). */
dm_metric *dm_registry_find(const dm_registry *r, const char *name);

/* A new metric for name = expr, parsed: 0, PM_ERR_BADDERIVE (*err, to be
 * freed with dm_syntax_free) or -ENOMEM. */
int dm_metric_new(const char *name, const char *expr, dm_metric **out, dm_syntax *err);
void dm_metric_free(dm_metric *m);

/* PMIDs: global metric k is 511.(k / 1023).(k % 1023 + 1), up to cluster
 * 1023; a context's own k-th is 511.(2047 - k / 1023).(1023 - k % 1023),
 * down to cluster 1024. */
#define DM_LOCAL_CLUSTER_MIN 1024
#define DM_MAX_GLOBAL        ((size_t)DM_LOCAL_CLUSTER_MIN * 1023)
#define DM_MAX_LOCAL         ((size_t)(2048 - DM_LOCAL_CLUSTER_MIN) * 1023)

static inline pmID dm_global_pmid(size_t k)
{
    return pmID_build(DYNAMIC_PMID, (unsigned int)(k / 1023), (unsigned int)(k % 1023 + 1));
}

static inline pmID dm_local_pmid(size_t k)
{
    return pmID_build(DYNAMIC_PMID, (unsigned int)(2047 - k / 1023),
                      (unsigned int)(1023 - k % 1023));
}

/* Is path a proper prefix of a global metric's name ("" is)? (lock held) */
int dm_registry_is_prefix(const dm_registry *r, const char *path, size_t len);

/* The global metric of pmid, or NULL (lock held). */
dm_metric *dm_registry_at(const dm_registry *r, pmID pmid);

/* Register name = expr globally (PCP's checks, the message kept for
 * pmDerivedErrStr): 0, PM_ERR_BADDERIVE with *at, or -ENOMEM. */
int dm_register_global(const char *name, const char *expr, long *at);

/* The message pmDerivedErrStr gives this thread (NULL: none). */
void dm_set_last_error(const char *msg);

/* Help of global metric name (help 0 oneline, 1 helptext): 0, PM_ERR_NAME
 * (no such metric), -EEXIST (set already) or -ENOMEM. */
int dm_set_help(const char *name, int help, const char *text);

/* Start the registry, once: the anonymous metrics and the configuration. */
void dm_start(void);

/* Load the derived metrics of a ':' separated path (config.c). */
int dm_load_config(const char *path);

/* A metric bound in a context. */
enum { DM_BOUND = 1, DM_FAILED = 2 };
typedef struct dm_bound {
    int state;          /* DM_BOUND or DM_FAILED */
    dm_arena arena;     /* its nodes */
    dm_bound_tree tree; /* DM_BOUND: the nodes */
    unsigned long gen;  /* the last fetch plan that evaluated it */
} dm_bound;

void dm_bound_free(dm_bound *b);

/* A context's derived state (ctx.c). */
typedef struct dm_ctx {
    int handle;
    atomic_int refs;   /* holders (the table's own included); taken
                        * under the table's lock, let go without it */
    dm_mutex lock;     /* guards all below, evaluation included */
    long limit;        /* PCP_DERIVED_CONTEXT_LIMIT */
    dm_bound **global; /* bindings of global metrics by index (NULL: none yet) */
    size_t nglobal;
    dm_metric **local; /* the context's own metrics, and their bindings */
    dm_bound **lbound;
    size_t nlocal, cap;
    unsigned long serial; /* names plans and their evaluations (plan.c) */
    /* the last fetch's plan, kept for the next: taken without the lock,
     * stored under it (plan.c) */
    _Atomic(struct dm_plan *) plan;
} dm_ctx;

/* A plan kept by a context, freed with it (plan.c). */
void dm_plan_discard(struct dm_plan *p);

/* The plan c keeps, taken from it (NULL if none): with or without c's
 * lock, the one way a plan leaves c->plan. */
static inline struct dm_plan *dm_plan_take(dm_ctx *c)
{
    if (pmkit_single_threaded()) {
        struct dm_plan *p = atomic_load_explicit(&c->plan, memory_order_relaxed);
        atomic_store_explicit(&c->plan, NULL, memory_order_relaxed);
        return p;
    }
    return atomic_exchange(&c->plan, NULL);
}

/* The state of context handle, or of the current one, held (or NULL);
 * put releases it. */
dm_ctx *dm_ctx_get(int handle);
dm_ctx *dm_ctx_current(void);
void dm_ctx_put(dm_ctx *c);
/* m (global, or the context's own if local) bound in c: bound now if it
 * was not (a semantic error printed), or NULL when memory ran out. */
dm_bound *dm_ctx_bind(dm_ctx *c, const dm_metric *m, int local);
/* m's binding in c if it has one yet, or NULL (no binding made). */
dm_bound *dm_ctx_peek(dm_ctx *c, const dm_metric *m, int local);
/* Is this thread binding a metric now (its operands being looked up)? */
int dm_binding(void);
/* c's own metric called name, or of pmid, or NULL. */
const dm_metric *dm_ctx_local_find(dm_ctx *c, const char *name);
const dm_metric *dm_ctx_local_at(dm_ctx *c, pmID pmid);

/* PCP's message for a failed registration by who ("pmRegisterDerivedMetric",
 * ...), malloc'd: the expression, a caret at at, and why if not NULL. */
char *dm_error_message(const char *who, const char *name, const char *expr, long at,
                       const char *why);

/* PCP_DERIVED_CONTEXT_LIMIT of the current context: get (set 0) or set
 * (set 1) *value; PM_ERR_NOCONTEXT without one. */
int dm_context_limit(int set, int *value);

#endif /* PMKIT_DERIVED_REGISTRY_H */
