/*
 * probe_optfetch.c - PCP's fetch-group optimiser (__pmOptFetchAdd, Del,
 * Redo, Dump, GetParams, PutParams), built against pmkit's libpcp and
 * Debian's (compare.sh wants the same output).  Sequences of requests made
 * from a fixed seed (metrics of a few domains, instance domains or none,
 * instance lists all, short, long, unordered, repeated) are added, deleted
 * and regrouped under several sets of cost parameters; after each step the
 * groups are printed by __pmOptFetchDump and by walking the structures
 * (states, costs, pmID lists, profiles, back pointers, the answer of Del,
 * also for requests in no group and deleted twice).  A second run lets a
 * metric come with different instance domains.  __pmOptFetchRedo's
 * lrand48() calls are the same on both sides as long as they agree.  A
 * structure built by hand is dumped with every state bit and odd lists.
 * Addresses in the dumps become names: R<n> for request n, A<n> for the
 * n-th other address seen in one dump (PROBE_RAW set: left as they are).
 * With -i, commands come from stdin instead (params, add, del, redo, dump;
 * for study).
 */
#include <pcp/pmapi.h>
#include "libpcp.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_rng.h"

#define MAXREQ 64

static optreq_t req[MAXREQ];
static pmDesc desc[MAXREQ];
static int added[MAXREQ];
static fetchctl_t *root;
static int mixed;

/* The address ADDR as a name: a request's index, else its order in SEEN. */
static void name_addr(FILE *out, const char *addr, char seen[][24], int *nseen)
{
    void *p = NULL;
    int i;

    sscanf(addr, "%p", &p);
    for (i = 0; i < MAXREQ; i++)
        if (p == (void *)&req[i]) {
            fprintf(out, "R%d", i);
            return;
        }
    for (i = 0; i < *nseen; i++)
        if (strcmp(seen[i], addr) == 0)
            break;
    if (i == *nseen && *nseen < 256)
        strcpy(seen[(*nseen)++], addr);
    fprintf(out, "A%d", i);
}

/* __pmOptFetchDump's text with its addresses named. */
static void dump(void)
{
    char *text = NULL, *s;
    size_t len = 0;
    static char seen[256][24];
    int nseen = 0;
    FILE *f = open_memstream(&text, &len);

    if (f == NULL)
        exit(1);
    __pmOptFetchDump(f, root);
    fclose(f);
    if (getenv("PROBE_RAW") != NULL)
        nseen = -1000;
    for (s = text; *s;) {
        if (nseen >= 0 && s[0] == '0' && s[1] == 'x' && isxdigit((unsigned char)s[2])) {
            char addr[24];
            size_t n = 2;
            while (isxdigit((unsigned char)s[n]) && n < sizeof(addr) - 1)
                n++;
            memcpy(addr, s, n);
            addr[n] = '\0';
            name_addr(stdout, addr, seen, &nseen);
            s += n;
        } else
            putchar(*s++);
    }
    free(text);
}

static void print_insts(int n, const int *list)
{
    printf("[%d]", n);
    for (int i = 0; i < n; i++)
        printf(" %d", list[i]);
}

/* The groups walked: what a caller such as pmlogger reads of them. */
static void walk(void)
{
    int g = 0;

    for (fetchctl_t *fp = root; fp != NULL; fp = fp->f_next, g++) {
        printf("group %d: state %d cost %d newcost %d pmids", g, fp->f_state, fp->f_cost,
               fp->f_newcost);
        print_insts(fp->f_numpmid, (const int *)fp->f_pmidlist);
        putchar('\n');
        for (indomctl_t *idp = fp->f_idp; idp != NULL; idp = idp->i_next) {
            printf("  indom %s profile ", pmInDomStr(idp->i_indom));
            print_insts(idp->i_numinst, idp->i_instlist);
            putchar('\n');
            for (pmidctl_t *pmp = idp->i_pmp; pmp != NULL; pmp = pmp->p_next) {
                printf("    pmid %s ", pmIDStr(pmp->p_pmid));
                print_insts(pmp->p_numinst, pmp->p_instlist);
                printf(" requests");
                for (optreq_t *rqp = pmp->p_rqp; rqp != NULL; rqp = rqp->r_next)
                    printf(" %d%s", (int)(rqp - req), rqp->r_fetch == fp ? "" : "(other group)");
                putchar('\n');
            }
        }
        fp->f_state &= ~OPT_STATE_UMASK;
    }
}

