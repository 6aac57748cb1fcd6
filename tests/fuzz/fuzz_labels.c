/*
 * fuzz_labels.c - libFuzzer target for label objects
 * (libpcp/labels/labels.c, through __pmAddLabels -- pmdaAddLabels without
 * its log message -- and pmMergeLabels).
 *
 * The input, cut at its first NUL, is added to a new set and merged as
 * text.  Checked: the two agree on whether it is valid; a valid object's
 * set indexes its JSON within bounds, with names that are the JSON's own
 * strings; merging the set's labels (pmMergeLabelSets) gives the same
 * text as merging the input, and that text merges to itself; adding it
 * again to the set (the merged, flat form) keeps the count and makes the
 * set's JSON that text.  Invalid input leaves no set behind.
 */
#include <pcp/pmapi.h>

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* libpcp's, under PCP's name; not in the public headers */
extern int __pmAddLabels(pmLabelSet **lpp, const char *text, int flags);

static void check_set(const pmLabelSet *set)
{
    if (set->json == NULL || strlen(set->json) != set->jsonlen || set->nlabels < 0)
        abort();
    for (int i = 0; i < set->nlabels; i++) {
        const pmLabel *l = &set->labels[i];
        if (l->namelen == 0 || l->valuelen == 0 || l->name < 2 ||
            (size_t)l->name + l->namelen + 2 > set->jsonlen ||
            (size_t)l->value + l->valuelen > set->jsonlen)
            abort();
        /* a name is a quoted string followed by its colon */
        if (set->json[l->name - 1] != '"' || set->json[l->name + l->namelen] != '"' ||
            set->json[l->name + l->namelen + 1] != ':' || l->value != l->name + l->namelen + 2)
            abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1), merged[70000], again[70000], *in[1];
    pmLabelSet *set = NULL;
    int added, m, s, n;

    if (text == NULL)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    in[0] = text;
    added = __pmAddLabels(&set, text, 0);
    m = pmMergeLabels(in, 1, merged, sizeof(merged));
    /* dotted names are refused by pmdaAddLabels only */
    if ((added < 0 && set != NULL) || (added >= 0 && m < 0) || (added == 0 && m != 0) ||
        (m < 0 && m != -EINVAL && m != -E2BIG))
        abort();
    if (added > 0) {
        check_set(set);
        if (added != set->nlabels || m <= 0)
            abort();
        s = pmMergeLabelSets(&set, 1, again, sizeof(again), NULL, NULL);
        if (s != m || strcmp(again, merged) != 0)
            abort();
        in[0] = merged;
        if (pmMergeLabels(in, 1, again, sizeof(again)) != m || strcmp(again, merged) != 0)
            abort();
        /* adding nothing new makes the set flat: the merged text */
        n = __pmAddLabels(&set, "{}", 0);
        if (n != added || strcmp(set->json, merged) != 0)
            abort();
        check_set(set);
    }
    pmFreeLabelSets(set, set != NULL);
    free(text);
    return 0;
}
