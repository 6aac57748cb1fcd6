/*
 * probe_system.c - libpcp's process, command, signal, timer and hash
 * helpers (<pcp/libpcp.h>), built against pmkit's libraries and Debian's
 * (compare.sh wants the same output):
 *  - commands: arguments added and unpicked from command lines (quotes,
 *    blanks, unterminated quotes and their warning), run and waited for,
 *    read and written through pipes; exit statuses, signals (1000 + N),
 *    programs that cannot be run (127), what is tossed to /dev/null;
 *  - processes: __pmProcessCreate on a pair of pipes, __pmProcessExists,
 *    __pmProcessDataSize's first answer, __pmMapErrno, file mappings;
 *  - alarm timers: identifiers, repeating and one-shot alarms, blocking,
 *    unregistering (counts of callbacks, never times);
 *  - hash tables: growth from every starting size, walk orders, searches,
 *    deletions, walks with callbacks, preallocation;
 *  - __pmAbsolutePath, __pmNativePath, __pmFindPMDA (files there and
 *    not), and __pmGetClientId for 0 to 5 arguments;
 *  - __pmDumpStack from 40 calls deep: its heading, its 32 frames and
 *    their form (the first 23), with addresses and offsets as X and each
 *    file by kind;
 *  - __pmRotateLog of a pmOpenLog stream and of others, to a good and a
 *    bad path (log files without dates or host); __pmServerCreatePIDFile
 *    (content, mode, removal at exit, a missing directory);
 *    __pmServerNotifyServiceManager* to no, a bad and a real socket;
 *  - __pmFreeDerived on a local context: its derived metric then.
 * Warnings from pmNotifyErr go through a file and lose their date and pid.
 * Left out, as pmkit differs on purpose (docs/compat.md): a NULL argument
 * or callback (PCP crashes), the node counts after a walk deletes or a
 * table is cleared, preallocating over nodes.
 */
#include <pcp/pmapi.h>
#include "libpcp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---------------------------------------------------------------- commands */

/* Run fn with stderr in a file; print what it wrote, "[...] NAME(PID)" cut. */
static void stderr_of(void (*fn)(const char *), const char *arg)
{
    char path[] = "/tmp/probe_system.XXXXXX", line[1024];
    int fd = mkstemp(path), saved = dup(2);
    FILE *f;

    fflush(stderr);
    dup2(fd, 2);
    fn(arg);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    f = fopen(path, "r");
    while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
        char *p = line;
        if (p[0] == '[' && (p = strchr(p, ')')) != NULL)
            p += 2;
        else
            p = line;
        printf("stderr: %s", p);
    }
    if (f != NULL)
        fclose(f);
    close(fd);
    unlink(path);
}

static void unpick(const char *cmd)
{
    __pmExecCtl_t *c = NULL;
    FILE *f;
    char buf[256];
    int sts = __pmProcessUnpickArgs(&c, cmd);

    printf("__pmProcessUnpickArgs [%s] -> %d\n", cmd, sts);
    if (sts < 0)
        return;
    __pmProcessAddArg(&c, "END");
    sts = __pmProcessPipe(&c, "r", PM_EXEC_TOSS_NONE, &f);
    printf("  __pmProcessPipe -> %d handle %s\n", sts, c == NULL ? "freed" : "kept");
    while (sts == 0 && fgets(buf, sizeof(buf), f) != NULL)
        printf("  %s", buf);
    if (sts == 0)
        printf("  __pmProcessPipeClose -> %d\n", __pmProcessPipeClose(f));
}

static __pmExecCtl_t *shell(const char *script)
{
    __pmExecCtl_t *c = NULL;

    __pmProcessAddArg(&c, "sh");
    __pmProcessAddArg(&c, "-c");
    __pmProcessAddArg(&c, script);
    return c;
}

