/*
 * pcp/pmda.h - the agent (PMDA) support library, libpcp_pmda, as provided
 * by pmkit.
 *
 * Source and binary compatible with PCP 6's <pcp/pmda.h> on Linux.  An agent
 * describes its metrics and instance domains in tables (pmdaMetric,
 * pmdaIndom), hands them to pmdaInit, and the library answers desc, fetch,
 * instance and text requests for it, either as a DSO inside a client's local
 * context or as a daemon talking PDUs to pmcd.  Layouts are pinned by
 * tests/unit/test_abi_pmda.c.  Include <pcp/pmapi.h> first.
 */
#ifndef PCP_PMDA_H
#define PCP_PMDA_H

#include <stdarg.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PMDA_CALL PCP_CALL
#if defined(__GNUC__)
#define __PMDA_INIT_CALL __attribute__((visibility("default")))
#else
#define __PMDA_INIT_CALL
#endif

/* Interface versions an agent can declare. */
#define PMDA_INTERFACE_2      2 /* base */
#define PMDA_INTERFACE_3      3 /* fetch callback may say "no value" */
#define PMDA_INTERFACE_4      4 /* dynamic namespace callbacks */
#define PMDA_INTERFACE_5      5 /* client context, four-state fetch callback */
#define PMDA_INTERFACE_6      6 /* connection attributes */
#define PMDA_INTERFACE_7      7 /* labels */
#define PMDA_INTERFACE_LATEST 7

typedef enum { pmdaPipe, pmdaInet, pmdaUnix, pmdaUnknown, pmdaIPv6 } pmdaIoType;

typedef struct __pmnsTree pmdaNameSpace;
typedef struct __pmHashCtl pmdaHashTable;

typedef struct pmdaInstid {
    int i_inst;   /* instance identifier */
    char *i_name; /* instance name */
} pmdaInstid;

typedef struct pmdaIndom {
    pmInDom it_indom;   /* serial number until pmdaInit makes it a pmInDom */
    int it_numinst;     /* entries in it_set */
    pmdaInstid *it_set; /* the instances */
} pmdaIndom;

typedef struct pmdaMetric {
    void *m_user;  /* the agent's own per-metric pointer */
    pmDesc m_desc; /* pmid built with PMDA_PMID, indom a serial number */
} pmdaMetric;

/* Fetch callback results for interface 5 and later. */
#define PMDA_FETCH_NOVALUES 0
#define PMDA_FETCH_STATIC   1
#define PMDA_FETCH_DYNAMIC  2 /* the library frees the string/aggregate after copying */

typedef int (*pmdaFetchCallBack)(pmdaMetric *, unsigned int, pmAtomValue *);
typedef void (*pmdaResultCallBack)(pmResult *);
typedef int (*pmdaCheckCallBack)(void);
typedef void (*pmdaDoneCallBack)(void);
typedef void (*pmdaEndContextCallBack)(int);
typedef int (*pmdaLabelCallBack)(pmInDom, unsigned int, pmLabelSet **);

/* Per-agent state shared between the agent and the library. */
typedef struct pmdaExt {
    unsigned int e_flags;                 /* PMDA_EXT_* */
    void *e_ext;                          /* library-private block */
    char *e_sockname;                     /* unix socket name, if any */
    const char *e_name;                   /* agent name */
    const char *e_logfile;                /* log file path */
    const char *e_helptext;               /* help database path, without extension */
    int e_status;                         /* 0 when healthy */
    int e_infd;                           /* requests arrive here */
    int e_outfd;                          /* answers leave here */
    int e_port;                           /* inet port, if any */
    int e_singular;                       /* instance iteration state */
    int e_ordinal;                        /* instance iteration state */
    int e_direct;                         /* 1 when metrics[item] is the metric */
    int e_domain;                         /* performance metrics domain */
    int e_nmetrics;                       /* entries in e_metrics */
    int e_nindoms;                        /* entries in e_indoms */
    int e_help;                           /* help database handle, < 0 if none */
    pmProfile *e_prof;                    /* last profile received */
    pmdaIoType e_io;                      /* transport to pmcd */
    pmdaIndom *e_indoms;                  /* instance domain table */
    pmdaIndom *e_idp;                     /* instance iteration state */
    pmdaMetric *e_metrics;                /* metric table */
    pmdaResultCallBack e_resultCallBack;  /* releases a fetch result */
    pmdaFetchCallBack e_fetchCallBack;    /* supplies one value */
    pmdaCheckCallBack e_checkCallBack;    /* runs before each request */
    pmdaDoneCallBack e_doneCallBack;      /* runs after each request */
    int e_context;                        /* client context of the request */
    pmdaEndContextCallBack e_endCallBack; /* a client context closed */
    pmdaLabelCallBack e_labelCallBack;    /* instance labels */
} pmdaExt;

