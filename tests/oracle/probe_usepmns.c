/*
 * probe_usepmns.c - a namespace tree built by hand (__pmNewPMNS,
 * __pmAddPMNSNode, __pmFixPMNSHashTab) made the namespace in use with
 * __pmUsePMNS, and __pmShutdown, built against pmkit's libraries and
 * Debian's (compare.sh wants the same output): names looked up both ways,
 * children with their status, traversals, the namespace's location, what
 * unloading does while a tree is in use, another tree in its place; then
 * contexts, and what __pmShutdown leaves of them.  (PCP's crashes on a
 * NULL tree; it also reads a tree live, changes made after the call
 * included, where pmkit takes the names it holds at the call.)
 */
#include <pcp/pmapi.h>
#include "libpcp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void walk(const char *name)
{
    printf("    leaf %s\n", name);
}

static void ask(const char *title)
{
    static const char *names[] = {"abc.def.ghi", "abc.def.jkl",   "abc.mno",
                                  "pqr.rst.uvw", "pqr.xyz",       "abc",
                                  "nosuch",      "abc.def.ghi.x", "sample.long.one"};
    static const char *const parents[] = {"", "abc", "pqr", "abc.def", "def", "abc.def.ghi"};
    static const pmID pmids[] = {100, 200, 300, 400, 500, 600, PM_ID_NULL};

    printf("=== %s: location %d\n", title, pmGetPMNSLocation());
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        pmID pmid = 12345;
        int sts = pmLookupName(1, &names[i], &pmid);
        printf("  lookup %s -> %d %s\n", names[i], sts, sts < 0 ? pmErrStr(sts) : pmIDStr(pmid));
    }
    for (size_t i = 0; i < sizeof(pmids) / sizeof(pmids[0]); i++) {
        char *name = NULL, **all = NULL;
        int sts = pmNameID(pmids[i], &name), n;
        printf("  name %u -> %d %s", pmids[i], sts, sts < 0 ? pmErrStr(sts) : name);
        if (sts >= 0)
            free(name);
        n = pmNameAll(pmids[i], &all);
        printf("; all %d:", n);
        for (int j = 0; j < n; j++)
            printf(" %s", all[j]);
        putchar('\n');
        if (n > 0)
            free(all);
    }
    for (size_t i = 0; i < sizeof(parents) / sizeof(parents[0]); i++) {
        char **kids = NULL;
        int *status = NULL;
        int n = pmGetChildrenStatus(parents[i], &kids, &status), sts;
        printf("  children of \"%s\" -> %d", parents[i], n);
        if (n < 0)
            printf(" %s", pmErrStr(n));
        for (int j = 0; j < n; j++)
            printf(" %s/%d", kids[j], status[j]);
        putchar('\n');
        if (n > 0) {
            free(kids);
            free(status);
        }
        sts = pmTraversePMNS(parents[i], walk);
        printf("    traverse -> %d%s%s\n", sts, sts < 0 ? " " : "", sts < 0 ? pmErrStr(sts) : "");
    }
}

static __pmnsTree *tree(int which)
{
    static const struct {
        const char *name;
        pmID pmid;
    } m0[] = {{"abc.def.ghi", 100}, {"abc.def.jkl", 200}, {"abc.mno", 300},
              {"pqr.rst.uvw", 400}, {"pqr.xyz", 500},     {"abc.alias", 100}},
      m1[] = {{"zed.one", 600}, {"abc.mno", 300}, {"zed.two", 100}};
    __pmnsTree *t = NULL;
    int sts = __pmNewPMNS(&t);
    size_t n = which == 0 ? sizeof(m0) / sizeof(m0[0]) : sizeof(m1) / sizeof(m1[0]);

    printf("__pmNewPMNS -> %d\n", sts);
    for (size_t i = 0; i < n; i++) {
        const char *name = which == 0 ? m0[i].name : m1[i].name;
        pmID pmid = which == 0 ? m0[i].pmid : m1[i].pmid;
        printf("__pmAddPMNSNode %s -> %d\n", name, __pmAddPMNSNode(t, (int)pmid, name));
    }
    printf("__pmFixPMNSHashTab -> %d\n", __pmFixPMNSHashTab(t, (int)n, 1));
    return t;
}

int main(void)
{
    __pmnsTree *t0, *t1;
    int ctx, sts;

    setvbuf(stdout, NULL, _IONBF, 0);
    setenv("PCP_DERIVED_CONFIG", "", 1);         /* no derived metrics' names */
    setenv("PCP_PMCDCONF_PATH", "/dev/null", 1); /* local contexts, no agents */
    ask("nothing loaded");
    t0 = tree(0);
    __pmUsePMNS(t0);
    ask("first tree in use");
    __pmDumpNameSpace(stdout, 1);
    t1 = tree(1);
    __pmUsePMNS(t1);
    ask("second tree in use");
    pmUnloadNameSpace();
    ask("after pmUnloadNameSpace");
    __pmUsePMNS(t0);
    ask("first tree again");
    pmUnloadNameSpace();
    __pmFreePMNS(t1);

    sts = __pmShutdown();
    printf("__pmShutdown with a tree in use -> %d\n", sts);
    ask("after __pmShutdown");

    ctx = pmNewContext(PM_CONTEXT_LOCAL, NULL);
    printf("pmNewContext local -> %d\n", ctx >= 0 ? 0 : ctx);
    printf("pmWhichContext -> %d\n", pmWhichContext() == ctx ? 0 : -1);
    sts = __pmShutdown();
    printf("__pmShutdown -> %d\n", sts);
    sts = pmWhichContext();
    printf("pmWhichContext after -> %d %s\n", sts < 0 ? sts : 0, sts < 0 ? pmErrStr(sts) : "");
    sts = pmUseContext(ctx);
    printf("pmUseContext after -> %d %s\n", sts, sts < 0 ? pmErrStr(sts) : "");
    sts = pmDestroyContext(ctx);
    printf("pmDestroyContext after -> %d %s\n", sts, sts < 0 ? pmErrStr(sts) : "");
    sts = __pmShutdown();
    printf("__pmShutdown again -> %d\n", sts);
    ctx = pmNewContext(PM_CONTEXT_LOCAL, NULL);
    printf("pmNewContext local after -> %d\n", ctx >= 0 ? 0 : ctx);
    __pmFreePMNS(t0); /* PCP's still reads it: only at the end */
    return 0;
}
