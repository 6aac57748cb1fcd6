/*
 * timestamp.c - libpcp's internal time helpers (<pcp/libpcp.h>): the
 * __pmTimestamp arithmetic, timestamps in the wire and archive formats,
 * printing them, reading the clock, sleeping, the local time zone as PCP
 * names it (__pmTimezone, __pmZoneinfo), and times parsed against a log's
 * bounds (__pmParseTime; the parser is timewindow.c's).
 *
 * All as Debian's libpcp answers (tests/oracle/probe_internal.c), with two
 * differences (docs/compat.md): __pmTimestampCmp does not wrap when two
 * times are 2^31 seconds or more apart, and the sleeps take intervals that
 * are not normalised (1.5 million microseconds is 1.5 s, where PCP's
 * nanosleep refuses them and returns at once); the pauses, which wait
 * until a time of day, likewise take unnormalised times.
 */
#include "cmdline.h"

#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <pcp/libpcp.h>

#define NS 1000000000

static void normalise(__pmTimestamp *t)
{
    while (t->nsec >= NS) {
        t->nsec -= NS;
        t->sec++;
    }
    while (t->nsec < 0) {
        t->nsec += NS;
        t->sec--;
    }
}

void __pmTimestampInc(__pmTimestamp *a, const __pmTimestamp *b)
{
    a->sec += b->sec;
    a->nsec += b->nsec;
    normalise(a);
}

void __pmTimestampDec(__pmTimestamp *a, const __pmTimestamp *b)
{
    a->sec -= b->sec;
    a->nsec -= b->nsec;
    normalise(a);
}

double __pmTimestampSub(const __pmTimestamp *a, const __pmTimestamp *b)
{
    return (double)(a->sec - b->sec) + (double)(a->nsec - b->nsec) / NS;
}

/* The seconds' difference, else the nanoseconds': PCP's values, but held
 * within an int instead of wrapping. */
int __pmTimestampCmp(const __pmTimestamp *a, const __pmTimestamp *b)
{
    if (a->sec != b->sec) {
        int64_t d = a->sec - b->sec;
        if (a->sec > b->sec && (d > INT_MAX || d <= 0))
            return INT_MAX;
        if (a->sec < b->sec && (d < INT_MIN || d >= 0))
            return INT_MIN;
        return (int)d;
    }
    return a->nsec - b->nsec;
}

double __pmTimevalSub(const pmTimeval *a, const pmTimeval *b)
{
    return (double)a->tv_sec - b->tv_sec + ((double)a->tv_usec - b->tv_usec) / 1e6;
}

double __pmTimespecSub(const pmTimespec *a, const pmTimespec *b)
{
    return (double)a->tv_sec - (double)b->tv_sec + ((double)a->tv_nsec - (double)b->tv_nsec) / NS;
}

/* Archive and wire forms, 32-bit words in network order: a timestamp is
 * the seconds' low and high words then the nanoseconds; a timeval the
 * seconds (32 bits) then the microseconds. */
void __pmLoadTimestamp(const int32_t *buf, __pmTimestamp *tsp)
{
    uint64_t lo = ntohl((uint32_t)buf[0]), hi = ntohl((uint32_t)buf[1]);

    tsp->sec = (int64_t)((hi << 32) | lo);
    tsp->nsec = (int32_t)ntohl((uint32_t)buf[2]);
}

void __pmPutTimestamp(const __pmTimestamp *tsp, int32_t *buf)
{
    uint64_t sec = (uint64_t)tsp->sec;

    buf[0] = (int32_t)htonl((uint32_t)(sec & 0xffffffffu));
    buf[1] = (int32_t)htonl((uint32_t)(sec >> 32));
    buf[2] = (int32_t)htonl((uint32_t)tsp->nsec);
}

void __pmLoadTimeval(const int32_t *buf, __pmTimestamp *tsp)
{
    tsp->sec = (int32_t)ntohl((uint32_t)buf[0]);
    tsp->nsec = (int32_t)ntohl((uint32_t)buf[1]) * 1000;
}

void __pmPutTimeval(const __pmTimestamp *tsp, int32_t *buf)
{
    buf[0] = (int32_t)htonl((uint32_t)tsp->sec);
    buf[1] = (int32_t)htonl((uint32_t)(tsp->nsec / 1000));
}

/* HH:MM:SS and the fraction as given (digits wide), in the reporting zone. */
static void print_clock(FILE *f, time_t sec, long part, int digits)
{
    struct tm tm;

    if (pmLocaltime(&sec, &tm) == NULL)
        memset(&tm, 0, sizeof(tm));
    fprintf(f, "%02d:%02d:%02d.%0*ld", tm.tm_hour, tm.tm_min, tm.tm_sec, digits, part);
}

void __pmPrintTimestamp(FILE *f, const __pmTimestamp *tsp)
{
    print_clock(f, (time_t)tsp->sec, tsp->nsec, 9);
}

