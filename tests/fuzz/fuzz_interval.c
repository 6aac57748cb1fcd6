/*
 * fuzz_interval.c - libFuzzer target for pmParseInterval and
 * pmParseHighResInterval (libpcp/cmdline/interval.c).
 *
 * The input, cut at its first NUL, is parsed both ways.  Checked after each
 * run: the two agree on success; a success leaves no message and a
 * normalised, non-negative interval, the same in both forms to within a
 * microsecond; a failure leaves the output untouched and a message that is
 * the input, a newline, spaces up to a caret within the input (or just past
 * it), " -- " and a reason ending in a newline.
 */
#include <pcp/pmapi.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Aborts unless MSG is SPEC's error message. */
static void check_message(const char *spec, const char *msg)
{
    size_t len = strlen(spec), at;

    if (msg == NULL || strncmp(msg, spec, len) != 0 || msg[len] != '\n')
        abort();
    msg += len + 1;
    at = strspn(msg, " ");
    if (at > len || strncmp(msg + at, "^ -- ", 5) != 0)
        abort();
    msg += at + 5;
    len = strlen(msg);
    if (len == 0 || strchr(msg, '\n') != msg + len - 1)
        abort(); /* one reason, one newline, at its end */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *spec = malloc(size + 1), *m1 = NULL, *m2 = NULL;
    struct timeval tv = {-7, -7};
    struct timespec ts = {-7, -7};
    int s1, s2;

    if (spec == NULL)
        return 0;
    memcpy(spec, data, size);
    spec[size] = '\0';
    s1 = pmParseInterval(spec, &tv, &m1);
    s2 = pmParseHighResInterval(spec, &ts, &m2);
    if (s1 != s2 || (s1 != 0 && s1 != -1))
        abort();
    if (s1 == 0) {
        if (m1 != NULL || m2 != NULL || tv.tv_sec < 0 || tv.tv_usec < 0 || tv.tv_usec >= 1000000 ||
            ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= 1000000000L)
            abort();
        double a = pmtimevalToReal(&tv), b = pmtimespecToReal(&ts);

        if (fabs(a - b) > 1e-6 + 1e-15 * b) /* a microsecond, or double rounding */
            abort();
    } else {
        if (tv.tv_sec != -7 || tv.tv_usec != -7 || ts.tv_sec != -7 || ts.tv_nsec != -7)
            abort();
        check_message(spec, m1);
        check_message(spec, m2);
        if (strcmp(m1, m2) != 0)
            abort();
    }
    free(m1);
    free(m2);
    free(spec);
    return 0;
}
