/*
 * pcp/pmapi.h - the Performance Metrics API, as provided by pmkit.
 *
 * Source and binary compatible with PCP 6's <pcp/pmapi.h> on Linux: the same
 * type names, struct layouts, constant values, error codes and function
 * prototypes.  Layout facts are pinned by tests/unit/test_abi_pmapi.c.
 *
 * Only the functions pmkit implements are declared here; pmkit's own
 * extensions live in <pcp/pmkit.h>, never in this file.
 *
 * Bit-fields are declared low-order field first, which is how GCC and Clang
 * allocate them on every little-endian Linux target; on a big-endian target
 * the order is reversed so the 32-bit word keeps the same numeric layout.
 */
#ifndef PCP_PMAPI_H
#define PCP_PMAPI_H

#include "platform_defs.h"
#include <dirent.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/select.h>
#include <netinet/tcp.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <netdb.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define PMKIT_BITFIELDS_HIGH_FIRST 1
#endif

/* ---------------------------------------------------------------------
 * API version selected by the including program.
 */
#define PMAPI_VERSION_2 2
#define PMAPI_VERSION_3 3
#ifndef PMAPI_VERSION
#define PMAPI_VERSION PMAPI_VERSION_2
#endif

/* ---------------------------------------------------------------------
 * Identifiers.  A pmID is domain(9 bits) cluster(12) item(10) below a
 * flag bit; a pmInDom is domain(9) serial(22) below the flag bit.
 */
typedef unsigned int pmID;
typedef unsigned int pmInDom;

#define PM_ID_NULL    0xffffffff
#define PM_INDOM_NULL 0xffffffff
#define PM_IN_NULL    0xffffffff
#define PM_NS_DEFAULT NULL

/* Domain 511 is reserved for dynamic subtree roots and derived metrics. */
#define DYNAMIC_PMID       511
#define IS_DYNAMIC_ROOT(x) (pmID_domain(x) == DYNAMIC_PMID && pmID_item(x) == 0)
#define IS_DERIVED(x)                                                                              \
    (pmID_domain(x) == DYNAMIC_PMID && (pmID_cluster(x) & 2048) == 0 && pmID_item(x) != 0)

PCP_CALL extern pmID pmID_build(unsigned int, unsigned int, unsigned int);
PCP_CALL extern unsigned int pmID_domain(pmID);
PCP_CALL extern unsigned int pmID_cluster(pmID);
PCP_CALL extern unsigned int pmID_item(pmID);
PCP_CALL extern pmInDom pmInDom_build(unsigned int, unsigned int);
PCP_CALL extern unsigned int pmInDom_domain(pmInDom);
PCP_CALL extern unsigned int pmInDom_serial(pmInDom);

/*
 * pmkit: where the compiler optimizes and knows GNU C, the seven helpers
 * above are also given inline, with GNU's extern-inline meaning: a call
 * may be replaced by the few instructions it stands for, and any call not
 * replaced (and the address of the function) still goes to the library's
 * symbol, so a program compiled here runs with either library and gets
 * the same values.  PMKIT_NO_INLINE_IDS turns them off.
 */
#if defined(__GNUC__) && defined(__OPTIMIZE__) && !defined(PMKIT_NO_INLINE_IDS)
#define PMKIT_ID_INLINE_ extern __inline__ __attribute__((__gnu_inline__, __always_inline__))
PMKIT_ID_INLINE_ pmID pmID_build(unsigned int __domain, unsigned int __cluster, unsigned int __item)
{
    return (__domain & 0x1ffu) << 22 | (__cluster & 0xfffu) << 10 | (__item & 0x3ffu);
}
PMKIT_ID_INLINE_ unsigned int pmID_domain(pmID __pmid)
{
    return (__pmid >> 22) & 0x1ffu;
}
PMKIT_ID_INLINE_ unsigned int pmID_cluster(pmID __pmid)
{
    return (__pmid >> 10) & 0xfffu;
}
PMKIT_ID_INLINE_ unsigned int pmID_item(pmID __pmid)
{
    return __pmid & 0x3ffu;
}
PMKIT_ID_INLINE_ pmInDom pmInDom_build(unsigned int __domain, unsigned int __serial)
{
    return (__domain & 0x1ffu) << 22 | (__serial & 0x3fffffu);
}
PMKIT_ID_INLINE_ unsigned int pmInDom_domain(pmInDom __indom)
{
    return (__indom >> 22) & 0x1ffu;
}
PMKIT_ID_INLINE_ unsigned int pmInDom_serial(pmInDom __indom)
{
    return __indom & 0x3fffffu;
}
#undef PMKIT_ID_INLINE_
#endif

/* ---------------------------------------------------------------------
 * Units: one 32-bit word; dimensions and count scale are signed 4-bit.
 */
typedef struct pmUnits {
#ifndef PMKIT_BITFIELDS_HIGH_FIRST
    unsigned int pad : 8;        /* zero */
    signed int scaleCount : 4;   /* power of ten (PM_COUNT_*) */
    unsigned int scaleTime : 4;  /* PM_TIME_* */
    unsigned int scaleSpace : 4; /* PM_SPACE_* */
    signed int dimCount : 4;     /* dimension in events */
    signed int dimTime : 4;      /* dimension in time */
    signed int dimSpace : 4;     /* dimension in space */
#else
    signed int dimSpace : 4;
    signed int dimTime : 4;
    signed int dimCount : 4;
    unsigned int scaleSpace : 4;
    unsigned int scaleTime : 4;
    signed int scaleCount : 4;
    unsigned int pad : 8;
#endif
} pmUnits;

#define PM_SPACE_BYTE  0
#define PM_SPACE_KBYTE 1
#define PM_SPACE_MBYTE 2
#define PM_SPACE_GBYTE 3
#define PM_SPACE_TBYTE 4
#define PM_SPACE_PBYTE 5
#define PM_SPACE_EBYTE 6
#define PM_SPACE_ZBYTE 7
#define PM_SPACE_YBYTE 8

#define PM_TIME_NSEC 0
#define PM_TIME_USEC 1
#define PM_TIME_MSEC 2
#define PM_TIME_SEC  3
#define PM_TIME_MIN  4
#define PM_TIME_HOUR 5

#define PM_COUNT_ONE 0

/* ---------------------------------------------------------------------
 * Metric descriptors.
 */
typedef struct pmDesc {
    pmID pmid;     /* metric identifier */
    int type;      /* PM_TYPE_* */
    pmInDom indom; /* instance domain or PM_INDOM_NULL */
    int sem;       /* PM_SEM_* */
    pmUnits units; /* dimensions and scales */
} pmDesc;

