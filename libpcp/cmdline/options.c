/*
 * options.c - pmGetOptions: the standard PCP command-line options (hosts,
 * archives, namespaces, time window, samples, interval, timezone, debug,
 * version, ...) taken from the environment and from argv, on top of the
 * scanner in getopt.c.
 *
 * Behaviour, probed from Debian's libpcp 6.0.3 (tests/oracle/probe_getopt.c
 * and getopt_diff.sh compare the two on the same argv and environment):
 *  - The first call (PM_OPTFLAG_INIT clear) sets the program name and
 *    takes options from the environment, in the environment's own order:
 *    PCP_ALIGN_TIME (-A), PCP_ARCHIVE (-a), PCP_ARCHIVE_LIST, PCP_FOLIO
 *    (--archive-folio), PCP_DEBUG (-D), PCP_GUIMODE (-g), PCP_HOST (-h),
 *    PCP_HOST_LIST, PCP_SPECLOCAL (-K), PCP_LOCALPMDA and PCP_LOCALMODE
 *    (-L), PCP_NAMESPACE (-n), PCP_UNIQNAMES (-N), PCP_ORIGIN and
 *    PCP_ORIGIN_TIME (-O), PCP_GUIPORT (-p), PCP_START_TIME (-S),
 *    PCP_SAMPLES (-s), PCP_FINISH_TIME (-T), PCP_INTERVAL (-t),
 *    PCP_TIMEZONE (-Z), PCP_HOSTZONE (-z), whether or not the tool's
 *    tables list the option.  With PM_OPTFLAG_ENV_ONLY that is all: argv
 *    is not looked at.
 *  - Then each option pmgetopt_r returns goes first to the override
 *    callback (non-zero: returned to the caller), then is handled here if
 *    it is a standard one ('?' counts an error), else returned.
 *  - Messages are pmprintf'd (pmUsageMessage or the caller's pmflush
 *    writes them).  Errors count in d->errors; file and namespace failures
 *    also set PM_OPTFLAG_RUNTIME_ERR.
 *  - At the end of argv (-1), once (PM_OPTFLAG_DONE): version becomes 2
 *    unless it is 3; the context follows from -L, else hosts alone or
 *    archives alone; -O with no source at all adds the local host's
 *    archive ($PCP_ARCHIVE_DIR/hostname); -S, -A or -O need an archive
 *    context and -z a host or archive one; errors without a runtime error
 *    set PM_OPTFLAG_USAGE_ERR.
 *  - Hosts: one unless PM_OPTFLAG_MULTI.  Archives: without MULTI further
 *    ones are joined to the first with commas (one archive list).  Hosts
 *    and archives together only with PM_OPTFLAG_MIXED.
 *  - -t fills the struct timespec interval of a version 3 pmOptions and
 *    the struct timeval one otherwise.
 * pmGetContextOptions, once the tool has a context: the timezone, and the
 * time window of a live context (pmkit has no archive contexts yet).
 * --derived loads derived metrics at once (pmLoadDerivedConfig); a
 * failure is a usage error, the message PCP's.
 */
#include "cmdline.h"

#include <pcp/libpcp.h>

#include <errno.h>
#include <stdarg.h>
#include <libgen.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

/* The long-only standard options, as option codes beyond any letter. */
enum { ARCHIVE_LIST = 256, ARCHIVE_FOLIO, HOST_LIST, CONTAINER, DERIVED };

/* A name and the standard option it stands for. */
typedef struct {
    const char *name;
    int code;
} option_name;

static const option_name long_only[] = {
    /* in code order */
    {PMLONGOPT_ARCHIVE_LIST, ARCHIVE_LIST}, {PMLONGOPT_ARCHIVE_FOLIO, ARCHIVE_FOLIO},
    {PMLONGOPT_HOST_LIST, HOST_LIST},       {PMLONGOPT_CONTAINER, CONTAINER},
    {PMLONGOPT_DERIVED, DERIVED},
};

