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

#endif /* PMKIT_NAMES_H */
