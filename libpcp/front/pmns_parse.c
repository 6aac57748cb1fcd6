/*
 * pmns_parse.c - ASCII PMNS text to groups and entries.
 *
 *   pmns  = group*
 *   group = ( NAME | PATH ) "{" entry* "}"
 *   entry = NAME [ PMID ]        (no PMID: a non-leaf with a group of its own)
 *   PMID  = DOM:CLUSTER:ITEM | DOM:*:* | DOM
 *
 * Text arrives in chunks (from the in-process preprocessor, or straight
 * from the file for pmLoadNameSpace) and is split into lines here; a line,
 * and the whole text, may be as long as the input limit (input_limit.h),
 * which stops the parse and the preprocessor.  Tokens are blank-separated, except that blanks
 * around ':' are ignored ("1 : 2 : 3" is one PMID), as in PCP.  A token is
 * read where it lies in the line, classified as its end is found (one
 * table lookup a byte); only one joined across blanks is copied.  Whole
 * lines of the usual shapes ("NAME", "NAME D:C:I", "}", "PATH {") are
 * taken by one scan to their newline (line_fast), every other line by the
 * general lexer, with the same effects.  A line starting with
 * '#' is a line marker (# N "file").  The first syntax error stops the
 * parse, as in PCP; its message is PCP's, with file, line and column.
 *
 * Differences from PCP (docs/compat.md): no 254-character line limit, a
 * last line without newline is read, raw loads count lines from 1, marker
 * file names may contain spaces, out-of-range PMID fields that overflow an
 * int are errors, a group left open at the end of the file is still
 * checked for duplicate names, and each error is reported once.
 */
#include "pmns_int.h"
#include "cpp.h"
#include "input_limit.h"

#include <pcp/pmapi.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What the preprocessor may still write once the parse has stopped: as
 * much as PCP's pmcpp writes into its pipe (64 KiB) before its reader
 * closes it, so that its diagnostics of a small file are all reported, and
 * an endless file is not read for ever. */
#define PMNS_PIPE_SIZE (64 * 1024)

typedef enum { TOK_NAME, TOK_PATH, TOK_LBRACE, TOK_RBRACE, TOK_PMID, TOK_BOGUS } tok_kind;

typedef struct parser {
    pmns_parsed ps;
    int state;    /* 0 between groups, 1 after a header, 2 in a group, 3 after a child */
    size_t cur;   /* the open group */
    bool stopped; /* a syntax error ended the parse */
    char *lbuf;   /* a partial line carried between chunks */
    size_t llen, lcap;
    size_t total;     /* bytes of text fed, held within the input limit */
    size_t discarded; /* bytes fed after the parse stopped */
    char *tok;        /* the current token (blanks around ':' removed) */
    size_t tcap;
    const char *file;   /* current file, from the markers */
    unsigned long line; /* current line number */
    const char *text;   /* the current line, for messages */
    size_t textlen;
    size_t tok_off;      /* where the last token starts in PCP's compressed
                          * form of its line (PCP's caret, which a marker line
                          * inherits from the line before it) */
    bool any_tok;        /* a token has been read */
    const char *inplace; /* while a raw load's text, read into ps.str,
                          * is parsed: its start (names found there are
                          * not copied); NULL otherwise */
    size_t inplace_len;
} parser;

/* Deliver d: to the callback, or to stderr in the chosen form (PCP's is
 * held until the load ends). */
void pmns_report(pmns_parsed *ps, diag_msg *d)
{
    d->dialect = DIAG_PCP_PMNS;
    ps->errors++;
    if (ps->opts->diag != NULL)
        ps->opts->diag(ps->opts->diag_ctx, d);
    else if (ps->hold &&
             (ps->queue != NULL || (ps->queue = open_memstream(&ps->qbuf, &ps->qlen)) != NULL))
        diag_print_pcp(ps->queue, d);
    else
        diag_print_as(stderr, d, ps->pcp ? DIAG_FORM_PCP : DIAG_FORM_RICH);
}

void pmns_error(pmns_parsed *ps, const char *file, unsigned long line, size_t col, const char *src,
                size_t srclen, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    diag_msg d = {.severity = DIAG_ERROR,
                  .file = file,
                  .line = line,
                  .col = (unsigned)col,
                  .message = msg,
                  .source = src,
                  .source_len = srclen};

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    d.pcp_line = DIAG_NO_LINE; /* PCP's tree builder names no line */
    pmns_report(ps, &d);
}

static bool is_blank(char c);

/* PCP's compressed form of the line s[0..n): leading blanks gone, each run
 * of blanks reduced to its first character, blanks next to ':' gone. */
static size_t compress(const char *s, size_t n, char *out)
{
    size_t i = 0, o = 0;

    while (i < n && is_blank(s[i]))
        i++;
    while (i < n) {
        if (!is_blank(s[i])) {
            out[o++] = s[i++];
            continue;
        }
        size_t j = i;
        while (j < n && is_blank(s[j]))
            j++;
        if ((j < n && s[j] == ':') || (o > 0 && out[o - 1] == ':')) {
            i = j; /* blanks next to ':' */
            continue;
        }
        out[o++] = s[i];
        i = j;
    }
    return o;
}

/* PCP's caret line under text[0..n) (its newline included): characters
 * before off blanked, white space kept, then '^'. */
static void caret(FILE *fp, const char *text, size_t n, size_t off)
{
    fputs("    ", fp);
    for (size_t i = 0; i < n && i < off; i++)
        fputc(is_blank(text[i]) || text[i] == '\n' ? text[i] : ' ', fp);
    fputs("^\n", fp);
}

/* A syntax error at the current token, col (1-based, in the raw line),
 * which starts at off in PCP's compressed line.  PCP's form echoes the
 * compressed line and a caret under the token; after a bad PMID PCP also
 * says "Expected NAME, PMID or }" and echoes its caret line twice. */
