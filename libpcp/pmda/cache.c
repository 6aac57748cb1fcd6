/*
 * cache.c - the instance-domain cache agents use for dynamic instances
 * (pmdaCacheStore, pmdaCacheLookup*, pmdaCacheOp, ...).
 *
 * One cache per indom, created on first use (except by the CHECK op).
 * Entries are kept sorted by instance id, so lookups by id are binary
 * searches and walks are in ascending id order as PCP's are.  Names match
 * on the text before the first space, PCP's rule.  New names take the
 * next id after the last one handed out (from 0), or, with a key, an id
 * derived from the key.  Culled entries are removed; hidden ones stay
 * (INACTIVE) and keep their id.
 *
 * Persistence is PCP's: $PCP_VAR_DIR/config/pmda/<domain>.<serial> holds a
 * header line "2 0 <max id>" and one "<id> <last active> <name>" line per
 * entry; LOAD brings the entries back inactive (skipping malformed and
 * repeated lines, and ids over the max), SAVE rewrites the file,
 * atomically, when an entry was added or culled since, SYNC also when one
 * was made active.  "Last active" is the time of the write that followed
 * the entry's last activity, and pmdaCachePurge goes by it.
 */
#include "pmda_int.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct {
    int inst;
    int state; /* PMDA_CACHE_ACTIVE or PMDA_CACHE_INACTIVE */
    char *name;
    void *priv;
    void *key;
    int keylen;
    time_t stamp; /* the write that followed its last activity; 0 none */
    int fresh;    /* added or made active since the last write */
} entry;

typedef struct cache {
    pmInDom indom;
    entry *e; /* sorted by inst */
    int n, cap;
    int next_id; /* the id a new name gets */
    int max_id;  /* pmdaCacheResize's limit (default: any int) */
    int walk;    /* last id returned by WALK_NEXT, -1 after a rewind */
    int dirty;   /* entries added or culled since the last LOAD/SAVE/SYNC */
    int touched; /* entries made active since then */
    struct cache *link;
} cache;

static cache *caches;
static atomic_int any_cache; /* set once the first cache exists: a lock-free "no" */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static cache *find(pmInDom indom, int create)
{
    cache *c;

    for (c = caches; c != NULL; c = c->link)
        if (c->indom == indom)
            return c;
    if (!create || (c = calloc(1, sizeof(*c))) == NULL)
        return NULL;
    c->indom = indom;
    c->max_id = 0x7fffffff;
    c->walk = -1;
    c->link = caches;
    caches = c;
    atomic_store(&any_cache, 1);
    return c;
}

/* Position of inst in c->e, or -(insertion point) - 1. */
static int by_inst(const cache *c, int inst)
{
    int lo = 0, hi = c->n;

    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (c->e[mid].inst < inst)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < c->n && c->e[lo].inst == inst ? lo : -lo - 1;
}

/* Names are equal up to the first space of either. */
static int same_name(const char *a, const char *b)
{
    size_t la = strcspn(a, " "), lb = strcspn(b, " ");

    return la == lb && strncmp(a, b, la) == 0;
}

static int by_name(const cache *c, const char *name)
{
    for (int i = 0; i < c->n; i++)
        if (same_name(c->e[i].name, name))
            return i;
    return -1;
}

static int by_key(const cache *c, const void *key, int keylen)
{
    for (int i = 0; i < c->n; i++)
        if (c->e[i].keylen == keylen && memcmp(c->e[i].key, key, (size_t)keylen) == 0)
            return i;
    return -1;
}

static void entry_free(entry *e)
{
    free(e->name);
    free(e->key);
}

static void remove_at(cache *c, int i)
{
    c->dirty = 1;
    entry_free(&c->e[i]);
    memmove(&c->e[i], &c->e[i + 1], (size_t)(c->n - i - 1) * sizeof(entry));
    c->n--;
}

