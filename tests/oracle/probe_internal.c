/*
 * probe_internal.c - libpcp's internal helpers (<pcp/libpcp.h>,
 * <pcp/deprecated.h>) as PCP's own programs call them, built against
 * pmkit's libraries and Debian's (compare.sh wants the same output):
 *  - debug options: pmSetDebug/pmClearDebug by name, number and "all",
 *    __pmParseDebug, __pmSetDebugBits, pmDebug, __pmDumpDebug;
 *  - the program name (pmProgname, __pmSetProgname), the error table;
 *  - values: __pmStuffValue for every type, __pmStringValue over numbers,
 *    bases, ranges and junk, __pmAllocResult;
 *  - dumps of results (all three forms), PMID, name and status lists,
 *    instance answers, label sets, and the namespace as PCP's tree
 *    (__pmExportPMNS, __pmDumpNameSpace, a tree built by hand);
 *  - time: timestamps in wire form, arithmetic, printing, the zone as PCP
 *    names it, times against a log's bounds (__pmParseTime);
 *  - labels: copies, parsing, an agent's domain labels, type and ident
 *    strings.
 * Dumps go through a memory stream and have their pointers masked.  The
 * differences pmkit makes on purpose (docs/compat.md) are left out:
 * __pmStringValue with ERANGE already in errno or a float of 0, __pmTimestampCmp of times
 * 2^31 seconds apart, unnormalised sleeps, unterminated label objects.
 */
#include <pcp/pmapi.h>
#include <pcp/deprecated.h>
#include "libpcp.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Run fn's output through memory; print it with heap and stack addresses
 * (0x and ten or more hex digits) as PTR. */
static void masked(const char *title, void (*fn)(FILE *, void *), void *arg)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    fn(f, arg);
    fclose(f);
    printf("=== %s\n", title);
    for (char *p = buf; *p != '\0';) {
        size_t n = 0;
        if (p[0] == '0' && p[1] == 'x') {
            while (isxdigit((unsigned char)p[2 + n]))
                n++;
        }
        if (n >= 10) {
            fputs("PTR", stdout);
            p += 2 + n;
        } else {
            putchar(*p++);
        }
    }
    free(buf);
}

/* ---------------------------------------------------------------- debug */

static void show_debug(const char *what, int r)
{
    printf("%s -> %d pmDebug=%d pdu=%d fetch=%d log=%d appl0=%d deprecated=%d exec=%d "
           "desperate=%d\n",
           what, r, pmDebug, pmDebugOptions.pdu, pmDebugOptions.fetch, pmDebugOptions.log,
           pmDebugOptions.appl0, pmDebugOptions.deprecated, pmDebugOptions.exec,
           pmDebugOptions.desperate);
}

static void dump_debug(FILE *f, void *arg)
{
    (void)arg;
    __pmDumpDebug(f);
}

static void debug_options(void)
{
    static const char *const specs[] = {
        "3",          "pdu,nosuch", "nosuch,pdu", "PDU",  "-1",      "exec",      "",
        "pdu,,fetch", "pdu,",       ",pdu",       " pdu", "pdu ",    "1,2",       "pdu,4",
        "+8",         "-2",         "12x",        "ALL",  "all,pdu", "536870912", "appl0,log"};
    char what[64];

    for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
        pmClearDebug("all");
        pmDebug = 0;
        snprintf(what, sizeof(what), "pmSetDebug(\"%s\")", specs[i]);
        show_debug(what, pmSetDebug(specs[i]));
        snprintf(what, sizeof(what), "pmClearDebug(\"%s\")", specs[i]);
        show_debug(what, pmClearDebug(specs[i]));
    }
    pmClearDebug("all");
    pmDebug = 0;
    for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
        snprintf(what, sizeof(what), "__pmParseDebug(\"%s\")", specs[i]);
        show_debug(what, __pmParseDebug(specs[i]));
        pmClearDebug("all");
        pmDebug = 0;
    }
    __pmSetDebugBits(DBG_TRACE_LOG | DBG_TRACE_APPL0 | DBG_TRACE_DESPERATE | (1 << 29));
    show_debug("__pmSetDebugBits", 0);
    masked("__pmDumpDebug", dump_debug, NULL);
    pmClearDebug("all");
    pmSetDebug("pdu,appl0,exec");
    masked("__pmDumpDebug pdu,appl0,exec", dump_debug, NULL);
    pmClearDebug("all");
    pmDebug = 5;
    masked("__pmDumpDebug pmDebug=5", dump_debug, NULL);
    pmDebug = 0;
    masked("__pmDumpDebug none", dump_debug, NULL);
    /* the deprecated option makes the old calls say so on stderr */
    pmSetDebug("deprecated");
    show_debug("__pmParseDebug(pdu) deprecated", __pmParseDebug("pdu"));
    __pmSetDebugBits(DBG_TRACE_FETCH);
    show_debug("__pmSetDebugBits(fetch) deprecated", 0);
    pmClearDebug("all");
    pmDebug = 0;
}

