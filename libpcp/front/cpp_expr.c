/*
 * cpp_expr.c - #if / #elif expressions: C integer constant expressions
 * with defined NAME / defined(NAME).
 *
 * The line is first turned into tokens with macros expanded as C does it
 * (replacement text rescanned, a macro never expanded inside itself;
 * identifiers left over are 0), then evaluated by precedence climbing in
 * 64-bit arithmetic with C's signed/unsigned rules.  Overflow wraps;
 * division by zero is an error only in an evaluated operand; shifts by a
 * negative count or by 64 or more give 0 (or -1 for a negative value
 * shifted right) instead of undefined behaviour.
 *
 * Not here: floating constants, string literals, function-like macros
 * (pmcpp has none), assertions (#cpu(x)).
 */
#include "cpp_int.h"

#include <stdlib.h>
#include <string.h>

typedef enum { T_NUM, T_OP, T_END } tok_kind;

typedef struct {
    tok_kind kind;
    int op;     /* T_OP: one of the OP_* codes */
    uint64_t v; /* T_NUM: the value */
    bool uns;   /* T_NUM: unsigned */
    size_t col; /* column in the #if line, for messages */
} tok;

enum {
    OP_LP = '(',
    OP_RP = ')',
    OP_NOT = '!',
    OP_TILDE = '~',
    OP_MUL = '*',
    OP_DIV = '/',
    OP_MOD = '%',
    OP_ADD = '+',
    OP_SUB = '-',
    OP_LT = '<',
    OP_GT = '>',
    OP_AND = '&',
    OP_XOR = '^',
    OP_OR = '|',
    OP_QUEST = '?',
    OP_COLON = ':',
    OP_SHL = 256,
    OP_SHR,
    OP_LE,
    OP_GE,
    OP_EQ,
    OP_NE,
    OP_LAND,
    OP_LOR,
};

typedef struct {
    cpp_state *st;
    tok *toks; /* the expanded expression */
    size_t n, cap;
    size_t pos;             /* parser position */
    const char *active[32]; /* macros being expanded (no self-expansion) */
    size_t nactive;
    size_t base_col; /* column of the expression in the line */
    bool failed;     /* an error has been reported */
} expr;

typedef struct {
    uint64_t v;
    bool uns;
} val;

static void fail(expr *e, size_t col, const char *msg)
{
    if (!e->failed)
        cpp_error(e->st, col, "%s in %cif", msg, e->st->ctrl);
    e->failed = true;
}

static void push(expr *e, tok t)
{
    if (e->n == e->cap) {
        size_t cap = e->cap ? e->cap * 2 : 32;
        tok *p = realloc(e->toks, cap * sizeof(*p));
        if (p == NULL) {
            fail(e, t.col, "Out of memory");
            return;
        }
        e->toks = p;
        e->cap = cap;
    }
    e->toks[e->n++] = t;
}

/* The value of a digit in base 16, or -1. */
static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* An integer constant at p: decimal, octal or hex with u/l suffixes. */
static size_t lex_number(expr *e, const char *p, size_t len, size_t col, tok *t)
{
    size_t i = 0;
    unsigned base = 10;
    uint64_t v = 0;
    bool overflow = false, uns = false;

    if (len > 1 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        base = 16, i = 2;
        if (i >= len || hexval(p[i]) < 0) {
            fail(e, col, "Invalid integer constant");
            return len;
        }
    } else if (p[0] == '0')
        base = 8;
    for (; i < len; i++) {
        int h = hexval(p[i]);
        if (h < 0 || (base != 16 && h > 9))
            break; /* a suffix, or the end of the number */
        unsigned d = (unsigned)h;
        if (d >= base) {
            fail(e, col, "Invalid integer constant");
            return len;
        }
        if (v > (UINT64_MAX - d) / base)
            overflow = true;
        v = v * base + d;
    }
    for (; i < len && strchr("uUlL", p[i]) != NULL; i++)
        uns |= p[i] == 'u' || p[i] == 'U';
    if (i < len && cpp_is(p[i], CT_WORD)) {
        fail(e, col, "Invalid integer constant");
        return len;
    }
    if (overflow)
        fail(e, col, "Integer constant too large");
    t->kind = T_NUM;
    t->v = v;
    t->uns = uns || v > (uint64_t)INT64_MAX;
    return i;
}

