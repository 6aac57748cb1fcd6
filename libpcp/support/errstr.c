/*
 * errstr.c - the text of PMAPI error codes (pmErrStr, pmErrStr_r) and the
 * table behind it, which pmerr -l also lists.
 *
 * A code is classified in this order, exactly as PCP does:
 *   0                      "No error"
 *   below PM_ERR_NYI       a wrapped SASL / secure sockets error
 *   -PM_ERR_BASE < c < 0   a negated errno value: the C library's text
 *   in the table           the table's text
 *   anything else          "No such PMAPI error code (%d)"
 * The table is ordered as PCP lists it; a lookup is one load from a small
 * array indexed by the code's offset, and the text is copied from a
 * fixed-size slot.  Not here: translated messages; every string is the
 * C-locale English PCP prints.
 */
#include "support.h"

#include <pcp/libpcp.h>

#include <string.h>

/* The PMAPI error table, in the order `pmerr -l` prints it: X(code, text). */
#define ERRTAB(X)                                                                                  \
    X(PM_ERR_GENERIC, "Generic error, already reported above")                                     \
    X(PM_ERR_PMNS, "Problems parsing PMNS definitions")                                            \
    X(PM_ERR_NOPMNS, "PMNS not accessible")                                                        \
    X(PM_ERR_DUPPMNS, "Attempt to reload the PMNS")                                                \
    X(PM_ERR_TEXT, "One-line or help text is not available")                                       \
    X(PM_ERR_APPVERSION, "Metric not supported by this version of monitored application")          \
    X(PM_ERR_VALUE, "Missing metric value(s)")                                                     \
    X(PM_ERR_TIMEOUT, "Timeout waiting for a response from PMCD")                                  \
    X(PM_ERR_NODATA, "Empty archive log file")                                                     \
    X(PM_ERR_RESET, "PMCD reset or configuration change")                                          \
    X(PM_ERR_NAME, "Unknown metric name")                                                          \
    X(PM_ERR_PMID, "Unknown or illegal metric identifier")                                         \
    X(PM_ERR_INDOM, "Unknown or illegal instance domain identifier")                               \
    X(PM_ERR_INST, "Unknown or illegal instance identifier")                                       \
    X(PM_ERR_TYPE, "Unknown or illegal metric type")                                               \
    X(PM_ERR_UNIT, "Illegal pmUnits specification")                                                \
    X(PM_ERR_CONV, "Impossible value or scale conversion")                                         \
    X(PM_ERR_TRUNC, "Truncation in value conversion")                                              \
    X(PM_ERR_SIGN, "Negative value in conversion to unsigned")                                     \
    X(PM_ERR_PROFILE, "Explicit instance identifier(s) required")                                  \
    X(PM_ERR_IPC, "IPC protocol failure")                                                          \
    X(PM_ERR_TLS, "TLS protocol failure")                                                          \
    X(PM_ERR_EOF, "IPC channel closed")                                                            \
    X(PM_ERR_NOTHOST, "Operation requires context with host source of metrics")                    \
    X(PM_ERR_EOL, "End of PCP archive log")                                                        \
    X(PM_ERR_MODE, "Illegal mode specification")                                                   \
    X(PM_ERR_LABEL, "Illegal label record at start of a PCP archive log file")                     \
    X(PM_ERR_LOGREC, "Corrupted record in a PCP archive log")                                      \
    X(PM_ERR_LOGFILE, "Missing PCP archive log file")                                              \
    X(PM_ERR_NOTARCHIVE, "Operation requires context with archive source of metrics")              \
    X(PM_ERR_NOCONTEXT, "Attempt to use an illegal context")                                       \
    X(PM_ERR_PROFILESPEC, "NULL pmInDom with non-NULL instlist")                                   \
    X(PM_ERR_PMID_LOG, "Metric not defined in the PCP archive log")                                \
    X(PM_ERR_INDOM_LOG, "Instance domain identifier not defined in the PCP archive log")           \
    X(PM_ERR_INST_LOG, "Instance identifier not defined in the PCP archive log")                   \
    X(PM_ERR_NOPROFILE, "Missing profile - protocol botch")                                        \
    X(PM_ERR_NOAGENT, "No PMCD agent for domain of request")                                       \
    X(PM_ERR_PERMISSION, "No permission to perform requested operation")                           \
    X(PM_ERR_CONNLIMIT, "PMCD connection limit for this host exceeded")                            \
    X(PM_ERR_AGAIN, "Try again. Information not currently available")                              \
    X(PM_ERR_ISCONN, "Already Connected")                                                          \
    X(PM_ERR_NOTCONN, "Not Connected")                                                             \
    X(PM_ERR_NEEDPORT, "A non-null port name is required")                                         \
    X(PM_ERR_NONLEAF, "Metric name is not a leaf in PMNS")                                         \
    X(PM_ERR_PMDANOTREADY, "PMDA is not yet ready to respond to requests")                         \
    X(PM_ERR_PMDAREADY, "PMDA is now responsive to requests")                                      \
    X(PM_ERR_BOTCH, "Internal inconsistency detected or assertion failed")                         \
    X(PM_ERR_TOOSMALL, "Insufficient elements in list")                                            \
    X(PM_ERR_TOOBIG, "Result size exceeded")                                                       \
    X(PM_ERR_FAULT, "QA fault injected")                                                           \
    X(PM_ERR_THREAD, "Operation not supported for multi-threaded applications")                    \
    X(PM_ERR_NOCONTAINER, "Container not found")                                                   \
    X(PM_ERR_BADSTORE, "Bad input to pmstore")                                                     \
    X(PM_ERR_LOGOVERLAP, "Archives overlap in time")                                               \
    X(PM_ERR_LOGHOST, "Archives differ by host")                                                   \
    X(PM_ERR_LOGCHANGETYPE, "The type of a metric has changed in an archive")                      \
    X(PM_ERR_LOGCHANGESEM, "The semantics of a metric has changed in an archive")                  \
    X(PM_ERR_LOGCHANGEINDOM, "The instance domain of a metric has changed in an archive")          \
    X(PM_ERR_LOGCHANGEUNITS, "The units of a metric have changed in an archive")                   \
    X(PM_ERR_NEEDCLIENTCERT, "PMCD requires a client certificate")                                 \
    X(PM_ERR_BADDERIVE, "Derived metric definition failed")                                        \
    X(PM_ERR_NOLABELS, "No support for metric label metadata")                                     \
    X(PM_ERR_PMDAFENCED, "PMDA is currently fenced and unable to respond to requests")             \
    X(PM_ERR_RECTYPE, "Incorrect record type in an archive")                                       \
    X(PM_ERR_FEATURE, "Archive feature not supported")                                             \
    X(PM_ERR_NYI, "Functionality not yet implemented")

