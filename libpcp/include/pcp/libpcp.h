/*
 * pcp/libpcp.h - libpcp's internal interface, as PCP's own agents, tools
 * and tests use it.
 *
 * PCP keeps a header of this name beside its sample agent and its test
 * programs, which include it as "libpcp.h"; pmkit installs its own as
 * <pcp/libpcp.h>, so that those programs, built with -I<include>/pcp as
 * PCP's makefiles build them, find it unchanged.  Names, prototypes,
 * constant values and layouts are PCP 6's (pinned by
 * tests/unit/test_abi_libpcp.c); the functions are the __pm* ones libpcp
 * exports at PCP's symbol versions (libpcp/libpcp.map).
 *
 * As in <pcp/pmapi.h>, only the functions pmkit implements are declared.
 * The types of archives and derived metrics are not here yet: those rooms
 * bring their own when they land.
 */
#ifndef PCP_LIBPCP_H
#define PCP_LIBPCP_H

#include "pmapi.h"
#include <pthread.h>
#include <sys/select.h>
#include <sys/stat.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------
 * Well-known ports and protocols.
 */
#define SERVER_PORT     44321
#define SERVER_PROTOCOL "pcp"
#define PROXY_PORT      44322
#define PROXY_PROTOCOL  "proxy"
#define WEBAPI_PORT     44323
#define WEBAPI_PROTOCOL "http"

/* Who is calling: an application, or pmcd itself (__pmSetInternalState). */
#define PM_STATE_APPL 0
#define PM_STATE_PMCS 1

/* ---------------------------------------------------------------------
 * Locks.  PM_LOCK and PM_UNLOCK take the lock object itself; a context
 * from __pmHandleToPtr comes locked and is released with
 * PM_UNLOCK(ctxp->c_lock).
 */
#define PM_MULTI_THREAD 1
typedef pthread_mutex_t __pmMutex;

#define PM_SCOPE_DSO_PMDA 0
#define PM_SCOPE_ACL      1
#define PM_SCOPE_AF       2
#define PM_SCOPE_LOGPORT  3
#define PM_SCOPE_MAX      3

PCP_CALL extern void __pmSetInternalState(int);
PCP_CALL extern void __pmInitLocks(void);
PCP_CALL extern int __pmLock(void *, const char *, int);
PCP_CALL extern int __pmUnlock(void *, const char *, int);
PCP_CALL extern int __pmMultiThreaded(int);
PCP_DATA extern pthread_mutex_t __pmLock_libpcp;

#define PM_INIT_LOCKS()        __pmInitLocks()
#define PM_MULTIPLE_THREADS(x) __pmMultiThreaded(x)
#define PM_LOCK(lock)          __pmLock(&(lock), __FILE__, __LINE__)
#define PM_UNLOCK(lock)        __pmUnlock(&(lock), __FILE__, __LINE__)

/* ---------------------------------------------------------------------
 * Identifiers taken apart as bit-fields (the word layouts of pmID and
 * pmInDom in <pcp/pmapi.h>).
 */
typedef struct {
#ifndef PMKIT_BITFIELDS_HIGH_FIRST
    unsigned int item : 10;
    unsigned int cluster : 12;
    unsigned int domain : 9;
    unsigned int flag : 1;
#else
    unsigned int flag : 1;
    unsigned int domain : 9;
    unsigned int cluster : 12;
    unsigned int item : 10;
#endif
} __pmID_int;

typedef struct {
#ifndef PMKIT_BITFIELDS_HIGH_FIRST
    unsigned int serial : 22;
    unsigned int domain : 9;
    unsigned int flag : 1;
#else
    unsigned int flag : 1;
    unsigned int domain : 9;
    unsigned int serial : 22;
#endif
} __pmInDom_int;

/* ---------------------------------------------------------------------
 * A namespace as a tree of nodes.
 */
typedef struct __pmnsNode {
    struct __pmnsNode *parent; /* up */
    struct __pmnsNode *next;   /* next sibling */
    struct __pmnsNode *first;  /* first child */
    struct __pmnsNode *hash;   /* next leaf in the same PMID hash chain */
    char *name;                /* this component */
    pmID pmid;                 /* a leaf's PMID */
} __pmnsNode;

typedef struct __pmnsTree {
    __pmnsNode *root;  /* the unnamed root */
    __pmnsNode **htab; /* leaves by PMID */
    int htabsize;      /* slots in htab */
    int mark_state;    /* for trimming */
} __pmnsTree;

PCP_CALL extern __pmnsTree *__pmExportPMNS(void);
PCP_CALL extern int __pmNewPMNS(__pmnsTree **);
PCP_CALL extern int __pmFixPMNSHashTab(__pmnsTree *, int, int);
PCP_CALL extern int __pmAddPMNSNode(__pmnsTree *, int, const char *);
PCP_CALL extern void __pmFreePMNS(__pmnsTree *);
PCP_CALL extern void __pmUsePMNS(__pmnsTree *);
PCP_CALL extern void __pmDumpNameNode(FILE *, const __pmnsNode *, int);
PCP_CALL extern void __pmDumpNameSpace(FILE *, int);

/* ---------------------------------------------------------------------
 * The PDUs of the pmcd protocol.
 */
#define PDU_START          0x7000
#define PDU_ERROR          PDU_START
#define PDU_RESULT         0x7001
#define PDU_PROFILE        0x7002
#define PDU_FETCH          0x7003
#define PDU_DESC_REQ       0x7004
#define PDU_DESC           0x7005
#define PDU_INSTANCE_REQ   0x7006
#define PDU_INSTANCE       0x7007
#define PDU_TEXT_REQ       0x7008
#define PDU_TEXT           0x7009
#define PDU_CONTROL_REQ    0x700a
#define PDU_CREDS          0x700c
#define PDU_PMNS_IDS       0x700d
#define PDU_PMNS_NAMES     0x700e
#define PDU_PMNS_CHILD     0x700f
#define PDU_PMNS_TRAVERSE  0x7010
#define PDU_ATTR           0x7011
#define PDU_AUTH           PDU_ATTR
#define PDU_LABEL_REQ      0x7012
#define PDU_LABEL          0x7013
#define PDU_HIGHRES_FETCH  0x7014
#define PDU_HIGHRES_RESULT 0x7015
#define PDU_DESC_IDS       0x7016
#define PDU_DESCS          0x7017
#define PDU_FINISH         0x7017
#define PDU_MAX            (PDU_FINISH - PDU_START)

/* A PDU is handled in 32-bit words. */
typedef uint32_t __pmPDU;
#define PM_PDU_SIZE(x)       (((x) + sizeof(__pmPDU) - 1) / sizeof(__pmPDU))
#define PM_PDU_SIZE_BYTES(x) (sizeof(__pmPDU) * PM_PDU_SIZE(x))

/* __pmGetPDU's timeouts. */
#define TIMEOUT_NEVER   0
#define TIMEOUT_DEFAULT -1
#define TIMEOUT_CONNECT -3

#define UNKNOWN_VERSION 0
#define PDU_VERSION2    2
#define PDU_VERSION     PDU_VERSION2
#define PDU_OVERRIDE2   -1002

/* pmcd's greeting: what it speaks and offers. */
typedef struct {
#ifndef PMKIT_BITFIELDS_HIGH_FIRST
    unsigned int features : 16; /* PDU_FLAG_* pmcd offers */
    unsigned int licensed : 8;  /* 1 */
    unsigned int version : 7;   /* PDU_VERSION */
    unsigned int zero : 1;      /* 0 */
#else
    unsigned int zero : 1;
    unsigned int version : 7;
    unsigned int licensed : 8;
    unsigned int features : 16;
#endif
} __pmPDUInfo;

typedef struct {
    int32_t len;  /* bytes, this header included */
    int32_t type; /* PDU_* */
    int32_t from; /* the sender's pid, or FROM_ANON */
} __pmPDUHdr;

/* Credentials (PDU_CREDS). */
#define CVERSION 0x1

