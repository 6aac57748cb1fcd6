/*
 * optfetch.c - PCP's fetch-group optimiser (<pcp/libpcp.h>), the one
 * pmlogger uses to bundle its metrics into pmFetch calls:
 * __pmOptFetchAdd, __pmOptFetchDel, __pmOptFetchRedo, __pmOptFetchDump and
 * the cost parameters (__pmOptFetchGetParams, __pmOptFetchPutParams).
 *
 * A group (fetchctl_t) holds instance domains (indomctl_t), each its
 * metrics (pmidctl_t), each the caller's requests (optreq_t); new nodes
 * go at the head of their list.  A metric asks for the union of its
 * requests' instances (all when one asks for all), an instance domain for
 * the union over its metrics: sorted, without repeats.  A group's pmID
 * list is its metrics in descending order without repeats (a metric can
 * sit under two instance domains when its requests disagree).
 *
 * The cost of a group's contents: c_pmid for each domain among its
 * metrics, c_indom for each domain among its instance domains, and
 * c_xtrainst for each instance a metric is sent and did not ask for (an
 * instance domain asked for whole counts c_indomsize instances; never
 * fewer than none).  Adding a request first prices every group as it is
 * (f_cost) and with the request (f_newcost); the first group with the
 * least increase (the least f_newcost when c_scope is not 0) takes it if
 * that is below c_fetch plus the cost of the request alone, else a new
 * group at the head of the list does, its f_cost that sum.  The state
 * bits: NEW for a new group, PMID when the pmID list grew, PROFILE for a
 * new instance domain or one not asked for whole; a delete sets PMID and
 * PROFILE, frees what it leaves empty and keeps the request's r_fetch
 * and r_next.  __pmOptFetchRedo takes every request out and adds them
 * again, last seen first, starting from one chosen with lrand48() (one
 * call, none for no requests).  All of this is Debian's libpcp's
 * behaviour as observed from outside (tests/oracle/probe_optfetch.c
 * drives both libraries through generated sequences and compares every
 * step).
 *
 * Not here: PCP's library ends the process when memory runs out; pmkit's
 * leaves a request it has no room for out of every group (r_fetch NULL),
 * and a list it cannot make again stays as it was.
 */
#include <pcp/pmapi.h>
#include <pcp/libpcp.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The parameters are process-wide in PCP's API (Get/PutParams). */
static optcost_t optcost = {4, 1, 15, 10, 2, 0};

void __pmOptFetchGetParams(optcost_t *ocp)
{
    *ocp = optcost;
}

void __pmOptFetchPutParams(optcost_t *ocp)
{
    optcost = *ocp;
}

/* An instance set: all, or N sorted distinct instances in V. */
typedef struct {
    int all;
    int n;
    int *v;
} instset;

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* S becomes S joined with the N instances of LIST (none: all of them);
 * -1 when there is no room (S unchanged). */
static int set_join(instset *s, int n, const int *list)
{
    int *v, k = 0;

    if (s->all)
        return 0;
    if (n <= 0) {
        free(s->v);
        s->v = NULL;
        s->n = 0;
        s->all = 1;
        return 0;
    }
    if ((v = malloc((s->n + n) * sizeof(int))) == NULL)
        return -1;
    if (s->n > 0)
        memcpy(v, s->v, s->n * sizeof(int));
    memcpy(v + s->n, list, n * sizeof(int));
    qsort(v, s->n + n, sizeof(int), cmp_int);
    for (int i = 0; i < s->n + n; i++)
        if (k == 0 || v[k - 1] != v[i])
            v[k++] = v[i];
    free(s->v);
    s->v = v;
    s->n = k;
    return 0;
}

/* How many instances the set stands for. */
static int set_size(const instset *s)
{
    return s->all ? optcost.c_indomsize : s->n;
}

/* A metric's instances: the union of its requests' and, when it is the
 * metric of RQP, of RQP's. */
