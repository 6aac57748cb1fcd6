/*
 * test_host_threads.c - host contexts used from several threads at once,
 * against a fake pmcd on a unix socket that answers every request with
 * PM_ERR_PMID (and a PROFILE with nothing, as pmcd does).  Built and run
 * under ThreadSanitizer: any data race, use after free or wrong answer
 * fails.
 *
 * Two threads share one context (descriptors and fetches), a third
 * changes that context's profile meanwhile, a fourth makes, copies and
 * destroys contexts of its own, and a fifth destroys contexts a sixth is
 * using: each call holds its context (its own lock, not the library's),
 * and a context destroyed during a call is freed when the call is over.
 * A seventh asks for PCP's view of the contexts in use (__pmHandleToPtr,
 * as PCP's programs do), which makes the view of a new one while others
 * fetch on it.
 */
#include <pcp/pmapi.h>
#include <pcp/libpcp.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "../pmcd_wire.h"

#define ROUNDS 300

static char sock_path[108], spec[160];
static int lfd;
static atomic_long wrong, calls;
static atomic_int handed = -1; /* a context the fifth thread made for the sixth */
static atomic_int stop;

static void bad(const char *what, int sts)
{
    char msg[PM_MAXERRMSGLEN];

    fprintf(stderr, "test_host_threads: %s: %s\n", what, pmErrStr_r(sts, msg, sizeof(msg)));
    atomic_fetch_add(&wrong, 1);
}

/* One client's connection: greeting, CREDS, then an ERROR for each request. */
static void *serve(void *arg)
{
    const uint32_t nope[] = {16, T_ERROR, 0, (uint32_t)PM_ERR_PMID};
    unsigned char buf[4096];
    int fd = (int)(intptr_t)arg, t;

    greet(fd, 0x02010000);
    if (get_pdu(fd, buf, sizeof(buf)) != T_CREDS)
        atomic_fetch_add(&wrong, 1);
    while ((t = get_pdu(fd, buf, sizeof(buf))) >= 0)
        if (t != T_PROFILE)
            put_words(fd, nope, 4);
    close(fd);
    return NULL;
}

static void *pmcd(void *arg)
{
    int fd;

    (void)arg;
    while ((fd = accept(lfd, NULL, NULL)) >= 0) {
        pthread_t t;
        if (pthread_create(&t, NULL, serve, (void *)(intptr_t)fd) != 0)
            return NULL;
        pthread_detach(t);
    }
    return NULL;
}

/* Both calls of a round on the current context: pmcd's PM_ERR_PMID. */
static void ask(const char *who)
{
    pmID pmid = pmID_build(30, 0, 1);
    pmResult *r;
    pmDesc d;
    int sts;

    if ((sts = pmLookupDesc(pmid, &d)) != PM_ERR_PMID)
        bad(who, sts);
    if ((sts = pmFetch(1, &pmid, &r)) != PM_ERR_PMID)
        bad(who, sts);
    atomic_fetch_add(&calls, 2);
}

static int shared;

static void *sharer(void *arg)
{
    if (pmUseContext(shared) != 0)
        bad("pmUseContext", PM_ERR_NOCONTEXT);
    for (int i = 0; i < ROUNDS; i++)
        ask(arg);
    return NULL;
}

static void *profiler(void *arg)
{
    (void)arg;
    if (pmUseContext(shared) != 0)
        bad("pmUseContext", PM_ERR_NOCONTEXT);
    for (int i = 0; i < ROUNDS; i++) {
        int inst = i % 7, sts;
        pmInDom indom = pmInDom_build(30, (unsigned)(i % 3));
        if ((sts = pmAddProfile(indom, 1, &inst)) < 0 || (sts = pmDelProfile(indom, 1, &inst)) < 0)
            bad("profile", sts);
    }
    return NULL;
}

static void *owner(void *arg)
{
    (void)arg;
    for (int i = 0; i < ROUNDS / 10; i++) {
        int c = pmNewContext(PM_CONTEXT_HOST, spec), d;
        if (c < 0) {
            bad("pmNewContext", c);
            continue;
        }
        ask("owner");
        if ((d = pmDupContext()) < 0)
            bad("pmDupContext", d);
        else
            ask("owner's copy");
        pmDestroyContext(c);
        if (d >= 0)
            pmDestroyContext(d);
    }
    return NULL;
}

