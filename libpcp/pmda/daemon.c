/*
 * daemon.c - what a PMDA's main() calls: option parsing (pmdaGetOptions,
 * pmdaGetOpt, pmdaUsageMessage), pmdaOpenLog, and the pmcd connection
 * (pmdaConnect, pmdaMain, __pmdaMainPDU, pmdaSendError).
 *
 * Option parsing is PCP's (runtime spec 5.3) on top of pmgetopt_r: the
 * agent's pmdaOptions is copied into a pmOptions (their leading fields are
 * the same), scanned, and copied back.
 *
 * Not done: the pmcd side.  pmkit has no pmcd yet, so pmdaConnect reports
 * PM_ERR_NYI in dp->status and pmdaMain returns at once; agents built on
 * libpcp_pmda run as DSOs in local contexts (docs/compat.md).  The
 * functions exist so that an agent with a main() still links and loads.
 */
#include "pmda_int.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static void to_pmoptions(const pmdaOptions *o, pmOptions *p)
{
    memset(p, 0, sizeof(*p));
    memcpy(p, o, offsetof(pmdaOptions, username));
}

static void from_pmoptions(const pmOptions *p, pmdaOptions *o)
{
    memcpy(o, p, offsetof(pmdaOptions, username));
}

/* Apply one agent option; returns 0, or 1 when the caller should see it. */
static int agent_option(int c, const char *arg, pmdaOptions *opts, pmdaInterface *dp)
{
    pmdaExt *pmda = dp->version.any.ext;
    char *end;
    long v;

    switch (c) {
    case 'd':
        v = strtol(arg, &end, 10);
        if (*arg == '\0' || *end != '\0' || v < 0 || v > 510) {
            pmprintf("%s: -d requires numeric domain number\n", pmGetProgname());
            opts->errors++;
            return 0;
        }
        dp->domain = pmda->e_domain = (int)v;
        return 0;
    case 'D':
        if (pmSetDebug(arg) < 0) {
            pmprintf("%s: unrecognized debug options specification (%s)\n", pmGetProgname(),
                     arg);
            opts->errors++;
        }
        return 0;
    case 'h':
        pmda->e_helptext = (char *)arg;
        return 0;
    case 'l':
        pmda->e_logfile = arg;
        return 0;
    case 'U':
        opts->username = (char *)arg;
        return 0;
    case 'i':
    case '6':
    case 'p':
    case 'u':
        if (pmda->e_io != pmdaUnknown) {
            static const char letter[] = {'p', 'i', 'u', '?', '6'};
            pmprintf("%s: -%c option clashes with -%c option\n", pmGetProgname(), c,
                     letter[pmda->e_io]);
            opts->errors++;
            return 0;
        }
        pmda->e_io = c == 'p' ? pmdaPipe : c == 'u' ? pmdaUnix : c == '6' ? pmdaIPv6 : pmdaInet;
        if (c == 'u') {
            pmda->e_sockname = (char *)arg;
        } else if (c != 'p') {
            v = strtol(arg, &end, 10);
            if (*end == '\0' && *arg != '\0')
                pmda->e_port = (int)v;
            else
                pmda->e_sockname = (char *)arg;
        }
        return 0;
    case '?':
        opts->errors++;
        return 0;
    default:
        return 1;
    }
}

int pmdaGetOptions(int argc, char *const *argv, pmdaOptions *opts, pmdaInterface *dp)
{
    pmOptions p;
    int c;

    if (dp->status != 0 || !pmda_version_ok(dp->comm.pmda_interface) ||
        dp->version.any.ext == NULL) {
        opts->errors++;
        return EOF;
    }
    opts->version = 0;
    for (;;) {
        to_pmoptions(opts, &p);
        c = pmgetopt_r(argc, argv, &p);
        from_pmoptions(&p, opts);
        if (c == EOF)
            break;
        if (opts->override != NULL && opts->override(c, opts) != 0)
            continue;
        if (agent_option(c, opts->optarg, opts, dp))
            break;
    }
    pmflush();
    return c;
}

int pmdaGetOpt(int argc, char *const *argv, const char *optstring, pmdaInterface *dp, int *err)
{
    static pmdaOptions opts;
    int c;

    if (opts.short_options != optstring) {
        memset(&opts, 0, sizeof(opts));
        opts.short_options = optstring;
        opts.flags = PM_OPTFLAG_POSIX;
    }
    for (;;) {
        pmOptions p;
        to_pmoptions(&opts, &p);
        c = pmgetopt_r(argc, argv, &p);
        from_pmoptions(&p, &opts);
        if (c == EOF || c == 'U' || agent_option(c, opts.optarg, &opts, dp))
            break;
    }
    optind = opts.optind;
    optarg = opts.optarg;
    optopt = opts.optopt;
    *err += opts.errors;
    opts.errors = 0;
    pmflush();
    return c;
}

void pmdaUsageMessage(pmdaOptions *opts)
{
    pmOptions p;

    to_pmoptions(opts, &p);
    pmUsageMessage(&p);
}

void pmdaOpenLog(pmdaInterface *dp)
{
    pmdaExt *pmda = dp->version.any.ext;
    int sts;

    if (dp->status < 0 || pmda == NULL)
        return;
    pmOpenLog(pmda->e_name, pmda->e_logfile, stderr, &sts);
}

void pmdaConnect(pmdaInterface *dp)
{
    pmdaExt *pmda = dp->version.any.ext;

    if (pmda == NULL || !(pmda->e_flags & PMDA_EXT_SETUPDONE)) {
        pmNotifyErr(LOG_CRIT, "pmdaConnect: need to call pmdaDaemon() or pmdaDSO() first");
        dp->status = PM_ERR_GENERIC;
        return;
    }
    if (pmda->e_flags & PMDA_EXT_CONNECTED) {
        pmNotifyErr(LOG_CRIT, "pmdaConnect: called more than once");
        dp->status = PM_ERR_GENERIC;
        return;
    }
    pmNotifyErr(LOG_ERR, "pmdaConnect: PMDA %s: pmkit serves agents as DSOs in local contexts "
                         "only; there is no pmcd to connect to",
                pmda->e_name);
    dp->status = PM_ERR_NYI;
}

int __pmdaMainPDU(pmdaInterface *dp)
{
    if (dp->status != 0) {
        pmNotifyErr(LOG_ERR, "PMDA Initialisation Failed");
        return -1;
    }
    return PM_ERR_NYI;
}

void pmdaMain(pmdaInterface *dp)
{
    while (__pmdaMainPDU(dp) >= 0)
        ;
}

void pmdaSendError(pmdaInterface *dp, int err)
{
    (void)dp;
    (void)err;
}
