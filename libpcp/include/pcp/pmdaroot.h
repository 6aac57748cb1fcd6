/*
 * pcp/pmdaroot.h - the protocol between agents and pmdaroot, PCP's
 * privileged helper: an agent asks it for a container's host name,
 * process or cgroup, and pmcd asks it to start and stop agents.
 *
 * Message types, versions, feature bits and layouts are PCP 6's (pinned
 * by tests/unit/test_abi_pmda.c); each message is one of the structs
 * below, sent in host byte order over pmdaroot's unix socket.  The agent's
 * calls (pmdaRootConnect and its family) are in <pcp/pmda.h>, the
 * messages' own at the end.
 */
#ifndef PCP_PMDAROOT_H
#define PCP_PMDAROOT_H

#include "pmda.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ROOT_PDU_VERSION1 1
#define ROOT_PDU_VERSION2 2
#define ROOT_PDU_VERSION  ROOT_PDU_VERSION2

#define PDUROOT_INFO           0x9000
#define PDUROOT_HOSTNAME_REQ   0x9001
#define PDUROOT_HOSTNAME       0x9002
#define PDUROOT_PROCESSID_REQ  0x9003
#define PDUROOT_PROCESSID      0x9004
#define PDUROOT_CGROUPNAME_REQ 0x9005
#define PDUROOT_CGROUPNAME     0x9006
#define PDUROOT_STARTPMDA_REQ  0x9007
#define PDUROOT_STARTPMDA      0x9008
#define PDUROOT_STOPPMDA_REQ   0x9009
#define PDUROOT_STOPPMDA       0x900a

/* What pmdaroot offers, in its PDUROOT_INFO. */
typedef enum {
    PDUROOT_FLAG_HOSTNAME = (1 << 0),
    PDUROOT_FLAG_PROCESSID = (1 << 1),
    PDUROOT_FLAG_CGROUPNAME = (1 << 2),
} __pmdaRootServerFeature;

typedef struct {
    int type;    /* PDUROOT_* */
    int length;  /* bytes, this header included */
    int status;  /* 0 or a PMAPI error */
    int version; /* ROOT_PDU_VERSION */
} __pmdaRootPDUHdr;

typedef struct {
    __pmdaRootPDUHdr hdr;
    int features; /* PDUROOT_FLAG_* */
    int zeroed;
} __pmdaRootPDUInfo;

/* A container question or answer: a name of namelen bytes. */
typedef struct {
    __pmdaRootPDUHdr hdr;
    int pid;
    int namelen;
    char name[MAXPATHLEN];
} __pmdaRootPDUContainer;

#define MAXPMDALEN 64

/* Start an agent: its label and arguments in; its process and pipes out. */
typedef struct {
    __pmdaRootPDUHdr hdr;
    int pid;
    int infd;
    int outfd;
    int ipctype;
    int namelen;
    int argslen;
    char name[MAXPMDALEN];
    char args[MAXPATHLEN];
} __pmdaRootPDUStart;

/* Stop an agent (or wait for it): its exit status comes back in code. */
typedef struct {
    __pmdaRootPDUHdr hdr;
    int pid;
    int code;
    int force;
    int zeroed;
} __pmdaRootPDUStop;

/*
 * One message each way.  The senders answer as send(2) does (the bytes
 * sent, or -1 with errno), or -EINVAL / -E2BIG for a negative or too long
 * name or argument string.  The receivers read one message of the type
 * named and answer with its length, or a negative errno: -ESRCH for
 * another type, -ENOTSUP for a later version, -EINVAL for a short one,
 * -E2BIG for a name longer than the message; or the message's own
 * nonzero status.  A started agent's pipes travel as SCM_RIGHTS.  The
 * decoders unpack a received message: a container's name (NUL-terminated
 * when it has one; -E2BIG if it does not fit) and its length, a start's
 * process, pipes, label and arguments, a stop's process, status and force.
 */
PMDA_CALL extern int __pmdaSendRootPDUInfo(int, int, int);
PMDA_CALL extern int __pmdaRecvRootPDUInfo(int, int *, int *);
PMDA_CALL extern int __pmdaSendRootPDUContainer(int, int, int, const char *, int, int);
PMDA_CALL extern int __pmdaRecvRootPDUContainer(int, int, void *, int);
PMDA_CALL extern int __pmdaDecodeRootPDUContainer(void *, int, int *, char *, int);
PMDA_CALL extern int __pmdaSendRootPDUStartReq(int, int, const char *, int, const char *, int);
PMDA_CALL extern int __pmdaRecvRootPDUStartReq(int, void *, int);
PMDA_CALL extern int __pmdaSendRootPDUStart(int, int, int, int, const char *, int, int);
PMDA_CALL extern int __pmdaRecvRootPDUStart(int, void *, int);
PMDA_CALL extern int __pmdaDecodeRootPDUStart(void *, int, int *, int *, int *, int *, char *, int,
                                              char *, int);
PMDA_CALL extern int __pmdaSendRootPDUStop(int, int, int, int, int, int);
PMDA_CALL extern int __pmdaRecvRootPDUStop(int, int, void *, int);
PMDA_CALL extern int __pmdaDecodeRootPDUStop(void *, int, int *, int *, int *);

#ifdef __cplusplus
}
#endif

#endif /* PCP_PMDAROOT_H */
