/*
 * Unit tests for pmgetopt_r, pmUsageMessage and pmFreeOptions
 * (libpcp/cmdline/getopt.c), through a pminfo-like option table.
 *
 * Every expected value below was produced by running the same argv vectors
 * through Debian's libpcp 6.0.3 (its pmgetopt_r and pmUsageMessage, with a
 * pmflush after each call) and pinned here as literals.  A vector's trace
 * has one token per pmgetopt_r call, RET[=OPTARG]@OPTIND[!OPTOPT][#INDEX]
 * (OPTOPT for '?' and ':' results, INDEX whenever d->index changed), then
 * "end@OPTIND" and the final, permuted argv joined by ','.  stderr is
 * captured through a temporary file.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <pcp/pmapi.h>

#define PMINFO_SHORT "a:D:h:K:Ln:N:O:Z:zV?b:dfFIlmMstTc:xv"
#define MAXARGS      16
#define P            "/usr/bin/pminfo"
#define LONG_ONLY    PM_OPTFLAG_LONG_ONLY
#define QUIET        PM_OPTFLAG_QUIET
#define POSIX        PM_OPTFLAG_POSIX

/* PCP pminfo's option table, with PMOPT_DERIVED as given (long-only). */
static pmLongOptions pminfo_options[] = {
    PMAPI_OPTIONS_HEADER("General options"),
    PMOPT_ARCHIVE,
    PMOPT_DEBUG,
    PMOPT_HOST,
    PMOPT_CONTAINER,
    PMOPT_LOCALPMDA,
    PMOPT_SPECLOCAL,
    PMOPT_NAMESPACE,
    PMOPT_UNIQNAMES,
    PMOPT_ORIGIN,
    PMOPT_TIMEZONE,
    PMOPT_HOSTZONE,
    PMOPT_VERSION,
    PMOPT_HELP,
    PMAPI_OPTIONS_HEADER("Protocol options"),
    {"batch", 1, 'b', "N", "fetch N metrics at a time for -f and -v [128]"},
    {"desc", 0, 'd', 0, "get and print metric description"},
    {"fetch", 0, 'f', 0, "fetch and print values for all instances"},
    {"fetchall", 0, 'F', 0, "fetch and print values for non-enumerable indoms"},
    {"fullindom", 0, 'I', 0, "print InDom in verbose format"},
    {"labels", 0, 'l', 0, "print InDom, metric and instance labels"},
    {"pmid", 0, 'm', 0, "print PMID"},
    {"fullpmid", 0, 'M', 0, "print PMID in verbose format"},
    {"series", 0, 's', 0, "print source, metric, instance series identifiers"},
    {"oneline", 0, 't', 0, "get and display (terse) oneline text"},
    {"helptext", 0, 'T', 0, "get and display (verbose) help text"},
    PMAPI_OPTIONS_HEADER("Metrics options"),
    PMOPT_DERIVED,
    {"events", 0, 'x', 0, "unpack and report on any fetched event records"},
    {"verify", 0, 'v', 0, "verify mode, be quiet and only report errors"},
    PMAPI_OPTIONS_END};

/* One argv vector and what Debian's libpcp did with it. */
typedef struct {
    const char *name;          /* what the vector exercises */
    int flags;                 /* pmOptions.flags */
    int opterr;                /* pmOptions.opterr */
    const char *shortopts;     /* short_options; NULL for PMINFO_SHORT */
    const char *argv[MAXARGS]; /* NULL-terminated, argv[0] included */
    const char *trace;         /* expected trace (see the file comment) */
    const char *err;           /* expected stderr */
} vector;

