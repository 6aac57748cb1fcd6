/*
 * gen_rng.h - the random numbers of the oracle's case generators
 * (gen_help.c, gen_pmgenmap.c, gen_pmns.c): splitmix64, so a corpus depends
 * only on how each generator seeds rng_state.  Included by one file per
 * program.
 */
#ifndef PMKIT_GEN_RNG_H
#define PMKIT_GEN_RNG_H

#include <stdint.h>

static uint64_t rng_state;

static inline uint64_t rnd64(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* uniform in [0, n) */
static inline unsigned rnd(unsigned n)
{
    return n ? (unsigned)(rnd64() % n) : 0;
}

#endif
