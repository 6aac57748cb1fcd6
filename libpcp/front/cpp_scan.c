/*
 * cpp_scan.c - wide byte scans for the preprocessor's hot loops.
 *
 * cpp_scan_set_as finds the next byte of a small set (the bytes fast_line has
 * to look at) 16 bytes at a time with the nibble-table method: PSHUFB
 * looks up the low and the high nibble of every byte in two 16-entry
 * tables of bucket bits, and a byte is in the set when the two lookups
 * share a bit.  Bytes whose high nibbles have the same set of low nibbles
 * share a bucket; a set needing more than 8 buckets, or a CPU without
 * SSSE3 (checked at run time by cpp_byteset_build, for every set), gets
 * the one-byte loop, as do other machines.  The sets the preprocessor
 * builds (the hot bytes: '\n', '/', letters, '_'; the bytes that end a
 * word) use at most 6 buckets.  Both loops are inline in cpp_scan.h
 * (cpp_scan_set_ssse3, cpp_scan_set_bytes), for the preprocessor's fast
 * path to build into itself.
 *
 * cpp_scan_pair (inline, in cpp_scan.h) looks for either of two bytes
 * with SSE2, which every x86-64 CPU has; other machines use a byte loop.
 */
#include "cpp_scan.h"

#include <stdint.h>
#include <string.h>

void cpp_byteset_build(cpp_byteset *set, bool bytewise)
{
    uint16_t lows[16], bucket_lows[8];
    int nbuckets = 0;

    memset(set->lo, 0, sizeof(set->lo));
    memset(set->hi, 0, sizeof(set->hi));
    for (int h = 0; h < 16; h++) {
        lows[h] = 0;
        for (int l = 0; l < 16; l++)
            if (set->in[h << 4 | l])
                lows[h] |= (uint16_t)(1u << l);
    }
    set->wide = false;
    for (int h = 0; h < 16; h++) {
        int b;
        if (lows[h] == 0)
            continue;
        for (b = 0; b < nbuckets && bucket_lows[b] != lows[h]; b++)
            ;
        if (b == nbuckets) {
            if (nbuckets == 8)
                return; /* too many kinds of high nibble: bytewise */
            bucket_lows[nbuckets++] = lows[h];
            for (int l = 0; l < 16; l++)
                if (lows[h] & (1u << l))
                    set->lo[l] |= (unsigned char)(1u << b);
        }
        set->hi[h] = (unsigned char)(1u << b);
    }
#ifdef CPP_SCAN_X86
    __builtin_cpu_init();
    set->wide = __builtin_cpu_supports("ssse3") && !bytewise;
#else
    (void)bytewise;
#endif
}
