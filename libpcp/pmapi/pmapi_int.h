/*
 * pmapi_int.h - private declarations shared by the files of libpcp/pmapi.
 * Nothing outside libpcp includes this.
 */
#ifndef PMKIT_PMAPI_INT_H
#define PMKIT_PMAPI_INT_H

#include <pcp/pmapi.h>
#include <pcp/pmkit.h>

/* Copy src into buf[buflen], truncating, always NUL-terminated; returns buf.
 * buflen <= 0 leaves buf untouched. */
char *pmkit_copy(char *buf, int buflen, const char *src);

/* "32", "U64", ... for a PM_TYPE_* value; "???" for values PCP has no name for. */
const char *pmkit_type_name(int type);

#endif /* PMKIT_PMAPI_INT_H */