#define PMDA_EXT_FLAG_DIRECT  (1 << 0)
#define PMDA_EXT_FLAG_HASHED  (1 << 1)
#define PMDA_EXT_SETUPDONE    (1 << 2)
#define PMDA_EXT_CONNECTED    (1 << 3)
#define PMDA_EXT_NOTREADY     (1 << 4)
#define PMDA_EXT_LABEL_CHANGE (1 << 5)
#define PMDA_EXT_NAMES_CHANGE (1 << 6)

/* The methods every interface version has, in dispatch order. */
#define PMKIT_PMDA_METHODS_2                                                                       \
    pmdaExt *ext;                                                                                  \
    int (*profile)(pmProfile *, pmdaExt *);                                                        \
    int (*fetch)(int, pmID *, pmResult **, pmdaExt *);                                             \
    int (*desc)(pmID, pmDesc *, pmdaExt *);                                                        \
    int (*instance)(pmInDom, int, char *, pmInResult **, pmdaExt *);                               \
    int (*text)(int, int, char **, pmdaExt *);                                                     \
    int (*store)(pmResult *, pmdaExt *);
#define PMKIT_PMDA_METHODS_4                                                                       \
    PMKIT_PMDA_METHODS_2                                                                           \
    int (*pmid)(const char *, pmID *, pmdaExt *);                                                  \
    int (*name)(pmID, char ***, pmdaExt *);                                                        \
    int (*children)(const char *, int, char ***, int **, pmdaExt *);
#define PMKIT_PMDA_METHODS_6                                                                       \
    PMKIT_PMDA_METHODS_4                                                                           \
    int (*attribute)(int, int, const char *, int, pmdaExt *);

/* What an agent hands to pmcd or to a local context. */
typedef struct pmdaInterface {
    int domain; /* performance metrics domain */
    struct {
#ifndef PMKIT_BITFIELDS_HIGH_FIRST
        unsigned int pmda_interface : 8; /* PMDA_INTERFACE_* */
        unsigned int pmapi_version : 8;  /* PMAPI_VERSION_* */
        unsigned int flags : 16;         /* PMDA_FLAG_* */
#else
        unsigned int flags : 16;
        unsigned int pmapi_version : 8;
        unsigned int pmda_interface : 8;
#endif
    } comm;
    int status; /* 0, or the error that made initialisation fail */
    union {
        struct {
            PMKIT_PMDA_METHODS_2
        } any, two, three;
        struct {
            PMKIT_PMDA_METHODS_4
        } four, five;
        struct {
            PMKIT_PMDA_METHODS_6
        } six;
        struct {
            PMKIT_PMDA_METHODS_6
            int (*label)(int, int, pmLabelSet **, pmdaExt *);
        } seven;
    } version;
} pmdaInterface;

#define PMDA_FLAG_AUTHORIZE (1 << 2)
#define PMDA_FLAG_CONTAINER (1 << 6)

#define PMDA_ATTR_USERNAME  5
#define PMDA_ATTR_USERID    11
#define PMDA_ATTR_GROUPID   12
#define PMDA_ATTR_PROCESSID 14
#define PMDA_ATTR_CONTAINER 15

/* One agent loaded into a local context. */
typedef struct __pmDSO {
    int domain;             /* its domain */
    char *name;             /* path of the shared object */
    char *init;             /* name of its initialisation function */
    void *handle;           /* dlopen handle */
    int ctx_last_prof;      /* context whose profile it saw last, -1 none */
    pmdaInterface dispatch; /* its methods */
} __pmDSO;

/* Table helpers: a PMID without its domain, and pmUnits from the six fields
 * (dimSpace, dimTime, dimCount, scaleSpace, scaleTime, scaleCount). */
#define PMDA_PMID(cluster, item) ((((cluster)&0xfff) << 10) | ((item)&0x3ff))
#ifndef PMKIT_BITFIELDS_HIGH_FIRST
#define PMDA_PMUNITS(a, b, c, d, e, f)                                                             \
    {                                                                                              \
        0, f, e, d, c, b, a                                                                        \
    }
