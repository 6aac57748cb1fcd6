/*
 * Unit tests for the ASCII PMNS parser and tree builder (libpcp/front/pmns_*):
 * every error message of PCP's loader with its location, the lexical and
 * PMID quirks PCP accepts, visibility and ordering, and the indexes of the
 * namespace image the tree compiles to (as libpcp loads it).
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <stdio.h>
#include <cmocka.h>

#include <pcp/pmapi.h>
#include "pmns.h"
#include "pmns_image.h"

typedef struct {
    int count;
    char first[512]; /* the first message */
    unsigned long line;
    unsigned col;
    char all[4096]; /* every message, one per line */
} diags;

static void collect(void *ctx, const diag_msg *d)
{
    diags *g = ctx;
    size_t used = strlen(g->all);

    if (g->count++ == 0) {
        snprintf(g->first, sizeof(g->first), "%s", d->message);
        g->line = d->line;
        g->col = d->col;
    }
    snprintf(g->all + used, sizeof(g->all) - used, "%s\n", d->message);
}

/* Load text (raw unless cpp); returns the status, tree in *t. */
static int load(const char *text, int cpp, int dupok, pmns_tree **t, diags *g)
{
    pmns_load_opts o = {0};

    memset(g, 0, sizeof(*g));
    o.file = "ns";
    o.use_cpp = cpp;
    o.dupok = dupok;
    o.diag = collect;
    o.form = DIAG_FORM_RICH;
    o.diag_ctx = g;
    return pmns_load_buffer(&o, text, strlen(text), t);
}

/* The tree compiled into an image, as pmLoadASCIINameSpace does. */
static pmns_image *compile(const pmns_tree *t)
{
    pmns_image *img = NULL;
    uint8_t *buf;
    size_t len;

    assert_int_equal(pmns_tree_image(t, 1, &buf, &len), 0);
    assert_int_equal(pmns_image_open_buffer(buf, len, 1, &img, NULL), 0);
    return img;
}

/* The node called name in img (it must exist). */
static pmns_image_node node_of(const pmns_image *img, const char *name)
{
    pmns_image_node nd;

    assert_int_not_equal(pmns_image_find(img, name, strlen(name), &nd), PMNS_IMG_NONE);
    return nd;
}

static int exists(const pmns_image *img, const char *name)
{
    return pmns_image_find(img, name, strlen(name), NULL) != PMNS_IMG_NONE;
}

/* The full name of node off. */
static const char *full_name(const pmns_image *img, uint32_t off, char *buf, size_t cap)
{
    pmns_image_node nd;
    const char *h, *t;
    uint32_t hl, tl;

    assert_int_equal(pmns_image_node_at(img, off, &nd), 0);
    assert_int_equal(pmns_image_name(img, &nd, &h, &hl, &t, &tl), 0);
    snprintf(buf, cap, "%.*s%s%.*s", (int)hl, h, hl ? "." : "", (int)tl, t);
    return buf;
}

static void expect_error(const char *text, const char *msg, unsigned long line, unsigned col)
{
    pmns_tree *t = NULL;
    diags g;
    char want[512];

    assert_int_equal(load(text, 0, 1, &t, &g), PM_ERR_PMNS);
    assert_null(t);
    snprintf(want, sizeof(want), "Error Parsing ASCII PMNS: %s", msg);
    assert_string_equal(g.first, want);
    assert_int_equal(g.line, line);
    if (col != 0)
        assert_int_equal(g.col, col);
    assert_int_equal(g.count, 1); /* reported once (PCP reports some twice) */
}

static void syntax_errors(void **state)
{
    (void)state;
    expect_error("root{\n}\n", "Expected NAME or PATH", 1, 1);
    expect_error("root\n a 1:2:3\n}\n", "{ expected", 2, 2);
    expect_error("{\n", "Expected NAME or PATH", 1, 1);
    expect_error("root {\n  x.y 1:2:3\n}\n", "Expected NAME or }", 2, 3);
    expect_error("root {\n  a-b 1:2:3\n}\n", "Expected NAME or }", 2, 3);
    expect_error("root {\n  _a 1:2:3\n}\n", "Expected NAME or }", 2, 3);
    expect_error("root {\n  123\n}\n", "Expected NAME or }", 2, 3);
    expect_error("root {\n  a -1:2:3\n}\n", "Expected NAME, PMID or }", 2, 5);
    expect_error("root {\n  a 1:2:3\n}\n}\n", "Expected NAME or PATH", 4, 1);
    expect_error("# a comment\nroot {\n}\n", "Illegal line number control number", 1, 1);
}