/* Environment variables (without "PCP_") and the option each stands for. */
static const option_name from_env[] = {
    {"ALIGN_TIME", 'A'},
    {"ARCHIVE", 'a'},
    {"ARCHIVE_LIST", ARCHIVE_LIST},
    {"FOLIO", ARCHIVE_FOLIO},
    {"DEBUG", 'D'},
    {"GUIMODE", 'g'},
    {"HOST", 'h'},
    {"HOST_LIST", HOST_LIST},
    {"SPECLOCAL", 'K'},
    {"LOCALPMDA", 'L'},
    {"LOCALMODE", 'L'},
    {"NAMESPACE", 'n'},
    {"UNIQNAMES", 'N'},
    {"ORIGIN", 'O'},
    {"ORIGIN_TIME", 'O'},
    {"GUIPORT", 'p'},
    {"START_TIME", 'S'},
    {"SAMPLES", 's'},
    {"FINISH_TIME", 'T'},
    {"INTERVAL", 't'},
    {"TIMEZONE", 'Z'},
    {"HOSTZONE", 'z'},
};

/* The code of the option TABLE (of N) names NAME (LEN bytes), or 0. */
static int code_of(const option_name *table, size_t n, const char *name, size_t len)
{
    for (size_t i = 0; i < n; i++) {
        if (strlen(table[i].name) == len && strncmp(table[i].name, name, len) == 0)
            return table[i].code;
    }
    return 0;
}

#define CODE_OF(table, name, len) code_of(table, sizeof(table) / sizeof(table[0]), name, len)

/* A version 3 pmOptions: the version 2 layout (its timevals "unused"),
 * then four timespecs, right after it as in <pcp/pmapi.h>. */
typedef struct {
    pmOptions v2;
    struct timespec start, finish, origin, interval;
} options_v3;
_Static_assert(offsetof(options_v3, start) == sizeof(pmOptions),
               "the timespecs of a version 3 pmOptions follow the version 2 fields");

static void error(pmOptions *d, int runtime, const char *fmt, ...) __PM_PRINTFLIKE(3, 4);

/* "prog: message" through pmprintf, counted; RUNTIME also flags it so. */
static void error(pmOptions *d, int runtime, const char *fmt, ...)
{
    va_list ap;

    pmprintf("%s: ", pmGetProgname());
    va_start(ap, fmt);
    pmkit_vprintf(fmt, ap);
    va_end(ap);
    pmprintf("\n");
    d->errors++;
    if (runtime)
        d->flags |= PM_OPTFLAG_RUNTIME_ERR;
}

/* ARG, or "(null)" as PCP's messages print a missing one. */
static const char *shown(const char *arg)
{
    return arg != NULL ? arg : "(null)";
}

/* Appends ARG to a hosts or archives array. */
static void append(char ***v, int *n, char *arg)
{
    char **grown = realloc(*v, ((size_t)*n + 1) * sizeof(char *));

    if (grown == NULL)
        pmNoMem("pmGetOptions", ((size_t)*n + 1) * sizeof(char *), PM_FATAL_ERR);
    grown[(*n)++] = arg;
    *v = grown;
}

/* A copy of the first N bytes of S (its end if sooner). */
static char *copy(const char *s, size_t n)
{
    char *c = strndup(s, n);

    if (c == NULL)
        pmNoMem("pmGetOptions", n + 1, PM_FATAL_ERR);
    return c;
}

/* "A" SEP "B" in a new string. */
static char *join(const char *a, int sep, const char *b)
{
    size_t m = strlen(a), n = strlen(b);
    char *s = malloc(m + n + 2);

    if (s == NULL)
        pmNoMem("pmGetOptions", m + n + 2, PM_FATAL_ERR);
    memcpy(s, a, m);
    s[m] = (char)sep;
    memcpy(s + m + 1, b, n + 1);
    return s;
}

/* Are there sources of the other kind (OTHERS) without MIXED?  Then that
 * is the error of a host or archive list or file. */
