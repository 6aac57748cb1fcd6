/*
 * help_parse.h - the help text source parser (the input of newhelp).
 *
 *   # comment             dropped wherever it appears (first column)
 *   text before any @     ignored
 *   @ KEY ONE-LINE TEXT   starts an entry; KEY is a metric name, a PMID
 *                         D.C.I or an InDom D.S
 *   LONG TEXT ...         every line up to the next @ line or the end of the
 *                         file; trailing newlines removed
 *
 * PCP's rules (tests/oracle/help_diff.sh) without its limits: lines and entries
 * of any length.  The parser works on whole buffers and keeps pointers into
 * them, so the caller keeps each buffer alive as long as the entries.
 * Metric names are not resolved here (that needs a namespace): the caller
 * looks up entries of kind HELP_KEY_NAME.
 */
#ifndef PMKIT_FRONT_HELP_PARSE_H
#define PMKIT_FRONT_HELP_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "diag.h"

typedef enum {
    HELP_KEY_NAME,  /* a metric name, to be looked up */
    HELP_KEY_PMID,  /* D.C.I: key is the PMID */
    HELP_KEY_INDOM, /* D.S: key is the InDom with bit 31 set (the on-disk key) */
} help_key_kind;

typedef struct help_src_entry {
    help_key_kind kind;
    uint32_t key;     /* PMID or flagged InDom; 0 for a name */
    const char *word; /* the key as written (in the source buffer) */
    size_t word_len;
    const char *oneline; /* the rest of the @ line after blanks (in the source) */
    size_t oneline_len;
    const char *text; /* the long text in the source, or NULL when it
                       * had comment lines removed: then it is in the
                       * parser's arena at text_off */
    size_t text_off;
    size_t text_len;
    const char *file;     /* the source's name, as given to help_parse */
    unsigned long line;   /* of the @ line */
    unsigned col;         /* of the key, 1-based */
    const char *src_line; /* the @ line, for diagnostics (no newline) */
    size_t src_line_len;
} help_src_entry;

/* An @ line with no key, before entry `before` (PCP's form reports it in
 * that order, and only when asked to be verbose). */
typedef struct help_null {
    size_t before;
    const char *file;
    unsigned long line;
} help_null;

typedef struct help_parser {
    help_src_entry *ent; /* the entries of every buffer parsed, in order */
    size_t n, cap;
    char *arena; /* long texts that had comment lines removed */
    size_t arena_len, arena_cap;
    diag_fn diag; /* receives errors and warnings; NULL: printed on
                   * stderr in the form chosen by form */
    void *diag_ctx;
    diag_form form;   /* PCP's or rich (diag.h); AUTO: by the environment */
    const char *prog; /* the program PCP's form names (newhelp) */
    unsigned errors;  /* counts of diagnostics issued */
    unsigned warnings;
    help_null *nulls; /* PCP's form: the null entries, not reported by the
                       * parser (counted as warnings) */
    size_t nnull, nullcap;
} help_parser;

/* Parse one source and append its entries.  Errors (a NUL byte, a numeric
 * key out of range) and warnings (an @ line with no key; in PCP's form
 * recorded in nulls instead) are reported and counted; the offending entry
 * is left out.  0, or -ENOMEM. */
int help_parse(help_parser *p, const char *file, const char *buf, size_t len);

/* The long text of an entry (not NUL-terminated; e->text_len bytes). */
const char *help_entry_text(const help_parser *p, const help_src_entry *e);

/* Report a diagnostic about entry e through p->diag (counted too); col 0
 * points at the key.  pcp: PCP's words for it (NULL: the same text). */
void help_report(help_parser *p, const help_src_entry *e, diag_severity sev, const char *pcp,
                 const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Is the PCP form of diagnostics in force for p? */
int help_pcp_form(const help_parser *p);

/* How help_resolve treats the entries (help_resolve.c). */
typedef struct help_resolve_opts {
    /* a metric name's PMID: >= 0 with *pmid (PM_ID_NULL: no such metric),
     * or a PM_ERR_* code; newhelp's is pmLookupName */
    int (*lookup)(void *ctx, const char *name, uint32_t *pmid);
    void *lookup_ctx;
    int strict;  /* refuse every repeated key (default: PCP's rule) */
    int verbose; /* -V: report null texts, name each entry stored */
} help_resolve_opts;

/*
 * Give every entry parsed so far its key (names through o->lookup) and
 * choose the entries a database stores, in source order, reporting what
 * is refused as PCP's newhelp does (p->errors counts them): an unknown
 * name, and a repeated key (by PCP's rule: one that repeats the entry
 * stored just before it, once two are stored; with strict, any).  *kept
 * is one malloc'd array of *nkept entry indices.  0, or -ENOMEM.
 */
int help_resolve(help_parser *p, const help_resolve_opts *o, size_t **kept, size_t *nkept);

/* Free everything the parser holds (the source buffers are the caller's). */
void help_parser_free(help_parser *p);

#endif /* PMKIT_FRONT_HELP_PARSE_H */
