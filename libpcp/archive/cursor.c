/*
 * cursor.c - reading the data records of a set, forward and backward,
 * across volumes and archives, and finding a time.
 *
 * A cursor stands between two records: in archive a, volume v (an index
 * into the archive's volumes), at byte off, where the next record forward
 * starts and the next record backward ends.  Stepping frames one record
 * through the cursor's window and moves past it; at the end of a volume
 * it moves on to the next volume, then the next archive (backward: the
 * previous ones).  A record cut short is PM_ERR_LOGREC, as in PCP, even
 * at the end of the last volume, where a logger may be writing it: there
 * it marks the logical end for arch_cursor_end and seeks, and a step
 * later may find the record whole.
 *
 * A seek picks the archive by its label's start, then the last index
 * entry before the time (a binary search over the index, which index.c
 * holds in memory), and reads record headers forward from there: each
 * head with the closing length word of the record before, the last
 * PEEK_MEMO kept for the next seek, which an interpolated fetch makes
 * near this one.  When the time is nearer the entry after it, the
 * records are read back from that entry instead (each head with the
 * closing length word of the record before) to the last one before the
 * time, and forward from there.  Entries that name a volume the
 * archive lacks, or an offset before the data, are passed over; an
 * archive without an index is read from its start.
 *
 * arch_cursor_pcp_seek places a cursor where Debian's pmSetMode leaves its
 * data file instead (an index entry near the time, found Debian's way),
 * for PCP's own record reader (__pmLogRead_ctx), which reads on from
 * there whatever the records' times.
 */
#include "arch_int.h"

#include <pcp/libpcp.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct arch_cursor_posn {
    int a, v;
    uint64_t off;
} arch_cursor_posn;

/* A whole record's time and length found by peek_record. */
typedef struct arch_peek {
    int a, v; /* v -1: an empty slot */
    uint64_t off;
    uint32_t len;
    struct timespec stamp;
} arch_peek;

#define PEEK_MEMO 32           /* peeks remembered: a seek near the last reads none */
#define PEEK_HEAD (4 + 12 + 4) /* a record's length word, time and count, at most */

struct arch_cursor {
    arch_set *s;
    int a, v;     /* archive, volume index */
    uint64_t off; /* between records */
    arch_win win; /* over volume (wa, wv) */
    int wa, wv;
    int short_end; /* the last step forward met a record cut short at the
                    * end of the last volume: the logical end */
    arch_peek peeks[PEEK_MEMO];
    int next_peek; /* the slot the next peek replaces */
    /* the head of the record after the last one peeked, read with that
     * one's closing length word (v -1: none) */
    int ahead_a, ahead_v;
    uint64_t ahead_off;
    uint8_t ahead[PEEK_HEAD];
    /* the closing length word of the record ending at behind_off, read
     * with the head of the last record peeked back (v -1: none) */
    int behind_a, behind_v;
    uint64_t behind_off;
    uint32_t behind;
    int both; /* arch_cursor_both_ways: the next prefetch forward reads the
               * record before too */
};

/* Where a cursor is, kept to go back to. */
static arch_cursor_posn posn_of(const arch_cursor *c)
{
    return (arch_cursor_posn){c->a, c->v, c->off};
}

static void posn_restore(arch_cursor *c, arch_cursor_posn p)
{
    c->a = p.a;
    c->v = p.v;
    c->off = p.off;
}

/* The smallest data record: two length words, a time, a count. */
static uint32_t min_record(const arch_set *s, int a)
{
    return (uint32_t)(8 + arch_stamp_len(s->arch[a].label.version) + 4);
}

arch_cursor *arch_cursor_new(arch_set *s)
{
    arch_cursor *c = calloc(1, sizeof(*c));

    if (c != NULL) {
        c->s = s;
        c->wa = c->wv = -1;
        for (int i = 0; i < PEEK_MEMO; i++)
            c->peeks[i].v = -1;
        c->ahead_v = c->behind_v = -1;
        arch_cursor_start(c);
    }
    return c;
}

