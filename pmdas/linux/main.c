/*
 * main.c - the linux agent as a daemon (pmdalinux), talking to pmcd
 * through libpcp_pmda's pmdaConnect and pmdaMain.
 *
 * Options are the usual agent ones (-D -d -l -U, and the transport: -i,
 * -p, -u, -6); the log defaults to linux.log.  Kept apart from linux.c so
 * that the DSO needs none of the daemon-only functions.
 */
#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include <stdlib.h>

#include "domain.h"
#include "linux.h"

static pmLongOptions longopts[] = {
    PMDA_OPTIONS_HEADER("Options"),
    PMOPT_DEBUG,
    PMDAOPT_DOMAIN,
    PMDAOPT_LOGFILE,
    PMDAOPT_USERNAME,
    PMOPT_HELP,
    PMDA_OPTIONS_TEXT("\nExactly one of the following options may appear:"),
    PMDAOPT_INET,
    PMDAOPT_PIPE,
    PMDAOPT_UNIX,
    PMDAOPT_IPV6,
    PMDA_OPTIONS_END,
};

static pmdaOptions opts = {
    .short_options = "D:d:i:l:pu:U:6:?",
    .long_options = longopts,
};

int main(int argc, char **argv)
{
    pmdaInterface dispatch;
    char *help, *username = NULL;

    pmSetProgname(argv[0]);
    pmGetUsername(&username);
    if ((help = linux_help_path()) == NULL) {
        pmNotifyErr(LOG_ERR, "out of memory");
        exit(1);
    }
    pmdaDaemon(&dispatch, PMDA_INTERFACE_7, pmGetProgname(), LINUX, "linux.log", help);
    pmdaGetOptions(argc, argv, &opts, &dispatch);
    if (opts.errors) {
        pmdaUsageMessage(&opts);
        exit(1);
    }
    if (opts.username)
        username = opts.username;
    pmdaOpenLog(&dispatch);
    pmdaConnect(&dispatch);
    pmSetProcessIdentity(username);
    linux_setup(&dispatch);
    pmdaMain(&dispatch);
    exit(0);
}
