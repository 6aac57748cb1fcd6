/*
 * probe_pmdaint.c - libpcp_pmda's internal calls and the pmdaroot
 * protocol, built against pmkit's libraries and Debian's (compare.sh
 * wants the same output):
 *  - __pmdaEventPrint over every byte value and every small pair of
 *    record and message sizes;
 *  - __pmdaSetContext, __pmdaInFd, pmdaNodeLookup over a PMNS tree;
 *  - the pmdaroot messages (<pcp/pmdaroot.h>): each receiver fed each
 *    type at sizes around every boundary, the headers' checks in turn,
 *    the decoders' bounds, the senders' limits and errors, the agent's
 *    pipes passed as SCM_RIGHTS;
 *  - the agent's calls (pmdaRootConnect and its family) against a scripted
 *    pmdaroot server on a unix socket in a temporary directory, with what
 *    that server receives shown byte by byte.
 * Where PCP's reads or writes outside the buffers it is given pmkit
 * refuses (docs/compat.md, "pmdaroot"); those cases are not asked here.
 * Messages from pmNotifyErr go through a file and lose their date and pid.
 */
#include <pcp/pmapi.h>
#include <pcp/pmda.h>
#include <pcp/pmdaroot.h>
#include "libpcp.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

/* Exported by both libraries, declared in neither's installed headers. */
extern __pmnsNode *pmdaNodeLookup(__pmnsNode *, const char *);

static int sv[2] = {-1, -1};
static char buf[8192];

/* ---------------------------------------------------------------- */

static void event_one(const char *in, int len, int msgsize, int show)
{
    char msg[300];
    char *r;
    int i;

    memset(msg, 'Z', sizeof(msg));
    r = __pmdaEventPrint(in, len, msg, msgsize);
    printf("event len %d size %d r==msg %d:", len, msgsize, r == msg);
    for (i = 0; i < show && i <= msgsize; i++)
        printf(" %02x", (unsigned char)msg[i]);
    printf("\n");
}

static void event_print(void)
{
    char all[256], in[17], msg[64];
    int i, s, l;

    for (i = 0; i < 256; i++)
        all[i] = (char)i;
    for (i = 0; i < 256; i += 16) {
        memcpy(in, all + i, 16);
        in[16] = 'E';
        __pmdaEventPrint(in, 17, msg, (int)sizeof(msg));
        printf("event %3d: %s\n", i, msg);
    }
    event_one("abc", 3, 10, 20);
    event_one("abc", 4, 10, 20);
    event_one("abc\0def", 8, 10, 20);
    event_one("abcdef", 6, 0, 20);
    event_one("abcdef\n", 7, 100, 20);
    event_one("x", 2, 100, 20);
    for (s = 1; s <= 6; s++)
        for (l = 1; l <= 7; l++)
            event_one("abcdefg", l, s, 12);
}

/* ---------------------------------------------------------------- */

static void context_and_infd(void)
{
    static pmdaInterface dispatch; /* its extension stays reachable: agents never free it */
    __pmnsTree *tree = NULL;
    static const char *names[] = {"a", "a.b", "a.b.c", "a.bb", "ab", "a.b.c.d", "", "x", "a."};
    int i;

    __pmdaSetContext(7);
    printf("context %d\n", pmdaGetContext());
    __pmdaSetContext(-1);
    printf("context %d\n", pmdaGetContext());

    memset(&dispatch, 0, sizeof(dispatch));
    pmdaDaemon(&dispatch, PMDA_INTERFACE_7, "probe", 30, NULL, NULL);
    printf("infd before connect %d\n", __pmdaInFd(&dispatch));
    dispatch.comm.pmda_interface = 99;
    printf("infd bad interface %d\n", __pmdaInFd(&dispatch));

    __pmNewPMNS(&tree);
    __pmAddPMNSNode(tree, (int)pmID_build(30, 0, 1), "a.b.c");
    __pmAddPMNSNode(tree, (int)pmID_build(30, 0, 2), "a.bb");
    __pmAddPMNSNode(tree, (int)pmID_build(30, 0, 3), "ab");
    __pmAddPMNSNode(tree, (int)pmID_build(DYNAMIC_PMID, 30, 0), "dyn");
    for (i = 0; i < (int)(sizeof(names) / sizeof(names[0])); i++) {
        __pmnsNode *n = pmdaNodeLookup(tree->root->first, names[i]);

        printf("node [%s]: %s %s\n", names[i], n ? n->name : "-", n ? pmIDStr(n->pmid) : "-");
    }
    printf("node [dyn.x]: %s\n", pmdaNodeLookup(tree->root->first, "dyn.x") ? "found" : "-");
    printf("node [a.b.c.x]: %s\n", pmdaNodeLookup(tree->root->first, "a.b.c.x") ? "found" : "-");
    __pmFreePMNS(tree);
}

