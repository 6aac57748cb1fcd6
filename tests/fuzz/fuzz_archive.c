/*
 * fuzz_archive.c - libFuzzer target for the archive room (libpcp/archive):
 * every decoder on hostile bytes.  A damaged archive must be refused or
 * read safely: no crash, no read outside a record, no endless loop, no
 * allocation beyond what the bytes can justify.
 *
 * Input: the .meta's length and the .index's (4 bytes each,
 * little-endian, clipped to what is there), the .meta, the .index, and the
 * rest is volume 0 (arch_open_mem).  When the archive opens: its label and
 * end; every name, descriptor and name list; every instance domain at its
 * observations' times and over all time, with lookups of each instance;
 * every label set at those times; every help text; every record forward
 * and backward, decoded, with event arrays unpacked, and selected
 * (arch_record_select: it must refuse what the decoder refuses, also on
 * the first records with each of their first words damaged in turn);
 * seeks to each record's time both ways.  The seeds are archives tests/oracle/gen_archive
 * wrote.
 */
#include "archive.h"
#include "pmns.h"

#include <pcp/pmapi.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_RECORDS 4096 /* per direction; the inputs are small */

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Every value of a result, touched; event arrays unpacked. */
static void touch(const pmHighResResult *r)
{
    volatile unsigned sum = 0;

    for (int i = 0; i < r->numpmid; i++) {
        pmValueSet *vs = r->vset[i];
        for (int j = 0; j < vs->numval; j++) {
            const pmValueBlock *vb = vs->vlist[j].value.pval;
            if (vs->valfmt == PM_VAL_INSITU)
                continue;
            if (vb->vlen < PM_VAL_HDR_SIZE)
                abort(); /* a block shorter than its header */
            for (unsigned k = 0; k + PM_VAL_HDR_SIZE < vb->vlen; k++)
                sum += (unsigned char)vb->vbuf[k];
            if (vb->vtype == PM_TYPE_EVENT) {
                pmResult **rs;
                int n = pmUnpackEventRecords(vs, j, &rs);
                if (n >= 0)
                    pmFreeEventResult(rs);
            } else if (vb->vtype == PM_TYPE_HIGHRES_EVENT) {
                pmHighResResult **rs;
                int n = pmUnpackHighResEventRecords(vs, j, &rs);
                if (n >= 0)
                    pmFreeHighResEventResult(rs);
            }
        }
    }
    (void)sum;
}

/* Do a and b hold the same value sets, value for value? */
static int same_sets(const pmHighResResult *a, const pmHighResResult *b)
{
    if (a->numpmid != b->numpmid || a->timestamp.tv_sec != b->timestamp.tv_sec ||
        a->timestamp.tv_nsec != b->timestamp.tv_nsec)
        return 0;
    for (int i = 0; i < a->numpmid; i++) {
        const pmValueSet *x = a->vset[i], *y = b->vset[i];
        if (x->pmid != y->pmid || x->numval != y->numval || x->valfmt != y->valfmt)
            return 0;
        for (int j = 0; j < x->numval; j++) {
            const pmValue *u = &x->vlist[j], *v = &y->vlist[j];
            if (u->inst != v->inst)
                return 0;
            if (x->valfmt == PM_VAL_INSITU
                    ? u->value.lval != v->value.lval
                    : u->value.pval->vlen != v->value.pval->vlen ||
                          memcmp(u->value.pval, v->value.pval, u->value.pval->vlen) != 0)
                return 0;
        }
    }
    return 1;
}

/* arch_record_select's verdict on a record must be arch_record_result's
 * (sts), whatever it selects: none, the archive's first PMID, or all;
 * and arch_record_select_in's, into one block the three selections share
 * (grown by the larger ones), the same. */
