/*
 * pmcpp - the PCP preprocessor.
 *
 *   pmcpp [-Prs] [-Dname[=value] ...] [-Uname ...] [-I dir ...]
 *         [-M | -MD] [-MF file] [-MT target] [-MP] [[infile] outfile]
 *
 * Options as PCP's pmcpp (bundling, GNU permutation, long forms, the
 * undocumented -d trace), plus -U and GCC's dependency options.  The work is one call into the
 * library (libpcp/front/cpp.c); this file maps options in and results out.  An outfile appears only
 * if the run succeeded, never half written.
 */
#include <pcp/pmapi.h>

#include "cpp.h"
#include "outfile.h"

#include <getopt.h>

static const char usage_text[] =
    "Usage: pmcpp [-Prs] [-Dname[=value] ...] [-I dir ...] [[infile] outfile]\n"
    "  -?, --help            show this usage message and exit\n"
    "  -D name[=value], --define=name[=value]\n"
    "                        define a macro with an optional value\n"
    "  -I dir, --include=dir additional directory to search for include files\n"
    "  -P                    do not output # lineno \"filename\" linemarkers\n"
    "  -r, --restrict        restrict macro expansion to #name or #{name}\n"
    "  -s, --shell           use alternate control syntax with prefix % instead of #\n";

/* pmkit's options: shown in the rich form only, so that PCP's form is PCP's */
static const char usage_more[] =
    "  -d                    trace the run on stderr, as PCP's pmcpp does\n"
    "  -U name               undefine a macro\n"
    "  -M, -MD               write make dependencies instead of, or as well as, the output\n"
    "  -MF file, -MT target  dependency file and target name; -MP adds phony targets\n";

typedef struct {
    cpp_options opt;
    cpp_define defs[256];
    const char *dirs[256];
    depopts dep; /* -M, -MD, -MF, -MT, -MP and the files read */
} args;

static int usage(void)
{
    fputs(usage_text, stderr);
    if (diag_form_resolve(DIAG_FORM_AUTO) == DIAG_FORM_RICH)
        fputs(usage_more, stderr);
    return 1;
}

/* A failed write stops the run; its cause is the stream's (outfile.h). */
static int to_file(void *ctx, const char *data, size_t len)
{
    return fwrite(data, 1, len, ctx) == len ? 0 : -EIO;
}

static int discard(void *ctx, const char *data, size_t len)
{
    (void)ctx, (void)data, (void)len;
    return 0;
}

static int parse(int argc, char **argv, args *a)
{
    static const struct option longopts[] = {
        {"define", required_argument, NULL, 'D'}, {"include", required_argument, NULL, 'I'},
        {"restrict", no_argument, NULL, 'r'},     {"shell", no_argument, NULL, 's'},
        {"help", no_argument, NULL, '?'},         {NULL, 0, NULL, 0},
    };
    int c;

    opterr = 0;
    while ((c = getopt_long(argc, argv, "dD:I:PrsU:?", longopts, NULL)) != -1) {
        if ((c == 'D' || c == 'U') && a->opt.n_defines < sizeof(a->defs) / sizeof(a->defs[0])) {
            cpp_define *d = &a->defs[a->opt.n_defines++];
            d->text = optarg, d->undef = c == 'U', d->argv_index = optind;
        } else if (c == 'I' && a->opt.n_include_dirs < sizeof(a->dirs) / sizeof(a->dirs[0]))
            a->dirs[a->opt.n_include_dirs++] = optarg;
        else if (c == 'P')
            a->opt.no_markers = 1;
        else if (c == 'd')
            a->opt.trace = 1; /* PCP's undocumented debug trace */
        else if (c == 'r')
            a->opt.restricted = 1;
        else if (c == 's')
            a->opt.shell_style = 1;
        else {
            if (optopt != 0 && optopt != '?')
                fprintf(stderr, "pmcpp: invalid option -- '%c'\n", optopt);
            return -1;
        }
    }
    return optind;
}

