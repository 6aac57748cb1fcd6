/*
 * Unit tests for #if / #elif expressions (libpcp/front/cpp_expr.c), run
 * through cpp_run_buffer: each case is
 *
 *     DEFINES
 *     #if EXPR
 *     yes
 *     #else
 *     no
 *     #endif
 *
 * and must select the expected branch with no diagnostics.  The semantics
 * are C's integer constant expressions in the preprocessor (intmax_t /
 * uintmax_t, 64 bits): precedence and associativity, the usual arithmetic
 * conversions, shifts typed by their left operand, && || ?: evaluating
 * only what they need (so division by zero is an error only when
 * evaluated), character constants with escapes, identifiers that are not
 * macros are 0, macros expanded and rescanned as C does (a macro is not
 * expanded inside its own expansion), defined NAME / defined(NAME).
 * Cases marked GCC were checked with `gcc -E` on the same text (pmcpp's
 * #define values are plain text, so the macro cases mean the same in C);
 * where C leaves a result implementation-defined (right shift of a
 * negative value, '\377'), GCC's x86-64 result is expected.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpp.h"

/* ---- collecting output and diagnostics ---- */

typedef struct {
    diag_severity sev;
    unsigned long line;
    unsigned col;
    char msg[256];
    char src[256];
} rdiag;

typedef struct {
    cpp_options opt;
    char out[4096];
    size_t outlen;
    rdiag diags[16];
    size_t ndiags;
    cpp_stats stats;
    int rc;
} run_t;

static int sink_write(void *ctx, const char *data, size_t len)
{
    run_t *r = ctx;

    if (r->outlen + len >= sizeof(r->out))
        len = sizeof(r->out) - 1 - r->outlen;
    memcpy(r->out + r->outlen, data, len);
    r->outlen += len;
    r->out[r->outlen] = '\0';
    return 0;
}

static void on_diag(void *ctx, const diag_msg *d)
{
    run_t *r = ctx;
    rdiag *x;

    if (r->ndiags == sizeof(r->diags) / sizeof(r->diags[0]))
        return;
    x = &r->diags[r->ndiags++];
    x->sev = d->severity;
    x->line = d->line;
    x->col = d->col;
    snprintf(x->msg, sizeof(x->msg), "%s", d->message);
    snprintf(x->src, sizeof(x->src), "%.*s", d->source != NULL ? (int)d->source_len : 6,
             d->source != NULL ? d->source : "(none)");
}

static run_t *pp(const char *text, int shell_style)
{
    static run_t r;

    memset(&r, 0, sizeof(r));
    r.opt.no_markers = 1;
    r.opt.shell_style = shell_style;
    r.opt.diag = on_diag;
    r.opt.form = DIAG_FORM_RICH;
    r.opt.diag_ctx = &r;
    r.rc = cpp_run_buffer(&r.opt, "<stdin>", text, strlen(text), &(cpp_sink){sink_write, &r},
                          &r.stats);
    return &r;
}

static void dump(const run_t *r)
{
    print_message("---- output ----\n%s---- %zu diagnostics ----\n", r->out, r->ndiags);
    for (size_t i = 0; i < r->ndiags; i++)
        print_message("  %lu:%u: %s | %s\n", r->diags[i].line, r->diags[i].col, r->diags[i].msg,
                      r->diags[i].src);
}

/* ---- the table ---- */

enum { NOGCC = 0, GCC = 1 };

typedef struct {
    const char *defs; /* lines before the #if ("" for none) */
    const char *expr;
    int truth;
    int gcc; /* GCC: gcc -E agrees */
} expr_case;

