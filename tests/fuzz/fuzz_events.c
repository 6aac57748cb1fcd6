/*
 * fuzz_events.c - libFuzzer target for event records: the unpackers
 * (pmUnpackEventRecords, pmUnpackHighResEventRecords; libpcp/values/event.c)
 * on hostile value blocks, and the pmdaEvent* builder (libpcp/pmda/event.c)
 * driven by a program of operations, its array unpacked and compared with
 * what was put in.
 *
 * The first byte chooses: bit 0 the mode (0 unpack, 1 build), bit 1 the
 * kind (PM_TYPE_EVENT or PM_TYPE_HIGHRES_EVENT), bit 2 the value format
 * when unpacking (DPTR or SPTR).
 *
 * Unpack: the rest of the input is the value block, in an allocation of
 * exactly its size (at least the 4 bytes of its header), whose header
 * word gets the kind's type and the real length.  Both unpackers run: the
 * other kind's must say PM_ERR_TYPE, this kind's must succeed or give one
 * of its documented errors with the list NULL.  A success must be well
 * formed (a NULL-terminated list, value sets of one value each, blocks of
 * their type's size lying within the input), must agree with a separate
 * walk over the bytes (stamps, flags, every parameter's PMID and bytes),
 * and every value must come out of pmExtractValue.
 *
 * Build: the rest is a program (see run_op) of records, missed records,
 * parameters of every type, resets, bad handles and bad arguments.  Each
 * call must return what the model of the array predicts; at checkpoints
 * and at the end the array is copied to an exact-size block, unpacked and
 * compared with the model value by value, padding included.  Parameters
 * added after a missed record, and the missed flag given with others,
 * make arrays PCP's unpacker cannot read back either: those are only
 * unpacked for form.
 */
#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FLAGS_PMID  pmID_build(511, 0, 1)
#define MISSED_PMID pmID_build(511, 0, 2)

/* Abort unless cond: a broken invariant is a finding. */
#define need(cond)                                                                                 \
    do {                                                                                           \
        if (!(cond))                                                                               \
            abort();                                                                               \
    } while (0)

static uint32_t word(const uint8_t *p)
{
    uint32_t w;

    memcpy(&w, p, sizeof(w));
    return w;
}

/* ---- one unpacked record, of either result type ---- */

typedef struct {
    int64_t sec, frac; /* its stamp */
    int numpmid;       /* value sets */
    pmValueSet *const *vset;
} view;

/* Record i of list (pmResult ** or pmHighResResult **) into v; 0 at the end. */
static int view_of(void *list, int highres, int i, view *v)
{
    if (highres) {
        pmHighResResult *r = ((pmHighResResult **)list)[i];
        if (r == NULL)
            return 0;
        v->sec = r->timestamp.tv_sec;
        v->frac = r->timestamp.tv_nsec;
        v->numpmid = r->numpmid;
        v->vset = r->vset;
    } else {
        pmResult *r = ((pmResult **)list)[i];
        if (r == NULL)
            return 0;
        v->sec = r->timestamp.tv_sec;
        v->frac = r->timestamp.tv_usec;
        v->numpmid = r->numpmid;
        v->vset = r->vset;
    }
    return 1;
}

/* Bytes of a value of type, -1 when it varies, -2 for no parameter type. */
static int value_size(int type)
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
        return -2;
    }
}

/* ---- form: what any result list must look like ---- */

/* One value set of an unpacked record; len: the value's length. */
static void check_set(const pmValueSet *vs, size_t len)
{
    need(vs != NULL && vs->numval == 1 && vs->vlist[0].inst == (int)PM_IN_NULL);
    if (vs->valfmt == PM_VAL_INSITU)
        return;
    need(vs->valfmt == PM_VAL_DPTR && vs->vlist[0].value.pval != NULL);
    const pmValueBlock *vb = vs->vlist[0].value.pval;
    int size = value_size((int)vb->vtype);
    need(vb->vlen >= PM_VAL_HDR_SIZE && vb->vlen <= len);
    need(size != -2 && (size < 0 || vb->vlen == (unsigned)(PM_VAL_HDR_SIZE + size)));
    need(vb->vtype != PM_TYPE_32 && vb->vtype != PM_TYPE_U32); /* those are in place */
}

