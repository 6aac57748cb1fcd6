/*
 * pmns_names.c - a namespace tree from a list of (name, PMID) pairs, as an
 * archive's metadata gives them.
 *
 * The names go into a trie in the order given, each new child first among
 * its siblings, as PCP's archive namespace holds them (so a node's children
 * list in the reverse of the order they were first named).  The anonymous
 * derived metrics are grafted as every PCP client sees them: "event" last
 * under the root (a leaf of that name becomes their subtree, keeping its
 * PMID), "flags" and "missed" last under it.  The trie is then laid out
 * breadth first, children contiguous, as pmns_build lays out a parsed file,
 * so the image made from it answers the same way.
 *
 * A name that cannot join the tree is left out: an empty component, a
 * name below a leaf, a leaf where a subtree already is, or a name given
 * again (with the same PMID or another; the first stays).  Names are not
 * checked against the PMNS grammar, which has no way to write some of
 * them (a subtree called "root", names with '-'): archives hold whatever
 * their agents exported.  Nothing is reported: no diagnostics.
 */
#include "pmns_int.h"

#include <pcp/pmapi.h>

#include <stdlib.h>
#include <string.h>

typedef struct tnode {
    uint32_t name, len;   /* in the arena */
    uint32_t pmid;        /* PMNS_NONLEAF for an interior node */
    uint32_t flags;       /* PMNS_F_GRAFTED, PMNS_F_WASLEAF */
    uint32_t first, next; /* the first child and the next sibling; 0 none */
    uint32_t nkids;
} tnode;

typedef struct trie {
    tnode *n;
    size_t nn, cap;
    char *str;
    size_t slen, scap;
} trie;

/* len bytes of s and a NUL into the arena. */
static int add_str(trie *t, const char *s, size_t len, uint32_t *at)
{
    if (t->slen + len + 1 > UINT32_MAX ||
        !pmns_grow((void **)&t->str, &t->scap, t->slen + len + 1, 1))
        return PM_ERR_TOOBIG;
    memcpy(t->str + t->slen, s, len);
    t->str[t->slen + len] = '\0';
    *at = (uint32_t)t->slen;
    t->slen += len + 1;
    return 0;
}

/* The child of node p called s (len bytes), or 0. */
static uint32_t find_child(const trie *t, uint32_t p, const char *s, size_t len)
{
    for (uint32_t c = t->n[p].first; c != 0; c = t->n[c].next)
        if (t->n[c].len == len && memcmp(t->str + t->n[c].name, s, len) == 0)
            return c;
    return 0;
}

/* A new child of p: first among its siblings, or (last) after them. */
static int new_child(trie *t, uint32_t p, const char *s, size_t len, uint32_t pmid, int last,
                     uint32_t *out)
{
    tnode *c;
    uint32_t at, name;
    int sts;

    if ((sts = add_str(t, s, len, &name)) < 0)
        return sts;
    if (t->nn >= UINT32_MAX || !pmns_grow((void **)&t->n, &t->cap, t->nn + 1, sizeof(*t->n)))
        return PM_ERR_TOOBIG;
    at = (uint32_t)t->nn++;
    c = &t->n[at];
    memset(c, 0, sizeof(*c));
    c->name = name;
    c->len = (uint32_t)len;
    c->pmid = pmid;
    if (!last || t->n[p].first == 0) {
        c->next = t->n[p].first;
        t->n[p].first = at;
    } else {
        uint32_t k = t->n[p].first;
        while (t->n[k].next != 0)
            k = t->n[k].next;
        t->n[k].next = at;
    }
    t->n[p].nkids++;
    *out = at;
    return 0;
}

/* One name into the trie: 0 (added or left out), or an error. */
static int insert(trie *t, const char *name, uint32_t pmid)
{
    uint32_t p = 0;

    for (const char *s = name;;) {
        const char *dot = strchr(s, '.');
        size_t len = dot != NULL ? (size_t)(dot - s) : strlen(s);
        uint32_t c;
        int sts;
        if (len == 0)
            return 0;
        c = find_child(t, p, s, len);
        if (dot == NULL)
            return c != 0 ? 0 : new_child(t, p, s, len, pmid, 0, &c);
        if (c != 0 && t->n[c].pmid != PMNS_NONLEAF)
            return 0; /* below a leaf */
        if (c == 0 && (sts = new_child(t, p, s, len, PMNS_NONLEAF, 0, &c)) < 0)
            return sts;
        p = c;
        s = dot + 1;
    }
}

