/*
 * help_parse.c - the help text source parser (see help_parse.h).
 *
 * One pass over the buffer, a line at a time (a line ends at '\n' or at
 * the end of the buffer).  The first byte of a line classifies it: '#'
 * drops it, '@' starts an entry, anything else is long text of the current
 * entry (or is ignored before the first entry and after a null entry).
 * An entry's long text is normally one stretch of the source and is kept
 * as a pointer; only when comment lines fall inside it is it copied,
 * without them, to the arena.  Blanks are C's isspace in the "C" locale,
 * as for PCP.
 *
 * Deliberately not here: PCP's 128-byte line buffer (long lines split, with
 * a warning) and 1024-byte entry limit (entries truncated and the next one
 * lost); numeric keys that do not fit their fields are errors where PCP
 * truncates them silently.  Duplicate keys are the caller's business (they
 * need names resolved first).
 */
#include "help_parse.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

/* The entry being read. */
typedef struct current {
    help_src_entry e;   /* filled from the @ line */
    bool open;          /* an entry is being read */
    bool copied;        /* its text is in the arena (comment lines cut) */
    const char *tstart; /* first text line, in the source; NULL if none */
    const char *tend;   /* end of the last text line, newline included */
} current;

int help_pcp_form(const help_parser *p)
{
    return diag_form_resolve(p->form) == DIAG_FORM_PCP;
}

static void emit_as(help_parser *p, diag_msg *d)
{
    d->dialect = DIAG_PCP_HELP;
    d->prog = p->prog;
    if (d->severity == DIAG_ERROR)
        p->errors++;
    else
        p->warnings++;
    diag_emit(p->diag, p->diag_ctx, d, p->form);
}

static void emit(help_parser *p, const char *file, unsigned long line, unsigned col,
                 const char *src, size_t srclen, diag_severity sev, const char *msg)
{
    diag_msg d = {.severity = sev,
                  .file = file,
                  .line = line,
                  .col = col,
                  .message = msg,
                  .source = src,
                  .source_len = srclen};

    emit_as(p, &d);
}

void help_report(help_parser *p, const help_src_entry *e, diag_severity sev, const char *pcp,
                 const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    diag_msg d = {.severity = sev,
                  .file = e->file,
                  .line = e->line,
                  .col = e->col,
                  .message = msg,
                  .source = e->src_line,
                  .source_len = e->src_line_len};

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    d.pcp_message = pcp;
    emit_as(p, &d);
}

/* PCP's form: remember a null entry for the caller to report in order. */
static void null_entry(help_parser *p, const char *file, unsigned long line)
{
    if (p->nnull == p->nullcap) {
        size_t cap = p->nullcap ? p->nullcap * 2 : 16;
        help_null *n = realloc(p->nulls, cap * sizeof(*n));
        if (n == NULL)
            return; /* still counted: only its -V line is lost */
        p->nulls = n;
        p->nullcap = cap;
    }
    p->nulls[p->nnull++] = (help_null){p->n, file, line};
}

static int arena_add(help_parser *p, const char *s, size_t n)
{
    if (p->arena_cap - p->arena_len < n) {
        size_t cap = p->arena_cap ? p->arena_cap : 4096;
        char *a;
        while (cap - p->arena_len < n)
            cap *= 2;
        if ((a = realloc(p->arena, cap)) == NULL)
            return -ENOMEM;
        p->arena = a;
        p->arena_cap = cap;
    }
    memcpy(p->arena + p->arena_len, s, n);
    p->arena_len += n;
    return 0;
}

/* One numeric field, [+]digits; its value (saturated), or -1 if it is not
 * one, or -2 if it is negative. */
static long long field(const char *s, size_t n)
{
    long long v = 0;
    size_t i = 0;
    bool neg = false;

    if (n > 0 && (s[0] == '+' || s[0] == '-'))
        neg = s[i++] == '-';
    if (i == n)
        return -1;
    for (; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        if (v < 100000000)
            v = v * 10 + (s[i] - '0');
    }
    return neg && v != 0 ? -2 : v;
}

/* Classify the key: D.C.I or D.S with numeric fields, or a name.  A
 * numeric key whose fields do not fit is reported; returns false then. */
static bool classify(help_parser *p, help_src_entry *e)
{
    static const long long limit[2][3] = {{511, 4095, 1023}, {511, 4194303, 0}};
    static const char *const what[2][3] = {{"domain", "cluster", "item"}, {"domain", "serial", ""}};
    long long v[3];
    size_t nf = 0, start = 0;

    e->kind = HELP_KEY_NAME;
    for (size_t i = 0; i <= e->word_len; i++) {
        if (i < e->word_len && e->word[i] != '.')
            continue;
        if (nf == 3 || (v[nf] = field(e->word + start, i - start)) == -1)
            return true; /* not numeric: a name */
        nf++;
        start = i + 1;
    }
    if (nf < 2)
        return true;
    int k = nf == 3 ? 0 : 1;
    for (size_t f = 0; f < nf; f++) {
        if (v[f] < 0 || v[f] > limit[k][f]) {
            help_report(p, e, DIAG_ERROR, NULL, "%.*s: the %s of %s must be 0 to %lld",
                        (int)e->word_len, e->word, what[k][f], k == 0 ? "a PMID" : "an InDom",
                        limit[k][f]);
            return false;
        }
    }
    if (k == 0) {
        e->kind = HELP_KEY_PMID;
        e->key = (uint32_t)v[0] << 22 | (uint32_t)v[1] << 10 | (uint32_t)v[2];
    } else {
        e->kind = HELP_KEY_INDOM;
        e->key = 0x80000000u | (uint32_t)v[0] << 22 | (uint32_t)v[1];
    }
    return true;
}

