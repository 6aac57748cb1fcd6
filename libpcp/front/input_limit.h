/*
 * input_limit.h - the one bound on what pmkit's readers hold in memory
 * from a single input: the longest line the preprocessor and the
 * namespace parser accept, and the largest namespace text, help source,
 * map specification and help database file read whole.  Without it a
 * file that never ends (/dev/zero, a FIFO fed forever) or a huge sparse
 * file would grow the process until the system kills it.
 *
 * The default, 1 GiB, is far above any real input (a namespace of a
 * million names is some 25 MB of text, the largest help source Debian's
 * PCP ships 160 KB); $PMKIT_INPUT_LIMIT overrides it: a number of bytes, with an
 * optional K, M or G suffix (powers of 1024).  A value that is not such a
 * number, or 0, leaves the default.  Inline, for libpcp_pmda's help reader
 * as well (docs/architecture.md: the pmda room takes only inline code and
 * layouts from the others).
 */
#ifndef PMKIT_FRONT_INPUT_LIMIT_H
#define PMKIT_FRONT_INPUT_LIMIT_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#define PMKIT_INPUT_LIMIT_DEFAULT ((size_t)1 << 30)
#define PMKIT_INPUT_LIMIT_ENV     "PMKIT_INPUT_LIMIT"

/* The limit in force, in bytes (never 0). */
static inline size_t pmkit_input_limit(void)
{
    const char *v = getenv(PMKIT_INPUT_LIMIT_ENV);
    uint64_t n = 0;
    int shift = 0;

    if (v == NULL || *v < '0' || *v > '9')
        return PMKIT_INPUT_LIMIT_DEFAULT;
    for (; *v >= '0' && *v <= '9'; v++) {
        if (n > (UINT64_MAX - 9) / 10)
            return PMKIT_INPUT_LIMIT_DEFAULT;
        n = n * 10 + (uint64_t)(*v - '0');
    }
    if (*v == 'K' || *v == 'k')
        shift = 10;
    else if (*v == 'M' || *v == 'm')
        shift = 20;
    else if (*v == 'G' || *v == 'g')
        shift = 30;
    if (v[shift != 0] != '\0' || n == 0 || n > (SIZE_MAX / 4) >> shift)
        return PMKIT_INPUT_LIMIT_DEFAULT;
    return (size_t)(n << shift);
}

#endif /* PMKIT_FRONT_INPUT_LIMIT_H */
