/*
 * headers_c99.c - PCP's public headers under strict C99: <pcp/pmapi.h>,
 * <pcp/pmda.h>, <pcp/libpcp.h>, <pcp/deprecated.h>, <pcp/pmdaroot.h>, <pcp/archive.h>
 * and <pcp/trace.h> (<pcp/mmv_stats.h> is not ISO C, as PCP's is not: its
 * MMV_INDOM_NULL enumerator is PM_INDOM_NULL, beyond int).
 *
 * Built with -std=c99 -pedantic-errors -Werror and the full warning set;
 * it uses the macros and initialiser styles PCP's own agents use (the
 * option tables of simple.c, PMDA_PMID, PMDA_PMUNITS, positional pmdaMetric
 * rows) and checks a few of their values at run time.
 */
#include <pcp/pmapi.h>
#include <pcp/pmda.h>
#include <pcp/libpcp.h>
#include <pcp/deprecated.h>
#include <pcp/pmdaroot.h>
#include <pcp/archive.h>
#include <pcp/trace.h>

static pmLongOptions longopts[] = {
    PMDA_OPTIONS_HEADER("Options"),
    PMOPT_DEBUG,
    PMDAOPT_DOMAIN,
    PMDAOPT_LOGFILE,
    PMDAOPT_USERNAME,
    PMOPT_HELP,
    PMDA_OPTIONS_TEXT("\nExactly one of the following options may appear:"),
    PMDAOPT_INET,
    PMDAOPT_PIPE,
    PMDAOPT_UNIX,
    PMDAOPT_IPV6,
    PMDA_OPTIONS_END,
};

static pmdaOptions opts = {
    .short_options = "D:d:i:l:pu:U:6:?",
    .long_options = longopts,
};

static pmLongOptions tool_options[] = {PMAPI_GENERAL_OPTIONS, PMAPI_OPTIONS_END};

static pmdaMetric metrics[] = {
    {NULL,
     {PMDA_PMID(0, 0), PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT, PMDA_PMUNITS(0, 0, 0, 0, 0, 0)}},
    {NULL,
     {PMDA_PMID(1, 2), PM_TYPE_DOUBLE, 0, PM_SEM_COUNTER,
      PMDA_PMUNITS(1, -1, 0, PM_SPACE_KBYTE, PM_TIME_SEC, 0)}},
};

int main(void)
{
    pmdaInterface dispatch;
    pmID id = PMDA_PMID(1, 2);

    memset(&dispatch, 0, sizeof(dispatch));
    dispatch.comm.pmda_interface = PMDA_INTERFACE_7;
    if (opts.long_options[1].short_opt != 'D' || tool_options[1].short_opt != 'A')
        return 1;
    if (id != 0x402 || metrics[1].m_desc.units.dimTime != -1 ||
        metrics[1].m_desc.units.scaleSpace != PM_SPACE_KBYTE)
        return 1;
    if (dispatch.comm.pmda_interface != 7 || PM_ERR_NAME != -12357)
        return 1;
    /* The private headers' macros and inline functions, as PCP's programs use them. */
    {
        __pmResult r;
        __pmHashCtl hc = {0, 0, NULL, NULL, 0};
        __pmdaRootPDUHdr hdr = {PDUROOT_INFO, (int)sizeof(__pmdaRootPDUInfo), 0, ROOT_PDU_VERSION};
        int lc = 0;

        memset(&r, 0, sizeof(r));
        r.numpmid = 3;
        PMLC_SET_ON(lc, 1);
        PMLC_SET_DELTA(lc, 5000);
        if (__pmOffsetResult(&r)->numpmid != 3 || PM_PDU_SIZE_BYTES(5) != 8 || hc.nodes != 0 ||
            PMLC_GET_DELTA(lc) != 5000 || !PMLC_GET_ON(lc) || hdr.length != 24 ||
            DBG_TRACE_APPL0 != 2048 || PDU_FINISH - PDU_START != PDU_MAX)
            return 1;
    }
    return oserror() < 0;
}
