/*
 * record.c - a data record decoded into a result.
 *
 * The payload of a data record is a result as pmcd sends it: the time
 * (v2: seconds and microseconds; v3: 64-bit seconds, nanoseconds), the
 * number of value sets, each set (PMID, numval, and when numval > 0 the
 * value format and numval pairs of instance and value), then the value
 * blocks that DPTR values name by their offset in 32-bit words from two
 * words before the record (where a PDU's header would start).
 *
 * A record is damaged unless its blocks lie as PCP's rule wants them
 * (tiling, below): from where the value sets end to the payload's end,
 * their lengths rounded to words adding up to those bytes.  A record of up
 * to FAST_MAX bytes is decoded in one pass that checks the framing of the
 * value sets (counts, formats, instance pairs inside the payload) as it
 * fills one allocation (the result, each value set, then copies of the
 * value blocks in host order: pmFreeResult knows that what lies inside a
 * result's block is freed with it), checking each block it copies.
 * Blocks are taken tiled in the order their values name them, as loggers
 * write them; then no byte is copied twice and the copies fit twice the bytes of the blocks,
 * the sets' copies four times theirs, with no check of room per value.  A
 * 64-bit number's block followed directly by its metric's next ones, of
 * the same header, is copied in a run that checks only the offset and
 * header words.  A record not so tiled (values sharing a block, blocks
 * out of order, gaps, damage), or a larger record, takes two passes
 * instead: the first checks every block and PCP's rule and sizes the
 * result, the second fills an exact allocation; it alone says whether
 * the record is damaged.  Numbers in blocks are converted by type; event
 * arrays field by field, as far as their own lengths hold
 * (pmUnpackEventRecords checks them again).
 *
 * Not here: which records a fetch wants, profiles, interpolation.
 */
#include "arch_int.h"
#include "pdu.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define ALIGN8(n) (((n) + 7) & ~(size_t)7)

typedef struct shape {
    size_t hdr;    /* bytes before the first value set */
    size_t vsets;  /* bytes of value sets */
    size_t blocks; /* bytes of value block copies */
} shape;

/* The word-offset block of a DPTR value: its payload offset, or an error. */
static inline __attribute__((always_inline)) int block_at(const uint8_t *body, size_t len,
                                                          uint32_t w, size_t *at, uint32_t *vlen)
{
    uint64_t off = (uint64_t)w * 4;

    /* word offsets count from two words before the record's length word */
    if (off < 12 || off - 12 > len || len - (off - 12) < PM_VAL_HDR_SIZE)
        return PM_ERR_LOGREC;
    *at = (size_t)(off - 12);
    *vlen = arch_be32(body + *at) & PM_VAL_VLEN_MAX;
    if (*vlen < PM_VAL_HDR_SIZE || *vlen > len - *at)
        return PM_ERR_LOGREC;
    return 0;
}

/*
 * PCP's rule for where value blocks lie (Debian's libpcp 6.0.3, found by
 * damaging testsuite archives word by word): the lowest block must start
 * where the value sets end, and the blocks' lengths, each rounded up to a
 * word, must add up to the bytes from there to the payload's end.  PCP
 * adds each length as it converts the block to host order in place, in a
 * copy of those bytes, so a block named twice is read the second time
 * with its header word swapped, and a block whose header lies in the
 * number another block holds is read as that conversion left it.  A
 * tiling of blocks in the order of their values, one after another from
 * the value sets' end to the payload's, is the common case and passes;
 * anything else is judged by pcp_blocks, which converts as PCP does.
 */
typedef struct tiling {
    size_t first; /* the first block's payload offset, SIZE_MAX: none yet */
    size_t next;  /* where the block after the last one seen would start */
    int broken;   /* a block not at next */
} tiling;

static inline void tile(tiling *t, size_t at, uint32_t vlen)
{
    if (t->first == SIZE_MAX)
        t->first = at;
    else if (at != t->next)
        t->broken = 1;
    t->next = at + (((size_t)vlen + 3) & ~(size_t)3);
}

/* The payload offset of the block a DPTR value's word offset names (every
 * block checked by block_at before). */
static inline size_t block_offset(const uint8_t *body, size_t p)
{
    return (size_t)arch_be32(body + p + 4) * 4 - 12;
}

