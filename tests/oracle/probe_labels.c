/*
 * probe_labels.c - labels through whichever libpcp and libpcp_pmda this is
 * linked with (labels_diff.sh runs both builds and compares):
 *
 *   probe_labels text
 *       label objects as text: pmMergeLabels of each alone and of pairs
 *       and triples, pmdaAddLabels/pmdaAddNotes into new and existing sets
 *       (every field of the set and of its labels), pmMergeLabelSets with
 *       and without a filter, pmPrintLabelSets for every type and flag,
 *       buffer sizes around the fit and the argument errors;
 *   probe_labels local SO INIT PMNS
 *       a local context over the agent INIT of SO (lbl_agent.c): every
 *       level of labels for each metric of PMNS, pmLookupLabels, merges
 *       with a filter that reports what it is offered, and identifiers
 *       nobody serves.
 *
 * Inputs where pmkit mends PCP (arrays as values, objects nested more than
 * one deep, a value replacing an object, docs/compat.md) are left out:
 * unit.labels tests pmkit's answers there.  A set's private hash pointer
 * is not printed.
 */
#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const texts[] = {
    "{}",
    "{ }",
    "",
    "  ",
    "{\"a\":1}",
    "{ \"b\" : 2 , \"a\" : \"x y\" }",
    "{\"a\":1,\"a\":2}",
    "{\"1a\":1}",
    "{\"_a\":1}",
    "{\"a_b9\":1}",
    "{\"a-b\":1}",
    "{\"a.b\":1}",
    "{\"a.\":1}",
    "{\".a\":1}",
    "{\"a..b\":1}",
    "{\"a\":{\"b\":1,\"c\":true}}",
    "{\"a\":{\"b\":1},\"z\":{\"y\":2}}",
    "{\"a\":true,\"b\":false,\"c\":null}",
    "{\"a\":1.5e3}",
    "{\"a\":-0}",
    "{\"a\":01}",
    "{\"a\":-}",
    "{\"a\":1.}",
    "{\"a\":.5}",
    "{\"a\":1e}",
    "{\"a\":1E+07}",
    "{\"a\":-0.25e-3}",
    "{\"a\":\"esc\\\"q\\\\ \\u00e9 \\/ \\n\"}",
    "{\"a\":\"\\x\"}",
    "{\"a\":\"\\u12\"}",
    "{\"a\":tru}",
    "{\"a\":True}",
    "{\"a\":nulls}",
    "{\"a\":}",
    "{\"a\" 1}",
    "{\"a\":1 \"b\":2}",
    "1",
    "\"s\"",
    "true",
    "bad",
    "{\"a\":1,}",
    "{,}",
    "{\"a\":1} x",
    "{\"a\":1}}",
    "{\"B\":1,\"a\":2,\"A\":3}",
    "{\"a\":\"\"}",
    "{\"\":1}",
    "{\"a\":{}}",
    "{\"a\":1,\"e\":{},\"z\":2}",
    "{\"a\":{\"b\":1},\"a\":{\"c\":2}}",
    "{\"a\":{\"b\":1},\"a.c\":2}",
    "{\"a\":  \"  spaced  \"}",
    "{\"abcdefghijklmnopqrstuvwxyz_ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789\":1}",
    "{\"a\":1e400}",
    "{\"a\":0x10}",
    "{\"a\":NaN}",
    "{\"a\":'x'}",
    "\t{\n\"a\"\r:\t1\n}\n",
    "{\"a\":\"\xc3\xa9\"}",
};
#define NTEXTS (sizeof(texts) / sizeof(texts[0]))

/* pairs and triples that merge: later ones win */
static const char *const merges[][3] = {
    {"{\"a\":1,\"b\":2}", "{\"b\":3,\"c\":4}", NULL},
    {"{\"a\":{\"x\":1}}", "{\"a\":{\"y\":2}}", NULL},
    {"{\"a\":5}", "{\"a\":{\"y\":2}}", NULL},
    {"{}", "{\"z\":1}", "{\"a\":2}"},
    {"{\"a\":1}", "bad", "{\"b\":2}"},
    {"{\"a\":1}", NULL, "{\"b\":2}"},
    {"{\"a\":1}", "[1,2]", "{\"b\":2}"},
    {"{\"a\":1}", "", "{\"a\":2}"},
    {"{\"a\":\"x\"}", "{\"a\":null}", "{\"a\":{}}"},
};
#define NMERGES (sizeof(merges) / sizeof(merges[0]))

