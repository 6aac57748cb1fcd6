/*
 * pmns.c - the PMAPI namespace: loading (pmLoadNameSpace,
 * pmLoadASCIINameSpace, pmUnloadNameSpace) and every name question
 * (pmLookupName, pmNameID, pmNameAll, pmGetChildren(Status),
 * pmTraversePMNS(_r)), with PCP's results, orders and allocation rules.
 *
 * One namespace is loaded per process, as in PCP.  It is immutable; a
 * reader takes the current pointer and publishes it in its thread's hazard
 * slot for the length of one call, so lookups never take a lock.
 * Unloading swaps the pointer to NULL and frees the tree once no hazard
 * slot holds it.  Callbacks of pmTraversePMNS run after the names are
 * gathered and the tree is released, as in PCP.
 *
 * Like PCP's client library, the loaded tree carries the names of the two
 * anonymous derived metrics (event.flags 511.0.1, event.missed 511.0.2),
 * grafted in by the parser.
 * Not here (yet): names served by a PMCD or by local-context agents for
 * dynamic subtrees, derived metric configuration files, pmTrimNameSpace's
 * archive trimming.
 */
#include "pmapi_int.h"
#include "pmns.h"

#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- */
/* The loaded tree and the hazard slots that protect it. */

typedef struct hazard {
    _Atomic(pmns_tree *) tree; /* the tree this thread is reading, or NULL */
    atomic_int in_use;         /* owned by a live thread */
    struct hazard *next;       /* all slots, never freed */
} hazard;

static _Atomic(pmns_tree *) loaded;
static _Atomic(hazard *) hazards;
static _Thread_local hazard *mine;
static pthread_key_t hazard_key;
static pthread_once_t hazard_once = PTHREAD_ONCE_INIT;

static void hazard_release_slot(void *slot)
{
    hazard *h = slot;

    atomic_store(&h->tree, NULL);
    atomic_store(&h->in_use, 0);
}

static void hazard_init(void)
{
    pthread_key_create(&hazard_key, hazard_release_slot);
}

static hazard *my_slot(void)
{
    hazard *h;

    if (mine != NULL)
        return mine;
    pthread_once(&hazard_once, hazard_init);
    for (h = atomic_load(&hazards); h != NULL; h = h->next) {
        int free_slot = 0;
        if (atomic_compare_exchange_strong(&h->in_use, &free_slot, 1))
            break;
    }
    if (h == NULL) {
        if ((h = calloc(1, sizeof(*h))) == NULL)
            return NULL;
        atomic_store(&h->in_use, 1);
        h->next = atomic_load(&hazards);
        while (!atomic_compare_exchange_weak(&hazards, &h->next, h))
            ;
    }
    pthread_setspecific(hazard_key, h);
    return mine = h;
}

static int load(const char *file, int use_cpp, int dupok);

/* The loaded tree, protected until release(); NULL if none.  In a local
 * context the first name operation loads the default namespace, without
 * the preprocessor, as PCP does (runtime spec 4.4). */
static pmns_tree *acquire(void)
{
    hazard *h = my_slot();
    pmns_tree *t;

    if (h == NULL)
        return NULL;
    if (atomic_load(&loaded) == NULL && pmkit_ctx_local_current())
        load(NULL, 0, 1);
    do {
        t = atomic_load(&loaded);
        atomic_store(&h->tree, t);
    } while (t != atomic_load(&loaded));
    return t;
}

static void release(void)
{
    if (mine != NULL)
        atomic_store(&mine->tree, NULL);
}

/* Free t once no reader holds it. */
static void retire(pmns_tree *t)
{
    for (hazard *h = atomic_load(&hazards); h != NULL; h = h->next)
        while (atomic_load(&h->tree) == t)
            sched_yield();
    pmns_free(t);
}

/* ---------------------------------------------------------------- */
/* Loading. */