static int other_kind(pmOptions *d, int others)
{
    if (others && !(d->flags & PM_OPTFLAG_MIXED)) {
        error(d, 0, "only one of hosts or archives allowed");
        return 1;
    }
    return 0;
}

/* FILE open for -H or --archive-folio (WHAT), or NULL after the error. */
static FILE *open_sources(pmOptions *d, int others, const char *what, const char *file)
{
    FILE *f = NULL;

    if (other_kind(d, others))
        return NULL;
    if (file == NULL) /* a tool's table gave the option no argument */
        errno = EFAULT;
    if (file == NULL || (f = fopen(file, "r")) == NULL)
        error(d, 1, "cannot open %s %s: %s", what, shown(file), strerror(errno));
    return f;
}

/* Is ARG an archive already named: an entry, or without MULTI one item of
 * the entry's comma list? */
static int known_archive(const pmOptions *d, const char *arg)
{
    size_t len = strlen(arg);

    for (int i = 0; i < d->narchives; i++) {
        const char *p = d->archives[i];

        if (strcmp(p, arg) == 0)
            return 1;
        if (d->flags & PM_OPTFLAG_MULTI)
            continue;
        for (size_t n;; p += n + 1) {
            n = strcspn(p, ",");
            if (n == len && strncmp(p, arg, len) == 0)
                return 1;
            if (p[n] == '\0')
                break;
        }
    }
    return 0;
}

/* -a: a copy of an archive; without MULTI it joins the first one's comma
 * list.  An archive already named is not added again. */
static void add_archive(pmOptions *d, const char *arg)
{
    if (known_archive(d, arg))
        return;
    if (d->nhosts && !(d->flags & PM_OPTFLAG_MIXED)) {
        error(d, 0, "only one host or archive allowed");
    } else if (d->narchives && !(d->flags & PM_OPTFLAG_MULTI)) {
        char *old = d->archives[0];

        d->archives[0] = join(old, ',', arg);
        free(old);
    } else {
        append(&d->archives, &d->narchives, copy(arg, strlen(arg)));
    }
}

/* --archive-list: one -a for the lot, or with MULTI one for each item. */
static void add_archive_list(pmOptions *d, char *arg)
{
    const char *p = arg;

    if (other_kind(d, d->nhosts))
        return;
    if (!(d->flags & PM_OPTFLAG_MULTI)) {
        add_archive(d, arg);
        return;
    }
    while (*p != '\0') { /* empty items count, but not after the last comma */
        size_t n = strcspn(p, ",");
        char *item = copy(p, n);

        add_archive(d, item);
        free(item);
        p += n + (p[n] == ',');
    }
}

/* -h: one host unless MULTI. */
static void add_host(pmOptions *d, char *arg)
{
    if (d->narchives && !(d->flags & PM_OPTFLAG_MIXED))
        error(d, 0, "only one host or archive allowed");
    else if (d->nhosts && !(d->flags & PM_OPTFLAG_MULTI))
        error(d, 0, "too many hosts requested: %s", arg);
    else
        append(&d->hosts, &d->nhosts, arg);
}

/* --host-list: every non-empty item is added; then more than one host
 * without MULTI is one error naming the list. */
static void add_host_list(pmOptions *d, char *arg)
{
    const char *p = arg;

    if (other_kind(d, d->narchives))
        return;
    while (*p != '\0') {
        size_t n = strcspn(p, ",");

        if (n > 0)
            append(&d->hosts, &d->nhosts, copy(p, n));
        p += n + (p[n] == ',');
    }
    if (d->nhosts > 1 && !(d->flags & PM_OPTFLAG_MULTI))
        error(d, 0, "too many hosts requested: %s", arg);
}

/* -H: the first word of each line that has one ('#' starts a comment);
 * the first host too many ends the file, naming it. */
