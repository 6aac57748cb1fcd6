/*
 * pcpview.c - contexts and locks as PCP's internal interface shows them
 * (<pcp/libpcp.h>): a context as PCP's __pmContext (__pmHandleToPtr,
 * __pmCurrentContext), the dumps of contexts and profiles, the locks
 * programs take with PM_LOCK/PM_UNLOCK (__pmLock, __pmLock_libpcp), which
 * threads have used the library, and fetches through such a context.
 *
 * A __pmContext is a view made for a context when first asked for and
 * kept with it (freed with it): its type, mode, handle, slot, flags,
 * profile and, for a host context, PCP's pmcd control with the socket.
 * Its c_lock is an error-checking mutex __pmHandleToPtr takes and the
 * caller releases (PM_UNLOCK(ctxp->c_lock)), as in PCP; pmkit's own calls
 * do not take it, so holding it keeps other threads out of nothing but
 * other holders.  A context destroyed while a thread holds its view's
 * c_lock leaves the view to be freed when that thread unlocks it.
 * __pmLock_libpcp is likewise a mutex of its own, not pmkit's library lock
 * (docs/compat.md).
 *
 * As Debian's libpcp (tests/oracle/probe_context.c): the dumps' words and
 * layout, __pmCurrentContext returning the context unlocked, a failed
 * unlock reported on stderr.
 */
#include "archive.h"
#include "archive_ctx.h"
#include "host.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcp/deprecated.h>
#include <pcp/libpcp.h>

/* ---------------------------------------------------------------- locks */

pthread_mutex_t __pmLock_libpcp = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t __pmLock_extcall = PTHREAD_MUTEX_INITIALIZER;

/* __pmLock_libpcp checks its use, as PCP's: locking it again in the same
 * thread fails (EDEADLK), as does unlocking it unheld (EPERM).  Made so
 * when the library loads. */
__attribute__((constructor)) static void checked_libpcp_lock(void)
{
    pthread_mutexattr_t attr;

    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ERRORCHECK);
    pthread_mutex_init(&__pmLock_libpcp, &attr);
    pthread_mutexattr_destroy(&attr);
}

void __pmInitLocks(void) {}

int __pmLock(void *lock, const char *file, int line)
{
    int sts = pthread_mutex_lock(lock);

    if (sts != 0)
        fprintf(stderr, "%s:%d: __pmLock(%p) failed: %s\n", file, line, lock, strerror(sts));
    return -sts;
}

static void reap(void *lock);

int __pmUnlock(void *lock, const char *file, int line)
{
    int sts = pthread_mutex_unlock(lock);

    if (sts != 0)
        fprintf(stderr, "%s:%d: __pmUnlock(%p) failed: %s\n", file, line, lock, strerror(sts));
    else
        reap(lock);
    return -sts;
}

/* For each scope, the thread that first asked: a different one is "more
 * than one thread" (1), as PCP answers. */
static pthread_mutex_t scope_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_t scope_owner[PM_SCOPE_MAX + 1];
static int scope_set[PM_SCOPE_MAX + 1];

int __pmMultiThreaded(int scope)
{
    int multi = 0;

    if (scope < 0 || scope > PM_SCOPE_MAX)
        return 0;
    pthread_mutex_lock(&scope_lock);
    if (!scope_set[scope]) {
        scope_owner[scope] = pthread_self();
        scope_set[scope] = 1;
    } else {
        multi = !pthread_equal(scope_owner[scope], pthread_self());
    }
    pthread_mutex_unlock(&scope_lock);
    return multi;
}

/* PM_STATE_APPL or PM_STATE_PMCS: whether pmcd itself is the caller.  Kept,
 * not acted on (pmkit's library behaves the same either way). */
static int internal_state = PM_STATE_APPL;

void __pmSetInternalState(int state)
{
    internal_state = state;
}

/* ---------------------------------------------------------------- contexts */

/* An archive context's controls as PCP's: its first archive's files, label,
 * index, descriptors and instance domains (logview.c); the label from
 * pmkit's reading of it where its first volume cannot be opened. */
static void arch_view_free(__pmArchCtl *ac);

