/*
 * gen_derived_exprs.c - derived metrics over the test agent dm_agent.c for
 * probe_derived.c: random expressions with every operator and function,
 * nested, over operands of every type, semantics and unit, counters that
 * wrap, values that go missing and instance domains that differ, many of
 * them semantically wrong on purpose.
 *
 *   gen_derived_exprs SEED COUNT        "NAME = EXPR" lines on stdout
 *   gen_derived_exprs matrix K          binary operator K (0-11) between
 *                                       every pair of a grid of operands
 *   gen_derived_exprs unary             every unary form and function
 *                                       over the grid and a few more
 *
 * Left out, because Debian's libpcp crashes or answers garbage on them
 * (docs/compat.md): (expr)[instance], min() and max() of a metric that can
 * have no values, scalar() of something that can have none, ternaries
 * whose operands can have different instances, and string values
 * anywhere but alone, in instant() or in count(), "!" of anything but a
 * 32-bit value with fixed instances, and "/" within
 * matchinst()'s parentheses (read as a pattern by PCP's lexer).
 */
#include "gen_rng.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char out[1 << 16];
static size_t len;

static void put(const char *s)
{
    size_t n = strlen(s);

    if (len + n < sizeof(out)) {
        memcpy(out + len, s, n);
        len += n;
        out[len] = '\0';
    }
}

#define PICK(v) v[rnd(sizeof(v) / sizeof(v[0]))]

/* singular numeric metrics: always valued, or not */
static const char *const scalars[] = {
    "dm.u32",          "dm.i32",
    "dm.u64",          "dm.i64",
    "dm.float",        "dm.double",
    "dm.discrete",     "dm.small",
    "dm.zero",         "dm.c.u32",
    "dm.c.u64",        "dm.c.i32",
    "dm.c.i64",        "dm.c.float",
    "dm.c.sec",        "dm.c.kbyte",
    "dm.c.msec",       "dm.c.usec",
    "dm.c.down",       "dm.c.plain",
    "dm.x.bytes",      "dm.x.kbytes",
    "dm.x.mbps",       "dm.x.msec",
    "dm.x.sec",        "dm.x.count",
    "dm.x.kcount",     "dm.x.bps",
    "dm.x.persec",     "dm.x.dbytes",
    "dm.x.d64",        "dm.missing",
    "dm.error",        "dm.mcounter",
    "dm.t.u64_kbyte",  "dm.t.i32_sec",
    "dm.t.float_byte", "dm.t.double_count",
    "dm.t.i64_msec",   "dm.t.u32_none",
};
/* metrics with instances: always valued (the first ones), or not */
static const char *const sets[] = {
    "dm.ia.u32",    "dm.ia.bytes", "dm.ia.double", "dm.ia.i32", "dm.ia.msec",
    "dm.ia.kbytes", "dm.ia.d64",   "dm.ia.count",  "dm.ib.u32", "dm.ib.bytes",
    "dm.ib.double", "dm.ic.u32",   "dm.ia.sparse", "dm.ie.u32",
};
#define NSETS_ALWAYS 12 /* sets[] before this always have values */
/* what "!" is given: 32-bit values whose instances never change (PCP's
 * "!" writes 32 bits of a wider value and leaves stale values behind when
 * instances go) */
static const char *const not_operands[] = {
    "dm.u32",       "dm.i32",        "dm.small",   "dm.zero",   "dm.discrete",
    "dm.c.u32",     "dm.c.i32",      "dm.x.msec",  "dm.ib.u32", "dm.ic.u32",
    "dm.t.i32_sec", "dm.t.u32_none", "dm.missing", "1",         "0",
};
static const char *const consts[] = {
    "0",
    "1",
    "2",
    "7",
    "1000",
    "4294967295",
    "2.5",
    "0.5",
    ".25",
    "1e",
    "007",
    "mkconst(3, type=64)",
    "mkconst(2, type=u64)",
    "mkconst(1.5, type=float)",
    "mkconst(5, semantics=counter)",
    "mkconst(4, units=byte)",
    "mkconst(2, units=Kbyte)",
    "mkconst(1, units=sec)",
    "mkconst(250, units=millisec)",
    "mkconst(3, units=\"count x 10^3\")",
    "mkconst(2, type=double, semantics=instant, units=\"Kbyte/sec\")",
    "mkconst(1, type=32, semantics=discrete)",
};
static const char *const binops[] = {
    "+", "-", "*", "/", "<", "<=", "==", ">=", ">", "!=", "&&", "||"};
static const char *const units[] = {"Kbyte",      "byte",     "Mbyte/sec",    "sec",
                                    "millisec",   "count",    "count x 10^3", "",
                                    "byte / sec", "microsec", "hour"};
static const char *const patterns[] = {"/^t/",           "!/^t/", "/o/",   "/e$/",
                                       "/^(zero|one)$/", "/eth/", "!/lo/", "/x/"};
