/*
 * Unit tests for the two forms of diagnostics (libpcp/front/diag.c) and
 * their use by the preprocessor and the PMNS loader in PCP's form:
 *  - which form: PMKIT_DIAGNOSTICS=pcp|rich, else by whether stderr is a
 *    terminal;
 *  - PCP's layout of each dialect; the expected texts are what Debian's
 *    pmcpp, libpcp (through pminfo -n), newhelp and pmgenmap 6.0.3 print
 *    for the same problem;
 *  - in PCP's form the preprocessor stops at its first error, after the
 *    output of the lines before it, and the loader prints PCP's follow-on
 *    report of a bad PMID and its echo lines, at the end of the load.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpp.h"
#include "diag.h"
#include "pmns.h"

static char *render_pcp(const diag_msg *d)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);

    assert_non_null(fp);
    diag_print_pcp(fp, d);
    assert_int_equal(fclose(fp), 0);
    return buf;
}

static void assert_pcp(const diag_msg *d, const char *want)
{
    char *got = render_pcp(d);

    assert_string_equal(got, want);
    free(got);
}

static void form_by_environment(void **state)
{
    diag_form tty = isatty(STDERR_FILENO) ? DIAG_FORM_RICH : DIAG_FORM_PCP;

    (void)state;
    setenv("PMKIT_DIAGNOSTICS", "pcp", 1);
    assert_int_equal(diag_form_resolve(DIAG_FORM_AUTO), DIAG_FORM_PCP);
    setenv("PMKIT_DIAGNOSTICS", "rich", 1);
    assert_int_equal(diag_form_resolve(DIAG_FORM_AUTO), DIAG_FORM_RICH);
    setenv("PMKIT_DIAGNOSTICS", "other", 1);
    assert_int_equal(diag_form_resolve(DIAG_FORM_AUTO), tty);
    unsetenv("PMKIT_DIAGNOSTICS");
    assert_int_equal(diag_form_resolve(DIAG_FORM_AUTO), tty);
    /* an explicit form is kept whatever the environment says */
    setenv("PMKIT_DIAGNOSTICS", "rich", 1);
    assert_int_equal(diag_form_resolve(DIAG_FORM_PCP), DIAG_FORM_PCP);
    unsetenv("PMKIT_DIAGNOSTICS");
}

static void pcp_cpp_layout(void **state)
{
    diag_msg d = {.severity = DIAG_ERROR,
                  .file = "TMP.root",
                  .line = 2,
                  .col = 10,
                  .message = "Expected \" or < after #include",
                  .source = "#include TMP.1 ignored",
                  .source_len = 14,
                  .dialect = DIAG_PCP_CPP};

    (void)state;
    assert_pcp(&d, "pmcpp: TMP.root[2]: #include TMP.1\n"
                   "pmcpp: Error: Expected \" or < after #include\n");
    d.pcp_line = DIAG_NO_LINE;
    d.pcp_file = "top";
    d.message = "End of input and no matching #endif for #ifdef or #ifndef at line 1";
    assert_pcp(&d, "pmcpp: top:\n"
                   "pmcpp: Error: End of input and no matching #endif for #ifdef or #ifndef at "
                   "line 1\n");
    d.severity = DIAG_WARNING;
    d.message = "#shell cmd returns 3 exit status";
    assert_pcp(&d, "Warning: #shell cmd returns 3 exit status\n");
}

static void pcp_pmns_layout(void **state)
{
    diag_msg d = {.severity = DIAG_ERROR,
                  .file = "ns",
                  .line = 2,
                  .message = "Error Parsing ASCII PMNS: { expected",
                  .dialect = DIAG_PCP_PMNS,
                  .pcp_echo = "    a\t1:0:1\n    ^\n"};

    (void)state;
    assert_pcp(&d, "[ns:2] Error Parsing ASCII PMNS: { expected\n    a\t1:0:1\n    ^\n");
    d.pcp_line = DIAG_NO_LINE; /* the tree builder's messages */
    d.pcp_echo = NULL;
    d.message = "Error Parsing ASCII PMNS: No name space entry for \"root\"";
    assert_pcp(&d, "Error Parsing ASCII PMNS: No name space entry for \"root\"\n");
}

static void pcp_help_and_genmap_layout(void **state)
{
    diag_msg d = {.severity = DIAG_ERROR,
                  .file = "src",
                  .line = 3,
                  .col = 3,
                  .message =
                      "duplicate key (245.0.1): demo.alias has the key of demo.load at src:2",
                  .dialect = DIAG_PCP_HELP,
                  .pcp_message = "duplicate key (245.0.1) entry abandoned",
                  .prog = "newhelp"};

    (void)state;
    assert_pcp(&d, "newhelp: [src:3] duplicate key (245.0.1) entry abandoned\n");
    d.dialect = DIAG_PCP_GENMAP;
    d.pcp_message = NULL;
    d.message = "nested group?";
    d.pcp_file = "";
    assert_pcp(&d, "[:3] nested group?\n");
    /* no PCP counterpart: the rich form */
    d.dialect = DIAG_PCP_NONE;
    d.source = NULL;
    assert_pcp(&d, "src:3:3: error: nested group?\n");
}

