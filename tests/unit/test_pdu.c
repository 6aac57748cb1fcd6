/*
 * Unit tests for the pmcd protocol: the PDU encoders and
 * decoders (libpcp/wire/pdu.c) and one-PDU dispatch (__pmdaMainPDU,
 * pmdaSendError, pmdaConnect on a unix socket; daemon.c).
 *
 * Every PDU an agent reads or writes round-trips; the answers' bytes are
 * compared with what Debian's PCP 6.0.3 agents wrote for the same
 * requests under dbpmda (captured with strace); the answers only a client
 * reads (greeting, HIGHRES_RESULT, DESCS) are decoded from pmcd's captured
 * bytes (as Debian's PCP 6.0.3 sends them); and hostile PDUs --
 * every truncation, lengths that lie, counts that overflow, strings and
 * value blocks that run past the end -- are refused with PM_ERR_IPC.  Run
 * under ASan, any read outside a PDU fails the test.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "pdu.h"
#include "pmda_int.h"

/* ------------------------------------------------------------------ */
/* Helpers */

/* The bytes of a PDU written as 32-bit words, as the captures show them. */
static size_t words(unsigned char *out, const uint32_t *w, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        out[4 * i] = (unsigned char)(w[i] >> 24);
        out[4 * i + 1] = (unsigned char)(w[i] >> 16);
        out[4 * i + 2] = (unsigned char)(w[i] >> 8);
        out[4 * i + 3] = (unsigned char)w[i];
    }
    return 4 * n;
}

static void set_len(unsigned char *pdu, size_t len)
{
    pdu[0] = (unsigned char)(len >> 24);
    pdu[1] = (unsigned char)(len >> 16);
    pdu[2] = (unsigned char)(len >> 8);
    pdu[3] = (unsigned char)len;
}

static void put_word(unsigned char *p, uint32_t v)
{
    words(p, &v, 1);
}

/* Decode a PDU of any type with the decoder for it; the outputs freed. */
static int decode_any(const unsigned char *pdu, size_t len)
{
    int a, b, c, sts;
    pmDesc d;
    pmID pmid, *ids = NULL;
    char *s = NULL, **names = NULL;
    int *st = NULL;
    pmInResult *ir = NULL;
    pmResult *r = NULL;
    pmLabelSet *ls = NULL;
    pmProfile *p = NULL;
    pmInDom indom;
    pmHighResResult *hr = NULL;
    pmDesc descs[8];
    uint32_t info;

    if (len < PDU_HDR_LEN)
        return PM_ERR_IPC;
    switch (pdu_type(pdu)) {
    case PDU_ERROR:
        if (len == PDU_HDR_LEN + 8)
            return pdu_dec_greeting(pdu, len, &a, &info);
        return pdu_dec_error(pdu, len, &a);
    case PDU_HIGHRES_RESULT:
        sts = pdu_dec_highres_result(pdu, len, &hr);
        pmFreeHighResResult(hr);
        return sts;
    case PDU_DESCS:
        /* as many as the PDU claims, when that fits the array */
        a = len >= 16 ? (int)pdu_get32(pdu + 12) : 0;
        return pdu_dec_descs(pdu, len, a >= 0 && a <= 8 ? a : 8, descs);
    case PDU_CREDS:
        return pdu_dec_creds(pdu, len, &a, &b);
    case PDU_DESC:
        return pdu_dec_desc(pdu, len, &d);
    case PDU_DESC_REQ:
        return pdu_dec_desc_req(pdu, len, &pmid);
    case PDU_TEXT_REQ:
        return pdu_dec_text_req(pdu, len, &a, &b);
    case PDU_LABEL_REQ:
        return pdu_dec_label_req(pdu, len, &a, &b);
    case PDU_TEXT:
        sts = pdu_dec_text(pdu, len, &s);
        break;
    case PDU_ATTR:
        sts = pdu_dec_attr(pdu, len, &a, &s, &b);
        break;
    case PDU_INSTANCE_REQ:
        sts = pdu_dec_instance_req(pdu, len, &indom, &a, &s);
        break;
    case PDU_PMNS_CHILD:
    case PDU_PMNS_TRAVERSE:
        sts = pdu_dec_name_req(pdu, len, &a, &s);
        break;
    case PDU_INSTANCE:
        sts = pdu_dec_instance(pdu, len, &ir);
        __pmFreeInResult(ir);
        return sts;
    case PDU_RESULT:
        sts = pdu_dec_result(pdu, len, &r);
        pdu_free_result(r);
        return sts;
    case PDU_PMNS_IDS:
        sts = pdu_dec_pmns_ids(pdu, len, &a, &b, &ids);
        free(ids);
        return sts;
    case PDU_FETCH:
        sts = pdu_dec_fetch(pdu, len, &a, &b, &ids);
        free(ids);
        return sts;
    case PDU_PMNS_NAMES:
        sts = pdu_dec_pmns_names(pdu, len, &a, &names, &st);
        free(names);
        free(st);
        return sts;
    case PDU_LABEL:
        sts = pdu_dec_label(pdu, len, &a, &b, &ls, &c);
        pmFreeLabelSets(ls, c);
        return sts;
    case PDU_PROFILE:
        sts = pdu_dec_profile(pdu, len, &a, &p);
        free(p);
        return sts;
    default:
        return PM_ERR_IPC;
    }
    free(s);
    return sts;
}

/* Every prefix of a good PDU, with its length field told the truth and
 * left lying, must be refused; the whole PDU must decode. */
static void check_truncations(const unsigned char *pdu, size_t len)
{
    unsigned char *copy = malloc(len);

    assert_int_equal(decode_any(pdu, len), 0);
    for (size_t n = 0; n < len; n++) {
        /* each prefix in a buffer of exactly its size, so ASan sees over-reads */
        unsigned char *p = malloc(n > 0 ? n : 1);
        memcpy(p, pdu, n);
        assert_int_equal(decode_any(p, n), PM_ERR_IPC); /* the header claims len */
        if (n >= PDU_HDR_LEN) {
            set_len(p, n);
            (void)decode_any(p, n); /* may be a shorter valid PDU: no crash */
        }
        free(p);
    }
    /* every byte flipped: decoded or refused, never out of bounds */
    for (size_t i = PDU_HDR_LEN; i < len; i++) {
        memcpy(copy, pdu, len);
        copy[i] ^= 0xff;
        (void)decode_any(copy, len);
        copy[i] = 0x80;
        (void)decode_any(copy, len);
    }
    free(copy);
}

static void check_buf(const pdu_buf *b)
{
    assert_int_equal(b->err, 0);
    assert_int_equal(pdu_get32(b->data), b->len);
    assert_int_equal(
        b->len % 4 == 0 || pdu_type(b->data) == PDU_LABEL || pdu_type(b->data) == PDU_ATTR, 1);
    check_truncations(b->data, b->len);
}

