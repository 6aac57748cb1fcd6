/*
 * trivial.h - the trivial agent's entry points: trivial_init for the DSO,
 * the rest for main.c, the daemon's start-up.  Include <pcp/pmapi.h> and
 * <pcp/pmda.h> first.
 */
#ifndef PMKIT_TRIVIAL_H
#define PMKIT_TRIVIAL_H

#include <stddef.h>

/* The DSO's initialisation function (the loader finds it by name). */
void trivial_init(pmdaInterface *dp);

/* Writes $PCP_PMDAS_DIR/trivial/FILE into buf; 0 if it does not fit. */
int trivial_path(char *buf, size_t len, const char *file);

/* Installs the agent's callback and table into dp (set up by pmdaDSO or
 * pmdaDaemon); nothing happens if dp->status is already an error. */
void trivial_setup(pmdaInterface *dp);

#endif /* PMKIT_TRIVIAL_H */
