/*
 * methods.c - the table-driven methods libpcp_pmda answers for an agent:
 * pmdaProfile, pmdaFetch, pmdaDesc, pmdaInstance, pmdaText, and the
 * instance iteration helpers (__pmdaCntInst, __pmdaStartInst,
 * __pmdaNextInst) they share with agents.
 *
 * pmdaFetch keeps PCP's contract exactly (runtime spec 5.7): a reusable
 * result skeleton owned by the agent, one malloc'd value set per PMID
 * owned by the caller, the callback return codes of interfaces 2 to 7,
 * values stored insitu for 32-bit integers and in malloc'd blocks
 * otherwise, and numval set to the last callback status when no value
 * was stored.
 *
 * Instances come from the indom's cache when one exists, else from the
 * agent's indom table.
 */
#include "pmda_int.h"

#include <stdlib.h>
#include <string.h>

int pmdaProfile(pmProfile *prof, pmdaExt *pmda)
{
    pmda->e_prof = prof;
    return 0;
}

static void note_context(pmdaExt *pmda)
{
    if (pmda_priv_of(pmda)->dispatch->comm.pmda_interface >= PMDA_INTERFACE_5)
        pmda_current_context = pmda->e_context;
}

int pmdaDesc(pmID pmid, pmDesc *desc, pmdaExt *pmda)
{
    pmdaMetric *m;

    note_context(pmda);
    if ((m = pmda_find_metric(pmda, pmid)) == NULL)
        return PM_ERR_PMID;
    *desc = m->m_desc;
    return 0;
}

int pmdaText(int ident, int type, char **buffer, pmdaExt *pmda)
{
    char *text;

    note_context(pmda);
    if (pmda->e_help < 0)
        return PM_ERR_TEXT;
    if (type & PM_TEXT_PMID)
        text = pmdaGetHelp(pmda->e_help, (pmID)ident, type);
    else
        text = pmdaGetInDomHelp(pmda->e_help, (pmInDom)ident, type);
    if (text == NULL)
        return PM_ERR_TEXT;
    *buffer = text;
    return 0;
}

static pmdaIndom *table_indom(pmdaExt *pmda, pmInDom indom)
{
    for (int i = 0; i < pmda->e_nindoms; i++)
        if (pmda->e_indoms[i].it_indom == indom)
            return &pmda->e_indoms[i];
    return NULL;
}

/* ---- instance iteration ---- */

int __pmdaCntInst(pmInDom indom, pmdaExt *pmda)
{
    pmdaIndom *idp;

    if (indom == PM_INDOM_NULL)
        return 1;
    if (pmda_cache_exists(indom))
        return pmda_cache_count_active(indom);
    if ((idp = table_indom(pmda, indom)) == NULL)
        return 0;
    return idp->it_numinst;
}

/* Does the profile select every instance of indom (no test per instance)? */
static int profile_takes_all(const pmProfile *prof, pmInDom indom)
{
    if (prof == NULL)
        return 1;
    for (int i = 0; i < prof->profile_len; i++)
        if (prof->profile[i].indom == indom)
            return prof->profile[i].state == PM_PROFILE_INCLUDE &&
                   prof->profile[i].instances_len == 0;
    return prof->state == PM_PROFILE_INCLUDE;
}

void __pmdaStartInst(pmInDom indom, pmdaExt *pmda)
{
    pmda_priv *priv = pmda_priv_of(pmda);

    priv->it_indom = indom;
    priv->it_last = -1;
    priv->it_next = 0;
    priv->it_all = profile_takes_all(pmda->e_prof, indom);
    if (indom == PM_INDOM_NULL)
        priv->it_mode = ITER_SINGLE;
    else if (pmda_cache_exists(indom))
        priv->it_mode = ITER_CACHE;
    else if ((priv->it_idp = table_indom(pmda, indom)) != NULL)
        priv->it_mode = ITER_TABLE;
    else
        priv->it_mode = ITER_NONE;
}