static void add_hosts_file(pmOptions *d, char *file)
{
    char *line = NULL;
    size_t room = 0;
    FILE *f;

    if ((f = open_sources(d, d->narchives, "hosts file", file)) == NULL)
        return;
    while (getline(&line, &room, f) > 0) {
        char *word = line + strspn(line, " \t\r\n\f\v");
        size_t n = strcspn(word, " \t\r\n\f\v#");

        if (n == 0)
            continue;
        if (d->nhosts && !(d->flags & PM_OPTFLAG_MULTI)) {
            error(d, 0, "too many hosts requested: %s", file);
            break;
        }
        append(&d->hosts, &d->nhosts, copy(word, n));
    }
    free(line);
    fclose(f);
}

/*
 * --archive-folio: a mkaf(1) folio.  Line 1 starts "PCPFolio", line 2
 * "Version: 1"; each later line starting "Archive:" names a host and a
 * path (whitespace-separated words after the keyword word), relative to
 * the folio's directory.  Anything else is ignored.
 */
static void add_folio(pmOptions *d, char *file)
{
    char *line = NULL, *dir = NULL;
    size_t room = 0;
    int lineno = 0, failed = 0;
    FILE *f;

    if ((f = open_sources(d, d->nhosts, "archive folio", file)) == NULL)
        return;
    while (!failed && getline(&line, &room, f) > 0) {
        char *host, *path, *next;

        if (++lineno <= 2) {
            if (lineno == 1 && strncmp(line, "PCPFolio", 8) != 0) {
                error(d, 1, "archive folio %s has bad magic", file);
                failed = 1;
            } else if (lineno == 2 && strncmp(line, "Version: 1", 10) != 0) {
                error(d, 1, "unknown version archive folio %s", file);
                failed = 1;
            }
            continue;
        }
        if (strncmp(line, "Archive:", 8) != 0)
            continue;
        strtok_r(line, " \t\r\n", &next);
        if ((host = strtok_r(NULL, " \t\r\n", &next)) == NULL) {
            error(d, 1, "missing host on archive folio line %d", lineno);
            failed = 1;
        } else if ((path = strtok_r(NULL, " \t\r\n", &next)) == NULL) {
            error(d, 1, "missing path on archive folio line %d", lineno);
            failed = 1;
        } else if (path[0] == '/') {
            add_archive(d, path);
        } else {
            char *archive;

            if (dir == NULL) {
                char *tmp = copy(file, strlen(file));
                dir = copy(dirname(tmp), strlen(file));
                free(tmp);
            }
            archive = join(dir, '/', path);
            add_archive(d, archive);
            free(archive);
        }
    }
    if (lineno == 0)
        error(d, 1, "archive folio %s has no header", file);
    else if (lineno == 1 && !failed)
        error(d, 1, "archive folio %s has no version", file);
    free(dir);
    free(line);
    fclose(f);
}

/* -t: into the timespec of a version 3 pmOptions, else the timeval. */
static void set_interval(pmOptions *d, const char *arg)
{
    char *msg = NULL;
    int sts;

    if (d->version == PMAPI_VERSION_3)
        sts = pmParseHighResInterval(arg, &((options_v3 *)d)->interval, &msg);
    else
        sts = pmParseInterval(arg, &d->interval, &msg);
    if (sts < 0)
        error(d, 0, "-t argument not in %s(3) format:\n%s",
              d->version == PMAPI_VERSION_3 ? "pmParseHighResInterval" : "pmParseInterval",
              msg != NULL ? msg : "");
    free(msg);
}

/* -s: strtol's value is kept even when the argument is refused. */
static void set_samples(pmOptions *d, const char *arg)
{
    char *end;

    d->samples = (int)strtol(arg, &end, 10);
    if (*end != '\0' || d->samples < 0)
        error(d, 0, "-s requires a positive numeric argument");
}

