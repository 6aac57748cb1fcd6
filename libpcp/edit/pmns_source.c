/*
 * pmns_source.c - the inputs of a merge: their _DATESTAMP order, their
 * loading (text or binary image), pmnsadd's upper levels, and an edited
 * namespace written as an image (pmns_edit.h).
 *
 * _DATESTAMP: PCP reads each input with fgets into a 40-byte buffer, so a
 * line is seen in pieces of at most 39 bytes, and only a piece that
 * starts with "#define" can name a stamp.  Here the file is mapped (or
 * read) whole and every '#' that starts such a piece is looked at; a file
 * with no '#' costs one memchr.
 *
 * A text the preprocessor would pass through unchanged (no '#', '/' or
 * NUL) is parsed straight from the mapped file.
 *
 * Images go through their text: pmns_image_dump, then the text loader
 * (with or without duplicates, as asked), so an image behaves exactly as
 * the namespace it was compiled from; an edited namespace becomes an
 * image the way pmnscomp makes one, from its text.
 *
 * Not here: the tree operations (pmns_edit.c), and writing files (the
 * tools, toolsupport/outfile.c).
 */
#include "pmns_edit.h"
#include "pmns_image.h"
#include "diag.h"

#include <pcp/pmapi.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

/* A whole file in memory, mapped when it can be. */
typedef struct whole {
    char *data;
    size_t len;
    int mapped;
} whole;

static int whole_read(int fd, whole *w)
{
    struct stat st;
    size_t cap = 0;

    w->data = NULL;
    w->len = 0;
    w->mapped = 0;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
        (uint64_t)st.st_size < SIZE_MAX) {
        void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p != MAP_FAILED) {
            w->data = p;
            w->len = (size_t)st.st_size;
            w->mapped = 1;
            return 0;
        }
    }
    for (;;) {
        ssize_t n;
        if (w->len == cap) {
            char *d = realloc(w->data, cap = cap ? cap * 2 : 65536);
            if (d == NULL) {
                free(w->data);
                return -ENOMEM;
            }
            w->data = d;
        }
        if ((n = read(fd, w->data + w->len, cap - w->len)) == 0)
            return 0;
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) /* a directory: fgets would see nothing either */
            return 0;
        w->len += (size_t)n;
    }
}

static void whole_free(whole *w)
{
    if (w->mapped)
        munmap(w->data, w->len);
    else
        free(w->data);
}

static bool space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

/* The stamp a piece at p (up to end) names, or NULL. */
static char *stamp_piece(const char *p, const char *end, bool *found)
{
    const char *q;
    size_t n = 0;

    /* the piece: 39 bytes at most, ended after a newline, read as a C string */
    while (n < 39 && p + n < end && p[n] != '\0' && p[n] != '\n')
        n++;
    if (n < 39 && p + n < end && p[n] == '\n')
        n++;
    end = p + n;
    if (n < 7 || memcmp(p, "#define", 7) != 0)
        return NULL;
    for (p += 7; p < end && space(*p); p++)
        ;
    if (end - p < 10 || memcmp(p, "_DATESTAMP", 10) != 0)
        return NULL;
    for (p += 10; p < end && space(*p); p++)
        ;
    for (q = p; q < end && !space(*q); q++)
        ;
    *found = true;
    return strndup(p, (size_t)(q - p));
}

/* The first stamp in b[0..n): 0 with *stamp (NULL if none), or -ENOMEM. */
static int stamp_in(const char *b, size_t n, char **stamp)
{
    const char *p = b, *end = b + n, *hash, *line = b;
    bool found = false;

    *stamp = NULL;
    while ((hash = memchr(p, '#', (size_t)(end - p))) != NULL) {
        for (const char *s = hash; s > p; s--)
            if (s[-1] == '\n') {
                line = s;
                break;
            }
        if ((size_t)(hash - line) % 39 == 0) {
            *stamp = stamp_piece(hash, end, &found);
            if (found)
                return *stamp != NULL ? 0 : -ENOMEM;
        }
        p = hash + 1;
    }
    return 0;
}