static void dump_errtab(FILE *f, void *arg)
{
    (void)arg;
    __pmDumpErrTab(f);
}

static void program_name(void)
{
    printf("pmProgname=%s\n", pmProgname);
    printf("__pmSetProgname -> %d pmProgname=%s pmGetProgname=%s\n", __pmSetProgname("/a/b/probe"),
           pmProgname, pmGetProgname());
    pmSetProgname("x/y/z");
    printf("pmSetProgname pmProgname=%s\n", pmProgname);
    printf("__pmSetProgname(NULL) -> %d pmProgname=%s\n", __pmSetProgname(NULL), pmProgname);
    pmProgname = "assigned";
    printf("assigned pmGetProgname=%s\n", pmGetProgname());
    masked("__pmDumpErrTab", dump_errtab, NULL);
}

/* ---------------------------------------------------------------- values */

static void stuff(const char *what, int type, pmAtomValue *a)
{
    pmValue v;
    int r;

    memset(&v, 0, sizeof(v));
    r = __pmStuffValue(a, &v, type);
    printf("__pmStuffValue(%s) -> %d", what, r);
    if (r == PM_VAL_INSITU)
        printf(" lval=%d", v.value.lval);
    else if (r >= 0)
        printf(" vlen=%u vtype=%u same=%d", v.value.pval->vlen, v.value.pval->vtype,
               v.value.pval == a->vbp);
    printf("\n");
    if (r == PM_VAL_DPTR)
        free(v.value.pval);
}

static void string_value(const char *s, int type)
{
    pmAtomValue a;
    int r;

    /* PCP refuses a float of 0 (and leaves ERANGE in errno for any text
     * strtod reads as 0); pmkit takes it (docs/compat.md) */
    if (type == PM_TYPE_FLOAT && strtod(s, NULL) == 0.0)
        return;
    memset(&a, 0, sizeof(a));
    errno = 0;
    r = __pmStringValue(s, &a, type);
    printf("__pmStringValue(\"%s\", %s) -> %d errno=%d", s, pmTypeStr(type), r, errno);
    if (r == 0) {
        switch (type) {
        case PM_TYPE_32:
            printf(" %d", a.l);
            break;
        case PM_TYPE_U32:
            printf(" %u", a.ul);
            break;
        case PM_TYPE_64:
            printf(" %lld", (long long)a.ll);
            break;
        case PM_TYPE_U64:
            printf(" %llu", (unsigned long long)a.ull);
            break;
        case PM_TYPE_FLOAT:
            printf(" %.9g", a.f);
            break;
        case PM_TYPE_DOUBLE:
            printf(" %.17g", a.d);
            break;
        case PM_TYPE_STRING:
            printf(" \"%s\" copied=%d", a.cp, a.cp != s);
            free(a.cp);
            break;
        }
    }
    printf("\n");
}

