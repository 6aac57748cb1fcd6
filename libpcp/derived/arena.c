/*
 * arena.c - the memory of one expression's tree: nodes and strings are
 * carved from chunks that are freed together, with the compiled patterns
 * the tree holds.  Nothing is freed on its own.
 */
#include "derived_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct dm_arena_chunk {
    dm_arena_chunk *next; /* the chunk allocated before this one */
    max_align_t data[];   /* the memory handed out */
};

#define CHUNK_MIN 1024

void *dm_arena_alloc(dm_arena *a, size_t size)
{
    size_t align = sizeof(max_align_t);

    size = (size + align - 1) / align * align;
    if (a->chunks == NULL || a->cap - a->used < size) {
        size_t cap = size > CHUNK_MIN ? size : CHUNK_MIN;
        dm_arena_chunk *c = malloc(sizeof(*c) + cap);
        if (c == NULL)
            return NULL;
        c->next = a->chunks;
        a->chunks = c;
        a->used = 0;
        a->cap = cap;
    }
    void *p = (char *)a->chunks->data + a->used;
    a->used += size;
    return p;
}

char *dm_arena_strndup(dm_arena *a, const char *s, size_t len)
{
    char *t = dm_arena_alloc(a, len + 1);

    if (t != NULL) {
        memcpy(t, s, len);
        t[len] = '\0';
    }
    return t;
}

int dm_arena_add_regex(dm_arena *a, regex_t *re)
{
    if (a->nregs == a->regs_cap) {
        size_t cap = a->regs_cap ? a->regs_cap * 2 : 4;
        regex_t **r = realloc(a->regs, cap * sizeof(*r));
        if (r == NULL)
            return -ENOMEM;
        a->regs = r;
        a->regs_cap = cap;
    }
    a->regs[a->nregs++] = re;
    return 0;
}

void dm_arena_free(dm_arena *a)
{
    for (size_t i = 0; i < a->nregs; i++)
        regfree(a->regs[i]);
    free(a->regs);
    while (a->chunks != NULL) {
        dm_arena_chunk *c = a->chunks;
        a->chunks = c->next;
        free(c);
    }
    memset(a, 0, sizeof(*a));
}