static void assert_bytes(const pdu_buf *b, const uint32_t *w, size_t nw, const char *tail,
                         size_t ntail)
{
    unsigned char want[512];
    size_t n = words(want, w, nw);

    if (ntail > 0)
        memcpy(want + n, tail, ntail);
    assert_int_equal(b->len, n + ntail);
    assert_memory_equal(b->data, want, b->len);
}

/* ------------------------------------------------------------------ */
/* Round trips and Debian's bytes */

static void test_small(void **state)
{
    pdu_buf b = {0};
    int a, c, code;
    pmID pmid;
    pmDesc d = {0x3f400804, PM_TYPE_U32, 0x3f400001, PM_SEM_INSTANT, {0}}, d2;

    (void)state;
    pdu_enc_error(&b, PM_ERR_PMID);
    check_buf(&b);
    assert_int_equal(pdu_dec_error(b.data, b.len, &code), 0);
    assert_int_equal(code, PM_ERR_PMID);
    {
        const uint32_t w[] = {16, PDU_ERROR, 0, 0xffffcfba}; /* simple, 253.9.9 */
        assert_bytes(&b, w, 4, NULL, 0);
    }

    pdu_enc_creds(&b, 4242, PDU_VERSION, 0);
    check_buf(&b);
    assert_int_equal(pdu_dec_creds(b.data, b.len, &a, &c), 0);
    assert_int_equal(a, 2);
    assert_int_equal(c, 0);
    {
        const uint32_t w[] = {20, PDU_CREDS, 4242, 1, 0x01020000};
        assert_bytes(&b, w, 5, NULL, 0);
    }

    pdu_enc_desc(&b, &d);
    check_buf(&b);
    assert_int_equal(pdu_dec_desc(b.data, b.len, &d2), 0);
    assert_memory_equal(&d, &d2, sizeof(d));
    {
        const uint32_t w[] = {32, PDU_DESC, 0, 0x3f400804, 1, 0x3f400001, 3, 0};
        assert_bytes(&b, w, 8, NULL, 0);
    }

    pdu_enc_desc_req(&b, 0x3f400000);
    check_buf(&b);
    assert_int_equal(pdu_dec_desc_req(b.data, b.len, &pmid), 0);
    assert_int_equal(pmid, 0x3f400000);

    pdu_enc_text_req(&b, 0x3f400001, PM_TEXT_PMID | PM_TEXT_ONELINE);
    check_buf(&b);
    assert_int_equal(pdu_dec_text_req(b.data, b.len, &a, &c), 0);
    assert_int_equal(a, 0x3f400001);
    assert_int_equal(c, 5);

    pdu_enc_label_req(&b, -1, PM_LABEL_DOMAIN);
    check_buf(&b);
    assert_int_equal(pdu_dec_label_req(b.data, b.len, &a, &c), 0);
    assert_int_equal(a, -1);
    assert_int_equal(c, PM_LABEL_DOMAIN);
    pdu_buf_free(&b);
}

static void test_text_and_attr(void **state)
{
    pdu_buf b = {0};
    char *s;
    int a, n;

    (void)state;
    pdu_enc_text(&b, 0x3f400000, "Instance domain \"colour\" for simple PMDA");
    check_buf(&b);
    assert_int_equal(pdu_dec_text(b.data, b.len, &s), 0);
    assert_string_equal(s, "Instance domain \"colour\" for simple PMDA");
    free(s);
    /* the ident in host order, as Debian's agent sent it (little-endian here) */
    if (*(const unsigned char *)&(const uint16_t){1} == 1) {
        const uint32_t w[] = {60, PDU_TEXT, 0, 0x0000403f, 40};
        assert_bytes(&b, w, 5, "Instance domain \"colour\" for simple PMDA", 40);
    }

    /* ATTR as dbpmda sent it: "root" and its NUL, no filler (length 21) */
    pdu_enc_attr(&b, PMDA_ATTR_USERNAME, "root", 5);
    check_buf(&b);
    {
        const uint32_t w[] = {21, PDU_ATTR, 0, 5};
        assert_bytes(&b, w, 4, "root", 5);
    }
    assert_int_equal(pdu_dec_attr(b.data, b.len, &a, &s, &n), 0);
    assert_int_equal(a, 5);
    assert_int_equal(n, 5);
    assert_string_equal(s, "root");
    free(s);
    pdu_buf_free(&b);
}

static void test_instance(void **state)
{
    pdu_buf b = {0};
    int inst[] = {0, 1, 2};
    char *nm[] = {"red", "green", "blue"};
    pmInResult all = {0x3f400000, 3, inst, nm}, byid = {0x3f400000, 1, NULL, nm + 1};
    pmInResult byname = {0x3f400000, 1, inst + 1, NULL}, *r;
    pmInDom indom;
    char *name;
    int i;

    (void)state;
    pdu_enc_instance(&b, &all);
    check_buf(&b);
    {
        /* simple's answer to "instance 253.0" */
        const uint32_t w[] = {
            60, PDU_INSTANCE, 0,          0x3f400000, 3, 0,         3, 0x7265647e, 1,
            5,  0x67726565,   0x6e7e7e7e, 2,          4, 0x626c7565};
        assert_bytes(&b, w, 15, NULL, 0);
    }
    assert_int_equal(pdu_dec_instance(b.data, b.len, &r), 0);
    assert_int_equal(r->numinst, 3);
    assert_int_equal(r->instlist[2], 2);
    assert_string_equal(r->namelist[1], "green");
    __pmFreeInResult(r);

    pdu_enc_instance(&b, &byid);
    check_buf(&b);
    {
        const uint32_t w[] = {36, PDU_INSTANCE, 0,         0x3f400000, 1, 0xffffffff,
                              5,  0x67726565,   0x6e7e7e7e};
        assert_bytes(&b, w, 9, NULL, 0);
    }
    pdu_enc_instance(&b, &byname);
    check_buf(&b);
    {
        const uint32_t w[] = {28, PDU_INSTANCE, 0, 0x3f400000, 1, 1, 0};
        assert_bytes(&b, w, 7, NULL, 0);
    }

    pdu_enc_instance_req(&b, 0x3f400000, -1, "green");
    check_buf(&b);
    {
        const uint32_t w[] = {40, PDU_INSTANCE_REQ, 0, 0x3f400000, 0,
                              0,  0xffffffff,       5, 0x67726565, 0x6e7e7e7e};
        assert_bytes(&b, w, 10, NULL, 0);
    }
    assert_int_equal(pdu_dec_instance_req(b.data, b.len, &indom, &i, &name), 0);
    assert_int_equal(i, -1);
    assert_string_equal(name, "green");
    free(name);
    pdu_enc_instance_req(&b, 0x3f400000, 77, NULL);
    check_buf(&b);
    assert_int_equal(pdu_dec_instance_req(b.data, b.len, &indom, &i, &name), 0);
    assert_int_equal(i, 77);
    assert_null(name);
    pdu_buf_free(&b);
}

