/*
 * dyn_agent.c - a DSO agent (domain 247, entry point dyn_init) with two
 * dynamic subtrees built from libpcp_pmda's tree and dynamic-metric
 * helpers, for probe_dynamic.c.  Built once against each libpcp_pmda
 * (tests/oracle/CMakeLists.txt); its namespace is dyn.pmns.
 *
 *   dyn.static.count          247.0.0, U32 42
 *   dyn.group.<g>.value       247.1.(16*k), U32 100*k     (group g is the k-th)
 *   dyn.group.<g>.label       247.1.(16*k+1), STRING g
 *   dyn.other.x               247.2.0, U32 7 (a second registration, no copies)
 *
 * The groups are alpha, beta, gamma until dyn_agent_set_groups("a,b,...")
 * changes them; the first group uses the template PMIDs, the others the
 * metric table copies mtabupdate makes (ids 1..n-1).  With
 * dyn_agent_verbose set, every callback prints what it was asked.
 * dyn_init3 starts the same agent as interface 3 (no names methods).
 */
#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DYN_DOMAIN 247
#define MAXGROUPS  8

int dyn_agent_verbose;
void dyn_agent_set_groups(const char *csv);

static char groups[MAXGROUPS][16] = {"alpha", "beta", "gamma"};
static int ngroups = 3, changed = 1;
static pmdaNameSpace *group_tree, *other_tree;
static char textbuf[128];

static pmdaMetric metrics[] = {
    {NULL,
     {PMDA_PMID(0, 0), PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT, PMDA_PMUNITS(0, 0, 0, 0, 0, 0)}},
    {NULL,
     {PMDA_PMID(1, 0), PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_COUNTER, PMDA_PMUNITS(0, 0, 1, 0, 0, 0)}},
    {NULL,
     {PMDA_PMID(1, 1), PM_TYPE_STRING, PM_INDOM_NULL, PM_SEM_DISCRETE,
      PMDA_PMUNITS(0, 0, 0, 0, 0, 0)}},
    {NULL,
     {PMDA_PMID(2, 0), PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT, PMDA_PMUNITS(0, 0, 0, 0, 0, 0)}},
};
#define NMETRICS ((int)(sizeof(metrics) / sizeof(metrics[0])))

void dyn_agent_set_groups(const char *csv)
{
    ngroups = 0;
    for (const char *s = csv; *s != '\0' && ngroups < MAXGROUPS;) {
        size_t n = strcspn(s, ",");
        snprintf(groups[ngroups++], sizeof(groups[0]), "%.*s", (int)n, s);
        s += n + (s[n] == ',');
    }
    changed = 1;
}

static void build_groups(void)
{
    char name[160];

    pmdaTreeRelease(group_tree);
    group_tree = NULL;
    /* never a NULL tree: PCP 6.0.3's lookups dereference it */
    if (pmdaTreeCreate(&group_tree) < 0)
        return;
    for (int k = 0; k < ngroups; k++) {
        snprintf(name, sizeof(name), "dyn.group.%s.value", groups[k]);
        pmdaTreeInsert(group_tree, pmID_build(DYN_DOMAIN, 1, 16 * k), name);
        snprintf(name, sizeof(name), "dyn.group.%s.label", groups[k]);
        pmdaTreeInsert(group_tree, pmID_build(DYN_DOMAIN, 1, 16 * k + 1), name);
    }
    pmdaTreeRebuildHash(group_tree, 2 * ngroups);
}

static int group_pmns(pmdaExt *pmda, pmdaNameSpace **tree)
{
    int was = changed;

    (void)pmda;
    if (dyn_agent_verbose)
        printf("  [agent] group pmnsupdate: %s\n", was ? "changed" : "same");
    if (changed)
        build_groups();
    changed = 0;
    *tree = group_tree;
    return was;
}

static int other_pmns(pmdaExt *pmda, pmdaNameSpace **tree)
{
    (void)pmda;
    if (dyn_agent_verbose)
        printf("  [agent] other pmnsupdate\n");
    if (other_tree == NULL && pmdaTreeCreate(&other_tree) == 0) {
        pmdaTreeInsert(other_tree, pmID_build(DYN_DOMAIN, 2, 0), "dyn.other.x");
        pmdaTreeRebuildHash(other_tree, 1);
    }
    *tree = other_tree;
    return 0;
}

static int group_text(pmdaExt *pmda, pmID pmid, int type, char **buf)
{
    unsigned int item = pmID_item(pmid);

    (void)pmda;
    if (dyn_agent_verbose)
        printf("  [agent] textupdate %s type %d\n", pmIDStr(pmid), type);
    if ((int)(item / 16) >= ngroups)
        return PM_ERR_TEXT;
    snprintf(textbuf, sizeof(textbuf), "%s of group %s%s", item % 16 ? "label" : "value",
             groups[item / 16], (type & PM_TEXT_HELP) ? " (the long text)" : "");
    *buf = textbuf;
    return 0;
}