/* Calls f(body, p, arg) for each DPTR or SPTR value's pair at payload
 * offset p, in the order of the value sets (their framing checked). */
static int each_block(const uint8_t *body, size_t hdr, int numpmid,
                      int (*f)(const uint8_t *, size_t, void *), void *arg)
{
    size_t p = hdr;

    for (int i = 0; i < numpmid; i++) {
        int32_t numval = (int32_t)arch_be32(body + p + 4);
        uint32_t valfmt;
        p += 8;
        if (numval <= 0)
            continue;
        valfmt = arch_be32(body + p);
        p += 4;
        for (int j = 0; j < numval; j++, p += 8) {
            int sts;
            if (valfmt != PM_VAL_INSITU && (sts = f(body, p, arg)) != 0)
                return sts;
        }
    }
    return 0;
}

static int lowest_block(const uint8_t *body, size_t p, void *arg)
{
    size_t at = block_offset(body, p), *low = arg;

    if (at < *low)
        *low = at;
    return 0;
}

/* The bytes from the value sets' end (end) to the payload's (len), as PCP
 * converts them, and the sum of the rounded lengths it reads. */
typedef struct pcp_copy {
    uint8_t *b;
    size_t end, len, sum;
} pcp_copy;

static void swap_in_place(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n / 2; i++) {
        uint8_t t = p[i];
        p[i] = p[n - 1 - i];
        p[n - 1 - i] = t;
    }
}

static int pcp_convert(const uint8_t *body, size_t p, void *arg)
{
    static const uint16_t one = 1;
    pcp_copy *c = arg;
    size_t at = block_offset(body, p);
    uint8_t *q = c->b + (at - c->end);
    uint32_t h = arch_be32(q), vlen = h & PM_VAL_VLEN_MAX;
    int type = (int)(h >> 24);

    (void)body;
    if (vlen < PM_VAL_HDR_SIZE || vlen > c->len - at)
        return PM_ERR_LOGREC;
    c->sum += ((size_t)vlen + 3) & ~(size_t)3;
    if (*(const uint8_t *)&one != 1)
        return 0; /* big-endian: the conversion changes nothing */
    swap_in_place(q, PM_VAL_HDR_SIZE);
    if ((type == PM_TYPE_64 || type == PM_TYPE_U64 || type == PM_TYPE_DOUBLE) && vlen >= 12)
        swap_in_place(q + PM_VAL_HDR_SIZE, 8);
    else if (type == PM_TYPE_FLOAT && vlen >= 8)
        swap_in_place(q + PM_VAL_HDR_SIZE, 4);
    return 0;
}

/* PCP's verdict on the blocks of a record whose framing and blocks are
 * checked, the value sets ending at end: 0, PM_ERR_LOGREC or -ENOMEM. */
static int pcp_blocks(const uint8_t *body, size_t len, size_t hdr, int numpmid, size_t end)
{
    size_t low = len;
    pcp_copy c;
    int sts;

    each_block(body, hdr, numpmid, lowest_block, &low);
    if (low != end)
        return PM_ERR_LOGREC;
    if (low == len)
        return 0;
    if ((c.b = malloc(len - end)) == NULL)
        return -ENOMEM;
    memcpy(c.b, body + end, len - end);
    c.end = end;
    c.len = len;
    c.sum = 0;
    sts = each_block(body, hdr, numpmid, pcp_convert, &c);
    free(c.b);
    if (sts == 0 && c.sum != len - end)
        sts = PM_ERR_LOGREC;
    return sts;
}

/* PCP's verdict on the blocks seen through t, the value sets ending at end. */
static int tiled_ok(const tiling *t, const uint8_t *body, size_t len, size_t hdr, int numpmid,
                    size_t end)
{
    if (t->first == SIZE_MAX)
        return end == len ? 0 : PM_ERR_LOGREC;
    if (!t->broken)
        return t->first == end && t->next == len ? 0 : PM_ERR_LOGREC;
    return pcp_blocks(body, len, hdr, numpmid, end);
}

