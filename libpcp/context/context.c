/*
 * context.c - PMAPI contexts and instance profiles.
 *
 * A context is a heap record found by its handle in a small table; handles
 * come from a counter that advances on every attempt, failed ones included
 * (PCP's numbering).  The current context is per thread.  One recursive
 * lock guards the table, the local agent table (local.c) and every call
 * into an agent, so agents never run concurrently; it is recursive because
 * an agent may call back into the library.  A host context has a lock of
 * its own for its connection and profile: a call that waits for one pmcd
 * holds only that one (pmkit_ctx_hold), as PCP locks each context apart.
 * Locks are taken library first: a thread holding a context's lock does
 * not take the library's (pmkit_ctx_release lets the context's go first).
 *
 * Profiles follow PCP's rules (tests/oracle/probe_local.c), including the quirk that
 * an indom first named by pmDelProfile starts in the EXCLUDE state.
 *
 * Local contexts (local.c), host contexts (a connection to pmcd, host.c)
 * and archive contexts (archive_ctx.c) are served.
 * Unlike PCP, local contexts work from any thread.
 */
#include "derived.h"
#include "archive_ctx.h"
#include "host.h"

#include <pcp/libpcp.h> /* the view's c_instprof */

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pthread_mutex_t lib_lock = PTHREAD_MUTEX_INITIALIZER;
/* how often the calling thread holds the lock, and whether it took it
 * without lib_lock (initial-exec, as current) */
static _Thread_local int lock_depth __attribute__((tls_model("initial-exec")));
static _Thread_local int lock_elided __attribute__((tls_model("initial-exec")));
/* set while a thread holds the lock without lib_lock */
static atomic_int elided_holder;
static pmkit_ctx **table; /* live contexts, in creation order */
static int ntable;
static int next_handle;
/* initial-exec: read on every call that takes a context */
static _Thread_local int current __attribute__((tls_model("initial-exec"))) = -1;
/* and its type, which never changes: read without the lock to choose
 * between the host and local paths (a context another thread destroyed is
 * found missing by the call that goes on to use it) */
static _Thread_local int current_type __attribute__((tls_model("initial-exec"))) = PM_CONTEXT_UNDEF;

/*
 * The lock is recursive by a per-thread depth over a plain mutex: the
 * holder's nested calls only count.  In a single-threaded process the
 * mutex is not taken at all (two locked read-modify-writes saved per call),
 * as glibc's stdio does.  The holder may still start a thread (an agent
 * may), so it marks itself in elided_holder, and a thread that takes the
 * mutex then waits for that mark to clear.
 */
void pmkit_lock(void)
{
    if (lock_depth++ != 0)
        return;
    if (pmkit_single_threaded()) {
        /* no other thread can be reading it now: the store need not be atomic */
        atomic_store_explicit(&elided_holder, 1, memory_order_relaxed);
        lock_elided = 1;
        return;
    }
    pthread_mutex_lock(&lib_lock);
    while (atomic_load_explicit(&elided_holder, memory_order_acquire))
        sched_yield();
}

void pmkit_unlock(void)
{
    PMKIT_CHECK(lock_depth > 0);
    if (--lock_depth != 0)
        return;
    if (lock_elided) {
        lock_elided = 0;
        atomic_store_explicit(&elided_holder, 0, memory_order_release);
    } else {
        pthread_mutex_unlock(&lib_lock);
    }
}

int pmkit_lock_held(void)
{
    return lock_depth > 0;
}

int pmkit_ctx_is_held(const pmkit_ctx *ctx)
{
    if (ctx->host == NULL)
        return pmkit_lock_held();
    return atomic_load(&ctx->used) && pthread_equal(ctx->user, pthread_self());
}

static pmkit_ctx *find(int handle)
{
    PMKIT_CHECK(pmkit_lock_held());
    for (int i = 0; i < ntable; i++)
        if (table[i]->handle == handle)
            return table[i];
    return NULL;
}

pmkit_ctx *pmkit_ctx_current(void)
{
    PMKIT_CHECK(pmkit_lock_held());
    return current < 0 ? NULL : find(current);
}

pmkit_ctx *pmkit_ctx_nth(int n)
{
    PMKIT_CHECK(pmkit_lock_held());
    return n >= 0 && n < ntable ? table[n] : NULL;
}

