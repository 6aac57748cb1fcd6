/*
 * logview.c - an archive context's controls as PCP's internal interface
 * shows them (<pcp/libpcp.h>: __pmArchCtl, __pmLogCtl), filled for
 * programs that read them (Debian's pmdumplog, pcp-testsuite's clients),
 * and the internal calls that take them: __pmLogFetch, __pmGetArchiveEnd,
 * __pmLogGetInDom, __pmLogLookupInDom, __pmLogNameInDom.
 *
 * pcpview.c makes the view when a program first asks for the context
 * (__pmHandleToPtr); here it gets what Debian's library has there after
 * pmNewContext, taken from the context's first archive: its files opened
 * as PCP opens them (__pmLogFindOpen, then the first data volume with
 * __pmLogChangeVol: name, mdfp, tifp, ac_mfp, minvol, maxvol, the label
 * and the offset after it), the temporal index (numti, ti), every
 * descriptor in hashpmid, the help text in hashtext (by type, then by
 * metric or instance domain), the label sets in hashlabels (loglabels.c),
 * and in hashindom each instance domain's
 * observations as the metadata holds them, newest first (next) and linked
 * back (prior), deltas left as deltas for __pmLogUndeltaInDom.  Keys are
 * added in the metadata's order, so PCP's hash walks (__pmHashAdd's
 * layout) give PCP's order.  It is a copy: pmkit's own calls read the
 * archive set (libpcp/archive), never these structures.
 *
 * As Debian's PCP 6.0.3 (oracle.debian_pmdumplog, oracle.testsuite_logmeta).
 * Not here: hashrange, trimindom and the namespace
 * (empty); the other archives of a multi-archive context; __pmArchCtl
 * structures pmkit did not make (the calls answer PM_ERR_NOTARCHIVE for
 * them, where PCP reads the files they name).
 */
#include "archive.h"
#include "archive_ctx.h"
#include "context.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <pcp/libpcp.h>

static void entry_free(__pmLogInDom *e)
{
    void *buf = e->buf;
    int self = e->alloc & PMLID_SELF;

    __pmFreeLogInDom(e);
    free(buf);
    if (!self)
        free(e);
}

/* Instance k of a record, for sorting by identifier (stably). */
typedef struct by_inst {
    int inst;
    int k;
} by_inst;

static int by_inst_cmp(const void *a, const void *b)
{
    const by_inst *x = a, *y = b;

    if (x->inst != y->inst)
        return x->inst < y->inst ? -1 : 1;
    return (x->k > y->k) - (x->k < y->k);
}

/* One observation as a chain entry: the structure, and its instances and
 * names in one block (buf) the entry owns; namelist malloc'd, as PCP's.
 * The instances in identifier order, as Debian's library keeps them. */
static __pmLogInDom *entry_new(const arch_indom_rec *r)
{
    size_t names = 0, off;
    __pmLogInDom *e;
    by_inst *order;
    char *p;

    for (int i = 0; i < r->n; i++)
        names += r->name[i] != NULL ? strlen(r->name[i]) + 1 : 0;
    off = (size_t)r->n * sizeof(int);
    if ((e = calloc(1, sizeof(*e))) == NULL)
        return NULL;
    e->buf = malloc(off + names + 1);
    e->namelist = malloc((size_t)(r->n > 0 ? r->n : 1) * sizeof(char *));
    if (e->buf == NULL || e->namelist == NULL) {
        free(e->buf);
        free(e->namelist);
        free(e);
        return NULL;
    }
    e->indom = r->indom;
    e->stamp.sec = (int64_t)r->stamp.tv_sec;
    e->stamp.nsec = (int32_t)r->stamp.tv_nsec;
    e->isdelta = r->delta;
    e->numinst = r->n;
    e->alloc = PMLID_NAMELIST;
    e->instlist = (int *)e->buf;
    if ((order = malloc((size_t)(r->n > 0 ? r->n : 1) * sizeof(*order))) == NULL) {
        entry_free(e);
        return NULL;
    }
    for (int i = 0; i < r->n; i++)
        order[i] = (by_inst){r->inst[i], i};
    qsort(order, (size_t)r->n, sizeof(*order), by_inst_cmp);
    p = (char *)e->buf + off;
    for (int i = 0; i < r->n; i++) {
        const char *name = r->name[order[i].k];
        e->instlist[i] = order[i].inst;
        e->namelist[i] = NULL;
        if (name != NULL) {
            size_t len = strlen(name) + 1;
            e->namelist[i] = memcpy(p, name, len);
            p += len;
        }
    }
    free(order);
    return e;
}

