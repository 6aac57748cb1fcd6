/*
 * pmnsmerge - merge namespaces into one.
 *
 *   pmnsmerge [-adfxv] [-b] [-D debug] infile [...] outfile
 *
 * PCP's pmnsmerge, in-process: the inputs are ordered by their _DATESTAMP
 * lines (unless -a), loaded as pmLoadASCIINameSpace loads them (through
 * the in-process preprocessor; binary images too), merged into the first
 * and written as canonical ASCII PMNS, or with -b as a namespace image
 * (libpcp/edit).  Options, messages, warnings, order and exit status are
 * PCP's.
 *
 * Differences (docs/compat.md): outfile is written under a temporary name
 * and renamed into place, so it is never half written and a failed run
 * leaves it as it was (PCP creates it, empty, before reading an input; -f
 * no longer truncates an outfile that is also an input); an empty
 * non-leaf is written as an empty group, not as "511:4095:1023"; the
 * result is checked against itself in memory (PCP reloads the file), so
 * only -x (duplicate PMIDs) can fail there, and as in PCP the output then
 * stays, complete.
 */
#include <pcp/pmapi.h>

#include "inplace.h"
#include "outfile.h"
#include "pmns_edit.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pmLongOptions longopts[] = {
    PMAPI_OPTIONS_HEADER("Options"),
    {"", 0, 'a', 0, "process files in order, ignoring embedded _DATESTAMP control lines"},
    PMOPT_DEBUG,
    {"dupok", 0, 'd', 0, "duplicate names for the same PMID are allowed [default]"},
    {"force", 0, 'f', 0, "force overwriting of the output file if it exists"},
    {"nodups", 0, 'x', 0, "duplicate names for the same PMID are not allowed"},
    {"verbose", 0, 'v', 0, "verbose, echo input file names as processed"},
    {"binary", 0, 'b', 0, NULL}, /* pmkit's: listed in the rich form of the usage */
    PMOPT_HELP,
    PMAPI_OPTIONS_END,
};

static pmOptions opts = {
    .short_options = "abD:dfxv?",
    .long_options = longopts,
    .short_usage = "[options] infile [...] outfile",
};

/* PCP's usage; pmkit's -b too in the rich form of diagnostics. */
static void usage(void)
{
    pmns_edit_usage(&opts);
}

typedef struct args {
    int ordered; /* by _DATESTAMP (no -a) */
    int dupok;
    int force;
    int verbose;
    int image; /* -b */
} args;

static void parse(int argc, char **argv, args *a)
{
    int c;

    pmSetProgname(argv[0]);
    while ((c = pmgetopt_r(argc, argv, &opts)) != -1) {
        switch (c) {
        case 'a':
            a->ordered = 0;
            break;
        case 'b':
            a->image = 1;
            break;
        case 'D':
            if (pmSetDebug(opts.optarg) < 0) {
                pmprintf("%s: unrecognized debug options specification (%s)\n", pmGetProgname(),
                         opts.optarg);
                opts.errors++;
            }
            break;
        case 'd':
            fprintf(stderr, "%s: Warning: -d deprecated, duplicate PMNS names allowed by default\n",
                    pmGetProgname());
            a->dupok = 1;
            break;
        case 'f':
            a->force = 1;
            break;
        case 'x':
            a->dupok = 0;
            break;
        case 'v':
            a->verbose++;
            break;
        default:
            opts.errors++;
            break;
        }
    }
}

static void loading(void *ctx, const pmns_source *s)
{
    if (*(const int *)ctx)
        printf("%s:\n", s->file);
}

static void conflict(void *ctx, const char *name, uint32_t kept, uint32_t ignored)
{
    char k[32], i[32];

    (void)ctx;
    fprintf(stderr,
            "%s: Warning: performance metric \"%s\" has multiple PMIDs.\n"
            "... using PMID %s and ignoring PMID %s\n",
            pmGetProgname(), name, pmIDStr_r(kept, k, sizeof(k)), pmIDStr_r(ignored, i, sizeof(i)));
}

/* Without duplicates allowed, the result must load without them (PCP
 * reloads its output file): 0, or the loader's status after its report. */
static int check_nodups(const pmns_ed *e, const char *out)
{
    pmns_load_opts o = {0};
    pmns_tree *t;
    char *text;
    size_t len;
    int sts;

    if ((sts = pmns_ed_text(e, &text, &len)) < 0)
        return sts;
    o.file = out;
    sts = pmns_load_buffer(&o, text, len, &t);
    free(text);
    pmns_free(t);
    return sts;
}

