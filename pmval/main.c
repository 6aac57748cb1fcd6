/*
 * pmval - report the values of one performance metric over time.
 *
 *   pmval [options] metricname
 *
 * Options, usage text, output and exit status as PCP's pmval, through the
 * public PMAPI and the two sleeps of <pcp/libpcp.h> (it builds against
 * PCP's own libpcp as well).  The metric may be a metric specification
 * (host:metric[instances], @:metric for a local context); the source is
 * the spec's, else -h, -a/-U or -L, else the local PMCD ("local:").
 *
 * Live contexts: pause until the start time, then fetch every interval
 * (-t, default 1 s) for -s samples (0: for ever).  Counters are reported
 * as rates over the interval between two fetches (-r: raw), those with
 * the dimension of time as a utilisation (seconds per second); one more
 * fetch is made for the first rate.  Archives are replayed with
 * interpolation (PM_MODE_INTERP) at the interval from the start of the
 * window, each line led by its time stamp (-X: with the date, more -X more
 * digits); -U reads every record instead (PM_MODE_FORW), -d waits the
 * interval between lines.
 *
 * Columns: one per instance (all of the domain, or -i's), each as wide as
 * the value type needs (-w to choose); numbers that are not integers are
 * printed in pmval's four-significant-digit forms unless -f asks for N
 * decimals.
 *
 * Time control (-g: start PCP's pmtime; -p PORT: connect to a pmtime
 * already listening) goes through libpcp_gui's pmTimeState* calls: one
 * fetch per step the server sends, acknowledged, each line stamped, until
 * the server goes away or an archive's window is left (-s is no limit).
 *
 * Event records (PM_TYPE_EVENT, PM_TYPE_HIGHRES_EVENT) are printed record
 * by record with their stamps, flags and parameters, each value in
 * instance order; archives of them are replayed record by record, as -U.
 * -x stores its value into the metric before the first fetch, on a host
 * context only (PCP's pmval ignores it for local contexts and archives).
 */
#define PMAPI_VERSION 3 /* pmOptions with struct timespec times */
#include <pcp/pmapi.h>
#include "libpcp.h"
#include <pcp/pmtime.h>

#include "outfile.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int seen_option(int, pmOptions *);

static pmLongOptions longopts[] = {
    PMAPI_OPTIONS_HEADER("General options"),
    PMOPT_ALIGN,
    PMOPT_ARCHIVE,
    PMOPT_DEBUG,
    PMOPT_GUIMODE,
    PMOPT_HOST,
    PMOPT_NAMESPACE,
    PMOPT_ORIGIN,
    PMOPT_GUIPORT,
    PMOPT_START,
    PMOPT_SAMPLES,
    PMOPT_FINISH,
    PMOPT_INTERVAL,
    PMOPT_TIMEZONE,
    PMOPT_HOSTZONE,
    PMOPT_VERSION,
    PMOPT_HELP,
    PMOPT_SPECLOCAL,
    PMOPT_LOCALPMDA,
    PMOPT_CONTAINER,
    PMOPT_DERIVED,
    PMAPI_OPTIONS_HEADER("Reporting options"),
    {"delay", 0, 'd', 0, "delay, pause between updates for archive replay"},
    {"precision", 1, 'f', "N", "fixed output format with N digits precision"},
    {"instances", 1, 'i', "INST", "comma-separated metrics instance list"},
    {"raw", 0, 'r', 0, "output raw counter values (no rate conversion)"},
    {"nointerp", 1, 'U', "FILE", "non-interpolated fetching; ignores interval"},
    {"verbose", 0, 'v', 0, "increase diagnostic output"},
    {"width", 1, 'w', "N", "set the width of each column of output"},
    {"filter", 1, 'x', "VALUE", "store to the metric before fetching (filter)"},
    {"timestamp", 0, 'X', 0, "include date and microseconds in reported timestamps"},
    PMAPI_OPTIONS_END};

static pmOptions opts = {
    .version = PMAPI_VERSION_3,
    .flags = PM_OPTFLAG_STDOUT_TZ | PM_OPTFLAG_BOUNDARIES,
    .short_options = PMAPI_OPTIONS "df:i:K:LrU:vw:x:X",
    .long_options = longopts,
    .short_usage = "[options] metricname",
    .override = seen_option,
};

/* What the options asked for. */
static struct {
    int delay;         /* -d */
    int fixed;         /* -f, or -1 */
    int raw;           /* -r */
    int nointerp;      /* -U */
    int verbose;       /* -v */
    int width;         /* -w, or 0 */
    int stamp;         /* -X count */
    int samples;       /* -s given */
    char **inames;     /* -i's names */
    int ninames;       /* how many */
    const char *uarch; /* -U's archive */
    char *filter;      /* -x */
} run = {.fixed = -1};

/* pmtime(1)'s time control: on with -g, or -p and a port above 0 (the
 * one libpcp's option parser gives; any other -p is ignored, as in PCP). */
static struct {
    int on;
    pmTimeControls controls;
    pmTime *msg;
    int have_prev; /* a fetch since the last change of the server's state */
    int printed;   /* the last line printed had values */
} gui;

/* The metric and what is known of it. */
static struct {
    const char *name;
    const char *source; /* host, archive or NULL */
    int ctxtype;
    int ctx;
    pmID pmid;
    pmDesc desc;
    int rate;     /* counter reported as a rate */
    int timeutil; /* rate of a time counter: seconds per second */
    double scale; /* to seconds for timeutil */
    int ninst;    /* columns, 0 for a singular metric */
    int *insts;
    char **names;
    int width;
} m;

static int lookup_iname(const char *);

/* -i: names split at commas and white space, quoted with ' or " to keep
 * either in a name. */