/* Makes a context, hands it over, destroys it a little later. */
static void *destroyer(void *arg)
{
    (void)arg;
    for (int i = 0; i < ROUNDS / 10; i++) {
        int c = pmNewContext(PM_CONTEXT_HOST, spec), sts;
        if (c < 0) {
            bad("pmNewContext", c);
            continue;
        }
        atomic_store(&handed, c);
        for (int k = 0; k < 3; k++)
            ask("destroyer");
        if ((sts = pmDestroyContext(c)) != 0)
            bad("pmDestroyContext", sts);
    }
    atomic_store(&stop, 1);
    return NULL;
}

/* Uses whatever context was handed over last; it may be destroyed at any
 * point, and then the calls say PM_ERR_NOCONTEXT. */
static void *user(void *arg)
{
    pmID pmid = pmID_build(30, 0, 1);
    pmDesc d;

    (void)arg;
    while (!atomic_load(&stop)) {
        int c = atomic_load(&handed), sts;
        if (c < 0 || pmUseContext(c) != 0)
            continue;
        sts = pmLookupDesc(pmid, &d);
        if (sts != PM_ERR_PMID && sts != PM_ERR_NOCONTEXT)
            bad("user", sts);
    }
    return NULL;
}

/* PCP's view of the shared context and of the one handed over last: the
 * first ask makes a context's view while other threads use the context. */
static void *viewer(void *arg)
{
    (void)arg;
    while (!atomic_load(&stop)) {
        int handles[2] = {shared, atomic_load(&handed)};
        for (int k = 0; k < 2; k++) {
            __pmContext *c;
            if (handles[k] < 0 || (c = __pmHandleToPtr(handles[k])) == NULL)
                continue;
            if (c->c_handle != handles[k] || c->c_instprof == NULL)
                bad("__pmHandleToPtr", PM_ERR_NOCONTEXT);
            PM_UNLOCK(c->c_lock);
        }
    }
    return NULL;
}

int main(void)
{
    struct sockaddr_un sun;
    pthread_t srv, t[8];
    void *(*fn[8])(void *) = {sharer, sharer, profiler, owner, destroyer, user, user, viewer};
    int n = (int)(sizeof(fn) / sizeof(fn[0]));

    snprintf(sock_path, sizeof(sock_path), "/tmp/pmkit_tsan_pmcd.%d", (int)getpid());
    snprintf(spec, sizeof(spec), "unix:%s", sock_path);
    memset(&sun, 0, sizeof(sun));
    sun.sun_family = AF_UNIX;
    strcpy(sun.sun_path, sock_path);
    unlink(sock_path);
    if ((lfd = socket(AF_UNIX, SOCK_STREAM, 0)) < 0 ||
        bind(lfd, (struct sockaddr *)&sun, sizeof(sun)) != 0 || listen(lfd, 16) != 0 ||
        pthread_create(&srv, NULL, pmcd, NULL) != 0) {
        perror("test_host_threads: fake pmcd");
        return 2;
    }
    if ((shared = pmNewContext(PM_CONTEXT_HOST, spec)) < 0) {
        bad("pmNewContext", shared);
        return 1;
    }
    for (int i = 0; i < n; i++)
        pthread_create(&t[i], NULL, fn[i], i < 2 ? (void *)(i ? "sharer 2" : "sharer 1") : NULL);
    for (int i = 0; i < n; i++)
        pthread_join(t[i], NULL);
    pmDestroyContext(shared);
    shutdown(lfd, SHUT_RDWR);
    close(lfd);
    pthread_join(srv, NULL);
    unlink(sock_path);
    printf("test_host_threads: %ld calls, %ld wrong\n", atomic_load(&calls), atomic_load(&wrong));
    return atomic_load(&wrong) == 0 && atomic_load(&calls) > 0 ? 0 : 1;
}
