/*
 * pdu.c - the PDUs of the pmcd protocol (as Debian's PCP 6.0.3 sends them, with LABEL,
 * ATTR and the PMNS answers as Debian's PCP 6.0.3 puts them on the wire),
 * for both of libpcp's sides of it: a daemon agent talking to pmcd
 * (libpcp/pmda/daemon.c) and a client talking to pmcd (host.c,
 * host_api.c).  Reading and writing whole PDUs, and one encoder and one
 * decoder per PDU either side reads or writes.
 *
 * Decoding walks the PDU with a cursor (struct rd) whose every step checks
 * that the bytes it wants lie inside the PDU; a count read from the wire
 * is compared with what the remaining bytes could hold before anything is
 * allocated for it, so a lying length or an overflowing count costs
 * nothing and ends in PM_ERR_IPC.  Strings on the wire have a length and
 * no NUL; decoders return NUL-terminated copies.  Encoding appends to a
 * growable pdu_buf and fills strings and value blocks to 4 bytes with '~'
 * as PCP does.
 *
 * Not here: connections (only the reads and writes of one PDU, with their
 * deadline, are) and the dispatch to an agent's methods
 * (daemon.c) or to the PMAPI (host*.c).  The file is compiled into both
 * libraries (libpcp keeps its internals hidden), so it calls only what
 * libpcp exports.
 */
#include "pdu.h"

#include "values.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* Building */

static void reserve(pdu_buf *b, size_t more)
{
    size_t need, cap;
    unsigned char *p;

    if (b->err != 0)
        return;
    if (more > PDU_MAX_LEN || b->len > PDU_MAX_LEN - more) {
        b->err = PM_ERR_TOOBIG;
        return;
    }
    need = b->len + more;
    if (need <= b->cap)
        return;
    cap = b->cap < 256 ? 256 : b->cap;
    while (cap < need)
        cap *= 2;
    if ((p = realloc(b->data, cap)) == NULL) {
        b->err = -ENOMEM;
        return;
    }
    b->data = p;
    b->cap = cap;
}

/* Overwrite the word at off (already written). */
static void set32(pdu_buf *b, size_t off, uint32_t v)
{
    if (b->err != 0)
        return;
    b->data[off] = (unsigned char)(v >> 24);
    b->data[off + 1] = (unsigned char)(v >> 16);
    b->data[off + 2] = (unsigned char)(v >> 8);
    b->data[off + 3] = (unsigned char)v;
}

static void put32(pdu_buf *b, uint32_t v)
{
    reserve(b, 4);
    if (b->err != 0)
        return;
    b->len += 4;
    set32(b, b->len - 4, v);
}

