/*
 * pdu_api.c - PCP's PDU calls as libpcp exports them (<pcp/libpcp.h>):
 * __pmSend<PDU>(fd, from, ...) builds a PDU and sends it (the bytes sent,
 * or an error), __pmDecode<PDU>(pdubuf, ...) takes apart one __pmGetPDU
 * read (0, or PM_ERR_IPC for a PDU that does not add up).
 *
 * The bytes are pdu.c's encoders' and decoders', the ones pmkit's own
 * client and agents use and test against Debian's (unit.pdu); the few
 * PDUs those do not cover are built here.  What the caller gets is PCP's
 * (tests/oracle/probe_pdu.c): a fetch's PMID list points into the PDU
 * buffer (converted in place), as PCP's, and lives until the buffer is
 * unpinned, and so is an attribute's value; everything else is the
 * caller's own: names (one block to free), results (__pmFreeResult),
 * instances, profiles, label sets.  Not
 * here: pmlogger's PDUs, the archive encoder (__pmEncodeResult).
 */
#include "pdu.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <pcp/libpcp.h>

/* ---------------------------------------------------------------- sending */

/* Send the PDU b holds (pdu.c's form: network order throughout) from
 * sender from: the bytes sent, or an error. */
static int send_buf(int fd, int from, pdu_buf *b)
{
    __pmPDU *pb;
    __pmPDUHdr *h;
    int sts;

    if (b->err != 0) {
        sts = b->err;
        pdu_buf_free(b);
        return sts;
    }
    pdu_set_from(b, from);
    if ((pb = __pmFindPDUBuf((int)b->len)) == NULL) {
        pdu_buf_free(b);
        return -ENOMEM;
    }
    memcpy(pb, b->data, b->len);
    pdu_buf_free(b);
    h = (__pmPDUHdr *)pb;
    h->len = (int32_t)ntohl((uint32_t)h->len);
    h->type = (int32_t)ntohl((uint32_t)h->type);
    h->from = (int32_t)ntohl((uint32_t)h->from);
    sts = __pmXmitPDU(fd, pb);
    __pmUnpinPDUBuf(pb);
    return sts;
}

/* A PDU built word by word here: type, then the words of body. */
static int send_words(int fd, int type, int from, const uint32_t *body, int n)
{
    __pmPDU *pb = __pmFindPDUBuf((int)(sizeof(__pmPDUHdr) + 4 * (size_t)n));
    __pmPDUHdr *h = (__pmPDUHdr *)pb;
    int sts;

    if (pb == NULL)
        return -ENOMEM;
    h->len = (int32_t)(sizeof(__pmPDUHdr) + 4 * (size_t)n);
    h->type = type;
    h->from = from;
    for (int i = 0; i < n; i++)
        pb[3 + i] = htonl(body[i]);
    sts = __pmXmitPDU(fd, pb);
    __pmUnpinPDUBuf(pb);
    return sts;
}

int __pmSendError(int fd, int from, int code)
{
    uint32_t w = (uint32_t)code;

    return send_words(fd, PDU_ERROR, from, &w, 1);
}

/* PCP 1.x's error codes, which an extended ERROR carries: 2.x's PM_ERR_*
 * shifted from 12345 down to 1000. */
#define ERR_BASE1 1000
#define ERR_LAST  (PM_ERR_BASE + 1000)

static int err_2to1(int code)
{
    return code <= -PM_ERR_BASE && code > -ERR_LAST ? code + PM_ERR_BASE - ERR_BASE1 : code;
}

static int err_1to2(int code)
{
    return code <= -ERR_BASE1 && code > -ERR_BASE1 - 1000 ? code - PM_ERR_BASE + ERR_BASE1 : code;
}

/* An ERROR with a datum: the code as PCP 1.x numbered it, then the datum
 * in the sender's own byte order, as PCP's. */
