/*
 * event.c - event records unpacked (pmUnpackEventRecords,
 * pmUnpackHighResEventRecords) and freed (pmFreeEventResult,
 * pmFreeHighResEventResult).
 *
 * A value of type PM_TYPE_EVENT (PM_TYPE_HIGHRES_EVENT) is a packed array
 * of records (the layout is in values.h, PMKIT_EVENT_*); each record becomes
 * one result stamped with its time, holding one value set per parameter
 * in the array's order, after "event.flags" (511.0.1) when the record has
 * flags.  A record of missed records has just event.flags and
 * "event.missed" (511.0.2), the number missed.  Values of 32 bits but
 * FLOAT are in place (PM_VAL_INSITU); the others are value blocks of the
 * parameter's own length.  The result list ends with a NULL.  All as
 * Debian's libpcp (tests/oracle/probe_events.c).
 *
 * Every length is checked against the value's before anything is read:
 * PM_ERR_TOOSMALL for a value or parameter shorter than it must be or a
 * negative count, PM_ERR_TOOBIG for one that runs past the value's end,
 * PM_ERR_CONV for a record with the missed flag and others, PM_ERR_TYPE
 * for a parameter type that cannot be a value.  (PCP's reads past the end
 * of short parameters and gives negative parameter counts a result with a
 * negative numpmid: docs/compat.md.)  First, the array goes through
 * Debian's structural check (event_dump.c): one it fails is dumped to
 * stderr and its error returned, as PCP's unpacker does; with the fetch
 * debug option, the results are dumped to stderr.
 */
#include "derived.h"
#include "values.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcp/libpcp.h>

/* A value set of one value of pmid: a 32-bit value in place. */
static pmValueSet *insitu_set(pmID pmid, uint32_t value)
{
    pmValueSet *vs = malloc(sizeof(*vs));

    if (vs == NULL)
        return NULL;
    vs->pmid = pmid;
    vs->numval = 1;
    vs->valfmt = PM_VAL_INSITU;
    vs->vlist[0].inst = PM_IN_NULL;
    memcpy(&vs->vlist[0].value.lval, &value, sizeof(value));
    return vs;
}

/* A value set of one value of pmid: a copy of the value block at block
 * (len bytes, its header included). */
static pmValueSet *block_set(pmID pmid, const unsigned char *block, size_t len)
{
    pmValueSet *vs = malloc(sizeof(*vs));
    pmValueBlock *vb = malloc(len < sizeof(pmValueBlock) ? sizeof(pmValueBlock) : len);

    if (vs == NULL || vb == NULL) {
        free(vs);
        free(vb);
        return NULL;
    }
    memcpy(vb, block, len);
    vs->pmid = pmid;
    vs->numval = 1;
    vs->valfmt = PM_VAL_DPTR;
    vs->vlist[0].inst = PM_IN_NULL;
    vs->vlist[0].value.pval = vb;
    return vs;
}

/* One unpacked record (the caller's result type is either), as a list of
 * value sets. */
typedef struct {
    pmValueSet **vset;
    int n;
} sets;

static void free_sets(sets *s)
{
    pmkit_free_vsets(s->vset, s->n);
    free(s->vset);
}

static int add_set(sets *s, pmValueSet *vs)
{
    if (vs == NULL)
        return -ENOMEM;
    s->vset[s->n++] = vs;
    return 0;
}

/*
 * The record at *at in buf[0..len): its stamp into sec and frac, its
 * value sets into *s; *at moves past it.  0 or an error.
 */
