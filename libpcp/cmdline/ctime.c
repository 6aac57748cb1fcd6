/*
 * ctime.c - __pmParseCtime and __pmConvertHighResTime (<pcp/libpcp.h>): a
 * date and time in ctime's order with fields left out, and the time it
 * names next to an origin, in the reporting zone.
 *
 * The text, as Debian's libpcp reads it (tests/oracle/probe_logcalls.c
 * compares the two):
 *   [WDAY] [MON] [DAY] [HOUR[:MIN[:SEC]]] [YEAR]
 * separated by white space or by nothing; each colon may stand without
 * the digits after it (1: and 1:: are one o'clock).  Names are the first three
 * letters, any case, taken even from a longer word (the rest is then an
 * error); the weekday is not checked, and needs a month or a day after it.
 * A number is read with its sign; 1900 to 9999 is the year.  After a
 * month, the first number up to 31 before any time is the day (after a
 * time only the year may follow); one up to 23 after the day
 * is the hour; with no month, 24 to 31 is the day and a number up to 23
 * waits for what follows: a time or another number makes it the day, a
 * year the hour, and the end "more information expected".  A colon may
 * stand apart from its numbers (13 : 30) or with none before it (:30 is
 * 00:30); the number before it is the hour (Jan 14 :30 is 14:30 on the
 * 1st), 24 to 31 there the day at hour 0 (25:30 is 00:30 on the 25th),
 * and a year after it stays the year (13:2001).  Minutes are read as
 * strtol reads them, 0 to 59; seconds as strtod does (5e1 and 0x10 too),
 * 0 to 61, and the nanoseconds are what is left of that double times
 * 10^9, truncated (.3 is 299999999 ns, as PCP's).  A day of 0 stands only
 * with no hour (Jan 0 is 31 December, Jan 0 5 05:00 on 1 January); a 0
 * waiting then a plain hour needs a year after them.  The caret line of
 * a message keeps the text's tabs.
 * The time window (timewindow.c) reads with this reader, whole month and
 * day names taken too (docs/compat.md, "Time windows").
 * Fields below the highest one given default (day 1, the others 0); those
 * above it are -1.  struct tm carries the nanoseconds in tm_yday, tm_wday
 * is 0 and every other member -1 (tm_zone too), as PCP fills it; on error
 * nothing is written but the message (malloc'd, the caller frees it).
 *
 * The conversion takes the fields above the highest one given from the
 * origin's local time (all of them, the nanoseconds too, when none is
 * given; a -1 below it stays -1 for mktime), and when the highest field
 * given is below the origin's the field above it moves on by one (13:30
 * after an origin of 22:00 is the next day; an hour equal to the origin's
 * stays that day, whatever the minutes); the input is not changed.
 */
#include "cmdline.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <pcp/libpcp.h>

/* The fields in order of weight. */
enum { F_YEAR, F_MON, F_DAY, F_HOUR, F_MIN, F_SEC, F_NSEC, NFIELDS };

typedef struct {
    const char *text;
    const char *p;
    long f[NFIELDS];  /* -1: not given */
    int wday;         /* a weekday was given */
    int whole;        /* whole names are taken too (the time window's) */
    const char *held; /* a number up to 23 waiting (day or hour), or NULL */
    long held_value;
    int zero_day; /* a held 0 then a plain hour: only a year may end it */
    char **errmsg;
} ctext;

static int fail(ctext *c, const char *at, const char *why)
{
    *c->errmsg = pmkit_caret_msg(c->text, (size_t)(at - c->text), why, 1);
    return -1;
}

static void blanks(ctext *c)
{
    while (isspace((unsigned char)*c->p))
        c->p++;
}

/* One of the n names at c->p by its first three letters, or whole when
 * c->whole (any case): its index, or -1. */
