/*
 * time.c - time for PMAPI clients: the pmtimeval and pmtimespec arithmetic,
 * reporting timezones (pmNewZone, pmUseZone, pmWhichZone, pmNewContextZone)
 * with pmCtime, pmLocaltime, pmPrintStamp and pmPrintHighResStamp in the
 * zone chosen.
 *
 * Zones: a list of TZ strings, one of them current (none at first: local
 * time); pmUseZone picks one again.  pmCtime and pmLocaltime convert in
 * the current zone by setting $TZ around localtime_r, under a lock, and
 * putting it back.  A context's
 * zone (pmNewContextZone) is the zone of the host its values come from:
 * for a local context this one, $TZ if set, else ":Area/City" from the
 * /etc/localtime link, as PCP names it; for an archive context the zone
 * of its label.
 *
 * pmSetMode is the metrics room's (metrics/archive.c): it depends on the
 * context.
 */
#include "cmdline.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

/* ---- arithmetic ---- */

void pmtimevalNow(struct timeval *tv)
{
    gettimeofday(tv, NULL);
}

void pmtimevalInc(struct timeval *a, const struct timeval *b)
{
    a->tv_sec += b->tv_sec;
    a->tv_usec += b->tv_usec;
    if (a->tv_usec >= 1000000) {
        a->tv_usec -= 1000000;
        a->tv_sec++;
    }
}

void pmtimevalDec(struct timeval *a, const struct timeval *b)
{
    a->tv_sec -= b->tv_sec;
    a->tv_usec -= b->tv_usec;
    if (a->tv_usec < 0) {
        a->tv_usec += 1000000;
        a->tv_sec--;
    }
}

double pmtimevalToReal(const struct timeval *a)
{
    return (double)a->tv_sec + (double)a->tv_usec / 1e6;
}

double pmtimevalAdd(const struct timeval *a, const struct timeval *b)
{
    return (double)(a->tv_sec + b->tv_sec) + (double)(a->tv_usec + b->tv_usec) / 1e6;
}

double pmtimevalSub(const struct timeval *a, const struct timeval *b)
{
    return (double)(a->tv_sec - b->tv_sec) + (double)(a->tv_usec - b->tv_usec) / 1e6;
}

/* SECS as whole seconds (toward zero) and the rest in 1/PER parts, rounded
 * as PCP rounds (+0.5, then toward zero); a rest that rounds up to a whole
 * second is carried (PCP leaves PER parts). */
void pmkit_split_seconds(double secs, long per, time_t *sec, long *part)
{
    time_t s = (time_t)secs;
    long f = (long)((long double)(secs - (double)s) * per + 0.5L); /* PCP's precision */

    if (f >= per) {
        s++;
        f -= per;
    }
    *sec = s;
    *part = f;
}

void pmtimevalFromReal(double secs, struct timeval *tv)
{
    time_t sec;
    long usec;

    pmkit_split_seconds(secs, 1000000L, &sec, &usec);
    tv->tv_sec = sec;
    tv->tv_usec = usec;
}

int pmtimespecNow(struct timespec *ts)
{
    return clock_gettime(CLOCK_REALTIME, ts) < 0 ? -errno : 0;
}

void pmtimespecInc(struct timespec *a, const struct timespec *b)
{
    a->tv_sec += b->tv_sec;
    a->tv_nsec += b->tv_nsec;
    if (a->tv_nsec >= 1000000000L) {
        a->tv_nsec -= 1000000000L;
        a->tv_sec++;
    }
}

void pmtimespecDec(struct timespec *a, const struct timespec *b)
{
    a->tv_sec -= b->tv_sec;
    a->tv_nsec -= b->tv_nsec;
    if (a->tv_nsec < 0) {
        a->tv_nsec += 1000000000L;
        a->tv_sec--;
    }
}

double pmtimespecToReal(const struct timespec *a)
{
    return (double)a->tv_sec + (double)a->tv_nsec / 1e9;
}

