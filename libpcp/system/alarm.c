/*
 * alarm.c - PCP's alarm timers (<pcp/libpcp.h>'s __pmAF*): callbacks run
 * after a delay and then every interval (or once, for an interval of
 * zero), from a SIGALRM handler on ITIMER_REAL, as agents and pmie use
 * them.  __pmAFblock and __pmAFunblock hold SIGALRM back around code that
 * must not be interrupted; an alarm due meanwhile runs at the unblock.
 *
 * As Debian's libpcp: identifiers count up from 32769, unregistering an
 * unknown one answers -1 with errno untouched, and nothing checks the
 * arguments (a negative interval is taken as zero; a NULL callback is
 * never called).  The list is changed only with SIGALRM blocked; a timer
 * that has fired for the last time is marked in the handler and freed by
 * the next call outside it, so the handler calls nothing but the
 * callbacks, setitimer and clock_gettime.  Only the first thread to set
 * up or unregister a timer may do so again (PM_SCOPE_AF): another gets
 * PM_ERR_THREAD, as from Debian's (the testsuite's multithread2 in
 * oracle.testsuite_access).
 */
#include "support.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include <pcp/libpcp.h>

typedef struct timer {
    int id;
    void *data;
    void (*func)(int, void *);
    struct timespec interval; /* 0: once */
    struct timespec due;      /* CLOCK_MONOTONIC */
    volatile sig_atomic_t done;
    struct timer *next;
} timer;

static timer *timers;
static int next_id = 32769;
static int handler_set;

static struct timespec ts_of(const struct timeval *tv)
{
    struct timespec ts = {0, 0};

    if (tv != NULL && (tv->tv_sec > 0 || (tv->tv_sec == 0 && tv->tv_usec > 0))) {
        ts.tv_sec = tv->tv_sec + tv->tv_usec / 1000000;
        ts.tv_nsec = (tv->tv_usec % 1000000) * 1000;
    }
    return ts;
}

static struct timespec ts_add(struct timespec a, struct timespec b)
{
    a.tv_sec += b.tv_sec;
    a.tv_nsec += b.tv_nsec;
    if (a.tv_nsec >= 1000000000) {
        a.tv_nsec -= 1000000000;
        a.tv_sec++;
    }
    return a;
}

static int ts_before(struct timespec a, struct timespec b)
{
    return a.tv_sec < b.tv_sec || (a.tv_sec == b.tv_sec && a.tv_nsec < b.tv_nsec);
}

/* Arm the timer for the earliest live alarm, or stop it. */
static void arm(void)
{
    struct itimerval it;
    struct timespec now, first = {0, 0};
    int any = 0;

    memset(&it, 0, sizeof(it));
    for (timer *t = timers; t != NULL; t = t->next) {
        if (!t->done && (!any || ts_before(t->due, first))) {
            first = t->due;
            any = 1;
        }
    }
    if (any) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (ts_before(now, first)) {
            time_t s = first.tv_sec - now.tv_sec;
            long ns = first.tv_nsec - now.tv_nsec;
            if (ns < 0) {
                ns += 1000000000;
                s--;
            }
            it.it_value.tv_sec = s;
            it.it_value.tv_usec = ns / 1000;
        }
        if (it.it_value.tv_sec == 0 && it.it_value.tv_usec == 0)
            it.it_value.tv_usec = 1; /* due now: as soon as can be */
    }
    setitimer(ITIMER_REAL, &it, NULL);
}

static void on_alarm(int sig)
{
    int saved = errno;
    struct timespec now;

    (void)sig;
    clock_gettime(CLOCK_MONOTONIC, &now);
    for (timer *t = timers; t != NULL; t = t->next) {
        if (t->done || ts_before(now, t->due))
            continue;
        if (t->interval.tv_sec == 0 && t->interval.tv_nsec == 0)
            t->done = 1;
        else
            t->due = ts_add(now, t->interval);
        if (t->func != NULL)
            t->func(t->id, t->data);
    }
    arm();
    errno = saved;
}

static void hold(sigset_t *old)
{
    sigset_t set;

    sigemptyset(&set);
    sigaddset(&set, SIGALRM);
    sigprocmask(SIG_BLOCK, &set, old);
}

/* Free the alarms that are done (SIGALRM held). */
static void reap(void)
{
    timer **p = &timers;

    while (*p != NULL) {
        timer *t = *p;
        if (t->done) {
            *p = t->next;
            free(t);
        } else {
            p = &t->next;
        }
    }
}

int __pmAFsetup(const struct timeval *start, const struct timeval *interval, void *data,
                void (*func)(int, void *))
{
    timer *t;
    struct timespec now;
    sigset_t old;
    int id;

    if (PM_MULTIPLE_THREADS(PM_SCOPE_AF))
        return PM_ERR_THREAD;
    if ((t = calloc(1, sizeof(*t))) == NULL)
        return -ENOMEM;
    clock_gettime(CLOCK_MONOTONIC, &now);
    t->data = data;
    t->func = func;
    t->interval = ts_of(interval);
    t->due = ts_add(now, ts_of(start));
    hold(&old);
    if (!handler_set) {
        struct sigaction sa;
        memset(&sa, 0, sizeof(sa));
        sa.sa_handler = on_alarm;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESTART;
        sigaction(SIGALRM, &sa, NULL);
        handler_set = 1;
    }
    reap();
    id = t->id = next_id++;
    t->next = timers;
    timers = t;
    arm();
    sigprocmask(SIG_SETMASK, &old, NULL);
    return id;
}

int __pmAFregister(const struct timeval *interval, void *data, void (*func)(int, void *))
{
    return __pmAFsetup(interval, interval, data, func);
}

int __pmAFunregister(int id)
{
    sigset_t old;
    int sts = -1;

    if (PM_MULTIPLE_THREADS(PM_SCOPE_AF))
        return PM_ERR_THREAD;
    hold(&old);
    for (timer *t = timers; t != NULL; t = t->next) {
        if (t->id == id && !t->done) {
            t->done = 1;
            sts = 0;
            break;
        }
    }
    reap();
    arm();
    sigprocmask(SIG_SETMASK, &old, NULL);
    return sts;
}

void __pmAFblock(void)
{
    hold(NULL);
}

void __pmAFunblock(void)
{
    sigset_t set;

    sigemptyset(&set);
    sigaddset(&set, SIGALRM);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
}

int __pmAFisempty(void)
{
    sigset_t old;
    int empty = 1;

    hold(&old);
    for (timer *t = timers; t != NULL; t = t->next)
        if (!t->done)
            empty = 0;
    sigprocmask(SIG_SETMASK, &old, NULL);
    return empty;
}