static void add_inames(const char *arg)
{
    const char *p = arg;

    while (*p != '\0') {
        char quote = 0;
        const char *s;
        size_t len;

        while (*p == ',' || isspace((unsigned char)*p))
            p++;
        if (*p == '\0')
            break;
        if (*p == '\'' || *p == '"')
            quote = *p++;
        s = p;
        if (quote) {
            while (*p != '\0' && *p != quote)
                p++;
        } else {
            while (*p != '\0' && *p != ',' && !isspace((unsigned char)*p))
                p++;
        }
        len = (size_t)(p - s);
        if (quote && *p == quote)
            p++;
        run.inames = realloc(run.inames, (run.ninames + 1) * sizeof(char *));
        if (run.inames == NULL)
            pmNoMem("pmval.ip", (run.ninames + 1) * sizeof(char *), PM_FATAL_ERR);
        run.inames[run.ninames] = strndup(s, len);
        if (run.inames[run.ninames] == NULL)
            pmNoMem("pmval.ip", len + 1, PM_FATAL_ERR);
        run.ninames++;
    }
}

/* A positive number for -f (0 allowed) and -w (not). */
static int number(const char *arg, int zero_ok)
{
    char *end;
    long v = strtol(arg, &end, 10);

    if (*end != '\0' || end == arg || v < 0 || (v == 0 && !zero_ok) || v > 1000000)
        return -1;
    return (int)v;
}

/* Notes -s (0 samples is not "all"); pmGetOptions takes it. */
static int seen_option(int opt, pmOptions *o)
{
    (void)o;
    if (opt == 's')
        run.samples = 1;
    return 0;
}

/* Options that do not go together with the source. */
static void mode_errors(void)
{
    if (run.nointerp && opts.context != PM_CONTEXT_ARCHIVE) {
        /* PCP's message has no newline */
        pmprintf("%s: uninterpolated mode can only be used with archives", pmGetProgname());
        opts.errors++;
    }
    if (run.delay && opts.context != PM_CONTEXT_ARCHIVE) {
        pmprintf("%s: delay can only be used with archives\n", pmGetProgname());
        opts.errors++;
    }
    if (opts.guiflag && run.delay) {
        pmprintf("%s: guiflag cannot be used with delay\n", pmGetProgname());
        opts.errors++;
    }
}

/* pmGetOptions and pmval's own options; exits on a usage error.  Over 60
 * lines: one case per option of pmval's own, kept together. */
static void options(int argc, char **argv)
{
    int c;

    while ((c = pmGetOptions(argc, argv, &opts)) != EOF) {
        switch (c) {
        case 'd':
            run.delay = 1;
            break;
        case 'f':
            if ((run.fixed = number(opts.optarg, 1)) < 0) {
                pmprintf("%s: -f requires +ve numeric argument\n", pmGetProgname());
                opts.errors++;
            }
            break;
        case 'i':
            add_inames(opts.optarg);
            break;
        case 'r':
            run.raw = 1;
            break;
        case 'U':
            run.nointerp = 1;
            run.uarch = opts.optarg;
            __pmAddOptArchive(&opts, opts.optarg);
            break;
        case 'v':
            run.verbose++;
            break;
        case 'w':
            if ((run.width = number(opts.optarg, 0)) < 0) {
                pmprintf("%s: -w requires +ve numeric argument\n", pmGetProgname());
                opts.errors++;
                run.width = 0;
            }
            break;
        case 'x':
            run.filter = opts.optarg;
            break;
        case 'X':
            run.stamp++;
            break;
        default:
            opts.errors++;
            break;
        }
    }
    if (opts.flags & PM_OPTFLAG_EXIT) {
        pmflush();
        exit(0);
    }
    if (!opts.errors) {
        if (opts.optind >= argc) {
            pmprintf("%s: error - no metricname specified\n", pmGetProgname());
            opts.errors++;
        } else if (opts.optind < argc - 1) {
            pmprintf("%s: error - too many arguments\n", pmGetProgname());
            opts.errors++;
        } else {
            mode_errors();
        }
    }
    if (opts.errors) {
        pmUsageMessage(&opts);
        exit(1);
    }
}

/* -------------------------------------------------------------- setup */

/* The context for the metric spec's source, or the options'. */
static void open_context(const char *arg)
{
    pmMetricSpec *msp;
    char *msg = NULL;
    int isarch = 0;
    const char *source = "local:";
    int sts;

    if (opts.context == PM_CONTEXT_ARCHIVE) {
        isarch = 1;
        source = opts.archives[0];
    } else if (opts.context == PM_CONTEXT_HOST) {
        source = opts.hosts[0];
    } else if (opts.context == PM_CONTEXT_LOCAL) {
        isarch = 2;
        source = NULL;
    }
    if ((sts = pmParseMetricSpec(arg, isarch, (char *)source, &msp, &msg)) < 0) {
        fprintf(stderr, "%s: %s", pmGetProgname(), msg != NULL ? msg : pmErrStr(sts));
        exit(1);
    }
    m.name = msp->metric;
    m.source = msp->source;
    if (msp->isarch == 1)
        m.ctxtype = PM_CONTEXT_ARCHIVE;
    else if (msp->isarch == 2)
        m.ctxtype = PM_CONTEXT_LOCAL;
    else
        m.ctxtype = PM_CONTEXT_HOST;
    /* a source from the spec is the options' too, for the window */
    if (opts.narchives == 0 && opts.nhosts == 0 && m.ctxtype == PM_CONTEXT_ARCHIVE)
        __pmAddOptArchive(&opts, msp->source);
    else if (opts.narchives == 0 && opts.nhosts == 0 && m.ctxtype == PM_CONTEXT_HOST)
        __pmAddOptHost(&opts, msp->source);
    for (int i = 0; i < msp->ninst; i++)
        add_inames(msp->inst[i]);
    if ((m.ctx = pmNewContext(m.ctxtype, m.source)) < 0) {
        if (m.ctxtype == PM_CONTEXT_ARCHIVE)
            fprintf(stderr, "%s: Cannot open archive \"%s\": %s\n", pmGetProgname(), m.source,
                    pmErrStr(m.ctx));
        else if (m.ctxtype == PM_CONTEXT_HOST)
            fprintf(stderr, "%s: Cannot connect to PMCD on host \"%s\": %s\n", pmGetProgname(),
                    m.source, pmErrStr(m.ctx));
        else
            fprintf(stderr, "%s: Cannot establish local context: %s\n", pmGetProgname(),
                    pmErrStr(m.ctx));
        exit(1);
    }
    opts.context = m.ctxtype;
    if (pmGetContextOptions(m.ctx, &opts) < 0 || opts.errors) {
        pmflush();
        exit(1);
    }
}