static void put_bytes(pdu_buf *b, const void *p, size_t n)
{
    reserve(b, n);
    if (b->err != 0 || n == 0)
        return;
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

/* '~' up to the next multiple of 4 (PCP's filler; receivers ignore it). */
static void put_fill(pdu_buf *b)
{
    while (b->err == 0 && b->len % 4 != 0)
        put_bytes(b, "~", 1);
}

/* int32 length, the bytes, '~' filler to a 4-byte boundary. */
static void put_str(pdu_buf *b, const char *s, size_t n)
{
    put32(b, (uint32_t)n);
    put_bytes(b, s, n);
    put_fill(b);
}

void pdu_begin(pdu_buf *b, int type, int from)
{
    b->len = 0;
    b->err = 0;
    put32(b, 0);
    put32(b, (uint32_t)type);
    put32(b, (uint32_t)from);
}

void pdu_set_from(pdu_buf *b, int from)
{
    if (b->len >= PDU_HDR_LEN)
        set32(b, 8, (uint32_t)from);
}

int pdu_end(pdu_buf *b)
{
    set32(b, 0, (uint32_t)b->len);
    return b->err;
}

void pdu_buf_free(pdu_buf *b)
{
    free(b->data);
    memset(b, 0, sizeof(*b));
}

/* ------------------------------------------------------------------ */
/* Transport */

/* Milliseconds from now to deadline (at least 0). */
static int ms_left(const struct timespec *deadline)
{
    struct timespec now;
    long long ms;

    clock_gettime(CLOCK_MONOTONIC, &now);
    ms = (long long)(deadline->tv_sec - now.tv_sec) * 1000 +
         (deadline->tv_nsec - now.tv_nsec) / 1000000;
    return ms < 0 ? 0 : ms > INT_MAX ? INT_MAX : (int)ms;
}

/* Read exactly n bytes: n, fewer at end of file, or -errno; -EAGAIN once
 * deadline (if not NULL) has passed, however the bytes trickle in. */
static ssize_t read_full(int fd, unsigned char *p, size_t n, const struct timespec *deadline)
{
    size_t got = 0;

    while (got < n) {
        if (deadline != NULL) {
            struct pollfd pf = {fd, POLLIN, 0};
            int ready = poll(&pf, 1, ms_left(deadline));
            if (ready < 0 && errno == EINTR)
                continue;
            if (ready < 0)
                return -errno;
            if (ready == 0)
                return -EAGAIN;
        }
        ssize_t r = read(fd, p + got, n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -errno;
        if (r == 0)
            break;
        got += (size_t)r;
    }
    return (ssize_t)got;
}

int pdu_read(int fd, unsigned char **buf, size_t *cap)
{
    return pdu_read_timed(fd, buf, cap, -1);
}

int pdu_read_timed(int fd, unsigned char **buf, size_t *cap, int timeout_ms)
{
    unsigned char hdr[PDU_HDR_LEN];
    struct timespec deadline, *dl = NULL;
    ssize_t r;
    uint32_t len;

    if (timeout_ms >= 0) {
        clock_gettime(CLOCK_MONOTONIC, &deadline);
        deadline.tv_sec += timeout_ms / 1000;
        deadline.tv_nsec += (long)(timeout_ms % 1000) * 1000000;
        if (deadline.tv_nsec >= 1000000000) {
            deadline.tv_sec++;
            deadline.tv_nsec -= 1000000000;
        }
        dl = &deadline;
    }
    r = read_full(fd, hdr, sizeof(hdr), dl);

    if (r < 0)
        return (int)r;
    if (r == 0)
        return PM_ERR_EOF;
    len = pdu_get32(hdr);
    if (r < PDU_HDR_LEN || len < PDU_HDR_LEN || len > PDU_MAX_LEN || pdu_type(hdr) < 0)
        return PM_ERR_IPC;
    if (*cap < len) {
        unsigned char *p = realloc(*buf, len);
        if (p == NULL)
            return -ENOMEM;
        *buf = p;
        *cap = len;
    }
    memcpy(*buf, hdr, sizeof(hdr));
    r = read_full(fd, *buf + PDU_HDR_LEN, len - PDU_HDR_LEN, dl);
    if (r < 0)
        return (int)r;
    return (size_t)r == len - PDU_HDR_LEN ? (int)len : PM_ERR_IPC;
}

/* Write all of b's PDU to fd, with send() when sock (no SIGPIPE). */
static int put_all(int fd, const pdu_buf *b, int sock)
{
    size_t done = 0;

    if (b->err != 0)
        return b->err;
    while (done < b->len) {
        const unsigned char *p = b->data + done;
        ssize_t w = sock ? send(fd, p, b->len - done, MSG_NOSIGNAL) : write(fd, p, b->len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return -errno;
        if (w == 0)
            return -EPIPE;
        done += (size_t)w;
    }
    return 0;
}

int pdu_write(int fd, const pdu_buf *b)
{
    return put_all(fd, b, 0);
}

int pdu_send(int fd, const pdu_buf *b)
{
    return put_all(fd, b, 1);
}

/* ------------------------------------------------------------------ */
/* Reading: a bounds-checked cursor over one PDU */

struct rd {
    const unsigned char *p; /* the PDU, header included */
    size_t len;             /* its length (the bytes we have, not the header's claim) */
    size_t off;             /* next byte */
    int bad;                /* a read went past the end */
};

/* Start after the header; the header's length must be the bytes we have. */
static int rd_init(struct rd *r, const unsigned char *pdu, size_t len)
{
    r->p = pdu;
    r->len = len;
    r->off = PDU_HDR_LEN;
    r->bad = 0;
    return len >= PDU_HDR_LEN && pdu_get32(pdu) == len ? 0 : PM_ERR_IPC;
}

static size_t rd_left(const struct rd *r)
{
    return r->bad ? 0 : r->len - r->off;
}

static uint32_t rd32(struct rd *r)
{
    uint32_t v;

    if (r->bad || rd_left(r) < 4) {
        r->bad = 1;
        return 0;
    }
    v = pdu_get32(r->p + r->off);
    r->off += 4;
    return v;
}

/* n bytes, then the filler to 4: a pointer to them, or NULL past the end. */
static const unsigned char *rd_bytes(struct rd *r, size_t n, int padded)
{
    size_t span = padded ? (n + 3) / 4 * 4 : n;
    const unsigned char *p;

    if (r->bad || n > rd_left(r) || span > rd_left(r)) {
        r->bad = 1;
        return NULL;
    }
    p = r->p + r->off;
    r->off += span;
    return p;
}

/* A counted string, padded: a malloc'd NUL-terminated copy (or NULL). */
static char *rd_str(struct rd *r, uint32_t *n)
{
    uint32_t len = rd32(r);
    const unsigned char *s = rd_bytes(r, len, 1);
    char *copy;

    if (s == NULL || (copy = malloc((size_t)len + 1)) == NULL) {
        r->bad = 1;
        return NULL;
    }
    memcpy(copy, s, len);
    copy[len] = '\0';
    if (n != NULL)
        *n = len;
    return copy;
}

/* A count that each entry of at least `each` bytes must fit in what is left. */
static int rd_count(struct rd *r, size_t each)
{
    uint32_t n = rd32(r);

    if (r->bad || (int32_t)n < 0 || n > rd_left(r) / each) {
        r->bad = 1;
        return -1;
    }
    return (int)n;
}

static int rd_done(const struct rd *r)
{
    return r->bad ? PM_ERR_IPC : 0;
}

/* A descriptor's five words. */
static void rd_desc(struct rd *r, pmDesc *d)
{
    uint32_t units;

    d->pmid = rd32(r);
    d->type = (int)rd32(r);
    d->indom = rd32(r);
    d->sem = (int)rd32(r);
    units = rd32(r);
    pmkit_put32(&d->units, units); /* pmUnits as one word, PCP's bit layout */
}

/* A count and that many PMIDs: *ids malloc'd (the caller frees it, even
 * on failure), 0 or PM_ERR_IPC / -ENOMEM. */
static int rd_pmids(struct rd *r, int *n, pmID **ids)
{
    *n = rd_count(r, 4);
    if (r->bad)
        return PM_ERR_IPC;
    if ((*ids = malloc((size_t)(*n > 0 ? *n : 1) * sizeof(pmID))) == NULL)
        return -ENOMEM;
    for (int i = 0; i < *n; i++)
        (*ids)[i] = rd32(r);
    return rd_done(r);
}

/* ------------------------------------------------------------------ */
/* Small PDUs */

void pdu_enc_error(pdu_buf *b, int code)
{
    pdu_begin(b, PDU_ERROR, 0);
    put32(b, (uint32_t)code);
    pdu_end(b);
}

int pdu_dec_error(const unsigned char *pdu, size_t len, int *code)
{
    struct rd r;

    if (rd_init(&r, pdu, len) < 0)
        return PM_ERR_IPC;
    *code = (int)rd32(&r); /* the extended form's datum, if any, is not ours */
    return rd_done(&r);
}

/* pmcd's greeting: the extended ERROR, exactly 20 bytes (a code and the
 * word of version and features); anything else is not a greeting. */
int pdu_dec_greeting(const unsigned char *pdu, size_t len, int *code, uint32_t *info)
{
    struct rd r;

    if (len != PDU_HDR_LEN + 8 || rd_init(&r, pdu, len) < 0 || pdu_type(pdu) != PDU_ERROR)
        return PM_ERR_IPC;
    *code = (int)rd32(&r);
    *info = rd32(&r);
    return rd_done(&r);
}

void pdu_enc_creds(pdu_buf *b, int from, int version, int flags)
{
    pdu_begin(b, PDU_CREDS, from);
    put32(b, 1);
    put32(b, (uint32_t)PDU_CVERSION << 24 | (uint32_t)(version & 0xff) << 16 |
                 ((uint32_t)flags & 0xffff));
    pdu_end(b);
}

int pdu_dec_creds(const unsigned char *pdu, size_t len, int *version, int *flags)
{
    struct rd r;
    int n, found = 0;

    if (rd_init(&r, pdu, len) < 0)
        return PM_ERR_IPC;
    n = rd_count(&r, 4);
    if (n < 1 || n > PDU_MAX_CREDS || len != PDU_HDR_LEN + 4 + 4 * (size_t)n)
        return PM_ERR_IPC;
    for (int i = 0; i < n; i++) {
        uint32_t c = rd32(&r);
        if (c >> 24 == PDU_CVERSION) {
            *version = (int)(c >> 16 & 0xff);
            *flags = (int)(c & 0xffff);
            found = 1;
        }
    }
    return rd_done(&r) < 0 || !found ? PM_ERR_IPC : 0;
}

void pdu_enc_desc(pdu_buf *b, const pmDesc *d)
{
    pdu_begin(b, PDU_DESC, 0);
    put32(b, d->pmid);
    put32(b, (uint32_t)d->type);
    put32(b, d->indom);
    put32(b, (uint32_t)d->sem);
    put32(b, pmkit_get32(&d->units)); /* pmUnits as one word, PCP's bit layout */
    pdu_end(b);
}

int pdu_dec_desc(const unsigned char *pdu, size_t len, pmDesc *d)
{
    struct rd r;

    if (rd_init(&r, pdu, len) < 0)
        return PM_ERR_IPC;
    rd_desc(&r, d);
    return rd_done(&r);
}

void pdu_enc_desc_req(pdu_buf *b, pmID pmid)
{
    pdu_begin(b, PDU_DESC_REQ, 0);
    put32(b, pmid);
    pdu_end(b);
}

int pdu_dec_desc_req(const unsigned char *pdu, size_t len, pmID *pmid)
{
    struct rd r;

    if (rd_init(&r, pdu, len) < 0)
        return PM_ERR_IPC;
    *pmid = rd32(&r);
    return rd_done(&r);
}

/* DESC_IDS: a status word of -1, the count, the PMIDs. */
void pdu_enc_desc_ids(pdu_buf *b, int n, const pmID *pmids)
{
    pdu_enc_pmns_ids(b, -1, n, pmids);
    set32(b, 4, PDU_DESC_IDS);
}

/* DESCS: the count (which must be n, the request's), then n descriptors. */
int pdu_dec_descs(const unsigned char *pdu, size_t len, int n, pmDesc *descs)
{
    struct rd r;
    int count;

    if (rd_init(&r, pdu, len) < 0)
        return PM_ERR_IPC;
    count = rd_count(&r, 20);
    if (r.bad || count != n)
        return PM_ERR_IPC;
    for (int i = 0; i < n; i++)
        rd_desc(&r, &descs[i]);
    return rd_done(&r);
}

/* TEXT_REQ and LABEL_REQ: an ident and a type. */
static void enc_ident_type(pdu_buf *b, int pdu, int ident, int type)
{
    pdu_begin(b, pdu, 0);
    put32(b, (uint32_t)ident);
    put32(b, (uint32_t)type);
    pdu_end(b);
}

void pdu_enc_text_req(pdu_buf *b, int ident, int type)
{
    enc_ident_type(b, PDU_TEXT_REQ, ident, type);
}

int pdu_dec_text_req(const unsigned char *pdu, size_t len, int *ident, int *type)
{
    struct rd r;

    if (rd_init(&r, pdu, len) < 0)
        return PM_ERR_IPC;
    *ident = (int)rd32(&r);
    *type = (int)rd32(&r);
    return rd_done(&r);
}

void pdu_enc_label_req(pdu_buf *b, int ident, int type)
{
    enc_ident_type(b, PDU_LABEL_REQ, ident, type);
}

int pdu_dec_label_req(const unsigned char *pdu, size_t len, int *ident, int *type)
{
    return pdu_dec_text_req(pdu, len, ident, type); /* the same two words */
}

void pdu_enc_text(pdu_buf *b, int ident, const char *text)
{
    size_t n = strlen(text);

    pdu_begin(b, PDU_TEXT, 0);
    /* PCP writes the ident in the sender's byte order;
     * done the same way so the bytes match, though no receiver reads it */
    put_bytes(b, &ident, 4);
    put_str(b, text, n);
    pdu_end(b);
}

int pdu_dec_text(const unsigned char *pdu, size_t len, char **text)
{
    int ident; /* in the sender's byte order, not read (pdu_enc_text) */

    return pdu_dec_name_req(pdu, len, &ident, text); /* the same layout */
}

/* ATTR: the attribute, then the value's bytes (NUL included) unpadded. */
void pdu_enc_attr(pdu_buf *b, int attr, const char *value, int len)
{
    pdu_begin(b, PDU_ATTR, 0);
    put32(b, (uint32_t)attr);
    put_bytes(b, value, len > 0 ? (size_t)len : 0);
    pdu_end(b);
}

int pdu_dec_attr(const unsigned char *pdu, size_t len, int *attr, char **value, int *vlen)
{
    struct rd r;
    size_t n;

    if (rd_init(&r, pdu, len) < 0)
        return PM_ERR_IPC;
    *attr = (int)rd32(&r);
    if (rd_done(&r) < 0)
        return PM_ERR_IPC;
    n = rd_left(&r);
    if ((*value = malloc(n + 1)) == NULL)
        return -ENOMEM;
    memcpy(*value, r.p + r.off, n);
    (*value)[n] = '\0';
    *vlen = (int)n;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Instances */

void pdu_enc_instance_req(pdu_buf *b, pmInDom indom, int inst, const char *name)
{
    pdu_begin(b, PDU_INSTANCE_REQ, 0);
    put32(b, indom);
    put32(b, 0);
    put32(b, 0);
    put32(b, (uint32_t)inst);
    put_str(b, name != NULL ? name : "", name != NULL ? strlen(name) : 0);
    pdu_end(b);
}

int pdu_dec_instance_req(const unsigned char *pdu, size_t len, pmInDom *indom, int *inst,
                         char **name)
{
    struct rd r;
    uint32_t n = 0;

    *name = NULL;
    if (rd_init(&r, pdu, len) < 0)
        return PM_ERR_IPC;
    *indom = rd32(&r);
    (void)rd32(&r); /* two words pmcd leaves zero */
    (void)rd32(&r);
    *inst = (int)rd32(&r);
    *name = rd_str(&r, &n);
    if (rd_done(&r) < 0) {
        free(*name);
        *name = NULL;
        return PM_ERR_IPC;
    }
    if (n == 0) { /* no name: "all instances" or "the name of inst" */
        free(*name);
        *name = NULL;
    }
    return 0;
}

/* Each instance: its id (-1 when the agent gave names only) and its name
 * (empty when it gave ids only): what PCP sends for the three questions. */
void pdu_enc_instance(pdu_buf *b, const pmInResult *res)
{
    pdu_begin(b, PDU_INSTANCE, 0);
    put32(b, res->indom);
    put32(b, (uint32_t)(res->numinst > 0 ? res->numinst : 0));
    for (int i = 0; i < res->numinst; i++) {
        const char *name =
            res->namelist != NULL && res->namelist[i] != NULL ? res->namelist[i] : "";
        put32(b, res->instlist != NULL ? (uint32_t)res->instlist[i] : PM_IN_NULL);
        put_str(b, name, strlen(name));
    }
    pdu_end(b);
}

int pdu_dec_instance(const unsigned char *pdu, size_t len, pmInResult **out)
{
    struct rd r;
    pmInResult *res;
    int n;

    *out = NULL;
    if (rd_init(&r, pdu, len) < 0)
        return PM_ERR_IPC;
    if ((res = calloc(1, sizeof(*res))) == NULL)
        return -ENOMEM;
    res->indom = rd32(&r);
    n = rd_count(&r, 8);
    if (n > 0) {
        res->instlist = calloc((size_t)n, sizeof(int));
        res->namelist = calloc((size_t)n, sizeof(char *));
        if (res->instlist == NULL || res->namelist == NULL)
            r.bad = 1;
    }
    for (int i = 0; i < n && !r.bad; i++) {
        res->instlist[i] = (int)rd32(&r);
        if ((res->namelist[i] = rd_str(&r, NULL)) != NULL)
            res->numinst = i + 1;
    }
    if (rd_done(&r) < 0) {
        __pmFreeInResult(res);
        return PM_ERR_IPC;
    }
    res->numinst = n;
    *out = res;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Profiles and fetches */

void pdu_enc_profile(pdu_buf *b, int ctx, const pmProfile *p)
{
    pdu_begin(b, PDU_PROFILE, 0);
    put32(b, (uint32_t)ctx);
    put32(b, (uint32_t)p->state);
    put32(b, (uint32_t)p->profile_len);
    put32(b, 0);
    for (int i = 0; i < p->profile_len; i++) {
        put32(b, p->profile[i].indom);
        put32(b, (uint32_t)p->profile[i].state);
        put32(b, (uint32_t)p->profile[i].instances_len);
        put32(b, 0);
    }
    for (int i = 0; i < p->profile_len; i++)
        for (int j = 0; j < p->profile[i].instances_len; j++)
            put32(b, (uint32_t)p->profile[i].instances[j]);
    pdu_end(b);
}

int pdu_dec_profile(const unsigned char *pdu, size_t len, int *ctx, pmProfile **out)
{
    struct rd r;
    pmProfile *p;
    int state, n, *inst;
    size_t total = 0;

    *out = NULL;
    if (rd_init(&r, pdu, len) < 0)
        return PM_ERR_IPC;
    *ctx = (int)rd32(&r);
    state = (int)rd32(&r);
    n = rd_count(&r, 16);
    (void)rd32(&r);
    if (r.bad || n > (int)(rd_left(&r) / 16))
        return PM_ERR_IPC;
    /* first pass: the instance counts must fit in what follows the entries */
    for (int i = 0; i < n; i++) {
        uint32_t ni = pdu_get32(r.p + r.off + 16 * (size_t)i + 8);
        if ((int32_t)ni < 0 || ni > (rd_left(&r) - 16 * (size_t)n) / 4 - total)
            return PM_ERR_IPC;
        total += ni;
    }
    p = calloc(1, sizeof(*p) + (size_t)n * sizeof(pmInDomProfile) + total * sizeof(int));
    if (p == NULL)
        return -ENOMEM;
    p->state = state;
    p->profile_len = n;
    p->profile = n > 0 ? (pmInDomProfile *)(p + 1) : NULL;
    inst = (int *)((pmInDomProfile *)(p + 1) + n);
    for (int i = 0; i < n; i++) {
        p->profile[i].indom = rd32(&r);
        p->profile[i].state = (int)rd32(&r);
        p->profile[i].instances_len = (int)rd32(&r);
        (void)rd32(&r);
    }
    for (int i = 0; i < n; i++) {
        p->profile[i].instances = p->profile[i].instances_len > 0 ? inst : NULL;
        for (int j = 0; j < p->profile[i].instances_len; j++)
            *inst++ = (int)rd32(&r);
    }
    if (rd_done(&r) < 0) {
        free(p);
        return PM_ERR_IPC;
    }
    *out = p;
    return 0;
}

void pdu_enc_fetch_as(pdu_buf *b, int type, int ctx, int n, const pmID *pmids)
{
    pdu_begin(b, type, 0);
    put32(b, (uint32_t)ctx);
    put32(b, 0);
    put32(b, 0);
    put32(b, (uint32_t)n);
    for (int i = 0; i < n; i++)
        put32(b, pmids[i]);
    pdu_end(b);
}

int pdu_dec_fetch(const unsigned char *pdu, size_t len, int *ctx, int *n, pmID **pmids)
{
    struct rd r;

    *pmids = NULL;
    if (rd_init(&r, pdu, len) < 0)
        return PM_ERR_IPC;
    *ctx = (int)rd32(&r);
    (void)rd32(&r); /* the time words pmcd leaves zero */
    (void)rd32(&r);
    return rd_pmids(&r, n, pmids);
}

/* ------------------------------------------------------------------ */
/* Results: value sets, then the value blocks their DPTR/SPTR values name
 * by word offset from the start of the PDU. */

/* Does a block of this type carry a number stored big-endian on the wire
 * (and how wide)? */
static size_t swapped_width(int vtype)
{
    switch (vtype) {
    case PM_TYPE_64:
    case PM_TYPE_U64:
    case PM_TYPE_DOUBLE:
        return 8;
    case PM_TYPE_FLOAT:
        return 4;
    default:
        return 0;
    }
}

/* Copy a block's payload from host to wire order or back (the same swap). */
static void swap_payload(unsigned char *dst, const unsigned char *src, int vtype, size_t plen)
{
    static const uint16_t one = 1;
    size_t w = swapped_width(vtype);

    if (w == 0 || plen < w || *(const unsigned char *)&one == 0) {
        memcpy(dst, src, plen);
        return;
    }
    for (size_t i = 0; i < w; i++)
        dst[i] = src[w - 1 - i];
    memcpy(dst + w, src + w, plen - w);
}

/* The bytes of a result's PDU up to its value blocks, whose fixed part
 * (header, time and count) takes head bytes. */
static size_t vsets_size(const pmResult *r, size_t head)
{
    size_t n = head;

    for (int i = 0; i < r->numpmid; i++) {
        const pmValueSet *vs = r->vset[i];
        n += 8;
        if (vs != NULL && vs->numval > 0)
            n += 4 + 8 * (size_t)vs->numval;
    }
    return n;
}

/* The bytes a value block of header vlen takes on the wire (4 at least). */
static size_t block_span(const pmValueBlock *vb)
{
    size_t vlen = vb->vlen < PM_VAL_HDR_SIZE ? PM_VAL_HDR_SIZE : vb->vlen;
    return (vlen + 3) / 4 * 4;
}

static void put_block(pdu_buf *b, const pmValueBlock *vb)
{
    size_t vlen = vb->vlen < PM_VAL_HDR_SIZE ? PM_VAL_HDR_SIZE : vb->vlen;
    size_t plen = vlen - PM_VAL_HDR_SIZE;

    put32(b, (uint32_t)vb->vtype << 24 | (uint32_t)vlen);
    reserve(b, plen);
    if (b->err == 0) {
        swap_payload(b->data + b->len, (const unsigned char *)vb->vbuf, vb->vtype, plen);
        b->len += plen;
    }
    put_fill(b);
}

/* The value sets and blocks of a result, after its fixed part of head
 * bytes. */
static void put_vsets(pdu_buf *b, const pmResult *r, size_t head)
{
    size_t next = vsets_size(r, head); /* where the next value block goes */

    for (int i = 0; i < r->numpmid; i++) {
        const pmValueSet *vs = r->vset[i];
        put32(b, vs != NULL ? vs->pmid : PM_ID_NULL);
        put32(b, vs != NULL ? (uint32_t)vs->numval : (uint32_t)PM_ERR_PMID);
        if (vs == NULL || vs->numval <= 0)
            continue;
        put32(b, (uint32_t)vs->valfmt);
        for (int j = 0; j < vs->numval; j++) {
            put32(b, (uint32_t)vs->vlist[j].inst);
            if (vs->valfmt == PM_VAL_INSITU) {
                put32(b, (uint32_t)vs->vlist[j].value.lval);
            } else {
                put32(b, (uint32_t)(next / 4));
                next += block_span(vs->vlist[j].value.pval);
            }
        }
    }
    for (int i = 0; i < r->numpmid; i++) {
        const pmValueSet *vs = r->vset[i];
        if (vs == NULL || vs->numval <= 0 || vs->valfmt == PM_VAL_INSITU)
            continue;
        for (int j = 0; j < vs->numval; j++)
            put_block(b, vs->vlist[j].value.pval);
    }
}

void pdu_enc_result(pdu_buf *b, const pmResult *r)
{
    pdu_begin(b, PDU_RESULT, 0);
    put32(b, (uint32_t)r->timestamp.tv_sec);
    put32(b, (uint32_t)r->timestamp.tv_usec);
    put32(b, (uint32_t)r->numpmid);
    put_vsets(b, r, PDU_HDR_LEN + 12);
    pdu_end(b);
}

/* HIGHRES_RESULT: the count, 64-bit seconds and nanoseconds, then as
 * RESULT (r's own timestamp is not used). */
void pdu_enc_highres_result(pdu_buf *b, int64_t sec, int64_t nsec, const pmResult *r)
{
    pdu_begin(b, PDU_HIGHRES_RESULT, 0);
    put32(b, (uint32_t)r->numpmid);
    put32(b, (uint32_t)((uint64_t)sec >> 32));
    put32(b, (uint32_t)sec);
    put32(b, (uint32_t)((uint64_t)nsec >> 32));
    put32(b, (uint32_t)nsec);
    put_vsets(b, r, PDU_HDR_LEN + 20);
    pdu_end(b);
}

void pdu_free_result(pmResult *r)
{
    if (r == NULL)
        return;
    __pmFreeResultValues(r);
    free(r);
}

/* The block at word offset w, at or after `from` and inside the PDU: a
 * malloc'd host-order copy, or NULL. */
static pmValueBlock *rd_block(const struct rd *r, uint32_t w, size_t from)
{
    size_t off = (size_t)w * 4, vlen;
    uint32_t hdr;
    pmValueBlock *vb;

    if (off < from || off > r->len || r->len - off < PM_VAL_HDR_SIZE)
        return NULL;
    hdr = pdu_get32(r->p + off);
    vlen = hdr & PM_VAL_VLEN_MAX;
    if (vlen < PM_VAL_HDR_SIZE || vlen > r->len - off)
        return NULL;
    /* room for a NUL after strings and at least a pmValueBlock */
    if ((vb = calloc(1, vlen + sizeof(pmValueBlock))) == NULL)
        return NULL;
    vb->vtype = hdr >> 24;
    vb->vlen = (unsigned int)vlen;
    swap_payload((unsigned char *)vb->vbuf, r->p + off + PM_VAL_HDR_SIZE, (int)vb->vtype,
                 vlen - PM_VAL_HDR_SIZE);
    return vb;
}

/* One value set; DPTR/SPTR values keep their word offsets in lval, for
 * resolve_blocks once the end of the value sets is known. */
static pmValueSet *rd_vset(struct rd *r)
{
    pmID pmid = rd32(r);
    int numval = (int)rd32(r), valfmt = 0;
    pmValueSet *vs;

    if (r->bad)
        return NULL;
    if (numval > 0) {
        valfmt = (int)rd32(r);
        if (r->bad || (size_t)numval > rd_left(r) / 8 ||
            (valfmt != PM_VAL_INSITU && valfmt != PM_VAL_DPTR && valfmt != PM_VAL_SPTR)) {
            r->bad = 1;
            return NULL;
        }
    }
    vs = calloc(1, sizeof(*vs) + (size_t)(numval > 1 ? numval - 1 : 0) * sizeof(pmValue));
    if (vs == NULL) {
        r->bad = 1;
        return NULL;
    }
    vs->pmid = pmid;
    vs->numval = numval;
    vs->valfmt = PM_VAL_INSITU; /* until resolve_blocks has blocks to free */
    for (int j = 0; j < numval; j++) {
        vs->vlist[j].inst = (int)rd32(r);
        vs->vlist[j].value.lval = (int)rd32(r);
    }
    if (valfmt != PM_VAL_INSITU)
        vs->valfmt = -1; /* marker: offsets still to resolve */
    return vs;
}

static int resolve_blocks(const struct rd *r, pmValueSet **vset, int numpmid)
{
    for (int i = 0; i < numpmid; i++) {
        pmValueSet *vs = vset[i];
        if (vs->valfmt != -1)
            continue;
        for (int j = 0; j < vs->numval; j++) {
            pmValueBlock *vb = rd_block(r, (uint32_t)vs->vlist[j].value.lval, r->off);
            if (vb == NULL) {
                /* free the blocks made so far; the rest are still offsets */
                for (int k = 0; k < j; k++)
                    free(vs->vlist[k].value.pval);
                vs->valfmt = PM_VAL_INSITU;
                return PM_ERR_IPC;
            }
            vs->vlist[j].value.pval = vb;
        }
        vs->valfmt = PM_VAL_DPTR;
    }
    return 0;
}

/* n value sets into vset[] (room for n), counted in *numpmid as they are
 * made, then their value blocks; on failure everything made is freed. */
static int rd_vsets(struct rd *r, int n, pmValueSet **vset, int *numpmid)
{
    *numpmid = 0;
    for (int i = 0; i < n; i++) {
        pmValueSet *vs = rd_vset(r);
        if (vs == NULL)
            break;
        vset[i] = vs;
        *numpmid = i + 1;
    }
    /* blocks must lie after the value sets: never inside them */
    if (!r->bad && resolve_blocks(r, vset, *numpmid) == 0)
        return 0;
    for (int i = 0; i < *numpmid; i++) {
        pmValueSet *vs = vset[i];
        /* DPTR blocks are rd_block's own; -1 still holds offsets */
        for (int j = 0; vs->valfmt == PM_VAL_DPTR && j < vs->numval; j++)
            free(vs->vlist[j].value.pval);
        free(vs);
        vset[i] = NULL;
    }
    *numpmid = 0;
    return PM_ERR_IPC;
}

int pdu_dec_result(const unsigned char *pdu, size_t len, pmResult **out)
{
    struct rd r;
    pmResult *res;
    int32_t sec, usec;
    int n;

    *out = NULL;
    if (rd_init(&r, pdu, len) < 0)
        return PM_ERR_IPC;
    sec = (int32_t)rd32(&r);
    usec = (int32_t)rd32(&r);
    n = rd_count(&r, 8);
    if (r.bad)
        return PM_ERR_IPC;
    res = calloc(1, sizeof(*res) + (size_t)(n > 1 ? n - 1 : 0) * sizeof(pmValueSet *));
    if (res == NULL)
        return -ENOMEM;
    res->timestamp.tv_sec = sec;
    res->timestamp.tv_usec = usec;
    if (rd_vsets(&r, n, res->vset, &res->numpmid) < 0) {
        free(res);
        return PM_ERR_IPC;
    }
    *out = res;
    return 0;
}

/* The n value sets r holds next, in a high-resolution result stamped
 * sec and nsec. */
static int highres_vsets(struct rd *r, int n, int64_t sec, int64_t nsec, pmHighResResult **out)
{
    pmHighResResult *res =
        calloc(1, sizeof(*res) + (size_t)(n > 1 ? n - 1 : 0) * sizeof(pmValueSet *));

    if (res == NULL)
        return -ENOMEM;
    res->timestamp.tv_sec = (time_t)sec;
    res->timestamp.tv_nsec = (long)nsec;
    if (rd_vsets(r, n, res->vset, &res->numpmid) < 0) {
        free(res);
        return PM_ERR_IPC;
    }
    *out = res;
    return 0;
}

/* A version 3 archive's data record in a RESULT PDU's frame: seconds as
 * two words, low first, nanoseconds, then the count and the value sets. */
int pdu_dec_archive3_result(const unsigned char *pdu, size_t len, pmHighResResult **out)
{
    struct rd r;
    uint64_t lo, hi;
    int32_t nsec;
    int n;

    *out = NULL;
    if (rd_init(&r, pdu, len) < 0)
        return PM_ERR_IPC;
    lo = rd32(&r);
    hi = rd32(&r);
    nsec = (int32_t)rd32(&r);
    n = rd_count(&r, 8);
    if (r.bad)
        return PM_ERR_IPC;
    return highres_vsets(&r, n, (int64_t)(hi << 32 | lo), nsec, out);
}

/* Bytes a value set takes in a PDU, and its blocks rounded to words. */
static size_t vset_bytes(const pmValueSet *vs)
{
    size_t n = vs->numval > 0 ? 12 + 8 * (size_t)vs->numval : 8;

    for (int j = 0; vs->numval > 0 && vs->valfmt != PM_VAL_INSITU && j < vs->numval; j++)
        n += ((size_t)vs->vlist[j].value.pval->vlen + 3) / 4 * 4;
    return n;
}

/* A value set whose values were SPTR on the wire, made one block with its
 * payloads (freeing the set frees them: nothing frees an SPTR payload)
 * and marked SPTR again: 0, or -ENOMEM with *vsp as it was. */
static int pack_sptr(pmValueSet **vsp)
{
    pmValueSet *vs = *vsp, *nv;
    size_t head = (sizeof(*vs) + (size_t)(vs->numval - 1) * sizeof(pmValue) + 7) / 8 * 8;
    size_t total = head;
    char *p;

    for (int j = 0; j < vs->numval; j++)
        total += (sizeof(pmValueBlock) + vs->vlist[j].value.pval->vlen + 7) / 8 * 8;
    if ((nv = calloc(1, total)) == NULL)
        return -ENOMEM;
    memcpy(nv, vs, head);
    p = (char *)nv + head;
    for (int j = 0; j < vs->numval; j++) {
        pmValueBlock *vb = vs->vlist[j].value.pval;
        memcpy(p, vb, sizeof(pmValueBlock) + vb->vlen);
        nv->vlist[j].value.pval = (pmValueBlock *)p;
        p += (sizeof(pmValueBlock) + vb->vlen + 7) / 8 * 8;
        free(vb);
    }
    nv->valfmt = PM_VAL_SPTR;
    free(vs);
    *vsp = nv;
    return 0;
}

static void free_made(pmValueSet **vset, int n)
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; vset[i]->valfmt == PM_VAL_DPTR && j < vset[i]->numval; j++)
            free(vset[i]->vlist[j].value.pval);
        free(vset[i]);
        vset[i] = NULL;
    }
}

/* The n bytes at p, a big-endian number, in host order where they lie. */
static void to_host(unsigned char *p, size_t n)
{
    static const uint16_t one = 1;

    for (size_t i = 0; *(const unsigned char *)&one == 1 && i < n / 2; i++) {
        unsigned char c = p[i];
        p[i] = p[n - 1 - i];
        p[n - 1 - i] = c;
    }
}

/* An event parameter's number: how wide (0: bytes as they are). */
static size_t param_width(int type)
{
    return type == PM_TYPE_32 || type == PM_TYPE_U32 ? 4 : swapped_width(type);
}

void pmkit_event_to_host(unsigned char *p, size_t len, int highres)
{
    size_t stamp = highres ? 16 : 8, at = 4;
    uint32_t nrec;

    if (len < 4)
        return;
    nrec = pdu_get32(p);
    to_host(p, 4);
    for (uint32_t r = 0; r < nrec && len - at >= stamp + 8; r++) {
        uint32_t flags = pdu_get32(p + at + stamp), nparams = pdu_get32(p + at + stamp + 4);
        for (size_t k = 0; k < stamp; k += stamp / 2)
            to_host(p + at + k, stamp / 2);
        to_host(p + at + stamp, 4);
        to_host(p + at + stamp + 4, 4);
        at += stamp + 8;
        for (uint32_t k = 0; !(flags & PM_EVENT_FLAG_MISSED) && k < nparams; k++) {
            uint32_t hdr, plen;
            size_t w;
            if (len - at < 8)
                return;
            hdr = pdu_get32(p + at + 4);
            plen = hdr & PM_VAL_VLEN_MAX;
            to_host(p + at, 4);
            to_host(p + at + 4, 4);
            if (plen < PM_VAL_HDR_SIZE || plen - PM_VAL_HDR_SIZE > len - at - 8)
                return;
            w = param_width((int)(hdr >> 24));
            if (w != 0 && plen - PM_VAL_HDR_SIZE >= w)
                to_host(p + at + 8, w);
            at += 4 + ((size_t)plen + 3) / 4 * 4;
            if (at > len)
                return;
        }
    }
}

/* The event arrays among n value sets, in host order (rd_block copies
 * their bytes as they are). */
static void events_to_host(pmValueSet **vset, int n)
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; vset[i]->valfmt != PM_VAL_INSITU && j < vset[i]->numval; j++) {
            pmValueBlock *vb = vset[i]->vlist[j].value.pval;
            if (vb->vtype == PM_TYPE_EVENT || vb->vtype == PM_TYPE_HIGHRES_EVENT)
                pmkit_event_to_host((unsigned char *)vb->vbuf, vb->vlen - PM_VAL_HDR_SIZE,
                                    vb->vtype == PM_TYPE_HIGHRES_EVENT);
        }
    }
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

    return x < y ? -1 : x > y;
}