void __pmPrintTimeval(FILE *f, const pmTimeval *tvp)
{
    print_clock(f, (time_t)tvp->tv_sec, tvp->tv_usec, 6);
}

void __pmPrintTimespec(FILE *f, const pmTimespec *tsp)
{
    print_clock(f, (time_t)tsp->tv_sec, (long)tsp->tv_nsec, 9);
}

int __pmGetTimestamp(__pmTimestamp *tsp)
{
    struct timespec ts;
    int sts = clock_gettime(CLOCK_REALTIME, &ts);

    tsp->sec = ts.tv_sec;
    tsp->nsec = (int32_t)ts.tv_nsec;
    return sts < 0 ? -oserror() : 0;
}

int __pmGetTimespec(struct timespec *ts)
{
    return clock_gettime(CLOCK_REALTIME, ts) < 0 ? -oserror() : 0;
}

/* Sleep for the (normalised) interval, on through signals; negative
 * intervals return at once. */
static void doze(time_t sec, long nsec)
{
    struct timespec want, left;

    sec += nsec / NS;
    nsec %= NS;
    if (nsec < 0) {
        nsec += NS;
        sec--;
    }
    if (sec < 0)
        return;
    want.tv_sec = sec;
    want.tv_nsec = nsec;
    while (nanosleep(&want, &left) < 0 && errno == EINTR)
        want = left;
}

/* Sleep until the time of day SEC.NSEC (normalised), on through signals;
 * a time already past returns at once. */
static void doze_until(time_t sec, long nsec)
{
    struct timespec when;

    sec += nsec / NS;
    nsec %= NS;
    if (nsec < 0) {
        nsec += NS;
        sec--;
    }
    when.tv_sec = sec;
    when.tv_nsec = nsec;
    while (clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &when, NULL) == EINTR)
        ;
}

/* Sleep waits for an interval, Pause until a time of day (pmval pauses
 * until its start time): both as PCP's. */
void __pmtimevalSleep(struct timeval interval)
{
    doze(interval.tv_sec, (long)interval.tv_usec * 1000);
}

void __pmtimevalPause(struct timeval sched)
{
    doze_until(sched.tv_sec, (long)sched.tv_usec * 1000);
}

void __pmtimespecSleep(struct timespec interval)
{
    doze(interval.tv_sec, interval.tv_nsec);
}

void __pmtimespecPause(struct timespec sched)
{
    doze_until(sched.tv_sec, sched.tv_nsec);
}

/*
 * The local zone as PCP names it: $TZ when it is set and does not start
 * with ':', else the zone's abbreviation now and its offset west of UTC
 * in hours (and minutes), the form of a POSIX $TZ: "CET-1", "EST+5",
 * "IST-5:30", "UTC".
 */
char *__pmTimezone_r(char *buf, int buflen)
{
    const char *tz = getenv("TZ");
    char zone[64];
    struct tm tm;
    time_t now = time(NULL);

    if (buf == NULL || buflen <= 0)
        return NULL;
    if (tz != NULL && tz[0] != ':') {
        pmstrncpy(buf, (size_t)buflen, tz);
        return buf;
    }
    tzset();
    if (localtime_r(&now, &tm) == NULL) {
        pmstrncpy(buf, (size_t)buflen, "UTC");
        return buf;
    }
    long west = -tm.tm_gmtoff;
    if (west == 0)
        pmsprintf(zone, sizeof(zone), "%s", tm.tm_zone);
    else if (west % 3600 == 0)
        pmsprintf(zone, sizeof(zone), "%s%+ld", tm.tm_zone, west / 3600);
    else
        pmsprintf(zone, sizeof(zone), "%s%+ld:%02ld", tm.tm_zone, west / 3600,
                  labs(west % 3600) / 60);
    pmstrncpy(buf, (size_t)buflen, zone);
    return buf;
}

char *__pmTimezone(void)
{
    static _Thread_local char buf[64];

    return __pmTimezone_r(buf, (int)sizeof(buf));
}

/* This host's zone in detail, ":Area/City" from /etc/localtime (whatever
 * $TZ says), in a string the caller frees; NULL when it cannot be had. */
char *__pmZoneinfo(void)
{
    char link[512], *name, *zi;
    ssize_t n = readlink("/etc/localtime", link, sizeof(link) - 1);

    if (n <= 0)
        return NULL;
    link[n] = '\0';
    if ((name = strstr(link, "zoneinfo/")) == NULL)
        return NULL;
    if ((zi = malloc(strlen(name + 9) + 2)) == NULL)
        return NULL;
    zi[0] = ':';
    strcpy(zi + 1, name + 9);
    return zi;
}

/* mktime in the reporting zone. */
time_t __pmMktime(struct tm *tm)
{
    return pmkit_zone_mktime(tm);
}
