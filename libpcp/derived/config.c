/*
 * config.c - derived metrics from files (pmLoadDerivedConfig) and the
 * registry's start: the anonymous metrics event.flags and event.missed,
 * then $PCP_DERIVED_CONFIG (or $PCP_VAR_DIR/config/derived when it is not
 * set), loaded the first time the derived metrics are consulted, as PCP
 * does.
 *
 * A path is a ':' separated list of files and directories; a directory
 * is read recursively, in the order the system lists it (PCP's order).
 * A file holds lines:
 *   # comment                 a '#' in the first column
 *   NAME = EXPRESSION         a global derived metric (pmRegisterDerived)
 *   NAME(ATTR) = VALUE        ATTR oneline or helptext of a metric above;
 *                             VALUE to the end of the line, or quoted with
 *                             ' or " over lines, \x giving x and \ before
 *                             a newline joining the lines
 * Blanks around the parts are ignored, and blank lines.  Every problem is
 * reported with pmprintf in PCP's words and the line skipped; the answer
 * is the number of metrics registered.  Unlike PCP, a last line with no
 * newline is read (docs/compat.md).
 */
#include "derived_int.h"
#include "registry.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A file being read: its text, where we are, its name and line. */
typedef struct cfg {
    const char *file;
    const char *p, *end;
    int line;
    int count; /* metrics registered */
} cfg;

static void report(const cfg *c, int line, const char *what, const char *text, size_t textlen)
{
    pmprintf("[%s:%d] %s\n", c->file, line, what);
    if (text != NULL)
        pmprintf("%.*s\n", (int)textlen, text);
}

/* PCP's names: components of [A-Za-z][A-Za-z0-9_]* joined by dots. */
static int legal_name(const char *s, size_t n)
{
    size_t i = 0;

    while (i < n) {
        if (!isascii((unsigned char)s[i]) || !isalpha((unsigned char)s[i]))
            return 0;
        while (i < n && isascii((unsigned char)s[i]) &&
               (isalnum((unsigned char)s[i]) || s[i] == '_'))
            i++;
        if (i == n)
            return 1;
        if (s[i] != '.' || i + 1 == n)
            return 0;
        i++;
    }
    return 0;
}

static void trim(const char **s, const char **e)
{
    while (*s < *e && isspace((unsigned char)**s))
        (*s)++;
    while (*e > *s && isspace((unsigned char)(*e)[-1]))
        (*e)--;
}

/* The caret line under expr (len bytes) at offset at: tabs kept, blanks
 * elsewhere, padded to the expression's length. */
static void report_syntax(const cfg *c, int line, const char *name, const char *expr, size_t len,
                          long at, const char *why)
{
    char *caret = malloc(len + 2);

    pmprintf("[%s:%d] Error: pmRegisterDerived(%s, ...) syntax error\n", c->file, line, name);
    pmprintf("%.*s\n", (int)len, expr);
    if (caret != NULL) {
        size_t n = 0;
        for (; n < len || (long)n <= at; n++)
            caret[n] = (long)n == at ? '^' : (n < len && expr[n] == '\t') ? '\t' : ' ';
        caret[n] = '\0';
        pmprintf("%s\n", caret);
        free(caret);
    }
    if (why != NULL)
        pmprintf("%s\n", why);
}

/* NAME = EXPRESSION: the text after '=' is expr..eol, the line s..eol. */
static void define(cfg *c, int line, const char *name, const char *expr, const char *eol,
                   const char *s)
{
    size_t len = (size_t)(eol - expr), skip = 0;
    const char *ts = expr, *te = eol;
    long at;

    trim(&ts, &te);
    if (ts == te) { /* blanks alone are PCP's "missing", not a syntax error */
        report(c, line, "Error: pmLoadDerivedConfig: expression missing", s, (size_t)(eol - s));
        return;
    }
    char *text = malloc(len + 1);
    if (text == NULL)
        return;
    memcpy(text, expr, len);
    text[len] = '\0';
    while (skip < len && isspace((unsigned char)text[skip]))
        skip++;
    int sts = dm_register_global(name, text + skip, &at);
    if (sts == 0)
        c->count++;
    else if (sts == PM_ERR_BADDERIVE)
        report_syntax(c, line, name, text, len, at + (long)skip, pmDerivedErrStr());
    free(text);
}

