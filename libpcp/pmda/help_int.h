/*
 * help_int.h - the help database format (BASE.dir / BASE.pag, version 2,
 * as PCP's newhelp writes it): reader, validator and writer.  Private to
 * libpcp_pmda, newhelp, chkhelp and the tests; agents use the pmdaOpenHelp
 * family in <pcp/pmda.h>.
 *
 * Layout (docs/help-format.md), every field a 32-bit word in the byte order
 * of the machine that wrote it (PCP writes host order; pmkit writes
 * little-endian and reads either):
 *
 *   BASE.dir  record 0:   0x50635068 ("PcPh")  0x31320000 (dir, version 2)  N
 *             record 1-N: key  off_oneline  off_text
 *   BASE.pag  "PcPh22\n", then per entry in source order
 *             "\n@ " KEYWORD " " ONELINE "\0" TEXT "\0"
 *
 * A key is a PMID, or an InDom with bit 31 set.  Records are sorted PMIDs
 * first, then InDoms, each ascending by the low 22 bits, ties in source
 * order.
 */
#ifndef PMKIT_PMDA_HELP_INT_H
#define PMKIT_PMDA_HELP_INT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define HELP_MAGIC       0x50635068u /* record 0 key */
#define HELP_DIR_VERSION 0x31320000u /* record 0 off_oneline, high 16 bits */
#define HELP_PAG_HEADER  "PcPh22\n"
#define HELP_PAG_HDRLEN  7
#define HELP_INDOM_FLAG  0x80000000u /* set in InDom keys */

/* A help key's hash for the in-memory tables (help.c, newhelp): every
 * bit of the key moves the low bits, which pick the slot, so keys that
 * differ only in domain or cluster do not share one. */
static inline uint32_t help_key_mix(uint32_t k)
{
    k ^= k >> 16;
    k *= 0x7feb352du;
    k ^= k >> 15;
    k *= 0x846ca68bu;
    k ^= k >> 16;
    return k;
}

/* One index record, decoded to host order. */
typedef struct help_record {
    uint32_t key;         /* PMID, or InDom | HELP_INDOM_FLAG */
    uint32_t off_oneline; /* offset of the one-line text in the .pag */
    uint32_t off_text;    /* offset of the long text in the .pag */
} help_record;

/* The hash of an open database's keys, built on demand (help.c). */
typedef struct help_index help_index;

/*
 * An open database.  help_db_open checks what costs nothing to check: the
 * .dir's header, that the .dir is exactly its N + 1 records, that the .pag
 * starts with its header.  The records are read where a lookup needs them,
 * in place and in the file's byte order, so opening costs the same at any
 * size, as PCP's does.  Lookups scan the records as PCP does until the
 * scans have read HELP_SCAN_BUDGET(n) records between them; then one
 * lookup builds the index (a hash of the keys) and later ones use it.  A
 * lookup answers a record only if its offsets start NUL-terminated strings
 * inside the .pag.  Lookups may run in any number of threads at once.
 */
typedef struct help_db {
    const unsigned char *dir; /* the whole .dir, header first */
    size_t dirlen;            /* 12 * (n + 1) */
    uint32_t n;
    const char *pag; /* the whole .pag */
    size_t paglen;
    int big_endian;              /* the .dir was written big-endian */
    int dir_mapped;              /* dir is mmap'd (else malloc'd) */
    int pag_mapped;              /* pag is mmap'd (else malloc'd) */
    _Atomic(help_index *) index; /* NULL until built */
    _Atomic uint64_t scanned;    /* records the scans have read so far */
    _Atomic uint64_t text_end;   /* 1 + the offset of the .pag's last NUL
                                  * (0: none), + 1; 0 until first needed */
} help_db;

/* Records scanned (by all lookups together) before the index is built:
 * about what building it costs, so that a process making few lookups
 * never pays for it and one making many pays at most twice. */
#define HELP_SCAN_BUDGET(n) (16 * (uint64_t)(n) + 4096)

