/*
 * timewindow.c - pmParseTimeWindow and pmParseHighResTimeWindow: the -S,
 * -T, -A and -O arguments against an archive's first and last times.
 *
 * Rules, as probed from Debian's libpcp 6.0.3 (tests/oracle/probe_timewindow.c
 * and timewindow_cases compare the two):
 *  - A time is "@DATETIME", or an interval (pmParseHighResInterval's, the
 *    one parser of intervals; pmGetOptions' -t uses it too) with an
 *    optional sign: "-I" counts back from the log end (an error when the
 *    end is PM_MAX_TIME_T), "+I" or "I" forward from the log start for -S
 *    and from the window's start for -T and -O; -O's "-I" counts back
 *    from the window's end instead.  A failed interval's
 *    message is the parser's, for the text after the sign.
 *  - The start is raised to the log start; the end lowered to the log end;
 *    the origin (default: the start) raised to the start or else lowered
 *    to the end (so in an empty window it can be either).
 *  - -A: the start moves up to the next multiple of the alignment (from
 *    the epoch), then -T is taken from that start; a given origin moves up
 *    too (or, when that passes the end, down a step).  An alignment that
 *    would push the start past the log end, or the origin below the
 *    start, is not applied: 0 and a warning.  A zero alignment is an error.
 *  - *errMsg is cleared as each of -S, -T and -O is read, so a warning
 *    given before -T is lost (the return is still 0), and is left alone
 *    when only -A is given (all as PCP does).
 * DATETIME: what __pmParseCtime reads (ctime.c, the one reader of
 *  ctime-style dates; whole month and day names too), the fields above the
 *  highest one given from a base time (the log start for -S, the window's
 *  start for -T and -O) as __pmConvertHighResTime fills them, in the
 *  reporting zone.  PCP hands what its ctime reader refuses to a
 *  getdate(3)-style parser ("yesterday", "2 days ago", "x" as a military
 *  zone, ...) whose answers depend on the clock; pmkit does not, and
 *  reports the ctime reader's error instead (docs/compat.md).
 */
#include "cmdline.h"

#include <pcp/libpcp.h>

#include <stdlib.h>
#include <time.h>

/* Nanoseconds since the epoch, wide enough for PM_MAX_TIME_T seconds. */
__extension__ typedef __int128 nstime;

#define NS 1000000000

/* The inputs of one window: the log's bounds, and the pieces so far. */
typedef struct {
    nstime log_start, log_end; /* the archive's first and last times */
    int endless;               /* log_end is PM_MAX_TIME_T: no "-I" */
    nstime start, end, origin; /* the window */
    char **errmsg;             /* where a message goes */
} window;

static nstime to_ns(const struct timespec *t)
{
    return (nstime)t->tv_sec * NS + t->tv_nsec;
}

static void from_ns(nstime n, struct timespec *t)
{
    nstime s = n / NS, r = n % NS;

    if (r < 0) {
        r += NS;
        s--;
    }
    t->tv_sec = (time_t)s;
    t->tv_nsec = (long)r;
}

/* *errmsg: TEXT, a newline, a caret under byte AT and WHY; returns -1. */
static int fail(window *w, const char *text, size_t at, const char *why)
{
    *w->errmsg = pmkit_caret_msg(text, at, why, 0);
    return -1;
}

/* "@" TEXT as a time: the ctime reader's fields (whole names taken too),
 * the ones above them from BASE (the log start for -S, the window's start
 * for -T and -O), as __pmConvertHighResTime fills them. */
static int absolute(window *w, const char *text, nstime base_ns, nstime *out)
{
    struct timespec base, t;
    struct tm tm;

    from_ns(base_ns, &base);
    if (pmLocaltime(&base.tv_sec, &tm) == NULL)
        return fail(w, text, 0, "unexpected value");
    if (pmkit_parse_ctime(text, 1, &tm, w->errmsg) < 0)
        return -1;
    __pmConvertHighResTime(&tm, &base, &t);
    *out = to_ns(&t);
    return 0;
}

