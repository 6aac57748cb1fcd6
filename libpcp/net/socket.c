/*
 * socket.c - sockets as PCP's libpcp hands them to agents, tools and
 * servers (<pcp/libpcp.h>): made with PCP's options, bound, connected
 * (also without waiting, __pmConnectTo), their flags, descriptor sets and
 * select, the connect and request timeouts, a connection to a pmcd port
 * (__pmAuxConnectPMCDPort) and whether a host name is this host.
 *
 * Thin over the system calls, each answering as the call it wraps; as
 * Debian's libpcp answers (tests/oracle/probe_net.c).  The timeouts come
 * from $PMCD_CONNECT_TIMEOUT (5 s) and $PMCD_REQUEST_TIMEOUT (10 s) the
 * first time they are asked for, and __pmSet*Timeout changes them.  Not
 * here: pmkit's own connections to pmcd (context/host.c).
 */
#include "support.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <pcp/libpcp.h>

/* A stream socket of family with PCP's options (no Nagle delay, keep-alive
 * for TCP; IPv6 only for IPv6), closed across exec: the descriptor, or
 * -errno. */
static int new_socket(int family)
{
    int fd = socket(family, SOCK_STREAM, 0), on = 1;

    if (fd < 0)
        return -oserror();
    if (family == AF_INET || family == AF_INET6) {
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on));
        setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof(on));
    }
    if (family == AF_INET6)
        setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof(on));
    fcntl(fd, F_SETFD, FD_CLOEXEC);
    return fd;
}

int __pmCreateSocket(void)
{
    return new_socket(AF_INET);
}

int __pmCreateIPv6Socket(void)
{
    return new_socket(AF_INET6);
}

int __pmCreateUnixSocket(void)
{
    return new_socket(AF_UNIX);
}

/* A unix address is given the length of its own kind (callers pass
 * __pmSockAddrSize(), which is more). */
static __pmSockLen addr_len(const void *addr, __pmSockLen len)
{
    if (((const struct sockaddr *)addr)->sa_family == AF_UNIX &&
        len > (__pmSockLen)sizeof(struct sockaddr_un))
        return sizeof(struct sockaddr_un);
    return len;
}

int __pmBind(int fd, void *addr, __pmSockLen len)
{
    return bind(fd, (struct sockaddr *)addr, addr_len(addr, len));
}

int __pmListen(int fd, int backlog)
{
    return listen(fd, backlog);
}

int __pmConnect(int fd, void *addr, __pmSockLen len)
{
    return connect(fd, (struct sockaddr *)addr, addr_len(addr, len));
}

int __pmAccept(int fd, void *addr, __pmSockLen *len)
{
    return accept(fd, (struct sockaddr *)addr, len);
}

void __pmCloseSocket(int fd)
{
    __pmResetIPC(fd);
    close(fd);
}

int __pmSetSockOpt(int fd, int level, int name, const void *value, __pmSockLen len)
{
    return setsockopt(fd, level, name, value, len);
}

ssize_t __pmWrite(int fd, const void *buf, size_t len)
{
    return write(fd, buf, len);
}

ssize_t __pmRead(int fd, void *buf, size_t len)
{
    return read(fd, buf, len);
}

ssize_t __pmSend(int fd, const void *buf, size_t len, int flags)
{
    return send(fd, buf, len, flags);
}

ssize_t __pmRecv(int fd, void *buf, size_t len, int flags)
{
    return recv(fd, buf, len, flags);
}

int __pmGetFileStatusFlags(int fd)
{
    return fcntl(fd, F_GETFL);
}

int __pmSetFileStatusFlags(int fd, int flags)
{
    return fcntl(fd, F_SETFL, flags);
}

int __pmGetFileDescriptorFlags(int fd)
{
    return fcntl(fd, F_GETFD);
}

int __pmSetFileDescriptorFlags(int fd, int flags)
{
    return fcntl(fd, F_SETFD, flags);
}

