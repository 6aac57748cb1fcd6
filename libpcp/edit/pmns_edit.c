/*
 * pmns_edit.c - the editable namespace: merged into, cut, and written back
 * as PCP's pmnsmerge, pmnsadd and pmnsdel do (pmns_edit.h).
 *
 * How: nodes live in one array (a node's index is its identity), own
 * names in one arena.  Each node knows its parent, its first and last
 * child and its siblings both ways, so appending a child and unlinking a
 * node are O(1).  A child is found by the hash of its full dotted name
 * (pmns_hash_step: the loader computed it already for every node it read)
 * in one open-addressing table; a parent's children enter the table the
 * first time one of them is looked for, so merging a few names into a
 * large namespace indexes only the parents it touches.  Deleted nodes
 * stay in the array, marked, out of every list.
 *
 * PCP's PMIDs of non-leaves are kept because its merge warnings print
 * them: 0x7fffffff for a non-leaf of a loaded namespace with a leaf below
 * it, PM_ID_NULL for an empty one and for every non-leaf a merge makes on
 * the way to a leaf; a leaf that gains children keeps its PMID (and is
 * written as a non-leaf).
 *
 * Not here: loading and the order of a merge's inputs (pmns_source.c).
 */
#include "pmns_edit.h"
#include "pmns_hash.h"

#include <pcp/pmapi.h>

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define ED_LEAF    1u /* has a PMID of its own: a leaf or a dynamic root */
#define ED_DYNAMIC 2u /* a dynamic subtree root */
#define ED_GONE    4u /* deleted */
#define ED_INDEXED 8u /* its children are in the child table */

#define NONLEAF_PMID 0x7fffffffu /* PCP's PMID of a non-leaf with a leaf below it */
#define MAX_NODES    0x7ffffff0u

typedef struct ed_node {
    uint32_t name, namelen; /* own name in the arena */
    uint32_t parent;        /* PMNS_NONE for the root */
    uint32_t first, last;   /* children, PMNS_NONE when none */
    uint32_t next, prev;    /* siblings */
    uint32_t hash;          /* pmns_hash_step of the full dotted name */
    uint32_t pmid;
    uint32_t flags; /* ED_* */
} ed_node;

struct pmns_ed {
    ed_node *nodes;
    uint32_t n, cap;
    char *str; /* the names */
    size_t slen, scap;
    uint32_t *slots; /* the child table: node + 1, 0 for an empty slot */
    uint32_t mask;   /* slots - 1; 0 while there is no table */
    uint32_t used;
};

/* ---------------------------------------------------------------- */
/* The tree. */

int pmns_ed_new(pmns_tree *t, pmns_ed **out)
{
    pmns_ed *e = calloc(1, sizeof(*e));
    uint32_t n = t->nnodes;

    *out = NULL;
    if (e == NULL || n == 0 || n > MAX_NODES ||
        (e->nodes = malloc((size_t)n * sizeof(*e->nodes))) == NULL) {
        free(e);
        pmns_free(t);
        return -ENOMEM;
    }
    e->n = e->cap = n;
    e->slen = 1;
    for (uint32_t i = 0; i < n; i++) {
        const pmns_node *s = &t->nodes[i];
        ed_node *d = &e->nodes[i];
        d->name = s->name;
        d->namelen = s->namelen;
        d->parent = s->parent;
        d->hash = s->hash;
        d->pmid = s->flags & PMNS_F_LEAF ? s->pmid : PM_ID_NULL;
        d->flags =
            (s->flags & PMNS_F_LEAF ? ED_LEAF : 0) | (s->flags & PMNS_F_DYNAMIC ? ED_DYNAMIC : 0);
        d->first = s->nkids ? s->first : PMNS_NONE;
        d->last = s->nkids ? s->first + s->nkids - 1 : PMNS_NONE;
        for (uint32_t c = s->first; c < s->first + s->nkids; c++) {
            e->nodes[c].prev = c > s->first ? c - 1 : PMNS_NONE;
            e->nodes[c].next = c + 1 < s->first + s->nkids ? c + 1 : PMNS_NONE;
        }
        if ((size_t)s->name + s->namelen + 1 > e->slen)
            e->slen = (size_t)s->name + s->namelen + 1;
    }
    e->nodes[0].prev = e->nodes[0].next = PMNS_NONE;
    /* children come after their parents: one backward pass marks every
     * non-leaf with a leaf below it */
    for (uint32_t i = n; i-- > 1;) {
        const ed_node *d = &e->nodes[i];
        if ((d->flags & ED_LEAF) || d->pmid == NONLEAF_PMID)
            e->nodes[d->parent].pmid = NONLEAF_PMID;
    }
    e->str = t->strings; /* the arena is taken over, names keep their offsets */
    e->scap = e->slen;
    t->strings = NULL;
    pmns_free(t);
    if (e->str == NULL && (e->str = calloc(1, 1)) == NULL) {
        pmns_ed_free(e);
        return -ENOMEM;
    }
    *out = e;
    return 0;
}

