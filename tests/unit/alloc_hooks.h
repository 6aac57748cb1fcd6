/*
 * alloc_hooks.h - allocation failure for the unit tests linked with
 * -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc (tests/unit/CMakeLists.txt):
 * the static libraries' allocations come here.  alloc_left counts down
 * the allocations still allowed (-1: no limit); at 0 every one fails until
 * it is set again.  alloc_largest records the largest request.
 */
#ifndef PMKIT_ALLOC_HOOKS_H
#define PMKIT_ALLOC_HOOKS_H

#include <stddef.h>
#include <stdint.h>

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t size);

static long alloc_left = -1;
static size_t alloc_largest;

/* Record a request of size bytes; 0 if it must fail. */
static int alloc_allowed(size_t size)
{
    if (size > alloc_largest)
        alloc_largest = size;
    if (alloc_left < 0)
        return 1;
    if (alloc_left == 0)
        return 0;
    alloc_left--;
    return 1;
}

void *__wrap_malloc(size_t size)
{
    return alloc_allowed(size) ? __real_malloc(size) : NULL;
}

void *__wrap_calloc(size_t n, size_t size)
{
    size_t total = n != 0 && size > SIZE_MAX / n ? SIZE_MAX : n * size;

    return alloc_allowed(total) ? __real_calloc(n, size) : NULL;
}

void *__wrap_realloc(void *p, size_t size)
{
    return alloc_allowed(size) ? __real_realloc(p, size) : NULL;
}

#endif /* PMKIT_ALLOC_HOOKS_H */