/* First pass: check the value sets and size the result. */
static int measure(const uint8_t *body, size_t len, size_t hdr, int numpmid, shape *sh)
{
    size_t p = hdr;
    tiling t = {SIZE_MAX, 0, 0};

    sh->hdr = hdr;
    sh->vsets = 0;
    sh->blocks = 0;
    for (int i = 0; i < numpmid; i++) {
        int32_t numval;
        uint32_t valfmt;
        if (len - p < 8)
            return PM_ERR_LOGREC;
        numval = (int32_t)arch_be32(body + p + 4);
        p += 8;
        sh->vsets += sizeof(pmValueSet);
        if (numval <= 0)
            continue;
        if (len - p < 4 || (size_t)numval > (len - p - 4) / 8)
            return PM_ERR_LOGREC;
        valfmt = arch_be32(body + p);
        p += 4;
        sh->vsets += (size_t)(numval - 1) * sizeof(pmValue);
        if (valfmt == PM_VAL_INSITU) {
            p += (size_t)numval * 8;
            continue;
        }
        if (valfmt != PM_VAL_DPTR && valfmt != PM_VAL_SPTR)
            return PM_ERR_LOGREC;
        for (int j = 0; j < numval; j++, p += 8) {
            size_t at;
            uint32_t vlen;
            if (block_at(body, len, arch_be32(body + p + 4), &at, &vlen) < 0)
                return PM_ERR_LOGREC;
            tile(&t, at, vlen);
            sh->blocks += ALIGN8(vlen > sizeof(pmValueBlock) ? vlen : sizeof(pmValueBlock));
        }
    }
    return tiled_ok(&t, body, len, hdr, numpmid, p);
}

static void swap_bytes(uint8_t *p, size_t n, const uint8_t *src)
{
    for (size_t i = 0; i < n; i++)
        p[i] = src[n - 1 - i];
}

/* A number of width bytes at src, big-endian, into host order at dst. */
static void host_order(uint8_t *dst, const uint8_t *src, size_t width)
{
    static const uint16_t one = 1;

    if (*(const uint8_t *)&one == 1)
        swap_bytes(dst, width, src);
    else
        memcpy(dst, src, width);
}

/* The width of the number a value of type carries (0: bytes as they are). */
static size_t number_width(int type)
{
    switch (type) {
    case PM_TYPE_32:
    case PM_TYPE_U32:
    case PM_TYPE_FLOAT:
        return 4;
    case PM_TYPE_64:
    case PM_TYPE_U64:
    case PM_TYPE_DOUBLE:
        return 8;
    default:
        return 0;
    }
}

/* A value block's header word, stored whole as one native word: the
 * bit-fields of pmapi.h put vtype in its top 8 bits and vlen in the low
 * 24 on either byte order (pmkit_put32 writes event parameters' headers
 * so too).  Assigning the two bit-fields in place was two
 * read-modify-writes of the word, the second one's load waiting for the
 * first store (a store-forwarding stall that cost a third of the
 * decoding). */
static inline void put_header(uint8_t *dst, int type, uint32_t vlen)
{
    uint32_t w = (uint32_t)type << 24 | vlen;

    memcpy(dst, &w, PM_VAL_HDR_SIZE);
}

/* A value block copied to dst in host order; its size in the result.  A
 * block's payload is converted for FLOAT and the 64-bit types only: 32-bit
 * values never come in blocks, and old archives have blocks of type 0
 * holding strings, which PCP leaves alone.  The commonest block, one
 * 64-bit number, takes a path of its own. */
static inline __attribute__((always_inline)) size_t copy_block(uint8_t *dst, const uint8_t *src,
                                                               uint32_t vlen)
{
    uint32_t hdr = arch_be32(src);
    int type = (int)(hdr >> 24);
    size_t plen = vlen - PM_VAL_HDR_SIZE;
    size_t w;
    uint8_t *pay = dst + PM_VAL_HDR_SIZE;

    if (plen == 8 && (type == PM_TYPE_64 || type == PM_TYPE_U64 || type == PM_TYPE_DOUBLE)) {
        uint64_t v = arch_be64(src + PM_VAL_HDR_SIZE);
        put_header(dst, type, vlen);
        memcpy(pay, &v, 8);
        return 16;
    }
    w = type == PM_TYPE_32 || type == PM_TYPE_U32 ? 0 : number_width(type);
    memset(dst, 0, sizeof(pmValueBlock));
    if (type == PM_TYPE_EVENT || type == PM_TYPE_HIGHRES_EVENT) {
        memcpy(dst, src, vlen);
        pmkit_event_to_host(pay, plen, type == PM_TYPE_HIGHRES_EVENT);
    } else if (w != 0 && plen >= w) {
        host_order(pay, src + PM_VAL_HDR_SIZE, w);
        memcpy(pay + w, src + PM_VAL_HDR_SIZE + w, plen - w);
    } else {
        memcpy(pay, src + PM_VAL_HDR_SIZE, plen);
    }
    put_header(dst, type, vlen); /* over the event array's header word too */
    return ALIGN8(vlen > sizeof(pmValueBlock) ? vlen : sizeof(pmValueBlock));
}

