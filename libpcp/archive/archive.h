/*
 * archive.h - the archive room's interface to the rest of libpcp and to
 * the tools built on it (pmdumplog): PCP archives of versions 2 and 3
 * (LOGARCHIVE(5); docs/archive-format.md has the layouts as pmkit reads
 * them), opened, described and read, and nothing else.
 *
 * An archive set is what an archive context reads: one archive (the files
 * sharing a base name: NAME.meta, NAME.index, the data volumes NAME.0,
 * NAME.1, ..., each possibly compressed) or several, from a comma
 * separated list or a directory, in time order.  Opening a set reads
 * every label and every archive's metadata (.meta) and temporal index
 * (.index) into tables; data volumes are read record by record, never
 * whole, through cursors.  Memory after opening grows with the metadata
 * and the index, not with the data.
 *
 * Every byte read from a file is checked before it is used: a damaged
 * archive gives PCP's errors (PM_ERR_LABEL, PM_ERR_LOGREC, ...), never a
 * read outside a record or an allocation larger than the bytes present.
 * Nothing here keeps global state; a set may be read by one thread at a
 * time (the caller's lock), and each cursor belongs to its owner.
 */
#ifndef PMKIT_ARCHIVE_H
#define PMKIT_ARCHIVE_H

#include <pcp/pmapi.h>

#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* Times compared: a < b: -1, a == b: 0, a > b: 1 (for the room's
 * clients too: contexts, pmdumplog). */
static inline int arch_cmp(const struct timespec *a, const struct timespec *b)
{
    if (a->tv_sec != b->tv_sec)
        return a->tv_sec < b->tv_sec ? -1 : 1;
    if (a->tv_nsec != b->tv_nsec)
        return a->tv_nsec < b->tv_nsec ? -1 : 1;
    return 0;
}

/* a - b in nanoseconds (each time's nanoseconds as they come, a count
 * of a billion or more included, as PCP's sums take them), held at
 * INT64_MIN or INT64_MAX where the seconds differ by more than 64 bits
 * of nanoseconds hold: a time asked for, or a damaged file's, may be
 * anything. */
static inline int64_t arch_ns_between(const struct timespec *a, const struct timespec *b)
{
    /* room left for nanoseconds differing by up to 2^32 * 1000 (a
     * version 2 time's microseconds) */
    const int64_t most = INT64_MAX / 1000000000 - 5000;
    int64_t secs;

    if (__builtin_sub_overflow((int64_t)a->tv_sec, (int64_t)b->tv_sec, &secs) || secs > most ||
        secs < -most)
        return (int64_t)a->tv_sec > (int64_t)b->tv_sec ? INT64_MAX : INT64_MIN;
    return secs * 1000000000 + ((int64_t)a->tv_nsec - (int64_t)b->tv_nsec);
}

/* Limits on what a file may ask for (docs/compat.md): a record longer
 * than this is damaged, whatever the file holds. */
#define ARCH_MAX_RECORD (256u << 20)

/* The label of an archive, both versions. */
typedef struct arch_label {
    int version;                       /* PM_LOG_VERS02 or PM_LOG_VERS03 */
    int magic;                         /* PM_LOG_MAGIC | version, as pmLogLabel's */
    int pid;                           /* the logger's process */
    struct timespec start;             /* start of the archive (v2: microseconds) */
    int vol;                           /* volume of the file it came from */
    uint32_t features;                 /* v3 feature bits; 0 for v2 */
    char hostname[PM_MAX_HOSTNAMELEN]; /* NUL-terminated (v2: 64 bytes at most) */
    char timezone[PM_MAX_TIMEZONELEN]; /* $TZ at the host (v2: 40 bytes at most) */
    char zoneinfo[PM_MAX_ZONEINFOLEN]; /* v3: :Area/City or empty */
} arch_label;

typedef struct arch_set arch_set;
typedef struct arch_cursor arch_cursor;

/* Open flags. */
#define ARCH_OPEN_NO_FEATURE_CHECK 1 /* accept unknown v3 feature bits */