/* event.flags and event.missed, as PCP's client library adds them. */
static int graft_derived(trie *t)
{
    uint32_t e = find_child(t, 0, "event", 5), c;
    int sts;

    if (e == 0) {
        if ((sts = new_child(t, 0, "event", 5, PMNS_NONLEAF, 1, &e)) < 0)
            return sts;
        t->n[e].flags = PMNS_F_GRAFTED;
    } else if (t->n[e].pmid != PMNS_NONLEAF) {
        t->n[e].flags = PMNS_F_WASLEAF; /* keeps its PMID */
    }
    for (size_t i = 0; i < PMNS_NDERIVED; i++) {
        const char *leaf = pmns_derived[i].name + sizeof("event.") - 1;
        if (find_child(t, e, leaf, strlen(leaf)) != 0)
            continue;
        if ((sts = new_child(t, e, leaf, strlen(leaf), pmns_derived[i].pmid, 1, &c)) < 0)
            return sts;
        t->n[c].flags = PMNS_F_GRAFTED;
    }
    return 0;
}

/* The trie breadth first into a tree (children contiguous). */
static int lay_out(trie *t, pmns_tree *out)
{
    uint32_t *order = malloc(t->nn * sizeof(uint32_t)), head = 0, tail = 1;

    if (order == NULL || (out->nodes = calloc(t->nn, sizeof(pmns_node))) == NULL) {
        free(order);
        return PM_ERR_TOOBIG;
    }
    order[0] = 0;
    out->nodes[0].parent = PMNS_NONE;
    out->nodes[0].hash = PMNS_ROOT_HASH;
    out->nodes[0].pmid = PM_ID_NULL;
    while (head < tail) {
        uint32_t k = order[head], at = head++;
        pmns_node *nd = &out->nodes[at];
        nd->first = tail;
        nd->nkids = t->n[k].nkids;
        for (uint32_t c = t->n[k].first; c != 0; c = t->n[c].next) {
            pmns_node *cn = &out->nodes[tail];
            const tnode *tc = &t->n[c];
            order[tail++] = c;
            cn->name = tc->name;
            cn->namelen = tc->len;
            cn->parent = at;
            cn->hash = pmns_hash_step(nd->hash, t->str + tc->name, tc->len);
            cn->pmid = tc->pmid;
            cn->flags = tc->flags;
            if (tc->pmid != PMNS_NONLEAF && tc->first == 0) {
                cn->flags |= PMNS_F_LEAF;
                out->nleaves++;
            }
        }
    }
    out->nnodes = tail;
    free(order);
    return 0;
}

int pmns_from_names(const char *const *names, const uint32_t *pmids, size_t n, pmns_tree **out)
{
    trie t = {0};
    pmns_tree *tree = calloc(1, sizeof(*tree));
    int sts = tree == NULL ? PM_ERR_TOOBIG : 0;

    if (sts == 0 && !pmns_grow((void **)&t.n, &t.cap, 1, sizeof(*t.n)))
        sts = PM_ERR_TOOBIG;
    if (sts == 0) {
        memset(&t.n[0], 0, sizeof(t.n[0]));
        t.n[0].pmid = PMNS_NONLEAF;
        t.nn = 1;
    }
    for (size_t i = 0; i < n && sts == 0; i++)
        sts = insert(&t, names[i], pmids[i]);
    if (sts == 0)
        sts = graft_derived(&t);
    if (sts == 0)
        sts = lay_out(&t, tree);
    free(t.n);
    if (sts < 0) {
        free(t.str);
        pmns_free(tree);
        return sts;
    }
    tree->strings = t.str;
    *out = tree;
    return 0;
}
