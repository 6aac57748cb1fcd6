/*
 * example.c - a small performance metrics agent, built outside pmkit's
 * tree from the installed package alone (see README.md).
 *
 * Domain EXAMPLE comes from domain.h, generated from this project's
 * stdpmid.  Four metrics, all answered by libpcp_pmda from the tables
 * below except the values themselves:
 *   example.greeting     0.0  string, a fixed text
 *   example.fetches      0.1  counter, fetch requests answered so far
 *   example.scale        0.2  a factor that pmStore may change (default 1)
 *   example.shelf.items  1.0  per shelf (top, middle, bottom): a fixed
 *                             count times example.scale
 * As a DSO (pmda_example.so, entry point example_init) it serves local
 * contexts; with main.c it is the daemon pmdaexample.  Help text is read
 * from $PCP_PMDAS_DIR/example/help.{dir,pag}.
 *
 * Deliberately small: no labels of its own, no dynamic instances, nothing
 * kept across restarts.
 */
#include "example.h"

#include <stdio.h>

#include "domain.h"

enum { SHELF_INDOM = 0 }; /* instance domain serial, made a pmInDom by pmdaInit */

static pmdaInstid shelves[] = {{0, "top"}, {1, "middle"}, {2, "bottom"}};
static const unsigned long long shelf_items[] = {3, 5, 8};

static pmdaIndom indoms[] = {{SHELF_INDOM, 3, shelves}};

static pmdaMetric metrics[] = {
    {NULL,
     {PMDA_PMID(0, 0), PM_TYPE_STRING, PM_INDOM_NULL, PM_SEM_DISCRETE,
      PMDA_PMUNITS(0, 0, 0, 0, 0, 0)}},
    {NULL,
     {PMDA_PMID(0, 1), PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_COUNTER,
      PMDA_PMUNITS(0, 0, 1, 0, 0, PM_COUNT_ONE)}},
    {NULL,
     {PMDA_PMID(0, 2), PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_DISCRETE,
      PMDA_PMUNITS(0, 0, 0, 0, 0, 0)}},
    {NULL,
     {PMDA_PMID(1, 0), PM_TYPE_U64, SHELF_INDOM, PM_SEM_INSTANT,
      PMDA_PMUNITS(0, 0, 1, 0, 0, PM_COUNT_ONE)}},
};

static char greeting[] = "hello from a pmkit agent";
static unsigned int fetches;
static unsigned int scale = 1;
static char help_path[MAXPATHLEN];

const char *example_help_path(void)
{
    int sep = pmPathSeparator();
    int n = pmsprintf(help_path, sizeof help_path, "%s%cexample%chelp",
                      pmGetConfig("PCP_PMDAS_DIR"), sep, sep);

    if (n < 0 || (size_t)n >= sizeof help_path - 1)
        help_path[0] = '\0';
    return help_path;
}

/* One value for pmdaFetch: metric mdesc, instance inst. */
static int fetch_value(pmdaMetric *mdesc, unsigned int inst, pmAtomValue *atom)
{
    unsigned int cluster = pmID_cluster(mdesc->m_desc.pmid);
    unsigned int item = pmID_item(mdesc->m_desc.pmid);

    if (cluster == 1 && item == 0) {
        if (inst >= sizeof shelf_items / sizeof shelf_items[0])
            return PM_ERR_INST;
        atom->ull = shelf_items[inst] * scale;
        return PMDA_FETCH_STATIC;
    }
    if (cluster != 0 || inst != PM_IN_NULL)
        return cluster != 0 ? PM_ERR_PMID : PM_ERR_INST;
    switch (item) {
    case 0:
        atom->cp = greeting;
        return PMDA_FETCH_STATIC;
    case 1:
        atom->ul = fetches;
        return PMDA_FETCH_STATIC;
    case 2:
        atom->ul = scale;
        return PMDA_FETCH_STATIC;
    }
    return PM_ERR_PMID;
}

/* Counts the request, then lets the library build the result. */
static int example_fetch(int numpmid, pmID *pmids, pmResult **resp, pmdaExt *pmda)
{
    fetches++;
    return pmdaFetch(numpmid, pmids, resp, pmda);
}

/* Only example.scale may be stored, with one value. */
static int example_store(pmResult *result, pmdaExt *pmda)
{
    (void)pmda;
    for (int i = 0; i < result->numpmid; i++) {
        const pmValueSet *vs = result->vset[i];

        if (pmID_cluster(vs->pmid) != 0 || pmID_item(vs->pmid) != 2)
            return PM_ERR_PERMISSION;
        if (vs->numval != 1 || vs->valfmt != PM_VAL_INSITU)
            return PM_ERR_BADSTORE;
        scale = (unsigned int)vs->vlist[0].value.lval;
    }
    return 0;
}

void example_setup(pmdaInterface *dp)
{
    if (dp->status != 0)
        return;
    dp->version.any.fetch = example_fetch;
    dp->version.any.store = example_store;
    pmdaSetFetchCallBack(dp, fetch_value);
    pmdaInit(dp, indoms, (int)(sizeof indoms / sizeof indoms[0]), metrics,
             (int)(sizeof metrics / sizeof metrics[0]));
}

/* The DSO entry point, named in pmcd.conf or in a pmSpecLocalPMDA spec. */
void __PMDA_INIT_CALL example_init(pmdaInterface *dp)
{
    static char name[] = "example DSO";

    /* help_path itself, as pmdaDSO takes a char * (PCP's signature) */
    example_help_path();
    pmdaDSO(dp, PMDA_INTERFACE_7, name, help_path[0] != '\0' ? help_path : NULL);
    example_setup(dp);
}
