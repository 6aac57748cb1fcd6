/*
 * proc_meminfo.c - /proc/meminfo: "Key:   value [kB]" lines into an array
 * indexed by the MI_* constants.
 *
 * The key is the text before the first ':' of a line, looked up in a
 * sorted table by binary search; unknown keys are skipped.  A value that
 * is missing (no digits) leaves the entry absent.  Units are not read:
 * the kernel writes kB everywhere but on the HugePages_* counts.
 */
#include "proc.h"

#include <stdlib.h>
#include <string.h>

/* Every key the agent uses, sorted by strcmp, with its MI_* index. */
static const struct {
    const char *key;
    int index;
} keys[] = {
    {"Active", MI_ACTIVE},
    {"Active(anon)", MI_ACTIVE_ANON},
    {"Active(file)", MI_ACTIVE_FILE},
    {"AnonHugePages", MI_ANONHUGEPAGES},
    {"AnonPages", MI_ANONPAGES},
    {"Bounce", MI_BOUNCE},
    {"Buffers", MI_BUFFERS},
    {"Cached", MI_CACHED},
    {"CommitLimit", MI_COMMITLIMIT},
    {"Committed_AS", MI_COMMITTED_AS},
    {"DirectMap1G", MI_DIRECTMAP1G},
    {"DirectMap2M", MI_DIRECTMAP2M},
    {"DirectMap4k", MI_DIRECTMAP4K},
    {"Dirty", MI_DIRTY},
    {"HardwareCorrupted", MI_HARDWARECORRUPTED},
    {"HighFree", MI_HIGHFREE},
    {"HighTotal", MI_HIGHTOTAL},
    {"HugePages_Free", MI_HUGEPAGES_FREE},
    {"HugePages_Rsvd", MI_HUGEPAGES_RSVD},
    {"HugePages_Surp", MI_HUGEPAGES_SURP},
    {"HugePages_Total", MI_HUGEPAGES_TOTAL},
    {"Hugepagesize", MI_HUGEPAGESIZE},
    {"Inactive", MI_INACTIVE},
    {"Inactive(anon)", MI_INACTIVE_ANON},
    {"Inactive(file)", MI_INACTIVE_FILE},
    {"KernelStack", MI_KERNELSTACK},
    {"LowFree", MI_LOWFREE},
    {"LowTotal", MI_LOWTOTAL},
    {"Mapped", MI_MAPPED},
    {"MemAvailable", MI_MEMAVAILABLE},
    {"MemFree", MI_MEMFREE},
    {"MemShared", MI_MEMSHARED},
    {"MemTotal", MI_MEMTOTAL},
    {"Mlocked", MI_MLOCKED},
    {"MmapCopy", MI_MMAPCOPY},
    {"NFS_Unstable", MI_NFS_UNSTABLE},
    {"PageTables", MI_PAGETABLES},
    {"Quicklists", MI_QUICKLISTS},
    {"ReverseMaps", MI_REVERSEMAPS},
    {"SReclaimable", MI_SRECLAIMABLE},
    {"SUnreclaim", MI_SUNRECLAIM},
    {"Shmem", MI_SHMEM},
    {"Slab", MI_SLAB},
    {"SwapCached", MI_SWAPCACHED},
    {"SwapFree", MI_SWAPFREE},
    {"SwapTotal", MI_SWAPTOTAL},
    {"Unevictable", MI_UNEVICTABLE},
    {"VmallocChunk", MI_VMALLOCCHUNK},
    {"VmallocTotal", MI_VMALLOCTOTAL},
    {"VmallocUsed", MI_VMALLOCUSED},
    {"Writeback", MI_WRITEBACK},
};
#define NKEYS (sizeof keys / sizeof keys[0])

/* Compares the counted string K (length N) with the C string S, like strcmp. */
static int keycmp(const char *k, size_t n, const char *s)
{
    size_t sl = strlen(s);
    int c = memcmp(k, s, n < sl ? n : sl);

    if (c != 0)
        return c;
    return n < sl ? -1 : n > sl;
}

/* MI_* index of the key K (length N), or -1. */
static int lookup(const char *k, size_t n)
{
    size_t lo = 0, hi = NKEYS;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = keycmp(k, n, keys[mid].key);
        if (c == 0)
            return keys[mid].index;
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return -1;
}

void proc_meminfo_parse(proc_meminfo *m, const char *text, size_t len)
{
    const char *p = text, *end = text + len, *line, *eol;

    for (int i = 0; i < MI_NKEYS; i++)
        m->v[i] = PROC_ABSENT;
    while (proc_next_line(&p, end, &line, &eol)) {
        const char *colon = memchr(line, ':', (size_t)(eol - line));
        int k;
        uint64_t v;

        if (colon == NULL || (k = lookup(line, (size_t)(colon - line))) < 0)
            continue;
        colon++;
        if (proc_scan_u64(&colon, eol, &v))
            m->v[k] = v;
    }
}

const char *proc_meminfo_key(int k)
{
    for (size_t i = 0; i < NKEYS; i++)
        if (keys[i].index == k)
            return keys[i].key;
    return NULL;
}