void pmns_ed_free(pmns_ed *e)
{
    if (e == NULL)
        return;
    free(e->nodes);
    free(e->str);
    free(e->slots);
    free(e);
}

static bool is_group(const ed_node *d)
{
    return d->first != PMNS_NONE || !(d->flags & ED_LEAF);
}

/* ---------------------------------------------------------------- */
/* Finding and adding children. */

static void table_put(pmns_ed *e, uint32_t c)
{
    uint32_t h = e->nodes[c].hash & e->mask;

    while (e->slots[h] != 0)
        h = (h + 1) & e->mask;
    e->slots[h] = c + 1;
    e->used++;
}

/* Room in the child table for more entries (load at most one half). */
static bool table_room(pmns_ed *e, uint32_t more)
{
    uint64_t want = (uint64_t)e->used + more, size = e->mask ? (uint64_t)e->mask + 1 : 0;
    uint32_t *old = e->slots, oldmask = e->mask;

    if (size != 0 && want * 2 <= size)
        return true;
    if (size == 0)
        size = 1024;
    while (want * 2 > size)
        size *= 2;
    if (size > ((uint64_t)1 << 31) || (e->slots = calloc(size, sizeof(*e->slots))) == NULL) {
        e->slots = old;
        return false;
    }
    e->mask = (uint32_t)(size - 1);
    e->used = 0;
    if (old != NULL)
        for (uint32_t i = 0; i <= oldmask; i++)
            if (old[i] != 0)
                table_put(e, old[i] - 1);
    free(old);
    return true;
}

/* Put the children of p in the table; false if memory ran out. */
static bool index_children(pmns_ed *e, uint32_t p)
{
    uint32_t k = 0;

    for (uint32_t c = e->nodes[p].first; c != PMNS_NONE; c = e->nodes[c].next)
        k++;
    if (!table_room(e, k))
        return false;
    for (uint32_t c = e->nodes[p].first; c != PMNS_NONE; c = e->nodes[c].next)
        table_put(e, c);
    e->nodes[p].flags |= ED_INDEXED;
    return true;
}

static bool same_name(const pmns_ed *e, uint32_t c, const char *s, uint32_t len)
{
    const ed_node *d = &e->nodes[c];

    return d->namelen == len && memcmp(e->str + d->name, s, len) == 0;
}

/* The live child of p called s[0..len), h its full name's hash, or
 * PMNS_NONE. */
static uint32_t find_child(pmns_ed *e, uint32_t p, const char *s, uint32_t len, uint32_t h)
{
    if (!(e->nodes[p].flags & ED_INDEXED) && !index_children(e, p)) {
        /* no memory for the table: look along the list */
        for (uint32_t c = e->nodes[p].first; c != PMNS_NONE; c = e->nodes[c].next)
            if (same_name(e, c, s, len))
                return c;
        return PMNS_NONE;
    }
    for (uint32_t i = h & e->mask; e->slots[i] != 0; i = (i + 1) & e->mask) {
        uint32_t c = e->slots[i] - 1;
        const ed_node *d = &e->nodes[c];
        if (d->hash == h && d->parent == p && !(d->flags & ED_GONE) && same_name(e, c, s, len))
            return c;
    }
    return PMNS_NONE;
}

