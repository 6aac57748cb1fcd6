/*
 * logger.c - a client's connection to a pmlogger's control port, as
 * libpcp exports it to pmlc and PCP's tests (<pcp/libpcp.h>):
 * __pmConnectLogger finds and connects to the logger and shakes hands,
 * __pmControlLog sends one LOG_CONTROL and takes its answer, and
 * __pmLoggerTimeout is how long either waits ($PMLOGGER_REQUEST_TIMEOUT
 * in seconds, read once; 0, the default, waits for ever).
 *
 * As Debian's PCP 6.0.3 does (tests/oracle/probe_logctl.c): "unix:PATH"
 * and "local:PATH" name a unix socket; "local:" and "unix:" alone name the
 * logger's own, $PCP_RUN_DIR/pmlogger.PID.socket (pmlogger.primary.socket
 * for the primary), then $HOME/.pcp/run/pmlogger.PID.socket.  A local:
 * name that cannot be connected falls back to TCP on localhost, as any
 * other host name: to the port given, or else to the one the logger's
 * port file names (__pmLogFindPort).  The logger greets with an ERROR PDU
 * whose value is its protocol version (or an error, when it refuses the
 * client) and whose sender is its pid; the client checks the pid when it
 * asked for one, answers with a CREDS PDU of the version both speak, and
 * the descriptor is left at that version.
 * Not here: the PDUs themselves (pdu_log.c), the port files (port.c).
 */
#include "pdu.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <syslog.h>
#include <unistd.h>

#include <pcp/libpcp.h>

/* ------------------------------------------------------------- timeout */

static pthread_once_t timeout_once = PTHREAD_ONCE_INIT;
static int timeout_secs; /* written once, under timeout_once */

static void timeout_init(void)
{
    const char *v = getenv("PMLOGGER_REQUEST_TIMEOUT");
    char *end;
    long n;

    if (v == NULL)
        return;
    n = strtol(v, &end, 10);
    if (*end != '\0' || n < 0) {
        pmNotifyErr(LOG_WARNING, "ignored bad PMLOGGER_REQUEST_TIMEOUT = '%s'\n", v);
        return;
    }
    timeout_secs = (int)n;
}

int __pmLoggerTimeout(void)
{
    pthread_once(&timeout_once, timeout_init);
    return timeout_secs;
}

/* ------------------------------------------------------------- sockets */

/* A stream socket as PCP's client makes one (its close resets the
 * connection), registered as a socket for __pmXmitPDU. */
static int client_socket(int family)
{
    struct linger nolinger = {1, 0};
    int fd = family == AF_UNIX ? __pmCreateUnixSocket() : __pmCreateSocket();

    if (fd < 0)
        return fd;
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &nolinger, sizeof(nolinger));
    __pmSetSocketIPC(fd);
    return fd;
}

/* Connect to the unix socket at path: the descriptor or -errno. */
static int connect_unix(const char *path)
{
    struct sockaddr_un un;
    int fd, sts;

    if (strlen(path) >= sizeof(un.sun_path))
        return -ENAMETOOLONG;
    if ((fd = client_socket(AF_UNIX)) < 0)
        return fd;
    memset(&un, 0, sizeof(un));
    un.sun_family = AF_UNIX;
    memcpy(un.sun_path, path, strlen(path) + 1);
    if (connect(fd, (struct sockaddr *)&un, sizeof(un)) < 0) {
        sts = -errno;
        __pmCloseSocket(fd);
        return sts;
    }
    return fd;
}

/* The logger pid's own socket: in $PCP_RUN_DIR, then in the user's
 * ~/.pcp/run; the descriptor, or the last -errno. */
static int connect_own_socket(int pid)
{
    char path[MAXPATHLEN];
    const char *run = pmGetConfig("PCP_RUN_DIR");
    const char *home = getenv("HOME");
    int fd;

    if (pid == PM_LOG_PRIMARY_PID)
        pmsprintf(path, sizeof(path), "%s/pmlogger.primary.socket", run);
    else
        pmsprintf(path, sizeof(path), "%s/pmlogger.%d.socket", run, pid);
    if ((fd = connect_unix(path)) >= 0 || home == NULL)
        return fd;
    pmsprintf(path, sizeof(path), "%s/.pcp/run/pmlogger.%d.socket", home, pid);
    return connect_unix(path);
}

/* Connect to port on host over TCP: the descriptor, -EHOSTUNREACH for a
 * name that does not resolve, or the last address's -errno. */
