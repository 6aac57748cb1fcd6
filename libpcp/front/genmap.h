/*
 * genmap.h - the pmgenmap map-specification translator.
 *
 * A specification lists groups of metric names, each with the symbol that
 * indexes it:
 *
 *   # comment
 *   group {
 *       metric.name  SYMBOL
 *   }
 *
 * genmap_translate turns it into the C text PCP's pmgenmap writes (one
 * `const char *group[]` array per group, a `#define SYMBOL ordinal` per
 * name, comments as C comments, blank lines copied); genmap_header writes
 * the comment block that opens every map.  Both append to a growable
 * buffer; nothing is written to a file here and nothing exits.
 */
#ifndef PMKIT_FRONT_GENMAP_H
#define PMKIT_FRONT_GENMAP_H

#include <stddef.h>
#include <time.h>

#include "diag.h"

/* A growable byte buffer.  Zero-initialise; release with genmap_buf_free. */
typedef struct genmap_buf {
    char *data; /* the bytes (not NUL-terminated) */
    size_t len; /* bytes used */
    size_t cap; /* bytes allocated */
    int failed; /* an allocation failed: the contents are incomplete */
} genmap_buf;

/* Asked about the metric name of every group entry.  name is NUL-terminated
 * and len bytes long (it may hold a NUL byte itself).  Returns NULL to
 * accept it, or the message to report at the name (the string need only
 * live until the next call). */
typedef const char *(*genmap_check_fn)(void *ctx, const char *name, size_t len);

typedef struct genmap_opts {
    const char *file; /* the input's name in diagnostics: a path or "<stdin>" */
    diag_fn diag;     /* receives every error; NULL: rich form on stderr, PCP's
                       * form into the output (where PCP's pmgenmap puts it) */
    void *diag_ctx;
    genmap_check_fn check; /* optional check of every metric name */
    void *check_ctx;
    diag_form form;  /* PCP's or rich (diag.h); AUTO: by the environment */
    const char *arg; /* the operand as given, "" for standard input: PCP's
                      * "nested group?" names it (NULL: file) */
} genmap_opts;

/* Translate the specification text[0..len) and append the map's body (all
 * but the header) to out.  Lines end with LF, CRLF or a lone CR.  In the
 * rich form every error is reported, each once, and out holds a partial
 * body to be discarded; in PCP's form the first error ends the
 * translation, as in PCP, and (diag NULL) its text and PCP's follow-on
 * "unterminated group?" end the body, which is then PCP's output byte for
 * byte.  Returns the number of errors, or -ENOMEM. */
long genmap_translate(const genmap_opts *o, const char *text, size_t len, genmap_buf *out);

/* Append the header block naming the program, the input and the date, as
 * PCP writes it (ends with an empty line).  0, or -ENOMEM. */
int genmap_header(genmap_buf *out, const char *prog, const char *input, const char *date);

/* The date of the header, as PCP's pmgenmap chooses it: build_date when it
 * is set and not empty ($PACKAGE_BUILD_DATE), else the time epoch names
 * ($SOURCE_DATE_EPOCH, seconds since 1970, shown in UTC) when it is set and
 * not empty, else now in local time; times are in date(1)'s C-locale
 * format, e.g. "Tue Nov 14 22:13:20 UTC 2023".  On success *date is
 * malloc'd (free it) and 0 is returned; -EINVAL if epoch is not an integer
 * number of seconds that can be shown, -ENOMEM. */
int genmap_date(const char *build_date, const char *epoch, time_t now, char **date);

/* Make room for n more bytes; 0, or -ENOMEM (and b->failed is set). */
int genmap_buf_reserve(genmap_buf *b, size_t n);
/* Append n bytes; 0, or -ENOMEM (and b->failed is set). */
int genmap_buf_put(genmap_buf *b, const char *s, size_t n);
/* Release the bytes; b is left empty and reusable. */
void genmap_buf_free(genmap_buf *b);

#endif /* PMKIT_FRONT_GENMAP_H */
