/*
 * tree.c - the namespace trees agents build for their dynamic subtrees
 * (pmdaTreeCreate, pmdaTreeInsert, pmdaTreeRebuildHash, pmdaTreeSize,
 * pmdaTreePMID, pmdaTreeName, pmdaTreeChildren, pmdaTreeRelease).
 *
 * An agent inserts full dotted names with their PMIDs, then answers the
 * pmid/name/children requests of a dynamic subtree (interface 4 and
 * later) from the tree.  The orders are PCP 6.0.3's, as observed:
 *   - a node's children are listed newest first (an insert puts a new
 *     child at the head of its parent's list);
 *   - a traversal lists the full names of the leaves depth first, in that
 *     same newest-first order;
 *   - pmdaTreeName lists a PMID's names depth first with children oldest
 *     first (for leaves this is the reverse of the traversal), and only
 *     knows the names present at the last pmdaTreeRebuildHash.
 *
 * How: nodes live in one array and refer to each other by index (a node
 * never moves or goes away, so an index taken by the reverse index stays
 * valid), component names in one string arena.  Finding a child is one
 * probe of an open-addressing table keyed by the hash of the full name,
 * so wide and deep trees cost the same per component.  Children are doubly linked, which
 * gives both orders and lets every walk run without a stack, whatever the
 * depth.  The reverse index (PMID -> leaves) is a sorted array built by
 * pmdaTreeRebuildHash; its size hint is not needed and is ignored.
 *
 * Deliberately not PCP: names must follow the PMNS rules (components of a
 * letter then letters, digits or '_'); a name may not continue below a
 * leaf; PM_ID_NULL is not a PMID; NULL arguments are errors, not crashes
 * (docs/compat.md).  An insert that fails leaves the tree unchanged.
 */
#include "pmda_int.h"
#include "pmns_hash.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

typedef struct tnode {
    uint32_t parent; /* index of the parent; NONE for the root */
    uint32_t first;  /* newest child, or NONE */
    uint32_t oldest; /* oldest child, or NONE */
    uint32_t next;   /* the next older sibling, or NONE */
    uint32_t prev;   /* the next newer sibling, or NONE */
    uint32_t name;   /* offset of this node's component in the arena */
    uint32_t len;    /* its length */
    uint32_t hash;   /* hash_step hash of the full dotted name */
    pmID pmid;       /* a leaf's PMID; PM_ID_NULL for the root and non-leaves */
} tnode;

typedef struct rev_ent {
    pmID pmid;     /* the leaf's PMID (sort key) ... */
    uint32_t seq;  /* ... then its place in the oldest-first walk */
    uint32_t node; /* the leaf */
} rev_ent;

/* The tag is PCP's (pmda.h declares pmdaNameSpace with it). */
struct __pmnsTree {
    tnode *nodes;      /* nodes[0] is the root */
    uint32_t nnodes;   /* nodes in use */
    uint32_t ncap;     /* nodes allocated */
    char *str;         /* component names, not NUL-terminated */
    size_t slen, scap; /* arena bytes used and allocated */
    uint32_t *slots;   /* child finder: node index + 1, 0 for empty */
    uint32_t mask;     /* slots - 1 (a power of two minus one) */
    uint32_t nleaves;  /* pmdaTreeSize */
    rev_ent *rev;      /* reverse index from the last rebuild, by (pmid, seq) */
    uint32_t nrev;     /* its entries */
};

/* The PMNS rule for one component (libpcp/front/pmns_parse.c classifies
 * names the same way but keeps its test private to the parser). */
