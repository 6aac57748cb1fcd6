/*
 * probe_helpers.c - differential "oracle" probe for libpcp's formatting and
 * conversion helpers.  The same source is compiled twice, against Debian's
 * libpcp (PCP 6.0.3) and against pmkit's libpcp; tests/oracle/compare.sh runs
 * both binaries and requires byte-identical stdout and stderr.  Any
 * difference is a pmkit bug.  Only <pcp/pmapi.h> and standard C are used.
 *
 * Covered: pmErrStr/_r, pmID_* and pmInDom_* build/decompose, pmIDStr/_r,
 * pmInDomStr/_r, pmTypeStr/_r, pmSemStr/_r, pmUnitsStr/_r, pmAtomStr/_r,
 * pmNumberStr/_r, pmEventFlagsStr/_r, pmExtractValue (valfmt x itype x otype
 * x value), pmConvScale (type x value x unit pair), pmPrintValue (type x
 * value x width), and the pmtimeval/pmtimespec arithmetic, reporting zones
 * with pmCtime and pmLocaltime, and the answers without a context of
 * pmSetMode, pmNewContextZone and the archive instance-domain calls.
 * Every output line names its input; pseudo-random inputs come from a
 * fixed-seed LCG.  "_r" calls with short buffers use a guarded
 * buffer and report the returned pointer, the text and any overrun.
 *
 * Build:  cc -std=c11 -D_DEFAULT_SOURCE -Wall -Wextra -Wpedantic -Werror \
 *             -o probe probe_helpers.c -lpcp        (or pmkit's library)
 * Run:    tests/oracle/compare.sh ./probe_debian ./probe_pmkit helpers
 */

/*
 * Inputs left out because the real libpcp crashes or reads/writes out of
 * bounds on them (found with valgrind, ASan and fork-per-case runs):
 *  - pmErrStr_r(code, buf, 0): writes buf[-1].
 *  - pmAtomStr_r(aggregate, buf, 0): strlen()s the untouched buffer.
 *  - pmAtomStr(NULL vbp) for PM_TYPE_EVENT / PM_TYPE_HIGHRES_EVENT: NULL deref.
 *  - pmConvScale with dimSpace 2 and scale pairs 0->4, 0->5, 0->6, 1->5, 1->6,
 *    2..6->6 (and similar pairs for |dim| >= 3): SIGFPE, the 64-bit scale
 *    factor overflows to 0 and is used as a divisor.  Skipped pairs are
 *    printed as "conv skipped".
 *  - pmPrintValue(DPTR, EVENT/HIGHRES_EVENT) on blocks that are not event
 *    arrays but whose first payload word (read as ea_nrecords) is > 0, or on
 *    an event array of the other layout: PCP reads records past the end of
 *    the block (pmkit stops at vlen; docs/compat.md).
 *  - pmExtractValue/pmPrintValue with a value block but valfmt INSITU: the
 *    pointer bits would be read as lval (non-deterministic).
 * Inputs kept although libpcp computes them through C undefined behaviour
 * (out-of-range float->int casts, signed overflow); the x86-64 results are
 * deterministic and pmkit must reproduce them: NaN/-inf/-1e300 and other
 * out-of-range FLOAT/DOUBLE -> 32/U32/64/U64 in pmExtractValue, integer
 * overflow in pmConvScale.  pmPrintValue formats event timestamps in local
 * time, so main() forces TZ=UTC.
 */
#include <pcp/pmapi.h>

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NELEM(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ------------------------------------------------------------------ */
/* small utilities                                                      */
/* ------------------------------------------------------------------ */

static uint64_t lcg_state = 0x2545F4914F6CDD1DULL;

static uint32_t lcg(void)
{
    lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(lcg_state >> 32);
}

static double dbits(uint64_t b)
{
    double d;
    memcpy(&d, &b, sizeof(d));
    return d;
}

static uint64_t dtobits(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof(b));
    return b;
}

static float fbits(uint32_t b)
{
    float f;
    memcpy(&f, &b, sizeof(f));
    return f;
}

static uint32_t ftobits(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof(b));
    return b;
}

/* step a finite double by n ulps (n may be negative), no libm needed */
static double ulpstep(double d, int n)
{
    uint64_t b = dtobits(d);
    int64_t mag = (int64_t)(b & 0x7fffffffffffffffULL);
    int neg = (b >> 63) != 0;
    int64_t sv = neg ? -mag : mag; /* monotonic integer image */
    sv += n;
    if (sv < 0)
        b = 0x8000000000000000ULL | (uint64_t)(-sv);
    else
        b = (uint64_t)sv;
    return dbits(b);
}

/* print bytes as a quoted string with C-style escapes */
static void pesc(const char *s, size_t n)
{
    size_t i;
    putchar('"');
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c < 0x20 || c >= 0x7f)
            printf("\\x%02x", c);
        else
            putchar(c);
    }
    putchar('"');
}

static void pstr(const char *s)
{
    if (s == NULL)
        fputs("(NULL)", stdout);
    else
        pesc(s, strlen(s));
}

static void phex(const void *p, size_t n)
{
    const unsigned char *c = p;
    size_t i;
    for (i = 0; i < n; i++)
        printf("%02x", c[i]);
}

/* guarded buffer for the _r functions with short lengths */
#define GUARD_SIZE 1024
#define GUARD_BYTE 0xA5
static char gbuf[GUARD_SIZE];

static char *gprep(void)
{
    memset(gbuf, GUARD_BYTE, sizeof(gbuf));
    return gbuf;
}

/* report result of an _r call that was given gbuf with length n */
static void greport(const char *ret, int n)
{
    int i, over = 0;
    if (ret == NULL)
        fputs("NULL", stdout);
    else if (ret != gbuf)
        fputs("other-pointer", stdout);
    else if (n == 0)
        fputs("buf(n=0)", stdout);
    else {
        size_t len = strnlen(gbuf, (size_t)n);
        if ((int)len == n) {
            fputs("unterminated:", stdout);
            phex(gbuf, len);
        } else
            pesc(gbuf, len);
    }
    for (i = n; i < GUARD_SIZE && i < n + 256; i++) {
        if ((unsigned char)gbuf[i] != GUARD_BYTE) {
            over = 1;
            break;
        }
    }
    if (over)
        fputs(" OVERRUN", stdout);
}

/* compare a static-buffer result with the _r result, print once */
static void pboth(const char *s, const char *r, const char *rbuf)
{
    pstr(s);
    if (r != rbuf)
        fputs(" r=other-pointer", stdout);
    else if (s == NULL || strcmp(s, r) != 0) {
        fputs(" r=", stdout);
        pstr(r);
    } else
        fputs(" r=same", stdout);
}

static const char *tname(int t)
{
    static char other[16];
    switch (t) {
    case PM_TYPE_NOSUPPORT:
        return "NOSUPPORT";
    case PM_TYPE_32:
        return "32";
    case PM_TYPE_U32:
        return "U32";
    case PM_TYPE_64:
        return "64";
    case PM_TYPE_U64:
        return "U64";
    case PM_TYPE_FLOAT:
        return "FLOAT";
    case PM_TYPE_DOUBLE:
        return "DOUBLE";
    case PM_TYPE_STRING:
        return "STRING";
    case PM_TYPE_AGGREGATE:
        return "AGGREGATE";
    case PM_TYPE_AGGREGATE_STATIC:
        return "AGG_STATIC";
    case PM_TYPE_EVENT:
        return "EVENT";
    case PM_TYPE_HIGHRES_EVENT:
        return "HR_EVENT";
    case PM_TYPE_UNKNOWN:
        return "UNKNOWN";
    default:
        snprintf(other, sizeof(other), "t%d", t);
        return other;
    }
}

static const char *fmtname(int f)
{
    static char other[16];
    switch (f) {
    case PM_VAL_INSITU:
        return "INSITU";
    case PM_VAL_DPTR:
        return "DPTR";
    case PM_VAL_SPTR:
        return "SPTR";
    default:
        snprintf(other, sizeof(other), "fmt%d", f);
        return other;
    }
}

static pmUnits mkunits(int ds, int dt, int dc, int ss, int st, int sc)
{
    pmUnits u;
    memset(&u, 0, sizeof(u));
    u.dimSpace = ds;
    u.dimTime = dt;
    u.dimCount = dc;
    u.scaleSpace = (unsigned)ss;
    u.scaleTime = (unsigned)st;
    u.scaleCount = sc;
    return u;
}

static void punits(const pmUnits *u)
{
    printf("(%d,%d,%d/%u,%u,%d)", u->dimSpace, u->dimTime, u->dimCount, (unsigned)u->scaleSpace,
           (unsigned)u->scaleTime, u->scaleCount);
}

