/*
 * pmns.c - the PMAPI namespace: loading (pmLoadNameSpace,
 * pmLoadASCIINameSpace, pmUnloadNameSpace) and every name question
 * (pmLookupName, pmNameID, pmNameAll, pmGetChildren(Status),
 * pmTraversePMNS(_r)), with PCP's results, orders and allocation rules.
 *
 * Every loaded namespace is a namespace image (libpcp/format,
 * docs/pmns-format.md), and every question is answered from it.  A file
 * that starts with the image magic (pmnscomp's output) is mapped and used
 * in place: opening costs the same at any size.  Any other file is parsed
 * as ASCII PMNS (libpcp/front) and compiled into the same image in memory,
 * so both kinds of file give the same answers through the same code.  A
 * large text load also builds a leaf index (below) beside its image,
 * which pmLookupName tries first; names it does not hold go to the image.
 *
 * Once a namespace has been unloaded, the next text load takes its
 * working arrays and image buffer from those of the last
 * (libpcp/front/pmns_mem.c), already resident.
 *
 * One namespace is loaded per process, as in PCP.  It is immutable; a
 * reader takes the current pointer and publishes it in its thread's hazard
 * slot for the length of one call, so lookups never take a lock.
 * Unloading swaps the pointer to NULL and releases the image once no
 * hazard slot holds it.  Callbacks of pmTraversePMNS run after the names
 * are gathered and the image is released, as in PCP.
 *
 * Derived metrics (libpcp/derived) answer for the names the namespace
 * does not have, as PCP's derived-metric layer does: lookups of names it
 * cannot find, names of their PMIDs, and their children and leaves after
 * the namespace's own at each node.  The nodes an image holds for the
 * anonymous derived metrics event.flags and event.missed (grafted in by
 * the compiler, flagged DERIVED) are hidden: the derived metrics answer
 * for those names too, with PMIDs that depend on the order of
 * registration, as PCP's do.
 *
 * In a local context, names at and below a dynamic subtree root (D:*:*)
 * belong to the agent of domain D: its pmid, name and children methods
 * answer them (tests/oracle/dynamic_diff.sh), called with the library lock held
 * and never with a hazard slot published, since an agent may call back into
 * libpcp.  The paths that meet no dynamic root are the ones described
 * above: a lookup learns that a name is below a root from the image walk
 * it already makes, and only then goes to the agent.  A traversal in a
 * local context gathers its names before the first callback, as PCP's
 * does.  Outside a local context the root answers for the names below it,
 * as in PCP.
 *
 * With no namespace loaded and a host context current, pmcd answers
 * (host_api.c) and the derived metrics' names are added on this side as
 * PCP's library adds them: tried for names pmcd does not know, appended to
 * children and traversals (the end of this file).  The checks for that sit
 * where no namespace was found, off the path of a loaded one.
 * Not here (yet): pmTrimNameSpace's archive trimming.
 */
#include "derived.h"
#include "archive_ctx.h"
#include "host.h"
#include "names.h"
#include "pmns.h"
#include "pmns_image.h"

#include <pthread.h>
#include <stdarg.h>
#include <sched.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <pcp/libpcp.h>

/* ---------------------------------------------------------------- */
/* The loaded namespace and the hazard slots that protect it. */

/* A loaded namespace.  A traversal holds a reference while its callbacks
 * run (they may unload or load namespaces); every other call only
 * publishes it in its hazard slot. */
typedef struct leafslot leafslot;

typedef struct ns {
    pmns_image *img;
    atomic_uint refs;      /* 1 while loaded, plus one per running traversal */
    leafslot *leaves;      /* text loads: the leaf index (below), or NULL */
    uint32_t nslots;       /* its size */
    char *file;            /* the file it was loaded from, or NULL */
    struct timespec mtime; /* that file's when loaded */
} ns;

typedef struct hazard {
    _Atomic(ns *) tree;  /* the namespace this thread is reading, or NULL */
    atomic_int in_use;   /* owned by a live thread */
    struct hazard *next; /* all slots, never freed */
} hazard;

static _Atomic(ns *) loaded;
/* loaded came from pmLoadNameSpace or pmLoadASCIINameSpace, not from a
 * local context's first name operation: only then does it answer for host
 * contexts too (PCP's rule) */
static atomic_bool loaded_asked;
static _Atomic(hazard *) hazards;
/* initial-exec: read on every names call, so no __tls_get_addr call */
static _Thread_local hazard *mine __attribute__((tls_model("initial-exec")));
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

static int load(const char *file, int use_cpp, int dupok, bool asked);
/* The answers from pmcd (the end of this file). */
static int remote(void);
static int lookup_remote(int numpmid, const char **names, pmID *pmidlist);
static int children_remote(const char *name, char ***offspring, int **statuslist);
static int traverse_remote(const char *name, void (*func)(const char *, void *), void *closure);
typedef int (*name_fn)(void *closure, const char *head, size_t hl, const char *tail, size_t tl);
static int names_remote(pmID pmid, name_fn add, void *closure);

static int archive_names(const pmkit_archive *a, ns **out);
static void archive_names_free(void *t);

/*
 * An archive context's own namespace, made from its archives' names the
 * first time it is asked for and kept with them, unless the program loaded
 * one itself, as in PCP.  It is found (or made) and published in the
 * hazard slot with the library lock held, so a context destroyed meanwhile
 * either is not found or lets its namespace go only after this reader does.
 */
static ns *acquire_archive(hazard *h)
{
    pmkit_ctx *ctx;
    ns *t = NULL;

    pmkit_lock();
    if ((ctx = pmkit_ctx_current()) != NULL && ctx->archive != NULL) {
        if ((t = pmkit_archive_names(ctx->archive)) == NULL && archive_names(ctx->archive, &t) == 0)
            pmkit_archive_set_names(ctx->archive, t, archive_names_free);
    }
    atomic_store(&h->tree, t);
    pmkit_unlock();
    return t;
}

/* The loaded image, protected until release(); NULL if none.  In a local
 * context the first name operation loads the default namespace, without
 * the preprocessor, as PCP does (tests/oracle/pmns_diff.sh). */
static ns *acquire_ns(void)
{
    hazard *h = my_slot();
    ns *t;

    if (h == NULL)
        return NULL;
    if (atomic_load(&loaded) == NULL && pmkit_ctx_local_current())
        load(NULL, 0, 1, false);
    if (pmkit_ctx_type_current() == PM_CONTEXT_ARCHIVE && !atomic_load(&loaded_asked))
        return acquire_archive(h);
    if (pmkit_single_threaded()) {
        /* no thread can unload t before this one starts it, and
         * pthread_create publishes the hazard: no fence, no recheck (a
         * signal handler must not unload: pmUnloadNameSpace frees memory,
         * which is not async-signal-safe either way) */
        t = atomic_load_explicit(&loaded, memory_order_relaxed);
        atomic_store_explicit(&h->tree, t, memory_order_relaxed);
        return t;
    }
    do {
        t = atomic_load(&loaded);
        atomic_store(&h->tree, t);
    } while (t != atomic_load(&loaded));
    return t;
}

static const pmns_image *acquire(void)
{
    ns *t = acquire_ns();

    return t != NULL ? t->img : NULL;
}

static void release(void)
{
    if (mine != NULL)
        atomic_store_explicit(&mine->tree, NULL, memory_order_release);
}

static void unref(ns *t)
{
    if (atomic_fetch_sub(&t->refs, 1) == 1) {
        pmns_image_close(t->img);
        free(t->leaves);
        free(t->file);
        free(t);
    }
}

