/*
 * gen_pmns.c - random valid ASCII PMNS files for the PMNS oracle
 * (tests/oracle/pmns_diff.sh, tests/oracle/probe_pmns.c).
 *
 * Usage:  gen_pmns SEED COUNT OUTDIR
 * Writes OUTDIR/ns_NNNN (the namespace) and OUTDIR/ns_NNNN.names (names to
 * look up, one per line) for NNNN = 0000 .. COUNT-1.  OUTDIR is created if
 * needed.  The output depends only on SEED and the case number.
 *
 * Every namespace loads with Debian's pmLoadASCIINameSpace(file, 1) (see
 * toolchain.md §3).  Two styles:
 *  - raw-compatible (about 60%): no comments, macros or '#' lines, every
 *    line ends with a newline, so pmLoadNameSpace reads it too;
 *  - cpp-style: #define'd domain macros used in PMIDs and dynamic roots,
 *    C comments (inline, whole-line, multi-line), #ifdef blocks.
 * Exercised: groups written in pre-order, post-order or shuffled (children
 * referencing groups defined later), dotted group headers, one-line and
 * packed layouts ("root { a 1:2:3 b c 1:2:4 }"), '{' on its own line, '}'
 * after the last entry, several names sharing a PMID (about 60% of the
 * cases; the others have unique PMIDs so dupok 0 loads them too), dynamic
 * roots D:*:*, empty non-leaf groups (invisible nodes, also nested ones),
 * deep nesting (10-16 levels), wide nodes (1000+ children), leading zeros,
 * blanks and tabs around ':', domain 0 and the maximum 510:4095:1023, the
 * same short names at several levels.  Most cases are small; one in ten is
 * medium (a few hundred names) and one in fifty large (about 5000 names)
 * because the real libpcp is slow on big namespaces.  Every line stays well
 * below the 254 character limit.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "gen_rng.h"

#define NAMEMAX 48

/* ------------------------------------------------------------------ */
/* random numbers (gen_rng.h: splitmix64)                              */
/* ------------------------------------------------------------------ */

/* uniform in [lo, hi] */
static unsigned rnd_range(unsigned lo, unsigned hi)
{
    return lo + rnd(hi - lo + 1);
}

/* true with probability pct/100 */
static int chance(unsigned pct)
{
    return rnd(100) < pct;
}

/* ------------------------------------------------------------------ */
/* the tree                                                             */
/* ------------------------------------------------------------------ */

enum { LEAF, NONLEAF, DYNROOT };

typedef struct {
    char name[NAMEMAX];
    int parent;
    int kind;
    int depth;
    int pathlen;             /* length of the dotted path */
    unsigned dom, clu, item; /* LEAF: the PMID; DYNROOT: dom */
    int *kids;
    int nkids, capkids;
    int bare; /* DYNROOT written as a bare integer */
} node;

static node *nodes;
static int nnodes, capnodes;

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (p == NULL) {
        fprintf(stderr, "gen_pmns: out of memory\n");
        exit(1);
    }
    return p;
}

static void free_tree(void)
{
    for (int i = 0; i < nnodes; i++)
        free(nodes[i].kids);
    nnodes = 0;
}

static int has_child(int parent, const char *name)
{
    for (int k = 0; k < nodes[parent].nkids; k++)
        if (strcmp(nodes[nodes[parent].kids[k]].name, name) == 0)
            return 1;
    return 0;
}

/* name styles, chosen per case */
static int name_style;

