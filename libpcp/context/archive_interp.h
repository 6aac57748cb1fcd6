/*
 * archive_interp.h - interpolated fetches from an archive set
 * (archive_interp.c), for archive_ctx.c's pmFetch in PM_MODE_INTERP.
 */
#ifndef PMKIT_ARCHIVE_INTERP_H
#define PMKIT_ARCHIVE_INTERP_H

#include "archive.h"
#include "context.h"

/*
 * The values of pmids[0..n) at time t into vsets[0..n) (each a value set
 * freed with the result), the profile applied, reading s through cur
 * (which is moved).  0, or an error reading the archives or -ENOMEM
 * (vsets already made are the caller's to free).
 */
int pmkit_interp_fetch(arch_set *s, arch_cursor *cur, const pmProfile *prof,
                       const struct timespec *t, int n, const pmID *pmids, pmValueSet **vsets);

#endif /* PMKIT_ARCHIVE_INTERP_H */