int __pmSendXtendError(int fd, int from, int code, int datum)
{
    __pmPDU *pb = __pmFindPDUBuf((int)sizeof(__pmPDUHdr) + 8);
    __pmPDUHdr *h = (__pmPDUHdr *)pb;
    int sts;

    if (pb == NULL)
        return -ENOMEM;
    h->len = (int32_t)sizeof(__pmPDUHdr) + 8;
    h->type = PDU_ERROR;
    h->from = from;
    pb[3] = htonl((uint32_t)err_2to1(code));
    memcpy(&pb[4], &datum, sizeof(datum));
    sts = __pmXmitPDU(fd, pb);
    __pmUnpinPDUBuf(pb);
    return sts;
}

int __pmSendCreds(int fd, int from, int credcount, const __pmCred *credlist)
{
    uint32_t *w;
    int sts;

    if (credcount <= 0 || credlist == NULL)
        return PM_ERR_IPC;
    if ((w = malloc((size_t)(credcount + 1) * sizeof(*w))) == NULL)
        return -ENOMEM;
    w[0] = (uint32_t)credcount;
    for (int i = 0; i < credcount; i++)
        memcpy(&w[1 + i], &credlist[i], sizeof(uint32_t));
    sts = send_words(fd, PDU_CREDS, from, w, credcount + 1);
    free(w);
    return sts;
}

int __pmSendDesc(int fd, int from, pmDesc *desc)
{
    pdu_buf b = {0};

    pdu_enc_desc(&b, desc);
    return send_buf(fd, from, &b);
}

int __pmSendDescReq(int fd, int from, pmID pmid)
{
    pdu_buf b = {0};

    pdu_enc_desc_req(&b, pmid);
    return send_buf(fd, from, &b);
}

/* DESCS: the count, then each descriptor's five words. */
int __pmSendDescs(int fd, int from, int numdescs, pmDesc *descs)
{
    uint32_t *w;
    int sts;

    if (numdescs < 0)
        return PM_ERR_IPC;
    if ((w = malloc((size_t)(1 + 5 * numdescs) * sizeof(*w))) == NULL)
        return -ENOMEM;
    w[0] = (uint32_t)numdescs;
    for (int i = 0; i < numdescs; i++) {
        w[1 + 5 * i] = descs[i].pmid;
        w[2 + 5 * i] = (uint32_t)descs[i].type;
        w[3 + 5 * i] = descs[i].indom;
        w[4 + 5 * i] = (uint32_t)descs[i].sem;
        memcpy(&w[5 + 5 * i], &descs[i].units, sizeof(uint32_t));
    }
    sts = send_words(fd, PDU_DESCS, from, w, 1 + 5 * numdescs);
    free(w);
    return sts;
}

int __pmSendInstanceReq(int fd, int from, pmInDom indom, int inst, const char *name)
{
    pdu_buf b = {0};

    pdu_enc_instance_req(&b, indom, inst, name);
    return send_buf(fd, from, &b);
}

int __pmSendInstance(int fd, int from, pmInResult *result)
{
    pdu_buf b = {0};

    pdu_enc_instance(&b, result);
    return send_buf(fd, from, &b);
}

int __pmSendTextReq(int fd, int from, int ident, int type)
{
    pdu_buf b = {0};

    pdu_enc_text_req(&b, ident, type);
    return send_buf(fd, from, &b);
}

int __pmSendText(int fd, int from, int ident, const char *buffer)
{
    pdu_buf b = {0};

    pdu_enc_text(&b, ident, buffer);
    return send_buf(fd, from, &b);
}

int __pmSendProfile(int fd, int from, int ctxnum, pmProfile *instprof)
{
    pdu_buf b = {0};

    pdu_enc_profile(&b, ctxnum, instprof);
    return send_buf(fd, from, &b);
}

int __pmSendFetchPDU(int fd, int from, int ctxnum, int numpmid, pmID *pmidlist, int type)
{
    pdu_buf b = {0};

    pdu_enc_fetch_as(&b, type == PDU_HIGHRES_FETCH ? PDU_HIGHRES_FETCH : PDU_FETCH, ctxnum, numpmid,
                     pmidlist);
    return send_buf(fd, from, &b);
}

