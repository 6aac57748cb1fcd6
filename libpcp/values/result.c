/*
 * result.c - releasing and ordering what the PMAPI hands back: fetch
 * results (pmFreeResult, pmFreeHighResResult, pmSortInstances and its
 * high-resolution form), their value sets, and agents' instance answers.
 *
 * pmFreeResult is PCP's: DPTR payloads, then value sets, then the result,
 * except that a payload inside its value set's own block (as pmdaFetch
 * builds them, one malloc per metric) goes with the value set, and value
 * sets and payloads inside the result's own block (as an archive's records
 * are decoded, one malloc per record) go with the result, the way PCP's
 * skips payloads inside a pinned PDU buffer.  An instance answer's
 * names are freed unless they lie in its namelist's block.
 */
#include "support.h"
#include "values.h"

#include <stdlib.h>

/* Free n value sets and their DPTR payloads, except what lies inside the
 * block at owner (osize bytes; NULL for none): an archive's result holds
 * its value sets and payloads in its own block. */
static void free_vsets_in(pmValueSet **vsets, int n, const void *owner, size_t osize)
{
    for (int i = 0; i < n; i++) {
        pmValueSet *vs = vsets[i];
        if (vs == NULL)
            continue;
        if (owner != NULL && pmkit_in_block(owner, osize, vs))
            continue;
        if (vs->numval > 0 && vs->valfmt == PM_VAL_DPTR) {
            size_t size = pmkit_block_size(vs);
            for (int j = 0; j < vs->numval; j++)
                if (!pmkit_in_block(vs, size, vs->vlist[j].value.pval) &&
                    (owner == NULL || !pmkit_in_block(owner, osize, vs->vlist[j].value.pval)))
                    free(vs->vlist[j].value.pval);
        }
        free(vs);
        vsets[i] = NULL;
    }
}

void pmkit_free_vsets(pmValueSet **vsets, int n)
{
    free_vsets_in(vsets, n, NULL, 0);
}

void __pmFreeResultValues(pmResult *res)
{
    pmkit_free_vsets(res->vset, res->numpmid);
}

void pmFreeResult(pmResult *result)
{
    if (result == NULL)
        return;
    free_vsets_in(result->vset, result->numpmid, result, pmkit_block_size(result));
    free(result);
}

void pmFreeHighResResult(pmHighResResult *result)
{
    if (result == NULL)
        return;
    free_vsets_in(result->vset, result->numpmid, result, pmkit_block_size(result));
    free(result);
}

/* <pcp/deprecated.h> maps pmFreeHighResResult to this name. */
PMKIT_ALIAS(__pmFreeHighResResult, pmFreeHighResResult);

static int by_inst(const void *a, const void *b)
{
    int x = ((const pmValue *)a)->inst, y = ((const pmValue *)b)->inst;

    return (x > y) - (x < y);
}

static void sort_vsets(pmValueSet **vsets, int n)
{
    for (int i = 0; i < n; i++)
        if (vsets[i] != NULL && vsets[i]->numval > 1)
            qsort(vsets[i]->vlist, (size_t)vsets[i]->numval, sizeof(pmValue), by_inst);
}

void pmSortInstances(pmResult *result)
{
    sort_vsets(result->vset, result->numpmid);
}

void pmSortHighResInstances(pmHighResResult *result)
{
    sort_vsets(result->vset, result->numpmid);
}

void __pmFreeInResult(pmInResult *res)
{
    if (res == NULL)
        return;
    if (res->namelist != NULL) {
        size_t size = pmkit_block_size(res->namelist);
        for (int i = 0; i < res->numinst; i++)
            if (!pmkit_in_block(res->namelist, size, res->namelist[i]))
                free(res->namelist[i]);
    }
    free(res->namelist);
    free(res->instlist);
    free(res);
}
