/*
 * cpp_int.h - private state of the preprocessor, shared by cpp.c (the
 * line loop), cpp_stream.c (inputs), cpp_directive.c (control lines),
 * cpp_macro.c (the macro table and substitution) and cpp_expr.c (#if).
 */
#ifndef PMKIT_FRONT_CPP_INT_H
#define PMKIT_FRONT_CPP_INT_H

#include "cpp.h"
#include "cpp_scan.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Streams nested below the top-level input, at most: PCP's limit, which
 * also stops a recursive #include or #shell at once. */
#define CPP_MAX_DEPTH 4

/* Bytes kept allocated and zeroed after the data of a read buffer: a
 * supplied final newline and 16-byte loads that run past a line's end. */
#define CPP_SLACK 17

/* cpp_stream_peek's error for a line longer than the input limit. */
#define CPP_ELONGLINE (-EFBIG)

typedef enum { SRC_FILE, SRC_SHELL, SRC_MEMORY } cpp_src_kind;

/* One input: the top-level file, an #include'd file or #shell output. */
typedef struct cpp_stream {
    struct cpp_stream *parent;  /* the stream that included this one */
    cpp_src_kind kind;          /* where the bytes come from */
    char *name;                 /* name in markers and messages */
    int fd;                     /* file or pipe; -1 for memory input */
    bool close_fd;              /* fd is ours to close (not the caller's stdin) */
    FILE *pipe;                 /* popen handle of a #shell stream */
    const char *mem;            /* memory input */
    size_t memlen;              /* its length */
    size_t mempos;              /* bytes of it already copied into buf */
    char *buf;                  /* read buffer for fd input */
    size_t cap;                 /* its size */
    size_t pos;                 /* next unread byte of buf */
    size_t end;                 /* end of valid bytes in buf */
    size_t complete;            /* end of the last complete line in buf */
    bool eof;                   /* the fd has no more bytes */
    unsigned long line;         /* lines consumed so far */
    bool in_comment;            /* inside a comment at the end of the last line */
    unsigned long comment_line; /* where that comment opened */
    unsigned comment_col;
} cpp_stream;

/* One live macro in the open-addressing table. */
typedef struct cpp_macro {
    char *name;    /* NULL: free slot; CPP_TOMBSTONE: deleted */
    uint32_t nlen; /* length of name */
    char *value;   /* replacement text, never rescanned */
    size_t vlen;   /* its length */
} cpp_macro;

typedef struct cpp_macros {
    cpp_macro *slots;    /* power-of-two sized table */
    uint32_t *tags;      /* per slot: 0 if free, else its hash with the top
                          * bit set (kept by a deleted slot), so a probe
                          * reads 4 bytes a slot, not the whole slot */
    size_t cap;          /* slots */
    size_t live;         /* defined macros */
    size_t used;         /* live plus tombstones */
    uint32_t first[256]; /* live names starting with each byte: a quick filter */
    uint32_t lens[64];   /* live names of each length (63: 63 or longer) */
    bool changed;        /* names added or removed since the hot table was built */
} cpp_macros;

typedef enum { COND_IFDEF, COND_IFNDEF, COND_IF } cpp_cond_kind;

/* One open conditional group. */
typedef struct cpp_cond {
    cpp_cond_kind kind; /* the directive that opened it */
    const char *file;   /* where it opened (a name owned by the state) */
    unsigned long line;
    bool parent_active; /* the enclosing text is being output */
    bool active;        /* the current branch is being output */
    bool branch;        /* #ifdef groups: truth of the current branch; each
                         * #else flips it, as in PCP */
    bool taken;         /* some branch of the group has been active */
    bool seen_else;     /* #else seen */
    bool seen_elif;     /* #elif seen: C rules for #else from now on */
} cpp_cond;

