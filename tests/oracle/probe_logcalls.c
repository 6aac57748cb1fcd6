/*
 * probe_logcalls.c - libpcp's internal calls of pcp-testsuite's archive
 * programs, probed the same way against pmkit's library and Debian's
 * (compare.sh wants identical output):
 *  - __pmDecodeValueSet (scandata) over data records made here in a PDU
 *    buffer as scandata lays them out: values in place and in blocks of
 *    each kind, error codes as counts, then each length, bound and field
 *    made wrong one at a time (not a block named twice in another order:
 *    Debian's then reads a garbled header, and may crash).
 * Only <pcp/pmapi.h>, PCP's "libpcp.h" and standard C.
 */
#include <pcp/pmapi.h>
#include "libpcp.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- value sets */

#define MAXW 64

/* A record in words: two words before it (a PDU's room), the length, a
 * v2 time, the count, then the value sets and blocks; no closing length
 * word is needed, scandata's end points at it. */
typedef struct {
    __int32_t w[MAXW];
    int n;
} record;

static void put(record *r, unsigned int v)
{
    r->w[r->n++] = (__int32_t)htonl(v);
}

/* The record every case starts from: five value sets of each shape. */
static void make(record *r)
{
    memset(r, 0, sizeof(*r));
    r->n = 2;
    put(r, 0);   /* length: set below */
    put(r, 100); /* seconds */
    put(r, 500); /* microseconds */
    put(r, 5);   /* value sets */
    /* 0: two values in place */
    put(r, pmID_build(29, 0, 1));
    put(r, 2);
    put(r, PM_VAL_INSITU);
    put(r, 7);
    put(r, 70);
    put(r, 8);
    put(r, (unsigned int)-80);
    /* 1: an error code instead of values */
    put(r, pmID_build(29, 0, 2));
    put(r, (unsigned int)PM_ERR_PMID);
    /* 2: no values */
    put(r, pmID_build(29, 0, 3));
    put(r, 0);
    /* 3: a string and a 64-bit number in blocks (offsets set below) */
    put(r, pmID_build(29, 0, 4));
    put(r, 2);
    put(r, PM_VAL_DPTR);
    put(r, 1);
    put(r, 0); /* word 21 */
    put(r, 2);
    put(r, 0); /* word 23 */
    /* 4: a double in a block */
    put(r, pmID_build(29, 0, 5));
    put(r, 1);
    put(r, PM_VAL_SPTR);
    put(r, 9);
    put(r, 0); /* word 28 */
    /* the blocks */
    r->w[21] = (__int32_t)htonl((unsigned int)r->n);
    put(r, (unsigned int)(PM_TYPE_STRING << 24 | 10));
    memcpy(&r->w[r->n], "abcdef\0\0", 8);
    r->n += 2;
    r->w[23] = (__int32_t)htonl((unsigned int)r->n);
    put(r, (unsigned int)(PM_TYPE_U64 << 24 | 12));
    put(r, 0x01020304);
    put(r, 0x05060708);
    r->w[28] = (__int32_t)htonl((unsigned int)r->n);
    put(r, (unsigned int)(PM_TYPE_DOUBLE << 24 | 12));
    put(r, 0x40091eb8);
    put(r, 0x51eb851f);
    put(r, 0); /* the closing length word's place */
    r->w[2] = (__int32_t)htonl((unsigned int)(r->n - 2) * 4);
}

static void print_vset(const pmValueSet *vs)
{
    printf("  %s numval %d", pmIDStr(vs->pmid), vs->numval);
    if (vs->numval > 0)
        printf(" valfmt %d", vs->valfmt);
    for (int j = 0; j < vs->numval; j++) {
        const pmValue *v = &vs->vlist[j];
        printf(" [%d]", v->inst);
        if (vs->valfmt == PM_VAL_INSITU) {
            printf(" %d", v->value.lval);
            continue;
        }
        printf(" type %u len %u:", v->value.pval->vtype, v->value.pval->vlen);
        for (unsigned int k = 0; k + PM_VAL_HDR_SIZE < v->value.pval->vlen; k++)
            printf(" %02x", (unsigned char)v->value.pval->vbuf[k]);
    }
    printf("\n");
}

/* Decode r as scandata does, with each argument moved by the amounts
 * given (bytes; numpmid by count). */
