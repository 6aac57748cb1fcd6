/*
 * chkhelp - check a help database and show its entries.
 *
 *   chkhelp [-eHiOp] [-n pmnsfile] [-v 2] helpfile [metricname ...]
 *
 * Options, messages, output and exit status as PCP's chkhelp (plain getopt
 * options; usage errors exit 1; everything else exits 0 once the database
 * and the namespace are loaded).  The database is read through libpcp_pmda's
 * validating reader (libpcp/pmda/help.c), so "no options" really checks the
 * files: every offset of the index is checked against the text file, where
 * PCP only opens them.  A damaged database gets PCP's "Bad format" message
 * and then the reason.
 */
#include <pcp/pmapi.h>

#include "help_int.h"
#include "outfile.h"

#include <unistd.h>

static const char usage_text[] =
    "Usage: %s helpfile\n"
    "       %s [options] helpfile [metricname ...]\n"
    "\n"
    "Options:\n"
    "  -e           exists check, only report metrics with no help text\n"
    "  -H           display verbose help text\n"
    "  -i           process all the instance domains\n"
    "  -n pmnsfile  use an alternative PMNS\n"
    "  -O           display the one line help summary\n"
    "  -p           process all the metrics (PMIDs)\n"
    "  -v version   deprecated (only version 2 format supported)\n"
    "\n"
    "No options implies silently check internal integrity of the helpfile.\n";

typedef struct flags {
    int e, H, i, O, p; /* the option letters */
    const char *pmns;  /* -n */
} flags;

static help_db db;

/* Options as PCP's chkhelp checks them; 0 and *first, or -1 (usage). */
static int parse_options(int argc, char **argv, flags *f, int *first)
{
    const char *me = pmGetProgname();
    int c, errors = 0;

    while ((c = getopt(argc, argv, "D:eHin:Opv:?")) != -1) {
        char *end;
        long version;
        switch (c) {
        case 'D':
            if (pmSetDebug(optarg) < 0) {
                fprintf(stderr, "%s: unrecognized debug options specification (%s)\n", me, optarg);
                errors++;
            }
            break;
        case 'e':
            f->e = 1;
            break;
        case 'H':
            f->H = 1;
            break;
        case 'i':
            f->i = 1;
            break;
        case 'n':
            f->pmns = optarg;
            break;
        case 'O':
            f->O = 1;
            break;
        case 'p':
            f->p = 1;
            break;
        case 'v':
            version = strtol(optarg, &end, 10);
            if (*end != '\0') {
                fprintf(stderr, "%s: -v requires numeric argument\n", me);
                errors++;
            }
            if (version != 2) {
                fprintf(stderr, "%s: deprecated option - only version 2 is supported\n", me);
                errors++;
            }
            break;
        default:
            errors++;
        }
    }
    if (optind == argc) {
        fprintf(stderr, "%s: missing helpfile argument\n\n", me);
        errors++;
    } else if (optind + 1 < argc && (f->i || f->p)) {
        fprintf(stderr, "%s: metricname arguments cannot be used with -i or -p\n\n", me);
        errors++;
    } else if (optind + 1 == argc && (f->O || f->H) && !f->i && !f->p) {
        fprintf(stderr, "%s: -O or -H require metricname arguments or -i or -p\n\n", me);
        errors++;
    }
    if (f->e && (f->i || f->p)) {
        fprintf(stderr, "%s: -e cannot be used with -i or -p\n\n", me);
        errors++;
    }
    *first = optind;
    return errors ? -1 : 0;
}

/* The texts of key (found as pmdaGetHelp / pmdaGetInDomHelp find it). */
static void show_texts(const flags *f, uint32_t key)
{
    uint32_t i = help_db_find(&db, key, (key & HELP_INDOM_FLAG) != 0);
    help_record r = i != HELP_NONE ? help_db_record(&db, i) : (help_record){0, 0, 0};
    const char *one = i != HELP_NONE ? help_db_text(&db, r.off_oneline) : NULL;
    const char *text = i != HELP_NONE ? help_db_text(&db, r.off_text) : NULL;

    if (f->O) {
        /* PCP's wording: the two placeholders say the opposite of the case */
        if (one == NULL)
            fputs(" <empty one line string>", stdout);
        else if (*one == '\0')
            fputs(" <no one line available>", stdout);
        else
            printf(" %s", one);
        putchar('\n');
    }
    if (f->H) {
        if (text == NULL)
            fputs("<empty full text string>", stdout);
        else if (*text == '\0')
            fputs("<no full text available>", stdout);
        else
            fputs(text, stdout);
        putchar('\n');
    }
}

