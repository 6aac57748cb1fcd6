/*
 * arch_int.h - private to libpcp/archive: the files of an archive, the
 * byte readers, the metadata tables and the set that ties them together.
 * Nothing outside this directory includes it (archive.h is the interface).
 */
#ifndef PMKIT_ARCH_INT_H
#define PMKIT_ARCH_INT_H

#include "archive.h"

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* ------------------------------------------------------------------ */
/* Big-endian fields, read byte by byte. */

static inline uint32_t arch_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t arch_be64(const uint8_t *p)
{
    return (uint64_t)arch_be32(p) << 32 | arch_be32(p + 4);
}

/* A v3 time: the seconds as two big-endian words, low word first (as PCP
 * 6.0.3 writes and reads them), then the nanoseconds. */
static inline void arch_stamp3(const uint8_t *p, struct timespec *t)
{
    uint64_t sec = (uint64_t)arch_be32(p + 4) << 32 | arch_be32(p);

    t->tv_sec = (time_t)(int64_t)sec;
    t->tv_nsec = (long)arch_be32(p + 8);
}

/* A v2 time: seconds and microseconds, both 32 bits. */
static inline void arch_stamp2(const uint8_t *p, struct timespec *t)
{
    t->tv_sec = (time_t)(int32_t)arch_be32(p);
    t->tv_nsec = (long)arch_be32(p + 4) * 1000;
}

/* Bytes of a timestamp on disk. */
static inline size_t arch_stamp_len(int version)
{
    return version == PM_LOG_VERS03 ? 12 : 8;
}

static inline void arch_stamp(int version, const uint8_t *p, struct timespec *t)
{
    if (version == PM_LOG_VERS03)
        arch_stamp3(p, t);
    else
        arch_stamp2(p, t);
}

/* ------------------------------------------------------------------ */
/* Files (file.c): raw, or compressed and decompressed on demand into an
 * unlinked temporary file, read with pread either way. */

enum { AF_RAW, AF_XZ, AF_LZMA, AF_BZ2, AF_GZ, AF_MEM };

struct af_dec;

typedef struct arch_file {
    int fd;             /* the file as found; -1 when closed (AF_MEM: 0) */
    int kind;           /* AF_* */
    int tmp;            /* compressed: the bytes decompressed so far; -1 */
    uint64_t have;      /* compressed: how many */
    int done;           /* compressed: the decoder reached the end */
    int err;            /* compressed: a sticky decoding error */
    struct af_dec *dec; /* compressed: decoder state */
    const uint8_t *mem; /* AF_MEM: the bytes (the caller's), and how many */
    uint64_t memlen;
} arch_file;

/* The compression suffix of name (".xz", ...): its AF_* kind and length,
 * or AF_RAW and 0. */
int afile_suffix(const char *name, size_t *len);
/* Open path as kind: 0 or -errno. */
int afile_open(arch_file *f, const char *path, int kind);
/* A file of len bytes at mem (which must outlive it): for tests. */
void afile_open_mem(arch_file *f, const uint8_t *mem, size_t len);
void afile_close(arch_file *f);
/* Read up to len bytes at off: the count (short at the end), or an error
 * (-errno, PM_ERR_LOGREC for compressed data that does not decode). */
ssize_t afile_read(arch_file *f, uint64_t off, void *buf, size_t len);
/* The bytes in the file now (decompressing all of a compressed one). */
int afile_size(arch_file *f, uint64_t *size);
/* All of f decompressed, as a new descriptor at offset 0 the caller
 * closes: the descriptor, or an error (pmfile.c's compressed files). */
int afile_plain_fd(arch_file *f);

/* A window over a file: the bytes [off, off + len) held in buf. */
typedef struct arch_win {
    uint8_t *buf;
    size_t cap;
    uint64_t off;
    size_t len;
    size_t chunk; /* bytes of the last refill (file.c) */
} arch_win;