static __pmArchCtl *arch_view(pmkit_archive *a)
{
    const arch_label *l = pmkit_archive_first_label(a);
    __pmArchCtl *ac = calloc(1, sizeof(*ac));
    __pmLogCtl *lc = calloc(1, sizeof(*lc));

    if (ac == NULL || lc == NULL) {
        free(lc);
        free(ac);
        return NULL;
    }
    ac->ac_log = lc;
    if (pmkit_logview_fill(ac, a) < 0)
        goto fail;
    if (lc->label.hostname != NULL)
        return ac;
    lc->label.magic = l->magic;
    lc->label.pid = l->pid;
    lc->label.start.sec = (int64_t)l->start.tv_sec;
    lc->label.start.nsec = (int32_t)l->start.tv_nsec;
    lc->label.features = l->features;
    lc->label.hostname = strdup(l->hostname);
    lc->label.timezone = strdup(l->timezone);
    if (l->version == PM_LOG_VERS03)
        lc->label.zoneinfo = strdup(l->zoneinfo);
    if (lc->label.hostname != NULL && lc->label.timezone != NULL &&
        (l->version != PM_LOG_VERS03 || lc->label.zoneinfo != NULL))
        return ac;
fail:
    arch_view_free(ac);
    return NULL;
}

static void arch_view_free(__pmArchCtl *ac)
{
    if (ac == NULL)
        return;
    pmkit_logview_free(ac);
    free(ac->ac_log);
    free(ac);
}

/* ctx's view, made if need be and brought up to date (library lock held). */
static __pmContext *view(pmkit_ctx *ctx, int slot)
{
    __pmContext *c = ctx->pcp;

    if (c == NULL) {
        pthread_mutexattr_t attr;
        if ((c = calloc(1, sizeof(*c))) == NULL)
            return NULL;
        if (ctx->host != NULL && (c->c_pmcd = calloc(1, sizeof(*c->c_pmcd))) == NULL) {
            free(c);
            return NULL;
        }
        pthread_mutexattr_init(&attr);
        pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ERRORCHECK);
        pthread_mutex_init(&c->c_lock, &attr);
        pthread_mutexattr_destroy(&attr);
        __pmHashInit(&c->c_attrs);
        if (ctx->archive != NULL && (c->c_archctl = arch_view(ctx->archive)) == NULL) {
            pthread_mutex_destroy(&c->c_lock);
            free(c->c_pmcd);
            free(c);
            return NULL;
        }
        c->c_instprof = ctx->prof; /* the profile itself: PCP's programs free and replace it */
        /* published for pmkit_ctx_profile, which a host context's user
         * calls holding the context, not the library lock */
        __atomic_store_n(&ctx->pcp, c, __ATOMIC_RELEASE);
        if (ctx->archive != NULL)
            pmkit_archive_view_made(ctx->archive, ctx);
    }
    c->c_type = ctx->type;
    c->c_mode = ctx->archive != NULL ? pmkit_archive_mode_word(ctx->archive) : PM_MODE_LIVE;
    c->c_handle = ctx->handle;
    c->c_slot = slot;
    /* a profile a program puts in c_instprof is taken over by the next use
     * of the context, which holds it (pmkit_ctx_profile), not here: a host
     * context's profile is guarded by its own lock, not the library's */
    if (c->c_pmcd != NULL) {
        c->c_pmcd->pc_fd = pmkit_host_fd(ctx->host);
        c->c_sent = pmkit_host_profile_sent(ctx->host);
    }
    return c;
}

static void view_destroy(__pmContext *c)
{
    pthread_mutex_destroy(&c->c_lock);
    arch_view_free(c->c_archctl);
    free(c->c_pmcd);
    free(c);
}

/* Views of destroyed contexts whose c_lock a thread held then, each freed
 * when that thread unlocks it (__pmUnlock).  pending counts them, and the
 * ones being put there, so an unlock looks here only when there may be one. */
static pthread_mutex_t zombie_lock = PTHREAD_MUTEX_INITIALIZER;
static __pmContext **zombies;
static int nzombies;
static atomic_int pending;

static void reap(void *lock)
{
    __pmContext *c = NULL;

    if (atomic_load(&pending) == 0)
        return;
    pthread_mutex_lock(&zombie_lock);
    for (int i = 0; i < nzombies; i++) {
        if (&zombies[i]->c_lock == lock) {
            c = zombies[i];
            zombies[i] = zombies[--nzombies];
            atomic_fetch_sub(&pending, 1);
            break;
        }
    }
    pthread_mutex_unlock(&zombie_lock);
    if (c != NULL)
        view_destroy(c);
}