/* clang-format off */
static const vector vectors[] = {
    { "no_arguments", 0, 1, NULL,
      { P, NULL },
      "end@1 /usr/bin/pminfo",
      "" },
    { "operands_only", 0, 1, NULL,
      { P, "a", "b", NULL },
      "end@1 /usr/bin/pminfo,a,b",
      "" },
    { "bundle_with_attached_argument", 0, 1, NULL,
      { P, "-mnFILE", "x", NULL },
      "m@1 n=FILE@2 end@2 /usr/bin/pminfo,-mnFILE,x",
      "" },
    { "bundle_argument_in_next_word", 0, 1, NULL,
      { P, "-dmn", "FILE", "sample", NULL },
      "d@1 m@1 n=FILE@3 end@3 /usr/bin/pminfo,-dmn,FILE,sample",
      "" },
    { "bundle_flags", 0, 1, NULL,
      { P, "-fFIlmMstTxvdz", "x", NULL },
      "f@1 F@1 I@1 l@1 m@1 M@1 s@1 t@1 T@1 x@1 v@1 d@1 z@2 end@2 /usr/bin/pminfo,-fFIlmMstTxvdz,x",
      "" },
    { "permute_operands_to_end", 0, 1, NULL,
      { P, "a", "-m", "b", "-n", "ns", "c", "-f", "d", NULL },
      "m@3 n=ns@6 f@8 end@5 /usr/bin/pminfo,-m,-n,ns,-f,a,b,c,d",
      "" },
    { "double_dash_ends_options", 0, 1, NULL,
      { P, "a", "-m", "--", "-f", "--pmid", "b", NULL },
      "m@3 end@3 /usr/bin/pminfo,-m,--,a,-f,--pmid,b",
      "" },
    { "double_dash_only", 0, 1, NULL,
      { P, "--", NULL },
      "end@2 /usr/bin/pminfo,--",
      "" },
    { "double_dash_first", 0, 1, NULL,
      { P, "--", "-a", "x", NULL },
      "end@2 /usr/bin/pminfo,--,-a,x",
      "" },
    { "double_dash_twice", 0, 1, NULL,
      { P, "-m", "--", "--", "x", NULL },
      "m@2 end@3 /usr/bin/pminfo,-m,--,--,x",
      "" },
    { "lone_dash_is_operand", 0, 1, NULL,
      { P, "-", "-a", "x", "-", NULL },
      "a=x@4 end@3 /usr/bin/pminfo,-a,x,-,-",
      "" },
    { "empty_string_is_operand", 0, 1, NULL,
      { P, "", "-m", "", NULL },
      "m@3 end@2 /usr/bin/pminfo,-m,,",
      "" },
    { "long_with_equals", 0, 1, NULL,
      { P, "--namespace=ns", "--archive=a1", "--batch=12", NULL },
      "n=ns@2#7 a=a1@3#1 b=12@4#15 end@4 /usr/bin/pminfo,--namespace=ns,--archive=a1,--batch=12",
      "" },
    { "long_with_separate_argument", 0, 1, NULL,
      { P, "--namespace", "ns", "--host", "local:", "x", NULL },
      "n=ns@3#7 h=local:@5#3 end@5 /usr/bin/pminfo,--namespace,ns,--host,local:,x",
      "" },
    { "long_argument_looks_like_option", 0, 1, NULL,
      { P, "--namespace", "-m", "--batch", "--pmid", NULL },
      "n=-m@3#7 b=--pmid@5#15 end@5 /usr/bin/pminfo,--namespace,-m,--batch,--pmid",
      "" },
    { "long_empty_argument", 0, 1, NULL,
      { P, "--namespace=", "--host", "", NULL },
      "n=@2#7 h=@4#3 end@4 /usr/bin/pminfo,--namespace=,--host,",
      "" },
    { "long_abbreviations", 0, 1, NULL,
      { P, "--names", "ns", "--fetcha", "--fulli", "--fullp", "--pm", "--ver", "--de", NULL },
      "n=ns@3#7 F@4#18 I@5#19 M@6#22 m@7#21 ?@8!0 ?@9!0 end@9 /usr/bin/pminfo,--names,ns,--fetcha,--fulli,--fullp,--pm,--ver,--de",
      "pminfo: option '--ver' is ambiguous; possibilities: '--version' '--verify'\n"
      "pminfo: option '--de' is ambiguous; possibilities: '--debug' '--derived' '--desc'\n" },
    { "exact_match_beats_abbreviation", 0, 1, NULL,
      { P, "--fetch", "--desc", "--host=h", NULL },
      "f@2#17 d@3#16 h=h@4#3 end@4 /usr/bin/pminfo,--fetch,--desc,--host=h",
      "" },
    { "long_only_options_return_zero", 0, 1, NULL,
      { P, "--container=c1", "--derived", "d.conf", "--cont", "c2", "-c", "d2", NULL },
      "0=c1@2#4 0=d.conf@4#27 0=c2@6#4 c=d2@8 end@8 /usr/bin/pminfo,--container=c1,--derived,d.conf,--cont,c2,-c,d2",
      "" },
    { "help_and_version", 0, 1, NULL,
      { P, "-?", "--help", "-V", "--version", NULL },
      "?@2!0 ?@3!0#13 V@4 V@5#12 end@5 /usr/bin/pminfo,-?,--help,-V,--version",
      "" },
    { "invalid_short_option", 0, 1, NULL,
      { P, "-y", "-mym", "x", NULL },
      "?@2!y m@2 ?@2!y m@3 end@3 /usr/bin/pminfo,-y,-mym,x",
      "pminfo: invalid option -- 'y'\n"
      "pminfo: invalid option -- 'y'\n" },
    { "unrecognized_long_option", 0, 1, NULL,
      { P, "--bogus", "--bogus=1", "--pmidx", NULL },
      "?@2!0 ?@3!0 ?@4!0 end@4 /usr/bin/pminfo,--bogus,--bogus=1,--pmidx",
      "pminfo: unrecognized option '--bogus'\n"
      "pminfo: unrecognized option '--bogus=1'\n"
      "pminfo: unrecognized option '--pmidx'\n" },
    { "short_missing_argument", 0, 1, NULL,
      { P, "-m", "-n", NULL },
      "m@2 ?@3!n end@3 /usr/bin/pminfo,-m,-n",
      "pminfo: option requires an argument -- 'n'\n" },
    { "bundle_missing_argument", 0, 1, NULL,
      { P, "x", "-mb", NULL },
      "m@2 ?@3!b end@2 /usr/bin/pminfo,-mb,x",
      "pminfo: option requires an argument -- 'b'\n" },
    { "long_missing_argument", 0, 1, NULL,
      { P, "--namespace", NULL },
      "?@2!n end@2 /usr/bin/pminfo,--namespace",
      "pminfo: option '--namespace' requires an argument\n" },
    { "abbreviated_long_missing_argument", 0, 1, NULL,
      { P, "x", "--names", NULL },
      "?@3!n end@2 /usr/bin/pminfo,--names,x",
      "pminfo: option '--namespace' requires an argument\n" },
    { "long_argument_not_allowed", 0, 1, NULL,
      { P, "--pmid=3", "--pmi=3", "--fetch=", "--help=me", NULL },
      "?@2!m ?@3!m ?@4!f ?@5!? end@5 /usr/bin/pminfo,--pmid=3,--pmi=3,--fetch=,--help=me",
      "pminfo: option '--pmid' doesn't allow an argument\n"
      "pminfo: option '--pmid' doesn't allow an argument\n"
      "pminfo: option '--fetch' doesn't allow an argument\n"
      "pminfo: option '--help' doesn't allow an argument\n" },
    { "ambiguous_f", 0, 1, NULL,
      { P, "--f", NULL },
      "?@2!0 end@2 /usr/bin/pminfo,--f",
      "pminfo: option '--f' is ambiguous; possibilities: '--fetch' '--fullpmid' '--fullindom' '--fetchall'\n" },
    { "ambiguous_with_value", 0, 1, NULL,
      { P, "--f=3", "--fu", "x", NULL },
      "?@2!0 ?@3!0 end@3 /usr/bin/pminfo,--f=3,--fu,x",
      "pminfo: option '--f=3' is ambiguous; possibilities: '--fetch' '--fullpmid' '--fullindom' '--fetchall'\n"
      "pminfo: option '--fu' is ambiguous; possibilities: '--fullindom' '--fullpmid'\n" },
    { "ambiguous_others", 0, 1, NULL,
      { P, "--h", "--ho", "--d", "--l", "--o", "--s", "--n", NULL },
      "?@2!0 ?@3!0 ?@4!0 ?@5!0 ?@6!0 ?@7!0 ?@8!n end@8 /usr/bin/pminfo,--h,--ho,--d,--l,--o,--s,--n",
      "pminfo: option '--h' is ambiguous; possibilities: '--host' '--helptext' '--help' '--hostzone'\n"
      "pminfo: option '--ho' is ambiguous; possibilities: '--host' '--hostzone'\n"
      "pminfo: option '--d' is ambiguous; possibilities: '--debug' '--derived' '--desc'\n"
      "pminfo: option '--l' is ambiguous; possibilities: '--local-PMDA' '--labels'\n"
      "pminfo: option '--o' is ambiguous; possibilities: '--origin' '--oneline'\n"
      "pminfo: option '--s' is ambiguous; possibilities: '--spec-local' '--series'\n"
      "pminfo: option '--namespace' requires an argument\n" },
    { "header_row_matches_empty_name", 0, 1, NULL,
      { P, "--=x", "--=", NULL },
      "?@2!- ?@3!- end@3 /usr/bin/pminfo,--=x,--=",
      "pminfo: option '--' doesn't allow an argument\n"
      "pminfo: option '--' doesn't allow an argument\n" },
    { "triple_dash", 0, 1, NULL,
      { P, "---", "---pmid", NULL },
      "?@2!0 ?@3!0 end@3 /usr/bin/pminfo,---,---pmid",
      "pminfo: unrecognized option '---'\n"
      "pminfo: unrecognized option '---pmid'\n" },
    { "errors_then_operands", 0, 1, NULL,
      { P, "-mnFILE", "x", "--f", "--bogus", "-y", "--pmid=3", "--names", "y", "--container=foo", "--fetch=1", "--n", "-n", NULL },
      "m@1 n=FILE@2 ?@4!0 ?@5!0 ?@6!y ?@7!m n=y@9#7 0=foo@10#4 ?@11!f n=-n@13#7 end@12 /usr/bin/pminfo,-mnFILE,--f,--bogus,-y,--pmid=3,--names,y,--container=foo,--fetch=1,--n,-n,x",
      "pminfo: option '--f' is ambiguous; possibilities: '--fetch' '--fullpmid' '--fullindom' '--fetchall'\n"
      "pminfo: unrecognized option '--bogus'\n"
      "pminfo: invalid option -- 'y'\n"
      "pminfo: option '--pmid' doesn't allow an argument\n"
      "pminfo: option '--fetch' doesn't allow an argument\n" },
    { "opterr_zero_still_reports", 0, 0, NULL,
      { P, "-y", "--bogus", "-n", NULL },
      "?@2!y ?@3!0 ?@4!n end@4 /usr/bin/pminfo,-y,--bogus,-n",
      "pminfo: invalid option -- 'y'\n"
      "pminfo: unrecognized option '--bogus'\n"
      "pminfo: option requires an argument -- 'n'\n" },
    { "quiet_alone_still_reports", QUIET, 1, NULL,
      { P, "-y", "--f", NULL },
      "?@2!y ?@3!0 end@3 /usr/bin/pminfo,-y,--f",
      "pminfo: invalid option -- 'y'\n"
      "pminfo: option '--f' is ambiguous; possibilities: '--fetch' '--fullpmid' '--fullindom' '--fetchall'\n" },
    { "quiet_and_opterr_zero_silent", QUIET, 0, NULL,
      { P, "-y", "--bogus", "--f", "--pmid=1", "-n", NULL },
      "?@2!y ?@3!0 ?@4!0 ?@5!m ?@6!n end@6 /usr/bin/pminfo,-y,--bogus,--f,--pmid=1,-n",
      "" },
    { "colon_prefix_silent", 0, 1, ":" PMINFO_SHORT,
      { P, "-y", "-n", NULL },
      "?@2!y :@3!n end@3 /usr/bin/pminfo,-y,-n",
      "" },
    { "colon_prefix_long_missing", 0, 1, ":" PMINFO_SHORT,
      { P, "--f", "--names", NULL },
      "?@2!0 :@3!n end@3 /usr/bin/pminfo,--f,--names",
      "" },
    { "plus_prefix_stops_at_operand", 0, 1, "+" PMINFO_SHORT,
      { P, "-m", "x", "-f", NULL },
      "m@2 end@2 /usr/bin/pminfo,-m,x,-f",
      "" },
    { "posix_flag_stops_at_operand", POSIX, 1, NULL,
      { P, "-m", "x", "-f", NULL },
      "m@2 end@2 /usr/bin/pminfo,-m,x,-f",
      "" },
    { "dash_prefix_returns_operands", 0, 1, "-" PMINFO_SHORT,
      { P, "x", "-m", "y", "--", "-f", NULL },
      "1=x@2 m@3 1=y@4 end@5 /usr/bin/pminfo,x,-m,y,--,-f",
      "" },
    { "plus_colon_prefix", 0, 1, "+:" PMINFO_SHORT,
      { P, "-y", "-n", NULL },
      "?@2!y :@3!n end@3 /usr/bin/pminfo,-y,-n",
      "" },
    { "optional_argument", 0, 1, "a::m",
      { P, "-a", "x", "-ax", "-ma", "-mav", NULL },
      "a@2 a=x@4 m@4 a@5 m@5 a=v@6 end@5 /usr/bin/pminfo,-a,-ax,-ma,-mav,x",
      "" },
    { "optional_long_argument_table_has_arg", 0, 1, "a::m",
      { P, "--archive", "x", NULL },
      "a=x@3#1 end@3 /usr/bin/pminfo,--archive,x",
      "" },
    { "long_only_flag", LONG_ONLY, 1, NULL,
      { P, "-pmid", "-fetch", "-f", "-fd", "-names", "ns", "-bogus", "--bogus", NULL },
      "m@2#21 f@3#17 f@4 f@4 ?@5!0 n=ns@7#7 b=ogus@8 ?@9!0 end@9 /usr/bin/pminfo,-pmid,-fetch,-f,-fd,-names,ns,-bogus,--bogus",
      "pminfo: option '-fd' is ambiguous; possibilities: '--debug' '--derived' '--desc'\n"
      "pminfo: unrecognized option '--bogus'\n" },
    { "long_only_ambiguous", LONG_ONLY, 1, NULL,
      { P, "-fu", "-ful=1", "-pmid=2", "-nam", NULL },
      "?@2!0 ?@3!0 ?@4!m ?@5!n end@5 /usr/bin/pminfo,-fu,-ful=1,-pmid=2,-nam",
      "pminfo: option '-fu' is ambiguous; possibilities: '--fullindom' '--fullpmid'\n"
      "pminfo: option '-ful=1' is ambiguous; possibilities: '--fullindom' '--fullpmid'\n"
      "pminfo: option '-pmid' doesn't allow an argument\n"
      "pminfo: option '--namespace' requires an argument\n" },
    { "long_only_falls_back_to_short", LONG_ONLY, 1, NULL,
      { P, "-mn", "ns", "-xz", "-bn", NULL },
      "m@1 n=ns@3#7 x@3 z@4 b=n@5 end@5 /usr/bin/pminfo,-mn,ns,-xz,-bn",
      "" },
    { "w_semicolon_long_option", 0, 1, "W;" PMINFO_SHORT,
      { P, "-W", "pmid", "-Wnamespace=ns", "-W", "batch", "7", "-Wzz", NULL },
      "m@3#21 n=ns@4#7 b=7@7#15 W=zz@8 end@8 /usr/bin/pminfo,-W,pmid,-Wnamespace=ns,-W,batch,7,-Wzz",
      "" },
    { "w_semicolon_errors", 0, 1, "W;" PMINFO_SHORT,
      { P, "-W", "pmid=1", "-Wf", "x", "-W", NULL },
      "?=pmid=1@3!0 ?=f@5!0 ?@6!W end@6 /usr/bin/pminfo,-W,pmid=1,-Wf,x,-W",
      "pminfo: option '-W pmid' doesn't allow an argument\n"
      "pminfo: option '-W f' is ambiguous\n"
      "pminfo: option requires an argument -- 'W'\n" },
    { "w_semicolon_missing_argument", 0, 1, "W;" PMINFO_SHORT,
      { P, "-W", "namespace", NULL },
      "?=namespace@3!0 end@3 /usr/bin/pminfo,-W,namespace",
      "pminfo: option '-W namespace' requires an argument\n" },
    { "argv0_without_directory", 0, 1, NULL,
      { "pmtool", "-y", NULL },
      "?@2!y end@2 pmtool,-y",
      "pmtool: invalid option -- 'y'\n" },
    { "argv0_trailing_slash", 0, 1, NULL,
      { "dir/", "-y", NULL },
      "?@2!y end@2 dir/,-y",
      ": invalid option -- 'y'\n" },
    { "invalid_colon_and_semicolon", 0, 1, NULL,
      { P, "-:", "-;", NULL },
      "?@2!: ?@3!; end@3 /usr/bin/pminfo,-:,-;",
      "pminfo: invalid option -- ':'\n"
      "pminfo: invalid option -- ';'\n" },
};
/* clang-format on */