/* Each text in a fixed slot, zero-padded: pmErrStr_r copies a whole slot,
 * a copy of constant size that needs no strlen and no branch on the
 * length (the caller's buffer is filled past the NUL only within buflen,
 * as PCP's strncpy fills all of it). */
#define ERRTEXT_SLOT 64

#define ERR_INDEX(code, text) IX_##code,
enum { ERRTAB(ERR_INDEX) N_ERRTAB };

/* Every text fits its slot with its NUL (else this divides by zero). */
#define ERR_FITS(code, text) FITS_##code = 1 / (sizeof(text) <= ERRTEXT_SLOT),
enum { ERRTAB(ERR_FITS) };

#define ERR_TEXT(code, text) text,
static const char errtext[N_ERRTAB][ERRTEXT_SLOT] = {ERRTAB(ERR_TEXT)};

#define ERR_ROW(code, text) {code, #code, errtext[IX_##code]},
static const pmkitErrEntry errtab[] = {ERRTAB(ERR_ROW)};

/* A code's place among the codes' offsets below -PM_ERR_BASE: 0..100 as
 * they are, the three far ones after them (a code at any other offset
 * fails to compile: its index is past the array). */
#define ERR_SLOT(off)                                                                              \
    ((off) <= 100 ? (off) : (off) == 1048 ? 101 : (off) == 1049 ? 102 : (off) == 8999 ? 103 : 104)
#define N_ERR_SLOTS 104

/* 1 + the table index of the code in each slot, 0 for none. */
#define ERR_BYSLOT(code, text) [ERR_SLOT(-(code)-PM_ERR_BASE)] = IX_##code + 1,
static const unsigned char errslot[N_ERR_SLOTS] = {ERRTAB(ERR_BYSLOT)};

const pmkitErrEntry *pmkitErrTable(int *count)
{
    if (count != NULL)
        *count = (int)(sizeof(errtab) / sizeof(errtab[0]));
    return errtab;
}

/* The table as PCP's pmerr -l lists it: a heading, then code, symbolic
 * name and text, one error a line. */
