/*
 * host_api.c - the PMAPI's questions put to pmcd for a host context: one
 * request PDU and one answer per question (tests/oracle/host_diff.sh), encoded and
 * decoded by pdu.c, the answers copied into the layouts PCP's callers get.
 *
 * The API files (pmns.c, desc.c, fetch.c, labelget.c, context.c) call
 * these when the current context is a host one; they keep the parts that
 * do not depend on the source (argument checks, the derived metrics
 * event.flags and event.missed, the help -> one-line fallback).  An ERROR
 * answer's code is returned as it is, as PCP's library does; an answer of
 * the wrong type, or one that does not decode, is PM_ERR_IPC and closes
 * the connection (nonsense()).  Each function holds the context for the
 * whole exchange (its own lock, not the library's: other threads' calls go
 * on meanwhile), so requests on one connection never interleave.
 *
 * Profiles go out lazily: before a fetch (or a request for instances'
 * labels), when pmcd has not seen the context's current profile (at least
 * once per connection, or pmcd refuses the fetch with PM_ERR_NOPROFILE).
 *
 * Not here: archive contexts.
 */
#include "host.h"
#include "pdu.h"
#include "values.h"

#include <stdlib.h>
#include <string.h>

/* Name lookups of 500 names or more go in PDUs of at most this size, as
 * PCP's do (fewer names go in one PDU, however long). */
#define LOOKUP_SPLIT_NAMES 500
#define LOOKUP_SPLIT_BYTES (63 * 1024)

/* An answer that is not what the request wants, or does not decode: the
 * connection is dropped (PCP's library closes it too) and PM_ERR_IPC. */
static int nonsense(pmkit_ctx *ctx, int sts)
{
    return pmkit_host_broken(ctx->host, sts);
}

/* The answer to the request in the connection's buffer: its length if it
 * is a PDU of type want, an ERROR's (negative) code, else PM_ERR_IPC. */
static int answer(pmkit_ctx *ctx, int want, const unsigned char **pdu)
{
    int len = pmkit_host_call(ctx, pdu), code;

    if (len < 0)
        return len;
    if (pdu_type(*pdu) == want)
        return len;
    if (pdu_type(*pdu) == PDU_ERROR && pdu_dec_error(*pdu, (size_t)len, &code) == 0 && code < 0)
        return code;
    return nonsense(ctx, PM_ERR_IPC);
}

/* ---------------------------------------------------------------- */
/* Names */

/* One PMNS_NAMES request for names[0..n): pmcd's count, ids filled. */
static int lookup_chunk(pmkit_ctx *ctx, int n, const char **names, pmID *ids)
{
    const unsigned char *pdu;
    pmID *got;
    int len, sts, found, m;

    pdu_enc_pmns_names(pmkit_host_out(ctx->host), n, (char *const *)names, NULL);
    if ((len = answer(ctx, PDU_PMNS_IDS, &pdu)) < 0)
        return len;
    if ((sts = pdu_dec_pmns_ids(pdu, (size_t)len, &found, &m, &got)) < 0 || m != n || found < 0 ||
        found > n) {
        free(got);
        return nonsense(ctx, sts < 0 ? sts : PM_ERR_IPC);
    }
    memcpy(ids, got, (size_t)n * sizeof(pmID));
    free(got);
    return found;
}

/* How many of the n names from names[0] go in one request: all of them
 * unless the lookup is split, else as many as keep the PDU (its header and
 * three words, then a length word and the name padded to a word for each)
 * within LOOKUP_SPLIT_BYTES, one at least.  PCP's requests, byte for byte:
 * a split lookup's last names are split too, however few. */
static int chunk_size(int split, int n, const char **names)
{
    size_t bytes = 6 * 4;
    int k = 0;

    if (!split)
        return n;
    for (; k < n; k++) {
        size_t one = 4 + ((strlen(names[k]) + 3) & ~(size_t)3);
        if (k > 0 && bytes + one > LOOKUP_SPLIT_BYTES)
            break;
        bytes += one;
    }
    return k;
}

static int lookup_ctx(pmkit_ctx *ctx, int n, const char **names, pmID *ids)
{
    const char **safe = malloc((size_t)n * sizeof(*safe));
    int found = 0, sts = 0, split = n >= LOOKUP_SPLIT_NAMES;

    if (safe == NULL)
        return -ENOMEM;
    for (int i = 0; i < n; i++)
        safe[i] = names[i] != NULL ? names[i] : ""; /* pmcd refuses it, as PCP's would */
    for (int i = 0; i < n && sts >= 0;) {
        int k = chunk_size(split, n - i, safe + i);
        sts = lookup_chunk(ctx, k, safe + i, ids + i);
        if (sts >= 0) {
            found += sts;
        } else if (n > 1 && k == 1 && (sts == PM_ERR_NAME || sts == PM_ERR_NONLEAF)) {
            sts = 0; /* pmcd's answer for a one-name request that failed */
        }
        i += k;
    }
    free(safe);
    return sts < 0 ? sts : found;
}

