/*
 * inplace.c - a lock held across read-modify-replace of a file, and the
 * replacement's mode and owner (inplace.h).
 *
 * The lock is flock(2) on the file being changed.  A change ends with a
 * new file renamed over the path, so the lock a waiter finally gets may be
 * on a file that is no longer there: after flock returns, the locked file
 * and the one at the path are compared (device and inode), and on a
 * difference the lock is dropped and taken again on the file now at the
 * path.  Whoever holds the lock on the file at the path is the only one
 * changing it.  No lock file is made, so nothing is left behind by a
 * crash, and PCP's own lock (its scripts' NAMESPACE.lock, made by
 * lockpmns) is a different file: a script that holds it can still run
 * pmkit's tools, which take theirs.
 *
 * Not here: writing the replacement (outfile.c).
 */
#include "inplace.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/file.h>

int inplace_lock(const char *path, int *fd, struct stat *st)
{
    for (;;) {
        struct stat now;
        int f = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
        int sts;

        *fd = -1;
        if (f < 0)
            return -errno;
        while ((sts = flock(f, LOCK_EX)) < 0 && errno == EINTR)
            ;
        if (sts < 0 || fstat(f, st) < 0) {
            int err = errno;
            close(f);
            return -err;
        }
        if (stat(path, &now) == 0 && now.st_dev == st->st_dev && now.st_ino == st->st_ino) {
            *fd = f;
            return 0;
        }
        close(f); /* replaced while we waited: lock the new one */
    }
}

void inplace_unlock(int fd)
{
    if (fd >= 0)
        close(fd);
}

int inplace_open(outfile *of, const char *path)
{
    int sts = outfile_open_flags(of, path, OUTFILE_KEEP_OWNER);

    if (sts == -EPERM) /* not this user's to give away: it keeps the user's */
        sts = outfile_open(of, path);
    return sts;
}