static void pmid_errors(void **state)
{
    (void)state;
    expect_error("root {\n  a 511:2:3\n}\n", "Illegal domain field in PMID", 2, 5);
    expect_error("root {\n  a 1:4096:3\n}\n", "Illegal cluster field in PMID", 2, 5);
    expect_error("root {\n  a 1:2:1024\n}\n", "Illegal item field in PMID", 2, 5);
    expect_error("root {\n  a 1:2:*\n}\n", "Illegal PMID", 2, 5);
    expect_error("root {\n  a 1:2\n}\n", "Illegal PMID", 2, 5);
    expect_error("root {\n  a *:*:*\n}\n", "Illegal PMID", 2, 5);
    expect_error("root {\n  a 511:*:*\n}\n", "Illegal domain field in dynamic PMID", 2, 5);
    /* PCP lets 4294967295 wrap into a domain; pmkit rejects it (docs/compat.md) */
    expect_error("root {\n  a 4294967295:0:0\n}\n", "Illegal domain field in PMID", 2, 5);
}

static void structure_errors(void **state)
{
    pmns_tree *t = NULL;
    diags g;

    (void)state;
    expect_error("root {\n  a 1:0:1\n  a 1:0:2\n}\n",
                 "Duplicate name \"a\" in subtree for \"root\"", 4, 1);
    /* a group left open at EOF is still checked (PCP skips it; docs/compat.md) */
    expect_error("root {\n  a 1:0:1\n  a 1:0:2\n", "Duplicate name \"a\" in subtree for \"root\"",
                 3, 0);
    expect_error("", "No name space entry for \"root\"", 0, 0);
    expect_error("nonroot {\n}\n", "No name space entry for \"root\"", 0, 0);
    expect_error("root {\n}\nroot {\n}\n", "Multiple name space entries for \"root\"", 0, 0);
    expect_error("root {\n  a\n}\n",
                 "Cannot find definition for non-terminal node \"a\" in name space", 0, 0);
    /* every disconnected group is reported */
    assert_int_equal(
        load("root {\n a 1:0:1\n}\na {\n x 1:0:2\n}\nb {\n y 1:0:3\n}\n", 0, 1, &t, &g),
        PM_ERR_PMNS);
    assert_string_equal(g.all,
                        "Error Parsing ASCII PMNS: Disconnected subtree (\"a\") in name space\n"
                        "Error Parsing ASCII PMNS: Disconnected subtree (\"b\") in name space\n");
    assert_int_equal(g.line, 4);
}

static void duplicate_pmids(void **state)
{
    pmns_tree *t = NULL;
    diags g;
    const char *ns = "root {\n  a 1:2:3\n  d 1:2:3\n  e 33:*:*\n  f 33:*:*\n}\n";

    (void)state;
    assert_int_equal(load(ns, 0, 1, &t, &g), 0);
    pmns_free(t);
    assert_int_equal(load(ns, 0, 0, &t, &g), PM_ERR_PMNS);
    assert_string_equal(g.first, "Error Parsing ASCII PMNS: Duplicate metric id (1.2.3) in name "
                                 "space for metrics \"d\" and \"a\"");
    assert_int_equal(g.count, 1); /* dynamic roots may always repeat */
}

static void accepted_quirks(void **state)
{
    pmns_tree *t = NULL;
    pmns_image *img;
    pmns_image_node nd;
    diags g;

    (void)state;
    /* blanks around ':', 1:2:3:4 and 1:2:3* as 1.2.3, a bare domain as a
     * dynamic root, leading zeros, one-line layout, no final '}' */
    assert_int_equal(
        load("root { a 1 : 2 : 3 b 1:2:3:4 c 01:002:0003 d 7 e 1:2:3*\n", 0, 1, &t, &g), 0);
    img = compile(t);
    assert_int_equal(node_of(img, "a").pmid, (1u << 22) | (2u << 10) | 3);
    assert_int_equal(node_of(img, "b").pmid, (1u << 22) | (2u << 10) | 3);
    assert_int_equal(node_of(img, "c").pmid, (1u << 22) | (2u << 10) | 3);
    assert_int_equal(node_of(img, "e").pmid, (1u << 22) | (2u << 10) | 3);
    nd = node_of(img, "d");
    assert_int_equal(nd.pmid, (511u << 22) | (7u << 10));
    assert_true(nd.flags & PMNS_IMG_DYNAMIC);
    pmns_image_close(img);
    pmns_free(t);
    /* groups in any order, dotted headers, a last line without newline */
    assert_int_equal(load("a.b {\n c 1:0:3\n}\nroot {\n a\n}\na {\n b\n}", 0, 1, &t, &g), 0);
    img = compile(t);
    assert_true(exists(img, "a.b.c"));
    pmns_image_close(img);
    pmns_free(t);
}

