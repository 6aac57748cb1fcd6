/*
 * probe_pdu.c - PCP's PDU calls and socket helpers as libpcp exports them
 * (<pcp/libpcp.h>), built against pmkit's libraries and Debian's
 * (compare.sh wants the same output):
 *  - every PDU __pmSend* makes, read back through a pipe with __pmGetPDU:
 *    its header, its bytes, and what __pmDecode* makes of it;
 *  - PDU buffers (pins, unpins, counts), the descriptor table, the counts
 *    by type and the trace of recent PDUs, the ceiling, type names;
 *  - socket addresses (made, parsed, compared, printed), loopback
 *    addresses, host lookups of localhost, the timeouts, sockets made and
 *    connected over loopback and a unix socket;
 *  - connection attributes: every key's name and text at several buffer
 *    sizes, names looked up with and without their NUL.
 * Messages from pmNotifyErr go through a file and lose their date and pid.
 */
#include <pcp/pmapi.h>
#include "libpcp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static int rfd, wfd;

/* The next PDU from the pipe: its header and bytes; the buffer. */
static __pmPDU *next_pdu(const char *what, int sent)
{
    __pmPDU *pb = NULL;
    int type = __pmGetPDU(rfd, ANY_SIZE, TIMEOUT_NEVER, &pb);
    __pmPDUHdr *h = (__pmPDUHdr *)pb;

    printf("%s: sent %d, __pmGetPDU -> %s", what, sent, __pmPDUTypeStr(type));
    if (type <= 0) {
        printf(" (%d)\n", type);
        return NULL;
    }
    printf(" len %d from %d:", h->len, h->from);
    for (int i = (int)sizeof(*h); i < h->len; i++)
        printf(" %02x", ((unsigned char *)pb)[i]);
    printf("\n");
    return pb;
}

static void show_result(const char *what, int sts, __pmResult *r)
{
    printf("  %s -> %d", what, sts);
    if (sts < 0) {
        printf("\n");
        return;
    }
    printf(" %lld.%09d numpmid %d\n", (long long)r->timestamp.sec, r->timestamp.nsec, r->numpmid);
    for (int i = 0; i < r->numpmid; i++) {
        pmValueSet *vs = r->vset[i];
        printf("    %s numval %d valfmt %d:", pmIDStr(vs->pmid), vs->numval, vs->valfmt);
        for (int j = 0; j < vs->numval; j++) {
            if (vs->valfmt == PM_VAL_INSITU)
                printf(" [%d]=%d", vs->vlist[j].inst, vs->vlist[j].value.lval);
            else
                printf(" [%d]=type %u len %u", vs->vlist[j].inst, vs->vlist[j].value.pval->vtype,
                       vs->vlist[j].value.pval->vlen);
        }
        printf("\n");
    }
    __pmFreeResult(r);
}

static __pmResult *make_result(void)
{
    __pmResult *r = __pmAllocResult(2);
    pmAtomValue a;

    r->timestamp.sec = 1700000000;
    r->timestamp.nsec = 123456789;
    r->numpmid = 2;
    r->vset[0] = calloc(1, sizeof(pmValueSet) + sizeof(pmValue));
    r->vset[0]->pmid = pmID_build(29, 0, 5);
    r->vset[0]->numval = 2;
    r->vset[0]->valfmt = PM_VAL_INSITU;
    r->vset[0]->vlist[0].inst = 1;
    r->vset[0]->vlist[0].value.lval = 42;
    r->vset[0]->vlist[1].inst = 2;
    r->vset[0]->vlist[1].value.lval = -7;
    r->vset[1] = calloc(1, sizeof(pmValueSet));
    r->vset[1]->pmid = pmID_build(30, 1, 2);
    r->vset[1]->numval = 1;
    r->vset[1]->valfmt = PM_VAL_DPTR;
    r->vset[1]->vlist[0].inst = (int)PM_IN_NULL;
    a.d = 2.5;
    __pmStuffValue(&a, &r->vset[1]->vlist[0], PM_TYPE_DOUBLE);
    return r;
}