int __pmSendFetch(int fd, int from, int ctxnum, int numpmid, pmID *pmidlist)
{
    return __pmSendFetchPDU(fd, from, ctxnum, numpmid, pmidlist, PDU_FETCH);
}

int __pmSendHighResFetch(int fd, int from, int ctxnum, int numpmid, pmID *pmidlist)
{
    return __pmSendFetchPDU(fd, from, ctxnum, numpmid, pmidlist, PDU_HIGHRES_FETCH);
}

/* A __pmResult as the pmResult pdu.c encodes (timestamp to microseconds). */
static pmResult *as_timeval(const __pmResult *r)
{
    pmResult *rp =
        malloc(sizeof(*rp) + (size_t)(r->numpmid > 0 ? r->numpmid : 1) * sizeof(pmValueSet *));

    if (rp == NULL)
        return NULL;
    rp->timestamp.tv_sec = (time_t)r->timestamp.sec;
    rp->timestamp.tv_usec = r->timestamp.nsec / 1000;
    rp->numpmid = r->numpmid;
    if (r->numpmid > 0)
        memcpy(rp->vset, r->vset, (size_t)r->numpmid * sizeof(pmValueSet *));
    return rp;
}

int __pmSendResult(int fd, int from, const __pmResult *result)
{
    pdu_buf b = {0};
    pmResult *rp = as_timeval(result);

    if (rp == NULL)
        return -ENOMEM;
    pdu_enc_result(&b, rp);
    free(rp);
    return send_buf(fd, from, &b);
}

int __pmSendHighResResult(int fd, int from, const __pmResult *result)
{
    pdu_buf b = {0};

    pdu_enc_highres_result(&b, result->timestamp.sec, result->timestamp.nsec,
                           __pmOffsetResult(result));
    return send_buf(fd, from, &b);
}

/* The PDU in a new buffer, pinned, not sent (the caller unpins it). */
int __pmEncodeHighResResult(const __pmResult *result, __pmPDU **pdubuf)
{
    pdu_buf b = {0};
    __pmPDUHdr *h;

    pdu_enc_highres_result(&b, result->timestamp.sec, result->timestamp.nsec,
                           __pmOffsetResult(result));
    if (b.err != 0) {
        int sts = b.err;
        pdu_buf_free(&b);
        return sts;
    }
    if ((*pdubuf = __pmFindPDUBuf((int)b.len)) == NULL) {
        pdu_buf_free(&b);
        return -ENOMEM;
    }
    memcpy(*pdubuf, b.data, b.len);
    pdu_buf_free(&b);
    h = (__pmPDUHdr *)*pdubuf;
    h->len = (int32_t)ntohl((uint32_t)h->len);
    h->type = (int32_t)ntohl((uint32_t)h->type);
    h->from = (int32_t)ntohl((uint32_t)h->from);
    return 0;
}

int __pmSendIDList(int fd, int from, int numids, const pmID *idlist, int sts)
{
    pdu_buf b = {0};

    pdu_enc_pmns_ids(&b, sts, numids, idlist);
    return send_buf(fd, from, &b);
}

int __pmSendNameList(int fd, int from, int numnames, const char **namelist, const int *statuslist)
{
    pdu_buf b = {0};

    pdu_enc_pmns_names(&b, numnames, (char *const *)namelist, statuslist);
    return send_buf(fd, from, &b);
}

int __pmSendChildReq(int fd, int from, const char *name, int subtype)
{
    pdu_buf b = {0};

    pdu_enc_name_req(&b, PDU_PMNS_CHILD, subtype, name);
    return send_buf(fd, from, &b);
}

int __pmSendTraversePMNSReq(int fd, int from, const char *name)
{
    pdu_buf b = {0};

    pdu_enc_name_req(&b, PDU_PMNS_TRAVERSE, 0, name);
    return send_buf(fd, from, &b);
}

