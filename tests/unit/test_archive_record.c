/*
 * Unit tests for the decoding of an archive's data records
 * (libpcp/archive/record.c, arch_record_result): records built here byte
 * by byte, in the layout LOGARCHIVE(5) gives (a version 2 time, the count
 * of value sets, each set, the value blocks named by word offsets from
 * two words before the record), decoded, and every value compared with
 * what the bytes say.  Each payload sits in an allocation of its own exact
 * size, so that a read past it is seen by AddressSanitizer.
 *
 * The records exercise the one-pass decoding's rules: blocks in the order
 * of their values after the value sets (runs of 64-bit numbers, broken
 * runs), and each layout that must leave it for the two-pass decoding
 * (values sharing a block, blocks out of order), with damage at each check
 * it makes (offsets before the record or past it, block lengths below a
 * header or past the payload, a run cut by the payload's end, counts and
 * formats that do not fit).  A shared block decoded in one pass would
 * overrun the allocation the one pass sizes, by kilobytes.  And PCP's rule
 * for where blocks lie (record_pcp_layout): from the value sets' end to the
 * payload's, their lengths rounded to words adding up to those bytes as
 * PCP reads them converting in place (Debian's libpcp 6.0.3 refuses every
 * record refused there and takes every one taken, as damaged copies of
 * pcp-testsuite's ok-foo showed).  arch_record_select's verdict on each
 * record must be arch_record_result's.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <pcp/pmapi.h>

#include "archive.h"

/* ------------------------------------------------------------------ */
/* Bytes, big-endian. */

typedef struct bytes {
    uint8_t b[16384];
    size_t n;
} bytes;

static void put32(bytes *r, uint32_t v)
{
    r->b[r->n++] = (uint8_t)(v >> 24);
    r->b[r->n++] = (uint8_t)(v >> 16);
    r->b[r->n++] = (uint8_t)(v >> 8);
    r->b[r->n++] = (uint8_t)v;
}

static void set32(bytes *r, size_t at, uint32_t v)
{
    size_t n = r->n;

    r->n = at;
    put32(r, v);
    r->n = n;
}

/* The word offset that names payload offset at (two words before the
 * record's length word). */
static uint32_t word_of(size_t at)
{
    return (uint32_t)((at + 12) / 4);
}

/* A version 2 label of volume vol. */
static void put_label(bytes *r, int vol)
{
    size_t start = r->n;

    put32(r, 132);
    put32(r, PM_LOG_MAGIC | PM_LOG_VERS02);
    put32(r, 1234);       /* pid */
    put32(r, 1000000000); /* start */
    put32(r, 0);
    put32(r, (uint32_t)vol);
    memset(r->b + r->n, 0, 104); /* host name and zone */
    memcpy(r->b + r->n, "host", 4);
    r->n += 104;
    put32(r, 132);
    assert_int_equal(r->n - start, 132);
}

/* ------------------------------------------------------------------ */
/* A set to decode with, and a payload decoded. */

static bytes meta, vol;
static arch_set *set;

static int setup(void **state)
{
    (void)state;
    meta.n = vol.n = 0;
    put_label(&meta, PM_LOG_VOL_META);
    put_label(&vol, 0);
    put32(&vol, 0); /* a byte of data, as a first volume needs */
    return arch_open_mem(meta.b, meta.n, NULL, 0, vol.b, vol.n, 0, &set) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    arch_close(set);
    return 0;
}

/* The payload starts: time, and n value sets to come. */
static void begin(bytes *r, int numpmid)
{
    r->n = 0;
    put32(r, 1000000001);
    put32(r, 0);
    put32(r, (uint32_t)numpmid);
}

/* Decode payload r: arch_record_result's status and *res. */
static int decode(const bytes *r, int numpmid, pmHighResResult **res)
{
    uint8_t *body = malloc(r->n); /* exactly the payload: no slack to read */
    arch_record rec = {0};
    int sts;

    assert_non_null(body);
    memcpy(body, r->b, r->n);
    rec.len = (uint32_t)r->n + 8;
    rec.stamp.tv_sec = 1000000001;
    rec.numpmid = numpmid;
    rec.body = body;
    *res = NULL;
    sts = arch_record_result(set, &rec, res);
    for (int k = 0; k < 2; k++) { /* selecting nothing, or PMID 1..64 */
        pmID pmids[64];
        arch_pmids *sel;
        pmHighResResult *got_r = NULL;
        int got;
        for (int i = 0; i < 64; i++)
            pmids[i] = (pmID)(i + 1);
        assert_non_null(sel = arch_pmids_new(pmids, k == 0 ? 0 : 64));
        got = arch_record_select(set, &rec, sel, &got_r);
        arch_pmids_free(sel);
        assert_int_equal(got, sts);
        if (got == 0)
            pmFreeHighResResult(got_r);
    }
    free(body);
    return sts;
}