static void preprocessed_locations(void **state)
{
    pmns_tree *t = NULL;
    diags g;

    (void)state;
    /* line numbers come from the markers: right through comments and macros */
    assert_int_equal(
        load("#define D 60\n/* a\n comment */\nroot {\n  x D:0:1\n  y 600:0:1\n}\n", 1, 1, &t, &g),
        PM_ERR_PMNS);
    assert_string_equal(g.first, "Error Parsing ASCII PMNS: Illegal domain field in PMID");
    assert_int_equal(g.line, 6);
}

static void visibility_and_order(void **state)
{
    pmns_tree *t = NULL;
    pmns_image *img;
    pmns_image_pmid_iter it;
    diags g;
    uint32_t off;
    char name[64];

    (void)state;
    assert_int_equal(load("root {\n zeta 1:0:1\n alpha\n mid 1:0:1\n dyn 33:*:*\n empty\n}\n"
                          "alpha {\n z 1:0:1\n b 1:0:2\n a 1:0:1\n}\nempty {\n}\n",
                          0, 1, &t, &g),
                     0);
    assert_int_equal(t->nodes[0].nkids, 5);
    pmns_name(t, t->nodes[0].first + 1, name, sizeof(name));
    assert_string_equal(name, "alpha"); /* file order */
    img = compile(t);
    assert_false(exists(img, "empty")); /* an empty group is hidden */
    /* 1.0.1: last defined first (reverse pre-order) */
    pmns_image_pmid_first(img, (1u << 22) | 1, &it);
    assert_int_equal(pmns_image_pmid_next(img, &it, &off), 1);
    assert_string_equal(full_name(img, off, name, sizeof(name)), "mid");
    assert_int_equal(pmns_image_pmid_next(img, &it, &off), 1);
    assert_string_equal(full_name(img, off, name, sizeof(name)), "alpha.a");
    assert_int_equal(pmns_image_pmid_next(img, &it, &off), 1);
    assert_string_equal(full_name(img, off, name, sizeof(name)), "alpha.z");
    assert_int_equal(pmns_image_pmid_next(img, &it, &off), 1);
    assert_string_equal(full_name(img, off, name, sizeof(name)), "zeta");
    assert_int_equal(pmns_image_pmid_next(img, &it, &off), 0);
    pmns_image_pmid_first(img, (511u << 22) | (33u << 10), &it); /* dynamic roots: no entry */
    assert_int_equal(pmns_image_pmid_next(img, &it, &off), 0);
    assert_false(exists(img, "alpha.q"));
    assert_false(exists(img, "alph"));
    assert_true(exists(img, "alpha.b"));
    pmns_image_close(img);
    pmns_free(t);
}

static void long_lines_and_names(void **state)
{
    static char text[300000];
    pmns_tree *t = NULL;
    pmns_image *img;
    diags g;
    size_t n = 0;

    (void)state;
    n += (size_t)snprintf(text, sizeof(text), "root {\n  ");
    memset(text + n, 'x', 100000); /* one 100 000-character name: no line limit */
    n += 100000;
    n += (size_t)snprintf(text + n, sizeof(text) - n, " 1:0:1\n}\n");
    assert_int_equal(load(text, 0, 1, &t, &g), 0);
    assert_int_equal(t->nodes[1].namelen, 100000);
    img = compile(t);
    assert_int_not_equal(pmns_image_find(img, text + 9, 100000, NULL), PMNS_IMG_NONE);
    pmns_image_close(img);
    pmns_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(syntax_errors),        cmocka_unit_test(pmid_errors),
        cmocka_unit_test(structure_errors),     cmocka_unit_test(duplicate_pmids),
        cmocka_unit_test(accepted_quirks),      cmocka_unit_test(preprocessed_locations),
        cmocka_unit_test(visibility_and_order), cmocka_unit_test(long_lines_and_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