static void commands(void)
{
    static const char *const lines[] = {
        "printf [%s]\\n a 'b c' \"d e\" f\\ g 'h\"i' \"j'k\"",
        "printf [%s]\\n   lead   trail   ",
        "printf [%s]\\n a\"b\"c 'x'y ''",
        "",
        "   ",
        "printf [%s]\\n 'unterminated",
        "printf [%s]\\n \"unterminated",
    };
    __pmExecCtl_t *c;
    FILE *f;
    int sts;

    for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
        stderr_of(unpick, lines[i]);
    c = shell("exit 5");
    sts = __pmProcessPipe(&c, "r", PM_EXEC_TOSS_NONE, &f);
    printf("pipe exit 5 -> %d close -> %d\n", sts, __pmProcessPipeClose(f));
    c = shell("kill -9 $$");
    sts = __pmProcessPipe(&c, "r", PM_EXEC_TOSS_NONE, &f);
    printf("pipe kill -9 -> %d close -> %d\n", sts, __pmProcessPipeClose(f));
    c = NULL;
    __pmProcessAddArg(&c, "/nonexistent/program");
    sts = __pmProcessPipe(&c, "r", PM_EXEC_TOSS_NONE, &f);
    printf("pipe nonexistent -> %d close -> %d\n", sts, __pmProcessPipeClose(f));
    c = NULL;
    __pmProcessAddArg(&c, "cat");
    sts = __pmProcessPipe(&c, "w", PM_EXEC_TOSS_NONE, &f);
    fprintf(f, "written through cat\n");
    fflush(stdout);
    printf("pipe w -> %d close -> %d\n", sts, __pmProcessPipeClose(f));
    c = shell("echo out; echo err >&2; exit 2");
    fflush(stdout);
    printf("exec toss all -> %d handle %s\n", __pmProcessExec(&c, PM_EXEC_TOSS_ALL, PM_EXEC_WAIT),
           c == NULL ? "freed" : "kept");
    c = shell("echo out2; exit 0");
    fflush(stdout);
    printf("exec toss none -> %d\n", __pmProcessExec(&c, PM_EXEC_TOSS_NONE, PM_EXEC_WAIT));
    c = shell("kill -TERM $$");
    printf("exec TERM -> %d\n", __pmProcessExec(&c, PM_EXEC_TOSS_NONE, PM_EXEC_WAIT));
    c = NULL;
    __pmProcessAddArg(&c, "/nonexistent/program");
    printf("exec nonexistent -> %d\n", __pmProcessExec(&c, PM_EXEC_TOSS_NONE, PM_EXEC_WAIT));
    c = NULL;
    printf("exec no arguments -> %d\n", __pmProcessExec(&c, PM_EXEC_TOSS_NONE, PM_EXEC_WAIT));
    c = shell("exit 7");
    printf("exec nowait -> %d\n", __pmProcessExec(&c, PM_EXEC_TOSS_NONE, PM_EXEC_NOWAIT));
    c = NULL;
    __pmProcessAddArg(&c, "true");
    printf("pipe type x -> %d\n", __pmProcessPipe(&c, "x", PM_EXEC_TOSS_NONE, &f));
    /* a refused pipe may leave the handle to its caller: run it ("true")
     * to have it freed, so that the sanitizer build sees no leak */
    if (c != NULL)
        (void)__pmProcessExec(&c, PM_EXEC_TOSS_ALL, PM_EXEC_WAIT);
}

/* ---------------------------------------------------------------- processes */

