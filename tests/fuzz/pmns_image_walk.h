/*
 * pmns_image_walk.h - the walks over a namespace image shared by the
 * fuzz targets (fuzz_pmns.c, fuzz_pmns_image.c) and the unit test
 * (tests/unit/test_pmns_image.c): every walk the names API makes runs
 * over the image; damage may change the answers but must never crash,
 * read outside the image or loop.  With strict (an image this pmkit
 * writes, or one pmnscomp --check passes) the answers must also agree:
 * every visible node is found by its own name, every node with a static
 * PMID is among that PMID's names, every PMID entry is a node with that
 * PMID, and the body checks pass.
 *
 * A failed check is PMNS_WALK_CHECK(cond): abort() unless the includer
 * defines it first (the unit test makes it a cmocka assertion).
 */
#ifndef PMKIT_TESTS_PMNS_IMAGE_WALK_H
#define PMKIT_TESTS_PMNS_IMAGE_WALK_H

#include "pmns.h"
#include "pmns_image.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef PMNS_WALK_CHECK
#define PMNS_WALK_CHECK(cond)                                                                      \
    do {                                                                                           \
        if (!(cond))                                                                               \
            abort();                                                                               \
    } while (0)
#endif

static inline void walk_quiet(void *ctx, const diag_msg *d)
{
    (void)ctx;
    (void)d;
}

/* pmnscomp --check: checksums, then the dump loaded again (raw, as
 * pmnscomp does) compiles to the same bytes.  1 sound, 0 not. */
static inline int walk_sound(const pmns_image *img)
{
    char *text = NULL;
    size_t tlen = 0, len = 0;
    FILE *fp = open_memstream(&text, &tlen);
    pmns_load_opts o = {0};
    pmns_tree *t = NULL;
    uint8_t *again = NULL;
    int ok = 0;

    if (fp == NULL)
        return 0;
    if (pmns_image_verify_body(img, NULL) < 0 || pmns_image_dump(img, fp) < 0) {
        fclose(fp);
        free(text);
        return 0;
    }
    fclose(fp);
    o.file = "<dump>", o.dupok = 1, o.derived = 1, o.diag = walk_quiet;
    if (pmns_load_buffer(&o, text, tlen, &t) == 0) {
        /* a tree that loads always compiles */
        PMNS_WALK_CHECK(pmns_tree_image(t, 1, &again, &len) == 0);
        ok = len == img->size && memcmp(again, img->base, len) == 0;
    }
    pmns_free(t);
    free(text);
    pmns_image_free(again, len);
    return ok;
}

/* 1 if nd is among its PMID's names. */
static inline int walk_listed(const pmns_image *img, const pmns_image_node *nd)
{
    pmns_image_pmid_iter it;
    uint32_t off;

    pmns_image_pmid_first(img, nd->pmid, &it);
    while (pmns_image_pmid_next(img, &it, &off) > 0)
        if (off == nd->off)
            return 1;
    return 0;
}

/* Everything below nd: each child's full name looked up, then its own
 * children. */
static inline void walk_tree(const pmns_image *img, const pmns_image_node *nd, int strict)
{
    static char name[8192];
    pmns_image_iter it;
    pmns_image_node c, f;
    int more;

    pmns_image_children(nd, &it);
    while ((more = pmns_image_next(img, &it, &c)) > 0) {
        const char *h, *t;
        uint32_t hl, tl;
        size_t len;
        int sts = pmns_image_name(img, &c, &h, &hl, &t, &tl);
        if (strict)
            PMNS_WALK_CHECK(sts == 0);
        if (sts == 0 && (len = (size_t)hl + (hl > 0) + tl) < sizeof(name)) {
            memcpy(name, h, hl);
            name[hl] = '.';
            memcpy(name + len - tl, t, tl);
            uint32_t off;
            /* the lookup's prefetches read slots too: on hostile bytes as well */
            pmns_image_prefetch_node(img, pmns_image_hash(name, len));
            pmns_image_prefetch_parent(img, name, len);
            off = pmns_image_find(img, name, len, &f);
            if (strict && (c.flags & PMNS_IMG_VISIBLE))
                PMNS_WALK_CHECK(off == c.off);
        }
        if (strict && c.pmid != PMNS_IMG_PMID_NULL && !(c.flags & PMNS_IMG_DYNAMIC))
            PMNS_WALK_CHECK(walk_listed(img, &c));
        walk_tree(img, &c, strict);
    }
    if (strict)
        PMNS_WALK_CHECK(more == 0);
}

/* Every PMID entry: its names, each decoded. */
static inline void walk_pmids(const pmns_image *img, int strict)
{
    uint32_t pmid, off;

    for (uint32_t i = 0; pmns_image_entry(img, i, &pmid, &off) == 0; i++) {
        pmns_image_pmid_iter it;
        pmns_image_node nd;
        uint32_t got = 0;
        pmns_image_pmid_first(img, pmid, &it);
        while (pmns_image_pmid_next(img, &it, &off) > 0) {
            const char *h, *t;
            uint32_t hl, tl;
            int sts = pmns_image_node_at(img, off, &nd);
            got++;
            if (sts == 0)
                (void)pmns_image_name(img, &nd, &h, &hl, &t, &tl);
            if (strict)
                PMNS_WALK_CHECK(sts == 0 && nd.pmid == pmid);
        }
        if (strict)
            PMNS_WALK_CHECK(got > 0);
    }
}

/* Every walk over an open image: the tree, the PMID index and, with body,
 * the dump and the body checks (without: walk_sound has run both). */
static inline void walk_image(const pmns_image *img, int strict, int body)
{
    pmns_image_node root;
    FILE *null;
    int sts;

    PMNS_WALK_CHECK(pmns_image_node_at(img, 0, &root) == 0); /* checked at open */
    walk_tree(img, &root, strict);
    walk_pmids(img, strict);
    if (!body)
        return;
    if ((null = fopen("/dev/null", "w")) != NULL) {
        (void)pmns_image_dump(img, null);
        fclose(null);
    }
    sts = pmns_image_verify_body(img, NULL);
    if (strict)
        PMNS_WALK_CHECK(sts == 0);
}

#endif /* PMKIT_TESTS_PMNS_IMAGE_WALK_H */