/* ---------------------------------------------------------------- */

static void fresh(void)
{
    if (sv[0] >= 0) {
        close(sv[0]);
        close(sv[1]);
    }
    socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
}

/* Bytes the last call left unread in the socket (-1: none). */
static int left(void)
{
    char b[9000];

    return (int)recv(sv[0], b, sizeof(b), MSG_DONTWAIT);
}

/* A fresh socket holding sendlen bytes of a message with this header. */
static void raw(int type, int len, int status, int version, int sendlen)
{
    int b[1100] = {type, len, status, version, 77, 5, 0, 0};

    memcpy(&b[6], "abcdefgh", 8);
    fresh();
    send(sv[1], b, (size_t)sendlen, 0);
}

#define T(desc, call)                                                                              \
    do {                                                                                           \
        int r_ = (call);                                                                           \
        printf("%-28s %d left %d\n", desc, r_, left());                                            \
    } while (0)

static void receivers(void)
{
    static const int types[] = {PDUROOT_INFO, PDUROOT_HOSTNAME, PDUROOT_STOPPMDA,
                                PDUROOT_STARTPMDA};
    static const int sizes[] = {0,  4,  15,  16,  20,  23,  24,  25,   28,   31,
                                32, 33, 100, 103, 104, 105, 200, 4120, 4200, 4300};
    static const int combos[][4] = {{PDUROOT_HOSTNAME, 32, -5, 2},  {PDUROOT_PROCESSID, 32, -5, 2},
                                    {PDUROOT_HOSTNAME, 40, -5, 2},  {PDUROOT_HOSTNAME, 32, -5, 3},
                                    {PDUROOT_PROCESSID, 32, 0, 3},  {PDUROOT_PROCESSID, 40, 0, 2},
                                    {PDUROOT_HOSTNAME, 40, 0, 3},   {PDUROOT_HOSTNAME, 32, 0, 0},
                                    {PDUROOT_HOSTNAME, 32, 0, -1},  {PDUROOT_HOSTNAME, 32, 5, 2},
                                    {PDUROOT_PROCESSID, 40, -5, 3}, {0x1234, 32, 0, 2}};
    int t, s, i, r, ver, feat;
    char d[64];

    for (t = 0; t < 4; t++) {
        for (s = 0; s < (int)(sizeof(sizes) / sizeof(sizes[0])); s++) {
            int n = sizes[s];

            raw(types[t], n, 0, 2, n);
            if (n == 0)
                shutdown(sv[1], SHUT_WR);
            switch (t) {
            case 0:
                r = __pmdaRecvRootPDUInfo(sv[0], &ver, &feat);
                break;
            case 1:
                r = __pmdaRecvRootPDUContainer(sv[0], PDUROOT_HOSTNAME, buf, sizeof(buf));
                break;
            case 2:
                r = __pmdaRecvRootPDUStop(sv[0], PDUROOT_STOPPMDA, buf, sizeof(buf));
                break;
            default:
                r = __pmdaRecvRootPDUStart(sv[0], buf, sizeof(buf));
                break;
            }
            snprintf(d, sizeof(d), "type %x size %d", types[t] & 0xf, n);
            T(d, r);
        }
    }
    raw(PDUROOT_HOSTNAME, 40, 0, 2, 32);
    T("cont hdr40 got32", __pmdaRecvRootPDUContainer(sv[0], PDUROOT_HOSTNAME, buf, sizeof(buf)));
    raw(PDUROOT_HOSTNAME, 28, 0, 2, 32);
    T("cont hdr28 got32", __pmdaRecvRootPDUContainer(sv[0], PDUROOT_HOSTNAME, buf, sizeof(buf)));
    raw(PDUROOT_HOSTNAME, 32, 0, 2, 32);
    T("cont buf 24", __pmdaRecvRootPDUContainer(sv[0], PDUROOT_HOSTNAME, buf, 24));
    raw(PDUROOT_HOSTNAME, 32, 0, 2, 32);
    T("cont buf 31", __pmdaRecvRootPDUContainer(sv[0], PDUROOT_HOSTNAME, buf, 31));
    raw(PDUROOT_HOSTNAME, 32, 0, 2, 32);
    T("cont buf 8", __pmdaRecvRootPDUContainer(sv[0], PDUROOT_HOSTNAME, buf, 8));
    raw(PDUROOT_HOSTNAME, 32, 0, 2, 32);
    T("cont buf 0", __pmdaRecvRootPDUContainer(sv[0], PDUROOT_HOSTNAME, buf, 0));
    for (i = 0; i < (int)(sizeof(combos) / sizeof(combos[0])); i++) {
        raw(combos[i][0], combos[i][1], combos[i][2], combos[i][3], 32);
        snprintf(d, sizeof(d), "t%x l%d s%d v%d", combos[i][0] & 0xffff, combos[i][1], combos[i][2],
                 combos[i][3]);
        T(d, __pmdaRecvRootPDUContainer(sv[0], PDUROOT_HOSTNAME, buf, sizeof(buf)));
    }
}