/* A new last child of p: its index, or PMNS_NONE if memory ran out. */
static uint32_t add_node(pmns_ed *e, uint32_t p, const char *s, uint32_t len, uint32_t h,
                         uint32_t pmid, uint32_t flags)
{
    ed_node *d;
    uint32_t c = e->n;

    if (c == e->cap) {
        uint32_t cap = e->cap < MAX_NODES / 2 ? e->cap * 2 : MAX_NODES;
        ed_node *nodes = cap > e->cap ? realloc(e->nodes, (size_t)cap * sizeof(*nodes)) : NULL;
        if (nodes == NULL)
            return PMNS_NONE;
        e->nodes = nodes;
        e->cap = cap;
    }
    if (e->slen + len + 1 > e->scap) {
        size_t cap = e->scap * 2 + len + 64;
        char *str = cap <= UINT32_MAX ? realloc(e->str, cap) : NULL;
        if (str == NULL)
            return PMNS_NONE;
        e->str = str;
        e->scap = cap;
    }
    if ((e->nodes[p].flags & ED_INDEXED) && !table_room(e, 1))
        return PMNS_NONE;
    memcpy(e->str + e->slen, s, len);
    e->str[e->slen + len] = '\0';
    d = &e->nodes[c];
    d->name = (uint32_t)e->slen;
    d->namelen = len;
    e->slen += len + 1;
    d->parent = p;
    d->first = d->last = d->next = PMNS_NONE;
    d->prev = e->nodes[p].last;
    d->hash = h;
    d->pmid = pmid;
    d->flags = flags;
    if (d->prev != PMNS_NONE)
        e->nodes[d->prev].next = c;
    else
        e->nodes[p].first = c;
    e->nodes[p].last = c;
    e->n++;
    if (e->nodes[p].flags & ED_INDEXED)
        table_put(e, c);
    return c;
}

/* ---------------------------------------------------------------- */
/* Merge. */

typedef struct merge {
    pmns_ed *e;
    const pmns_tree *t;
    uint32_t *map;   /* t's node -> e's node, PMNS_NONE until needed */
    uint8_t *shown;  /* t's node has a leaf below it (or is one) */
    uint32_t *chain; /* scratch for resolve */
    size_t chaincap;
    char *name; /* scratch for full names */
    size_t namecap;
    pmns_ed_conflict_fn fn;
    void *ctx;
} merge;

/* e's node for t's non-leaf q, made (with the non-leaves on its way) if
 * it is not there yet; PMNS_NONE if memory ran out. */
static uint32_t resolve(merge *m, uint32_t q)
{
    const pmns_tree *t = m->t;
    size_t sp = 0;
    uint32_t at;

    while (m->map[q] == PMNS_NONE) {
        if (sp == m->chaincap) {
            size_t cap = m->chaincap ? m->chaincap * 2 : 32;
            uint32_t *c = realloc(m->chain, cap * sizeof(*c));
            if (c == NULL)
                return PMNS_NONE;
            m->chain = c;
            m->chaincap = cap;
        }
        m->chain[sp++] = q;
        q = t->nodes[q].parent;
    }
    at = m->map[q];
    while (sp > 0) {
        const pmns_node *s = &t->nodes[q = m->chain[--sp]];
        const char *nm = t->strings + s->name;
        uint32_t c = find_child(m->e, at, nm, s->namelen, s->hash);
        if (c == PMNS_NONE &&
            (c = add_node(m->e, at, nm, s->namelen, s->hash, PM_ID_NULL, 0)) == PMNS_NONE)
            return PMNS_NONE;
        m->map[q] = at = c;
    }
    return at;
}

