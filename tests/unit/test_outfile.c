/*
 * Unit tests for toolsupport/outfile.c and diag.c:
 *
 *  - outfile_open / outfile_commit / outfile_abort: the final path shows
 *    either the old file or the complete new one (rename into place, never
 *    a rewrite), nothing of the new file is visible before the commit,
 *    abort leaves an existing file untouched, a new file's mode follows the
 *    umask like fopen(3) and a replaced file keeps its mode (and, asked,
 *    its owner); a symbolic link's target is replaced and the link kept, a
 *    FIFO is written in place, a directory is refused; a write error's
 *    cause is kept however late the commit asks (EFBIG over RLIMIT_FSIZE);
 *  - outfile_watch_stdout / outfile_stdout_close: a failed write to
 *    standard output is reported with its cause (EPIPE);
 *  - depfile_write: the exact text GCC writes for -M / -MT / -MP.  The
 *    expected texts were taken from Debian's gcc 12.2 (`gcc -M -nostdinc`
 *    on files with the same names): a name goes on the current line while
 *    the column before it plus its escaped length is at most 72, otherwise
 *    " \" and a new line starting with one space; ' ' -> "\ ", '#' -> "\#",
 *    '$' -> "$$"; -MP adds "dep:" for every dependency but the first;
 *  - diag_print: the GCC-style rendering documented in diag.h, with the
 *    line-number margin as wide as GCC makes it and tabs mirrored in the
 *    caret line.
 *
 * Every test works in its own mkdtemp directory.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700
#endif
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "outfile.h"

/* ---- scratch directory ---- */

typedef struct {
    char dir[256];  /* the test's private directory */
    char path[512]; /* dir/out.txt */
} scratch;

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    return remove(path);
}

static int setup(void **state)
{
    scratch *s = calloc(1, sizeof(*s));
    const char *base = getenv("TMPDIR");

    if (s == NULL)
        return -1;
    snprintf(s->dir, sizeof(s->dir), "%s/pmkit-outfile-XXXXXX",
             base != NULL && *base != '\0' ? base : "/tmp");
    if (mkdtemp(s->dir) == NULL) {
        free(s);
        return -1;
    }
    snprintf(s->path, sizeof(s->path), "%s/out.txt", s->dir);
    *state = s;
    return 0;
}

static int teardown(void **state)
{
    scratch *s = *state;

    nftw(s->dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    free(s);
    return 0;
}

/* Number of entries in dir (without . and ..). */
static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;

    assert_non_null(d);
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            n++;
    }
    closedir(d);
    return n;
}

/* The whole content of path, malloc'd (NULL if it cannot be opened). */
static char *slurp(const char *path)
{
    FILE *fp = fopen(path, "r");
    char *buf;
    size_t n;

    if (fp == NULL)
        return NULL;
    buf = calloc(1, 4096);
    assert_non_null(buf);
    n = fread(buf, 1, 4095, fp);
    buf[n] = '\0';
    fclose(fp);
    return buf;
}

static void assert_file(const char *path, const char *want)
{
    char *got = slurp(path), buf[4096];

    assert_non_null(got);
    snprintf(buf, sizeof(buf), "%s", got);
    free(got);
    assert_string_equal(buf, want);
}

static void write_file(const char *path, const char *text)
{
    FILE *fp = fopen(path, "w");

    assert_non_null(fp);
    fputs(text, fp);
    assert_int_equal(fclose(fp), 0);
}

/* ---- outfile ---- */