/* value block with zeroed padding after the payload */
#define BLK_PAD 64
static pmValueBlock *mkblk(int vtype, const void *payload, size_t plen, int vlen)
{
    size_t need = PM_VAL_HDR_SIZE + plen;
    size_t cap;
    pmValueBlock *vb;
    if (vlen > 0 && (size_t)vlen > need)
        need = (size_t)vlen;
    cap = need + BLK_PAD;
    vb = calloc(1, cap);
    if (vb == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    vb->vtype = (unsigned)vtype;
    vb->vlen = (unsigned)(vlen >= 0 ? vlen : (int)(PM_VAL_HDR_SIZE + plen));
    if (plen)
        memcpy(vb->vbuf, payload, plen);
    return vb;
}

/* ------------------------------------------------------------------ */
/* 1. pmErrStr                                                          */
/* ------------------------------------------------------------------ */

static void err_one(int code)
{
    char s[PM_MAXERRMSGLEN + 1];
    char rb[PM_MAXERRMSGLEN];
    const char *p = pmErrStr(code);
    char *r;
    snprintf(s, sizeof(s), "%s", p ? p : "(NULL)");
    r = pmErrStr_r(code, rb, sizeof(rb));
    printf("errstr %d ", code);
    pboth(s, r, rb);
    putchar('\n');
}

static void sect_errstr(void)
{
    int c, i, n;
    int extra[] = {-22345,  -22344, -22346, -30000, -99999, INT_MIN,  INT_MIN + 1, -1000000, 12345,
                   INT_MAX, -21343, -21401, -22343, -65536, -1000001, 21344,       100000};
    int rcodes[] = {PM_ERR_NAME, -2, 0, -12352, -30000, -21345, PM_ERR_TEXT, 7};

    printf("## pmErrStr\n");
    for (c = -13500; c <= 20; c++)
        err_one(c);
    for (c = -21344; c >= -21400; c--)
        err_one(c);
    for (i = 0; i < NELEM(extra); i++)
        err_one(extra[i]);
    printf("## pmErrStr_r short buffers\n");
    for (i = 0; i < NELEM(rcodes); i++) {
        for (n = 1; n <= 40; n++) {
            char *b = gprep();
            char *r = pmErrStr_r(rcodes[i], b, n);
            printf("errstr_r %d n=%d ", rcodes[i], n);
            greport(r, n);
            putchar('\n');
        }
    }
}

/* ------------------------------------------------------------------ */
/* 2. pmID / pmInDom                                                    */
/* ------------------------------------------------------------------ */

static void id_show(const char *tag, pmID id)
{
    char s[64], rb[64];
    const char *p = pmIDStr(id);
    char *r;
    snprintf(s, sizeof(s), "%s", p ? p : "(NULL)");
    r = pmIDStr_r(id, rb, sizeof(rb));
    printf("pmid %s 0x%08x dom=%u clu=%u item=%u str=", tag, id, pmID_domain(id), pmID_cluster(id),
           pmID_item(id));
    pboth(s, r, rb);
    putchar('\n');
}

static void indom_show(const char *tag, pmInDom in)
{
    char s[64], rb[64];
    const char *p = pmInDomStr(in);
    char *r;
    snprintf(s, sizeof(s), "%s", p ? p : "(NULL)");
    r = pmInDomStr_r(in, rb, sizeof(rb));
    printf("indom %s 0x%08x dom=%u serial=%u str=", tag, in, pmInDom_domain(in),
           pmInDom_serial(in));
    pboth(s, r, rb);
    putchar('\n');
}

static void sect_ids(void)
{
    unsigned doms[] = {0,    1,    2,     60,          253,         254,        255,
                       256,  510,  511,   512,         513,         1023,       1024,
                       4095, 4096, 65535, 0x7fffffffu, 0x80000000u, 0xffffffffu};
    unsigned clus[] = {0, 1, 2, 60, 2047, 2048, 4095, 4096, 4097, 8191, 0x80000000u, 0xffffffffu};
    unsigned items[] = {0, 1, 2, 1022, 1023, 1024, 1025, 2047, 0x80000000u, 0xffffffffu};
    unsigned serials[] = {0,         1,         2,           1023,        4096,       0x3fffffu,
                          0x400000u, 0x400001u, 0x7fffffffu, 0x80000000u, 0xffffffffu};
    pmID fixed[] = {PM_ID_NULL,  0,           1,           0x80000000u, 0x80000001u, 0xbf400001u,
                    0x7fc00000u, 0x7fc0f000u, 0xffc0f000u, 0x7fffffffu, 0xfffffffeu, 0x7fc00001u,
                    0x7fc00400u, 0xffc00000u, 0x3f400402u, 0x00000804u, 0x7ffffc00u, 0xfffffc00u};
    pmInDom ifixed[] = {PM_INDOM_NULL, 0,           1,           0x80000000u, 0x80000001u,
                        0x3f400001u,   0x7fc00000u, 0x7fffffffu, 0xfffffffeu, 0xffc00000u};
    int i, j, k, n;
    char tag[96];

    printf("## pmID_build grid\n");
    for (i = 0; i < NELEM(doms); i++)
        for (j = 0; j < NELEM(clus); j++)
            for (k = 0; k < NELEM(items); k++) {
                pmID id = pmID_build(doms[i], clus[j], items[k]);
                snprintf(tag, sizeof(tag), "build(%u,%u,%u)", doms[i], clus[j], items[k]);
                id_show(tag, id);
            }
    printf("## pmIDStr fixed values\n");
    for (i = 0; i < NELEM(fixed); i++)
        id_show("fixed", fixed[i]);
    for (i = 0; i < 4096; i += 37) {
        /* dynamic roots (domain 511, item 0) and neighbours, with/without bit 31 */
        id_show("dynroot", pmID_build(511, (unsigned)i, 0));
        id_show("dynroot|b31", pmID_build(511, (unsigned)i, 0) | 0x80000000u);
        id_show("dyn-item1", pmID_build(511, (unsigned)i, 1));
        id_show("dom510-item0", pmID_build(510, (unsigned)i, 0));
    }
    printf("## pmIDStr lcg values\n");
    for (i = 0; i < 300; i++) {
        pmID id = lcg();
        id_show("lcg", id);
        id_show("lcg|b31", id | 0x80000000u);
    }

    printf("## pmInDom_build grid\n");
    for (i = 0; i < NELEM(doms); i++)
        for (j = 0; j < NELEM(serials); j++) {
            pmInDom in = pmInDom_build(doms[i], serials[j]);
            snprintf(tag, sizeof(tag), "build(%u,%u)", doms[i], serials[j]);
            indom_show(tag, in);
        }
    printf("## pmInDomStr fixed values\n");
    for (i = 0; i < NELEM(ifixed); i++)
        indom_show("fixed", ifixed[i]);
    printf("## pmInDomStr lcg values\n");
    for (i = 0; i < 200; i++) {
        pmInDom in = lcg();
        indom_show("lcg", in);
        indom_show("lcg|b31", in | 0x80000000u);
    }

    printf("## pmIDStr_r / pmInDomStr_r short buffers\n");
    {
        pmID sid[] = {PM_ID_NULL,  0x3f400402u /* 253.1.2 */,          0x7fc0f000u /* 60.*.* */,
                      0x7fffffffu, 0xbf400402u /* 253.1.2 + bit 31 */, 0};
        pmInDom sin[] = {PM_INDOM_NULL, 0x3f400001u, 0x7fffffffu, 0};
        for (i = 0; i < NELEM(sid); i++)
            for (n = 0; n <= 24; n++) {
                char *b = gprep();
                char *r = pmIDStr_r(sid[i], b, n);
                printf("pmidstr_r 0x%08x n=%d ", sid[i], n);
                greport(r, n);
                putchar('\n');
            }
        for (i = 0; i < NELEM(sin); i++)
            for (n = 0; n <= 24; n++) {
                char *b = gprep();
                char *r = pmInDomStr_r(sin[i], b, n);
                printf("indomstr_r 0x%08x n=%d ", sin[i], n);
                greport(r, n);
                putchar('\n');
            }
    }
}

/* ------------------------------------------------------------------ */
/* 3. pmTypeStr / pmSemStr                                              */
/* ------------------------------------------------------------------ */

static void sect_typesem(void)
{
    int t, n, i;
    char s[64], rb[64];
    int st[] = {8, 255, 77, -1, 0, 10};

    printf("## pmTypeStr\n");
    for (t = -5; t <= 300; t++) {
        const char *p = pmTypeStr(t);
        char *r;
        snprintf(s, sizeof(s), "%s", p ? p : "(NULL)");
        r = pmTypeStr_r(t, rb, sizeof(rb));
        printf("typestr %d ", t);
        pboth(s, r, rb);
        putchar('\n');
    }
    {
        int big[] = {INT_MIN, -256, -255, 511, 65535, 65536 + 255, INT_MAX};
        for (i = 0; i < NELEM(big); i++) {
            const char *p = pmTypeStr(big[i]);
            char *r;
            snprintf(s, sizeof(s), "%s", p ? p : "(NULL)");
            r = pmTypeStr_r(big[i], rb, sizeof(rb));
            printf("typestr %d ", big[i]);
            pboth(s, r, rb);
            putchar('\n');
        }
    }
    printf("## pmSemStr\n");
    for (t = -5; t <= 10; t++) {
        const char *p = pmSemStr(t);
        char *r;
        snprintf(s, sizeof(s), "%s", p ? p : "(NULL)");
        r = pmSemStr_r(t, rb, sizeof(rb));
        printf("semstr %d ", t);
        pboth(s, r, rb);
        putchar('\n');
    }
    printf("## pmTypeStr_r / pmSemStr_r short buffers\n");
    for (i = 0; i < NELEM(st); i++)
        for (n = 0; n <= 20; n++) {
            char *b = gprep();
            char *r = pmTypeStr_r(st[i], b, n);
            printf("typestr_r %d n=%d ", st[i], n);
            greport(r, n);
            putchar('\n');
        }
    for (t = 0; t <= 5; t++)
        for (n = 0; n <= 10; n++) {
            char *b = gprep();
            char *r = pmSemStr_r(t, b, n);
            printf("semstr_r %d n=%d ", t, n);
            greport(r, n);
            putchar('\n');
        }
}

/* Pointer rules of the non-_r helpers, within one thread: does a second
 * call with another argument return the same pointer, and does the first
 * answer still read as it did?  (PCP's pmTypeStr and pmSemStr return a
 * constant string per value; the others one buffer each.) */
static void ptr_rule(const char *name, const char *a, const char *b)
{
    printf("ptr %s %s\n", name, a == b ? "same" : "diff");
}

static void ptr_kept(const char *name, const char *p, const char *was)
{
    printf("kept %s %s\n", name, strcmp(p, was) == 0 ? "kept" : "overwritten");
}

#define PTR_PAIR(name, call1, call2)                                                               \
    do {                                                                                           \
        char was_[PM_MAXERRMSGLEN];                                                                \
        const char *p1_ = (call1);                                                                 \
        snprintf(was_, sizeof(was_), "%s", p1_);                                                   \
        const char *p2_ = (call2);                                                                 \
        ptr_rule(name, p1_, p2_);                                                                  \
        ptr_kept(name, p1_, was_);                                                                 \
    } while (0)

static void sect_pointers(void)
{
    int types[] = {PM_TYPE_NOSUPPORT, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, PM_TYPE_UNKNOWN, 11, 99};
    int sems[] = {0, PM_SEM_COUNTER, 2, PM_SEM_INSTANT, PM_SEM_DISCRETE, 5};
    pmUnits u1 = {.dimSpace = 1, .scaleSpace = PM_SPACE_KBYTE}, u2 = {.dimTime = 1};
    pmAtomValue a1 = {.l = 1}, a2 = {.l = 2};

    printf("## pointer rules\n");
    for (int i = 0; i < NELEM(types); i++)
        for (int j = 0; j < NELEM(types); j++) {
            char label[64];
            snprintf(label, sizeof(label), "pmTypeStr(%d,%d)", types[i], types[j]);
            PTR_PAIR(label, pmTypeStr(types[i]), pmTypeStr(types[j]));
        }
    for (int i = 0; i < NELEM(sems); i++)
        for (int j = 0; j < NELEM(sems); j++) {
            char label[64];
            snprintf(label, sizeof(label), "pmSemStr(%d,%d)", sems[i], sems[j]);
            PTR_PAIR(label, pmSemStr(sems[i]), pmSemStr(sems[j]));
        }
    PTR_PAIR("pmIDStr", pmIDStr(pmID_build(1, 2, 3)), pmIDStr(pmID_build(4, 5, 6)));
    PTR_PAIR("pmInDomStr", pmInDomStr(pmInDom_build(1, 2)), pmInDomStr(pmInDom_build(3, 4)));
    PTR_PAIR("pmUnitsStr", pmUnitsStr(&u1), pmUnitsStr(&u2));
    PTR_PAIR("pmAtomStr", pmAtomStr(&a1, PM_TYPE_32), pmAtomStr(&a2, PM_TYPE_32));
    PTR_PAIR("pmNumberStr", pmNumberStr(1.0), pmNumberStr(2.5e6));
    PTR_PAIR("pmEventFlagsStr", pmEventFlagsStr(PM_EVENT_FLAG_POINT),
             pmEventFlagsStr(PM_EVENT_FLAG_START));
    PTR_PAIR("pmErrStr", pmErrStr(PM_ERR_PMNS), pmErrStr(PM_ERR_NAME));
    PTR_PAIR("pmErrStr(errno)", pmErrStr(-ENOENT), pmErrStr(-EINVAL));
    PTR_PAIR("pmErrStr(unknown)", pmErrStr(-123456), pmErrStr(-123457));
}

/* ------------------------------------------------------------------ */
/* 4. pmUnitsStr                                                        */
/* ------------------------------------------------------------------ */

static void units_one(const pmUnits *u)
{
    char s[128], rb[128];
    const char *p = pmUnitsStr(u);
    char *r;
    snprintf(s, sizeof(s), "%s", p ? p : "(NULL)");
    r = pmUnitsStr_r(u, rb, sizeof(rb));
    fputs("units ", stdout);
    punits(u);
    putchar(' ');
    pboth(s, r, rb);
    putchar('\n');
}

static void sect_units(void)
{
    int ds, dt, dc, ss, st, sc, i, k;
    int scales[][3] = {{0, 0, 0},    {PM_SPACE_KBYTE, PM_TIME_SEC, 0},
                       {15, 15, -8}, {0, 0, 1},
                       {0, 0, -3},   {9, 6, 7}};
    int dims[][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, -1, 1}, {0, 0, 0}, {-2, 3, -1}};

    printf("## pmUnitsStr dimension grid\n");
    for (k = 0; k < NELEM(scales); k++)
        for (ds = -8; ds <= 7; ds++)
            for (dt = -8; dt <= 7; dt++)
                for (dc = -8; dc <= 7; dc++) {
                    pmUnits u = mkunits(ds, dt, dc, scales[k][0], scales[k][1], scales[k][2]);
                    units_one(&u);
                }
    printf("## pmUnitsStr scale grid\n");
    for (k = 0; k < NELEM(dims); k++)
        for (ss = 0; ss <= 15; ss++)
            for (st = 0; st <= 15; st++)
                for (sc = -8; sc <= 7; sc++) {
                    pmUnits u = mkunits(dims[k][0], dims[k][1], dims[k][2], ss, st, sc);
                    units_one(&u);
                }
    printf("## pmUnitsStr_r buflen\n");
    {
        pmUnits us[] = {mkunits(0, 0, 0, 0, 0, 0),     mkunits(1, 0, 0, 0, 0, 0),
                        mkunits(7, 7, 7, 15, 15, -8),  mkunits(-8, -8, -8, 15, 15, -8),
                        mkunits(7, -8, 7, 15, 15, -8), mkunits(-8, 7, -8, 12, 13, -7),
                        mkunits(0, 0, 0, 0, 0, -8),    mkunits(1, -1, 0, 2, 3, 0)};
        int lens[] = {0, 1, 10, 40, 58, 59, 60, 61, 64};
        for (i = 0; i < NELEM(us); i++)
            for (k = 0; k < NELEM(lens); k++) {
                char *b = gprep();
                char *r = pmUnitsStr_r(&us[i], b, lens[k]);
                fputs("unitsstr_r ", stdout);
                punits(&us[i]);
                printf(" n=%d ", lens[k]);
                greport(r, lens[k]);
                putchar('\n');
            }
    }
}