/* ---- stderr capture ---- */

typedef struct {
    FILE *tmp; /* receives fd 2 */
    int saved; /* the original fd 2 */
} capture;

static void capture_start(capture *c)
{
    fflush(stderr);
    c->tmp = tmpfile();
    assert_non_null(c->tmp);
    c->saved = dup(2);
    assert_true(c->saved >= 0);
    assert_true(dup2(fileno(c->tmp), 2) >= 0);
}

/* Restore stderr; what was written goes to buf (NUL-terminated). */
static void capture_end(capture *c, char *buf, size_t size)
{
    size_t n;

    fflush(stderr);
    dup2(c->saved, 2);
    close(c->saved);
    rewind(c->tmp);
    n = fread(buf, 1, size - 1, c->tmp);
    buf[n] = '\0';
    fclose(c->tmp);
}

/* ---- the trace ---- */

static void add(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void add(char *buf, size_t size, const char *fmt, ...)
{
    size_t len = strlen(buf);
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf + len, size - len, fmt, ap);
    va_end(ap);
}

static void add_char(char *buf, size_t size, int c)
{
    if (c > ' ' && c < 127)
        add(buf, size, "%c", c);
    else
        add(buf, size, "%d", c);
}

static void run_vector(const vector *v, char *trace, size_t tsize, char *err, size_t esize)
{
    char *av[MAXARGS];
    pmOptions o;
    capture cap;
    int argc, c, i, index = 0;

    for (argc = 0; v->argv[argc] != NULL; argc++)
        av[argc] = (char *)v->argv[argc];
    av[argc] = NULL;
    memset(&o, 0, sizeof(o));
    o.flags = v->flags;
    o.opterr = v->opterr;
    o.short_options = v->shortopts ? v->shortopts : PMINFO_SHORT;
    o.long_options = pminfo_options;
    trace[0] = '\0';
    capture_start(&cap);
    for (i = 0; i < 64; i++) {
        c = pmgetopt_r(argc, av, &o);
        pmflush(); /* messages are pmprintf'd */
        if (c == -1)
            break;
        add_char(trace, tsize, c);
        if (o.optarg != NULL)
            add(trace, tsize, "=%s", o.optarg);
        add(trace, tsize, "@%d", o.optind);
        if (c == '?' || c == ':') {
            add(trace, tsize, "!");
            add_char(trace, tsize, o.optopt);
        }
        if (o.index != index)
            add(trace, tsize, "#%d", index = o.index);
        add(trace, tsize, " ");
    }
    capture_end(&cap, err, esize);
    add(trace, tsize, "end@%d", o.optind);
    for (i = 0; i < argc; i++)
        add(trace, tsize, "%s%s", i ? "," : " ", av[i]);
}