/* No such record (help_db_find). */
#define HELP_NONE UINT32_MAX

/*
 * Open a database held in two malloc'd buffers, taking ownership of them
 * (freed here on failure, by help_db_free otherwise): help_db_open_buffers
 * checks as help_db_open does, help_db_from_buffers every record too
 * (help_db_check).  0, or -EINVAL (not a version 2 help database, or
 * damaged) with a reason in why.
 */
int help_db_open_buffers(help_db *db, unsigned char *dir, size_t dirlen, char *pag, size_t paglen,
                         char *why, size_t whylen);
int help_db_from_buffers(help_db *db, unsigned char *dir, size_t dirlen, char *pag, size_t paglen,
                         char *why, size_t whylen);
/* Open BASE.dir and BASE.pag, mapped (read into memory when a file cannot
 * be mapped), checking only as described above; 0, -errno (-ENOENT, ...),
 * -EFBIG (a file over the input limit, input_limit.h, with the reason in
 * why), or -EINVAL as above.  A bad .dir is reported before a missing
 * .pag, as PCP does.  A .dir that is not a regular file has its header
 * read and checked before anything else is read, so that /dev/zero is
 * refused at once.  A pair that newhelp replaced while it was opened (it
 * removes the old .dir, then renames the new .pag and the new .dir into
 * place) is opened again, twice at most, then -EAGAIN: a .dir of one
 * database is never paired with the .pag of another. */
int help_db_open(help_db *db, const char *base, char *why, size_t whylen);
/* help_db_open, then help_db_check (chkhelp: every record checked). */
int help_db_load(help_db *db, const char *base, char *why, size_t whylen);
/* Every record's offsets: 0, or -EINVAL with the first fault in why. */
int help_db_check(help_db *db, char *why, size_t whylen);
void help_db_free(help_db *db);

/* Record i (0 .. n - 1, the file's record i + 1), decoded. */
help_record help_db_record(const help_db *db, uint32_t i);
/* The record with key: the first in file order, or with last the last one
 * (PCP's backward search for InDoms); HELP_NONE if there is none. */
uint32_t help_db_find(help_db *db, uint32_t key, int last);
/* The NUL-terminated string at off in the .pag, or NULL if off does not
 * start one inside it (a damaged record). */
const char *help_db_text(help_db *db, uint32_t off);
/* Build the index now (the tests); 0 or -ENOMEM. */
int help_db_index(help_db *db);

/* Map fd's file read-only: 1 with *buf and *len set (release with munmap),
 * or 0 if it cannot be mapped (not a regular file, empty, over max bytes). */
int help_map_fd(int fd, size_t max, char **buf, size_t *len);
/* The rest of fd (any kind of file) in one malloc'd buffer; 0, -EFBIG if it
 * holds more than max bytes (a regular file: known before anything is
 * read; a stream: after max + 1 bytes), or -errno. */
int help_read_fd(int fd, size_t max, char **buf, size_t *len);

/* One entry to write. */
typedef struct help_wentry {
    uint32_t key;     /* PMID, or InDom | HELP_INDOM_FLAG */
    const char *word; /* the key as written in the source */
    size_t word_len;
    const char *oneline; /* may hold any byte but NUL */
    size_t oneline_len;
    const char *text;
    size_t text_len;
} help_wentry;

/* A database image in memory, little-endian. */
typedef struct help_image {
    unsigned char *dir;
    size_t dirlen;
    char *pag;
    size_t paglen;
} help_image;

/* Lay out n entries as newhelp does (pag in the given order, index sorted
 * stably); 0 or -ENOMEM, -E2BIG (over 4 GiB of text or 2^32 entries). */
int help_image_build(const help_wentry *e, size_t n, help_image *img);
void help_image_free(help_image *img);

/* The same written to two files (the .pag streamed from the entries); 0,
 * -EIO if either stream failed, or as help_image_build. */
int help_write(const help_wentry *e, size_t n, FILE *dir, FILE *pag);

#endif /* PMKIT_PMDA_HELP_INT_H */
