/*
 * test_pmns_edit.c - the namespace editing room (libpcp/edit): merge,
 * delete, write, the _DATESTAMP order and pmnsadd's upper levels.
 *
 * Expected texts, warnings and PMIDs are Debian's PCP 6.0.3 pmnsmerge's
 * and pmnsdel's on the same inputs (tests/oracle/pmnsedit_cases holds
 * them as runs of the tools), except where a test says it checks one of
 * pmkit's fixes (docs/compat.md).  malloc, calloc and realloc go through
 * alloc_hooks.h, so that allocations can fail.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "alloc_hooks.h"
#include "pmns_edit.h"

#include <pcp/pmapi.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pmns_tree *tree_of(const char *text)
{
    pmns_load_opts o = {0};
    pmns_tree *t = NULL;

    o.file = "test";
    o.dupok = 1;
    assert_int_equal(pmns_load_buffer(&o, text, strlen(text), &t), 0);
    return t;
}

static pmns_ed *ed_of(const char *text)
{
    pmns_ed *e = NULL;

    assert_int_equal(pmns_ed_new(tree_of(text), &e), 0);
    return e;
}

static void assert_text(const pmns_ed *e, const char *want)
{
    char *text;
    size_t len;

    assert_int_equal(pmns_ed_text(e, &text, &len), 0);
    assert_int_equal(len, strlen(want));
    assert_string_equal(text, want);
    free(text);
}

/* The conflicts a merge reports, as "name kept ignored" lines. */
typedef struct seen {
    char buf[4096];
    size_t n;
} seen;

static void record(void *ctx, const char *name, uint32_t kept, uint32_t ignored)
{
    seen *s = ctx;

    s->n += (size_t)snprintf(s->buf + s->n, sizeof(s->buf) - s->n, "%s %08x %08x\n", name, kept,
                             ignored);
}

static void merge_text(pmns_ed *e, const char *text, seen *s)
{
    pmns_tree *t = tree_of(text);

    assert_int_equal(pmns_ed_merge(e, t, record, s), 0);
    pmns_free(t);
}

#define ID(d, c, i) ((uint32_t)(d) << 22 | (uint32_t)(c) << 10 | (uint32_t)(i))

/* Below each non-leaf its leaves first, then its non-leaves, depth first. */
static void test_merge_order(void **state)
{
    pmns_ed *e = ed_of("root {\n}\n");
    seen s = {{0}, 0};

    (void)state;
    merge_text(e,
               "root {\n x\n y 1:0:1\n z\n w 1:0:5\n}\nx {\n k 1:0:2\n}\n"
               "z {\n j\n m 1:0:4\n}\nz.j {\n q 1:0:3\n}\n",
               &s);
    assert_text(e, "root {\n\ty\t1:0:1\n\tw\t1:0:5\n\tx\n\tz\n}\n\nx {\n\tk\t1:0:2\n}\n\n"
                   "z {\n\tm\t1:0:4\n\tj\n}\n\nz.j {\n\tq\t1:0:3\n}\n");
    assert_int_equal(s.n, 0);
    pmns_ed_free(e);
}

/* The first namespace keeps its own order; new names follow the old. */
static void test_merge_appends(void **state)
{
    pmns_ed *e = ed_of("root {\n mine 1:1:1\n foo\n yours 1:1:2\n}\n"
                       "foo {\n fumble 1:2:1\n stumble 1:2:2\n}\n");
    seen s = {{0}, 0};

    (void)state;
    merge_text(e,
               "root {\n surprise 1:1:3\n mine 1:1:1\n foo\n yawn\n}\n"
               "foo {\n mumble 1:2:3\n stumble 1:2:2\n}\nyawn {\n sleepy 1:3:1\n}\n",
               &s);
    assert_text(e, "root {\n\tmine\t1:1:1\n\tfoo\n\tyours\t1:1:2\n\tsurprise\t1:1:3\n\tyawn\n}\n\n"
                   "foo {\n\tfumble\t1:2:1\n\tstumble\t1:2:2\n\tmumble\t1:2:3\n}\n\n"
                   "yawn {\n\tsleepy\t1:3:1\n}\n");
    assert_int_equal(s.n, 0);
    pmns_ed_free(e);
}

/* PCP's PMIDs in the warnings: a non-leaf with names below it 0x7fffffff
 * (printed 511.4095.1023), one a merge made or an empty one PM_ID_NULL, a
 * leaf that gained children its own; warnings in merge order. */