int __pmSendAttr(int fd, int from, int attr, const char *value, int length)
{
    pdu_buf b = {0};

    pdu_enc_attr(&b, attr, value, length);
    return send_buf(fd, from, &b);
}

int __pmSendAuth(int fd, int from, int attr, const char *value, int length)
{
    return __pmSendAttr(fd, from, attr, value, length);
}

int __pmSendLabelReq(int fd, int from, int ident, int type)
{
    pdu_buf b = {0};

    pdu_enc_label_req(&b, ident, type);
    return send_buf(fd, from, &b);
}

int __pmSendLabel(int fd, int from, int ident, int type, pmLabelSet *sets, int nsets)
{
    pdu_buf b = {0};

    pdu_enc_label(&b, ident, type, sets, nsets);
    return send_buf(fd, from, &b);
}

/* ---------------------------------------------------------------- decoding */

/* The PDU as pdu.c reads it (header in network order), a copy the caller
 * frees; *len its length.  NULL for a header that makes no sense. */
static unsigned char *wire_copy(const __pmPDU *pdubuf, size_t *len)
{
    const __pmPDUHdr *h = (const __pmPDUHdr *)pdubuf;
    unsigned char *p;

    if (pdubuf == NULL || h->len < (int)sizeof(*h))
        return NULL;
    if ((p = malloc((size_t)h->len)) == NULL)
        return NULL;
    memcpy(p, pdubuf, (size_t)h->len);
    ((__pmPDUHdr *)p)->len = (int32_t)htonl((uint32_t)h->len);
    ((__pmPDUHdr *)p)->type = (int32_t)htonl((uint32_t)h->type);
    ((__pmPDUHdr *)p)->from = (int32_t)htonl((uint32_t)h->from);
    *len = (size_t)h->len;
    return p;
}

/* Run a pdu.c decoder over pdubuf. */
#define DECODE(pdubuf, call)                                                                       \
    do {                                                                                           \
        size_t len_;                                                                               \
        unsigned char *p_ = wire_copy(pdubuf, &len_);                                              \
        int sts_;                                                                                  \
        if (p_ == NULL)                                                                            \
            return PM_ERR_IPC;                                                                     \
        sts_ = call;                                                                               \
        free(p_);                                                                                  \
        return sts_;                                                                               \
    } while (0)

/* The n words of body that follow the header, in host order; NULL when
 * the PDU is shorter. */
static int body_word(const __pmPDU *pdubuf, int i, uint32_t *w)
{
    const __pmPDUHdr *h = (const __pmPDUHdr *)pdubuf;

    if (h->len < (int)(sizeof(*h) + 4 * (size_t)(i + 1)))
        return -1;
    *w = ntohl(pdubuf[3 + i]);
    return 0;
}

int __pmDecodeError(__pmPDU *pdubuf, int *code)
{
    uint32_t w;

    if (body_word(pdubuf, 0, &w) < 0)
        return PM_ERR_IPC;
    *code = (int)w;
    return 0;
}

/* An extended ERROR: PDU_VERSION2, with the code back in 2.x's numbers. */
int __pmDecodeXtendError(__pmPDU *pdubuf, int *code, int *datum)
{
    uint32_t c, d;

    if (body_word(pdubuf, 0, &c) < 0 || body_word(pdubuf, 1, &d) < 0)
        return PM_ERR_IPC;
    *code = err_1to2((int)c);
    memcpy(datum, &pdubuf[4], sizeof(*datum));
    return PDU_VERSION2;
}

int __pmDecodeCreds(__pmPDU *pdubuf, int *sender, int *credcount, __pmCred **credlist)
{
    const __pmPDUHdr *h = (const __pmPDUHdr *)pdubuf;
    uint32_t n;
    __pmCred *list;

    if (body_word(pdubuf, 0, &n) < 0 || n > PDU_MAX_CREDS ||
        h->len != (int)(sizeof(*h) + 4 + 4 * n))
        return PM_ERR_IPC;
    if ((list = malloc((n > 0 ? n : 1) * sizeof(*list))) == NULL)
        return -ENOMEM;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t w = ntohl(pdubuf[4 + i]);
        memcpy(&list[i], &w, sizeof(w));
    }
    *sender = h->from;
    *credcount = (int)n;
    *credlist = list;
    return 0;
}

