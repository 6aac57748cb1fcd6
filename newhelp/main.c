/*
 * newhelp - compile help text into a help database (BASE.dir, BASE.pag).
 *
 *   newhelp [-SV] [-n pmnsfile] [-o basename] [-v 2] [file ...]
 *
 * Options, usage text, output bytes and exit status as PCP's newhelp: 0
 * clean, 1 warnings (an @ line with no key; with -V an empty one-line or
 * help text), 2 errors.  Keys are resolved through the public namespace
 * API (pmLoadASCIINameSpace, pmLookupName); the source parser is
 * libpcp/front/help_parse.c and the writer help_write (libpcp/pmda/help.c).
 *
 * Repeated keys follow PCP's rule (one that repeats the entry stored just
 * before it is abandoned, any other is stored twice) unless -S asks for
 * every repeat to be refused.  Diagnostics are PCP's (diag.h), at the line
 * of the entry they concern, or pmkit's rich form.
 *
 * Unlike PCP: any error (an unknown name, a refused duplicate, an
 * unreadable file) writes nothing, and both files are written under
 * temporary names and renamed into place only when complete.
 */
#include <pcp/pmapi.h>

#include "help_int.h"
#include "help_parse.h"
#include "input_limit.h"
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/mman.h>

static pmLongOptions longopts[] = {
    PMAPI_OPTIONS_HEADER("General options"),
    PMOPT_DEBUG,
    PMOPT_NAMESPACE,
    PMOPT_HELP,
    PMAPI_OPTIONS_HEADER("Output options"),
    {"output", 1, 'o', "FILE", "base name for output files"},
    {"verbose", 0, 'V', 0, "verbose/diagnostic output"},
    {"version", 1, 'v', "N", "deprecated (only version 2 format supported)"},
    {"strict", 0, 'S', 0, NULL}, /* pmkit's: its text is set for the rich form only */
    PMAPI_OPTIONS_END,
};

static pmOptions opts = {
    .short_options = "D:n:o:SVv:?",
    .long_options = longopts,
    .short_usage = "[options] [file ...]",
};

typedef struct run {
    help_parser parser;
    struct source {
        char *buf; /* the text: mmap'd, or malloc'd */
        size_t len;
        int mapped;
    } * src; /* the sources, kept while entries point into them */
    size_t nsrc;
    help_wentry *out; /* the entries to write */
    size_t nout;
    int verbose;
    int strict; /* -S: refuse every repeated key */
} run;

static int parse_options(int argc, char **argv, const char **pmns, const char **base, run *r)
{
    int c;

    while ((c = pmgetopt_r(argc, argv, &opts)) != -1) {
        char *end;
        long version;
        if (c == 'D' && pmSetDebug(opts.optarg) < 0) {
            fprintf(stderr, "%s: unrecognized debug options specification (%s)\n", pmGetProgname(),
                    opts.optarg);
            opts.errors++;
        } else if (c == 'n') {
            *pmns = opts.optarg;
        } else if (c == 'o') {
            *base = opts.optarg;
        } else if (c == 'V') {
            r->verbose = 1;
        } else if (c == 'S') {
            r->strict = 1;
        } else if (c == 'v') {
            version = strtol(opts.optarg, &end, 10);
            if (*end != '\0') {
                fprintf(stderr, "%s: -v requires numeric argument\n", pmGetProgname());
                opts.errors++;
            }
            if (version != 2) {
                fprintf(stderr, "%s: deprecated option - only version 2 is supported\n",
                        pmGetProgname());
                opts.errors++;
            }
        } else if (c != 'D') {
            opts.errors++;
        }
    }
    return opts.errors ? -1 : opts.optind;
}

/* Read and parse one source (path NULL: standard input). */
static int read_source(run *r, const char *path)
{
    const char *name = path != NULL ? path : "<stdin>";
    int fd = path != NULL ? open(path, O_RDONLY) : STDIN_FILENO;
    struct source src = {NULL, 0, 0}, *all = NULL;
    size_t limit = pmkit_input_limit(); /* a source is held whole: /dev/zero must end */
    char why[160];
    int sts = fd < 0 ? -errno : 0;

    if (sts == 0 && !(src.mapped = help_map_fd(fd, limit, &src.buf, &src.len)))
        sts = help_read_fd(fd, limit, &src.buf, &src.len);
    if (fd > STDIN_FILENO)
        close(fd);
    if (sts == 0 && (all = realloc(r->src, (r->nsrc + 1) * sizeof(*all))) == NULL)
        sts = -ENOMEM;
    if (sts < 0) {
        if (src.mapped)
            munmap(src.buf, src.len);
        else
            free(src.buf);
        r->parser.errors++;
        if (sts == -EFBIG) /* pmkit's own reason: PCP reads an endless file for ever */
            snprintf(why, sizeof(why), "larger than the input limit (%zu bytes, %s)", limit,
                     PMKIT_INPUT_LIMIT_ENV);
        else
            snprintf(why, sizeof(why), "%s", pmErrStr(sts));
        if (help_pcp_form(&r->parser)) { /* PCP's perror(3), and PCP stops there */
            fprintf(stderr, "%s: %s\n", name, why);
            return sts == -ENOMEM ? sts : -EIO;
        }
        fprintf(stderr, "%s: error: %s\n", name, why);
        return sts == -ENOMEM ? sts : 0;
    }
    r->src = all;
    r->src[r->nsrc++] = src;
    return help_parse(&r->parser, name, src.buf, src.len);
}