static void select_same(arch_set *s, const arch_record *rec, int sts)
{
    int n = arch_npmids(s) < 64 ? arch_npmids(s) : 64;
    pmID pmids[64];
    void *block = NULL;
    size_t cap = 0;

    for (int i = 0; i < n; i++)
        pmids[i] = arch_pmid_at(s, i);
    for (int k = 0; k < 3; k++) {
        arch_pmids *sel = arch_pmids_new(pmids, k == 0 ? 0 : k == 1 ? (n > 0) : n);
        pmHighResResult *r, *b;
        int got;
        if (sel == NULL)
            break;
        got = arch_record_select(s, rec, sel, &r);
        if ((got < 0) != (sts < 0))
            abort(); /* a record refused one way and taken the other */
        if (got == 0)
            touch(r);
        if ((arch_record_select_in(s, rec, sel, &block, &cap, &b) < 0) != (got < 0))
            abort();
        if (got == 0 && ((void *)b != block || !same_sets(r, b)))
            abort(); /* the result in the block, the same as the other */
        if (got == 0)
            pmFreeHighResResult(r);
        arch_pmids_free(sel);
    }
    free(block);
}

#define MUTATE_RECORDS 6  /* records of an input whose words are damaged */
#define MUTATE_WORDS   96 /* the first words of each, one at a time */

/* The first words of a small record damaged one at a time, in ways that
 * break counts, formats and offsets: both decoders must agree. */
static void mutations(arch_set *s, const arch_record *rec)
{
    /* all zero, all ones, plus one, the top bit flipped, and (as a DPTR
     * value's word offset) the payload's end and its last word */
    static const uint32_t flip[] = {0, 0xffffffffu, 1, 0x80000000u, 12, 8};
    size_t len = rec->len >= 8 ? rec->len - 8 : 0;
    uint8_t copy[4 * MUTATE_WORDS + 64];
    arch_record m = *rec;

    if (len > sizeof(copy))
        return;
    m.body = copy;
    for (size_t w = 0; w + 4 <= len && w < 4 * MUTATE_WORDS; w += 4)
        for (size_t f = 0; f < sizeof(flip) / sizeof(flip[0]); f++) {
            pmHighResResult *r;
            int sts;
            memcpy(copy, rec->body, len);
            if (f < 2) {
                memset(copy + w, (int)(flip[f] & 0xff), 4);
            } else {
                uint32_t x = (uint32_t)copy[w] << 24 | (uint32_t)copy[w + 1] << 16 |
                             (uint32_t)copy[w + 2] << 8 | copy[w + 3];
                x = f == 2 ? x + 1 : f == 3 ? x ^ flip[f] : (uint32_t)(len + flip[f]) / 4;
                copy[w] = (uint8_t)(x >> 24);
                copy[w + 1] = (uint8_t)(x >> 16);
                copy[w + 2] = (uint8_t)(x >> 8);
                copy[w + 3] = (uint8_t)x;
            }
            if ((sts = arch_record_result(s, &m, &r)) == 0)
                pmFreeHighResResult(r);
            select_same(s, &m, sts);
        }
}

/* Records one way from where c stands; their times into t[] (forward). */
static int records(arch_set *s, arch_cursor *c, int dir, struct timespec *t, int max)
{
    arch_record rec;
    int n = 0;

    for (int k = 0; k < MAX_RECORDS && arch_cursor_step(c, dir, &rec) > 0; k++) {
        pmHighResResult *r;
        int sts;
        if (t != NULL && n < max)
            t[n++] = rec.stamp;
        if ((sts = arch_record_result(s, &rec, &r)) == 0) {
            touch(r);
            pmFreeHighResResult(r);
        }
        select_same(s, &rec, sts);
        if (dir == ARCH_FORW && k < MUTATE_RECORDS)
            mutations(s, &rec);
    }
    return n;
}

/* Each instance of the view looked up by number, name and first word (the
 * view's arrays are copied first: a lookup may remake them; the names stay
 * while the set is open). */
static void lookups(arch_set *s, pmInDom indom, const arch_indom_view *v)
{
    int n = v->n < 64 ? v->n : 64, ids[64];
    const char *names[64];

    memcpy(ids, v->inst, (size_t)n * sizeof(int));
    memcpy(names, v->name, (size_t)n * sizeof(char *));
    for (int i = 0; i < n; i++) {
        const char *name, *sp;
        char word[256];
        int inst;
        if (names[i] == NULL)
            abort(); /* a view names every instance */
        (void)arch_indom_union_find(s, indom, ids[i], NULL, &inst, &name);
        (void)arch_indom_union_find(s, indom, 0, names[i], &inst, &name);
        if ((sp = strchr(names[i], ' ')) != NULL && (size_t)(sp - names[i]) < sizeof(word)) {
            memcpy(word, names[i], (size_t)(sp - names[i]));
            word[sp - names[i]] = '\0';
            (void)arch_indom_union_find(s, indom, 0, word, &inst, &name);
        }
    }
}