static int conflict(merge *m, uint32_t c, uint32_t kept, uint32_t ignored)
{
    size_t len = pmns_name(m->t, c, m->name, m->namecap);

    if (len + 1 > m->namecap) {
        char *b = realloc(m->name, len + 1);
        if (b == NULL)
            return -ENOMEM;
        m->name = b;
        m->namecap = len + 1;
        pmns_name(m->t, c, m->name, m->namecap);
    }
    m->fn(m->ctx, m->name, kept, ignored);
    return 0;
}

/* Leaf c of t into e. */
static int merge_leaf(merge *m, uint32_t c)
{
    const pmns_node *s = &m->t->nodes[c];
    const char *nm = m->t->strings + s->name;
    uint32_t p = resolve(m, s->parent), x;

    if (p == PMNS_NONE)
        return -ENOMEM;
    if ((x = find_child(m->e, p, nm, s->namelen, s->hash)) != PMNS_NONE) {
        if (m->e->nodes[x].pmid != s->pmid && m->fn != NULL)
            return conflict(m, c, m->e->nodes[x].pmid, s->pmid);
        return 0;
    }
    if (add_node(m->e, p, nm, s->namelen, s->hash, s->pmid,
                 ED_LEAF | (s->flags & PMNS_F_DYNAMIC ? ED_DYNAMIC : 0)) == PMNS_NONE)
        return -ENOMEM;
    return 0;
}

/* The leaves among n's children, in order. */
static int merge_leaves(merge *m, uint32_t n)
{
    const pmns_node *nd = &m->t->nodes[n];
    int sts = 0;

    for (uint32_t c = nd->first; c < nd->first + nd->nkids && sts == 0; c++)
        if (m->t->nodes[c].flags & PMNS_F_LEAF)
            sts = merge_leaf(m, c);
    return sts;
}

/* PCP's order: a non-leaf's leaves, then its non-leaves one by one, depth
 * first (an explicit stack: a namespace may be deep). */
static int merge_walk(merge *m)
{
    typedef struct {
        uint32_t node, k;
    } frame;
    const pmns_tree *t = m->t;
    frame *stack = NULL;
    size_t sp = 0, cap = 0;
    int sts = merge_leaves(m, 0);

    if (sts == 0 && (stack = malloc((cap = 64) * sizeof(*stack))) == NULL)
        sts = -ENOMEM;
    if (sts == 0)
        stack[sp++] = (frame){0, 0};
    while (sts == 0 && sp > 0) {
        frame *f = &stack[sp - 1];
        const pmns_node *nd = &t->nodes[f->node];
        uint32_t c;
        if (f->k >= nd->nkids) {
            sp--;
            continue;
        }
        c = nd->first + f->k++;
        if ((t->nodes[c].flags & PMNS_F_LEAF) || !m->shown[c])
            continue;
        if (sp == cap) {
            frame *s = realloc(stack, (cap *= 2) * sizeof(*s));
            if (s == NULL) {
                sts = -ENOMEM;
                break;
            }
            stack = s;
        }
        stack[sp++] = (frame){c, 0};
        sts = merge_leaves(m, c);
    }
    free(stack);
    return sts;
}

int pmns_ed_merge(pmns_ed *e, const pmns_tree *t, pmns_ed_conflict_fn fn, void *ctx)
{
    merge m = {e, t, NULL, NULL, NULL, 0, NULL, 0, fn, ctx};
    int sts = 0;

    if (t->nnodes == 0)
        return 0;
    m.map = malloc((size_t)t->nnodes * sizeof(*m.map));
    m.shown = calloc(t->nnodes, 1);
    if (m.map == NULL || m.shown == NULL) {
        sts = -ENOMEM;
    } else {
        memset(m.map, 0xff, (size_t)t->nnodes * sizeof(*m.map));
        m.map[0] = 0;
        for (uint32_t i = t->nnodes; i-- > 1;)
            if ((t->nodes[i].flags & PMNS_F_LEAF) || m.shown[i])
                m.shown[t->nodes[i].parent] = 1;
        sts = merge_walk(&m);
    }
    free(m.map);
    free(m.shown);
    free(m.chain);
    free(m.name);
    return sts;
}

