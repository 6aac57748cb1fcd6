/*
 * Unit tests for event records: the pmdaEvent* array builder
 * (libpcp/pmda/event.c) and pmUnpackEventRecords /
 * pmUnpackHighResEventRecords (libpcp/values/event.c), both kinds.
 *
 * Round trips of arrays with hundreds of records and parameters of every
 * type, read back with pmExtractValue; the byte layout and zeroed padding;
 * growth past many KB; handles (unknown, released, of the other kind);
 * and the damaged arrays and bad arguments where pmkit deliberately
 * answers with an error where PCP reads out of bounds, crashes or returns
 * nonsense (docs/compat.md).  Everything PCP and pmkit agree on is
 * compared byte for byte by tests/oracle/probe_events.c; here the
 * expected values are PCP's layout and the values put in.
 *
 * The static libraries' malloc, calloc and realloc come through the
 * wrappers below (ld --wrap, tests/unit/CMakeLists.txt), which record the
 * largest request and can make one fail: huge counts must not allocate
 * much, and every allocation failure must give -ENOMEM and leak nothing.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <cmocka.h>

#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include "alloc_hooks.h"

/* Let n more allocations through, then fail them all until disarm(). */
static void fail_after(long n)
{
    alloc_left = n;
}

static void disarm(void)
{
    alloc_left = -1;
}

/* ---- building damaged arrays by hand ---- */

#define FLAGS_PMID      pmID_build(511, 0, 1)
#define MISSED_PMID     pmID_build(511, 0, 2)
#define P1              0x3ec00000u /* a parameter's PMID, 251.0.0 */
#define PHDR(type, len) ((uint32_t)(type) << 24 | (uint32_t)(len))
#define WORDS(...)                                                                                 \
    (const uint32_t[]){__VA_ARGS__}, sizeof((const uint32_t[]){__VA_ARGS__}) / sizeof(uint32_t)

/* A value set of one value (instance PM_IN_NULL): a malloc'd copy of the
 * n words at w, whose first word becomes a value block header of type
 * and n * 4 bytes.  The copy is exactly that long, so ASan sees any read
 * past the value's end. */
static pmValueSet *value_of(int type, const uint32_t *w, size_t n)
{
    pmValueSet *vs = malloc(sizeof(*vs));
    uint32_t *copy = malloc(n * sizeof(uint32_t));

    assert_non_null(vs);
    assert_non_null(copy);
    memcpy(copy, w, n * sizeof(uint32_t));
    copy[0] = PHDR(type, n * sizeof(uint32_t));
    vs->pmid = pmID_build(251, 1, 0);
    vs->numval = 1;
    vs->valfmt = PM_VAL_DPTR;
    vs->vlist[0].inst = PM_IN_NULL;
    vs->vlist[0].value.pval = (pmValueBlock *)copy;
    return vs;
}

/* What a list pointer holds until an unpacker sets it. */
static pmResult *unset_list[1];
static pmHighResResult *unset_highres_list[1];

static void free_value(pmValueSet *vs)
{
    free(vs->vlist[0].value.pval);
    free(vs);
}

/*
 * The words at w as an array of type, unpacked by the unpacker of that
 * type: its status.  A failure must leave the list NULL; a success's list
 * is freed.  alloc_largest holds the largest allocation it made.
 */
static int unpack_words(int type, const uint32_t *w, size_t n)
{
    pmValueSet *vs = value_of(type, w, n);
    pmResult **r = unset_list;
    pmHighResResult **h = unset_highres_list;
    int sts;

    alloc_largest = 0;
    if (type == PM_TYPE_EVENT) {
        sts = pmUnpackEventRecords(vs, 0, &r);
        if (sts < 0)
            assert_null(r);
        pmFreeEventResult(sts < 0 ? NULL : r);
    } else {
        sts = pmUnpackHighResEventRecords(vs, 0, &h);
        if (sts < 0)
            assert_null(h);
        pmFreeHighResEventResult(sts < 0 ? NULL : h);
    }
    free_value(vs);
    return sts;
}

/* ---- unpacking: arguments ---- */

static void unpack_index_and_list(void **state)
{
    pmValueSet *vs = value_of(PM_TYPE_EVENT, WORDS(0, 1, 1000, 0, 0, 0));
    pmValueSet *hs = value_of(PM_TYPE_HIGHRES_EVENT, WORDS(0, 1, 1000, 0, 5, 0, 0, 0));
    pmResult **r;
    pmHighResResult **h;
    static const int bad[] = {-1, 1, 2, INT_MIN, INT_MAX};

    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        r = unset_list;
        h = unset_highres_list;
        assert_int_equal(pmUnpackEventRecords(vs, bad[i], &r), PM_ERR_INST);
        assert_null(r);
        assert_int_equal(pmUnpackHighResEventRecords(hs, bad[i], &h), PM_ERR_INST);
        assert_null(h);
    }
    assert_int_equal(pmUnpackEventRecords(vs, 0, NULL), -EINVAL);
    assert_int_equal(pmUnpackHighResEventRecords(hs, 0, NULL), -EINVAL);

    /* the same value sets are fine with index 0 */
    assert_int_equal(pmUnpackEventRecords(vs, 0, &r), 1);
    assert_int_equal(r[0]->timestamp.tv_sec, 1000);
    assert_int_equal(r[0]->numpmid, 0);
    assert_null(r[1]);
    pmFreeEventResult(r);
    assert_int_equal(pmUnpackHighResEventRecords(hs, 0, &h), 1);
    assert_int_equal(h[0]->timestamp.tv_sec, 1000);
    assert_int_equal(h[0]->timestamp.tv_nsec, 5);
    assert_null(h[1]);
    pmFreeHighResEventResult(h);

    /* and each with the other's unpacker is of the wrong type */
    assert_int_equal(pmUnpackEventRecords(hs, 0, &r), PM_ERR_TYPE);
    assert_null(r);
    assert_int_equal(pmUnpackHighResEventRecords(vs, 0, &h), PM_ERR_TYPE);
    assert_null(h);
    free_value(vs);
    free_value(hs);

    pmFreeEventResult(NULL);
    pmFreeHighResEventResult(NULL);
}

