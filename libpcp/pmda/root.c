/*
 * root.c - the pmdaroot protocol (<pcp/pmdaroot.h>): its messages sent,
 * received and unpacked, and the agent's calls over them (<pcp/pmda.h>'s
 * pmdaRoot* family).
 *
 * Messages are the header structs themselves in host byte order, one
 * send(2) each; a started agent's two pipe ends ride along with
 * PDUROOT_STARTPMDA as SCM_RIGHTS.  The answers (which check comes first,
 * what a sender returns, how much a receiver reads) are Debian's
 * libpcp_pmda's, probed by tests/oracle/probe_root.c; where PCP's reads or
 * writes outside the buffers it is given, pmkit refuses instead
 * (docs/compat.md, "pmdaroot").
 */
#include "pmda_int.h"

#include <pcp/libpcp.h> /* __pmIgnoreSignalPIPE */
#include <pcp/pmdaroot.h>

#include <errno.h>
#include <string.h>
#include <syslog.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define CONTAINER_HDR ((int)offsetof(__pmdaRootPDUContainer, name)) /* 24 */
#define START_HDR     ((int)offsetof(__pmdaRootPDUStart, args))     /* 104 */

/* PCP's senders ignore SIGPIPE for the whole process, and send without it. */
static ssize_t root_send(int fd, const void *buf, size_t len)
{
    __pmIgnoreSignalPIPE();
    return send(fd, buf, len, MSG_NOSIGNAL);
}

static void root_header(__pmdaRootPDUHdr *h, int type, int length, int status)
{
    h->type = type;
    h->length = length;
    h->status = status;
    h->version = ROOT_PDU_VERSION;
}

/* The header checks every receiver makes, in PCP's order. */
static int root_check(const __pmdaRootPDUHdr *h, int type)
{
    if (h->type != type)
        return -ESRCH;
    if (h->version > ROOT_PDU_VERSION)
        return -ENOTSUP;
    return h->status;
}

/* ---------------------------------------------------------------- */

int __pmdaSendRootPDUInfo(int fd, int features, int status)
{
    __pmdaRootPDUInfo pdu;

    memset(&pdu, 0, sizeof(pdu));
    root_header(&pdu.hdr, PDUROOT_INFO, (int)sizeof(pdu), status);
    pdu.features = features;
    return (int)root_send(fd, &pdu, sizeof(pdu));
}

int __pmdaRecvRootPDUInfo(int fd, int *version, int *features)
{
    __pmdaRootPDUInfo pdu;
    ssize_t n;
    int sts;

    if ((n = recv(fd, &pdu, sizeof(pdu), 0)) < 0)
        return -errno;
    if (n < (ssize_t)sizeof(pdu))
        return -EINVAL;
    if ((sts = root_check(&pdu.hdr, PDUROOT_INFO)) != 0)
        return sts;
    if (pdu.hdr.length != (int)sizeof(pdu))
        return -E2BIG;
    *version = pdu.hdr.version;
    *features = pdu.features;
    return (int)n;
}

int __pmdaSendRootPDUContainer(int fd, int type, int pid, const char *name, int namelen, int status)
{
    __pmdaRootPDUContainer pdu;
    int length = CONTAINER_HDR + namelen;

    if (namelen < 0)
        return -EINVAL;
    if (namelen >= MAXPATHLEN)
        return -E2BIG;
    memset(&pdu, 0, (size_t)length);
    root_header(&pdu.hdr, type, length, status);
    pdu.pid = pid;
    pdu.namelen = namelen;
    if (name != NULL)
        strncpy(pdu.name, name, (size_t)namelen); /* PCP's: a NUL ends the name early */
    return (int)root_send(fd, &pdu, (size_t)length);
}

int __pmdaRecvRootPDUContainer(int fd, int type, void *buffer, int buflen)
{
    __pmdaRootPDUContainer *pdu = buffer;
    ssize_t n;
    int sts;

    if ((n = recv(fd, buffer, buflen < 0 ? 0 : (size_t)buflen, 0)) < 0)
        return -errno;
    if (n < CONTAINER_HDR)
        return -EINVAL;
    if ((sts = root_check(&pdu->hdr, type)) != 0)
        return sts;
    if (pdu->namelen > pdu->hdr.length - CONTAINER_HDR)
        return -E2BIG;
    return (int)n;
}

int __pmdaDecodeRootPDUContainer(void *buffer, int length, int *pid, char *name, int namelen)
{
    __pmdaRootPDUContainer *pdu = buffer;
    int len = pdu->namelen;

    /* PCP's bound (the header's 16 bytes, not the name's offset); a
     * negative length, which PCP copies, is refused too. */
    if (len < 0 || len >= length - (int)sizeof(__pmdaRootPDUHdr))
        return -EINVAL;
    *pid = pdu->pid;
    if (len > 0) { /* with no name, PCP leaves name as it was */
        if (len >= namelen)
            return -E2BIG;
        memcpy(name, pdu->name, (size_t)len);
        name[len] = '\0';
    }
    return len;
}