static int load(const char *file, int use_cpp, int dupok)
{
    char def[MAXPATHLEN], dir[MAXPATHLEN];
    pmns_load_opts o = { 0 };
    pmns_tree *t, *none = NULL;
    int sts;

    if (atomic_load(&loaded) != NULL)
        return PM_ERR_DUPPMNS;
    if (file == NULL || file == (const char *)(uintptr_t)0xffffffff) {
        const char *env = getenv("PMNS_DEFAULT");
        if (env != NULL)
            pmkit_copy(def, (int)sizeof(def), env);
        else
            pmsprintf(def, sizeof(def), "%s/pmns/root", pmGetConfig("PCP_VAR_DIR"));
        file = def;
        use_cpp = 0; /* the default namespace is never preprocessed */
    }
    pmsprintf(dir, sizeof(dir), "%s/pmns", pmGetConfig("PCP_VAR_DIR"));
    o.file = file;
    o.use_cpp = use_cpp;
    o.dupok = dupok;
    o.derived = 1;
    o.pmns_dir = dir;
    if ((sts = pmns_load(&o, &t)) < 0)
        return sts;
    if (!atomic_compare_exchange_strong(&loaded, &none, t)) {
        pmns_free(t);
        return PM_ERR_DUPPMNS;
    }
    return 0;
}

int pmLoadNameSpace(const char *file)
{
    return load(file, 0, 1);
}

int pmLoadASCIINameSpace(const char *file, int dupok)
{
    return load(file, 1, dupok);
}

void pmUnloadNameSpace(void)
{
    pmns_tree *t = atomic_exchange(&loaded, NULL);

    if (t != NULL)
        retire(t);
}

int pmGetPMNSLocation(void)
{
    return atomic_load(&loaded) != NULL || pmkit_ctx_local_current() ? PMNS_LOCAL
                                                                      : PM_ERR_NOPMNS;
}

int pmTrimNameSpace(void)
{
    /* trimming follows the current context; there is none yet (contexts
     * come with local and host sources) */
    return PM_ERR_NOCONTEXT;
}

/* ---------------------------------------------------------------- */
/* Names. */

/* The anonymous derived metrics: tried when the namespace cannot answer,
 * as PCP's derived-metric layer is; 1 (derived) or PM_ERR_NAME. */
static int derived_name(const char *name, pmID *pmid)
{
    for (size_t i = 0; i < PMNS_NDERIVED; i++) {
        if (strcmp(name, pmns_derived[i].name) == 0) {
            *pmid = pmns_derived[i].pmid;
            return 1;
        }
    }
    return PM_ERR_NAME;
}

/* The PMID of one name: a leaf, or a name below a dynamic subtree root
 * (the root's PMID).  0, 1 for a derived metric's name, or an error. */
static int lookup_pmns(const pmns_tree *t, const char *name, pmID *pmid)
{
    size_t len = strlen(name);
    uint32_t n = pmns_find(t, name, len);

    if (n != PMNS_NONE && len > 0) {
        if ((t->nodes[n].flags & PMNS_F_GRAFTED) && t->dyn_kids) {
            /* dynamic roots are leaves, so only a derived name grafted
             * below one (event 40:*:* and event.flags) has a dynamic
             * ancestor; the dynamic root answers for it */
            for (size_t i = 0; i < len; i++) {
                uint32_t a;
                if (name[i] == '.' && (a = pmns_find(t, name, i)) != PMNS_NONE &&
                    (t->nodes[a].flags & PMNS_F_DYNAMIC)) {
                    *pmid = t->nodes[a].pmid;
                    return 0;
                }
            }
        }
        if ((t->nodes[n].flags & (PMNS_F_GRAFTED | PMNS_F_LEAF)) == PMNS_F_GRAFTED)
            return PM_ERR_NAME; /* "event" alone: not a PMNS name in PCP either */
        if (!(t->nodes[n].flags & (PMNS_F_LEAF | PMNS_F_WASLEAF)))
            return PM_ERR_NONLEAF;
        *pmid = t->nodes[n].pmid;
        return (t->nodes[n].flags & PMNS_F_GRAFTED) ? 1 : 0;
    }
    for (size_t i = len; i-- > 0;) { /* the longest prefix that is a node */
        if (name[i] != '.' || (n = pmns_find(t, name, i)) == PMNS_NONE)
            continue;
        if (t->nodes[n].flags & PMNS_F_DYNAMIC) {
            *pmid = t->nodes[n].pmid;
            return 0;
        }
        if (!(t->nodes[n].flags & PMNS_F_GRAFTED))
            break; /* a grafted node may still sit below a dynamic root */
    }
    return PM_ERR_NAME;
}

static int lookup_one(const pmns_tree *t, const char *name, pmID *pmid)
{
    int sts = t != NULL ? lookup_pmns(t, name, pmid) : PM_ERR_NOPMNS;

    if (sts < 0 && derived_name(name, pmid) > 0)
        return 1;
    return sts;
}