static void commit_creates_the_file_with_its_content(void **state)
{
    scratch *s = *state;
    outfile of;
    char tmpdir[512], pathdir[512];

    assert_int_equal(outfile_open(&of, s->path), 0);
    assert_non_null(of.fp);
    assert_string_equal(of.dest, s->path);
    /* the temporary has no name yet (O_TMPFILE); where it has one, it
     * lives beside the final path, so rename cannot cross file systems */
    if (of.tmp != NULL) {
        snprintf(tmpdir, sizeof(tmpdir), "%s", of.tmp);
        snprintf(pathdir, sizeof(pathdir), "%s", s->path);
        assert_string_equal(dirname(tmpdir), dirname(pathdir));
    } else {
        assert_int_equal(count_entries(s->dir), 0);
    }
    assert_int_equal(access(s->path, F_OK), -1);
    fputs("line one\nline two\n", of.fp);
    fflush(of.fp);
    assert_int_equal(access(s->path, F_OK), -1); /* nothing visible before commit */
    assert_int_equal(outfile_commit(&of), 0);
    assert_file(s->path, "line one\nline two\n");
    assert_int_equal(count_entries(s->dir), 1); /* no temporary left behind */
}

static void commit_replaces_an_existing_file_by_rename(void **state)
{
    scratch *s = *state;
    struct stat before, after;
    outfile of;
    char buf[64];
    int oldfd;
    ssize_t n;

    write_file(s->path, "old content\n");
    assert_int_equal(stat(s->path, &before), 0);
    oldfd = open(s->path, O_RDONLY);
    assert_true(oldfd >= 0);

    assert_int_equal(outfile_open(&of, s->path), 0);
    fputs("new content\n", of.fp);
    fflush(of.fp);
    /* until the commit, readers still see the old file, whole */
    assert_file(s->path, "old content\n");
    assert_int_equal(outfile_commit(&of), 0);
    assert_file(s->path, "new content\n");

    /* the old inode was replaced, not rewritten: the reader holding it
     * still sees the old data */
    assert_int_equal(stat(s->path, &after), 0);
    assert_true(before.st_ino != after.st_ino || before.st_dev != after.st_dev);
    n = pread(oldfd, buf, sizeof(buf) - 1, 0);
    assert_int_equal(n, 12);
    buf[n] = '\0';
    assert_string_equal(buf, "old content\n");
    close(oldfd);
    assert_int_equal(count_entries(s->dir), 1);
}

static void abort_leaves_an_existing_file_untouched(void **state)
{
    scratch *s = *state;
    struct stat before, after;
    outfile of;

    write_file(s->path, "keep me\n");
    assert_int_equal(stat(s->path, &before), 0);
    assert_int_equal(outfile_open(&of, s->path), 0);
    /* the file, and the temporary if it has a name */
    assert_int_equal(count_entries(s->dir), of.tmp != NULL ? 2 : 1);
    fputs("half written", of.fp);
    fflush(of.fp);
    outfile_abort(&of);
    assert_file(s->path, "keep me\n");
    assert_int_equal(stat(s->path, &after), 0);
    assert_int_equal(before.st_ino, after.st_ino);
    assert_int_equal(count_entries(s->dir), 1); /* temporary removed */
}

static void abort_of_a_new_file_creates_nothing(void **state)
{
    scratch *s = *state;
    outfile of;

    assert_int_equal(outfile_open(&of, s->path), 0);
    fputs("never seen\n", of.fp);
    outfile_abort(&of);
    assert_int_equal(access(s->path, F_OK), -1);
    assert_int_equal(count_entries(s->dir), 0);
}

static void abort_accepts_a_zeroed_outfile(void **state)
{
    outfile of;

    (void)state;
    memset(&of, 0, sizeof(of));
    outfile_abort(&of); /* destroyers accept "nothing" */
    outfile_abort(&of);
}

static void abort_after_commit_keeps_the_committed_file(void **state)
{
    scratch *s = *state;
    outfile of;

    assert_int_equal(outfile_open(&of, s->path), 0);
    fputs("committed\n", of.fp);
    assert_int_equal(outfile_commit(&of), 0);
    outfile_abort(&of); /* a cleanup path that always aborts */
    assert_file(s->path, "committed\n");
    assert_int_equal(count_entries(s->dir), 1);
}

