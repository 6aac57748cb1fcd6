/*
 * parse.c - PCP's derived-metric expression language into a tree, with
 * PCP's answers to bad input: the same position and message for every
 * syntax error (probed from Debian's libpcp 6.0.3, whose parser is an
 * LALR(1) automaton with error rules).
 *
 * Grammar (lowest precedence first; every binary operator is left
 * associative, and unary minus binds as tightly as binary minus):
 *
 *   defn     = expr EOS
 *   expr     = expr ("?") expr ":" expr                   level 1
 *            | expr ("&&" | "||") expr                    level 2
 *            | "!" expr                                   level 3
 *            | expr ("<" | "<=" | "==" | ">=" | ">" | "!=") expr   level 4
 *            | expr ("+" | "-") expr | "-" expr           level 5
 *            | expr ("*" | "/") expr                      level 6
 *            | "(" expr ")" [ INSTNAME ] | NAME [ INSTNAME ] | num | func
 *   num      = INTEGER | DOUBLE
 *            | "mkconst" "(" (INTEGER | DOUBLE) "," spec { "," spec } ")"
 *   spec     = ("type" | "semantics" | "units") "=" (STRING | NAME | INTEGER)
 *   func     = ("avg" | "count" | "delta" | "max" | "min" | "sum" | "anon"
 *              | "rate" | "instant" | "defined") "(" NAME ")"
 *            | "rescale" "(" expr "," STRING ")"
 *            | "matchinst" "(" [ "!" ] PATTERN "," expr ")"
 *            | "scalar" "(" expr ")"
 *
 * How.  The parser is iterative, an operator-precedence parser over an
 * explicit stack of open constructs (frames), so that no input can
 * exhaust the C stack, and so that errors can be told as PCP tells them.
 * PCP's parser reports an error at the first token it cannot take, after
 * closing every construct that is complete; the message is that of the
 * innermost open construct whose grammar has an error rule at that point
 * (binary and unary operators, "?" and ":", a "(" at the very start,
 * the functions' "(" but not defined's, rescale's and matchinst's later
 * positions, a NAME followed by something that cannot follow an
 * expression at all), or none; a message the lexer gave or an action
 * raised comes first.  PCP's stack holds at most DM_MAX_DEPTH symbols,
 * counted here the same way (depth), with the same failure.  Only the
 * checks PCP makes while parsing are made here (mkconst's tags, units,
 * patterns, anon's type); everything about metrics is check.c's.
 */
#include "derived_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Open constructs. */
typedef enum {
    FR_TOP,       /* defn: the whole expression */
    FR_TOPPAREN,  /* "(" as the expression's first token */
    FR_PAREN,     /* any other "(" */
    FR_BIN,       /* expr op . expr */
    FR_NEG,       /* "-" . expr */
    FR_NOT,       /* "!" . expr */
    FR_QUEST,     /* expr "?" . expr ":" expr */
    FR_COLON,     /* expr "?" expr ":" . expr */
    FR_RESCALE,   /* "rescale" "(" . expr "," STRING ")" */
    FR_SCALAR,    /* "scalar" "(" . expr ")" */
    FR_MATCHINST, /* "matchinst" "(" regexpr "," . expr ")" */
} frame_kind;

typedef struct frame {
    frame_kind kind;
    dm_tok op;     /* FR_BIN: the operator */
    dm_node *left; /* FR_BIN, FR_QUEST, FR_COLON: the first operand;
                    * FR_MATCHINST: the node being built */
    dm_node *mid;  /* FR_COLON: the true operand */
} frame;

typedef struct parser {
    dm_lexer lx;
    dm_token la;     /* the lookahead token */
    int have_la;     /* la is read and not taken yet */
    dm_arena *arena; /* where the tree goes */
    frame *fr;       /* open constructs, innermost last */
    size_t nfr, cap;
    long depth;      /* symbols on PCP's parser stack */
    const char *msg; /* an action's error message */
    char *owned;     /* a message made by an action (malloc'd) */
    int nomem;       /* memory ran out */
} parser;

/* A syntax error (the caller records position and message). */
#define SYNTAX PM_ERR_BADDERIVE

/* Precedence of an operator token after an operand, 0 for anything else. */
static int prec_of(dm_tok t)
{
    switch (t) {
    case DT_QUEST:
    case DT_COLON:
        return 1;
    case DT_AND:
    case DT_OR:
        return 2;
    case DT_LT:
    case DT_LEQ:
    case DT_EQ:
    case DT_GEQ:
    case DT_GT:
    case DT_NEQ:
        return 4;
    case DT_PLUS:
    case DT_MINUS:
        return 5;
    case DT_STAR:
    case DT_SLASH:
        return 6;
    default:
        return 0;
    }
}

/* Binary operators and "?": what may follow an operand inside it. */
static int is_infix(dm_tok t)
{
    return prec_of(t) != 0 && t != DT_COLON;
}

