/*
 * pdu_log.c - the PDUs of pmlogger's control protocol as libpcp exports
 * them (<pcp/libpcp.h>): LOG_REQUEST (a request type), LOG_CONTROL (a
 * control and state, a logging interval and a list of metrics and
 * instances) and LOG_STATUS (the logger's archive and clocks), each sent
 * from FROM_ANON and taken apart after __pmGetPDU.
 *
 * The layouts are Debian's PCP 6.0.3's (tests/oracle/probe_logctl.c
 * compares the bytes): 32-bit words in network order; in LOG_CONTROL, per
 * metric its PMID, its count of values and each value's instance and
 * 32-bit value; in a version 3 LOG_STATUS a timestamp is its seconds' low
 * word, their high word and the nanoseconds, the volume's size is 64 bits
 * high word first, and the six strings follow as six lengths (NUL
 * included, 0 for none) and the bytes, padded with '~' to a word.  A
 * version 2 peer (the descriptor's __pmVersionIPC) gets the old
 * LOG_STATUS_V2: microsecond times of 32-bit seconds and the four strings
 * in fixed fields.  Decoders check every count and length against the
 * PDU's size and refuse what does not fit with PM_ERR_IPC; a status
 * string that is not terminated is taken as the bytes its length says,
 * where PCP's reads on past them (docs/compat.md).
 */
#include "pdu.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <pcp/libpcp.h>

#define HDR_WORDS      3
/* LOG_STATUS: the fixed part of version 3 (three timestamps, state,
 * volume, size, six lengths) and the fields of version 2's strings. */
#define STATUS3_FIXED  76
#define V2_HOST_LEN    64
#define V2_TZ_LEN      40
#define STATUS2_STRS   44
#define STATUS2_LEN    (STATUS2_STRS + 2 * V2_HOST_LEN + 2 * V2_TZ_LEN)
#define STATUS_NSTRING 6

/* A PDU buffer of len bytes (a multiple of 4) with its header set; the
 * body zeroed. */
static __pmPDU *new_pdu(int len, int type)
{
    __pmPDU *pb = __pmFindPDUBuf(len);
    __pmPDUHdr *h = (__pmPDUHdr *)pb;

    if (pb == NULL)
        return NULL;
    memset(pb, 0, (size_t)len);
    h->len = len;
    h->type = type;
    h->from = FROM_ANON;
    return pb;
}

static int xmit(int fd, __pmPDU *pb)
{
    int sts = __pmXmitPDU(fd, pb);

    __pmUnpinPDUBuf(pb);
    return sts;
}

/* The body of a PDU __pmGetPDU read, and its length (0 when the header's
 * length is short). */
static const unsigned char *body_of(const __pmPDU *pb, size_t *len)
{
    const __pmPDUHdr *h = (const __pmPDUHdr *)pb;

    *len = h->len > (int)sizeof(*h) ? (size_t)h->len - sizeof(*h) : 0;
    return (const unsigned char *)pb + sizeof(*h);
}

/* ------------------------------------------------------------- request */

int __pmSendLogRequest(int fd, int type)
{
    __pmPDU *pb = new_pdu((int)sizeof(__pmPDUHdr) + 4, PDU_LOG_REQUEST);

    if (pb == NULL)
        return -ENOMEM;
    pdu_put32((unsigned char *)&pb[HDR_WORDS], (uint32_t)type);
    return xmit(fd, pb);
}

int __pmDecodeLogRequest(const __pmPDU *pdubuf, int *type)
{
    size_t len;
    const unsigned char *b = body_of(pdubuf, &len);

    if (len < 4)
        return PM_ERR_IPC;
    *type = (int)pdu_get32(b);
    return 0;
}

/* ------------------------------------------------------------- control */