static void vector_matches_pcp(void **state)
{
    const vector *v = *state;
    char trace[2048], err[2048];

    run_vector(v, trace, sizeof(trace), err, sizeof(err));
    assert_string_equal(trace, v->trace);
    assert_string_equal(err, v->err);
}

/* ---- pmUsageMessage ---- */

static pmLongOptions general_options[] = {PMAPI_GENERAL_OPTIONS, PMAPI_OPTIONS_END};

/* Layout corner cases: text rows, short-only and long-only rows, NULL
 * argname, NULL and empty messages, the 23/24 column boundary. */
static pmLongOptions layout_options[] = {PMAPI_OPTIONS_HEADER("Layout"),
                                         PMAPI_OPTIONS_TEXT("Free text goes out as is."),
                                         {"opt", 2, 'o', "VAL", "optional argument"},
                                         {"only", 1, 0, "X", "long-only with argument"},
                                         {"flagx", 0, 0, 0, "long-only flag"},
                                         {"", 1, 'x', "ARG", "short-only with argument"},
                                         {"", 0, 'y', 0, "short-only flag"},
                                         {"noname", 1, 'w', NULL, "NULL argname"},
                                         {"a23456789012345678", 0, 0, 0, "left part is 22 bytes"},
                                         {"a234567890123456789", 0, 0, 0, "left part is 23 bytes"},
                                         {"a2345678901234567890", 0, 0, 0, "left part is 24 bytes"},
                                         {"hidden", 0, 'h', 0, NULL},
                                         {"empty", 0, 'e', 0, ""},
                                         {"named", 0, 'n', "IGNORED", "argname without has_arg"},
                                         PMAPI_OPTIONS_HEADER(NULL),
                                         PMAPI_OPTIONS_TEXT(NULL),
                                         PMAPI_OPTIONS_HEADER(""),
                                         PMAPI_OPTIONS_TEXT(""),
                                         {"dash", 0, '-', 0, "a '-' short_opt makes a header"},
                                         {"bar", 0, '|', 0, "a '|' short_opt makes a text row"},
                                         PMAPI_OPTIONS_HEADER("Last section"),
                                         {"last", 0, 'l', 0, "last row"},
                                         PMAPI_OPTIONS_END};

