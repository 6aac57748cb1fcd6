/*
 * derived_int.h - what the files of libpcp/derived share among
 * themselves: the tokens of PCP's derived-metric expression language,
 * the tree the parser builds, and the arena the tree lives in.  The rest
 * of libpcp sees only derived.h.
 */
#ifndef PMKIT_DERIVED_INT_H
#define PMKIT_DERIVED_INT_H

#include <pcp/pmapi.h>

#include <regex.h>
#include <stddef.h>
#include <stdint.h>

/* Tokens. */
typedef enum {
    DT_EOS,
    DT_PLUS,
    DT_MINUS,
    DT_STAR,
    DT_SLASH,
    DT_QUEST,
    DT_COLON,
    DT_LPAREN,
    DT_RPAREN,
    DT_LT,
    DT_LEQ,
    DT_EQ,
    DT_GEQ,
    DT_GT,
    DT_NEQ,
    DT_AND,
    DT_OR,
    DT_NOT,
    DT_ASSIGN,
    DT_COMMA,
    DT_INTEGER,
    DT_DOUBLE,
    DT_NAME,
    DT_STRING,
    DT_INSTNAME,
    DT_PATTERN,
    DT_ERROR, /* the lexer's own errors: its message is set */
    /* functions: keywords only when '(' follows at once */
    DT_AVG,
    DT_COUNT,
    DT_DELTA,
    DT_MAX,
    DT_MIN,
    DT_SUM,
    DT_ANON,
    DT_RATE,
    DT_INSTANT,
    DT_MKCONST,
    DT_RESCALE,
    DT_DEFINED,
    DT_MATCHINST,
    DT_SCALAR,
    /* mkconst's tags: keywords wherever they appear */
    DT_TYPE,
    DT_SEMANTICS,
    DT_UNITS,
} dm_tok;

typedef struct dm_token {
    dm_tok kind;
    size_t at;       /* offset of its first byte in the expression */
    size_t len;      /* bytes it spans in the expression */
    const char *val; /* NAME, STRING, INSTNAME, PATTERN: the text, with
                      * escapes removed (the lexer's buffer, valid until
                      * the next token); else NULL */
    size_t val_len;
    uint32_t u; /* INTEGER: the value */
} dm_token;

typedef struct dm_lexer {
    const char *text;  /* the expression (NUL-terminated) */
    size_t len;        /* its length */
    size_t pos;        /* where scanning resumes */
    long here;         /* PCP's position for messages: the start of the
                        * last token read, len - 1 at the end (so -1
                        * for an empty expression) */
    int pattern_depth; /* inside matchinst(...): parentheses open since
                        * the keyword (-1: not inside one); '/' then
                        * starts a pattern */
    char *buf;         /* the unescaped text of the last token */
    size_t buf_cap;    /* its size */
    const char *msg;   /* the lexer's error message, or NULL */
} dm_lexer;

/* Start lexing text (len bytes, NUL-terminated). */
void dm_lex_init(dm_lexer *lx, const char *text, size_t len);
/* The next token; 0, or -ENOMEM (nothing read). */
int dm_lex_next(dm_lexer *lx, dm_token *tok);
void dm_lex_free(dm_lexer *lx);

/*
 * The tree.  Node kinds; operands are left and right (the ternary's
 * guard is left, its true and false operands right->left and
 * right->right under a DN_COLON node, as PCP shapes it).
 */
typedef enum {
    DN_INTEGER, /* a U32 constant (mkconst: any numeric type) */
    DN_DOUBLE,  /* a DOUBLE constant (mkconst: FLOAT or DOUBLE) */
    DN_NAME,    /* a metric, inst: its [instance] or NULL */
    DN_SELECT,  /* (expr)[instance]: left, inst */
    DN_PLUS,    /* binary operators, left op right */
    DN_MINUS,
    DN_STAR,
    DN_SLASH,
    DN_LT,
    DN_LEQ,
    DN_EQ,
    DN_GEQ,
    DN_GT,
    DN_NEQ,
    DN_AND,
    DN_OR,
    DN_NEG,   /* unary minus: left */
    DN_NOT,   /* boolean not: left */
    DN_QUEST, /* left ? right->left : right->right */
    DN_COLON, /* the two operands of a ternary */
    DN_AVG,   /* functions of a metric: left is its DN_NAME */
    DN_COUNT,
    DN_DELTA,
    DN_MAX,
    DN_MIN,
    DN_SUM,
    DN_RATE,
    DN_INSTANT,
    DN_DEFINED,
    DN_ANON,      /* anon(PM_TYPE_X): type in desc.type, no operand */
    DN_RESCALE,   /* rescale(left, "units"): units */
    DN_MATCHINST, /* matchinst([!]/re/, left): re, invert */
    DN_SCALAR,    /* scalar(left) */
} dm_kind;

typedef struct dm_node dm_node;
struct dm_node {
    dm_kind kind;
    dm_node *left, *right;
    const char *name; /* DN_NAME: the metric; DN_INTEGER, DN_DOUBLE: the
                       * constant as written; DN_MATCHINST: the pattern */
    const char *inst; /* DN_NAME, DN_SELECT: the instance name, or NULL */
    uint32_t u;       /* DN_INTEGER: the value */
    double d;         /* DN_DOUBLE: the value */
    pmDesc desc;      /* constants: type, semantics and units (mkconst
                       * sets them); DN_ANON: type */
    pmUnits units;    /* DN_RESCALE: the units asked for */
    regex_t *re;      /* DN_MATCHINST: the compiled pattern */
    int invert;       /* DN_MATCHINST: "!" before the pattern */
};

/*
 * An arena: the tree of one expression and its strings, freed in one
 * call.  Compiled patterns are listed so that they are regfree'd too.
 */
typedef struct dm_arena_chunk dm_arena_chunk;
typedef struct dm_arena {
    dm_arena_chunk *chunks; /* newest first */
    size_t used, cap;       /* in the newest chunk */
    regex_t **regs;         /* patterns to regfree */
    size_t nregs, regs_cap;
} dm_arena;

void *dm_arena_alloc(dm_arena *a, size_t size);
char *dm_arena_strndup(dm_arena *a, const char *s, size_t len);
int dm_arena_add_regex(dm_arena *a, regex_t *re);
void dm_arena_free(dm_arena *a);

/*
 * The parser.  dm_parse reads expr and builds its tree in arena: 0 and
 * *root, or a syntax error: PM_ERR_BADDERIVE with *at PCP's position (as
 * in dm_lexer.here) and *msg PCP's message (NULL when PCP gives none;
 * static or in arena), or -ENOMEM.
 */
typedef struct dm_syntax {
    long at;         /* PCP's position of the error */
    const char *msg; /* its message, or NULL: static, or owned */
    char *owned;     /* a message made for this error (malloc'd) */
} dm_syntax;

/* Free what an error holds. */
void dm_syntax_free(dm_syntax *err);

int dm_parse(const char *expr, dm_arena *arena, dm_node **root, dm_syntax *err);

/* Expressions longer than this are refused (docs/compat.md). */
#define DM_MAX_EXPR  (256 * 1024)
/* PCP's parser stack holds at most this many symbols (its states, less
 * the first): an expression that needs more fails as PCP's does. */
#define DM_MAX_DEPTH 9999

#endif /* PMKIT_DERIVED_INT_H */