/* Are a and b the same observation: time, kind, instances and names? */
static int same_obs(const __pmLogInDom *a, const __pmLogInDom *b)
{
    if (__pmTimestampCmp(&a->stamp, &b->stamp) != 0 || a->isdelta != b->isdelta ||
        a->numinst != b->numinst)
        return 0;
    for (int i = 0; i < a->numinst; i++) {
        const char *x = a->namelist[i], *y = b->namelist[i];
        if (a->instlist[i] != b->instlist[i] || (x == NULL) != (y == NULL) ||
            (x != NULL && strcmp(x, y) != 0))
            return 0;
    }
    return 1;
}

/* e into its domain's chain, which runs newest first, before the first
 * entry not after it; an entry of the same time that is the same
 * observation goes (as in Debian's library, where of repeated
 * observations at one time the last in the file stays, in its place).
 * 0, or -ENOMEM. */
static int chain_add(__pmHashCtl *h, __pmLogInDom *e)
{
    __pmHashNode *n = __pmHashSearch(e->indom, h);
    __pmLogInDom *p, *newer = NULL;

    if (n == NULL)
        return __pmHashAdd(e->indom, e, h) < 0 ? -ENOMEM : 0;
    for (p = n->data; p != NULL && __pmTimestampCmp(&p->stamp, &e->stamp) > 0; p = p->next)
        newer = p;
    for (; p != NULL && __pmTimestampCmp(&p->stamp, &e->stamp) == 0; p = p->next) {
        if (same_obs(p, e)) {
            if (p->prior != NULL)
                p->prior->next = p->next;
            else
                n->data = p->next;
            if (p->next != NULL)
                p->next->prior = p->prior;
            entry_free(p);
            break;
        }
    }
    p = newer != NULL ? newer->next : n->data;
    e->next = p;
    e->prior = newer;
    if (p != NULL)
        p->prior = e;
    if (newer != NULL)
        newer->next = e;
    else
        n->data = e;
    return 0;
}

static int add_indom(const arch_indom_rec *r, void *arg)
{
    __pmLogInDom *e = entry_new(r);

    if (e == NULL)
        return -ENOMEM;
    if (chain_add(arg, e) < 0) {
        entry_free(e);
        return -ENOMEM;
    }
    return 0;
}

static void free_indoms(__pmHashCtl *h)
{
    for (int i = 0; i < h->hsize; i++) {
        for (__pmHashNode *n = h->hash[i]; n != NULL; n = n->next) {
            __pmLogInDom *e = n->data, *next;
            for (; e != NULL; e = next) {
                next = e->next;
                entry_free(e);
            }
        }
    }
    __pmHashClear(h);
}

static void free_descs(__pmHashCtl *h)
{
    for (int i = 0; i < h->hsize; i++)
        for (__pmHashNode *n = h->hash[i]; n != NULL; n = n->next)
            free(n->data);
    __pmHashClear(h);
}

/* One help text into hashtext: by its type (PM_TEXT_*), then by its
 * metric or instance domain; a later text of the same pair replaces the
 * earlier, as the metadata's last one is the one in force. */
static int add_text(int type, int ident, const char *text, void *arg)
{
    __pmHashCtl *types = arg, *idents;
    __pmHashNode *n = __pmHashSearch((unsigned)type, types);
    char *copy = strdup(text);

    if (copy == NULL)
        return -ENOMEM;
    if (n == NULL) {
        if ((idents = calloc(1, sizeof(*idents))) == NULL ||
            __pmHashAdd((unsigned)type, idents, types) < 0) {
            free(idents);
            free(copy);
            return -ENOMEM;
        }
    } else {
        idents = n->data;
    }
    if ((n = __pmHashSearch((unsigned)ident, idents)) != NULL) {
        free(n->data);
        n->data = copy;
        return 0;
    }
    if (__pmHashAdd((unsigned)ident, copy, idents) < 0) {
        free(copy);
        return -ENOMEM;
    }
    return 0;
}