static void pdus(void)
{
    pmDesc d = {pmID_build(29, 1, 2), PM_TYPE_U64, pmInDom_build(29, 3), PM_SEM_COUNTER, {0}};
    pmDesc ds[2], dd;
    pmID ids[3] = {pmID_build(29, 0, 1), pmID_build(29, 0, 2), PM_ID_NULL}, got[3], *list;
    const char *names[2] = {"sample.one", "sample.two"};
    int status[2] = {PMNS_LEAF_STATUS, PMNS_NONLEAF_STATUS};
    __pmCred cred = {0}, *creds;
    __pmPDU *pb;
    __pmResult *r;
    pmInResult ir, *irp;
    int insts[2] = {10, 20}, a, b, c, n, sts;
    char *inames[2] = {"ten", "twenty"}, *s, **nl;
    int *sl;
    pmProfile prof, *pp;
    pmInDomProfile idp;
    pmLabelSet *ls = NULL, *lsets;

    d.units.dimSpace = 1;
    d.units.scaleSpace = PM_SPACE_KBYTE;
    if ((pb = next_pdu("desc", __pmSendDesc(wfd, 12345, &d))) != NULL) {
        memset(&dd, 0, sizeof(dd));
        sts = __pmDecodeDesc(pb, &dd);
        printf("  __pmDecodeDesc -> %d %s %d %s %d\n", sts, pmIDStr(dd.pmid), dd.type,
               pmInDomStr(dd.indom), dd.sem);
        __pmUnpinPDUBuf(pb);
    }
    if ((pb = next_pdu("desc_req", __pmSendDescReq(wfd, 1, d.pmid))) != NULL) {
        pmID id = 0;
        sts = __pmDecodeDescReq(pb, &id);
        printf("  __pmDecodeDescReq -> %d %s\n", sts, pmIDStr(id));
        __pmUnpinPDUBuf(pb);
    }
    ds[0] = d;
    ds[1] = d;
    ds[1].pmid = pmID_build(29, 1, 3);
    if ((pb = next_pdu("descs", __pmSendDescs(wfd, 2, 2, ds))) != NULL) {
        pmDesc *dp = NULL;
        sts = __pmDecodeDescs2(pb, &n, &dp);
        printf("  __pmDecodeDescs2 -> %d n %d %s %s\n", sts, n, pmIDStr(dp[0].pmid),
               pmIDStr(dp[1].pmid));
        free(dp);
        __pmUnpinPDUBuf(pb);
    }
    if ((pb = next_pdu("error", __pmSendError(wfd, FROM_ANON, PM_ERR_PMID))) != NULL) {
        sts = __pmDecodeError(pb, &a);
        printf("  __pmDecodeError -> %d %d\n", sts, a);
        __pmUnpinPDUBuf(pb);
    }
    if ((pb = next_pdu("xtend error", __pmSendXtendError(wfd, 3, PM_ERR_NAME, 77))) != NULL) {
        sts = __pmDecodeXtendError(pb, &a, &b);
        printf("  __pmDecodeXtendError -> %d %d %d\n", sts, a, b);
        __pmUnpinPDUBuf(pb);
    }
    cred.c_type = CVERSION;
    cred.c_vala = PDU_VERSION;
    cred.c_valb = 2;
    cred.c_valc = 5;
    if ((pb = next_pdu("creds", __pmSendCreds(wfd, 99, 1, &cred))) != NULL) {
        sts = __pmDecodeCreds(pb, &a, &b, &creds);
        printf("  __pmDecodeCreds -> %d sender %d count %d type %u a %u b %u c %u\n", sts, a, b,
               creds[0].c_type, creds[0].c_vala, creds[0].c_valb, creds[0].c_valc);
        free(creds);
        __pmUnpinPDUBuf(pb);
    }
    if ((pb = next_pdu("instance_req",
                       __pmSendInstanceReq(wfd, 0, pmInDom_build(29, 2), 7, "seven"))) != NULL) {
        pmInDom indom;
        sts = __pmDecodeInstanceReq(pb, &indom, &a, &s);
        printf("  __pmDecodeInstanceReq -> %d %s %d %s\n", sts, pmInDomStr(indom), a, s);
        free(s);
        __pmUnpinPDUBuf(pb);
    }
    ir.indom = pmInDom_build(29, 2);
    ir.numinst = 2;
    ir.instlist = insts;
    ir.namelist = inames;
    if ((pb = next_pdu("instance", __pmSendInstance(wfd, 0, &ir))) != NULL) {
        sts = __pmDecodeInstance(pb, &irp);
        printf("  __pmDecodeInstance -> %d %s %d %d %s %d %s\n", sts, pmInDomStr(irp->indom),
               irp->numinst, irp->instlist[0], irp->namelist[0], irp->instlist[1],
               irp->namelist[1]);
        __pmFreeInResult(irp);
        __pmUnpinPDUBuf(pb);
    }
    if ((pb = next_pdu("text_req", __pmSendTextReq(wfd, 0, (int)d.pmid,
                                                   PM_TEXT_PMID | PM_TEXT_ONELINE))) != NULL) {
        sts = __pmDecodeTextReq(pb, &a, &b);
        printf("  __pmDecodeTextReq -> %d %s %d\n", sts, pmIDStr((pmID)a), b);
        __pmUnpinPDUBuf(pb);
    }
    if ((pb = next_pdu("text", __pmSendText(wfd, 0, (int)d.pmid, "some help"))) != NULL) {
        sts = __pmDecodeText(pb, &a, &s);
        printf("  __pmDecodeText -> %d %s [%s]\n", sts, pmIDStr((pmID)a), s);
        free(s);
        __pmUnpinPDUBuf(pb);
    }
    idp.indom = pmInDom_build(29, 2);
    idp.state = PM_PROFILE_EXCLUDE;
    idp.instances_len = 2;
    idp.instances = insts;
    prof.state = PM_PROFILE_INCLUDE;
    prof.profile_len = 1;
    prof.profile = &idp;
    if ((pb = next_pdu("profile", __pmSendProfile(wfd, 0, 5, &prof))) != NULL) {
        sts = __pmDecodeProfile(pb, &a, &pp);
        printf("  __pmDecodeProfile -> %d ctx %d state %d len %d indom %s %d insts %d\n", sts, a,
               pp->state, pp->profile_len, pmInDomStr(pp->profile[0].indom), pp->profile[0].state,
               pp->profile[0].instances_len);
        __pmFreeProfile(pp);
        __pmUnpinPDUBuf(pb);
    }
    if ((pb = next_pdu("fetch", __pmSendFetch(wfd, 0, 6, 3, ids))) != NULL) {
        struct timeval when; /* PCP's writes there */
        sts = __pmDecodeFetch(pb, &a, &when, &n, &list);
        printf("  __pmDecodeFetch -> %d ctx %d n %d %s %s %s\n", sts, a, n, pmIDStr(list[0]),
               pmIDStr(list[1]), pmIDStr(list[2]));
        __pmUnpinPDUBuf(pb);
    }
    if ((pb = next_pdu("highres fetch", __pmSendHighResFetch(wfd, 0, 6, 2, ids))) != NULL) {
        sts = __pmDecodeHighResFetch(pb, &a, &n, &list);
        printf("  __pmDecodeHighResFetch -> %d ctx %d n %d %s\n", sts, a, n, pmIDStr(list[1]));
        __pmUnpinPDUBuf(pb);
    }
    r = make_result();
    if ((pb = next_pdu("result", __pmSendResult(wfd, 0, r))) != NULL) {
        __pmResult *dr = NULL;
        sts = __pmDecodeResult(pb, &dr);
        show_result("__pmDecodeResult", sts, dr);
        __pmUnpinPDUBuf(pb);
    }
    if ((pb = next_pdu("highres result", __pmSendHighResResult(wfd, 0, r))) != NULL) {
        __pmResult *dr = NULL;
        sts = __pmDecodeHighResResult(pb, &dr);
        show_result("__pmDecodeHighResResult", sts, dr);
        __pmUnpinPDUBuf(pb);
    }
    __pmFreeResult(r);
    if ((pb = next_pdu("idlist", __pmSendIDList(wfd, 0, 3, ids, 0))) != NULL) {
        sts = __pmDecodeIDList(pb, 3, got, &a);
        printf("  __pmDecodeIDList -> %d sts %d %s\n", sts, a, pmIDStr(got[1]));
        __pmUnpinPDUBuf(pb);
    }
    /* DESC_IDS (no __pmSend call makes one): a status of -1, the count,
     * the PMIDs */
    {
        __pmPDU *req = __pmFindPDUBuf(32);
        __pmPDUHdr *h = (__pmPDUHdr *)req;
        h->len = 32;
        h->type = PDU_DESC_IDS;
        h->from = 0;
        req[3] = htonl((uint32_t)-1);
        req[4] = htonl(3);
        for (int i = 0; i < 3; i++)
            req[5 + i] = htonl(ids[i]);
        sts = __pmXmitPDU(wfd, req);
        __pmUnpinPDUBuf(req);
    }
    if ((pb = next_pdu("desc_ids", sts)) != NULL) {
        sts = __pmDecodeIDList2(pb, &n, &list);
        printf("  __pmDecodeIDList2 -> %d", sts);
        if (sts >= 0) {
            printf(" n %d %s", n, pmIDStr(list[2]));
            free(list);
        }
        printf("\n");
        __pmUnpinPDUBuf(pb);
    }
    if ((pb = next_pdu("namelist", __pmSendNameList(wfd, 0, 2, names, status))) != NULL) {
        sts = __pmDecodeNameList(pb, &n, &nl, &sl);
        printf("  __pmDecodeNameList -> %d n %d %s %d %s %d\n", sts, n, nl[0], sl[0], nl[1], sl[1]);
        free(nl);
        free(sl);
        __pmUnpinPDUBuf(pb);
    }
    if ((pb = next_pdu("namelist nostatus", __pmSendNameList(wfd, 0, 2, names, NULL))) != NULL) {
        sl = NULL;
        sts = __pmDecodeNameList(pb, &n, &nl, &sl);
        printf("  __pmDecodeNameList -> %d n %d %s status %s\n", sts, n, nl[1],
               sl == NULL ? "NULL" : "set");
        free(nl);
        __pmUnpinPDUBuf(pb);
    }
    if ((pb = next_pdu("child_req", __pmSendChildReq(wfd, 0, "sample.a", 1))) != NULL) {
        sts = __pmDecodeChildReq(pb, &s, &a);
        printf("  __pmDecodeChildReq -> %d %s %d\n", sts, s, a);
        free(s);
        __pmUnpinPDUBuf(pb);
    }
    if ((pb = next_pdu("traverse", __pmSendTraversePMNSReq(wfd, 0, "sample"))) != NULL) {
        sts = __pmDecodeTraversePMNSReq(pb, &s);
        printf("  __pmDecodeTraversePMNSReq -> %d %s\n", sts, s);
        free(s);
        __pmUnpinPDUBuf(pb);
    }
    if ((pb = next_pdu("attr", __pmSendAttr(wfd, 0, PCP_ATTR_USERNAME, "pcp", 4))) != NULL) {
        sts = __pmDecodeAttr(pb, &a, &s, &b);
        printf("  __pmDecodeAttr -> %d %d [%s] %d\n", sts, a, s, b);
        __pmUnpinPDUBuf(pb);
    }
    if ((pb = next_pdu("label_req", __pmSendLabelReq(wfd, 0, 29, PM_LABEL_DOMAIN))) != NULL) {
        sts = __pmDecodeLabelReq(pb, &a, &b);
        printf("  __pmDecodeLabelReq -> %d %d %d\n", sts, a, b);
        __pmUnpinPDUBuf(pb);
    }
    __pmAddLabels(&ls, "{\"a\":1,\"b\":\"x\"}", PM_LABEL_DOMAIN);
    if ((pb = next_pdu("label", __pmSendLabel(wfd, 0, 29, PM_LABEL_DOMAIN, ls, 1))) != NULL) {
        sts = __pmDecodeLabel(pb, &a, &b, &lsets, &c);
        printf("  __pmDecodeLabel -> %d %d %d nsets %d %s nlabels %d\n", sts, a, b, c,
               lsets[0].json, lsets[0].nlabels);
        pmFreeLabelSets(lsets, c);
        __pmUnpinPDUBuf(pb);
    }
    pmFreeLabelSets(ls, 1);
}

