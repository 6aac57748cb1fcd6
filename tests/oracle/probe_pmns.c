/*
 * probe_pmns.c - differential "oracle" probe for the local PMNS: loading an
 * ASCII namespace and every name service on it.  The same source is built
 * twice, against Debian's libpcp (PCP 6.0.3) and against pmkit's libpcp;
 * tests/oracle/pmns_diff.sh runs both on many namespaces and requires
 * byte-identical stdout and the same exit status.  Only <pcp/pmapi.h> and
 * standard C are used; nothing unstable (pointers, timings) is printed.
 *
 * Usage:  probe_pmns MODE FILE [NAME...]
 *   MODE  ascii        pmLoadASCIINameSpace(FILE, 1)
 *         ascii-nodup  pmLoadASCIINameSpace(FILE, 0)
 *         raw          pmLoadNameSpace(FILE)   (no preprocessor)
 *   NAME  extra names given to pmLookupName after the dump
 * Exit:   0 loaded (whatever the later calls returned), 1 the load failed,
 *         2 usage.
 *
 * What is printed once the load succeeded (one line per call, each names
 * its input):
 *  - pmGetPMNSLocation;
 *  - pmTraversePMNS("") with every name, in callback order;
 *  - for every traversed name: pmLookupName, pmGetChildren (a leaf must give
 *    0 and NULL) and pmTraversePMNS/_r of the name itself;
 *  - for every distinct PMID (first-seen order): pmNameID and pmNameAll with
 *    all names in returned order;
 *  - pmLookupName of all traversed names in one call;
 *  - for "" and every proper prefix of a traversed name: pmGetChildrenStatus
 *    (children and status in order), pmGetChildren, pmTraversePMNS and
 *    pmTraversePMNS_r (all names);
 *  - below every dynamic root D: lookups of D.x, D.x.y, D., children and
 *    traversals of D and D.x;
 *  - edge cases: odd names (empty, dots, "root", spaces, case), several
 *    names per pmLookupName call mixing found, unknown, non-leaf, dynamic and
 *    derived names, numpmid 0 and -1, NULL names for pmGetChildren and
 *    pmTraversePMNS, NULL status list, unknown/null/dynamic/derived PMIDs;
 *  - pmUnloadNameSpace and every call after it (PM_ERR_NOPMNS), a second
 *    unload, a reload (must list the same names; not for ascii-nodup), loads
 *    while loaded (PM_ERR_DUPPMNS), loads of a missing file, and for MODE
 *    raw the default namespace via PMNS_DEFAULT=FILE.
 * When the load fails: every name service after pmUnloadNameSpace, and a
 * reload.  (The state between the failed load and the unload differs on
 * purpose: see docs/compat.md.)
 *
 * Inputs left out because the real libpcp crashes on them: a NULL entry in
 * pmLookupName's name list (SIGSEGV), NULL result pointers
 * (pmGetChildren(name, NULL), pmNameID(pmid, NULL), ...), a NULL callback,
 * and any name service on the half-built namespace PCP leaves installed
 * after a failed load (SIGFPE or SIGSEGV).
 *
 * Build:  cc -std=c11 -D_DEFAULT_SOURCE -Wall -Wextra -o probe_pmns \
 *             probe_pmns.c -lpcp               (or pmkit's library)
 * The real libpcp runs $PCP_BINADM_DIR/pmcpp for the ascii modes; run with
 * PCP_DERIVED_CONFIG= (empty) so only event.flags/event.missed are derived.
 */
#include <pcp/pmapi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NELEM(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ------------------------------------------------------------------ */
/* small utilities                                                      */
/* ------------------------------------------------------------------ */

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL) {
        fprintf(stderr, "probe_pmns: out of memory\n");
        exit(3);
    }
    return p;
}

static void *xrealloc(void *old, size_t n)
{
    void *p = realloc(old, n ? n : 1);
    if (p == NULL) {
        fprintf(stderr, "probe_pmns: out of memory\n");
        exit(3);
    }
    return p;
}

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = xmalloc(n);
    memcpy(p, s, n);
    return p;
}

/* growable list of strings */
typedef struct {
    char **v;
    int n, cap;
} strlist;