/* Value j of vs: a block of type and length vlen whose payload is pay. */
static void assert_block(const pmValueSet *vs, int j, int inst, int type, const void *pay, size_t n)
{
    const pmValueBlock *vb = vs->vlist[j].value.pval;

    assert_int_equal(vs->vlist[j].inst, inst);
    assert_int_equal(vb->vtype, type);
    assert_int_equal(vb->vlen, PM_VAL_HDR_SIZE + n);
    assert_memory_equal(vb->vbuf, pay, n);
}

static void assert_u64(const pmValueSet *vs, int j, int inst, int type, uint64_t v)
{
    assert_block(vs, j, inst, type, &v, 8);
}

/* ------------------------------------------------------------------ */

/* Value sets of every kind, blocks as a logger lays them out: a run of
 * five U64 values, a run broken by another header, a string.
 * (Over 60 lines: one record built, then each of its values checked.) */
static void record_in_order(void **state)
{
    bytes r;
    pmHighResResult *res;
    size_t pairs2, pairs5, pairs6, blocks;
    double d = 2.5;
    uint64_t bits;

    (void)state;
    begin(&r, 6);
    put32(&r, 1), put32(&r, 1), put32(&r, PM_VAL_INSITU), put32(&r, 7), put32(&r, 42);
    put32(&r, 2), put32(&r, 5), put32(&r, PM_VAL_DPTR);
    pairs2 = r.n;
    r.n += 5 * 8;
    put32(&r, 3), put32(&r, 0);
    put32(&r, 4), put32(&r, (uint32_t)PM_ERR_AGAIN);
    put32(&r, 5), put32(&r, 3), put32(&r, PM_VAL_DPTR);
    pairs5 = r.n;
    r.n += 3 * 8;
    put32(&r, 6), put32(&r, 1), put32(&r, PM_VAL_DPTR);
    pairs6 = r.n;
    r.n += 8;
    blocks = r.n;
    for (int j = 0; j < 5; j++) { /* metric 2: one run */
        set32(&r, pairs2 + j * 8, (uint32_t)(10 + j));
        set32(&r, pairs2 + j * 8 + 4, word_of(r.n));
        put32(&r, (uint32_t)PM_TYPE_U64 << 24 | 12);
        put32(&r, 0x01020304), put32(&r, (uint32_t)(0x05060700 + j));
    }
    memcpy(&bits, &d, 8);
    for (int j = 0; j < 3; j++) { /* metric 5: U64, U64, DOUBLE (a run broken) */
        set32(&r, pairs5 + j * 8, (uint32_t)j);
        set32(&r, pairs5 + j * 8 + 4, word_of(r.n));
        put32(&r, (uint32_t)(j == 2 ? PM_TYPE_DOUBLE : PM_TYPE_U64) << 24 | 12);
        put32(&r, j == 2 ? (uint32_t)(bits >> 32) : 0xffffffffu);
        put32(&r, j == 2 ? (uint32_t)bits : (uint32_t)-j);
    }
    set32(&r, pairs6, 99); /* metric 6: a string */
    set32(&r, pairs6 + 4, word_of(r.n));
    put32(&r, (uint32_t)PM_TYPE_STRING << 24 | 10);
    memcpy(r.b + r.n, "hello\0\0\0", 8);
    r.n += 8;
    assert_true(blocks < r.n);

    assert_int_equal(decode(&r, 6, &res), 0);
    assert_int_equal(res->numpmid, 6);
    assert_int_equal(res->vset[0]->pmid, 1);
    assert_int_equal(res->vset[0]->numval, 1);
    assert_int_equal(res->vset[0]->valfmt, PM_VAL_INSITU);
    assert_int_equal(res->vset[0]->vlist[0].inst, 7);
    assert_int_equal(res->vset[0]->vlist[0].value.lval, 42);
    assert_int_equal(res->vset[1]->valfmt, PM_VAL_DPTR);
    for (int j = 0; j < 5; j++)
        assert_u64(res->vset[1], j, 10 + j, PM_TYPE_U64, 0x0102030405060700ull + (uint64_t)j);
    assert_int_equal(res->vset[2]->numval, 0);
    assert_int_equal(res->vset[3]->numval, PM_ERR_AGAIN);
    assert_u64(res->vset[4], 0, 0, PM_TYPE_U64, 0xffffffff00000000ull);
    assert_u64(res->vset[4], 1, 1, PM_TYPE_U64, 0xffffffffffffffffull);
    assert_block(res->vset[4], 2, 2, PM_TYPE_DOUBLE, &d, 8);
    assert_block(res->vset[5], 0, 99, PM_TYPE_STRING, "hello", 6);
    pmFreeHighResResult(res);
}

