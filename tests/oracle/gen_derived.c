/*
 * gen_derived.c - derived-metric expressions for the differential tests
 * of the parser (probe_derived_parse.c): random sentences of the language
 * with every operator, function and token kind, then many of them broken
 * (tokens dropped, added, swapped, cut short), in the probe's case format
 * (one per line, C escapes).  Then the cases PCP's parser stack decides:
 * nesting of every kind around its limit.
 *
 *   gen_derived SEED COUNT        cases on stdout
 */
#include "gen_rng.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXTOK 4096

static const char *toks[MAXTOK];
static int ntok;

static void tok(const char *t)
{
    if (ntok < MAXTOK)
        toks[ntok++] = t;
}

static const char *pick(const char *const *v, size_t n)
{
    return v[rnd((unsigned)n)];
}
#define PICK(v) pick(v, sizeof(v) / sizeof(v[0]))

static const char *const names[] = {
    "a",      "b.c",   "fg.u32", "x.y_z9", "A.B",       "avg",
    "type.x", "typex", "count_", "a..b",   "e3",        "kernel.all.cpu.user",
    "sum.x",  "m1",    "units",  "type",   "semantics", "Avg",
};
static const char *const insts[] = {
    "[x]", "[eth0]", "[a b]", "[]", "[x\\\\]y]", "[\\\\\\\\]", "[[]", "[ 1 ]", "[x\\\\y]",
};
static const char *const ints[] = {"0",          "1",          "42",          "007",
                                   "4294967295", "4294967296", "99999999999", "10"};
static const char *const dbls[] = {"1.5", ".5", "1.", ".", "0.000", "3.25", "1e", "2.5.3"};
static const char *const binops[] = {
    "+", "-", "*", "/", "<", "<=", "==", ">=", ">", "!=", "&&", "||"};
static const char *const namefuncs[] = {"avg(", "count(", "delta(",   "max(",    "min(",
                                        "sum(", "rate(",  "instant(", "defined("};
static const char *const units[] = {"\"Kbyte\"",  "\"byte / sec\"", "\"count x 10^3\"", "\"foo\"",
                                    "\"\"",       "\"sec^2\"",      "\"Mbyte/hour\"",   "\"1\"",
                                    "\"2 byte\"", "\"millisec\""};
static const char *const patterns[] = {"/x/",   "/^eth[0-9]/", "/(/", "/a\\\\/b/",  "//",
                                       "/a**/", "/+/",         "/[/", "/\\\\\\\\/", "/e.*/"};
static const char *const types[] = {"32",      "u32",    "U64", "64",  "float", "double",
                                    "\"u32\"", "string", "1",   "foo", "DOUBLE"};
static const char *const sems[] = {"counter",     "instant", "discrete", "Counter",
                                   "\"instant\"", "blah",    "1"};
static const char *const unitvals[] = {
    "byte", "sec", "\"Kbyte / sec\"", "foo", "1", "\"count x 10^3\"", "\"\"", "Mbyte"};
static const char *const anons[] = {"PM_TYPE_32",  "PM_TYPE_U32",   "PM_TYPE_64",
                                    "PM_TYPE_U64", "PM_TYPE_FLOAT", "PM_TYPE_DOUBLE"};

static void expr(int depth);

static void mkconst(void)
{
    tok("mkconst(");
    tok(rnd(3) ? PICK(ints) : PICK(dbls));
    int n = 1 + (int)rnd(3);
    for (int i = 0; i < n; i++) {
        tok(",");
        switch (rnd(3)) {
        case 0:
            tok("type");
            tok("=");
            tok(PICK(types));
            break;
        case 1:
            tok("semantics");
            tok("=");
            tok(PICK(sems));
            break;
        default:
            tok("units");
            tok("=");
            tok(PICK(unitvals));
        }
    }
    tok(")");
}

static void primary(int depth)
{
    switch (rnd(depth > 0 ? 12 : 5)) {
    case 0:
    case 1:
        tok(PICK(names));
        if (rnd(5) == 0)
            tok(PICK(insts));
        break;
    case 2:
        tok(PICK(ints));
        break;
    case 3:
        tok(PICK(dbls));
        break;
    case 4:
        tok(PICK(namefuncs));
        tok(PICK(names));
        tok(")");
        break;
    case 5:
        tok("(");
        expr(depth - 1);
        tok(")");
        if (rnd(4) == 0)
            tok(PICK(insts));
        break;
    case 6:
        tok("rescale(");
        expr(depth - 1);
        tok(",");
        tok(PICK(units));
        tok(")");
        break;
    case 7:
        tok("matchinst(");
        if (rnd(2))
            tok("!");
        tok(PICK(patterns));
        tok(",");
        expr(depth - 1);
        tok(")");
        break;
    case 8:
        tok("scalar(");
        expr(depth - 1);
        tok(")");
        break;
    case 9:
        mkconst();
        break;
    case 10:
        tok("anon(");
        tok(PICK(anons));
        tok(")");
        break;
    default:
        tok(rnd(2) ? "-" : "!");
        primary(depth - 1);
    }
}