/* Drop the loaded reference to t once no reader holds it. */
static void retire(ns *t)
{
    for (hazard *h = atomic_load(&hazards); h != NULL; h = h->next)
        while (atomic_load(&h->tree) == t)
            sched_yield();
    unref(t);
}

/* ---------------------------------------------------------------- */
/* Loading. */

static void problem(const char *file, diag_dialect dialect, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A loading problem on stderr, in PCP's form (which names no line) or the
 * rich one (diag.h); messages PCP has not got are rich in both. */
static void problem(const char *file, diag_dialect dialect, const char *fmt, ...)
{
    char msg[1024];
    diag_msg d = {.severity = DIAG_ERROR,
                  .file = file,
                  .line = 0,
                  .col = 0,
                  .message = msg,
                  .source = NULL,
                  .source_len = 0};
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    d.dialect = dialect;
    d.pcp_line = DIAG_NO_LINE;
    diag_print_as(stderr, &d, DIAG_FORM_AUTO);
}

static int image_status(int sts)
{
    return sts == PMNS_IMG_ENOMEM ? -ENOMEM : sts == PMNS_IMG_ETOOBIG ? PM_ERR_TOOBIG : PM_ERR_PMNS;
}

/* A tree from the text loader as an image in memory. */
static int image_of_tree(const pmns_tree *t, pmns_image **out)
{
    uint8_t *buf;
    size_t len;
    int sts;

    if ((sts = pmns_tree_image(t, 0, &buf, &len)) < 0)
        return image_status(sts);
    if ((sts = pmns_image_open_buffer(buf, len, 1, out, NULL)) < 0) {
        pmns_image_free(buf, len);
        return image_status(sts);
    }
    return 0;
}

/* A length for "%.*s" in a message: never negative, never huge. */
static int clamp(uint32_t len)
{
    return len > 1000 ? 1000 : (int)len;
}

/* Without dupok, an image with duplicate PMIDs is refused as the text
 * is: every pair of names sharing a PMID is reported. */
static int refuse_duplicates(const pmns_image *img, const char *file)
{
    uint32_t pmid, off, prev = PMNS_IMG_PMID_NULL, prevoff = 0;

    for (uint32_t i = 0; pmns_image_entry(img, i, &pmid, &off) == 0; i++) {
        pmns_image_node a, b;
        const char *ah, *at, *bh, *bt;
        uint32_t ahl, atl, bhl, btl;
        if (pmid == prev && pmns_image_node_at(img, prevoff, &a) == 0 &&
            pmns_image_name(img, &a, &ah, &ahl, &at, &atl) == 0 &&
            pmns_image_node_at(img, off, &b) == 0 &&
            pmns_image_name(img, &b, &bh, &bhl, &bt, &btl) == 0)
            problem(file, DIAG_PCP_PMNS,
                    "Error Parsing ASCII PMNS: Duplicate metric id (%u.%u.%u) in name space for "
                    "metrics \"%.*s%s%.*s\" and \"%.*s%s%.*s\"",
                    pmid >> 22, pmid >> 10 & 0xfff, pmid & 0x3ff, clamp(ahl), ah, ahl ? "." : "",
                    clamp(atl), at, clamp(bhl), bh, bhl ? "." : "", clamp(btl), bt);
        prev = pmid;
        prevoff = off;
    }
    return PM_ERR_PMNS;
}

/* A regular file that is an image: 0 with *out, 1 if it is not an image,
 * or an error (reported). */
static int open_image(const char *file, int dupok, pmns_image **out)
{
    pmns_image_error err = {0};
    struct stat st;
    int sts;

    if (stat(file, &st) < 0 || !S_ISREG(st.st_mode))
        return 1; /* the text loader reads pipes and reports missing files */
    sts = pmns_image_open_file(file, out, &err);
    if (sts == PMNS_IMG_EMAGIC || sts == PMNS_IMG_ESYS)
        return 1;
    if (sts < 0) {
        problem(file, DIAG_PCP_NONE, "bad namespace image: %s: %s at offset %llu",
                pmns_image_strerror(sts), err.what, (unsigned long long)err.offset);
        return image_status(sts);
    }
    if (!dupok && ((*out)->props & PMNS_IMG_PROP_DUPLICATES)) {
        sts = refuse_duplicates(*out, file);
        pmns_image_close(*out);
        return sts;
    }
    return 0;
}

/*
 * The leaf index of a namespace loaded from text.  Finding a name in the
 * image costs three dependent memory reads (hash slot, leaf record, the
 * parent's record), each a cache miss in a large namespace.  A text load
 * builds its image in private memory anyway, so it also gets this table:
 * one 32-byte slot per plain leaf (not derived, not a dynamic root) whose
 * own name fits in the slot, holding the full name's hash, the PMID, the
 * parent's offset and the own name, so a lookup reads the slot and the
 * parent's record only.  Other names, and names not in the table, take the
 * image's path.  Images opened from a file keep no private memory.
 *
 * Only a namespace of LEAF_INDEX_MIN leaves or more gets the table: a
 * smaller image stays in the caches, where the table saves a lookup a few
 * instructions (29 of about 520 at 3000 names) and building it costs a
 * tenth of the load (0.56M instructions of 5.2M at 3000 names).
 */
#define LEAF_INLINE    19
#define LEAF_INDEX_MIN 16384

struct leafslot {
    uint32_t hash, pmid, parent;
    uint8_t len; /* own name's length; 0: an empty slot */
    char name[LEAF_INLINE];
};

/* A full name built from a parent's full name and a dot (copied once per
 * parent), then a node's own name: for the leaf index and traversals. */
typedef struct namebuf {
    char *buf;
    size_t cap;
    const char *prefix; /* the parent name buf starts with, or NULL */
    size_t plen;        /* its length with the dot; 0 below the root */
} namebuf;

static const char *nb_name(namebuf *b, const char *head, uint32_t hl, const char *tail, uint32_t tl)
{
    size_t need = (size_t)hl + tl + 2;

    if (need > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 256;
        char *p;
        while (cap < need)
            cap *= 2;
        if ((p = realloc(b->buf, cap)) == NULL)
            return NULL;
        b->buf = p;
        b->cap = cap;
        b->prefix = NULL;
    }
    if (b->prefix != head) {
        memcpy(b->buf, head, hl);
        b->buf[hl] = '.';
        b->plen = hl > 0 ? (size_t)hl + 1 : 0;
        b->prefix = head;
    }
    memcpy(b->buf + b->plen, tail, tl);
    b->buf[b->plen + tl] = '\0';
    return b->buf;
}

/* The table is sized from the image's leaf count: the image was just
 * written here, so the count is exact, and the leaves indexed are a subset.
 * Its entries come from the image's name index, which holds every visible
 * name's hash already: no full name is built or hashed again. */
static void index_leaves(ns *n)
{
    const pmns_image *img = n->img;
    pmns_image_node nd;
    uint32_t count = img->nleaves, h, off;

    if (count == 0 || count > UINT32_MAX / 2)
        return;
    n->nslots = count + count / 3 + 1; /* at most 3/4 full */
    if ((n->leaves = calloc(n->nslots, sizeof(leafslot))) == NULL)
        return;
    for (uint32_t s = 0; s < img->nslots; s++) {
        if (pmns_image_slot(img, s, &h, &off) != 0 || pmns_image_node_at(img, off, &nd) < 0 ||
            (nd.flags & (PMNS_IMG_LEAF | PMNS_IMG_DERIVED | PMNS_IMG_DYNAMIC)) != PMNS_IMG_LEAF ||
            nd.namelen > LEAF_INLINE)
            continue;
        uint32_t i = pmns_image_scale(h, n->nslots);
        while (n->leaves[i].len != 0)
            i = i + 1 == n->nslots ? 0 : i + 1;
        n->leaves[i] = (leafslot){h, nd.pmid, nd.parent, (uint8_t)nd.namelen, {0}};
        memcpy(n->leaves[i].name, nd.name, nd.namelen);
    }
}

/* A plain leaf's PMID from the leaf index (h: the name's pmns_image_hash):
 * 0, or 1 if the index cannot say (the image must be asked). */
static int leaf_lookup(const ns *n, const char *name, size_t len, uint32_t h, pmID *pmid)
{
    size_t own = len, plen;
    pmns_image_node p;

    while (own > 0 && name[own - 1] != '.')
        own--;
    plen = own > 0 ? own - 1 : 0; /* the parent's full name: name[0..plen) */
    own = len - own;
    if (own == 0 || own > LEAF_INLINE)
        return 1;
    for (uint32_t i = pmns_image_scale(h, n->nslots); n->leaves[i].len != 0;
         i = i + 1 == n->nslots ? 0 : i + 1) {
        const leafslot *e = &n->leaves[i];
        if (e->hash != h || e->len != own || memcmp(e->name, name + len - own, own) != 0)
            continue;
        if (pmns_image_node_at(n->img, e->parent, &p) == 0 && p.pathlen == plen &&
            (plen == 0 ? own == len : memcmp(p.path, name, plen) == 0)) {
            *pmid = e->pmid;
            return 0;
        }
    }
    return 1;
}

/* Bumped by every load and unload (pmkit_pmns_generation). */
static _Atomic unsigned generation;

/* The default namespace's file: $PMNS_DEFAULT, else PCP_VAR_DIR/pmns/root. */
static const char *default_file(char *def, size_t len)
{
    const char *env = getenv("PMNS_DEFAULT");

    if (env != NULL)
        pmkit_copy(def, (int)len, env);
    else
        pmsprintf(def, len, "%s/pmns/root", pmGetConfig("PCP_VAR_DIR"));
    return def;
}

static int load(const char *file, int use_cpp, int dupok, bool asked)
{
    char def[MAXPATHLEN], dir[MAXPATHLEN];
    pmns_load_opts o = {0};
    pmns_image *img;
    struct stat st;
    ns *n, *none = NULL;
    pmns_tree *t;
    int sts, text;

    if (atomic_load(&loaded) != NULL)
        return PM_ERR_DUPPMNS;
    if (file == NULL || file == (const char *)(uintptr_t)0xffffffff) {
        file = default_file(def, sizeof(def));
        use_cpp = 0; /* the default namespace is never preprocessed */
    }
    if ((sts = open_image(file, dupok, &img)) < 0)
        return sts;
    if ((text = sts > 0)) {
        pmsprintf(dir, sizeof(dir), "%s/pmns", pmGetConfig("PCP_VAR_DIR"));
        o.file = file;
        o.use_cpp = use_cpp;
        o.dupok = dupok;
        o.derived = 1;
        o.image_only = 1; /* the tree becomes an image at once */
        o.pmns_dir = dir;
        if ((sts = pmns_load(&o, &t)) < 0)
            return sts;
        sts = image_of_tree(t, &img);
        pmns_free(t);
        if (sts < 0)
            return sts;
        pmns_mem_trim(img->size); /* the load's arrays, freed, out of the heap */
    }
    if ((n = malloc(sizeof(*n))) == NULL) {
        pmns_image_close(img);
        return -ENOMEM;
    }
    n->img = img;
    n->leaves = NULL;
    n->nslots = 0;
    n->file = strdup(file); /* NULL (no memory): the file counts as changed */
    n->mtime = (struct timespec){0, 0};
    if (stat(file, &st) == 0)
        n->mtime = st.st_mtim;
    if (text && img->nleaves >= LEAF_INDEX_MIN)
        index_leaves(n);
    atomic_init(&n->refs, 1);
    if (!atomic_compare_exchange_strong(&loaded, &none, n)) {
        unref(n);
        return PM_ERR_DUPPMNS;
    }
    atomic_store(&loaded_asked, asked);
    atomic_fetch_add(&generation, 1);
    return 0;
}

/* A namespace of n names and their PMIDs, into *out (one reference). */
static int ns_of_names(const char *const *names, const pmID *pmids, size_t n, ns **out)
{
    pmns_tree *tree;
    pmns_image *img;
    ns *nsp;
    int sts = pmns_from_names(names, pmids, n, &tree);

    if (sts < 0)
        return sts == PM_ERR_TOOBIG ? -ENOMEM : sts;
    sts = image_of_tree(tree, &img);
    pmns_free(tree);
    if (sts < 0)
        return sts;
    if ((nsp = malloc(sizeof(*nsp))) == NULL) {
        pmns_image_close(img);
        return -ENOMEM;
    }
    nsp->img = img;
    nsp->leaves = NULL;
    nsp->nslots = 0;
    nsp->file = NULL;
    atomic_init(&nsp->refs, 1);
    *out = nsp;
    return 0;
}

/* The namespace of an archive context's names, in PCP's order. */
static int archive_names(const pmkit_archive *a, ns **out)
{
    const char **names;
    pmID *pmids;
    int n = pmkit_archive_name_list(a, &names, &pmids), sts;

    if (n < 0)
        return n;
    sts = ns_of_names(names, pmids, (size_t)n, out);
    free(names);
    free(pmids);
    return sts;
}

static void archive_names_free(void *t)
{
    retire(t);
}

/* The loaded namespace came from __pmUsePMNS: pmUnloadNameSpace leaves it. */
static atomic_bool loaded_used;

int pmkit_pmns_use(const char *const *names, const pmID *pmids, size_t n)
{
    ns *nsp, *old;
    int sts = ns_of_names(names, pmids, n, &nsp);

    if (sts < 0)
        return sts;
    old = atomic_exchange(&loaded, nsp);
    atomic_store(&loaded_asked, true);
    atomic_store(&loaded_used, true);
    atomic_fetch_add(&generation, 1);
    if (old != NULL)
        retire(old);
    return 0;
}

int pmLoadNameSpace(const char *file)
{
    return load(file, 0, 1, true);
}

int pmLoadASCIINameSpace(const char *file, int dupok)
{
    return load(file, 1, dupok, true);
}

void pmUnloadNameSpace(void)
{
    ns *t;

    if (atomic_load(&loaded_used))
        return; /* PCP's goes on using the tree __pmUsePMNS gave it */
    t = atomic_exchange(&loaded, NULL);

    atomic_store(&loaded_asked, false);

    if (t != NULL) {
        atomic_fetch_add(&generation, 1);
        pmns_mem_keep(t->img->size); /* a process that unloads may load again */
        retire(t);
    }
}

unsigned pmkit_pmns_generation(void)
{
    return atomic_load(&generation);
}

int pmGetPMNSLocation(void)
{
    if (atomic_load(&loaded_asked))
        return PMNS_LOCAL;
    switch (pmkit_ctx_type_current()) {
    case PM_CONTEXT_LOCAL:
        return PMNS_LOCAL;
    case PM_CONTEXT_HOST:
        return PMNS_REMOTE;
    case PM_CONTEXT_ARCHIVE:
        return PMNS_ARCHIVE;
    default:
        return atomic_load(&loaded) != NULL ? PMNS_LOCAL : PM_ERR_NOPMNS;
    }
}

int pmTrimNameSpace(void)
{
    /* trimming follows the current context; there is none yet (contexts
     * come with local and host sources) */
    return PM_ERR_NOCONTEXT;
}

/* ---------------------------------------------------------------- */
/* Names. */

/* The derived metrics: tried when the namespace cannot answer, as PCP's
 * derived-metric layer is; 1 (derived) or PM_ERR_NAME. */
static int derived_name(const char *name, pmID *pmid)
{
    return pmkit_derived_pmid(name, pmid) == 0 ? 1 : PM_ERR_NAME;
}

/*
 * The agents of dynamic subtrees.  Each helper finds the agent of a domain
 * in the current context and calls one names method with the library lock
 * held, as desc.c does.  *routed is 0 when the current context is not a
 * local one (none, or a PMNS loaded for another kind): PCP then lets the
 * namespace answer alone.  An agent older than interface 4 has no names
 * methods: PM_ERR_NAME for names, PM_ERR_PMID for PMIDs, as in PCP.
 */
static __pmDSO *names_agent(unsigned int domain, int *routed, int *sts)
{
    pmkit_ctx *ctx = pmkit_ctx_current();
    __pmDSO *dso;

    *routed = ctx != NULL && ctx->type == PM_CONTEXT_LOCAL;
    if (!*routed)
        return NULL;
    if ((dso = pmkit_dso_for(domain, ctx)) == NULL)
        *sts = PM_ERR_NOAGENT;
    return dso;
}

static int agent_pmid(unsigned int domain, const char *name, pmID *pmid, int *routed)
{
    int sts = PM_ERR_NAME;
    __pmDSO *dso;

    pmkit_lock();
    if ((dso = names_agent(domain, routed, &sts)) != NULL &&
        dso->dispatch.comm.pmda_interface >= PMDA_INTERFACE_4)
        sts = dso->dispatch.version.four.pmid(name, pmid, dso->dispatch.version.four.ext);
    pmkit_unlock();
    return sts < 0 ? sts : 0;
}

/* The agent's names of pmid: a count > 0 with *list (one block), or an
 * error. */
static int agent_name(pmID pmid, char ***list, int *routed)
{
    int sts = PM_ERR_PMID;
    __pmDSO *dso;

    pmkit_lock();
    if ((dso = names_agent(pmID_domain(pmid), routed, &sts)) != NULL &&
        dso->dispatch.comm.pmda_interface >= PMDA_INTERFACE_4)
        sts = dso->dispatch.version.four.name(pmid, list, dso->dispatch.version.four.ext);
    pmkit_unlock();
    if (sts == 0)
        sts = PM_ERR_PMID; /* no names is no answer */
    return sts;
}

/* The agent's children of name (never its whole subtree: PCP asks with
 * traverse 0 and walks itself): a count with *kids and *status (freed by
 * the caller; NULL when the count is 0), or an error. */
static int agent_children(unsigned int domain, const char *name, char ***kids, int **status,
                          int *routed)
{
    int sts = PM_ERR_NAME;
    __pmDSO *dso;

    *kids = NULL;
    *status = NULL;
    pmkit_lock();
    if ((dso = names_agent(domain, routed, &sts)) != NULL &&
        dso->dispatch.comm.pmda_interface >= PMDA_INTERFACE_4)
        sts = dso->dispatch.version.four.children(name, 0, kids, status,
                                                  dso->dispatch.version.four.ext);
    pmkit_unlock();
    if (sts <= 0) {
        if (sts == 0) {
            free(*kids);
            free(*status);
        }
        *kids = NULL;
        *status = NULL;
    }
    return sts;
}

/* lookup_pmns and lookup_one: a name below a dynamic subtree root, *pmid
 * set to the root's PMID (the answer unless a local agent gives another). */
#define BELOW_DYNAMIC 2

/* The dynamic subtree root that is the longest proper prefix of name
 * (len bytes) that is a node: 1 with *root, or 0. */
static int dynamic_above(const pmns_image *t, const char *name, size_t len, pmns_image_node *root)
{
    for (size_t i = len; i-- > 0;) {
        if (name[i] != '.' || pmns_image_find(t, name, i, root) == PMNS_IMG_NONE)
            continue;
        if (root->flags & PMNS_IMG_DYNAMIC)
            return 1;
        if (!(root->flags & PMNS_IMG_DERIVED))
            break; /* a grafted node may still sit below a dynamic root */
    }
    return 0;
}

/* The PMID of one name, whose hash (pmns_image_probe) is hash: a leaf (0),
 * a derived metric's name (1), a name below a dynamic subtree root
 * (BELOW_DYNAMIC, the root's PMID), or an error. */
static int lookup_pmns(const pmns_image *t, const char *name, size_t len, uint32_t hash, pmID *pmid)
{
    pmns_image_node nd, p;

    if (len > 0 && pmns_image_find_hashed(t, name, len, hash, &nd) != PMNS_IMG_NONE) {
        /* dynamic roots are leaves, so only a derived name grafted below
         * one (event 40:*:* and event.flags) has a dynamic ancestor, its
         * parent; the dynamic root answers for it */
        if ((nd.flags & PMNS_IMG_DERIVED) && pmns_image_node_at(t, nd.parent, &p) == 0 &&
            (p.flags & PMNS_IMG_DYNAMIC)) {
            *pmid = p.pmid;
            return BELOW_DYNAMIC;
        }
        if (nd.flags & PMNS_IMG_DERIVED)
            return PM_ERR_NAME; /* the derived metrics answer for these */
        if (!(nd.flags & (PMNS_IMG_LEAF | PMNS_IMG_HASPMID)))
            return PM_ERR_NONLEAF;
        *pmid = nd.pmid;
        return 0;
    }
    if (dynamic_above(t, name, len, &nd)) {
        *pmid = nd.pmid;
        return BELOW_DYNAMIC;
    }
    return PM_ERR_NAME;
}

/* The PMID of one name (len bytes, hash its pmns_image_hash) in namespace
 * n (NULL: none loaded): the leaf index, then the image, then the derived
 * metrics.  0, 1 for a derived metric's name, BELOW_DYNAMIC, or an error. */
static int lookup_one(const ns *n, const char *name, size_t len, uint32_t hash, pmID *pmid)
{
    int sts;

    if (n == NULL)
        sts = PM_ERR_NOPMNS;
    else if (n->leaves != NULL && leaf_lookup(n, name, len, hash, pmid) == 0)
        return 0;
    else
        sts = lookup_pmns(n->img, name, len, hash, pmid);
    if (sts < 0 && derived_name(name, pmid) > 0)
        return 1;
    return sts;
}

/*
 * The k (<= LOOKUP_GROUP) names at namelist, part of a batch, looked up
 * in steps over the whole group:
 * each name's string and hash, then its index slot, then its record, each
 * step prefetching what the next one reads.  A lookup at a million names
 * is a chain of cache misses; this way the group's chains overlap instead
 * of running one after the other.  Not used when the namespace has a leaf
 * index (a text load): pmLookupName then asks one name at a time.
 */
#define LOOKUP_GROUP 16

static void lookup_group(const ns *n, const char **namelist, pmID *pmidlist, int k, int *sts)
{
    size_t len[LOOKUP_GROUP];
    uint32_t hash[LOOKUP_GROUP];

    for (int i = 0; i < k; i++)
        if (namelist[i] != NULL)
            __builtin_prefetch(namelist[i]);
    for (int i = 0; i < k; i++)
        if (namelist[i] != NULL) {
            len[i] = strlen(namelist[i]);
            hash[i] = pmns_image_probe(n->img, namelist[i], len[i]);
        }
    for (int i = 0; i < k; i++)
        if (namelist[i] != NULL)
            pmns_image_prefetch_node(n->img, hash[i]);
    for (int i = 0; i < k; i++)
        sts[i] = namelist[i] != NULL ? lookup_one(n, namelist[i], len[i], hash[i], &pmidlist[i])
                                     : PM_ERR_NAME;
}

/* A name that lookup_pmns found below a dynamic root (whose PMID *pmid
 * holds) through the root's agent: 0 (the agent's PMID, or the root's
 * outside a local context), 1 for a derived metric's name, or the agent's
 * error with *pmid PM_ID_NULL.  PCP, too, tries the derived metrics
 * after the agent. */
static int lookup_below(const char *name, pmID *pmid)
{
    int routed, sts;
    pmID p = PM_ID_NULL;

    if ((sts = agent_pmid(pmID_cluster(*pmid), name, &p, &routed)) == 0 || !routed) {
        *pmid = routed ? p : *pmid;
        return 0;
    }
    *pmid = PM_ID_NULL;
    return derived_name(name, pmid) > 0 ? 1 : sts;
}

/* The names of pmLookupName's list that are below a dynamic root (below[i]
 * set), each asked of its agent once the namespace is released, updating
 * the counts; the status of the last one. */
static int lookup_all_below(int numpmid, const char **namelist, pmID *pmidlist,
                            const unsigned char *below, int *found, int *derived)
{
    int sts = 0;

    for (int i = 0; i < numpmid; i++) {
        if (!below[i])
            continue;
        if ((sts = lookup_below(namelist[i], &pmidlist[i])) != 0) {
            (*found)--;
            *derived += sts > 0;
        }
    }
    return sts;
}

/* Names below dynamic roots are counted as found at first, with their
 * slots marked in below (allocated at the first one), and asked of their
 * agents at the end: the single-name path pays nothing for them. */
int pmLookupName(int numpmid, const char **namelist, pmID *pmidlist)
{
    const ns *n;
    int found = 0, derived = 0, sts = 0, nbelow = 0;
    unsigned char *below = NULL;

    if (numpmid < 1)
        return PM_ERR_TOOSMALL;
    for (int i = 0; i < numpmid; i++)
        pmidlist[i] = PM_ID_NULL;
    n = acquire_ns(); /* with no namespace only derived metrics have names */
    if ((n == NULL || !atomic_load_explicit(&loaded_asked, memory_order_relaxed)) &&
        pmkit_ctx_type_current() == PM_CONTEXT_HOST) {
        release();
        return lookup_remote(numpmid, namelist, pmidlist);
    }
    for (int i = 0; i < numpmid;) {
        int k = numpmid - i < LOOKUP_GROUP ? numpmid - i : LOOKUP_GROUP, got[LOOKUP_GROUP];
        if (k > 1 && n != NULL && n->leaves == NULL) {
            lookup_group(n, namelist + i, pmidlist + i, k, got);
        } else {
            const char *name = namelist[i];
            size_t len = name != NULL ? strlen(name) : 0;
            uint32_t h = 0;
            k = 1;
            if (name != NULL && n != NULL && n->leaves == NULL) {
                h = pmns_image_probe(n->img, name, len); /* its slot first */
                pmns_image_prefetch_parent(n->img, name, len);
            } else if (name != NULL && n != NULL) {
                h = pmns_image_hash(name, len);
            }
            got[0] = name == NULL ? PM_ERR_NAME : lookup_one(n, name, len, h, &pmidlist[i]);
        }
        for (int j = 0; j < k; j++) {
            sts = got[j];
            if (sts == 0) {
                found++;
            } else if (sts == BELOW_DYNAMIC) {
                if (below == NULL)
                    below = calloc((size_t)numpmid, 1);
                if (below != NULL)
                    below[i + j] = 1;
                nbelow++;
                found++;
                sts = 0;
            } else if (sts > 0) {
                derived++;
            }
        }
        i += k;
    }
    release();
    if (nbelow > 0) {
        if (below == NULL)
            return -ENOMEM;
        sts = lookup_all_below(numpmid, namelist, pmidlist, below, &found, &derived);
        free(below);
    }
    /* PCP counts names resolved as derived metrics only when that completes
     * the list */
    if (found + derived == numpmid)
        return numpmid;
    if (n == NULL)
        return PM_ERR_NOPMNS;
    return numpmid == 1 ? sts : found;
}

/* A list of names built as one malloc'd block: the pointers, then the
 * strings (PCP's allocation contract: the caller frees it with free()). */
typedef struct namelist {
    char *text; /* the strings, NUL separated */
    size_t len, cap;
    size_t count;
    int statuses; /* keep a status per name */
    int *status;  /* PMNS_*_STATUS per name, when wanted */
    size_t scap;
} namelist;

/* head, a dot if head is not empty, tail and a NUL into dst, which has
 * room for them. */
static void put_name(char *dst, const char *head, size_t hl, const char *tail, size_t tl)
{
    if (hl > 0) {
        memcpy(dst, head, hl);
        dst[hl++] = '.';
    }
    memcpy(dst + hl, tail, tl);
    dst[hl + tl] = '\0';
}

/* Add head, a dot (if head is not empty) and tail as one name. */
static int nl_add(namelist *nl, const char *head, size_t hl, const char *tail, size_t tl,
                  int status)
{
    size_t n = hl + (hl > 0) + tl;

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
    if (nl->statuses && nl->count == nl->scap) {
        size_t cap = nl->scap ? nl->scap * 2 : 16;
        int *s = realloc(nl->status, cap * sizeof(*s));
        if (s == NULL)
            return -ENOMEM;
        nl->status = s;
        nl->scap = cap;
    }
    put_name(nl->text + nl->len, head, hl, tail, tl);
    nl->len += n + 1;
    if (nl->statuses)
        nl->status[nl->count] = status;
    nl->count++;
    return 0;
}

/* Is s (length n) one of nl's names already? */
static int nl_has(const namelist *nl, const char *s, size_t n)
{
    const char *p = nl->text;

    for (size_t i = 0; i < nl->count; i++, p += strlen(p) + 1)
        if (strlen(p) == n && memcmp(p, s, n) == 0)
            return 1;
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

/* The loaded namespace and its visible node called name: 0 with the
 * namespace held (the caller releases it), or an error with nothing held. */
static int acquire_node(const char *name, ns **t, pmns_image_node *nd)
{
    if (name == NULL)
        return PM_ERR_NAME;
    if ((*t = acquire_ns()) == NULL) {
        release();
        return PM_ERR_NOPMNS;
    }
    if (pmns_image_find((*t)->img, name, strlen(name), nd) == PMNS_IMG_NONE ||
        (nd->flags & PMNS_IMG_DERIVED)) {
        release();
        return PM_ERR_NAME;
    }
    return 0;
}

/* The domain of the dynamic subtree root name is below (not at): 1 with
 * *domain, or 0 (also when no namespace is loaded). */
static int below_dynamic(const char *name, unsigned int *domain)
{
    const pmns_image *t = acquire();
    pmns_image_node root;
    int below = t != NULL && dynamic_above(t, name, strlen(name), &root);

    release();
    if (below)
        *domain = pmID_cluster(root.pmid);
    return below;
}

/* The children of name, at or below the dynamic root of domain, from its
 * agent, copied into PCP's blocks; *routed 0 outside a local context. */
static int dynamic_children(unsigned int domain, const char *name, char ***offspring,
                            int **statuslist, int *routed)
{
    namelist nl = {0};
    char **kids;
    int *status, n, sts = 0;

    if ((n = agent_children(domain, name, &kids, &status, routed)) < 0 || !*routed)
        return n;
    nl.statuses = statuslist != NULL;
    for (int i = 0; sts == 0 && i < n; i++)
        sts = nl_add(&nl, "", 0, kids[i], strlen(kids[i]),
                     status != NULL ? status[i] : PMNS_LEAF_STATUS);
    free(kids); /* NULL when n is 0 */
    free(status);
    if (sts < 0) {
        nl_free(&nl);
        return sts;
    }
    return nl_finish(&nl, offspring, statuslist);
}

/* The derived children of a name, for pmkit_derived_children: is the
 * child (its full name) among the namespace's, and add one. */
static int child_listed(const char *full, void *nl)
{
    const char *dot = strrchr(full, '.'), *kid = dot != NULL ? dot + 1 : full;

    return nl_has(nl, kid, strlen(kid));
}

static int child_add(const char *kid, int leaf, void *nl)
{
    return nl_add(nl, "", 0, kid, strlen(kid), leaf ? PMNS_LEAF_STATUS : PMNS_NONLEAF_STATUS);
}

/* The derived metrics' children of name, after the namespace's in nl;
 * *leaf set when name is a derived metric itself. */
static int add_derived_children(const char *name, namelist *nl, int *leaf)
{
    return pmkit_derived_children(name, child_listed, child_add, nl, leaf);
}

/* A name the namespace does not have: its derived children, 0 for a
 * derived leaf, else PM_ERR_NAME. */
static int derived_only_children(const char *name, char ***offspring, int **statuslist)
{
    namelist nl = {0};
    int leaf = 0, sts;

    nl.statuses = statuslist != NULL;
    if ((sts = add_derived_children(name, &nl, &leaf)) < 0 || (nl.count == 0 && !leaf)) {
        nl_free(&nl);
        return sts < 0 ? sts : PM_ERR_NAME;
    }
    return nl_finish(&nl, offspring, statuslist);
}

/* A dynamic root, or a name below one, goes to its agent in a local
 * context; elsewhere the root is a leaf and names below it unknown.  The
 * derived metrics' children follow the namespace's. */
int pmGetChildrenStatus(const char *name, char ***offspring, int **statuslist)
{
    namelist nl = {0};
    ns *t;
    pmns_image_node nd, c;
    pmns_image_iter it;
    unsigned int domain;
    int sts, more, routed;

    if (name != NULL && remote())
        return children_remote(name, offspring, statuslist);
    if ((sts = acquire_node(name, &t, &nd)) < 0) {
        if (sts != PM_ERR_NAME || name == NULL)
            return sts;
        if (!below_dynamic(name, &domain))
            return derived_only_children(name, offspring, statuslist);
        sts = dynamic_children(domain, name, offspring, statuslist, &routed);
        return routed ? sts : derived_only_children(name, offspring, statuslist);
    }
    if (nd.flags & PMNS_IMG_DYNAMIC) {
        release();
        sts = dynamic_children(pmID_cluster(nd.pmid), name, offspring, statuslist, &routed);
        if (routed)
            return sts;
        if ((sts = acquire_node(name, &t, &nd)) < 0) /* unloaded meanwhile */
            return sts;
    }
    nl.statuses = statuslist != NULL;
    pmns_image_children(&nd, &it);
    while (sts == 0 && (more = pmns_image_next(t->img, &it, &c)) != 0) {
        if (more < 0)
            sts = PM_ERR_PMNS;
        else if ((c.flags & PMNS_IMG_VISIBLE) && !(c.flags & PMNS_IMG_DERIVED))
            /* a node with a PMID is a leaf to PCP, dynamic roots excepted,
             * even with derived metrics below it */
            sts = nl_add(&nl, "", 0, c.name, c.namelen,
                         (c.flags & (PMNS_IMG_LEAF | PMNS_IMG_HASPMID)) &&
                                 !(c.flags & PMNS_IMG_DYNAMIC)
                             ? PMNS_LEAF_STATUS
                             : PMNS_NONLEAF_STATUS);
    }
    release();
    if (sts == 0)
        sts = add_derived_children(name, &nl, NULL);
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

/* Room for one more level of a walk. */
static int grow_stack(pmns_image_iter **stack, const char ***path, uint32_t **pathlen, size_t *cap)
{
    size_t n = *cap ? *cap * 2 : 32;
    void *a = realloc(*stack, n * sizeof(**stack));

    if (a != NULL)
        *stack = a;
    void *b = realloc((void *)*path, n * sizeof(**path));
    if (b != NULL)
        *path = b;
    void *c = realloc(*pathlen, n * sizeof(**pathlen));
    if (c != NULL)
        *pathlen = c;
    if (a == NULL || b == NULL || c == NULL)
        return -ENOMEM;
    *cap = n;
    return 0;
}

/* Expands a dynamic root (its name, its PMID) in a walk: the number of
 * leaves found below it, or an error, which ends the walk. */
typedef int (*expand_fn)(const char *name, uint32_t root, void *closure);

/* One leaf of a walk: func called with its name, or, for a dynamic root
 * when expand is given, expand's leaves.  A count, or an error. */
static int visit_leaf(const pmns_image_node *c, const char *name,
                      void (*func)(const char *, void *), expand_fn expand, void *closure)
{
    if (expand != NULL && (c->flags & PMNS_IMG_DYNAMIC))
        return expand(name, c->pmid, closure);
    func(name, closure);
    return 1;
}

/* The derived leaves a walk adds at a node, after the namespace's
 * children: those below the node in subtrees the namespace lacks. */
typedef struct derived_walk {
    const pmns_image *t;
    void (*func)(const char *, void *);
    void *closure;
} derived_walk;

static int in_image(const char *full, void *arg)
{
    const derived_walk *d = arg;
    pmns_image_node nd;

    return pmns_image_find(d->t, full, strlen(full), &nd) != PMNS_IMG_NONE &&
           !(nd.flags & PMNS_IMG_DERIVED);
}

static int emit_derived(const char *name, void *arg)
{
    const derived_walk *d = arg;

    d->func(name, d->closure);
    return 0;
}

/* The derived leaves below node path (len bytes): a count, or an error. */
static int derived_leaves(const pmns_image *t, const char *path, size_t len,
                          void (*func)(const char *, void *), void *closure)
{
    derived_walk d = {t, func, closure};
    char *name = malloc(len + 1);
    int sts;

    if (name == NULL)
        return -ENOMEM;
    memcpy(name, path, len);
    name[len] = '\0';
    sts = pmkit_derived_walk(name, t != NULL ? in_image : NULL, emit_derived, &d);
    free(name);
    return sts;
}

/* Call func for every leaf at or below nd, depth first in child order,
 * each name built in place from its parent's full name and its own (a
 * dynamic root is a leaf unless expand is given), and the derived leaves
 * of each node after its children; returns the number of leaves, or an
 * error. */
static int walk(const pmns_image *t, const pmns_image_node *nd, void (*func)(const char *, void *),
                expand_fn expand, void *closure)
{
    namebuf nb = {NULL, 0, NULL, 0};
    pmns_image_iter *stack = NULL;
    const pmns_image_node *top = nd;
    pmns_image_node c;
    size_t sp = 0, cap = 0;
    const char **path = NULL, *name, *h, *tl;
    uint32_t *pathlen = NULL, hl, tll;
    int sts = 0, count = 0, more;

    if (nd->flags & PMNS_IMG_LEAF) {
        if (pmns_image_name(t, nd, &h, &hl, &tl, &tll) < 0)
            return PM_ERR_PMNS;
        if ((name = nb_name(&nb, h, hl, tl, tll)) == NULL)
            return -ENOMEM;
        sts = visit_leaf(nd, name, func, expand, closure);
        free(nb.buf);
        return sts;
    }
    if (!(nd->flags & PMNS_IMG_VISIBLE))
        return 0;
    for (;;) {
        if (top != NULL) { /* descend into top */
            if (sp == cap && (sts = grow_stack(&stack, &path, &pathlen, &cap)) < 0)
                break;
            pmns_image_children(top, &stack[sp]);
            path[sp] = top->path;
            pathlen[sp++] = top->pathlen;
            top = NULL;
        }
        if ((more = pmns_image_next(t, &stack[sp - 1], &c)) < 0) {
            sts = PM_ERR_PMNS;
            break;
        }
        if (more == 0) {
            sts = 0;
            if (pmkit_derived_below(path[sp - 1], pathlen[sp - 1]) &&
                (sts = derived_leaves(t, path[sp - 1], pathlen[sp - 1], func, closure)) < 0)
                break;
            count += sts;
            sts = 0;
            if (--sp == 0)
                break;
        } else if (c.flags & PMNS_IMG_DERIVED) {
            continue; /* the derived metrics' own names come from them */
        } else if (c.flags & (PMNS_IMG_LEAF | PMNS_IMG_HASPMID)) {
            if ((name = nb_name(&nb, path[sp - 1], pathlen[sp - 1], c.name, c.namelen)) == NULL) {
                sts = -ENOMEM;
                break;
            }
            /* a leaf with derived metrics below it is their parent, as in PCP */
            sts = 0;
            if ((expand == NULL || !(c.flags & PMNS_IMG_DYNAMIC)) &&
                pmkit_derived_below(name, strlen(name)) &&
                (sts = derived_leaves(NULL, name, strlen(name), func, closure)) > 0) {
                count += sts;
                continue;
            }
            if (sts < 0 || (sts = visit_leaf(&c, name, func, expand, closure)) < 0)
                break;
            count += sts;
        } else if (c.flags & PMNS_IMG_VISIBLE) {
            top = &c;
        }
    }
    free(stack);
    free(path);
    free(pathlen);
    free(nb.buf);
    return sts < 0 ? sts : count;
}

/* A traversal's names, gathered before any callback runs. */
typedef struct gathered {
    namelist nl;
    int sts; /* the first error adding a name */
} gathered;

static void gather(const char *name, void *g)
{
    gathered *gt = g;

    if (gt->sts == 0)
        gt->sts = nl_add(&gt->nl, "", 0, name, strlen(name), 0);
}

/* The leaves at and below name, a name at or below the dynamic root of
 * domain, as PCP finds them: the agent's children of each name, one level
 * at a time; a name without children is a leaf.  A count, or the first
 * error (the names gathered before it are kept). */
static int expand(const char *name, unsigned int domain, gathered *g)
{
    char **kids, *child;
    int *status, routed, sts = 0, count = 0;
    int n = agent_children(domain, name, &kids, &status, &routed);

    if (n == 0 || !routed) { /* !routed: the context changed meanwhile */
        gather(name, g);
        return g->sts < 0 ? g->sts : 1;
    }
    if (n < 0)
        return n;
    for (int i = 0; sts >= 0 && i < n; i++) {
        size_t hl = strlen(name), tl = strlen(kids[i]);
        if ((child = malloc(hl + tl + 2)) == NULL) {
            sts = -ENOMEM;
            break;
        }
        put_name(child, name, hl, kids[i], tl);
        if ((sts = expand(child, domain, g)) >= 0)
            count += sts;
        free(child);
    }
    free(kids);
    free(status);
    return sts < 0 ? sts : count;
}

static int expand_root(const char *name, uint32_t root, void *g)
{
    return expand(name, pmID_cluster(root), g);
}

/* Call func for each gathered name, then free them; returns sts. */
static int call_back(gathered *g, int sts, void (*func)(const char *, void *), void *closure)
{
    const char *s = g->nl.text;

    for (size_t i = 0; i < g->nl.count; i++, s += strlen(s) + 1)
        func(s, closure);
    nl_free(&g->nl);
    return g->sts < 0 ? g->sts : sts;
}

/* The callbacks run with the namespace referenced, not held in the hazard
 * slot: they may unload it and load another (the walk goes on over the
 * old one, whose names PCP has gathered before calling back).  In a local
 * context the names are gathered first, as PCP does, since agents answer
 * for the dynamic subtrees: the agents are done before the first callback,
 * and an error part-way still calls back for the names found before it. */
int pmTraversePMNS_r(const char *name, void (*func)(const char *, void *), void *closure)
{
    gathered g = {{0}, 0};
    pmns_image_node nd;
    unsigned int domain;
    ns *t;
    int sts;

    if (name != NULL && remote())
        return traverse_remote(name, func, closure);
    if ((sts = acquire_node(name, &t, &nd)) < 0) {
        if (name != NULL && sts == PM_ERR_NAME &&
            (!below_dynamic(name, &domain) || !pmkit_ctx_local_current())) {
            /* derived metrics alone, gathered first as PCP does */
            int n = derived_leaves(NULL, name, strlen(name), gather, &g);
            if (n <= 0) {
                nl_free(&g.nl);
                return n < 0 ? n : sts;
            }
            return call_back(&g, n, func, closure);
        }
        if (sts != PM_ERR_NAME || name == NULL || !pmkit_ctx_local_current())
            return sts;
        return call_back(&g, expand(name, domain, &g), func, closure);
    }
    atomic_fetch_add(&t->refs, 1);
    release();
    if (!pmkit_ctx_local_current()) {
        sts = walk(t->img, &nd, func, NULL, closure);
        unref(t);
        return sts;
    }
    sts = walk(t->img, &nd, gather, expand_root, &g);
    unref(t);
    return call_back(&g, sts, func, closure);
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

/* Every name of pmid, last defined first, handed to add(closure, head, hl,
 * tail, tl) (the name is head, a dot if head is not empty, and tail),
 * which returns 0 or an error.  In a local context a PMID the namespace
 * does not know is asked of its domain's agent (PM_ERR_NOAGENT without
 * one), except a dynamic root's own PMID; the derived metrics come last
 * (with no namespace loaded, they alone have names).
 * 0, or the first error: PM_ERR_PMNS for a damaged entry (even after
 * names were handed over), PM_ERR_PMID, PM_ERR_NOPMNS, the agent's. */

/* pmid's names from its agent, handed to add: 0, or an error
 * (PM_ERR_PMID outside a local context). */
static int agent_names_of(pmID pmid, name_fn add, void *closure)
{
    char **list = NULL;
    int routed, n, sts = 0;

    if (IS_DYNAMIC_ROOT(pmid))
        return PM_ERR_PMID; /* D.*.*: PCP does not ask domain 511 */
    if ((n = agent_name(pmid, &list, &routed)) < 0 || !routed)
        return routed ? n : PM_ERR_PMID;
    for (int i = 0; sts == 0 && i < n; i++)
        sts = add(closure, "", 0, list[i], strlen(list[i]));
    free(list);
    return sts;
}

/* A derived metric's name handed to add: 0, or fail when there is none. */
static int derived_names_of(pmID pmid, name_fn add, void *closure, int fail)
{
    char *name;
    int sts;

    if (!pmkit_is_derived(pmid) || pmkit_derived_name(pmid, &name) < 0)
        return fail;
    sts = add(closure, "", 0, name, strlen(name));
    free(name);
    return sts;
}

static int names_of(pmID pmid, name_fn add, void *closure)
{
    const pmns_image *t = acquire();
    pmns_image_pmid_iter it;
    pmns_image_node nd;
    uint32_t off;
    int sts = 0, count = 0;

    if (t == NULL || remote()) {
        release();
        if (remote())
            return names_remote(pmid, add, closure);
        return derived_names_of(pmid, add, closure, PM_ERR_NOPMNS); /* as PCP */
    }
    pmns_image_pmid_first(t, pmid, &it);
    while (sts == 0 && pmns_image_pmid_next(t, &it, &off) > 0) {
        const char *h, *tl;
        uint32_t hl, tll;
        if (pmns_image_node_at(t, off, &nd) < 0 || pmns_image_name(t, &nd, &h, &hl, &tl, &tll) < 0)
            sts = PM_ERR_PMNS;
        else if (nd.flags & PMNS_IMG_DERIVED)
            continue; /* the derived metrics name their own */
        else
            sts = add(closure, h, hl, tl, tll);
        count++;
    }
    release();
    if (sts != 0 || count > 0 || (sts = agent_names_of(pmid, add, closure)) == 0)
        return sts;
    return derived_names_of(pmid, add, closure, sts);
}

static int add_to_list(void *nl, const char *head, size_t hl, const char *tail, size_t tl)
{
    return nl_add(nl, head, hl, tail, tl, 0);
}

int pmNameAll(pmID pmid, char ***namelist_out)
{
    namelist nl = {0};
    int sts = names_of(pmid, add_to_list, &nl);

    if (sts < 0) {
        nl_free(&nl);
        return sts;
    }
    return nl_finish(&nl, namelist_out, NULL);
}

/* pmNameID's answer: the first of pmNameAll's names, copied alone. */
static int keep_first(void *out, const char *head, size_t hl, const char *tail, size_t tl)
{
    char **name = out;

    if (*name == NULL && (*name = malloc(hl + 1 + tl + 1)) != NULL)
        put_name(*name, head, hl, tail, tl);
    return *name != NULL ? 0 : -ENOMEM;
}

int pmNameID(pmID pmid, char **name)
{
    char *first = NULL;
    int sts = names_of(pmid, keep_first, &first);

    if (sts < 0)
        free(first);
    else
        *name = first;
    return sts;
}

/* ---------------------------------------------------------------- */
/* Names from pmcd: no namespace loaded, a host context current. */

/* A derived metric where names come from pmcd: a name only when it binds
 * in the context (bound at its lookup; traversals and children bind them
 * all first), as in PCP; a namespace loaded holds every registered name. */
static int derived_name_remote(const char *name, pmID *pmid)
{
    if (derived_name(name, pmid) <= 0)
        return PM_ERR_NAME;
    if (!pmkit_derived_visible(*pmid)) {
        *pmid = PM_ID_NULL;
        return PM_ERR_NAME;
    }
    return 1;
}

/* pmcd answers: a host context current and no namespace asked for (one a
 * local context loaded by itself does not count, as in PCP). */
static int remote(void)
{
    return !atomic_load(&loaded_asked) && pmkit_ctx_type_current() == PM_CONTEXT_HOST;
}

/* pmcd's answer, then the derived metrics for what it did not resolve;
 * PCP's counting rules as for the namespace (pmLookupName above). */
static int lookup_remote(int numpmid, const char **names, pmID *pmidlist)
{
    int found = pmkit_host_lookup(numpmid, names, pmidlist), derived = 0;

    if (found < 0) {
        if (numpmid == 1 && names[0] != NULL && derived_name_remote(names[0], pmidlist) > 0)
            return 1;
        return found;
    }
    for (int i = 0; i < numpmid; i++)
        if (pmidlist[i] == PM_ID_NULL && names[i] != NULL)
            derived += derived_name_remote(names[i], &pmidlist[i]) > 0;
    return found + derived == numpmid ? numpmid : found;
}

/* pmcd's children (none for a leaf), the derived metrics' after them. */
static int children_remote(const char *name, char ***offspring, int **statuslist)
{
    namelist nl = {0};
    char **kids;
    int *status = NULL, sts = pmkit_derived_bind_below(name);
    int n = pmkit_host_children(name, &kids, statuslist != NULL ? &status : NULL);

    if (n < 0 && n != PM_ERR_NAME)
        return n;
    nl.statuses = statuslist != NULL;
    for (int i = 0; sts == 0 && i < n; i++)
        sts = nl_add(&nl, "", 0, kids[i], strlen(kids[i]),
                     status != NULL ? status[i] : PMNS_LEAF_STATUS);
    if (n > 0) {
        free(kids);
        free(status);
    }
    int leaf = 0;
    if (sts == 0 && n != 0)
        sts = add_derived_children(name, &nl, &leaf);
    if (sts == 0 && n < 0 && nl.count == 0 && leaf)
        n = 0; /* a derived metric: a leaf */
    if (sts < 0 || (n < 0 && nl.count == 0)) {
        nl_free(&nl);
        return sts < 0 ? sts : n;
    }
    return nl_finish(&nl, offspring, statuslist);
}

/* pmcd's leaves, then the derived metrics at or below name; pmcd's
 * PM_ERR_NAME stands only if no derived metric matches. */
static int gather_derived(const char *name, void *g)
{
    gather(name, g);
    return 0;
}

static int traverse_remote(const char *name, void (*func)(const char *, void *), void *closure)
{
    gathered g = {{0}, 0};
    char **names;
    int n = pmkit_host_traverse(name, &names), count;

    pmkit_derived_bind_below(name);

    if (n < 0 && n != PM_ERR_NAME)
        return n;
    for (int i = 0; i < n; i++)
        gather(names[i], &g);
    if (n > 0)
        free(names);
    if (pmkit_derived_walk(name, NULL, gather_derived, &g) < 0 && g.sts == 0)
        g.sts = -ENOMEM;
    if (n < 0 && g.nl.count == 0)
        return n;
    count = (int)g.nl.count;
    return call_back(&g, count, func, closure);
}

/* pmcd's names for pmid; a derived metric's when pmcd knows none. */
static int names_remote(pmID pmid, name_fn add, void *closure)
{
    char **names;
    int n = pmkit_host_names(pmid, &names), sts = 0;

    if (n < 0) {
        if ((n == PM_ERR_PMID || n == PM_ERR_NOAGENT) &&
            (!pmkit_is_derived(pmid) || pmkit_derived_visible(pmid)))
            return derived_names_of(pmid, add, closure, n);
        return n;
    }
    for (int i = 0; sts == 0 && i < n; i++)
        sts = add(closure, "", 0, names[i], strlen(names[i]));
    free(names);
    return sts;
}

/* 1 unless the namespace in use was loaded from the file of this name (the
 * default's for NULL or PM_NS_DEFAULT, names compared as text) and the
 * file's modification time is still the one it had then, as Debian's
 * answers (tests/oracle/probe_pmnschanged.c).  Loads nothing. */
int __pmHasPMNSFileChanged(const char *filename)
{
    char def[MAXPATHLEN];
    struct stat st;
    hazard *h = my_slot();
    ns *t;
    int changed = 1;

    if (filename == NULL || filename == (const char *)(uintptr_t)0xffffffff)
        filename = default_file(def, sizeof(def));
    if (h == NULL)
        return 1;
    do {
        t = atomic_load(&loaded);
        atomic_store(&h->tree, t);
    } while (t != atomic_load(&loaded));
    if (t != NULL && t->file != NULL && strcmp(t->file, filename) == 0 &&
        stat(filename, &st) == 0 && st.st_mtim.tv_sec == t->mtime.tv_sec &&
        st.st_mtim.tv_nsec == t->mtime.tv_nsec)
        changed = 0;
    release();
    return changed;
}
