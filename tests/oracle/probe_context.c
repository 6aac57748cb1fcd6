/*
 * probe_context.c - contexts, locks and options as PCP's internal
 * interface shows them (<pcp/libpcp.h>, <pcp/deprecated.h>), built against
 * pmkit's libraries and Debian's (compare.sh wants the same output):
 *  - __pmHandleToPtr's __pmContext (type, mode, handle, slot, profile),
 *    locked; __pmCurrentContext unlocked; bad and destroyed handles;
 *  - __pmDumpContext and __pmDumpProfile over two local contexts with
 *    profiles, restricted to an instance domain or not; __pmFreeProfile;
 *  - PM_LOCK/PM_UNLOCK of __pmLock_libpcp (error-checking: a second lock
 *    and an unheld unlock fail, and say so on stderr); a context locked
 *    twice by __pmHandleToPtr;
 *    __pmMultiThreaded per scope from a second thread;
 *  - pmGetOptions in pieces: __pmStartOptions, the __pmAddOpt* calls,
 *    -L and -K, __pmEndOptions, with their messages.
 * Local contexts run with an empty agent table ("clear").  Left out:
 * c_dm (PCP's derived metrics hang there; pmkit has none yet) and the
 * pointer a failed unlock names.
 */
#include <pcp/pmapi.h>
#include <pcp/deprecated.h>
#include "libpcp.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void show_ctx(const char *what, __pmContext *c)
{
    if (c == NULL) {
        printf("%s: NULL\n", what);
        return;
    }
    printf("%s: type %d mode %d handle %d slot %d pmcd %s archctl %s flags %d sent %d "
           "direction %d instprof %s origin %lld.%d delta %lld.%d\n",
           what, c->c_type, c->c_mode, c->c_handle, c->c_slot, c->c_pmcd ? "set" : "NULL",
           c->c_archctl ? "set" : "NULL", c->c_flags, c->c_sent, c->c_direction,
           c->c_instprof ? "set" : "NULL", (long long)c->c_origin.sec, c->c_origin.nsec,
           (long long)c->c_delta.sec, c->c_delta.nsec);
}

static void *second_thread(void *arg)
{
    (void)arg;
    printf("second thread: __pmMultiThreaded DSO_PMDA %d AF %d\n",
           __pmMultiThreaded(PM_SCOPE_DSO_PMDA), __pmMultiThreaded(PM_SCOPE_AF));
    return NULL;
}

static void contexts(void)
{
    int insts[2] = {1, 3}, h, h2, sts;
    __pmContext *c;
    pthread_t t;
    pmProfile *p;

    printf("__pmMultiThreaded %d %d\n", __pmMultiThreaded(PM_SCOPE_DSO_PMDA),
           __pmMultiThreaded(PM_SCOPE_ACL));
    printf("__pmCurrentContext with none: %s\n", __pmCurrentContext() ? "set" : "NULL");
    pmSpecLocalPMDA("clear");
    h = pmNewContext(PM_CONTEXT_LOCAL, NULL);
    printf("pmNewContext -> %d\n", h);
    c = __pmHandleToPtr(h);
    show_ctx("__pmHandleToPtr", c);
    c = __pmHandleToPtr(h); /* again: PCP says so, and gives it */
    printf("PM_UNLOCK -> %d", PM_UNLOCK(c->c_lock));
    printf(" again -> %d\n", PM_UNLOCK(c->c_lock));
    c = __pmCurrentContext();
    show_ctx("__pmCurrentContext", c);
    pmAddProfile(pmInDom_build(29, 1), 0, NULL);
    pmDelProfile(pmInDom_build(29, 1), 2, insts);
    pmDelProfile(pmInDom_build(29, 2), 0, NULL);
    pmAddProfile(pmInDom_build(29, 2), 1, insts);
    h2 = pmNewContext(PM_CONTEXT_LOCAL, NULL);
    pmUseContext(h);
    printf("--- __pmDumpContext(h, PM_INDOM_NULL)\n");
    __pmDumpContext(stdout, h, PM_INDOM_NULL);
    printf("--- __pmDumpContext(-1, PM_INDOM_NULL)\n");
    __pmDumpContext(stdout, -1, PM_INDOM_NULL);
    printf("--- __pmDumpContext(h, 29.2)\n");
    __pmDumpContext(stdout, h, pmInDom_build(29, 2));
    c = __pmHandleToPtr(h);
    printf("--- __pmDumpProfile\n");
    __pmDumpProfile(stdout, (int)PM_INDOM_NULL, c->c_instprof);
    printf("--- __pmDumpProfile(29.1)\n");
    __pmDumpProfile(stdout, (int)pmInDom_build(29, 1), c->c_instprof);
    PM_UNLOCK(c->c_lock);
    p = calloc(1, sizeof(*p));
    p->profile_len = 1;
    p->profile = calloc(1, sizeof(pmInDomProfile));
    p->profile[0].instances_len = 2;
    p->profile[0].instances = calloc(2, sizeof(int));
    __pmFreeProfile(p);
    printf("__pmHandleToPtr(99) %s (-1) %s\n", __pmHandleToPtr(99) ? "set" : "NULL",
           __pmHandleToPtr(-1) ? "set" : "NULL");
    pmDestroyContext(h2);
    printf("__pmHandleToPtr(destroyed) %s\n", __pmHandleToPtr(h2) ? "set" : "NULL");
    pthread_create(&t, NULL, second_thread, NULL);
    pthread_join(t, NULL);
    printf("__pmMultiThreaded after %d\n", __pmMultiThreaded(PM_SCOPE_DSO_PMDA));
    sts = PM_LOCK(__pmLock_libpcp);
    printf("PM_LOCK(__pmLock_libpcp) -> %d", sts);
    sts = PM_LOCK(__pmLock_libpcp);
    printf(" again -> %d", sts);
    sts = PM_UNLOCK(__pmLock_libpcp);
    printf(" unlock -> %d", sts);
    sts = PM_UNLOCK(__pmLock_libpcp);
    printf(" unlock -> %d\n", sts);
}