/* A free id: the next one in sequence, or the key's hash, probed linearly. */
static int free_id(cache *c, const void *key, int keylen)
{
    int id;

    if (key == NULL) {
        id = c->next_id > c->max_id ? 0 : c->next_id;
    } else {
        unsigned int h = 2166136261u;
        for (int i = 0; i < keylen; i++)
            h = (h ^ ((const unsigned char *)key)[i]) * 16777619u;
        id = (int)(h % ((unsigned int)c->max_id + 1u));
    }
    while (by_inst(c, id) >= 0)
        id = id >= c->max_id ? 0 : id + 1;
    return id;
}

static int add(cache *c, const char *name, const void *key, int keylen, void *priv)
{
    entry e;
    int id, pos;

    if (c->max_id < 0x7fffffff && c->n > c->max_id)
        return -E2BIG;
    memset(&e, 0, sizeof(e));
    id = free_id(c, key, keylen);
    if ((e.name = strdup(name)) == NULL)
        return -ENOMEM;
    if (key != NULL) {
        if ((e.key = malloc((size_t)keylen)) == NULL) {
            free(e.name);
            return -ENOMEM;
        }
        memcpy(e.key, key, (size_t)keylen);
        e.keylen = keylen;
    }
    if (c->n == c->cap) {
        int cap = c->cap ? 2 * c->cap : 8;
        entry *grown = realloc(c->e, (size_t)cap * sizeof(entry));
        if (grown == NULL) {
            entry_free(&e);
            return -ENOMEM;
        }
        c->e = grown;
        c->cap = cap;
    }
    e.inst = id;
    e.state = PMDA_CACHE_ACTIVE;
    e.priv = priv;
    e.fresh = 1;
    pos = -by_inst(c, id) - 1;
    memmove(&c->e[pos + 1], &c->e[pos], (size_t)(c->n - pos) * sizeof(entry));
    c->e[pos] = e;
    c->n++;
    c->dirty = 1;
    if (key == NULL)
        c->next_id = id >= c->max_id ? 0 : id + 1;
    return id;
}

static int store(pmInDom indom, int flags, const char *name, const void *key, int keylen,
                 void *priv)
{
    cache *c;
    int i, sts;

    if (indom == PM_INDOM_NULL)
        return PM_ERR_INDOM;
    if (name == NULL || (key != NULL && keylen <= 0))
        return -EINVAL;
    pthread_mutex_lock(&lock);
    if ((c = find(indom, 1)) == NULL) {
        pthread_mutex_unlock(&lock);
        return -ENOMEM;
    }
    i = key != NULL ? by_key(c, key, keylen) : by_name(c, name);
    switch (flags) {
    case PMDA_CACHE_ADD:
        if (i < 0) {
            sts = add(c, name, key, keylen, priv);
            break;
        }
        if (key == NULL && strcmp(c->e[i].name, name) != 0) {
            sts = -EINVAL; /* PCP: same first word, a different name */
            break;
        }
        c->e[i].state = PMDA_CACHE_ACTIVE;
        c->e[i].priv = priv;
        c->e[i].fresh = 1;
        c->touched = 1;
        sts = c->e[i].inst;
        break;
    case PMDA_CACHE_HIDE:
        sts = i < 0 ? PM_ERR_INST : c->e[i].inst;
        if (i >= 0)
            c->e[i].state = PMDA_CACHE_INACTIVE;
        break;
    case PMDA_CACHE_CULL:
        sts = i < 0 ? PM_ERR_INST : c->e[i].inst;
        if (i >= 0)
            remove_at(c, i);
        break;
    default:
        sts = -EINVAL;
    }
    pthread_mutex_unlock(&lock);
    return sts;
}

int pmdaCacheStore(pmInDom indom, int flags, const char *name, void *priv)
{
    return store(indom, flags, name, NULL, 0, priv);
}

