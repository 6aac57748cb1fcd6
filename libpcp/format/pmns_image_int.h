/*
 * pmns_image_int.h - private to pmns_image.c (reading) and
 * pmns_image_write.c (writing): the byte positions of
 * docs/pmns-format.md and the little-endian accessors.
 */
#ifndef PMKIT_FORMAT_PMNS_IMAGE_INT_H
#define PMKIT_FORMAT_PMNS_IMAGE_INT_H

#include "pmns_image.h"

#include <string.h>

/* Header fields (offsets from the start of the file). */
#define HDR_MAGIC     0
#define HDR_MAJOR     8
#define HDR_MINOR     10
#define HDR_LENGTH    12
#define HDR_FEATURES  16
#define HDR_PROPS     20
#define HDR_FILESIZE  24
#define HDR_NODES     32
#define HDR_LEAVES    36
#define HDR_NAMES     40
#define HDR_ENTRIES   44
#define HDR_NSECTIONS 48
#define HDR_CRC       60
#define HDR_SIZE      64 /* the fixed part; the section table follows */

/* Section table entries: id, offset, length, CRC-32C. */
#define SECT_SIZE 16
enum { SECT_NODES = 1, SECT_NAMES = 2, SECT_BUCKETS = 3, SECT_ENTRIES = 4, NSECT = 4 };

/* Node records. */
#define REC_PARENT  0
#define REC_PMID    4
#define REC_INFO    8
#define REC_NAME    12 /* a leaf's own name */
#define REC_FIRST   12 /* non-leaves: */
#define REC_NKIDS   16
#define REC_PATHLEN 20
#define REC_PATH    24
#define NAMELEN_MAX 0xffffffu
#define FLAGS_SHIFT 24

#define ALIGN_SECTION 8

static const uint8_t pmns_img_magic[PMNS_IMG_MAGIC_LEN] = {0x89, 'P',  'M',  'N',
                                                           'S',  '\r', '\n', 0x1a};

static inline uint16_t rd16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t rd64(const uint8_t *p)
{
    return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

static inline void wr16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static inline void wr32(uint8_t *p, uint32_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(p, &v, 4); /* the same bytes, one store */
    return;
#endif
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static inline void wr64(uint8_t *p, uint64_t v)
{
    wr32(p, (uint32_t)v);
    wr32(p + 4, (uint32_t)(v >> 32));
}

static inline uint64_t pad4(uint64_t x)
{
    return (x + 3) & ~(uint64_t)3;
}

static inline uint64_t pad8(uint64_t x)
{
    return (x + 7) & ~(uint64_t)7;
}

/* MurmurHash3's finaliser: the PMID mix of §7.2. */
static inline uint32_t mix_pmid(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x85ebca6bu;
    x ^= x >> 13;
    x *= 0xc2b2ae35u;
    x ^= x >> 16;
    return x;
}

/* The name hash of §7.1 (pmns_image_hash), inline for the writer. */
static inline uint32_t pmns_img_hash_name(const char *s, size_t n)
{
    const uint64_t m = 0xc6a4a7935bd1e995u;
    const unsigned char *p = (const unsigned char *)s;
    uint64_t h = (uint64_t)n * m;
    size_t r = n & 7;

    for (const unsigned char *end = p + (n - r); p < end; p += 8) {
        uint64_t k = rd64(p);
        k *= m;
        k ^= k >> 47;
        k *= m;
        h ^= k;
        h *= m;
    }
    if (r > 0) { /* the last r bytes as a little-endian integer */
        uint64_t t;
        if (n >= 8) /* the 8 bytes ending there, shifted */
            t = rd64(p + r - 8) >> (64 - 8 * r);
        else if (r >= 4) /* two overlapping words */
            t = rd32(p) | (uint64_t)rd32(p + r - 4) << (8 * (r - 4));
        else
            t = p[0] | (uint64_t)p[r / 2] << (8 * (r / 2)) | (uint64_t)p[r - 1] << (8 * (r - 1));
        h ^= t;
        h *= m;
    }
    h ^= h >> 47;
    h *= m;
    h ^= h >> 47;
    return (uint32_t)(h >> 32);
}

/* A dynamic subtree root's PMID: domain 511, item 0. */
static inline int is_dynamic_pmid(uint32_t pmid)
{
    return pmid != PMNS_IMG_PMID_NULL && (pmid >> 22) == 511 && (pmid & 0x3ff) == 0;
}

/* A tree's nodes (breadth first, as pmns_image_add takes them, checked
 * as it checks them) laid out as an image in place, as pmns_image_finish
 * says; the tree is only read (pmns_tree_image, pmns_image_finish). */
struct pmns_tree;
int pmns_img_tree_finish(const struct pmns_tree *t, int seal, uint8_t **image, size_t *len);

/* Images at least this large are asked for huge pages
 * (pmns_img_advise_huge). */
#define PMNS_IMG_HUGE_MIN (2u << 20)

/* Ask the kernel to back the image at p, len bytes (a mapping of its
 * own), with huge pages if it is PMNS_IMG_HUGE_MIN or larger. */
void pmns_img_advise_huge(void *p, size_t len);

/* CRC-32C of the header: bytes [0, hlen) with the checksum field as zero. */
uint32_t pmns_img_header_crc(const uint8_t *b, uint32_t hlen);

#endif /* PMKIT_FORMAT_PMNS_IMAGE_INT_H */