int pmkit_host_lookup(int n, const char **names, pmID *pmids)
{
    pmkit_ctx *ctx;
    int sts;

    if ((ctx = pmkit_ctx_host_hold()) == NULL)
        return PM_ERR_NOCONTEXT;
    sts = lookup_ctx(ctx, n, names, pmids);
    pmkit_ctx_release(ctx);
    return sts;
}

/* A PMNS_NAMES answer to the request built: count and PCP's blocks
 * (*names NULL for none); statuses wanted when status is not NULL. */
static int names_answer(pmkit_ctx *ctx, char ***names, int **status)
{
    const unsigned char *pdu;
    int len, n, *st = NULL;
    char **block = NULL;

    *names = NULL;
    if (status != NULL)
        *status = NULL;
    if ((len = answer(ctx, PDU_PMNS_NAMES, &pdu)) < 0)
        return len;
    if ((len = pdu_dec_pmns_names(pdu, (size_t)len, &n, &block, &st)) < 0)
        return nonsense(ctx, len);
    if (n == 0 || (status != NULL && st == NULL)) {
        free(block);
        free(st);
        return n == 0 ? 0 : nonsense(ctx, PM_ERR_IPC);
    }
    *names = block;
    if (status != NULL)
        *status = st;
    else
        free(st);
    return n;
}

int pmkit_host_children(const char *name, char ***kids, int **status)
{
    pmkit_ctx *ctx;
    int sts = PM_ERR_NOCONTEXT;

    if ((ctx = pmkit_ctx_host_hold()) != NULL) {
        pdu_enc_name_req(pmkit_host_out(ctx->host), PDU_PMNS_CHILD, status != NULL, name);
        sts = names_answer(ctx, kids, status);
        pmkit_ctx_release(ctx);
    }
    return sts;
}

int pmkit_host_traverse(const char *name, char ***names)
{
    pmkit_ctx *ctx;
    int sts = PM_ERR_NOCONTEXT;

    if ((ctx = pmkit_ctx_host_hold()) != NULL) {
        pdu_enc_name_req(pmkit_host_out(ctx->host), PDU_PMNS_TRAVERSE, 0, name);
        sts = names_answer(ctx, names, NULL);
        pmkit_ctx_release(ctx);
    }
    return sts;
}

int pmkit_host_names(pmID pmid, char ***names)
{
    pmkit_ctx *ctx;
    int sts = PM_ERR_NOCONTEXT;

    if ((ctx = pmkit_ctx_host_hold()) != NULL) {
        pdu_enc_pmns_ids(pmkit_host_out(ctx->host), 0, 1, &pmid);
        if ((sts = names_answer(ctx, names, NULL)) == 0)
            sts = PM_ERR_PMID; /* no names at all */
        pmkit_ctx_release(ctx);
    }
    return sts;
}

/* ---------------------------------------------------------------- */
/* Metadata */

static int desc_ctx(pmkit_ctx *ctx, pmID pmid, pmDesc *desc)
{
    const unsigned char *pdu;
    int len;

    pdu_enc_desc_req(pmkit_host_out(ctx->host), pmid);
    if ((len = answer(ctx, PDU_DESC, &pdu)) < 0)
        return len;
    return nonsense(ctx, pdu_dec_desc(pdu, (size_t)len, desc));
}

int pmkit_host_desc(pmID pmid, pmDesc *desc)
{
    pmkit_ctx *ctx;
    int sts;

    if ((ctx = pmkit_ctx_host_hold()) == NULL)
        return PM_ERR_NOCONTEXT;
    sts = desc_ctx(ctx, pmid, desc);
    pmkit_ctx_release(ctx);
    return sts;
}