static int unpack_record(const unsigned char *buf, size_t len, size_t *at, int highres,
                         int64_t *sec, int64_t *frac, sets *s)
{
    size_t stamp = PMKIT_EVENT_STAMP(highres), p = *at;
    uint32_t flags;
    int32_t count;
    int sts = 0;

    if (len - p < stamp + 8)
        return PM_ERR_TOOBIG;
    if (highres) {
        memcpy(sec, buf + p, 8);
        memcpy(frac, buf + p + 8, 8);
    } else {
        *sec = (int32_t)pmkit_get32(buf + p);
        *frac = (int32_t)pmkit_get32(buf + p + 4);
    }
    flags = pmkit_get32(buf + p + stamp);
    count = (int32_t)pmkit_get32(buf + p + stamp + 4);
    p += stamp + 8;
    if ((flags & PM_EVENT_FLAG_MISSED) && flags != PM_EVENT_FLAG_MISSED)
        return PM_ERR_CONV;
    if (!(flags & PM_EVENT_FLAG_MISSED) && count < 0)
        return PM_ERR_TOOSMALL;
    if (!(flags & PM_EVENT_FLAG_MISSED) && (size_t)count > (len - p) / 8)
        return PM_ERR_TOOBIG; /* parameters take 8 bytes or more each */
    s->n = 0;
    s->vset =
        malloc(((flags & PM_EVENT_FLAG_MISSED) ? 2 : (size_t)count + 1) * sizeof(pmValueSet *));
    if (s->vset == NULL)
        return -ENOMEM;
    if (flags != 0 && (sts = add_set(s, insitu_set(pmkit_derived_event_flags(), flags))) < 0)
        goto fail;
    if (flags & PM_EVENT_FLAG_MISSED) {
        if ((sts = add_set(s, insitu_set(pmkit_derived_event_missed(), (uint32_t)count))) < 0)
            goto fail;
        *at = p; /* its count is no parameter count: nothing follows it */
        return 0;
    }
    for (int32_t i = 0; i < count; i++) {
        uint32_t pmid, hdr, plen;
        int type, need;
        size_t padded;
        if (len - p < 8) {
            sts = PM_ERR_TOOBIG;
            goto fail;
        }
        pmid = pmkit_get32(buf + p);
        hdr = pmkit_get32(buf + p + 4);
        type = (int)(hdr >> 24);
        plen = hdr & 0xffffff;
        if ((need = pmkit_event_value_size(type)) == PM_ERR_TYPE) {
            sts = PM_ERR_TYPE;
            goto fail;
        }
        padded = ((size_t)plen + 3) & ~(size_t)3;
        if (len - p - 4 < padded) {
            sts = PM_ERR_TOOBIG;
            goto fail;
        }
        if (plen < PM_VAL_HDR_SIZE || (need >= 0 && plen != PM_VAL_HDR_SIZE + (uint32_t)need)) {
            sts = PM_ERR_TOOSMALL; /* not the size of its type */
            goto fail;
        }
        if (need == 4 && type != PM_TYPE_FLOAT)
            sts = add_set(s, insitu_set(pmid, pmkit_get32(buf + p + 8)));
        else
            sts = add_set(s, block_set(pmid, buf + p + 4, plen));
        if (sts < 0)
            goto fail;
        p += 4 + padded;
    }
    *at = p;
    return 0;
fail:
    free_sets(s);
    return sts;
}

/* The list of results under construction, NULL terminated throughout. */
typedef struct {
    void **r;
} list;

/*
 * The records of value idx of vsp, an array of type: their count, with
 * l's list made for them and each record's stamp and sets handed to
 * keep(), or an error.
 */
typedef int (*keep_fn)(list *l, int i, int64_t sec, int64_t frac, sets *s);

static int unpack(const pmValueSet *vsp, int idx, int type, list *l, keep_fn keep)
{
    const pmValueBlock *vb;
    const unsigned char *buf;
    size_t len, at = PMKIT_EVENT_HEAD;
    int32_t nrec;
    int sts;

    if (vsp == NULL)
        return PM_ERR_INST;
    if ((sts = pmkit_event_check(vsp, idx, type == PM_TYPE_HIGHRES_EVENT)) < 0) {
        /* PCP's shows the array it refuses */
        if (type == PM_TYPE_HIGHRES_EVENT)
            __pmDumpHighResEventRecords(stderr, (pmValueSet *)vsp, idx);
        else
            __pmDumpEventRecords(stderr, (pmValueSet *)vsp, idx);
        return sts;
    }
    if (idx < 0 || idx >= vsp->numval)
        return PM_ERR_INST;
    if (vsp->valfmt != PM_VAL_DPTR && vsp->valfmt != PM_VAL_SPTR)
        return PM_ERR_CONV;
    vb = vsp->vlist[idx].value.pval;
    if (vb == NULL || vb->vtype != type)
        return PM_ERR_TYPE;
    len = vb->vlen;
    buf = (const unsigned char *)vb;
    if (len < PMKIT_EVENT_HEAD)
        return PM_ERR_TOOSMALL;
    if ((nrec = (int32_t)pmkit_get32(buf + 4)) < 0)
        return PM_ERR_TOOSMALL;
    if (nrec == 0)
        return 0;
    if ((size_t)nrec > (len - PMKIT_EVENT_HEAD) / PMKIT_EVENT_RECORD(type == PM_TYPE_HIGHRES_EVENT))
        return PM_ERR_TOOBIG; /* a record takes its header at least */
    if ((l->r = calloc((size_t)nrec + 1, sizeof(void *))) == NULL)
        return -ENOMEM;
    for (int32_t i = 0; i < nrec; i++) {
        int64_t sec, frac;
        sets s;
        if ((sts = unpack_record(buf, len, &at, type == PM_TYPE_HIGHRES_EVENT, &sec, &frac, &s)) <
            0)
            return sts;
        if ((sts = keep(l, i, sec, frac, &s)) < 0) {
            free_sets(&s);
            return sts;
        }
    }
    return nrec;
}

