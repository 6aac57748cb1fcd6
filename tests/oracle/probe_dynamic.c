/*
 * probe_dynamic.c - dynamic namespaces on the agent side: the test agent
 * dyn_agent.c (domain 247), whose two dynamic subtrees are built with
 * pmdaTree* and pmdaDynamic*, asked every question, against each library.
 *
 *   probe_dynamic direct AGENT_SO        dlopen the agent, call dyn_init and its
 *                                        methods (pmid, name, children, desc,
 *                                        fetch, text) directly; the agent prints
 *                                        each callback libpcp_pmda makes
 *   probe_dynamic local PMNS AGENT_SO    the agent in a local context: what
 *                                        libpcp routes by domain (desc, fetch,
 *                                        text of dynamic PMIDs) and static names
 *   probe_dynamic names PMNS AGENT_SO INIT
 *                                        names at and below the dynamic roots
 *                                        through a local context (pmLookupName
 *                                        alone and in batches, pmNameID,
 *                                        pmNameAll, pmGetChildren(Status),
 *                                        pmTraversePMNS(_r)), with the agent
 *                                        of interface 7 (INIT dyn_init), of
 *                                        interface 3 (dyn_init3), missing
 *                                        (none), or no context at all (noctx);
 *                                        the agent prints each names method
 *                                        libpcp calls
 *
 * The output of each mode must be the same with both libraries.
 */
#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DOM 247

static const char *err(int sts)
{
    static char buf[PM_MAXERRMSGLEN];
    if (sts >= 0)
        snprintf(buf, sizeof(buf), "%d", sts);
    else
        pmErrStr_r(sts, buf, sizeof(buf));
    return buf;
}

static const char *const names[] = {
    "dyn.group.alpha.value",
    "dyn.group.beta.label",
    "dyn.group.gamma.value",
    "dyn.group",
    "dyn.group.alpha",
    "dyn.group.zeta.value",
    "dyn.other.x",
    "dyn.other",
    "dyn.bogus",
    "dyn.static.count",
    "dyn.group.delta.label",
};
#define NNAMES ((int)(sizeof(names) / sizeof(names[0])))

static const pmID *pmids(void)
{
    static pmID v[9];
    v[0] = pmID_build(DOM, 0, 0);
    v[1] = pmID_build(DOM, 1, 0);
    v[2] = pmID_build(DOM, 1, 1);
    v[3] = pmID_build(DOM, 1, 16);
    v[4] = pmID_build(DOM, 1, 17);
    v[5] = pmID_build(DOM, 1, 33);
    v[6] = pmID_build(DOM, 1, 48);
    v[7] = pmID_build(DOM, 2, 0);
    v[8] = pmID_build(DOM, 3, 3);
    return v;
}
#define NPMIDS 9

static void print_list(int n, char **list, const int *sts)
{
    for (int i = 0; i < n; i++)
        printf(" %s%s", list[i], sts == NULL ? "" : sts[i] ? "/1" : "/0");
    printf("\n");
}

static void print_value(const pmValueSet *vs, int type)
{
    char *s = NULL;
    if (vs->numval <= 0) {
        printf(" %s\n", vs->numval < 0 ? err(vs->numval) : "no values");
        return;
    }
    pmAtomValue a;
    if (pmExtractValue(vs->valfmt, &vs->vlist[0], type, &a, type) < 0) {
        printf(" ?\n");
        return;
    }
    if (type == PM_TYPE_STRING) {
        s = a.cp;
        printf(" \"%s\"\n", s);
        free(s);
    } else {
        printf(" %u\n", a.ul);
    }
}

/* ---- direct: the agent's methods called one by one ---- */

typedef struct {
    pmdaInterface d;
    pmdaExt *ext;
} agent;

