/*
 * cpp.c - the preprocessor's line loop: read a line from the current
 * stream, blank its comments, dispatch control lines, substitute macros in
 * text lines, and write exactly one output line per input line (#include
 * and #shell lines are replaced by line markers and the nested text), so a
 * consumer keeps exact line numbers.
 *
 * Output goes through a 64 KiB buffer to the caller's sink; input is read
 * in chunks by cpp_stream.c.  Nothing is held per line beyond the current
 * one, so memory stays flat whatever the input size.
 *
 * Differences from PCP's pmcpp (docs/compat.md): comments do not cross file
 * boundaries, a last line without a newline is processed, errors do not
 * stop the run (each is reported, the result is still a failure).
 */
#include "cpp_int.h"
#include "input_limit.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define OUTBUF_SIZE (64 * 1024)

/* Character classes used by every scanner of the preprocessor. */
const unsigned char cpp_ctype[256] = {
    ['\t'] = CT_BLANK,
    [' '] = CT_BLANK,
#define D(c) [c] = CT_WORD | CT_ALNUM
#define L(c) [c] = CT_START | CT_WORD | CT_ALNUM
    D('0'),
    D('1'),
    D('2'),
    D('3'),
    D('4'),
    D('5'),
    D('6'),
    D('7'),
    D('8'),
    D('9'),
    L('a'),
    L('b'),
    L('c'),
    L('d'),
    L('e'),
    L('f'),
    L('g'),
    L('h'),
    L('i'),
    L('j'),
    L('k'),
    L('l'),
    L('m'),
    L('n'),
    L('o'),
    L('p'),
    L('q'),
    L('r'),
    L('s'),
    L('t'),
    L('u'),
    L('v'),
    L('w'),
    L('x'),
    L('y'),
    L('z'),
    L('A'),
    L('B'),
    L('C'),
    L('D'),
    L('E'),
    L('F'),
    L('G'),
    L('H'),
    L('I'),
    L('J'),
    L('K'),
    L('L'),
    L('M'),
    L('N'),
    L('O'),
    L('P'),
    L('Q'),
    L('R'),
    L('S'),
    L('T'),
    L('U'),
    L('V'),
    L('W'),
    L('X'),
    L('Y'),
    L('Z'),
    ['_'] = CT_START | CT_WORD,
#undef D
#undef L
};

static void flush(cpp_state *st)
{
    if (st->outlen == 0)
        return;
    if (st->sink_err == 0) {
        int sts = st->sink->write(st->sink->ctx, st->out, st->outlen);
        if (sts < 0)
            st->sink_err = sts;
    }
    st->outlen = 0;
}

void cpp_emit_slow(cpp_state *st, const char *data, size_t len)
{
    while (len > 0) {
        size_t room = st->outcap - st->outlen;
        size_t n = len < room ? len : room;
        memcpy(st->out + st->outlen, data, n);
        st->outlen += n;
        data += n;
        len -= n;
        if (st->outlen == st->outcap)
            flush(st);
    }
}

void cpp_emit_marker(cpp_state *st, unsigned long line, const char *name)
{
    char num[32];
    int n;

    if (st->opt->no_markers)
        return;
    st->stats.lines_out++;
    n = snprintf(num, sizeof(num), "# %lu \"", line);
    cpp_emit(st, num, (size_t)n);
    cpp_emit(st, name, strlen(name));
    cpp_emit(st, "\"\n", 2);
}

void cpp_report_as(cpp_state *st, const diag_msg *d)
{
    if (st->stopped)
        return; /* PCP's pmcpp has exited by now */
    if (d->severity == DIAG_ERROR)
        st->stats.errors++;
    else
        st->stats.warnings++;
    flush(st); /* output before the diagnostic, as PCP flushes stdout first */
    diag_emit(st->opt->diag, st->opt->diag_ctx, d, st->pcp ? DIAG_FORM_PCP : DIAG_FORM_RICH);
    if (st->pcp && d->severity == DIAG_ERROR)
        st->stopped = true;
}

void cpp_report(cpp_state *st, diag_severity sev, const char *file, unsigned long line, size_t col,
                const char *source, size_t srclen, const char *msg)
{
    diag_msg d = {.severity = sev,
                  .file = file,
                  .line = line,
                  .col = (unsigned)col,
                  .message = msg,
                  .source = source,
                  .source_len = srclen};

    d.dialect = DIAG_PCP_CPP;
    cpp_report_as(st, &d);
}