static int keep_result(list *l, int i, int64_t sec, int64_t frac, sets *s)
{
    pmResult *r =
        malloc(sizeof(pmResult) + (size_t)(s->n > 0 ? s->n - 1 : 0) * sizeof(pmValueSet *));

    if (r == NULL)
        return -ENOMEM;
    r->timestamp.tv_sec = (time_t)sec;
    r->timestamp.tv_usec = (suseconds_t)frac;
    r->numpmid = s->n;
    memcpy(r->vset, s->vset, (size_t)s->n * sizeof(pmValueSet *));
    free(s->vset);
    l->r[i] = r;
    return 0;
}

static int keep_highres(list *l, int i, int64_t sec, int64_t frac, sets *s)
{
    pmHighResResult *r =
        malloc(sizeof(pmHighResResult) + (size_t)(s->n > 0 ? s->n - 1 : 0) * sizeof(pmValueSet *));

    if (r == NULL)
        return -ENOMEM;
    r->timestamp.tv_sec = (time_t)sec;
    r->timestamp.tv_nsec = (long)frac;
    r->numpmid = s->n;
    memcpy(r->vset, s->vset, (size_t)s->n * sizeof(pmValueSet *));
    free(s->vset);
    l->r[i] = r;
    return 0;
}

void pmFreeEventResult(pmResult **rset)
{
    if (rset == NULL)
        return;
    for (int i = 0; rset[i] != NULL; i++)
        pmFreeResult(rset[i]);
    free(rset);
}

void pmFreeHighResEventResult(pmHighResResult **rset)
{
    if (rset == NULL)
        return;
    for (int i = 0; rset[i] != NULL; i++)
        pmFreeHighResResult(rset[i]);
    free(rset);
}

int pmUnpackEventRecords(pmValueSet *vsp, int idx, pmResult ***rap)
{
    list l = {NULL};
    int sts;

    if (rap == NULL)
        return -EINVAL;
    *rap = NULL;
    sts = unpack(vsp, idx, PM_TYPE_EVENT, &l, keep_result);
    if (sts < 0) {
        pmFreeEventResult((pmResult **)l.r);
        return sts;
    }
    *rap = (pmResult **)l.r;
    if (pmDebugOptions.fetch && sts > 0) {
        fprintf(stderr, "pmUnpackEventRecords returns ...\n");
        for (int r = 0; r < sts; r++) {
            fprintf(stderr, "pmResult[%d]\n", r);
            __pmDumpResult(stderr, (*rap)[r]);
        }
    }
    return sts;
}

int pmUnpackHighResEventRecords(pmValueSet *vsp, int idx, pmHighResResult ***rap)
{
    list l = {NULL};
    int sts;

    if (rap == NULL)
        return -EINVAL;
    *rap = NULL;
    sts = unpack(vsp, idx, PM_TYPE_HIGHRES_EVENT, &l, keep_highres);
    if (sts < 0) {
        pmFreeHighResEventResult((pmHighResResult **)l.r);
        return sts;
    }
    *rap = (pmHighResResult **)l.r;
    if (pmDebugOptions.fetch && sts > 0) {
        fprintf(stderr, "pmUnpackHighResEventRecords returns ...\n");
        for (int r = 0; r < sts; r++) {
            fprintf(stderr, "pmHighResResult[%d]\n", r);
            __pmDumpHighResResult(stderr, (*rap)[r]);
        }
    }
    return sts;
}
