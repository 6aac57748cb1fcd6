/*
 * notify.c - messages and process chores for tools and agents: pmprintf
 * and pmflush, pmNotifyErr, pmSyslog, pmOpenLog, pmNoMem, pmGetUsername,
 * pmSetProcessIdentity and __pmProcessRunTimes.
 *
 * __pmRotateLog starts a new file for a stream pmOpenLog gave out (a
 * list of them is kept, as PCP keeps one); other streams pass untouched.
 *
 * pmprintf appends to a per-process buffer that pmflush writes to stderr,
 * or appends to the file $PCP_STDERR names (PCP's rule: the variable as
 * it is at the first flush with something to write, for good; its
 * "DISPLAY" value, a GUI pop-up, is treated as stderr here).  pmNotifyErr formats
 * PCP's "[date] prog(pid) Level: message" line through them.
 */
#include "support.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/times.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include <pcp/libpcp.h>

static pthread_mutex_t print_lock = PTHREAD_MUTEX_INITIALIZER;
static char *pending;
static size_t pending_len;
static int use_syslog;

/* The formatted text in a new malloc'd string, or NULL. */
static char *vformat(const char *fmt, va_list ap)
{
    va_list again;
    char *text;
    int n;

    va_copy(again, ap);
    n = vsnprintf(NULL, 0, fmt, again);
    va_end(again);
    if (n < 0 || (text = malloc((size_t)n + 1)) == NULL)
        return NULL;
    vsnprintf(text, (size_t)n + 1, fmt, ap);
    return text;
}

int pmprintf(const char *fmt, ...)
{
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = pmkit_vprintf(fmt, ap);
    va_end(ap);
    return n;
}

int pmkit_vprintf(const char *fmt, va_list ap)
{
    char *text = vformat(fmt, ap);
    int n;

    if (text == NULL)
        return -ENOMEM;
    n = (int)strlen(text);
    pthread_mutex_lock(&print_lock);
    char *grown = realloc(pending, pending_len + (size_t)n + 1);
    if (grown != NULL) {
        pending = grown;
        memcpy(pending + pending_len, text, (size_t)n + 1);
        pending_len += (size_t)n;
    } else {
        n = -ENOMEM;
    }
    pthread_mutex_unlock(&print_lock);
    free(text);
    return n;
}

/* Where pmflush writes: read from $PCP_STDERR at the first flush with
 * something to write and kept for the life of the process, as Debian's
 * (a name opened at each flush; NULL for stderr), under print_lock. */
static int dest_read;
static char *dest;

int pmflush(void)
{
    FILE *fp = stderr;

    pthread_mutex_lock(&print_lock);
    if (pending_len > 0) {
        if (!dest_read) {
            const char *where = getenv("PCP_STDERR");
            dest_read = 1;
            if (where != NULL && where[0] != '\0' && strcmp(where, "DISPLAY") != 0)
                dest = strdup(where);
        }
        /* a file that cannot be appended to: said so, stderr instead */
        if (dest != NULL && (fp = fopen(dest, "a")) == NULL) {
            fprintf(stderr, "pmflush: cannot append to file '%s' (from $PCP_STDERR): %s\n", dest,
                    strerror(errno));
            fp = stderr;
        }
        fputs(pending, fp);
        fflush(fp);
        if (fp != stderr)
            fclose(fp);
    }
    free(pending);
    pending = NULL;
    pending_len = 0;
    pthread_mutex_unlock(&print_lock);
    return 0;
}

void pmSyslog(int onoff)
{
    use_syslog = onoff;
    if (onoff)
        openlog(pmGetProgname(), LOG_PID | LOG_CONS, LOG_DAEMON);
    else
        closelog();
}

static const char *level_word(int pri)
{
    static const char *const words[] = {"Emergency", "Alert",  "Critical", "Error",
                                        "Warning",   "Notice", "Info",     "Debug"};
    return pri >= 0 && pri <= LOG_DEBUG ? words[pri] : "???";
}

void pmNotifyErr(int priority, const char *fmt, ...)
{
    va_list ap;
    char *msg;
    char when[32];
    time_t now = time(NULL);
    size_t len;

    va_start(ap, fmt);
    msg = vformat(fmt, ap);
    va_end(ap);
    if (msg == NULL)
        return;
    if (use_syslog)
        syslog(priority, "%s", msg);
    ctime_r(&now, when);
    len = strlen(msg);
    pmprintf("[%.19s] %s(%d) %s: %s%s", when, pmGetProgname(), (int)getpid(), level_word(priority),
             msg, len > 0 && msg[len - 1] == '\n' ? "" : "\n");
    pmflush();
    free(msg);
}