static void test_profile_fetch(void **state)
{
    pdu_buf b = {0};
    int in0[] = {1}, in1[] = {4, 5, 6};
    pmInDomProfile e[] = {{0x3f400000, PM_PROFILE_EXCLUDE, 1, in0},
                          {0x3f400001, PM_PROFILE_INCLUDE, 3, in1},
                          {0x3f400002, PM_PROFILE_EXCLUDE, 0, NULL}};
    pmProfile prof = {PM_PROFILE_INCLUDE, 3, e}, *p;
    pmID ids[] = {0x3f400000, 0x3f400001, 0x3f400804, 0x3f402409}, *got;
    int ctx, n;

    (void)state;
    pdu_enc_profile(&b, 7, &prof);
    check_buf(&b);
    assert_int_equal(b.len, 28 + 16 * 3 + 4 * 4);
    assert_int_equal(pdu_dec_profile(b.data, b.len, &ctx, &p), 0);
    assert_int_equal(ctx, 7);
    assert_int_equal(p->profile_len, 3);
    assert_int_equal(p->profile[1].instances[2], 6);
    assert_int_equal(p->profile[0].state, PM_PROFILE_EXCLUDE);
    assert_null(p->profile[2].instances);
    free(p);
    {
        /* dbpmda's after "profile 253.0 none; add 1" */
        const uint32_t w[] = {48, PDU_PROFILE, 0, 0, 0, 1, 0, 0x3f400000, 1, 1, 0, 1};
        pmProfile one = {PM_PROFILE_INCLUDE, 1, e};
        pdu_enc_profile(&b, 0, &one);
        assert_bytes(&b, w, 12, NULL, 0);
    }

    pdu_enc_fetch_as(&b, PDU_FETCH, 0, 4, ids);
    check_buf(&b);
    assert_int_equal(pdu_dec_fetch(b.data, b.len, &ctx, &n, &got), 0);
    assert_int_equal(n, 4);
    assert_memory_equal(got, ids, sizeof(ids));
    free(got);
    pdu_buf_free(&b);
}

/* A value block of type t holding n payload bytes. */
static pmValueBlock *block(int t, const void *payload, size_t n)
{
    pmValueBlock *vb = calloc(1, sizeof(*vb) + n + 8);
    vb->vtype = (unsigned)t;
    vb->vlen = (unsigned)(PM_VAL_HDR_SIZE + n);
    memcpy(vb->vbuf, payload, n);
    return vb;
}

static void test_result(void **state)
{
    pdu_buf b = {0};
    uint64_t u64 = 0x0102030405060708ULL;
    double dbl = -2.5;
    float flt = 1.25f;
    pmValueSet *s0 = calloc(1, sizeof(pmValueSet) + 2 * sizeof(pmValue));
    pmValueSet *s1 = calloc(1, sizeof(pmValueSet) + 4 * sizeof(pmValue));
    pmValueSet *s2 = calloc(1, sizeof(pmValueSet)), *s3 = calloc(1, sizeof(pmValueSet));
    pmResult *r = calloc(1, sizeof(pmResult) + 3 * sizeof(pmValueSet *)), *back;

    (void)state;
    s0->pmid = 0x3cc00001;
    s0->numval = 3;
    s0->valfmt = PM_VAL_INSITU;
    for (int i = 0; i < 3; i++) {
        s0->vlist[i].inst = i;
        s0->vlist[i].value.lval = 10 * i - 7;
    }
    s1->pmid = 0x3cc00002;
    s1->numval = 5;
    s1->valfmt = PM_VAL_DPTR;
    s1->vlist[0].value.pval = block(PM_TYPE_STRING, "hello daemon", 13);
    s1->vlist[1].value.pval = block(PM_TYPE_U64, &u64, 8);
    s1->vlist[2].value.pval = block(PM_TYPE_DOUBLE, &dbl, 8);
    s1->vlist[3].value.pval = block(PM_TYPE_FLOAT, &flt, 4);
    s1->vlist[4].value.pval = block(PM_TYPE_AGGREGATE, "\1\2\3", 3);
    for (int i = 0; i < 5; i++)
        s1->vlist[i].inst = PM_IN_NULL;
    s2->pmid = 0x3cc00008;
    s2->numval = 0;
    s3->pmid = 0x3cc00009;
    s3->numval = PM_ERR_VALUE;
    r->timestamp.tv_sec = PMCD_LABEL_CHANGE | PMCD_NAMES_CHANGE;
    r->numpmid = 4;
    r->vset[0] = s0;
    r->vset[1] = s1;
    r->vset[2] = s2;
    r->vset[3] = s3;
    pdu_enc_result(&b, r);
    check_buf(&b);
    {
        /* daemon_agent.c's values as Debian's libpcp_pmda put them (the
         * blocks' offsets are in words from the start of the PDU) */
        const uint32_t w[] = {
            188,        PDU_RESULT, 0,          0x18,       0,          4,          0x3cc00001,
            3,          0,          0,          0xfffffff9, 1,          3,          2,
            13,         0x3cc00002, 5,          1,          0xffffffff, 32,         0xffffffff,
            37,         0xffffffff, 40,         0xffffffff, 43,         0xffffffff, 45,
            0x3cc00008, 0,          0x3cc00009, 0xffffcfc1, 0x06000011, 0x68656c6c, 0x6f206461,
            0x656d6f6e, 0x007e7e7e, 0x0300000c, 0x01020304, 0x05060708, 0x0500000c, 0xc0040000,
            0,          0x04000008, 0x3fa00000, 0x07000007, 0x0102037e};
        assert_bytes(&b, w, sizeof(w) / 4, NULL, 0);
    }
    assert_int_equal(pdu_dec_result(b.data, b.len, &back), 0);
    assert_int_equal(back->numpmid, 4);
    assert_int_equal(back->timestamp.tv_sec, 0x18);
    assert_int_equal(back->vset[0]->vlist[0].value.lval, -7);
    assert_int_equal(back->vset[1]->valfmt, PM_VAL_DPTR);
    assert_string_equal(back->vset[1]->vlist[0].value.pval->vbuf, "hello daemon");
    assert_memory_equal(back->vset[1]->vlist[1].value.pval->vbuf, &u64, 8);
    assert_memory_equal(back->vset[1]->vlist[2].value.pval->vbuf, &dbl, 8);
    assert_memory_equal(back->vset[1]->vlist[3].value.pval->vbuf, &flt, 4);
    assert_int_equal(back->vset[1]->vlist[4].value.pval->vlen, 7);
    assert_int_equal(back->vset[2]->numval, 0);
    assert_int_equal(back->vset[3]->numval, PM_ERR_VALUE);
    pdu_free_result(back);

    /* a block offset pointing into the value sets, or at the header */
    {
        unsigned char *p = malloc(b.len);
        memcpy(p, b.data, b.len);
        put_word(p + 4 * 19, 3); /* first DPTR value -> the header */
        assert_int_equal(pdu_dec_result(p, b.len, &back), PM_ERR_IPC);
        put_word(p + 4 * 19, 20); /* -> inside the value sets */
        assert_int_equal(pdu_dec_result(p, b.len, &back), PM_ERR_IPC);
        put_word(p + 4 * 19, 0x3fffffff); /* -> far past the end */
        assert_int_equal(pdu_dec_result(p, b.len, &back), PM_ERR_IPC);
        memcpy(p, b.data, b.len);
        put_word(p + 4 * 32, 0x06ffffff); /* vlen past the end */
        assert_int_equal(pdu_dec_result(p, b.len, &back), PM_ERR_IPC);
        put_word(p + 4 * 32, 0x06000002); /* vlen below the header */
        assert_int_equal(pdu_dec_result(p, b.len, &back), PM_ERR_IPC);
        memcpy(p, b.data, b.len);
        put_word(p + 4 * 5, 0x7fffffff); /* numpmid */
        assert_int_equal(pdu_dec_result(p, b.len, &back), PM_ERR_IPC);
        memcpy(p, b.data, b.len);
        put_word(p + 4 * 7, 0x20000000); /* numval of the first set */
        assert_int_equal(pdu_dec_result(p, b.len, &back), PM_ERR_IPC);
        memcpy(p, b.data, b.len);
        put_word(p + 4 * 8, 7); /* valfmt */
        assert_int_equal(pdu_dec_result(p, b.len, &back), PM_ERR_IPC);
        free(p);
    }
    pdu_free_result(r);
    pdu_buf_free(&b);
}