/* The merge of the inputs, written to of: 0, or 1 after a message. */
static int merge(args *a, char **in, size_t n, outfile *of, const char *out)
{
    pmns_source *src = calloc(n, sizeof(*src));
    pmns_merge_report r = {loading, conflict, &a->verbose};
    pmns_load_opts o = {0};
    pmns_ed *e = NULL;
    size_t bad = 0;
    int sts = 0;

    if (src == NULL) {
        fprintf(stderr, "%s: Error: %s\n", pmGetProgname(), strerror(ENOMEM));
        return 1;
    }
    for (size_t i = 0; i < n; i++)
        src[i].file = in[i];
    if (a->ordered) {
        if (pmns_sources_order(src, n, &bad) < 0) {
            fprintf(stderr, "%s: Error: cannot open input PMNS file \"%s\"\n", pmGetProgname(),
                    src[bad].file);
            sts = 1;
        } else if (a->verbose > 1) {
            for (size_t i = 0; i < n; i++)
                printf("arg[%zu] %s _DATESTAMP=%s\n", i, src[i].file,
                       src[i].stamp != NULL ? src[i].stamp : "(null)");
        }
    }
    o.use_cpp = 1;
    o.dupok = a->dupok;
    if (sts == 0 && (sts = pmns_merge_sources(src, n, &o, &r, &e, &bad)) < 0) {
        fprintf(stderr, "%s: Error: pmLoadASCIINameSpace(%s, %d): %s\n", pmGetProgname(),
                src[bad].file, a->dupok, pmErrStr(sts));
        sts = 1;
    }
    if (sts == 0) {
        o.file = out;
        sts = a->image ? pmns_ed_write_image(e, &o, of->fp) : pmns_ed_write(e, of->fp);
        if (sts < 0) {
            fprintf(stderr, "%s: Error: cannot write output PMNS file \"%s\": %s\n",
                    pmGetProgname(), out, pmErrStr(sts));
            sts = 1;
        }
    }
    if (sts == 0 && !a->dupok && (sts = check_nodups(e, out)) < 0) {
        /* as PCP's: the output is written all the same, and the run fails */
        int c = outfile_commit(of);
        if (c < 0)
            fprintf(stderr, "%s: Error: cannot write output PMNS file \"%s\": %s\n",
                    pmGetProgname(), out, strerror(-c));
        fprintf(stderr, "%s: Error: pmLoadASCIINameSpace(%s, 0): %s\n", pmGetProgname(), out,
                pmErrStr(sts));
        sts = 2;
    }
    pmns_ed_free(e);
    pmns_sources_clear(src, n);
    free(src);
    return sts;
}

int main(int argc, char **argv)
{
    args a = {1, 1, 0, 0, 0};
    const char *out;
    struct stat st;
    outfile of;
    int sts, lock = -1;

    parse(argc, argv, &a);
    if (opts.errors || opts.optind > argc - 2) {
        usage();
        return 1;
    }
    out = argv[argc - 1];
    if (!a.force && access(out, F_OK) == 0) {
        fprintf(stderr,
                "%s: Error: output PMNS file \"%s\" already exists!\n"
                "You must either remove it first, or use -f\n",
                pmGetProgname(), out);
        return 1;
    }
    /* an outfile that may be an input too (pmnsmerge -f ns x ns) is
     * locked as pmnsadd and pmnsdel lock the namespace they change */
    if (a.force && (sts = inplace_lock(out, &lock, &st)) < 0 && sts != -ENOENT)
        lock = -1;
    if ((stat(out, &st) == 0 && S_ISDIR(st.st_mode) && (sts = -EISDIR)) ||
        (sts = outfile_open(&of, out)) < 0) {
        fprintf(stderr, "%s: Error: cannot create output PMNS file \"%s\": %s\n", pmGetProgname(),
                out, strerror(-sts));
        inplace_unlock(lock);
        return 1;
    }
    sts = merge(&a, argv + opts.optind, (size_t)(argc - 1 - opts.optind), &of, out);
    if (sts == 0 && (sts = outfile_commit(&of)) < 0) {
        fprintf(stderr, "%s: Error: cannot write output PMNS file \"%s\": %s\n", pmGetProgname(),
                out, strerror(-sts));
        sts = 1;
    } else if (sts == 1) {
        outfile_abort(&of);
    }
    inplace_unlock(lock);
    return sts != 0;
}
