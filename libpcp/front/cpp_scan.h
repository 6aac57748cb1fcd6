/*
 * cpp_scan.h - the preprocessor's wide byte scans: 16 bytes per step where
 * the CPU can, one byte per step elsewhere, the same answers either way.
 *
 * Every scan reads whole 16-byte blocks from its start, so it may look up
 * to 15 bytes past the byte it stops at.  Every scan stops at a newline at
 * the latest, so the buffer must have at least 15 readable bytes after
 * that newline.  The callers scan only lines of stream buffers, whose
 * every '\n' has at least CPP_SLACK - 1 (16) defined bytes after it: fill()
 * zeroes CPP_SLACK bytes after the data, and a newline supplied for a last
 * line that lacks one takes the first of them.
 */
#ifndef PMKIT_CPP_SCAN_H
#define PMKIT_CPP_SCAN_H

#include <stdbool.h>

#if defined(__x86_64__) && defined(__GNUC__)
#define CPP_SCAN_X86 1
#include <emmintrin.h>
#include <tmmintrin.h>
#endif

/* A set of bytes prepared for cpp_scan_set_as: its 256-entry table, and the
 * same set as two 16-entry nibble tables for the vector lookup (a byte is
 * in the set when lo[its low nibble] & hi[its high nibble] is non-zero). */
typedef struct cpp_byteset {
    unsigned char in[256];
    unsigned char lo[16], hi[16];
    bool wide; /* the nibble tables describe the set and the CPU can use them */
} cpp_byteset;

/* Prepare set->lo, set->hi and set->wide from set->in; bytewise leaves
 * the set to the byte loop, as on a CPU without SSSE3. */
void cpp_byteset_build(cpp_byteset *set, bool bytewise);

/* The byte loop of cpp_scan_set_as (below), for any set.  Inline so that a loop calling
 * it (the preprocessor's plain fast path) needs no call per scan. */
static inline const char *cpp_scan_set_bytes(const cpp_byteset *set, const char *p)
{
    while (!set->in[(unsigned char)*p])
        p++;
    return p;
}

#ifdef CPP_SCAN_X86
/* The vector loop of cpp_scan_set_as, for a set whose wide is true.  Inline for
 * callers compiled for SSSE3 (target("ssse3")), so that a loop calling
 * it needs no call per scan; the callers check set->wide first. */
__attribute__((target("ssse3"))) static inline const char *
cpp_scan_set_ssse3(const cpp_byteset *set, const char *p)
{
    const __m128i lo = _mm_loadu_si128((const __m128i *)(const void *)set->lo);
    const __m128i hi = _mm_loadu_si128((const __m128i *)(const void *)set->hi);
    const __m128i nib = _mm_set1_epi8(0x0f), zero = _mm_setzero_si128();

    for (;; p += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
        __m128i l = _mm_shuffle_epi8(lo, _mm_and_si128(v, nib));
        __m128i h = _mm_shuffle_epi8(hi, _mm_and_si128(_mm_srli_epi16(v, 4), nib));
        unsigned none = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_and_si128(l, h), zero));
        if (none != 0xffffu)
            return p + __builtin_ctz(~none);
    }
}
#endif

/* The first byte at or after p that is in the set (which must include
 * '\n'), with the choice of loop given: wide (the vector loop) only for a
 * set whose wide is true.  Always inline, so that a caller passing
 * a constant (the preprocessor's two fast paths) keeps one loop. */
static inline __attribute__((always_inline)) const char *cpp_scan_set_as(const cpp_byteset *set,
                                                                         const char *p, bool wide)
{
#ifdef CPP_SCAN_X86
    if (wide)
        return cpp_scan_set_ssse3(set, p);
#else
    (void)wide;
#endif
    return cpp_scan_set_bytes(set, p);
}

/* The first byte at or after p that is a or b (one of them '\n').
 * Inline: it runs once or more per line, usually over few bytes. */
static inline const char *cpp_scan_pair(const char *p, char a, char b)
{
#ifdef CPP_SCAN_X86 /* SSE2: every x86-64 CPU */
    const __m128i va = _mm_set1_epi8(a), vb = _mm_set1_epi8(b);

    for (;; p += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
        unsigned m =
            (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, va), _mm_cmpeq_epi8(v, vb)));
        if (m != 0)
            return p + __builtin_ctz(m);
    }
#else
    while (*p != a && *p != b)
        p++;
    return p;
#endif
}

#endif
