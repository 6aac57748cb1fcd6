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
 * The table is ordered as PCP lists it; lookups scan it (67 entries, and
 * only on error paths).  Not here: translated messages; every string is the
 * C-locale English PCP prints.
 */
#include "support.h"

#include <pcp/libpcp.h>

#include <string.h>

/* The PMAPI error table, in the order `pmerr -l` prints it. */
static const pmkitErrEntry errtab[] = {
    {PM_ERR_GENERIC, "PM_ERR_GENERIC", "Generic error, already reported above"},
    {PM_ERR_PMNS, "PM_ERR_PMNS", "Problems parsing PMNS definitions"},
    {PM_ERR_NOPMNS, "PM_ERR_NOPMNS", "PMNS not accessible"},
    {PM_ERR_DUPPMNS, "PM_ERR_DUPPMNS", "Attempt to reload the PMNS"},
    {PM_ERR_TEXT, "PM_ERR_TEXT", "One-line or help text is not available"},
    {PM_ERR_APPVERSION, "PM_ERR_APPVERSION",
     "Metric not supported by this version of monitored application"},
    {PM_ERR_VALUE, "PM_ERR_VALUE", "Missing metric value(s)"},
    {PM_ERR_TIMEOUT, "PM_ERR_TIMEOUT", "Timeout waiting for a response from PMCD"},
    {PM_ERR_NODATA, "PM_ERR_NODATA", "Empty archive log file"},
    {PM_ERR_RESET, "PM_ERR_RESET", "PMCD reset or configuration change"},
    {PM_ERR_NAME, "PM_ERR_NAME", "Unknown metric name"},
    {PM_ERR_PMID, "PM_ERR_PMID", "Unknown or illegal metric identifier"},
    {PM_ERR_INDOM, "PM_ERR_INDOM", "Unknown or illegal instance domain identifier"},
    {PM_ERR_INST, "PM_ERR_INST", "Unknown or illegal instance identifier"},
    {PM_ERR_TYPE, "PM_ERR_TYPE", "Unknown or illegal metric type"},
    {PM_ERR_UNIT, "PM_ERR_UNIT", "Illegal pmUnits specification"},
    {PM_ERR_CONV, "PM_ERR_CONV", "Impossible value or scale conversion"},
    {PM_ERR_TRUNC, "PM_ERR_TRUNC", "Truncation in value conversion"},
    {PM_ERR_SIGN, "PM_ERR_SIGN", "Negative value in conversion to unsigned"},
    {PM_ERR_PROFILE, "PM_ERR_PROFILE", "Explicit instance identifier(s) required"},
    {PM_ERR_IPC, "PM_ERR_IPC", "IPC protocol failure"},
    {PM_ERR_TLS, "PM_ERR_TLS", "TLS protocol failure"},
    {PM_ERR_EOF, "PM_ERR_EOF", "IPC channel closed"},
    {PM_ERR_NOTHOST, "PM_ERR_NOTHOST", "Operation requires context with host source of metrics"},
    {PM_ERR_EOL, "PM_ERR_EOL", "End of PCP archive log"},
    {PM_ERR_MODE, "PM_ERR_MODE", "Illegal mode specification"},
    {PM_ERR_LABEL, "PM_ERR_LABEL", "Illegal label record at start of a PCP archive log file"},
    {PM_ERR_LOGREC, "PM_ERR_LOGREC", "Corrupted record in a PCP archive log"},
    {PM_ERR_LOGFILE, "PM_ERR_LOGFILE", "Missing PCP archive log file"},
    {PM_ERR_NOTARCHIVE, "PM_ERR_NOTARCHIVE",
     "Operation requires context with archive source of metrics"},
    {PM_ERR_NOCONTEXT, "PM_ERR_NOCONTEXT", "Attempt to use an illegal context"},
    {PM_ERR_PROFILESPEC, "PM_ERR_PROFILESPEC", "NULL pmInDom with non-NULL instlist"},
    {PM_ERR_PMID_LOG, "PM_ERR_PMID_LOG", "Metric not defined in the PCP archive log"},
    {PM_ERR_INDOM_LOG, "PM_ERR_INDOM_LOG",
     "Instance domain identifier not defined in the PCP archive log"},
    {PM_ERR_INST_LOG, "PM_ERR_INST_LOG", "Instance identifier not defined in the PCP archive log"},
    {PM_ERR_NOPROFILE, "PM_ERR_NOPROFILE", "Missing profile - protocol botch"},
    {PM_ERR_NOAGENT, "PM_ERR_NOAGENT", "No PMCD agent for domain of request"},
    {PM_ERR_PERMISSION, "PM_ERR_PERMISSION", "No permission to perform requested operation"},
    {PM_ERR_CONNLIMIT, "PM_ERR_CONNLIMIT", "PMCD connection limit for this host exceeded"},
    {PM_ERR_AGAIN, "PM_ERR_AGAIN", "Try again. Information not currently available"},
    {PM_ERR_ISCONN, "PM_ERR_ISCONN", "Already Connected"},
    {PM_ERR_NOTCONN, "PM_ERR_NOTCONN", "Not Connected"},
    {PM_ERR_NEEDPORT, "PM_ERR_NEEDPORT", "A non-null port name is required"},
    {PM_ERR_NONLEAF, "PM_ERR_NONLEAF", "Metric name is not a leaf in PMNS"},
    {PM_ERR_PMDANOTREADY, "PM_ERR_PMDANOTREADY", "PMDA is not yet ready to respond to requests"},
    {PM_ERR_PMDAREADY, "PM_ERR_PMDAREADY", "PMDA is now responsive to requests"},
    {PM_ERR_BOTCH, "PM_ERR_BOTCH", "Internal inconsistency detected or assertion failed"},
    {PM_ERR_TOOSMALL, "PM_ERR_TOOSMALL", "Insufficient elements in list"},
    {PM_ERR_TOOBIG, "PM_ERR_TOOBIG", "Result size exceeded"},
    {PM_ERR_FAULT, "PM_ERR_FAULT", "QA fault injected"},
    {PM_ERR_THREAD, "PM_ERR_THREAD", "Operation not supported for multi-threaded applications"},
    {PM_ERR_NOCONTAINER, "PM_ERR_NOCONTAINER", "Container not found"},
    {PM_ERR_BADSTORE, "PM_ERR_BADSTORE", "Bad input to pmstore"},
    {PM_ERR_LOGOVERLAP, "PM_ERR_LOGOVERLAP", "Archives overlap in time"},
    {PM_ERR_LOGHOST, "PM_ERR_LOGHOST", "Archives differ by host"},
    {PM_ERR_LOGCHANGETYPE, "PM_ERR_LOGCHANGETYPE",
     "The type of a metric has changed in an archive"},
    {PM_ERR_LOGCHANGESEM, "PM_ERR_LOGCHANGESEM",
     "The semantics of a metric has changed in an archive"},
    {PM_ERR_LOGCHANGEINDOM, "PM_ERR_LOGCHANGEINDOM",
     "The instance domain of a metric has changed in an archive"},
    {PM_ERR_LOGCHANGEUNITS, "PM_ERR_LOGCHANGEUNITS",
     "The units of a metric have changed in an archive"},
    {PM_ERR_NEEDCLIENTCERT, "PM_ERR_NEEDCLIENTCERT", "PMCD requires a client certificate"},
    {PM_ERR_BADDERIVE, "PM_ERR_BADDERIVE", "Derived metric definition failed"},
    {PM_ERR_NOLABELS, "PM_ERR_NOLABELS", "No support for metric label metadata"},
    {PM_ERR_PMDAFENCED, "PM_ERR_PMDAFENCED",
     "PMDA is currently fenced and unable to respond to requests"},
    {PM_ERR_RECTYPE, "PM_ERR_RECTYPE", "Incorrect record type in an archive"},
    {PM_ERR_FEATURE, "PM_ERR_FEATURE", "Archive feature not supported"},
    {PM_ERR_NYI, "PM_ERR_NYI", "Functionality not yet implemented"},
};

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

static const char *errtab_text(int code)
{
    int n;
    const pmkitErrEntry *tab = pmkitErrTable(&n);

    for (int i = 0; i < n; i++) {
        if (tab[i].code == code)
            return tab[i].text;
    }
    return NULL;
}

char *pmErrStr_r(int code, char *buf, int buflen)
{
    const char *text;

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
        char sys[PM_MAXERRMSGLEN];
        /* XSI strerror_r fills "Unknown error N" itself for unknown values. */
        if (strerror_r(-code, sys, sizeof(sys)) != 0 && sys[0] == '\0')
            pmsprintf(sys, sizeof(sys), "Unknown error %d", -code);
        return pmkit_copy(buf, buflen, sys);
    }
    if ((text = errtab_text(code)) != NULL)
        return pmkit_copy(buf, buflen, text);
    pmsprintf(buf, (size_t)buflen, "No such PMAPI error code (%d)", code);
    return buf;
}

char *pmErrStr(int code)
{
    static _Thread_local char buf[PM_MAXERRMSGLEN];

    return pmErrStr_r(code, buf, (int)sizeof(buf));
}