/* What may follow an expression anywhere in the grammar: after a NAME
 * anything else is an error there and then. */
static int follows_expr(dm_tok t)
{
    return prec_of(t) != 0 || t == DT_EOS || t == DT_LPAREN || t == DT_RPAREN || t == DT_COMMA;
}

/* The message of the error rule after a binary operator. */
static const char *op_message(dm_tok op)
{
    switch (op) {
    case DT_PLUS:
        return "Arithmetic expression expected to follow PLUS";
    case DT_MINUS:
        return "Arithmetic expression expected to follow MINUS";
    case DT_STAR:
        return "Arithmetic expression expected to follow STAR";
    case DT_SLASH:
        return "Arithmetic expression expected to follow SLASH";
    case DT_LT:
        return "Arithmetic expression expected to follow LT";
    case DT_LEQ:
        return "Arithmetic expression expected to follow LEQ";
    case DT_EQ:
        return "Arithmetic expression expected to follow EQ";
    case DT_GEQ:
        return "Arithmetic expression expected to follow GEQ";
    case DT_GT:
        return "Arithmetic expression expected to follow GT";
    case DT_NEQ:
        return "Arithmetic expression expected to follow NEQ";
    case DT_AND:
        return "Boolean expression expected to follow AND";
    default:
        return "Boolean expression expected to follow OR";
    }
}

/* The message of a frame's error rule, NULL where its grammar has none. */
static const char *frame_message(const frame *f)
{
    switch (f->kind) {
    case FR_TOPPAREN:
        return "Unexpected initial '('";
    case FR_BIN:
        return op_message(f->op);
    case FR_NEG:
        return "Arithmetic expression expected to follow NEG";
    case FR_NOT:
        return "Boolean expression expected to follow NOT";
    case FR_QUEST:
        return "Arithmetic expression expected to follow QUEST";
    case FR_COLON:
        return "Arithmetic expression expected to follow COLON";
    case FR_RESCALE:
        return "Arithmetic or relational or boolean operator expected to follow rescale(";
    case FR_SCALAR:
        return "<expr> expected to follow scalar(";
    case FR_MATCHINST:
        return "<expr>) expected to follow matchinst(<filter>,";
    default:
        return NULL;
    }
}

/* An error whose rule is the innermost open construct's that has one. */
static int error_outer(parser *p)
{
    for (size_t i = p->nfr; i-- > 0;) {
        const char *m = frame_message(&p->fr[i]);
        if (m != NULL) {
            if (p->msg == NULL)
                p->msg = m;
            break;
        }
    }
    return SYNTAX;
}

/* An error with the message of the rule at hand (NULL: none there). */
static int error_here(parser *p, const char *msg)
{
    if (msg == NULL)
        return error_outer(p);
    if (p->msg == NULL)
        p->msg = msg;
    return SYNTAX;
}

/* The lookahead, read if need be. */
static int peek(parser *p)
{
    if (!p->have_la) {
        if (dm_lex_next(&p->lx, &p->la) < 0) {
            p->nomem = 1;
            return -ENOMEM;
        }
        p->have_la = 1;
    }
    return 0;
}

/* The lookahead is taken: one more symbol on PCP's stack, which fails
 * (with no message) when full. */
static int shift(parser *p)
{
    p->have_la = 0;
    if (++p->depth >= DM_MAX_DEPTH)
        return SYNTAX;
    return 0;
}

/* An empty rule reduced: a symbol more as well. */
static int push_empty(parser *p)
{
    return ++p->depth >= DM_MAX_DEPTH ? SYNTAX : 0;
}

/* The next token, taken: its kind, or an error. */
static int next(parser *p, dm_token *t)
{
    int sts = peek(p);

    if (sts < 0)
        return sts;
    *t = p->la;
    return 0;
}

static dm_node *node(parser *p, dm_kind kind, dm_node *left, dm_node *right)
{
    dm_node *n = dm_arena_alloc(p->arena, sizeof(*n));

    if (n == NULL) {
        p->nomem = 1;
        return NULL;
    }
    memset(n, 0, sizeof(*n));
    n->kind = kind;
    n->left = left;
    n->right = right;
    n->desc.pmid = PM_ID_NULL;
    n->desc.indom = PM_INDOM_NULL;
    return n;
}

static char *text_of(parser *p, const char *s, size_t len)
{
    char *t = dm_arena_strndup(p->arena, s, len);

    if (t == NULL)
        p->nomem = 1;
    return t;
}

static int push_frame(parser *p, frame_kind kind, dm_tok op, dm_node *left)
{
    if (p->nfr == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 32;
        frame *f = realloc(p->fr, cap * sizeof(*f));
        if (f == NULL) {
            p->nomem = 1;
            return -ENOMEM;
        }
        p->fr = f;
        p->cap = cap;
    }
    p->fr[p->nfr++] = (frame){kind, op, left, NULL};
    return 0;
}