static int connect_inet(const char *host, int port)
{
    struct addrinfo hints, *res = NULL;
    char service[16];
    int fd = -EHOSTUNREACH;

    memset(&hints, 0, sizeof(hints));
    hints.ai_family = AF_INET;
    hints.ai_socktype = SOCK_STREAM;
    pmsprintf(service, sizeof(service), "%d", port);
    if (getaddrinfo(host, service, &hints, &res) != 0 || res == NULL)
        return -EHOSTUNREACH;
    for (struct addrinfo *ai = res; ai != NULL; ai = ai->ai_next) {
        if ((fd = client_socket(AF_INET)) < 0)
            break;
        if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
            break;
        {
            int sts = -errno;
            __pmCloseSocket(fd);
            fd = sts;
        }
    }
    freeaddrinfo(res);
    return fd;
}

/* Over TCP to the logger on host: at *port, or at the port its port
 * file names (*port set to it). */
static int connect_port(const char *host, int pid, int *port)
{
    if (*port == PM_LOG_NO_PORT) {
        __pmLogPort *lpp = NULL;
        int n;

        if (pid == PM_LOG_ALL_PIDS)
            return -ECONNREFUSED;
        if ((n = __pmLogFindPort(host, pid, &lpp)) < 0)
            return n;
        if (n == 0)
            return -ECONNREFUSED;
        *port = lpp[0].port;
    }
    return connect_inet(host, *port);
}

/* The connection to the logger the caller names, before the greeting. */
static int connect_logger(const char *host, int pid, int *port)
{
    int local = strncmp(host, "local:", 6) == 0;
    int fd;

    if (local || strncmp(host, "unix:", 5) == 0) {
        const char *path = host + (local ? 6 : 5);

        if (*path == '\0' && pid == PM_LOG_NO_PID)
            return -EPERM;
        fd = *path != '\0' ? connect_unix(path) : connect_own_socket(pid);
        if (fd >= 0 || !local || pid == PM_LOG_NO_PID)
            return fd;
        host = "localhost";
    }
    return connect_port(host, pid, port);
}

/* The logger's greeting on fd, and the client's CREDS in answer: 0 with
 * *pid the logger's, or an error. */
static int handshake(int fd, int *pid)
{
    __pmPDU *pb = NULL;
    __pmCred cred;
    int version, sts, asked = *pid;

    sts = __pmGetPDU(fd, ANY_SIZE, __pmLoggerTimeout(), &pb);
    if (sts != PDU_ERROR) {
        if (pb != NULL)
            __pmUnpinPDUBuf(pb);
        return sts < 0 ? sts : PM_ERR_IPC;
    }
    *pid = ((__pmPDUHdr *)pb)->from;
    sts = __pmDecodeError(pb, &version);
    __pmUnpinPDUBuf(pb);
    if (sts < 0)
        return sts;
    if (asked > 0 && *pid != asked)
        return -ECONNREFUSED;
    if (version < 0)
        return version; /* a refusal: -EADDRINUSE while it serves another client */
    if (version > LOG_PDU_VERSION)
        version = LOG_PDU_VERSION;
    if ((sts = __pmSetVersionIPC(fd, version)) < 0)
        return sts;
    memset(&cred, 0, sizeof(cred));
    cred.c_type = CVERSION;
    cred.c_vala = (unsigned)version;
    if ((sts = __pmSendCreds(fd, (int)getpid(), 1, &cred)) < 0)
        return sts;
    return 0;
}

int __pmConnectLogger(const char *host, int *pid, int *port)
{
    int fd, sts;

    if (host == NULL || pid == NULL || port == NULL)
        return -EINVAL;
    /* no pid and the primary's symbolic port: the primary logger */
    if (*pid == PM_LOG_NO_PID && *port == PM_LOG_PRIMARY_PORT) {
        *pid = PM_LOG_PRIMARY_PID;
        *port = PM_LOG_NO_PORT;
    }
    if ((fd = connect_logger(host, *pid, port)) < 0)
        return fd;
    if ((sts = handshake(fd, pid)) < 0) {
        __pmCloseSocket(fd);
        return sts;
    }
    return fd;
}

/* ------------------------------------------------------------- control */

int __pmControlLog(int fd, const __pmResult *request, int control, int state, int delta,
                   __pmResult **status)
{
    __pmPDU *pb = NULL;
    int sts, code;

    if (request->numpmid < 1)
        return PM_ERR_TOOSMALL;
    if ((sts = __pmSendLogControl(fd, request, control, state, delta)) < 0)
        return sts;
    sts = __pmGetPDU(fd, ANY_SIZE, __pmLoggerTimeout(), &pb);
    if (sts == PDU_RESULT)
        sts = __pmDecodeResult(pb, status);
    else if (sts == PDU_ERROR)
        sts = __pmDecodeError(pb, &code) < 0 ? PM_ERR_IPC : code;
    else if (sts >= 0)
        sts = PM_ERR_IPC;
    if (pb != NULL)
        __pmUnpinPDUBuf(pb);
    return sts;
}