/* Commit, then compare the mode with what fopen(3) would have created. */
static void check_mode_for_umask(scratch *s, mode_t mask)
{
    mode_t old = umask(mask);
    struct stat sb;
    outfile of;
    int rc;

    rc = outfile_open(&of, s->path);
    umask(old);
    assert_int_equal(rc, 0);
    fputs("x\n", of.fp);
    old = umask(mask); /* the mask in force at commit time too */
    rc = outfile_commit(&of);
    umask(old);
    assert_int_equal(rc, 0);
    assert_int_equal(stat(s->path, &sb), 0);
    assert_int_equal(sb.st_mode & 07777, 0666 & ~mask);
    unlink(s->path);
}

static void permissions_follow_the_umask(void **state)
{
    scratch *s = *state;

    check_mode_for_umask(s, 022);
    check_mode_for_umask(s, 077);
    check_mode_for_umask(s, 027);
    check_mode_for_umask(s, 002);
    check_mode_for_umask(s, 0);
}

static void open_in_a_missing_directory_fails(void **state)
{
    scratch *s = *state;
    char path[600];
    outfile of;

    snprintf(path, sizeof(path), "%s/no/such/dir/out.txt", s->dir);
    assert_int_equal(outfile_open(&of, path), -ENOENT);
    assert_int_equal(count_entries(s->dir), 0);
}

static void a_directory_is_refused_at_open(void **state)
{
    scratch *s = *state;
    char path[600];
    outfile of;

    snprintf(path, sizeof(path), "%s/adir", s->dir);
    assert_int_equal(mkdir(path, 0755), 0);
    assert_int_equal(outfile_open(&of, path), -EISDIR);
    assert_null(of.fp);
    assert_int_equal(count_entries(s->dir), 1); /* only the directory */
}

static void failed_commit_removes_the_temporary(void **state)
{
    scratch *s = *state;
    char path[600], inner[700];
    outfile of;
    int rc;

    /* the final path becomes a directory with an entry after the open:
     * rename(2) must fail */
    snprintf(path, sizeof(path), "%s/adir", s->dir);
    assert_int_equal(outfile_open(&of, path), 0);
    fputs("data\n", of.fp);
    assert_int_equal(mkdir(path, 0755), 0);
    snprintf(inner, sizeof(inner), "%s/x", path);
    write_file(inner, "x");
    rc = outfile_commit(&of);
    assert_int_equal(rc, -EISDIR);
    assert_int_equal(count_entries(s->dir), 1); /* only the directory */
    unlink(inner);
}

/* A write error whose errno is gone by commit time (cleared, as callers of
 * strtol do) still fails the commit with its own cause, and nothing is left
 * behind: here EFBIG, from writing past RLIMIT_FSIZE (SIGXFSZ is caught). */
static void write_error_keeps_its_cause(void **state)
{
    scratch *s = *state;
    struct rlimit old, small;
    char block[4096];
    outfile of;
    int rc;

    write_file(s->path, "old\n");
    memset(block, 'x', sizeof(block));
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    assert_int_equal(outfile_open(&of, s->path), 0);
    small = old;
    small.rlim_cur = 10000;
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
    for (int i = 0; i < 8; i++)
        fwrite(block, 1, sizeof(block), of.fp);
    assert_int_equal(outfile_error(&of), -EFBIG);
    errno = 0;
    rc = outfile_commit(&of);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
    assert_int_equal(rc, -EFBIG);
    assert_file(s->path, "old\n");
    assert_int_equal(count_entries(s->dir), 1);
}

static void replaced_file_keeps_its_mode(void **state)
{
    scratch *s = *state;
    mode_t mask = umask(022);
    struct stat sb;
    outfile of;

    write_file(s->path, "old\n");
    assert_int_equal(chmod(s->path, 0604), 0);
    assert_int_equal(outfile_open(&of, s->path), 0);
    fputs("new\n", of.fp);
    assert_int_equal(outfile_commit(&of), 0);
    umask(mask);
    assert_int_equal(stat(s->path, &sb), 0);
    assert_int_equal(sb.st_mode & 07777, 0604);
    assert_file(s->path, "new\n");
}

