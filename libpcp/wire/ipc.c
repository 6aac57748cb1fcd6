/*
 * ipc.c - PCP's PDU transport as libpcp exports it (<pcp/libpcp.h>): PDU
 * buffers with pin counts, reading a PDU (__pmGetPDU) and sending one
 * (__pmXmitPDU), the per-descriptor table of protocol versions, sockets
 * and features, the counts of PDUs by type and a trace of the last ones,
 * the size ceiling, and PDU types as text.
 *
 * As Debian's libpcp (tests/oracle/probe_pdu.c): a PDU read is left with
 * its header (length, type, sender) in host order and its body in network
 * order, in a buffer pinned once, which the caller unpins when done; a
 * buffer is found by any address inside it.  __pmGetPDU answers the PDU's
 * type, 0 at end of file, PM_ERR_TIMEOUT, PM_ERR_IPC for a length that
 * makes no sense (or passes the ceiling, with LIMIT_SIZE), or -errno.
 * Unlike PCP's, an unpinned buffer is freed at once (no free list), and a
 * pointer that is not in any buffer is not an assertion failure: unpinning
 * it answers 0.  Not here: the PDUs' contents (pdu.c, pdu_api.c).
 */
#include "pdu.h"

#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <pcp/libpcp.h>

static pthread_mutex_t ipc_lock = PTHREAD_MUTEX_INITIALIZER;

/* ---------------------------------------------------------------- buffers */

typedef struct pinned {
    char *base;
    size_t size;
    int pins;
    struct pinned *next;
} pinned;

static pinned *bufs;

/* The buffer holding address p (lock held), or NULL. */
static pinned *holding(const void *p)
{
    for (pinned *b = bufs; b != NULL; b = b->next) {
        if ((const char *)p >= b->base && (const char *)p < b->base + b->size)
            return b;
    }
    return NULL;
}

/* A buffer of at least need bytes (whole chunks), pinned once; NULL when
 * memory runs out. */
__pmPDU *__pmFindPDUBuf(int need)
{
    size_t size = need <= 0 ? PDU_CHUNK : ((size_t)need + PDU_CHUNK - 1) / PDU_CHUNK * PDU_CHUNK;
    pinned *b = malloc(sizeof(*b));

    if (b == NULL || (b->base = calloc(1, size)) == NULL) {
        free(b);
        return NULL;
    }
    b->size = size;
    b->pins = 1;
    pthread_mutex_lock(&ipc_lock);
    b->next = bufs;
    bufs = b;
    pthread_mutex_unlock(&ipc_lock);
    return (__pmPDU *)b->base;
}

void __pmPinPDUBuf(void *handle)
{
    pinned *b;

    pthread_mutex_lock(&ipc_lock);
    if ((b = holding(handle)) != NULL)
        b->pins++;
    pthread_mutex_unlock(&ipc_lock);
}

/* 1 when handle lies in a PDU buffer (released once: freed at its last
 * pin), else 0. */
int __pmUnpinPDUBuf(void *handle)
{
    pinned *b, **p;

    pthread_mutex_lock(&ipc_lock);
    if ((b = holding(handle)) == NULL) {
        pthread_mutex_unlock(&ipc_lock);
        return 0;
    }
    if (--b->pins <= 0) {
        for (p = &bufs; *p != b; p = &(*p)->next)
            ;
        *p = b->next;
        free(b->base);
        free(b);
    }
    pthread_mutex_unlock(&ipc_lock);
    return 1;
}

/* Pinned buffers of at least need bytes, and free ones (none: pmkit keeps
 * no free list). */
void __pmCountPDUBuf(int need, int *alloc, int *free_count)
{
    int n = 0;

    pthread_mutex_lock(&ipc_lock);
    for (pinned *b = bufs; b != NULL; b = b->next)
        if (need <= 0 || b->size >= (size_t)need)
            n++;
    pthread_mutex_unlock(&ipc_lock);
    *alloc = n;
    *free_count = 0;
}

/* ---------------------------------------------------------------- counts */

