/*
 * map.c - a map from 32-bit keys (PMIDs, instance domains) to 32-bit
 * values (table indexes): open addressing with linear probing, kept at
 * most half full, so a lookup costs one or two probes.  Keys are mixed
 * with a multiplicative hash first, as PMIDs of one agent differ in their
 * low bits only.  No deletion: the tables only grow while an archive is
 * open.
 */
#include "arch_int.h"

#include <errno.h>
#include <stdlib.h>

static uint32_t slot_of(uint32_t key, uint32_t cap)
{
    return (uint32_t)(((uint64_t)key * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);
}

void u32map_free(u32map *m)
{
    free(m->keys);
    free(m->vals);
    free(m->used);
    *m = (u32map){0};
}

/* The slot of key in m (cap > 0): where it is, or the empty one where it
 * goes. */
static uint32_t find(const u32map *m, uint32_t key)
{
    uint32_t i = slot_of(key, m->cap);

    while (m->used[i] && m->keys[i] != key)
        i = (i + 1) & (m->cap - 1);
    return i;
}

uint32_t u32map_get(const u32map *m, uint32_t key)
{
    uint32_t i;

    if (m->cap == 0)
        return UINT32_MAX;
    i = find(m, key);
    return m->used[i] ? m->vals[i] : UINT32_MAX;
}

/* Slot i (find's for key) set to key and val. */
static void put_at(u32map *m, uint32_t i, uint32_t key, uint32_t val)
{
    if (!m->used[i])
        m->n++;
    m->used[i] = 1;
    m->keys[i] = key;
    m->vals[i] = val;
}

static void place(u32map *m, uint32_t key, uint32_t val)
{
    put_at(m, find(m, key), key, val);
}

/* The table rebuilt with cap slots (a power of 2 that holds m->n). */
static int rehash(u32map *m, uint32_t cap)
{
    u32map old = *m;

    m->keys = malloc((size_t)cap * sizeof(uint32_t));
    m->vals = malloc((size_t)cap * sizeof(uint32_t));
    m->used = calloc(cap, 1);
    if (m->keys == NULL || m->vals == NULL || m->used == NULL) {
        free(m->keys);
        free(m->vals);
        free(m->used);
        *m = old;
        return -ENOMEM;
    }
    m->cap = cap;
    m->n = 0;
    for (uint32_t i = 0; i < old.cap; i++)
        if (old.used[i])
            place(m, old.keys[i], old.vals[i]);
    u32map_free(&old);
    return 0;
}

int u32map_reserve(u32map *m, uint32_t n)
{
    uint32_t cap = m->cap == 0 ? 64 : m->cap;

    if (n > UINT32_MAX / 4)
        return -ENOMEM;
    while (cap < 2 * n)
        cap *= 2;
    return cap == m->cap ? 0 : rehash(m, cap);
}

int u32map_add(u32map *m, uint32_t key, uint32_t *val)
{
    uint32_t i;

    if ((m->n + 1) * 2 > m->cap && u32map_reserve(m, m->n + 1) < 0)
        return -ENOMEM;
    i = find(m, key);
    if (m->used[i]) {
        *val = m->vals[i];
        return 1;
    }
    put_at(m, i, key, *val);
    return 0;
}

int u32map_put(u32map *m, uint32_t key, uint32_t val)
{
    if ((m->n + 1) * 2 > m->cap && u32map_reserve(m, m->n + 1) < 0)
        return -ENOMEM;
    place(m, key, val);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Strings (pointer and length, owned by the caller) to 32-bit values. */

static uint32_t str_hash(const char *s, size_t n)
{
    uint32_t h = 2166136261u;

    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

void strmap_free(strmap *m)
{
    free(m->ent);
    *m = (strmap){0};
}

uint32_t strmap_get(const strmap *m, const char *s, size_t n)
{
    if (m->cap == 0)
        return UINT32_MAX;
    for (uint32_t i = str_hash(s, n) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        const strmap_ent *e = &m->ent[i];
        if (e->s == NULL)
            return UINT32_MAX;
        if (e->n == n && memcmp(e->s, s, n) == 0)
            return e->val;
    }
}

static void str_place(strmap *m, const char *s, size_t n, uint32_t val)
{
    uint32_t i = str_hash(s, n) & (m->cap - 1);

    while (m->ent[i].s != NULL && !(m->ent[i].n == n && memcmp(m->ent[i].s, s, n) == 0))
        i = (i + 1) & (m->cap - 1);
    if (m->ent[i].s != NULL)
        return; /* the first value stays */
    m->ent[i] = (strmap_ent){s, n, val};
    m->n++;
}

int strmap_add(strmap *m, const char *s, size_t n, uint32_t val)
{
    if ((m->n + 1) * 2 > m->cap) {
        strmap old = *m;
        uint32_t cap = m->cap == 0 ? 64 : m->cap * 2;
        if (cap == 0 || (m->ent = calloc(cap, sizeof(strmap_ent))) == NULL) {
            *m = old;
            return -ENOMEM;
        }
        m->cap = cap;
        m->n = 0;
        for (uint32_t i = 0; i < old.cap; i++)
            if (old.ent[i].s != NULL)
                str_place(m, old.ent[i].s, old.ent[i].n, old.ent[i].val);
        free(old.ent);
    }
    str_place(m, s, n, val);
    return 0;
}