/*
 * An attribute's value from v (after the '=' and blanks): quoted, over
 * lines, or to the end of the line.  The value (malloc'd) or NULL after
 * reporting why; c->p moves past what was read.
 */
static char *attribute_value(cfg *c, int line, const char *v, const char *eol, const char *whole,
                             size_t wlen)
{
    char *val;

    if (v == eol) {
        report(c, line, "Error: pmLoadDerivedConfig: attribute value missing", whole, wlen);
        return NULL;
    }
    if (*v != '\'' && *v != '"') /* to the end of the line, trailing blanks kept (PCP's) */
        return strndup(v, (size_t)(eol - v));
    char quote = *v++;
    size_t n = 0;
    if ((val = malloc((size_t)(c->end - v) + 1)) == NULL)
        return NULL;
    while (v < c->end && *v != quote) {
        if (*v == '\\' && v + 1 < c->end) {
            v++;
            if (*v == '\n') {
                c->line++;
                v++;
                continue;
            }
        } else if (*v == '\n') {
            c->line++;
        }
        val[n++] = *v++;
    }
    val[n] = '\0';
    if (v >= c->end) {
        char what[128];
        snprintf(what, sizeof(what),
                 "Error: pmLoadDerivedConfig: missing termination (%c) for value", quote);
        report(c, line, what, NULL, 0);
        free(val);
        c->p = c->end;
        return NULL;
    }
    const char *rest = ++v, *e = memchr(rest, '\n', (size_t)(c->end - rest));
    e = e != NULL ? e : c->end;
    c->p = e;
    trim(&rest, &e);
    if (rest < e) {
        pmprintf("[%s:%d] Warning: pmLoadDerivedConfig: extra text (%.*s) after attribute value "
                 "will be ignored\n",
                 c->file, c->line, (int)(e - rest), rest);
    }
    return val;
}

/* NAME(ATTR) = VALUE */
static void attribute(cfg *c, int line, const char *name, const char *attr, size_t alen,
                      const char *v, const char *eol, const char *whole, size_t wlen)
{
    size_t wn = strlen(name) + alen + 128;
    char *what = malloc(wn);
    int help;

    if (what == NULL)
        return;

    if (alen == 7 && memcmp(attr, "oneline", 7) == 0)
        help = 0;
    else if (alen == 8 && memcmp(attr, "helptext", 8) == 0)
        help = 1;
    else
        help = -1;
    while (v < eol && isspace((unsigned char)*v))
        v++;
    char *val = attribute_value(c, line, v, eol, whole, wlen);
    if (val == NULL) {
        free(what);
        return;
    }
    int sts = help < 0 ? -1 : dm_set_help(name, help, val);
    if (sts == PM_ERR_NAME)
        snprintf(
            what, wn,
            "Error: pmLoadDerivedConfig: cannot set attribute, derived metric (%s) not defined",
            name);
    else if (help < 0)
        snprintf(what, wn,
                 "Error: pmLoadDerivedConfig: attribute (%.*s) is unknown for metric (%s)",
                 (int)alen, attr, name);
    else if (sts == -EEXIST)
        snprintf(what, wn,
                 "Error: pmLoadDerivedConfig: duplicate value for attribute (%.*s) of metric (%s)",
                 (int)alen, attr, name);
    if (sts < 0 && sts != -ENOMEM)
        report(c, line, what, whole, wlen);
    free(what);
    free(val);
}

