/*
 * pmfile.c - __pmFILE, the stdio-like handle PCP's internal interface
 * gives programs for an archive's files (<pcp/libpcp.h>): __pmFopen and
 * the calls on the handle, and __pmStat.
 *
 * Two handlers, as PCP 6.0.3 has them.  A plain file, and a compressed
 * one other than .xz (.lzma, .bz2, .bz, .gz, .Z, .z), go through stdio:
 * the compressed one is first decompressed whole by file.c's readers into
 * an unlinked temporary file, which is then read read-only.  An .xz file
 * is read as it is decompressed (file.c's reader on demand): it cannot be
 * written, its fstat gives the decompressed size and it leaves the
 * handle's position at 0, as PCP's does.  A name without a compression
 * suffix that is not there is looked for with each suffix in turn when
 * opened for reading; __pmStat does the same and gives a compressed
 * file's st_size as PM_ST_SIZE_INVALID.
 *
 * A damaged compressed file fails to open with errno PCP's (the magnitude
 * of PM_ERR_LOGREC): the stdio kinds when decompressing finds the damage,
 * .xz when its stream header or footer is not whole (damage inside is a
 * short read with the error flag).
 *
 * Not here: writing compressed files (PCP does not either), and the
 * messages of PCP's external decompressors (gzip, bzip2) on damage.
 */
#include "arch_int.h"

#include <errno.h>
#include <fcntl.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <pcp/libpcp.h>

/* The suffixes a missing name is tried with, in this order. */
static const char *const try_suffix[] = {".xz", ".lzma", ".bz2", ".bz", ".gz", ".Z", ".z"};
#define NSUFFIX (sizeof(try_suffix) / sizeof(try_suffix[0]))

/* ------------------------------------------------------------------ stdio */

static FILE *sio(__pmFILE *f)
{
    return (FILE *)f->priv;
}

static void sio_at(__pmFILE *f)
{
    off_t at = ftello(sio(f));

    if (at >= 0)
        f->position = at;
}

static void *sio_open(__pmFILE *f, const char *path, const char *mode)
{
    return f->priv = fopen(path, mode);
}

static void *sio_fdopen(__pmFILE *f, int fd, const char *mode)
{
    return f->priv = fdopen(fd, mode);
}

static int sio_seek(__pmFILE *f, off_t off, int whence)
{
    int sts = fseeko(sio(f), off, whence);

    sio_at(f);
    return sts;
}

static void sio_rewind(__pmFILE *f)
{
    rewind(sio(f));
    f->position = 0;
}

static off_t sio_tell(__pmFILE *f)
{
    return ftello(sio(f));
}

static int sio_fgetc(__pmFILE *f)
{
    int c = fgetc(sio(f));

    /* a byte read moves the place by one: no ftello for each (pmlogcheck
     * reads .index and .meta byte by byte) */
    if (c != EOF)
        f->position++;
    else
        sio_at(f);
    return c;
}

static size_t sio_read(void *buf, size_t size, size_t n, __pmFILE *f)
{
    size_t got = fread(buf, size, n, sio(f));

    sio_at(f);
    return got;
}

static size_t sio_write(void *buf, size_t size, size_t n, __pmFILE *f)
{
    size_t put = fwrite(buf, size, n, sio(f));

    sio_at(f);
    return put;
}

static int sio_flush(__pmFILE *f)
{
    return fflush(sio(f));
}

static int sio_fsync(__pmFILE *f)
{
    return fsync(fileno(sio(f)));
}

static int sio_fileno(__pmFILE *f)
{
    return fileno(sio(f));
}

static off_t sio_lseek(__pmFILE *f, off_t off, int whence)
{
    return lseek(fileno(sio(f)), off, whence);
}

static int sio_fstat(__pmFILE *f, struct stat *st)
{
    return fstat(fileno(sio(f)), st);
}

static int sio_feof(__pmFILE *f)
{
    return feof(sio(f));
}

static int sio_ferror(__pmFILE *f)
{
    return ferror(sio(f));
}

static void sio_clearerr(__pmFILE *f)
{
    clearerr(sio(f));
}

static int sio_setvbuf(__pmFILE *f, char *buf, int mode, size_t size)
{
    return setvbuf(sio(f), buf, mode, size);
}

static int sio_close(__pmFILE *f)
{
    return fclose(sio(f));
}

static __pm_fops stdio_fops = {
    sio_open,  sio_fdopen, sio_seek,     sio_rewind,  sio_tell,  sio_fgetc, sio_read,
    sio_write, sio_flush,  sio_fsync,    sio_fileno,  sio_lseek, stat,      sio_fstat,
    sio_feof,  sio_ferror, sio_clearerr, sio_setvbuf, sio_close,
};

/* ------------------------------------------------------------------ .xz */

typedef struct {
    arch_file af; /* the compressed file, decompressed as read */
    off_t at;     /* the reader's place in the decompressed bytes */
    int eof, err; /* the stream's flags */
} xz_file;

static xz_file *xzf(__pmFILE *f)
{
    return (xz_file *)f->priv;
}

/* Is fd an .xz stream with its header and footer whole?  PCP's opening
 * refuses one that is not (a truncated or foreign file). */