static void processes(void)
{
    char *argv[] = {"sh", "-c", "read x; echo got $x; exit 3", NULL};
    char buf[64];
    int in = -1, out = -1, st, n;
    pid_t pid = __pmProcessCreate(argv, &in, &out);
    unsigned long size = 99;
    FILE *tmp;
    char *p;

    printf("__pmProcessCreate: pid %s\n", pid > 0 ? "ok" : "failed");
    if (write(out, "hello\n", 6) != 6)
        printf("write failed\n");
    n = (int)read(in, buf, sizeof(buf));
    printf("read %.*s", n > 0 ? n : 0, buf);
    waitpid(pid, &st, 0);
    printf("exit status %d\n", WEXITSTATUS(st));
    close(in);
    close(out);
    printf("__pmProcessExists self %d bogus %d\n", __pmProcessExists(getpid()),
           __pmProcessExists(999999));
    errno = 0;
    printf("__pmProcessTerminate bogus %d errno %d\n", __pmProcessTerminate(999999, 0), errno);
    printf("__pmProcessDataSize -> %d size %lu\n", __pmProcessDataSize(&size), size);
    printf("__pmProcessDataSize(NULL) -> %d\n", __pmProcessDataSize(NULL));
    for (int e = -5; e < 140; e += 29)
        printf("__pmMapErrno(%d) -> %d\n", e, __pmMapErrno(e));
    tmp = tmpfile();
    fputs("abcdef", tmp);
    fflush(tmp);
    p = __pmMemoryMap(fileno(tmp), 6, 0);
    printf("__pmMemoryMap -> %s %.6s\n", p ? "mapped" : "NULL", p ? p : "");
    __pmMemoryUnmap(p, 6);
    errno = 0;
    p = __pmMemoryMap(-1, 6, 0);
    printf("__pmMemoryMap(-1) -> %s errno %d\n", p ? "mapped" : "NULL", errno);
    errno = 0;
    p = __pmMemoryMap(fileno(tmp), 0, 1);
    printf("__pmMemoryMap(len 0) -> %s errno %d\n", p ? "mapped" : "NULL", errno);
    fclose(tmp);
    printf("__pmSetSignalHandler -> %d %d\n", __pmSetSignalHandler(SIGUSR1, SIG_IGN),
           __pmSetSignalHandler(SIGKILL, SIG_IGN));
}

/* ---------------------------------------------------------------- alarms */

static volatile int fired[4], last_id[4];

static void alarm_cb(int id, void *data)
{
    int k = (int)(long)data;

    fired[k]++;
    last_id[k] = id;
}

static void wait_for(int k, int n)
{
    for (int i = 0; i < 1000 && fired[k] < n; i++)
        usleep(5000);
}

static void alarms(void)
{
    struct timeval every = {0, 20000}, zero = {0, 0}, first = {0, 1000};
    int a, b, c, sts;

    printf("__pmAFisempty %d\n", __pmAFisempty());
    a = __pmAFregister(&every, (void *)1, alarm_cb);
    printf("__pmAFregister -> %d isempty %d\n", a, __pmAFisempty());
    wait_for(1, 3);
    printf("fired at least 3 times %d with its id %d\n", fired[1] >= 3, last_id[1] == a);
    sts = __pmAFunregister(a);
    printf("__pmAFunregister -> %d", sts);
    sts = __pmAFunregister(a);
    printf(" again %d", sts);
    errno = 99;
    sts = __pmAFunregister(12345);
    printf(" unknown %d errno %d\n", sts, errno);
    b = __pmAFregister(&zero, (void *)2, alarm_cb);
    wait_for(2, 1);
    usleep(100000);
    printf("once: id %d fired %d isempty %d unregister %d\n", b, fired[2], __pmAFisempty(),
           __pmAFunregister(b));
    __pmAFblock();
    c = __pmAFsetup(&first, &every, (void *)3, alarm_cb);
    usleep(100000);
    printf("blocked: id %d fired %d\n", c, fired[3]);
    __pmAFunblock();
    wait_for(3, 1);
    printf("unblocked: fired %d\n", fired[3] >= 1);
    sts = __pmAFunregister(c);
    printf("__pmAFunregister -> %d isempty %d\n", sts, __pmAFisempty());
}

/* ---------------------------------------------------------------- hash */

static __pmHashWalkState walk_cb(const __pmHashNode *n, void *arg)
{
    int mode = *(int *)arg;

    printf(" %u", n->key);
    if (n->key == 2)
        return mode == 0   ? PM_HASH_WALK_NEXT
               : mode == 1 ? PM_HASH_WALK_STOP
               : mode == 2 ? PM_HASH_WALK_DELETE_NEXT
                           : PM_HASH_WALK_DELETE_STOP;
    return PM_HASH_WALK_NEXT;
}

static void hash_walk(__pmHashCtl *h)
{
    for (__pmHashNode *n = __pmHashWalk(h, PM_HASH_WALK_START); n != NULL;
         n = __pmHashWalk(h, PM_HASH_WALK_NEXT))
        printf(" %u", n->key);
    printf("\n");
}