/* An error message with one argument ("%s" once in fmt), p's own. */
static const char *message_with(parser *p, const char *fmt, const char *arg, size_t arg_len)
{
    size_t n = strlen(fmt) + arg_len + 1;
    char *m = malloc(n);

    if (m == NULL) {
        p->nomem = 1;
        return NULL;
    }
    free(p->owned);
    p->owned = m;
    const char *pc = strstr(fmt, "%s");
    size_t head = (size_t)(pc - fmt);
    memcpy(m, fmt, head);
    memcpy(m + head, arg, arg_len);
    strcpy(m + head + arg_len, pc + 2);
    return m;
}

/* An action's error: message fmt with arg (first message wins). */
static int action_error(parser *p, const char *fmt, const char *arg, size_t arg_len)
{
    const char *m = message_with(p, fmt, arg, arg_len);

    if (p->msg == NULL)
        p->msg = m;
    return p->nomem ? -ENOMEM : SYNTAX;
}

/* mkconst's type values (PM_TYPE_32 .. PM_TYPE_DOUBLE) and semantics. */
static const char *const type_names[] = {"32", "U32", "64", "U64", "FLOAT", "DOUBLE"};
static const struct {
    const char *word;
    int sem;
} sem_names[] = {
    {"COUNTER", PM_SEM_COUNTER}, {"INSTANT", PM_SEM_INSTANT}, {"DISCRETE", PM_SEM_DISCRETE}};

static int word_is(const char *s, size_t n, const char *word)
{
    return strlen(word) == n && strncasecmp(s, word, n) == 0;
}

/* The action of spec: tag = value into d. */
static int spec_action(parser *p, dm_tok tag, const char *v, size_t n, pmDesc *d)
{
    if (tag == DT_TYPE) {
        for (int i = 0; i < 6; i++)
            if (word_is(v, n, type_names[i])) {
                d->type = PM_TYPE_32 + i;
                return 0;
            }
        return action_error(p, "Unrecognized value for type '%s'", v, n);
    }
    if (tag == DT_SEMANTICS) {
        for (int i = 0; i < 3; i++)
            if (word_is(v, n, sem_names[i].word)) {
                d->sem = sem_names[i].sem;
                return 0;
            }
        return action_error(p, "Unrecognized value for semantics '%s'", v, n);
    }
    char *text = text_of(p, v, n), *why = NULL;
    double mult;
    if (text == NULL)
        return -ENOMEM;
    if (pmParseUnitsStr(text, &d->units, &mult, &why) < 0) {
        int sts = action_error(p, "Illegal units: '%s'", why ? why : "", why ? strlen(why) : 0);
        free(why);
        return sts;
    }
    return 0;
}

/* spec = ("type" | "semantics" | "units") "=" (STRING | NAME | INTEGER) */
static int parse_spec(parser *p, pmDesc *d)
{
    dm_token t;
    dm_tok tag;
    int sts;

    if ((sts = next(p, &t)) < 0)
        return sts;
    if (t.kind != DT_TYPE && t.kind != DT_SEMANTICS && t.kind != DT_UNITS)
        return error_outer(p);
    tag = t.kind;
    if ((sts = shift(p)) < 0 || (sts = next(p, &t)) < 0)
        return sts;
    if (t.kind != DT_ASSIGN)
        return error_outer(p);
    if ((sts = shift(p)) < 0 || (sts = next(p, &t)) < 0)
        return sts;
    if (t.kind != DT_STRING && t.kind != DT_NAME && t.kind != DT_INTEGER)
        return error_outer(p);
    if ((sts = shift(p)) < 0)
        return sts;
    p->depth -= 2; /* spec = tag "=" value */
    return spec_action(p, tag, t.val, t.val_len, d);
}

/* "mkconst" "(" (INTEGER | DOUBLE) "," spec { "," spec } ")", "mkconst"
 * and "(" taken; the constant is as PCP has it: mkconst's semantics and
 * units, U32 or DOUBLE unless a type is given. */
