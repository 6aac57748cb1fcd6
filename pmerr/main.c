/*
 * pmerr - translate PCP error codes to text, or list every PMAPI code.
 *
 *   pmerr [-l | --list] [code ...]
 *
 * Compatible with PCP's pmerr: options are only recognised before the
 * first code; -l lists the table and exits with status 1 (as PCP's does);
 * codes are decimal (sscanf %d rules) or hexadecimal with a 0x prefix;
 * positive codes are negated with a note.  Output and exit status are
 * byte-identical to PCP 6.0.3's (tests/cli/pmerr).
 */
#include <pcp/pmapi.h>
#include <pcp/libpcp.h>

#include "outfile.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(void)
{
    fputs("Usage: pmerr [options] [code]\n\n"
          "  -l, --list   causes all known error codes to be listed\n",
          stderr);
}

static void list_codes(void)
{
    __pmDumpErrTab(stdout);
}

/* Hex digits straight after "0x", saturating like strtoul. */
static int parse_hex(const char *s)
{
    unsigned long v = 0;

    for (; isxdigit((unsigned char)*s); s++) {
        int d = isdigit((unsigned char)*s) ? *s - '0' : tolower((unsigned char)*s) - 'a' + 10;
        if (v > (~0UL - (unsigned long)d) / 16) {
            v = ~0UL;
            break;
        }
        v = v * 16 + (unsigned long)d;
    }
    return (int)(unsigned)v;
}

/* 0 and *code set, or -1 when arg holds no number. */
static int parse_code(const char *arg, int *code)
{
    char *end;
    long v;

    if (arg[0] == '0' && (arg[1] == 'x' || arg[1] == 'X')) {
        *code = parse_hex(arg + 2);
        return 0;
    }
    v = strtol(arg, &end, 10);
    if (end == arg)
        return -1;
    *code = (int)(unsigned long)v;
    return 0;
}

static void explain(const char *arg)
{
    int code;

    if (parse_code(arg, &code) < 0) {
        printf("Cannot decode \"%s\" - neither decimal nor hexadecimal\n", arg);
        return;
    }
    if (code > 0) {
        code = -code;
        printf("Code is positive, assume you mean %d\n", code);
    }
    printf("Code: %d 0x%x Text: %s\n", code, (unsigned)code, pmErrStr(code));
}

int main(int argc, char **argv)
{
    int i = 1;

    outfile_watch_stdout(); /* a failed write is reported at exit, status 1 */
    for (; i < argc && argv[i][0] == '-' && !isdigit((unsigned char)argv[i][1]); i++) {
        if (strcmp(argv[i], "-l") == 0 || strcmp(argv[i], "--list") == 0) {
            list_codes();
            return 1;
        }
        if (strcmp(argv[i], "-?") != 0 && strcmp(argv[i], "--help") != 0)
            fprintf(stderr, "Illegal option -- %s\n", argv[i] + 1);
        usage();
        return 1;
    }
    for (; i < argc; i++)
        explain(argv[i]);
    return outfile_stdout_close() < 0 ? 1 : 0;
}