/* ---------------------------------------------------------------- options */

static void show_opts(const char *what, pmOptions *o)
{
    printf("%s: flags 0x%x errors %d context %d Lflag %d archives %d hosts %d", what, o->flags,
           o->errors, o->context, o->Lflag, o->narchives, o->nhosts);
    for (int i = 0; i < o->narchives; i++)
        printf(" a[%s]", o->archives[i]);
    for (int i = 0; i < o->nhosts; i++)
        printf(" h[%s]", o->hosts[i]);
    printf("\n");
    pmflush();
}

static void options(void)
{
    pmOptions o;

    memset(&o, 0, sizeof(o));
    __pmStartOptions(&o);
    show_opts("__pmStartOptions", &o);
    __pmAddOptHost(&o, "h1");
    __pmAddOptHostList(&o, "h2,h3");
    show_opts("hosts", &o);
    __pmEndOptions(&o);
    show_opts("__pmEndOptions", &o);
    memset(&o, 0, sizeof(o));
    __pmAddOptArchive(&o, "/tmp/a1");
    __pmAddOptArchiveList(&o, "/tmp/a2,/tmp/a3");
    __pmAddOptHost(&o, "h");
    __pmEndOptions(&o);
    show_opts("mixed", &o);
    memset(&o, 0, sizeof(o));
    __pmSetLocalContextFlag(&o);
    __pmSetLocalContextTable(&o, "clear");
    __pmEndOptions(&o);
    show_opts("local", &o);
    memset(&o, 0, sizeof(o));
    __pmSetLocalContextTable(&o, "bogus");
    __pmEndOptions(&o);
    show_opts("bad -K", &o);
    memset(&o, 0, sizeof(o));
    __pmAddOptContainer(&o, "c1");
    printf("PCP_CONTAINER=%s\n", getenv("PCP_CONTAINER"));
    __pmEndOptions(&o);
    show_opts("container", &o);
}

int main(void)
{
    char buf[4096];
    FILE *err = tmpfile();

    /* stderr (lock failures name the lock's address, pmprintf's messages)
     * goes to a file, printed at the end with addresses masked */
    setvbuf(stdout, NULL, _IOLBF, 0);
    dup2(fileno(err), 2);
    unsetenv("PCP_CONTAINER");
    contexts();
    options();
    printf("PM_UNLOCK(not held) -> %d\n", PM_UNLOCK(__pmLock_libpcp));
    fflush(stderr);
    rewind(err);
    while (fgets(buf, sizeof(buf), err) != NULL) {
        char *p = strstr(buf, "(0x");
        char *close = p ? strchr(p, ')') : NULL;
        if (p != NULL && close != NULL)
            memmove(p + 1, close, strlen(close) + 1);
        printf("stderr: %s", buf);
    }
    return 0;
}
