/*
 * probe_text.h - the escapes of the case-driven probes (probe_units.c,
 * probe_metricspec.c, probe_timewindow.c): case files write awkward bytes
 * as \t \n \r \v \f, \s (space) and \xHH, and the probes print strings
 * back the same way, so that both libraries' outputs are plain lines.
 */
#ifndef PMKIT_PROBE_TEXT_H
#define PMKIT_PROBE_TEXT_H

#include <stdio.h>
#include <string.h>
#include <sys/types.h>

/* S (LEN bytes) on stdout: printable ASCII as is but '\\' and '"'
 * escaped, the rest as \t, \n or \xHH. */
static inline void put_escaped(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];

        if (c == '\\' || c == '"')
            printf("\\%c", c);
        else if (c == '\t')
            fputs("\\t", stdout);
        else if (c == '\n')
            fputs("\\n", stdout);
        else if (c < 0x20 || c >= 0x7f)
            printf("\\x%02x", c);
        else
            putchar(c);
    }
}

static inline int hex_digit(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* The case text S unescaped in place (any other escaped byte stands for
 * itself); returns its length, which counts NUL bytes from \x00. */
static inline size_t case_unescape(char *s)
{
    static const char from[] = "tnrvfs", to[] = "\t\n\r\v\f ";
    char *in = s, *out = s;
    const char *e;

    while (*in != '\0') {
        if (*in != '\\' || in[1] == '\0') {
            *out++ = *in++;
            continue;
        }
        in++;
        if (*in == 'x' && hex_digit(in[1]) >= 0 && hex_digit(in[2]) >= 0) {
            *out++ = (char)(hex_digit(in[1]) * 16 + hex_digit(in[2]));
            in += 3;
        } else if ((e = strchr(from, *in)) != NULL) {
            *out++ = to[e - from];
            in++;
        } else {
            *out++ = *in++;
        }
    }
    *out = '\0';
    return (size_t)(out - s);
}

/* The case file argv[1] (stdin without one); NULL, the usage printed, for
 * more arguments or a file that cannot be opened. */
static inline FILE *open_cases(int argc, char **argv)
{
    FILE *fp = stdin;

    if (argc > 2 || (argc == 2 && (fp = fopen(argv[1], "r")) == NULL)) {
        fprintf(stderr, "usage: %s [CASES]\n", argv[0]);
        return NULL;
    }
    return fp;
}

/* The next line of fp without its newline, "#" comments skipped (and empty
 * lines, unless keep_empty); NULL at the end.  *line and *cap as getline's. */
static inline char *next_case(FILE *fp, char **line, size_t *cap, int keep_empty)
{
    ssize_t n;

    while ((n = getline(line, cap, fp)) >= 0) {
        if (n > 0 && (*line)[n - 1] == '\n')
            (*line)[--n] = '\0';
        if ((*line)[0] != '#' && (keep_empty || n > 0))
            return *line;
    }
    return NULL;
}

#endif /* PMKIT_PROBE_TEXT_H */