/* ---- unpacking: damaged arrays ---- */

static void unpack_negative_counts(void **state)
{
    (void)state;
    /* parameters: PCP gives a result with numpmid -1 */
    assert_int_equal(unpack_words(PM_TYPE_EVENT, WORDS(0, 1, 1000, 0, 0, 0xffffffff)),
                     PM_ERR_TOOSMALL);
    assert_int_equal(unpack_words(PM_TYPE_EVENT, WORDS(0, 1, 1000, 0, 0, 0x80000000)),
                     PM_ERR_TOOSMALL);
    assert_int_equal(unpack_words(PM_TYPE_HIGHRES_EVENT, WORDS(0, 1, 1000, 0, 0, 0, 0, 0xfffffff0)),
                     PM_ERR_TOOSMALL);
    /* records */
    assert_int_equal(unpack_words(PM_TYPE_EVENT, WORDS(0, 0xffffffff, 1000, 0, 0, 0)),
                     PM_ERR_TOOSMALL);
    /* a value too short for the record count */
    assert_int_equal(unpack_words(PM_TYPE_EVENT, WORDS(0)), PM_ERR_TOOSMALL);
    assert_int_equal(unpack_words(PM_TYPE_HIGHRES_EVENT, WORDS(0)), PM_ERR_TOOSMALL);
}

/* Parameter lengths that are not those of the parameter's type: the
 * value has room for 16 bytes after the header, so nothing runs past the
 * end and the length alone is wrong. */
static void unpack_wrong_param_lengths(void **state)
{
    static const struct {
        int type;
        uint32_t len;
    } bad[] = {
        {PM_TYPE_32, 0},
        {PM_TYPE_32, 3},
        {PM_TYPE_32, 4},
        {PM_TYPE_32, 7},
        {PM_TYPE_32, 9},
        {PM_TYPE_32, 12},
        {PM_TYPE_U32, 0},
        {PM_TYPE_U32, 4},
        {PM_TYPE_U32, 16},
        {PM_TYPE_FLOAT, 2},
        {PM_TYPE_FLOAT, 4},
        {PM_TYPE_FLOAT, 12},
        {PM_TYPE_64, 1},
        {PM_TYPE_64, 4},
        {PM_TYPE_64, 8},
        {PM_TYPE_64, 11},
        {PM_TYPE_64, 13},
        {PM_TYPE_64, 16},
        {PM_TYPE_U64, 0},
        {PM_TYPE_U64, 8},
        {PM_TYPE_U64, 20},
        {PM_TYPE_DOUBLE, 3},
        {PM_TYPE_DOUBLE, 8},
        {PM_TYPE_DOUBLE, 16},
        {PM_TYPE_STRING, 0},
        {PM_TYPE_STRING, 3},
        {PM_TYPE_AGGREGATE, 0},
        {PM_TYPE_AGGREGATE, 2},
        {PM_TYPE_AGGREGATE_STATIC, 1},
    };
    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        uint32_t h = PHDR(bad[i].type, bad[i].len);
        int sts[3];

        sts[0] = unpack_words(PM_TYPE_EVENT, WORDS(0, 1, 1000, 0, 0, 1, P1, h, 1, 2, 3, 4, 5));
        sts[1] = unpack_words(PM_TYPE_HIGHRES_EVENT,
                              WORDS(0, 1, 1000, 0, 0, 0, 0, 1, P1, h, 1, 2, 3, 4, 5));
        /* the same after a good parameter */
        sts[2] = unpack_words(PM_TYPE_EVENT, WORDS(0, 1, 1000, 0, 0, 2, P1, PHDR(PM_TYPE_U32, 8), 7,
                                                   P1, h, 1, 2, 3, 4, 5));
        for (int k = 0; k < 3; k++)
            if (sts[k] != PM_ERR_TOOSMALL)
                fail_msg("type %d length %u, case %d: %d", bad[i].type, (unsigned)bad[i].len, k,
                         sts[k]);
    }

    /* the right lengths, each exactly as long as the array */
    assert_int_equal(unpack_words(PM_TYPE_EVENT, WORDS(0, 1, 1000, 0, 0, 3, P1, PHDR(PM_TYPE_32, 8),
                                                       1, P1, PHDR(PM_TYPE_FLOAT, 8), 2, P1,
                                                       PHDR(PM_TYPE_DOUBLE, 12), 3, 4)),
                     1);
    assert_int_equal(
        unpack_words(PM_TYPE_EVENT,
                     WORDS(0, 1, 1000, 0, 0, 3, P1, PHDR(PM_TYPE_STRING, 4), P1,
                           PHDR(PM_TYPE_STRING, 5), 0x61, P1, PHDR(PM_TYPE_AGGREGATE, 4))),
        1);
}