void win_free(arch_win *w);
/* Forget what the window holds (the file may have changed). */
static inline void win_reset(arch_win *w)
{
    w->len = 0;
}
/* The reader jumped (a seek): the next refill is a small one. */
static inline void win_jumped(arch_win *w)
{
    w->chunk = 0;
}
/*
 * The bytes [off, off + len) of f: a pointer into the window, or NULL with
 * *err 0 when the file ends first, else an error.  dir says which way the
 * reader goes, so that a refill keeps the bytes it will want next.
 */
const uint8_t *win_get(arch_win *w, arch_file *f, uint64_t off, size_t len, int dir, int *err);

/*
 * One framed record (a length word, the payload, the length again) at off
 * going forward, or ending at off going backward.  Returns REC_OK and
 * fills *start and *len (of the whole record), REC_END when no byte is
 * left that way, REC_SHORT when the file ends inside the record, or
 * PM_ERR_LOGREC when the length words are impossible or disagree.
 */
enum { REC_END = 0, REC_OK = 1, REC_SHORT = 2 };
int rec_frame_any(arch_win *w, arch_file *f, uint64_t off, int dir, uint32_t minlen,
                  uint64_t *start, uint32_t *len, const uint8_t **bytes);
/* The same; most calls, a sound record read forward wholly in the window
 * already, are answered here (minlen is 4 or more). */
static inline int rec_frame(arch_win *w, arch_file *f, uint64_t off, int dir, uint32_t minlen,
                            uint64_t *start, uint32_t *len, const uint8_t **bytes)
{
    if (dir > 0 && off >= w->off && off - w->off <= w->len && w->len - (off - w->off) >= 4) {
        const uint8_t *p = w->buf + (off - w->off);
        uint32_t n = arch_be32(p);
        if (n <= w->len - (off - w->off) && n >= minlen && n <= ARCH_MAX_RECORD &&
            arch_be32(p + n - 4) == n) {
            *start = off;
            *len = n;
            *bytes = p;
            return REC_OK;
        }
    }
    return rec_frame_any(w, f, off, dir, minlen, start, len, bytes);
}

/* ------------------------------------------------------------------ */
/* Labels (label.c). */

/* Read and check the label record at the start of f: 0, PM_ERR_NODATA
 * for an empty file, PM_ERR_LABEL for anything else wrong.  *len is the
 * length of the label record (where the next record starts). */
int label_read(arch_file *f, arch_label *lab, uint32_t *len);
/* Do two labels of one archive agree (everything but vol)? */
int label_same(const arch_label *a, const arch_label *b);

/* ------------------------------------------------------------------ */
/* A map from 32-bit keys to 32-bit values (map.c): open addressing. */
typedef struct u32map {
    uint32_t *keys;
    uint32_t *vals;
    uint8_t *used;
    uint32_t cap; /* a power of 2, or 0 */
    uint32_t n;
} u32map;

void u32map_free(u32map *m);
/* The value of key, or UINT32_MAX. */
uint32_t u32map_get(const u32map *m, uint32_t key);
/* Set key to val: 0, or -ENOMEM. */
int u32map_put(u32map *m, uint32_t key, uint32_t val);
/* The value of key, if it has one, in *val (1); else key is set to *val
 * (0); or -ENOMEM. */
int u32map_add(u32map *m, uint32_t key, uint32_t *val);
/* Room for n keys in all without growing again: 0, or -ENOMEM. */
int u32map_reserve(u32map *m, uint32_t n);

/* Strings (not copied: they must outlive the map) to 32-bit values; the
 * first value added for a string stays. */
typedef struct strmap_ent {
    const char *s; /* NULL: an empty slot */
    size_t n;
    uint32_t val;
} strmap_ent;

typedef struct strmap {
    strmap_ent *ent;
    uint32_t cap, n;
} strmap;

void strmap_free(strmap *m);
/* The value of s (n bytes), or UINT32_MAX. */
uint32_t strmap_get(const strmap *m, const char *s, size_t n);
/* s -> val unless s is there already: 0, or -ENOMEM. */
int strmap_add(strmap *m, const char *s, size_t n, uint32_t val);