/* One escape sequence after the backslash at p[i]; returns the index past it. */
static size_t escape(const char *p, size_t len, size_t i, int *c)
{
    static const char in[] = "ntrvfab\\'\"?", out[] = "\n\t\r\v\f\a\b\\'\"?";
    const char *k = strchr(in, p[i]);

    if (p[i] == 'x') {
        size_t j = i + 1;
        for (*c = 0; j < len && hexval(p[j]) >= 0; j++)
            *c = (*c * 16 + hexval(p[j])) & 0xff;
        return j > i + 1 ? j : 0;
    }
    if (p[i] >= '0' && p[i] <= '7') {
        size_t j = i;
        for (*c = 0; j < len && j < i + 3 && p[j] >= '0' && p[j] <= '7'; j++)
            *c = *c * 8 + (p[j] - '0');
        return j;
    }
    if (k == NULL || p[i] == '\0')
        return 0;
    *c = out[k - in];
    return i + 1;
}

/* A character constant 'c' or '\n', '\101', '\x41' at p; returns its length.
 * Its value is that of a (signed) char, as GCC has it on x86. */
static size_t lex_char(expr *e, const char *p, size_t len, size_t col, tok *t)
{
    size_t i = 1;
    int c = 0;

    if (i < len && p[i] == '\\' && i + 1 < len)
        i = escape(p, len, i + 1, &c);
    else if (i < len && p[i] != '\'')
        c = (unsigned char)p[i++];
    else
        i = 0;
    if (i == 0 || i >= len || p[i] != '\'') {
        fail(e, col, "Invalid character constant");
        return len;
    }
    t->kind = T_NUM;
    t->v = (uint64_t)(int64_t)(signed char)c;
    t->uns = false;
    return i + 1;
}

static int lex_op(const char *p, size_t len, size_t *n)
{
    static const struct {
        const char *s;
        int op;
    } two[] = {{"<<", OP_SHL}, {">>", OP_SHR}, {"<=", OP_LE},   {">=", OP_GE},
               {"==", OP_EQ},  {"!=", OP_NE},  {"&&", OP_LAND}, {"||", OP_LOR}};

    for (size_t k = 0; k < sizeof(two) / sizeof(two[0]); k++) {
        if (len >= 2 && p[0] == two[k].s[0] && p[1] == two[k].s[1]) {
            *n = 2;
            return two[k].op;
        }
    }
    *n = 1;
    return strchr("()!~*/%+-<>&^|?:", p[0]) != NULL && p[0] != '\0' ? p[0] : -1;
}

static void expand(expr *e, const char *p, size_t len, size_t col, bool top);

/* "defined NAME" or "defined ( NAME )" starting after the keyword. */
static size_t lex_defined(expr *e, const char *p, size_t len, size_t i, size_t col)
{
    bool paren = false;
    size_t j;
    tok t = {T_NUM, 0, 0, false, col};

    while (i < len && cpp_is(p[i], CT_BLANK))
        i++;
    if (i < len && p[i] == '(') {
        paren = true;
        for (i++; i < len && cpp_is(p[i], CT_BLANK); i++)
            ;
    }
    if (i >= len || !cpp_is(p[i], CT_START)) {
        fail(e, col, "Missing macro name after defined");
        return len;
    }
    for (j = i; j < len && cpp_is(p[j], CT_WORD); j++)
        ;
    t.v = cpp_macro_find(&e->st->macros, p + i, j - i) != NULL;
    if (paren) {
        while (j < len && cpp_is(p[j], CT_BLANK))
            j++;
        if (j >= len || p[j] != ')') {
            fail(e, col, "Missing ) after defined");
            return len;
        }
        j++;
    }
    push(e, t);
    return j;
}

/* An identifier: a macro's text expanded in place, otherwise 0. */
static void identifier(expr *e, const char *w, size_t n, size_t col)
{
    const cpp_macro *m = cpp_macro_find(&e->st->macros, w, n);
    tok zero = {T_NUM, 0, 0, false, col};

    for (size_t k = 0; m != NULL && k < e->nactive; k++) {
        if (e->active[k] == m->name)
            m = NULL; /* inside its own expansion: an identifier again */
    }
    if (m == NULL || e->nactive == sizeof(e->active) / sizeof(e->active[0])) {
        push(e, zero);
        return;
    }
    e->active[e->nactive++] = m->name;
    expand(e, m->value, m->vlen, col, false);
    e->nactive--;
}