static void free_texts(__pmHashCtl *h)
{
    for (int i = 0; i < h->hsize; i++) {
        for (__pmHashNode *n = h->hash[i]; n != NULL; n = n->next) {
            __pmHashCtl *idents = n->data;
            for (int j = 0; j < idents->hsize; j++)
                for (__pmHashNode *m = idents->hash[j]; m != NULL; m = m->next)
                    free(m->data);
            __pmHashClear(idents);
            free(idents);
        }
    }
    __pmHashClear(h);
}

/* The index of archive 0, as far as its entries can be read. */
static int fill_index(__pmLogCtl *lc, arch_set *s)
{
    uint64_t n = arch_nindex(s, 0);
    arch_ti ti;

    if (n == 0)
        return 0;
    if (n > INT32_MAX || (lc->ti = calloc((size_t)n, sizeof(*lc->ti))) == NULL)
        return -ENOMEM;
    for (uint64_t j = 0; j < n && arch_index_entry(s, 0, j, &ti) == 0; j++) {
        __pmLogTI *t = &lc->ti[lc->numti++];
        t->stamp.sec = (int64_t)ti.stamp.tv_sec;
        t->stamp.nsec = (int32_t)ti.stamp.tv_nsec;
        t->vol = ti.vol;
        t->off_meta = (off_t)ti.meta_off;
        t->off_data = (off_t)ti.data_off;
    }
    return 0;
}

static int fill_descs(__pmLogCtl *lc, arch_set *s)
{
    for (int i = 0; i < arch_npmids(s); i++) {
        pmID pmid = arch_pmid_at(s, i);
        pmDesc *d = malloc(sizeof(*d));
        if (d == NULL || arch_desc(s, pmid, d) < 0 || __pmHashAdd(pmid, d, &lc->hashpmid) < 0) {
            free(d);
            return -ENOMEM;
        }
    }
    return 0;
}

/* The files of archive 0 opened as PCP's context has them: the label is
 * the first volume's (left empty when that cannot be read). */
static void open_files(__pmArchCtl *ac, arch_set *s)
{
    __pmLogCtl *lc = ac->ac_log;
    const char *base = arch_base_of(s, 0);

    ac->ac_curvol = -1;
    if (base == NULL || __pmLogFindOpen(ac, base) < 0)
        return;
    if (__pmLogChangeVol(ac, lc->minvol) < 0) {
        __pmLogFreeLabel(&lc->label);
        return;
    }
    ac->ac_offset = (long)__pmLogLabelSize(lc);
    ac->ac_vol = ac->ac_curvol;
}

int pmkit_logview_fill(__pmArchCtl *ac, pmkit_archive *a)
{
    __pmLogCtl *lc = ac->ac_log;
    arch_set *s = pmkit_archive_set(a);
    int sts;

    lc->refcnt = 1;
    lc->physend = -1;
    ac->ac_chkfeatures = 1;
    ac->ac_num_logs = 1;
    open_files(ac, s);
    if ((sts = fill_index(lc, s)) < 0 || (sts = fill_descs(lc, s)) < 0 ||
        (sts = arch_text_walk(s, add_text, &lc->hashtext)) < 0 ||
        (sts = pmkit_logview_labels(ac, s)) < 0)
        return sts;
    return arch_indom_walk(s, PM_INDOM_NULL, add_indom, &lc->hashindom);
}

void pmkit_logview_free(__pmArchCtl *ac)
{
    __pmLogCtl *lc = ac->ac_log;

    if (ac->ac_mfp != NULL)
        __pmFclose(ac->ac_mfp);
    if (lc->mdfp != NULL)
        __pmFclose(lc->mdfp);
    if (lc->tifp != NULL)
        __pmFclose(lc->tifp);
    free_indoms(&lc->hashindom);
    free_descs(&lc->hashpmid);
    free_texts(&lc->hashtext);
    pmkit_logview_labels_free(ac);
    free(lc->ti);
    free(lc->seen);
    free(lc->name);
    __pmLogFreeLabel(&lc->label);
}

/* ---------------------------------------------------------------- calls */