static int pmid_set(const pmidctl_t *pmp, const optreq_t *rqp, instset *s)
{
    memset(s, 0, sizeof(*s));
    for (const optreq_t *r = pmp->p_rqp; r != NULL; r = r->r_next)
        if (set_join(s, r->r_numinst, r->r_instlist) < 0)
            return -1;
    if (rqp != NULL && rqp->r_desc->pmid == pmp->p_pmid)
        return set_join(s, rqp->r_numinst, rqp->r_instlist);
    return 0;
}

static int count_domain(int *doms, int *n, int dom)
{
    for (int i = 0; i < *n; i++)
        if (doms[i] == dom)
            return 0;
    doms[(*n)++] = dom;
    return 1;
}

/* The extra instances of one instance domain's metrics (RQP's metric
 * included when RQP belongs here), into *XTRA; -1 without room. */
static int indom_extra(const indomctl_t *idp, const optreq_t *rqp, long *xtra)
{
    instset prof = {0, 0, NULL}, *sets;
    int n = 0, k = 0, found = 0, sts = 0;
    const int mine = rqp != NULL && rqp->r_desc->indom == idp->i_indom;

    for (const pmidctl_t *pmp = idp->i_pmp; pmp != NULL; pmp = pmp->p_next)
        n++;
    if ((sets = calloc(n + 1, sizeof(*sets))) == NULL)
        return -1;
    for (const pmidctl_t *pmp = idp->i_pmp; pmp != NULL && sts == 0; pmp = pmp->p_next, k++) {
        if (mine && pmp->p_pmid == rqp->r_desc->pmid)
            found = 1;
        sts = pmid_set(pmp, mine ? rqp : NULL, &sets[k]);
    }
    if (sts == 0 && mine && !found)
        sts = set_join(&sets[k++], rqp->r_numinst, rqp->r_instlist);
    for (int i = 0; i < k && sts == 0; i++)
        sts = set_join(&prof, sets[i].all ? 0 : sets[i].n, sets[i].v);
    for (int i = 0; i < k; i++) {
        if (set_size(&prof) > set_size(&sets[i]))
            *xtra += set_size(&prof) - set_size(&sets[i]);
        free(sets[i].v);
    }
    free(sets);
    free(prof.v);
    return sts;
}

/* The cost of FP's contents, with RQP added when not NULL (FP NULL: of
 * RQP alone); -1 in *ERR without room. */
static int group_cost(const fetchctl_t *fp, const optreq_t *rqp, int *err)
{
    int npd = 0, nid = 0, *pdoms, *idoms, n = 1, seen = 0;
    long xtra = 0;
    const indomctl_t *idp;

    for (idp = fp ? fp->f_idp : NULL; idp != NULL; idp = idp->i_next)
        for (const pmidctl_t *pmp = idp->i_pmp; pmp != NULL; pmp = pmp->p_next)
            n++;
    pdoms = malloc(n * sizeof(int));
    idoms = malloc(n * sizeof(int));
    if (pdoms == NULL || idoms == NULL)
        *err = -1;
    for (idp = fp ? fp->f_idp : NULL; idp != NULL && *err == 0; idp = idp->i_next) {
        count_domain(idoms, &nid, pmInDom_domain(idp->i_indom));
        for (const pmidctl_t *pmp = idp->i_pmp; pmp != NULL; pmp = pmp->p_next)
            count_domain(pdoms, &npd, pmID_domain(pmp->p_pmid));
        if (rqp != NULL && rqp->r_desc->indom == idp->i_indom)
            seen = 1;
        if (indom_extra(idp, rqp, &xtra) < 0)
            *err = -1;
    }
    if (rqp != NULL && *err == 0) {
        count_domain(idoms, &nid, pmInDom_domain(rqp->r_desc->indom));
        count_domain(pdoms, &npd, pmID_domain(rqp->r_desc->pmid));
        if (!seen) {
            indomctl_t alone = {NULL, NULL, rqp->r_desc->indom, 0, NULL, NULL};
            if (indom_extra(&alone, rqp, &xtra) < 0)
                *err = -1;
        }
    }
    free(pdoms);
    free(idoms);
    return (int)((long)optcost.c_pmid * npd + (long)optcost.c_indom * nid +
                 optcost.c_xtrainst * xtra);
}

