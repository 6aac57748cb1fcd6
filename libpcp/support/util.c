/*
 * util.c - small process-wide utilities of the PMAPI: bounded string
 * formatting (pmsprintf, pmstrncpy, pmstrncat), the path separator and the
 * library version.  Not here: logging (notify.c), the program name
 * (progname.c).
 * Also the report of a broken internal rule (PMKIT_CHECK, support.h).
 */
#include "support.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *pmkit_copy(char *buf, int buflen, const char *src)
{
    if (buf != NULL && buflen > 0)
        pmstrncpy(buf, (size_t)buflen, src);
    return buf;
}

char *pmkit_caret_msg(const char *text, size_t at, const char *why, int keep_controls)
{
    size_t len = strlen(text);
    char *msg = malloc(len + 1 + at + strlen(why) + 7);

    if (msg == NULL)
        return NULL;
    memcpy(msg, text, len);
    msg[len] = '\n';
    for (size_t i = 0; i < at; i++) {
        unsigned char c = i < len ? (unsigned char)text[i] : ' ';
        msg[len + 1 + i] = keep_controls && (c < 0x20 || c >= 0x7f) ? (char)c : ' ';
    }
    sprintf(msg + len + 1 + at, "^ -- %s\n", why);
    return msg;
}

int pmsprintf(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    int n;

    if (size == 0)
        return 0;
    va_start(ap, fmt);
    n = vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    if (n == 0) {
        /* PCP reports an empty result as one byte (the NUL) */
        buf[0] = '\0';
        return 1;
    }
    if (n < 0 || (size_t)n >= size) {
        /* truncated, or an encoding error part-way: keep what was written */
        buf[size - 1] = '\0';
        return (int)size - 1;
    }
    return n;
}

size_t pmstrlen(const char *s)
{
    return s == NULL ? 0 : strlen(s) + 1;
}

int pmstrncpy(char *dst, size_t dstlen, const char *src)
{
    size_t n = strlen(src);

    if (dstlen == 0)
        return -1;
    if (n >= dstlen) {
        memcpy(dst, src, dstlen - 1);
        dst[dstlen - 1] = '\0';
        return -1;
    }
    memcpy(dst, src, n + 1);
    return 0;
}

int pmstrncat(char *dst, size_t dstlen, const char *src)
{
    size_t used = strnlen(dst, dstlen);

    if (used >= dstlen)
        return -1;
    return pmstrncpy(dst + used, dstlen - used, src);
}

int pmPathSeparator(void)
{
    return '/';
}

int pmGetVersion(void)
{
    return PM_VERSION_CURRENT;
}

/*
 * pmfstring: skip blanks (not newlines), then take the word up to the next
 * whitespace into a new string; that whitespace character is read too, as
 * PCP reads it.  Returns the word's length, or 0 when the line ends first
 * (its newline read), -1 at end of file, -2 when memory runs out.
 */
ssize_t pmfstring(FILE *f, char **str)
{
    size_t len = 0, room = 0;
    char *buf = NULL, *grown;
    int c;

    while ((c = fgetc(f)) != EOF && c != '\n' && isspace(c))
        ;
    if (c == EOF)
        return -1;
    if (c == '\n')
        return 0;
    do {
        if (len + 1 >= room) {
            room = room ? room * 2 : 64;
            if ((grown = realloc(buf, room)) == NULL) {
                free(buf);
                return -2;
            }
            buf = grown;
        }
        buf[len++] = (char)c;
    } while ((c = fgetc(f)) != EOF && !isspace(c));
    buf[len] = '\0';
    *str = buf;
    return (ssize_t)len;
}

#if PMKIT_CHECKS
void pmkit_check_failed(const char *file, int line, const char *what)
{
    fprintf(stderr, "pmkit: internal check failed at %s:%d: %s\n", file, line, what);
    abort();
}
#endif

/* The name pmPathSeparator had before it became public. */
PMKIT_ALIAS(__pmPathSeparator, pmPathSeparator);
