/*
 * probe_eventdump.c - __pmDumpEventRecords and __pmDumpHighResEventRecords
 * (libpcp.h) over event arrays built by hand, built against pmkit's
 * libraries and Debian's (compare.sh wants the same output): every
 * parameter type, strings and aggregates of every length up to and past a
 * word, nested and unknown parameter types, record flags and missed
 * counts, records without parameters, empty arrays, arrays cut short at
 * every length from 8 (with their bytes left after the cut, and with zeros
 * there), overstated and negative counts, parameter lengths under the
 * header's, a value of another type, value sets without values, with an
 * error or another value format, an index past the first value.  Each
 * dump goes through a memory stream, then to standard output.  Every byte
 * PCP's dump may read lies inside the probe's buffer (pmkit's reads none
 * past the value's length and takes zeros there: the cuts whose next
 * bytes are not zeros show that PCP's does not read them either).  Each
 * array is also given to __pmCheckEventRecords, and those the dump finds
 * an error in to pmUnpack(HighRes)EventRecords, which dumps them to stderr
 * (captured, after its answer).  Last, __pmDumpResult of sets of one
 * and two values with no context, and what the unpackers dump with the
 * fetch debug option.
 */
#include <pcp/pmapi.h>
#include "libpcp.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One value block being filled: an event array of either resolution. */
typedef struct {
    char buf[16384];
    size_t len; /* bytes used */
    size_t rec; /* offset of the current record */
    int highres;
} array;

static void put32(array *a, size_t off, uint32_t v)
{
    memcpy(a->buf + off, &v, 4);
}

static uint32_t get32(const array *a, size_t off)
{
    uint32_t v;
    memcpy(&v, a->buf + off, 4);
    return v;
}

static void array_start(array *a, int highres)
{
    memset(a->buf, 0, sizeof(a->buf));
    a->highres = highres;
    a->len = 8; /* the value block header and ea_nrecords */
    a->rec = 0;
}

static void array_record(array *a, long sec, long sub, unsigned flags)
{
    put32(a, 4, get32(a, 4) + 1);
    a->rec = a->len;
    if (a->highres) {
        int64_t s = sec, ns = sub;
        memcpy(a->buf + a->len, &s, 8);
        memcpy(a->buf + a->len + 8, &ns, 8);
        a->len += 16;
    } else {
        put32(a, a->len, (uint32_t)sec);
        put32(a, a->len + 4, (uint32_t)sub);
        a->len += 8;
    }
    put32(a, a->len, flags);
    put32(a, a->len + 4, 0);
    a->len += 8;
}

/* A parameter of type with vlen bytes of data; ep_len is hdr + vlen. */
static void array_param(array *a, pmID pmid, int type, const void *data, size_t vlen)
{
    size_t np = a->rec + (a->highres ? 20 : 12);
    pmEventParameter *ep = (pmEventParameter *)(a->buf + a->len);

    put32(a, np, get32(a, np) + 1);
    ep->ep_pmid = pmid;
    ep->ep_len = PM_VAL_HDR_SIZE + (unsigned)vlen;
    ep->ep_type = (unsigned)type;
    a->len += sizeof(pmEventParameter);
    memcpy(a->buf + a->len, data, vlen);
    a->len += (vlen + 3) & ~(size_t)3;
}

static void array_finish(array *a, int type)
{
    pmValueBlock *vb = (pmValueBlock *)a->buf;
    vb->vlen = (unsigned)a->len;
    vb->vtype = (unsigned)type;
}

/* pmUnpack(HighRes)EventRecords of a damaged array (one the dump finds
 * an error in: both libraries stop there): its answer and what it writes
 * on stderr. */
static void unpack_damaged(pmValueSet *vs, int idx, int highres)
{
    FILE *tmp = tmpfile();
    int saved = dup(2), sts;
    char line[512];
    void **res = NULL;

    fflush(stderr);
    dup2(fileno(tmp), 2);
    if (highres)
        sts = pmUnpackHighResEventRecords(vs, idx, (pmHighResResult ***)&res);
    else
        sts = pmUnpackEventRecords(vs, idx, (pmResult ***)&res);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    printf("unpack -> %d\n", sts);
    rewind(tmp);
    while (fgets(line, sizeof(line), tmp) != NULL)
        printf("  stderr: %s", line);
    fclose(tmp);
}