int pmkit_ctx_current_handle(void)
{
    return current;
}

int pmkit_ctx_type_current(void)
{
    return current_type; /* set and reset with current */
}

/* Hold ctx, found with the lock held (taken once by the caller of hold),
 * which a host context then gives up; see context.h. */
static pmkit_ctx *hold(pmkit_ctx *ctx)
{
    if (ctx != NULL && ctx->host != NULL) {
        ctx->holds++;
        pmkit_unlock();
        pthread_mutex_lock(&ctx->use);
        ctx->user = pthread_self();
        atomic_store(&ctx->used, 1);
        if (atomic_load(&ctx->gone)) { /* destroyed while this thread waited */
            pmkit_ctx_release(ctx);
            return NULL;
        }
    } else if (ctx == NULL) {
        pmkit_unlock();
    }
    return ctx;
}

pmkit_ctx *pmkit_ctx_hold(void)
{
    pmkit_lock();
    return hold(pmkit_ctx_current());
}

pmkit_ctx *pmkit_ctx_hold_handle(int handle)
{
    pmkit_lock();
    return hold(find(handle));
}

pmkit_ctx *pmkit_ctx_host_hold(void)
{
    pmkit_ctx *ctx;

    pmkit_lock();
    ctx = pmkit_ctx_current();
    return hold(ctx != NULL && ctx->host != NULL ? ctx : NULL);
}

int pmkit_ctx_local_current(void)
{
    return pmkit_ctx_type_current() == PM_CONTEXT_LOCAL;
}

static void profile_clear(pmProfile *prof)
{
    for (int i = 0; i < prof->profile_len; i++)
        free(prof->profile[i].instances);
    free(prof->profile);
    prof->profile = NULL;
    prof->profile_len = 0;
}

/* A copy of src (NULL: every instance) into dst (dst's old lists are not
 * freed): 0 or -ENOMEM. */
static int profile_copy(pmProfile *dst, const pmProfile *src)
{
    if (src == NULL) {
        *dst = (pmProfile){.state = PM_PROFILE_INCLUDE};
        return 0;
    }
    *dst = *src;
    dst->profile = NULL;
    dst->profile_len = 0;
    if (src->profile_len == 0)
        return 0;
    dst->profile = calloc((size_t)src->profile_len, sizeof(pmInDomProfile));
    if (dst->profile == NULL)
        return -ENOMEM;
    for (int i = 0; i < src->profile_len; i++) {
        const pmInDomProfile *s = &src->profile[i];
        pmInDomProfile *d = &dst->profile[i];
        *d = *s;
        d->instances = NULL;
        dst->profile_len = i + 1;
        if (s->instances_len > 0) {
            d->instances = malloc((size_t)s->instances_len * sizeof(int));
            if (d->instances == NULL) {
                profile_clear(dst);
                return -ENOMEM;
            }
            memcpy(d->instances, s->instances, (size_t)s->instances_len * sizeof(int));
        }
    }
    return 0;
}

pmProfile *pmkit_ctx_profile(pmkit_ctx *ctx, int make)
{
    __pmContext *view = __atomic_load_n(&ctx->pcp, __ATOMIC_ACQUIRE);
    pmProfile *p = view != NULL ? view->c_instprof : ctx->prof;

    if (p != ctx->prof) { /* the program's now: the old one is its to free */
        ctx->prof = p;
        ctx->prof_gen++;
    }
    if (p == NULL && make && (p = calloc(1, sizeof(*p))) != NULL) {
        p->state = PM_PROFILE_INCLUDE;
        ctx->prof = p;
        if (view != NULL)
            view->c_instprof = p;
    }
    return p;
}

static void ctx_free(pmkit_ctx *ctx)
{
    pmProfile *prof = pmkit_ctx_profile(ctx, 0);

    pmkit_archive_close(ctx->archive);
    pmkit_ctx_view_free(ctx);
    if (ctx->host != NULL) {
        pmkit_host_close(ctx->host); /* pmcd sees the connection close */
        pthread_mutex_destroy(&ctx->use);
    }
    __pmFreeProfile(prof); /* freed with the context, as PCP frees c_instprof */
    free(ctx);
}