void __pmDumpErrTab(FILE *f)
{
    fprintf(f, "  Code  Symbolic Name          Message\n");
    for (size_t i = 0; i < sizeof(errtab) / sizeof(errtab[0]); i++)
        fprintf(f, "%6d  %-22s %s\n", errtab[i].code, errtab[i].name, errtab[i].text);
}

/* Cyrus SASL's texts for its own (small, negative) error numbers. */
static const char *sasl_text(int error)
{
    static const char *const texts[] = {
        "generic failure",                                   /* -1 */
        "no memory available",                               /* -2 */
        "overflowed buffer",                                 /* -3 */
        "no mechanism available",                            /* -4 */
        "bad protocol / cancel",                             /* -5 */
        "can't request information until later in exchange", /* -6 */
        "invalid parameter supplied",                        /* -7 */
        "transient failure (e.g., weak key)",                /* -8 */
        "integrity check failed",                            /* -9 */
        "server failed mutual authentication step",          /* -10 */
        "mechanism doesn't support requested feature",       /* -11 */
        "SASL library is not initialized",                   /* -12 */
        "authentication failure",                            /* -13 */
        "authorization failure",                             /* -14 */
        "mechanism too weak for this user",                  /* -15 */
        "encryption needed to use mechanism",                /* -16 */
        "One time use of a plaintext password will enable requested mechanism for user",
        "passphrase expired, has to be reset",        /* -18 */
        "account disabled",                           /* -19 */
        "user not found",                             /* -20 */
        "passphrase locked",                          /* -21 */
        "requested change was not needed",            /* -22 */
        "version mismatch with plug-in",              /* -23 */
        "remote authentication server unavailable",   /* -24 */
        NULL,                                         /* -25 */
        "user exists, but no verifier for user",      /* -26 */
        "passphrase is too weak for security policy", /* -27 */
        "user supplied passwords are not permitted",  /* -28 */
        "sasl_setpass needs old password in order to perform password change",
        "sasl_setpass can't store a property because of a constraint violation",
        NULL,                      /* -31 */
        "channel binding failure", /* -32 */
    };
    int n = (int)(sizeof(texts) / sizeof(texts[0]));

    if (error == -100)
        return "error when parsing configuration file";
    if (error <= -1 && error >= -n && texts[-error - 1] != NULL)
        return texts[-error - 1];
    return "undefined error!";
}

/* The index in errtab of code, or -1 (no table lookup: one load). */
static int errtab_index(int code)
{
    unsigned off = (unsigned)-(code + PM_ERR_BASE); /* code <= -PM_ERR_BASE here */
    unsigned slot = ERR_SLOT(off);

    return slot < N_ERR_SLOTS ? errslot[slot] - 1 : -1;
}

char *pmErrStr_r(int code, char *buf, int buflen)
{
    int i;

    if (buf == NULL || buflen <= 0)
        return buf;
    if (code == 0)
        return pmkit_copy(buf, buflen, "No error");
    if (code < PM_ERR_NYI) {
        int error = code - PM_ERR_NYI; /* cannot overflow: code < -21344 */
        if (error >= -1000)
            pmsprintf(buf, (size_t)buflen, "Authentication - %s", sasl_text(error));
        else
            pmsprintf(buf, (size_t)buflen, "Unknown secure sockets error %d (%d)", code, error);
        return buf;
    }
    if (code < 0 && code > -PM_ERR_BASE) {
        /* XSI strerror_r cuts the text to buflen - 1 bytes, as pmkit_copy
         * would, and fills "Unknown error N" itself for unknown values. */
        if (strerror_r(-code, buf, (size_t)buflen) != 0 && buf[0] == '\0')
            pmsprintf(buf, (size_t)buflen, "Unknown error %d", -code);
        return buf;
    }
    if (code <= -PM_ERR_BASE && (i = errtab_index(code)) >= 0) {
        if (buflen >= ERRTEXT_SLOT)
            memcpy(buf, errtext[i], ERRTEXT_SLOT);
        else
            pmkit_copy(buf, buflen, errtext[i]);
        return buf;
    }
    pmsprintf(buf, (size_t)buflen, "No such PMAPI error code (%d)", code);
    return buf;
}

char *pmErrStr(int code)
{
    static _Thread_local char buf[PM_MAXERRMSGLEN];

    return pmErrStr_r(code, buf, (int)sizeof(buf));
}
