/*
 * probe_units.c - differential probe for pmParseUnitsStr.  Built twice from
 * this source, against pmkit's libpcp and against Debian's (PCP 6.0.3);
 * parse_diff.sh runs both over units_cases and wants identical output.
 *
 * usage: probe_units [CASES]   (standard input without CASES)
 *
 * One case per line, the string to parse with these escapes: \t \n \r \v
 * \f \\ \s (a space, to make an edge visible) and \xHH.  A line starting
 * with '#' is a comment (\x23 parses a '#'); an empty line is the empty
 * string.  Two whole-line forms: "@null" passes a NULL string, and a line
 * starting "@noerr " parses the rest with a NULL errMsg pointer.
 *
 * Each case prints one line: the input (escaped), the return code, the six
 * fields of the pmUnits (dimSpace dimTime dimCount scaleSpace scaleTime
 * scaleCount) and its pad, the multiplier ("%.17g"), errno (set to 1234
 * before the call), then the message or "-" when *errMsg was set to NULL.
 * The outputs start from marker values, so what the call leaves untouched
 * shows as "untouched".
 */
#include <pcp/pmapi.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe_text.h"

/* Where *errMsg starts: a value no call returns. */
static char untouched_msg[] = "untouched";

/* Parse STR (NULL allowed) and print the outcome; WANT_ERR false passes a
 * NULL errMsg. */
static void run_case(const char *str, size_t len, int want_err)
{
    pmUnits u;
    double mult = -12345.5;
    char *msg = untouched_msg;
    int sts, err;

    /* every field at a marker value: all bits set */
    memset(&u, 0xff, sizeof(u));
    if (str == NULL)
        fputs("@null", stdout);
    else {
        putchar('"');
        put_escaped(str, len);
        putchar('"');
    }
    if (!want_err)
        fputs(" noerr", stdout);
    fflush(stdout);
    errno = 1234;
    sts = pmParseUnitsStr(str, &u, &mult, want_err ? &msg : NULL);
    err = errno;
    printf(" -> %d units %d %d %d %d %d %d pad %d mult %.17g errno %d", sts, u.dimSpace, u.dimTime,
           u.dimCount, u.scaleSpace, u.scaleTime, u.scaleCount, u.pad, mult, err);
    if (msg == untouched_msg)
        fputs(" msg untouched\n", stdout);
    else if (msg == NULL)
        fputs(" msg -\n", stdout);
    else {
        fputs(" msg \"", stdout);
        put_escaped(msg, strlen(msg));
        fputs("\"\n", stdout);
        free(msg);
    }
    fflush(stdout);
}

int main(int argc, char **argv)
{
    FILE *fp = open_cases(argc, argv);
    char *line = NULL;
    size_t cap = 0;

    if (fp == NULL)
        return 2;
    while (next_case(fp, &line, &cap, 1) != NULL) { /* an empty line: the empty string */
        int want_err = 1;
        char *text = line;

        if (strcmp(line, "@null") == 0) {
            run_case(NULL, 0, 1);
            continue;
        }
        if (strncmp(line, "@noerr ", 7) == 0) {
            want_err = 0;
            text += 7;
        }
        run_case(text, case_unescape(text), want_err);
    }
    free(line);
    if (fp != stdin)
        fclose(fp);
    return 0;
}