/* n values of one metric naming blocks from payload offsets at[]: the
 * value sets of the record (its blocks are the caller's). */
static void one_metric(bytes *r, int n, size_t *pairs)
{
    begin(r, 1);
    put32(r, 77), put32(r, (uint32_t)n), put32(r, PM_VAL_DPTR);
    *pairs = r->n;
    r->n += (size_t)n * 8;
}

/* Fifty values share one string block of 200 bytes, 5,000 bytes no value
 * names after it (no logger writes that).  PCP converts the block in
 * place each time a value names it, so every second time it reads the
 * header word swapped: a length of 6 (the type byte), 8 rounded.  The
 * lengths then add up to 25 x 200 + 25 x 8 bytes, all there is: taken,
 * each value getting its copy of the block as the file has it (the copies
 * would need 50 times the room of the one block: two passes).  With 8
 * bytes fewer after the block, refused. */
static void record_shared_block(void **state)
{
    bytes r;
    pmHighResResult *res;
    size_t pairs, block;
    char text[196];

    (void)state;
    for (size_t after = 5000; after >= 4992; after -= 8) {
        one_metric(&r, 50, &pairs);
        block = r.n;
        for (int j = 0; j < 50; j++) {
            set32(&r, pairs + j * 8, (uint32_t)j);
            set32(&r, pairs + j * 8 + 4, word_of(block));
        }
        memset(text, 'x', sizeof(text) - 1);
        text[sizeof(text) - 1] = '\0';
        put32(&r, (uint32_t)PM_TYPE_STRING << 24 | 200);
        memcpy(r.b + r.n, text, sizeof(text));
        r.n += sizeof(text);
        memset(r.b + r.n, 0, after);
        r.n += after;
        if (after == 4992) {
            assert_int_equal(decode(&r, 1, &res), PM_ERR_LOGREC);
            continue;
        }
        assert_int_equal(decode(&r, 1, &res), 0);
        for (int j = 0; j < 50; j++)
            assert_block(res->vset[0], j, j, PM_TYPE_STRING, text, sizeof(text));
        pmFreeHighResResult(res);
    }
}

/* A hundred values whose blocks lie inside the value set itself: each
 * value's instance word (8) read as a block header (type 32, 8 bytes), its
 * offset word as the block's payload.  PCP wants the lowest block where
 * the value sets end: refused. */
static void record_blocks_in_vsets(void **state)
{
    bytes r;
    pmHighResResult *res;
    size_t pairs;

    (void)state;
    one_metric(&r, 100, &pairs);
    for (int j = 0; j < 100; j++) {
        set32(&r, pairs + j * 8, 8);
        set32(&r, pairs + j * 8 + 4, word_of(pairs + j * 8));
    }
    assert_int_equal(decode(&r, 1, &res), PM_ERR_LOGREC);
}

/* Two values after the value sets: a string block of slen bytes (its
 * words' worth in the record) and a U64's, with before, between and after
 * bytes no value names at those places; swap names them in the other
 * order.  arch_record_result's status. */
static int two_blocks(size_t before, uint32_t slen, size_t between, size_t after, int swap)
{
    bytes r;
    pmHighResResult *res;
    size_t pairs, at[2];
    int sts;

    one_metric(&r, 2, &pairs);
    memset(r.b + r.n, 0, before + 4 + slen + between + 12 + after + 4);
    r.n += before;
    at[swap] = r.n;
    put32(&r, (uint32_t)PM_TYPE_STRING << 24 | slen);
    r.n += (slen - 1) / 4 * 4 + between;
    at[!swap] = r.n;
    put32(&r, (uint32_t)PM_TYPE_U64 << 24 | 12);
    put32(&r, 1), put32(&r, 2);
    r.n += after;
    for (int j = 0; j < 2; j++) {
        set32(&r, pairs + j * 8, (uint32_t)j);
        set32(&r, pairs + j * 8 + 4, word_of(at[j]));
    }
    if ((sts = decode(&r, 1, &res)) == 0) {
        assert_u64(res->vset[0], !swap, !swap, PM_TYPE_U64, 0x100000002ull);
        pmFreeHighResResult(res);
    }
    return sts;
}