void pmkit_ctx_view_free(pmkit_ctx *ctx)
{
    __pmContext *c = ctx->pcp, **z;
    enum { FREED, WAITS, LEFT } fate; /* now; when its holder lets go; never */

    if (c == NULL)
        return;
    ctx->pcp = NULL;
    pthread_mutex_lock(&zombie_lock);
    atomic_fetch_add(&pending, 1); /* before the test: an unlock after it looks */
    if (pthread_mutex_trylock(&c->c_lock) == 0) {
        pthread_mutex_unlock(&c->c_lock);
        fate = FREED;
    } else if ((z = realloc(zombies, (size_t)(nzombies + 1) * sizeof(*z))) != NULL) {
        zombies = z;
        zombies[nzombies++] = c;
        fate = WAITS;
    } else {
        fate = LEFT; /* no memory to wait with: the view is left, not freed under its holder */
    }
    if (fate != WAITS)
        atomic_fetch_sub(&pending, 1);
    pthread_mutex_unlock(&zombie_lock);
    if (fate == FREED)
        view_destroy(c);
}

/* The view's current volume vol (of its first archive) and the place in
 * its file after a record read (at off): where Debian's library leaves
 * them, reading the files itself.  A volume that cannot be opened leaves
 * the view as it was. */
static void follow_record(__pmArchCtl *ac, int vol, uint64_t off)
{
    if (ac == NULL || ac->ac_log == NULL)
        return;
    if (vol != ac->ac_curvol && __pmLogChangeVol(ac, vol) < 0)
        return;
    if (ac->ac_mfp != NULL && off <= LONG_MAX)
        __pmFseek(ac->ac_mfp, (long)off, SEEK_SET);
}

void pmkit_ctx_view_placed(pmkit_ctx *ctx, int vol, uint64_t off, uint64_t noted)
{
    __pmArchCtl *ac = ctx->pcp != NULL ? ctx->pcp->c_archctl : NULL;

    if (ac == NULL || ac->ac_log == NULL || off > LONG_MAX || noted > LONG_MAX)
        return;
    follow_record(ac, vol, off);
    ac->ac_offset = (long)noted;
    ac->ac_vol = ac->ac_curvol;
}

/* Entry j of a view's temporal index (arg: its __pmLogCtl). */
static int view_ti(void *arg, uint64_t j, arch_ti *ti)
{
    const __pmLogCtl *lc = arg;
    const __pmLogTI *e;

    if (lc->ti == NULL || j >= (uint64_t)lc->numti)
        return PM_ERR_LOGREC;
    e = &lc->ti[j];
    ti->stamp.tv_sec = (time_t)e->stamp.sec;
    ti->stamp.tv_nsec = e->stamp.nsec;
    ti->vol = e->vol;
    ti->meta_off = e->off_meta < 0 ? 0 : (uint64_t)e->off_meta;
    ti->data_off = e->off_data < 0 ? UINT64_MAX : (uint64_t)e->off_data;
    return 0;
}

void pmkit_view_index(__pmArchCtl *ac, arch_ti_src *src)
{
    __pmLogCtl *lc = ac->ac_log;

    src->n = lc->numti > 0 && lc->ti != NULL ? (uint64_t)lc->numti : 0;
    src->get = view_ti;
    src->arg = lc;
}

int pmkit_ctx_view_index(pmkit_ctx *ctx, arch_ti_src *src)
{
    __pmArchCtl *ac = ctx->pcp != NULL ? ctx->pcp->c_archctl : NULL;

    if (ac == NULL || ac->ac_log == NULL)
        return 0;
    pmkit_view_index(ac, src);
    return 1;
}

/*
 * The next record of an archive context, whatever its time, in the
 * direction of mode (PM_MODE_FORW or PM_MODE_BACK; any other reads
 * forward), as a __pmResult: 0 and *result, PM_ERR_EOL at the end (or the
 * start), PM_ERR_LOGREC for a damaged record.  As Debian's, the view's
 * current volume and its file's place follow the record (ac_offset and
 * ac_vol, pmSetMode's, stay).  Records come from pmkit's cursor; the
 * first read after pmSetMode (any mode) starts where Debian's pmSetMode
 * leaves its file, found with the view's temporal index
 * (arch_cursor_pcp_seek), and pmFetch's own place is left alone until
 * then.  peekf and option (PMLOGREAD_TO_EOF) are not used.
 */