typedef struct {
#ifndef PMKIT_BITFIELDS_HIGH_FIRST
    unsigned int c_valc : 8;
    unsigned int c_valb : 8;
    unsigned int c_vala : 8;
    unsigned int c_type : 8; /* CVERSION */
#else
    unsigned int c_type : 8;
    unsigned int c_vala : 8;
    unsigned int c_valb : 8;
    unsigned int c_valc : 8;
#endif
} __pmCred;

/* Features a client asks for and pmcd offers. */
#define PDU_FLAG_SECURE      (1U << 0)
#define PDU_FLAG_COMPRESS    (1U << 1)
#define PDU_FLAG_AUTH        (1U << 2)
#define PDU_FLAG_CREDS_REQD  (1U << 3)
#define PDU_FLAG_SECURE_ACK  (1U << 4)
#define PDU_FLAG_NO_NSS_INIT (1U << 5)
#define PDU_FLAG_CONTAINER   (1U << 6)
#define PDU_FLAG_CERT_REQD   (1U << 7)
#define PDU_FLAG_BAD_LABEL   (1U << 8)
#define PDU_FLAG_LABELS      (1U << 9)
#define PDU_FLAG_HIGHRES     (1U << 10)
#define PDU_FLAG_DESCS       (1U << 11)

typedef struct {
#ifndef PMKIT_BITFIELDS_HIGH_FIRST
    unsigned int c_flags : 16;  /* PDU_FLAG_* asked for */
    unsigned int c_version : 8; /* PDU_VERSION */
    unsigned int c_type : 8;    /* CVERSION */
#else
    unsigned int c_type : 8;
    unsigned int c_version : 8;
    unsigned int c_flags : 16;
#endif
} __pmVersionCred;

/* ---------------------------------------------------------------------
 * Times and results as libpcp keeps them inside: seconds and
 * nanoseconds, whatever the caller's resolution.
 */
typedef struct {
    int64_t sec;
    int32_t nsec;
} __pmTimestamp;

typedef struct __pmResult {
    __pmTimestamp timestamp; /* when the values were taken */
    int numpmid;             /* value sets in vset */
    pmValueSet *vset[1];     /* numpmid of them */
} __pmResult;

/* A value and value set as they travel in a PDU: 32 bits where the
 * in-memory form holds a pointer. */
#if defined(__LP64__) || defined(_LP64)
typedef struct {
    int inst;
    union {
        unsigned int pval; /* offset of the value block in the PDU */
        int lval;          /* a 32-bit value in place */
    } value;
} __pmValue_PDU;

typedef struct {
    pmID pmid;
    int numval;
    int valfmt;
    __pmValue_PDU vlist[1];
} __pmValueSet_PDU;
#else
typedef pmValue __pmValue_PDU;
typedef pmValueSet __pmValueSet_PDU;
#endif

/* __pmGetPDU's size modes, and PDU buffer growth. */
#define ANY_SIZE   0
#define LIMIT_SIZE 2
#define PDU_CHUNK  1024

#define FROM_ANON 0

/* The view of a __pmResult as a pmResult or a pmHighResResult: the same
 * value sets, numpmid at the same address. */
static inline pmResult *__pmOffsetResult(const __pmResult *rp)
{
    return (pmResult *)(&((char *)rp)[offsetof(__pmResult, numpmid) - offsetof(pmResult, numpmid)]);
}

static inline pmHighResResult *__pmOffsetHighResResult(const __pmResult *rp)
{
    return (pmHighResResult *)(&(
        (char *)rp)[offsetof(__pmResult, numpmid) - offsetof(pmHighResResult, numpmid)]);
}

/* Reading, sending and holding PDUs; PDU buffers are pinned by the
 * reader and unpinned by the caller, found by any address inside them. */
PCP_CALL extern int __pmXmitPDU(int, __pmPDU *);
PCP_CALL extern int __pmGetPDU(int, int, int, __pmPDU **);
PCP_CALL extern int __pmSetPDUCeiling(int);
PCP_CALL extern __pmPDU *__pmFindPDUBuf(int);
PCP_CALL extern void __pmPinPDUBuf(void *);
PCP_CALL extern int __pmUnpinPDUBuf(void *);
PCP_CALL extern void __pmCountPDUBuf(int, int *, int *);
PCP_DATA extern unsigned int *__pmPDUCntIn;
PCP_DATA extern unsigned int *__pmPDUCntOut;
PCP_CALL extern void __pmSetPDUCntBuf(unsigned *, unsigned *);
PCP_CALL extern void __pmDumpPDUCnt(FILE *);
PCP_CALL extern void __pmDumpPDUTrace(FILE *);
PCP_CALL extern char *__pmPDUTypeStr_r(int, char *, int);
PCP_CALL extern const char *__pmPDUTypeStr(int);

/* Each PDU: sent from fd's end, and taken apart after __pmGetPDU. */
PCP_CALL extern int __pmSendError(int, int, int);
PCP_CALL extern int __pmDecodeError(__pmPDU *, int *);
PCP_CALL extern int __pmSendXtendError(int, int, int, int);
PCP_CALL extern int __pmDecodeXtendError(__pmPDU *, int *, int *);
PCP_CALL extern int __pmSendResult(int, int, const __pmResult *);
PCP_CALL extern int __pmSendHighResResult(int, int, const __pmResult *);
PCP_CALL extern int __pmEncodeHighResResult(const __pmResult *, __pmPDU **);
PCP_CALL extern int __pmDecodeResult(__pmPDU *, __pmResult **);
PCP_CALL extern int __pmDecodeHighResResult(__pmPDU *, __pmResult **);
PCP_CALL extern int __pmSendProfile(int, int, int, pmProfile *);
PCP_CALL extern int __pmDecodeProfile(__pmPDU *, int *, pmProfile **);
PCP_CALL extern int __pmSendFetchPDU(int, int, int, int, pmID *, int);
PCP_CALL extern int __pmSendFetch(int, int, int, int, pmID *);
PCP_CALL extern int __pmDecodeFetch(__pmPDU *, int *, void *, int *, pmID **);
PCP_CALL extern int __pmSendHighResFetch(int, int, int, int, pmID *);
PCP_CALL extern int __pmDecodeHighResFetch(__pmPDU *, int *, int *, pmID **);
PCP_CALL extern int __pmSendDescReq(int, int, pmID);
PCP_CALL extern int __pmDecodeDescReq(__pmPDU *, pmID *);
PCP_CALL extern int __pmSendDesc(int, int, pmDesc *);
PCP_CALL extern int __pmDecodeDesc(__pmPDU *, pmDesc *);
PCP_CALL extern int __pmSendDescs(int, int, int, pmDesc *);
PCP_CALL extern int __pmDecodeDescs(__pmPDU *, int, pmDesc *);
PCP_CALL extern int __pmDecodeDescs2(__pmPDU *, int *, pmDesc **);
PCP_CALL extern int __pmSendInstanceReq(int, int, pmInDom, int, const char *);
PCP_CALL extern int __pmDecodeInstanceReq(__pmPDU *, pmInDom *, int *, char **);
PCP_CALL extern int __pmSendInstance(int, int, pmInResult *);
PCP_CALL extern int __pmDecodeInstance(__pmPDU *, pmInResult **);
PCP_CALL extern int __pmSendTextReq(int, int, int, int);
PCP_CALL extern int __pmDecodeTextReq(__pmPDU *, int *, int *);
PCP_CALL extern int __pmSendText(int, int, int, const char *);
PCP_CALL extern int __pmDecodeText(__pmPDU *, int *, char **);
PCP_CALL extern int __pmSendCreds(int, int, int, const __pmCred *);
PCP_CALL extern int __pmDecodeCreds(__pmPDU *, int *, int *, __pmCred **);
PCP_CALL extern int __pmSendIDList(int, int, int, const pmID *, int);
PCP_CALL extern int __pmDecodeIDList(__pmPDU *, int, pmID *, int *);
PCP_CALL extern int __pmDecodeIDList2(__pmPDU *, int *, pmID **);
PCP_CALL extern int __pmSendNameList(int, int, int, const char **, const int *);
PCP_CALL extern int __pmDecodeNameList(__pmPDU *, int *, char ***, int **);
PCP_CALL extern int __pmSendChildReq(int, int, const char *, int);
PCP_CALL extern int __pmDecodeChildReq(__pmPDU *, char **, int *);
PCP_CALL extern int __pmSendTraversePMNSReq(int, int, const char *);
PCP_CALL extern int __pmDecodeTraversePMNSReq(__pmPDU *, char **);
PCP_CALL extern int __pmSendAuth(int, int, int, const char *, int);
PCP_CALL extern int __pmDecodeAuth(__pmPDU *, int *, char **, int *);
PCP_CALL extern int __pmSendAttr(int, int, int, const char *, int);
PCP_CALL extern int __pmDecodeAttr(__pmPDU *, int *, char **, int *);
PCP_CALL extern int __pmSendLabelReq(int, int, int, int);
PCP_CALL extern int __pmDecodeLabelReq(__pmPDU *, int *, int *);
PCP_CALL extern int __pmSendLabel(int, int, int, int, pmLabelSet *, int);
PCP_CALL extern int __pmDecodeLabel(__pmPDU *, int *, int *, pmLabelSet **, int *);

