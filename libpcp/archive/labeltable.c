/*
 * labeltable.c - the label sets' table of an archive set as Debian's
 * library keeps it after loading the metadata (__pmLogCtl's hashlabels,
 * <pcp/libpcp.h>): by class (PM_LABEL_*), then by identifier, then a
 * chain of __pmLogLabelSet newest first.  An archive context's view
 * fills its hashlabels with it (context/loglabels.c) and pmdumplog -e
 * prints it, so that both follow one set of rules.
 *
 * Filled from the metadata's label records in their order, as Debian's
 * PCP 6.0.3 fills it after pmNewContext (seen entry by entry with a probe
 * on the testsuite's archives and on label records added to them): keys
 * go in as first met (__pmHashAdd's layout then gives PCP's walk), those
 * of context labels all PM_ID_NULL whatever the record's identifier; a
 * record goes into its chain after every entry not older than it, or
 * starts a chain of its own (a second node of that key, found first from
 * then on) when the chain's newest entry holds no sets.  Once
 * all are in, each chain is walked from its newest entry: an entry loses
 * the sets equal (instance and JSON) to one of the next older entry's, as
 * that entry was before its own turn, and goes if left with none, so the
 * chain holds each set where it changes; the oldest entry stays whole,
 * even with no sets.  Each entry owns its sets (copies of the
 * metadata's).  Nothing here looks labels up by time: arch_labels_at
 * does, from the records themselves.
 */
#include "archive.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <pcp/libpcp.h>

static void entry_free(__pmLogLabelSet *e)
{
    if (e->nsets > 0)
        pmFreeLabelSets(e->labelsets, e->nsets);
    else
        free(e->labelsets);
    free(e);
}

/* One record as a chain entry, its sets copied. */
static __pmLogLabelSet *entry_new(const arch_label_rec *r)
{
    __pmLogLabelSet *e = calloc(1, sizeof(*e));
    pmLabelSet *sets = NULL;

    if (e == NULL)
        return NULL;
    if (r->nsets > 0 && (sets = calloc((size_t)r->nsets, sizeof(*sets))) == NULL) {
        free(e);
        return NULL;
    }
    e->stamp.sec = (int64_t)r->stamp.tv_sec;
    e->stamp.nsec = (int32_t)r->stamp.tv_nsec;
    e->type = r->type;
    e->ident = r->ident;
    e->labelsets = sets;
    for (int i = 0; i < r->nsets; i++, e->nsets++) {
        const pmLabelSet *from = &r->sets[i];
        size_t nl = from->nlabels > 0 ? (size_t)from->nlabels : 0;
        sets[i] = *from;
        sets[i].hash = NULL;
        sets[i].labels = NULL;
        if ((sets[i].json = malloc((size_t)from->jsonlen + 1)) == NULL ||
            (nl > 0 && (sets[i].labels = malloc(nl * sizeof(pmLabel))) == NULL)) {
            free(sets[i].json);
            entry_free(e);
            return NULL;
        }
        memcpy(sets[i].json, from->json != NULL ? from->json : "", (size_t)from->jsonlen);
        sets[i].json[from->jsonlen] = '\0';
        if (nl > 0)
            memcpy(sets[i].labels, from->labels, nl * sizeof(pmLabel));
    }
    return e;
}

static int same_set(const pmLabelSet *a, const pmLabelSet *b)
{
    return a->inst == b->inst && a->jsonlen == b->jsonlen &&
           (a->jsonlen == 0 || memcmp(a->json, b->json, (size_t)a->jsonlen) == 0);
}

/* Takes from e the sets equal to one of by's; the count left. */
static int trim(__pmLogLabelSet *e, const __pmLogLabelSet *by)
{
    int kept = 0;

    for (int i = 0; i < e->nsets; i++) {
        int found = 0;
        for (int j = 0; j < by->nsets && !found; j++)
            found = same_set(&e->labelsets[i], &by->labelsets[j]);
        if (found) {
            free(e->labelsets[i].json);
            free(e->labelsets[i].labels);
        } else {
            e->labelsets[kept++] = e->labelsets[i];
        }
    }
    e->nsets = kept;
    return kept;
}

/* e into the chain of node n, after every entry not older than it. */
static void chain_add(__pmHashNode *n, __pmLogLabelSet *e)
{
    __pmLogLabelSet *newer = NULL, *older = n->data;

    for (; older != NULL && __pmTimestampCmp(&older->stamp, &e->stamp) >= 0; older = older->next)
        newer = older;
    e->next = older;
    if (newer != NULL)
        newer->next = e;
    else
        n->data = e;
}

/* Each entry of n's chain, newest first, loses the sets equal to one of
 * the next older entry's (as that was before its own turn), and goes if
 * that leaves it none; the oldest stays whole. */
static void chain_trim(__pmHashNode *n)
{
    __pmLogLabelSet **link = (__pmLogLabelSet **)&n->data, *e;

    while ((e = *link) != NULL && e->next != NULL) {
        if (trim(e, e->next) == 0) {
            *link = e->next;
            entry_free(e);
        } else {
            link = &e->next;
        }
    }
}

static int add_label(const arch_label_rec *r, void *arg)
{
    __pmHashCtl *types = arg, *idents;
    __pmHashNode *n = __pmHashSearch((unsigned)r->type, types);
    __pmLogLabelSet *e;
    /* context labels have one key whatever the record's identifier */
    unsigned key = r->type == PM_LABEL_CONTEXT ? PM_ID_NULL : (unsigned)r->ident;

    if (n == NULL) {
        if ((idents = calloc(1, sizeof(*idents))) == NULL)
            return -ENOMEM;
        if (__pmHashAdd((unsigned)r->type, idents, types) < 0) {
            free(idents);
            return -ENOMEM;
        }
    } else {
        idents = n->data;
    }
    if ((e = entry_new(r)) == NULL)
        return -ENOMEM;
    n = __pmHashSearch(key, idents);
    if (n == NULL || ((const __pmLogLabelSet *)n->data)->nsets == 0) {
        if (__pmHashAdd(key, e, idents) < 0) {
            entry_free(e);
            return -ENOMEM;
        }
        return 0;
    }
    chain_add(n, e);
    return 0;
}

int arch_label_table(const arch_set *s, __pmHashCtl *types)
{
    int sts = arch_label_walk(s, add_label, types);

    for (int i = 0; sts >= 0 && i < types->hsize; i++) {
        for (__pmHashNode *n = types->hash[i]; n != NULL; n = n->next) {
            __pmHashCtl *idents = n->data;
            for (int j = 0; j < idents->hsize; j++)
                for (__pmHashNode *m = idents->hash[j]; m != NULL; m = m->next)
                    chain_trim(m);
        }
    }
    return sts;
}

void arch_label_table_free(__pmHashCtl *types)
{
    for (int i = 0; i < types->hsize; i++) {
        for (__pmHashNode *n = types->hash[i]; n != NULL; n = n->next) {
            __pmHashCtl *idents = n->data;
            for (int j = 0; j < idents->hsize; j++) {
                for (__pmHashNode *m = idents->hash[j]; m != NULL; m = m->next) {
                    __pmLogLabelSet *e = m->data, *next;
                    for (; e != NULL; e = next) {
                        next = e->next;
                        entry_free(e);
                    }
                }
            }
            __pmHashClear(idents);
            free(idents);
        }
    }
    __pmHashClear(types);
}
