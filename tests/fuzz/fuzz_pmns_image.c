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
 * name, every node with a static PMID is among its PMID's names and
 * every PMID entry is a node with that PMID (pmns_image_walk.h).
 */
#include "pmns.h"
#include "pmns_image.h"
#include "pmns_image_walk.h"

#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pmns_image *img;
    int sound;

    if (pmns_image_open_buffer(data, size, 0, &img, NULL) < 0)
        return 0;
    sound = walk_sound(img); /* verified and dumped if sound */
    walk_image(img, sound, !sound);
    pmns_image_close(img);
    return 0;
}
