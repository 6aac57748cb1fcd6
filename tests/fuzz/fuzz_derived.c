/*
 * fuzz_derived.c - libFuzzer target for the derived-metric expression
 * parser (libpcp/derived/lex.c, parse.c; private header derived_int.h).
 *
 * The input, cut at its first NUL, is parsed twice.  Checked: the status is
 * 0 or PM_ERR_BADDERIVE, the same both times with the same position and
 * message; an error's position lies within the expression (-1 .. its last
 * byte) and its message, if any, is one PCP gives; a tree is well formed
 * (every node of a known kind with the operands it needs), and printed back
 * fully parenthesised it parses to a tree that prints the same (unless the
 * parentheses would take it past the parser stack's limit).  Trees are
 * walked with an explicit stack: the parser's limit bounds their depth, the
 * C stack must not.
 */
#include "derived_int.h"

#include <pcp/pmapi.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Messages PCP gives while parsing: whole ones and prefixes of the made ones. */
static const char *const messages[] = {
    "Unexpected initial '",
    "Unexpected '('",
    "Unexpected ')'",
    "Arithmetic expression expected to follow ",
    "Boolean expression expected to follow ",
    "Arithmetic or relational or boolean operator expected to follow ",
    "Metric name expected to follow ",
    "Units string expected to follow rescale(<expr>,",
    "<filter>, <expr>) expected to follow matchinst(",
    ", <expr>) expected to follow matchinst(<filter>",
    "<expr>) expected to follow matchinst(<filter>,",
    "<expr> expected to follow scalar(",
    "Illegal character",
    "Constant value too large",
    "unterminated STRING",
    "unterminated instance name",
    "unterminated pattern",
    "bad regular expression: '",
    "Unrecognized value for type '",
    "Unrecognized value for semantics '",
    "Illegal units: '",
    "Incompatible floating point constant and type '",
    "type=",
};

static void check_message(const char *msg)
{
    if (msg == NULL)
        return;
    for (size_t i = 0; i < sizeof(messages) / sizeof(messages[0]); i++)
        if (strncmp(msg, messages[i], strlen(messages[i])) == 0)
            return;
    abort();
}

/* A growing text. */
typedef struct {
    char *s;
    size_t n, cap;
} text;

static void put(text *t, const char *s, size_t n)
{
    if (t->n + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 256;
        while (cap < t->n + n + 1)
            cap *= 2;
        if ((t->s = realloc(t->s, cap)) == NULL)
            abort();
        t->cap = cap;
    }
    memcpy(t->s + t->n, s, n);
    t->n += n;
    t->s[t->n] = '\0';
}

static void puts_(text *t, const char *s)
{
    put(t, s, strlen(s));
}

/* s with '\' before each of the bytes in special. */
static void put_escaped(text *t, const char *s, const char *special)
{
    for (; *s != '\0'; s++) {
        if (strchr(special, *s) != NULL)
            put(t, "\\", 1);
        put(t, s, 1);
    }
}

static const char *const infix[] = {
    [DN_PLUS] = "+", [DN_MINUS] = "-", [DN_STAR] = "*", [DN_SLASH] = "/",
    [DN_LT] = "<",   [DN_LEQ] = "<=",  [DN_EQ] = "==",  [DN_GEQ] = ">=",
    [DN_GT] = ">",   [DN_NEQ] = "!=",  [DN_AND] = "&&", [DN_OR] = "||",
};
static const char *const calls[] = {
    [DN_AVG] = "avg",   [DN_COUNT] = "count",     [DN_DELTA] = "delta",
    [DN_MAX] = "max",   [DN_MIN] = "min",         [DN_SUM] = "sum",
    [DN_RATE] = "rate", [DN_INSTANT] = "instant", [DN_DEFINED] = "defined",
};

/* What remains to print: a node, or a text (owned: freed once printed). */
typedef struct {
    const dm_node *n;
    char *text;
    int owned;
} item;

static char *escaped(const char *s, const char *special)
{
    text t = {0};

    put(&t, "", 0);
    put_escaped(&t, s, special);
    return t.s;
}

static void mkconst_text(text *t, const dm_node *n)
{
    static const char *const types[] = {"32", "U32", "64", "U64", "FLOAT", "DOUBLE"};
    char units[64];

    puts_(t, "mkconst(");
    puts_(t, n->name);
    puts_(t, ", type=");
    puts_(t, types[n->desc.type]);
    puts_(t, n->desc.sem == PM_SEM_COUNTER   ? ", semantics=counter"
             : n->desc.sem == PM_SEM_INSTANT ? ", semantics=instant"
                                             : ", semantics=discrete");
    puts_(t, ", units=\"");
    puts_(t, pmUnitsStr_r(&n->desc.units, units, sizeof(units)));
    puts_(t, "\")");
}