int __pmdaSendRootPDUStartReq(int fd, int ipctype, const char *name, int namelen, const char *args,
                              int argslen)
{
    __pmdaRootPDUStart pdu;
    int length = START_HDR + argslen;

    if (namelen < 0 || argslen < 0)
        return -EINVAL;
    if (namelen >= MAXPMDALEN || argslen >= MAXPATHLEN)
        return -E2BIG;
    memset(&pdu, 0, (size_t)length);
    root_header(&pdu.hdr, PDUROOT_STARTPMDA_REQ, length, 0);
    pdu.ipctype = ipctype;
    pdu.namelen = namelen;
    pdu.argslen = argslen;
    if (name != NULL)
        strncpy(pdu.name, name, (size_t)namelen);
    if (args != NULL)
        strncpy(pdu.args, args, (size_t)argslen);
    return (int)root_send(fd, &pdu, (size_t)length);
}

/*
 * PCP's reads sizeof(void *) bytes (a pointer's size for the buffer's),
 * so it always fails with -EINVAL; pmkit's reads the request.
 */
int __pmdaRecvRootPDUStartReq(int fd, void *buffer, int buflen)
{
    __pmdaRootPDUStart *pdu = buffer;
    size_t want = buflen < 0 ? 0 : (size_t)buflen;
    ssize_t n;
    int sts;

    if (want > sizeof(*pdu))
        want = sizeof(*pdu);
    if ((n = recv(fd, buffer, want, 0)) < 0)
        return -errno;
    if (n < START_HDR)
        return -EINVAL;
    if ((sts = root_check(&pdu->hdr, PDUROOT_STARTPMDA_REQ)) != 0)
        return sts;
    return (int)n;
}

int __pmdaSendRootPDUStart(int fd, int pid, int infd, int outfd, const char *name, int namelen,
                           int status)
{
    __pmdaRootPDUStart pdu;
    struct msghdr msg;
    struct iovec iov;
    union {
        char buf[CMSG_SPACE(2 * sizeof(int))];
        struct cmsghdr align;
    } control;

    if (namelen < 0)
        return -EINVAL;
    if (namelen >= MAXPMDALEN)
        return -E2BIG;
    memset(&pdu, 0, START_HDR);
    root_header(&pdu.hdr, PDUROOT_STARTPMDA, START_HDR, status);
    pdu.pid = pid;
    pdu.namelen = namelen;
    if (name != NULL)
        strncpy(pdu.name, name, (size_t)namelen);

    memset(&msg, 0, sizeof(msg));
    iov.iov_base = &pdu;
    iov.iov_len = START_HDR;
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    if (infd >= 0 && outfd >= 0) { /* the pipes, when there are both */
        int fds[2] = {infd, outfd};
        struct cmsghdr *cmsg;

        memset(&control, 0, sizeof(control));
        msg.msg_control = control.buf;
        msg.msg_controllen = sizeof(control.buf);
        cmsg = CMSG_FIRSTHDR(&msg);
        cmsg->cmsg_level = SOL_SOCKET;
        cmsg->cmsg_type = SCM_RIGHTS;
        cmsg->cmsg_len = CMSG_LEN(sizeof(fds));
        memcpy(CMSG_DATA(cmsg), fds, sizeof(fds));
    }
    __pmIgnoreSignalPIPE();
    return (int)sendmsg(fd, &msg, MSG_NOSIGNAL);
}

/*
 * The pipes that came with the message go in its infd and outfd (-1 when
 * none came).  PCP's reads a whole __pmdaRootPDUStart whatever buflen
 * says; pmkit's reads at most buflen bytes.
 */
