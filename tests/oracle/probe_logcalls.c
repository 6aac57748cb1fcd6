/*
 * probe_logcalls.c - libpcp's internal calls of pcp-testsuite's archive
 * programs, probed the same way against pmkit's library and Debian's
 * (compare.sh wants identical output):
 *  - __pmDecodeValueSet (scandata) over data records made here in a PDU
 *    buffer as scandata lays them out: values in place and in blocks of
 *    each kind, error codes as counts, then each length, bound and field
 *    made wrong one at a time (not a block named twice in another order:
 *    Debian's then reads a garbled header, and may crash);
 *  - __pmParseCtime (timeshift) over dates and times of each form, with
 *    fields left out, in the wrong order and out of range (seconds as
 *    strtod reads them, minutes as strtol, 24 to 31 before a colon): the
 *    status, every field of the struct tm it fills, and its message;
 *  - __pmConvertHighResTime of those from origins either side of each
 *    field, in UTC and in a zone with daylight saving, and of hand-made
 *    struct tm values (fields -1 here and there, tm_isdst set).
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
    with(&r, 35, (200U << 24 | 12U));
    decode("block type 200", &r, 0, 0, 0, 0);
}

/* ---------------------------------------------------------------- dates */

static const char *const dates[] = {"Mon Jan 14 13:30:00 2000",
                                    "Jan",
                                    "jan",
                                    "JAN",
                                    "January",
                                    "Janu",
                                    "Jan1",
                                    "13:30",
                                    "14",
                                    "2000",
                                    "Tue",
                                    "Mon",
                                    "Mon Jan",
                                    "Sun Jan 14",
                                    "Wednesday March",
                                    "Mo Jan",
                                    "Thu 13:00",
                                    "Thu 2001",
                                    "Fri 31",
                                    "Mon 14",
                                    "Mon 24",
                                    "Mon 14 2001",
                                    "Mon 14 Jan",
                                    "13:30:05.5",
                                    "13:30:00.1234567891",
                                    "Feb 30",
                                    "bogus",
                                    "x",
                                    "",
                                    "  ",
                                    "  Mar   3  ",
                                    "Jan\t5",
                                    "Jan 14\t13:00",
                                    "Jan 14 25:00",
                                    "Jan 1 24:00",
                                    "13:30:61",
                                    "Jan 1 23:59:60",
                                    "Jan 1 23:59:62",
                                    "12:60",
                                    "1:2:3",
                                    "1:",
                                    "12:",
                                    "1::",
                                    "1::5",
                                    "1:5:",
                                    "1:2:3.",
                                    "1:2:.5",
                                    "1:.5",
                                    ".5",
                                    "13:30.5",
                                    "13:30x",
                                    "1:2:3:4",
                                    "Jan 14 13:-5",
                                    "Jan 14 013:00",
                                    "Jan 14 13:030",
                                    "Jan 14 13:30:00 1969",
                                    "Mar 3 12",
                                    "Mar 3 12:00",
                                    "Mar 3 12 2001",
                                    "2001 14",
                                    "14:00 2001",
                                    "Jan 2001",
                                    "Jan 14 2001",
                                    "Jan 14 13",
                                    "Jan 14 12 30",
                                    "Jan 14 24",
                                    "Jan 3 4 5",
                                    "Jan 1 2 3",
                                    "Jan 14 5 2001",
                                    "Jan 31 23 2001",
                                    "Jan 31 23",
                                    "3 Mar",
                                    "1 Jan",
                                    "24 Jan",
                                    "Mar 32",
                                    "Mar 0",
                                    "Jan 0",
                                    "Jan 05",
                                    "Jan 005",
                                    "Jan 000000000000014",
                                    "Jan 99",
                                    "Jan 100",
                                    "Jan 1000",
                                    "Jan 1899",
                                    "Jan 1900",
                                    "Jan 01999",
                                    "Jan 9999",
                                    "Jan 99999",
                                    "Jan 2001 1:00",
                                    "Jan 14 13:30 2000 x",
                                    "2000 Jan",
                                    "13:30 2000 Jan",
                                    "12",
                                    "0",
                                    "14 ",
                                    "24",
                                    "31",
                                    "32",
                                    "100",
                                    "1899",
                                    "1969",
                                    "10000",
                                    "99999",
                                    "123456789012",
                                    "24 2001",
                                    "31 2001",
                                    "23 2001",
                                    "0 2001",
                                    "14 2001",
                                    "-5 2001",
                                    "+5 Jan",
                                    "Jan 5 -1",
                                    "24 13:00",
                                    "14 13:00",
                                    "14 1:00",
                                    "14 5",
                                    "24 5",
                                    "14 25",
                                    "Jan 1:00",
                                    "Mon Jan 2001 ",
                                    "Jan 14 13:30:00 10000",
                                    "Jan 14 13:30:00 999",
                                    "Jan 14 13:30:00 0999",
                                    "Dec 31 1969",
                                    "Dec 31 23:59:59.999999999 1999",
                                    "Jul 4",
                                    "23:00",
                                    "1:2:3.000000001",
                                    "Jan 1 00:00:00 1970",
                                    "13:30:00.3",
                                    "13:30:05.3",
                                    "Jan 14 13:30:59.9",
                                    "13:30:00.123456789",
                                    "13:30:07.000000001",
                                    "13:30:60.5",
                                    "13:30:61.0",
                                    "13:30:61.3",
                                    "13:30:5e1",
                                    "13:30:0x10",
                                    "13:30:.5",
                                    "13:30:+5",
                                    "13:30:-0.0",
                                    "13:30:-1",
                                    "13:30:1e400",
                                    "13:30:  7",
                                    "13:30:inf",
                                    "13: 5",
                                    "13:+5",
                                    "13:-0",
                                    "13:-5",
                                    "13:0x10",
                                    "25:00",
                                    "24:",
                                    "31:30:10",
                                    "32:00",
                                    "Jan 25:00",
                                    "Jan 14 25:00",
                                    "14 24:00",
                                    "25:00 13:00",
                                    "25:00 5",
                                    "25:00 2001",
                                    "Tue 25:00",
                                    "Jan 1:2:3 14",
                                    "Jan 13:30 14 2001",
                                    "Jan 1:2 5",
                                    "Jan 1:2:3 2001",
                                    "Jan 13:30:05.5 25",
                                    "Jan 1:2:3 25 10000",
                                    ":30",
                                    ":",
                                    "::15",
                                    "13 :30",
                                    "13 : 30 : 15",
                                    "13:30 :15",
                                    "Jan 14 :30",
                                    "14 14 :",
                                    "2 :",
                                    "+4 : 2001",
                                    ": +4",
                                    ":30 14",
                                    "14 :30 Jan",
                                    "2001 :30",
                                    "Tue :30",
                                    "13:2001",
                                    "13: 2001",
                                    "13:30:2001",
                                    "13:30 :2001",
                                    "31  : 2001",
                                    "13: :30",
                                    "Jan 0",
                                    "Jan 0 5",
                                    "Jan 0 13:30",
                                    "0 13:30",
                                    "0 5",
                                    "0 0",
                                    "0 5 2001",
                                    "0 0 2001",
                                    "0 24",
                                    "0 5 13:30",
                                    "Sat\ta1",
                                    "13:30\tx\t5",
                                    NULL};

