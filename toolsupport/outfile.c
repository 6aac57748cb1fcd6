/*
 * outfile.c - the tools' outputs (see outfile.h): replaced atomically,
 * written in place when they are devices or FIFOs, reported with the
 * real cause of any write error; dependency files; standard output.
 *
 * A file is written to an anonymous temporary (O_TMPFILE) in the
 * directory of the file it replaces, so the rename cannot cross file
 * systems; at commit it is flushed, fsync'ed, given a name (linkat through
 * /proc/self/fd) and renamed over the destination, with SIGHUP, SIGINT and
 * SIGTERM held for those two steps.  Being nameless until then, nothing of
 * it survives any interruption, SIGKILL included, except in the moment
 * between the link and the rename.  Where O_TMPFILE or /proc is missing
 * the temporary is named from the start (mkstemp) and listed where a
 * signal handler removes it; it is listed with the signals held, and the
 * handlers are installed before it is created.
 *
 * Writes go through a stdio cookie stream whose write function keeps the
 * errno of the first failure, so a full disk is reported as "No space left
 * on device" however late the caller looks.  Standard output can be given
 * the same kind of stream (outfile_watch_stdout).
 *
 * The test hook (PMKIT_OUTFILE_FAULT, outfile.h) counts the steps of every
 * output and fails one of them or raises a signal before it.
 *
 * Not here: extended attributes and ACLs of a replaced file are not kept;
 * a hard-linked file is replaced, not rewritten, so its other names keep
 * the old text; only signals whose action is the default are caught.
 */
#define _GNU_SOURCE /* fopencookie, O_TMPFILE */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#define MAX_LIVE    8     /* named temporaries open at once (newhelp holds 2) */
#define OUT_BUFSIZE 65536 /* stdio buffer of an output file */
#define MAX_LINKS   40    /* symbolic links followed, as the kernel does */

/* What the public struct keeps behind a pointer, so that the cookie
 * stream's address stays valid however the outfile is copied. */
struct outfile_state {
    int fd;           /* the temporary, or the destination written in place */
    int err;          /* the first write error, -errno; 0 */
    int inplace;      /* a device or FIFO written where it is */
    int anon;         /* an O_TMPFILE temporary still without a name */
    int live;         /* slot + 1 in the list the signal handler cleans up */
    int replaces;     /* dest is a regular file that will be replaced */
    const char *path; /* the outfile's path, for the test hook's steps */
};

static const int held_signals[] = {SIGHUP, SIGINT, SIGTERM};
#define NHELD (sizeof(held_signals) / sizeof(held_signals[0]))

static char live_path[MAX_LIVE][PATH_MAX];
static volatile sig_atomic_t live_used[MAX_LIVE];

/* ---------------------------------------------------------------- */
/* The test hook. */

static struct {
    int ready; /* the variable has been read */
    int trace; /* list the steps */
    int named; /* no O_TMPFILE: temporaries named from the start */
    long at;   /* the step to fail, 0 none */
    long step; /* steps so far */
    int sig;   /* raise this before step at, or */
    int err;   /* fail step at with this errno */
} hook;

/* One item of the hook's list: "trace", "named" or "N:WHAT". */
static void hook_item(const char *v, size_t len)
{
    static const struct {
        const char *name;
        int sig, err;
    } what[] = {
        {"SIGKILL", SIGKILL, 0}, {"SIGTERM", SIGTERM, 0}, {"SIGHUP", SIGHUP, 0},
        {"SIGINT", SIGINT, 0},   {"ENOSPC", 0, ENOSPC},   {"EIO", 0, EIO},
        {"EDQUOT", 0, EDQUOT},   {"EFBIG", 0, EFBIG},     {"EACCES", 0, EACCES},
        {"EPERM", 0, EPERM},     {"EROFS", 0, EROFS},
    };
    char *end;
    long n;

    if (len == 5 && strncmp(v, "trace", 5) == 0)
        hook.trace = 1;
    else if (len == 5 && strncmp(v, "named", 5) == 0)
        hook.named = 1;
    else if ((n = strtol(v, &end, 10)) > 0 && *end == ':') {
        for (size_t i = 0; i < sizeof(what) / sizeof(what[0]); i++) {
            if (strlen(what[i].name) == len - (size_t)(end + 1 - v) &&
                strncmp(end + 1, what[i].name, strlen(what[i].name)) == 0) {
                hook.at = n;
                hook.sig = what[i].sig;
                hook.err = what[i].err;
            }
        }
    }
}