#else
#define PMDA_PMUNITS(a, b, c, d, e, f)                                                             \
    {                                                                                              \
        a, b, c, d, e, f, 0                                                                        \
    }
#endif

/* Agent command line options. */
#define PMDA_OPTIONS "D:d:h:i:l:pu:U:"
#define PMDA_OPTIONS_HEADER(s)                                                                     \
    {                                                                                              \
        "", 0, '-', 0, (s)                                                                         \
    }
#define PMDA_OPTIONS_TEXT(s)                                                                       \
    {                                                                                              \
        "", 0, '|', 0, (s)                                                                         \
    }
#define PMDA_OPTIONS_END                                                                           \
    {                                                                                              \
        NULL, 0, 0, 0, NULL                                                                        \
    }

#define PMDAOPT_DEBUG                                                                              \
    {                                                                                              \
        "debug", 1, 'D', "DBG", NULL                                                               \
    }
#define PMDAOPT_DOMAIN                                                                             \
    {                                                                                              \
        "domain", 1, 'd', "NUM", "use domain (numeric) for metrics domain of PMDA"                 \
    }
#define PMDAOPT_HELPTEXT                                                                           \
    {                                                                                              \
        "helpfile", 1, 'h', "FILE", "path to PMDA metrics help text file"                          \
    }
#define PMDAOPT_INET                                                                               \
    {                                                                                              \
        "inet", 1, 'i', "PORT", "pmcd IPv4 connection service name or numeric port"                \
    }
#define PMDAOPT_IPV6                                                                               \
    {                                                                                              \
        "ipv6", 1, '6', "PORT", "pmcd IPv6 connection service name or numeric port"                \
    }
#define PMDAOPT_LOGFILE                                                                            \
    {                                                                                              \
        "log", 1, 'l', "FILE", "write log to FILE rather than using default log name"              \
    }
#define PMDAOPT_PIPE                                                                               \
    {                                                                                              \
        "pipe", 0, 'p', 0, "use a pipe for communication with pmcd"                                \
    }
#define PMDAOPT_UNIX                                                                               \
    {                                                                                              \
        "unix", 1, 'u', "FILE", "use a unix domain socket for communication with pmcd"             \
    }
#define PMDAOPT_USERNAME                                                                           \
    {                                                                                              \
        "username", 1, 'U', "USER", "run the PMDA using the named user account"                    \
    }

struct pmdaOptions;
#define __pmdaOptions pmdaOptions
typedef int (*pmdaOptionOverride)(int, struct pmdaOptions *);

/* Shares its leading fields with pmOptions. */
typedef struct pmdaOptions {
    int version;
    int flags;
    const char *short_options;
    pmLongOptions *long_options;
    const char *short_usage;
    pmdaOptionOverride override;
    int index;
    int optind;
    int opterr;
    int optopt;
    char *optarg;
    int __initialized;
    char *__nextchar;
    int __ordering;
    int __posixly_correct;
    int __first_nonopt;
    int __last_nonopt;
    int errors;
    char *username; /* -U argument */
} pmdaOptions;

/* Set-up. */
PMDA_CALL extern int pmdaGetOpt(int, char *const *, const char *, pmdaInterface *, int *);
PMDA_CALL extern int pmdaGetOptions(int, char *const *, pmdaOptions *, pmdaInterface *);
PMDA_CALL extern void pmdaUsageMessage(pmdaOptions *);
PMDA_CALL extern void pmdaDaemon(pmdaInterface *, int, const char *, int, const char *,
                                 const char *);
PMDA_CALL extern void pmdaDSO(pmdaInterface *, int, char *, char *);
PMDA_CALL extern void pmdaOpenLog(pmdaInterface *);
PMDA_CALL extern void pmdaInit(pmdaInterface *, pmdaIndom *, int, pmdaMetric *, int);
/* A new metric table after pmdaInit (agents whose metrics change). */
PMDA_CALL extern void pmdaRehash(pmdaExt *, pmdaMetric *, int);
PMDA_CALL extern void pmdaConnect(pmdaInterface *);
PMDA_CALL extern void pmdaMain(pmdaInterface *);
PMDA_CALL extern void pmdaSendError(pmdaInterface *, int);
PMDA_CALL extern void pmdaInterfaceMoved(pmdaInterface *);