static int name_at(ctext *c, const char *const *names, int n)
{
    for (int i = 0; i < n; i++) {
        size_t len = strlen(names[i]);

        if (strncasecmp(c->p, names[i], 3) == 0) {
            c->p += c->whole && strncasecmp(c->p, names[i], len) == 0 ? len : 3;
            return i;
        }
    }
    return -1;
}

static int is_year(long v)
{
    return v >= 1900 && v <= 9999;
}

/* HOUR:[MIN[:SEC]], the number before the colon read (value v at
 * start, 0 when there is none); 24 to 31 there is the day, at hour 0.
 * Blanks may come before each colon and number; a year ends the time.
 * Minutes are read as by strtol, seconds as by strtod (the nanoseconds:
 * what is left of the double times 10^9, truncated). */
static int time_of_day(ctext *c, const char *start, long v)
{
    char *end;
    long n;
    double s;

    if (c->f[F_HOUR] >= 0 || c->f[F_YEAR] >= 0 || v < 0 || v > 31)
        return fail(c, start, "unexpected value");
    if (c->held != NULL) {
        c->f[F_DAY] = c->held_value;
        c->held = NULL;
    }
    if (v > 23) {
        if (c->f[F_DAY] >= 0)
            return fail(c, start, "unexpected value");
        c->f[F_DAY] = v;
        v = 0;
    }
    c->f[F_HOUR] = v;
    c->p++; /* past the colon */
    blanks(c);
    start = c->p;
    n = strtol(start, &end, 10);
    if (end != start && is_year(n))
        return 0;
    if (end != start) {
        if (n < 0 || n > 59)
            return fail(c, start, "unexpected value");
        c->f[F_MIN] = n;
        c->p = end;
    }
    blanks(c);
    if (*c->p != ':')
        return 0;
    c->p++;
    blanks(c);
    start = c->p;
    n = strtol(start, NULL, 10);
    s = strtod(start, &end);
    if (end == start || is_year(n))
        return 0;
    if (!(s >= 0 && s <= 61)) /* NaN too */
        return fail(c, start, "unexpected value");
    c->f[F_SEC] = (long)s;
    c->f[F_NSEC] = (long)((long double)(s - (double)c->f[F_SEC]) * 1e9L);
    c->p = end;
    return 0;
}

/* A number without a colon (value v at start): year, day or hour. */
static int number(ctext *c, const char *start, long v)
{
    if (c->f[F_YEAR] >= 0)
        return fail(c, start, "unexpected value");
    if (is_year(v)) {
        if (c->held != NULL) {
            c->f[F_HOUR] = c->held_value;
            c->held = NULL;
        }
        c->f[F_YEAR] = v;
        c->zero_day = 0;
        return 0;
    }
    if (v < 0 || v > 31)
        return fail(c, start, "unexpected value");
    if (c->held != NULL) {
        c->f[F_DAY] = c->held_value;
        c->held = NULL;
        if (v > 23)
            return fail(c, start, "unexpected value");
        c->f[F_HOUR] = v;
        c->zero_day = c->f[F_DAY] == 0;
    } else if (c->f[F_MON] >= 0 && c->f[F_DAY] < 0 && c->f[F_HOUR] < 0) {
        c->f[F_DAY] = v;
    } else if (c->f[F_DAY] >= 0 || c->f[F_HOUR] >= 0) {
        if (c->f[F_HOUR] >= 0 || v > 23)
            return fail(c, start, "unexpected value");
        c->f[F_HOUR] = v;
    } else if (v >= 24) {
        c->f[F_DAY] = v;
    } else {
        c->held = start;
        c->held_value = v;
    }
    return 0;
}