static void hook_init(void)
{
    const char *v = getenv("PMKIT_OUTFILE_FAULT");

    hook.ready = 1;
    while (v != NULL && *v != '\0') {
        size_t len = strcspn(v, ",");
        hook_item(v, len);
        v += len + (v[len] == ',');
    }
}

/* One step of an output: 0 to do it, or the -errno the hook makes it fail
 * with.  A signal raised here while held arrives when it is released. */
static int step(const char *what, const char *path)
{
    if (!hook.ready)
        hook_init();
    if (!hook.trace && hook.at == 0)
        return 0;
    hook.step++;
    if (hook.trace)
        fprintf(stderr, "outfile step %ld: %s %s\n", hook.step, what, path);
    if (hook.step != hook.at)
        return 0;
    if (hook.sig != 0) {
        raise(hook.sig);
        return 0;
    }
    return -hook.err;
}

/* ---------------------------------------------------------------- */
/* Signals. */

static void on_fatal_signal(int sig)
{
    for (int i = 0; i < MAX_LIVE; i++)
        if (live_used[i])
            unlink(live_path[i]);
    signal(sig, SIG_DFL);
    raise(sig);
}

/* SIGXFSZ caught and dropped, so that a write over the file size limit
 * fails with EFBIG; caught rather than ignored because an ignored signal
 * stays ignored in the programs #shell execs, and a caught one does not. */
static void on_file_size(int sig)
{
    (void)sig;
}

static void catch_signals(void)
{
    static int done;
    struct sigaction old, sa;

    if (done)
        return;
    done = 1;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_fatal_signal;
    for (size_t i = 0; i < NHELD; i++)
        if (sigaction(held_signals[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL)
            sigaction(held_signals[i], &sa, NULL);
    sa.sa_handler = on_file_size;
    if (sigaction(SIGXFSZ, NULL, &old) == 0 && old.sa_handler == SIG_DFL)
        sigaction(SIGXFSZ, &sa, NULL);
}

static void hold_signals(sigset_t *old)
{
    sigset_t set;

    sigemptyset(&set);
    for (size_t i = 0; i < NHELD; i++)
        sigaddset(&set, held_signals[i]);
    sigprocmask(SIG_BLOCK, &set, old);
}

static void release_signals(const sigset_t *old)
{
    sigprocmask(SIG_SETMASK, old, NULL);
}

/* List tmp for the signal handler (signals held); the slot + 1, or 0. */
static int live_add(const char *tmp)
{
    if (strlen(tmp) >= PATH_MAX)
        return 0;
    for (int i = 0; i < MAX_LIVE; i++) {
        if (!live_used[i]) {
            strcpy(live_path[i], tmp);
            /* the whole path before the flag, for a handler that sees it */
            atomic_signal_fence(memory_order_seq_cst);
            live_used[i] = 1;
            return i + 1;
        }
    }
    return 0;
}

static void live_drop(struct outfile_state *st)
{
    if (st->live > 0)
        live_used[st->live - 1] = 0;
    st->live = 0;
}

/* ---------------------------------------------------------------- */
/* The stream. */

/* write(2) all of buf to fd, each call a step; the count written, with
 * *err set on a failure. */
static size_t write_all(int fd, const char *buf, size_t len, const char *path, int *err)
{
    size_t done = 0;

    while (done < len) {
        int inj = path != NULL ? step("write", path) : 0;
        ssize_t n = inj < 0 ? (errno = -inj, -1) : write(fd, buf + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (*err == 0)
                *err = n < 0 ? -errno : -EIO;
            break;
        }
        done += (size_t)n;
    }
    return done;
}

static ssize_t cookie_write(void *cookie, const char *buf, size_t len)
{
    struct outfile_state *st = cookie;

    return (ssize_t)write_all(st->fd, buf, len, st->path, &st->err);
}

static FILE *stream_for(outfile *of)
{
    cookie_io_functions_t io = {NULL, cookie_write, NULL, NULL};
    FILE *fp = fopencookie(of->st, "w", io);

    if (fp != NULL && !of->st->inplace)
        setvbuf(fp, NULL, _IOFBF, OUT_BUFSIZE);
    return fp;
}

/* ---------------------------------------------------------------- */
/* Opening. */

static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *d;

    if (slash == NULL)
        return strdup(".");
    if (slash == path)
        return strdup("/");
    if ((d = malloc((size_t)(slash - path) + 1)) != NULL) {
        memcpy(d, path, (size_t)(slash - path));
        d[slash - path] = '\0';
    }
    return d;
}

/* The file path leads to through its symbolic links (path itself when it
 * is none, or does not exist); malloc'd, or NULL with *err. */
static char *follow_links(const char *path, int *err)
{
    char *cur = strdup(path), target[PATH_MAX];
    struct stat sb;

    for (int hops = 0; cur != NULL; hops++) {
        ssize_t n;
        char *next, *dir;
        if (lstat(cur, &sb) < 0 || !S_ISLNK(sb.st_mode))
            return cur;
        if (hops == MAX_LINKS || (n = readlink(cur, target, sizeof(target) - 1)) < 0) {
            *err = hops == MAX_LINKS ? -ELOOP : -errno;
            free(cur);
            return NULL;
        }
        target[n] = '\0';
        dir = target[0] == '/' ? NULL : dir_of(cur);
        if (target[0] != '/' && dir == NULL)
            next = NULL;
        else if ((next = malloc((dir ? strlen(dir) : 0) + (size_t)n + 2)) != NULL)
            sprintf(next, "%s%s%s", dir ? dir : "", dir ? "/" : "", target);
        free(dir);
        free(cur);
        cur = next;
    }
    *err = -ENOMEM;
    return NULL;
}

/* An anonymous temporary in dir, or -1 (the caller then names one). */
static int open_anonymous(const char *dir)
{
#ifdef O_TMPFILE
    char proc[64];
    struct stat sb;
    int fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);

    if (fd < 0)
        return -1;
    snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
    if (stat(proc, &sb) == 0) /* it can be linked by name at commit */
        return fd;
    close(fd);
#else
    (void)dir;
#endif
    return -1;
}

