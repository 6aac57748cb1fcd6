/*
 * pminfo - display information about performance metrics.
 *
 *   pminfo [options] [metricname | pmid | indom]...
 *
 * Options, usage text and output as PCP's pminfo.  This version answers
 * from a namespace file (-n / -N): names (-m, -M for PMIDs), subtrees,
 * PMID and InDom operands.  Descriptors, help text and values (-d -f -t -T
 * ...) need a metrics source; local contexts come with the agents.
 *
 * Operand rules (PCP's): an operand starting with a digit is a PMID
 * (sscanf "%u.%u.%u") standing for its last-defined name, or an InDom
 * ("%u.%u"), printed at once; anything else names a metric or a subtree.
 * Names are reported in batches of -b N (default 128), so InDom lines can
 * come before names given earlier.
 */
#include <pcp/pmapi.h>

#include <ctype.h>

static pmLongOptions longopts[] = {
    PMAPI_OPTIONS_HEADER("General options"),
    PMOPT_ARCHIVE,
    PMOPT_DEBUG,
    PMOPT_HOST,
    PMOPT_CONTAINER,
    PMOPT_LOCALPMDA,
    PMOPT_SPECLOCAL,
    PMOPT_NAMESPACE,
    PMOPT_UNIQNAMES,
    PMOPT_ORIGIN,
    PMOPT_TIMEZONE,
    PMOPT_HOSTZONE,
    PMOPT_VERSION,
    PMOPT_HELP,
    PMAPI_OPTIONS_HEADER("Protocol options"),
    { "batch", 1, 'b', "N", "fetch N metrics at a time for -f and -v [128]" },
    { "desc", 0, 'd', 0, "get and print metric description" },
    { "fetch", 0, 'f', 0, "fetch and print values for all instances" },
    { "fetchall", 0, 'F', 0, "fetch and print values for non-enumerable indoms" },
    { "fullindom", 0, 'I', 0, "print InDom in verbose format" },
    { "labels", 0, 'l', 0, "print InDom, metric and instance labels" },
    { "pmid", 0, 'm', 0, "print PMID" },
    { "fullpmid", 0, 'M', 0, "print PMID in verbose format" },
    { "series", 0, 's', 0, "print source, metric, instance series identifiers" },
    { "oneline", 0, 't', 0, "get and display (terse) oneline text" },
    { "helptext", 0, 'T', 0, "get and display (verbose) help text" },
    PMAPI_OPTIONS_HEADER("Metrics options"),
    { PMLONGOPT_DERIVED, 1, 'c', "FILE", "load derived metric definitions from FILE(s)" },
    { "events", 0, 'x', 0, "unpack and report on any fetched event records" },
    { "verify", 0, 'v', 0, "verify mode, be quiet and only report errors" },
    PMAPI_OPTIONS_END,
};

static pmOptions opts = {
    .short_options = "a:D:h:K:Ln:N:O:Z:zV?b:dfFIlmMstTc:xv",
    .long_options = longopts,
    .short_usage = "[options] [metricname | pmid | indom]...",
};

static struct {
    int pmid;           /* -m */
    int fullpmid;       /* -M */
    int batch;          /* -b */
    int needs_source;   /* an option that needs descriptors, help or values */
    int status;         /* exit status */
    const char **names; /* the batch being collected */
    int nnames;
} run = { 0, 0, 128, 0, 0, NULL, 0 };

static void report_batch(void)
{
    pmID *pmids = calloc((size_t)run.nnames, sizeof(pmID));

    if (pmids == NULL) {
        fprintf(stderr, "%s: out of memory\n", pmGetProgname());
        exit(1);
    }
    if (run.pmid || run.fullpmid)
        pmLookupName(run.nnames, run.names, pmids);
    for (int i = 0; i < run.nnames; i++) {
        printf("%s", run.names[i]);
        if (run.fullpmid)
            printf(" PMID: %s = %u = 0x%x", pmIDStr(pmids[i]), pmids[i], pmids[i]);
        else if (run.pmid)
            printf(" PMID: %s", pmIDStr(pmids[i]));
        putchar('\n');
        free((char *)run.names[i]);
    }
    free(pmids);
    run.nnames = 0;
}