void pmkit_ctx_release(pmkit_ctx *ctx)
{
    int last;

    if (ctx == NULL)
        return;
    if (ctx->host == NULL) {
        PMKIT_CHECK(pmkit_lock_held());
        pmkit_unlock();
        return;
    }
    PMKIT_CHECK(pmkit_ctx_is_held(ctx));
    atomic_store(&ctx->used, 0);
    pthread_mutex_unlock(&ctx->use);
    pmkit_lock();
    last = --ctx->holds == 0 && ctx->gone;
    pmkit_unlock();
    if (last)
        ctx_free(ctx);
}

void pmkit_ctx_pin(pmkit_ctx *ctx)
{
    PMKIT_CHECK(pmkit_lock_held());
    ctx->holds++;
}

int pmkit_ctx_unpin(pmkit_ctx *ctx)
{
    int gone, last;

    pmkit_lock();
    gone = atomic_load(&ctx->gone);
    last = --ctx->holds == 0 && gone;
    if (last && ctx->host == NULL) {
        ctx_free(ctx); /* under the lock, as pmDestroyContext frees one */
        last = 0;
    }
    pmkit_unlock();
    if (last)
        ctx_free(ctx); /* as pmkit_ctx_release frees a host context */
    return gone;
}

/* Add a context to the table; it becomes current.  Returns its handle. */
static int ctx_add(pmkit_ctx *ctx)
{
    pmkit_ctx **t = realloc(table, (size_t)(ntable + 1) * sizeof(*t));

    if (t == NULL) {
        ctx_free(ctx);
        return -ENOMEM;
    }
    table = t;
    table[ntable++] = ctx;
    current = ctx->handle;
    current_type = ctx->type;
    return ctx->handle;
}

/* A new context of type for name with a fresh handle; the profile is
 * copied from prof if not NULL.  Returns the handle, or an error.  A host
 * context connects without the library lock (which the caller holds), so
 * other threads go on while pmcd is slow to answer. */
static int ctx_new(int type, const char *name, const pmProfile *prof, const pmkit_archive *copy,
                   int flags)
{
    int handle = next_handle++, sts;
    pmkit_ctx *ctx = calloc(1, sizeof(*ctx));

    if (ctx == NULL)
        return -ENOMEM;
    ctx->handle = handle;
    ctx->type = type;
    if ((ctx->prof = malloc(sizeof(*ctx->prof))) == NULL ||
        (sts = profile_copy(ctx->prof, prof)) < 0) {
        free(ctx->prof);
        free(ctx);
        return -ENOMEM;
    }
    if (type == PM_CONTEXT_ARCHIVE) {
        sts = copy != NULL ? pmkit_archive_dup(copy, &ctx->archive)
                           : pmkit_archive_open(name, flags, &ctx->archive);
    } else if (type == PM_CONTEXT_HOST) {
        pmkit_unlock();
        sts = pmkit_host_open(name, &ctx->host);
        pmkit_lock();
        if (ctx->host != NULL)
            pthread_mutex_init(&ctx->use, NULL);
    } else if (prof == NULL) { /* a copy finds its agents loaded */
        sts = pmkit_dso_load_all();
    } else {
        sts = 0;
    }
    if (sts < 0) {
        ctx_free(ctx);
        return sts;
    }
    if (type == PM_CONTEXT_LOCAL)
        pmkit_dso_credentials(handle);
    return ctx_add(ctx);
}

/* PCP spends a handle on every attempt that gets as far as the source:
 * not on a missing name or an unknown type. */
int pmNewContext(int type, const char *name)
{
    int sts;

    pmkit_lock();
    switch (type & PM_CONTEXT_TYPEMASK) {
    case PM_CONTEXT_LOCAL:
        sts = ctx_new(PM_CONTEXT_LOCAL, NULL, NULL, NULL, 0);
        break;
    case PM_CONTEXT_HOST:
        if (name == NULL) {
            sts = PM_ERR_NOCONTEXT;
        } else if (name[0] == '\0') {
            next_handle++;
            sts = PM_ERR_NOTHOST;
        } else {
            sts = ctx_new(PM_CONTEXT_HOST, name, NULL, NULL, 0);
        }
        break;
    case PM_CONTEXT_ARCHIVE:
        sts = name == NULL ? PM_ERR_NOCONTEXT : ctx_new(PM_CONTEXT_ARCHIVE, name, NULL, NULL, type);
        break;
    default:
        sts = PM_ERR_NOCONTEXT;
        break;
    }
    pmkit_unlock();
    if (sts >= 0)
        pmkit_derived_context_new(sts); /* and the derived metrics start, as in PCP */
    return sts;
}

