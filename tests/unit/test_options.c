/*
 * Unit tests for pmGetOptions and pmGetContextOptions
 * (libpcp/cmdline/options.c).
 *
 * The expected values are PCP's (Debian's libpcp 6.0.3 gave the same on
 * these inputs; tests/oracle/getopt_diff.sh compares the two libraries on
 * many more), except where a test says it pins one of pmkit's documented
 * differences (docs/compat.md).  Messages are pmprintf'd by the library;
 * $PCP_STDERR sends pmflush's output to a file the tests read back.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <pcp/pmapi.h>

#include "../fuzz/pcp_environ.h"

static char dir[] = "/tmp/pmkit-options.XXXXXX";
static char errfile[sizeof(dir) + 16];

static pmLongOptions longopts[] = {
    PMAPI_GENERAL_OPTIONS, PMOPT_HOSTSFILE,     PMOPT_LOCALPMDA,
    PMOPT_ARCHIVE_LIST,    PMOPT_ARCHIVE_FOLIO, PMOPT_HOST_LIST,
    PMOPT_CONTAINER,       PMOPT_DERIVED,       {"ex", 1, 'x', "ARG", "the tool's own"},
    PMAPI_OPTIONS_END,
};

/* Room for a version 3 pmOptions: the version 2 layout, then timespecs. */
typedef union {
    pmOptions o;
    char v3[sizeof(pmOptions) + 4 * sizeof(struct timespec)];
} options_room;

/* Every run gets a room of its own, kept to the end: the strings the
 * library copies stay reachable (pmFreeOptions frees the arrays only, as
 * PCP's does, so it is not called here). */
static options_room rooms[64];
static options_room *room = rooms;

/* What one run gave back: the options returned, and stderr. */
typedef struct {
    char returned[64];
    char err[4096];
} result;

/* A zeroed room, for one run. */
static void new_room(void)
{
    room++;
    assert_true(room < rooms + 64);
}

static int claim_h(int opt, pmOptions *o)
{
    (void)o;
    return opt == 'h';
}

/* pmGetOptions over ARGV (NULL-terminated, without the program name) from
 * a zeroed pmOptions with FLAGS, until it returns -1. */
static pmOptions *run(int flags, result *r, const char *arg0, ...)
{
    char *argv[32];
    int argc = 0, c;
    va_list ap;
    FILE *f;
    size_t n;

    argv[argc++] = "/usr/bin/tool";
    va_start(ap, arg0);
    for (const char *a = arg0; a != NULL; a = va_arg(ap, const char *))
        argv[argc++] = (char *)a;
    va_end(ap);
    argv[argc] = NULL;
    new_room();
    room->o.flags = flags;
    room->o.short_options = "A:a:D:gh:H:Ln:O:p:S:s:T:t:VZ:z?x:";
    room->o.long_options = longopts;
    r->returned[0] = '\0';
    while ((c = pmGetOptions(argc, argv, &room->o)) != -1) {
        n = strlen(r->returned);
        r->returned[n] = (char)c;
        r->returned[n + 1] = '\0';
    }
    unlink(errfile);
    pmflush();
    r->err[0] = '\0';
    if ((f = fopen(errfile, "r")) != NULL) {
        n = fread(r->err, 1, sizeof(r->err) - 1, f);
        r->err[n] = '\0';
        fclose(f);
    }
    return &room->o;
}

static void write_file(const char *name, const char *text)
{
    char path[256];
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    assert_non_null(f = fopen(path, "w"));
    fputs(text, f);
    fclose(f);
}

static char *path_of(const char *name)
{
    static char path[256];

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    return path;
}

/* ---- pmGetOptions ---- */

