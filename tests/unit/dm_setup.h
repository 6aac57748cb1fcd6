/*
 * dm_setup.h - the derived-metric unit tests' group setup: the test agent
 * (dm_agent.so, domain 245) as the only local-context agent and its
 * namespace loaded.  Build with -DDM_DSO=... -DDM_PMNS=... (CMakeLists.txt).
 */
#ifndef PMKIT_DM_SETUP_H
#define PMKIT_DM_SETUP_H

#include <stdio.h>

#include <pcp/pmapi.h>

#if !defined(DM_DSO) || !defined(DM_PMNS)
#error "build with -DDM_DSO=path/to/dm_agent.so -DDM_PMNS=path/to/dm.pmns"
#endif

static int setup(void **state)
{
    char spec[1024];

    (void)state;
    pmSpecLocalPMDA("clear");
    snprintf(spec, sizeof(spec), "add,245,%s,dm_init", DM_DSO);
    if (pmSpecLocalPMDA(spec) != NULL || pmLoadASCIINameSpace(DM_PMNS, 1) < 0)
        return -1;
    return 0;
}

#endif /* PMKIT_DM_SETUP_H */
