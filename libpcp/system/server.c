/*
 * server.c - what pmie and the daemons ask of libpcp about themselves
 * (<pcp/libpcp.h>): a PID file, and word to systemd's service manager.
 *
 * __pmServerCreatePIDFile writes $PCP_RUN_DIR/SPEC.pid, the process id
 * without a newline, mode 0444, and removes it when the process exits;
 * it fails with -errno (and, if asked to be verbose, a line on stderr).
 * The notifications send "READY=1\nMAINPID=PID" or "STOPPING=1" as one
 * datagram to $NOTIFY_SOCKET: -12345 when that is not set, -EINVAL when
 * it is neither a path nor an abstract name, -errno when sending fails,
 * 1 when sent.  As Debian's libpcp answers (tests/oracle/probe_system.c).
 * __pmShutdown, which PCP's programs call before they exit so that a leak
 * checker sees nothing held, answers 0 as Debian's does and leaves the
 * contexts and the namespace in use, as Debian's does
 * (tests/oracle/probe_usepmns.c); pmkit holds no security library state
 * to release, and a local context's agents stay loaded.
 * __pmServerStart puts the caller in the background as Debian's does
 * (tests/oracle/probe_serverstart.c): stdio flushed, the terminal stop
 * signals ignored, a fork whose parent leaves at once (_exit(0), no exit
 * handlers), the child a new session's leader, its stdin closed when bit
 * 0 of flags is set.  A fork that fails leaves the caller in the
 * foreground (PCP's exits).  The features a server says it has
 * (__pmServerSetFeature and its two fellows) answer as Debian's
 * (tests/oracle/probe_serverfeatures.c): credentials required, unix
 * sockets, discovery, containers, local and certificates required can be
 * set (1) and only discovery and certificates required cleared; IPv6 is
 * pmGetAPIConfig's "ipv6", authentication always there, a secure server
 * never (pmkit has no TLS), compression and the others neither.  Not
 * here: the request ports and presence advertising of the server API.
 */
#include "support.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <pcp/libpcp.h>

/* The PID file this process made, removed at exit (PCP keeps one too). */
static struct {
    pthread_mutex_t lock;
    char path[PATH_MAX];
    int registered;
} pidfile = {PTHREAD_MUTEX_INITIALIZER, "", 0};

static void pidfile_remove(void)
{
    pthread_mutex_lock(&pidfile.lock);
    if (pidfile.path[0] != '\0')
        unlink(pidfile.path);
    pidfile.path[0] = '\0';
    pthread_mutex_unlock(&pidfile.lock);
}

int __pmServerCreatePIDFile(const char *spec, int verbose)
{
    const char *dir = pmGetOptionalConfig("PCP_RUN_DIR");
    char path[PATH_MAX], pid[32];
    int fd, len, sts = 0;

    if (dir == NULL)
        dir = "/run/pcp";
    snprintf(path, sizeof(path), "%s/%s.pid", dir, spec);
    unlink(path);
    if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0444)) < 0) {
        sts = -errno;
        if (verbose)
            fprintf(stderr, "Error: cannot open PID file %s\n", path);
        return sts;
    }
    len = snprintf(pid, sizeof(pid), "%d", (int)getpid());
    if (write(fd, pid, (size_t)len) != len)
        sts = errno ? -errno : -EIO;
    if (close(fd) < 0 && sts == 0)
        sts = -errno;
    chmod(path, 0444);
    pthread_mutex_lock(&pidfile.lock);
    snprintf(pidfile.path, sizeof(pidfile.path), "%s", path);
    if (!pidfile.registered)
        pidfile.registered = atexit(pidfile_remove) == 0;
    pthread_mutex_unlock(&pidfile.lock);
    return sts;
}

/* One datagram of text to $NOTIFY_SOCKET, as systemd's sd_notify sends. */
static int notify_send(const char *text)
{
    const char *where = getenv("NOTIFY_SOCKET");
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    size_t n;
    socklen_t alen;
    int fd, sts = 1;

    if (where == NULL || where[0] == '\0')
        return -12345;
    n = strlen(where);
    if ((where[0] != '/' && where[0] != '@') || n < 2 || n >= sizeof(addr.sun_path))
        return -EINVAL;
    memcpy(addr.sun_path, where, n);
    if (where[0] == '@')
        addr.sun_path[0] = '\0'; /* an abstract name */
    alen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n + (where[0] == '/'));
    if ((fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0)) < 0)
        return -errno;
    if (sendto(fd, text, strlen(text), MSG_NOSIGNAL, (struct sockaddr *)&addr, alen) < 0)
        sts = -errno;
    close(fd);
    return sts;
}

int __pmServerNotifyServiceManagerReady(pid_t pid)
{
    char text[64];

    snprintf(text, sizeof(text), "READY=1\nMAINPID=%d", (int)pid);
    return notify_send(text);
}

int __pmServerNotifyServiceManagerStopping(pid_t pid)
{
    (void)pid;
    return notify_send("STOPPING=1");
}

int __pmShutdown(void)
{
    return 0;
}

void __pmServerStart(int argc, char **argv, int flags)
{
    pid_t pid;

    (void)argc;
    (void)argv;
    fflush(stdout);
    fflush(stderr);
    signal(SIGTSTP, SIG_IGN);
    signal(SIGTTIN, SIG_IGN);
    signal(SIGTTOU, SIG_IGN);
    if ((pid = fork()) < 0)
        return;
    if (pid > 0)
        _exit(0);
    setsid();
    if (flags & 1)
        close(STDIN_FILENO);
}

/* ---------------------------------------------------------------- features */

static unsigned int server_features; /* 1 << feature, as set */

static int settable(__pmServerFeature f)
{
    return (f >= PM_SERVER_FEATURE_CREDS_REQD && f <= PM_SERVER_FEATURE_LOCAL) ||
           f == PM_SERVER_FEATURE_CERT_REQD;
}

int __pmServerSetFeature(__pmServerFeature f)
{
    if (!settable(f))
        return 0;
    server_features |= 1u << f;
    return 1;
}

int __pmServerClearFeature(__pmServerFeature f)
{
    if (f != PM_SERVER_FEATURE_DISCOVERY && f != PM_SERVER_FEATURE_CERT_REQD)
        return 0;
    server_features &= ~(1u << f);
    return 1;
}

int __pmServerHasFeature(__pmServerFeature f)
{
    const char *ipv6;

    if (f == PM_SERVER_FEATURE_IPV6)
        return (ipv6 = pmGetAPIConfig("ipv6")) != NULL && strcmp(ipv6, "true") == 0;
    if (f == PM_SERVER_FEATURE_AUTH)
        return 1;
    return settable(f) && (server_features & (1u << f)) != 0;
}