/* Next instance in the profile: 1 with *inst set, or 0 at the end. */
int __pmdaNextInst(int *inst, pmdaExt *pmda)
{
    pmda_priv *priv = pmda_priv_of(pmda);
    pmInDom indom = priv->it_indom;
    int id;

    switch (priv->it_mode) {
    case ITER_SINGLE:
        priv->it_mode = ITER_NONE; /* the one "instance" of a singular metric */
        *inst = (int)PM_IN_NULL;
        return 1;
    case ITER_CACHE:
        while ((id = pmda_cache_next_active(indom, priv->it_last)) >= 0) {
            priv->it_last = id;
            if (priv->it_all || __pmInProfile(indom, pmda->e_prof, id)) {
                *inst = id;
                return 1;
            }
        }
        break;
    case ITER_TABLE:
        while (priv->it_next < priv->it_idp->it_numinst) {
            id = priv->it_idp->it_set[priv->it_next++].i_inst;
            if (priv->it_all || __pmInProfile(indom, pmda->e_prof, id)) {
                *inst = id;
                return 1;
            }
        }
        break;
    }
    priv->it_mode = ITER_NONE;
    return 0;
}

/* ---- pmdaInstance ---- */

static int inresult_new(pmInDom indom, int n, int want_ids, int want_names, pmInResult **out)
{
    pmInResult *res = calloc(1, sizeof(*res));

    if (res == NULL)
        return -ENOMEM;
    res->indom = indom;
    res->numinst = n;
    if (want_ids && (res->instlist = calloc((size_t)(n > 0 ? n : 1), sizeof(int))) == NULL)
        goto nomem;
    if (want_names && (res->namelist = calloc((size_t)(n > 0 ? n : 1), sizeof(char *))) == NULL)
        goto nomem;
    *out = res;
    return 0;
nomem:
    free(res->instlist);
    free(res);
    return -ENOMEM;
}

/* Every instance, ids and names, in cache id order or table order. */
static int all_instances(pmInDom indom, pmdaIndom *idp, pmInResult **out)
{
    int cached = idp == NULL;
    int n = cached ? pmda_cache_count_active(indom) : idp->it_numinst;
    int sts, k = 0, inst = -1;
    pmInResult *res;

    if ((sts = inresult_new(indom, n, 1, 1, &res)) < 0)
        return sts;
    for (int i = 0; i < n; i++) {
        const char *name;
        if (cached) {
            if ((inst = pmda_cache_next_active(indom, inst)) < 0)
                break;
            name = pmda_cache_name(indom, inst);
        } else {
            inst = idp->it_set[i].i_inst;
            name = idp->it_set[i].i_name;
        }
        res->instlist[k] = inst;
        if ((res->namelist[k] = strdup(name != NULL ? name : "")) == NULL) {
            res->numinst = k;
            __pmFreeInResult(res);
            return -ENOMEM;
        }
        k++;
    }
    res->numinst = k;
    *out = res;
    return 0;
}

/* Table rule: exact, or (for a name without a space) the part before a space. */
static int table_match(const pmdaIndom *idp, const char *name)
{
    size_t len = strlen(name);
    int short_form = strchr(name, ' ') == NULL;

    for (int i = 0; i < idp->it_numinst; i++) {
        const char *n = idp->it_set[i].i_name;
        if (n == NULL)
            continue;
        if (strcmp(n, name) == 0)
            return i;
        if (short_form && strncmp(n, name, len) == 0 && n[len] == ' ')
            return i;
    }
    return -1;
}

int pmdaInstance(pmInDom indom, int inst, char *name, pmInResult **result, pmdaExt *pmda)
{
    pmdaIndom *idp = NULL;
    int cached = pmda_cache_exists(indom);
    pmInResult *res;
    int sts;

    note_context(pmda);
    if (!cached && (idp = table_indom(pmda, indom)) == NULL)
        return PM_ERR_INDOM;
    if (inst == (int)PM_IN_NULL && name == NULL)
        return all_instances(indom, idp, result);
    if (name == NULL) {
        const char *found = NULL;
        if (cached) {
            found = pmda_cache_name(indom, inst);
        } else {
            for (int i = 0; i < idp->it_numinst && found == NULL; i++)
                if (idp->it_set[i].i_inst == inst)
                    found = idp->it_set[i].i_name;
        }
        if (found == NULL)
            return PM_ERR_INST;
        if ((sts = inresult_new(indom, 1, 0, 1, &res)) < 0)
            return sts;
        if ((res->namelist[0] = strdup(found)) == NULL) {
            __pmFreeInResult(res);
            return -ENOMEM;
        }
        *result = res;
        return 0;
    }
    if (inst != (int)PM_IN_NULL || name[0] == '\0')
        return PM_ERR_INST;
    if (cached) {
        if ((inst = pmda_cache_find_name(indom, name)) < 0)
            return PM_ERR_INST;
    } else {
        int i = table_match(idp, name);
        if (i < 0)
            return PM_ERR_INST;
        inst = idp->it_set[i].i_inst;
    }
    if ((sts = inresult_new(indom, 1, 1, 0, &res)) < 0)
        return sts;
    res->instlist[0] = inst;
    *result = res;
    return 0;
}