static void hashes(void)
{
    static int data[8];
    __pmHashCtl h;

    for (int start = 0; start <= 24; start++) {
        int last;
        __pmHashInit(&h);
        if (start > 0)
            printf("start %d: __pmHashPreAlloc -> %d", start, __pmHashPreAlloc(start, &h));
        else
            printf("start 0:");
        last = h.hsize;
        for (int i = 0; i < 2000; i++) {
            __pmHashAdd((unsigned)i * 3, NULL, &h);
            if (h.hsize != last) {
                printf(" %d->%d@%d", last, h.hsize, h.nodes);
                last = h.hsize;
            }
        }
        printf("\n");
        __pmHashClear(&h);
    }
    __pmHashInit(&h);
    for (int i = 0; i < 40; i++)
        __pmHashAdd((unsigned)i * 3, NULL, &h);
    printf("walk of 40:");
    hash_walk(&h);
    /* keys spread over every bucket, so that each growth brings nodes of
     * several old buckets into one new one: their order there is PCP's */
    {
        __pmHashCtl g;
        unsigned k = 12345;
        __pmHashInit(&g);
        for (int i = 0; i < 300; i++) {
            k = k * 1103515245u + 12345u;
            __pmHashAdd((k >> 8) % 100000, NULL, &g);
        }
        printf("walk of 300:");
        hash_walk(&g);
        __pmHashClear(&g);
    }
    printf("search 117 %s 118 %s\n", __pmHashSearch(117, &h) ? "found" : "NULL",
           __pmHashSearch(118, &h) ? "found" : "NULL");
    printf("NEXT without START %s\n", __pmHashWalk(&h, PM_HASH_WALK_NEXT) ? "node" : "NULL");
    printf("STOP %s\n", __pmHashWalk(&h, PM_HASH_WALK_STOP) ? "node" : "NULL");
    __pmHashClear(&h);
    printf("cleared: hsize %d hash %s\n", h.hsize, h.hash ? "set" : "NULL");
    __pmHashInit(&h);
    printf("add -> %d", __pmHashAdd(1, &data[1], &h));
    printf(" dup -> %d nodes %d\n", __pmHashAdd(1, &data[2], &h), h.nodes);
    printf("newest first %d second %d\n", __pmHashSearch(1, &h)->data == &data[2],
           __pmHashSearch(1, &h)->next->data == &data[1]);
    printf("del wrong data %d", __pmHashDel(1, &data[3], &h));
    printf(" del %d nodes %d\n", __pmHashDel(1, &data[1], &h), h.nodes);
    __pmHashClear(&h);
    for (int mode = 0; mode < 4; mode++) {
        __pmHashInit(&h);
        for (int i = 0; i < 5; i++)
            __pmHashAdd((unsigned)i, &data[i], &h);
        printf("__pmHashWalkCB mode %d:", mode);
        __pmHashWalkCB(walk_cb, &mode, &h);
        printf(" | search 2 %s | walk:", __pmHashSearch(2, &h) ? "found" : "gone");
        hash_walk(&h);
        __pmHashClear(&h);
    }
    __pmHashInit(&h);
    printf("__pmHashPreAlloc(0) -> %d hsize %d", __pmHashPreAlloc(0, &h), h.hsize);
    printf(" (-1) -> %d hsize %d\n", __pmHashPreAlloc(-1, &h), h.hsize);
    __pmHashAdd(7, NULL, &h);
    printf("add after 0 buckets: hsize %d nodes %d\n", h.hsize, h.nodes);
    __pmHashFree(&h);
    printf("freed: hsize %d hash %s\n", h.hsize, h.hash ? "set" : "NULL");
}

/* ---------------------------------------------------------------- names */

