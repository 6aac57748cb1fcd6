/*
 * pmns_image_write.c - laying out a binary namespace image
 * (docs/pmns-format.md) from nodes given in breadth-first order: a parsed
 * tree's (front/pmns.h) read in place, or a writer's, which collects them
 * in a tree of its own.
 *
 * Everything the image holds besides the nodes themselves is derived
 * here, in linear time: children ranges from the parent indexes, the
 * flags (a node with a PMID and no children is a leaf, one with both keeps
 * HASPMID, a PMID of domain 511 and item 0 is a dynamic root, visibility
 * flows up from the leaves), the records with every non-leaf's full name
 * built from its parent's, the name index by linear probing in record
 * order, and the PMID index by a counting sort on the bucket, then by
 * PMID and reverse pre-order within each bucket (a repeated PMID's few
 * nodes ordered by their ancestors, or by pre-order positions from
 * subtree sizes, not from a walk).
 *
 * The output is a function of the nodes alone: fields are written byte by
 * byte, padding is zero, tables have sizes fixed by the counts.  Not here:
 * any check of the names themselves (the text parser does that) or of
 * which derived nodes were added (the builder decides).
 */
#include "pmns_image_int.h"
#include "pmns.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Everything finish() derives, node by node. */
typedef struct layout {
    const pmns_node *nd; /* the nodes (a tree's), read in place */
    const char *str;     /* their names */
    uint32_t n;
    uint32_t *first, *nkids; /* children: indexes first .. first + nkids - 1 */
    uint32_t *off;           /* record offset */
    uint32_t *pathlen;       /* full name length (every node) */
    uint8_t *flags;          /* PMNS_IMG_* */
    uint32_t *pre;           /* position in depth-first pre-order (computed only
                              * for sort_repeats' second way; put_pmids keeps
                              * each node's bucket here before) */
    uint64_t nodes_len;
    uint32_t nleaves, nnames, nentries, maxpath;
    uint8_t *img; /* the output */
    uint64_t size;
    uint32_t sect_off[NSECT + 1], sect_len[NSECT + 1];
} layout;

/* Node i's fields; the root has no name and no PMID whatever its node
 * says. */
static inline uint32_t parent_of(const layout *L, uint32_t i)
{
    return L->nd[i].parent;
}

static inline uint32_t pmid_of(const layout *L, uint32_t i)
{
    return i == 0 ? PMNS_IMG_PMID_NULL : L->nd[i].pmid;
}

static inline uint32_t namelen_of(const layout *L, uint32_t i)
{
    return i == 0 ? 0 : L->nd[i].namelen;
}

static inline const char *name_of(const layout *L, uint32_t i)
{
    return L->str + L->nd[i].name;
}

/* The writer: a tree of its own, names copied into its arena. */
struct pmns_image_writer {
    pmns_tree t;
    uint32_t cap;      /* nodes allocated */
    size_t slen, scap; /* the arena's bytes used, allocated */
};

pmns_image_writer *pmns_image_writer_new(void)
{
    pmns_image_writer *w = calloc(1, sizeof(*w));

    if (w == NULL || pmns_image_add(w, 0, "", 0, PMNS_IMG_PMID_NULL, 0) < 0) {
        pmns_image_writer_free(w);
        return NULL;
    }
    return w;
}

void pmns_image_writer_free(pmns_image_writer *w)
{
    if (w == NULL)
        return;
    free(w->t.nodes);
    free(w->t.strings);
    free(w);
}

/* Room for at least want nodes (doubling, or want itself if larger). */
static int grow(pmns_image_writer *w, uint32_t want)
{
    uint32_t cap = w->cap ? w->cap * 2 : 1024;
    pmns_node *p;

    if (cap <= w->cap)
        return PMNS_IMG_ETOOBIG;
    if (cap < want)
        cap = want;
    if ((p = realloc(w->t.nodes, cap * sizeof(*p))) == NULL)
        return PMNS_IMG_ENOMEM;
    w->t.nodes = p;
    w->cap = cap;
    return 0;
}

/* The order rules of pmns_image_add for node i of nodes (i > 0). */
static int check_node(const pmns_node *nodes, uint32_t i)
{
    uint32_t parent = nodes[i].parent;

    if (parent >= i || (i > 1 && parent < nodes[i - 1].parent) || nodes[i].namelen == 0)
        return PMNS_IMG_EORDER;
    return nodes[i].namelen > NAMELEN_MAX ? PMNS_IMG_ETOOBIG : 0;
}