#define PM_TYPE_NOSUPPORT        -1
#define PM_TYPE_32               0
#define PM_TYPE_U32              1
#define PM_TYPE_64               2
#define PM_TYPE_U64              3
#define PM_TYPE_FLOAT            4
#define PM_TYPE_DOUBLE           5
#define PM_TYPE_STRING           6
#define PM_TYPE_AGGREGATE        7
#define PM_TYPE_AGGREGATE_STATIC 8
#define PM_TYPE_EVENT            9
#define PM_TYPE_HIGHRES_EVENT    10
#define PM_TYPE_UNKNOWN          255

#define PM_SEM_COUNTER  1
#define PM_SEM_INSTANT  3
#define PM_SEM_DISCRETE 4

/* ---------------------------------------------------------------------
 * Error codes: always negative; -(PM_ERR_BASE + n).  Negative values
 * above -PM_ERR_BASE are negated errno values.
 */
#define PM_ERR_BASE2 12345
#define PM_ERR_BASE  PM_ERR_BASE2

#define PM_ERR_GENERIC        (-PM_ERR_BASE - 0)
#define PM_ERR_PMNS           (-PM_ERR_BASE - 1)
#define PM_ERR_NOPMNS         (-PM_ERR_BASE - 2)
#define PM_ERR_DUPPMNS        (-PM_ERR_BASE - 3)
#define PM_ERR_TEXT           (-PM_ERR_BASE - 4)
#define PM_ERR_APPVERSION     (-PM_ERR_BASE - 5)
#define PM_ERR_VALUE          (-PM_ERR_BASE - 6)
#define PM_ERR_TIMEOUT        (-PM_ERR_BASE - 8)
#define PM_ERR_NODATA         (-PM_ERR_BASE - 9)
#define PM_ERR_RESET          (-PM_ERR_BASE - 10)
#define PM_ERR_NAME           (-PM_ERR_BASE - 12)
#define PM_ERR_PMID           (-PM_ERR_BASE - 13)
#define PM_ERR_INDOM          (-PM_ERR_BASE - 14)
#define PM_ERR_INST           (-PM_ERR_BASE - 15)
#define PM_ERR_UNIT           (-PM_ERR_BASE - 16)
#define PM_ERR_CONV           (-PM_ERR_BASE - 17)
#define PM_ERR_TRUNC          (-PM_ERR_BASE - 18)
#define PM_ERR_SIGN           (-PM_ERR_BASE - 19)
#define PM_ERR_PROFILE        (-PM_ERR_BASE - 20)
#define PM_ERR_IPC            (-PM_ERR_BASE - 21)
#define PM_ERR_EOF            (-PM_ERR_BASE - 23)
#define PM_ERR_NOTHOST        (-PM_ERR_BASE - 24)
#define PM_ERR_EOL            (-PM_ERR_BASE - 25)
#define PM_ERR_MODE           (-PM_ERR_BASE - 26)
#define PM_ERR_LABEL          (-PM_ERR_BASE - 27)
#define PM_ERR_LOGREC         (-PM_ERR_BASE - 28)
#define PM_ERR_NOTARCHIVE     (-PM_ERR_BASE - 29)
#define PM_ERR_LOGFILE        (-PM_ERR_BASE - 30)
#define PM_ERR_NOCONTEXT      (-PM_ERR_BASE - 31)
#define PM_ERR_PROFILESPEC    (-PM_ERR_BASE - 32)
#define PM_ERR_PMID_LOG       (-PM_ERR_BASE - 33)
#define PM_ERR_INDOM_LOG      (-PM_ERR_BASE - 34)
#define PM_ERR_INST_LOG       (-PM_ERR_BASE - 35)
#define PM_ERR_NOPROFILE      (-PM_ERR_BASE - 36)
#define PM_ERR_NOAGENT        (-PM_ERR_BASE - 41)
#define PM_ERR_PERMISSION     (-PM_ERR_BASE - 42)
#define PM_ERR_CONNLIMIT      (-PM_ERR_BASE - 43)
#define PM_ERR_AGAIN          (-PM_ERR_BASE - 44)
#define PM_ERR_ISCONN         (-PM_ERR_BASE - 45)
#define PM_ERR_NOTCONN        (-PM_ERR_BASE - 46)
#define PM_ERR_NEEDPORT       (-PM_ERR_BASE - 47)
#define PM_ERR_NONLEAF        (-PM_ERR_BASE - 49)
#define PM_ERR_TYPE           (-PM_ERR_BASE - 52)
#define PM_ERR_THREAD         (-PM_ERR_BASE - 53)
#define PM_ERR_NOCONTAINER    (-PM_ERR_BASE - 54)
#define PM_ERR_BADSTORE       (-PM_ERR_BASE - 55)
#define PM_ERR_LOGOVERLAP     (-PM_ERR_BASE - 56)
#define PM_ERR_LOGHOST        (-PM_ERR_BASE - 57)
#define PM_ERR_LOGCHANGETYPE  (-PM_ERR_BASE - 59)
#define PM_ERR_LOGCHANGESEM   (-PM_ERR_BASE - 60)
#define PM_ERR_LOGCHANGEINDOM (-PM_ERR_BASE - 61)
#define PM_ERR_LOGCHANGEUNITS (-PM_ERR_BASE - 62)
#define PM_ERR_NEEDCLIENTCERT (-PM_ERR_BASE - 63)
#define PM_ERR_BADDERIVE      (-PM_ERR_BASE - 64)
#define PM_ERR_NOLABELS       (-PM_ERR_BASE - 65)
#define PM_ERR_PMDAFENCED     (-PM_ERR_BASE - 66)
#define PM_ERR_RECTYPE        (-PM_ERR_BASE - 67)
#define PM_ERR_FEATURE        (-PM_ERR_BASE - 68)
#define PM_ERR_TLS            (-PM_ERR_BASE - 69)
#define PM_ERR_BOTCH          (-PM_ERR_BASE - 97)
#define PM_ERR_TOOSMALL       (-PM_ERR_BASE - 98)
#define PM_ERR_TOOBIG         (-PM_ERR_BASE - 99)
#define PM_ERR_FAULT          (-PM_ERR_BASE - 100)
#define PM_ERR_PMDAREADY      (-PM_ERR_BASE - 1048)
#define PM_ERR_PMDANOTREADY   (-PM_ERR_BASE - 1049)
#define PM_ERR_NYI            (-PM_ERR_BASE - 8999) /* last code of the PCP range */

#define PM_MAXERRMSGLEN 128

/* pmErrStr: the text of a code, in a per-thread buffer.  pmErrStr_r: the
 * same text, truncated to buflen-1 bytes, into the caller's buffer. */
PCP_CALL extern char *pmErrStr(int);
PCP_CALL extern char *pmErrStr_r(int, char *, int);

/* ---------------------------------------------------------------------
 * The namespace (PMNS).
 */