int pmdaCacheStoreKey(pmInDom indom, int flags, const char *name, int keylen, const void *key,
                      void *priv)
{
    if (key == NULL) { /* PCP: the name is the key */
        key = name;
        keylen = name != NULL ? (int)strlen(name) : 0;
    }
    return store(indom, flags, name, key, keylen, priv);
}

/* Copy out an entry's fields; returns its state. */
static int answer(const entry *e, char **name, int *inst, void **priv)
{
    if (name != NULL)
        *name = e->name;
    if (inst != NULL)
        *inst = e->inst;
    if (priv != NULL)
        *priv = e->priv;
    return e->state;
}

int pmdaCacheLookup(pmInDom indom, int inst, char **name, void **priv)
{
    cache *c;
    int i, sts = PM_ERR_INST;

    if (indom == PM_INDOM_NULL)
        return PM_ERR_INDOM;
    pthread_mutex_lock(&lock);
    if ((c = find(indom, 1)) != NULL && (i = by_inst(c, inst)) >= 0)
        sts = answer(&c->e[i], name, NULL, priv);
    pthread_mutex_unlock(&lock);
    return sts;
}

int pmdaCacheLookupName(pmInDom indom, const char *name, int *inst, void **priv)
{
    cache *c;
    int i, sts = PM_ERR_INST;

    if (indom == PM_INDOM_NULL)
        return PM_ERR_INDOM;
    pthread_mutex_lock(&lock);
    if (name != NULL && (c = find(indom, 1)) != NULL && (i = by_name(c, name)) >= 0)
        sts = answer(&c->e[i], NULL, inst, priv);
    pthread_mutex_unlock(&lock);
    return sts;
}

int pmdaCacheLookupKey(pmInDom indom, const char *name, int keylen, const void *key, char **oname,
                       int *inst, void **priv)
{
    cache *c;
    int i, sts = PM_ERR_INST;

    if (indom == PM_INDOM_NULL)
        return PM_ERR_INDOM;
    if (key == NULL) {
        key = name;
        keylen = name != NULL ? (int)strlen(name) : 0;
    }
    if (key == NULL || keylen <= 0)
        return -EINVAL;
    pthread_mutex_lock(&lock);
    if ((c = find(indom, 1)) != NULL && (i = by_key(c, key, keylen)) >= 0)
        sts = answer(&c->e[i], oname, inst, priv);
    pthread_mutex_unlock(&lock);
    return sts;
}

static int count(const cache *c, int state)
{
    int k = 0;

    for (int i = 0; i < c->n; i++)
        k += state == 0 || c->e[i].state == state;
    return k;
}

static int mark_all(cache *c, int state)
{
    int changed = 0;

    for (int i = 0; i < c->n; i++) {
        if (c->e[i].state != state) {
            c->e[i].state = state; /* not activity (PCP): no new timestamp */
            changed++;
        }
    }
    return changed;
}

/* The first active id above after, or -1. */
static int next_active(const cache *c, int after)
{
    int i = by_inst(c, after);

    for (i = i >= 0 ? i + 1 : -i - 1; i < c->n; i++)
        if (c->e[i].state == PMDA_CACHE_ACTIVE)
            return c->e[i].inst;
    return -1;
}

static int walk_next(cache *c)
{
    int id = next_active(c, c->walk);

    if (id >= 0)
        c->walk = id;
    return id;
}

static void dump(FILE *fp, const cache *c, int all)
{
    fprintf(fp, "pmdaCache: indom %s: %d entries, next id %d\n", pmInDomStr(c->indom), c->n,
            c->next_id);
    if (!all)
        return;
    for (int i = 0; i < c->n; i++)
        fprintf(fp, "  %d %s \"%s\"\n", c->e[i].inst,
                c->e[i].state == PMDA_CACHE_ACTIVE ? "active" : "inactive", c->e[i].name);
}