static unsigned int own_in[PDU_MAX + 1], own_out[PDU_MAX + 1];
unsigned int *__pmPDUCntIn = own_in;
unsigned int *__pmPDUCntOut = own_out;

void __pmSetPDUCntBuf(unsigned *in, unsigned *out)
{
    __pmPDUCntIn = in;
    __pmPDUCntOut = out;
}

/* The last PDUs sent and received. */
#define TRACE_LEN 16
static struct {
    int xmit, fd, type, len;
} trace[TRACE_LEN];
static unsigned ntrace;

static void note(int xmit, int fd, int type, int len)
{
    unsigned *counts = xmit ? __pmPDUCntOut : __pmPDUCntIn;

    pthread_mutex_lock(&ipc_lock);
    if (counts != NULL && type >= PDU_START && type <= PDU_FINISH)
        counts[type - PDU_START]++;
    trace[ntrace % TRACE_LEN].xmit = xmit;
    trace[ntrace % TRACE_LEN].fd = fd;
    trace[ntrace % TRACE_LEN].type = type;
    trace[ntrace % TRACE_LEN].len = len;
    ntrace++;
    pthread_mutex_unlock(&ipc_lock);
}

void __pmDumpPDUCnt(FILE *f)
{
    unsigned in = 0, out = 0;
    char name[32];

    for (int i = 0; i <= PDU_MAX; i++) {
        in += __pmPDUCntIn[i];
        out += __pmPDUCntOut[i];
    }
    if (in == 0 && out == 0) {
        fprintf(f, "PDU stats ... no PDU activity\n");
        return;
    }
    fprintf(f, "PDU stats ...\n%-20s %6s %6s\n", "Type", "Xmit", "Recv");
    for (int i = 0; i <= PDU_MAX; i++) {
        if (__pmPDUCntOut[i] == 0 && __pmPDUCntIn[i] == 0)
            continue;
        fprintf(f, "%-20s %6u %6u\n", __pmPDUTypeStr_r(PDU_START + i, name, sizeof(name)),
                __pmPDUCntOut[i], __pmPDUCntIn[i]);
    }
    fprintf(f, "%-20s %6u %6u\n", "Total", out, in);
}

void __pmDumpPDUTrace(FILE *f)
{
    char name[32];
    unsigned first;

    pthread_mutex_lock(&ipc_lock);
    if (ntrace == 0) {
        pthread_mutex_unlock(&ipc_lock);
        fprintf(f, "__pmDumpPDUTrace: no PDUs so far\n");
        return;
    }
    fprintf(f, "__pmDumpPDUTrace: recent PDUs ...\n");
    first = ntrace > TRACE_LEN ? ntrace - TRACE_LEN : 0;
    for (unsigned i = first; i < ntrace; i++) {
        int k = (int)(i % TRACE_LEN);
        fprintf(f, "[%u] %s fd=%d type=%s len=%d\n", i - first, trace[k].xmit ? "xmit" : "recv",
                trace[k].fd, __pmPDUTypeStr_r(trace[k].type, name, sizeof(name)), trace[k].len);
    }
    pthread_mutex_unlock(&ipc_lock);
}

/* ---------------------------------------------------------------- types */

char *__pmPDUTypeStr_r(int type, char *buf, int buflen)
{
    static const char *const names[] = {
        "ERROR",        "RESULT",   "PROFILE",       "FETCH",          "DESC_REQ",      "DESC",
        "INSTANCE_REQ", "INSTANCE", "TEXT_REQ",      "TEXT",           "CONTROL_REQ",   NULL,
        "CREDS",        "PMNS_IDS", "PMNS_NAMES",    "PMNS_CHILD",     "PMNS_TRAVERSE", "ATTR",
        "LABEL_REQ",    "LABEL",    "HIGHRES_FETCH", "HIGHRES_RESULT", "DESC_IDS",      "DESCS"};
    const char *name = NULL;

    if (type >= PDU_START && type <= PDU_FINISH)
        name = names[type - PDU_START];
    else if (type == PDU_LOG_CONTROL)
        name = "LOG_CONTROL";
    else if (type == PDU_LOG_STATUS || type == PDU_LOG_STATUS_V2)
        name = "LOG_STATUS";
    else if (type == PDU_LOG_REQUEST)
        name = "LOG_REQUEST";
    if (name != NULL)
        pmstrncpy(buf, (size_t)buflen, name);
    else
        pmsprintf(buf, (size_t)buflen, "TYPE-%d?", type);
    return buf;
}

