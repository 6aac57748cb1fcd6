/*
 * probe_events.c - event records from one source built twice, against
 * pmkit's libpcp and libpcp_pmda and against Debian's, printing every
 * answer: arrays built with pmdaEvent* (their bytes, which must be the
 * same), the same unpacked with pmUnpackEventRecords and
 * pmUnpackHighResEventRecords, and the unpackers' errors on damaged
 * arrays.  compare.sh compares the two outputs.  Left out, and listed
 * in docs/compat.md: inputs on which PCP's libraries crash, and damaged
 * arrays whose parameters PCP reads past their end or counts below zero
 * (pmkit refuses them; unit.events).
 */
#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *err(int sts)
{
    static char buf[PM_MAXERRMSGLEN];

    return sts < 0 ? pmErrStr_r(sts, buf, sizeof(buf)) : "ok";
}

static void dump(const char *what, const void *p, int len)
{
    const unsigned char *b = p;

    printf("%s (%d bytes):", what, len);
    for (int i = 0; i < len; i++)
        printf("%s%02x", i % 4 ? "" : " ", b[i]);
    printf("\n");
}

static unsigned int word(const unsigned char *p)
{
    unsigned int w;

    memcpy(&w, p, 4);
    return w;
}

/*
 * An event array (highres: timestamps of 16 bytes) field by field, each
 * value's bytes but not the padding after them (PCP's is not set).
 */
static void dump_array(const char *what, const void *base, int highres)
{
    const unsigned char *p = base;
    unsigned int hdr = word(p), len = hdr & 0xffffff;
    int nrec = (int)word(p + 4);
    size_t at = 8;

    printf("%s: type %u len %u records %d\n", what, hdr >> 24, len, nrec);
    for (int r = 0; r < nrec && at < len; r++) {
        unsigned int flags, nparams;
        if (highres) {
            long long sec, nsec;
            memcpy(&sec, p + at, 8);
            memcpy(&nsec, p + at + 8, 8);
            printf("  record %lld.%09lld", sec, nsec);
            at += 16;
        } else {
            printf("  record %d.%06d", (int)word(p + at), (int)word(p + at + 4));
            at += 8;
        }
        flags = word(p + at);
        nparams = word(p + at + 4);
        at += 8;
        printf(" flags %08x nparams %u\n", flags, nparams);
        if (flags & PM_EVENT_FLAG_MISSED)
            continue;
        for (unsigned int i = 0; i < nparams && at < len; i++) {
            unsigned int ph = word(p + at + 4), plen = ph & 0xffffff;
            dump("    param", p + at, 4);
            printf("      type %u len %u value", ph >> 24, plen);
            for (unsigned int k = 4; k < plen; k++)
                printf(" %02x", p[at + 4 + k]);
            printf("\n");
            at += 4 + ((plen + 3) & ~3u);
        }
    }
    printf("  ends at %zu\n", at);
}

static void print_vset(const pmValueSet *vs)
{
    printf("    %s numval %d", pmIDStr(vs->pmid), vs->numval);
    if (vs->numval > 0)
        printf(" valfmt %d", vs->valfmt);
    for (int j = 0; j < vs->numval; j++) {
        const pmValue *v = &vs->vlist[j];
        printf(" [inst %d", v->inst);
        if (vs->valfmt == PM_VAL_INSITU)
            printf(" insitu %08x]", (unsigned)v->value.lval);
        else {
            printf(" vtype %d", v->value.pval->vtype);
            dump(" block", v->value.pval, v->value.pval->vlen);
            printf("    ]");
        }
    }
    printf("\n");
}

/* vs[idx] unpacked both ways, every result printed. */
static void unpack(const char *what, pmValueSet *vs, int idx)
{
    pmResult **r = NULL;
    pmHighResResult **h = NULL;
    int n = pmUnpackEventRecords(vs, idx, &r), m;

    printf("unpack %s: %d %s\n", what, n, err(n));
    for (int i = 0; i < n; i++) {
        printf("  record %d: %ld.%06ld numpmid %d\n", i, (long)r[i]->timestamp.tv_sec,
               (long)r[i]->timestamp.tv_usec, r[i]->numpmid);
        for (int k = 0; k < r[i]->numpmid; k++)
            print_vset(r[i]->vset[k]);
    }
    if (n >= 0) {
        printf("  list %s\n", r == NULL ? "NULL" : r[n] == NULL ? "terminated" : "unterminated");
        pmFreeEventResult(r);
    }
    m = pmUnpackHighResEventRecords(vs, idx, &h);
    printf("unpack highres %s: %d %s\n", what, m, err(m));
    for (int i = 0; i < m; i++) {
        printf("  record %d: %lld.%09ld numpmid %d\n", i, (long long)h[i]->timestamp.tv_sec,
               (long)h[i]->timestamp.tv_nsec, h[i]->numpmid);
        for (int k = 0; k < h[i]->numpmid; k++)
            print_vset(h[i]->vset[k]);
    }
    if (m >= 0) {
        printf("  list %s\n", h == NULL ? "NULL" : h[m] == NULL ? "terminated" : "unterminated");
        pmFreeHighResEventResult(h);
    }
}