arch_cursor *arch_cursor_dup(const arch_cursor *c)
{
    arch_cursor *d = malloc(sizeof(*d));

    if (d != NULL) {
        *d = *c;
        memset(&d->win, 0, sizeof(d->win));
        d->wa = d->wv = -1;
    }
    return d;
}

void arch_cursor_free(arch_cursor *c)
{
    if (c == NULL)
        return;
    win_free(&c->win);
    free(c);
}

int arch_cursor_archive(const arch_cursor *c)
{
    return c->a;
}

void arch_cursor_start(arch_cursor *c)
{
    c->a = 0;
    c->v = 0;
    c->off = c->s->arch[0].labellen;
}

/* The file of the cursor's volume, with the window made its own. */
static int cur_file(arch_cursor *c, arch_file **f)
{
    int sts = arch_vol_file(c->s, c->a, c->v, f);

    if (sts == 0 && (c->wa != c->a || c->wv != c->v)) {
        win_reset(&c->win);
        c->wa = c->a;
        c->wv = c->v;
    }
    return sts;
}

/* The record peek_record found starting (end 0) or ending (end 1) at off
 * of volume v of archive a, or NULL. */
static const arch_peek *peek_known(const arch_cursor *c, int a, int v, uint64_t off, int end)
{
    for (int i = 0; i < PEEK_MEMO; i++) {
        const arch_peek *p = &c->peeks[i];
        if (p->v == v && p->a == a && (end ? p->off + p->len : p->off) == off)
            return p;
    }
    return NULL;
}

/* Before a step that the window cannot serve: a record a seek peeked at
 * is read whole, in one refill, where its length word alone would be
 * read first, then the rest. */
static void prefetch(arch_cursor *c, arch_file *f, int dir)
{
    const arch_peek *p, *b;
    uint64_t at = dir > 0 ? c->off : c->off - 4;
    int err, both = c->both;

    c->both = 0;
    if (c->off < 4 || (at >= c->win.off && at + 4 <= c->win.off + c->win.len))
        return;
    if ((p = peek_known(c, c->a, c->v, c->off, dir < 0)) == NULL)
        return;
    if (dir > 0 && both && (b = peek_known(c, c->a, c->v, c->off, 1)) != NULL)
        (void)win_get(&c->win, f, b->off, b->len + p->len, dir, &err); /* both records */
    else
        (void)win_get(&c->win, f, p->off, p->len, dir, &err); /* the step sees */
}

void arch_cursor_both_ways(arch_cursor *c)
{
    c->both = 1;
}

/* Time and value set count of a framed record, checked. */
static int header(const arch_set *s, int a, const uint8_t *p, uint32_t len, arch_record *rec)
{
    int version = s->arch[a].label.version;
    size_t st = arch_stamp_len(version);
    int32_t n;

    arch_stamp(version, p + 4, &rec->stamp);
    n = (int32_t)arch_be32(p + 4 + st);
    /* each value set takes two words at least */
    if (n < 0 || (size_t)n > (len - 8 - st - 4) / 8)
        return PM_ERR_LOGREC;
    rec->numpmid = n;
    rec->len = len;
    rec->body = p + 4;
    return 0;
}

static int is_last_volume(const arch_cursor *c)
{
    return c->a == c->s->narch - 1 && c->v == c->s->arch[c->a].nvols - 1;
}

/* Move to the start of the next volume of the archive: 1, or 0 when
 * there is none. */
static int next_volume(arch_cursor *c)
{
    if (c->v + 1 >= c->s->arch[c->a].nvols)
        return 0;
    c->v++;
    c->off = c->s->arch[c->a].labellen;
    return 1;
}

/* Move to the end of volume v of archive a: 0, or an error finding its
 * size. */
static int to_volume_end(arch_cursor *c, int a, int v)
{
    arch_file *f;
    uint64_t size;
    int sts;

    c->a = a;
    c->v = v;
    if ((sts = cur_file(c, &f)) < 0 || (sts = afile_size(f, &size)) < 0)
        return sts;
    c->off = size;
    return 0;
}

static int step_back(arch_cursor *c, arch_record *rec);
static int step_forw(arch_cursor *c, arch_record *rec);

