/*
 * file.c - the bytes of an archive's files, raw or compressed, and the
 * windows and record frames read from them.
 *
 * A raw file is read with pread, never mapped: a file truncated while it
 * is open (a logger restarting, an operator's mistake) then gives a short
 * read, not SIGBUS.  A compressed file (.xz and .lzma through liblzma,
 * .bz2 and .bz through libbz2, .gz, .z and .Z as gzip -dc reads them,
 * which is how PCP 6 reads those three: zlib for gzip's format, lzw_step
 * for compress(1)'s, whichever the file's magic says) is decompressed on
 * demand, in order, into an unlinked temporary file in $TMPDIR (else
 * /tmp), from which reads are served: a reader going forward decompresses
 * only what it has reached, and one going backward or seeking finds the
 * bytes already there.  Decoders get a memory limit (ARCH_XZ_MEMLIMIT;
 * the LZW decoder's tables are fixed, 200 kB), so a hostile header cannot
 * make them allocate more.
 *
 * Windows keep the bytes around the reader's position, refilled by large
 * reads in the direction it is going; records are framed here (length,
 * payload, length) with every length checked against the bytes present
 * and ARCH_MAX_RECORD before a byte of the payload is used.
 */
#include "arch_int.h"

#include <bzlib.h>
#include <errno.h>
#include <fcntl.h>
#include <lzma.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define ARCH_XZ_MEMLIMIT (256u << 20) /* what a decoder may allocate */
#define AF_INBUF         (64u << 10)  /* compressed bytes read at a time */
#define AF_OUTBUF        (256u << 10) /* decompressed bytes written at a time */
#define WIN_CHUNK        (1u << 20)   /* a window's refill, at most */
#define WIN_FIRST        (16u << 10)  /* its first refill after a jump */

#define LZW_CODES 65536 /* 16 bits, the widest code gzip -dc reads */

/* compress(1)'s LZW, decoded as gzip -dc decodes it (AF_GZ with its magic). */
struct af_lzw {
    uint64_t bit;   /* the next code's first bit in the file */
    uint64_t group; /* where the current group of codes began */
    int bits, maxbits, block;
    long maxcode, maxmaxcode, free_ent, oldcode;
    int finchar;
    uint16_t prefix[LZW_CODES];
    uint8_t suffix[LZW_CODES];
    uint8_t stack[LZW_CODES + 1];
};

struct af_dec {
    lzma_stream xz;     /* AF_XZ, AF_LZMA */
    bz_stream bz;       /* AF_BZ2 */
    z_stream gz;        /* AF_GZ */
    struct af_lzw *lzw; /* AF_GZ holding compress(1)'s format */
    int live;           /* the decoder is initialised */
    uint64_t in_off;    /* compressed bytes consumed from the file */
    uint8_t in[AF_INBUF];
    uint8_t out[AF_OUTBUF];
};

static const struct {
    const char *suffix;
    int kind;
} suffixes[] = {
    {".xz", AF_XZ}, {".lzma", AF_LZMA}, {".bz2", AF_BZ2}, {".bz", AF_BZ2},
    {".gz", AF_GZ}, {".Z", AF_GZ},      {".z", AF_GZ},
};

int afile_suffix(const char *name, size_t *len)
{
    size_t n = strlen(name);

    for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
        size_t k = strlen(suffixes[i].suffix);
        if (n > k && strcmp(name + n - k, suffixes[i].suffix) == 0) {
            *len = k;
            return suffixes[i].kind;
        }
    }
    *len = 0;
    return AF_RAW;
}

