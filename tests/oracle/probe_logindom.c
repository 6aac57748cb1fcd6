/*
 * probe_logindom.c - the instance domain records of <pcp/libpcp.h>,
 * called directly, built against Debian's libpcp and pmkit's; the two
 * outputs must be identical (compare.sh).
 *
 * __pmLogLoadInDom over records made here in memory (the caller's buffer,
 * acp NULL): versions 2 and 3, a delta, no instances, a type that is no
 * instance domain; what it puts in the structure (stamp, indom, numinst,
 * isdelta, alloc, buf, links, where instlist and names point) and what it
 * leaves converted in the buffer.  __pmLogUndeltaInDom over chains built
 * by hand in identifier order, linked both ways: a delta after a whole
 * entry, two deltas in a row made whole from the newer one, a delta with
 * no prior links, an entry that is no delta.  __pmFreeLogInDom on
 * structures owning each part (the sanitizers check the frees).
 */
#include <pcp/pmapi.h>

#include "libpcp.h"

#include <arpa/inet.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void show(const char *what, const __pmLogInDom *l, const int32_t *buf, size_t len)
{
    printf("%s: indom %s stamp %lld.%09d isdelta %d numinst %d alloc %d buf %s next %s prior %s",
           what, pmInDomStr(l->indom), (long long)l->stamp.sec, (int)l->stamp.nsec, l->isdelta,
           l->numinst, l->alloc, l->buf == NULL ? "NULL" : "set", l->next == NULL ? "NULL" : "set",
           l->prior == NULL ? "NULL" : "set");
    if (buf != NULL)
        printf(" instlist %s", (const char *)l->instlist >= (const char *)buf &&
                                       (const char *)l->instlist < (const char *)buf + len
                                   ? "in buf"
                                   : "elsewhere");
    printf("\n");
    for (int i = 0; i < l->numinst; i++) {
        const char *n = l->namelist == NULL ? "(no list)" : l->namelist[i];
        printf("  [%d] %s", l->instlist[i], n == NULL ? "(NULL)" : n);
        if (buf != NULL && l->namelist != NULL && n != NULL)
            printf(" %s",
                   n >= (const char *)buf && n < (const char *)buf + len ? "in buf" : "elsewhere");
        printf("\n");
    }
}

static void words(const int32_t *buf, int n)
{
    printf("  words:");
    for (int i = 0; i < n; i++)
        printf(" %08x", (unsigned)buf[i]);
    printf("\n");
}

static void load(const char *what, int type, int32_t *raw, size_t len, int nwords)
{
    int32_t *buf = malloc(len), *b;
    __pmLogInDom lid;
    int sts;

    memcpy(buf, raw, len);
    b = buf;
    memset(&lid, 0, sizeof(lid));
    sts = __pmLogLoadInDom(NULL, 0, type, &lid, &b);
    printf("%s: %d%s%s, buf %s\n", what, sts, sts < 0 ? " " : "", sts < 0 ? pmErrStr(sts) : "",
           b == buf ? "kept" : "changed");
    if (sts >= 0) {
        show(what, &lid, buf, len);
        words(buf, nwords);
        __pmFreeLogInDom(&lid);
    }
    free(buf);
}

static void loads(void)
{
    /* version 3: seconds as two words (low, high), nanoseconds, indom,
     * numinst, instances, name offsets, names */
    int32_t d3[13] = {1600000000, 0, 123, (int32_t)pmInDom_build(29, 12), 3, 5, 6, 7, 0, -1, 3};
    int32_t v2[9] = {1600000000, 250000, (int32_t)pmInDom_build(2, 1), 2, 11, 10, 0, 2};
    int32_t e3[5] = {77, 0, 5, (int32_t)pmInDom_build(2, 1), 0};

    memcpy(&d3[11], "ab\0cd\0\0", 8);
    for (int i = 0; i < 11; i++)
        d3[i] = (int32_t)htonl((uint32_t)d3[i]);
    memcpy(&v2[8], "a\0b", 4);
    for (int i = 0; i < 8; i++)
        v2[i] = (int32_t)htonl((uint32_t)v2[i]);
    for (int i = 0; i < 5; i++)
        e3[i] = (int32_t)htonl((uint32_t)e3[i]);
    load("v3 delta", TYPE_INDOM_DELTA, d3, sizeof(d3), 11);
    load("v3 whole", TYPE_INDOM, d3, sizeof(d3), 11);
    load("v2", TYPE_INDOM_V2, v2, sizeof(v2), 8);
    load("v3 empty", TYPE_INDOM, e3, sizeof(e3), 5);
    load("desc", TYPE_DESC, d3, sizeof(d3), 0);
    load("label", TYPE_LABEL, d3, sizeof(d3), 0);
}