int __pmDecodeDesc(__pmPDU *pdubuf, pmDesc *desc)
{
    DECODE(pdubuf, pdu_dec_desc(p_, len_, desc));
}

int __pmDecodeDescReq(__pmPDU *pdubuf, pmID *pmid)
{
    DECODE(pdubuf, pdu_dec_desc_req(p_, len_, pmid));
}

/* DESCS into the caller's numdescs descriptors: their number. */
int __pmDecodeDescs(__pmPDU *pdubuf, int numdescs, pmDesc *descs)
{
    size_t len;
    unsigned char *p = wire_copy(pdubuf, &len);
    int sts;

    if (p == NULL)
        return PM_ERR_IPC;
    sts = pdu_dec_descs(p, len, numdescs, descs);
    free(p);
    return sts < 0 ? sts : numdescs;
}

int __pmDecodeDescs2(__pmPDU *pdubuf, int *numdescs, pmDesc **descs)
{
    uint32_t n;
    pmDesc *d;
    int sts;

    if (body_word(pdubuf, 0, &n) < 0 || n > (uint32_t)((const __pmPDUHdr *)pdubuf)->len / 20)
        return PM_ERR_IPC;
    if ((d = malloc((n > 0 ? n : 1) * sizeof(*d))) == NULL)
        return -ENOMEM;
    if ((sts = __pmDecodeDescs(pdubuf, (int)n, d)) < 0) {
        free(d);
        return sts;
    }
    *numdescs = (int)n;
    *descs = d;
    return (int)n;
}

int __pmDecodeInstanceReq(__pmPDU *pdubuf, pmInDom *indom, int *inst, char **name)
{
    DECODE(pdubuf, pdu_dec_instance_req(p_, len_, indom, inst, name));
}

int __pmDecodeInstance(__pmPDU *pdubuf, pmInResult **result)
{
    DECODE(pdubuf, pdu_dec_instance(p_, len_, result));
}

int __pmDecodeTextReq(__pmPDU *pdubuf, int *ident, int *type)
{
    DECODE(pdubuf, pdu_dec_text_req(p_, len_, ident, type));
}

/* TEXT: the ident is in the sender's byte order, as PCP sends it. */
int __pmDecodeText(__pmPDU *pdubuf, int *ident, char **buffer)
{
    uint32_t id;

    if (body_word(pdubuf, 0, &id) < 0)
        return PM_ERR_IPC;
    memcpy(ident, &pdubuf[3], sizeof(*ident));
    DECODE(pdubuf, pdu_dec_text(p_, len_, buffer));
}

int __pmDecodeProfile(__pmPDU *pdubuf, int *ctxnum, pmProfile **result)
{
    DECODE(pdubuf, pdu_dec_profile(p_, len_, ctxnum, result));
}

/* FETCH and HIGHRES_FETCH: the PMID list converted in place in the PDU
 * buffer and handed out there, as PCP's. */
static int decode_fetch(__pmPDU *pdubuf, int *ctxnum, int *numpmid, pmID **pmidlist)
{
    pmID *ids = NULL;
    int sts;
    size_t len;
    unsigned char *p = wire_copy(pdubuf, &len);

    if (p == NULL)
        return PM_ERR_IPC;
    sts = pdu_dec_fetch(p, len, ctxnum, numpmid, &ids);
    free(p);
    if (sts < 0)
        return sts;
    memcpy(&pdubuf[7], ids, (size_t)*numpmid * sizeof(pmID));
    free(ids);
    *pmidlist = (pmID *)&pdubuf[7];
    return 0;
}

int __pmDecodeFetch(__pmPDU *pdubuf, int *ctxnum, void *unused, int *numpmid, pmID **pmidlist)
{
    (void)unused;
    return decode_fetch(pdubuf, ctxnum, numpmid, pmidlist);
}