static void test_merge_conflicts(void **state)
{
    pmns_ed *e;
    seen s = {{0}, 0};
    char want[256];

    (void)state;
    e = ed_of("root {\n a 1:0:1\n b\n}\nb {\n x 1:0:2\n}\n");
    merge_text(e, "root {\n b 1:0:4\n c 1:0:5\n}\n", &s);
    snprintf(want, sizeof(want), "b 7fffffff %08x\n", ID(1, 0, 4));
    assert_string_equal(s.buf, want);
    assert_text(e, "root {\n\ta\t1:0:1\n\tb\n\tc\t1:0:5\n}\n\nb {\n\tx\t1:0:2\n}\n");
    pmns_ed_free(e);

    s.n = 0;
    e = ed_of("root {\n}\n");
    merge_text(e, "root {\n x\n}\nx {\n y\n}\nx.y {\n z 1:0:1\n}\n", &s);
    merge_text(e, "root {\n x 1:0:2\n}\n", &s);
    snprintf(want, sizeof(want), "x ffffffff %08x\n", ID(1, 0, 2));
    assert_string_equal(s.buf, want);
    pmns_ed_free(e);

    s.n = 0;
    e = ed_of("root {\n a 1:0:1\n b\n}\nb {\n x 1:0:2\n}\n");
    merge_text(e, "root {\n a\n}\na {\n y 1:0:3\n}\n", &s);
    merge_text(e, "root {\n a 1:0:7\n}\n", &s);
    merge_text(e, "root {\n a 1:0:1\n}\n", &s);
    snprintf(want, sizeof(want), "a %08x %08x\n", ID(1, 0, 1), ID(1, 0, 7));
    assert_string_equal(s.buf, want);
    assert_text(e, "root {\n\ta\n\tb\n}\n\na {\n\ty\t1:0:3\n}\n\nb {\n\tx\t1:0:2\n}\n");
    pmns_ed_free(e);

    s.n = 0;
    e = ed_of("root {\n b 1:0:1\n a\n}\na {\n b 1:0:2\n}\n");
    merge_text(e, "root {\n a\n b 1:0:9\n}\na {\n b 1:0:8\n}\n", &s);
    snprintf(want, sizeof(want), "b %08x %08x\na.b %08x %08x\n", ID(1, 0, 1), ID(1, 0, 9),
             ID(1, 0, 2), ID(1, 0, 8));
    assert_string_equal(s.buf, want);
    pmns_ed_free(e);
}

/* Dynamic roots: compared by PMID (511.D.0), written D:*:*; a name below
 * one turns it into a non-leaf. */
static void test_merge_dynamic(void **state)
{
    pmns_ed *e = ed_of("root {\n e 3:*:*\n}\n");
    seen s = {{0}, 0};
    char want[128];

    (void)state;
    merge_text(e, "root {\n e 4:*:*\n}\n", &s);
    snprintf(want, sizeof(want), "e %08x %08x\n", ID(511, 3, 0), ID(511, 4, 0));
    assert_string_equal(s.buf, want);
    assert_text(e, "root {\n\te\t3:*:*\n}\n");
    merge_text(e, "root {\n e\n}\ne {\n k 1:1:1\n}\n", &s);
    assert_text(e, "root {\n\te\n}\n\ne {\n\tk\t1:1:1\n}\n");
    pmns_ed_free(e);
}

/* An empty non-leaf adds nothing to a merge; one in the namespace is
 * written as an empty group (pmkit's fix: PCP writes 511:4095:1023) and
 * warns with PM_ID_NULL as PCP's does. */
static void test_empty_nonleaf(void **state)
{
    pmns_ed *e = ed_of("root {\n a 1:0:1\n}\n");
    seen s = {{0}, 0};
    char want[64];

    (void)state;
    merge_text(e, "root {\n e\n}\ne {\n}\n", &s);
    assert_text(e, "root {\n\ta\t1:0:1\n}\n");
    pmns_ed_free(e);
    e = ed_of("root {\n e\n b\n}\ne {\n}\nb {\n c\n}\nb.c {\n}\n");
    merge_text(e, "root {\n e 1:0:9\n}\n", &s);
    snprintf(want, sizeof(want), "e ffffffff %08x\n", ID(1, 0, 9));
    assert_string_equal(s.buf, want);
    assert_text(e, "root {\n\te\n\tb\n}\n\ne {\n}\n\nb {\n\tc\n}\n\nb.c {\n}\n");
    pmns_ed_free(e);
}

