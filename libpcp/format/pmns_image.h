/*
 * pmns_image.h - the binary namespace image (docs/pmns-format.md): the
 * only code that knows its bytes.
 *
 * Reading: an image is opened from a file (mapped) or a buffer with an
 * O(1) check of its header and section table, then used in place.  Every
 * accessor below checks the offsets and lengths it reads against the
 * section, so a damaged body gives PMNS_IMG_ECORRUPT (or "not found"),
 * never a read outside the image or an endless loop.
 *
 * Writing: nodes are added in breadth-first order (parent indexes never
 * decrease), then pmns_image_finish lays out the records, the name index
 * and the PMID index and returns the whole file in one buffer.  The
 * output depends on the nodes only: same namespace, same bytes.
 *
 * This module depends on nothing but the C library; it does not parse
 * text (libpcp/front does) and does not know the PMAPI's error codes.
 */
#ifndef PMKIT_FORMAT_PMNS_IMAGE_H
#define PMKIT_FORMAT_PMNS_IMAGE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PMNS_IMG_MAJOR     1
#define PMNS_IMG_MINOR     0
#define PMNS_IMG_MAGIC_LEN 8
#define PMNS_IMG_NONE      UINT32_MAX /* no node */
#define PMNS_IMG_PMID_NULL 0xffffffffu

/* Node flags, as on disk (bits 24-31 of a record's third word, shifted down). */
#define PMNS_IMG_LEAF    0x01u /* a leaf: a PMID and no children */
#define PMNS_IMG_DYNAMIC 0x02u /* the PMID is a dynamic subtree root D:*:* */
#define PMNS_IMG_VISIBLE 0x04u /* has a name: a leaf, or a leaf below it */
#define PMNS_IMG_DERIVED 0x08u /* added for the derived metrics event.* */
#define PMNS_IMG_HASPMID 0x10u /* a non-leaf with a PMID (a leaf "event") */

/* Header properties. */
#define PMNS_IMG_PROP_DUPLICATES 0x1u /* two nodes share a PMID */

/* Errors (negative). */
#define PMNS_IMG_EMAGIC    (-1) /* not an image */
#define PMNS_IMG_ETRUNC    (-2) /* shorter than its header says */
#define PMNS_IMG_EVERSION  (-3) /* unknown major version */
#define PMNS_IMG_EFEATURE  (-4) /* unknown required feature */
#define PMNS_IMG_ECHECKSUM (-5) /* a checksum does not match */
#define PMNS_IMG_ECORRUPT  (-6) /* an offset, length or structure out of place */
#define PMNS_IMG_ETOOBIG   (-7) /* (writer) does not fit the format */
#define PMNS_IMG_EORDER    (-8) /* (writer) nodes not in breadth-first order */
#define PMNS_IMG_ENOMEM    (-9)
#define PMNS_IMG_ESYS      (-10) /* a system call failed: see pmns_image_error.sys */

/* What went wrong, and where. */
typedef struct pmns_image_error {
    int code;         /* PMNS_IMG_E* */
    int sys;          /* errno for PMNS_IMG_ESYS */
    uint64_t offset;  /* file offset of the bad field */
    int line;         /* line of the check in the reader (for bug reports) */
    const char *what; /* static text naming the field or check */
} pmns_image_error;

/* An open image.  Immutable; any number of threads may read it. */
typedef struct pmns_image {
    const uint8_t *base; /* the whole image */
    uint64_t size;
    const uint8_t *nodes; /* the NODES section */
    uint32_t nodes_len;
    const uint8_t *slots; /* NAME_INDEX: nslots slots of 8 bytes */
    uint32_t nslots;
    const uint8_t *buckets; /* PMID_BUCKETS: nbuckets + 1 u32 values */
    uint32_t nbuckets;
    const uint8_t *entries; /* PMID_ENTRIES: nentries entries of 8 bytes */
    uint32_t nentries;
    uint32_t nnodes; /* header counts */
    uint32_t nleaves;
    uint32_t nnames;
    uint32_t props; /* PMNS_IMG_PROP_* */
    unsigned major, minor;
    int owner; /* how base is released (pmns_image.c) */
} pmns_image;

/* One record, decoded; the pointers point into the image. */
typedef struct pmns_image_node {
    uint32_t off;     /* the record's offset in NODES: the node's identity */
    uint32_t parent;  /* parent's offset; PMNS_IMG_NONE for the root */
    uint32_t pmid;    /* PMNS_IMG_PMID_NULL if none */
    uint32_t flags;   /* PMNS_IMG_* */
    const char *name; /* the node's own name (not NUL-terminated) */
    uint32_t namelen;
    const char *path; /* non-leaves: the full dotted name; leaves: NULL */
    uint32_t pathlen;
    uint32_t first; /* non-leaves: the first child's offset */
    uint32_t nkids; /* non-leaves: number of children */
    uint32_t next;  /* offset just past this record */
} pmns_image_node;

