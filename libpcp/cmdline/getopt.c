/*
 * getopt.c - command-line options for PCP tools: pmgetopt_r, a reentrant
 * GNU getopt_long work-alike that keeps all of its state in pmOptions and
 * takes its long options from a pmLongOptions table; pmUsageMessage, the
 * usage text generated from that table; pmFreeOptions.
 *
 * Algorithm: each call resumes inside the current bundle (__nextchar) or
 * moves to the next argv element.  In PERMUTE order, non-options are
 * skipped and later rotated behind the options, so the caller finds the
 * operands at argv[optind..argc-1] when -1 comes back.  Long options match
 * by exact name first, else by a unique prefix; several prefix matches that
 * differ in has_arg or short_opt are ambiguous.  A long option returns its
 * short_opt (0 for a long-only option, with d->index set to its row).
 *
 * PCP's behaviour kept here, as pinned by tests/unit/test_getopt.c, whose
 * expected results (stderr included) were recorded from Debian's libpcp
 * 6.0.3 on the same argv vectors and option tables:
 *  - the first call (d->__initialized == 0) does pmSetProgname(argv[0]);
 *    messages then use pmGetProgname(), i.e. the basename of argv[0];
 *  - the scanner (re)initialises when optind == 0 or __initialized < 2,
 *    and leaves __initialized at 2; NULL short_options returns -1 at once;
 *  - '-'/'+' at the head of short_options, POSIXLY_CORRECT and
 *    PM_OPTFLAG_POSIX select the ordering; a ':' after them silences
 *    messages and turns a missing argument into ':'; otherwise messages
 *    are printed unless opterr is 0 AND PM_OPTFLAG_QUIET is set (opterr
 *    alone does not silence them); PM_OPTFLAG_LONG_ONLY gives
 *    getopt_long_only; "W;" works, even its quirks (see w_option);
 *  - the ambiguity list is the first match, then the other matches in
 *    reverse table order (the linked list of older glibc getopt);
 *    "requires"/"doesn't allow" name the full option, "ambiguous" and
 *    "unrecognized" echo the argument as typed;
 *  - header and text rows take part in matching: "--=x" finds the first
 *    row with an empty name ("option '--' doesn't allow an argument").
 *  - usage: left part padded to column 24 when shorter than 24 bytes,
 *    else the message on the next line; rows with a NULL message are
 *    skipped; header/text rows are recognised by short_opt alone; a NULL
 *    argname prints "?"; PM_OPTFLAG_RUNTIME_ERR or PM_OPTFLAG_EXIT: no
 *    usage text, but the messages pending are still flushed.  PCP goes
 *    through pmprintf, whose flush stops at a NUL byte (a short-only row
 *    with short_opt 0 ends the text after "  -"); we keep that.
 *  - pmFreeOptions frees hosts/archives only when nhosts/narchives != 0.
 * Deliberate difference: optind beyond argc (a caller's bad value, or the
 * "-W ambiguous" double step at the end of argv) ends the scan here,
 * where PCP reads past argv and crashes.
 * Messages and the usage text go through pmprintf, as PCP's do: they
 * reach stderr at the next pmflush, which pmUsageMessage makes unless
 * PM_OPTFLAG_NOFLUSH is set.  The standard options themselves are
 * options.c's (pmGetOptions).
 */
#include "cmdline.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Values of d->__ordering, as PCP stores them. */
enum { REQUIRE_ORDER = 0, PERMUTE = 1, RETURN_IN_ORDER = 2 };

/* Per-call view of the option state that is not kept in pmOptions. */
typedef struct {
    int argc;              /* as passed */
    char **argv;           /* as passed; permuted in place (as in GNU) */
    const char *optstring; /* short options past any '-'/'+' prefix */
    int print_errors;      /* opterr or not QUIET, and optstring not ':'-led */
    int long_only;         /* PM_OPTFLAG_LONG_ONLY */
} scan;

static void report(const char *fmt, ...) __PM_PRINTFLIKE(1, 2);

static void report(const char *fmt, ...)
{
    va_list ap;

    pmprintf("%s: ", pmGetProgname());
    va_start(ap, fmt);
    pmkit_vprintf(fmt, ap);
    va_end(ap);
}

/* A missing argument returns ':' when short_options start with ':'. */
static int missing(const scan *s)
{
    return s->optstring[0] == ':' ? ':' : '?';
}

static void initialize(pmOptions *d, scan *s)
{
    if (d->optind == 0)
        d->optind = 1;
    d->__first_nonopt = d->__last_nonopt = d->optind;
    d->__nextchar = NULL;
    d->__posixly_correct = getenv("POSIXLY_CORRECT") != NULL || (d->flags & PM_OPTFLAG_POSIX);
    if (s->optstring[0] == '-')
        d->__ordering = RETURN_IN_ORDER;
    else if (s->optstring[0] == '+')
        d->__ordering = REQUIRE_ORDER;
    else
        d->__ordering = d->__posixly_correct ? REQUIRE_ORDER : PERMUTE;
    d->__initialized = 2;
}