/* ------------------------------------------------------------------ */
/* The client's side: what only a client of pmcd sends or reads */

static void test_client(void **state)
{
    /* pmcd's greeting, as captured: accepted, version 2, features 0x0e44 */
    const uint32_t greet[] = {20, PDU_ERROR, 0, 0, 0x02010e44};
    /* a HIGHRES_RESULT for simple.color and trivial.time, as captured */
    const uint32_t hres[] = {100,        PDU_HIGHRES_RESULT,
                             0,          2,
                             0,          0x6b02335c,
                             0,          0x37c965da,
                             0x3f400001, 3,
                             0,          0,
                             2,          1,
                             0x66,       2,
                             0xca,       0x3e800000,
                             1,          1,
                             0xffffffff, 22,
                             0x0300000c, 0,
                             0x6b02335c};
    /* DESCS: trivial.time's descriptor (captured) and a failed entry */
    const uint32_t dsc[] = {56, PDU_DESCS,  0,          2, 0x3e800000, 3, 0xffffffff,
                            1,  0x01003000, 0xffffffff, 0, 0,          0, 0};
    unsigned char pdu[128];
    pmHighResResult *hr;
    pmDesc d[2];
    pmID ids[2] = {0x3f400001, 0x3e800000};
    uint32_t info;
    uint64_t v;
    int code;
    size_t n;
    pdu_buf b = {0};

    (void)state;
    n = words(pdu, greet, 5);
    assert_int_equal(pdu_dec_greeting(pdu, n, &code, &info), 0);
    assert_int_equal(code, 0);
    assert_int_equal(info, 0x02010e44);
    check_truncations(pdu, n);
    set_len(pdu, 16); /* the plain ERROR is not a greeting */
    assert_int_equal(pdu_dec_greeting(pdu, 16, &code, &info), PM_ERR_IPC);
    n = words(pdu, greet, 5);
    put_word(pdu + 4, PDU_TEXT);
    assert_int_equal(pdu_dec_greeting(pdu, n, &code, &info), PM_ERR_IPC);

    n = words(pdu, hres, sizeof(hres) / 4);
    assert_int_equal(pdu_dec_highres_result(pdu, n, &hr), 0);
    assert_int_equal(hr->numpmid, 2);
    assert_int_equal(hr->timestamp.tv_sec, 0x6b02335c);
    assert_int_equal(hr->timestamp.tv_nsec, 0x37c965da);
    assert_int_equal(hr->vset[0]->numval, 3);
    assert_int_equal(hr->vset[0]->vlist[2].value.lval, 202);
    assert_int_equal(hr->vset[1]->valfmt, PM_VAL_DPTR);
    assert_int_equal(hr->vset[1]->vlist[0].value.pval->vtype, PM_TYPE_U64);
    memcpy(&v, hr->vset[1]->vlist[0].value.pval->vbuf, 8);
    assert_int_equal(v, 1795306332);
    pmFreeHighResResult(hr);
    check_truncations(pdu, n);
    put_word(pdu + 4 * 21, 3); /* the block at the header */
    assert_int_equal(pdu_dec_highres_result(pdu, n, &hr), PM_ERR_IPC);
    put_word(pdu + 4 * 21, 22);
    put_word(pdu + 4 * 3, 0x7fffffff); /* numpmid */
    assert_int_equal(pdu_dec_highres_result(pdu, n, &hr), PM_ERR_IPC);

    n = words(pdu, dsc, sizeof(dsc) / 4);
    assert_int_equal(pdu_dec_descs(pdu, n, 2, d), 0);
    assert_int_equal(d[0].pmid, 0x3e800000);
    assert_int_equal(d[0].type, PM_TYPE_U64);
    assert_int_equal(d[0].sem, PM_SEM_COUNTER);
    assert_int_equal(d[0].units.dimTime, 1);
    assert_int_equal(d[0].units.scaleTime, PM_TIME_SEC);
    assert_int_equal(d[1].pmid, PM_ID_NULL);
    assert_int_equal(pdu_dec_descs(pdu, n, 3, d), PM_ERR_IPC); /* not what was asked */
    check_truncations(pdu, n);

    {
        const uint32_t w[] = {28, PDU_DESC_IDS, 0, 0xffffffff, 2, 0x3f400001, 0x3e800000};
        pdu_enc_desc_ids(&b, 2, ids);
        assert_bytes(&b, w, sizeof(w) / 4, NULL, 0);
    }
    {
        const uint32_t w[] = {36, PDU_HIGHRES_FETCH, 7, 3, 0, 0, 2, 0x3f400001, 0x3e800000};
        pdu_enc_fetch_as(&b, PDU_HIGHRES_FETCH, 3, 2, ids);
        pdu_set_from(&b, 7);
        assert_bytes(&b, w, sizeof(w) / 4, NULL, 0);
    }
    pdu_buf_free(&b);
}

