/*
 * values.h - the values room (libpcp/values): identifiers, types, units
 * and values as text, value extraction and conversion, results and value
 * sets, event records.  For the other rooms of libpcp and, through the
 * exported names below, libpcp_pmda.
 */
#ifndef PMKIT_VALUES_H
#define PMKIT_VALUES_H

#include "support.h"

/* "32", "U64", ... for a PM_TYPE_* value; "???" for values PCP has no
 * name for (ids.c). */
const char *pmkit_type_name(int type);

/* The decimal digits of v, written back from end; returns where they
 * start (decimal.c). */
char *pmkit_u64_digits(char *end, uint64_t v);

/* The first p (1..17) significant decimal digits of |d|, rounded as printf
 * rounds them, in *digits (10^(p-1) <= *digits < 10^p; 0 for a zero) with
 * the decimal exponent of the first in *exp10: 0, or -1 where they are not
 * computed exactly here (subnormals, inf, nan, |d| of 2^127 or more or
 * below 10^(p-23), a rounding mode other than to nearest), which the
 * caller leaves to printf (decimal.c). */
int pmkit_sig_digits(double d, int p, uint64_t *digits, int *exp10);

/* printf's exponent of x ("e+05", "e-123") at o; returns its end
 * (decimal.c). */
char *pmkit_exp10_text(char *o, int x);

/* Free n value sets and the value blocks they point to, setting each slot
 * to NULL (result.c). */
void pmkit_free_vsets(pmValueSet **vsets, int n);

/* libpcp's internals that libpcp_pmda shares, exported under PCP's names
 * (result.c): free a pmInResult an agent returned (its arrays, and the
 * names that lie outside its namelist block); free the value sets of a
 * result but not the result. */
PCP_CALL void __pmFreeInResult(pmInResult *res);
PCP_CALL void __pmFreeResultValues(pmResult *res);

/*
 * The packed array of event records: libpcp/pmda/event.c builds it and
 * values/event.c reads it.  A head of PMKIT_EVENT_HEAD bytes (the header
 * word, type << 24 | length, then the record count), then records: a
 * timestamp (two 32-bit words, or two 64-bit ones in a high resolution
 * array), flags, and a count (of parameters, or of records missed), then
 * each parameter: its PMID, a header word (type << 24 | 4 + value bytes)
 * and the value padded with zeros to a multiple of 4.  Words are in the
 * host's order, as PCP's are.
 */
#define PMKIT_EVENT_HEAD            8
#define PMKIT_EVENT_STAMP(highres)  ((highres) ? 16 : 8)
#define PMKIT_EVENT_RECORD(highres) (PMKIT_EVENT_STAMP(highres) + 8)

/* Bytes of a parameter value of type, its header excluded: 4 or 8, -1 for
 * a string or aggregate (their own length), or PM_ERR_TYPE. */
static inline int pmkit_event_value_size(int type)
{
    switch (type) {
    case PM_TYPE_32:
    case PM_TYPE_U32:
    case PM_TYPE_FLOAT:
        return 4;
    case PM_TYPE_64:
    case PM_TYPE_U64:
    case PM_TYPE_DOUBLE:
        return 8;
    case PM_TYPE_STRING:
    case PM_TYPE_AGGREGATE:
    case PM_TYPE_AGGREGATE_STATIC:
        return -1;
    default:
        return PM_ERR_TYPE;
    }
}

/* Debian's structural check of value idx of vsp, an event array of either
 * resolution: 0 (or a count of values at or below 0) or PCP's error for
 * it (event_dump.c, where the walk is the dump's). */
int pmkit_event_check(const pmValueSet *vsp, int idx, int highres);

#endif /* PMKIT_VALUES_H */
