/*
 * Unit tests for labels (libpcp/labels/labels.c, labelget.c and
 * libpcp/pmda/label.c): where pmkit mends PCP (oracle.labels compares the
 * rest with Debian's library), the context's labels from a directory of
 * files, the labels of lbl_agent.c (LBL_DSO, tests/oracle) through a local
 * context, and every allocation failing in turn.
 *
 * The static libraries' malloc, calloc and realloc go through
 * alloc_hooks.h (ld --wrap), which can make them fail.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#if !defined(LBL_DSO) || !defined(LBL_PMNS)
#error "build with -DLBL_DSO=path/to/lbl_agent.so -DLBL_PMNS=path/to/lbl.pmns"
#endif

#include "alloc_hooks.h"

/* ---- helpers ---- */

static int merge1(const char *text, char *buf, int size)
{
    char *in[] = {(char *)text};

    return pmMergeLabels(in, 1, buf, size);
}

static void assert_merges_to(const char *text, const char *want)
{
    char buf[512];

    assert_int_equal(merge1(text, buf, sizeof(buf)), (int)strlen(want));
    assert_string_equal(buf, want);
}

static void assert_merges2_to(const char *a, const char *b, const char *want)
{
    char *in[] = {(char *)a, (char *)b}, buf[512];

    assert_int_equal(pmMergeLabels(in, 2, buf, sizeof(buf)), (int)strlen(want));
    assert_string_equal(buf, want);
}

/* The text pmPrintLabelSets writes. */
static char *printed(int ident, int type, pmLabelSet *sets, int n)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);

    assert_non_null(f);
    pmPrintLabelSets(f, ident, type, sets, n);
    fclose(f);
    return text;
}

/* ---- where pmkit differs from PCP (docs/compat.md) ---- */

/* A label whose name begins another label's name is kept: PCP's merge of
 * {"d":1} and {"deep":{"b":1}} gives {"deep.b":1}, losing "d". */
static void test_prefix_names(void **state)
{
    (void)state;
    assert_merges2_to("{\"d\":1}", "{\"deep\":{\"b\":1}}", "{\"d\":1,\"deep.b\":1}");
    assert_merges2_to("{\"deep\":{\"b\":1}}", "{\"d\":1}", "{\"d\":1,\"deep.b\":1}");
}

static void test_arrays(void **state)
{
    pmLabelSet *set = NULL;

    (void)state;
    /* PCP indexes only the "k" inside and merges to '"a":"a":[1,2]' */
    assert_merges_to("{\"a\":[ 1 , 2 ]}", "{\"a\":[1,2]}");
    assert_int_equal(pmdaAddLabels(&set, "{\"a\":[1, {\"k\": 2}]}"), 1);
    assert_int_equal(set->nlabels, 1);
    assert_int_equal(set->labels[0].namelen, 1);
    assert_int_equal(set->labels[0].valuelen, 11);
    assert_memory_equal(set->json + set->labels[0].value, "[1,{\"k\":2}]", 11);
    assert_int_equal(set->labels[0].flags, 0);
    pmFreeLabelSets(set, 1);
    /* objects inside arrays keep any names */
    assert_merges_to("{\"a\":[{\"1 odd\":[]}]}", "{\"a\":[{\"1 odd\":[]}]}");
    assert_int_equal(merge1("{\"a\":[1,]}", (char[64]){0}, 64), -EINVAL);
}

static void test_deep_nesting(void **state)
{
    (void)state;
    /* PCP keeps the outer and the inner names only: "a.d", "deep.b" */
    assert_merges_to("{\"a\":{\"b\":1,\"c\":{\"d\":2}}}", "{\"a.b\":1,\"a.c.d\":2}");
    assert_merges_to("{\"deep\":{\"a\":{\"b\":-1.5e3}}}", "{\"deep.a.b\":-1.5e3}");
    assert_merges_to("{\"e\":{\"f\":{}}}", "{\"e.f\":{}}");
}

static void test_merge_replaces(void **state)
{
    char *in[3], buf[256];

    (void)state;
    /* a value replaces an object: PCP keeps "a.x" beside it */
    in[0] = "{\"a\":{\"x\":1}}";
    in[1] = "{\"a\":5}";
    assert_int_equal(pmMergeLabels(in, 2, buf, sizeof(buf)), 7);
    assert_string_equal(buf, "{\"a\":5}");
    /* the same nested name twice: PCP gives it twice */
    in[1] = "{\"a\":{\"x\":2}}";
    assert_int_equal(pmMergeLabels(in, 2, buf, sizeof(buf)), 9);
    assert_string_equal(buf, "{\"a.x\":2}");
    /* and an object replaces a value, as in PCP */
    in[0] = "{\"a\":5,\"b\":0}";
    in[1] = "{\"a\":{\"y\":2}}";
    in[2] = "{\"b\":{}}";
    assert_int_equal(pmMergeLabels(in, 3, buf, sizeof(buf)), 16);
    assert_string_equal(buf, "{\"a.y\":2,\"b\":{}}");
}

