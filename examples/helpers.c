/*
 * helpers.c - a tour of libpcp's value and text helpers: error codes,
 * identifiers, units, unit conversion, value extraction and printing.
 * Built as bin/pmkit_helpers_demo, to be run by hand (`make demo` does
 * not).  Uses only <pcp/pmapi.h>; builds unchanged against PCP's libpcp.
 */
#include <pcp/pmapi.h>

static pmUnits units(int ds, int dt, int dc, int ss, int st, int sc)
{
    pmUnits u;

    memset(&u, 0, sizeof(u));
    u.dimSpace = ds, u.dimTime = dt, u.dimCount = dc;
    u.scaleSpace = (unsigned)ss, u.scaleTime = (unsigned)st, u.scaleCount = sc;
    return u;
}

static void convert(double v, pmUnits from, pmUnits to)
{
    pmAtomValue in, out;
    char a[64], b[64];

    in.d = v;
    pmUnitsStr_r(&from, a, sizeof(a));
    pmUnitsStr_r(&to, b, sizeof(b));
    if (pmConvScale(PM_TYPE_DOUBLE, &in, &from, &out, &to) == 0)
        printf("  %g %s = %g %s\n", v, a, out.d, b);
}

int main(void)
{
    int codes[] = {PM_ERR_NAME, PM_ERR_NOAGENT, PM_ERR_CONV, -2};
    pmID id = pmID_build(60, 0, 20);
    pmValue v;
    pmAtomValue a;
    double d = 1234567.891;
    struct {
        pmValueBlock hdr;
        char pad[8];
    } block;

    printf("Error codes:\n");
    for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
        printf("  %6d  %s\n", codes[i], pmErrStr(codes[i]));

    printf("Identifiers:\n  pmID %s (domain %u cluster %u item %u), InDom %s\n", pmIDStr(id),
           pmID_domain(id), pmID_cluster(id), pmID_item(id), pmInDomStr(pmInDom_build(60, 2)));

    printf("Units and conversions:\n");
    convert(1536, units(1, 0, 0, PM_SPACE_BYTE, 0, 0), units(1, 0, 0, PM_SPACE_KBYTE, 0, 0));
    convert(1, units(1, -1, 0, PM_SPACE_MBYTE, PM_TIME_SEC, 0),
            units(1, -1, 0, PM_SPACE_KBYTE, PM_TIME_MSEC, 0));
    convert(5400, units(0, 1, 0, 0, PM_TIME_SEC, 0), units(0, 1, 0, 0, PM_TIME_HOUR, 0));

    printf("Extraction:\n");
    v.inst = PM_IN_NULL;
    v.value.lval = -5;
    printf("  -5 as U32: %s\n",
           pmErrStr(pmExtractValue(PM_VAL_INSITU, &v, PM_TYPE_32, &a, PM_TYPE_U32)));
    memset(&block, 0, sizeof(block));
    block.hdr.vtype = PM_TYPE_DOUBLE;
    block.hdr.vlen = PM_VAL_HDR_SIZE + sizeof(double);
    memcpy(block.hdr.vbuf, &d, sizeof(d));
    v.value.pval = &block.hdr;
    if (pmExtractValue(PM_VAL_SPTR, &v, PM_TYPE_DOUBLE, &a, PM_TYPE_64) == 0)
        printf("  %.3f as 64-bit: %s\n", d, pmAtomStr(&a, PM_TYPE_64));
    printf("  pmNumberStr: [%s]\n  pmPrintValue: [", pmNumberStr(d));
    fflush(stdout);
    pmPrintValue(stdout, PM_VAL_SPTR, PM_TYPE_DOUBLE, &v, 12);
    printf("]\n");
    return 0;
}