/* The timezone, GUI and namespace options. */
static void misc_option(pmOptions *d, int code, char *arg)
{
    const char *why;
    int sts;

    switch (code) {
    case 'g':
        if (d->guiport_optarg != NULL)
            error(d, 0, "at most one of -g and -p allowed");
        else
            d->guiflag = 1;
        break;
    case 'p':
        if (d->guiflag) {
            error(d, 0, "at most one of -g and -p allowed");
        } else {
            char *end;
            long port = strtol(arg, &end, 10);

            d->guiport_optarg = arg;
            if (*end == '\0')
                d->guiport = (int)port;
        }
        break;
    case 'Z':
        if (d->tzflag)
            error(d, 0, "at most one of -Z and -z allowed");
        else
            d->timezone = arg;
        break;
    case 'z':
        if (d->timezone != NULL)
            error(d, 0, "at most one of -Z and -z allowed");
        else
            d->tzflag = 1;
        break;
    case 'n':
    case 'N':
        /* PCP's loader reports through pmprintf and pmflush, so what is
         * pending (a --version line, an earlier option's error) comes out
         * before its errors */
        pmflush();
        if ((sts = pmLoadASCIINameSpace(arg, code == 'n')) < 0)
            error(d, 1, "Cannot load namespace from \"%s\": %s", shown(arg), pmErrStr(sts));
        else
            d->nsflag = 1;
        break;
    case 'K':
        if ((why = pmSpecLocalPMDA(arg)) != NULL)
            error(d, 0, "pmSpecLocalPMDA failed: %s", why);
        break;
    case 'D':
        if (pmSetDebug(arg) < 0)
            error(d, 0, "unrecognized debug options specification (%s)", arg);
        break;
    }
}

/* Must standard option CODE have its argument?  Those PCP dereferences
 * (-a, -D, -K, -p, -s: a crash; -h: a NULL host) and the long-only ones.
 * The others take a NULL argument as PCP does: -T, -S, -A, -O and -Z store
 * it, -t reports an empty interval, -n and -N load the default namespace,
 * -H fails to open "(null)". */
static int needs_argument(int code)
{
    return code >= ARCHIVE_LIST || (code > 0 && code < 256 && strchr("aDhKps", code) != NULL);
}

/* "-c" or "--name" for standard option CODE, in BUF. */
static const char *option_label(int code, char *buf, size_t size)
{
    if (code >= ARCHIVE_LIST)
        snprintf(buf, size, "--%s", long_only[code - ARCHIVE_LIST].name);
    else
        snprintf(buf, size, "-%c", code);
    return buf;
}

/* Handles standard option CODE; 0 if it is not one. */
static int standard(pmOptions *d, int code, char *arg)
{
    if (arg == NULL && needs_argument(code)) {
        /* the tool's tables give a standard option no argument; PCP
         * crashes here (docs/compat.md) */
        char label[32];

        error(d, 0, "%s needs an argument, and the tool's options give it none",
              option_label(code, label, sizeof(label)));
        return 1;
    }
    switch (code) {
    case 'A':
        d->align_optarg = arg;
        break;
    case 'O':
        d->origin_optarg = arg;
        break;
    case 'S':
        d->start_optarg = arg;
        break;
    case 'T':
        d->finish_optarg = arg;
        break;
    case 'a':
        add_archive(d, arg);
        break;
    case 'h':
        add_host(d, arg);
        break;
    case 'H':
        add_hosts_file(d, arg);
        break;
    case 'L':
        d->Lflag = 1;
        break;
    case 's':
        set_samples(d, arg);
        break;
    case 't':
        set_interval(d, arg);
        break;
    case 'V':
        pmprintf("%s version %s\n", pmGetProgname(), pmGetConfig("PCP_VERSION"));
        d->flags |= PM_OPTFLAG_EXIT;
        break;
    case '?':
        d->errors++;
        break;
    case ARCHIVE_LIST:
        add_archive_list(d, arg);
        break;
    case ARCHIVE_FOLIO:
        add_folio(d, arg);
        break;
    case HOST_LIST:
        add_host_list(d, arg);
        break;
    case CONTAINER:
        setenv("PCP_CONTAINER", arg, 1);
        break;
    case DERIVED: {
        /* loaded at once; a failure is a usage error, as in PCP */
        int sts = pmLoadDerivedConfig(arg);
        if (sts < 0) {
            pmprintf("%s: pmLoadDerivedConfig failed: %s\n", pmGetProgname(), pmErrStr(sts));
            d->errors++;
        }
        break;
    }
    case 'g':
    case 'p':
    case 'Z':
    case 'z':
    case 'n':
    case 'N':
    case 'K':
    case 'D':
        misc_option(d, code, arg);
        break;
    default:
        return 0;
    }
    return 1;
}