/* A short-only row without a letter: PCP's output stops at the NUL. */
static pmLongOptions nul_options[] = {PMAPI_OPTIONS_HEADER("Options"),
                                      {"first", 0, 'f', 0, "printed"},
                                      {"", 0, 0, 0, "cut here"},
                                      {"after", 0, 'a', 0, "never printed"},
                                      PMAPI_OPTIONS_END};

/* Expected texts, from Debian's pmUsageMessage. */
static const char usage_pminfo_text[] =
    "Usage: pminfo [options] [metricname | pmid | indom]...\n"
    "\n"
    "General options:\n"
    "  -a FILE, --archive=FILE\n"
    "                        metrics source is a PCP log archive\n"
    "  -h HOST, --host=HOST  metrics source is PMCD on host\n"
    "  --container=NAME      specify an individual container to be queried\n"
    "  -L, --local-PMDA      metrics source is local connection to a PMDA\n"
    "  -K SPEC, --spec-local=SPEC\n"
    "                        optional additional PMDA spec for local connection\n"
    "  -n FILE, --namespace=FILE\n"
    "                        use an alternative PMNS\n"
    "  -N FILE, --uniqnames=FILE\n"
    "                        like -n but only one name allowed for each PMID\n"
    "  -O TIME, --origin=TIME\n"
    "                        initial sample time within the time window\n"
    "  -Z TZ, --timezone=TZ  set reporting timezone\n"
    "  -z, --hostzone        set reporting timezone to local time of metrics source\n"
    "  -V, --version         display version number and exit\n"
    "  -?, --help            show this usage message and exit\n"
    "\n"
    "Protocol options:\n"
    "  -b N, --batch=N       fetch N metrics at a time for -f and -v [128]\n"
    "  -d, --desc            get and print metric description\n"
    "  -f, --fetch           fetch and print values for all instances\n"
    "  -F, --fetchall        fetch and print values for non-enumerable indoms\n"
    "  -I, --fullindom       print InDom in verbose format\n"
    "  -l, --labels          print InDom, metric and instance labels\n"
    "  -m, --pmid            print PMID\n"
    "  -M, --fullpmid        print PMID in verbose format\n"
    "  -s, --series          print source, metric, instance series identifiers\n"
    "  -t, --oneline         get and display (terse) oneline text\n"
    "  -T, --helptext        get and display (verbose) help text\n"
    "\n"
    "Metrics options:\n"
    "  -c FILE, --derived=FILE\n"
    "                        load derived metric definitions from FILE(s)\n"
    "  -x, --events          unpack and report on any fetched event records\n"
    "  -v, --verify          verify mode, be quiet and only report errors\n";

