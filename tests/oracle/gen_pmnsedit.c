/*
 * gen_pmnsedit.c - random cases for the namespace tools' oracle
 * (tests/oracle/pmnsedit_diff.sh): pmnsmerge, pmnsadd and pmnsdel runs
 * that Debian's tools handle correctly.
 *
 * Usage:  gen_pmnsedit SEED COUNT OUTDIR
 * Writes OUTDIR/case_NNNN/ for NNNN = 0000 .. COUNT-1: the namespace files
 * of the case and "cmd", one line: the tool and its arguments, run in the
 * case's directory (e.g. "pmnsmerge -x f0 f1 f2 out").  The output
 * depends only on SEED and the case number.
 *
 * Each case draws a "universe": a random tree of names from a small
 * vocabulary (so names meet at every level) with PMIDs, dynamic roots
 * and, in some cases, aliases (several names, one PMID).  Then:
 *  - merge (60%): 2 to 20 files, each a random part of the universe with
 *    its children shuffled and its own changes: other PMIDs for some names
 *    (conflicts), a non-leaf given as a leaf or a dynamic root, a leaf
 *    given children, a leaf aliasing another's PMID, empty non-leaves
 *    (never in the file that becomes the base: PCP writes those back as an
 *    unloadable PMID, a known difference), #define _DATESTAMP lines (ties
 *    included) placed anywhere, C comments and domain macros; options -a,
 *    -x, -v, -vv, -d, -f over an existing outfile;
 *  - pmnsdel (20%): a namespace and 1-5 metricpaths: leaves, subtrees,
 *    last children (their ancestors go too), dynamic roots, a name twice,
 *    names that are not there (below a leaf or a dynamic root, empty
 *    components, unknown), sometimes -d or $PMNS_DEFAULT instead of -n;
 *  - pmnsadd (20%): a namespace and a subtree file based at an existing
 *    non-leaf, a new path (deep or not), a path through a leaf, a leaf
 *    itself, or a whole "root {" namespace; existing names with the same
 *    or another PMID; nested groups; _DATESTAMP lines that reorder the
 *    merge; sometimes -d.
 * Every file loads with Debian's pmLoadASCIINameSpace(file, 1), ends with
 * a newline and keeps its lines far below PCP's 254 characters.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "gen_rng.h"

#define MAXN 4096

static const char *const vocab[] = {"a",    "b",   "c",     "x",    "y",   "cpu", "disk",
                                    "net",  "mem", "load",  "in",   "out", "foo", "bar",
                                    "sub",  "all", "one",   "two",  "n0",  "n1",  "kernel",
                                    "swap", "avg", "bytes", "util", "dev", "z9",  "Q_x"};
#define NVOCAB (sizeof(vocab) / sizeof(vocab[0]))

enum { LEAF, NONLEAF, DYN };

/* A tree: the universe, or one file's version of it. */
typedef struct node {
    const char *name;
    int parent, kind;
    unsigned pmid; /* LEAF: d<<22|c<<10|i; DYN: the domain */
    int kids[64], nkids;
} node;

typedef struct tree {
    node n[MAXN];
    int count;
} tree;

static tree uni, ft;

static int chance(unsigned pct)
{
    return rnd(100) < pct;
}

static unsigned mkpmid(void)
{
    static const unsigned doms[] = {0, 1, 2, 3, 29, 60, 70, 255, 510};
    return doms[rnd(9)] << 22 | rnd(8) << 10 | rnd(1024);
}

static int add(tree *t, int parent, const char *name, int kind)
{
    node *nd;

    if (t->count >= MAXN || (parent >= 0 && t->n[parent].nkids >= 64))
        return -1;
    nd = &t->n[t->count];
    memset(nd, 0, sizeof(*nd));
    nd->name = name;
    nd->parent = parent;
    nd->kind = kind;
    nd->pmid = kind == LEAF ? mkpmid() : kind == DYN ? rnd(511) : 0;
    if (parent >= 0)
        t->n[parent].kids[t->n[parent].nkids++] = t->count;
    return t->count++;
}

static int has_child(const tree *t, int p, const char *name)
{
    for (int k = 0; k < t->n[p].nkids; k++)
        if (strcmp(t->n[t->n[p].kids[k]].name, name) == 0)
            return t->n[p].kids[k];
    return -1;
}

/* A child name not yet used below p, or NULL. */
static const char *fresh(const tree *t, int p)
{
    for (int tries = 0; tries < 20; tries++) {
        const char *w = vocab[rnd(NVOCAB)];
        if (has_child(t, p, w) < 0)
            return w;
    }
    return NULL;
}

