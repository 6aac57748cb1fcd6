/*
 * index.c - the temporal index of an archive: fixed-size entries after
 * its label, each a time, a volume and the bytes of .meta and of that
 * volume written before it (v2: 20 bytes with 32-bit offsets, v3: 32
 * bytes with 64-bit ones).
 *
 * The first entry wanted reads them all into memory (the index is
 * metadata, a few hundred KB for a day of records; one of more than
 * INDEX_MAX_HELD bytes, or one that cannot be read whole, is read an
 * entry at a time instead), so a seek's binary search makes no system
 * call: an interpolated fetch far from the last seeks twice.  Nothing is
 * trusted: a seek checks that the entry it picks names a
 * volume the archive has and an offset past that volume's label, and
 * reads records from there, so a damaged index costs time, not answers.
 * A partial last entry (an index being written) is not counted.
 */
#include "arch_int.h"

#include <stdlib.h>

#define INDEX_MAX_HELD (64u << 20) /* bytes of entries held in memory, at most */

int index_open(arch_one *a)
{
    uint64_t size;
    int sts;

    a->tisize = a->label.version == PM_LOG_VERS03 ? 32 : 20;
    if ((sts = afile_size(&a->index, &size)) < 0)
        return sts;
    a->nti = size > a->tistart ? (size - a->tistart) / a->tisize : 0;
    return 0;
}

/* Read the nti entries into a->tibuf, once; when that cannot be, they
 * are read one at a time from then on. */
static void index_hold(arch_one *a)
{
    uint64_t bytes = a->nti * a->tisize;
    ssize_t got;

    a->tiload = -1;
    if (bytes > INDEX_MAX_HELD || (a->tibuf = malloc((size_t)bytes)) == NULL)
        return;
    got = afile_read(&a->index, a->tistart, a->tibuf, (size_t)bytes);
    if (got < 0 || (uint64_t)got != bytes) {
        free(a->tibuf);
        a->tibuf = NULL;
        return;
    }
    a->tiload = 1;
}

int index_entry(arch_one *a, uint64_t j, arch_ti *ti)
{
    uint8_t buf[32];
    const uint8_t *p = buf;
    ssize_t got;

    if (j >= a->nti)
        return PM_ERR_LOGREC;
    if (a->tiload == 0)
        index_hold(a);
    if (a->tibuf != NULL) {
        p = a->tibuf + j * a->tisize;
    } else {
        got = afile_read(&a->index, a->tistart + j * a->tisize, buf, a->tisize);
        if (got < 0)
            return (int)got;
        if ((size_t)got < a->tisize)
            return PM_ERR_LOGREC;
    }
    if (a->tisize == 32) {
        arch_stamp3(p, &ti->stamp);
        ti->vol = (int)arch_be32(p + 12);
        ti->meta_off = arch_be64(p + 16);
        ti->data_off = arch_be64(p + 24);
    } else {
        arch_stamp2(p, &ti->stamp);
        ti->vol = (int)arch_be32(p + 8);
        ti->meta_off = arch_be32(p + 12);
        ti->data_off = arch_be32(p + 16);
    }
    return 0;
}
