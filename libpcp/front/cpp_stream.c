/*
 * cpp_stream.c - the preprocessor's inputs: files (including standard
 * input and FIFOs), #shell command output, and text in memory; reading them
 * a line at a time; and the #include search.
 *
 * A file or pipe is read in 64 KiB chunks into a buffer that only grows
 * when a single line is longer than it, so memory does not depend on the
 * size of the input.  A line longer than the input limit (input_limit.h,
 * 1 GiB unless $PMKIT_INPUT_LIMIT says otherwise) ends its stream with an
 * error: a file with no newline, /dev/zero say, is not read forever.  Memory input is
 * copied through the same buffer a chunk at a time, so its lines end the
 * same way.  A last line without a newline is returned like any other
 * (PCP drops it; docs/compat.md).
 *
 * #include search order, as PCP: the name as written; the directory of the
 * top-level input; each -I directory; the PMNS directory.  Directories are
 * skipped; regular files, character devices and FIFOs are accepted.
 */
#include "cpp_int.h"
#include "input_limit.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#define CHUNK (64 * 1024)

static cpp_stream *stream_new(cpp_src_kind kind, const char *name)
{
    cpp_stream *s = calloc(1, sizeof(*s));

    if (s == NULL)
        return NULL;
    s->kind = kind;
    s->fd = -1;
    if ((s->name = strdup(name)) == NULL) {
        free(s);
        return NULL;
    }
    return s;
}

cpp_stream *cpp_stream_file(const char *path, const char *name, int fd)
{
    cpp_stream *s = stream_new(SRC_FILE, name);

    if (s == NULL)
        return NULL;
    s->fd = fd;
    s->close_fd = path != NULL;
    return s;
}

cpp_stream *cpp_stream_memory(const char *name, const char *text, size_t len)
{
    cpp_stream *s = stream_new(SRC_MEMORY, name);

    if (s == NULL)
        return NULL;
    s->mem = text;
    s->memlen = len;
    return s;
}

cpp_stream *cpp_stream_shell(const char *cmd)
{
    cpp_stream *s = stream_new(SRC_SHELL, "<shell>");

    if (s == NULL)
        return NULL;
    fflush(NULL); /* the command shares our stderr (and any buffered stdio) */
    if ((s->pipe = popen(cmd, "r")) == NULL) {
        free(s->name);
        free(s);
        return NULL;
    }
    s->fd = fileno(s->pipe);
    return s;
}

/* The offset just after the last newline of p[0..n), or 0 if it has
 * none: backwards over the end (text has one there), then, for a long
 * line, forwards with memchr over the rest. */
static size_t last_newline(const char *p, size_t n)
{
    size_t i = n, stop = n > 256 ? n - 256 : 0, last = 0;
    const char *q = p, *nl;

    while (i > stop)
        if (p[--i] == '\n')
            return i + 1;
    while ((nl = memchr(q, '\n', (size_t)(p + stop - q))) != NULL) {
        last = (size_t)(nl - p) + 1;
        q = nl + 1;
    }
    return last;
}

/* Read more bytes after the partial line at pos; 1, 0 at end of input, or
 * -errno on error (CPP_ELONGLINE: the line is longer than the input
 * limit).  The buffer grows only when one line fills it. */
static int fill(cpp_stream *s)
{
    size_t nl;
    ssize_t n;

    if (s->pos > 0) {
        memmove(s->buf, s->buf + s->pos, s->end - s->pos);
        s->end -= s->pos;
        s->pos = 0;
    }
    if (s->cap - s->end < CHUNK / 2) {
        size_t limit = pmkit_input_limit(), cap = s->cap ? s->cap * 2 : CHUNK;
        char *b;
        if (s->end >= limit) /* all of it one line, with no end in sight */
            return CPP_ELONGLINE;
        if (cap > limit + CHUNK)
            cap = limit + CHUNK;
        b = realloc(s->buf, cap + CPP_SLACK); /* room for a sentinel and wide loads */
        if (b == NULL)
            return -ENOMEM;
        s->buf = b;
        s->cap = cap;
    }
    if (s->kind == SRC_MEMORY) {
        n = (ssize_t)(s->memlen - s->mempos < s->cap - s->end ? s->memlen - s->mempos
                                                              : s->cap - s->end);
        memcpy(s->buf + s->end, s->mem + s->mempos, (size_t)n);
        s->mempos += (size_t)n;
    } else {
        do
            n = read(s->fd, s->buf + s->end, s->cap - s->end);
        while (n < 0 && errno == EINTR);
    }
    if (n < 0)
        return -errno;
    memset(s->buf + s->end + n, 0, CPP_SLACK); /* defined bytes for 16-byte loads */
    if (n > 0 && (nl = last_newline(s->buf + s->end, (size_t)n)) > 0)
        s->complete = s->end + nl;
    s->end += (size_t)n;
    return n > 0;
}