int pmns_image_add(pmns_image_writer *w, uint32_t parent, const char *name, size_t len,
                   uint32_t pmid, int derived)
{
    pmns_node *nd;
    uint32_t i = w->t.nnodes;
    int sts;

    if (i == UINT32_MAX || (i > 0 && len == 0))
        return i == UINT32_MAX ? PMNS_IMG_ETOOBIG : PMNS_IMG_EORDER;
    if (len > NAMELEN_MAX || w->slen + len > UINT32_MAX)
        return PMNS_IMG_ETOOBIG;
    if (i == w->cap && (sts = grow(w, 0)) < 0)
        return sts;
    if (w->slen + len > w->scap) {
        size_t cap = w->scap ? w->scap : 1024;
        char *s;
        while (cap < w->slen + len)
            cap *= 2;
        if ((s = realloc(w->t.strings, cap)) == NULL)
            return PMNS_IMG_ENOMEM;
        w->t.strings = s;
        w->scap = cap;
    }
    nd = &w->t.nodes[i];
    memset(nd, 0, sizeof(*nd));
    nd->parent = i == 0 ? PMNS_NONE : parent;
    nd->name = (uint32_t)w->slen;
    nd->namelen = (uint32_t)len;
    nd->pmid = pmid;
    nd->flags = derived ? PMNS_F_GRAFTED : 0;
    if (i > 0 && (sts = check_node(w->t.nodes, i)) < 0)
        return sts;
    if (len > 0)
        memcpy(w->t.strings + w->slen, name, len);
    w->slen += len;
    w->t.nnodes++;
    return 0;
}

int pmns_image_reserve(pmns_image_writer *w, uint32_t n)
{
    return n > w->cap ? grow(w, n) : 0;
}

/* A zeroed buffer for an image.  A large one is mapped on its own and
 * asked for huge pages: an image built in memory (pmLoadASCIINameSpace)
 * is then read through few TLB entries, as a mapped file is. */
uint8_t *pmns_image_alloc(size_t len)
{
    uint8_t *p;

    if (len < PMNS_IMG_HUGE_MIN)
        return pmns_mem_calloc(len);
    p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    pmns_img_advise_huge(p, len);
    return p;
}

void pmns_image_free(uint8_t *image, size_t len)
{
    if (image == NULL)
        return;
    if (len < PMNS_IMG_HUGE_MIN)
        pmns_mem_free(image);
    else
        munmap(image, len);
}

/* ---------------------------------------------------------------- */
/* Shape: children, flags, full-name lengths, record offsets. */

static int shape(layout *L)
{
    uint32_t n = L->n;
    int sts;

    for (uint32_t i = 1; i < n; i++) { /* the order checked, children counted */
        uint32_t p = parent_of(L, i);
        if ((sts = check_node(L->nd, i)) < 0)
            return sts;
        if (L->nkids[p]++ == 0)
            L->first[p] = i;
    }
    L->nodes_len = 0;
    for (uint32_t i = 0; i < n; i++) { /* flags (but visibility), lengths, places */
        uint32_t pmid = pmid_of(L, i), len = namelen_of(L, i);
        uint64_t plen = len;
        uint8_t f = 0;
        if (pmid != PMNS_IMG_PMID_NULL) {
            f = L->nkids[i] == 0 ? PMNS_IMG_LEAF | PMNS_IMG_VISIBLE : PMNS_IMG_HASPMID;
            if (is_dynamic_pmid(pmid))
                f |= PMNS_IMG_DYNAMIC;
            else
                L->nentries++;
        }
        if ((L->nd[i].flags & PMNS_F_GRAFTED))
            f |= PMNS_IMG_DERIVED;
        L->flags[i] = f;
        if (i > 0 && L->pathlen[parent_of(L, i)] > 0)
            plen += (uint64_t)L->pathlen[parent_of(L, i)] + 1;
        if (plen > UINT32_MAX || L->nodes_len > UINT32_MAX)
            return PMNS_IMG_ETOOBIG;
        L->pathlen[i] = (uint32_t)plen;
        if (plen > L->maxpath)
            L->maxpath = (uint32_t)plen;
        L->off[i] = (uint32_t)L->nodes_len;
        if (f & PMNS_IMG_LEAF) {
            L->nleaves++;
            L->nodes_len += pad4((uint64_t)REC_NAME + len);
        } else {
            L->nodes_len += pad4((uint64_t)REC_PATH + plen);
        }
    }
    for (uint32_t i = n; i-- > 1;) /* children follow their parents */
        if (L->flags[i] & PMNS_IMG_VISIBLE) {
            L->flags[parent_of(L, i)] |= PMNS_IMG_VISIBLE;
            L->nnames++;
        }
    return L->nodes_len > UINT32_MAX ? PMNS_IMG_ETOOBIG : 0;
}

