/*
 * pmnsdel - take subtrees of names out of a namespace.
 *
 *   pmnsdel [-b] [-D debug] [-n pmnsfile] metricpath [...]
 *
 * PCP's pmnsdel, in-process: the namespace (-n, else $PMNS_DEFAULT, else
 * $PCP_VAR_DIR/pmns/root) is loaded as pmLoadASCIINameSpace loads it, each
 * metricpath and everything below it is taken out, and so is each
 * non-leaf left without children (libpcp/edit); then the namespace is
 * written back in its own format, text or image (-b: an image either
 * way).  Options, messages and exit status are PCP's; nothing is written
 * when a metricpath is not in the namespace.
 *
 * The namespace is locked while it changes (toolsupport/inplace.c), so
 * runs of pmnsdel and pmnsadd on it follow one another; the new file is
 * written under a temporary name beside it, given its mode and owner, and
 * renamed over it: never half written, even when interrupted.  An empty
 * non-leaf is written as an empty group, not as "511:4095:1023"
 * (docs/compat.md).
 */
#include <pcp/pmapi.h>

#include "inplace.h"
#include "outfile.h"
#include "pmns_edit.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static pmLongOptions longopts[] = {
    PMAPI_OPTIONS_HEADER("Options"),
    PMOPT_DEBUG,
    PMOPT_NAMESPACE,
    {"binary", 0, 'b', 0, NULL}, /* pmkit's: listed in the rich form of the usage */
    PMOPT_HELP,
    PMAPI_OPTIONS_END,
};

static pmOptions opts = {
    .short_options = "bdD:n:?",
    .long_options = longopts,
    .short_usage = "[options] metricpath [...]",
};

/* PCP's usage; pmkit's -b too in the rich form of diagnostics. */
static void usage(void)
{
    pmns_edit_usage(&opts);
}

typedef struct args {
    const char *file; /* -n */
    int image;        /* -b */
} args;

static void parse(int argc, char **argv, args *a)
{
    int c;

    pmSetProgname(argv[0]);
    while ((c = pmgetopt_r(argc, argv, &opts)) != -1) {
        switch (c) {
        case 'b':
            a->image = 1;
            break;
        case 'd':
            fprintf(stderr, "%s: Warning: -d deprecated, duplicate PMNS names allowed by default\n",
                    pmGetProgname());
            break;
        case 'D':
            if (pmSetDebug(opts.optarg) < 0) {
                pmprintf("%s: unrecognized debug options specification (%s)\n", pmGetProgname(),
                         opts.optarg);
                opts.errors++;
            }
            break;
        case 'n':
            a->file = opts.optarg;
            break;
        default:
            opts.errors++;
            break;
        }
    }
}

/* e written over the namespace file, as it was (mode, owner, format):
 * 0, or 1 after a message. */
static int replace(const pmns_ed *e, const char *file, int image)
{
    pmns_load_opts o = {0};
    outfile of;
    int sts;

    if ((sts = inplace_open(&of, file)) < 0) {
        fprintf(stderr, "%s: Error: cannot open PMNS file \"%s.new\" for writing: %s\n",
                pmGetProgname(), file, strerror(-sts));
        return 1;
    }
    o.file = file;
    if ((sts = image ? pmns_ed_write_image(e, &o, of.fp) : pmns_ed_write(e, of.fp)) < 0) {
        outfile_abort(&of);
        fprintf(stderr, "%s: Error: cannot write PMNS file \"%s.new\": %s\n", pmGetProgname(), file,
                pmErrStr(sts));
        return 1;
    }
    if ((sts = outfile_commit(&of)) < 0) {
        fprintf(stderr, "%s: Error: cannot replace PMNS file \"%s\": %s\n", pmGetProgname(), file,
                strerror(-sts));
        return 1;
    }
    return 0;
}

/* Take the names out and write the namespace back: 0, or 1 after a message. */
static int delete (const char *file, int image, char **names, int n)
{
    pmns_source src = {file, NULL, 0, NULL, 0};
    pmns_load_opts o = {0};
    pmns_tree *t;
    pmns_ed *e;
    struct stat st;
    int sts, lock;

    if (inplace_lock(file, &lock, &st) < 0)
        lock = -1; /* the loader says why it cannot read the file */
    o.use_cpp = 1;
    o.dupok = 1;
    if ((sts = pmns_source_load(&src, &o, &t)) < 0 || (sts = pmns_ed_new(t, &e)) < 0) {
        fprintf(stderr, "%s: Error: pmLoadASCIINameSpace(%s, 1): %s\n", pmGetProgname(), file,
                pmErrStr(sts));
        inplace_unlock(lock);
        return 1;
    }
    for (int i = 0; i < n && sts == 0; i++) {
        if ((sts = pmns_ed_delete(e, names[i])) < 0)
            fprintf(stderr, "%s: Error: metricpath \"%s\" not defined in the PMNS\n",
                    pmGetProgname(), names[i]);
    }
    if (sts == 0 && lock < 0 && stat(file, &st) < 0)
        sts = -errno;
    if (sts == 0)
        sts = replace(e, file, image || src.is_image);
    pmns_ed_free(e);
    inplace_unlock(lock);
    return sts != 0;
}

int main(int argc, char **argv)
{
    args a = {NULL, 0};
    char def[MAXPATHLEN];

    parse(argc, argv, &a);
    if (opts.errors || opts.optind >= argc) {
        usage();
        return 1;
    }
    if (a.file == NULL && (a.file = getenv("PMNS_DEFAULT")) == NULL) {
        pmsprintf(def, sizeof(def), "%s/pmns/root", pmGetConfig("PCP_VAR_DIR"));
        a.file = def;
    }
    return delete (a.file, a.image, argv + opts.optind, argc - opts.optind);
}