static void vreport(cpp_state *st, diag_severity sev, size_t col, const char *fmt, va_list ap)
{
    char msg[512];
    const char *file = st->diag_file;
    unsigned long line = st->diag_line;

    vsnprintf(msg, sizeof(msg), fmt, ap);
    if (file == NULL) {
        file = st->cur != NULL ? st->cur->name : "<stdin>";
        line = st->cur != NULL ? st->cur->line : 0;
    }
    cpp_report(st, sev, file, line, col, st->line, st->len, msg);
}

void cpp_error(cpp_state *st, size_t col, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vreport(st, DIAG_ERROR, col, fmt, ap);
    va_end(ap);
}

void cpp_warning(cpp_state *st, size_t col, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vreport(st, DIAG_WARNING, col, fmt, ap);
    va_end(ap);
}

bool cpp_active(const cpp_state *st)
{
    return st->nconds == 0 || st->conds[st->nconds - 1].active;
}

/* Control lines whose quoted arguments hide comment openers: #define
 * values and #shell commands ('...', "..."), #include names (also <...>).
 * PCP blanks "/ *" even there, which breaks them; docs/compat.md.
 * Returns 0 (not one), 1 (quotes) or 2 (quotes and angle brackets). */
static int quoted_directive(const cpp_state *st, const char *p, size_t len)
{
    static const char *const words[] = {"define", "shell", "include"};

    if (len < 2 || p[0] != st->ctrl)
        return 0;
    for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
        size_t n = strlen(words[i]);
        if (len >= n + 1 && memcmp(p + 1, words[i], n) == 0 &&
            (len == n + 1 || !cpp_is(p[1 + n], CT_WORD)))
            return i == 2 ? 2 : 1;
    }
    return 0;
}

/* The first comment opener at or after p on this line, else the line's
 * '\n'.  This and comment_close take lines of a stream buffer: each ends
 * with a '\n' that the scan may read past (cpp_scan.h). */
static inline char *comment_open(const char *p)
{
    while (*(p = cpp_scan_pair(p, '/', '\n')) == '/' && p[1] != '*')
        p++;
    return (char *)p;
}

/* Where the line at line (the current stream's) opens its first comment,
 * or its '\n': with -s no comment is stripped, so always the '\n'. */
static inline char *first_comment(const cpp_state *st, char *line)
{
    return st->opt->shell_style ? cpp_stream_line_end(st->cur, line) : comment_open(line);
}

/* Does a comment close at or after p on this line?  *at: just past its
 * star-slash if so, else the line's '\n'. */
static bool comment_close(char *p, char **at)
{
    for (;;) {
        p = (char *)cpp_scan_pair(p, '*', '\n');
        if (*p == '\n') {
            *at = p;
            return false;
        }
        if (p[1] == '/') {
            *at = p + 2;
            return true;
        }
        p++;
    }
}

/* Where the next comment opens at or after i (len if none) in the line
 * p[0..len), whose '\n' is p[len]; quotes as returned by quoted_directive. */
static size_t find_open(const char *p, size_t i, size_t len, int quotes)
{
    char q = 0;

    if (!quotes)
        return (size_t)(comment_open(p + i) - p);
    for (; i + 1 < len; i++) {
        if (q != 0) {
            if (p[i] == q)
                q = 0;
        } else if (p[i] == '"' || p[i] == '\'') {
            q = p[i];
        } else if (p[i] == '<' && quotes == 2) {
            q = '>';
        } else if (p[i] == '/' && p[i + 1] == '*') {
            return i;
        }
    }
    return len;
}

/* Where a line's text ends once comments are blanked: after the last
 * comment if text follows it (seg: where that comment closed), else where
 * the text before it ended; trailing white space goes too (PCP's rule). */
static size_t text_end(const char *p, size_t len, size_t text, size_t seg, bool in_comment)
{
    if (!in_comment && seg < len)
        text = len;
    while (text > 0 && cpp_space(p[text - 1]))
        text--;
    return text;
}

/* Blank every comment character of the current line (C style), PCP's way:
 * each character becomes a space and, if anything was blanked, trailing
 * white space goes too.  Comment state carries over to the next line.
 * Lines live in the stream's own buffer and are blanked in place. */