/*
 * Start connecting fd to addr at port without waiting: the descriptor's
 * flags before it was made non-blocking (for __pmConnectRestoreFlags), or
 * -errno when the connection fails at once.
 */
int __pmConnectTo(int fd, const __pmSockAddr *addr, int port)
{
    __pmSockAddr *to = __pmSockAddrDup(addr);
    int flags = fcntl(fd, F_GETFL), sts;

    if (to == NULL)
        return -ENOMEM;
    __pmSockAddrSetPort(to, port);
    if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) {
        sts = -oserror();
        __pmSockAddrFree(to);
        return sts;
    }
    sts = connect(fd, (struct sockaddr *)to, (socklen_t)__pmSockAddrSize());
    if (sts < 0 && oserror() != EINPROGRESS) {
        sts = -oserror();
        __pmSockAddrFree(to);
        return sts;
    }
    __pmSockAddrFree(to);
    return flags;
}

/* The socket's pending error (0 when connected), as getsockopt says it. */
int __pmConnectCheckError(int fd)
{
    int err = 0;
    socklen_t len = sizeof(err);

    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0)
        return oserror();
    return err;
}

/* The flags put back: fd, or -errno (fd closed). */
int __pmConnectRestoreFlags(int fd, int flags)
{
    if (fcntl(fd, F_SETFL, flags) < 0) {
        int sts = -oserror();
        close(fd);
        return sts;
    }
    return fd;
}

/* Does errno say the other end has gone? */
int __pmSocketClosed(void)
{
    switch (oserror()) {
    case EPIPE:
    case ECONNRESET:
    case ECONNREFUSED:
    case ECONNABORTED:
    case ETIMEDOUT:
    case ENETDOWN:
    case ENETUNREACH:
    case EHOSTDOWN:
    case EHOSTUNREACH:
        return 1;
    }
    return 0;
}

/* ---------------------------------------------------------------- select */

int __pmFD(int fd)
{
    return fd;
}

void __pmFD_CLR(int fd, __pmFdSet *set)
{
    FD_CLR(fd, set);
}

int __pmFD_ISSET(int fd, __pmFdSet *set)
{
    return FD_ISSET(fd, set) != 0;
}

void __pmFD_SET(int fd, __pmFdSet *set)
{
    FD_SET(fd, set);
}

void __pmFD_ZERO(__pmFdSet *set)
{
    FD_ZERO(set);
}

void __pmFD_COPY(__pmFdSet *dst, const __pmFdSet *src)
{
    memcpy(dst, src, sizeof(*dst));
}

int __pmSelectRead(int nfds, __pmFdSet *readfds, struct timeval *timeout)
{
    return select(nfds, readfds, NULL, NULL, timeout);
}

int __pmSelectWrite(int nfds, __pmFdSet *writefds, struct timeval *timeout)
{
    return select(nfds, NULL, writefds, NULL, timeout);
}

/* ---------------------------------------------------------------- timeouts */

static pthread_mutex_t timeout_lock = PTHREAD_MUTEX_INITIALIZER;
static double connect_timeout = -1, request_timeout = -1;

static double from_env(const char *var, double dflt)
{
    const char *v = getenv(var);
    char *end;
    double d;

    if (v == NULL || *v == '\0')
        return dflt;
    d = strtod(v, &end);
    return *end == '\0' && d >= 0 && isfinite(d) ? d : dflt;
}

double __pmConnectTimeout(void)
{
    double t;

    pthread_mutex_lock(&timeout_lock);
    if (connect_timeout < 0)
        connect_timeout = from_env("PMCD_CONNECT_TIMEOUT", 5.0);
    t = connect_timeout;
    pthread_mutex_unlock(&timeout_lock);
    return t;
}

double __pmRequestTimeout(void)
{
    double t;

    pthread_mutex_lock(&timeout_lock);
    if (request_timeout < 0)
        request_timeout = from_env("PMCD_REQUEST_TIMEOUT", 10.0);
    t = request_timeout;
    pthread_mutex_unlock(&timeout_lock);
    return t;
}