/*
 * The options the environment gives, in the order of environ.  They are
 * all found before any is handled: handling one can set variables (the
 * first pmGetConfig exports pcp.conf's), and that can move environ.
 */
static void start(int argc, char *const *argv, pmOptions *d)
{
    size_t n = 0, found = 0;
    struct {
        int code;
        char *value;
    } * opt;

    if (argc > 0 && argv != NULL && argv[0] != NULL)
        pmSetProgname(argv[0]);
    while (environ != NULL && environ[n] != NULL)
        n++;
    if (n == 0)
        return;
    if ((opt = malloc(n * sizeof(*opt))) == NULL)
        pmNoMem("pmGetOptions", n * sizeof(*opt), PM_FATAL_ERR);
    for (size_t e = 0; e < n; e++) {
        char *var = environ[e], *eq;

        if (strncmp(var, "PCP_", 4) != 0 || (eq = strchr(var + 4, '=')) == NULL)
            continue;
        if ((opt[found].code = CODE_OF(from_env, var + 4, (size_t)(eq - var - 4))) != 0)
            opt[found++].value = eq + 1;
    }
    for (size_t i = 0; i < found; i++)
        standard(d, opt[i].code, opt[i].value);
    free(opt);
}

/* The local host's archive, for -O with no source. */
static void default_archive(pmOptions *d)
{
    char host[256], *path;

    if (gethostname(host, sizeof(host)) < 0)
        strcpy(host, "localhost");
    host[sizeof(host) - 1] = '\0';
    path = join(pmGetConfig("PCP_ARCHIVE_DIR"), '/', host);
    add_archive(d, path);
    free(path);
}

/* What can only be checked once every option is in. */
static void finish(pmOptions *d)
{
    if (d->flags & PM_OPTFLAG_DONE)
        return;
    if (d->version != PMAPI_VERSION_3)
        d->version = PMAPI_VERSION_2;
    if (!d->context) {
        if (d->Lflag)
            d->context = PM_CONTEXT_LOCAL;
        else if (d->nhosts && !d->narchives)
            d->context = PM_CONTEXT_HOST;
        else if (d->narchives && !d->nhosts)
            d->context = PM_CONTEXT_ARCHIVE;
    }
    if (!d->context && d->origin_optarg != NULL) {
        default_archive(d);
        d->context = PM_CONTEXT_ARCHIVE;
    }
    if ((d->start_optarg || d->align_optarg || d->origin_optarg) &&
        d->context != PM_CONTEXT_ARCHIVE)
        error(d, 0, "time window options are supported for archives only");
    if (d->tzflag && d->context != PM_CONTEXT_HOST && d->context != PM_CONTEXT_ARCHIVE)
        error(d, 0, "use of timezone from metric source requires a source");
    if (d->errors && !(d->flags & PM_OPTFLAG_RUNTIME_ERR))
        d->flags |= PM_OPTFLAG_USAGE_ERR;
    d->flags |= PM_OPTFLAG_DONE;
}

/* The standard option pmgetopt_r's return C stands for, or 0. */
static int standard_code(const pmOptions *d, int c)
{
    const char *name;

    if (c != 0)
        return c;
    if (d->long_options == NULL || d->index < 0 ||
        (name = d->long_options[d->index].long_opt) == NULL)
        return 0;
    return CODE_OF(long_only, name, strlen(name));
}

