/*
 * pmns_build.c - parsed groups to the namespace tree.
 *
 * The tree is built breadth first from the group named "root": each node's
 * children are appended together (in file order), a non-leaf child takes
 * the most recently defined group whose header is its full dotted name.
 * PCP's checks follow: exactly one root, every non-leaf defined, no group
 * left over, and (without dupok) no PMID shared by two leaves.  All of
 * them are reported, not only the first.
 *
 * Then, without dupok, the duplicate PMIDs, found in pre-order as PCP
 * reports them.
 *
 * Not here: the indexes lookups use and which nodes are hidden; the
 * image writer (libpcp/format, pmns_tree_image) works them out.
 */
#include "pmns_int.h"

#include <pcp/pmapi.h>

#include <stdlib.h>
#include <string.h>

static uint32_t mix_pmid(uint32_t pmid)
{
    uint32_t h = pmid * 0x9e3779b1u;
    return h ^ (h >> 16);
}

/* Index groups by header hash; a later group with the same header wins. */
static uint32_t *index_groups(const pmns_parsed *ps, uint32_t *mask)
{
    size_t cap = 16;
    uint32_t *tab;

    while (cap < ps->ngrps * 2)
        cap *= 2;
    if ((tab = calloc(cap, sizeof(*tab))) == NULL)
        return NULL;
    for (size_t g = 0; g < ps->ngrps; g++) {
        const pmns_group *gr = &ps->grps[g];
        size_t h = gr->hash & (cap - 1);
        for (; tab[h] != 0; h = (h + 1) & (cap - 1)) {
            const pmns_group *o = &ps->grps[tab[h] - 1];
            if (o->len == gr->len && memcmp(ps->str + o->path, ps->str + gr->path, gr->len) == 0)
                break; /* same header: replaced by the later one */
        }
        tab[h] = (uint32_t)g + 1;
    }
    *mask = (uint32_t)cap - 1;
    return tab;
}

size_t pmns_name(const pmns_tree *t, uint32_t n, char *buf, size_t cap)
{
    size_t len = 0, pos;

    for (uint32_t k = n; k != 0; k = t->nodes[k].parent)
        len += t->nodes[k].namelen + (len > 0);
    pos = len;
    if (cap > 0)
        buf[len < cap ? len : cap - 1] = '\0';
    for (uint32_t k = n; k != 0; k = t->nodes[k].parent) {
        const pmns_node *nd = &t->nodes[k];
        pos -= nd->namelen;
        for (uint32_t i = 0; i < nd->namelen; i++)
            if (pos + i + 1 < cap)
                buf[pos + i] = t->strings[nd->name + i];
        if (pos > 0) {
            pos--;
            if (pos + 1 < cap)
                buf[pos] = '.';
        }
    }
    return len;
}

typedef struct builder {
    uint32_t event, flags, missed; /* derived names in the string arena, or PMNS_NONE */
    pmns_parsed *ps;
    pmns_tree *t;
    size_t ncap;
    uint32_t *groups; /* group index */
    uint32_t gmask;
    char *path; /* scratch for full names */
    size_t pathcap;
} builder;

/* The full name of node n, in the builder's scratch buffer. */
static const char *path_of(builder *b, uint32_t n)
{
    size_t len = pmns_name(b->t, n, b->path, b->pathcap);

    if (len + 1 > b->pathcap) {
        char *p = realloc(b->path, len + 1);
        if (p == NULL)
            return "";
        b->path = p;
        b->pathcap = len + 1;
        pmns_name(b->t, n, b->path, b->pathcap);
    }
    return b->path;
}

/* Whether node n's full name is path[0..len), compared one component at a
 * time from the last, with no copy of the name. */
static bool name_is(const pmns_tree *t, uint32_t n, const char *path, size_t len)
{
    for (; n != 0; n = t->nodes[n].parent) {
        const pmns_node *nd = &t->nodes[n];
        if (nd->namelen > len ||
            memcmp(path + len - nd->namelen, t->strings + nd->name, nd->namelen) != 0)
            return false;
        len -= nd->namelen;
        if (nd->parent != 0) {
            if (len == 0 || path[len - 1] != '.')
                return false;
            len--;
        }
    }
    return len == 0;
}

/* The group defining non-leaf node n, or NULL. */
static pmns_group *group_for(builder *b, uint32_t n)
{
    const pmns_node *nd = &b->t->nodes[n];

    for (size_t h = nd->hash & b->gmask; b->groups[h] != 0; h = (h + 1) & b->gmask) {
        pmns_group *g = &b->ps->grps[b->groups[h] - 1];
        if (g->hash == nd->hash && name_is(b->t, n, b->ps->str + g->path, g->len))
            return g;
    }
    return NULL;
}