/* ------------------------------------------------------------------ */
/* 5. pmAtomStr                                                         */
/* ------------------------------------------------------------------ */

static void atom_one(const char *label, const pmAtomValue *a, int type)
{
    char s[256], rb[256];
    const char *p = pmAtomStr(a, type);
    char *r;
    snprintf(s, sizeof(s), "%s", p ? p : "(NULL)");
    r = pmAtomStr_r(a, type, rb, sizeof(rb));
    printf("atom %s type=%d ", label, type);
    pboth(s, r, rb);
    putchar('\n');
}

/* event array of the EVENT (8-byte records header) layout */
static pmValueBlock *mkevent(int type, int nrec, int nbuilt)
{
    unsigned char *buf = calloc(1, 512);
    pmValueBlock *vb = (pmValueBlock *)buf;
    int k, off = 8;
    if (buf == NULL)
        exit(2);
    memcpy(buf + 4, &nrec, 4);
    for (k = 0; k < nbuilt; k++) {
        if (type == PM_TYPE_EVENT) {
            int32_t sec = 3600 * k + 61, usec = 1000 * k + 7;
            unsigned int flags = (unsigned)k;
            int np = 0;
            memcpy(buf + off, &sec, 4);
            memcpy(buf + off + 4, &usec, 4);
            memcpy(buf + off + 8, &flags, 4);
            memcpy(buf + off + 12, &np, 4);
            off += 16;
        } else {
            int64_t sec = 3600 * k + 61, nsec = 1000 * k + 7;
            unsigned int flags = (unsigned)k;
            int np = 0;
            memcpy(buf + off, &sec, 8);
            memcpy(buf + off + 8, &nsec, 8);
            memcpy(buf + off + 16, &flags, 4);
            memcpy(buf + off + 20, &np, 4);
            off += 24;
        }
    }
    /* a well-formed event array: its header covers the records built */
    vb->vtype = (unsigned)type;
    vb->vlen = (unsigned)off;
    vb->vtype = (unsigned)type;
    vb->vlen = (unsigned)(off > 8 ? off : 8);
    return vb;
}