/* The archives of the context whose view holds acp (library lock held). */
static pmkit_archive *archive_of(const __pmArchCtl *acp)
{
    pmkit_ctx *ctx;

    for (int i = 0; acp != NULL && (ctx = pmkit_ctx_nth(i)) != NULL; i++)
        if (ctx->archive != NULL && ctx->pcp != NULL && ctx->pcp->c_archctl == acp)
            return ctx->archive;
    return NULL;
}

int __pmGetArchiveEnd(__pmArchCtl *acp, __pmTimestamp *tsp)
{
    pmkit_archive *a;
    struct timespec end;
    int sts = PM_ERR_NOTARCHIVE;

    pmkit_lock();
    if ((a = archive_of(acp)) != NULL && (sts = arch_end(pmkit_archive_set(a), &end)) >= 0) {
        tsp->sec = (int64_t)end.tv_sec;
        tsp->nsec = (int32_t)end.tv_nsec;
        acp->ac_log->endtime = *tsp;
        sts = 0;
    }
    pmkit_unlock();
    return sts;
}

/* The next record in the context's mode (every metric of it for
 * numpmid 0, else as pmFetch), its time the context's; as a __pmResult
 * in the same block. */
int __pmLogFetch(__pmContext *ctxp, int numpmid, pmID *pmidlist, __pmResult **result)
{
    int sts;

    if (ctxp == NULL)
        return PM_ERR_NOCONTEXT;
    if ((sts = pmkit_view_fetch(ctxp, numpmid, pmidlist, 1, result)) >= 0)
        ctxp->c_origin = (*result)->timestamp;
    return sts;
}

/* The entry of acp's chain for indom in effect at *tsp (the newest not
 * after it), made whole: 0 and *lidp, or PM_ERR_INDOM_LOG. */
static int search(__pmArchCtl *acp, pmInDom indom, const __pmTimestamp *tsp, __pmLogInDom **lidp)
{
    __pmHashNode *n;
    __pmLogInDom *e;

    if (acp == NULL || acp->ac_log == NULL ||
        (n = __pmHashSearch(indom, &acp->ac_log->hashindom)) == NULL)
        return PM_ERR_INDOM_LOG;
    for (e = n->data; e != NULL && __pmTimestampCmp(&e->stamp, tsp) > 0; e = e->next)
        ;
    if (e == NULL)
        return PM_ERR_INDOM_LOG;
    if (e->isdelta)
        __pmLogUndeltaInDom(indom, e);
    *lidp = e;
    return 0;
}

int __pmLogGetInDom(__pmArchCtl *acp, pmInDom indom, __pmTimestamp *tsp, int **instlist,
                    char ***namelist)
{
    __pmLogInDom *e;
    int sts;

    pmkit_lock();
    if ((sts = search(acp, indom, tsp, &e)) == 0) {
        *instlist = e->instlist;
        *namelist = e->namelist;
        sts = e->numinst;
    }
    pmkit_unlock();
    return sts;
}

int __pmLogLookupInDom(__pmArchCtl *acp, pmInDom indom, __pmTimestamp *tsp, const char *name)
{
    __pmLogInDom *e;
    int sts;

    pmkit_lock();
    if ((sts = search(acp, indom, tsp, &e)) == 0) {
        size_t len = strlen(name);
        sts = PM_ERR_INST_LOG;
        for (int i = 0; i < e->numinst && sts < 0; i++)
            if (e->namelist[i] != NULL && strcmp(e->namelist[i], name) == 0)
                sts = e->instlist[i];
        /* else the first whose name's first word is name */
        for (int i = 0; i < e->numinst && sts < 0; i++)
            if (e->namelist[i] != NULL && strncmp(e->namelist[i], name, len) == 0 &&
                e->namelist[i][len] == ' ')
                sts = e->instlist[i];
    }
    pmkit_unlock();
    return sts;
}

int __pmLogNameInDom(__pmArchCtl *acp, pmInDom indom, __pmTimestamp *tsp, int inst, char **name)
{
    __pmLogInDom *e;
    int sts;

    pmkit_lock();
    if ((sts = search(acp, indom, tsp, &e)) == 0) {
        sts = PM_ERR_INST_LOG;
        for (int i = 0; i < e->numinst && sts < 0; i++) {
            if (e->instlist[i] == inst && e->namelist[i] != NULL) {
                *name = e->namelist[i];
                sts = 0;
            }
        }
    }
    pmkit_unlock();
    return sts;
}