/* One line (or the lines of a quoted value) from c->p. */
static void one_line(cfg *c)
{
    const char *s = c->p, *eol = memchr(s, '\n', (size_t)(c->end - s));
    int line = ++c->line;

    eol = eol != NULL ? eol : c->end;
    c->p = eol;
    const char *ts = s, *te = eol;
    trim(&ts, &te);
    if (ts == te || *s == '#')
        return;
    const char *eq = memchr(s, '=', (size_t)(eol - s));
    if (eq == NULL) {
        report(c, line, "Error: pmLoadDerivedConfig: missing ``='' after derived metric name", s,
               (size_t)(eol - s));
        return;
    }
    const char *ns = s, *ne = eq;
    trim(&ns, &ne);
    if (ns == ne) {
        report(c, line, "Error: pmLoadDerivedConfig: derived metric name missing", s,
               (size_t)(eol - s));
        return;
    }
    const char *paren = memchr(ns, '(', (size_t)(ne - ns));
    char *name;
    if (paren == NULL) {
        if (!legal_name(ns, (size_t)(ne - ns))) {
            pmprintf("[%s:%d] Error: pmLoadDerivedConfig: illegal derived metric name (%.*s)\n",
                     c->file, line, (int)(ne - ns), ns);
            return;
        }
        if ((name = strndup(ns, (size_t)(ne - ns))) != NULL)
            define(c, line, name, eq + 1, eol, s);
        free(name);
        return;
    }
    const char *close = memchr(paren, ')', (size_t)(ne - paren));
    if (close == NULL) {
        report(c, line, "Error: pmLoadDerivedConfig: missing ')' after attribute", s,
               (size_t)(eol - s));
        return;
    }
    const char *as = paren + 1, *ae = close, *me = paren;
    trim(&as, &ae);
    trim(&ns, &me);
    if (as == ae) {
        report(c, line, "Error: pmLoadDerivedConfig: attribute name missing", s, (size_t)(eol - s));
        return;
    }
    if ((name = strndup(ns, (size_t)(me - ns))) != NULL)
        attribute(c, line, name, as, (size_t)(ae - as), eq + 1, eol, s, (size_t)(eol - s));
    free(name);
}

/* One file: the number of metrics it registered, or -errno. */
static int load_file(const char *path)
{
    FILE *f = fopen(path, "r");
    char *buf = NULL;
    size_t len = 0, cap = 0, n;

    if (f == NULL)
        return -errno;
    do {
        if (len == cap) {
            char *b = realloc(buf, cap = cap ? cap * 2 : 8192);
            if (b == NULL) {
                free(buf);
                fclose(f);
                return -ENOMEM;
            }
            buf = b;
        }
        n = fread(buf + len, 1, cap - len, f);
        len += n;
    } while (n > 0);
    fclose(f);
    cfg c = {path, buf, buf + len, 0, 0};
    while (c.p < c.end) {
        one_line(&c);
        if (c.p < c.end)
            c.p++; /* the newline */
    }
    pmflush();
    free(buf);
    return c.count;
}

static int load_path(const char *path);

/* Everything below a directory, in the order readdir gives. */
static int load_dir(const char *path)
{
    DIR *d = opendir(path);
    struct dirent *e;
    int count = 0;

    if (d == NULL)
        return -errno;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        size_t n = strlen(path) + strlen(e->d_name) + 2;
        char *sub = malloc(n);
        if (sub == NULL)
            break;
        snprintf(sub, n, "%s/%s", path, e->d_name);
        int sts = load_path(sub);
        if (sts > 0)
            count += sts;
        free(sub);
    }
    closedir(d);
    return count;
}

static int load_path(const char *path)
{
    struct stat st;

    if (stat(path, &st) < 0)
        return -errno;
    if (S_ISDIR(st.st_mode))
        return load_dir(path);
    if (S_ISREG(st.st_mode))
        return load_file(path);
    return 0;
}

int dm_load_config(const char *path)
{
    const char *s = path;
    int count = 0;

    while (*s != '\0') {
        const char *e = strchr(s, ':');
        size_t n = e != NULL ? (size_t)(e - s) : strlen(s);
        char *one = strndup(s, n);
        if (one == NULL)
            return -ENOMEM;
        int sts = n > 0 ? load_path(one) : 0;
        free(one);
        if (sts < 0)
            return sts;
        count += sts;
        s += n;
        if (*s == ':')
            s++;
    }
    return count;
}

int pmLoadDerivedConfig(const char *path)
{
    dm_start();
    return dm_load_config(path);
}