static void decoders(void)
{
    /* container: message length, the name's length, the buffer's size */
    static const int dc[][3] = {{16, 0, 60}, {20, 0, 60}, {23, 0, 60},  {24, 0, 60},  {24, 1, 60},
                                {32, 8, 60}, {32, 9, 60}, {32, 16, 60}, {32, 17, 60}, {40, 24, 60},
                                {32, 8, 9},  {32, 8, 8},  {32, 0, 1},   {32, 0, 0},   {33, 17, 60}};
    /* start: length, name and args lengths, their buffers' sizes (all
     * within the buffers: PCP's copies past them) */
    static const int ds[][5] = {{104, 3, 0, 64, 64}, {103, 3, 0, 64, 64},  {100, 3, 0, 64, 64},
                                {40, 3, 0, 64, 64},  {39, 3, 0, 64, 64},   {16, 0, 0, 64, 64},
                                {110, 3, 6, 64, 64}, {110, 3, 7, 64, 64},  {110, 3, 6, 64, 7},
                                {110, 3, 6, 4, 64},  {110, 64, 6, 65, 64}, {110, 0, 0, 1, 1}};
    int i, len;

    for (i = 0; i < (int)(sizeof(dc) / sizeof(dc[0])); i++) {
        int b[32] = {PDUROOT_HOSTNAME, 32, 0, 2, 77, dc[i][1]};
        char name[64];
        int pid = -9, r;

        memcpy(&b[6], "abcdefghijklmnopqrstuvwxyz", 26);
        memset(name, 'Q', sizeof(name));
        r = __pmdaDecodeRootPDUContainer(b, dc[i][0], &pid, name, dc[i][2]);
        printf("decc len %d namelen %d size %d: %d pid %d name [%.*s]\n", dc[i][0], dc[i][1],
               dc[i][2], r, pid, r > 0 ? r + 1 : 2, name);
    }
    for (len = 12; len <= 36; len += 4) {
        int b[16] = {PDUROOT_STOPPMDA, 32, 0, 2, 77, 5, 1, 0};
        int pid = -9, code = -9, force = -9;
        int r = __pmdaDecodeRootPDUStop(b, len, &pid, &code, &force);

        printf("decs len %d: %d %d %d %d\n", len, r, pid, code, force);
    }
    for (i = 0; i < (int)(sizeof(ds) / sizeof(ds[0])); i++) {
        int b[64] = {PDUROOT_STARTPMDA_REQ, 110, 0, 2, 77, 8, 9, 1, ds[i][1], ds[i][2]};
        char name[80], args[80];
        int pid = -9, in = -9, out = -9, ipc = -9, r;

        memcpy(&b[10], "labelXXXX", 9);
        memcpy(&b[26], "argsarg", 7);
        memset(name, 'Q', sizeof(name));
        memset(args, 'Q', sizeof(args));
        r = __pmdaDecodeRootPDUStart(b, ds[i][0], &pid, &in, &out, &ipc, name, ds[i][3], args,
                                     ds[i][4]);
        printf("decst len %d nl %d al %d ns %d as %d: %d pid %d in %d out %d ipc %d name [%.6s] "
               "args [%.9s]\n",
               ds[i][0], ds[i][1], ds[i][2], ds[i][3], ds[i][4], r, pid, in, out, ipc, name, args);
    }
}