static void strip_comments(cpp_state *st)
{
    cpp_stream *s = st->cur;
    int quotes = s->in_comment ? 0 : quoted_directive(st, st->line, st->len);
    size_t i = 0, len = st->len, text = 0, seg = 0;
    char *p;

    if (!s->in_comment && (i = find_open(st->line, 0, len, quotes)) == len)
        return;
    p = st->line;
    while (i < len) {
        if (!s->in_comment) {
            i = find_open(p, i, len, quotes);
            if (i == len)
                break;
            if (i > seg)
                text = i; /* real text ends here, so far */
            s->in_comment = true;
            s->comment_line = s->line;
            s->comment_col = (unsigned)i + 1;
            p[i] = p[i + 1] = ' ';
            i += 2;
            continue;
        }
        char *close;
        bool closed = comment_close(p + i, &close);
        memset(p + i, ' ', (size_t)(close - (p + i)));
        if (!closed)
            break;
        s->in_comment = false;
        i = seg = (size_t)(close - p);
    }
    st->len = text_end(p, len, text, seg, s->in_comment);
}

static void text_line(cpp_state *st)
{
    st->stats.lines_out++;
    if (!cpp_active(st)) {
        cpp_emit(st, "\n", 1);
    } else if (st->macros.live == 0 && !(st->opt->trace && st->defined > 0)) {
        cpp_emit(st, st->line, st->len);
        cpp_emit(st, "\n", 1);
    } else {
        cpp_substitute(st, st->line, st->len);
    }
}

/* Rebuild the table of bytes fast_text has to stop at: '\n', '/' and (in
 * normal mode) the letters that start a macro name. */
static void build_hot(cpp_state *st)
{
    for (int c = 0; c < 256; c++)
        st->hot.in[c] = !st->opt->restricted && cpp_is(c, CT_START) && st->macros.first[c] > 0;
    st->hot.in['\n'] = 1;
    st->hot.in['/'] = !st->opt->shell_style;
    cpp_byteset_build(&st->hot, st->opt->bytewise);
    st->macros.changed = false;
}

/*
 * The fast path below is compiled twice, each copy with its scans inlined
 * into it (no call per scan): for CPUs with SSSE3, with the vector loop,
 * and for the rest, with the byte loop.  `wide` is a constant in each
 * copy: true only in the SSSE3 one, which fast_text uses when both of its
 * sets can be scanned that way.
 */
#define FAST_INLINE static inline __attribute__((always_inline))

/* The first byte at or after p that may be hot (st->hot has the last word,
 * so the line's '\n' always stops it).  Most stops are a byte or two
 * away, so those are looked at before the wide scan. */
FAST_INLINE const char *skip_cold(const cpp_state *st, const char *p, bool wide)
{
    if (st->hot.in[(unsigned char)p[0]])
        return p;
    if (st->hot.in[(unsigned char)p[1]])
        return p + 1;
    return cpp_scan_set_as(&st->hot, p + 2, wide);
}

/* Is p (a letter or '_') inside a word that started before it?  Words start
 * at a letter or '_'; digits before them are separators (PCP's rule). */
static bool mid_word(const char *line, const char *p)
{
    while (p > line && cpp_is(p[-1], CT_WORD)) {
        p--;
        if (cpp_is(*p, CT_START))
            return true;
    }
    return false;
}

/*
 * An active text line that starts outside a comment, the common case: one
 * pass over the line stopping only at its '\n', at comment openers and at
 * letters that could start a macro name; macros are substituted and
 * comments blanked in place.  The result is what strip_comments followed
 * by cpp_substitute would give.  Returns the line's '\n'.
 *
 * Input from *pending up to line is output not written yet (unchanged
 * lines before this one); an unchanged line only adds itself to it, so a
 * run of them is written with one copy.
 */