static int xz_whole(int fd)
{
    uint8_t head[LZMA_STREAM_HEADER_SIZE], foot[LZMA_STREAM_HEADER_SIZE];
    lzma_stream_flags hf, ff;
    struct stat st;

    if (fstat(fd, &st) < 0 || st.st_size < 2 * LZMA_STREAM_HEADER_SIZE)
        return 0;
    if (pread(fd, head, sizeof(head), 0) != (ssize_t)sizeof(head) ||
        pread(fd, foot, sizeof(foot), st.st_size - (off_t)sizeof(foot)) != (ssize_t)sizeof(foot))
        return 0;
    return (lzma_stream_header_decode(&hf, head) == LZMA_OK &&
            lzma_stream_footer_decode(&ff, foot) == LZMA_OK &&
            lzma_stream_flags_compare(&hf, &ff) == LZMA_OK);
}

static void *xz_open(__pmFILE *f, const char *path, const char *mode)
{
    xz_file *x;
    int sts;

    if (mode[0] != 'r' || strchr(mode, '+') != NULL)
        return NULL;
    if ((x = calloc(1, sizeof(*x))) == NULL)
        return NULL;
    if ((sts = afile_open(&x->af, path, AF_XZ)) < 0 || !xz_whole(x->af.fd)) {
        if (sts == 0)
            afile_close(&x->af);
        errno = sts < 0 ? -sts : -PM_ERR_LOGREC;
        free(x);
        return NULL;
    }
    return f->priv = x;
}

static void *xz_fdopen(__pmFILE *f, int fd, const char *mode)
{
    (void)f, (void)fd, (void)mode;
    errno = EOPNOTSUPP;
    return NULL;
}

static off_t xz_lseek(__pmFILE *f, off_t off, int whence)
{
    xz_file *x = xzf(f);
    uint64_t size;
    off_t base = 0;

    if (whence == SEEK_CUR)
        base = x->at;
    else if (whence == SEEK_END) {
        if (afile_size(&x->af, &size) < 0) {
            errno = EIO;
            return -1;
        }
        base = (off_t)size;
    } else if (whence != SEEK_SET) {
        errno = EINVAL;
        return -1;
    }
    if (off < -base) {
        errno = EINVAL;
        return -1;
    }
    x->at = base + off;
    x->eof = 0;
    return x->at;
}

static int xz_seek(__pmFILE *f, off_t off, int whence)
{
    return xz_lseek(f, off, whence) < 0 ? -1 : 0;
}

static void xz_rewind(__pmFILE *f)
{
    xzf(f)->at = 0;
    xzf(f)->eof = xzf(f)->err = 0;
}

static off_t xz_tell(__pmFILE *f)
{
    return xzf(f)->at;
}

/* As PCP's: the bytes read (not the items) when all were there, else 0
 * with the end flag set, the reader having moved past what there was. */
static size_t xz_read(void *buf, size_t size, size_t n, __pmFILE *f)
{
    xz_file *x = xzf(f);
    size_t want;
    ssize_t got;

    if (size == 0 || n == 0)
        return 0;
    if (n > SIZE_MAX / size) {
        x->err = 1;
        return 0;
    }
    want = size * n;
    got = afile_read(&x->af, (uint64_t)x->at, buf, want);
    if (got < 0) {
        x->err = 1;
        return 0;
    }
    x->at += got;
    if ((size_t)got < want) {
        x->eof = 1;
        return 0;
    }
    return want;
}

static int xz_fgetc(__pmFILE *f)
{
    unsigned char c;

    return xz_read(&c, 1, 1, f) == 1 ? c : EOF;
}

static size_t xz_write(void *buf, size_t size, size_t n, __pmFILE *f)
{
    (void)buf, (void)size, (void)n, (void)f;
    return 0;
}

static int xz_flush(__pmFILE *f)
{
    (void)f;
    return -1;
}

static int xz_fileno(__pmFILE *f)
{
    return xzf(f)->af.fd;
}

static int xz_fstat(__pmFILE *f, struct stat *st)
{
    uint64_t size;

    if (fstat(xzf(f)->af.fd, st) < 0)
        return -1;
    if (afile_size(&xzf(f)->af, &size) < 0) {
        errno = EIO;
        return -1;
    }
    st->st_size = (off_t)size;
    return 0;
}

static int xz_feof(__pmFILE *f)
{
    return xzf(f)->eof;
}

static int xz_ferror(__pmFILE *f)
{
    return xzf(f)->err;
}

/* as PCP's: the end flag stays */
static void xz_clearerr(__pmFILE *f)
{
    xzf(f)->err = 0;
}

static int xz_setvbuf(__pmFILE *f, char *buf, int mode, size_t size)
{
    (void)f, (void)buf, (void)mode, (void)size;
    return 0;
}

static int xz_close(__pmFILE *f)
{
    afile_close(&xzf(f)->af);
    free(f->priv);
    return 0;
}