static void test_names(void **state)
{
    pdu_buf b = {0};
    char *kids[] = {"b", "a"}, *one[] = {"dmn.dyn.b.c"}, **got, *name;
    int st[] = {1, 0}, *gst, n, sts;
    pmID ids[] = {0x3cc00802}, *gids;

    (void)state;
    pdu_enc_pmns_names(&b, 2, kids, st);
    check_buf(&b);
    {
        /* daemon_agent.c's children of dmn.dyn, with status */
        const uint32_t w[] = {48, PDU_PMNS_NAMES, 0, 4, 2, 2, 1, 1, 0x627e7e7e, 0, 1, 0x617e7e7e};
        assert_bytes(&b, w, 12, NULL, 0);
    }
    assert_int_equal(pdu_dec_pmns_names(b.data, b.len, &n, &got, &gst), 0);
    assert_int_equal(n, 2);
    assert_string_equal(got[1], "a");
    assert_int_equal(gst[0], 1);
    free(got);
    free(gst);

    pdu_enc_pmns_names(&b, 1, one, NULL);
    check_buf(&b);
    assert_int_equal(pdu_dec_pmns_names(b.data, b.len, &n, &got, &gst), 0);
    assert_null(gst);
    assert_string_equal(got[0], "dmn.dyn.b.c");
    free(got);

    pdu_enc_pmns_names(&b, 0, NULL, NULL); /* a leaf's children */
    check_buf(&b);
    assert_int_equal(b.len, 24);

    pdu_enc_pmns_ids(&b, 0, 1, ids);
    check_buf(&b);
    assert_int_equal(pdu_dec_pmns_ids(b.data, b.len, &sts, &n, &gids), 0);
    assert_int_equal(gids[0], 0x3cc00802);
    free(gids);

    pdu_enc_name_req(&b, PDU_PMNS_CHILD, 1, "dmn.dyn");
    check_buf(&b);
    {
        const uint32_t w[] = {28, PDU_PMNS_CHILD, 0, 1, 7, 0x646d6e2e, 0x64796e7e};
        assert_bytes(&b, w, 7, NULL, 0);
    }
    assert_int_equal(pdu_dec_name_req(b.data, b.len, &sts, &name), 0);
    assert_string_equal(name, "dmn.dyn");
    free(name);
    pdu_enc_name_req(&b, PDU_PMNS_TRAVERSE, 0, ""); /* the root */
    check_buf(&b);
    assert_int_equal(b.len, 20);

    /* an empty name, and a status count that is not the name count */
    {
        const uint32_t e[] = {28, PDU_PMNS_NAMES, 0, 1, 0, 1, 0};
        const uint32_t m[] = {32, PDU_PMNS_NAMES, 0, 2, 1, 2, 1, 0x617e7e7e};
        unsigned char p[64];
        assert_int_equal(pdu_dec_pmns_names(p, words(p, e, 7), &n, &got, &gst), PM_ERR_IPC);
        assert_int_equal(pdu_dec_pmns_names(p, words(p, m, 8), &n, &got, &gst), PM_ERR_IPC);
    }
    pdu_buf_free(&b);
}

static void test_labels(void **state)
{
    pdu_buf b = {0};
    pmLabelSet *set = NULL, *sets, *got;
    int ident, type, n;

    (void)state;
    assert_int_equal(pmdaAddLabels(&set, "{\"role\":\"testing\"}"), 1);
    pmdaAddLabelFlags(set, PM_LABEL_DOMAIN);
    pdu_enc_label(&b, -1, PM_LABEL_DOMAIN, set, 1);
    check_buf(&b);
    {
        /* simple's domain labels: JSON offset from the PDU's start, unpadded */
        const uint32_t w[] = {70,         PDU_LABEL, 0,  0xffffffff, 2,          0,         1,
                              0xffffffff, 1,         52, 18,         0x00020402, 0x00080009};
        assert_bytes(&b, w, 13, "{\"role\":\"testing\"}", 18);
    }
    assert_int_equal(pdu_dec_label(b.data, b.len, &ident, &type, &got, &n), 0);
    assert_int_equal(n, 1);
    assert_int_equal(got->nlabels, 1);
    assert_int_equal(got->labels[0].flags, PM_LABEL_DOMAIN);
    assert_string_equal(got->json, "{\"role\":\"testing\"}");
    pmFreeLabelSets(got, n);
    pmFreeLabelSets(set, 1);

    /* instances without labels: empty sets, their JSON at the end */
    sets = calloc(3, sizeof(*sets));
    for (int i = 0; i < 3; i++)
        sets[i].inst = (unsigned)i;
    pdu_enc_label(&b, 0x3f400000, PM_LABEL_INSTANCES, sets, 3);
    check_buf(&b);
    {
        const uint32_t w[] = {76, PDU_LABEL, 0, 0x3f400000, 0x20, 0, 3, 0,  0, 76,
                              0,  1,         0, 76,         0,    2, 0, 76, 0};
        assert_bytes(&b, w, 19, NULL, 0);
    }
    free(sets);
    pdu_enc_label(&b, 0x3f400000, PM_LABEL_CLUSTER, NULL, 0);
    check_buf(&b);
    assert_int_equal(b.len, 28);
    pdu_buf_free(&b);
}

/* ------------------------------------------------------------------ */
/* Hostile PDUs built by hand */