static void unpack_past_the_end(void **state)
{
    (void)state;
    /* a value runs past the end */
    assert_int_equal(
        unpack_words(PM_TYPE_EVENT, WORDS(0, 1, 1000, 0, 0, 1, P1, PHDR(PM_TYPE_U64, 12), 7)),
        PM_ERR_TOOBIG);
    assert_int_equal(unpack_words(PM_TYPE_EVENT, WORDS(0, 1, 1000, 0, 0, 1, P1,
                                                       PHDR(PM_TYPE_STRING, 0x40), 0x64636261)),
                     PM_ERR_TOOBIG);
    assert_int_equal(unpack_words(PM_TYPE_EVENT, WORDS(0, 1, 1000, 0, 0, 1, P1,
                                                       PHDR(PM_TYPE_AGGREGATE, 0xffffff), 1)),
                     PM_ERR_TOOBIG);
    /* a string of 5 bytes whose padding is not there */
    assert_int_equal(unpack_words(PM_TYPE_EVENT, WORDS(0, 1, 1000, 0, 0, 1, P1,
                                                       PHDR(PM_TYPE_STRING, 9), 0x64636261)),
                     PM_ERR_TOOBIG);
    assert_int_equal(unpack_words(PM_TYPE_HIGHRES_EVENT, WORDS(0, 1, 1000, 0, 0, 0, 0, 1, P1,
                                                               PHDR(PM_TYPE_DOUBLE, 12), 1)),
                     PM_ERR_TOOBIG);
    /* a second parameter with its PMID alone */
    assert_int_equal(
        unpack_words(PM_TYPE_EVENT,
                     WORDS(0, 1, 1000, 0, 0, 2, P1, PHDR(PM_TYPE_STRING, 9), 0x64636261, 0x65, P1)),
        PM_ERR_TOOBIG);
    /* more parameters than there is room for */
    assert_int_equal(
        unpack_words(PM_TYPE_EVENT, WORDS(0, 1, 1000, 0, 0, 2, P1, PHDR(PM_TYPE_U32, 8), 7)),
        PM_ERR_TOOBIG);
    /* a record cut short, records missing */
    assert_int_equal(unpack_words(PM_TYPE_EVENT, WORDS(0, 1, 1000, 0, 0)), PM_ERR_TOOBIG);
    assert_int_equal(unpack_words(PM_TYPE_EVENT, WORDS(0, 2, 1000, 0, 0, 0)), PM_ERR_TOOBIG);
    assert_int_equal(unpack_words(PM_TYPE_HIGHRES_EVENT, WORDS(0, 1, 1000, 0, 0, 0, 0)),
                     PM_ERR_TOOBIG);
    assert_int_equal(unpack_words(PM_TYPE_HIGHRES_EVENT, WORDS(0, 2, 1, 0, 0, 0, 0, 1, P1,
                                                               PHDR(PM_TYPE_U32, 8), 7, 2, 0, 0)),
                     PM_ERR_TOOBIG);
    /* the second record is missing, but the count fits the first one's size */
    assert_int_equal(
        unpack_words(PM_TYPE_EVENT, WORDS(0, 2, 1000, 0, 0, 1, P1, PHDR(PM_TYPE_STRING, 12), 1, 2)),
        PM_ERR_TOOBIG);
}

static void unpack_huge_counts(void **state)
{
    (void)state;
    /* the derived metrics, which give event.flags its PMID, start once
     * (with their own allocations) before anything is measured */
    assert_int_equal(pmLoadDerivedConfig(""), 0);
    assert_int_equal(unpack_words(PM_TYPE_EVENT, WORDS(0, 0x7fffffff, 1000, 0, 0, 0)),
                     PM_ERR_TOOBIG);
    assert_int_equal(alloc_largest, 0); /* nothing allocated */
    assert_int_equal(unpack_words(PM_TYPE_HIGHRES_EVENT, WORDS(0, 0x7fffffff, 1000, 0, 0, 0, 0, 0)),
                     PM_ERR_TOOBIG);
    assert_int_equal(alloc_largest, 0);
    assert_int_equal(unpack_words(PM_TYPE_EVENT,
                                  WORDS(0, 1, 1000, 0, 0, 0x7fffffff, P1, PHDR(PM_TYPE_U32, 8), 7)),
                     PM_ERR_TOOBIG);
    assert_true(alloc_largest < 1024);
    assert_int_equal(unpack_words(PM_TYPE_HIGHRES_EVENT, WORDS(0, 1, 1000, 0, 0, 0, 0, 0x40000000,
                                                               P1, PHDR(PM_TYPE_U32, 8), 7)),
                     PM_ERR_TOOBIG);
    assert_true(alloc_largest < 1024);
    /* missed records: the count is the number missed, not a size */
    assert_int_equal(
        unpack_words(PM_TYPE_EVENT, WORDS(0, 1, 1000, 0, PM_EVENT_FLAG_MISSED, 0x7fffffff)), 1);
    assert_true(alloc_largest < 1024);
}

/* ---- the builder ---- */

/* The 32-bit word at byte offset at of an array. */
static uint32_t word_at(const void *base, size_t at)
{
    uint32_t w;

    memcpy(&w, (const char *)base + at, sizeof(w));
    return w;
}

static void add_param_before_record(void **state)
{
    struct timeval tv = {1, 2};
    struct timespec ts = {1, 2};
    pmAtomValue av = {.ul = 7};
    int a = pmdaEventNewArray(), h = pmdaEventNewHighResArray();

    (void)state;
    assert_true(a >= 0);
    assert_true(h >= 0);
    assert_int_equal(pmdaEventAddParam(a, P1, PM_TYPE_U32, &av), -EINVAL);
    assert_int_equal(pmdaEventAddHighResParam(h, P1, PM_TYPE_U32, &av), -EINVAL);
    assert_int_equal(pmdaEventHighResAddParam(h, P1, PM_TYPE_U32, &av), -EINVAL);
    assert_int_equal(pmdaEventGetAddr(a)->ea_len, 8);
    assert_int_equal(pmdaEventGetAddr(a)->ea_nrecords, 0);
    assert_int_equal(pmdaEventGetHighResAddr(h)->ea_len, 8);

    /* and again after a reset has taken the records away */
    assert_int_equal(pmdaEventAddRecord(a, &tv, 0), 0);
    assert_int_equal(pmdaEventAddHighResRecord(h, &ts, 0), 0);
    assert_int_equal(pmdaEventAddParam(a, P1, PM_TYPE_U32, &av), 0);
    assert_int_equal(pmdaEventAddHighResParam(h, P1, PM_TYPE_U32, &av), 0);
    assert_int_equal(pmdaEventResetArray(a), 0);
    assert_int_equal(pmdaEventResetHighResArray(h), 0);
    assert_int_equal(pmdaEventAddParam(a, P1, PM_TYPE_U32, &av), -EINVAL);
    assert_int_equal(pmdaEventAddHighResParam(h, P1, PM_TYPE_U32, &av), -EINVAL);
    assert_int_equal(pmdaEventGetAddr(a)->ea_len, 8);
    assert_int_equal(pmdaEventGetHighResAddr(h)->ea_nrecords, 0);
    assert_int_equal(pmdaEventReleaseArray(a), 0);
    assert_int_equal(pmdaEventReleaseHighResArray(h), 0);
}

