/*
 * inplace.h - changing a file that others change too: an exclusive lock
 * held from before the file is read until its replacement is in place,
 * and the replacement given the original's mode and owner.  For the
 * namespace tools (pmnsadd, pmnsdel, pmnsmerge -f), beside outfile.h,
 * which writes the replacement.
 */
#ifndef PMKIT_TOOLSUPPORT_INPLACE_H
#define PMKIT_TOOLSUPPORT_INPLACE_H

#include <sys/stat.h>

#include "outfile.h"

/*
 * Lock the file at path against every other inplace_lock of it, waiting
 * for the holder: 0 with *fd (the lock; inplace_unlock releases it) and
 * *st (the file's status, as locked), or -errno (-ENOENT: there is no
 * file).  The lock is flock(2) on the file itself, taken again when the
 * file was replaced while this process waited, so it always covers the
 * file now at path and leaves nothing behind; a replacement renamed over
 * path before inplace_unlock passes it on to the next waiter.  Nothing
 * else is locked out: readers, and programs that do not ask, are not
 * stopped.
 */
int inplace_lock(const char *path, int *fd, struct stat *st);

/* Release a lock of inplace_lock (a negative fd is ignored). */
void inplace_unlock(int fd);

/* outfile_open for the replacement of path, which keeps the mode (see
 * outfile.h) and, when this user may give them, the owner and group of
 * the file it replaces (else it is the user's, without set-id bits).
 * 0, or -errno. */
int inplace_open(outfile *of, const char *path);

#endif /* PMKIT_TOOLSUPPORT_INPLACE_H */
