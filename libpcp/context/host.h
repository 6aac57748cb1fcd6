/*
 * host.h - a host context's connection to pmcd (host.c) and the PMAPI's
 * questions put to it (host_api.c): for the context room and the rooms
 * whose calls a host context answers (names, metrics).
 */
#ifndef PMKIT_HOST_H
#define PMKIT_HOST_H

#include "context.h"

/*
 * The connection of a host context to pmcd (host.c).  Called with the
 * context held (pmkit_ctx_hold), or on a connection no other thread can
 * see yet.  open connects to a specification, greets and sends CREDS (0,
 * or -errno / PM_ERR_* as PCP reports them); reconnect does it again for
 * an open connection.  A request is built into pmkit_host_out (pdu.h's
 * encoders) and sent with send (which stamps the context's handle as
 * from); recv reads one answer, valid until the next call: its length, or
 * PM_ERR_IPC / PM_ERR_TIMEOUT, which also close the connection.  profile
 * sends ctx's profile unless pmcd already has that version of it.
 */
struct pdu_buf;
int pmkit_host_open(const char *spec, pmkit_host **out);
int pmkit_host_reconnect(pmkit_host *h);
void pmkit_host_close(pmkit_host *h);
const char *pmkit_host_spec(const pmkit_host *h);
/* The host part of the specification ("localhost" for a unix socket). */
const char *pmkit_host_name(const pmkit_host *h);
/* The connection's socket (-1 once lost) and whether a PROFILE went out on
 * it, for PCP's view of the context. */
int pmkit_host_fd(const pmkit_host *h);
int pmkit_host_profile_sent(const pmkit_host *h);
/* Did pmcd's greeting advertise this PDU_FLAG_*? */
int pmkit_host_has(const pmkit_host *h, int feature);
struct pdu_buf *pmkit_host_out(pmkit_host *h);
int pmkit_host_send(pmkit_ctx *ctx);
int pmkit_host_recv(pmkit_ctx *ctx, const unsigned char **pdu);
int pmkit_host_call(pmkit_ctx *ctx, const unsigned char **pdu);
int pmkit_host_profile(pmkit_ctx *ctx);
/* sts, after closing the connection if it is PM_ERR_IPC or PM_ERR_TIMEOUT
 * (a broken transport, or an answer that makes no sense, as PCP closes
 * it): every request then fails with PM_ERR_IPC until pmReconnectContext. */
int pmkit_host_broken(pmkit_host *h, int sts);

/*
 * The PMAPI over a host context (host_api.c): each holds the current
 * context (pmkit_ctx_host_hold; the caller must not hold the library
 * lock) and answers for it, the caller having found it to be a host one
 * (PM_ERR_NOCONTEXT if it no longer is), with pmcd's answer as
 * PCP's client library returns it, derived metrics excepted (the API
 * files add those as for the other contexts).
 */
/* pmcd's count of names found (pmidlist[] filled, PM_ID_NULL for the
 * others), or, for one name, its error. */
int pmkit_host_lookup(int n, const char **names, pmID *pmids);
/* The children (and statuses) in PCP's blocks: count, 0 for a leaf. */
int pmkit_host_children(const char *name, char ***kids, int **status);
/* Every leaf below name in one block: count, or an error. */
int pmkit_host_traverse(const char *name, char ***names);
/* Every name of pmid in one block: count, or an error. */
int pmkit_host_names(pmID pmid, char ***names);
int pmkit_host_desc(pmID pmid, pmDesc *desc);
/* pmLookupDescs: count found, failed entries' pmid PM_ID_NULL. */
int pmkit_host_descs(int n, pmID *pmids, pmDesc *descs);
/* One text request (type with PM_TEXT_PMID or PM_TEXT_INDOM); *text malloc'd. */
int pmkit_host_text(int ident, int type, char **text);
/* An instance request as an agent's instance method takes it. */
int pmkit_host_instance(pmInDom indom, int inst, const char *name, pmInResult **res);
/* Fetch into vsets[n] (caller's, NULL filled); *stamp pmcd's time; returns
 * the PMCD_* state bits (>= 0) or an error. */
int pmkit_host_fetch(int n, pmID *pmids, pmValueSet **vsets, struct timespec *stamp);
int pmkit_host_store(int n, pmValueSet *const *vsets);
/* LABEL_REQ for ident and a PM_LABEL_* type: the sets, and their count. */
int pmkit_host_labels(int ident, int type, pmLabelSet **sets);
/* pmcd's pmcd.hostname for ctx (held), else the specification's host. */
void pmkit_host_hostname(pmkit_ctx *ctx, char *buf, int buflen);

#endif /* PMKIT_HOST_H */