static void cache_path(const cache *c, char *path, size_t len)
{
    pmsprintf(path, len, "%s/config/pmda/%u.%u", pmGetConfig("PCP_VAR_DIR"),
              pmInDom_domain(c->indom), pmInDom_serial(c->indom));
}

/* PMDA_CACHE_LOAD: entries from the file, inactive; the count or -errno. */
static int load(cache *c)
{
    char path[MAXPATHLEN], *line = NULL;
    size_t cap = 0;
    int version, zero, max, loaded = 0, was_dirty = c->dirty, was_touched = c->touched;
    FILE *fp;

    cache_path(c, path, sizeof(path));
    if ((fp = fopen(path, "r")) == NULL)
        return -errno;
    if (getline(&line, &cap, fp) < 0 || sscanf(line, "%d %d %d", &version, &zero, &max) != 3 ||
        version != 2) {
        free(line);
        fclose(fp);
        return -EINVAL;
    }
    if (max > 0)
        c->max_id = max;
    while (getline(&line, &cap, fp) >= 0) {
        long long stamp;
        int inst, at = 0, pos;
        line[strcspn(line, "\n")] = '\0';
        if (sscanf(line, "%d %lld %n", &inst, &stamp, &at) < 2 || at == 0 || inst < 0 ||
            inst > c->max_id || line[at] == '\0' || by_inst(c, inst) >= 0 ||
            by_name(c, line + at) >= 0)
            continue; /* malformed, repeated or over the id limit: skipped */
        /* free and within the limit, so add() hands out this id */
        c->next_id = inst;
        if (add(c, line + at, NULL, 0, NULL) < 0)
            break;
        pos = by_inst(c, inst);
        c->e[pos].state = PMDA_CACHE_INACTIVE;
        c->e[pos].stamp = (time_t)stamp;
        c->e[pos].fresh = 0;
        loaded++;
    }
    c->next_id = c->n > 0 ? c->e[c->n - 1].inst + 1 : 0;
    if (c->next_id > c->max_id || c->next_id < 0)
        c->next_id = 0;
    /* what was added before the load still waits for a write */
    c->dirty = was_dirty;
    c->touched = was_touched;
    free(line);
    fclose(fp);
    return loaded;
}

/* PMDA_CACHE_SAVE: rewrite the file if an entry was added or culled (SYNC:
 * or made active) since the last write; entries active since then are
 * stamped with this write's time.  The entries written, or 0. */
static int save(cache *c, int sync)
{
    char path[MAXPATHLEN], tmp[MAXPATHLEN + 16];
    time_t now = time(NULL);
    FILE *fp;
    int ok;

    if (!c->dirty && !(sync && c->touched))
        return 0;
    /* $PCP_VAR_DIR/config/pmda is made on demand, as PCP makes it (not
     * $PCP_VAR_DIR/config: without it the write fails, -ENOENT) */
    pmsprintf(path, sizeof(path), "%s/config/pmda", pmGetConfig("PCP_VAR_DIR"));
    mkdir(path, 0755);
    cache_path(c, path, sizeof(path));
    pmsprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid());
    if ((fp = fopen(tmp, "w")) == NULL)
        return -errno;
    fprintf(fp, "2 0 %d\n", c->max_id);
    for (int i = 0; i < c->n; i++) {
        if (c->e[i].fresh)
            c->e[i].stamp = now;
        fprintf(fp, "%d %lld %s\n", c->e[i].inst, (long long)c->e[i].stamp, c->e[i].name);
    }
    ok = fflush(fp) == 0 && !ferror(fp);
    if (fclose(fp) != 0 || !ok || rename(tmp, path) != 0) {
        int sts = -errno;
        unlink(tmp);
        return sts != 0 ? sts : -EIO;
    }
    for (int i = 0; i < c->n; i++)
        c->e[i].fresh = 0;
    c->dirty = c->touched = 0;
    return c->n;
}

