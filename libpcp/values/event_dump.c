/*
 * event_dump.c - __pmDumpEventRecords and __pmDumpHighResEventRecords
 * (<pcp/libpcp.h>): one value of an event metric shown as the packed array
 * it is (values.h, PMKIT_EVENT_*), record by record and parameter by
 * parameter, in Debian's words and layout (tests/oracle/probe_eventdump.c).
 *
 * The dump trusts the counts as PCP's does: a record or parameter that
 * runs past the value's length ends it with "Error: buffer overflow", a
 * parameter's size is its PMID and its header's length padded to a word,
 * and its value is read at the type's size whatever that length says.
 * Unlike PCP's, nothing is read past the value's length (bytes there show
 * as zeros: a value too short for its record count has none), nor past
 * a value set's last value (docs/compat.md).
 *
 * The same walk checks an array (__pmCheckEventRecords, and
 * pmUnpackEventRecords before it unpacks, which dumps to stderr an array
 * that fails): a count of values at or below 0 is the answer, then
 * PM_ERR_CONV for a value format or a missed record with other flags,
 * PM_ERR_TYPE, PM_ERR_TOOSMALL for a short value or a negative count,
 * PM_ERR_TOOBIG for a record or parameter past the end, as Debian's.  Not
 * here: unpacking records into results (event.c), printing them for a
 * reader (pminfo -x, pmdumplog), which name metrics and stamp records.
 */
#include "values.h"

#include <stdio.h>
#include <string.h>

#include <pcp/libpcp.h>

/* An array's bytes: buf[0..len), zeros after. */
typedef struct {
    const unsigned char *buf;
    size_t len;
} span;

/* n bytes at off into dst; those past the end are zeros. */
static void span_read(const span *s, size_t off, void *dst, size_t n)
{
    size_t have = off >= s->len ? 0 : s->len - off < n ? s->len - off : n;

    memcpy(dst, s->buf + off, have);
    memset((unsigned char *)dst + have, 0, n - have);
}

static uint32_t span_word(const span *s, size_t off)
{
    uint32_t w;

    span_read(s, off, &w, sizeof(w));
    return w;
}

/* A string parameter of width bytes at off, as printf's "%*.*s" shows
 * it: at most width bytes up to a NUL, right-aligned in width; a negative
 * width, every byte up to a NUL, left-aligned in -width. */
static void print_string(FILE *f, const span *s, size_t off, int width)
{
    size_t n = 0, max = width < 0 ? SIZE_MAX : (size_t)width;

    while (n < max && off + n < s->len && s->buf[off + n] != '\0')
        n++;
    if (width > 0)
        fprintf(f, "%*s", width - (int)n < 0 ? 0 : width - (int)n, "");
    fwrite(s->buf + off, 1, n, f);
    if (width < 0 && (size_t) - (long)width > n)
        fprintf(f, "%*s", (int)((size_t) - (long)width - n), "");
}

/* The value of a parameter of type whose header word says len bytes, its
 * value at off. */
static void print_param_value(FILE *f, const span *s, size_t off, int type, uint32_t len)
{
    union {
        int32_t l;
        uint32_t ul;
        int64_t ll;
        uint64_t ull;
        float fl;
        double d;
    } v;

    switch (type) {
    case PM_TYPE_32:
    case PM_TYPE_U32:
    case PM_TYPE_FLOAT:
        span_read(s, off, &v, 4);
        if (type == PM_TYPE_32)
            fprintf(f, " = %d", v.l);
        else if (type == PM_TYPE_U32)
            fprintf(f, " = %u", v.ul);
        else
            fprintf(f, " = %.8g", (double)v.fl);
        break;
    case PM_TYPE_64:
    case PM_TYPE_U64:
    case PM_TYPE_DOUBLE:
        span_read(s, off, &v, 8);
        if (type == PM_TYPE_64)
            fprintf(f, " = %lld", (long long)v.ll);
        else if (type == PM_TYPE_U64)
            fprintf(f, " = %llu", (unsigned long long)v.ull);
        else
            fprintf(f, " = %.16g", v.d);
        break;
    case PM_TYPE_STRING:
        fputs(" = \"", f);
        print_string(f, s, off, (int)len - PM_VAL_HDR_SIZE);
        fputc('"', f);
        break;
    case PM_TYPE_AGGREGATE:
    case PM_TYPE_AGGREGATE_STATIC:
        fprintf(f, " = [%08x...]", span_word(s, off));
        break;
    case PM_TYPE_UNKNOWN:
        fputs(" : unknown type", f);
        break;
    default:
        fprintf(f, " : bad type %d", type);
        break;
    }
}

