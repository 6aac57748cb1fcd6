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

static uint64_t hash_bytes(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ULL;

    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
    return h;
}

int dm_registry_is_prefix(const dm_registry *r, const char *path, size_t len)
{
    if (r->prefix_slots == 0)
        return 0;
    size_t mask = r->prefix_slots - 1;
    for (size_t i = hash_bytes(path, len) & mask; r->prefixes[i] != NULL; i = (i + 1) & mask)
        if (strlen(r->prefixes[i]) == len && memcmp(r->prefixes[i], path, len) == 0)
            return 1;
    return 0;
}

/* Remember the proper prefixes of name ("" and each part before a dot);
 * memory running out only costs the shortcut it gives (see api.c). */
static void add_prefixes(dm_registry *r, const char *name)
{
    for (size_t len = 0;; len++) {
        if (len == 0 || name[len] == '.') {
            if (!dm_registry_is_prefix(r, name, len)) {
                if ((r->nprefixes + 1) * 2 > r->prefix_slots) {
                    size_t slots = r->prefix_slots ? r->prefix_slots * 2 : 256;
                    char **v = calloc(slots, sizeof(*v));
                    if (v == NULL)
                        return;
                    for (size_t j = 0; j < r->prefix_slots; j++) {
                        if (r->prefixes[j] == NULL)
                            continue;
                        size_t i = hash_bytes(r->prefixes[j], strlen(r->prefixes[j])) & (slots - 1);
                        while (v[i] != NULL)
                            i = (i + 1) & (slots - 1);
                        v[i] = r->prefixes[j];
                    }
                    free(r->prefixes);
                    r->prefixes = v;
                    r->prefix_slots = slots;
                }
                char *p = strndup(name, len);
                if (p == NULL)
                    return;
                size_t i = hash_bytes(name, len) & (r->prefix_slots - 1);
                while (r->prefixes[i] != NULL)
                    i = (i + 1) & (r->prefix_slots - 1);
                r->prefixes[i] = p;
                r->nprefixes++;
            }
        }
        if (name[len] == '\0')
            break;
    }
}

/* Add m to the registry (room made by grow). */
static void add(dm_registry *r, dm_metric *m)
{
    size_t i = hash_name(m->name) & (r->nslots - 1);

    while (r->slots[i] != NULL)
        i = (i + 1) & (r->nslots - 1);
    r->slots[i] = m;
    r->v[r->n++] = m;
    atomic_store(&r->published, r->n);
    add_prefixes(r, m->name);
}

dm_metric *dm_registry_at(const dm_registry *r, pmID pmid)
{
    size_t k;

    if (!IS_DERIVED(pmid) || pmID_cluster(pmid) >= DM_LOCAL_CLUSTER_MIN)
        return NULL;
    k = (size_t)pmID_cluster(pmid) * 1023 + pmID_item(pmid) - 1;
    return k < r->n ? r->v[k] : NULL;
}

void dm_set_last_error(const char *msg)
{
    set_last_error(msg);
}

int dm_set_help(const char *name, int help, const char *text)
{
    dm_registry *r = &pmkit_dm_registry;
    dm_metric *m;
    int sts = 0;

    pthread_mutex_lock(&r->lock);
    if ((m = dm_registry_find(r, name)) == NULL)
        sts = PM_ERR_NAME;
    else if ((help ? m->helptext : m->oneline) != NULL)
        sts = -EEXIST;
    else if ((*(help ? &m->helptext : &m->oneline) = strdup(text)) == NULL)
        sts = -ENOMEM;
    pthread_mutex_unlock(&r->lock);
    return sts;
}

/* The anonymous metrics and the configured files, once, before the first
 * use of the derived metrics (PCP's order: both anonymous ones, then the
 * files). */
void dm_start(void)
{
    dm_registry *r = &pmkit_dm_registry;
    const char *path;
    int first;
    long at;

    pthread_mutex_lock(&r->lock);
    first = !r->started;
    r->started = 1;
    pthread_mutex_unlock(&r->lock);
    if (!first)
        return;
    dm_register_global("event.flags", "anon(PM_TYPE_U32)", &at);
    dm_register_global("event.missed", "anon(PM_TYPE_U32)", &at);
    set_last_error(NULL);
    /* their help in pmkit's words (docs/compat.md) */
    dm_set_help("event.flags", 0, "Flags for an event record");
    dm_set_help("event.flags", 1, "The flags word of each event record.");
    dm_set_help("event.missed", 0, "Count of missed event records");
    dm_set_help("event.missed", 1, "How many event records were lost before this one.");
    if ((path = getenv("PCP_DERIVED_CONFIG")) != NULL) {
        dm_load_config(path);
    } else {
        const char *var = pmGetConfig("PCP_VAR_DIR");
        size_t n = strlen(var) + sizeof("/config/derived");
        char *dir = malloc(n);
        if (dir != NULL) {
            snprintf(dir, n, "%s/config/derived", var);
            dm_load_config(dir);
            free(dir);
        }
    }
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
int dm_register_global(const char *name, const char *expr, long *at)
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
    } else if (r->n >= DM_MAX_GLOBAL) {
        err.msg = "global PMID space exhausted";
        sts = PM_ERR_BADDERIVE;
    } else if ((sts = dm_metric_new(name, expr, &m, &err)) == 0 && (sts = grow(r)) == 0) {
        m->pmid = dm_global_pmid(r->n);
        m->index = r->n;
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
    int sts = dm_register_global(name, expr, &at);

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
    int sts = dm_register_global(name, expr, &at);

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

    if (what == PCP_DERIVED_CONTEXT_LIMIT) /* the context's lock, not the registry's */
        return dm_context_limit(0, valuep);
    pthread_mutex_lock(&r->lock);
    switch (what) {
    case PCP_DERIVED_GLOBAL_LIMIT:
        *valuep = r->limit;
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

    if (what == PCP_DERIVED_CONTEXT_LIMIT) /* the context's lock, not the registry's */
        return dm_context_limit(1, &value);
    pthread_mutex_lock(&r->lock);
    switch (what) {
    case PCP_DERIVED_GLOBAL_LIMIT:
        r->limit = value;
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