#define PMNS_LOCAL   1
#define PMNS_REMOTE  2
#define PMNS_ARCHIVE 3

#define PMNS_LEAF_STATUS    0
#define PMNS_NONLEAF_STATUS 1

PCP_CALL extern int pmLoadNameSpace(const char *);
PCP_CALL extern int pmLoadASCIINameSpace(const char *, int);
PCP_CALL extern void pmUnloadNameSpace(void);
PCP_CALL extern int pmGetPMNSLocation(void);
PCP_CALL extern int pmTrimNameSpace(void);
PCP_CALL extern int pmLookupName(int, const char **, pmID *);
PCP_CALL extern int pmGetChildren(const char *, char ***);
PCP_CALL extern int pmGetChildrenStatus(const char *, char ***, int **);
PCP_CALL extern int pmNameID(pmID, char **);
PCP_CALL extern int pmNameAll(pmID, char ***);
PCP_CALL extern int pmTraversePMNS(const char *, void (*)(const char *));
PCP_CALL extern int pmTraversePMNS_r(const char *, void (*)(const char *, void *), void *);

/* ---------------------------------------------------------------------
 * Descriptors, instance domains, help text.
 */
PCP_CALL extern int pmLookupDesc(pmID, pmDesc *);
PCP_CALL extern int pmLookupDescs(int, pmID *, pmDesc *);

PCP_CALL extern int pmLookupInDom(pmInDom, const char *);
PCP_CALL extern int pmNameInDom(pmInDom, int, char **);
PCP_CALL extern int pmGetInDom(pmInDom, int **, char ***);
/* Archive contexts only: every instance the archive ever recorded. */
PCP_CALL extern int pmLookupInDomArchive(pmInDom, const char *);
PCP_CALL extern int pmNameInDomArchive(pmInDom, int, char **);
PCP_CALL extern int pmGetInDomArchive(pmInDom, int **, char ***);

#define PM_TEXT_ONELINE 1
#define PM_TEXT_HELP    2
#define PM_TEXT_PMID    4
#define PM_TEXT_INDOM   8
#define PM_TEXT_DIRECT  16

PCP_CALL extern int pmLookupText(pmID, int, char **);
PCP_CALL extern int pmLookupInDomText(pmInDom, int, char **);

/* ---------------------------------------------------------------------
 * Contexts.
 */
#define PM_CONTEXT_UNDEF    -1
#define PM_CONTEXT_HOST     1
#define PM_CONTEXT_ARCHIVE  2
#define PM_CONTEXT_LOCAL    3
#define PM_CONTEXT_TYPEMASK 0xff

#define PM_CTXFLAG_SHALLOW          (1U << 8) /* deprecated, ignored */
#define PM_CTXFLAG_EXCLUSIVE        (1U << 9) /* deprecated, ignored */
#define PM_CTXFLAG_SECURE           (1U << 10)
#define PM_CTXFLAG_COMPRESS         (1U << 11)
#define PM_CTXFLAG_RELAXED          (1U << 12)
#define PM_CTXFLAG_AUTH             (1U << 13)
#define PM_CTXFLAG_CONTAINER        (1U << 14)
#define PM_CTXFLAG_NO_FEATURE_CHECK (1U << 15)

PCP_CALL extern int pmNewContext(int, const char *);
PCP_CALL extern int pmWhichContext(void);
PCP_CALL extern int pmUseContext(int);
PCP_CALL extern int pmDupContext(void);
PCP_CALL extern int pmDestroyContext(int);
PCP_CALL extern int pmReconnectContext(int);
PCP_CALL extern const char *pmGetContextHostName(int);
PCP_CALL extern char *pmGetContextHostName_r(int, char *, int);
PCP_CALL extern int pmGetHostName(int, char *, int);

/* ---------------------------------------------------------------------
 * Instance profiles.
 */
#define PM_PROFILE_INCLUDE 0 /* everything but the listed instances */
#define PM_PROFILE_EXCLUDE 1 /* only the listed instances */

typedef struct pmInDomProfile {
    pmInDom indom;     /* instance domain */
    int state;         /* PM_PROFILE_INCLUDE or PM_PROFILE_EXCLUDE */
    int instances_len; /* entries in instances[] */
    int *instances;    /* the exceptions to state */
} pmInDomProfile;

typedef struct pmProfile {
    int state;               /* state for instance domains not listed */
    int profile_len;         /* entries in profile[] */
    pmInDomProfile *profile; /* per instance domain entries */
} pmProfile;

PCP_CALL extern int pmAddProfile(pmInDom, int, int *);
PCP_CALL extern int pmDelProfile(pmInDom, int, int *);

typedef struct pmInResult {
    pmInDom indom;   /* instance domain */
    int numinst;     /* entries below, may be 0 */
    int *instlist;   /* instance identifiers, or NULL */
    char **namelist; /* instance names, or NULL */
} pmInResult;

/* ---------------------------------------------------------------------
 * Values and results.
 */
typedef struct pmValueBlock {
#ifndef PMKIT_BITFIELDS_HIGH_FIRST
    unsigned int vlen : 24; /* bytes in the header plus vbuf */
    unsigned int vtype : 8; /* PM_TYPE_* of the payload */
#else
    unsigned int vtype : 8;
    unsigned int vlen : 24;
#endif
    char vbuf[1]; /* the payload */
} pmValueBlock;

#define PM_VAL_HDR_SIZE 4
#define PM_VAL_VLEN_MAX 0x00ffffff

typedef struct pmValue {
    int inst; /* instance identifier, PM_IN_NULL for singular metrics */
    union {
        pmValueBlock *pval; /* PM_VAL_DPTR / PM_VAL_SPTR */
        int lval;           /* PM_VAL_INSITU */
    } value;
} pmValue;

#define PM_VAL_INSITU 0 /* value.lval holds a 32-bit value */
#define PM_VAL_DPTR   1 /* value.pval is malloc'd, freed with the result */
#define PM_VAL_SPTR   2 /* value.pval is static, never freed */

typedef struct pmValueSet {
    pmID pmid;        /* metric identifier */
    int numval;       /* values in vlist, 0 for none, < 0 an error code */
    int valfmt;       /* PM_VAL_* */
    pmValue vlist[1]; /* numval entries */
} pmValueSet;

typedef struct pmResult {
    struct timeval timestamp; /* when the values were collected */
    int numpmid;              /* entries in vset */
    pmValueSet *vset[1];      /* one value set per requested pmID */
} pmResult;

typedef struct pmHighResResult {
    struct timespec timestamp; /* when the values were collected */
    int numpmid;               /* entries in vset */
    pmValueSet *vset[1];       /* one value set per requested pmID */
} pmHighResResult;