int pmLookupName(int numpmid, const char **namelist, pmID *pmidlist)
{
    pmns_tree *t;
    int found = 0, derived = 0, sts = 0;

    if (numpmid < 1)
        return PM_ERR_TOOSMALL;
    for (int i = 0; i < numpmid; i++)
        pmidlist[i] = PM_ID_NULL;
    t = acquire(); /* with no namespace only derived metrics have names */
    for (int i = 0; i < numpmid; i++) {
        sts = namelist[i] == NULL ? PM_ERR_NAME : lookup_one(t, namelist[i], &pmidlist[i]);
        if (sts == 0)
            found++;
        else if (sts > 0)
            derived++;
    }
    release();
    /* PCP counts names resolved as derived metrics only when that completes
     * the list */
    if (found + derived == numpmid)
        return numpmid;
    if (t == NULL)
        return PM_ERR_NOPMNS;
    return numpmid == 1 ? sts : found;
}

/* A list of names built as one malloc'd block: the pointers, then the
 * strings (PCP's allocation contract: the caller frees it with free()). */
typedef struct namelist {
    char *text;       /* the strings, NUL separated */
    size_t len, cap;
    size_t count;
    int *status;      /* PMNS_*_STATUS per name, when wanted */
    size_t scap;
} namelist;

static int nl_add(namelist *nl, const char *name, size_t n, int status)
{
    if (nl->len + n + 1 > nl->cap) {
        size_t cap = nl->cap ? nl->cap * 2 : 256;
        while (cap < nl->len + n + 1)
            cap *= 2;
        char *p = realloc(nl->text, cap);
        if (p == NULL)
            return -ENOMEM;
        nl->text = p;
        nl->cap = cap;
    }
    if (nl->count == nl->scap) {
        size_t cap = nl->scap ? nl->scap * 2 : 16;
        int *s = realloc(nl->status, cap * sizeof(*s));
        if (s == NULL)
            return -ENOMEM;
        nl->status = s;
        nl->scap = cap;
    }
    memcpy(nl->text + nl->len, name, n);
    nl->text[nl->len + n] = '\0';
    nl->len += n + 1;
    nl->status[nl->count++] = status;
    return 0;
}

/* Turn the list into PCP's block; returns the count, or -errno. */
static int nl_finish(namelist *nl, char ***names, int **status)
{
    size_t ptrs = nl->count * sizeof(char *);
    char **block;
    char *s;

    if (nl->count == 0) {
        *names = NULL;
        if (status != NULL)
            *status = NULL;
        free(nl->text);
        free(nl->status);
        return 0;
    }
    if ((block = malloc(ptrs + nl->len)) == NULL) {
        free(nl->text);
        free(nl->status);
        return -ENOMEM;
    }
    s = (char *)block + ptrs;
    memcpy(s, nl->text, nl->len);
    for (size_t i = 0; i < nl->count; i++) {
        block[i] = s;
        s += strlen(s) + 1;
    }
    free(nl->text);
    *names = block;
    if (status != NULL)
        *status = nl->status;
    else
        free(nl->status);
    return (int)nl->count;
}

static void nl_free(namelist *nl)
{
    free(nl->text);
    free(nl->status);
}

/* The loaded tree and the visible node called name: 0 with the tree held
 * (the caller releases it), or an error with nothing held. */
static int acquire_node(const char *name, pmns_tree **t, uint32_t *n)
{
    if (name == NULL)
        return PM_ERR_NAME;
    if ((*t = acquire()) == NULL) {
        release();
        return PM_ERR_NOPMNS;
    }
    if ((*n = pmns_find(*t, name, strlen(name))) == PMNS_NONE) {
        release();
        return PM_ERR_NAME;
    }
    return 0;
}