/* One value set at payload offset p (checked by measure) into vs, its
 * blocks copied at *bp; the offset after it. */
static size_t fill_vset(const uint8_t *body, size_t p, pmValueSet *vs, uint8_t **bp)
{
    int32_t numval = (int32_t)arch_be32(body + p + 4);
    int valfmt;

    vs->pmid = arch_be32(body + p);
    vs->numval = numval;
    vs->valfmt = PM_VAL_INSITU;
    p += 8;
    if (numval <= 0)
        return p;
    valfmt = (int)arch_be32(body + p);
    vs->valfmt = valfmt;
    p += 4;
    for (int j = 0; j < numval; j++, p += 8) {
        vs->vlist[j].inst = (int)arch_be32(body + p);
        if (valfmt == PM_VAL_INSITU) {
            vs->vlist[j].value.lval = (int)arch_be32(body + p + 4);
        } else {
            /* measure checked the block (block_at) */
            size_t at = (size_t)arch_be32(body + p + 4) * 4 - 12;
            uint32_t vlen = arch_be32(body + at) & PM_VAL_VLEN_MAX;
            vs->vlist[j].value.pval = (pmValueBlock *)*bp;
            *bp += copy_block(*bp, body + at, vlen);
        }
    }
    return p;
}

static size_t vset_size(int32_t numval)
{
    return sizeof(pmValueSet) + (numval > 1 ? (size_t)(numval - 1) * sizeof(pmValue) : 0);
}

/* Second pass: fill the result laid out by measure. */
static void fill(const uint8_t *body, int numpmid, const shape *sh, pmHighResResult *r)
{
    uint8_t *vsp = (uint8_t *)r + ALIGN8(sizeof(*r) + (size_t)numpmid * sizeof(pmValueSet *));
    uint8_t *bp = vsp + sh->vsets;
    size_t p = sh->hdr;

    for (int i = 0; i < numpmid; i++) {
        r->vset[i] = (pmValueSet *)vsp;
        vsp += vset_size((int32_t)arch_be32(body + p + 4));
        p = fill_vset(body, p, r->vset[i], &bp);
    }
}

#define FAST_MAX (1u << 20) /* records decoded in one pass, at most */

/* The commonest block, one 64-bit number (a header word saying 12 bytes
 * of type 64, U64 or DOUBLE): its copy is the header word as it is in the
 * native order (put_header's) and the number swapped. */
static inline int one_number(uint32_t hdr)
{
    return hdr == ((uint32_t)PM_TYPE_64 << 24 | 12) || hdr == ((uint32_t)PM_TYPE_U64 << 24 | 12) ||
           hdr == ((uint32_t)PM_TYPE_DOUBLE << 24 | 12);
}

/* The copy of a one_number block of header hdr at src, at dst. */
static inline void put_number(uint8_t *dst, uint32_t hdr, const uint8_t *src)
{
    uint64_t v = arch_be64(src + PM_VAL_HDR_SIZE);

    memcpy(dst, &hdr, PM_VAL_HDR_SIZE);
    memcpy(dst + PM_VAL_HDR_SIZE, &v, 8);
}

/*
 * After a one_number block at payload offset at, of header hdr: the run
 * of the next values (up to n, their pairs from payload offset p on, into
 * v[]) whose blocks follow one another directly with the same header, as
 * a logger writes the values of a metric of 64-bit numbers.  Each is
 * checked by its word offset (the last one's plus 3) and its header
 * word's bytes against the first's, its end against the payload's before
 * the run starts, which is all that fill_blocks would check.  Copied at
 * *bp; how many.
 */