static const char usage_general_text[] =
    "Usage: pmval [options]\n"
    "\n"
    "General options:\n"
    "  -A TIME, --align=TIME align sample times on natural boundaries\n"
    "  -a FILE, --archive=FILE\n"
    "                        metrics source is a PCP log archive\n"
    "  -g, --guimode         start in GUI mode with new time control\n"
    "  -h HOST, --host=HOST  metrics source is PMCD on host\n"
    "  -n FILE, --namespace=FILE\n"
    "                        use an alternative PMNS\n"
    "  -O TIME, --origin=TIME\n"
    "                        initial sample time within the time window\n"
    "  -p N, --guiport=N     port for connection to existing time control\n"
    "  -S TIME, --start=TIME start of the time window\n"
    "  -s N, --samples=N     terminate after this many samples\n"
    "  -T TIME, --finish=TIME\n"
    "                        end of the time window\n"
    "  -t DELTA, --interval=DELTA\n"
    "                        sampling interval\n"
    "  -Z TZ, --timezone=TZ  set reporting timezone\n"
    "  -z, --hostzone        set reporting timezone to local time of metrics source\n"
    "  -V, --version         display version number and exit\n"
    "  -?, --help            show this usage message and exit\n";

static const char usage_layout_text[] = "Usage: pmval \n"
                                        "\n"
                                        "Layout:\n"
                                        "Free text goes out as is.\n"
                                        "  -o VAL, --opt=VAL     optional argument\n"
                                        "  --only=X              long-only with argument\n"
                                        "  --flagx               long-only flag\n"
                                        "  -x ARG                short-only with argument\n"
                                        "  -y                    short-only flag\n"
                                        "  -w ?, --noname=?      NULL argname\n"
                                        "  --a23456789012345678  left part is 22 bytes\n"
                                        "  --a234567890123456789 left part is 23 bytes\n"
                                        "  --a2345678901234567890\n"
                                        "                        left part is 24 bytes\n"
                                        "  -e, --empty           \n"
                                        "  -n, --named           argname without has_arg\n"
                                        "\n"
                                        ":\n"
                                        "\n"
                                        "\n"
                                        "a '-' short_opt makes a header:\n"
                                        "a '|' short_opt makes a text row\n"
                                        "\n"
                                        "Last section:\n"
                                        "  -l, --last            last row\n";

