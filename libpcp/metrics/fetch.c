/*
 * fetch.c - values: pmFetch and its high-resolution forms, and pmStore.
 *
 * A local fetch walks the request in order: for the first unanswered
 * PMID it gathers every later PMID of the same domain, makes sure the
 * agent holds the context's current profile, calls the agent's fetch once
 * and moves the value sets it returns into the caller's result (the
 * agent keeps its result skeleton, as libpcp_pmda expects).  Domains
 * without an agent, and agent failures, become value sets whose numval
 * is the error; unknown agents' answers that do not match the request are
 * treated the same way, so a faulty agent cannot corrupt the result.
 *
 * In a host context pmcd answers the whole request (host_api.c), and
 * pmFetch returns the state-change bits pmcd sent before the result.
 *
 * Results are freed and sorted by values/result.c.
 */
#include "derived.h"
#include "archive_ctx.h"
#include "host.h"
#include "names.h"
#include "values.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static pmValueSet *error_vset(pmID pmid, int err)
{
    pmValueSet *vs = calloc(1, sizeof(*vs));

    if (vs != NULL) {
        vs->pmid = pmid;
        vs->numval = err;
    }
    return vs;
}

/* One agent call for the still-empty slots of domain dom from slot first. */
static int fetch_domain(pmkit_ctx *ctx, int n, const pmID *pmids, pmValueSet **out, int first)
{
    unsigned int dom = pmID_domain(pmids[first]);
    __pmDSO *dso = pmkit_dso_for(dom, ctx);
    pmID small_list[32], *list = small_list;
    int small_slot[32], *slot = small_slot, count = 0, sts = PM_ERR_NOAGENT;
    pmResult *res = NULL;

    if (n > 32) {
        list = malloc((size_t)n * sizeof(*list));
        slot = malloc((size_t)n * sizeof(*slot));
        if (list == NULL || slot == NULL) {
            free(list);
            free(slot);
            return -ENOMEM;
        }
    }
    for (int i = first; i < n; i++) {
        if (out[i] == NULL && pmID_domain(pmids[i]) == dom) {
            slot[count] = i;
            list[count++] = pmids[i];
        }
    }
    if (dso != NULL) {
        pmdaInterface *dp = &dso->dispatch;
        sts = pmkit_dso_profile(dso, ctx);
        if (sts >= 0)
            sts = dp->version.any.fetch(count, list, &res, dp->version.any.ext);
        if (sts >= 0 && (res == NULL || res->numpmid != count))
            sts = PM_ERR_GENERIC;
    }
    for (int j = 0; j < count; j++) {
        pmValueSet *vs = sts >= 0 ? res->vset[j] : NULL;
        int fail = sts >= 0 ? PM_ERR_VALUE : sts;
        if (sts >= 0)
            res->vset[j] = NULL; /* now the caller's */
        out[slot[j]] = vs != NULL ? vs : error_vset(list[j], fail);
    }
    if (list != small_list) {
        free(list);
        free(slot);
    }
    return 0;
}

/* Fill vsets[0..n) for the current context; the timestamp is taken first
 * (pmcd's in a host context).  0, PMCD_* bits from pmcd, or an error. */
static int fetch_any(int n, pmID *pmids, pmValueSet **vsets, struct timespec *stamp)
{
    pmkit_ctx *ctx;
    int sts = 0;

    if (pmkit_ctx_type_current() == PM_CONTEXT_HOST)
        return pmkit_host_fetch(n, pmids, vsets, stamp);
    if (pmkit_ctx_type_current() == PM_CONTEXT_ARCHIVE)
        return pmkit_archive_fetch(n, pmids, vsets, stamp);
    clock_gettime(CLOCK_REALTIME, stamp);
    pmkit_lock();
    if ((ctx = pmkit_ctx_current()) == NULL)
        sts = PM_ERR_NOCONTEXT;
    for (int i = 0; i < n && sts >= 0; i++)
        if (vsets[i] == NULL)
            sts = fetch_domain(ctx, n, pmids, vsets, i);
    for (int i = 0; i < n && sts >= 0; i++)
        if (vsets[i] == NULL)
            sts = -ENOMEM;
    pmkit_unlock();
    return sts;
}

/*
 * A request with derived metrics: the source fetches their operands with
 * the request's other metrics, then the derived metrics' values are
 * computed (libpcp/derived).  Otherwise the source answers the request
 * as it is.  This is the one path every context's fetch takes.
 */
