/*
 * pmns_hash.h - the hash of a full dotted name one component at a time,
 * shared by the PMNS builder (front/pmns_build.c, pmns_node.hash) and the
 * agents' namespace trees (pmda/tree.c).  Inline, because libpcp keeps its
 * front end's symbols hidden from libpcp_pmda.  (The binary image has a
 * hash of its own, docs/pmns-format.md.)
 */
#ifndef PMKIT_PMNS_HASH_H
#define PMKIT_PMNS_HASH_H

#include <stddef.h>
#include <stdint.h>

#define PMNS_ROOT_HASH 0x9e3779b9u

/* The hash of parent.component from the parent's hash. */
static inline uint32_t pmns_hash_step(uint32_t h, const char *s, size_t n)
{
    h ^= 0x5bd1e995u;
    while (n-- > 0)
        h = (h ^ (unsigned char)*s++) * 16777619u;
    return h ^ (h >> 15);
}

#endif /* PMKIT_PMNS_HASH_H */