typedef int (*__pmConnectHostType)(int, int);

/* Each descriptor's protocol version, socket-ness and features. */
PCP_CALL extern int __pmSetSocketIPC(int);
PCP_CALL extern int __pmSetVersionIPC(int, int);
PCP_CALL extern int __pmVersionIPC(int);
PCP_CALL extern int __pmSocketIPC(int);
PCP_CALL extern int __pmFeaturesIPC(int);
PCP_CALL extern void __pmOverrideLastFd(int);
PCP_CALL extern void __pmResetIPC(int);
PCP_CALL extern void __pmPrintIPC(void);

/* ---------------------------------------------------------------------
 * Sockets and descriptor sets.
 */
typedef fd_set __pmFdSet;
typedef struct __pmSockAddr __pmSockAddr;
typedef struct __pmHostEnt __pmHostEnt;

PCP_CALL extern int __pmCreateSocket(void);
PCP_CALL extern int __pmCreateIPv6Socket(void);
PCP_CALL extern int __pmCreateUnixSocket(void);
PCP_CALL extern int __pmBind(int, void *, __pmSockLen);
PCP_CALL extern int __pmListen(int, int);
PCP_CALL extern int __pmConnect(int, void *, __pmSockLen);
PCP_CALL extern int __pmAccept(int, void *, __pmSockLen *);
PCP_CALL extern void __pmCloseSocket(int);
PCP_CALL extern int __pmSetSockOpt(int, int, int, const void *, __pmSockLen);
PCP_CALL extern ssize_t __pmWrite(int, const void *, size_t);
PCP_CALL extern ssize_t __pmRead(int, void *, size_t);
PCP_CALL extern ssize_t __pmSend(int, const void *, size_t, int);
PCP_CALL extern ssize_t __pmRecv(int, void *, size_t, int);
PCP_CALL extern int __pmConnectTo(int, const __pmSockAddr *, int);
PCP_CALL extern int __pmConnectCheckError(int);
PCP_CALL extern int __pmConnectRestoreFlags(int, int);
PCP_CALL extern int __pmSocketClosed(void);
PCP_CALL extern int __pmGetFileStatusFlags(int);
PCP_CALL extern int __pmSetFileStatusFlags(int, int);
PCP_CALL extern int __pmGetFileDescriptorFlags(int);
PCP_CALL extern int __pmSetFileDescriptorFlags(int, int);

PCP_CALL extern int __pmFD(int);
PCP_CALL extern void __pmFD_CLR(int, __pmFdSet *);
PCP_CALL extern int __pmFD_ISSET(int, __pmFdSet *);
PCP_CALL extern void __pmFD_SET(int, __pmFdSet *);
PCP_CALL extern void __pmFD_ZERO(__pmFdSet *);
PCP_CALL extern void __pmFD_COPY(__pmFdSet *, const __pmFdSet *);
PCP_CALL extern int __pmSelectRead(int, __pmFdSet *, struct timeval *);
PCP_CALL extern int __pmSelectWrite(int, __pmFdSet *, struct timeval *);

PCP_CALL extern __pmSockAddr *__pmSockAddrAlloc(void);
PCP_CALL extern void __pmSockAddrFree(__pmSockAddr *);
PCP_CALL extern size_t __pmSockAddrSize(void);
PCP_CALL extern void __pmSockAddrInit(__pmSockAddr *, int, int, int);
PCP_CALL extern int __pmSockAddrCompare(const __pmSockAddr *, const __pmSockAddr *);
PCP_CALL extern __pmSockAddr *__pmSockAddrDup(const __pmSockAddr *);
PCP_CALL extern void __pmSockAddrSetFamily(__pmSockAddr *, int);
PCP_CALL extern int __pmSockAddrGetFamily(const __pmSockAddr *);
PCP_CALL extern void __pmSockAddrSetPort(__pmSockAddr *, int);
PCP_CALL extern int __pmSockAddrGetPort(const __pmSockAddr *);
PCP_CALL extern void __pmSockAddrSetPath(__pmSockAddr *, const char *);
PCP_CALL extern int __pmSockAddrIsLoopBack(const __pmSockAddr *);
PCP_CALL extern int __pmSockAddrIsInet(const __pmSockAddr *);
PCP_CALL extern int __pmSockAddrIsIPv6(const __pmSockAddr *);
PCP_CALL extern int __pmSockAddrIsUnix(const __pmSockAddr *);
PCP_CALL extern char *__pmSockAddrToString(const __pmSockAddr *);
PCP_CALL extern char *__pmGetNameInfo(__pmSockAddr *);
PCP_CALL extern __pmSockAddr *__pmStringToSockAddr(const char *);
PCP_CALL extern __pmSockAddr *__pmLoopBackAddress(int);
PCP_CALL extern __pmSockAddr *__pmHostEntGetSockAddr(const __pmHostEnt *, void **);
PCP_CALL extern __pmHostEnt *__pmGetAddrInfo(const char *);
PCP_CALL extern void __pmHostEntFree(__pmHostEnt *);
PCP_CALL extern char *__pmHostEntGetName(__pmHostEnt *);

PCP_CALL extern double __pmConnectTimeout(void);
PCP_CALL extern int __pmSetConnectTimeout(double);
PCP_CALL extern double __pmRequestTimeout(void);
PCP_CALL extern int __pmSetRequestTimeout(double);
PCP_CALL extern int __pmAuxConnectPMCDPort(const char *, int);
PCP_CALL extern int __pmIsLocalhost(const char *);

/* ---------------------------------------------------------------------
 * Access control: the operations a server names, and who may do which of
 * them (hosts, users, groups), as pmcd and pmdapipe keep them.
 */
PCP_CALL extern int __pmAccAddOp(unsigned int);
PCP_CALL extern int __pmAccAddHost(const char *, unsigned int, unsigned int, int);
PCP_CALL extern int __pmAccAddUser(const char *, unsigned int, unsigned int, int);
PCP_CALL extern int __pmAccAddGroup(const char *, unsigned int, unsigned int, int);
PCP_CALL extern int __pmAccAddClient(__pmSockAddr *, unsigned int *);
PCP_CALL extern int __pmAccAddAccount(const char *, const char *, unsigned int *);
PCP_CALL extern void __pmAccDelClient(__pmSockAddr *);
PCP_CALL extern void __pmAccDumpHosts(FILE *);
PCP_CALL extern void __pmAccDumpUsers(FILE *);
PCP_CALL extern void __pmAccDumpGroups(FILE *);
PCP_CALL extern void __pmAccDumpLists(FILE *);
PCP_CALL extern int __pmAccSaveHosts(void);
PCP_CALL extern int __pmAccSaveLists(void);
PCP_CALL extern int __pmAccRestoreHosts(void);
PCP_CALL extern int __pmAccRestoreLists(void);
PCP_CALL extern void __pmAccFreeSavedLists(void);

