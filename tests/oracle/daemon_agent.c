/*
 * daemon_agent.c - a daemon agent (domain 243) for daemon_diff.sh: every
 * PDU a pmcd (here Debian's dbpmda) sends an agent, answered through
 * libpcp_pmda's pmdaConnect/pmdaMain.  Built once against each
 * libpcp_pmda; its namespace is daemon.pmns.
 *
 *   dmn.count  0.0  U32, requests seen by the done callback
 *   dmn.inst   0.1  32 over indom 243.0 {0 one, 1 two, 5 "five six"}: 10*inst-7
 *   dmn.str    0.2  STRING;  dmn.u64 0.3, dmn.dbl 0.4, dmn.flt 0.5,
 *   dmn.agg    0.6  AGGREGATE (3 bytes); dmn.i64 0.7: one value block each
 *   dmn.noval  0.8  no values;  dmn.err 0.9: PM_ERR_VALUE
 *   dmn.store  1.0  U32, writable; storing 13 makes the check callback
 *                   refuse the next request with PM_ERR_AGAIN
 *   dmn.flags  1.1  U32, writable: bit 0 raises PMDA_EXT_LABEL_CHANGE,
 *                   bit 1 PMDA_EXT_NAMES_CHANGE (seen in the next RESULT)
 *   dmn.ctx    1.2  32, pmdaGetContext()
 *   dmn.dyn.*  2.n  a dynamic subtree (pmdaTree*): a, b.c, b.d
 * Labels at the domain, indom, cluster 1, item 0.1 and instance 5 levels.
 * With -e FILE, end-context callbacks and attributes are appended to FILE
 * (the agent's stdout is the pipe to pmcd).  -N: the agent starts "not
 * ready" and says it is ready after its first request.
 */
#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DMN_DOMAIN 243

static pmdaInstid insts[] = {{0, "one"}, {1, "two"}, {5, "five six"}};
static pmdaIndom indoms[] = {{0, 3, insts}};

#define NONE PMDA_PMUNITS(0, 0, 0, 0, 0, 0)
static pmdaMetric metrics[] = {
    {NULL, {PMDA_PMID(0, 0), PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_COUNTER, NONE}},
    {NULL, {PMDA_PMID(0, 1), PM_TYPE_32, 0, PM_SEM_INSTANT, NONE}},
    {NULL, {PMDA_PMID(0, 2), PM_TYPE_STRING, PM_INDOM_NULL, PM_SEM_DISCRETE, NONE}},
    {NULL, {PMDA_PMID(0, 3), PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_INSTANT, NONE}},
    {NULL, {PMDA_PMID(0, 4), PM_TYPE_DOUBLE, PM_INDOM_NULL, PM_SEM_INSTANT, NONE}},
    {NULL, {PMDA_PMID(0, 5), PM_TYPE_FLOAT, PM_INDOM_NULL, PM_SEM_INSTANT, NONE}},
    {NULL, {PMDA_PMID(0, 6), PM_TYPE_AGGREGATE, PM_INDOM_NULL, PM_SEM_DISCRETE, NONE}},
    {NULL, {PMDA_PMID(0, 7), PM_TYPE_64, PM_INDOM_NULL, PM_SEM_INSTANT, NONE}},
    {NULL, {PMDA_PMID(0, 8), PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT, NONE}},
    {NULL, {PMDA_PMID(0, 9), PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT, NONE}},
    {NULL, {PMDA_PMID(1, 0), PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT, NONE}},
    {NULL, {PMDA_PMID(1, 1), PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT, NONE}},
    {NULL, {PMDA_PMID(1, 2), PM_TYPE_32, PM_INDOM_NULL, PM_SEM_INSTANT, NONE}},
    {NULL, {PMDA_PMID(2, 0), PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT, NONE}},
    {NULL, {PMDA_PMID(2, 1), PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT, NONE}},
    {NULL, {PMDA_PMID(2, 2), PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT, NONE}},
};
#define NMETRICS ((int)(sizeof(metrics) / sizeof(metrics[0])))

