/*
 * setup.c - agent set-up: pmdaDSO, pmdaDaemon, pmdaInit, the callback and
 * flag setters, private data, and the metric lookup the methods share.
 *
 * pmdaInit follows PCP step by step (tests/oracle/agents_diff.sh): domain stamped
 * into every PMID, indom serials turned into pmInDoms, metric indoms
 * checked against the table, help opened, and direct mapping chosen when
 * metric i has item i.  Otherwise lookups are a binary search over a
 * sorted copy of the PMIDs (PCP scans linearly unless asked to hash; the
 * answers are the same).
 *
 * Messages go through pmNotifyErr with PCP's wording.
 */
#include "pmda_int.h"

#include <stdlib.h>
#include <string.h>

int pmda_current_context = -1;

int pmda_version_ok(int version)
{
    return version >= PMDA_INTERFACE_2 && version <= PMDA_INTERFACE_LATEST;
}

static void setup(pmdaInterface *dp, int version, const char *name)
{
    pmdaExt *pmda;
    pmda_priv *priv;

    if (!pmda_version_ok(version)) {
        pmNotifyErr(LOG_CRIT,
                    "__pmdaSetup: %s PMDA: interface version %d not supported (domain=%d)", name,
                    version, dp->domain);
        dp->status = PM_ERR_GENERIC;
        return;
    }
    pmda = calloc(1, sizeof(*pmda));
    priv = calloc(1, sizeof(*priv));
    if (pmda == NULL || priv == NULL) {
        free(pmda);
        free(priv);
        pmNoMem("pmdaSetup", sizeof(*pmda) + sizeof(*priv), PM_RECOV_ERR);
        dp->status = -ENOMEM;
        return;
    }
    priv->dispatch = dp;
    dp->status = 0;
    dp->comm.pmda_interface = (unsigned)version & 0xff;
    dp->comm.pmapi_version = PMAPI_VERSION_2;
    dp->comm.flags = 0;
    dp->version.any.ext = pmda;
    dp->version.any.profile = pmdaProfile;
    dp->version.any.fetch = pmdaFetch;
    dp->version.any.desc = pmdaDesc;
    dp->version.any.instance = pmdaInstance;
    dp->version.any.text = pmdaText;
    dp->version.any.store = pmdaStore;
    if (version >= PMDA_INTERFACE_4) {
        dp->version.four.pmid = pmdaPMID;
        dp->version.four.name = pmdaName;
        dp->version.four.children = pmdaChildren;
    }
    if (version >= PMDA_INTERFACE_6)
        dp->version.six.attribute = pmdaAttribute;
    if (version >= PMDA_INTERFACE_7)
        dp->version.seven.label = pmdaLabel;

    pmda->e_ext = priv;
    pmda->e_name = name;
    pmda->e_infd = pmda->e_outfd = pmda->e_port = -1;
    pmda->e_singular = pmda->e_ordinal = -1;
    pmda->e_domain = dp->domain;
    pmda->e_help = -1;
    pmda->e_io = pmdaUnknown;
    pmda->e_context = -1;
    pmda->e_flags |= PMDA_EXT_SETUPDONE;
    pmda->e_resultCallBack = __pmFreeResultValues;
}

void pmdaDSO(pmdaInterface *dp, int version, char *name, char *helptext)
{
    setup(dp, version, name);
    if (dp->status == 0 && helptext != NULL)
        dp->version.any.ext->e_helptext = strdup(helptext);
}

void pmdaDaemon(pmdaInterface *dp, int version, const char *name, int domain, const char *logfile,
                const char *helptext)
{
    pmdaExt *pmda;

    dp->domain = domain;
    setup(dp, version, name);
    if (dp->status != 0)
        return;
    pmda = dp->version.any.ext;
    if (logfile != NULL)
        pmda->e_logfile = strdup(logfile);
    if (helptext != NULL)
        pmda->e_helptext = strdup(helptext);
}

void pmdaInterfaceMoved(pmdaInterface *dp)
{
    if (dp->version.any.ext != NULL && dp->version.any.ext->e_ext != NULL)
        pmda_priv_of(dp->version.any.ext)->dispatch = dp;
}

static int indom_known(const pmdaIndom *indoms, int n, pmInDom indom)
{
    for (int i = 0; i < n; i++)
        if (indoms[i].it_indom == indom)
            return 1;
    return 0;
}

/* By PMID, then by table position, so the first of duplicate PMIDs wins as
 * in a linear scan. */
static int by_pmid(const void *a, const void *b)
{
    const pmda_pmid_ix *x = a, *y = b;

    if (x->pmid != y->pmid)
        return x->pmid < y->pmid ? -1 : 1;
    return (x->ix > y->ix) - (x->ix < y->ix);
}

