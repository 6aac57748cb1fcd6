/*
 * pmns_image_tree.c - between parsed namespace trees (libpcp/front) and
 * images: a tree laid out by the image writer in place (every node but
 * the root, in the tree's order, the grafted derived-metric names flagged
 * as such), and
 * the check that an image is in canonical form (its own text, parsed and
 * written again, gives the same bytes), which pmnscomp --check reports.
 */
#include "pmns.h"
#include "pmns_image_int.h"

#include <stdio.h>
#include <stdlib.h>

int pmns_tree_image(const pmns_tree *t, int seal, uint8_t **image, size_t *len)
{
    return pmns_img_tree_finish(t, seal, image, len); /* read in place, not copied */
}

/* Keep the first diagnostic of a parse, as "line N: MESSAGE". */
static void first_diag(void *ctx, const diag_msg *d)
{
    pmns_canonical *c = ctx;

    if (c->why[0] == '\0')
        snprintf(c->why, sizeof(c->why), "line %lu: %s", d->line, d->message);
}

int pmns_image_canonical(const pmns_image *img, const char *name, pmns_canonical *c)
{
    char *text = NULL;
    size_t tlen = 0, len = 0;
    FILE *fp = open_memstream(&text, &tlen);
    pmns_load_opts o = {0};
    pmns_tree *t = NULL;
    uint8_t *again = NULL;
    int sts = fp == NULL ? PMNS_IMG_ENOMEM : pmns_image_dump(img, fp);

    c->why[0] = '\0';
    c->at = 0;
    if (fp != NULL && fclose(fp) != 0 && sts == 0)
        sts = PMNS_IMG_ENOMEM;
    o.file = name, o.dupok = 1, o.derived = 1, o.diag = first_diag, o.diag_ctx = c;
    if (sts == 0 && pmns_load_buffer(&o, text, tlen, &t) < 0) {
        sts = PMNS_CANON_NOPARSE;
    } else if (sts == 0 && (sts = pmns_tree_image(t, 1, &again, &len)) == 0) {
        while (c->at < len && c->at < img->size && again[c->at] == img->base[c->at])
            c->at++;
        if (c->at < len || c->at < img->size)
            sts = PMNS_CANON_DIFFERS;
    }
    pmns_free(t);
    free(text);
    pmns_image_free(again, len);
    return sts;
}
