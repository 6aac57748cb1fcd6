/*
 * gen_diag.c - random bad inputs for the diagnostics oracle
 * (tests/oracle/diag_diff.sh): one case per message of the message lists
 * of pmcpp, the ASCII PMNS loader (through pminfo -n and -N), newhelp,
 * chkhelp and pmgenmap (toolchain spec §2.14, §3.7, §5, §6), nesting and
 * recursion of #include and #shell, and pmcpp -d's trace.
 *
 * Usage:  gen_diag SEED COUNT OUTDIR
 * Writes OUTDIR/case_NNNN/ for NNNN = 0000 .. COUNT-1, each holding the
 * input files, `run` (the shell commands to run, with the tools on PATH)
 * and `kind` (which kind of case it is, one word).  Kinds take turns, so
 * any COUNT of at least the number of kinds holds every kind; the content
 * around the error (names, values, how many lines, in which included
 * file, which of several spellings of the error, which options) is drawn
 * from SEED and the case number alone.
 *
 * Every case is an input Debian's tool diagnoses or handles (the
 * surroundings avoid the PCP bugs pmkit fixes, toolchain spec §2.15, except
 * in the kinds made to show one, listed in diag_known_diffs).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "gen_rng.h"

static char casedir[4096];
static char ctrl = '#'; /* '%' for pmcpp -s */
static int no_cond;     /* filler without #ifdef blocks (a group is left open) */

/* ---- text buffers ---- */