typedef struct cpp_state {
    const cpp_options *opt;
    char ctrl; /* '#' or '%' (-s) */
    cpp_sink *sink;
    int sink_err; /* first error from the sink, or 0 */
    char *out;    /* output buffer */
    size_t outlen, outcap;
    cpp_stream *cur; /* stream being read */
    int depth;       /* streams open below the top-level one */
    char *topdir;    /* directory of the top-level input, or NULL */
    char *pmns_dir;  /* last directory searched for #include */
    cpp_macros macros;
    char **names; /* names of closed streams, kept for cpp_cond.file */
    size_t nnames, namecap;
    cpp_cond *conds; /* stack of open groups */
    size_t nconds, condcap;
    char *line; /* the line being processed (no newline) */
    size_t len;
    cpp_byteset hot;       /* bytes fast_text must look at: '\n', '/', and
                            * letters that start a defined macro's name */
    cpp_byteset wordend;   /* bytes that end a word (not letter, digit, '_') */
    const char *diag_file; /* overrides for diagnostics outside streams */
    unsigned long diag_line;
    const char *top_name; /* the top-level input's name, for PCP's messages */
    bool pcp;             /* PCP's form of diagnostics: the first error stops */
    bool stopped;         /* an error stopped the run (PCP's form) */
    cpp_stats stats;
    /* -d, PCP's trace: its buffer sizes, and counts as PCP keeps them */
    size_t ibuf, obuf;
    unsigned long defined;  /* macros ever defined (PCP substitutes while
                             * any was, even after #undef) */
    unsigned long modified; /* lines changed by substitution */
    unsigned long nsubst;   /* substitutions */
    bool line_modified;     /* the current line had a substitution */
    size_t trace_len;       /* the current line's length after substitutions */
} cpp_state;

/* cpp.c */
/* White space as isspace() sees it in the C locale, without the call. */
static inline bool cpp_space(char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');
}

/* Bytes allocated after the output buffer's outcap, for cpp_emit_slack. */
#define CPP_OUT_SLACK 16

void cpp_emit_slow(cpp_state *st, const char *data, size_t len);
static inline void cpp_emit(cpp_state *st, const char *data, size_t len)
{
    if (len <= st->outcap - st->outlen) { /* the common case: it fits */
        memcpy(st->out + st->outlen, data, len);
        st->outlen += len;
    } else {
        cpp_emit_slow(st, data, len);
    }
}

/* cpp_emit for data that may be read 16 bytes from its start (a piece of a
 * stream line, a macro value): short pieces move as one 16-byte block,
 * whose bytes past len land in the free space or in CPP_OUT_SLACK. */
