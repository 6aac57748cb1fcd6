/*
 * host.c - the connection of a PM_CONTEXT_HOST context to pmcd: parsing
 * the host specification, connecting (TCP or a unix socket), pmcd's
 * greeting and the client's CREDS (tests/unit/test_host.c), and one synchronous
 * request/answer exchange at a time over it (6.1).
 *
 * Specifications, as PCP takes them (1.7): "host", "host:port[,port...]"
 * (each port tried in turn; $PMCD_PORT, else 44321, when none is given),
 * "pcp://" before either, "[v6addr]:port", "local:" or "local:PATH" (the
 * unix socket, $PCP_RUN_DIR/pmcd.socket by default, else TCP to
 * localhost) and "unix:PATH" (the socket only).  The connection waits
 * $PMCD_CONNECT_TIMEOUT seconds (5) to connect and $PMCD_REQUEST_TIMEOUT
 * (10, read as it connects) for each answer; a timeout is PM_ERR_TIMEOUT,
 * a connection that breaks or an answer that is not a PDU is PM_ERR_IPC,
 * after which the socket is closed and every request fails until
 * pmReconnectContext.
 *
 * Does NOT do: TLS ("pcps://", PM_CTXFLAG_SECURE), SASL authentication,
 * containers, proxies ("host@proxy"): those specifications are refused
 * with PM_ERR_NYI (docs/compat.md).
 */
#include "host.h"
#include "pdu.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define DEFAULT_PORT     "44321"
#define CONNECT_TIMEOUT  5.0
#define REQUEST_TIMEOUT  10.0
#define GREETING_VERSION 2
/* a refusal in the greeting uses PCP's version-1 numbering of its errors */
#define V1_ERR_LIMIT     (-1000)
#define V1_ERR_OFFSET    11345

struct pmkit_host {
    /* fd and prof_sent are also read by PCP's view of the context, made
     * under the library lock while a user holds the context (pcpview.c) */
    atomic_int fd;        /* the socket, -1 once the connection is lost */
    char *spec;           /* the specification given to pmNewContext */
    char *name;           /* its host part ("localhost" for a unix socket) */
    uint32_t features;    /* PDU_FLAG_* from pmcd's greeting */
    atomic_int prof_sent; /* a PROFILE has gone out on this connection ... */
    unsigned sent_gen;    /* ... for this prof_gen of the context */
    int request_ms;       /* $PMCD_REQUEST_TIMEOUT when it connected */
    unsigned char *in;    /* the last PDU read (grown as needed) */
    size_t incap;         /* its allocated size */
    pdu_buf out;          /* the request being built */
};

/* Seconds from the environment variable var, or dflt. */
static double env_seconds(const char *var, double dflt)
{
    const char *v = getenv(var);
    char *end;
    double d;

    if (v == NULL || *v == '\0')
        return dflt;
    d = strtod(v, &end);
    return *end == '\0' && d > 0 ? d : dflt;
}

/* The request timeout, read once per connection: each answer must arrive
 * within it (recv_pdu), and a request blocked because pmcd stopped reading
 * fails with EAGAIN after it. */
static void set_timeouts(pmkit_host *h)
{
    double t = env_seconds("PMCD_REQUEST_TIMEOUT", REQUEST_TIMEOUT);
    struct timeval tv = {(time_t)t, (suseconds_t)((t - (double)(time_t)t) * 1e6)};

    h->request_ms = (int)(t * 1000);
    setsockopt(h->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

/* Connect fd to addr within the connect timeout: 0 or -errno. */
static int connect_wait(int fd, const struct sockaddr *addr, socklen_t alen)
{
    int flags = fcntl(fd, F_GETFL), err = 0;
    socklen_t elen = sizeof(err);
    struct pollfd p = {fd, POLLOUT, 0};
    int ms = (int)(env_seconds("PMCD_CONNECT_TIMEOUT", CONNECT_TIMEOUT) * 1000);

    if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0)
        return -errno;
    if (connect(fd, addr, alen) < 0) {
        if (errno != EINPROGRESS)
            return -errno;
        int r;
        while ((r = poll(&p, 1, ms)) < 0 && errno == EINTR)
            ;
        if (r == 0)
            return -ETIMEDOUT;
        if (r < 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &elen) < 0)
            return -errno;
        if (err != 0)
            return -err;
    }
    return fcntl(fd, F_SETFL, flags) < 0 ? -errno : 0;
}

/* A connected unix-domain socket: the fd or -errno. */
static int connect_unix(const char *path)
{
    struct sockaddr_un sun;
    int fd, sts;

    memset(&sun, 0, sizeof(sun));
    sun.sun_family = AF_UNIX;
    if (strlen(path) >= sizeof(sun.sun_path))
        return -ENAMETOOLONG;
    strcpy(sun.sun_path, path);
    if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0)
        return -errno;
    if ((sts = connect_wait(fd, (struct sockaddr *)&sun, sizeof(sun))) < 0) {
        close(fd);
        return sts;
    }
    return fd;
}

