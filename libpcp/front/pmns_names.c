/*
 * pmns_names.c - a namespace tree from a list of (name, PMID) pairs, as an
 * archive's metadata gives them.
 *
 * The names go into a trie in the order given: each node's children in
 * the reverse of the order they were first named, as PCP's archive
 * namespace holds them (each new child goes first).
 * The trie is then written out as the groups a PMNS file would have (one
 * per non-leaf, "root" first) and handed to the same builder as parsed
 * text (pmns_build), so the tree, the derived metrics grafted under
 * "event" and the image made from it are those of any namespace.
 *
 * A name that cannot join the tree is left out: an empty component, a
 * name below a leaf, a leaf where a subtree already is, or a name given
 * again with another PMID (the first one stays).  Names are not checked
 * against the PMNS grammar: archives hold whatever their agents exported.
 */
#include "pmns_int.h"

#include <pcp/pmapi.h>

#include <stdlib.h>
#include <string.h>

typedef struct tnode {
    uint32_t name, len;   /* in the arena */
    uint32_t pmid;        /* PMNS_NONLEAF for an interior node */
    uint32_t first, next; /* the first child and the next sibling; 0 none */
    uint32_t nkids;
} tnode;

typedef struct trie {
    tnode *n;
    size_t nn, cap;
    pmns_parsed *ps;
} trie;

static int add_str(pmns_parsed *ps, const char *s, size_t len, uint32_t *at)
{
    if (ps->slen + len + 1 > UINT32_MAX ||
        !pmns_grow((void **)&ps->str, &ps->scap, ps->slen + len + 1, 1))
        return PM_ERR_TOOBIG;
    memcpy(ps->str + ps->slen, s, len);
    ps->str[ps->slen + len] = '\0';
    *at = (uint32_t)ps->slen;
    ps->slen += len + 1;
    return 0;
}

/* The child of node p called s (len bytes), or 0. */
static uint32_t find_child(const trie *t, uint32_t p, const char *s, size_t len)
{
    for (uint32_t c = t->n[p].first; c != 0; c = t->n[c].next)
        if (t->n[c].len == len && memcmp(t->ps->str + t->n[c].name, s, len) == 0)
            return c;
    return 0;
}

static int new_child(trie *t, uint32_t p, const char *s, size_t len, uint32_t pmid, uint32_t *out)
{
    tnode *c;
    uint32_t at, name;
    int sts;

    if ((sts = add_str(t->ps, s, len, &name)) < 0)
        return sts;
    if (t->nn >= UINT32_MAX || !pmns_grow((void **)&t->n, &t->cap, t->nn + 1, sizeof(*t->n)))
        return PM_ERR_TOOBIG;
    at = (uint32_t)t->nn++;
    c = &t->n[at];
    memset(c, 0, sizeof(*c));
    c->name = name;
    c->len = (uint32_t)len;
    c->pmid = pmid;
    c->next = t->n[p].first; /* first named, last listed, as in PCP */
    t->n[p].first = at;
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
        if (dot == NULL) {
            if (c != 0)
                return 0; /* named already, as a leaf or a subtree */
            return new_child(t, p, s, len, pmid, &c);
        }
        if (c != 0 && t->n[c].pmid != PMNS_NONLEAF)
            return 0; /* below a leaf */
        if (c == 0 && (sts = new_child(t, p, s, len, PMNS_NONLEAF, &c)) < 0)
            return sts;
        p = c;
        s = dot + 1;
    }
}

/* The full dotted name of node k into the arena (for a group's header). */
static int header_of(trie *t, const uint32_t *parent, uint32_t k, uint32_t *at, uint32_t *len)
{
    size_t total = 0, pos;
    uint32_t start;
    int sts;

    if (k == 0)
        return add_str(t->ps, "root", 4, at) < 0 ? PM_ERR_TOOBIG : (*len = 4, 0);
    for (uint32_t q = k; q != 0; q = parent[q])
        total += t->n[q].len + (total > 0);
    if ((sts = add_str(t->ps, "", total, &start)) < 0)
        return sts;
    pos = total;
    for (uint32_t q = k; q != 0; q = parent[q]) {
        pos -= t->n[q].len;
        memcpy(t->ps->str + start + pos, t->ps->str + t->n[q].name, t->n[q].len);
        if (pos > 0)
            t->ps->str[start + --pos] = '.';
    }
    *at = start;
    *len = (uint32_t)total;
    return 0;
}

/* The hash of a group's header, one component at a time (as the parser
 * makes it). */
static uint32_t path_hash(const char *s, size_t n)
{
    uint32_t h = PMNS_ROOT_HASH;
    const char *dot;

    while ((dot = memchr(s, '.', n)) != NULL) {
        h = pmns_hash_step(h, s, (size_t)(dot - s));
        n -= (size_t)(dot - s) + 1;
        s = dot + 1;
    }
    return pmns_hash_step(h, s, n);
}

/* Every non-leaf as a group of its children. */
static int emit_groups(trie *t)
{
    pmns_parsed *ps = t->ps;
    uint32_t *parent = calloc(t->nn, sizeof(uint32_t));
    int sts = 0;

    if (parent == NULL)
        return PM_ERR_TOOBIG;
    for (uint32_t k = 0; k < t->nn; k++)
        for (uint32_t c = t->n[k].first; c != 0; c = t->n[c].next)
            parent[c] = k;
    for (uint32_t k = 0; k < t->nn && sts == 0; k++) {
        pmns_group *g;
        if (t->n[k].pmid != PMNS_NONLEAF)
            continue;
        if (!pmns_grow((void **)&ps->grps, &ps->grpcap, ps->ngrps + 1, sizeof(*ps->grps)) ||
            !pmns_grow((void **)&ps->ents, &ps->entcap, ps->nents + t->n[k].nkids,
                       sizeof(*ps->ents))) {
            sts = PM_ERR_TOOBIG;
            break;
        }
        g = &ps->grps[ps->ngrps];
        memset(g, 0, sizeof(*g));
        if ((sts = header_of(t, parent, k, &g->path, &g->len)) < 0)
            break;
        g->hash = path_hash(ps->str + g->path, g->len);
        g->first = (uint32_t)ps->nents;
        g->n = t->n[k].nkids;
        g->file = "";
        ps->ngrps++;
        for (uint32_t c = t->n[k].first; c != 0; c = t->n[c].next) {
            pmns_entry *e = &ps->ents[ps->nents++];
            e->name = t->n[c].name;
            e->len = t->n[c].len;
            e->pmid = t->n[c].pmid;
            e->dynamic = false;
        }
    }
    free(parent);
    return sts;
}

int pmns_from_names(const char *const *names, const uint32_t *pmids, size_t n, pmns_tree **out)
{
    pmns_load_opts opts = {0};
    pmns_parsed ps = {0};
    trie t = {NULL, 0, 0, &ps};
    int sts = 0;

    opts.file = "<archive>";
    opts.dupok = 1;
    opts.derived = 1;
    ps.opts = &opts;
    if (!pmns_grow((void **)&t.n, &t.cap, 1, sizeof(*t.n)))
        return PM_ERR_TOOBIG;
    memset(&t.n[0], 0, sizeof(t.n[0]));
    t.n[0].pmid = PMNS_NONLEAF;
    t.nn = 1;
    for (size_t i = 0; i < n && sts == 0; i++)
        sts = insert(&t, names[i], pmids[i]);
    if (sts == 0)
        sts = emit_groups(&t);
    if (sts == 0)
        sts = pmns_build(&ps, out);
    free(t.n);
    free(ps.str);
    free(ps.ents);
    free(ps.grps);
    return sts;
}
