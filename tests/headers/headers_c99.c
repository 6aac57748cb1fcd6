/*
 * headers_c99.c - <pcp/pmapi.h> and <pcp/pmda.h> under strict C99.
 *
 * Built with -std=c99 -pedantic-errors -Werror and the full warning set;
 * it uses the macros and initialiser styles PCP's own agents use (the
 * option tables of simple.c, PMDA_PMID, PMDA_PMUNITS, positional pmdaMetric
 * rows) and checks a few of their values at run time.
 */
#include <pcp/pmapi.h>
#include <pcp/pmda.h>

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
    return oserror() < 0;
}