static void random_name(char *buf, int maxlen)
{
    static const char *const words[] = {
        "a",   "b",     "c",      "x",   "y",      "cpu",   "mem",   "disk",   "net",   "in",
        "out", "total", "user",   "sys", "idle",   "load",  "count", "bytes",  "rate",  "dev",
        "sda", "eth0",  "kernel", "all", "percpu", "value", "time",  "errors", "Cache", "hits",
    };
    static const char first[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    static const char rest[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";
    int style = name_style;
    if (style == 2 && chance(30))
        style = 1;
    if (style == 0) { /* tiny alphabet: many repeats across levels */
        buf[0] = "abcxyz"[rnd(6)];
        buf[1] = '\0';
        if (chance(40)) {
            buf[1] = "abc01_"[rnd(6)];
            buf[2] = '\0';
        }
        return;
    }
    if (style == 1) { /* words, sometimes with a suffix */
        snprintf(buf, (size_t)maxlen, "%s", words[rnd(sizeof words / sizeof words[0])]);
        if (chance(30)) {
            size_t l = strlen(buf);
            snprintf(buf + l, (size_t)maxlen - l, "%s%u", chance(50) ? "_" : "", rnd(100));
        }
        return;
    }
    /* random identifier */
    int len = (int)rnd_range(1, chance(10) ? (unsigned)maxlen - 1 : 10);
    if (len > maxlen - 1)
        len = maxlen - 1;
    buf[0] = first[rnd(sizeof first - 1)];
    for (int i = 1; i < len; i++)
        buf[i] = rest[rnd(sizeof rest - 1)];
    buf[len] = '\0';
    /* never a macro name of ours */
    if (strncmp(buf, "DOM_", 4) == 0)
        buf[0] = 'd';
}

/* per-case parameters */
static unsigned doms[6];
static int ndoms;
static unsigned dup_pct; /* chance that a leaf reuses an earlier PMID */
static unsigned dyn_pct;
static unsigned nonleaf_pct;
static int nleaves_made;

static void pick_pmid(node *n)
{
    if (dup_pct && nleaves_made > 0 && chance(dup_pct)) {
        /* reuse the PMID of a random earlier leaf */
        for (int tries = 0; tries < 20; tries++) {
            const node *o = &nodes[rnd((unsigned)nnodes)];
            if (o->kind == LEAF && o != n) {
                n->dom = o->dom;
                n->clu = o->clu;
                n->item = o->item;
                return;
            }
        }
    }
    n->dom = doms[rnd((unsigned)ndoms)];
    if (chance(3)) {
        n->clu = 4095;
        n->item = 1023;
    } else {
        n->clu = chance(70) ? rnd(8) : rnd(4096);
        n->item = chance(70) ? rnd(64) : rnd(1024);
    }
}

/* set of the PMIDs used in this case (open addressing, 0 = free slot) */
static uint32_t *used;
static size_t nused, capused;

static uint32_t pmid_key(unsigned d, unsigned c, unsigned i)
{
    return ((uint32_t)d << 22 | (uint32_t)c << 10 | i) + 1;
}

static size_t key_slot(uint32_t key, size_t cap)
{
    return (size_t)((key * 2654435761u) & (cap - 1));
}

static int pmid_used(unsigned d, unsigned c, unsigned i)
{
    uint32_t key = pmid_key(d, c, i);
    if (capused == 0)
        return 0;
    for (size_t h = key_slot(key, capused); used[h] != 0; h = (h + 1) & (capused - 1))
        if (used[h] == key)
            return 1;
    return 0;
}

static void pmid_add(unsigned d, unsigned c, unsigned i)
{
    if (pmid_used(d, c, i))
        return;
    if (2 * (nused + 1) > capused) {
        size_t ncap = capused ? 2 * capused : 1024;
        uint32_t *n = calloc(ncap, sizeof(uint32_t));
        if (n == NULL) {
            fprintf(stderr, "gen_pmns: out of memory\n");
            exit(1);
        }
        for (size_t k = 0; k < capused; k++) {
            if (used[k] == 0)
                continue;
            size_t h = key_slot(used[k], ncap);
            while (n[h] != 0)
                h = (h + 1) & (ncap - 1);
            n[h] = used[k];
        }
        free(used);
        used = n;
        capused = ncap;
    }
    uint32_t key = pmid_key(d, c, i);
    size_t h = key_slot(key, capused);
    while (used[h] != 0)
        h = (h + 1) & (capused - 1);
    used[h] = key;
    nused++;
}

/* add a child of PARENT; returns its index or -1 if no free name was found */
static int add_node(int parent, int kind, int short_name)
{
    char name[NAMEMAX];
    int ok = 0;
    for (int tries = 0; tries < 40 && !ok; tries++) {
        if (short_name) {
            int saved = name_style;
            name_style = tries < 10 ? 0 : 2;
            random_name(name, tries < 20 ? 4 : 8);
            name_style = saved;
        } else
            random_name(name, tries < 20 ? 16 : NAMEMAX);
        ok = !has_child(parent, name);
        /* keep "root" and "event" out of the top level */
        if (parent == 0 && (strcmp(name, "root") == 0 || strcmp(name, "event") == 0))
            ok = 0;
    }
    if (!ok)
        return -1;
    if (nnodes == capnodes) {
        capnodes = capnodes ? 2 * capnodes : 256;
        nodes = xrealloc(nodes, (size_t)capnodes * sizeof(node));
    }
    int idx = nnodes++;
    node *n = &nodes[idx];
    memset(n, 0, sizeof *n);
    snprintf(n->name, sizeof n->name, "%s", name);
    n->parent = parent;
    n->kind = kind;
    n->depth = nodes[parent].depth + 1;
    n->pathlen = (parent == 0 ? 0 : nodes[parent].pathlen + 1) + (int)strlen(name);
    /* group headers must stay far below the 254 character line limit */
    if (kind == NONLEAF && n->pathlen > 150)
        n->kind = kind = LEAF;
    if (kind == LEAF) {
        pick_pmid(n);
        if (dup_pct == 0) {
            /* unique PMIDs: probe forward */
            int guard = 0;
            while (pmid_used(n->dom, n->clu, n->item) && guard++ < 5000) {
                n->item = (n->item + 1) % 1024;
                if (n->item == 0)
                    n->clu = (n->clu + 1) % 4096;
            }
        }
        pmid_add(n->dom, n->clu, n->item);
        nleaves_made++;
    } else if (kind == DYNROOT) {
        n->dom = chance(20) ? doms[rnd((unsigned)ndoms)] : rnd(511);
        n->bare = 0;
    }
    node *p = &nodes[parent];
    if (p->nkids == p->capkids) {
        p->capkids = p->capkids ? 2 * p->capkids : 4;
        p->kids = xrealloc(p->kids, (size_t)p->capkids * sizeof(int));
    }
    p->kids[p->nkids++] = idx;
    return idx;
}

/* full dotted path of node IDX (root's path is "root") */
static void path_of(int idx, char *buf, size_t size)
{
    if (idx == 0) {
        snprintf(buf, size, "root");
        return;
    }
    int chain[64], n = 0;
    for (int i = idx; i != 0 && n < 64; i = nodes[i].parent)
        chain[n++] = i;
    buf[0] = '\0';
    size_t len = 0;
    for (int k = n - 1; k >= 0; k--) {
        int w =
            snprintf(buf + len, size - len, "%s%s", k == n - 1 ? "" : ".", nodes[chain[k]].name);
        if (w < 0 || (size_t)w >= size - len)
            break;
        len += (size_t)w;
    }
}

/* does the subtree of IDX hold a leaf or dynamic root? */
static int visible(int idx)
{
    if (nodes[idx].kind != NONLEAF)
        return 1;
    for (int k = 0; k < nodes[idx].nkids; k++)
        if (visible(nodes[idx].kids[k]))
            return 1;
    return 0;
}

static void build_tree(int caseno)
{
    free_tree();
    nleaves_made = 0;
    if (capused)
        memset(used, 0, capused * sizeof(uint32_t));
    nused = 0;
    capnodes = capnodes ? capnodes : 256;
    nodes = xrealloc(nodes, (size_t)capnodes * sizeof(node));
    memset(&nodes[0], 0, sizeof(node));
    snprintf(nodes[0].name, NAMEMAX, "root");
    nodes[0].kind = NONLEAF;
    nnodes = 1;

    /* per-case parameters */
    name_style = (int)rnd(3);
    ndoms = (int)rnd_range(1, 5);
    for (int i = 0; i < ndoms; i++) {
        unsigned r = rnd(10);
        doms[i] = r == 0 ? 0 : r == 1 ? 510 : r < 5 ? rnd_range(1, 40) : rnd(511);
    }
    dup_pct = chance(40) ? 0 : rnd_range(2, 30);
    dyn_pct = chance(50) ? 0 : rnd_range(1, 8);
    nonleaf_pct = rnd_range(10, 40);

    int target;
    if (caseno % 50 == 17)
        target = (int)rnd_range(4500, 5200); /* large */
    else if (caseno % 10 == 3)
        target = (int)rnd_range(100, 500); /* medium */
    else
        target = (int)rnd_range(1, 40); /* small */

    /* random growth */
    int *open = NULL, nopen = 1, capopen = 16;
    open = xrealloc(open, (size_t)capopen * sizeof(int));
    open[0] = 0;
    for (int made = 0; made < target; made++) {
        /* prefer recently opened non-leaves: gives depth */
        int pi = chance(60) && nopen > 1 ? nopen - 1 - (int)rnd((unsigned)(nopen < 4 ? nopen : 4))
                                         : (int)rnd((unsigned)nopen);
        int parent = open[pi];
        if (nodes[parent].depth >= 18)
            parent = 0;
        int kind = chance(nonleaf_pct) ? NONLEAF : chance(dyn_pct) ? DYNROOT : LEAF;
        int idx = add_node(parent, kind, 0);
        if (idx < 0)
            continue;
        if (kind == NONLEAF) {
            if (nopen == capopen) {
                capopen *= 2;
                open = xrealloc(open, (size_t)capopen * sizeof(int));
            }
            open[nopen++] = idx;
        }
    }

    /* deep chain */
    if (chance(25) || caseno % 10 == 5) {
        int parent = open[rnd((unsigned)nopen)];
        int depth = (int)rnd_range(10, 16);
        for (int d = 0; d < depth && nodes[parent].depth < 20; d++) {
            int idx = add_node(parent, NONLEAF, 1);
            if (idx < 0)
                break;
            if (chance(30))
                add_node(parent, LEAF, 1);
            parent = idx;
        }
        add_node(parent, chance(15) ? DYNROOT : LEAF, 1);
        if (chance(50))
            add_node(parent, LEAF, 1);
    }

    /* wide node */
    if (caseno % 40 == 9 || (target > 1000 && chance(50))) {
        int parent = open[rnd((unsigned)nopen)];
        if (nodes[parent].depth > 6)
            parent = 0;
        int idx = add_node(parent, NONLEAF, 0);
        if (idx >= 0) {
            int width = (int)rnd_range(1000, 1400);
            int saved = name_style;
            name_style = 2;
            for (int k = 0; k < width; k++)
                add_node(idx, chance(2) ? DYNROOT : LEAF, 0);
            name_style = saved;
        }
    }

    /* leave some non-leaves empty (invisible), fill the others */
    int n0 = nnodes;
    for (int i = 1; i < n0; i++) {
        if (nodes[i].kind != NONLEAF || nodes[i].nkids > 0)
            continue;
        if (chance(25))
            continue;
        if (chance(10)) { /* nested empty */
            add_node(i, NONLEAF, 1);
            continue;
        }
        add_node(i, LEAF, 0);
    }
    /* bare-integer dynamic roots are a quirk, but legal: a few */
    for (int i = 1; i < nnodes; i++)
        if (nodes[i].kind == DYNROOT && chance(10))
            nodes[i].bare = 1;
    free(open);
}

/* ------------------------------------------------------------------ */
/* writing                                                              */
/* ------------------------------------------------------------------ */

static int cpp_style;
static unsigned macro_doms[6];
static int nmacro;

static const char *macro_for(unsigned dom)
{
    static char buf[16];
    for (int i = 0; i < nmacro; i++)
        if (macro_doms[i] == dom && chance(70)) {
            snprintf(buf, sizeof buf, "DOM_%u", dom);
            return buf;
        }
    return NULL;
}

/* "ws" between tokens */
static const char *sep(void)
{
    static const char *const s[] = {" ", " ", " ", "  ", "\t", " \t "};
    return s[rnd(6)];
}

/* format a number with optional leading zeros */
static void num(char *buf, size_t size, unsigned v)
{
    if (chance(8))
        snprintf(buf, size, "%0*u", (int)rnd_range(2, 5), v);
    else
        snprintf(buf, size, "%u", v);
}

static const char *colon(void)
{
    if (!chance(10))
        return ":";
    static const char *const c[] = {" : ", " :", ": ", "\t:", ":\t", "  :  "};
    return c[rnd(6)];
}

static void pmid_text(const node *n, char *buf, size_t size)
{
    char d[24], c[16], i[16];
    const char *m = cpp_style ? macro_for(n->dom) : NULL;
    if (m)
        snprintf(d, sizeof d, "%s", m);
    else
        num(d, sizeof d, n->dom);
    if (n->kind == DYNROOT) {
        if (n->bare)
            snprintf(buf, size, "%s", d);
        else {
            const char *c1 = colon();
            snprintf(buf, size, "%s%s*%s*", d, c1, colon());
        }
        return;
    }
    num(c, sizeof c, n->clu);
    num(i, sizeof i, n->item);
    const char *c1 = colon();
    snprintf(buf, size, "%s%s%s%s%s", d, c1, c, colon(), i);
}

static const char *comment_words[] = {
    "the",  "metric", "values", "are", "counters", "from",  "the", "kernel", "see",
    "PMDA", "docs",   "a.b",    "{",   "}",        "1:2:3", "*:*", "root",   "#define",
};

static void comment(FILE *f, int maxlen)
{
    int len = 3;
    fputs("/*", f);
    int nw = (int)rnd_range(1, 6);
    for (int k = 0; k < nw; k++) {
        const char *w = comment_words[rnd(sizeof comment_words / sizeof comment_words[0])];
        if (len + (int)strlen(w) + 4 > maxlen)
            break;
        fprintf(f, " %s", w);
        len += (int)strlen(w) + 1;
    }
    fputs(" */", f);
}

static void entry_text(int idx, char *buf, size_t size)
{
    const node *n = &nodes[idx];
    if (n->kind == NONLEAF) {
        snprintf(buf, size, "%s", n->name);
        return;
    }
    char p[64];
    pmid_text(n, p, sizeof p);
    snprintf(buf, size, "%s%s%s", n->name, sep(), p);
}

static void indent(FILE *f)
{
    static const char *const s[] = {"\t", "    ", " ", "", "\t\t", "  "};
    fputs(s[rnd(6)], f);
}

static void write_group(FILE *f, int g)
{
    char header[1024], e[160];
    if (g == 0)
        snprintf(header, sizeof header, "root");
    else {
        path_of(g, header, sizeof header);
    }
    const node *n = &nodes[g];
    /* one-line layout if it fits */
    size_t total = strlen(header) + 4;
    for (int k = 0; k < n->nkids; k++)
        total += strlen(nodes[n->kids[k]].name) + 30;
    int layout = (int)rnd(10); /* 0-1 one line, 2-3 packed, else lines */
    if (layout <= 1 && total > 180)
        layout = 5;
    if (layout <= 1) {
        fprintf(f, "%s%s{", header, sep());
        for (int k = 0; k < n->nkids; k++) {
            entry_text(n->kids[k], e, sizeof e);
            fprintf(f, "%s%s", sep(), e);
        }
        fprintf(f, "%s}", sep());
        if (cpp_style && chance(20)) {
            fputs(" ", f);
            comment(f, 40);
        }
        fputs("\n", f);
        return;
    }
    if (chance(15))
        fprintf(f, "%s\n{\n", header);
    else
        fprintf(f, "%s%s{\n", header, sep());
    if (layout <= 3) {
        /* packed: several entries per line, '}' after the last */
        int col = 0;
        for (int k = 0; k < n->nkids; k++) {
            entry_text(n->kids[k], e, sizeof e);
            if (col == 0)
                indent(f);
            else
                fputs(sep(), f);
            fputs(e, f);
            col += (int)strlen(e) + 4;
            if (col > 120) {
                fputs("\n", f);
                col = 0;
            }
        }
        if (col == 0)
            fputs("}\n", f);
        else
            fprintf(f, "%s}\n", sep());
        return;
    }
    for (int k = 0; k < n->nkids; k++) {
        entry_text(n->kids[k], e, sizeof e);
        indent(f);
        fputs(e, f);
        if (cpp_style && chance(8)) {
            fputs(sep(), f);
            comment(f, 60);
        }
        if (k == n->nkids - 1 && chance(10)) {
            fputs(" }\n", f);
            return;
        }
        fputs("\n", f);
        if (cpp_style && chance(3)) {
            fputs("/*\n * ", f);
            fputs(nodes[n->kids[k]].name, f);
            fputs(" is\n   documented elsewhere\n */\n", f);
        }
    }
    fputs("}\n", f);
}

static void order_groups(int g, int post, int *out, int *nout)
{
    if (nodes[g].kind != NONLEAF)
        return;
    if (!post)
        out[(*nout)++] = g;
    for (int k = 0; k < nodes[g].nkids; k++)
        order_groups(nodes[g].kids[k], post, out, nout);
    if (post)
        out[(*nout)++] = g;
}

static int write_ns(const char *file)
{
    FILE *f = fopen(file, "w");
    if (f == NULL) {
        fprintf(stderr, "gen_pmns: %s: %s\n", file, strerror(errno));
        return -1;
    }
    if (cpp_style) {
        nmacro = 0;
        for (int i = 0; i < ndoms; i++) {
            int dup = 0;
            for (int k = 0; k < nmacro; k++)
                dup |= macro_doms[k] == doms[i];
            if (!dup)
                macro_doms[nmacro++] = doms[i];
        }
        if (chance(60)) {
            comment(f, 70);
            fputs("\n", f);
        }
        if (chance(30))
            fputs("/*\n * generated by gen_pmns\n */\n\n", f);
        for (int i = 0; i < nmacro; i++)
            fprintf(f, "#define%sDOM_%u%s%u\n", chance(80) ? " " : "\t", macro_doms[i],
                    chance(80) ? " " : "\t", macro_doms[i]);
        if (chance(30))
            fputs("#ifdef NOT_DEFINED\nthis is { not } valid PMNS 1:2:3 text\n#endif\n", f);
        if (chance(20))
            fputs("#ifndef DOM_NEVER\n#define DOM_NEVER 1\n#else\nbroken {\n#endif\n", f);
    }
    int *order = xrealloc(NULL, (size_t)nnodes * sizeof(int));
    int ng = 0;
    int how = (int)rnd(10);
    order_groups(0, how >= 4 && how < 7, order, &ng);
    if (how >= 7) {
        for (int i = ng - 1; i > 0; i--) {
            int j = (int)rnd((unsigned)i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
    }
    for (int i = 0; i < ng; i++) {
        if (i > 0 && chance(50))
            fputs("\n", f);
        if (cpp_style && chance(15)) {
            comment(f, 70);
            fputs("\n", f);
        }
        write_group(f, order[i]);
    }
    free(order);
    if (fclose(f) != 0) {
        fprintf(stderr, "gen_pmns: %s: %s\n", file, strerror(errno));
        return -1;
    }
    return 0;
}

/* names to look up: leaves, non-leaves, invisible nodes, below dynamic
 * roots, unknown and mangled names */
static int write_names(const char *file)
{
    FILE *f = fopen(file, "w");
    if (f == NULL) {
        fprintf(stderr, "gen_pmns: %s: %s\n", file, strerror(errno));
        return -1;
    }
    char p[1024];
    int want = (int)rnd_range(5, 30);
    for (int k = 0; k < want && nnodes > 1; k++) {
        int i = (int)rnd_range(1, (unsigned)nnodes - 1);
        path_of(i, p, sizeof p);
        if (strlen(p) > 200)
            continue;
        switch (rnd(8)) {
        case 0: /* below */
            fprintf(f, "%s.%s\n", p, nodes[i].kind == DYNROOT ? "x.y" : "x");
            break;
        case 1: /* truncated */
            if (strlen(p) > 1)
                p[strlen(p) - 1] = '\0';
            fprintf(f, "%s\n", p);
            break;
        case 2: /* case changed */
            p[0] = (char)(p[0] ^ 0x20);
            fprintf(f, "%s\n", p);
            break;
        default:
            fprintf(f, "%s\n", p);
            break;
        }
    }
    /* every invisible node and dynamic root */
    int extra = 0;
    for (int i = 1; i < nnodes && extra < 10; i++) {
        if ((nodes[i].kind == NONLEAF && !visible(i)) || nodes[i].kind == DYNROOT) {
            path_of(i, p, sizeof p);
            if (strlen(p) > 200)
                continue;
            fprintf(f, "%s\n", p);
            if (nodes[i].kind == DYNROOT)
                fprintf(f, "%s.a.b.c\n", p);
            extra++;
        }
    }
    fputs("no.such.name\n", f);
    if (fclose(f) != 0) {
        fprintf(stderr, "gen_pmns: %s: %s\n", file, strerror(errno));
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "Usage: gen_pmns SEED COUNT OUTDIR\n");
        return 2;
    }
    char *end;
    unsigned long long seed = strtoull(argv[1], &end, 10);
    if (*end != '\0') {
        fprintf(stderr, "gen_pmns: bad seed \"%s\"\n", argv[1]);
        return 2;
    }
    long count = strtol(argv[2], &end, 10);
    if (*end != '\0' || count < 0 || count > 9999) {
        fprintf(stderr, "gen_pmns: bad count \"%s\" (0..9999)\n", argv[2]);
        return 2;
    }
    const char *dir = argv[3];
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "gen_pmns: mkdir %s: %s\n", dir, strerror(errno));
        return 1;
    }
    size_t dl = strlen(dir);
    char *file = xrealloc(NULL, dl + 32);
    for (long c = 0; c < count; c++) {
        rng_state = seed * 0x100000001B3ULL ^ ((uint64_t)c * 0x9E3779B97F4A7C15ULL) ^ 0x5EEDULL;
        rnd64();
        build_tree((int)c);
        cpp_style = chance(40);
        snprintf(file, dl + 32, "%s/ns_%04ld", dir, c);
        if (write_ns(file) != 0)
            return 1;
        snprintf(file, dl + 32, "%s/ns_%04ld.names", dir, c);
        if (write_names(file) != 0)
            return 1;
    }
    free(file);
    free_tree();
    free(nodes);
    free(used);
    return 0;
}