static const expr_case cases[] = {
    /* constants */
    {"", "1", 1, GCC},
    {"", "0", 0, GCC},
    {"", "0x10 == 16", 1, GCC},
    {"", "0XfF == 255", 1, GCC},
    {"", "010 == 8", 1, GCC},
    {"", "00 == 0", 1, GCC},
    {"", "10u == 10", 1, GCC},
    {"", "10UL == 10L", 1, GCC},
    {"", "10LL == 10ull", 1, GCC},
    {"", "0x7FFFFFFFFFFFFFFF == 9223372036854775807", 1, GCC},
    /* precedence and associativity */
    {"", "2 + 3 * 4 == 14", 1, GCC},
    {"", "(2 + 3) * 4 == 20", 1, GCC},
    {"", "10 - 4 - 3 == 3", 1, GCC},
    {"", "100 / 10 / 5 == 2", 1, GCC},
    {"", "7 % 4 == 3", 1, GCC},
    {"", "2 * 3 % 4 == 2", 1, GCC},
    {"", "1 << 2 + 1 == 8", 1, GCC},
    {"", "1 + 2 << 3 == 24", 1, GCC},
    {"", "1 << 2 < 5", 1, GCC},
    {"", "(1 < 2) == 1", 1, GCC},
    {"", "2 == 2 < 1", 0, GCC},
    {"", "3 > 2 > 1", 0, GCC},
    {"", "1 == 1 != 0", 1, GCC},
    {"", "(1 | 2 ^ 3 & 4) == 3", 1, GCC},
    {"", "(5 & 3 == 3) == 1", 1, GCC},
    {"", "(6 ^ 3) == 5", 1, GCC},
    {"", "(6 | 3) == 7", 1, GCC},
    {"", "(6 & 3) == 2", 1, GCC},
    {"", "(1 | 1 && 0) == 0", 1, GCC},
    {"", "1 || 0 && 0", 1, GCC},
    {"", "(0 && 1 || 1) == 1", 1, GCC},
    {"", "2 && 3", 1, GCC},
    {"", "(2 || 0) == 1", 1, GCC},
    {"", "1 != 2", 1, GCC},
    {"", "2 >= 2 && 2 <= 2", 1, GCC},
    {"", "5 > 5", 0, GCC},
    {"", "5 < 5", 0, GCC},
    /* unary operators */
    {"", "-2 * -3 == 6", 1, GCC},
    {"", "- - 3 == 3", 1, GCC},
    {"", "-(-3) == 3", 1, GCC},
    {"", "+3 == 3", 1, GCC},
    {"", "~0 == -1", 1, GCC},
    {"", "(~5 & 0xF) == 10", 1, GCC},
    {"", "!0 == 1", 1, GCC},
    {"", "!5 == 0", 1, GCC},
    {"", "!!7 == 1", 1, GCC},
    {"", "-1 + 1", 0, GCC},
    /* conditional operator */
    {"", "(1 ? 2 : 3) == 2", 1, GCC},
    {"", "(0 ? 2 : 3) == 3", 1, GCC},
    {"", "1 ? 0 : 1", 0, GCC},
    {"", "(0 ? 1 : 0 ? 2 : 3) == 3", 1, GCC},
    {"", "(1 ? 0 ? 4 : 5 : 6) == 5", 1, GCC},
    {"", "(1 ? 2 : 3) + 1 == 3", 1, GCC},
    {"", "0 || 1 ? 7 : 8", 1, GCC},
    {"", "(0 || 0 ? 7 : 8) == 8", 1, GCC},
    /* signed arithmetic */
    {"", "-7 / 2 == -3", 1, GCC},
    {"", "-7 % 2 == -1", 1, GCC},
    {"", "7 / -2 == -3", 1, GCC},
    {"", "-1 / 2 == 0", 1, GCC},
    {"", "-1 < 0", 1, GCC},
    {"", "-9223372036854775807 - 1 < 0", 1, GCC},
    {"", "9223372036854775807 > 0", 1, GCC},
    /* unsigned: the usual arithmetic conversions */
    {"", "-1 > 0u", 1, GCC},
    {"", "-1 < 0u", 0, GCC},
    {"", "0u - 1 > 0", 1, GCC},
    {"", "1 - 2u > 0", 1, GCC},
    {"", "-1u > 0", 1, GCC},
    {"", "-1 / 2u > 0", 1, GCC},
    {"", "-1 % 2u == 1", 1, GCC},
    {"", "-1 == 0xFFFFFFFFFFFFFFFF", 1, GCC},
    {"", "0xFFFFFFFFFFFFFFFF > 0", 1, GCC},
    {"", "0x8000000000000000 > 0", 1, GCC},
    {"", "~0u == 0xFFFFFFFFFFFFFFFF", 1, GCC},
    {"", "(0u + 5) / -1 == 0", 1, GCC},
    {"", "(1u > 0) - 2 < 0", 1, GCC},
    {"", "(1u == 1u) - 2 < 0", 1, GCC},
    {"", "!0u - 2 < 0", 1, GCC},
    {"", "(0u && 1) - 1 < 0", 1, GCC},
    {"", "(1 ? -1 : 0u) > 0", 1, GCC},
    {"", "(0 ? 0u : -1) > 0", 1, GCC},
    {"", "(1 ? -1 : 0) < 0", 1, GCC},
    /* shifts: typed by the left operand */
    {"", "1 << 3 == 8", 1, GCC},
    {"", "256 >> 4 == 16", 1, GCC},
    {"", "1 << 0 == 1", 1, GCC},
    {"", "0x80 >> 7 == 1", 1, GCC},
    {"", "-1u >> 63 == 1", 1, GCC},
    {"", "(1u << 63) > 0", 1, GCC},
    {"", "(1 << 62) > 0", 1, GCC},
    {"", "(-1 >> 1u) < 0", 1, GCC},
    {"", "(1 << 2u) - 5 < 0", 1, GCC},
    {"", "-16 >> 2 == -4", 1, GCC},
    {"", "(0xF0u >> 4) == 15", 1, GCC},
    /* && || ?: evaluate only what they need */
    {"", "0 && 1 / 0", 0, GCC},
    {"", "1 || 1 / 0", 1, GCC},
    {"", "0 && (1 % 0)", 0, GCC},
    {"", "(1 || 1 / 0) && 0", 0, GCC},
    {"", "0 ? 1 / 0 : 2", 1, GCC},
    {"", "1 ? 2 : 1 / 0", 1, GCC},
    {"", "0 && (1 / 0 || 1 % 0)", 0, GCC},
    {"", "1 || (0 ? 1 : 1 / 0)", 1, GCC},
    {"", "0 && NOT_A_MACRO / 0", 0, GCC},
    /* character constants */
    {"", "'A' == 65", 1, GCC},
    {"", "'\\x41' == 65", 1, GCC},
    {"", "'\\101' == 65", 1, GCC},
    {"", "'\\n' == 10", 1, GCC},
    {"", "'\\t' == 9", 1, GCC},
    {"", "'\\r' == 13", 1, GCC},
    {"", "'\\a' == 7", 1, GCC},
    {"", "'\\0' == 0", 1, GCC},
    {"", "'\\\\' == 92", 1, GCC},
    {"", "'\\'' == 39", 1, GCC},
    {"", "'\"' == 34", 1, GCC},
    {"", "'\\?' == 63", 1, GCC},
    {"", "'0' == 48", 1, GCC},
    {"", "' ' == 32", 1, GCC},
    {"", "'\\x7f' == 127", 1, GCC},
    {"", "'\\x7F' == 0x7f", 1, GCC},
    {"", "'\\177' == 127", 1, GCC},
    {"", "'\\377' == -1", 1, GCC},
    {"", "'\\xff' < 0", 1, GCC},
    {"", "'a' < 'b'", 1, GCC},
    {"", "'/' == 47", 1, GCC},
    /* identifiers that are not macros are 0 */
    {"", "NOT_A_MACRO == 0", 1, GCC},
    {"", "NOT_A_MACRO", 0, GCC},
    {"", "NOT_A_MACRO + 1 == 1", 1, GCC},
    /* defined */
    {"#define X 1\n#define E\n", "defined X", 1, GCC},
    {"#define X 1\n#define E\n", "defined(X)", 1, GCC},
    {"#define X 1\n#define E\n", "defined ( X )", 1, GCC},
    {"#define X 1\n#define E\n", "defined\t(\tX\t)", 1, GCC},
    {"#define X 1\n#define E\n", "defined Y", 0, GCC},
    {"#define X 1\n#define E\n", "defined(Y)", 0, GCC},
    {"#define X 1\n#define E\n", "!defined(Y)", 1, GCC},
    {"#define X 1\n#define E\n", "!defined Y && defined X", 1, GCC},
    {"#define X 1\n#define E\n", "defined(E)", 1, GCC},
    {"#define X 1\n#define E\n", "defined X + defined E + defined Y == 2", 1, GCC},
    {"#define X 1\n#define E\n", "defined X ? 3 : 4", 1, GCC},
    {"#define X 1\n#undef X\n", "defined X", 0, GCC},
    /* the operand of defined is not expanded */
    {"#define D NOT_DEFINED\n", "defined D", 1, GCC},
    {"#define D NOT_DEFINED\n", "defined(D)", 1, GCC},
    {"#define D NOT_DEFINED\n", "defined NOT_DEFINED", 0, GCC},
    {"#define D NOT_DEFINED\n", "D == 0", 1, GCC},
    /* macros: expanded, rescanned, each at most once in its own expansion */
    {"#define N 5\n", "N == 5", 1, GCC},
    {"#define N 5\n", "N * N == 25", 1, GCC},
    {"#define M 0x10\n", "M == 16", 1, GCC},
    {"#define NEG -1\n", "NEG < 0", 1, GCC},
    {"#define U 1u\n", "-1 < U", 0, GCC},
    {"#define P (2+3)\n", "P * 2 == 10", 1, GCC},
    {"#define F 2+3\n", "F * 2 == 8", 1, GCC},
    {"#define F 2+3\n", "-F == 1", 1, GCC},
    {"#define A B\n#define B 7\n", "A == 7", 1, GCC},
    {"#define A B\n#define B C\n#define C 9\n", "A * 2 == 18", 1, GCC},
    {"#define S S+1\n", "S == 1", 1, GCC},
    {"#define S (S*2+1)\n", "S == 1", 1, GCC},
    {"#define SELF SELF\n", "SELF == 0", 1, GCC},
    {"#define A B\n#define B A\n", "A == 0", 1, GCC},
    {"#define A B\n#define B A\n", "B == 0", 1, GCC},
    {"#define X1 Y1+1\n#define Y1 X1*2\n", "X1 == 1", 1, GCC},
    {"#define X1 Y1+1\n#define Y1 X1*2\n", "Y1 == 2", 1, GCC},
    {"#define T T\n#define U2 T+T+T\n", "U2 + 1 == 1", 1, GCC},
    {"#define Z\n", "Z + 1 == 1", 1, GCC},
    {"#define Z\n", "Z 1", 1, GCC},
    {"#define L (\n#define R )\n", "L 1 + 2 R * 3 == 9", 1, GCC},
    {"#define OP ==\n", "2 OP 2", 1, GCC},
    {"#define DEF defined\n#define K\n", "defined DEF && defined K", 1, GCC},
    {"#define Q \"1 + 2\"\n", "Q == 3", 1, NOGCC}, /* pmcpp strips the quotes */
    {"#define Q '(4)'\n", "Q * Q == 16", 1, NOGCC},
    /* comments and blanks */
    {"", "1 /* one */ + 1 == 2", 1, GCC},
    {"", "\t1\t==\t1\t", 1, GCC},
    {"", "(((((1)))))", 1, GCC},
};