/* A temporary named beside dest, listed for the signal handler before
 * any signal can see it exist; fd, or -errno. */
static int open_named(outfile *of)
{
    size_t n = strlen(of->dest) + 16;
    sigset_t old;
    int fd, err;

    if ((of->tmp = malloc(n)) == NULL)
        return -ENOMEM;
    snprintf(of->tmp, n, "%s.tmpXXXXXX", of->dest);
    hold_signals(&old);
    fd = mkstemp(of->tmp);
    err = errno;
    if (fd >= 0)
        of->st->live = live_add(of->tmp);
    release_signals(&old);
    if (fd < 0) {
        free(of->tmp);
        of->tmp = NULL;
        return -err;
    }
    return fd;
}

/* The mode (and owner) of the new file: the replaced file's, or 0666 less
 * the umask.  0, or -errno. */
static int set_mode(outfile *of, const struct stat *old, int flags)
{
    mode_t mask = umask(0), mode = 0666 & ~mask;
    int err;

    umask(mask);
    if (old != NULL) /* set-id bits only with the owner they were for */
        mode = old->st_mode & ((flags & OUTFILE_KEEP_OWNER) ? 07777 : 01777);
    if (old != NULL && (flags & OUTFILE_KEEP_OWNER)) {
        if ((err = step("owner", of->path)) < 0 ||
            (fchown(of->st->fd, old->st_uid, old->st_gid) < 0 && (err = -errno) < 0))
            return err;
    }
    if ((err = step("mode", of->path)) < 0 || (fchmod(of->st->fd, mode) < 0 && (err = -errno) < 0))
        return err;
    return 0;
}

/* Where the data goes: a temporary, or dest itself; 0, or -errno. */
static int open_dest(outfile *of, int flags)
{
    struct stat sb;
    int have = stat(of->dest, &sb) == 0, err;
    char *dir;

    if (!have && errno != ENOENT)
        return -errno;
    if (have && S_ISDIR(sb.st_mode))
        return -EISDIR;
    if (have && !S_ISREG(sb.st_mode)) { /* a device, FIFO or socket */
        of->st->inplace = 1;
        if ((err = step("create", of->path)) < 0)
            return err;
        of->st->fd = open(of->dest, O_WRONLY | O_NOCTTY | O_CLOEXEC);
        return of->st->fd < 0 ? -errno : 0;
    }
    of->st->replaces = have;
    if ((err = step("create", of->path)) < 0)
        return err;
    if ((dir = dir_of(of->dest)) == NULL)
        return -ENOMEM;
    if (!hook.ready)
        hook_init();
    of->st->fd = hook.named ? -1 : open_anonymous(dir);
    free(dir);
    if (of->st->fd >= 0)
        of->st->anon = 1;
    else if ((of->st->fd = open_named(of)) < 0)
        return of->st->fd;
    return set_mode(of, have ? &sb : NULL, flags);
}

