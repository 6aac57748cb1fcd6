/*
 * metricspec.c - pmParseMetricSpec and pmFreeMetricSpec: "host:metric[i,...]",
 * "archive/metric[i,...]" and plain "metric[i,...]" into one malloc'd
 * pmMetricSpec.
 *
 * Grammar, as probed from Debian's libpcp 6.0.3 (tests/oracle/probe_metricspec.c,
 * metricspec_cases), with WS any isspace byte:
 *   spec    = WS* [ source ( ":" | "/" ) WS* ] metric WS* [ "[" insts "]" WS* ]
 * - The source is what lies before the LAST ':' or '/' that comes before the
 *   first '[' (escaped or not); '/' makes it an archive (isarch 1), ':' a
 *   host (isarch 0, or 2 for the host "@", the local context).  Its
 *   trailing WS is dropped, then backslash escapes are taken out.  With no
 *   source, isarch and source are the caller's (the pointer itself, not a
 *   copy: it must outlive the result).
 * - The metric ends at WS, '[' or the end; a backslash takes the next byte
 *   literally (a backslash at the very end stays); an unescaped ',' or ']'
 *   is an error.
 * - Instances are found in two passes.  The first finds the closing ']',
 *   skipping escaped bytes and toggling a quote state at every unescaped
 *   '"' anywhere.  The second splits what lies inside: WS, then tokens,
 *   each followed by any run of WS and commas.  A token that starts with
 *   '"' runs to the next unescaped '"' (quotes dropped); any other runs to
 *   WS or ',' (quotes kept).  Backslash escapes in both.  So "[,a]" is ""
 *   and "a", "[a,,b]" is "a" and "b", and "[a\"b \"c]" trips PCP's
 *   "botch" message, reproduced.
 * - Errors return PM_ERR_GENERIC with *errmsg (when errmsg is not NULL) a
 *   malloc'd copy of the string, a newline, a caret line and the reason.
 *   The caret line repeats each byte before the caret that is not
 *   printable ASCII (so tabs line up) and puts a space for the others.
 * pmkit differs only where PCP crashes: a NULL string or result pointer is
 * -EINVAL with a message (docs/compat.md).
 */
#include "cmdline.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The strings of a spec as they are parsed: one growing buffer of
 * NUL-terminated strings, each string's offset kept in order. */
typedef struct {
    char *buf;        /* the strings, back to back */
    size_t len;       /* bytes used in buf */
    size_t cap;       /* bytes allocated for buf */
    size_t *off;      /* offset in buf of each string: [0] source (or none), [1] metric, insts */
    size_t n;         /* strings kept */
    size_t offcap;    /* entries allocated for off */
    const char *spec; /* the whole input, for error messages */
    char **errmsg;    /* where an error message goes, or NULL */
} spec_parse;

static int is_ws(int c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');
}

/* Records the error WHY at byte AT of the input; returns PM_ERR_GENERIC. */
static int fail(spec_parse *sp, size_t at, const char *why)
{
    if (sp->errmsg != NULL)
        *sp->errmsg = pmkit_caret_msg(sp->spec, at, why, 1);
    return PM_ERR_GENERIC;
}

/* Room for N more bytes and one more string. */
static int reserve(spec_parse *sp, size_t n)
{
    if (sp->len + n > sp->cap) {
        size_t cap = (sp->len + n) * 2 + 64;
        char *b = realloc(sp->buf, cap);

        if (b == NULL)
            return -ENOMEM;
        sp->buf = b;
        sp->cap = cap;
    }
    if (sp->n == sp->offcap) {
        size_t cap = sp->offcap * 2 + 8;
        size_t *o = realloc(sp->off, cap * sizeof(*o));

        if (o == NULL)
            return -ENOMEM;
        sp->off = o;
        sp->offcap = cap;
    }
    return 0;
}

/* Keeps the bytes [S, E) with backslash escapes taken out (a backslash
 * that is the last byte stays); QUOTED stops at an unescaped '"' and
 * UNQUOTED at WS or ','.  Returns where it stopped (at most E). */
typedef enum { VERBATIM, QUOTED, UNQUOTED } copy_mode;

static const char *keep(spec_parse *sp, const char *s, const char *e, copy_mode mode, int *sts)
{
    char *out;

    if ((*sts = reserve(sp, (size_t)(e - s) + 1)) < 0)
        return e;
    out = sp->buf + sp->len;
    sp->off[sp->n++] = sp->len;
    while (s < e) {
        if (*s == '\\' && s + 1 < e) {
            *out++ = s[1];
            s += 2;
            continue;
        }
        if ((mode == QUOTED && *s == '"') || (mode == UNQUOTED && (is_ws(*s) || *s == ',')))
            break;
        *out++ = *s++;
    }
    *out++ = '\0';
    sp->len = (size_t)(out - sp->buf);
    return s;
}

/* The source, if any: sets *ISARCH and *HAS_SOURCE, returns where the
 * metric may start, or NULL after an error (*sts). */
