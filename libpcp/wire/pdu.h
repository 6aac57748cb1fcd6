/*
 * pdu.h - the PDUs of the pmcd protocol (tests/unit/test_pdu.c): framing, the
 * type codes, and an encoder and a decoder for each PDU a daemon agent or
 * a client reads or writes.  Private to libpcp: the client side (host.c,
 * host_api.c), libpcp_pmda's daemon.c, and the unit test and fuzz target,
 * which link the static libraries.
 *
 * Every PDU is handled whole, header included: decoders take the bytes
 * pdu_read returned (or any bytes at all: each length and count is checked
 * against the PDU's size before use, and a PDU that does not add up is
 * refused with PM_ERR_IPC); encoders build into a pdu_buf whose first
 * 12 bytes become the header.  Integers are 32-bit big-endian on the wire.
 */
#ifndef PMKIT_PMAPI_PDU_H
#define PMKIT_PMAPI_PDU_H

#include <pcp/pmapi.h>
#include <pcp/pmda.h>
#include <pcp/libpcp.h>

#include <stddef.h>
#include <stdint.h>

/* The type codes (PDU_ERROR ... PDU_DESCS), PDU_VERSION and the feature
 * bits (PDU_FLAG_*) are <pcp/libpcp.h>'s. */

#define PDU_HDR_LEN   12
/* The largest PDU an agent accepts from pmcd, or a client from pmcd: a
 * hostile length must not make either allocate without bound, and real
 * PDUs are far smaller. */
#define PDU_MAX_LEN   (16 * 1024 * 1024)
/* CREDS: numcreds bound, and the one credential type agents use. */
#define PDU_MAX_CREDS 1024
#define PDU_CVERSION  1

/* Header fields of a PDU already known to hold at least PDU_HDR_LEN bytes. */
static inline uint32_t pdu_get32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
/* v as four big-endian bytes at p (the wire's and the archives' order). */
static inline void pdu_put32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}
static inline int pdu_type(const unsigned char *pdu)
{
    return (int)pdu_get32(pdu + 4);
}
static inline int pdu_from(const unsigned char *pdu)
{
    return (int)pdu_get32(pdu + 8);
}

/* A PDU being built: data[0..len) so far; err sticks at the first failure
 * (-ENOMEM, or PM_ERR_TOOBIG past PDU_MAX_LEN). */
typedef struct pdu_buf {
    unsigned char *data; /* malloc'd, grown as needed */
    size_t len;          /* bytes written */
    size_t cap;          /* bytes allocated */
    int err;             /* 0, or the first error */
} pdu_buf;

/* Empty b and write a header for type/from (its length is set by pdu_end). */
void pdu_begin(pdu_buf *b, int type, int from);
/* Set the length field; 0, or b->err. */
int pdu_end(pdu_buf *b);
/* Overwrite the header's from field (a client's requests carry its context). */
void pdu_set_from(pdu_buf *b, int from);
void pdu_buf_free(pdu_buf *b);

/*
 * Read one PDU from fd into *buf (grown as needed; the caller frees it).
 * Returns its length, PM_ERR_EOF at end of file before a header, or
 * PM_ERR_IPC (a short PDU, a length below 12 or above PDU_MAX_LEN, a
 * negative type) / -errno.
 */
int pdu_read(int fd, unsigned char **buf, size_t *cap);
/* The same within timeout_ms for the whole PDU (-1: none); -EAGAIN when
 * it runs out. */
int pdu_read_timed(int fd, unsigned char **buf, size_t *cap, int timeout_ms);
/* The protocol version (__pmVersionIPC) of the descriptor __pmGetPDU last
 * read from: what pmlogger's status PDU is decoded by, as PCP's. */
int pmkit_pdu_last_version(void);
/* Write all of b's PDU to fd: 0, b's encoding error or -errno. */
int pdu_write(int fd, const pdu_buf *b);
/* The same to a socket, never raising SIGPIPE (-EPIPE instead). */
int pdu_send(int fd, const pdu_buf *b);

/* ---- Encoders (into b, from = 0 unless given) ---- */
void pdu_enc_error(pdu_buf *b, int code);
void pdu_enc_creds(pdu_buf *b, int from, int version, int flags);
void pdu_enc_desc(pdu_buf *b, const pmDesc *d);
void pdu_enc_instance(pdu_buf *b, const pmInResult *r);
/* ident as the agent's native int (what PCP sends; receivers ignore it). */
void pdu_enc_text(pdu_buf *b, int ident, const char *text);
void pdu_enc_result(pdu_buf *b, const pmResult *r);
/* HIGHRES_RESULT with the time given (the result's own is not used). */
void pdu_enc_highres_result(pdu_buf *b, int64_t sec, int64_t nsec, const pmResult *r);
void pdu_enc_pmns_ids(pdu_buf *b, int sts, int n, const pmID *ids);
/* statuses may be NULL: the names are sent without. */
void pdu_enc_pmns_names(pdu_buf *b, int n, char *const *names, const int *statuses);
void pdu_enc_label(pdu_buf *b, int ident, int type, const pmLabelSet *sets, int nsets);
/* The requests a client sends (host.c, host_api.c), which pmcd passes on
 * to agents. */
