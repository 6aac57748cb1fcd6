/*
 * probe_sleep.c - libpcp's internal sleeps (<pcp/libpcp.h>) as pmval calls
 * them, built against pmkit's libraries and Debian's (compare.sh wants the
 * same output):
 *  - __pmtimespecSleep and __pmtimevalSleep wait for an interval;
 *  - __pmtimespecPause and __pmtimevalPause wait until a time of day (a
 *    time in the past returns at once; pmval pauses until its start time);
 *  - both carry on when a signal interrupts them.
 * Only coarse facts are printed: whether the call returned no earlier than
 * it should (less a millisecond for the clocks' rounding) and whether it
 * returned within a generous bound; a watchdog ends the probe after 20 s
 * (a sleep that overshoots by years, as one did, fails fast).
 */
#include <pcp/pmapi.h>
#include "libpcp.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double clock_now(void)
{
    struct timespec t;

    clock_gettime(CLOCK_REALTIME, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static void watchdog(int sig)
{
    static const char msg[] = "watchdog: a sleep is still running after 20 s\n";

    (void)sig;
    if (write(STDOUT_FILENO, msg, sizeof(msg) - 1) < 0)
        _exit(2);
    _exit(1);
}

static void nothing(int sig)
{
    (void)sig;
}

/* A SIGUSR1 in MS milliseconds (the handler does nothing), or none. */
static timer_t interrupter;
static void interrupt_in(long ms)
{
    struct itimerspec it;

    memset(&it, 0, sizeof(it));
    it.it_value.tv_sec = ms / 1000;
    it.it_value.tv_nsec = (ms % 1000) * 1000000L;
    timer_settime(interrupter, 0, &it, NULL);
}

/* How long a call took against what it should have: at least WANT seconds
 * (less 1 ms) and less than WANT + 10 s (a starved sanitized run may lose
 * seconds; the bug this catches overslept by decades). */
static void report(const char *what, double t0, double want)
{
    double took = clock_now() - t0;

    printf("%-44s early=%s late=%s\n", what, took < want - 0.001 ? "yes" : "no",
           took >= want + 10.0 ? "yes" : "no");
}

static struct timespec ts_after(double sec)
{
    struct timespec t;

    pmtimespecNow(&t);
    pmtimespecInc(&t, &(struct timespec){(time_t)sec, (long)((sec - (time_t)sec) * 1e9)});
    return t;
}

static struct timeval tv_after(double sec)
{
    struct timeval t;

    pmtimevalNow(&t);
    pmtimevalInc(&t, &(struct timeval){(time_t)sec, (long)((sec - (time_t)sec) * 1e6)});
    return t;
}

static void sleeps(void)
{
    double t0;

    t0 = clock_now();
    __pmtimespecSleep((struct timespec){0, 200000000L});
    report("__pmtimespecSleep 0.2 s", t0, 0.2);
    t0 = clock_now();
    __pmtimevalSleep((struct timeval){0, 200000});
    report("__pmtimevalSleep 0.2 s", t0, 0.2);
    t0 = clock_now();
    interrupt_in(50);
    __pmtimespecSleep((struct timespec){0, 400000000L});
    report("__pmtimespecSleep 0.4 s, signal at 50 ms", t0, 0.4);
    t0 = clock_now();
    interrupt_in(50);
    __pmtimevalSleep((struct timeval){0, 400000});
    report("__pmtimevalSleep 0.4 s, signal at 50 ms", t0, 0.4);
}

static void pauses(void)
{
    double t0;

    t0 = clock_now();
    __pmtimespecPause(ts_after(0.3));
    report("__pmtimespecPause until now + 0.3 s", t0, 0.3);
    t0 = clock_now();
    __pmtimevalPause(tv_after(0.3));
    report("__pmtimevalPause until now + 0.3 s", t0, 0.3);
    t0 = clock_now();
    __pmtimespecPause(ts_after(0));
    report("__pmtimespecPause until now", t0, 0);
    t0 = clock_now();
    __pmtimespecPause(ts_after(-10));
    report("__pmtimespecPause until 10 s ago", t0, 0);
    t0 = clock_now();
    __pmtimevalPause(tv_after(-10));
    report("__pmtimevalPause until 10 s ago", t0, 0);
    t0 = clock_now();
    __pmtimespecPause((struct timespec){0, 10000000L});
    report("__pmtimespecPause until 1970 + 10 ms", t0, 0);
    t0 = clock_now();
    __pmtimevalPause((struct timeval){0, 10000});
    report("__pmtimevalPause until 1970 + 10 ms", t0, 0);
    t0 = clock_now();
    interrupt_in(50);
    __pmtimespecPause(ts_after(0.4));
    report("__pmtimespecPause now + 0.4 s, signal at 50 ms", t0, 0.4);
    t0 = clock_now();
    interrupt_in(50);
    __pmtimevalPause(tv_after(0.4));
    report("__pmtimevalPause now + 0.4 s, signal at 50 ms", t0, 0.4);
}

int main(void)
{
    struct sigaction sa;
    struct sigevent ev;

    setvbuf(stdout, NULL, _IOLBF, 0);
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = watchdog;
    sigaction(SIGALRM, &sa, NULL);
    sa.sa_handler = nothing;
    sigaction(SIGUSR1, &sa, NULL);
    memset(&ev, 0, sizeof(ev));
    ev.sigev_notify = SIGEV_SIGNAL;
    ev.sigev_signo = SIGUSR1;
    if (timer_create(CLOCK_MONOTONIC, &ev, &interrupter) < 0) {
        perror("timer_create");
        return 1;
    }
    alarm(20);
    sleeps();
    pauses();
    return 0;
}
