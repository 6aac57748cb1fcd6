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
#include <time.h>

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

/* The type two operands of an operator meet in (check.c). */
int dm_promote_type(int l, int r);

int dm_parse(const char *expr, dm_arena *arena, dm_node **root, dm_syntax *err);

/*
 * Binding (check.c): a tree bound to a context, each node with its
 * descriptor.  The context is seen through a source: its names,
 * descriptors and instances.
 */
typedef struct dm_source {
    void *arg;
    /* the PMID of a name: 0, or an error */
    int (*lookup)(void *arg, const char *name, pmID *pmid);
    /* the descriptor of a PMID: 0, or an error */
    int (*desc)(void *arg, pmID pmid, pmDesc *desc);
} dm_source;

/* Values of an operand converted to another scale: times mul, over div. */
typedef struct dm_conv {
    double mul, div;
} dm_conv;

/* A value of a node: an instance and a value of the node's type. */
typedef struct dm_value {
    int inst;
    pmAtomValue a;
} dm_value;

/* Values of a node: count (n) or an error (n < 0), and their room. */
typedef struct dm_values {
    dm_value *v;
    int n, cap;
} dm_values;

typedef struct dm_expr dm_expr;
struct dm_expr {
    const dm_node *syn;    /* the node it evaluates */
    dm_kind kind;          /* syn->kind */
    dm_expr *left, *right; /* operands (a ternary's guard and false one) */
    dm_expr *mid;          /* a ternary's true operand */
    pmDesc desc;           /* of its values */
    pmDesc operand;        /* DN_NAME and functions: the metric's */
    pmID pmid;             /* DN_NAME and functions: the metric */
    dm_conv lconv, rconv;  /* operands' values converted (1/1: not) */
    int rescaled;          /* an operand is converted */
    int defined;           /* DN_DEFINED: the answer */
    /* evaluation (eval.c) */
    dm_values cur;           /* this fetch's values */
    dm_values prev;          /* delta, rate: the last fetch's operand values;
                              * count ... max: the operand's (scratch);
                              * matchinst: instances' answers (inst, a.l) */
    dm_values scratch;       /* delta, rate: this fetch's operand values */
    double prev_time;        /* rate: when prev was fetched (seconds) */
    int have_prev;           /* prev holds a fetch */
    int inst;                /* [instance]: its number, once found */
    int inst_state;          /* 0 not looked up, 1 found, -1 none */
    pmAtomValue fix[2];      /* binary operators: a constant operand's value
                              * as the operator computes with it ... */
    int fixed;               /* ... once made: bit 0 left, bit 1 right */
    int slot;                /* the metric's place in the fetched sets of ... */
    unsigned long slot_plan; /* ... this plan (0: none yet) */
};

/* A bound tree: its root, and its nodes children first (the order they
 * are evaluated in; malloc'd). */
typedef struct dm_bound_tree {
    dm_expr *root;
    dm_expr **order;
    size_t norder;
    int scalar; /* dm_eval_scalar() holds: evaluated the short way */
} dm_bound_tree;

/*
 * Bind root (of derived metric metric; NULL for a context's own, whose
 * messages are the reason alone) to the context of src, its nodes in
 * arena: 0 and *out; PM_ERR_BADDERIVE with *msg PCP's semantic error
 * (malloc'd), or NULL when PCP gives none; -ENOMEM.
 */
int dm_bind(const dm_node *root, const char *metric, const dm_source *src, dm_arena *arena,
            dm_bound_tree *out, char **msg);

/*
 * Evaluation (eval.c): the values of a bound tree from one fetch.  The
 * caller says where each metric's value set is, and answers instance
 * names and numbers (asked once per instance and kept by the nodes).
 */
typedef struct dm_eval_in {
    pmValueSet **vsets; /* the fetched sets */
    void *arg;
    /* the index of pmid's set in vsets, or -1 */
    int (*slot)(void *arg, pmID pmid);
    /* the number of instance name in indom, or an error */
    int (*inst_of)(void *arg, pmInDom indom, const char *name);
    /* the name of instance inst of indom into *name (malloc'd), or an error */
    int (*name_of)(void *arg, pmInDom indom, int inst, char **name);
    const struct timespec *stamp; /* the fetch's time (read by rate
                                   * and delta alone) */
    unsigned long plan;           /* names the plan: slot() answers the same for
                                   * the same plan, so nodes keep its answers */
} dm_eval_in;

/* Evaluate every node of t: 0, or -ENOMEM.  The root's cur holds the
 * metric's values (pointers into vsets for strings and aggregates). */
int dm_eval(const dm_bound_tree *t, const dm_eval_in *in);
/* Is every node of t a metric without instances (and no [instance]), a
 * constant or + - * / of two such (dm_bind sets t->scalar with it)?  Such
 * a tree is evaluated node by node without the instance join, as long as
 * each metric answers one value. */
int dm_eval_scalar(const dm_bound_tree *t);
/* Free the evaluation state of t's nodes. */
void dm_eval_release(dm_bound_tree *t);

/* Expressions longer than this are refused (docs/compat.md). */
#define DM_MAX_EXPR  (256 * 1024)
/* PCP's parser stack holds at most this many symbols (its states, less
 * the first): an expression that needs more fails as PCP's does. */
#define DM_MAX_DEPTH 9999

#endif /* PMKIT_DERIVED_INT_H */
