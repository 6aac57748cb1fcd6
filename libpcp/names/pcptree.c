/*
 * pcptree.c - namespaces as PCP's trees of nodes (<pcp/libpcp.h>'s
 * __pmnsTree and __pmnsNode), for the programs that build or walk them
 * (pmnsdel, pmnsmerge, agents keeping a namespace of their own): a new
 * tree, names added one by one, the PMID hash, release, dumps, and the
 * loaded namespace handed out as such a tree (__pmExportPMNS).
 *
 * pmkit's own namespaces are images (format/); an exported tree is built
 * from the loaded one through the names API (children in PCP's order,
 * each leaf's PMID) when first asked for, and kept until the namespace is
 * unloaded or replaced.  A caller may change it, as PCP's may change its
 * own; that changes nothing pmkit answers.  __pmUsePMNS makes a tree's
 * leaves, as they are at the call, the loaded namespace (pmns.c); PCP's
 * reads the caller's tree itself from then on.
 */
#include "derived.h"
#include "names.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <pcp/libpcp.h>

static __pmnsNode *new_node(__pmnsNode *parent, const char *name, size_t len, pmID pmid)
{
    __pmnsNode *n = calloc(1, sizeof(*n));

    if (n == NULL || (n->name = malloc(len + 1)) == NULL) {
        free(n);
        return NULL;
    }
    memcpy(n->name, name, len);
    n->name[len] = '\0';
    n->parent = parent;
    n->pmid = pmid;
    return n;
}

int __pmNewPMNS(__pmnsTree **pmns)
{
    __pmnsTree *t = calloc(1, sizeof(*t));

    if (t == NULL)
        return -oserror();
    if ((t->root = new_node(NULL, "root", 4, PM_ID_NULL)) == NULL) {
        free(t);
        return -oserror();
    }
    *pmns = t;
    return 0;
}

/* The child of parent named by the len bytes at name, or NULL. */
static __pmnsNode *child(__pmnsNode *parent, const char *name, size_t len)
{
    for (__pmnsNode *c = parent->first; c != NULL; c = c->next) {
        if (strlen(c->name) == len && memcmp(c->name, name, len) == 0)
            return c;
    }
    return NULL;
}

static void append(__pmnsNode *parent, __pmnsNode *n)
{
    __pmnsNode **p = &parent->first;

    while (*p != NULL)
        p = &(*p)->next;
    *p = n;
}

/*
 * Add name (dotted) with pmid, the nodes on the way made as needed: PCP's
 * rules.  A new child goes first among its siblings (last when append is
 * set, for a tree copied in order); a name that is there already, leaf or
 * not, is PM_ERR_PMID; a name below a leaf makes that leaf a non-leaf.
 */
static int add_node(__pmnsTree *tree, pmID pmid, const char *name, int at_end)
{
    __pmnsNode *at = tree->root;
    const char *p = name;

    for (;;) {
        size_t len = strcspn(p, ".");
        int last = p[len] == '\0';
        __pmnsNode *c;

        if (len == 0)
            return PM_ERR_NAME;
        if ((c = child(at, p, len)) != NULL) {
            if (last)
                return PM_ERR_PMID;
        } else {
            if ((c = new_node(at, p, len, last ? pmid : PM_ID_NULL)) == NULL)
                return -oserror();
            if (at_end) {
                append(at, c);
            } else {
                c->next = at->first;
                at->first = c;
            }
        }
        if (last)
            return 0;
        c->pmid = PM_ID_NULL; /* a leaf no more, if it was one */
        at = c;
        p += len + 1;
    }
}

int __pmAddPMNSNode(__pmnsTree *tree, int pmid, const char *name)
{
    return add_node(tree, (pmID)pmid, name, 0);
}

static void hash_leaves(__pmnsTree *tree, __pmnsNode *n, int dupok, int *sts)
{
    for (; n != NULL; n = n->next) {
        if (n->first != NULL) {
            hash_leaves(tree, n->first, dupok, sts);
            continue;
        }
        if (n->pmid == PM_ID_NULL)
            continue;
        __pmnsNode **slot = &tree->htab[n->pmid % (unsigned)tree->htabsize];
        for (__pmnsNode *o = *slot; o != NULL; o = o->hash) {
            if (o->pmid == n->pmid && !dupok)
                *sts = PM_ERR_PMID;
        }
        n->hash = *slot;
        *slot = n;
    }
}

/* The leaves hashed by PMID into a table sized for numpmid of them. */
int __pmFixPMNSHashTab(__pmnsTree *tree, int numpmid, int dupok)
{
    int size = numpmid < 1 ? 1 : numpmid * 2;
    int sts = 0;

    free(tree->htab);
    if ((tree->htab = calloc((size_t)size, sizeof(*tree->htab))) == NULL) {
        tree->htabsize = 0;
        return -oserror();
    }
    tree->htabsize = size;
    hash_leaves(tree, tree->root->first, dupok, &sts);
    return sts;
}

static void free_nodes(__pmnsNode *n)
{
    while (n != NULL) {
        __pmnsNode *next = n->next;
        free_nodes(n->first);
        free(n->name);
        free(n);
        n = next;
    }
}

void __pmFreePMNS(__pmnsTree *tree)
{
    if (tree == NULL)
        return;
    free_nodes(tree->root);
    free(tree->htab);
    free(tree);
}