static void values(void)
{
    static const char *const texts[] = {"42",
                                        "-42",
                                        "2147483648",
                                        "-2147483649",
                                        "0x10",
                                        "-0x10",
                                        " 0x10",
                                        "0X1f",
                                        "08",
                                        "010",
                                        "12abc",
                                        "",
                                        " 7",
                                        "\t5",
                                        "7 ",
                                        "5\n",
                                        "   ",
                                        "0x",
                                        "0x1g",
                                        "+5",
                                        "-1",
                                        "-5",
                                        "4294967295",
                                        "4294967296",
                                        "0xffffffff",
                                        "0x7fffffff",
                                        "-9223372036854775808",
                                        "18446744073709551615",
                                        "99999999999999999999",
                                        "0xffffffffffffffff",
                                        "99999999999x",
                                        "1.5e3",
                                        "1e40",
                                        "1e39",
                                        "3.4e38",
                                        "1e-38",
                                        "1e-40",
                                        "1e-45",
                                        "1e-50",
                                        "1e-400",
                                        "nan",
                                        "inf",
                                        "-inf",
                                        "0x1p3",
                                        "0x1.8p1",
                                        "0x10.5",
                                        "0x1p-2",
                                        "abc",
                                        "0.1",
                                        " 2.5",
                                        "1e40x",
                                        "text"};
    static const int types[] = {PM_TYPE_32,    PM_TYPE_U32,    PM_TYPE_64,    PM_TYPE_U64,
                                PM_TYPE_FLOAT, PM_TYPE_DOUBLE, PM_TYPE_STRING};
    pmValueBlock *vb = malloc(16);
    pmAtomValue a;
    __pmResult *r;

    a.l = -5;
    stuff("32", PM_TYPE_32, &a);
    a.ul = 7;
    stuff("U32", PM_TYPE_U32, &a);
    a.ll = 1LL << 40;
    stuff("64", PM_TYPE_64, &a);
    a.ull = 5;
    stuff("U64", PM_TYPE_U64, &a);
    a.d = 1.5;
    stuff("DOUBLE", PM_TYPE_DOUBLE, &a);
    a.f = 2.5f;
    stuff("FLOAT", PM_TYPE_FLOAT, &a);
    a.cp = "hello";
    stuff("STRING", PM_TYPE_STRING, &a);
    a.cp = "";
    stuff("STRING empty", PM_TYPE_STRING, &a);
    vb->vtype = PM_TYPE_AGGREGATE;
    vb->vlen = 9;
    memcpy(vb->vbuf, "abcde", 5);
    a.vbp = vb;
    stuff("AGGREGATE", PM_TYPE_AGGREGATE, &a);
    stuff("AGGREGATE_STATIC", PM_TYPE_AGGREGATE_STATIC, &a);
    stuff("EVENT", PM_TYPE_EVENT, &a);
    stuff("HIGHRES_EVENT", PM_TYPE_HIGHRES_EVENT, &a);
    stuff("UNKNOWN", PM_TYPE_UNKNOWN, &a);
    stuff("NOSUPPORT", PM_TYPE_NOSUPPORT, &a);
    stuff("99", 99, &a);
    free(vb);
    for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
        for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++)
            string_value(texts[i], types[t]);
    string_value("1", PM_TYPE_AGGREGATE);
    string_value("1", PM_TYPE_EVENT);
    string_value("1", PM_TYPE_NOSUPPORT);
    /* PCP's __pmAllocResult leaves the fields as malloc gave them */
    r = __pmAllocResult(3);
    printf("__pmAllocResult(3): %s\n", r == NULL ? "NULL" : "a result");
    r->numpmid = 1;
    r->vset[0] = calloc(1, sizeof(pmValueSet));
    __pmFreeResult(r);
}

/* ---------------------------------------------------------------- dumps */

static const char pmns_text[] = "root {\n    a\n    b\t29:0:5\n}\n"
                                "a {\n    x\t29:1:2\n    y\t29:1:3\n    z\n}\n"
                                "a.z {\n    leaf\t30:0:1\n}\n";