static const char usage_nul_text[] = "Usage: pmval [x]\n"
                                     "\n"
                                     "Options:\n"
                                     "  -f, --first           printed\n"
                                     "  -";

static void check_usage(pmLongOptions *table, const char *short_usage, int flags, const char *want)
{
    pmOptions o;
    capture cap;
    char got[8192];

    memset(&o, 0, sizeof(o));
    o.long_options = table;
    o.short_usage = short_usage;
    o.flags = flags;
    capture_start(&cap);
    pmUsageMessage(&o);
    capture_end(&cap, got, sizeof(got));
    assert_string_equal(got, want);
}

/* Byte-identical to tests/cli/pminfo/help_short.stderr: pminfo's real
 * table gives --derived the short option -c. */
static void usage_pminfo(void **state)
{
    pmLongOptions table[sizeof(pminfo_options) / sizeof(pminfo_options[0])];
    size_t i;

    (void)state;
    memcpy(table, pminfo_options, sizeof(table));
    for (i = 0; table[i].long_opt != NULL; i++) {
        if (strcmp(table[i].long_opt, "derived") == 0)
            table[i].short_opt = 'c';
    }
    pmSetProgname("/usr/bin/pminfo");
    check_usage(table, "[options] [metricname | pmid | indom]...", 0, usage_pminfo_text);
}

static void usage_general_options(void **state)
{
    (void)state;
    pmSetProgname("pmval");
    check_usage(general_options, NULL, 0, usage_general_text);
}

static void usage_layout(void **state)
{
    (void)state;
    pmSetProgname("pmval");
    check_usage(layout_options, "", 0, usage_layout_text);
}

static void usage_stops_at_nul(void **state)
{
    (void)state;
    pmSetProgname("pmval");
    check_usage(nul_options, "[x]", 0, usage_nul_text);
}

static void usage_without_table(void **state)
{
    (void)state;
    pmSetProgname("pmval");
    check_usage(NULL, NULL, 0, "Usage: pmval [options]\n");
}

static void usage_runtime_error_prints_nothing(void **state)
{
    (void)state;
    check_usage(general_options, NULL, PM_OPTFLAG_RUNTIME_ERR, "");
}

/* ---- state handling ---- */

/* optind = 0 restarts the scan on a new vector; the program name is taken
 * from argv[0] on the first call of a fresh pmOptions only. */