double pmtimespecAdd(const struct timespec *a, const struct timespec *b)
{
    return pmtimespecToReal(a) + pmtimespecToReal(b);
}

double pmtimespecSub(const struct timespec *a, const struct timespec *b)
{
    return (double)(a->tv_sec - b->tv_sec) + (double)(a->tv_nsec - b->tv_nsec) / 1e9;
}

void pmtimespecFromReal(double secs, struct timespec *ts)
{
    pmkit_split_seconds(secs, 1000000000L, &ts->tv_sec, &ts->tv_nsec);
}

/* ---- reporting timezones ---- */

static pthread_mutex_t zone_lock = PTHREAD_MUTEX_INITIALIZER;
static char **zones;
static int nzones;
static int current = -1;

/* A zone of three characters ("UTC", "EST") is taken as that name with
 * offset 0, as PCP takes it ("UTC+0"). */
int pmNewZone(const char *tz)
{
    char **grown, *copy;
    size_t len;
    int idx;

    if (tz == NULL)
        return -EINVAL;
    len = strlen(tz);
    if ((copy = malloc(len + 3)) == NULL)
        return -ENOMEM;
    memcpy(copy, tz, len + 1);
    if (len == 3)
        memcpy(copy + 3, "+0", 3);
    pthread_mutex_lock(&zone_lock);
    if ((grown = realloc(zones, ((size_t)nzones + 1) * sizeof(char *))) == NULL) {
        pthread_mutex_unlock(&zone_lock);
        free(copy);
        return -ENOMEM;
    }
    zones = grown;
    zones[nzones] = copy;
    idx = current = nzones++;
    pthread_mutex_unlock(&zone_lock);
    return idx;
}

int pmUseZone(const int idx)
{
    int sts = -1;

    pthread_mutex_lock(&zone_lock);
    if (idx >= 0 && idx < nzones) {
        current = idx;
        sts = 0;
    }
    pthread_mutex_unlock(&zone_lock);
    return sts;
}

int pmWhichZone(char **tz)
{
    int idx;

    pthread_mutex_lock(&zone_lock);
    idx = current;
    if (idx >= 0 && tz != NULL)
        *tz = zones[idx];
    pthread_mutex_unlock(&zone_lock);
    return idx;
}

/* This host's zone as PCP names it: $TZ, else ":Area/City" from the
 * /etc/localtime link, else "UTC". */
static int local_zone(char *buf, size_t size)
{
    const char *tz = getenv("TZ"), *name;
    char link[512];
    ssize_t n;

    if (tz != NULL && tz[0] != '\0')
        return snprintf(buf, size, "%s", tz) < (int)size ? 0 : -E2BIG;
    n = readlink("/etc/localtime", link, sizeof(link) - 1);
    if (n > 0) {
        link[n] = '\0';
        if ((name = strstr(link, "zoneinfo/")) != NULL)
            return snprintf(buf, size, ":%s", name + 9) < (int)size ? 0 : -E2BIG;
    }
    return snprintf(buf, size, "UTC") < (int)size ? 0 : -E2BIG;
}

/* The current context's zone: an archive's label's, else this host's. */
int pmNewContextZone(void)
{
    pmHighResLogLabel label;
    char tz[512];
    int sts;

    if (pmWhichContext() < 0)
        return PM_ERR_NOCONTEXT;
    if (pmGetHighResArchiveLabel(&label) >= 0)
        return pmNewZone(label.timezone);
    if ((sts = local_zone(tz, sizeof(tz))) < 0)
        return sts;
    return pmNewZone(tz);
}

/*
 * Enter the current reporting zone: the lock taken and $TZ set to the
 * zone (tzset), its old value in *saved; 0, or -1 with the lock released
 * when $TZ cannot be saved.  With no zone set nothing changes.
 */