/* Every value of vs out through pmExtractValue, as its own type and (for
 * numbers) as a double. */
static void extract_set(const pmValueSet *vs)
{
    const pmValue *v = &vs->vlist[0];
    pmAtomValue out;

    if (vs->valfmt == PM_VAL_INSITU) {
        need(pmExtractValue(PM_VAL_INSITU, v, PM_TYPE_32, &out, PM_TYPE_32) == 0);
        need(out.l == v->value.lval);
        need(pmExtractValue(PM_VAL_INSITU, v, PM_TYPE_U32, &out, PM_TYPE_U32) == 0);
        need(pmExtractValue(PM_VAL_INSITU, v, PM_TYPE_U32, &out, PM_TYPE_DOUBLE) == 0);
        return;
    }
    int type = (int)v->value.pval->vtype;
    switch (type) {
    case PM_TYPE_STRING:
        need(pmExtractValue(PM_VAL_DPTR, v, type, &out, type) == 0);
        need(strlen(out.cp) + PM_VAL_HDR_SIZE <= (size_t)v->value.pval->vlen);
        free(out.cp);
        break;
    case PM_TYPE_AGGREGATE:
        need(pmExtractValue(PM_VAL_DPTR, v, type, &out, type) == 0);
        need(out.vbp->vlen == v->value.pval->vlen);
        need(memcmp(out.vbp, v->value.pval, v->value.pval->vlen) == 0);
        free(out.vbp);
        break;
    case PM_TYPE_AGGREGATE_STATIC: /* pmExtractValue takes no such input */
        need(pmExtractValue(PM_VAL_DPTR, v, type, &out, PM_TYPE_AGGREGATE) == PM_ERR_CONV);
        break;
    default:
        need(pmExtractValue(PM_VAL_DPTR, v, type, &out, type) == 0);
        need(pmExtractValue(PM_VAL_DPTR, v, type, &out, PM_TYPE_DOUBLE) == 0);
        break;
    }
}

/*
 * The list an unpacker returned (sts records) for a value of len bytes:
 * well formed, every value extracted.
 */
static void check_form(void *list, int highres, int sts, size_t len)
{
    view v;
    int i;

    if (sts <= 0) {
        need(list == NULL);
        return;
    }
    need(list != NULL);
    for (i = 0; view_of(list, highres, i, &v); i++) {
        need(v.numpmid >= 0 && (size_t)v.numpmid <= len / 8 + 2);
        if (!highres)
            need(v.frac == (int32_t)v.frac && v.sec == (int32_t)v.sec);
        for (int k = 0; k < v.numpmid; k++) {
            check_set(v.vset[k], len);
            extract_set(v.vset[k]);
        }
    }
    need(i == sts);
}

/* An in-place value set of pmid holding value. */
static void need_insitu(const pmValueSet *vs, pmID pmid, uint32_t value)
{
    need(vs->pmid == pmid && vs->valfmt == PM_VAL_INSITU);
    need((uint32_t)vs->vlist[0].value.lval == value);
}

/*
 * An independent walk over the array (buf, len bytes) that unpacked into
 * list without error: each record's stamp and flags and each parameter's
 * PMID and bytes must be those of the list.  zero_pad: the padding after
 * each value must be zero (arrays from the builder).
 */
