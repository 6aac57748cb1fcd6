/*
 * Unit tests for the preprocessor's wide byte scans (libpcp/front/
 * cpp_scan.c, cpp_scan.h).  Each answer of the vector path (where this CPU
 * has one) is compared with a plain byte loop, over random sets and
 * buffers and every start offset, so stops in every position of a 16-byte
 * block and across blocks are seen.  That the preprocessor's output is the
 * same with either path is test_cpp.c's fast_paths_agree.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "cpp_scan.h"

/* What cpp_scan.h asks of a buffer: a scan may read this many bytes past
 * the '\n' that stops it, and no more (ASan checks the "no more"). */
#define SCAN_READ_PAST 15

static uint64_t rng = 0x9e3779b97f4a7c15u;

static unsigned rnd(unsigned n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % n);
}

/* len random bytes drawn from pool (npool of them), then '\n' and
 * SCAN_READ_PAST zeroed bytes. */
static char *random_line(size_t len, const unsigned char *pool, size_t npool)
{
    char *b = calloc(1, len + 1 + SCAN_READ_PAST);

    assert_non_null(b);
    for (size_t i = 0; i < len; i++)
        b[i] = (char)pool[rnd((unsigned)npool)];
    b[len] = '\n';
    return b;
}

static const char *naive_set(const cpp_byteset *set, const char *p)
{
    while (!set->in[(unsigned char)*p])
        p++;
    return p;
}

/* A wide set's vector loop agrees with a plain byte loop from every
 * offset of b.  (A set that is not wide gets cpp_scan_set_bytes, which is
 * that byte loop: nothing to compare.) */
static void check_set(const cpp_byteset *set, const char *b, size_t len)
{
    if (!set->wide)
        return;
    for (size_t i = 0; i <= len; i++)
        assert_ptr_equal(cpp_scan_set_as(set, b + i, true), naive_set(set, b + i));
}

static void set_random_sets(void **state)
{
    unsigned char pool[256];
    int wide = 0;

    (void)state;
    for (int c = 0; c < 256; c++)
        pool[c] = (unsigned char)c;
    for (int round = 0; round < 300; round++) {
        cpp_byteset set;
        memset(set.in, 0, sizeof(set.in));
        set.in['\n'] = 1;
        /* sets like the preprocessor's (letters, '/', '_') and arbitrary ones */
        int n = (int)rnd(40);
        for (int k = 0; k < n; k++) {
            int c = round % 2 == 0
                        ? "ABCDEFGHIJKLMNOPQRSTUVWXYZ_/abcdefghijklmnopqrstuvwxyz"[rnd(54)]
                        : (int)rnd(256);
            set.in[c] = 1;
        }
        cpp_byteset_build(&set, false);
        wide += set.wide;
        size_t len = rnd(70);
        char *b = random_line(len, pool, 256);
        check_set(&set, b, len);
        free(b);
    }
#if defined(__x86_64__) && defined(__GNUC__)
    if (__builtin_cpu_supports("ssse3"))
        assert_true(wide >= 100); /* the vector loop was tested, not only the byte loop */
#endif
    print_message("%d of 300 sets scanned 16 bytes at a time\n", wide);
}

/* The preprocessor's own sets always fit the nibble tables. */
static void set_preprocessor_sets_are_wide_capable(void **state)
{
    cpp_byteset hot, wordend, narrow;

    (void)state;
    memset(&hot, 0, sizeof(hot));
    for (int c = 'A'; c <= 'Z'; c++)
        hot.in[c] = hot.in[c + 32] = 1;
    hot.in['_'] = hot.in['\n'] = hot.in['/'] = 1;
    for (int c = 0; c < 256; c++)
        wordend.in[c] = !(c == '_' || (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') ||
                          (c >= 'a' && c <= 'z'));
    cpp_byteset_build(&hot, false);
    cpp_byteset_build(&wordend, false);
    memset(&narrow, 0, sizeof(narrow));
    narrow.in['\n'] = 1;
    cpp_byteset_build(&narrow, false);
#if defined(__x86_64__) && defined(__GNUC__)
    if (__builtin_cpu_supports("ssse3")) {
        assert_true(hot.wide);
        assert_true(wordend.wide);
        assert_true(narrow.wide);
    }
#endif
    /* and answer like the byte loop on text made of the bytes that matter */
    static const unsigned char pool[] = "aZ_/*09 .:\t\x80\xff/";
    for (int round = 0; round < 200; round++) {
        size_t len = rnd(60);
        char *b = random_line(len, pool, sizeof(pool) - 1);
        check_set(&hot, b, len);
        check_set(&wordend, b, len);
        check_set(&narrow, b, len);
        free(b);
    }
}

/* Nine different low-nibble patterns need nine buckets: no wide scan. */
static void set_too_many_buckets_falls_back(void **state)
{
    cpp_byteset set;

    (void)state;
    memset(set.in, 0, sizeof(set.in));
    set.in['\n'] = 1; /* high nibble 0: low nibble 10 */
    for (int h = 1; h <= 8; h++)
        set.in[h << 4 | h] = 1; /* high nibble h: low nibble h, all different */
    cpp_byteset_build(&set, false);
    assert_false(set.wide);
}

static void pair_matches_byte_loop(void **state)
{
    static const unsigned char pool[] = "ab*/ \t*//x";

    (void)state;
    for (int round = 0; round < 300; round++) {
        size_t len = rnd(70);
        char *b = random_line(len, pool, sizeof(pool) - 1);
        for (size_t i = 0; i <= len; i++) {
            const char *p = b + i;
            while (*p != '*' && *p != '\n')
                p++;
            assert_ptr_equal(cpp_scan_pair(b + i, '*', '\n'), p);
            p = b + i;
            while (*p != '/' && *p != '\n')
                p++;
            assert_ptr_equal(cpp_scan_pair(b + i, '/', '\n'), p);
        }
        free(b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(set_random_sets),
        cmocka_unit_test(set_preprocessor_sets_are_wide_capable),
        cmocka_unit_test(set_too_many_buckets_falls_back),
        cmocka_unit_test(pair_matches_byte_loop),
    };
    return cmocka_run_group_tests_name("cpp_scan", tests, NULL, NULL);
}
