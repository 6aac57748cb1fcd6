/*
 * names.h - the names room (libpcp/names): the namespace API over loaded
 * and mapped namespaces and host contexts' names, with the derived
 * metrics' names merged in.  What the other rooms may ask of it.
 */
#ifndef PMKIT_NAMES_H
#define PMKIT_NAMES_H

#include "support.h"

/* A number that changes whenever a namespace is loaded or unloaded
 * (pmns.c), for what is kept per loaded namespace (pcptree.c). */
unsigned pmkit_pmns_generation(void);

/* Make n names and their PMIDs, in PCP's tree order, the loaded
 * namespace for good (__pmUsePMNS: pmUnloadNameSpace no longer unloads
 * it); 0, or -ENOMEM (pmns.c). */
int pmkit_pmns_use(const char *const *names, const pmID *pmids, size_t n);

#endif /* PMKIT_NAMES_H */
