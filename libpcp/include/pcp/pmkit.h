/*
 * pcp/pmkit.h - pmkit's own extensions to the PMAPI.
 *
 * Everything here is new in pmkit; nothing in PCP's headers is redefined.
 * Programs that stick to <pcp/pmapi.h> and <pcp/pmda.h> stay portable to
 * PCP; programs that include this header need pmkit.
 */
#ifndef PCP_PMKIT_H
#define PCP_PMKIT_H

#include <pcp/pmapi.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One row of the PMAPI error table. */
typedef struct pmkitErrEntry {
    int code;         /* PM_ERR_* value */
    const char *name; /* "PM_ERR_NAME" */
    const char *text; /* what pmErrStr returns for code */
} pmkitErrEntry;

/* The error table in PCP's listing order; *count receives its length.
 * The table is static and read-only. */
PCP_CALL extern const pmkitErrEntry *pmkitErrTable(int *count);

#ifdef __cplusplus
}
#endif

#endif /* PCP_PMKIT_H */