static void run_case(void **state)
{
    const expr_case *c = *state;
    char text[1024];
    run_t *r;
    char want[1024];
    size_t ndefs = 0;

    for (const char *p = c->defs; *p != '\0'; p++)
        ndefs += *p == '\n';
    snprintf(text, sizeof(text), "%s#if %s\nyes\n#else\nno\n#endif\n", c->defs, c->expr);
    memset(want, '\n', ndefs);
    snprintf(want + ndefs, sizeof(want) - ndefs, "%s", c->truth ? "\nyes\n\n\n\n" : "\n\n\nno\n\n");
    r = pp(text, 0);
    if (r->ndiags != 0 || r->rc != 0 || strcmp(r->out, want) != 0) {
        dump(r);
        fail_msg("#if %s: want %s, no diagnostics", c->expr, c->truth ? "true" : "false");
    }
}

/* ---- errors ---- */

/* Checks report and count their failures, so one test shows them all;
 * each test ends with check_done(). */
static int failures;

static void expect_error(const char *text, int shell_style, unsigned long line, unsigned col,
                         const char *msg)
{
    run_t *r = pp(text, shell_style);
    bool ok = r->ndiags >= 1 && r->rc < 0 && r->diags[0].sev == DIAG_ERROR &&
              r->diags[0].line == line && (col == 0 || r->diags[0].col == col) &&
              (msg == NULL || strcmp(r->diags[0].msg, msg) == 0);

    if (!ok) {
        dump(r);
        print_error("FAILED: %s: want an error at %lu:%u: %s\n", text, line, col,
                    msg != NULL ? msg : "(any message)");
        failures++;
    }
}