static void syntax_at(parser *p, size_t col, size_t off, const char *msg, bool marker)
{
    char full[1024], *echo = NULL, *comp = NULL;
    size_t elen = 0, clen;
    diag_msg d = {.severity = DIAG_ERROR,
                  .file = p->file,
                  .line = p->line,
                  .col = (unsigned)col,
                  .message = full,
                  .source = p->text,
                  .source_len = p->textlen};
    FILE *fp;

    snprintf(full, sizeof(full), "Error Parsing ASCII PMNS: %s", msg);
    p->stopped = true;
    if (!p->ps.pcp || p->line == 0 || (comp = malloc(p->textlen + 2)) == NULL ||
        (fp = open_memstream(&echo, &elen)) == NULL) {
        free(comp);
        pmns_report(&p->ps, &d);
        return;
    }
    clen = compress(p->text, p->textlen, comp);
    comp[clen++] = '\n';
    fprintf(fp, "    %.*s", (int)clen, comp);
    if (!marker || p->any_tok)
        caret(fp, comp, clen, off);
    fclose(fp);
    d.pcp_echo = echo;
    pmns_report(&p->ps, &d);
    free(echo);
    if (strncmp(msg, "Illegal", 7) == 0 && !marker) { /* PCP's second report of a bad PMID */
        echo = NULL;
        if ((fp = open_memstream(&echo, &elen)) != NULL) {
            caret(fp, comp, clen, off);
            caret(fp, comp, clen, off);
            fclose(fp);
            snprintf(full, sizeof(full), "Error Parsing ASCII PMNS: Expected NAME, PMID or }");
            d.pcp_echo = echo;
            d.message = NULL; /* PCP's form only: pmkit reports a problem once */
            d.pcp_message = full;
            if (p->ps.opts->diag == NULL)
                diag_print_pcp(p->ps.queue != NULL ? p->ps.queue : stderr, &d);
            free(echo);
        }
    }
    free(comp);
}

static void syntax(parser *p, size_t col, const char *msg)
{
    syntax_at(p, col, p->tok_off, msg, false);
}

bool pmns_grow(void **buf, size_t *cap, size_t need, size_t size)
{
    size_t n = *cap ? *cap : 64;
    void *b;

    if (need <= *cap)
        return true;
    while (n < need)
        n *= 2;
    if ((b = pmns_mem_realloc(*buf, n * size)) == NULL)
        return false;
    *buf = b;
    *cap = n;
    return true;
}

bool pmns_reserve(void **buf, size_t *cap, size_t need, size_t size)
{
    void *b;

    if (need <= *cap)
        return true;
    if ((b = pmns_mem_realloc(*buf, need * size)) == NULL)
        return false;
    *buf = b;
    *cap = need;
    return true;
}

/* Copy n bytes into the string arena; its offset, or PMNS_NONE. */
static uint32_t intern_copy(parser *p, const char *s, size_t n)
{
    pmns_parsed *ps = &p->ps;
    uint32_t off = (uint32_t)ps->slen;

    if (ps->slen + n + 1 > UINT32_MAX ||
        (ps->slen + n + 1 > ps->scap &&
         !pmns_grow((void **)&ps->str, &ps->scap, ps->slen + n + 1, 1)))
        return PMNS_NONE;
    memcpy(ps->str + ps->slen, s, n);
    ps->str[ps->slen + n] = '\0';
    ps->slen += n + 1;
    return off;
}

/* The offset of s[0..n) in the string arena: where it is in a text being
 * parsed in place, or where it is copied to (PMNS_NONE if memory ran
 * out). */
static inline uint32_t intern(parser *p, const char *s, size_t n)
{
    if (p->inplace != NULL && s >= p->inplace && n <= p->inplace_len &&
        (size_t)(s - p->inplace) <= p->inplace_len - n)
        return (uint32_t)(s - p->inplace); /* the text starts ps->str */
    return intern_copy(p, s, n);
}

/* The lexer's character classes, one bit each, so that the classes of a
 * token's characters OR-ed together say what the token can be (classify):
 * one table lookup a byte while the token's end is found. */
enum {
    CC_OTHER = 1,  /* anything below */
    CC_BLANK = 2,  /* ' ', '\t', '\r', '\v', '\f'; '\n', which ends every line */
    CC_ALPHA = 4,  /* an ASCII letter */
    CC_DIGIT = 8,  /* '0' to '9' */
    CC_US = 16,    /* '_' */
    CC_DOT = 32,   /* '.' */
    CC_COLON = 64, /* ':' */
    CC_STAR = 128  /* '*' */
};

#define O_  CC_OTHER
#define B_  CC_BLANK
#define A_  CC_ALPHA
#define D_  CC_DIGIT
#define OX8 O_, O_, O_, O_, O_, O_, O_, O_
static const uint8_t cclass[256] = {
    O_,  O_,  O_,  O_,  O_,  O_,  O_,  O_,  O_, B_, B_,       B_, B_, B_, O_,     O_, /* 0x00 */
    OX8, OX8,                                                                         /* 0x10 */
    B_,  O_,  O_,  O_,  O_,  O_,  O_,  O_,  O_, O_, CC_STAR,  O_, O_, O_, CC_DOT, O_,
    D_,  D_,  D_,  D_,  D_,  D_,  D_,  D_,  D_, D_, CC_COLON, O_, O_, O_, O_,     O_,
    O_,  A_,  A_,  A_,  A_,  A_,  A_,  A_,  A_, A_, A_,       A_, A_, A_, A_,     A_, /* 0x40 */
    A_,  A_,  A_,  A_,  A_,  A_,  A_,  A_,  A_, A_, A_,       O_, O_, O_, O_,     CC_US,
    O_,  A_,  A_,  A_,  A_,  A_,  A_,  A_,  A_, A_, A_,       A_, A_, A_, A_,     A_, /* 0x60 */
    A_,  A_,  A_,  A_,  A_,  A_,  A_,  A_,  A_, A_, A_,       O_, O_, O_, O_,     O_,
    OX8, OX8, OX8, OX8, OX8, OX8, OX8, OX8, /* 0x80: not ASCII */
    OX8, OX8, OX8, OX8, OX8, OX8, OX8, OX8,
};
#undef O_
#undef B_
#undef A_
#undef D_
#undef OX8