static void buffers(void)
{
    __pmPDU *x = __pmFindPDUBuf(100), *y;
    unsigned int in[PDU_MAX + 1], out[PDU_MAX + 1];
    int alloc, freed, sts;

    __pmPinPDUBuf(x);
    sts = __pmUnpinPDUBuf(&x[5]);
    printf("unpin inside -> %d", sts);
    sts = __pmUnpinPDUBuf(x);
    printf(" last -> %d", sts);
    sts = __pmUnpinPDUBuf(x);
    printf(" again -> %d", sts);
    sts = __pmUnpinPDUBuf(&alloc);
    printf(" not a buffer -> %d\n", sts);
    y = __pmFindPDUBuf(5000);
    __pmCountPDUBuf(4096, &alloc, &freed);
    printf("__pmCountPDUBuf(4096) alloc %d\n", alloc);
    __pmUnpinPDUBuf(y);
    sts = __pmSetPDUCeiling(1000);
    printf("__pmSetPDUCeiling(1000) -> %d", sts);
    sts = __pmSetPDUCeiling(0);
    printf(" (0) -> %d", sts);
    sts = __pmSetPDUCeiling(65536);
    printf(" (65536) -> %d\n", sts);
    for (int t = PDU_START - 1; t <= PDU_FINISH + 1; t++)
        printf("%s ", __pmPDUTypeStr(t));
    printf("%s %s %s\n", __pmPDUTypeStr(PDU_LOG_CONTROL), __pmPDUTypeStr(PDU_LOG_REQUEST),
           __pmPDUTypeStr(0x9000));
    {
        char small[4];
        printf("short [%s]\n", __pmPDUTypeStr_r(PDU_RESULT, small, sizeof(small)));
    }
    printf("--- __pmDumpPDUCnt\n");
    __pmDumpPDUCnt(stdout);
    memset(in, 0, sizeof(in));
    memset(out, 0, sizeof(out));
    __pmSetPDUCntBuf(in, out);
    __pmSendError(wfd, 0, -1);
    __pmGetPDU(rfd, ANY_SIZE, TIMEOUT_NEVER, &x);
    __pmUnpinPDUBuf(x);
    printf("own counts: in[ERROR] %u out[ERROR] %u same %d\n", in[0], out[0], __pmPDUCntIn == in);
    printf("version %d", __pmVersionIPC(77));
    sts = __pmSetVersionIPC(77, PDU_VERSION2);
    printf(" set -> %d version %d", sts, __pmVersionIPC(77));
    printf(" socket %d", __pmSocketIPC(77));
    sts = __pmSetSocketIPC(77);
    printf(" set -> %d socket %d", sts, __pmSocketIPC(77));
    printf(" features %d\n", __pmFeaturesIPC(77));
    /* PDU_OVERRIDE2 names no descriptor: version 2 whatever was set last */
    __pmOverrideLastFd(77);
    printf("override2: version %d socket %d features %d\n", __pmVersionIPC(PDU_OVERRIDE2),
           __pmSocketIPC(PDU_OVERRIDE2), __pmFeaturesIPC(PDU_OVERRIDE2));
    fflush(stdout);
    __pmPrintIPC();
    fflush(stderr);
    __pmResetIPC(77);
    printf("reset: version %d", __pmVersionIPC(77));
    printf(" socket %d\n", __pmSocketIPC(77));
    close(wfd);
    sts = __pmGetPDU(rfd, ANY_SIZE, TIMEOUT_NEVER, &x);
    printf("end of file: __pmGetPDU -> %d\n", sts);
}

