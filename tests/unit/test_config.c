/*
 * Unit tests for pmGetConfig / pmGetOptionalConfig.
 *
 * libpcp reads the configuration file only once per process, so the group
 * setup writes a temporary pcp.conf and points $PCP_CONF at it before any
 * test calls into the library.  Behaviours that need a fresh process (a
 * missing file is fatal, the $PCP_DIR fallback) re-execute this binary
 * via /proc/self/exe with a "child" mode argument.
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
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <cmocka.h>

#include <pcp/pmapi.h>

static char tmpdir[256];
static char confpath[300];
static char altconf[300];     /* second conf for PCP_CONF-vs-PCP_DIR */
static char dirconf_dir[300]; /* $PCP_DIR with etc/pcp.conf */
static char dirconf_etc[300];
static char dirconf[300];

static const char conf_text[] = "# pcp.conf written by test_config\n"
                                "PMKIT_UT_PLAIN=/plain/value\n"
                                "PMKIT_UT_DQUOTE=\"double quoted\"\n"
                                "PMKIT_UT_SQUOTE='single quoted'\n"
                                "PMKIT_UT_PRESET=fromfile\n"
                                "#PMKIT_UT_COMMENTED=nope\n"
                                "PMKIT_UT_EMPTY=\n"
                                "PMKIT_UT_SPACES=a b c\n"
                                "PMKIT_UT_EQUALS=a=b\n"
                                "PMKIT_UT_HASH=b#c\n"
                                "PMKIT_UT_HALFQUOTE=\"abc\n"
                                "PMKIT_UT_DUP=first\n"
                                "PMKIT_UT_DUP=second\n"
                                "PMKIT_UT_NOEXPAND=$PMKIT_UT_PLAIN\n"
                                "PMKIT_UT_NOEQUALS\n";

static const char *const test_vars[] = {
    "PMKIT_UT_PLAIN",     "PMKIT_UT_DQUOTE",      "PMKIT_UT_SQUOTE",   "PMKIT_UT_COMMENTED",
    "PMKIT_UT_EMPTY",     "PMKIT_UT_SPACES",      "PMKIT_UT_EQUALS",   "PMKIT_UT_HASH",
    "PMKIT_UT_HALFQUOTE", "PMKIT_UT_DUP",         "PMKIT_UT_NOEXPAND", "PMKIT_UT_NOEQUALS",
    "PMKIT_UT_LATE",      "PMKIT_UT_ADDED_LATER", "PMKIT_UT_UNKNOWN",  "PMKIT_UT_FROMDIR",
    "PMKIT_UT_FROMCONF",
};

static int write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return -1;
    fputs(text, f);
    return fclose(f);
}

static int group_setup(void **state)
{
    const char *base = getenv("TMPDIR");
    (void)state;
    if (base == NULL || *base == '\0')
        base = "/tmp";
    snprintf(tmpdir, sizeof(tmpdir), "%s/pmkit-unit-config-XXXXXX", base);
    if (mkdtemp(tmpdir) == NULL)
        return -1;
    snprintf(confpath, sizeof(confpath), "%s/pcp.conf", tmpdir);
    snprintf(altconf, sizeof(altconf), "%s/alt.conf", tmpdir);
    snprintf(dirconf_dir, sizeof(dirconf_dir), "%s/pcpdir", tmpdir);
    snprintf(dirconf_etc, sizeof(dirconf_etc), "%s/pcpdir/etc", tmpdir);
    snprintf(dirconf, sizeof(dirconf), "%s/pcpdir/etc/pcp.conf", tmpdir);
    if (write_file(confpath, conf_text) != 0)
        return -1;
    if (write_file(altconf, "PMKIT_UT_FROMCONF=yes\n") != 0)
        return -1;
    if (mkdir(dirconf_dir, 0700) != 0 || mkdir(dirconf_etc, 0700) != 0)
        return -1;
    if (write_file(dirconf, "PMKIT_UT_FROMDIR=yes\n") != 0)
        return -1;

    for (size_t i = 0; i < sizeof(test_vars) / sizeof(test_vars[0]); i++)
        unsetenv(test_vars[i]);
    /* already in the environment: the file must not override it */
    setenv("PMKIT_UT_PRESET", "fromenv", 1);
    setenv("PCP_CONF", confpath, 1);
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    unlink(dirconf);
    rmdir(dirconf_etc);
    rmdir(dirconf_dir);
    unlink(altconf);
    unlink(confpath);
    rmdir(tmpdir);
    return 0;
}