const char *__pmPDUTypeStr(int type)
{
    static _Thread_local char buf[32];

    return __pmPDUTypeStr_r(type, buf, (int)sizeof(buf));
}

/* ---------------------------------------------------------------- IPC table */

typedef struct {
    int version;
    int socket;
    int features;
} ipcinfo;

static ipcinfo *ipc;
static int nipc;
/* The descriptor last set, read by __pmGetPDU or named by __pmOverrideLastFd:
 * the decoders that depend on the peer's version follow it. */
static int last_fd = -1;

/* fd's entry, made if need be (lock held); NULL for a bad fd or no memory. */
static ipcinfo *entry(int fd)
{
    if (fd < 0)
        return NULL;
    if (fd >= nipc) {
        int n = fd + 16;
        ipcinfo *t = realloc(ipc, (size_t)n * sizeof(*t));
        if (t == NULL)
            return NULL;
        memset(t + nipc, 0, (size_t)(n - nipc) * sizeof(*t));
        ipc = t;
        nipc = n;
    }
    return &ipc[fd];
}

static int field(int fd, size_t off)
{
    int v = 0;

    if (fd == PDU_OVERRIDE2) /* a peer taken to speak version 2 */
        return off == offsetof(ipcinfo, version) ? PDU_VERSION2 : 0;
    pthread_mutex_lock(&ipc_lock);
    if (fd >= 0 && fd < nipc)
        v = *(int *)((char *)&ipc[fd] + off);
    pthread_mutex_unlock(&ipc_lock);
    return v;
}

static int set_field(int fd, size_t off, int v)
{
    ipcinfo *e;

    pthread_mutex_lock(&ipc_lock);
    if ((e = entry(fd)) != NULL)
        *(int *)((char *)e + off) = v;
    last_fd = fd;
    pthread_mutex_unlock(&ipc_lock);
    return e == NULL ? -ENOMEM : 0;
}

int __pmSetVersionIPC(int fd, int version)
{
    return set_field(fd, offsetof(ipcinfo, version), version);
}

int __pmVersionIPC(int fd)
{
    return field(fd, offsetof(ipcinfo, version));
}

int __pmSetSocketIPC(int fd)
{
    return set_field(fd, offsetof(ipcinfo, socket), 1);
}

int __pmSocketIPC(int fd)
{
    return field(fd, offsetof(ipcinfo, socket));
}

int __pmFeaturesIPC(int fd)
{
    return field(fd, offsetof(ipcinfo, features));
}

/* For fd PDU_OVERRIDE2: the descriptor whose entry answers. */
void __pmOverrideLastFd(int fd)
{
    pthread_mutex_lock(&ipc_lock);
    last_fd = fd;
    pthread_mutex_unlock(&ipc_lock);
}

void __pmResetIPC(int fd)
{
    pthread_mutex_lock(&ipc_lock);
    if (fd >= 0 && fd < nipc)
        memset(&ipc[fd], 0, sizeof(ipc[fd]));
    pthread_mutex_unlock(&ipc_lock);
}

/* The descriptors with a protocol version, on stderr. */
void __pmPrintIPC(void)
{
    pthread_mutex_lock(&ipc_lock);
    fprintf(stderr, "IPC table fd(PDU version):");
    for (int i = 0; i < nipc; i++)
        if (ipc[i].version != UNKNOWN_VERSION)
            fprintf(stderr, " %d(%d,%d)", i, ipc[i].version, ipc[i].socket);
    fputc('\n', stderr);
    pthread_mutex_unlock(&ipc_lock);
}

/* ---------------------------------------------------------------- transport */