/* Each node's position in depth-first pre-order (children in order), in
 * L->pre, without a walk: a node comes right after its parent and the
 * subtrees of its earlier siblings, so subtree sizes (summed from the last
 * node back) give every position in one forward pass. */
static int preorder(layout *L)
{
    uint32_t n = L->n;
    uint32_t *size = pmns_mem_alloc((size_t)n * sizeof(*size));

    if (size == NULL)
        return PMNS_IMG_ENOMEM;
    for (uint32_t i = n; i-- > 0;) {
        size[i] = 1;
        for (uint32_t c = 0; c < L->nkids[i]; c++)
            size[i] += size[L->first[i] + c];
    }
    L->pre[0] = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t at = L->pre[i] + 1;
        for (uint32_t c = 0; c < L->nkids[i]; c++) {
            L->pre[L->first[i] + c] = at;
            at += size[L->first[i] + c];
        }
    }
    pmns_mem_free(size);
    return 0;
}

/* ---------------------------------------------------------------- */
/* Sections. */

/* memcpy for a name: most are short, copied by two overlapping words
 * (every byte read lies in the name, every byte written in its place). */
static inline void copy_name(uint8_t *d, const char *s, uint32_t n)
{
    uint64_t a, b;
    uint32_t x, y;

    if (n >= 8 && n <= 16) {
        memcpy(&a, s, 8);
        memcpy(&b, s + n - 8, 8);
        memcpy(d, &a, 8);
        memcpy(d + n - 8, &b, 8);
    } else if (n >= 4 && n < 8) {
        memcpy(&x, s, 4);
        memcpy(&y, s + n - 4, 4);
        memcpy(d, &x, 4);
        memcpy(d + n - 4, &y, 4);
    } else if (n < 4) {
        for (uint32_t i = 0; i < n; i++)
            d[i] = (uint8_t)s[i];
    } else {
        memcpy(d, s, n);
    }
}

static void put_records(layout *L, uint8_t *nodes)
{

    for (uint32_t i = 0; i < L->n; i++) {
        uint8_t *r = nodes + L->off[i];
        uint32_t p = parent_of(L, i);
        uint32_t end = i + 1 < L->n ? L->off[i + 1] : (uint32_t)L->nodes_len;
        wr32(r + (end - L->off[i]) - 4, 0); /* the padding (the buffer is not zeroed) */
        wr32(r + REC_PARENT, i == 0 ? PMNS_IMG_NONE : L->off[p]);
        wr32(r + REC_PMID, pmid_of(L, i));
        wr32(r + REC_INFO, (uint32_t)L->flags[i] << FLAGS_SHIFT | namelen_of(L, i));
        if (L->flags[i] & PMNS_IMG_LEAF) {
            copy_name(r + REC_NAME, name_of(L, i), namelen_of(L, i));
            continue;
        }
        wr32(r + REC_FIRST, L->nkids[i] ? L->off[L->first[i]] : 0);
        wr32(r + REC_NKIDS, L->nkids[i]);
        wr32(r + REC_PATHLEN, L->pathlen[i]);
        if (i > 0 && L->pathlen[p] > 0) { /* the parent's full name, already written */
            memcpy(r + REC_PATH, nodes + L->off[p] + REC_PATH, L->pathlen[p]);
            r[REC_PATH + L->pathlen[p]] = '.';
        }
        copy_name(r + REC_PATH + L->pathlen[i] - namelen_of(L, i), name_of(L, i), namelen_of(L, i));
    }
}

/* Insert into the name index by linear probing from its home slot. */
static void probe_insert(uint8_t *slots, uint32_t m, uint32_t h, uint32_t home, uint32_t off)
{
    uint32_t s = home;

    while (rd32(slots + (size_t)s * 8 + 4) != 0)
        s = s + 1 == m ? 0 : s + 1;
    wr32(slots + (size_t)s * 8, h);
    wr32(slots + (size_t)s * 8 + 4, off);
}

#define SMALL_BUCKET 16 /* sorted in place, by insertion */
#define AHEAD        16 /* name-index inserts whose slots are being fetched */

/* Linear probing, in record order; the root is never indexed.  Home
 * slots are prefetched AHEAD inserts early: the inserts stay in record
 * order, the cache misses of a large table overlap. */
