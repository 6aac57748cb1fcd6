/*
 * gen_help.c - random help sources for the help oracle
 * (tests/oracle/help_diff.sh).
 *
 * Usage:  gen_help SEED COUNT OUTDIR
 * Writes, for NNNN = 0000 .. COUNT-1: OUTDIR/hNNNN.pmns (a namespace),
 * OUTDIR/hNNNN.help (the source) and sometimes OUTDIR/hNNNN.help2 (a second
 * source for the same database), and OUTDIR/hNNNN.args (extra newhelp
 * options: -V or nothing).  The output depends only on SEED and the case.
 *
 * Every case is input Debian's newhelp handles correctly (its limits, in
 * docs/compat.md): lines stay under 100 bytes, entries under 900 bytes, no key is
 * used twice, every line ends with a newline.  Exercised: names in three
 * domains whose cluster.item collide (the index sorts on those bits only,
 * ties in source order), numeric PMIDs and InDoms, a name below a dynamic
 * root, '@' with or without blanks (spaces, tabs), empty one-line and long
 * texts, leading, inner and trailing blank lines, trailing blanks, CRs,
 * comment lines inside texts and between entries, text before the first
 * '@', '@' lines with no key, empty sources, '@' and '#' not in column 1.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gen_rng.h"

static const int domains[] = {2, 3, 60};

typedef struct leaf {
    char name[64];
    int dom, cl, it;
    int used;
} leaf;

/* A few words of text, no longer than max bytes, with odd blanks. */
static void words(FILE *fp, int max)
{
    static const char *const w[] = {"the",   "metric", "counts", "bytes", "per",   "second",
                                    "since", "boot",   "@",      "#",     "value", "x",
                                    "(see",  "above)", "a.b.c",  "1.2.3", "\\n",   "%s"};
    int len = 0;
    int n = 1 + (int)rnd(8);

    for (int i = 0; i < n; i++) {
        const char *s = w[rnd(sizeof(w) / sizeof(w[0]))];
        if (len + (int)strlen(s) + 2 > max)
            break;
        len += fprintf(fp, "%s%s", i ? (rnd(8) ? " " : "\t") : "", s);
    }
    if (rnd(10) == 0)
        fputs("  ", fp); /* trailing blanks */
    if (rnd(20) == 0)
        fputc('\r', fp);
}

static void long_text(FILE *fp)
{
    int lines = (int)rnd(6);

    if (rnd(8) == 0)
        fputc('\n', fp); /* a leading blank line */
    for (int i = 0; i < lines; i++) {
        switch (rnd(10)) {
        case 0:
            fputc('\n', fp);
            break; /* blank */
        case 1:
            fputs("# a comment inside the text\n", fp);
            break;
        case 2:
            fputs("   indented ", fp);
            words(fp, 60);
            fputc('\n', fp);
            break;
        case 3:
            fputs(" @ not an entry\n", fp);
            break;
        default:
            fputs(rnd(2) ? "text " : "value\t", fp);
            words(fp, 84);
            fputc('\n', fp);
        }
    }
    for (int i = (int)rnd(4); i > 0 && rnd(3) == 0; i--)
        fputc('\n', fp); /* trailing blank lines */
}

