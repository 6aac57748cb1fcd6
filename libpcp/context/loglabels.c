/*
 * loglabels.c - an archive context's view fills its label sets' table
 * (__pmLogCtl's hashlabels, which Debian's pmdumplog -e walks) from its
 * archive set, and empties it, with the archive room's table
 * (archive/labeltable.c, which holds the rules and which pmkit's
 * pmdumplog -e prints too).  Nothing else: no rule of the table is here.
 */
#include "archive.h"
#include "archive_ctx.h"

#include <pcp/libpcp.h>

int pmkit_logview_labels(__pmArchCtl *ac, const arch_set *s)
{
    return arch_label_table(s, &ac->ac_log->hashlabels);
}

void pmkit_logview_labels_free(__pmArchCtl *ac)
{
    arch_label_table_free(&ac->ac_log->hashlabels);
}