/* A <mark> record that no file holds, at stamp. */
static void virtual_mark(arch_record *rec, int a, const struct timespec *stamp)
{
    memset(rec, 0, sizeof(*rec));
    rec->archive = a;
    rec->vol = -1;
    rec->stamp = *stamp;
}

/* The <mark> between two archives of a set, as PCP makes one: going
 * forward, a millisecond after the last record of the earlier archive;
 * going backward, a millisecond before the first record of the later one.
 * The cursor then moves into the next archive that way.  1, or an error
 * reading the record the time comes from. */
static int archive_mark(arch_cursor *c, int dir, arch_record *rec)
{
    arch_cursor_posn here = posn_of(c);
    arch_record near;
    struct timespec t;
    int sts;

    sts = dir > 0 ? step_back(c, &near) : step_forw(c, &near);
    posn_restore(c, here);
    if (sts < 0)
        return sts;
    t = sts > 0 ? near.stamp : c->s->arch[c->a].label.start;
    if (dir > 0) {
        t.tv_nsec += 1000000;
        if (t.tv_nsec >= 1000000000) {
            t.tv_sec++;
            t.tv_nsec -= 1000000000;
        }
        virtual_mark(rec, c->a, &t);
        c->a++;
        c->v = 0;
        c->off = c->s->arch[c->a].labellen;
        return 1;
    }
    t.tv_nsec -= 1000000;
    if (t.tv_nsec < 0) {
        t.tv_sec--;
        t.tv_nsec += 1000000000;
    }
    virtual_mark(rec, c->a - 1, &t);
    if ((sts = to_volume_end(c, c->a - 1, c->s->arch[c->a - 1].nvols - 1)) < 0) {
        posn_restore(c, here);
        return sts;
    }
    return 1;
}

static int step_forw(arch_cursor *c, arch_record *rec)
{
    for (;;) {
        arch_file *f;
        uint64_t start;
        uint32_t len;
        const uint8_t *p;
        int sts = cur_file(c, &f);
        if (sts < 0)
            return sts;
        prefetch(c, f, ARCH_FORW);
        sts = rec_frame(&c->win, f, c->off, ARCH_FORW, min_record(c->s, c->a), &start, &len, &p);
        if (sts == REC_OK) {
            if ((sts = header(c->s, c->a, p, len, rec)) < 0)
                return sts;
            rec->archive = c->a;
            rec->vol = c->s->arch[c->a].vols[c->v].num;
            rec->off = start;
            c->off = start + len;
            return 1;
        }
        if (sts == REC_SHORT) {
            /* cut short: a logger writing it, or damage; PCP says damage */
            c->short_end = is_last_volume(c);
            return PM_ERR_LOGREC;
        }
        if (sts < 0)
            return sts;
        if (next_volume(c))
            continue;
        if (c->a + 1 < c->s->narch)
            return archive_mark(c, ARCH_FORW, rec);
        return 0;
    }
}

static int step_back(arch_cursor *c, arch_record *rec)
{
    for (;;) {
        arch_file *f;
        uint64_t start;
        uint32_t len;
        const uint8_t *p;
        int sts;
        if (c->off <= c->s->arch[c->a].labellen) {
            if (c->v > 0) {
                if ((sts = to_volume_end(c, c->a, c->v - 1)) < 0)
                    return sts;
                continue;
            }
            return c->a > 0 ? archive_mark(c, ARCH_BACK, rec) : 0;
        }
        if ((sts = cur_file(c, &f)) < 0)
            return sts;
        prefetch(c, f, ARCH_BACK);
        sts = rec_frame(&c->win, f, c->off, ARCH_BACK, min_record(c->s, c->a), &start, &len, &p);
        if (sts == REC_OK && start < c->s->arch[c->a].labellen)
            sts = PM_ERR_LOGREC;
        if (sts == REC_OK) {
            if ((sts = header(c->s, c->a, p, len, rec)) < 0)
                return sts;
            rec->archive = c->a;
            rec->vol = c->s->arch[c->a].vols[c->v].num;
            rec->off = start;
            c->off = start;
            return 1;
        }
        return sts < 0 ? sts : PM_ERR_LOGREC;
    }
}