int __pmSendLogControl(int fd, const __pmResult *request, int control, int state, int delta)
{
    size_t need = sizeof(__pmPDUHdr) + 16;
    unsigned char *p;
    __pmPDU *pb;

    if (delta < 0)
        return -EINVAL;
    for (int i = 0; i < request->numpmid; i++) {
        int nv = request->vset[i]->numval;
        need += 8 + (nv > 0 ? 8 * (size_t)nv : 0);
        if (need > PDU_MAX_LEN)
            return PM_ERR_TOOBIG;
    }
    if ((pb = new_pdu((int)need, PDU_LOG_CONTROL)) == NULL)
        return -ENOMEM;
    p = (unsigned char *)&pb[HDR_WORDS];
    pdu_put32(p, (uint32_t)control);
    pdu_put32(p + 4, (uint32_t)state);
    pdu_put32(p + 8, (uint32_t)delta);
    pdu_put32(p + 12, (uint32_t)request->numpmid);
    p += 16;
    for (int i = 0; i < request->numpmid; i++) {
        const pmValueSet *vs = request->vset[i];
        pdu_put32(p, vs->pmid);
        pdu_put32(p + 4, (uint32_t)vs->numval);
        p += 8;
        for (int j = 0; j < vs->numval; j++, p += 8) {
            pdu_put32(p, (uint32_t)vs->vlist[j].inst);
            pdu_put32(p + 4, (uint32_t)vs->vlist[j].value.lval);
        }
    }
    return xmit(fd, pb);
}

/* One value set of a LOG_CONTROL at b[*at..len): malloc'd, or NULL with
 * *sts set. */
static pmValueSet *control_vset(const unsigned char *b, size_t len, size_t *at, int *sts)
{
    pmValueSet *vs;
    int numval;
    size_t nv;

    *sts = PM_ERR_IPC;
    if (len - *at < 8)
        return NULL;
    numval = (int)pdu_get32(b + *at + 4);
    nv = numval > 0 ? (size_t)numval : 0;
    if ((len - *at - 8) / 8 < nv)
        return NULL;
    vs = malloc(sizeof(pmValueSet) + (nv > 1 ? nv - 1 : 0) * sizeof(pmValue));
    if (vs == NULL) {
        *sts = -ENOMEM;
        return NULL;
    }
    vs->pmid = pdu_get32(b + *at);
    vs->numval = numval;
    vs->valfmt = PM_VAL_INSITU;
    *at += 8;
    for (size_t j = 0; j < nv; j++, *at += 8) {
        vs->vlist[j].inst = (int)pdu_get32(b + *at);
        vs->vlist[j].value.lval = (int)pdu_get32(b + *at + 4);
    }
    *sts = 0;
    return vs;
}

int __pmDecodeLogControl(const __pmPDU *pdubuf, __pmResult **request, int *control, int *state,
                         int *delta)
{
    size_t len, at = 16;
    const unsigned char *b = body_of(pdubuf, &len);
    __pmResult *r;
    int numpmid, sts = 0;

    if (len < 16)
        return PM_ERR_IPC;
    numpmid = (int)pdu_get32(b + 12);
    /* each metric takes 8 bytes at least */
    if (numpmid <= 0 || (size_t)numpmid > (len - 16) / 8)
        return PM_ERR_IPC;
    if ((r = __pmAllocResult(numpmid)) == NULL)
        return -ENOMEM;
    for (int i = 0; i < numpmid; i++) {
        if ((r->vset[i] = control_vset(b, len, &at, &sts)) == NULL) {
            r->numpmid = i;
            __pmFreeResult(r);
            return sts;
        }
    }
    r->numpmid = numpmid;
    *control = (int)pdu_get32(b);
    *state = (int)pdu_get32(b + 4);
    *delta = (int)pdu_get32(b + 8);
    *request = r;
    return 0;
}

/* -------------------------------------------------------------- status */

static const char *status_string(const __pmLoggerStatus *s, int i)
{
    const char *v[STATUS_NSTRING] = {s->pmcd.hostname, s->pmcd.fqdn,         s->pmcd.timezone,
                                     s->pmcd.zoneinfo, s->pmlogger.timezone, s->pmlogger.zoneinfo};
    return v[i];
}

static char **status_field(__pmLoggerStatus *s, int i)
{
    char **v[STATUS_NSTRING] = {&s->pmcd.hostname, &s->pmcd.fqdn,         &s->pmcd.timezone,
                                &s->pmcd.zoneinfo, &s->pmlogger.timezone, &s->pmlogger.zoneinfo};
    return v[i];
}