static void grow(tree *t, int p, int depth, int budget)
{
    int want = chance(25) ? 1 : 1 + (int)rnd(depth == 0 ? 6 : 5);

    for (int k = 0; k < want && t->count < budget; k++) {
        const char *w = fresh(t, p);
        int kind = depth >= 4 || chance(55) ? LEAF : NONLEAF, c;
        if (w == NULL)
            break;
        if (kind == LEAF && chance(4))
            kind = DYN;
        if ((c = add(t, p, w, kind)) >= 0 && kind == NONLEAF)
            grow(t, c, depth + 1, budget);
    }
}

static void make_universe(int aliases)
{
    int size = chance(10) ? 300 : 12 + (int)rnd(40);

    uni.count = 0;
    add(&uni, -1, "root", NONLEAF);
    grow(&uni, 0, 0, size);
    if (aliases) /* some names share the PMID of an earlier leaf */
        for (int i = 1; i < uni.count; i++)
            if (uni.n[i].kind == LEAF && chance(10))
                for (int j = 1; j < i; j++)
                    if (uni.n[j].kind == LEAF) {
                        uni.n[i].pmid = uni.n[j].pmid;
                        break;
                    }
}

/* ---------------------------------------------------------------- */
/* One file's version of the universe. */

typedef struct style {
    int conflicts; /* % of leaves with another PMID */
    int aliases;   /* % of leaves with another leaf's PMID */
    int shapes;    /* % of nodes changing kind */
    int empties;   /* % of non-leaves left empty (not in a base) */
    int part;      /* % of each level kept */
} style;

static int keep_leaves(tree *t, int i)
{
    int n = 0;

    if (t->n[i].kind != NONLEAF)
        return 1;
    for (int k = 0; k < t->n[i].nkids; k++)
        n += keep_leaves(t, t->n[i].kids[k]);
    return n;
}

/* Copy universe node u's children into file node f. */
static void copy_level(int u, int f, const style *s)
{
    int order[64], n = uni.n[u].nkids;

    for (int k = 0; k < n; k++)
        order[k] = uni.n[u].kids[k];
    if (chance(50)) /* shuffled */
        for (int k = n - 1; k > 0; k--) {
            int j = (int)rnd((unsigned)k + 1), x = order[k];
            order[k] = order[j];
            order[j] = x;
        }
    for (int k = 0; k < n; k++) {
        const node *un = &uni.n[order[k]];
        int c, kind = un->kind;
        if (!chance((unsigned)s->part))
            continue;
        if (chance((unsigned)s->shapes))
            kind = kind == NONLEAF ? (chance(80) ? LEAF : DYN) : kind == LEAF ? NONLEAF : LEAF;
        if ((c = add(&ft, f, un->name, kind)) < 0)
            return;
        if (kind == LEAF && un->kind == LEAF)
            ft.n[c].pmid = chance((unsigned)s->conflicts) ? mkpmid() : un->pmid;
        if (kind == LEAF && chance((unsigned)s->aliases)) {
            for (int j = 1 + (int)rnd((unsigned)uni.count - 1); j < uni.count; j++) {
                if (uni.n[j].kind == LEAF && j != order[k]) {
                    ft.n[c].pmid = uni.n[j].pmid;
                    break;
                }
            }
        } else if (kind == DYN && un->kind == DYN)
            ft.n[c].pmid = chance((unsigned)s->conflicts) ? rnd(511) : un->pmid;
        if (kind == NONLEAF && un->kind == NONLEAF)
            copy_level(order[k], c, s);
        else if (kind == NONLEAF) /* a leaf given children */
            add(&ft, c, vocab[rnd(NVOCAB)], LEAF);
    }
}

/* Drop non-leaves without a leaf below (or keep a few, empty). */
static void prune(int f, int allow_empty)
{
    node *nd = &ft.n[f];
    int w = 0;

    for (int k = 0; k < nd->nkids; k++) {
        int c = nd->kids[k];
        if (ft.n[c].kind == NONLEAF) {
            prune(c, allow_empty);
            if (keep_leaves(&ft, c) == 0 && !(allow_empty && chance(50)))
                continue;
        }
        nd->kids[w++] = c;
    }
    nd->nkids = w;
}

/* A few empty non-leaves in a file that is not the base. */
static void add_empties(int f, int pct)
{
    for (int k = 0; k < ft.n[f].nkids; k++)
        if (ft.n[ft.n[f].kids[k]].kind == NONLEAF)
            add_empties(ft.n[f].kids[k], pct);
    if (chance((unsigned)pct)) {
        const char *w = fresh(&ft, f);
        if (w != NULL)
            add(&ft, f, w, NONLEAF);
    }
}