static const char foo[] =
    "root {\n\tone\t1:1:1\n\tsub0\n\ttwo\t2:2:2\n\tthree\t3:3:3\n\tsub1\n}\nsub0 {\n\tfour\t4:4:4\n"
    "\tsub2\n\tfive\t5:5:5\n}\nsub1 {\n\tsix\t6:6:6\n\teight\t8:8:8\n}\nsub0.sub2 "
    "{\n\tseven\t7:7:7\n"
    "\tsub4\n}\nsub0.sub2.sub4 {\n\tsub6\n}\nsub0.sub2.sub4.sub6 {\n\tnine\t9:9:9\n}\n";

static void test_delete(void **state)
{
    static const char *const missing[] = {
        "",           "leaf",  "sub0.no_leaf",
        "one.below",  "sub0.", ".sub0",
        "sub0..four", "root",  "sub0.sub2.sub4.sub6.nine.x",
    };
    pmns_ed *e = ed_of(foo);

    (void)state;
    for (size_t i = 0; i < sizeof(missing) / sizeof(missing[0]); i++)
        assert_int_equal(pmns_ed_delete(e, missing[i]), -ENOENT);
    /* the last leaf of a chain: its empty ancestors go too */
    assert_int_equal(pmns_ed_delete(e, "sub0.sub2.sub4.sub6.nine"), 0);
    assert_int_equal(pmns_ed_delete(e, "sub0.sub2.sub4"), -ENOENT);
    assert_text(
        e, "root {\n\tone\t1:1:1\n\tsub0\n\ttwo\t2:2:2\n\tthree\t3:3:3\n\tsub1\n}\n\n"
           "sub0 {\n\tfour\t4:4:4\n\tsub2\n\tfive\t5:5:5\n}\n\nsub0.sub2 {\n\tseven\t7:7:7\n}\n\n"
           "sub1 {\n\tsix\t6:6:6\n\teight\t8:8:8\n}\n");
    pmns_ed_free(e);

    e = ed_of(foo);
    assert_int_equal(pmns_ed_delete(e, "sub1.six"), 0);
    assert_int_equal(pmns_ed_delete(e, "sub1.eight"), 0);
    assert_int_equal(pmns_ed_delete(e, "one"), 0);
    assert_int_equal(pmns_ed_delete(e, "one"), -ENOENT);
    assert_text(e,
                "root {\n\tsub0\n\ttwo\t2:2:2\n\tthree\t3:3:3\n}\n\nsub0 {\n\tfour\t4:4:4\n\tsub2\n"
                "\tfive\t5:5:5\n}\n\nsub0.sub2 {\n\tseven\t7:7:7\n\tsub4\n}\n\n"
                "sub0.sub2.sub4 {\n\tsub6\n}\n\nsub0.sub2.sub4.sub6 {\n\tnine\t9:9:9\n}\n");
    /* everything: the root stays */
    assert_int_equal(pmns_ed_delete(e, "sub0"), 0);
    assert_int_equal(pmns_ed_delete(e, "two"), 0);
    assert_int_equal(pmns_ed_delete(e, "three"), 0);
    assert_text(e, "root {\n}\n");
    /* a name deleted can come back */
    pmns_tree *t = tree_of("root {\n sub0\n}\nsub0 {\n four 4:4:9\n}\n");
    assert_int_equal(pmns_ed_merge(e, t, NULL, NULL), 0);
    pmns_free(t);
    assert_text(e, "root {\n\tsub0\n}\n\nsub0 {\n\tfour\t4:4:9\n}\n");
    pmns_ed_free(e);
}

/* A wide node: 5000 names merged into one parent, then looked up again
 * (the child table grows several times on the way). */