static void put_stamp3(unsigned char *p, const __pmTimestamp *t)
{
    pdu_put32(p, (uint32_t)((uint64_t)t->sec & 0xffffffffu));
    pdu_put32(p + 4, (uint32_t)((uint64_t)t->sec >> 32));
    pdu_put32(p + 8, (uint32_t)t->nsec);
}

static void put_fixed(unsigned char *p, const __pmLoggerStatus *s)
{
    pdu_put32(p, (uint32_t)s->state);
    pdu_put32(p + 4, (uint32_t)s->vol);
    pdu_put32(p + 8, (uint32_t)((uint64_t)s->size >> 32));
    pdu_put32(p + 12, (uint32_t)((uint64_t)s->size & 0xffffffffu));
}

static int send_status3(int fd, const __pmLoggerStatus *s)
{
    size_t lens[STATUS_NSTRING], total = 0, need;
    unsigned char *p;
    __pmPDU *pb;

    for (int i = 0; i < STATUS_NSTRING; i++) {
        const char *str = status_string(s, i);
        lens[i] = str == NULL ? 0 : strlen(str) + 1;
        if (lens[i] > PDU_MAX_LEN)
            return PM_ERR_TOOBIG;
        total += lens[i];
    }
    need = sizeof(__pmPDUHdr) + STATUS3_FIXED + ((total + 3) & ~(size_t)3);
    if (need > PDU_MAX_LEN)
        return PM_ERR_TOOBIG;
    if ((pb = new_pdu((int)need, PDU_LOG_STATUS)) == NULL)
        return -ENOMEM;
    p = (unsigned char *)&pb[HDR_WORDS];
    put_stamp3(p, &s->start);
    put_stamp3(p + 12, &s->last);
    put_stamp3(p + 24, &s->now);
    put_fixed(p + 36, s);
    for (int i = 0; i < STATUS_NSTRING; i++)
        pdu_put32(p + 52 + 4 * i, (uint32_t)lens[i]);
    p += STATUS3_FIXED;
    for (int i = 0; i < STATUS_NSTRING; i++) {
        if (lens[i] > 0)
            memcpy(p, status_string(s, i), lens[i]);
        p += lens[i];
    }
    memset(p, '~', need - (size_t)(p - (unsigned char *)pb));
    return xmit(fd, pb);
}

static void put_stamp2(unsigned char *p, const __pmTimestamp *t)
{
    pdu_put32(p, (uint32_t)t->sec);
    pdu_put32(p + 4, (uint32_t)(t->nsec / 1000));
}

/* A string into a fixed field of n bytes, cut to fit with its NUL. */
static void put_field(unsigned char *p, const char *s, size_t n)
{
    size_t len = s == NULL ? 0 : strlen(s);

    if (len >= n)
        len = n - 1;
    if (len > 0)
        memcpy(p, s, len);
}

static int send_status2(int fd, const __pmLoggerStatus *s)
{
    __pmPDU *pb = new_pdu((int)sizeof(__pmPDUHdr) + STATUS2_LEN, PDU_LOG_STATUS_V2);
    unsigned char *p;

    if (pb == NULL)
        return -ENOMEM;
    p = (unsigned char *)&pb[HDR_WORDS];
    memset(p, '~', 4);
    put_stamp2(p + 4, &s->start);
    put_stamp2(p + 12, &s->last);
    put_stamp2(p + 20, &s->now);
    put_fixed(p + 28, s);
    p += STATUS2_STRS;
    put_field(p, s->pmcd.hostname, V2_HOST_LEN);
    put_field(p + V2_HOST_LEN, s->pmcd.fqdn, V2_HOST_LEN);
    put_field(p + 2 * V2_HOST_LEN, s->pmcd.timezone, V2_TZ_LEN);
    put_field(p + 2 * V2_HOST_LEN + V2_TZ_LEN, s->pmlogger.timezone, V2_TZ_LEN);
    return xmit(fd, pb);
}

int __pmSendLogStatus(int fd, __pmLoggerStatus *status)
{
    int version = __pmVersionIPC(fd);

    if (version == LOG_PDU_VERSION3)
        return send_status3(fd, status);
    if (version == LOG_PDU_VERSION2)
        return send_status2(fd, status);
    return PM_ERR_IPC;
}