/* ---- values from the file ---- */

static void plain_value_is_returned(void **state)
{
    (void)state;
    assert_string_equal(pmGetConfig("PMKIT_UT_PLAIN"), "/plain/value");
    assert_string_equal(pmGetOptionalConfig("PMKIT_UT_PLAIN"), "/plain/value");
}

static void values_are_exported_to_environment(void **state)
{
    (void)state;
    (void)pmGetConfig("PMKIT_UT_PLAIN");
    assert_non_null(getenv("PMKIT_UT_PLAIN"));
    assert_string_equal(getenv("PMKIT_UT_PLAIN"), "/plain/value");
    assert_non_null(getenv("PMKIT_UT_SPACES"));
}

static void result_is_the_environment_string(void **state)
{
    (void)state;
    assert_ptr_equal(pmGetConfig("PMKIT_UT_PLAIN"), getenv("PMKIT_UT_PLAIN"));
}

static void double_quotes_are_stripped(void **state)
{
    (void)state;
    assert_string_equal(pmGetConfig("PMKIT_UT_DQUOTE"), "double quoted");
}

static void single_quotes_are_stripped(void **state)
{
    (void)state;
    assert_string_equal(pmGetConfig("PMKIT_UT_SQUOTE"), "single quoted");
}

static void unbalanced_quote_is_kept(void **state)
{
    (void)state;
    assert_string_equal(pmGetConfig("PMKIT_UT_HALFQUOTE"), "\"abc");
}

static void environment_wins_over_file(void **state)
{
    (void)state;
    assert_string_equal(pmGetConfig("PMKIT_UT_PRESET"), "fromenv");
    assert_string_equal(getenv("PMKIT_UT_PRESET"), "fromenv");
}

static void comment_lines_are_skipped(void **state)
{
    (void)state;
    assert_string_equal(pmGetConfig("PMKIT_UT_COMMENTED"), "");
    assert_null(pmGetOptionalConfig("PMKIT_UT_COMMENTED"));
    assert_null(getenv("PMKIT_UT_COMMENTED"));
}

static void empty_value_is_set_but_empty(void **state)
{
    (void)state;
    assert_string_equal(pmGetConfig("PMKIT_UT_EMPTY"), "");
    assert_non_null(pmGetOptionalConfig("PMKIT_UT_EMPTY"));
    assert_string_equal(pmGetOptionalConfig("PMKIT_UT_EMPTY"), "");
}

static void value_text_is_kept_verbatim(void **state)
{
    (void)state;
    assert_string_equal(pmGetConfig("PMKIT_UT_SPACES"), "a b c");
    assert_string_equal(pmGetConfig("PMKIT_UT_EQUALS"), "a=b");
    assert_string_equal(pmGetConfig("PMKIT_UT_HASH"), "b#c");
}

static void variables_are_not_expanded(void **state)
{
    (void)state;
    assert_string_equal(pmGetConfig("PMKIT_UT_NOEXPAND"), "$PMKIT_UT_PLAIN");
}

static void first_duplicate_wins(void **state)
{
    (void)state;
    assert_string_equal(pmGetConfig("PMKIT_UT_DUP"), "first");
}

static void line_without_equals_is_ignored(void **state)
{
    (void)state;
    assert_string_equal(pmGetConfig("PMKIT_UT_NOEQUALS"), "");
    assert_null(pmGetOptionalConfig("PMKIT_UT_NOEQUALS"));
}

/* ---- unknown names ---- */