static void test_wide(void **state)
{
    size_t cap = 5000 * 32 + 64, n = 0;
    char *text = malloc(cap);
    pmns_ed *e = ed_of("root {\n w\n}\nw {\n first 1:0:0\n}\n");
    seen s = {{0}, 0};
    pmns_tree *t;

    (void)state;
    assert_non_null(text);
    n += (size_t)snprintf(text + n, cap - n, "root {\n w\n}\nw {\n");
    for (int i = 0; i < 5000; i++)
        n += (size_t)snprintf(text + n, cap - n, " m%d 2:%d:%d\n", i, i / 1000, i % 1000);
    snprintf(text + n, cap - n, "}\n");
    t = tree_of(text);
    assert_int_equal(pmns_ed_merge(e, t, record, &s), 0);
    assert_int_equal(pmns_ed_merge(e, t, record, &s), 0);
    assert_int_equal(s.n, 0);
    pmns_free(t);
    merge_text(e, "root {\n w\n}\nw {\n m4999 3:0:0\n}\n", &s);
    assert_int_equal(strncmp(s.buf, "w.m4999 ", 8), 0);
    assert_int_equal(pmns_ed_delete(e, "w.m2500"), 0);
    assert_int_equal(pmns_ed_delete(e, "w.m2500"), -ENOENT);
    assert_int_equal(pmns_ed_delete(e, "w.m2501"), 0);
    pmns_ed_free(e);
    free(text);
}

/* Allocations failing at every point of a merge: -ENOMEM, and the
 * namespace still whole (it writes, and frees without a leak). */
static void test_merge_out_of_memory(void **state)
{
    int failed = 0;

    (void)state;
    for (long k = 0; k < 200; k++) {
        pmns_ed *e = ed_of("root {\n a\n}\na {\n x 1:0:1\n}\n");
        pmns_tree *t = tree_of("root {\n a\n b\n}\na {\n y 1:0:2\n z\n}\na.z {\n q 1:0:3\n}\n"
                               "b {\n w 1:0:4\n}\n");
        char *text;
        size_t len;
        int sts;
        alloc_left = k;
        sts = pmns_ed_merge(e, t, NULL, NULL);
        alloc_left = -1;
        assert_true(sts == 0 || sts == -ENOMEM);
        failed += sts < 0;
        assert_int_equal(pmns_ed_text(e, &text, &len), 0);
        assert_int_equal(strncmp(text, "root {\n\ta\n", 10), 0);
        free(text);
        pmns_free(t);
        pmns_ed_free(e);
    }
    assert_true(failed > 0);
}

static char *write_file(const char *dir, const char *name, const char *text)
{
    char *path = malloc(strlen(dir) + strlen(name) + 2);
    FILE *fp;

    assert_non_null(path);
    sprintf(path, "%s/%s", dir, name);
    assert_non_null(fp = fopen(path, "w"));
    fputs(text, fp);
    assert_int_equal(fclose(fp), 0);
    return path;
}

/* _DATESTAMP as PCP reads it (pieces of 39 bytes), and the order: files
 * without one first as given, then by stamp, ties as given. */
static void test_stamps(void **state)
{
    static const struct {
        const char *line, *stamp; /* NULL: none */
    } cases[] = {
        {"#define _DATESTAMP 20200101", "20200101"},
        {"#define\t_DATESTAMP\t2020", "2020"},
        {" #define _DATESTAMP 2019", NULL},
        {"#define _DATESTAMPX 2018", "X"},
        {"#define _DATESTAMP", ""},
        {"#define _DATESTAMP 12345678901234567890123456789012345678901234567890",
         "12345678901234567890"},
        {"/*\n#define _DATESTAMP 3\n*/", "3"},
        {"#define _DATESTAMP \"9\"", "\"9\""},
        {"#define _DATESTAMP 2\r", "2"},
        {"#define_DATESTAMP 8", "8"},
        {"#defineX _DATESTAMP 5", NULL},
        {"#define _DATESTAM", NULL},
        {"#define _DATESTAMP 5\n#define _DATESTAMP 1", "5"},
        {"/* 345678901234567890123456789012345678#define _DATESTAMP 77 */", "77"},
        {"/*123456789012345678901234567890123456789#define _DATESTAMP 77 */", NULL},
    };
    char dir[] = "/tmp/test_pmns_edit.XXXXXX";
    pmns_source src[5];
    size_t bad = 99;

    (void)state;
    assert_non_null(mkdtemp(dir));
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char text[256];
        snprintf(text, sizeof(text), "%s\nroot {\n}\n", cases[i].line);
        memset(src, 0, sizeof(src));
        src[0].file = write_file(dir, "s", text);
        assert_int_equal(pmns_sources_order(src, 1, &bad), 0);
        if (cases[i].stamp == NULL)
            assert_null(src[0].stamp);
        else
            assert_string_equal(src[0].stamp, cases[i].stamp);
        pmns_sources_clear(src, 1);
        unlink(src[0].file);
        free((char *)src[0].file);
    }
    memset(src, 0, sizeof(src));
    src[0].file = write_file(dir, "a", "#define _DATESTAMP 5\nroot {\n}\n");
    src[1].file = write_file(dir, "b", "root {\n}\n");
    src[2].file = write_file(dir, "c", "#define _DATESTAMP 10\nroot {\n}\n");
    src[3].file = write_file(dir, "d", "#define _DATESTAMP 5\nroot {\n}\n");
    src[4].file = write_file(dir, "e", "root {\n}\n");
    assert_int_equal(pmns_sources_order(src, 5, &bad), 0);
    static const char order[] = "beca"; /* then d */
    for (int i = 0; i < 4; i++)
        assert_int_equal(src[i].file[strlen(src[i].file) - 1], order[i]);
    assert_int_equal(src[4].file[strlen(src[4].file) - 1], 'd');
    pmns_sources_clear(src, 5);
    for (int i = 0; i < 5; i++) {
        unlink(src[i].file);
        free((char *)src[i].file);
    }
    memset(src, 0, sizeof(src));
    src[0].file = dir;
    src[1].file = "/nonexistent/pmns_edit/x";
    assert_int_equal(pmns_sources_order(src, 2, &bad), -ENOENT);
    assert_int_equal(bad, 1);
    pmns_sources_clear(src, 2);
    rmdir(dir);
}