static int lookup(void *ctx, const char *name, uint32_t *pmid)
{
    pmID id;
    int sts = pmLookupName(1, &name, &id);

    (void)ctx;
    *pmid = id;
    return sts;
}

/* Resolve, check and collect every entry, in source order (help_resolve). */
static int collect(run *r)
{
    help_resolve_opts o = {lookup, NULL, r->strict, r->verbose};
    size_t *kept, n;
    int sts = help_resolve(&r->parser, &o, &kept, &n);

    if (sts < 0)
        return sts;
    if ((r->out = malloc((n + 1) * sizeof(*r->out))) == NULL) {
        free(kept);
        return -ENOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        const help_src_entry *e = &r->parser.ent[kept[i]];
        r->out[i] = (help_wentry){e->key,     e->word,        e->word_len,
                                  e->oneline, e->oneline_len, help_entry_text(&r->parser, e),
                                  e->text_len};
    }
    r->nout = n;
    free(kept);
    return 0;
}

/* Write BASE.dir and BASE.pag: the new pair, or the old one untouched
 * when writing fails, or (interrupted while they are renamed) no .dir. */
static int write_database(run *r, const char *base)
{
    char dir[MAXPATHLEN], pag[MAXPATHLEN];
    const char *failed = base;
    outfile od = {0}, op = {0};
    int sts, which;

    pmsprintf(dir, sizeof(dir), "%s.dir", base);
    pmsprintf(pag, sizeof(pag), "%s.pag", base);
    if ((sts = outfile_open(&op, pag)) < 0)
        failed = pag;
    else if ((sts = outfile_open(&od, dir)) < 0)
        failed = dir;
    else {
        sts = help_write(r->out, r->nout, od.fp, op.fp);
        fflush(op.fp); /* every byte tried: a failure is its stream's, with its file */
        fflush(od.fp);
        if (outfile_error(&op) < 0)
            sts = outfile_error(&op), failed = pag;
        else if (outfile_error(&od) < 0)
            sts = outfile_error(&od), failed = dir;
        else if (sts == 0 && (sts = outfile_commit_pair(&op, &od, &which)) < 0)
            failed = which ? dir : pag;
    }
    outfile_abort(&op);
    outfile_abort(&od);
    if (sts < 0)
        fprintf(stderr, "%s: cannot write %s: %s\n", pmGetProgname(), failed, pmErrStr(sts));
    return sts;
}

int main(int argc, char **argv)
{
    static run r;
    const char *pmns = NULL, *base = NULL;
    int first, sts = 0, written = 0;

    pmSetProgname(argv[0]);
    if ((first = parse_options(argc, argv, &pmns, &base, &r)) < 0) {
        if (diag_form_resolve(DIAG_FORM_AUTO) == DIAG_FORM_RICH) /* PCP's form: PCP's lines */
            longopts[sizeof(longopts) / sizeof(longopts[0]) - 2].message =
                "refuse every repeated key (default: PCP's rule)";
        pmUsageMessage(&opts);
        return 2;
    }
    if (first == argc && base == NULL) {
        fprintf(stderr,
                "%s: need either a -o option or a filename argument to name the "
                "output file\n",
                pmGetProgname());
        return 2;
    }
    if ((sts = pmLoadASCIINameSpace(pmns, 1)) < 0) {
        fprintf(stderr, "%s: pmLoadASCIINameSpace(%s, 1): %s\n", pmGetProgname(),
                pmns != NULL ? pmns : "(null)", pmErrStr(sts));
        return 2;
    }
    r.parser.prog = pmGetProgname();
    for (int i = first; sts == 0 && (i < argc || i == first); i++)
        sts = read_source(&r, i < argc ? argv[i] : NULL);
    if (sts == 0)
        sts = collect(&r);
    if (sts == 0 && r.parser.errors == 0) /* a write error: reported, exit 2 */
        written = write_database(&r, base != NULL ? base : argv[first]);
    else if (sts == 0 && !help_pcp_form(&r.parser))
        fprintf(stderr, "%s: %u error%s, nothing written\n", pmGetProgname(), r.parser.errors,
                r.parser.errors == 1 ? "" : "s");
    if (sts == -ENOMEM)
        fprintf(stderr, "%s: %s\n", pmGetProgname(), pmErrStr(sts));
    if (sts == -EIO)
        sts = 0; /* an unreadable input, reported: exit 2 through the error count */
    for (size_t i = 0; i < r.nsrc; i++) {
        if (r.src[i].mapped)
            munmap(r.src[i].buf, r.src[i].len);
        else
            free(r.src[i].buf);
    }
    free(r.src);
    free(r.out);
    help_parser_free(&r.parser);
    pmUnloadNameSpace();
    return sts < 0 || written < 0 || r.parser.errors ? 2 : r.parser.warnings ? 1 : 0;
}
