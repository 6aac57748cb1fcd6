/*
 * gen_pmgenmap.c - random map specifications for the pmgenmap oracle
 * (tests/oracle/pmgenmap_diff.sh).
 *
 * Usage:  gen_pmgenmap SEED COUNT OUTDIR
 * Writes OUTDIR/case_NNNN/input for NNNN = 0000 .. COUNT-1, and for one
 * case in four also OUTDIR/case_NNNN/invalid (holding the kind of error
 * put in).  The output depends only on SEED and the case number.
 *
 * Valid cases are inputs PCP's pmgenmap (gawk --posix) translates with
 * exit status 0 and that avoid the quirks pmkit fixes (toolchain.md §9,
 * docs/compat.md): no CR, no '#' glued to a comment's first word, no "*" "/"
 * in comments, no "}" outside a group.  Exercised: empty files, comment
 * blocks of one to four lines (bare "#" lines too, leading blanks, runs of
 * blanks and tabs between words), blank lines made of blanks and tabs
 * (copied verbatim), several groups (empty ones too) with comments and
 * blank lines inside, blanks and tabs before, between and after words,
 * words made of odd bytes (quotes, backslashes, braces, '%', '#' after the
 * first byte, \v, \f, bytes >= 0x80), a last line without newline.
 *
 * Invalid cases hold exactly one error, of one kind: a line of three
 * words, a line of one word (not "}"), two words outside a group, a group
 * opened inside a group, or a group left open at the end.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "gen_rng.h"

/* One line of the specification being built. */
typedef struct line {
    char text[512]; /* without the newline */
    int in_group;   /* a group is open after this line */
} line;

static line lines[4096];
static size_t nlines;

static line *add(int in_group)
{
    line *l = &lines[nlines++];

    l->text[0] = '\0';
    l->in_group = in_group;
    return l;
}

static void cat(line *l, const char *s)
{
    strncat(l->text, s, sizeof(l->text) - strlen(l->text) - 1);
}

/* min..max blanks (spaces and tabs) */
static void blanks(line *l, unsigned min, unsigned max)
{
    unsigned n = min + rnd(max - min + 1);

    for (unsigned i = 0; i < n; i++)
        cat(l, rnd(3) ? " " : "\t");
}

/* A word: mostly identifier-like or dotted, sometimes odd bytes.  Never
 * begins with '#', never holds a blank, CR, LF or NUL, never "*" "/". */
static void word(line *l, int dotted)
{
    static const char odd[] = "\"'\\{}[]()%$*/;:,.-+=<>!?@&|^~`#\v\f";
    char w[64];
    size_t n = 0, len = 1 + rnd(dotted ? 24 : 12);

    for (size_t i = 0; i < len; i++) {
        unsigned r = rnd(100);
        char c;
        if (r < 60)
            c = (char)("abcdefghijklmnopqrstuvwxyz_ABCXYZ"[rnd(33)]);
        else if (r < 75)
            c = (char)('0' + rnd(10));
        else if (r < 88)
            c = dotted ? '.' : '_';
        else if (r < 96)
            c = odd[rnd(sizeof(odd) - 1)];
        else
            c = (char)(0x80 + rnd(128));
        if (n == 0 && c == '#')
            c = 'h';
        if (n > 0 && c == '/' && w[n - 1] == '*')
            c = 's';
        w[n++] = c;
    }
    w[n] = '\0';
    cat(l, w);
}

/* An identifier (group names and symbols), now and then an odd word, but
 * never "{" or "}". */
static void ident(line *l)
{
    if (rnd(10) == 0) {
        size_t at = strlen(l->text);
        word(l, 0);
        if (strcmp(l->text + at, "{") == 0 || strcmp(l->text + at, "}") == 0)
            cat(l, "x");
        return;
    }
    char w[40];
    size_t len = 1 + rnd(20);

    for (size_t i = 0; i < len; i++)
        w[i] = (char)((i == 0 ? "ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcxyz"
                              : "ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789abc")[rnd(i == 0 ? 33 : 39)]);
    w[len] = '\0';
    cat(l, w);
}

static void comment_line(int in_group)
{
    line *l = add(in_group);
    unsigned nw = rnd(5) == 0 ? 0 : 1 + rnd(8);

    blanks(l, 0, 2);
    cat(l, "#");
    for (unsigned i = 0; i < nw; i++) {
        blanks(l, 1, 3);
        word(l, rnd(2));
    }
    blanks(l, 0, 2);
}

