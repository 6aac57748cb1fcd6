/*
 * newhelp - compile help text into a help database (BASE.dir, BASE.pag).
 *
 *   newhelp [-V] [-n pmnsfile] [-o basename] [-v 2] [file ...]
 *
 * Options, usage text, output bytes and exit status as PCP's newhelp: 0
 * clean, 1 warnings (an @ line with no key; with -V an empty one-line or
 * help text), 2 errors.  Keys are resolved through the public namespace
 * API (pmLoadASCIINameSpace, pmLookupName); the source parser is
 * libpcp/front/help_parse.c and the writer help_write (libpcp/pmda/help.c).
 *
 * Unlike PCP: any error (an unknown name, a duplicate key anywhere in the
 * input, an unreadable file) writes nothing, and both files are written
 * under temporary names and renamed into place only when complete; every
 * error of the run is reported, at the line of the entry it concerns.
 */
#include <pcp/pmapi.h>

#include "help_int.h"
#include "help_parse.h"
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
    PMAPI_OPTIONS_END,
};

static pmOptions opts = {
    .short_options = "D:n:o:Vv:?",
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
    uint64_t *seen; /* duplicate check: key << 32 | entry + 1 */
    uint32_t mask;
    int verbose;
} run;

static int parse_options(int argc, char **argv, const char **pmns, const char **base, int *verbose)
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
            *verbose = 1;
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
    int sts = fd < 0 ? -errno : 0;

    if (sts == 0 && !(src.mapped = help_map_fd(fd, &src.buf, &src.len)))
        sts = help_read_fd(fd, &src.buf, &src.len);
    if (fd > STDIN_FILENO)
        close(fd);
    if (sts == 0 && (all = realloc(r->src, (r->nsrc + 1) * sizeof(*all))) == NULL)
        sts = -ENOMEM;
    if (sts < 0) {
        if (src.mapped)
            munmap(src.buf, src.len);
        else
            free(src.buf);
        fprintf(stderr, "%s: error: %s\n", name, pmErrStr(sts));
        r->parser.errors++;
        return sts == -ENOMEM ? sts : 0;
    }
    r->src = all;
    r->src[r->nsrc++] = src;
    return help_parse(&r->parser, name, src.buf, src.len);
}

/* "d.c.i" or "d.s", as PCP shows keys. */
static const char *key_str(uint32_t key, char *buf, size_t len)
{
    if (key & HELP_INDOM_FLAG)
        pmsprintf(buf, len, "%u.%u", (key >> 22) & 0x1ff, key & 0x3fffff);
    else
        pmsprintf(buf, len, "%u.%u.%u", (key >> 22) & 0x1ff, (key >> 10) & 0xfff, key & 0x3ff);
    return buf;
}

/* Resolve an entry's key; 0, or -1 after reporting why it cannot be. */
static int resolve(run *r, help_src_entry *e)
{
    char name[4096], *big = NULL;
    const char *np = name;
    pmID pmid;
    int sts;

    if (e->kind != HELP_KEY_NAME)
        return 0;
    if (e->word_len >= sizeof(name)) {
        if ((big = malloc(e->word_len + 1)) == NULL)
            return -1;
        np = big;
    }
    memcpy((char *)np, e->word, e->word_len);
    ((char *)np)[e->word_len] = '\0';
    sts = pmLookupName(1, &np, &pmid);
    free(big);
    if (sts < 0)
        help_report(&r->parser, e, DIAG_ERROR, "%.*s: %s", (int)e->word_len, e->word,
                    pmErrStr(sts));
    else if (pmid == PM_ID_NULL)
        help_report(&r->parser, e, DIAG_ERROR, "%.*s: unknown metric", (int)e->word_len, e->word);
    e->key = pmid;
    return sts < 0 || pmid == PM_ID_NULL ? -1 : 0;
}

/* 0 if e's key is new; else report the duplicate and return -1. */
static int check_duplicate(run *r, help_src_entry *e, size_t i)
{
    uint32_t h = help_key_mix(e->key) & r->mask;
    char kb[32];

    for (; r->seen[h] != 0; h = (h + 1) & r->mask) {
        if ((uint32_t)(r->seen[h] >> 32) == e->key) {
            const help_src_entry *first = &r->parser.ent[(uint32_t)r->seen[h] - 1];
            help_report(&r->parser, e, DIAG_ERROR,
                        "duplicate key (%s): %.*s has the key of %.*s at %s:%lu",
                        key_str(e->key, kb, sizeof(kb)), (int)e->word_len, e->word,
                        (int)first->word_len, first->word, first->file, first->line);
            return -1;
        }
    }
    r->seen[h] = (uint64_t)e->key << 32 | (i + 1);
    return 0;
}