static void restart_with_optind_zero(void **state)
{
    char *a1[] = {"/bin/one", "x", "-m", "y", NULL};
    char *a2[] = {"/bin/two", "-f", "z", "-d", NULL};
    pmOptions o;

    (void)state;
    memset(&o, 0, sizeof(o));
    o.short_options = "mfd";
    assert_int_equal(pmgetopt_r(4, a1, &o), 'm');
    assert_int_equal(o.optind, 3);
    assert_int_equal(pmgetopt_r(4, a1, &o), -1);
    assert_int_equal(o.optind, 2);
    assert_string_equal(pmGetProgname(), "one");
    o.optind = 0;
    assert_int_equal(pmgetopt_r(4, a2, &o), 'f');
    assert_int_equal(o.optind, 2);
    assert_int_equal(pmgetopt_r(4, a2, &o), 'd');
    assert_int_equal(o.optind, 4);
    assert_int_equal(pmgetopt_r(4, a2, &o), -1);
    assert_int_equal(o.optind, 3);
    assert_string_equal(a2[2], "-d");
    assert_string_equal(a2[3], "z");
    assert_string_equal(pmGetProgname(), "one");
    assert_int_equal(o.__initialized, 2);
}

/* A caller that set up the scanner itself keeps its program name and
 * ordering (0, require order). */
static void preinitialized_state_is_kept(void **state)
{
    char *av[] = {"/bin/one", "-m", "x", "-m", NULL};
    pmOptions o;

    (void)state;
    pmSetProgname("preset");
    memset(&o, 0, sizeof(o));
    o.short_options = "m";
    o.optind = 1;
    o.__initialized = 2;
    assert_int_equal(pmgetopt_r(4, av, &o), 'm');
    assert_int_equal(pmgetopt_r(4, av, &o), -1);
    assert_int_equal(o.optind, 2);
    assert_string_equal(pmGetProgname(), "preset");
}

static void posixly_correct_environment(void **state)
{
    char *av[] = {"/bin/three", "-m", "x", "-m", NULL};
    pmOptions o;

    (void)state;
    setenv("POSIXLY_CORRECT", "1", 1);
    memset(&o, 0, sizeof(o));
    o.short_options = "m";
    assert_int_equal(pmgetopt_r(4, av, &o), 'm');
    assert_int_equal(pmgetopt_r(4, av, &o), -1);
    unsetenv("POSIXLY_CORRECT");
    assert_int_equal(o.optind, 2);
    assert_int_equal(o.__posixly_correct, 1);
    assert_int_equal(o.__ordering, 0);
}

static void null_short_options_ends_at_once(void **state)
{
    char *av[] = {"/bin/four", "-m", NULL};
    pmOptions o;

    (void)state;
    pmSetProgname("before");
    memset(&o, 0, sizeof(o));
    o.long_options = pminfo_options;
    assert_int_equal(pmgetopt_r(2, av, &o), -1);
    assert_int_equal(o.optind, 0);
    assert_int_equal(o.__initialized, 0);
    assert_string_equal(pmGetProgname(), "before");
}

/* ---- pmFreeOptions ---- */

static void free_options_releases_arrays(void **state)
{
    pmOptions o;

    (void)state;
    memset(&o, 0, sizeof(o));
    pmFreeOptions(&o); /* nothing allocated: a no-op */
    o.hosts = calloc(2, sizeof(char *));
    o.nhosts = 2;
    o.archives = calloc(1, sizeof(char *));
    o.narchives = 1;
    pmFreeOptions(&o);
    assert_null(o.hosts);
    assert_null(o.archives);
    assert_int_equal(o.nhosts, 0);
    assert_int_equal(o.narchives, 0);
    pmFreeOptions(&o); /* and again: still safe */
}

#define NVECTORS (sizeof(vectors) / sizeof(vectors[0]))

int main(void)
{
    static const struct CMUnitTest fixed[] = {
        cmocka_unit_test(usage_pminfo),
        cmocka_unit_test(usage_general_options),
        cmocka_unit_test(usage_layout),
        cmocka_unit_test(usage_stops_at_nul),
        cmocka_unit_test(usage_without_table),
        cmocka_unit_test(usage_runtime_error_prints_nothing),
        cmocka_unit_test(restart_with_optind_zero),
        cmocka_unit_test(preinitialized_state_is_kept),
        cmocka_unit_test(posixly_correct_environment),
        cmocka_unit_test(null_short_options_ends_at_once),
        cmocka_unit_test(free_options_releases_arrays),
    };
    struct CMUnitTest tests[NVECTORS + sizeof(fixed) / sizeof(fixed[0])];
    size_t i;

    /* one named test per vector, then the fixed ones */
    for (i = 0; i < NVECTORS; i++) {
        tests[i] =
            (struct CMUnitTest)cmocka_unit_test_prestate(vector_matches_pcp, (void *)&vectors[i]);
        tests[i].name = vectors[i].name;
    }
    for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
        tests[NVECTORS + i] = fixed[i];
    return cmocka_run_group_tests_name("getopt", tests, NULL, NULL);
}
