/*
 * pmapi_int.h - private declarations shared by the files of libpcp/pmapi,
 * and by libpcp_pmda (libpcp/pmda/pmda_int.h includes it for the libpcp
 * internals it calls).  Nothing outside libpcp/ includes this.
 */
#ifndef PMKIT_PMAPI_INT_H
#define PMKIT_PMAPI_INT_H

#include <pcp/pmapi.h>
#include <pcp/pmkit.h>
#include <pcp/pmda.h>

#include <malloc.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#if defined(__has_include)
#if __has_include(<sys/single_threaded.h>)
#include <sys/single_threaded.h> /* glibc 2.32 and later */
#define PMKIT_HAVE_SINGLE_THREADED 1
#endif
#endif
#ifndef PMKIT_HAVE_SINGLE_THREADED
#define PMKIT_HAVE_SINGLE_THREADED 0
#endif

/*
 * Is this process sure to have one thread only?  Then no other thread can
 * observe the library's shared state until this one starts a thread
 * (pthread_create orders everything before it), so the lock and the names
 * API's hazard need no fences.  0 where the C library cannot tell.
 */
static inline int pmkit_single_threaded(void)
{
#if PMKIT_HAVE_SINGLE_THREADED
    return __libc_single_threaded != 0;
#else
    return 0;
#endif
}

/*
 * Blocks that carry what they point at.  A value set from pmdaFetch
 * carries its value blocks inside its own allocation, and a pmInResult
 * namelist from pmdaInstance carries its names, so the free functions
 * free only the pointers that lie outside; anything an agent malloc'd on
 * its own cannot lie inside another live block.  (glibc's and musl's
 * malloc_usable_size, which sanitizers and valgrind also provide.)
 * Usable bytes of the malloc'd block at base (0 for NULL):
 */
static inline size_t pmkit_block_size(const void *base)
{
    return malloc_usable_size((void *)base);
}

/* Is p inside [base, base + size)?  (size from pmkit_block_size) */
static inline int pmkit_in_block(const void *base, size_t size, const void *p)
{
    return (uintptr_t)p - (uintptr_t)base < size;
}

/* Copy src into buf[buflen], truncating, always NUL-terminated; returns buf.
 * buflen <= 0 leaves buf untouched. */
char *pmkit_copy(char *buf, int buflen, const char *src);

/* A parser's error message as PCP writes it: TEXT, a newline, a caret
 * under byte AT, " -- WHY" and a newline; malloc'd, NULL when out of
 * memory.  The caret line is blanks, or with keep_controls the text's own
 * control and non-ASCII bytes where they stand (pmParseMetricSpec). */
char *pmkit_caret_msg(const char *text, size_t at, const char *why, int keep_controls);

/* SECS as whole seconds and 1/PER parts, rounded and carried (time.c). */
void pmkit_split_seconds(double secs, long per, time_t *sec, long *part);

/* mktime in the current reporting zone (pmNewZone/pmUseZone), else local
 * time (time.c). */
time_t pmkit_zone_mktime(struct tm *tm);

/* pmprintf with a va_list. */
int pmkit_vprintf(const char *fmt, va_list ap);

/* Free n value sets and the value blocks they point to (fetch.c). */
void pmkit_free_vsets(pmValueSet **vsets, int n);

/* "32", "U64", ... for a PM_TYPE_* value; "???" for values PCP has no name for. */
const char *pmkit_type_name(int type);

/*
 * Contexts (context.c).  One recursive lock serialises the context table,
 * the local agent table and every call into an agent; the functions below
 * expect the caller to hold it (pmkit_lock/pmkit_unlock), unless they say
 * otherwise.  A host context has a lock of its own besides, which its
 * exchanges with pmcd hold instead of the library's (pmkit_ctx_hold).
 */
typedef struct pmkit_host pmkit_host;