/* A node and everything below it, one a line, four columns deeper a level. */
static void dump_node(FILE *f, const __pmnsNode *n, int depth, int verbose)
{
    fprintf(f, "%*s%-16s", 1 + 4 * depth, "", n->name);
    if (verbose && n->first == NULL && n->pmid != PM_ID_NULL)
        fprintf(f, " %d %s 0x%08x", (int)n->pmid, pmIDStr(n->pmid), n->pmid);
    fputc('\n', f);
    for (const __pmnsNode *c = n->first; c != NULL; c = c->next)
        dump_node(f, c, depth + 1, verbose);
}

void __pmDumpNameNode(FILE *f, const __pmnsNode *node, int verbose)
{
    if (node != NULL)
        dump_node(f, node, 0, verbose);
}

/* ---------------------------------------------------------------- */
/* The loaded namespace as a tree. */

static pthread_mutex_t export_lock = PTHREAD_MUTEX_INITIALIZER;
static __pmnsTree *exported;
static unsigned exported_for; /* pmkit_pmns_generation() it was built for */

/* Add the names below prefix ("" for the root); the number of leaves. */
static int add_below(__pmnsTree *t, const char *prefix, int *sts)
{
    char **kids = NULL;
    int *status = NULL, n = pmGetChildrenStatus(prefix, &kids, &status), leaves = 0;

    for (int i = 0; i < n && *sts >= 0; i++) {
        size_t len = strlen(prefix) + strlen(kids[i]) + 2;
        char *full = malloc(len);
        pmID pmid;
        if (full == NULL) {
            *sts = -ENOMEM;
            break;
        }
        pmsprintf(full, len, "%s%s%s", prefix, prefix[0] ? "." : "", kids[i]);
        if (status[i] == PMNS_LEAF_STATUS) {
            const char *one = full;
            /* the anonymous derived metrics (event.flags, ...) are not
             * part of PCP's tree */
            if (pmLookupName(1, &one, &pmid) == 1 && !pmkit_is_derived(pmid) &&
                (*sts = add_node(t, pmid, full, 1)) >= 0)
                leaves++;
        } else {
            leaves += add_below(t, full, sts);
        }
        free(full);
    }
    free(kids);
    free(status);
    return leaves;
}

__pmnsTree *__pmExportPMNS(void)
{
    __pmnsTree *t = NULL;
    int sts = 0, leaves;

    if (pmGetPMNSLocation() != PMNS_LOCAL)
        return NULL;
    pthread_mutex_lock(&export_lock);
    if (exported != NULL && exported_for == pmkit_pmns_generation()) {
        t = exported;
        goto out;
    }
    if (__pmNewPMNS(&t) < 0)
        goto out;
    leaves = add_below(t, "", &sts);
    if (sts < 0 || __pmFixPMNSHashTab(t, leaves, 1) < 0) {
        __pmFreePMNS(t);
        t = NULL;
        goto out;
    }
    __pmFreePMNS(exported);
    exported = t;
    exported_for = pmkit_pmns_generation();
out:
    pthread_mutex_unlock(&export_lock);
    return t;
}

void __pmDumpNameSpace(FILE *f, int verbose)
{
    __pmnsTree *t = __pmExportPMNS();

    if (t != NULL)
        __pmDumpNameNode(f, t->root, verbose);
}

/* Leaves gathered in a tree's order: full names and PMIDs. */
typedef struct {
    char **names;
    pmID *pmids;
    size_t n, cap;
} leaf_list;

/* Keep full (taken over, freed on failure) and pmid; 0 or -ENOMEM. */
static int leaf_keep(leaf_list *l, char *full, pmID pmid)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        char **nn = realloc(l->names, cap * sizeof(*nn));
        pmID *np;
        if (nn == NULL) {
            free(full);
            return -ENOMEM;
        }
        l->names = nn;
        if ((np = realloc(l->pmids, cap * sizeof(*np))) == NULL) {
            free(full);
            return -ENOMEM;
        }
        l->pmids = np;
        l->cap = cap;
    }
    l->names[l->n] = full;
    l->pmids[l->n++] = pmid;
    return 0;
}

/* The leaves below node, whose full name is prefix ("" for the root),
 * first child first; 0 or -ENOMEM. */
static int gather_leaves(const __pmnsNode *node, const char *prefix, leaf_list *l)
{
    size_t plen = strlen(prefix);

    for (const __pmnsNode *k = node->first; k != NULL; k = k->next) {
        size_t klen = strlen(k->name), at = plen > 0 ? plen + 1 : 0;
        char *full = malloc(at + klen + 1);
        int sts;
        if (full == NULL)
            return -ENOMEM;
        memcpy(full, prefix, plen);
        if (plen > 0)
            full[plen] = '.';
        memcpy(full + at, k->name, klen + 1);
        if (k->first != NULL) {
            sts = gather_leaves(k, full, l);
            free(full);
        } else {
            sts = leaf_keep(l, full, k->pmid);
        }
        if (sts < 0)
            return sts;
    }
    return 0;
}

void __pmUsePMNS(__pmnsTree *t)
{
    leaf_list l = {0};

    if (t == NULL || t->root == NULL)
        return; /* PCP's crashes */
    if (gather_leaves(t->root, "", &l) == 0) {
        /* a namespace from names puts each new child first: the last
         * leaf goes in first */
        for (size_t i = 0; i < l.n / 2; i++) {
            char *name = l.names[i];
            pmID pmid = l.pmids[i];
            l.names[i] = l.names[l.n - 1 - i];
            l.pmids[i] = l.pmids[l.n - 1 - i];
            l.names[l.n - 1 - i] = name;
            l.pmids[l.n - 1 - i] = pmid;
        }
        pmkit_pmns_use((const char *const *)l.names, l.pmids, l.n);
    }
    for (size_t i = 0; i < l.n; i++)
        free(l.names[i]);
    free(l.names);
    free(l.pmids);
}
