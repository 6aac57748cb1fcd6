/*
 * diag.h - one diagnostics module for every pmkit front end (pmcpp and the
 * PMNS, help and map-spec parsers), with two renderings of each message.
 *
 * Rich, the way GCC writes them (what a person at a terminal gets):
 *
 *   FILE:LINE:COL: error: MESSAGE
 *       LINE | source text
 *            |    ^
 *
 * PCP's, byte for byte what PCP's tool prints for the same problem (what
 * scripts, QA suites and agent Install logs compare), in the layout of the
 * tool the message belongs to (diag_dialect):
 *
 *   pmcpp      pmcpp: FILE[LINE]: source line     or  pmcpp: FILE:
 *              pmcpp: Error: MESSAGE                  pmcpp: Error: MESSAGE
 *              (warnings: Warning: MESSAGE)
 *   PMNS       [FILE:LINE] MESSAGE, then PCP's echo lines (pcp_echo);
 *              MESSAGE alone when no line is involved
 *   help       PROG: [FILE:LINE] MESSAGE
 *   pmgenmap   [FILE:LINE] MESSAGE
 *
 * Which one: PMKIT_DIAGNOSTICS=pcp or =rich decides; otherwise rich when
 * standard error is a terminal, PCP's when it is not (diag_form_resolve).
 * A front end whose PCP counterpart stops at its first error stops there
 * too in PCP's form; in the rich form it reports every error of a run.
 */
#ifndef PMKIT_FRONT_DIAG_H
#define PMKIT_FRONT_DIAG_H

#include <stddef.h>
#include <stdio.h>

typedef enum { DIAG_ERROR, DIAG_WARNING } diag_severity;

/* Whose layout the PCP form of a message takes. */
typedef enum {
    DIAG_PCP_NONE,   /* no PCP counterpart: the rich form in both */
    DIAG_PCP_CPP,    /* pmcpp */
    DIAG_PCP_PMNS,   /* libpcp's ASCII PMNS loader */
    DIAG_PCP_HELP,   /* newhelp */
    DIAG_PCP_GENMAP, /* pmgenmap */
} diag_dialect;

/* Which rendering: AUTO is decided by the environment (see above). */
typedef enum { DIAG_FORM_AUTO, DIAG_FORM_PCP, DIAG_FORM_RICH } diag_form;

typedef struct diag_msg {
    diag_severity severity;
    const char *file;    /* path, or "<stdin>", "<shell>", "<arg>" */
    unsigned long line;  /* 1-based; 0 when no line is involved */
    unsigned col;        /* 1-based; 0 when not meaningful */
    const char *message; /* the text (pmkit's words where it says more) */
    const char *source;  /* the source line (no newline), or NULL */
    size_t source_len;
    diag_dialect dialect;    /* the layout of the PCP form */
    const char *pcp_message; /* PCP's text when it differs from message, or NULL */
    const char *pcp_echo;    /* PMNS: the lines PCP prints after its message
                              * (each ended by a newline), or NULL */
    const char *prog;        /* the program named by the help dialect */
    const char *pcp_file;    /* the file PCP names when it differs, or NULL */
    unsigned long pcp_line;  /* the line PCP names when it differs from line
                              * (0: line; DIAG_NO_LINE: none) */
} diag_msg;

#define DIAG_NO_LINE ((unsigned long)-1)

/* Receives each diagnostic; strings are valid only during the call. */
typedef void (*diag_fn)(void *ctx, const diag_msg *d);

/* f, or for DIAG_FORM_AUTO the form PMKIT_DIAGNOSTICS asks for, else rich
 * when standard error is a terminal and PCP's when it is not. */
diag_form diag_form_resolve(diag_form f);

/* Render d on fp in the rich form above. */
void diag_print(FILE *fp, const diag_msg *d);

/* Render d on fp in PCP's form (the rich one for DIAG_PCP_NONE). */
void diag_print_pcp(FILE *fp, const diag_msg *d);

/* Render d on fp in form f (AUTO resolved first). */
void diag_print_as(FILE *fp, const diag_msg *d, diag_form f);

/* Hand d to fn, or print it on stderr in form f when fn is NULL. */
void diag_emit(diag_fn fn, void *ctx, const diag_msg *d, diag_form f);

#endif /* PMKIT_FRONT_DIAG_H */