typedef struct pmkit_ctx {
    int handle;        /* what pmNewContext returned */
    int type;          /* PM_CONTEXT_LOCAL or PM_CONTEXT_HOST */
    unsigned prof_gen; /* bumped on every profile change */
    pmProfile prof;    /* the instance profile; its address is stable */
    pmkit_host *host;  /* PM_CONTEXT_HOST: the connection to pmcd (host.c) */
    /* PM_CONTEXT_HOST: held around each use of host and of prof */
    pthread_mutex_t use;
    int holds;       /* threads holding or waiting for use (library lock) */
    atomic_int gone; /* destroyed while held: the last holder frees it */
} pmkit_ctx;

void pmkit_lock(void);
void pmkit_unlock(void);
/* The calling thread's current context, or NULL. */
pmkit_ctx *pmkit_ctx_current(void);
/*
 * Called without the library lock: the calling thread's current context
 * (or the one of handle), held for one use, or NULL (nothing held) for none.  A local
 * context is held by the library lock; a host context by its own lock
 * only, so a thread waiting for one pmcd does not stop the others.  The
 * context stays allocated until pmkit_ctx_release, even if another thread
 * destroys it meanwhile; one destroyed while a thread waited to hold it is
 * not held (NULL).  host_hold answers only for a host context.  A caller
 * already holding the library lock (an agent calling back) keeps it while
 * it waits and talks to pmcd: safe, as no holder of a context's lock waits
 * for the library's, but other threads wait meanwhile.
 */
pmkit_ctx *pmkit_ctx_hold(void);
pmkit_ctx *pmkit_ctx_hold_handle(int handle);
pmkit_ctx *pmkit_ctx_host_hold(void);
void pmkit_ctx_release(pmkit_ctx *ctx);
/* Is the calling thread's current context a local one?  (No lock, as
 * pmkit_ctx_type_current below.) */
int pmkit_ctx_local_current(void);
/* The type of the calling thread's current context, PM_CONTEXT_UNDEF for
 * none.  (No lock: a thread-local copy kept with the current handle.) */
int pmkit_ctx_type_current(void);

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

/*
 * Local agents (local.c), called with the lock held.  dso_for returns the
 * loaded agent serving a domain and prepares it for a call from ctx
 * (e_context for interface >= 5), or NULL (PM_ERR_NOAGENT).
 */
__pmDSO *pmkit_dso_for(unsigned int domain, const pmkit_ctx *ctx);
/* Hand ctx's profile to the agent unless it already has the current one. */
int pmkit_dso_profile(__pmDSO *dso, const pmkit_ctx *ctx);
/* Load every configured agent not loaded yet (at each new local context);
 * fails only when there is no table and no pmcd.conf to build it from. */
int pmkit_dso_load_all(void);

/* The anonymous derived metric with this PMID (front/pmns.h), or NULL. */
struct pmns_derived_metric;
const struct pmns_derived_metric *pmkit_derived(pmID pmid);

/* libpcp's internals that agents' libraries share, exported under PCP's
 * names (libpcp_pmda's pmda_int.h includes this header): is inst of indom
 * in the profile (context.c); free a pmInResult an agent returned (its
 * arrays, and the names that lie outside its namelist block, as above;
 * desc.c); free the value sets of a result but not the result (fetch.c). */
PCP_CALL int __pmInProfile(pmInDom indom, const pmProfile *prof, int inst);
PCP_CALL void __pmFreeInResult(pmInResult *res);
PCP_CALL void __pmFreeResultValues(pmResult *res);

/*
 * The packed array of event records: libpcp/pmda/event.c builds it and
 * libpcp/pmapi/event.c reads it.  A head of PMKIT_EVENT_HEAD bytes (the
 * header word, type << 24 | length, then the record count), then records:
 * a timestamp (two 32-bit words, or two 64-bit ones in a high resolution
 * array), flags, and a count (of parameters, or of records missed), then
 * each parameter: its PMID, a header word (type << 24 | 4 + value bytes)
 * and the value padded with zeros to a multiple of 4.  Words are in the
 * host's order, as PCP's are.
 */