static void walk(const uint8_t *buf, size_t len, int highres, void *list, int n, int zero_pad)
{
    size_t stamp = highres ? 16 : 8, at = 8;
    view v;

    need(len >= 8 && (int32_t)word(buf + 4) == n);
    for (int i = 0; i < n; i++) {
        int64_t sec, frac;
        uint32_t flags;
        int32_t count;
        int k = 0;

        need(len - at >= stamp + 8 && view_of(list, highres, i, &v));
        if (highres) {
            memcpy(&sec, buf + at, 8);
            memcpy(&frac, buf + at + 8, 8);
        } else {
            sec = (int32_t)word(buf + at);
            frac = (int32_t)word(buf + at + 4);
        }
        flags = word(buf + at + stamp);
        count = (int32_t)word(buf + at + stamp + 4);
        at += stamp + 8;
        need(v.sec == sec && v.frac == frac);
        if (flags != 0) {
            need(v.numpmid >= 1);
            need_insitu(v.vset[0], FLAGS_PMID, flags);
            k = 1;
        }
        if (flags & PM_EVENT_FLAG_MISSED) {
            need(v.numpmid == 2);
            need_insitu(v.vset[1], MISSED_PMID, (uint32_t)count);
            continue;
        }
        need(count >= 0 && v.numpmid == k + count);
        for (int32_t j = 0; j < count; j++) {
            const pmValueSet *vs = v.vset[k + j];
            uint32_t plen, padded;
            int type;

            need(len - at >= 8);
            plen = word(buf + at + 4) & 0xffffff;
            type = (int)(word(buf + at + 4) >> 24);
            padded = (plen + 3) & ~3u;
            need(plen >= PM_VAL_HDR_SIZE && len - at - 4 >= padded);
            need(vs->pmid == word(buf + at));
            if (type == PM_TYPE_32 || type == PM_TYPE_U32) {
                need(plen == 8);
                need_insitu(vs, vs->pmid, word(buf + at + 8));
            } else {
                need(vs->valfmt == PM_VAL_DPTR);
                need(memcmp(vs->vlist[0].value.pval, buf + at + 4, plen) == 0);
            }
            for (uint32_t b = plen; zero_pad && b < padded; b++)
                need(buf[at + 4 + b] == 0);
            at += 4 + padded;
        }
    }
    need(!view_of(list, highres, n, &v));
}

/*
 * The value block at block (len bytes, its header set) unpacked both ways
 * as value idx 0 of a value set of valfmt: checked for form, against the
 * bytes, and freed.  The status of the unpacker of its kind.
 */
static int unpack_checked(pmValueBlock *block, size_t len, int highres, int valfmt, int zero_pad)
{
    pmValueSet vs = {.pmid = pmID_build(251, 1, 0), .numval = 1, .valfmt = valfmt};
    pmResult **r = NULL;
    pmHighResResult **h = NULL;
    int sts, other;

    vs.vlist[0].inst = PM_IN_NULL;
    vs.vlist[0].value.pval = block;
    if (highres) {
        sts = pmUnpackHighResEventRecords(&vs, 0, &h);
        other = pmUnpackEventRecords(&vs, 0, &r);
    } else {
        sts = pmUnpackEventRecords(&vs, 0, &r);
        other = pmUnpackHighResEventRecords(&vs, 0, &h);
    }
    need(other == PM_ERR_TYPE);
    need(sts >= 0 || sts == PM_ERR_TOOSMALL || sts == PM_ERR_TOOBIG || sts == PM_ERR_CONV ||
         sts == PM_ERR_TYPE || sts == -ENOMEM);
    check_form(highres ? (void *)h : (void *)r, highres, sts, len);
    if (sts > 0)
        walk((const uint8_t *)block, len, highres, highres ? (void *)h : (void *)r, sts, zero_pad);
    pmFreeEventResult(r);
    pmFreeHighResEventResult(h);

    /* no such value, no list */
    need(pmUnpackEventRecords(&vs, 1, &r) == PM_ERR_INST && r == NULL);
    need(pmUnpackHighResEventRecords(&vs, -1, &h) == PM_ERR_INST && h == NULL);
    need(pmUnpackEventRecords(&vs, 0, NULL) == -EINVAL);
    need(pmUnpackHighResEventRecords(&vs, 0, NULL) == -EINVAL);
    return sts;
}

static void unpack_mode(const uint8_t *data, size_t size, int highres, int valfmt)
{
    size_t len = size < PM_VAL_HDR_SIZE ? PM_VAL_HDR_SIZE : size;
    uint8_t *copy;
    uint32_t hdr;

    if (len > PM_VAL_VLEN_MAX)
        len = size = PM_VAL_VLEN_MAX;
    if ((copy = calloc(1, len)) == NULL)
        return;
    memcpy(copy, data, size);
    hdr = (uint32_t)(highres ? PM_TYPE_HIGHRES_EVENT : PM_TYPE_EVENT) << 24 | (uint32_t)len;
    memcpy(copy, &hdr, sizeof(hdr));
    unpack_checked((pmValueBlock *)copy, len, highres, valfmt, 0);
    free(copy);
}

