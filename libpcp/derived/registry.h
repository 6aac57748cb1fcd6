/*
 * registry.h - the derived metrics registered in this process (global
 * ones, by pmRegisterDerived and pmLoadDerivedConfig) and what the files
 * of libpcp/derived share about them.
 */
#ifndef PMKIT_DERIVED_REGISTRY_H
#define PMKIT_DERIVED_REGISTRY_H

#include "derived_int.h"

#include <pthread.h>

/* One derived metric: its definition and its parsed tree. */
typedef struct dm_metric {
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
} dm_registry;

extern dm_registry pmkit_dm_registry;

/* The metric named name, or NULL (lock held). */
dm_metric *dm_registry_find(const dm_registry *r, const char *name);

/* A new metric for name = expr, parsed: 0, PM_ERR_BADDERIVE (*err, to be
 * freed with dm_syntax_free) or -ENOMEM. */
int dm_metric_new(const char *name, const char *expr, dm_metric **out, dm_syntax *err);
void dm_metric_free(dm_metric *m);

/* PCP's message for a failed registration by who ("pmRegisterDerivedMetric",
 * ...), malloc'd: the expression, a caret at at, and why if not NULL. */
char *dm_error_message(const char *who, const char *name, const char *expr, long at,
                       const char *why);

/* PCP_DERIVED_CONTEXT_LIMIT of the current context: get (set 0) or set
 * (set 1) *value; PM_ERR_NOCONTEXT without one. */
int dm_context_limit(int set, int *value);

#endif /* PMKIT_DERIVED_REGISTRY_H */
