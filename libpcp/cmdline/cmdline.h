/*
 * cmdline.h - the command-line room (libpcp/cmdline): options, getopt,
 * intervals, time windows, metric specifications, time and reporting
 * zones.  What its files share.
 */
#ifndef PMKIT_CMDLINE_H
#define PMKIT_CMDLINE_H

#include "support.h"

/* SECS as whole seconds and 1/PER parts, rounded and carried (time.c). */
void pmkit_split_seconds(double secs, long per, time_t *sec, long *part);

/* mktime in the current reporting zone (pmNewZone/pmUseZone), else local
 * time (time.c). */
time_t pmkit_zone_mktime(struct tm *tm);

/* __pmParseCtime's reader (ctime.c); WHOLE takes whole month and day
 * names too, as the time window does (timewindow.c). */
int pmkit_parse_ctime(const char *string, int whole, struct tm *rslt, char **errmsg);

/* "PROG: Cannot locate end of archive ARCHIVE: <sts>" and PCP's warning
 * that it goes on, on stderr (pmprintf); for pmGetOptions and pmdumplog
 * (options.c). */
void pmkit_archive_end_warning(const char *archive, int sts);

#endif /* PMKIT_CMDLINE_H */