/* The dump of value idx of vs, through a memory stream. */
static void dump(const char *title, pmValueSet *vs, int idx, int highres)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);

    if (highres)
        __pmDumpHighResEventRecords(f, vs, idx);
    else
        __pmDumpEventRecords(f, vs, idx);
    fclose(f);
    printf("=== %s (%s)\n%s", title, highres ? "highres" : "event", text);
    if (!highres)
        printf("__pmCheckEventRecords -> %d\n", __pmCheckEventRecords(vs, idx));
    if (strstr(text, "Error: ") != NULL && vs->numval != 0) /* PCP's unpacks no values */
        unpack_damaged(vs, idx, highres);
    free(text);
}

/* One value set holding a's block as value 0 (and copies after it). */
static void dump_array(const char *title, array *a, int type)
{
    pmValueSet vs;

    array_finish(a, type);
    vs.pmid = pmID_build(29, 4095, 0);
    vs.numval = 1;
    vs.valfmt = PM_VAL_DPTR;
    vs.vlist[0].inst = PM_IN_NULL;
    vs.vlist[0].value.pval = (pmValueBlock *)a->buf;
    dump(title, &vs, 0, a->highres);
}

static void each_type(int highres)
{
    array a;
    int32_t l = -22;
    uint32_t ul = 4000000000U;
    int64_t ll = -24;
    uint64_t ull = 18446744073709551615ULL;
    float fl = -26.5f;
    double d = 27.125;
    const char aggr[] = {1, 3, 7, 15, 31, 63, 127, (char)255, 9};
    int type = highres ? PM_TYPE_HIGHRES_EVENT : PM_TYPE_EVENT;

    array_start(&a, highres);
    array_record(&a, 1700000000, 123456, PM_EVENT_FLAG_POINT);
    array_param(&a, pmID_build(29, 0, 127), PM_TYPE_32, &l, 4);
    array_param(&a, pmID_build(29, 0, 128), PM_TYPE_U32, &ul, 4);
    array_param(&a, pmID_build(29, 0, 129), PM_TYPE_64, &ll, 8);
    array_param(&a, pmID_build(29, 0, 130), PM_TYPE_U64, &ull, 8);
    array_param(&a, pmID_build(29, 0, 131), PM_TYPE_FLOAT, &fl, 4);
    array_param(&a, pmID_build(29, 0, 132), PM_TYPE_DOUBLE, &d, 8);
    array_param(&a, pmID_build(29, 0, 133), PM_TYPE_STRING, "hello", 5);
    array_param(&a, pmID_build(29, 0, 134), PM_TYPE_AGGREGATE, aggr, 8);
    array_param(&a, pmID_build(29, 0, 135), PM_TYPE_AGGREGATE_STATIC, aggr, 9);
    dump_array("every type", &a, type);

    for (size_t n = 0; n <= 9; n++) {
        char title[64];
        array_start(&a, highres);
        array_record(&a, 1, 2, 0);
        array_param(&a, pmID_build(1, 2, 3), PM_TYPE_AGGREGATE, aggr, n);
        array_param(&a, pmID_build(1, 2, 4), PM_TYPE_STRING, "abcdefghi", n);
        array_param(&a, pmID_build(1, 2, 5), PM_TYPE_32, &l, 4);
        snprintf(title, sizeof(title), "aggregate and string of %zu bytes", n);
        dump_array(title, &a, type);
    }

    array_start(&a, highres);
    array_record(&a, 1, 2, 0);
    array_param(&a, pmID_build(1, 2, 3), PM_TYPE_EVENT, aggr, 8);
    array_param(&a, pmID_build(1, 2, 4), PM_TYPE_HIGHRES_EVENT, aggr, 8);
    array_param(&a, pmID_build(1, 2, 5), PM_TYPE_UNKNOWN, aggr, 8);
    array_param(&a, pmID_build(1, 2, 6), PM_TYPE_NOSUPPORT, aggr, 8);
    array_param(&a, pmID_build(1, 2, 7), 17, aggr, 8);
    array_param(&a, pmID_build(1, 2, 8), PM_TYPE_32, &l, 4);
    dump_array("nested and unknown types", &a, type);

    array_start(&a, highres);
    dump_array("no records", &a, type);

    array_start(&a, highres);
    array_record(&a, 10, 20, 0);
    array_record(&a, 11, 21, PM_EVENT_FLAG_START | PM_EVENT_FLAG_ID | PM_EVENT_FLAG_PARENT);
    array_param(&a, pmID_build(2, 0, 1), PM_TYPE_32, &l, 4);
    array_record(&a, 12, 22, PM_EVENT_FLAG_MISSED);
    array_record(&a, 13, 23, PM_EVENT_FLAG_MISSED);
    array_param(&a, pmID_build(511, 0, 2), PM_TYPE_32, &l, 4);
    array_record(&a, 14, 24, PM_EVENT_FLAG_END | 0x100);
    array_param(&a, pmID_build(511, 0, 1), PM_TYPE_U32, &ul, 4);
    array_param(&a, pmID_build(511, 0, 2), PM_TYPE_U32, &ul, 4);
    array_record(&a, 15, 25, 0xffffffffU);
    dump_array("flags and missed records", &a, type);

    array_start(&a, highres);
    array_record(&a, 1, 2, 0);
    array_param(&a, pmID_build(1, 2, 3), PM_TYPE_32, &l, 4);
    dump_array("a value of another type (string)", &a, PM_TYPE_STRING);
    dump_array("a value of the other resolution", &a,
               highres ? PM_TYPE_EVENT : PM_TYPE_HIGHRES_EVENT);
}