static const char *const insts[] = {"[one]", "[two]",  "[five]", "[eth1]",
                                    "[lo]",  "[nope]", "[only]"};

/* Inside matchinst(...) PCP's lexer reads "/" as the start of a pattern,
 * and after an error there it stays in that state: no division and no
 * syntax error (1e) there. */
static int in_matchinst;

static void expr(int depth, int ok_missing);

static void operand(int depth, int ok_missing)
{
    unsigned r = rnd(depth > 0 ? 16 : 6);

    switch (r) {
    case 0:
    case 1:
        put(PICK(scalars));
        break;
    case 2:
    case 3:
        put(ok_missing ? PICK(sets) : sets[rnd(NSETS_ALWAYS)]);
        if (rnd(6) == 0)
            put(PICK(insts));
        break;
    case 4:
    case 5: {
        const char *c = PICK(consts);
        put(in_matchinst && strcmp(c, "1e") == 0 ? "1" : c); /* no error in there */
        break;
    }
    case 6: {
        static const char *const f[] = {"avg(", "count(", "delta(", "rate(", "instant(", "sum("};
        put(PICK(f));
        put(rnd(2) ? PICK(scalars) : PICK(sets));
        put(")");
        break;
    }
    case 7:
        put(rnd(2) ? "max(" : "min(");
        put(sets[rnd(NSETS_ALWAYS)]);
        put(")");
        break;
    case 8:
        put(rnd(3) ? "defined(" : "defined(no.");
        put(PICK(scalars));
        put(")");
        break;
    case 9:
        put("(");
        expr(depth - 1, ok_missing);
        put(")");
        break;
    case 10:
        if (rnd(2)) {
            put("-");
            operand(depth - 1, ok_missing);
        } else {
            put("(!"); /* "!" binds less tightly than arithmetic */
            put(PICK(not_operands));
            put(")");
        }
        break;
    case 11:
        put("rescale(");
        expr(depth - 1, ok_missing);
        put(", \"");
        put(PICK(units));
        put("\")");
        break;
    case 12:
        put("matchinst(");
        put(PICK(patterns));
        put(", ");
        in_matchinst++;
        expr(depth - 1, ok_missing);
        in_matchinst--;
        put(")");
        break;
    case 13:
        put("scalar(");
        if (rnd(2)) {
            put(sets[rnd(NSETS_ALWAYS)]);
        } else {
            put("matchinst(/^(one|two|three|eth0|only)$/, ");
            put(sets[rnd(NSETS_ALWAYS)]);
            put(")");
        }
        put(")");
        break;
    case 14: {
        /* a ternary: operands of one shape, the guard anything */
        int which = (int)rnd(3);
        put("(");
        expr(depth - 1, ok_missing);
        put(" ? ");
        for (int k = 0; k < 2; k++) {
            if (which == 0)
                put(PICK(scalars));
            else if (which == 1)
                put(PICK(consts));
            else
                put(sets[rnd(NSETS_ALWAYS)]);
            if (k == 0)
                put(" : ");
        }
        put(")");
        break;
    }
    default:
        put("instant(dm.string)");
    }
}

static void expr(int depth, int ok_missing)
{
    operand(depth, ok_missing);
    while (depth > 0 && rnd(3) == 0) {
        const char *op = PICK(binops);

        put(" ");
        put(in_matchinst && strcmp(op, "/") == 0 ? "*" : op);
        put(" ");
        operand(depth - 1, ok_missing);
    }
}

/* The operands of the matrices: constants of each kind, metrics of every
 * type, semantics and unit, with and without instances, strings. */
static const char *const grid[] = {
    "2",
    "2.5",
    "mkconst(2, type=64)",
    "mkconst(3, semantics=counter)",
    "mkconst(4, units=byte)",
    "mkconst(1.5, type=float, semantics=instant, units=sec)",
    "mkconst(3, units=Kbyte)",
    "mkconst(3, units=Mbyte)",
    "mkconst(3, units=millisec)",
    "mkconst(3, units=hour)",
    "mkconst(3, units=\"Kbyte/sec\")",
    "mkconst(3, type=64, units=sec)",
    "mkconst(1.5, units=count)",
    "dm.u32",
    "dm.i32",
    "dm.u64",
    "dm.i64",
    "dm.float",
    "dm.double",
    "dm.discrete",
    "dm.c.u32",
    "dm.c.u64",
    "dm.c.i32",
    "dm.c.float",
    "dm.c.sec",
    "dm.c.kbyte",
    "dm.c.msec",
    "dm.x.bytes",
    "dm.x.kbytes",
    "dm.x.mbps",
    "dm.x.msec",
    "dm.x.sec",
    "dm.x.count",
    "dm.x.kcount",
    "dm.x.dbytes",
    "dm.x.persec",
    "dm.ia.u32",
    "dm.ia.bytes",
    "dm.ia.count",
    "dm.ib.u32",
    "dm.string",
    "dm.ia.string",
    "dm.t.i32_none",
    "dm.t.i32_byte",
    "dm.t.i32_kbyte",
    "dm.t.i32_msec",
    "dm.t.i32_sec",
    "dm.t.i32_count",
    "dm.t.u32_none",
    "dm.t.u32_kbyte",
    "dm.t.u32_msec",
    "dm.t.i64_none",
    "dm.t.i64_byte",
    "dm.t.i64_sec",
    "dm.t.u64_none",
    "dm.t.u64_kbyte",
    "dm.t.u64_count",
    "dm.t.float_none",
    "dm.t.float_byte",
    "dm.t.float_msec",
    "dm.t.float_count",
    "dm.t.double_none",
    "dm.t.double_kbyte",
    "dm.t.double_sec",
    "dm.t.double_count",
};
#define NGRID (sizeof(grid) / sizeof(grid[0]))