static bool is_blank(char c)
{
    return (cclass[(unsigned char)c] & CC_BLANK) != 0;
}

/* The classes of t[0..n), OR-ed. */
static unsigned classes(const char *t, size_t n)
{
    unsigned acc = 0;

    for (size_t i = 0; i < n; i++)
        acc |= cclass[(unsigned char)t[i]];
    return acc;
}

/* What t[0..n) is, acc being classes(t, n): a NAME or PATH starts with a
 * letter and holds letters, digits, '_' and '.' only; a PMID holds digits,
 * '*' and ':' (at most three ':', which parse_pmid counts: the grammar
 * tells a PMID from other tokens only after a child's name). */
static tok_kind classify(const char *t, size_t n, unsigned acc)
{
    if (n == 1 && t[0] == '{')
        return TOK_LBRACE;
    if (n == 1 && t[0] == '}')
        return TOK_RBRACE;
    if (cclass[(unsigned char)t[0]] & CC_ALPHA) {
        if (acc & ~(unsigned)(CC_ALPHA | CC_DIGIT | CC_US | CC_DOT))
            return TOK_BOGUS;
        return acc & CC_DOT ? TOK_PATH : TOK_NAME;
    }
    return acc & ~(unsigned)(CC_DIGIT | CC_COLON | CC_STAR) ? TOK_BOGUS : TOK_PMID;
}

/* The ':' in t[0..n). */
static size_t colons_in(const char *t, size_t n)
{
    size_t colons = 0;

    for (size_t i = 0; i < n; i++)
        colons += t[i] == ':';
    return colons;
}

/* The value of the digits s[0..n) held within range: past INT_MAX it
 * stays at 0x80000000 (out of every field's range). */
static unsigned long saturated(const char *s, size_t n)
{
    unsigned long x = 0;

    for (size_t i = 0; i < n && x <= 0x7fffffff; i++)
        x = x * 10 + (unsigned long)(s[i] - '0');
    return x > 0x7fffffff ? 0x80000000ul : x;
}

/* A decimal field at *s (scanf %d style, digits only here). */
static inline bool number(const char **s, const char *end, unsigned long *v)
{
    const char *p = *s;
    unsigned long x = 0;
    unsigned d;

    for (; p < end && (d = (unsigned)(unsigned char)*p - '0') <= 9; p++)
        x = x * 10 + d; /* exact for up to 19 digits */
    if (p == *s)
        return false;
    *v = p - *s <= 10 && x <= 0x7fffffff ? x : saturated(*s, (size_t)(p - *s));
    *s = p;
    return true;
}

/* The PMID in t[0..n): 0, or the error message, and in *colons the ':'
 * in t.  PCP's rules: d:c:i (text after the third field ignored), d:*:*,
 * or a bare domain (dynamic). */
static const char *parse_pmid(const char *t, size_t n, uint32_t *pmid, bool *dynamic,
                              size_t *colons)
{
    const char *s = t, *end = t + n;
    unsigned long d, c, i;

    *dynamic = false;
    if (number(&s, end, &d) && s < end && *s == ':' && (++s, number(&s, end, &c)) && s < end &&
        *s == ':' && (++s, number(&s, end, &i))) {
        *colons = 2 + colons_in(s, (size_t)(end - s));
        if (d > 510)
            return "Illegal domain field in PMID";
        if (c > 4095)
            return "Illegal cluster field in PMID";
        if (i > 1023)
            return "Illegal item field in PMID";
        *pmid = (uint32_t)(d << 22 | c << 10 | i);
        return NULL;
    }
    *colons = colons_in(t, n);
    s = t;
    if (!number(&s, end, &d))
        return "Illegal PMID";
    if (s < end && !(end - s == 4 && memcmp(s, ":*:*", 4) == 0))
        return "Illegal PMID";
    if (d > 510)
        return "Illegal domain field in dynamic PMID";
    *pmid = (uint32_t)(511u << 22 | d << 10);
    *dynamic = true;
    return NULL;
}

static void open_group(parser *p, const char *t, size_t n)
{
    pmns_parsed *ps = &p->ps;
    pmns_group *g;
    /* pmns_hash_step over the components, in one pass */
    uint32_t h = PMNS_ROOT_HASH ^ 0x5bd1e995u;

    if (!pmns_grow((void **)&ps->grps, &ps->grpcap, ps->ngrps + 1, sizeof(*ps->grps))) {
        syntax(p, 1, "Out of memory");
        return;
    }
    for (size_t i = 0; i < n; i++) {
        if (t[i] == '.')
            h = (h ^ (h >> 15)) ^ 0x5bd1e995u;
        else
            h = (h ^ (unsigned char)t[i]) * 16777619u;
    }
    h ^= h >> 15;
    g = &ps->grps[ps->ngrps];
    memset(g, 0, sizeof(*g));
    g->path = intern(p, t, n);
    g->len = (uint32_t)n;
    g->first = (uint32_t)ps->nents;
    g->hash = h;
    g->file = p->file;
    g->line = p->line;
    p->cur = ps->ngrps++;
}