/* ---- PCP's rules, pinned here too ---- */

static void test_merge_rules(void **state)
{
    char buf[64], *in[2];

    (void)state;
    assert_merges_to("{ \"b\" : 2 , \"a\" : \"x y\" }", "{\"a\":\"x y\",\"b\":2}");
    assert_merges_to("{\"a.b\":{\"c\":1}}", "{\"a.b.c\":1}");
    /* no labels: 0 and the buffer untouched */
    memset(buf, 'X', sizeof(buf));
    assert_int_equal(merge1("{}", buf, sizeof(buf)), 0);
    assert_int_equal(merge1("[1,2]", buf, sizeof(buf)), 0);
    assert_int_equal(buf[0], 'X');
    assert_int_equal(merge1("\"s\"", buf, sizeof(buf)), -EINVAL);
    /* malformed: no closing brace, text after the object (PCP takes both) */
    assert_int_equal(merge1("{\"a\":1", buf, sizeof(buf)), -EINVAL);
    assert_int_equal(merge1("{\"a\":1},", buf, sizeof(buf)), -EINVAL);
    assert_int_equal(merge1("{\"a\":01}", buf, sizeof(buf)), -EINVAL);
    /* PCP wants four bytes more than the text */
    assert_int_equal(merge1("{\"a\":1}", buf, 10), -E2BIG);
    assert_int_equal(merge1("{\"a\":1}", buf, 11), 7);
    /* nesting past the limit is refused, however deep: never a crash */
    for (int depth = 200; depth <= 200000; depth *= 10) {
        char *deep = malloc((size_t)depth + 16);
        assert_non_null(deep);
        strcpy(deep, "{\"a\":");
        memset(deep + 5, '[', (size_t)depth);
        strcpy(deep + 5 + depth, "}");
        assert_int_equal(merge1(deep, buf, sizeof(buf)), -EINVAL);
        free(deep);
    }
    in[0] = NULL;
    in[1] = "{\"z\":1}";
    assert_int_equal(pmMergeLabels(in, 2, buf, sizeof(buf)), 7);
    assert_int_equal(pmMergeLabels(in, 0, buf, sizeof(buf)), -EINVAL);
    assert_int_equal(pmMergeLabels(NULL, 1, buf, sizeof(buf)), -EINVAL);
}

static int drop_optional(const pmLabel *l, const char *json, void *arg)
{
    (void)json;
    ++*(int *)arg;
    return !(l->flags & PM_LABEL_OPTIONAL);
}

static int keep_nothing(const pmLabel *l, const char *json, void *arg)
{
    (void)l;
    (void)json;
    (void)arg;
    return 0;
}

static void test_merge_sets(void **state)
{
    pmLabelSet *a = NULL, *b = NULL, empty = {0}, *sets[3];
    char buf[128];
    int calls = 0;

    (void)state;
    assert_int_equal(pmdaAddLabels(&a, "{\"k\":1,\"o\":{\"x\":1}}"), 2);
    assert_int_equal(pmdaAddNotes(&b, "{\"k\":2,\"n\":\"note\"}"), 2);
    sets[0] = a;
    sets[1] = b;
    sets[2] = &empty;
    assert_int_equal(pmMergeLabelSets(sets, 3, buf, sizeof(buf), NULL, NULL), 26);
    assert_string_equal(buf, "{\"k\":2,\"n\":\"note\",\"o.x\":1}");
    /* the filter sees each step's result: 2, then 3, then 1 labels */
    assert_int_equal(pmMergeLabelSets(sets, 3, buf, sizeof(buf), drop_optional, &calls), 9);
    assert_string_equal(buf, "{\"o.x\":1}");
    assert_int_equal(calls, 2 + 3 + 1);
    /* a filter that keeps nothing: "{}" (PCP gives "}") */
    assert_int_equal(pmMergeLabelSets(sets, 2, buf, sizeof(buf), keep_nothing, NULL), 2);
    assert_string_equal(buf, "{}");
    /* sets without labels merge to "{}" */
    sets[0] = &empty;
    assert_int_equal(pmMergeLabelSets(sets, 1, buf, 4, NULL, NULL), 2);
    assert_string_equal(buf, "{}");
    assert_int_equal(pmMergeLabelSets(sets, 1, buf, 3, NULL, NULL), -E2BIG);
    assert_int_equal(pmMergeLabelSets(NULL, 1, buf, 3, NULL, NULL), -EINVAL);
    /* no sets at all: nothing, the buffer untouched, as in PCP */
    sets[0] = sets[1] = NULL;
    memset(buf, 'X', sizeof(buf));
    assert_int_equal(pmMergeLabelSets(sets, 2, buf, 3, NULL, NULL), 0);
    assert_int_equal(buf[0], 'X');
    pmFreeLabelSets(a, 1);
    pmFreeLabelSets(b, 1);
}