static void sect_atom(void)
{
    pmAtomValue a;
    char label[128];
    int i, t, n, k;
    static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    int numtypes[] = {-2, -1, 0, 1, 2, 3, 4, 5, 11, 12, 42, 255, 256, -100};
    /* integer-ish 64-bit patterns */
    uint64_t ipat[] = {0,
                       1,
                       0xffffffffffffffffULL,
                       0x80000000ULL,
                       0xffffffff80000000ULL,
                       0x7fffffffULL,
                       0xffffffffULL,
                       0x8000000000000000ULL,
                       0x7fffffffffffffffULL,
                       42,
                       (uint64_t)-42,
                       0x100000000ULL,
                       0xffffffff00000000ULL,
                       1234567890123ULL,
                       (uint64_t)-1234567890123LL,
                       0x00000000deadbeefULL,
                       0xdeadbeef00000000ULL};
    double dvals[] = {0.0,
                      1.0,
                      -1.0,
                      0.1,
                      1.0 / 3.0,
                      1e-300,
                      1e300,
                      12345678.9,
                      0.5,
                      999999.5,
                      1e-5,
                      2.5e-7,
                      123456789012345678.0,
                      -2.75,
                      9.999995,
                      9.9999995,
                      0.0000015,
                      1.7976931348623157e308};
    uint64_t dspecial[] = {0x8000000000000000ULL /* -0 */,   0x0000000000000001ULL /* denorm */,
                           0x7ff0000000000000ULL /* inf */,  0xfff0000000000000ULL /* -inf */,
                           0x7ff8000000000000ULL /* nan */,  0xfff8000000000000ULL /* -nan */,
                           0x7ff0000000000001ULL /* snan */, 0x000fffffffffffffULL};
    float fvals[] = {0.0f,        1.5f,  0.1f,   3.25f, -2.75f, 3.4028235e38f, 1.17549435e-38f,
                     16777217.0f, 1e10f, -1e-10f};
    uint32_t fspecial[] = {0x80000000u, 0x00000001u, 0x7f800000u, 0xff800000u,
                           0x7fc00000u, 0xffc00000u, 0x7f800001u};

    printf("## pmAtomStr integer patterns\n");
    for (i = 0; i < NELEM(ipat); i++)
        for (t = 0; t < NELEM(numtypes); t++) {
            memset(&a, 0, sizeof(a));
            a.ull = ipat[i];
            snprintf(label, sizeof(label), "ull=0x%016llx", (unsigned long long)ipat[i]);
            atom_one(label, &a, numtypes[t]);
        }
    printf("## pmAtomStr doubles\n");
    for (i = 0; i < NELEM(dvals) + NELEM(dspecial); i++) {
        memset(&a, 0, sizeof(a));
        a.d = i < NELEM(dvals) ? dvals[i] : dbits(dspecial[i - NELEM(dvals)]);
        snprintf(label, sizeof(label), "d=%.17g/0x%016llx", a.d, (unsigned long long)a.ull);
        for (t = 0; t < NELEM(numtypes); t++)
            atom_one(label, &a, numtypes[t]);
    }
    printf("## pmAtomStr floats\n");
    for (i = 0; i < NELEM(fvals) + NELEM(fspecial); i++) {
        memset(&a, 0, sizeof(a));
        a.f = i < NELEM(fvals) ? fvals[i] : fbits(fspecial[i - NELEM(fvals)]);
        snprintf(label, sizeof(label), "f=%.9g/0x%08x", (double)a.f, ftobits(a.f));
        atom_one(label, &a, PM_TYPE_FLOAT);
        atom_one(label, &a, PM_TYPE_DOUBLE);
        atom_one(label, &a, PM_TYPE_32);
        atom_one(label, &a, PM_TYPE_U64);
    }

    printf("## pmAtomStr strings\n");
    {
        char str[64];
        const char *specials[] = {"a\"b",     "tab\there",   "nl\nx", "\xe9t\xe9",
                                  "\x01\x7f", "back\\slash", "%s%d%n"};
        for (n = 0; n <= 45; n++) {
            memcpy(str, digits, (size_t)n);
            str[n] = '\0';
            memset(&a, 0, sizeof(a));
            a.cp = str;
            snprintf(label, sizeof(label), "string len=%d", n);
            atom_one(label, &a, PM_TYPE_STRING);
        }
        memset(&a, 0, sizeof(a));
        a.cp = NULL;
        atom_one("string NULL", &a, PM_TYPE_STRING);
        for (i = 0; i < NELEM(specials); i++) {
            a.cp = (char *)specials[i];
            snprintf(label, sizeof(label), "string special%d", i);
            atom_one(label, &a, PM_TYPE_STRING);
        }
    }

    printf("## pmAtomStr aggregates\n");
    {
        unsigned char pay[32];
        int vtypes[] = {PM_TYPE_AGGREGATE, PM_TYPE_AGGREGATE_STATIC, 0,
                        PM_TYPE_STRING,    PM_TYPE_UNKNOWN,          42,
                        PM_TYPE_EVENT};
        for (k = 0; k < 32; k++)
            pay[k] = (unsigned char)(0x03 + k * 0x11);
        for (n = 0; n <= 20; n++) {
            pmValueBlock *vb = mkblk(PM_TYPE_AGGREGATE, pay, (size_t)n, -1);
            memset(&a, 0, sizeof(a));
            a.vbp = vb;
            snprintf(label, sizeof(label), "agg len=%d", n);
            atom_one(label, &a, PM_TYPE_AGGREGATE);
            atom_one(label, &a, PM_TYPE_AGGREGATE_STATIC);
            free(vb);
        }
        for (i = 0; i < NELEM(vtypes); i++) {
            for (n = 3; n <= 16; n += 13) {
                pmValueBlock *vb = mkblk(vtypes[i], pay, (size_t)n, -1);
                memset(&a, 0, sizeof(a));
                a.vbp = vb;
                snprintf(label, sizeof(label), "agg vtype=%d len=%d", vtypes[i], n);
                atom_one(label, &a, PM_TYPE_AGGREGATE);
                atom_one(label, &a, PM_TYPE_AGGREGATE_STATIC);
                free(vb);
            }
        }
        memset(&a, 0, sizeof(a));
        a.vbp = NULL;
        atom_one("agg NULL", &a, PM_TYPE_AGGREGATE);
        atom_one("agg NULL", &a, PM_TYPE_AGGREGATE_STATIC);
    }

    printf("## pmAtomStr events\n");
    {
        int nrecs[] = {0, 1, 2, 3, 7, -1, -2, 1000000, INT_MAX, INT_MIN};
        for (i = 0; i < NELEM(nrecs); i++) {
            pmValueBlock *vb = mkevent(PM_TYPE_EVENT, nrecs[i], 0);
            memset(&a, 0, sizeof(a));
            a.vbp = vb;
            snprintf(label, sizeof(label), "event nrecords=%d", nrecs[i]);
            atom_one(label, &a, PM_TYPE_EVENT);
            atom_one(label, &a, PM_TYPE_HIGHRES_EVENT);
            free(vb);
        }
    }

    printf("## pmAtomStr_r short buffers\n");
    {
        pmValueBlock *agg, *ev;
        unsigned char pay[16];
        char longstr[] = "0123456789012345678901234567890123456789";
        pmAtomValue av[8];
        int avt[8];
        const char *avl[8];
        for (k = 0; k < 16; k++)
            pay[k] = (unsigned char)(0xa0 + k);
        agg = mkblk(PM_TYPE_AGGREGATE, pay, 16, -1);
        ev = mkevent(PM_TYPE_EVENT, 2, 0);
        memset(av, 0, sizeof(av));
        av[0].ll = -1234567890123LL;
        avt[0] = PM_TYPE_64;
        avl[0] = "64:-1234567890123";
        av[1].d = 1.0 / 3.0;
        avt[1] = PM_TYPE_DOUBLE;
        avl[1] = "DOUBLE:1/3";
        av[2].cp = longstr;
        avt[2] = PM_TYPE_STRING;
        avl[2] = "STRING:40chars";
        av[3].vbp = agg;
        avt[3] = PM_TYPE_AGGREGATE;
        avl[3] = "AGGREGATE:16bytes";
        av[4].vbp = ev;
        avt[4] = PM_TYPE_EVENT;
        avl[4] = "EVENT:2records";
        av[5].l = 0;
        avt[5] = 42;
        avl[5] = "type42";
        av[6].cp = NULL;
        avt[6] = PM_TYPE_STRING;
        avl[6] = "STRING:NULL";
        av[7].f = -2.5f;
        avt[7] = PM_TYPE_FLOAT;
        avl[7] = "FLOAT:-2.5";
        for (i = 0; i < 8; i++)
            for (n = 0; n <= 64; n++) {
                char *b;
                char *r;
                /* n=0 with an aggregate: libpcp strlen()s the untouched buffer */
                if (n == 0 && avt[i] == PM_TYPE_AGGREGATE)
                    continue;
                b = gprep();
                r = pmAtomStr_r(&av[i], avt[i], b, n);
                printf("atomstr_r %s n=%d ", avl[i], n);
                greport(r, n);
                putchar('\n');
            }
        free(agg);
        free(ev);
    }
}

/* ------------------------------------------------------------------ */
/* 6. pmNumberStr                                                       */
/* ------------------------------------------------------------------ */

static void number_one(const char *tag, double v)
{
    char s[64], rb[64];
    const char *p = pmNumberStr(v);
    char *r;
    snprintf(s, sizeof(s), "%s", p ? p : "(NULL)");
    r = pmNumberStr_r(v, rb, sizeof(rb));
    printf("number %s %.17g/0x%016llx ", tag, v, (unsigned long long)dtobits(v));
    pboth(s, r, rb);
    putchar('\n');
}

static void sect_number(void)
{
    double bounds[] = {0.005,
                       999.995,
                       999995.0,
                       999995e3,
                       999995e6,
                       999995e9,
                       -0.005,
                       -99.995,
                       -99995.0,
                       -99995e3,
                       -99995e6,
                       -99995e9,
                       0.0049999999999999,
                       99.995,
                       9.995,
                       0.995,
                       -9.995,
                       -0.995,
                       999.99,
                       1000.0,
                       1e6,
                       1e9,
                       1e12,
                       1e15,
                       -1e5,
                       -1e8,
                       -1e11,
                       -1e14,
                       0.0,
                       1.0,
                       -1.0,
                       0.015,
                       0.025,
                       0.125,
                       2.675,
                       1.005,
                       12.345};
    double pw;
    int i, s, e, n;

    printf("## pmNumberStr boundaries\n");
    for (i = 0; i < NELEM(bounds); i++)
        for (s = -3; s <= 3; s++) {
            char tag[32];
            snprintf(tag, sizeof(tag), "b%d%+d", i, s);
            number_one(tag, ulpstep(bounds[i], s));
        }
    printf("## pmNumberStr powers of ten\n");
    pw = 1e-6;
    for (e = -6; e <= 18; e++) {
        char tag[32];
        double v = pw;
        snprintf(tag, sizeof(tag), "1e%d", e);
        /* use the literal-accurate value for each power */
        {
            char lit[16];
            snprintf(lit, sizeof(lit), "1e%d", e);
            v = strtod(lit, NULL);
        }
        number_one(tag, v);
        number_one(tag, -v);
        number_one(tag, v * 5.0);
        number_one(tag, -v * 5.0);
        number_one(tag, v * 9.99995);
        number_one(tag, -v * 9.99995);
        pw *= 10.0;
    }
    printf("## pmNumberStr specials\n");
    number_one("negzero", dbits(0x8000000000000000ULL));
    number_one("inf", dbits(0x7ff0000000000000ULL));
    number_one("-inf", dbits(0xfff0000000000000ULL));
    number_one("nan", dbits(0x7ff8000000000000ULL));
    number_one("-nan", dbits(0xfff8000000000000ULL));
    number_one("dblmax", 1.7976931348623157e308);
    number_one("-dblmax", -1.7976931348623157e308);
    number_one("denorm", dbits(1));
    number_one("-denorm", dbits(0x8000000000000001ULL));
    printf("## pmNumberStr lcg values\n");
    for (i = 0; i < 400; i++) {
        uint32_t m = lcg();
        uint32_t x = lcg();
        int ex = (int)(x % 24) - 5; /* 10^-5 .. 10^18 */
        char lit[48];
        double v;
        snprintf(lit, sizeof(lit), "%s%u.%05ue%d", (x & 0x80000000u) ? "-" : "", m % 10u,
                 (m / 10u) % 100000u, ex);
        v = strtod(lit, NULL);
        number_one(lit, v);
    }
    printf("## pmNumberStr_r short buffers\n");
    {
        double sv[] = {0.0, -12345.0, 999.995, 1e15, -1e14, 5.5};
        for (i = 0; i < NELEM(sv); i++)
            for (n = 0; n <= 10; n++) {
                char *b = gprep();
                char *r = pmNumberStr_r(sv[i], b, n);
                printf("numberstr_r %.17g n=%d ", sv[i], n);
                greport(r, n);
                putchar('\n');
            }
    }
}

/* ------------------------------------------------------------------ */
/* 7. pmEventFlagsStr                                                   */
/* ------------------------------------------------------------------ */

