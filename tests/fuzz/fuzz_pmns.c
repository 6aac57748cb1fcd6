/*
 * fuzz_pmns.c - libFuzzer target for the ASCII PMNS parser and tree
 * builder (libpcp/front/pmns_*.c) and the image writer behind them.
 *
 * The first byte picks raw or preprocessed input and dupok; the rest is
 * the namespace text (#include and #shell refused).  A loaded tree is
 * compiled into a namespace image, as libpcp does, which must open and
 * pass every strict walk of pmns_image_walk.h: every visible node found
 * again by its full name, every leaf with a static PMID among its PMID's
 * names, every PMID entry a node with that PMID, the body checks passed.
 */
#include "pmns.h"
#include "pmns_image.h"
#include "pmns_image_walk.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void quiet(void *ctx, const diag_msg *d)
{
    (void)d;
    ++*(unsigned *)ctx;
}

static pmns_image *compile(const pmns_tree *t)
{
    pmns_image *img = NULL;
    uint8_t *buf;
    size_t len;

    /* the builder's tree is always in breadth-first order */
    if (pmns_tree_image(t, 1, &buf, &len) < 0 ||
        pmns_image_open_buffer(buf, len, 1, &img, NULL) < 0)
        abort();
    return img;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pmns_load_opts o = {0};
    pmns_tree *t = NULL;
    pmns_image *img;
    unsigned diags = 0;

    if (size == 0)
        return 0;
    o.file = "<fuzz>";
    o.use_cpp = data[0] & 1;
    o.dupok = (data[0] >> 1) & 1;
    o.derived = (data[0] >> 2) & 1;
    o.form = (data[0] >> 3) & 1 ? DIAG_FORM_PCP : DIAG_FORM_RICH; /* PCP's stops, or every error */
    o.diag = quiet;
    o.diag_ctx = &diags;
    if (pmns_load_buffer(&o, (const char *)data + 1, size - 1, &t) < 0)
        return 0;
    img = compile(t);
    walk_image(img, 1, 1);
    pmns_image_close(img);
    pmns_free(t);
    return 0;
}