/* ---- build mode: the model ---- */

typedef struct {
    pmID pmid;
    int type;
    uint8_t value[8]; /* a number's bytes */
    uint8_t *bytes;   /* a string's or aggregate's, malloc'd */
    size_t nbytes;
} mparam;

typedef struct {
    int64_t sec, frac;
    uint32_t flags;
    int missed; /* a missed-records record */
    uint32_t nmissed;
    size_t first, nparams; /* its parameters in the model's list */
} mrecord;

typedef struct {
    int idx, highres;
    mrecord *rec;
    size_t nrec, caprec;
    mparam *par;
    size_t npar, cappar;
    size_t len;  /* the array's length so far */
    int tainted; /* not readable back: unpack for form only */
} model;

/* The input still to be read. */
typedef struct {
    const uint8_t *p;
    size_t n;
} input;

static uint64_t take(input *in, size_t bytes)
{
    uint64_t v = 0;

    for (size_t i = 0; i < bytes && in->n > 0; i++, in->p++, in->n--)
        v |= (uint64_t)*in->p << (8 * i);
    return v;
}

static void *grow(void *p, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return p;
    *cap = *cap ? *cap * 2 : 16;
    if ((p = realloc(p, *cap * size)) == NULL)
        abort();
    return p;
}

static void model_clear(model *m)
{
    for (size_t i = 0; i < m->npar; i++)
        free(m->par[i].bytes);
    m->nrec = m->npar = 0;
    m->len = 8;
    m->tainted = 0;
}

/* Add a record (stamp from the input) as the builder must. */
static void op_record(model *m, input *in, int missed)
{
    struct timeval tv;
    struct timespec ts;
    mrecord *r;
    uint32_t flags = 0, nmissed = 0;
    int sts;

    m->rec = grow(m->rec, &m->caprec, m->nrec, sizeof(*m->rec));
    r = &m->rec[m->nrec];
    if (m->highres) {
        r->sec = (int64_t)take(in, 8);
        r->frac = (int64_t)take(in, 8);
        ts.tv_sec = (time_t)r->sec;
        ts.tv_nsec = (long)r->frac;
    } else {
        r->sec = (int32_t)take(in, 4);
        r->frac = (int32_t)take(in, 4);
        tv.tv_sec = (time_t)r->sec;
        tv.tv_usec = (suseconds_t)r->frac;
    }
    if (missed) {
        nmissed = (uint32_t)take(in, 4);
        sts = m->highres ? pmdaEventAddHighResMissedRecord(m->idx, &ts, (int)nmissed)
                         : pmdaEventAddMissedRecord(m->idx, &tv, (int)nmissed);
        flags = PM_EVENT_FLAG_MISSED;
    } else {
        uint8_t f = (uint8_t)take(in, 1);
        flags = f == 0xff ? (uint32_t)take(in, 4) : f & 0x1fu;
        sts = m->highres ? pmdaEventAddHighResRecord(m->idx, &ts, (int)flags)
                         : pmdaEventAddRecord(m->idx, &tv, (int)flags);
        if (flags & PM_EVENT_FLAG_MISSED)
            m->tainted = 1;
    }
    need(sts == 0);
    r->flags = flags;
    r->missed = missed;
    r->nmissed = nmissed;
    r->first = m->npar;
    r->nparams = 0;
    m->nrec++;
    m->len += m->highres ? 24 : 16;
}