static void show_set(const char *what, const pmLabelSet *s)
{
    if (s == NULL) {
        printf("  %s: no set\n", what);
        return;
    }
    printf("  %s: inst %d nlabels %d jsonlen %u compound %u padding %u json '%s'\n", what,
           (int)s->inst, s->nlabels, s->jsonlen, s->compound, s->padding,
           s->json != NULL ? s->json : "(null)");
    for (int j = 0; j < s->nlabels && s->labels != NULL; j++) {
        const pmLabel *l = &s->labels[j];
        printf("    [%d] %u/%u %u/%u 0x%02x %.*s=%.*s\n", j, l->name, l->namelen, l->value,
               l->valuelen, l->flags, (int)l->namelen, s->json + l->name, (int)l->valuelen,
               s->json + l->value);
    }
}

static void merge_texts(int n, const char *const *in)
{
    char buf[1024];
    int sts;

    memset(buf, 0, sizeof(buf));
    sts = pmMergeLabels((char **)in, n, buf, sizeof(buf));
    printf("merge");
    for (int i = 0; i < n; i++)
        printf(" %s", in[i] != NULL ? in[i] : "NULL");
    printf(" -> %d %s\n", sts, sts > 0 ? buf : sts < 0 ? pmErrStr(sts) : "");
}

/* pmMergeLabelSets' filter: says what it is offered, drops optional labels */
static int filter(const pmLabel *l, const char *json, void *arg)
{
    printf("    filter %s: %.*s=%.*s 0x%02x\n", (const char *)arg, (int)l->namelen, json + l->name,
           (int)l->valuelen, json + l->value, l->flags);
    return !(l->flags & PM_LABEL_OPTIONAL);
}

static void merge_sets(pmLabelSet **sets, int n)
{
    char buf[2048];
    int sts;

    sts = pmMergeLabelSets(sets, n, buf, sizeof(buf), NULL, NULL);
    printf("  merged -> %d %s\n", sts, sts > 0 ? buf : "");
    sts = pmMergeLabelSets(sets, n, buf, sizeof(buf), filter, "f");
    printf("  filtered -> %d %s\n", sts, sts > 0 ? buf : "");
}