/* Children of a non-leaf, in order. */
typedef struct pmns_image_iter {
    uint32_t parent; /* the non-leaf's offset */
    uint32_t next;   /* offset of the next child */
    uint32_t left;   /* children still to come */
} pmns_image_iter;

/* The nodes of one PMID, last defined first. */
typedef struct pmns_image_pmid_iter {
    uint32_t pmid;
    uint32_t at, end; /* entry range of its bucket */
} pmns_image_pmid_iter;

/* ---- reading ---- */

/* 1 if buf (len bytes) starts with the image magic. */
int pmns_image_is_image(const void *buf, size_t len);

/* Map a file and check its header: 0 and *out, or a PMNS_IMG_E* code with
 * *err filled in (PMNS_IMG_ESYS: err->sys says why). */
int pmns_image_open_file(const char *path, pmns_image **out, pmns_image_error *err);

/* The same over len bytes at buf; with owned, pmns_image_close releases
 * buf with pmns_image_free. */
int pmns_image_open_buffer(const void *buf, size_t len, int owned, pmns_image **out,
                           pmns_image_error *err);

/* Release the image (unmap or free).  NULL is fine. */
void pmns_image_close(pmns_image *img);

/* The O(size) checks of pmnscomp --check that need no compiler: every
 * section checksum and the zero padding.  0 or an error code. */
int pmns_image_verify_body(const pmns_image *img, pmns_image_error *err);

/* Decode the record at off: 0, or PMNS_IMG_ECORRUPT. */
int pmns_image_node_at(const pmns_image *img, uint32_t off, pmns_image_node *nd);

/* The visible node called name[0..len) (a full dotted name; "" is the
 * root): its offset (and, if nd is not NULL, its record in *nd), or
 * PMNS_IMG_NONE. */
uint32_t pmns_image_find(const pmns_image *img, const char *name, size_t len, pmns_image_node *nd);

/* pmns_image_find in steps, so that a batch of lookups can overlap their
 * cache misses: pmns_image_probe hashes the name and prefetches its home
 * slot, pmns_image_prefetch_node (once the slot may have arrived)
 * prefetches the record the slot names, and pmns_image_find_hashed then
 * answers as pmns_image_find does.  The prefetches are only hints. */
uint32_t pmns_image_probe(const pmns_image *img, const char *name, size_t len);
void pmns_image_prefetch_node(const pmns_image *img, uint32_t hash);
/* Before a pmns_image_find of a leaf's full name in a large image (at
 * least PMNS_IMG_PARENT_PREFETCH_MIN non-leaf nodes): prefetch its
 * parent's record (found by the name up to its last dot), so that its
 * cache miss overlaps the leaf's.  Only a hint; nothing for smaller
 * images, where those records stay in the cache. */
#define PMNS_IMG_PARENT_PREFETCH_MIN 16384
void pmns_image_prefetch_parent(const pmns_image *img, const char *name, size_t len);
uint32_t pmns_image_find_hashed(const pmns_image *img, const char *name, size_t len, uint32_t hash,
                                pmns_image_node *nd);

/* Children of nd (any node; a leaf has none). */
void pmns_image_children(const pmns_image_node *nd, pmns_image_iter *it);
/* The next child into *c: 1, 0 at the end, or PMNS_IMG_ECORRUPT. */
int pmns_image_next(const pmns_image *img, pmns_image_iter *it, pmns_image_node *c);

/* The full dotted name of nd is head, a dot if head is not empty, and
 * tail.  For a leaf head is its parent's full name (decoded here). */
int pmns_image_name(const pmns_image *img, const pmns_image_node *nd, const char **head,
                    uint32_t *headlen, const char **tail, uint32_t *taillen);

/* Nodes with this PMID (not dynamic roots), last defined first. */
void pmns_image_pmid_first(const pmns_image *img, uint32_t pmid, pmns_image_pmid_iter *it);
/* The next node's offset into *off: 1, or 0 at the end. */
int pmns_image_pmid_next(const pmns_image *img, pmns_image_pmid_iter *it, uint32_t *off);

/* Entry i (0 <= i < img->nentries) of the PMID index, in index order:
 * 0, or PMNS_IMG_ECORRUPT if i is out of range. */
int pmns_image_entry(const pmns_image *img, uint32_t i, uint32_t *pmid, uint32_t *off);