/* Every call on handle idx must refuse it as no array of a normal
 * (highres 0) or high resolution (1) kind. */
static void refused(int idx, int highres)
{
    struct timeval tv = {1, 2};
    struct timespec ts = {1, 2};
    pmAtomValue av = {.ul = 7};

    if (highres) {
        assert_int_equal(pmdaEventResetHighResArray(idx), PM_ERR_NOCONTEXT);
        assert_int_equal(pmdaEventAddHighResRecord(idx, &ts, 0), PM_ERR_NOCONTEXT);
        assert_int_equal(pmdaEventAddHighResMissedRecord(idx, &ts, 3), PM_ERR_NOCONTEXT);
        assert_int_equal(pmdaEventAddHighResParam(idx, P1, PM_TYPE_U32, &av), PM_ERR_NOCONTEXT);
        assert_int_equal(pmdaEventHighResAddParam(idx, P1, PM_TYPE_U32, &av), PM_ERR_NOCONTEXT);
        assert_null(pmdaEventGetHighResAddr(idx));
        assert_null(pmdaEventHighResGetAddr(idx));
        assert_int_equal(pmdaEventReleaseHighResArray(idx), PM_ERR_NOCONTEXT);
    } else {
        assert_int_equal(pmdaEventResetArray(idx), PM_ERR_NOCONTEXT);
        assert_int_equal(pmdaEventAddRecord(idx, &tv, 0), PM_ERR_NOCONTEXT);
        assert_int_equal(pmdaEventAddMissedRecord(idx, &tv, 3), PM_ERR_NOCONTEXT);
        assert_int_equal(pmdaEventAddParam(idx, P1, PM_TYPE_U32, &av), PM_ERR_NOCONTEXT);
        assert_null(pmdaEventGetAddr(idx));
        assert_int_equal(pmdaEventReleaseArray(idx), PM_ERR_NOCONTEXT);
    }
}

static void handles(void **state)
{
    static const int unknown[] = {-1, INT_MIN, 4096, INT_MAX};
    struct timeval tv = {1, 2};
    struct timespec ts = {1, 2};
    int a, h;

    (void)state;
    for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
        refused(unknown[i], 0);
        refused(unknown[i], 1);
    }

    /* released */
    a = pmdaEventNewArray();
    h = pmdaEventNewHighResArray();
    assert_true(a >= 0 && h >= 0 && a != h);
    assert_int_equal(pmdaEventReleaseArray(a), 0);
    assert_int_equal(pmdaEventReleaseHighResArray(h), 0);
    refused(a, 0);
    refused(a, 1);
    refused(h, 0);
    refused(h, 1);

    /* of the other kind: refused, and left as they were */
    a = pmdaEventNewArray();
    h = pmdaEventNewHighResArray();
    assert_true(a >= 0 && h >= 0 && a != h);
    assert_int_equal(pmdaEventAddRecord(a, &tv, 0), 0);
    assert_int_equal(pmdaEventAddHighResRecord(h, &ts, 0), 0);
    refused(a, 1);
    refused(h, 0);
    assert_int_equal(pmdaEventGetAddr(a)->ea_nrecords, 1);
    assert_int_equal(pmdaEventGetAddr(a)->ea_len, 8 + 16);
    assert_int_equal(pmdaEventGetAddr(a)->ea_type, PM_TYPE_EVENT);
    assert_int_equal(pmdaEventGetHighResAddr(h)->ea_nrecords, 1);
    assert_int_equal(pmdaEventGetHighResAddr(h)->ea_len, 8 + 24);
    assert_int_equal(pmdaEventGetHighResAddr(h)->ea_type, PM_TYPE_HIGHRES_EVENT);
    assert_int_equal(pmdaEventReleaseArray(a), 0);
    assert_int_equal(pmdaEventReleaseHighResArray(h), 0);
}

static void null_arguments(void **state)
{
    struct timeval tv = {1, 2};
    struct timespec ts = {1, 2};
    pmAtomValue av = {.cp = NULL};
    int a = pmdaEventNewArray(), h = pmdaEventNewHighResArray();

    (void)state;
    assert_int_equal(pmdaEventAddRecord(a, NULL, 0), -EINVAL);
    assert_int_equal(pmdaEventAddMissedRecord(a, NULL, 1), -EINVAL);
    assert_int_equal(pmdaEventAddHighResRecord(h, NULL, 0), -EINVAL);
    assert_int_equal(pmdaEventAddHighResMissedRecord(h, NULL, 1), -EINVAL);
    assert_int_equal(pmdaEventGetAddr(a)->ea_len, 8);
    assert_int_equal(pmdaEventGetHighResAddr(h)->ea_len, 8);

    assert_int_equal(pmdaEventAddRecord(a, &tv, 0), 0);
    assert_int_equal(pmdaEventAddHighResRecord(h, &ts, 0), 0);
    assert_int_equal(pmdaEventAddParam(a, P1, PM_TYPE_STRING, &av), -EINVAL);
    assert_int_equal(pmdaEventAddHighResParam(h, P1, PM_TYPE_STRING, &av), -EINVAL);
    assert_int_equal(pmdaEventAddParam(a, P1, PM_TYPE_U32, NULL), -EINVAL);
    assert_int_equal(pmdaEventAddHighResParam(h, P1, PM_TYPE_U32, NULL), -EINVAL);
    av.vbp = NULL;
    assert_int_equal(pmdaEventAddParam(a, P1, PM_TYPE_AGGREGATE, &av), -EINVAL);
    assert_int_equal(pmdaEventAddHighResParam(h, P1, PM_TYPE_AGGREGATE, &av), -EINVAL);
    /* types that cannot be parameters (PCP's answer) */
    av.ul = 1;
    assert_int_equal(pmdaEventAddParam(a, P1, PM_TYPE_EVENT, &av), PM_ERR_TYPE);
    assert_int_equal(pmdaEventAddHighResParam(h, P1, PM_TYPE_HIGHRES_EVENT, &av), PM_ERR_TYPE);
    /* nothing was added */
    assert_int_equal(pmdaEventGetAddr(a)->ea_len, 8 + 16);
    assert_int_equal(word_at(pmdaEventGetAddr(a), 8 + 12), 0);
    assert_int_equal(pmdaEventGetHighResAddr(h)->ea_len, 8 + 24);
    assert_int_equal(word_at(pmdaEventGetHighResAddr(h), 8 + 20), 0);
    assert_int_equal(pmdaEventReleaseArray(a), 0);
    assert_int_equal(pmdaEventReleaseHighResArray(h), 0);
}