static void reverse(char **v, int lo, int hi)
{
    while (lo < --hi) {
        char *t = v[lo];
        v[lo++] = v[hi];
        v[hi] = t;
    }
}

/* Rotate the skipped non-options [first,last) behind the options
 * [last,optind) just scanned; both blocks keep their internal order. */
static void exchange(pmOptions *d, scan *s)
{
    reverse(s->argv, d->__first_nonopt, d->__last_nonopt);
    reverse(s->argv, d->__last_nonopt, d->optind);
    reverse(s->argv, d->__first_nonopt, d->optind);
    d->__first_nonopt += d->optind - d->__last_nonopt;
    d->__last_nonopt = d->optind;
}

static int is_nonoption(const char *arg)
{
    return arg[0] != '-' || arg[1] == '\0';
}

/* Move to the next argv element.  Returns 0 with __nextchar set when an
 * option element is found, -1 at the end, 1 for a RETURN_IN_ORDER operand. */
static int advance(pmOptions *d, scan *s)
{
    if (d->__last_nonopt > d->optind)
        d->__last_nonopt = d->optind;
    if (d->__first_nonopt > d->optind)
        d->__first_nonopt = d->optind;
    if (d->__ordering == PERMUTE) {
        if (d->__first_nonopt != d->__last_nonopt && d->__last_nonopt != d->optind)
            exchange(d, s);
        else if (d->__last_nonopt != d->optind)
            d->__first_nonopt = d->optind;
        while (d->optind < s->argc && is_nonoption(s->argv[d->optind]))
            d->optind++;
        d->__last_nonopt = d->optind;
    }
    if (d->optind < s->argc && strcmp(s->argv[d->optind], "--") == 0) {
        d->optind++;
        if (d->__first_nonopt != d->__last_nonopt && d->__last_nonopt != d->optind)
            exchange(d, s);
        else if (d->__first_nonopt == d->__last_nonopt)
            d->__first_nonopt = d->optind;
        d->__last_nonopt = s->argc;
        d->optind = s->argc;
    }
    if (d->optind >= s->argc) {
        if (d->__first_nonopt != d->__last_nonopt)
            d->optind = d->__first_nonopt;
        return -1;
    }
    if (is_nonoption(s->argv[d->optind])) {
        if (d->__ordering == REQUIRE_ORDER)
            return -1;
        d->optarg = s->argv[d->optind++];
        return 1;
    }
    d->__nextchar = s->argv[d->optind] + 1;
    if (d->long_options != NULL && s->argv[d->optind][1] == '-')
        d->__nextchar++;
    return 0;
}

/* Result of looking a name (up to '=' or NUL) up in the long options. */
typedef struct {
    const pmLongOptions *found; /* exact match, else first prefix match */
    int index;                  /* row of found */
    int exact;                  /* found matches the whole name */
    int ambiguous;              /* a later prefix match differs from found */
    size_t len;                 /* length of the name looked up */
} lookup;

static int prefix_match(const pmLongOptions *p, const char *name, size_t len)
{
    return strncmp(p->long_opt, name, len) == 0;
}

/* Does a later prefix match p conflict with the first one, found? */
static int conflicts(const scan *s, const pmLongOptions *found, const pmLongOptions *p)
{
    return s->long_only || found->has_arg != p->has_arg || found->short_opt != p->short_opt;
}

static lookup find_long(const pmOptions *d, const scan *s, const char *name)
{
    lookup r = {NULL, 0, 0, 0, strcspn(name, "=")};
    const pmLongOptions *p;
    int i;

    for (p = d->long_options, i = 0; p->long_opt != NULL; p++, i++) {
        if (!prefix_match(p, name, r.len))
            continue;
        if (strlen(p->long_opt) == r.len) {
            r.found = p;
            r.index = i;
            r.exact = 1;
            return r;
        }
        if (r.found == NULL) {
            r.found = p;
            r.index = i;
        } else if (conflicts(s, r.found, p)) {
            r.ambiguous = 1;
        }
    }
    return r;
}

/* "option '--f' is ambiguous; possibilities: '--fetch' ..." - the first
 * match, then the conflicting ones from the end of the table backwards. */
static void report_ambiguous(const pmOptions *d, const scan *s, const lookup *r)
{
    const pmLongOptions *p = r->found;
    const char *name = d->__nextchar;

    report("option '%s' is ambiguous; possibilities: '--%s'", s->argv[d->optind], p->long_opt);
    while ((p = p + 1)->long_opt != NULL)
        ;
    while (--p > r->found) {
        if (prefix_match(p, name, r->len) && conflicts(s, r->found, p))
            pmprintf(" '--%s'", p->long_opt);
    }
    pmprintf("\n");
}