static void flags_one(int f)
{
    char s[128], rb[128];
    const char *p = pmEventFlagsStr(f);
    char *r;
    snprintf(s, sizeof(s), "%s", p ? p : "(NULL)");
    r = pmEventFlagsStr_r(f, rb, sizeof(rb));
    printf("eventflags 0x%08x ", (unsigned)f);
    pboth(s, r, rb);
    putchar('\n');
}

static void sect_flags(void)
{
    int f, i, n;
    unsigned extra[] = {0x40000000u, 0x7fffffffu, 0xffffffffu, 0x80000020u, 0xc0000000u,
                        0x100u,      0x20u,       0x3fu,       0x1eu};
    printf("## pmEventFlagsStr\n");
    for (f = 0; f <= 64; f++)
        flags_one(f);
    for (f = 0; f <= 32; f++)
        flags_one((int)(0x80000000u | (unsigned)f));
    for (i = 0; i < NELEM(extra); i++)
        flags_one((int)extra[i]);
    for (i = 0; i < 31; i++)
        flags_one((int)(1u << i));
    printf("## pmEventFlagsStr_r short buffers\n");
    {
        unsigned fv[] = {0, 1, 0x1f, 0x80000000u, 0x10};
        for (i = 0; i < NELEM(fv); i++)
            for (n = 0; n <= 30; n++) {
                char *b = gprep();
                char *r = pmEventFlagsStr_r((int)fv[i], b, n);
                printf("eventflags_r 0x%08x n=%d ", fv[i], n);
                greport(r, n);
                putchar('\n');
            }
    }
}

/* ------------------------------------------------------------------ */
/* 8. pmExtractValue                                                    */
/* ------------------------------------------------------------------ */

static const int alltypes[] = {-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 255};
/* note: -1..10 and 255 is 13 codes */

/* format one pmExtractValue outcome into out (deterministic) */
static void extract_fmt(int sts, pmAtomValue *a, int otype, char *out, size_t outlen)
{
    char ab[128];
    if (sts < 0) {
        snprintf(out, outlen, "E%d", sts);
        return;
    }
    switch (otype) {
    case PM_TYPE_32:
    case PM_TYPE_U32:
    case PM_TYPE_64:
    case PM_TYPE_U64:
    case PM_TYPE_FLOAT:
    case PM_TYPE_DOUBLE:
        pmAtomStr_r(a, otype, ab, sizeof(ab));
        snprintf(out, outlen, "%s/0x%llx%s", ab, (unsigned long long)a->ull, sts ? "(sts>0)" : "");
        break;
    case PM_TYPE_STRING: {
        /* capture full string, then free as PCP requires */
        size_t len = a->cp ? strlen(a->cp) : 0;
        size_t o = 0, i;
        o += (size_t)snprintf(out + o, outlen - o, "%s len=%zu:", a->cp ? "str" : "NULL-cp", len);
        for (i = 0; a->cp && i < len && o + 5 < outlen; i++) {
            unsigned char c = (unsigned char)a->cp[i];
            if (c < 0x20 || c >= 0x7f || c == '\\' || c == '|')
                o += (size_t)snprintf(out + o, outlen - o, "\\x%02x", c);
            else
                out[o++] = (char)c, out[o] = '\0';
        }
        free(a->cp);
        break;
    }
    case PM_TYPE_AGGREGATE: {
        size_t o = 0, i, plen;
        if (a->vbp == NULL) {
            snprintf(out, outlen, "NULL-vbp");
            break;
        }
        pmAtomStr_r(a, otype, ab, sizeof(ab));
        plen = a->vbp->vlen >= PM_VAL_HDR_SIZE ? a->vbp->vlen - PM_VAL_HDR_SIZE : 0;
        o += (size_t)snprintf(out + o, outlen - o, "%s {vtype=%u vlen=%u ", ab,
                              (unsigned)a->vbp->vtype, (unsigned)a->vbp->vlen);
        for (i = 0; i < plen && o + 4 < outlen; i++)
            o += (size_t)snprintf(out + o, outlen - o, "%02x", (unsigned char)a->vbp->vbuf[i]);
        snprintf(out + o, outlen - o, "}");
        free(a->vbp);
        break;
    }
    default:
        /* never observed with the real library */
        snprintf(out, outlen, "OK?sts=%d", sts);
        break;
    }
}

static void extract_row(const char *label, int valfmt, pmValue *v, int itype)
{
    static char res[NELEM(alltypes)][1024];
    int k, allsame = 1;
    for (k = 0; k < NELEM(alltypes); k++) {
        pmAtomValue a;
        int sts;
        memset(&a, 0x5a, sizeof(a));
        sts = pmExtractValue(valfmt, v, itype, &a, alltypes[k]);
        extract_fmt(sts, &a, alltypes[k], res[k], sizeof(res[k]));
        if (k > 0 && strcmp(res[k], res[0]) != 0)
            allsame = 0;
    }
    printf("extract %s %s it=%s:", fmtname(valfmt), label, tname(itype));
    if (allsame && res[0][0] == 'E')
        printf(" all=%s\n", res[0]);
    else {
        for (k = 0; k < NELEM(alltypes); k++)
            printf(" %s=%s", tname(alltypes[k]), res[k]);
        putchar('\n');
    }
}

static const uint32_t insitu_vals[] = {0,
                                       1,
                                       0xffffffffu,
                                       2,
                                       0xfffffffeu,
                                       1000,
                                       0x80000000u,
                                       0x7fffffffu,
                                       0x3fc00000u /* 1.5f */,
                                       0xc0300000u /* -2.75f */,
                                       0x7f800000u /* inf */,
                                       0xff800000u /* -inf */,
                                       0x7fc00000u /* nan */,
                                       0xffc00000u /* -nan */,
                                       0x4effffffu,
                                       0x4f000000u /* 2^31 */,
                                       0xcf000000u /* -2^31 */,
                                       0xcf000001u,
                                       0x4f7fffffu,
                                       0x4f800000u /* 2^32 */,
                                       0x5effffffu,
                                       0x5f000000u /* 2^63 */,
                                       0xdf000000u /* -2^63 */,
                                       0xdf000001u,
                                       0x5f7fffffu,
                                       0x5f800000u /* 2^64 */,
                                       0x00000001u /* denorm */,
                                       0x7f7fffffu /* FLT_MAX */,
                                       0x3f000000u /* 0.5 */,
                                       0xbf000000u /* -0.5 */,
                                       0x40490fdbu /* pi */,
                                       5,
                                       42};

static const int64_t i64_vals[] = {0,
                                   -1,
                                   INT64_MIN,
                                   INT64_MAX,
                                   2147483647LL,
                                   2147483648LL,
                                   4294967295LL,
                                   4294967296LL,
                                   -2147483648LL,
                                   -2147483649LL,
                                   -5000000000LL,
                                   3000000000LL,
                                   1,
                                   42};

static const uint64_t u64_vals[] = {
    UINT64_MAX, 0x8000000000000000ULL, 0x7fffffffffffffffULL, 0x100000000ULL, 0,
    1,          0xffffffffULL,         0x80000000ULL,         0x7fffffffULL};

/* doubles given as bit patterns so NaN signs are exact */
static double fp_val(int i, int *count)
{
    static const double lit[] = {0.0,
                                 0.5,
                                 -0.5,
                                 -2.75,
                                 2.75,
                                 1.0,
                                 -1.0,
                                 2147483646.5,
                                 2147483647.0,
                                 2147483647.5,
                                 2147483648.0,
                                 -2147483647.0,
                                 -2147483648.0,
                                 -2147483648.5,
                                 -2147483649.0,
                                 4294967294.5,
                                 4294967295.0,
                                 4294967295.5,
                                 4294967296.0,
                                 9.2e18,
                                 9.3e18,
                                 -9.2e18,
                                 -9.3e18,
                                 9223372036854775807.0,
                                 -9223372036854775808.0,
                                 1.8e19,
                                 1.9e19,
                                 18446744073709551615.0,
                                 1e300,
                                 -1e300,
                                 16777217.0,
                                 1e-310};
    static const uint64_t sp[] = {0x8000000000000000ULL, 0x7ff0000000000000ULL,
                                  0xfff0000000000000ULL, 0x7ff8000000000000ULL,
                                  0xfff8000000000000ULL};
    *count = NELEM(lit) + NELEM(sp);
    if (i < NELEM(lit))
        return lit[i];
    return dbits(sp[i - NELEM(lit)]);
}

/* one block value: run all pointer valfmts and itypes */
static void extract_block(const char *desc, int natural, const void *pay, size_t plen)
{
    int fmts[] = {PM_VAL_DPTR, PM_VAL_SPTR, 3, -1};
    int mismatch;
    int variant, f, t;
    char label[512];
    int natlen = (int)(PM_VAL_HDR_SIZE + plen);

    switch (natural) {
    case PM_TYPE_64:
        mismatch = PM_TYPE_U64;
        break;
    case PM_TYPE_U64:
        mismatch = PM_TYPE_64;
        break;
    case PM_TYPE_DOUBLE:
        mismatch = PM_TYPE_64;
        break;
    case PM_TYPE_FLOAT:
        mismatch = PM_TYPE_DOUBLE;
        break;
    case PM_TYPE_STRING:
        mismatch = PM_TYPE_AGGREGATE;
        break;
    default:
        mismatch = PM_TYPE_STRING;
        break;
    }
    for (variant = 0; variant < 5; variant++) {
        int vtype = natural, vlen = natlen;
        pmValueBlock *vb;
        pmValue v;
        if (variant == 1)
            vtype = 0;
        else if (variant == 2)
            vtype = mismatch;
        else if (variant == 3)
            vlen = natlen - 1;
        else if (variant == 4)
            vlen = natlen + 1;
        if (vlen < PM_VAL_HDR_SIZE)
            continue;
        vb = mkblk(vtype, pay, plen, vlen);
        memset(&v, 0, sizeof(v));
        v.inst = 0;
        v.value.pval = vb;
        snprintf(label, sizeof(label), "blk[%s vt=%d vlen=%d]", desc, vtype, vlen);
        for (f = 0; f < NELEM(fmts); f++)
            for (t = 0; t < NELEM(alltypes); t++)
                extract_row(label, fmts[f], &v, alltypes[t]);
        free(vb);
    }
}

