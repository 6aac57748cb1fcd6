/*
 * defaults.c - libpcp_pmda's default methods for the requests an agent
 * did not ask the library to answer from its tables: stores are refused,
 * and the dynamic-namespace and attribute methods report "not mine".
 *
 * The table-driven methods (pmdaFetch, pmdaDesc, pmdaInstance, pmdaText,
 * pmdaProfile) and agent set-up live in their own files.
 */
#include <pcp/pmapi.h>
#include <pcp/pmda.h>

int pmdaStore(pmResult *result, pmdaExt *pmda)
{
    (void)result;
    (void)pmda;
    return PM_ERR_PERMISSION;
}

int pmdaPMID(const char *name, pmID *pmid, pmdaExt *pmda)
{
    (void)name;
    (void)pmid;
    (void)pmda;
    return PM_ERR_NAME;
}

int pmdaName(pmID pmid, char ***names, pmdaExt *pmda)
{
    (void)pmid;
    (void)names;
    (void)pmda;
    return PM_ERR_PMID;
}

int pmdaChildren(const char *name, int traverse, char ***kids, int **sts, pmdaExt *pmda)
{
    (void)name;
    (void)traverse;
    (void)kids;
    (void)sts;
    (void)pmda;
    return PM_ERR_NAME;
}

int pmdaAttribute(int ctx, int attr, const char *value, int length, pmdaExt *pmda)
{
    (void)ctx;
    (void)attr;
    (void)value;
    (void)length;
    (void)pmda;
    return 0;
}