static void show(void)
{
    dump();
    walk();
    fflush(stdout);
}

static void params(int c_pmid, int c_indom, int c_fetch, int c_indomsize, int c_xtrainst,
                   int c_scope)
{
    optcost_t ocp = {c_pmid, c_indom, c_fetch, c_indomsize, c_xtrainst, c_scope};

    __pmOptFetchPutParams(&ocp);
    memset(&ocp, 0, sizeof(ocp));
    __pmOptFetchGetParams(&ocp);
    printf("params %d %d %d %d %d %d\n", ocp.c_pmid, ocp.c_indom, ocp.c_fetch, ocp.c_indomsize,
           ocp.c_xtrainst, ocp.c_scope);
}

static void set_request(int i, int dom, int item, pmInDom indom, int numinst, const int *insts)
{
    free(req[i].r_instlist);
    memset(&req[i], 0, sizeof(req[i]));
    desc[i].pmid = pmID_build(dom, 0, item);
    desc[i].type = PM_TYPE_32;
    desc[i].indom = indom;
    desc[i].sem = PM_SEM_INSTANT;
    memset(&desc[i].units, 0, sizeof(desc[i].units));
    req[i].r_desc = &desc[i];
    req[i].r_numinst = numinst;
    if (numinst > 0) {
        req[i].r_instlist = malloc(numinst * sizeof(int));
        if (req[i].r_instlist == NULL)
            exit(1);
        memcpy(req[i].r_instlist, insts, numinst * sizeof(int));
    }
}

static void add(int i)
{
    printf("add %d: %s %s ", i, pmIDStr(desc[i].pmid), pmInDomStr(desc[i].indom));
    print_insts(req[i].r_numinst, req[i].r_instlist);
    putchar('\n');
    __pmOptFetchAdd(&root, &req[i]);
    added[i] = 1;
    show();
}

static void del(int i)
{
    int sts = __pmOptFetchDel(&root, &req[i]);
    printf("del %d: %d, r_fetch %s, r_next %s\n", i, sts, req[i].r_fetch == NULL ? "NULL" : "set",
           req[i].r_next == NULL ? "NULL" : "set");
    added[i] = 0;
    show();
}

static void redo(void)
{
    printf("redo\n");
    __pmOptFetchRedo(&root);
    show();
}

/* Commands from stdin: params P I F S X C | add N DOM ITEM IDOM ISER INST... |
 * del N | redo | dump  (ISER -1: no instance domain; no INST: all). */
static int interactive(void)
{
    char line[1024];

    while (fgets(line, sizeof(line), stdin) != NULL) {
        int v[40], n = 0, off = 0, k;
        char cmd[16];
        if (sscanf(line, "%15s%n", cmd, &off) != 1)
            continue;
        while (n < 40 && sscanf(line + off, "%d%n", &v[n], &k) == 1) {
            off += k;
            n++;
        }
        if (strcmp(cmd, "params") == 0 && n == 6)
            params(v[0], v[1], v[2], v[3], v[4], v[5]);
        else if (strcmp(cmd, "add") == 0 && n >= 5 && v[0] >= 0 && v[0] < MAXREQ) {
            pmInDom indom = v[4] < 0 ? PM_INDOM_NULL : pmInDom_build(v[3], v[4]);
            set_request(v[0], v[1], v[2], indom, n - 5, v + 5);
            add(v[0]);
        } else if (strcmp(cmd, "del") == 0 && n == 1 && v[0] >= 0 && v[0] < MAXREQ)
            del(v[0]);
        else if (strcmp(cmd, "redo") == 0)
            redo();
        else if (strcmp(cmd, "dump") == 0)
            show();
        else
            printf("? %s", line);
    }
    return 0;
}

/* A random request N: one of a few metrics, its instance domain or none,
 * all instances or a list of up to 12 (unordered, repeats possible). */
