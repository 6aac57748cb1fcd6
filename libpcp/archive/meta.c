/*
 * meta.c - the .meta file of an archive, decoded record by record into
 * the set's tables: descriptors and names, instance domain observations
 * (v2's, and v3's full and delta records), label sets and help text.
 *
 * Record types (the first word of each payload): 1 descriptor, 2 v2
 * instance domain, 3 v2 labels, 4 help text, 5 v3 instance domain, 6 v3
 * instance domain delta, 7 v3 labels.  Each decoder reads its fields
 * through a cursor that refuses to go past the payload, so a count or an
 * offset that does not fit the record gives PM_ERR_LOGREC before anything
 * is allocated for it; strings must end inside their table.  A
 * descriptor that contradicts an earlier one for its PMID gives PCP's
 * PM_ERR_LOGCHANGE* codes.
 *
 * Strings, instance arrays and label sets live in chunks freed with the
 * tables; instance domain observations are kept in time order per domain.
 * Not here: what an observation means at a given time (indom.c).
 */
#include "arch_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define META_CHUNK (64u << 10)
#define META_READ  (16u << 20) /* .meta bytes read at once, at most */

enum {
    TYPE_DESC = 1,
    TYPE_INDOM_V2 = 2,
    TYPE_LABEL_V2 = 3,
    TYPE_TEXT = 4,
    TYPE_INDOM = 5,
    TYPE_INDOM_DELTA = 6,
    TYPE_LABEL = 7,
};

struct meta_chunk {
    struct meta_chunk *next;
    size_t used, size;
    max_align_t data[];
};

/* n bytes that live as long as the tables, aligned for any type. */
static void *arena(arch_meta *m, size_t n)
{
    struct meta_chunk *c = m->chunks;
    size_t a = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);

    if (c == NULL || c->size - c->used < a) {
        size_t size = a > META_CHUNK / 2 ? a : META_CHUNK;
        if ((c = malloc(sizeof(*c) + size)) == NULL)
            return NULL;
        c->size = size;
        c->used = 0;
        if (a > META_CHUNK / 2 && m->chunks != NULL) {
            /* a big block goes behind the current chunk, which stays in use */
            c->next = m->chunks->next;
            m->chunks->next = c;
        } else {
            c->next = m->chunks;
            m->chunks = c;
        }
    }
    c->used += a;
    return (char *)c->data + c->used - a;
}

