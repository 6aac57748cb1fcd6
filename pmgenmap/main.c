/*
 * pmgenmap - generate C declarations for metric names from a map spec.
 *
 *   pmgenmap [-g guard] [-M depfile] [-n pmnsfile] [-o outfile] [infile]
 *
 * Reads the specification (infile, or standard input), translates it with
 * libpcp/front/genmap.c and writes the map to standard output or outfile.
 * Output is PCP's byte for byte; the options are pmkit's.  Errors are
 * PCP's by default (diag.h): as PCP, the map up to the first error, then
 * the error, on standard output; in the rich form (a terminal, or
 * PMKIT_DIAGNOSTICS=rich) every error on stderr as FILE:LINE:COL: and
 * nothing on standard output.  An outfile (and depfile) is written only
 * when the whole run succeeds, replaced atomically (errors then go to
 * stderr in either form).  With -n every metric name is looked up in a
 * namespace loaded through the PMAPI.  The exit status is PCP's (1).
 */
#include <pcp/pmapi.h>

#include "genmap.h"
#include "input_limit.h"
#include "outfile.h"

#include <ctype.h>
#include <fcntl.h>
#include <getopt.h>
#include <sys/stat.h>
#include <unistd.h>

static const char usage_text[] = "Usage: %s [infile]\n";

/* pmkit's options: shown in the rich form only, so that PCP's form is PCP's */
static const char usage_more[] =
    "       %s [-g guard] [-M depfile] [-n pmnsfile] [-o outfile] [infile]\n"
    "  -g guard     wrap the map in #ifndef guard / #define guard ... #endif\n"
    "  -M depfile   write a make rule \"outfile: infile pmnsfile\" to depfile (needs -o)\n"
    "  -n pmnsfile  check that every metric name is in this ASCII namespace\n"
    "  -o outfile   write the map to outfile, replaced only if the run succeeds\n"
    "  -?           show this usage message and exit\n";

typedef struct args {
    const char *guard;   /* -g */
    const char *depfile; /* -M */
    const char *pmns;    /* -n */
    const char *out;     /* -o */
    const char *in;      /* the operand, or NULL for stdin */
} args;

static int usage(FILE *fp)
{
    fprintf(fp, usage_text, pmGetProgname());
    if (diag_form_resolve(DIAG_FORM_AUTO) == DIAG_FORM_RICH)
        fprintf(fp, usage_more, pmGetProgname());
    return 1;
}

static int identifier(const char *s)
{
    if (*s != '_' && !isalpha((unsigned char)*s))
        return 0;
    while (*++s != '\0')
        if (*s != '_' && !isalnum((unsigned char)*s))
            return 0;
    return 1;
}

/* Options into *a; 0, or the exit status to return now. */
static int parse(int argc, char **argv, args *a)
{
    int c;

    opterr = 0;
    while ((optopt = 0, c = getopt(argc, argv, "g:M:n:o:?")) != -1) {
        if (c == 'g')
            a->guard = optarg;
        else if (c == 'M')
            a->depfile = optarg;
        else if (c == 'n')
            a->pmns = optarg;
        else if (c == 'o')
            a->out = optarg;
        else if (optopt == 0) /* -? itself: PCP prints the usage on stdout */
            return usage(stdout);
        else {
            if (strchr("gMno", optopt) != NULL)
                fprintf(stderr, "%s: option requires an argument -- '%c'\n", pmGetProgname(),
                        optopt);
            else
                fprintf(stderr, "%s: invalid option -- '%c'\n", pmGetProgname(), optopt);
            return usage(stderr);
        }
    }
    if (argc - optind > 1) /* PCP's script says so on stdout; the rich form on stderr */
        return usage(diag_form_resolve(DIAG_FORM_AUTO) == DIAG_FORM_PCP ? stdout : stderr);
    a->in = optind < argc ? argv[optind] : NULL;
    if (a->depfile != NULL && a->out == NULL) {
        fprintf(stderr, "%s: -M needs -o (the target of the rule)\n", pmGetProgname());
        return 1;
    }
    if (a->guard != NULL && !identifier(a->guard)) {
        fprintf(stderr, "%s: -g %s: not a C identifier\n", pmGetProgname(), a->guard);
        return 1;
    }
    return 0;
}

/* The whole input into buf (malloc'd); 0, -EFBIG past the input limit,
 * or -errno. */
static int slurp(const char *path, genmap_buf *buf)
{
    size_t limit = pmkit_input_limit();
    struct stat sb;
    int fd = path != NULL ? open(path, O_RDONLY) : 0;
    int sts = 0;

    if (fd < 0)
        return -errno;
    if (fstat(fd, &sb) == 0 && S_ISDIR(sb.st_mode))
        sts = -EISDIR;
    else if (S_ISREG(sb.st_mode) && (uint64_t)sb.st_size > limit)
        sts = -EFBIG; /* known too large: nothing read */
    while (sts == 0 && (sts = genmap_buf_reserve(buf, 65536)) == 0) {
        ssize_t n = read(fd, buf->data + buf->len, buf->cap - buf->len);
        if (n < 0 && errno != EINTR)
            sts = -errno;
        else if (n == 0)
            break;
        else if (n > 0 && (buf->len += (size_t)n) > limit)
            sts = -EFBIG; /* a stream that does not end: /dev/zero */
    }
    if (path != NULL)
        close(fd);
    return sts;
}

