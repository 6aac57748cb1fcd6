/*
 * pcp/archive.h - the declarations of PCP's libpcp_archive (the library of
 * the few programs that write and rewrite archives: pmlogger, pmlogextract,
 * pmlogrewrite), installed where Debian's libpcp-archive1-dev puts them.
 *
 * pmkit does not build libpcp_archive: a program calling these functions
 * compiles and then needs PCP's library to link, as it does under PCP.
 * Programs that include this header and call none of them (pcp-testsuite's
 * template and usergroup) need nothing more than libpcp.  Names and
 * prototypes are PCP 6's; the types are libpcp.h's, included here so the
 * header stands alone.
 */
#ifndef PCP_ARCHIVE_H
#define PCP_ARCHIVE_H

#include "libpcp.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Instance domains are libpcp.h's struct __pmLogInDom (PCP's typedef
 * __pmLogInDom names the same type): the prototypes need only its tag. */
struct __pmLogInDom;

/* Records read and written whole, and rewritten to the current format. */
PCP_CALL extern int pmaGetLog(__pmArchCtl *, int, __int32_t **);
PCP_CALL extern int pmaPutLog(__pmFILE *, __int32_t *);
PCP_CALL extern int pmaRewriteData(__pmLogCtl *, __pmLogCtl *, __int32_t **);
PCP_CALL extern int pmaRewriteMeta(__pmLogCtl *, __pmLogCtl *, __int32_t **);

/* Instance domains: compared, sorted, and as deltas of the one before. */
PCP_CALL extern int pmaSameInDom(struct __pmLogInDom *, struct __pmLogInDom *);
PCP_CALL extern void pmaSortInDom(struct __pmLogInDom *);
PCP_CALL extern int pmaDeltaInDom(struct __pmLogInDom *, struct __pmLogInDom *,
                                  struct __pmLogInDom *);
PCP_CALL extern struct __pmLogInDom *pmaUndeltaInDom(__pmLogCtl *, __int32_t *);
PCP_CALL extern int pmaTryDeltaInDom(__pmLogCtl *, __int32_t **, struct __pmLogInDom *);

#ifdef __cplusplus
}
#endif

#endif /* PCP_ARCHIVE_H */