/* An aggregate block of up to 32 bytes. */
typedef union {
    pmValueBlock vb;
    unsigned char raw[PM_VAL_HDR_SIZE + 32];
} aggregate;

static pmValueBlock *make_aggregate(aggregate *agg, int fill, size_t n)
{
    memset(agg, 0, sizeof(*agg));
    agg->vb.vtype = PM_TYPE_AGGREGATE;
    agg->vb.vlen = (unsigned)(PM_VAL_HDR_SIZE + n);
    memset(agg->raw + PM_VAL_HDR_SIZE, fill, n);
    return &agg->vb;
}

/*
 * Fill an array's first record with a string and an aggregate that need
 * no padding, reset it, then add ones that do at the same places: the
 * padding must be zero where the old bytes were.  at: the first
 * parameter's offset (after the one record).
 */
static void check_padding(int idx, int highres, size_t at)
{
    struct timeval tv = {1, 2};
    struct timespec ts = {1, 2};
    pmAtomValue av;
    aggregate agg;
    const unsigned char *p;
    int (*add)(int, pmID, int, pmAtomValue *) =
        highres ? pmdaEventAddHighResParam : pmdaEventAddParam;

    for (int pass = 0; pass < 2; pass++) {
        assert_int_equal(
            highres ? pmdaEventAddHighResRecord(idx, &ts, 0) : pmdaEventAddRecord(idx, &tv, 0), 0);
        av.cp = pass == 0 ? "abcdefgh" : "abcde";
        assert_int_equal(add(idx, P1, PM_TYPE_STRING, &av), 0);
        av.vbp = make_aggregate(&agg, pass == 0 ? 0xff : 0xee, pass == 0 ? 8 : 6);
        assert_int_equal(add(idx, P1 + 1, PM_TYPE_AGGREGATE, &av), 0);
        if (pass == 0)
            assert_int_equal(highres ? pmdaEventResetHighResArray(idx) : pmdaEventResetArray(idx),
                             0);
    }
    p = highres ? (const void *)pmdaEventGetHighResAddr(idx) : (const void *)pmdaEventGetAddr(idx);
    assert_int_equal(word_at(p, 0), PHDR(highres ? PM_TYPE_HIGHRES_EVENT : PM_TYPE_EVENT, at + 32));
    assert_int_equal(word_at(p, 4), 1);
    assert_int_equal(word_at(p, at - 4), 2); /* the record's parameter count */
    assert_int_equal(word_at(p, at), P1);
    assert_int_equal(word_at(p, at + 4), PHDR(PM_TYPE_STRING, 9));
    assert_memory_equal(p + at + 8, "abcde\0\0\0", 8);
    assert_int_equal(word_at(p, at + 16), P1 + 1);
    assert_int_equal(word_at(p, at + 20), PHDR(PM_TYPE_AGGREGATE, 10));
    assert_memory_equal(p + at + 24, "\xee\xee\xee\xee\xee\xee\0\0", 8);
}

static void padding_is_zero(void **state)
{
    int a = pmdaEventNewArray(), h = pmdaEventNewHighResArray();

    (void)state;
    check_padding(a, 0, 8 + 16);
    check_padding(h, 1, 8 + 24);
    assert_int_equal(pmdaEventReleaseArray(a), 0);
    assert_int_equal(pmdaEventReleaseHighResArray(h), 0);
}

static void growth_keeps_content(void **state)
{
    struct timeval tv = {1700000000, 0};
    pmAtomValue av;
    unsigned char *before;
    size_t len;
    int a = pmdaEventNewArray();
    const pmEventArray *ea;

    (void)state;
    for (int i = 0; i < 10; i++) {
        tv.tv_usec = i;
        assert_int_equal(pmdaEventAddRecord(a, &tv, PM_EVENT_FLAG_POINT), 0);
        av.cp = "a string of some length";
        assert_int_equal(pmdaEventAddParam(a, P1, PM_TYPE_STRING, &av), 0);
    }
    ea = pmdaEventGetAddr(a);
    len = ea->ea_len;
    before = malloc(len);
    assert_non_null(before);
    memcpy(before, ea, len);
    for (int i = 0; i < 3000; i++) {
        tv.tv_usec = i;
        assert_int_equal(pmdaEventAddRecord(a, &tv, 0), 0);
        av.ull = (uint64_t)i * 0x0101010101010101ULL;
        assert_int_equal(pmdaEventAddParam(a, P1, PM_TYPE_U64, &av), 0);
    }
    ea = pmdaEventGetAddr(a);
    assert_int_equal(ea->ea_nrecords, 3010);
    assert_int_equal(ea->ea_len, len + 3000 * (16 + 16));
    assert_true(ea->ea_len > 64 * 1024);
    assert_memory_equal((const unsigned char *)ea + 8, before + 8, len - 8);
    free(before);
    assert_int_equal(pmdaEventReleaseArray(a), 0);
}

/* ---- round trips ---- */

enum { MAXPARAMS = 12, MAXBYTES = 24 };

typedef struct {
    pmID pmid;
    int type;
    pmAtomValue v;            /* numbers */
    char bytes[MAXBYTES + 1]; /* a string (NUL-terminated) or an aggregate */
    size_t nbytes;            /* the string's or aggregate's length */
} param;