/* Tokenise p[0..len), expanding macros; col is where p starts (top level)
 * or the column to blame for text that came from a macro. */
static void expand(expr *e, const char *p, size_t len, size_t col, bool top)
{
    size_t i = 0;

    while (i < len && !e->failed) {
        size_t here = top ? col + i : col, n;
        tok t = {T_OP, 0, 0, false, here};
        if (cpp_is(p[i], CT_BLANK) || p[i] == '\r' || p[i] == '\n') {
            i++;
        } else if (cpp_is(p[i], CT_START)) {
            size_t j = i;
            while (j < len && cpp_is(p[j], CT_WORD))
                j++;
            if (j - i == 7 && memcmp(p + i, "defined", 7) == 0)
                i = lex_defined(e, p, len, j, here);
            else
                identifier(e, p + i, j - i, here), i = j;
        } else if (p[i] >= '0' && p[i] <= '9') {
            i += lex_number(e, p + i, len - i, here, &t);
            push(e, t);
        } else if (p[i] == '\'') {
            i += lex_char(e, p + i, len - i, here, &t);
            push(e, t);
        } else if ((t.op = lex_op(p + i, len - i, &n)) >= 0) {
            push(e, t);
            i += n;
        } else {
            fail(e, here, "Invalid token");
        }
    }
}

static const tok *peek(expr *e)
{
    static const tok end = {T_END, 0, 0, false, 0};

    return e->pos < e->n ? &e->toks[e->pos] : &end;
}

static val cond_expr(expr *e, bool ev);

static val primary(expr *e, bool ev)
{
    const tok *t = peek(e);
    val r = {0, false};

    if (t->kind == T_NUM) {
        e->pos++;
        r.v = t->v;
        r.uns = t->uns;
    } else if (t->kind == T_OP && t->op == OP_LP) {
        e->pos++;
        r = cond_expr(e, ev);
        if (peek(e)->kind != T_OP || peek(e)->op != OP_RP)
            fail(e, t->col, "Missing )");
        else
            e->pos++;
    } else {
        fail(e, t->kind == T_END ? e->base_col : t->col,
             t->kind == T_END ? "Missing expression" : "Invalid expression");
    }
    return r;
}

static val unary(expr *e, bool ev)
{
    const tok *t = peek(e);
    val r;

    if (t->kind != T_OP ||
        (t->op != OP_ADD && t->op != OP_SUB && t->op != OP_TILDE && t->op != OP_NOT))
        return primary(e, ev);
    e->pos++;
    r = unary(e, ev);
    switch (t->op) {
    case OP_SUB:
        r.v = 0 - r.v;
        break;
    case OP_TILDE:
        r.v = ~r.v;
        break;
    case OP_NOT:
        r.v = r.v == 0, r.uns = false;
        break;
    default:
        break;
    }
    return r;
}

/* Binding power of a binary operator (0: not one). */
static int power(const tok *t)
{
    if (t->kind != T_OP)
        return 0;
    switch (t->op) {
    case OP_MUL:
    case OP_DIV:
    case OP_MOD:
        return 10;
    case OP_ADD:
    case OP_SUB:
        return 9;
    case OP_SHL:
    case OP_SHR:
        return 8;
    case OP_LT:
    case OP_GT:
    case OP_LE:
    case OP_GE:
        return 7;
    case OP_EQ:
    case OP_NE:
        return 6;
    case OP_AND:
        return 5;
    case OP_XOR:
        return 4;
    case OP_OR:
        return 3;
    case OP_LAND:
        return 2;
    case OP_LOR:
        return 1;
    default:
        return 0;
    }
}

static bool less(val a, val b, bool uns)
{
    return uns ? a.v < b.v : (int64_t)a.v < (int64_t)b.v;
}

static val shift(val a, val b, bool left)
{
    int64_t n = b.uns ? (b.v > 64 ? 64 : (int64_t)b.v) : (int64_t)b.v;
    bool neg = !a.uns && (int64_t)a.v < 0;

    if (n < 0 || n >= 64)
        a.v = (!left && neg) ? UINT64_MAX : 0;
    else if (left)
        a.v <<= n;
    else if (neg)
        a.v = ~(~a.v >> n);
    else
        a.v >>= n;
    return a;
}