/*
 * PCP's count of archive records read (<pcp/libpcp.h>): every record a
 * cursor steps over, either way, in any context; not the end or damage
 * met, the <mark> made between two archives, nor the record headers a
 * seek or the end's search reads.  Reading in order, and back from the
 * end where the index's last entry is the end, that is Debian's count
 * (pcp-testsuite's eol over ok-bigbin and its multi-volume and unindexed
 * copies); where Debian's seek reads whole records forward from an index
 * entry pmkit reads headers, and its interpolation reads other records,
 * so those counts differ (docs/compat.md).  A plain int the caller may
 * reset, as PCP's; not counted atomically.
 */
int __pmLogReads;

int arch_cursor_step(arch_cursor *c, int dir, arch_record *rec)
{
    arch_cursor_posn here = posn_of(c);
    int sts = dir > 0 ? step_forw(c, rec) : step_back(c, rec);

    if (sts > 0 && rec->vol >= 0)
        __pmLogReads++;
    if (sts < 0)
        posn_restore(c, here);
    return sts;
}

/* ------------------------------------------------------------------ */

/* Volume index of volume number num in archive a (sorted), or -1. */
static int vol_index(const arch_one *a, int num)
{
    int lo = 0, hi = a->nvols - 1;

    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (a->vols[mid].num == num)
            return mid;
        if (a->vols[mid].num < num)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

/* A peek remembered: the record starting (end 0) or ending (end 1) at c's
 * position, its time and length given: 1, or 0 if none is. */
static int peek_remembered(const arch_cursor *c, int end, struct timespec *stamp, uint32_t *len)
{
    const arch_peek *known = peek_known(c, c->a, c->v, c->off, end);

    if (known == NULL)
        return 0;
    *stamp = known->stamp;
    *len = known->len;
    return 1;
}

/* A peek's end: the record of n bytes at start in c's volume, head its
 * first bytes, its value set count checked, its time and length given
 * and remembered: 1, or 0 for a bad count. */
static int peek_found(arch_cursor *c, const uint8_t *head, uint64_t start, uint32_t n,
                      struct timespec *stamp, uint32_t *len)
{
    int version = c->s->arch[c->a].label.version;
    size_t st = arch_stamp_len(version);
    int32_t numpmid = (int32_t)arch_be32(head + 4 + st);
    arch_peek *memo;

    if (numpmid < 0 || (size_t)numpmid > (n - 8 - st - 4) / 8)
        return 0;
    arch_stamp(version, head + 4, stamp);
    *len = n;
    memo = &c->peeks[c->next_peek];
    c->next_peek = (c->next_peek + 1) % PEEK_MEMO;
    *memo = (arch_peek){c->a, c->v, start, n, *stamp};
    return 1;
}

/* The head (hl bytes) of the record at off in c's volume, read with
 * something else, kept for peek_record. */
static void keep_ahead(arch_cursor *c, uint64_t off, const uint8_t *head, size_t hl)
{
    c->ahead_a = c->a;
    c->ahead_v = c->v;
    c->ahead_off = off;
    memcpy(c->ahead, head, hl);
}

/*
 * The time and length of a whole record at c's position in its volume,
 * read as two small pieces (its head and its closing length word) instead
 * of the whole record through the window: 1, with the same checks as
 * rec_frame and header make.  0 for anything else (the end, a record cut
 * short, a bad length), which the callers then find out through a step.
 * The last PEEK_MEMO records found are remembered (a whole record of a
 * volume does not change: loggers append), so the second seek of an
 * interpolated fetch, near the first, reads nothing.
 */
static int peek_record(arch_cursor *c, struct timespec *stamp, uint32_t *len)
{
    size_t st = arch_stamp_len(c->s->arch[c->a].label.version), hl = 4 + st + 4;
    uint8_t head[PEEK_HEAD], tail[4 + PEEK_HEAD];
    arch_file *f;
    ssize_t got;
    uint32_t n;

    if (peek_remembered(c, 0, stamp, len))
        return 1;
    if (c->off < c->s->arch[c->a].labellen || cur_file(c, &f) < 0)
        return 0;
    if (c->ahead_v == c->v && c->ahead_a == c->a && c->ahead_off == c->off)
        memcpy(head, c->ahead, hl);
    else if (afile_read(f, c->off, head, hl) != (ssize_t)hl)
        return 0;
    n = arch_be32(head);
    /* the closing length word, and the next record's head after it */
    if (n < min_record(c->s, c->a) || n > ARCH_MAX_RECORD ||
        (got = afile_read(f, c->off + n - 4, tail, 4 + hl)) < 4 || arch_be32(tail) != n)
        return 0;
    c->ahead_v = -1;
    if (got == (ssize_t)(4 + hl))
        keep_ahead(c, c->off + n, tail + 4, hl);
    return peek_found(c, head, c->off, n, stamp, len);
}

/*
 * peek_record's twin backward: the time and length of the whole record
 * ending at c's position, read as its closing length word (with the head
 * of the record after it, kept for peek_record), then its head with the
 * closing length word of the record before it, kept for the next peek
 * back (so that a walk back reads once a record, as a walk forward does);
 * remembered as peek_record's are.  1, or 0 for anything
 * peek_record would refuse, or the start of the volume's data.
 */
static int peek_back(arch_cursor *c, struct timespec *stamp, uint32_t *len)
{
    size_t st = arch_stamp_len(c->s->arch[c->a].label.version), hl = 4 + st + 4;
    uint64_t data = c->s->arch[c->a].labellen, start;
    uint8_t buf[4 + PEEK_HEAD], *head = buf + 4;
    arch_file *f;
    uint32_t n, min = min_record(c->s, c->a);
    ssize_t got;
    size_t lead;

    if (peek_remembered(c, 1, stamp, len))
        return 1;
    if (c->off < data + min || cur_file(c, &f) < 0)
        return 0;
    if (c->behind_v == c->v && c->behind_a == c->a && c->behind_off == c->off) {
        n = c->behind;
    } else if ((got = afile_read(f, c->off - 4, buf, 4 + hl)) >= 4) {
        n = arch_be32(buf);
        if (got == (ssize_t)(4 + hl)) /* and the head of the record after */
            keep_ahead(c, c->off, buf + 4, hl);
    } else {
        return 0;
    }
    c->behind_v = -1;
    if (n < min || n > ARCH_MAX_RECORD || n > c->off - data)
        return 0;
    start = c->off - n;
    lead = start >= data + min ? 4 : 0; /* a record may end where this starts */
    if (afile_read(f, start - lead, head - lead, hl + lead) != (ssize_t)(hl + lead) ||
        arch_be32(head) != n)
        return 0;
    if (lead) {
        c->behind_a = c->a;
        c->behind_v = c->v;
        c->behind_off = start;
        c->behind = arch_be32(buf);
    }
    return peek_found(c, head, start, n, stamp, len);
}

/* Does a record start at c's position (or the volume end there)?  An
 * index entry can be wrong: old loggers wrote offsets inside records. */
static int frames_here(arch_cursor *c)
{
    arch_file *f;
    uint64_t start;
    uint32_t len;
    const uint8_t *p;
    int sts;

    struct timespec stamp;

    if (c->off < c->s->arch[c->a].labellen || cur_file(c, &f) < 0)
        return 0;
    if (peek_record(c, &stamp, &len))
        return 1;
    sts = rec_frame(&c->win, f, c->off, ARCH_FORW, min_record(c->s, c->a), &start, &len, &p);
    return sts == REC_OK || sts == REC_END;
}

/*
 * From index entry next of archive a (the first at or after t), when t is
 * nearer to it than to prev (the entry before), so that reading back from
 * it reads fewer records (a record costs one read either way): c placed
 * where the records back from next, down to prev, stop being at or after
 * t, and 1.  Each record read back is proved whole by
 * its two length words, so c is between records, and the one before c is
 * earlier than t: in an archive whose records between the two entries are
 * in time order (a logger's are), the place a forward scan from prev
 * finds, which arch_cursor_seek's scan forward from c then confirms (a
 * record at next earlier than t, from a damaged index, is passed there).
 * Debian's library also reads from the nearer entry.  0, c's place
 * unspecified, where it does not apply or a record read back is not
 * whole.
 */
static int seek_back_from(arch_cursor *c, int a, const struct timespec *t, const arch_ti *prev,
                          const arch_ti *next)
{
    int64_t before = arch_ns_between(t, &prev->stamp), after = arch_ns_between(&next->stamp, t);
    struct timespec stamp;
    uint32_t len;

    if (next->vol != prev->vol || next->data_off <= prev->data_off || after < 0 || before < 0 ||
        after >= before || (c->v = vol_index(&c->s->arch[a], next->vol)) < 0)
        return 0;
    c->off = next->data_off;
    while (c->off > prev->data_off) {
        if (!peek_back(c, &stamp, &len))
            return 0;
        if (arch_cmp(&stamp, t) < 0)
            return 1;
        c->off -= len;
    }
    return 0; /* every record back to prev at or after t: prev's index lied */
}

/*
 * Place c in archive a at the last index entry before t whose offset holds
 * a record (records before an entry's offset are no later than its time),
 * or at the archive's start, or (seek_back_from) nearer to t.  Only the
 * last SEEK_TRIES entries before t are tried.
 */
#define SEEK_TRIES 16

static void seek_index(arch_cursor *c, int a, const struct timespec *t)
{
    arch_one *ar = &c->s->arch[a];
    uint64_t lo = 0, hi = ar->nti;
    arch_ti ti, next;

    c->a = a;
    if (ar->index.fd >= 0 && ar->nti > 0) {
        /* the first entry not before t */
        while (lo < hi) {
            uint64_t mid = lo + (hi - lo) / 2;
            if (index_entry(ar, mid, &ti) < 0)
                break;
            if (arch_cmp(&ti.stamp, t) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo > 0 && lo < ar->nti && index_entry(ar, lo - 1, &ti) == 0 &&
            index_entry(ar, lo, &next) == 0 && seek_back_from(c, a, t, &ti, &next))
            return;
        for (uint64_t j = lo, tries = 0; j > 0 && tries < SEEK_TRIES; j--, tries++) {
            if (index_entry(ar, j - 1, &ti) < 0 || (c->v = vol_index(ar, ti.vol)) < 0)
                continue;
            c->off = ti.data_off;
            if (frames_here(c))
                return;
        }
    }
    c->v = 0;
    c->off = ar->labellen;
}

int arch_cursor_seek(arch_cursor *c, const struct timespec *t, int dir)
{
    int a = 0, sts;
    arch_record rec;

    for (int i = 1; i < c->s->narch; i++)
        if (arch_cmp(&c->s->arch[i].label.start, t) <= 0)
            a = i;
    win_jumped(&c->win);
    c->both = 0;
    seek_index(c, a, t);
    /* the first record at or after t: forward, stop before it; backward,
     * stop after it if it is at t (the first of several at t, as PCP
     * places it), else before it */
    for (;;) {
        arch_cursor_posn save = posn_of(c);
        struct timespec stamp;
        uint32_t len;
        if (peek_record(c, &stamp, &len)) { /* the common case, cheaply */
            int cmp = arch_cmp(&stamp, t);
            if (cmp < 0 || (dir < 0 && cmp == 0))
                c->off += len;
            if (cmp < 0)
                continue;
            return 0;
        }
        c->short_end = 0;
        sts = arch_cursor_step(c, ARCH_FORW, &rec);
        if (sts < 0 && c->short_end)
            return 0; /* at the logical end */
        if (sts <= 0)
            return sts;
        if (arch_cmp(&rec.stamp, t) < 0)
            continue;
        if (dir < 0 && arch_cmp(&rec.stamp, t) == 0)
            return 0;
        posn_restore(c, save);
        return 0;
    }
}

/* Entry j of the index PCP's reader uses for archive a: src's for the
 * first archive when there is one, else the archive's own. */
static int src_entry(arch_cursor *c, int a, const arch_ti_src *src, uint64_t j, arch_ti *ti)
{
    if (a == 0 && src != NULL)
        return src->get(src->arg, j, ti);
    return index_entry(&c->s->arch[a], j, ti);
}

/* Place c in archive a at index entry ti: 1, or 0 when it names a volume
 * the archive lacks or a place past its file's end. */
static int at_entry(arch_cursor *c, int a, const arch_ti *ti)
{
    arch_one *ar = &c->s->arch[a];
    arch_file *f;
    uint64_t size;

    if ((c->v = vol_index(ar, ti->vol)) < 0)
        return 0;
    c->a = a;
    c->off = ti->data_off;
    return cur_file(c, &f) == 0 && afile_size(f, &size) == 0 && c->off <= size;
}

int arch_cursor_pcp_seek(arch_cursor *c, const struct timespec *t, int dir, const arch_ti_src *src,
                         uint64_t *noted)
{
    arch_cursor_posn save = posn_of(c);
    int a = 0, before = 0;
    arch_one *ar;
    uint64_t lo, n;
    arch_record rec;
    arch_ti ti, tj;

    for (int i = 1; i < c->s->narch; i++)
        if (arch_cmp(&c->s->arch[i].label.start, t) <= 0)
            a = i;
    ar = &c->s->arch[a];
    n = a == 0 && src != NULL ? src->n : ar->index.fd < 0 ? 0 : ar->nti;
    win_jumped(&c->win);
    c->a = a;
    if (n == 0) {
        int sts = dir < 0 ? to_volume_end(c, a, ar->nvols - 1) : 0;
        if (dir > 0) {
            c->v = 0;
            c->off = ar->labellen;
        }
        *noted = c->off;
        return sts;
    }
    /* the first entry not before t, in the index's order (a damaged
     * index out of order is read as Debian's reads it) */
    for (lo = 0; lo < n; lo++) {
        if (src_entry(c, a, src, lo, &ti) < 0)
            return PM_ERR_LOGREC;
        if (arch_ns_between(&ti.stamp, t) >= 0) /* a bad nsec as PCP's sum */
            break;
    }
    if (lo == n) {
        lo--; /* past the last entry: the last */
    } else if (lo > 0) {
        /* between two entries: the nearer, the later when half way */
        if (src_entry(c, a, src, lo - 1, &tj) < 0)
            return PM_ERR_LOGREC;
        if (arch_ns_between(t, &tj.stamp) < arch_ns_between(&ti.stamp, t)) {
            lo--;
            before = dir > 0;
        }
    }
    if (src_entry(c, a, src, lo, &ti) < 0)
        return PM_ERR_LOGREC;
    *noted = ti.data_off;
    if (!at_entry(c, a, &ti)) {
        /* a volume the archive lacks: Debian's file stays where it was
         * (its ac_offset notes the entry's offset all the same) */
        posn_restore(c, save);
        return 1;
    }
    /* forward from an entry before t: one record further back, into the
     * volume before if need be, but not out of the archive */
    if (before && (c->v > 0 || c->off > ar->labellen)) {
        arch_cursor_posn entry = posn_of(c);
        if (step_back(c, &rec) <= 0 || c->a != a)
            posn_restore(c, entry);
    }
    *noted = c->off;
    return 0;
}

int arch_cursor_where(const arch_cursor *c, int *vol, uint64_t *off)
{
    *vol = c->s->arch[c->a].vols[c->v].num;
    *off = c->off;
    return c->a;
}

int arch_cursor_goto(arch_cursor *c, int a, int vol, uint64_t off)
{
    int v;

    if (a < 0 || a >= c->s->narch || (v = vol_index(&c->s->arch[a], vol)) < 0)
        return PM_ERR_LOGREC;
    win_jumped(&c->win);
    posn_restore(c, (arch_cursor_posn){a, v, off});
    return 0;
}

/*
 * The end of volume v of c's archive, as the place after its last
 * complete record: 1 and c placed there, 0 when the volume has no record,
 * or PM_ERR_LOGREC.  The last record normally ends the file, which one
 * backward frame shows; otherwise (a logger writing, or a damaged tail)
 * records are read forward from the last index entry that holds one, or
 * from the volume's start.
 */
static int volume_end(arch_cursor *c, int v)
{
    arch_one *ar = &c->s->arch[c->a];
    arch_file *f;
    arch_record rec;
    uint64_t size, last;
    arch_ti ti;
    int sts, from_last = 0; /* read from the index's very last entry */

    c->v = v;
    if ((sts = cur_file(c, &f)) < 0 || (sts = afile_size(f, &size)) < 0)
        return sts;
    if (size <= ar->labellen)
        return 0;
    c->off = size;
    if (step_back(c, &rec) > 0 && c->v == v) {
        c->off = size;
        return 1;
    }
    /* the last entry of this volume that holds a record, else its start */
    c->v = v;
    c->off = ar->labellen;
    for (uint64_t j = ar->nti, tries = 0; j > 0 && tries < SEEK_TRIES; j--) {
        if (index_entry(ar, j - 1, &ti) < 0 || ti.vol != ar->vols[v].num)
            continue;
        tries++;
        c->off = ti.data_off;
        if (ti.data_off < size && frames_here(c)) {
            from_last = j == ar->nti;
            break;
        }
        c->off = ar->labellen;
    }
    last = c->off;
    for (int good = 0;; good = from_last) {
        arch_file *vf;
        uint64_t start;
        uint32_t len;
        const uint8_t *p;
        if ((sts = cur_file(c, &vf)) < 0)
            return sts;
        sts = rec_frame(&c->win, vf, c->off, ARCH_FORW, min_record(c->s, c->a), &start, &len, &p);
        if (sts == REC_OK && (sts = header(c->s, c->a, p, len, &rec)) == 0) {
            c->off = last = start + len;
            continue;
        }
        if (sts < 0 && !good)
            return sts;
        /* the end, a record being written, or, read from the index's
         * last entry, bytes that are no record after a good one (zeros, a
         * bad frame or header): Debian's libpcp ends the archive at that
         * record too (and fails from anywhere else) */
        break;
    }
    c->off = last;
    /* bytes after the label but no whole record: damaged, as PCP finds */
    return last > ar->labellen ? 1 : PM_ERR_LOGREC;
}

int arch_cursor_end(arch_cursor *c)
{
    int sts;

    /* the last volume with a record, going back over empty ones */
    for (int a = c->s->narch - 1; a >= 0; a--) {
        for (int v = c->s->arch[a].nvols - 1; v >= 0; v--) {
            c->a = a;
            if ((sts = volume_end(c, v)) != 0)
                return sts < 0 ? sts : 0;
        }
    }
    arch_cursor_start(c);
    return 0;
}

int arch_end(arch_set *s, struct timespec *end)
{
    arch_cursor *c = arch_cursor_new(s);
    arch_record rec;
    int sts;

    if (c == NULL)
        return -ENOMEM;
    if ((sts = arch_cursor_end(c)) == 0) {
        sts = arch_cursor_step(c, ARCH_BACK, &rec);
        if (sts > 0) {
            *end = rec.stamp;
            sts = 0;
        } else if (sts == 0) {
            *end = s->arch[0].label.start; /* no records at all */
        }
    }
    arch_cursor_free(c);
    return sts;
}

int arch_end_memo_get(arch_set *s, arch_end_memo *m, struct timespec *end)
{
    int a = s->narch - 1, sts;
    arch_file *f;
    uint64_t size;

    if (s->arch[a].nvols < 1 || arch_vol_file(s, a, s->arch[a].nvols - 1, &f) < 0 ||
        afile_size(f, &size) < 0) {
        m->valid = 0; /* arch_end says what is wrong */
        return arch_end(s, end);
    }
    if (m->valid && m->size == size) {
        *end = m->end;
        return 0;
    }
    m->valid = 0;
    if ((sts = arch_end(s, end)) < 0)
        return sts;
    m->valid = 1;
    m->size = size;
    m->end = *end;
    return 0;
}