/* ---- the window ---- */

/* ARG as a time: "@..." absolute, "-I" back from BACK (an error when that
 * is the end of time), else FROM plus the interval.  Each time given
 * clears *errmsg first, as PCP does (dropping an alignment warning). */
static int parse_time(window *w, const char *arg, nstime from, nstime back, int *warned,
                      nstime *out)
{
    struct timespec delta;
    char *msg = NULL;
    int minus = arg[0] == '-';

    if (*warned == 2) { /* a warning of ours is there: cleared, not leaked */
        free(*w->errmsg);
        *warned = 1;
    }
    *w->errmsg = NULL;
    if (arg[0] == '@')
        return absolute(w, arg + 1, from, out);
    if (minus && w->endless && back == w->log_end)
        return fail(w, arg, 0, "unexpected value");
    if (pmParseHighResInterval(arg + (minus || arg[0] == '+'), &delta, &msg) < 0) {
        *w->errmsg = msg;
        return -1;
    }
    *out = minus ? back - to_ns(&delta) : from + to_ns(&delta);
    return 0;
}

/* T moved up to a multiple of ALIGN. */
static nstime align_up(nstime t, nstime align)
{
    nstime r = t % align;

    if (r < 0)
        r += align;
    return r == 0 ? t : t - r + align;
}

static const char not_applied[] = "alignment specified by -A switch could not be applied";

/* The warning that alignment ALIGN was not applied; *WARNED 2 (ours is
 * in *errmsg).  Never called with one of ours there already: the second
 * call, for the origin, follows parse_time's for -O, which drops it. */
static void warn(window *w, const char *sw_align, int *warned)
{
    fail(w, sw_align, 0, not_applied);
    *warned = 2;
}

/* -A as nanoseconds into *ALIGN (0: none); -1 on error. */
static int parse_align(window *w, const char *sw_align, nstime *align)
{
    struct timespec a;
    char *msg = NULL;

    *align = 0;
    if (sw_align == NULL)
        return 0;
    if (pmParseHighResInterval(sw_align, &a, &msg) < 0) {
        *w->errmsg = msg;
        return -1;
    }
    if ((*align = to_ns(&a)) == 0)
        return fail(w, sw_align, 0, not_applied);
    return 0;
}

/*
 * The whole window, in PCP's order: the start, its alignment, the end
 * (from the aligned start), the origin (from the start, or back from the
 * end) and its alignment.  1, 0 when an alignment was not applied (the
 * warning stays in *errmsg unless a later time cleared it), or -1.
 */
static int parse_window(window *w, const char *sw_start, const char *sw_end, const char *sw_align,
                        const char *sw_offset)
{
    int warned = 0; /* 1 a warning was given, 2 and it is in *errmsg */
    nstime align, t;

    w->start = w->log_start;
    if (sw_start != NULL &&
        parse_time(w, sw_start, w->log_start, w->log_end, &warned, &w->start) < 0)
        return -1;
    if (w->start < w->log_start)
        w->start = w->log_start;
    if (parse_align(w, sw_align, &align) < 0)
        return -1;
    if (align != 0 && (t = align_up(w->start, align)) > w->log_end)
        warn(w, sw_align, &warned);
    else if (align != 0)
        w->start = t;
    w->end = w->log_end;
    if (sw_end != NULL && parse_time(w, sw_end, w->start, w->log_end, &warned, &w->end) < 0)
        return -1;
    if (w->end > w->log_end)
        w->end = w->log_end;
    w->origin = w->start;
    if (sw_offset == NULL)
        return warned ? 0 : 1;
    if (parse_time(w, sw_offset, w->start, w->end, &warned, &w->origin) < 0)
        return -1;
    if (w->origin < w->start) /* one or the other, in this order */
        w->origin = w->start;
    else if (w->origin > w->end)
        w->origin = w->end;
    if (align != 0) {
        if ((t = align_up(w->origin, align)) > w->end)
            t -= align;
        if (t < w->start)
            warn(w, sw_align, &warned);
        else
            w->origin = t;
    }
    return warned ? 0 : 1;
}

