/*
 * help.c - help databases: pmdaOpenHelp, pmdaGetHelp, pmdaGetInDomHelp,
 * pmdaCloseHelp with PCP's answers, and the format code behind them and
 * behind newhelp and chkhelp (help_int.h).
 *
 * Opening decodes the .dir into memory and maps the .pag read-only (read
 * into memory when it cannot be mapped), accepts either byte order by the
 * magic, and checks every record before any is used (a .pag truncated in
 * place while it is open can still fault, as with PCP; pmkit's newhelp
 * replaces files by renaming, which cannot): the .dir must be exactly N + 1
 * records, the .pag must start with its header, and every offset must
 * start a string that is NUL-terminated inside the .pag.  Lookups go
 * through an open-addressing hash of the keys built at open time, so a
 * lookup costs O(1) where PCP scans the index linearly; with repeated keys
 * the answer is PCP's (the first record in file order for a PMID, the last
 * for an InDom, as PCP's forward and backward scans find them).
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
/* Validation and the key index. */

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

/* Index every record by key; the first in file order owns the slot, and
 * last[] remembers the last one when a key repeats. */
static int build_index(help_db *db)
{
    uint32_t size = 16;

    while (size < 2 * (uint64_t)db->n + 2)
        size *= 2;
    if ((db->slots = calloc(size, sizeof(*db->slots))) == NULL)
        return -ENOMEM;
    db->mask = size - 1;
    for (uint32_t i = 0; i < db->n; i++) {
        uint32_t key = db->rec[i].key, h = help_key_mix(key) & db->mask;
        while (db->slots[h] != 0 && db->rec[db->slots[h] - 1].key != key)
            h = (h + 1) & db->mask;
        if (db->slots[h] == 0) {
            db->slots[h] = i + 1;
            continue;
        }
        if (db->last == NULL) {
            if ((db->last = malloc(db->n * sizeof(*db->last))) == NULL)
                return -ENOMEM;
            for (uint32_t j = 0; j < db->n; j++)
                db->last[j] = j;
        }
        db->last[db->slots[h] - 1] = i;
    }
    return 0;
}

/* Decode records 1..N in place (record i + 1 of the file becomes rec[i],
 * at the same bytes) and check their offsets against the .pag. */
static int check_records(help_db *db, unsigned char *dir, char *why, size_t whylen)
{
    const char *nul = NULL;
    size_t last_nul;

    if (db->paglen < HELP_PAG_HDRLEN || memcmp(db->pag, HELP_PAG_HEADER, HELP_PAG_HDRLEN) != 0)
        return fail(why, whylen, ".pag does not start with the version 2 header");
    for (size_t i = db->paglen; i-- > HELP_PAG_HDRLEN;) {
        if (db->pag[i] == '\0') {
            nul = db->pag + i;
            break;
        }
    }
    /* a string starting at or before the last NUL is terminated */
    last_nul = nul != NULL ? (size_t)(nul - db->pag) : 0;
    db->rec = (help_record *)(void *)(dir + 12);
    for (uint32_t i = 0; i < db->n; i++) {
        const unsigned char *p = dir + 12 * ((size_t)i + 1);
        uint32_t key = get32(p, db->big_endian), one = get32(p + 4, db->big_endian);
        uint32_t text = get32(p + 8, db->big_endian);
        help_record *r = &db->rec[i];
        r->key = key;
        r->off_oneline = one;
        r->off_text = text;
        if (r->off_oneline < HELP_PAG_HDRLEN || r->off_oneline > last_nul || nul == NULL)
            return fail(why, whylen,
                        ".dir entry %u: one-line offset %u is outside the text "
                        "of the .pag (%zu bytes)",
                        i + 1, r->off_oneline, db->paglen);
        if (r->off_text < HELP_PAG_HDRLEN || r->off_text > last_nul)
            return fail(why, whylen,
                        ".dir entry %u: help text offset %u is outside the text "
                        "of the .pag (%zu bytes)",
                        i + 1, r->off_text, db->paglen);
    }
    return build_index(db);
}

/* help_db_from_buffers, for a .pag that is malloc'd or (mapped) mmap'd. */
static int from_buffers(help_db *db, unsigned char *dir, size_t dirlen, char *pag, size_t paglen,
                        int mapped, char *why, size_t whylen)
{
    int sts;

    memset(db, 0, sizeof(*db));
    db->dirbuf = dir;
    db->pag = pag;
    db->paglen = paglen;
    db->mapped = mapped;
    if ((sts = check_header(dir, dirlen, &db->n, &db->big_endian, why, whylen)) < 0)
        goto out;
    if ((uint64_t)dirlen != 12 * ((uint64_t)db->n + 1)) {
        sts = fail(why, whylen, ".dir is %zu bytes, but %u entries need %llu", dirlen, db->n,
                   12 * ((unsigned long long)db->n + 1));
        goto out;
    }
    if (paglen > UINT32_MAX) {
        sts = fail(why, whylen, ".pag is larger than 4 GiB");
        goto out;
    }
    sts = check_records(db, dir, why, whylen);
out:
    if (sts < 0)
        help_db_free(db);
    return sts;
}