/* Slot i (0 <= i < img->nslots) of the name index: 0 with the name's hash
 * and its node's offset, 1 if the slot is empty, or PMNS_IMG_ECORRUPT if i
 * is out of range. */
int pmns_image_slot(const pmns_image *img, uint32_t i, uint32_t *hash, uint32_t *off);

/* Write the namespace as canonical ASCII PMNS text (pmnscomp --dump):
 * groups in depth-first order, children in order, derived nodes left out.
 * 0, PMNS_IMG_ECORRUPT, PMNS_IMG_ENOMEM, or PMNS_IMG_ESYS if writing
 * failed. */
int pmns_image_dump(const pmns_image *img, FILE *fp);

/* A parsed namespace tree (libpcp/front's pmns.h) as an image, sealed or
 * not as pmns_image_finish says: 0 with *image (*len bytes, released with
 * pmns_image_free), or a PMNS_IMG_E* code (PMNS_IMG_ENOMEM if memory ran
 * out; pmns_image_tree.c). */
struct pmns_tree;
int pmns_tree_image(const struct pmns_tree *t, int seal, uint8_t **image, size_t *len);

/* What pmns_image_canonical found wrong. */
typedef struct pmns_canonical {
    size_t at;     /* PMNS_CANON_DIFFERS: the first offset that differs */
    char why[512]; /* PMNS_CANON_NOPARSE: "line N: " and the first diagnostic */
} pmns_canonical;
#define PMNS_CANON_DIFFERS 1 /* the text compiles to other bytes */
#define PMNS_CANON_NOPARSE 2 /* the text does not compile */

/* Is img in canonical form: does its own text (pmns_image_dump), compiled
 * again as pmnscomp compiles it (duplicates allowed, the derived names
 * grafted), give the same bytes?  0 yes, PMNS_CANON_DIFFERS or
 * PMNS_CANON_NOPARSE with c filled in, or a PMNS_IMG_E* code.  name is
 * the file named in diagnostics. */
int pmns_image_canonical(const pmns_image *img, const char *name, pmns_canonical *c);

/* Text for an error code. */
const char *pmns_image_strerror(int code);

/* The format's hashes (docs/pmns-format.md §7): the name hash of the
 * NAME_INDEX, which readers that keep their own index of an image's names
 * (names/pmns.c) use too, and the section checksum. */
uint32_t pmns_image_hash(const char *s, size_t len);
uint32_t pmns_image_crc32c(uint32_t crc, const void *buf, size_t len);

/* A 32-bit hash scaled to [0, n): the home slot or bucket among n
 * (docs/pmns-format.md §5, §6). */
static inline uint32_t pmns_image_scale(uint32_t h, uint32_t n)
{
    return (uint32_t)(((uint64_t)h * n) >> 32);
}

/* ---- writing ---- */

typedef struct pmns_image_writer pmns_image_writer;

/* A writer holding just the root; NULL if memory ran out. */
pmns_image_writer *pmns_image_writer_new(void);

/* Add the next node in breadth-first order: its parent's index (the root
 * is 0, the first node added is 1, ...), its own name (not copied: it
 * must stay valid until pmns_image_finish), its PMID (PMNS_IMG_PMID_NULL
 * for a non-leaf) and whether it was added for the derived metrics.
 * 0, PMNS_IMG_EORDER (parent not before it, or before the previous
 * node's parent), PMNS_IMG_ETOOBIG or PMNS_IMG_ENOMEM. */
int pmns_image_add(pmns_image_writer *w, uint32_t parent, const char *name, size_t len,
                   uint32_t pmid, int derived);
/* Room for n nodes in all (the root included) at once: 0, or
 * PMNS_IMG_ENOMEM. */
int pmns_image_reserve(pmns_image_writer *w, uint32_t n);

/* Lay out the image: 0 with *image (*len bytes, released with
 * pmns_image_free), or an error.  With seal, the sections' checksums are
 * computed (a file); without, they are left 0 (an image that stays in
 * memory).  The writer is freed either way. */
int pmns_image_finish(pmns_image_writer *w, int seal, uint8_t **image, size_t *len);

/* The buffers of pmns_image_finish: zeroed memory for len bytes (NULL if
 * there is none), and its release.  NULL is fine for pmns_image_free. */
uint8_t *pmns_image_alloc(size_t len);
void pmns_image_free(uint8_t *image, size_t len);

/* Free a writer that was not finished.  NULL is fine. */
void pmns_image_writer_free(pmns_image_writer *w);

#endif /* PMKIT_FORMAT_PMNS_IMAGE_H */
