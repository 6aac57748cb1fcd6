/*
 * pmnscomp - compile an ASCII namespace into a binary namespace image
 * (docs/pmns-format.md), print an image back as text, or check one.
 *
 *   pmnscomp [-df] [-n pmnsfile] [-D name[=value]] [-I dir] [-M | -MD]
 *            [-MF depfile] [-MT target] [-MP] outfile
 *   pmnscomp --dump image
 *   pmnscomp --check image
 *
 * Compiling is three library calls: the text loader (libpcp/front, the
 * same one pmLoadASCIINameSpace runs, preprocessor included), the image
 * writer (libpcp/format), and an output file written under a temporary
 * name and renamed into place (toolsupport/outfile.c), so an interrupted run
 * never leaves a partial or clobbered image.  --check opens the image as
 * libpcp does, verifies every checksum and then the canonical form: the
 * dump, compiled again, must give the very same bytes.
 *
 * Not here: PCP's retired output formats (-v 1, -v 2) and debug flags
 * (-D is the preprocessor's, as in pmcpp).
 */
#include <pcp/pmapi.h>

#include "outfile.h"
#include "pmns.h"
#include "pmns_image.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char usage_text[] =
    "Usage: pmnscomp [-df] [-n pmnsfile] [-D name[=value]] [-I dir] [-M | -MD] [-MF file]\n"
    "                [-MT target] [-MP] outfile\n"
    "       pmnscomp --dump image\n"
    "       pmnscomp --check image\n"
    "\n"
    "Compile an ASCII Performance Metrics Name Space (PMNS) into a binary namespace\n"
    "image. libpcp maps an image and answers every name question from it in place:\n"
    "pmLoadNameSpace, pmLoadASCIINameSpace and $PMNS_DEFAULT accept an image wherever\n"
    "they accept the text (they recognise it by its first bytes), and opening it\n"
    "takes the same few microseconds whatever its size. The answers are the text's.\n"
    "\n"
    "The namespace is read through the PMNS preprocessor (see pmcpp), checked as\n"
    "pmLoadASCIINameSpace checks it, and written to a temporary file beside outfile,\n"
    "flushed and renamed over it: outfile is never half written, not even when\n"
    "pmnscomp is interrupted. The same namespace always gives the same bytes.\n"
    "\n"
    "Options:\n"
    "  -d, --duplicates      allow several names for one PMID (without -d a shared\n"
    "                        PMID is an error, and libpcp refuses an image compiled\n"
    "                        with -d when asked not to allow duplicates)\n"
    "  -f, --force           replace an existing outfile (never one that is not a\n"
    "                        regular file); without -f an existing outfile is an error\n"
    "  -n pmnsfile, --namespace=pmnsfile\n"
    "                        the namespace to compile; default $PMNS_DEFAULT if set,\n"
    "                        else $PCP_VAR_DIR/pmns/root\n"
    "  -D name[=value], --define=name[=value]\n"
    "                        define a preprocessor macro\n"
    "  -I dir, --include=dir also search dir for #include files (after the current\n"
    "                        directory and the file's own, before $PCP_VAR_DIR/pmns)\n"
    "  -M, -MD               write a make rule naming every file read, instead of\n"
    "                        (-M, to standard output) or as well as (-MD, to\n"
    "                        outfile.d) the image\n"
    "  -MF file              write the rule to file\n"
    "  -MT target            the rule's target (default outfile)\n"
    "  -MP                   add an empty rule for each included file\n"
    "  --dump                print an image's namespace as ASCII PMNS: groups in\n"
    "                        depth-first order, children in source order, as\n"
    "                        pmnsmerge writes them\n"
    "  --check               verify an image completely: header, every checksum, and\n"
    "                        that its namespace compiles to the very same bytes\n"
    "  -?, --help            show this message and exit\n"
    "\n"
    "Output: after compiling, the image's name-index slots, its leaf and non-leaf\n"
    "nodes (as in the source) and the bytes of its node records, in PCP's layout.\n"
    "\n"
    "Exit status: 0 on success (for --check: the image is sound), 1 on any error:\n"
    "a namespace that does not load, an existing outfile without -f, a damaged\n"
    "image, a usage error.\n"
    "\n"
    "Example:\n"
    "  pmnscomp -n $PCP_VAR_DIR/pmns/root root.bin && PMNS_DEFAULT=root.bin pminfo\n"
    "\n"
    "The image format is specified in pmkit's docs/pmns-format.md; it is not the\n"
    "binary PMNS PCP retired in 2011.\n";

typedef struct args {
    pmns_load_opts load;   /* the text loader's options */
    cpp_define defs[256];  /* -D */
    const char *dirs[256]; /* -I */
    depopts dep;           /* -M, -MD, -MF, -MT, -MP and the files read */
    int force;
    int action; /* 0 compile, 'd' --dump, 'c' --check */
} args;

