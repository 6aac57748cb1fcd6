/*
 * api.c - what the rest of libpcp asks of the derived metrics (derived.h):
 * names both ways, children and traversals merged into the namespace's,
 * descriptors and help; and event.flags and event.missed's PMIDs.
 *
 * A context's own metrics come first and mask global ones of the same
 * name.  Children and traversals follow PCP: derived children come after
 * the namespace's, global metrics' before the context's own, each in the
 * order its first metric was registered, leaving out metrics whose
 * binding failed in the current context (PCP omits them once it knows).
 * They are found by scanning the metrics whose names lie below the name
 * asked (a set of the global names' prefixes answers at once for the
 * namespace's other nodes); traversals sort the names below into the
 * depth-first order of the children (no recursion).
 */
#include "derived.h"
#include "derived_int.h"
#include "registry.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int pmkit_derived_pmid(const char *name, pmID *pmid)
{
    dm_registry *r = &pmkit_dm_registry;
    dm_ctx *c;
    const dm_metric *m = NULL;

    dm_start();
    if ((c = dm_ctx_current()) != NULL) {
        m = dm_ctx_local_find(c, name);
        dm_ctx_put(c);
    }
    if (m == NULL) {
        pthread_mutex_lock(&r->lock);
        m = dm_registry_find(r, name);
        pthread_mutex_unlock(&r->lock);
    }
    if (m == NULL)
        return PM_ERR_NAME;
    *pmid = m->pmid;
    return 0;
}

/* The metric of pmid in the current context (c may be NULL): *local says
 * whether it is c's own.  Registry entries live as long as the process,
 * a context's own as long as c is held. */
static const dm_metric *metric_of(dm_ctx *c, pmID pmid, int *local)
{
    dm_registry *r = &pmkit_dm_registry;
    const dm_metric *m;

    *local = 0;
    if (c != NULL && (m = dm_ctx_local_at(c, pmid)) != NULL) {
        *local = 1;
        return m;
    }
    pthread_mutex_lock(&r->lock);
    m = dm_registry_at(r, pmid);
    pthread_mutex_unlock(&r->lock);
    return m;
}

int pmkit_derived_name(pmID pmid, char **name)
{
    dm_ctx *c;
    const dm_metric *m;
    int local, sts = PM_ERR_PMID;

    dm_start();
    c = dm_ctx_current();
    if ((m = metric_of(c, pmid, &local)) != NULL)
        sts = (*name = strdup(m->name)) != NULL ? 0 : -ENOMEM;
    dm_ctx_put(c);
    return sts;
}

int pmkit_derived_desc(pmID pmid, pmDesc *desc)
{
    dm_ctx *c;
    const dm_metric *m;
    dm_bound *b;
    int local, sts;

    dm_start();
    if ((c = dm_ctx_current()) == NULL)
        return PM_ERR_PMID; /* none here (__pmFreeDerived): the source answers */
    if ((m = metric_of(c, pmid, &local)) == NULL)
        sts = PM_ERR_PMID;
    else if ((b = dm_ctx_bind(c, m, local)) == NULL)
        sts = -ENOMEM;
    else if (b->state != DM_BOUND)
        sts = PM_ERR_BADDERIVE;
    else {
        *desc = b->tree.root->desc;
        desc->pmid = pmid;
        sts = 0;
    }
    dm_ctx_put(c);
    return sts;
}

int pmkit_derived_text(pmID pmid, int level, char **text)
{
    dm_registry *r = &pmkit_dm_registry;
    dm_ctx *c;
    const dm_metric *m;
    const char *t = NULL;
    int local;

    int sts;

    dm_start();
    c = dm_ctx_current();
    if ((m = metric_of(c, pmid, &local)) == NULL) {
        dm_ctx_put(c);
        return PM_ERR_PMID;
    }
    pthread_mutex_lock(&r->lock);
    if (!local) {
        t = (level & PM_TEXT_HELP) ? m->helptext : m->oneline;
        if (t == NULL && (level & PM_TEXT_HELP) && !(level & PM_TEXT_DIRECT))
            t = m->oneline; /* PCP's fallback, as for agents */
    }
    sts = t == NULL ? PM_ERR_TEXT : (*text = strdup(t)) == NULL ? -ENOMEM : 0;
    pthread_mutex_unlock(&r->lock);
    dm_ctx_put(c);
    return sts;
}

/* ---- children and traversals ---- */