static int parse_mkconst(parser *p, dm_node **out)
{
    dm_token t;
    dm_node *n;
    int sts;

    if ((sts = next(p, &t)) < 0)
        return sts;
    if (t.kind != DT_INTEGER && t.kind != DT_DOUBLE)
        return error_outer(p);
    if ((n = node(p, t.kind == DT_INTEGER ? DN_INTEGER : DN_DOUBLE, NULL, NULL)) == NULL ||
        (n->name = text_of(p, p->lx.text + t.at, t.len)) == NULL)
        return -ENOMEM;
    n->u = t.u;
    n->d = t.kind == DT_DOUBLE ? strtod(n->name, NULL) : (double)t.u;
    n->desc.type = t.kind == DT_INTEGER ? PM_TYPE_U32 : PM_TYPE_DOUBLE;
    n->desc.sem = PM_SEM_DISCRETE;
    if ((sts = shift(p)) < 0 || (sts = next(p, &t)) < 0)
        return sts;
    if (t.kind != DT_COMMA)
        return error_outer(p);
    if ((sts = shift(p)) < 0 || (sts = push_empty(p)) < 0) /* "," and the mid-rule action */
        return sts;
    for (int first = 1;; first = 0) {
        if ((sts = parse_spec(p, &n->desc)) < 0)
            return sts;
        if (!first)
            p->depth -= 2; /* speclist = speclist "," spec */
        if ((sts = next(p, &t)) < 0)
            return sts;
        if (t.kind == DT_RPAREN)
            break;
        if (t.kind != DT_COMMA)
            return error_outer(p);
        if ((sts = shift(p)) < 0)
            return sts;
    }
    if ((sts = shift(p)) < 0)
        return sts;
    p->depth -= 6; /* mkconst ( constant , $@ speclist ) */
    if (n->kind == DN_DOUBLE && n->desc.type != PM_TYPE_FLOAT && n->desc.type != PM_TYPE_DOUBLE) {
        const char *tn = type_names[n->desc.type];
        return action_error(p, "Incompatible floating point constant and type '%s'", tn,
                            strlen(tn));
    }
    *out = n;
    return 0;
}

/* The functions of one metric name: their node kinds. */
static dm_kind name_function(dm_tok f)
{
    static const struct {
        dm_tok tok;
        dm_kind kind;
    } map[] = {{DT_AVG, DN_AVG},        {DT_COUNT, DN_COUNT}, {DT_DELTA, DN_DELTA},
               {DT_MAX, DN_MAX},        {DT_MIN, DN_MIN},     {DT_SUM, DN_SUM},
               {DT_ANON, DN_ANON},      {DT_RATE, DN_RATE},   {DT_INSTANT, DN_INSTANT},
               {DT_DEFINED, DN_DEFINED}};

    for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
        if (map[i].tok == f)
            return map[i].kind;
    return DN_AVG;
}

/* The message of f's error rule after "(" (defined has none). */
static const char *function_message(dm_tok f)
{
    switch (f) {
    case DT_ANON:
        return "Metric name expected to follow anon(";
    case DT_AVG:
        return "Metric name expected to follow avg(";
    case DT_COUNT:
        return "Metric name expected to follow count(";
    case DT_DELTA:
        return "Metric name expected to follow delta(";
    case DT_MAX:
        return "Metric name expected to follow max(";
    case DT_MIN:
        return "Metric name expected to follow min(";
    case DT_SUM:
        return "Metric name expected to follow sum(";
    case DT_RATE:
        return "Metric name expected to follow rate(";
    case DT_INSTANT:
        return "Metric name expected to follow instant(";
    default:
        return NULL;
    }
}

/* anon's argument: a numeric PM_TYPE_ name. */
static int anon_type(const char *s, size_t n)
{
    static const char *const names[] = {"PM_TYPE_32",  "PM_TYPE_U32",   "PM_TYPE_64",
                                        "PM_TYPE_U64", "PM_TYPE_FLOAT", "PM_TYPE_DOUBLE"};

    for (int i = 0; i < 6; i++)
        if (strlen(names[i]) == n && memcmp(s, names[i], n) == 0)
            return PM_TYPE_32 + i;
    return -1;
}

/* f "(" NAME ")", f and "(" taken. */
static int parse_name_function(parser *p, dm_tok f, dm_node **out)
{
    dm_token t;
    dm_node *n;
    char *name;
    int sts;

    if ((sts = next(p, &t)) < 0)
        return sts;
    if (t.kind != DT_NAME)
        return error_here(p, function_message(f));
    if ((name = text_of(p, t.val, t.val_len)) == NULL)
        return -ENOMEM;
    if ((sts = shift(p)) < 0 || (sts = next(p, &t)) < 0)
        return sts;
    if (t.kind != DT_RPAREN)
        return error_here(p, function_message(f));
    if ((sts = shift(p)) < 0)
        return sts;
    p->depth -= 3;
    if ((n = node(p, name_function(f), NULL, NULL)) == NULL)
        return -ENOMEM;
    if (f == DT_ANON) {
        /* PCP prints a message and crashes here (docs/compat.md) */
        if ((n->desc.type = anon_type(name, strlen(name))) < 0)
            return action_error(p, "type=%s not allowed for anon()", name, strlen(name));
        n->desc.sem = PM_SEM_DISCRETE;
    } else if ((n->left = node(p, DN_NAME, NULL, NULL)) == NULL) {
        return -ENOMEM;
    } else {
        n->left->name = name;
    }
    *out = n;
    return 0;
}