static int op(cache *c, int what)
{
    int k;

    switch (what) {
    case PMDA_CACHE_ACTIVE:
    case PMDA_CACHE_INACTIVE:
        return mark_all(c, what);
    case PMDA_CACHE_CULL:
        k = c->n;
        while (c->n > 0)
            remove_at(c, c->n - 1);
        return k;
    case PMDA_CACHE_SIZE:
        return count(c, 0);
    case PMDA_CACHE_SIZE_ACTIVE:
        return count(c, PMDA_CACHE_ACTIVE);
    case PMDA_CACHE_SIZE_INACTIVE:
        return count(c, PMDA_CACHE_INACTIVE);
    case PMDA_CACHE_WALK_REWIND:
        c->walk = -1;
        return 0;
    case PMDA_CACHE_WALK_NEXT:
        return walk_next(c);
    case PMDA_CACHE_DUMP:
    case PMDA_CACHE_DUMP_ALL:
        dump(stderr, c, what == PMDA_CACHE_DUMP_ALL);
        return 0;
    case PMDA_CACHE_LOAD:
        return load(c);
    case PMDA_CACHE_SAVE:
    case PMDA_CACHE_SYNC:
        return save(c, what == PMDA_CACHE_SYNC);
    case PMDA_CACHE_STRINGS:
    case PMDA_CACHE_REUSE:
    case PMDA_CACHE_REORG:
        return 0;
    default:
        return -EINVAL;
    }
}

int pmdaCacheOp(pmInDom indom, int what)
{
    cache *c;
    int sts;

    if (indom == PM_INDOM_NULL)
        return PM_ERR_INDOM;
    pthread_mutex_lock(&lock);
    if (what == PMDA_CACHE_CHECK)
        sts = find(indom, 0) != NULL;
    else
        sts = (c = find(indom, 1)) != NULL ? op(c, what) : -ENOMEM;
    pthread_mutex_unlock(&lock);
    return sts;
}

/* Culls the entries whose last activity was written before RECENT seconds
 * ago (PCP's timestamps: the first SAVE or SYNC after an entry was added or
 * made active by PMDA_CACHE_ADD; never-written entries and those active
 * since the last write stay), then hands each one's private data, when it
 * has some, to GONE, in id order, with the cache unlocked (GONE may use
 * the cache, as with PCP). */
static int purge(pmInDom indom, time_t recent, void (*gone)(void *))
{
    cache *c;
    time_t limit = time(NULL) - recent;
    void **privs = NULL;
    int culled = 0, npriv = 0;

    if (indom == PM_INDOM_NULL)
        return PM_ERR_INDOM;
    pthread_mutex_lock(&lock);
    if ((c = find(indom, 1)) != NULL && gone != NULL && c->n > 0 &&
        (privs = malloc((size_t)c->n * sizeof(void *))) == NULL) {
        pthread_mutex_unlock(&lock);
        return -ENOMEM;
    }
    for (int i = 0; c != NULL && i < c->n;) {
        if (!c->e[i].fresh && c->e[i].stamp != 0 && c->e[i].stamp < limit) {
            if (privs != NULL && c->e[i].priv != NULL)
                privs[npriv++] = c->e[i].priv;
            remove_at(c, i);
            culled++;
        } else {
            i++;
        }
    }
    pthread_mutex_unlock(&lock);
    for (int i = 0; i < npriv; i++)
        gone(privs[i]);
    free(privs);
    return culled;
}

int pmdaCachePurge(pmInDom indom, time_t recent)
{
    return purge(indom, recent, NULL);
}

int pmdaCachePurgeCallback(pmInDom indom, time_t recent, void (*gone)(void *))
{
    return purge(indom, recent, gone);
}

int pmdaCacheResize(pmInDom indom, int maximum)
{
    cache *c;
    int sts = -ENOMEM;

    if (indom == PM_INDOM_NULL)
        return PM_ERR_INDOM;
    if (maximum < 0)
        return -EINVAL;
    pthread_mutex_lock(&lock);
    if ((c = find(indom, 1)) != NULL) {
        c->max_id = maximum;
        sts = 0;
    }
    pthread_mutex_unlock(&lock);
    return sts;
}

