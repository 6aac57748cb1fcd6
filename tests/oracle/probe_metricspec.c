/*
 * probe_metricspec.c - differential probe for pmParseMetricSpec and
 * pmFreeMetricSpec.  Built twice from this source, against pmkit's libpcp
 * and against Debian's (PCP 6.0.3); metricspec_diff.sh runs both over
 * metricspec_cases and wants identical output.
 *
 * usage: probe_metricspec [CASES]   (standard input without CASES)
 *
 * One case per line: ISARCH SOURCE SPEC, separated by single spaces.
 * ISARCH is the integer passed as isarch; SOURCE is the default source
 * ("@null" passes NULL); SPEC is the rest of the line ("@null" alone
 * passes NULL).  SOURCE and SPEC take the escapes \t \n \r \v \f \\ \s (a
 * space) and \xHH.  A line starting with '#' is a comment.
 *
 * Each case prints the input, the return code, then on success every field
 * of the pmMetricSpec (isarch, source, metric, ninst, each inst) and where
 * the strings live: "caller" for the SOURCE pointer passed in, "block"
 * inside the result's own allocation (one free releases it all), "heap"
 * elsewhere.  On failure it prints the message, escaped.
 */
#include <pcp/pmapi.h>

#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe_text.h"

/* "text" or NULL */
static void put_string(const char *s)
{
    if (s == NULL) {
        fputs("NULL", stdout);
        return;
    }
    putchar('"');
    put_escaped(s, strlen(s));
    putchar('"');
}

/* Where string P of result R (BLOCK usable bytes) lives. */
static const char *where(const void *r, size_t block, const char *p, const char *source)
{
    if (p == NULL)
        return "none";
    if (p == source)
        return "caller";
    if ((uintptr_t)p - (uintptr_t)r < block)
        return "block";
    return "heap";
}

static void run_case(int isarch, char *source, const char *spec)
{
    pmMetricSpec *r = NULL;
    char *msg = NULL;
    int sts;

    printf("%d ", isarch);
    put_string(source);
    putchar(' ');
    put_string(spec);
    fflush(stdout);
    sts = pmParseMetricSpec(spec, isarch, source, &r, &msg);
    printf(" -> %d", sts);
    if (sts < 0) {
        fputs(" msg ", stdout);
        put_string(msg);
        putchar('\n');
        free(msg);
        return;
    }
    size_t block = malloc_usable_size(r);
    printf(" isarch %d source ", r->isarch);
    put_string(r->source);
    printf(" (%s) metric ", where(r, block, r->source, source));
    put_string(r->metric);
    printf(" (%s) ninst %d", where(r, block, r->metric, source), r->ninst);
    for (int i = 0; i < r->ninst; i++) {
        printf(" [%d] ", i);
        put_string(r->inst[i]);
        printf(" (%s)", where(r, block, r->inst[i], source));
    }
    putchar('\n');
    pmFreeMetricSpec(r);
}

int main(int argc, char **argv)
{
    FILE *fp;
    char *line = NULL;
    size_t cap = 0;

    setvbuf(stdout, NULL, _IOLBF, 0);
    if ((fp = open_cases(argc, argv)) == NULL)
        return 2;
    while (next_case(fp, &line, &cap, 0) != NULL) {
        char *source, *spec, *end;
        long isarch;

        isarch = strtol(line, &end, 10);
        if (*end != ' ' || (spec = strchr(end + 1, ' ')) == NULL) {
            fprintf(stderr, "bad case line: %s\n", line);
            return 2;
        }
        source = end + 1;
        *spec++ = '\0';
        case_unescape(source);
        if (strcmp(spec, "@null") == 0)
            spec = NULL;
        else
            case_unescape(spec);
        run_case((int)isarch, strcmp(source, "@null") == 0 ? NULL : source, spec);
    }
    free(line);
    if (fp != stdin)
        fclose(fp);
    return 0;
}