/* Blocks at value sets' end; one value's U64 block holding, where its
 * number's second half lies, the header word of the other value's block,
 * whose 4 bytes follow; 8 bytes no value names after them.  PCP swaps
 * the number in place before it reads the other header: first is what
 * the number's first half holds, which PCP reads as that header. */
static int header_in_number(uint32_t first)
{
    bytes r;
    pmHighResResult *res;
    size_t pairs, a;
    int sts;

    one_metric(&r, 2, &pairs);
    a = r.n;
    put32(&r, (uint32_t)PM_TYPE_U64 << 24 | 16);
    put32(&r, first);
    put32(&r, (uint32_t)PM_TYPE_STRING << 24 | 8); /* as the file has it */
    memcpy(r.b + r.n, "abcd", 4);
    r.n += 4;
    memset(r.b + r.n, 0, 8);
    r.n += 8;
    set32(&r, pairs, 0), set32(&r, pairs + 4, word_of(a));
    set32(&r, pairs + 8, 1), set32(&r, pairs + 12, word_of(a + 8));
    if ((sts = decode(&r, 1, &res)) == 0) {
        assert_block(res->vset[0], 1, 1, PM_TYPE_STRING, "abcd", 4);
        pmFreeHighResResult(res);
    }
    return sts;
}

/* PCP's rule for where blocks lie (Debian's libpcp 6.0.3 on copies of
 * ok-foo damaged word by word: a block header's length cut by a word, a
 * value count zeroed or made an error code, a format made INSITU, each
 * gave PM_ERR_LOGREC): the lowest block where the value sets end, the
 * blocks' lengths rounded to words adding up to the bytes from there to
 * the payload's end, in whatever order. */
static void record_pcp_layout(void **state)
{
    bytes r;
    pmHighResResult *res;

    (void)state;
    assert_int_equal(two_blocks(0, 10, 0, 0, 0), 0);
    assert_int_equal(two_blocks(0, 9, 0, 0, 0), 0);
    assert_int_equal(two_blocks(0, 12, 0, 0, 0), 0);
    assert_int_equal(two_blocks(0, 10, 0, 0, 1), 0); /* blocks in the other order */
    print_message("bytes before the first block\n");
    assert_int_equal(two_blocks(4, 10, 0, 0, 0), PM_ERR_LOGREC);
    print_message("bytes between the blocks (a length a word short)\n");
    assert_int_equal(two_blocks(0, 8, 4, 0, 0), PM_ERR_LOGREC);
    assert_int_equal(two_blocks(0, 10, 4, 0, 1), PM_ERR_LOGREC);
    print_message("bytes after the last block\n");
    assert_int_equal(two_blocks(0, 10, 0, 4, 0), PM_ERR_LOGREC);
    assert_int_equal(two_blocks(0, 10, 0, 8, 1), PM_ERR_LOGREC);
    print_message("a header read from a number PCP converted\n");
    assert_int_equal(header_in_number((uint32_t)8 << 24 | PM_TYPE_STRING), 0);
    assert_int_equal(header_in_number(PM_TYPE_STRING), PM_ERR_LOGREC);
    print_message("no blocks: bytes after the value sets\n");
    begin(&r, 1);
    put32(&r, 5), put32(&r, 1), put32(&r, PM_VAL_INSITU), put32(&r, 0), put32(&r, 7);
    assert_int_equal(decode(&r, 1, &res), 0);
    pmFreeHighResResult(res);
    put32(&r, 0);
    assert_int_equal(decode(&r, 1, &res), PM_ERR_LOGREC);
    print_message("a <mark> (no value sets) with bytes after its count\n");
    begin(&r, 0);
    assert_int_equal(decode(&r, 0, &res), 0);
    pmFreeHighResResult(res);
    put32(&r, 0);
    assert_int_equal(decode(&r, 0, &res), PM_ERR_LOGREC);
    begin(&r, 1);
    put32(&r, 5), put32(&r, 1), put32(&r, PM_VAL_INSITU), put32(&r, 0), put32(&r, 7);
    print_message("a count made an error code, its pairs left\n");
    set32(&r, 16, 0xffff0010);
    assert_int_equal(decode(&r, 1, &res), PM_ERR_LOGREC);
    r.n -= 12;
    assert_int_equal(decode(&r, 1, &res), 0);
    assert_int_equal(res->vset[0]->numval, (int)0xffff0010);
    pmFreeHighResResult(res);
}

