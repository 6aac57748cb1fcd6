/*
 * genmap.c - the pmgenmap map-specification translator (see genmap.h).
 *
 * One pass over the lines of an in-memory buffer.  A line is split into
 * words at blanks (space and tab only, as awk's default field splitting
 * in PCP's script), and classified by its word count and words:
 *
 *   comment  = blanks? "#" text          (pending until the next other line)
 *   blank    = blanks?                   (copied verbatim)
 *   open     = NAME "{"                  (outside a group)
 *   entry    = METRIC SYMBOL             (inside a group)
 *   close    = "}"                       (inside a group)
 *
 * Anything else is an error, reported with PCP's wording at its line and
 * column; the line is skipped and the pass goes on, so every error is
 * reported once (an error inside a group does not also leave the group
 * "unterminated").  Output for valid input is byte for byte what PCP's
 * awk program prints.  Deliberately different (docs/compat.md): a comment
 * needs no blank after '#'; CRLF is one line end; "*" "/" inside a comment
 * is written "* /" so it cannot end the C comment early; a "}" with no
 * group open is an error.  Words are not otherwise checked: that is the C
 * compiler's job, and the metric names are the check callback's.
 */
#include "genmap.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct span {
    const char *p; /* first byte */
    size_t len;    /* length */
} span;

/* The words of one line: the first three (a line with more is an error
 * whatever they are). */
typedef struct words {
    size_t n;  /* how many: 0 to 3, or 4 for more than three */
    span w[3]; /* the first min(n, 3) */
} words;

typedef struct state {
    const genmap_opts *o;
    genmap_buf *out;        /* the map body */
    genmap_buf comment;     /* pending comment text in PCP's layout */
    unsigned long ncomment; /* comment lines pending */
    int in_group;           /* a group is open */
    unsigned long ord;      /* next ordinal in the open group */
    span group_src;         /* the line that opened the group */
    unsigned long group_line;
    size_t group_col;
    char *name; /* NUL-terminated copy of a metric name for check */
    size_t namecap;
    long errors; /* errors reported */
    int pcp;     /* PCP's form of diagnostics */
    int stopped; /* PCP's form: an error ended the translation */
} state;

/* ------------------------------------------------------------------ */
/* Buffers. */

int genmap_buf_reserve(genmap_buf *b, size_t n)
{
    size_t cap = b->cap ? b->cap : 4096;
    char *d;

    if (b->failed)
        return -ENOMEM;
    if (n <= b->cap - b->len)
        return 0;
    while (cap - b->len < n) {
        if (cap > (size_t)-1 / 2) {
            b->failed = 1;
            return -ENOMEM;
        }
        cap *= 2;
    }
    if ((d = realloc(b->data, cap)) == NULL) {
        b->failed = 1;
        return -ENOMEM;
    }
    b->data = d, b->cap = cap;
    return 0;
}

int genmap_buf_put(genmap_buf *b, const char *s, size_t n)
{
    if (genmap_buf_reserve(b, n) < 0)
        return -ENOMEM;
    if (n > 0)
        memcpy(b->data + b->len, s, n);
    b->len += n;
    return 0;
}

void genmap_buf_free(genmap_buf *b)
{
    free(b->data);
    memset(b, 0, sizeof(*b));
}

static void put_str(genmap_buf *b, const char *s)
{
    genmap_buf_put(b, s, strlen(s));
}

/* Text inside a C comment: "*" "/" becomes "* /" and a newline a blank,
 * so the text cannot close the comment or break its layout. */
static void put_commented(genmap_buf *b, const char *s, size_t n)
{
    size_t from = 0;

    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\n') {
            genmap_buf_put(b, s + from, i - from);
            genmap_buf_put(b, " ", 1);
            from = i + 1;
        } else if (s[i] == '*' && i + 1 < n && s[i + 1] == '/') {
            genmap_buf_put(b, s + from, i + 1 - from);
            genmap_buf_put(b, " ", 1);
            from = i + 1;
        }
    }
    genmap_buf_put(b, s + from, n - from);
}

/* ------------------------------------------------------------------ */
/* Lines and words. */

static int blank(char c)
{
    return c == ' ' || c == '\t';
}

static void split(const char *p, size_t len, words *ws)
{
    size_t i = 0;

    ws->n = 0;
    while (ws->n < 3) {
        while (i < len && blank(p[i]))
            i++;
        if (i == len)
            return;
        ws->w[ws->n].p = p + i;
        while (i < len && !blank(p[i]))
            i++;
        ws->w[ws->n].len = (size_t)(p + i - ws->w[ws->n].p);
        ws->n++;
    }
    while (i < len && blank(p[i]))
        i++;
    if (i < len)
        ws->n = 4; /* more than three */
}

static int is(span s, const char *word)
{
    return s.len == strlen(word) && memcmp(s.p, word, s.len) == 0;
}

/* Deliver d: to the callback, on stderr (rich form), or into the output
 * (PCP's form, where PCP's awk script prints it). */
