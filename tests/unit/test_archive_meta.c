/*
 * Unit tests for the loading of an archive's .meta (libpcp/archive/meta.c):
 * descriptor records built here byte by byte, in the layout LOGARCHIVE(5)
 * gives (the record's length, its type, the pmDesc's five words, a count
 * of names, each name's length and bytes, the length again), opened in
 * memory and read back through the set's interface.
 *
 * The loader reads the records in one go and sizes its tables from a count
 * made before decoding: these check that what it counts is only a size
 * (many descriptors and names, repeated ones, a .meta longer than one read
 * and counts of names that their record cannot hold), and that names
 * differing only in their last bytes stay apart however long they are.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <pcp/pmapi.h>

#include "archive.h"

/* ------------------------------------------------------------------ */
/* Bytes, big-endian, in a buffer that grows. */

typedef struct bytes {
    uint8_t *b;
    size_t n, cap;
} bytes;

static void put(bytes *r, const void *p, size_t n)
{
    if (r->n + n > r->cap) {
        r->cap = (r->n + n) * 2;
        r->b = realloc(r->b, r->cap);
        assert_non_null(r->b);
    }
    memcpy(r->b + r->n, p, n);
    r->n += n;
}

static void put32(bytes *r, uint32_t v)
{
    uint8_t w[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};

    put(r, w, 4);
}

static void set32(bytes *r, size_t at, uint32_t v)
{
    size_t n = r->n;

    r->n = at;
    put32(r, v);
    r->n = n;
}

/* A version 2 label of volume vol. */
static void put_label(bytes *r, int vol)
{
    uint8_t zero[104] = "host";

    put32(r, 132);
    put32(r, PM_LOG_MAGIC | PM_LOG_VERS02);
    put32(r, 1234);       /* pid */
    put32(r, 1000000000); /* start */
    put32(r, 0);
    put32(r, (uint32_t)vol);
    put(r, zero, sizeof(zero)); /* host name and zone */
    put32(r, 132);
}

/* A descriptor record of pmid (type, one of PM_TYPE_*) with n names;
 * claimed is the count of names it says it has. */
static void put_desc(bytes *r, pmID pmid, int type, const char *const *names, int n,
                     uint32_t claimed)
{
    size_t start = r->n;

    put32(r, 0); /* the length, set below */
    put32(r, 1); /* a descriptor */
    put32(r, pmid);
    put32(r, (uint32_t)type);
    put32(r, PM_INDOM_NULL);
    put32(r, PM_SEM_INSTANT);
    put32(r, 0); /* units */
    put32(r, claimed);
    for (int i = 0; i < n; i++) {
        put32(r, (uint32_t)strlen(names[i]));
        put(r, names[i], strlen(names[i]));
    }
    put32(r, (uint32_t)(r->n - start + 4));
    set32(r, start, (uint32_t)(r->n - start));
}

/* ------------------------------------------------------------------ */

static bytes meta, vol;
static arch_set *set;

static int setup(void **state)
{
    (void)state;
    meta.n = vol.n = 0;
    put_label(&meta, PM_LOG_VOL_META);
    put_label(&vol, 0);
    put32(&vol, 0); /* a byte of data, as a first volume needs */
    set = NULL;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    if (set != NULL)
        arch_close(set);
    set = NULL;
    return 0;
}

static int open_meta(void)
{
    return arch_open_mem(meta.b, meta.n, NULL, 0, vol.b, vol.n, 0, &set);
}

/* Name k of a family whose members share a long prefix and differ in
 * their last bytes, of every length from 1 to 40 over the family. */
static void family_name(char *buf, size_t size, int k)
{
    static const char prefix[] = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    int len = 1 + k % 40;

    snprintf(buf, size, "%.*s%c", len - 1, prefix, "bcdefghij"[k / 40 % 9]);
}

/* Many descriptors (more than any table holds before it grows), half of
 * them named twice in their record, half once, each given again with the
 * same names in a second record: every one found, and each name once. */
static void meta_many(void **state)
{
    enum { N = 360 };
    char a[64], b[96];
    const char *names[2] = {a, b};
    const char *got[4];
    pmDesc d;

    (void)state;
    for (int round = 0; round < 2; round++) {
        for (int k = 0; k < N; k++) {
            family_name(a, sizeof(a), k);
            snprintf(b, sizeof(b), "m.%d.%s", k, a);
            put_desc(&meta, (pmID)(1000 + k), PM_TYPE_U32, names, 1 + k % 2, 1 + k % 2);
        }
    }
    assert_int_equal(open_meta(), 0);
    assert_int_equal(arch_npmids(set), N);
    assert_int_equal(arch_nnames(set), N + N / 2);
    for (int k = 0; k < N; k++) {
        family_name(a, sizeof(a), k);
        assert_int_equal(arch_desc(set, (pmID)(1000 + k), &d), 0);
        assert_int_equal(d.pmid, 1000 + k);
        assert_int_equal(arch_names_of(set, (pmID)(1000 + k), got, 4), 1 + k % 2);
        assert_string_equal(got[0], a);
        snprintf(b, sizeof(b), "m.%d.%s", k, a);
        if (k % 2 == 1)
            assert_string_equal(got[1], b);
    }
}