static int parse(ctext *c)
{
    static const char *const wdays[] = {"sunday",   "monday", "tuesday", "wednesday",
                                        "thursday", "friday", "saturday"};
    static const char *const months[] = {"january",   "february", "march",    "april",
                                         "may",       "june",     "july",     "august",
                                         "september", "october",  "november", "december"};
    int m;

    blanks(c);
    c->wday = name_at(c, wdays, 7) >= 0;
    blanks(c);
    if ((m = name_at(c, months, 12)) >= 0)
        c->f[F_MON] = m;
    for (;;) {
        const char *start;
        char *end;
        long v;
        int sts;
        blanks(c);
        if (*c->p == '\0')
            break;
        start = c->p;
        if (*c->p == ':') { /* no number before it: hour 0 */
            if ((sts = time_of_day(c, start, 0)) < 0)
                return sts;
            continue;
        }
        if (!isdigit((unsigned char)*c->p) && *c->p != '+' && *c->p != '-')
            return fail(c, start, "unexpected value");
        errno = 0;
        v = strtol(c->p, &end, 10);
        if (end == c->p || errno != 0)
            return fail(c, start, "unexpected value");
        c->p = end;
        blanks(c);
        sts = *c->p == ':' && !is_year(v) ? time_of_day(c, start, v) : number(c, start, v);
        if (sts < 0)
            return sts;
    }
    if (c->held != NULL || c->zero_day || (c->wday && c->f[F_MON] < 0 && c->f[F_DAY] < 0))
        return fail(c, c->p, "more information expected");
    return 0;
}

int pmkit_parse_ctime(const char *string, int whole, struct tm *rslt, char **errmsg)
{
    static const long dflt[NFIELDS] = {0, 0, 1, 0, 0, 0, 0};
    ctext c = {string, string, {-1, -1, -1, -1, -1, -1, -1}, 0, whole, NULL, 0, 0, errmsg};
    int top = NFIELDS;

    if (parse(&c) < 0)
        return -1;
    if (c.f[F_DAY] == 0 && c.f[F_HOUR] >= 0) /* day 0 stands only when last */
        c.f[F_DAY] = -1;
    for (int i = NFIELDS - 1; i >= 0; i--)
        if (c.f[i] >= 0)
            top = i;
    for (int i = top; i < NFIELDS; i++)
        if (c.f[i] < 0)
            c.f[i] = dflt[i];
    memset(rslt, 0xff, sizeof(*rslt));
    rslt->tm_year = c.f[F_YEAR] < 0 ? -1 : (int)c.f[F_YEAR] - 1900;
    rslt->tm_mon = (int)c.f[F_MON];
    rslt->tm_mday = (int)c.f[F_DAY];
    rslt->tm_hour = (int)c.f[F_HOUR];
    rslt->tm_min = (int)c.f[F_MIN];
    rslt->tm_sec = (int)c.f[F_SEC];
    rslt->tm_yday = (int)c.f[F_NSEC];
    rslt->tm_wday = 0;
    return 0;
}

int __pmParseCtime(const char *string, struct tm *rslt, char **errmsg)
{
    return pmkit_parse_ctime(string, 0, rslt, errmsg);
}

int __pmConvertHighResTime(struct tm *tmin, struct timespec *origin, struct timespec *rslt)
{
    struct tm tm = *tmin, org;
    time_t osec = origin->tv_sec;
    int *f[] = {&tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec};
    const int *o[] = {&org.tm_year, &org.tm_mon, &org.tm_mday,
                      &org.tm_hour, &org.tm_min, &org.tm_sec};
    int top = 6; /* the nanoseconds, in tm_yday */
    long nsec = tm.tm_yday;

    pmLocaltime(&osec, &org);
    for (int i = 5; i >= 0; i--)
        if (*f[i] != -1)
            top = i;
    for (int i = 0; i < top; i++)
        *f[i] = *o[i];
    if (top == 6 && nsec == -1)
        nsec = origin->tv_nsec;
    if (top > 0 && top < 6 && *f[top] < *o[top])
        (*f[top - 1])++;
    rslt->tv_nsec = nsec;
    rslt->tv_sec = pmkit_zone_mktime(&tm);
    return 0;
}
