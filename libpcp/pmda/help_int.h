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
_Static_assert(sizeof(help_record) == 12, "records are decoded in place, 12 bytes each");

/* A validated database held in memory. */
typedef struct help_db {
    unsigned char *dirbuf; /* the .dir as read; records decoded in place */
    help_record *rec;      /* n records in file order (dirbuf + 12) */
    uint32_t n;
    char *pag; /* the whole .pag; every offset in rec is checked to
                * start a NUL-terminated string inside it */
    size_t paglen;
    uint32_t *slots; /* open-addressing index of keys: record + 1, the
                      * first record in file order with the key; 0 empty */
    uint32_t mask;   /* slots has mask + 1 entries */
    uint32_t *last;  /* NULL if no key repeats; else last[i] is the last
                      * record in file order with the key of record i */
    int big_endian;  /* the .dir was written big-endian */
    int mapped;      /* pag is mmap'd (else malloc'd) */
} help_db;

/*
 * Build a database from the two files' contents.  Takes ownership of dir
 * and pag (malloc'd; freed here on failure, by help_db_free otherwise).
 * 0, or -EINVAL (not a version 2 help database, or damaged) with a reason
 * in why, or -ENOMEM.
 */
int help_db_from_buffers(help_db *db, unsigned char *dir, size_t dirlen, char *pag, size_t paglen,
                         char *why, size_t whylen);
/* Read BASE.dir, map BASE.pag (read it if it cannot be mapped); 0, -errno
 * (-ENOENT, ...), -EFBIG (a file read whole is over the input limit,
 * input_limit.h, with the reason in why), or as above.  The .dir's header
 * is read first and checked, so that /dev/zero or a huge file is refused at
 * once; a .dir replaced while the pair is read is read again (twice at
 * most, then -EAGAIN), so a reader never pairs an old .dir with a new .pag
 * that newhelp put in place meanwhile. */
int help_db_load(help_db *db, const char *base, char *why, size_t whylen);
void help_db_free(help_db *db);

/* Map fd's file read-only: 1 with *buf and *len set (release with munmap),
 * or 0 if it cannot be mapped (not a regular file, empty, over max bytes). */
int help_map_fd(int fd, size_t max, char **buf, size_t *len);
/* The rest of fd (any kind of file) in one malloc'd buffer; 0, -EFBIG if it
 * holds more than max bytes (a regular file: known before anything is
 * read; a stream: after max + 1 bytes), or -errno. */
int help_read_fd(int fd, size_t max, char **buf, size_t *len);

/* The record with key: the first in file order, or with last the last one
 * (PCP's backward search for InDoms); NULL if there is none. */
const help_record *help_db_find(const help_db *db, uint32_t key, int last);

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