int pmParseHighResTimeWindow(const char *sw_start, const char *sw_end, const char *sw_align,
                             const char *sw_offset, const struct timespec *log_start,
                             const struct timespec *log_end, struct timespec *rslt_start,
                             struct timespec *rslt_end, struct timespec *rslt_offset, char **errmsg)
{
    char *scratch = NULL; /* the message when the caller wants none */
    window w = {.log_start = to_ns(log_start),
                .log_end = to_ns(log_end),
                .endless = log_end->tv_sec >= (time_t)PM_MAX_TIME_T,
                .errmsg = errmsg != NULL ? errmsg : &scratch};
    int sts = parse_window(&w, sw_start, sw_end, sw_align, sw_offset);

    free(scratch);
    if (sts < 0)
        return sts;
    from_ns(w.start, rslt_start);
    from_ns(w.end, rslt_end);
    from_ns(w.origin, rslt_offset);
    return sts;
}

/* The timeval form: through the timespec one, results truncated to the
 * microsecond. */
int pmParseTimeWindow(const char *sw_start, const char *sw_end, const char *sw_align,
                      const char *sw_offset, const struct timeval *log_start,
                      const struct timeval *log_end, struct timeval *rslt_start,
                      struct timeval *rslt_end, struct timeval *rslt_offset, char **errmsg)
{
    struct timespec ls = {log_start->tv_sec, log_start->tv_usec * 1000};
    struct timespec le = {log_end->tv_sec, log_end->tv_usec * 1000};
    struct timespec r[3];
    struct timeval *out[3] = {rslt_start, rslt_end, rslt_offset};
    int sts = pmParseHighResTimeWindow(sw_start, sw_end, sw_align, sw_offset, &ls, &le, &r[0],
                                       &r[1], &r[2], errmsg);

    if (sts < 0)
        return sts;
    for (int i = 0; i < 3; i++) {
        out[i]->tv_sec = r[i].tv_sec;
        out[i]->tv_usec = r[i].tv_nsec / 1000;
    }
    return sts;
}

/*
 * One time against a log's bounds, as -S reads it (libpcp.h's
 * __pmParseHighResTime): "@DATETIME", "+I" or "I" from the log start, "-I"
 * back from its end; not clamped to the log.  0, or -1 with *errmsg the
 * message (a string the caller frees).
 */
int __pmParseHighResTime(const char *string, struct timespec *log_start, struct timespec *log_end,
                         struct timespec *rslt, char **errmsg)
{
    char *scratch = NULL;
    window w = {.log_start = to_ns(log_start),
                .log_end = to_ns(log_end),
                .endless = log_end->tv_sec >= (time_t)PM_MAX_TIME_T,
                .errmsg = errmsg != NULL ? errmsg : &scratch};
    int warned = 0;
    nstime t;
    int sts = parse_time(&w, string, w.log_start, w.log_end, &warned, &t);

    free(scratch);
    if (sts < 0)
        return -1;
    from_ns(t, rslt);
    return 0;
}

int __pmParseTime(const char *string, struct timeval *log_start, struct timeval *log_end,
                  struct timeval *rslt, char **errmsg)
{
    struct timespec ls = {log_start->tv_sec, log_start->tv_usec * 1000};
    struct timespec le = {log_end->tv_sec, log_end->tv_usec * 1000};
    struct timespec r;

    if (__pmParseHighResTime(string, &ls, &le, &r, errmsg) < 0)
        return -1;
    rslt->tv_sec = r.tv_sec;
    rslt->tv_usec = r.tv_nsec / 1000;
    return 0;
}
