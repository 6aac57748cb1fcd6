/*
 * support.h - what every room of libpcp may use: the public headers, the
 * checks of internal rules, memory-block and byte helpers, bounded
 * copies and messages.  Nothing here knows about contexts, names or the
 * wire (docs/architecture.md has the rooms and their rule).
 */
#ifndef PMKIT_SUPPORT_H
#define PMKIT_SUPPORT_H

#include <pcp/pmapi.h>
#include <pcp/pmkit.h>

#include <malloc.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#if defined(__has_include)
#if __has_include(<sys/single_threaded.h>)
#include <sys/single_threaded.h> /* glibc 2.32 and later */
#define PMKIT_HAVE_SINGLE_THREADED 1
#endif
#endif
#ifndef PMKIT_HAVE_SINGLE_THREADED
#define PMKIT_HAVE_SINGLE_THREADED 0
#endif

/*
 * Checks of the library's internal rules ("the caller holds the lock",
 * "the context is held"): active where PMKIT_CHECKS is 1 (the ASan+UBSan
 * and Debug builds), where a broken rule prints what and where on stderr
 * and aborts; compiled out elsewhere (the expression is not evaluated).
 */
#ifndef PMKIT_CHECKS
#define PMKIT_CHECKS 0
#endif
#if PMKIT_CHECKS
_Noreturn void pmkit_check_failed(const char *file, int line, const char *what);
#define PMKIT_CHECK(cond) ((cond) ? (void)0 : pmkit_check_failed(__FILE__, __LINE__, #cond))
#else
#define PMKIT_CHECK(cond) ((void)0)
#endif

/*
 * An exported second name for a function defined in the same file: the
 * __pm names libpcp keeps for binaries built before the call became public
 * (__pmNoMem is pmNoMem), at their own version nodes (libpcp.map).
 */
#define PMKIT_ALIAS(old, current)                                                                  \
    extern __typeof__(current) old __attribute__((alias(#current), visibility("default")))

/*
 * Is this process sure to have one thread only?  Then no other thread can
 * observe the library's shared state until this one starts a thread
 * (pthread_create orders everything before it), so the lock and the names
 * API's hazard need no fences.  0 where the C library cannot tell.
 */
static inline int pmkit_single_threaded(void)
{
#if PMKIT_HAVE_SINGLE_THREADED
    return __libc_single_threaded != 0;
#else
    return 0;
#endif
}

/*
 * Blocks that carry what they point at.  A value set from pmdaFetch
 * carries its value blocks inside its own allocation, and a pmInResult
 * namelist from pmdaInstance carries its names, so the free functions
 * free only the pointers that lie outside; anything an agent malloc'd on
 * its own cannot lie inside another live block.  (glibc's and musl's
 * malloc_usable_size, which sanitizers and valgrind also provide.)
 * Usable bytes of the malloc'd block at base (0 for NULL):
 */
static inline size_t pmkit_block_size(const void *base)
{
    return malloc_usable_size((void *)base);
}

/* Is p inside [base, base + size)?  (size from pmkit_block_size) */
static inline int pmkit_in_block(const void *base, size_t size, const void *p)
{
    return (uintptr_t)p - (uintptr_t)base < size;
}

/* A 32-bit word at p, or into p, in the host's order (no alignment needed). */
static inline uint32_t pmkit_get32(const void *p)
{
    uint32_t v;

    memcpy(&v, p, sizeof(v));
    return v;
}

static inline void pmkit_put32(void *p, uint32_t v)
{
    memcpy(p, &v, sizeof(v));
}

/* Copy src into buf[buflen], truncating, always NUL-terminated; returns buf.
 * buflen <= 0 leaves buf untouched (util.c). */
char *pmkit_copy(char *buf, int buflen, const char *src);

/* A parser's error message as PCP writes it: TEXT, a newline, a caret
 * under byte AT, " -- WHY" and a newline; malloc'd, NULL when out of
 * memory.  The caret line is blanks, or with keep_controls the text's own
 * control and non-ASCII bytes where they stand (pmParseMetricSpec). */
char *pmkit_caret_msg(const char *text, size_t at, const char *why, int keep_controls);

/* pmprintf with a va_list (notify.c). */
int pmkit_vprintf(const char *fmt, va_list ap);

#endif /* PMKIT_SUPPORT_H */