static void test_print(void **state)
{
    pmLabelSet *set = NULL;
    char *text;

    (void)state;
    assert_int_equal(pmdaAddLabels(&set, "{\"b\":1,\"a\":{\"x\":\"y\"}}"), 2);
    pmdaAddLabelFlags(set, PM_LABEL_CLUSTER | PM_LABEL_OPTIONAL);
    set->inst = 7;
    text = printed((int)pmID_build(3, 4, 5), PM_LABEL_CLUSTER, set, 1);
    assert_string_equal(text, "    Cluster 3.4 labels (21 bytes): {\"b\":1,\"a\":{\"x\":\"y\"}}\n"
                              "        [0] name(13,1) : value(16,3) [cluster,compound,optional]\n"
                              "        [1] name(2,1) : value(5,1) [cluster,optional]\n");
    free(text);
    text = printed((int)pmInDom_build(3, 4), PM_LABEL_INSTANCES, set, 1);
    assert_non_null(strstr(text, "    InDom 3.4[7] labels (21 bytes)"));
    free(text);
    text = printed(0, 3, set, 1); /* two classes at once: no name */
    assert_non_null(strstr(text, "     labels (21 bytes)"));
    free(text);
    pmFreeLabelSets(set, 1);
}

/* ---- a local context ---- */

static char sysconf_dir[64];

static void put_file(const char *name, const char *text)
{
    char path[256];
    FILE *f;

    snprintf(path, sizeof(path), "%s/labels/%s", sysconf_dir, name);
    assert_non_null(f = fopen(path, "w"));
    fputs(text, f);
    fclose(f);
}

static int setup_context(void **state)
{
    char spec[1024];

    (void)state;
    strcpy(sysconf_dir, "/tmp/unit_labels.XXXXXX");
    if (mkdtemp(sysconf_dir) == NULL)
        return -1;
    setenv("PCP_SYSCONF_DIR", sysconf_dir, 1);
    pmSpecLocalPMDA("clear");
    snprintf(spec, sizeof(spec), "add,249,%s,lbl_init", LBL_DSO);
    if (pmSpecLocalPMDA(spec) != NULL || pmLoadASCIINameSpace(LBL_PMNS, 1) < 0)
        return -1;
    return pmNewContext(PM_CONTEXT_LOCAL, NULL) < 0 ? -1 : 0;
}