static void plain_options(void **state)
{
    result r;
    pmOptions *o;

    (void)state;
    o = run(0, &r, "-h", "foo", "-x", "q", "-t", "1min", "-s", "5", "op", NULL);
    assert_string_equal(r.returned, "x");
    assert_string_equal(r.err, "");
    assert_int_equal(o->errors, 0);
    assert_int_equal(o->flags, PM_OPTFLAG_INIT | PM_OPTFLAG_DONE);
    assert_int_equal(o->version, PMAPI_VERSION_2);
    assert_int_equal(o->context, PM_CONTEXT_HOST);
    assert_int_equal(o->nhosts, 1);
    assert_string_equal(o->hosts[0], "foo");
    assert_int_equal(o->interval.tv_sec, 60);
    assert_int_equal(o->samples, 5);
    assert_int_equal(o->optind, 9); /* at "op" */
    assert_string_equal(pmGetProgname(), "tool");
}

static void hosts_and_archives(void **state)
{
    result r;
    pmOptions *o;

    (void)state;
    o = run(0, &r, "-h", "a", "-h", "b", NULL);
    assert_int_equal(o->nhosts, 1);
    assert_int_equal(o->errors, 1);
    assert_string_equal(r.err, "tool: too many hosts requested: b\n");
    assert_true(o->flags & PM_OPTFLAG_USAGE_ERR);

    o = run(PM_OPTFLAG_MULTI, &r, "-h", "a", "--host-list", "b,,c", NULL);
    assert_int_equal(o->nhosts, 3);
    assert_string_equal(o->hosts[2], "c");
    assert_int_equal(o->errors, 0);

    /* without MULTI, archives join one comma list; one named twice is kept once */
    o = run(0, &r, "-a", "x", "-a", "y", "-a", "x", "--archive-list", "y,z", NULL);
    assert_int_equal(o->narchives, 1);
    assert_string_equal(o->archives[0], "x,y,y,z");
    assert_int_equal(o->context, PM_CONTEXT_ARCHIVE);

    o = run(PM_OPTFLAG_MULTI, &r, "--archive-list", "a,,b,,c,", "-a", "a", NULL);
    assert_int_equal(o->narchives, 4);
    assert_string_equal(o->archives[1], "");
    assert_string_equal(o->archives[3], "c");

    o = run(0, &r, "-a", "x", "-h", "y", NULL);
    assert_string_equal(r.err, "tool: only one host or archive allowed\n");
    assert_int_equal(o->nhosts, 0);

    o = run(PM_OPTFLAG_MIXED, &r, "-a", "x", "-h", "y", NULL);
    assert_int_equal(o->errors, 0);
    assert_int_equal(o->context, 0); /* both kinds: the tool decides */
}

static void files_of_hosts_and_archives(void **state)
{
    result r;
    pmOptions *o;

    (void)state;
    write_file("hosts", "  h1 more words\n#comment\n\n\tc#d\nlast");
    o = run(PM_OPTFLAG_MULTI, &r, "-H", path_of("hosts"), NULL);
    assert_int_equal(o->nhosts, 3);
    assert_string_equal(o->hosts[0], "h1");
    assert_string_equal(o->hosts[1], "c");
    assert_string_equal(o->hosts[2], "last");

    write_file("folio", "PCPFolio\nVersion: 1\nArchive: h1 /abs/a\nArchive: h2 rel extra\n"
                        "  Archive: h3 skipped\n");
    o = run(PM_OPTFLAG_MULTI, &r, "--archive-folio", path_of("folio"), NULL);
    assert_int_equal(o->narchives, 2);
    assert_string_equal(o->archives[0], "/abs/a");
    assert_string_equal(o->archives[1], path_of("rel"));

    write_file("badfolio", "PCPFolio\nVersion: 1\nArchive: h1\n");
    o = run(0, &r, "--archive-folio", path_of("badfolio"), NULL);
    assert_string_equal(r.err, "tool: missing path on archive folio line 3\n");
    assert_int_equal(o->flags & (PM_OPTFLAG_RUNTIME_ERR | PM_OPTFLAG_USAGE_ERR),
                     PM_OPTFLAG_RUNTIME_ERR);

    o = run(0, &r, "-H", path_of("nosuch"), NULL);
    assert_int_equal(o->errors, 1);
    assert_true(o->flags & PM_OPTFLAG_RUNTIME_ERR);
    assert_non_null(strstr(r.err, "cannot open hosts file"));
}