static void senders(void)
{
    int r, ver, feat;

    memset(buf, 'n', sizeof(buf));
    fresh();
    T("sendc null 0", __pmdaSendRootPDUContainer(sv[1], PDUROOT_HOSTNAME, 1, NULL, 0, 0));
    fresh();
    T("sendc 4096", __pmdaSendRootPDUContainer(sv[1], PDUROOT_HOSTNAME, 1, buf, 4096, 0));
    fresh();
    T("sendc 4095", __pmdaSendRootPDUContainer(sv[1], PDUROOT_HOSTNAME, 1, buf, 4095, 0));
    fresh();
    T("sendc 4097", __pmdaSendRootPDUContainer(sv[1], PDUROOT_HOSTNAME, 1, buf, 4097, 0));
    fresh();
    T("sendc -1", __pmdaSendRootPDUContainer(sv[1], PDUROOT_HOSTNAME, 1, buf, -1, 0));
    fresh();
    T("sendc status 1", __pmdaSendRootPDUContainer(sv[1], PDUROOT_HOSTNAME, 1, "ab", 2, 1));
    fresh();
    T("sendsr name64", __pmdaSendRootPDUStartReq(sv[1], 1, buf, 64, "a", 1));
    fresh();
    T("sendsr name63", __pmdaSendRootPDUStartReq(sv[1], 1, buf, 63, "a", 1));
    fresh();
    T("sendsr args4096", __pmdaSendRootPDUStartReq(sv[1], 1, "a", 1, buf, 4096));
    fresh();
    T("sendsr args4095", __pmdaSendRootPDUStartReq(sv[1], 1, "a", 1, buf, 4095));
    fresh();
    T("sendsr args-1", __pmdaSendRootPDUStartReq(sv[1], 1, "a", 1, buf, -1));
    fresh();
    T("sendsr name-1", __pmdaSendRootPDUStartReq(sv[1], 1, "a", -1, "b", 1));
    fresh();
    T("sends name64", __pmdaSendRootPDUStart(sv[1], 5, -1, -1, buf, 64, 0));
    fresh();
    T("sends name63 nofds", __pmdaSendRootPDUStart(sv[1], 5, -1, -1, buf, 63, 0));
    fresh();
    T("sends st", __pmdaSendRootPDUStart(sv[1], 5, 0, 1, "a", 1, -3));
    fresh();
    __pmdaSendRootPDUStart(sv[1], 5, 0, 1, "ab", 2, -3);
    printf("recv start st %d\n", __pmdaRecvRootPDUStart(sv[0], buf, sizeof(buf)));
    fresh();
    __pmdaSendRootPDUStartReq(sv[1], 1, "lab", 3, "a b", 3);
    printf("recv start of startreq %d\n", __pmdaRecvRootPDUStart(sv[0], buf, sizeof(buf)));
    fresh();
    close(sv[1]);
    T("recv eof", __pmdaRecvRootPDUContainer(sv[0], PDUROOT_HOSTNAME, buf, sizeof(buf)));
    fresh();
    close(sv[1]);
    T("recvinfo eof", __pmdaRecvRootPDUInfo(sv[0], &ver, &feat));
    fresh();
    close(sv[1]);
    T("recvstart eof", __pmdaRecvRootPDUStart(sv[0], buf, sizeof(buf)));
    T("recv badfd", __pmdaRecvRootPDUContainer(-1, PDUROOT_HOSTNAME, buf, sizeof(buf)));
    T("recvstart badfd", __pmdaRecvRootPDUStart(-1, buf, sizeof(buf)));
    errno = 0;
    r = __pmdaSendRootPDUStop(-1, PDUROOT_STOPPMDA, 1, 1, 1, 0);
    printf("send badfd %d errno %d\n", r, errno);
    errno = 0;
    r = __pmdaSendRootPDUInfo(-1, 1, 0);
    printf("sendinfo badfd %d errno %d\n", r, errno);
    errno = 0;
    r = __pmdaSendRootPDUStart(-1, 1, 0, 1, "a", 1, 0);
    printf("sendstart badfd %d errno %d\n", r, errno);
    fresh();
    close(sv[0]);
    sv[0] = open("/dev/null", O_RDONLY);
    errno = 0;
    r = __pmdaSendRootPDUStop(sv[1], PDUROOT_STOPPMDA, 1, 1, 1, 0);
    printf("send closed %d errno %d\n", r, errno);
}