/* PCP 6.0.3 calls a NULL textupdate (a crash), so the second subtree has one */
static int other_text(pmdaExt *pmda, pmID pmid, int type, char **buf)
{
    (void)pmda;
    (void)buf;
    if (dyn_agent_verbose)
        printf("  [agent] other textupdate %s type %d\n", pmIDStr(pmid), type);
    return PM_ERR_TEXT;
}

static void group_mtab(pmdaMetric *src, pmdaMetric *dst, int id)
{
    pmID p = src->m_desc.pmid;

    /* what dst holds on entry differs between PCP's builds of the table
     * (docs/compat.md), so the copy is made here, as agents do */
    if (dyn_agent_verbose)
        printf("  [agent] mtabupdate %s -> id %d\n", pmIDStr(p), id);
    *dst = *src;
    dst->m_desc.pmid = pmID_build(pmID_domain(p), pmID_cluster(p), pmID_item(p) + 16 * id);
}

static void group_counts(int *total, int *trees)
{
    *total = 2;
    *trees = ngroups > 0 ? ngroups - 1 : 0;
    if (dyn_agent_verbose)
        printf("  [agent] group mtabcounts: %d %d\n", *total, *trees);
}

static void other_counts(int *total, int *trees)
{
    *total = 1;
    *trees = 0;
    if (dyn_agent_verbose)
        printf("  [agent] other mtabcounts\n");
}

/* The names methods say what libpcp asked (with dyn_agent_verbose), so
 * that the probe sees which questions reach the agent, in which order. */
static int dyn_pmid(const char *name, pmID *pmid, pmdaExt *pmda)
{
    int sts = pmdaTreePMID(pmdaDynamicLookupName(pmda, name), name, pmid);

    if (dyn_agent_verbose)
        printf("  [agent] pmid %s = %d %s\n", name, sts, sts < 0 ? "-" : pmIDStr(*pmid));
    return sts;
}

static int dyn_name(pmID pmid, char ***names, pmdaExt *pmda)
{
    int sts = pmdaTreeName(pmdaDynamicLookupPMID(pmda, pmid), pmid, names);

    if (dyn_agent_verbose)
        printf("  [agent] name %s = %d\n", pmIDStr(pmid), sts);
    return sts;
}

static int dyn_children(const char *name, int traverse, char ***kids, int **sts, pmdaExt *pmda)
{
    int n = pmdaTreeChildren(pmdaDynamicLookupName(pmda, name), name, traverse, kids, sts);

    if (dyn_agent_verbose)
        printf("  [agent] children %s traverse %d = %d\n", name, traverse, n);
    return n;
}

static int dyn_text(int ident, int type, char **buf, pmdaExt *pmda)
{
    if ((type & PM_TEXT_PMID) && pmdaDynamicLookupText((pmID)ident, type, buf, pmda) == 0)
        return 0;
    if ((type & PM_TEXT_PMID) && pmID_cluster((pmID)ident) == 0) {
        snprintf(textbuf, sizeof(textbuf), "the static count");
        *buf = textbuf;
        return 0;
    }
    return PM_ERR_TEXT;
}

static int dyn_fetch(pmdaMetric *m, unsigned int inst, pmAtomValue *atom)
{
    pmID p = m->m_desc.pmid;
    unsigned int k = pmID_item(p) / 16;

    (void)inst;
    if (pmID_cluster(p) == 0)
        atom->ul = 42;
    else if (pmID_cluster(p) == 2)
        atom->ul = 7;
    else if (k >= (unsigned int)ngroups)
        return PM_ERR_PMID;
    else if (pmID_item(p) % 16 == 0)
        atom->ul = 100 * k;
    else
        atom->cp = groups[k];
    return 1;
}

void dyn_init(pmdaInterface *dp);

void dyn_init(pmdaInterface *dp)
{
    static int group_clusters[] = {1}, other_clusters[] = {2};
    pmdaExt *pmda;

    pmdaDSO(dp, PMDA_INTERFACE_7, "dyn DSO", NULL);
    if (dp->status != 0)
        return;
    dp->version.seven.pmid = dyn_pmid;
    dp->version.seven.name = dyn_name;
    dp->version.seven.children = dyn_children;
    dp->version.seven.text = dyn_text;
    pmdaSetFetchCallBack(dp, dyn_fetch);
    pmdaInit(dp, NULL, 0, metrics, NMETRICS);
    pmda = dp->version.seven.ext;
    pmdaExtDynamicPMNS("dyn.group", group_clusters, 1, group_pmns, group_text, group_mtab,
                       group_counts, metrics, NMETRICS, pmda);
    pmdaExtDynamicPMNS("dyn.other", other_clusters, 1, other_pmns, other_text, NULL, other_counts,
                       metrics, NMETRICS, pmda);
}

/* The same agent speaking interface 3, which has no names methods: what
 * libpcp answers for names below its dynamic roots then. */
void dyn_init3(pmdaInterface *dp);

void dyn_init3(pmdaInterface *dp)
{
    pmdaDSO(dp, PMDA_INTERFACE_3, "dyn DSO (interface 3)", NULL);
    if (dp->status != 0)
        return;
    pmdaSetFetchCallBack(dp, dyn_fetch);
    pmdaInit(dp, NULL, 0, metrics, NMETRICS);
}