void __pmFreeLogStatus(__pmLoggerStatus *status, int free_struct)
{
    if (status == NULL)
        return;
    for (int i = 0; i < STATUS_NSTRING; i++) {
        char **f = status_field(status, i);
        free(*f);
        *f = NULL;
    }
    if (free_struct)
        free(status);
}

static void get_stamp3(const unsigned char *p, __pmTimestamp *t)
{
    t->sec = (int64_t)((uint64_t)pdu_get32(p) | (uint64_t)pdu_get32(p + 4) << 32);
    t->nsec = (int)pdu_get32(p + 8);
}

static void get_fixed(const unsigned char *p, __pmLoggerStatus *s)
{
    s->state = (int)pdu_get32(p);
    s->vol = (int)pdu_get32(p + 4);
    s->size = (int64_t)((uint64_t)pdu_get32(p + 8) << 32 | pdu_get32(p + 12));
}

static int decode_status3(const unsigned char *b, size_t len, __pmLoggerStatus *s)
{
    size_t at = STATUS3_FIXED;

    if (len < STATUS3_FIXED)
        return PM_ERR_IPC;
    get_stamp3(b, &s->start);
    get_stamp3(b + 12, &s->last);
    get_stamp3(b + 24, &s->now);
    get_fixed(b + 36, s);
    for (int i = 0; i < STATUS_NSTRING; i++) {
        uint32_t n = pdu_get32(b + 52 + 4 * i);
        char **f = status_field(s, i);
        if (n == 0)
            continue;
        /* a string that runs past the PDU; one that is not terminated is
         * taken as its n bytes (PCP's reads on past them) */
        if (n > len - at)
            return PM_ERR_IPC;
        if ((*f = strndup((const char *)b + at, n)) == NULL)
            return -ENOMEM;
        at += n;
    }
    return 0;
}

/* Version 2's time: 32-bit seconds and microseconds. */
static void get_stamp2(const unsigned char *p, __pmTimestamp *t)
{
    t->sec = (int32_t)pdu_get32(p);
    t->nsec = (int)(pdu_get32(p + 4) * 1000u);
}

/* A fixed field of version 2: its bytes up to a NUL or its end. */
static char *get_field(const unsigned char *p, size_t n)
{
    return strndup((const char *)p, n);
}

static int decode_status2(const unsigned char *b, size_t len, __pmLoggerStatus *s)
{
    if (len < STATUS2_LEN)
        return PM_ERR_IPC;
    get_stamp2(b + 4, &s->start);
    get_stamp2(b + 12, &s->last);
    get_stamp2(b + 20, &s->now);
    get_fixed(b + 28, s);
    b += STATUS2_STRS;
    if ((s->pmcd.hostname = get_field(b, V2_HOST_LEN)) == NULL ||
        (s->pmcd.fqdn = get_field(b + V2_HOST_LEN, V2_HOST_LEN)) == NULL ||
        (s->pmcd.timezone = get_field(b + 2 * V2_HOST_LEN, V2_TZ_LEN)) == NULL ||
        (s->pmlogger.timezone = get_field(b + 2 * V2_HOST_LEN + V2_TZ_LEN, V2_TZ_LEN)) == NULL)
        return -ENOMEM;
    return 0;
}

int __pmDecodeLogStatus(__pmPDU *pdubuf, __pmLoggerStatus **status)
{
    size_t len;
    const unsigned char *b = body_of(pdubuf, &len);
    int version = pmkit_pdu_last_version();
    __pmLoggerStatus *s = calloc(1, sizeof(*s));
    int sts = 0;

    if (s == NULL)
        return -ENOMEM;
    /* the layout is the connection's, whatever the PDU's type says; on
     * a descriptor of no known version, PCP's answer is an empty status */
    if (version == LOG_PDU_VERSION3)
        sts = decode_status3(b, len, s);
    else if (version == LOG_PDU_VERSION2)
        sts = decode_status2(b, len, s);
    if (sts < 0) {
        __pmFreeLogStatus(s, 1);
        return sts;
    }
    *status = s;
    return 0;
}