/* Does a block serve two values of the n sets from at (already read
 * whole)?  PCP turns a block's header to host order where it lies, so a
 * second value naming it reads it garbled: PM_ERR_IPC, or worse. */
static int shared_blocks(const unsigned char *pdu, size_t at, int n, pmValueSet **vset)
{
    size_t count = 0, p = at, k = 0;
    uint32_t *offs;
    int shared = 0;

    for (int i = 0; i < n; i++)
        count += vset[i]->valfmt == PM_VAL_INSITU ? 0 : (size_t)vset[i]->numval;
    if (count < 2)
        return 0;
    if ((offs = malloc(count * sizeof(*offs))) == NULL)
        return 1;
    for (int i = 0; i < n; i++) {
        for (int j = 0; vset[i]->valfmt != PM_VAL_INSITU && j < vset[i]->numval; j++)
            offs[k++] = pdu_get32(pdu + p + 12 + 8 * (size_t)j + 4);
        p += vset[i]->numval > 0 ? 12 + 8 * (size_t)vset[i]->numval : 8;
    }
    qsort(offs, count, sizeof(*offs), cmp_u32);
    for (k = 1; k < count && !shared; k++)
        shared = offs[k] == offs[k - 1];
    free(offs);
    return shared;
}

int pdu_dec_vsets(const unsigned char *pdu, size_t len, size_t at, size_t fixed, int n,
                  pmValueSet **vset)
{
    struct rd r = {pdu, len, at, at > len};
    size_t used = fixed, p = at;
    int made;

    if (n < 0 || rd_vsets(&r, n, vset, &made) < 0)
        return PM_ERR_IPC;
    for (int i = 0; i < made; i++)
        used += vset_bytes(vset[i]);
    if (used != len || shared_blocks(pdu, at, made, vset)) {
        free_made(vset, made);
        return PM_ERR_IPC;
    }
    events_to_host(vset, made);
    /* rd_vsets makes every block DPTR: the wire's SPTR sets stay SPTR */
    for (int i = 0; i < made; i++) {
        if (vset[i]->numval > 0 && pdu_get32(pdu + p + 8) == PM_VAL_SPTR &&
            pack_sptr(&vset[i]) < 0) {
            free_made(vset, made);
            return -ENOMEM;
        }
        p += vset[i]->numval > 0 ? 12 + 8 * (size_t)vset[i]->numval : 8;
    }
    return 0;
}

