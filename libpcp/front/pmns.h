/*
 * pmns.h - the ASCII PMNS parser and the namespace tree it builds.
 *
 * pmns_load reads a namespace (through the in-process preprocessor, or raw
 * as pmLoadNameSpace does), checks it with PCP's rules and messages, and
 * returns the tree:
 *   - nodes in breadth-first order, each node's children contiguous and in
 *     file order, so parents come before their children;
 *   - each node's own name in a string arena, NUL-terminated (but with
 *     pmns_load_opts.image_only, where a name may be followed by any
 *     byte: a raw load's names are where the file's text has them).
 * The tree is a builder's result, not an index: pmns_tree_image turns it
 * into a namespace image (libpcp/format/pmns_image.h), for the runtime
 * (libpcp/names/pmns.c) and pmnscomp; every lookup reads the image.
 * Nothing here is global.
 */
#ifndef PMKIT_FRONT_PMNS_H
#define PMKIT_FRONT_PMNS_H

#include <stddef.h>
#include <stdint.h>

#include "cpp.h"
#include "diag.h"
#include "pmns_hash.h"

#define PMNS_NONE UINT32_MAX

/* Node flags. */
#define PMNS_F_LEAF    1u  /* has a PMID (dynamic roots too) */
#define PMNS_F_DYNAMIC 2u  /* a dynamic subtree root, DOMAIN:*:* */
#define PMNS_F_GRAFTED 8u  /* added for the derived metrics, not in the file */
#define PMNS_F_WASLEAF 16u /* a leaf "event" made the derived subtree; keeps its PMID */

typedef struct pmns_node {
    uint32_t name;    /* offset of this node's own name in strings */
    uint32_t namelen; /* its length */
    uint32_t parent;  /* parent index; PMNS_NONE for the root */
    uint32_t first;   /* first child (children are contiguous) */
    uint32_t nkids;   /* number of children */
    uint32_t hash;    /* pmns_hash_step hash of the full dotted name (a
                       * leaf's is 0 with pmns_load_opts.image_only) */
    uint32_t flags;   /* PMNS_F_* */
    uint32_t pmid;    /* leaves: the PMID; others: PM_ID_NULL */
} pmns_node;

typedef struct pmns_tree {
    pmns_node *nodes; /* nodes[0] is the root */
    uint32_t nnodes;
    uint32_t nleaves;
    char *strings; /* the nodes' own names */
} pmns_tree;

typedef struct pmns_load_opts {
    const char *file;          /* the namespace file */
    int use_cpp;               /* run the preprocessor (pmLoadASCIINameSpace) */
    int dupok;                 /* several names may share a PMID */
    int derived;               /* graft the anonymous derived metrics event.flags
                                * (511.0.1) and event.missed (511.0.2), as every
                                * PCP client sees them */
    const char *pmns_dir;      /* last #include directory ($PCP_VAR_DIR/pmns) */
    const cpp_define *defines; /* -D/-U for the preprocessor (pmnscomp) */
    size_t n_defines;
    const char *const *include_dirs; /* -I directories (pmnscomp) */
    size_t n_include_dirs;
    void (*dependency)(void *ctx, const char *path); /* each file read, or NULL */
    void *dependency_ctx;
    diag_fn diag; /* NULL: print to stderr */
    void *diag_ctx;
    diag_form form; /* PCP's (PCP's messages, stops and follow-ons) or rich
                     * (every problem); AUTO: as diag.h says */
    /* pmns_load: text parsed before the file, as its first lines (not
     * preprocessed; pmnsadd's upper levels), or NULL */
    const char *prelude;
    size_t prelude_len;
    int image_only; /* for a caller that makes the tree an image at once
                     * (the runtime): the leaves' pmns_node.hash left 0,
                     * the names of a raw load left in its text (not
                     * NUL-terminated) */
} pmns_load_opts;

/* Load and check a namespace.  0 and *out, or PM_ERR_PMNS after reporting
 * the problems, or a negative errno value when the file cannot be read. */
int pmns_load(const pmns_load_opts *opts, pmns_tree **out);

/* The same from text in memory (always preprocessed unless use_cpp is 0). */
int pmns_load_buffer(const pmns_load_opts *opts, const char *text, size_t len, pmns_tree **out);

void pmns_free(pmns_tree *t);

/* The load's large arrays (pmns_mem.c): malloc, calloc, realloc and free
 * for blocks that a later load may take again, once pmns_mem_keep has
 * been called (by pmUnloadNameSpace, with the size of the image it
 * unloads: a large one's stops the keeping).  Every block is malloc's:
 * free() and realloc() stay correct on it. */
void *pmns_mem_alloc(size_t n);
void *pmns_mem_calloc(size_t n);
void *pmns_mem_realloc(void *p, size_t n);
void pmns_mem_free(void *p);
void pmns_mem_keep(size_t image);
/* After a load whose image is that large: the heap's free pages given
 * back if it was over what is kept (pmns_mem.c). */
void pmns_mem_trim(size_t image);

/* A tree from n names and their PMIDs, in that order, as an archive's
 * metadata lists them (pmns_names.c): names that cannot join the tree are
 * left out.  0 and *out, or PM_ERR_TOOBIG when memory runs out. */
int pmns_from_names(const char *const *names, const uint32_t *pmids, size_t n, pmns_tree **out);

/* pmns_node.hash: pmns_hash_step and PMNS_ROOT_HASH (pmns_hash.h). */

/* Write the full dotted name of node n into buf (size cap); returns its
 * length (which may exceed cap - 1: then buf holds a truncated copy). */
size_t pmns_name(const pmns_tree *t, uint32_t n, char *buf, size_t cap);

/* The anonymous derived metrics every PCP client sees, grafted below
 * "event" by the builder and answered by name even with no namespace. */
typedef struct pmns_derived_metric {
    const char *name; /* full name; the leaf's component follows "event." */
    uint32_t pmid;
    const char *oneline; /* pmLookupText's answers (pmkit's words) */
    const char *help;
} pmns_derived_metric;
#define PMNS_NDERIVED 2
extern const pmns_derived_metric pmns_derived[PMNS_NDERIVED];

#endif /* PMKIT_FRONT_PMNS_H */
