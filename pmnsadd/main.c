/*
 * pmnsadd - add a subtree of names to a namespace.
 *
 *   pmnsadd [-b] [-d] [-n namespace] file
 *
 * PCP's pmnsadd is a shell script that puts the groups leading from the
 * root to file's first group in front of file and runs pmnsmerge on the
 * namespace and that.  This is the same in C, in one process (libpcp/edit:
 * pmns_add_prelude, pmns_merge_sources): the same options as the script's
 * getopts takes them (with the shell's messages), the same checks and
 * messages on standard output, pmnsmerge's warnings and errors on standard
 * error, the same exit status.  A file with a line starting "root {" is
 * merged as it is.
 *
 * The namespace (-n, else $PMNS_DEFAULT, else $PCP_VAR_DIR/pmns/root) is
 * locked while it changes (toolsupport/inplace.c), so two agents
 * installing at once both get their names in; the new namespace is written
 * under a temporary name beside it, given its mode and owner, and renamed
 * over it: never half written, even when interrupted, and a failed run
 * leaves it as it was and says so.  An image stays an image (-b: an image
 * either way).
 *
 * Differences (docs/compat.md): PCP's script names an empty variable in
 * two messages (here, the namespace), loses the namespace's mode and
 * owner, and names its temporary file in the loader's messages (here, the
 * input file, at the input's own line numbers).
 */
#include <pcp/pmapi.h>

#include "diag.h"
#include "inplace.h"
#include "outfile.h"
#include "pmns_edit.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage_text[] = "Usage: pmnsadd [-d] [-n namespace] file\n";
static const char usage_more[] =
    "\nOptions:\n"
    "  -b            write the namespace as a namespace image (pmkit)\n"
    "  -d            accepted with a warning: duplicate names are allowed anyway\n"
    "  -n namespace  the namespace to change (default $PMNS_DEFAULT, else\n"
    "                $PCP_VAR_DIR/pmns/root)\n"
    "  -?            show this usage message and exit\n";

/* PCP's usage line (the script's, on standard output); pmkit's options
 * too in the rich form of diagnostics. */
static void usage(void)
{
    fputs(usage_text, stdout);
    if (diag_form_resolve(DIAG_FORM_AUTO) == DIAG_FORM_RICH)
        fputs(usage_more, stdout);
}

typedef struct args {
    const char *ns; /* -n */
    const char *file;
    int image; /* -b */
} args;

/* The script's getopts 'dn:\?' (and pmkit's b), as dash runs it: options
 * until the first operand or "--", clustered, the argument of -n in the
 * same word or the next.  Returns -1 to go on, else the exit status. */
static int parse(int argc, char **argv, args *a, const char *prog)
{
    int i = 1;

    for (; i < argc; i++) {
        const char *w = argv[i];
        if (w[0] != '-' || w[1] == '\0')
            break;
        if (strcmp(w, "--") == 0) {
            i++;
            break;
        }
        for (const char *c = w + 1; *c != '\0'; c++) {
            if (*c == 'd') {
                printf("%s: Warning: -d deprecated, duplicate PMNS names allowed by default\n",
                       prog);
            } else if (*c == 'b') {
                a->image = 1;
            } else if (*c == 'n') {
                if (c[1] != '\0') {
                    a->ns = c + 1;
                } else if (i + 1 < argc) {
                    a->ns = argv[++i];
                } else {
                    fprintf(stderr, "No arg for -n option\n");
                    usage();
                    return 0;
                }
                break;
            } else {
                if (*c != '?')
                    fprintf(stderr, "Illegal option -%c\n", *c);
                usage();
                return 0;
            }
        }
    }
    if (argc - i != 1) {
        usage();
        return 1;
    }
    a->file = argv[i];
    return -1;
}

/* The script's checks: 0, or 1 after a message. */
static int check(const args *a, const char *prog)
{
    struct stat st;

    if (stat(a->ns, &st) < 0 || !S_ISREG(st.st_mode)) {
        printf("%s: cannot find PMNS file \"%s\"\n", prog, a->ns);
        return 1;
    }
    if (faccessat(AT_FDCWD, a->ns, W_OK, AT_EACCESS) < 0) {
        printf("%s: cannot open PMNS file \"%s\" for writing\n", prog, a->ns);
        return 1;
    }
    if (stat(a->file, &st) < 0 || !S_ISREG(st.st_mode)) {
        printf("%s: cannot find input file \"%s\"\n", prog, a->file);
        return 1;
    }
    return 0;
}