static void add_child(parser *p, const char *t, size_t n)
{
    pmns_parsed *ps = &p->ps;
    pmns_entry *e;

    if (ps->nents == ps->entcap &&
        !pmns_grow((void **)&ps->ents, &ps->entcap, ps->nents + 1, sizeof(*ps->ents))) {
        syntax(p, 1, "Out of memory");
        return;
    }
    e = &ps->ents[ps->nents++];
    e->name = intern(p, t, n);
    e->len = (uint32_t)n;
    e->pmid = PMNS_NONLEAF;
    e->dynamic = false;
    ps->grps[p->cur].n++;
}

/* A duplicate child name, found at the "}" of its group (col > 0) or at
 * the end of the input (col 0: PCP does not check there).  PCP's form
 * echoes the message itself: PCP builds it in its line buffer. */
static void duplicate_name(parser *p, size_t col, const char *msg)
{
    char full[600], *echo = NULL;
    size_t elen = 0;
    FILE *fp;
    diag_msg d = {.severity = DIAG_ERROR,
                  .file = p->file,
                  .line = p->line,
                  .col = (unsigned)col,
                  .message = full,
                  .source = p->text,
                  .source_len = p->textlen};

    p->stopped = true;
    if (col == 0) {
        pmns_error(&p->ps, p->file, p->line, 0, p->text, p->textlen, "Error Parsing ASCII PMNS: %s",
                   msg);
        return;
    }
    snprintf(full, sizeof(full), "Error Parsing ASCII PMNS: %s", msg);
    if (p->ps.pcp && (fp = open_memstream(&echo, &elen)) != NULL) {
        fprintf(fp, "\n    %s\n", msg);
        caret(fp, msg, strlen(msg), p->tok_off);
        fclose(fp);
        d.pcp_echo = echo;
    }
    pmns_report(&p->ps, &d);
    free(echo);
}

/* The first of g's children whose name a later child repeats (the one
 * PCP reports), or UINT32_MAX: in a small group, none when 8 bits of a
 * key of length and three bytes all differ, else compared pair by pair
 * (by the keys first, the names only when the keys agree); through a hash set in a large one (on
 * the stack up to SET_STACK slots). */
#define SMALL_GROUP 16
#define SET_STACK   1024

static uint32_t name_key(const char *s, uint32_t len)
{
    return len << 24 ^ (uint32_t)(unsigned char)s[0] << 16 ^
           (uint32_t)(unsigned char)s[len / 2] << 8 ^ (unsigned char)s[len - 1];
}

static uint32_t first_repeated_small(const pmns_parsed *ps, const pmns_group *g)
{
    const pmns_entry *e = &ps->ents[g->first];
    uint32_t key[SMALL_GROUP], first = UINT32_MAX;
    uint64_t seen[4] = {0}, clash = 0;

    for (uint32_t k = 0; k < g->n; k++) { /* 8 bits of each key: all differ, no pairs */
        uint32_t b = (key[k] = name_key(ps->str + e[k].name, e[k].len)) * 0x9e3779b1u >> 24;
        clash |= seen[b >> 6] & (uint64_t)1 << (b & 63);
        seen[b >> 6] |= (uint64_t)1 << (b & 63);
    }
    if (clash == 0)
        return UINT32_MAX;
    for (uint32_t k = 1; k < g->n; k++) {
        uint32_t lim = k < first ? k : first;
        for (uint32_t j = 0; j < lim; j++)
            if (key[j] == key[k] && e[j].len == e[k].len &&
                memcmp(ps->str + e[j].name, ps->str + e[k].name, e[k].len) == 0) {
                first = j;
                break;
            }
    }
    return first == UINT32_MAX ? first : g->first + first;
}

/* A hash of s[0..n) for the large groups' set: eight bytes a step. */
static uint32_t set_hash(const char *s, size_t n)
{
    uint64_t h = (uint64_t)n * 0x9e3779b97f4a7c15u, w = 0;

    for (; n >= 8; s += 8, n -= 8) {
        memcpy(&w, s, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdu;
        h ^= h >> 29;
    }
    w = 0; /* the last n bytes, read as two overlapping halves */
    if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, s, 4);
        memcpy(&b, s + n - 4, 4);
        w = (uint64_t)a << 32 | b;
    } else if (n > 0) {
        w = (uint64_t)(unsigned char)s[0] << 16 | (uint64_t)(unsigned char)s[n / 2] << 8 |
            (unsigned char)s[n - 1];
    }
    h = (h ^ w) * 0xff51afd7ed558ccdu;
    return (uint32_t)(h ^ h >> 32);
}

static uint32_t first_repeated(const pmns_parsed *ps, const pmns_group *g, bool *nomem)
{
    const pmns_entry *e = &ps->ents[g->first];
    size_t cap = 16;
    uint32_t stack_set[SET_STACK], *set = stack_set, first = UINT32_MAX;

    if (g->n <= SMALL_GROUP)
        return first_repeated_small(ps, g);
    while (cap < (size_t)g->n * 2)
        cap *= 2;
    if (cap > SET_STACK && (set = calloc(cap, sizeof(*set))) == NULL) {
        *nomem = true;
        return UINT32_MAX;
    }
    if (set == stack_set)
        memset(set, 0, cap * sizeof(*set));
    for (uint32_t k = 0; k < g->n; k++) {
        size_t h = set_hash(ps->str + e[k].name, e[k].len) & (cap - 1);
        for (; set[h] != 0; h = (h + 1) & (cap - 1)) {
            const pmns_entry *o = &ps->ents[set[h] - 1];
            if (o->len == e[k].len && memcmp(ps->str + o->name, ps->str + e[k].name, e[k].len) == 0)
                break;
        }
        if (set[h] != 0 && set[h] - 1 < first)
            first = set[h] - 1;
        else if (set[h] == 0)
            set[h] = g->first + k + 1;
    }
    if (set != stack_set)
        free(set);
    return first;
}