/* -Z or -z, once there is a context; "Note:" lines with STDOUT_TZ. */
static int context_zone(int ctx, pmOptions *d)
{
    int sts;

    if (d->timezone != NULL) {
        if ((sts = pmNewZone(d->timezone)) < 0) {
            error(d, 1, "Cannot set timezone to \"%s\": %s", d->timezone, pmErrStr(sts));
            return PM_ERR_GENERIC;
        }
        if (d->flags & PM_OPTFLAG_STDOUT_TZ)
            printf("Note: timezone set to \"TZ=%s\"\n\n", d->timezone);
    } else if (d->tzflag) {
        if ((sts = pmNewContextZone()) < 0) {
            error(d, 1, "Cannot set context timezone: %s", pmErrStr(sts));
            return PM_ERR_GENERIC;
        }
        if (d->flags & PM_OPTFLAG_STDOUT_TZ)
            printf("Note: timezone set to local timezone of host \"%s\"%s\n\n",
                   pmGetContextHostName(ctx),
                   d->context == PM_CONTEXT_ARCHIVE ? " from archive" : "");
    }
    return 0;
}

/* The time window of a live context: from now to the end of time, or to
 * -T as pmParseHighResTimeWindow reads it in a window from now to the end
 * of time ([+]INTERVAL from now, past the end of time_t the end of time;
 * @DATE), as PCP does.  Worked out in nanoseconds; a version 2 pmOptions
 * gets timevals, from the start's whole microsecond and the finish
 * truncated (as PCP's window is). */
static int live_window(pmOptions *d)
{
    const struct timespec last = {(time_t)(~(unsigned long long)0 >> 1), 0};
    const char *arg = d->finish_optarg;
    struct timespec now, finish = last, start, origin;
    char *msg = NULL;

    pmtimespecNow(&now);
    if (d->version != PMAPI_VERSION_3)
        now.tv_nsec -= now.tv_nsec % 1000; /* start from a whole microsecond */
    if (arg != NULL && pmParseHighResTimeWindow(NULL, arg, NULL, NULL, &now, &last, &start, &finish,
                                                &origin, &msg) < 0) {
        error(d, 1, "invalid time window.\n%s", msg != NULL ? msg : "");
        free(msg);
        return PM_ERR_GENERIC;
    }
    free(msg);
    if (d->version == PMAPI_VERSION_3) {
        options_v3 *o = (options_v3 *)d;

        o->start = o->origin = now;
        o->finish = finish;
    } else {
        d->start.tv_sec = now.tv_sec;
        d->start.tv_usec = now.tv_nsec / 1000;
        d->origin = d->start;
        d->finish.tv_sec = finish.tv_sec;
        d->finish.tv_usec = finish.tv_nsec / 1000;
    }
    return 0;
}

/* The warning when the end of archive cannot be found (not an error: PCP
 * goes on, with the end of time as the end); pmdumplog's too. */
void pmkit_archive_end_warning(const char *archive, int sts)
{
    pmprintf("%s: Cannot locate end of archive %s: %s\n", pmGetProgname(), archive, pmErrStr(sts));
    pmprintf("\nWARNING: This archive is sufficiently damaged that it may not be possible to\n");
    pmprintf("         produce complete information.  Continuing and hoping for the best.\n\n");
    pmflush();
}

/* The time window of an archive context: from its label's start to its
 * end, read as pmParseTimeWindow (a version 2 pmOptions) or
 * pmParseHighResTimeWindow (version 3) does, as PCP does. */