static void end_of_options_checks(void **state)
{
    result r;
    pmOptions *o;
    char host[256], want[512];

    (void)state;
    /* -O with no source: the local host's archive */
    assert_int_equal(gethostname(host, sizeof(host)), 0);
    snprintf(want, sizeof(want), "%s/%s", pmGetConfig("PCP_ARCHIVE_DIR"), host);
    o = run(0, &r, "-O", "@10:00", NULL);
    assert_int_equal(o->errors, 0);
    assert_int_equal(o->context, PM_CONTEXT_ARCHIVE);
    assert_int_equal(o->narchives, 1);
    assert_string_equal(o->archives[0], want);

    o = run(0, &r, "-S", "x", "-z", NULL);
    assert_int_equal(o->errors, 2);
    assert_string_equal(r.err, "tool: time window options are supported for archives only\n"
                               "tool: use of timezone from metric source requires a source\n");

    o = run(0, &r, "-T", "x", "-L", NULL); /* a finish time alone is fine live */
    assert_int_equal(o->errors, 0);
    assert_int_equal(o->context, PM_CONTEXT_LOCAL);

    o = run(0, &r, "-z", "-Z", "UTC", "-g", "-p", "4", NULL);
    assert_int_equal(o->errors, 3);
    assert_null(o->timezone);
    assert_string_equal(r.err, "tool: at most one of -Z and -z allowed\n"
                               "tool: at most one of -g and -p allowed\n"
                               "tool: use of timezone from metric source requires a source\n");

    o = run(0, &r, "-s", "-1", "-t", "1 x", NULL);
    assert_int_equal(o->errors, 2);
    assert_string_equal(r.err, "tool: -s requires a positive numeric argument\n"
                               "tool: -t argument not in pmParseInterval(3) format:\n"
                               "1 x\n  ^ -- unexpected value\n\n");

    o = run(PM_OPTFLAG_DONE, &r, "-Q", NULL); /* DONE: no end-of-options work */
    assert_int_equal(o->errors, 1);
    assert_int_equal(o->version, 0);
    assert_int_equal(o->flags & PM_OPTFLAG_USAGE_ERR, 0);
}

static void environment(void **state)
{
    result r;
    pmOptions *o;

    (void)state;
    setenv("PCP_HOST", "envhost", 1);
    setenv("PCP_SAMPLES", "7", 1);
    setenv("PCP_INTERVAL", "2sec", 1);
    o = run(0, &r, NULL);
    assert_int_equal(o->nhosts, 1);
    assert_string_equal(o->hosts[0], "envhost");
    assert_int_equal(o->samples, 7);
    assert_int_equal(o->interval.tv_sec, 2);

    /* the command line comes second: a second host is one too many */
    o = run(0, &r, "-h", "arg", NULL);
    assert_string_equal(r.err, "tool: too many hosts requested: arg\n");

    /* ENV_ONLY: argv is not looked at */
    o = run(PM_OPTFLAG_ENV_ONLY, &r, "-h", "arg", "-s", "1", NULL);
    assert_int_equal(o->optind, 0);
    assert_int_equal(o->samples, 7);
    assert_int_equal(o->nhosts, 1);
    assert_true(o->flags & PM_OPTFLAG_DONE);
    unsetenv("PCP_HOST");
    unsetenv("PCP_SAMPLES");
    unsetenv("PCP_INTERVAL");

    setenv("PCP_LOCALMODE", "", 1);
    o = run(0, &r, NULL);
    assert_int_equal(o->Lflag, 1);
    assert_int_equal(o->context, PM_CONTEXT_LOCAL);
    unsetenv("PCP_LOCALMODE");
}