/* Add a parameter (type and value from the input) as the builder must. */
static void op_param(model *m, input *in)
{
    static const int types[] = {PM_TYPE_32,     PM_TYPE_U32,       PM_TYPE_64,
                                PM_TYPE_U64,    PM_TYPE_FLOAT,     PM_TYPE_DOUBLE,
                                PM_TYPE_STRING, PM_TYPE_AGGREGATE, PM_TYPE_AGGREGATE_STATIC};
    mparam p = {0};
    pmAtomValue av;
    pmValueBlock *vb = NULL;
    int size, sts;

    p.type = types[take(in, 1) % 9];
    p.pmid = (pmID)take(in, 4);
    size = value_size(p.type);
    if (size > 0) {
        uint64_t v = take(in, (size_t)size);
        memcpy(p.value, &v, 8);
        memcpy(&av, p.value, 8);
    } else {
        size_t n = take(in, 1);
        if (n > in->n)
            n = in->n;
        if ((p.bytes = calloc(1, n + 1)) == NULL)
            abort();
        memcpy(p.bytes, in->p, n);
        in->p += n, in->n -= n;
        if (p.type == PM_TYPE_STRING) {
            p.nbytes = strlen((char *)p.bytes); /* the builder stops at a NUL */
            av.cp = (char *)p.bytes;
        } else {
            p.nbytes = n;
            if ((vb = calloc(1, sizeof(*vb) + n)) == NULL)
                abort();
            vb->vtype = (unsigned)p.type;
            vb->vlen = (unsigned)(PM_VAL_HDR_SIZE + n);
            memcpy((uint8_t *)vb + PM_VAL_HDR_SIZE, p.bytes, n);
            av.vbp = vb;
        }
    }
    if (m->highres)
        sts = m->npar % 2 ? pmdaEventHighResAddParam(m->idx, p.pmid, p.type, &av)
                          : pmdaEventAddHighResParam(m->idx, p.pmid, p.type, &av);
    else
        sts = pmdaEventAddParam(m->idx, p.pmid, p.type, &av);
    free(vb);
    if (m->nrec == 0) { /* no record to add it to */
        need(sts == -EINVAL);
        free(p.bytes);
        return;
    }
    need(sts == 0);
    if (m->rec[m->nrec - 1].missed)
        m->tainted = 1; /* counted as records missed, as in PCP */
    m->par = grow(m->par, &m->cappar, m->npar, sizeof(*m->par));
    m->par[m->npar++] = p;
    m->rec[m->nrec - 1].nparams++;
    m->len += 4 + ((PM_VAL_HDR_SIZE + (size > 0 ? (size_t)size : p.nbytes) + 3) & ~(size_t)3);
}

/* Calls the builder must refuse, leaving the array as it is. */
static void op_refused(model *m, input *in)
{
    struct timeval tv = {1, 2};
    struct timespec ts = {1, 2};
    pmAtomValue av = {.cp = NULL};
    int bad = (int)(take(in, 1) % 4), other = m->idx + 1 + (int)take(in, 1);

    need((m->highres ? pmdaEventAddHighResRecord(m->idx, NULL, 0)
                     : pmdaEventAddRecord(m->idx, NULL, 0)) == -EINVAL);
    need((m->highres ? pmdaEventAddHighResMissedRecord(m->idx, NULL, 1)
                     : pmdaEventAddMissedRecord(m->idx, NULL, 1)) == -EINVAL);
    need((m->highres ? pmdaEventAddHighResParam(m->idx, 1, PM_TYPE_STRING, &av)
                     : pmdaEventAddParam(m->idx, 1, PM_TYPE_STRING, &av)) == -EINVAL);
    need((m->highres ? pmdaEventAddHighResParam(m->idx, 1, PM_TYPE_U32, NULL)
                     : pmdaEventAddParam(m->idx, 1, PM_TYPE_U32, NULL)) == -EINVAL);
    av.ul = 1;
    need((m->highres ? pmdaEventAddHighResParam(m->idx, 1, PM_TYPE_EVENT + bad % 2, &av)
                     : pmdaEventAddParam(m->idx, 1, bad == 3 ? 255 : PM_TYPE_EVENT + bad, &av)) ==
         PM_ERR_TYPE);
    /* the other kind's calls on this handle; this kind's on a handle no
     * array has (the fuzzer builds one at a time) */
    if (m->highres) {
        need(pmdaEventAddRecord(m->idx, &tv, 0) == PM_ERR_NOCONTEXT);
        need(pmdaEventAddParam(m->idx, 1, PM_TYPE_U32, &av) == PM_ERR_NOCONTEXT);
        need(pmdaEventResetArray(m->idx) == PM_ERR_NOCONTEXT);
        need(pmdaEventReleaseArray(m->idx) == PM_ERR_NOCONTEXT);
        need(pmdaEventGetAddr(m->idx) == NULL);
        need(pmdaEventAddHighResRecord(other, &ts, 0) == PM_ERR_NOCONTEXT);
        need(pmdaEventHighResGetAddr(other) == NULL);
    } else {
        need(pmdaEventAddHighResRecord(m->idx, &ts, 0) == PM_ERR_NOCONTEXT);
        need(pmdaEventAddHighResMissedRecord(m->idx, &ts, 0) == PM_ERR_NOCONTEXT);
        need(pmdaEventResetHighResArray(m->idx) == PM_ERR_NOCONTEXT);
        need(pmdaEventReleaseHighResArray(m->idx) == PM_ERR_NOCONTEXT);
        need(pmdaEventGetHighResAddr(m->idx) == NULL);
        need(pmdaEventAddRecord(other, &tv, 0) == PM_ERR_NOCONTEXT);
        need(pmdaEventGetAddr(other) == NULL);
    }
}