/* The index for the binary search used when direct mapping is off. */
static void build_sorted(pmdaExt *pmda)
{
    pmda_priv *priv = pmda_priv_of(pmda);
    int n = pmda->e_nmetrics;

    free(priv->sorted);
    if ((priv->sorted = malloc((size_t)(n > 0 ? n : 1) * sizeof(*priv->sorted))) == NULL)
        return; /* lookups fall back to a linear scan */
    for (int i = 0; i < n; i++)
        priv->sorted[i] = (pmda_pmid_ix){pmda->e_metrics[i].m_desc.pmid, i};
    qsort(priv->sorted, (size_t)n, sizeof(*priv->sorted), by_pmid);
}

pmdaMetric *pmda_find_metric(pmdaExt *pmda, pmID pmid)
{
    pmda_priv *priv = pmda_priv_of(pmda);
    int lo = 0, hi;

    if (pmda->e_direct) {
        unsigned int item = pmID_item(pmid);
        if ((int)item < pmda->e_nmetrics && pmda->e_metrics[item].m_desc.pmid == pmid)
            return &pmda->e_metrics[item];
        return NULL;
    }
    if (priv->sorted == NULL) {
        for (int i = 0; i < pmda->e_nmetrics; i++)
            if (pmda->e_metrics[i].m_desc.pmid == pmid)
                return &pmda->e_metrics[i];
        return NULL;
    }
    hi = pmda->e_nmetrics;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (priv->sorted[mid].pmid < pmid)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < pmda->e_nmetrics && priv->sorted[lo].pmid == pmid)
        return &pmda->e_metrics[priv->sorted[lo].ix];
    return NULL;
}

/* Steps 5-8 of pmdaInit: identifiers get their domain; returns 0 or -1. */
static int stamp_domain(pmdaInterface *dp, pmdaIndom *indoms, int nindoms, pmdaMetric *metrics,
                        int nmetrics)
{
    pmdaExt *pmda = dp->version.any.ext;
    unsigned int domain = (unsigned int)dp->domain;

    for (int m = 0; m < nmetrics; m++) {
        pmID id = metrics[m].m_desc.pmid;
        metrics[m].m_desc.pmid = pmID_build(domain, pmID_cluster(id), pmID_item(id));
    }
    for (int i = 0; i < nindoms; i++)
        indoms[i].it_indom = pmInDom_build(domain, indoms[i].it_indom);
    for (int m = 0; m < nmetrics; m++) {
        pmDesc *d = &metrics[m].m_desc;
        if (d->indom == PM_INDOM_NULL)
            continue;
        d->indom = pmInDom_build(domain, d->indom);
        if (nindoms > 0 && !indom_known(indoms, nindoms, d->indom)) {
            char buf[32];
            pmNotifyErr(LOG_CRIT,
                        "pmdaInit: PMDA %s: Undefined instance domain serial (%u) specified for "
                        "metric %s (e_metrics[%d])",
                        pmda->e_name, pmInDom_serial(d->indom),
                        pmIDStr_r(d->pmid, buf, sizeof(buf)), m);
            return -1;
        }
    }
    return 0;
}

static void open_help(pmdaInterface *dp)
{
    pmdaExt *pmda = dp->version.any.ext;
    char buf[PM_MAXERRMSGLEN];

    if (pmda->e_helptext != NULL) {
        pmda->e_help = pmdaOpenHelp(pmda->e_helptext);
        if (pmda->e_help < 0)
            pmNotifyErr(LOG_WARNING,
                        "pmdaInit: PMDA %s: Unable to open help text file(s) from \"%s\": %s",
                        pmda->e_name, pmda->e_helptext, pmErrStr_r(pmda->e_help, buf, sizeof(buf)));
    } else if (dp->version.any.text == pmdaText) {
        pmNotifyErr(LOG_WARNING, "pmdaInit: PMDA %s: No help text file specified for pmdaText",
                    pmda->e_name);
    }
}