static pmResult *sample_result(void)
{
    pmResult *rp = calloc(1, sizeof(pmResult) + 4 * sizeof(pmValueSet *));
    pmValueSet *v0 = calloc(1, sizeof(pmValueSet) + 2 * sizeof(pmValue));
    pmValueSet *v1 = calloc(1, sizeof(pmValueSet));
    pmValueSet *v2 = calloc(1, sizeof(pmValueSet) + 2 * sizeof(pmValue));
    pmValueSet *v3 = calloc(1, sizeof(pmValueSet));
    pmAtomValue av;

    rp->timestamp.tv_sec = 1700000000;
    rp->timestamp.tv_usec = 123456;
    rp->numpmid = 4;
    v0->pmid = pmID_build(29, 0, 5);
    v0->numval = 3;
    v0->valfmt = PM_VAL_INSITU;
    v0->vlist[0].inst = (int)PM_IN_NULL;
    v0->vlist[0].value.lval = 42;
    v0->vlist[1].inst = 7;
    v0->vlist[1].value.lval = -1;
    v0->vlist[2].inst = 8;
    v0->vlist[2].value.lval = 0x7fc00000;
    v1->pmid = pmID_build(29, 1, 2);
    v1->numval = PM_ERR_PMID;
    v2->pmid = pmID_build(30, 0, 1);
    v2->numval = 3;
    v2->valfmt = PM_VAL_DPTR;
    av.ll = -1234567890123LL;
    __pmStuffValue(&av, &v2->vlist[0], PM_TYPE_64);
    v2->vlist[0].inst = 0;
    av.d = 3.25;
    __pmStuffValue(&av, &v2->vlist[1], PM_TYPE_DOUBLE);
    v2->vlist[1].inst = 1;
    av.cp = "some string";
    __pmStuffValue(&av, &v2->vlist[2], PM_TYPE_STRING);
    v2->vlist[2].inst = 2;
    v3->pmid = pmID_build(31, 2, 3);
    rp->vset[0] = v0;
    rp->vset[1] = v1;
    rp->vset[2] = v2;
    rp->vset[3] = v3;
    return rp;
}

static void dump_result(FILE *f, void *arg)
{
    __pmDumpResult(f, arg);
}

static void dump_highres(FILE *f, void *arg)
{
    pmResult *rp = arg;
    pmHighResResult *hr = calloc(1, sizeof(pmHighResResult) + 4 * sizeof(pmValueSet *));

    hr->timestamp.tv_sec = 1700000000;
    hr->timestamp.tv_nsec = 123456789;
    hr->numpmid = rp->numpmid;
    memcpy(hr->vset, rp->vset, (size_t)rp->numpmid * sizeof(pmValueSet *));
    __pmDumpHighResResult(f, hr);
    free(hr);
}

static void print_result(FILE *f, void *arg)
{
    pmResult *rp = arg;
    __pmResult *r = __pmAllocResult(rp->numpmid);

    r->timestamp.sec = 1700000000;
    r->timestamp.nsec = 5;
    r->numpmid = rp->numpmid;
    memcpy(r->vset, rp->vset, (size_t)rp->numpmid * sizeof(pmValueSet *));
    __pmPrintResult(f, r);
    free(r);
}

