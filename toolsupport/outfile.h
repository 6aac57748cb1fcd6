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
    FILE *fp;   /* write here */
    char *path; /* the final name */
    char *tmp;  /* the temporary name */
    int live;   /* private: slot + 1 in the list a fatal signal cleans up */
} outfile;

/* Create a temporary file next to path; 0, or -errno.  Until it is
 * committed or aborted, SIGHUP, SIGINT and SIGTERM remove it before they
 * end the process (when their action is still the default; for up to 8
 * outfiles open at once), and going over the file size limit (SIGXFSZ)
 * is a write error, not a kill. */
int outfile_open(outfile *of, const char *path);
/* Flush, fsync and rename into place; 0, or -errno (the temporary is removed). */
int outfile_commit(outfile *of);
/* Remove the temporary; the final path is untouched. */
void outfile_abort(outfile *of);

/* Write "targets: deps" as GCC does (-M), escaping spaces, '#' and '$' and
 * folding long lines; with phony, add an empty rule for every dependency
 * but the first (-MP). */
void depfile_write(FILE *fp, const char *const *targets, size_t ntargets, const char *const *deps,
                   size_t ndeps, bool phony);

/* GCC's dependency options as the tools take them: -M or -MD (mode 'M':
 * the rule instead of the output, 'D': as well), -MF file, -MT target
 * (repeatable), -MP; and the files the run read, for the rule. */
typedef struct depopts {
    const char *targets[64]; /* -MT, in order */
    size_t ntargets;
    int mode;             /* 0, 'M' or 'D' */
    int phony;            /* -MP */
    const char *file;     /* -MF */
    const char **deps;    /* files read, in order, each once; malloc'd copies */
    size_t ndeps, depcap; /* used and allocated length of deps */
    int lost;             /* a file could not be recorded (out of memory) */
} depopts;

/* Take the -M family out of argv (getopt cannot parse "-MF file"): returns
 * the new argc, or -1 when -MF or -MT lacks its argument. */
int depopts_take(int argc, char **argv, depopts *d);
/* A front end's dependency callback, ctx the depopts: path is added to the
 * rule unless it is there already. */
void depopts_record(void *ctx, const char *path);
/* Write the rule for the files recorded: targets -MT, else default_target;
 * to -MF, else standard output (-M) or default_depfile (-MD), which is
 * replaced atomically.  0, or -errno (-ENOMEM when a file went unrecorded,
 * -EINVAL when a default needed is NULL). */
int depopts_emit(depopts *d, const char *default_target, const char *default_depfile);
/* Release the recorded names. */
void depopts_free(depopts *d);

#endif /* PMKIT_FRONT_OUTFILE_H */
