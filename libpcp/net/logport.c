/*
 * logport.c - where a host's pmloggers take control connections
 * (<pcp/libpcp.h>'s __pmLogFindPort, and __pmLogFindLocalPorts, which
 * Debian's libpcp exports undeclared): on this host, from the port files
 * each logger writes in $PCP_TMP_DIR/pmlogger.
 *
 * A port file is named by the logger's pid, and "primary" is the primary
 * logger's (a link to its file); it holds the port on its first line, the
 * host whose pmcd is logged on the second and the archive's base name on
 * the third.  As Debian's PCP 6.0.3 reads them (tests/oracle/
 * probe_logctl.c): the files of processes that are gone are passed over
 * (the primary's is not checked), names that neither start with the pid
 * of a live process (above 1) nor are "primary" are ignored, one that
 * starts with one and goes on ("12x") is refused with a message, a file
 * whose first line is not a number ending at its newline is passed over
 * with a message (pmprintf's), and one that stops before the host or the
 * archive is taken without them, also with a message.  The answer is an
 * array the library keeps until the next call, in the order of the names
 * (the primary after the pids).  Another host's loggers are what its pmcd
 * says of them (pmcd.pmlogger.port): pid and port, the instance's name,
 * no host or archive.
 */
#include "support.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <pcp/libpcp.h>

/* A port file is a few short lines; more than this is not read. */
#define PORT_FILE_MAX 4096

PCP_CALL int __pmLogFindLocalPorts(int pid, __pmLogPort **result);

static pthread_mutex_t ports_lock = PTHREAD_MUTEX_INITIALIZER;
static __pmLogPort *ports; /* the last answer, the caller's to read */
static int nports;

static void ports_clear(void)
{
    for (int i = 0; i < nports; i++) {
        free(ports[i].pmcd_host);
        free(ports[i].archive);
        free(ports[i].name);
    }
    free(ports);
    ports = NULL;
    nports = 0;
}

/* The pid a port file's name starts with, as PCP reads it (strtol: blanks
 * and a sign taken, anything after the number left at *rest). */
static long name_pid(const char *name, char **rest)
{
    return strtol(name, rest, 10);
}

/* Is name a port file the search for pid wants?  For all of them, as PCP
 * picks them: "primary", or a name starting with the pid (above 1) of a
 * live process: "12x" is one where process 12 runs (and is then refused
 * with a message, parse_file), "+12" is 12's. */
static int wanted(const char *name, int pid)
{
    char own[16];
    long n;

    if (pid == PM_LOG_PRIMARY_PID)
        return strcmp(name, "primary") == 0;
    if (pid == PM_LOG_ALL_PIDS) {
        n = name_pid(name, NULL);
        return strcmp(name, "primary") == 0 ||
               (n > 1 && n <= INT_MAX && __pmProcessExists((pid_t)n));
    }
    pmsprintf(own, sizeof(own), "%d", pid); /* one pid's: its file by name */
    return strcmp(name, own) == 0;
}

/* The file's text (at most PORT_FILE_MAX bytes), NUL-terminated: its
 * length, or -errno. */
static int read_text(const char *path, char *buf)
{
    int fd = open(path, O_RDONLY), n = 0;

    if (fd < 0)
        return -errno;
    while (n < PORT_FILE_MAX) {
        ssize_t got = read(fd, buf + n, (size_t)(PORT_FILE_MAX - n));
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            int sts = -errno;
            close(fd);
            return sts;
        }
        if (got == 0)
            break;
        n += (int)got;
    }
    close(fd);
    buf[n] = '\0';
    return n;
}

/* The line at *p (to its newline or the end) copied; *p past it, and
 * *nl whether a newline ended it. */
static char *take_line(const char **p, int *nl)
{
    const char *end = strchr(*p, '\n');
    size_t len = end != NULL ? (size_t)(end - *p) : strlen(*p);
    char *s = strndup(*p, len);

    *nl = end != NULL;
    *p += len + (end != NULL);
    return s;
}

/* A complaint about the port file at path, through pmprintf (so
 * $PCP_STDERR decides where it goes), as PCP's. */
static void complain(const char *path, const char *what)
{
    pmprintf("__pmLogFindLocalPorts: pmlogger port file %s%s\n", path, what);
    pmflush();
}

/* Parse the port file at path, named name, into lp: 1, 0 to pass it
 * over, -ENOMEM.  A name that is neither a pid nor "primary" is refused
 * once its port is read, as PCP refuses it. */