int outfile_open_flags(outfile *of, const char *path, int flags)
{
    int err = -ENOMEM;

    memset(of, 0, sizeof(*of));
    catch_signals(); /* before any temporary exists */
    if ((of->st = calloc(1, sizeof(*of->st))) == NULL || (of->path = strdup(path)) == NULL)
        goto fail;
    of->st->fd = -1;
    of->st->path = of->path;
    if ((of->dest = follow_links(path, &err)) == NULL || (err = open_dest(of, flags)) < 0)
        goto fail;
    if ((of->fp = stream_for(of)) == NULL) {
        err = -errno;
        goto fail;
    }
    return 0;
fail:
    outfile_abort(of);
    return err;
}

int outfile_open(outfile *of, const char *path)
{
    return outfile_open_flags(of, path, 0);
}

int outfile_error(const outfile *of)
{
    return of->st != NULL ? of->st->err : 0;
}

/* ---------------------------------------------------------------- */
/* Committing. */

/* Everything written out and on disk; 0, or the first error. */
static int sync_out(outfile *of)
{
    int err;

    if (fflush(of->fp) != 0 && of->st->err == 0)
        of->st->err = errno != 0 ? -errno : -EIO;
    if (of->st->err == 0 && ferror(of->fp))
        of->st->err = -EIO;
    if (of->st->err == 0 && !of->st->inplace) {
        if ((err = step("fsync", of->path)) < 0 || (fsync(of->st->fd) < 0 && (err = -errno) < 0))
            of->st->err = err;
    }
    return of->st->err;
}

/* An anonymous temporary linked as DEST.tmpXXXXXX (signals held). */
static int name_anonymous(outfile *of)
{
    static const char chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    static unsigned long counter;
    size_t n = strlen(of->dest) + 16;
    char proc[64];
    int err;

    if (!of->st->anon)
        return 0;
    if ((err = step("link", of->path)) < 0)
        return err;
    if ((of->tmp = malloc(n)) == NULL)
        return -ENOMEM;
    snprintf(proc, sizeof(proc), "/proc/self/fd/%d", of->st->fd);
    for (int tries = 0; tries < 100; tries++) {
        struct timespec ts;
        uint64_t v;
        clock_gettime(CLOCK_REALTIME, &ts);
        v = (uint64_t)ts.tv_nsec ^ (uint64_t)getpid() << 32 ^ ++counter * 0x9e3779b97f4a7c15u;
        snprintf(of->tmp, n, "%s.tmp", of->dest);
        for (size_t i = strlen(of->tmp), k = 0; k < 6; k++, v /= 62)
            of->tmp[i + k] = chars[v % 62], of->tmp[i + k + 1] = '\0';
        if (linkat(AT_FDCWD, proc, AT_FDCWD, of->tmp, AT_SYMLINK_FOLLOW) == 0) {
            of->st->anon = 0;
            of->st->live = live_add(of->tmp);
            return 0;
        }
        if (errno != EEXIST)
            break;
    }
    err = -errno;
    free(of->tmp);
    of->tmp = NULL;
    return err;
}

static int close_fd(outfile *of)
{
    int err = 0;

    if (of->fp != NULL) {
        fclose(of->fp); /* the cookie has no close: the descriptor is closed here */
        of->fp = NULL;
    }
    if (of->st->fd >= 0 && close(of->st->fd) < 0 && !of->st->inplace)
        err = -errno;
    of->st->fd = -1;
    return err;
}

static int rename_into_place(outfile *of)
{
    int err;

    if ((err = step("rename", of->path)) < 0 || (rename(of->tmp, of->dest) < 0 && (err = -errno)))
        return err;
    live_drop(of->st);
    free(of->tmp); /* it is the destination now: nothing to remove */
    of->tmp = NULL;
    return 0;
}

/* After a rename, the directory entry itself on disk (best effort: an
 * error here cannot be undone, and the new file is in place). */