static void text_mode(void)
{
    pmLabelSet *sets[4];
    char small[32];

    for (size_t i = 0; i < NTEXTS; i++)
        merge_texts(1, &texts[i]);
    for (size_t i = 0; i < NMERGES; i++)
        merge_texts(merges[i][2] != NULL ? 3 : 2, merges[i]);

    /* a new set from each text, then each text added to a set that has labels */
    for (size_t i = 0; i < NTEXTS; i++) {
        pmLabelSet *s = NULL;
        int sts = pmdaAddLabels(&s, "%s", texts[i]);
        printf("add %s -> %d\n", texts[i], sts);
        show_set("new", s);
        if (s != NULL && s->nlabels > 0) {
            sts = pmdaAddNotes(&s, "{\"b\":\"note\",\"m\":{\"n\":0}}");
            printf("  notes -> %d\n", sts);
            show_set("noted", s);
        }
        pmFreeLabelSets(s, s != NULL);
        s = NULL;
        pmdaAddLabels(&s, "{\"b\":1,\"zz\":{\"y\":2}}");
        sts = pmdaAddNotes(&s, "%s", texts[i]);
        printf("  onto a set -> %d\n", sts);
        show_set("onto", s);
        printf("  flags -> %d\n", pmdaAddLabelFlags(s, PM_LABEL_CLUSTER));
        show_set("flagged", s);
        pmFreeLabelSets(s, 1);
    }
    printf("flags of no set -> %d\n", pmdaAddLabelFlags(NULL, PM_LABEL_ITEM));

    /* sets merged: order, overrides, flags, empty and missing sets */
    memset(sets, 0, sizeof(sets));
    pmdaAddLabels(&sets[0], "{\"b\":1,\"a\":2,\"o\":{\"x\":1}}");
    pmdaAddNotes(&sets[1], "{\"a\":3,\"n\":\"note\"}");
    pmdaAddLabels(&sets[2], "{}");
    pmdaAddLabels(&sets[3], "{\"o\":{\"y\":2},\"d\":{\"c\":3}}");
    pmdaAddLabelFlags(sets[0], PM_LABEL_DOMAIN);
    pmdaAddLabelFlags(sets[3], PM_LABEL_ITEM);
    printf("sets 0..3\n");
    merge_sets(sets, 4);
    printf("sets 3, 1, 0\n");
    merge_sets((pmLabelSet *[]){sets[3], sets[1], sets[0]}, 3);
    printf("set 2\n");
    merge_sets(&sets[2], 1);
    printf("sets 0, NULL, 1\n");
    merge_sets((pmLabelSet *[]){sets[0], NULL, sets[1]}, 3);

    /* printing: every type, then every flag value */
    for (int t = -1; t <= 130; t++) {
        if (t > 40 && t != 64 && t != 128 && t != 130)
            continue;
        printf("print type %d\n", t);
        pmPrintLabelSets(stdout, (int)pmID_build(3, 4, 5), t, sets[0], 1);
    }
    for (int f = 0; f < 256; f++) {
        sets[0]->labels[0].flags = (unsigned)f;
        pmPrintLabelSets(stdout, 7, PM_LABEL_DOMAIN, sets[0], 1);
    }
    {
        pmLabelSet empty = {0}, two[2];
        empty.inst = 4;
        printf("print empty\n");
        pmPrintLabelSets(stdout, (int)pmInDom_build(3, 4), PM_LABEL_INSTANCES, &empty, 1);
        empty.nlabels = -5;
        pmPrintLabelSets(stdout, (int)pmInDom_build(3, 4), PM_LABEL_INDOM, &empty, 1);
        two[0] = *sets[3];
        two[1] = *sets[3];
        two[1].inst = 9;
        printf("print two\n");
        pmPrintLabelSets(stdout, (int)pmInDom_build(3, 4), PM_LABEL_INSTANCES, two, 2);
        printf("print none\n");
        pmPrintLabelSets(stdout, 1, PM_LABEL_ITEM, sets[3], 0);
    }
    for (int i = 0; i < 4; i++)
        pmFreeLabelSets(sets[i], 1);

    /* buffer sizes around {"abc":12345} (13 bytes and a NUL) */
    for (int size = 12; size <= 18; size++) {
        const char *in[] = {"{\"abc\":12345}"};
        int sts;
        memset(small, 'X', sizeof(small));
        sts = pmMergeLabels((char **)in, 1, small, size);
        printf("buffer %d -> %d %s\n", size, sts, sts > 0 ? small : "");
    }
    {
        const char *in[] = {"{\"a\":1}"};
        printf("no texts -> %d\n", pmMergeLabels((char **)in, 0, small, sizeof(small)));
        printf("no sets -> %d\n", pmMergeLabelSets(NULL, 0, small, sizeof(small), NULL, NULL));
    }
}

static void dump(const char *what, int sts, pmLabelSet *sets, int ident, int type)
{
    printf("%s -> %d%s%s\n", what, sts, sts < 0 ? " " : "", sts < 0 ? pmErrStr(sts) : "");
    for (int i = 0; i < sts; i++) {
        char name[32];
        snprintf(name, sizeof(name), "set %d", i);
        show_set(name, &sets[i]);
    }
    if (sts > 0) {
        pmPrintLabelSets(stdout, ident, type, sets, sts);
        fflush(stdout);
    }
}