/* The leaves and prefixes of node n into t; what follows onto the stack. */
static size_t print_node(const dm_node *n, text *t, item *st, size_t top)
{
    static const char *const anon_types[] = {"32", "U32", "64", "U64", "FLOAT", "DOUBLE"};
#define PUSH(node, txt, own) (st[top++] = (item){(node), (char *)(txt), (own)})
    switch (n->kind) {
    case DN_INTEGER:
    case DN_DOUBLE:
        if (n->name == NULL || n->desc.type < PM_TYPE_32 || n->desc.type > PM_TYPE_DOUBLE)
            abort();
        mkconst_text(t, n);
        break;
    case DN_NAME:
        if (n->name == NULL)
            abort();
        puts_(t, n->name);
        if (n->inst != NULL) {
            char *e = escaped(n->inst, "]\\");
            puts_(t, "[");
            puts_(t, e);
            puts_(t, "]");
            free(e);
        }
        break;
    case DN_SELECT:
        if (n->left == NULL || n->inst == NULL)
            abort();
        puts_(t, "(");
        PUSH(NULL, "]", 0);
        PUSH(NULL, escaped(n->inst, "]\\"), 1);
        PUSH(NULL, ")[", 0);
        PUSH(n->left, NULL, 0);
        break;
    case DN_NEG:
    case DN_NOT:
        if (n->left == NULL)
            abort();
        puts_(t, n->kind == DN_NEG ? "(-" : "(!");
        PUSH(NULL, ")", 0);
        PUSH(n->left, NULL, 0);
        break;
    case DN_QUEST:
        if (n->left == NULL || n->right == NULL || n->right->kind != DN_COLON ||
            n->right->left == NULL || n->right->right == NULL)
            abort();
        puts_(t, "(");
        PUSH(NULL, ")", 0);
        PUSH(n->right->right, NULL, 0);
        PUSH(NULL, " : ", 0);
        PUSH(n->right->left, NULL, 0);
        PUSH(NULL, " ? ", 0);
        PUSH(n->left, NULL, 0);
        break;
    case DN_ANON:
        if (n->desc.type < PM_TYPE_32 || n->desc.type > PM_TYPE_DOUBLE)
            abort();
        puts_(t, "anon(PM_TYPE_");
        puts_(t, anon_types[n->desc.type]);
        puts_(t, ")");
        break;
    case DN_RESCALE:
        if (n->left == NULL)
            abort();
        puts_(t, "rescale(");
        PUSH(NULL, "\")", 0);
        PUSH(NULL, strdup(pmUnitsStr(&n->units)), 1);
        PUSH(NULL, ", \"", 0);
        PUSH(n->left, NULL, 0);
        break;
    case DN_MATCHINST: {
        if (n->left == NULL || n->re == NULL || n->name == NULL)
            abort();
        char *e = escaped(n->name, "/\\");
        puts_(t, n->invert ? "matchinst(!/" : "matchinst(/");
        puts_(t, e);
        puts_(t, "/, ");
        free(e);
        PUSH(NULL, ")", 0);
        PUSH(n->left, NULL, 0);
        break;
    }
    case DN_SCALAR:
        if (n->left == NULL)
            abort();
        puts_(t, "scalar(");
        PUSH(NULL, ")", 0);
        PUSH(n->left, NULL, 0);
        break;
    default:
        if (n->kind >= DN_PLUS && n->kind <= DN_OR) {
            if (n->left == NULL || n->right == NULL)
                abort();
            puts_(t, "(");
            PUSH(NULL, ")", 0);
            PUSH(n->right, NULL, 0);
            PUSH(NULL, infix[n->kind], 0);
            PUSH(n->left, NULL, 0);
        } else if (n->kind >= DN_AVG && n->kind <= DN_DEFINED && n->kind != DN_ANON) {
            if (n->left == NULL || n->left->kind != DN_NAME || n->left->name == NULL)
                abort();
            puts_(t, calls[n->kind]);
            puts_(t, "(");
            puts_(t, n->left->name);
            puts_(t, ")");
        } else {
            abort();
        }
    }
#undef PUSH
    return top;
}

/* The tree as an expression, every operation in parentheses; aborts on a
 * malformed node. */
static void print_tree(const dm_node *root, text *t)
{
    size_t cap = 64, top = 0;
    item *st = malloc(cap * sizeof(*st));

    put(t, "", 0);
    st[top++] = (item){root, NULL, 0};
    while (top > 0) {
        item it = st[--top];
        if (top + 8 > cap && (st = realloc(st, (cap *= 2) * sizeof(*st))) == NULL)
            abort();
        if (it.n != NULL) {
            top = print_node(it.n, t, st, top);
            continue;
        }
        puts_(t, it.text);
        if (it.owned)
            free(it.text);
    }
    free(st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *expr = malloc(size + 1);
    dm_arena a1 = {0}, a2 = {0};
    dm_node *r1 = NULL, *r2 = NULL;
    dm_syntax e1, e2;
    int s1, s2;

    if (expr == NULL)
        return 0;
    memcpy(expr, data, size);
    expr[size] = '\0';
    size = strlen(expr);
    s1 = dm_parse(expr, &a1, &r1, &e1);
    s2 = dm_parse(expr, &a2, &r2, &e2);
    if (s1 != s2 || (s1 != 0 && s1 != PM_ERR_BADDERIVE))
        abort();
    if (s1 == PM_ERR_BADDERIVE) {
        if (e1.at != e2.at || (e1.msg == NULL) != (e2.msg == NULL) ||
            (e1.msg != NULL && strcmp(e1.msg, e2.msg) != 0))
            abort();
        if (e1.at < -1 || e1.at >= (long)size || (e1.at == -1 && size > 0))
            abort();
        check_message(e1.msg);
        dm_syntax_free(&e1);
        dm_syntax_free(&e2);
    } else {
        text t1 = {0}, t2 = {0};
        dm_arena a3 = {0};
        dm_node *r3 = NULL;
        dm_syntax e3;
        print_tree(r1, &t1);
        print_tree(r2, &t2);
        if (strcmp(t1.s, t2.s) != 0)
            abort();
        if (t1.n < 4 * 1024) {
            /* the printed form holds every operation in parentheses */
            if (dm_parse(t1.s, &a3, &r3, &e3) != 0)
                abort();
            text t3 = {0};
            print_tree(r3, &t3);
            if (strcmp(t1.s, t3.s) != 0)
                abort();
            free(t3.s);
        }
        dm_arena_free(&a3);
        free(t1.s);
        free(t2.s);
    }
    dm_arena_free(&a1);
    dm_arena_free(&a2);
    free(expr);
    return 0;
}