/* Append a node below n (the caller keeps n's children contiguous). */
static pmns_node *new_node(builder *b, uint32_t n, uint32_t name, uint32_t len, uint32_t pmid)
{
    pmns_tree *t = b->t;
    pmns_node *c;

    if (t->nnodes == b->ncap &&
        !pmns_grow((void **)&t->nodes, &b->ncap, t->nnodes + 1, sizeof(*t->nodes)))
        return NULL;
    c = &t->nodes[t->nnodes++];
    c->name = name;
    c->namelen = len;
    c->parent = n;
    c->first = c->nkids = 0;
    c->hash = pmid == PMNS_NONLEAF || !b->ps->opts->image_only
                  ? pmns_hash_step(t->nodes[n].hash, t->strings + name, len)
                  : 0; /* group_for asks only a non-leaf's */
    c->pmid = pmid;
    c->flags = pmid == PMNS_NONLEAF ? 0 : PMNS_F_LEAF;
    if (c->flags & PMNS_F_LEAF)
        t->nleaves++;
    return c;
}

/* The child of n called name, or PMNS_NONE. */
static uint32_t child_named(const pmns_tree *t, uint32_t n, const char *name)
{
    size_t len = strlen(name);

    for (uint32_t k = 0; k < t->nodes[n].nkids; k++) {
        const pmns_node *c = &t->nodes[t->nodes[n].first + k];
        if (c->namelen == len && memcmp(t->strings + c->name, name, len) == 0)
            return t->nodes[n].first + k;
    }
    return PMNS_NONE;
}

/* Derived metrics, as PCP's client library registers them: "event" under
 * the root (a leaf of that name becomes the subtree), "flags" and "missed"
 * appended to it unless it has them. */
static int graft_event_root(builder *b)
{
    uint32_t e = child_named(b->t, 0, "event");

    if (e == PMNS_NONE) {
        pmns_node *c = new_node(b, 0, b->event, 5, PMNS_NONLEAF);
        if (c == NULL)
            return PM_ERR_TOOBIG;
        c->flags |= PMNS_F_GRAFTED;
        b->t->nodes[0].nkids++;
    } else if (b->t->nodes[e].flags & PMNS_F_LEAF) {
        /* it keeps its PMID (and a dynamic root its subtree's names) */
        b->t->nodes[e].hash = pmns_hash_step(PMNS_ROOT_HASH, "event", 5);
        b->t->nodes[e].flags = PMNS_F_WASLEAF | (b->t->nodes[e].flags & PMNS_F_DYNAMIC);
        b->t->nleaves--;
    }
    return 0;
}

const pmns_derived_metric pmns_derived[PMNS_NDERIVED] = {
    {"event.flags", (511u << 22) | 1, "Flags for an event record",
     "The flags word of each event record."},
    {"event.missed", (511u << 22) | 2, "Count of missed event records",
     "How many event records were lost before this one."},
};

static int graft_event_leaves(builder *b, uint32_t n)
{
    if (b->t->nodes[n].nkids == 0)
        b->t->nodes[n].first = b->t->nnodes;
    for (size_t i = 0; i < PMNS_NDERIVED; i++) {
        const char *leaf = pmns_derived[i].name + sizeof("event.") - 1;
        if (child_named(b->t, n, leaf) != PMNS_NONE)
            continue;
        pmns_node *c = new_node(b, n, i == 0 ? b->flags : b->missed, (uint32_t)strlen(leaf),
                                pmns_derived[i].pmid);
        if (c == NULL)
            return PM_ERR_TOOBIG;
        c->flags |= PMNS_F_GRAFTED;
        b->t->nodes[n].nkids++;
    }
    return 0;
}

static bool is_event_node(const builder *b, uint32_t n)
{
    const pmns_node *nd = &b->t->nodes[n];

    return b->event != PMNS_NONE && nd->parent == 0 && nd->namelen == 5 &&
           memcmp(b->t->strings + nd->name, "event", 5) == 0;
}

