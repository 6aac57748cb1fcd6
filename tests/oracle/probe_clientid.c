/*
 * probe_clientid.c HOST - __pmSetClientId and __pmSetClientIdArgv as PCP's
 * clients call them on a host context, built against pmkit's libraries
 * and Debian's (pmval_diff.sh runs both against Debian's pmcd and wants
 * the same output): what pmcd.client.whoami then says for this client
 * (the one value that ends in the probe's own id), and the answers on a
 * local context, which has no such metric.
 */
#include <pcp/pmapi.h>
#include "libpcp.h"

#include <stdio.h>
#include <string.h>

/* The values of pmcd.client.whoami that end with TAIL. */
static void whoami(const char *tail)
{
    const char *name = "pmcd.client.whoami";
    pmResult *rp;
    pmID pmid;
    int sts;

    if ((sts = pmLookupName(1, &name, &pmid)) < 0 || (sts = pmFetch(1, &pmid, &rp)) < 0) {
        printf("whoami: %s\n", pmErrStr(sts));
        return;
    }
    for (int i = 0; i < rp->vset[0]->numval; i++) {
        pmAtomValue a;
        size_t n, t = strlen(tail);
        if (pmExtractValue(rp->vset[0]->valfmt, &rp->vset[0]->vlist[i], PM_TYPE_STRING, &a,
                           PM_TYPE_STRING) < 0)
            continue;
        n = strlen(a.cp);
        if (n >= t && strcmp(a.cp + n - t, tail) == 0)
            printf("whoami: \"%s\"\n", a.cp);
        free(a.cp);
    }
    pmFreeResult(rp);
}

int main(int argc, char **argv)
{
    char *words[] = {"probe", "-h", "somewhere", "a metric"};
    int ctx;

    if (argc != 2) {
        fprintf(stderr, "Usage: probe_clientid HOST\n");
        return 2;
    }
    if ((ctx = pmNewContext(PM_CONTEXT_HOST, argv[1])) < 0) {
        printf("pmNewContext: %s\n", pmErrStr(ctx));
        return 1;
    }
    printf("__pmSetClientId: %d\n", __pmSetClientId("probe id one"));
    whoami("probe id one");
    printf("__pmSetClientIdArgv: %d\n", __pmSetClientIdArgv(4, words));
    whoami("-h somewhere a metric");
    printf("__pmSetClientIdArgv none: %d\n", __pmSetClientIdArgv(0, words));
    whoami(" ");
    pmDestroyContext(ctx);
    if ((ctx = pmNewContext(PM_CONTEXT_LOCAL, NULL)) < 0) {
        printf("local: %s\n", pmErrStr(ctx));
        return 0;
    }
    printf("__pmSetClientId local: %s\n", pmErrStr(__pmSetClientId("x")));
    return 0;
}