/* ---------------------------------------------------------------- net */

static void show_addr(const char *what, __pmSockAddr *a)
{
    char *s;

    if (a == NULL) {
        printf("%s: NULL\n", what);
        return;
    }
    s = __pmSockAddrToString(a);
    printf("%s: family %d port %d loopback %d inet %d ipv6 %d unix %d [%s]\n", what,
           __pmSockAddrGetFamily(a), __pmSockAddrGetPort(a), __pmSockAddrIsLoopBack(a),
           __pmSockAddrIsInet(a), __pmSockAddrIsIPv6(a), __pmSockAddrIsUnix(a), s ? s : "(null)");
    free(s);
}

static void addresses(void)
{
    static const char *const texts[] = {"127.0.0.1", "::1",      "10.1.2.3", "fe80::1",
                                        "localhost", "local:/x", "/tmp/z",   "bogus",
                                        "1.2.3",     "",         "0.0.0.0",  "::"};
    __pmSockAddr *a = __pmSockAddrAlloc(), *x, *y, *z, *v6, *dup;
    __pmHostEnt *he;
    void *at = NULL;
    char *name;

    printf("__pmSockAddrSize %d\n", (int)__pmSockAddrSize());
    show_addr("alloc", a);
    __pmSockAddrInit(a, AF_INET, INADDR_LOOPBACK, 44321);
    show_addr("inet loopback", a);
    __pmSockAddrInit(a, AF_INET, INADDR_ANY, 0);
    show_addr("inet any", a);
    __pmSockAddrInit(a, AF_INET6, INADDR_LOOPBACK, 80);
    show_addr("ipv6 loopback", a);
    __pmSockAddrInit(a, AF_INET6, INADDR_ANY, 80);
    show_addr("ipv6 any", a);
    __pmSockAddrInit(a, AF_UNIX, 0, 0);
    show_addr("unix init", a);
    __pmSockAddrSetFamily(a, AF_UNIX);
    __pmSockAddrSetPath(a, "/tmp/sock");
    show_addr("unix path", a);
    __pmSockAddrFree(a);
    for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
        __pmSockAddr *b = __pmStringToSockAddr(texts[i]);
        printf("__pmStringToSockAddr(%s) ", texts[i]);
        show_addr("", b);
        if (b != NULL && !__pmSockAddrIsLoopBack(b) && !__pmSockAddrIsUnix(b)) {
            name = __pmGetNameInfo(b);
            printf("  __pmGetNameInfo %s\n", name ? name : "(null)");
            free(name);
        }
        __pmSockAddrFree(b);
    }
    x = __pmStringToSockAddr("127.0.0.1");
    y = __pmStringToSockAddr("127.0.0.1");
    z = __pmStringToSockAddr("10.0.0.1");
    v6 = __pmStringToSockAddr("::1");
    printf("__pmSockAddrCompare same %d", __pmSockAddrCompare(x, y));
    printf(" other %d", __pmSockAddrCompare(x, z));
    printf(" reversed %d", __pmSockAddrCompare(z, x));
    printf(" families %d", __pmSockAddrCompare(x, v6));
    __pmSockAddrSetPort(y, 5);
    printf(" ports %d\n", __pmSockAddrCompare(x, y));
    dup = __pmSockAddrDup(z);
    show_addr("dup", dup);
    __pmSockAddrFree(dup);
    __pmSockAddrFree(x);
    __pmSockAddrFree(y);
    __pmSockAddrFree(z);
    __pmSockAddrFree(v6);
    show_addr("__pmLoopBackAddress(AF_INET)", x = __pmLoopBackAddress(AF_INET));
    __pmSockAddrFree(x);
    show_addr("__pmLoopBackAddress(AF_INET6)", x = __pmLoopBackAddress(AF_INET6));
    __pmSockAddrFree(x);
    show_addr("__pmLoopBackAddress(AF_UNIX)", __pmLoopBackAddress(AF_UNIX));
    he = __pmGetAddrInfo("localhost");
    printf("__pmGetAddrInfo(localhost) %s\n", he ? __pmHostEntGetName(he) : "NULL");
    while (he != NULL && (x = __pmHostEntGetSockAddr(he, &at)) != NULL) {
        if (__pmSockAddrIsInet(x))
            show_addr("  address", x);
        __pmSockAddrFree(x);
    }
    __pmHostEntFree(he);
    printf("__pmGetAddrInfo(no.such.host.invalid) %s\n",
           __pmGetAddrInfo("no.such.host.invalid") ? "set" : "NULL");
    printf("__pmIsLocalhost localhost %d", __pmIsLocalhost("localhost"));
    printf(" 127.0.0.1 %d", __pmIsLocalhost("127.0.0.1"));
    printf(" local: %d", __pmIsLocalhost("local:"));
    printf(" unix: %d", __pmIsLocalhost("unix:"));
    printf(" 10.9.9.9 %d\n", __pmIsLocalhost("10.9.9.9"));
    printf("timeouts %.1f", __pmConnectTimeout());
    printf(" %.1f", __pmRequestTimeout());
    printf(" set %d", __pmSetConnectTimeout(2.5));
    printf(" %d", __pmSetRequestTimeout(7.25));
    printf(" now %.2f", __pmConnectTimeout());
    printf(" %.2f", __pmRequestTimeout());
    printf(" negative %d", __pmSetConnectTimeout(-1));
    printf(" %d\n", __pmSetRequestTimeout(-1));
}