typedef union {
    int32_t l;         /* PM_TYPE_32 */
    uint32_t ul;       /* PM_TYPE_U32 */
    int64_t ll;        /* PM_TYPE_64 */
    uint64_t ull;      /* PM_TYPE_U64 */
    float f;           /* PM_TYPE_FLOAT */
    double d;          /* PM_TYPE_DOUBLE */
    char *cp;          /* PM_TYPE_STRING */
    pmValueBlock *vbp; /* aggregates and events */
} pmAtomValue;

/* Bits a fetch may return when the metrics source changed state. */
#define PMCD_NO_CHANGE     0
#define PMCD_ADD_AGENT     (1 << 0)
#define PMCD_RESTART_AGENT (1 << 1)
#define PMCD_DROP_AGENT    (1 << 2)
#define PMCD_AGENT_CHANGE  (PMCD_ADD_AGENT | PMCD_RESTART_AGENT | PMCD_DROP_AGENT)
#define PMCD_LABEL_CHANGE  (1 << 3)
#define PMCD_NAMES_CHANGE  (1 << 4)

PCP_CALL extern int pmFetch(int, pmID *, pmResult **);
PCP_CALL extern int pmFetchHighRes(int, pmID *, pmHighResResult **);
PCP_CALL extern int pmHighResFetch(int, pmID *, pmHighResResult **);
PCP_CALL extern void pmFreeResult(pmResult *);
PCP_CALL extern void pmFreeHighResResult(pmHighResResult *);
PCP_CALL extern void pmSortInstances(pmResult *);
PCP_CALL extern void pmSortHighResInstances(pmHighResResult *);
PCP_CALL extern int pmStore(const pmResult *);
PCP_CALL extern int pmStoreHighRes(const pmHighResResult *);

#define PM_MODE_LIVE   0
#define PM_MODE_INTERP 1
#define PM_MODE_FORW   2
#define PM_MODE_BACK   3
/* Extended time base of pmSetMode's delta (archive modes). */
#define PM_XTB_FLAG    0x1000000
#define PM_XTB_SET(m)  (PM_XTB_FLAG | ((m) << 16))
#define PM_XTB_GET(m)  (((m)&PM_XTB_FLAG) ? (((m)&0xff0000) >> 16) : -1)

/* The collection time and direction of an archive context (live ones
 * take PM_MODE_LIVE only). */
PCP_CALL extern int pmSetMode(int, const struct timeval *, int);
PCP_CALL extern int pmSetModeHighRes(int, const struct timespec *, const struct timespec *);

/* ---------------------------------------------------------------------
 * Archives: the label of an archive context and where it ends, and its
 * records one by one (LOGARCHIVE(5)).
 */
#define PM_LOG_MAGIC       0x50052600
#define PM_LOG_VERS02      0x2
#define PM_LOG_VERS03      0x3
#define PM_LOG_VOL_TI      -2 /* the temporal index */
#define PM_LOG_VOL_META    -1 /* the metadata */
#define PM_LOG_MAXHOSTLEN  64 /* version 2 labels */
#define PM_TZ_MAXLEN       40 /* version 2 labels */
#define PM_MAX_HOSTNAMELEN 256
#define PM_MAX_TIMEZONELEN 256
#define PM_MAX_ZONEINFOLEN 256

/* Feature bits of version 3 archives; others make an archive unreadable
 * unless PM_CTXFLAG_NO_FEATURE_CHECK is given. */
#define PM_LOG_FEATURE_NONE 0
#define PM_LOG_FEATURE_QA   (1U << 31)
#define PM_LOG_FEATURES     (PM_LOG_FEATURE_NONE | PM_LOG_FEATURE_QA)

typedef struct pmLogLabel {
    int ll_magic;                        /* PM_LOG_MAGIC | the format version */
    pid_t ll_pid;                        /* the logger's process */
    struct timeval ll_start;             /* when the archive starts */
    char ll_hostname[PM_LOG_MAXHOSTLEN]; /* the host the metrics came from */
    char ll_tz[PM_TZ_MAXLEN];            /* $TZ at that host */
} pmLogLabel;

typedef struct pmHighResLogLabel {
    int magic;                         /* PM_LOG_MAGIC | the format version */
    pid_t pid;                         /* the logger's process */
    struct timespec start;             /* when the archive starts */
    char hostname[PM_MAX_HOSTNAMELEN]; /* the host the metrics came from */
    char timezone[PM_MAX_TIMEZONELEN]; /* $TZ at that host */
    char zoneinfo[PM_MAX_ZONEINFOLEN]; /* its zone information, ":Area/City" */
} pmHighResLogLabel;

PCP_CALL extern int pmGetArchiveLabel(pmLogLabel *);
PCP_CALL extern int pmGetHighResArchiveLabel(pmHighResLogLabel *);
PCP_CALL extern int pmGetArchiveEnd(struct timeval *);
PCP_CALL extern int pmGetHighResArchiveEnd(struct timespec *);
PCP_CALL extern int pmFetchArchive(pmResult **);
PCP_CALL extern int pmFetchHighResArchive(pmHighResResult **);

/* ---------------------------------------------------------------------
 * Labels: name:value pairs attached to metrics, instance domains and
 * instances (pmLookupLabels(3)).
 */
typedef struct pmLabel {
    unsigned int name : 16;     /* offset of the name in the JSON string */
    unsigned int namelen : 8;   /* length of the name */
    unsigned int flags : 8;     /* PM_LABEL_* class and flags */
    unsigned int value : 16;    /* offset of the value in the JSON string */
    unsigned int valuelen : 16; /* length of the value */
} pmLabel;

#define PM_LABEL_CONTEXT   (1 << 0)
#define PM_LABEL_DOMAIN    (1 << 1)
#define PM_LABEL_INDOM     (1 << 2)
#define PM_LABEL_CLUSTER   (1 << 3)
#define PM_LABEL_ITEM      (1 << 4)
#define PM_LABEL_INSTANCES (1 << 5)
#define PM_LABEL_COMPOUND  (1 << 6)
#define PM_LABEL_OPTIONAL  (1 << 7)

#define PM_MAXLABELS       ((1 << 8) - 1)
#define PM_MAXLABELJSONLEN ((1 << 16) - 1)

typedef struct pmLabelSet {
    unsigned int inst;         /* instance, or PM_IN_NULL */
    int nlabels;               /* labels in labels[], or an error code */
    char *json;                /* the labels as one JSON object */
    unsigned int jsonlen : 16; /* length of json */
    unsigned int padding : 15; /* zero */
    unsigned int compound : 1; /* some names have several components */
    pmLabel *labels;           /* index into json */
    void *hash;                /* private */
} pmLabelSet;

PCP_CALL extern void pmFreeLabelSets(pmLabelSet *, int);