/* At "}": the group's children must have distinct names.  Of several
 * repeated names the one named first in the group is reported, as PCP
 * does. */
static void close_group(parser *p, size_t col)
{
    pmns_parsed *ps = &p->ps;
    const pmns_group *g = &ps->grps[p->cur];
    bool nomem = false;
    uint32_t first = first_repeated(ps, g, &nomem);

    if (nomem) {
        syntax(p, col, "Out of memory");
        return;
    }
    if (first != UINT32_MAX) {
        char msg[512];
        snprintf(msg, sizeof(msg), "Duplicate name \"%.*s\" in subtree for \"%.*s\"",
                 (int)ps->ents[first].len, ps->str + ps->ents[first].name, (int)g->len,
                 ps->str + g->path);
        duplicate_name(p, col, msg);
    }
}

/* One token through the state machine of the grammar. */
static void token(parser *p, const char *t, size_t n, unsigned acc, size_t col)
{
    tok_kind k = classify(t, n, acc);
    const char *err;
    uint32_t pmid;
    bool dynamic;
    size_t colons;

    switch (p->state) {
    case 0:
        if (k == TOK_NAME || k == TOK_PATH)
            open_group(p, t, n), p->state = 1;
        else
            syntax(p, col, "Expected NAME or PATH");
        break;
    case 1:
        if (k == TOK_LBRACE)
            p->state = 2;
        else
            syntax(p, col, "{ expected");
        break;
    case 2:
    case 3:
        if (k == TOK_NAME) {
            add_child(p, t, n);
            p->state = 3;
        } else if (k == TOK_RBRACE) {
            close_group(p, col);
            p->state = 0;
        } else if (k == TOK_PMID && p->state == 3) {
            err = parse_pmid(t, n, &pmid, &dynamic, &colons);
            if (colons > 3 || err != NULL) { /* more than three: not a PMID at all */
                syntax(p, col, colons > 3 ? "Expected NAME, PMID or }" : err);
                break;
            }
            p->ps.ents[p->ps.nents - 1].pmid = pmid;
            p->ps.ents[p->ps.nents - 1].dynamic = dynamic;
            p->state = 2;
        } else {
            syntax(p, col, p->state == 2 ? "Expected NAME or }" : "Expected NAME, PMID or }");
        }
        break;
    }
}

/* A marker is refused: reported at its own line (PCP names the line
 * before it, or the number it read), with PCP's caret left over from the
 * last token. */
static void bad_marker(parser *p)
{
    p->line++;
    syntax_at(p, 1, p->tok_off, "Illegal line number control number", true);
}

/* "# N "file"": the next line is line N of file.  Read as PCP's sscanf
 * reads it ("# %d \"%s"), except that a name with a closing quote may
 * hold blanks. */
static void marker(parser *p, const char *s, size_t n)
{
    size_t i = 1, j, k;
    unsigned long line = 0;
    const char *q, *name0;
    size_t nlen;

    while (i < n && is_blank(s[i]))
        i++;
    for (j = i; j < n && s[j] >= '0' && s[j] <= '9'; j++)
        line = line * 10 + (unsigned long)(s[j] - '0');
    if (j == i) {
        bad_marker(p);
        return;
    }
    while (j < n && is_blank(s[j]))
        j++;
    if (j + 1 >= n || s[j] != '"' || is_blank(s[j + 1])) {
        bad_marker(p);
        return;
    }
    if ((q = memchr(s + j + 1, '"', n - j - 1)) != NULL) {
        name0 = s + j + 1, nlen = (size_t)(q - s - j - 1);
    } else { /* PCP's %s: the word after the quote, less its last character */
        for (k = j + 1; k < n && !is_blank(s[k]); k++)
            ;
        name0 = s + j + 1, nlen = k - j - 2;
    }
    if (p->file == NULL || strlen(p->file) != nlen || memcmp(p->file, name0, nlen) != 0) {
        pmns_parsed *ps = &p->ps;
        char **files = realloc(ps->files, (ps->nfiles + 1) * sizeof(*files));
        char *name = malloc(nlen + 1);
        if (files == NULL || name == NULL) {
            free(name);
            if (files != NULL)
                ps->files = files;
            syntax(p, 1, "Out of memory");
            return;
        }
        memcpy(name, name0, nlen);
        name[nlen] = '\0';
        ps->files = files;
        ps->files[ps->nfiles++] = name;
        p->file = name;
    }
    p->line = line - 1;
}

/* A token that runs across blanks next to ':' ("1 : 2", "1: 2"), from
 * s[i], copied into p->tok without the blanks: the index after it and the
 * blanks that follow, or n + 1 when memory ran out (reported). */
static size_t joined_token(parser *p, const char *s, size_t n, size_t i, size_t *lenp)
{
    size_t start = i, len = 0;

    for (;;) {
        size_t end = i;
        while (end < n && !is_blank(s[end]))
            end++;
        /* the run of non-blanks copied at once, the buffer grown once */
        if (len + (end - i) + 1 > p->tcap &&
            !pmns_grow((void **)&p->tok, &p->tcap, len + (end - i) + 1, 1)) {
            syntax(p, start + 1, "Out of memory");
            return n + 1;
        }
        memcpy(p->tok + len, s + i, end - i);
        len += end - i;
        i = end;
        size_t j = i;
        while (j < n && is_blank(s[j]))
            j++;
        i = j;
        if (!(j < n && (s[j] == ':' || p->tok[len - 1] == ':')))
            break;
    }
    *lenp = len;
    return i;
}

/* The digit at s, or a value over 9. */
static inline unsigned digit(const char *s)
{
    return (unsigned)(unsigned char)*s - '0';
}