/* A connected TCP socket to host on one of the comma-separated ports:
 * the fd, -EHOSTUNREACH for a name that does not resolve (PCP's code), or
 * the last connection error. */
static int connect_tcp(const char *host, const char *ports)
{
    int sts = -ECONNREFUSED;
    const char *p = ports;

    while (*p != '\0') {
        size_t n = strcspn(p, ",");
        char port[16];
        struct addrinfo hints, *ai, *a;

        if (n == 0 || n >= sizeof(port)) {
            sts = -EINVAL;
            break;
        }
        memcpy(port, p, n);
        port[n] = '\0';
        p += n + (p[n] == ',');
        memset(&hints, 0, sizeof(hints));
        hints.ai_socktype = SOCK_STREAM;
        if (getaddrinfo(host, port, &hints, &ai) != 0)
            return -EHOSTUNREACH;
        for (a = ai; a != NULL; a = a->ai_next) {
            int fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
            if (fd < 0) {
                sts = -errno;
                continue;
            }
            if ((sts = connect_wait(fd, a->ai_addr, a->ai_addrlen)) == 0) {
                int one = 1;
                struct linger lg = {1, 0};
                setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
                setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
                freeaddrinfo(ai);
                return fd;
            }
            close(fd);
        }
        freeaddrinfo(ai);
    }
    return sts;
}

/* The default unix socket: $PCP_RUN_DIR/pmcd.socket. */
static int default_socket(char *buf, size_t size)
{
    const char *run = pmGetOptionalConfig("PCP_RUN_DIR");

    return pmsprintf(buf, size, "%s/pmcd.socket", run != NULL ? run : "/run/pcp");
}

/* Connect as spec says: the fd, or an error; *name gets the host part. */
static int connect_spec(const char *spec, char **name)
{
    char path[4096], host[1025];
    const char *ports, *h = spec, *colon;
    size_t hl;
    int fd;

    if (strncmp(spec, "unix:", 5) == 0 || strncmp(spec, "local:", 6) == 0) {
        const char *p = spec + (spec[0] == 'u' ? 5 : 6);
        if (*p != '\0')
            pmsprintf(path, sizeof(path), "%s", p);
        else
            default_socket(path, sizeof(path));
        if (*name == NULL)
            *name = strdup("localhost");
        if ((fd = connect_unix(path)) >= 0 || spec[0] == 'u')
            return fd;
        h = "localhost"; /* local: falls back to TCP */
    } else if (strncmp(spec, "pcps://", 7) == 0 || strchr(spec, '@') != NULL) {
        return PM_ERR_NYI; /* TLS and proxies are not implemented */
    } else if (strncmp(spec, "pcp://", 6) == 0) {
        h += 6;
    }
    if (*h == '[' && (colon = strchr(h, ']')) != NULL) {
        hl = (size_t)(colon - h - 1);
        h++;
        colon = colon[1] == ':' ? colon + 1 : NULL;
    } else {
        colon = strchr(h, ':');
        hl = colon != NULL ? (size_t)(colon - h) : strlen(h);
    }
    if (hl == 0 || hl >= sizeof(host))
        return PM_ERR_NOTHOST;
    memcpy(host, h, hl);
    host[hl] = '\0';
    if (*name == NULL)
        *name = strdup(host);
    ports = colon != NULL && colon[1] != '\0' ? colon + 1 : getenv("PMCD_PORT");
    return connect_tcp(host, ports != NULL && *ports != '\0' ? ports : DEFAULT_PORT);
}

/* Send all of b's PDU: 0, b's encoding error, PM_ERR_TIMEOUT or PM_ERR_IPC. */
static int send_pdu(int fd, const pdu_buf *b)
{
    int sts;

    if (b->err != 0)
        return b->err;
    if ((sts = pdu_send(fd, b)) == -EAGAIN || sts == -EWOULDBLOCK)
        return PM_ERR_TIMEOUT;
    return sts < 0 ? PM_ERR_IPC : 0;
}

/* One PDU from pmcd into h->in within the request timeout for the whole
 * answer: its length or PM_ERR_TIMEOUT / PM_ERR_IPC. */
static int recv_pdu(pmkit_host *h)
{
    int len = pdu_read_timed(h->fd, &h->in, &h->incap, h->request_ms);

    if (len == -EAGAIN || len == -EWOULDBLOCK)
        return PM_ERR_TIMEOUT;
    if (len == -ENOMEM)
        return len;
    return len < 0 ? PM_ERR_IPC : len;
}