/* Agent private data and flags. */
PMDA_CALL extern void *pmdaExtGetData(pmdaExt *);
PMDA_CALL extern void pmdaExtSetData(pmdaExt *, void *);
PMDA_CALL extern void pmdaSetData(pmdaInterface *, void *);
PMDA_CALL extern void pmdaExtSetFlags(pmdaExt *, int);
PMDA_CALL extern void pmdaSetFlags(pmdaInterface *, int);
PMDA_CALL extern void pmdaSetCommFlags(pmdaInterface *, int);

/* Callbacks. */
PMDA_CALL extern void pmdaSetResultCallBack(pmdaInterface *, pmdaResultCallBack);
PMDA_CALL extern void pmdaSetFetchCallBack(pmdaInterface *, pmdaFetchCallBack);
PMDA_CALL extern void pmdaSetCheckCallBack(pmdaInterface *, pmdaCheckCallBack);
PMDA_CALL extern void pmdaSetDoneCallBack(pmdaInterface *, pmdaDoneCallBack);
PMDA_CALL extern void pmdaSetEndContextCallBack(pmdaInterface *, pmdaEndContextCallBack);
PMDA_CALL extern void pmdaSetLabelCallBack(pmdaInterface *, pmdaLabelCallBack);

/* Default methods. */
PMDA_CALL extern int pmdaProfile(pmProfile *, pmdaExt *);
PMDA_CALL extern int pmdaFetch(int, pmID *, pmResult **, pmdaExt *);
PMDA_CALL extern int pmdaInstance(pmInDom, int, char *, pmInResult **, pmdaExt *);
PMDA_CALL extern int pmdaDesc(pmID, pmDesc *, pmdaExt *);
PMDA_CALL extern int pmdaText(int, int, char **, pmdaExt *);
PMDA_CALL extern int pmdaStore(pmResult *, pmdaExt *);
PMDA_CALL extern int pmdaPMID(const char *, pmID *, pmdaExt *);
PMDA_CALL extern int pmdaName(pmID, char ***, pmdaExt *);
PMDA_CALL extern int pmdaChildren(const char *, int, char ***, int **, pmdaExt *);
PMDA_CALL extern int pmdaAttribute(int, int, const char *, int, pmdaExt *);
PMDA_CALL extern int pmdaLabel(int, int, pmLabelSet **, pmdaExt *);
PMDA_CALL extern int pmdaGetContext(void);

/* Namespace trees for dynamic subtrees: full dotted names and their PMIDs,
 * answering an agent's pmid/name/children methods (interface 4 and later).
 * pmdaTreeName sees the names present at the last pmdaTreeRebuildHash. */
PMDA_CALL extern int pmdaTreeCreate(pmdaNameSpace **);
PMDA_CALL extern int pmdaTreeInsert(pmdaNameSpace *, pmID, const char *);
PMDA_CALL extern void pmdaTreeRebuildHash(pmdaNameSpace *, int);
PMDA_CALL extern void pmdaTreeRelease(pmdaNameSpace *);
PMDA_CALL extern int pmdaTreeSize(pmdaNameSpace *);
PMDA_CALL extern int pmdaTreePMID(pmdaNameSpace *, const char *, pmID *);
PMDA_CALL extern int pmdaTreeName(pmdaNameSpace *, pmID, char ***);
PMDA_CALL extern int pmdaTreeChildren(pmdaNameSpace *, const char *, int, char ***, int **);

/* Dynamic metrics: subtrees whose names (and metric table entries) the
 * agent refreshes through these callbacks; pmdaDynamicPMNS keeps its
 * registrations process-wide, pmdaExtDynamicPMNS in the pmdaExt. */
typedef int (*pmdaUpdatePMNS)(pmdaExt *, pmdaNameSpace **);
typedef int (*pmdaUpdateText)(pmdaExt *, pmID, int, char **);
typedef void (*pmdaUpdateMetric)(pmdaMetric *, pmdaMetric *, int);
typedef void (*pmdaCountMetrics)(int *, int *);
PMDA_CALL extern void pmdaExtDynamicPMNS(const char *, int *, int, pmdaUpdatePMNS, pmdaUpdateText,
                                         pmdaUpdateMetric, pmdaCountMetrics, pmdaMetric *, int,
                                         pmdaExt *);
PMDA_CALL extern void pmdaDynamicPMNS(const char *, int *, int, pmdaUpdatePMNS, pmdaUpdateText,
                                      pmdaUpdateMetric, pmdaCountMetrics, pmdaMetric *, int);