/* Close the current entry: trim its text and append it. */
static int finish(help_parser *p, current *c)
{
    help_src_entry *e = &c->e;

    if (!c->open)
        return 0;
    c->open = false;
    if (c->copied) {
        e->text = NULL;
        e->text_len = p->arena_len - e->text_off;
        while (e->text_len > 0 && p->arena[e->text_off + e->text_len - 1] == '\n')
            e->text_len--;
    } else {
        e->text = c->tstart != NULL ? c->tstart : e->oneline + e->oneline_len;
        e->text_len = c->tstart != NULL ? (size_t)(c->tend - c->tstart) : 0;
        while (e->text_len > 0 && e->text[e->text_len - 1] == '\n')
            e->text_len--;
    }
    if (p->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 256;
        help_src_entry *n = realloc(p->ent, cap * sizeof(*n));
        if (n == NULL)
            return -ENOMEM;
        p->ent = n;
        p->cap = cap;
    }
    p->ent[p->n++] = *e;
    return 0;
}

/* An @ line [s, end): start an entry, or report a null one. */
static void start_entry(help_parser *p, current *c, const char *file, unsigned long line,
                        const char *s, const char *end)
{
    const char *w = s + 1, *q, *r;
    help_src_entry *e = &c->e;

    while (w < end && blank(*w))
        w++;
    if (w == end) {
        if (help_pcp_form(p)) {
            p->warnings++;
            null_entry(p, file, line);
        } else {
            emit(p, file, line, 1, s, (size_t)(end - s), DIAG_WARNING,
                 "null entry? (an @ line with no key); text up to the next @ line ignored");
        }
        return;
    }
    for (q = w; q < end && !blank(*q); q++)
        ;
    for (r = q; r < end && blank(*r); r++)
        ;
    memset(c, 0, sizeof(*c));
    e->word = w;
    e->word_len = (size_t)(q - w);
    e->oneline = r;
    e->oneline_len = (size_t)(end - r);
    e->file = file;
    e->line = line;
    e->col = (unsigned)(w - s) + 1;
    e->src_line = s;
    e->src_line_len = (size_t)(end - s);
    c->open = classify(p, e);
}

/* A text line [s, next) (newline included if there is one). */
static int add_text(help_parser *p, current *c, const char *s, const char *next)
{
    if (!c->open)
        return 0;
    if (c->copied)
        return arena_add(p, s, (size_t)(next - s));
    if (c->tstart == NULL)
        c->tstart = s;
    c->tend = next;
    return 0;
}

/* A comment line inside an entry's text: from now on copy the text. */
static int cut_comment(help_parser *p, current *c)
{
    if (!c->open || c->copied || c->tstart == NULL)
        return 0;
    c->copied = true;
    c->e.text_off = p->arena_len;
    return arena_add(p, c->tstart, (size_t)(c->tend - c->tstart));
}

int help_parse(help_parser *p, const char *file, const char *buf, size_t len)
{
    const char *s = buf, *end = buf + len;
    bool nuls = memchr(buf, '\0', len) != NULL;
    unsigned long line = 0;
    current c = {0};
    int sts = 0;

    while (s < end && sts == 0) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        const char *eol = nl != NULL ? nl : end, *next = nl != NULL ? nl + 1 : end;
        const char *z = nuls ? memchr(s, '\0', (size_t)(eol - s)) : NULL;
        line++;
        if (z != NULL)
            emit(p, file, line, (unsigned)(z - s) + 1, s, (size_t)(eol - s), DIAG_ERROR,
                 "NUL character in help text");
        if (*s == '#') {
            sts = cut_comment(p, &c);
        } else if (*s == '@') {
            if ((sts = finish(p, &c)) == 0)
                start_entry(p, &c, file, line, s, eol);
            if (z != NULL)
                c.open = false; /* already reported; leave the entry out */
        } else {
            if (c.open && z != NULL)
                c.open = false;
            sts = add_text(p, &c, s, next);
        }
        s = next;
    }
    if (sts == 0)
        sts = finish(p, &c);
    return sts;
}

const char *help_entry_text(const help_parser *p, const help_src_entry *e)
{
    return e->text != NULL ? e->text : p->arena + e->text_off;
}

void help_parser_free(help_parser *p)
{
    free(p->ent);
    free(p->arena);
    free(p->nulls);
    p->ent = NULL;
    p->arena = NULL;
    p->nulls = NULL;
    p->n = p->cap = p->arena_len = p->arena_cap = p->nnull = p->nullcap = 0;
}