/* A decimal field at p of one to four digits and at most lim: its end,
 * the value in *v; NULL for anything else (a longer one, leading zeros
 * and all, is left to parse_pmid). */
static inline const char *pmid_field(const char *p, uint32_t lim, uint32_t *v)
{
    uint32_t x = digit(p), d;

    if (x > 9)
        return NULL;
    if ((d = digit(++p)) <= 9) {
        x = x * 10 + d;
        if ((d = digit(++p)) <= 9) {
            x = x * 10 + d;
            if ((d = digit(++p)) <= 9) {
                x = x * 10 + d;
                if (digit(++p) <= 9)
                    return NULL;
            }
        }
    }
    *v = x;
    return x <= lim ? p : NULL;
}

/* The token at p, when it is a PMID DOMAIN:CLUSTER:ITEM with every field
 * in range and a blank after it: its end, its PMID (the one parse_pmid
 * reads) in *pmid.  NULL leaves it all to the lexer's general loop and to
 * parse_pmid. */
static inline const char *pmid_at(const char *p, uint32_t *pmid)
{
    uint32_t d, c, i;

    if ((p = pmid_field(p, 510, &d)) == NULL || *p != ':' ||
        (p = pmid_field(p + 1, 4095, &c)) == NULL || *p != ':' ||
        (p = pmid_field(p + 1, 1023, &i)) == NULL || !(cclass[(unsigned char)*p] & CC_BLANK))
        return NULL;
    *pmid = d << 22 | c << 10 | i;
    return p;
}

/* The same at s[*end], *end moved past it. */
static bool scan_pmid(const char *s, size_t *end, uint32_t *pmid)
{
    const char *p = pmid_at(s + *end, pmid);

    if (p == NULL)
        return false;
    *end = (size_t)(p - s);
    return true;
}

/* One line: a marker, or tokens (blanks next to ':' do not split).  A
 * token is read where it is in the line, its characters' classes gathered
 * as its end is found (a name's usual characters and a plain PMID's are
 * scanned by loops of their own, the PMID's value found on the way); only
 * one that runs across blanks is copied. */
static void line(parser *p, const char *s, size_t n)
{
    /* s[n] is the line's '\n' (feed and finish put one after a carried
     * line): a token's end is found with no test of n */
    size_t i = 0, off = 0;

    p->text = s;
    p->textlen = n;
    while (i < n && is_blank(s[i]))
        i++;
    if (i < n && s[i] == '#') {
        marker(p, s + i, n - i);
        return;
    }
    p->line++;
    while (i < n && !p->stopped) {
        size_t start = i, end = i, j, len;
        unsigned acc = 0, k = cclass[(unsigned char)s[i]];
        const char *t = s + start;
        uint32_t pmid;
        bool plain = false; /* a plain PMID, in pmid */
        if (k & CC_ALPHA) {
            do /* classify needs no more of these than CC_ALPHA */
                end++;
            while (cclass[(unsigned char)s[end]] & (CC_ALPHA | CC_DIGIT | CC_US));
            acc = CC_ALPHA;
        } else if ((k & CC_DIGIT) && (plain = scan_pmid(s, &end, &pmid))) {
            acc = CC_DIGIT | CC_COLON;
        }
        while (!((k = cclass[(unsigned char)s[end]]) & CC_BLANK)) { /* the rest */
            acc |= k;
            end++;
        }
        for (j = end; j < n && is_blank(s[j]); j++)
            ;
        len = end - start;
        if (j < n && (s[j] == ':' || s[end - 1] == ':')) {
            if ((j = joined_token(p, s, n, start, &len)) > n)
                return;
            t = p->tok;
            acc = classes(t, len);
            plain = false;
        }
        i = j;
        p->tok_off = off; /* in PCP's compressed line: tokens and one blank each */
        p->any_tok = true;
        off += len + 1;
        if (plain && p->state == 3) { /* token's own way with a PMID, faster */
            p->ps.ents[p->ps.nents - 1].pmid = pmid;
            p->state = 2;
            continue;
        }
        token(p, t, len, acc, start + 1);
    }
}

/* The usual blanks in a line (line_fast leaves the others to line()). */
static inline bool is_space(char c)
{
    return c == '\t' || c == ' ';
}

/* The line at s, whose '\n' is somewhere after it, when it has one of the
 * usual shapes in a state that takes it: "NAME" or "NAME PMID" (a plain
 * one, as scan_pmid reads it) in a group, "}" closing one, "NAME {" or
 * "PATH {" opening one, or nothing.  Then it is taken as line() would
 * take it (the same calls, line number, token offsets and text for the
 * messages) and its '\n' returned; otherwise NULL, with nothing done, and
 * the line is line()'s.  No token here can be joined to another across
 * blanks (no ':' starts or ends one).  Over 60 lines: one scan of the
 * line and the shapes it may take, which are one decision. */