static int ceiling = 65536;

/* The ceiling LIMIT_SIZE reads against, changed when size > 0: what it
 * is now. */
int __pmSetPDUCeiling(int size)
{
    int now;

    pthread_mutex_lock(&ipc_lock);
    if (size > 0)
        ceiling = size;
    now = ceiling;
    pthread_mutex_unlock(&ipc_lock);
    return now;
}

/*
 * Send the PDU in pdubuf (header in host order, as __pmGetPDU leaves it and
 * the encoders make it): its length in bytes, or -errno.  The header is
 * put back in host order afterwards.
 */
int __pmXmitPDU(int fd, __pmPDU *pdubuf)
{
    __pmPDUHdr *h = (__pmPDUHdr *)pdubuf;
    int len = h->len, type = h->type, sock = __pmSocketIPC(fd);
    size_t done = 0;

    if (len < (int)sizeof(__pmPDUHdr))
        return PM_ERR_IPC;
    h->len = (int32_t)htonl((uint32_t)len);
    h->type = (int32_t)htonl((uint32_t)type);
    h->from = (int32_t)htonl((uint32_t)h->from);
    while (done < (size_t)len) {
        const char *p = (const char *)pdubuf + done;
        ssize_t w =
            sock ? send(fd, p, (size_t)len - done, MSG_NOSIGNAL) : write(fd, p, (size_t)len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            int sts = w < 0 ? -oserror() : -EPIPE;
            h->len = len;
            h->type = type;
            h->from = (int32_t)ntohl((uint32_t)h->from);
            return sts;
        }
        done += (size_t)w;
    }
    h->len = len;
    h->type = type;
    h->from = (int32_t)ntohl((uint32_t)h->from);
    note(1, fd, type, len);
    return len;
}

/* The milliseconds of a __pmGetPDU timeout (-1: wait for ever). */
static int timeout_ms(int timeout)
{
    double s;

    if (timeout == TIMEOUT_NEVER)
        return -1;
    if (timeout == TIMEOUT_DEFAULT)
        s = __pmRequestTimeout();
    else if (timeout == TIMEOUT_CONNECT)
        s = __pmConnectTimeout();
    else
        s = timeout;
    return s <= 0 ? -1 : s * 1000 > INT_MAX ? INT_MAX : (int)(s * 1000);
}

int pmkit_pdu_last_version(void)
{
    int v = 0;

    pthread_mutex_lock(&ipc_lock);
    if (last_fd == PDU_OVERRIDE2)
        v = PDU_VERSION2;
    else if (last_fd >= 0 && last_fd < nipc)
        v = ipc[last_fd].version;
    pthread_mutex_unlock(&ipc_lock);
    return v;
}

int __pmGetPDU(int fd, int mode, int timeout, __pmPDU **result)
{
    unsigned char *buf = NULL;
    size_t cap = 0;
    __pmPDU *pb;
    __pmPDUHdr *h;
    int len;

    pthread_mutex_lock(&ipc_lock);
    last_fd = fd;
    pthread_mutex_unlock(&ipc_lock);
    len = pdu_read_timed(fd, &buf, &cap, timeout_ms(timeout));

    if (len == PM_ERR_EOF) {
        free(buf);
        return 0;
    }
    if (len == -EAGAIN)
        len = PM_ERR_TIMEOUT;
    if (len >= 0 && mode == LIMIT_SIZE && len > ceiling)
        len = PM_ERR_TOOBIG;
    if (len < 0 || (pb = __pmFindPDUBuf(len)) == NULL) {
        free(buf);
        return len < 0 ? len : -ENOMEM;
    }
    memcpy(pb, buf, (size_t)len);
    free(buf);
    h = (__pmPDUHdr *)pb;
    h->len = (int32_t)ntohl((uint32_t)h->len);
    h->type = (int32_t)ntohl((uint32_t)h->type);
    h->from = (int32_t)ntohl((uint32_t)h->from);
    note(0, fd, h->type, h->len);
    *result = pb;
    return h->type;
}