/* ---------------------------------------------------------------- */
/* Delete. */

static void unlink_node(pmns_ed *e, uint32_t c)
{
    ed_node *d = &e->nodes[c];
    ed_node *p = &e->nodes[d->parent];

    if (d->prev != PMNS_NONE)
        e->nodes[d->prev].next = d->next;
    else
        p->first = d->next;
    if (d->next != PMNS_NONE)
        e->nodes[d->next].prev = d->prev;
    else
        p->last = d->prev;
    d->flags |= ED_GONE;
}

int pmns_ed_delete(pmns_ed *e, const char *name)
{
    uint32_t at = 0, h = PMNS_ROOT_HASH;
    const char *s = name;

    for (;;) {
        const char *dot = strchr(s, '.');
        size_t len = dot != NULL ? (size_t)(dot - s) : strlen(s);
        if (len == 0 || len > UINT32_MAX)
            return -ENOENT;
        h = pmns_hash_step(h, s, len);
        if ((at = find_child(e, at, s, (uint32_t)len, h)) == PMNS_NONE)
            return -ENOENT;
        if (dot == NULL)
            break;
        s = dot + 1;
    }
    for (;;) {
        uint32_t p = e->nodes[at].parent;
        unlink_node(e, at);
        if (p == 0 || e->nodes[p].first != PMNS_NONE)
            return 0;
        at = p; /* left without children: goes too */
    }
}

/* ---------------------------------------------------------------- */
/* Writing. */

size_t pmns_pmid_text(uint32_t pmid, char *buf)
{
    uint32_t d = pmid >> 22 & 0x1ff, c = pmid >> 10 & 0xfff, i = pmid & 0x3ff;

    if (d == 511 && i == 0)
        return (size_t)snprintf(buf, 24, "%u:*:*", c);
    return (size_t)snprintf(buf, 24, "%u:%u:%u", d, c, i);
}

/* Output through a buffer of our own (a line costs a few copies, not a
 * formatted print). */
typedef struct writer {
    FILE *fp;
    size_t n;
    int err;
    char buf[1 << 16];
} writer;

static void flush(writer *w)
{
    if (w->n > 0 && w->err == 0 && fwrite(w->buf, 1, w->n, w->fp) != w->n)
        w->err = errno != 0 ? -errno : -EIO;
    w->n = 0;
}

static void put(writer *w, const char *s, size_t n)
{
    while (n > 0) {
        size_t k = sizeof(w->buf) - w->n;
        if (k == 0) {
            flush(w);
            k = sizeof(w->buf);
        }
        if (k > n)
            k = n;
        memcpy(w->buf + w->n, s, k);
        w->n += k;
        s += k;
        n -= k;
    }
}

/* A PMID field (at most 4095) and a separator: PMIDs are most of the
 * output, so no printf and no loop. */
static char *num(char *p, uint32_t v, char sep)
{
    if (v >= 1000)
        *p++ = (char)('0' + v / 1000);
    if (v >= 100)
        *p++ = (char)('0' + v / 100 % 10);
    if (v >= 10)
        *p++ = (char)('0' + v / 10 % 10);
    *p++ = (char)('0' + v % 10);
    *p++ = sep;
    return p;
}

/* Room for n more bytes in the buffer (n at most its size): where they go. */
static char *room(writer *w, size_t n)
{
    if (w->n + n > sizeof(w->buf))
        flush(w);
    return w->buf + w->n;
}