int pmkit_derived_below(const char *name, size_t len)
{
    dm_registry *r = &pmkit_dm_registry;
    dm_ctx *c;
    int yes;

    dm_start();
    pthread_mutex_lock(&r->lock);
    yes = dm_registry_is_prefix(r, name, len);
    pthread_mutex_unlock(&r->lock);
    if (yes || (c = dm_ctx_current()) == NULL)
        return yes;
    dm_lock(&c->lock);
    for (size_t i = 0; i < c->nlocal && !yes; i++) {
        const char *m = c->local[i]->name;
        yes = len == 0 || (strncmp(m, name, len) == 0 && m[len] == '.');
    }
    dm_unlock(&c->lock);
    dm_ctx_put(c);
    return yes;
}

int pmkit_derived_visible(pmID pmid)
{
    pmDesc desc;

    if (dm_binding())
        return !pmkit_derived_failed(pmid);
    return pmkit_derived_desc(pmid, &desc) != PM_ERR_BADDERIVE;
}

int pmkit_derived_failed(pmID pmid)
{
    dm_registry *r = &pmkit_dm_registry;
    dm_ctx *c = dm_ctx_current();
    dm_bound *b = NULL;

    if (c == NULL)
        return 0;
    const dm_metric *m = dm_ctx_local_at(c, pmid);
    if (m != NULL) {
        b = dm_ctx_peek(c, m, 1);
    } else {
        pthread_mutex_lock(&r->lock);
        m = dm_registry_at(r, pmid);
        pthread_mutex_unlock(&r->lock);
        b = m != NULL ? dm_ctx_peek(c, m, 0) : NULL;
    }
    dm_ctx_put(c);
    return b != NULL && b->state == DM_FAILED;
}

/* The metrics seen from the current context, in order: global ones not
 * masked by the context's own, then its own; failed ones left out. */
typedef struct view {
    const char **names;
    size_t n, cap;
} view;

static int view_add(view *v, const char *name)
{
    if (v->n == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 64;
        const char **p = realloc(v->names, cap * sizeof(*p));
        if (p == NULL)
            return -ENOMEM;
        v->names = p;
        v->cap = cap;
    }
    v->names[v->n++] = name;
    return 0;
}

/* Is name at or below path (plen bytes; 0: the root)? */
static int below(const char *name, const char *path, size_t plen)
{
    return plen == 0 ||
           (strncmp(name, path, plen) == 0 && (name[plen] == '.' || name[plen] == '\0'));
}

int pmkit_derived_bind_below(const char *name)
{
    dm_registry *r = &pmkit_dm_registry;
    size_t plen = strlen(name);
    dm_ctx *c;

    dm_start();
    if (dm_binding() || (c = dm_ctx_current()) == NULL)
        return 0;
    pthread_mutex_lock(&r->lock);
    size_t n = r->n;
    dm_metric **all = r->v;
    pthread_mutex_unlock(&r->lock);
    for (size_t i = 0; i < n; i++)
        if (below(all[i]->name, name, plen) && dm_ctx_peek(c, all[i], 0) == NULL &&
            dm_ctx_local_find(c, all[i]->name) == NULL)
            dm_ctx_bind(c, all[i], 0);
    dm_ctx_put(c);
    return 0;
}

/*
 * The names at or below path that the current context sees into v.  The
 * names are the registry's and c's own (c stays held by the caller until
 * v is done with).  0, 1 when path has no derived metric below it at all
 * (v empty), or -ENOMEM.
 */
static int gather(dm_ctx *c, const char *path, view *v)
{
    dm_registry *r = &pmkit_dm_registry;
    size_t plen = strlen(path);
    int sts = 0, any;

    pthread_mutex_lock(&r->lock);
    any = dm_registry_is_prefix(r, path, plen) || dm_registry_find(r, path) != NULL;
    size_t n = any ? r->n : 0;
    dm_metric **all = r->v;
    pthread_mutex_unlock(&r->lock);
    for (size_t i = 0; i < n && sts == 0; i++) {
        const dm_metric *m = all[i];
        if (!below(m->name, path, plen))
            continue;
        if (c != NULL) {
            dm_bound *b = dm_ctx_peek(c, m, 0);
            if ((b != NULL && b->state == DM_FAILED) || dm_ctx_local_find(c, m->name) != NULL)
                continue;
        }
        sts = view_add(v, m->name);
    }
    if (c != NULL) {
        dm_lock(&c->lock);
        for (size_t i = 0; i < c->nlocal && sts == 0; i++) {
            if (!below(c->local[i]->name, path, plen) || c->lbound[i]->state == DM_FAILED)
                continue;
            sts = view_add(v, c->local[i]->name);
        }
        dm_unlock(&c->lock);
    }
    return sts < 0 ? sts : v->n == 0;
}

