/*
 * probe_getopt.c - pmGetOptions, the standard PCP command-line options,
 * probed the same way against pmkit's libpcp and Debian's: built once
 * against each, run on the same argv and environment by getopt_diff.sh,
 * whose two outputs (stdout and stderr) must be identical.
 *
 *   probe_getopt [ARG]...      (argv[0] is the program name PCP reports)
 *
 * Environment read by the probe itself (the PCP_* variables are read by
 * the library):
 *   PROBE_FLAGS  pmOptions.flags to start with (decimal), default 0
 *   PROBE_CLAIM  letters the override callback claims (returns 1 for)
 *   PROBE_SHORT  short_options, default every standard letter plus x: y
 *   PROBE_TABLE  "own": a long-option table without the standard options
 *   PROBE_VERSION pmOptions.version to start with, default 0
 *   PROBE_CALLS  stop after this many pmGetOptions calls that return an
 *                option (to see a second call after -1), default 64
 *   PROBE_CONTEXT set: then a local context (no agents) and
 *                pmGetContextOptions on it; "archive": an archive context
 *                of the first archive named instead
 *   PROBE_FINISH_AT set: the window's finish printed as it is, not
 *                relative to the start (which is now)
 *
 * Printed: one line per pmGetOptions return (value, optarg, optind,
 * index, errors, flags), then every field pmGetOptions fills in, then
 * what the namespace looks like when -n / -N loaded one, then the usage
 * message when errors were counted.  Only <pcp/pmapi.h> and standard C.
 */
#include <pcp/pmapi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static pmLongOptions longopts[] = {
    PMAPI_GENERAL_OPTIONS,
    PMOPT_HOSTSFILE,
    PMOPT_SPECLOCAL,
    PMOPT_LOCALPMDA,
    PMOPT_UNIQNAMES,
    PMOPT_ARCHIVE_LIST,
    PMOPT_ARCHIVE_FOLIO,
    PMOPT_HOST_LIST,
    PMOPT_CONTAINER,
    PMOPT_DERIVED,
    PMAPI_OPTIONS_HEADER("Probe options"),
    {"ex", 1, 'x', "ARG", "an option of the tool's own, with an argument"},
    {"why", 0, 'y', 0, "an option of the tool's own"},
    {"only-long", 0, 0, 0, "a long-only option of the tool's own"},
    PMAPI_OPTIONS_END,
};

/* PROBE_TABLE=own: the tool's own options only, no standard ones. */
static pmLongOptions ownopts[] = {
    {"ex", 1, 'x', "ARG", "an option of the tool's own, with an argument"},
    {"why", 0, 'y', 0, "an option of the tool's own"},
    PMAPI_OPTIONS_END,
};

static const char *claim = "";

static int override(int opt, pmOptions *o)
{
    (void)o;
    if (opt > 0 && strchr(claim, opt) != NULL) {
        printf("override claims %c\n", opt);
        return 1;
    }
    return 0;
}

static const char *str(const char *s)
{
    return s != NULL ? s : "(null)";
}

static void list(const char *what, int n, char **v)
{
    printf("%s %d:", what, n);
    for (int i = 0; i < n && v != NULL; i++)
        printf(" [%s]", str(v[i]));
    printf("\n");
}

static void print_tv(const char *what, const struct timeval *tv)
{
    printf("%s %ld.%06ld\n", what, (long)tv->tv_sec, (long)tv->tv_usec);
}

static void dump(const pmOptions *o)
{
    printf("version %d flags 0x%x errors %d context %d\n", o->version, o->flags, o->errors,
           o->context);
    list("hosts", o->nhosts, o->hosts);
    list("archives", o->narchives, o->archives);
    print_tv("start", &o->start);
    print_tv("finish", &o->finish);
    print_tv("origin", &o->origin);
    print_tv("interval", &o->interval);
    printf("align %s start %s finish %s origin %s guiport %s\n", str(o->align_optarg),
           str(o->start_optarg), str(o->finish_optarg), str(o->origin_optarg),
           str(o->guiport_optarg));
    printf("timezone %s samples %d guiport %d\n", str(o->timezone), o->samples, o->guiport);
    printf("guiflag %u tzflag %u nsflag %u Lflag %u\n", o->guiflag, o->tzflag, o->nsflag, o->Lflag);
    printf("PCP_CONTAINER %s\n", str(getenv("PCP_CONTAINER")));
}