/*
 * Would glibc's regcomp build an automaton too big for pattern?  It copies
 * a repeated subexpression once per repetition ("+" twice, "{n,m}" m
 * times, nested repetitions multiply) and some of its work grows with the
 * square or cube of the copies: "(((((a{10}){10}){10}){10}){10}){10}"
 * takes gigabytes.  The estimate counts atoms and operators with those
 * copies, high rather than low, and the limit leaves every pattern a
 * person writes (docs/compat.md).
 */
#define REGEX_MAX_NODES 1000

static double saturate(double v)
{
    return v > 1e9 ? 1e9 : v;
}

/* The copies "{n}", "{n,}" or "{n,m}" at p make, and where it ends (*end
 * untouched when it is no interval: then '{' is an ordinary byte). */
static double interval_copies(const char *p, const char **end)
{
    double n = 0, m = -1;
    const char *q = p + 1;

    if (*q < '0' || *q > '9')
        return 1;
    while (*q >= '0' && *q <= '9')
        n = saturate(n * 10 + (*q++ - '0'));
    if (*q == ',') {
        q++;
        m = n + 1;
        if (*q >= '0' && *q <= '9')
            for (m = 0; *q >= '0' && *q <= '9';)
                m = saturate(m * 10 + (*q++ - '0'));
    }
    if (*q != '}')
        return 1;
    *end = q;
    return (m > n ? m : n) > 1 ? (m > n ? m : n) : 1;
}

static int regex_too_big(const char *pat)
{
    double total[64] = {0}, last[64] = {0};
    int depth = 0;

    for (const char *p = pat; *p != '\0'; p++) {
        double copies = 0;
        switch (*p) {
        case '(':
            if (depth == 63)
                return 1;
            depth++;
            total[depth] = last[depth] = 0;
            continue;
        case ')':
            if (depth == 0)
                break;
            last[depth - 1] = total[depth] + 1;
            total[depth - 1] = saturate(total[depth - 1] + last[depth - 1]);
            depth--;
            continue;
        case '|':
            last[depth] = 0;
            continue;
        case '*':
        case '?':
            copies = 1;
            break;
        case '+':
            copies = 2;
            break;
        case '{': {
            const char *end = NULL;
            copies = interval_copies(p, &end);
            if (end == NULL)
                break;
            p = end;
            break;
        }
        case '[':
            /* a bracket expression is one atom: to its closing ']' */
            p += p[1] == '^' ? 2 : 1;
            if (*p == ']')
                p++;
            while (*p != '\0' && *p != ']') {
                if (*p == '[' && (p[1] == ':' || p[1] == '=' || p[1] == '.')) {
                    const char *close = strchr(p + 2, p[1]);
                    p = close != NULL && close[1] == ']' ? close + 1 : p;
                }
                p++;
            }
            if (*p == '\0')
                return 0; /* regcomp refuses it */
            break;
        case '\\':
            if (p[1] != '\0')
                p++;
            break;
        default:
            break;
        }
        if (copies == 0) {
            last[depth] = 1;
            total[depth] = saturate(total[depth] + 1);
        } else {
            double grown = saturate(last[depth] * copies + 1);
            total[depth] = saturate(total[depth] - last[depth] + grown);
            last[depth] = grown;
        }
        if (total[depth] > REGEX_MAX_NODES)
            return 1;
    }
    return total[0] > REGEX_MAX_NODES;
}

/* "matchinst" "(" [ "!" ] PATTERN ",", the keyword and "(" taken; then
 * the frame for the expression that follows. */
static int parse_matchinst(parser *p)
{
    static const char *const m_filter = "<filter>, <expr>) expected to follow matchinst(";
    dm_token t;
    dm_node *n;
    int sts, invert = 0;

    if ((sts = next(p, &t)) < 0)
        return sts;
    if (t.kind == DT_NOT) {
        invert = 1;
        if ((sts = shift(p)) < 0 || (sts = next(p, &t)) < 0)
            return sts;
        if (t.kind != DT_PATTERN)
            return error_here(p, m_filter);
    } else if (t.kind == DT_PATTERN) {
        if ((sts = push_empty(p)) < 0) /* no "!" */
            return sts;
    } else {
        return error_here(p, m_filter);
    }
    if ((sts = shift(p)) < 0)
        return sts;
    p->depth -= 1; /* regexpr = opt_bang PATTERN */
    if ((n = node(p, DN_MATCHINST, NULL, NULL)) == NULL ||
        (n->re = dm_arena_alloc(p->arena, sizeof(*n->re))) == NULL ||
        (n->name = text_of(p, t.val, t.val_len)) == NULL)
        return -ENOMEM;
    n->invert = invert;
    if (regex_too_big(n->name)) {
        char why[256];
        regerror(REG_ESIZE, NULL, why, sizeof(why));
        return action_error(p, "bad regular expression: '%s'", why, strlen(why));
    }
    if ((sts = regcomp(n->re, n->name, REG_EXTENDED | REG_NOSUB)) != 0) {
        char why[256];
        regerror(sts, n->re, why, sizeof(why));
        return action_error(p, "bad regular expression: '%s'", why, strlen(why));
    }
    if (dm_arena_add_regex(p->arena, n->re) < 0) {
        regfree(n->re);
        p->nomem = 1;
        return -ENOMEM;
    }
    if ((sts = next(p, &t)) < 0)
        return sts;
    if (t.kind != DT_COMMA)
        return error_here(p, ", <expr>) expected to follow matchinst(<filter>");
    if ((sts = shift(p)) < 0)
        return sts;
    return push_frame(p, FR_MATCHINST, DT_EOS, n);
}