/* ---------------------------------------------------------------------
 * Hash tables keyed by an unsigned int: chains of nodes, the newest of a
 * key found first.
 */
typedef struct __pmHashNode {
    struct __pmHashNode *next; /* same bucket */
    unsigned int key;
    void *data;
} __pmHashNode;

typedef struct __pmHashCtl {
    int nodes;           /* how many nodes */
    int hsize;           /* how many buckets */
    __pmHashNode **hash; /* the buckets */
    __pmHashNode *next;  /* __pmHashWalk's place */
    unsigned int index;  /* __pmHashWalk's bucket */
} __pmHashCtl;

typedef enum {
    PM_HASH_WALK_START = 0,
    PM_HASH_WALK_NEXT,
    PM_HASH_WALK_STOP,
    PM_HASH_WALK_DELETE_NEXT,
    PM_HASH_WALK_DELETE_STOP,
} __pmHashWalkState;

typedef __pmHashWalkState (*__pmHashWalkCallback)(const __pmHashNode *, void *);

PCP_CALL extern void __pmHashInit(__pmHashCtl *);
PCP_CALL extern int __pmHashPreAlloc(int, __pmHashCtl *);
PCP_CALL extern void __pmHashWalkCB(__pmHashWalkCallback, void *, const __pmHashCtl *);
PCP_CALL extern __pmHashNode *__pmHashWalk(__pmHashCtl *, __pmHashWalkState);
PCP_CALL extern __pmHashNode *__pmHashSearch(unsigned int, __pmHashCtl *);
PCP_CALL extern int __pmHashAdd(unsigned int, void *, __pmHashCtl *);
PCP_CALL extern int __pmHashDel(unsigned int, void *, __pmHashCtl *);
PCP_CALL extern void __pmHashClear(__pmHashCtl *);
PCP_CALL extern void __pmHashFree(__pmHashCtl *);

/* ---------------------------------------------------------------------
 * Host specifications: a host and its ports.
 */
typedef struct {
    char *name; /* the host */
    int *ports; /* its ports */
    int nports; /* how many */
} __pmHostSpec;
PCP_CALL extern int __pmParseHostSpec(const char *, __pmHostSpec **, int *, char **);
PCP_CALL extern int __pmUnparseHostSpec(__pmHostSpec *, int, char *, size_t);
PCP_CALL extern void __pmFreeHostSpec(__pmHostSpec *, int);
PCP_CALL extern int __pmParseHostAttrsSpec(const char *, __pmHostSpec **, int *, __pmHashCtl *,
                                           char **);
PCP_CALL extern int __pmUnparseHostAttrsSpec(__pmHostSpec *, int, __pmHashCtl *, char *, size_t);
PCP_CALL extern void __pmFreeHostAttrsSpec(__pmHostSpec *, int, __pmHashCtl *);
PCP_CALL extern void __pmFreeAttrsSpec(__pmHashCtl *);

/* A host context's connection to pmcd. */
typedef struct {
    int pc_fd;              /* the socket */
    __pmHostSpec *pc_hosts; /* pmcd's host, and a proxy's */
    int pc_nhosts;          /* entries in pc_hosts */
    int pc_timeout;         /* set when a connect timed out */
    int pc_tout_sec;        /* __pmGetPDU's timeout */
    time_t pc_again;        /* when to try again */
} __pmPMCDCtl;

/* ---------------------------------------------------------------------
 * Labels.
 */
static inline int pmlabel_extrinsic(pmLabel *lp)
{
    return (lp->flags & PM_LABEL_OPTIONAL) != 0;
}

static inline int pmlabel_intrinsic(pmLabel *lp)
{
    return (lp->flags & PM_LABEL_OPTIONAL) == 0;
}

PCP_CALL extern int __pmAddLabels(pmLabelSet **, const char *, int);
PCP_CALL extern pmLabelSet *__pmDupLabelSets(pmLabelSet *, int);
PCP_CALL extern int __pmParseLabelSet(const char *, int, int, pmLabelSet **);
PCP_CALL extern int __pmGetContextLabels(pmLabelSet **);
PCP_CALL extern int __pmGetDomainLabels(int, const char *, pmLabelSet **);
PCP_CALL extern char *__pmLabelIdentString(int, int, char *, size_t);
PCP_CALL extern const char *__pmLabelTypeString(int);
PCP_CALL extern const char *__pmGetLabelConfigHostName(char *, size_t);
PCP_CALL extern const char *__pmGetLabelConfigMachineID(char *, size_t);
PCP_CALL extern const char *__pmGetLabelConfigDomainName(char *, size_t);
PCP_CALL extern void __pmDumpLabelSets(FILE *, const pmLabelSet *, int);

/* ---------------------------------------------------------------------
 * Contexts as libpcp's internal calls see them.  c_archctl points at an
 * archive context's controls (__pmArchCtl, below).
 */
typedef struct __pmArchCtl __pmArchCtl;

typedef struct __pmContext {
    __pmMutex c_lock;       /* held while the context is in use */
    int c_type;             /* PM_CONTEXT_HOST, _ARCHIVE, _LOCAL, _INIT, _FREE */
    int c_mode;             /* PM_MODE_* */
    __pmPMCDCtl *c_pmcd;    /* a host context's connection */
    __pmArchCtl *c_archctl; /* an archive context's controls */
    __pmTimestamp c_origin; /* fetch origin, or the current time */
    __pmTimestamp c_delta;  /* step of the origin */
    int c_direction;        /* the sign of the step: -1, 0, 1 */
    int c_sent;             /* the profile was sent to pmcd */
    pmProfile *c_instprof;  /* the instance profile */
    void *c_dm;             /* derived metrics */
    int c_flags;            /* PM_CTXFLAG_* */
    __pmHashCtl c_attrs;    /* the context's attributes */
    int c_handle;           /* the handle the PMAPI gives out */
    int c_slot;             /* its slot inside libpcp */
} __pmContext;

#define PM_CONTEXT_INIT -2 /* being made: not to be used */
#define __PM_MODE_MASK  0xffff

PCP_CALL extern __pmContext *__pmHandleToPtr(int);
PCP_CALL extern void __pmFreeDerived(__pmContext *);
PCP_CALL extern int __pmDecodeResult_ctx(__pmContext *, __pmPDU *, __pmResult **);
PCP_CALL extern int __pmDecodeValueSet(__pmPDU *, int, __pmPDU *, char *, int, int, int,
                                       pmValueSet **);
PCP_CALL extern int __pmDecodeHighResResult_ctx(__pmContext *, __pmPDU *, __pmResult **);
PCP_CALL extern int __pmFetch(__pmContext *, int, pmID *, __pmResult **);
PCP_CALL extern int __pmFetchLocal(__pmContext *, int, pmID *, __pmResult **);
PCP_CALL extern void __pmDumpContext(FILE *, int, pmInDom);
PCP_CALL extern void __pmDumpProfile(FILE *, int, const pmProfile *);
PCP_CALL extern void __pmFreeProfile(pmProfile *);

/* ---------------------------------------------------------------------
 * pmlogger's control protocol.
 */
#define LOG_PDU_VERSION2      2
#define LOG_PDU_VERSION3      3
#define LOG_PDU_VERSION       LOG_PDU_VERSION3
#define LOG_REQUEST_NEWVOLUME 1
#define LOG_REQUEST_STATUS    2
#define LOG_REQUEST_SYNC      3