/* Every parameter type number, one parameter each (8 bytes of data). */
static void type_numbers(int highres)
{
    array a;
    const char data[8] = {'w', 'x', 'y', 'z', 1, 2, 3, 4};

    array_start(&a, highres);
    array_record(&a, 1, 2, 0);
    for (int t = 0; t < 256; t++)
        array_param(&a, pmID_build(4, 5, t), t, data, 8);
    dump_array("type numbers", &a, highres ? PM_TYPE_HIGHRES_EVENT : PM_TYPE_EVENT);
}

/* A well-formed array cut short at every length, then counts overstated. */
static void truncated(int highres)
{
    array a;
    int32_t l = 7;
    int64_t ll = 8;
    int type = highres ? PM_TYPE_HIGHRES_EVENT : PM_TYPE_EVENT;
    size_t full;
    static char whole[sizeof(a.buf)];

    array_start(&a, highres);
    array_record(&a, 1, 2, PM_EVENT_FLAG_POINT);
    array_param(&a, pmID_build(6, 0, 1), PM_TYPE_32, &l, 4);
    array_param(&a, pmID_build(6, 0, 2), PM_TYPE_STRING, "hello", 5);
    array_record(&a, 3, 4, PM_EVENT_FLAG_MISSED);
    put32(&a, a.rec + (highres ? 20 : 12), 3);
    array_record(&a, 5, 6, 0);
    array_param(&a, pmID_build(6, 0, 3), PM_TYPE_64, &ll, 8);
    full = a.len;
    array_finish(&a, type);
    memcpy(whole, a.buf, full);
    for (int zeros = 0; zeros <= 1; zeros++) {
        for (size_t cut = 8; cut <= full + 4; cut++) { /* under 8: the 4 bytes below */
            char title[64];
            pmValueBlock *vb = (pmValueBlock *)a.buf;
            pmValueSet vs;
            /* the second time round, zeros past the cut (and the head) */
            memcpy(a.buf, whole, full);
            if (zeros && cut < full)
                memset(a.buf + (cut < 8 ? 8 : cut), 0, full - (cut < 8 ? 8 : cut));
            vb->vlen = (unsigned)cut;
            snprintf(title, sizeof(title), "cut at %zu of %zu%s", cut, full,
                     zeros ? ", zeros after" : "");
            vs.pmid = pmID_build(6, 0, 0);
            vs.numval = 1;
            vs.valfmt = PM_VAL_DPTR;
            vs.vlist[0].inst = PM_IN_NULL;
            vs.vlist[0].value.pval = vb;
            dump(title, &vs, 0, highres);
        }
    }
    memcpy(a.buf, whole, full);
    array_finish(&a, type);
    for (int extra = 1; extra <= 3; extra++) {
        char title[64];
        put32(&a, 4, 3 + extra);
        snprintf(title, sizeof(title), "%d records too many", extra);
        dump_array(title, &a, type);
    }
    put32(&a, 4, (uint32_t)-1);
    dump_array("-1 records", &a, type);
    for (int n = -1; n <= 0; n++) { /* PCP's reads a count past the 4 bytes */
        char title[64];
        pmValueSet vs;
        for (int t = PM_TYPE_EVENT; t <= PM_TYPE_HIGHRES_EVENT; t++) {
            pmValueBlock *vb = (pmValueBlock *)a.buf;
            put32(&a, 4, (uint32_t)n);
            vb->vlen = 4;
            vb->vtype = (unsigned)t;
            vs.pmid = PM_ID_NULL;
            vs.numval = 1;
            vs.valfmt = PM_VAL_DPTR;
            vs.vlist[0].inst = PM_IN_NULL;
            vs.vlist[0].value.pval = vb;
            snprintf(title, sizeof(title), "4 bytes, type %d, %d records", t, n);
            dump(title, &vs, 0, highres);
        }
    }

    array_start(&a, highres);
    array_record(&a, 1, 2, PM_EVENT_FLAG_START);
    put32(&a, a.rec + (highres ? 20 : 12), (uint32_t)-2);
    array_record(&a, 1, 2, PM_EVENT_FLAG_MISSED | PM_EVENT_FLAG_POINT);
    put32(&a, a.rec + (highres ? 20 : 12), (uint32_t)-3);
    array_record(&a, 3, 4, PM_EVENT_FLAG_POINT);
    array_param(&a, pmID_build(6, 0, 9), PM_TYPE_32, &l, 4);
    dump_array("negative parameter counts", &a, type);
}