static void direct_round(agent *a)
{
    const pmID *v = pmids();
    pmdaInterface *d = &a->d;

    for (int i = 0; i < NNAMES; i++) {
        pmID p = PM_ID_NULL;
        printf("pmid %s\n", names[i]);
        int sts = d->version.seven.pmid(names[i], &p, a->ext);
        printf("  = %s %s\n", err(sts), sts < 0 ? "-" : pmIDStr(p));
    }
    for (int i = 0; i < NPMIDS; i++) {
        char **list = NULL;
        printf("name %s\n", pmIDStr(v[i]));
        int sts = d->version.seven.name(v[i], &list, a->ext);
        printf("  = %s", err(sts));
        print_list(sts, list, NULL);
        if (sts > 0)
            free(list);
    }
    static const char *const kids[] = {"dyn.group", "dyn.group.beta", "dyn.group.alpha.label",
                                       "dyn.other", "dyn.group.zeta", "dyn"};
    for (int i = 0; i < 6; i++) {
        for (int t = 0; t < 2; t++) {
            char **list = NULL;
            int *sts = NULL;
            printf("children %s traverse %d\n", kids[i], t);
            int n = d->version.seven.children(kids[i], t, &list, &sts, a->ext);
            printf("  = %s", err(n));
            print_list(n, list, sts);
            if (n > 0) {
                free(list);
                free(sts);
            }
        }
    }
    printf("metric table: %d entries\n", a->ext->e_nmetrics);
    for (int i = 0; i < a->ext->e_nmetrics; i++)
        printf("  %s type %d sem %d\n", pmIDStr(a->ext->e_metrics[i].m_desc.pmid),
               a->ext->e_metrics[i].m_desc.type, a->ext->e_metrics[i].m_desc.sem);
    for (int i = 0; i < NPMIDS; i++) {
        pmDesc desc;
        int sts = d->version.seven.desc(v[i], &desc, a->ext);
        printf("desc %s = %s", pmIDStr(v[i]), err(sts));
        if (sts >= 0)
            printf(" type %d sem %d", desc.type, desc.sem);
        printf("\n");
        pmResult *res = NULL;
        pmID one = v[i];
        sts = d->version.seven.fetch(1, &one, &res, a->ext);
        printf("fetch %s = %s", pmIDStr(v[i]), err(sts));
        if (sts >= 0 && res != NULL) {
            pmValueSet *vs = res->vset[0];
            print_value(vs, desc.type);
            /* the value set is the caller's, as a local context takes it;
             * each library's pmFreeResult knows how its values are laid out */
            pmResult *mine = calloc(1, sizeof(*mine));
            if (mine != NULL) {
                mine->numpmid = 1;
                mine->vset[0] = vs;
                pmFreeResult(mine);
            }
        } else {
            printf("\n");
        }
        for (int level = 1; level <= 2; level++) {
            char *buf = NULL;
            sts = d->version.seven.text((int)v[i], level | PM_TEXT_PMID, &buf, a->ext);
            printf("text %s %d = %s %s\n", pmIDStr(v[i]), level, err(sts), sts < 0 ? "" : buf);
        }
    }
}

static int direct(const char *so)
{
    void *h = dlopen(so, RTLD_NOW);
    /* static: the agent's state stays reachable, as in a process that
     * loaded it (neither library has a call that frees it) */
    static agent a;

    if (h == NULL) {
        fprintf(stderr, "dlopen: %s\n", dlerror());
        return 1;
    }
    void (*init)(pmdaInterface *);
    void (*set_groups)(const char *);
    void *sym = dlsym(h, "dyn_init");
    memcpy(&init, &sym, sizeof(init)); /* ISO C has no object to function pointer cast */
    sym = dlsym(h, "dyn_agent_set_groups");
    memcpy(&set_groups, &sym, sizeof(set_groups));
    int *verbose = (int *)dlsym(h, "dyn_agent_verbose");
    if (init == NULL || set_groups == NULL || verbose == NULL)
        return 1;
    memset(&a, 0, sizeof(a));
    a.d.domain = DOM;
    a.d.comm.pmda_interface = 0xff;
    a.d.comm.pmapi_version = PMAPI_VERSION_2;
    *verbose = 1;
    init(&a.d);
    printf("init: status %d interface %d\n", a.d.status, a.d.comm.pmda_interface);
    if (a.d.status != 0)
        return 1;
    a.ext = a.d.version.seven.ext;
    printf("== groups alpha,beta,gamma\n");
    direct_round(&a);
    printf("== groups beta,delta\n");
    set_groups("beta,delta");
    direct_round(&a);
    printf("== groups zeta\n");
    set_groups("zeta");
    direct_round(&a);
    printf("== no groups\n");
    set_groups("");
    direct_round(&a);
    printf("cluster mask dyn.group: %s\n", err(pmdaDynamicSetClusterMask("dyn.group", 0x3)));
    printf("cluster mask nosuch: %s\n", err(pmdaDynamicSetClusterMask("nosuch", 0x3)));
    return 0;
}

/* ---- local: through a local context ---- */

static int start_local(const char *pmns, const char *so)
{
    char spec[4096];
    const char *msg = pmSpecLocalPMDA("clear");
    printf("clear: %s\n", msg ? msg : "ok");
    snprintf(spec, sizeof(spec), "add,%d,%s,dyn_init", DOM, so);
    msg = pmSpecLocalPMDA(spec);
    printf("spec: %s\n", msg ? msg : "ok");
    fflush(stdout); /* before the loader runs pmcpp */
    printf("load: %s\n", err(pmLoadASCIINameSpace(pmns, 1)));
    int ctx = pmNewContext(PM_CONTEXT_LOCAL, NULL);
    printf("context: %s\n", ctx >= 0 ? "ok" : err(ctx));
    return ctx;
}