static void dump_lists(FILE *f, void *arg)
{
    pmID ids[4] = {pmID_build(29, 0, 5), PM_ID_NULL, pmID_build(29, 1, 3), pmID_build(1, 2, 3)};
    int insts[3] = {1, 2, 3}, status[3] = {0, PMNS_LEAF_STATUS, PMNS_NONLEAF_STATUS};
    char *inames[3] = {"one", "two", "three"}, *mnames[2] = {"x.y", "z"};
    const char *nl[3] = {"a.b", "c", NULL};
    pmInResult ir = {pmInDom_build(29, 2), 3, insts, inames};

    (void)arg;
    __pmDumpIDList(f, 4, ids);
    __pmDumpIDList(f, 0, ids);
    __pmDumpInResult(f, &ir);
    ir.namelist = NULL;
    __pmDumpInResult(f, &ir);
    ir.instlist = NULL;
    ir.namelist = inames;
    __pmDumpInResult(f, &ir);
    __pmDumpNameList(f, 3, nl);
    __pmDumpStatusList(f, 3, status);
    __pmPrintMetricNames(f, 2, mnames, "|");
    fputc('\n', f);
    __pmPrintMetricNames(f, 1, mnames, " or ");
    fputc('\n', f);
    __pmPrintMetricNames(f, 0, mnames, " or ");
    fputc('\n', f);
    /* a failed pmNameAll's count, as pmdumplog passes it */
    __pmPrintMetricNames(f, PM_ERR_PMID, NULL, " or ");
    fputc('\n', f);
}

static void dump_namespace(FILE *f, void *arg)
{
    (void)arg;
    __pmDumpNameSpace(f, 0);
    __pmDumpNameSpace(f, 1);
}

static void dump_tree(FILE *f, void *arg)
{
    __pmnsTree *t = NULL;
    static const char *const names[] = {"one.two", "one.three.four", "five", "one.two", "five.six",
                                        "one",     "seven.eight"};

    (void)arg;
    fprintf(f, "__pmNewPMNS -> %d\n", __pmNewPMNS(&t));
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        fprintf(f, "__pmAddPMNSNode(%s) -> %d\n", names[i],
                __pmAddPMNSNode(t, (int)pmID_build(40, 0, (unsigned)i), names[i]));
    fprintf(f, "__pmFixPMNSHashTab -> %d\n", __pmFixPMNSHashTab(t, 4, 1));
    __pmDumpNameNode(f, t->root, 1);
    __pmFreePMNS(t);
}

static void dumps(void)
{
    char path[] = "/tmp/probe_internal.XXXXXX";
    int fd = mkstemp(path);
    pmResult *rp = sample_result();
    __pmnsTree *t;

    if (fd < 0 || write(fd, pmns_text, sizeof(pmns_text) - 1) < 0)
        return;
    close(fd);
    printf("pmLoadASCIINameSpace -> %d\n", pmLoadASCIINameSpace(path, 1));
    unlink(path);
    masked("__pmDumpResult", dump_result, rp);
    masked("__pmDumpHighResResult", dump_highres, rp);
    masked("__pmPrintResult", print_result, rp);
    pmFreeResult(rp);
    masked("lists", dump_lists, NULL);
    masked("__pmDumpNameSpace", dump_namespace, NULL);
    t = __pmExportPMNS();
    printf("__pmExportPMNS: htabsize>0 %d root %s first %s\n", t->htabsize > 0, t->root->name,
           t->root->first->name);
    masked("tree", dump_tree, NULL);
    pmUnloadNameSpace();
}

/* ---------------------------------------------------------------- time */

static void print_stamps(FILE *f, void *arg)
{
    __pmTimestamp t = {1700000000, 123456789}, n = {-1, 5};
    pmTimeval tv = {1700000000, 654321}, tvn = {1700000000, -5};
    pmTimespec ts = {1700000000, 5};

    (void)arg;
    __pmPrintTimestamp(f, &t);
    fputc('|', f);
    __pmPrintTimestamp(f, &n);
    fputc('|', f);
    __pmPrintTimeval(f, &tv);
    fputc('|', f);
    __pmPrintTimeval(f, &tvn);
    fputc('|', f);
    __pmPrintTimespec(f, &ts);
    fputc('\n', f);
}