static int operand_simple(parser *p, const dm_token *t, dm_node **out);

/*
 * The start of an operand, with the token that begins it taken.  1: a
 * frame was opened and an operand is wanted inside it; 0: a whole operand
 * in *out; or an error.
 */
static int operand_start(parser *p, const dm_token *t, dm_node **out)
{
    int sts, at_start = p->nfr == 1 && p->depth == 0;

    switch (t->kind) {
    case DT_LPAREN:
        if ((sts = shift(p)) < 0)
            return sts;
        return push_frame(p, at_start ? FR_TOPPAREN : FR_PAREN, DT_EOS, NULL) < 0 ? -ENOMEM : 1;
    case DT_MINUS:
    case DT_NOT:
        if ((sts = shift(p)) < 0)
            return sts;
        return push_frame(p, t->kind == DT_MINUS ? FR_NEG : FR_NOT, DT_EOS, NULL) < 0 ? -ENOMEM : 1;
    case DT_RESCALE:
    case DT_SCALAR:
    case DT_MATCHINST: {
        dm_token paren; /* the lexer made this a keyword: "(" follows */
        if ((sts = shift(p)) < 0 || (sts = next(p, &paren)) < 0 || (sts = shift(p)) < 0)
            return sts;
        if (t->kind == DT_MATCHINST)
            return (sts = parse_matchinst(p)) < 0 ? sts : 1;
        return push_frame(p, t->kind == DT_RESCALE ? FR_RESCALE : FR_SCALAR, DT_EOS, NULL) < 0
                   ? -ENOMEM
                   : 1;
    }
    default:
        return operand_simple(p, t, out);
    }
}

/* A NAME, taken, and what follows it: [INSTNAME], which must be followed
 * by something that can follow an expression. */
static int parse_name(parser *p, const dm_token *t, dm_node **out)
{
    dm_node *n = node(p, DN_NAME, NULL, NULL);
    int sts;

    if (n == NULL || (n->name = text_of(p, t->val, t->val_len)) == NULL)
        return -ENOMEM;
    if ((sts = shift(p)) < 0 || (sts = peek(p)) < 0)
        return sts;
    if (p->la.kind == DT_INSTNAME) {
        if ((n->inst = text_of(p, p->la.val, p->la.val_len)) == NULL)
            return -ENOMEM;
        if ((sts = shift(p)) < 0)
            return sts;
        p->depth -= 1;
    } else if (!follows_expr(p->la.kind)) {
        return error_here(p,
                          "Arithmetic or relational or boolean operator expected to follow NAME");
    }
    *out = n;
    return 0;
}

/* The operators that may only start an expression to be refused:
 * "Unexpected initial 'op'", once the token after them is read. */
static const char *initial_operator(dm_tok t)
{
    switch (t) {
    case DT_PLUS:
        return "Unexpected initial '+'";
    case DT_STAR:
        return "Unexpected initial '*'";
    case DT_SLASH:
        return "Unexpected initial '/'";
    case DT_RPAREN:
        return "Unexpected initial ')'";
    case DT_LT:
        return "Unexpected initial '<'";
    case DT_LEQ:
        return "Unexpected initial '<='";
    case DT_EQ:
        return "Unexpected initial '=='";
    case DT_GEQ:
        return "Unexpected initial '>='";
    case DT_GT:
        return "Unexpected initial '>'";
    case DT_NEQ:
        return "Unexpected initial '!='";
    case DT_AND:
        return "Unexpected initial '&&'";
    case DT_OR:
        return "Unexpected initial '||'";
    case DT_QUEST:
        return "Unexpected initial '?'";
    case DT_COLON:
        return "Unexpected initial ':'";
    default:
        return NULL;
    }
}

/* A token taken, the one after it read, and the error m. */
static int error_after(parser *p, const char *m)
{
    int sts;

    if ((sts = shift(p)) < 0 || (sts = peek(p)) < 0)
        return sts;
    return error_here(p, m);
}

/* Operands that need no frame: names, constants, the functions of a
 * name, mkconst; and the errors of a token that cannot start one. */