/* As root: a file owned by someone else keeps owner and group only when
 * asked, and its set-id bits only with them. */
static void replaced_file_keeps_its_owner_when_asked(void **state)
{
    scratch *s = *state;
    struct stat sb;
    outfile of;

    if (geteuid() != 0)
        skip(); /* chown needs root */
    write_file(s->path, "old\n");
    assert_int_equal(chown(s->path, 4321, 8765), 0);
    assert_int_equal(chmod(s->path, 02750), 0);
    assert_int_equal(outfile_open_flags(&of, s->path, OUTFILE_KEEP_OWNER), 0);
    fputs("new\n", of.fp);
    assert_int_equal(outfile_commit(&of), 0);
    assert_int_equal(stat(s->path, &sb), 0);
    assert_int_equal(sb.st_uid, 4321);
    assert_int_equal(sb.st_gid, 8765);
    assert_int_equal(sb.st_mode & 07777, 02750);
    assert_int_equal(outfile_open(&of, s->path), 0);
    fputs("newer\n", of.fp);
    assert_int_equal(outfile_commit(&of), 0);
    assert_int_equal(stat(s->path, &sb), 0);
    assert_int_equal(sb.st_uid, geteuid());
    assert_int_equal(sb.st_mode & 07777, 0750);
}

/* out.txt -> sub/../link2 -> target: the target is replaced, both links stay. */
static void symbolic_links_lead_to_the_file_replaced(void **state)
{
    scratch *s = *state;
    char target[600], link2[600], sub[600];
    struct stat sb;
    outfile of;

    snprintf(target, sizeof(target), "%s/target", s->dir);
    snprintf(link2, sizeof(link2), "%s/link2", s->dir);
    snprintf(sub, sizeof(sub), "%s/sub", s->dir);
    assert_int_equal(mkdir(sub, 0755), 0);
    write_file(target, "old\n");
    assert_int_equal(chmod(target, 0640), 0);
    assert_int_equal(symlink("target", link2), 0);
    assert_int_equal(symlink("sub/../link2", s->path), 0);
    assert_int_equal(outfile_open(&of, s->path), 0);
    fputs("new\n", of.fp);
    assert_int_equal(outfile_commit(&of), 0);
    assert_file(target, "new\n");
    assert_int_equal(lstat(s->path, &sb), 0);
    assert_true(S_ISLNK(sb.st_mode));
    assert_int_equal(lstat(link2, &sb), 0);
    assert_true(S_ISLNK(sb.st_mode));
    assert_int_equal(stat(target, &sb), 0);
    assert_int_equal(sb.st_mode & 07777, 0640);
    assert_int_equal(count_entries(s->dir), 4);
    /* a dangling link: its target is made */
    assert_int_equal(unlink(target), 0);
    assert_int_equal(outfile_open(&of, s->path), 0);
    fputs("made\n", of.fp);
    assert_int_equal(outfile_commit(&of), 0);
    assert_file(target, "made\n");
    assert_int_equal(lstat(s->path, &sb), 0);
    assert_true(S_ISLNK(sb.st_mode));
    rmdir(sub);
}

static void a_link_loop_is_refused(void **state)
{
    scratch *s = *state;
    outfile of;

    assert_int_equal(symlink("out.txt", s->path), 0);
    assert_int_equal(outfile_open(&of, s->path), -ELOOP);
    assert_int_equal(count_entries(s->dir), 1);
}

/* A FIFO is written where it is, not replaced by a file. */
static void a_fifo_is_written_in_place(void **state)
{
    scratch *s = *state;
    struct stat sb;
    char buf[64];
    outfile of;
    int rd;
    ssize_t n;

    assert_int_equal(mkfifo(s->path, 0600), 0);
    rd = open(s->path, O_RDONLY | O_NONBLOCK);
    assert_true(rd >= 0);
    assert_int_equal(outfile_open(&of, s->path), 0);
    assert_null(of.tmp);
    fputs("through the fifo\n", of.fp);
    assert_int_equal(outfile_commit(&of), 0);
    n = read(rd, buf, sizeof(buf) - 1);
    close(rd);
    assert_int_equal(n, 17);
    buf[n] = '\0';
    assert_string_equal(buf, "through the fifo\n");
    assert_int_equal(lstat(s->path, &sb), 0);
    assert_true(S_ISFIFO(sb.st_mode));
    assert_int_equal(count_entries(s->dir), 1);
}