/* The instance list of N and V as the structures hold it (all: none). */
static void set_store(instset *s, int *n, int **v)
{
    free(*v);
    *n = s->all ? 0 : s->n;
    *v = s->all ? NULL : s->v;
}

/* PMP's instances again from its requests; -1 without room (unchanged). */
static int pmid_rebuild(pmidctl_t *pmp)
{
    instset s;

    if (pmid_set(pmp, NULL, &s) < 0) {
        free(s.v);
        return -1;
    }
    set_store(&s, &pmp->p_numinst, &pmp->p_instlist);
    return 0;
}

/* IDP's profile again from its metrics; -1 without room (unchanged). */
static int indom_rebuild(indomctl_t *idp)
{
    instset s = {0, 0, NULL};

    for (const pmidctl_t *pmp = idp->i_pmp; pmp != NULL; pmp = pmp->p_next)
        if (set_join(&s, pmp->p_numinst, pmp->p_instlist) < 0) {
            free(s.v);
            return -1;
        }
    set_store(&s, &idp->i_numinst, &idp->i_instlist);
    return 0;
}

static int cmp_pmid_down(const void *a, const void *b)
{
    pmID x = *(const pmID *)a, y = *(const pmID *)b;
    return (x < y) - (x > y);
}

/* FP's pmID list again, in descending order; -1 without room. */
static int group_rebuild(fetchctl_t *fp)
{
    int n = 0, k = 0;
    pmID *list;

    for (indomctl_t *idp = fp->f_idp; idp != NULL; idp = idp->i_next)
        for (pmidctl_t *pmp = idp->i_pmp; pmp != NULL; pmp = pmp->p_next)
            n++;
    if ((list = malloc((n ? n : 1) * sizeof(pmID))) == NULL)
        return -1;
    n = 0;
    for (indomctl_t *idp = fp->f_idp; idp != NULL; idp = idp->i_next)
        for (pmidctl_t *pmp = idp->i_pmp; pmp != NULL; pmp = pmp->p_next)
            list[n++] = pmp->p_pmid;
    qsort(list, n, sizeof(pmID), cmp_pmid_down);
    for (int i = 0; i < n; i++)
        if (k == 0 || list[k - 1] != list[i])
            list[k++] = list[i];
    free(fp->f_pmidlist);
    fp->f_pmidlist = list;
    fp->f_numpmid = k;
    return 0;
}

/* RQP into FP: its instance domain and metric found or made at the head
 * of their lists, the sets and the pmID list made again, the state bits
 * the caller sees; -1 when there is no room for a node (FP unchanged). */
static int group_insert(fetchctl_t *fp, optreq_t *rqp)
{
    indomctl_t *idp;
    pmidctl_t *pmp = NULL;
    int newindom = 0, newpmid = 1, wasall;

    for (int i = 0; i < fp->f_numpmid; i++)
        if (fp->f_pmidlist[i] == rqp->r_desc->pmid)
            newpmid = 0;

    for (idp = fp->f_idp; idp != NULL; idp = idp->i_next)
        if (idp->i_indom == rqp->r_desc->indom)
            break;
    if (idp == NULL) {
        if ((idp = calloc(1, sizeof(*idp))) == NULL)
            return -1;
        idp->i_indom = rqp->r_desc->indom;
        newindom = 1;
    }
    for (pmp = idp->i_pmp; pmp != NULL; pmp = pmp->p_next)
        if (pmp->p_pmid == rqp->r_desc->pmid)
            break;
    if (pmp == NULL) {
        if ((pmp = calloc(1, sizeof(*pmp))) == NULL) {
            if (newindom)
                free(idp);
            return -1;
        }
        pmp->p_pmid = rqp->r_desc->pmid;
        pmp->p_next = idp->i_pmp;
        idp->i_pmp = pmp;
    }
    if (newindom) {
        idp->i_next = fp->f_idp;
        fp->f_idp = idp;
    }
    wasall = !newindom && idp->i_numinst == 0;
    rqp->r_next = pmp->p_rqp;
    pmp->p_rqp = rqp;
    rqp->r_fetch = fp;
    pmid_rebuild(pmp);
    indom_rebuild(idp);
    group_rebuild(fp);
    if (newpmid)
        fp->f_state |= OPT_STATE_PMID;
    if (newindom || !wasall)
        fp->f_state |= OPT_STATE_PROFILE;
    return 0;
}