/* A value set of one value holding a copy of the len bytes at block. */
static pmValueSet *set_of(const void *block, size_t len, int valfmt)
{
    pmValueSet *vs = calloc(1, sizeof(*vs) + sizeof(pmValue));
    void *copy = calloc(1, len + 8);

    memcpy(copy, block, len);
    vs->pmid = pmID_build(251, 1, 0);
    vs->numval = 1;
    vs->valfmt = valfmt;
    vs->vlist[0].inst = PM_IN_NULL;
    vs->vlist[0].value.pval = copy;
    return vs;
}

static void free_set(pmValueSet *vs)
{
    free(vs->vlist[0].value.pval);
    free(vs);
}

/* The words of an event array by hand: header, then what follows. */
static void damaged(const char *what, const unsigned int *words, int n, int type)
{
    unsigned int buf[64];
    pmValueSet *vs;

    memcpy(buf, words, (size_t)n * 4);
    buf[0] = (unsigned int)type << 24 | (unsigned int)(n * 4);
    vs = set_of(buf, (size_t)n * 4, PM_VAL_DPTR);
    unpack(what, vs, 0);
    free_set(vs);
}

#define W(...) (const unsigned int[]){__VA_ARGS__}, sizeof((const unsigned int[]){__VA_ARGS__}) / 4
static const struct {
    const char *what;
    const unsigned int *words;
    int n, type;
} cases[] = {
    {"no records", W(0, 0), PM_TYPE_EVENT},
    {"header only", W(0), PM_TYPE_EVENT},
    {"negative count", W(0, 0xffffffff), PM_TYPE_EVENT},
    {"short record", W(0, 1, 1000, 0), PM_TYPE_EVENT},
    {"no params", W(0, 1, 1000, 0, 0, 0), PM_TYPE_EVENT},
    {"param past the end", W(0, 1, 1000, 0, 0, 2, 0x3ec00000, 0x01000008, 7), PM_TYPE_EVENT},
    {"param longer than the array", W(0, 1, 1000, 0, 0, 1, 0x3ec00000, 0x01000040, 7),
     PM_TYPE_EVENT},
    {"param of type event", W(0, 1, 1000, 0, 0, 1, 0x3ec00000, 0x09000008, 7), PM_TYPE_EVENT},
    {"missed negative", W(0, 1, 1000, 0, 0x80000000, 0xfffffffc), PM_TYPE_EVENT},
    {"two records, one there", W(0, 2, 1000, 0, 0, 0), PM_TYPE_EVENT},
    {"flags and missed", W(0, 1, 1000, 0, 0x80000001, 3), PM_TYPE_EVENT},
    {"highres as event", W(0, 1, 1000, 0, 0, 0), PM_TYPE_HIGHRES_EVENT},
};