/* Standard output on a pipe nobody reads (SIGPIPE ignored): EPIPE, with a
 * message naming it, though errno has changed since the write failed. */
static void stdout_errors_are_reported(void **state)
{
    int fds[2], saved = dup(STDOUT_FILENO), errfd = dup(STDERR_FILENO);
    char errpath[600], *msg;
    scratch *s = *state;
    void (*old)(int) = signal(SIGPIPE, SIG_IGN);
    int rc, f;

    snprintf(errpath, sizeof(errpath), "%s/stderr", s->dir);
    fflush(stdout);
    assert_int_equal(pipe(fds), 0);
    close(fds[0]);
    assert_true(dup2(fds[1], STDOUT_FILENO) >= 0);
    close(fds[1]);
    f = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(f >= 0 && dup2(f, STDERR_FILENO) >= 0);
    close(f);
    outfile_watch_stdout();
    assert_int_equal(fileno(stdout), STDOUT_FILENO); /* for code that hands it to a child */
    setvbuf(stdout, NULL, _IONBF, 0); /* as pmcpp has it: nothing left for the close */
    printf("lost\n");
    errno = 0;
    (void)access("/nonexistent/pmkit", F_OK); /* errno is another's by the close */
    rc = outfile_stdout_close();
    dup2(saved, STDOUT_FILENO);
    dup2(errfd, STDERR_FILENO);
    close(saved);
    close(errfd);
    signal(SIGPIPE, old);
    assert_int_equal(rc, -EPIPE);
    msg = slurp(errpath);
    assert_non_null(msg);
    assert_non_null(strstr(msg, ": cannot write standard output: Broken pipe\n"));
    free(msg);
    unlink(errpath);
}

/* ---- depfile_write ---- */

/* Run depfile_write into memory; the result is malloc'd. */
static char *deps_text(const char *const *targets, size_t nt, const char *const *deps, size_t nd,
                       bool phony)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);

    assert_non_null(fp);
    depfile_write(fp, targets, nt, deps, nd, phony);
    assert_int_equal(fclose(fp), 0);
    return buf;
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void assert_deps(const char *const *targets, size_t nt, const char *const *deps, size_t nd,
                        bool phony, const char *want)
{
    char *got = deps_text(targets, nt, deps, nd, phony), buf[2048];

    snprintf(buf, sizeof(buf), "%s", got);
    free(got); /* before a failing assertion jumps away */
    assert_string_equal(buf, want);
}

/* A run of n copies of c, in a static ring of buffers. */
static const char *rep(char c, size_t n, const char *suffix)
{
    static char bufs[8][256];
    static int next;
    char *b = bufs[next++ % 8];

    memset(b, c, n);
    snprintf(b + n, sizeof(bufs[0]) - n, "%s", suffix);
    return b;
}

static void depfile_simple_rule(void **state)
{
    static const char *const t[] = {"m.o"};
    static const char *const d[] = {"m.c", "a.h", "sub/b.h"};

    (void)state;
    assert_deps(t, 1, d, N(d), false, "m.o: m.c a.h sub/b.h\n");
}

static void depfile_escapes_space_hash_dollar(void **state)
{
    /* gcc -M: "m.o: m.c a.h b\ c.h d\#e.h f$$g.h" */
    static const char *const t[] = {"m.o"};
    static const char *const d[] = {"m.c", "a.h", "b c.h", "d#e.h", "f$g.h"};

    (void)state;
    assert_deps(t, 1, d, N(d), false, "m.o: m.c a.h b\\ c.h d\\#e.h f$$g.h\n");
}

