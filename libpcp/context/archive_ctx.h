/*
 * archive_ctx.h - an archive context's archives (archive_ctx.c over
 * libpcp/archive) and the PMAPI's questions put to them: for the context
 * room and the rooms whose calls an archive context answers (names,
 * metrics).
 */
#ifndef PMKIT_ARCHIVE_CTX_H
#define PMKIT_ARCHIVE_CTX_H

#include "context.h"

/* Open the archives spec names (PM_CTXFLAG_* in flags), share an open
 * context's with a copy that starts where it stands, and let go: with the
 * library lock held.  0, or PCP's errors. */
int pmkit_archive_open(const char *spec, int flags, pmkit_archive **out);
int pmkit_archive_dup(const pmkit_archive *a, pmkit_archive **out);
void pmkit_archive_close(pmkit_archive *a);

/*
 * The names room's namespace of a context's archives, kept with them (the
 * library lock held): NULL until the names room makes it and sets it here
 * with the function that releases it when the last context using the
 * archives goes.  name_list gives what to make it from: every name and its
 * PMID in .meta order (the arrays are the caller's to free, the names the
 * archives'); the count or -ENOMEM.
 */
void *pmkit_archive_names(const pmkit_archive *a);
void pmkit_archive_set_names(pmkit_archive *a, void *names, void (*names_free)(void *));
int pmkit_archive_name_list(const pmkit_archive *a, const char ***names, pmID **pmids);

/* The first archive's host name (pmGetContextHostName), for a context
 * the caller holds. */
void pmkit_archive_hostname(const pmkit_archive *a, char *buf, int buflen);

/* The first archive's label (archive.h), for a context the caller holds
 * (pcpview.c's __pmLogCtl). */
struct arch_label;
const struct arch_label *pmkit_archive_first_label(const pmkit_archive *a);
/* The set itself, for PCP's view of the context (logview.c). */
struct arch_set;
struct arch_set *pmkit_archive_set(const pmkit_archive *a);
/* PCP's __pmArchCtl of an archive context (pcpview.c) filled from a's
 * first archive, and what that put there released (logview.c). */
struct __pmArchCtl;
int pmkit_logview_fill(struct __pmArchCtl *ac, pmkit_archive *a);
void pmkit_logview_free(struct __pmArchCtl *ac);
/* The view's label sets' table (hashlabels) from s's metadata, and its
 * release (loglabels.c). */
int pmkit_logview_labels(struct __pmArchCtl *ac, const struct arch_set *s);
void pmkit_logview_labels_free(struct __pmArchCtl *ac);
/* A view made for a's context (ctx) after a pmSetMode no read has
 * followed: its file where Debian's pmSetMode left it. */
void pmkit_archive_view_made(pmkit_archive *a, pmkit_ctx *ctx);

/*
 * The PMAPI over the current context's archives: each holds the current
 * context (the caller must not hold a context) and answers
 * PM_ERR_NOCONTEXT without one, PM_ERR_NOTARCHIVE when it does not read
 * archives.
 */

/* The next record of a (its context held) in direction dir (ARCH_FORW or
 * ARCH_BACK), whatever its time, as PCP's __pmLogRead_ctx reads: 0, *res,
 * its volume in the first archive (-1: a record of another archive, or a
 * <mark> no file holds) and where reading goes
 * on in it; PM_ERR_EOL at the end.  The context's time becomes its time.
 * The first read after pmSetMode starts where Debian's pmSetMode leaves
 * its file, found with src's temporal index (the context's view's). */
struct arch_ti_src;
int pmkit_archive_read(pmkit_archive *a, int dir, const struct arch_ti_src *src,
                       pmHighResResult **res, int *vol, uint64_t *end);

/* The first archive's label; the time of the last complete record. */
int pmkit_archive_label(pmHighResLogLabel *lp);
int pmkit_archive_end(struct timespec *tsp);
/* The next record in the mode's direction, all of it (pmFetchArchive). */
int pmkit_archive_next(pmHighResResult **result);
/* pmFetch: vsets[n] (the caller's, NULL filled) and the record's time. */
int pmkit_archive_fetch(int n, pmID *pmids, pmValueSet **vsets, struct timespec *stamp);
int pmkit_archive_setmode(int mode, const struct timespec *when, const struct timespec *delta);
/* The mode a's last pmSetMode gave, flags and all (PM_MODE_FORW after the
 * open): PCP's c_mode, for the context's view. */
int pmkit_archive_mode_word(const pmkit_archive *a);
int pmkit_archive_desc(pmID pmid, pmDesc *desc);
/* One help text (type PM_TEXT_ONELINE or _HELP with _PMID or _INDOM). */
int pmkit_archive_text(int ident, int type, char **buffer);
/* The label sets of one PM_LABEL_* class and ident at the context's time. */
int pmkit_archive_labels(int ident, int type, pmLabelSet **sets);
/* The instance domain at the context's time, as an agent's instance
 * method answers (PM_IN_NULL and NULL for all of it). */
int pmkit_archive_instance(pmInDom indom, int inst, const char *name, pmInResult **res);
/* Every instance ever recorded (pmGetInDomArchive), and the first of them
 * with number inst or called name (else whose first word is name): its
 * number, or with found its name (malloc'd). */
int pmkit_archive_indom_union(pmInDom indom, int **instlist, char ***namelist);
int pmkit_archive_union_find(pmInDom indom, int inst, const char *name, char **found);

#endif /* PMKIT_ARCHIVE_CTX_H */