/* A host context's copy has a connection of its own, as in PCP: its
 * specification and profile are copied while it is held, then the copy
 * connects without holding it. */
int pmDupContext(void)
{
    pmkit_ctx *old = pmkit_ctx_hold();
    pmProfile prof;
    char *spec;
    int sts;

    if (old == NULL)
        return PM_ERR_NOCONTEXT;
    if (old->host == NULL) {
        /* under the library lock */
        sts = ctx_new(old->type, NULL, pmkit_ctx_profile(old, 0), old->archive, 0);
        pmkit_ctx_release(old);
        if (sts >= 0)
            pmkit_derived_context_new(sts); /* no per-context metrics come along */
        return sts;
    }
    spec = strdup(pmkit_host_spec(old->host));
    sts = spec == NULL ? -ENOMEM : profile_copy(&prof, pmkit_ctx_profile(old, 0));
    pmkit_ctx_release(old);
    if (sts < 0) {
        free(spec);
        return sts;
    }
    pmkit_lock();
    sts = ctx_new(PM_CONTEXT_HOST, spec, &prof, NULL, 0);
    pmkit_unlock();
    profile_clear(&prof);
    free(spec);
    if (sts >= 0)
        pmkit_derived_context_new(sts);
    return sts;
}

int pmWhichContext(void)
{
    int sts;

    pmkit_lock();
    sts = pmkit_ctx_current() != NULL ? current : PM_ERR_NOCONTEXT;
    pmkit_unlock();
    return sts;
}

int pmUseContext(int handle)
{
    pmkit_ctx *ctx;
    int sts = PM_ERR_NOCONTEXT;

    pmkit_lock();
    if ((ctx = find(handle)) != NULL) {
        current = handle;
        current_type = ctx->type;
        sts = 0;
    }
    pmkit_unlock();
    return sts;
}

int pmDestroyContext(int handle)
{
    int sts = PM_ERR_NOCONTEXT;

    pmkit_lock();
    for (int i = 0; i < ntable; i++) {
        if (table[i]->handle != handle)
            continue;
        if (table[i]->holds > 0)
            atomic_store(&table[i]->gone, 1); /* another thread's call is using it */
        else
            ctx_free(table[i]);
        memmove(&table[i], &table[i + 1], (size_t)(ntable - i - 1) * sizeof(*table));
        ntable--;
        if (current == handle) {
            current = -1;
            current_type = PM_CONTEXT_UNDEF;
        }
        sts = 0;
        break;
    }
    pmkit_unlock();
    if (sts == 0)
        pmkit_derived_context_destroy(handle); /* its own derived metrics go too */
    return sts;
}

/* A host context connects again (its profile to be sent anew). */
int pmReconnectContext(int handle)
{
    pmkit_ctx *ctx = pmkit_ctx_hold_handle(handle);
    int sts;

    if (ctx == NULL)
        return PM_ERR_NOCONTEXT;
    sts = ctx->host != NULL ? pmkit_host_reconnect(ctx->host) : 0;
    pmkit_ctx_release(ctx);
    return sts < 0 ? sts : handle;
}

/* A host context's is pmcd's answer for pmcd.hostname (host_api.c), an
 * archive context's its first archive's label's. */
char *pmGetContextHostName_r(int handle, char *buf, int buflen)
{
    pmkit_ctx *ctx;
    int local;

    if (buf == NULL || buflen <= 0)
        return buf;
    buf[0] = '\0';
    ctx = pmkit_ctx_hold_handle(handle);
    local = ctx != NULL && ctx->host == NULL && ctx->archive == NULL;
    if (ctx != NULL && ctx->host != NULL)
        pmkit_host_hostname(ctx, buf, buflen);
    else if (ctx != NULL && ctx->archive != NULL)
        pmkit_archive_hostname(ctx->archive, buf, buflen);
    pmkit_ctx_release(ctx);
    if (local && gethostname(buf, (size_t)buflen) < 0)
        buf[0] = '\0';
    buf[buflen - 1] = '\0';
    return buf;
}

