/*
 * timeclient.c - the messages of PCP's time control protocol, client
 * side (pmtime(3)): connect and handshake, receive a message, acknowledge
 * a step, show or hide the server's window.
 *
 * A connection is a TCP socket to 127.0.0.1 (no delay, closed with a
 * reset as libpcp's sockets are).  The handshake sends the client's
 * pmTime (with its zone and label after it) and expects an ACK naming the
 * same kind of source.  With no port given, PCP's pmtime is started
 * (through __pmProcessCreate) and the port read from the "port=N" line it
 * prints.  Return values and errno settings are those of Debian's
 * libpcp_gui.so.2; a message arriving in pieces is read whole, where PCP's
 * takes one recv() and calls anything shorter an error.
 *
 * Not here: any of the server's side (PCP's pmtime is a Qt program).
 */
#include <pcp/pmapi.h>
#include <pcp/libpcp.h>

#include "pmtime.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define MSG_FIXED     ((int)sizeof(pmTime)) /* 88 */
#define MSG_TEXT_MAX  80                    /* text after a received message */
#define HANDSHAKE_MAX 4096                  /* the longest handshake answer */

/* Sends all of buf; the count, or -1 with errno. */
static ssize_t send_all(int fd, const void *buf, size_t len)
{
    size_t done = 0;

    while (done < len) {
        ssize_t n = send(fd, (const char *)buf + done, len - done, 0);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        done += (size_t)n;
    }
    return (ssize_t)done;
}

/* Reads up to len bytes, stopping early only at end of file; the count,
 * or -1 with errno. */
static ssize_t recv_all(int fd, void *buf, size_t len)
{
    size_t done = 0;

    while (done < len) {
        ssize_t n = recv(fd, (char *)buf + done, len - done, 0);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        if (n == 0)
            break;
        done += (size_t)n;
    }
    return (ssize_t)done;
}

/* A TCP socket as libpcp makes them; -1 on failure. */
static int time_socket(void)
{
    struct linger nolinger = {1, 0};
    int one = 1;
    int fd = socket(AF_INET, SOCK_STREAM, 0);

    if (fd < 0)
        return -1;
    (void)setsockopt(fd, SOL_SOCKET, SO_LINGER, &nolinger, sizeof(nolinger));
    (void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    return fd;
}

/* The closing half of a failed handshake: errno as given, fd closed. */
static int handshake_fail(int fd, int err)
{
    if (err != 0)
        errno = err;
    err = errno;
    close(fd);
    errno = err;
    return -1;
}

/* Connects fd to the server at port and trades pmTimes: 0, or -1 with
 * errno and fd closed. */
static int handshake(int fd, int port, pmTime *state)
{
    struct sockaddr_in addr;
    unsigned char buf[HANDSHAKE_MAX];
    pmTime reply;
    ssize_t n;

    memset(&addr, 0, sizeof(addr));
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons((unsigned short)port);
    if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0)
        return handshake_fail(fd, 0);
    if ((n = send_all(fd, state, state->length)) < 0)
        return handshake_fail(fd, 0);
    if ((n = recv_all(fd, buf, MSG_FIXED)) < 0)
        return handshake_fail(fd, 0);
    if (n != MSG_FIXED)
        return handshake_fail(fd, EMSGSIZE);
    memcpy(&reply, buf, sizeof(reply));
    if (reply.length < (unsigned)MSG_FIXED || reply.length > sizeof(buf))
        return handshake_fail(fd, EMSGSIZE);
    if (reply.length > (unsigned)MSG_FIXED) {
        size_t rest = reply.length - (unsigned)MSG_FIXED;
        if ((n = recv_all(fd, buf + MSG_FIXED, rest)) < 0)
            return handshake_fail(fd, 0);
        if ((size_t)n != rest)
            return handshake_fail(fd, EMSGSIZE);
    }
    if (reply.command != PM_TCTL_ACK)
        return handshake_fail(fd, EPROTO);
    if (reply.source != state->source)
        return handshake_fail(fd, ENOSYS);
    return 0;
}

/* Starts PCP's pmtime for the source of state; the port it says it
 * listens on, or -1. */
static int spawn_server(pmTime *state)
{
    char *argv[] = {"pmtime", state->source == PM_SOURCE_ARCHIVE ? "-a" : "-h", NULL};
    char line[32];
    int in, out, port = -1;
    ssize_t n;

    if (__pmProcessCreate(argv, &in, &out) < 0)
        return -2;
    n = read(in, line, sizeof(line) - 1);
    if (n >= 0) {
        line[n] = '\0';
        if (sscanf(line, "port=%d", &port) != 1) {
            errno = EPROTO;
            port = -1;
        }
    }
    close(in);
    close(out);
    return port;
}

int pmTimeConnect(int port, pmTime *state)
{
    int fd = time_socket();

    if (fd < 0)
        return -1;
    if (port >= 0)
        return handshake(fd, port, state) < 0 ? -4 : fd;
    port = spawn_server(state);
    if (port < 0) {
        close(fd);
        return -2;
    }
    return handshake(fd, port, state) < 0 ? -3 : fd;
}

int pmTimeDisconnect(int fd)
{
    if (fd < 0) {
        errno = EINVAL;
        return -1;
    }
    close(fd);
    return 0;
}

/* A message of the fixed part only, with the command given. */
static void plain_message(pmTime *m, pm_tctl_command command)
{
    memset(m, 0, sizeof(*m));
    m->magic = PMTIME_MAGIC;
    m->length = (unsigned)MSG_FIXED;
    m->command = command;
}

int pmTimeSendAck(int fd, struct timeval *position)
{
    pmTime m;

    plain_message(&m, PM_TCTL_ACK);
    m.position = *position;
    return (int)send_all(fd, &m, sizeof(m));
}

int pmTimeShowDialog(int fd, int show)
{
    pmTime m;
    ssize_t n;

    plain_message(&m, show ? PM_TCTL_GUISHOW : PM_TCTL_GUIHIDE);
    if ((n = send_all(fd, &m, sizeof(m))) < 0)
        return (int)n;
    if (n != MSG_FIXED) {
        errno = EMSGSIZE;
        return -1;
    }
    return MSG_FIXED;
}

/* The text after a message: *datap grown to hold it and a NUL beyond. */
static int recv_text(int fd, pmTime **datap, size_t len)
{
    pmTime *m = realloc(*datap, (size_t)MSG_FIXED + len + 1);
    ssize_t n;

    if (m == NULL) {
        errno = ENOMEM;
        return -1;
    }
    *datap = m;
    if ((n = recv_all(fd, m->data, len)) < 0)
        return -1;
    if ((size_t)n != len) {
        errno = E2BIG;
        return -1;
    }
    m->data[len] = '\0';
    return 0;
}

int pmTimeRecv(int fd, pmTime **datap)
{
    pmTime *m = *datap;
    ssize_t n;
    unsigned int text;

    memset(m, 0, sizeof(*m));
    if ((n = recv_all(fd, m, sizeof(*m))) < 0)
        return -1;
    if (n != MSG_FIXED) {
        errno = EMSGSIZE;
        return -1;
    }
    text = m->length - (unsigned)MSG_FIXED; /* below 88 wraps, and is refused */
    if (text > MSG_TEXT_MAX)
        return PM_ERR_IPC;
    if (text > 0 && recv_text(fd, datap, text) < 0)
        return -1;
    return (*datap)->command;
}