int afile_open(arch_file *f, const char *path, int kind)
{
    memset(f, 0, sizeof(*f));
    f->tmp = -1;
    f->kind = kind;
    if ((f->fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
        return -errno;
    return 0;
}

static void dec_end(arch_file *f)
{
    struct af_dec *d = f->dec;

    if (d == NULL)
        return;
    if (d->live && d->lzw != NULL)
        free(d->lzw);
    else if (d->live) {
        if (f->kind == AF_BZ2)
            BZ2_bzDecompressEnd(&d->bz);
        else if (f->kind == AF_GZ)
            inflateEnd(&d->gz);
        else
            lzma_end(&d->xz);
    }
    free(d);
    f->dec = NULL;
}

void afile_open_mem(arch_file *f, const uint8_t *mem, size_t len)
{
    memset(f, 0, sizeof(*f));
    f->kind = AF_MEM;
    f->fd = 0; /* open: nothing to close */
    f->tmp = -1;
    f->mem = mem;
    f->memlen = len;
}

void afile_close(arch_file *f)
{
    if (f->kind == AF_MEM) {
        f->fd = -1;
        return;
    }
    if (f->fd >= 0)
        close(f->fd);
    if (f->tmp >= 0)
        close(f->tmp);
    dec_end(f);
    f->fd = f->tmp = -1;
}

/* pread until len bytes or the end: the count, or -errno. */
static ssize_t pread_all(int fd, uint64_t off, void *buf, size_t len)
{
    size_t got = 0;

    while (got < len) {
        ssize_t n = pread(fd, (char *)buf + got, len - got, (off_t)(off + got));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -errno;
        if (n == 0)
            break;
        got += (size_t)n;
    }
    return (ssize_t)got;
}

static int pwrite_all(int fd, uint64_t off, const void *buf, size_t len)
{
    size_t put = 0;

    while (put < len) {
        ssize_t n = pwrite(fd, (const char *)buf + put, len - put, (off_t)(off + put));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n < 0 ? -errno : -EIO;
        put += (size_t)n;
    }
    return 0;
}

/* An unlinked temporary file for decompressed bytes. */
static int tmp_create(void)
{
    const char *dir = getenv("TMPDIR");
    char path[4096];
    int fd;

    if (dir == NULL || dir[0] == '\0')
        dir = "/tmp";
    if ((size_t)snprintf(path, sizeof(path), "%s/pmkit-archive.XXXXXX", dir) >= sizeof(path))
        return -ENAMETOOLONG;
    if ((fd = mkstemp(path)) < 0)
        return -errno;
    unlink(path);
    (void)fcntl(fd, F_SETFD, FD_CLOEXEC);
    return fd;
}

/* compress(1)'s header: magic 1f 9d, then the widest code and the block
 * mode flag; 0, 1 when it is not that format, or an error. */
static int lzw_init(arch_file *f, struct af_dec *d)
{
    uint8_t h[3];
    ssize_t n = pread_all(f->fd, 0, h, sizeof(h));
    struct af_lzw *z;

    if (n < 0)
        return (int)n;
    if (n < 2 || h[0] != 0x1f || h[1] != 0x9d)
        return 1;
    if (n < 3 || (h[2] & 0x1f) > 16)
        return PM_ERR_LOGREC; /* gzip -dc: truncated, or too wide */
    if ((z = malloc(sizeof(*z))) == NULL)
        return -ENOMEM;
    z->bit = z->group = 24;
    z->maxbits = h[2] & 0x1f;
    z->block = (h[2] & 0x80) != 0;
    z->bits = 9;
    z->maxcode = (1L << z->bits) - 1;
    z->maxmaxcode = 1L << z->maxbits;
    z->free_ent = z->block ? 257 : 256;
    z->oldcode = -1;
    z->finchar = 0;
    memset(z->prefix, 0, sizeof(z->prefix));
    for (int c = 0; c < 256; c++)
        z->suffix[c] = (uint8_t)c;
    d->lzw = z;
    return 0;
}

/* The bits up to the end of the current group of eight codes (bits bytes)
 * are padding, after a change of width or a clear. */
static void lzw_skip_group(struct af_lzw *z)
{
    uint64_t g = (uint64_t)z->bits * 8, rel = z->bit - z->group;

    if (rel % g != 0)
        rel += g - rel % g;
    z->bit = z->group = z->group + rel;
}

/* Code c's string (c known) pushed on the stack backwards: its first
 * byte's index, or -1 when damaged codes chain longer than the stack. */
static long lzw_string(struct af_lzw *z, long c, long sp)
{
    while (c >= 256 && sp > 1) {
        z->stack[--sp] = z->suffix[c];
        c = z->prefix[c];
    }
    if (c >= 256)
        return -1;
    z->stack[--sp] = (uint8_t)(z->finchar = (int)c);
    return sp;
}

/*
 * Codes from d->in (the file's bytes from in_off, avail of them, the last
 * of the file when fewer than AF_INBUF) into d->out while it has room for
 * the longest string: 1 at the end of the data, 0 to go on, or
 * PM_ERR_LOGREC for a code gzip -dc calls corrupt.
 */
static int lzw_step(struct af_dec *d, size_t avail, size_t *used, size_t *made)
{
    struct af_lzw *z = d->lzw;
    int eof = avail < AF_INBUF, sts = 0;

    *made = 0;
    while (*made + LZW_CODES + 1 <= AF_OUTBUF) {
        if (z->free_ent > z->maxcode) {
            lzw_skip_group(z);
            z->bits++;
            z->maxcode = z->bits == z->maxbits ? z->maxmaxcode : (1L << z->bits) - 1;
        }
        uint64_t first = z->bit / 8 - d->in_off,
                 last = (z->bit + (uint64_t)z->bits - 1) / 8 - d->in_off;
        if (z->bit / 8 < d->in_off || last >= avail) {
            sts = eof ? 1 : 0;
            break;
        }
        uint32_t w = 0;
        for (uint64_t k = last + 1; k-- > first;)
            w = w << 8 | d->in[k];
        long code = (long)((w >> (z->bit % 8)) & ((1u << z->bits) - 1)), incode;
        z->bit += (uint64_t)z->bits;
        if (z->oldcode == -1) {
            if (code >= 256)
                return PM_ERR_LOGREC;
            d->out[(*made)++] = (uint8_t)(z->finchar = (int)(z->oldcode = code));
            continue;
        }
        if (code == 256 && z->block) {
            z->free_ent = 256;
            lzw_skip_group(z);
            z->bits = 9;
            z->maxcode = (1L << z->bits) - 1;
            continue;
        }
        long sp = LZW_CODES + 1;
        incode = code;
        if (code >= z->free_ent) { /* the string being defined */
            if (code > z->free_ent)
                return PM_ERR_LOGREC;
            z->stack[--sp] = (uint8_t)z->finchar;
            code = z->oldcode;
        }
        if ((sp = lzw_string(z, code, sp)) < 0)
            return PM_ERR_LOGREC;
        memcpy(d->out + *made, z->stack + sp, (size_t)(LZW_CODES + 1 - sp));
        *made += (size_t)(LZW_CODES + 1 - sp);
        if (z->free_ent < z->maxmaxcode) {
            z->prefix[z->free_ent] = (uint16_t)z->oldcode;
            z->suffix[z->free_ent] = (uint8_t)z->finchar;
            z->free_ent++;
        }
        z->oldcode = incode;
    }
    *used = z->bit / 8 > d->in_off ? (size_t)(z->bit / 8 - d->in_off) : 0;
    if (*used > avail)
        *used = avail;
    return sts;
}

static int dec_init(arch_file *f)
{
    struct af_dec *d = calloc(1, sizeof(*d));
    int ok;

    if (d == NULL)
        return -ENOMEM;
    f->dec = d;
    switch (f->kind) {
    case AF_XZ:
        d->xz = (lzma_stream)LZMA_STREAM_INIT;
        ok = lzma_stream_decoder(&d->xz, ARCH_XZ_MEMLIMIT, LZMA_CONCATENATED) == LZMA_OK;
        break;
    case AF_LZMA:
        d->xz = (lzma_stream)LZMA_STREAM_INIT;
        ok = lzma_alone_decoder(&d->xz, ARCH_XZ_MEMLIMIT) == LZMA_OK;
        break;
    case AF_BZ2:
        ok = BZ2_bzDecompressInit(&d->bz, 0, 0) == BZ_OK;
        break;
    default:
        if ((ok = lzw_init(f, d)) <= 0) { /* compress(1)'s format, or an error */
            if (ok < 0)
                return ok;
            d->live = 1;
            return 0;
        }
        ok = inflateInit2(&d->gz, 15 + 32) == Z_OK; /* gzip or zlib headers */
        break;
    }
    if (!ok)
        return -ENOMEM;
    d->live = 1;
    return 0;
}

/* One step of the decoder over avail_in bytes at in: how many it took
 * (*used) and made (*made); 1 at the end of the data, 0 to go on, or
 * PM_ERR_LOGREC. */
static int dec_step(arch_file *f, size_t avail, size_t *used, size_t *made)
{
    struct af_dec *d = f->dec;
    int rc;

    switch (f->kind) {
    case AF_XZ:
    case AF_LZMA:
        d->xz.next_in = d->in;
        d->xz.avail_in = avail;
        d->xz.next_out = d->out;
        d->xz.avail_out = AF_OUTBUF;
        rc = lzma_code(&d->xz, avail == 0 ? LZMA_FINISH : LZMA_RUN);
        *used = avail - d->xz.avail_in;
        *made = AF_OUTBUF - d->xz.avail_out;
        if (rc == LZMA_STREAM_END)
            return 1;
        return rc == LZMA_OK || (rc == LZMA_BUF_ERROR && *made > 0) ? 0 : PM_ERR_LOGREC;
    case AF_BZ2:
        d->bz.next_in = (char *)d->in;
        d->bz.avail_in = (unsigned)avail;
        d->bz.next_out = (char *)d->out;
        d->bz.avail_out = AF_OUTBUF;
        rc = BZ2_bzDecompress(&d->bz);
        *used = avail - d->bz.avail_in;
        *made = AF_OUTBUF - d->bz.avail_out;
        if (rc == BZ_STREAM_END) {
            /* another stream may follow, as bzip2 -dc reads them */
            BZ2_bzDecompressEnd(&d->bz);
            memset(&d->bz, 0, sizeof(d->bz));
            if (BZ2_bzDecompressInit(&d->bz, 0, 0) != BZ_OK) {
                d->live = 0;
                return PM_ERR_LOGREC;
            }
            return 2;
        }
        if (rc != BZ_OK)
            return PM_ERR_LOGREC;
        return avail == 0 && *made == 0 ? PM_ERR_LOGREC : 0;
    default:
        if (d->lzw != NULL)
            return lzw_step(d, avail, used, made);
        d->gz.next_in = d->in;
        d->gz.avail_in = (uInt)avail;
        d->gz.next_out = d->out;
        d->gz.avail_out = AF_OUTBUF;
        rc = inflate(&d->gz, Z_NO_FLUSH);
        *used = avail - d->gz.avail_in;
        *made = AF_OUTBUF - d->gz.avail_out;
        if (rc == Z_STREAM_END) {
            inflateReset(&d->gz); /* gzip members may follow */
            return 2;
        }
        if (rc != Z_OK && !(rc == Z_BUF_ERROR && *made > 0))
            return PM_ERR_LOGREC;
        return avail == 0 && *made == 0 ? PM_ERR_LOGREC : 0;
    }
}

/*
 * Decompress until at least upto bytes are in the temporary file, or the
 * end.  bz2 and gzip report the end of each stream (2); the data ends
 * there when no input follows.  0 or an error (sticky).
 */
static int decompress_to(arch_file *f, uint64_t upto)
{
    int sts = 0;

    if (f->err != 0)
        return f->err;
    if (f->tmp < 0 && (sts = f->tmp = tmp_create()) < 0)
        return f->err = sts;
    if (f->dec == NULL && (sts = dec_init(f)) < 0)
        return f->err = sts;
    while (!f->done && f->have < upto) {
        struct af_dec *d = f->dec;
        ssize_t avail = pread_all(f->fd, d->in_off, d->in, AF_INBUF);
        size_t used = 0, made = 0;
        int wsts;
        if (avail < 0)
            return f->err = (int)avail;
        sts = dec_step(f, (size_t)avail, &used, &made);
        if (sts < 0)
            return f->err = sts;
        d->in_off += used;
        if (made > 0 && (wsts = pwrite_all(f->tmp, f->have, d->out, made)) < 0)
            return f->err = wsts;
        f->have += made;
        if (sts == 1 || (sts == 2 && (size_t)avail == used))
            f->done = 1;
        else if (avail == 0 && made == 0 && used == 0)
            return f->err = PM_ERR_LOGREC; /* truncated compressed data */
    }
    if (f->done)
        dec_end(f);
    return 0;
}

ssize_t afile_read(arch_file *f, uint64_t off, void *buf, size_t len)
{
    int sts;

    if (f->kind == AF_RAW)
        return pread_all(f->fd, off, buf, len);
    if (f->kind == AF_MEM) {
        if (off >= f->memlen)
            return 0;
        if (len > f->memlen - off)
            len = (size_t)(f->memlen - off);
        memcpy(buf, f->mem + off, len);
        return (ssize_t)len;
    }
    if (off + len > f->have && !f->done && (sts = decompress_to(f, off + len)) < 0)
        return sts;
    if (off >= f->have)
        return 0;
    if (len > f->have - off)
        len = (size_t)(f->have - off);
    return pread_all(f->tmp, off, buf, len);
}

int afile_size(arch_file *f, uint64_t *size)
{
    struct stat st;
    int sts;

    if (f->kind == AF_RAW) {
        if (fstat(f->fd, &st) < 0)
            return -errno;
        *size = (uint64_t)st.st_size;
        return 0;
    }
    if (f->kind == AF_MEM) {
        *size = f->memlen;
        return 0;
    }
    if ((sts = decompress_to(f, UINT64_MAX)) < 0)
        return sts;
    *size = f->have;
    return 0;
}

/* The whole of a compressed file, decompressed, as a descriptor of its
 * own (the temporary file's, at offset 0) for the caller to keep: the
 * descriptor, or an error. */
int afile_plain_fd(arch_file *f)
{
    uint64_t size;
    int sts, fd;

    if (f->kind == AF_MEM)
        return -EINVAL;
    if (f->kind == AF_RAW)
        fd = f->fd;
    else if ((sts = afile_size(f, &size)) < 0)
        return sts;
    else
        fd = f->tmp;
    if ((fd = fcntl(fd, F_DUPFD_CLOEXEC, 0)) < 0)
        return -errno;
    if (lseek(fd, 0, SEEK_SET) < 0) {
        sts = -errno;
        close(fd);
        return sts;
    }
    return fd;
}

/* ------------------------------------------------------------------ */

void win_free(arch_win *w)
{
    free(w->buf);
    memset(w, 0, sizeof(*w));
}

/*
 * Refill w with [start, start + want) of f.  Going forward, the bytes the
 * old window holds from start on are moved to the front; going backward,
 * those it holds up to the new end are moved to the back; only the rest
 * is read, so a reader going through the file in either direction reads
 * each byte once.  0 or an error (w then empty).
 */
static int win_fill(arch_win *w, arch_file *f, uint64_t start, size_t want, int dir)
{
    uint64_t wend = w->off + w->len, end = start + want;
    uint64_t from = start, to = end; /* what to read */
    size_t at = 0;                   /* where it goes in buf */
    ssize_t got;

    if (w->len > 0 && dir > 0 && start >= w->off && start < wend) {
        memmove(w->buf, w->buf + (start - w->off), (size_t)(wend - start));
        from = wend;
        at = (size_t)(wend - start);
    } else if (w->len > 0 && dir < 0 && start < w->off && end > w->off && end <= wend) {
        memmove(w->buf + (w->off - start), w->buf, (size_t)(end - w->off));
        to = w->off;
    }
    w->len = 0;
    if ((got = afile_read(f, from, w->buf + at, (size_t)(to - from))) < 0)
        return (int)got;
    w->off = start;
    /* a short read ends the window there: what was kept after it is not
     * contiguous with it (backward), or it is all there is (forward) */
    if ((uint64_t)got < to - from)
        w->len = at + (size_t)got;
    else
        w->len = (size_t)(end - start);
    return 0;
}

/*
 * Refills grow: a reader that jumps somewhere (a seek, which says so with
 * win_jumped) may want one record there, so the first refill after a jump
 * is small, and each refill that goes on from the window is four times
 * larger, up to WIN_CHUNK, but for the rest of a record begun in the
 * first refill after a jump (same): one record is read then, not four
 * times the first refill.
 */
static const uint8_t *win_get_as(arch_win *w, arch_file *f, uint64_t off, size_t len, int dir,
                                 int same, int *err)
{
    uint64_t start = off, wend = w->off + w->len;
    size_t want;

    *err = 0;
    if (off >= w->off && off - w->off <= w->len && len <= w->len - (off - w->off))
        return w->buf + (off - w->off);
    if (w->len > 0 && w->chunk != 0 &&
        (dir > 0 ? off >= w->off && off <= wend : off + len >= w->off && off + len <= wend)) {
        if (!same || w->chunk != WIN_FIRST)
            w->chunk = w->chunk >= WIN_CHUNK / 4 ? WIN_CHUNK : w->chunk * 4;
    } else {
        w->chunk = WIN_FIRST;
    }
    want = len > w->chunk ? len : w->chunk;
    if (dir < 0 && len < want)
        start = off + len >= want ? off + len - want : 0;
    if (want > w->cap) {
        uint8_t *nb = realloc(w->buf, want);
        if (nb == NULL) {
            *err = -ENOMEM;
            w->len = 0;
            return NULL;
        }
        w->buf = nb;
        w->cap = want;
    }
    if ((*err = win_fill(w, f, start, want, dir)) < 0)
        return NULL;
    if (off - start > w->len || len > w->len - (off - start))
        return NULL;
    return w->buf + (off - start);
}

const uint8_t *win_get(arch_win *w, arch_file *f, uint64_t off, size_t len, int dir, int *err)
{
    return win_get_as(w, f, off, len, dir, 0, err);
}

int rec_frame_any(arch_win *w, arch_file *f, uint64_t off, int dir, uint32_t minlen,
                  uint64_t *start, uint32_t *len, const uint8_t **bytes)
{
    const uint8_t *p;
    uint32_t n;
    int err;

    if (dir > 0) {
        if ((p = win_get(w, f, off, 4, dir, &err)) == NULL)
            return err != 0 ? err : REC_END; /* nothing, or less than a length word */
        *start = off;
    } else {
        if (off < 4)
            return REC_END;
        if ((p = win_get(w, f, off - 4, 4, dir, &err)) == NULL)
            return err != 0 ? err : REC_SHORT;
    }
    n = arch_be32(p);
    if (n < minlen || n > ARCH_MAX_RECORD || (dir < 0 && n > off))
        return PM_ERR_LOGREC;
    if (dir < 0)
        *start = off - n;
    if ((p = win_get_as(w, f, *start, n, dir, 1, &err)) == NULL)
        return err != 0 ? err : REC_SHORT;
    if (arch_be32(p) != n || arch_be32(p + n - 4) != n)
        return PM_ERR_LOGREC;
    *len = n;
    *bytes = p;
    return REC_OK;
}