typedef struct {
    int64_t sec, frac; /* the stamp: microseconds or nanoseconds */
    int flags;         /* of an ordinary record */
    int missed;        /* -1, or the number of records missed */
    int nparams;       /* its parameters */
    param params[MAXPARAMS];
} record;

static uint64_t rng_state;

static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static void random_param(param *p, int i)
{
    static const int types[] = {PM_TYPE_32,    PM_TYPE_U32,    PM_TYPE_64,     PM_TYPE_U64,
                                PM_TYPE_FLOAT, PM_TYPE_DOUBLE, PM_TYPE_STRING, PM_TYPE_AGGREGATE};
    uint64_t r = rng();

    memset(p, 0, sizeof(*p));
    p->type = types[(rng() + (uint64_t)i) % 8];
    p->pmid = pmID_build(251, (unsigned)p->type, (unsigned)i);
    switch (p->type) {
    case PM_TYPE_32:
        p->v.l = (int32_t)r;
        break;
    case PM_TYPE_U32:
        p->v.ul = (uint32_t)r;
        break;
    case PM_TYPE_64:
        p->v.ll = (int64_t)r;
        break;
    case PM_TYPE_U64:
        p->v.ull = r;
        break;
    case PM_TYPE_FLOAT:
        p->v.f = (float)(int32_t)r / 7.0f;
        break;
    case PM_TYPE_DOUBLE:
        p->v.d = (double)(int64_t)r / 3.0;
        break;
    case PM_TYPE_STRING:
        p->nbytes = r % (MAXBYTES + 1);
        for (size_t k = 0; k < p->nbytes; k++)
            p->bytes[k] = (char)(' ' + rng() % 95);
        break;
    default: /* an aggregate: any bytes, NULs too */
        p->nbytes = r % (MAXBYTES + 1);
        for (size_t k = 0; k < p->nbytes; k++)
            p->bytes[k] = (char)rng();
        break;
    }
}

/* n random records; highres: stamps of the high resolution kind. */
static record *random_records(int n, int highres)
{
    static const int flags[] = {0,
                                PM_EVENT_FLAG_POINT,
                                PM_EVENT_FLAG_START | PM_EVENT_FLAG_ID,
                                PM_EVENT_FLAG_END,
                                PM_EVENT_FLAG_PARENT | PM_EVENT_FLAG_ID,
                                0};
    record *recs = calloc((size_t)n, sizeof(*recs));

    assert_non_null(recs);
    for (int i = 0; i < n; i++) {
        record *rec = &recs[i];
        rec->sec = highres ? (int64_t)(rng() >> 1) : (int64_t)(rng() % 0x80000000u);
        rec->frac = (int64_t)(rng() % (highres ? 1000000000u : 1000000u));
        rec->missed = -1;
        if (i % 7 == 3) {
            rec->missed = (int)(rng() % 100000);
            continue;
        }
        rec->flags = flags[rng() % 6];
        rec->nparams = (int)(rng() % (MAXPARAMS + 1));
        for (int k = 0; k < rec->nparams; k++)
            random_param(&rec->params[k], k);
    }
    return recs;
}

/* Add param p to array idx, by the old name on odd turns. */
static void add_param(int idx, int highres, param *p, int turn)
{
    aggregate agg;
    pmAtomValue av = p->v;

    if (p->type == PM_TYPE_STRING)
        av.cp = p->bytes;
    if (p->type == PM_TYPE_AGGREGATE) {
        memset(&agg, 0, sizeof(agg));
        agg.vb.vtype = PM_TYPE_AGGREGATE;
        agg.vb.vlen = (unsigned)(PM_VAL_HDR_SIZE + p->nbytes);
        memcpy(agg.raw + PM_VAL_HDR_SIZE, p->bytes, p->nbytes);
        av.vbp = &agg.vb;
    }
    if (!highres)
        assert_int_equal(pmdaEventAddParam(idx, p->pmid, p->type, &av), 0);
    else if (turn % 2)
        assert_int_equal(pmdaEventHighResAddParam(idx, p->pmid, p->type, &av), 0);
    else
        assert_int_equal(pmdaEventAddHighResParam(idx, p->pmid, p->type, &av), 0);
}

static void build(int idx, int highres, record *recs, int n)
{
    for (int i = 0; i < n; i++) {
        struct timeval tv = {(time_t)recs[i].sec, (suseconds_t)recs[i].frac};
        struct timespec ts = {(time_t)recs[i].sec, (long)recs[i].frac};
        int sts;

        if (recs[i].missed >= 0)
            sts = highres ? pmdaEventAddHighResMissedRecord(idx, &ts, recs[i].missed)
                          : pmdaEventAddMissedRecord(idx, &tv, recs[i].missed);
        else
            sts = highres ? pmdaEventAddHighResRecord(idx, &ts, recs[i].flags)
                          : pmdaEventAddRecord(idx, &tv, recs[i].flags);
        assert_int_equal(sts, 0);
        for (int k = 0; k < recs[i].nparams; k++)
            add_param(idx, highres, &recs[i].params[k], i + k);
    }
}

/* A value set holding the one unsigned 32-bit value want in place. */
static void check_u32(const pmValueSet *vs, pmID pmid, uint32_t want)
{
    pmAtomValue out;

    assert_int_equal(vs->pmid, pmid);
    assert_int_equal(vs->numval, 1);
    assert_int_equal(vs->valfmt, PM_VAL_INSITU);
    assert_int_equal(vs->vlist[0].inst, (int)PM_IN_NULL);
    assert_int_equal(pmExtractValue(vs->valfmt, &vs->vlist[0], PM_TYPE_U32, &out, PM_TYPE_U32), 0);
    assert_int_equal(out.ul, want);
}