static void sl_add(strlist *l, const char *s)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        l->v = xrealloc(l->v, (size_t)l->cap * sizeof(char *));
    }
    l->v[l->n++] = xstrdup(s);
}

static void sl_free(strlist *l)
{
    for (int i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    l->v = NULL;
    l->n = l->cap = 0;
}

static int sl_equal(const strlist *a, const strlist *b)
{
    if (a->n != b->n)
        return 0;
    for (int i = 0; i < a->n; i++)
        if (strcmp(a->v[i], b->v[i]) != 0)
            return 0;
    return 1;
}

/* open-addressing string set, used to dedupe prefixes */
typedef struct {
    char **slot;
    size_t cap, n;
} strset;

static size_t hash_str(const char *s)
{
    size_t h = 5381;
    while (*s)
        h = h * 33 + (unsigned char)*s++;
    return h;
}

/* returns 1 if newly inserted */
static int ss_add(strset *s, const char *str)
{
    if (2 * (s->n + 1) > s->cap) {
        size_t ncap = s->cap ? 2 * s->cap : 256;
        char **nslot = calloc(ncap, sizeof(char *));
        if (nslot == NULL) {
            fprintf(stderr, "probe_pmns: out of memory\n");
            exit(3);
        }
        for (size_t i = 0; i < s->cap; i++) {
            if (s->slot[i] == NULL)
                continue;
            size_t h = hash_str(s->slot[i]) & (ncap - 1);
            while (nslot[h] != NULL)
                h = (h + 1) & (ncap - 1);
            nslot[h] = s->slot[i];
        }
        free(s->slot);
        s->slot = nslot;
        s->cap = ncap;
    }
    size_t h = hash_str(str) & (s->cap - 1);
    while (s->slot[h] != NULL) {
        if (strcmp(s->slot[h], str) == 0)
            return 0;
        h = (h + 1) & (s->cap - 1);
    }
    s->slot[h] = xstrdup(str);
    s->n++;
    return 1;
}

static void ss_free(strset *s)
{
    for (size_t i = 0; i < s->cap; i++)
        free(s->slot[i]);
    free(s->slot);
    s->slot = NULL;
    s->cap = s->n = 0;
}

/* print a status: "N" for >= 0, "N MESSAGE" for errors */
static void psts(int sts)
{
    if (sts < 0)
        printf("%d %s", sts, pmErrStr(sts));
    else
        printf("%d", sts);
}

/* ------------------------------------------------------------------ */
/* wrappers printing one PMAPI call each                               */
/* ------------------------------------------------------------------ */

static strlist trav_names; /* filled by the non-reentrant callback */

static void trav_cb(const char *name)
{
    sl_add(&trav_names, name);
}

static void trav_cb_r(const char *name, void *closure)
{
    sl_add((strlist *)closure, name);
}

static void print_list(const strlist *l)
{
    for (int i = 0; i < l->n; i++)
        printf("    %s\n", l->v[i]);
}

/*
 * pmTraversePMNS and pmTraversePMNS_r on NAME.  full: print every name;
 * otherwise print the names only when they are not exactly [NAME].
 */
static void do_traverse(const char *label, const char *name, int full)
{
    strlist r = {0};
    sl_free(&trav_names);
    int sts = pmTraversePMNS(name, trav_cb);
    int sts_r = pmTraversePMNS_r(name, trav_cb_r, &r);
    printf("traverse %s -> ", label);
    psts(sts);
    printf(" (%d names)", trav_names.n);
    int self = trav_names.n == 1 && name != NULL && strcmp(trav_names.v[0], name) == 0;
    if (!full && self)
        printf(" [self]");
    printf("; _r -> ");
    psts(sts_r);
    printf(" %s\n", sl_equal(&r, &trav_names) ? "same names" : "DIFFERENT names:");
    if (full || !self)
        print_list(&trav_names);
    if (!sl_equal(&r, &trav_names))
        print_list(&r);
    sl_free(&r);
    sl_free(&trav_names);
}

/* pmGetChildrenStatus (and pmGetChildren) on NAME */
static void do_children(const char *label, const char *name)
{
    char **kids = NULL, **kids2 = NULL;
    int *stat = NULL;
    int sts = pmGetChildrenStatus(name, &kids, &stat);
    printf("children %s -> ", label);
    psts(sts);
    printf(" offspring=%s status=%s", kids ? "set" : "NULL", stat ? "set" : "NULL");
    if (sts > 0) {
        printf(":");
        for (int i = 0; i < sts; i++)
            printf(" %s/%d", kids[i], stat ? stat[i] : -1);
    }
    int sts2 = pmGetChildren(name, &kids2);
    int same = sts2 == sts;
    for (int i = 0; same && i < sts2; i++)
        if (kids == NULL || kids2 == NULL || strcmp(kids[i], kids2[i]) != 0)
            same = 0;
    if (same && (sts2 > 0) != (kids2 != NULL))
        same = 0;
    if (same) {
        printf("; pmGetChildren same\n");
    } else {
        printf("; pmGetChildren -> ");
        psts(sts2);
        printf(" offspring=%s", kids2 ? "set" : "NULL");
        for (int i = 0; i < sts2; i++)
            printf(" %s", kids2[i]);
        printf("\n");
    }
    free(kids);
    free(stat);
    free(kids2);
}

/* pmGetChildrenStatus with a NULL status list */
static void do_children_nostatus(const char *label, const char *name)
{
    char **kids = NULL;
    int sts = pmGetChildrenStatus(name, &kids, NULL);
    printf("children(status NULL) %s -> ", label);
    psts(sts);
    printf(" offspring=%s", kids ? "set" : "NULL");
    for (int i = 0; i < sts; i++)
        printf(" %s", kids[i]);
    printf("\n");
    free(kids);
}

/* single-name pmLookupName; returns the status, sets *id */
static int lookup1(const char *name, pmID *id)
{
    *id = 0x12345678; /* must be overwritten */
    return pmLookupName(1, &name, id);
}

static void do_lookup1(const char *label, const char *name)
{
    pmID id;
    int sts = lookup1(name, &id);
    printf("lookup %s -> ", label);
    psts(sts);
    printf(" %s\n", pmIDStr(id));
}

/* multi-name pmLookupName */
static void do_lookupn(const char *label, int n, const char **names)
{
    pmID *ids = xmalloc((size_t)(n > 0 ? n : 1) * sizeof(pmID));
    for (int i = 0; i < n; i++)
        ids[i] = 0x12345678;
    int sts = pmLookupName(n, names, ids);
    printf("lookup[%d] %s -> ", n, label);
    psts(sts);
    printf(":");
    for (int i = 0; i < n; i++)
        printf(" %s", pmIDStr(ids[i]));
    printf("\n");
    free(ids);
}

static void do_nameid(const char *label, pmID id)
{
    char *name = NULL;
    char **all = NULL;
    int sts = pmNameID(id, &name);
    printf("pmid %s: nameid -> ", label);
    psts(sts);
    if (sts >= 0)
        printf(" \"%s\"", name ? name : "(NULL)");
    free(name);
    sts = pmNameAll(id, &all);
    printf("; nameall -> ");
    psts(sts);
    if (sts > 0) {
        printf(":");
        for (int i = 0; i < sts; i++)
            printf(" %s", all[i]);
    }
    printf("\n");
    free(all);
}

/* ------------------------------------------------------------------ */
/* the dump                                                             */
/* ------------------------------------------------------------------ */

/* quoted label for a name (names may be empty or contain spaces) */
static char *qlabel(const char *name)
{
    if (name == NULL)
        return xstrdup("NULL");
    size_t n = strlen(name);
    char *s = xmalloc(n + 3);
    s[0] = '"';
    memcpy(s + 1, name, n);
    s[n + 1] = '"';
    s[n + 2] = '\0';
    return s;
}

static void lookup_q(const char *name)
{
    char *l = qlabel(name);
    do_lookup1(l, name);
    free(l);
}

static void children_q(const char *name)
{
    char *l = qlabel(name);
    do_children(l, name);
    free(l);
}

static void traverse_q(const char *name, int full)
{
    char *l = qlabel(name);
    do_traverse(l, name, full);
    free(l);
}

static char *concat(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    char *s = xmalloc(na + nb + 1);
    memcpy(s, a, na);
    memcpy(s + na, b, nb + 1);
    return s;
}

static int pmid_seen(const pmID *ids, int n, pmID id)
{
    for (int i = 0; i < n; i++)
        if (ids[i] == id)
            return 1;
    return 0;
}

static void dump(void)
{
    strlist names = {0};
    int sts, n;

    sts = pmGetPMNSLocation();
    printf("location -> ");
    psts(sts);
    printf("\n");

    /* the whole tree */
    sl_free(&trav_names);
    sts = pmTraversePMNS("", trav_cb);
    names = trav_names;
    trav_names = (strlist){0};
    n = names.n;
    printf("traverse \"\" -> ");
    psts(sts);
    printf(" (%d names)\n", n);
    print_list(&names);
    {
        strlist r = {0};
        sts = pmTraversePMNS_r("", trav_cb_r, &r);
        printf("traverse_r \"\" -> ");
        psts(sts);
        printf(" %s\n", sl_equal(&r, &names) ? "same names" : "DIFFERENT names:");
        if (!sl_equal(&r, &names))
            print_list(&r);
        sl_free(&r);
    }

    /* every traversed name */
    pmID *ids = xmalloc((size_t)(n ? n : 1) * sizeof(pmID));
    int *lsts = xmalloc((size_t)(n ? n : 1) * sizeof(int));
    pmID *distinct = xmalloc((size_t)(n ? n : 1) * sizeof(pmID));
    int ndistinct = 0;
    strlist dynroots = {0};
    const char *first_leaf = NULL, *last_leaf = NULL;
    for (int i = 0; i < n; i++) {
        const char *nm = names.v[i];
        char **kids = NULL;
        int *stat = NULL;
        lsts[i] = lookup1(nm, &ids[i]);
        int csts = pmGetChildrenStatus(nm, &kids, &stat);
        printf("name %s: lookup -> ", nm);
        psts(lsts[i]);
        printf(" %s; children -> ", pmIDStr(ids[i]));
        psts(csts);
        printf(" offspring=%s status=%s", kids ? "set" : "NULL", stat ? "set" : "NULL");
        for (int k = 0; k < csts; k++)
            printf(" %s/%d", kids[k], stat[k]);
        printf("\n");
        free(kids);
        free(stat);
        if (lsts[i] == 1) {
            if (!pmid_seen(distinct, ndistinct, ids[i]))
                distinct[ndistinct++] = ids[i];
            if (IS_DYNAMIC_ROOT(ids[i]))
                sl_add(&dynroots, nm);
            else {
                if (first_leaf == NULL)
                    first_leaf = nm;
                last_leaf = nm;
            }
        }
        if (i < 2000)
            traverse_q(nm, 0);
    }

    /* reverse lookups, once per distinct PMID */
    for (int i = 0; i < ndistinct; i++)
        do_nameid(pmIDStr(distinct[i]), distinct[i]);

    /* all names in one call */
    if (n > 0) {
        pmID *ids2 = xmalloc((size_t)n * sizeof(pmID));
        int nok = 0, same = 1;
        for (int i = 0; i < n; i++) {
            ids2[i] = 0x12345678;
            if (lsts[i] == 1)
                nok++;
        }
        sts = pmLookupName(n, (const char **)names.v, ids2);
        for (int i = 0; i < n; i++)
            if (ids2[i] != (lsts[i] == 1 ? ids[i] : PM_ID_NULL))
                same = 0;
        printf("lookup[all %d] -> ", n);
        psts(sts);
        printf(" (%d found singly), pmids %s\n", nok, same ? "same as single lookups" : "DIFFER:");
        if (!same)
            for (int i = 0; i < n; i++)
                printf("    %s %s\n", names.v[i], pmIDStr(ids2[i]));
        free(ids2);
    }

    /* "" and every proper prefix of a traversed name */
    strset seen = {0};
    strlist prefixes = {0};
    ss_add(&seen, "");
    sl_add(&prefixes, "");
    for (int i = 0; i < n; i++) {
        char *tmp = xstrdup(names.v[i]);
        for (char *p = tmp; *p; p++) {
            if (*p != '.')
                continue;
            *p = '\0';
            if (ss_add(&seen, tmp))
                sl_add(&prefixes, tmp);
            *p = '.';
        }
        free(tmp);
    }
    ss_free(&seen);
    printf("non-leaf prefixes: %d\n", prefixes.n);
    for (int i = 0; i < prefixes.n; i++) {
        children_q(prefixes.v[i]);
        lookup_q(prefixes.v[i]);
        traverse_q(prefixes.v[i], 1);
    }

    /* below the dynamic roots */
    for (int i = 0; i < dynroots.n; i++) {
        const char *d = dynroots.v[i];
        static const char *const sfx[] = {".x", ".x.y", ".", ".x.", "..x", ".*"};
        children_q(d);
        for (int k = 0; k < NELEM(sfx); k++) {
            char *s = concat(d, sfx[k]);
            lookup_q(s);
            if (k < 2) {
                children_q(s);
                traverse_q(s, 1);
            }
            free(s);
        }
    }

    /* odd names */
    {
        const char *leaf = first_leaf ? first_leaf : "zzz";
        const char *nonleaf = prefixes.n > 1 ? prefixes.v[1] : "yyy";
        const char *dyn = dynroots.n ? dynroots.v[0] : "xxx";
        char *leaf_dot = concat(leaf, ".");
        char *dot_leaf = concat(".", leaf);
        char *leaf_x = concat(leaf, ".x");
        char *root_leaf = concat("root.", leaf);
        char *nonleaf_dot = concat(nonleaf, ".");
        char *dot_nonleaf = concat(".", nonleaf);
        char *leaf_sp = concat(leaf, " ");
        char *sp_leaf = concat(" ", leaf);
        char *dyn_x_y = concat(dyn, ".x.y");
        const char *odd[] = {
            "",
            ".",
            "..",
            "root",
            "root.",
            root_leaf,
            leaf_dot,
            dot_leaf,
            leaf_x,
            nonleaf_dot,
            dot_nonleaf,
            leaf_sp,
            sp_leaf,
            "no_such_metric",
            "no.such.metric",
            "a b",
            "*",
            "event",
            "event.",
            "event.flags",
            "event.missed",
            "event.flags.x",
            "EVENT.FLAGS",
            "Root",
        };
        for (int k = 0; k < NELEM(odd); k++) {
            lookup_q(odd[k]);
            children_q(odd[k]);
            traverse_q(odd[k], 1);
        }
        do_children("NULL", NULL);
        do_traverse("NULL", NULL, 1);
        do_children_nostatus("\"\"", "");
        do_children_nostatus("leaf", leaf);
        do_children_nostatus("nonleaf", nonleaf);
        do_children_nostatus("unknown", "no.such.metric");
        do_children_nostatus("NULL", NULL);

        /* several names per call */
        const char *m1[] = {leaf,
                            "",
                            "no.such.metric",
                            nonleaf,
                            dyn_x_y,
                            last_leaf ? last_leaf : "www",
                            "event.flags",
                            "event",
                            "root",
                            dyn};
        do_lookupn("mixed", NELEM(m1), m1);
        const char *m2[] = {leaf, "no.such.metric"};
        do_lookupn("leaf+unknown", NELEM(m2), m2);
        const char *m3[] = {"no.such.metric", nonleaf, ""};
        do_lookupn("unknown+nonleaf+empty", NELEM(m3), m3);
        const char *m4[] = {leaf, "event.flags"};
        do_lookupn("leaf+derived", NELEM(m4), m4);
        const char *m5[] = {leaf, "no.such.metric", "event.missed"};
        do_lookupn("leaf+unknown+derived", NELEM(m5), m5);
        const char *m6[] = {"no.such.metric", "event.missed"};
        do_lookupn("unknown+derived", NELEM(m6), m6);
        const char *m7[] = {dyn_x_y, dyn, dyn_x_y};
        do_lookupn("dynamic", NELEM(m7), m7);
        const char *m8[] = {nonleaf};
        do_lookupn("nonleaf", NELEM(m8), m8);
        const char *m9[] = {leaf, leaf, leaf};
        do_lookupn("same leaf thrice", NELEM(m9), m9);
        do_lookupn("numpmid 0", 0, m1);
        do_lookupn("numpmid -1", -1, m1);

        free(leaf_dot);
        free(dot_leaf);
        free(leaf_x);
        free(root_leaf);
        free(nonleaf_dot);
        free(dot_nonleaf);
        free(leaf_sp);
        free(sp_leaf);
        free(dyn_x_y);
    }

    /* odd PMIDs */
    {
        static const unsigned int cand[][3] = {
            {0, 0, 0}, {1, 0, 0}, {1, 2, 3}, {510, 4095, 1023}, {255, 0, 1}, {29, 0, 7},
        };
        for (int k = 0; k < NELEM(cand); k++) {
            pmID id = pmID_build(cand[k][0], cand[k][1], cand[k][2]);
            if (!pmid_seen(distinct, ndistinct, id))
                do_nameid(pmIDStr(id), id);
        }
        do_nameid("PM_ID_NULL", PM_ID_NULL);
        /* dynamic roots: one per domain seen, plus some unused domains */
        for (int i = 0; i < ndistinct; i++) {
            if (!IS_DYNAMIC_ROOT(distinct[i]))
                continue;
            char lab[64];
            snprintf(lab, sizeof lab, "dynroot(%s)", pmIDStr(distinct[i]));
            do_nameid(lab, distinct[i]);
        }
        static const unsigned int dom[] = {0, 1, 33, 510};
        for (int k = 0; k < NELEM(dom); k++) {
            pmID id = pmID_build(DYNAMIC_PMID, dom[k], 0);
            if (pmid_seen(distinct, ndistinct, id))
                continue;
            char lab[64];
            snprintf(lab, sizeof lab, "dynroot(%s)", pmIDStr(id));
            do_nameid(lab, id);
        }
        /* derived: event.flags is 511.0.1, event.missed 511.0.2 */
        do_nameid("derived 511.0.1", pmID_build(DYNAMIC_PMID, 0, 1));
        do_nameid("derived 511.0.2", pmID_build(DYNAMIC_PMID, 0, 2));
        do_nameid("derived 511.0.3", pmID_build(DYNAMIC_PMID, 0, 3));
    }

    free(ids);
    free(lsts);
    free(distinct);
    sl_free(&dynroots);
    sl_free(&prefixes);
    sl_free(&names);
}

static int load(const char *mode, const char *file)
{
    if (strcmp(mode, "raw") == 0)
        return pmLoadNameSpace(file);
    if (strcmp(mode, "ascii") == 0)
        return pmLoadASCIINameSpace(file, 1);
    return pmLoadASCIINameSpace(file, 0);
}

/* after an unload (or a failed load): every name service */
static void after_unload(const char *what, const char *name)
{
    printf("-- %s\n", what);
    printf("location -> ");
    psts(pmGetPMNSLocation());
    printf("\n");
    do_lookup1("\"name\"", name);
    do_children("\"\"", "");
    do_children("\"name\"", name);
    do_traverse("\"\"", "", 1);
    do_nameid("1.0.1", pmID_build(1, 0, 1));
    do_lookup1("\"event.flags\"", "event.flags");
    do_nameid("derived 511.0.1", pmID_build(DYNAMIC_PMID, 0, 1));
    do_nameid("derived 511.0.3", pmID_build(DYNAMIC_PMID, 0, 3));
}

/* traverse "" into a fresh list */
static int traverse_all(strlist *out)
{
    return pmTraversePMNS_r("", trav_cb_r, out);
}

int main(int argc, char **argv)
{
    const char *mode, *file;
    int sts;

    if (argc < 3 || (strcmp(argv[1], "ascii") != 0 && strcmp(argv[1], "ascii-nodup") != 0 &&
                     strcmp(argv[1], "raw") != 0)) {
        fprintf(stderr, "Usage: probe_pmns ascii|ascii-nodup|raw FILE [NAME...]\n");
        return 2;
    }
    mode = argv[1];
    file = argv[2];
    setvbuf(stdout, NULL, _IOFBF, 1 << 16);

    sts = load(mode, file);
    printf("load %s -> ", mode);
    psts(sts);
    printf("\n");
    if (sts < 0) {
        /*
         * After an error found while building the tree (missing or multiple
         * root, undefined non-leaf, disconnected subtree, duplicate PMID)
         * PCP leaves the half-built namespace installed: pmGetPMNSLocation
         * says PMNS_LOCAL, loads fail with PM_ERR_DUPPMNS and name lookups
         * crash until pmUnloadNameSpace.  pmkit leaves nothing installed
         * (docs/compat.md), so that state is not probed here; the unit
         * tests check pmkit's behaviour.
         */
        pmUnloadNameSpace();
        after_unload("after failed load and unload", "a");
        printf("reload %s -> ", mode);
        psts(load(mode, file));
        printf("\n");
        pmUnloadNameSpace();
        fflush(stdout);
        return 1;
    }

    dump();

    /* extra names from the command line */
    for (int i = 3; i < argc; i++)
        lookup_q(argv[i]);
    if (argc > 3)
        do_lookupn("command line", argc - 3, (const char **)argv + 3);

    /* the first name for the after-unload calls */
    strlist first = {0};
    sts = traverse_all(&first);
    const char *name = first.n ? first.v[0] : "a";
    char *name_copy = xstrdup(name);

    /* loading again while loaded */
    printf("-- while loaded\n");
    printf("pmLoadNameSpace -> ");
    psts(pmLoadNameSpace(file));
    printf("\npmLoadASCIINameSpace(dupok 1) -> ");
    psts(pmLoadASCIINameSpace(file, 1));
    printf("\npmLoadASCIINameSpace(dupok 0) -> ");
    psts(pmLoadASCIINameSpace(file, 0));
    printf("\npmLoadNameSpace(missing) -> ");
    psts(pmLoadNameSpace("/nonexistent/pmns/file"));
    printf("\n");
    do_lookup1("\"name\" still", name_copy);

    pmUnloadNameSpace();
    after_unload("after unload", name_copy);
    pmUnloadNameSpace();
    after_unload("after second unload", name_copy);

    /* reload: same names (not for ascii-nodup: one more pmcpp run for PCP
     * and nothing that ascii does not test) */
    int reload = strcmp(mode, "ascii-nodup") != 0;
    if (reload) {
        sts = load(mode, file);
        printf("-- reload %s -> ", mode);
        psts(sts);
        printf("\n");
    }
    if (reload && sts >= 0) {
        strlist again = {0};
        sts = traverse_all(&again);
        printf("traverse \"\" -> ");
        psts(sts);
        printf(" %s\n", sl_equal(&again, &first) ? "same names" : "DIFFERENT names");
        sl_free(&again);
        do_lookup1("\"name\"", name_copy);
    }
    pmUnloadNameSpace();

    /* missing files */
    printf("-- missing file\n");
    printf("pmLoadNameSpace -> ");
    psts(pmLoadNameSpace("/nonexistent/pmns/file"));
    printf("\npmLoadASCIINameSpace -> ");
    psts(pmLoadASCIINameSpace("/nonexistent/pmns/file", 1));
    printf("\n");
    after_unload("after missing file", name_copy);

    /* the default namespace (read raw) */
    if (strcmp(mode, "raw") == 0) {
        printf("-- PMNS_DEFAULT=FILE\n");
        setenv("PMNS_DEFAULT", file, 1);
        for (int k = 0; k < 3; k++) {
            if (k == 0)
                sts = pmLoadNameSpace(PM_NS_DEFAULT);
            else
                sts = pmLoadASCIINameSpace(PM_NS_DEFAULT, k == 1);
            printf("%s(PM_NS_DEFAULT%s) -> ", k == 0 ? "pmLoadNameSpace" : "pmLoadASCIINameSpace",
                   k == 0   ? ""
                   : k == 1 ? ", 1"
                            : ", 0");
            psts(sts);
            if (sts >= 0) {
                strlist again = {0};
                sts = traverse_all(&again);
                printf("; traverse \"\" -> ");
                psts(sts);
                printf(" %s", sl_equal(&again, &first) ? "same names" : "DIFFERENT names");
                sl_free(&again);
            }
            printf("\n");
            pmUnloadNameSpace();
        }
    }

    free(name_copy);
    sl_free(&first);
    fflush(stdout);
    return 0;
}