static void depfile_folds_like_gcc(void **state)
{
    /* gcc -M -nostdinc on a file including h{10,20,...,70}.h (names of
     * n 'h' followed by ".h"); copied from gcc 12.2's output. */
    const char *t[] = {"m.o"};
    const char *d[] = {"m.c",
                       rep('h', 10, ".h"),
                       rep('h', 20, ".h"),
                       rep('h', 30, ".h"),
                       rep('h', 35, ".h"),
                       rep('h', 40, ".h"),
                       rep('h', 50, ".h"),
                       rep('h', 60, ".h")};
    char want[1024];

    (void)state;
    snprintf(want, sizeof(want), "m.o: m.c %s %s \\\n %s %s \\\n %s \\\n %s \\\n %s\n", d[1], d[2],
             d[3], d[4], d[5], d[6], d[7]);
    assert_deps(t, 1, d, N(d), false, want);
    {
        const char *d2[] = {rep('h', 70, ".h")};
        /* a name longer than a line goes alone on its own line */
        snprintf(want, sizeof(want), "m.o: \\\n %s\n", d2[0]);
        assert_deps(t, 1, d2, 1, false, want);
    }
}

static void depfile_fold_boundary_is_column_72(void **state)
{
    /* gcc -M -nostdinc -MT <target> m.c, m.c including x.h: with a 64
     * character target "T: m.c x.h" (73 characters) stays on one line;
     * with 65 characters x.h moves to the next line. */
    const char *d[] = {"m.c", "x.h"};
    const char *t64[] = {rep('t', 64, "")};
    const char *t65[] = {rep('t', 65, "")};
    const char *t68[] = {rep('t', 68, "")};
    const char *t69[] = {rep('t', 69, "")};
    char want[512];

    (void)state;
    snprintf(want, sizeof(want), "%s: m.c x.h\n", t64[0]);
    assert_deps(t64, 1, d, 2, false, want);
    snprintf(want, sizeof(want), "%s: m.c \\\n x.h\n", t65[0]);
    assert_deps(t65, 1, d, 2, false, want);
    snprintf(want, sizeof(want), "%s: m.c \\\n x.h\n", t68[0]);
    assert_deps(t68, 1, d, 2, false, want);
    snprintf(want, sizeof(want), "%s: \\\n m.c x.h\n", t69[0]);
    assert_deps(t69, 1, d, 2, false, want);
}

static void depfile_fold_counts_escaped_length(void **state)
{
    /* gcc -M -nostdinc -MT <62 t> m.c, m.c including "a b c": the escaped
     * name "a\ b\ c" (7 columns) does not fit, though "a b c" (5) would. */
    const char *t[] = {rep('t', 62, "")};
    const char *d[] = {"m.c", "a b c"};
    char want[512];

    (void)state;
    snprintf(want, sizeof(want), "%s: m.c \\\n a\\ b\\ c\n", t[0]);
    assert_deps(t, 1, d, 2, false, want);
}

static void depfile_multiple_targets(void **state)
{
    static const char *const t[] = {"x", "z"};
    static const char *const d[] = {"m.c", "a.h"};
    /* gcc -M -MT aaa(40) -MT bbb(40) -MT c: the targets fold too */
    const char *t3[] = {rep('a', 40, ""), rep('b', 40, ""), "c"};
    const char *t3s[] = {rep('a', 30, ""), rep('b', 30, ""), "c"};
    const char *d2[] = {"m.c", "a b c"};
    char want[512];

    (void)state;
    assert_deps(t, 2, d, 2, false, "x z: m.c a.h\n");
    snprintf(want, sizeof(want), "%s \\\n %s c: m.c a\\ b\\ c\n", t3[0], t3[1]);
    assert_deps(t3, 3, d2, 2, false, want);
    snprintf(want, sizeof(want), "%s %s c: m.c \\\n a\\ b\\ c\n", t3s[0], t3s[1]);
    assert_deps(t3s, 3, d2, 2, false, want);
}