static int operand_simple(parser *p, const dm_token *t, dm_node **out)
{
    int sts;

    switch (t->kind) {
    case DT_NAME:
        return parse_name(p, t, out);
    case DT_INTEGER:
    case DT_DOUBLE: {
        dm_node *n = node(p, t->kind == DT_INTEGER ? DN_INTEGER : DN_DOUBLE, NULL, NULL);
        if (n == NULL || (n->name = text_of(p, p->lx.text + t->at, t->len)) == NULL)
            return -ENOMEM;
        n->u = t->u;
        n->d = t->kind == DT_DOUBLE ? strtod(n->name, NULL) : (double)t->u;
        n->desc.type = t->kind == DT_INTEGER ? PM_TYPE_U32 : PM_TYPE_DOUBLE;
        n->desc.sem = PM_SEM_DISCRETE;
        *out = n;
        return shift(p);
    }
    case DT_MKCONST:
    case DT_AVG:
    case DT_COUNT:
    case DT_DELTA:
    case DT_MAX:
    case DT_MIN:
    case DT_SUM:
    case DT_ANON:
    case DT_RATE:
    case DT_INSTANT:
    case DT_DEFINED: {
        dm_token paren; /* the lexer made this a keyword: "(" follows */
        if ((sts = shift(p)) < 0 || (sts = next(p, &paren)) < 0 || (sts = shift(p)) < 0)
            return sts;
        if (t->kind == DT_MKCONST)
            return parse_mkconst(p, out);
        return parse_name_function(p, t->kind, out);
    }
    default:
        if (p->nfr == 1 && p->depth == 0 && initial_operator(t->kind) != NULL)
            return error_after(p, initial_operator(t->kind));
        return error_outer(p);
    }
}

/* The binary operators' node kinds. */
static dm_kind binary_kind(dm_tok op)
{
    static const dm_kind kinds[] = {
        [DT_PLUS] = DN_PLUS, [DT_MINUS] = DN_MINUS, [DT_STAR] = DN_STAR, [DT_SLASH] = DN_SLASH,
        [DT_LT] = DN_LT,     [DT_LEQ] = DN_LEQ,     [DT_EQ] = DN_EQ,     [DT_GEQ] = DN_GEQ,
        [DT_GT] = DN_GT,     [DT_NEQ] = DN_NEQ,     [DT_AND] = DN_AND,   [DT_OR] = DN_OR,
    };

    return kinds[op];
}

/* The innermost frame, an operator whose right operand *n is complete,
 * closed: *n becomes the whole. */
static int reduce_operator(parser *p, dm_node **n)
{
    frame *f = &p->fr[--p->nfr];
    dm_node *r;

    switch (f->kind) {
    case FR_BIN:
        r = node(p, binary_kind(f->op), f->left, *n);
        p->depth -= 2;
        break;
    case FR_NEG:
    case FR_NOT:
        r = node(p, f->kind == FR_NEG ? DN_NEG : DN_NOT, *n, NULL);
        p->depth -= 1;
        break;
    default: /* FR_COLON */
        r = node(p, DN_COLON, f->mid, *n);
        r = r == NULL ? NULL : node(p, DN_QUEST, f->left, r);
        p->depth -= 4;
        break;
    }
    if (r == NULL)
        return -ENOMEM;
    *n = r;
    return 0;
}

/* The precedence an open operator frame holds its right operand at. */
static int frame_prec(const frame *f)
{
    switch (f->kind) {
    case FR_BIN:
        return prec_of(f->op);
    case FR_NEG:
        return prec_of(DT_MINUS);
    case FR_NOT:
        return 3;
    default:
        return prec_of(DT_COLON);
    }
}

/* An infix operator after operand *n: a frame for its right operand. */
static int open_infix(parser *p, dm_node *n)
{
    dm_tok op = p->la.kind;
    int sts;

    if ((sts = shift(p)) < 0)
        return sts;
    return push_frame(p, op == DT_QUEST ? FR_QUEST : FR_BIN, op, n) < 0 ? -ENOMEM : 1;
}

/* ")" [ INSTNAME ] closing a parenthesis around *n. */
static int close_paren(parser *p, dm_node **n)
{
    int sts;

    p->nfr--;
    if ((sts = shift(p)) < 0 || (sts = peek(p)) < 0)
        return sts;
    if (p->la.kind != DT_INSTNAME) {
        p->depth -= 2;
        return 0;
    }
    dm_node *s = node(p, DN_SELECT, *n, NULL);
    if (s == NULL || (s->inst = text_of(p, p->la.val, p->la.val_len)) == NULL)
        return -ENOMEM;
    *n = s;
    if ((sts = shift(p)) < 0)
        return sts;
    p->depth -= 3;
    return 0;
}