static void test_hostile(void **state)
{
    unsigned char p[256];
    int a, b, n;
    char *s;
    pmID *ids;
    pmProfile *prof;
    pmLabelSet *ls;

    (void)state;
    /* the header's length is not the bytes we have */
    {
        const uint32_t w[] = {17, PDU_ERROR, 0, 0};
        assert_int_equal(pdu_dec_error(p, words(p, w, 4), &a), PM_ERR_IPC);
    }
    /* CREDS: no credentials, too many, a count the length does not match,
     * no version credential */
    {
        const uint32_t w0[] = {16, PDU_CREDS, 0, 0};
        const uint32_t w1[] = {20, PDU_CREDS, 0, 2000, 0x01020000};
        const uint32_t w2[] = {24, PDU_CREDS, 0, 1, 0x01020000, 0};
        const uint32_t w3[] = {20, PDU_CREDS, 0, 1, 0x02020000};
        assert_int_equal(pdu_dec_creds(p, words(p, w0, 4), &a, &b), PM_ERR_IPC);
        assert_int_equal(pdu_dec_creds(p, words(p, w1, 5), &a, &b), PM_ERR_IPC);
        assert_int_equal(pdu_dec_creds(p, words(p, w2, 6), &a, &b), PM_ERR_IPC);
        assert_int_equal(pdu_dec_creds(p, words(p, w3, 5), &a, &b), PM_ERR_IPC);
    }
    /* strings longer than the PDU, or whose filler runs past it */
    {
        const uint32_t w0[] = {24, PDU_PMNS_CHILD, 0, 0, 0x7fffffff, 0x41414141};
        const uint32_t w1[] = {24, PDU_PMNS_CHILD, 0, 0, 0xffffffff, 0x41414141};
        const uint32_t w2[] = {24, PDU_PMNS_CHILD, 0, 0, 5, 0x41414141};
        assert_int_equal(pdu_dec_name_req(p, words(p, w0, 6), &a, &s), PM_ERR_IPC);
        assert_int_equal(pdu_dec_name_req(p, words(p, w1, 6), &a, &s), PM_ERR_IPC);
        assert_int_equal(pdu_dec_name_req(p, words(p, w2, 6), &a, &s), PM_ERR_IPC);
    }
    /* counts that overflow what the PDU could hold */
    {
        const uint32_t f0[] = {32, PDU_FETCH, 0, 0, 0, 0, 0x40000001, 1};
        const uint32_t f1[] = {32, PDU_FETCH, 0, 0, 0, 0, 0xffffffff, 1};
        const uint32_t i0[] = {24, PDU_PMNS_IDS, 0, 0, 0x3fffffff, 0};
        const uint32_t p0[] = {44, PDU_PROFILE, 0, 0, 0, 0x10000001, 0, 1, 0, 1, 0};
        const uint32_t p1[] = {48, PDU_PROFILE, 0, 0, 0, 1, 0, 1, 0, 0x7fffffff, 0, 1};
        const uint32_t p2[] = {48, PDU_PROFILE, 0, 0, 0, 1, 0, 1, 0, 0x80000000, 0, 1};
        const uint32_t l0[] = {28, PDU_LABEL, 0, 0, 0, 0, 0x7fffffff};
        const uint32_t l1[] = {44, PDU_LABEL, 0, 0, 0, 0, 1, 0, 0, 0xfffffff0, 0x20};
        const uint32_t l2[] = {52, PDU_LABEL, 0, 0, 0, 0, 1, 0, 1, 44, 8, 0x00ff0500, 0};
        assert_int_equal(pdu_dec_fetch(p, words(p, f0, 8), &a, &n, &ids), PM_ERR_IPC);
        free(ids);
        assert_int_equal(pdu_dec_fetch(p, words(p, f1, 8), &a, &n, &ids), PM_ERR_IPC);
        free(ids);
        assert_int_equal(pdu_dec_pmns_ids(p, words(p, i0, 6), &a, &n, &ids), PM_ERR_IPC);
        free(ids);
        assert_int_equal(pdu_dec_profile(p, words(p, p0, 11), &a, &prof), PM_ERR_IPC);
        assert_int_equal(pdu_dec_profile(p, words(p, p1, 12), &a, &prof), PM_ERR_IPC);
        assert_int_equal(pdu_dec_profile(p, words(p, p2, 12), &a, &prof), PM_ERR_IPC);
        assert_int_equal(pdu_dec_label(p, words(p, l0, 7), &a, &b, &ls, &n), PM_ERR_IPC);
        assert_int_equal(pdu_dec_label(p, words(p, l1, 11), &a, &b, &ls, &n), PM_ERR_IPC);
        /* a label whose name runs past its JSON */
        assert_int_equal(pdu_dec_label(p, words(p, l2, 13), &a, &b, &ls, &n), PM_ERR_IPC);
    }
}

/* pdu_read on a pipe: good, short, lying, huge, negative type, EOF. */
static int read_bytes(const unsigned char *bytes, size_t n)
{
    int fd[2], sts;
    unsigned char *buf = NULL;
    size_t cap = 0;

    assert_int_equal(pipe(fd), 0);
    assert_int_equal(write(fd[1], bytes, n), (ssize_t)n);
    close(fd[1]);
    sts = pdu_read(fd[0], &buf, &cap);
    close(fd[0]);
    free(buf);
    return sts;
}

static void test_read(void **state)
{
    unsigned char p[64];

    (void)state;
    {
        const uint32_t w[] = {16, PDU_DESC_REQ, 0, 0x3f400000};
        assert_int_equal(read_bytes(p, words(p, w, 4)), 16);
        assert_int_equal(read_bytes(p, 15), PM_ERR_IPC); /* body cut short */
        assert_int_equal(read_bytes(p, 7), PM_ERR_IPC);  /* header cut short */
    }
    assert_int_equal(read_bytes(p, 0), PM_ERR_EOF);
    {
        const uint32_t w0[] = {8, PDU_DESC_REQ, 0, 0};
        const uint32_t w1[] = {PDU_MAX_LEN + 1, PDU_DESC_REQ, 0, 0};
        const uint32_t w2[] = {0xfffffff0, PDU_DESC_REQ, 0, 0};
        const uint32_t w3[] = {16, 0x80007004, 0, 0};
        assert_int_equal(read_bytes(p, words(p, w0, 4)), PM_ERR_IPC);
        assert_int_equal(read_bytes(p, words(p, w1, 4)), PM_ERR_IPC);
        assert_int_equal(read_bytes(p, words(p, w2, 4)), PM_ERR_IPC);
        assert_int_equal(read_bytes(p, words(p, w3, 4)), PM_ERR_IPC);
    }
}

/* ------------------------------------------------------------------ */
/* Dispatch: __pmdaMainPDU against a small agent over a socketpair */

static pmdaInstid insts[] = {{0, "zero"}, {1, "one"}};
static pmdaIndom indoms[] = {{0, 2, insts}};
static pmdaMetric metrics[] = {
    {NULL,
     {PMDA_PMID(0, 0), PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT, PMDA_PMUNITS(0, 0, 0, 0, 0, 0)}},
    {NULL, {PMDA_PMID(0, 1), PM_TYPE_STRING, 0, PM_SEM_INSTANT, PMDA_PMUNITS(0, 0, 0, 0, 0, 0)}},
};
static int ended = -2, dones, refuse;

static int fetch_cb(pmdaMetric *m, unsigned int inst, pmAtomValue *a)
{
    if (pmID_item(m->m_desc.pmid) == 0)
        a->ul = 42;
    else
        a->cp = inst == 0 ? "zero" : "one";
    return 1;
}
static void end_cb(int ctx)
{
    ended = ctx;
}
static void done_cb(void)
{
    dones++;
}
static int check_cb(void)
{
    return refuse ? PM_ERR_AGAIN : 0;
}
/* takes every profile as pmdaProfile does, then refuses it while refuse */
static int profile_cb(pmProfile *prof, pmdaExt *pmda)
{
    pmdaProfile(prof, pmda);
    return refuse ? PM_ERR_AGAIN : 0;
}