/* One level of the hierarchy each: the number of sets, or an error. */
PCP_CALL extern int pmGetContextLabels(pmLabelSet **);
PCP_CALL extern int pmGetDomainLabels(int, pmLabelSet **);
PCP_CALL extern int pmGetInDomLabels(pmInDom, pmLabelSet **);
PCP_CALL extern int pmGetClusterLabels(pmID, pmLabelSet **);
PCP_CALL extern int pmGetItemLabels(pmID, pmLabelSet **);
PCP_CALL extern int pmGetInstancesLabels(pmInDom, pmLabelSet **);
/* Every level of one metric but its instances, lowest precedence first. */
PCP_CALL extern int pmLookupLabels(pmID, pmLabelSet **);
/* Merge label objects (later ones win) into one, as text in the buffer. */
PCP_CALL extern int pmMergeLabels(char **, int, char *, int);
PCP_CALL extern int pmMergeLabelSets(pmLabelSet **, int, char *, int,
                                     int (*)(const pmLabel *, const char *, void *), void *);
/* Label sets for debugging, as PCP prints them. */
PCP_CALL extern void pmPrintLabelSets(FILE *, int, int, pmLabelSet *, int);

/* ---------------------------------------------------------------------
 * Time stamps in fixed-width form and event records.
 */
typedef struct pmTimeval {
    int32_t tv_sec;  /* seconds since the epoch */
    int32_t tv_usec; /* microseconds */
} pmTimeval;

typedef struct pmTimespec {
    int64_t tv_sec;  /* seconds since the epoch */
    int64_t tv_nsec; /* nanoseconds */
} pmTimespec;

typedef struct pmEventParameter {
    pmID ep_pmid; /* parameter metric */
#ifndef PMKIT_BITFIELDS_HIGH_FIRST
    unsigned int ep_len : 24;
    unsigned int ep_type : 8;
#else
    unsigned int ep_type : 8;
    unsigned int ep_len : 24;
#endif
} pmEventParameter;

typedef struct pmEventRecord {
    pmTimeval er_timestamp;
    unsigned int er_flags;
    int er_nparams;
    pmEventParameter er_param[1];
} pmEventRecord;

typedef struct pmHighResEventRecord {
    pmTimespec er_timestamp;
    unsigned int er_flags;
    int er_nparams;
    pmEventParameter er_param[1];
} pmHighResEventRecord;

#define PM_EVENT_FLAG_POINT  (1U << 0)
#define PM_EVENT_FLAG_START  (1U << 1)
#define PM_EVENT_FLAG_END    (1U << 2)
#define PM_EVENT_FLAG_ID     (1U << 3)
#define PM_EVENT_FLAG_PARENT (1U << 4)
#define PM_EVENT_FLAG_MISSED (1U << 31)

typedef struct pmEventArray {
#ifndef PMKIT_BITFIELDS_HIGH_FIRST
    unsigned int ea_len : 24;
    unsigned int ea_type : 8;
#else
    unsigned int ea_type : 8;
    unsigned int ea_len : 24;
#endif
    int ea_nrecords;
    pmEventRecord ea_record[1];
} pmEventArray;

typedef struct pmHighResEventArray {
#ifndef PMKIT_BITFIELDS_HIGH_FIRST
    unsigned int ea_len : 24;
    unsigned int ea_type : 8;
#else
    unsigned int ea_type : 8;
    unsigned int ea_len : 24;
#endif
    int ea_nrecords;
    pmHighResEventRecord ea_record[1];
} pmHighResEventArray;

/* Event records unpacked, one result per record (NULL-terminated list),
 * and freed. */
PCP_CALL extern int pmUnpackEventRecords(pmValueSet *, int, pmResult ***);
PCP_CALL extern void pmFreeEventResult(pmResult **);
PCP_CALL extern int pmUnpackHighResEventRecords(pmValueSet *, int, pmHighResResult ***);
PCP_CALL extern void pmFreeHighResEventResult(pmHighResResult **);

/* ---------------------------------------------------------------------
 * Value extraction, scaling and printing.
 */
PCP_CALL extern int pmExtractValue(int, const pmValue *, int, pmAtomValue *, int);
PCP_CALL extern int pmConvScale(int, const pmAtomValue *, const pmUnits *, pmAtomValue *,
                                const pmUnits *);
PCP_CALL extern void pmPrintValue(FILE *, int, int, const pmValue *, int);
PCP_CALL extern void pmPrintDesc(FILE *, const pmDesc *);

/* Text forms.  The plain versions return a per-thread buffer that the next
 * call of the same function overwrites; the _r versions fill the caller's. */
PCP_CALL extern const char *pmIDStr(pmID);
PCP_CALL extern char *pmIDStr_r(pmID, char *, int);
PCP_CALL extern const char *pmInDomStr(pmInDom);
PCP_CALL extern char *pmInDomStr_r(pmInDom, char *, int);
PCP_CALL extern const char *pmTypeStr(int);
PCP_CALL extern char *pmTypeStr_r(int, char *, int);
PCP_CALL extern const char *pmSemStr(int);
PCP_CALL extern char *pmSemStr_r(int, char *, int);
PCP_CALL extern const char *pmUnitsStr(const pmUnits *);
PCP_CALL extern char *pmUnitsStr_r(const pmUnits *, char *, int);
PCP_CALL extern const char *pmAtomStr(const pmAtomValue *, int);
PCP_CALL extern char *pmAtomStr_r(const pmAtomValue *, int, char *, int);
PCP_CALL extern const char *pmNumberStr(double);
PCP_CALL extern char *pmNumberStr_r(double, char *, int);
PCP_CALL extern const char *pmEventFlagsStr(int);
PCP_CALL extern char *pmEventFlagsStr_r(int, char *, int);

/* Units and scale from text ("Kbyte / sec", "count x 10^3"): 0, or an
 * error with a malloc'd message in the last argument. */
PCP_CALL extern int pmParseUnitsStr(const char *, pmUnits *, double *, char **);

/* ---------------------------------------------------------------------
 * Fetch groups: metrics registered with where their converted values go,
 * then fetched and stored in one call, over a context of the group's own.
 */
typedef struct __pmFetchGroup *pmFG; /* opaque */
PCP_CALL extern int pmCreateFetchGroup(pmFG *, int, const char *);
PCP_CALL extern int pmGetFetchGroupContext(pmFG);
PCP_CALL extern int pmExtendFetchGroup_item(pmFG, const char *, const char *, const char *,
                                            pmAtomValue *, int, int *);
PCP_CALL extern int pmExtendFetchGroup_indom(pmFG, const char *, const char *, int[], char *[],
                                             pmAtomValue[], int, int[], unsigned int,
                                             unsigned int *, int *);