/* HIGHRES_RESULT: the count first, then 64-bit seconds and nanoseconds. */
int pdu_dec_highres_result(const unsigned char *pdu, size_t len, pmHighResResult **out)
{
    struct rd r;
    uint64_t sec, nsec;
    int n;

    *out = NULL;
    if (rd_init(&r, pdu, len) < 0)
        return PM_ERR_IPC;
    n = rd_count(&r, 8);
    sec = (uint64_t)rd32(&r) << 32;
    sec |= rd32(&r);
    nsec = (uint64_t)rd32(&r) << 32;
    nsec |= rd32(&r);
    if (r.bad || n > (int)(rd_left(&r) / 8))
        return PM_ERR_IPC;
    return highres_vsets(&r, n, (int64_t)sec, (int64_t)nsec, out);
}

/* ------------------------------------------------------------------ */
/* Names */

void pdu_enc_name_req(pdu_buf *b, int type, int subtype, const char *name)
{
    pdu_begin(b, type, 0);
    put32(b, (uint32_t)subtype);
    put_str(b, name, strlen(name));
    pdu_end(b);
}

int pdu_dec_name_req(const unsigned char *pdu, size_t len, int *subtype, char **name)
{
    struct rd r;

    *name = NULL;
    if (rd_init(&r, pdu, len) < 0)
        return PM_ERR_IPC;
    *subtype = (int)rd32(&r);
    *name = rd_str(&r, NULL);
    if (rd_done(&r) < 0) {
        free(*name);
        *name = NULL;
        return PM_ERR_IPC;
    }
    return 0;
}