/* pmnsadd's upper levels, from the first "NAME {" line. */
static void test_add_prelude(void **state)
{
    static const struct {
        const char *file, *prelude; /* NULL: merged as it is */
    } cases[] = {
        {"foo {\n bar 1:0:0\n}\n", "root {\n\tfoo\n}\n"},
        {"two.three {\n m 3:3:3\n}\n", "root {\n\ttwo\n}\ntwo {\n\tthree\n}\n"},
        {"/* c */\n#define X 4\n  x.y.z  {  \n k X:0:1\n}\n",
         "root {\n\tx\n}\nx {\n\ty\n}\nx.y {\n\tz\n}\n"},
        {"a..b {\n k 7:0:1\n}\n", "root {\n\ta\n}\na {\n\tb\n}\n"},
        {".a.b. {\n k 7:0:1\n}\n", "root {\n\ta\n}\na {\n\tb\n}\n"},
        {"nothing here\n", "root {\n"},
        {"foo{\n}\n", "root {\n"},
        {"x {\n}\nroot {\n a 1:0:0\n}\n", NULL},
        {"  root {\n z 1:0:9\n}\n", "root {\n\troot\n}\n"},
    };
    char dir[] = "/tmp/test_pmns_edit.XXXXXX";

    (void)state;
    assert_non_null(mkdtemp(dir));
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char *path = write_file(dir, "sub", cases[i].file), *prelude;
        size_t len;
        assert_int_equal(pmns_add_prelude(path, &prelude, &len), 0);
        if (cases[i].prelude == NULL) {
            assert_null(prelude);
        } else {
            assert_non_null(prelude);
            assert_int_equal(len, strlen(cases[i].prelude));
            assert_memory_equal(prelude, cases[i].prelude, len);
        }
        free(prelude);
        unlink(path);
        free(path);
    }
    rmdir(dir);
}

static void test_pmid_text(void **state)
{
    char buf[24];

    (void)state;
    assert_int_equal(pmns_pmid_text(ID(1, 2, 3), buf), 5);
    assert_string_equal(buf, "1:2:3");
    assert_int_equal(pmns_pmid_text(ID(511, 4095, 0), buf), 8);
    assert_string_equal(buf, "4095:*:*");
    assert_int_equal(pmns_pmid_text(ID(510, 4095, 1023), buf), 13);
    assert_string_equal(buf, "510:4095:1023");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_merge_order),
        cmocka_unit_test(test_merge_appends),
        cmocka_unit_test(test_merge_conflicts),
        cmocka_unit_test(test_merge_dynamic),
        cmocka_unit_test(test_empty_nonleaf),
        cmocka_unit_test(test_delete),
        cmocka_unit_test(test_wide),
        cmocka_unit_test(test_merge_out_of_memory),
        cmocka_unit_test(test_stamps),
        cmocka_unit_test(test_add_prelude),
        cmocka_unit_test(test_pmid_text),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