static void expect_clean(const char *text, const char *out)
{
    run_t *r = pp(text, 0);

    if (r->ndiags != 0 || r->rc != 0 || strcmp(r->out, out) != 0) {
        dump(r);
        print_error("FAILED: %s: want a clean run\n", text);
        failures++;
    }
}

static void check_done(void)
{
    int n = failures;

    failures = 0;
    if (n != 0)
        fail_msg("%d check(s) failed", n);
}

static void division_by_zero_when_evaluated(void **state)
{
    (void)state;
    expect_error("#if 1 / 0\n#endif\n", 0, 1, 7, "Division by zero in #if");
    expect_error("#if 1 % 0\n#endif\n", 0, 1, 7, "Division by zero in #if");
    expect_error("#if 0 * (1 / 0)\n#endif\n", 0, 1, 12, "Division by zero in #if");
    expect_error("#if (0 && 1) / 0\n#endif\n", 0, 1, 14, "Division by zero in #if");
    expect_error("#if 1 && 1 / 0\n#endif\n", 0, 1, 12, "Division by zero in #if");
    expect_error("#if 0 || 1 % 0\n#endif\n", 0, 1, 12, "Division by zero in #if");
    expect_error("#if 1 ? 1 / 0 : 0\n#endif\n", 0, 1, 11, "Division by zero in #if");
    expect_error("#if 0 ? 0 : 1 / 0\n#endif\n", 0, 1, 15, "Division by zero in #if");
    expect_error("#define Z 0\n#if 1 / Z\n#endif\n", 0, 2, 7, "Division by zero in #if");
    expect_error("%if 1 / 0\n%endif\n", 1, 1, 7, "Division by zero in %if");
    check_done();
}