static int fetch_all(int n, pmID *pmids, pmValueSet **vsets, struct timespec *stamp)
{
    dm_plan *plan;
    pmValueSet **got;
    pmID *list;
    int m, sts, fin = 0;

    if ((sts = pmkit_derived_plan(pmkit_ctx_current_handle(), n, pmids, &plan)) <= 0)
        return sts < 0 ? sts : fetch_any(n, pmids, vsets, stamp);
    m = pmkit_derived_plan_list(plan, &list, &got);
    if (m > 0) {
        sts = fetch_any(m, list, got, stamp);
    } else if (pmkit_ctx_type_current() == PM_CONTEXT_ARCHIVE) {
        pmHighResResult *r; /* derived constants alone: still the next record's time, as PCP */
        if ((sts = pmkit_archive_next(&r)) >= 0) {
            *stamp = r->timestamp;
            pmFreeHighResResult(r);
        }
    } else {
        clock_gettime(CLOCK_REALTIME, stamp); /* derived constants alone */
        sts = 0;
    }
    if (sts >= 0) {
        fin = pmkit_derived_finish(plan, got, stamp, vsets, pmids, pmkit_free_vsets);
    } else {
        pmkit_free_vsets(got, m);
        pmkit_derived_plan_free(plan);
    }
    return sts < 0 ? sts : fin < 0 ? fin : sts;
}

/* A result for n value sets, all NULL (malloc and a loop: cheaper than
 * calloc for the usual few sets). */
static pmResult *new_result(int n)
{
    pmResult *r = malloc(sizeof(*r) + (size_t)(n - 1) * sizeof(pmValueSet *));

    if (r != NULL) {
        r->timestamp.tv_sec = 0;
        r->timestamp.tv_usec = 0;
        r->numpmid = n;
        for (int i = 0; i < n; i++)
            r->vset[i] = NULL;
    }
    return r;
}

int pmFetch(int numpmid, pmID *pmidlist, pmResult **result)
{
    struct timespec now;
    pmResult *r;
    int sts;

    if (numpmid < 1)
        return PM_ERR_TOOSMALL;
    r = new_result(numpmid);
    if (r == NULL)
        return -ENOMEM;
    if ((sts = fetch_all(numpmid, pmidlist, r->vset, &now)) < 0) {
        pmFreeResult(r);
        return sts;
    }
    r->timestamp.tv_sec = now.tv_sec;
    r->timestamp.tv_usec = now.tv_nsec / 1000;
    *result = r;
    return sts;
}

int pmFetchHighRes(int numpmid, pmID *pmidlist, pmHighResResult **result)
{
    pmHighResResult *r;
    int sts;

    if (numpmid < 1)
        return PM_ERR_TOOSMALL;
    r = calloc(1, sizeof(*r) + (size_t)(numpmid - 1) * sizeof(pmValueSet *));
    if (r == NULL)
        return -ENOMEM;
    r->numpmid = numpmid;
    if ((sts = fetch_all(numpmid, pmidlist, r->vset, &r->timestamp)) < 0) {
        pmFreeHighResResult(r);
        return sts;
    }
    *result = r;
    return sts;
}

int pmHighResFetch(int numpmid, pmID *pmidlist, pmHighResResult **result)
{
    return pmFetchHighRes(numpmid, pmidlist, result);
}

/* Store value sets one at a time, vlist[0] only, stopping at the first error. */
static int store_vsets(int n, pmValueSet *const *vsets)
{
    pmkit_ctx *ctx;
    int sts = 0;

    if (n < 1)
        return PM_ERR_TOOSMALL;
    for (int i = 0; i < n; i++)
        if (vsets[i] == NULL || vsets[i]->numval < 1)
            return PM_ERR_VALUE;
    if (pmkit_ctx_type_current() == PM_CONTEXT_HOST)
        return pmkit_host_store(n, vsets); /* all of it, every instance */
    pmkit_lock();
    if ((ctx = pmkit_ctx_current()) == NULL)
        sts = PM_ERR_NOCONTEXT;
    for (int i = 0; i < n && sts >= 0; i++) {
        __pmDSO *dso = pmkit_dso_for(pmID_domain(vsets[i]->pmid), ctx);
        pmResult one;
        pmValueSet vs = *vsets[i];

        if (dso == NULL) {
            sts = PM_ERR_NOAGENT;
            break;
        }
        vs.numval = 1;
        memset(&one, 0, sizeof(one));
        one.numpmid = 1;
        one.vset[0] = &vs;
        sts = dso->dispatch.version.any.store(&one, dso->dispatch.version.any.ext);
    }
    pmkit_unlock();
    return sts < 0 ? sts : 0;
}

int pmStore(const pmResult *result)
{
    return store_vsets(result->numpmid, result->vset);
}

int pmStoreHighRes(const pmHighResResult *result)
{
    return store_vsets(result->numpmid, result->vset);
}