/* The parameters of a record, the first at *at; 0, or -1 once one runs
 * past the end (said). */
static int print_params(FILE *f, const span *s, size_t *at, int count)
{
    for (int i = 0; i < count; i++) {
        uint32_t pmid, hdr, len;
        size_t size;

        fprintf(f, "    Parameter [%d]:", i);
        if (*at > s->len || s->len - *at < sizeof(pmEventParameter)) {
            fputs(" Error: buffer overflow\n", f);
            return -1;
        }
        pmid = span_word(s, *at);
        hdr = span_word(s, *at + 4);
        len = hdr & 0xffffff; /* as pmkit_put32 lays out ep_len and ep_type */
        size = sizeof(pmID) + (((size_t)len + 3) & ~(size_t)3);
        if (s->len - *at < size) {
            fputs(" Error: buffer overflow\n", f);
            return -1;
        }
        fprintf(f, " %s", pmIDStr(pmid));
        print_param_value(f, s, *at + sizeof(pmEventParameter), (int)(hdr >> 24), len);
        fputc('\n', f);
        *at += size;
    }
    return 0;
}

/* Record r, at *at: its flags and missed count or its parameters; 0, or
 * -1 once it runs past the end (said). */
static int print_record(FILE *f, const span *s, size_t *at, int r, int highres)
{
    size_t stamp = PMKIT_EVENT_STAMP(highres);
    uint32_t flags;
    int32_t count;

    fprintf(f, "Event Record [%d]", r);
    if (*at > s->len || s->len - *at < PMKIT_EVENT_RECORD(highres)) {
        fputs(" Error: buffer overflow\n", f);
        return -1;
    }
    flags = span_word(s, *at + stamp);
    count = (int32_t)span_word(s, *at + stamp + 4);
    *at += PMKIT_EVENT_RECORD(highres);
    if (flags != 0)
        fprintf(f, " flags=%x", flags);
    if (flags & PM_EVENT_FLAG_MISSED) {
        fprintf(f, "\n    ==> %d missed records", count);
        if (flags != PM_EVENT_FLAG_MISSED)
            fprintf(f, " (Warning: extra flags %x ignored)", flags & ~PM_EVENT_FLAG_MISSED);
        fputc('\n', f);
        return 0;
    }
    fprintf(f, " with %d parameters\n", count);
    return print_params(f, s, at, count);
}

/* The value set's heading; the value block when it is one to dump. */
static const pmValueBlock *print_heading(FILE *f, const pmValueSet *vsp, int idx, int highres)
{
    const pmValueBlock *vb;
    int want = highres ? PM_TYPE_HIGHRES_EVENT : PM_TYPE_EVENT;

    fprintf(f, "PMID: %s numval: %d", pmIDStr(vsp->pmid), vsp->numval);
    if (vsp->numval <= 0) {
        fputs("\nError: bad numval\n", f);
        return NULL;
    }
    fprintf(f, " valfmt: %d", vsp->valfmt);
    if (vsp->valfmt != PM_VAL_DPTR && vsp->valfmt != PM_VAL_SPTR) {
        fputs("\nError: bad valfmt\n", f);
        return NULL;
    }
    if (idx < 0 || idx >= vsp->numval || (vb = vsp->vlist[idx].value.pval) == NULL) {
        fputs("\nError: no such value\n", f); /* pmkit's: PCP reads it all the same */
        return NULL;
    }
    if (vsp->vlist[idx].inst != (int)PM_IN_NULL)
        fprintf(f, " inst: %d", vsp->vlist[idx].inst);
    fprintf(f, " vtype: %s vlen: %d\n", pmTypeStr((int)vb->vtype), (int)vb->vlen);
    if ((int)vb->vtype != want) {
        fputs(highres ? "Error: bad highres vtype\n" : "Error: bad vtype\n", f);
        return NULL;
    }
    return vb;
}