static void make_file(const style *s, int base)
{
    ft.count = 0;
    add(&ft, -1, "root", NONLEAF);
    copy_level(0, 0, s);
    if (!base && s->empties > 0)
        add_empties(0, s->empties);
    prune(0, !base);
}

/* ---------------------------------------------------------------- */
/* Writing a file. */

typedef struct wopts {
    int cpp;         /* comments and domain macros */
    const char *pre; /* a line (or lines) at the top, or NULL */
    int preorder;    /* groups in pre-order (else the reverse) */
} wopts;

static void path_of(const tree *t, int i, char *buf, size_t cap)
{
    if (t->n[i].parent <= 0) {
        snprintf(buf, cap, "%s", t->n[i].parent < 0 ? "root" : t->n[i].name);
        return;
    }
    path_of(t, t->n[i].parent, buf, cap);
    size_t l = strlen(buf);
    snprintf(buf + l, cap - l, ".%s", t->n[i].name);
}

static void write_pmid(FILE *fp, const node *nd, const wopts *w)
{
    unsigned d = nd->pmid >> 22;

    if (nd->kind == DYN)
        fprintf(fp, w->cpp && chance(30) ? "\tDOM%u:*:*" : "\t%u:*:*", nd->pmid);
    else if (w->cpp && chance(30))
        fprintf(fp, "\tDOM%u:%u:%u", d, nd->pmid >> 10 & 0xfff, nd->pmid & 0x3ff);
    else
        fprintf(fp, "\t%u:%u:%u", d, nd->pmid >> 10 & 0xfff, nd->pmid & 0x3ff);
}

static void write_group(FILE *fp, const tree *t, int i, const wopts *w)
{
    char path[1024];

    path_of(t, i, path, sizeof(path));
    if (w->cpp && chance(20))
        fprintf(fp, "/* the %s group */\n", t->n[i].name);
    fprintf(fp, "%s {\n", path);
    for (int k = 0; k < t->n[i].nkids; k++) {
        const node *c = &t->n[t->n[i].kids[k]];
        fprintf(fp, "\t%s", c->name);
        if (c->kind != NONLEAF)
            write_pmid(fp, c, w);
        if (w->cpp && chance(5))
            fputs("\t/* note */", fp);
        fputc('\n', fp);
    }
    fputs("}\n", fp);
}

/* Group i and those below it: pre-order, or its children's first. */
static void write_groups(FILE *fp, const tree *t, int i, const wopts *w)
{
    if (w->preorder)
        write_group(fp, t, i, w);
    for (int k = 0; k < t->n[i].nkids; k++)
        if (t->n[t->n[i].kids[k]].kind == NONLEAF)
            write_groups(fp, t, t->n[i].kids[k], w);
    if (!w->preorder)
        write_group(fp, t, i, w);
}

static void write_macros(FILE *fp, const tree *t)
{
    int used[512] = {0};

    for (int i = 1; i < t->count; i++) {
        unsigned d = t->n[i].kind == LEAF ? t->n[i].pmid >> 22 : t->n[i].pmid;
        if (t->n[i].kind != NONLEAF && !used[d]) {
            used[d] = 1;
            fprintf(fp, "#define DOM%u %u\n", d, d);
        }
    }
}

static void write_tree(const char *file, const tree *t, int from, const wopts *w)
{
    FILE *fp = fopen(file, "w");

    if (fp == NULL) {
        perror(file);
        exit(1);
    }
    if (w->pre != NULL)
        fprintf(fp, "%s\n", w->pre);
    if (w->cpp) {
        fputs("/*\n * generated for the pmns tools' oracle\n */\n", fp);
        write_macros(fp, t);
    }
    write_groups(fp, t, from, w);
    if (fclose(fp) != 0) {
        perror(file);
        exit(1);
    }
}

/* ---------------------------------------------------------------- */
/* Cases. */

/* A _DATESTAMP line (one of four days, so stamps tie), in one of its
 * forms; *value says which day.  The text lasts until the next call. */
static const char *stamp_line(int *value)
{
    static const char *const forms[] = {
        "#define _DATESTAMP 2019010%d", "#define\t_DATESTAMP\t2019010%d",
        "/* older */\n#define _DATESTAMP 2019010%d", "#define _DATESTAMP 2019010%d\n/* newer */"};
    static char s[64];

    *value = (int)rnd(4);
    snprintf(s, sizeof(s), forms[rnd(4)], *value);
    return s;
}

