/*
 * index.c - the temporal index of an archive: fixed-size entries after
 * its label, each a time, a volume and the bytes of .meta and of that
 * volume written before it (v2: 20 bytes with 32-bit offsets, v3: 32
 * bytes with 64-bit ones).
 *
 * Entries are read from the file when wanted (pread on a small file, or
 * its decompressed copy), never loaded: a seek reads O(log n) of them.
 * Nothing is trusted: a seek checks that the entry it picks names a
 * volume the archive has and an offset past that volume's label, and
 * reads records from there, so a damaged index costs time, not answers.
 * A partial last entry (an index being written) is not counted.
 */
#include "arch_int.h"

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

int index_entry(arch_one *a, uint64_t j, arch_ti *ti)
{
    uint8_t p[32];
    ssize_t got;

    if (j >= a->nti)
        return PM_ERR_LOGREC;
    got = afile_read(&a->index, a->tistart + j * a->tisize, p, a->tisize);
    if (got < 0)
        return (int)got;
    if ((size_t)got < a->tisize)
        return PM_ERR_LOGREC;
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