/* Parameters whose length is below the header's, strings with a NUL. */
static void odd_params(int highres)
{
    array a;
    int32_t l = 9;
    int type = highres ? PM_TYPE_HIGHRES_EVENT : PM_TYPE_EVENT;

    for (unsigned len = 0; len <= 4; len++) {
        char title[64];
        pmEventParameter *ep;
        array_start(&a, highres);
        array_record(&a, 1, 2, 0);
        ep = (pmEventParameter *)(a.buf + a.len);
        array_param(&a, pmID_build(7, 0, 1), PM_TYPE_STRING, "wxyz", 4);
        ep->ep_len = len;
        ep = (pmEventParameter *)(a.buf + a.len);
        array_param(&a, pmID_build(7, 0, 2), PM_TYPE_32, &l, 4);
        ep->ep_len = len;
        array_param(&a, pmID_build(7, 0, 3), PM_TYPE_32, &l, 4);
        snprintf(title, sizeof(title), "parameter length %u", len);
        dump_array(title, &a, type);
    }
    array_start(&a, highres);
    array_record(&a, 1, 2, 0);
    array_param(&a, pmID_build(7, 0, 4), PM_TYPE_STRING, "ab\0cd", 5);
    array_param(&a, pmID_build(7, 0, 5), PM_TYPE_STRING, "tab\there\n\"q\"", 13);
    array_param(&a, pmID_build(7, 0, 6), PM_TYPE_STRING, "", 1);
    dump_array("strings with a NUL and escapes", &a, type);
}

static void value_sets(int highres)
{
    array a;
    pmValueSet *vs = malloc(sizeof(pmValueSet) + 2 * sizeof(pmValue));
    int32_t l = 5;

    array_start(&a, highres);
    array_record(&a, 1, 2, PM_EVENT_FLAG_POINT);
    array_param(&a, pmID_build(3, 4, 5), PM_TYPE_32, &l, 4);
    array_finish(&a, highres ? PM_TYPE_HIGHRES_EVENT : PM_TYPE_EVENT);
    vs->pmid = pmID_build(3, 4, 6);
    vs->numval = 3;
    vs->valfmt = PM_VAL_DPTR;
    for (int i = 0; i < 3; i++) {
        vs->vlist[i].inst = i * 10;
        vs->vlist[i].value.pval = (pmValueBlock *)a.buf;
    }
    dump("third value", vs, 2, highres);
    dump("first value of three", vs, 0, highres);
    vs->numval = 1;
    vs->vlist[0].inst = 7;
    dump("one value, instance 7", vs, 0, highres);
    vs->vlist[0].inst = PM_IN_NULL;
    dump("one value, no instance", vs, 0, highres);
    vs->vlist[1].inst = PM_IN_NULL;
    vs->numval = 3;
    dump("second of three, no instance", vs, 1, highres);
    for (int t = 0; t <= 12; t++) {
        char title[64];
        ((pmValueBlock *)a.buf)->vtype = (unsigned)(t == 12 ? 255 : t);
        snprintf(title, sizeof(title), "value type %d", t == 12 ? 255 : t);
        dump(title, vs, 0, highres);
    }
    vs->valfmt = PM_VAL_SPTR;
    dump("static pointer", vs, 0, highres);
    vs->numval = 0;
    dump("no values", vs, 0, highres);
    vs->numval = PM_ERR_AGAIN;
    dump("an error", vs, 0, highres);
    vs->numval = 1;
    vs->valfmt = PM_VAL_INSITU;
    vs->vlist[0].value.lval = 42;
    dump("insitu", vs, 0, highres);
    vs->valfmt = 3;
    dump("value format 3", vs, 0, highres);
    free(vs);
}