static void write_cmd(const char *dir, const char *fmt, ...)
{
    char path[4096];
    va_list ap;
    FILE *fp;

    snprintf(path, sizeof(path), "%s/cmd", dir);
    if ((fp = fopen(path, "w")) == NULL) {
        perror(path);
        exit(1);
    }
    va_start(ap, fmt);
    vfprintf(fp, fmt, ap);
    va_end(ap);
    fputc('\n', fp);
    fclose(fp);
}

static void case_merge(const char *dir)
{
    int nfiles = 2 + (int)(chance(70) ? rnd(3) : rnd(19)), base = 0, ordered = !chance(20);
    int stamp[20], has[20], nodups = chance(15);
    style s = {chance(50) ? 10 : 0, nodups && chance(60) ? 8 : 0, chance(30) ? 4 : 0,
               chance(30) ? 20 : 0, 50 + (int)rnd(51)};
    char cmd[4096], path[4096], pre[20][64];
    size_t n = 0;

    make_universe(!nodups && chance(40));
    for (int i = 0; i < nfiles; i++)
        if ((has[i] = chance(25)) != 0)
            snprintf(pre[i], sizeof(pre[i]), "%s", stamp_line(&stamp[i]));
    /* the base: the first file without a stamp, else the first earliest */
    if (ordered) {
        base = -1;
        for (int i = 0; i < nfiles && base < 0; i++)
            if (!has[i])
                base = i;
        if (base < 0) {
            base = 0;
            for (int i = 1; i < nfiles; i++)
                if (stamp[i] < stamp[base])
                    base = i;
        }
    }
    n += (size_t)snprintf(cmd + n, sizeof(cmd) - n, "pmnsmerge%s%s%s%s", ordered ? "" : " -a",
                          nodups ? " -x" : "",
                          chance(10)   ? " -v"
                          : chance(10) ? " -vv"
                                       : "",
                          chance(5) ? " -d" : "");
    if (chance(10)) {
        snprintf(path, sizeof(path), "%s/out", dir);
        FILE *fp = fopen(path, "w");
        if (fp != NULL) {
            fputs("root {\n\told\t1:1:1\n}\n", fp);
            fclose(fp);
        }
        n += (size_t)snprintf(cmd + n, sizeof(cmd) - n, " -f");
    }
    for (int i = 0; i < nfiles; i++) {
        wopts w = {chance(20), has[i] ? pre[i] : NULL, !chance(20)};
        make_file(&s, i == base);
        snprintf(path, sizeof(path), "%s/f%d", dir, i);
        write_tree(path, &ft, 0, &w);
        n += (size_t)snprintf(cmd + n, sizeof(cmd) - n, " f%d", i);
    }
    write_cmd(dir, "%s out", cmd);
}

/* The nodes of the file tree that are in it (pruned ones are not). */
static int reachable(int i, int *out, int n)
{
    for (int k = 0; k < ft.n[i].nkids; k++) {
        out[n++] = ft.n[i].kids[k];
        n = reachable(ft.n[i].kids[k], out, n);
    }
    return n;
}

/* A path to delete: something there, or (miss) something that is not. */
static void del_name(char *buf, size_t cap, int miss)
{
    static int in[MAXN];
    int n = reachable(0, in, 0), i;

    if (n == 0) {
        snprintf(buf, cap, "nothing");
        return;
    }
    i = in[rnd((unsigned)n)];
    if (chance(40)) /* an only child: its parent goes too, and maybe further up */
        for (int k = 0; k < n; k++)
            if (ft.n[in[k]].parent > 0 && ft.n[ft.n[in[k]].parent].nkids == 1 && chance(50))
                i = in[k];
    path_of(&ft, i, buf, cap);
    if (!miss)
        return;
    switch (rnd(5)) {
    case 0:
        strncat(buf, ".below", cap - strlen(buf) - 1);
        break;
    case 1:
        strncat(buf, ".", cap - strlen(buf) - 1);
        break;
    case 2:
        snprintf(buf, cap, "no_such_name");
        break;
    case 3:
        strncat(buf, "x", cap - strlen(buf) - 1);
        break;
    default: {
        char *dot = strchr(buf, '.');
        if (dot != NULL)
            memmove(dot + 1, dot, strlen(dot) + 1);
        else
            snprintf(buf, cap, ".%s", ft.n[i].name);
    }
    }
}