static void names(void)
{
    char *paths[] = {"/abs", "rel", "", "./x", "//y", " /z"};
    char *args[] = {"/usr/bin/prog", "-x", "a b", "", "last"};
    char *id;

    char *native[] = {"/a/b\\c/d", "", "C:\\x\\y", "a/b/"};
    const char *dsos[] = {"/", "/etc/passwd", "/nonexistent/pmda_x.so", "",
                          ".", "simple",      "/etc/passwd/x",          "/etc//passwd"};
    const char *found;

    for (int i = 0; i < (int)(sizeof(paths) / sizeof(paths[0])); i++)
        printf("__pmAbsolutePath [%s] -> %d\n", paths[i], __pmAbsolutePath(paths[i]));
    for (int i = 0; i < (int)(sizeof(native) / sizeof(native[0])); i++) {
        char copy[32], *r;
        snprintf(copy, sizeof(copy), "%s", native[i]);
        r = __pmNativePath(copy);
        printf("__pmNativePath [%s] -> %s [%s]\n", native[i], r == copy ? "same" : "other", r);
    }
    for (int i = 0; i < (int)(sizeof(dsos) / sizeof(dsos[0])); i++) {
        found = __pmFindPMDA(dsos[i]);
        printf("__pmFindPMDA [%s] -> %s\n", dsos[i],
               found == NULL      ? "NULL"
               : found == dsos[i] ? "same"
                                  : found);
    }
    for (int argc = -1; argc <= 5; argc++) {
        id = __pmGetClientId(argc, args);
        printf("__pmGetClientId %d -> %s%s%s\n", argc, id ? "[" : "", id ? id : "NULL",
               id ? "]" : "");
        free(id);
    }
}

/* ---------------------------------------------------------------- stack */

static int deep(int n);
static int (*volatile deeper)(int) = deep; /* no loop can replace the calls */

static int deep(int n)
{
    if (n == 0) {
        __pmDumpStack();
        return 0;
    }
    return deeper(n - 1) + 1;
}

/* A frame's file as its kind: libpcp, this probe, or its base name. */
static void print_frame_line(char *line)
{
    char *open = strchr(line, '('), *slash, *p;

    if (strncmp(line, "  ", 2) != 0 || open == NULL) {
        printf("stack: %s", line);
        return;
    }
    *open = '\0';
    slash = strrchr(line, '/');
    printf("stack:   %s(", strstr(line, "libpcp.so.3") != NULL    ? "LIBPCP"
                           : strstr(line, "probe_system") != NULL ? "PROBE"
                           : slash != NULL                        ? slash + 1
                                                                  : line + 2);
    for (p = open + 1; *p != '\0'; p++) { /* hexadecimal numbers as X */
        if (p[0] == '0' && p[1] == 'x') {
            putchar('X');
            for (p += 2; p[1] != '\0' && strchr("0123456789abcdef", p[1]) != NULL; p++)
                ;
        } else {
            putchar(*p);
        }
    }
}

static void stack(void)
{
    char path[] = "/tmp/probe_system.XXXXXX", line[4096];
    int fd = mkstemp(path), saved = dup(2), nlines = 0, shown = 0;
    FILE *f;

    __pmDumpStackInit(NULL);
    fflush(stderr);
    dup2(fd, 2);
    deep(40);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    f = fopen(path, "r");
    while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
        nlines++;
        /* a sanitizer's interceptor of backtrace() shows as a frame of its
         * own: counted, not shown, and the frames shown stop before the
         * last ones, which such a frame pushes out */
        if (strstr(line, "san.so") == NULL && ++shown <= 24)
            print_frame_line(line);
    }
    printf("stack: %d lines\n", nlines);
    if (f != NULL)
        fclose(f);
    close(fd);
    unlink(path);
}

/* ------------------------------------------------ logs, PID file, systemd */

/* A log file's lines, its dates and host name left out. */
static void show_log(const char *path)
{
    char line[512], prog[64], what[16];
    FILE *f = fopen(path, "r");

    printf("  %s:\n", strrchr(path, '/') + 1);
    while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
        if (sscanf(line, "Log for %63s on %*s %15s", prog, what) == 2)
            printf("    Log for %s on HOST %s DATE\n", prog, what);
        else if (sscanf(line, "Log %15s", what) == 1 && strncmp(line, "Log ", 4) == 0)
            printf("    Log %s DATE\n", what);
        else
            printf("    %s", line);
    }
    if (f != NULL)
        fclose(f);
}

static char logdir[] = "/tmp/probe_system_logs.XXXXXX";