/* Resolve, check and collect every entry; -V lists them as PCP does. */
static int collect(run *r)
{
    uint32_t size = 16;

    while (size < 2 * r->parser.n + 2)
        size *= 2;
    r->mask = size - 1;
    r->seen = calloc(size, sizeof(*r->seen));
    r->out = malloc((r->parser.n + 1) * sizeof(*r->out));
    if (r->seen == NULL || r->out == NULL)
        return -ENOMEM;
    for (size_t i = 0; i < r->parser.n; i++) {
        help_src_entry *e = &r->parser.ent[i];
        if (resolve(r, e) < 0 || check_duplicate(r, e, i) < 0)
            continue;
        r->out[r->nout++] =
            (help_wentry){e->key,     e->word,        e->word_len,
                          e->oneline, e->oneline_len, help_entry_text(&r->parser, e),
                          e->text_len};
        if (!r->verbose)
            continue;
        if (e->oneline_len == 0)
            help_report(&r->parser, e, DIAG_WARNING, "%.*s: null oneline", (int)e->word_len,
                        e->word);
        if (e->text_len == 0)
            help_report(&r->parser, e, DIAG_WARNING, "%.*s: null help", (int)e->word_len, e->word);
        if (e->oneline_len != 0 && e->text_len != 0)
            fprintf(stderr, "%.*s\n", (int)e->word_len, e->word);
    }
    return 0;
}

/* Write BASE.dir and BASE.pag whole, or neither. */
static int write_database(run *r, const char *base)
{
    char dir[MAXPATHLEN], pag[MAXPATHLEN];
    outfile od, op;
    int sts;

    pmsprintf(dir, sizeof(dir), "%s.dir", base);
    pmsprintf(pag, sizeof(pag), "%s.pag", base);
    if ((sts = outfile_open(&op, pag)) == 0 && (sts = outfile_open(&od, dir)) < 0)
        outfile_abort(&op);
    if (sts == 0) {
        sts = help_write(r->out, r->nout, od.fp, op.fp);
        if (sts == 0 && (fflush(op.fp) != 0 || fflush(od.fp) != 0))
            sts = -errno;
        if (sts < 0 || (sts = outfile_commit(&op)) < 0)
            outfile_abort(&od);
        else
            sts = outfile_commit(&od);
        if (sts < 0)
            outfile_abort(&op);
    }
    if (sts < 0)
        fprintf(stderr, "%s: cannot write %s: %s\n", pmGetProgname(), base, pmErrStr(sts));
    return sts;
}

int main(int argc, char **argv)
{
    static run r;
    const char *pmns = NULL, *base = NULL;
    int first, sts = 0;

    pmSetProgname(argv[0]);
    if ((first = parse_options(argc, argv, &pmns, &base, &r.verbose)) < 0) {
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
    for (int i = first; sts == 0 && (i < argc || i == first); i++)
        sts = read_source(&r, i < argc ? argv[i] : NULL);
    if (sts == 0)
        sts = collect(&r);
    if (sts == 0 && r.parser.errors == 0)
        sts = write_database(&r, base != NULL ? base : argv[first]);
    else if (sts == 0)
        fprintf(stderr, "%s: %u error%s, nothing written\n", pmGetProgname(), r.parser.errors,
                r.parser.errors == 1 ? "" : "s");
    if (sts == -ENOMEM)
        fprintf(stderr, "%s: %s\n", pmGetProgname(), pmErrStr(sts));
    for (size_t i = 0; i < r.nsrc; i++) {
        if (r.src[i].mapped)
            munmap(r.src[i].buf, r.src[i].len);
        else
            free(r.src[i].buf);
    }
    free(r.src);
    free(r.out);
    free(r.seen);
    help_parser_free(&r.parser);
    pmUnloadNameSpace();
    return sts < 0 || r.parser.errors ? 2 : r.parser.warnings ? 1 : 0;
}
