/*
 * pmns_mem.c - the large working arrays of a namespace load (the text, the
 * parser's entries and groups, the tree, the image writer's arrays and
 * the image itself), kept for the next load once the process has unloaded
 * a namespace.
 *
 * A load of the 3000-name default root works through about 0.5 MB of
 * arrays and frees them (the image at pmUnloadNameSpace).  Given back to
 * malloc, that memory ends at the top of the heap, which is trimmed
 * (brk), or was mapped on its own (128 KiB and more): every load of a
 * process that loads again faulted it all in afresh, about 90 page
 * faults, a fifth of the load's time.  Here a freed block of
 * PMNS_MEM_MIN bytes or more is kept instead, up to PMNS_MEM_SLOTS blocks
 * of at most PMNS_MEM_BLOCK and PMNS_MEM_TOTAL together, and handed out
 * again (the smallest that fits) for a request of that size: a reload
 * then takes the same blocks, already resident, and neither the heap nor
 * the mappings grow (tests/unit/test_pmns_reload.c).
 *
 * Blocks are kept only once a namespace has been unloaded
 * (pmns_mem_keep) whose image was PMNS_MEM_TOTAL or smaller: a process
 * that loads once, as most do, holds no more than the namespace, and one
 * that reloads a large namespace (whose arrays would not be kept anyway)
 * keeps none, which would only split its heap (1M names: 8% more peak
 * memory over three loads when they were kept).  Every block is an ordinary malloc block, so free()
 * and realloc() remain correct on any of them; going through here only
 * decides what is kept.  Large namespaces' arrays are freed as before.
 * After a large text load (an image over PMNS_MEM_TOTAL), pmns_mem_trim
 * gives the heap's free pages back: the load's arrays, freed, were left
 * resident in the heap (malloc's trim threshold, raised by the first
 * large block freed, is then twice that block), about a third again of
 * what the namespace keeps (100k names: 3.4 MiB besides the image and
 * the leaf index).
 * Not here: anything smaller than PMNS_MEM_MIN (left to malloc).
 */
#include "pmns.h"

#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define PMNS_MEM_MIN   (8u << 10)
#define PMNS_MEM_BLOCK (1u << 20)
#define PMNS_MEM_TOTAL (4u << 20)
#define PMNS_MEM_SLOTS 16

static pthread_mutex_t mem_lock = PTHREAD_MUTEX_INITIALIZER;
static void *kept[PMNS_MEM_SLOTS];
static size_t kept_size[PMNS_MEM_SLOTS], kept_total;
static atomic_bool keeping;

void pmns_mem_trim(size_t image)
{
#if defined(__GLIBC__)
    if (image > PMNS_MEM_TOTAL)
        (void)malloc_trim(0);
#else
    (void)image;
#endif
}

void pmns_mem_keep(size_t image)
{
    bool on = image <= PMNS_MEM_TOTAL;

    atomic_store_explicit(&keeping, on, memory_order_relaxed);
    if (on)
        return;
    pthread_mutex_lock(&mem_lock); /* a large namespace's: its blocks are not kept */
    for (int i = 0; i < PMNS_MEM_SLOTS; i++) {
        free(kept[i]);
        kept[i] = NULL;
    }
    kept_total = 0;
    pthread_mutex_unlock(&mem_lock);
}

/* The smallest kept block of n bytes or more, taken, or NULL. */
static void *take(size_t n)
{
    int best = -1;
    void *p = NULL;

    if (n < PMNS_MEM_MIN || n > PMNS_MEM_BLOCK ||
        !atomic_load_explicit(&keeping, memory_order_relaxed))
        return NULL;
    pthread_mutex_lock(&mem_lock);
    for (int i = 0; i < PMNS_MEM_SLOTS; i++)
        if (kept[i] != NULL && kept_size[i] >= n && (best < 0 || kept_size[i] < kept_size[best]))
            best = i;
    if (best >= 0) {
        p = kept[best];
        kept[best] = NULL;
        kept_total -= kept_size[best];
    }
    pthread_mutex_unlock(&mem_lock);
    return p;
}

void *pmns_mem_alloc(size_t n)
{
    void *p = take(n);

    return p != NULL ? p : malloc(n > 0 ? n : 1);
}

void *pmns_mem_calloc(size_t n)
{
    void *p = take(n);

    return p != NULL ? memset(p, 0, n) : calloc(1, n > 0 ? n : 1);
}

void *pmns_mem_realloc(void *p, size_t n)
{
    void *q;

    if (p == NULL)
        return pmns_mem_alloc(n);
    if ((q = take(n)) == NULL)
        return realloc(p, n);
    memcpy(q, p, malloc_usable_size(p) < n ? malloc_usable_size(p) : n);
    pmns_mem_free(p);
    return q;
}

void pmns_mem_free(void *p)
{
    size_t size;
    bool keep = false;

    if (p == NULL)
        return;
    size = malloc_usable_size(p);
    if (size >= PMNS_MEM_MIN && size <= PMNS_MEM_BLOCK &&
        atomic_load_explicit(&keeping, memory_order_relaxed)) {
        pthread_mutex_lock(&mem_lock);
        for (int i = 0; i < PMNS_MEM_SLOTS && !keep && kept_total + size <= PMNS_MEM_TOTAL; i++)
            if (kept[i] == NULL) {
                kept[i] = p;
                kept_size[i] = size;
                kept_total += size;
                keep = true;
            }
        pthread_mutex_unlock(&mem_lock);
    }
    if (!keep)
        free(p);
}