static inline __attribute__((always_inline)) int number_run(const uint8_t *body, size_t len,
                                                            size_t p, size_t at, uint32_t hdr,
                                                            pmValue *v, int n, uint8_t **bp)
{
    size_t fit = (len - at) / 12 - 1; /* whole blocks after the one at at */
    uint32_t next = (uint32_t)((at + 12) / 4) + 3, raw;
    uint8_t *q = *bp;
    int k;

    memcpy(&raw, body + at, PM_VAL_HDR_SIZE);
    if ((size_t)n > fit)
        n = (int)fit;
    for (k = 0; k < n; k++, p += 8, next += 3) {
        uint32_t same;
        at += 12;
        memcpy(&same, body + at, PM_VAL_HDR_SIZE);
        if (arch_be32(body + p + 4) != next || same != raw)
            break;
        v[k].inst = (int)arch_be32(body + p);
        v[k].value.pval = (pmValueBlock *)q;
        put_number(q, hdr, body + at);
        q += 16;
    }
    *bp = q;
    return k;
}

/*
 * The DPTR or SPTR values of vs (numval pairs at p) with their blocks
 * copied from *prev on at *bp.  Each block must lie inside the payload,
 * at or after the end of the one before (*prev: where the value sets end
 * at first), so that no byte of the payload is copied twice and the
 * copies fit twice the bytes after the value sets.  1 for a block that
 * does not (the caller then decodes the record with measure and fill,
 * which decide whether it is damaged), else 0.
 */
static inline __attribute__((always_inline)) int
fill_blocks(const uint8_t *body, size_t len, size_t p, pmValueSet *vs, size_t *prev, uint8_t **bp)
{
    uint8_t *q = *bp;
    size_t from = *prev;

    for (int j = 0; j < vs->numval; j++, p += 8) {
        /* word offsets count from two words before the record's length
         * word; offsets below 3 words wrap to a huge at */
        size_t at = (size_t)arch_be32(body + p + 4) * 4 - 12;
        uint32_t hdr, vlen;
        if (at != ((from + 3) & ~(size_t)3) || at > len - PM_VAL_HDR_SIZE)
            return 1;
        hdr = arch_be32(body + at);
        vlen = hdr & PM_VAL_VLEN_MAX;
        if ((size_t)vlen - PM_VAL_HDR_SIZE > len - at - PM_VAL_HDR_SIZE)
            return 1; /* shorter than its header, or past the payload */
        from = at + vlen;
        vs->vlist[j].inst = (int)arch_be32(body + p);
        vs->vlist[j].value.pval = (pmValueBlock *)q;
        if (one_number(hdr)) {
            int k = 0;
            put_number(q, hdr, body + at);
            q += 16;
            if (j + 1 < vs->numval) /* not for a metric's only value */
                k = number_run(body, len, p + 8, at, hdr, &vs->vlist[j + 1], vs->numval - j - 1,
                               &q);
            j += k;
            p += (size_t)k * 8;
            from = at + (size_t)(k + 1) * 12;
        } else {
            q += copy_block(q, body + at, vlen);
        }
    }
    *bp = q;
    *prev = from;
    return 0;
}

/*
 * The one pass: fill's work, checking the framing of each value set (as
 * measure does) and each block as it is copied.  Blocks tiled in the order
 * of their values from the value sets' end to the payload's (as loggers
 * write them) copy into at most twice their bytes; the value sets' copies
 * take at most four times theirs (a set of no values: 8 bytes, a
 * pmValueSet of 32).  The caller allocated four times the payload after
 * the head: the copies of the sets from there, those of the blocks from
 * four times the bytes before the first block.  0, PM_ERR_LOGREC for
 * framing measure refuses, or 1 when the blocks are not so tiled (r's
 * content is then garbage; measure judges the record).
 */