static pmdaInterface dispatch;
static pmdaNameSpace *tree;
static unsigned int requests, stored;
static int refuse_next, notready;
static const char *events;
static char aggbuf[PM_VAL_HDR_SIZE + 4];

/* One line into the -e file, if there is one. */
static void note(const char *what, int a, const char *s)
{
    FILE *f = events != NULL ? fopen(events, "a") : NULL;

    if (f == NULL)
        return;
    fprintf(f, "%s %d %s\n", what, a, s != NULL ? s : "-");
    fclose(f);
}

static int fetch_cb(pmdaMetric *m, unsigned int inst, pmAtomValue *a)
{
    unsigned int cl = pmID_cluster(m->m_desc.pmid), it = pmID_item(m->m_desc.pmid);
    pmValueBlock *vb = (pmValueBlock *)aggbuf;

    if (cl == 2) {
        a->ul = 100 + it;
        return PMDA_FETCH_STATIC;
    }
    switch (cl * 16 + it) {
    case 0:
        a->ul = requests;
        break;
    case 1:
        a->l = 10 * (int)inst - 7;
        break;
    case 2:
        a->cp = "hello daemon";
        break;
    case 3:
        a->ull = 0x0102030405060708ULL;
        break;
    case 4:
        a->d = -2.5;
        break;
    case 5:
        a->f = 1.25f;
        break;
    case 6:
        vb->vtype = PM_TYPE_AGGREGATE;
        vb->vlen = PM_VAL_HDR_SIZE + 3;
        memcpy(vb->vbuf, "\x01\x02\x03", 3);
        a->vbp = vb;
        break;
    case 7:
        a->ll = -5;
        break;
    case 8:
        return PMDA_FETCH_NOVALUES;
    case 9:
        return PM_ERR_VALUE;
    case 16:
        a->ul = stored;
        break;
    case 17:
        a->ul = 0;
        break;
    case 18:
        a->l = pmdaGetContext();
        break;
    default:
        return PM_ERR_PMID;
    }
    return PMDA_FETCH_STATIC;
}

static int store(pmResult *res, pmdaExt *pmda)
{
    for (int i = 0; i < res->numpmid; i++) {
        pmValueSet *vs = res->vset[i];
        pmID id = vs->pmid;
        if (pmID_cluster(id) != 1 || pmID_item(id) > 1)
            return pmID_cluster(id) < 3 ? PM_ERR_PERMISSION : PM_ERR_PMID;
        if (vs->numval != 1 || vs->valfmt != PM_VAL_INSITU)
            return PM_ERR_BADSTORE;
        if (pmID_item(id) == 0) {
            stored = (unsigned int)vs->vlist[0].value.lval;
            refuse_next = stored == 13;
        } else {
            if (vs->vlist[0].value.lval & 1)
                pmdaExtSetFlags(pmda, PMDA_EXT_LABEL_CHANGE);
            if (vs->vlist[0].value.lval & 2)
                pmdaExtSetFlags(pmda, PMDA_EXT_NAMES_CHANGE);
        }
    }
    return 0;
}

static int label(int ident, int type, pmLabelSet **lpp, pmdaExt *pmda)
{
    switch (type) {
    case PM_LABEL_DOMAIN:
        pmdaAddLabels(lpp, "{\"agent\":\"daemon\",\"odd\":\"x\"}");
        break;
    case PM_LABEL_INDOM:
        if (ident == (int)pmInDom_build(DMN_DOMAIN, 0))
            pmdaAddLabels(lpp, "{\"indom\":\"numbers\"}");
        break;
    case PM_LABEL_CLUSTER:
        if (pmID_cluster((pmID)ident) == 1)
            pmdaAddLabels(lpp, "{\"cluster\":1}");
        break;
    case PM_LABEL_ITEM:
        if ((pmID)ident == pmID_build(DMN_DOMAIN, 0, 1))
            pmdaAddNotes(lpp, "{\"item\":\"inst\",\"n\":2}");
        break;
    }
    return pmdaLabel(ident, type, lpp, pmda);
}

