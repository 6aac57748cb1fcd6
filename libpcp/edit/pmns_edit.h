/*
 * pmns_edit.h - a namespace to change and write back: what PCP's
 * pmnsmerge, pmnsadd and pmnsdel do, as a library (the three tools are
 * thin programs over it).
 *
 *   pmns_ed_new      a loaded tree (libpcp/front's pmns_load) made editable
 *   pmns_ed_merge    every name of another tree added, PCP's way and order
 *   pmns_ed_delete   a name and everything below it taken out
 *   pmns_ed_write    the namespace as canonical ASCII PMNS text
 *
 * The inputs of a merge (pmns_source) are ordered by their _DATESTAMP
 * lines and loaded, text or binary image alike (pmns_source_load); an
 * edited namespace is written back as text or as an image
 * (pmns_ed_write_image).  The result of each step is PCP's byte for byte
 * on everything PCP's tools handle correctly; the one deliberate change is
 * that a non-leaf without children is written as an empty group, where
 * PCP writes "NAME 511:4095:1023", a PMID its loader refuses
 * (docs/compat.md).
 *
 * Every operation is linear in the size of what it reads and writes: a
 * child is found through a hash of its full name, never by a scan.
 * Nothing here is global, nothing prints but the loader's diagnostics, and
 * nothing writes a file: the tools do that (toolsupport/outfile.c).
 */
#ifndef PMKIT_EDIT_PMNS_EDIT_H
#define PMKIT_EDIT_PMNS_EDIT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pmns.h"

typedef struct pmns_ed pmns_ed;

/* The tree t (loaded without the derived metrics) as an editable
 * namespace: 0 and *out, or -ENOMEM.  t is consumed either way. */
int pmns_ed_new(pmns_tree *t, pmns_ed **out);

void pmns_ed_free(pmns_ed *e);

/* Told of each name of a merge that is in the namespace already with
 * another PMID (kept) than the one merged (ignored); name is the full
 * dotted name.  A non-leaf's PMID is 0x7fffffff, an empty non-leaf's or a
 * node a merge made on the way to a leaf PM_ID_NULL, as in PCP. */
typedef void (*pmns_ed_conflict_fn)(void *ctx, const char *name, uint32_t kept, uint32_t ignored);

/*
 * Add the names of t (loaded without the derived metrics) to e, PCP's
 * way: below each non-leaf, its leaves in order and then its non-leaves,
 * depth first; a name already there keeps its PMID (fn is told when the
 * two differ), a new one is appended to its parent's children, making the
 * non-leaves on its way as needed (a leaf on the way becomes a non-leaf).
 * Empty non-leaves of t add nothing.  0, or -ENOMEM (e is then whole but
 * partly merged).
 */
int pmns_ed_merge(pmns_ed *e, const pmns_tree *t, pmns_ed_conflict_fn fn, void *ctx);

/* Take out the node called name (a full dotted name, leaf or not) and
 * everything below it, then each ancestor left without children (never
 * the root).  0, or -ENOENT when there is no such node. */
int pmns_ed_delete(pmns_ed *e, const char *name);

/*
 * The namespace as ASCII PMNS, the way PCP's tools write it: a group per
 * non-leaf ("path {", a line per child: TAB name, and for a leaf TAB
 * D:C:I or D:*:*, then "}"), root first, each group followed by the groups
 * below it in child order, a blank line between groups.  0, or -errno
 * when writing failed.
 */
int pmns_ed_write(const pmns_ed *e, FILE *fp);

/* The same in memory: 0 and *text (*len bytes, malloc'd), or -ENOMEM. */
int pmns_ed_text(const pmns_ed *e, char **text, size_t *len);

/*
 * The namespace as a binary image, exactly what pmnscomp writes for its
 * text (derived metrics and all), written to fp: 0, or a negative errno
 * or PM_ERR_* value.  opts gives the diagnostics (its file names the
 * namespace in messages).
 */
int pmns_ed_write_image(const pmns_ed *e, const pmns_load_opts *opts, FILE *fp);

/* ---- the inputs of a merge ---- */

typedef struct pmns_source {
    const char *file;    /* the namespace file, text or image */
    const char *prelude; /* text before it (pmnsadd's upper levels), or NULL */
    size_t prelude_len;
    char *stamp;  /* pmns_sources_order: its _DATESTAMP (malloc'd), or NULL */
    int is_image; /* pmns_source_load: the file was an image */
} pmns_source;

/*
 * PCP's order of merge inputs: each file's _DATESTAMP is the word after a
 * line "#define _DATESTAMP" (PCP's reading: the text in pieces of 39
 * bytes at most, a piece starting "#define", blanks, "_DATESTAMP", blanks,
 * then up to the next blank; the first such piece counts); files without
 * one come first in their order, then the others by ascending stamp
 * (byte order), equal stamps in their order.  0, or -errno with *bad the
 * index of a file that cannot be read.
 */
int pmns_sources_order(pmns_source *src, size_t n, size_t *bad);

/* Release the stamps pmns_sources_order found. */
void pmns_sources_clear(pmns_source *src, size_t n);

/*
 * Load a source as pmLoadASCIINameSpace(file, dupok) does (preprocessed,
 * no derived metrics), or, when the file is a binary image, its namespace
 * (same checks, same messages).  opts gives dupok, the preprocessor's
 * settings and the diagnostics; its file and prelude are taken from s.
 * 0 and *out, or what the loader returns (PM_ERR_PMNS, -errno).
 */
int pmns_source_load(pmns_source *s, const pmns_load_opts *opts, pmns_tree **out);

/* What a merge of sources tells as it goes. */
typedef struct pmns_merge_report {
    void (*loading)(void *ctx, const pmns_source *s); /* before each source, or NULL */
    pmns_ed_conflict_fn conflict;                     /* or NULL */
    void *ctx;
} pmns_merge_report;

/*
 * Load src[0..n) in their order (pmns_source_load, with opts) and merge
 * each into the first (pmns_ed_merge): 0 and *out, or the first failure's
 * status (the loader's, or -ENOMEM) with *bad its source's index.
 */
int pmns_merge_sources(pmns_source *src, size_t n, const pmns_load_opts *opts,
                       const pmns_merge_report *r, pmns_ed **out, size_t *bad);

/*
 * pmnsadd's input: a file with a line starting "root {" is a whole
 * namespace (*prelude NULL).  Otherwise the first line whose second word
 * is "{" names the subtree's base, and *prelude holds the groups that
 * lead there from the root ("root {" alone when there is no such line):
 * 0 with *prelude (malloc'd, *len bytes) or NULL; -errno when the file
 * cannot be read.
 */
int pmns_add_prelude(const char *file, char **prelude, size_t *len);

/* A PMID as PCP's namespace files write it, "D:C:I", or "C:*:*" for a
 * dynamic subtree root (domain 511, item 0), into buf (24 bytes at
 * least, NUL-terminated).  Returns the length. */
size_t pmns_pmid_text(uint32_t pmid, char *buf);

/* pmnsmerge's and pmnsdel's usage: PCP's (pmUsageMessage of opts), and in
 * the rich form of diagnostics their pmkit option -b described too (its
 * entry in opts' long options has no message until then). */
struct pmOptions;
void pmns_edit_usage(struct pmOptions *opts);

#endif /* PMKIT_EDIT_PMNS_EDIT_H */