/* The long option r->found was named by argv[optind]: take its argument. */
static int take_long(pmOptions *d, scan *s, const lookup *r)
{
    const pmLongOptions *p = r->found;
    const char *arg = d->__nextchar + r->len;

    d->optind++;
    d->__nextchar += strlen(d->__nextchar);
    if (*arg == '=') {
        if (p->has_arg) {
            d->optarg = (char *)arg + 1;
        } else {
            if (s->print_errors) {
                const char *typed = s->argv[d->optind - 1];
                if (typed[1] == '-')
                    report("option '--%s' doesn't allow an argument\n", p->long_opt);
                else
                    report("option '%c%s' doesn't allow an argument\n", typed[0], p->long_opt);
            }
            d->optopt = p->short_opt;
            return '?';
        }
    } else if (p->has_arg == 1) {
        if (d->optind >= s->argc) {
            if (s->print_errors)
                report("option '--%s' requires an argument\n", p->long_opt);
            d->optopt = p->short_opt;
            return missing(s);
        }
        d->optarg = s->argv[d->optind++];
    }
    d->index = r->index;
    return p->short_opt;
}

/* A long option (or, with LONG_ONLY, a single-dash word).  Returns the
 * option result, or 0x100 when LONG_ONLY falls back to a short option. */
#define TRY_SHORT 0x100

static int long_option(pmOptions *d, scan *s)
{
    const char *typed = s->argv[d->optind];
    lookup r = find_long(d, s, d->__nextchar);

    if (r.ambiguous && !r.exact) {
        if (s->print_errors)
            report_ambiguous(d, s, &r);
        d->__nextchar += strlen(d->__nextchar);
        d->optind++;
        d->optopt = 0;
        return '?';
    }
    if (r.found != NULL)
        return take_long(d, s, &r);
    if (s->long_only && typed[1] != '-' && strchr(s->optstring, *d->__nextchar) != NULL)
        return TRY_SHORT;
    if (s->print_errors) {
        if (typed[1] == '-')
            report("unrecognized option '--%s'\n", d->__nextchar);
        else
            report("unrecognized option '%c%s'\n", typed[0], d->__nextchar);
    }
    d->__nextchar = (char *)"";
    d->optind++;
    d->optopt = 0;
    return '?';
}

/* "-W name[=value]" with "W;" in short_options: a long option in disguise.
 * Its error paths leave optopt alone and keep optarg, as PCP does. */
static int w_option(pmOptions *d, scan *s)
{
    lookup r;

    if (*d->__nextchar != '\0') {
        d->optarg = d->__nextchar;
        d->optind++;
    } else if (d->optind == s->argc) {
        if (s->print_errors)
            report("option requires an argument -- '%c'\n", 'W');
        d->optopt = 'W';
        return missing(s);
    } else {
        d->optarg = s->argv[d->optind++];
    }
    d->__nextchar = d->optarg;
    r = find_long(d, s, d->__nextchar);
    if (r.ambiguous && !r.exact) {
        if (s->print_errors)
            report("option '-W %s' is ambiguous\n", d->optarg);
        d->__nextchar += strlen(d->__nextchar);
        d->optind++; /* sic: skips the next element, as PCP does */
        return '?';
    }
    if (r.found == NULL) {
        d->__nextchar = NULL;
        return 'W'; /* left to the caller */
    }
    d->__nextchar += strlen(d->__nextchar);
    if (d->optarg[r.len] == '=') {
        if (!r.found->has_arg) {
            if (s->print_errors)
                report("option '-W %s' doesn't allow an argument\n", r.found->long_opt);
            return '?';
        }
        d->optarg += r.len + 1;
    } else if (r.found->has_arg == 1) {
        if (d->optind >= s->argc) {
            if (s->print_errors)
                report("option '-W %s' requires an argument\n", r.found->long_opt);
            return missing(s);
        }
        d->optarg = s->argv[d->optind++];
    } else {
        d->optarg = NULL;
    }
    d->index = r.index;
    return r.found->short_opt;
}

/* The next letter of a bundle such as -mnFILE. */
static int short_option(pmOptions *d, scan *s)
{
    int c = (unsigned char)*d->__nextchar++;
    const char *spec = strchr(s->optstring, c);

    if (*d->__nextchar == '\0')
        d->optind++;
    if (spec == NULL || c == ':' || c == ';') {
        if (s->print_errors)
            report("invalid option -- '%c'\n", c);
        d->optopt = c;
        return '?';
    }
    if (spec[0] == 'W' && spec[1] == ';') {
        if (d->long_options != NULL)
            return w_option(d, s);
        /* sic: PCP returns 'W' without moving on, so "-Wfoo" repeats */
        d->__nextchar = NULL;
        return 'W';
    }
    if (spec[1] != ':')
        return c;
    if (*d->__nextchar != '\0') {
        d->optarg = d->__nextchar;
        d->optind++;
    } else if (spec[2] != ':') {
        if (d->optind == s->argc) {
            if (s->print_errors)
                report("option requires an argument -- '%c'\n", c);
            d->optopt = c;
            c = missing(s);
        } else {
            d->optarg = s->argv[d->optind++];
        }
    }
    d->__nextchar = NULL;
    return c;
}