/* One parameter of the model against its unpacked value set. */
static void compare_param(const mparam *p, const pmValueSet *vs)
{
    const pmValue *v = &vs->vlist[0];
    pmAtomValue out;

    need(vs->pmid == p->pmid);
    switch (p->type) {
    case PM_TYPE_32:
    case PM_TYPE_U32:
        need(vs->valfmt == PM_VAL_INSITU);
        need(pmExtractValue(PM_VAL_INSITU, v, p->type, &out, p->type) == 0);
        need(memcmp(&out, p->value, 4) == 0);
        return;
    case PM_TYPE_AGGREGATE_STATIC:
        need(vs->valfmt == PM_VAL_DPTR && v->value.pval->vtype == PM_TYPE_AGGREGATE_STATIC);
        need(v->value.pval->vlen == PM_VAL_HDR_SIZE + p->nbytes);
        need(memcmp((const uint8_t *)v->value.pval + PM_VAL_HDR_SIZE, p->bytes, p->nbytes) == 0);
        return;
    default:
        break;
    }
    need(vs->valfmt == PM_VAL_DPTR && (int)v->value.pval->vtype == p->type);
    need(pmExtractValue(PM_VAL_DPTR, v, p->type, &out, p->type) == 0);
    if (p->type == PM_TYPE_STRING) {
        need(strcmp(out.cp, (const char *)p->bytes) == 0);
        free(out.cp);
    } else if (p->type == PM_TYPE_AGGREGATE) {
        need(out.vbp->vlen == PM_VAL_HDR_SIZE + p->nbytes);
        need(memcmp((const uint8_t *)out.vbp + PM_VAL_HDR_SIZE, p->bytes, p->nbytes) == 0);
        free(out.vbp);
    } else if (p->type == PM_TYPE_FLOAT) {
        float f;
        memcpy(&f, p->value, 4);
        need(isnan(f) ? isnan(out.f) != 0 : memcmp(&out.f, &f, 4) == 0);
    } else if (p->type == PM_TYPE_DOUBLE) {
        double d;
        memcpy(&d, p->value, 8);
        need(isnan(d) ? isnan(out.d) != 0 : memcmp(&out.d, &d, 8) == 0);
    } else {
        need(memcmp(&out, p->value, 8) == 0);
    }
}

/* The unpacked list against the model, record by record. */
static void compare(const model *m, void *list, int n)
{
    view v;

    need((size_t)n == m->nrec);
    for (int i = 0; i < n; i++) {
        const mrecord *r = &m->rec[i];
        int k = 0;

        need(view_of(list, m->highres, i, &v));
        need(v.sec == r->sec && v.frac == r->frac);
        if (r->flags != 0) {
            need_insitu(v.vset[0], FLAGS_PMID, r->flags);
            k = 1;
        }
        if (r->missed) {
            need(v.numpmid == 2);
            need_insitu(v.vset[1], MISSED_PMID, r->nmissed);
            continue;
        }
        need((size_t)v.numpmid == k + r->nparams);
        for (size_t j = 0; j < r->nparams; j++)
            compare_param(&m->par[r->first + j], v.vset[k + j]);
    }
}