/* The metric's PMID and descriptor. */
static void describe(void)
{
    char *name = (char *)m.name;
    int sts;

    if ((sts = pmLookupName(1, (const char **)&name, &m.pmid)) < 0) {
        fprintf(stderr, "%s: pmLookupName(%s): %s\n", pmGetProgname(), m.name, pmErrStr(sts));
        exit(1);
    }
    if ((sts = pmLookupDesc(m.pmid, &m.desc)) < 0) {
        fprintf(stderr, "%s: pmLookupDesc: %s\n", pmGetProgname(), pmErrStr(sts));
        exit(1);
    }
}

/* -x's value as an atom of the metric's type (an event metric's as a
 * string, TYPE set accordingly); exits when it cannot be converted. */
static void filter_atom(pmAtomValue *a, int *type)
{
    int sts;

    if (*type == PM_TYPE_EVENT || *type == PM_TYPE_HIGHRES_EVENT) {
        if ((a->cp = strdup(run.filter)) == NULL)
            pmNoMem("pmval.filter", strlen(run.filter) + 1, PM_FATAL_ERR);
        *type = PM_TYPE_STRING;
        return;
    }
    if ((sts = __pmStringValue(run.filter, a, *type)) >= 0)
        return;
    if (sts == PM_ERR_TYPE)
        fprintf(stderr, "%s: filter \"%s\" incompatible with metric type (PM_TYPE_%s)\n",
                pmGetProgname(), run.filter, pmTypeStr(*type));
    else if (sts == -ERANGE)
        fprintf(stderr,
                "%s: filter value \"%s\" is out of range for metric data type (PM_TYPE_%s)\n",
                pmGetProgname(), run.filter, pmTypeStr(*type));
    else
        fprintf(stderr, "%s: failed to convert value \"%s\": %s\n", pmGetProgname(), run.filter,
                pmErrStr(sts));
    exit(1);
}

/* -x: the value stored into the metric (each instance -i named, else
 * PM_IN_NULL) before the first fetch.  As PCP's pmval, only a host
 * context's metric is stored into: local contexts and archives ignore -x.
 * Exits when the value cannot be made or stored. */
static void store_filter(void)
{
    int n = run.ninames > 0 ? m.ninst : 1;
    int type = m.desc.type, sts;
    pmAtomValue a;
    pmValueSet *vs;
    pmResult *rs;

    if (run.filter == NULL || m.ctxtype != PM_CONTEXT_HOST)
        return;
    filter_atom(&a, &type);
    vs = calloc(1, sizeof(pmValueSet) + n * sizeof(pmValue));
    rs = calloc(1, sizeof(pmResult));
    if (vs == NULL || rs == NULL)
        pmNoMem("pmval.filter", sizeof(pmValueSet) + n * sizeof(pmValue), PM_FATAL_ERR);
    vs->pmid = m.pmid;
    vs->numval = n;
    rs->numpmid = 1;
    rs->vset[0] = vs;
    for (int i = 0; i < n; i++) {
        vs->vlist[i].inst = run.ninames > 0 ? m.insts[i] : (int)PM_IN_NULL;
        if ((sts = __pmStuffValue(&a, &vs->vlist[i], type)) < 0) {
            fprintf(stderr, "%s: stuff value \"%s\" failed: %s\n", pmGetProgname(), run.filter,
                    pmErrStr(sts));
            exit(1);
        }
        vs->valfmt = sts;
    }
    if ((sts = pmStore(rs)) < 0) {
        fprintf(stderr, "%s: store value \"%s\" failed: %s\n", pmGetProgname(), run.filter,
                pmErrStr(sts));
        exit(1);
    }
    for (int i = 0; i < n; i++)
        if (vs->valfmt == PM_VAL_DPTR)
            free(vs->vlist[i].value.pval);
    if (type == PM_TYPE_STRING)
        free(a.cp);
    free(vs);
    free(rs);
}

/* The column width, rate conversion and -f's check.  A blank line first
 * (none after the time zone's note, which has one, nor for events). */
static void layout(void)
{
    if (opts.timezone == NULL && !opts.tzflag && m.desc.type != PM_TYPE_EVENT &&
        m.desc.type != PM_TYPE_HIGHRES_EVENT)
        putchar('\n');
    switch (m.desc.type) {
    case PM_TYPE_32:
    case PM_TYPE_U32:
        m.width = 11;
        break;
    case PM_TYPE_FLOAT:
        m.width = 13;
        break;
    case PM_TYPE_64:
    case PM_TYPE_U64:
    case PM_TYPE_DOUBLE:
    case PM_TYPE_STRING:
    case PM_TYPE_AGGREGATE:
    case PM_TYPE_EVENT:
    case PM_TYPE_HIGHRES_EVENT:
        m.width = 21;
        break;
    case PM_TYPE_AGGREGATE_STATIC:
        m.width = 21;
        break;
    default:
        fflush(stdout);
        fprintf(stderr, "pmval: unknown performance metric value type %s\n",
                pmTypeStr(m.desc.type));
        exit(1);
    }
    if (run.width > 0)
        m.width = run.width;
    if (m.desc.sem == PM_SEM_COUNTER && !run.raw && m.desc.type != PM_TYPE_STRING &&
        m.desc.type != PM_TYPE_AGGREGATE) {
        pmUnits u = m.desc.units;
        m.rate = 1;
        if (u.dimTime == 1 && u.dimSpace == 0 && u.dimCount == 0) {
            pmAtomValue one = {.d = 1.0}, sec;
            pmUnits s = u;
            s.scaleTime = PM_TIME_SEC;
            m.timeutil = 1;
            m.scale = pmConvScale(PM_TYPE_DOUBLE, &one, &u, &sec, &s) < 0 ? 1.0 : sec.d;
        }
    }
    if (run.fixed >= 0 && run.fixed > m.width - 2 &&
        (m.rate || m.desc.type == PM_TYPE_FLOAT || m.desc.type == PM_TYPE_DOUBLE)) {
        fprintf(stderr, "%s: -f %d too large for column width %d\n", pmGetProgname(), run.fixed,
                m.width);
        exit(1);
    }
}