/* Free what pmdaDaemon and pmdaInit allocated (agents never do: their
 * pmdaExt lives as long as they do), so that LeakSanitizer sees ours. */
static void release(pmdaInterface *dp)
{
    pmdaExt *pmda = dp->version.any.ext;
    pmda_priv *priv = pmda_priv_of(pmda);

    free(priv->res);
    free(priv->sorted);
    free(priv);
    free(pmda);
}

struct rig {
    pmdaInterface dp;
    int peer; /* pmcd's end */
};

static int rig_setup(void **state)
{
    struct rig *g = calloc(1, sizeof(*g));
    int sv[2];

    pmdaDaemon(&g->dp, PMDA_INTERFACE_7, "unit", 29, NULL, NULL);
    pmdaSetFetchCallBack(&g->dp, fetch_cb);
    pmdaSetEndContextCallBack(&g->dp, end_cb);
    pmdaSetDoneCallBack(&g->dp, done_cb);
    pmdaSetCheckCallBack(&g->dp, check_cb);
    pmdaInit(&g->dp, indoms, 1, metrics, 2);
    g->dp.version.any.profile = profile_cb;
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    /* what pmdaConnect would have set up */
    g->dp.version.any.ext->e_infd = g->dp.version.any.ext->e_outfd = sv[0];
    g->peer = sv[1];
    *state = g;
    return 0;
}

static int rig_teardown(void **state)
{
    struct rig *g = *state;

    close(g->dp.version.any.ext->e_infd);
    close(g->peer);
    release(&g->dp);
    free(g);
    return 0;
}

/* Send b as from ctx, run one PDU, return the reply's length in *reply. */
static int roundtrip(struct rig *g, pdu_buf *b, int ctx, unsigned char **reply, size_t *cap)
{
    put_word(b->data + 8, (uint32_t)ctx);
    assert_int_equal(pdu_write(g->peer, b), 0);
    assert_int_equal(__pmdaMainPDU(&g->dp), 0);
    return pdu_read(g->peer, reply, cap);
}

static void test_dispatch(void **state)
{
    struct rig *g = *state;
    pdu_buf b = {0};
    unsigned char *r = NULL;
    size_t cap = 0;
    pmDesc d;
    pmResult *res;
    pmID ids[] = {pmID_build(29, 0, 0), pmID_build(29, 0, 1), pmID_build(29, 9, 9)};
    int len, code;

    pdu_enc_desc_req(&b, ids[1]);
    len = roundtrip(g, &b, 3, &r, &cap);
    assert_int_equal(pdu_type(r), PDU_DESC);
    assert_int_equal(pdu_dec_desc(r, (size_t)len, &d), 0);
    assert_int_equal(d.type, PM_TYPE_STRING);
    assert_int_equal(g->dp.version.any.ext->e_context, 3);

    pdu_enc_fetch_as(&b, PDU_FETCH, 0, 3, ids);
    len = roundtrip(g, &b, 3, &r, &cap);
    assert_int_equal(pdu_type(r), PDU_RESULT);
    assert_int_equal(pdu_dec_result(r, (size_t)len, &res), 0);
    assert_int_equal(res->vset[0]->vlist[0].value.lval, 42);
    assert_string_equal(res->vset[1]->vlist[1].value.pval->vbuf, "one");
    assert_int_equal(res->vset[2]->numval, PM_ERR_PMID);
    pdu_free_result(res);

    /* no reply to an unknown type or a PROFILE; the next request is answered */
    pdu_begin(&b, 0x7777, 0);
    pdu_end(&b);
    assert_int_equal(pdu_write(g->peer, &b), 0);
    assert_int_equal(__pmdaMainPDU(&g->dp), 0);
    pdu_enc_desc_req(&b, pmID_build(29, 9, 9));
    len = roundtrip(g, &b, 0, &r, &cap);
    assert_int_equal(pdu_dec_error(r, (size_t)len, &code), 0);
    assert_int_equal(code, PM_ERR_PMID);

    /* a FETCH whose count lies: refused with an error, the agent goes on */
    pdu_enc_fetch_as(&b, PDU_FETCH, 0, 3, ids);
    put_word(b.data + 24, 1000);
    len = roundtrip(g, &b, 0, &r, &cap);
    assert_int_equal(pdu_dec_error(r, (size_t)len, &code), 0);
    assert_int_equal(code, PM_ERR_IPC);

    /* a profile the agent's method takes and then refuses is not kept:
     * the agent keeps the one it had (none yet), not a pointer to freed
     * memory; one it accepts is kept */
    {
        pmProfile prof = {PM_PROFILE_INCLUDE, 0, NULL};
        pmdaExt *pmda = g->dp.version.any.ext;
        pmdaSetCheckCallBack(&g->dp, NULL); /* only the profile method refuses */
        refuse = 1;
        pdu_enc_profile(&b, 0, &prof);
        assert_int_equal(pdu_write(g->peer, &b), 0);
        assert_int_equal(__pmdaMainPDU(&g->dp), 0);
        assert_null(pmda->e_prof);
        refuse = 0;
        pdu_enc_profile(&b, 0, &prof);
        assert_int_equal(pdu_write(g->peer, &b), 0);
        assert_int_equal(__pmdaMainPDU(&g->dp), 0);
        assert_non_null(pmda->e_prof);
        assert_int_equal(pmda->e_prof->state, PM_PROFILE_INCLUDE);
        pmdaSetCheckCallBack(&g->dp, check_cb);
    }

    /* a client going away: the end-context callback with pmcd's index */
    pdu_enc_error(&b, PM_ERR_NOTCONN);
    put_word(b.data + 8, 5);
    assert_int_equal(pdu_write(g->peer, &b), 0);
    assert_int_equal(__pmdaMainPDU(&g->dp), 0);
    assert_int_equal(ended, 5);

    /* a refusing check callback answers and skips the done callback */
    refuse = 1;
    dones = 0;
    pdu_enc_desc_req(&b, ids[0]);
    len = roundtrip(g, &b, 0, &r, &cap);
    assert_int_equal(pdu_dec_error(r, (size_t)len, &code), 0);
    assert_int_equal(code, PM_ERR_AGAIN);
    assert_int_equal(dones, 0);
    refuse = 0;

    /* labels, instances, text with no help, store refused */
    pdu_enc_label_req(&b, -1, PM_LABEL_DOMAIN);
    len = roundtrip(g, &b, 0, &r, &cap);
    assert_int_equal(pdu_type(r), PDU_LABEL);
    pdu_enc_instance_req(&b, pmInDom_build(29, 0), -1, "one");
    len = roundtrip(g, &b, 0, &r, &cap);
    assert_int_equal(pdu_type(r), PDU_INSTANCE);
    pdu_enc_text_req(&b, (int)ids[0], PM_TEXT_PMID | PM_TEXT_ONELINE);
    len = roundtrip(g, &b, 0, &r, &cap);
    assert_int_equal(pdu_dec_error(r, (size_t)len, &code), 0);
    assert_int_equal(code, PM_ERR_TEXT);
    assert_int_equal(dones, 3);

    /* pmdaSendError goes out as an ERROR, and "not ready" is remembered */
    pmdaSendError(&g->dp, PM_ERR_PMDANOTREADY);
    assert_true(g->dp.version.any.ext->e_flags & PMDA_EXT_NOTREADY);
    len = pdu_read(g->peer, &r, &cap);
    assert_int_equal(pdu_dec_error(r, (size_t)len, &code), 0);
    assert_int_equal(code, PM_ERR_PMDANOTREADY);
    pmdaSendError(&g->dp, PM_ERR_PMDAREADY);
    assert_false(g->dp.version.any.ext->e_flags & PMDA_EXT_NOTREADY);
    len = pdu_read(g->peer, &r, &cap);
    assert_int_equal(pdu_dec_error(r, (size_t)len, &code), 0);

    /* EOF ends pmdaMain */
    shutdown(g->peer, SHUT_WR);
    assert_int_equal(__pmdaMainPDU(&g->dp), PM_ERR_EOF);
    pmdaMain(&g->dp);
    free(r);
    pdu_buf_free(&b);
}

