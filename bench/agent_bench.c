/*
 * agent_bench.c - the agent the local-context benchmark loads, built by
 * bench/run once against each library's libpcp_pmda (domain 200).
 *
 *   bench.count      U32, singular          200.0.0
 *   bench.load       DOUBLE, singular       200.0.1
 *   bench.name       STRING, singular       200.0.2
 *   bench.cpu        U64, 16 instances      200.1.3  (indom 200.0)
 *
 * Help comes from $BENCH_AGENT_HELP (help.dir/help.pag written by
 * bench/run with pmkit's newhelp; both libraries read the same files).
 */
#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include <stdlib.h>

static pmdaInstid cpus[16] = {
    {0, "cpu0"},   {1, "cpu1"},   {2, "cpu2"},   {3, "cpu3"},   {4, "cpu4"},   {5, "cpu5"},
    {6, "cpu6"},   {7, "cpu7"},   {8, "cpu8"},   {9, "cpu9"},   {10, "cpu10"}, {11, "cpu11"},
    {12, "cpu12"}, {13, "cpu13"}, {14, "cpu14"}, {15, "cpu15"},
};
static pmdaIndom indoms[] = {{0, 16, cpus}};
static pmdaMetric metrics[] = {
    {NULL,
     {PMDA_PMID(0, 0), PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_COUNTER,
      PMDA_PMUNITS(0, 0, 1, 0, 0, PM_COUNT_ONE)}},
    {NULL,
     {PMDA_PMID(0, 1), PM_TYPE_DOUBLE, PM_INDOM_NULL, PM_SEM_INSTANT,
      PMDA_PMUNITS(0, 0, 0, 0, 0, 0)}},
    {NULL,
     {PMDA_PMID(0, 2), PM_TYPE_STRING, PM_INDOM_NULL, PM_SEM_DISCRETE,
      PMDA_PMUNITS(0, 0, 0, 0, 0, 0)}},
    {NULL,
     {PMDA_PMID(1, 3), PM_TYPE_U64, 0, PM_SEM_COUNTER, PMDA_PMUNITS(0, 1, 0, 0, PM_TIME_MSEC, 0)}},
};
static unsigned int count;

static int fetch_cb(pmdaMetric *m, unsigned int inst, pmAtomValue *atom)
{
    switch (pmID_item(m->m_desc.pmid)) {
    case 0:
        atom->ul = count++;
        return 1;
    case 1:
        atom->d = 0.25 * (double)(count & 7);
        return 1;
    case 2:
        atom->cp = "benchmark";
        return 1;
    case 3:
        if (inst >= 16)
            return PM_ERR_INST;
        atom->ull = (unsigned long long)inst * 1000u;
        return 1;
    }
    return PM_ERR_PMID;
}

void bench_init(pmdaInterface *dp);
void bench_init(pmdaInterface *dp)
{
    pmdaDSO(dp, PMDA_INTERFACE_5, "bench", getenv("BENCH_AGENT_HELP"));
    if (dp->status != 0)
        return;
    pmdaSetFetchCallBack(dp, fetch_cb);
    pmdaInit(dp, indoms, 1, metrics, 4);
}
