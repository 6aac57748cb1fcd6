/*
 * pmns_image_tree.c - a parsed namespace tree (libpcp/front) handed to the
 * image writer: every node but the root, in the tree's order, the
 * grafted derived-metric names flagged as such.
 */
#include "pmns.h"
#include "pmns_image.h"

int pmns_tree_image(const pmns_tree *t, int seal, uint8_t **image, size_t *len)
{
    pmns_image_writer *w = pmns_image_writer_new();
    int sts = w == NULL ? PMNS_IMG_ENOMEM : 0;

    for (uint32_t n = 1; n < t->nnodes && sts == 0; n++) {
        const pmns_node *nd = &t->nodes[n];
        sts = pmns_image_add(w, nd->parent, t->strings + nd->name, nd->namelen, nd->pmid,
                             (nd->flags & PMNS_F_GRAFTED) != 0);
    }
    if (sts < 0) {
        pmns_image_writer_free(w);
        return sts;
    }
    return pmns_image_finish(w, seal, image, len);
}