static void conflict(void *ctx, const char *name, uint32_t kept, uint32_t ignored)
{
    char k[32], i[32];

    (void)ctx;
    fprintf(stderr,
            "pmnsmerge: Warning: performance metric \"%s\" has multiple PMIDs.\n"
            "... using PMID %s and ignoring PMID %s\n",
            name, pmIDStr_r(kept, k, sizeof(k)), pmIDStr_r(ignored, i, sizeof(i)));
}

/* The merged namespace over the old one, with its mode and owner: 0, or
 * 1 after pmnsmerge's message. */
static int replace(const pmns_ed *e, const char *ns, int image)
{
    pmns_load_opts o = {0};
    outfile of;
    int sts;

    if ((sts = inplace_open(&of, ns)) < 0) {
        fprintf(stderr, "pmnsmerge: Error: cannot create output PMNS file \"%s.new\": %s\n", ns,
                strerror(-sts));
        return 1;
    }
    o.file = ns;
    if ((sts = image ? pmns_ed_write_image(e, &o, of.fp) : pmns_ed_write(e, of.fp)) < 0 ||
        (sts = outfile_commit(&of)) < 0) {
        if (of.fp != NULL)
            outfile_abort(&of);
        fprintf(stderr, "pmnsmerge: Error: cannot write output PMNS file \"%s.new\": %s\n", ns,
                pmErrStr(sts));
        return 1;
    }
    return 0;
}

/* pmnsmerge -f NS FILE NS.new, and NS.new renamed over NS: 0, or 1. */
static int add(const args *a)
{
    pmns_source src[2] = {{a->ns, NULL, 0, NULL, 0}, {a->file, NULL, 0, NULL, 0}};
    pmns_merge_report r = {NULL, conflict, NULL};
    pmns_load_opts o = {0};
    pmns_ed *e = NULL;
    char *prelude = NULL;
    struct stat st;
    size_t bad = 0;
    int sts, lock, ns_image = 0;

    if ((sts = pmns_add_prelude(a->file, &prelude, &src[1].prelude_len)) < 0) {
        fprintf(stderr, "pmnsmerge: Error: cannot open input PMNS file \"%s\"\n", a->file);
        return 1;
    }
    src[1].prelude = prelude;
    if ((sts = inplace_lock(a->ns, &lock, &st)) < 0 && stat(a->ns, &st) < 0) {
        fprintf(stderr, "pmnsmerge: Error: cannot open input PMNS file \"%s\"\n", a->ns);
        free(prelude);
        return 1;
    }
    if ((sts = pmns_sources_order(src, 2, &bad)) < 0) {
        fprintf(stderr, "pmnsmerge: Error: cannot open input PMNS file \"%s\"\n", src[bad].file);
    } else {
        o.use_cpp = 1;
        o.dupok = 1;
        if ((sts = pmns_merge_sources(src, 2, &o, &r, &e, &bad)) < 0)
            fprintf(stderr, "pmnsmerge: Error: pmLoadASCIINameSpace(%s, 1): %s\n", src[bad].file,
                    pmErrStr(sts));
        ns_image = src[0].file == a->ns ? src[0].is_image : src[1].is_image;
    }
    if (sts == 0)
        sts = replace(e, a->ns, a->image || ns_image) ? -1 : 0;
    pmns_ed_free(e);
    pmns_sources_clear(src, 2);
    free(prelude);
    inplace_unlock(lock);
    return sts < 0;
}

int main(int argc, char **argv)
{
    const char *prog = strrchr(argv[0], '/') != NULL ? strrchr(argv[0], '/') + 1 : argv[0];
    args a = {NULL, NULL, 0};
    char def[MAXPATHLEN];
    int sts;

    /* the script's echo writes each line at once */
    setvbuf(stdout, NULL, _IOLBF, 0);
    pmSetProgname(argv[0]);
    if ((a.ns = getenv("PMNS_DEFAULT")) == NULL) {
        pmsprintf(def, sizeof(def), "%s/pmns/root", pmGetConfig("PCP_VAR_DIR"));
        a.ns = def;
    }
    if ((sts = parse(argc, argv, &a, prog)) >= 0)
        return sts;
    if (check(&a, prog))
        return 1;
    if (add(&a)) {
        printf("%s: No changes have been made to the PMNS file \"%s\"\n", prog, a.ns);
        return 1;
    }
    return 0;
}