/* Every unary form and function over the grid's operands and the metrics
 * that go missing or fail (not where PCP crashes: "(x)[instance]",
 * scalar() of no values, matchinst() of strings; "!" only where PCP's
 * values are defined, above). */
static void unary_matrix(void)
{
    static const char *const more[] = {"dm.missing", "dm.error",  "dm.mcounter", "dm.ie.u32",
                                       "dm.ic.u32",  "dm.ia.d64", "dm.c.down",   "dm.c.plain",
                                       "dm.c.usec",  "dm.aggr",   "dm.event",    "nosuch"};
    static const char *const fn[] = {"avg", "count", "defined", "delta", "instant",
                                     "max", "min",   "rate",    "sum"};
    static const char *const resc[] = {"Kbyte", "sec", "count x 10^3", "", "Mbyte/hour"};
    int n = 0;

    for (size_t i = 0; i < NGRID + sizeof(more) / sizeof(more[0]); i++) {
        const char *x = i < NGRID ? grid[i] : more[i - NGRID];
        int metric = strncmp(x, "dm.", 3) == 0 || strcmp(x, "nosuch") == 0;
        printf("u.m%d = -%s\n", n++, x);
        int empty = strcmp(x, "dm.missing") == 0 || strcmp(x, "dm.ie.u32") == 0;
        int strings = strcmp(x, "dm.ia.string") == 0;
        if (!empty) /* PCP crashes on scalar() of no values */
            printf("u.m%d = scalar(%s)\n", n++, x);
        for (size_t k = 0; k < sizeof(resc) / sizeof(resc[0]); k++)
            printf("u.m%d = rescale(%s, \"%s\")\n", n++, x, resc[k]);
        if (!strings) { /* PCP crashes on matchinst() of strings */
            printf("u.m%d = matchinst(/o/, %s)\n", n++, x);
            printf("u.m%d = matchinst(!/^t/, %s)\n", n++, x);
        }
        printf("u.m%d = %s ? 1 : 2\n", n++, x);
        if (metric && !strings)
            printf("u.m%d = %s[one]\n", n++, x);
        if (metric)
            for (size_t k = 0; k < sizeof(fn) / sizeof(fn[0]); k++)
                if ((k != 5 && k != 6) || strstr(x, "ia.") != NULL || strstr(x, "ib.") != NULL)
                    printf("u.m%d = %s(%s)\n", n++, fn[k], x);
    }
    for (size_t i = 0; i < sizeof(not_operands) / sizeof(not_operands[0]); i++)
        printf("u.m%d = !%s\n", n++, not_operands[i]);
}

/* Every binary operator k between every pair of the grid's operands. */
static void binary_matrix(unsigned k)
{
    int n = 0;

    for (size_t i = 0; i < NGRID; i++)
        for (size_t j = 0; j < NGRID; j++)
            printf("b.m%d = %s %s %s\n", n++, grid[i], binops[k], grid[j]);
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "matrix") == 0) {
        unsigned k = (unsigned)atoi(argv[2]);
        if (k >= sizeof(binops) / sizeof(binops[0]))
            return 2;
        binary_matrix(k);
        return 0;
    }
    if (argc == 2 && strcmp(argv[1], "unary") == 0) {
        unary_matrix();
        return 0;
    }
    if (argc != 3) {
        fprintf(stderr, "usage: gen_derived_exprs SEED COUNT | matrix OP | unary\n");
        return 2;
    }
    rng_state = strtoull(argv[1], NULL, 10);
    long count = atol(argv[2]);
    for (long n = 0; n < count; n++) {
        len = 0;
        out[0] = '\0';
        expr(1 + (int)rnd(3), 1);
        printf("g.m%ld = %s\n", n, out);
    }
    return 0;
}