static int stamp_of(const char *file, char **stamp)
{
    int fd = open(file, O_RDONLY | O_CLOEXEC), sts;
    whole w;

    *stamp = NULL;
    if (fd < 0)
        return -errno;
    sts = whole_read(fd, &w);
    close(fd);
    if (sts < 0)
        return sts;
    sts = stamp_in(w.data, w.len, stamp);
    whole_free(&w);
    return sts;
}

/* Order: no stamp first, then by stamp; equal keys keep their order. */
typedef struct keyed {
    pmns_source s;
    size_t at;
} keyed;

static int by_stamp(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    int c;

    if ((x->s.stamp == NULL) != (y->s.stamp == NULL))
        return x->s.stamp == NULL ? -1 : 1;
    if (x->s.stamp != NULL && (c = strcmp(x->s.stamp, y->s.stamp)) != 0)
        return c;
    return x->at < y->at ? -1 : x->at > y->at;
}

int pmns_sources_order(pmns_source *src, size_t n, size_t *bad)
{
    keyed *k;
    int sts;

    for (size_t i = 0; i < n; i++) {
        if ((sts = src[i].prelude != NULL
                       ? stamp_in(src[i].prelude, src[i].prelude_len, &src[i].stamp)
                       : 0) < 0 ||
            (src[i].stamp == NULL && (sts = stamp_of(src[i].file, &src[i].stamp)) < 0)) {
            *bad = i;
            return sts;
        }
    }
    if (n < 2)
        return 0;
    if ((k = malloc(n * sizeof(*k))) == NULL) {
        *bad = 0;
        return -ENOMEM;
    }
    for (size_t i = 0; i < n; i++)
        k[i] = (keyed){src[i], i};
    qsort(k, n, sizeof(*k), by_stamp);
    for (size_t i = 0; i < n; i++)
        src[i] = k[i].s;
    free(k);
    return 0;
}

void pmns_sources_clear(pmns_source *src, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(src[i].stamp);
        src[i].stamp = NULL;
    }
}

/* ---------------------------------------------------------------- */
/* Loading. */

static int image_status(int sts)
{
    return sts == PMNS_IMG_ENOMEM ? -ENOMEM : sts == PMNS_IMG_ETOOBIG ? PM_ERR_TOOBIG : PM_ERR_PMNS;
}