static int usage(void)
{
    fputs(usage_text, stderr);
    return 1;
}

static int parse(int argc, char **argv, args *a)
{
    static const struct option longopts[] = {
        {"duplicates", no_argument, NULL, 'd'},
        {"force", no_argument, NULL, 'f'},
        {"namespace", required_argument, NULL, 'n'},
        {"define", required_argument, NULL, 'D'},
        {"include", required_argument, NULL, 'I'},
        {"dump", no_argument, NULL, 1},
        {"check", no_argument, NULL, 2},
        {"help", no_argument, NULL, '?'},
        {NULL, 0, NULL, 0},
    };
    int c;

    opterr = 0;
    while ((c = getopt_long(argc, argv, "dfn:D:I:?", longopts, NULL)) != -1) {
        if (c == 'd')
            a->load.dupok = 1;
        else if (c == 'f')
            a->force = 1;
        else if (c == 'n')
            a->load.file = optarg;
        else if (c == 'D' && a->load.n_defines < sizeof(a->defs) / sizeof(a->defs[0])) {
            cpp_define *d = &a->defs[a->load.n_defines++];
            d->text = optarg, d->undef = 0, d->argv_index = optind;
        } else if (c == 'I' && a->load.n_include_dirs < sizeof(a->dirs) / sizeof(a->dirs[0]))
            a->dirs[a->load.n_include_dirs++] = optarg;
        else if ((c == 1 || c == 2) && a->action == 0)
            a->action = c == 1 ? 'd' : 'c';
        else {
            if (optopt != 0 && optopt != '?')
                fprintf(stderr, "pmnscomp: invalid option -- '%c'\n", optopt);
            return -1;
        }
    }
    return optind;
}

/* ---------------------------------------------------------------- */
/* Compiling. */

/* The tree as an image; counts for the report. */
static int tree_image(const pmns_tree *t, uint8_t **img, size_t *len, uint32_t count[2])
{
    count[0] = count[1] = 0;
    for (uint32_t n = 0; n < t->nnodes; n++) {
        const pmns_node *nd = &t->nodes[n];
        if (!(nd->flags & PMNS_F_GRAFTED))
            count[(nd->flags & (PMNS_F_LEAF | PMNS_F_WASLEAF)) ? 0 : 1]++;
    }
    return pmns_tree_image(t, 1, img, len);
}

/* Load the text: 0 and *t, or 1 after reporting. */
static int load_text(args *a, pmns_tree **t)
{
    int sts = pmns_load(&a->load, t);

    if (sts < 0) {
        char msg[PM_MAXERRMSGLEN];
        fprintf(stderr, "pmLoadNameSpace: %s\n", pmErrStr_r(sts, msg, sizeof(msg)));
        return 1;
    }
    return 0;
}

/* Write the image atomically; 0, or 1 after reporting. */
static int write_image(const char *out, const uint8_t *img, size_t len)
{
    outfile of;
    int sts;

    if ((sts = outfile_open(&of, out)) < 0) {
        fprintf(stderr, "pmnscomp: cannot create \"%s\": %s\n", out, strerror(-sts));
        return 1;
    }
    (void)fwrite(img, 1, len, of.fp); /* a short write leaves the error flag commit checks */
    sts = outfile_commit(&of);
    if (sts < 0) {
        fprintf(stderr, "pmnscomp: cannot write \"%s\": %s\n", out, strerror(-sts));
        return 1;
    }
    return 0;
}

/* An existing outfile: refused without -f, and never a non-regular file. */
static int may_write(const args *a, const char *out)
{
    struct stat st;

    if (a->dep.mode == 'M' || stat(out, &st) < 0) /* a link: what it leads to */
        return 1;
    if (!S_ISREG(st.st_mode)) {
        fprintf(stderr, "pmnscomp: \"%s\" is not a regular file\n", out);
        return 0;
    }
    if (!a->force) {
        fprintf(stderr,
                "pmnscomp: \"%s\" already exists!\n"
                "You must either remove it first, or use -f\n",
                out);
        return 0;
    }
    return 1;
}

/* The rule's target is outfile, its file outfile.d, unless -MT, -MF say. */
static int write_deps(args *a, const char *out)
{
    char depname[4200];

    const char *path;
    int sts;

    snprintf(depname, sizeof(depname), "%s.d", out);
    if ((sts = depopts_emit(&a->dep, out, depname)) < 0) {
        path = depopts_path(&a->dep, depname);
        fprintf(stderr, "pmnscomp: cannot write the dependency file (%s): %s\n",
                path != NULL ? path : "standard output", strerror(-sts));
        return 1;
    }
    return 0;
}