/* __pmDumpResult with no context (so no descriptors): a set of one value
 * and sets of several, with and without instances, as the testsuite's
 * unpack dumps the records it unpacks. */
static void results(void)
{
    pmResult *r = malloc(sizeof(pmResult) + 2 * sizeof(pmValueSet *));
    pmValueSet *one = malloc(sizeof(pmValueSet)),
               *two = malloc(sizeof(pmValueSet) + sizeof(pmValue));
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);

    one->pmid = pmID_build(29, 0, 127);
    one->numval = 1;
    one->valfmt = PM_VAL_INSITU;
    one->vlist[0].inst = PM_IN_NULL;
    one->vlist[0].value.lval = 1;
    two->pmid = pmID_build(29, 0, 128);
    two->numval = 2;
    two->valfmt = PM_VAL_INSITU;
    two->vlist[0].inst = PM_IN_NULL;
    two->vlist[0].value.lval = 2;
    two->vlist[1].inst = 5;
    two->vlist[1].value.lval = 3;
    r->timestamp.tv_sec = 1700000000;
    r->timestamp.tv_usec = 0;
    r->numpmid = 3;
    r->vset[0] = one;
    r->vset[1] = two;
    r->vset[2] = one;
    one->vlist[0].inst = PM_IN_NULL;
    __pmDumpResult(f, r);
    one->vlist[0].inst = 9;
    __pmDumpResult(f, r);
    fclose(f);
    /* the result's address and the time of day (the zone's) masked */
    printf("=== __pmDumpResult without a context\n");
    for (char *line = strtok(text, "\n"); line != NULL; line = strtok(NULL, "\n"))
        printf("%s\n",
               strncmp(line, "pmResult dump from", 18) == 0 ? "pmResult dump (masked)" : line);
    free(text);
    free(one);
    free(two);
    free(r);
}

/* With the fetch debug option, the unpackers dump what they return (and
 * stamps and addresses are masked): two records, and none.  The records
 * have no flags: PCP names event.flags without a context, pmkit does not
 * yet. */
static void debug_unpack(void)
{
    int32_t l = 7;

    pmSetDebug("fetch");
    for (int highres = 0; highres <= 1; highres++)
        for (int n = 0; n <= 2; n += 2) {
            array a;
            pmValueSet vs;
            FILE *tmp = tmpfile();
            int saved = dup(2), sts;
            char line[512];
            void **res = NULL;
            array_start(&a, highres);
            for (int r = 0; r < n; r++) {
                array_record(&a, 1700000000 + r, 5, 0);
                array_param(&a, pmID_build(29, 0, 127), PM_TYPE_32, &l, 4);
            }
            array_finish(&a, highres ? PM_TYPE_HIGHRES_EVENT : PM_TYPE_EVENT);
            vs.pmid = pmID_build(29, 4095, 0);
            vs.numval = 1;
            vs.valfmt = PM_VAL_DPTR;
            vs.vlist[0].inst = PM_IN_NULL;
            vs.vlist[0].value.pval = (pmValueBlock *)a.buf;
            fflush(stderr);
            dup2(fileno(tmp), 2);
            if (highres) {
                sts = pmUnpackHighResEventRecords(&vs, 0, (pmHighResResult ***)&res);
                pmFreeHighResEventResult((pmHighResResult **)res);
            } else {
                sts = pmUnpackEventRecords(&vs, 0, (pmResult ***)&res);
                pmFreeEventResult((pmResult **)res);
            }
            fflush(stderr);
            dup2(saved, 2);
            close(saved);
            printf("=== debug fetch, %d records (%s): %d\n", n, highres ? "highres" : "event", sts);
            rewind(tmp);
            while (fgets(line, sizeof(line), tmp) != NULL) {
                char *t = strstr(line, " timestamp:");
                if (strstr(line, "dump from ") != NULL && t != NULL)
                    strcpy(strstr(line, "dump from ") + 10, "(masked)\n");
                printf("  stderr: %s", line);
            }
            fclose(tmp);
        }
    pmClearDebug("fetch");
}

int main(void)
{
    for (int highres = 0; highres <= 1; highres++) {
        each_type(highres);
        value_sets(highres);
        type_numbers(highres);
        truncated(highres);
        odd_params(highres);
    }
    results();
    debug_unpack();
    return 0;
}