int __pmLogRead_ctx(__pmContext *ctxp, int mode, __pmFILE *peekf, __pmResult **result, int option)
{
    pmHighResResult *r = NULL;
    const arch_ti_src *srcp = NULL;
    arch_ti_src src;
    pmkit_ctx *ctx;
    uint64_t end = 0;
    int vol = -1, sts;

    (void)peekf;
    (void)option;
    if (ctxp == NULL || (ctx = pmkit_ctx_hold_handle(ctxp->c_handle)) == NULL)
        return PM_ERR_NOCONTEXT;
    if (ctx->archive == NULL || ctx->pcp != ctxp) {
        pmkit_ctx_release(ctx);
        return PM_ERR_NOTARCHIVE;
    }
    if (ctxp->c_archctl != NULL && ctxp->c_archctl->ac_log != NULL) {
        pmkit_view_index(ctxp->c_archctl, &src);
        srcp = &src;
    }
    sts = pmkit_archive_read(ctx->archive, mode == PM_MODE_BACK ? ARCH_BACK : ARCH_FORW, srcp, &r,
                             &vol, &end);
    if (sts == 0 && vol >= 0)
        follow_record(ctxp->c_archctl, vol, end);
    pmkit_ctx_release(ctx);
    if (sts < 0)
        return sts;
    /* a high-resolution result is laid out as a __pmResult but for its
     * stamp, rewritten in place (seconds, then 32-bit nanoseconds) */
    struct timespec ts = r->timestamp;
    *result = (__pmResult *)r;
    (*result)->timestamp.sec = ts.tv_sec;
    (*result)->timestamp.nsec = (int32_t)ts.tv_nsec;
    return 0;
}

/* The context of handle as PCP's __pmContext, locked (the caller does
 * PM_UNLOCK(ctxp->c_lock)); NULL for a handle that is none. */
__pmContext *__pmHandleToPtr(int handle)
{
    __pmContext *c = NULL;
    pmkit_ctx *ctx;
    int locked;

    pmkit_lock();
    for (int i = 0; (ctx = pmkit_ctx_nth(i)) != NULL; i++) {
        if (ctx->handle == handle) {
            if ((c = view(ctx, i)) != NULL)
                pmkit_ctx_pin(ctx); /* not freed while this waits for c_lock */
            break;
        }
    }
    pmkit_unlock();
    if (c == NULL)
        return NULL;
    /* waited for without the library lock: its holder may call the library.
     * A thread that has it already is told so on stderr, in the words and
     * place PCP's library reports it, and gets the context all the same. */
    locked = __pmLock(&c->c_lock, "context.c", 202) == 0;
    if (pmkit_ctx_unpin(ctx)) { /* destroyed meanwhile: its view goes now */
        if (locked)
            PM_UNLOCK(c->c_lock);
        return NULL;
    }
    return c;
}

/* The current context's view, not locked (as PCP's). */
__pmContext *__pmCurrentContext(void)
{
    __pmContext *c = __pmHandleToPtr(pmkit_ctx_current_handle());

    if (c != NULL)
        pthread_mutex_unlock(&c->c_lock);
    return c;
}

/* ---------------------------------------------------------------- dumps */

static const char *state_name(int state)
{
    return state == PM_PROFILE_INCLUDE ? "INCLUDE" : "EXCLUDE";
}

void __pmDumpProfile(FILE *f, int indom, const pmProfile *prof)
{
    fprintf(f, "Dump Instance Profile state=%s, %d profiles", state_name(prof->state),
            prof->profile_len);
    if (indom != (int)PM_INDOM_NULL)
        fprintf(f, ", dump restricted to indom=%d [%s]", indom, pmInDomStr((pmInDom)indom));
    fputc('\n', f);
    for (int i = 0; i < prof->profile_len; i++) {
        const pmInDomProfile *p = &prof->profile[i];
        if (indom != (int)PM_INDOM_NULL && p->indom != (pmInDom)indom)
            continue;
        fprintf(f, "\tProfile [%d] indom=%d [%s] state=%s %d instances\n", i, (int)p->indom,
                pmInDomStr(p->indom), state_name(p->state), p->instances_len);
        if (p->instances_len > 0) {
            fputs("\t\tInstances:", f);
            for (int j = 0; j < p->instances_len; j++)
                fprintf(f, " [%d]", p->instances[j]);
            fputc('\n', f);
        }
    }
}