static void sync_dir(const outfile *of)
{
    char *dir = dir_of(of->dest);
    int fd;

    if (dir != NULL && step("dirsync", of->path) == 0 &&
        (fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) {
        (void)fsync(fd);
        close(fd);
    }
    free(dir);
}

/* Name the temporary and close it (signals held); 0 or -errno. */
static int prepare(outfile *of)
{
    int err = name_anonymous(of);
    int cerr = close_fd(of);

    return err < 0 ? err : cerr;
}

int outfile_commit(outfile *of)
{
    sigset_t old;
    int err;

    if (of->st == NULL)
        return -EINVAL;
    if ((err = sync_out(of)) == 0 && of->st->inplace)
        err = close_fd(of);
    else if (err == 0) {
        hold_signals(&old);
        if ((err = prepare(of)) == 0)
            err = rename_into_place(of);
        release_signals(&old);
        if (err == 0)
            sync_dir(of);
    }
    outfile_abort(of);
    return err;
}

/* The pair's old index goes before either file moves (signals held). */
static int remove_old_index(outfile *index)
{
    int err;

    if (!index->st->replaces)
        return 0;
    if ((err = step("unlink", index->path)) < 0)
        return err;
    return unlink(index->dest) < 0 && errno != ENOENT ? -errno : 0;
}

/* The pair's steps in order, signals held for the naming and renaming;
 * 0, or the error and *which the file it concerns (0 data, 1 index). */
static int pair_steps(outfile *data, outfile *index, int *which)
{
    sigset_t old;
    int err;

    *which = 0;
    if ((err = sync_out(data)) < 0 || (*which = 1, err = sync_out(index)) < 0)
        return err;
    hold_signals(&old);
    if ((*which = 0, err = prepare(data)) == 0 && (*which = 1, err = prepare(index)) == 0 &&
        (err = remove_old_index(index)) == 0 && (*which = 0, err = rename_into_place(data)) == 0)
        *which = 1, err = rename_into_place(index);
    release_signals(&old);
    if (err == 0)
        sync_dir(index);
    return err;
}

int outfile_commit_pair(outfile *data, outfile *index, int *which)
{
    int err, w = 0;

    if (data->st == NULL || index->st == NULL)
        err = -EINVAL;
    else if (data->st->inplace || index->st->inplace) { /* nothing to order: where they are */
        if ((err = outfile_commit(data)) == 0)
            w = 1, err = outfile_commit(index);
    } else
        err = pair_steps(data, index, &w);
    outfile_abort(data);
    outfile_abort(index);
    if (which != NULL)
        *which = w;
    return err;
}

void outfile_abort(outfile *of)
{
    if (of->st != NULL) {
        (void)close_fd(of);
        if (of->tmp != NULL)
            unlink(of->tmp);
        live_drop(of->st);
    }
    free(of->st);
    free(of->tmp);
    free(of->path);
    free(of->dest);
    memset(of, 0, sizeof(*of));
}

/* ---------------------------------------------------------------- */
/* Standard output. */

static struct {
    int watched; /* stdout is the cookie stream below */
    int closed;  /* outfile_stdout_close has run */
    int err;     /* its first write error, -errno */
} out;

static ssize_t stdout_write(void *cookie, const char *buf, size_t len)
{
    (void)cookie;
    return (ssize_t)write_all(STDOUT_FILENO, buf, len, NULL, &out.err);
}

/* A tool that leaves by exit(3) before its own check: the error is still
 * reported, and the status made 1. */
static void stdout_at_exit(void)
{
    if (!out.closed && outfile_stdout_close() < 0)
        _exit(1);
}

void outfile_watch_stdout(void)
{
    cookie_io_functions_t io = {NULL, stdout_write, NULL, NULL};
    FILE *fp;

    if (out.watched || (fp = fopencookie(NULL, "w", io)) == NULL)
        return;
    fflush(stdout);
    if (isatty(STDOUT_FILENO))
        setvbuf(fp, NULL, _IOLBF, BUFSIZ);
    /* fileno(stdout) stays 1 for code that hands standard output on to a
     * child (PCP's libpcp runs pmcpp so); the stream itself writes through
     * stdout_write only, and its fclose would not close the descriptor */
    fp->_fileno = STDOUT_FILENO;
    stdout = fp; /* glibc's stdout is a variable, documented as assignable */
    out.watched = 1;
    atexit(stdout_at_exit);
}

int outfile_stdout_close(void)
{
    int err = 0;

    out.closed = 1;
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout))
        err = out.err != 0 ? out.err : errno != 0 ? -errno : -EIO;
    else if (out.err != 0)
        err = out.err;
    if (err != 0)
        fprintf(stderr, "%s: cannot write standard output: %s\n", program_invocation_short_name,
                strerror(-err));
    return err;
}

/* ---------------------------------------------------------------- */
/* Dependency files. */