static void local_mode(const char *so, const char *init, const char *pmns)
{
    static const char *const names[] = {"lbl.single", "lbl.multi", "lbl.other", "lbl.plain"};
    pmLabelSet *sets = NULL;
    pmID ids[4];
    char spec[1024];
    int sts;

    pmSpecLocalPMDA("clear");
    snprintf(spec, sizeof(spec), "add,249,%s,%s", so, init);
    printf("spec %s\n", pmSpecLocalPMDA(spec) == NULL ? "ok" : "refused");
    fflush(stdout); /* PCP's loader forks pmcpp */
    printf("namespace %d\n", pmLoadASCIINameSpace(pmns, 1));
    sts = pmGetContextLabels(&sets);
    dump("context, no context yet", sts, sets, 0, PM_LABEL_CONTEXT);
    printf("context %d\n", pmNewContext(PM_CONTEXT_LOCAL, NULL));
    sts = pmGetContextLabels(&sets);
    dump("context", sts, sets, 0, PM_LABEL_CONTEXT);
    if (sts > 0)
        pmFreeLabelSets(sets, sts);
    sts = pmGetDomainLabels(249, &sets);
    dump("domain 249", sts, sets, 249, PM_LABEL_DOMAIN);
    if (sts > 0)
        pmFreeLabelSets(sets, sts);
    sts = pmGetDomainLabels(200, &sets);
    dump("domain 200", sts, sets, 200, PM_LABEL_DOMAIN);
    printf("lookup names %d\n", pmLookupName(4, (const char **)names, ids));
    for (int i = 0; i < 4; i++) {
        pmDesc d;
        printf("== %s\n", names[i]);
        if ((sts = pmLookupDesc(ids[i], &d)) < 0) {
            printf("desc %s\n", pmErrStr(sts));
            continue;
        }
        sts = pmGetInDomLabels(d.indom, &sets);
        dump("indom", sts, sets, (int)d.indom, PM_LABEL_INDOM);
        if (sts > 0)
            pmFreeLabelSets(sets, sts);
        sts = pmGetClusterLabels(ids[i], &sets);
        dump("cluster", sts, sets, (int)ids[i], PM_LABEL_CLUSTER);
        if (sts > 0)
            pmFreeLabelSets(sets, sts);
        sts = pmGetItemLabels(ids[i], &sets);
        dump("item", sts, sets, (int)ids[i], PM_LABEL_ITEM);
        if (sts > 0)
            pmFreeLabelSets(sets, sts);
        sts = pmGetInstancesLabels(d.indom, &sets);
        dump("instances", sts, sets, (int)d.indom, PM_LABEL_INSTANCES);
        if (sts > 0)
            pmFreeLabelSets(sets, sts);
        sts = pmLookupLabels(ids[i], &sets);
        dump("lookup", sts, sets, (int)ids[i], PM_LABEL_ITEM);
        if (sts > 0) {
            pmLabelSet *all[8];
            for (int k = 0; k < sts && k < 8; k++)
                all[k] = &sets[k];
            merge_sets(all, sts < 8 ? sts : 8);
            pmFreeLabelSets(sets, sts);
        }
    }
    sts = pmGetItemLabels(pmID_build(249, 9, 9), &sets);
    dump("item nobody has", sts, sets, 0, PM_LABEL_ITEM);
    sts = pmLookupLabels(pmID_build(249, 9, 9), &sets);
    dump("lookup of a metric nobody has", sts, sets, 0, PM_LABEL_ITEM);
    sts = pmGetInDomLabels(pmInDom_build(249, 7), &sets);
    dump("indom nobody has", sts, sets, 0, PM_LABEL_INDOM);
    sts = pmGetInDomLabels(PM_INDOM_NULL, &sets);
    dump("indom null", sts, sets, 0, PM_LABEL_INDOM);
    sts = pmGetItemLabels(pmID_build(17, 9, 9), &sets);
    dump("item of an unknown domain", sts, sets, 0, PM_LABEL_ITEM);
    sts = pmLookupLabels(pmID_build(17, 9, 9), &sets);
    dump("lookup in an unknown domain", sts, sets, 0, PM_LABEL_ITEM);
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc == 2 && strcmp(argv[1], "text") == 0)
        text_mode();
    else if (argc == 5 && strcmp(argv[1], "local") == 0)
        local_mode(argv[2], argv[3], argv[4]);
    else {
        fprintf(stderr, "Usage: %s text | local SO INIT PMNS\n", argv[0]);
        return 2;
    }
    return 0;
}