/* A chain entry owning its lists, as a reader would make one. */
static __pmLogInDom *entry(int isdelta, int sec, int n, const int *inst, char *const *name)
{
    __pmLogInDom *e = calloc(1, sizeof(*e));

    e->indom = pmInDom_build(7, 7);
    e->stamp.sec = sec;
    e->isdelta = isdelta;
    e->numinst = n;
    e->instlist = malloc(sizeof(int) * (size_t)(n + 1));
    e->namelist = malloc(sizeof(char *) * (size_t)(n + 1));
    memcpy(e->instlist, inst, sizeof(int) * (size_t)n);
    memcpy(e->namelist, name, sizeof(char *) * (size_t)n);
    e->alloc = PMLID_SELF | PMLID_INSTLIST | PMLID_NAMELIST;
    return e;
}

static void link2(__pmLogInDom *newer, __pmLogInDom *older)
{
    newer->next = older;
    older->prior = newer;
}

static void undeltas(void)
{
    static const int i0[] = {1, 2, 3}, i1[] = {2, 4}, i2[] = {1, 5, 6}, i3[] = {3};
    static char *const n0[] = {"one", "two", "three"}, *const n1[] = {NULL, "four"},
                       *const n2[] = {NULL, "five", "six"}, *const n3[] = {NULL};
    pmInDom indom = pmInDom_build(7, 7);
    __pmLogInDom *full = entry(0, 10, 3, i0, n0), *d1 = entry(1, 11, 2, i1, n1),
                 *d2 = entry(1, 12, 3, i2, n2), *lone, *whole;

    link2(d1, full);
    link2(d2, d1);
    __pmLogUndeltaInDom(indom, d1);
    show("delta after a whole one", d1, NULL, 0);
    __pmLogUndeltaInDom(indom, d1);
    show("again", d1, NULL, 0);
    __pmLogUndeltaInDom(indom, d2);
    show("the next delta", d2, NULL, 0);
    __pmFreeLogInDom(d2);
    __pmFreeLogInDom(d1);

    /* two deltas in a row, the newer made whole first */
    d1 = entry(1, 11, 2, i1, n1);
    d2 = entry(1, 12, 3, i2, n2);
    link2(d1, full);
    link2(d2, d1);
    __pmLogUndeltaInDom(indom, d2);
    show("newer of two deltas", d2, NULL, 0);
    show("its older delta", d1, NULL, 0);
    __pmFreeLogInDom(d2);
    __pmFreeLogInDom(d1);

    /* a delta whose whole entry has no link back to it */
    lone = entry(1, 11, 1, i3, n3);
    lone->next = full;
    full->prior = NULL;
    __pmLogUndeltaInDom(indom, lone);
    show("no prior links", lone, NULL, 0);
    __pmFreeLogInDom(lone);

    whole = entry(0, 13, 3, i0, n0);
    link2(whole, full);
    __pmLogUndeltaInDom(indom, whole);
    show("not a delta", whole, NULL, 0);
    __pmFreeLogInDom(whole);
    __pmFreeLogInDom(full);
}

static void frees(void)
{
    __pmLogInDom *l = calloc(1, sizeof(*l));

    l->numinst = 2;
    l->instlist = malloc(2 * sizeof(int));
    l->namelist = malloc(2 * sizeof(char *));
    l->namelist[0] = strdup("x");
    l->namelist[1] = strdup("y");
    l->alloc = PMLID_SELF | PMLID_INSTLIST | PMLID_NAMELIST | PMLID_NAMES;
    __pmFreeLogInDom(l);
    printf("frees done\n");
}

int main(void)
{
    loads();
    undeltas();
    frees();
    return 0;
}