typedef struct {
    __pmTimestamp start; /* when the archive began */
    __pmTimestamp last;  /* its last record */
    __pmTimestamp now;   /* the logger's clock */
    int state;           /* PM_LOG_STATE_* */
    int vol;             /* the volume being written */
    int64_t size;        /* its size */
    struct {
        char *hostname; /* pmcd's host */
        char *fqdn;     /* its full name */
        char *timezone; /* its $TZ */
        char *zoneinfo; /* its zone in detail */
    } pmcd;
    struct {
        char *timezone; /* the logger's $TZ */
        char *zoneinfo; /* its zone in detail */
    } pmlogger;
} __pmLoggerStatus;

#define PDU_LOG_CONTROL   0x8000
#define PDU_LOG_STATUS_V2 0x8001
#define PDU_LOG_REQUEST   0x8002
#define PDU_LOG_STATUS    0x8003

#define PM_LOG_OFF       0
#define PM_LOG_MAYBE     1
#define PM_LOG_ON        2
#define PM_LOG_MANDATORY 11
#define PM_LOG_ADVISORY  12
#define PM_LOG_ENQUIRE   13

/* The control connection: connect (the descriptor, or an error), the
 * PDUs, the reply timeout ($PMLOGGER_REQUEST_TIMEOUT, seconds), and one
 * control request and its answer. */
PCP_CALL extern int __pmConnectLogger(const char *, int *, int *);
PCP_CALL extern int __pmSendLogControl(int, const __pmResult *, int, int, int);
PCP_CALL extern int __pmDecodeLogControl(const __pmPDU *, __pmResult **, int *, int *, int *);
PCP_CALL extern int __pmSendLogRequest(int, int);
PCP_CALL extern int __pmDecodeLogRequest(const __pmPDU *, int *);
PCP_CALL extern int __pmSendLogStatus(int, __pmLoggerStatus *);
PCP_CALL extern int __pmDecodeLogStatus(__pmPDU *, __pmLoggerStatus **);
PCP_CALL extern void __pmFreeLogStatus(__pmLoggerStatus *, int);
PCP_CALL extern int __pmLoggerTimeout(void);
PCP_CALL extern int __pmControlLog(int, const __pmResult *, int, int, int, __pmResult **);

/* __pmLoggerStatus.state */
#define PM_LOG_STATE_NEW  0
#define PM_LOG_STATE_INIT 1

/* A logging control word: state in bits 0-3 (on, mandatory, available,
 * in the log), the interval in the bits above. */
#define PMLC_SET_ON(val, flag)     (val) = ((val) & ~0x1) | ((flag)&0x1)
#define PMLC_GET_ON(val)           ((val)&0x1)
#define PMLC_SET_MAND(val, flag)   (val) = ((val) & ~0x2) | (((flag)&0x1) << 1)
#define PMLC_GET_MAND(val)         (((val)&0x2) >> 1)
#define PMLC_SET_AVAIL(val, flag)  (val) = ((val) & ~0x4) | (((flag)&0x1) << 2)
#define PMLC_GET_AVAIL(val)        (((val)&0x4) >> 2)
#define PMLC_SET_INLOG(val, flag)  (val) = ((val) & ~0x8) | (((flag)&0x1) << 3)
#define PMLC_GET_INLOG(val)        (((val)&0x8) >> 3)
#define PMLC_SET_STATE(val, state) (val) = ((val) & ~0xf) | ((state)&0xf)
#define PMLC_GET_STATE(val)        ((val)&0xf)
#define PMLC_MAX_DELTA             0x0fffffff
#define PMLC_SET_DELTA(val, delta) (val) = ((val)&0xf) | ((delta) << 4)
#define PMLC_GET_DELTA(val)        ((((val) & ~0xf) >> 4) & PMLC_MAX_DELTA)

/* A client's name for pmcd.client.whoami ("HOST (ADDRESS) ID"). */
PCP_CALL extern FILE *__pmRotateLog(const char *, const char *, FILE *, int *);
PCP_CALL extern int __pmSetClientIdArgv(int, char **);
PCP_CALL extern int __pmSetClientId(const char *);

/* pmlogger's control ports. */
typedef struct {
    int pid;         /* the logger */
    int port;        /* its control port */
    char *pmcd_host; /* the host it logs */
    char *archive;   /* its archive */
    char *name;      /* the port file's name */
} __pmLogPort;

/* The loggers of a host (the local ones: their port files): how many, in
 * an array the library keeps until the next call. */
PCP_CALL extern int __pmLogFindPort(const char *, int, __pmLogPort **);

#define PM_LOG_PRIMARY_PID  0
#define PM_LOG_PRIMARY_PORT 0
#define PM_LOG_ALL_PIDS     -1
#define PM_LOG_NO_PID       -2
#define PM_LOG_NO_PORT      -2

/* ---------------------------------------------------------------------
 * Fetch groups of the old optimiser (optfetch).
 */
typedef struct __optreq {
    struct __optreq *r_next;    /* next request */
    struct __fetchctl *r_fetch; /* the group it is in */
    pmDesc *r_desc;             /* the metric */
    int r_numinst;              /* instances asked for (0: all) */
    int *r_instlist;            /* which */
    void *r_aux;                /* the caller's */
} optreq_t;

typedef struct __pmidctl {
    struct __pmidctl *p_next; /* next metric */
    optreq_t *p_rqp;          /* its first request */
    pmID p_pmid;              /* the metric */
    int p_numinst;            /* instances over its requests */
    int *p_instlist;          /* which */
    void *p_aux;              /* the caller's */
} pmidctl_t;

typedef struct __indomctl {
    struct __indomctl *i_next; /* next instance domain */
    pmidctl_t *i_pmp;          /* its first metric */
    pmInDom i_indom;           /* the instance domain */
    int i_numinst;             /* its profile */
    int *i_instlist;           /* which */
    void *i_aux;               /* the caller's */
} indomctl_t;

typedef struct __fetchctl {
    struct __fetchctl *f_next; /* next group */
    indomctl_t *f_idp;         /* its first instance domain */
    int f_state;               /* OPT_STATE_* */
    int f_cost;                /* estimated cost */
    int f_newcost;             /* cost with a new request */
    int f_numpmid;             /* what pmFetch is given */
    pmID *f_pmidlist;          /* ... */
    void *f_aux;               /* the caller's */
} fetchctl_t;

#define OPT_STATE_NEW      1
#define OPT_STATE_PMID     2
#define OPT_STATE_PROFILE  4
#define OPT_STATE_UMASK    7
#define OPT_STATE_XREQ     8
#define OPT_STATE_XPMID    16
#define OPT_STATE_XINDOM   32
#define OPT_STATE_XFETCH   64
#define OPT_STATE_XPROFILE 128

typedef struct {
    int c_pmid;      /* per metric in a fetch */
    int c_indom;     /* per instance domain in a fetch */
    int c_fetch;     /* per group */
    int c_indomsize; /* instances expected in an instance domain */
    int c_xtrainst;  /* per instance fetched and not wanted */
    int c_scope;     /* 0: incremental, 1: global */
} optcost_t;

#define OPT_COST_INFINITY 0x7fffffff

PCP_CALL extern void __pmOptFetchAdd(fetchctl_t **, optreq_t *);
PCP_CALL extern int __pmOptFetchDel(fetchctl_t **, optreq_t *);
PCP_CALL extern void __pmOptFetchRedo(fetchctl_t **);
PCP_CALL extern void __pmOptFetchDump(FILE *, const fetchctl_t *);
PCP_CALL extern void __pmOptFetchGetParams(optcost_t *);
PCP_CALL extern void __pmOptFetchPutParams(optcost_t *);

/* ---------------------------------------------------------------------
 * Processes.
 */
typedef struct __pmExecCtl __pmExecCtl_t;

#define PM_EXEC_TOSS_NONE   0
#define PM_EXEC_TOSS_STDIN  1
#define PM_EXEC_TOSS_STDOUT 2
#define PM_EXEC_TOSS_STDERR 4
#define PM_EXEC_TOSS_ALL    7
#define PM_EXEC_NOWAIT      0
#define PM_EXEC_WAIT        1