/* Blocks in the reverse order of their values: decoded all the same. */
static void record_blocks_reversed(void **state)
{
    bytes r;
    pmHighResResult *res;
    size_t pairs;

    (void)state;
    one_metric(&r, 40, &pairs);
    for (int j = 39; j >= 0; j--) {
        set32(&r, pairs + j * 8, (uint32_t)j);
        set32(&r, pairs + j * 8 + 4, word_of(r.n));
        put32(&r, (uint32_t)PM_TYPE_U64 << 24 | 12);
        put32(&r, 0), put32(&r, (uint32_t)j);
    }

    assert_int_equal(decode(&r, 1, &res), 0);
    for (int j = 0; j < 40; j++)
        assert_u64(res->vset[0], j, j, PM_TYPE_U64, (uint64_t)j);
    pmFreeHighResResult(res);
}

/* Three U64 values in a run; the payload then ends cut words into the
 * last block, whose header is still whole: PM_ERR_LOGREC, the run
 * stopping before the block that does not fit. */
static void record_run_cut(void **state)
{
    bytes r;
    pmHighResResult *res;
    size_t pairs;

    (void)state;
    for (size_t cut = 4; cut <= 8; cut += 4) {
        one_metric(&r, 3, &pairs);
        for (int j = 0; j < 3; j++) {
            set32(&r, pairs + j * 8, (uint32_t)j);
            set32(&r, pairs + j * 8 + 4, word_of(r.n));
            put32(&r, (uint32_t)PM_TYPE_U64 << 24 | 12);
            put32(&r, 0), put32(&r, (uint32_t)j);
        }
        r.n -= cut;
        assert_int_equal(decode(&r, 1, &res), PM_ERR_LOGREC);
        assert_null(res);
    }
}

/* Each check on a block, then on the framing of the value sets, made to
 * fail in a record otherwise sound (two U64 values in a run). */
static void record_damaged(void **state)
{
    static const struct {
        const char *what;
        int word;     /* which word to change: 0 value 1's offset, ... */
        uint32_t val; /* its new value, or UINT32_MAX: the payload's end */
    } cases[] = {
        {"offset 0 (before the record)", 0, 0},
        {"offset 2 (before the payload)", 0, 2},
        {"offset past the payload", 0, 1000},
        {"offset of the last word", 0, UINT32_MAX},
        {"second offset past the payload", 1, 1000},
        {"block length 3", 2, (uint32_t)PM_TYPE_U64 << 24 | 3},
        {"block length past the payload", 2, (uint32_t)PM_TYPE_U64 << 24 | 100},
        {"second block length past the payload", 3, (uint32_t)PM_TYPE_U64 << 24 | 13},
        {"value format 3", 4, 3},
        {"more values than the record holds", 5, 40},
        {"a count past the record", 5, 0x7fffffff},
    };

    (void)state;
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        bytes r;
        pmHighResResult *res;
        size_t pairs, at[6];
        one_metric(&r, 2, &pairs);
        at[4] = pairs - 4;
        at[5] = pairs - 8;
        for (int j = 0; j < 2; j++) {
            at[j] = pairs + j * 8 + 4;
            at[2 + j] = r.n;
            set32(&r, pairs + j * 8, (uint32_t)j);
            set32(&r, at[j], word_of(r.n));
            put32(&r, (uint32_t)PM_TYPE_U64 << 24 | 12);
            put32(&r, 0), put32(&r, (uint32_t)j);
        }
        set32(&r, at[cases[c].word], cases[c].val == UINT32_MAX ? word_of(r.n - 4) : cases[c].val);
        print_message("%s\n", cases[c].what);
        assert_int_equal(decode(&r, 1, &res), PM_ERR_LOGREC);
        assert_null(res);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(record_in_order),        cmocka_unit_test(record_shared_block),
        cmocka_unit_test(record_blocks_in_vsets), cmocka_unit_test(record_blocks_reversed),
        cmocka_unit_test(record_run_cut),         cmocka_unit_test(record_damaged),
        cmocka_unit_test(record_pcp_layout),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