PCP_CALL extern int pmExtendFetchGroup_event(pmFG, const char *, const char *, const char *,
                                             const char *, struct timespec[], pmAtomValue[], int,
                                             int[], unsigned int, unsigned int *, int *);
PCP_CALL extern int pmExtendFetchGroup_timestamp(pmFG, struct timeval *);
PCP_CALL extern int pmExtendFetchGroup_timeval(pmFG, struct timeval *);
PCP_CALL extern int pmExtendFetchGroup_timespec(pmFG, struct timespec *);
PCP_CALL extern int pmFetchGroup(pmFG);
PCP_CALL extern int pmClearFetchGroup(pmFG);
PCP_CALL extern int pmDestroyFetchGroup(pmFG);

/* ---------------------------------------------------------------------
 * Formatted output and strings.
 */
#ifdef __GNUC__
#define __PM_PRINTFLIKE(idx, cnt) __attribute__((format(printf, idx, cnt)))
#else
#define __PM_PRINTFLIKE(idx, cnt)
#endif

PCP_CALL extern int pmprintf(const char *, ...) __PM_PRINTFLIKE(1, 2);
PCP_CALL extern int pmflush(void);
PCP_CALL extern int pmsprintf(char *, size_t, const char *, ...) __PM_PRINTFLIKE(3, 4);
PCP_CALL extern size_t pmstrlen(const char *);
PCP_CALL extern int pmstrncpy(char *, size_t, const char *);
PCP_CALL extern int pmstrncat(char *, size_t, const char *);
PCP_CALL extern ssize_t pmfstring(FILE *, char **);

/* ---------------------------------------------------------------------
 * Configuration, process identity, logging.
 */
PCP_CALL extern char *pmGetConfig(const char *);
PCP_CALL extern char *pmGetOptionalConfig(const char *);
/* A library feature ("multi_threaded", ...) as a static string, or NULL. */
PCP_CALL extern const char *pmGetAPIConfig(const char *);
PCP_CALL extern int pmGetVersion(void);

/* The services pmDiscoverServices and the servers name. */
#define PM_SERVER_SERVICE_SPEC "pmcd"
#define PM_SERVER_PROXY_SPEC   "pmproxy"
#define PM_SERVER_WEBAPI_SPEC  "pmwebapi"

PCP_CALL extern void pmSetProgname(const char *);
PCP_CALL extern char *pmGetProgname(void);
PCP_CALL extern int pmPathSeparator(void);
PCP_CALL extern int pmGetUsername(char **);
PCP_CALL extern int pmSetProcessIdentity(const char *);

#define PM_FATAL_ERR 1
#define PM_RECOV_ERR 0

PCP_CALL extern FILE *pmOpenLog(const char *, const char *, FILE *, int *);
PCP_CALL extern void pmNoMem(const char *, size_t, int);
PCP_CALL extern void pmNotifyErr(int, const char *, ...) __PM_PRINTFLIKE(2, 3);
PCP_CALL extern void pmSyslog(int);

PCP_CALL extern char *pmSpecLocalPMDA(const char *);

/* ---------------------------------------------------------------------
 * Derived metrics: names defined by expressions over other metrics
 * (pmRegisterDerived(3)); global ones, and the current context's own.
 */
PCP_CALL extern int pmLoadDerivedConfig(const char *);
PCP_CALL extern int pmRegisterDerivedMetric(const char *, const char *, char **);
PCP_CALL extern char *pmRegisterDerived(const char *, const char *);
PCP_CALL extern char *pmDerivedErrStr(void);
PCP_CALL extern int pmAddDerivedMetric(const char *, const char *, char **);
PCP_CALL extern char *pmAddDerived(const char *, const char *);
PCP_CALL extern int pmGetDerivedControl(int, int *);
PCP_CALL extern int pmSetDerivedControl(int, int);

/* What pmGetDerivedControl and pmSetDerivedControl get and set. */
#define PCP_DERIVED_GLOBAL_LIMIT    1
#define PCP_DERIVED_CONTEXT_LIMIT   2
#define PCP_DERIVED_DEBUG_SYNTAX    3
#define PCP_DERIVED_DEBUG_SEMANTICS 4
#define PCP_DERIVED_DEBUG_EVAL      5

/* ---------------------------------------------------------------------
 * Time intervals ("1min 30sec"); *errmsg is malloc'd on error.
 */
PCP_CALL extern int pmParseInterval(const char *, struct timeval *, char **);
PCP_CALL extern int pmParseHighResInterval(const char *, struct timespec *, char **);

/* The -S, -T, -A and -O arguments (NULL when absent) against a log's first
 * and last times: the window's start, end and origin.  1, or 0 when the
 * alignment was dropped (*errmsg a warning), or -1 (*errmsg an error). */
PCP_CALL extern int pmParseTimeWindow(const char *, const char *, const char *, const char *,
                                      const struct timeval *, const struct timeval *,
                                      struct timeval *, struct timeval *, struct timeval *,
                                      char **);
PCP_CALL extern int pmParseHighResTimeWindow(const char *, const char *, const char *, const char *,
                                             const struct timespec *, const struct timespec *,
                                             struct timespec *, struct timespec *,
                                             struct timespec *, char **);

/* The end of a live "log": no end at all. */
#define PM_MAX_TIME_T LONGLONG_MAX

/* "host:metric[inst,...]", "archive/metric[...]" or "metric[...]" parsed
 * into one malloc'd block (pmFreeMetricSpec, or free, releases it all). */
typedef struct pmMetricSpec {
    int isarch;    /* 0 a host, 1 an archive, 2 the local context */
    char *source;  /* the host or archive, or the caller's default */
    char *metric;  /* the metric's name */
    int ninst;     /* instances named; 0 for all of them */
    char *inst[1]; /* the instances' names (ninst of them) */
} pmMetricSpec;

PCP_CALL extern int pmParseMetricSpec(const char *, int, char *, pmMetricSpec **, char **);
PCP_CALL extern void pmFreeMetricSpec(pmMetricSpec *);

/* ---------------------------------------------------------------------
 * Time arithmetic, and reporting timezones for pmCtime / pmLocaltime.
 */
PCP_CALL extern void pmtimevalNow(struct timeval *);
PCP_CALL extern void pmtimevalInc(struct timeval *, const struct timeval *);
PCP_CALL extern void pmtimevalDec(struct timeval *, const struct timeval *);
PCP_CALL extern double pmtimevalAdd(const struct timeval *, const struct timeval *);
PCP_CALL extern double pmtimevalSub(const struct timeval *, const struct timeval *);
PCP_CALL extern double pmtimevalToReal(const struct timeval *);
PCP_CALL extern void pmtimevalFromReal(double, struct timeval *);