static void override_and_others(void **state)
{
    result r;
    pmOptions *o;

    (void)state;
    o = run(0, &r, "-V", NULL);
    assert_true(o->flags & PM_OPTFLAG_EXIT);
    assert_string_equal(r.err, "tool version 6.0.3\n");

    /* --derived loads at once; a failure is a usage error (Debian's libpcp) */
    o = run(0, &r, "--derived", "/nonexistent/file", "--container", "box", "-?", NULL);
    assert_int_equal(o->errors, 2);
    assert_false(o->flags & PM_OPTFLAG_RUNTIME_ERR);
    assert_string_equal(r.err, "tool: pmLoadDerivedConfig failed: No such file or directory\n");
    assert_string_equal(getenv("PCP_CONTAINER"), "box");
    unsetenv("PCP_CONTAINER");

    /* a claimed option comes back to the caller, with its argument */
    new_room();
    room->o.short_options = "h:s:";
    room->o.long_options = longopts;
    room->o.override = claim_h;
    {
        char *argv[] = {"tool", "-h", "x", "-s", "3", NULL};

        assert_int_equal(pmGetOptions(5, argv, &room->o), 'h');
        assert_string_equal(room->o.optarg, "x");
        assert_int_equal(pmGetOptions(5, argv, &room->o), -1);
        assert_int_equal(room->o.nhosts, 0);
        assert_int_equal(room->o.samples, 3);
    }
}

/* A version 3 pmOptions gets a timespec interval and keeps version 3. */
static void version_3(void **state)
{
    char *argv[] = {"tool", "-t", "1.25", NULL};
    struct timespec ts;

    (void)state;
    new_room();
    room->o.version = PMAPI_VERSION_3;
    room->o.short_options = "t:";
    room->o.long_options = longopts;
    assert_int_equal(pmGetOptions(3, argv, &room->o), -1);
    assert_int_equal(room->o.version, PMAPI_VERSION_3);
    memcpy(&ts, room->v3 + sizeof(pmOptions) + 3 * sizeof(ts), sizeof(ts));
    assert_int_equal(ts.tv_sec, 1);
    assert_int_equal(ts.tv_nsec, 250000000);
    assert_int_equal(room->o.interval.tv_sec, 0); /* "unused" in version 3 */
}

/* The environment's options are all found before any is handled: here
 * PCP_NAMESPACE's load reads pcp.conf for the first time, which exports
 * its variables and so moves a heap-allocated environ (setenv made it so).
 * Runs first, before anything else reads pcp.conf. */
static void environment_moves(void **state)
{
    result r;
    pmOptions *o;

    (void)state;
    write_file("pmns", "root {\n    a 1:0:0\n}\n");
    setenv("PCP_NAMESPACE", path_of("pmns"), 1);
    setenv("PCP_HOST", "envhost", 1);
    o = run(0, &r, NULL);
    assert_string_equal(r.err, "");
    assert_int_equal(o->nsflag, 1);
    assert_int_equal(o->nhosts, 1);
    assert_string_equal(o->hosts[0], "envhost");
    unsetenv("PCP_NAMESPACE");
    unsetenv("PCP_HOST");
}

/* A tool whose tables give a standard option no argument: an error, where
 * PCP crashes (docs/compat.md). */
static void standard_option_without_argument(void **state)
{
    char *argv[] = {"tool", "-s", "-h", NULL};
    FILE *f;
    char text[256] = "";

    (void)state;
    new_room();
    room->o.short_options = "sh";
    room->o.long_options = longopts;
    assert_int_equal(pmGetOptions(3, argv, &room->o), -1);
    assert_int_equal(room->o.errors, 2);
    assert_int_equal(room->o.nhosts, 0);
    unlink(errfile);
    pmflush();
    assert_non_null(f = fopen(errfile, "r"));
    assert_int_equal(fread(text, 1, sizeof(text) - 1, f) > 0, 1);
    fclose(f);
    assert_string_equal(text, "tool: -s needs an argument, and the tool's options give it none\n"
                              "tool: -h needs an argument, and the tool's options give it none\n");
}

/* pmGetContextOptions on a local context: the zone, and a live window
 * from now to an interval's end or a date. */
