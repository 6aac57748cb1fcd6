/*
 * pcp/deprecated.h - PCP's older names, for programs written against them.
 *
 * The __pm names of calls that became public (__pmNoMem is pmNoMem now)
 * map onto the new ones, so such a program builds and links against the
 * current functions; libpcp still exports the old symbols for binaries
 * built long ago.  The old debug flags (pmDebug, DBG_TRACE_*) and the old
 * program name (pmProgname) are the same variables libpcp updates through
 * pmSetDebug and pmSetProgname.  Names and values are PCP 6's.
 */
#ifndef PCP_DEPRECATED_H
#define PCP_DEPRECATED_H

#include "pmapi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The program's name, "pcp" until set. */
PCP_CALL extern int __pmSetProgname(const char *);
PCP_DATA extern char *pmProgname;

/* The debug options as a bit mask. */
PCP_CALL extern int __pmParseDebug(const char *);
PCP_CALL extern void __pmSetDebugBits(int);
PCP_DATA extern int pmDebug;

#define DBG_TRACE_PDU         (1 << 0)
#define DBG_TRACE_FETCH       (1 << 1)
#define DBG_TRACE_PROFILE     (1 << 2)
#define DBG_TRACE_VALUE       (1 << 3)
#define DBG_TRACE_CONTEXT     (1 << 4)
#define DBG_TRACE_INDOM       (1 << 5)
#define DBG_TRACE_PDUBUF      (1 << 6)
#define DBG_TRACE_LOG         (1 << 7)
#define DBG_TRACE_LOGMETA     (1 << 8)
#define DBG_TRACE_OPTFETCH    (1 << 9)
#define DBG_TRACE_AF          (1 << 10)
#define DBG_TRACE_APPL0       (1 << 11)
#define DBG_TRACE_APPL1       (1 << 12)
#define DBG_TRACE_APPL2       (1 << 13)
#define DBG_TRACE_PMNS        (1 << 14)
#define DBG_TRACE_LIBPMDA     (1 << 15)
#define DBG_TRACE_TIMECONTROL (1 << 16)
#define DBG_TRACE_PMC         (1 << 17)
#define DBG_TRACE_DERIVE      (1 << 18)
#define DBG_TRACE_LOCK        (1 << 19)
#define DBG_TRACE_INTERP      (1 << 20)
#define DBG_TRACE_CONFIG      (1 << 21)
#define DBG_TRACE_PMAPI       (1 << 22)
#define DBG_TRACE_FAULT       (1 << 23)
#define DBG_TRACE_AUTH        (1 << 24)
#define DBG_TRACE_DISCOVERY   (1 << 25)
#define DBG_TRACE_ATTR        (1 << 26)
#define DBG_TRACE_HTTP        (1 << 27)
#define DBG_TRACE_DESPERATE   (1 << 30)

/* The current context, locked as __pmHandleToPtr gives it. */
PCP_CALL struct __pmContext *__pmCurrentContext(void);

/* Old names of types and calls that are public now. */
#define __pmOptions            pmOptions
#define __pmProfile            pmProfile
#define __pmInDomProfile       pmInDomProfile
#define __pmInResult           pmInResult
#define __pmOpenLog            pmOpenLog
#define __pmGetAPIConfig       pmGetAPIConfig
#define __pmNoMem              pmNoMem
#define __pmNotifyErr          pmNotifyErr
#define __pmSyslog             pmSyslog
#define __pmPrintDesc          pmPrintDesc
#define __pmtimevalNow         pmtimevalNow
#define __pmtimevalAdd         pmtimevalAdd
#define __pmtimevalSub         pmtimevalSub
#define __pmtimevalInc         pmtimevalInc
#define __pmtimevalDec         pmtimevalDec
#define __pmtimevalToReal      pmtimevalToReal
#define __pmtimevalFromReal    pmtimevalFromReal
#define __pmPrintStamp         pmPrintStamp
#define __pmPrintHighResStamp  pmPrintHighResStamp
#define __pmPathSeparator      pmPathSeparator
#define __pmGetUsername        pmGetUsername
#define __pmSetProcessIdentity pmSetProcessIdentity
#define __pmTimeval            pmTimeval
#define __pmTimespec           pmTimespec
#define pmFreeHighResResult    __pmFreeHighResResult
#define __pmSpecLocalPMDA      pmSpecLocalPMDA
#define __pmLocalPMDA          pmLocalPMDA

#ifdef __cplusplus
}
#endif

#endif /* PCP_DEPRECATED_H */