/* Append the children of node n from group g. */
static int add_children(builder *b, uint32_t n, pmns_group *g)
{
    pmns_tree *t = b->t;

    g->attached = true;
    /* one grow for the group, so new_node below cannot fail */
    if (!pmns_grow((void **)&t->nodes, &b->ncap, t->nnodes + g->n, sizeof(*t->nodes)))
        return PM_ERR_TOOBIG;
    t->nodes[n].first = t->nnodes;
    t->nodes[n].nkids = g->n;
    /* new_node's work, in a loop of its own: only non-leaves hashed with
     * image_only */
    const pmns_entry *e = &b->ps->ents[g->first];
    pmns_node *c = &t->nodes[t->nnodes];
    uint32_t hash = t->nodes[n].hash, leaves = 0;
    bool all = !b->ps->opts->image_only;
    for (uint32_t k = 0; k < g->n; k++, e++, c++) {
        c->name = e->name;
        c->namelen = e->len;
        c->parent = n;
        c->first = c->nkids = 0;
        c->pmid = e->pmid;
        if (e->pmid == PMNS_NONLEAF) {
            c->hash = pmns_hash_step(hash, t->strings + e->name, e->len);
            c->flags = 0;
            continue;
        }
        c->hash = all ? pmns_hash_step(hash, t->strings + e->name, e->len) : 0;
        c->flags = e->dynamic ? PMNS_F_LEAF | PMNS_F_DYNAMIC : PMNS_F_LEAF;
        leaves++;
    }
    t->nnodes += g->n;
    t->nleaves += leaves;
    return 0;
}

/* Breadth first from root; report undefined non-leaves. */
static int attach(builder *b, pmns_group *root)
{
    pmns_tree *t = b->t;
    int sts;

    /* every child line becomes a node at most once (a group is attached
     * once), besides the root and the derived metrics' grafts */
    if (!pmns_reserve((void **)&t->nodes, &b->ncap, b->ps->nents + 2 + PMNS_NDERIVED,
                      sizeof(*t->nodes)))
        return PM_ERR_TOOBIG;
    memset(&t->nodes[0], 0, sizeof(t->nodes[0]));
    t->nodes[0].parent = PMNS_NONE;
    t->nodes[0].hash = PMNS_ROOT_HASH;
    t->nodes[0].pmid = PM_ID_NULL;
    t->nnodes = 1;
    if ((sts = add_children(b, 0, root)) < 0)
        return sts;
    if (b->event != PMNS_NONE && (sts = graft_event_root(b)) < 0)
        return sts;
    for (uint32_t n = 1; n < t->nnodes; n++) {
        pmns_group *g;
        if (t->nodes[n].flags & PMNS_F_LEAF)
            continue;
        g = group_for(b, n);
        if (is_event_node(b, n)) {
            if (g != NULL && (sts = add_children(b, n, g)) < 0)
                return sts;
            if ((sts = graft_event_leaves(b, n)) < 0)
                return sts;
            continue;
        }
        if (g == NULL || g == root || g->attached) { /* (attached: a cycle through a
                                                      * duplicated header) */
            pmns_error(b->ps, g == NULL ? b->ps->opts->file : g->file, g == NULL ? 0 : g->line, 0,
                       NULL, 0,
                       "Error Parsing ASCII PMNS: Cannot find definition for non-terminal node "
                       "\"%s\" in name space",
                       path_of(b, n));
            if (b->ps->pcp)
                return PM_ERR_PMNS; /* PCP stops at the first */
            continue;
        }
        if ((sts = add_children(b, n, g)) < 0)
            return sts;
    }
    return 0;
}

/* Without dupok, no two leaves may share a PMID: leaves in pre-order, each
 * PMID's last leaf in a table; every repeat is reported with the leaf seen
 * last before it.  Dynamic roots may repeat. */