static int parse_file(const char *path, const char *name, __pmLogPort *lp)
{
    char *rest;
    char text[PORT_FILE_MAX + 1], *end;
    const char *p;
    int n = read_text(path, text), nl;

    if (n < 0) {
        char what[128];
        pmsprintf(what, sizeof(what), ": %s", strerror(-n));
        complain(path, what);
        return 0;
    }
    if (n == 0) {
        complain(path, " empty!");
        return 0;
    }
    lp->port = (int)strtol(text, &end, 10);
    if (*end != '\n') {
        complain(path, ": no port number");
        return 0;
    }
    name_pid(name, &rest);
    if (*rest != '\0' && strcmp(name, "primary") != 0) {
        pmprintf("__pmLogFindLocalPorts: unrecognised pmlogger port file %s\n", path);
        pmflush();
        return 0;
    }
    p = end + 1;
    if (*p == '\0') {
        complain(path, ": no PMCD host name");
        return 1;
    }
    if ((lp->pmcd_host = take_line(&p, &nl)) == NULL)
        return -ENOMEM;
    if (!nl || *p == '\0') {
        complain(path, ": no archive base pathname");
        return 1;
    }
    if ((lp->archive = take_line(&p, &nl)) == NULL)
        return -ENOMEM;
    return 1;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

/* Add the port file name in dir to the answer: 0 or -ENOMEM. */
static int add_port(const char *dir, const char *name)
{
    char path[MAXPATHLEN];
    __pmLogPort *t, *lp;
    int sts;

    if ((t = realloc(ports, (size_t)(nports + 1) * sizeof(*t))) == NULL)
        return -ENOMEM;
    ports = t;
    lp = &ports[nports];
    memset(lp, 0, sizeof(*lp));
    lp->pid = strcmp(name, "primary") == 0 ? PM_LOG_PRIMARY_PID : (int)name_pid(name, NULL);
    pmsprintf(path, sizeof(path), "%s/%s", dir, name);
    if ((sts = parse_file(path, name, lp)) <= 0 || (lp->name = strdup(name)) == NULL) {
        free(lp->pmcd_host);
        free(lp->archive);
        return sts < 0 || sts == 1 ? -ENOMEM : 0;
    }
    nports++;
    return 0;
}

static int find_local(int pid)
{
    char dir[MAXPATHLEN];
    struct dirent **names = NULL;
    int n, sts = 0;

    ports_clear();
    if (pid != PM_LOG_PRIMARY_PID && pid != PM_LOG_ALL_PIDS && !__pmProcessExists((pid_t)pid))
        return 0;
    pmsprintf(dir, sizeof(dir), "%s/pmlogger", pmGetConfig("PCP_TMP_DIR"));
    if ((n = scandir(dir, &names, NULL, by_name)) < 0)
        return 0;
    for (int i = 0; i < n; i++) {
        if (sts == 0 && wanted(names[i]->d_name, pid))
            sts = add_port(dir, names[i]->d_name);
        free(names[i]);
    }
    free(names);
    if (sts < 0) {
        ports_clear();
        return sts;
    }
    return nports;
}

int __pmLogFindLocalPorts(int pid, __pmLogPort **result)
{
    int sts;

    if (result == NULL)
        return -EINVAL;
    pthread_mutex_lock(&ports_lock);
    sts = find_local(pid);
    *result = ports;
    pthread_mutex_unlock(&ports_lock);
    return sts;
}

/* Add the logger of instance inst (pmcd.pmlogger's indom, the primary's
 * 0) on port, named as the instance: 0 or an error. */
static int add_remote(pmInDom indom, int inst, int port)
{
    __pmLogPort *t, *lp;
    char *name = NULL;
    int sts;

    if ((sts = pmNameInDom(indom, inst, &name)) < 0)
        return sts;
    if ((t = realloc(ports, (size_t)(nports + 1) * sizeof(*t))) == NULL) {
        free(name);
        return -ENOMEM;
    }
    ports = t;
    lp = &ports[nports++];
    memset(lp, 0, sizeof(*lp));
    lp->pid = inst;
    lp->port = port;
    lp->name = name;
    return 0;
}

/* The loggers of pmcd.pmlogger.port in the current context. */
static int fetch_remote(int pid)
{
    const char *metric = "pmcd.pmlogger.port";
    pmResult *rp = NULL;
    pmValueSet *vs;
    pmDesc desc;
    pmID pmid;
    int sts;

    if ((sts = pmLookupName(1, &metric, &pmid)) < 0 || (sts = pmLookupDesc(pmid, &desc)) < 0 ||
        (sts = pmFetch(1, &pmid, &rp)) < 0)
        return sts;
    vs = rp->vset[0];
    for (int i = 0; i < vs->numval && sts >= 0; i++) {
        int inst = vs->vlist[i].inst;
        if (pid == PM_LOG_ALL_PIDS || inst == pid)
            sts = add_remote(desc.indom, inst, vs->vlist[i].value.lval);
    }
    pmFreeResult(rp);
    return sts < 0 ? sts : nports;
}

/* Another host's loggers, as its pmcd knows them (pmcd.pmlogger.port, an
 * instance a logger, the primary's 0): no host or archive, and the
 * caller's current context kept. */
static int find_remote(const char *host, int pid)
{
    int saved = pmWhichContext(), ctx, sts;

    ports_clear();
    if ((ctx = pmNewContext(PM_CONTEXT_HOST, host)) < 0)
        return ctx;
    sts = fetch_remote(pid);
    pmDestroyContext(ctx);
    if (saved >= 0)
        pmUseContext(saved);
    if (sts < 0)
        ports_clear();
    return sts;
}

int __pmLogFindPort(const char *host, int pid, __pmLogPort **result)
{
    int sts;

    if (host == NULL || result == NULL)
        return -EINVAL;
    if (__pmIsLocalhost(host))
        return __pmLogFindLocalPorts(pid, result);
    pthread_mutex_lock(&ports_lock);
    sts = find_remote(host, pid);
    *result = ports;
    pthread_mutex_unlock(&ports_lock);
    return sts;
}