/* The columns for -i's instances WANT: in the domain's order (a name
 * given twice is two columns);
 * in -i's order where the domain cannot be listed. */
static void pick(const int *want, int nwant)
{
    int *all = NULL;
    char **names = NULL;
    int n;

    m.insts = calloc(nwant, sizeof(int));
    m.names = calloc(nwant, sizeof(char *));
    if (m.insts == NULL || m.names == NULL)
        pmNoMem("pmval.ip", nwant * sizeof(char *), PM_FATAL_ERR);
    n = opts.context == PM_CONTEXT_ARCHIVE ? pmGetInDomArchive(m.desc.indom, &all, &names)
                                           : pmGetInDom(m.desc.indom, &all, &names);
    m.ninst = 0;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < nwant; j++) {
            if (all[i] == want[j]) {
                m.insts[m.ninst] = want[j];
                m.names[m.ninst++] = run.inames[j];
            }
        }
    }
    if (n <= 0 || m.ninst == 0) {
        for (int j = 0; j < nwant; j++) {
            m.insts[j] = want[j];
            m.names[j] = run.inames[j];
        }
        m.ninst = nwant;
    }
    free(all);
    free(names);
}

/* The columns: -i's instances, or all of the domain's. */
static void instances(void)
{
    int sts;

    if (m.desc.indom == PM_INDOM_NULL) {
        if (run.ninames > 0 && m.source != NULL && strchr(m.name, '[') == NULL) {
            /* instances named in the metric spec */
        }
        return;
    }
    if (run.ninames > 0) {
        int *want = calloc(run.ninames, sizeof(int));
        if (want == NULL)
            pmNoMem("pmval.ip", run.ninames * sizeof(int), PM_FATAL_ERR);
        for (int i = 0; i < run.ninames; i++) {
            if ((want[i] = lookup_iname(run.inames[i])) < 0) {
                fprintf(stderr, "%s: instance %s not available\n", pmGetProgname(), run.inames[i]);
                exit(1);
            }
        }
        pick(want, run.ninames);
        free(want);
        if ((sts = pmDelProfile(m.desc.indom, 0, NULL)) < 0 ||
            (sts = pmAddProfile(m.desc.indom, m.ninst, m.insts)) < 0) {
            fprintf(stderr, "%s: pmAddProfile: %s\n", pmGetProgname(), pmErrStr(sts));
            exit(1);
        }
        return;
    }
    if (opts.context == PM_CONTEXT_ARCHIVE)
        sts = pmGetInDomArchive(m.desc.indom, &m.insts, &m.names);
    else
        sts = pmGetInDom(m.desc.indom, &m.insts, &m.names);
    if (sts < 0) {
        fprintf(stderr, "%s: pmGetInDom(%s): %s\n", pmGetProgname(), pmInDomStr(m.desc.indom),
                pmErrStr(sts));
        exit(1);
    }
    m.ninst = sts;
}

static int lookup_iname(const char *name)
{
    if (opts.context == PM_CONTEXT_ARCHIVE)
        return pmLookupInDomArchive(m.desc.indom, name);
    return pmLookupInDom(m.desc.indom, name);
}

/* ------------------------------------------------------------- output */

static char *timestr(const struct timespec *t, char *buf, size_t len)
{
    time_t sec = t->tv_sec;
    char *p;

    pmCtime(&sec, buf);
    if ((p = strchr(buf, '\n')) != NULL)
        *p = '\0';
    (void)len;
    return buf;
}

static void header(const char *host, const struct timespec *first, const struct timespec *last)
{
    char buf[32];

    if (m.desc.type != PM_TYPE_EVENT && m.desc.type != PM_TYPE_HIGHRES_EVENT)
        printf("metric:    %s\n", m.name);
    if (opts.context == PM_CONTEXT_ARCHIVE) {
        printf("archive:   %s\n", m.source);
        printf("host:      %s\n", host);
        printf("start:     %s\n", timestr(first, buf, sizeof(buf)));
        printf("end:       %s\n", timestr(last, buf, sizeof(buf)));
    } else {
        printf("host:      %s\n", host);
    }
    if (m.desc.type != PM_TYPE_EVENT && m.desc.type != PM_TYPE_HIGHRES_EVENT) {
        fputs("semantics: ", stdout);
        switch (m.desc.sem) {
        case PM_SEM_COUNTER:
            fputs("cumulative counter", stdout);
            if (m.rate)
                fputs(" (converting to rate)", stdout);
            break;
        case PM_SEM_INSTANT:
            fputs("instantaneous value", stdout);
            break;
        case PM_SEM_DISCRETE:
            fputs("discrete instantaneous value", stdout);
            break;
        default:
            fputs("unknown", stdout);
            break;
        }
        putchar('\n');
        printf("units:     %s", m.desc.units.dimSpace || m.desc.units.dimTime ||
                                        m.desc.units.dimCount || m.desc.units.scaleCount
                                    ? pmUnitsStr(&m.desc.units)
                                    : "none");
        if (m.rate) {
            fputs(" (converting to ", stdout);
            if (m.timeutil) {
                fputs("time utilization)", stdout);
            } else {
                pmUnits u = m.desc.units;
                u.dimTime--;
                u.scaleTime = PM_TIME_SEC;
                printf("%s)", pmUnitsStr(&u));
            }
        }
        putchar('\n');
    }
    if (opts.samples < 0)
        printf("samples:   all\n");
    else
        printf("samples:   %d\n", opts.samples);
    if (!run.nointerp && opts.samples > 1)
        printf("interval:  %1.2f sec\n", pmtimespecToReal(&opts.interval));
}

/* The names of the instances, in full when a column is narrower. */
static void full_labels(void)
{
    int cut = 0;

    for (int i = 0; i < m.ninst; i++)
        if ((int)strlen(m.names[i]) > m.width)
            cut = 1;
    if (cut)
        for (int i = 0; i < m.ninst; i++)
            printf("full label for instance[%d]: %s\n", i, m.names[i]);
}