static const char *parse_source(spec_parse *sp, const char *p, int *isarch, int *has_source,
                                int *sts)
{
    const char *q, *delim = NULL, *end;

    for (q = sp->spec; *q != '\0' && *q != '['; q++) {
        if (*q == ':' || *q == '/')
            delim = q;
    }
    *has_source = delim != NULL;
    if (delim == NULL)
        return p;
    for (end = delim; end > p && is_ws(end[-1]); end--)
        ;
    if (end == p) {
        *sts = fail(sp, (size_t)(p - sp->spec),
                    *delim == '/' ? "archive name expected" : "host name expected");
        return NULL;
    }
    if (*delim == '/')
        *isarch = 1;
    else
        *isarch = end - p == 1 && *p == '@' ? 2 : 0;
    keep(sp, p, end, VERBATIM, sts);
    if (*sts < 0)
        return NULL;
    for (p = delim + 1; is_ws(*p); p++)
        ;
    return p;
}

/* metric = ( "\" BYTE | BYTE but WS "[" "," "]" )+ ; returns its end or NULL. */
static const char *parse_metric(spec_parse *sp, const char *p, int *sts)
{
    const char *q = p;

    if (*p == '\0' || *p == '[') {
        *sts = fail(sp, (size_t)(p - sp->spec), "performance metric name expected");
        return NULL;
    }
    while (*q != '\0' && !is_ws(*q) && *q != '[') {
        if (*q == ',' || *q == ']') {
            *sts = fail(sp, (size_t)(q - sp->spec), "unexpected character in metric name");
            return NULL;
        }
        q += *q == '\\' && q[1] != '\0' ? 2 : 1;
    }
    keep(sp, p, q, VERBATIM, sts);
    return *sts < 0 ? NULL : q;
}

/* The ']' closing the list that starts at P, or NULL after an error. */
static const char *closing_bracket(spec_parse *sp, const char *p, int *sts)
{
    int quoted = 0;

    for (; *p != '\0'; p++) {
        if (*p == '\\' && p[1] != '\0')
            p++;
        else if (*p == '"')
            quoted = !quoted;
        else if (*p == ']' && !quoted)
            return p;
    }
    *sts = fail(sp, strlen(sp->spec), quoted ? "closing \" and ] expected" : "closing ] expected");
    return NULL;
}

/* insts = WS* ( token ( WS | "," )* )* up to CLOSE; 0 or an error. */
static int parse_insts(spec_parse *sp, const char *p, const char *close)
{
    int sts = 0;

    while (p < close && is_ws(*p))
        p++;
    while (p < close) {
        if (*p == '"') {
            p = keep(sp, p + 1, close, QUOTED, &sts);
            if (sts < 0)
                return sts;
            if (p == close)
                return fail(sp, (size_t)(close - sp->spec),
                            "closing \" expected (pmParseMetricSpec botch?)");
            p++;
        } else {
            p = keep(sp, p, close, UNQUOTED, &sts);
            if (sts < 0)
                return sts;
        }
        while (p < close && (is_ws(*p) || *p == ','))
            p++;
    }
    return 0;
}

/* The parsed strings as one block: the struct, its inst array, then the
 * strings (the caller's source pointer when the spec named none). */
static pmMetricSpec *build(const spec_parse *sp, int isarch, int has_source, char *source)
{
    size_t first = has_source ? 0 : 1; /* off[] index of the source, if kept */
    size_t ninst = sp->n - 2 + first;
    size_t head = offsetof(pmMetricSpec, inst) + (ninst > 1 ? ninst : 1) * sizeof(char *);
    pmMetricSpec *r = malloc(head + sp->len);
    char *strings;

    if (r == NULL)
        return NULL;
    strings = (char *)r + head;
    memcpy(strings, sp->buf, sp->len);
    r->isarch = isarch;
    r->source = has_source ? strings + sp->off[0] : source;
    r->metric = strings + sp->off[1 - first];
    r->ninst = (int)ninst;
    for (size_t i = 0; i < ninst; i++)
        r->inst[i] = strings + sp->off[2 - first + i];
    return r;
}

/* The parse proper, into SP's strings; 0 or an error. */
static int parse(spec_parse *sp, int *isarch, int *has_source)
{
    const char *p = sp->spec, *close;
    int sts = 0;

    while (is_ws(*p))
        p++;
    if ((p = parse_source(sp, p, isarch, has_source, &sts)) == NULL ||
        (p = parse_metric(sp, p, &sts)) == NULL)
        return sts;
    while (is_ws(*p))
        p++;
    if (*p == '[') {
        if ((close = closing_bracket(sp, p + 1, &sts)) == NULL)
            return sts;
        if ((sts = parse_insts(sp, p + 1, close)) < 0)
            return sts;
        for (p = close + 1; is_ws(*p); p++)
            ;
    }
    if (*p != '\0')
        return fail(sp, (size_t)(p - sp->spec), "unexpected extra characters");
    return 0;
}

int pmParseMetricSpec(const char *spec, int isarch, char *source, pmMetricSpec **rsltp,
                      char **errmsg)
{
    spec_parse sp = {.spec = spec, .errmsg = errmsg};
    int has_source = 0, sts;
    pmMetricSpec *r = NULL;

    if (spec == NULL || rsltp == NULL) { /* PCP dereferences them */
        if (errmsg != NULL)
            *errmsg = strdup("pmParseMetricSpec: NULL specification or result pointer\n");
        return -EINVAL;
    }
    if ((sts = parse(&sp, &isarch, &has_source)) == 0 &&
        (r = build(&sp, isarch, has_source, source)) == NULL)
        sts = -ENOMEM;
    free(sp.buf);
    free(sp.off);
    if (sts < 0)
        return sts;
    *rsltp = r;
    return 0;
}

void pmFreeMetricSpec(pmMetricSpec *spec)
{
    free(spec);
}
