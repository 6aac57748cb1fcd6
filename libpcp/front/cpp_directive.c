/*
 * cpp_directive.c - control lines: #define, #undef, #ifdef, #ifndef, #if,
 * #elif, #else, #endif, #include, #shell, #error, #warning (with '%' for
 * '#' under -s), and the -D / -U options.
 *
 * A directive is the control character in column 1 followed by one of
 * those words as a whole word; anything else is an ordinary text line, as
 * in PCP.  PCP's message texts are kept; errors are reported and the run
 * goes on.  Conditionals nest; an #ifdef group without #elif keeps PCP's
 * rule that every #else flips it, groups with #if or #elif follow C.
 *
 * Not here: macro substitution (cpp_macro.c), #if arithmetic (cpp_expr.c).
 */
#include "cpp_int.h"
#include "cpp_keywords.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t skip_blanks(const cpp_state *st, size_t i)
{
    while (i < st->len && cpp_is(st->line[i], CT_BLANK))
        i++;
    return i;
}

/* A macro name at line[*i]: it must be followed by white space or the end. */
static int parse_name(cpp_state *st, size_t *i, const char **name, size_t *n)
{
    const char *p = st->line;
    size_t j = *i, k;

    if (j >= st->len || cpp_space(p[j])) {
        cpp_error(st, j + 1, "Missing macro name");
        return -1;
    }
    if (!cpp_is(p[j], CT_START)) {
        cpp_error(st, j + 1, "Illegal character in macro name");
        return -1;
    }
    for (k = j + 1; k < st->len && cpp_is(p[k], CT_WORD); k++)
        ;
    if (k < st->len && !cpp_space(p[k])) {
        cpp_error(st, k + 1, "Illegal character in macro name");
        return -1;
    }
    *name = p + j;
    *n = k - j;
    *i = k;
    return 0;
}

/* Only white space may follow position i. */
static int expect_end(cpp_state *st, size_t i, const char *what)
{
    while (i < st->len && cpp_space(st->line[i]))
        i++;
    if (i == st->len)
        return 0;
    cpp_error(st, i + 1, "Unexpected extra text in %s", what);
    return -1;
}

/* The value of a #define at line[*i]: empty, one word, or quoted strings
 * ('...' or "..."); adjacent quoted strings are joined, so a value can hold
 * both quote characters (PCP has no way to; docs/compat.md).  Returns a
 * malloc'd copy, or NULL after reporting an error. */
static char *parse_value(cpp_state *st, size_t *i, size_t *vlen)
{
    const char *p = st->line;
    size_t j = skip_blanks(st, *i), k;
    char *v;

    if (j < st->len && (p[j] == '"' || p[j] == '\'')) {
        if ((v = malloc(st->len + 1)) == NULL)
            return NULL;
        *vlen = 0;
        while (j < st->len && (p[j] == '"' || p[j] == '\'')) {
            const char *close = memchr(p + j + 1, p[j], st->len - j - 1);
            if (close == NULL) {
                cpp_error(st, j + 1, "Unterminated value string in %cdefine", st->ctrl);
                free(v);
                return NULL;
            }
            k = (size_t)(close - p);
            memcpy(v + *vlen, p + j + 1, k - j - 1);
            *vlen += k - j - 1;
            j = k + 1;
        }
    } else {
        for (k = j; k < st->len && !cpp_space(p[k]); k++)
            ;
        if ((v = malloc(k - j + 1)) == NULL)
            return NULL;
        memcpy(v, p + j, k - j);
        *vlen = k - j;
        j = k;
    }
    v[*vlen] = '\0';
    *i = j;
    return v;
}

static void do_define(cpp_state *st, size_t i)
{
    const char *name;
    size_t n, vlen, at;
    char *value;

    if (parse_name(st, &i, &name, &n) < 0)
        return;
    at = (size_t)(name - st->line) + 1;
    if ((value = parse_value(st, &i, &vlen)) == NULL)
        return;
    if (expect_end(st, i, "a control line") == 0 && cpp_active(st)) {
        if (!cpp_macro_define(&st->macros, name, n, value, vlen)) {
            cpp_error(st, at, "Macro redefinition");
        } else {
            st->defined++;
            if (st->opt->trace)
                fprintf(stderr, "<<macro %.*s=\"%s\"\n", (int)n, name, value);
        }
    }
    free(value);
}

static void do_undef(cpp_state *st, size_t i)
{
    const char *name;
    size_t n;

    if (parse_name(st, &i, &name, &n) == 0 && expect_end(st, i, "a control line") == 0 &&
        cpp_active(st))
        cpp_macro_undef(&st->macros, name, n);
}