PCP_CALL extern int pmtimespecNow(struct timespec *);
PCP_CALL extern void pmtimespecInc(struct timespec *, const struct timespec *);
PCP_CALL extern void pmtimespecDec(struct timespec *, const struct timespec *);
PCP_CALL extern double pmtimespecAdd(const struct timespec *, const struct timespec *);
PCP_CALL extern double pmtimespecSub(const struct timespec *, const struct timespec *);
PCP_CALL extern double pmtimespecToReal(const struct timespec *);
PCP_CALL extern void pmtimespecFromReal(double, struct timespec *);

PCP_CALL extern int pmUseZone(const int);
PCP_CALL extern int pmNewZone(const char *);
PCP_CALL extern int pmNewContextZone(void);
PCP_CALL extern int pmWhichZone(char **);
PCP_CALL extern char *pmCtime(const time_t *, char *);
PCP_CALL extern struct tm *pmLocaltime(const time_t *, struct tm *);
PCP_CALL extern void pmPrintStamp(FILE *, const struct timeval *);
PCP_CALL extern void pmPrintHighResStamp(FILE *, const struct timespec *);

/* ---------------------------------------------------------------------
 * Command line options, shared by PCP tools and agents.
 */
#define PMAPI_OPTIONS "A:a:D:gh:n:O:p:S:s:T:t:VZ:z?"
#define PMAPI_OPTIONS_HEADER(s)                                                                    \
    {                                                                                              \
        "", 0, '-', 0, (s)                                                                         \
    }
#define PMAPI_OPTIONS_TEXT(s)                                                                      \
    {                                                                                              \
        "", 0, '|', 0, (s)                                                                         \
    }
#define PMAPI_OPTIONS_END                                                                          \
    {                                                                                              \
        NULL, 0, 0, 0, NULL                                                                        \
    }

#define PMLONGOPT_ALIGN         "align"
#define PMLONGOPT_ARCHIVE       "archive"
#define PMLONGOPT_DEBUG         "debug"
#define PMLONGOPT_GUIMODE       "guimode"
#define PMLONGOPT_HOST          "host"
#define PMLONGOPT_HOSTSFILE     "hostsfile"
#define PMLONGOPT_SPECLOCAL     "spec-local"
#define PMLONGOPT_LOCALPMDA     "local-PMDA"
#define PMLONGOPT_NAMESPACE     "namespace"
#define PMLONGOPT_UNIQNAMES     "uniqnames"
#define PMLONGOPT_ORIGIN        "origin"
#define PMLONGOPT_GUIPORT       "guiport"
#define PMLONGOPT_START         "start"
#define PMLONGOPT_SAMPLES       "samples"
#define PMLONGOPT_FINISH        "finish"
#define PMLONGOPT_INTERVAL      "interval"
#define PMLONGOPT_VERSION       "version"
#define PMLONGOPT_TIMEZONE      "timezone"
#define PMLONGOPT_HOSTZONE      "hostzone"
#define PMLONGOPT_HELP          "help"
#define PMLONGOPT_ARCHIVE_LIST  "archive-list"
#define PMLONGOPT_ARCHIVE_FOLIO "archive-folio"
#define PMLONGOPT_HOST_LIST     "host-list"
#define PMLONGOPT_CONTAINER     "container"
#define PMLONGOPT_DERIVED       "derived"

#define PMOPT_ALIGN                                                                                \
    {                                                                                              \
        PMLONGOPT_ALIGN, 1, 'A', "TIME", "align sample times on natural boundaries"                \
    }
#define PMOPT_ARCHIVE                                                                              \
    {                                                                                              \
        PMLONGOPT_ARCHIVE, 1, 'a', "FILE", "metrics source is a PCP log archive"                   \
    }
#define PMOPT_DEBUG                                                                                \
    {                                                                                              \
        PMLONGOPT_DEBUG, 1, 'D', "DBG", NULL                                                       \
    }
#define PMOPT_GUIMODE                                                                              \
    {                                                                                              \
        PMLONGOPT_GUIMODE, 0, 'g', 0, "start in GUI mode with new time control"                    \
    }
#define PMOPT_HOST                                                                                 \
    {                                                                                              \
        PMLONGOPT_HOST, 1, 'h', "HOST", "metrics source is PMCD on host"                           \
    }
#define PMOPT_HOSTSFILE                                                                            \
    {                                                                                              \
        PMLONGOPT_HOSTSFILE, 1, 'H', "FILE", "read metric source hosts from a file"                \
    }
#define PMOPT_SPECLOCAL                                                                            \
    {                                                                                              \
        PMLONGOPT_SPECLOCAL, 1, 'K', "SPEC", "optional additional PMDA spec for local connection"  \
    }
#define PMOPT_LOCALPMDA                                                                            \
    {                                                                                              \
        PMLONGOPT_LOCALPMDA, 0, 'L', 0, "metrics source is local connection to a PMDA"             \
    }
#define PMOPT_NAMESPACE                                                                            \
    {                                                                                              \
        PMLONGOPT_NAMESPACE, 1, 'n', "FILE", "use an alternative PMNS"                             \
    }
#define PMOPT_UNIQNAMES                                                                            \
    {                                                                                              \
        PMLONGOPT_UNIQNAMES, 1, 'N', "FILE", "like -n but only one name allowed for each PMID"     \
    }
#define PMOPT_ORIGIN                                                                               \
    {                                                                                              \
        PMLONGOPT_ORIGIN, 1, 'O', "TIME", "initial sample time within the time window"             \
    }
#define PMOPT_GUIPORT                                                                              \
    {                                                                                              \
        PMLONGOPT_GUIPORT, 1, 'p', "N", "port for connection to existing time control"             \
    }
#define PMOPT_START                                                                                \
    {                                                                                              \
        PMLONGOPT_START, 1, 'S', "TIME", "start of the time window"                                \
    }
#define PMOPT_SAMPLES                                                                              \
    {                                                                                              \
        PMLONGOPT_SAMPLES, 1, 's', "N", "terminate after this many samples"                        \
    }
#define PMOPT_FINISH                                                                               \
    {                                                                                              \
        PMLONGOPT_FINISH, 1, 'T', "TIME", "end of the time window"                                 \
    }
#define PMOPT_INTERVAL                                                                             \
    {                                                                                              \
        PMLONGOPT_INTERVAL, 1, 't', "DELTA", "sampling interval"                                   \
    }
#define PMOPT_VERSION                                                                              \
    {                                                                                              \
        PMLONGOPT_VERSION, 0, 'V', 0, "display version number and exit"                            \
    }
#define PMOPT_TIMEZONE                                                                             \
    {                                                                                              \
        PMLONGOPT_TIMEZONE, 1, 'Z', "TZ", "set reporting timezone"                                 \
    }