/* ---- pmdaFetch ---- */

/* Store one value as PCP's __pmStuffValue does; returns the value format. */
static int stuff_value(const pmAtomValue *atom, pmValue *v, int type)
{
    size_t payload;
    const void *src;
    pmValueBlock *vb;

    switch (type) {
    case PM_TYPE_32:
    case PM_TYPE_U32:
        v->value.lval = atom->l;
        return PM_VAL_INSITU;
    case PM_TYPE_FLOAT:
        payload = sizeof(float);
        src = &atom->f;
        break;
    case PM_TYPE_64:
    case PM_TYPE_U64:
    case PM_TYPE_DOUBLE:
        payload = 8;
        src = &atom->ll;
        break;
    case PM_TYPE_STRING:
        src = atom->cp != NULL ? atom->cp : "";
        payload = strlen(src) + 1;
        break;
    case PM_TYPE_AGGREGATE:
        if (atom->vbp == NULL)
            return PM_ERR_VALUE;
        payload = atom->vbp->vlen >= PM_VAL_HDR_SIZE ? atom->vbp->vlen - PM_VAL_HDR_SIZE : 0;
        src = atom->vbp->vbuf;
        break;
    case PM_TYPE_AGGREGATE_STATIC:
    case PM_TYPE_EVENT:
    case PM_TYPE_HIGHRES_EVENT:
        v->value.pval = atom->vbp;
        return PM_VAL_SPTR;
    default:
        return PM_ERR_TYPE;
    }
    if (payload + PM_VAL_HDR_SIZE > PM_VAL_VLEN_MAX)
        return PM_ERR_TOOBIG;
    vb = malloc(payload + PM_VAL_HDR_SIZE < 8 ? 8 : payload + PM_VAL_HDR_SIZE);
    if (vb == NULL)
        return -ENOMEM;
    memset(vb, 0, 8); /* the header and any padding of a short payload */
    vb->vtype = (unsigned int)type & 0xff;
    vb->vlen = (unsigned int)(payload + PM_VAL_HDR_SIZE);
    memcpy(vb->vbuf, src, payload);
    v->value.pval = vb;
    return PM_VAL_DPTR;
}

/* Log a fetch callback failure the way PCP does: only the unexpected ones. */
static void callback_error(const pmdaMetric *m, unsigned int inst, int sts)
{
    char idbuf[32], ebuf[PM_MAXERRMSGLEN];

    switch (sts) {
    case PM_ERR_INST:
    case PM_ERR_VALUE:
    case PM_ERR_APPVERSION:
    case PM_ERR_PERMISSION:
    case PM_ERR_AGAIN:
    case PM_ERR_NYI:
        return;
    case PM_ERR_PMID:
        pmNotifyErr(LOG_ERR, "pmdaFetch: PMID %s not handled by fetch callback",
                    pmIDStr_r(m->m_desc.pmid, idbuf, sizeof(idbuf)));
        return;
    default:
        pmNotifyErr(LOG_ERR, "pmdaFetch: Fetch callback error from metric PMID %s[%d]: %s",
                    pmIDStr_r(m->m_desc.pmid, idbuf, sizeof(idbuf)), (int)inst,
                    pmErrStr_r(sts, ebuf, sizeof(ebuf)));
    }
}

/* Does a non-negative callback status mean "a value is present"? */
static int value_present(int version, int sts)
{
    if (version == PMDA_INTERFACE_2)
        return 1;
    if (version < PMDA_INTERFACE_5)
        return sts > 0;
    return sts != PMDA_FETCH_NOVALUES;
}

static void free_dynamic(const pmdaMetric *m, pmAtomValue *atom)
{
    char idbuf[32];

    if (m->m_desc.type == PM_TYPE_STRING)
        free(atom->cp);
    else if (m->m_desc.type == PM_TYPE_AGGREGATE)
        free(atom->vbp);
    else
        pmNotifyErr(LOG_WARNING, "pmdaFetch: Attempt to free value for metric %s of wrong type %s",
                    pmIDStr_r(m->m_desc.pmid, idbuf, sizeof(idbuf)), pmTypeStr(m->m_desc.type));
}