/* "," STRING ")" closing rescale( *n, the units taken by pmParseUnitsStr. */
static int close_rescale(parser *p, dm_node **n)
{
    static const char *const m_units = "Units string expected to follow rescale(<expr>,";
    dm_token t;
    char *units, *why = NULL;
    double mult;
    int sts;

    if ((sts = shift(p)) < 0 || (sts = next(p, &t)) < 0)
        return sts;
    if (t.kind != DT_STRING)
        return error_here(p, m_units);
    if ((units = text_of(p, t.val, t.val_len)) == NULL)
        return -ENOMEM;
    if ((sts = shift(p)) < 0 || (sts = next(p, &t)) < 0)
        return sts;
    if (t.kind != DT_RPAREN)
        return error_here(p, m_units);
    if ((sts = shift(p)) < 0)
        return sts;
    p->nfr--;
    p->depth -= 5;
    dm_node *r = node(p, DN_RESCALE, *n, NULL);
    if (r == NULL)
        return -ENOMEM;
    *n = r;
    if (pmParseUnitsStr(units, &r->units, &mult, &why) < 0) {
        sts = action_error(p, "Illegal units: '%s'", why ? why : "", why ? strlen(why) : 0);
        free(why);
        return sts;
    }
    return 0;
}

/* ")" closing scalar( *n or matchinst( ..., *n. */
static int close_call(parser *p, dm_node **n)
{
    frame *f = &p->fr[--p->nfr];
    dm_node *r;
    int sts;

    if ((sts = shift(p)) < 0)
        return sts;
    if (f->kind == FR_SCALAR) {
        p->depth -= 3;
        r = node(p, DN_SCALAR, *n, NULL);
    } else {
        p->depth -= 5;
        r = f->left;
        r->left = *n;
    }
    if (r == NULL)
        return -ENOMEM;
    *n = r;
    return 0;
}

/*
 * After a whole operand *n, in the innermost frame: 1 when an operand is
 * wanted next, 0 to look again after closing a construct around *n, 2 when
 * the expression is complete, or an error.
 */
static int after_operand(parser *p, dm_node **n)
{
    frame *f = &p->fr[p->nfr - 1];
    dm_tok la;
    int sts;

    if ((sts = peek(p)) < 0)
        return sts;
    la = p->la.kind;
    switch (f->kind) {
    case FR_BIN:
    case FR_NEG:
    case FR_NOT:
    case FR_COLON:
        if (prec_of(la) > frame_prec(f))
            return open_infix(p, *n);
        return reduce_operator(p, n);
    case FR_QUEST:
        if (la == DT_COLON) {
            f->kind = FR_COLON;
            f->mid = *n;
            return (sts = shift(p)) < 0 ? sts : 1;
        }
        break;
    case FR_TOP:
        if (la == DT_EOS)
            return 2;
        if (la == DT_LPAREN || la == DT_RPAREN)
            return error_after(p, la == DT_LPAREN ? "Unexpected '('" : "Unexpected ')'");
        break;
    case FR_TOPPAREN:
    case FR_PAREN:
        if (la == DT_RPAREN)
            return close_paren(p, n);
        break;
    case FR_RESCALE:
        if (la == DT_COMMA)
            return close_rescale(p, n);
        break;
    case FR_SCALAR:
    case FR_MATCHINST:
        if (la == DT_RPAREN)
            return close_call(p, n);
        break;
    }
    if (is_infix(la))
        return open_infix(p, *n);
    return error_outer(p);
}

/* The expression to its end: its tree, or an error. */
static int parse_all(parser *p, dm_node **root)
{
    dm_node *n = NULL;
    dm_token t;
    int sts;

    if (push_frame(p, FR_TOP, DT_EOS, NULL) < 0)
        return -ENOMEM;
    for (;;) {
        /* an operand is wanted: open frames until one is complete */
        do {
            if ((sts = next(p, &t)) < 0)
                return sts;
        } while ((sts = operand_start(p, &t, &n)) == 1);
        if (sts < 0)
            return sts;
        /* then close what it completes */
        while ((sts = after_operand(p, &n)) == 0)
            ;
        if (sts < 0)
            return sts;
        if (sts == 2) {
            *root = n;
            return 0;
        }
    }
}

int dm_parse(const char *expr, dm_arena *arena, dm_node **root, dm_syntax *err)
{
    parser p;
    int sts;

    memset(&p, 0, sizeof(p));
    p.arena = arena;
    dm_lex_init(&p.lx, expr, strlen(expr));
    sts = parse_all(&p, root);
    if (p.nomem)
        sts = -ENOMEM;
    memset(err, 0, sizeof(*err));
    if (sts == SYNTAX) {
        err->at = p.lx.here;
        err->msg = p.lx.msg != NULL ? p.lx.msg : p.msg;
        if (err->msg == p.owned) {
            err->owned = p.owned;
            p.owned = NULL;
        }
    }
    free(p.owned);
    free(p.fr);
    dm_lex_free(&p.lx);
    return sts;
}

void dm_syntax_free(dm_syntax *err)
{
    free(err->owned);
    err->owned = NULL;
    err->msg = NULL;
}