static void deliver(state *s, diag_msg *d)
{
    char *text = NULL;
    size_t len = 0;
    FILE *fp;

    d->dialect = DIAG_PCP_GENMAP;
    if (s->o->diag != NULL) {
        s->o->diag(s->o->diag_ctx, d);
    } else if (!s->pcp) {
        diag_print(stderr, d);
    } else if ((fp = open_memstream(&text, &len)) != NULL) {
        diag_print_pcp(fp, d);
        if (fclose(fp) == 0)
            genmap_buf_put(s->out, text, len);
        free(text);
    }
}

static void error(state *s, span line, unsigned long no, const char *at, const char *msg)
{
    diag_msg d = {.severity = DIAG_ERROR,
                  .file = s->o->file,
                  .line = no,
                  .col = (unsigned)(at - line.p) + 1,
                  .message = msg,
                  .source = line.p,
                  .source_len = line.len};

    if (strcmp(msg, "nested group?") == 0 && s->o->arg != NULL)
        d.pcp_file = s->o->arg; /* PCP names the shell's $1: empty for stdin */
    deliver(s, &d);
    s->errors++;
    s->stopped = s->pcp;
}

/* PCP's "unterminated group?", which names the last line read (after an
 * error too: PCP's END block runs after the exit); pmkit's the line that
 * opened the group. */
static void unterminated(state *s, unsigned long last)
{
    diag_msg d = {.severity = DIAG_ERROR,
                  .file = s->o->file,
                  .line = s->group_line,
                  .col = (unsigned)s->group_col + 1,
                  .message = "unterminated group?",
                  .source = s->group_src.p,
                  .source_len = s->group_src.len};

    d.pcp_line = last;
    if (!s->stopped)
        s->errors++;
    else if (s->o->diag != NULL)
        return; /* a follow-on: only in PCP's own output */
    deliver(s, &d);
}

/* ------------------------------------------------------------------ */
/* The line kinds. */

/* comment = blanks? "#" text: its words join the pending block. */
static void comment(state *s, const char *text, size_t len)
{
    size_t i = 0;

    if (s->ncomment++ > 0)
        put_str(&s->comment, "\n *");
    for (;;) {
        size_t start;
        while (i < len && blank(text[i]))
            i++;
        if (i == len)
            return;
        for (start = i; i < len && !blank(text[i]); i++)
            ;
        put_str(&s->comment, " ");
        put_commented(&s->comment, text + start, i - start);
    }
}

/* The pending comment lines: one as a one-line C comment, several as a
 * block with a " *" line each. */
static void flush_comment(state *s)
{
    if (s->ncomment == 0)
        return;
    put_str(s->out, s->ncomment == 1 ? "/*" : "/*\n *");
    genmap_buf_put(s->out, s->comment.data, s->comment.len);
    put_str(s->out, s->ncomment == 1 ? " */\n" : "\n */\n");
    s->comment.len = 0;
    s->ncomment = 0;
}

/* open = NAME "{" */
static void open_group(state *s, span line, unsigned long no, const words *ws)
{
    if (s->in_group) {
        error(s, line, no, ws->w[0].p, "nested group?");
        return;
    }
    put_str(s->out, "const char *");
    genmap_buf_put(s->out, ws->w[0].p, ws->w[0].len);
    put_str(s->out, "[] = {\n");
    s->in_group = 1;
    s->ord = 0;
    s->group_src = line;
    s->group_line = no;
    s->group_col = (size_t)(ws->w[0].p - line.p);
}

/* The check callback's verdict on one metric name; 0 if accepted. */
static int check(state *s, span line, unsigned long no, span metric)
{
    const char *msg;

    if (s->o->check == NULL)
        return 0;
    if (metric.len >= s->namecap) {
        char *n = realloc(s->name, metric.len + 1);
        if (n == NULL) {
            s->out->failed = 1;
            return 0;
        }
        s->name = n, s->namecap = metric.len + 1;
    }
    memcpy(s->name, metric.p, metric.len);
    s->name[metric.len] = '\0';
    if ((msg = s->o->check(s->o->check_ctx, s->name, metric.len)) == NULL)
        return 0;
    error(s, line, no, metric.p, msg);
    return -1;
}

/* Decimal digits of v at the end of buf[32]; returns where they start. */
static char *decimal(char *end, unsigned long v)
{
    do
        *--end = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    return end;
}

/* entry = METRIC SYMBOL: "#define SYMBOL<tab>ORD" and "<tab>"METRIC",". */
static void entry(state *s, span line, unsigned long no, const words *ws)
{
    char num[32], *d = decimal(num + sizeof(num), s->ord++);
    size_t nd = (size_t)(num + sizeof(num) - d);
    span metric = ws->w[0], sym = ws->w[1];
    char *p;

    if (check(s, line, no, metric) < 0 && s->stopped)
        return; /* PCP's form: the error ends the map */
    if (genmap_buf_reserve(s->out, sym.len + metric.len + nd + 16) < 0)
        return;
    p = s->out->data + s->out->len;
    memcpy(p, "#define ", 8), p += 8;
    memcpy(p, sym.p, sym.len), p += sym.len;
    *p++ = '\t';
    memcpy(p, d, nd), p += nd;
    memcpy(p, "\n\t\"", 3), p += 3;
    memcpy(p, metric.p, metric.len), p += metric.len;
    memcpy(p, "\",\n", 3), p += 3;
    s->out->len = (size_t)(p - s->out->data);
}