static char *arena_str(arch_meta *m, const uint8_t *s, size_t n)
{
    char *p = arena(m, n + 1);

    if (p != NULL) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

/* Grow *v (of *room elements of size each) to hold want. */
static int grow_to(void **v, int *room, size_t want, size_t size)
{
    size_t cap = *room == 0 ? 16 : (size_t)*room;
    void *nv;

    if (want <= (size_t)*room)
        return 0;
    if (want >= INT32_MAX / 2)
        return -ENOMEM;
    while (cap < want)
        cap *= 2;
    if ((nv = realloc(*v, cap * size)) == NULL)
        return -ENOMEM;
    *v = nv;
    *room = (int)cap;
    return 0;
}

/* Grow *v (of *room elements of size each) to hold n + 1. */
static int room_for(void **v, int *room, int n, size_t size)
{
    return n < *room ? 0 : grow_to(v, room, (size_t)n + 1, size);
}

/* A reader over one payload. */
typedef struct rd {
    const uint8_t *p;
    size_t len, off;
    int bad;
} rd;

static uint32_t get32(rd *r)
{
    if (r->bad || r->len - r->off < 4) {
        r->bad = 1;
        return 0;
    }
    r->off += 4;
    return arch_be32(r->p + r->off - 4);
}

static const uint8_t *get_bytes(rd *r, size_t n)
{
    if (r->bad || r->len - r->off < n) {
        r->bad = 1;
        return NULL;
    }
    r->off += n;
    return r->p + r->off - n;
}

static void get_stamp(rd *r, int version, struct timespec *t)
{
    const uint8_t *p = get_bytes(r, arch_stamp_len(version));

    if (p != NULL)
        arch_stamp(version, p, t);
}

/* ------------------------------------------------------------------ */
/* Descriptors and names. */

static int desc_conflict(const pmDesc *old, const pmDesc *d)
{
    if (old->type != d->type)
        return PM_ERR_LOGCHANGETYPE;
    if (old->sem != d->sem)
        return PM_ERR_LOGCHANGESEM;
    if (old->indom != d->indom)
        return PM_ERR_LOGCHANGEINDOM;
    if (memcmp(&old->units, &d->units, sizeof(d->units)) != 0)
        return PM_ERR_LOGCHANGEUNITS;
    return 0;
}

static void units_from(uint32_t w, pmUnits *u)
{
    memset(u, 0, sizeof(*u));
    u->dimSpace = (int)(w >> 28 & 0xf) - ((w >> 31 & 1) << 4);
    u->dimTime = (int)(w >> 24 & 0xf) - ((w >> 27 & 1) << 4);
    u->dimCount = (int)(w >> 20 & 0xf) - ((w >> 23 & 1) << 4);
    u->scaleSpace = w >> 16 & 0xf;
    u->scaleTime = w >> 12 & 0xf;
    u->scaleCount = (int)(w >> 8 & 0xf) - ((w >> 11 & 1) << 4);
}

/* A hash of n bytes at s, eight at a time: names are hashed once each,
 * but a byte-at-a-time hash (FNV) was most of pmNewContext's time. */
static uint32_t name_hash(const uint8_t *s, size_t n)
{
    uint64_t h = 0x9e3779b97f4a7c15u ^ n, w;
    size_t whole = n;

    for (; n >= 8; s += 8, n -= 8) {
        memcpy(&w, s, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdu;
        h ^= h >> 32;
    }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (n > 0 && whole >= 8) { /* the last 8 bytes, whose high n are not hashed yet */
        memcpy(&w, s + n - 8, 8);
        h = (h ^ (w >> (8 * (8 - n)))) * 0xff51afd7ed558ccdu;
        n = 0;
    }
#else
    (void)whole;
#endif
    if (n > 0) { /* in a register: bytes stored to memory and loaded as
                  * one word would wait on a store-forwarding stall */
        w = 0;
        for (size_t i = 0; i < n; i++)
            w |= (uint64_t)s[i] << (8 * i);
        h = (h ^ w) * 0xff51afd7ed558ccdu;
    }
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53u;
    h ^= h >> 33;
    return (uint32_t)h;
}

/*
 * Names are kept once per PMID.  A name can only be there already when its
 * PMID's descriptor came before (or it is repeated within one record), so
 * the table that finds names is built only then, on the first descriptor
 * given again or with more than one name, and kept from there on: an
 * archive naming each metric once in one .meta never builds it.
 */

/* The slot of the name table where name s (n bytes, hash h) of pmid is,
 * or the empty slot where it goes. */
static uint32_t name_slot(const arch_meta *m, const uint8_t *s, size_t n, uint32_t h, pmID pmid)
{
    uint32_t i = h & (m->namecap - 1);

    for (;; i = (i + 1) & (m->namecap - 1)) {
        uint32_t at = m->nametab[i];
        if (at == UINT32_MAX)
            return i;
        if (m->name_hashes[at] == h && m->name_pmid[at] == pmid &&
            strncmp(m->names[at], (const char *)s, n) == 0 && m->names[at][n] == '\0')
            return i;
    }
}

/* The slot of the empty table's slot for a name already known distinct. */
static uint32_t empty_slot(const arch_meta *m, uint32_t h)
{
    uint32_t i = h & (m->namecap - 1);

    while (m->nametab[i] != UINT32_MAX)
        i = (i + 1) & (m->namecap - 1);
    return i;
}

/* The name table grown to hold want names, at most half full. */
static int name_table_room(arch_meta *m, size_t want)
{
    uint32_t cap = m->namecap == 0 ? 256 : m->namecap, *tab;

    if (want * 2 <= m->namecap)
        return 0;
    if (want > UINT32_MAX / 4)
        return -ENOMEM;
    while (cap < want * 2)
        cap *= 2;
    if ((tab = malloc((size_t)cap * sizeof(uint32_t))) == NULL)
        return -ENOMEM;
    memset(tab, 0xff, (size_t)cap * sizeof(uint32_t));
    free(m->nametab);
    m->nametab = tab;
    m->namecap = cap;
    for (int i = 0; i < m->nnames; i++)
        tab[empty_slot(m, m->name_hashes[i])] = (uint32_t)i;
    return 0;
}

/* The name table built over the names so far (each distinct). */
static int name_table_build(arch_meta *m)
{
    uint32_t *hp = malloc((size_t)(m->nameroom > 0 ? m->nameroom : 1) * sizeof(uint32_t));

    if (hp == NULL)
        return -ENOMEM;
    for (int i = 0; i < m->nnames; i++)
        hp[i] = name_hash((const uint8_t *)m->names[i], strlen(m->names[i]));
    m->name_hashes = hp;
    return name_table_room(m, (size_t)m->nnames + 1);
}

/* The arrays of names (names, name_pmid and, with the table, name_hashes,
 * of nameroom each) grown to hold want. */
static int names_room(arch_meta *m, size_t want)
{
    int room = m->nameroom;
    pmID *np;
    uint32_t *hp;

    if (want <= (size_t)room)
        return 0;
    if (grow_to((void **)&m->names, &m->nameroom, want, sizeof(char *)) < 0)
        return -ENOMEM;
    if ((np = realloc(m->name_pmid, (size_t)m->nameroom * sizeof(pmID))) == NULL)
        goto short_of;
    m->name_pmid = np;
    if (m->name_hashes != NULL) {
        if ((hp = realloc(m->name_hashes, (size_t)m->nameroom * sizeof(uint32_t))) == NULL)
            goto short_of;
        m->name_hashes = hp;
    }
    return 0;
short_of:
    m->nameroom = room; /* what every array beside names has */
    return -ENOMEM;
}

/* Name s (n bytes) of pmid, once: a PMID named again keeps its names.
 * again: pmid may have the name already (see above). */
static int add_name(arch_meta *m, const uint8_t *s, size_t n, pmID pmid, int again)
{
    uint32_t slot = 0, h = 0;
    char *name;
    const uint8_t *nul = memchr(s, '\0', n);

    if (nul != NULL) /* padded with NULs by some old loggers: the name ends there */
        n = (size_t)(nul - s);
    if (again && m->nametab == NULL && name_table_build(m) < 0)
        return -ENOMEM;
    if (m->nametab != NULL) {
        if (name_table_room(m, (size_t)m->nnames + 1) < 0)
            return -ENOMEM;
        h = name_hash(s, n);
        slot = name_slot(m, s, n, h, pmid);
        if (m->nametab[slot] != UINT32_MAX)
            return 0;
    }
    if (names_room(m, (size_t)m->nnames + 1) < 0 || (name = arena_str(m, s, n)) == NULL)
        return -ENOMEM;
    m->names[m->nnames] = name;
    m->name_pmid[m->nnames] = pmid;
    if (m->nametab != NULL) {
        m->name_hashes[m->nnames] = h;
        m->nametab[slot] = (uint32_t)m->nnames;
    }
    m->nnames++;
    return 0;
}

static int load_desc(arch_meta *m, rd *r)
{
    const uint8_t *q = get_bytes(r, 24); /* the descriptor and its count of names */
    pmDesc d;
    uint32_t numnames, at;
    int sts, again;

    if (q == NULL)
        return PM_ERR_LOGREC;
    d.pmid = arch_be32(q);
    d.type = (int)arch_be32(q + 4);
    d.indom = arch_be32(q + 8);
    d.sem = (int)arch_be32(q + 12);
    units_from(arch_be32(q + 16), &d.units);
    numnames = arch_be32(q + 20);
    if (room_for((void **)&m->descs, &m->descroom, m->ndescs, sizeof(pmDesc)) < 0)
        return -ENOMEM;
    at = (uint32_t)m->ndescs;
    if ((sts = u32map_add(&m->desc_by_pmid, d.pmid, &at)) < 0)
        return sts;
    again = sts == 1 || numnames > 1;
    if (sts == 0)
        m->descs[m->ndescs++] = d;
    else if ((sts = desc_conflict(&m->descs[at], &d)) < 0)
        return sts;
    for (uint32_t i = 0; i < numnames; i++) {
        uint32_t n = get32(r);
        const uint8_t *s = get_bytes(r, n);
        if (s == NULL)
            return PM_ERR_LOGREC;
        if ((sts = add_name(m, s, n, d.pmid, again)) < 0)
            return sts;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Instance domains. */

static meta_indom *indom_slot(arch_meta *m, pmInDom indom)
{
    uint32_t at = u32map_get(&m->indom_by_id, indom);
    meta_indom *d;

    if (at != UINT32_MAX)
        return &m->indoms[at];
    if (room_for((void **)&m->indoms, &m->indomroom, m->nindoms, sizeof(meta_indom)) < 0 ||
        u32map_put(&m->indom_by_id, indom, (uint32_t)m->nindoms) < 0)
        return NULL;
    d = &m->indoms[m->nindoms++];
    memset(d, 0, sizeof(*d));
    d->indom = indom;
    d->view_at = -1;
    d->nunion = -1;
    return d;
}

/* The string at offset off of a table of len bytes: NUL-terminated inside. */
static const uint8_t *table_str(const uint8_t *tab, size_t len, uint32_t off, size_t *n)
{
    const uint8_t *end;

    if (off >= len)
        return NULL;
    if ((end = memchr(tab + off, '\0', len - off)) == NULL)
        return NULL;
    *n = (size_t)(end - (tab + off));
    return tab + off;
}

/* Keep obs in d's list, in time order (after any of the same time). */
static int indom_insert(meta_indom *d, const meta_indom_obs *obs)
{
    int at;

    if (room_for((void **)&d->obs, &d->room, d->nobs, sizeof(*obs)) < 0)
        return -ENOMEM;
    at = d->nobs;
    while (at > 0 && arch_cmp(&d->obs[at - 1].stamp, &obs->stamp) > 0)
        at--;
    memmove(d->obs + at + 1, d->obs + at, (size_t)(d->nobs - at) * sizeof(*obs));
    d->obs[at] = *obs;
    d->nobs++;
    d->view_at = -1;
    return at;
}

static int load_indom(arch_meta *m, rd *r, int version, int delta)
{
    meta_indom_obs obs = {0};
    pmInDom indom;
    uint32_t n;
    const uint8_t *ids, *offs, *tab;
    size_t tablen;
    meta_indom *d;
    int at;

    get_stamp(r, version, &obs.stamp);
    indom = get32(r);
    n = get32(r);
    if (r->bad || n > (r->len - r->off) / 8)
        return PM_ERR_LOGREC;
    ids = get_bytes(r, (size_t)n * 4);
    offs = get_bytes(r, (size_t)n * 4);
    tab = r->p + r->off;
    tablen = r->len - r->off;
    obs.delta = delta;
    obs.n = (int)n;
    obs.inst = arena(m, (size_t)n * sizeof(int) + 1);
    obs.name = arena(m, (size_t)n * sizeof(char *) + 1);
    if (obs.inst == NULL || obs.name == NULL)
        return -ENOMEM;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t off = arch_be32(offs + 4 * i);
        size_t len;
        const uint8_t *s;
        obs.inst[i] = (int)arch_be32(ids + 4 * i);
        if (obs.inst[i] == (int)PM_IN_NULL)
            return PM_ERR_LOGREC;
        if (delta && off == UINT32_MAX) {
            obs.name[i] = NULL; /* removed */
            continue;
        }
        if ((s = table_str(tab, tablen, off, &len)) == NULL)
            return PM_ERR_LOGREC;
        if ((obs.name[i] = arena_str(m, s, len)) == NULL)
            return -ENOMEM;
    }
    if ((d = indom_slot(m, indom)) == NULL)
        return -ENOMEM;
    obs.seq = m->nobs;
    if ((at = indom_insert(d, &obs)) < 0)
        return at;
    m->nobs++;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Labels and help text. */

/* One label set: instance, JSON, then the labels' offsets and lengths. */
static int load_labelset(arch_meta *m, rd *r, pmLabelSet *set)
{
    uint32_t jsonlen, nlabels;
    const uint8_t *json, *lp;

    memset(set, 0, sizeof(*set));
    set->inst = get32(r);
    jsonlen = get32(r);
    json = get_bytes(r, jsonlen);
    nlabels = get32(r);
    set->nlabels = (int)nlabels;
    if (set->nlabels < 0) /* an error code in place of labels: none follow */
        nlabels = 0;
    if (r->bad || jsonlen > PM_MAXLABELJSONLEN || nlabels > PM_MAXLABELS ||
        (lp = get_bytes(r, (size_t)nlabels * 8)) == NULL)
        return PM_ERR_LOGREC;
    set->jsonlen = jsonlen;
    if ((set->json = arena_str(m, json, jsonlen)) == NULL)
        return -ENOMEM;
    if (nlabels == 0)
        return 0;
    if ((set->labels = arena(m, nlabels * sizeof(pmLabel))) == NULL)
        return -ENOMEM;
    for (uint32_t i = 0; i < nlabels; i++, lp += 8) {
        pmLabel *l = &set->labels[i];
        memset(l, 0, sizeof(*l));
        l->name = (unsigned)(lp[0] << 8 | lp[1]);
        l->namelen = lp[2];
        l->flags = lp[3];
        l->value = (unsigned)(lp[4] << 8 | lp[5]);
        l->valuelen = (unsigned)(lp[6] << 8 | lp[7]);
        if ((uint32_t)l->name + l->namelen > jsonlen || (uint32_t)l->value + l->valuelen > jsonlen)
            return PM_ERR_LOGREC;
    }
    return 0;
}

static int load_labels(arch_meta *m, rd *r, int version)
{
    meta_labels ml = {0};
    uint32_t nsets;
    int sts;

    get_stamp(r, version, &ml.stamp);
    ml.type = (int)get32(r);
    ml.ident = (int)get32(r);
    nsets = get32(r);
    /* each set holds at least three words */
    if (r->bad || nsets > (r->len - r->off) / 12)
        return PM_ERR_LOGREC;
    ml.nsets = (int)nsets;
    if (nsets > 0 && (ml.sets = arena(m, nsets * sizeof(pmLabelSet))) == NULL)
        return -ENOMEM;
    for (uint32_t i = 0; i < nsets; i++)
        if ((sts = load_labelset(m, r, &ml.sets[i])) < 0)
            return sts;
    if (room_for((void **)&m->labels, &m->labelroom, m->nlabels, sizeof(ml)) < 0)
        return -ENOMEM;
    m->labels[m->nlabels++] = ml;
    return 0;
}

static int load_text(arch_meta *m, rd *r)
{
    meta_text t;
    const uint8_t *s, *end;
    size_t n;

    t.type = (int)get32(r);
    t.ident = (int)get32(r);
    if (r->bad)
        return PM_ERR_LOGREC;
    s = r->p + r->off;
    n = r->len - r->off;
    if ((end = memchr(s, '\0', n)) != NULL)
        n = (size_t)(end - s);
    if ((t.text = arena_str(m, s, n)) == NULL ||
        room_for((void **)&m->texts, &m->textroom, m->ntexts, sizeof(t)) < 0)
        return -ENOMEM;
    m->texts[m->ntexts++] = t;
    return 0;
}

/* ------------------------------------------------------------------ */

/* Each record type has one layout, whatever the archive's version (PCP
 * reads a v3 record in a v2 archive, and the converse, by its type). */
static int load_record(arch_meta *m, const uint8_t *p, uint32_t len)
{
    rd r = {p + 4, len - 8, 0, 0};
    uint32_t type = get32(&r);

    switch (type) {
    case TYPE_DESC:
        return load_desc(m, &r);
    case TYPE_INDOM_V2:
        return load_indom(m, &r, PM_LOG_VERS02, 0);
    case TYPE_INDOM:
    case TYPE_INDOM_DELTA:
        return load_indom(m, &r, PM_LOG_VERS03, type == TYPE_INDOM_DELTA);
    case TYPE_LABEL_V2:
        return load_labels(m, &r, PM_LOG_VERS02);
    case TYPE_LABEL:
        return load_labels(m, &r, PM_LOG_VERS03);
    case TYPE_TEXT:
        return load_text(m, &r);
    default:
        return PM_ERR_LOGREC;
    }
}

/*
 * Room for the descriptors and names of the records at p (len bytes),
 * counted before they are decoded: the tables are sized once rather than
 * grown (and rehashed) as records come.  Counts are only a size: a record
 * that does not add up is the decoders' to refuse, and a count of names
 * is taken as at most what its record's bytes can hold.
 */
static int meta_reserve(arch_meta *m, const uint8_t *p, size_t len)
{
    size_t ndescs = 0, nnames = 0;

    /* a descriptor record: length and type words, the descriptor's five,
     * the count of names (at 28), each name's length and bytes, the
     * closing length: 36 bytes with no name, 4 more at least for each */
    for (uint32_t n; len >= 12 && (n = arch_be32(p)) >= 12 && n <= len; p += n, len -= n) {
        if (arch_be32(p + 4) == TYPE_DESC && n >= 36) {
            uint32_t k = arch_be32(p + 28), most = (n - 36) / 4;
            ndescs++;
            nnames += k < most ? k : most;
        }
    }
    ndescs += (size_t)m->ndescs;
    nnames += (size_t)m->nnames;
    /* grow_to refuses counts from INT32_MAX / 2 up, before the cast below */
    if (grow_to((void **)&m->descs, &m->descroom, ndescs, sizeof(pmDesc)) < 0 ||
        u32map_reserve(&m->desc_by_pmid, (uint32_t)ndescs) < 0 || names_room(m, nnames) < 0 ||
        (m->nametab != NULL && name_table_room(m, nnames) < 0))
        return -ENOMEM;
    return 0;
}

int meta_load(arch_meta *m, arch_file *f, uint32_t from)
{
    arch_win w = {0};
    uint64_t off = from, start, size;
    uint32_t len;
    const uint8_t *p;
    int sts;

    /* the records are read in one go (up to META_READ; the window goes on
     * from there): a window grown refill by refill copied the file over
     * and over, most of an open's time */
    if ((sts = afile_size(f, &size)) < 0)
        return sts;
    if (size > off) {
        size_t want = (size_t)(size - off < META_READ ? size - off : META_READ);
        if ((p = win_get(&w, f, off, want, ARCH_FORW, &sts)) != NULL)
            sts = meta_reserve(m, p, want);
        if (sts < 0) {
            win_free(&w);
            return sts;
        }
    }
    for (;;) {
        sts = rec_frame(&w, f, off, ARCH_FORW, 12, &start, &len, &p);
        if (sts == REC_END)
            break;
        if (sts == REC_SHORT) { /* a .meta cut inside a record, as PCP */
            sts = PM_ERR_LOGREC;
            break;
        }
        if (sts < 0)
            break;
        if ((sts = load_record(m, p, len)) < 0)
            break;
        off += len;
    }
    win_free(&w);
    return sts < 0 ? sts : 0;
}

void meta_free(arch_meta *m)
{
    struct meta_chunk *c = m->chunks;

    while (c != NULL) {
        struct meta_chunk *next = c->next;
        free(c);
        c = next;
    }
    for (int i = 0; i < m->nindoms; i++) {
        free(m->indoms[i].obs);
        free(m->indoms[i].view_inst);
        free(m->indoms[i].view_name);
        free(m->indoms[i].union_inst);
        free(m->indoms[i].union_name);
        u32map_free(&m->indoms[i].union_by_inst);
        strmap_free(&m->indoms[i].union_by_name);
        strmap_free(&m->indoms[i].union_by_word);
    }
    free(m->indoms);
    free(m->descs);
    free(m->names);
    free(m->name_pmid);
    free(m->name_hashes);
    free(m->nametab);
    free(m->labels);
    free(m->texts);
    u32map_free(&m->desc_by_pmid);
    u32map_free(&m->indom_by_id);
    memset(m, 0, sizeof(*m));
}
