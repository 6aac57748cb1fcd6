/*
 * diag.h - one diagnostics format for every pmkit front end (pmcpp and the
 * PMNS, help and map-spec parsers).
 *
 * A diagnostic names its file, line and column and carries the offending
 * source line; diag_print renders it the way GCC does:
 *
 *   FILE:LINE:COL: error: MESSAGE
 *       LINE | source text
 *            |    ^
 *
 * Messages keep PCP's wording where PCP has a message for the condition.
 */
#ifndef PMKIT_FRONT_DIAG_H
#define PMKIT_FRONT_DIAG_H

#include <stddef.h>
#include <stdio.h>

typedef enum { DIAG_ERROR, DIAG_WARNING } diag_severity;

typedef struct diag_msg {
    diag_severity severity;
    const char *file;    /* path, or "<stdin>", "<shell>", "<arg>" */
    unsigned long line;  /* 1-based; 0 when no line is involved */
    unsigned col;        /* 1-based; 0 when not meaningful */
    const char *message; /* the text */
    const char *source;  /* the source line (no newline), or NULL */
    size_t source_len;
} diag_msg;

/* Receives each diagnostic; strings are valid only during the call. */
typedef void (*diag_fn)(void *ctx, const diag_msg *d);

/* Render d on fp in the format above. */
void diag_print(FILE *fp, const diag_msg *d);

/* Hand d to fn, or print it on stderr when fn is NULL. */
void diag_emit(diag_fn fn, void *ctx, const diag_msg *d);

#endif /* PMKIT_FRONT_DIAG_H */
