/*
 * pcp/trace.h - the interface of PCP's libpcp_trace, through which a
 * program reports transactions, passes through code points and
 * observations to the trace agent (pmdatrace).  Installed where Debian's
 * libpcp-trace2-dev puts it.
 *
 * pmkit does not build libpcp_trace: a program calling these functions
 * compiles against this header and then needs PCP's library (or a stub of
 * its own, as PCP's trace demo builds) to link.  Names, prototypes and
 * constants are PCP 6's, checked against Debian's header by
 * tests/oracle/mmv_trace_headers.sh.  The header needs no other.
 */
#ifndef PCP_TRACE_H
#define PCP_TRACE_H

#ifdef __cplusplus
extern "C" {
#endif

/* A transaction named by its tag: started, completed (its time is then
 * reported) or abandoned (nothing reported). */
extern int pmtracebegin(const char *);
extern int pmtraceend(const char *);
extern int pmtraceabort(const char *);

/* A count of the times a code point is passed. */
extern int pmtracepoint(const char *);

/* A value observed, reported as an instantaneous value or as a counter. */
extern int pmtraceobs(const char *, double);
extern int pmtracecounter(const char *, double);

/* The text of one of the negative codes below (a static string). */
extern char *pmtraceerrstr(int);

/* The calls' errors: negative, counted down from -PMTRACE_ERR_BASE. */
#define PMTRACE_ERR_BASE       12000
#define PMTRACE_ERR_TAGNAME    (-PMTRACE_ERR_BASE - 0)
#define PMTRACE_ERR_INPROGRESS (-PMTRACE_ERR_BASE - 1)
#define PMTRACE_ERR_NOPROGRESS (-PMTRACE_ERR_BASE - 2)
#define PMTRACE_ERR_NOSUCHTAG  (-PMTRACE_ERR_BASE - 3)
#define PMTRACE_ERR_TAGTYPE    (-PMTRACE_ERR_BASE - 4)
#define PMTRACE_ERR_TAGLENGTH  (-PMTRACE_ERR_BASE - 5)
#define PMTRACE_ERR_IPC        (-PMTRACE_ERR_BASE - 6)
#define PMTRACE_ERR_ENVFORMAT  (-PMTRACE_ERR_BASE - 7)
#define PMTRACE_ERR_TIMEOUT    (-PMTRACE_ERR_BASE - 8)
#define PMTRACE_ERR_VERSION    (-PMTRACE_ERR_BASE - 9)
#define PMTRACE_ERR_PERMISSION (-PMTRACE_ERR_BASE - 10)
#define PMTRACE_ERR_CONNLIMIT  (-PMTRACE_ERR_BASE - 11)

/* The library's state, a mask of the bits below; returns the old one. */
extern int pmtracestate(int code);

#define PMTRACE_STATE_NONE    0  /* the default: synchronous, silent */
#define PMTRACE_STATE_API     1  /* diagnostics of the calls */
#define PMTRACE_STATE_COMMS   2  /* ... of connections */
#define PMTRACE_STATE_PDU     4  /* ... of the messages to and from the agent */
#define PMTRACE_STATE_PDUBUF  8  /* ... of the message buffers */
#define PMTRACE_STATE_NOAGENT 16 /* no agent: nothing is sent */
#define PMTRACE_STATE_ASYNC   32 /* messages sent without waiting for replies */

#ifdef __cplusplus
}
#endif

#endif /* PCP_TRACE_H */
