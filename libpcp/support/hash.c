/*
 * hash.c - PCP's hash tables keyed by an unsigned int (<pcp/libpcp.h>'s
 * __pmHashCtl): chains of nodes in buckets, the newest of a key found
 * first, walked bucket by bucket, for agents and tools that use them.
 *
 * Layout, growth and order are PCP's, so that walks come out in PCP's
 * order (tests/oracle/probe_internal.c): a key goes to bucket key % hsize,
 * at the head of its chain; the first node makes one bucket; when the
 * nodes exceed four per bucket the table doubles, then grows by 2 for each
 * of 3 and 5 the size is not a multiple of, and the chains are moved over
 * bucket by bucket, each from its tail, each node to the tail of its new
 * chain (Debian's pmdumplog -d and -i walk these tables; oracle.system's
 * walk and oracle.debian_pmdumplog on omnibus-nomark_v3 show the order).
 *
 * Three of PCP's slips are not kept (docs/compat.md): deleting from a
 * walk (__pmHashWalkCB) and clearing a table count the nodes that go, and
 * __pmHashPreAlloc on a table that has nodes keeps them.
 */
#include "support.h"

#include <errno.h>
#include <stdlib.h>

#include <pcp/libpcp.h>

void __pmHashInit(__pmHashCtl *hcp)
{
    hcp->nodes = 0;
    hcp->hsize = 0;
    hcp->hash = NULL;
    hcp->next = NULL;
    hcp->index = 0;
}

/* Every node of hcp moved into table (of size buckets), as PCP's library
 * moves them (Debian's walk order, seen with random keys): old bucket by
 * old bucket, each chain from its tail to its head, each node appended
 * to the tail of its new bucket (tails: size entries, NULL at first). */
static void move_all(__pmHashCtl *hcp, __pmHashNode **table, __pmHashNode **tails, int size)
{
    for (int i = 0; i < hcp->hsize; i++) {
        __pmHashNode *rev = NULL, *n = hcp->hash[i];
        while (n != NULL) { /* the chain reversed */
            __pmHashNode *next = n->next;
            n->next = rev;
            rev = n;
            n = next;
        }
        while (rev != NULL) {
            __pmHashNode *next = rev->next;
            unsigned b = rev->key % (unsigned)size;
            rev->next = NULL;
            if (tails[b] == NULL)
                table[b] = rev;
            else
                tails[b]->next = rev;
            tails[b] = rev;
            rev = next;
        }
    }
}

/* A table of size buckets (at least one allocated), the nodes moved in. */
static int resize(__pmHashCtl *hcp, int size)
{
    size_t n = size > 0 ? (size_t)size : 1;
    __pmHashNode **table = calloc(n, sizeof(*table)), **tails = calloc(n, sizeof(*tails));

    if (table == NULL || tails == NULL) {
        free(table);
        free(tails);
        return -ENOMEM;
    }
    if (hcp->hash != NULL && size > 0)
        move_all(hcp, table, tails, size);
    free(tails);
    free(hcp->hash);
    hcp->hash = table;
    hcp->hsize = size;
    hcp->next = NULL;
    hcp->index = 0;
    return 0;
}

int __pmHashPreAlloc(int size, __pmHashCtl *hcp)
{
    if (size < 0)
        return -ENOMEM;
    if (size == 0 && hcp->nodes > 0)
        size = 1; /* nowhere else to keep them */
    return resize(hcp, size);
}

int __pmHashAdd(unsigned int key, void *data, __pmHashCtl *hcp)
{
    __pmHashNode *n = malloc(sizeof(*n)), **slot;

    if (n == NULL)
        return -ENOMEM;
    hcp->nodes++;
    if (hcp->hsize == 0) {
        if (resize(hcp, 1) < 0)
            goto fail;
    } else if (hcp->nodes / 4 > hcp->hsize) {
        int size = hcp->hsize * 2;
        if (size % 2)
            size++;
        if (size % 3)
            size += 2;
        if (size % 5)
            size += 2;
        if (resize(hcp, size) < 0)
            goto fail;
    }
    n->key = key;
    n->data = data;
    slot = &hcp->hash[key % (unsigned)hcp->hsize];
    n->next = *slot;
    *slot = n;
    return 1;
fail:
    hcp->nodes--;
    free(n);
    return -ENOMEM;
}

__pmHashNode *__pmHashSearch(unsigned int key, __pmHashCtl *hcp)
{
    if (hcp->hsize <= 0)
        return NULL;
    for (__pmHashNode *n = hcp->hash[key % (unsigned)hcp->hsize]; n != NULL; n = n->next) {
        if (n->key == key)
            return n;
    }
    return NULL;
}

/* Remove the first node with this key and data: 1, or 0 when none. */
int __pmHashDel(unsigned int key, void *data, __pmHashCtl *hcp)
{
    if (hcp->hsize <= 0)
        return 0;
    for (__pmHashNode **p = &hcp->hash[key % (unsigned)hcp->hsize]; *p != NULL; p = &(*p)->next) {
        __pmHashNode *n = *p;
        if (n->key == key && n->data == data) {
            if (hcp->next == n)
                hcp->next = n->next;
            *p = n->next;
            free(n);
            hcp->nodes--;
            return 1;
        }
    }
    return 0;
}

/* The next node from (index, next) on, in walk order, or NULL. */
static __pmHashNode *walk_from(__pmHashCtl *hcp)
{
    while (hcp->next == NULL) {
        if (hcp->index >= (unsigned)hcp->hsize)
            return NULL;
        hcp->next = hcp->hash[hcp->index++];
    }
    return hcp->next;
}

__pmHashNode *__pmHashWalk(__pmHashCtl *hcp, __pmHashWalkState state)
{
    __pmHashNode *n;

    if (state == PM_HASH_WALK_START) {
        hcp->index = 0;
        hcp->next = NULL;
    } else if (state != PM_HASH_WALK_NEXT) {
        return NULL;
    }
    if ((n = walk_from(hcp)) != NULL)
        hcp->next = n->next;
    return n;
}

void __pmHashWalkCB(__pmHashWalkCallback cb, void *cdata, const __pmHashCtl *hcp)
{
    __pmHashCtl *ctl = (__pmHashCtl *)hcp; /* deletions change it, as in PCP */

    for (int i = 0; i < ctl->hsize; i++) {
        __pmHashNode **p = &ctl->hash[i];
        while (*p != NULL) {
            __pmHashNode *n = *p;
            __pmHashWalkState s = cb(n, cdata);
            if (s == PM_HASH_WALK_DELETE_NEXT || s == PM_HASH_WALK_DELETE_STOP) {
                *p = n->next;
                free(n);
                ctl->nodes--;
            } else {
                p = &n->next;
            }
            if (s == PM_HASH_WALK_STOP || s == PM_HASH_WALK_DELETE_STOP)
                return;
        }
    }
}

void __pmHashClear(__pmHashCtl *hcp)
{
    for (int i = 0; i < hcp->hsize; i++) {
        __pmHashNode *n = hcp->hash[i];
        while (n != NULL) {
            __pmHashNode *next = n->next;
            free(n);
            n = next;
        }
    }
    free(hcp->hash);
    __pmHashInit(hcp);
}

void __pmHashFree(__pmHashCtl *hcp)
{
    __pmHashClear(hcp);
}
