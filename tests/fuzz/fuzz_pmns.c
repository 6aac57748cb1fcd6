/*
 * fuzz_pmns.c - libFuzzer target for the ASCII PMNS parser and tree
 * builder (libpcp/front/pmns_*.c).
 *
 * The first byte picks raw or preprocessed input and dupok; the rest is
 * the namespace text (#include and #shell refused).  A loaded tree is then
 * queried (every node's name found again, every leaf's PMID chain walked)
 * so the indexes are exercised too.
 */
#include "pmns.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void quiet(void *ctx, const diag_msg *d)
{
    (void)d;
    ++*(unsigned *)ctx;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pmns_load_opts o = { 0 };
    pmns_tree *t = NULL;
    unsigned diags = 0;
    char name[4096];

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
    for (uint32_t n = 0; n < t->nnodes; n++) {
        size_t len = pmns_name(t, n, name, sizeof(name));
        if (len < sizeof(name) && (t->nodes[n].flags & PMNS_F_VISIBLE) &&
            pmns_find(t, name, len) != n)
            abort(); /* a visible node must be found by its own name */
        if ((t->nodes[n].flags & PMNS_F_LEAF) && !(t->nodes[n].flags & PMNS_F_DYNAMIC)) {
            uint32_t k = pmns_find_pmid(t, t->nodes[n].pmid);
            while (k != PMNS_NONE && k != n)
                k = t->nodes[k].samepmid;
            if (k != n)
                abort(); /* every leaf is on its PMID's chain */
        }
    }
    pmns_free(t);
    return 0;
}