PMDA_CALL extern int pmdaDynamicSetClusterMask(const char *, unsigned int);
PMDA_CALL extern pmdaNameSpace *pmdaDynamicLookupName(pmdaExt *, const char *);
PMDA_CALL extern pmdaNameSpace *pmdaDynamicLookupPMID(pmdaExt *, pmID);
PMDA_CALL extern int pmdaDynamicLookupText(pmID, int, char **, pmdaExt *);
PMDA_CALL extern void pmdaDynamicMetricTable(pmdaExt *);

/* Help databases (BASE.dir / BASE.pag written by newhelp). */
PMDA_CALL extern int pmdaOpenHelp(const char *);
PMDA_CALL extern void pmdaCloseHelp(int);
PMDA_CALL extern char *pmdaGetHelp(int, pmID, int);
PMDA_CALL extern char *pmdaGetInDomHelp(int, pmInDom, int);

/* Labels. */
PMDA_CALL extern int pmdaAddLabels(pmLabelSet **, const char *, ...) __PM_PRINTFLIKE(2, 3);
PMDA_CALL extern int pmdaAddNotes(pmLabelSet **, const char *, ...) __PM_PRINTFLIKE(2, 3);
PMDA_CALL extern int pmdaAddLabelFlags(pmLabelSet *, int);

/* Instance domain cache. */
#define PMDA_CACHE_LOAD          1
#define PMDA_CACHE_ADD           2
#define PMDA_CACHE_HIDE          3
#define PMDA_CACHE_CULL          4
#define PMDA_CACHE_EMPTY         5
#define PMDA_CACHE_SAVE          6
#define PMDA_CACHE_STRINGS       7
#define PMDA_CACHE_ACTIVE        8
#define PMDA_CACHE_INACTIVE      9
#define PMDA_CACHE_SIZE          10
#define PMDA_CACHE_SIZE_ACTIVE   11
#define PMDA_CACHE_SIZE_INACTIVE 12
#define PMDA_CACHE_REUSE         13
#define PMDA_CACHE_WALK_REWIND   14
#define PMDA_CACHE_WALK_NEXT     15
#define PMDA_CACHE_CHECK         16
#define PMDA_CACHE_REORG         17
#define PMDA_CACHE_SYNC          18
#define PMDA_CACHE_DUMP          19
#define PMDA_CACHE_DUMP_ALL      20

/* Packed arrays of event records, for values of type PM_TYPE_EVENT and
 * PM_TYPE_HIGHRES_EVENT: an array handle, records added to it, parameters
 * added to the last record, then the array's address for the value. */
PMDA_CALL extern int pmdaEventNewArray(void);
PMDA_CALL extern int pmdaEventResetArray(int);
PMDA_CALL extern int pmdaEventReleaseArray(int);
PMDA_CALL extern int pmdaEventAddRecord(int, struct timeval *, int);
PMDA_CALL extern int pmdaEventAddMissedRecord(int, struct timeval *, int);
PMDA_CALL extern int pmdaEventAddParam(int, pmID, int, pmAtomValue *);
PMDA_CALL extern pmEventArray *pmdaEventGetAddr(int);
PMDA_CALL extern int pmdaEventNewHighResArray(void);
PMDA_CALL extern int pmdaEventResetHighResArray(int);
PMDA_CALL extern int pmdaEventReleaseHighResArray(int);
PMDA_CALL extern int pmdaEventAddHighResRecord(int, struct timespec *, int);
PMDA_CALL extern int pmdaEventAddHighResMissedRecord(int, struct timespec *, int);
PMDA_CALL extern int pmdaEventAddHighResParam(int, pmID, int, pmAtomValue *);
PMDA_CALL extern pmHighResEventArray *pmdaEventGetHighResAddr(int);
/* the older names of the last two */
PMDA_CALL extern int pmdaEventHighResAddParam(int, pmID, int, pmAtomValue *);
PMDA_CALL extern pmHighResEventArray *pmdaEventHighResGetAddr(int);

/* Queues of events shared by the agent's client contexts: a queue handle
 * from its name, events appended, each client context fetching the ones it
 * has not seen yet as an event array (pmdaEventQueueRecords). */
