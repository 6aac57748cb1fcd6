/*
 * context.h - the context room (libpcp/context): the table of PMAPI
 * contexts, the library lock, instance profiles, and the sources a
 * context reads from: local agents (local.c), a pmcd (host.c,
 * host_api.c, declared in host.h) and archives (archive_ctx.c, declared in
 * archive_ctx.h).  docs/architecture.md describes the
 * lock model.
 */
#ifndef PMKIT_CONTEXT_H
#define PMKIT_CONTEXT_H

#include "support.h"

#include <pcp/pmda.h>

#include <pthread.h>
#include <stdatomic.h>

/*
 * One recursive lock serialises the context table, the local agent table
 * and every call into an agent; the functions below expect the caller to
 * hold it (pmkit_lock/pmkit_unlock), unless they say otherwise, and check
 * that it does where checks are on (PMKIT_CHECK).  A host context has a
 * lock of its own besides, which its exchanges with pmcd hold instead of
 * the library's (pmkit_ctx_hold).
 */
typedef struct pmkit_host pmkit_host;
typedef struct pmkit_archive pmkit_archive;

typedef struct pmkit_ctx {
    int handle;             /* what pmNewContext returned */
    int type;               /* PM_CONTEXT_LOCAL, PM_CONTEXT_HOST or PM_CONTEXT_ARCHIVE */
    unsigned prof_gen;      /* bumped on every profile change */
    pmProfile *prof;        /* the instance profile, a block of its own (NULL: every
                             * instance); read through pmkit_ctx_profile */
    pmkit_host *host;       /* PM_CONTEXT_HOST: the connection to pmcd (host.c) */
    pmkit_archive *archive; /* PM_CONTEXT_ARCHIVE: its archives (archive_ctx.c) */
    /* PM_CONTEXT_HOST: held around each use of host and of prof */
    pthread_mutex_t use;
    int holds;               /* threads holding or waiting for use (library lock) */
    atomic_int gone;         /* destroyed while held: the last holder frees it */
    pthread_t user;          /* PM_CONTEXT_HOST: the thread holding use, if used */
    atomic_int used;         /* ... and whether one does (for PMKIT_CHECK) */
    struct __pmContext *pcp; /* PCP's view of it, once __pmHandleToPtr asked (pcpview.c) */
} pmkit_ctx;

void pmkit_lock(void);
void pmkit_unlock(void);
/* Does the calling thread hold the library lock? */
int pmkit_lock_held(void);
/* Does the calling thread hold ctx for a use (pmkit_ctx_hold)? */
int pmkit_ctx_is_held(const pmkit_ctx *ctx);
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
/* The live contexts in creation order, for PCP's view (pcpview.c); the
 * caller holds the library lock.  The nth of them or NULL, and the
 * calling thread's current handle (-1 for none). */
pmkit_ctx *pmkit_ctx_nth(int n);
int pmkit_ctx_current_handle(void);
/* One fetch in the context view shows (the current one for NULL;
 * PM_ERR_NOCONTEXT for NULL without one), the current context kept: numpmid 0 with
 * next_record is the archive's next record whole (pmFetchHighResArchive),
 * anything else pmFetchHighRes.  The result as a __pmResult, in the same
 * block (its timestamp rewritten in place).  For __pmFetch, __pmLogFetch. */
struct __pmContext;
struct __pmResult;
int pmkit_view_fetch(struct __pmContext *view, int numpmid, pmID *pmidlist, int next_record,
                     struct __pmResult **result);
/* Release ctx's PCP view, if it has one (ctx_free). */
void pmkit_ctx_view_free(pmkit_ctx *ctx);
/* After pmSetMode on an archive context with a view: its file at volume
 * vol of the first archive, offset off, ac_vol its volume and ac_offset
 * noted, where Debian's pmSetMode leaves them (the library lock held). */
void pmkit_ctx_view_placed(pmkit_ctx *ctx, int vol, uint64_t off, uint64_t noted);
/* The temporal index of ctx's view, as PCP's pmSetMode reads it (its
 * __pmLogCtl's table): 1 and *src, or 0 when ctx has no archive view. */
struct arch_ti_src;
int pmkit_ctx_view_index(pmkit_ctx *ctx, struct arch_ti_src *src);
/* The same for an archive view itself. */
struct __pmArchCtl;
void pmkit_view_index(struct __pmArchCtl *ac, struct arch_ti_src *src);

/* Is the calling thread's current context a local one?  (No lock, as
 * pmkit_ctx_type_current below.) */
int pmkit_ctx_local_current(void);
/* The type of the calling thread's current context, PM_CONTEXT_UNDEF for
 * none.  (No lock: a thread-local copy kept with the current handle.) */
int pmkit_ctx_type_current(void);

/* Keep ctx allocated while a caller that found it with the lock held goes
 * on without the lock (__pmHandleToPtr waiting for the view's c_lock):
 * pmkit_ctx_pin with the lock held, then pmkit_ctx_unpin without it, which
 * says whether ctx was destroyed meanwhile (and frees it if so: no longer
 * to be used). */
void pmkit_ctx_pin(pmkit_ctx *ctx);
int pmkit_ctx_unpin(pmkit_ctx *ctx);

/* ctx's instance profile, ctx held: the one its PCP view shows as
 * c_instprof, taken over when a program put another there (PCP's programs
 * own it as PCP's context does: dbpmda frees it and puts its own), NULL
 * for none (every instance) unless make, when an empty one (every
 * instance) is made: NULL then only without memory. */
pmProfile *pmkit_ctx_profile(pmkit_ctx *ctx, int make);

/*
 * Local agents (local.c), called with the lock held.  dso_for returns the
 * loaded agent serving a domain and prepares it for a call from ctx
 * (e_context for interface >= 5), or NULL (PM_ERR_NOAGENT).
 */
__pmDSO *pmkit_dso_for(unsigned int domain, const pmkit_ctx *ctx);
/* Hand ctx's profile to the agent unless it already has the current one. */
int pmkit_dso_profile(__pmDSO *dso, pmkit_ctx *ctx);
/* Load every configured agent not loaded yet (at each new local context);
 * fails only when there is no table and no pmcd.conf to build it from. */
int pmkit_dso_load_all(void);
/* Hand the new local context handle's credentials to every loaded agent
 * that asked for them (at each new local context and copy of one). */
void pmkit_dso_credentials(int handle);

/* For libpcp_pmda, under PCP's name: is inst of indom in the profile? */
PCP_CALL int __pmInProfile(pmInDom indom, const pmProfile *prof, int inst);

#endif /* PMKIT_CONTEXT_H */
