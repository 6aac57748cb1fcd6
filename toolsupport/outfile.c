/*
 * outfile.c - atomic output files and dependency files (see outfile.h).
 *
 * The temporary file is created with mkstemp in the destination directory
 * so the final rename(2) cannot cross file systems; a reader sees either
 * the old file or the complete new one, never a partial write.  It is
 * created mode 0666 & ~umask, like a file opened with fopen.
 *
 * Temporaries still open are listed where a signal handler can reach them
 * (fixed buffers, set before the flag that publishes them), so an
 * interrupted tool leaves neither a half-written output nor a stray
 * temporary.  Only signals whose action is the default are caught: a
 * program's own handler or an ignored SIGHUP (nohup) stays as it was.
 */
#include "outfile.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#define MAX_LIVE 8 /* temporaries open at once (newhelp holds 2) */

static char live_path[MAX_LIVE][PATH_MAX];
static volatile sig_atomic_t live_used[MAX_LIVE];

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
    static const int fatal[] = {SIGHUP, SIGINT, SIGTERM};
    static int done;
    struct sigaction old, sa;

    if (done)
        return;
    done = 1;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_fatal_signal;
    for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
        if (sigaction(fatal[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL)
            sigaction(fatal[i], &sa, NULL);
    sa.sa_handler = on_file_size;
    if (sigaction(SIGXFSZ, NULL, &old) == 0 && old.sa_handler == SIG_DFL)
        sigaction(SIGXFSZ, &sa, NULL);
}

/* List tmp for the signal handler; the slot + 1, or 0 if it cannot be. */
static int live_add(const char *tmp)
{
    catch_signals();
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

static void live_drop(outfile *of)
{
    if (of->live > 0)
        live_used[of->live - 1] = 0;
    of->live = 0;
}

int outfile_open(outfile *of, const char *path)
{
    size_t n = strlen(path) + 16;
    mode_t mask;
    int fd;

    memset(of, 0, sizeof(*of));
    of->path = strdup(path);
    of->tmp = malloc(n);
    if (of->path == NULL || of->tmp == NULL) {
        outfile_abort(of);
        return -ENOMEM;
    }
    snprintf(of->tmp, n, "%s.tmpXXXXXX", path);
    if ((fd = mkstemp(of->tmp)) < 0) {
        int err = -errno;
        free(of->tmp);
        of->tmp = NULL;
        outfile_abort(of);
        return err;
    }
    of->live = live_add(of->tmp); /* at once: a signal from here on removes it */
    mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    if ((of->fp = fdopen(fd, "w")) == NULL) {
        int err = -errno;
        close(fd);
        outfile_abort(of);
        return err;
    }
    return 0;
}

/* A stream's error flag can outlive the errno of the write that set it. */
static int stream_error(void)
{
    return errno != 0 ? -errno : -EIO;
}

int outfile_commit(outfile *of)
{
    int err = 0;

    if (fflush(of->fp) != 0 || ferror(of->fp) || fsync(fileno(of->fp)) != 0)
        err = stream_error();
    if (fclose(of->fp) != 0 && err == 0)
        err = stream_error();
    of->fp = NULL;
    if (err == 0 && rename(of->tmp, of->path) != 0)
        err = -errno;
    if (err != 0)
        unlink(of->tmp);
    live_drop(of);
    free(of->tmp);
    free(of->path);
    of->tmp = of->path = NULL;
    return err;
}

void outfile_abort(outfile *of)
{
    if (of->fp != NULL)
        fclose(of->fp);
    if (of->tmp != NULL)
        unlink(of->tmp);
    live_drop(of);
    free(of->tmp);
    free(of->path);
    memset(of, 0, sizeof(*of));
}

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
    int out = 1;

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
            argv[out++] = argv[i];
    }
    return out;
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

int depopts_emit(depopts *d, const char *default_target, const char *default_depfile)
{
    const char *path = d->file != NULL ? d->file : default_depfile;
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
