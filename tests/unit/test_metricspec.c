/*
 * Unit tests for pmParseMetricSpec / pmFreeMetricSpec (libpcp/cmdline/metricspec.c)
 * and pmGetAPIConfig (libpcp/support/apiconfig.c).
 *
 * Expected values are Debian's libpcp 6.0.3 answers (tests/oracle runs
 * thousands more through probe_metricspec.c), except the inputs PCP
 * crashes on and pmGetAPIConfig's values, which are pmkit's own
 * (docs/compat.md).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <pcp/pmapi.h>

static char dflt[] = "dflt";

/* SPEC parsed with isarch 0 and the default source; must succeed. */
static pmMetricSpec *parse_ok(const char *spec)
{
    pmMetricSpec *r = NULL;
    char *msg = (char *)"unset";

    assert_int_equal(pmParseMetricSpec(spec, 0, dflt, &r, &msg), 0);
    assert_string_equal(msg, "unset"); /* untouched on success */
    assert_non_null(r);
    return r;
}

static void host_metric_instances(void **state)
{
    pmMetricSpec *r = parse_ok("  host.example.com : kernel.all.load [ 1 , \"5 minute\",15 ] ");

    (void)state;
    assert_int_equal(r->isarch, 0);
    assert_string_equal(r->source, "host.example.com");
    assert_string_equal(r->metric, "kernel.all.load");
    assert_int_equal(r->ninst, 3);
    assert_string_equal(r->inst[0], "1");
    assert_string_equal(r->inst[1], "5 minute");
    assert_string_equal(r->inst[2], "15");
    pmFreeMetricSpec(r);
}

static void sources(void **state)
{
    pmMetricSpec *r;

    (void)state;
    r = parse_ok("m");
    assert_ptr_equal(r->source, dflt); /* the caller's pointer, not a copy */
    assert_int_equal(r->isarch, 0);
    pmFreeMetricSpec(r);
    r = parse_ok("h:/var/log/a/m"); /* the last ':' or '/' decides */
    assert_int_equal(r->isarch, 1);
    assert_string_equal(r->source, "h:/var/log/a");
    pmFreeMetricSpec(r);
    r = parse_ok("h/m:x");
    assert_int_equal(r->isarch, 0);
    assert_string_equal(r->source, "h/m");
    pmFreeMetricSpec(r);
    r = parse_ok("@ :m");
    assert_int_equal(r->isarch, 2);
    pmFreeMetricSpec(r);
    r = parse_ok("\\@:m"); /* "@" only when written so */
    assert_int_equal(r->isarch, 0);
    assert_string_equal(r->source, "@");
    pmFreeMetricSpec(r);
}

static void instance_quirks(void **state)
{
    static const struct {
        const char *spec;
        int ninst;
        const char *inst[3];
    } cases[] = {
        {"m[]", 0, {NULL}},           {"m[,]", 1, {""}},
        {"m[,a]", 2, {"", "a"}},      {"m[a,,b]", 2, {"a", "b"}},
        {"m[a\\,b]", 1, {"a,b"}},     {"m[\"a\\\"b\"]", 1, {"a\"b"}},
        {"m[a\"b\"]", 1, {"a\"b\""}}, {"m[\"a\"b]", 2, {"a", "b"}},
        {"m[[a]", 1, {"[a"}},         {"m[a b\tc]", 3, {"a", "b", "c"}},
    };
    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        pmMetricSpec *r = parse_ok(cases[i].spec);

        assert_string_equal(r->metric, "m");
        assert_int_equal(r->ninst, cases[i].ninst);
        for (int j = 0; j < cases[i].ninst; j++)
            assert_string_equal(r->inst[j], cases[i].inst[j]);
        pmFreeMetricSpec(r);
    }
}