/* Descriptors of one name each, the first time and again: each name once
 * (no record names a metric twice, nor has two names). */
static void meta_again(void **state)
{
    char a[64];
    const char *names[1] = {a};

    (void)state;
    for (int round = 0; round < 2; round++) {
        for (int k = 0; k < 300; k++) {
            family_name(a, sizeof(a), k);
            put_desc(&meta, (pmID)(1 + k), PM_TYPE_U32, names, 1, 1);
        }
    }
    assert_int_equal(open_meta(), 0);
    assert_int_equal(arch_npmids(set), 300);
    assert_int_equal(arch_nnames(set), 300);
}

/* A name given twice in the first record of its PMID: once. */
static void meta_twice(void **state)
{
    const char *names[3] = {"x.y", "x.z", "x.y"};
    const char *got[4];

    (void)state;
    put_desc(&meta, 7, PM_TYPE_U32, names, 3, 3);
    assert_int_equal(open_meta(), 0);
    assert_int_equal(arch_names_of(set, 7, got, 4), 2);
    assert_string_equal(got[0], "x.y");
    assert_string_equal(got[1], "x.z");
}

/* The same PMID given again with another type: PCP's error for it. */
static void meta_conflict(void **state)
{
    const char *names[1] = {"x.y"};

    (void)state;
    put_desc(&meta, 7, PM_TYPE_U32, names, 1, 1);
    put_desc(&meta, 7, PM_TYPE_DOUBLE, names, 1, 1);
    assert_int_equal(open_meta(), PM_ERR_LOGCHANGETYPE);
}

/* Counts of names larger than their record holds: PM_ERR_LOGREC, not a
 * table sized by the count. */
static void meta_names_claimed(void **state)
{
    static const uint32_t claims[] = {2, 1000, 0x10000000u, 0xffffffffu};
    const char *names[1] = {"x.y"};

    (void)state;
    for (size_t i = 0; i < sizeof(claims) / sizeof(claims[0]); i++) {
        setup(NULL);
        put_desc(&meta, 7, PM_TYPE_U32, names, 1, 1);
        put_desc(&meta, 8, PM_TYPE_U32, names, 1, claims[i]);
        assert_int_equal(open_meta(), PM_ERR_LOGREC);
        assert_null(set);
    }
}

/* A .meta cut inside its last record: PM_ERR_LOGREC; at its end, whole. */
static void meta_cut(void **state)
{
    const char *names[1] = {"x.y"};
    size_t whole;

    (void)state;
    put_desc(&meta, 7, PM_TYPE_U32, names, 1, 1);
    whole = meta.n;
    put_desc(&meta, 8, PM_TYPE_U32, names, 1, 1);
    meta.n -= 5;
    assert_int_equal(open_meta(), PM_ERR_LOGREC);
    meta.n = whole;
    assert_int_equal(open_meta(), 0);
    assert_int_equal(arch_npmids(set), 1);
}

/* A .meta of more than the 16 MiB read at once: the records after the
 * first read are loaded as those in it. */
static void meta_long(void **state)
{
    enum { N = 80000 };
    char name[256];
    const char *names[1] = {name};
    const char *got[2];

    (void)state;
    for (int k = 0; k < N; k++) {
        memset(name, 'q', 200);
        snprintf(name + 200, sizeof(name) - 200, ".%d", k);
        put_desc(&meta, (pmID)(1 + k), PM_TYPE_U64, names, 1, 1);
    }
    assert_true(meta.n > (16u << 20));
    assert_int_equal(open_meta(), 0);
    assert_int_equal(arch_npmids(set), N);
    assert_int_equal(arch_nnames(set), N);
    for (int k = 0; k < N; k += 997) {
        snprintf(name + 200, sizeof(name) - 200, ".%d", k);
        assert_int_equal(arch_names_of(set, (pmID)(1 + k), got, 2), 1);
        assert_string_equal(got[0], name);
    }
    assert_int_equal(arch_names_of(set, N, got, 2), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(meta_many, setup, teardown),
        cmocka_unit_test_setup_teardown(meta_again, setup, teardown),
        cmocka_unit_test_setup_teardown(meta_twice, setup, teardown),
        cmocka_unit_test_setup_teardown(meta_conflict, setup, teardown),
        cmocka_unit_test_setup_teardown(meta_names_claimed, setup, teardown),
        cmocka_unit_test_setup_teardown(meta_cut, setup, teardown),
        cmocka_unit_test_setup_teardown(meta_long, setup, teardown),
    };
    int sts = cmocka_run_group_tests(tests, NULL, NULL);

    free(meta.b);
    free(vol.b);
    return sts;
}
