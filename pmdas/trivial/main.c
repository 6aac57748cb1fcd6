/*
 * main.c - the trivial agent as a daemon (pmdatrivial), talking to pmcd
 * through libpcp_pmda's pmdaConnect and pmdaMain.
 *
 * Options: -D -d -l -U (the log defaults to trivial.log); pmcd talks to it
 * over a pipe.  Privileges are dropped and the table installed before the
 * handshake with pmcd, as in PCP's agent.  Kept apart from trivial.c so
 * that the DSO needs none of the daemon-only functions.
 */
#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include <stdlib.h>

#include "domain.h"
#include "trivial.h"

static pmLongOptions longopts[] = {
    PMDA_OPTIONS_HEADER("Options"),
    PMOPT_DEBUG,
    PMDAOPT_DOMAIN,
    PMDAOPT_LOGFILE,
    PMDAOPT_USERNAME,
    PMOPT_HELP,
    PMDA_OPTIONS_END,
};

static pmdaOptions opts = {
    .short_options = "D:d:l:U:?",
    .long_options = longopts,
};

int main(int argc, char **argv)
{
    pmdaInterface dispatch;
    char help[MAXPATHLEN];
    char *username = NULL;

    pmSetProgname(argv[0]);
    pmGetUsername(&username);
    if (!trivial_path(help, sizeof help, "help")) {
        pmNotifyErr(LOG_ERR, "$PCP_PMDAS_DIR is too long");
        exit(1);
    }
    pmdaDaemon(&dispatch, PMDA_INTERFACE_2, pmGetProgname(), TRIVIAL, "trivial.log", help);
    pmdaGetOptions(argc, argv, &opts, &dispatch);
    if (opts.errors) {
        pmdaUsageMessage(&opts);
        exit(1);
    }
    if (opts.username)
        username = opts.username;
    pmdaOpenLog(&dispatch);
    pmSetProcessIdentity(username);
    trivial_setup(&dispatch);
    pmdaConnect(&dispatch);
    pmdaMain(&dispatch);
    exit(0);
}
