/*
 * help.c - help databases: pmdaOpenHelp, pmdaGetHelp, pmdaGetInDomHelp,
 * pmdaCloseHelp with PCP's answers, and the format code behind them and
 * behind newhelp and chkhelp (help_int.h).
 *
 * Opening maps both files read-only (reads them into memory when they are
 * not regular files), accepts either byte order by the magic and checks
 * what takes constant time: the .dir's header, that it is exactly N + 1
 * records, the .pag's header.  It reads no record, so it costs what PCP's
 * open costs at any size.  Lookups first scan the records in place as PCP
 * does (forward for a PMID, backward for an InDom, so repeated keys give
 * PCP's answers); once the scans have read about as many records as
 * indexing them costs, a lookup builds an open-addressing hash of the keys
 * and later lookups cost O(1).  A record is answered only if its offset
 * starts a string NUL-terminated inside the .pag; help_db_check (chkhelp,
 * help_db_load) checks every record at once.  A file truncated in place
 * while it is mapped can still fault, as with PCP; pmkit's newhelp
 * replaces files by renaming, which cannot.  docs/help-format.md, section
 * 5, has the design and its costs.
 *
 * Handles are the lowest free slot of a table that only grows; a slot is
 * published atomically so lookups take no lock (PCP's table returns the
 * wrong handle after a close and a reopen; see docs/compat.md).
 *
 * Not here: pmdaText (which calls these), and no checksum: the format has
 * none, so a flipped byte inside a text is not detectable.
 */
#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include "help_int.h"
#include "input_limit.h"
#include "pmda_int.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

/* ---------------------------------------------------------------- */
/* Byte order. */

static uint32_t get32(const unsigned char *p, int big_endian)
{
    if (big_endian)
        return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
    return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static void put32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}

/* ---------------------------------------------------------------- */
/* Checks. */