typedef int (*pmdaEventDecodeCallBack)(int, void *, size_t, struct timeval *, void *);
typedef int (*pmdaEventApplyFilterCallBack)(void *, void *, size_t);
typedef void (*pmdaEventReleaseFilterCallBack)(void *);
PMDA_CALL extern int pmdaEventNewQueue(const char *, size_t);
PMDA_CALL extern int pmdaEventNewActiveQueue(const char *, size_t, unsigned int);
PMDA_CALL extern int pmdaEventQueueShutdown(int);
PMDA_CALL extern int pmdaEventQueueHandle(const char *);
PMDA_CALL extern int pmdaEventQueueAppend(int, void *, size_t, struct timeval *);
PMDA_CALL extern int pmdaEventQueueClients(int, pmAtomValue *);
PMDA_CALL extern int pmdaEventQueueCounter(int, pmAtomValue *);
PMDA_CALL extern int pmdaEventQueueBytes(int, pmAtomValue *);
PMDA_CALL extern int pmdaEventQueueMemory(int, pmAtomValue *);
PMDA_CALL extern int pmdaEventQueueRecords(int, pmAtomValue *, int, pmdaEventDecodeCallBack,
                                           void *);
PMDA_CALL extern int pmdaEventNewClient(int);
PMDA_CALL extern int pmdaEventEndClient(int);
PMDA_CALL extern int pmdaEventClients(pmAtomValue *);
PMDA_CALL extern int pmdaEventSetFilter(int, int, void *, pmdaEventApplyFilterCallBack,
                                        pmdaEventReleaseFilterCallBack);
PMDA_CALL extern int pmdaEventSetAccess(int, int, int);

PMDA_CALL extern int pmdaCacheStore(pmInDom, int, const char *, void *);
PMDA_CALL extern int pmdaCacheStoreKey(pmInDom, int, const char *, int, const void *, void *);
PMDA_CALL extern int pmdaCacheLookup(pmInDom, int, char **, void **);
PMDA_CALL extern int pmdaCacheLookupName(pmInDom, const char *, int *, void **);
PMDA_CALL extern int pmdaCacheLookupKey(pmInDom, const char *, int, const void *, char **, int *,
                                        void **);
PMDA_CALL extern int pmdaCacheOp(pmInDom, int);
PMDA_CALL extern int pmdaCachePurge(pmInDom, time_t);
PMDA_CALL extern int pmdaCachePurgeCallback(pmInDom, time_t, void (*)(void *));
PMDA_CALL extern int pmdaCacheResize(pmInDom, int);

/* Instance iteration and internals PCP's own agents call by name. */
PMDA_CALL extern int __pmdaCntInst(pmInDom, pmdaExt *);
PMDA_CALL extern void __pmdaStartInst(pmInDom, pmdaExt *);
PMDA_CALL extern int __pmdaNextInst(int *, pmdaExt *);
PMDA_CALL extern int __pmdaMainPDU(pmdaInterface *);
PMDA_CALL extern void __pmdaCacheDump(FILE *, pmInDom, int);
PMDA_CALL extern void __pmdaCacheDumpAll(FILE *, int);
/* The descriptor requests from pmcd arrive on (a daemon agent's), or -1. */
PMDA_CALL extern int __pmdaInFd(pmdaInterface *);
/* Set what pmdaGetContext answers. */
PMDA_CALL extern void __pmdaSetContext(int);
/* An event record's bytes made printable in msg (msgsize >= 4): bufsize - 1
 * of them at most, others as '.', white space as ' '; msg, or NULL. */
PMDA_CALL extern char *__pmdaEventPrint(const char *, int, char *, int);

/*
 * Privileged services from pmdaroot(1), over its unix socket (the path, or
 * $PCP_VAR_DIR/pmcd/root.socket for NULL): a container's host name, its
 * first process, its cgroup; and, for pmcd, agents started and stopped.
 * A container is a name of namelen bytes, or a process ID (name NULL,
 * the ID in namelen).  The protocol is in <pcp/pmdaroot.h>.
 */
PMDA_CALL extern int pmdaRootConnect(const char *);
PMDA_CALL extern void pmdaRootShutdown(int);
PMDA_CALL extern int pmdaRootContainerHostName(int, const char *, int, char *, int);
PMDA_CALL extern int pmdaRootContainerProcessID(int, const char *, int);
PMDA_CALL extern int pmdaRootContainerCGroupName(int, const char *, int, char *, int);
PMDA_CALL extern int pmdaRootProcessStart(int, int, const char *, int, const char *, int, int *,
                                          int *, int *);
PMDA_CALL extern int pmdaRootProcessWait(int, int, int *);
PMDA_CALL extern int pmdaRootProcessTerminate(int, int);

#ifdef __cplusplus
}
#endif

#endif /* PCP_PMDA_H */