/* -p and -i: every record in index order. */
static void show_all(const flags *f)
{
    for (uint32_t i = 0; i < db.n; i++) {
        uint32_t key = help_db_record(&db, i).key;
        char **names;
        int n;
        if (key & HELP_INDOM_FLAG) {
            if (!f->i)
                continue;
            printf("\nInDom %s:", pmInDomStr(key & ~HELP_INDOM_FLAG));
        } else {
            if (!f->p)
                continue;
            printf("\nPMID %s", pmIDStr(key));
            if ((n = pmNameAll(key, &names)) > 0) {
                for (int k = 0; k < n; k++)
                    printf("%s%s", k == 0 ? " " : " or ", names[k]);
                free(names);
            }
            putchar(':');
        }
        show_texts(f, key);
    }
}

/* Named metrics. */
static void show_names(const flags *f, int n, char **names)
{
    for (int i = 0; i < n; i++) {
        const char *name = names[i];
        pmID pmid;
        int sts = pmLookupName(1, &name, &pmid);
        if (sts < 0)
            printf("\n%s: %s\n", name, pmErrStr(sts));
        else if (pmid == PM_ID_NULL)
            printf("\n%s: unknown metric\n", name);
        else {
            printf("\nPMID %s %s:", pmIDStr(pmid), name);
            show_texts(f, pmid);
        }
    }
}

/* -e: leaves below name with neither text. */
static void missing(const char *name, void *closure)
{
    pmID pmid;

    (void)closure;
    if (pmLookupName(1, &name, &pmid) < 0)
        return;
    if (help_db_find(&db, pmid, 0) == HELP_NONE)
        printf("%s\n", name);
}

static void exists_check(int n, char **names)
{
    for (int i = 0; i < (n > 0 ? n : 1); i++) {
        const char *name = n > 0 ? names[i] : "";
        int sts = pmTraversePMNS_r(name, missing, NULL);
        if (sts < 0)
            fprintf(stderr, "Error: pmTraversePMNS(\"%s\", ...): %s\n", name, pmErrStr(sts));
    }
}

int main(int argc, char **argv)
{
    flags f = {0};
    char why[512];
    int first, sts;

    pmSetProgname(argv[0]);
    outfile_watch_stdout(); /* a failed write is reported at exit, status 1 */
    if (parse_options(argc, argv, &f, &first) < 0) {
        fprintf(stderr, usage_text, pmGetProgname(), pmGetProgname());
        return 1;
    }
    why[0] = '\0';
    if ((sts = help_db_load(&db, argv[first], why, sizeof(why))) < 0) {
        if (sts == -EINVAL)
            fprintf(stderr,
                    "pmdaOpenHelp: failed to open \"%s\": Bad format, not version 2 PCP "
                    "help text\n",
                    argv[first]);
        else
            fprintf(stderr, "pmdaOpenHelp: failed to open \"%s\": %s\n", argv[first],
                    pmErrStr(sts));
        if (why[0] != '\0')
            fprintf(stderr, "%s: %s: %s\n", pmGetProgname(), argv[first], why);
        return 1;
    }
    if ((sts = pmLoadASCIINameSpace(f.pmns, 1)) < 0) {
        fprintf(stderr, "pmLoadASCIINameSpace(%s, 1): %s\n", f.pmns != NULL ? f.pmns : "(null)",
                pmErrStr(sts));
        help_db_free(&db);
        return 1;
    }
    if (f.e)
        exists_check(argc - first - 1, argv + first + 1);
    else {
        if (first + 1 < argc || f.i || f.p)
            f.O |= !f.H; /* names or -p/-i alone imply -O */
        if (f.i || f.p)
            show_all(&f);
        else
            show_names(&f, argc - first - 1, argv + first + 1);
    }
    help_db_free(&db);
    pmUnloadNameSpace();
    return outfile_stdout_close() < 0 ? 1 : 0;
}