static void sect_extract(void)
{
    int i, f, t, n;
    char label[512];
    int ifmts[] = {PM_VAL_INSITU, 3, -1};

    printf("## pmExtractValue insitu\n");
    for (i = 0; i < NELEM(insitu_vals); i++) {
        pmValue v;
        memset(&v, 0, sizeof(v));
        v.inst = 0;
        v.value.lval = (int)insitu_vals[i];
        snprintf(label, sizeof(label), "lval=0x%08x(%d)", insitu_vals[i], (int)insitu_vals[i]);
        for (f = 0; f < NELEM(ifmts); f++)
            for (t = 0; t < NELEM(alltypes); t++)
                extract_row(label, ifmts[f], &v, alltypes[t]);
        /* a few odd itypes */
        extract_row(label, PM_VAL_INSITU, &v, 42);
        extract_row(label, PM_VAL_INSITU, &v, -2);
    }

    printf("## pmExtractValue 64-bit blocks\n");
    for (i = 0; i < NELEM(i64_vals); i++) {
        char d[64];
        snprintf(d, sizeof(d), "i64 %lld", (long long)i64_vals[i]);
        extract_block(d, PM_TYPE_64, &i64_vals[i], 8);
    }
    printf("## pmExtractValue U64 blocks\n");
    for (i = 0; i < NELEM(u64_vals); i++) {
        char d[64];
        snprintf(d, sizeof(d), "u64 %llu", (unsigned long long)u64_vals[i]);
        extract_block(d, PM_TYPE_U64, &u64_vals[i], 8);
    }
    printf("## pmExtractValue DOUBLE blocks\n");
    {
        int cnt;
        fp_val(0, &cnt);
        for (i = 0; i < cnt; i++) {
            double dv = fp_val(i, &cnt);
            char d[96];
            snprintf(d, sizeof(d), "dbl %.17g/0x%016llx", dv, (unsigned long long)dtobits(dv));
            extract_block(d, PM_TYPE_DOUBLE, &dv, 8);
        }
        printf("## pmExtractValue FLOAT blocks\n");
        for (i = 0; i < cnt; i++) {
            float fv = (float)fp_val(i, &cnt);
            char d[96];
            snprintf(d, sizeof(d), "flt %.9g/0x%08x", (double)fv, ftobits(fv));
            extract_block(d, PM_TYPE_FLOAT, &fv, 4);
        }
    }
    printf("## pmExtractValue STRING blocks\n");
    {
        char s300[301];
        for (n = 0; n < 300; n++)
            s300[n] = (char)('a' + n % 26);
        s300[300] = '\0';
        extract_block("str \"\"", PM_TYPE_STRING, "", 1);
        extract_block("str \"abc\"", PM_TYPE_STRING, "abc", 4);
        extract_block("str 300chars", PM_TYPE_STRING, s300, 301);
        extract_block("str \"abc\" no-NUL", PM_TYPE_STRING, "abc", 3);
    }
    printf("## pmExtractValue AGGREGATE blocks\n");
    {
        unsigned char pay[16];
        for (n = 0; n < 16; n++)
            pay[n] = (unsigned char)(0xf0 - n * 7);
        extract_block("agg 0B", PM_TYPE_AGGREGATE, pay, 0);
        extract_block("agg 3B", PM_TYPE_AGGREGATE, pay, 3);
        extract_block("agg 16B", PM_TYPE_AGGREGATE, pay, 16);
    }
    printf("## pmExtractValue EVENT blocks\n");
    {
        int et;
        for (et = PM_TYPE_EVENT; et <= PM_TYPE_HIGHRES_EVENT; et++) {
            pmValueBlock *vb = mkevent(et, 0, 0);
            pmValue v;
            memset(&v, 0, sizeof(v));
            v.value.pval = vb;
            snprintf(label, sizeof(label), "event[vt=%d nrecords=0]", et);
            for (t = 0; t < NELEM(alltypes); t++)
                extract_row(label, PM_VAL_DPTR, &v, alltypes[t]);
            free(vb);
        }
    }
}

/* ------------------------------------------------------------------ */
/* 9. pmConvScale                                                       */
/* ------------------------------------------------------------------ */

static void conv_row(int type, const pmUnits *iu, const pmUnits *ou)
{
    static const int64_t common[] = {0,     1,     -1,  5,    3,    999,  1000, 1535, 1536,
                                     -1535, -1536, 512, -512, 5400, 7200, 1023, 1024, 1025};
    int64_t ivals[40];
    double fvals[40];
    int ni = 0, nf = 0, i;

    for (i = 0; i < NELEM(common); i++) {
        ivals[ni++] = common[i];
        fvals[nf++] = (double)common[i];
    }
    switch (type) {
    case PM_TYPE_32:
        ivals[ni++] = INT32_MAX;
        ivals[ni++] = INT32_MIN;
        ivals[ni++] = 2097151;
        ivals[ni++] = 2097152;
        ivals[ni++] = -2097152;
        ivals[ni++] = 2147482624;
        break;
    case PM_TYPE_U32:
        ivals[ni++] = UINT32_MAX;
        ivals[ni++] = 0x80000000LL;
        ivals[ni++] = 4194304;
        ivals[ni++] = 4194303;
        ivals[ni++] = 4294966272LL;
        break;
    case PM_TYPE_64:
        ivals[ni++] = INT64_MAX;
        ivals[ni++] = INT64_MIN;
        ivals[ni++] = 9007199254740993LL;
        ivals[ni++] = 9007199254740992LL;
        ivals[ni++] = 9007199254740991LL * 1024;
        ivals[ni++] = 3600000000000LL;
        break;
    case PM_TYPE_U64:
        ivals[ni++] = (int64_t)UINT64_MAX;
        ivals[ni++] = INT64_MIN;
        ivals[ni++] = INT64_MAX;
        ivals[ni++] = 18014398509481984LL;
        break;
    default:
        break;
    }
    {
        double extra[] = {
            0.5, -0.5, 1.5, 2.75, -2.75, 1e-3, 1e30, 1e300, -1e300, 3.4e38, 1.7976931348623157e308};
        uint64_t sp[] = {0x8000000000000000ULL, 0x7ff0000000000000ULL, 0xfff0000000000000ULL,
                         0x7ff8000000000000ULL, 0xfff8000000000000ULL};
        for (i = 0; i < NELEM(extra); i++)
            fvals[nf++] = extra[i];
        for (i = 0; i < NELEM(sp); i++)
            fvals[nf++] = dbits(sp[i]);
    }

    printf("conv %s ", tname(type));
    punits(iu);
    fputs("->", stdout);
    punits(ou);
    putchar(':');
    {
        int count = (type == PM_TYPE_FLOAT || type == PM_TYPE_DOUBLE) ? nf : ni;
        if (type == PM_TYPE_STRING)
            count = 1;
        for (i = 0; i < count; i++) {
            pmAtomValue in, out;
            char ab[128];
            int sts;
            memset(&in, 0, sizeof(in));
            memset(&out, 0, sizeof(out));
            switch (type) {
            case PM_TYPE_32:
                in.l = (int32_t)(uint32_t)(uint64_t)ivals[i];
                printf(" %d", in.l);
                break;
            case PM_TYPE_U32:
                in.ul = (uint32_t)(uint64_t)ivals[i];
                printf(" %u", in.ul);
                break;
            case PM_TYPE_64:
                in.ll = ivals[i];
                printf(" %lld", (long long)in.ll);
                break;
            case PM_TYPE_U64:
                in.ull = (uint64_t)ivals[i];
                printf(" %llu", (unsigned long long)in.ull);
                break;
            case PM_TYPE_FLOAT:
                in.f = (float)fvals[i];
                printf(" %.9g", (double)in.f);
                break;
            case PM_TYPE_DOUBLE:
                in.d = fvals[i];
                printf(" %.17g", in.d);
                break;
            case PM_TYPE_STRING:
                in.cp = "5";
                printf(" \"5\"");
                break;
            default:
                in.ll = ivals[i];
                printf(" raw%lld", (long long)in.ll);
                break;
            }
            sts = pmConvScale(type, &in, iu, &out, ou);
            if (sts < 0)
                printf("=E%d", sts);
            else {
                switch (type) {
                case PM_TYPE_32:
                case PM_TYPE_U32:
                case PM_TYPE_64:
                case PM_TYPE_U64:
                case PM_TYPE_FLOAT:
                case PM_TYPE_DOUBLE:
                    pmAtomStr_r(&out, type, ab, sizeof(ab));
                    printf("=%s", ab);
                    if (type == PM_TYPE_FLOAT)
                        printf("/0x%08x", ftobits(out.f));
                    else if (type == PM_TYPE_DOUBLE)
                        printf("/0x%016llx", (unsigned long long)dtobits(out.d));
                    break;
                default:
                    printf("=OK?");
                    break;
                }
                if (sts > 0)
                    printf("(sts=%d)", sts);
            }
        }
    }
    putchar('\n');
}

static void conv_pair(const pmUnits *iu, const pmUnits *ou)
{
    static const int types[] = {PM_TYPE_32,    PM_TYPE_U32,    PM_TYPE_64,     PM_TYPE_U64,
                                PM_TYPE_FLOAT, PM_TYPE_DOUBLE, PM_TYPE_STRING, 42};
    int t;
    for (t = 0; t < NELEM(types); t++)
        conv_row(types[t], iu, ou);
}

/*
 * Unit pairs for which the real libpcp dies with SIGFPE (its 64-bit scale
 * multiplier/divisor overflows to 0 and is then used as a divisor), whatever
 * the type and value.  Found by running every pair in a child process.
 */
static int conv_crashes_dim2(int from, int to)
{
    static const int bad[][2] = {{0, 4}, {0, 5}, {0, 6}, {1, 5}, {1, 6},
                                 {2, 6}, {3, 6}, {4, 6}, {5, 6}, {6, 6}};
    int k;
    for (k = 0; k < NELEM(bad); k++)
        if (bad[k][0] == from && bad[k][1] == to)
            return 1;
    return 0;
}