FAST_INLINE char *fast_line(cpp_state *st, char *line, const char **pending, bool wide)
{
    cpp_stream *s = st->cur;
    char *p = line, *end;
    const char *copy = *pending;
    size_t text = 0, seg = 0, len;
    bool blanked = false;

    if (st->opt->restricted) { /* #name and #{name}: comments first, then macros */
        /* nothing is pending: every line of the run came this way */
        end = cpp_stream_line_end(s, line);
        st->line = line;
        st->len = (size_t)(end - line);
        if (!st->opt->shell_style)
            strip_comments(st);
        cpp_substitute(st, st->line, st->len);
        *pending = end + 1;
        return end;
    }
    if (st->macros.live == 0) { /* no words to look at: go straight to the first comment */
        p = first_comment(st, line);
        if (*p == '\n')
            return p; /* unchanged: the line and its newline stay pending */
    }
    for (;;) {
        p = (char *)skip_cold(st, p, wide);
        if (*p == '\n') {
            end = p;
            break;
        }
        if (*p == '/') {
            size_t i = (size_t)(p - line);
            char *q;
            if (p[1] != '*') {
                p++;
                continue;
            }
            if (i > seg)
                text = i;
            blanked = true;
            s->comment_line = s->line;
            s->comment_col = (unsigned)i + 1;
            if (!comment_close(p + 2, &q)) { /* open at the end of the line */
                memset(p, ' ', (size_t)(q - p));
                end = q;
                s->in_comment = true;
                break;
            }
            memset(p, ' ', (size_t)(q - p));
            p = q;
            seg = (size_t)(q - line);
            continue;
        }
        const char *w = p++;
        if (cpp_is(*p, CT_WORD))
            p = (char *)cpp_scan_set_as(&st->wordend, p + 1, wide);
        if (!mid_word(line, w) && cpp_macro_maybe(&st->macros, w, (size_t)(p - w)))
            cpp_substitute_hashed(st, &copy, w, p, cpp_hash_name(w, (size_t)(p - w)));
    }
    len = (size_t)(end - line);
    if (!blanked) {
        *pending = copy; /* the rest of the line and its newline stay pending */
        return end;
    }
    text = text_end(line, len, text, seg, s->in_comment);
    cpp_emit(st, copy, (size_t)(line + text - copy));
    cpp_emit(st, "\n", 1);
    *pending = end + 1;
    return end;
}

/* Active text lines outside comments, from line on, for as long as they
 * come; returns where the next line to process starts. */
FAST_INLINE char *fast_lines(cpp_state *st, char *line, bool wide)
{
    cpp_stream *s = st->cur;
    const char *limit = s->buf + s->complete;
    const char *pending = line;

    do { /* no directive can come between these lines, so the state holds */
        st->stats.lines_in++;
        st->stats.lines_out++;
        s->line++;
        line = fast_line(st, line, &pending, wide) + 1;
    } while (line < limit && *line != st->ctrl && !s->in_comment);
    cpp_emit(st, pending, (size_t)(line - pending));
    return line;
}

#ifdef CPP_SCAN_X86
__attribute__((target("ssse3"), noinline)) static char *fast_lines_ssse3(cpp_state *st, char *line)
{
    return fast_lines(st, line, true);
}
#endif

__attribute__((noinline)) static char *fast_lines_plain(cpp_state *st, char *line)
{
    return fast_lines(st, line, false);
}

static char *fast_text(cpp_state *st, char *line)
{
    if (st->macros.changed)
        build_hot(st);
#ifdef CPP_SCAN_X86
    if (st->hot.wide && st->wordend.wide)
        return fast_lines_ssse3(st, line);
#endif
    return fast_lines_plain(st, line);
}

static void process_line(cpp_state *st, char *line, size_t len)
{
    cpp_stream *s = st->cur;

    st->stats.lines_in++;
    s->line++;
    st->line = line;
    st->len = len;
    if (!st->opt->shell_style && (s->in_comment || memchr(line, '/', len) != NULL))
        strip_comments(st);
    if (s->in_comment && st->len == 0) {
        st->stats.lines_out++;
        cpp_emit(st, "\n", 1);
        return;
    }
    if (st->len > 0 && st->line[0] == st->ctrl && cpp_directive(st))
        return;
    text_line(st);
}

void cpp_trace_read(cpp_state *st, size_t len)
{
    while (len + 1 > st->ibuf) { /* PCP's fgets needs room for the NUL too */
        st->ibuf *= 2;
        fprintf(stderr, "<<doubled ibuf[] to %zu chars\n", st->ibuf);
    }
}

void cpp_trace_summary(cpp_state *st)
{
    fprintf(stderr, "<<lines: in %lu out %lu (modified %lu) substitutions: %lu\n",
            st->stats.lines_in, st->stats.lines_out, st->modified, st->nsubst);
}

/* Reading the current stream failed: the rest of it is lost.  A line
 * over the input limit has no PCP counterpart (PCP's pmcpp grows until
 * malloc fails): the rich form in both. */