static void rotate_bad(const char *arg)
{
    FILE **fp = (FILE **)(void *)arg;
    int sts = -7;
    FILE *r = __pmRotateLog("prog3", "/nonexistent/c.log", *fp, &sts);

    printf("__pmRotateLog to a bad path -> status %d, %s\n", sts, r == NULL ? "NULL" : "a stream");
    fprintf(r, "line three\n");
    fflush(r);
    *fp = r;
}

static void logs(void)
{
    char a[64], b[64], c[64];
    int sts = -7;
    FILE *other = tmpfile(), *log, *r;

    snprintf(a, sizeof(a), "%s/a.log", logdir);
    snprintf(b, sizeof(b), "%s/b.log", logdir);
    snprintf(c, sizeof(c), "%s/c.log", logdir);
    r = __pmRotateLog("prog", a, other, &sts);
    printf("__pmRotateLog of another stream -> %s, status %d\n",
           r == other ? "the same" : "another", sts);
    r = __pmRotateLog("prog", a, NULL, &sts);
    printf("__pmRotateLog of NULL -> %s, status %d\n", r == NULL ? "NULL" : "a stream", sts);
    fclose(other);
    log = pmOpenLog("prog", a, fopen("/dev/null", "w"), &sts);
    printf("pmOpenLog -> status %d\n", sts);
    fprintf(log, "line one\n");
    sts = -7;
    r = __pmRotateLog("prog2", b, log, &sts);
    printf("__pmRotateLog -> %s, status %d\n", r == log ? "the same" : "another", sts);
    fprintf(r, "line two\n");
    fflush(r);
    stderr_of(rotate_bad, (const char *)(void *)&r);
    sts = -7;
    log = __pmRotateLog("prog4", c, r, &sts);
    printf("__pmRotateLog after that -> %s, status %d\n", log == r ? "the same" : "another", sts);
    fprintf(log, "line four\n");
    fflush(log); /* open to the end: PCP writes to its logs at exit */
    show_log(a);
    show_log(b);
    show_log(c);
    unlink(a);
    unlink(b);
    unlink(c);
}

static void pid_verbose(const char *verbose)
{
    printf("__pmServerCreatePIDFile in a missing directory -> %d\n",
           __pmServerCreatePIDFile("pmprobe", *verbose == 'v'));
}

static void pidfiles(void)
{
    char path[80], buf[32];
    struct stat st;
    pid_t pid;
    int fd, n;

    snprintf(path, sizeof(path), "%s/pmprobe.pid", logdir);
    fflush(stdout);
    if ((pid = fork()) == 0) {
        printf("__pmServerCreatePIDFile -> %d\n", __pmServerCreatePIDFile("pmprobe", 0));
        fd = open(path, O_RDONLY);
        n = fd < 0 ? -1 : (int)read(fd, buf, sizeof(buf) - 1);
        buf[n < 0 ? 0 : n] = '\0';
        stat(path, &st);
        printf("  the file: %s, mode %o\n", strtol(buf, NULL, 10) == getpid() ? "the pid" : buf,
               (unsigned)(st.st_mode & 07777));
        printf("  ends with a newline: %s\n", n > 0 && buf[n - 1] == '\n' ? "yes" : "no");
        exit(0);
    }
    waitpid(pid, NULL, 0);
    printf("  after the process exits: %s\n", access(path, F_OK) == 0 ? "there" : "gone");
    unlink(path);
}

