/*
 * extract.c - pmExtractValue: take one pmValue of a given type out of its
 * result encoding (in situ or a value block) and convert it to another
 * type, with PCP's rules for truncation (PM_ERR_TRUNC), sign loss
 * (PM_ERR_SIGN) and impossible conversions (PM_ERR_CONV).
 *
 * Two steps: decode() checks that the encoding matches the input type and
 * reads the value into a tagged number (or string / aggregate block);
 * convert() applies the range rules for the output type.  Out-of-range
 * floating point values are never handed to a C cast (that would be
 * undefined behaviour); they are detected first.  STRING and AGGREGATE
 * values only convert to themselves, as malloc'd copies the caller frees.
 */
#include "values.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

typedef enum { K_I32, K_U32, K_I64, K_U64, K_FLT, K_DBL, K_STR, K_AGG } kind;

typedef struct {
    kind k;                 /* what the input holds (K_I32 when zeroed) */
    int64_t i;              /* K_I32, K_I64 */
    uint64_t u;             /* K_U32, K_U64 */
    double d;               /* K_FLT (widened), K_DBL */
    const pmValueBlock *vb; /* K_STR, K_AGG */
} number;

/* Read the input according to valfmt and itype; PM_ERR_CONV on mismatch. */
static int decode(int valfmt, const pmValue *ival, int itype, number *n)
{
    const pmValueBlock *vb;
    unsigned vlen;

    if (valfmt == PM_VAL_INSITU) {
        int32_t l = ival->value.lval;
        float f;
        switch (itype) {
        case PM_TYPE_32:
        case PM_TYPE_UNKNOWN:
            n->k = K_I32, n->i = l;
            return 0;
        case PM_TYPE_U32:
            n->k = K_U32, n->u = (uint32_t)l;
            return 0;
        case PM_TYPE_FLOAT: /* legacy: the 32 bits are a float */
            memcpy(&f, &l, sizeof(f));
            n->k = K_FLT, n->d = f;
            return 0;
        default:
            return PM_ERR_CONV;
        }
    }
    if (valfmt != PM_VAL_DPTR && valfmt != PM_VAL_SPTR)
        return PM_ERR_CONV;
    vb = ival->value.pval;
    if (vb == NULL || ((int)vb->vtype != itype && vb->vtype != 0))
        return PM_ERR_CONV;
    vlen = vb->vlen;
    switch (itype) {
    case PM_TYPE_64:
    case PM_TYPE_U64:
    case PM_TYPE_DOUBLE:
        if (vlen != PM_VAL_HDR_SIZE + 8)
            return PM_ERR_CONV;
        if (itype == PM_TYPE_64) {
            memcpy(&n->i, vb->vbuf, 8);
            n->k = K_I64;
        } else if (itype == PM_TYPE_U64) {
            memcpy(&n->u, vb->vbuf, 8);
            n->k = K_U64;
        } else {
            memcpy(&n->d, vb->vbuf, 8);
            n->k = K_DBL;
        }
        return 0;
    case PM_TYPE_FLOAT: {
        float f;
        if (vlen != PM_VAL_HDR_SIZE + 4)
            return PM_ERR_CONV;
        memcpy(&f, vb->vbuf, 4);
        n->k = K_FLT, n->d = f;
        return 0;
    }
    case PM_TYPE_STRING:
    case PM_TYPE_AGGREGATE:
        if (vlen < PM_VAL_HDR_SIZE)
            return PM_ERR_CONV;
        n->k = itype == PM_TYPE_STRING ? K_STR : K_AGG;
        n->vb = vb;
        return 0;
    default:
        return PM_ERR_CONV;
    }
}

/* Truncate a finite double toward zero as the hardware's conversion does;
 * values the caller has not range-checked saturate to INT64_MIN, which is
 * what x86-64 produces for them. */
static int64_t dbl_to_i64(double d)
{
    if (isnan(d) || d >= 9223372036854775808.0 || d < -9223372036854775808.0)
        return INT64_MIN;
    return (int64_t)d;
}

static int to_i32(const number *n, pmAtomValue *o)
{
    switch (n->k) {
    case K_I32:
        o->l = (int32_t)n->i;
        return 0;
    case K_U32:
    case K_U64:
        if (n->u > 0x7fffffffu)
            return PM_ERR_TRUNC;
        o->l = (int32_t)n->u;
        return 0;
    case K_I64: /* PCP does not check large negatives: they wrap */
        if (n->i > 0x7fffffff)
            return PM_ERR_TRUNC;
        o->l = (int32_t)(uint32_t)(uint64_t)n->i;
        return 0;
    default:
        if (n->d >= 2147483647.0 || n->d <= -2147483647.0)
            return PM_ERR_TRUNC;
        /* NaN passes both checks; x86-64's 32-bit conversion yields INT32_MIN */
        o->l = isnan(n->d) ? INT32_MIN : (int32_t)dbl_to_i64(n->d);
        return 0;
    }
}