/* The same, as PCP's older interface: always 0 (buf says the rest). */
int pmGetHostName(int handle, char *buf, int buflen)
{
    pmGetContextHostName_r(handle, buf, buflen);
    return 0;
}

const char *pmGetContextHostName(int handle)
{
    static _Thread_local char name[MAXHOSTNAMELEN];

    return pmGetContextHostName_r(handle, name, (int)sizeof(name));
}

/* ---- instance profiles ---- */

static pmInDomProfile *profile_entry(pmProfile *prof, pmInDom indom, int create)
{
    pmInDomProfile *p;

    for (int i = 0; i < prof->profile_len; i++)
        if (prof->profile[i].indom == indom)
            return &prof->profile[i];
    if (!create)
        return NULL;
    p = realloc(prof->profile, (size_t)(prof->profile_len + 1) * sizeof(*p));
    if (p == NULL)
        return NULL;
    prof->profile = p;
    p = &prof->profile[prof->profile_len++];
    memset(p, 0, sizeof(*p));
    p->indom = indom;
    p->state = PM_PROFILE_EXCLUDE; /* PCP's starting state for Add and Del alike */
    return p;
}

static int list_has(const pmInDomProfile *p, int inst)
{
    for (int i = 0; i < p->instances_len; i++)
        if (p->instances[i] == inst)
            return 1;
    return 0;
}

static int list_add(pmInDomProfile *p, int n, const int *insts)
{
    int *l = realloc(p->instances, (size_t)(p->instances_len + n) * sizeof(int));

    if (l == NULL)
        return -ENOMEM;
    p->instances = l;
    for (int i = 0; i < n; i++)
        if (!list_has(p, insts[i]))
            p->instances[p->instances_len++] = insts[i];
    return 0;
}

static void list_remove(pmInDomProfile *p, int n, const int *insts)
{
    int k = 0;

    for (int i = 0; i < p->instances_len; i++) {
        int keep = 1;
        for (int j = 0; j < n && keep; j++)
            keep = p->instances[i] != insts[j];
        if (keep)
            p->instances[k++] = p->instances[i];
    }
    p->instances_len = k;
}

/* pmAddProfile (state INCLUDE) and pmDelProfile (EXCLUDE) share this. */
static int profile_change(pmInDom indom, int n, int *insts, int state)
{
    pmkit_ctx *ctx;
    pmProfile *prof;
    pmInDomProfile *p;
    int sts = 0;

    if (indom == PM_INDOM_NULL && insts != NULL)
        return PM_ERR_PROFILESPEC;
    if (insts == NULL || n < 0)
        n = 0;
    if ((ctx = pmkit_ctx_hold()) == NULL)
        return PM_ERR_NOCONTEXT;
    prof = pmkit_ctx_profile(ctx, 1);
    ctx->prof_gen++;
    if (prof == NULL) {
        sts = -ENOMEM;
    } else if (indom == PM_INDOM_NULL) {
        profile_clear(prof);
        prof->state = state;
    } else if ((p = profile_entry(prof, indom, 1)) == NULL) {
        sts = -ENOMEM;
    } else if (n == 0) {
        free(p->instances);
        p->instances = NULL;
        p->instances_len = 0;
        p->state = state;
    } else if (p->state == state) {
        list_remove(p, n, insts); /* no longer exceptions */
    } else {
        sts = list_add(p, n, insts); /* new exceptions */
    }
    pmkit_ctx_release(ctx);
    return sts;
}

int pmAddProfile(pmInDom indom, int n, int *insts)
{
    return profile_change(indom, n, insts, PM_PROFILE_INCLUDE);
}

int pmDelProfile(pmInDom indom, int n, int *insts)
{
    return profile_change(indom, n, insts, PM_PROFILE_EXCLUDE);
}

/* PCP's membership test, exported under its name for agents. */
PCP_CALL int __pmInProfile(pmInDom indom, const pmProfile *prof, int inst)
{
    if (prof == NULL)
        return 1;
    for (int i = 0; i < prof->profile_len; i++) {
        const pmInDomProfile *p = &prof->profile[i];
        if (p->indom != indom)
            continue;
        if (list_has(p, inst))
            return p->state == PM_PROFILE_EXCLUDE;
        return p->state == PM_PROFILE_INCLUDE;
    }
    return prof->state == PM_PROFILE_INCLUDE;
}