int __pmDecodeHighResFetch(__pmPDU *pdubuf, int *ctxnum, int *numpmid, pmID **pmidlist)
{
    return decode_fetch(pdubuf, ctxnum, numpmid, pmidlist);
}

/* RESULT and HIGHRES_RESULT as __pmResult: the decoded result's timestamp
 * rewritten in place (the blocks have the same layout after it). */
int __pmDecodeResult(__pmPDU *pdubuf, __pmResult **result)
{
    pmResult *rp = NULL;
    size_t len;
    unsigned char *p = wire_copy(pdubuf, &len);
    int sts;

    if (p == NULL)
        return PM_ERR_IPC;
    sts = pdu_dec_result(p, len, &rp);
    free(p);
    if (sts < 0)
        return sts;
    struct timeval tv = rp->timestamp;
    __pmResult *r = (__pmResult *)rp;
    r->timestamp.sec = tv.tv_sec;
    r->timestamp.nsec = (int32_t)tv.tv_usec * 1000;
    *result = r;
    return 0;
}

/* rp, a high-resolution result, as the __pmResult it is laid out like
 * (its stamp rewritten in place: seconds and a 32-bit nanosecond count). */
static int as_internal_result(pmHighResResult *rp, __pmResult **result)
{
    struct timespec ts = rp->timestamp;
    __pmResult *r = (__pmResult *)rp;

    r->timestamp.sec = ts.tv_sec;
    r->timestamp.nsec = (int32_t)ts.tv_nsec;
    *result = r;
    return 0;
}

int __pmDecodeHighResResult(__pmPDU *pdubuf, __pmResult **result)
{
    pmHighResResult *rp = NULL;
    size_t len;
    unsigned char *p = wire_copy(pdubuf, &len);
    int sts;

    if (p == NULL)
        return PM_ERR_IPC;
    sts = pdu_dec_highres_result(p, len, &rp);
    free(p);
    return sts < 0 ? sts : as_internal_result(rp, result);
}

/*
 * numpmid value sets at data into vsetp[], from a buffer of pdulen bytes
 * at pdubuf ending at pduend (as a PDU or, with two words before it, an
 * archive record: scandata), their blocks named by word offsets from
 * pdubuf.  As Debian's (tests/oracle/probe_logcalls.c): PM_ERR_IPC unless
 * pduend is pdubuf + pdulen and vsiz bytes, the sets and their blocks
 * rounded to words make pdulen exactly; sets and payloads malloc'd
 * (__pmFreeResult frees them), payloads in host order, SPTR kept SPTR.
 * vsplit is taken to be vsiz, as every caller passes it (PCP reads blocks
 * from elsewhere when they differ).
 */
int __pmDecodeValueSet(__pmPDU *pdubuf, int pdulen, __pmPDU *data, char *pduend, int numpmid,
                       int vsiz, int vsplit, pmValueSet **vsetp)
{
    const char *base = (const char *)pdubuf;

    (void)vsplit;
    if (pdubuf == NULL || data == NULL || vsetp == NULL || pdulen < 0 || vsiz < 0 ||
        pduend != base + pdulen || (const char *)data < base || (const char *)data > pduend)
        return PM_ERR_IPC;
    return pdu_dec_vsets((const unsigned char *)pdubuf, (size_t)pdulen,
                         (size_t)((const char *)data - base), (size_t)vsiz, numpmid, vsetp);
}

/* For the context of a version 3 archive, a data record as that version
 * lays it out (pmlogsize and pmlogcheck read records so), as PCP's. */