static void context_options(void **state)
{
    struct timeval before, after;
    result r;
    pmOptions *o;
    char *tz;

    (void)state;
    assert_null(pmSpecLocalPMDA("clear"));
    assert_true(pmNewContext(PM_CONTEXT_LOCAL, NULL) >= 0);

    o = run(0, &r, "-Z", "Asia/Tokyo", NULL);
    assert_int_equal(pmGetContextOptions(0, o), 0);
    assert_true(pmWhichZone(&tz) >= 0);
    assert_string_equal(tz, "Asia/Tokyo");
    assert_int_equal(o->start.tv_sec, 0); /* no window asked for */

    o = run(0, &r, "-T", "+1min 30", NULL);
    pmtimevalNow(&before);
    assert_int_equal(pmGetContextOptions(0, o), 0);
    pmtimevalNow(&after);
    assert_true(pmtimevalSub(&o->start, &before) >= 0 && pmtimevalSub(&after, &o->start) >= 0);
    assert_true(pmtimevalSub(&o->finish, &o->start) == 90);
    assert_true(pmtimevalSub(&o->origin, &o->start) == 0);

    o = run(PM_OPTFLAG_BOUNDARIES, &r, NULL);
    assert_int_equal(pmGetContextOptions(0, o), 0);
    assert_true(o->finish.tv_sec == (time_t)INT64_MAX);

    o = run(0, &r, "-T", "+9223372036854774784", NULL); /* past the end: the end */
    assert_int_equal(pmGetContextOptions(0, o), 0);
    assert_true(o->finish.tv_sec == (time_t)INT64_MAX);

    o = run(0, &r, "-T", "-10", NULL);
    assert_int_equal(pmGetContextOptions(0, o), PM_ERR_GENERIC);
    assert_true(o->flags & PM_OPTFLAG_RUNTIME_ERR);
    pmflush();
    /* a date: where it is in the reporting zone, here Asia/Tokyo's (from
     * -Z above), however far before or after now */
    o = run(0, &r, "-T", "@Jan 1 09:00:01 2001", NULL);
    assert_int_equal(pmGetContextOptions(0, o), 0);
    assert_int_equal(o->finish.tv_sec, 978307201);
    assert_int_equal(o->finish.tv_usec, 0);
    /* counted back from the clock: PCP's, not pmkit's (docs/compat.md) */
    o = run(0, &r, "-T", "-1min", NULL);
    assert_int_equal(pmGetContextOptions(0, o), PM_ERR_GENERIC);
    assert_int_equal(o->errors, 1);

    o = run(0, &r, "-S", "@10:00", "-a", "arch", NULL);
    assert_int_equal(pmGetContextOptions(0, o), PM_ERR_GENERIC);
    unlink(errfile);
    pmflush();
    {
        FILE *f = fopen(errfile, "r");
        char line[256] = "";

        assert_non_null(f);
        assert_non_null(fgets(line, sizeof(line), f));
        fclose(f);
        assert_string_equal(line, "tool: Cannot get archive arch label record: Operation "
                                  "requires context with archive source of metrics\n");
    }
}

static int setup(void **state)
{
    (void)state;
    unset_pcp_environ(); /* pmGetOptions would read the caller's */
    if (mkdtemp(dir) == NULL)
        return -1;
    snprintf(errfile, sizeof(errfile), "%s/stderr", dir);
    setenv("PCP_STDERR", errfile, 1);
    return 0;
}

static int teardown(void **state)
{
    char cmd[sizeof(dir) + 16];

    (void)state;
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(environment_moves),
        cmocka_unit_test(plain_options),
        cmocka_unit_test(hosts_and_archives),
        cmocka_unit_test(files_of_hosts_and_archives),
        cmocka_unit_test(end_of_options_checks),
        cmocka_unit_test(environment),
        cmocka_unit_test(override_and_others),
        cmocka_unit_test(version_3),
        cmocka_unit_test(standard_option_without_argument),
        cmocka_unit_test(context_options),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