/* name escaped for make: blanks and '#' take a backslash, '$' is doubled. */
static char *escaped(const char *name)
{
    size_t n = 0;
    char *e, *q;

    for (const char *p = name; *p != '\0'; p++)
        n += (*p == ' ' || *p == '\t' || *p == '#' || *p == '$') ? 2 : 1;
    if ((e = malloc(n + 1)) == NULL)
        return NULL;
    for (q = e; *name != '\0'; name++) {
        if (*name == ' ' || *name == '\t' || *name == '#')
            *q++ = '\\';
        else if (*name == '$')
            *q++ = '$';
        *q++ = *name;
    }
    *q = '\0';
    return e;
}

/* One word of the rule, folded as GCC folds (72 columns, escaped length);
 * returns the new column. */
static size_t put_word(FILE *fp, const char *name, size_t col)
{
    char *e = escaped(name);
    const char *w = e != NULL ? e : name;
    size_t size = strlen(w);

    if (col > 0) {
        if (col + size > 72) {
            fputs(" \\\n", fp);
            col = 0;
        }
        fputc(' ', fp);
        col++;
    }
    fputs(w, fp);
    free(e);
    return col + size;
}

void depfile_write(FILE *fp, const char *const *targets, size_t ntargets, const char *const *deps,
                   size_t ndeps, bool phony)
{
    size_t col = 0;

    for (size_t i = 0; i < ntargets; i++)
        col = put_word(fp, targets[i], col);
    fputc(':', fp);
    col++;
    for (size_t i = 0; i < ndeps; i++)
        col = put_word(fp, deps[i], col);
    fputc('\n', fp);
    for (size_t i = 1; phony && i < ndeps; i++) {
        put_word(fp, deps[i], 0);
        fputs(":\n", fp);
    }
}

int depopts_take(int argc, char **argv, depopts *d)
{
    int out_argc = 1;

    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (strcmp(s, "-M") == 0 || strcmp(s, "-MD") == 0)
            d->mode = s[2] == 'D' ? 'D' : 'M';
        else if (strcmp(s, "-MP") == 0)
            d->phony = 1;
        else if (strncmp(s, "-MF", 3) == 0 || strncmp(s, "-MT", 3) == 0) {
            const char *v = s[3] != '\0' ? s + 3 : (i + 1 < argc ? argv[++i] : NULL);
            if (v == NULL)
                return -1;
            if (s[2] == 'F')
                d->file = v;
            else if (d->ntargets < sizeof(d->targets) / sizeof(d->targets[0]))
                d->targets[d->ntargets++] = v;
        } else
            argv[out_argc++] = argv[i];
    }
    return out_argc;
}

void depopts_record(void *ctx, const char *path)
{
    depopts *d = ctx;
    char *copy;

    for (size_t i = 0; i < d->ndeps; i++)
        if (strcmp(d->deps[i], path) == 0)
            return;
    if (d->ndeps == d->depcap) {
        size_t cap = d->depcap ? d->depcap * 2 : 64;
        const char **v = realloc(d->deps, cap * sizeof(*v));
        if (v == NULL) {
            d->lost = 1;
            return;
        }
        d->deps = v, d->depcap = cap;
    }
    if ((copy = strdup(path)) == NULL)
        d->lost = 1;
    else
        d->deps[d->ndeps++] = copy;
}

const char *depopts_path(const depopts *d, const char *default_depfile)
{
    if (d->file != NULL)
        return d->file;
    return d->mode == 'M' ? NULL : default_depfile;
}

int depopts_emit(depopts *d, const char *default_target, const char *default_depfile)
{
    const char *path = depopts_path(d, default_depfile);
    /* the targets given, or the default alone (d keeps no pointer to it) */
    const char *const *targets = d->ntargets > 0 ? d->targets : &default_target;
    size_t ntargets = d->ntargets > 0 ? d->ntargets : 1;
    outfile of;
    int sts;

    if (d->lost)
        return -ENOMEM;
    if (d->ntargets == 0 && default_target == NULL)
        return -EINVAL;
    if (d->file == NULL && d->mode == 'M') {
        depfile_write(stdout, targets, ntargets, d->deps, d->ndeps, d->phony);
        return 0;
    }
    if (path == NULL)
        return -EINVAL;
    if ((sts = outfile_open(&of, path)) < 0)
        return sts;
    depfile_write(of.fp, targets, ntargets, d->deps, d->ndeps, d->phony);
    return outfile_commit(&of);
}

void depopts_free(depopts *d)
{
    for (size_t i = 0; i < d->ndeps; i++)
        free((void *)d->deps[i]);
    free(d->deps);
    d->deps = NULL;
    d->ndeps = d->depcap = 0;
}