/* The child component of name below path (plen; name is below it): its
 * start and length, and whether it ends name. */
static const char *child_of(const char *name, size_t plen, size_t *len, int *leaf)
{
    const char *s = name + plen + (plen > 0);
    const char *dot = strchr(s, '.');

    *len = dot != NULL ? (size_t)(dot - s) : strlen(s);
    *leaf = dot == NULL;
    return s;
}

int pmkit_derived_children(const char *name, int (*in_pmns)(const char *, void *),
                           int (*add)(const char *, int, void *), void *arg, int *is_leaf)
{
    view v = {NULL, 0, 0};
    size_t plen = strlen(name);
    dm_ctx *c;
    int sts;

    dm_start();
    c = dm_ctx_current();
    if (is_leaf != NULL)
        *is_leaf = 0;
    if ((sts = gather(c, name, &v)) != 0) {
        free(v.names);
        dm_ctx_put(c);
        return sts < 0 ? sts : 0;
    }
    /* each child once, in the order of its first name; a leaf only if no
     * name continues below it */
    char *full = malloc(plen + 2 + 4096);
    size_t fcap = plen + 2 + 4096;
    for (size_t i = 0; i < v.n && sts == 0; i++) {
        size_t len;
        int leaf;
        if (strlen(v.names[i]) == plen) {
            if (is_leaf != NULL)
                *is_leaf = 1;
            continue;
        }
        const char *kid = child_of(v.names[i], plen, &len, &leaf);
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++) {
            size_t l2;
            int f2;
            if (strlen(v.names[j]) == plen)
                continue;
            const char *k2 = child_of(v.names[j], plen, &l2, &f2);
            seen = l2 == len && memcmp(k2, kid, len) == 0;
        }
        if (seen)
            continue;
        for (size_t j = i + 1; j < v.n && leaf; j++) {
            size_t l2;
            int f2;
            if (strlen(v.names[j]) == plen)
                continue;
            const char *k2 = child_of(v.names[j], plen, &l2, &f2);
            if (l2 == len && memcmp(k2, kid, len) == 0 && !f2)
                leaf = 0;
        }
        if (plen + len + 2 > fcap) {
            char *f = realloc(full, fcap = plen + len + 2);
            if (f == NULL) {
                sts = -ENOMEM;
                break;
            }
            full = f;
        }
        if (full == NULL) {
            sts = -ENOMEM;
            break;
        }
        memcpy(full, name, plen);
        size_t off = plen;
        if (plen > 0)
            full[off++] = '.';
        memcpy(full + off, kid, len);
        full[off + len] = '\0';
        if (in_pmns != NULL && in_pmns(full, arg))
            continue;
        char *child = strndup(kid, len);
        sts = child != NULL ? add(child, leaf, arg) : -ENOMEM;
        free(child);
    }
    free(full);
    free(v.names);
    dm_ctx_put(c);
    return sts;
}

/*
 * A traversal's order: depth first, children in order of first
 * appearance.  Each name's key is, for each of its components below the
 * path, the index of the first name sharing that prefix; sorting the names
 * by their keys gives the walk.
 */
typedef struct walk_keys {
    const char **names;
    size_t *keys;  /* the keys, one run per name */
    size_t *start; /* where name i's run starts (start[n] ends the last) */
} walk_keys;

static _Thread_local const walk_keys *sorting;

static int by_key(const void *a, const void *b)
{
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    const size_t *ki = sorting->keys + sorting->start[i], *kj = sorting->keys + sorting->start[j];
    size_t ni = sorting->start[i + 1] - sorting->start[i];
    size_t nj = sorting->start[j + 1] - sorting->start[j];

    for (size_t k = 0; k < ni && k < nj; k++)
        if (ki[k] != kj[k])
            return ki[k] < kj[k] ? -1 : 1;
    if (ni != nj)
        return ni < nj ? -1 : 1;
    return i < j ? -1 : i > j;
}

/* First index of each prefix (by bytes) in an open-addressing table. */
typedef struct first_seen {
    const char **s;
    size_t *len, *first, slots;
} first_seen;

static size_t hash_prefix(const char *s, size_t n)
{
    size_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
    return h;
}