/* DESC_IDS when pmcd offers it (one answer for all), else one DESC_REQ each. */
static int descs_ctx(pmkit_ctx *ctx, int n, pmID *pmids, pmDesc *descs)
{
    const unsigned char *pdu;
    int len, found = 0;

    if (!pmkit_host_has(ctx->host, PDU_FLAG_DESCS)) {
        for (int i = 0; i < n; i++) {
            int sts = desc_ctx(ctx, pmids[i], &descs[i]);
            if (sts == PM_ERR_IPC || sts == PM_ERR_TIMEOUT || sts == -ENOMEM)
                return sts;
            if (sts < 0)
                descs[i].pmid = PM_ID_NULL;
            else
                found++;
        }
        return found;
    }
    pdu_enc_desc_ids(pmkit_host_out(ctx->host), n, pmids);
    if ((len = answer(ctx, PDU_DESCS, &pdu)) < 0)
        return len;
    if ((len = pdu_dec_descs(pdu, (size_t)len, n, descs)) < 0)
        return nonsense(ctx, len);
    for (int i = 0; i < n; i++)
        found += descs[i].pmid != PM_ID_NULL;
    return found;
}

int pmkit_host_descs(int n, pmID *pmids, pmDesc *descs)
{
    pmkit_ctx *ctx;
    int sts;

    if ((ctx = pmkit_ctx_host_hold()) == NULL)
        return PM_ERR_NOCONTEXT;
    sts = descs_ctx(ctx, n, pmids, descs);
    pmkit_ctx_release(ctx);
    return sts;
}

int pmkit_host_text(int ident, int type, char **text)
{
    const unsigned char *pdu;
    pmkit_ctx *ctx;
    int sts = PM_ERR_NOCONTEXT;

    if ((ctx = pmkit_ctx_host_hold()) != NULL) {
        pdu_enc_text_req(pmkit_host_out(ctx->host), ident, type & ~PM_TEXT_DIRECT);
        if ((sts = answer(ctx, PDU_TEXT, &pdu)) >= 0)
            sts = nonsense(ctx, pdu_dec_text(pdu, (size_t)sts, text));
        pmkit_ctx_release(ctx);
    }
    return sts;
}

int pmkit_host_instance(pmInDom indom, int inst, const char *name, pmInResult **res)
{
    const unsigned char *pdu;
    pmkit_ctx *ctx;
    int sts = PM_ERR_NOCONTEXT;

    *res = NULL;
    if ((ctx = pmkit_ctx_host_hold()) != NULL) {
        pdu_enc_instance_req(pmkit_host_out(ctx->host), indom, inst, name);
        if ((sts = answer(ctx, PDU_INSTANCE, &pdu)) >= 0)
            sts = nonsense(ctx, pdu_dec_instance(pdu, (size_t)sts, res));
        pmkit_ctx_release(ctx);
    }
    return sts;
}

/* LABEL_REQ -> LABEL: the sets pmcd sends (its context's, or an agent's).
 * Instances' labels follow the profile, so pmcd must have one first (as
 * for a fetch; PCP's library sends it too, and pmcd drops a client that
 * asks without one). */
int pmkit_host_labels(int ident, int type, pmLabelSet **sets)
{
    const unsigned char *pdu;
    pmkit_ctx *ctx;
    int sts = PM_ERR_NOCONTEXT, rident, rtype, n = 0;

    *sets = NULL;
    if ((ctx = pmkit_ctx_host_hold()) != NULL) {
        if (type == PM_LABEL_INSTANCES && (sts = pmkit_host_profile(ctx)) < 0) {
            pmkit_ctx_release(ctx);
            return sts;
        }
        pdu_enc_label_req(pmkit_host_out(ctx->host), ident, type);
        if ((sts = answer(ctx, PDU_LABEL, &pdu)) >= 0 &&
            (sts = nonsense(ctx, pdu_dec_label(pdu, (size_t)sts, &rident, &rtype, sets, &n))) >= 0)
            sts = n;
        if (n == 0) { /* none: no sets for the caller to free */
            free(*sets);
            *sets = NULL;
        }
        pmkit_ctx_release(ctx);
    }
    return sts;
}

/* ---------------------------------------------------------------- */
/* Values */

/* Move a decoded result's value sets into vsets[n]. */
static int take_vsets(int want, int n, pmValueSet **from, pmValueSet **vsets)
{
    if (n != want) {
        pmkit_free_vsets(from, n);
        return PM_ERR_IPC;
    }
    memcpy(vsets, from, (size_t)n * sizeof(*vsets));
    memset(from, 0, (size_t)n * sizeof(*from));
    return 0;
}

/* The result answering a fetch; ERRORs with state bits before it are
 * collected in *bits. */
