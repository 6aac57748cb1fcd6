/*
 * internal.c - libpcp's internal value and result helpers, as PCP's agents
 * and tools call them (<pcp/libpcp.h>): a value from an atom
 * (__pmStuffValue), an atom from text (__pmStringValue), and results kept
 * with nanosecond timestamps (__pmAllocResult, __pmFreeResult,
 * __pmSortInstances) with the high-resolution result's release.
 *
 * Behaviour and return codes are Debian's libpcp's, observed with probes
 * (tests/oracle/probe_internal.c).  Two differences (docs/compat.md):
 * __pmStringValue clears errno before converting, so a conversion does not
 * fail because an earlier, unrelated call left ERANGE there, and takes 0
 * (and -0) as a float, which PCP's refuses as out of range.
 */
#include "values.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <pcp/libpcp.h>

/* A new value block of type holding the len bytes at src. */
static pmValueBlock *block(int type, const void *src, size_t len)
{
    pmValueBlock *vb = malloc(PM_VAL_HDR_SIZE + len);

    if (vb == NULL)
        return NULL;
    vb->vtype = (unsigned)type & 0xff;
    vb->vlen = (unsigned)(PM_VAL_HDR_SIZE + len) & PM_VAL_VLEN_MAX;
    memcpy(vb->vbuf, src, len);
    return vb;
}

/*
 * 32-bit values go in place (PM_VAL_INSITU); 64-bit ones, floats, doubles
 * and strings into a new value block (PM_VAL_DPTR), an aggregate's block
 * is copied (PM_VAL_DPTR), and a static aggregate's or event array's
 * block is taken as it is (PM_VAL_SPTR).
 */
int __pmStuffValue(const pmAtomValue *avp, pmValue *vp, int type)
{
    pmValueBlock *vb;

    switch (type) {
    case PM_TYPE_32:
    case PM_TYPE_U32:
        vp->value.lval = avp->l;
        return PM_VAL_INSITU;
    case PM_TYPE_64:
    case PM_TYPE_U64:
        vb = block(type, &avp->ll, sizeof(avp->ll));
        break;
    case PM_TYPE_FLOAT:
        vb = block(type, &avp->f, sizeof(avp->f));
        break;
    case PM_TYPE_DOUBLE:
        vb = block(type, &avp->d, sizeof(avp->d));
        break;
    case PM_TYPE_STRING:
        if (avp->cp == NULL)
            return -EINVAL; /* PCP dereferences it */
        vb = block(type, avp->cp, strlen(avp->cp) + 1);
        break;
    case PM_TYPE_AGGREGATE:
        if (avp->vbp == NULL || avp->vbp->vlen < PM_VAL_HDR_SIZE)
            return -EINVAL; /* PCP copies whatever is there */
        vb = block(type, avp->vbp->vbuf, avp->vbp->vlen - PM_VAL_HDR_SIZE);
        break;
    case PM_TYPE_AGGREGATE_STATIC:
    case PM_TYPE_EVENT:
    case PM_TYPE_HIGHRES_EVENT:
        vp->value.pval = avp->vbp;
        return PM_VAL_SPTR;
    default:
        return PM_ERR_TYPE;
    }
    if (vb == NULL)
        return -oserror();
    vp->value.pval = vb;
    return PM_VAL_DPTR;
}

/* After blanks and a sign, does s start with 0x or 0X? */
static int hex_prefix(const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    if (*s == '+' || *s == '-')
        s++;
    return s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
}

/* Is s, after blanks and a sign, 0x and hex digits alone?  (PCP refuses
 * those as floating point numbers, though it takes 0x1p3.) */
static int hex_integer(const char *s)
{
    if (!hex_prefix(s))
        return 0;
    s = strpbrk(s, "xX") + 1;
    return s[strspn(s, "0123456789abcdefABCDEF")] == '\0';
}