static void read_error(cpp_state *st, cpp_stream *s, int err)
{
    char msg[160];
    diag_msg d = {.severity = DIAG_ERROR, .file = s->name, .line = s->line + 1, .message = msg};

    st->line = NULL, st->len = 0;
    if (err != CPP_ELONGLINE) {
        cpp_error(st, 0, "%s", strerror(-err));
        return;
    }
    snprintf(msg, sizeof(msg), "line longer than the input limit (%zu bytes, %s)",
             pmkit_input_limit(), PMKIT_INPUT_LIMIT_ENV);
    d.dialect = DIAG_PCP_NONE;
    cpp_report_as(st, &d);
}

/* The current stream is exhausted: close it and go back to its parent. */
static void end_of_stream(cpp_state *st)
{
    cpp_stream *s = st->cur, *parent = s->parent;

    if (s->in_comment) {
        char msg[96];
        diag_msg d = {.severity = DIAG_ERROR,
                      .file = s->name,
                      .line = s->comment_line,
                      .col = s->comment_col,
                      .message = msg,
                      .source = NULL,
                      .source_len = 0};
        snprintf(msg, sizeof(msg), "Comment at line %lu not terminated before end of file",
                 s->comment_line);
        d.dialect = DIAG_PCP_CPP;
        d.pcp_line = DIAG_NO_LINE; /* PCP: "pmcpp: FILE:", at the end of the input */
        cpp_report_as(st, &d);
    }
    cpp_stream_close(st, s);
    st->cur = parent;
    if (parent != NULL) {
        st->depth--;
        cpp_emit_marker(st, parent->line + 1, parent->name);
    }
}

/* Report every conditional group still open at the end of the input. */
static void unclosed_groups(cpp_state *st)
{
    while (st->nconds > 0) {
        cpp_cond *c = &st->conds[--st->nconds];
        char msg[128];
        if (c->kind == COND_IF)
            snprintf(msg, sizeof(msg), "End of input and no matching %cendif for %cif at line %lu",
                     st->ctrl, st->ctrl, c->line);
        else
            snprintf(msg, sizeof(msg),
                     "End of input and no matching %cendif for %cifdef or %cifndef at line %lu",
                     st->ctrl, st->ctrl, st->ctrl, c->line);
        diag_msg d = {.severity = DIAG_ERROR,
                      .file = c->file,
                      .line = c->line,
                      .col = 1,
                      .message = msg,
                      .source = NULL,
                      .source_len = 0};
        d.dialect = DIAG_PCP_CPP;
        d.pcp_file = st->top_name; /* PCP names the input it was reading */
        d.pcp_line = DIAG_NO_LINE;
        cpp_report_as(st, &d);
    }
}

static void state_init(cpp_state *st, const cpp_options *opt, cpp_sink *out)
{
    memset(st, 0, sizeof(*st));
    st->opt = opt;
    st->ctrl = opt->shell_style ? '%' : '#';
    st->pcp = diag_form_resolve(opt->form) == DIAG_FORM_PCP;
    st->ibuf = 256; /* PCP's first line buffer, for -d */
    st->sink = out;
    st->outcap = OUTBUF_SIZE;
    st->out = malloc(st->outcap + CPP_OUT_SLACK);
    cpp_macros_init(&st->macros);
    st->macros.changed = true; /* build the hot table before the first line */
    for (int c = 0; c < 256; c++)
        st->wordend.in[c] = !cpp_is(c, CT_WORD);
    cpp_byteset_build(&st->wordend, opt->bytewise);
    if (opt->pmns_dir != NULL)
        st->pmns_dir = strdup(opt->pmns_dir);
}

static void state_free(cpp_state *st)
{
    while (st->cur != NULL) {
        cpp_stream *parent = st->cur->parent;
        cpp_stream_close(st, st->cur);
        st->cur = parent;
    }
    for (size_t i = 0; i < st->nnames; i++)
        free(st->names[i]);
    free(st->names);
    free(st->conds);
    cpp_macros_free(&st->macros);
    free(st->out);
    free(st->topdir);
    free(st->pmns_dir);
}

/* A line whose output is its newline alone, with nothing else to do: one
 * that starts inside a comment and does not close it, or a text line
 * outside a comment that opens none (run() calls this only once the line
 * is known not to be active text).  Its '\n', else NULL. */