/* Column labels: the instance names, as wide as the columns. */
static void labels(int stampwidth)
{
    if (m.ninst == 0)
        return;
    putchar('\n');
    if (stampwidth > 0)
        printf("%*c", stampwidth, ' ');
    for (int i = 0; i < m.ninst; i++)
        printf("%*.*s ", m.width, m.width, m.names[i]);
    putchar('\n');
}

/* A number that is not an integer, in pmval's forms. */
static void real(double v)
{
    int w = m.width;
    double a = fabs(v);

    if (run.fixed >= 0)
        printf("%*.*f", w, run.fixed, v);
    else if (v == 0)
        printf("%*.0f.0   ", w - 5, v);
    else if (a < 0.1)
        printf("%*.3E", w, v);
    else if (a <= 0.9999)
        printf("%*.4f", w, v);
    else if (a < 9.999)
        printf("%*.3f ", w - 1, v);
    else if (a < 99.99)
        printf("%*.2f  ", w - 2, v);
    else if (a < 999.9)
        printf("%*.1f   ", w - 3, v);
    else if (a < 9999)
        printf("%*.0f.    ", w - 5, v);
    else
        printf("%*.3E", w, v);
}

static pmValue *find(pmValueSet *vs, int inst)
{
    if (m.desc.indom == PM_INDOM_NULL)
        return vs->numval >= 1 ? &vs->vlist[0] : NULL;
    for (int i = 0; i < vs->numval; i++)
        if (vs->vlist[i].inst == inst)
            return &vs->vlist[i];
    return NULL;
}

/* One column's value: raw, or the rate since PREV (seconds apart). */
static void column(pmValueSet *vs, pmValueSet *prev, double dt, int inst)
{
    pmValue *v = find(vs, inst);
    pmAtomValue a, b;

    if (v == NULL) {
        printf("%*s", m.width, "?");
        return;
    }
    if (m.rate) {
        pmValue *p = prev != NULL ? find(prev, inst) : NULL;
        double r;
        if (p == NULL || dt <= 0) {
            printf("%*s", m.width, "?");
            return;
        }
        if (pmExtractValue(vs->valfmt, v, m.desc.type, &a, PM_TYPE_DOUBLE) < 0 ||
            pmExtractValue(prev->valfmt, p, m.desc.type, &b, PM_TYPE_DOUBLE) < 0) {
            printf("%*s", m.width, "?");
            return;
        }
        if (a.d < b.d) {
            if (getenv("PCP_COUNTER_WRAP") == NULL) {
                printf("%*s", m.width, "!");
                return;
            }
            a.d += (m.desc.type == PM_TYPE_32 || m.desc.type == PM_TYPE_U32)
                       ? 4294967296.0
                       : 18446744073709551616.0;
        }
        r = (a.d - b.d) / dt;
        if (m.timeutil)
            r *= m.scale;
        real(r);
        return;
    }
    if (m.desc.type == PM_TYPE_FLOAT || m.desc.type == PM_TYPE_DOUBLE) {
        if (pmExtractValue(vs->valfmt, v, m.desc.type, &a, PM_TYPE_DOUBLE) < 0) {
            printf("%*s", m.width, "?");
            return;
        }
        real(a.d);
        return;
    }
    pmPrintValue(stdout, vs->valfmt, m.desc.type, v, m.width);
}

static void stamp(const struct timespec *t)
{
    struct tm tm;
    time_t sec = t->tv_sec;
    char buf[32];

    pmLocaltime(&sec, &tm);
    if (run.stamp == 0) {
        printf("%02d:%02d:%02d.%03d", tm.tm_hour, tm.tm_min, tm.tm_sec,
               (int)(t->tv_nsec / 1000000));
        return;
    }
    pmCtime(&sec, buf);
    if (run.stamp == 1)
        printf("%10.10s %02d:%02d:%02d.%06d %4.4s", buf, tm.tm_hour, tm.tm_min, tm.tm_sec,
               (int)(t->tv_nsec / 1000), buf + 20);
    else
        printf("%10.10s %02d:%02d:%02d.%09d %4.4s", buf, tm.tm_hour, tm.tm_min, tm.tm_sec,
               (int)t->tv_nsec, buf + 20);
}

/* Lines are stamped with their time for archives and under time control. */
static int stamped(void)
{
    return opts.context == PM_CONTEXT_ARCHIVE || gui.on;
}

static int stamp_width(void)
{
    if (!stamped())
        return 0;
    return run.stamp == 0 ? 12 : run.stamp == 1 ? 31 : 34;
}

/* Event records: each value's records, in instance order, with their
 * stamps, flags and parameters (a parameter's name and descriptor asked
 * once, PMIDs without a name reported in place). */
static struct {
    int looked; /* event.flags and event.missed looked up */
    pmID flags;
    pmID missed;
    struct evparam {
        pmID pmid;
        char *name;
        pmDesc desc;
    } * params;
    int nparams;
} ev;

static void ev_lookup(void)
{
    const char *names[2] = {"event.flags", "event.missed"};
    pmID *ids[2] = {&ev.flags, &ev.missed};

    ev.looked = 1;
    for (int i = 0; i < 2; i++) {
        int sts = pmLookupName(1, &names[i], ids[i]);
        if (sts < 0) {
            fprintf(stderr, "Warning: cannot get PMID for %s: %s\n", names[i], pmErrStr(sts));
            *ids[i] = PM_ID_NULL;
        }
    }
}

/* A parameter's name and descriptor, NULL when either cannot be had
 * (said on stdout, as PCP's pmval does, and asked again next time). */
static struct evparam *ev_param(pmID pmid)
{
    struct evparam *p, *grown;
    int sts;

    for (int i = 0; i < ev.nparams; i++)
        if (ev.params[i].pmid == pmid)
            return &ev.params[i];
    grown = realloc(ev.params, (ev.nparams + 1) * sizeof(*grown));
    if (grown == NULL)
        pmNoMem("DescHash", (ev.nparams + 1) * sizeof(*grown), PM_FATAL_ERR);
    ev.params = grown;
    p = &ev.params[ev.nparams];
    memset(p, 0, sizeof(*p));
    p->pmid = pmid;
    if ((sts = pmNameID(pmid, &p->name)) < 0) {
        printf("\t%s: pmNameID: %s\n", pmIDStr(pmid), pmErrStr(sts));
        return NULL;
    }
    if (pmid != ev.flags && pmid != ev.missed && (sts = pmLookupDesc(pmid, &p->desc)) < 0) {
        printf("\t%s: pmLookupDesc: %s\n", p->name, pmErrStr(sts));
        free(p->name);
        return NULL;
    }
    ev.nparams++;
    return p;
}