static void push_cond(cpp_state *st, cpp_cond_kind kind, bool value)
{
    cpp_cond *c;
    bool parent = cpp_active(st);

    if (st->nconds == st->condcap) {
        size_t cap = st->condcap ? st->condcap * 2 : 16;
        cpp_cond *conds = realloc(st->conds, cap * sizeof(*conds));
        if (conds == NULL) {
            cpp_error(st, 0, "Out of memory");
            return;
        }
        st->conds = conds;
        st->condcap = cap;
    }
    c = &st->conds[st->nconds++];
    memset(c, 0, sizeof(*c));
    c->kind = kind;
    c->file = st->cur->name;
    c->line = st->cur->line;
    c->parent_active = parent;
    c->branch = c->taken = parent && value;
    c->active = parent && value;
}

static void do_ifdef(cpp_state *st, size_t i, bool want_defined)
{
    const char *name;
    size_t n;
    bool value = false;

    if (parse_name(st, &i, &name, &n) == 0 && expect_end(st, i, "a control line") == 0)
        value = (cpp_macro_find(&st->macros, name, n) != NULL) == want_defined;
    push_cond(st, want_defined ? COND_IFDEF : COND_IFNDEF, value);
}

static void do_if(cpp_state *st, size_t i)
{
    bool value = false;

    if (cpp_active(st) && cpp_expr_eval(st, st->line + i, st->len - i, i, &value) < 0)
        value = false;
    push_cond(st, COND_IF, value);
}

/* The innermost open group, or NULL after reporting `directive` as stray. */
static cpp_cond *open_group(cpp_state *st, const char *directive)
{
    if (st->nconds > 0)
        return &st->conds[st->nconds - 1];
    if (strcmp(directive, "elif") == 0)
        cpp_error(st, 1, "%celif without %cif", st->ctrl, st->ctrl);
    else
        cpp_error(st, 1, "No matching %cifdef or %cifndef for %c%s", st->ctrl, st->ctrl, st->ctrl,
                  directive);
    return NULL;
}

static void do_elif(cpp_state *st, size_t i)
{
    cpp_cond *c = open_group(st, "elif");
    bool value = false;

    if (c == NULL)
        return;
    if (c->seen_else)
        cpp_error(st, 1, "%celif after %celse", st->ctrl, st->ctrl);
    c->seen_elif = true;
    if (c->parent_active && !c->taken &&
        cpp_expr_eval(st, st->line + i, st->len - i, i, &value) == 0)
        c->active = c->taken = value;
    else
        c->active = false;
}

static void do_else(cpp_state *st, size_t i)
{
    cpp_cond *c;

    expect_end(st, i, "a control line");
    if ((c = open_group(st, "else")) == NULL)
        return;
    if (c->kind == COND_IF || c->seen_elif) {
        if (c->seen_else)
            cpp_error(st, 1, "%celse after %celse", st->ctrl, st->ctrl);
        c->active = c->parent_active && !c->taken;
        c->taken = true;
    } else {
        c->branch = !c->branch;
        c->taken = c->taken || c->branch;
        c->active = c->parent_active && c->branch;
    }
    c->seen_else = true;
}

static void do_endif(cpp_state *st, size_t i)
{
    expect_end(st, i, "a control line");
    if (open_group(st, "endif") != NULL)
        st->nconds--;
}

/* Enter a new stream below the current one. */
static void enter(cpp_state *st, cpp_stream *s)
{
    s->parent = st->cur;
    st->cur = s;
    st->depth++;
    cpp_emit_marker(st, 1, s->name);
}

/*
 * The quoted argument of #include or #shell at line[i]: open quote one of
 * `opens`, matching close quote; checks in PCP's order (delimiters, depth,
 * trailing text).  Returns a malloc'd copy or NULL after an error.
 */
static char *quoted_arg(cpp_state *st, size_t i, const char *opens, const char *what,
                        const char *thing, const char *nest)
{
    const char *p = st->line, *close;
    char q, *arg, where[32];
    size_t n;

    if (i >= st->len || p[i] == '\0' || strchr(opens, p[i]) == NULL) {
        cpp_error(st, i + 1, "Expected %c or %c after %c%s", opens[0], opens[1], st->ctrl, what);
        return NULL;
    }
    q = p[i] == '<' ? '>' : p[i];
    if ((close = memchr(p + i + 1, q, st->len - i - 1)) == NULL) {
        cpp_error(st, i + 1, "Expected %c after %s", q, thing);
        return NULL;
    }
    if (st->depth >= CPP_MAX_DEPTH) {
        cpp_error(st, 1, "%s", nest);
        return NULL;
    }
    snprintf(where, sizeof(where), "%c%s line", st->ctrl, what);
    if (expect_end(st, (size_t)(close - p) + 1, where) < 0)
        return NULL;
    n = (size_t)(close - p) - i - 1;
    if ((arg = malloc(n + 1)) != NULL) {
        memcpy(arg, p + i + 1, n);
        arg[n] = '\0';
    }
    return arg;
}

