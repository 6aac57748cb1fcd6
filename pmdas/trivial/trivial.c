/*
 * trivial.c - the "trivial" example agent (domain 250), built as the DSO
 * pmda_trivial.so (entry point trivial_init) and, with main.c, as the
 * daemon pmdatrivial.
 *
 * One metric, trivial.time (250.0.0): the current time in seconds since
 * the Unix epoch, a U64 counter.  Everything but the value itself is
 * answered by libpcp_pmda from the one-entry table below; stores are
 * refused by the library's default (PM_ERR_PERMISSION).
 *
 * The agent declares PMDA interface 2, as PCP's does, so it has no label
 * method of its own; its fetch callback returns 1, a value under every
 * interface's rules.
 */
#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include <stdio.h>
#include <time.h>

#include "trivial.h"

static pmdaMetric metrics[] = {
    {NULL,
     {PMDA_PMID(0, 0), PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER,
      PMDA_PMUNITS(0, 1, 0, 0, PM_TIME_SEC, 0)}},
};

static char agent_name[] = "trivial DSO";
static char help_path[MAXPATHLEN];

int trivial_path(char *buf, size_t len, const char *file)
{
    int sep = pmPathSeparator();
    int n = snprintf(buf, len, "%s%ctrivial%c%s", pmGetConfig("PCP_PMDAS_DIR"), sep, sep, file);
    return n >= 0 && (size_t)n < len;
}

/* pmdaFetch's callback: trivial.time and nothing else. */
static int fetch_value(pmdaMetric *mdesc, unsigned int inst, pmAtomValue *atom)
{
    pmID pmid = mdesc->m_desc.pmid;

    if (pmID_cluster(pmid) != 0 || pmID_item(pmid) != 0)
        return PM_ERR_PMID;
    if (inst != PM_IN_NULL)
        return PM_ERR_INST;
    atom->ull = (unsigned long long)time(NULL);
    return PMDA_FETCH_STATIC;
}

void trivial_setup(pmdaInterface *dp)
{
    if (dp->status != 0)
        return;
    pmdaSetFetchCallBack(dp, fetch_value);
    pmdaInit(dp, NULL, 0, metrics, (int)(sizeof metrics / sizeof metrics[0]));
}

/* The DSO entry point named in pmcd.conf or given to pmSpecLocalPMDA. */
void __PMDA_INIT_CALL trivial_init(pmdaInterface *dp)
{
    if (!trivial_path(help_path, sizeof help_path, "help")) {
        pmNotifyErr(LOG_ERR, "trivial: $PCP_PMDAS_DIR is too long");
        help_path[0] = '\0';
    }
    pmdaDSO(dp, PMDA_INTERFACE_2, agent_name, help_path[0] ? help_path : NULL);
    trivial_setup(dp);
}