static int check_duplicates(builder *b)
{
    pmns_tree *t = b->t;
    size_t cap = 16, mask, sp = 0, stcap = 0;
    uint32_t *last, *stack = NULL;
    int sts = 0;

    while (cap < (size_t)t->nleaves * 2)
        cap *= 2;
    mask = cap - 1;
    if ((last = calloc(cap, sizeof(*last))) == NULL ||
        !pmns_grow((void **)&stack, &stcap, 1, sizeof(*stack))) {
        free(last);
        return PM_ERR_TOOBIG;
    }
    stack[sp++] = 0;
    while (sp > 0) {
        uint32_t n = stack[--sp];
        pmns_node *nd = &t->nodes[n];
        if (!(nd->flags & PMNS_F_LEAF)) { /* push children so the first pops first */
            if (!pmns_grow((void **)&stack, &stcap, sp + nd->nkids, sizeof(*stack))) {
                sts = PM_ERR_TOOBIG;
                break;
            }
            for (uint32_t k = nd->nkids; k-- > 0;)
                stack[sp++] = nd->first + k;
            if (!(nd->flags & PMNS_F_WASLEAF))
                continue;
        }
        if (nd->flags & PMNS_F_DYNAMIC)
            continue;
        size_t h = mix_pmid(nd->pmid) & mask;
        for (; last[h] != 0; h = (h + 1) & mask)
            if (t->nodes[last[h] - 1].pmid == nd->pmid)
                break;
        if (last[h] != 0) {
            char later[4096], earlier[4096];
            pmns_name(t, n, later, sizeof(later));
            pmns_name(t, last[h] - 1, earlier, sizeof(earlier));
            pmns_error(b->ps, b->ps->opts->file, 0, 0, NULL, 0,
                       "Error Parsing ASCII PMNS: Duplicate metric id (%u.%u.%u) in name space "
                       "for metrics \"%s\" and \"%s\"%s",
                       nd->pmid >> 22 & 0x1ff, nd->pmid >> 10 & 0xfff, nd->pmid & 0x3ff, later,
                       earlier, b->ps->pcp ? "\n" : ""); /* PCP's text ends in a newline */
            if (b->ps->pcp)
                break; /* PCP stops at the first */
        }
        last[h] = n + 1;
    }
    free(stack);
    free(last);
    return sts;
}

void pmns_free(pmns_tree *t)
{
    if (t == NULL)
        return;
    pmns_mem_free(t->nodes);
    pmns_mem_free(t->strings);
    free(t);
}

int pmns_build(pmns_parsed *ps, pmns_tree **out)
{
    builder b = {PMNS_NONE, PMNS_NONE, PMNS_NONE, ps, NULL, 0, NULL, 0, NULL, 0};
    pmns_group *root = NULL;
    unsigned long errors = ps->errors;
    int sts = 0;

    for (size_t g = 0; g < ps->ngrps; g++) {
        if (ps->grps[g].len == 4 && memcmp(ps->str + ps->grps[g].path, "root", 4) == 0) {
            if (root != NULL) {
                pmns_error(ps, ps->opts->file, 0, 0, NULL, 0,
                           "Error Parsing ASCII PMNS: Multiple name space entries for \"root\"");
                return PM_ERR_PMNS;
            }
            root = &ps->grps[g];
        }
    }
    if (root == NULL) {
        pmns_error(ps, ps->opts->file, 0, 0, NULL, 0,
                   "Error Parsing ASCII PMNS: No name space entry for \"root\"");
        return PM_ERR_PMNS;
    }
    if (ps->opts->derived) { /* the derived names join the string arena */
        size_t need = ps->slen + sizeof("event\0flags\0missed");
        char *str = need <= ps->scap ? ps->str : pmns_mem_realloc(ps->str, need);
        if (str == NULL)
            return PM_ERR_TOOBIG;
        memcpy(str + ps->slen, "event\0flags\0missed", sizeof("event\0flags\0missed"));
        b.event = (uint32_t)ps->slen;
        b.flags = b.event + 6;
        b.missed = b.flags + 6;
        ps->str = str;
        ps->slen = need;
        if (need > ps->scap)
            ps->scap = need;
    }
    if ((b.t = calloc(1, sizeof(*b.t))) == NULL)
        return PM_ERR_TOOBIG;
    b.t->strings = ps->str; /* shared while building; the tree keeps it on success */
    if ((b.groups = index_groups(ps, &b.gmask)) == NULL)
        sts = PM_ERR_TOOBIG;
    if (sts == 0)
        sts = attach(&b, root);
    for (size_t k = 0; sts == 0 && k < ps->ngrps; k++) {
        size_t g = ps->pcp ? ps->ngrps - 1 - k : k; /* PCP lists the last first */
        if (!ps->grps[g].attached && &ps->grps[g] != root)
            pmns_error(ps, ps->grps[g].file, ps->grps[g].line, 1, NULL, 0,
                       "Error Parsing ASCII PMNS: Disconnected subtree (\"%.*s\") in name space",
                       (int)ps->grps[g].len, b.t->strings + ps->grps[g].path);
    }
    if (sts == 0 && !ps->opts->dupok)
        sts = check_duplicates(&b);
    free(b.groups);
    free(b.path);
    if (sts == 0 && ps->errors > errors)
        sts = PM_ERR_PMNS;
    if (sts < 0) {
        b.t->strings = NULL; /* the parser frees it */
        pmns_free(b.t);
        return sts;
    }
    ps->str = NULL; /* the tree keeps the names */
    *out = b.t;
    return 0;
}