/* One child's line: TAB name, then TAB and the PMID for a leaf. */
static void child_line(writer *w, const pmns_ed *e, const ed_node *d)
{
    char *p;

    if (d->namelen > sizeof(w->buf) - 32) { /* a name longer than the buffer */
        put(w, "\t", 1);
        put(w, e->str + d->name, d->namelen);
        p = room(w, 32);
    } else {
        p = room(w, d->namelen + 32);
        *p++ = '\t';
        memcpy(p, e->str + d->name, d->namelen);
        p += d->namelen;
    }
    if (is_group(d)) {
        *p++ = '\n';
    } else if ((d->pmid >> 22 & 0x1ff) == 511 && (d->pmid & 0x3ff) == 0) {
        *p++ = '\t';
        p = num(p, d->pmid >> 10 & 0xfff, ':');
        memcpy(p, "*:*\n", 4);
        p += 4;
    } else {
        *p++ = '\t';
        p = num(p, d->pmid >> 22 & 0x1ff, ':');
        p = num(p, d->pmid >> 10 & 0xfff, ':');
        p = num(p, d->pmid & 0x3ff, '\n');
    }
    w->n = (size_t)(p - w->buf);
}

/* "path {", the children, "}". */
static void group(writer *w, const pmns_ed *e, uint32_t x, const char *path, size_t plen)
{
    if (plen == 0)
        put(w, "root {\n", 7);
    else {
        put(w, path, plen);
        put(w, " {\n", 3);
    }
    for (uint32_t c = e->nodes[x].first; c != PMNS_NONE; c = e->nodes[c].next)
        child_line(w, e, &e->nodes[c]);
    put(w, "}\n", 2);
}

/* Groups depth first; the stack holds each level's next child and the
 * length of its path. */
static int write_groups(writer *w, const pmns_ed *e)
{
    typedef struct {
        uint32_t next;
        size_t plen;
    } frame;
    frame *stack = malloc(64 * sizeof(*stack));
    size_t sp = 0, cap = 64, pcap = 256;
    char *path = malloc(pcap);
    int sts = 0;

    if (stack == NULL || path == NULL) {
        free(stack);
        free(path);
        return -ENOMEM;
    }
    group(w, e, 0, "", 0);
    stack[sp++] = (frame){e->nodes[0].first, 0};
    while (sp > 0 && w->err == 0) {
        frame *f = &stack[sp - 1];
        uint32_t c = f->next;
        while (c != PMNS_NONE && !is_group(&e->nodes[c]))
            c = e->nodes[c].next;
        if (c == PMNS_NONE) {
            sp--;
            continue;
        }
        f->next = e->nodes[c].next;
        const ed_node *d = &e->nodes[c];
        size_t plen = f->plen + (f->plen > 0) + d->namelen;
        if (plen + 1 > pcap || sp == cap) {
            char *np = plen + 1 > pcap ? realloc(path, pcap = 2 * plen + 1) : path;
            frame *ns = sp == cap ? realloc(stack, (cap *= 2) * sizeof(*ns)) : stack;
            if (np != NULL)
                path = np;
            if (ns != NULL)
                stack = ns;
            if (np == NULL || ns == NULL) {
                sts = -ENOMEM;
                break;
            }
            f = &stack[sp - 1];
        }
        if (f->plen > 0)
            path[f->plen] = '.';
        memcpy(path + plen - d->namelen, e->str + d->name, d->namelen);
        put(w, "\n", 1);
        group(w, e, c, path, plen);
        stack[sp++] = (frame){d->first, plen};
    }
    free(stack);
    free(path);
    return sts;
}

int pmns_ed_write(const pmns_ed *e, FILE *fp)
{
    writer *w = malloc(sizeof(*w));
    int sts;

    if (w == NULL)
        return -ENOMEM;
    w->fp = fp;
    w->n = 0;
    w->err = 0;
    errno = 0;
    sts = write_groups(w, e);
    flush(w);
    if (sts == 0)
        sts = w->err;
    free(w);
    return sts;
}

int pmns_ed_text(const pmns_ed *e, char **text, size_t *len)
{
    FILE *fp = open_memstream(text, len);
    int sts;

    if (fp == NULL)
        return -ENOMEM;
    sts = pmns_ed_write(e, fp);
    if (fclose(fp) != 0 && sts == 0)
        sts = -ENOMEM;
    if (sts < 0) {
        free(*text);
        *text = NULL;
        *len = 0;
    }
    return sts;
}