void __pmOptFetchAdd(fetchctl_t **root, optreq_t *new)
{
    fetchctl_t *fp, *best = NULL;
    int err = 0, val, bestval = 0, alone;

    new->r_fetch = NULL;
    new->r_next = NULL;
    for (fp = *root; fp != NULL; fp = fp->f_next) {
        fp->f_cost = group_cost(fp, NULL, &err);
        fp->f_newcost = group_cost(fp, new, &err);
        val = optcost.c_scope ? fp->f_newcost : fp->f_newcost - fp->f_cost;
        if (best == NULL || val < bestval) {
            best = fp;
            bestval = val;
        }
    }
    alone = optcost.c_fetch + group_cost(NULL, new, &err);
    if (best != NULL && bestval < alone) {
        if (group_insert(best, new) == 0)
            best->f_cost = best->f_newcost;
        return;
    }
    if ((fp = calloc(1, sizeof(*fp))) == NULL)
        return;
    if (group_insert(fp, new) < 0) {
        free(fp);
        return;
    }
    fp->f_cost = fp->f_newcost = alone;
    fp->f_state = OPT_STATE_NEW | OPT_STATE_PMID | OPT_STATE_PROFILE;
    fp->f_next = *root;
    *root = fp;
}

static void free_pmid(pmidctl_t *pmp)
{
    free(pmp->p_instlist);
    free(pmp);
}

static void free_indom(indomctl_t *idp)
{
    free(idp->i_instlist);
    free(idp);
}

static void free_group(fetchctl_t *fp)
{
    free(fp->f_pmidlist);
    free(fp);
}

/* Takes RQP out of FP if it is there: 1 if it was, its metric and
 * instance domain freed when left empty. */
static int group_remove(fetchctl_t *fp, optreq_t *rqp)
{
    for (indomctl_t **ip = &fp->f_idp; *ip != NULL; ip = &(*ip)->i_next)
        for (pmidctl_t **pp = &(*ip)->i_pmp; *pp != NULL; pp = &(*pp)->p_next)
            for (optreq_t **rp = &(*pp)->p_rqp; *rp != NULL; rp = &(*rp)->r_next) {
                if (*rp != rqp)
                    continue;
                *rp = rqp->r_next;
                if ((*pp)->p_rqp == NULL) {
                    pmidctl_t *pmp = *pp;
                    *pp = pmp->p_next;
                    free_pmid(pmp);
                    if ((*ip)->i_pmp == NULL) {
                        indomctl_t *idp = *ip;
                        *ip = idp->i_next;
                        free_indom(idp);
                    } else
                        indom_rebuild(*ip);
                } else {
                    pmid_rebuild(*pp);
                    indom_rebuild(*ip);
                }
                return 1;
            }
    return 0;
}

int __pmOptFetchDel(fetchctl_t **root, optreq_t *rqp)
{
    int err = 0;

    for (fetchctl_t **fpp = root; *fpp != NULL; fpp = &(*fpp)->f_next) {
        fetchctl_t *fp = *fpp;
        if (!group_remove(fp, rqp))
            continue;
        if (fp->f_idp == NULL) {
            *fpp = fp->f_next;
            free_group(fp);
        } else {
            group_rebuild(fp);
            fp->f_cost = group_cost(fp, NULL, &err);
            fp->f_state |= OPT_STATE_PMID | OPT_STATE_PROFILE;
        }
        return 0;
    }
    return -1;
}