static void check_param(const pmValueSet *vs, const param *p)
{
    int insitu = p->type == PM_TYPE_32 || p->type == PM_TYPE_U32;
    pmAtomValue out;

    assert_int_equal(vs->pmid, p->pmid);
    assert_int_equal(vs->numval, 1);
    assert_int_equal(vs->vlist[0].inst, (int)PM_IN_NULL);
    assert_int_equal(vs->valfmt, insitu ? PM_VAL_INSITU : PM_VAL_DPTR);
    if (!insitu)
        assert_int_equal(vs->vlist[0].value.pval->vtype, p->type);
    assert_int_equal(pmExtractValue(vs->valfmt, &vs->vlist[0], p->type, &out, p->type), 0);
    switch (p->type) {
    case PM_TYPE_32:
        assert_int_equal(out.l, p->v.l);
        break;
    case PM_TYPE_U32:
        assert_int_equal(out.ul, p->v.ul);
        break;
    case PM_TYPE_64:
        assert_int_equal(out.ll, p->v.ll);
        break;
    case PM_TYPE_U64:
        assert_int_equal(out.ull, p->v.ull);
        break;
    case PM_TYPE_FLOAT:
        assert_memory_equal(&out.f, &p->v.f, sizeof(float));
        break;
    case PM_TYPE_DOUBLE:
        assert_memory_equal(&out.d, &p->v.d, sizeof(double));
        break;
    case PM_TYPE_STRING:
        assert_string_equal(out.cp, p->bytes);
        free(out.cp);
        break;
    default:
        assert_int_equal(out.vbp->vtype, PM_TYPE_AGGREGATE);
        assert_int_equal(out.vbp->vlen, PM_VAL_HDR_SIZE + p->nbytes);
        assert_memory_equal((const char *)out.vbp + PM_VAL_HDR_SIZE, p->bytes, p->nbytes);
        free(out.vbp);
        break;
    }
}

/* One unpacked record (either kind's result) against the one put in. */
static void check_record(const record *rec, int64_t sec, int64_t frac, int numpmid,
                         pmValueSet *const *vset)
{
    int first = 0;

    assert_int_equal(sec, rec->sec);
    assert_int_equal(frac, rec->frac);
    if (rec->missed >= 0) {
        assert_int_equal(numpmid, 2);
        check_u32(vset[0], FLAGS_PMID, PM_EVENT_FLAG_MISSED);
        check_u32(vset[1], MISSED_PMID, (uint32_t)rec->missed);
        return;
    }
    if (rec->flags != 0) {
        check_u32(vset[0], FLAGS_PMID, (uint32_t)rec->flags);
        first = 1;
    }
    assert_int_equal(numpmid, first + rec->nparams);
    for (int k = 0; k < rec->nparams; k++)
        check_param(vset[first + k], &rec->params[k]);
}

/* The array at base (len bytes) in a value set, unpacked and checked. */
static void check_unpacked(void *base, int highres, const record *recs, int n)
{
    pmValueSet vs = {.pmid = pmID_build(251, 1, 0), .numval = 1, .valfmt = PM_VAL_SPTR};
    pmResult **r;
    pmHighResResult **h;

    vs.vlist[0].inst = PM_IN_NULL;
    vs.vlist[0].value.pval = base;
    if (!highres) {
        assert_int_equal(pmUnpackEventRecords(&vs, 0, &r), n);
        for (int i = 0; i < n; i++)
            check_record(&recs[i], r[i]->timestamp.tv_sec, r[i]->timestamp.tv_usec, r[i]->numpmid,
                         r[i]->vset);
        if (n > 0)
            assert_null(r[n]);
        pmFreeEventResult(r);
        assert_int_equal(pmUnpackHighResEventRecords(&vs, 0, &h), PM_ERR_TYPE);
    } else {
        assert_int_equal(pmUnpackHighResEventRecords(&vs, 0, &h), n);
        for (int i = 0; i < n; i++)
            check_record(&recs[i], h[i]->timestamp.tv_sec, h[i]->timestamp.tv_nsec, h[i]->numpmid,
                         h[i]->vset);
        if (n > 0)
            assert_null(h[n]);
        pmFreeHighResEventResult(h);
        assert_int_equal(pmUnpackEventRecords(&vs, 0, &r), PM_ERR_TYPE);
    }
}

static void round_trip(int highres, int n, uint64_t seed)
{
    record *recs;
    void *base;
    int idx = highres ? pmdaEventNewHighResArray() : pmdaEventNewArray();

    assert_true(idx >= 0);
    rng_state = seed;
    recs = random_records(n, highres);
    build(idx, highres, recs, n);
    base = highres ? (void *)pmdaEventHighResGetAddr(idx) : (void *)pmdaEventGetAddr(idx);
    assert_int_equal(((pmEventArray *)base)->ea_nrecords, n);
    assert_int_equal(((pmEventArray *)base)->ea_type,
                     highres ? PM_TYPE_HIGHRES_EVENT : PM_TYPE_EVENT);
    check_unpacked(base, highres, recs, n);
    /* a reset array holds no records, and takes new ones */
    assert_int_equal(highres ? pmdaEventResetHighResArray(idx) : pmdaEventResetArray(idx), 0);
    base = highres ? (void *)pmdaEventGetHighResAddr(idx) : (void *)pmdaEventGetAddr(idx);
    assert_int_equal(((pmEventArray *)base)->ea_len, 8);
    assert_int_equal(((pmEventArray *)base)->ea_nrecords, 0);
    build(idx, highres, recs, n / 2);
    base = highres ? (void *)pmdaEventGetHighResAddr(idx) : (void *)pmdaEventGetAddr(idx);
    check_unpacked(base, highres, recs, n / 2);
    assert_int_equal(highres ? pmdaEventReleaseHighResArray(idx) : pmdaEventReleaseArray(idx), 0);
    free(recs);
}

static void round_trip_event(void **state)
{
    (void)state;
    round_trip(0, 1, 0x9e3779b97f4a7c15ULL);
    round_trip(0, 17, 0x0123456789abcdefULL);
    round_trip(0, 600, 0xfeedfacecafebeefULL);
}

static void round_trip_highres(void **state)
{
    (void)state;
    round_trip(1, 1, 0x9e3779b97f4a7c15ULL);
    round_trip(1, 17, 0x0123456789abcdefULL);
    round_trip(1, 600, 0xfeedfacecafebeefULL);
}