static void unknown_name_gives_empty_string(void **state)
{
    const char *v;
    (void)state;
    v = pmGetConfig("PMKIT_UT_UNKNOWN");
    assert_non_null(v);
    assert_string_equal(v, "");
}

static void unknown_name_gives_null_from_optional(void **state)
{
    (void)state;
    assert_null(pmGetOptionalConfig("PMKIT_UT_UNKNOWN"));
}

/* ---- environment after loading ---- */

static void later_environment_changes_are_visible(void **state)
{
    (void)state;
    (void)pmGetConfig("PMKIT_UT_PLAIN"); /* make sure the file is loaded */
    setenv("PMKIT_UT_LATE", "late", 1);
    assert_string_equal(pmGetConfig("PMKIT_UT_LATE"), "late");
    assert_string_equal(pmGetOptionalConfig("PMKIT_UT_LATE"), "late");
    unsetenv("PMKIT_UT_LATE");
}

static void file_is_read_only_once(void **state)
{
    (void)state;
    (void)pmGetConfig("PMKIT_UT_PLAIN"); /* make sure the file is loaded */
    assert_int_equal(write_file(confpath, "PMKIT_UT_ADDED_LATER=yes\n"), 0);
    assert_string_equal(pmGetConfig("PMKIT_UT_ADDED_LATER"), "");
    assert_null(pmGetOptionalConfig("PMKIT_UT_ADDED_LATER"));
    assert_int_equal(write_file(confpath, conf_text), 0);
}

/* ---- fresh-process behaviours ---- */

struct child_result {
    int exited;
    int status;
    char err[1024];
};

