/*
 * query.c - answers from the metadata tables: descriptors, names,
 * instance domains at a time and over all time, help text and label sets.
 *
 * An instance domain's observations are kept in time order; the view at a
 * time is the last observation at or before it (none before the first).
 * Views are sorted by instance identifier, as PCP keeps them.  A v3
 * delta observation is applied to the view before it: its removed
 * instances leave, its others are added (or renamed) in place.  Each
 * domain keeps its last view, so asking again for the same time costs
 * nothing and moving forward applies only the deltas in between.
 *
 * Not here: the namespace built from the names (libpcp's names code),
 * profiles, and choosing which time to ask about.
 */
#include "arch_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int arch_desc(const arch_set *s, pmID pmid, pmDesc *desc)
{
    uint32_t at = u32map_get(&s->meta.desc_by_pmid, pmid);

    if (at == UINT32_MAX)
        return PM_ERR_PMID_LOG;
    *desc = s->meta.descs[at];
    return 0;
}

int arch_nnames(const arch_set *s)
{
    return s->meta.nnames;
}

const char *arch_name_at(const arch_set *s, int i, pmID *pmid)
{
    if (i < 0 || i >= s->meta.nnames)
        return NULL;
    *pmid = s->meta.name_pmid[i];
    return s->meta.names[i];
}

int arch_npmids(const arch_set *s)
{
    return s->meta.ndescs;
}

pmID arch_pmid_at(const arch_set *s, int i)
{
    return i >= 0 && i < s->meta.ndescs ? s->meta.descs[i].pmid : PM_ID_NULL;
}

int arch_names_of(const arch_set *s, pmID pmid, const char **names, int max)
{
    int n = 0;

    for (int i = 0; i < s->meta.nnames; i++) {
        if (s->meta.name_pmid[i] != pmid)
            continue;
        if (n < max)
            names[n] = s->meta.names[i];
        n++;
    }
    return n;
}

/* ------------------------------------------------------------------ */
/* Instance domains. */

static meta_indom *indom_of(const arch_set *s, pmInDom indom)
{
    uint32_t at = u32map_get(&s->meta.indom_by_id, indom);

    return at == UINT32_MAX ? NULL : &s->meta.indoms[at];
}

/* Room in d's view for n instances. */
static int view_room(meta_indom *d, int n)
{
    int *inst = realloc(d->view_inst, (size_t)(n > 0 ? n : 1) * sizeof(int));
    const char **name;

    if (inst == NULL)
        return -ENOMEM;
    d->view_inst = inst;
    name = realloc(d->view_name, (size_t)(n > 0 ? n : 1) * sizeof(char *));
    if (name == NULL)
        return -ENOMEM;
    d->view_name = name;
    return 0;
}

/* Position of inst in d's view (sorted by identifier), or where it goes. */
static int view_find(const meta_indom *d, int inst, int *found)
{
    int lo = 0, hi = d->view_n;

    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (d->view_inst[mid] < inst)
            lo = mid + 1;
        else
            hi = mid;
    }
    *found = lo < d->view_n && d->view_inst[lo] == inst;
    return lo;
}

/* Apply a delta observation to d's view, which stays sorted. */
static int apply_delta(meta_indom *d, const meta_indom_obs *o)
{
    if (view_room(d, d->view_n + o->n) < 0)
        return -ENOMEM;
    for (int i = 0; i < o->n; i++) {
        int found, k = view_find(d, o->inst[i], &found), n = d->view_n;
        if (o->name[i] == NULL) {
            if (found) {
                memmove(d->view_inst + k, d->view_inst + k + 1, (size_t)(n - k - 1) * sizeof(int));
                memmove(d->view_name + k, d->view_name + k + 1,
                        (size_t)(n - k - 1) * sizeof(char *));
                d->view_n--;
            }
            continue;
        }
        if (!found) {
            memmove(d->view_inst + k + 1, d->view_inst + k, (size_t)(n - k) * sizeof(int));
            memmove(d->view_name + k + 1, d->view_name + k, (size_t)(n - k) * sizeof(char *));
            d->view_n++;
        }
        d->view_inst[k] = o->inst[i];
        d->view_name[k] = o->name[i];
    }
    return 0;
}

typedef struct inst_pair {
    int inst;
    int at; /* the position in the record: equal identifiers keep their order */
    const char *name;
} inst_pair;

static int by_inst(const void *a, const void *b)
{
    const inst_pair *x = a, *y = b;

    if (x->inst != y->inst)
        return x->inst < y->inst ? -1 : 1;
    return (x->at > y->at) - (x->at < y->at);
}

/* A full observation as d's view, sorted by identifier (as PCP keeps
 * them; the .meta order is for pmdumplog -I). */
