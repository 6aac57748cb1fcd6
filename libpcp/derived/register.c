/*
 * register.c - the global derived metrics: pmRegisterDerived and
 * pmRegisterDerivedMetric, pmDerivedErrStr, pmGetDerivedControl and
 * pmSetDerivedControl, with PCP's answers (probed from Debian's libpcp
 * 6.0.3).
 *
 * A registration is checked in PCP's order: the global limit ("Too many
 * global derived metrics"), the name ("Duplicate global derived metric
 * name"), then the expression's syntax (parse.c); each failure points at
 * the expression (its start for the first two).  Nothing is checked about
 * the name itself: PCP takes any string.  The metric gets the next PMID of
 * domain 511 cluster 0, in registration order, and keeps its tree for the
 * life of the process (PCP has no way to remove one).  Names are found
 * through a hash table, so registering n metrics is linear.
 *
 * The registry is process state that PCP's API defines; one mutex guards
 * it.  The message of the last failed registration is the calling
 * thread's (pmDerivedErrStr), as pmErrStr's text is.
 */
#include "derived_int.h"
#include "registry.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

dm_registry pmkit_dm_registry = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .limit = -1,
};

/* The last registration's message, for pmDerivedErrStr: this thread's. */
static _Thread_local char *last_error;
static _Thread_local int last_error_set;

static void set_last_error(const char *msg)
{
    free(last_error);
    last_error = msg != NULL ? strdup(msg) : NULL;
    last_error_set = last_error != NULL;
}

char *pmDerivedErrStr(void)
{
    return last_error_set ? last_error : NULL;
}

static uint64_t hash_name(const char *s)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */

    while (*s != '\0')
        h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
    return h;
}

dm_metric *dm_registry_find(const dm_registry *r, const char *name)
{
    if (r->slots == NULL)
        return NULL;
    size_t mask = r->nslots - 1;
    for (size_t i = hash_name(name) & mask;; i = (i + 1) & mask) {
        dm_metric *m = r->slots[i];
        if (m == NULL)
            return NULL;
        if (strcmp(m->name, name) == 0)
            return m;
    }
}

/* Room for one more in the table and the list; 0 or -ENOMEM. */
static int grow(dm_registry *r)
{
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 64;
        dm_metric **v = realloc(r->v, cap * sizeof(*v));
        if (v == NULL)
            return -ENOMEM;
        r->v = v;
        r->cap = cap;
    }
    if ((r->n + 1) * 2 <= r->nslots)
        return 0;
    size_t nslots = r->nslots ? r->nslots * 2 : 128;
    dm_metric **slots = calloc(nslots, sizeof(*slots));
    if (slots == NULL)
        return -ENOMEM;
    for (size_t j = 0; j < r->n; j++) {
        size_t i = hash_name(r->v[j]->name) & (nslots - 1);
        while (slots[i] != NULL)
            i = (i + 1) & (nslots - 1);
        slots[i] = r->v[j];
    }
    free(r->slots);
    r->slots = slots;
    r->nslots = nslots;
    return 0;
}

/* Add m to the registry (room made by grow). */
static void add(dm_registry *r, dm_metric *m)
{
    size_t i = hash_name(m->name) & (r->nslots - 1);

    while (r->slots[i] != NULL)
        i = (i + 1) & (r->nslots - 1);
    r->slots[i] = m;
    r->v[r->n++] = m;
}

void dm_metric_free(dm_metric *m)
{
    if (m == NULL)
        return;
    dm_arena_free(&m->arena);
    free(m->name);
    free(m->expr);
    free(m->oneline);
    free(m->helptext);
    free(m);
}

/*
 * Parse name = expr into a new metric (not registered).  0; a syntax error
 * (PM_ERR_BADDERIVE, *err says where and why); or -ENOMEM.
 */
int dm_metric_new(const char *name, const char *expr, dm_metric **out, dm_syntax *err)
{
    dm_metric *m = calloc(1, sizeof(*m));
    int sts;

    if (m == NULL)
        return -ENOMEM;
    if ((m->name = strdup(name)) == NULL || (m->expr = strdup(expr)) == NULL) {
        dm_metric_free(m);
        return -ENOMEM;
    }
    if (strlen(expr) > DM_MAX_EXPR) {
        err->at = DM_MAX_EXPR;
        err->msg = "Expression too long";
        dm_metric_free(m);
        return PM_ERR_BADDERIVE;
    }
    if ((sts = dm_parse(m->expr, &m->arena, &m->root, err)) < 0) {
        dm_metric_free(m);
        return sts;
    }
    *out = m;
    return 0;
}

