/*
 * probe_system_creds_agent.c - a DSO agent (domain 244) for
 * system_creds_diff.sh: it prints every attribute a local context hands it
 * (context, attribute, length and value, this process's ID shown as PID)
 * and the context of each fetch.  Built once against each libpcp_pmda.
 * $CREDS_FLAGS are the communication flags it sets (pmdaSetCommFlags),
 * $CREDS_IFACE its interface (default 7).
 *
 *   creds.value  0.0  32, always 7
 */
#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pmdaMetric metrics[] = {
    {NULL,
     {PMDA_PMID(0, 0), PM_TYPE_32, PM_INDOM_NULL, PM_SEM_INSTANT, PMDA_PMUNITS(0, 0, 0, 0, 0, 0)}},
};

static int attribute(int ctx, int attr, const char *value, int length, pmdaExt *pmda)
{
    char pid[24];

    snprintf(pid, sizeof(pid), "%d", (int)getpid());
    printf("agent: attribute ctx=%d attr=%d length=%d value=", ctx, attr, length);
    if (length == (int)strlen(pid) + 1 && memcmp(value, pid, (size_t)length) == 0)
        printf("PID");
    else
        for (int i = 0; i < length; i++)
            printf(value[i] >= ' ' && value[i] < 0x7f ? "%c" : "\\%03o", (unsigned char)value[i]);
    printf("\n");
    return pmdaAttribute(ctx, attr, value, length, pmda);
}

static int fetch_cb(pmdaMetric *m, unsigned int inst, pmAtomValue *a)
{
    (void)m, (void)inst;
    a->l = 7;
    return 1;
}

static int fetch(int n, pmID *list, pmResult **res, pmdaExt *pmda)
{
    printf("agent: fetch e_context=%d\n", pmda->e_context);
    return pmdaFetch(n, list, res, pmda);
}

void creds_init(pmdaInterface *dp); /* dlsym'd by libpcp */
void creds_init(pmdaInterface *dp)
{
    const char *flags = getenv("CREDS_FLAGS"), *iface = getenv("CREDS_IFACE");

    pmdaDSO(dp, iface != NULL ? atoi(iface) : PMDA_INTERFACE_7, "creds", NULL);
    if (dp->comm.pmda_interface >= PMDA_INTERFACE_6)
        dp->version.six.attribute = attribute;
    dp->version.any.fetch = fetch;
    pmdaSetFetchCallBack(dp, fetch_cb);
    if (flags != NULL)
        pmdaSetCommFlags(dp, atoi(flags));
    pmdaInit(dp, NULL, 0, metrics, 1);
    printf("agent: init interface %d\n", dp->comm.pmda_interface);
}