int __pmdaRecvRootPDUStart(int fd, void *buffer, int buflen)
{
    __pmdaRootPDUStart *pdu = buffer;
    size_t want = buflen < 0 ? 0 : (size_t)buflen;
    struct msghdr msg;
    struct iovec iov;
    struct cmsghdr *cmsg;
    union {
        char buf[CMSG_SPACE(2 * sizeof(int))];
        struct cmsghdr align;
    } control;
    ssize_t n;
    int sts, infd = -1, outfd = -1;

    if (want > sizeof(*pdu))
        want = sizeof(*pdu);
    memset(&msg, 0, sizeof(msg));
    iov.iov_base = buffer;
    iov.iov_len = want;
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.buf;
    msg.msg_controllen = sizeof(control.buf);
    if ((n = recvmsg(fd, &msg, 0)) < 0) {
        sts = errno;
        pmNotifyErr(LOG_DEBUG, "recvmsg: %d %s", sts, strerror(sts));
        return -sts;
    }
    for (cmsg = CMSG_FIRSTHDR(&msg); cmsg != NULL; cmsg = CMSG_NXTHDR(&msg, cmsg)) {
        if (cmsg->cmsg_level == SOL_SOCKET && cmsg->cmsg_type == SCM_RIGHTS &&
            cmsg->cmsg_len >= CMSG_LEN(2 * sizeof(int))) {
            int fds[2];

            memcpy(fds, CMSG_DATA(cmsg), sizeof(fds));
            infd = fds[0];
            outfd = fds[1];
        }
    }
    /* PCP's looks at the type first (with fewer than 4 bytes read, at
     * whatever the buffer held: at end of file, its answer was -ESRCH) */
    if (n < (ssize_t)sizeof(int) || pdu->hdr.type != PDUROOT_STARTPMDA) {
        sts = -ESRCH;
    } else if (n < START_HDR) {
        sts = -EINVAL;
    } else {
        sts = root_check(&pdu->hdr, PDUROOT_STARTPMDA);
    }
    if (sts != 0) {
        if (infd >= 0)
            close(infd);
        if (outfd >= 0)
            close(outfd);
        return sts;
    }
    pdu->infd = infd;
    pdu->outfd = outfd;
    return (int)n;
}

int __pmdaDecodeRootPDUStart(void *buffer, int length, int *pid, int *infd, int *outfd,
                             int *ipctype, char *name, int namelen, char *args, int argslen)
{
    __pmdaRootPDUStart *pdu = buffer;

    (void)length; /* PCP's looks only at the message's own lengths */
    *pid = pdu->pid;
    *infd = pdu->infd;
    *outfd = pdu->outfd;
    *ipctype = pdu->ipctype;
    /* PCP's copies the message's lengths whatever the buffers' sizes */
    if (pdu->namelen < 0 || pdu->namelen > MAXPMDALEN || pdu->argslen < 0 ||
        pdu->argslen > MAXPATHLEN)
        return -EINVAL;
    if (pdu->namelen >= namelen || pdu->argslen >= argslen)
        return -E2BIG;
    memcpy(name, pdu->name, (size_t)pdu->namelen);
    name[pdu->namelen] = '\0';
    memcpy(args, pdu->args, (size_t)pdu->argslen);
    args[pdu->argslen] = '\0';
    return 0;
}

int __pmdaSendRootPDUStop(int fd, int type, int pid, int code, int force, int status)
{
    __pmdaRootPDUStop pdu;

    memset(&pdu, 0, sizeof(pdu));
    root_header(&pdu.hdr, type, (int)sizeof(pdu), status);
    pdu.pid = pid;
    pdu.code = code;
    pdu.force = force;
    return (int)root_send(fd, &pdu, sizeof(pdu));
}

int __pmdaRecvRootPDUStop(int fd, int type, void *buffer, int buflen)
{
    __pmdaRootPDUStop *pdu = buffer;
    ssize_t n;
    int sts;

    if ((n = recv(fd, buffer, buflen < 0 ? 0 : (size_t)buflen, 0)) < 0)
        return -errno;
    if (n < (ssize_t)sizeof(*pdu))
        return -EINVAL;
    if ((sts = root_check(&pdu->hdr, type)) != 0)
        return sts;
    return (int)n;
}

int __pmdaDecodeRootPDUStop(void *buffer, int length, int *pid, int *code, int *force)
{
    __pmdaRootPDUStop *pdu = buffer;

    (void)length;
    *pid = pdu->pid;
    *code = pdu->code;
    *force = pdu->force;
    return 0;
}

/* ---------------------------------------------------------------- */
/* The agent's side. */

int pmdaRootConnect(const char *path)
{
    struct sockaddr_un addr;
    char errmsg[PM_MAXERRMSGLEN];
    int fd, sts, version, features;

    memset(&addr, 0, sizeof(addr));
    addr.sun_family = AF_UNIX;
    if (path == NULL) {
        const char *var = pmGetConfig("PCP_VAR_DIR");
        pmsprintf(addr.sun_path, sizeof(addr.sun_path), "%s/pmcd/root.socket", var ? var : "");
    } else {
        pmsprintf(addr.sun_path, sizeof(addr.sun_path), "%s", path);
    }
    if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) < 0) {
        sts = -errno;
        pmNotifyErr(LOG_ERR, "pmdaRootConnect: cannot create socket %s: %s\n", addr.sun_path,
                    pmErrStr_r(sts, errmsg, sizeof(errmsg)));
        return sts;
    }
    if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
        /* PCP's answer is connect's own -1 (errno says why), which it
         * then takes for -EPERM and so does not report */
        int saved = errno;

        if (pmDebugOptions.libpmda)
            pmNotifyErr(LOG_INFO, "pmdaRootConnect: cannot connect to %s: %s\n", addr.sun_path,
                        pmErrStr_r(-saved, errmsg, sizeof(errmsg)));
        close(fd);
        errno = saved;
        return -1;
    }
    if ((sts = __pmdaRecvRootPDUInfo(fd, &version, &features)) < 0) {
        pmNotifyErr(LOG_ERR, "pmdaRootConnect: cannot verify %s server: %s\n", addr.sun_path,
                    pmErrStr_r(sts, errmsg, sizeof(errmsg)));
        close(fd);
        return sts;
    }
    if (pmDebugOptions.libpmda)
        pmNotifyErr(LOG_INFO, "pmdaRootConnect: %s server fd=%d version=%d features=0x%x\n",
                    addr.sun_path, fd, version, features);
    return fd;
}