static int instance_label(pmInDom indom, unsigned int inst, pmLabelSet **lp)
{
    if (indom != pmInDom_build(DMN_DOMAIN, 0) || inst != 5)
        return 0;
    return pmdaAddLabels(lp, "{\"five\":true}");
}

static int pmid_m(const char *name, pmID *pmid, pmdaExt *pmda)
{
    (void)pmda;
    return pmdaTreePMID(tree, name, pmid);
}

static int name_m(pmID pmid, char ***names, pmdaExt *pmda)
{
    (void)pmda;
    return pmdaTreeName(tree, pmid, names);
}

static int children_m(const char *name, int traverse, char ***kids, int **sts, pmdaExt *pmda)
{
    (void)pmda;
    return pmdaTreeChildren(tree, name, traverse, kids, sts);
}

static int attribute_m(int ctx, int attr, const char *value, int len, pmdaExt *pmda)
{
    char buf[64];

    snprintf(buf, sizeof(buf), "attr=%d len=%d value=%.*s", attr, len, len > 0 ? len - 1 : 0,
             value != NULL ? value : "");
    note("attribute", ctx, buf);
    return pmdaAttribute(ctx, attr, value, len, pmda);
}

static void end_context(int ctx)
{
    note("endcontext", ctx, NULL);
}

static int check(void)
{
    if (refuse_next) {
        refuse_next = 0;
        return PM_ERR_AGAIN;
    }
    return 0;
}

static void done(void)
{
    requests++;
    if (notready) {
        notready = 0;
        pmdaSendError(&dispatch, PM_ERR_PMDAREADY);
    }
}

static void build_tree(void)
{
    pmdaTreeCreate(&tree);
    pmdaTreeInsert(tree, pmID_build(DMN_DOMAIN, 2, 0), "dmn.dyn.a");
    pmdaTreeInsert(tree, pmID_build(DMN_DOMAIN, 2, 1), "dmn.dyn.b.c");
    pmdaTreeInsert(tree, pmID_build(DMN_DOMAIN, 2, 2), "dmn.dyn.b.d");
    pmdaTreeRebuildHash(tree, 3);
}

static pmLongOptions longopts[] = {PMDA_OPTIONS_HEADER("Options"), PMDAOPT_DOMAIN, PMDAOPT_LOGFILE,
                                   PMDAOPT_USERNAME, PMDA_OPTIONS_END};
static pmdaOptions opts = {.short_options = "6:d:e:i:l:Npu:U:", .long_options = longopts};

int main(int argc, char **argv)
{
    int c;

    pmSetProgname(argv[0]);
    pmdaDaemon(&dispatch, PMDA_INTERFACE_7, "dmn", DMN_DOMAIN, "dmn.log", NULL);
    while ((c = pmdaGetOptions(argc, argv, &opts, &dispatch)) != EOF) {
        if (c == 'e')
            events = opts.optarg;
        else if (c == 'N')
            notready = 1;
        else
            opts.errors++;
    }
    if (opts.errors) {
        pmdaUsageMessage(&opts);
        return 1;
    }
    pmdaOpenLog(&dispatch);
    dispatch.version.seven.store = store;
    dispatch.version.seven.label = label;
    dispatch.version.seven.pmid = pmid_m;
    dispatch.version.seven.name = name_m;
    dispatch.version.seven.children = children_m;
    dispatch.version.seven.attribute = attribute_m;
    pmdaSetFetchCallBack(&dispatch, fetch_cb);
    pmdaSetLabelCallBack(&dispatch, instance_label);
    pmdaSetEndContextCallBack(&dispatch, end_context);
    pmdaSetCheckCallBack(&dispatch, check);
    pmdaSetDoneCallBack(&dispatch, done);
    build_tree();
    pmdaInit(&dispatch, indoms, 1, metrics, NMETRICS);
    pmdaConnect(&dispatch);
    if (notready)
        pmdaSendError(&dispatch, PM_ERR_PMDANOTREADY);
    pmdaMain(&dispatch);
    pmdaTreeRelease(tree);
    return 0;
}