static int zone_enter(char **saved)
{
    const char *was;

    *saved = NULL;
    pthread_mutex_lock(&zone_lock);
    if (current < 0)
        return 0;
    if ((was = getenv("TZ")) != NULL && (*saved = strdup(was)) == NULL) {
        pthread_mutex_unlock(&zone_lock);
        return -1;
    }
    setenv("TZ", zones[current], 1);
    tzset();
    return 0;
}

/* Leave it: $TZ as it was, the lock released. */
static void zone_leave(char *saved)
{
    if (current >= 0) {
        if (saved != NULL)
            setenv("TZ", saved, 1);
        else
            unsetenv("TZ");
        tzset();
    }
    pthread_mutex_unlock(&zone_lock);
    free(saved);
}

/* localtime_r in the current zone. */
struct tm *pmLocaltime(const time_t *clock, struct tm *result)
{
    struct tm *r;
    char *saved;

    if (zone_enter(&saved) < 0)
        return NULL;
    r = localtime_r(clock, result);
    zone_leave(saved);
    return r;
}

/* mktime in the current zone, for times read from text (timewindow.c). */
time_t pmkit_zone_mktime(struct tm *tm)
{
    char *saved;
    time_t t;

    if (zone_enter(&saved) < 0)
        return (time_t)-1;
    t = mktime(tm);
    zone_leave(saved);
    return t;
}

/* ctime's 26 bytes, "Tue Nov 14 22:13:20 2023\n", in the current zone;
 * question marks where that cannot be (a year beyond 9999). */
char *pmCtime(const time_t *clock, char *buf)
{
    static const char days[] = "SunMonTueWedThuFriSat";
    static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
    char text[64];
    struct tm tm;

    if (pmLocaltime(clock, &tm) == NULL || tm.tm_wday < 0 || tm.tm_wday > 6 || tm.tm_mon < 0 ||
        tm.tm_mon > 11 ||
        snprintf(text, sizeof(text), "%.3s %.3s%3d %.2d:%.2d:%.2d %d\n", days + 3 * tm.tm_wday,
                 months + 3 * tm.tm_mon, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                 1900 + tm.tm_year) > 25)
        strcpy(text, "??? ??? ?? ??:??:?? ????\n");
    memcpy(buf, text, 26);
    return buf;
}

/* "HH:MM:SS." then the fraction of the second in DIGITS digits, as
 * given (PCP's: not rounded, not normalised), in the current zone. */
static void print_stamp(FILE *f, time_t sec, long part, int digits)
{
    struct tm tm;

    if (pmLocaltime(&sec, &tm) == NULL)
        memset(&tm, 0, sizeof(tm));
    fprintf(f, "%02d:%02d:%02d.%0*ld", tm.tm_hour, tm.tm_min, tm.tm_sec, digits, part);
}

void pmPrintStamp(FILE *f, const struct timeval *tv)
{
    print_stamp(f, tv->tv_sec, (long)tv->tv_usec / 1000, 3);
}

void pmPrintHighResStamp(FILE *f, const struct timespec *ts)
{
    print_stamp(f, ts->tv_sec, ts->tv_nsec, 9);
}

/* The names these calls had before they became public. */
PMKIT_ALIAS(__pmtimevalNow, pmtimevalNow);
PMKIT_ALIAS(__pmtimevalInc, pmtimevalInc);
PMKIT_ALIAS(__pmtimevalDec, pmtimevalDec);
PMKIT_ALIAS(__pmtimevalToReal, pmtimevalToReal);
PMKIT_ALIAS(__pmtimevalAdd, pmtimevalAdd);
PMKIT_ALIAS(__pmtimevalSub, pmtimevalSub);
PMKIT_ALIAS(__pmtimevalFromReal, pmtimevalFromReal);
PMKIT_ALIAS(__pmPrintStamp, pmPrintStamp);
PMKIT_ALIAS(__pmPrintHighResStamp, pmPrintHighResStamp);