/* PCP's shuts the connection down and leaves the descriptor open. */
void pmdaRootShutdown(int fd)
{
    if (fd >= 0)
        shutdown(fd, SHUT_RDWR);
}

/*
 * Ask about a container and read the answer's name into buffer: the
 * name's length, or a negative errno.  A NULL name asks about the process
 * whose ID is in namelen (rootclient -p's question, on which PCP's
 * crashes).
 */
static int root_container(int fd, int request, const char *name, int namelen, char *buffer,
                          int buflen, int *pid)
{
    __pmdaRootPDUContainer pdu;
    int sts, qpid = 0;

    if (name == NULL) {
        qpid = namelen;
        namelen = 0;
    }
    if ((sts = __pmdaSendRootPDUContainer(fd, request, qpid, name, namelen, 0)) < 0)
        return sts;
    if ((sts = __pmdaRecvRootPDUContainer(fd, request + 1, &pdu, (int)sizeof(pdu))) < 0)
        return sts;
    return __pmdaDecodeRootPDUContainer(&pdu, sts, pid, buffer, buflen);
}

int pmdaRootContainerHostName(int fd, const char *name, int namelen, char *buffer, int buflen)
{
    int pid;

    return root_container(fd, PDUROOT_HOSTNAME_REQ, name, namelen, buffer, buflen, &pid);
}

int pmdaRootContainerCGroupName(int fd, const char *name, int namelen, char *buffer, int buflen)
{
    int pid;

    return root_container(fd, PDUROOT_CGROUPNAME_REQ, name, namelen, buffer, buflen, &pid);
}

int pmdaRootContainerProcessID(int fd, const char *name, int namelen)
{
    char buffer[MAXPATHLEN];
    int sts, pid;

    if ((sts = root_container(fd, PDUROOT_PROCESSID_REQ, name, namelen, buffer, (int)sizeof(buffer),
                              &pid)) < 0)
        return sts;
    return pid;
}

int pmdaRootProcessStart(int fd, int ipctype, const char *label, int labellen, const char *args,
                         int argslen, int *pid, int *infd, int *outfd)
{
    __pmdaRootPDUStart pdu;
    char name[MAXPMDALEN + 1], cmd[MAXPATHLEN + 1];
    int sts, type;

    if ((sts = __pmdaSendRootPDUStartReq(fd, ipctype, label, labellen, args, argslen)) < 0)
        return sts;
    if ((sts = __pmdaRecvRootPDUStart(fd, &pdu, (int)sizeof(pdu))) < 0)
        return sts;
    return __pmdaDecodeRootPDUStart(&pdu, sts, pid, infd, outfd, &type, name, (int)sizeof(name),
                                    cmd, (int)sizeof(cmd));
}

/* Ask pmdaroot to stop an agent (force) or wait for it; its answer. */
static int root_stop(int fd, int pid, int force, int *status)
{
    __pmdaRootPDUStop pdu;
    int sts, rpid, code, rforce;

    if ((sts = __pmdaSendRootPDUStop(fd, PDUROOT_STOPPMDA_REQ, pid, 0, force, 0)) < 0)
        return sts;
    if ((sts = __pmdaRecvRootPDUStop(fd, PDUROOT_STOPPMDA, &pdu, (int)sizeof(pdu))) < 0)
        return sts;
    __pmdaDecodeRootPDUStop(&pdu, sts, &rpid, &code, &rforce);
    if (status != NULL)
        *status = code;
    return rpid;
}

/* The process pmdaroot reports, with its wait status in *status. */
int pmdaRootProcessWait(int fd, int pid, int *status)
{
    return root_stop(fd, pid, 0, status);
}

int pmdaRootProcessTerminate(int fd, int pid)
{
    int sts = root_stop(fd, pid, 1, NULL);

    return sts < 0 ? sts : 0;
}