/* The name of instance INST of INDOM, NULL when the domain (as listed
 * now) has no such instance.  Listed rather than asked by number, as PCP's
 * pmval does: an agent may name PM_IN_NULL. */
static char *ev_iname(pmInDom indom, int inst)
{
    int *insts = NULL;
    char **names = NULL, *name = NULL;
    int n = opts.context == PM_CONTEXT_ARCHIVE ? pmGetInDomArchive(indom, &insts, &names)
                                               : pmGetInDom(indom, &insts, &names);

    for (int i = 0; i < n && name == NULL; i++)
        if (insts[i] == inst)
            name = strdup(names[i]);
    free(insts);
    free(names);
    return name;
}

/* One parameter's values: the name, the instance where the metric has a
 * domain, the value (an aggregate's bytes in hex). */
static void ev_values(const struct evparam *p, pmValueSet *vs)
{
    if (vs->numval == 0) {
        printf("%s: No value(s) available!\n", p->name);
        return;
    }
    if (vs->numval < 0) {
        printf("%s: Error: %s\n", p->name, pmErrStr(vs->numval));
        return;
    }
    for (int j = 0; j < vs->numval; j++) {
        pmValue *v = &vs->vlist[j];
        if (j == 0)
            printf("    %s", p->name);
        else
            fputs("        ", stdout);
        if (p->desc.indom != PM_INDOM_NULL) {
            char *iname = ev_iname(p->desc.indom, v->inst);
            if (iname == NULL)
                printf("[%d]", v->inst);
            else
                printf("[\"%s\"]", iname);
            free(iname);
        }
        putchar(' ');
        if (p->desc.type == PM_TYPE_AGGREGATE && vs->valfmt != PM_VAL_INSITU) {
            /* the bytes alone, in hex */
            const unsigned char *b = (const unsigned char *)v->value.pval->vbuf;
            int len = (int)v->value.pval->vlen - PM_VAL_HDR_SIZE;
            putchar('[');
            for (int k = 0; k < len; k++)
                printf("%02x", b[k]);
            putchar(']');
        } else {
            pmPrintValue(stdout, vs->valfmt, p->desc.type, v, 1);
        }
        putchar('\n');
    }
}

/* One record's flags (its first parameter when that is event.flags) and
 * parameters. */
static void ev_record(int numpmid, pmValueSet **vset)
{
    int flags = 0;

    if (numpmid == 0) {
        printf(" ---\n    ==> No parameters\n");
        return;
    }
    for (int i = 0; i < numpmid; i++) {
        pmValueSet *vs = vset[i];
        struct evparam *p = ev_param(vs->pmid);
        if (p == NULL)
            continue;
        if (i == 0) {
            if (vs->pmid == ev.flags) {
                flags = vs->vlist[0].value.lval;
                printf(" flags 0x%x (%s) ---\n", (unsigned)flags, pmEventFlagsStr(flags));
                continue;
            }
            printf(" ---\n");
        }
        if ((flags & PM_EVENT_FLAG_MISSED) && i == 1 && vs->pmid == ev.missed) {
            printf("    ==> %d missed event records\n", vs->vlist[0].value.lval);
            continue;
        }
        ev_values(p, vs);
    }
}

/* The records of value J of VS. */
static void ev_array(pmValueSet *vs, int j)
{
    int n;

    if (m.desc.type == PM_TYPE_EVENT) {
        pmResult **rp;
        if ((n = pmUnpackEventRecords(vs, j, &rp)) < 0) {
            printf(" pmUnpackEventRecords: %s\n", pmErrStr(n));
            return;
        }
        printf(" %d event records\n", n);
        for (int r = 0; r < n; r++) {
            fputs("  ", stdout);
            pmPrintStamp(stdout, &rp[r]->timestamp);
            printf(" --- event record [%d]", r);
            ev_record(rp[r]->numpmid, rp[r]->vset);
        }
        pmFreeEventResult(rp);
    } else {
        pmHighResResult **hp;
        if ((n = pmUnpackHighResEventRecords(vs, j, &hp)) < 0) {
            printf(" pmUnpackEventRecords: %s\n", pmErrStr(n));
            return;
        }
        printf(" %d event records\n", n);
        for (int r = 0; r < n; r++) {
            fputs("  ", stdout);
            pmPrintHighResStamp(stdout, &hp[r]->timestamp);
            printf(" --- event record [%d]", r);
            ev_record(hp[r]->numpmid, hp[r]->vset);
        }
        pmFreeHighResEventResult(hp);
    }
}

static int by_inst(const void *a, const void *b)
{
    const pmValue *x = *(pmValue *const *)a, *y = *(pmValue *const *)b;

    return x->inst < y->inst ? -1 : x->inst > y->inst;
}

/* An instance -i asked for (any without -i). */
static int wanted(int inst)
{
    if (m.desc.indom == PM_INDOM_NULL || run.ninames == 0)
        return 1;
    for (int i = 0; i < m.ninst; i++)
        if (m.insts[i] == inst)
            return 1;
    return 0;
}

/* Each value of VS (in instance order) led by the metric's name and the
 * instance's. */
static void events(pmValueSet *vs)
{
    pmValue **order = calloc(vs->numval, sizeof(pmValue *));

    if (order == NULL)
        pmNoMem("pmval.events", vs->numval * sizeof(pmValue *), PM_FATAL_ERR);
    if (!ev.looked)
        ev_lookup();
    for (int j = 0; j < vs->numval; j++)
        order[j] = &vs->vlist[j];
    qsort(order, vs->numval, sizeof(pmValue *), by_inst);
    for (int k = 0; k < vs->numval; k++) {
        int j = (int)(order[k] - vs->vlist);
        if (!wanted(vs->vlist[j].inst))
            continue;
        if (m.desc.indom == PM_INDOM_NULL) {
            printf("%s:", m.name);
        } else {
            char *iname = NULL;
            int sts = opts.context == PM_CONTEXT_ARCHIVE
                          ? pmNameInDomArchive(m.desc.indom, vs->vlist[j].inst, &iname)
                          : pmNameInDom(m.desc.indom, vs->vlist[j].inst, &iname);
            if (sts < 0)
                printf("%s[%d]:", m.name, vs->vlist[j].inst);
            else
                printf("%s[%s]:", m.name, iname);
            free(iname);
        }
        ev_array(vs, j);
    }
    free(order);
}