static void decode(const char *what, const record *r, int dlen, int dend, int dsiz, int dnum)
{
    int words = r->n;
    __pmPDU *buf = __pmFindPDUBuf(words * 4 + 64);
    __pmResult *rp;
    int numpmid, sts, len, preamble;
    __int32_t *data;

    memcpy(buf, r->w, (size_t)words * 4);
    len = (int)ntohl((unsigned int)r->w[2]);
    numpmid = (int)ntohl((unsigned int)r->w[5]) + dnum;
    data = (__int32_t *)&buf[6];
    preamble = (int)((char *)data - (char *)buf);
    rp = __pmAllocResult(numpmid < 1 ? 1 : numpmid);
    rp->numpmid = numpmid < 0 ? 0 : numpmid;
    sts = __pmDecodeValueSet(buf, len + 4 + dlen, (__pmPDU *)data, (char *)&buf[words - 1] + dend,
                             numpmid, preamble + dsiz, preamble + dsiz, rp->vset);
    printf("%s: %d%s%s\n", what, sts, sts < 0 ? " " : "", sts < 0 ? pmErrStr(sts) : "");
    if (sts >= 0) {
        for (int i = 0; i < numpmid; i++)
            print_vset(rp->vset[i]);
        __pmFreeResult(rp);
    } else {
        free(rp);
    }
    __pmUnpinPDUBuf(buf);
}

/* r with word i set to v (in network order). */
static void with(record *r, int i, unsigned int v)
{
    make(r);
    r->w[i] = (__int32_t)htonl(v);
}

static void value_sets(void)
{
    record r;

    make(&r);
    decode("whole", &r, 0, 0, 0, 0);
    decode("pdulen -4", &r, -4, 0, 0, 0);
    decode("pdulen +4", &r, 4, 0, 0, 0);
    decode("pduend -4", &r, 0, -4, 0, 0);
    decode("pduend +4", &r, 0, 4, 0, 0);
    decode("pduend -1", &r, 0, -1, 0, 0);
    decode("vsiz -4", &r, 0, 0, -4, 0);
    decode("vsiz +4", &r, 0, 0, 4, 0);
    decode("numpmid -1", &r, 0, 0, 0, -1);
    decode("numpmid +1", &r, 0, 0, 0, 1);
    decode("numpmid 0", &r, 0, 0, 0, -5);
    with(&r, 8, 3);
    decode("valfmt 3", &r, 0, 0, 0, 0);
    with(&r, 7, 100);
    decode("numval 100", &r, 0, 0, 0, 0);
    with(&r, 7, 1);
    decode("numval 1 of 2", &r, 0, 0, 0, 0);
    with(&r, 14, (unsigned int)-1);
    decode("count -1", &r, 0, 0, 0, 0);
    with(&r, 16, 1);
    decode("no values made 1", &r, 0, 0, 0, 0);
    with(&r, 21, 6);
    decode("block in the value sets", &r, 0, 0, 0, 0);
    with(&r, 21, 28);
    decode("block on the last value set", &r, 0, 0, 0, 0);
    with(&r, 21, 200);
    decode("block past the end", &r, 0, 0, 0, 0);
    with(&r, 21, 37);
    decode("block past the end by one", &r, 0, 0, 0, 0);
    with(&r, 21, 35);
    decode("two values, one block", &r, 0, 0, 0, 0);
    with(&r, 21, 30);
    decode("block inside a block", &r, 0, 0, 0, 0);
    with(&r, 29, (unsigned int)(PM_TYPE_STRING << 24 | 2));
    decode("block length 2", &r, 0, 0, 0, 0);
    with(&r, 29, (unsigned int)(PM_TYPE_STRING << 24 | 4));
    decode("block length 4", &r, 0, 0, 0, 0);
    with(&r, 29, (unsigned int)(PM_TYPE_STRING << 24 | 14));
    decode("block length 14", &r, 0, 0, 0, 0);
    with(&r, 29, (unsigned int)(PM_TYPE_STRING << 24 | 9));
    decode("block length 9", &r, 0, 0, 0, 0);
    with(&r, 29, (unsigned int)(PM_TYPE_STRING << 24 | 8));
    decode("block length 8", &r, 0, 0, 0, 0);
    with(&r, 35, (unsigned int)(PM_TYPE_STRING << 24 | 40));
    decode("last block length 40", &r, 0, 0, 0, 0);
    with(&r, 35, (unsigned int)(PM_TYPE_STRING << 24 | 16));
    decode("last block length 16", &r, 0, 0, 0, 0);
    with(&r, 35, (unsigned int)(PM_TYPE_32 << 24 | 12));
    decode("block type 32", &r, 0, 0, 0, 0);
    with(&r, 35, (unsigned int)(PM_TYPE_FLOAT << 24 | 12));
    decode("block type float", &r, 0, 0, 0, 0);
    with(&r, 35, (unsigned int)(PM_TYPE_AGGREGATE << 24 | 12));
    decode("block type aggregate", &r, 0, 0, 0, 0);
    with(&r, 35, (unsigned int)(PM_TYPE_64 << 24 | 12));
    decode("block type 64", &r, 0, 0, 0, 0);
    with(&r, 35, (unsigned int)(200 << 24 | 12));
    decode("block type 200", &r, 0, 0, 0, 0);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    value_sets();
    return 0;
}