/* The builder's array now: its header, then a copy of exactly its length
 * unpacked and checked against the bytes and the model. */
static void checkpoint(const model *m)
{
    const uint8_t *base = m->highres ? (const void *)pmdaEventGetHighResAddr(m->idx)
                                     : (const void *)pmdaEventGetAddr(m->idx);
    pmValueSet vs = {.pmid = pmID_build(251, 1, 0), .numval = 1, .valfmt = PM_VAL_DPTR};
    pmResult **r = NULL;
    pmHighResResult **h = NULL;
    uint8_t *copy;
    int sts;

    need(base != NULL);
    need(word(base) ==
         ((uint32_t)(m->highres ? PM_TYPE_HIGHRES_EVENT : PM_TYPE_EVENT) << 24 | (uint32_t)m->len));
    need(word(base + 4) == m->nrec);
    if ((copy = malloc(m->len)) == NULL)
        abort();
    memcpy(copy, base, m->len);
    if (m->tainted) { /* read as the builder did not mean it: no padding where it looks */
        unpack_checked((pmValueBlock *)copy, m->len, m->highres, PM_VAL_DPTR, 0);
        free(copy);
        return;
    }
    vs.vlist[0].inst = PM_IN_NULL;
    vs.vlist[0].value.pval = (pmValueBlock *)copy;
    sts = m->highres ? pmUnpackHighResEventRecords(&vs, 0, &h) : pmUnpackEventRecords(&vs, 0, &r);
    need(sts == (int)m->nrec);
    check_form(m->highres ? (void *)h : (void *)r, m->highres, sts, m->len);
    if (sts > 0) {
        walk(copy, m->len, m->highres, m->highres ? (void *)h : (void *)r, sts, 1);
        compare(m, m->highres ? (void *)h : (void *)r, sts);
    }
    pmFreeEventResult(r);
    pmFreeHighResEventResult(h);
    free(copy);
}

/*
 * One operation, its code from the input:
 *   0 a record (stamp, then a flags byte: 0xff for 4 bytes of any flags)
 *   1 a missed-records record (stamp, number missed)
 *   2-5 a parameter (type byte, PMID, value; strings and aggregates a
 *       length byte and that many bytes)
 *   6 reset   7 a checkpoint   8 refused calls (two bytes)
 */
static void run_op(model *m, input *in)
{
    switch (take(in, 1) % 9) {
    case 0:
        op_record(m, in, 0);
        break;
    case 1:
        op_record(m, in, 1);
        break;
    case 6:
        need((m->highres ? pmdaEventResetHighResArray(m->idx) : pmdaEventResetArray(m->idx)) == 0);
        model_clear(m);
        break;
    case 7:
        checkpoint(m);
        break;
    case 8:
        op_refused(m, in);
        break;
    default:
        op_param(m, in);
        break;
    }
}

static void build_mode(const uint8_t *data, size_t size, int highres)
{
    model m = {.highres = highres, .len = 8};
    input in = {data, size};

    m.idx = highres ? pmdaEventNewHighResArray() : pmdaEventNewArray();
    need(m.idx >= 0);
    while (in.n > 0)
        run_op(&m, &in);
    checkpoint(&m);
    need((highres ? pmdaEventReleaseHighResArray(m.idx) : pmdaEventReleaseArray(m.idx)) == 0);
    need((highres ? (void *)pmdaEventGetHighResAddr(m.idx) : (void *)pmdaEventGetAddr(m.idx)) ==
         NULL);
    model_clear(&m);
    free(m.rec);
    free(m.par);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int mode;

    if (size < 1)
        return 0;
    mode = data[0];
    if (mode & 1)
        build_mode(data + 1, size - 1, (mode & 2) != 0);
    else
        unpack_mode(data + 1, size - 1, (mode & 2) != 0, mode & 4 ? PM_VAL_SPTR : PM_VAL_DPTR);
    return 0;
}