typedef struct sbuf {
    char *p;
    size_t n, cap;
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void sb_printf(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    int need;

    va_start(ap, fmt);
    need = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (b->n + (size_t)need + 1 > b->cap) {
        b->cap = (b->n + (size_t)need + 1) * 2;
        if ((b->p = realloc(b->p, b->cap)) == NULL) {
            perror("gen_diag");
            exit(1);
        }
    }
    va_start(ap, fmt);
    vsnprintf(b->p + b->n, b->cap - b->n, fmt, ap);
    va_end(ap);
    b->n += (size_t)need;
}

static const char *sb_str(sbuf *b)
{
    if (b->p == NULL)
        sb_printf(b, "%s", "");
    return b->p;
}

/* Write sb into the case directory as name and empty it. */
static void put(const char *name, sbuf *b)
{
    char path[4200];
    FILE *fp;

    snprintf(path, sizeof(path), "%s/%s", casedir, name);
    if ((fp = fopen(path, "w")) == NULL || fputs(sb_str(b), fp) < 0 || fclose(fp) != 0) {
        perror(path);
        exit(1);
    }
    b->n = 0;
    if (b->p != NULL)
        b->p[0] = '\0';
}

static void put_text(const char *name, const char *text)
{
    sbuf b = {0};

    sb_printf(&b, "%s", text);
    put(name, &b);
    free(b.p);
}

/* ---- random words ---- */

/* A lower-case name of 1 to 6 letters (one of 8 rotating buffers). */
static const char *word(void)
{
    static char bufs[8][8];
    static int k;
    char *w = bufs[k++ & 7];
    unsigned n = 1 + rnd(6);

    for (unsigned i = 0; i < n; i++)
        w[i] = (char)('a' + rnd(26));
    w[n] = '\0';
    return w;
}

/* An upper-case macro name, distinct from the others of a case. */
static const char *macro(void)
{
    static char bufs[8][16];
    static int k, serial;
    char *w = bufs[k++ & 7];

    snprintf(w, 16, "M%c%d", 'A' + rnd(26), serial++);
    return w;
}

static const char *pick(const char *const *v, size_t n)
{
    return v[rnd((unsigned)n)];
}
#define PICK(v) pick(v, sizeof(v) / sizeof(v[0]))

/* ---- pmcpp ---- */

/* Ordinary text lines and directives PCP handles: defines, used macros,
 * comments (not under -s), an #ifdef block without #else. */
static void cpp_filler(sbuf *b, unsigned lines)
{
    static const char *defs[8];
    unsigned ndefs = 0;

    for (unsigned i = 0; i < lines; i++) {
        switch (rnd(6)) {
        case 0:
            if (ndefs < 8) {
                defs[ndefs] = macro();
                sb_printf(b, "%cdefine %s %s\n", ctrl, defs[ndefs], word());
                ndefs++;
                break;
            }
            /* fall through */
        case 1:
            sb_printf(b, "%s %s %s\n", word(), ndefs > 0 ? defs[rnd(ndefs)] : word(), word());
            break;
        case 2:
            if (ctrl == '#')
                sb_printf(b, "%s /* %s */ %s\n", word(), word(), word());
            else
                sb_printf(b, "# %s\n", word());
            break;
        case 3:
            if (!no_cond) {
                sb_printf(b, "%cifdef %s\n%s\n%cendif\n", ctrl, ndefs > 0 ? defs[0] : "NOPE",
                          word(), ctrl);
                break;
            }
            /* fall through */
        case 4:
            sb_printf(b, "\n");
            break;
        default:
            sb_printf(b, "    %s\t%u:%u:%u\n", word(), rnd(500), rnd(4000), rnd(1000));
            break;
        }
    }
}

/* The options of a pmcpp run: -P, -r, -s (for ctrl '%') in some order. */
static void cpp_opts(sbuf *run)
{
    if (ctrl == '%')
        sb_printf(run, " -s");
    if (rnd(2))
        sb_printf(run, " -P");
    if (rnd(4) == 0)
        sb_printf(run, " -r");
}

/* A main input holding bad (one or more lines, with '#' for the control
 * character at each line start given as '@'), either directly or in a
 * file included 1..3 levels down; then `pmcpp ... input` or `< input`. */
static void cpp_case(const char *bad, int nest_ok, int stdin_ok)
{
    sbuf in = {0}, run = {0}, errl = {0};
    unsigned depth = nest_ok && rnd(3) == 0 ? 1 + rnd(3) : 0;
    char name[32];

    for (const char *p = bad; *p != '\0'; p++)
        sb_printf(&errl, "%c", *p == '@' ? ctrl : *p);
    for (unsigned d = depth; d > 0; d--) { /* inc3 <- inc2 <- inc1 <- input */
        snprintf(name, sizeof(name), "inc%u", d);
        cpp_filler(&in, rnd(4));
        if (d == depth)
            sb_printf(&in, "%s", sb_str(&errl));
        else
            sb_printf(&in, "%cinclude \"inc%u\"\n", ctrl, d + 1);
        cpp_filler(&in, rnd(3));
        put(name, &in);
    }
    cpp_filler(&in, rnd(6));
    if (depth > 0)
        sb_printf(&in, "%cinclude %s\n", ctrl, rnd(2) ? "\"inc1\"" : "<inc1>");
    else
        sb_printf(&in, "%s", sb_str(&errl));
    cpp_filler(&in, rnd(4));
    put("input", &in);
    sb_printf(&run, "pmcpp");
    cpp_opts(&run);
    sb_printf(&run, stdin_ok && rnd(3) == 0 ? " < input\n" : " input\n");
    put("run", &run);
    free(in.p), free(run.p), free(errl.p);
}

static void k_cpp_missing_name(void)
{
    static const char *const v[] = {"@define\n", "@define \n", "@undef\n", "@ifdef\n",
                                    "@ifndef\t\n"};
    cpp_case(PICK(v), 1, 1);
}

static void k_cpp_illegal_name(void)
{
    static const char *const v[] = {"@define 1x 2\n", "@define a-b 1\n", "@undef x!y\n",
                                    "@ifdef a.b\n@endif\n", "@define bad_123_macro!name\n"};
    cpp_case(PICK(v), 1, 1);
}

static void k_cpp_unterminated_value(void)
{
    static const char *const v[] = {"@define X \"abc\n", "@define X 'a b\n", "@define Q \"\n"};
    cpp_case(PICK(v), 1, 1);
}

static void k_cpp_extra_text(void)
{
    static const char *const v[] = {"@define X a b\n", "@undef X y\n", "@ifdef X y\n@endif\n",
                                    "@ifndef extra !\n@endif\n", "@ifdef Z\n@endif x\n"};
    cpp_case(PICK(v), 1, 1);
}

static void k_cpp_redefinition(void)
{
    char b[64];
    const char *m = macro();

    snprintf(b, sizeof(b), "@define %s 1\n@define %s %s\n", m, m, rnd(2) ? "1" : "2");
    cpp_case(b, 1, 1);
}

static void k_cpp_stray(void)
{
    static const char *const v[] = {"@endif\n", "@else\n", "@ifdef A\n@endif\n@endif\n"};
    cpp_case(PICK(v), 1, 1);
}

static void k_cpp_include_syntax(void)
{
    static const char *const v[] = {"@include x\n",       "@include \"x\n",      "@include <x\n",
                                    "@include \"x\" y\n", "@include <x> junk\n", "@include\n"};
    cpp_case(PICK(v), 1, 1);
}

static void k_cpp_include_missing(void)
{
    static const char *const v[] = {"@include \"nosuch\"\n", "@include <nosuch.h>\n",
                                    "@include \"/nonexistent/x\"\n"};
    cpp_case(PICK(v), 1, 1);
}

static void k_cpp_shell_syntax(void)
{
    static const char *const v[] = {"@shell x\n", "@shell \"echo x\n", "@shell 'echo x\n",
                                    "@shell \"echo x\" y\n", "@shell\n"};
    cpp_case(PICK(v), 1, 1);
}

/* Nesting: a chain of includes (and a #shell) one level too deep. */
static void k_cpp_nesting_too_deep(void)
{
    sbuf f = {0}, run = {0};
    int shell = rnd(2);

    for (unsigned d = 1; d <= 4; d++) {
        cpp_filler(&f, rnd(3));
        if (d < 4)
            sb_printf(&f, "%cinclude \"n%u\"\n", ctrl, d + 1);
        else if (shell)
            sb_printf(&f, "%cshell \"echo deep\"\n", ctrl);
        else
            sb_printf(&f, "%cinclude \"n5\"\n", ctrl);
        cpp_filler(&f, rnd(2));
        char name[8];
        snprintf(name, sizeof(name), "n%u", d);
        put(name, &f);
    }
    put_text("n5", "too deep\n");
    cpp_filler(&f, rnd(3));
    sb_printf(&f, "%cinclude \"n1\"\n", ctrl);
    cpp_filler(&f, rnd(3));
    put("input", &f);
    sb_printf(&run, "pmcpp");
    cpp_opts(&run);
    sb_printf(&run, " input\n");
    put("run", &run);
    free(f.p), free(run.p);
}

/* Recursion: a file including itself, two files including each other, a
 * #shell running cat on the file that holds it. */
static void k_cpp_recursion(void)
{
    sbuf f = {0}, run = {0};
    unsigned how = rnd(3);

    cpp_filler(&f, rnd(3));
    if (how == 0)
        sb_printf(&f, "%cinclude \"input\"\n", ctrl);
    else if (how == 1)
        sb_printf(&f, "%cinclude \"other\"\n", ctrl);
    else
        sb_printf(&f, "%cshell \"cat input\"\n", ctrl);
    cpp_filler(&f, rnd(2));
    put("input", &f);
    if (how == 1) {
        cpp_filler(&f, rnd(2));
        sb_printf(&f, "%cinclude \"input\"\n", ctrl);
        put("other", &f);
    }
    sb_printf(&run, "pmcpp");
    cpp_opts(&run);
    sb_printf(&run, " input\n");
    put("run", &run);
    free(f.p), free(run.p);
}

static void k_cpp_unterminated_comment(void)
{
    if (ctrl == '%')
        ctrl = '#'; /* comments are C style only */
    cpp_case(rnd(2) ? "/* never\nclosed\n" : "text /* open\n", 0, 1);
}

/* An #ifdef of an undefined macro left open (PCP's line is right). */
static void k_cpp_unclosed_undefined(void)
{
    no_cond = 1;
    cpp_case("@ifdef NOT_DEFINED\nx\n", 0, 1);
}

/* The same for a defined macro: PCP names the last undefined one's line
 * (or 0), a bug pmkit fixes. */
static void k_cpp_unclosed_defined(void)
{
    no_cond = 1;
    cpp_case("@define YES 1\n@ifdef YES\nx\n", 0, 1);
}

/* pmkit nests conditionals (an extension); PCP refuses. */
static void k_cpp_nested_ifdef(void)
{
    cpp_case("@ifdef A\n@ifndef B\n@endif\n@endif\n", 1, 1);
}

static void k_cpp_missing_input(void)
{
    put_text("run", rnd(2) ? "pmcpp nosuchfile\n" : "pmcpp -P no/such/dir/file out\n");
}

static void k_cpp_arg_errors(void)
{
    static const char *const v[] = {"-Dfoo-bar=1", "-D1x",       "-D'X=a b'",  "-Dfoo=1 -Dfoo",
                                    "-D X=\"q",    "-P -Da!b=2", "-DA -DB -DA"};
    sbuf in = {0}, run = {0};

    cpp_filler(&in, 1 + rnd(4));
    put("input", &in);
    sb_printf(&run, "pmcpp %s input\n", PICK(v));
    put("run", &run);
    free(in.p), free(run.p);
}

/* #shell warnings: exit status and signal; the run goes on. */
static void k_cpp_shell_status(void)
{
    static const char *const v[] = {"@shell \"exit 3\"\n", "@shell 'false'\n",
                                    "@shell \"kill -13 $$\"\n", "@shell \"echo x; exit 200\"\n"};
    cpp_case(PICK(v), 1, 1);
}

/* -d on input PCP handles: macros, words, long lines. */
static void k_cpp_trace(void)
{
    sbuf in = {0}, run = {0};
    unsigned n = rnd(300);

    sb_printf(&in, "%cdefine A %s\n%cdefine B '%s %s'\n", ctrl, word(), ctrl, word(), word());
    cpp_filler(&in, rnd(6));
    sb_printf(&in, "A B %cA %c{B} x\n", ctrl, ctrl);
    for (unsigned i = 0; i < n; i++)
        sb_printf(&in, "%s", i % 7 == 0 ? "A " : "x");
    sb_printf(&in, "\n");
    cpp_filler(&in, rnd(4));
    put("input", &in);
    sb_printf(&run, "pmcpp -d");
    cpp_opts(&run);
    sb_printf(&run, " input\n");
    put("run", &run);
    free(in.p), free(run.p);
}

/* ---- the ASCII PMNS ---- */

/* A valid namespace: root with leaves and up to two subtrees. */
static void pmns_valid(sbuf *b, unsigned dom)
{
    unsigned nleaf = 1 + rnd(4), ngroup = rnd(3);

    sb_printf(b, "root {\n");
    for (unsigned i = 0; i < nleaf; i++)
        sb_printf(b, "\t%s%u\t%u:0:%u\n", word(), i, dom, i);
    for (unsigned g = 0; g < ngroup; g++)
        sb_printf(b, "    grp%u\n", g);
    sb_printf(b, "}\n");
    for (unsigned g = 0; g < ngroup; g++) {
        sb_printf(b, "\ngrp%u {\n", g);
        for (unsigned i = 0, n = 1 + rnd(3); i < n; i++)
            sb_printf(b, "  %s%u %u:%u:%u\n", word(), i, dom, g + 1, i);
        sb_printf(b, "}\n");
    }
}

/* Write ns (a valid namespace with bad placed before, inside root or at
 * the end) and run pminfo on it. */
static void pmns_case(const char *bad, int where, const char *opt)
{
    sbuf b = {0}, run = {0};

    if (where == 0)
        sb_printf(&b, "%s", bad);
    pmns_valid(&b, 1 + rnd(300));
    if (where == 1) { /* inside root: before its closing brace */
        char *close = strstr(b.p, "}\n");
        size_t at = (size_t)(close - b.p);
        sbuf c = {0};
        sb_printf(&c, "%.*s%s%s", (int)at, b.p, bad, close);
        free(b.p);
        b = c;
    }
    if (where == 2)
        sb_printf(&b, "%s", bad);
    put("ns", &b);
    sb_printf(&run, "pminfo %s ns -m\n", opt);
    put("run", &run);
    free(b.p), free(run.p);
}

static void k_pmns_pmid(void)
{
    static const char *const v[] = {"511:2:3", "1:4096:3", "1:2:1024", "99999:0:0",
                                    "1:2:*",   "*:*:*",    "1:2",      "1:*:*:*",
                                    "511:*:*", "600",      "1:4096:*"};
    char bad[64];

    snprintf(bad, sizeof(bad), "%s%s%s%s\n", rnd(2) ? "\t" : " ", word(), rnd(2) ? " " : "\t",
             PICK(v));
    pmns_case(bad, 1, "-n");
}

static void k_pmns_syntax(void)
{
    static const char *const in_root[] = {
        "    a-b 1:2:3\n", "    _a 1:2:3\n",      "    123\n",      "    x.y 1:2:3\n",
        "    {\n",         "    a 1:2:3 4:5:6\n", "    a -1:2:3\n", "    a 1:2:3}\n",
        "    a {\n",       "  a :1:2 b  :  3\n"};
    static const char *const outside[] = {"root{\n a 1:0:1\n}\n", "a-b {\n}\n", "{\n}\n",
                                          "foo\n a 1:0:1\n}\n", "x y {\n}\n"};
    static const char *const after[] = {"}\n", "xx\n yy 1:1:1\n}\n", "z {\n 1:2:3\n}\n"};

    switch (rnd(3)) {
    case 0:
        pmns_case(PICK(in_root), 1, "-n");
        break;
    case 1:
        pmns_case(PICK(outside), 0, "-n");
        break;
    default:
        pmns_case(PICK(after), 2, "-n");
        break;
    }
}

static void k_pmns_duplicate_name(void)
{
    char bad[96];
    const char *w = word();

    snprintf(bad, sizeof(bad), "\t%s 1:0:1\n\t%s%s\n", w, w, rnd(2) ? " 1:0:2" : "");
    pmns_case(bad, 1, "-n");
}

static void k_pmns_tree(void)
{
    static const char *const v[] = {"\tnodef\n", "\tnodef1\n\tnodef2\n"};
    static const char *const end[] = {"orphan {\n\tx 2:0:1\n}\n", "a {\n}\nb.c {\n x 3:3:3\n}\n",
                                      "root.q {\n}\n", "root {\n\tdup 1:0:0\n}\n", "bare\n"};
    unsigned k = rnd(4);

    if (k == 0)
        pmns_case(PICK(v), 1, "-n");
    else if (k == 1)
        pmns_case(PICK(end), 2, "-n");
    else if (k == 2)
        pmns_case("nonroot {\n\tx 1:0:0\n}\n", 2, "-n"); /* a group nothing reaches */
    else {
        put_text("ns", rnd(2) ? "" : "\n\n"); /* no root */
        put_text("run", "pminfo -n ns -m\n");
    }
}

static void k_pmns_duplicate_pmid(void)
{
    char bad[96];

    snprintf(bad, sizeof(bad), "\t%sdup 1:0:0\n\t%sdupe 1:0:0\n", word(), word());
    pmns_case(bad, 1, "-N");
}

/* The preprocessor's errors inside a namespace. */
static void k_pmns_cpp(void)
{
    static const char *const v[] = {"#ifdef X\n", "#else\n",         "#include \"nofile.pmns\"\n",
                                    "/* open\n",  "#define A 1 2\n", "#define A 1\n#define A 2\n"};
    pmns_case(PICK(v), rnd(3), "-n");
}

/* A '#' line the preprocessor passes on: a bad line marker; PCP names the
 * line before it (or the number it read), pmkit the line itself. */
static void k_pmns_marker(void)
{
    static const char *const v[] = {"# a comment\n", "#\n", "# 4321\n", "#x y z\n", "# 7777 \"\n"};
    pmns_case(PICK(v), rnd(3), "-n");
}

static void k_pmns_missing(void)
{
    put_text("run", rnd(2) ? "pminfo -n nosuch -m\n" : "pminfo -N /no/such/ns -m\n");
}

/* ---- newhelp, chkhelp ---- */

static void help_ns(void)
{
    put_text("ns", "#define DOM 245\n"
                   "root {\n    demo\n    other\n}\n"
                   "demo {\n    up DOM:0:0\n    load DOM:0:1\n    alias DOM:0:1\n    cpu\n"
                   "    proc DOM:*:*\n}\n"
                   "demo.cpu {\n    user DOM:1:0\n    sys DOM:1:1\n}\n"
                   "other {\n    x 12:0:3\n}\n");
}

static const char *help_key(void)
{
    /* not demo.alias (demo.load's PMID), nor the keys the kinds add */
    static const char *const keys[] = {"demo.up", "demo.load", "demo.cpu.user",
                                       "245.0",   "245.0.7",   "12.3.4"};
    return PICK(keys);
}

/* A clean entry (distinct from the one before it), with help text. */
static void help_entry(sbuf *b, const char *key)
{
    sb_printf(b, "@ %s %s %s\n", key, word(), word());
    for (unsigned i = 0, n = 1 + rnd(3); i < n; i++)
        sb_printf(b, "%s%s\n", rnd(4) == 0 ? "# note\n" : "", word());
}

static void help_case(const char *bad, const char *opts, int dump)
{
    sbuf b = {0}, run = {0};
    const char *last = "";

    help_ns();
    for (unsigned i = 0, n = rnd(4); i < n; i++) {
        const char *k = help_key();
        if (strcmp(k, last) != 0)
            help_entry(&b, k);
        last = k;
    }
    if (bad != NULL)
        sb_printf(&b, "%s", bad);
    put("src", &b);
    sb_printf(&run, "newhelp %s -n ns -o out src\necho \"exit $?\"\n", opts);
    if (dump)
        sb_printf(&run, "od -An -tx1 -v out.dir\nod -An -c -v out.pag\n");
    put("run", &run);
    free(b.p), free(run.p);
}

/* Entries PCP abandons: unknown name, non-leaf, a repeat of the entry
 * stored just before; messages at the line that ended the entry in PCP,
 * at the entry's own in pmkit. */
static void k_help_abandoned(void)
{
    static const char *const v[] = {"@ no.such x\n", "@ demo.cpu not a leaf\n",
                                    "@ demo.zz y\ntext\n"};
    char bad[160];

    if (rnd(2))
        snprintf(bad, sizeof(bad), "%s", PICK(v));
    else
        snprintf(bad, sizeof(bad), "@ demo.up a\n@ demo.load b\n@ demo.load c\ntext\n");
    help_case(bad, rnd(2) ? "-V" : "", 0);
}

/* -V's warnings for a missing one-line or help text. */
static void k_help_verbose(void)
{
    static const char *const v[] = {"@ demo.up\n", "@ demo.load  no help  \n", "@ 245.1\ntext\n"};
    help_case(PICK(v), "-V", 0);
}

/* Null entries: silent without -V (exit 1), "null entry?" at the @ line
 * with it; repeats PCP stores twice; a clean -V listing. */
static void k_help_null_and_twice(void)
{
    unsigned k = rnd(3);

    if (k == 0)
        help_case(rnd(2) ? "@\nskipped\n@ demo.cpu.sys s\ntext\n" : "@  \t\n", rnd(2) ? "-V" : "",
                  0);
    else if (k == 1)
        help_case("@ 245.1 a\n@ demo.up u\n@ 245.1 b\ntext\n", "", 1);
    else
        help_case("@ other.x x\ntext\n", "-V", 1);
}

static void k_help_files(void)
{
    sbuf run = {0};

    help_ns();
    put_text("src", "@ demo.up up\ntext\n");
    if (rnd(2))
        sb_printf(&run, "newhelp -n ns -o out src nosuchfile\necho \"exit $?\"\n");
    else
        sb_printf(&run, "newhelp -n nosuch.pmns -o out src\necho \"exit $?\"\n");
    put("run", &run);
    free(run.p);
}

static void k_chkhelp(void)
{
    static const char *const v[] = {"-n ns out no.such",  "-n ns -O out demo.cpu demo.up",
                                    "-n bad.pmns out",    "-n ns -e out no.such",
                                    "-n nosuch.pmns out", "-n ns out 245.0.0"};
    sbuf run = {0};

    help_ns();
    put_text("src", "@ demo.up up\ntext\n@ 245.0 indom\n");
    put_text("bad.pmns", "root {\n\ta 511:0:0\n}\n");
    sb_printf(&run, "newhelp -n ns -o out src\nchkhelp %s\necho \"exit $?\"\n", PICK(v));
    put("run", &run);
    free(run.p);
}

/* ---- pmgenmap ---- */

static void k_pmgenmap(void)
{
    static const char *const v[] = {"x y z\n",
                                    "lonely\n",
                                    "a b\n",
                                    "g {\n a A\nh {\n",
                                    "g {\n a A\n",
                                    "g {\n a A b\n}\n",
                                    "# c\ng {\n # in\n c d e\n"};
    sbuf b = {0}, run = {0};

    if (rnd(2))
        sb_printf(&b, "# %s %s\n", word(), word());
    sb_printf(&b, "map%u {\n\t%s.%s\tSYM_A\n}\n\n", rnd(9), word(), word());
    sb_printf(&b, "%s", PICK(v));
    put("spec", &b);
    sb_printf(&run, rnd(3) == 0 ? "pmgenmap < spec\n" : "pmgenmap spec\n");
    sb_printf(&run, "echo \"exit $?\"\n");
    put("run", &run);
    free(b.p), free(run.p);
}

/* ---- the kinds ---- */

static const struct {
    const char *name;
    void (*fn)(void);
    int shell_style; /* may run pmcpp -s */
} kinds[] = {
    {"cpp_missing_name", k_cpp_missing_name, 1},
    {"cpp_illegal_name", k_cpp_illegal_name, 1},
    {"cpp_unterminated_value", k_cpp_unterminated_value, 1},
    {"cpp_extra_text", k_cpp_extra_text, 1},
    {"cpp_redefinition", k_cpp_redefinition, 1},
    {"cpp_stray", k_cpp_stray, 1},
    {"cpp_include_syntax", k_cpp_include_syntax, 1},
    {"cpp_include_missing", k_cpp_include_missing, 1},
    {"cpp_shell_syntax", k_cpp_shell_syntax, 1},
    {"cpp_nesting_too_deep", k_cpp_nesting_too_deep, 1},
    {"cpp_recursion", k_cpp_recursion, 1},
    {"cpp_unterminated_comment", k_cpp_unterminated_comment, 0},
    {"cpp_unclosed_undefined", k_cpp_unclosed_undefined, 1},
    {"cpp_unclosed_defined", k_cpp_unclosed_defined, 1},
    {"cpp_nested_ifdef", k_cpp_nested_ifdef, 1},
    {"cpp_missing_input", k_cpp_missing_input, 0},
    {"cpp_arg_errors", k_cpp_arg_errors, 0},
    {"cpp_shell_status", k_cpp_shell_status, 1},
    {"cpp_trace", k_cpp_trace, 1},
    {"pmns_pmid", k_pmns_pmid, 0},
    {"pmns_syntax", k_pmns_syntax, 0},
    {"pmns_duplicate_name", k_pmns_duplicate_name, 0},
    {"pmns_tree", k_pmns_tree, 0},
    {"pmns_duplicate_pmid", k_pmns_duplicate_pmid, 0},
    {"pmns_cpp", k_pmns_cpp, 0},
    {"pmns_marker", k_pmns_marker, 0},
    {"pmns_missing", k_pmns_missing, 0},
    {"help_abandoned", k_help_abandoned, 0},
    {"help_verbose", k_help_verbose, 0},
    {"help_null_and_twice", k_help_null_and_twice, 0},
    {"help_files", k_help_files, 0},
    {"chkhelp", k_chkhelp, 0},
    {"pmgenmap", k_pmgenmap, 0},
};
#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

int main(int argc, char **argv)
{
    unsigned long seed, count;

    if (argc != 4) {
        fprintf(stderr, "Usage: gen_diag SEED COUNT OUTDIR\n");
        return 2;
    }
    seed = strtoul(argv[1], NULL, 10);
    count = strtoul(argv[2], NULL, 10);
    if (mkdir(argv[3], 0777) < 0 && errno != EEXIST) {
        perror(argv[3]);
        return 1;
    }
    for (unsigned long i = 0; i < count; i++) {
        size_t k = i % NKINDS;
        rng_state = seed * 1000003u + i;
        snprintf(casedir, sizeof(casedir), "%s/case_%04lu", argv[3], i);
        if (mkdir(casedir, 0777) < 0 && errno != EEXIST) {
            perror(casedir);
            return 1;
        }
        ctrl = kinds[k].shell_style && rnd(4) == 0 ? '%' : '#';
        no_cond = 0;
        kinds[k].fn();
        put_text("kind", kinds[k].name);
    }
    return 0;
}
