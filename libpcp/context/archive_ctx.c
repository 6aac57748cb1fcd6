/*
 * archive_ctx.c - archive contexts: what a context reads from archives
 * (libpcp/archive), for the PMAPI calls of the metrics and names rooms.
 *
 * An archive context holds an archive set (shared with its copies, with
 * the namespace built from its names), a cursor of its own, the mode and
 * the context's time.  pmFetchArchive reads the next record in the mode's
 * direction; pmFetch does the same until a record holds one of the
 * PMIDs asked for, and answers for those PMIDs only, in the order asked,
 * with the profile applied (a PMID the record lacks has no values).  Each
 * fetch moves the context's time to the record's.  pmSetMode places the
 * cursor: forward, before the first record at or after the time;
 * backward, after the last record at or before it.  Descriptors, help
 * text, label sets and instance domains come from the metadata, the
 * instance domains and labels as they were at the context's time.
 *
 * Archive contexts are used with the library lock held, like local ones
 * (pmkit_ctx_hold).  The namespace made from the archives' names is the
 * names room's: it is kept here, with the function that releases it.
 * In PM_MODE_INTERP, pmFetch answers at the context's time and moves it by
 * the step (archive_interp.c computes the values).  PCP's record reader
 * (__pmLogRead_ctx, pcpview.c) reads from the same cursor, but its first
 * read after pmSetMode starts where Debian's pmSetMode leaves its file
 * (arch_cursor_pcp_seek), which the fetches never use.
 */
#include "archive_ctx.h"
#include "archive.h"
#include "archive_interp.h"
#include "values.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The set and its namespace, shared by a context and its copies. */
typedef struct arch_shared {
    arch_set *set;
    void *names;                /* the names room's namespace, or NULL */
    void (*names_free)(void *); /* how it goes, when the last copy goes */
    int refs;                   /* under the library lock */
} arch_shared;

struct pmkit_archive {
    arch_shared *sh;
    arch_cursor *cur;
    int mode;               /* PM_MODE_FORW, PM_MODE_BACK or PM_MODE_INTERP */
    int mode_word;          /* the mode as pmSetMode was given it, flags and
                             * all (PCP's c_mode) */
    struct timespec origin; /* the context's time */
    struct timespec delta;  /* pmSetMode's step */
    pmkit_interp_cache *ic; /* PM_MODE_INTERP's (what it holds does not
                             * depend on the mode or the time) */
    arch_end_memo end;      /* the end an interpolated fetch checks */
    /* PCP's reader (__pmLogRead_ctx) starts where Debian's pmSetMode
     * leaves its file, not at the cursor: pending from a pmSetMode until a
     * read or a fetch, with the mode's time and direction, and the file's
     * place (archive, volume, offset): before, then (resolved) after it */
    int pcp_pending, pcp_resolved, pcp_dir;
    struct timespec pcp_when;
    int pcp_arch, pcp_vol;
    uint64_t pcp_off, pcp_noted; /* and the offset Debian's notes */
};

int pmkit_archive_open(const char *spec, int flags, pmkit_archive **out)
{
    pmkit_archive *a = calloc(1, sizeof(*a));
    arch_shared *sh = calloc(1, sizeof(*sh));
    int sts;

    if (a == NULL || sh == NULL) {
        free(a);
        free(sh);
        return -ENOMEM;
    }
    a->sh = sh;
    sh->refs = 1;
    sts = arch_open(spec, (flags & PM_CTXFLAG_NO_FEATURE_CHECK) ? ARCH_OPEN_NO_FEATURE_CHECK : 0,
                    &sh->set);
    if (sts == 0 && (a->cur = arch_cursor_new(sh->set)) == NULL)
        sts = -ENOMEM;
    if (sts < 0) {
        pmkit_archive_close(a);
        return sts;
    }
    a->mode = a->mode_word = PM_MODE_FORW;
    a->origin = arch_label_of(sh->set, 0)->start;
    *out = a;
    return 0;
}

int pmkit_archive_dup(const pmkit_archive *old, pmkit_archive **out)
{
    pmkit_archive *a = malloc(sizeof(*a));

    if (a == NULL)
        return -ENOMEM;
    *a = *old;
    a->ic = NULL;
    if ((a->cur = arch_cursor_dup(old->cur)) == NULL) {
        free(a);
        return -ENOMEM;
    }
    a->sh->refs++;
    *out = a;
    return 0;
}