typedef void (*__pmConfigCallback)(char *, char *, char *);
typedef void (*__pmSignalHandler)(int);
typedef void (*__pmAPIConfigCallback)(const char *, const char *);

PCP_DATA extern const __pmConfigCallback __pmNativeConfig;
PCP_CALL extern void __pmConfig(__pmConfigCallback);
PCP_CALL extern void __pmAPIConfig(__pmAPIConfigCallback);

PCP_CALL extern int __pmProcessAddArg(__pmExecCtl_t **, const char *);
PCP_CALL extern int __pmProcessUnpickArgs(__pmExecCtl_t **, const char *);
PCP_CALL extern int __pmProcessExec(__pmExecCtl_t **, int, int);
PCP_CALL extern int __pmProcessPipe(__pmExecCtl_t **, const char *, int, FILE **);
PCP_CALL extern int __pmProcessPipeClose(FILE *);

PCP_CALL extern int __pmSetSignalHandler(int, __pmSignalHandler);
PCP_CALL extern void __pmIgnoreSignalPIPE(void);
PCP_CALL extern int __pmProcessExists(pid_t);
PCP_CALL extern int __pmProcessTerminate(pid_t, int);
PCP_CALL extern pid_t __pmProcessCreate(char **, int *, int *);
PCP_CALL extern int __pmProcessDataSize(unsigned long *);
PCP_CALL extern int __pmProcessRunTimes(double *, double *);
PCP_CALL extern void __pmDumpStack(void);
PCP_CALL extern void __pmDumpStackInit(void *);
PCP_CALL extern int __pmAbsolutePath(char *);
PCP_CALL extern char *__pmNativePath(char *);
PCP_CALL extern const char *__pmFindPMDA(const char *);
PCP_CALL extern int __pmHasPMNSFileChanged(const char *);
PCP_CALL extern char *__pmGetClientId(int, char **);
PCP_CALL extern void *__pmMemoryMap(int, size_t, int);
PCP_CALL extern void __pmMemoryUnmap(void *, size_t);
PCP_CALL extern int __pmMapErrno(int);

/* Alarm timers: callbacks from SIGALRM after a delay, then every interval
 * (once for an interval of zero). */
PCP_CALL extern int __pmAFsetup(const struct timeval *, const struct timeval *, void *,
                                void (*)(int, void *));
PCP_CALL extern int __pmAFregister(const struct timeval *, void *, void (*)(int, void *));
PCP_CALL extern int __pmAFunregister(int);
PCP_CALL extern void __pmAFblock(void);
PCP_CALL extern void __pmAFunblock(void);
PCP_CALL extern int __pmAFisempty(void);

#define PM_SERVICE_DISCOVERY_INTERRUPTED 0x1
#define PM_SERVICE_DISCOVERY_RESOLVE     0x2

/* ---------------------------------------------------------------------
 * pmGetOptions in pieces.
 */
PCP_CALL extern void __pmStartOptions(pmOptions *);
PCP_CALL extern void __pmAddOptArchive(pmOptions *, char *);
PCP_CALL extern void __pmAddOptArchivePath(pmOptions *);
PCP_CALL extern void __pmAddOptArchiveList(pmOptions *, char *);
PCP_CALL extern void __pmAddOptArchiveFolio(pmOptions *, char *);
PCP_CALL extern void __pmAddOptContainer(pmOptions *, char *);
PCP_CALL extern void __pmAddOptHost(pmOptions *, char *);
PCP_CALL extern void __pmAddOptHostList(pmOptions *, char *);
PCP_CALL extern void __pmSetLocalContextFlag(pmOptions *);
PCP_CALL extern void __pmSetLocalContextTable(pmOptions *, char *);
PCP_CALL extern void __pmEndOptions(pmOptions *);

/* ---------------------------------------------------------------------
 * Servers (pmcd, pmproxy, pmlogger).
 */
typedef enum {
    PM_SERVER_FEATURE_SECURE = 0,
    PM_SERVER_FEATURE_COMPRESS,
    PM_SERVER_FEATURE_IPV6,
    PM_SERVER_FEATURE_AUTH,
    PM_SERVER_FEATURE_CREDS_REQD,
    PM_SERVER_FEATURE_UNIX_DOMAIN,
    PM_SERVER_FEATURE_DISCOVERY,
    PM_SERVER_FEATURE_CONTAINERS,
    PM_SERVER_FEATURE_LOCAL,
    PM_SERVER_FEATURE_CERT_REQD,
    PM_SERVER_FEATURES
} __pmServerFeature;

typedef void (*__pmServerCallback)(__pmFdSet *, int, int);
typedef struct __pmServerPresence __pmServerPresence;
PCP_CALL extern int __pmServerHasFeature(__pmServerFeature);
PCP_CALL extern int __pmServerSetFeature(__pmServerFeature);
PCP_CALL extern int __pmServerClearFeature(__pmServerFeature);
PCP_CALL extern int __pmServerCreatePIDFile(const char *, int);
PCP_CALL extern int __pmShutdown(void);
PCP_CALL extern void __pmServerStart(int, char **, int);
PCP_CALL extern int __pmServerNotifyServiceManagerReady(pid_t);
PCP_CALL extern int __pmServerNotifyServiceManagerStopping(pid_t);

/* Context and connection attributes. */
typedef enum {
    PCP_ATTR_NONE = 0,
    PCP_ATTR_PROTOCOL = 1,
    PCP_ATTR_SECURE = 2,
    PCP_ATTR_COMPRESS = 3,
    PCP_ATTR_USERAUTH = 4,
    PCP_ATTR_USERNAME = 5,
    PCP_ATTR_AUTHNAME = 6,
    PCP_ATTR_PASSWORD = 7,
    PCP_ATTR_METHOD = 8,
    PCP_ATTR_REALM = 9,
    PCP_ATTR_UNIXSOCK = 10,
    PCP_ATTR_USERID = 11,
    PCP_ATTR_GROUPID = 12,
    PCP_ATTR_LOCAL = 13,
    PCP_ATTR_PROCESSID = 14,
    PCP_ATTR_CONTAINER = 15,
    PCP_ATTR_EXCLUSIVE = 16,
} __pmAttrKey;
/* An attribute's key by name (size counts the name's NUL), its name, and
 * its "name=value" text: the length written, 0 for none. */
PCP_CALL extern __pmAttrKey __pmLookupAttrKey(const char *, size_t);
PCP_CALL extern int __pmAttrKeyStr_r(__pmAttrKey, char *, size_t);
PCP_CALL extern int __pmAttrStr_r(__pmAttrKey, const char *, char *, size_t);

/* TLS settings (pmkit has no secure sockets). */
typedef struct __pmSecureConfig {
    char *cacertfile;
    char *cacertdir;
    char *certfile;
    char *keyfile;
    char *ciphers;
    char *ciphersuites;
    char *clientcertfile;
    char *clientkeyfile;
    char *clientverify;
} __pmSecureConfig;

/* ---------------------------------------------------------------------
 * Diagnostics.
 */
PCP_CALL extern void __pmDumpDebug(FILE *);
PCP_CALL extern void __pmDumpErrTab(FILE *);

/* ---------------------------------------------------------------------
 * Values and results.
 */
PCP_CALL extern int __pmStuffValue(const pmAtomValue *, pmValue *, int);
PCP_CALL extern int __pmStringValue(const char *, pmAtomValue *, int);
PCP_CALL extern __pmResult *__pmAllocResult(int);
PCP_CALL extern void __pmFreeResult(__pmResult *);
PCP_CALL extern void __pmSortInstances(__pmResult *);
PCP_CALL extern int __pmInProfile(pmInDom, const pmProfile *, int);
PCP_CALL extern void __pmFreeInResult(pmInResult *);
PCP_CALL extern void __pmFreeResultValues(pmResult *);
PCP_CALL extern void __pmFreeHighResResultValues(pmHighResResult *);
PCP_CALL extern void __pmFreeHighResResult(pmHighResResult *);