/*
 * Open the archives named by spec: a base name, any file of an archive
 * (NAME.meta, NAME.0, NAME.index, with or without a compression suffix),
 * a directory (every archive in it) or a comma separated list of those.
 * 0 and *out, or PCP's error: -ENOENT for no such archive,
 * PM_ERR_LOGFILE for an empty name, PM_ERR_LABEL, PM_ERR_NODATA,
 * PM_ERR_LOGREC, PM_ERR_LOGHOST, PM_ERR_LOGOVERLAP, PM_ERR_LOGCHANGE*, ...
 */
int arch_open(const char *spec, int flags, arch_set **out);
void arch_close(arch_set *s);

/* One archive from bytes in memory, for tests: its .meta, its .index
 * (indexlen 0 for none) and its volume 0, which must outlive the set. */
int arch_open_mem(const uint8_t *meta, size_t metalen, const uint8_t *index, size_t indexlen,
                  const uint8_t *vol, size_t vollen, int flags, arch_set **out);

/* Archives in the set (>= 1) and the label of archive i. */
int arch_count(const arch_set *s);
const arch_label *arch_label_of(const arch_set *s, int i);
/* The base name of archive i (valid while the set is open), or NULL. */
const char *arch_base_of(const arch_set *s, int i);

/*
 * The logical end: the time of the last complete record of the last
 * archive (an archive still being written may end in a partial record,
 * which is not counted).  0, or PM_ERR_LOGREC for a damaged last volume.
 * The answer is recomputed on each call, as a logger may have added
 * records meanwhile.
 */
int arch_end(arch_set *s, struct timespec *end);

/* arch_end's answer kept by a caller (zeroed at first): the same answer,
 * computed again only when the size of the set's last volume (where a
 * logger appends) differs from the last call's, as it does when records
 * are added; else one stat of the file. */
typedef struct arch_end_memo {
    int valid;
    uint64_t size;
    struct timespec end;
} arch_end_memo;
int arch_end_memo_get(arch_set *s, arch_end_memo *m, struct timespec *end);

/* ------------------------------------------------------------------ */
/* Metadata: the union of every archive's .meta, in time order. */

/* The descriptor of pmid: 0, or PM_ERR_PMID_LOG. */
int arch_desc(const arch_set *s, pmID pmid, pmDesc *desc);

/* Every metric name, in the order the .meta files give them: the count,
 * and through name_at the i-th name and its PMID. */
int arch_nnames(const arch_set *s);
const char *arch_name_at(const arch_set *s, int i, pmID *pmid);

/* Every PMID with a descriptor, in .meta order: count and i-th. */
int arch_npmids(const arch_set *s);
pmID arch_pmid_at(const arch_set *s, int i);

/* The names of pmid (pointers into the set, valid while it is open):
 * the count written into names[0..max), and the total. */
int arch_names_of(const arch_set *s, pmID pmid, const char **names, int max);

/* An instance domain as observed at one time: n instances, parallel
 * arrays valid until the next call on the set for that domain. */
typedef struct arch_indom_view {
    int n;
    const int *inst;
    const char *const *name;
    struct timespec stamp; /* time of the observation in effect */
} arch_indom_view;

/*
 * The instance domain at time t: the last observation at or before t,
 * with v3 deltas applied.  0, or PM_ERR_INDOM_LOG when the archive has no
 * observation of indom at or before t.
 */
int arch_indom_at(arch_set *s, pmInDom indom, const struct timespec *t, arch_indom_view *v);

/* Every instance ever observed in indom, each identifier once, in the
 * order PCP's pmGetInDomArchive gives: count, or PM_ERR_INDOM_LOG.  Arrays
 * malloc'd (names in one block with their pointers), as PCP's. */
int arch_indom_union(const arch_set *s, pmInDom indom, int **inst, char ***names);

/* The first instance of indom's union (pmGetInDomArchive's order) with
 * identifier inst, or (name not NULL) called name, else whose name's
 * first word is name: 0 and *found, *foundname (valid while the set is
 * open), PM_ERR_INST_LOG or PM_ERR_INDOM_LOG. */
int arch_indom_union_find(const arch_set *s, pmInDom indom, int inst, const char *name, int *found,
                          const char **foundname);

