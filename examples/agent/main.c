/*
 * main.c - the example agent as a daemon, pmdaexample: pmcd starts it and
 * talks to it over a pipe through libpcp_pmda's pmdaConnect and pmdaMain.
 * Options are libpcp_pmda's (-D, -d, -l, -U); the log is example.log.
 */
#include "example.h"

#include <stdlib.h>

#include "domain.h"

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
    char *username = NULL;
    const char *help = example_help_path();

    pmSetProgname(argv[0]);
    pmGetUsername(&username);
    pmdaDaemon(&dispatch, PMDA_INTERFACE_7, pmGetProgname(), EXAMPLE, "example.log",
               help[0] != '\0' ? help : NULL);
    pmdaGetOptions(argc, argv, &opts, &dispatch);
    if (opts.errors) {
        pmdaUsageMessage(&opts);
        exit(1);
    }
    if (opts.username)
        username = opts.username;
    pmdaOpenLog(&dispatch);
    pmSetProcessIdentity(username);
    example_setup(&dispatch);
    pmdaConnect(&dispatch);
    pmdaMain(&dispatch);
    exit(0);
}