/*
 * Register name = expr globally: 0, or PM_ERR_BADDERIVE with *at the
 * offset of the error in expr and the message set for pmDerivedErrStr,
 * or -ENOMEM.
 */
static int register_global(const char *name, const char *expr, long *at)
{
    dm_registry *r = &pmkit_dm_registry;
    dm_metric *m = NULL;
    dm_syntax err = {0, NULL, NULL};
    int sts;

    pthread_mutex_lock(&r->lock);
    if (r->limit >= 0 && (long)r->n >= r->limit) {
        err.msg = "Too many global derived metrics";
        sts = PM_ERR_BADDERIVE;
    } else if (dm_registry_find(r, name) != NULL) {
        err.msg = "Duplicate global derived metric name";
        sts = PM_ERR_BADDERIVE;
    } else if ((sts = dm_metric_new(name, expr, &m, &err)) == 0 && (sts = grow(r)) == 0) {
        m->pmid = pmID_build(DYNAMIC_PMID, 0, (unsigned int)r->n + 1);
        add(r, m);
        m = NULL;
    }
    pthread_mutex_unlock(&r->lock);
    dm_metric_free(m);
    set_last_error(sts == PM_ERR_BADDERIVE ? err.msg : NULL);
    dm_syntax_free(&err);
    *at = err.at;
    return sts;
}

char *pmRegisterDerived(const char *name, const char *expr)
{
    long at;
    int sts = register_global(name, expr, &at);

    if (sts == 0)
        return NULL;
    /* PCP points one byte before an empty expression; pmkit at it */
    return (char *)expr + (at > 0 && sts == PM_ERR_BADDERIVE ? at : 0);
}

/* PCP's message: who failed, the expression, a caret under the error
 * (PCP pads to the position even when it is -1), and the reason if any. */
char *dm_error_message(const char *who, const char *name, const char *expr, long at,
                       const char *why)
{
    size_t need = strlen(who) + strlen(name) + strlen(expr) + (at > 0 ? (size_t)at : 1) +
                  (why ? strlen(why) : 0) + 64;
    char *msg = malloc(need);

    if (msg == NULL)
        return NULL;
    int n = snprintf(msg, need, "Error: %s(\"%s\", ...)\n%s\n", who, name, expr);
    n += snprintf(msg + n, need - (size_t)n, "%*s^\n", (int)at, "");
    if (why != NULL)
        snprintf(msg + n, need - (size_t)n, "%s\n", why);
    return msg;
}

int pmRegisterDerivedMetric(const char *name, const char *expr, char **errmsg)
{
    long at;
    int sts = register_global(name, expr, &at);

    if (sts == 0)
        return 0;
    if (sts == PM_ERR_BADDERIVE && errmsg != NULL)
        *errmsg = dm_error_message("pmRegisterDerivedMetric", name, expr, at, pmDerivedErrStr());
    return -1;
}

int pmGetDerivedControl(int what, int *valuep)
{
    dm_registry *r = &pmkit_dm_registry;
    int sts = 0;

    pthread_mutex_lock(&r->lock);
    switch (what) {
    case PCP_DERIVED_GLOBAL_LIMIT:
        *valuep = r->limit;
        break;
    case PCP_DERIVED_CONTEXT_LIMIT:
        sts = dm_context_limit(0, valuep);
        break;
    case PCP_DERIVED_DEBUG_SYNTAX:
    case PCP_DERIVED_DEBUG_SEMANTICS:
    case PCP_DERIVED_DEBUG_EVAL:
        *valuep = r->debug[what - PCP_DERIVED_DEBUG_SYNTAX];
        break;
    default:
        sts = PM_ERR_BADDERIVE;
    }
    pthread_mutex_unlock(&r->lock);
    return sts;
}

int pmSetDerivedControl(int what, int value)
{
    dm_registry *r = &pmkit_dm_registry;
    int sts = 0;

    pthread_mutex_lock(&r->lock);
    switch (what) {
    case PCP_DERIVED_GLOBAL_LIMIT:
        r->limit = value;
        break;
    case PCP_DERIVED_CONTEXT_LIMIT:
        sts = dm_context_limit(1, &value);
        break;
    case PCP_DERIVED_DEBUG_SYNTAX:
    case PCP_DERIVED_DEBUG_SEMANTICS:
    case PCP_DERIVED_DEBUG_EVAL:
        r->debug[what - PCP_DERIVED_DEBUG_SYNTAX] = value != 0;
        break;
    default:
        sts = PM_ERR_BADDERIVE;
    }
    pthread_mutex_unlock(&r->lock);
    return sts;
}

/* Until contexts carry derived metrics of their own. */
int dm_context_limit(int set, int *value)
{
    (void)set;
    (void)value;
    return PM_ERR_NOCONTEXT;
}
