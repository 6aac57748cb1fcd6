/*
 * methods.c - the table-driven methods libpcp_pmda answers for an agent:
 * pmdaProfile, pmdaFetch, pmdaDesc, pmdaInstance, pmdaText, and the
 * instance iteration helpers (__pmdaCntInst, __pmdaStartInst,
 * __pmdaNextInst) they share with agents.
 *
 * pmdaFetch keeps PCP's contract exactly (tests/unit/test_pmda.c): a reusable
 * result skeleton owned by the agent, one malloc'd value set per PMID
 * owned by the caller, the callback return codes of interfaces 2 to 7,
 * values stored insitu for 32-bit integers and as value blocks otherwise,
 * and numval set to the last callback status when no value was stored.
 * The value blocks share their value set's malloc block (PCP mallocs
 * each one); libpcp's pmFreeResult and __pmFreeResultValues know.
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
    int n;

    if (indom == PM_INDOM_NULL)
        return 1;
    if ((n = pmda_cache_active(indom)) >= 0)
        return n;
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

/* Next instance in the profile: 1 with *inst set, or 0 at the end.  (Built
 * with -fno-semantic-interposition, fetch_metric's call may inline it.) */
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

/* A result for one instance, with room for its id or (names) its name. */
static int inresult_one(pmInDom indom, int names, pmInResult **out)
{
    pmInResult *res = calloc(1, sizeof(*res));

    if (res == NULL)
        return -ENOMEM;
    res->indom = indom;
    res->numinst = 1;
    if (names ? (res->namelist = calloc(1, sizeof(char *))) == NULL
              : (res->instlist = calloc(1, sizeof(int))) == NULL) {
        free(res);
        return -ENOMEM;
    }
    *out = res;
    return 0;
}

char *pmda_pack_alloc(int n, size_t bytes, int **ids, char ***names)
{
    int slots = n > 0 ? n : 1;

    *ids = malloc((size_t)slots * sizeof(int));
    *names = malloc((size_t)slots * sizeof(char *) + bytes);
    if (*ids == NULL || *names == NULL) {
        free(*ids);
        free(*names);
        *ids = NULL;
        *names = NULL;
        return NULL;
    }
    return (char *)(*names + slots);
}

/* A table's ids and names, packed as pmda_cache_pack_active packs a cache's. */
static int pack_table(const pmdaIndom *idp, int **ids, char ***names)
{
    int n = idp->it_numinst;
    size_t bytes = 0;
    char *p;

    for (int k = 0; k < n; k++)
        bytes += strlen(idp->it_set[k].i_name != NULL ? idp->it_set[k].i_name : "") + 1;
    if ((p = pmda_pack_alloc(n, bytes, ids, names)) == NULL)
        return -ENOMEM;
    for (int k = 0; k < n; k++) {
        (*ids)[k] = idp->it_set[k].i_inst;
        (*names)[k] = p;
        p = stpcpy(p, idp->it_set[k].i_name != NULL ? idp->it_set[k].i_name : "") + 1;
    }
    return n;
}

/*
 * Every instance, ids and names.  The names live inside the namelist
 * block, after the pointers (pmGetInDom's layout, so libpcp hands the
 * block on as it is; __pmFreeInResult frees only names outside it).
 */
static int all_instances(pmInDom indom, pmdaIndom *idp, pmInResult **out)
{
    pmInResult *res = calloc(1, sizeof(*res));
    int n;

    if (res == NULL)
        return -ENOMEM;
    n = idp == NULL ? pmda_cache_pack_active(indom, &res->instlist, &res->namelist)
                    : pack_table(idp, &res->instlist, &res->namelist);
    if (n < 0) {
        free(res);
        return n;
    }
    res->indom = indom;
    res->numinst = n;
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
        char *copy = NULL;
        if (cached) {
            if ((sts = pmda_cache_copy_name(indom, inst, &copy)) < 0)
                return sts;
        } else {
            const char *found = NULL;
            for (int i = 0; i < idp->it_numinst && found == NULL; i++)
                if (idp->it_set[i].i_inst == inst)
                    found = idp->it_set[i].i_name;
            if (found == NULL)
                return PM_ERR_INST;
            if ((copy = strdup(found)) == NULL)
                return -ENOMEM;
        }
        if ((sts = inresult_one(indom, 1, &res)) < 0) {
            free(copy);
            return sts;
        }
        res->namelist[0] = copy;
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
    if ((sts = inresult_one(indom, 0, &res)) < 0)
        return sts;
    res->instlist[0] = inst;
    *result = res;
    return 0;
}