static int full_view(meta_indom *d, const meta_indom_obs *o)
{
    int sorted = 1;
    inst_pair *v;

    if (view_room(d, o->n) < 0)
        return -ENOMEM;
    d->view_n = o->n;
    memcpy(d->view_inst, o->inst, (size_t)o->n * sizeof(int));
    memcpy(d->view_name, o->name, (size_t)o->n * sizeof(char *));
    for (int i = 1; i < o->n && sorted; i++)
        sorted = o->inst[i - 1] <= o->inst[i];
    if (sorted)
        return 0;
    if ((v = malloc((size_t)o->n * sizeof(*v))) == NULL)
        return -ENOMEM;
    for (int i = 0; i < o->n; i++)
        v[i] = (inst_pair){o->inst[i], i, o->name[i]};
    qsort(v, (size_t)o->n, sizeof(*v), by_inst);
    for (int i = 0; i < o->n; i++) {
        d->view_inst[i] = v[i].inst;
        d->view_name[i] = v[i].name;
    }
    free(v);
    return 0;
}

/* Make d's view the observation at index at (deltas applied): from the
 * view it has when that is earlier, else from the last full observation
 * at or before at (from nothing when the first is a delta). */
static int make_view(meta_indom *d, int at)
{
    int from, sts = 0;

    if (d->view_at == at)
        return 0;
    if (d->view_at >= 0 && d->view_at < at) {
        from = d->view_at + 1;
    } else {
        d->view_n = 0;
        from = 0;
    }
    for (int k = at; k >= from; k--) {
        if (!d->obs[k].delta) {
            from = k;
            break;
        }
    }
    d->view_at = -1;
    for (int k = from; k <= at && sts == 0; k++) {
        const meta_indom_obs *o = &d->obs[k];
        sts = o->delta ? apply_delta(d, o) : full_view(d, o);
    }
    if (sts == 0)
        d->view_at = at;
    return sts;
}