static void expr(int depth)
{
    primary(depth);
    while (depth > 0 && rnd(3) == 0) {
        if (rnd(6) == 0) {
            tok("?");
            expr(depth - 1);
            tok(":");
        } else {
            tok(PICK(binops));
        }
        primary(depth - 1);
    }
}

/* Tokens a broken expression may gain. */
static const char *const junk[] = {
    "(",        ")",  ",",    "=", "?",          ":",     "!",          "&",     "|",
    "$",        "_x", "'",    "@", "\\xc3\\xa9", "\"s\"", "\"open",     "[open", "/p/",
    "1",        "a",  "type", "=", "[x]",        "avg(",  "matchinst(", ")",     "mkconst(",
    "rescale(", "+",  "*",    "/", "-",          "<",     "&&",
};

static void mutate(void)
{
    int n = 1 + (int)rnd(3);

    for (int k = 0; k < n && ntok > 0; k++) {
        int i = (int)rnd((unsigned)ntok);
        switch (rnd(5)) {
        case 0: /* drop */
            memmove(&toks[i], &toks[i + 1], (size_t)(ntok - i - 1) * sizeof(toks[0]));
            ntok--;
            break;
        case 1: /* add */
            if (ntok < MAXTOK) {
                memmove(&toks[i + 1], &toks[i], (size_t)(ntok - i) * sizeof(toks[0]));
                toks[i] = PICK(junk);
                ntok++;
            }
            break;
        case 2: { /* swap */
            int j = (int)rnd((unsigned)ntok);
            const char *t = toks[i];
            toks[i] = toks[j];
            toks[j] = t;
            break;
        }
        case 3: /* cut */
            ntok = i;
            break;
        default: /* replace */
            toks[i] = PICK(junk);
        }
    }
}

static int wordish(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.';
}

/* Two tokens that would read as one without a blank between them. */
static int must_split(const char *prev, const char *next)
{
    char a = prev[strlen(prev) - 1], b = next[0];

    if (wordish(a) && (wordish(b) || b == '('))
        return 1;
    if (strchr("<>=!&|", a) != NULL && strchr("=&|", b) != NULL)
        return 1;
    if (a == '\\')
        return 1;
    return 0;
}

static void emit(void)
{
    static const char *const blanks[] = {"", "", " ", " ", "  ", "\\t", "\\n"};

    for (int i = 0; i < ntok; i++) {
        if (i > 0) {
            const char *b = PICK(blanks);
            if (*b == '\0' && must_split(toks[i - 1], toks[i]))
                b = " ";
            fputs(b, stdout);
        }
        fputs(toks[i], stdout);
    }
    putchar('\n');
}

/* count open tokens, the operand, count closers: the parser stack's limit. */
static void nest(const char *open, const char *mid, const char *close, int count)
{
    for (int i = 0; i < count; i++)
        fputs(open, stdout);
    fputs(mid, stdout);
    for (int i = 0; close != NULL && i < count; i++)
        fputs(close, stdout);
    putchar('\n');
}

static void limits(void)
{
    static const int counts[] = {4998, 4999, 5000, 9996, 9997, 9998, 9999, 10000, 12000};

    for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
        int c = counts[i];
        nest("(", "a", ")", c);
        nest("-", "a", NULL, c);
        nest("!", "a", NULL, c);
        nest("scalar(", "a", ")", c / 2);
        nest("a+(", "a", ")", c / 2);
        nest("a?", "b:c", NULL, c / 2);
        nest("a*-", "a", NULL, c / 2);
        nest("matchinst(/x/,", "a", ")", c / 5);
        nest("rescale(", "a", ",\"byte\")", c / 4);
        nest("(", "mkconst(1,type=u32,units=byte)", ")", c - 8 + (int)i % 4);
        nest("-", "matchinst(!/x/,a)", NULL, c - 4 + (int)i % 4);
    }
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: gen_derived SEED COUNT\n");
        return 2;
    }
    rng_state = strtoull(argv[1], NULL, 10);
    long count = atol(argv[2]);
    for (long n = 0; n < count; n++) {
        ntok = 0;
        expr(1 + (int)rnd(4));
        if (rnd(5) < 3)
            mutate();
        if (rnd(40) == 0)
            printf("dup.%u\t", rnd(4)); /* duplicates of earlier names */
        emit();
    }
    limits();
    printf("@limit %u\n", rnd(3));
    printf("lim.a\t1\nlim.b\t1+\nlim.c\ta b\n@limit -1\n");
    return 0;
}