static int put_names(layout *L, const uint8_t *nodes, uint8_t *slots, uint32_t m)
{
    char *scratch = malloc((size_t)L->maxpath + 1);
    uint32_t ring[AHEAD][3], head = 0, used = 0;

    if (scratch == NULL)
        return PMNS_IMG_ENOMEM;
    uint32_t in_scratch = UINT32_MAX; /* whose full name and '.' scratch starts with */
    size_t at = 0;

    for (uint32_t i = 1; i < L->n; i++) {
        const char *full = scratch;
        uint32_t p = parent_of(L, i), h, *e;
        if (!(L->flags[i] & PMNS_IMG_VISIBLE))
            continue;
        if (!(L->flags[i] & PMNS_IMG_LEAF)) {
            full = (const char *)nodes + L->off[i] + REC_PATH;
        } else {
            if (p != in_scratch) { /* siblings are contiguous: once a parent */
                at = 0;
                if (L->pathlen[p] > 0) {
                    memcpy(scratch, nodes + L->off[p] + REC_PATH, L->pathlen[p]);
                    at = L->pathlen[p];
                    scratch[at++] = '.';
                }
                in_scratch = p;
            }
            copy_name((uint8_t *)scratch + at, name_of(L, i), namelen_of(L, i));
        }
        h = pmns_img_hash_name(full, L->pathlen[i]);
        if (used == AHEAD) {
            e = ring[head];
            probe_insert(slots, m, e[0], e[1], e[2]);
            head = (head + 1) % AHEAD;
            used--;
        }
        e = ring[(head + used++) % AHEAD];
        e[0] = h, e[1] = pmns_image_scale(h, m), e[2] = L->off[i];
#if defined(__GNUC__)
        __builtin_prefetch(slots + (size_t)e[1] * 8, 1);
#endif
    }
    for (; used > 0; used--, head = (head + 1) % AHEAD)
        probe_insert(slots, m, ring[head][0], ring[head][1], ring[head][2]);
    free(scratch);
    return 0;
}

typedef struct pentry {
    uint32_t pmid, pre, off; /* pre: position in pre-order, or the node */
} pentry;

static int by_pmid_last_first(const void *a, const void *b)
{
    const pentry *x = a, *y = b;

    if (x->pmid != y->pmid)
        return x->pmid < y->pmid ? -1 : 1;
    return x->pre > y->pre ? -1 : x->pre < y->pre;
}

/* Sort one bucket by PMID, then last defined first. */
static void sort_bucket(pentry *e, uint32_t n)
{
    if (n > SMALL_BUCKET) {
        qsort(e, n, sizeof(*e), by_pmid_last_first);
        return;
    }
    for (uint32_t i = 1; i < n; i++) {
        pentry t = e[i];
        uint32_t j = i;
        for (; j > 0 && by_pmid_last_first(&e[j - 1], &t) > 0; j--)
            e[j] = e[j - 1];
        e[j] = t;
    }
}

static uint32_t depth(const layout *L, uint32_t i)
{
    uint32_t d = 0;

    for (; i != 0; i = parent_of(L, i))
        d++;
    return d;
}

/* Whether node a comes after node b (another node) in depth-first
 * pre-order, from their ancestors: below the one ancestor, the deeper;
 * else their ancestors that are siblings, in order. */
static bool pre_after(const layout *L, uint32_t a, uint32_t b)
{
    uint32_t da = depth(L, a), db = depth(L, b);
    bool deeper = da > db;

    for (; da > db; da--)
        a = parent_of(L, a);
    for (; db > da; db--)
        b = parent_of(L, b);
    if (a == b)
        return deeper;
    while (parent_of(L, a) != parent_of(L, b)) {
        a = parent_of(L, a);
        b = parent_of(L, b);
    }
    return a > b;
}

/* A run of n entries sharing a PMID, holding their nodes (pentry.pre),
 * sorted last defined first by the nodes' ancestors. */
static void sort_run_nodes(const layout *L, pentry *e, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++) {
        pentry t = e[i];
        uint32_t j = i;
        for (; j > 0 && pre_after(L, t.pre, e[j - 1].pre); j--)
            e[j] = e[j - 1];
        e[j] = t;
    }
}

/* The run of entries from e[i] that share its PMID: its end. */
static uint32_t run_end(const pentry *e, uint32_t i, uint32_t n)
{
    uint32_t j = i + 1;

    while (j < n && e[j].pmid == e[i].pmid)
        j++;
    return j;
}