/* ------------------------------------------------------------------ */
/* Metadata tables (meta.c), one for the whole set. */

typedef struct meta_indom_obs {
    uint32_t seq; /* its place in .meta, counting every observation */
    struct timespec stamp;
    int delta;         /* v3 delta record */
    int n;             /* instances (added and removed, for a delta) */
    int *inst;         /* n identifiers */
    const char **name; /* n names; NULL for a removed one (delta) */
} meta_indom_obs;

typedef struct meta_indom {
    pmInDom indom;
    int nobs, room;
    meta_indom_obs *obs; /* in time order, ties in .meta order */
    /* the last view made by arch_indom_at: observation index and arrays */
    int view_at;
    int view_n;
    int *view_inst;
    const char **view_name;
    /* every instance ever observed, newest first (made when first asked),
     * and indexes into it: by identifier, by name, by first word */
    int nunion; /* -1 until made */
    int *union_inst;
    const char **union_name;
    u32map union_by_inst;
    strmap union_by_name, union_by_word;
} meta_indom;

typedef struct meta_labels {
    struct timespec stamp;
    int type;
    int ident;
    int nsets;
    pmLabelSet *sets; /* nsets, json and labels in their own blocks */
} meta_labels;

typedef struct meta_text {
    int type;
    int ident;
    char *text;
} meta_text;

typedef struct arch_meta {
    /* descriptors, in .meta order, and by PMID */
    pmDesc *descs;
    int ndescs, descroom;
    u32map desc_by_pmid;
    /* names, in .meta order: the name's text and its PMID */
    char **names;
    pmID *name_pmid;
    int nnames, nameroom;
    uint32_t *name_hashes; /* each name's hash, kept for the table's growth */
    uint32_t *nametab;     /* names by hash of (name): indexes, UINT32_MAX empty */
    uint32_t namecap;
    /* instance domains */
    meta_indom *indoms;
    int nindoms, indomroom;
    u32map indom_by_id;
    uint32_t nobs; /* observations of every domain (the next seq) */
    meta_labels *labels;
    int nlabels, labelroom;
    meta_text *texts;
    int ntexts, textroom;
    /* arena for names and strings: chunks freed together */
    struct meta_chunk *chunks;
} arch_meta;

/* Read every record of a .meta file after its label into m.  0, or
 * PM_ERR_LOGREC and friends. */
int meta_load(arch_meta *m, arch_file *f, uint32_t from);
void meta_free(arch_meta *m);

/* ------------------------------------------------------------------ */
/* One archive and the set. */

typedef struct arch_vol {
    int num;        /* volume number */
    char *path;     /* its file */
    int kind;       /* AF_* */
    arch_file file; /* open when file.fd >= 0 */
    uint64_t used;  /* the set's clock when last used */
} arch_vol;

typedef struct arch_one {
    char *base; /* the base name */
    arch_label label;
    uint32_t labellen; /* the label record's length: where data starts */
    arch_vol *vols;    /* sorted by number */
    int nvols;
    arch_file index;  /* the temporal index; fd -1 when there is none */
    uint32_t tistart; /* where its entries start (its label's length) */
    uint32_t tisize;  /* bytes of an entry */
    uint64_t nti;     /* complete entries */
    uint8_t *tibuf;   /* the nti entries' bytes, read on first use (index.c) */
    int tiload;       /* 1 read, -1 not to be held (too big, unreadable), 0 */
} arch_one;

struct arch_set {
    arch_one *arch; /* in time order */
    int narch;
    int flags;
    uint64_t clock; /* bumped by each use of a volume */
    arch_meta meta;
};

/* The open file of volume v of archive a (opened on first use). */
int arch_vol_file(arch_set *s, int a, int v, arch_file **f);

/* The temporal index of a (index.c), its file open and labelled: count
 * its entries.  0 or an error. */
int index_open(arch_one *a);
/* Entry j of a's index: 0, or an error reading it. */
int index_entry(arch_one *a, uint64_t j, arch_ti *ti);

#endif /* PMKIT_ARCH_INT_H */