static void write_case(const char *dir, int c, unsigned seed)
{
    char path[1024];
    leaf leaves[200];
    int nleaves = 4 + (int)rnd(c % 10 == 0 ? 190 : 30);
    int dyn = rnd(3) == 0;
    FILE *ns, *src[2];
    int nsrc = rnd(5) == 0 ? 2 : 1;

    (void)seed;
    snprintf(path, sizeof(path), "%s/h%04d.pmns", dir, c);
    ns = fopen(path, "w");
    for (int i = 0; i < nleaves; i++) {
        leaf *l = &leaves[i];
        snprintf(l->name, sizeof(l->name), "g%d.m%d", i % 5, i);
        l->dom = domains[rnd(3)];
        /* clusters and items from a small range so they collide across domains */
        l->cl = (int)rnd(3);
        l->it = i;
        l->used = 0;
    }
    fputs("root {\n", ns);
    for (int g = 0; g < 5; g++)
        fprintf(ns, "    g%d\n", g);
    if (dyn)
        fputs("    dyn\t60:*:*\n", ns);
    fputs("}\n", ns);
    for (int g = 0; g < 5; g++) {
        fprintf(ns, "g%d {\n", g);
        for (int i = g; i < nleaves; i += 5)
            fprintf(ns, "    m%d\t%d:%d:%d\n", i, leaves[i].dom, leaves[i].cl, leaves[i].it);
        fputs("}\n", ns);
    }
    fclose(ns);

    snprintf(path, sizeof(path), "%s/h%04d.args", dir, c);
    ns = fopen(path, "w");
    fputs(rnd(4) == 0 ? "-V\n" : "\n", ns);
    fclose(ns);

    for (int s = 0; s < nsrc; s++) {
        snprintf(path, sizeof(path), "%s/h%04d.help%s", dir, c, s ? "2" : "");
        src[s] = fopen(path, "w");
        if (rnd(4) == 0)
            fputs("text before the first entry is ignored\n", src[s]);
        if (rnd(3) == 0)
            fputs("# a comment\n", src[s]);
    }
    int nent = rnd(15) == 0 ? 0 : 1 + (int)rnd((unsigned)nleaves);
    int usednum[4] = {0}, dynused = 0;
    for (int e = 0; e < nent; e++) {
        FILE *fp = src[rnd((unsigned)nsrc)];
        const char *at = rnd(6) == 0 ? "@" : rnd(6) == 0 ? "@\t" : "@ ";
        int kind = (int)rnd(10);
        if (rnd(25) == 0)
            fputs("@\n", fp); /* a null entry */
        if (kind == 0 && usednum[0] < 3) {
            /* a numeric PMID no name uses (item 500 + n) */
            fprintf(fp, "%s%d.%d.%d", at, domains[rnd(3)], (int)rnd(3), 500 + usednum[0]++);
        } else if (kind == 1 && usednum[1] < 3) {
            /* an InDom; serials collide across domains */
            fprintf(fp, "%s%d.%d", at, domains[usednum[1]], (int)(rnd(2) + 10 * usednum[1]));
            usednum[1]++;
        } else if (kind == 2 && dyn && !dynused) {
            fprintf(fp, "%sdyn.below.root", at);
            dynused = 1;
        } else {
            int i = (int)rnd((unsigned)nleaves);
            while (leaves[i].used)
                i = (i + 1) % nleaves;
            if (e >= nleaves)
                break;
            leaves[i].used = 1;
            fprintf(fp, "%s%s", at, leaves[i].name);
        }
        if (rnd(6) != 0) {
            fputs(rnd(5) ? " " : "\t ", fp);
            words(fp, 60);
        } else if (rnd(2)) {
            fputs("  ", fp);
        }
        fputc('\n', fp);
        if (rnd(5) != 0)
            long_text(fp);
        if (rnd(6) == 0)
            fputs("#\n# between entries\n", fp);
    }
    for (int s = 0; s < nsrc; s++)
        fclose(src[s]);
}

int main(int argc, char **argv)
{
    unsigned seed;
    int count;

    if (argc != 4) {
        fprintf(stderr, "usage: gen_help SEED COUNT OUTDIR\n");
        return 2;
    }
    seed = (unsigned)strtoul(argv[1], NULL, 10);
    count = atoi(argv[2]);
    if (mkdir(argv[3], 0777) < 0 && errno != EEXIST) {
        perror(argv[3]);
        return 1;
    }
    for (int c = 0; c < count; c++) {
        rng_state = (uint64_t)seed << 32 | (uint64_t)c;
        write_case(argv[3], c, seed);
    }
    return 0;
}