static char *newline_only(const cpp_state *st, char *line)
{
    char *p;

    if (st->cur->in_comment)
        return comment_close(line, &p) ? NULL : p;
    if (line[0] == st->ctrl)
        return NULL;
    p = first_comment(st, line);
    return *p == '\n' ? p : NULL;
}

static int run(cpp_state *st, cpp_stream *top, cpp_stats *stats)
{
    int err;

    st->top_name = top->name;
    cpp_emit_marker(st, 1, top->name);
    st->cur = top;
    while (st->cur != NULL && !st->stopped && st->sink_err == 0) { /* a failed sink stops it */
        cpp_stream *s = st->cur;
        char *line = cpp_stream_peek(s, &err), *nl;
        if (line == NULL) {
            if (err < 0)
                read_error(st, s, err);
            end_of_stream(st);
            continue;
        }
        if (st->opt->trace)
            cpp_trace_read(st, (size_t)(cpp_stream_line_end(s, line) - line) + 1);
        if (!s->in_comment && line[0] != st->ctrl && cpp_active(st) && !st->opt->trace) {
            cpp_stream_advance(s, fast_text(st, line));
        } else if (!st->opt->trace && (nl = newline_only(st, line)) != NULL) {
            st->stats.lines_in++; /* skipped text or all comment: only the newline is left */
            st->stats.lines_out++;
            s->line++;
            cpp_stream_advance(s, nl + 1);
            cpp_emit(st, "\n", 1);
        } else {
            nl = cpp_stream_line_end(s, line);
            cpp_stream_advance(s, nl + 1);
            process_line(st, line, (size_t)(nl - line));
        }
    }
    if (st->stopped)
        st->outlen = 0; /* what follows the error: PCP's pmcpp has exited */
    if (st->sink_err == 0)
        unclosed_groups(st);
    if (st->opt->trace && !st->stopped && st->stats.errors == 0)
        cpp_trace_summary(st); /* before the output, as PCP's exit flushes stdout */
    flush(st);
    if (stats != NULL)
        *stats = st->stats;
    if (st->sink_err < 0)
        return st->sink_err;
    return st->stats.errors > 0 ? -1 : 0;
}

/* The directory part of path as dirname(3) spells it. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *d;

    if (slash == NULL)
        return strdup(".");
    while (slash > path && slash[-1] == '/')
        slash--;
    if (slash == path)
        return strdup("/");
    d = malloc((size_t)(slash - path) + 1);
    if (d != NULL) {
        memcpy(d, path, (size_t)(slash - path));
        d[slash - path] = '\0';
    }
    return d;
}

int cpp_run_file(const cpp_options *opt, const char *path, cpp_sink *out, cpp_stats *stats)
{
    cpp_state st;
    cpp_stream *top;
    int fd = 0, sts;

    state_init(&st, opt, out);
    cpp_command_line_macros(&st); /* as PCP, while reading the options */
    if (st.stopped) {
        if (stats != NULL)
            *stats = st.stats;
        state_free(&st);
        return -1;
    }
    if (path != NULL && cpp_open_input(path, &fd) < 0) {
        char msg[256];
        snprintf(msg, sizeof(msg), "%s", strerror(errno));
        cpp_report(&st, DIAG_ERROR, path, 0, 0, NULL, 0, msg);
        if (stats != NULL)
            *stats = st.stats;
        state_free(&st);
        return -1;
    }
    top = cpp_stream_file(path, path != NULL ? path : "<stdin>", fd);
    if (top == NULL || st.out == NULL) {
        if (top != NULL)
            cpp_stream_close(&st, top);
        else if (path != NULL)
            close(fd);
        state_free(&st);
        return -ENOMEM;
    }
    if (path != NULL)
        st.topdir = dir_of(path);
    if (path != NULL && opt->dependency != NULL)
        opt->dependency(opt->dependency_ctx, path);
    sts = run(&st, top, stats);
    state_free(&st);
    return sts;
}

int cpp_run_buffer(const cpp_options *opt, const char *name, const char *text, size_t len,
                   cpp_sink *out, cpp_stats *stats)
{
    cpp_state st;
    cpp_stream *top;
    int sts;

    state_init(&st, opt, out);
    cpp_command_line_macros(&st);
    top = cpp_stream_memory(name, text, len);
    if (top == NULL || st.out == NULL) {
        if (top != NULL)
            cpp_stream_close(&st, top);
        state_free(&st);
        return -ENOMEM;
    }
    sts = run(&st, top, stats);
    state_free(&st);
    return sts;
}