static void zones(void)
{
    static const char *const tz[] = {NULL,
                                     "UTC",
                                     ":UTC",
                                     ":Europe/Paris",
                                     "Europe/Paris",
                                     ":America/New_York",
                                     ":Asia/Kolkata",
                                     ":America/St_Johns",
                                     "EST5EDT",
                                     ""};
    char buf[64], small[4];

    for (size_t i = 0; i < sizeof(tz) / sizeof(tz[0]); i++) {
        if (tz[i] == NULL)
            unsetenv("TZ");
        else
            setenv("TZ", tz[i], 1);
        printf("TZ=%s: __pmTimezone %s _r %s short %s\n", tz[i] ? tz[i] : "(unset)", __pmTimezone(),
               __pmTimezone_r(buf, (int)sizeof(buf)), __pmTimezone_r(small, (int)sizeof(small)));
    }
    setenv("TZ", "UTC", 1);
}

static void times(void)
{
    __pmTimestamp t = {0x0000000123456789LL, 987654321}, u, a = {10, 900000000}, c = {3, 200000000};
    __pmTimestamp d = {5, 100}, e = {5, 300}, g = {1, 100}, h = {2, 999999999};
    pmTimeval tv1 = {10, 5}, tv2 = {3, 7};
    pmTimespec ts1 = {10, 5}, ts2 = {3, 7};
    int32_t buf[4];
    unsigned char *b = (unsigned char *)buf;
    static const char *const spec[] = {
        "@10:00", "+30", "-10m", "+1h", "30", "bogus", "@ bogus", "@Nov 15 01:02:03 2023", NULL};
    struct timeval start = {1700000000, 0}, end = {1700003600, 0};
    struct tm tm;

    memset(buf, 0, sizeof(buf));
    __pmPutTimestamp(&t, buf);
    printf("__pmPutTimestamp:");
    for (int i = 0; i < 12; i++)
        printf(" %02x", b[i]);
    __pmLoadTimestamp(buf, &u);
    printf(" -> %lld %d\n", (long long)u.sec, u.nsec);
    memset(buf, 0, sizeof(buf));
    __pmPutTimeval(&t, buf);
    printf("__pmPutTimeval:");
    for (int i = 0; i < 8; i++)
        printf(" %02x", b[i]);
    __pmLoadTimeval(buf, &u);
    printf(" -> %lld %d\n", (long long)u.sec, u.nsec);
    printf("__pmTimestampSub %.9f %.9f\n", __pmTimestampSub(&a, &c), __pmTimestampSub(&c, &a));
    printf("__pmTimestampCmp %d %d %d %d %d\n", __pmTimestampCmp(&a, &c), __pmTimestampCmp(&c, &a),
           __pmTimestampCmp(&d, &e), __pmTimestampCmp(&e, &d), __pmTimestampCmp(&a, &a));
    __pmTimestampInc(&a, &c);
    printf("__pmTimestampInc %lld %d\n", (long long)a.sec, a.nsec);
    __pmTimestampDec(&g, &h);
    printf("__pmTimestampDec %lld %d\n", (long long)g.sec, g.nsec);
    printf("__pmTimevalSub %.9f __pmTimespecSub %.9f\n", __pmTimevalSub(&tv1, &tv2),
           __pmTimespecSub(&ts1, &ts2));
    masked("stamps", print_stamps, NULL);
    zones();
    for (int i = 0; spec[i] != NULL; i++) {
        struct timeval r = {0, 0};
        char *msg = NULL;
        int sts = __pmParseTime(spec[i], &start, &end, &r, &msg);
        printf("__pmParseTime(\"%s\") -> %d %ld.%06ld %s", spec[i], sts, (long)r.tv_sec,
               (long)r.tv_usec, msg ? msg : "(no message)\n");
        free(msg);
    }
    memset(&tm, 0, sizeof(tm));
    tm.tm_year = 123;
    tm.tm_mon = 10;
    tm.tm_mday = 14;
    tm.tm_hour = 22;
    printf("__pmMktime %lld\n", (long long)__pmMktime(&tm));
}

/* ---------------------------------------------------------------- labels */

