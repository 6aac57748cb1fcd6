/*
 * probe_timewindow.c - differential probe for pmParseTimeWindow and
 * pmParseHighResTimeWindow.  Built twice from this source, against pmkit's
 * libpcp and against Debian's (PCP 6.0.3); timewindow_diff.sh runs both
 * over timewindow_cases and wants identical output.
 *
 * usage: probe_timewindow [CASES]   (standard input without CASES)
 *
 * Lines of the case file:
 *   # ...                 a comment
 *   tz ZONE               $TZ for what follows (the probe starts in UTC)
 *   log SEC.NSEC SEC.NSEC the archive's start and end for what follows
 *                         (the timeval calls get the microseconds of each,
 *                         truncated); "max" as the end is PM_MAX_TIME_T
 *   S|T|A|O               a case: the -S, -T, -A and -O arguments, "~"
 *                         for an argument not given (NULL).  Escapes \s (a
 *                         space), \t, \\ and \xHH; a '|' cannot be given.
 * Each case prints its arguments, then for each call (tv: the timeval one,
 * ts: the timespec one) the return value, the three results and the
 * message, escaped.  Results start from marker values (-7.-7), so one the
 * call leaves alone shows.
 */
#include <pcp/pmapi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe_text.h"
#include <time.h>

#ifndef PM_MAX_TIME_T
#define PM_MAX_TIME_T LONGLONG_MAX
#endif

static struct timespec log_start = {1700000000, 123456789}; /* 2023-11-14 22:13:20 UTC */
static struct timespec log_end = {1700003600, 987654321};

/* Field S unescaped in place; NULL for "~". */
static char *field(char *s)
{
    if (strcmp(s, "~") == 0)
        return NULL;
    case_unescape(s);
    return s;
}

static void put_arg(const char *s)
{
    if (s == NULL) {
        fputs(" ~", stdout);
        return;
    }
    fputs(" \"", stdout);
    put_escaped(s, strlen(s));
    putchar('"');
}

static void put_msg(int sts, char *msg, const char *marker)
{
    if (msg == marker)
        fputs(" msg untouched\n", stdout);
    else if (msg == NULL)
        fputs(" msg NULL\n", stdout);
    else {
        fputs(" msg \"", stdout);
        put_escaped(msg, strlen(msg));
        fputs("\"\n", stdout);
        if (sts <= 0)
            free(msg);
    }
}

static void run_case(char **a)
{
    static char marker[] = "marker";
    struct timeval ls = {log_start.tv_sec, log_start.tv_nsec / 1000};
    struct timeval le = {log_end.tv_sec, log_end.tv_nsec / 1000};
    struct timeval tv[3];
    struct timespec ts[3];
    char *msg = marker;
    int sts;

    fputs("case", stdout);
    for (int i = 0; i < 4; i++)
        put_arg(a[i]);
    putchar('\n');
    for (int i = 0; i < 3; i++) {
        tv[i].tv_sec = ts[i].tv_sec = -7;
        tv[i].tv_usec = ts[i].tv_nsec = -7;
    }
    fflush(stdout);
    sts = pmParseTimeWindow(a[0], a[1], a[2], a[3], &ls, &le, &tv[0], &tv[1], &tv[2], &msg);
    printf("  tv %d", sts);
    for (int i = 0; i < 3; i++)
        printf(" %lld.%06ld", (long long)tv[i].tv_sec, (long)tv[i].tv_usec);
    put_msg(sts, msg, marker);
    msg = marker;
    fflush(stdout);
    sts = pmParseHighResTimeWindow(a[0], a[1], a[2], a[3], &log_start, &log_end, &ts[0], &ts[1],
                                   &ts[2], &msg);
    printf("  ts %d", sts);
    for (int i = 0; i < 3; i++)
        printf(" %lld.%09ld", (long long)ts[i].tv_sec, (long)ts[i].tv_nsec);
    put_msg(sts, msg, marker);
}

/* "SEC.NSEC" or "max" into *T. */
static void parse_stamp(const char *s, struct timespec *t)
{
    char *end;

    if (strcmp(s, "max") == 0) {
        t->tv_sec = PM_MAX_TIME_T;
        t->tv_nsec = 0;
        return;
    }
    t->tv_sec = strtoll(s, &end, 10);
    t->tv_nsec = *end == '.' ? strtol(end + 1, NULL, 10) : 0;
}

int main(int argc, char **argv)
{
    FILE *fp;
    char *line = NULL;
    size_t cap = 0;

    setvbuf(stdout, NULL, _IOLBF, 0);
    setenv("TZ", "UTC", 1);
    tzset();
    if ((fp = open_cases(argc, argv)) == NULL)
        return 2;
    while (next_case(fp, &line, &cap, 0) != NULL) {
        char *a[4], *p = line;

        if (strncmp(line, "tz ", 3) == 0) {
            setenv("TZ", line + 3, 1);
            tzset();
            printf("tz %s\n", line + 3);
            continue;
        }
        if (strncmp(line, "log ", 4) == 0) {
            char *sp = strchr(line + 4, ' ');

            if (sp == NULL)
                return 2;
            *sp = '\0';
            parse_stamp(line + 4, &log_start);
            parse_stamp(sp + 1, &log_end);
            printf("log %lld.%09ld %lld.%09ld\n", (long long)log_start.tv_sec,
                   (long)log_start.tv_nsec, (long long)log_end.tv_sec, (long)log_end.tv_nsec);
            continue;
        }
        for (int i = 0; i < 4; i++) {
            a[i] = p;
            p = strchr(p, '|');
            if ((p == NULL) != (i == 3)) {
                fprintf(stderr, "bad case line: %s\n", line);
                return 2;
            }
            if (p != NULL)
                *p++ = '\0';
            a[i] = field(a[i]);
        }
        run_case(a);
    }
    free(line);
    if (fp != stdin)
        fclose(fp);
    return 0;
}