static void missing_expression(void **state)
{
    (void)state;
    expect_error("#if\n#endif\n", 0, 1, 4, "Missing expression in #if");
    expect_error("#if   \n#endif\n", 0, 1, 0, "Missing expression in #if");
    expect_error("#if /* nothing */\n#endif\n", 0, 1, 0, "Missing expression in #if");
    expect_error("#define E\n#if E\n#endif\n", 0, 2, 0, "Missing expression in #if");
    expect_error("#if 0\n#elif\n#endif\n", 0, 2, 0, NULL);
    expect_error("%if\n%endif\n", 1, 1, 4, "Missing expression in %if");
    check_done();
}

static void invalid_expressions(void **state)
{
    (void)state;
    expect_error("#if )\n#endif\n", 0, 1, 5, "Invalid expression in #if");
    expect_error("#if * 2\n#endif\n", 0, 1, 5, "Invalid expression in #if");
    expect_error("#if 1 + * 2\n#endif\n", 0, 1, 9, "Invalid expression in #if");
    expect_error("#if (1\n#endif\n", 0, 1, 5, "Missing ) in #if");
    expect_error("#if ((1)\n#endif\n", 0, 1, 5, "Missing ) in #if");
    expect_error("#if 2 * (3 + 4\n#endif\n", 0, 1, 9, "Missing ) in #if");
    expect_error("#if ''\n#endif\n", 0, 1, 5, "Invalid character constant in #if");
    expect_error("#if 'a\n#endif\n", 0, 1, 5, "Invalid character constant in #if");
    expect_error("#if 1 == '\n#endif\n", 0, 1, 10, "Invalid character constant in #if");
    /* errors whose wording the specification leaves open */
    expect_error("#if 1 +\n#endif\n", 0, 1, 0, NULL);
    expect_error("#if 1 2\n#endif\n", 0, 1, 0, NULL);
    expect_error("#if (\n#endif\n", 0, 1, 0, NULL);
    expect_error("#if 1 ? 2\n#endif\n", 0, 1, 0, NULL);
    expect_error("#if 1 : 2\n#endif\n", 0, 1, 0, NULL);
    expect_error("#if \"s\"\n#endif\n", 0, 1, 0, NULL);
    expect_error("#if 1.5\n#endif\n", 0, 1, 0, NULL);
    expect_error("#if 08\n#endif\n", 0, 1, 0, NULL);
    expect_error("#if 0x\n#endif\n", 0, 1, 0, NULL);
    expect_error("#if 12abc\n#endif\n", 0, 1, 0, NULL);
    expect_error("#if 1 @ 2\n#endif\n", 0, 1, 0, NULL);
    expect_error("#if 1 = 1\n#endif\n", 0, 1, 0, NULL);
    expect_error("#if defined\n#endif\n", 0, 1, 0, NULL);
    expect_error("#if defined(X\n#endif\n", 0, 1, 0, NULL);
    expect_error("#if defined()\n#endif\n", 0, 1, 0, NULL);
    expect_error("#if defined 1\n#endif\n", 0, 1, 0, NULL);
    check_done();
}