/* The entries of each PMID that names several nodes (e[0..n), sorted by
 * PMID, holding their nodes), last defined first: by the nodes' ancestors
 * while the repeats are few and shallow (a namespace's aliases), else, as
 * soon as they are not, all by every node's pre-order position, which
 * takes a pass over all nodes.  1 if a PMID repeats, 0 if none does, or
 * an error. */
static int sort_repeats(layout *L, pentry *e, uint32_t n)
{
    uint64_t tied = 0, budget = 8 * (uint64_t)L->n / ((uint64_t)L->maxpath + 1);
    int sts;

    for (uint32_t i = 0, j; i < n; i = j) {
        if ((j = run_end(e, i, n)) - i < 2)
            continue;
        if (j - i > SMALL_BUCKET || (tied += j - i) > budget) {
            if ((sts = preorder(L)) < 0)
                return sts;
            for (uint32_t k = 0; k < n; k++)
                e[k].pre = L->pre[e[k].pre];
            for (i = 0; i < n; i = j)
                if ((j = run_end(e, i, n)) - i > 1)
                    sort_bucket(e + i, j - i);
            return 1;
        }
        sort_run_nodes(L, e + i, j - i);
    }
    return tied > 0;
}

/* Entries counting-sorted by bucket, then sorted by PMID within each,
 * then a repeated PMID's entries last defined first. */
static int put_pmids(layout *L, uint8_t *buckets, uint32_t k, uint8_t *entries, uint32_t *props)
{
    uint32_t *start = pmns_mem_calloc(((size_t)k + 1) * sizeof(*start)), *bucket = L->pre;
    pentry *e = pmns_mem_alloc(((size_t)L->nentries + 1) * sizeof(*e));
    int sts;

    if (start == NULL || e == NULL) {
        pmns_mem_free(start);
        pmns_mem_free(e);
        return PMNS_IMG_ENOMEM;
    }
    for (uint32_t i = 1; i < L->n; i++) /* the root has no PMID */
        if (pmid_of(L, i) != PMNS_IMG_PMID_NULL && !(L->flags[i] & PMNS_IMG_DYNAMIC))
            start[(bucket[i] = pmns_image_scale(mix_pmid(pmid_of(L, i)), k)) + 1]++;
    for (uint32_t b = 0; b < k; b++)
        start[b + 1] += start[b];
    for (uint32_t b = 0; b <= k; b++)
        wr32(buckets + 4 * (size_t)b, start[b]);
    for (uint32_t i = 1; i < L->n; i++) {
        if (pmid_of(L, i) == PMNS_IMG_PMID_NULL || (L->flags[i] & PMNS_IMG_DYNAMIC))
            continue;
        e[start[bucket[i]]++] = (pentry){pmid_of(L, i), i, L->off[i]};
    }
    for (uint32_t b = 0, at = 0; b < k; at = start[b++])
        sort_bucket(e + at, start[b] - at); /* by PMID (ties: sort_repeats) */
    if ((sts = sort_repeats(L, e, L->nentries)) > 0)
        *props |= PMNS_IMG_PROP_DUPLICATES;
    for (uint32_t i = 0; sts >= 0 && i < L->nentries; i++) {
        wr32(entries + (size_t)i * 8, e[i].pmid);
        wr32(entries + (size_t)i * 8 + 4, e[i].off);
    }
    pmns_mem_free(start);
    pmns_mem_free(e);
    return sts < 0 ? sts : 0;
}

/* Header, section table and, with seal, the section checksums. */
static void put_header(layout *L, uint32_t props, int seal)
{
    uint8_t *b = L->img;
    uint32_t hlen = HDR_SIZE + NSECT * SECT_SIZE;

    memcpy(b + HDR_MAGIC, pmns_img_magic, PMNS_IMG_MAGIC_LEN);
    wr16(b + HDR_MAJOR, PMNS_IMG_MAJOR);
    wr16(b + HDR_MINOR, PMNS_IMG_MINOR);
    wr32(b + HDR_LENGTH, hlen);
    wr32(b + HDR_PROPS, props);
    wr64(b + HDR_FILESIZE, L->size);
    wr32(b + HDR_NODES, L->n);
    wr32(b + HDR_LEAVES, L->nleaves);
    wr32(b + HDR_NAMES, L->nnames);
    wr32(b + HDR_ENTRIES, L->nentries);
    wr32(b + HDR_NSECTIONS, NSECT);
    for (uint32_t id = 1; id <= NSECT; id++) {
        uint8_t *e = b + HDR_SIZE + (id - 1) * SECT_SIZE;
        wr32(e, id);
        wr32(e + 4, L->sect_off[id]);
        wr32(e + 8, L->sect_len[id]);
        if (seal)
            wr32(e + 12, pmns_image_crc32c(0, b + L->sect_off[id], L->sect_len[id]));
    }
    wr32(b + HDR_CRC, pmns_img_header_crc(b, hlen));
}