#define PMOPT_HOSTZONE                                                                             \
    {                                                                                              \
        PMLONGOPT_HOSTZONE, 0, 'z', 0, "set reporting timezone to local time of metrics source"    \
    }
#define PMOPT_HELP                                                                                 \
    {                                                                                              \
        PMLONGOPT_HELP, 0, '?', 0, "show this usage message and exit"                              \
    }
#define PMOPT_ARCHIVE_LIST                                                                         \
    {                                                                                              \
        PMLONGOPT_ARCHIVE_LIST, 1, 0, "FILES", "comma-separated list of metric source archives"    \
    }
#define PMOPT_ARCHIVE_FOLIO                                                                        \
    {                                                                                              \
        PMLONGOPT_ARCHIVE_FOLIO, 1, 0, "FILE", "read metric source archives from a folio"          \
    }
#define PMOPT_HOST_LIST                                                                            \
    {                                                                                              \
        PMLONGOPT_HOST_LIST, 1, 0, "HOSTS", "comma-separated list of metric source hosts"          \
    }
#define PMOPT_CONTAINER                                                                            \
    {                                                                                              \
        PMLONGOPT_CONTAINER, 1, 0, "NAME", "specify an individual container to be queried"         \
    }
#define PMOPT_DERIVED                                                                              \
    {                                                                                              \
        PMLONGOPT_DERIVED, 1, 0, "FILE", "load derived metric definitions from FILE(s)"            \
    }

#define PMAPI_GENERAL_OPTIONS                                                                      \
    PMAPI_OPTIONS_HEADER("General options"), PMOPT_ALIGN, PMOPT_ARCHIVE, PMOPT_DEBUG,              \
        PMOPT_GUIMODE, PMOPT_HOST, PMOPT_NAMESPACE, PMOPT_ORIGIN, PMOPT_GUIPORT, PMOPT_START,      \
        PMOPT_SAMPLES, PMOPT_FINISH, PMOPT_INTERVAL, PMOPT_TIMEZONE, PMOPT_HOSTZONE,               \
        PMOPT_VERSION, PMOPT_HELP

#define PM_OPTFLAG_INIT        (1 << 0)
#define PM_OPTFLAG_DONE        (1 << 1)
#define PM_OPTFLAG_MULTI       (1 << 2)
#define PM_OPTFLAG_USAGE_ERR   (1 << 3)
#define PM_OPTFLAG_RUNTIME_ERR (1 << 4)
#define PM_OPTFLAG_EXIT        (1 << 5)
#define PM_OPTFLAG_POSIX       (1 << 6)
#define PM_OPTFLAG_MIXED       (1 << 7)
#define PM_OPTFLAG_ENV_ONLY    (1 << 8)
#define PM_OPTFLAG_LONG_ONLY   (1 << 9)
#define PM_OPTFLAG_BOUNDARIES  (1 << 10)
#define PM_OPTFLAG_STDOUT_TZ   (1 << 11)
#define PM_OPTFLAG_NOFLUSH     (1 << 12)
#define PM_OPTFLAG_QUIET       (1 << 13)

struct pmOptions;
typedef int (*pmOptionOverride)(int, struct pmOptions *);

typedef struct pmLongOptions {
    const char *long_opt; /* "name" for --name, "" for header/text rows */
    int has_arg;          /* 0 none, 1 required, 2 optional */
    int short_opt;        /* letter, or '-' header / '|' text row */
    const char *argname;  /* argument name shown in usage */
    const char *message;  /* usage text */
} pmLongOptions;

typedef struct pmOptions {
    int version;                 /* structure version, 0 */
    int flags;                   /* PM_OPTFLAG_* */
    const char *short_options;   /* getopt-style letters */
    pmLongOptions *long_options; /* table, ended by PMAPI_OPTIONS_END */
    const char *short_usage;     /* "[options] ..." */
    pmOptionOverride override;   /* claims options before the defaults */
    int index;                   /* long option index of the last match */
    int optind;                  /* as getopt */
    int opterr;                  /* as getopt */
    int optopt;                  /* as getopt */
    char *optarg;                /* as getopt */
    /* scanner state private to pmgetopt_r */
    int __initialized;
    char *__nextchar;
    int __ordering;
    int __posixly_correct;
    int __first_nonopt;
    int __last_nonopt;
    int errors;      /* usage errors seen */
    int context;     /* PM_CONTEXT_* chosen by -a/-h/-L */
    int nhosts;      /* entries in hosts */
    int narchives;   /* entries in archives */
    char **hosts;    /* -h arguments */
    char **archives; /* -a arguments */
#if PMAPI_VERSION == PMAPI_VERSION_3
    struct timeval unused[4];
#else
    struct timeval start;
    struct timeval finish;
    struct timeval origin;
    struct timeval interval;
#endif
    char *align_optarg;
    char *start_optarg;
    char *finish_optarg;
    char *origin_optarg;
    char *guiport_optarg;
    char *timezone;
    int samples;
    int guiport;
    int padding;
    unsigned int guiflag : 1;
    unsigned int tzflag : 1;
    unsigned int nsflag : 1;
    unsigned int Lflag : 1;
    unsigned int zeroes : 28;
#if PMAPI_VERSION == PMAPI_VERSION_3
    struct timespec start;
    struct timespec finish;
    struct timespec origin;
    struct timespec interval;
#endif
} pmOptions;

PCP_CALL extern int pmgetopt_r(int, char *const *, pmOptions *);
PCP_CALL extern int pmGetOptions(int, char *const *, pmOptions *);
PCP_CALL extern int pmGetContextOptions(int, pmOptions *);
PCP_CALL extern void pmUsageMessage(pmOptions *);
PCP_CALL extern void pmFreeOptions(pmOptions *);

/* ---------------------------------------------------------------------
 * Diagnostics.  pmkit accepts every PCP debug option name; the flags are
 * exported so agents that test them compile and link.
 */
typedef struct {
    int pdu, fetch, profile, value, context, indom, pdubuf, log, logmeta, optfetch, af;
    int appl0, appl1, appl2, pmns, libpmda, timecontrol, pmc, derive, lock, interp;
    int config, pmapi, fault, auth, discovery, attr, http, desperate, deprecated, exec;
    int labels, series, libweb, alloc, services, appl3, appl4, appl5, access, qa;
    int search, query, compress, dev0, dev1, dev2, pmlc, appl6, appl7, appl8, appl9;
    int tls;
} pmdebugoptions_t;

PCP_DATA extern pmdebugoptions_t pmDebugOptions;
PCP_CALL extern int pmSetDebug(const char *);
PCP_CALL extern int pmClearDebug(const char *);

#ifdef __cplusplus
}
#endif

#endif /* PCP_PMAPI_H */
