/*
 * fuzz_pmns.c - libFuzzer target for the ASCII PMNS parser and tree
 * builder (libpcp/front/pmns_*.c) and the image writer behind them.
 *
 * The first byte picks raw or preprocessed input and dupok; the rest is
 * the namespace text (#include and #shell refused).  A loaded tree is
 * compiled into a namespace image, as libpcp does, and queried: every
 * visible node must be found again by its full name, every leaf with a
 * static PMID must be among its PMID's names, and the image must open.
 */
#include "pmns.h"
#include "pmns_image.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void quiet(void *ctx, const diag_msg *d)
{
    (void)d;
    ++*(unsigned *)ctx;
}

static pmns_image *compile(const pmns_tree *t)
{
    pmns_image_writer *w = pmns_image_writer_new();
    pmns_image *img = NULL;
    uint8_t *buf;
    size_t len;

    if (w == NULL)
        abort();
    for (uint32_t n = 1; n < t->nnodes; n++) {
        const pmns_node *nd = &t->nodes[n];
        if (pmns_image_add(w, nd->parent, t->strings + nd->name, nd->namelen, nd->pmid,
                           (nd->flags & PMNS_F_GRAFTED) != 0) < 0)
            abort(); /* the builder's tree is always in breadth-first order */
    }
    if (pmns_image_finish(w, 1, &buf, &len) < 0 || pmns_image_open_buffer(buf, len, 1, &img, NULL) < 0)
        abort();
    return img;
}

/* Every node below nd: found by name, and on its PMID's list. */
static void check(const pmns_image *img, const pmns_image_node *nd, char *name, size_t cap)
{
    pmns_image_iter it;
    pmns_image_node c, f;
    int more;

    pmns_image_children(nd, &it);
    while ((more = pmns_image_next(img, &it, &c)) > 0) {
        const char *h, *t;
        uint32_t hl, tl, off;
        size_t len;
        if (pmns_image_name(img, &c, &h, &hl, &t, &tl) < 0)
            abort();
        len = hl + (hl > 0) + tl;
        if (len < cap) {
            memcpy(name, h, hl);
            name[hl] = '.';
            memcpy(name + len - tl, t, tl);
            if ((c.flags & PMNS_IMG_VISIBLE) && (pmns_image_find(img, name, len, &f) != c.off))
                abort(); /* a visible node is found by its own name */
        }
        if (c.pmid != PMNS_IMG_PMID_NULL && !(c.flags & PMNS_IMG_DYNAMIC)) {
            pmns_image_pmid_iter pi;
            pmns_image_pmid_first(img, c.pmid, &pi);
            while (pmns_image_pmid_next(img, &pi, &off) > 0 && off != c.off)
                ;
            if (off != c.off)
                abort(); /* every leaf is among its PMID's names */
        }
        check(img, &c, name, cap);
    }
    if (more < 0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pmns_load_opts o = { 0 };
    pmns_tree *t = NULL;
    pmns_image *img;
    pmns_image_node root;
    unsigned diags = 0;
    static char name[4096];

    if (size == 0)
        return 0;
    o.file = "<fuzz>";
    o.use_cpp = data[0] & 1;
    o.dupok = (data[0] >> 1) & 1;
    o.derived = (data[0] >> 2) & 1;
    o.diag = quiet;
    o.diag_ctx = &diags;
    if (pmns_load_buffer(&o, (const char *)data + 1, size - 1, &t) < 0)
        return 0;
    img = compile(t);
    if (pmns_image_verify_body(img, NULL) < 0 || pmns_image_node_at(img, 0, &root) < 0)
        abort();
    check(img, &root, name, sizeof(name));
    pmns_image_close(img);
    pmns_free(t);
    return 0;
}