PCP_CALL extern void __pmDumpResult(FILE *, const pmResult *);
PCP_CALL extern void __pmDumpHighResResult(FILE *, const pmHighResResult *);
PCP_CALL extern void __pmPrintResult(FILE *, const __pmResult *);
PCP_CALL extern void __pmDumpIDList(FILE *, int, const pmID *);
PCP_CALL extern void __pmDumpInResult(FILE *, const pmInResult *);
PCP_CALL extern void __pmDumpNameList(FILE *, int, const char **);
PCP_CALL extern void __pmDumpStatusList(FILE *, int, const int *);
PCP_CALL extern void __pmDumpEventRecords(FILE *, pmValueSet *, int);
PCP_CALL extern int __pmCheckEventRecords(pmValueSet *, int);
PCP_CALL extern void __pmDumpHighResEventRecords(FILE *, pmValueSet *, int);
PCP_CALL extern void __pmPrintMetricNames(FILE *, int, char **, char *);

/* ---------------------------------------------------------------------
 * Time.  Timestamps travel as network-order words: the seconds' low and
 * high halves and the nanoseconds, or (timevals) seconds and microseconds.
 */
PCP_CALL extern int __pmGetTimestamp(__pmTimestamp *);
PCP_CALL extern int __pmGetTimespec(struct timespec *);
PCP_CALL extern double __pmTimevalSub(const pmTimeval *, const pmTimeval *);
PCP_CALL extern double __pmTimespecSub(const pmTimespec *, const pmTimespec *);
PCP_CALL extern double __pmTimestampSub(const __pmTimestamp *, const __pmTimestamp *);
PCP_CALL extern void __pmTimestampInc(__pmTimestamp *, const __pmTimestamp *);
PCP_CALL extern void __pmTimestampDec(__pmTimestamp *, const __pmTimestamp *);
PCP_CALL extern int __pmTimestampCmp(const __pmTimestamp *, const __pmTimestamp *);
PCP_CALL extern void __pmLoadTimestamp(const int32_t *, __pmTimestamp *);
PCP_CALL extern void __pmLoadTimeval(const int32_t *, __pmTimestamp *);
PCP_CALL extern void __pmPutTimestamp(const __pmTimestamp *, int32_t *);
PCP_CALL extern void __pmPutTimeval(const __pmTimestamp *, int32_t *);
PCP_CALL extern void __pmPrintTimeval(FILE *, const pmTimeval *);
PCP_CALL extern void __pmPrintTimespec(FILE *, const pmTimespec *);
PCP_CALL extern void __pmPrintTimestamp(FILE *, const __pmTimestamp *);
PCP_CALL extern void __pmtimespecSleep(struct timespec);
PCP_CALL extern void __pmtimespecPause(struct timespec);
PCP_CALL extern void __pmtimevalSleep(struct timeval);
PCP_CALL extern void __pmtimevalPause(struct timeval);
PCP_CALL extern char *__pmTimezone(void);
PCP_CALL extern char *__pmTimezone_r(char *, int);
PCP_CALL extern char *__pmZoneinfo(void);
PCP_CALL extern time_t __pmMktime(struct tm *);
PCP_CALL extern int __pmParseTime(const char *, struct timeval *, struct timeval *,
                                  struct timeval *, char **);
PCP_CALL extern int __pmParseHighResTime(const char *, struct timespec *, struct timespec *,
                                         struct timespec *, char **);
/* A date in ctime's order with fields left out (ctime.c), and the time it
 * names next to an origin. */
PCP_CALL extern int __pmParseCtime(const char *, struct tm *, char **);
PCP_CALL extern int __pmConvertHighResTime(struct tm *, struct timespec *, struct timespec *);

/* ---------------------------------------------------------------------
 * Archive files as PCP's internal interface hands them out (archint):
 * __pmFILE, a stdio-like handle that reads compressed files as if they
 * were not, the label of an archive's files and the controls of an
 * archive being read.  Layouts as PCP 6.0.3's, field for field.
 */
typedef uint32_t __pmoff32_t; /* version 2 offsets */
typedef uint64_t __pmoff64_t; /* version 3 offsets */

struct __pm_fops;
typedef struct {
    struct __pm_fops *fops; /* the handler, chosen by the file's kind */
    off_t position;         /* where the reader is, uncompressed */
    void *priv;             /* the handler's own state */
} __pmFILE;

typedef struct __pm_fops {
    void *(*__pmopen)(__pmFILE *, const char *, const char *);
    void *(*__pmfdopen)(__pmFILE *, int, const char *);
    int (*__pmseek)(__pmFILE *, off_t, int);
    void (*__pmrewind)(__pmFILE *);
    off_t (*__pmtell)(__pmFILE *);
    int (*__pmfgetc)(__pmFILE *);
    size_t (*__pmread)(void *, size_t, size_t, __pmFILE *);
    size_t (*__pmwrite)(void *, size_t, size_t, __pmFILE *);
    int (*__pmflush)(__pmFILE *);
    int (*__pmfsync)(__pmFILE *);
    int (*__pmfileno)(__pmFILE *);
    off_t (*__pmlseek)(__pmFILE *, off_t, int);
    int (*__pmstat)(const char *, struct stat *);
    int (*__pmfstat)(__pmFILE *, struct stat *);
    int (*__pmfeof)(__pmFILE *);
    int (*__pmferror)(__pmFILE *);
    void (*__pmclearerr)(__pmFILE *);
    int (*__pmsetvbuf)(__pmFILE *, char *, int, size_t);
    int (*__pmclose)(__pmFILE *);
} __pm_fops;

PCP_CALL extern __pmFILE *__pmFopen(const char *, const char *);
PCP_CALL extern __pmFILE *__pmFdopen(int, const char *);
PCP_CALL extern int __pmFseek(__pmFILE *, long, int);
PCP_CALL extern void __pmRewind(__pmFILE *);
PCP_CALL extern long __pmFtell(__pmFILE *);
PCP_CALL extern int __pmFgetc(__pmFILE *);
PCP_CALL extern size_t __pmFread(void *, size_t, size_t, __pmFILE *);
PCP_CALL extern size_t __pmFwrite(void *, size_t, size_t, __pmFILE *);
PCP_CALL extern int __pmFflush(__pmFILE *);
PCP_CALL extern int __pmFsync(__pmFILE *);
PCP_CALL extern off_t __pmLseek(__pmFILE *, off_t, int);
PCP_CALL extern int __pmStat(const char *, struct stat *);
PCP_CALL extern int __pmFstat(__pmFILE *, struct stat *);
PCP_CALL extern int __pmFileno(__pmFILE *);
PCP_CALL extern int __pmFeof(__pmFILE *);
PCP_CALL extern int __pmFerror(__pmFILE *);
PCP_CALL extern void __pmClearerr(__pmFILE *);
PCP_CALL extern int __pmSetvbuf(__pmFILE *, char *, int, size_t);
PCP_CALL extern int __pmFclose(__pmFILE *);

/* __pmStat's st_size for a compressed file, whose size it cannot know */
#define PM_ST_SIZE_INVALID (-1)

/* The header of a metadata record (its length also ends the record). */
typedef struct __pmLogHdr {
    int32_t len;  /* the record's bytes, header and trailer included */
    int32_t type; /* TYPE_* */
} __pmLogHdr;

/* The kinds of record in an archive's metadata (.meta). */
#define TYPE_DESC        1 /* a metric's descriptor */
#define TYPE_INDOM_V2    2 /* an instance domain, version 2 */
#define TYPE_LABEL_V2    3 /* label sets, version 2 */
#define TYPE_TEXT        4 /* help text */
#define TYPE_INDOM       5 /* an instance domain, version 3 */
#define TYPE_INDOM_DELTA 6 /* changes to an instance domain, version 3 */
#define TYPE_LABEL       7 /* label sets, version 3 */
#define TYPE_MAX         TYPE_LABEL