/* ---- pmdaFetch ---- */

/*
 * Where one value goes, as PCP's __pmStuffValue decides: 32-bit integers
 * insitu in v (PM_VAL_INSITU), static aggregates and events by pointer
 * (PM_VAL_SPTR), everything else as a value block of *payload bytes from
 * *src (PM_VAL_DPTR), which the caller places; or an error.
 */
static int value_format(const pmAtomValue *atom, pmValue *v, int type, const void **src,
                        size_t *payload)
{
    switch (type) {
    case PM_TYPE_32:
    case PM_TYPE_U32:
        v->value.lval = atom->l;
        return PM_VAL_INSITU;
    case PM_TYPE_FLOAT:
        *payload = sizeof(float);
        *src = &atom->f;
        break;
    case PM_TYPE_64:
    case PM_TYPE_U64:
    case PM_TYPE_DOUBLE:
        *payload = 8;
        *src = &atom->ll;
        break;
    case PM_TYPE_STRING:
        *src = atom->cp != NULL ? atom->cp : "";
        *payload = strlen(*src) + 1;
        break;
    case PM_TYPE_AGGREGATE:
        if (atom->vbp == NULL)
            return PM_ERR_VALUE;
        *payload = atom->vbp->vlen >= PM_VAL_HDR_SIZE ? atom->vbp->vlen - PM_VAL_HDR_SIZE : 0;
        *src = atom->vbp->vbuf;
        break;
    case PM_TYPE_AGGREGATE_STATIC:
    case PM_TYPE_EVENT:
    case PM_TYPE_HIGHRES_EVENT:
        v->value.pval = atom->vbp;
        return PM_VAL_SPTR;
    default:
        return PM_ERR_TYPE;
    }
    if (*payload + PM_VAL_HDR_SIZE > PM_VAL_VLEN_MAX)
        return PM_ERR_TOOBIG;
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

/*
 * A value set under construction.  Its value blocks live in the same
 * malloc block, after vlist[cap] (8-byte aligned, at least 8 bytes each,
 * as PCP's are), so a fetch costs one malloc per metric however many
 * values it has; libpcp's free functions know not to free them one by one
 * (pmkit_in_block).  While the set grows, pval holds a block's offset in
 * the tail; vset_finish turns offsets into pointers.
 */
typedef struct {
    pmValueSet *vs;
    int cap;     /* vlist slots */
    size_t used; /* bytes of the tail in use */
    size_t room; /* bytes of tail allocated */
} vset_build;

static size_t vset_head(int cap)
{
    size_t head = sizeof(pmValueSet) + (size_t)(cap - 1) * sizeof(pmValue);
    return (head + 7) & ~(size_t)7;
}

/* Bytes a value block of this payload takes in the tail. */
static size_t block_size(size_t payload)
{
    size_t len = payload + PM_VAL_HDR_SIZE;
    return len < 8 ? 8 : (len + 7) & ~(size_t)7;
}

/* Make room for slot n and `need` more tail bytes; 0, or -1 (no memory). */
static int vset_reserve(vset_build *b, int n, size_t need)
{
    int cap = b->cap;
    size_t room = b->room;
    pmValueSet *grown;

    if (n < cap && b->used + need <= room)
        return 0;
    if (n >= cap)
        cap *= 2;
    while (b->used + need > room)
        room = room < 64 ? 64 : 2 * room;
    if ((grown = realloc(b->vs, vset_head(cap) + room)) == NULL)
        return -1;
    if (cap != b->cap) /* the tail moves up behind the longer vlist */
        memmove((char *)grown + vset_head(cap), (char *)grown + vset_head(b->cap), b->used);
    b->vs = grown;
    b->cap = cap;
    b->room = room;
    return 0;
}

/* Copy a payload into the tail as a value block; its offset goes in v. */
static void vset_place(vset_build *b, pmValue *v, int type, const void *src, size_t payload)
{
    size_t len = payload + PM_VAL_HDR_SIZE, size = block_size(payload);
    char *block = (char *)b->vs + vset_head(b->cap) + b->used;
    /* vtype is the header word's high byte whichever way the bit-fields
     * are laid out (pmapi.h); one store, not two bit-field updates */
    uint32_t hdr = (uint32_t)(type & 0xff) << 24 | (uint32_t)len;

    memset(block + size - 8, 0, 8); /* the padding, if any */
    memcpy(block, &hdr, PM_VAL_HDR_SIZE);
    if (payload == 8) /* 64-bit values: fixed-size moves */
        memcpy(block + PM_VAL_HDR_SIZE, src, 8);
    else
        memcpy(block + PM_VAL_HDR_SIZE, src, payload);
    v->value.pval = (pmValueBlock *)(uintptr_t)b->used;
    b->used += size;
}

static pmValueSet *vset_finish(vset_build *b, int n)
{
    pmValueSet *vs = b->vs;

    if (vs->valfmt == PM_VAL_DPTR) {
        char *tail = (char *)vs + vset_head(b->cap);
        for (int j = 0; j < n; j++)
            vs->vlist[j].value.pval = (pmValueBlock *)(tail + (uintptr_t)vs->vlist[j].value.pval);
    }
    return vs;
}

/* How many instances to make room for, from the mode __pmdaStartInst
 * chose (before the profile): the table's count without finding the table
 * again, or the cache's active count (one more locked count); 1 for a
 * singular metric or an unknown indom. */
static int iter_count(const pmda_priv *priv)
{
    switch (priv->it_mode) {
    case ITER_TABLE:
        return priv->it_idp->it_numinst;
    case ITER_CACHE:
        return pmda_cache_active(priv->it_indom);
    default:
        return 1;
    }
}

/* The value set of one metric: every profiled instance through the callback. */
static pmValueSet *fetch_metric(pmdaExt *pmda, pmdaMetric *m, pmID pmid, int version)
{
    int type = m->m_desc.type;
    int n = 0, sts = 0, inst;
    vset_build b;

    __pmdaStartInst(m->m_desc.indom, pmda);
    b.cap = iter_count(pmda_priv_of(pmda));
    if (b.cap < 1)
        b.cap = 1;
    b.used = 0;
    /* room for the fixed-size values, a guess for strings and aggregates */
    b.room = (size_t)b.cap * (type == PM_TYPE_32 || type == PM_TYPE_U32 ? 0
                              : type == PM_TYPE_FLOAT                   ? 8
                                                                        : 16);
    if ((b.vs = malloc(vset_head(b.cap) + b.room)) == NULL)
        return NULL;
    b.vs->pmid = pmid;
    b.vs->valfmt = PM_VAL_INSITU;
    while (__pmdaNextInst(&inst, pmda)) {
        pmAtomValue atom;
        pmValue v;
        const void *src = NULL;
        size_t payload = 0;
        int fmt;

        memset(&atom, 0, sizeof(atom));
        sts = pmda->e_fetchCallBack(m, (unsigned int)inst, &atom);
        if (sts < 0) {
            callback_error(m, (unsigned int)inst, sts);
            continue;
        }
        if (!value_present(version, sts))
            continue;
        fmt = value_format(&atom, &v, type, &src, &payload);
        if (fmt >= 0 && vset_reserve(&b, n, fmt == PM_VAL_DPTR ? block_size(payload) : 0) < 0)
            fmt = -ENOMEM;
        else if (fmt == PM_VAL_DPTR)
            vset_place(&b, &v, type, src, payload); /* block_size is inline: no second cost */
        if (version >= PMDA_INTERFACE_5 && sts == PMDA_FETCH_DYNAMIC)
            free_dynamic(m, &atom);
        if (fmt < 0) {
            char idbuf[32];
            if (fmt == PM_ERR_TYPE)
                pmNotifyErr(LOG_ERR, "pmdaFetch: Descriptor type (%s) for metric %s is bad",
                            pmTypeStr(type), pmIDStr_r(pmid, idbuf, sizeof(idbuf)));
            sts = fmt;
            continue;
        }
        v.inst = inst;
        b.vs->vlist[n] = v;
        b.vs->valfmt = fmt;
        n++;
    }
    b.vs->numval = n > 0 ? n : sts;
    return vset_finish(&b, n);
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
