/*
 * fuzz_pmns_image.c - libFuzzer target for the namespace image reader
 * (libpcp/format/pmns_image.c) on hostile bytes.
 *
 * The input is an image file.  If it opens (the O(1) checks of
 * docs/pmns-format.md §8), every walk the names API makes runs over it:
 * the whole tree through the child iterators, every node's full name
 * looked up, every PMID entry's names, the dump and the body checks.
 * Damage may change the answers but must never crash, read outside the
 * input or loop (a walk visits each record once: children follow their
 * parent and name it).  An image that passes the whole of pmnscomp
 * --check (checksums, then its dump compiled again gives the same bytes)
 * must also answer consistently: every visible node is found by its own
 * name and every PMID entry is a node with that PMID.
 */
#include "pmns.h"
#include "pmns_image.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void quiet(void *ctx, const diag_msg *d)
{
    (void)ctx;
    (void)d;
}

/* Walk everything below nd; with strict, the answers must agree. */
static void walk(const pmns_image *img, const pmns_image_node *nd, int strict)
{
    static char name[8192];
    pmns_image_iter it;
    pmns_image_node c, f;
    int more;

    pmns_image_children(nd, &it);
    while ((more = pmns_image_next(img, &it, &c)) > 0) {
        const char *h, *t;
        uint32_t hl, tl, off;
        size_t len;
        if (pmns_image_name(img, &c, &h, &hl, &t, &tl) == 0 &&
            (len = (size_t)hl + (hl > 0) + tl) < sizeof(name)) {
            memcpy(name, h, hl);
            name[hl] = '.';
            memcpy(name + len - tl, t, tl);
            off = pmns_image_find(img, name, len, &f);
            if (strict && (c.flags & PMNS_IMG_VISIBLE) && off != c.off)
                abort();
        }
        walk(img, &c, strict);
    }
    if (strict && more < 0)
        abort();
}

/* Every PMID entry: its names; with strict, each is a node with that PMID. */
static void pmids(const pmns_image *img, int strict)
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
            got++;
            if (pmns_image_node_at(img, off, &nd) == 0)
                (void)pmns_image_name(img, &nd, &h, &hl, &t, &tl);
            else if (strict)
                abort();
            if (strict && nd.pmid != pmid)
                abort();
        }
        if (strict && got == 0)
            abort();
    }
}

/* pmnscomp --check: checksums, then the dump compiles to the same bytes. */
static int sound(const pmns_image *img)
{
    char *text = NULL;
    size_t tlen = 0, len = 0;
    FILE *fp = open_memstream(&text, &tlen);
    pmns_load_opts o = {0};
    pmns_tree *t = NULL;
    pmns_image_writer *w;
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
    o.file = "<dump>", o.dupok = 1, o.derived = 1, o.diag = quiet;
    if (pmns_load_buffer(&o, text, tlen, &t) == 0 && (w = pmns_image_writer_new()) != NULL) {
        int sts = 0;
        for (uint32_t n = 1; n < t->nnodes && sts == 0; n++)
            sts = pmns_image_add(w, t->nodes[n].parent, t->strings + t->nodes[n].name,
                                 t->nodes[n].namelen, t->nodes[n].pmid,
                                 (t->nodes[n].flags & PMNS_F_GRAFTED) != 0);
        if (sts < 0)
            pmns_image_writer_free(w);
        else if (pmns_image_finish(w, 1, &again, &len) == 0)
            ok = len == img->size && memcmp(again, img->base, len) == 0;
    }
    pmns_free(t);
    free(text);
    pmns_image_free(again, len);
    return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pmns_image *img;
    pmns_image_node root;
    FILE *null;
    int strict;

    if (pmns_image_open_buffer(data, size, 0, &img, NULL) < 0)
        return 0;
    strict = sound(img);
    if (pmns_image_node_at(img, 0, &root) < 0)
        abort(); /* checked at open */
    walk(img, &root, strict);
    pmids(img, strict);
    if ((null = fopen("/dev/null", "w")) != NULL) {
        (void)pmns_image_dump(img, null);
        fclose(null);
    }
    pmns_image_close(img);
    return 0;
}