/* Index of the last observation of d at or before t, or -1. */
static int obs_at(const meta_indom *d, const struct timespec *t)
{
    int lo = 0, hi = d->nobs;

    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (arch_cmp(&d->obs[mid].stamp, t) <= 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo - 1;
}

int arch_indom_at(arch_set *s, pmInDom indom, const struct timespec *t, arch_indom_view *v)
{
    meta_indom *d = indom_of(s, indom);
    int at, sts;

    if (d == NULL || d->nobs == 0)
        return PM_ERR_INDOM_LOG;
    if ((at = obs_at(d, t)) < 0)
        return PM_ERR_INDOM_LOG; /* none yet at that time */
    if ((sts = make_view(d, at)) < 0)
        return sts;
    v->n = d->view_n;
    v->inst = d->view_inst;
    v->name = d->view_name;
    v->stamp = d->obs[at].stamp;
    return 0;
}

/* d's union of instances (every identifier once, with the name it last
 * had, newest observation first, each in identifier order) and its
 * indexes, made once: the metadata does not change. */
static int make_union(meta_indom *d)
{
    int n = 0, room = 0, sts = 0;

    if (d->nunion >= 0)
        return 0;
    for (int k = d->nobs - 1; k >= 0 && sts == 0; k--) {
        if ((sts = make_view(d, k)) < 0)
            break;
        for (int i = 0; i < d->view_n && sts == 0; i++) {
            const char *name = d->view_name[i];
            const char *sp = strchr(name, ' ');
            if (u32map_get(&d->union_by_inst, (uint32_t)d->view_inst[i]) != UINT32_MAX)
                continue;
            if (n == room) {
                int *ni;
                const char **nn;
                room = room == 0 ? 16 : room * 2;
                if ((ni = realloc(d->union_inst, (size_t)room * sizeof(int))) == NULL) {
                    sts = -ENOMEM;
                    break;
                }
                d->union_inst = ni;
                if ((nn = realloc(d->union_name, (size_t)room * sizeof(char *))) == NULL) {
                    sts = -ENOMEM;
                    break;
                }
                d->union_name = nn;
            }
            d->union_inst[n] = d->view_inst[i];
            d->union_name[n] = name;
            if (u32map_put(&d->union_by_inst, (uint32_t)d->view_inst[i], (uint32_t)n) < 0 ||
                strmap_add(&d->union_by_name, name, strlen(name), (uint32_t)n) < 0 ||
                (sp != NULL &&
                 strmap_add(&d->union_by_word, name, (size_t)(sp - name), (uint32_t)n) < 0))
                sts = -ENOMEM;
            n++;
        }
    }
    if (sts < 0) {
        free(d->union_inst);
        free(d->union_name);
        d->union_inst = NULL;
        d->union_name = NULL;
        u32map_free(&d->union_by_inst);
        strmap_free(&d->union_by_name);
        strmap_free(&d->union_by_word);
        return sts;
    }
    d->nunion = n;
    return 0;
}

int arch_indom_union(const arch_set *s, pmInDom indom, int **inst, char ***names)
{
    meta_indom *d = indom_of(s, indom);
    size_t bytes = 0;
    char **out, *p;
    int n, sts;

    if (d == NULL || d->nobs == 0)
        return PM_ERR_INDOM_LOG;
    if ((sts = make_union(d)) < 0)
        return sts;
    *inst = NULL;
    *names = NULL;
    if ((n = d->nunion) == 0)
        return 0;
    for (int i = 0; i < n; i++)
        bytes += strlen(d->union_name[i]) + 1;
    if ((*inst = malloc((size_t)n * sizeof(int))) == NULL ||
        (out = malloc((size_t)n * sizeof(char *) + bytes)) == NULL) {
        free(*inst);
        *inst = NULL;
        return -ENOMEM;
    }
    memcpy(*inst, d->union_inst, (size_t)n * sizeof(int));
    p = (char *)(out + n);
    for (int i = 0; i < n; i++) {
        size_t len = strlen(d->union_name[i]) + 1;
        out[i] = memcpy(p, d->union_name[i], len);
        p += len;
    }
    *names = out;
    return n;
}

int arch_indom_union_find(const arch_set *s, pmInDom indom, int inst, const char *name, int *found,
                          const char **foundname)
{
    meta_indom *d = indom_of(s, indom);
    uint32_t at;
    int sts;

    if (d == NULL || d->nobs == 0)
        return PM_ERR_INDOM_LOG;
    if ((sts = make_union(d)) < 0)
        return sts;
    if (name == NULL) {
        at = u32map_get(&d->union_by_inst, (uint32_t)inst);
    } else {
        size_t len = strlen(name);
        if ((at = strmap_get(&d->union_by_name, name, len)) == UINT32_MAX)
            at = strmap_get(&d->union_by_word, name, len);
    }
    if (at == UINT32_MAX)
        return PM_ERR_INST_LOG;
    *found = d->union_inst[at];
    *foundname = d->union_name[at];
    return 0;
}

/* An observation's place, for the walk in .meta order. */
typedef struct obs_ref {
    uint32_t seq;
    meta_indom *d;
    const meta_indom_obs *o;
} obs_ref;

static int by_seq(const void *a, const void *b)
{
    uint32_t x = ((const obs_ref *)a)->seq, y = ((const obs_ref *)b)->seq;

    return (x > y) - (x < y);
}

int arch_indom_walk(arch_set *s, pmInDom indom, int (*fn)(const arch_indom_rec *, void *),
                    void *arg)
{
    obs_ref *all = malloc((size_t)(s->meta.nobs > 0 ? s->meta.nobs : 1) * sizeof(*all));
    size_t n = 0;
    int sts = 0;

    if (all == NULL)
        return -ENOMEM;
    for (int i = 0; i < s->meta.nindoms; i++) {
        meta_indom *d = &s->meta.indoms[i];
        if (indom != PM_INDOM_NULL && d->indom != indom)
            continue;
        for (int k = 0; k < d->nobs; k++)
            all[n++] = (obs_ref){d->obs[k].seq, d, &d->obs[k]};
    }
    qsort(all, n, sizeof(*all), by_seq);
    for (size_t k = 0; k < n && sts == 0; k++) {
        const meta_indom_obs *o = all[k].o;
        arch_indom_rec r = {all[k].d->indom, o->stamp, o->delta, o->n, o->inst, o->name};
        sts = fn(&r, arg);
    }
    free(all);
    return sts;
}

/* ------------------------------------------------------------------ */
/* Help text and labels. */

int arch_text(const arch_set *s, int type, int ident, const char **text)
{
    int want = type & (PM_TEXT_ONELINE | PM_TEXT_HELP | PM_TEXT_PMID | PM_TEXT_INDOM);

    int any = 0;

    /* an archive that holds no help text for metrics (or for instance
     * domains) answers as PCP's does: only a host could */
    for (int i = 0; i < s->meta.ntexts && !any; i++)
        any = (s->meta.texts[i].type & (PM_TEXT_PMID | PM_TEXT_INDOM)) ==
              (want & (PM_TEXT_PMID | PM_TEXT_INDOM));
    if (!any)
        return PM_ERR_NOTHOST;
    for (int i = s->meta.ntexts - 1; i >= 0; i--) {
        const meta_text *t = &s->meta.texts[i];
        if (t->ident == ident && t->type == want) {
            *text = t->text;
            return 0;
        }
    }
    return PM_ERR_TEXT;
}

int arch_text_walk(const arch_set *s, int (*fn)(int type, int ident, const char *text, void *),
                   void *arg)
{
    int sts = 0;

    for (int i = 0; i < s->meta.ntexts && sts == 0; i++)
        sts = fn(s->meta.texts[i].type, s->meta.texts[i].ident, s->meta.texts[i].text, arg);
    return sts;
}

/* Copies of nsets label sets, as pmFreeLabelSets frees them. */
static int copy_sets(const pmLabelSet *from, int nsets, pmLabelSet **sets)
{
    pmLabelSet *out = calloc((size_t)nsets, sizeof(*out));

    if (out == NULL)
        return -ENOMEM;
    for (int i = 0; i < nsets; i++) {
        out[i] = from[i];
        out[i].hash = NULL;
        out[i].json = malloc(from[i].jsonlen + 1u);
        out[i].labels = NULL;
        if (out[i].json != NULL)
            memcpy(out[i].json, from[i].json, from[i].jsonlen + 1u);
        if (from[i].nlabels > 0) {
            out[i].labels = malloc((size_t)from[i].nlabels * sizeof(pmLabel));
            if (out[i].labels != NULL)
                memcpy(out[i].labels, from[i].labels, (size_t)from[i].nlabels * sizeof(pmLabel));
        }
        if (out[i].json == NULL || (from[i].nlabels > 0 && out[i].labels == NULL)) {
            pmFreeLabelSets(out, i + 1);
            return -ENOMEM;
        }
    }
    *sets = out;
    return nsets;
}

/* {"hostname":HOST}, the context label PCP gives an archive that records
 * none: one set. */
static int hostname_set(const char *host, pmLabelSet **sets)
{
    pmLabelSet *set = calloc(1, sizeof(*set));
    size_t n = 0, room = 2 * strlen(host) + 16;
    char *json = malloc(room);

    if (set == NULL || json == NULL || (set->labels = calloc(1, sizeof(pmLabel))) == NULL) {
        free(set);
        free(json);
        return -ENOMEM;
    }
    n += (size_t)snprintf(json, room, "{\"hostname\":\"");
    for (const char *p = host; *p != '\0'; p++) {
        if (*p == '"' || *p == '\\')
            json[n++] = '\\';
        json[n++] = *p;
    }
    memcpy(json + n, "\"}", 3);
    n += 2;
    set->inst = PM_IN_NULL;
    set->nlabels = 1;
    set->json = json;
    set->jsonlen = n > PM_MAXLABELJSONLEN ? PM_MAXLABELJSONLEN : (unsigned)n;
    set->labels[0].name = 2;
    set->labels[0].namelen = 8;
    set->labels[0].flags = PM_LABEL_CONTEXT;
    set->labels[0].value = 12;
    set->labels[0].valuelen = (unsigned)(n - 13);
    *sets = set;
    return 1;
}

int arch_labels_at(const arch_set *s, int type, int ident, const struct timespec *t,
                   pmLabelSet **sets)
{
    const meta_labels *best = NULL;
    int any = 0;

    *sets = NULL;
    for (int i = 0; i < s->meta.nlabels && !any; i++)
        any = s->meta.labels[i].type == PM_LABEL_CONTEXT;
    if (type == PM_LABEL_CONTEXT && !any)
        return hostname_set(s->arch[0].label.hostname, sets);
    for (int i = 0; i < s->meta.nlabels; i++) {
        const meta_labels *l = &s->meta.labels[i];
        if (l->type != type || l->ident != ident)
            continue;
        if (arch_cmp(&l->stamp, t) <= 0 && (best == NULL || arch_cmp(&best->stamp, &l->stamp) <= 0))
            best = l;
    }
    if (best == NULL || best->nsets == 0)
        return 0;
    return copy_sets(best->sets, best->nsets, sets);
}

int arch_label_walk(const arch_set *s, int (*fn)(const arch_label_rec *, void *), void *arg)
{
    int sts = 0;

    for (int i = 0; i < s->meta.nlabels && sts == 0; i++) {
        const meta_labels *l = &s->meta.labels[i];
        arch_label_rec r = {l->stamp, l->type, l->ident, l->nsets, l->sets};
        sts = fn(&r, arg);
    }
    return sts;
}

uint64_t arch_nindex(const arch_set *s, int i)
{
    return i >= 0 && i < s->narch ? s->arch[i].nti : 0;
}

int arch_index_entry(arch_set *s, int i, uint64_t j, arch_ti *ti)
{
    if (i < 0 || i >= s->narch)
        return PM_ERR_LOGREC;
    return index_entry(&s->arch[i], j, ti);
}