static int local(const char *pmns, const char *so)
{
    const pmID *v = pmids();
    const char *name = "dyn.static.count";
    pmID p;
    char **list;
    int *sts = NULL, n;

    if (start_local(pmns, so) < 0)
        return 1;
    n = pmLookupName(1, &name, &p);
    printf("lookup %s = %s %s\n", name, err(n), n < 0 ? "-" : pmIDStr(p));
    n = pmGetChildrenStatus("dyn", &list, &sts);
    printf("children dyn = %s", err(n));
    print_list(n, list, sts);
    if (n > 0) {
        free(list);
        free(sts);
    }
    for (int i = 0; i < NPMIDS; i++) {
        pmDesc desc;
        int s = pmLookupDesc(v[i], &desc);
        printf("desc %s = %s", pmIDStr(v[i]), err(s));
        if (s >= 0)
            printf(" type %d sem %d units %s", desc.type, desc.sem, pmUnitsStr(&desc.units));
        printf("\n");
        pmResult *res = NULL;
        pmID one = v[i];
        s = pmFetch(1, &one, &res);
        printf("fetch %s = %s", pmIDStr(v[i]), err(s));
        if (s >= 0)
            print_value(res->vset[0], desc.type);
        else
            printf("\n");
        if (res != NULL)
            pmFreeResult(res);
        char *buf = NULL;
        s = pmLookupText(v[i], PM_TEXT_ONELINE, &buf);
        printf("oneline %s = %s %s\n", pmIDStr(v[i]), err(s), s < 0 ? "" : buf);
        if (s >= 0)
            free(buf);
        s = pmLookupText(v[i], PM_TEXT_HELP, &buf);
        printf("help %s = %s %s\n", pmIDStr(v[i]), err(s), s < 0 ? "" : buf);
        if (s >= 0)
            free(buf);
    }
    return 0;
}

/* ---- names: the names API through a local context ---- */

static void leaf(const char *n)
{
    printf("  leaf %s\n", n);
}

static void leaf_r(const char *n, void *closure)
{
    printf("  leaf_r %s\n", n);
    (*(int *)closure)++;
}

static void lookup(int n, const char *const *list)
{
    pmID p[32];
    int sts = pmLookupName(n, (const char **)list, p);

    printf("lookup");
    for (int i = 0; i < n; i++)
        printf(" %s", list[i]);
    printf("\n  = %s:", err(sts));
    for (int i = 0; i < n; i++)
        printf(" %s", pmIDStr(p[i]));
    printf("\n");
}

static void name_of(pmID p)
{
    char *one = NULL, **all = NULL;
    int s = pmNameID(p, &one);

    printf("nameid %s = %s %s\n", pmIDStr(p), err(s), s < 0 ? "" : one);
    if (s >= 0)
        free(one);
    s = pmNameAll(p, &all);
    printf("nameall %s = %s", pmIDStr(p), err(s));
    print_list(s, all, NULL);
    if (s > 0)
        free(all);
}

static void children(const char *name)
{
    char **list = (char **)&list; /* must come back NULL when there are none */
    int *sts = (int *)&sts;
    int n = pmGetChildrenStatus(name, &list, &sts);

    printf("children '%s' = %s", name, err(n));
    print_list(n, list, sts);
    if (n == 0)
        printf("  empty: %s %s\n", list == NULL ? "NULL" : "set", sts == NULL ? "NULL" : "set");
    if (n > 0) {
        free(list);
        free(sts);
    }
    n = pmGetChildren(name, &list);
    printf("  without status = %s", err(n));
    print_list(n, list, NULL);
    if (n > 0)
        free(list);
}

static void traverse(const char *name)
{
    int count = 0;

    printf("traverse '%s'\n", name);
    printf("  = %s\n", err(pmTraversePMNS(name, leaf)));
    printf("  _r = %s (%d calls)\n", err(pmTraversePMNS_r(name, leaf_r, &count)), count);
}

static const char *const more_names[] = {
    "dyn", "dyn.group.", "dyn.groupx.a", "dyn.group.alpha.value.x", "event.flags", "",
};
#define NMORE ((int)(sizeof(more_names) / sizeof(more_names[0])))

