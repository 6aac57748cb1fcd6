/*
 * probe_derived_parse.c - derived-metric registrations from one source
 * built twice, against pmkit and against Debian's libpcp: every answer of
 * pmRegisterDerived (where it points, pmDerivedErrStr) and of
 * pmRegisterDerivedMetric (its message) for each case on stdin.
 *
 *   probe_derived_parse [CASES]      (standard input without CASES)
 *
 * A case is one line, "EXPR" or "NAME<TAB>EXPR" (default name d.N, N the
 * case number), with C escapes (\n \t \\ \xHH) so that any byte can be
 * written.  Lines starting with '#' are comments.  Directives: "@limit N"
 * sets PCP_DERIVED_GLOBAL_LIMIT; "@repeat N TEXT" puts TEXT N times before
 * the next case's expression; "@noreset" and "@crash" stop the guards
 * below (for derived_parse_known_diffs, which records those PCP bugs).
 * Each case is
 * registered twice: by pmRegisterDerived under NAME, then by
 * pmRegisterDerivedMetric under NAME with "+m" appended (so that a
 * success of the first is no duplicate for the second).  derived_diff.sh
 * compares the two outputs.
 *
 * Two PCP bugs are kept out of the comparison (docs/compat.md): PCP
 * returns a pointer one byte before an empty expression, pmkit the
 * expression itself, so offsets are printed from 0; and PCP's lexer stays
 * inside matchinst( ... ) after a registration that failed there, reading
 * '/' in the next expression as a pattern, so each registration is
 * followed by one that takes the lexer out (it fails, registering nothing).
 * PCP crashes (a double free) on anon() of anything but a numeric type
 * name: cases where anon( is followed by another name are not run.  Each
 * case is run by both calls, so an error is checked twice.
 */
#include <pcp/pmapi.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The line's escapes decoded in place; its new length. */
static size_t unescape(char *s)
{
    char *out = s;

    for (char *p = s; *p != '\0'; p++) {
        if (*p != '\\' || p[1] == '\0') {
            *out++ = *p;
            continue;
        }
        p++;
        if (*p == 'n')
            *out++ = '\n';
        else if (*p == 't')
            *out++ = '\t';
        else if (*p == 'x' && p[1] != '\0' && p[2] != '\0') {
            char hex[3] = {p[1], p[2], '\0'};
            *out++ = (char)strtol(hex, NULL, 16);
            p += 2;
        } else
            *out++ = *p;
    }
    *out = '\0';
    return (size_t)(out - s);
}

/* Does expr hold anon(NAME) with NAME not a numeric PM_TYPE_ name? */
static int bad_anon(const char *expr)
{
    static const char *const ok[] = {"PM_TYPE_32",  "PM_TYPE_U32",   "PM_TYPE_64",
                                     "PM_TYPE_U64", "PM_TYPE_FLOAT", "PM_TYPE_DOUBLE"};

    for (const char *p = strstr(expr, "anon("); p != NULL; p = strstr(p + 1, "anon(")) {
        const char *s = p + 5, *e;
        while (isspace((unsigned char)*s))
            s++;
        for (e = s; isalnum((unsigned char)*e) || *e == '_' || *e == '.'; e++)
            ;
        if (e == s || !isalpha((unsigned char)*s))
            continue;
        int known = 0;
        for (int i = 0; i < 6; i++)
            known |= strlen(ok[i]) == (size_t)(e - s) && strncmp(ok[i], s, (size_t)(e - s)) == 0;
        if (!known)
            return 1;
    }
    return 0;
}

/* A message's lines; those over 300 bytes as their length and an FNV-1a
 * hash (the nesting cases' carets run to 10,000 columns). */
static void put_message(const char *msg)
{
    while (*msg != '\0') {
        size_t n = strcspn(msg, "\n");
        if (n <= 300) {
            printf("%.*s\n", (int)n, msg);
        } else {
            unsigned long h = 2166136261UL;
            for (size_t i = 0; i < n; i++)
                h = ((h ^ (unsigned char)msg[i]) * 16777619UL) & 0xffffffffUL;
            printf("[%zu bytes, hash %08lx]\n", n, h);
        }
        msg += n + (msg[n] == '\n');
    }
}

static int no_reset, crash_ok;
static char *repeat; /* @repeat's text, made, for the next case */

/* After a registration: PCP's lexer taken out of matchinst( ... ). */
static void reset(void)
{
    if (!no_reset)
        pmRegisterDerived("reset", "matchinst(/x/, x) 1");
}

static void one_expr(int n, const char *name, const char *expr);

static void one(int n, char *line)
{
    char defname[32];
    char *name = defname, *expr = line, *tab = strchr(line, '\t');

    snprintf(defname, sizeof(defname), "d.%d", n);
    if (tab != NULL) {
        *tab = '\0';
        name = line;
        expr = tab + 1;
    }
    unescape(expr);
    if (repeat != NULL) {
        char *all = malloc(strlen(repeat) + strlen(expr) + 1);
        strcpy(all, repeat);
        strcat(all, expr);
        free(repeat);
        repeat = NULL;
        one_expr(n, name, all);
        free(all);
        return;
    }
    one_expr(n, name, expr);
}

static void one_expr(int n, const char *name, const char *expr)
{
    char mname[300], *msg = NULL, *why;
    const char *at;
    int sts;

    if (!crash_ok && bad_anon(expr)) {
        printf("case %d: not run (PCP crashes)\n", n);
        return;
    }
    at = pmRegisterDerived(name, expr);
    why = pmDerivedErrStr();
    why = why != NULL ? strdup(why) : NULL;
    reset();
    printf("case %d [%s]: ", n, name);
    if (at == NULL)
        printf("ok");
    else
        printf("at %ld", at < expr ? 0L : (long)(at - expr));
    printf(" errstr %s%s%s\n", why ? "[" : "", why ? why : "NULL", why ? "]" : "");
    free(why);
    snprintf(mname, sizeof(mname), "%s+m", name);
    sts = pmRegisterDerivedMetric(mname, expr, &msg);
    printf("  metric %d\n", sts);
    if (msg != NULL) {
        put_message(msg);
        free(msg);
    }
    reset();
}

int main(int argc, char **argv)
{
    static char line[1 << 20];
    FILE *in = argc > 1 ? fopen(argv[1], "r") : stdin;
    int n = 0;

    if (in == NULL) {
        perror(argv[1]);
        return 1;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (fgets(line, sizeof(line), in) != NULL) {
        size_t len = strlen(line);
        if (len > 0 && line[len - 1] == '\n')
            line[--len] = '\0';
        if (line[0] == '#')
            continue;
        if (strcmp(line, "@noreset") == 0 || strcmp(line, "@crash") == 0) {
            *(line[1] == 'n' ? &no_reset : &crash_ok) = 1;
            continue;
        }
        if (strncmp(line, "@limit ", 7) == 0) {
            int sts = pmSetDerivedControl(PCP_DERIVED_GLOBAL_LIMIT, atoi(line + 7));
            printf("limit %s -> %d\n", line + 7, sts);
            continue;
        }
        if (strncmp(line, "@repeat ", 8) == 0) {
            char *text = strchr(line + 8, ' ');
            long times = atol(line + 8);
            if (text == NULL || times < 1)
                continue;
            text++;
            unescape(text);
            repeat = malloc(strlen(text) * (size_t)times + 1);
            repeat[0] = '\0';
            for (long i = 0; i < times; i++)
                strcat(repeat + (size_t)i * strlen(text), text);
            continue;
        }
        one(n++, line);
    }
    return 0;
}