/* Two arrays of each kind filled in turn: each holds its own records. */
static void arrays_side_by_side(void **state)
{
    int idx[4];
    record *recs[4];

    (void)state;
    for (int k = 0; k < 4; k++) {
        idx[k] = k % 2 ? pmdaEventNewHighResArray() : pmdaEventNewArray();
        assert_true(idx[k] >= 0);
        rng_state = 0x1234567ULL + (uint64_t)k;
        recs[k] = random_records(40, k % 2);
    }
    for (int i = 0; i < 40; i++)
        for (int k = 0; k < 4; k++)
            build(idx[k], k % 2, &recs[k][i], 1);
    for (int k = 0; k < 4; k++) {
        void *base =
            k % 2 ? (void *)pmdaEventGetHighResAddr(idx[k]) : (void *)pmdaEventGetAddr(idx[k]);
        check_unpacked(base, k % 2, recs[k], 40);
        assert_int_equal(
            k % 2 ? pmdaEventReleaseHighResArray(idx[k]) : pmdaEventReleaseArray(idx[k]), 0);
        free(recs[k]);
    }
}

/* ---- allocation failures ---- */

/* Unpack the array at base with the n-th allocation and all after it
 * failing, for n = 0, 1, ... until it succeeds: -ENOMEM each time before,
 * nothing leaked (ASan's leak check), then the records. */
static void unpack_without_memory(void *base, int highres, const record *recs, int n)
{
    pmValueSet vs = {.pmid = pmID_build(251, 1, 0), .numval = 1, .valfmt = PM_VAL_SPTR};
    long k;

    vs.vlist[0].inst = PM_IN_NULL;
    vs.vlist[0].value.pval = base;
    for (k = 0; k < 1000; k++) {
        pmResult **r = unset_list;
        pmHighResResult **h = unset_highres_list;
        int sts;

        fail_after(k);
        sts = highres ? pmUnpackHighResEventRecords(&vs, 0, &h) : pmUnpackEventRecords(&vs, 0, &r);
        disarm();
        if (sts >= 0) {
            assert_int_equal(sts, n);
            if (highres)
                pmFreeHighResEventResult(h);
            else
                pmFreeEventResult(r);
            break;
        }
        assert_int_equal(sts, -ENOMEM);
        if (highres)
            assert_null(h);
        else
            assert_null(r);
    }
    assert_true(k < 1000); /* it did succeed */
    assert_true(k > 3);    /* several allocations failed first */
    check_unpacked(base, highres, recs, n);
}

/* Records of stamp sec.frac, no flags and no parameters, from recs[from]
 * to recs[n - 1] (recs grown to n). */
static record *plain_records(record *recs, int from, int n, int64_t sec, int64_t frac)
{
    recs = realloc(recs, (size_t)n * sizeof(*recs));
    assert_non_null(recs);
    for (int i = from; i < n; i++)
        recs[i] = (record){.sec = sec, .frac = frac, .missed = -1};
    return recs;
}

static void out_of_memory(void **state)
{
    (void)state;
    for (int highres = 0; highres < 2; highres++) {
        record *recs;
        void *base;
        size_t len;
        int idx, sts, added = 0;
        struct timeval tv = {5, 6};
        struct timespec ts = {5, 6};

        fail_after(0);
        assert_int_equal(highres ? pmdaEventNewHighResArray() : pmdaEventNewArray(), -ENOMEM);
        disarm();
        idx = highres ? pmdaEventNewHighResArray() : pmdaEventNewArray();
        assert_true(idx >= 0);
        rng_state = 0xabcdef12345ULL;
        recs = random_records(9, highres);
        build(idx, highres, recs, 9);
        base = highres ? (void *)pmdaEventGetHighResAddr(idx) : (void *)pmdaEventGetAddr(idx);
        unpack_without_memory(base, highres, recs, 9);

        /* records added until the buffer must grow and cannot: the array
         * is as it was before that call */
        fail_after(0);
        do {
            len = ((pmEventArray *)base)->ea_len;
            sts =
                highres ? pmdaEventAddHighResRecord(idx, &ts, 0) : pmdaEventAddRecord(idx, &tv, 0);
            base = highres ? (void *)pmdaEventGetHighResAddr(idx) : (void *)pmdaEventGetAddr(idx);
            added += sts == 0;
        } while (sts == 0 && added < 100000);
        disarm();
        assert_int_equal(sts, -ENOMEM);
        assert_true(added > 0);
        assert_int_equal(((pmEventArray *)base)->ea_len, len);
        assert_int_equal(((pmEventArray *)base)->ea_nrecords, 9 + added);
        recs = plain_records(recs, 9, 9 + added, 5, 6);
        check_unpacked(base, highres, recs, 9 + added);
        /* and with memory again, it grows */
        assert_int_equal(
            highres ? pmdaEventAddHighResRecord(idx, &ts, 0) : pmdaEventAddRecord(idx, &tv, 0), 0);
        base = highres ? (void *)pmdaEventGetHighResAddr(idx) : (void *)pmdaEventGetAddr(idx);
        recs = plain_records(recs, 9 + added, 10 + added, 5, 6);
        check_unpacked(base, highres, recs, 10 + added);
        assert_int_equal(highres ? pmdaEventReleaseHighResArray(idx) : pmdaEventReleaseArray(idx),
                         0);
        free(recs);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(unpack_index_and_list),
        cmocka_unit_test(unpack_negative_counts),
        cmocka_unit_test(unpack_wrong_param_lengths),
        cmocka_unit_test(unpack_past_the_end),
        cmocka_unit_test(unpack_huge_counts),
        cmocka_unit_test(add_param_before_record),
        cmocka_unit_test(handles),
        cmocka_unit_test(null_arguments),
        cmocka_unit_test(padding_is_zero),
        cmocka_unit_test(growth_keeps_content),
        cmocka_unit_test(round_trip_event),
        cmocka_unit_test(round_trip_highres),
        cmocka_unit_test(arrays_side_by_side),
        cmocka_unit_test(out_of_memory),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