static int archive_window(pmOptions *d)
{
    const char *arch = d->narchives > 0 ? d->archives[0] : "";
    char *msg = NULL;
    int sts;

    if (d->version == PMAPI_VERSION_3) {
        options_v3 *o = (options_v3 *)d;
        struct timespec last = {(time_t)(~(unsigned long long)0 >> 1), 0};
        pmHighResLogLabel label;
        if ((sts = pmGetHighResArchiveLabel(&label)) < 0) {
            error(d, 1, "Cannot get archive %s label record: %s", arch, pmErrStr(sts));
            return PM_ERR_GENERIC;
        }
        if ((sts = pmGetHighResArchiveEnd(&last)) < 0)
            pmkit_archive_end_warning(arch, sts);
        sts = pmParseHighResTimeWindow(d->start_optarg, d->finish_optarg, d->align_optarg,
                                       d->origin_optarg, &label.start, &last, &o->start, &o->finish,
                                       &o->origin, &msg);
    } else {
        struct timeval last = {(time_t)(~(unsigned long long)0 >> 1), 0};
        pmLogLabel label;
        if ((sts = pmGetArchiveLabel(&label)) < 0) {
            error(d, 1, "Cannot get archive %s label record: %s", arch, pmErrStr(sts));
            return PM_ERR_GENERIC;
        }
        if ((sts = pmGetArchiveEnd(&last)) < 0)
            pmkit_archive_end_warning(arch, sts);
        sts =
            pmParseTimeWindow(d->start_optarg, d->finish_optarg, d->align_optarg, d->origin_optarg,
                              &label.ll_start, &last, &d->start, &d->finish, &d->origin, &msg);
    }
    if (sts < 0) {
        error(d, 1, "invalid time window.\n%s", msg != NULL ? msg : "");
        free(msg);
        return PM_ERR_GENERIC;
    }
    free(msg);
    return 0;
}

/*
 * What needs the context: the timezone (-Z, -z) and the time window (-S,
 * -T, -A, -O, or PM_OPTFLAG_BOUNDARIES): an archive's from its label and
 * end, a live context's from now.
 */
int pmGetContextOptions(int ctx, pmOptions *d)
{
    int sts;

    if ((sts = context_zone(ctx, d)) < 0)
        return sts;
    if (!(d->start_optarg || d->finish_optarg || d->align_optarg || d->origin_optarg ||
          (d->flags & PM_OPTFLAG_BOUNDARIES)))
        return 0;
    if (d->context == PM_CONTEXT_ARCHIVE)
        return archive_window(d);
    return live_window(d);
}

int pmGetOptions(int argc, char *const *argv, pmOptions *d)
{
    int c;

    if (!(d->flags & PM_OPTFLAG_INIT)) {
        start(argc, argv, d);
        d->flags |= PM_OPTFLAG_INIT;
    }
    if (d->flags & PM_OPTFLAG_ENV_ONLY) {
        finish(d);
        return -1;
    }
    while ((c = pmgetopt_r(argc, argv, d)) != -1) {
        int code;

        if (d->override != NULL && d->override(c, d))
            return c;
        if ((code = standard_code(d, c)) == 0 || !standard(d, code, d->optarg))
            return c;
    }
    finish(d);
    return -1;
}

/*
 * The pieces of pmGetOptions that PCP's tools call one by one
 * (<pcp/libpcp.h>): the environment's options, each kind of source as -a,
 * -h, --archive-list, --archive-folio, --host-list, --container, -L and -K
 * give it, the local host's archive, and the final checks.
 */
void __pmStartOptions(pmOptions *d)
{
    if (d->flags & PM_OPTFLAG_INIT)
        return;
    start(0, NULL, d);
    d->flags |= PM_OPTFLAG_INIT;
}

void __pmEndOptions(pmOptions *d)
{
    finish(d);
}

void __pmAddOptArchive(pmOptions *d, char *arg)
{
    standard(d, 'a', arg);
}

void __pmAddOptArchiveList(pmOptions *d, char *arg)
{
    standard(d, ARCHIVE_LIST, arg);
}

void __pmAddOptArchiveFolio(pmOptions *d, char *arg)
{
    standard(d, ARCHIVE_FOLIO, arg);
}

void __pmAddOptArchivePath(pmOptions *d)
{
    default_archive(d);
}

void __pmAddOptHost(pmOptions *d, char *arg)
{
    standard(d, 'h', arg);
}

void __pmAddOptHostList(pmOptions *d, char *arg)
{
    standard(d, HOST_LIST, arg);
}

void __pmAddOptContainer(pmOptions *d, char *arg)
{
    standard(d, CONTAINER, arg);
}

void __pmSetLocalContextFlag(pmOptions *d)
{
    standard(d, 'L', NULL);
}

void __pmSetLocalContextTable(pmOptions *d, char *arg)
{
    standard(d, 'K', arg);
}
