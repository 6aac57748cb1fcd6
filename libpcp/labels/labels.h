/*
 * labels.h - the labels room (libpcp/labels): label JSON, label sets and
 * merges (labels.c), and a local context's own labels (context_labels.c).
 * For the other rooms of libpcp and, through the exported names below,
 * libpcp_pmda.
 */
#ifndef PMKIT_LABELS_H
#define PMKIT_LABELS_H

#include "support.h"

/* A list of labels by full dotted name, sorted by name once built, each a
 * copy of its name and value. */
typedef struct pmkit_lbl {
    char *name;  /* full name, then (same block) the value */
    char *value; /* compact JSON text */
    int namelen, valuelen;
    int flags; /* PM_LABEL_* class and flags */
    /* from a parse: where the inner name and the value start in the compact
     * JSON, the inner name's length, and whether it is below a name */
    int name_off, inner_len, value_off, nested;
    /* from a set: its pmLabel and JSON, for a merge filter */
    const pmLabel *set_label;
    const char *set_json;
} pmkit_lbl;

typedef struct pmkit_lbls {
    pmkit_lbl *v;
    int n, room;
} pmkit_lbls;

void pmkit_lbls_free(pmkit_lbls *l);
/* Parse a label object; flags go on every label, names may have dots if
 * dots is set.  The compact JSON (NULL for no labels) and the labels
 * sorted by name; the count or -EINVAL, -E2BIG, -ENOMEM.  JSON that is not
 * an object has no labels. */
int pmkit_labels_parse(const char *text, int flags, int dots, char **json, pmkit_lbls *out);
/* Set's labels, in their first form, from a parse (takes json). */
int pmkit_labelset_first(pmLabelSet *set, char *json, const pmkit_lbls *l);
/* Set's labels replaced by l as one flat object. */
int pmkit_labelset_flat(pmLabelSet *set, const pmkit_lbls *l);
/* A new set (inst PM_IN_NULL) of l as one flat object: 1, or -errno. */
int pmkit_labelset_one(const pmkit_lbls *l, pmLabelSet **sets);
/* The labels of a set by full name. */
int pmkit_lbls_of_set(const pmLabelSet *set, pmkit_lbls *out);
/* l as one flat object and (labels not NULL) its labels[]: the JSON
 * length, 0 for none. */
int pmkit_lbls_json(const pmkit_lbls *l, char **json, pmLabel **labels);
/* acc merged with upd, upd winning; filter as pmMergeLabelSets'. */
int pmkit_lbls_merge(pmkit_lbls *acc, pmkit_lbls *upd,
                     int (*filter)(const pmLabel *, const char *, void *), void *arg,
                     const char *acc_json, const pmLabel *acc_labels);
/* s as a JSON string into buf[size]: quoted, quotes and backslashes
 * escaped, control characters dropped, truncated to fit. */
void pmkit_json_string(char *buf, size_t size, const char *s);

/* A local context's labels (context_labels.c): its host's label files and
 * the host's own labels, as one set; 1, or -ENOENT without the labels
 * directory, or -errno. */
int pmkit_context_labels(pmLabelSet **sets);

/* For libpcp_pmda, by PCP's names: add a label object to a set
 * (labels.c), the label files' labels added to a set, 1 if labels/ itself
 * gave some, 0 if not, -errno with the set freed (context_labels.c), an
 * agent's own {"agent":NAME} as a new set (internal.c); and pmkit's own, a
 * set's labels rewritten as one flat object (labels.c). */
PCP_CALL int __pmAddLabels(pmLabelSet **lpp, const char *text, int flags);
PCP_CALL int __pmGetContextLabels(pmLabelSet **set);
PCP_CALL int __pmGetDomainLabels(int domain, const char *name, pmLabelSet **set);
PCP_CALL int __pmkit_flatten_labels(pmLabelSet *set);

#endif /* PMKIT_LABELS_H */