static void case_del(const char *dir)
{
    style s = {0, 0, chance(20) ? 4 : 0, 0, 60 + (int)rnd(41)};
    wopts w = {chance(20), NULL, !chance(20)};
    int k = 1 + (int)rnd(chance(70) ? 2 : 5), env = chance(10);
    char cmd[4096], path[4096], name[1024];
    size_t n = 0;

    make_universe(chance(40));
    make_file(&s, 1);
    snprintf(path, sizeof(path), "%s/ns", dir);
    write_tree(path, &ft, 0, &w);
    n += (size_t)snprintf(cmd, sizeof(cmd), "%spmnsdel%s%s", env ? "PMNS_DEFAULT=ns " : "",
                          chance(5) ? " -d" : "", env ? "" : " -n ns");
    for (int i = 0; i < k; i++) {
        del_name(name, sizeof(name), chance(5));
        n += (size_t)snprintf(cmd + n, sizeof(cmd) - n, " %s", name);
    }
    write_cmd(dir, "%s", cmd);
}

/* pmnsadd's subtree file: the groups of the file tree below node b,
 * whose path is the file's base. */
static void case_add(const char *dir)
{
    style s = {0, 0, chance(20) ? 4 : 0, 0, 60 + (int)rnd(41)};
    style sub = {chance(50) ? 15 : 0, 0, 0, 0, 40 + (int)rnd(61)};
    wopts w = {chance(20), NULL, !chance(20)}, ws = {chance(25), NULL, 1};
    char path[4096];
    int b, kind = (int)rnd(100), ns_stamp = 0, sub_stamp = 0;

    make_universe(chance(40));
    make_file(&s, 1);
    if (chance(8))
        w.pre = stamp_line(&ns_stamp);
    snprintf(path, sizeof(path), "%s/ns", dir);
    write_tree(path, &ft, 0, &w);
    /* the subtree: a new version of the universe, based somewhere */
    make_file(&sub, 1);
    if (chance(8))
        ws.pre = stamp_line(&sub_stamp);
    if (kind < 10) { /* a whole namespace */
        snprintf(path, sizeof(path), "%s/sub", dir);
        write_tree(path, &ft, 0, &ws);
    } else {
        b = 0;
        for (int tries = 0; tries < 4; tries++) { /* walk down a few levels */
            int k, c;
            if (ft.n[b].nkids == 0)
                break;
            k = (int)rnd((unsigned)ft.n[b].nkids);
            c = ft.n[b].kids[k];
            if (ft.n[c].kind != NONLEAF || (b != 0 && chance(40)))
                break;
            b = c;
        }
        if (kind >= 70 && kind < 80 && b != 0) { /* through a leaf, or at one */
            for (int k = 0; k < ft.n[b].nkids; k++) {
                int c = ft.n[b].kids[k];
                if (ft.n[c].kind == LEAF) {
                    ft.n[c].kind = NONLEAF;
                    add(&ft, c, chance(50) ? "deeper" : vocab[rnd(NVOCAB)], LEAF);
                    b = c;
                    break;
                }
            }
        } else if (b == 0 || kind >= 80) { /* a new path below b */
            int depth = 1 + (int)rnd(3);
            for (int d = 0; d < depth; d++) {
                const char *wd = fresh(&ft, b);
                int c = wd != NULL ? add(&ft, b, wd, NONLEAF) : -1;
                if (c < 0)
                    break;
                b = c;
            }
            if (ft.n[b].nkids == 0)
                add(&ft, b, "new", LEAF);
        }
        if (b == 0)
            b = add(&ft, 0, "fresh", NONLEAF), add(&ft, b, "leaf", LEAF);
        snprintf(path, sizeof(path), "%s/sub", dir);
        write_tree(path, &ft, b, &ws);
    }
    write_cmd(dir, "pmnsadd%s -n ns sub", chance(5) ? " -d" : "");
}

int main(int argc, char **argv)
{
    char dir[2048];
    unsigned long seed, count;

    if (argc != 4) {
        fprintf(stderr, "Usage: gen_pmnsedit SEED COUNT OUTDIR\n");
        return 2;
    }
    seed = strtoul(argv[1], NULL, 10);
    count = strtoul(argv[2], NULL, 10);
    mkdir(argv[3], 0777);
    for (unsigned long c = 0; c < count; c++) {
        unsigned k;
        rng_state = seed * 0x9E3779B97F4A7C15ULL + c * 0xD1B54A32D192ED03ULL;
        k = rnd(100);
        snprintf(dir, sizeof(dir), "%s/case_%04lu", argv[3], c);
        if (mkdir(dir, 0777) != 0) {
            perror(dir);
            return 1;
        }
        if (k < 60)
            case_merge(dir);
        else if (k < 80)
            case_del(dir);
        else
            case_add(dir);
    }
    return 0;
}
