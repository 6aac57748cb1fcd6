/*
 * outfile.h - the tools' output files, GCC-style dependency files and
 * standard output, written so that a failure or an interruption never
 * leaves a half-written or clobbered output and every write error is
 * reported with its real cause.  Used by every pmkit tool that writes.
 */
#ifndef PMKIT_FRONT_OUTFILE_H
#define PMKIT_FRONT_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Options of outfile_open_flags. */
#define OUTFILE_KEEP_OWNER                                                                         \
    0x1 /* a file replaced keeps its owner and group (it fails                                     \
         * with the error of fchown(2) if they cannot be given) */

/*
 * An output being written.  Where the data goes depends on what the path
 * is when the output is opened:
 *  - a regular file, or no file: a new file in the same directory, named
 *    only at commit and then renamed over the path (the mode of a file it
 *    replaces is kept, else 0666 & ~umask as fopen(3) makes it);
 *  - a symbolic link: the same for the file the link leads to, which is
 *    replaced while the link stays;
 *  - a character or block device, a FIFO: written in place, as a shell's
 *    redirection writes it (nothing to replace, nothing to undo);
 *  - a directory: an error (-EISDIR) at open.
 */
typedef struct outfile {
    FILE *fp;                 /* write here */
    char *path;               /* the path as given */
    char *dest;               /* the file written or replaced: path, or where its links lead */
    char *tmp;                /* the temporary's name while it has one, else NULL */
    struct outfile_state *st; /* private */
} outfile;

/* Open an output; 0, or -errno.  From the first call on, SIGHUP, SIGINT
 * and SIGTERM (when their action is still the default) remove any named
 * temporary before they end the process, and going over the file size
 * limit (SIGXFSZ) is a write error (EFBIG), not a kill. */
int outfile_open(outfile *of, const char *path);
int outfile_open_flags(outfile *of, const char *path, int flags);
/* The first error of a write to of so far (-errno), or 0. */
int outfile_error(const outfile *of);
/* Flush, fsync and rename into place (in place: flush); 0, or the first
 * error of the output's life, -errno (the temporary is then removed and
 * the path left as it was).  Signals are held during the renaming. */
int outfile_commit(outfile *of);
/* Commit two files that a reader takes as one (a help database: data is
 * BASE.pag, index is BASE.dir, which a reader opens first): both are
 * written and synced, then the index the path holds is removed, the data
 * renamed into place and the index last, so that no interruption leaves a
 * mixed pair: only the old pair, the new pair, or no index.  An error
 * before the old index is removed leaves both old files untouched.  0, or
 * -errno and *which (may be NULL) 0 if data's step failed, 1 if index's. */
int outfile_commit_pair(outfile *data, outfile *index, int *which);
/* Remove the temporary; the final path is untouched.  Accepts a zeroed,
 * committed or aborted outfile. */
void outfile_abort(outfile *of);

/* Standard output with its write errors kept: outfile_watch_stdout makes
 * stdout a stream that remembers the cause of its first failed write (call
 * it before anything is written); outfile_stdout_close flushes it and, if
 * any write failed, prints "PROG: cannot write standard output: REASON"
 * and returns -errno (0 when all went out).  A tool that exits without
 * calling it gets the same check at exit, and exit status 1 on an error. */
void outfile_watch_stdout(void);
int outfile_stdout_close(void);

/*
 * The test hook, for the tests only (tests/faults): PMKIT_OUTFILE_FAULT, a
 * comma-separated list.  "N:WHAT" makes the Nth step of this process's
 * output files fail with an errno (WHAT ENOSPC, EIO, EDQUOT, EFBIG,
 * EACCES, EPERM, EROFS) or raise a signal just before it (SIGKILL,
 * SIGTERM, SIGHUP, SIGINT); "trace" lists the steps on stderr as "outfile
 * step N: STEP PATH"; "named" makes temporaries as where O_TMPFILE is
 * missing (named from the start).  Steps: create, mode, owner, write (each
 * write(2)), fsync, link (a temporary named), unlink (a pair's old index),
 * rename, dirsync.
 */

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
/* The file the rule goes to: -MF, else default_depfile (NULL with -M and
 * no -MF: standard output). */
const char *depopts_path(const depopts *d, const char *default_depfile);
/* Write the rule for the files recorded: targets -MT, else default_target;
 * to depopts_path's file, as an outfile, or to standard output (whose
 * errors outfile_stdout_close reports).  0, or -errno (-ENOMEM when a file
 * went unrecorded, -EINVAL when a default needed is NULL). */
int depopts_emit(depopts *d, const char *default_target, const char *default_depfile);
/* Release the recorded names. */
void depopts_free(depopts *d);

#endif /* PMKIT_FRONT_OUTFILE_H */