static int compile(args *a, const char *out)
{
    char def[4096], dir[4096];
    pmns_image *view = NULL;
    pmns_tree *t;
    uint8_t *img = NULL;
    size_t len = 0;
    uint32_t count[2];
    int sts;

    if (!may_write(a, out))
        return 1;
    if (a->load.file == NULL) {
        const char *env = getenv("PMNS_DEFAULT");
        if (env != NULL)
            snprintf(def, sizeof(def), "%s", env);
        else
            snprintf(def, sizeof(def), "%s/pmns/root", pmGetConfig("PCP_VAR_DIR"));
        a->load.file = def;
    }
    snprintf(dir, sizeof(dir), "%s/pmns", pmGetConfig("PCP_VAR_DIR"));
    a->load.use_cpp = a->load.derived = 1;
    a->load.pmns_dir = dir;
    if (a->dep.mode != 0)
        a->load.dependency = depopts_record, a->load.dependency_ctx = &a->dep;
    if (pmns_image_open_file(a->load.file, &view, NULL) == 0) {
        pmns_image_close(view);
        fprintf(stderr, "pmnscomp: \"%s\" is a namespace image already\n", a->load.file);
        return 1;
    }
    if (load_text(a, &t) != 0)
        return 1;
    sts = tree_image(t, &img, &len, count);
    pmns_free(t);
    if (sts < 0) {
        fprintf(stderr, "pmnscomp: %s\n", pmns_image_strerror(sts));
        return 1;
    }
    if (a->dep.mode != 'M' && write_image(out, img, len) != 0) {
        pmns_image_free(img, len);
        return 1;
    }
    if (a->dep.mode != 'M' && pmns_image_open_buffer(img, len, 0, &view, NULL) == 0) {
        printf("Compiled PMNS contains\n\t%5u hash table entries\n\t%5u leaf nodes\n"
               "\t%5u non-leaf nodes\n\t%5u bytes of symbol table\n",
               view->nslots, count[0], count[1], view->nodes_len);
        pmns_image_close(view);
    }
    pmns_image_free(img, len);
    return a->dep.mode != 0 ? write_deps(a, out) : 0;
}

/* ---------------------------------------------------------------- */
/* --dump and --check. */

/* A damaged image: what is wrong, and where. */
static void report_damage(const char *file, int sts, const pmns_image_error *err)
{
    fprintf(stderr, "%s: error: %s: %s at offset %llu\n", file, pmns_image_strerror(sts), err->what,
            (unsigned long long)err->offset);
}

static int open_or_report(const char *file, pmns_image **img)
{
    pmns_image_error err = {0};
    int sts = pmns_image_open_file(file, img, &err);

    if (sts == PMNS_IMG_ESYS)
        fprintf(stderr, "pmnscomp: cannot open \"%s\": %s\n", file, strerror(err.sys));
    else if (sts < 0)
        report_damage(file, sts, &err);
    return sts < 0;
}

/* The image's text compiled again must be the image, byte for byte. */
static int canonical(const char *file, const pmns_image *img)
{
    pmns_canonical c;
    int sts = pmns_image_canonical(img, file, &c);

    if (sts == PMNS_CANON_NOPARSE)
        fprintf(stderr, "%s: error: its namespace does not compile: %s\n", file, c.why);
    else if (sts == PMNS_CANON_DIFFERS)
        fprintf(stderr, "%s: error: not in canonical form: first difference at offset %zu\n", file,
                c.at);
    else if (sts < 0)
        fprintf(stderr, "%s: error: %s\n", file, pmns_image_strerror(sts));
    return sts != 0;
}

static int dump_or_check(int action, const char *file)
{
    pmns_image_error err = {0};
    pmns_image *img;
    int bad, sts;

    if (open_or_report(file, &img))
        return 1;
    if (action == 'd') {
        bad = (sts = pmns_image_dump(img, stdout)) < 0;
        if (bad && sts != PMNS_IMG_ESYS) /* ESYS: writing failed, as main reports */
            fprintf(stderr, "%s: error: %s\n", file, pmns_image_strerror(sts));
    } else if ((sts = pmns_image_verify_body(img, &err)) < 0) {
        report_damage(file, sts, &err);
        bad = 1;
    } else {
        bad = canonical(file, img);
    }
    pmns_image_close(img);
    return bad;
}

int main(int argc, char **argv)
{
    static args a;
    int first, sts;

    pmSetProgname(argv[0]);
    outfile_watch_stdout();
    if ((argc = depopts_take(argc, argv, &a.dep)) < 0 || (first = parse(argc, argv, &a)) < 0 ||
        argc - first != 1)
        return usage();
    a.load.defines = a.defs, a.load.include_dirs = a.dirs;
    if (a.action != 0)
        sts = dump_or_check(a.action, argv[first]);
    else
        sts = compile(&a, argv[first]);
    if (outfile_stdout_close() < 0)
        sts = 1;
    depopts_free(&a.dep);
    return sts;
}