static const char *line_fast(parser *p, const char *s)
{
    const char *q = s, *t, *e;
    unsigned dot = 0;
    size_t len;
    uint32_t pmid;
    bool pmid_set = false;

    while (is_space(*q))
        q++;
    t = q;
    if (*q == '}') {
        for (e = q + 1; is_space(*e);)
            e++;
        if (*e != '\n' || p->state < 2)
            return NULL;
        p->text = s, p->textlen = (size_t)(e - s), p->line++;
        p->tok_off = 0, p->any_tok = true;
        close_group(p, (size_t)(t - s) + 1);
        p->state = 0;
        return e;
    }
    if (*q != '\n') {
        if (!(cclass[(unsigned char)*q] & CC_ALPHA))
            return NULL;
        do
            q++;
        while (cclass[(unsigned char)*q] & (CC_ALPHA | CC_DIGIT | CC_US));
        for (; cclass[(unsigned char)*q] & (CC_ALPHA | CC_DIGIT | CC_US | CC_DOT); q++)
            dot |= *q == '.';
        if (!(cclass[(unsigned char)*q] & CC_BLANK))
            return NULL;
    }
    len = (size_t)(q - t);
    for (e = q; is_space(*e);)
        e++;
    if (*e == '{') {
        for (e++; is_space(*e);)
            e++;
        if (*e != '\n' || len == 0 || p->state != 0)
            return NULL;
        p->text = s, p->textlen = (size_t)(e - s), p->line++;
        p->tok_off = 0, p->any_tok = true;
        open_group(p, t, len);
        p->tok_off = len + 1;
        p->state = 2;
        return e;
    }
    if (*e != '\n') {
        if (len == 0 || (e = pmid_at(e, &pmid)) == NULL)
            return NULL;
        for (pmid_set = true; is_space(*e);)
            e++;
        if (*e != '\n')
            return NULL;
    }
    if (len > 0 && (dot || p->state < 2))
        return NULL;
    p->text = s, p->textlen = (size_t)(e - s), p->line++;
    if (len == 0)
        return e; /* a blank line */
    p->tok_off = 0, p->any_tok = true;
    if (p->ps.nents < p->ps.entcap && (uintptr_t)t - (uintptr_t)p->inplace < p->inplace_len) {
        /* add_child's work when it cannot fail: a name in the text read in place */
        pmns_entry *en = &p->ps.ents[p->ps.nents++];
        en->name = (uint32_t)(t - p->inplace);
        en->len = (uint32_t)len;
        en->pmid = PMNS_NONLEAF;
        en->dynamic = false;
        p->ps.grps[p->cur].n++;
    } else {
        add_child(p, t, len);
    }
    p->state = 3;
    if (pmid_set && !p->stopped) {
        p->tok_off = len + 1;
        p->ps.ents[p->ps.nents - 1].pmid = pmid;
        p->state = 2;
    }
    return e;
}

/* The text is over the input limit: an error that stops the parse, and
 * the preprocessor feeding it. */
static int too_large(parser *p)
{
    char msg[160];

    snprintf(msg, sizeof(msg), "namespace longer than the input limit (%zu bytes, %s)",
             pmkit_input_limit(), PMKIT_INPUT_LIMIT_ENV);
    p->line++;
    p->text = NULL, p->textlen = 0;
    syntax(p, 0, msg);
    return -EFBIG;
}

/* Feed text; complete lines are parsed, a partial one is kept. */
static int feed(void *ctx, const char *data, size_t len)
{
    parser *p = ctx;
    size_t limit = pmkit_input_limit();
    const char *nl;

    if (p->stopped) { /* PCP's pmcpp fills its pipe after the parse stops, no more */
        p->discarded += len;
        return p->discarded > PMNS_PIPE_SIZE ? -ECANCELED : 0;
    }
    if (len > limit || p->total > limit - len)
        return too_large(p);
    p->total += len; /* and so a line too: none is longer than the text */
    while (len > 0 && !p->stopped) {
        const char *last = data + len;
        while (last > data && last[-1] != '\n')
            last--;
        if (p->llen == 0 && last > data) { /* whole lines: each scan ends at a '\n' */
            const char *s = data;
            while (s < last && !p->stopped) {
                if ((nl = line_fast(p, s)) == NULL) {
                    nl = memchr(s, '\n', (size_t)(last - s));
                    line(p, s, (size_t)(nl - s));
                }
                s = nl + 1;
            }
            len -= (size_t)(s - data);
            data = s;
            continue;
        }
        if ((nl = memchr(data, '\n', len)) == NULL) {
            if (!pmns_grow((void **)&p->lbuf, &p->lcap, p->llen + len + 1, 1))
                return -ENOMEM;
            memcpy(p->lbuf + p->llen, data, len);
            p->llen += len;
            return 0;
        }
        size_t n = (size_t)(nl - data);
        if (p->llen > 0) {
            if (!pmns_grow((void **)&p->lbuf, &p->lcap, p->llen + n + 1, 1))
                return -ENOMEM;
            memcpy(p->lbuf + p->llen, data, n);
            p->lbuf[p->llen + n] = '\n';
            line(p, p->lbuf, p->llen + n);
            p->llen = 0;
        } else {
            line(p, data, n);
        }
        data += n + 1;
        len -= n + 1;
    }
    return 0;
}

static void parser_init(parser *p, const pmns_load_opts *opts)
{
    memset(p, 0, sizeof(*p));
    p->ps.opts = opts;
    p->ps.pcp = diag_form_resolve(opts->form) == DIAG_FORM_PCP;
    p->ps.hold = p->ps.pcp && opts->diag == NULL; /* no stream: straight to stderr */
    p->file = opts->file != NULL ? opts->file : "<buffer>";
}

/* PCP's loader prints its messages when the load is over. */
static void flush_queue(parser *p)
{
    if (p->ps.queue == NULL)
        return;
    fclose(p->ps.queue);
    p->ps.queue = NULL;
    fwrite(p->ps.qbuf, 1, p->ps.qlen, stderr);
    free(p->ps.qbuf);
    p->ps.qbuf = NULL;
}

static void parser_free(parser *p)
{
    pmns_mem_free(p->ps.str);
    pmns_mem_free(p->ps.ents);
    pmns_mem_free(p->ps.grps);
    for (size_t i = 0; i < p->ps.nfiles; i++)
        free(p->ps.files[i]);
    free(p->ps.files);
    free(p->lbuf);
    free(p->tok);
}