int __pmSetConnectTimeout(double seconds)
{
    if (seconds < 0)
        return -EINVAL;
    pthread_mutex_lock(&timeout_lock);
    connect_timeout = seconds;
    pthread_mutex_unlock(&timeout_lock);
    return 0;
}

int __pmSetRequestTimeout(double seconds)
{
    if (seconds < 0)
        return -EINVAL;
    pthread_mutex_lock(&timeout_lock);
    request_timeout = seconds;
    pthread_mutex_unlock(&timeout_lock);
    return 0;
}

/* ---------------------------------------------------------------- hosts */

/* Wait up to the connect timeout for fd's connection to complete:
 * 0, or -errno. */
static int finish_connect(int fd)
{
    struct pollfd p = {fd, POLLOUT, 0};
    int ms = (int)(__pmConnectTimeout() * 1000), sts;

    while ((sts = poll(&p, 1, ms)) < 0 && oserror() == EINTR)
        ;
    if (sts == 0)
        return -ETIMEDOUT;
    if (sts < 0)
        return -oserror();
    return -__pmConnectCheckError(fd);
}

/* A connection to port on hostname, tried at each of its addresses in
 * turn: the socket, or -errno of the last attempt. */
int __pmAuxConnectPMCDPort(const char *hostname, int port)
{
    __pmHostEnt *he = __pmGetAddrInfo(hostname);
    __pmSockAddr *addr;
    void *at = NULL;
    int sts = -EHOSTUNREACH;

    if (he == NULL)
        return -EHOSTUNREACH;
    while ((addr = __pmHostEntGetSockAddr(he, &at)) != NULL) {
        int fd, flags;
        if (__pmSockAddrIsIPv6(addr))
            fd = __pmCreateIPv6Socket();
        else if (__pmSockAddrIsInet(addr))
            fd = __pmCreateSocket();
        else
            fd = -EAFNOSUPPORT;
        if (fd < 0) {
            sts = fd;
        } else if ((flags = __pmConnectTo(fd, addr, port)) < 0) {
            sts = flags;
            close(fd);
        } else if ((sts = finish_connect(fd)) < 0) {
            close(fd);
        } else {
            sts = __pmConnectRestoreFlags(fd, flags);
        }
        __pmSockAddrFree(addr);
        if (sts >= 0)
            break;
    }
    __pmHostEntFree(he);
    return sts;
}

/* Do two host names share an IPv4 address? */
static int same_host(const char *a, const char *b)
{
    __pmHostEnt *ha = __pmGetAddrInfo(a), *hb = __pmGetAddrInfo(b);
    __pmSockAddr *x, *y;
    void *i = NULL;
    int same = 0;

    while (!same && ha != NULL && hb != NULL && (x = __pmHostEntGetSockAddr(ha, &i)) != NULL) {
        void *j = NULL;
        while (!same && (y = __pmHostEntGetSockAddr(hb, &j)) != NULL) {
            same = __pmSockAddrIsInet(x) && __pmSockAddrCompare(x, y) == 0;
            __pmSockAddrFree(y);
        }
        __pmSockAddrFree(x);
    }
    __pmHostEntFree(ha);
    __pmHostEntFree(hb);
    return same;
}

/* Is hostname this host: local: or unix:, localhost, or a name with an
 * IPv4 address of this host's own name (as Debian's answers: 127.0.0.1 is
 * this host only where the host's name resolves to it, which a chroot or
 * container without the name in /etc/hosts does not)? */
int __pmIsLocalhost(const char *hostname)
{
    char me[MAXHOSTNAMELEN];

    if (hostname == NULL)
        return 0;
    if (strncmp(hostname, "local:", 6) == 0 || strncmp(hostname, "unix:", 5) == 0 ||
        strcmp(hostname, "localhost") == 0)
        return 1;
    if (gethostname(me, sizeof(me)) == 0) {
        me[sizeof(me) - 1] = '\0';
        return strcmp(hostname, me) == 0 || same_host(hostname, me);
    }
    return 0;
}
