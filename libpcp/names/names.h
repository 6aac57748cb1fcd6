/*
 * names.h - the names room (libpcp/names): the namespace API over loaded
 * and mapped namespaces, host contexts' names, and the built-in anonymous
 * derived metrics.  What the other rooms may ask of it.
 */
#ifndef PMKIT_NAMES_H
#define PMKIT_NAMES_H

#include "support.h"

/* The anonymous derived metric with this PMID (front/pmns.h's table,
 * event.flags and event.missed), or NULL. */
struct pmns_derived_metric;
const struct pmns_derived_metric *pmkit_derived(pmID pmid);

/* A number that changes whenever a namespace is loaded or unloaded
 * (pmns.c), for what is kept per loaded namespace (pcptree.c). */
unsigned pmkit_pmns_generation(void);

#endif /* PMKIT_NAMES_H */