/* A listening socket, a connection to it and accept: over unix and
 * loopback. */
static void sockets(void)
{
    char path[] = "/tmp/probe_pdu.XXXXXX";
    __pmSockAddr *a = __pmSockAddrAlloc(), *peer = __pmSockAddrAlloc();
    __pmSockLen len = (__pmSockLen)__pmSockAddrSize();
    __pmFdSet set;
    struct timeval tv = {2, 0};
    int l, c, s, sts;

    close(mkstemp(path));
    unlink(path);
    l = __pmCreateUnixSocket();
    __pmSockAddrSetFamily(a, AF_UNIX);
    __pmSockAddrSetPath(a, path);
    sts = __pmBind(l, a, (__pmSockLen)__pmSockAddrSize());
    printf("unix: socket %s bind %d", l >= 0 ? "ok" : "failed", sts);
    printf(" listen %d", __pmListen(l, 5));
    c = __pmCreateUnixSocket();
    printf(" connect %d", __pmConnect(c, a, (__pmSockLen)__pmSockAddrSize()));
    /* PCP's __pmAccept crashes on a unix peer (it copies a path from
     * nowhere): accept(2) here */
    s = accept(l, NULL, NULL);
    printf(" accept %s", s >= 0 ? "ok" : "failed");
    printf(" write %d", (int)__pmWrite(c, "abc", 3));
    __pmFD_ZERO(&set);
    __pmFD_SET(s, &set);
    sts = __pmSelectRead(s + 1, &set, &tv);
    printf(" select %d isset %d", sts, __pmFD_ISSET(s, &set));
    {
        char buf[8] = "";
        printf(" read %d [%.3s]\n", (int)__pmRead(s, buf, sizeof(buf)), buf);
    }
    __pmCloseSocket(c);
    __pmCloseSocket(s);
    __pmCloseSocket(l);
    unlink(path);
    /* loopback, connected without waiting */
    l = __pmCreateSocket();
    __pmSockAddrInit(a, AF_INET, INADDR_LOOPBACK, 0);
    sts = __pmBind(l, a, (__pmSockLen)__pmSockAddrSize());
    printf("inet: bind %d", sts);
    printf(" listen %d", __pmListen(l, 5));
    len = (__pmSockLen)__pmSockAddrSize();
    getsockname(l, (struct sockaddr *)a, &len);
    c = __pmCreateSocket();
    sts = __pmConnectTo(c, a, __pmSockAddrGetPort(a));
    printf(" __pmConnectTo flags %s", sts >= 0 ? "ok" : "failed");
    s = __pmAccept(l, peer, &len);
    printf(" accept %s", s >= 0 ? "ok" : "failed");
    printf(" peer %d", __pmSockAddrIsLoopBack(peer));
    printf(" check %d", __pmConnectCheckError(c));
    printf(" restore %s\n", __pmConnectRestoreFlags(c, sts) == c ? "fd" : "failed");
    printf("file status flags %s", __pmGetFileStatusFlags(c) >= 0 ? "ok" : "failed");
    printf(" descriptor flags %d\n", __pmGetFileDescriptorFlags(c));
    __pmCloseSocket(c);
    __pmCloseSocket(s);
    __pmCloseSocket(l);
    __pmSockAddrFree(a);
    __pmSockAddrFree(peer);
}

