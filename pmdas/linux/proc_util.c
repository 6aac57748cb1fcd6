/*
 * proc_util.c - reading a /proc file whole, and the small scanners every
 * parser shares (lines, words, numbers).
 *
 * Files under /proc report a size of 0, so proc_read reads until end of
 * file into a buffer that doubles as needed; nothing is ever cut off.  The
 * scanners work on [p, end) ranges and never look past end.  Not done:
 * hexadecimal or any number base but 10 (the kernel writes unsigned
 * decimals).
 */
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Makes room for at least NEED more bytes plus the terminating NUL. */
static int grow(proc_buf *b, size_t need)
{
    size_t cap = b->cap ? b->cap : 4096;
    char *p;

    while (cap - b->len < need + 1) {
        if (cap > SIZE_MAX / 2)
            return -ENOMEM;
        cap *= 2;
    }
    if (cap == b->cap)
        return 0;
    if ((p = realloc(b->data, cap)) == NULL)
        return -ENOMEM;
    b->data = p;
    b->cap = cap;
    return 0;
}

/* ROOT and PATH joined, malloc'd. */
static char *join(const char *root, const char *path)
{
    size_t rl = root ? strlen(root) : 0, pl = strlen(path);
    char *s = malloc(rl + pl + 1);

    if (s != NULL) {
        if (rl)
            memcpy(s, root, rl);
        memcpy(s + rl, path, pl + 1);
    }
    return s;
}

int proc_read(proc_buf *b, const char *root, const char *path)
{
    char *name = join(root, path);
    int fd, err = 0;

    b->len = 0;
    if ((err = grow(b, 0)) < 0) {
        free(name);
        return err;
    }
    b->data[0] = '\0';
    if (name == NULL)
        return -ENOMEM;
    fd = open(name, O_RDONLY | O_CLOEXEC);
    free(name);
    if (fd < 0)
        return -errno;
    for (;;) {
        ssize_t n;
        if ((err = grow(b, 4096)) < 0)
            break;
        n = read(fd, b->data + b->len, b->cap - b->len - 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            err = -errno;
            break;
        }
        if (n == 0)
            break;
        b->len += (size_t)n;
    }
    close(fd);
    if (err < 0)
        b->len = 0;
    b->data[b->len] = '\0';
    return err;
}

void proc_buf_free(proc_buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

int proc_next_line(const char **p, const char *end, const char **line, const char **eol)
{
    const char *s = *p, *nl;

    if (s >= end)
        return 0;
    nl = memchr(s, '\n', (size_t)(end - s));
    *line = s;
    *eol = nl ? nl : end;
    *p = nl ? nl + 1 : end;
    return 1;
}

int proc_scan_u64(const char **p, const char *end, uint64_t *v)
{
    const char *s = *p;
    uint64_t n = 0;

    while (s < end && !is_digit(*s))
        s++;
    if (s == end) {
        *p = s;
        return 0;
    }
    for (; s < end && is_digit(*s); s++) {
        unsigned d = (unsigned)(*s - '0');
        n = n > (UINT64_MAX - d) / 10 ? UINT64_MAX : n * 10 + d;
    }
    while (s < end && !is_blank(*s))
        s++;
    *p = s;
    *v = n;
    return 1;
}

int proc_scan_ull(const char **p, const char *end, uint64_t *v)
{
    const char *s = *p;
    uint64_t n = 0;
    int neg = 0, over = 0;

    while (s < end && *s != '\n' && is_blank(*s))
        s++;
    if (s < end && (*s == '+' || *s == '-'))
        neg = *s++ == '-';
    if (s == end || !is_digit(*s))
        return 0;
    for (; s < end && is_digit(*s); s++) {
        unsigned d = (unsigned)(*s - '0');
        if (n > (UINT64_MAX - d) / 10)
            over = 1;
        n = n * 10 + d;
    }
    *p = s;
    *v = over ? UINT64_MAX : neg ? 0 - n : n;
    return 1;
}

int proc_next_word(const char **p, const char *end, const char **word, size_t *len)
{
    const char *s = *p, *w;

    while (s < end && is_blank(*s))
        s++;
    if (s == end) {
        *p = s;
        return 0;
    }
    for (w = s; s < end && !is_blank(*s); s++)
        ;
    *word = w;
    *len = (size_t)(s - w);
    *p = s;
    return 1;
}

uint64_t proc_ticks_to_msec(uint64_t ticks, unsigned hz)
{
    /* PCP's agent converts through a double; keep its rounding. */
    double ms = (double)ticks * 1000 / (hz ? hz : 100);

    return ms < 18446744073709551616.0 ? (uint64_t)ms : 0;
}