/* Over every observation of indom (or of every indom when indom is
 * PM_INDOM_NULL) in .meta order, without deltas applied: the on-disk
 * records as pmdumplog -I shows them.  The callback's return stops the
 * walk when not 0.  For a delta, a removed instance has a NULL name. */
typedef struct arch_indom_rec {
    pmInDom indom;
    struct timespec stamp;
    int delta; /* 1 for a v3 delta record */
    int n;
    const int *inst;
    const char *const *name;
} arch_indom_rec;
int arch_indom_walk(arch_set *s, pmInDom indom, int (*fn)(const arch_indom_rec *, void *),
                    void *arg);

/* Help text of ident for type (PM_TEXT_ONELINE or PM_TEXT_HELP, with
 * PM_TEXT_PMID or PM_TEXT_INDOM): 0 and a pointer into the set, or
 * PM_ERR_TEXT. */
int arch_text(const arch_set *s, int type, int ident, const char **text);

/*
 * The label sets of one class (PM_LABEL_CONTEXT, _DOMAIN, _INDOM,
 * _CLUSTER, _ITEM, _INSTANCES) and ident in effect at time t: the count
 * and *sets, malloc'd as pmLookupLabels' answers are (pmFreeLabelSets);
 * 0 and NULL when there are none.
 */
int arch_labels_at(const arch_set *s, int type, int ident, const struct timespec *t,
                   pmLabelSet **sets);

/* Every label record, in .meta order (the label sets' table's input). */
typedef struct arch_label_rec {
    struct timespec stamp;
    int type;  /* PM_LABEL_* class */
    int ident; /* domain, indom, cluster or item id; PM_ID_NULL for context */
    int nsets;
    const pmLabelSet *sets;
} arch_label_rec;
int arch_label_walk(const arch_set *s, int (*fn)(const arch_label_rec *, void *), void *arg);

/*
 * The label sets' table as Debian's library keeps it (__pmLogCtl's
 * hashlabels, <pcp/libpcp.h>), into types (empty, as __pmHashInit leaves
 * it): a table of classes whose data are tables of identifiers whose data
 * are chains of __pmLogLabelSet, newest first, each set kept where it
 * changes (labeltable.c has the rules).  0, or -ENOMEM with what was
 * built left for arch_label_table_free, which empties types.
 */
struct __pmHashCtl;
int arch_label_table(const arch_set *s, struct __pmHashCtl *types);
void arch_label_table_free(struct __pmHashCtl *types);

/* Every help text, in .meta order (pmdumplog -h). */
int arch_text_walk(const arch_set *s, int (*fn)(int type, int ident, const char *text, void *),
                   void *arg);

/* ------------------------------------------------------------------ */
/* The temporal index of archive i, entry by entry (pmdumplog -t). */
typedef struct arch_ti {
    struct timespec stamp;
    int vol;
    uint64_t meta_off; /* bytes of .meta written before */
    uint64_t data_off; /* bytes of the volume written before */
} arch_ti;
uint64_t arch_nindex(const arch_set *s, int i);
int arch_index_entry(arch_set *s, int i, uint64_t j, arch_ti *ti);

/* ------------------------------------------------------------------ */
/* Cursors over the data records, across volumes and archives. */

#define ARCH_FORW 1
#define ARCH_BACK (-1)

/* One record, as a cursor found it: its place, time and payload (the
 * bytes between the two length words), valid until the cursor moves. */
typedef struct arch_record {
    int archive;           /* index in the set */
    int vol;               /* data volume */
    uint64_t off;          /* offset of the record's first length word */
    uint32_t len;          /* the record's length, both length words included */
    struct timespec stamp; /* its time */
    int numpmid;           /* value sets (0: a <mark> record) */
    const uint8_t *body;   /* the payload, len - 8 bytes */
} arch_record;

/* A new cursor before the first record; NULL when out of memory. */
arch_cursor *arch_cursor_new(arch_set *s);
arch_cursor *arch_cursor_dup(const arch_cursor *c);
void arch_cursor_free(arch_cursor *c);

/* Place the cursor at the start (before the first record) or the end
 * (after the last complete record). */
