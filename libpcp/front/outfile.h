/*
 * outfile.h - output files that appear whole or not at all, and GCC-style
 * dependency files.  Used by every pmkit tool that writes a file.
 */
#ifndef PMKIT_FRONT_OUTFILE_H
#define PMKIT_FRONT_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* A file being written under a temporary name beside its final path. */
typedef struct outfile {
    FILE *fp;     /* write here */
    char *path;   /* the final name */
    char *tmp;    /* the temporary name */
} outfile;

/* Create a temporary file next to path; 0, or -errno. */
int outfile_open(outfile *of, const char *path);
/* Flush, fsync and rename into place; 0, or -errno (the temporary is removed). */
int outfile_commit(outfile *of);
/* Remove the temporary; the final path is untouched. */
void outfile_abort(outfile *of);

/* Write "targets: deps" as GCC does (-M), escaping spaces, '#' and '$' and
 * folding long lines; with phony, add an empty rule for every dependency
 * but the first (-MP). */
void depfile_write(FILE *fp, const char *const *targets, size_t ntargets,
                   const char *const *deps, size_t ndeps, bool phony);

/* GCC's dependency options as the tools take them: -M or -MD (mode 'M':
 * the rule instead of the output, 'D': as well), -MF file, -MT target
 * (repeatable), -MP. */
typedef struct depopts {
    const char *targets[64]; /* -MT, in order */
    size_t ntargets;
    int mode;                /* 0, 'M' or 'D' */
    int phony;               /* -MP */
    const char *file;        /* -MF */
} depopts;

/* Take the -M family out of argv (getopt cannot parse "-MF file"): returns
 * the new argc, or -1 when -MF or -MT lacks its argument. */
int depopts_take(int argc, char **argv, depopts *d);

#endif /* PMKIT_FRONT_OUTFILE_H */