void pdu_enc_pmns_ids(pdu_buf *b, int sts, int n, const pmID *ids)
{
    pdu_begin(b, PDU_PMNS_IDS, 0);
    put32(b, (uint32_t)sts);
    put32(b, (uint32_t)n);
    for (int i = 0; i < n; i++)
        put32(b, ids[i]);
    pdu_end(b);
}

int pdu_dec_pmns_ids(const unsigned char *pdu, size_t len, int *sts, int *n, pmID **ids)
{
    struct rd r;

    *ids = NULL;
    if (rd_init(&r, pdu, len) < 0)
        return PM_ERR_IPC;
    *sts = (int)rd32(&r);
    return rd_pmids(&r, n, ids);
}

void pdu_enc_pmns_names(pdu_buf *b, int n, char *const *names, const int *statuses)
{
    size_t strbytes = 0;

    for (int i = 0; i < n; i++)
        strbytes += strlen(names[i]) + 1;
    pdu_begin(b, PDU_PMNS_NAMES, 0);
    put32(b, (uint32_t)strbytes);
    put32(b, statuses != NULL ? (uint32_t)n : 0);
    put32(b, (uint32_t)n);
    for (int i = 0; i < n; i++) {
        if (statuses != NULL)
            put32(b, (uint32_t)statuses[i]);
        put_str(b, names[i], strlen(names[i]));
    }
    pdu_end(b);
}

