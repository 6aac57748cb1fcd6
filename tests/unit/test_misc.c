/*
 * Unit tests for small utilities: pmsprintf, pmPathSeparator,
 * pmSetProgname / pmGetProgname.
 *
 * NOTE: the progname tests rely on cmocka running tests in array order:
 * the default-value test must run before anything calls pmSetProgname.
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
#include <wchar.h>
#include <cmocka.h>

#include <pcp/pmapi.h>

/* ---- pmsprintf ---- */

static void sprintf_formats_like_snprintf(void **state)
{
    char buf[32];
    (void)state;
    memset(buf, 'X', sizeof(buf));
    assert_int_equal(pmsprintf(buf, sizeof(buf), "%s-%d", "ab", 12), 5);
    assert_string_equal(buf, "ab-12");
}

static void sprintf_exact_fit_returns_length(void **state)
{
    char buf[32];
    (void)state;
    memset(buf, 'X', sizeof(buf));
    assert_int_equal(pmsprintf(buf, 6, "%s", "abcde"), 5);
    assert_string_equal(buf, "abcde");
}

static void sprintf_truncation_returns_size_minus_one(void **state)
{
    char buf[32];
    (void)state;
    memset(buf, 'X', sizeof(buf));
    assert_int_equal(pmsprintf(buf, 5, "%s", "abcdefgh"), 4);
    assert_string_equal(buf, "abcd");
    assert_int_equal(buf[5], 'X');
}

static void sprintf_size_one_truncates_to_empty_returning_zero(void **state)
{
    char buf[32];
    (void)state;
    memset(buf, 'X', sizeof(buf));
    assert_int_equal(pmsprintf(buf, 1, "%s", "abc"), 0);
    assert_int_equal(buf[0], '\0');
    assert_int_equal(buf[1], 'X');
}

static void sprintf_size_zero_returns_zero_untouched(void **state)
{
    char buf[32];
    (void)state;
    memset(buf, 'X', sizeof(buf));
    assert_int_equal(pmsprintf(buf, 0, "%s", "abc"), 0);
    assert_int_equal(buf[0], 'X');
}

static void sprintf_empty_result_stores_empty_and_returns_one(void **state)
{
    char buf[32];
    (void)state;
    memset(buf, 'X', sizeof(buf));
    assert_int_equal(pmsprintf(buf, sizeof(buf), "%s", ""), 1);
    assert_int_equal(buf[0], '\0');
    assert_int_equal(buf[1], 'X');
}

static void sprintf_empty_format_returns_one(void **state)
{
    char buf[32];
    (void)state;
    memset(buf, 'X', sizeof(buf));
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-zero-length"
    assert_int_equal(pmsprintf(buf, sizeof(buf), ""), 1);
#pragma GCC diagnostic pop
    assert_string_equal(buf, "");
}

static void sprintf_empty_result_in_size_one_buffer_returns_one(void **state)
{
    char buf[32];
    (void)state;
    memset(buf, 'X', sizeof(buf));
    assert_int_equal(pmsprintf(buf, 1, "%s", ""), 1);
    assert_int_equal(buf[0], '\0');
}

static void sprintf_encoding_error_returns_size_minus_one_terminated(void **state)
{
    /* a lone UTF-16 surrogate cannot be converted: vsnprintf returns -1 */
    static const wchar_t bad[] = {0xd800, 0};
    char buf[32];
    (void)state;
    memset(buf, 'X', sizeof(buf));
    assert_int_equal(pmsprintf(buf, sizeof(buf), "%ls", bad), (int)sizeof(buf) - 1);
    assert_int_equal(buf[sizeof(buf) - 1], '\0');
    memset(buf, 'X', sizeof(buf));
    assert_int_equal(pmsprintf(buf, sizeof(buf), "ab%ls", bad), (int)sizeof(buf) - 1);
    assert_int_equal(buf[sizeof(buf) - 1], '\0');
}

/* ---- pmPathSeparator ---- */

static void path_separator_is_slash(void **state)
{
    (void)state;
    assert_int_equal(pmPathSeparator(), '/');
}

/* ---- progname ---- */

static void progname_defaults_to_pcp(void **state)
{
    (void)state;
    assert_string_equal(pmGetProgname(), "pcp");
}

static void progname_plain_name(void **state)
{
    (void)state;
    pmSetProgname("bar");
    assert_string_equal(pmGetProgname(), "bar");
}

static void progname_keeps_basename_only(void **state)
{
    (void)state;
    pmSetProgname("/usr/bin/foo");
    assert_string_equal(pmGetProgname(), "foo");
    pmSetProgname("a/b/c");
    assert_string_equal(pmGetProgname(), "c");
}

static void progname_trailing_slash_gives_empty(void **state)
{
    (void)state;
    pmSetProgname("a/b/");
    assert_string_equal(pmGetProgname(), "");
}

static void progname_empty_string_is_kept(void **state)
{
    (void)state;
    pmSetProgname("");
    assert_string_equal(pmGetProgname(), "");
}

static void progname_null_restores_default(void **state)
{
    (void)state;
    pmSetProgname("something");
    assert_string_equal(pmGetProgname(), "something");
    pmSetProgname(NULL);
    assert_string_equal(pmGetProgname(), "pcp");
}

/* pmfstring: one word at a time, the whitespace after it read too; 0 for a
 * line without one (its newline read), -1 at the end (PCP's, oracle.misc). */
static void fstring_words_and_lines(void **state)
{
    static const char text[] = "  one\ttwo\n  \nthree";
    static const struct {
        ssize_t n;
        const char *word;
        long after;
    } want[] = {{3, "one", 6}, {3, "two", 10}, {0, NULL, 13}, {5, "three", 18}, {-1, NULL, 18}};
    FILE *f = tmpfile();

    (void)state;
    assert_non_null(f);
    fputs(text, f);
    rewind(f);
    for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        char *word = NULL;
        ssize_t n = pmfstring(f, &word);

        assert_int_equal(n, want[i].n);
        assert_int_equal(ftell(f), want[i].after);
        if (want[i].word != NULL)
            assert_string_equal(word, want[i].word);
        else
            assert_null(word);
        free(word);
    }
    fclose(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(progname_defaults_to_pcp), /* must be first */
        cmocka_unit_test(progname_plain_name),
        cmocka_unit_test(progname_keeps_basename_only),
        cmocka_unit_test(progname_trailing_slash_gives_empty),
        cmocka_unit_test(progname_empty_string_is_kept),
        cmocka_unit_test(progname_null_restores_default),
        cmocka_unit_test(sprintf_formats_like_snprintf),
        cmocka_unit_test(sprintf_exact_fit_returns_length),
        cmocka_unit_test(sprintf_truncation_returns_size_minus_one),
        cmocka_unit_test(sprintf_size_one_truncates_to_empty_returning_zero),
        cmocka_unit_test(sprintf_size_zero_returns_zero_untouched),
        cmocka_unit_test(sprintf_empty_result_stores_empty_and_returns_one),
        cmocka_unit_test(sprintf_empty_format_returns_one),
        cmocka_unit_test(sprintf_empty_result_in_size_one_buffer_returns_one),
        cmocka_unit_test(sprintf_encoding_error_returns_size_minus_one_terminated),
        cmocka_unit_test(path_separator_is_slash),
        cmocka_unit_test(fstring_words_and_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