static void blank_line(int in_group)
{
    line *l = add(in_group);

    if (rnd(2))
        blanks(l, 1, 4);
}

static void extras(int in_group)
{
    unsigned r = rnd(10);

    if (r == 0)
        blank_line(in_group);
    else if (r == 1)
        for (unsigned i = 1 + rnd(3); i > 0; i--)
            comment_line(in_group);
}

static void group(unsigned nentries, int close)
{
    line *l = add(1);

    blanks(l, 0, 2);
    ident(l);
    blanks(l, 1, 3);
    cat(l, "{");
    blanks(l, 0, 2);
    for (unsigned i = 0; i < nentries; i++) {
        extras(1);
        l = add(1);
        blanks(l, 0, 3);
        word(l, 1);
        blanks(l, 1, 3);
        ident(l);
        blanks(l, 0, 2);
    }
    extras(1);
    if (!close)
        return;
    l = add(0);
    blanks(l, 0, 2);
    cat(l, "}");
    blanks(l, 0, 2);
}

static void valid(void)
{
    unsigned items = rnd(8) == 0 ? 0 : 1 + rnd(10);
    unsigned big = rnd(20) == 0;

    nlines = 0;
    for (unsigned i = 0; i < items && nlines < 3000; i++) {
        unsigned r = rnd(10);
        if (r < 2)
            for (unsigned k = 1 + rnd(4); k > 0; k--)
                comment_line(0);
        else if (r < 3)
            blank_line(0);
        else
            group(rnd(6) == 0 ? 0 : 1 + rnd(big ? 400 : 12), 1);
    }
}

/* Put one error into a valid case; returns its kind. */
static const char *invalid(void)
{
    static const char *const kinds[] = {"three_words", "one_word", "two_words_outside",
                                        "nested_group", "unterminated"};
    unsigned k = rnd(5);
    size_t at;
    line bad;

    if (k == 4) {
        group(rnd(4), 0);
        return kinds[k];
    }
    /* pick a position; its context decides what is an error there */
    at = rnd((unsigned)nlines + 1);
    bad.in_group = at > 0 && lines[at - 1].in_group;
    if (k == 2 && bad.in_group)
        k = 0;
    if (k == 3 && !bad.in_group)
        k = 1;
    bad.text[0] = '\0';
    blanks(&bad, 0, 2);
    ident(&bad); /* never "}" nor "#..." */
    if (k != 1) {
        blanks(&bad, 1, 2);
        if (k == 3)
            cat(&bad, "{");
        else
            ident(&bad); /* never "{" */
    }
    if (k == 0) {
        blanks(&bad, 1, 2);
        word(&bad, 0);
    }
    memmove(&lines[at + 1], &lines[at], (nlines - at) * sizeof(line));
    lines[at] = bad;
    nlines++;
    return kinds[k];
}

static int write_case(const char *dir, const char *kind)
{
    char path[4200];
    FILE *fp;
    int nl_last = rnd(10) != 0;

    if (mkdir(dir, 0777) < 0 && errno != EEXIST)
        return -1;
    snprintf(path, sizeof(path), "%s/input", dir);
    if ((fp = fopen(path, "w")) == NULL)
        return -1;
    for (size_t i = 0; i < nlines; i++)
        fprintf(fp, "%s%s", lines[i].text, i + 1 < nlines || nl_last ? "\n" : "");
    if (fclose(fp) != 0)
        return -1;
    if (kind == NULL)
        return 0;
    snprintf(path, sizeof(path), "%s/invalid", dir);
    if ((fp = fopen(path, "w")) == NULL)
        return -1;
    fprintf(fp, "%s\n", kind);
    return fclose(fp);
}

int main(int argc, char **argv)
{
    unsigned long seed, count;
    char dir[4000];

    if (argc != 4) {
        fprintf(stderr, "Usage: gen_pmgenmap SEED COUNT OUTDIR\n");
        return 2;
    }
    seed = strtoul(argv[1], NULL, 10);
    count = strtoul(argv[2], NULL, 10);
    if (mkdir(argv[3], 0777) < 0 && errno != EEXIST) {
        perror(argv[3]);
        return 1;
    }
    for (unsigned long i = 0; i < count; i++) {
        const char *kind = NULL;
        rng_state = seed * 1000003u + i;
        valid();
        if (rnd(4) == 0)
            kind = invalid();
        snprintf(dir, sizeof(dir), "%s/case_%04lu", argv[3], i);
        if (write_case(dir, kind) < 0) {
            perror(dir);
            return 1;
        }
    }
    return 0;
}