static int fail(char *why, size_t whylen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(char *why, size_t whylen, const char *fmt, ...)
{
    va_list ap;

    if (why != NULL && whylen > 0) {
        va_start(ap, fmt);
        vsnprintf(why, whylen, fmt, ap);
        va_end(ap);
    }
    return -EINVAL;
}

/* Record 0: the magic (which also gives the byte order) and the version.
 * 0 and *n, *big_endian; or -EINVAL. */
static int check_header(const unsigned char *dir, size_t dirlen, uint32_t *n, int *big_endian,
                        char *why, size_t whylen)
{
    if (dirlen < 12)
        return fail(why, whylen, ".dir is %zu bytes, too short for its header", dirlen);
    if (get32(dir, 0) == HELP_MAGIC)
        *big_endian = 0;
    else if (get32(dir, 1) == HELP_MAGIC)
        *big_endian = 1;
    else
        return fail(why, whylen, ".dir has no PCP help magic");
    if ((get32(dir + 4, *big_endian) & 0xffff0000u) != HELP_DIR_VERSION)
        return fail(why, whylen, ".dir is not version 2");
    *n = get32(dir + 8, *big_endian);
    return 0;
}

static void release(const void *buf, size_t len, int mapped)
{
    if (mapped)
        munmap((void *)buf, len);
    else
        free((void *)buf);
}

/* What opening checks, without reading a record or a text: the .dir's
 * header (head, headlen bytes of it), its size against the header's N and
 * the .pag's size; 0 with *n and *big_endian, or -EINVAL. */
static int check_sizes(const unsigned char *head, size_t headlen, size_t dirlen, size_t paglen,
                       uint32_t *n, int *big_endian, char *why, size_t whylen)
{
    int sts = check_header(head, headlen, n, big_endian, why, whylen);

    if (sts == 0 && (uint64_t)dirlen != 12 * ((uint64_t)*n + 1))
        sts = fail(why, whylen, ".dir is %zu bytes, but %u entries need %llu", dirlen, *n,
                   12 * ((unsigned long long)*n + 1));
    else if (sts == 0 && paglen > UINT32_MAX)
        sts = fail(why, whylen, ".pag is larger than 4 GiB");
    else if (sts == 0 && paglen < HELP_PAG_HDRLEN)
        sts = fail(why, whylen, ".pag does not start with the version 2 header");
    return sts;
}

/* check_sizes on an opened database; on failure it is freed. */
static int check_opened(help_db *db, char *why, size_t whylen)
{
    int sts = check_sizes(db->dir, db->dirlen, db->dirlen, db->paglen, &db->n, &db->big_endian, why,
                          whylen);

    if (sts < 0)
        help_db_free(db);
    return sts;
}

/* The end of the .pag's texts: a string starting at off (at or after the
 * header) has its NUL inside the .pag iff off < text_end.  Found on first
 * use by looking back from the end for the last NUL (at once in any
 * database newhelp wrote), then kept; threads that race store one value. */
static uint64_t text_end(help_db *db)
{
    uint64_t e = atomic_load_explicit(&db->text_end, memory_order_relaxed);
    size_t i = db->paglen;

    if (e != 0)
        return e - 1;
    while (i > HELP_PAG_HDRLEN && db->pag[i - 1] != '\0')
        i--;
    e = i > HELP_PAG_HDRLEN ? i : 0;
    atomic_store_explicit(&db->text_end, e + 1, memory_order_relaxed);
    return e;
}

/* Until the index is built (few lookups so far), a text need not know
 * where the .pag's texts end: its own NUL, looked for within this many
 * bytes, proves it good; text_end would read the .pag's last page, a page
 * fault that a lookup soon after an open would otherwise not take (the
 * text's own page it takes anyway).  Once lookups are many, text_end is
 * found and each check is O(1). */
#define HELP_TEXT_PROBE 65536

/* help_db_text before text_end is known. */
static __attribute__((noinline)) const char *text_first(help_db *db, uint32_t off)
{
    size_t rest;

    if (atomic_load_explicit(&db->index, memory_order_relaxed) == NULL && off >= HELP_PAG_HDRLEN &&
        off < db->paglen) {
        rest = db->paglen - off;
        if (memchr(db->pag + off, '\0', rest < HELP_TEXT_PROBE ? rest : HELP_TEXT_PROBE) != NULL)
            return db->pag + off;
        if (rest <= HELP_TEXT_PROBE)
            return NULL; /* no NUL after off: off >= text_end */
    }
    return off >= HELP_PAG_HDRLEN && off < text_end(db) ? db->pag + off : NULL;
}

const char *help_db_text(help_db *db, uint32_t off)
{
    uint64_t e = atomic_load_explicit(&db->text_end, memory_order_relaxed);

    if (e == 0)
        return text_first(db, off);
    return off >= HELP_PAG_HDRLEN && off < e - 1 ? db->pag + off : NULL;
}

help_record help_db_record(const help_db *db, uint32_t i)
{
    const unsigned char *p = db->dir + 12 * ((size_t)i + 1);
    help_record r = {get32(p, db->big_endian), get32(p + 4, db->big_endian),
                     get32(p + 8, db->big_endian)};

    return r;
}

int help_db_check(help_db *db, char *why, size_t whylen)
{
    if (memcmp(db->pag, HELP_PAG_HEADER, HELP_PAG_HDRLEN) != 0)
        return fail(why, whylen, ".pag does not start with the version 2 header");
    (void)text_end(db); /* found once: each record's check is then O(1) */
    for (uint32_t i = 0; i < db->n; i++) {
        help_record r = help_db_record(db, i);
        if (help_db_text(db, r.off_oneline) == NULL)
            return fail(why, whylen,
                        ".dir entry %u: one-line offset %u is outside the text "
                        "of the .pag (%zu bytes)",
                        i + 1, r.off_oneline, db->paglen);
        if (help_db_text(db, r.off_text) == NULL)
            return fail(why, whylen,
                        ".dir entry %u: help text offset %u is outside the text "
                        "of the .pag (%zu bytes)",
                        i + 1, r.off_text, db->paglen);
    }
    return 0;
}

/* Fill db from the two files' contents; nothing is checked yet. */
static void db_init(help_db *db, const unsigned char *dir, size_t dirlen, int dir_mapped,
                    const char *pag, size_t paglen, int pag_mapped)
{
    memset(db, 0, sizeof(*db));
    db->dir = dir;
    db->dirlen = dirlen;
    db->dir_mapped = dir_mapped;
    db->pag = pag;
    db->paglen = paglen;
    db->pag_mapped = pag_mapped;
    atomic_init(&db->index, NULL);
    atomic_init(&db->scanned, 0);
    atomic_init(&db->text_end, 0);
}

int help_db_open_buffers(help_db *db, unsigned char *dir, size_t dirlen, char *pag, size_t paglen,
                         char *why, size_t whylen)
{
    db_init(db, dir, dirlen, 0, pag, paglen, 0);
    return check_opened(db, why, whylen);
}

int help_db_from_buffers(help_db *db, unsigned char *dir, size_t dirlen, char *pag, size_t paglen,
                         char *why, size_t whylen)
{
    int sts = help_db_open_buffers(db, dir, dirlen, pag, paglen, why, whylen);

    if (sts == 0 && (sts = help_db_check(db, why, whylen)) < 0)
        help_db_free(db);
    return sts;
}

int help_map_fd(int fd, size_t max, char **buf, size_t *len)
{
    struct stat sb;
    void *m;

    if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode) || sb.st_size <= 0 ||
        (uint64_t)sb.st_size > max || (uint64_t)sb.st_size >= SIZE_MAX / 2)
        return 0;
    m = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (m == MAP_FAILED)
        return 0;
    *buf = m;
    *len = (size_t)sb.st_size;
    return 1;
}