void __pmdaCacheDump(FILE *fp, pmInDom indom, int option)
{
    cache *c;

    pthread_mutex_lock(&lock);
    if ((c = find(indom, 0)) != NULL)
        dump(fp, c, option);
    pthread_mutex_unlock(&lock);
}

void __pmdaCacheDumpAll(FILE *fp, int option)
{
    pthread_mutex_lock(&lock);
    for (cache *c = caches; c != NULL; c = c->link)
        dump(fp, c, option);
    pthread_mutex_unlock(&lock);
}

/* ---- for the table-driven methods ---- */

int pmda_cache_exists(pmInDom indom)
{
    if (indom == PM_INDOM_NULL || !atomic_load(&any_cache))
        return 0;
    return pmdaCacheOp(indom, PMDA_CACHE_CHECK) == 1;
}

int pmda_cache_active(pmInDom indom)
{
    cache *c;
    int n = -1;

    if (indom == PM_INDOM_NULL || !atomic_load(&any_cache))
        return -1;
    pthread_mutex_lock(&lock);
    if ((c = find(indom, 0)) != NULL)
        n = count(c, PMDA_CACHE_ACTIVE);
    pthread_mutex_unlock(&lock);
    return n;
}

int pmda_cache_next_active(pmInDom indom, int after)
{
    cache *c;
    int id = -1;

    pthread_mutex_lock(&lock);
    if ((c = find(indom, 0)) != NULL)
        id = next_active(c, after);
    pthread_mutex_unlock(&lock);
    return id;
}

/* The active entries of c: how many, and the bytes their names take. */
static int active_names(const cache *c, size_t *bytes)
{
    int n = 0;

    *bytes = 0;
    for (int i = 0; i < c->n; i++) {
        if (c->e[i].state == PMDA_CACHE_ACTIVE) {
            *bytes += strlen(c->e[i].name) + 1;
            n++;
        }
    }
    return n;
}

/* One hold of the lock for both passes: the cache cannot change between
 * sizing the names block and filling it. */
int pmda_cache_pack_active(pmInDom indom, int **ids, char ***names)
{
    cache *c;
    size_t bytes = 0;
    int n = 0, k = 0;
    char *p;

    pthread_mutex_lock(&lock);
    if ((c = find(indom, 0)) != NULL)
        n = active_names(c, &bytes);
    if ((p = pmda_pack_alloc(n, bytes, ids, names)) == NULL) {
        pthread_mutex_unlock(&lock);
        return -ENOMEM;
    }
    for (int i = 0; k < n; i++) {
        if (c->e[i].state != PMDA_CACHE_ACTIVE)
            continue;
        (*ids)[k] = c->e[i].inst;
        (*names)[k++] = p;
        p = stpcpy(p, c->e[i].name) + 1;
    }
    pthread_mutex_unlock(&lock);
    return n;
}

int pmda_cache_copy_name(pmInDom indom, int inst, char **name)
{
    cache *c;
    int i, sts = PM_ERR_INST;

    pthread_mutex_lock(&lock); /* copied under the lock: an agent thread may cull it */
    if ((c = find(indom, 0)) != NULL && (i = by_inst(c, inst)) >= 0 &&
        c->e[i].state == PMDA_CACHE_ACTIVE)
        sts = (*name = strdup(c->e[i].name)) != NULL ? 0 : -ENOMEM;
    pthread_mutex_unlock(&lock);
    return sts;
}

int pmda_cache_find_name(pmInDom indom, const char *name)
{
    int inst;

    return pmdaCacheLookupName(indom, name, &inst, NULL) == PMDA_CACHE_ACTIVE ? inst : -1;
}