static int fill_fast(const uint8_t *body, size_t len, size_t hdr, int numpmid, pmHighResResult *r)
{
    uint8_t *base = (uint8_t *)r + ALIGN8(sizeof(*r) + (size_t)numpmid * sizeof(pmValueSet *));
    uint8_t *q = base, *bp = NULL;
    size_t p = hdr, first = len, prev = len;

    for (int i = 0; i < numpmid; i++) {
        pmValueSet *vs = (pmValueSet *)q;
        int32_t numval;
        if (len - p < 8)
            return PM_ERR_LOGREC;
        numval = (int32_t)arch_be32(body + p + 4);
        r->vset[i] = vs;
        vs->pmid = arch_be32(body + p);
        vs->numval = numval;
        if (numval <= 0) {
            vs->valfmt = PM_VAL_INSITU;
            q += sizeof(pmValueSet);
            p += 8;
            continue;
        }
        /* measure's two checks, as one: 12 bytes and the pairs fit */
        if ((size_t)numval * 8 + 12 > len - p || arch_be32(body + p + 8) > PM_VAL_SPTR)
            return PM_ERR_LOGREC;
        q += sizeof(pmValueSet) + (size_t)(numval - 1) * sizeof(pmValue);
        vs->valfmt = (int)arch_be32(body + p + 8);
        p += 12;
        if (vs->valfmt != PM_VAL_INSITU) {
            if (bp == NULL) { /* the first block: where the value sets must end */
                first = block_offset(body, p);
                if (first < p + (size_t)numval * 8 || first > len)
                    return 1;
                bp = base + 4 * (first - hdr);
                prev = first;
            }
            if (fill_blocks(body, len, p, vs, &prev, &bp) != 0)
                return 1;
            p += (size_t)numval * 8;
            continue;
        }
        for (int j = 0; j < numval; j++, p += 8) {
            vs->vlist[j].inst = (int)arch_be32(body + p);
            vs->vlist[j].value.lval = (int)arch_be32(body + p + 4);
        }
    }
    /* the sets end where the blocks start, the blocks where the payload does */
    return p != first || ((prev + 3) & ~(size_t)3) != len;
}

/* A result of room bytes for numpmid value sets, its head filled in. */
static pmHighResResult *new_result(const arch_record *rec, size_t room)
{
    pmHighResResult *r = malloc(room);

    if (r != NULL) {
        memset(r, 0, sizeof(*r));
        r->timestamp = rec->stamp;
        r->numpmid = rec->numpmid;
    }
    return r;
}

int arch_record_result(const arch_set *s, const arch_record *rec, pmHighResResult **res)
{
    size_t len = rec->len >= 8 ? rec->len - 8 : 0, hdr, head;
    int version = s->arch[rec->archive].label.version;
    pmHighResResult *r;
    shape sh;
    int sts;

    hdr = arch_stamp_len(version) + 4;
    if (rec->numpmid == 0) { /* a <mark>, maybe one no file holds (len 0) */
        if (rec->len != 0 && len != hdr)
            return PM_ERR_LOGREC; /* bytes after the count: PCP's rule */
        if ((r = calloc(1, sizeof(*r))) == NULL)
            return -ENOMEM;
        r->timestamp = rec->stamp;
        *res = r;
        return 0;
    }
    head = ALIGN8(sizeof(*r) + (size_t)rec->numpmid * sizeof(pmValueSet *));
    if (len <= FAST_MAX && len >= hdr) {
        if ((r = new_result(rec, head + 4 * (len - hdr))) == NULL)
            return -ENOMEM;
        if ((sts = fill_fast(rec->body, len, hdr, rec->numpmid, r)) == 0) {
            *res = r;
            return 0;
        }
        free(r); /* blocks not tiled, or damaged: measured below */
        if (sts < 0)
            return sts;
    }
    if ((sts = measure(rec->body, len, hdr, rec->numpmid, &sh)) < 0)
        return sts;
    if ((r = new_result(rec, head + sh.vsets + sh.blocks)) == NULL)
        return -ENOMEM;
    fill(rec->body, rec->numpmid, &sh, r);
    *res = r;
    return 0;
}

/* A set of PMIDs: open addressing over a power of two of slots, at most
 * half of them used; PM_ID_NULL marks an empty slot (and is held apart). */
struct arch_pmids {
    uint32_t mask, shift;
    int has_null;
    pmID slot[];
};

static inline uint32_t pmid_hash(const arch_pmids *p, pmID pmid)
{
    return (uint32_t)(pmid * 0x9e3779b1u) >> p->shift;
}

arch_pmids *arch_pmids_new(const pmID *pmids, int n)
{
    uint32_t size = 8, shift = 29;
    arch_pmids *p;

    while (size < 2 * (uint32_t)(n > 0 ? n : 0) && size < (1u << 30)) {
        size *= 2;
        shift--;
    }
    if ((p = malloc(sizeof(*p) + size * sizeof(pmID))) == NULL)
        return NULL;
    p->mask = size - 1;
    p->shift = shift;
    p->has_null = 0;
    for (uint32_t i = 0; i < size; i++)
        p->slot[i] = PM_ID_NULL;
    for (int i = 0; i < n; i++) {
        uint32_t h = pmid_hash(p, pmids[i]);
        if (pmids[i] == PM_ID_NULL) {
            p->has_null = 1;
            continue;
        }
        while (p->slot[h] != PM_ID_NULL && p->slot[h] != pmids[i])
            h = (h + 1) & p->mask;
        p->slot[h] = pmids[i];
    }
    return p;
}