void pmNoMem(const char *where, size_t size, int fatal)
{
    char buf[PM_MAXERRMSGLEN];

    pmNotifyErr(fatal ? LOG_ERR : LOG_WARNING, "%s: malloc(%zu) failed: %s", where, size,
                pmErrStr_r(-ENOMEM, buf, sizeof(buf)));
    if (fatal == PM_FATAL_ERR)
        exit(1);
}

/* The streams pmOpenLog gave out, which __pmRotateLog may replace. */
static struct {
    pthread_mutex_t lock;
    FILE **v;
    size_t n;
} logs = {PTHREAD_MUTEX_INITIALIZER, NULL, 0};

/* Remember fp as a log (replacing old where old is one); 0 or -ENOMEM. */
static int logs_keep(FILE *old, FILE *fp)
{
    FILE **v;
    int sts = 0;

    pthread_mutex_lock(&logs.lock);
    for (size_t i = 0; i < logs.n; i++) {
        if (logs.v[i] == old || logs.v[i] == fp) {
            logs.v[i] = fp;
            pthread_mutex_unlock(&logs.lock);
            return 0;
        }
    }
    if ((v = realloc(logs.v, (logs.n + 1) * sizeof(*v))) == NULL) {
        sts = -ENOMEM;
    } else {
        v[logs.n++] = fp;
        logs.v = v;
    }
    pthread_mutex_unlock(&logs.lock);
    return sts;
}

static int logs_has(FILE *fp)
{
    int found = 0;

    pthread_mutex_lock(&logs.lock);
    for (size_t i = 0; i < logs.n && !found; i++)
        found = logs.v[i] == fp;
    pthread_mutex_unlock(&logs.lock);
    return found;
}

/*
 * A log from pmOpenLog ends with "Log rotated DATE" and goes on in a new
 * file logname, headed "Log for PROG on HOST rotated DATE", *status 1; if
 * that cannot be made, a line on stderr, *status 0 and the old file goes on
 * with the header.  Any other stream comes back as it is and *status is
 * left alone (as Debian's libpcp does).  The stream stays the same FILE:
 * the new file takes its descriptor's place, so a failure loses nothing.
 */
FILE *__pmRotateLog(const char *progname, const char *logname, FILE *oldstream, int *status)
{
    char host[MAXHOSTNAMELEN] = "", when[32];
    time_t now = time(NULL);
    int fd;

    if (oldstream == NULL || !logs_has(oldstream))
        return oldstream;
    ctime_r(&now, when);
    fprintf(oldstream, "\nLog rotated %s", when);
    fflush(oldstream);
    unlink(logname);
    fd = open(logname, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd >= 0 && dup2(fd, fileno(oldstream)) >= 0) {
        *status = 1;
    } else {
        *status = 0;
        fprintf(stderr, "%s: cannot open log \"%s\" for writing : %s\n", progname, logname,
                strerror(errno));
    }
    if (fd >= 0)
        close(fd);
    clearerr(oldstream);
    gethostname(host, sizeof(host) - 1);
    fprintf(oldstream, "Log for %s on %s rotated %s\n", progname, host, when);
    return oldstream;
}

/* Each stream pmOpenLog returned, once per call: "Log finished" goes to
 * each at exit, last first (as PCP's one exit handler per call writes). */
static struct {
    pthread_mutex_t lock;
    FILE **v;
    size_t n;
    int registered;
} finish = {PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0};

static void log_finished(void)
{
    time_t now = time(NULL);
    char when[32];

    ctime_r(&now, when);
    pthread_mutex_lock(&finish.lock);
    while (finish.n > 0) {
        FILE *fp = finish.v[--finish.n];
        fprintf(fp, "\nLog finished %s", when);
        fflush(fp);
    }
    free(finish.v);
    finish.v = NULL;
    pthread_mutex_unlock(&finish.lock);
}

