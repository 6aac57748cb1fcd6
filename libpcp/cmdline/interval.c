/*
 * interval.c - pmParseInterval and pmParseHighResInterval: "1min 30sec",
 * "2.5", "1h" and the like into a struct timeval or timespec.
 *
 * Grammar (PCP's, as probed from Debian's libpcp 6.0.3): a sequence of
 * numbers, each optionally followed by a unit word; the values are summed.
 * A number is whatever strtod takes (so "1e3", "0x10", "+2" and ".5"; "1.5.5"
 * is 1.5 then .5); a number without a unit counts seconds.  Unit words are
 * letters only, matched without regard to case, exactly or with one
 * trailing 's' taken off (so "secs" and "ss" are seconds, and "ms" is
 * minutes, as in PCP; "msec" is milliseconds):
 *   nanosecond nsec | microsecond usec | millisecond msec |
 *   second sec s | minute min m | hour hr h | day d
 * Whitespace separates tokens and may be left out ("1min2sec").  A string
 * of whitespace alone is zero seconds; an empty (or NULL) string is an
 * error.  Errors return -1 and, in *errmsg, a malloc'd copy of the string,
 * a newline, a caret under the token at fault and the reason:
 *     "1 x\n  ^ -- unexpected value\n"
 * A token is at fault when it is not a number or known unit, when a unit
 * follows no number, or when a number is negative or not below 2^63.
 * Fractions of the unit (a microsecond or a nanosecond) are rounded to
 * nearest.
 *
 * Differences from PCP (docs/compat.md): PCP accepts "nan" as a number and
 * returns garbage; a total of 2^63 seconds or more overflows there, and a
 * fraction that rounds up to a whole second is returned as 1000000 usec
 * (or 1000000000 nsec).  Here NaN is an unexpected value, a total that
 * overflows is reported at the token that made it overflow, and the
 * result is always normalised.
 */
#include "cmdline.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Totals and numbers must stay below this to fit a 64-bit time_t. */
#define SECONDS_LIMIT 9223372036854775808.0

static const struct {
    const char *word;
    double seconds;
} units[] = {
    {"nanosecond", 1e-9},
    {"nsec", 1e-9},
    {"microsecond", 1e-6},
    {"usec", 1e-6},
    {"millisecond", 1e-3},
    {"msec", 1e-3},
    {"second", 1},
    {"sec", 1},
    {"s", 1},
    {"minute", 60},
    {"min", 60},
    {"m", 60},
    {"hour", 3600},
    {"hr", 3600},
    {"h", 3600},
    {"day", 86400},
    {"d", 86400},
};

/* The seconds in one WORD (LEN letters), or 0 when it is not a unit. */
static double unit_seconds(const char *word, size_t len)
{
    for (int strip = 0; strip <= 1; strip++) {
        size_t n = len - (size_t)strip;

        if (strip && (len < 2 || tolower((unsigned char)word[len - 1]) != 's'))
            break;
        for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
            if (strlen(units[i].word) == n && strncasecmp(word, units[i].word, n) == 0)
                return units[i].seconds;
        }
    }
    return 0;
}

/* *errmsg for SPEC with the caret at byte AT; returns -1. */
static int fail(const char *spec, size_t at, const char *why, char **errmsg)
{
    *errmsg = pmkit_caret_msg(spec, at, why, 0);
    return -1;
}

/* SPEC's total in seconds; -1 and *errmsg on error.  Each number may have
 * a unit after it (blanks between allowed); the total is checked after
 * every number, and an error points at the number or the word at fault. */
static int parse(const char *spec, double *total, char **errmsg)
{
    const char *p = spec;
    double sum = 0;

    if (spec == NULL || *spec == '\0')
        return fail("", 0, "Null or empty specification", errmsg);
    for (;;) {
        const char *number, *word;
        double value, unit;
        char *end;

        while (isspace((unsigned char)*p))
            p++;
        if (*p == '\0')
            break;
        number = p;
        if (isalpha((unsigned char)*p)) /* a unit with no number */
            return fail(spec, (size_t)(p - spec), "unexpected value", errmsg);
        value = strtod(p, &end);
        if (end == p || !(value >= 0 && value < SECONDS_LIMIT))
            return fail(spec, (size_t)(p - spec), "unexpected value", errmsg);
        for (p = end; isspace((unsigned char)*p); p++)
            ;
        if (isalpha((unsigned char)*p)) {
            for (word = p; isalpha((unsigned char)*p); p++)
                ;
            if ((unit = unit_seconds(word, (size_t)(p - word))) == 0)
                return fail(spec, (size_t)(word - spec), "unexpected value", errmsg);
            value *= unit;
        }
        sum += value;
        if (!(sum < SECONDS_LIMIT))
            return fail(spec, (size_t)(number - spec), "unexpected value", errmsg);
    }
    *total = sum;
    return 0;
}

/* SPEC into *OUT: whole seconds, and in tv_nsec the rest in 1/PER second
 * parts, rounded to the nearest part; -1 and *errmsg on error (*OUT
 * untouched). */
static int parse_split(const char *spec, long per, struct timespec *out, char **errmsg)
{
    double total = 0;

    *errmsg = NULL;
    if (parse(spec, &total, errmsg) < 0)
        return -1;
    pmkit_split_seconds(total, per, &out->tv_sec, &out->tv_nsec);
    return 0;
}

int pmParseInterval(const char *spec, struct timeval *rslt, char **errmsg)
{
    struct timespec ts;

    if (parse_split(spec, 1000000L, &ts, errmsg) < 0)
        return -1;
    rslt->tv_sec = ts.tv_sec;
    rslt->tv_usec = ts.tv_nsec; /* microseconds here */
    return 0;
}

int pmParseHighResInterval(const char *spec, struct timespec *rslt, char **errmsg)
{
    return parse_split(spec, 1000000000L, rslt, errmsg);
}
