/*
 * pmns_int.h - private to pmns_parse.c (text to groups) and pmns_build.c
 * (groups to the tree).
 */
#ifndef PMKIT_FRONT_PMNS_INT_H
#define PMKIT_FRONT_PMNS_INT_H

#include "pmns.h"

#include <stdbool.h>
#include <stdio.h>

#define PMNS_NONLEAF 0xffffffffu /* entry.pmid of a child without a PMID */

/* One child line of a group: "name" or "name PMID". */
typedef struct pmns_entry {
    uint32_t name, len; /* the child's name in the string arena */
    uint32_t pmid;      /* its PMID, or PMNS_NONLEAF */
    bool dynamic;       /* PMID written DOMAIN:*:* */
} pmns_entry;

/* One "path { ... }" block. */
typedef struct pmns_group {
    uint32_t path, len; /* header in the string arena */
    uint32_t first, n;  /* its entries */
    uint32_t hash;      /* pmns hash of the header path */
    const char *file;   /* where the header is (an interned name) */
    unsigned long line;
    bool attached; /* reached from root while building */
} pmns_group;

/* What the parser hands to the builder. */
typedef struct pmns_parsed {
    char *str; /* string arena */
    size_t slen, scap;
    pmns_entry *ents;
    size_t nents, entcap;
    pmns_group *grps;
    size_t ngrps, grpcap;
    char **files; /* interned file names (from line markers) */
    size_t nfiles;
    const pmns_load_opts *opts;
    unsigned long errors;
    bool pcp;    /* PCP's form of diagnostics: PCP's stops and follow-ons */
    bool hold;   /* PCP's form on stderr: messages held until the load ends,
                  * as PCP's loader holds them (pmprintf) until it flushes, */
    FILE *queue; /* in this stream, opened by the first message */
    char *qbuf;  /* its text */
    size_t qlen;
} pmns_parsed;

/* Report d (an error), in the PMNS dialect. */
void pmns_report(pmns_parsed *ps, diag_msg *d);

/* Report an error (PCP's text) at file:line:col with an optional source;
 * PCP's form names no line (the tree builder's messages). */
void pmns_error(pmns_parsed *ps, const char *file, unsigned long line, size_t col, const char *src,
                size_t srclen, const char *fmt, ...) __attribute__((format(printf, 7, 8)));

/* Make *buf (of *cap elements of size bytes) hold need elements, doubling;
 * false if memory ran out (the buffer is unchanged). */
bool pmns_grow(void **buf, size_t *cap, size_t need, size_t size);

/* The same, to exactly need elements: for a size known or guessed once
 * (an array that stays under malloc's mapping threshold is reused from
 * the heap, load after load, instead of mapped and faulted in afresh). */
bool pmns_reserve(void **buf, size_t *cap, size_t need, size_t size);

/* Build the tree from parsed groups; 0 or PM_ERR_PMNS. */
int pmns_build(pmns_parsed *ps, pmns_tree **out);

#endif /* PMKIT_FRONT_PMNS_INT_H */
