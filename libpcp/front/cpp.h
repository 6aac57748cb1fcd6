/*
 * cpp.h - pmkit's preprocessor (the engine behind pmcpp), as a library.
 *
 * The pmcpp tool and the namespace loader both call cpp_run_file() (the
 * loader also cpp_run_buffer()): loading a namespace never forks a program.
 * Input is read in chunks and output is handed to the sink in blocks of up
 * to 64 KiB, so memory does not grow with input size and no line is too
 * long.
 *
 * Compatible with PCP's pmcpp on every input it handles correctly; adds
 * nested conditionals, #if/#elif, #error, #warning, -U and dependency
 * output, and fixes PCP's bugs (docs/compat.md).  In the rich form of
 * diagnostics every error of a run is reported through the diagnostics
 * callback; in PCP's form the first error ends the run, as in PCP.
 */
#ifndef PMKIT_FRONT_CPP_H
#define PMKIT_FRONT_CPP_H

#include <stddef.h>
#include <stdio.h>

#include "diag.h"

/* Where the preprocessed text goes.  write returns 0, or a negative errno
 * value to stop the run. */
typedef struct cpp_sink {
    int (*write)(void *ctx, const char *data, size_t len);
    void *ctx;
} cpp_sink;

/* A -D or -U option, in command-line order. */
typedef struct cpp_define {
    const char *text; /* "name", "name=value" (-D) or "name" (-U) */
    int undef;        /* 1 for -U */
    int argv_index;   /* reported as the line of "<arg>" in diagnostics */
} cpp_define;

typedef struct cpp_options {
    int shell_style;                 /* -s: control character '%', no comment stripping */
    int restricted;                  /* -r: only #name / #{name} are substituted */
    int no_markers;                  /* -P: no '# N "file"' line markers */
    const char *const *include_dirs; /* -I directories, in order */
    size_t n_include_dirs;
    const cpp_define *defines; /* -D / -U, applied before the input, in order */
    size_t n_defines;
    const char *pmns_dir; /* last include directory; NULL: none */
    int no_external;      /* refuse #include and #shell (untrusted text, fuzzing) */
    int bytewise;         /* scan a byte at a time, as on a CPU without SSSE3 (tests) */
    /* diagnostics; NULL prints them to stderr in the form chosen by form */
    diag_fn diag;
    void *diag_ctx;
    diag_form form; /* PCP's (the run stops at its first error, as PCP's
                     * pmcpp does) or rich (every error); AUTO: diag.h */
    int trace;      /* -d: PCP's debug trace on stderr */
    /* called once per file read (#include), for dependency output; may be NULL */
    void (*dependency)(void *ctx, const char *path);
    void *dependency_ctx;
} cpp_options;

/* What a run did. */
typedef struct cpp_stats {
    unsigned long errors;
    unsigned long warnings;
    unsigned long lines_in;
    unsigned long lines_out;
} cpp_stats;

/*
 * Preprocess the file `path` (NULL: standard input, named "<stdin>").
 * Returns 0 when there were no errors, otherwise a negative value
 * (PM_ERR_GENERIC, or a negative errno value if the sink failed); stats
 * may be NULL.
 */
int cpp_run_file(const cpp_options *opt, const char *path, cpp_sink *out, cpp_stats *stats);

/* The same for text already in memory; name is used in markers and messages. */
int cpp_run_buffer(const cpp_options *opt, const char *name, const char *text, size_t len,
                   cpp_sink *out, cpp_stats *stats);

#endif /* PMKIT_FRONT_CPP_H */
