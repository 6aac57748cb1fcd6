/*
 * example.h - what the example agent's DSO entry point and its daemon
 * (main.c) share.
 */
#ifndef EXAMPLE_H
#define EXAMPLE_H

#include <pcp/pmapi.h>
#include <pcp/pmda.h>

/* The DSO entry point (named in pmcd.conf or a pmSpecLocalPMDA spec). */
void example_init(pmdaInterface *dp);

/* Installs the tables and methods; dp comes from pmdaDSO or pmdaDaemon. */
void example_setup(pmdaInterface *dp);

/* $PCP_PMDAS_DIR/example/help, or "" when that does not fit. */
const char *example_help_path(void);

#endif