static __pm_fops xz_fops = {
    xz_open,  xz_fdopen, xz_seek,     xz_rewind,  xz_tell,  xz_fgetc, xz_read,
    xz_write, xz_flush,  xz_flush,    xz_fileno,  xz_lseek, __pmStat, xz_fstat,
    xz_feof,  xz_ferror, xz_clearerr, xz_setvbuf, xz_close,
};

/* ------------------------------------------------------------------ API */

static int reading(const char *mode)
{
    return mode[0] == 'r' && strchr(mode, '+') == NULL;
}

/* A compressed file (other than .xz) decompressed and opened read-only
 * through stdio; NULL with errno set. */
static void *plain_of(__pmFILE *f, const char *path, int kind)
{
    arch_file af;
    int fd, sts;

    if ((sts = afile_open(&af, path, kind)) < 0) {
        errno = -sts;
        return NULL;
    }
    fd = afile_plain_fd(&af);
    afile_close(&af);
    if (fd < 0) { /* -errno, or PM_ERR_LOGREC for data that does not decode */
        errno = -fd;
        return NULL;
    }
    if (sio_fdopen(f, fd, "r") == NULL) {
        close(fd);
        return NULL;
    }
    return f->priv;
}

__pmFILE *__pmFopen(const char *path, const char *mode)
{
    char alt[4096];
    const char *name = path;
    __pmFILE *f;
    struct stat st;
    size_t len;
    int kind = afile_suffix(path, &len);
    void *ok;

    if (kind == AF_RAW && stat(path, &st) < 0 && reading(mode)) {
        for (size_t i = 0; i < NSUFFIX; i++) {
            if ((size_t)snprintf(alt, sizeof(alt), "%s%s", path, try_suffix[i]) >= sizeof(alt))
                break;
            if (access(alt, F_OK) == 0) {
                name = alt;
                kind = afile_suffix(alt, &len);
                break;
            }
        }
    }
    if ((f = calloc(1, sizeof(*f))) == NULL)
        return NULL;
    if (kind == AF_XZ) {
        f->fops = &xz_fops;
        ok = xz_open(f, name, mode);
    } else if (kind != AF_RAW) {
        f->fops = &stdio_fops;
        ok = reading(mode) ? plain_of(f, name, kind) : NULL;
    } else {
        f->fops = &stdio_fops;
        ok = sio_open(f, name, mode);
    }
    if (ok == NULL) {
        free(f);
        return NULL;
    }
    return f;
}

__pmFILE *__pmFdopen(int fd, const char *mode)
{
    __pmFILE *f = calloc(1, sizeof(*f));

    if (f == NULL)
        return NULL;
    f->fops = &stdio_fops;
    if (sio_fdopen(f, fd, mode) == NULL) {
        free(f);
        return NULL;
    }
    return f;
}

int __pmStat(const char *path, struct stat *st)
{
    char alt[4096];
    size_t len;

    if (stat(path, st) == 0) {
        if (afile_suffix(path, &len) != AF_RAW)
            st->st_size = PM_ST_SIZE_INVALID;
        return 0;
    }
    for (size_t i = 0; i < NSUFFIX; i++) {
        if ((size_t)snprintf(alt, sizeof(alt), "%s%s", path, try_suffix[i]) >= sizeof(alt))
            break;
        if (stat(alt, st) == 0) {
            st->st_size = PM_ST_SIZE_INVALID;
            return 0;
        }
    }
    return -1;
}

int __pmFseek(__pmFILE *f, long off, int whence)
{
    return f->fops->__pmseek(f, (off_t)off, whence);
}

void __pmRewind(__pmFILE *f)
{
    f->fops->__pmrewind(f);
}

long __pmFtell(__pmFILE *f)
{
    return (long)f->fops->__pmtell(f);
}

int __pmFgetc(__pmFILE *f)
{
    return f->fops->__pmfgetc(f);
}

size_t __pmFread(void *buf, size_t size, size_t n, __pmFILE *f)
{
    return f->fops->__pmread(buf, size, n, f);
}

size_t __pmFwrite(void *buf, size_t size, size_t n, __pmFILE *f)
{
    return f->fops->__pmwrite(buf, size, n, f);
}

int __pmFflush(__pmFILE *f)
{
    return f->fops->__pmflush(f);
}

int __pmFsync(__pmFILE *f)
{
    return f->fops->__pmfsync(f);
}

off_t __pmLseek(__pmFILE *f, off_t off, int whence)
{
    return f->fops->__pmlseek(f, off, whence);
}

int __pmFstat(__pmFILE *f, struct stat *st)
{
    return f->fops->__pmfstat(f, st);
}

int __pmFileno(__pmFILE *f)
{
    return f->fops->__pmfileno(f);
}

int __pmFeof(__pmFILE *f)
{
    return f->fops->__pmfeof(f);
}

int __pmFerror(__pmFILE *f)
{
    return f->fops->__pmferror(f);
}

void __pmClearerr(__pmFILE *f)
{
    f->fops->__pmclearerr(f);
}

int __pmSetvbuf(__pmFILE *f, char *buf, int mode, size_t size)
{
    return f->fops->__pmsetvbuf(f, buf, mode, size);
}

int __pmFclose(__pmFILE *f)
{
    int sts = f->fops->__pmclose(f);

    free(f);
    return sts;
}