void arch_cursor_start(arch_cursor *c);
int arch_cursor_end(arch_cursor *c);

/*
 * Place the cursor at time t for reading in direction dir: forward, before
 * the first record at or after t; backward, after the last record before
 * t, or after the first record at t when there are some (PCP's place).
 * Uses the temporal index, then reads record headers forward.
 * 0, or an error reading the files.
 */
int arch_cursor_seek(arch_cursor *c, const struct timespec *t, int dir);

/*
 * Place the cursor where Debian's pmSetMode leaves its data file for time
 * t and direction dir, from where PCP's __pmLogRead_ctx reads on (the
 * archive is the one arch_cursor_seek picks).  Without a temporal index:
 * forward, the start of the first volume; backward, the end of the last.
 * With one: at or before the first entry's time, the first entry; past
 * the last's, the last; between two entries, the nearer (the later half
 * way), and going forward from the earlier one, one record before it.
 * The entries are read in the file's order, as Debian's reads them (a
 * damaged index out of time order included).  0; 1 when the entry names
 * a volume the archive lacks or a place past its file's end, where
 * Debian's file stays where it was (c does not move); PM_ERR_LOGREC for an
 * index that cannot be read.  The first archive's entries come from src
 * when it is not NULL (Debian's reads its __pmLogCtl's table, which a
 * program may change: pmlogcheck empties it when it finds it damaged).
 * *noted: the offset Debian's notes in ac_offset (where c stands, or the
 * missing volume's entry's).
 */
typedef struct arch_ti_src {
    uint64_t n;                                     /* entries */
    int (*get)(void *arg, uint64_t j, arch_ti *ti); /* entry j: 0, or an error */
    void *arg;
} arch_ti_src;
int arch_cursor_pcp_seek(arch_cursor *c, const struct timespec *t, int dir, const arch_ti_src *src,
                         uint64_t *noted);
/* Where c stands: its archive (the return), the volume's number and the
 * offset in it; and c moved to such a place (0, or PM_ERR_LOGREC for a
 * volume the archive lacks). */
int arch_cursor_where(const arch_cursor *c, int *vol, uint64_t *off);
int arch_cursor_goto(arch_cursor *c, int a, int vol, uint64_t off);

/*
 * The next record in direction dir: 1 and *rec (the cursor moves past it),
 * 0 at the end (or the start, backward), or PM_ERR_LOGREC for a damaged
 * record (the cursor stays).
 */
int arch_cursor_step(arch_cursor *c, int dir, arch_record *rec);

/* The next step forward from a seek's place will be followed by a step
 * back from the same place (an interpolated fetch wants the records on
 * both sides of a time): the first reads the record before too, when the
 * seek read its head, in the same read. */
void arch_cursor_both_ways(arch_cursor *c);

/* The record as a result: 0 and *res (freed with pmFreeHighResResult), or
 * PM_ERR_LOGREC when its value sets do not fit the record. */
int arch_record_result(const arch_set *s, const arch_record *rec, pmHighResResult **res);

/* A set of PMIDs to select value sets by: NULL when out of memory. */
typedef struct arch_pmids arch_pmids;
arch_pmids *arch_pmids_new(const pmID *pmids, int n);
void arch_pmids_free(arch_pmids *p);

/* The same with only the value sets whose PMIDs sel has, in the record's
 * order: the whole record checked as arch_record_result checks it (in
 * the same pass that finds them), the others not decoded. */
int arch_record_select(const arch_set *s, const arch_record *rec, const arch_pmids *sel,
                       pmHighResResult **res);
/* The same in a block of the caller's, *buf of *cap bytes (NULL and 0 at
 * first), replaced by a larger one (*buf, *cap) when the result does not
 * fit: *res is then *buf, freed with it (not with pmFreeHighResResult); so
 * a reader of record after record allocates only when one is larger. */
int arch_record_select_in(const arch_set *s, const arch_record *rec, const arch_pmids *sel,
                          void **buf, size_t *cap, pmHighResResult **res);

/* Where a cursor stands: the archive it is in, for the label PCP reports. */
int arch_cursor_archive(const arch_cursor *c);

#endif /* PMKIT_ARCHIVE_H */