/*
 * An instance domain as an archive's metadata records it at one time
 * (__pmLogLoadInDom, and each entry of __pmLogCtl's hashindom chains,
 * newest first through next).  For a delta (isdelta, version 3) the
 * instances are those added, and those removed with a NULL name;
 * __pmLogUndeltaInDom makes it whole.  alloc says which parts are the
 * entry's own to free (PMLID_*); instlist and names may point into buf.
 */
#define PMLID_SELF     1 /* the structure itself was malloc'd */
#define PMLID_INSTLIST 2 /* instlist was malloc'd */
#define PMLID_NAMELIST 4 /* namelist was malloc'd */
#define PMLID_NAMES    8 /* each namelist[i] was malloc'd */

typedef struct __pmLogInDom {
    struct __pmLogInDom *next;  /* the one before it in time */
    struct __pmLogInDom *prior; /* the one after it in time */
    pmInDom indom;              /* the instance domain */
    __pmTimestamp stamp;        /* when it was observed */
    int isdelta;                /* 1: a delta (changes only) */
    int numinst;                /* entries in instlist and namelist */
    int alloc;                  /* PMLID_* */
    int *instlist;              /* instance identifiers */
    char **namelist;            /* their names (NULL: removed, in a delta) */
    int32_t *buf;               /* the record as read, when kept */
} __pmLogInDom;

/* The label sets of one class (PM_LABEL_*) and identifier observed at
 * one time (hashlabels: by class, then identifier, newest first through
 * next).  Several sets only for PM_LABEL_INSTANCES, one an instance. */
typedef struct __pmLogLabelSet {
    struct __pmLogLabelSet *next; /* the one before it in time */
    __pmTimestamp stamp;          /* when it was observed */
    int type;                     /* PM_LABEL_* */
    int ident;                    /* domain, indom, cluster, PMID or PM_IN_NULL */
    int nsets;                    /* entries in labelsets */
    pmLabelSet *labelsets;        /* the sets */
} __pmLogLabelSet;

/* The label at the start of each file of an archive, as read. */
typedef struct {
    int magic;           /* PM_LOG_MAGIC | the format version */
    int pid;             /* the logger's process */
    __pmTimestamp start; /* when the archive began */
    int vol;             /* the file's volume (PM_LOG_VOL_META, _TI, 0, 1, ...) */
    uint32_t features;   /* version 3 feature bits */
    char *hostname;      /* the host the metrics came from (malloc'd) */
    char *timezone;      /* its $TZ (malloc'd) */
    char *zoneinfo;      /* its zone in detail (malloc'd; NULL for version 2) */
} __pmLogLabel;

/* One entry of the temporal index. */
typedef struct {
    __pmTimestamp stamp; /* the time of the entry */
    int vol;             /* the data volume then */
    off_t off_meta;      /* where the metadata ended */
    off_t off_data;      /* where the volume's data ended */
} __pmLogTI;

/* An archive's files and what is known of them. */
typedef struct {
    __pmMutex lc_lock;       /* for threads sharing it */
    int refcnt;              /* contexts using it */
    char *name;              /* the archive's base name */
    __pmFILE *tifp;          /* the temporal index */
    __pmFILE *mdfp;          /* the metadata */
    int state;               /* PM_LOG_STATE_* (writing) */
    __pmHashCtl hashpmid;    /* descriptors by PMID */
    __pmHashCtl hashrange;   /* each metric's first and last value */
    __pmHashCtl hashindom;   /* instance domains */
    __pmHashCtl trimindom;   /* instances' first and last times */
    __pmHashCtl hashlabels;  /* label sets by type */
    __pmHashCtl hashtext;    /* help text by type */
    int minvol;              /* the lowest data volume */
    int maxvol;              /* the highest */
    int numseen;             /* entries in seen */
    int *seen;               /* volumes whose label was found good */
    __pmLogLabel label;      /* the archive's label */
    off_t physend;           /* the last volume's physical end */
    __pmTimestamp endtime;   /* the time at the logical end */
    int numti;               /* entries in ti */
    __pmLogTI *ti;           /* the temporal index */
    struct __pmnsTree *pmns; /* the names in the metadata */
    int multi;               /* one of several archives of a context */
} __pmLogCtl;

/* What is kept of each archive of a context reading several. */
typedef struct {
    char *name;              /* its base name */
    __pmTimestamp starttime; /* its start */
    char *hostname;          /* its host */
    char *timezone;          /* its $TZ */
    char *zoneinfo;          /* its zone in detail */
} __pmMultiLogCtl;

/* A context's controls for the archive it reads. */
struct __pmArchCtl {
    __pmLogCtl *ac_log;            /* the archive */
    __pmFILE *ac_mfp;              /* the data volume open */
    int ac_curvol;                 /* its number */
    long ac_offset;                /* where reading is */
    int ac_vol;                    /* in that volume */
    int ac_serial;                 /* reading in order */
    int ac_chkfeatures;            /* 1: check the feature bits */
    __pmHashCtl ac_pmid_hc;        /* per metric, for interpolation */
    double ac_end;                 /* the time at the end */
    void *ac_want;                 /* interpolation's */
    void *ac_unbound;              /* interpolation's */
    void *ac_cache;                /* interpolation's */
    int ac_cache_idx;              /* interpolation's */
    int ac_mark_done;              /* the mark between archives was given */
    int ac_num_logs;               /* the archives of the context */
    int ac_cur_log;                /* the one being read */
    __pmMultiLogCtl **ac_log_list; /* all of them */
};

/* Archive records read, by any context (a count programs print and reset). */
PCP_DATA extern int __pmLogReads;
/* The next record of an archive context, whatever its time (pmlogcheck). */
#define PMLOGREAD_NEXT   0
#define PMLOGREAD_TO_EOF 1
PCP_CALL extern int __pmLogRead_ctx(__pmContext *, int, __pmFILE *, __pmResult **, int);

PCP_CALL extern int __pmLogVersion(const __pmLogCtl *);
PCP_CALL extern size_t __pmLogLabelSize(const __pmLogCtl *);
PCP_CALL extern int __pmLogChkLabel(__pmArchCtl *, __pmFILE *, __pmLogLabel *, int);
PCP_CALL extern int __pmLogWriteLabel(__pmFILE *, const __pmLogLabel *);
PCP_CALL extern int __pmLogLoadLabel(__pmFILE *, __pmLogLabel *);
PCP_CALL extern void __pmLogFreeLabel(__pmLogLabel *);
PCP_CALL extern int __pmLogChangeVol(__pmArchCtl *, int);
PCP_CALL extern int __pmLogFindOpen(__pmArchCtl *, const char *);
PCP_CALL extern char *__pmLogBaseName(char *);
PCP_CALL extern char *__pmLogFeaturesStr(uint32_t);
PCP_CALL extern const char *__pmLogMetaTypeStr(int);
PCP_CALL extern int __pmLogLoadInDom(__pmArchCtl *, int, int, __pmLogInDom *, int32_t **);
PCP_CALL extern void __pmFreeLogInDom(__pmLogInDom *);
PCP_CALL extern void __pmLogUndeltaInDom(pmInDom, __pmLogInDom *);
PCP_CALL extern int __pmLogGetInDom(__pmArchCtl *, pmInDom, __pmTimestamp *, int **, char ***);
PCP_CALL extern int __pmLogLookupInDom(__pmArchCtl *, pmInDom, __pmTimestamp *, const char *);
PCP_CALL extern int __pmLogNameInDom(__pmArchCtl *, pmInDom, __pmTimestamp *, int, char **);
PCP_CALL extern int __pmGetArchiveEnd(__pmArchCtl *, __pmTimestamp *);
PCP_CALL extern int __pmLogFetch(__pmContext *, int, pmID *, __pmResult **);
PCP_CALL extern char *__pmLogMetaTypeStr_r(int, char *, int);

#ifdef __cplusplus
}
#endif

#endif /* PCP_LIBPCP_H */