static inline void cpp_emit_slack(cpp_state *st, const char *data, size_t len)
{
    if (len <= 16 && len <= st->outcap - st->outlen) {
        memcpy(st->out + st->outlen, data, 16);
        st->outlen += len;
    } else {
        cpp_emit(st, data, len);
    }
}
void cpp_emit_marker(cpp_state *st, unsigned long line, const char *name);
void cpp_error(cpp_state *st, size_t col, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void cpp_warning(cpp_state *st, size_t col, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void cpp_report_as(cpp_state *st, const diag_msg *d);
void cpp_report(cpp_state *st, diag_severity sev, const char *file, unsigned long line, size_t col,
                const char *source, size_t srclen, const char *msg);
bool cpp_active(const cpp_state *st);

/* -d: a line of len bytes (its newline included) was read; the trace's
 * last line. */
void cpp_trace_read(cpp_state *st, size_t len);
void cpp_trace_summary(cpp_state *st);

/* cpp_stream.c */
cpp_stream *cpp_stream_file(const char *path, const char *name, int fd);
cpp_stream *cpp_stream_memory(const char *name, const char *text, size_t len);
cpp_stream *cpp_stream_shell(const char *cmd);
/* The next line (writable, ended by a '\n' that is in memory, valid until
 * the next peek), or NULL at end of input or on error (*err = -errno). */
char *cpp_stream_peek(cpp_stream *s, int *err);
/* The '\n' that ends line. */
char *cpp_stream_line_end(const cpp_stream *s, const char *line);
/* Consume input up to next (just past a line's '\n'). */
void cpp_stream_advance(cpp_stream *s, const char *next);
/* Close s; for #shell streams report the command's exit status. */
void cpp_stream_close(cpp_state *st, cpp_stream *s);
/* Open FILE for #include, searching like PCP; NULL if not found. */
cpp_stream *cpp_include_open(cpp_state *st, const char *file);
/* Open a top-level input; NULL and errno on failure. */
int cpp_open_input(const char *path, int *fd);

/* cpp_directive.c */
/* Handle a control line whose keyword is at line[1..]; false if the word is
 * not a directive (the line is then ordinary text). */
bool cpp_directive(cpp_state *st);
/* -D / -U from the options. */
void cpp_command_line_macros(cpp_state *st);

/* cpp_macro.c */
void cpp_macros_init(cpp_macros *m);
void cpp_macros_free(cpp_macros *m);
const cpp_macro *cpp_macro_find(const cpp_macros *m, const char *name, size_t len);
bool cpp_macro_define(cpp_macros *m, const char *name, size_t nlen, const char *value,
                      size_t vlen); /* false if already defined */
void cpp_macro_undef(cpp_macros *m, const char *name, size_t nlen);
/* Could w[0..n) name a macro?  Two table lookups, no hashing. */
static inline bool cpp_macro_maybe(const cpp_macros *m, const char *w, size_t n)
{
    return m->first[(unsigned char)w[0]] != 0 && m->lens[n < 63 ? n : 63] != 0;
}

#define CPP_TAG_BIT 0x80000000u /* cpp_macros.tags: a used slot */

extern char cpp_tombstone; /* marks a deleted slot */
#define CPP_TOMBSTONE (&cpp_tombstone)

/* Equal names?  Eight bytes at a time; both sides may be read up to 7
 * bytes past n (names and lines have slack after them). */
static inline bool cpp_same_name(const char *a, const char *b, size_t n)
{
    uint64_t x, y;

    for (; n >= 8; a += 8, b += 8, n -= 8) {
        memcpy(&x, a, 8);
        memcpy(&y, b, 8);
        if (x != y)
            return false;
    }
    if (n == 0)
        return true;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(&x, a, 8);
    memcpy(&y, b, 8);
    return ((x ^ y) << (8 * (8 - n))) == 0; /* the low n bytes */
#else
    return memcmp(a, b, n) == 0;
#endif
}

/* The slot holding name (whose hash is h), or NULL. */
static inline cpp_macro *cpp_macro_lookup(const cpp_macros *m, const char *name, size_t n,
                                          uint32_t h)
{
    size_t mask = m->cap - 1;

    if (m->cap == 0)
        return NULL;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        uint32_t tag = m->tags[i];
        if (tag == 0)
            return NULL;
        if (tag == (h | CPP_TAG_BIT)) {
            cpp_macro *e = &m->slots[i];
            if (e->nlen == n && e->name != CPP_TOMBSTONE && cpp_same_name(e->name, name, n))
                return e;
        }
    }
}

/* Output a text line with macros substituted. */
void cpp_substitute(cpp_state *st, const char *line, size_t len);

/* Hash of a name, eight bytes at a time (a short name is one or two
 * steps).  Reads up to 7 bytes past the name; every name pmcpp looks up
 * lies in memory with slack after it (read buffers, macro values, option
 * text). */
static inline uint32_t cpp_hash_name(const char *p, size_t n)
{
    uint64_t h = UINT64_C(0x9E3779B97F4A7C15) ^ n, w;

    for (; n >= 8; p += 8, n -= 8) {
        memcpy(&w, p, 8);
        h = (h ^ w) * UINT64_C(0xff51afd7ed558ccd);
        h ^= h >> 32;
    }
    if (n > 0) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        memcpy(&w, p, 8);
        w &= (UINT64_C(1) << (8 * n)) - 1; /* the name's n bytes */
#else
        w = 0;
        memcpy(&w, p, n);
#endif
        h = (h ^ w) * UINT64_C(0xc4ceb9fe1a85ec53);
    }
    h ^= h >> 29;
    return (uint32_t)(h >> 32) ^ (uint32_t)h;
}

/* The same with the name's hash known; inlined into the scanners. */
static inline bool cpp_substitute_hashed(cpp_state *st, const char **copy, const char *w,
                                         const char *p, uint32_t h)
{
    const cpp_macro *m = cpp_macro_lookup(&st->macros, w, (size_t)(p - w), h);

    if (m == NULL)
        return false;
    cpp_emit_slack(st, *copy, (size_t)(w - *copy));
    cpp_emit_slack(st, m->value, m->vlen);
    *copy = p;
    return true;
}

/* cpp_expr.c */
/* Evaluate the #if expression text[0..len); 0 and *value, or -1 after
 * reporting an error at column base_col + offset. */
int cpp_expr_eval(cpp_state *st, const char *text, size_t len, size_t base_col, bool *value);

/* character classes */
extern const unsigned char cpp_ctype[256];
#define CT_START       1 /* letter or '_': may start a name */
#define CT_WORD        2 /* letter, digit or '_' */
#define CT_ALNUM       4 /* letter or digit */
#define CT_BLANK       8 /* space or tab */
#define cpp_is(c, cls) (cpp_ctype[(unsigned char)(c)] & (cls))

#endif /* PMKIT_FRONT_CPP_INT_H */