static void finish_add(FILE *fp)
{
    FILE **v;

    pthread_mutex_lock(&finish.lock);
    if ((v = realloc(finish.v, (finish.n + 1) * sizeof(*v))) != NULL) {
        v[finish.n++] = fp;
        finish.v = v;
        if (!finish.registered && atexit(log_finished) == 0)
            finish.registered = 1;
    }
    pthread_mutex_unlock(&finish.lock);
}

/*
 * The log goes to logname, or stays on oldstream for "-": either way the
 * stream returned is oldstream (a new file takes its descriptor's place,
 * as in __pmRotateLog), headed "Log for PROG on HOST started DATE" and
 * ended "Log finished DATE" at exit.  A file that cannot be made is a
 * line on stderr and *status 0, and the log goes on on oldstream, header
 * and all (Debian's, tests/oracle/probe_openlog.c).
 */
FILE *pmOpenLog(const char *progname, const char *logname, FILE *oldstream, int *status)
{
    char host[MAXHOSTNAMELEN] = "";
    char when[32];
    time_t now = time(NULL);
    FILE *fp = oldstream;

    *status = 1;
    if (oldstream == NULL) { /* PCP's crashes */
        *status = 0;
        return NULL;
    }
    if (logname == NULL || strcmp(logname, "-") != 0) {
        int fd;
        fflush(oldstream);
        if (logname != NULL)
            unlink(logname);
        fd = logname == NULL ? -1 : open(logname, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
        if (fd >= 0 && dup2(fd, fileno(oldstream)) >= 0) {
            clearerr(oldstream);
            setvbuf(oldstream, NULL, _IOLBF, 0);
        } else {
            *status = 0;
            fprintf(stderr, "%s: cannot open log \"%s\" for writing : %s\n", progname,
                    logname != NULL ? logname : "(null)", strerror(errno));
        }
        if (fd >= 0)
            close(fd);
    }
    gethostname(host, sizeof(host) - 1);
    ctime_r(&now, when);
    fprintf(fp, "Log for %s on %s started %s\n", progname, host, when);
    logs_keep(oldstream, fp);
    finish_add(fp);
    return fp;
}

int pmGetUsername(char **name)
{
    char *user = pmGetOptionalConfig("PCP_USER");

    if (user != NULL && user[0] != '\0') {
        *name = user;
        return 1;
    }
    *name = "pcp";
    return 0;
}

int pmSetProcessIdentity(const char *name)
{
    struct passwd *pw;

    if (name == NULL || (pw = getpwnam(name)) == NULL) {
        pmNotifyErr(LOG_CRIT, "cannot find the %s user to switch to", name ? name : "(null)");
        exit(1);
    }
    if (getuid() == pw->pw_uid && geteuid() == pw->pw_uid)
        return 0; /* already that user: nothing to give up */
    if (setgid(pw->pw_gid) < 0 || initgroups(name, pw->pw_gid) < 0 || setuid(pw->pw_uid) < 0) {
        pmNotifyErr(LOG_CRIT, "cannot switch to uid %d (%s): %s", (int)pw->pw_uid, name,
                    strerror(errno));
        exit(1);
    }
    return 0;
}

/* User and system CPU seconds of this process; simple.c calls it by name. */
PCP_CALL int __pmProcessRunTimes(double *usr, double *sys);
PCP_CALL int __pmProcessRunTimes(double *usr, double *sys)
{
    struct tms t;
    long ticks = sysconf(_SC_CLK_TCK);

    if (times(&t) == (clock_t)-1 || ticks <= 0) {
        *usr = *sys = 0.0;
        return -errno;
    }
    *usr = (double)t.tms_utime / (double)ticks;
    *sys = (double)t.tms_stime / (double)ticks;
    return 0;
}

void pmFreeLabelSets(pmLabelSet *sets, int nsets)
{
    if (sets == NULL)
        return;
    for (int i = 0; i < nsets; i++) {
        free(sets[i].json);
        free(sets[i].labels);
    }
    free(sets);
}

/* The names these calls had before they became public. */
PMKIT_ALIAS(__pmSyslog, pmSyslog);
PMKIT_ALIAS(__pmNotifyErr, pmNotifyErr);
PMKIT_ALIAS(__pmNoMem, pmNoMem);
PMKIT_ALIAS(__pmOpenLog, pmOpenLog);
PMKIT_ALIAS(__pmGetUsername, pmGetUsername);
PMKIT_ALIAS(__pmSetProcessIdentity, pmSetProcessIdentity);