typedef struct walk {
    arch_set *s;
    const struct timespec *t;
    int nt;
} walk;

static int each_indom(const arch_indom_rec *r, void *arg)
{
    walk *w = arg;
    arch_indom_view v;
    int *inst;
    char **names;
    int n;

    if (arch_indom_at(w->s, r->indom, &r->stamp, &v) == 0)
        lookups(w->s, r->indom, &v);
    for (int i = 0; i < w->nt; i += 7)
        (void)arch_indom_at(w->s, r->indom, &w->t[i], &v);
    if ((n = arch_indom_union(w->s, r->indom, &inst, &names)) > 0) {
        free(inst);
        free(names);
    }
    return 0;
}

static int each_label(const arch_label_rec *r, void *arg)
{
    walk *w = arg;
    pmLabelSet *sets;
    int n = arch_labels_at(w->s, r->type, r->ident, &r->stamp, &sets);

    if (n > 0)
        pmFreeLabelSets(sets, n);
    return 0;
}

static int each_text(int type, int ident, const char *text, void *arg)
{
    walk *w = arg;
    const char *got;

    (void)text;
    (void)arch_text(w->s, type, ident, &got);
    return 0;
}

static void metadata(arch_set *s, const struct timespec *t, int nt)
{
    walk w = {s, t, nt};
    int n = arch_nnames(s);
    const char **names = malloc((size_t)(n > 0 ? n : 1) * sizeof(char *));
    uint32_t *pmids = malloc((size_t)(n > 0 ? n : 1) * sizeof(uint32_t));
    pmns_tree *tree;

    if (names != NULL && pmids != NULL) {
        for (int i = 0; i < n; i++)
            names[i] = arch_name_at(s, i, &pmids[i]);
        if (pmns_from_names(names, pmids, (size_t)n, &tree) == 0)
            pmns_free(tree);
    }
    free(names);
    free(pmids);
    for (int i = 0; i < arch_npmids(s); i++) {
        pmDesc d;
        const char *some[4];
        (void)arch_desc(s, arch_pmid_at(s, i), &d);
        (void)arch_names_of(s, arch_pmid_at(s, i), some, 4);
    }
    (void)arch_indom_walk(s, PM_INDOM_NULL, each_indom, &w);
    (void)arch_label_walk(s, each_label, &w);
    (void)arch_text_walk(s, each_text, &w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct timespec t[MAX_RECORDS];
    size_t metalen, indexlen;
    arch_set *s;
    arch_cursor *c;
    struct timespec end;
    arch_ti ti;
    int nt;

    if (size < 8)
        return 0;
    metalen = le32(data);
    indexlen = le32(data + 4);
    data += 8, size -= 8;
    if (metalen > size)
        metalen = size;
    if (indexlen > size - metalen)
        indexlen = size - metalen;
    if (arch_open_mem(data, metalen, data + metalen, indexlen, data + metalen + indexlen,
                      size - metalen - indexlen, 0, &s) < 0)
        return 0;
    (void)arch_end(s, &end);
    for (uint64_t j = 0; j < arch_nindex(s, 0) && j < 64; j++)
        (void)arch_index_entry(s, 0, j, &ti);
    if ((c = arch_cursor_new(s)) != NULL) {
        nt = records(s, c, ARCH_FORW, t, MAX_RECORDS);
        (void)records(s, c, ARCH_BACK, NULL, 0);
        if (arch_cursor_end(c) == 0)
            (void)records(s, c, ARCH_BACK, NULL, 0);
        for (int i = 0; i < nt; i += 5) {
            arch_record rec;
            if (arch_cursor_seek(c, &t[i], ARCH_FORW) == 0)
                (void)arch_cursor_step(c, ARCH_FORW, &rec);
            if (arch_cursor_seek(c, &t[i], ARCH_BACK) == 0)
                (void)arch_cursor_step(c, ARCH_BACK, &rec);
        }
        metadata(s, t, nt);
        arch_cursor_free(c);
    }
    arch_close(s);
    return 0;
}