static void dump_labels(FILE *f, void *arg)
{
    pmLabelSet *ls = NULL, *dup, *p = NULL, empty;
    static const int types[] = {PM_LABEL_CONTEXT,
                                PM_LABEL_DOMAIN,
                                PM_LABEL_INDOM,
                                PM_LABEL_CLUSTER,
                                PM_LABEL_ITEM,
                                PM_LABEL_INSTANCES,
                                PM_LABEL_CONTEXT | PM_LABEL_COMPOUND,
                                PM_LABEL_DOMAIN | PM_LABEL_OPTIONAL,
                                0,
                                999};
    char buf[64], small[8];

    (void)arg;
    fprintf(f, "__pmAddLabels -> %d\n",
            __pmAddLabels(&ls, "{\"a\":1,\"b\":\"x\"}", PM_LABEL_CONTEXT | PM_LABEL_OPTIONAL));
    __pmDumpLabelSets(f, ls, 1);
    dup = __pmDupLabelSets(ls, 1);
    __pmDumpLabelSets(f, dup, 1);
    pmFreeLabelSets(dup, 1);
    pmFreeLabelSets(ls, 1);
    __pmDumpLabelSets(f, NULL, 0);
    memset(&empty, 0, sizeof(empty));
    empty.inst = 5;
    __pmDumpLabelSets(f, &empty, 1);
    for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
        buf[0] = '\0';
        fprintf(f, "type %d: [%s] [%s]\n", types[i], __pmLabelTypeString(types[i]),
                __pmLabelIdentString((int)pmID_build(29, 3, 4), types[i], buf, sizeof(buf)));
    }
    fprintf(f, "short [%s]\n",
            __pmLabelIdentString((int)pmID_build(29, 3, 4), PM_LABEL_ITEM, small, sizeof(small)));
    fprintf(f, "__pmParseLabelSet -> %d\n",
            __pmParseLabelSet("{\"z\":true,\"a\":[1,2]}", 20, PM_LABEL_ITEM, &p));
    __pmDumpLabelSets(f, p, 1);
    pmFreeLabelSets(p, 1);
    p = NULL;
    fprintf(f, "__pmParseLabelSet(bad) -> %d\n", __pmParseLabelSet("{bad", 4, PM_LABEL_ITEM, &p));
    p = NULL;
    fprintf(f, "__pmGetDomainLabels -> %d\n", __pmGetDomainLabels(29, "sample", &p));
    __pmDumpLabelSets(f, p, 1);
    pmFreeLabelSets(p, 1);
    /* the agent's name as the label gives it: a leading "pmda" and a
     * trailing " DSO" dropped only from longer names, nothing escaped */
    static const char *const agents[] = {
        "pmdasample", "pmda",    "pmdax",        "proc DSO",  " DSO",    "DSO",
        "x DSO",      "pmdaDSO", "pmdaproc DSO", "a DSO DSO", "q\"uote", "back\\slash",
        "pmda DSO",   "PMDAx",   "sample dso",   "",
    };
    for (size_t i = 0; i < sizeof(agents) / sizeof(agents[0]); i++) {
        p = NULL;
        fprintf(f, "__pmGetDomainLabels [%s] -> %d\n", agents[i],
                __pmGetDomainLabels(30, agents[i], &p));
        if (p != NULL)
            fprintf(f, "  %.*s\n", p->jsonlen, p->json);
        pmFreeLabelSets(p, 1);
    }
    /* the names; the values are this host's (the host name is masked) */
    fprintf(f, "config: %s", __pmGetLabelConfigHostName(buf, sizeof(buf)));
    fprintf(f, " %s [%s]", __pmGetLabelConfigMachineID(small, sizeof(small)), small);
    fprintf(f, " %s [%s]\n", __pmGetLabelConfigDomainName(buf, sizeof(buf)), buf);
}

int main(void)
{
    setenv("TZ", "UTC", 1);
    setvbuf(stdout, NULL, _IOLBF, 0);
    debug_options();
    program_name();
    values();
    dumps();
    times();
    masked("labels", dump_labels, NULL);
    return 0;
}