void __pmOptFetchRedo(fetchctl_t **root)
{
    optreq_t **all;
    int n = 0, k, start;

    for (fetchctl_t *fp = *root; fp != NULL; fp = fp->f_next)
        for (indomctl_t *idp = fp->f_idp; idp != NULL; idp = idp->i_next)
            for (pmidctl_t *pmp = idp->i_pmp; pmp != NULL; pmp = pmp->p_next)
                for (optreq_t *rqp = pmp->p_rqp; rqp != NULL; rqp = rqp->r_next)
                    n++;
    if (n == 0 || (all = malloc(n * sizeof(*all))) == NULL)
        return;
    /* the requests, last seen first */
    k = n;
    while (*root != NULL) {
        fetchctl_t *fp = *root;
        while (fp->f_idp != NULL) {
            indomctl_t *idp = fp->f_idp;
            while (idp->i_pmp != NULL) {
                pmidctl_t *pmp = idp->i_pmp;
                for (optreq_t *rqp = pmp->p_rqp; rqp != NULL; rqp = rqp->r_next)
                    all[--k] = rqp;
                idp->i_pmp = pmp->p_next;
                free_pmid(pmp);
            }
            fp->f_idp = idp->i_next;
            free_indom(idp);
        }
        *root = fp->f_next;
        free_group(fp);
    }
    k = (int)(lrand48() % n);
    start = k == 0 ? 0 : (k + 1) % n;
    for (int i = 0; i < n; i++)
        __pmOptFetchAdd(root, all[(start + i) % n]);
    free(all);
}

/* "[N]" and the N instances, or " (nil)" for no list; a line. */
static void dump_insts(FILE *f, int n, const int *v)
{
    fprintf(f, "[%d]", n);
    if (v == NULL)
        fputs(" (nil)", f);
    for (int i = 0; v != NULL && i < n; i++)
        fprintf(f, " %d", v[i]);
    fputc('\n', f);
}

/* The same for a group's pmIDs. */
static void dump_pmids(FILE *f, int n, const pmID *v)
{
    fprintf(f, "[%d]", n);
    if (v == NULL)
        fputs(" (nil)", f);
    for (int i = 0; v != NULL && i < n; i++)
        fprintf(f, " %s", pmIDStr(v[i]));
    fputc('\n', f);
}

void __pmOptFetchDump(FILE *f, const fetchctl_t *root)
{
    static const char *const names[] = {"NEW",   "PMID",   "PROFILE", "XREQ",
                                        "XPMID", "XINDOM", "XFETCH",  "XPROFILE"};

    for (const fetchctl_t *fp = root; fp != NULL; fp = fp->f_next) {
        fprintf(f, "Dump optfetch structures from %p next=%p\n", (void *)fp, (void *)fp->f_next);
        fprintf(f, "Fetch Control @ %p: cost=%d state=", (void *)fp, fp->f_cost);
        for (int b = 0; b < 8; b++)
            if (fp->f_state & (1 << b))
                fprintf(f, "%s ", names[b]);
        fputs("\nPMIDs: ", f);
        dump_pmids(f, fp->f_numpmid, fp->f_pmidlist);
        for (const indomctl_t *idp = fp->f_idp; idp != NULL; idp = idp->i_next) {
            fprintf(f, "  InDom %s Control @ %p:\n  instances: ", pmInDomStr(idp->i_indom),
                    (void *)idp);
            dump_insts(f, idp->i_numinst, idp->i_instlist);
            for (const pmidctl_t *pmp = idp->i_pmp; pmp != NULL; pmp = pmp->p_next) {
                fprintf(f, "    PMID %s Control @ %p:\n    instances: ", pmIDStr(pmp->p_pmid),
                        (void *)pmp);
                dump_insts(f, pmp->p_numinst, pmp->p_instlist);
                for (const optreq_t *rqp = pmp->p_rqp; rqp != NULL; rqp = rqp->r_next) {
                    fprintf(f, "      Request @ %p:\n      instances: ", (void *)rqp);
                    dump_insts(f, rqp->r_numinst, rqp->r_instlist);
                }
            }
        }
        fputc('\n', f);
    }
}