/* The parse is over: a last line without newline, then the tree. */
static int finish(parser *p, int cpp_sts, pmns_tree **out)
{
    int sts;

    if (!p->stopped && p->llen > 0)
        p->lbuf[p->llen] = '\n', line(p, p->lbuf, p->llen); /* feed left room for it */
    if (!p->stopped && (p->state == 2 || p->state == 3))
        close_group(p, 0); /* EOF closes the last group: its names must differ too */
    if (cpp_sts < 0 && !p->stopped)
        pmns_error(&p->ps, p->ps.opts->file, 0, 0, NULL, 0,
                   "Error Parsing ASCII PMNS: pmcpp returned non-zero exit status");
    if (p->stopped || cpp_sts < 0)
        sts = PM_ERR_PMNS;
    else
        sts = pmns_build(&p->ps, out);
    flush_queue(p);
    parser_free(p);
    return sts;
}

/* Room for the names and child lines of size bytes of text at once, so
 * that the arenas are not copied as they grow: every name is followed by
 * a byte of the text, and a child line takes at least a few bytes (one in
 * 16 is a guess, not a bound: the arrays still grow past it).  Nothing is
 * reserved beyond the input limit; a failure here is not an error. */
static void reserve(parser *p, size_t size, bool names)
{
    pmns_parsed *ps = &p->ps;

    if (size == 0 || size > pmkit_input_limit())
        return;
    if (names)
        (void)pmns_grow((void **)&ps->str, &ps->scap, ps->slen + size + 2, 1);
    (void)pmns_reserve((void **)&ps->ents, &ps->entcap, ps->nents + size / 16 + 1,
                       sizeof(*ps->ents));
}

/* For pmns_load_opts.image_only: a regular file's first size bytes (what
 * fstat said) read into the empty string arena and parsed there, so that
 * its names are not copied (intern).  0, 1 when the file was not read
 * this way (memory, or not empty arena), or -errno; what was read is fed
 * either way, and what follows (a file that grew) is the caller's. */
static int read_in_place(parser *p, int fd, size_t size)
{
    pmns_parsed *ps = &p->ps;
    size_t got = 0;
    int sts = 0;

    /* 64 bytes more: room for the derived names (pmns_build) */
    if (ps->slen != 0 || size > UINT32_MAX - 64 || (ps->str = pmns_mem_alloc(size + 64)) == NULL)
        return 1;
    ps->scap = size + 64;
    while (got < size) {
        ssize_t n = read(fd, ps->str + got, size - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            sts = n < 0 ? -errno : 0;
            break;
        }
        got += (size_t)n;
    }
    ps->slen = got;
    p->inplace = ps->str, p->inplace_len = got;
    if (got > 0) {
        int fs = feed(p, ps->str, got);
        sts = sts < 0 ? sts : fs;
    }
    p->inplace = NULL; /* the arena may move from here on */
    return sts;
}

static int read_raw(parser *p, const char *file)
{
    char buf[64 * 1024];
    ssize_t n;
    int fd = open(file, O_RDONLY | O_CLOEXEC), sts = 0;
    struct stat st;

    if (fd < 0)
        return -errno;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        size_t size = (size_t)st.st_size;
        bool inplace = p->ps.opts->image_only && size <= pmkit_input_limit();
        reserve(p, size, !inplace);
        if (inplace && (sts = read_in_place(p, fd, size)) > 0) {
            sts = 0;
            reserve(p, size, true); /* not in place after all */
        }
    }
    while (sts == 0 && (n = read(fd, buf, sizeof(buf))) != 0) {
        if (n < 0 && errno == EINTR)
            continue;
        sts = n < 0 ? -errno : feed(p, buf, (size_t)n);
    }
    close(fd);
    return sts;
}

int pmns_load(const pmns_load_opts *opts, pmns_tree **out)
{
    parser p;
    int sts;

    *out = NULL;
    if (access(opts->file, R_OK) < 0) {
        int err = -errno;
        pmns_parsed ps = {0};
        ps.opts = opts;
        ps.pcp = diag_form_resolve(opts->form) == DIAG_FORM_PCP;
        pmns_error(&ps, opts->file, 0, 0, NULL, 0, "Error Parsing ASCII PMNS: Cannot open \"%s\"",
                   opts->file);
        return err;
    }
    parser_init(&p, opts);
    if (opts->prelude != NULL && (sts = feed(&p, opts->prelude, opts->prelude_len)) < 0)
        return finish(&p, sts, out);
    if (opts->use_cpp) {
        cpp_options co = {0};
        cpp_sink sink = {feed, &p};
        co.pmns_dir = opts->pmns_dir;
        co.defines = opts->defines;
        co.n_defines = opts->n_defines;
        co.include_dirs = opts->include_dirs;
        co.n_include_dirs = opts->n_include_dirs;
        co.dependency = opts->dependency;
        co.dependency_ctx = opts->dependency_ctx;
        co.diag = opts->diag;
        co.diag_ctx = opts->diag_ctx;
        co.form = p.ps.pcp ? DIAG_FORM_PCP : DIAG_FORM_RICH;
        sts = cpp_run_file(&co, opts->file, &sink, NULL);
    } else {
        sts = read_raw(&p, opts->file);
    }
    return finish(&p, sts, out);
}

int pmns_load_buffer(const pmns_load_opts *opts, const char *text, size_t len, pmns_tree **out)
{
    parser p;
    int sts;

    *out = NULL;
    parser_init(&p, opts);
    if (opts->use_cpp) {
        cpp_options co = {0};
        cpp_sink sink = {feed, &p};
        co.no_external = 1; /* text from memory: no #include or #shell */
        co.diag = opts->diag;
        co.diag_ctx = opts->diag_ctx;
        co.form = p.ps.pcp ? DIAG_FORM_PCP : DIAG_FORM_RICH;
        sts = cpp_run_buffer(&co, p.file, text, len, &sink, NULL);
    } else {
        sts = feed(&p, text, len);
    }
    return finish(&p, sts, out);
}