void pmkit_archive_close(pmkit_archive *a)
{
    if (a == NULL)
        return;
    arch_cursor_free(a->cur);
    pmkit_interp_cache_free(a->ic);
    if (a->sh != NULL && --a->sh->refs == 0) {
        if (a->sh->names != NULL)
            a->sh->names_free(a->sh->names);
        arch_close(a->sh->set);
        free(a->sh);
    }
    free(a);
}

void *pmkit_archive_names(const pmkit_archive *a)
{
    return a->sh->names;
}

void pmkit_archive_set_names(pmkit_archive *a, void *names, void (*names_free)(void *))
{
    a->sh->names = names;
    a->sh->names_free = names_free;
}

int pmkit_archive_name_list(const pmkit_archive *a, const char ***names, pmID **pmids)
{
    int n = arch_nnames(a->sh->set);

    *names = malloc((size_t)(n > 0 ? n : 1) * sizeof(char *));
    *pmids = malloc((size_t)(n > 0 ? n : 1) * sizeof(pmID));
    if (*names == NULL || *pmids == NULL) {
        free(*names);
        free(*pmids);
        return -ENOMEM;
    }
    for (int i = 0; i < n; i++)
        (*names)[i] = arch_name_at(a->sh->set, i, &(*pmids)[i]);
    return n;
}

/* The current context, held, and its archive: 0, PM_ERR_NOCONTEXT or
 * PM_ERR_NOTARCHIVE (nothing held). */