/* name with its last ".suffix" (if any) replaced by suffix. */
static void with_suffix(char *buf, size_t len, const char *name, const char *suffix)
{
    const char *slash = strrchr(name, '/'), *dot = strrchr(name, '.');
    size_t n = strlen(name);

    if (dot != NULL && dot != name && (slash == NULL || dot > slash + 1))
        n = (size_t)(dot - name);
    snprintf(buf, len, "%.*s%s", (int)n, name, suffix);
}

/* Write the dependency rule: to -MF, else stdout (-M) or OUT.d / BASE.d
 * (-MD), as GCC names them.  The default target is the outfile, else the
 * input's base name with ".o"; standard input has neither. */
static int write_deps(args *a, const char *in, const char *out)
{
    char object[MAXPATHLEN], depname[MAXPATHLEN];
    const char *base = in != NULL && strrchr(in, '/') != NULL ? strrchr(in, '/') + 1 : in;
    const char *name = out != NULL ? out : base, *target = out, *depfile = NULL;
    int sts;

    if (name == NULL && a->dep.ntargets == 0) {
        fprintf(stderr, "pmcpp: -M needs -MT or an outfile when reading standard input\n");
        return -1;
    }
    if (name == NULL && a->dep.mode == 'D' && a->dep.file == NULL) {
        fprintf(stderr, "pmcpp: -MD needs -MF or an outfile when reading standard input\n");
        return -1;
    }
    if (target == NULL && name != NULL)
        with_suffix(object, sizeof(object), name, ".o"), target = object;
    if (name != NULL)
        with_suffix(depname, sizeof(depname), name, ".d"), depfile = depname;
    if ((sts = depopts_emit(&a->dep, target, depfile)) < 0)
        fprintf(stderr, "pmcpp: cannot write the dependency file (%s): %s\n",
                depopts_path(&a->dep, depfile) != NULL ? depopts_path(&a->dep, depfile)
                                                       : "standard output",
                strerror(-sts));
    return sts;
}

/* The outfile in place, or the cause of its failure reported. */
static int finish_outfile(outfile *of, const char *out, int sts)
{
    int werr = sts == 0 ? outfile_commit(of) : outfile_error(of);

    if (werr < 0)
        fprintf(stderr, "pmcpp: Cannot write outfile (%s): %s\n", out, strerror(-werr));
    outfile_abort(of);
    return werr < 0 ? werr : sts;
}

int main(int argc, char **argv)
{
    static args a;
    char pmns[MAXPATHLEN];
    const char *in = NULL, *out = NULL;
    cpp_sink sink = {to_file, NULL};
    outfile of = {0};
    int first, sts;

    pmSetProgname(argv[0]);
    outfile_watch_stdout();
    sink.ctx = stdout;
    if ((argc = depopts_take(argc, argv, &a.dep)) < 0 || (first = parse(argc, argv, &a)) < 0 ||
        argc - first > 2)
        return usage();
    if (argc - first >= 1)
        in = argv[first];
    if (argc - first == 2)
        out = argv[first + 1];
    pmsprintf(pmns, sizeof(pmns), "%s/pmns", pmGetConfig("PCP_VAR_DIR"));
    a.opt.defines = a.defs, a.opt.include_dirs = a.dirs, a.opt.pmns_dir = pmns;
    if (a.dep.mode != 0)
        a.opt.dependency = depopts_record, a.opt.dependency_ctx = &a.dep;
    if (a.dep.mode == 'M')
        sink.write = discard;
    else if (out != NULL) {
        if ((sts = outfile_open(&of, out)) < 0) {
            fprintf(stderr, "pmcpp: Cannot open outfile (%s) for writing: %s\n", out,
                    strerror(-sts));
            return 1;
        }
        sink.ctx = of.fp;
    }
    /* the library hands over 64 KiB at a time: no second buffer needed
     * (with -M stdout keeps its buffer for the dependency rule) */
    if (sink.write == to_file)
        setvbuf(sink.ctx, NULL, _IONBF, 0);
    sts = cpp_run_file(&a.opt, in, &sink, NULL);
    if (of.fp != NULL)
        sts = finish_outfile(&of, out, sts);
    if (sts == 0 && a.dep.mode != 0)
        sts = write_deps(&a, in, out);
    if (outfile_stdout_close() < 0)
        sts = -1;
    return sts < 0 ? 1 : 0;
}