int help_db_from_buffers(help_db *db, unsigned char *dir, size_t dirlen, char *pag, size_t paglen,
                         char *why, size_t whylen)
{
    return from_buffers(db, dir, dirlen, pag, paglen, 0, why, whylen);
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

/* BASE.pag: mapped if it can be, else read whole within the input limit
 * (and the format's 4 GiB); 1 mapped, 0 read, or -errno. */
static int load_pag(const char *path, char **buf, size_t *len, char *why, size_t whylen)
{
    size_t limit = pmkit_input_limit(), max = limit;
    int fd = open(path, O_RDONLY | O_CLOEXEC), sts;

    if (fd < 0)
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

#define HELP_STALE 1 /* load_once: the .dir was replaced while it was read */

/* One attempt: the .dir's header, the .pag, the rest of the .dir (all from
 * the file opened first), then the check that BASE.dir is still that file:
 * newhelp replaces the .dir last and removes the old one first, so a
 * reader that meets a new .pag after the old .dir sees the change. */
static int load_once(help_db *db, const char *base, char *why, size_t whylen)
{
    char dpath[MAXPATHLEN], ppath[MAXPATHLEN], *pag = NULL;
    unsigned char head[12], *dir = NULL;
    size_t dirlen = 0, paglen = 0;
    struct stat opened, now;
    uint32_t n = 0;
    int big, fd, sts, mapped = 0;
    ssize_t got = 0;

    snprintf(dpath, sizeof(dpath), "%s.dir", base);
    snprintf(ppath, sizeof(ppath), "%s.pag", base);
    if ((fd = open(dpath, O_RDONLY | O_CLOEXEC)) < 0)
        return -errno;
    if (fstat(fd, &opened) < 0)
        sts = -errno;
    else
        sts = (got = read_full(fd, head, sizeof(head))) < 0 ? (int)got : 0;
    /* as PCP: a bad .dir header is reported before a missing .pag */
    if (sts == 0 && (sts = check_header(head, (size_t)got, &n, &big, why, whylen)) == 0 &&
        (sts = mapped = load_pag(ppath, &pag, &paglen, why, whylen)) >= 0) {
        if (stat(dpath, &now) < 0 || now.st_dev != opened.st_dev || now.st_ino != opened.st_ino)
            sts = HELP_STALE;
        else
            sts = read_dir(fd, &opened, head, n, &dir, &dirlen, why, whylen);
    }
    close(fd);
    if (sts != 0) {
        if (mapped)
            munmap(pag, paglen);
        else
            free(pag);
        return sts;
    }
    return from_buffers(db, dir, dirlen, pag, paglen, mapped, why, whylen);
}

int help_db_load(help_db *db, const char *base, char *why, size_t whylen)
{
    char path[MAXPATHLEN];
    int sts = HELP_STALE;

    memset(db, 0, sizeof(*db));
    if (base == NULL)
        return -EINVAL;
    if (snprintf(path, sizeof(path), "%s.dir", base) >= (int)sizeof(path))
        return -ENAMETOOLONG;
    for (int tries = 0; tries < 3 && sts == HELP_STALE; tries++)
        sts = load_once(db, base, why, whylen);
    return sts == HELP_STALE ? -EAGAIN : sts;
}

void help_db_free(help_db *db)
{
    free(db->dirbuf);
    if (db->mapped)
        munmap(db->pag, db->paglen);
    else
        free(db->pag);
    free(db->slots);
    free(db->last);
    memset(db, 0, sizeof(*db));
}

const help_record *help_db_find(const help_db *db, uint32_t key, int last)
{
    uint32_t h = help_key_mix(key) & db->mask, s;

    while ((s = db->slots[h]) != 0) {
        if (db->rec[s - 1].key == key)
            return &db->rec[last && db->last != NULL ? db->last[s - 1] : s - 1];
        h = (h + 1) & db->mask;
    }
    return NULL;
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
    if ((sts = help_db_load(db, fname, NULL, 0)) < 0) {
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

static char *text_of(const help_db *db, const help_record *r, int type)
{
    if (r == NULL)
        return NULL;
    return db->pag + ((type & PM_TEXT_ONELINE) ? r->off_oneline : r->off_text);
}

char *pmdaGetHelp(int handle, pmID pmid, int type)
{
    const help_db *db = db_for(handle);

    return db == NULL ? NULL : text_of(db, help_db_find(db, pmid, 0), type);
}

char *pmdaGetInDomHelp(int handle, pmInDom indom, int type)
{
    const help_db *db = db_for(handle);

    return db == NULL ? NULL : text_of(db, help_db_find(db, indom | HELP_INDOM_FLAG, 1), type);
}
