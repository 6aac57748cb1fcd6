/*
 * clientid.c - a client names itself to pmcd (<pcp/libpcp.h>):
 * __pmSetClientId stores "HOST (ADDRESS) ID" into pmcd.client.whoami
 * through the current context, where HOST is this machine's name as its
 * first resolvable address names it back (else gethostname's, without an
 * address); __pmSetClientIdArgv makes ID of the command line, its words
 * joined by spaces.  PCP's clients (pmval, pmstore, ...) call it on their
 * host contexts; the value is what Debian's libpcp stores
 * (pmval_diff.sh --debian-bin runs Debian's pmval on it).
 *
 * The errors are pmLookupName's and pmStore's (a local context has no
 * pmcd.client.whoami: PM_ERR_NAME) or -ENOMEM.
 */
#include <pcp/pmapi.h>
#include <pcp/libpcp.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* This machine as named back by its first address that has a name, and
 * that address; else gethostname's name and no address (NULL). */
static void whoami_host(char *host, size_t len, char **addrstr)
{
    __pmHostEnt *ent;
    __pmSockAddr *addr;
    void *ix = NULL;

    *addrstr = NULL;
    if (gethostname(host, len) < 0)
        host[0] = '\0';
    host[len - 1] = '\0';
    if ((ent = __pmGetAddrInfo(host)) == NULL)
        return;
    while ((addr = __pmHostEntGetSockAddr(ent, &ix)) != NULL) {
        char *name = __pmGetNameInfo(addr);
        if (name != NULL) {
            snprintf(host, len, "%s", name);
            free(name);
            *addrstr = __pmSockAddrToString(addr);
            __pmSockAddrFree(addr);
            break;
        }
        __pmSockAddrFree(addr);
    }
    __pmHostEntFree(ent);
}

int __pmSetClientId(const char *id)
{
    const char *name = "pmcd.client.whoami";
    char host[MAXHOSTNAMELEN];
    char *addrstr, *text;
    pmResult *store;
    pmID pmid;
    size_t len;
    int sts;

    if ((sts = pmLookupName(1, &name, &pmid)) < 0)
        return sts;
    whoami_host(host, sizeof(host), &addrstr);
    len = strlen(host) + strlen(id) + 2 + (addrstr != NULL ? strlen(addrstr) + 3 : 0);
    if ((text = malloc(len)) == NULL) {
        free(addrstr);
        return -ENOMEM;
    }
    if (addrstr != NULL)
        snprintf(text, len, "%s (%s) %s", host, addrstr, id);
    else
        snprintf(text, len, "%s %s", host, id);
    free(addrstr);
    if ((store = calloc(1, sizeof(pmResult))) == NULL ||
        (store->vset[0] = calloc(1, sizeof(pmValueSet))) == NULL) {
        free(store);
        free(text);
        return -ENOMEM;
    }
    store->numpmid = 1;
    store->vset[0]->pmid = pmid;
    store->vset[0]->numval = 1;
    store->vset[0]->vlist[0].inst = PM_IN_NULL;
    sts = __pmStuffValue(&(pmAtomValue){.cp = text}, &store->vset[0]->vlist[0], PM_TYPE_STRING);
    if (sts >= 0) {
        store->vset[0]->valfmt = sts;
        sts = pmStore(store);
    }
    pmFreeResult(store); /* frees the value block too */
    free(text);
    return sts;
}

int __pmSetClientIdArgv(int argc, char **argv)
{
    size_t len = 1;
    char *id;
    int sts;

    if (argc < 1)
        return -ENOMEM; /* PCP's answer: no words, no id */
    for (int i = 0; i < argc; i++)
        len += strlen(argv[i]) + 1;
    if ((id = malloc(len)) == NULL)
        return -ENOMEM;
    id[0] = '\0';
    for (int i = 0; i < argc; i++) {
        if (i > 0)
            strcat(id, " ");
        strcat(id, argv[i]);
    }
    sts = __pmSetClientId(id);
    free(id);
    return sts;
}