/* The greeting, then CREDS: 0 or the refusal / PM_ERR_IPC. */
static int handshake(pmkit_host *h)
{
    int len = recv_pdu(h), code;
    uint32_t info;

    if (len < 0)
        return len;
    if (pdu_dec_greeting(h->in, (size_t)len, &code, &info) < 0)
        return PM_ERR_IPC;
    if (code < 0)
        return code <= V1_ERR_LIMIT ? code - V1_ERR_OFFSET : code;
    if ((info >> 24 & 0x7f) != GREETING_VERSION)
        return PM_ERR_IPC;
    h->features = info & 0xffff;
    pdu_enc_creds(&h->out, (int)getpid(), PDU_VERSION, 0); /* no features asked for */
    return send_pdu(h->fd, &h->out);
}

/* Close the connection: every request fails with PM_ERR_IPC until
 * pmReconnectContext. */
static void drop(pmkit_host *h)
{
    if (h->fd >= 0)
        close(h->fd);
    h->fd = -1;
}

void pmkit_host_close(pmkit_host *h)
{
    if (h == NULL)
        return;
    drop(h);
    free(h->spec);
    free(h->name);
    free(h->in);
    pdu_buf_free(&h->out);
    free(h);
}

/* (Re)connect h to its specification. */
static int host_connect(pmkit_host *h)
{
    int sts;

    drop(h);
    h->prof_sent = 0;
    if ((sts = connect_spec(h->spec, &h->name)) < 0)
        return sts;
    h->fd = sts;
    set_timeouts(h);
    if ((sts = handshake(h)) < 0)
        drop(h);
    return sts < 0 ? sts : 0;
}

int pmkit_host_open(const char *spec, pmkit_host **out)
{
    pmkit_host *h = calloc(1, sizeof(*h));
    int sts;

    *out = NULL;
    if (h == NULL || (h->spec = strdup(spec)) == NULL) {
        free(h);
        return -ENOMEM;
    }
    h->fd = -1;
    if ((sts = host_connect(h)) < 0) {
        pmkit_host_close(h);
        return sts;
    }
    *out = h;
    return 0;
}

int pmkit_host_reconnect(pmkit_host *h)
{
    return host_connect(h);
}

const char *pmkit_host_spec(const pmkit_host *h)
{
    return h->spec;
}

int pmkit_host_fd(const pmkit_host *h)
{
    return h->fd;
}

int pmkit_host_profile_sent(const pmkit_host *h)
{
    return h->prof_sent;
}

const char *pmkit_host_name(const pmkit_host *h)
{
    return h->name != NULL ? h->name : h->spec;
}

int pmkit_host_has(const pmkit_host *h, int feature)
{
    return (h->features & (uint32_t)feature) != 0;
}

pdu_buf *pmkit_host_out(pmkit_host *h)
{
    return &h->out;
}

/* A transport failure, or an answer that makes no sense, ends the
 * connection: pmcd and we may disagree on where the next PDU starts. */
int pmkit_host_broken(pmkit_host *h, int sts)
{
    if (sts == PM_ERR_IPC || sts == PM_ERR_TIMEOUT)
        drop(h);
    return sts;
}

int pmkit_host_send(pmkit_ctx *ctx)
{
    pmkit_host *h = ctx->host;

    PMKIT_CHECK(pmkit_ctx_is_held(ctx));
    if (h->fd < 0)
        return PM_ERR_IPC;
    pdu_set_from(&h->out, ctx->handle);
    return pmkit_host_broken(h, send_pdu(h->fd, &h->out));
}

int pmkit_host_recv(pmkit_ctx *ctx, const unsigned char **pdu)
{
    pmkit_host *h = ctx->host;
    int len;

    PMKIT_CHECK(pmkit_ctx_is_held(ctx));
    if (h->fd < 0)
        return PM_ERR_IPC;
    if ((len = pmkit_host_broken(h, recv_pdu(h))) < 0)
        return len;
    *pdu = h->in;
    return len;
}

int pmkit_host_call(pmkit_ctx *ctx, const unsigned char **pdu)
{
    int sts = pmkit_host_send(ctx);

    return sts < 0 ? sts : pmkit_host_recv(ctx, pdu);
}

/* Send the context's profile if pmcd has not seen this version of it. */
int pmkit_host_profile(pmkit_ctx *ctx)
{
    pmkit_host *h = ctx->host;
    pmProfile *prof = pmkit_ctx_profile(ctx, 1);
    int sts;

    PMKIT_CHECK(pmkit_ctx_is_held(ctx));
    if (prof == NULL)
        return -ENOMEM;
    if (h->prof_sent && h->sent_gen == ctx->prof_gen)
        return 0;
    pdu_enc_profile(&h->out, ctx->handle, prof);
    if ((sts = pmkit_host_send(ctx)) < 0)
        return sts;
    h->prof_sent = 1;
    h->sent_gen = ctx->prof_gen;
    return 0;
}