static void run_child(const char *mode, const char *a1, const char *a2, struct child_result *res)
{
    int fds[2];
    pid_t pid;
    size_t used = 0;
    ssize_t n;
    int wstatus;

    memset(res, 0, sizeof(*res));
    assert_int_equal(pipe(fds), 0);
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        const char *asan = getenv("ASAN_OPTIONS");
        char opts[512];
        /* the fatal path exits from inside the library: not a leak test */
        snprintf(opts, sizeof(opts), "%s%sdetect_leaks=0", asan ? asan : "",
                 asan && *asan ? ":" : "");
        setenv("ASAN_OPTIONS", opts, 1);
        close(fds[0]);
        dup2(fds[1], STDERR_FILENO);
        dup2(fds[1], STDOUT_FILENO);
        close(fds[1]);
        execl("/proc/self/exe", "unit_config", "--child", mode, a1 ? a1 : "", a2 ? a2 : "",
              (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    while (used < sizeof(res->err) - 1 &&
           (n = read(fds[0], res->err + used, sizeof(res->err) - 1 - used)) > 0)
        used += (size_t)n;
    res->err[used] = '\0';
    close(fds[0]);
    assert_int_equal(waitpid(pid, &wstatus, 0), pid);
    res->exited = WIFEXITED(wstatus);
    res->status = res->exited ? WEXITSTATUS(wstatus) : -1;
}

static void missing_file_is_fatal_for_pmgetconfig(void **state)
{
    struct child_result res;
    char path[400], prefix[512];
    (void)state;
    snprintf(path, sizeof(path), "%s/does-not-exist.conf", tmpdir);
    run_child("fatal", path, NULL, &res);
    assert_true(res.exited);
    assert_int_equal(res.status, 1);
    snprintf(prefix, sizeof(prefix), "FATAL PCP ERROR: could not open config file \"%s\"", path);
    if (strncmp(res.err, prefix, strlen(prefix)) != 0)
        fail_msg("stderr was [%s]", res.err);
}

static void missing_file_is_not_fatal_for_optional(void **state)
{
    struct child_result res;
    char path[400];
    (void)state;
    snprintf(path, sizeof(path), "%s/does-not-exist.conf", tmpdir);
    run_child("optional-missing", path, NULL, &res);
    assert_true(res.exited);
    if (res.status != 0)
        fail_msg("child status %d, output [%s]", res.status, res.err);
}

static void pcp_dir_etc_pcp_conf_is_used_without_pcp_conf(void **state)
{
    struct child_result res;
    (void)state;
    run_child("pcp-dir", dirconf_dir, NULL, &res);
    assert_true(res.exited);
    if (res.status != 0)
        fail_msg("child status %d, output [%s]", res.status, res.err);
}

static void pcp_conf_takes_precedence_over_pcp_dir(void **state)
{
    struct child_result res;
    (void)state;
    run_child("conf-over-dir", altconf, dirconf_dir, &res);
    assert_true(res.exited);
    if (res.status != 0)
        fail_msg("child status %d, output [%s]", res.status, res.err);
}

/* Child modes: exit 0 on the expected behaviour, 2.. on a mismatch. */
static int child_main(const char *mode, const char *a1, const char *a2)
{
    const char *v;

    if (strcmp(mode, "fatal") == 0) {
        setenv("PCP_CONF", a1, 1);
        (void)pmGetConfig("PMKIT_UT_PLAIN");
        return 2; /* should have exited with status 1 */
    }
    if (strcmp(mode, "optional-missing") == 0) {
        setenv("PCP_CONF", a1, 1);
        setenv("PMKIT_UT_CHILD", "x", 1);
        unsetenv("PMKIT_UT_NOPE");
        v = pmGetOptionalConfig("PMKIT_UT_CHILD");
        if (v == NULL || strcmp(v, "x") != 0)
            return 2;
        if (pmGetOptionalConfig("PMKIT_UT_NOPE") != NULL)
            return 3;
        return 0;
    }
    if (strcmp(mode, "pcp-dir") == 0) {
        unsetenv("PCP_CONF");
        unsetenv("PMKIT_UT_FROMDIR");
        setenv("PCP_DIR", a1, 1);
        v = pmGetConfig("PMKIT_UT_FROMDIR");
        if (v == NULL || strcmp(v, "yes") != 0)
            return 2;
        return 0;
    }
    if (strcmp(mode, "conf-over-dir") == 0) {
        unsetenv("PMKIT_UT_FROMDIR");
        unsetenv("PMKIT_UT_FROMCONF");
        setenv("PCP_CONF", a1, 1);
        setenv("PCP_DIR", a2, 1);
        v = pmGetConfig("PMKIT_UT_FROMCONF");
        if (v == NULL || strcmp(v, "yes") != 0)
            return 2;
        if (pmGetOptionalConfig("PMKIT_UT_FROMDIR") != NULL)
            return 3;
        return 0;
    }
    return 126;
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plain_value_is_returned),
        cmocka_unit_test(values_are_exported_to_environment),
        cmocka_unit_test(result_is_the_environment_string),
        cmocka_unit_test(double_quotes_are_stripped),
        cmocka_unit_test(single_quotes_are_stripped),
        cmocka_unit_test(unbalanced_quote_is_kept),
        cmocka_unit_test(environment_wins_over_file),
        cmocka_unit_test(comment_lines_are_skipped),
        cmocka_unit_test(empty_value_is_set_but_empty),
        cmocka_unit_test(value_text_is_kept_verbatim),
        cmocka_unit_test(variables_are_not_expanded),
        cmocka_unit_test(first_duplicate_wins),
        cmocka_unit_test(line_without_equals_is_ignored),
        cmocka_unit_test(unknown_name_gives_empty_string),
        cmocka_unit_test(unknown_name_gives_null_from_optional),
        cmocka_unit_test(later_environment_changes_are_visible),
        cmocka_unit_test(file_is_read_only_once),
        cmocka_unit_test(missing_file_is_fatal_for_pmgetconfig),
        cmocka_unit_test(missing_file_is_not_fatal_for_optional),
        cmocka_unit_test(pcp_dir_etc_pcp_conf_is_used_without_pcp_conf),
        cmocka_unit_test(pcp_conf_takes_precedence_over_pcp_dir),
    };

    if (argc >= 5 && strcmp(argv[1], "--child") == 0)
        return child_main(argv[2], argv[3], argv[4]);
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