void arch_pmids_free(arch_pmids *p)
{
    free(p);
}

static inline int pmids_have(const arch_pmids *p, pmID pmid)
{
    uint32_t h = pmid_hash(p, pmid);

    if (pmid == PM_ID_NULL)
        return p->has_null;
    for (;;) {
        pmID x = p->slot[h];
        if (x == pmid)
            return 1;
        if (x == PM_ID_NULL)
            return 0;
        h = (h + 1) & p->mask;
    }
}

/* Where the value sets sel has are: offsets into a list that grows. */
typedef struct picks {
    size_t *at, few[32];
    int n, room;
} picks;

static int pick(picks *k, size_t p)
{
    if (k->n == k->room) {
        size_t *at = malloc((size_t)k->room * 2 * sizeof(*at));
        if (at == NULL)
            return -ENOMEM;
        memcpy(at, k->at, (size_t)k->n * sizeof(*at));
        if (k->at != k->few)
            free(k->at);
        k->at = at;
        k->room *= 2;
    }
    k->at[k->n++] = p;
    return 0;
}

/* block_at's checks on the blocks of numval values whose pairs start at
 * payload offset p, the same verdict in fewer steps: an offset below
 * three words wraps past len, as does a length below the header's.  While
 * each block lies where the tiling has the next one start (as loggers
 * write them), tile() has nothing to record but the next start: a tighter
 * loop, until a block lies elsewhere. */
static inline int blocks_ok(const uint8_t *body, size_t len, size_t p, int32_t numval, tiling *t)
{
    const uint8_t *q = body + p + 4, *end = q + (size_t)numval * 8;

    if (t->first != SIZE_MAX && !t->broken) {
        size_t next = t->next;
        for (; q < end; q += 8) {
            size_t at = (size_t)arch_be32(q) * 4 - 12;
            uint32_t vlen;
            if (at != next || at > len - PM_VAL_HDR_SIZE)
                break;
            vlen = arch_be32(body + at) & PM_VAL_VLEN_MAX;
            if ((size_t)vlen - PM_VAL_HDR_SIZE > len - at - PM_VAL_HDR_SIZE)
                return PM_ERR_LOGREC;
            next = at + (((size_t)vlen + 3) & ~(size_t)3);
        }
        t->next = next;
    }
    for (; q < end; q += 8) {
        size_t at = (size_t)arch_be32(q) * 4 - 12;
        uint32_t vlen;
        if (at > len - PM_VAL_HDR_SIZE)
            return PM_ERR_LOGREC;
        vlen = arch_be32(body + at) & PM_VAL_VLEN_MAX;
        if ((size_t)vlen - PM_VAL_HDR_SIZE > len - at - PM_VAL_HDR_SIZE)
            return PM_ERR_LOGREC;
        tile(t, at, vlen);
    }
    return 0;
}

/*
 * One pass over the value sets: measure's checks, every one of them, on
 * every set (so a record is refused here exactly when arch_record_result
 * refuses it), and the offsets of the sets sel has, with the bytes their
 * copies take in *sh.  0, PM_ERR_LOGREC or -ENOMEM.
 */