/* "\t" in a case is a tab. */
static void unescape(const char *in, char *out, size_t size)
{
    size_t n = 0;

    for (; *in != '\0' && n + 1 < size; in++)
        out[n++] = in[0] == '\\' && in[1] == 't' ? (in++, '\t') : *in;
    out[n] = '\0';
}

static void print_tm(const struct tm *tm)
{
    printf("%d-%d-%d %d:%d:%d wday %d yday %d isdst %d gmtoff %ld zone %s", tm->tm_year, tm->tm_mon,
           tm->tm_mday, tm->tm_hour, tm->tm_min, tm->tm_sec, tm->tm_wday, tm->tm_yday, tm->tm_isdst,
           (long)tm->tm_gmtoff, tm->tm_zone == (const char *)-1 ? "-1" : "other");
}

static void convert(struct tm *tm, time_t origin)
{
    struct timespec o = {origin, 250000000}, r = {-7, -7};
    struct tm before = *tm;
    int sts = __pmConvertHighResTime(tm, &o, &r);

    printf("    from %ld: %d %ld.%09ld%s\n", (long)origin, sts, (long)r.tv_sec, r.tv_nsec,
           memcmp(&before, tm, sizeof(before)) == 0 ? "" : " (input changed)");
}

/* Origins: around the turn of a year, a month, a day and an hour. */
static const time_t origins[] = {1000000000, 1700000000, 946684799, 1012521600, 1000090800};