/* What -n / -N loaded: the root's children and one name's PMID. */
static void namespace(void)
{
    char **names = NULL;
    pmID pmid;
    char *name = "sample.long.one";
    int n = pmGetChildren("", &names);

    printf("root children %d:", n);
    for (int i = 0; i < n; i++)
        printf(" %s", names[i]);
    printf("\n");
    free(names);
    n = pmLookupName(1, (const char **)&name, &pmid);
    printf("lookup %s: %d %s\n", name, n, n < 0 ? pmErrStr(n) : pmIDStr(pmid));
}

/* Room for a version 3 pmOptions, whose four timespecs follow the
 * version 2 layout this probe is compiled with. */
static union {
    pmOptions o;
    char v3[sizeof(pmOptions) + 4 * sizeof(struct timespec)];
} room;

/* Version 3's timespec N (0 start, 1 finish, 2 origin, 3 interval). */
static struct timespec v3_time(int n)
{
    struct timespec ts;

    memcpy(&ts, room.v3 + sizeof(pmOptions) + (size_t)n * sizeof(ts), sizeof(ts));
    return ts;
}

static struct timespec from_tv(const struct timeval *tv)
{
    struct timespec ts = {tv->tv_sec, tv->tv_usec * 1000L};

    return ts;
}

static int before(const struct timespec *a, const struct timespec *b)
{
    return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/* pmGetContextOptions on a local context without agents: its answer, the
 * zone it chose, and the time window (the timespecs of a version 3
 * pmOptions, else the timevals), which starts now: it is shown relative to
 * the start (with PROBE_FINISH_AT set, as it is: a -T date's), and the
 * start relative to the clock. */
/* PROBE_CONTEXT=archive: pmGetContextOptions on an archive context of the
 * first archive the options named: its answer, the zone and the window as
 * it is (an archive's does not move with the clock). */
static void archive_options(pmOptions *o)
{
    struct timespec start, finish, origin;
    char *tz = NULL;
    int ctx, sts, zone, v3 = o->version == PMAPI_VERSION_3;

    if ((ctx = pmNewContext(PM_CONTEXT_ARCHIVE, o->narchives > 0 ? o->archives[0] : "")) < 0) {
        printf("pmNewContext: %s\n", pmErrStr(ctx));
        return;
    }
    sts = pmGetContextOptions(ctx, o);
    zone = pmWhichZone(&tz);
    printf("pmGetContextOptions %d errors %d flags 0x%x zone %d [%s]\n", sts, o->errors, o->flags,
           zone, zone >= 0 && tz != NULL ? tz : "");
    start = v3 ? v3_time(0) : from_tv(&o->start);
    finish = v3 ? v3_time(1) : from_tv(&o->finish);
    origin = v3 ? v3_time(2) : from_tv(&o->origin);
    printf("window: start %lld.%09ld finish %lld.%09ld origin %lld.%09ld\n",
           (long long)start.tv_sec, start.tv_nsec, (long long)finish.tv_sec, finish.tv_nsec,
           (long long)origin.tv_sec, origin.tv_nsec);
}

static void context_options(pmOptions *o)
{
    struct timespec t0, t1, start, finish, origin;
    char *tz = NULL;
    int ctx, sts, zone, v3 = o->version == PMAPI_VERSION_3;

    if (strcmp(getenv("PROBE_CONTEXT"), "archive") == 0) {
        archive_options(o);
        return;
    }
    pmSpecLocalPMDA("clear");
    if ((ctx = pmNewContext(PM_CONTEXT_LOCAL, NULL)) < 0) {
        printf("pmNewContext: %s\n", pmErrStr(ctx));
        return;
    }
    clock_gettime(CLOCK_REALTIME, &t0);
    t0.tv_nsec -= t0.tv_nsec % 1000; /* a timeval's now may be rounded down */
    sts = pmGetContextOptions(ctx, o);
    clock_gettime(CLOCK_REALTIME, &t1);
    zone = pmWhichZone(&tz);
    printf("pmGetContextOptions %d errors %d flags 0x%x zone %d [%s]\n", sts, o->errors, o->flags,
           zone, zone >= 0 && tz != NULL ? tz : "");
    start = v3 ? v3_time(0) : from_tv(&o->start);
    finish = v3 ? v3_time(1) : from_tv(&o->finish);
    origin = v3 ? v3_time(2) : from_tv(&o->origin);
    if (start.tv_sec == 0 && start.tv_nsec == 0) {
        printf("no window\n");
        return;
    }
    printf("window: start %s, origin %s start, finish ",
           before(&start, &t0) || before(&t1, &start) ? "not now" : "now",
           origin.tv_sec == start.tv_sec && origin.tv_nsec == start.tv_nsec ? "=" : "!=");
    if (finish.tv_sec == (time_t)0x7fffffffffffffffLL)
        printf("the end of time (nsec %ld)\n", finish.tv_nsec);
    else if (getenv("PROBE_FINISH_AT") != NULL) /* a date: not relative to now */
        printf("at %lld.%09ld\n", (long long)finish.tv_sec, finish.tv_nsec);
    else
        printf("start + %.9f\n", (double)(finish.tv_sec - start.tv_sec) +
                                     (double)(finish.tv_nsec - start.tv_nsec) / 1e9);
}

int main(int argc, char **argv)
{
    const char *e;
    int c, calls = 64;
    pmOptions *o = &room.o;

    o->short_options = "A:a:D:gh:H:K:Ln:N:O:p:S:s:T:t:VZ:z?x:y";
    o->long_options = longopts;
    o->short_usage = "[options] [arg ...]";
    o->override = override;
    if ((e = getenv("PROBE_FLAGS")) != NULL)
        o->flags = atoi(e);
    if ((e = getenv("PROBE_CLAIM")) != NULL)
        claim = e;
    if ((e = getenv("PROBE_SHORT")) != NULL)
        o->short_options = e;
    if ((e = getenv("PROBE_TABLE")) != NULL && strcmp(e, "own") == 0)
        o->long_options = ownopts;
    if ((e = getenv("PROBE_VERSION")) != NULL)
        o->version = atoi(e);
    if ((e = getenv("PROBE_CALLS")) != NULL)
        calls = atoi(e);
    setvbuf(stdout, NULL, _IONBF, 0);

    do {
        c = pmGetOptions(argc, argv, o);
        printf("ret %d", c);
        if (c > ' ' && c < 127)
            printf(" '%c'", c);
        printf(" optarg %s optind %d index %d errors %d flags 0x%x\n", str(o->optarg), o->optind,
               o->index, o->errors, o->flags);
    } while (c != -1 && --calls > 0);
    dump(o);
    if (o->version == PMAPI_VERSION_3) {
        struct timespec ts = v3_time(3);

        printf("interval (version 3) %ld.%09ld\n", (long)ts.tv_sec, (long)ts.tv_nsec);
    }
    if (getenv("PROBE_CONTEXT") != NULL)
        context_options(o);
    for (int i = o->optind; i < argc; i++)
        printf("operand [%s]\n", argv[i]);
    if (o->nsflag)
    namespace();
    if (o->errors > 0) {
        printf("usage:\n");
        pmUsageMessage(o);
    }
    printf("flush\n");
    pmflush();
    return 0; /* no pmFreeOptions: the strings it leaves stay reachable */
}