static void dump_events(FILE *f, const pmValueSet *vsp, int idx, int highres)
{
    const pmValueBlock *vb;
    span s;
    size_t at = PMKIT_EVENT_HEAD;
    int32_t nrec;

    fputs("Event Records Dump ...\n", f);
    if ((vb = print_heading(f, vsp, idx, highres)) == NULL)
        return;
    s.buf = (const unsigned char *)vb;
    s.len = vb->vlen;
    nrec = (int32_t)span_word(&s, 4); /* 0 in a value too short to hold it */
    if (s.len < PMKIT_EVENT_HEAD) {
        fprintf(f, "Error: bad len (smaller than minimum size %d)\n", PMKIT_EVENT_HEAD);
    } else {
        fprintf(f, "nrecords: %d\n", nrec);
        if (nrec < 0) {
            fputs("Error: bad nrecords\n", f);
            return;
        }
        if (nrec == 0) {
            fputs("Warning: no event records\n", f);
            return;
        }
    }
    for (int r = 0; r < nrec; r++)
        if (print_record(f, &s, &at, r, highres) < 0)
            return;
}

/* The parameters of a record whose count is count, the first at *at:
 * 0, or PM_ERR_TOOBIG once one runs past the end. */
static int check_params(const span *s, size_t *at, int32_t count)
{
    for (int32_t i = 0; i < count; i++) {
        size_t size;
        if (*at > s->len || s->len - *at < sizeof(pmEventParameter))
            return PM_ERR_TOOBIG;
        size = sizeof(pmID) + (((size_t)(span_word(s, *at + 4) & 0xffffff) + 3) & ~(size_t)3);
        if (s->len - *at < size)
            return PM_ERR_TOOBIG;
        *at += size;
    }
    return 0;
}

int pmkit_event_check(const pmValueSet *vsp, int idx, int highres)
{
    const pmValueBlock *vb;
    span s;
    size_t at = PMKIT_EVENT_HEAD, stamp = PMKIT_EVENT_STAMP(highres);
    int32_t nrec;
    int sts;

    if (vsp->numval <= 0)
        return vsp->numval;
    if (vsp->valfmt != PM_VAL_DPTR && vsp->valfmt != PM_VAL_SPTR)
        return PM_ERR_CONV;
    if (idx < 0 || idx >= vsp->numval || (vb = vsp->vlist[idx].value.pval) == NULL)
        return PM_ERR_INST;
    if ((int)vb->vtype != (highres ? PM_TYPE_HIGHRES_EVENT : PM_TYPE_EVENT))
        return PM_ERR_TYPE;
    s.buf = (const unsigned char *)vb;
    s.len = vb->vlen;
    if (s.len < PMKIT_EVENT_HEAD)
        return PM_ERR_TOOSMALL;
    if ((nrec = (int32_t)span_word(&s, 4)) < 0)
        return PM_ERR_TOOSMALL;
    for (int32_t r = 0; r < nrec; r++) {
        uint32_t flags;
        int32_t count;
        if (at > s.len || s.len - at < PMKIT_EVENT_RECORD(highres))
            return PM_ERR_TOOBIG;
        flags = span_word(&s, at + stamp);
        count = (int32_t)span_word(&s, at + stamp + 4);
        at += PMKIT_EVENT_RECORD(highres);
        if ((flags & PM_EVENT_FLAG_MISSED) && flags != PM_EVENT_FLAG_MISSED)
            return PM_ERR_CONV;
        if (!(flags & PM_EVENT_FLAG_MISSED) && (sts = check_params(&s, &at, count)) < 0)
            return sts;
    }
    return 0;
}

int __pmCheckEventRecords(pmValueSet *vsp, int idx)
{
    return pmkit_event_check(vsp, idx, 0);
}

void __pmDumpEventRecords(FILE *f, pmValueSet *vsp, int idx)
{
    dump_events(f, vsp, idx, 0);
}

void __pmDumpHighResEventRecords(FILE *f, pmValueSet *vsp, int idx)
{
    dump_events(f, vsp, idx, 1);
}