static int select_sets(const uint8_t *body, size_t len, size_t hdr, int numpmid,
                       const arch_pmids *sel, picks *k, shape *sh)
{
    size_t p = hdr;
    tiling t = {SIZE_MAX, 0, 0};

    sh->hdr = hdr;
    sh->vsets = sh->blocks = 0;
    for (int i = 0; i < numpmid; i++) {
        int32_t numval;
        uint32_t valfmt;
        int want;
        if (len - p < 8)
            return PM_ERR_LOGREC;
        numval = (int32_t)arch_be32(body + p + 4);
        if ((want = pmids_have(sel, arch_be32(body + p))) != 0) {
            if (pick(k, p) < 0)
                return -ENOMEM;
            sh->vsets += vset_size(numval);
        }
        p += 8;
        if (numval <= 0)
            continue;
        if (len - p < 4 || (size_t)numval > (len - p - 4) / 8)
            return PM_ERR_LOGREC;
        valfmt = arch_be32(body + p);
        p += 4;
        if (valfmt == PM_VAL_INSITU) {
            p += (size_t)numval * 8;
            continue;
        }
        if (valfmt != PM_VAL_DPTR && valfmt != PM_VAL_SPTR)
            return PM_ERR_LOGREC;
        if (want) {
            for (int j = 0; j < numval; j++, p += 8) {
                size_t at;
                uint32_t vlen;
                if (block_at(body, len, arch_be32(body + p + 4), &at, &vlen) < 0)
                    return PM_ERR_LOGREC;
                tile(&t, at, vlen);
                sh->blocks += ALIGN8(vlen > sizeof(pmValueBlock) ? vlen : sizeof(pmValueBlock));
            }
        } else if (blocks_ok(body, len, p, numval, &t) < 0) {
            return PM_ERR_LOGREC;
        }
        p += want ? 0 : (size_t)numval * 8;
    }
    return tiled_ok(&t, body, len, hdr, numpmid, p);
}

/* A result of room bytes for rec: malloc'd (buf NULL), or in the block
 * *buf of *cap bytes, replaced by a larger one when it does not fit. */
static pmHighResResult *select_result(const arch_record *rec, size_t room, void **buf, size_t *cap)
{
    pmHighResResult *r;

    if (buf == NULL)
        return new_result(rec, room);
    if (room > *cap) {
        void *b = malloc(room); /* (nothing in the old block to keep) */
        if (b == NULL)
            return NULL;
        free(*buf);
        *buf = b;
        *cap = room;
    }
    r = *buf;
    memset(r, 0, sizeof(*r));
    r->timestamp = rec->stamp;
    r->numpmid = rec->numpmid;
    return r;
}

static int select_in(const arch_set *s, const arch_record *rec, const arch_pmids *sel, void **buf,
                     size_t *cap, pmHighResResult **res)
{
    size_t len = rec->len >= 8 ? rec->len - 8 : 0, head;
    int version = s->arch[rec->archive].label.version, sts;
    picks k;
    pmHighResResult *r = NULL;
    uint8_t *vsp, *bp;
    shape sh;

    if (rec->numpmid == 0 && buf == NULL)
        return arch_record_result(s, rec, res);
    if (rec->numpmid == 0) { /* arch_record_result's <mark> */
        if (rec->len != 0 && len != arch_stamp_len(version) + 4)
            return PM_ERR_LOGREC;
        if ((r = select_result(rec, sizeof(*r), buf, cap)) == NULL)
            return -ENOMEM;
        *res = r;
        return 0;
    }
    k.at = k.few;
    k.n = 0;
    k.room = (int)(sizeof(k.few) / sizeof(k.few[0]));
    sts = select_sets(rec->body, len, arch_stamp_len(version) + 4, rec->numpmid, sel, &k, &sh);
    if (sts == 0) {
        head = ALIGN8(sizeof(*r) + (size_t)(k.n > 0 ? k.n : 1) * sizeof(pmValueSet *));
        if ((r = select_result(rec, head + sh.vsets + sh.blocks, buf, cap)) == NULL)
            sts = -ENOMEM;
    }
    if (sts == 0) {
        r->numpmid = k.n;
        vsp = (uint8_t *)r + head;
        bp = vsp + sh.vsets;
        for (int i = 0; i < k.n; i++) {
            r->vset[i] = (pmValueSet *)vsp;
            vsp += vset_size((int32_t)arch_be32(rec->body + k.at[i] + 4));
            fill_vset(rec->body, k.at[i], r->vset[i], &bp);
        }
        *res = r;
    }
    if (k.at != k.few)
        free(k.at);
    return sts;
}

int arch_record_select(const arch_set *s, const arch_record *rec, const arch_pmids *sel,
                       pmHighResResult **res)
{
    return select_in(s, rec, sel, NULL, NULL, res);
}

int arch_record_select_in(const arch_set *s, const arch_record *rec, const arch_pmids *sel,
                          void **buf, size_t *cap, pmHighResResult **res)
{
    return select_in(s, rec, sel, buf, cap, res);
}