void pmdaInit(pmdaInterface *dp, pmdaIndom *indoms, int nindoms, pmdaMetric *metrics, int nmetrics)
{
    pmdaExt *pmda = dp->version.any.ext;
    int direct = 1;

    if (!pmda_version_ok(dp->comm.pmda_interface) || pmda == NULL) {
        pmNotifyErr(LOG_CRIT, "pmdaInit: PMDA interface version %d not supported (domain=%d)",
                    dp->comm.pmda_interface, dp->domain);
        dp->status = PM_ERR_GENERIC;
        return;
    }
    if (dp->version.any.fetch == pmdaFetch && pmda->e_fetchCallBack == NULL) {
        pmNotifyErr(LOG_CRIT, "pmdaInit: PMDA %s: using pmdaFetch() but fetch call back not set",
                    pmda->e_name);
        dp->status = PM_ERR_GENERIC;
        return;
    }
    if (nindoms < 0 || nmetrics < 0 || (nindoms == 0) != (indoms == NULL) ||
        (nmetrics == 0) != (metrics == NULL)) {
        pmNotifyErr(LOG_CRIT,
                    "pmdaInit: PMDA %s: bad tables: %d instance domains at %p, %d "
                    "metrics at %p",
                    pmda->e_name, nindoms, (void *)indoms, nmetrics, (void *)metrics);
        dp->status = PM_ERR_GENERIC;
        return;
    }
    pmda->e_indoms = indoms;
    pmda->e_nindoms = nindoms;
    pmda->e_metrics = metrics;
    pmda->e_nmetrics = nmetrics;
    pmda->e_domain = dp->domain;
    if (stamp_domain(dp, indoms, nindoms, metrics, nmetrics) < 0) {
        dp->status = PM_ERR_GENERIC;
        return;
    }
    open_help(dp);
    for (int m = 0; m < nmetrics && direct; m++)
        direct = (int)pmID_item(metrics[m].m_desc.pmid) == m;
    pmda->e_direct = direct && !(pmda->e_flags & PMDA_EXT_FLAG_HASHED);
    if (!pmda->e_direct) /* PCP keeps PMDA_EXT_FLAG_DIRECT clear either way */
        build_sorted(pmda);
    dp->status = pmda->e_status;
}

/* A new metric table, for agents whose metrics change: looked up through
 * the sorted index from now on, never directly (as PCP marks it HASHED);
 * PMIDs are taken as given (pmdaInit's domain stamping is not redone). */
void pmdaRehash(pmdaExt *pmda, pmdaMetric *metrics, int nmetrics)
{
    pmda->e_metrics = metrics;
    pmda->e_nmetrics = nmetrics;
    pmda->e_direct = 0;
    pmda->e_flags |= PMDA_EXT_FLAG_HASHED;
    build_sorted(pmda);
}

/* ---- setters ---- */

/* May a callback that needs interface min or later be set? */
static int setter_ok(pmdaInterface *dp, const char *what, int min)
{
    if ((int)dp->comm.pmda_interface >= min && pmda_version_ok(dp->comm.pmda_interface) &&
        dp->version.any.ext != NULL)
        return 1;
    pmNotifyErr(LOG_CRIT, "Unable to set %s callback for PMDA interface version %d.", what,
                dp->comm.pmda_interface);
    dp->status = PM_ERR_GENERIC;
    return 0;
}

void pmdaSetFetchCallBack(pmdaInterface *dp, pmdaFetchCallBack cb)
{
    if (setter_ok(dp, "fetch", PMDA_INTERFACE_2))
        dp->version.any.ext->e_fetchCallBack = cb;
}

void pmdaSetResultCallBack(pmdaInterface *dp, pmdaResultCallBack cb)
{
    if (setter_ok(dp, "result", PMDA_INTERFACE_2))
        dp->version.any.ext->e_resultCallBack = cb;
}

void pmdaSetCheckCallBack(pmdaInterface *dp, pmdaCheckCallBack cb)
{
    if (setter_ok(dp, "check", PMDA_INTERFACE_2))
        dp->version.any.ext->e_checkCallBack = cb;
}

void pmdaSetDoneCallBack(pmdaInterface *dp, pmdaDoneCallBack cb)
{
    if (setter_ok(dp, "done", PMDA_INTERFACE_2))
        dp->version.any.ext->e_doneCallBack = cb;
}

void pmdaSetEndContextCallBack(pmdaInterface *dp, pmdaEndContextCallBack cb)
{
    /* clearing it is allowed at any version */
    if (setter_ok(dp, "end-context", cb == NULL ? PMDA_INTERFACE_2 : PMDA_INTERFACE_5))
        dp->version.any.ext->e_endCallBack = cb;
}

void pmdaSetLabelCallBack(pmdaInterface *dp, pmdaLabelCallBack cb)
{
    if (setter_ok(dp, "label", PMDA_INTERFACE_7))
        dp->version.any.ext->e_labelCallBack = cb;
}

void pmdaSetFlags(pmdaInterface *dp, int flags)
{
    if (dp->version.any.ext != NULL)
        pmdaExtSetFlags(dp->version.any.ext, flags);
}

void pmdaExtSetFlags(pmdaExt *pmda, int flags)
{
    pmda->e_flags |= (unsigned int)flags;
}

void pmdaSetCommFlags(pmdaInterface *dp, int flags)
{
    dp->comm.flags |= (unsigned int)flags & 0xffff;
}

void pmdaSetData(pmdaInterface *dp, void *data)
{
    if (dp->version.any.ext != NULL)
        pmdaExtSetData(dp->version.any.ext, data);
}

void pmdaExtSetData(pmdaExt *pmda, void *data)
{
    pmda_priv_of(pmda)->privdata = data;
}

void *pmdaExtGetData(pmdaExt *pmda)
{
    return pmda_priv_of(pmda)->privdata;
}

int pmdaGetContext(void)
{
    return pmda_current_context;
}

void __pmdaSetContext(int context)
{
    pmda_current_context = context;
}