static bool do_include(cpp_state *st, size_t i)
{
    char nest[64], *file;
    cpp_stream *s;

    snprintf(nest, sizeof(nest), "%cinclude and/or %cshell nesting too deep", st->ctrl, st->ctrl);
    if ((file = quoted_arg(st, i, "\"<", "include", "file name", nest)) == NULL)
        return false;
    if ((s = cpp_include_open(st, file)) == NULL)
        cpp_error(st, i + 1, "Cannot open file for %cinclude", st->ctrl);
    else
        enter(st, s);
    free(file);
    return s != NULL;
}

static bool do_shell(cpp_state *st, size_t i)
{
    char nest[64], *cmd;
    cpp_stream *s;

    snprintf(nest, sizeof(nest), "%cshell and/or %cinclude nesting too deep", st->ctrl, st->ctrl);
    if ((cmd = quoted_arg(st, i, "\"'", "shell", "command", nest)) == NULL)
        return false;
    if ((s = cpp_stream_shell(cmd)) == NULL)
        cpp_error(st, i + 1, "Cannot open pipe for %cshell", st->ctrl);
    else
        enter(st, s);
    free(cmd);
    return s != NULL;
}

static void do_message(cpp_state *st, size_t i, bool is_error)
{
    const char *text = st->line + i;
    int n = (int)(st->len - i);

    while (n > 0 && cpp_space(text[n - 1]))
        n--;
    if (!cpp_active(st))
        return;
    if (is_error)
        cpp_error(st, 1, "%cerror %.*s", st->ctrl, n, text);
    else
        cpp_warning(st, 1, "%cwarning %.*s", st->ctrl, n, text);
}

bool cpp_directive(cpp_state *st)
{
    const struct cpp_keyword *kw;
    size_t i = 1, at;

    while (i < st->len && cpp_is(st->line[i], CT_WORD))
        i++;
    if ((kw = cpp_keyword(st->line + 1, i - 1)) == NULL)
        return false;
    at = skip_blanks(st, i);
    switch (kw->id) {
    case KW_INCLUDE:
    case KW_SHELL:
        /* a successful #include or #shell is replaced by the nested text */
        if (!cpp_active(st))
            break;
        if (st->opt->no_external)
            cpp_error(st, 1, "%c%s is not allowed here", st->ctrl, kw->name);
        else if (kw->id == KW_INCLUDE ? do_include(st, at) : do_shell(st, at))
            return true;
        break;
    case KW_DEFINE:
        do_define(st, at);
        break;
    case KW_UNDEF:
        do_undef(st, at);
        break;
    case KW_IFDEF:
        do_ifdef(st, at, true);
        break;
    case KW_IFNDEF:
        do_ifdef(st, at, false);
        break;
    case KW_IF:
        do_if(st, at);
        break;
    case KW_ELIF:
        do_elif(st, at);
        break;
    case KW_ELSE:
        do_else(st, i);
        break;
    case KW_ENDIF:
        do_endif(st, i);
        break;
    case KW_ERROR:
        do_message(st, at, true);
        break;
    case KW_WARNING:
        do_message(st, at, false);
        break;
    }
    st->stats.lines_out++;
    cpp_emit(st, "\n", 1);
    return true;
}

void cpp_command_line_macros(cpp_state *st)
{
    for (size_t k = 0; k < st->opt->n_defines; k++) {
        const cpp_define *d = &st->opt->defines[k];
        size_t n = strlen(d->text) + 16;
        char *text = calloc(1, n + CPP_SLACK); /* slack: names are read 8 bytes at a time */
        char *eq;

        if (text == NULL)
            break;
        snprintf(text, n, "%c%s %s", st->ctrl, d->undef ? "undef" : "define", d->text);
        if (!d->undef && (eq = strchr(text + 8, '=')) != NULL)
            *eq = ' '; /* name=value -> name value */
        st->diag_file = "<arg>";
        st->diag_line = (unsigned long)d->argv_index;
        st->line = text;
        st->len = strlen(text);
        if (d->undef)
            do_undef(st, 7);
        else
            do_define(st, 8);
        free(text);
    }
    st->diag_file = NULL;
    st->line = NULL;
    st->len = 0;
}