/* Every names question once, with the groups the agent has now. */
static void names_round(void)
{
    static const char *const mix[] = {"dyn.static.count", "dyn.group.beta.value", "dyn.bogus",
                                      "dyn.group.nosuch", "dyn.other.x",          "dyn.group"};
    static const char *const bad[] = {"dyn.group.nosuch", "dyn.group.alpha"};
    static const char *const derived[] = {"dyn.group.beta.value", "event.flags"};
    static const char *const kids[] = {"dyn.group",
                                       "dyn.group.beta",
                                       "dyn.group.beta.label",
                                       "dyn.group.nosuch",
                                       "dyn.other",
                                       "dyn",
                                       ""};
    const char *many[24];
    const pmID *v = pmids();

    for (int i = 0; i < NNAMES; i++)
        lookup(1, &names[i]);
    for (int i = 0; i < NMORE; i++)
        lookup(1, &more_names[i]);
    lookup(6, mix);
    lookup(2, bad);
    lookup(2, derived);
    lookup(NNAMES, names);
    for (int i = 0; i < 24; i++) /* more than one group of a batch lookup */
        many[i] = i % 3 ? names[i % NNAMES] : more_names[i % NMORE];
    lookup(24, many);
    for (int i = 0; i < NPMIDS; i++)
        name_of(v[i]);
    name_of(pmID_build(100, 1, 1));   /* no agent for the domain */
    name_of(pmID_build(511, DOM, 0)); /* a dynamic root's own PMID */
    name_of(pmID_build(511, 0, 0));
    name_of(pmID_build(511, 5, 7));
    name_of(pmID_build(511, 0, 1)); /* event.flags */
    for (int i = 0; i < (int)(sizeof(kids) / sizeof(kids[0])); i++)
        children(kids[i]);
    traverse("");
    traverse("dyn");
    traverse("dyn.group");
    traverse("dyn.group.beta");
    traverse("dyn.group.beta.label");
    traverse("dyn.group.nosuch");
    traverse("dyn.static.count");
}

/* INIT: dyn_init (interface 7), dyn_init3 (interface 3: no names methods),
 * none (no agent for the domain: PM_ERR_NOAGENT) or noctx (no agent and no
 * context: the namespace alone answers).  The agent says which of its
 * names methods libpcp calls, and the agent's groups change between
 * rounds. */
static int names_mode(const char *pmns, const char *so, const char *init)
{
    int noctx = strcmp(init, "noctx") == 0, none = noctx || strcmp(init, "none") == 0;
    char spec[4096];

    const char *msg = pmSpecLocalPMDA("clear");
    printf("clear: %s\n", msg ? msg : "ok");
    snprintf(spec, sizeof(spec), "add,%d,%s,%s", DOM, so, init);
    msg = none ? NULL : pmSpecLocalPMDA(spec);
    printf("spec: %s\n", msg ? msg : "ok");
    fflush(stdout); /* before the loader runs pmcpp */
    printf("load: %s\n", err(pmLoadASCIINameSpace(pmns, 1)));
    if (!noctx) {
        int ctx = pmNewContext(PM_CONTEXT_LOCAL, NULL);
        printf("context: %s\n", ctx >= 0 ? "ok" : err(ctx));
        if (ctx < 0)
            return 1;
    }
    void *h = dlopen(so, RTLD_NOW | RTLD_NOLOAD); /* the copy libpcp loaded */
    if (!none && h == NULL)
        return 1;
    int *verbose = h != NULL ? (int *)dlsym(h, "dyn_agent_verbose") : NULL;
    void (*set_groups)(const char *) = NULL;
    void *sym = h != NULL ? dlsym(h, "dyn_agent_set_groups") : NULL;
    memcpy(&set_groups, &sym, sizeof(set_groups));
    if (verbose != NULL)
        *verbose = 1;
    printf("== groups alpha,beta,gamma\n");
    names_round();
    if (set_groups == NULL)
        return 0;
    printf("== groups beta,delta\n");
    set_groups("beta,delta");
    names_round();
    printf("== no groups\n");
    set_groups("");
    names_round();
    return 0;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    if (argc == 3 && strcmp(argv[1], "direct") == 0)
        return direct(argv[2]);
    if (argc == 4 && strcmp(argv[1], "local") == 0)
        return local(argv[2], argv[3]);
    if (argc == 5 && strcmp(argv[1], "names") == 0)
        return names_mode(argv[2], argv[3], argv[4]);
    fprintf(stderr, "usage: probe_dynamic direct AGENT_SO | local PMNS AGENT_SO\n"
                    "       probe_dynamic names PMNS AGENT_SO dyn_init|dyn_init3|none|noctx\n");
    return 2;
}
