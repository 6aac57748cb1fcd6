/*
 * probe_help.c - ask a help database every question libpcp_pmda answers,
 * built once against pmkit and once against Debian's libpcp_pmda (only
 * <pcp/pmapi.h>, <pcp/pmda.h> and -lpcp_pmda): the two outputs must match.
 *
 *   probe_help BASE     for every key of BASE.dir (read here, little-endian)
 *                       and a few keys that are not there: pmdaGetHelp or
 *                       pmdaGetInDomHelp with each type combination
 *   probe_help -o BASE  only pmdaOpenHelp's status (0 or an errno name)
 *
 * Output is one line per answer; NULL prints as <NULL>, and texts are
 * printed with \n and non-printing bytes escaped so a line stays a line.
 */
#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void show(const char *what, unsigned key, int type, const char *s)
{
    printf("%s %08x type %d: ", what, key, type);
    if (s == NULL) {
        puts("<NULL>");
        return;
    }
    for (; *s != '\0'; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '\n')
            fputs("\\n", stdout);
        else if (c == '\\')
            fputs("\\\\", stdout);
        else if (c < 32 || c >= 127)
            printf("\\x%02x", c);
        else
            putchar(c);
    }
    putchar('\n');
}

static void ask(int h, unsigned key)
{
    static const int types[] = {PM_TEXT_ONELINE,
                                PM_TEXT_HELP,
                                PM_TEXT_PMID | PM_TEXT_ONELINE,
                                PM_TEXT_INDOM | PM_TEXT_HELP,
                                0,
                                PM_TEXT_ONELINE | PM_TEXT_HELP};

    for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
        if (key & 0x80000000u)
            show("indom", key, types[t], pmdaGetInDomHelp(h, key & ~0x80000000u, types[t]));
        else
            show("pmid", key, types[t], pmdaGetHelp(h, key, types[t]));
    }
}

/* The keys of BASE.dir, in file order (plus the count in *n). */
static unsigned *keys_of(const char *base, size_t *n)
{
    char path[4096];
    unsigned char rec[12];
    unsigned *keys = NULL;
    FILE *fp;

    *n = 0;
    snprintf(path, sizeof(path), "%s.dir", base);
    if ((fp = fopen(path, "rb")) == NULL)
        return NULL;
    if (fread(rec, 1, 12, fp) == 12) { /* header */
        while (fread(rec, 1, 12, fp) == 12) {
            unsigned *k = realloc(keys, (*n + 1) * sizeof(*k));
            if (k == NULL)
                break;
            keys = k;
            keys[(*n)++] = (unsigned)rec[0] | (unsigned)rec[1] << 8 | (unsigned)rec[2] << 16 |
                           (unsigned)rec[3] << 24;
        }
    }
    fclose(fp);
    return keys;
}

int main(int argc, char **argv)
{
    static const unsigned absent[] = {0,           0x00400001u, 0x3fffffffu,
                                      0x80000000u, 0xbfffffffu, 0xffffffffu};
    size_t n;
    unsigned *keys;
    int h;

    if (argc == 3 && strcmp(argv[1], "-o") == 0) {
        h = pmdaOpenHelp(argv[2]);
        printf("open: %s\n", h < 0 ? pmErrStr(h) : "ok");
        return 0;
    }
    if (argc != 2) {
        fprintf(stderr, "usage: probe_help [-o] BASE\n");
        return 2;
    }
    if ((h = pmdaOpenHelp(argv[1])) < 0) {
        printf("open: %s\n", pmErrStr(h));
        return 1;
    }
    keys = keys_of(argv[1], &n);
    printf("open: handle %d, %zu keys\n", h, n);
    for (size_t i = 0; i < n; i++)
        ask(h, keys[i]);
    for (size_t i = 0; i < sizeof(absent) / sizeof(absent[0]); i++)
        ask(h, absent[i]);
    pmdaCloseHelp(h);
    printf("after close: %s\n",
           pmdaGetHelp(h, n > 0 ? keys[0] : 0, PM_TEXT_ONELINE) == NULL ? "<NULL>" : "text");
    free(keys);
    return 0;
}