int pdu_dec_pmns_names(const unsigned char *pdu, size_t len, int *n, char ***names, int **statuses)
{
    struct rd r;
    int nstatus;
    char **block, *s;

    *names = NULL;
    *statuses = NULL;
    if (rd_init(&r, pdu, len) < 0)
        return PM_ERR_IPC;
    (void)rd32(&r); /* the sum of the name lengths: recomputed, not trusted */
    nstatus = (int)rd32(&r);
    *n = rd_count(&r, 8); /* a name takes 8 bytes at least: empty ones are refused */
    if (r.bad || (nstatus != 0 && nstatus != *n))
        return PM_ERR_IPC;
    /* n pointers, then the strings: together no more than the PDU's bytes */
    if ((block = malloc((size_t)*n * sizeof(char *) + len + 1)) == NULL)
        return -ENOMEM;
    if (nstatus > 0 && (*statuses = malloc((size_t)nstatus * sizeof(int))) == NULL) {
        free(block);
        return -ENOMEM;
    }
    s = (char *)(block + *n);
    for (int i = 0; i < *n && !r.bad; i++) {
        uint32_t sl;
        const unsigned char *p;
        if (nstatus > 0)
            (*statuses)[i] = (int)rd32(&r);
        sl = rd32(&r);
        p = rd_bytes(&r, sl, 1);
        if (p == NULL || sl == 0) {
            r.bad = 1;
            break;
        }
        memcpy(s, p, sl);
        s[sl] = '\0';
        block[i] = s;
        s += sl + 1;
    }
    if (rd_done(&r) < 0) {
        free(block);
        free(*statuses);
        *statuses = NULL;
        return PM_ERR_IPC;
    }
    *names = block;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Labels: ident, type, a zero word, the number of sets; per set its
 * instance, label count, JSON offset (bytes from the start of the PDU) and
 * length, then two words per label; then every set's JSON, unpadded. */

static void put_label(pdu_buf *b, const pmLabel *l)
{
    put32(b, (uint32_t)l->name << 16 | (uint32_t)l->namelen << 8 | l->flags);
    put32(b, (uint32_t)l->value << 16 | l->valuelen);
}

void pdu_enc_label(pdu_buf *b, int ident, int type, const pmLabelSet *sets, int nsets)
{
    size_t json = PDU_HDR_LEN + 16;

    for (int i = 0; i < nsets; i++)
        json += 16 + 8 * (size_t)(sets[i].nlabels > 0 ? sets[i].nlabels : 0);
    pdu_begin(b, PDU_LABEL, 0);
    put32(b, (uint32_t)ident);
    put32(b, (uint32_t)type);
    put32(b, 0);
    put32(b, (uint32_t)nsets);
    for (int i = 0; i < nsets; i++) {
        const pmLabelSet *s = &sets[i];
        size_t jl = s->json != NULL ? s->jsonlen : 0;
        put32(b, s->inst);
        put32(b, (uint32_t)s->nlabels);
        put32(b, (uint32_t)json);
        put32(b, (uint32_t)jl);
        for (int j = 0; j < s->nlabels && s->labels != NULL; j++)
            put_label(b, &s->labels[j]);
        json += jl;
    }
    for (int i = 0; i < nsets; i++)
        if (sets[i].json != NULL)
            put_bytes(b, sets[i].json, sets[i].jsonlen);
    pdu_end(b);
}

/* One set's header and labels; its JSON copied from inside the PDU. */
static int rd_labelset(struct rd *r, pmLabelSet *s)
{
    uint32_t off, jl;

    s->inst = rd32(r);
    s->nlabels = (int)rd32(r);
    off = rd32(r);
    jl = rd32(r);
    if (r->bad || jl > PM_MAXLABELJSONLEN || off > r->len || jl > r->len - off ||
        s->nlabels > PM_MAXLABELS || (s->nlabels > 0 && (size_t)s->nlabels > rd_left(r) / 8))
        return PM_ERR_IPC;
    if ((s->json = malloc((size_t)jl + 1)) == NULL)
        return -ENOMEM;
    memcpy(s->json, r->p + off, jl);
    s->json[jl] = '\0';
    s->jsonlen = jl;
    if (s->nlabels <= 0)
        return 0;
    if ((s->labels = calloc((size_t)s->nlabels, sizeof(pmLabel))) == NULL)
        return -ENOMEM;
    for (int j = 0; j < s->nlabels; j++) {
        uint32_t a = rd32(r), v = rd32(r);
        pmLabel *l = &s->labels[j];
        l->name = a >> 16;
        l->namelen = a >> 8 & 0xff;
        l->flags = a & 0xff;
        l->value = v >> 16;
        l->valuelen = v & 0xffff;
        if ((size_t)l->name + l->namelen > jl || (size_t)l->value + l->valuelen > jl)
            return PM_ERR_IPC;
    }
    return 0;
}

int pdu_dec_label(const unsigned char *pdu, size_t len, int *ident, int *type, pmLabelSet **sets,
                  int *nsets)
{
    struct rd r;
    pmLabelSet *s;
    int n, sts = 0;

    *sets = NULL;
    *nsets = 0;
    if (rd_init(&r, pdu, len) < 0)
        return PM_ERR_IPC;
    *ident = (int)rd32(&r);
    *type = (int)rd32(&r);
    (void)rd32(&r);
    n = rd_count(&r, 16);
    if (r.bad)
        return PM_ERR_IPC;
    if ((s = calloc((size_t)(n > 0 ? n : 1), sizeof(*s))) == NULL)
        return -ENOMEM;
    for (int i = 0; i < n && sts == 0; i++)
        sts = rd_labelset(&r, &s[i]);
    if (sts < 0 || rd_done(&r) < 0) {
        pmFreeLabelSets(s, n);
        return sts < 0 ? sts : PM_ERR_IPC;
    }
    *sets = s;
    *nsets = n;
    return 0;
}