static void errors(void **state)
{
    static const struct {
        const char *spec, *msg;
    } cases[] = {
        {"", "\n^ -- performance metric name expected\n"},
        {":m", ":m\n^ -- host name expected\n"},
        {" /m", " /m\n ^ -- archive name expected\n"},
        {"\tm]", "\tm]\n\t ^ -- unexpected character in metric name\n"},
        {"m[a", "m[a\n   ^ -- closing ] expected\n"},
        {"m[\"a", "m[\"a\n    ^ -- closing \" and ] expected\n"},
        {"m[a]x", "m[a]x\n    ^ -- unexpected extra characters\n"},
        {"m[a\"b \"c]",
         "m[a\"b \"c]\n        ^ -- closing \" expected (pmParseMetricSpec botch?)\n"},
    };
    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        pmMetricSpec *r = (pmMetricSpec *)dflt; /* untouched on failure */
        char *msg = NULL;

        assert_int_equal(pmParseMetricSpec(cases[i].spec, 0, dflt, &r, &msg), PM_ERR_GENERIC);
        assert_ptr_equal(r, dflt);
        assert_string_equal(msg, cases[i].msg);
        free(msg);
        assert_int_equal(pmParseMetricSpec(cases[i].spec, 0, dflt, &r, NULL), PM_ERR_GENERIC);
    }
}

/* One free releases everything: the strings live in the result's block. */
static void one_block(void **state)
{
    pmMetricSpec *r = parse_ok("host:metric[a,b,c]");
    const char *lo = (const char *)r, *hi = lo + 4096;

    (void)state;
    assert_true(r->source > lo && r->source < hi);
    assert_true(r->metric > lo && r->metric < hi);
    for (int i = 0; i < r->ninst; i++)
        assert_true(r->inst[i] > lo && r->inst[i] < hi);
    free(r);
}

/* pmkit's difference: PCP crashes on a NULL string or result pointer. */
static void null_arguments(void **state)
{
    pmMetricSpec *r = NULL;
    char *msg = NULL;

    (void)state;
    assert_int_equal(pmParseMetricSpec(NULL, 0, dflt, &r, &msg), -EINVAL);
    assert_non_null(msg);
    free(msg);
    assert_int_equal(pmParseMetricSpec("m", 0, dflt, NULL, NULL), -EINVAL);
    pmFreeMetricSpec(NULL);
}

/* pmGetAPIConfig: PCP's names, any case; pmkit's values. */
static void api_config(void **state)
{
    (void)state;
    assert_string_equal(pmGetAPIConfig("pcp_version"), "6.0.3");
    assert_string_equal(pmGetAPIConfig("PMAPI_VERSION"), "3");
    assert_string_equal(pmGetAPIConfig("Multi_Threaded"), "true");
    assert_string_equal(pmGetAPIConfig("secure_sockets"), "false");
    assert_string_equal(pmGetAPIConfig("archive_features"), "");
    assert_ptr_equal(pmGetAPIConfig("ipv6"), pmGetAPIConfig("IPV6"));
    assert_string_equal(pmGetAPIConfig("ipv6"), "true"); /* host contexts */
    assert_string_equal(pmGetAPIConfig("unix_domain_sockets"), "true");
    /* archives: as Debian's (pmconfig -L compress_suffixes) */
    assert_string_equal(pmGetAPIConfig("lzma_decompress"), "true");
    assert_string_equal(pmGetAPIConfig("v3_archives"), "true");
    assert_string_equal(pmGetAPIConfig("multi_archive_contexts"), "true");
    assert_string_equal(pmGetAPIConfig("compress_suffixes"), ".xz .lzma .bz2 .bz .gz .Z .z");
    assert_null(pmGetAPIConfig("openssl_version"));
    assert_null(pmGetAPIConfig("multi_threaded "));
    assert_null(pmGetAPIConfig(""));
    assert_null(pmGetAPIConfig(NULL));
    assert_null(getenv("multi_threaded"));
    /* pmGetConfig and pmGetOptionalConfig answer the same for a set name */
    setenv("PMKIT_UT_APICONFIG", "v", 1);
    assert_string_equal(pmGetConfig("PMKIT_UT_APICONFIG"),
                        pmGetOptionalConfig("PMKIT_UT_APICONFIG"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(host_metric_instances),
        cmocka_unit_test(sources),
        cmocka_unit_test(instance_quirks),
        cmocka_unit_test(errors),
        cmocka_unit_test(one_block),
        cmocka_unit_test(null_arguments),
        cmocka_unit_test(api_config),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