/* What one message on fd carries: its length, its control data. */
static void look(int fd)
{
    unsigned char b[8192];
    struct msghdr m;
    struct iovec iov = {b, sizeof(b)};
    union {
        char c[256];
        struct cmsghdr a;
    } u;
    int n;

    memset(&m, 0, sizeof(m));
    m.msg_iov = &iov;
    m.msg_iovlen = 1;
    m.msg_control = u.c;
    m.msg_controllen = sizeof(u.c);
    n = (int)recvmsg(fd, &m, MSG_DONTWAIT);
    printf("  got %d cmsglen %zu", n, (size_t)m.msg_controllen);
    if (m.msg_controllen) {
        struct cmsghdr *c = CMSG_FIRSTHDR(&m);

        printf(" level %d type %d nfds %zu", c->cmsg_level, c->cmsg_type,
               (c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
    }
    if (n >= 32)
        printf(" fields in %d out %d", ((int *)b)[5], ((int *)b)[6]);
    printf("\n");
}

static void pipes_passed(void)
{
    __pmdaRootPDUStart s;
    char n[8], a[8];
    int p[2], r, pid, in, out, ipc;

    fresh();
    if (pipe(p) < 0)
        return;
    printf("valid %d\n", __pmdaSendRootPDUStart(sv[1], 5, p[0], p[1], "a", 1, 0));
    look(sv[0]);
    printf("status %d\n", __pmdaSendRootPDUStart(sv[1], 5, p[0], p[1], "a", 1, -3));
    look(sv[0]);
    printf("neg fds %d\n", __pmdaSendRootPDUStart(sv[1], 5, -1, -1, "a", 1, 0));
    look(sv[0]);
    printf("one neg %d\n", __pmdaSendRootPDUStart(sv[1], 5, p[0], -1, "a", 1, 0));
    look(sv[0]);
    printf("startreq %d\n", __pmdaSendRootPDUStartReq(sv[1], 1, "a", 1, "b", 1));
    look(sv[0]);
    memset(&s, 0, sizeof(s));
    s.hdr.type = PDUROOT_STARTPMDA;
    s.hdr.length = 104;
    s.hdr.version = 2;
    s.pid = 5;
    s.infd = 33;
    s.outfd = 44;
    s.namelen = 1;
    s.name[0] = 'a';
    send(sv[1], &s, 104, 0);
    r = __pmdaRecvRootPDUStart(sv[0], buf, sizeof(buf));
    __pmdaDecodeRootPDUStart(buf, r, &pid, &in, &out, &ipc, n, 8, a, 8);
    printf("nofds recv %d in %d out %d\n", r, in, out);
    send(sv[1], &s, 104, 0);
    send(sv[1], &s, 104, 0);
    printf("two queued recv %d\n", __pmdaRecvRootPDUStart(sv[0], buf, sizeof(buf)));
    close(p[0]);
    close(p[1]);
}

/* ---------------------------------------------------------------- */

static void hex(const char *what, const unsigned char *b, int n)
{
    int i, nz = 0;

    printf("  %s %d:", what, n);
    for (i = 0; i < n && i < 48; i++)
        printf(" %02x", b[i]);
    for (i = 48; i < n; i++)
        nz += b[i] != 0;
    if (n > 48)
        printf(" ... nz %d", nz);
    printf("\n");
}

static void server_start(int fd)
{
    __pmdaRootPDUStart s;
    struct msghdr mm;
    struct iovec v = {&s, 104};
    union {
        char b[CMSG_SPACE(2 * sizeof(int))];
        struct cmsghdr a;
    } u;
    struct cmsghdr *cm;
    int p[2];

    if (pipe(p) < 0)
        _exit(1);
    memset(&s, 0, sizeof(s));
    s.hdr.type = PDUROOT_STARTPMDA;
    s.hdr.length = 104;
    s.hdr.version = 2;
    s.pid = 999;
    s.namelen = 3;
    memcpy(s.name, "abc", 3);
    memset(&mm, 0, sizeof(mm));
    memset(&u, 0, sizeof(u));
    mm.msg_iov = &v;
    mm.msg_iovlen = 1;
    mm.msg_control = u.b;
    mm.msg_controllen = sizeof(u.b);
    cm = CMSG_FIRSTHDR(&mm);
    cm->cmsg_level = SOL_SOCKET;
    cm->cmsg_type = SCM_RIGHTS;
    cm->cmsg_len = CMSG_LEN(sizeof(p));
    memcpy(CMSG_DATA(cm), p, sizeof(p));
    sendmsg(fd, &mm, 0);
}

/* A pmdaroot for one connection: its INFO, then nreplies scripted answers
 * (the second of each kind fails with -2). */
static void server(int lfd, int nreplies)
{
    int fd = accept(lfd, NULL, NULL);
    int info[6] = {PDUROOT_INFO, 24, 0, 2, 7, 0};
    int i;

    send(fd, info, 24, 0);
    for (i = 0; i < nreplies; i++) {
        unsigned char b[8192];
        int *h = (int *)b;
        int n = (int)recv(fd, b, sizeof(b), 0);

        if (n <= 0) {
            printf("  server: eof %d\n", n);
            break;
        }
        hex("server got", b, n);
        switch (h[0]) {
        case PDUROOT_HOSTNAME_REQ:
        case PDUROOT_CGROUPNAME_REQ: {
            int r[64] = {h[0] + 1, 24 + 6, (i == 1) ? -2 : 0, 2, 555, 6};
            memcpy(&r[6], "answer", 6);
            send(fd, r, (size_t)r[1], 0);
            break;
        }
        case PDUROOT_PROCESSID_REQ: {
            int r[6] = {h[0] + 1, 24, (i == 1) ? -2 : 0, 2, 4242, 0};
            send(fd, r, 24, 0);
            break;
        }
        case PDUROOT_STARTPMDA_REQ:
            server_start(fd);
            break;
        case PDUROOT_STOPPMDA_REQ: {
            int r[8] = {PDUROOT_STOPPMDA, 32, 0, 2, h[4], 3 << 8, h[6], 0};
            send(fd, r, 32, 0);
            break;
        }
        default:
            printf("  server: type %x\n", h[0]);
        }
    }
    close(fd);
    _exit(0);
}

static int listen_on(const char *path)
{
    struct sockaddr_un a;
    int s = socket(AF_UNIX, SOCK_STREAM, 0);

    memset(&a, 0, sizeof(a));
    a.sun_family = AF_UNIX;
    snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
    unlink(path);
    if (bind(s, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(s, 5) < 0) {
        perror("bind");
        exit(1);
    }
    return s;
}

static void agent_calls(const char *path)
{
    int lfd = listen_on(path);
    int fd, r, ws, st, pid, in, out;
    pid_t sp;

    fflush(stdout);
    if ((sp = fork()) == 0)
        server(lfd, 12);
    fd = pmdaRootConnect(path);
    printf("connect %s\n", fd > 2 ? "fd" : "fail");
    memset(buf, 'Q', 256);
    r = pmdaRootContainerHostName(fd, "box", 3, buf, 256);
    printf("hostname %d [%.8s]\n", r, buf);
    memset(buf, 'Q', 256);
    r = pmdaRootContainerHostName(fd, "box", 3, buf, 256);
    printf("hostname err %d [%.8s]\n", r, buf);
    memset(buf, 'Q', 256);
    r = pmdaRootContainerCGroupName(fd, "box2", 4, buf, 4);
    printf("cgroup small %d [%.8s]\n", r, buf);
    memset(buf, 'Q', 256);
    r = pmdaRootContainerCGroupName(fd, "box2", 4, buf, 256);
    printf("cgroup %d [%.8s]\n", r, buf);
    printf("pid %d\n", pmdaRootContainerProcessID(fd, "box3", 4));
    pid = in = out = -9;
    r = pmdaRootProcessStart(fd, 1, "label", 5, "/bin/x -a", 9, &pid, &in, &out);
    printf("start %d pid %d in %d out %d\n", r, pid, in > 2, out > 2);
    st = -9;
    r = pmdaRootProcessWait(fd, 999, &st);
    printf("wait %d status %d\n", r, st);
    printf("terminate %d\n", pmdaRootProcessTerminate(fd, 999));
    pmdaRootShutdown(fd);
    waitpid(sp, &ws, 0);

    fflush(stdout);
    if ((sp = fork()) == 0)
        server(lfd, 1);
    fd = pmdaRootConnect(path);
    printf("connect2 %s\n", fd > 2 ? "fd" : "fail");
    printf("hostname huge %d\n", pmdaRootContainerHostName(fd, "bigname", 5000, buf, 256));
    printf("hostname neg %d\n", pmdaRootContainerHostName(fd, "x", -1, buf, 256));
    r = pmdaRootProcessStart(fd, 1, "label", 100, "/bin/x", 6, &pid, &in, &out);
    printf("start longlabel %d\n", r);
    pmdaRootShutdown(fd);
    waitpid(sp, &ws, 0);
    errno = 0;
    r = pmdaRootContainerHostName(fd, "box", 3, buf, 256);
    printf("after shutdown %d errno %d\n", r, errno);
    close(lfd);
    unlink(path);
    errno = 0;
    r = pmdaRootConnect(path);
    printf("connect gone %d errno %d\n", r, errno);
}

static void agent_bad_servers(const char *path)
{
    int s = listen_on(path);
    int r, ws;
    pid_t sp;

    fflush(stdout);
    if ((sp = fork()) == 0) {
        int c = accept(s, NULL, NULL);
        int bad[6] = {PDUROOT_HOSTNAME, 24, 0, 2, 0, 0};
        char x;

        send(c, bad, 24, 0);
        (void)!read(c, &x, 1); /* until the agent's side closes */
        _exit(0);
    }
    r = pmdaRootConnect(path);
    printf("connect badinfo %d\n", r);
    if (r >= 0)
        close(r);
    waitpid(sp, &ws, 0);
    fflush(stdout);
    if ((sp = fork()) == 0) {
        close(accept(s, NULL, NULL));
        _exit(0);
    }
    r = pmdaRootConnect(path);
    printf("connect eof %d\n", r);
    waitpid(sp, &ws, 0);
    close(s);
    unlink(path);
}

/* The log without its "[date] program(pid) " prefixes, the temporary
 * directory shown as DIR. */
static void show_log(const char *log, const char *dir)
{
    char line[1024];
    FILE *f = fopen(log, "r");

    while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
        char *p = strstr(line, ") ");
        char *d;

        p = line[0] == '[' && p != NULL ? p + 2 : line;
        if ((d = strstr(p, dir)) != NULL) {
            *d = '\0';
            printf("log: %sDIR%s", p, d + strlen(dir));
        } else {
            printf("log: %s", p);
        }
    }
    if (f != NULL)
        fclose(f);
}

int main(void)
{
    char dir[] = "/tmp/probe_pmdaint.XXXXXX";
    char path[128], log[128];

    setvbuf(stdout, NULL, _IONBF, 0);
    signal(SIGPIPE, SIG_IGN);
    if (mkdtemp(dir) == NULL) {
        perror("mkdtemp");
        return 1;
    }
    snprintf(path, sizeof(path), "%s/root.socket", dir);
    snprintf(log, sizeof(log), "%s/log", dir);
    if (freopen(log, "w", stderr) == NULL)
        return 1;
    setvbuf(stderr, NULL, _IONBF, 0);

    event_print();
    context_and_infd();
    receivers();
    decoders();
    senders();
    pipes_passed();
    agent_calls(path);
    agent_bad_servers(path);
    show_log(log, dir);
    unlink(log);
    rmdir(dir);
    return 0;
}