static void random_request(int n)
{
    int dom = 1 + rnd(3), item = rnd(4), insts[16], numinst = 0;
    pmInDom indom = PM_INDOM_NULL;

    /* one instance domain to a metric, as its descriptor has it (mixed:
     * any, the same metric in several) */
    if (mixed ? rnd(5) != 0 : (dom + item) % 5 != 0)
        indom = pmInDom_build(dom + (mixed ? (int)rnd(2) : item >> 1), 1 + (item & 1));
    if ((indom != PM_INDOM_NULL && rnd(3) != 0) || rnd(20) == 0) {
        numinst = 1 + rnd(rnd(2) ? 4 : 12);
        for (int j = 0; j < numinst; j++)
            insts[j] = rnd(3) ? (int)rnd(14) : rnd(9) ? j : (int)rnd(5) - 3;
    }
    set_request(n, dom, item, indom, numinst, insts);
}

static void sequence(int nreq, int nstep)
{
    for (int i = 0; i < MAXREQ; i++)
        added[i] = 0;
    root = NULL;
    for (int s = 0; s < nstep; s++) {
        int i = rnd(nreq), r = rnd(20);
        if (r == 0)
            redo();
        else if (added[i] && r < 8) {
            del(i);
            /* again, while the group it was in is still there */
            for (fetchctl_t *fp = root; fp != NULL && r == 1; fp = fp->f_next)
                if (fp == req[i].r_fetch) {
                    del(i);
                    break;
                }
        } else if (!added[i] && r == 8) {
            random_request(i); /* never added */
            del(i);
        } else if (!added[i]) {
            random_request(i);
            add(i);
        }
    }
    for (int i = 0; i < nreq; i++)
        if (added[i])
            del(i);
}

/* A group made by hand: each state bit, lists absent or empty, odd
 * identifiers. */
static void hand_dump(void)
{
    static int il[3] = {7, -8, 9};
    static pmID pl[2] = {PM_ID_NULL, 0};
    pmidctl_t pmp = {NULL, &req[0], PM_ID_NULL, 2, NULL, NULL};
    indomctl_t idp = {NULL, &pmp, 12345, -1, il, NULL};
    fetchctl_t fc = {NULL, &idp, 0, -5, 0, 2, pl, NULL};

    set_request(0, 1, 1, PM_INDOM_NULL, 0, NULL);
    req[0].r_instlist = il;
    root = &fc;
    for (int b = 0; b <= 9; b++) {
        fc.f_state = b == 9 ? -1 : 1 << b;
        dump();
    }
    fc.f_numpmid = 0;
    fc.f_pmidlist = NULL;
    idp.i_pmp = NULL;
    dump();
    fc.f_idp = NULL;
    dump();
    root = NULL;
    dump();
    req[0].r_instlist = NULL;
}

int main(int argc, char **argv)
{
    static const int sets[][6] = {
        {4, 1, 15, 10, 2, 0}, {1, 1, 1, 1, 1, 0},   {10, 10, 5, 20, 1, 0}, {2, 5, 50, 5, 3, 0},
        {4, 1, 15, 10, 2, 1}, {0, 0, 0, 0, 0, 0},   {3, 2, 8, 6, 1, 2},    {5, 0, 0, 0, 4, 0},
        {1, 9, 12, 3, -2, 0}, {2, 2, 10, 8, 1, -1},
    };
    optcost_t ocp;

    pmSetProgname(argv[0]);
    __pmOptFetchGetParams(&ocp);
    printf("defaults %d %d %d %d %d %d\n", ocp.c_pmid, ocp.c_indom, ocp.c_fetch, ocp.c_indomsize,
           ocp.c_xtrainst, ocp.c_scope);
    if (argc > 1 && strcmp(argv[1], "-i") == 0)
        return interactive();
    hand_dump();
    rng_state = 29;
    for (mixed = 0; mixed < 2; mixed++) {
        printf("=== %s\n", mixed ? "a metric in several instance domains" : "consistent");
        for (size_t k = 0; k < sizeof(sets) / sizeof(sets[0]); k++) {
            params(sets[k][0], sets[k][1], sets[k][2], sets[k][3], sets[k][4], sets[k][5]);
            for (int t = 0; t < 6; t++)
                sequence(4 + rnd(12), 30 + rnd(40));
        }
    }
    return 0;
}