/* The first index of prefix s[0..n), recorded as i when new. */
static size_t first_of(first_seen *f, const char *s, size_t n, size_t i)
{
    size_t k = hash_prefix(s, n) & (f->slots - 1);

    for (; f->s[k] != NULL; k = (k + 1) & (f->slots - 1))
        if (f->len[k] == n && memcmp(f->s[k], s, n) == 0)
            return f->first[k];
    f->s[k] = s;
    f->len[k] = n;
    f->first[k] = i;
    return i;
}

/* Keys of v's names below path (plen bytes) into w; -ENOMEM or 0. */
static int make_keys(const view *v, size_t plen, walk_keys *w)
{
    size_t total = 0, slots = 16;

    for (size_t i = 0; i < v->n; i++) {
        const char *s = v->names[i] + plen;
        for (; *s != '\0'; s++)
            total += *s == '.';
        total++;
    }
    while (slots < total * 2)
        slots *= 2;
    first_seen f = {calloc(slots, sizeof(char *)), malloc(slots * sizeof(size_t)),
                    malloc(slots * sizeof(size_t)), slots};
    w->keys = malloc((total + 1) * sizeof(size_t));
    w->start = malloc((v->n + 1) * sizeof(size_t));
    w->names = v->names;
    if (f.s == NULL || f.len == NULL || f.first == NULL || w->keys == NULL || w->start == NULL) {
        free(f.s);
        free(f.len);
        free(f.first);
        return -ENOMEM;
    }
    size_t k = 0;
    for (size_t i = 0; i < v->n; i++) {
        const char *nm = v->names[i];
        size_t len = strlen(nm), at = plen + (plen > 0);
        w->start[i] = k;
        while (at <= len && len > plen) {
            const char *dot = strchr(nm + at, '.');
            size_t end = dot != NULL ? (size_t)(dot - nm) : len;
            w->keys[k++] = first_of(&f, nm, end, i);
            at = end + 1;
        }
    }
    w->start[v->n] = k;
    free(f.s);
    free(f.len);
    free(f.first);
    return 0;
}

/* Is name's first component below path (plen) a node of the namespace? */
static int under_pmns(const char *name, size_t plen, int (*in_pmns)(const char *, void *),
                      void *arg)
{
    if (in_pmns == NULL || strlen(name) <= plen)
        return 0;
    size_t at = plen + (plen > 0);
    size_t l = at + strcspn(name + at, ".");
    char *top = strndup(name, l);
    int yes = top == NULL || in_pmns(top, arg);
    free(top);
    return yes;
}

int pmkit_derived_walk(const char *name, int (*in_pmns)(const char *, void *),
                       int (*leaf)(const char *, void *), void *arg)
{
    view v = {NULL, 0, 0};
    walk_keys w = {NULL, NULL, NULL};
    size_t plen = strlen(name), *order = NULL;
    dm_ctx *c;
    int sts, count = 0;

    dm_start();
    c = dm_ctx_current();
    if ((sts = gather(c, name, &v)) != 0)
        goto done;
    if ((sts = make_keys(&v, plen, &w)) < 0 || (order = malloc(v.n * sizeof(*order))) == NULL) {
        sts = -ENOMEM;
        goto done;
    }
    for (size_t i = 0; i < v.n; i++)
        order[i] = i;
    sorting = &w;
    qsort(order, v.n, sizeof(*order), by_key);
    sorting = NULL;
    for (size_t i = 0; i < v.n; i++) {
        const char *nm = v.names[order[i]];
        if (under_pmns(nm, plen, in_pmns, arg))
            continue;
        if ((sts = leaf(nm, arg)) < 0)
            break;
        count++;
    }
done:
    free(order);
    free(w.keys);
    free(w.start);
    free(v.names);
    dm_ctx_put(c);
    return sts < 0 ? sts : count;
}

pmID pmkit_derived_event_flags(void)
{
    pmID pmid = PM_ID_NULL;

    dm_start();
    dm_registry *r = &pmkit_dm_registry;
    pthread_mutex_lock(&r->lock);
    const dm_metric *m = dm_registry_find(r, "event.flags");
    if (m != NULL)
        pmid = m->pmid;
    pthread_mutex_unlock(&r->lock);
    return pmid;
}

pmID pmkit_derived_event_missed(void)
{
    pmID pmid = PM_ID_NULL;

    dm_start();
    dm_registry *r = &pmkit_dm_registry;
    pthread_mutex_lock(&r->lock);
    const dm_metric *m = dm_registry_find(r, "event.missed");
    if (m != NULL)
        pmid = m->pmid;
    pthread_mutex_unlock(&r->lock);
    return pmid;
}
