// headers_cxx.cpp - PCP's public headers (<pcp/pmapi.h>, <pcp/pmda.h>,
// <pcp/libpcp.h>, <pcp/deprecated.h>, <pcp/pmdaroot.h>, <pcp/archive.h>,
// <pcp/mmv_stats.h>, <pcp/mmv_dev.h>, <pcp/trace.h>) compiled as C++11
// with -pedantic-errors -Werror: declarations get C linkage, macros expand
// to valid C++ (positional initialisers; C++11 has no designated ones).
#include <pcp/pmapi.h>
#include <pcp/pmda.h>
#include <pcp/libpcp.h>
#include <pcp/deprecated.h>
#include <pcp/pmdaroot.h>
#include <pcp/archive.h>
#include <pcp/mmv_dev.h>
#include <pcp/trace.h>

static pmLongOptions longopts[] = {
    PMDA_OPTIONS_HEADER("Options"), PMOPT_DEBUG, PMDAOPT_DOMAIN, PMDAOPT_LOGFILE,
    PMOPT_HELP, PMDA_OPTIONS_END,
};

static pmdaMetric metrics[] = {
    { NULL, { PMDA_PMID(3, 4), PM_TYPE_64, PM_INDOM_NULL, PM_SEM_DISCRETE,
              PMDA_PMUNITS(0, 1, 0, 0, PM_TIME_MSEC, 0) } },
};

int main()
{
    // Function pointers from the C side must convert without casts.
    char *(*errstr)(int) = pmErrStr;
    int (*store)(pmResult *, pmdaExt *) = pmdaStore;
    pmdaInterface dispatch = pmdaInterface();

    dispatch.version.any.store = store;
    if (errstr(PM_ERR_NAME)[0] != 'U' || dispatch.version.seven.store != store)
        return 1;
    if (metrics[0].m_desc.pmid != ((3u << 10) | 4u) || metrics[0].m_desc.units.dimTime != 1)
        return 1;
    if (longopts[1].short_opt != 'D' || sizeof(pmUnits) != 4 || sizeof(pmValueSet) != 32)
        return 1;
    __pmResult r = __pmResult();
    r.numpmid = 2;
    if (__pmOffsetHighResResult(&r)->numpmid != 2 || sizeof(__pmContext) != 168 ||
        sizeof(__pmdaRootPDUStart) != 4200 || PM_HASH_WALK_DELETE_STOP != 4)
        return 1;
    return 0;
}