static void notifications(void)
{
    char sock[80], buf[128];
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    int fd = socket(AF_UNIX, SOCK_DGRAM, 0);
    ssize_t n;

    unsetenv("NOTIFY_SOCKET");
    printf("no NOTIFY_SOCKET: ready %d stopping %d\n", __pmServerNotifyServiceManagerReady(1234),
           __pmServerNotifyServiceManagerStopping(1234));
    setenv("NOTIFY_SOCKET", "relative", 1);
    printf("a relative name: ready %d stopping %d\n", __pmServerNotifyServiceManagerReady(1234),
           __pmServerNotifyServiceManagerStopping(1234));
    snprintf(sock, sizeof(sock), "%s/nothing", logdir);
    setenv("NOTIFY_SOCKET", sock, 1);
    printf("no socket there: ready %d stopping %d\n", __pmServerNotifyServiceManagerReady(1234),
           __pmServerNotifyServiceManagerStopping(1234));
    snprintf(sock, sizeof(sock), "%s/notify", logdir);
    snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", sock);
    bind(fd, (struct sockaddr *)&addr, sizeof(addr));
    setenv("NOTIFY_SOCKET", sock, 1);
    printf("a socket: ready %d", __pmServerNotifyServiceManagerReady(1234));
    n = recv(fd, buf, sizeof(buf) - 1, MSG_DONTWAIT);
    buf[n < 0 ? 0 : n] = '\0';
    printf(" [%s]", buf);
    printf(" stopping %d", __pmServerNotifyServiceManagerStopping(1234));
    n = recv(fd, buf, sizeof(buf) - 1, MSG_DONTWAIT);
    buf[n < 0 ? 0 : n] = '\0';
    printf(" [%s]\n", buf);
    unsetenv("NOTIFY_SOCKET");
    close(fd);
    unlink(sock);
}

/* A context's derived metrics freed: their descriptors and values then. */
static void derived_look(const char *when)
{
    const char *names[] = {"probe.k"};
    pmID id = PM_ID_NULL;
    pmDesc d;
    pmResult *r;
    int sts = pmLookupName(1, names, &id);

    printf("%s: pmLookupName -> %d %s", when, sts, pmIDStr(id));
    sts = pmLookupDesc(id, &d);
    printf(", pmLookupDesc -> %s", sts < 0 ? pmErrStr(sts) : "ok");
    if ((sts = pmFetch(1, &id, &r)) < 0) {
        printf(", pmFetch -> %s\n", pmErrStr(sts));
        return;
    }
    printf(", pmFetch numval %d", r->vset[0]->numval);
    if (r->vset[0]->numval > 0)
        printf(" value %d", r->vset[0]->vlist[0].value.lval);
    printf("\n");
    pmFreeResult(r);
}

static void derived(void)
{
    char *err = pmRegisterDerived("probe.k", "42");
    int ctx = pmNewContext(PM_CONTEXT_LOCAL, NULL), other;
    __pmContext *cp;

    printf("pmRegisterDerived -> %s, a local context %s\n", err == NULL ? "ok" : err,
           ctx < 0 ? pmErrStr(ctx) : "made");
    if (ctx < 0)
        return;
    derived_look("before");
    if ((cp = __pmHandleToPtr(ctx)) != NULL) {
        __pmFreeDerived(cp);
        __pmFreeDerived(cp);
        PM_UNLOCK(cp->c_lock);
    }
    derived_look("after __pmFreeDerived twice");
    other = pmNewContext(PM_CONTEXT_LOCAL, NULL);
    derived_look("another context");
    pmUseContext(ctx);
    derived_look("the first again");
    pmDestroyContext(other);
    pmDestroyContext(ctx);
}

int main(void)
{
    char path[80];
    FILE *f;

    setvbuf(stdout, NULL, _IOLBF, 0);
    if (mkdtemp(logdir) == NULL)
        return 1;
    /* a namespace and an agent-less pmcd.conf for the local contexts */
    snprintf(path, sizeof(path), "%s/root", logdir);
    if ((f = fopen(path, "w")) != NULL) {
        fprintf(f, "root {\n    a 1:0:1\n}\n");
        fclose(f);
    }
    setenv("PMNS_DEFAULT", path, 1);
    snprintf(path, sizeof(path), "%s/pmcd.conf", logdir);
    if ((f = fopen(path, "w")) != NULL)
        fclose(f);
    setenv("PCP_PMCDCONF_PATH", path, 1);
    setenv("PCP_RUN_DIR", logdir, 1);
    commands();
    processes();
    alarms();
    hashes();
    names();
    stack();
    logs();
    pidfiles();
    setenv("PCP_RUN_DIR", "/nonexistent", 1);
    stderr_of(pid_verbose, "quiet");
    stderr_of(pid_verbose, "verbose");
    notifications();
    derived();
    snprintf(path, sizeof(path), "%s/root", logdir);
    unlink(path);
    snprintf(path, sizeof(path), "%s/pmcd.conf", logdir);
    unlink(path);
    rmdir(logdir);
    return 0;
}