static void depfile_phony_targets(void **state)
{
    /* gcc 12 -M -MP: one "dep:" line per dependency but the first, escaped
     * like the rule, directly after it */
    static const char *const t[] = {"m.o"};
    static const char *const d[] = {"m.c", "a.h", "b c.h", "d#e.h", "f$g.h"};
    static const char *const one[] = {"m.c"};

    (void)state;
    assert_deps(t, 1, d, N(d), true,
                "m.o: m.c a.h b\\ c.h d\\#e.h f$$g.h\n"
                "a.h:\n"
                "b\\ c.h:\n"
                "d\\#e.h:\n"
                "f$$g.h:\n");
    assert_deps(t, 1, one, 1, true, "m.o: m.c\n");
}

/* ---- diag_print ---- */

static char *render(const diag_msg *d)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);

    assert_non_null(fp);
    diag_print(fp, d);
    assert_int_equal(fclose(fp), 0);
    return buf;
}

static void assert_render(const diag_msg *d, const char *want)
{
    char *got = render(d), buf[2048];

    snprintf(buf, sizeof(buf), "%s", got);
    free(got);
    assert_string_equal(buf, want);
}

static diag_msg mk(diag_severity sev, const char *file, unsigned long line, unsigned col,
                   const char *msg, const char *src)
{
    diag_msg d;

    memset(&d, 0, sizeof(d));
    d.severity = sev;
    d.file = file;
    d.line = line;
    d.col = col;
    d.message = msg;
    d.source = src;
    d.source_len = src != NULL ? strlen(src) : 0;
    return d;
}

static void diag_error_with_line_column_and_source(void **state)
{
    diag_msg d = mk(DIAG_ERROR, "x.pmns", 3, 5, "Missing ) in #if", "#if (1");

    (void)state;
    assert_render(&d, "x.pmns:3:5: error: Missing ) in #if\n"
                      "    3 | #if (1\n"
                      "      |     ^\n");
}

static void diag_warning(void **state)
{
    diag_msg d = mk(DIAG_WARNING, "<stdin>", 12, 1, "#warning careful", "#warning careful");

    (void)state;
    assert_render(&d, "<stdin>:12:1: warning: #warning careful\n"
                      "   12 | #warning careful\n"
                      "      | ^\n");
}

static void diag_without_line(void **state)
{
    diag_msg d = mk(DIAG_ERROR, "nofile", 0, 0, "No such file or directory", NULL);
    diag_msg d2 = mk(DIAG_ERROR, "<stdin>", 0, 7, "msg", "ignored source");

    (void)state;
    assert_render(&d, "nofile: error: No such file or directory\n");
    /* no line: neither column nor source are shown */
    assert_render(&d2, "<stdin>: error: msg\n");
}

static void diag_without_column(void **state)
{
    diag_msg d = mk(DIAG_ERROR, "<shell>", 2, 0, "oops", "some text");

    (void)state;
    assert_render(&d, "<shell>:2: error: oops\n"
                      "    2 | some text\n");
}

static void diag_without_source(void **state)
{
    diag_msg d =
        mk(DIAG_ERROR, "a.h", 4, 9, "Comment at line 4 not terminated before end of file", NULL);
    diag_msg w = mk(DIAG_WARNING, "<stdin>", 1, 0, "#shell cmd returns 3 exit status", NULL);

    (void)state;
    assert_render(&d, "a.h:4:9: error: Comment at line 4 not terminated before end of file\n");
    assert_render(&w, "<stdin>:1: warning: #shell cmd returns 3 exit status\n");
}

static void diag_caret_mirrors_tabs(void **state)
{
    /* columns count bytes; the caret line copies each tab so it lines up */
    diag_msg d = mk(DIAG_ERROR, "t", 1, 5, "here", "\tab\tcd");
    diag_msg d2 = mk(DIAG_ERROR, "t", 1, 2, "here", "\t\tx");

    (void)state;
    assert_render(&d, "t:1:5: error: here\n"
                      "    1 | \tab\tcd\n"
                      "      | \t  \t^\n");
    assert_render(&d2, "t:1:2: error: here\n"
                       "    1 | \t\tx\n"
                       "      | \t^\n");
}