#define PMKIT_EVENT_HEAD            8
#define PMKIT_EVENT_STAMP(highres)  ((highres) ? 16 : 8)
#define PMKIT_EVENT_RECORD(highres) (PMKIT_EVENT_STAMP(highres) + 8)
#define PMKIT_EVENT_FLAGS_PMID      0x7fc00001 /* event.flags:  511.0.1 */
#define PMKIT_EVENT_MISSED_PMID     0x7fc00002 /* event.missed: 511.0.2 */

static inline uint32_t pmkit_get32(const void *p)
{
    uint32_t v;

    memcpy(&v, p, sizeof(v));
    return v;
}

static inline void pmkit_put32(void *p, uint32_t v)
{
    memcpy(p, &v, sizeof(v));
}

/* Bytes of a parameter value of type, its header excluded: 4 or 8, -1 for
 * a string or aggregate (their own length), or PM_ERR_TYPE. */
static inline int pmkit_event_value_size(int type)
{
    switch (type) {
    case PM_TYPE_32:
    case PM_TYPE_U32:
    case PM_TYPE_FLOAT:
        return 4;
    case PM_TYPE_64:
    case PM_TYPE_U64:
    case PM_TYPE_DOUBLE:
        return 8;
    case PM_TYPE_STRING:
    case PM_TYPE_AGGREGATE:
    case PM_TYPE_AGGREGATE_STATIC:
        return -1;
    default:
        return PM_ERR_TYPE;
    }
}

/*
 * Labels (labels.c, labelget.c).  A list of labels by full dotted name,
 * sorted by name once built, each a copy of its name and value.
 */
typedef struct pmkit_lbl {
    char *name;  /* full name, then (same block) the value */
    char *value; /* compact JSON text */
    int namelen, valuelen;
    int flags; /* PM_LABEL_* class and flags */
    /* from a parse: where the inner name and the value start in the compact
     * JSON, the inner name's length, and whether it is below a name */
    int name_off, inner_len, value_off, nested;
    /* from a set: its pmLabel and JSON, for a merge filter */
    const pmLabel *set_label;
    const char *set_json;
} pmkit_lbl;

typedef struct pmkit_lbls {
    pmkit_lbl *v;
    int n, room;
} pmkit_lbls;

void pmkit_lbls_free(pmkit_lbls *l);
/* Parse a label object; flags go on every label, names may have dots if
 * dots is set.  The compact JSON (NULL for no labels) and the labels
 * sorted by name; the count or -EINVAL, -E2BIG, -ENOMEM.  JSON that is not
 * an object has no labels. */
int pmkit_labels_parse(const char *text, int flags, int dots, char **json, pmkit_lbls *out);
/* Set's labels, in their first form, from a parse (takes json). */
int pmkit_labelset_first(pmLabelSet *set, char *json, const pmkit_lbls *l);
/* Set's labels replaced by l as one flat object. */
int pmkit_labelset_flat(pmLabelSet *set, const pmkit_lbls *l);
/* The labels of a set by full name. */
int pmkit_lbls_of_set(const pmLabelSet *set, pmkit_lbls *out);
/* l as one flat object and (labels not NULL) its labels[]: the JSON
 * length, 0 for none. */
int pmkit_lbls_json(const pmkit_lbls *l, char **json, pmLabel **labels);
/* acc merged with upd, upd winning; filter as pmMergeLabelSets'. */
int pmkit_lbls_merge(pmkit_lbls *acc, pmkit_lbls *upd,
                     int (*filter)(const pmLabel *, const char *, void *), void *arg,
                     const char *acc_json, const pmLabel *acc_labels);
/* For libpcp_pmda: add a label object to a set (labels.c; PCP's name), a
 * new set of the label files' labels (labelget.c), ... */
PCP_CALL int __pmAddLabels(pmLabelSet **lpp, const char *text, int flags);
PCP_CALL int __pmkit_file_labelset(pmLabelSet **sets);
/* and a set's labels rewritten as one flat object (labels.c) */
PCP_CALL int __pmkit_flatten_labels(pmLabelSet *set);

#endif /* PMKIT_PMAPI_INT_H */