static int hold_archive(pmkit_ctx **ctx, pmkit_archive **a)
{
    if ((*ctx = pmkit_ctx_hold()) == NULL)
        return PM_ERR_NOCONTEXT;
    if ((*a = (*ctx)->archive) == NULL) {
        pmkit_ctx_release(*ctx);
        return PM_ERR_NOTARCHIVE;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Labels and the end. */

int pmkit_archive_label(pmHighResLogLabel *lp)
{
    pmkit_ctx *ctx;
    pmkit_archive *a;
    const arch_label *l;
    int sts;

    if ((sts = hold_archive(&ctx, &a)) < 0)
        return sts;
    l = arch_label_of(a->sh->set, 0);
    memset(lp, 0, sizeof(*lp));
    lp->magic = l->magic;
    lp->pid = l->pid;
    lp->start = l->start;
    pmkit_copy(lp->hostname, (int)sizeof(lp->hostname), l->hostname);
    pmkit_copy(lp->timezone, (int)sizeof(lp->timezone), l->timezone);
    pmkit_copy(lp->zoneinfo, (int)sizeof(lp->zoneinfo), l->zoneinfo);
    pmkit_ctx_release(ctx);
    return 0;
}

void pmkit_archive_hostname(const pmkit_archive *a, char *buf, int buflen)
{
    pmkit_copy(buf, buflen, arch_label_of(a->sh->set, 0)->hostname);
}

arch_set *pmkit_archive_set(const pmkit_archive *a)
{
    return a->sh->set;
}

const struct arch_label *pmkit_archive_first_label(const pmkit_archive *a)
{
    return arch_label_of(a->sh->set, 0);
}

int pmkit_archive_end(struct timespec *tsp)
{
    pmkit_ctx *ctx;
    pmkit_archive *a;
    int sts;

    if ((sts = hold_archive(&ctx, &a)) < 0)
        return sts;
    sts = arch_end(a->sh->set, tsp);
    pmkit_ctx_release(ctx);
    return sts;
}

/* ------------------------------------------------------------------ */
/* Records. */

static int direction(const pmkit_archive *a)
{
    return a->mode == PM_MODE_BACK ? ARCH_BACK : ARCH_FORW;
}

/* The next record in the mode's direction as a result; the context's
 * time becomes its time.  A record whose time goes against the direction
 * (before the context's time going forward, after it going backward) is
 * passed over, as PCP does.  PM_ERR_EOL past the last (or the first). */
static int next_result(pmkit_archive *a, pmHighResResult **res)
{
    int dir = direction(a), sts;
    arch_record rec;

    if (a->mode == PM_MODE_INTERP)
        return PM_ERR_MODE;
    do {
        if ((sts = arch_cursor_step(a->cur, dir, &rec)) < 0)
            return sts;
        if (sts == 0)
            return PM_ERR_EOL;
    } while (dir > 0 ? arch_cmp(&rec.stamp, &a->origin) < 0 : arch_cmp(&rec.stamp, &a->origin) > 0);
    if ((sts = arch_record_result(a->sh->set, &rec, res)) < 0)
        return sts;
    a->origin = rec.stamp;
    return 0;
}

/* Where Debian's pmSetMode leaves its file, from where it was before:
 * a's pcp_* place moved (0), or an error reading the files. */
static int pcp_resolve(pmkit_archive *a, const arch_ti_src *src)
{
    arch_cursor *c = arch_cursor_dup(a->cur);
    int sts;

    if (c == NULL)
        return -ENOMEM;
    if ((sts = arch_cursor_goto(c, a->pcp_arch, a->pcp_vol, a->pcp_off)) == 0 &&
        (sts = arch_cursor_pcp_seek(c, &a->pcp_when, a->pcp_dir, src, &a->pcp_noted)) >= 0) {
        a->pcp_arch = arch_cursor_where(c, &a->pcp_vol, &a->pcp_off);
        a->pcp_resolved = 1;
        sts = 0;
    }
    arch_cursor_free(c);
    return sts;
}

int pmkit_archive_read(pmkit_archive *a, int dir, const arch_ti_src *src, pmHighResResult **res,
                       int *vol, uint64_t *end)
{
    arch_record rec;
    int sts;

    if (a->pcp_pending) {
        if (!a->pcp_resolved && (sts = pcp_resolve(a, src)) < 0)
            return sts;
        if ((sts = arch_cursor_goto(a->cur, a->pcp_arch, a->pcp_vol, a->pcp_off)) < 0)
            return sts;
        a->pcp_pending = 0;
    }
    if ((sts = arch_cursor_step(a->cur, dir, &rec)) < 0)
        return sts;
    if (sts == 0)
        return PM_ERR_EOL;
    if ((sts = arch_record_result(a->sh->set, &rec, res)) < 0)
        return sts;
    a->origin = rec.stamp;
    *vol = rec.archive == 0 && rec.len > 0 ? rec.vol : -1;
    *end = dir > 0 ? rec.off + rec.len : rec.off;
    return 0;
}

int pmkit_archive_next(pmHighResResult **result)
{
    pmkit_ctx *ctx;
    pmkit_archive *a;
    int sts;

    if ((sts = hold_archive(&ctx, &a)) < 0)
        return sts;
    a->pcp_pending = 0;
    sts = next_result(a, result);
    pmkit_ctx_release(ctx);
    return sts;
}

/* A copy of vs with only the instances the profile admits, one block. */
static pmValueSet *profile_copy(const pmValueSet *vs, const pmProfile *prof, pmInDom indom)
{
    size_t size = sizeof(pmValueSet), off;
    int keep = 0;
    pmValueSet *out;
    char *p;

    for (int j = 0; j < vs->numval; j++) {
        if (!__pmInProfile(indom, prof, vs->vlist[j].inst))
            continue;
        keep++;
        if (vs->valfmt != PM_VAL_INSITU)
            size += (vs->vlist[j].value.pval->vlen + 7u) & ~7u;
    }
    off = sizeof(pmValueSet) + (size_t)(keep > 1 ? keep - 1 : 0) * sizeof(pmValue);
    off = (off + 7) & ~(size_t)7;
    if ((out = malloc(off + size)) == NULL)
        return NULL;
    out->pmid = vs->pmid;
    out->numval = vs->numval < 0 ? vs->numval : keep;
    out->valfmt = vs->valfmt;
    p = (char *)out + off;
    for (int j = 0, k = 0; j < vs->numval; j++) {
        const pmValue *v = &vs->vlist[j];
        if (!__pmInProfile(indom, prof, v->inst))
            continue;
        out->vlist[k].inst = v->inst;
        if (vs->valfmt == PM_VAL_INSITU) {
            out->vlist[k].value.lval = v->value.lval;
        } else {
            memcpy(p, v->value.pval, v->value.pval->vlen);
            out->vlist[k].value.pval = (pmValueBlock *)p;
            p += (v->value.pval->vlen + 7u) & ~7u;
        }
        k++;
    }
    return out;
}

/* vsets[0..n) for pmids from record r, the profile applied; 1 when the
 * record holds one of them, 0 when it holds none (nothing made). */
static int pick(const pmkit_archive *a, pmkit_ctx *ctx, const pmHighResResult *r, int n,
                const pmID *pmids, pmValueSet **vsets)
{
    int any = 0;

    for (int i = 0; i < n && !any; i++)
        for (int k = 0; k < r->numpmid && !any; k++)
            any = r->vset[k]->pmid == pmids[i];
    if (!any)
        return 0;
    for (int i = 0; i < n; i++) {
        const pmValueSet *vs = NULL;
        pmDesc d;
        for (int k = 0; k < r->numpmid && vs == NULL; k++)
            if (r->vset[k]->pmid == pmids[i])
                vs = r->vset[k];
        if (vs == NULL) {
            vsets[i] = calloc(1, sizeof(pmValueSet));
            if (vsets[i] != NULL)
                vsets[i]->pmid = pmids[i];
        } else {
            if (arch_desc(a->sh->set, vs->pmid, &d) < 0)
                d.indom = PM_INDOM_NULL;
            vsets[i] = profile_copy(vs, pmkit_ctx_profile(ctx, 0), d.indom);
        }
        if (vsets[i] == NULL)
            return -ENOMEM;
    }
    return 1;
}

/* An interpolated fetch at the context's time, which then moves by the
 * step; PM_ERR_EOL more than a millisecond before the start (Debian's
 * slack: a v3 archive's start in a timeval is up to a microsecond early)
 * or past the end, whichever the direction, the time moving on by the
 * step all the same (as Debian's libpcp). */
static int interp_fetch(pmkit_archive *a, pmkit_ctx *ctx, int n, pmID *pmids, pmValueSet **vsets,
                        struct timespec *stamp)
{
    struct timespec end, start = arch_label_of(a->sh->set, 0)->start;
    int sts;

    if ((sts = arch_end_memo_get(a->sh->set, &a->end, &end)) < 0)
        return sts;
    start.tv_nsec -= 1000000;
    if (start.tv_nsec < 0) {
        start.tv_nsec += 1000000000;
        start.tv_sec--;
    }
    if (arch_cmp(&a->origin, &start) < 0 || arch_cmp(&a->origin, &end) > 0) {
        sts = PM_ERR_EOL; /* the time moves on all the same, as in Debian's */
    } else if ((sts = pmkit_interp_fetch(a->sh->set, a->cur, &a->ic, pmkit_ctx_profile(ctx, 0),
                                         &a->origin, &end, n, pmids, vsets)) < 0) {
        return sts;
    }
    *stamp = a->origin;
    a->origin.tv_sec += a->delta.tv_sec;
    a->origin.tv_nsec += a->delta.tv_nsec;
    while (a->origin.tv_nsec < 0) {
        a->origin.tv_nsec += 1000000000;
        a->origin.tv_sec--;
    }
    while (a->origin.tv_nsec >= 1000000000) {
        a->origin.tv_nsec -= 1000000000;
        a->origin.tv_sec++;
    }
    return sts;
}

int pmkit_archive_fetch(int n, pmID *pmids, pmValueSet **vsets, struct timespec *stamp)
{
    pmkit_ctx *ctx;
    pmkit_archive *a;
    int sts;

    if ((sts = hold_archive(&ctx, &a)) < 0)
        return sts;
    a->pcp_pending = 0;
    if (a->mode == PM_MODE_INTERP) {
        sts = interp_fetch(a, ctx, n, pmids, vsets, stamp);
        pmkit_ctx_release(ctx);
        return sts;
    }
    while (sts == 0) {
        pmHighResResult *r;
        if ((sts = next_result(a, &r)) < 0)
            break;
        sts = pick(a, ctx, r, n, pmids, vsets);
        if (sts > 0)
            *stamp = r->timestamp;
        pmFreeHighResResult(r);
        if (sts > 0) {
            sts = 0;
            break;
        }
    }
    pmkit_ctx_release(ctx);
    return sts;
}

int pmkit_archive_mode_word(const pmkit_archive *a)
{
    return a->mode_word;
}

/* Before pmSetMode moves the cursor: PCP's reader is to start where
 * Debian's pmSetMode leaves its file for the mode, when, delta (in
 * PM_MODE_INTERP, forward for a step above zero, else backward, a NULL
 * one included, as Debian's).  Debian's moves its file at
 * once: where a program sees it (the context's view, pcpview.c), the
 * place is found now and the view follows, in the first archive;
 * otherwise when PCP's reader first reads. */
static void pcp_setmode(pmkit_archive *a, pmkit_ctx *ctx, int m, const struct timespec *delta)
{
    int ahead = delta != NULL && (delta->tv_sec > 0 || (delta->tv_sec == 0 && delta->tv_nsec > 0));
    arch_ti_src src;

    if (!a->pcp_pending || !a->pcp_resolved)
        a->pcp_arch = arch_cursor_where(a->cur, &a->pcp_vol, &a->pcp_off);
    a->pcp_pending = 1;
    a->pcp_resolved = 0;
    a->pcp_when = a->origin;
    a->pcp_dir = m == PM_MODE_BACK || (m == PM_MODE_INTERP && !ahead) ? -1 : 1;
    if (pmkit_ctx_view_index(ctx, &src) && pcp_resolve(a, &src) == 0 && a->pcp_arch == 0)
        pmkit_ctx_view_placed(ctx, a->pcp_vol, a->pcp_off, a->pcp_noted);
}

void pmkit_archive_view_made(pmkit_archive *a, pmkit_ctx *ctx)
{
    arch_ti_src src;

    if (a->pcp_pending && !a->pcp_resolved && pmkit_ctx_view_index(ctx, &src) &&
        pcp_resolve(a, &src) == 0 && a->pcp_arch == 0)
        pmkit_ctx_view_placed(ctx, a->pcp_vol, a->pcp_off, a->pcp_noted);
}

int pmkit_archive_setmode(int mode, const struct timespec *when, const struct timespec *delta)
{
    pmkit_ctx *ctx;
    pmkit_archive *a;
    int sts, m = mode & 0xffff;

    if ((sts = hold_archive(&ctx, &a)) < 0)
        return sts;
    if (m != PM_MODE_FORW && m != PM_MODE_BACK && m != PM_MODE_INTERP) {
        pmkit_ctx_release(ctx);
        return PM_ERR_MODE;
    }
    a->mode = m;
    a->mode_word = mode;
    if (when != NULL)
        a->origin = *when;
    if (delta != NULL)
        a->delta = *delta;
    pcp_setmode(a, ctx, m, delta);
    sts =
        m == PM_MODE_INTERP ? 0 : arch_cursor_seek(a->cur, &a->origin, m == PM_MODE_BACK ? -1 : 1);
    pmkit_ctx_release(ctx);
    return sts < 0 ? sts : 0;
}

/* ------------------------------------------------------------------ */
/* Metadata. */

int pmkit_archive_desc(pmID pmid, pmDesc *desc)
{
    pmkit_ctx *ctx;
    pmkit_archive *a;
    int sts;

    if ((sts = hold_archive(&ctx, &a)) < 0)
        return sts;
    sts = arch_desc(a->sh->set, pmid, desc);
    pmkit_ctx_release(ctx);
    return sts;
}

int pmkit_archive_text(int ident, int type, char **buffer)
{
    pmkit_ctx *ctx;
    pmkit_archive *a;
    const char *text;
    int sts;

    if ((sts = hold_archive(&ctx, &a)) < 0)
        return sts;
    if ((sts = arch_text(a->sh->set, type, ident, &text)) == 0 && (*buffer = strdup(text)) == NULL)
        sts = -ENOMEM;
    pmkit_ctx_release(ctx);
    return sts;
}

int pmkit_archive_labels(int ident, int type, pmLabelSet **sets)
{
    pmkit_ctx *ctx;
    pmkit_archive *a;
    int sts;

    if ((sts = hold_archive(&ctx, &a)) < 0)
        return sts;
    sts = arch_labels_at(a->sh->set, type, ident, &a->origin, sets);
    pmkit_ctx_release(ctx);
    return sts;
}

/* Does name match instance name s: the whole of it, or its first word? */
static int name_match(const char *name, const char *s, int whole)
{
    size_t n = strlen(name);

    if (whole)
        return strcmp(name, s) == 0;
    return strncmp(name, s, n) == 0 && s[n] == ' ';
}

/* A pmInResult of n instances (names too when names is not NULL). */
static int in_result(pmInDom indom, int n, const int *inst, const char *const *names,
                     pmInResult **res)
{
    pmInResult *r = calloc(1, sizeof(*r));
    size_t bytes = 0;

    if (r == NULL)
        return -ENOMEM;
    r->indom = indom;
    r->numinst = n;
    for (int i = 0; i < n && names != NULL; i++)
        bytes += strlen(names[i]) + 1;
    r->instlist = malloc((size_t)(n > 0 ? n : 1) * sizeof(int));
    if (names != NULL)
        r->namelist = malloc((size_t)(n > 0 ? n : 1) * sizeof(char *) + bytes);
    if (r->instlist == NULL || (names != NULL && r->namelist == NULL)) {
        __pmFreeInResult(r);
        return -ENOMEM;
    }
    if (n > 0)
        memcpy(r->instlist, inst, (size_t)n * sizeof(int));
    if (names != NULL) {
        char *p = (char *)(r->namelist + (n > 0 ? n : 1));
        for (int i = 0; i < n; i++) {
            size_t len = strlen(names[i]) + 1;
            r->namelist[i] = memcpy(p, names[i], len);
            p += len;
        }
    }
    *res = r;
    return 0;
}

/* The instance domain at the context's time, as an agent's instance method
 * answers: all of it (inst PM_IN_NULL, name NULL), one by number or one by
 * name (its whole name, else its first word). */
int pmkit_archive_instance(pmInDom indom, int inst, const char *name, pmInResult **res)
{
    pmkit_ctx *ctx;
    pmkit_archive *a;
    arch_indom_view v;
    int sts;

    if ((sts = hold_archive(&ctx, &a)) < 0)
        return sts;
    if ((sts = arch_indom_at(a->sh->set, indom, &a->origin, &v)) < 0) {
        pmkit_ctx_release(ctx);
        return sts;
    }
    if (inst == (int)PM_IN_NULL && name == NULL) {
        sts = in_result(indom, v.n, v.inst, v.name, res);
    } else {
        sts = PM_ERR_INST_LOG;
        for (int whole = 1; whole >= 0 && sts == PM_ERR_INST_LOG; whole--) {
            for (int i = 0; i < v.n; i++) {
                if (name != NULL ? !name_match(name, v.name[i], whole) : v.inst[i] != inst)
                    continue;
                sts = in_result(indom, 1, &v.inst[i], &v.name[i], res);
                break;
            }
            if (name == NULL)
                break;
        }
    }
    pmkit_ctx_release(ctx);
    return sts;
}

int pmkit_archive_indom_union(pmInDom indom, int **instlist, char ***namelist)
{
    pmkit_ctx *ctx;
    pmkit_archive *a;
    int sts;

    if (indom == PM_INDOM_NULL)
        return PM_ERR_INDOM;
    if ((sts = hold_archive(&ctx, &a)) < 0)
        return sts;
    sts = arch_indom_union(a->sh->set, indom, instlist, namelist);
    pmkit_ctx_release(ctx);
    return sts;
}

int pmkit_archive_union_find(pmInDom indom, int inst, const char *name, char **found)
{
    pmkit_ctx *ctx;
    pmkit_archive *a;
    const char *fname;
    int sts, finst;

    if (indom == PM_INDOM_NULL)
        return PM_ERR_INDOM;
    if ((sts = hold_archive(&ctx, &a)) < 0)
        return sts;
    sts = arch_indom_union_find(a->sh->set, indom, inst, name, &finst, &fname);
    if (sts == 0 && found != NULL)
        sts = (*found = strdup(fname)) != NULL ? 0 : -ENOMEM;
    else if (sts == 0)
        sts = finst;
    pmkit_ctx_release(ctx);
    return sts;
}
