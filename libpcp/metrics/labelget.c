/*
 * labelget.c - the labels of the current context's metrics, level by
 * level (pmGetContextLabels ... pmGetInstancesLabels) and all but the
 * instances' at once (pmLookupLabels).  In a local context the agents
 * answer from their label methods and the context's own labels come from
 * this host (labels/context_labels.c); a host context asks pmcd.
 *
 * What PCP 6.0.3's local contexts do, and so what this does:
 *
 * - Context labels: the host's label files and its own labels; without
 *   the labels directory the call fails with -ENOENT, and so does
 *   pmLookupLabels.
 * - An agent of interface 7 or later is asked through its label method;
 *   the identifier it gets is the domain number, the instance domain or
 *   the PMID (pmLookupLabels asks for the cluster with item 0, the single
 *   call with the PMID as given).  An older agent has one domain label,
 *   {"agent":PATH}, PATH its shared object, and no other labels.
 *
 * In a host context pmcd answers every level, the context's included
 * (LABEL_REQ, wire/host_api.c): its own host's labels, its agents'.
 */
#include "derived.h"
#include "context.h"
#include "labels.h"
#include "archive_ctx.h"
#include "host.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int pmGetContextLabels(pmLabelSet **sets)
{
    int sts;

    *sets = NULL;
    if (pmkit_ctx_type_current() == PM_CONTEXT_HOST)
        return pmkit_host_labels((int)PM_IN_NULL, PM_LABEL_CONTEXT, sets);
    if (pmkit_ctx_type_current() == PM_CONTEXT_ARCHIVE)
        return pmkit_archive_labels((int)PM_IN_NULL, PM_LABEL_CONTEXT, sets);
    pmkit_lock();
    sts = pmkit_ctx_current() == NULL ? PM_ERR_NOCONTEXT : 0;
    pmkit_unlock();
    return sts < 0 ? sts : pmkit_context_labels(sets);
}

/* {"agent":PATH}, the one label of an agent older than interface 7. */
static int agent_label(const char *path, pmLabelSet **sets)
{
    pmkit_lbls l;
    char *json, *text;
    size_t size = 2 * strlen(path) + 16;
    int sts;

    if ((text = malloc(size)) == NULL)
        return -ENOMEM;
    memcpy(text, "{\"agent\":", 9);
    pmkit_json_string(text + 9, size - 10, path);
    strcat(text, "}");
    sts = pmkit_labels_parse(text, PM_LABEL_DOMAIN, 0, &json, &l);
    free(text);
    if (sts > 0) {
        free(json);
        sts = pmkit_labelset_one(&l, sets);
    }
    pmkit_lbls_free(&l);
    return sts;
}

/* Labels of type for ident from the agent of domain: the number of sets. */
static int agent_labels(unsigned int domain, int ident, int type, pmLabelSet **sets)
{
    pmkit_ctx *ctx;
    __pmDSO *dso;
    int sts;

    *sets = NULL;
    if (pmkit_ctx_type_current() == PM_CONTEXT_HOST)
        return pmkit_host_labels(ident, type, sets);
    if (pmkit_ctx_type_current() == PM_CONTEXT_ARCHIVE) /* the ident as given, as PCP */
        return pmkit_archive_labels(ident, type, sets);
    pmkit_lock();
    if ((ctx = pmkit_ctx_current()) == NULL) {
        sts = PM_ERR_NOCONTEXT;
    } else if ((dso = pmkit_dso_for(domain, ctx)) == NULL) {
        sts = PM_ERR_NOAGENT;
    } else if (dso->dispatch.comm.pmda_interface >= PMDA_INTERFACE_7 &&
               dso->dispatch.version.seven.label != NULL) {
        pmLabelSet *got = NULL;
        sts = dso->dispatch.version.seven.label(ident, type, &got, dso->dispatch.version.any.ext);
        if (sts < 0) {
            pmFreeLabelSets(got, type == PM_LABEL_INSTANCES ? 0 : 1);
        } else {
            *sets = got;
            if (type != PM_LABEL_INSTANCES)
                sts = got != NULL;
            else if (got == NULL)
                sts = 0;
        }
    } else if (type == PM_LABEL_DOMAIN) {
        sts = agent_label(dso->name, sets);
    } else {
        sts = 0;
    }
    pmkit_unlock();
    return sts;
}

int pmGetDomainLabels(int domain, pmLabelSet **sets)
{
    return agent_labels((unsigned)domain, domain, PM_LABEL_DOMAIN, sets);
}

int pmGetInDomLabels(pmInDom indom, pmLabelSet **sets)
{
    return agent_labels(pmInDom_domain(indom), (int)indom, PM_LABEL_INDOM, sets);
}

int pmGetClusterLabels(pmID pmid, pmLabelSet **sets)
{
    return agent_labels(pmID_domain(pmid), (int)pmid, PM_LABEL_CLUSTER, sets);
}

int pmGetItemLabels(pmID pmid, pmLabelSet **sets)
{
    return agent_labels(pmID_domain(pmid), (int)pmid, PM_LABEL_ITEM, sets);
}

int pmGetInstancesLabels(pmInDom indom, pmLabelSet **sets)
{
    return agent_labels(pmInDom_domain(indom), (int)indom, PM_LABEL_INSTANCES, sets);
}

/* Append the n sets at *more to *all (n counting *all's), taking them. */
static int append(pmLabelSet **all, int *n, pmLabelSet *more, int nmore)
{
    pmLabelSet *grown;

    if (nmore <= 0)
        return 0;
    if ((grown = realloc(*all, (size_t)(*n + nmore) * sizeof(*grown))) == NULL) {
        pmFreeLabelSets(more, nmore);
        return -ENOMEM;
    }
    memcpy(grown + *n, more, (size_t)nmore * sizeof(*more));
    free(more);
    *all = grown;
    *n += nmore;
    return 0;
}

int pmLookupLabels(pmID pmid, pmLabelSet **sets)
{
    pmLabelSet *all = NULL, *got;
    unsigned int domain = pmID_domain(pmid);
    pmDesc desc;
    int n = 0, sts;

    *sets = NULL;
    if ((sts = pmLookupDesc(pmid, &desc)) < 0)
        return sts;
    if (pmkit_is_derived(pmid))
        return -ENOENT; /* PCP's answer for a derived metric */
    if ((sts = pmGetContextLabels(&got)) >= 0)
        sts = append(&all, &n, got, sts);
    if (sts >= 0 && (sts = agent_labels(domain, (int)domain, PM_LABEL_DOMAIN, &got)) >= 0)
        sts = append(&all, &n, got, sts);
    if (sts >= 0 && desc.indom != PM_INDOM_NULL &&
        (sts = agent_labels(domain, (int)desc.indom, PM_LABEL_INDOM, &got)) >= 0)
        sts = append(&all, &n, got, sts);
    if (sts >= 0 && (sts = agent_labels(domain, (int)pmID_build(domain, pmID_cluster(pmid), 0),
                                        PM_LABEL_CLUSTER, &got)) >= 0)
        sts = append(&all, &n, got, sts);
    if (sts >= 0 && (sts = agent_labels(domain, (int)pmid, PM_LABEL_ITEM, &got)) >= 0)
        sts = append(&all, &n, got, sts);
    if (sts < 0) {
        pmFreeLabelSets(all, n);
        return sts;
    }
    *sets = all;
    return n;
}