static int component_ok(const char *s, size_t n)
{
    if (n == 0 || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z')))
        return 0;
    for (size_t i = 1; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_'))
            return 0;
    }
    return 1;
}

static size_t component_len(const char *s)
{
    const char *dot = strchr(s, '.');
    return dot != NULL ? (size_t)(dot - s) : strlen(s);
}

/* The child of parent called s (n bytes) whose full name hashes to h, or NONE. */
static uint32_t find_child(const pmdaNameSpace *t, uint32_t parent, const char *s, size_t n,
                           uint32_t h)
{
    for (uint32_t i = h & t->mask; t->slots[i] != 0; i = (i + 1) & t->mask) {
        const tnode *c = &t->nodes[t->slots[i] - 1];
        if (c->hash == h && c->parent == parent && c->len == n &&
            memcmp(t->str + c->name, s, n) == 0)
            return t->slots[i] - 1;
    }
    return NONE;
}

/* The node named name (any node but the root), or NONE. */
static uint32_t find_node(const pmdaNameSpace *t, const char *name)
{
    uint32_t node = 0;

    for (const char *s = name;; s += component_len(s) + 1) {
        size_t n = component_len(s);
        if (n == 0)
            return NONE;
        node = find_child(t, node, s, n, pmns_hash_step(t->nodes[node].hash, s, n));
        if (node == NONE || s[n] == '\0')
            return node;
    }
}

static void slot_put(uint32_t *slots, uint32_t mask, uint32_t hash, uint32_t node)
{
    uint32_t i = hash & mask;

    while (slots[i] != 0)
        i = (i + 1) & mask;
    slots[i] = node + 1;
}

/* Room for extra more nodes and bytes more arena, the finder at most half
 * full afterwards: 0 or -ENOMEM, the tree's contents unchanged either way. */
static int reserve(pmdaNameSpace *t, uint32_t extra, size_t bytes)
{
    uint64_t need = (uint64_t)t->nnodes + extra;

    if (need >= NONE / 4 || t->slen + bytes >= NONE)
        return -ENOMEM;
    if (need > t->ncap) {
        uint32_t cap = t->ncap * 2 > need ? t->ncap * 2 : (uint32_t)need;
        tnode *n = realloc(t->nodes, (size_t)cap * sizeof(*n));
        if (n == NULL)
            return -ENOMEM;
        t->nodes = n;
        t->ncap = cap;
    }
    if (t->slen + bytes > t->scap) {
        size_t cap = t->scap * 2 > t->slen + bytes ? t->scap * 2 : t->slen + bytes;
        char *s = realloc(t->str, cap);
        if (s == NULL)
            return -ENOMEM;
        t->str = s;
        t->scap = cap;
    }
    if (need * 2 > (uint64_t)t->mask + 1) {
        uint32_t size = (t->mask + 1) * 2;
        while ((uint64_t)size < need * 2)
            size *= 2;
        uint32_t *slots = calloc(size, sizeof(*slots));
        if (slots == NULL)
            return -ENOMEM;
        for (uint32_t k = 1; k < t->nnodes; k++)
            slot_put(slots, size - 1, t->nodes[k].hash, k);
        free(t->slots);
        t->slots = slots;
        t->mask = size - 1;
    }
    return 0;
}

int pmdaTreeCreate(pmdaNameSpace **tree)
{
    pmdaNameSpace *t;

    if (tree == NULL)
        return -EINVAL;
    if ((t = calloc(1, sizeof(*t))) == NULL || (t->nodes = malloc(sizeof(*t->nodes))) == NULL ||
        (t->slots = calloc(16, sizeof(*t->slots))) == NULL) {
        if (t != NULL)
            free(t->nodes);
        free(t);
        return -ENOMEM;
    }
    t->ncap = t->nnodes = 1;
    t->mask = 15;
    t->nodes[0] = (tnode){NONE, NONE, NONE, NONE, NONE, 0, 0, PMNS_ROOT_HASH, PM_ID_NULL};
    *tree = t;
    return 0;
}

void pmdaTreeRelease(pmdaNameSpace *tree)
{
    if (tree == NULL)
        return;
    free(tree->nodes);
    free(tree->str);
    free(tree->slots);
    free(tree->rev);
    free(tree);
}

/* A new child of parent for the component s (n bytes), newest in the list. */
static uint32_t add_node(pmdaNameSpace *t, uint32_t parent, const char *s, size_t n)
{
    uint32_t k = t->nnodes++;
    tnode *p = &t->nodes[parent], *c = &t->nodes[k];

    *c = (tnode){parent,      NONE,
                 NONE,        p->first,
                 NONE,        (uint32_t)t->slen,
                 (uint32_t)n, pmns_hash_step(p->hash, s, n),
                 PM_ID_NULL};
    memcpy(t->str + t->slen, s, n);
    t->slen += n;
    if (p->first != NONE)
        t->nodes[p->first].prev = k;
    else
        p->oldest = k;
    p->first = k;
    slot_put(t->slots, t->mask, c->hash, k);
    return k;
}

int pmdaTreeInsert(pmdaNameSpace *tree, pmID pmid, const char *name)
{
    uint32_t node = 0, extra = 0;
    const char *rest = NULL;

    if (tree == NULL)
        return -EINVAL;
    if (name == NULL)
        return PM_ERR_NAME;
    for (const char *s = name;; s += component_len(s) + 1) { /* check it all first */
        size_t n = component_len(s);
        if (!component_ok(s, n))
            return PM_ERR_NAME;
        if (rest == NULL) {
            if (node != 0 && tree->nodes[node].pmid != PM_ID_NULL)
                return PM_ERR_NAME; /* below a leaf */
            uint32_t c = find_child(tree, node, s, n, pmns_hash_step(tree->nodes[node].hash, s, n));
            if (c == NONE)
                rest = s;
            else
                node = c;
        }
        extra += rest != NULL;
        if (s[n] == '\0')
            break;
    }
    if (pmid == PM_ID_NULL)
        return PM_ERR_PMID;
    if (rest == NULL) /* the name is there: the same leaf is fine */
        return tree->nodes[node].pmid == pmid ? 0 : PM_ERR_PMID;
    if (reserve(tree, extra, strlen(rest)) < 0)
        return -ENOMEM;
    for (const char *s = rest;; s += component_len(s) + 1) {
        node = add_node(tree, node, s, component_len(s));
        if (s[component_len(s)] == '\0')
            break;
    }
    tree->nodes[node].pmid = pmid;
    tree->nleaves++;
    return 0;
}

int pmdaTreeSize(pmdaNameSpace *tree)
{
    return tree == NULL ? 0 : (int)tree->nleaves;
}

int pmdaTreePMID(pmdaNameSpace *tree, const char *name, pmID *pmid)
{
    uint32_t node;

    if (tree == NULL || name == NULL || (node = find_node(tree, name)) == NONE ||
        tree->nodes[node].pmid == PM_ID_NULL)
        return PM_ERR_NAME;
    *pmid = tree->nodes[node].pmid;
    return 0;
}

/* The next node after k in a depth-first walk of the subtree under top
 * (k itself excluded): children oldest first if oldest_first, else newest
 * first.  NONE at the end.  No stack: parent and sibling links suffice. */
static uint32_t walk_next(const pmdaNameSpace *t, uint32_t top, uint32_t k, int oldest_first)
{
    uint32_t down = oldest_first ? t->nodes[k].oldest : t->nodes[k].first;

    if (down != NONE)
        return down;
    for (; k != top; k = t->nodes[k].parent) {
        uint32_t side = oldest_first ? t->nodes[k].prev : t->nodes[k].next;
        if (side != NONE)
            return side;
    }
    return NONE;
}

static int by_pmid_seq(const void *a, const void *b)
{
    const rev_ent *x = a, *y = b;

    if (x->pmid != y->pmid)
        return x->pmid < y->pmid ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void pmdaTreeRebuildHash(pmdaNameSpace *tree, int numpmid)
{
    rev_ent *rev = NULL;
    uint32_t n = 0;

    (void)numpmid; /* the leaves are counted exactly */
    if (tree == NULL)
        return;
    if (tree->nleaves > 0 && (rev = malloc(tree->nleaves * sizeof(*rev))) == NULL) {
        pmNotifyErr(LOG_WARNING,
                    "pmdaTreeRebuildHash: no memory for %u names; PMID to name "
                    "lookups find nothing until the next rebuild",
                    tree->nleaves);
    } else {
        for (uint32_t k = walk_next(tree, 0, 0, 1); k != NONE; k = walk_next(tree, 0, k, 1)) {
            if (tree->nodes[k].pmid != PM_ID_NULL) {
                rev[n] = (rev_ent){tree->nodes[k].pmid, n, k};
                n++;
            }
        }
        if (n > 0)
            qsort(rev, n, sizeof(*rev), by_pmid_seq);
    }
    free(tree->rev);
    tree->rev = rev;
    tree->nrev = n;
}

/* The first reverse index entry for pmid, and how many there are. */
static uint32_t rev_find(const pmdaNameSpace *t, pmID pmid, uint32_t *count)
{
    uint32_t lo = 0, hi = t->nrev, end;

    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (t->rev[mid].pmid < pmid)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (end = lo; end < t->nrev && t->rev[end].pmid == pmid; end++)
        ;
    *count = end - lo;
    return lo;
}

int pmda_tree_has_pmid(const pmdaNameSpace *tree, pmID pmid)
{
    uint32_t count = 0;

    if (tree != NULL)
        rev_find(tree, pmid, &count);
    return count > 0;
}

int pmda_tree_has_name(const pmdaNameSpace *tree, const char *name)
{
    return tree != NULL && name != NULL && find_node(tree, name) != NONE;
}

/* Length of node k's full dotted name (the root's children are top level). */
static size_t full_len(const pmdaNameSpace *t, uint32_t k)
{
    size_t len = 0;

    for (; k != 0; k = t->nodes[k].parent)
        len += t->nodes[k].len + 1;
    return len - 1;
}

/* Write node k's full name, NUL-terminated, ending at buf + full_len. */
static void full_name(const pmdaNameSpace *t, uint32_t k, char *buf)
{
    size_t pos = full_len(t, k);

    buf[pos] = '\0';
    for (; k != 0; k = t->nodes[k].parent) {
        pos -= t->nodes[k].len;
        memcpy(buf + pos, t->str + t->nodes[k].name, t->nodes[k].len);
        if (pos > 0)
            buf[--pos] = '.';
    }
}

/*
 * The list of PCP's name arrays: n pointers followed by the n strings, one
 * malloc'd block the caller releases with one free().  full: node names
 * in full, else their own components.  NULL if memory ran out.
 */
static char **pack(const pmdaNameSpace *t, const uint32_t *nodes, uint32_t n, int full)
{
    size_t bytes = n * sizeof(char *);
    char **list, *p;

    for (uint32_t i = 0; i < n; i++)
        bytes += (full ? full_len(t, nodes[i]) : t->nodes[nodes[i]].len) + 1;
    if ((list = malloc(bytes)) == NULL)
        return NULL;
    p = (char *)(list + n);
    for (uint32_t i = 0; i < n; i++) {
        const tnode *k = &t->nodes[nodes[i]];
        list[i] = p;
        if (full) {
            full_name(t, nodes[i], p);
        } else {
            memcpy(p, t->str + k->name, k->len);
            p[k->len] = '\0';
        }
        p += strlen(p) + 1;
    }
    return list;
}

int pmdaTreeName(pmdaNameSpace *tree, pmID pmid, char ***names)
{
    uint32_t count, first, *nodes;
    char **list;

    if (tree == NULL || names == NULL)
        return PM_ERR_PMID;
    first = rev_find(tree, pmid, &count);
    if (count == 0)
        return PM_ERR_PMID;
    if ((nodes = malloc(count * sizeof(*nodes))) == NULL)
        return -ENOMEM;
    for (uint32_t i = 0; i < count; i++)
        nodes[i] = tree->rev[first + i].node;
    list = pack(tree, nodes, count, 1);
    free(nodes);
    if (list == NULL)
        return -ENOMEM;
    *names = list;
    return (int)count;
}

/* The nodes a children request lists under top, in order: its children,
 * or (traverse) the leaves below it.  The count, or -ENOMEM. */
static int gather(const pmdaNameSpace *t, uint32_t top, int traverse, uint32_t **out)
{
    uint32_t n = 0, cap = 16, *v = malloc(cap * sizeof(*v));

    for (uint32_t k = t->nodes[top].first; k != NONE && v != NULL;
         k = traverse ? walk_next(t, top, k, 0) : t->nodes[k].next) {
        if (traverse && t->nodes[k].pmid == PM_ID_NULL)
            continue;
        if (n == cap) {
            uint32_t *w = cap < NONE / 2 ? realloc(v, 2 * (size_t)cap * sizeof(*v)) : NULL;
            if (w == NULL)
                free(v);
            v = w;
            cap *= 2;
            if (v == NULL)
                break;
        }
        v[n++] = k;
    }
    if (v == NULL || n > INT32_MAX) {
        free(v);
        return -ENOMEM;
    }
    *out = v;
    return (int)n;
}

int pmdaTreeChildren(pmdaNameSpace *tree, const char *name, int traverse, char ***kids, int **sts)
{
    uint32_t top, *nodes;
    int n;
    char **list;
    int *status = NULL;

    if (tree == NULL || name == NULL || kids == NULL || (top = find_node(tree, name)) == NONE)
        return PM_ERR_NAME;
    if (tree->nodes[top].pmid != PM_ID_NULL) { /* a leaf: itself when traversing */
        if (!traverse)
            return 0;
        nodes = &top;
        n = 1;
    } else if ((n = gather(tree, top, traverse, &nodes)) < 0) {
        return n;
    }
    list = pack(tree, nodes, (uint32_t)n, traverse);
    if (list != NULL && sts != NULL && (status = malloc((size_t)n * sizeof(int))) != NULL)
        for (int i = 0; i < n; i++)
            status[i] =
                tree->nodes[nodes[i]].pmid == PM_ID_NULL ? PMNS_NONLEAF_STATUS : PMNS_LEAF_STATUS;
    if (nodes != &top)
        free(nodes);
    if (list == NULL || (sts != NULL && status == NULL)) {
        free(list);
        return -ENOMEM;
    }
    *kids = list;
    if (sts != NULL)
        *sts = status;
    return n;
}