/* A profile and its lists; those inside the profile's own block (as a
 * decoded PROFILE has them) go with it. */
void __pmFreeProfile(pmProfile *prof)
{
    size_t size;

    if (prof == NULL)
        return;
    size = pmkit_block_size(prof);
    for (int i = 0; prof->profile != NULL && i < prof->profile_len; i++)
        if (!pmkit_in_block(prof, size, prof->profile[i].instances))
            free(prof->profile[i].instances);
    if (!pmkit_in_block(prof, size, prof->profile))
        free(prof->profile);
    free(prof);
}

/* The contexts (all for -1, else the one of handle context) and their
 * profiles, restricted to indom unless that is PM_INDOM_NULL. */
void __pmDumpContext(FILE *f, int context, pmInDom indom)
{
    int cur = pmkit_ctx_current_handle(), curslot = -1;
    pmkit_ctx *ctx;

    pmkit_lock();
    for (int i = 0; (ctx = pmkit_ctx_nth(i)) != NULL; i++)
        if (ctx->handle == cur)
            curslot = i;
    fprintf(f, "Dump Contexts: current -> contexts[%d] handle %d\n", curslot, cur);
    if (indom != PM_INDOM_NULL)
        fprintf(f, "Dump restricted to indom=%d [%s]\n", (int)indom, pmInDomStr(indom));
    for (int i = 0; (ctx = pmkit_ctx_nth(i)) != NULL; i++) {
        if (context != -1 && ctx->handle != context)
            continue;
        fprintf(f, "contexts[%d] handle %d: ", i, ctx->handle);
        if (ctx->host != NULL)
            fprintf(f, "host %s: fd=%d profile=%s\n", pmkit_host_name(ctx->host),
                    pmkit_host_fd(ctx->host),
                    pmkit_host_profile_sent(ctx->host) ? "SENT" : "NOT_SENT");
        else
            fprintf(f, "standalone: profile=NOT_SENT\n");
        const pmProfile *prof = ctx->pcp != NULL ? ctx->pcp->c_instprof : ctx->prof;
        if (prof != NULL) /* read, not taken over: see view() */
            __pmDumpProfile(f, (int)indom, prof);
    }
    pmkit_unlock();
}

/* ---------------------------------------------------------------- fetch */

int pmkit_view_fetch(__pmContext *view, int numpmid, pmID *pmidlist, int next_record,
                     __pmResult **result)
{
    int saved = pmkit_ctx_current_handle(), sts;
    pmHighResResult *rp;

    /* no context given: the current one's (PCP's tests and pmlc pass NULL) */
    if (view == NULL && saved < 0)
        return PM_ERR_NOCONTEXT;
    if (view != NULL && pmUseContext(view->c_handle) < 0)
        return PM_ERR_NOCONTEXT;
    if (numpmid == 0 && next_record)
        sts = pmFetchHighResArchive(&rp);
    else
        sts = pmFetchHighRes(numpmid, pmidlist, &rp);
    if (saved >= 0)
        pmUseContext(saved);
    if (sts >= 0) {
        __pmResult *r = (__pmResult *)rp;
        struct timespec ts = rp->timestamp;
        r->timestamp.sec = ts.tv_sec;
        r->timestamp.nsec = (int32_t)ts.tv_nsec;
        *result = r;
    }
    return sts;
}

/* pmFetchHighRes on the context ctxp shows (the current one for NULL). */
int __pmFetch(__pmContext *ctxp, int numpmid, pmID *pmidlist, __pmResult **result)
{
    return pmkit_view_fetch(ctxp, numpmid, pmidlist, 0, result);
}

int __pmFetchLocal(__pmContext *ctxp, int numpmid, pmID *pmidlist, __pmResult **result)
{
    if (ctxp == NULL || ctxp->c_type != PM_CONTEXT_LOCAL)
        return PM_ERR_NOTCONN;
    return __pmFetch(ctxp, numpmid, pmidlist, result);
}