static void parse_dates(int convert_too)
{
    char text[128];

    for (int i = 0; dates[i] != NULL; i++) {
        struct tm tm;
        char *err = NULL;
        int sts;
        unescape(dates[i], text, sizeof(text));
        memset(&tm, 0x55, sizeof(tm));
        sts = __pmParseCtime(text, &tm, &err);
        printf("[%s] %d: ", dates[i], sts);
        if (sts != 0) {
            printf("%s", err);
            free(err);
            continue;
        }
        print_tm(&tm);
        printf("\n");
        for (size_t k = 0; convert_too && k < sizeof(origins) / sizeof(origins[0]); k++)
            convert(&tm, origins[k]);
    }
}

/* struct tm values no parse makes: -1 in odd places, tm_isdst, nanoseconds. */
static void made_by_hand(void)
{
    struct tm tm;

    memset(&tm, 0, sizeof(tm));
    tm.tm_year = 118;
    tm.tm_mday = 2;
    printf("2018-01-02:\n");
    convert(&tm, 0);
    tm.tm_isdst = 1;
    printf("2018-01-02 isdst 1:\n");
    convert(&tm, 0);
    tm.tm_isdst = 0;
    tm.tm_yday = 5;
    printf("2018-01-02 yday 5:\n");
    convert(&tm, 0);
    tm.tm_mon = -1;
    tm.tm_hour = -1;
    printf("2018 day 2 no month or hour:\n");
    convert(&tm, 1000000000);
    convert(&tm, 1700000000);
    tm.tm_year = -1;
    tm.tm_mon = 5;
    tm.tm_mday = -1;
    tm.tm_sec = -1;
    printf("June, minute 0, no day or second:\n");
    convert(&tm, 1000000000);
    convert(&tm, 1700000000);
    tm.tm_year = 2018;
    printf("year 2018 as tm_year:\n");
    convert(&tm, 0);
    tm.tm_year = 101;
    tm.tm_yday = -1;
    printf("2001, no nanoseconds:\n");
    convert(&tm, 1000000000);
    memset(&tm, 0xff, sizeof(tm));
    tm.tm_sec = 30;
    printf("second 30 alone:\n");
    convert(&tm, 1000000000);
    convert(&tm, 1000000040);
}

int main(void)
{
    setenv("TZ", "UTC", 1);
    setvbuf(stdout, NULL, _IOLBF, 0);
    value_sets();
    printf("--- dates, UTC\n");
    parse_dates(1);
    made_by_hand();
    /* a reporting zone with daylight saving (Melbourne's rules) */
    if (pmNewZone("AEST-10AEDT,M10.1.0,M4.1.0/3") < 0)
        printf("pmNewZone failed\n");
    printf("--- dates, AEST-10AEDT\n");
    parse_dates(1);
    made_by_hand();
    return 0;
}