/* close = "}" */
static void close_group(state *s, span line, unsigned long no, const words *ws)
{
    if (!s->in_group) {
        error(s, line, no, ws->w[0].p, "no group to close");
        return;
    }
    put_str(s->out, "\n};\n\n");
    s->in_group = 0;
}

/* The offset of the first c in text[from..len), or len. */
static size_t find(const char *text, size_t len, size_t from, char c)
{
    const char *p = memchr(text + from, c, len - from);

    return p != NULL ? (size_t)(p - text) : len;
}

static void one_line(state *s, span line, unsigned long no)
{
    words ws;

    split(line.p, line.len, &ws);
    if (ws.n > 0 && ws.w[0].p[0] == '#') {
        const char *text = ws.w[0].p + 1;
        comment(s, text, (size_t)(line.p + line.len - text));
        return;
    }
    flush_comment(s);
    if (ws.n == 0) {
        genmap_buf_put(s->out, line.p, line.len);
        put_str(s->out, "\n");
    } else if (ws.n == 2 && is(ws.w[1], "{"))
        open_group(s, line, no, &ws);
    else if (ws.n == 2 && s->in_group)
        entry(s, line, no, &ws);
    else if (ws.n == 1 && is(ws.w[0], "}"))
        close_group(s, line, no, &ws);
    else
        error(s, line, no, ws.w[0].p, "syntax error");
}

long genmap_translate(const genmap_opts *o, const char *text, size_t len, genmap_buf *out)
{
    state s = {0};
    unsigned long no = 0;
    size_t pos = 0, lf = 0, cr = 0; /* the next LF and CR at or after pos, or len */

    s.o = o;
    s.out = out;
    if (len > 0) {
        lf = find(text, len, 0, '\n');
        cr = find(text, len, 0, '\r');
    }
    s.pcp = diag_form_resolve(o->form) == DIAG_FORM_PCP;
    while (pos < len && !s.stopped) {
        /* the line ends at the first LF or CR; CRLF is one line end */
        size_t end;
        span line;
        if (lf < pos)
            lf = find(text, len, pos, '\n');
        if (cr < pos)
            cr = find(text, len, pos, '\r');
        end = lf < cr ? lf : cr;
        line.p = text + pos;
        line.len = end - pos;
        pos = end + 1 + (end == cr && end + 1 < len && text[end + 1] == '\n');
        one_line(&s, line, ++no);
    }
    if (s.in_group)
        unterminated(&s, no); /* PCP's END block exits before its comments */
    else if (!s.stopped)
        flush_comment(&s);
    if (s.comment.failed)
        out->failed = 1;
    genmap_buf_free(&s.comment);
    free(s.name);
    return out->failed ? -ENOMEM : s.errors;
}

/* ------------------------------------------------------------------ */
/* The header. */

int genmap_header(genmap_buf *out, const char *prog, const char *input, const char *date)
{
    put_str(out, "/*\n * Performance Metrics Name Space Map\n * Built by ");
    put_commented(out, prog, strlen(prog));
    put_str(out, " from the file\n * ");
    put_commented(out, input, strlen(input));
    put_str(out, "\n * on ");
    put_commented(out, date, strlen(date));
    put_str(out, "\n *\n * Do not edit this file!\n */\n\n");
    return out->failed ? -ENOMEM : 0;
}

/* An integer number of seconds, as date +%s prints it: -?[0-9]+ that fits. */
static int parse_epoch(const char *s, time_t *t)
{
    long long v = 0;
    int neg = *s == '-';

    if (neg)
        s++;
    if (*s == '\0')
        return -EINVAL;
    for (; *s != '\0'; s++) {
        if (*s < '0' || *s > '9' || v > (0x7fffffffffffffffLL - 9) / 10)
            return -EINVAL;
        v = v * 10 + (*s - '0');
    }
    *t = (time_t)(neg ? -v : v);
    return (long long)*t == (neg ? -v : v) ? 0 : -EINVAL;
}

int genmap_date(const char *build_date, const char *epoch, time_t now, char **date)
{
    char buf[128];
    struct tm tm;
    time_t t;

    *date = NULL;
    if (build_date != NULL && build_date[0] != '\0') {
        *date = strdup(build_date);
        return *date != NULL ? 0 : -ENOMEM;
    }
    if (epoch != NULL && epoch[0] != '\0') {
        if (parse_epoch(epoch, &t) < 0 || gmtime_r(&t, &tm) == NULL ||
            strftime(buf, sizeof(buf), "%a %b %e %H:%M:%S UTC %Y", &tm) == 0)
            return -EINVAL;
    } else if (localtime_r(&now, &tm) == NULL ||
               strftime(buf, sizeof(buf), "%a %b %e %H:%M:%S %Z %Y", &tm) == 0)
        return -EINVAL;
    *date = strdup(buf);
    return *date != NULL ? 0 : -ENOMEM;
}