int pmGetChildrenStatus(const char *name, char ***offspring, int **statuslist)
{
    namelist nl = { 0 };
    pmns_tree *t;
    uint32_t n;
    int sts;

    if ((sts = acquire_node(name, &t, &n)) < 0)
        return sts;
    for (uint32_t k = 0; k < t->nodes[n].nkids && sts == 0; k++) {
        const pmns_node *c = &t->nodes[t->nodes[n].first + k];
        if (!(c->flags & PMNS_F_VISIBLE))
            continue;
        /* a node with a PMID is a leaf to PCP, dynamic roots excepted */
        sts = nl_add(&nl, t->strings + c->name, c->namelen,
                     (c->flags & (PMNS_F_LEAF | PMNS_F_WASLEAF)) && !(c->flags & PMNS_F_DYNAMIC)
                         ? PMNS_LEAF_STATUS
                         : PMNS_NONLEAF_STATUS);
    }
    release();
    if (sts < 0) {
        nl_free(&nl);
        return sts;
    }
    return nl_finish(&nl, offspring, statuslist);
}

int pmGetChildren(const char *name, char ***offspring)
{
    return pmGetChildrenStatus(name, offspring, NULL);
}

/* Every leaf at or below node n, depth first in child order. */
static int gather(const pmns_tree *t, uint32_t n, namelist *nl)
{
    uint32_t *stack = NULL;
    size_t sp = 0, scap = 0;
    int sts = 0;

    for (;;) {
        const pmns_node *nd = &t->nodes[n];
        if (nd->flags & PMNS_F_LEAF) {
            sts = nl_add(nl, pmns_path(t, n), nd->pathlen, PMNS_LEAF_STATUS);
        } else if (nd->flags & PMNS_F_VISIBLE) {
            if (sp + nd->nkids > scap) {
                size_t c = scap ? scap * 2 : 64;
                while (c < sp + nd->nkids)
                    c *= 2;
                uint32_t *s = realloc(stack, c * sizeof(*s));
                if (s == NULL) {
                    sts = -ENOMEM;
                    break;
                }
                stack = s;
                scap = c;
            }
            for (uint32_t k = nd->nkids; k-- > 0;)
                stack[sp++] = nd->first + k;
        }
        if (sts < 0 || sp == 0)
            break;
        n = stack[--sp];
    }
    free(stack);
    return sts;
}

/* The names pmTraversePMNS reports for name, in order. */
static int traverse_names(const char *name, namelist *nl)
{
    pmns_tree *t;
    uint32_t n;
    int sts;

    if ((sts = acquire_node(name, &t, &n)) < 0)
        return sts;
    sts = gather(t, n, nl);
    release();
    return sts;
}

int pmTraversePMNS_r(const char *name, void (*func)(const char *, void *), void *closure)
{
    namelist nl = { 0 };
    int sts = traverse_names(name, &nl);
    const char *s = nl.text;

    if (sts == 0) {
        for (size_t i = 0; i < nl.count; i++, s += strlen(s) + 1)
            func(s, closure);
        sts = (int)nl.count;
    }
    nl_free(&nl);
    return sts;
}

static void call_plain(const char *name, void *closure)
{
    void (*func)(const char *);

    memcpy(&func, closure, sizeof(func));
    func(name);
}

int pmTraversePMNS(const char *name, void (*func)(const char *))
{
    return pmTraversePMNS_r(name, call_plain, &func);
}

/* All names of pmid, last defined first. */
static int names_of(pmID pmid, namelist *nl)
{
    pmns_tree *t = acquire();
    int sts = 0;

    if (t == NULL) {
        release();
        return PM_ERR_NOPMNS;
    }
    for (uint32_t n = pmns_find_pmid(t, pmid); n != PMNS_NONE && sts == 0; n = t->nodes[n].samepmid)
        sts = nl_add(nl, pmns_path(t, n), t->nodes[n].pathlen, 0);
    release();
    if (sts == 0 && nl->count == 0) { /* the derived metrics keep their names */
        sts = PM_ERR_PMID;
        for (size_t i = 0; i < PMNS_NDERIVED; i++)
            if (pmid == pmns_derived[i].pmid)
                sts = nl_add(nl, pmns_derived[i].name, strlen(pmns_derived[i].name), 0);
    }
    return sts;
}

int pmNameAll(pmID pmid, char ***namelist_out)
{
    namelist nl = { 0 };
    int sts = names_of(pmid, &nl);

    if (sts < 0) {
        nl_free(&nl);
        return sts;
    }
    return nl_finish(&nl, namelist_out, NULL);
}

int pmNameID(pmID pmid, char **name)
{
    namelist nl = { 0 };
    int sts = names_of(pmid, &nl);

    if (sts == 0 && (*name = strdup(nl.text)) == NULL)
        sts = -ENOMEM;
    nl_free(&nl);
    return sts;
}