/* The value set of one metric: every profiled instance through the callback. */
static pmValueSet *fetch_metric(pmdaExt *pmda, pmdaMetric *m, pmID pmid, int version)
{
    int cap = __pmdaCntInst(m->m_desc.indom, pmda);
    int n = 0, sts = 0, inst;
    pmValueSet *vs;

    if (cap < 1)
        cap = 1;
    vs = malloc(sizeof(*vs) + (size_t)(cap - 1) * sizeof(pmValue));
    if (vs == NULL)
        return NULL;
    vs->pmid = pmid;
    vs->valfmt = PM_VAL_INSITU;
    __pmdaStartInst(m->m_desc.indom, pmda);
    while (__pmdaNextInst(&inst, pmda)) {
        pmAtomValue atom;
        memset(&atom, 0, sizeof(atom));
        sts = pmda->e_fetchCallBack(m, (unsigned int)inst, &atom);
        if (sts < 0) {
            callback_error(m, (unsigned int)inst, sts);
            continue;
        }
        if (!value_present(version, sts))
            continue;
        if (n == cap) {
            pmValueSet *grown = realloc(vs, sizeof(*vs) + (size_t)(2 * cap - 1) * sizeof(pmValue));
            if (grown == NULL)
                break;
            vs = grown;
            cap *= 2;
        }
        int fmt = stuff_value(&atom, &vs->vlist[n], m->m_desc.type);
        if (version >= PMDA_INTERFACE_5 && sts == PMDA_FETCH_DYNAMIC)
            free_dynamic(m, &atom);
        if (fmt < 0) {
            char idbuf[32];
            if (fmt == PM_ERR_TYPE)
                pmNotifyErr(LOG_ERR, "pmdaFetch: Descriptor type (%s) for metric %s is bad",
                            pmTypeStr(m->m_desc.type), pmIDStr_r(pmid, idbuf, sizeof(idbuf)));
            sts = fmt;
            continue;
        }
        vs->vlist[n].inst = inst;
        vs->valfmt = fmt;
        n++;
    }
    vs->numval = n > 0 ? n : sts;
    return vs;
}

/* The result skeleton, grown to hold n value sets. */
static pmResult *skeleton(pmda_priv *priv, int n)
{
    if (n > priv->maxnpmids) {
        pmResult *r = realloc(priv->res, sizeof(pmResult) + (size_t)(n - 1) * sizeof(pmValueSet *));
        if (r == NULL)
            return NULL;
        priv->res = r;
        priv->maxnpmids = n;
    }
    memset(&priv->res->timestamp, 0, sizeof(priv->res->timestamp));
    priv->res->numpmid = n;
    return priv->res;
}

int pmdaFetch(int numpmid, pmID *pmidlist, pmResult **resp, pmdaExt *pmda)
{
    pmda_priv *priv = pmda_priv_of(pmda);
    int version = (int)priv->dispatch->comm.pmda_interface;
    pmResult *res;

    note_context(pmda);
    if (numpmid < 1 || (res = skeleton(priv, numpmid)) == NULL)
        return numpmid < 1 ? PM_ERR_TOOSMALL : -ENOMEM;
    for (int i = 0; i < numpmid; i++) {
        pmdaMetric *m = pmda_find_metric(pmda, pmidlist[i]);
        pmdaMetric tmp;
        pmValueSet *vs;

        if (m == NULL && priv->dispatch->version.any.desc != pmdaDesc &&
            priv->dispatch->version.any.desc(pmidlist[i], &tmp.m_desc, pmda) == 0) {
            tmp.m_user = NULL;
            m = &tmp;
        }
        if (m == NULL) {
            vs = calloc(1, sizeof(*vs));
            if (vs != NULL) {
                vs->pmid = pmidlist[i];
                vs->numval = PM_ERR_PMID;
            }
        } else {
            vs = fetch_metric(pmda, m, pmidlist[i], version);
        }
        if (vs == NULL) {
            res->numpmid = i;
            pmda->e_resultCallBack(res);
            return -ENOMEM;
        }
        res->vset[i] = vs;
    }
    if (version >= PMDA_INTERFACE_7) {
        unsigned char flags = 0;
        if (pmda->e_flags & PMDA_EXT_LABEL_CHANGE)
            flags |= PMCD_LABEL_CHANGE;
        if (pmda->e_flags & PMDA_EXT_NAMES_CHANGE)
            flags |= PMCD_NAMES_CHANGE;
        memcpy(&res->timestamp, &flags, 1);
        pmda->e_flags &= ~(unsigned int)(PMDA_EXT_LABEL_CHANGE | PMDA_EXT_NAMES_CHANGE);
    }
    *resp = res;
    return 0;
}
