/*
 * Unit tests for the preprocessor's wide byte scans (libpcp/front/
 * cpp_scan.c, cpp_scan.h).  Each answer is compared with a plain byte loop, for the
 * vector path (when this CPU has one) and for the byte path forced by
 * clearing wide, over random sets and buffers and every start offset, so
 * stops in every position of a 16-byte block and across blocks are seen.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cpp.h"
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

/* The set's scan agrees with a plain byte loop from every offset of b.
 * That tests the vector loop when the set is wide; otherwise
 * cpp_scan_set is that byte loop, and the callers' point is which loop
 * the set got (set->wide). */
static void check_set(const cpp_byteset *set, const char *b, size_t len)
{
    for (size_t i = 0; i <= len; i++)
        assert_ptr_equal(cpp_scan_set(set, b + i), naive_set(set, b + i));
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
            int c = round % 2 == 0 ? "ABCDEFGHIJKLMNOPQRSTUVWXYZ_/abcdefghijklmnopqrstuvwxyz"[rnd(54)]
                                   : (int)rnd(256);
            set.in[c] = 1;
        }
        cpp_byteset_build(&set);
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
    cpp_byteset_build(&hot);
    cpp_byteset_build(&wordend);
    memset(&narrow, 0, sizeof(narrow));
    narrow.in['\n'] = 1;
    cpp_byteset_build(&narrow);
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

/* Nine different low-nibble patterns need nine buckets: no wide scan,
 * and still the right answers. */
static void set_too_many_buckets_falls_back(void **state)
{
    cpp_byteset set;
    unsigned char pool[256];

    (void)state;
    memset(set.in, 0, sizeof(set.in));
    set.in['\n'] = 1; /* high nibble 0: low nibble 10 */
    for (int h = 1; h <= 8; h++)
        set.in[h << 4 | h] = 1; /* high nibble h: low nibble h, all different */
    cpp_byteset_build(&set);
    assert_false(set.wide);
    for (int c = 0; c < 256; c++)
        pool[c] = (unsigned char)c;
    for (int round = 0; round < 50; round++) {
        size_t len = rnd(50);
        char *b = random_line(len, pool, 256);
        check_set(&set, b, len);
        free(b);
    }
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

/* ---- the preprocessor's two fast paths give the same output ---- */

typedef struct {
    char *data;
    size_t len, cap;
} outbuf;

static int collect(void *ctx, const char *data, size_t len)
{
    outbuf *o = ctx;

    if (o->len + len > o->cap) {
        o->cap = (o->len + len) * 2;
        o->data = realloc(o->data, o->cap);
        assert_non_null(o->data);
    }
    memcpy(o->data + o->len, data, len);
    o->len += len;
    return 0;
}

static void quiet(void *ctx, const diag_msg *d)
{
    (void)ctx;
    (void)d;
}

static outbuf preprocess(const char *text, size_t len, bool bytewise, int shell_style)
{
    cpp_options opt;
    outbuf o = {NULL, 0, 0};

    memset(&opt, 0, sizeof(opt));
    opt.shell_style = shell_style;
    opt.no_external = 1;
    opt.diag = quiet;
    cpp_scan_bytewise = bytewise;
    cpp_run_buffer(&opt, "gen", text, len, &(cpp_sink){collect, &o}, NULL);
    cpp_scan_bytewise = false;
    return o;
}

/* Random lines of words (some of them macros, some mid-word, some in
 * #name form), comments opening and closing anywhere, and conditionals:
 * the output with the SSSE3 scans (where the CPU has them) and with the
 * byte loops must be identical, with '#' and with '%' (-s) as the control
 * character.  Both run the fast path's scans, with different hot sets (no
 * '/' with -s, which strips no comments); restricted mode (-r) has a
 * branch of its own that does not scan. */
static void fast_paths_agree(void **state)
{
    static const char *const words[] = {
        "FOO", "BAR", "BAZ_1", "x", "FOOBAR", "_FOO", "9FOO", "foo.FOO", "#FOO", "#{BAR}",
        "/*", "*/", "/* c */", "root", "{", "}", "1:2:3", "BAR:BAZ_1", "  ", "\t", "//",
        "LONGER_MACRO_NAME_HERE", "'/*'", "a/b",
    };
    size_t cap = 1 << 16;
    char *text = malloc(cap);

    (void)state;
    assert_non_null(text);
    for (int shell_style = 0; shell_style < 2; shell_style++) {
        int c = shell_style ? '%' : '#';
        size_t len = (size_t)snprintf(text, cap,
                                      "%cdefine FOO one\n%cdefine BAR \"two two\"\n"
                                      "%cdefine BAZ_1 3\n%cdefine LONGER_MACRO_NAME_HERE FOO\n",
                                      c, c, c, c);
        for (int line = 0; line < 1500 && len < cap - 512; line++) {
            int n = (int)rnd(12);
            if (rnd(40) == 0) {
                len += (size_t)snprintf(text + len, cap - len, "%c%s\n", c,
                                        rnd(2) ? "ifdef FOO" : "endif");
                continue;
            }
            if (rnd(60) == 0)
                len += (size_t)snprintf(text + len, cap - len, "%cundef BAR\n%cdefine BAR %d\n",
                                        c, c, line);
            for (int i = 0; i < n; i++)
                len += (size_t)snprintf(text + len, cap - len, "%s%s", i ? " " : "",
                                        words[rnd(sizeof(words) / sizeof(words[0]))]);
            text[len++] = '\n';
        }
        outbuf wide = preprocess(text, len, false, shell_style);
        outbuf narrow = preprocess(text, len, true, shell_style);
        assert_true(wide.len > len / 4);
        assert_int_equal(wide.len, narrow.len);
        assert_memory_equal(wide.data, narrow.data, wide.len);
        free(wide.data);
        free(narrow.data);
    }
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(set_random_sets),
        cmocka_unit_test(set_preprocessor_sets_are_wide_capable),
        cmocka_unit_test(set_too_many_buckets_falls_back),
        cmocka_unit_test(pair_matches_byte_loop),
        cmocka_unit_test(fast_paths_agree),
    };
    return cmocka_run_group_tests_name("cpp_scan", tests, NULL, NULL);
}
