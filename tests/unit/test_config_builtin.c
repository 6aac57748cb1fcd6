/*
 * Unit tests for pmkit's pcp.conf fallback (docs/compat.md): when no file is
 * named by $PCP_CONF or $PCP_DIR and the default pcp.conf does not exist,
 * pmGetConfig answers from built-in defaults instead of exiting.  This binary
 * compiles config.c with PMKIT_PCP_CONF pointing at a path that never exists.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <cmocka.h>

#include <pcp/pmapi.h>

static int setup(void **state)
{
    (void)state;
    unsetenv("PCP_CONF");
    unsetenv("PCP_DIR");
    unsetenv("PCP_VAR_DIR");
    unsetenv("PCP_PMDAS_DIR");
    setenv("PCP_LOG_DIR", "/from/environment", 1);
    return 0;
}

static void defaults_are_debian_layout(void **state)
{
    (void)state;
    assert_string_equal(pmGetConfig("PCP_VAR_DIR"), "/var/lib/pcp");
    assert_string_equal(pmGetConfig("PCP_PMDAS_DIR"), "/var/lib/pcp/pmdas");
    assert_string_equal(pmGetConfig("PCP_BINADM_DIR"), "/usr/lib/pcp/bin");
    assert_string_equal(pmGetConfig("PCP_PMCDCONF_PATH"), "/etc/pcp/pmcd/pmcd.conf");
}

static void defaults_are_exported(void **state)
{
    (void)state;
    assert_non_null(pmGetConfig("PCP_VAR_DIR"));
    assert_string_equal(getenv("PCP_VAR_DIR"), "/var/lib/pcp");
}

static void environment_still_wins(void **state)
{
    (void)state;
    assert_string_equal(pmGetConfig("PCP_LOG_DIR"), "/from/environment");
}

static void unknown_names_still_empty_or_null(void **state)
{
    (void)state;
    assert_string_equal(pmGetConfig("PMKIT_NO_SUCH_SETTING"), "");
    assert_null(pmGetOptionalConfig("PMKIT_NO_SUCH_SETTING"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(defaults_are_debian_layout),
        cmocka_unit_test(defaults_are_exported),
        cmocka_unit_test(environment_still_wins),
        cmocka_unit_test(unknown_names_still_empty_or_null),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