static void sect_conv(void)
{
    int d, i, j, k;
    int sdims[] = {1, -1, 2};
    int tdims[] = {1, -1};
    int cdims[] = {1, -1};
    pmUnits iu, ou;

    printf("## pmConvScale space\n");
    for (d = 0; d < NELEM(sdims); d++)
        for (i = 0; i <= 9; i++)
            for (j = 0; j <= 9; j++) {
                if (sdims[d] == 2 && conv_crashes_dim2(i, j)) {
                    printf("conv skipped (2,0,0/%d,0,0)->(2,0,0/%d,0,0): SIGFPE in libpcp\n", i, j);
                    continue;
                }
                iu = mkunits(sdims[d], 0, 0, i, 0, 0);
                ou = mkunits(sdims[d], 0, 0, j, 0, 0);
                conv_pair(&iu, &ou);
            }
    printf("## pmConvScale time\n");
    for (d = 0; d < NELEM(tdims); d++)
        for (i = 0; i <= 7; i++)
            for (j = 0; j <= 7; j++) {
                iu = mkunits(0, tdims[d], 0, 0, i, 0);
                ou = mkunits(0, tdims[d], 0, 0, j, 0);
                conv_pair(&iu, &ou);
            }
    printf("## pmConvScale count\n");
    for (d = 0; d < NELEM(cdims); d++)
        for (i = -8; i <= 7; i++)
            for (j = -8; j <= 7; j++) {
                iu = mkunits(0, 0, cdims[d], 0, 0, i);
                ou = mkunits(0, 0, cdims[d], 0, 0, j);
                conv_pair(&iu, &ou);
            }
    printf("## pmConvScale none/count and mismatches\n");
    {
        pmUnits pairs[][2] = {
            {mkunits(0, 0, 0, 0, 0, 0), mkunits(0, 0, 1, 0, 0, 0)},
            {mkunits(0, 0, 1, 0, 0, 0), mkunits(0, 0, 0, 0, 0, 0)},
            {mkunits(0, 0, 0, 0, 0, 3), mkunits(0, 0, 0, 0, 0, 0)},
            {mkunits(0, 0, 0, 0, 0, 0), mkunits(0, 0, 0, 0, 0, -3)},
            {mkunits(0, 0, 0, 0, 0, 0), mkunits(0, 0, 1, 0, 0, 3)},
            {mkunits(0, 0, 1, 0, 0, 3), mkunits(0, 0, 0, 0, 0, 0)},
            {mkunits(0, 0, 0, 0, 0, 0), mkunits(0, 0, 0, 0, 0, 0)},
            {mkunits(0, 0, 0, 2, 3, 0), mkunits(0, 0, 0, 0, 0, 0)},
            {mkunits(0, 0, 0, 9, 9, 0), mkunits(0, 0, 0, 0, 0, 1)},
            {mkunits(0, 0, 0, 0, 0, 0), mkunits(1, 0, 0, 0, 0, 0)},
            {mkunits(0, 0, 0, 0, 0, 0), mkunits(0, 0, 2, 0, 0, 0)},
            {mkunits(0, 0, 0, 0, 0, 0), mkunits(0, 0, -1, 0, 0, 0)},
            {mkunits(0, 0, -1, 0, 0, 0), mkunits(0, 0, 0, 0, 0, 0)},
            {mkunits(1, 0, 0, 0, 0, 0), mkunits(0, 1, 0, 0, 3, 0)},
            {mkunits(1, 0, 0, 0, 0, 0), mkunits(2, 0, 0, 0, 0, 0)},
            {mkunits(1, -1, 0, 1, 3, 0), mkunits(1, 0, 0, 1, 0, 0)},
            {mkunits(0, 0, 1, 0, 0, 0), mkunits(0, 0, -1, 0, 0, 0)},
            {mkunits(1, 0, 0, 0, 0, 0), mkunits(-1, 0, 0, 0, 0, 0)},
            {mkunits(1, 0, 1, 0, 0, 0), mkunits(1, 0, 0, 0, 0, 0)},
            {mkunits(1, -1, 0, 2, 3, 0), mkunits(1, -1, 0, 1, 2, 0)},
            {mkunits(1, -1, 0, 1, 2, 0), mkunits(1, -1, 0, 2, 3, 0)},
            {mkunits(1, -1, 0, 0, 3, 0), mkunits(1, -1, 0, 3, 5, 0)},
            {mkunits(1, -1, 0, 3, 5, 0), mkunits(1, -1, 0, 0, 3, 0)},
            {mkunits(0, -1, 1, 0, 3, 0), mkunits(0, -1, 1, 0, 2, -3)},
            {mkunits(0, -1, 1, 0, 2, -3), mkunits(0, -1, 1, 0, 3, 0)},
            {mkunits(2, -1, 0, 0, 3, 0), mkunits(2, -1, 0, 1, 4, 0)},
            {mkunits(-1, 0, 0, 1, 0, 0), mkunits(-1, 0, 0, 2, 0, 0)},
            {mkunits(2, 0, 0, 3, 0, 0), mkunits(2, 0, 0, 2, 0, 0)},
            {mkunits(0, -2, 0, 0, 3, 0), mkunits(0, -2, 0, 0, 2, 0)},
            {mkunits(0, 2, 0, 0, 5, 0), mkunits(0, 2, 0, 0, 0, 0)},
            {mkunits(1, 1, 1, 1, 1, 1), mkunits(1, 1, 1, 0, 0, 0)},
            {mkunits(-1, -1, -1, 1, 1, 1), mkunits(-1, -1, -1, 0, 0, 0)},
            {mkunits(1, -1, 1, 6, 0, 7), mkunits(1, -1, 1, 0, 5, -8)},
            {mkunits(7, 0, 0, 6, 0, 0), mkunits(7, 0, 0, 0, 0, 0)},
            {mkunits(-8, 0, 0, 0, 0, 0), mkunits(-8, 0, 0, 6, 0, 0)},
            {mkunits(0, 7, 0, 5, 5, 0), mkunits(0, 7, 0, 0, 0, 0)},
            {mkunits(0, -8, 0, 0, 0, 0), mkunits(0, -8, 0, 0, 5, 0)},
            {mkunits(0, 0, 7, 0, 0, 7), mkunits(0, 0, 7, 0, 0, -8)},
            {mkunits(0, 0, -8, 0, 0, -8), mkunits(0, 0, -8, 0, 0, 7)},
            {mkunits(3, 0, 0, 1, 0, 0), mkunits(3, 0, 0, 0, 0, 0)},
            {mkunits(1, 0, 0, 7, 0, 0), mkunits(1, 0, 0, 7, 0, 0)},
            {mkunits(0, 1, 0, 0, 6, 0), mkunits(0, 1, 0, 0, 6, 0)},
            {mkunits(1, 1, 0, 0, 6, 0), mkunits(1, 1, 0, 0, 6, 0)},
        };
        for (k = 0; k < NELEM(pairs); k++)
            conv_pair(&pairs[k][0], &pairs[k][1]);
    }
}

/* ------------------------------------------------------------------ */
/* 10. pmPrintValue                                                     */
/* ------------------------------------------------------------------ */

static const int pv_types[] = {-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 255, 42};
static const int pv_widths[] = {0, 1, 5, 12, 25};

static void pv_call(const char *label, int valfmt, int type, pmValue *v, int w)
{
    printf("printvalue %s %s type=%s w=%d: [", fmtname(valfmt), label, tname(type), w);
    fflush(stdout);
    pmPrintValue(stdout, valfmt, type, v, w);
    fflush(stdout);
    printf("]<end>\n");
}

static void pv_block(const char *desc, int vtype, const void *pay, size_t plen)
{
    pmValueBlock *vb = mkblk(vtype, pay, plen, -1);
    pmValue v;
    char label[256];
    int t, w;
    int32_t first = 0;

    memcpy(&first, vb->vbuf, 4); /* padding is zeroed, so always defined */
    memset(&v, 0, sizeof(v));
    v.value.pval = vb;
    snprintf(label, sizeof(label), "blk[%s vt=%d vlen=%u]", desc, vtype, (unsigned)vb->vlen);
    for (t = 0; t < NELEM(pv_types); t++) {
        if ((pv_types[t] == PM_TYPE_EVENT || pv_types[t] == PM_TYPE_HIGHRES_EVENT) && first > 0)
            continue; /* PCP would read records past the end of the block */
        for (w = 0; w < NELEM(pv_widths); w++)
            pv_call(label, PM_VAL_DPTR, pv_types[t], &v, pv_widths[w]);
    }
    free(vb);
}

