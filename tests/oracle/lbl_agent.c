/*
 * lbl_agent.c - a DSO agent (domain 249) for the labels probe, with labels
 * at every level.  Built once against each libpcp_pmda; its namespace is
 * lbl.pmns.  Three entry points, one agent each way labels can come:
 *
 *   lbl_init    interface 7 with a label method of its own (which ends
 *               in pmdaLabel, as agents' do) and an instance callback
 *   lbl7_init   interface 7 with the default method and the callback
 *   lbl2_init   interface 2: no label method at all
 *
 * Metrics: lbl.single (0.0, singular, notes on the item), lbl.multi (1.0,
 * indom 0 of three instances, nested indom labels, cluster and item
 * labels), lbl.other (1.1, indom 1 of one instance without labels),
 * lbl.plain (2.0, only the domain's labels).  Instance 2 of indom 0 has
 * only a note; the others a label that overrides the item's.
 */
#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#define LBL_DOMAIN 249

static pmdaInstid insts0[] = {{0, "zero"}, {1, "one"}, {2, "two"}};
static pmdaInstid insts1[] = {{5, "five"}};
static pmdaIndom indoms[] = {{0, 3, insts0}, {1, 1, insts1}};

#define NONE PMDA_PMUNITS(0, 0, 0, 0, 0, 0)
static pmdaMetric metrics[] = {
    {NULL, {PMDA_PMID(0, 0), PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT, NONE}},
    {NULL, {PMDA_PMID(1, 0), PM_TYPE_U32, 0, PM_SEM_INSTANT, NONE}},
    {NULL, {PMDA_PMID(1, 1), PM_TYPE_U32, 1, PM_SEM_INSTANT, NONE}},
    {NULL, {PMDA_PMID(2, 0), PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT, NONE}},
};

static int fetch(pmdaMetric *m, unsigned int inst, pmAtomValue *a)
{
    (void)m;
    a->ul = inst;
    return 1;
}

static int label(int ident, int type, pmLabelSet **lpp, pmdaExt *pmda)
{
    switch (type) {
    case PM_LABEL_DOMAIN:
        pmdaAddLabels(lpp, "{\"dom\":\"d\",\"shared\":\"domain\", \"num\": 1}");
        pmdaAddLabels(lpp, "{\"later\":\"yes\"}"); /* merged: the set becomes flat */
        break;
    case PM_LABEL_INDOM:
        if (ident == (int)pmInDom_build(LBL_DOMAIN, 0))
            pmdaAddLabels(lpp, "{ \"shared\" : \"indom\", \"ilabel\" : {\"x\":1, \"y\":\"z\"} }");
        break;
    case PM_LABEL_CLUSTER:
        if (pmID_cluster((pmID)ident) == 1)
            pmdaAddLabels(lpp, "{\"shared\":\"cluster\",\"c\":true,\"e\":{}}");
        break;
    case PM_LABEL_ITEM:
        if (pmID_cluster((pmID)ident) == 1 && pmID_item((pmID)ident) == 0)
            pmdaAddLabels(lpp, "{\"shared\":\"item\",\"deep\":{\"b\":-1.5e3}}");
        if (pmID_cluster((pmID)ident) == 0)
            pmdaAddNotes(lpp, "{\"note\":\"optional\",\"n2\":null}");
        break;
    }
    return pmdaLabel(ident, type, lpp, pmda);
}

static int instance_label(pmInDom indom, unsigned int inst, pmLabelSet **lp)
{
    if (indom != pmInDom_build(LBL_DOMAIN, 0))
        return 0;
    if (inst == 2)
        return pmdaAddNotes(lp, "{\"inote\":2}");
    return pmdaAddLabels(lp, "{\"shared\":\"inst\",\"i\":%u,\"q\":\"a \\\"quoted\\\" word\"}",
                         inst);
}

static void setup(pmdaInterface *dp, int interface, int own_method)
{
    pmdaDSO(dp, interface, "label probe agent", NULL);
    if (dp->status != 0)
        return;
    pmdaSetFetchCallBack(dp, fetch);
    if (interface >= PMDA_INTERFACE_7) {
        pmdaSetLabelCallBack(dp, instance_label);
        if (own_method)
            dp->version.seven.label = label;
    }
    pmdaInit(dp, indoms, sizeof(indoms) / sizeof(indoms[0]), metrics,
             sizeof(metrics) / sizeof(metrics[0]));
}

/* the entry points, found by name */
void __PMDA_INIT_CALL lbl_init(pmdaInterface *dp);
void __PMDA_INIT_CALL lbl7_init(pmdaInterface *dp);
void __PMDA_INIT_CALL lbl2_init(pmdaInterface *dp);

void __PMDA_INIT_CALL lbl_init(pmdaInterface *dp)
{
    setup(dp, PMDA_INTERFACE_7, 1);
}

void __PMDA_INIT_CALL lbl7_init(pmdaInterface *dp)
{
    setup(dp, PMDA_INTERFACE_7, 0);
}

void __PMDA_INIT_CALL lbl2_init(pmdaInterface *dp)
{
    setup(dp, PMDA_INTERFACE_2, 0);
}
