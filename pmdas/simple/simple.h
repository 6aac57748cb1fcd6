/*
 * simple.h - the simple agent's entry points: simple_init for the DSO, the
 * rest for main.c, the daemon's start-up.  Include <pcp/pmapi.h> and
 * <pcp/pmda.h> first.
 */
#ifndef PMKIT_SIMPLE_H
#define PMKIT_SIMPLE_H

#include <stddef.h>

/* The DSO's initialisation function (the loader finds it by name). */
void simple_init(pmdaInterface *dp);

/* Writes $PCP_PMDAS_DIR/simple/FILE into buf; 0 if it does not fit. */
int simple_path(char *buf, size_t len, const char *file);

/* Installs the agent's methods and tables into dp (set up by pmdaDSO or
 * pmdaDaemon); nothing happens if dp->status is already an error. */
void simple_setup(pmdaInterface *dp);

/* Re-reads simple.conf if it changed (the daemon calls it once at start so
 * configuration errors are logged early). */
void simple_now_check(void);

#endif /* PMKIT_SIMPLE_H */