/* ---- pmdaConnect on a unix socket, with a child playing pmcd ---- */

struct sock_rig {
    char path[108];
    pid_t pid;
    pmdaInterface dp;
};

/* The child: pmcd's side of one session on a connection to the agent at
 * path, its exit status 0 when all went as expected. */
static void fork_pmcd(struct sock_rig *g, const char *tag, int (*play)(int fd))
{
    snprintf(g->path, sizeof(g->path), "/tmp/pmkit_test_pdu_%s.%d.sock", tag, (int)getpid());
    unlink(g->path);
    g->pid = fork();
    assert_true(g->pid >= 0);
    if (g->pid == 0) {
        struct sockaddr_un un = {.sun_family = AF_UNIX};
        int fd = socket(AF_UNIX, SOCK_STREAM, 0);

        memcpy(un.sun_path, g->path, strlen(g->path) + 1);
        for (int i = 0; i < 100 && connect(fd, (struct sockaddr *)&un, sizeof(un)) < 0; i++)
            usleep(20000);
        _exit(play(fd));
    }
    pmdaDaemon(&g->dp, PMDA_INTERFACE_7, "unit", 29, NULL, NULL);
    pmdaSetFetchCallBack(&g->dp, fetch_cb);
    g->dp.version.any.ext->e_io = pmdaUnix;
    g->dp.version.any.ext->e_sockname = g->path;
    pmdaInit(&g->dp, indoms, 1, metrics, 2);
}

/* The child's end, which must be a success; the agent's state freed. */
static void end_pmcd(struct sock_rig *g)
{
    int status;

    assert_int_equal(waitpid(g->pid, &status, 0), g->pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    release(&g->dp);
    unlink(g->path);
}

/* CREDS both ways, one DESC_REQ answered, then end of file. */
static int play_desc(int fd)
{
    pdu_buf b = {0};
    unsigned char *r = NULL;
    size_t cap = 0;
    int v, f, len = pdu_read(fd, &r, &cap);
    pmDesc d;

    if (len < 0 || pdu_type(r) != PDU_CREDS || pdu_dec_creds(r, (size_t)len, &v, &f) < 0 || v != 2)
        return 2;
    pdu_enc_creds(&b, (int)getpid(), 2, 0);
    pdu_write(fd, &b);
    pdu_enc_desc_req(&b, pmID_build(29, 0, 0));
    pdu_write(fd, &b);
    len = pdu_read(fd, &r, &cap);
    if (len < 0 || pdu_dec_desc(r, (size_t)len, &d) < 0 || d.type != PM_TYPE_U32)
        return 3;
    return 0; /* closing: the agent sees EOF */
}

static void test_connect_unix(void **state)
{
    struct sock_rig g;

    (void)state;
    fork_pmcd(&g, "desc", play_desc);
    pmdaConnect(&g.dp);
    assert_int_equal(g.dp.status, 0);
    assert_true(g.dp.version.any.ext->e_flags & PMDA_EXT_CONNECTED);
    pmdaConnect(&g.dp); /* twice: refused */
    assert_int_equal(g.dp.status, PM_ERR_GENERIC);
    g.dp.status = 0;
    pmdaMain(&g.dp);
    close(g.dp.version.any.ext->e_infd);
    end_pmcd(&g);
}

/* The agent's CREDS refused; then its end of the connection must close. */
static int play_refuse(int fd)
{
    pdu_buf b = {0};
    unsigned char *r = NULL;
    size_t cap = 0;

    if (pdu_read(fd, &r, &cap) < 0 || pdu_type(r) != PDU_CREDS)
        return 2;
    pdu_enc_error(&b, PM_ERR_PERMISSION);
    pdu_write(fd, &b);
    return pdu_read_timed(fd, &r, &cap, 2000) == PM_ERR_EOF ? 0 : 3;
}

/* pmcd refusing the agent's CREDS: pmdaConnect fails with pmcd's code and
 * closes the connection (pmcd sees end of file at once). */
static void test_connect_refused(void **state)
{
    struct sock_rig g;

    (void)state;
    fork_pmcd(&g, "refused", play_refuse);
    pmdaConnect(&g.dp);
    assert_int_equal(g.dp.status, PM_ERR_PERMISSION);
    assert_int_equal(g.dp.version.any.ext->e_infd, -1);
    pmdaMain(&g.dp); /* as an agent goes on: ends at once, freeing its state */
    end_pmcd(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small),
        cmocka_unit_test(test_text_and_attr),
        cmocka_unit_test(test_instance),
        cmocka_unit_test(test_profile_fetch),
        cmocka_unit_test(test_result),
        cmocka_unit_test(test_client),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_labels),
        cmocka_unit_test(test_hostile),
        cmocka_unit_test(test_read),
        cmocka_unit_test_setup_teardown(test_dispatch, rig_setup, rig_teardown),
        cmocka_unit_test(test_connect_unix),
        cmocka_unit_test(test_connect_refused),
    };

    signal(SIGPIPE, SIG_IGN);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