/* Attribute keys, names and texts, with buffers of every small size. */
static void attributes(void)
{
    static const char *words[] = {"protocol",  "secure",    "securecomms", "compress",  "userauth",
                                  "authorise", "username",  "user",        "authname",  "authmeth",
                                  "password",  "pass",      "method",      "realm",     "unixsock",
                                  "unix",      "userid",    "uid",         "groupid",   "gid",
                                  "local",     "processid", "pid",         "container", "exclusive",
                                  "none",      "",          "PROTOCOL",    "protocolx", "proto",
                                  "x"};
    char b[256];
    int k, n, s;
    size_t i;

    for (k = -2; k <= 18; k++) {
        memset(b, 'Z', sizeof(b));
        n = __pmAttrKeyStr_r((__pmAttrKey)k, b, sizeof(b));
        printf("attr keystr %d: %d [%.40s]\n", k, n, n >= 0 ? b : "-");
        memset(b, 'Z', sizeof(b));
        n = __pmAttrStr_r((__pmAttrKey)k, "val", b, sizeof(b));
        printf("attr str %d val: %d [%.40s]\n", k, n, n >= 0 ? b : "-");
        memset(b, 'Z', sizeof(b));
        n = __pmAttrStr_r((__pmAttrKey)k, NULL, b, sizeof(b));
        printf("attr str %d NULL: %d [%.40s]\n", k, n, n >= 0 ? b : "-");
    }
    for (k = 0; k <= 16; k++) {
        for (s = 0; s <= 12; s += 3) {
            memset(b, 'Z', sizeof(b));
            n = __pmAttrStr_r((__pmAttrKey)k, "value", b, (size_t)s);
            printf("attr str %d size %d: %d [%.*s]\n", k, s, n, s, b);
            memset(b, 'Z', sizeof(b));
            n = __pmAttrKeyStr_r((__pmAttrKey)k, b, (size_t)s);
            printf("attr keystr %d size %d: %d [%.*s]\n", k, s, n, s, b);
        }
    }
    for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
        size_t len = strlen(words[i]);

        printf("attr lookup [%s]: %d %d %d\n", words[i], (int)__pmLookupAttrKey(words[i], len),
               (int)__pmLookupAttrKey(words[i], len + 1),
               len > 1 ? (int)__pmLookupAttrKey(words[i], len - 1) : -1);
    }
    printf("attr lookup [username=fred] 9: %d\n", (int)__pmLookupAttrKey("username=fred", 9));
}

int main(void)
{
    int fds[2];
    char buf[4096];
    FILE *err = tmpfile();

    setvbuf(stdout, NULL, _IOLBF, 0);
    dup2(fileno(err), 2);
    if (pipe(fds) < 0)
        return 1;
    rfd = fds[0];
    wfd = fds[1];
    pdus();
    buffers();
    addresses();
    sockets();
    attributes();
    fflush(stderr);
    rewind(err);
    while (fgets(buf, sizeof(buf), err) != NULL) {
        char *p = buf;
        if (p[0] == '[' && (p = strchr(p, ')')) != NULL)
            p += 2;
        else
            p = buf;
        printf("stderr: %s", p);
    }
    return 0;
}