static val divide(expr *e, val a, val b, int op, size_t col, bool ev)
{
    bool uns = a.uns || b.uns;
    val r = {0, uns};

    if (b.v == 0) {
        if (ev)
            fail(e, col, "Division by zero");
        return r;
    }
    if (uns)
        r.v = op == OP_DIV ? a.v / b.v : a.v % b.v;
    else if ((int64_t)a.v == INT64_MIN && (int64_t)b.v == -1)
        r.v = op == OP_DIV ? a.v : 0; /* wraps */
    else
        r.v = (uint64_t)(op == OP_DIV ? (int64_t)a.v / (int64_t)b.v : (int64_t)a.v % (int64_t)b.v);
    return r;
}

static val apply(expr *e, val a, val b, const tok *op, bool ev)
{
    bool uns = a.uns || b.uns;
    val r = {0, uns};

    switch (op->op) {
    case OP_MUL:
        r.v = a.v * b.v;
        break;
    case OP_DIV:
    case OP_MOD:
        return divide(e, a, b, op->op, op->col, ev);
    case OP_ADD:
        r.v = a.v + b.v;
        break;
    case OP_SUB:
        r.v = a.v - b.v;
        break;
    case OP_SHL:
        return shift(a, b, true);
    case OP_SHR:
        return shift(a, b, false);
    case OP_LT:
        r.v = less(a, b, uns), r.uns = false;
        break;
    case OP_GT:
        r.v = less(b, a, uns), r.uns = false;
        break;
    case OP_LE:
        r.v = !less(b, a, uns), r.uns = false;
        break;
    case OP_GE:
        r.v = !less(a, b, uns), r.uns = false;
        break;
    case OP_EQ:
        r.v = a.v == b.v, r.uns = false;
        break;
    case OP_NE:
        r.v = a.v != b.v, r.uns = false;
        break;
    case OP_AND:
        r.v = a.v & b.v;
        break;
    case OP_XOR:
        r.v = a.v ^ b.v;
        break;
    case OP_OR:
        r.v = a.v | b.v;
        break;
    default:
        break;
    }
    return r;
}

/* Binary operators binding at least as tightly as min (precedence climbing);
 * && and || evaluate their right operand only when it matters. */
static val binary(expr *e, int min, bool ev)
{
    val a = unary(e, ev);

    for (;;) {
        const tok *op = peek(e);
        int p = power(op);
        if (p == 0 || p < min || e->failed)
            return a;
        e->pos++;
        if (op->op == OP_LAND || op->op == OP_LOR) {
            bool lhs = a.v != 0;
            bool need = op->op == OP_LAND ? lhs : !lhs;
            val b = binary(e, p + 1, ev && need);
            a.v = op->op == OP_LAND ? (lhs && b.v != 0) : (lhs || b.v != 0);
            a.uns = false;
        } else {
            val b = binary(e, p + 1, ev);
            a = apply(e, a, b, op, ev);
        }
    }
}

static val cond_expr(expr *e, bool ev)
{
    val c = binary(e, 1, ev), a, b;
    const tok *t = peek(e);

    if (t->kind != T_OP || t->op != OP_QUEST)
        return c;
    e->pos++;
    a = cond_expr(e, ev && c.v != 0);
    if (peek(e)->kind != T_OP || peek(e)->op != OP_COLON) {
        fail(e, t->col, "Missing : after ?");
        return a;
    }
    e->pos++;
    b = cond_expr(e, ev && c.v == 0);
    a.uns = b.uns = a.uns || b.uns;
    return c.v != 0 ? a : b;
}

int cpp_expr_eval(cpp_state *st, const char *text, size_t len, size_t base_col, bool *value)
{
    expr e;
    val v;

    memset(&e, 0, sizeof(e));
    e.st = st;
    e.base_col = base_col + 1;
    expand(&e, text, len, base_col + 1, true);
    if (!e.failed && e.n == 0)
        fail(&e, base_col + 1, "Missing expression");
    if (!e.failed) {
        v = cond_expr(&e, true);
        if (!e.failed && e.pos < e.n)
            fail(&e, e.toks[e.pos].col, "Unexpected extra text");
        *value = v.v != 0;
    }
    free(e.toks);
    return e.failed ? -1 : 0;
}