static int teardown_context(void **state)
{
    char cmd[128];

    (void)state;
    snprintf(cmd, sizeof(cmd), "rm -rf %s", sysconf_dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* The context's labels as one string, or NULL with *sts the error. */
static char *context_json(int *sts)
{
    pmLabelSet *sets = NULL;
    char *json;

    if ((*sts = pmGetContextLabels(&sets)) <= 0)
        return NULL;
    json = strdup(sets[0].json);
    pmFreeLabelSets(sets, *sts);
    return json;
}

static void test_context_labels(void **state)
{
    char dir[128], host[256], *json;
    pmLabelSet *sets = NULL;
    int sts;

    (void)state;
    snprintf(dir, sizeof(dir), "%s/labels", sysconf_dir);
    rmdir(dir);
    assert_null(context_json(&sts));
    assert_int_equal(sts, -ENOENT);
    assert_int_equal(pmLookupLabels(pmID_build(249, 0, 0), &sets), -ENOENT);

    assert_int_equal(mkdir(dir, 0755), 0);
    put_file("b.json", "{\"k\":\"b\",\"hostname\":\"not this\",\"nest\":{\"ed\":1}}");
    put_file("a.json", "{\"k\":\"a\",\"only_a\":true}");
    put_file(".hidden", "{\"hidden\":1}");
    put_file("c.json", "{\"broken\":");
    assert_non_null(json = context_json(&sts));
    assert_int_equal(sts, 1);
    /* later files win, the host's own labels win over files */
    assert_non_null(strstr(json, "\"k\":\"b\""));
    assert_non_null(strstr(json, "\"only_a\":true"));
    assert_non_null(strstr(json, "\"nest.ed\":1"));
    assert_null(strstr(json, "hidden"));
    assert_null(strstr(json, "broken"));
    assert_null(strstr(json, "not this"));
    gethostname(host, sizeof(host));
    assert_non_null(strstr(json, host));
    assert_non_null(strstr(json, "\"userid\":"));
    free(json);

    snprintf(dir, sizeof(dir), "%s/labels/optional", sysconf_dir);
    assert_int_equal(mkdir(dir, 0755), 0);
    put_file("optional/o", "{\"k\":\"optional\"}");
    assert_int_equal(pmGetContextLabels(&sets), 1);
    for (int i = 0; i < sets[0].nlabels; i++) {
        const pmLabel *l = &sets[0].labels[i];
        const char *name = sets[0].json + l->name;
        if (l->namelen == 1 && name[0] == 'k')
            assert_int_equal(l->flags, PM_LABEL_CONTEXT | PM_LABEL_COMPOUND | PM_LABEL_OPTIONAL);
        if (l->namelen == 8 && strncmp(name, "hostname", 8) == 0)
            assert_int_equal(l->flags, PM_LABEL_CONTEXT);
        if (l->namelen == 6 && strncmp(name, "userid", 6) == 0)
            assert_int_equal(l->flags, PM_LABEL_CONTEXT | PM_LABEL_OPTIONAL);
    }
    pmFreeLabelSets(sets, 1);
}

/* pmdaLabel's context labels: the files' alone, none without the directory;
 * no set when labels/ holds only optional/ (Debian's 6.0.3 answers so);
 * pmkit keeps the labels where a last file that does not parse makes PCP
 * answer no set (docs/compat.md) */
static void test_pmda_context_labels(void **state)
{
    static pmdaInterface dp;
    pmLabelSet *set = NULL;
    char dir[128], cmd[160];

    (void)state;
    pmdaDSO(&dp, PMDA_INTERFACE_7, "unit", NULL);
    pmdaInit(&dp, NULL, 0, NULL, 0);
    snprintf(cmd, sizeof(cmd), "rm -rf %s/labels", sysconf_dir);
    assert_int_equal(system(cmd), 0);
    snprintf(dir, sizeof(dir), "%s/labels", sysconf_dir);
    assert_int_equal(mkdir(dir, 0755), 0);
    snprintf(dir, sizeof(dir), "%s/labels/optional", sysconf_dir);
    assert_int_equal(mkdir(dir, 0755), 0);
    assert_int_equal(pmdaLabel(0, PM_LABEL_CONTEXT, &set, dp.version.seven.ext), 0);
    assert_null(set);
    put_file("optional/o", "{\"opt\":1}");
    assert_int_equal(pmdaLabel(0, PM_LABEL_CONTEXT, &set, dp.version.seven.ext), 0);
    assert_null(set);

    put_file("only.json", "{\"from_file\":1}");
    assert_int_equal(pmdaLabel(0, PM_LABEL_CONTEXT, &set, dp.version.seven.ext), 1);
    assert_non_null(strstr(set->json, "\"from_file\":1"));
    assert_non_null(strstr(set->json, "\"opt\":1"));
    assert_null(strstr(set->json, "machineid")); /* the files' labels only */
    assert_int_equal(set->labels[0].flags & PM_LABEL_CONTEXT, PM_LABEL_CONTEXT);
    pmFreeLabelSets(set, 1);
    set = NULL;
    put_file("zz.json", "\"a string is no label object\"");
    assert_int_equal(pmdaLabel(0, PM_LABEL_CONTEXT, &set, dp.version.seven.ext), 1);
    assert_non_null(strstr(set->json, "\"from_file\":1"));
    pmFreeLabelSets(set, 1);
    set = NULL;
    setenv("PCP_SYSCONF_DIR", "/nonexistent/pmkit", 1);
    assert_int_equal(pmdaLabel(0, PM_LABEL_CONTEXT, &set, dp.version.seven.ext), -ENOENT);
    assert_null(set);
    setenv("PCP_SYSCONF_DIR", sysconf_dir, 1);
}

static void test_agent_labels(void **state)
{
    pmLabelSet *sets = NULL;
    pmID multi = pmID_build(249, 1, 0);
    char buf[1024];
    pmLabelSet *all[8];
    int n;

    (void)state;
    snprintf(buf, sizeof(buf), "%s/labels", sysconf_dir);
    assert_true(mkdir(buf, 0755) == 0 || errno == EEXIST); /* for pmLookupLabels */
    assert_int_equal(pmGetDomainLabels(249, &sets), 1);
    assert_string_equal(sets[0].json,
                        "{\"dom\":\"d\",\"later\":\"yes\",\"num\":1,\"shared\":\"domain\"}");
    pmFreeLabelSets(sets, 1);
    assert_int_equal(pmGetDomainLabels(17, &sets), PM_ERR_NOAGENT);
    assert_int_equal(pmGetItemLabels(pmID_build(249, 2, 0), &sets), 0);
    assert_int_equal(pmGetInstancesLabels(pmInDom_build(249, 0), &sets), 3);
    assert_int_equal(sets[2].inst, 2);
    assert_string_equal(sets[2].json, "{\"inote\":2}");
    assert_int_equal(sets[2].labels[0].flags, PM_LABEL_INSTANCES | PM_LABEL_OPTIONAL);
    pmFreeLabelSets(sets, 3);
    assert_int_equal(pmLookupLabels(pmID_build(249, 9, 9), &sets), PM_ERR_PMID);

    /* context, domain, indom, cluster, item; the item's "shared" wins */
    assert_int_equal(n = pmLookupLabels(multi, &sets), 5);
    for (int i = 0; i < n; i++)
        all[i] = &sets[i];
    assert_true(pmMergeLabelSets(all, n, buf, sizeof(buf), NULL, NULL) > 0);
    assert_non_null(strstr(buf, "\"shared\":\"item\""));
    assert_non_null(strstr(buf, "\"ilabel.x\":1"));
    assert_non_null(strstr(buf, "\"deep.b\":-1.5e3"));
    pmFreeLabelSets(sets, n);
}

/* ---- every allocation failing in turn ---- */

static void test_allocation_failures(void **state)
{
    static const char text[] = "{\"b\":1,\"a\":{\"x\":[1,2],\"y\":\"z\"},\"c\":null}";
    int done = 0;

    (void)state;
    for (long n = 0; !done && n < 500; n++) {
        pmLabelSet *set = NULL, *sets = NULL, *all[2];
        char buf[256], *in[] = {(char *)text, "{\"a\":{\"x\":2}}"};
        int a, b, m, s, l, sts, before;
        alloc_left = n;
        a = pmdaAddLabels(&set, "%s", text);
        before = set != NULL ? set->nlabels : -1;
        b = set != NULL ? pmdaAddNotes(&set, "{\"d\":4}") : -ENOMEM;
        /* none half done: a failed first add leaves no set, a failed
         * merge the set as it was */
        assert_true(a >= 0 || set == NULL);
        assert_true(b >= 0 || set == NULL || set->nlabels == before);
        m = pmMergeLabels(in, 2, buf, sizeof(buf));
        all[0] = set;
        all[1] = set;
        s = set != NULL ? pmMergeLabelSets(all, 2, buf, sizeof(buf), NULL, NULL) : -ENOMEM;
        l = sts = pmLookupLabels(pmID_build(249, 1, 0), &sets);
        alloc_left = -1;
        if (sts > 0)
            pmFreeLabelSets(sets, sts);
        pmFreeLabelSets(set, set != NULL);
        /* each answer is right, or out of memory */
        assert_true(a == 4 || a == -ENOMEM);
        assert_true(b == 5 || b == -ENOMEM);
        assert_true(m > 0 || m == -ENOMEM);
        assert_true(s > 0 || s == -ENOMEM);
        assert_true(l == 5 || l == -ENOMEM);
        done = a == 4 && b == 5 && m > 0 && s > 0 && l == 5;
    }
    assert_true(done);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arrays),
        cmocka_unit_test(test_prefix_names),
        cmocka_unit_test(test_deep_nesting),
        cmocka_unit_test(test_merge_replaces),
        cmocka_unit_test(test_merge_rules),
        cmocka_unit_test(test_merge_sets),
        cmocka_unit_test(test_print),
        cmocka_unit_test(test_context_labels),
        cmocka_unit_test(test_pmda_context_labels),
        cmocka_unit_test(test_agent_labels),
        cmocka_unit_test(test_allocation_failures),
    };

    return cmocka_run_group_tests(tests, setup_context, teardown_context);
}