/* One line of values for RS (and PREV for rates); the column labels go
 * before the first line that has values. */
static int labelled; /* the column labels are out */

static int line(pmHighResResult *rs, pmHighResResult *prev)
{
    pmValueSet *vs, *ps;
    double dt = prev != NULL ? pmtimespecSub(&rs->timestamp, &prev->timestamp) : 0;

    if (rs->numpmid == 0) {
        /* -U's <mark> record: a sample; the labels again after it */
        stamp(&rs->timestamp);
        printf("  Archive logging suspended\n");
        labelled = 0;
        return 1;
    }
    vs = rs->vset[0];
    ps = prev != NULL && prev->numpmid > 0 ? prev->vset[0] : NULL;

    if (vs->numval < 0) {
        fflush(stdout);
        fprintf(stderr, "\n%s: %s: %s\n", pmGetProgname(),
                run.nointerp ? "pmFetchArchive" : "pmFetch", pmErrStr(vs->numval));
        return 1;
    }
    if (m.rate && run.nointerp && ps == NULL)
        return 0; /* a rate's start (after a <mark>): silent, no sample */
    if (vs->numval == 0 || (m.rate && stamped() && (ps == NULL || ps->numval <= 0))) {
        if (stamped()) {
            stamp(&rs->timestamp);
            fputs("  ", stdout);
        }
        printf("No values available\n");
        labelled = 0;           /* the labels again before the next values */
        return vs->numval == 0; /* a rate's new start is no sample */
    }
    if (m.desc.type == PM_TYPE_EVENT || m.desc.type == PM_TYPE_HIGHRES_EVENT) {
        if (stamped()) {
            stamp(&rs->timestamp);
            fputs("  ", stdout);
        }
        events(vs);
        return 1;
    }
    if (!labelled) {
        labels(stamp_width());
        labelled = 1;
    }
    if (stamped())
        stamp(&rs->timestamp);
    if (m.desc.indom == PM_INDOM_NULL) {
        column(vs, ps, dt, PM_IN_NULL);
        putchar('\n');
        return 1;
    }
    for (int i = 0; i < m.ninst; i++) {
        column(vs, ps, dt, m.insts[i]);
        putchar(' ');
    }
    putchar('\n');
    return 1;
}

/* ---------------------------------------------------------------- run */

/* One fetch; NULL at the archive's end (*end set).  A fetch that fails
 * otherwise is reported and ends the program (status 1), with or without
 * time control. */
static pmHighResResult *fetch(int *end)
{
    pmHighResResult *rs = NULL;
    int sts;

    *end = 0;
    if (run.nointerp) {
        /* every record, those without the metric skipped */
        for (;;) {
            if ((sts = pmFetchHighResArchive(&rs)) < 0)
                break;
            if (pmtimespecSub(&rs->timestamp, &opts.finish) > 0) {
                pmFreeHighResResult(rs);
                sts = PM_ERR_EOL; /* past the window */
                break;
            }
            if (rs->numpmid == 0 && !gui.on)
                return rs; /* a <mark>: logging suspended */
            if (rs->numpmid == 0) {
                pmFreeHighResResult(rs);
                rs = NULL;
                continue;
            }
            for (int i = 0; i < rs->numpmid; i++) {
                if (rs->vset[i]->pmid == m.pmid) {
                    pmValueSet *t = rs->vset[0];
                    rs->vset[0] = rs->vset[i];
                    rs->vset[i] = t;
                    return rs;
                }
            }
            pmFreeHighResResult(rs);
            rs = NULL;
        }
    } else {
        sts = pmFetchHighRes(1, &m.pmid, &rs);
        if (sts >= 0)
            return rs;
    }
    if (sts == PM_ERR_EOL) {
        *end = 1;
        return NULL;
    }
    fprintf(stderr, "\n%s: %s: %s\n", pmGetProgname(), run.nointerp ? "pmFetchArchive" : "pmFetch",
            pmErrStr(sts));
    exit(1); /* as Debian's pmval: a failed fetch ends the run */
}

/* A rate's first fetch: kept silently when it has values, else reported
 * (and counted as a sample) like any other.  Returns the samples used. */
static int first_rate(pmHighResResult **prev, int *end)
{
    pmHighResResult *rs = fetch(end);

    *prev = rs;
    if (rs == NULL)
        return *end ? 0 : 1;
    if (rs->numpmid > 0 && rs->vset[0]->numval > 0)
        return 0;
    line(rs, NULL);
    return 1;
}

static void replay(void)
{
    pmHighResResult *prev = NULL, *rs;
    int end = 0, n = 0;
    int live = opts.context != PM_CONTEXT_ARCHIVE;

    if (live)
        __pmtimespecPause(opts.start);
    if (m.rate && opts.samples != 0) {
        n = first_rate(&prev, &end);
        if (end)
            return;
        if (live || run.delay)
            __pmtimespecSleep(opts.interval);
    }
    for (int first = 1; opts.samples < 0 || n < opts.samples; n++, first = 0) {
        if (!first && (live || run.delay))
            __pmtimespecSleep(opts.interval);
        rs = fetch(&end);
        if (end)
            break;
        if (rs != NULL) {
            if (!line(rs, m.rate ? prev : NULL))
                n--; /* as Debian's pmval: not counted in -s */
            fflush(stdout);
        }
        if (m.rate) {
            if (prev != NULL)
                pmFreeHighResResult(prev);
            prev = rs;
        } else if (rs != NULL) {
            pmFreeHighResResult(rs);
        }
    }
    if (prev != NULL)
        pmFreeHighResResult(prev);
}

/* ------------------------------------------------------- time control */

