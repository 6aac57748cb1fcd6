/*
 * test_util.h - small helpers the unit tests share: a seeded sequence of
 * 64-bit numbers (splitmix64) and a string cut as snprintf cuts it.
 */
#ifndef PMKIT_TEST_UTIL_H
#define PMKIT_TEST_UTIL_H

#include <stdint.h>
#include <string.h>

/* The next number of the sequence *state seeds (splitmix64). */
static inline uint64_t test_splitmix(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* src cut to n - 1 bytes (n >= 1), as snprintf(dst, n, "%s", src) puts it. */
static inline void test_cut(char *dst, const char *src, int n)
{
    size_t len = strlen(src);

    if (len > (size_t)n - 1)
        len = (size_t)n - 1;
    memcpy(dst, src, len);
    dst[len] = '\0';
}

#endif