static int to_u32(const number *n, pmAtomValue *o)
{
    switch (n->k) {
    case K_I32:
    case K_I64:
        if (n->i < 0)
            return PM_ERR_SIGN;
        if (n->i > 0xffffffff)
            return PM_ERR_TRUNC;
        o->ul = (uint32_t)n->i;
        return 0;
    case K_U32:
    case K_U64:
        if (n->u > 0xffffffffu)
            return PM_ERR_TRUNC;
        o->ul = (uint32_t)n->u;
        return 0;
    default:
        if (n->d >= 4294967295.0)
            return PM_ERR_TRUNC;
        if (n->d < 0)
            return PM_ERR_SIGN;
        o->ul = (uint32_t)dbl_to_i64(n->d);
        return 0;
    }
}

static int to_i64(const number *n, pmAtomValue *o)
{
    switch (n->k) {
    case K_I32:
    case K_I64:
        o->ll = n->i;
        return 0;
    case K_U32:
    case K_U64:
        if (n->u > (uint64_t)INT64_MAX)
            return PM_ERR_TRUNC;
        o->ll = (int64_t)n->u;
        return 0;
    default:
        if (n->d >= 9223372036854775807.0)
            return PM_ERR_TRUNC;
        o->ll = dbl_to_i64(n->d);
        return 0;
    }
}

static int to_u64(const number *n, pmAtomValue *o)
{
    switch (n->k) {
    case K_I32:
    case K_I64:
        if (n->i < 0)
            return PM_ERR_SIGN;
        o->ull = (uint64_t)n->i;
        return 0;
    case K_U32:
    case K_U64:
        o->ull = n->u;
        return 0;
    default:
        if (n->d >= 18446744073709551615.0)
            return PM_ERR_TRUNC;
        if (n->d < 0)
            return PM_ERR_SIGN;
        o->ull = n->d >= 9223372036854775808.0
                     ? (uint64_t)dbl_to_i64(n->d - 9223372036854775808.0) ^ (UINT64_C(1) << 63)
                     : (uint64_t)dbl_to_i64(n->d);
        return 0;
    }
}

/* The input as a double, for FLOAT and DOUBLE outputs. */
static double as_double(const number *n)
{
    switch (n->k) {
    case K_I32:
    case K_I64:
        return (double)n->i;
    case K_U32:
    case K_U64:
        return (double)n->u;
    default:
        return n->d;
    }
}

static int to_float(const number *n, pmAtomValue *o, int otype)
{
    if (otype == PM_TYPE_DOUBLE) {
        o->d = as_double(n);
    } else if (n->k == K_I32 || n->k == K_I64) {
        o->f = (float)n->i; /* round once, straight from the integer */
    } else if (n->k == K_U32 || n->k == K_U64) {
        o->f = (float)n->u;
    } else {
        o->f = (float)n->d;
    }
    return 0;
}

static int copy_block(const number *n, pmAtomValue *o, int otype)
{
    size_t len = n->vb->vlen;

    if (otype == PM_TYPE_STRING && n->k == K_STR) {
        char *s = malloc(len - PM_VAL_HDR_SIZE + 1);
        if (s == NULL)
            return -oserror();
        memcpy(s, n->vb->vbuf, len - PM_VAL_HDR_SIZE);
        s[len - PM_VAL_HDR_SIZE] = '\0';
        o->cp = s;
        return 0;
    }
    if (otype == PM_TYPE_AGGREGATE && n->k == K_AGG) {
        pmValueBlock *vb = malloc(len < sizeof(pmValueBlock) ? sizeof(pmValueBlock) : len);
        if (vb == NULL)
            return -oserror();
        memcpy(vb, n->vb, len);
        o->vbp = vb;
        return 0;
    }
    return PM_ERR_CONV;
}

int pmExtractValue(int valfmt, const pmValue *ival, int itype, pmAtomValue *oval, int otype)
{
    number n = {0};
    int sts;

    /* Each converter writes *oval only when it succeeds, so a failure
     * leaves it zeroed; written in place, not through a copy: a 4-byte
     * member stored and the 8-byte union then read back stalls the load
     * (store forwarding fails), a third of a 32-bit extract's time. */
    memset(oval, 0, sizeof(*oval));
    if ((sts = decode(valfmt, ival, itype, &n)) < 0)
        return sts;
    if (n.k == K_STR || n.k == K_AGG)
        return copy_block(&n, oval, otype);
    if (otype == PM_TYPE_32)
        return to_i32(&n, oval);
    if (otype == PM_TYPE_U32)
        return to_u32(&n, oval);
    if (otype == PM_TYPE_64)
        return to_i64(&n, oval);
    if (otype == PM_TYPE_U64)
        return to_u64(&n, oval);
    if (otype == PM_TYPE_FLOAT || otype == PM_TYPE_DOUBLE)
        return to_float(&n, oval, otype);
    return PM_ERR_CONV;
}