static void sect_printvalue(void)
{
    int i, t, w, n, cnt;
    char label[256];

    printf("## pmPrintValue insitu\n");
    for (i = 0; i < NELEM(insitu_vals); i++) {
        pmValue v;
        memset(&v, 0, sizeof(v));
        v.value.lval = (int)insitu_vals[i];
        snprintf(label, sizeof(label), "lval=0x%08x", insitu_vals[i]);
        for (t = 0; t < NELEM(pv_types); t++)
            for (w = 0; w < NELEM(pv_widths); w++)
                pv_call(label, PM_VAL_INSITU, pv_types[t], &v, pv_widths[w]);
    }
    {
        /* event "pmlc control" style output for INSITU event types */
        uint32_t ev[] = {3, 4, 0x7fffffffu, 0x08000000u, 0x10000u, 0xbc614eu, 0xf0000001u};
        for (i = 0; i < NELEM(ev); i++) {
            pmValue v;
            memset(&v, 0, sizeof(v));
            v.value.lval = (int)ev[i];
            snprintf(label, sizeof(label), "lval=0x%08x", ev[i]);
            pv_call(label, PM_VAL_INSITU, PM_TYPE_EVENT, &v, 0);
            pv_call(label, PM_VAL_INSITU, PM_TYPE_HIGHRES_EVENT, &v, 3);
        }
    }

    printf("## pmPrintValue blocks\n");
    for (i = 0; i < NELEM(i64_vals); i++) {
        char d[64];
        snprintf(d, sizeof(d), "i64 %lld", (long long)i64_vals[i]);
        pv_block(d, PM_TYPE_64, &i64_vals[i], 8);
        pv_block(d, 0, &i64_vals[i], 8);
    }
    for (i = 0; i < NELEM(u64_vals); i++) {
        char d[64];
        snprintf(d, sizeof(d), "u64 %llu", (unsigned long long)u64_vals[i]);
        pv_block(d, PM_TYPE_U64, &u64_vals[i], 8);
        pv_block(d, 0, &u64_vals[i], 8);
    }
    fp_val(0, &cnt);
    for (i = 0; i < cnt; i++) {
        double dv = fp_val(i, &cnt);
        float fv = (float)dv;
        char d[96];
        snprintf(d, sizeof(d), "dbl %.17g/0x%016llx", dv, (unsigned long long)dtobits(dv));
        pv_block(d, PM_TYPE_DOUBLE, &dv, 8);
        pv_block(d, 0, &dv, 8);
        snprintf(d, sizeof(d), "flt %.9g/0x%08x", (double)fv, ftobits(fv));
        pv_block(d, PM_TYPE_FLOAT, &fv, 4);
        pv_block(d, 0, &fv, 4);
    }
    {
        double dx[] = {0.1,      1.0 / 3.0, 123456789.123456789, 1e20,  1.5e-7,
                       0.016402, 1e16,      12345678901234567.0, 1e-320};
        float fx[] = {0.1f, 1.0f / 3.0f, 1e10f, 2.5f, 1e-40f};
        for (i = 0; i < NELEM(dx); i++) {
            char d[96];
            snprintf(d, sizeof(d), "dbl %.17g", dx[i]);
            pv_block(d, PM_TYPE_DOUBLE, &dx[i], 8);
        }
        for (i = 0; i < NELEM(fx); i++) {
            char d[96];
            snprintf(d, sizeof(d), "flt %.9g", (double)fx[i]);
            pv_block(d, PM_TYPE_FLOAT, &fx[i], 4);
        }
    }
    {
        const char *strs[] = {"",
                              "a",
                              "abc",
                              "hello world",
                              "tab\there",
                              "q\"uote",
                              "0123456789012345678901234567890123456789"};
        for (i = 0; i < NELEM(strs); i++) {
            char d[32];
            snprintf(d, sizeof(d), "str%d", i);
            pv_block(d, PM_TYPE_STRING, strs[i], strlen(strs[i]) + 1);
            pv_block(d, 0, strs[i], strlen(strs[i]) + 1);
        }
        pv_block("str-noNUL", PM_TYPE_STRING, "abcd", 4);
    }
    {
        unsigned char pr[16], np[16], mx[16];
        unsigned char nan4[4] = {0x00, 0x00, 0xc0, 0x7f};
        unsigned char nan8[8] = {0, 0, 0, 0, 0, 0, 0xf8, 0x7f};
        unsigned char inf8[8] = {0, 0, 0, 0, 0, 0, 0xf0, 0xff};
        for (n = 0; n < 16; n++) {
            pr[n] = (unsigned char)('a' + n);
            np[n] = (unsigned char)(n * 37 + 1);
            mx[n] = (unsigned char)(n % 3 == 0 ? 0x7f + n : ' ' + n);
        }
        for (n = 0; n <= 12; n++) {
            char d[32];
            snprintf(d, sizeof(d), "agg-print %d", n);
            pv_block(d, PM_TYPE_AGGREGATE, pr, (size_t)n);
            snprintf(d, sizeof(d), "agg-bin %d", n);
            pv_block(d, PM_TYPE_AGGREGATE, np, (size_t)n);
            snprintf(d, sizeof(d), "agg-mix %d", n);
            pv_block(d, PM_TYPE_AGGREGATE, mx, (size_t)n);
        }
        pv_block("agg-nan4", PM_TYPE_AGGREGATE, nan4, 4);
        pv_block("agg-nan8", PM_TYPE_AGGREGATE, nan8, 8);
        pv_block("agg-inf8", PM_TYPE_AGGREGATE, inf8, 8);
        pv_block("agg-print 16", PM_TYPE_AGGREGATE, pr, 16);
        pv_block("aggstatic-print 5", PM_TYPE_AGGREGATE_STATIC, pr, 5);
        pv_block("unknown-vt 6", PM_TYPE_UNKNOWN, pr, 6);
    }

    printf("## pmPrintValue event arrays\n");
    {
        int et, nr;
        for (et = PM_TYPE_EVENT; et <= PM_TYPE_HIGHRES_EVENT; et++)
            for (nr = -1; nr <= 3; nr++) {
                pmValueBlock *vb = mkevent(et, nr, nr > 0 ? nr : 0);
                pmValue v;
                memset(&v, 0, sizeof(v));
                v.value.pval = vb;
                snprintf(label, sizeof(label), "event[vt=%d nrecords=%d]", et, nr);
                for (t = 0; t < NELEM(pv_types); t++) {
                    /* the other event layout would walk garbage records */
                    if (nr > 0 && pv_types[t] != et &&
                        (pv_types[t] == PM_TYPE_EVENT || pv_types[t] == PM_TYPE_HIGHRES_EVENT))
                        continue;
                    for (w = 0; w < NELEM(pv_widths); w += 2)
                        pv_call(label, PM_VAL_DPTR, pv_types[t], &v, pv_widths[w]);
                }
                free(vb);
            }
    }
}

/* ------------------------------------------------------------------ */

/* ------------------------------------------------------------------ */
/* time arithmetic, reporting zones, pmCtime/pmLocaltime; and the        */
/* context-less answers of pmSetMode, pmNewContextZone and the archive   */
/* instance-domain calls                                                 */
/* ------------------------------------------------------------------ */

static void sect_time(void)
{
    static const struct timeval tv[] = {{5, 900000},  {2, 950000},          {0, 0},
                                        {-3, 250000}, {1700000000, 999999}, {0, 1}};
    static const struct timespec ts[] = {{5, 900000000},  {2, 950000000},          {0, 0},
                                         {-3, 250000000}, {1700000000, 999999999}, {0, 1}};
    /* not 0.9999999-like values: PCP leaves 1000000 usec there (docs/compat.md) */
    static const double reals[] = {0,         2.5,        -1.25,         0.0000005, 0.0000015,
                                   0.0000025, 1e10 + 0.3, 123.456789123, -0.5,      86400.000001};
    static const char *const zones[] = {
        "UTC",           "America/New_York", "EST", "GMT+5", "UTC-2",
        ":Europe/Paris", "Asia/Kolkata",     "AB",  "A1C",   ""};
    static const time_t clocks[] = {0, 1700000000, 951782400, 2147483647, 1710054000};
    char buf[64], *tz;
    struct tm tm;
    pmInDom indom = pmInDom_build(29, 1);
    int *il;
    char **nl, *name;

    printf("## time\n");
    for (int i = 0; i < NELEM(tv); i++) {
        for (int j = 0; j < NELEM(tv); j++) {
            struct timeval a = tv[i];
            struct timespec b = ts[i];

            printf("tv %d %d add %.9f sub %.9f real %.9f", i, j, pmtimevalAdd(&tv[i], &tv[j]),
                   pmtimevalSub(&tv[i], &tv[j]), pmtimevalToReal(&tv[i]));
            pmtimevalInc(&a, &tv[j]);
            printf(" inc %ld.%06ld", (long)a.tv_sec, (long)a.tv_usec);
            a = tv[i];
            pmtimevalDec(&a, &tv[j]);
            printf(" dec %ld.%06ld\n", (long)a.tv_sec, (long)a.tv_usec);
            printf("ts %d %d add %.9f sub %.9f real %.9f", i, j, pmtimespecAdd(&ts[i], &ts[j]),
                   pmtimespecSub(&ts[i], &ts[j]), pmtimespecToReal(&ts[i]));
            pmtimespecInc(&b, &ts[j]);
            printf(" inc %ld.%09ld", (long)b.tv_sec, b.tv_nsec);
            b = ts[i];
            pmtimespecDec(&b, &ts[j]);
            printf(" dec %ld.%09ld\n", (long)b.tv_sec, b.tv_nsec);
        }
    }
    for (int i = 0; i < NELEM(reals); i++) {
        struct timeval a;
        struct timespec b;

        pmtimevalFromReal(reals[i], &a);
        pmtimespecFromReal(reals[i], &b);
        printf("fromreal %.9f tv %ld.%06ld ts %ld.%09ld\n", reals[i], (long)a.tv_sec,
               (long)a.tv_usec, (long)b.tv_sec, b.tv_nsec);
    }
    tz = NULL;
    printf("zone none %d\n", pmWhichZone(&tz));
    for (int i = 0; i < NELEM(zones); i++) {
        int z = pmNewZone(zones[i]), w;

        tz = NULL;
        w = pmWhichZone(&tz);
        printf("zone [%s] new %d which %d [%s]\n", zones[i], z, w, tz != NULL ? tz : "(null)");
        for (int j = 0; j < NELEM(clocks); j++) {
            pmLocaltime(&clocks[j], &tm);
            printf("  %ld ctime %s  tm %d-%02d-%02d %02d:%02d:%02d wday %d yday %d dst %d\n",
                   (long)clocks[j], pmCtime(&clocks[j], buf), tm.tm_year + 1900, tm.tm_mon + 1,
                   tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, tm.tm_wday, tm.tm_yday,
                   tm.tm_isdst);
        }
    }
    printf("use 1 %d use 99 %d use -1 %d", pmUseZone(1), pmUseZone(99), pmUseZone(-1));
    tz = NULL;
    printf(" which %d", pmWhichZone(&tz));
    printf(" [%s] ctime %s", tz != NULL ? tz : "(null)", pmCtime(&clocks[1], buf));
    printf("no context: zone %d setmode %d %d archive %d %d %d\n", pmNewContextZone(),
           pmSetMode(PM_MODE_LIVE, &tv[0], 0), pmSetMode(PM_MODE_INTERP, &tv[0], 1000),
           pmLookupInDomArchive(indom, "x"), pmNameInDomArchive(indom, 0, &name),
           pmGetInDomArchive(indom, &il, &nl));
}

int main(void)
{
    setenv("TZ", "UTC", 1);
    tzset();
    printf("# pmkit oracle probe_helpers v1\n");
    sect_errstr();
    sect_ids();
    sect_typesem();
    sect_pointers();
    sect_units();
    sect_atom();
    sect_number();
    sect_flags();
    sect_extract();
    sect_conv();
    sect_printvalue();
    sect_time();
    printf("# end\n");
    fflush(stdout);
    return 0;
}