char *cpp_stream_peek(cpp_stream *s, int *err)
{
    *err = 0;
    for (;;) {
        if (s->pos < s->complete)
            return s->buf + s->pos;
        if (s->eof) {
            if (s->pos == s->end)
                return NULL;
            s->buf[s->end++] = '\n'; /* a last line without newline: supply one */
            memset(s->buf + s->end, 0, CPP_SLACK - 1);
            s->complete = s->end;
            continue;
        }
        s->complete = 0;
        int sts = fill(s);
        if (sts < 0) {
            *err = sts;
            return NULL;
        }
        if (sts == 0)
            s->eof = true;
    }
}

char *cpp_stream_line_end(const cpp_stream *s, const char *line)
{
    return memchr(line, '\n', (size_t)(s->buf + s->complete - line));
}

void cpp_stream_advance(cpp_stream *s, const char *next)
{
    s->pos = (size_t)(next - s->buf);
}

/* Report how a #shell command ended (PCP's warnings, at the #shell line). */
static void shell_status(cpp_state *st, cpp_stream *s, int status)
{
    const char *file = s->parent != NULL ? s->parent->name : s->name;
    unsigned long line = s->parent != NULL ? s->parent->line : 0;
    char msg[96];

    if (status == -1)
        return;
    if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
        snprintf(msg, sizeof(msg), "%cshell cmd returns %d exit status", st->ctrl,
                 WEXITSTATUS(status));
    else if (WIFSIGNALED(status))
        snprintf(msg, sizeof(msg), "%cshell cmd terminated by signal %d", st->ctrl,
                 WTERMSIG(status));
    else
        return;
    cpp_report(st, DIAG_WARNING, file, line, 0, NULL, 0, msg);
}

void cpp_stream_close(cpp_state *st, cpp_stream *s)
{
    if (s->kind == SRC_SHELL && s->pipe != NULL)
        shell_status(st, s, pclose(s->pipe));
    else if (s->close_fd && s->fd >= 0)
        close(s->fd);
    free(s->buf);
    if (st->nnames == st->namecap) {
        size_t cap = st->namecap ? st->namecap * 2 : 16;
        char **names = realloc(st->names, cap * sizeof(*names));
        if (names != NULL)
            st->names = names, st->namecap = cap;
    }
    if (st->nnames < st->namecap) /* conditionals may still point at it */
        st->names[st->nnames++] = s->name;
    else
        free(s->name);
    free(s);
}

/* Open path if it is something we can read lines from. */
int cpp_open_input(const char *path, int *fd)
{
    struct stat sb;
    int f = open(path, O_RDONLY | O_CLOEXEC);

    if (f < 0)
        return -1;
    int e = fstat(f, &sb) < 0 ? errno : S_ISDIR(sb.st_mode) ? EISDIR : 0;
    if (e != 0) {
        close(f);
        errno = e;
        return -1;
    }
    *fd = f;
    return 0;
}

/* Try DIR/FILE (or FILE when dir is NULL); a stream on success. */
static cpp_stream *try_candidate(cpp_state *st, const char *dir, const char *file)
{
    char *path;
    cpp_stream *s = NULL;
    int fd;

    if (dir == NULL) {
        path = strdup(file);
    } else {
        size_t n = strlen(dir) + strlen(file) + 2;
        if ((path = malloc(n)) != NULL)
            snprintf(path, n, "%s/%s", dir, file);
    }
    if (path == NULL)
        return NULL;
    if (dir != NULL && st->opt->trace) /* PCP traces the search, not the name as written */
        fprintf(stderr, "<<include \"%s\"?\n", path);
    if (cpp_open_input(path, &fd) == 0) {
        if ((s = cpp_stream_file(path, path, fd)) == NULL)
            close(fd);
        else if (st->opt->dependency != NULL)
            st->opt->dependency(st->opt->dependency_ctx, path);
    }
    free(path);
    return s;
}

cpp_stream *cpp_include_open(cpp_state *st, const char *file)
{
    cpp_stream *s;

    if ((s = try_candidate(st, NULL, file)) != NULL || file[0] == '/')
        return s;
    if (st->topdir != NULL && (s = try_candidate(st, st->topdir, file)) != NULL)
        return s;
    for (size_t i = 0; i < st->opt->n_include_dirs; i++) {
        if ((s = try_candidate(st, st->opt->include_dirs[i], file)) != NULL)
            return s;
    }
    if (st->pmns_dir != NULL)
        s = try_candidate(st, st->pmns_dir, file);
    return s;
}