static void problem(const pmns_load_opts *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void problem(const pmns_load_opts *o, const char *fmt, ...)
{
    char msg[1024];
    diag_msg d = {.severity = DIAG_ERROR,
                  .file = o->file,
                  .message = msg,
                  .dialect = DIAG_PCP_NONE, /* PCP has no images: pmkit's words */
                  .pcp_line = DIAG_NO_LINE};
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    diag_emit(o->diag, o->diag_ctx, &d, o->form);
}

/* Is file a namespace image?  (Anything unreadable is left to the text
 * loader, which reports it as PCP does.) */
static bool looks_like_image(const char *file)
{
    unsigned char magic[PMNS_IMG_MAGIC_LEN];
    struct stat st;
    ssize_t n = 0;
    int fd;

    /* only a regular file: opening a FIFO would wait for a writer, and
     * reading it would take what the loader is to read */
    if (stat(file, &st) < 0 || !S_ISREG(st.st_mode) ||
        (fd = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0)
        return false;
    n = read(fd, magic, sizeof(magic));
    close(fd);
    return n == (ssize_t)sizeof(magic) && pmns_image_is_image(magic, sizeof(magic));
}

static int load_image(const pmns_load_opts *o, pmns_tree **out)
{
    pmns_image_error err = {0};
    pmns_image *img;
    char *text = NULL;
    size_t len = 0;
    FILE *fp;
    int sts;

    /* the whole image is read anyway: its checksums are checked too, so
     * that a damaged one is refused, not written back as a namespace */
    if ((sts = pmns_image_open_file(o->file, &img, &err)) == 0 &&
        (sts = pmns_image_verify_body(img, &err)) < 0)
        pmns_image_close(img);
    if (sts < 0) {
        if (sts == PMNS_IMG_ESYS)
            return -err.sys;
        problem(o, "bad namespace image: %s: %s at offset %llu", pmns_image_strerror(sts), err.what,
                (unsigned long long)err.offset);
        return image_status(sts);
    }
    if ((fp = open_memstream(&text, &len)) == NULL) {
        pmns_image_close(img);
        return -ENOMEM;
    }
    sts = pmns_image_dump(img, fp);
    pmns_image_close(img);
    if (fclose(fp) != 0 && sts == 0)
        sts = PMNS_IMG_ENOMEM;
    if (sts < 0) {
        problem(o, "bad namespace image: %s", pmns_image_strerror(sts));
        free(text);
        return image_status(sts);
    }
    sts = pmns_load_buffer(o, text, len, out);
    free(text);
    return sts;
}

static void quiet(void *ctx, const diag_msg *d)
{
    (void)ctx;
    (void)d;
}

/*
 * A text with nothing for the preprocessor to do (no '#', no '/', no NUL:
 * no directive, no comment, no macro defined, here or by the caller's -D)
 * reads the same without it, as the files these tools write do: it is
 * parsed from the mapped file directly, quietly.  1 when that loaded it (*out), else 0: the caller
 * reads it the usual way, for the usual messages.
 */
static int load_plain(const pmns_load_opts *o, pmns_tree **out)
{
    pmns_load_opts q = *o;
    int fd = open(o->file, O_RDONLY | O_CLOEXEC), sts = -1;
    struct stat st;
    whole w;

    if (fd < 0)
        return 0;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || whole_read(fd, &w) < 0) {
        close(fd);
        return 0;
    }
    close(fd);
    q.use_cpp = 0;
    q.diag = quiet;
    if (w.len > 0 && memchr(w.data, '#', w.len) == NULL && memchr(w.data, '/', w.len) == NULL &&
        memchr(w.data, '\0', w.len) == NULL)
        sts = pmns_load_buffer(&q, w.data, w.len, out);
    whole_free(&w);
    return sts == 0;
}

int pmns_source_load(pmns_source *s, const pmns_load_opts *opts, pmns_tree **out)
{
    pmns_load_opts o = *opts;

    o.file = s->file;
    o.derived = 0;
    o.prelude = NULL;
    o.prelude_len = 0;
    *out = NULL;
    if ((s->is_image = looks_like_image(s->file))) {
        o.use_cpp = 0;
        return load_image(&o, out);
    }
    if (s->prelude == NULL && o.use_cpp && o.n_defines == 0 && o.dependency == NULL &&
        load_plain(&o, out))
        return 0;
    o.prelude = s->prelude;
    o.prelude_len = s->prelude_len;
    return pmns_load(&o, out);
}

int pmns_merge_sources(pmns_source *src, size_t n, const pmns_load_opts *opts,
                       const pmns_merge_report *r, pmns_ed **out, size_t *bad)
{
    pmns_ed *e = NULL;
    int sts = 0;

    *out = NULL;
    for (size_t i = 0; i < n && sts == 0; i++) {
        pmns_tree *t;
        *bad = i;
        if (r->loading != NULL)
            r->loading(r->ctx, &src[i]);
        if ((sts = pmns_source_load(&src[i], opts, &t)) < 0)
            break;
        if (e == NULL) {
            sts = pmns_ed_new(t, &e);
        } else {
            sts = pmns_ed_merge(e, t, r->conflict, r->ctx);
            pmns_free(t);
        }
    }
    if (sts < 0) {
        pmns_ed_free(e);
        return sts;
    }
    *out = e;
    return 0;
}

int pmns_ed_write_image(const pmns_ed *e, const pmns_load_opts *opts, FILE *fp)
{
    pmns_load_opts o = *opts;
    pmns_tree *t;
    uint8_t *img;
    size_t ilen, tlen;
    char *text;
    int sts;

    if ((sts = pmns_ed_text(e, &text, &tlen)) < 0)
        return sts;
    o.use_cpp = 0;
    o.dupok = 1;
    o.derived = 1; /* what pmnscomp compiles, and libpcp expects of an image */
    o.prelude = NULL;
    o.prelude_len = 0;
    sts = pmns_load_buffer(&o, text, tlen, &t);
    free(text);
    if (sts < 0)
        return sts;
    sts = pmns_tree_image(t, 1, &img, &ilen);
    pmns_free(t);
    if (sts < 0)
        return image_status(sts);
    if (fwrite(img, 1, ilen, fp) != ilen)
        sts = errno != 0 ? -errno : -EIO;
    pmns_image_free(img, ilen);
    return sts;
}

/* ---------------------------------------------------------------- */
/* pmnsadd's upper levels. */

/* Does some line start "root {"? */
static bool has_root_line(const char *b, size_t n)
{
    for (const char *p = b, *end = b + n; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
        if (len >= 6 && memcmp(p, "root {", 6) == 0)
            return true;
        p += len + 1;
    }
    return false;
}

/* awk's blanks between fields. */
static bool blank(char c)
{
    return c == ' ' || c == '\t';
}

/* The first word of the first line whose second word is "{" (awk's
 * 'NF >= 2 && $2 == "{" { print $1; exit }'): its start and length, or 0. */
static size_t subtree_base(const char *b, size_t n, const char **word)
{
    for (const char *p = b, *end = b + n; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl != NULL ? nl : end, *w1, *w2;
        size_t l1;
        while (p < le && blank(*p))
            p++;
        for (w1 = p; p < le && !blank(*p); p++)
            ;
        l1 = (size_t)(p - w1);
        while (p < le && blank(*p))
            p++;
        for (w2 = p; p < le && !blank(*p); p++)
            ;
        if (l1 > 0 && p - w2 == 1 && *w2 == '{') {
            *word = w1;
            return l1;
        }
        p = le + 1;
    }
    return 0;
}

/* pmnsadd's text: "root {", then for each component of the base (empty
 * ones dropped, as the shell's word splitting drops them) a line naming
 * it and "}", and the group header of the next level. */
static int upper_levels(const char *base, size_t blen, char **prelude, size_t *len)
{
    FILE *fp = open_memstream(prelude, len);
    char *path = malloc(blen + 1);
    const char *p = base, *end = base + blen;
    size_t plen = 0;
    int sts = 0;

    if (fp == NULL || path == NULL) {
        if (fp != NULL)
            fclose(fp);
        free(path);
        free(*prelude);
        *prelude = NULL;
        return -ENOMEM;
    }
    fputs("root {\n", fp);
    while (p < end) {
        const char *dot = memchr(p, '.', (size_t)(end - p));
        const char *ce = dot != NULL ? dot : end;
        size_t n = (size_t)(ce - p);
        if (n > 0) {
            if (plen > 0)
                fprintf(fp, "%.*s {\n", (int)plen, path);
            fprintf(fp, "\t%.*s\n}\n", (int)n, p);
            if (plen > 0)
                path[plen++] = '.';
            memcpy(path + plen, p, n);
            plen += n;
        }
        p = ce + 1;
    }
    free(path);
    if (fclose(fp) != 0)
        sts = -ENOMEM;
    if (sts < 0) {
        free(*prelude);
        *prelude = NULL;
    }
    return sts;
}

int pmns_add_prelude(const char *file, char **prelude, size_t *len)
{
    int fd = open(file, O_RDONLY | O_CLOEXEC), sts = 0;
    const char *base = NULL;
    size_t blen;
    whole w;

    *prelude = NULL;
    *len = 0;
    if (fd < 0)
        return -errno;
    sts = whole_read(fd, &w);
    close(fd);
    if (sts < 0)
        return sts;
    if (!has_root_line(w.data, w.len) &&
        !(w.len >= PMNS_IMG_MAGIC_LEN && pmns_image_is_image(w.data, w.len))) {
        blen = subtree_base(w.data, w.len, &base);
        sts = upper_levels(base, blen, prelude, len);
    }
    whole_free(&w);
    return sts;
}

void pmns_edit_usage(pmOptions *opts)
{
    if (diag_form_resolve(DIAG_FORM_AUTO) == DIAG_FORM_RICH)
        for (pmLongOptions *o = opts->long_options; o->long_opt != NULL; o++)
            if (o->short_opt == 'b')
                o->message = "write a namespace image (pmkit)";
    pmUsageMessage(opts);
}