static int string_integer(const char *buf, pmAtomValue *avp, int type)
{
    int base = hex_prefix(buf) ? 16 : 10;
    char *end;

    /* a value out of range leaves errno ERANGE, as PCP's does */
    switch (type) {
    case PM_TYPE_32: {
        long v = strtol(buf, &end, base);
        if (v < INT32_MIN || v > INT32_MAX)
            errno = ERANGE; /* even when text follows, as in PCP */
        if (*end != '\0')
            return PM_ERR_TYPE;
        if (errno == ERANGE)
            return -ERANGE;
        avp->l = (int32_t)v;
        return 0;
    }
    case PM_TYPE_U32: {
        unsigned long v = strtoul(buf, &end, base);
        if (v > UINT32_MAX)
            errno = ERANGE;
        if (*end != '\0')
            return PM_ERR_TYPE;
        if (errno == ERANGE)
            return -ERANGE;
        avp->ul = (uint32_t)v;
        return 0;
    }
    case PM_TYPE_64: {
        long long v = strtoll(buf, &end, base);
        if (*end != '\0')
            return PM_ERR_TYPE;
        if (errno == ERANGE)
            return -ERANGE;
        avp->ll = v;
        return 0;
    }
    default: {
        unsigned long long v = strtoull(buf, &end, base);
        if (*end != '\0')
            return PM_ERR_TYPE;
        if (errno == ERANGE)
            return -ERANGE;
        avp->ull = v;
        return 0;
    }
    }
}

static int string_real(const char *buf, pmAtomValue *avp, int type)
{
    char *end;
    double d;

    if (hex_integer(buf))
        return PM_ERR_TYPE;
    d = strtod(buf, &end);
    /* beyond a float's range (PCP counts 0 in that too: pmkit does not) */
    if (type == PM_TYPE_FLOAT && !isnan(d) &&
        (fabs(d) > FLT_MAX || (d != 0.0 && fabs(d) < FLT_MIN)))
        errno = ERANGE;
    if (*end != '\0')
        return PM_ERR_TYPE;
    if (errno == ERANGE)
        return -ERANGE;
    if (type == PM_TYPE_DOUBLE)
        avp->d = d;
    else
        avp->f = (float)d;
    return 0;
}

/* Integers in decimal, or in hex after 0x; reals as strtod reads them;
 * a string as a copy (which the caller frees).  Text after the number is
 * PM_ERR_TYPE, a number out of the type's range -ERANGE. */
int __pmStringValue(const char *buf, pmAtomValue *avp, int type)
{
    if (buf == NULL)
        return -EINVAL;
    errno = 0;
    switch (type) {
    case PM_TYPE_32:
    case PM_TYPE_U32:
    case PM_TYPE_64:
    case PM_TYPE_U64:
        return string_integer(buf, avp, type);
    case PM_TYPE_FLOAT:
    case PM_TYPE_DOUBLE:
        return string_real(buf, avp, type);
    case PM_TYPE_STRING:
        return (avp->cp = strdup(buf)) == NULL ? -ENOMEM : 0;
    default:
        return PM_ERR_TYPE;
    }
}

/* A result of num value sets, all fields zero (numpmid too, as PCP's). */
__pmResult *__pmAllocResult(int num)
{
    size_t n = num < 0 ? 0 : (size_t)num;

    return calloc(1, sizeof(__pmResult) + n * sizeof(pmValueSet *));
}

/* pmFreeHighResResult's layout but for the time stamp's type, of the same
 * size: value sets inside the result's own block (an archive record's,
 * from __pmFetch or __pmLogFetch) go with it. */
void __pmFreeResult(__pmResult *result)
{
    pmFreeHighResResult((pmHighResResult *)result);
}

void __pmSortInstances(__pmResult *result)
{
    if (result != NULL)
        pmSortInstances(__pmOffsetResult(result));
}

void __pmFreeHighResResultValues(pmHighResResult *result)
{
    if (result != NULL)
        pmkit_free_vsets(result->vset, result->numpmid);
}