static int fetch_answer(pmkit_ctx *ctx, int n, pmValueSet **vsets, struct timespec *stamp,
                        int *bits)
{
    const unsigned char *pdu;
    int len, code, sts;

    for (;;) {
        if ((len = pmkit_host_recv(ctx, &pdu)) < 0)
            return len;
        if (pdu_type(pdu) != PDU_ERROR)
            break;
        if (pdu_dec_error(pdu, (size_t)len, &code) < 0 || code == 0)
            return nonsense(ctx, PM_ERR_IPC);
        if (code < 0)
            return code;
        *bits |= code; /* PMCD_* state changes, then the result */
    }
    if (pdu_type(pdu) == PDU_HIGHRES_RESULT) {
        pmHighResResult *r;
        if ((sts = pdu_dec_highres_result(pdu, (size_t)len, &r)) < 0)
            return nonsense(ctx, sts);
        *stamp = r->timestamp;
        sts = take_vsets(n, r->numpmid, r->vset, vsets);
        free(r);
        return nonsense(ctx, sts);
    }
    if (pdu_type(pdu) == PDU_RESULT) {
        pmResult *r;
        if ((sts = pdu_dec_result(pdu, (size_t)len, &r)) < 0)
            return nonsense(ctx, sts);
        stamp->tv_sec = r->timestamp.tv_sec;
        stamp->tv_nsec = r->timestamp.tv_usec * 1000;
        sts = take_vsets(n, r->numpmid, r->vset, vsets);
        free(r);
        return nonsense(ctx, sts);
    }
    return nonsense(ctx, PM_ERR_IPC);
}

static int fetch_ctx(pmkit_ctx *ctx, int n, pmID *pmids, pmValueSet **vsets, struct timespec *stamp)
{
    int type = pmkit_host_has(ctx->host, PDU_FLAG_HIGHRES) ? PDU_HIGHRES_FETCH : PDU_FETCH;
    int sts, bits = 0;

    if ((sts = pmkit_host_profile(ctx)) < 0)
        return sts;
    pdu_enc_fetch_as(pmkit_host_out(ctx->host), type, ctx->handle, n, pmids);
    if ((sts = pmkit_host_send(ctx)) < 0)
        return sts;
    sts = fetch_answer(ctx, n, vsets, stamp, &bits);
    return sts < 0 ? sts : bits;
}

int pmkit_host_fetch(int n, pmID *pmids, pmValueSet **vsets, struct timespec *stamp)
{
    pmkit_ctx *ctx;
    int sts;

    if ((ctx = pmkit_ctx_host_hold()) == NULL)
        return PM_ERR_NOCONTEXT;
    sts = fetch_ctx(ctx, n, pmids, vsets, stamp);
    pmkit_ctx_release(ctx);
    return sts;
}

/* The values go as a RESULT PDU (its time stamp is not used by pmcd's
 * agents); pmcd answers ERROR(0) or ERROR(the failure). */
int pmkit_host_store(int n, pmValueSet *const *vsets)
{
    const unsigned char *pdu;
    pmkit_ctx *ctx;
    pmResult *r;
    int sts = PM_ERR_NOCONTEXT, len, code;

    r = calloc(1, sizeof(*r) + (size_t)(n > 1 ? n - 1 : 0) * sizeof(pmValueSet *));
    if (r == NULL)
        return -ENOMEM;
    r->numpmid = n;
    memcpy(r->vset, vsets, (size_t)n * sizeof(*vsets));
    if ((ctx = pmkit_ctx_host_hold()) != NULL) {
        pdu_enc_result(pmkit_host_out(ctx->host), r);
        if ((len = pmkit_host_call(ctx, &pdu)) < 0)
            sts = len;
        else if (pdu_type(pdu) != PDU_ERROR || pdu_dec_error(pdu, (size_t)len, &code) < 0)
            sts = nonsense(ctx, PM_ERR_IPC);
        else
            sts = code;
        pmkit_ctx_release(ctx);
    }
    free(r);
    return sts;
}

/* pmcd.hostname's value, as PCP's pmGetContextHostName asks; when pmcd
 * cannot say, the host part of the context's specification. */
void pmkit_host_hostname(pmkit_ctx *ctx, char *buf, int buflen)
{
    const char *name = "pmcd.hostname";
    pmValueSet *vs = NULL;
    struct timespec stamp;
    pmID pmid;

    if (lookup_ctx(ctx, 1, &name, &pmid) == 1 && fetch_ctx(ctx, 1, &pmid, &vs, &stamp) >= 0 &&
        vs != NULL && vs->numval == 1 && vs->valfmt != PM_VAL_INSITU &&
        vs->vlist[0].value.pval->vtype == PM_TYPE_STRING &&
        vs->vlist[0].value.pval->vlen > PM_VAL_HDR_SIZE + 1) {
        pmkit_copy(buf, buflen, vs->vlist[0].value.pval->vbuf);
    } else {
        pmkit_copy(buf, buflen, pmkit_host_name(ctx->host));
    }
    pmkit_free_vsets(&vs, 1);
}