int help_read_fd(int fd, size_t max, char **buf, size_t *len)
{
    size_t cap = 65536, n = 0;
    char *b = NULL;
    struct stat sb;
    ssize_t got = 0;

    if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size >= 0) {
        if ((uint64_t)sb.st_size > max)
            return -EFBIG;            /* known too large: not one byte read */
        cap = (size_t)sb.st_size + 1; /* one read, and one more to see the end */
    }
    if (cap > max + 1)
        cap = max + 1;
    for (;;) {
        if (b == NULL || n == cap) {
            size_t ncap = b == NULL ? cap : cap > max / 2 ? max + 1 : cap * 2;
            char *nb = n > max ? NULL : realloc(b, ncap);
            if (nb == NULL) {
                free(b);
                return n > max ? -EFBIG : -ENOMEM;
            }
            b = nb;
            cap = ncap;
        }
        if ((got = read(fd, b + n, cap - n)) < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        n += (size_t)got;
    }
    if (got < 0 || n > max) {
        int err = got < 0 ? -errno : -EFBIG;
        free(b);
        return err;
    }
    *buf = b;
    *len = n;
    return 0;
}

/* Up to len bytes, fewer only at the end of the file; the count or -errno. */
static ssize_t read_full(int fd, void *buf, size_t len)
{
    size_t n = 0;

    while (n < len) {
        ssize_t got = read(fd, (char *)buf + n, len - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return -errno;
        if (got == 0)
            break;
        n += (size_t)got;
    }
    return (ssize_t)n;
}

/* BASE.pag, open on fd (closed here) or else opened from path: mapped if
 * it can be, else read whole within the input limit (and the format's
 * 4 GiB); 1 mapped, 0 read, or -errno. */
static int load_pag(const char *path, int fd, char **buf, size_t *len, char *why, size_t whylen)
{
    size_t limit = pmkit_input_limit(), max = limit;
    int sts;

    if (fd < 0 && (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
        return -errno;
    if (max > (size_t)UINT32_MAX + 1)
        max = (size_t)UINT32_MAX + 1;
    if ((sts = help_map_fd(fd, UINT32_MAX, buf, len)) == 0) /* mapped: the format's bound */
        sts = help_read_fd(fd, max, buf, len);
    close(fd); /* a mapping stays; no descriptor leaks into children */
    if (sts == -EFBIG && max == limit)
        fail(why, whylen, ".pag is larger than the input limit (%zu bytes, %s)", limit,
             PMKIT_INPUT_LIMIT_ENV);
    else if (sts == -EFBIG)
        sts = fail(why, whylen, ".pag is larger than 4 GiB");
    return sts;
}

/* The rest of BASE.dir after its header, from fd: the whole file as the
 * header's n entries need it (12 * (n + 1) bytes, within the input limit),
 * checked against the file's size before anything is read. */
static int read_dir(int fd, const struct stat *sb, const unsigned char *head, uint32_t n,
                    unsigned char **dir, size_t *dirlen, char *why, size_t whylen)
{
    uint64_t need = 12 * ((uint64_t)n + 1);
    size_t limit = pmkit_input_limit();
    unsigned char *d;
    ssize_t got;

    if (S_ISREG(sb->st_mode) && (uint64_t)sb->st_size != need)
        return fail(why, whylen, ".dir is %llu bytes, but %u entries need %llu",
                    (unsigned long long)sb->st_size, n, (unsigned long long)need);
    if (need > limit) {
        fail(why, whylen, ".dir is larger than the input limit (%zu bytes, %s)", limit,
             PMKIT_INPUT_LIMIT_ENV);
        return -EFBIG;
    }
    if ((d = malloc((size_t)need + 1)) == NULL)
        return -ENOMEM;
    memcpy(d, head, 12);
    if ((got = read_full(fd, d + 12, (size_t)need - 12 + 1)) < 0) { /* and one to see the end */
        free(d);
        return (int)got;
    }
    if ((uint64_t)got + 12 != need) {
        free(d);
        if ((uint64_t)got + 12 > need)
            return fail(why, whylen, ".dir is longer than the %llu bytes its %u entries need",
                        (unsigned long long)need, n);
        return fail(why, whylen, ".dir is %llu bytes, but %u entries need %llu",
                    (unsigned long long)got + 12, n, (unsigned long long)need);
    }
    *dir = d;
    *dirlen = (size_t)need;
    return 0;
}

#define HELP_STALE 1 /* the pair was replaced while it was opened */
#define HELP_SLOW  2 /* open_mapped: not two regular files; open_read */

/* The careful way, for files that are not both regular (a FIFO, a device)
 * or a .dir over the input limit: the .dir's header read and checked
 * first, then the .pag, then the rest of the .dir, all from the .dir
 * opened first, then the check that BASE.dir is still that file (newhelp
 * removes the old .dir before it renames the new .pag into place).  fd
 * and pfd are the two files if open_mapped opened them (closed here),
 * else -1. */
static int open_read(help_db *db, const char *dpath, int fd, const char *ppath, int pfd, char *why,
                     size_t whylen)
{
    char *pag = NULL;
    unsigned char head[12], *dir = NULL;
    size_t dirlen = 0, paglen = 0;
    struct stat opened, now;
    uint32_t n = 0;
    int big, sts, mapped = 0;
    ssize_t got = 0;

    if (fd < 0 && (fd = open(dpath, O_RDONLY | O_CLOEXEC)) < 0)
        return -errno;
    if (fstat(fd, &opened) < 0)
        sts = -errno;
    else
        sts = (got = read_full(fd, head, sizeof(head))) < 0 ? (int)got : 0;
    /* as PCP: a bad .dir header is reported before a missing .pag */
    if (sts == 0 && (sts = check_header(head, (size_t)got, &n, &big, why, whylen)) == 0 &&
        (sts = mapped = load_pag(ppath, pfd, &pag, &paglen, why, whylen)) >= 0) {
        if (stat(dpath, &now) < 0 || now.st_dev != opened.st_dev || now.st_ino != opened.st_ino)
            sts = HELP_STALE;
        else
            sts = read_dir(fd, &opened, head, n, &dir, &dirlen, why, whylen);
    } else if (pfd >= 0)
        close(pfd);
    close(fd);
    if (sts != 0) {
        release(pag, paglen, mapped);
        return sts;
    }
    db_init(db, dir, dirlen, 0, pag, paglen, mapped);
    return check_opened(db, why, whylen);
}

/* A .dir up to this size is read whole in one call; a larger one is
 * mapped. */
#define HELP_READ_DIR 65536

/* The regular .dir of len bytes open on fd, checked against its header:
 * read (small) or mapped, its header then read, not touched through the
 * mapping (a page fault and the page tables it fills cost more than the
 * call); 0 with *dir, HELP_SLOW if it cannot be read so, or -errno. */
static int dir_contents(int fd, size_t len, size_t paglen, unsigned char **dir, help_db *db,
                        char *why, size_t whylen)
{
    unsigned char head[12], *buf = NULL;
    void *m;
    int sts;

    if (len <= HELP_READ_DIR && (buf = malloc(len)) == NULL)
        return -ENOMEM;
    if (buf != NULL ? pread(fd, buf, len, 0) != (ssize_t)len
                    : pread(fd, head, sizeof(head), 0) != (ssize_t)sizeof(head))
        sts = HELP_SLOW;
    else if ((sts = check_sizes(buf != NULL ? buf : head, sizeof(head), len, paglen, &db->n,
                                &db->big_endian, why, whylen)) == 0 &&
             buf == NULL) {
        if ((m = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0)) == MAP_FAILED)
            return -errno;
        *dir = m;
        return 0;
    }
    if (sts == 0)
        *dir = buf;
    else
        free(buf);
    return sts;
}

/* The usual way, two regular files, in the 8 system calls PCP's open takes
 * (9 for a .dir over HELP_READ_DIR, which is mapped; a small one read
 * saves PCP's second unmapping at close): both opened, the .pag mapped,
 * then the .dir checked to be still in place, and read or mapped.  The .dir
 * still in place means that the .pag opened after it is its own: newhelp
 * removes the old .dir (its link count drops to 0, or the name leads to
 * another file) before it renames a new .pag into place.  Anything else
 * goes to open_read, with the files this has opened (a FIFO is opened
 * once). */
static int open_mapped(help_db *db, const char *dpath, const char *ppath, char *why, size_t whylen)
{
    struct stat ps, ds, now;
    unsigned char *dir = NULL;
    void *pm;
    int dfd, pfd, sts;

    if ((dfd = open(dpath, O_RDONLY | O_CLOEXEC)) < 0)
        return -errno;
    if ((pfd = open(ppath, O_RDONLY | O_CLOEXEC)) < 0 || fstat(pfd, &ps) < 0 ||
        !S_ISREG(ps.st_mode) || ps.st_size <= 0 || (uint64_t)ps.st_size > UINT32_MAX ||
        (pm = mmap(NULL, (size_t)ps.st_size, PROT_READ, MAP_PRIVATE, pfd, 0)) == MAP_FAILED)
        return open_read(db, dpath, dfd, ppath, pfd, why, whylen);
    close(pfd);
    if (fstat(dfd, &ds) < 0 || !S_ISREG(ds.st_mode) || (uint64_t)ds.st_size > pmkit_input_limit())
        sts = HELP_SLOW;
    else if (ds.st_nlink == 0 ||
             (ds.st_nlink > 1 &&
              (stat(dpath, &now) < 0 || now.st_dev != ds.st_dev || now.st_ino != ds.st_ino)))
        sts = HELP_STALE;
    else
        sts = dir_contents(dfd, (size_t)ds.st_size, (size_t)ps.st_size, &dir, db, why, whylen);
    if (sts != 0)
        munmap(pm, (size_t)ps.st_size);
    if (sts == HELP_SLOW) /* the .pag is regular: opening it again is harmless */
        return open_read(db, dpath, dfd, ppath, -1, why, whylen);
    close(dfd);
    if (sts != 0)
        return sts;
    db->dir = dir;
    db->dirlen = (size_t)ds.st_size;
    db->dir_mapped = ds.st_size > HELP_READ_DIR;
    db->pag = pm;
    db->paglen = (size_t)ps.st_size;
    db->pag_mapped = 1;
    return 0;
}

int help_db_open(help_db *db, const char *base, char *why, size_t whylen)
{
    char dpath[MAXPATHLEN], ppath[MAXPATHLEN];
    int sts = HELP_STALE;
    size_t len;

    db_init(db, NULL, 0, 0, NULL, 0, 0);
    if (base == NULL)
        return -EINVAL;
    if ((len = strlen(base)) + sizeof(".dir") > sizeof(dpath))
        return -ENAMETOOLONG;
    memcpy(dpath, base, len); /* not snprintf: it would double the cost of an open */
    memcpy(dpath + len, ".dir", sizeof(".dir"));
    memcpy(ppath, base, len);
    memcpy(ppath + len, ".pag", sizeof(".pag"));
    for (int tries = 0; tries < 3 && sts == HELP_STALE; tries++) {
        if ((sts = open_mapped(db, dpath, ppath, why, whylen)) == HELP_SLOW)
            sts = open_read(db, dpath, -1, ppath, -1, why, whylen);
    }
    return sts == HELP_STALE ? -EAGAIN : sts;
}

int help_db_load(help_db *db, const char *base, char *why, size_t whylen)
{
    int sts = help_db_open(db, base, why, whylen);

    if (sts == 0 && (sts = help_db_check(db, why, whylen)) < 0)
        help_db_free(db);
    return sts;
}

/* ---------------------------------------------------------------- */
/* Lookups: PCP's scans, then the index. */

/* The index: an open-addressing hash of the keys.  A slot holds a key and
 * 1 + its first record in file order (0: empty); last[] is NULL if no key
 * repeats, else last[i] is the last record with record i's key. */
typedef struct help_slot {
    uint32_t key;
    uint32_t rec;
} help_slot;

struct help_index {
    uint32_t mask;
    uint32_t *last;
    help_slot slot[];
};

static void index_free(help_index *x)
{
    if (x != NULL)
        free(x->last);
    free(x);
}

/* Note record i as another with the key of record first. */
static int index_repeat(help_index *x, uint32_t n, uint32_t first, uint32_t i)
{
    if (x->last == NULL) {
        if ((x->last = malloc(n * sizeof(*x->last))) == NULL)
            return -ENOMEM;
        for (uint32_t j = 0; j < n; j++)
            x->last[j] = j;
    }
    x->last[first] = i;
    return 0;
}

static help_index *index_build(const help_db *db)
{
    uint32_t size = 16;
    help_index *x;

    while (size < 2 * (uint64_t)db->n + 2)
        size *= 2;
    if ((x = calloc(1, sizeof(*x) + (size_t)size * sizeof(help_slot))) == NULL)
        return NULL;
    x->mask = size - 1;
    for (uint32_t i = 0; i < db->n; i++) {
        uint32_t key = get32(db->dir + 12 * ((size_t)i + 1), db->big_endian);
        uint32_t h = help_key_mix(key) & x->mask;
        while (x->slot[h].rec != 0 && x->slot[h].key != key)
            h = (h + 1) & x->mask;
        if (x->slot[h].rec == 0) {
            x->slot[h].key = key;
            x->slot[h].rec = i + 1;
        } else if (index_repeat(x, db->n, x->slot[h].rec - 1, i) < 0) {
            index_free(x);
            return NULL;
        }
    }
    return x;
}

/* The index, built by this call if no other has; NULL if out of memory. */
static __attribute__((noinline)) help_index *index_get(help_db *db)
{
    help_index *x = atomic_load_explicit(&db->index, memory_order_acquire), *none = NULL;

    if (x != NULL || (x = index_build(db)) == NULL)
        return x;
    if (!atomic_compare_exchange_strong_explicit(&db->index, &none, x, memory_order_acq_rel,
                                                 memory_order_acquire)) {
        index_free(x); /* another thread's came first */
        x = none;
    }
    return x;
}

int help_db_index(help_db *db)
{
    return index_get(db) == NULL ? -ENOMEM : 0;
}

static inline uint32_t raw32(const unsigned char *p)
{
    uint32_t w;

    memcpy(&w, p, 4);
    return w;
}

/* PCP's search without an index: forward for the first record with key,
 * or backward for the last; four records a step, their keys compared at
 * once as they are stored (the key turned into the file's byte order). */
static __attribute__((noinline)) uint32_t scan(const help_db *db, uint32_t key, int last)
{
    const unsigned char *r = db->dir + 12;
    unsigned char b[4];
    uint32_t want, i = 0, n = db->n;

    if (db->big_endian)
        key = __builtin_bswap32(key);
    put32(b, key);
    want = raw32(b);
    if (!last) {
        for (; i + 4 <= n; i += 4) {
            const unsigned char *p = r + 12 * (size_t)i;
            if ((raw32(p) == want) | (raw32(p + 12) == want) | (raw32(p + 24) == want) |
                (raw32(p + 36) == want))
                break;
        }
        for (; i < n; i++)
            if (raw32(r + 12 * (size_t)i) == want)
                return i;
        return HELP_NONE;
    }
    for (i = n; i >= 4; i -= 4) {
        const unsigned char *p = r + 12 * (size_t)(i - 4);
        if ((raw32(p) == want) | (raw32(p + 12) == want) | (raw32(p + 24) == want) |
            (raw32(p + 36) == want))
            break;
    }
    for (; i > 0; i--)
        if (raw32(r + 12 * (size_t)(i - 1)) == want)
            return i - 1;
    return HELP_NONE;
}

/* The record with key in the index x (help_db_find's O(1) part). */
static inline uint32_t probe(const help_index *x, uint32_t key, int last)
{
    for (uint32_t h = help_key_mix(key) & x->mask; x->slot[h].rec != 0; h = (h + 1) & x->mask) {
        if (x->slot[h].key == key) {
            uint32_t i = x->slot[h].rec - 1;
            return last && x->last != NULL ? x->last[i] : i;
        }
    }
    return HELP_NONE;
}

/* help_db_find while there is no index: a scan, or the index built once
 * the scans have spent their budget. */
static __attribute__((noinline)) uint32_t find_unindexed(help_db *db, uint32_t key, int last)
{
    help_index *x;

    if (atomic_fetch_add_explicit(&db->scanned, db->n, memory_order_relaxed) <
            HELP_SCAN_BUDGET(db->n) ||
        (x = index_get(db)) == NULL)
        return scan(db, key, last);
    return probe(x, key, last);
}

uint32_t help_db_find(help_db *db, uint32_t key, int last)
{
    help_index *x = atomic_load_explicit(&db->index, memory_order_acquire);

    return x == NULL ? find_unindexed(db, key, last) : probe(x, key, last);
}

void help_db_free(help_db *db)
{
    if (db->dir != NULL)
        release(db->dir, db->dirlen, db->dir_mapped);
    if (db->pag != NULL)
        release(db->pag, db->paglen, db->pag_mapped);
    index_free(atomic_load(&db->index));
    db_init(db, NULL, 0, 0, NULL, 0, 0);
}

/* ---------------------------------------------------------------- */
/* Writing. */

/* PCP's index order: PMIDs before InDoms, then the low 22 bits. */
static uint32_t sort_key(uint32_t key)
{
    return (key >> 31) << 22 | (key & 0x3fffffu);
}

/* Entry indices in index order: an LSD radix sort on the 23-bit sort key
 * (stable, so equal keys keep source order, as glibc's merge-sort qsort
 * leaves them for PCP). */
static uint32_t *index_order(const help_wentry *e, uint32_t n)
{
    uint32_t *a = malloc(((size_t)n + 1) * sizeof(*a)), *b = malloc(((size_t)n + 1) * sizeof(*b));

    if (a == NULL || b == NULL) {
        free(a);
        free(b);
        return NULL;
    }
    for (uint32_t i = 0; i < n; i++)
        a[i] = i;
    for (int shift = 0; shift < 23; shift += 8) {
        uint32_t count[257] = {0};
        for (uint32_t i = 0; i < n; i++)
            count[((sort_key(e[a[i]].key) >> shift) & 0xff) + 1]++;
        for (int d = 0; d < 256; d++)
            count[d + 1] += count[d];
        for (uint32_t i = 0; i < n; i++)
            b[count[(sort_key(e[a[i]].key) >> shift) & 0xff]++] = a[i];
        uint32_t *t = a;
        a = b;
        b = t;
    }
    free(b);
    return a;
}

/* The .dir image of n entries (offsets follow from the lengths) and the
 * .pag's length; 0, -E2BIG or -ENOMEM. */
static int build_dir(const help_wentry *e, size_t n, unsigned char **dir, size_t *dirlen,
                     size_t *paglen)
{
    uint64_t len = HELP_PAG_HDRLEN;
    uint32_t *order, *one;

    *dir = NULL;
    if (n >= UINT32_MAX / 12)
        return -E2BIG;
    for (size_t i = 0; i < n; i++)
        len += 6 + (uint64_t)e[i].word_len + e[i].oneline_len + e[i].text_len;
    if (len > UINT32_MAX)
        return -E2BIG;
    *paglen = (size_t)len;
    *dirlen = 12 * (n + 1);
    *dir = malloc(*dirlen);
    one = malloc((n + 1) * sizeof(*one));
    order = *dir != NULL && one != NULL ? index_order(e, (uint32_t)n) : NULL;
    if (order == NULL) {
        free(one);
        free(*dir);
        *dir = NULL;
        return -ENOMEM;
    }
    len = HELP_PAG_HDRLEN;
    for (size_t i = 0; i < n; i++) {
        one[i] = (uint32_t)(len + 4 + e[i].word_len); /* after "\n@ " KEY " " */
        len += 6 + (uint64_t)e[i].word_len + e[i].oneline_len + e[i].text_len;
    }
    put32(*dir, HELP_MAGIC);
    put32(*dir + 4, HELP_DIR_VERSION);
    put32(*dir + 8, (uint32_t)n);
    for (size_t i = 0; i < n; i++) {
        unsigned char *r = *dir + 12 * (i + 1);
        const help_wentry *w = &e[order[i]];
        put32(r, w->key);
        put32(r + 4, one[order[i]]);
        put32(r + 8, one[order[i]] + (uint32_t)w->oneline_len + 1);
    }
    free(order);
    free(one);
    return 0;
}

/* Entry e as it appears in the .pag, to out (a sink: a buffer or a file). */
typedef void (*sink_fn)(void *ctx, const void *data, size_t len);

static void pag_entries(const help_wentry *e, size_t n, sink_fn put, void *ctx)
{
    put(ctx, HELP_PAG_HEADER, HELP_PAG_HDRLEN);
    for (size_t i = 0; i < n; i++) {
        put(ctx, "\n@ ", 3);
        put(ctx, e[i].word, e[i].word_len);
        put(ctx, " ", 1);
        put(ctx, e[i].oneline, e[i].oneline_len);
        put(ctx, "", 1);
        put(ctx, e[i].text, e[i].text_len);
        put(ctx, "", 1);
    }
}

static void to_memory(void *ctx, const void *data, size_t len)
{
    char **p = ctx;

    if (len > 0)
        memcpy(*p, data, len);
    *p += len;
}

/* Pieces gathered into large writes (most pieces are a few bytes). */
typedef struct file_sink {
    FILE *fp;
    size_t n;
    char buf[1 << 16];
} file_sink;

static void to_file(void *ctx, const void *data, size_t len)
{
    file_sink *f = ctx;

    if (f->n + len > sizeof(f->buf)) {
        fwrite(f->buf, 1, f->n, f->fp);
        f->n = 0;
    }
    if (len >= sizeof(f->buf))
        fwrite(data, 1, len, f->fp);
    else if (len > 0) {
        memcpy(f->buf + f->n, data, len);
        f->n += len;
    }
}

int help_image_build(const help_wentry *e, size_t n, help_image *img)
{
    char *p;
    int sts;

    memset(img, 0, sizeof(*img));
    if ((sts = build_dir(e, n, &img->dir, &img->dirlen, &img->paglen)) < 0)
        return sts;
    if ((img->pag = malloc(img->paglen)) == NULL) {
        help_image_free(img);
        return -ENOMEM;
    }
    p = img->pag;
    pag_entries(e, n, to_memory, &p);
    return 0;
}

int help_write(const help_wentry *e, size_t n, FILE *dir, FILE *pag)
{
    unsigned char *d;
    size_t dirlen, paglen;
    file_sink *f;
    int sts;

    if ((sts = build_dir(e, n, &d, &dirlen, &paglen)) < 0)
        return sts;
    if ((f = malloc(sizeof(*f))) == NULL) {
        free(d);
        return -ENOMEM;
    }
    fwrite(d, 1, dirlen, dir);
    free(d);
    f->fp = pag;
    f->n = 0;
    pag_entries(e, n, to_file, f);
    fwrite(f->buf, 1, f->n, pag);
    free(f);
    return ferror(dir) || ferror(pag) ? -EIO : 0;
}

void help_image_free(help_image *img)
{
    free(img->dir);
    free(img->pag);
    memset(img, 0, sizeof(*img));
}

/* ---------------------------------------------------------------- */
/* Handles: slot h of a table in chunks of 16, 32, 64, ... slots that are
 * never moved, so a lookup needs no lock. */

#define NCHUNKS 24

static _Atomic(help_db *) *_Atomic chunks[NCHUNKS];
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

/* The slot of a handle (chunk c holds handles 16 * (2^c - 1) ..
 * 16 * (2^(c+1) - 1) - 1), making its chunk if create; NULL if there is
 * none.  Inline: every help lookup goes through it. */
static inline _Atomic(help_db *) *slot_for(int handle, int create)
{
    int c = 31 - __builtin_clz((unsigned)handle / 16 + 1);
    _Atomic(help_db *) *chunk;

    if (handle < 0 || c >= NCHUNKS)
        return NULL;
    chunk = atomic_load_explicit(&chunks[c], memory_order_acquire);
    if (chunk == NULL && create) {
        if ((chunk = calloc((size_t)16 << c, sizeof(*chunk))) == NULL)
            return NULL;
        atomic_store_explicit(&chunks[c], chunk, memory_order_release);
    }
    return chunk == NULL ? NULL : &chunk[(unsigned)handle - 16 * ((1u << c) - 1)];
}

static inline help_db *db_for(int handle)
{
    _Atomic(help_db *) *slot = slot_for(handle, 0);

    return slot ? atomic_load_explicit(slot, memory_order_acquire) : NULL;
}

int pmdaOpenHelp(const char *fname)
{
    help_db *db = malloc(sizeof(*db));
    int sts, h;

    if (db == NULL)
        return -ENOMEM;
    if ((sts = help_db_open(db, fname, NULL, 0)) < 0) {
        free(db);
        return sts;
    }
    pthread_mutex_lock(&table_lock);
    for (h = 0; h < 16 * ((1 << NCHUNKS) - 1); h++) {
        _Atomic(help_db *) *slot = slot_for(h, 1);
        if (slot == NULL) {
            h = -ENOMEM;
            break;
        }
        if (atomic_load_explicit(slot, memory_order_relaxed) == NULL) {
            atomic_store_explicit(slot, db, memory_order_release);
            break;
        }
    }
    pthread_mutex_unlock(&table_lock);
    if (h < 0) {
        help_db_free(db);
        free(db);
    }
    return h;
}

void pmdaCloseHelp(int handle)
{
    _Atomic(help_db *) *slot;
    help_db *db = NULL;

    pthread_mutex_lock(&table_lock);
    if ((slot = slot_for(handle, 0)) != NULL)
        db = atomic_exchange(slot, NULL);
    pthread_mutex_unlock(&table_lock);
    if (db != NULL) {
        help_db_free(db);
        free(db);
    }
}

/* The text of record i, if its offset is good: only the offset wanted is
 * read from the record. */
static inline char *text_at(help_db *db, uint32_t i, int type)
{
    const unsigned char *r = db->dir + 12 * ((size_t)i + 1) + ((type & PM_TEXT_ONELINE) ? 4 : 8);

    return (char *)help_db_text(db, get32(r, db->big_endian));
}

static __attribute__((noinline)) char *text_unindexed(help_db *db, uint32_t key, int last, int type)
{
    uint32_t i = find_unindexed(db, key, last);

    return i == HELP_NONE ? NULL : text_at(db, i, type);
}

/* The text of the record with key, if its offset is good.  With the index
 * built, a leaf: no stack frame, the rarer paths tail calls. */
static char *text_of(help_db *db, uint32_t key, int last, int type)
{
    help_index *x = atomic_load_explicit(&db->index, memory_order_acquire);
    uint32_t i;

    if (x == NULL)
        return text_unindexed(db, key, last, type);
    i = probe(x, key, last);
    return i == HELP_NONE ? NULL : text_at(db, i, type);
}

char *pmdaGetHelp(int handle, pmID pmid, int type)
{
    help_db *db = db_for(handle);

    return db == NULL ? NULL : text_of(db, pmid, 0, type);
}

char *pmdaGetInDomHelp(int handle, pmInDom indom, int type)
{
    help_db *db = db_for(handle);

    return db == NULL ? NULL : text_of(db, indom | HELP_INDOM_FLAG, 1, type);
}

/*
 * Debian's chkhelp -a walks the open help databases through this: PCP's
 * table of handles, 40 bytes each (two descriptors, the count of index
 * records, the index in host order with the .dir's header record first,
 * the .pag's bytes and their length).  pmkit keeps its databases
 * otherwise, so this makes that table from them afresh at each call: valid
 * until the next call or until a database it shows is closed.  A .dir in
 * the host's byte order is shown in place; one in the other order (which
 * PCP cannot open) is decoded into a copy freed at the next call.  Closed
 * handles are entries of zeros.  Not thread-safe, as PCP's
 * table is not; NULL if no database was ever opened, or memory ran out.
 */
typedef struct pcp_help_tab {
    int dir_fd;
    int pag_fd;
    int numidx;
    help_record *index;
    char *text;
    int textlen;
} pcp_help_tab;
_Static_assert(sizeof(pcp_help_tab) == 40 || sizeof(void *) != 8, "PCP's 40-byte entries");

/* db's records, header first, in host order: in place, or a malloc'd copy
 * (*copied set) when the file's order is the other one; NULL if out of
 * memory. */
static help_record *host_records(const help_db *db, int *copied)
{
    int host_big = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
    help_record *r;
    uint32_t i;

    *copied = 0;
    if (db->big_endian == host_big)
        return (help_record *)(uintptr_t)db->dir;
    if ((r = malloc(((size_t)db->n + 1) * sizeof(*r))) == NULL)
        return NULL;
    r[0].key = get32(db->dir, db->big_endian);
    r[0].off_oneline = get32(db->dir + 4, db->big_endian);
    r[0].off_text = get32(db->dir + 8, db->big_endian);
    for (i = 0; i < db->n; i++)
        r[i + 1] = help_db_record(db, i);
    *copied = 1;
    return r;
}

void *__pmdaHelpTab(void)
{
    static pcp_help_tab *tab;
    static help_record **copies;
    static int ntab;
    int h, copied, last = -1;

    pthread_mutex_lock(&table_lock);
    for (h = 0; h < ntab; h++) {
        free(copies[h]);
        copies[h] = NULL;
    }
    for (h = 0; slot_for(h, 0) != NULL; h++)
        if (db_for(h) != NULL)
            last = h;
    if (last + 1 > ntab) {
        pcp_help_tab *t = realloc(tab, (size_t)(last + 1) * sizeof(*t));
        help_record **c = t == NULL ? NULL : realloc(copies, (size_t)(last + 1) * sizeof(*c));

        if (t != NULL)
            tab = t;
        if (c == NULL) {
            pthread_mutex_unlock(&table_lock);
            return NULL;
        }
        copies = c;
        while (ntab < last + 1)
            copies[ntab++] = NULL;
    }
    if (ntab > 0)
        memset(tab, 0, (size_t)ntab * sizeof(*tab));
    for (h = 0; h <= last; h++) {
        const help_db *db = db_for(h);

        if (db == NULL)
            continue;
        tab[h].dir_fd = tab[h].pag_fd = -1;
        tab[h].numidx = (int)db->n;
        tab[h].index = host_records(db, &copied);
        if (copied)
            copies[h] = tab[h].index;
        tab[h].text = (char *)(uintptr_t)db->pag;
        tab[h].textlen = (int)db->paglen;
    }
    pthread_mutex_unlock(&table_lock);
    return tab;
}