/* Is argv[optind] to be read as a long option? */
static int wants_long(const pmOptions *d, const scan *s)
{
    const char *arg = s->argv[d->optind];

    if (d->long_options == NULL)
        return 0;
    if (arg[1] == '-')
        return 1;
    return s->long_only && (arg[2] != '\0' || strchr(s->optstring, arg[1]) == NULL);
}

int pmgetopt_r(int argc, char *const *argv, pmOptions *d)
{
    scan s;
    int c;

    if (d->short_options == NULL)
        return -1;
    if (d->__initialized == 0)
        pmSetProgname(argv[0]);
    s.argc = argc;
    s.argv = (char **)argv;
    s.optstring = d->short_options;
    s.long_only = (d->flags & PM_OPTFLAG_LONG_ONLY) != 0;
    d->optarg = NULL;
    if (d->optind == 0 || d->__initialized < 2)
        initialize(d, &s);
    if (s.optstring[0] == '-' || s.optstring[0] == '+')
        s.optstring++;
    s.print_errors = (d->opterr || !(d->flags & PM_OPTFLAG_QUIET)) && s.optstring[0] != ':';

    if (d->__nextchar == NULL || *d->__nextchar == '\0') {
        if ((c = advance(d, &s)) != 0)
            return c;
    }
    if (wants_long(d, &s)) {
        if ((c = long_option(d, &s)) != TRY_SHORT)
            return c;
    }
    return short_option(d, &s);
}

/* ---- usage ---- */

/* The "  -X ARG, --long=ARG" part of an option row. */
static void option_left(FILE *f, const pmLongOptions *o)
{
    const char *arg = o->argname ? o->argname : "?";

    if (o->long_opt[0] == '\0') {
        if (o->has_arg)
            fprintf(f, "  -%c %s", o->short_opt, arg);
        else
            fprintf(f, "  -%c", o->short_opt);
    } else if (o->short_opt != 0) {
        if (o->has_arg)
            fprintf(f, "  -%c %s, --%s=%s", o->short_opt, arg, o->long_opt, arg);
        else
            fprintf(f, "  -%c, --%s", o->short_opt, o->long_opt);
    } else if (o->has_arg) {
        fprintf(f, "  --%s=%s", o->long_opt, arg);
    } else {
        fprintf(f, "  --%s", o->long_opt);
    }
}

static void usage_row(FILE *f, const pmLongOptions *o)
{
    long start, width;

    if (o->short_opt == '-') {
        fprintf(f, "\n%s:\n", o->message);
        return;
    }
    if (o->short_opt == '|') {
        fprintf(f, "%s\n", o->message);
        return;
    }
    start = ftell(f);
    option_left(f, o);
    width = ftell(f) - start;
    if (width < 24)
        fprintf(f, "%*s%s\n", (int)(24 - width), "", o->message);
    else
        fprintf(f, "\n%24s%s\n", "", o->message);
}

void pmUsageMessage(pmOptions *d)
{
    const pmLongOptions *o;
    char *text = NULL;
    size_t size = 0;
    FILE *f;

    /* built in memory first: like PCP's pmflush, output ends at a NUL */
    if (!(d->flags & (PM_OPTFLAG_RUNTIME_ERR | PM_OPTFLAG_EXIT)) &&
        (f = open_memstream(&text, &size)) != NULL) {
        fprintf(f, "Usage: %s %s\n", pmGetProgname(),
                d->short_usage ? d->short_usage : "[options]");
        for (o = d->long_options; o != NULL && o->long_opt != NULL; o++) {
            if (o->message != NULL)
                usage_row(f, o);
        }
        if (fclose(f) == 0)
            pmprintf("%s", text);
        free(text);
    }
    if (!(d->flags & PM_OPTFLAG_NOFLUSH))
        pmflush();
}

/* As in PCP, an array is freed only when its count is non-zero; unlike PCP
 * the freed pointer and its count are then zeroed, so a second call is safe. */
void pmFreeOptions(pmOptions *d)
{
    if (d->nhosts) {
        free(d->hosts);
        d->hosts = NULL;
        d->nhosts = 0;
    }
    if (d->narchives) {
        free(d->archives);
        d->archives = NULL;
        d->narchives = 0;
    }
}