int __pmDecodeResult_ctx(__pmContext *ctxp, __pmPDU *pdubuf, __pmResult **result)
{
    pmHighResResult *rp = NULL;
    size_t len;
    unsigned char *p;
    int sts;

    if (ctxp == NULL || ctxp->c_type != PM_CONTEXT_ARCHIVE || ctxp->c_archctl == NULL ||
        ctxp->c_archctl->ac_log == NULL ||
        (ctxp->c_archctl->ac_log->label.magic & 0xff) != PM_LOG_VERS03)
        return __pmDecodeResult(pdubuf, result);
    if ((p = wire_copy(pdubuf, &len)) == NULL)
        return PM_ERR_IPC;
    sts = pdu_dec_archive3_result(p, len, &rp);
    free(p);
    return sts < 0 ? sts : as_internal_result(rp, result);
}

int __pmDecodeHighResResult_ctx(__pmContext *ctxp, __pmPDU *pdubuf, __pmResult **result)
{
    (void)ctxp;
    return __pmDecodeHighResResult(pdubuf, result);
}

/* PMNS_IDS into the caller's array of numids: the status word in *sts. */
int __pmDecodeIDList(__pmPDU *pdubuf, int numids, pmID *idlist, int *sts)
{
    pmID *ids = NULL;
    int n = 0, rc;
    size_t len;
    unsigned char *p = wire_copy(pdubuf, &len);

    if (p == NULL)
        return PM_ERR_IPC;
    rc = pdu_dec_pmns_ids(p, len, sts, &n, &ids);
    free(p);
    if (rc < 0)
        return rc;
    if (n != numids) {
        free(ids);
        return PM_ERR_IPC;
    }
    memcpy(idlist, ids, (size_t)n * sizeof(pmID));
    free(ids);
    return 0;
}

/* DESC_IDS (only) into a new array. */
int __pmDecodeIDList2(__pmPDU *pdubuf, int *numids, pmID **idlist)
{
    int sts;

    if (((const __pmPDUHdr *)pdubuf)->type != PDU_DESC_IDS)
        return PM_ERR_IPC;
    DECODE(pdubuf, pdu_dec_pmns_ids(p_, len_, &sts, numids, idlist));
}

/* PMNS_NAMES: the number of names. */
int __pmDecodeNameList(__pmPDU *pdubuf, int *numnames, char ***namelist, int **statuslist)
{
    size_t len;
    unsigned char *p = wire_copy(pdubuf, &len);
    int sts;

    if (p == NULL)
        return PM_ERR_IPC;
    sts = pdu_dec_pmns_names(p, len, numnames, namelist, statuslist);
    free(p);
    return sts < 0 ? sts : *numnames;
}

int __pmDecodeChildReq(__pmPDU *pdubuf, char **name, int *subtype)
{
    DECODE(pdubuf, pdu_dec_name_req(p_, len_, subtype, name));
}

int __pmDecodeTraversePMNSReq(__pmPDU *pdubuf, char **name)
{
    int subtype;

    DECODE(pdubuf, pdu_dec_name_req(p_, len_, &subtype, name));
}

/* ATTR: the attribute, then its value's bytes, which are handed out where
 * they lie in the PDU buffer, as PCP's. */
int __pmDecodeAttr(__pmPDU *pdubuf, int *attr, char **value, int *vlen)
{
    const __pmPDUHdr *h = (const __pmPDUHdr *)pdubuf;
    uint32_t a;

    if (body_word(pdubuf, 0, &a) < 0)
        return PM_ERR_IPC;
    *attr = (int)a;
    *vlen = h->len - (int)sizeof(*h) - 4;
    *value = *vlen > 0 ? (char *)&pdubuf[4] : NULL;
    return 0;
}

int __pmDecodeAuth(__pmPDU *pdubuf, int *attr, char **value, int *vlen)
{
    return __pmDecodeAttr(pdubuf, attr, value, vlen);
}

int __pmDecodeLabelReq(__pmPDU *pdubuf, int *ident, int *type)
{
    DECODE(pdubuf, pdu_dec_label_req(p_, len_, ident, type));
}

int __pmDecodeLabel(__pmPDU *pdubuf, int *ident, int *type, pmLabelSet **sets, int *nsets)
{
    DECODE(pdubuf, pdu_dec_label(p_, len_, ident, type, sets, nsets));
}