int main(int argc, char **argv)
{
    int only = argc > 1 ? atoi(argv[1]) : -1; /* one damaged case alone */
    struct timeval tv = {1000, 250};
    struct timespec ts = {2000, 123456789};
    pmAtomValue av;
    pmEventArray *ea;
    pmHighResEventArray *hea;
    char agg[PM_VAL_HDR_SIZE + 6];
    pmValueBlock *vb = (pmValueBlock *)agg;
    int a, h;
    pmValueSet *vs;

    setvbuf(stdout, NULL, _IONBF, 0);
    /* PCP's unpacker writes a dump of each damaged array to stderr, pmkit's
     * does not (docs/compat.md): compare.sh compares stdout alone */
    if (freopen("/dev/null", "w", stderr) == NULL)
        return 2;
    a = pmdaEventNewArray();
    printf("new: %d\n", a);
    ea = pmdaEventGetAddr(a);
    dump_array("empty", ea, 0);
    printf("record: %s\n", err(pmdaEventAddRecord(a, &tv, PM_EVENT_FLAG_POINT)));
    av.ul = 0x11223344;
    printf("param u32: %s\n", err(pmdaEventAddParam(a, pmID_build(251, 0, 0), PM_TYPE_U32, &av)));
    av.ull = 0x0102030405060708ULL;
    printf("param u64: %s\n", err(pmdaEventAddParam(a, pmID_build(251, 0, 2), PM_TYPE_U64, &av)));
    av.cp = "hello";
    printf("param string: %s\n",
           err(pmdaEventAddParam(a, pmID_build(251, 0, 6), PM_TYPE_STRING, &av)));
    av.d = 1.5;
    printf("param double: %s\n",
           err(pmdaEventAddParam(a, pmID_build(251, 0, 5), PM_TYPE_DOUBLE, &av)));
    av.cp = "";
    printf("param empty string: %s\n",
           err(pmdaEventAddParam(a, pmID_build(251, 0, 6), PM_TYPE_STRING, &av)));
    tv.tv_usec = 500;
    printf("missed: %s\n", err(pmdaEventAddMissedRecord(a, &tv, 7)));
    printf("record: %s\n", err(pmdaEventAddRecord(a, &tv, 0)));
    av.f = 2.5f;
    printf("param float: %s\n",
           err(pmdaEventAddParam(a, pmID_build(251, 0, 4), PM_TYPE_FLOAT, &av)));
    av.l = -2;
    printf("param 32: %s\n", err(pmdaEventAddParam(a, pmID_build(251, 0, 1), PM_TYPE_32, &av)));
    av.ll = -3;
    printf("param 64: %s\n", err(pmdaEventAddParam(a, pmID_build(251, 0, 3), PM_TYPE_64, &av)));
    vb->vtype = PM_TYPE_AGGREGATE;
    vb->vlen = PM_VAL_HDR_SIZE + 6;
    memcpy(vb->vbuf, "ab\0cd", 6);
    av.vbp = vb;
    printf("param aggregate: %s\n",
           err(pmdaEventAddParam(a, pmID_build(251, 0, 12), PM_TYPE_AGGREGATE, &av)));
    printf("param event: %s\n",
           err(pmdaEventAddParam(a, pmID_build(251, 0, 12), PM_TYPE_EVENT, &av)));
    printf("param 99: %s\n", err(pmdaEventAddParam(a, pmID_build(251, 0, 12), 99, &av)));
    printf("record start|id: %s\n",
           err(pmdaEventAddRecord(a, &tv, PM_EVENT_FLAG_START | PM_EVENT_FLAG_ID)));
    ea = pmdaEventGetAddr(a);
    dump_array("array", ea, 0);
    printf("type %d len %d records %d\n", ea->ea_type, ea->ea_len, ea->ea_nrecords);

    vs = set_of(ea, (size_t)ea->ea_len, PM_VAL_DPTR);
    unpack("built", vs, 0);
    vs->valfmt = PM_VAL_SPTR;
    unpack("sptr", vs, 0);
    vs->valfmt = PM_VAL_INSITU;
    unpack("insitu", vs, 0);
    vs->valfmt = PM_VAL_DPTR;
    vs->vlist[0].value.pval->vtype = PM_TYPE_AGGREGATE;
    unpack("aggregate", vs, 0);
    free_set(vs);

    printf("reset: %s\n", err(pmdaEventResetArray(a)));
    ea = pmdaEventGetAddr(a);
    dump_array("after reset", ea, 0);
    printf("release: %s\n", err(pmdaEventReleaseArray(a)));
    printf("release again: %s\n", err(pmdaEventReleaseArray(a)));
    printf("reset released: %s\n", err(pmdaEventResetArray(a)));
    printf("record released: %s\n", err(pmdaEventAddRecord(a, &tv, 0)));
    printf("address released: %s\n", pmdaEventGetAddr(a) == NULL ? "NULL" : "an address");
    printf("new after release: %d\n", pmdaEventNewArray());

    h = pmdaEventNewHighResArray();
    printf("new highres: %d\n", h);
    printf("highres record: %s\n", err(pmdaEventAddHighResRecord(h, &ts, PM_EVENT_FLAG_START)));
    av.l = -3;
    printf("highres param: %s\n",
           err(pmdaEventAddHighResParam(h, pmID_build(251, 0, 1), PM_TYPE_32, &av)));
    ts.tv_nsec = 5;
    printf("highres missed: %s\n", err(pmdaEventAddHighResMissedRecord(h, &ts, 2)));
    av.cp = "abcd";
    printf("highres param (old name): %s\n",
           err(pmdaEventHighResAddParam(h, pmID_build(251, 0, 6), PM_TYPE_STRING, &av)));
    hea = pmdaEventGetHighResAddr(h);
    dump_array("highres array", hea, 1);
    printf("highres type %d, old name same %d\n", hea->ea_type, pmdaEventHighResGetAddr(h) == hea);
    vs = set_of(hea, (size_t)hea->ea_len, PM_VAL_DPTR);
    unpack("highres built", vs, 0);
    free_set(vs);
    printf("highres release: %s\n", err(pmdaEventReleaseHighResArray(h)));

    /* damaged arrays, by hand: the header word (made by damaged()), the
     * record count, then each record's words */
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        if (only < 0 || (size_t)only == i)
            damaged(cases[i].what, cases[i].words, cases[i].n, cases[i].type);
    return 0;
}