static void error_line_in_a_longer_input(void **state)
{
    (void)state;
    expect_error("a\nb\n#if 0\n#elif (1\n#endif\n", 0, 4, 7, NULL);
    expect_error("a\n#if 1\n#if 1 / 0\n#endif\n#endif\n", 0, 3, 7, "Division by zero in #if");
    check_done();
}

static void elif_evaluated_only_when_needed(void **state)
{
    (void)state;
    /* a branch was taken: later #elif expressions are not evaluated */
    expect_clean("#if 1\na\n#elif 1 / 0\nb\n#endif\n", "\na\n\n\n\n");
    expect_clean("#ifdef NOPE\n#else\n#endif\n#if 0\n#elif 1\nb\n#elif 1 % 0\nc\n#endif\n",
                 "\n\n\n\n\nb\n\n\n\n");
    /* an enclosing false group: nothing inside is evaluated */
    expect_clean("#if 0\n#if 1 / 0\n#elif 1 / 0\n#endif\n#endif\n", "\n\n\n\n\n");
    expect_clean("#ifdef NOPE\n#if (\n#endif\n#endif\n", "\n\n\n\n");
    /* not yet taken: evaluated, so an error */
    expect_error("#if 0\n#elif 1 / 0\n#endif\n", 0, 2, 9, "Division by zero in #if");
    check_done();
}

static void if_with_macros_from_the_command_line(void **state)
{
    static const cpp_define defs[] = {{"LEVEL=3", 0, 2}, {"ON", 0, 3}, {"X=1", 0, 4}, {"X", 1, 5}};
    static const char text[] = "#if LEVEL > 2 && defined(ON) && ON + 1 == 1 && !defined X\nyes\n"
                               "#endif\n";
    run_t r;

    (void)state;
    memset(&r, 0, sizeof(r));
    r.opt.no_markers = 1;
    r.opt.diag = on_diag;
    r.opt.form = DIAG_FORM_RICH;
    r.opt.diag_ctx = &r;
    r.opt.defines = defs;
    r.opt.n_defines = sizeof(defs) / sizeof(defs[0]);
    r.rc = cpp_run_buffer(&r.opt, "<stdin>", text, strlen(text), &(cpp_sink){sink_write, &r},
                          &r.stats);
    if (r.rc != 0 || r.ndiags != 0)
        dump(&r);
    assert_int_equal(r.rc, 0);
    assert_string_equal(r.out, "\nyes\n\n");
}

static void if_is_not_text_substituted(void **state)
{
    /* the #if line itself is never written; a macro named "if" does not
     * change the directive */
    (void)state;
    expect_clean("#define if 0\n#if 1\nif\n#endif\n", "\n\n0\n\n");
    check_done();
}

int main(void)
{
    size_t n = sizeof(cases) / sizeof(cases[0]);
    static const struct CMUnitTest fixed[] = {
        cmocka_unit_test(division_by_zero_when_evaluated),
        cmocka_unit_test(missing_expression),
        cmocka_unit_test(invalid_expressions),
        cmocka_unit_test(error_line_in_a_longer_input),
        cmocka_unit_test(elif_evaluated_only_when_needed),
        cmocka_unit_test(if_with_macros_from_the_command_line),
        cmocka_unit_test(if_is_not_text_substituted),
    };
    size_t nfixed = sizeof(fixed) / sizeof(fixed[0]);
    struct CMUnitTest *all = calloc(n + nfixed, sizeof(*all));
    char(*names)[160] = calloc(n, sizeof(*names));
    int rc;

    if (all == NULL || names == NULL)
        return 1;
    for (size_t i = 0; i < n; i++) {
        snprintf(names[i], sizeof(names[i]), "if %s%s%s", cases[i].expr,
                 cases[i].defs[0] != '\0' ? " with " : "", cases[i].defs);
        for (char *p = names[i]; *p != '\0'; p++)
            if (*p == '\n' || *p == '\t')
                *p = ' ';
        all[i].name = names[i];
        all[i].test_func = run_case;
        all[i].initial_state = (void *)&cases[i];
    }
    memcpy(all + n, fixed, sizeof(fixed));
    rc = _cmocka_run_group_tests("cpp_expr", all, n + nfixed, NULL, NULL);
    free(names);
    free(all);
    return rc;
}