/* -n: the message for a metric name the namespace does not have. */
static const char *lookup(void *ctx, const char *name, size_t len)
{
    pmID pmid;
    int sts;

    (void)ctx;
    if (strlen(name) != len)
        return pmErrStr(PM_ERR_NAME);
    sts = pmLookupName(1, &name, &pmid);
    return sts < 0 ? pmErrStr(sts) : NULL;
}

/* -o in PCP's form: errors on stderr, laid out as PCP's. */
static void to_stderr(void *ctx, const diag_msg *d)
{
    (void)ctx;
    diag_print_pcp(stderr, d);
}

/* The map: header, optional guard, body; the number of errors or -errno. */
static long build(const args *a, const genmap_buf *in, genmap_buf *map)
{
    genmap_opts o = {.file = a->in != NULL ? a->in : "<stdin>", .arg = a->in != NULL ? a->in : ""};
    char *date;
    long sts;

    if ((sts = genmap_date(getenv("PACKAGE_BUILD_DATE"), getenv("SOURCE_DATE_EPOCH"), time(NULL),
                           &date)) < 0) {
        if (sts == -EINVAL)
            fprintf(stderr, "%s: SOURCE_DATE_EPOCH=%s: not a number of seconds\n", pmGetProgname(),
                    getenv("SOURCE_DATE_EPOCH"));
        return sts == -EINVAL ? 1 : sts;
    }
    genmap_header(map, pmGetProgname(), o.file, date);
    free(date);
    if (a->guard != NULL) {
        genmap_buf_put(map, "#ifndef ", 8);
        genmap_buf_put(map, a->guard, strlen(a->guard));
        genmap_buf_put(map, "\n#define ", 9);
        genmap_buf_put(map, a->guard, strlen(a->guard));
        genmap_buf_put(map, "\n\n", 2);
    }
    if (a->pmns != NULL)
        o.check = lookup;
    if (a->out != NULL && diag_form_resolve(DIAG_FORM_AUTO) == DIAG_FORM_PCP)
        o.diag = to_stderr; /* -o: the map is not written, the errors go to stderr */
    if ((sts = genmap_translate(&o, in->data, in->len, map)) == 0 && a->guard != NULL) {
        genmap_buf_put(map, "#endif /* ", 10);
        genmap_buf_put(map, a->guard, strlen(a->guard));
        genmap_buf_put(map, " */\n", 4);
    }
    return map->failed ? -ENOMEM : sts;
}

/* Write the map (and the dependency rule); 0, or -errno after a message. */
static int emit(const args *a, const genmap_buf *map)
{
    const char *deps[2];
    size_t ndeps = 0;
    outfile of;
    int sts;

    if (a->out == NULL) { /* a write error is reported by outfile_stdout_close */
        fwrite(map->data, 1, map->len, stdout);
        return 0;
    }
    if ((sts = outfile_open(&of, a->out)) == 0) {
        fwrite(map->data, 1, map->len, of.fp);
        sts = outfile_commit(&of);
    }
    if (sts < 0) {
        fprintf(stderr, "%s: cannot write \"%s\": %s\n", pmGetProgname(), a->out, strerror(-sts));
        return sts;
    }
    if (a->depfile == NULL)
        return 0;
    if (a->in != NULL)
        deps[ndeps++] = a->in;
    if (a->pmns != NULL)
        deps[ndeps++] = a->pmns;
    if ((sts = outfile_open(&of, a->depfile)) == 0) {
        depfile_write(of.fp, &a->out, 1, deps, ndeps, false);
        sts = outfile_commit(&of);
    }
    if (sts < 0)
        fprintf(stderr, "%s: cannot write \"%s\": %s\n", pmGetProgname(), a->depfile,
                strerror(-sts));
    return sts;
}

int main(int argc, char **argv)
{
    args a = {NULL, NULL, NULL, NULL, NULL};
    genmap_buf in = {0}, map = {0};
    long sts;

    pmSetProgname(argv[0]);
    outfile_watch_stdout();
    if ((sts = parse(argc, argv, &a)) != 0)
        return (int)sts;
    if ((sts = slurp(a.in, &in)) == -EFBIG)
        fprintf(stderr, "%s: cannot read \"%s\": larger than the input limit (%zu bytes, %s)\n",
                pmGetProgname(), a.in != NULL ? a.in : "<stdin>", pmkit_input_limit(),
                PMKIT_INPUT_LIMIT_ENV);
    else if (sts < 0)
        fprintf(stderr, "%s: cannot open \"%s\": %s\n", pmGetProgname(),
                a.in != NULL ? a.in : "<stdin>", strerror((int)-sts));
    if (sts < 0) {
        genmap_buf_free(&in);
        return 1;
    }
    if (a.pmns != NULL && (sts = pmLoadASCIINameSpace(a.pmns, 1)) < 0) {
        fprintf(stderr, "%s: cannot load the namespace \"%s\": %s\n", pmGetProgname(), a.pmns,
                pmErrStr((int)sts));
        genmap_buf_free(&in);
        return 1;
    }
    sts = build(&a, &in, &map);
    if (sts == -ENOMEM)
        fprintf(stderr, "%s: out of memory\n", pmGetProgname());
    if (sts == 0)
        sts = emit(&a, &map);
    else if (sts > 0 && map.len > 0 && a.out == NULL &&
             diag_form_resolve(DIAG_FORM_AUTO) == DIAG_FORM_PCP)
        emit(&a, &map); /* PCP's output: the map up to the error, then the error */
    if (a.pmns != NULL)
        pmUnloadNameSpace();
    genmap_buf_free(&in);
    genmap_buf_free(&map);
    if (outfile_stdout_close() < 0)
        sts = 1;
    return sts != 0 ? 1 : 0;
}
