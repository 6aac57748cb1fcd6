/*
 * fuzz_timewindow.c - libFuzzer target for pmParseTimeWindow and
 * pmParseHighResTimeWindow (libpcp/cmdline/timewindow.c), the parser of the
 * -S, -T, -A and -O arguments every PCP tool takes from its command line.
 *
 * The input's first byte picks the log the window is read against: a
 * finite one, an endless one (PM_MAX_TIME_T, as a live context's window
 * is read by pmGetContextOptions), one of no length, or one at the start
 * of time.  The rest, cut at its first NUL, is the four arguments, one per
 * line; a missing line or "~" is an argument not given.  Checked after
 * each run: both forms give the same answer (-1, 0 or 1); an error (-1)
 * comes with a message (a warning, 0, may not: PCP drops an alignment
 * warning when it reads a later argument, and so does pmkit); an answer
 * leaves the times normalised.  The two forms' times are not compared:
 * the timeval one reads the log's times truncated to microseconds, and an
 * alignment can round the two differently.
 */
#include <pcp/pmapi.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct timespec logs[4][2] = {
    {{1700000000, 123456789}, {1700003600, 987654321}},
    {{1700000000, 123456789}, {PM_MAX_TIME_T, 0}},
    {{1700000000, 0}, {1700000000, 0}},
    {{0, 0}, {1, 500000000}},
};

static int normal_ts(const struct timespec *t)
{
    return t->tv_nsec >= 0 && t->tv_nsec < 1000000000L;
}

static int normal_tv(const struct timeval *t)
{
    return t->tv_usec >= 0 && t->tv_usec < 1000000;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const struct timespec *lg;
    struct timespec s1, f1, o1;
    struct timeval first, last, s2, f2, o2;
    char *text, *arg[4] = {NULL, NULL, NULL, NULL}, *m1 = NULL, *m2 = NULL, *p;
    int r1, r2;

    if (size < 1 || (text = malloc(size)) == NULL)
        return 0;
    lg = logs[data[0] & 3];
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    p = text;
    for (int i = 0; i < 4 && p != NULL; i++) {
        char *nl = strchr(p, '\n');
        if (nl != NULL)
            *nl = '\0';
        arg[i] = strcmp(p, "~") == 0 ? NULL : p;
        p = nl != NULL ? nl + 1 : NULL;
    }
    first.tv_sec = lg[0].tv_sec;
    first.tv_usec = lg[0].tv_nsec / 1000;
    last.tv_sec = lg[1].tv_sec;
    last.tv_usec = lg[1].tv_nsec / 1000;
    r1 = pmParseHighResTimeWindow(arg[0], arg[1], arg[2], arg[3], &lg[0], &lg[1], &s1, &f1, &o1,
                                  &m1);
    r2 = pmParseTimeWindow(arg[0], arg[1], arg[2], arg[3], &first, &last, &s2, &f2, &o2, &m2);
    if (r1 < -1 || r1 > 1 || r1 != r2)
        abort();
    if (r1 < 0 && (m1 == NULL || m2 == NULL || m1[0] == '\0'))
        abort(); /* an error says what (a warning's words may be lost, as in PCP) */
    if (r1 >= 0 && (!normal_ts(&s1) || !normal_ts(&f1) || !normal_ts(&o1) || !normal_tv(&s2) ||
                    !normal_tv(&f2) || !normal_tv(&o2)))
        abort();
    free(m1);
    free(m2);
    free(text);
    return 0;
}