/* Section offsets and the file size; the output buffer (zeroed where
 * put_records, put_names and put_pmids write nothing). */
static int place(layout *L, uint32_t nslots, uint32_t nbuckets)
{
    uint64_t at = HDR_SIZE + NSECT * SECT_SIZE;
    uint64_t len[NSECT + 1] = {0, L->nodes_len, (uint64_t)nslots * 8, ((uint64_t)nbuckets + 1) * 4,
                               (uint64_t)L->nentries * 8};

    for (int id = 1; id <= NSECT; id++) {
        at = pad8(at);
        if (at + len[id] > UINT32_MAX)
            return PMNS_IMG_ETOOBIG;
        L->sect_off[id] = (uint32_t)at;
        L->sect_len[id] = (uint32_t)len[id];
        at += len[id];
    }
    L->size = at;
    if (at >= PMNS_IMG_HUGE_MIN) {
        L->img = pmns_image_alloc((size_t)at); /* a fresh mapping: zeroed */
    } else if ((L->img = pmns_mem_alloc((size_t)at)) != NULL) {
        /* zeroed where nothing is written: the header, the gaps before
         * sections, the name index (0 marks an empty slot); the records
         * zero their own padding, the PMID index is written whole */
        uint64_t from = 0;
        for (int id = 1; id <= NSECT; id++) {
            memset(L->img + from, 0, L->sect_off[id] - from);
            from = (uint64_t)L->sect_off[id] + L->sect_len[id];
        }
        memset(L->img + L->sect_off[SECT_NAMES], 0, L->sect_len[SECT_NAMES]);
    }
    return L->img == NULL ? PMNS_IMG_ENOMEM : 0;
}

/* Everything after the nodes are known. */
static int build(layout *L, int seal)
{
    uint32_t n = L->n, nslots, nbuckets, props = 0;
    int sts;

    /* one block: first and nkids (zeroed), off, pathlen, pre, flags */
    if ((L->first = pmns_mem_alloc((size_t)n * (5 * sizeof(uint32_t) + 1))) == NULL)
        return PMNS_IMG_ENOMEM;
    L->nkids = L->first + n;
    L->off = L->nkids + n;
    L->pathlen = L->off + n;
    L->pre = L->pathlen + n;
    L->flags = (uint8_t *)(L->pre + n);
    memset(L->first, 0, (size_t)n * 2 * sizeof(uint32_t));
    if ((sts = shape(L)) < 0)
        return sts;
    nslots = L->nnames + L->nnames / 4 + 1;
    nbuckets = L->nentries > 4 ? (uint32_t)(((uint64_t)L->nentries + 3) / 4) : 1;
    if ((sts = place(L, nslots, nbuckets)) < 0)
        return sts;
    put_records(L, L->img + L->sect_off[SECT_NODES]);
    sts = put_names(L, L->img + L->sect_off[SECT_NODES], L->img + L->sect_off[SECT_NAMES], nslots);
    if (sts == 0)
        sts = put_pmids(L, L->img + L->sect_off[SECT_BUCKETS], nbuckets,
                        L->img + L->sect_off[SECT_ENTRIES], &props);
    if (sts == 0)
        put_header(L, props, seal);
    return sts;
}

int pmns_img_tree_finish(const pmns_tree *t, int seal, uint8_t **image, size_t *len)
{
    layout L;
    int sts;

    if (t->nnodes == 0)
        return PMNS_IMG_EORDER; /* the nodes' order is checked by shape */
    memset(&L, 0, sizeof(L));
    L.nd = t->nodes;
    L.str = t->strings;
    L.n = t->nnodes;
    sts = build(&L, seal);
    pmns_mem_free(L.first);
    if (sts < 0) {
        pmns_image_free(L.img, (size_t)L.size);
        return sts;
    }
    *image = L.img;
    *len = (size_t)L.size;
    return 0;
}

int pmns_image_finish(pmns_image_writer *w, int seal, uint8_t **image, size_t *len)
{
    int sts = pmns_img_tree_finish(&w->t, seal, image, len);

    pmns_image_writer_free(w);
    return sts;
}
