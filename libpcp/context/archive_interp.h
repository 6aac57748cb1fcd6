/*
 * archive_interp.h - interpolated fetches from an archive set
 * (archive_interp.c), for archive_ctx.c's pmFetch in PM_MODE_INTERP.
 */
#ifndef PMKIT_ARCHIVE_INTERP_H
#define PMKIT_ARCHIVE_INTERP_H

#include "archive.h"
#include "context.h"

/* What an archive context keeps between interpolated fetches
 * (archive_interp.c); freed with pmkit_interp_cache_free. */
typedef struct pmkit_interp_cache pmkit_interp_cache;
void pmkit_interp_cache_free(pmkit_interp_cache *c);

/*
 * The values of pmids[0..n) at time t into vsets[0..n) (each a value set
 * freed with the result), the profile applied, the archives ending at end
 * (arch_end's), reading s through cur (which is moved) or through the
 * cache *cache (made on first use, NULL for none yet).  0, or an error
 * reading the archives or -ENOMEM (vsets already made are the caller's
 * to free).
 */
int pmkit_interp_fetch(arch_set *s, arch_cursor *cur, pmkit_interp_cache **cache,
                       const pmProfile *prof, const struct timespec *t, const struct timespec *end,
                       int n, const pmID *pmids, pmValueSet **vsets);

#endif /* PMKIT_ARCHIVE_INTERP_H */