static void add_name(const char *name)
{
    if ((run.names[run.nnames] = strdup(name)) == NULL) {
        fprintf(stderr, "%s: out of memory\n", pmGetProgname());
        exit(1);
    }
    if (++run.nnames == run.batch)
        report_batch();
}

static void metric(const char *arg)
{
    int sts = pmTraversePMNS(arg, add_name);

    if (sts < 0) {
        fprintf(stderr, "Error: %s: %s\n", arg, pmErrStr(sts));
        run.status = 1;
    }
}

/* One operand: a PMID, an InDom, or a name. */
static void operand(const char *arg)
{
    unsigned int a, b, c;
    char *name;
    int n, sts;

    if (!isdigit((unsigned char)arg[0]) || (n = sscanf(arg, "%u.%u.%u", &a, &b, &c)) < 2) {
        metric(arg);
        return;
    }
    if (n == 2) {
        pmInDom indom = pmInDom_build(a, b);
        printf("\nInDom: %s 0x%x\n", pmInDomStr(indom), indom);
        return;
    }
    if ((sts = pmNameID(pmID_build(a, b, c), &name)) < 0) {
        fprintf(stderr, "Error: %s: %s\n", arg, pmErrStr(sts));
        run.status = 1;
        return;
    }
    metric(name);
    free(name);
}

/* Options; exits for -V, usage errors and namespace load failures. */
static void options(int argc, char **argv)
{
    int c, loaded = 0, failed = 0, version = 0;

    while ((c = pmgetopt_r(argc, argv, &opts)) != -1) {
        int sts;
        switch (c) {
        case 'n':
        case 'N':
            if ((sts = pmLoadASCIINameSpace(opts.optarg, c == 'n')) < 0) {
                fprintf(stderr, "%s: Cannot load namespace from \"%s\": %s\n", pmGetProgname(),
                        opts.optarg, pmErrStr(sts));
                failed = 1;
            } else {
                loaded = 1;
            }
            break;
        case 'm': run.pmid = 1; break;
        case 'M': run.fullpmid = 1; break;
        case 'V': version = 1; break;
        case 'b':
            if ((run.batch = atoi(opts.optarg)) < 1) {
                fprintf(stderr, "%s: -b requires a positive numeric argument\n", pmGetProgname());
                opts.errors++;
            }
            break;
        case 'D':
            if (pmSetDebug(opts.optarg) < 0) {
                fprintf(stderr, "%s: unrecognized debug options specification (%s)\n",
                        pmGetProgname(), opts.optarg);
                opts.errors++;
            }
            break;
        case 'd': case 'f': case 'F': case 'l': case 's': case 't': case 'T': case 'x': case 'v':
        case 'a': case 'h': case 'L': case 'K': case 'O': case 'Z': case 'z': case 'c': case 0:
            run.needs_source = 1;
            break;
        case 'I':
            break;
        default:
            opts.errors++;
            break;
        }
    }
    if (version) {
        fprintf(stderr, "%s version %s\n", pmGetProgname(), pmGetConfig("PCP_VERSION"));
        exit(0);
    }
    if (failed)
        exit(1);
    if (opts.errors > 0) {
        pmUsageMessage(&opts);
        exit(1);
    }
    if (!loaded || run.needs_source) {
        fprintf(stderr, "%s: metrics sources (PMCD hosts, archives, local agents) are not "
                        "supported by this pmkit version; use -n FILE with -m or -M\n",
                pmGetProgname());
        exit(1);
    }
}

int main(int argc, char **argv)
{
    options(argc, argv); /* pmgetopt_r sets the program name */
    if ((run.names = calloc((size_t)run.batch, sizeof(*run.names))) == NULL)
        return 1;
    if (opts.optind >= argc)
        operand("");
    for (int i = opts.optind; i < argc; i++)
        operand(argv[i]);
    report_batch();
    free(run.names);
    return run.status;
}