/* ---- the preprocessor and the loader in PCP's form ---- */

typedef struct seen {
    int count;
    char text[2048];
} seen;

static void collect(void *ctx, const diag_msg *d)
{
    seen *s = ctx;
    char *one = render_pcp(d);

    s->count++;
    strncat(s->text, one, sizeof(s->text) - strlen(s->text) - 1);
    free(one);
}

static int to_buf(void *ctx, const char *data, size_t len)
{
    strncat(ctx, data, len);
    return 0;
}

static void cpp_stops_at_first_error(void **state)
{
    static const char text[] = "a\n#define X a b\nafter\n#endif\n";
    char out[256] = "";
    cpp_options o = {0};
    cpp_sink sink = {to_buf, out};
    seen s = {0};

    (void)state;
    o.diag = collect;
    o.diag_ctx = &s;
    o.form = DIAG_FORM_PCP;
    assert_int_not_equal(cpp_run_buffer(&o, "<stdin>", text, strlen(text), &sink, NULL), 0);
    assert_int_equal(s.count, 1);
    assert_string_equal(s.text, "pmcpp: <stdin>[2]: #define X a b\n"
                                "pmcpp: Error: Unexpected extra text in a control line\n");
    assert_string_equal(out, "# 1 \"<stdin>\"\na\n"); /* what PCP's pmcpp wrote before it */

    /* the rich form goes on: both errors, every line */
    memset(&s, 0, sizeof(s));
    out[0] = '\0';
    o.form = DIAG_FORM_RICH;
    assert_int_not_equal(cpp_run_buffer(&o, "<stdin>", text, strlen(text), &sink, NULL), 0);
    assert_int_equal(s.count, 2);
    assert_string_equal(out, "# 1 \"<stdin>\"\na\n\nafter\n\n");
}

/* Load text with no callback in PCP's form; what went to stderr. */
static char *loader_stderr(const char *text)
{
    char path[] = "/tmp/pmkit-test-diag-XXXXXX", *buf;
    int fd = mkstemp(path), saved = dup(2);
    pmns_load_opts o = {0};
    pmns_tree *t = NULL;
    FILE *fp;
    long n;

    assert_true(fd >= 0 && saved >= 0);
    o.file = "ns";
    o.use_cpp = 1;
    o.dupok = 1;
    o.form = DIAG_FORM_PCP;
    fflush(stderr);
    dup2(fd, 2);
    assert_int_equal(pmns_load_buffer(&o, text, strlen(text), &t), -12346); /* PM_ERR_PMNS */
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    assert_non_null(fp = fdopen(fd, "r"));
    fseek(fp, 0, SEEK_END);
    n = ftell(fp);
    rewind(fp);
    buf = calloc(1, (size_t)n + 1);
    assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
    fclose(fp);
    unlink(path);
    return buf;
}

static void loader_pcp_echo_and_follow_on(void **state)
{
    char *got;

    (void)state;
    /* as Debian's libpcp prints them (pminfo -n), tabs and all */
    got = loader_stderr("root {\n\ta\t511:0:1\n}\n");
    assert_string_equal(got, "[ns:2] Error Parsing ASCII PMNS: Illegal domain field in PMID\n"
                             "    a\t511:0:1\n"
                             "     \t^\n"
                             "[ns:2] Error Parsing ASCII PMNS: Expected NAME, PMID or }\n"
                             "     \t^\n"
                             "     \t^\n");
    free(got);
    got = loader_stderr("root {\n a 1:0:1 b 1:0:2 a 1:0:3 }\n");
    assert_string_equal(got, "[ns:2] Error Parsing ASCII PMNS: Duplicate name \"a\" in subtree "
                             "for \"root\"\n\n"
                             "    Duplicate name \"a\" in subtree for \"root\"\n"
                             "                            ^\n");
    free(got);
    got = loader_stderr("root {\n a 1:0:1\n}\nb {\n}\nc {\n}\n");
    assert_string_equal(got,
                        "Error Parsing ASCII PMNS: Disconnected subtree (\"c\") in name space\n"
                        "Error Parsing ASCII PMNS: Disconnected subtree (\"b\") in name space\n");
    free(got);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(form_by_environment),      cmocka_unit_test(pcp_cpp_layout),
        cmocka_unit_test(pcp_pmns_layout),          cmocka_unit_test(pcp_help_and_genmap_layout),
        cmocka_unit_test(cpp_stops_at_first_error), cmocka_unit_test(loader_pcp_echo_and_follow_on),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