void pdu_enc_profile(pdu_buf *b, int ctx, const pmProfile *p);
/* type PDU_FETCH or PDU_HIGHRES_FETCH: the same layout. */
void pdu_enc_fetch_as(pdu_buf *b, int type, int ctx, int n, const pmID *pmids);
void pdu_enc_desc_ids(pdu_buf *b, int n, const pmID *pmids);
void pdu_enc_desc_req(pdu_buf *b, pmID pmid);
void pdu_enc_instance_req(pdu_buf *b, pmInDom indom, int inst, const char *name);
void pdu_enc_text_req(pdu_buf *b, int ident, int type);
void pdu_enc_name_req(pdu_buf *b, int type, int subtype, const char *name);
void pdu_enc_label_req(pdu_buf *b, int ident, int type);
void pdu_enc_attr(pdu_buf *b, int attr, const char *value, int len);

/* ---- Decoders: 0 (or a count) and malloc'd outputs, else PM_ERR_IPC ---- */
int pdu_dec_error(const unsigned char *pdu, size_t len, int *code);
/* pmcd's greeting (an ERROR of exactly 20 bytes): its code and info word. */
int pdu_dec_greeting(const unsigned char *pdu, size_t len, int *code, uint32_t *info);
/* DESCS answering a DESC_IDS of n PMIDs: exactly n into descs[n]. */
int pdu_dec_descs(const unsigned char *pdu, size_t len, int n, pmDesc *descs);
/* Values as pdu_dec_result's; free with pmFreeHighResResult. */
int pdu_dec_highres_result(const unsigned char *pdu, size_t len, pmHighResResult **r);
/* A version 3 archive's data record framed as a RESULT PDU (what
 * __pmDecodeResult_ctx is given for such an archive's context). */
int pdu_dec_archive3_result(const unsigned char *pdu, size_t len, pmHighResResult **r);
/* n value sets from byte at of the len bytes at pdu into vset[n] (their
 * blocks named by word offsets from pdu), when fixed bytes, the sets and
 * their blocks rounded to words make len exactly; free with
 * pmkit_free_vsets. */
int pdu_dec_vsets(const unsigned char *pdu, size_t len, size_t at, size_t fixed, int n,
                  pmValueSet **vset);
/* *version and *flags from the CVERSION credential. */
int pdu_dec_creds(const unsigned char *pdu, size_t len, int *version, int *flags);
int pdu_dec_desc(const unsigned char *pdu, size_t len, pmDesc *d);
/* Free *r with __pmFreeInResult. */
int pdu_dec_instance(const unsigned char *pdu, size_t len, pmInResult **r);
/* *text malloc'd and NUL-terminated. */
int pdu_dec_text(const unsigned char *pdu, size_t len, char **text);
/* Values in host order, DPTR blocks malloc'd; free with pdu_free_result. */
int pdu_dec_result(const unsigned char *pdu, size_t len, pmResult **r);
void pdu_free_result(pmResult *r);
/* *ids malloc'd. */
int pdu_dec_pmns_ids(const unsigned char *pdu, size_t len, int *sts, int *n, pmID **ids);
/* *names one block (pointers then strings), *statuses malloc'd or NULL. */
int pdu_dec_pmns_names(const unsigned char *pdu, size_t len, int *n, char ***names, int **statuses);
/* Free *sets with pmFreeLabelSets(*sets, *nsets). */
int pdu_dec_label(const unsigned char *pdu, size_t len, int *ident, int *type, pmLabelSet **sets,
                  int *nsets);
/* One block holding the pmProfile, its entries and their instances: free(*p). */
int pdu_dec_profile(const unsigned char *pdu, size_t len, int *ctx, pmProfile **p);
/* *pmids malloc'd. */
int pdu_dec_fetch(const unsigned char *pdu, size_t len, int *ctx, int *n, pmID **pmids);
int pdu_dec_desc_req(const unsigned char *pdu, size_t len, pmID *pmid);
/* *name malloc'd, or NULL when the request names no instance. */
int pdu_dec_instance_req(const unsigned char *pdu, size_t len, pmInDom *indom, int *inst,
                         char **name);
int pdu_dec_text_req(const unsigned char *pdu, size_t len, int *ident, int *type);
/* PMNS_CHILD / PMNS_TRAVERSE: *name malloc'd ("" for the root). */
int pdu_dec_name_req(const unsigned char *pdu, size_t len, int *subtype, char **name);
int pdu_dec_label_req(const unsigned char *pdu, size_t len, int *ident, int *type);
/* *value malloc'd with a NUL after its *vlen bytes. */
int pdu_dec_attr(const unsigned char *pdu, size_t len, int *attr, char **value, int *vlen);

/* An event array's payload (len bytes at p: the record count, then the
 * records) from network (big-endian) order to the host's, in place, as far
 * as its own counts and lengths stay inside: times, flags, counts, each
 * parameter's PMID and header, and its number where it has one (32 and 64
 * bits, float, double).  For the PDU decoders and archive records. */
void pmkit_event_to_host(unsigned char *p, size_t len, int highres);

#endif /* PMKIT_PMAPI_PDU_H */