static void diag_caret_positions(void **state)
{
    diag_msg first = mk(DIAG_ERROR, "f", 1, 1, "m", "#endif x");
    diag_msg past_end = mk(DIAG_ERROR, "f", 1, 8, "Missing macro name", "#define");

    (void)state;
    assert_render(&first, "f:1:1: error: m\n"
                          "    1 | #endif x\n"
                          "      | ^\n");
    /* one past the last character: where something is missing */
    assert_render(&past_end, "f:1:8: error: Missing macro name\n"
                             "    1 | #define\n"
                             "      |        ^\n");
}

static void diag_source_length_is_respected(void **state)
{
    diag_msg d = mk(DIAG_ERROR, "f", 2, 2, "m", "abcdef");

    (void)state;
    d.source_len = 3; /* the source need not be NUL-terminated where it ends */
    assert_render(&d, "f:2:2: error: m\n"
                      "    2 | abc\n"
                      "      |  ^\n");
}

static void diag_wide_line_numbers_stay_aligned(void **state)
{
    /* GCC widens the margin for line numbers over five digits:
     *   big.c:123456:5: error: missing ')' in expression
     *   123456 | #if (1
     *          |     ^            (seven spaces before the bar) */
    diag_msg d5 = mk(DIAG_ERROR, "big", 12345, 5, "Missing ) in #if", "#if (1");
    diag_msg d6 = mk(DIAG_ERROR, "big", 123456, 5, "Missing ) in #if", "#if (1");

    (void)state;
    assert_render(&d5, "big:12345:5: error: Missing ) in #if\n"
                       "12345 | #if (1\n"
                       "      |     ^\n");
    assert_render(&d6, "big:123456:5: error: Missing ) in #if\n"
                       "123456 | #if (1\n"
                       "       |     ^\n");
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(commit_creates_the_file_with_its_content),
        T(commit_replaces_an_existing_file_by_rename),
        T(abort_leaves_an_existing_file_untouched),
        T(abort_of_a_new_file_creates_nothing),
        T(abort_accepts_a_zeroed_outfile),
        T(abort_after_commit_keeps_the_committed_file),
        T(permissions_follow_the_umask),
        T(open_in_a_missing_directory_fails),
        T(a_directory_is_refused_at_open),
        T(failed_commit_removes_the_temporary),
        T(write_error_keeps_its_cause),
        T(replaced_file_keeps_its_mode),
        T(replaced_file_keeps_its_owner_when_asked),
        T(symbolic_links_lead_to_the_file_replaced),
        T(a_link_loop_is_refused),
        T(a_fifo_is_written_in_place),
        T(stdout_errors_are_reported),
        cmocka_unit_test(depfile_simple_rule),
        cmocka_unit_test(depfile_escapes_space_hash_dollar),
        cmocka_unit_test(depfile_folds_like_gcc),
        cmocka_unit_test(depfile_fold_boundary_is_column_72),
        cmocka_unit_test(depfile_fold_counts_escaped_length),
        cmocka_unit_test(depfile_multiple_targets),
        cmocka_unit_test(depfile_phony_targets),
        cmocka_unit_test(diag_error_with_line_column_and_source),
        cmocka_unit_test(diag_warning),
        cmocka_unit_test(diag_without_line),
        cmocka_unit_test(diag_without_column),
        cmocka_unit_test(diag_without_source),
        cmocka_unit_test(diag_caret_mirrors_tabs),
        cmocka_unit_test(diag_caret_positions),
        cmocka_unit_test(diag_source_length_is_respected),
        cmocka_unit_test(diag_wide_line_numbers_stay_aligned),
    };

    return cmocka_run_group_tests_name("outfile", tests, NULL, NULL);
}