static struct timeval to_timeval(const struct timespec *t)
{
    struct timeval tv = {t->tv_sec, (suseconds_t)(t->tv_nsec / 1000)};
    return tv;
}

/* A step after a change of the server's state: the next fetch starts
 * afresh (a rate's first value again). */
static void gui_stepped(struct timeval position)
{
    (void)position;
    gui.have_prev = 0;
}

/* Connects to the server (exits when it cannot): the archive's window and
 * the step, the reporting zone and its label (-Z's zone, else the host). */
static void gui_setup(const char *host)
{
    char *tz = NULL;
    char *label = opts.timezone != NULL ? opts.timezone : (char *)host;

    pmWhichZone(&tz);
    gui.msg = pmTimeStateSetup(&gui.controls, opts.context, opts.guiflag ? -1 : opts.guiport,
                               to_timeval(&opts.interval), to_timeval(&opts.origin),
                               to_timeval(&opts.start), to_timeval(&opts.finish), tz, label);
    gui.controls.stepped = gui_stepped;
}

enum { GUI_FAILED = -1, GUI_DONE = -2 };

/* The fetch of one step, acknowledged: 0 with *rsp, GUI_FAILED (a value
 * or the archive missing, said or told to the server) or GUI_DONE (past
 * the window); a fetch that fails ends the program. */
static int gui_fetch(pmHighResResult **rsp)
{
    pmHighResResult *rs;
    int end;

    if ((rs = fetch(&end)) == NULL) {
        if (!end)
            exit(1); /* the error said, as PCP's pmval ends */
        pmTimeStateBounds(&gui.controls, gui.msg);
        return GUI_FAILED;
    }
    pmTimeStateAck(&gui.controls, gui.msg);
    if (pmtimespecSub(&rs->timestamp, &opts.finish) > 0) {
        pmFreeHighResResult(rs);
        return GUI_DONE;
    }
    if (rs->vset[0]->numval <= 0) {
        line(rs, NULL);
        pmFreeHighResResult(rs);
        gui.printed = 0;
        return GUI_FAILED;
    }
    *rsp = rs;
    return 0;
}

/* A step's fetch after a change: the labels again, the values (a rate's
 * start, reported as none when a line or a failure came before). */
static void gui_first(pmHighResResult *rs, int failed)
{
    labels(stamp_width());
    labelled = 1;
    if (!m.rate) {
        line(rs, NULL);
        gui.printed = 1;
    } else if (failed || gui.printed) {
        stamp(&rs->timestamp);
        printf("  No values available\n");
    }
}

/* One fetch per step the server sends, until it goes away (the library
 * ends the program then) or the window is left; -s is not a limit here,
 * as in PCP. */
static void replay_gui(void)
{
    pmHighResResult *prev = NULL, *rs = NULL;
    int failed = 0, sts;

    if (opts.context != PM_CONTEXT_ARCHIVE)
        __pmtimespecPause(opts.start);
    for (;;) {
        fflush(stdout); /* all out before waiting for the server */
        pmTimeStateVector(&gui.controls, gui.msg);
        if ((sts = gui_fetch(&rs)) == GUI_DONE)
            break;
        if (!gui.have_prev) {
            failed |= sts < 0;
            if (sts < 0)
                continue;
            gui.have_prev = 1;
            gui_first(rs, failed);
            failed = 0;
        } else if (sts < 0) {
            gui.have_prev = 0;
            continue;
        } else {
            line(rs, m.rate ? prev : NULL);
            gui.printed = 1;
        }
        if (prev != NULL)
            pmFreeHighResResult(prev);
        prev = rs;
    }
    if (prev != NULL)
        pmFreeHighResResult(prev);
}

int main(int argc, char **argv)
{
    char host[MAXHOSTNAMELEN];
    struct timespec first = {0, 0}, last = {0, 0};
    int sts;

    outfile_watch_stdout(); /* a failed write is reported at exit, status 1 */
    options(argc, argv);
    gui.on = opts.guiflag || opts.guiport > 0;
    if (opts.interval.tv_sec == 0 && opts.interval.tv_nsec == 0)
        opts.interval.tv_sec = 1;
    if (!run.samples)
        opts.samples = -1; /* all */
    open_context(argv[opts.optind]);
    describe();
    if (m.desc.indom == PM_INDOM_NULL && run.ninames > 0 && strchr(argv[opts.optind], '[')) {
        fprintf(stderr, "%s: %s: singular metrics do not have instances\n", pmGetProgname(),
                m.name);
        return 1;
    }
    if (m.ctxtype == PM_CONTEXT_ARCHIVE &&
        (m.desc.type == PM_TYPE_EVENT || m.desc.type == PM_TYPE_HIGHRES_EVENT))
        run.nointerp = 1; /* event records are replayed as logged */
    instances();
    store_filter();
    layout();
    if (pmGetContextHostName_r(m.ctx, host, sizeof(host)) == NULL) {
        fprintf(stderr, "%s: Cannot evaluate context host name: %s\n", pmGetProgname(),
                pmErrStr(-ENOENT));
        return 1;
    }
    if (opts.context == PM_CONTEXT_ARCHIVE) {
        first = opts.origin;
        last = opts.finish;
        if (!run.samples && !run.nointerp && !gui.on) {
            double span = pmtimespecSub(&opts.finish, &opts.origin);
            double step = pmtimespecToReal(&opts.interval);
            opts.samples = span >= 0 ? (int)(span / step) + 1 : 0;
        }
        if (gui.on)
            sts = 0; /* the server's first step sets the mode */
        else if (run.nointerp)
            sts = pmSetModeHighRes(PM_MODE_FORW, &opts.origin, NULL);
        else
            sts = pmSetModeHighRes(PM_MODE_INTERP, &opts.origin, &opts.interval);
        if (sts < 0) {
            fprintf(stderr, "%s: pmSetMode: %s\n", pmGetProgname(), pmErrStr(sts));
            return 1;
        }
    }
    if (gui.on)
        gui_setup(host);
    header(host, &first, &last);
    full_labels();
    if (gui.on)
        replay_gui();
    else
        replay();
    if (outfile_stdout_close() < 0)
        return 1;
    return 0;
}
