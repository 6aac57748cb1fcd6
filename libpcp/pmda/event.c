/*
 * event.c - packed arrays of event records for agents (pmdaEventNewArray,
 * pmdaEventAddRecord, pmdaEventAddParam, pmdaEventGetAddr, ...), in PCP's
 * byte layout (<pcp/pmapi.h>, pmEventArray), checked byte for byte
 * against Debian's libpcp_pmda by tests/oracle/probe_events.c:
 *
 *   header word (type << 24 | length), record count, then each record:
 *   its timestamp (two 32-bit words, or two 64-bit ones in a high
 *   resolution array), flags, parameter count, then each parameter: its
 *   PMID, a header word (type << 24 | 4 + value bytes), the value (a
 *   string without its NUL, an aggregate's bytes) and zeros up to a
 *   multiple of 4.
 *
 * A missed-records record holds the number missed where the parameter
 * count goes.  A parameter belongs to the last record added (of either
 * kind), as in PCP.  Arrays of both kinds share one table of small
 * integer handles; a released handle is used again.  The table has a
 * lock, so agents with threads may build different arrays at once.
 */
#include "pmda_int.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int used;
    int highres;
    unsigned char *buf;
    size_t len, cap;
    size_t record; /* offset of the last record; 0 before the first */
} event_array;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static event_array *arrays;
static int narrays;

#define HEAD    PMKIT_EVENT_HEAD
#define LEN_MAX 0xffffff /* the 24-bit length fields */

/* The array of handle idx of the kind asked for, or NULL; with the lock. */
static event_array *find(int idx, int highres)
{
    if (idx < 0 || idx >= narrays || !arrays[idx].used || arrays[idx].highres != highres)
        return NULL;
    return &arrays[idx];
}

/* Room for need more bytes: 0 or -ENOMEM (or PM_ERR_TOOBIG past 16 MB). */
static int reserve(event_array *a, size_t need)
{
    size_t cap = a->cap;
    unsigned char *p;

    if (a->len + need > LEN_MAX)
        return PM_ERR_TOOBIG;
    if (a->len + need <= cap)
        return 0;
    while (cap < a->len + need)
        cap = cap < 256 ? 256 : cap * 2;
    if ((p = realloc(a->buf, cap)) == NULL)
        return -ENOMEM;
    a->buf = p;
    a->cap = cap;
    return 0;
}

static void empty(event_array *a)
{
    memset(a->buf, 0, HEAD);
    a->len = HEAD;
    a->record = 0;
}

static int new_array(int highres)
{
    event_array *a;
    int idx;

    pthread_mutex_lock(&lock);
    for (idx = 0; idx < narrays && arrays[idx].used; idx++)
        ;
    if (idx == narrays) {
        event_array *t = realloc(arrays, (size_t)(narrays + 1) * sizeof(*t));
        if (t == NULL) {
            pthread_mutex_unlock(&lock);
            return -ENOMEM;
        }
        arrays = t;
        arrays[narrays++] = (event_array){0};
    }
    a = &arrays[idx];
    *a = (event_array){0};
    if (reserve(a, HEAD) < 0) {
        pthread_mutex_unlock(&lock);
        return -ENOMEM;
    }
    a->used = 1;
    a->highres = highres;
    empty(a);
    pthread_mutex_unlock(&lock);
    return idx;
}

static int reset_array(int idx, int highres)
{
    event_array *a;

    pthread_mutex_lock(&lock);
    if ((a = find(idx, highres)) != NULL)
        empty(a);
    pthread_mutex_unlock(&lock);
    return a != NULL ? 0 : PM_ERR_NOCONTEXT;
}

static int release_array(int idx, int highres)
{
    event_array *a;

    pthread_mutex_lock(&lock);
    if ((a = find(idx, highres)) != NULL) {
        free(a->buf);
        *a = (event_array){0};
    }
    pthread_mutex_unlock(&lock);
    return a != NULL ? 0 : PM_ERR_NOCONTEXT;
}

/* A record stamped sec.frac (microseconds, or nanoseconds in a high
 * resolution array) with flags and count (parameters or records missed). */
static int add_record(int idx, int highres, int64_t sec, int64_t frac, uint32_t flags,
                      uint32_t count)
{
    size_t size = PMKIT_EVENT_RECORD(highres);
    event_array *a;
    unsigned char *r;
    int sts;

    pthread_mutex_lock(&lock);
    if ((a = find(idx, highres)) == NULL) {
        sts = PM_ERR_NOCONTEXT;
    } else if ((sts = reserve(a, size)) == 0) {
        r = a->buf + a->len;
        if (highres) {
            memcpy(r, &sec, 8);
            memcpy(r + 8, &frac, 8);
        } else {
            pmkit_put32(r, (uint32_t)sec);
            pmkit_put32(r + 4, (uint32_t)frac);
        }
        pmkit_put32(r + size - 8, flags);
        pmkit_put32(r + size - 4, count);
        a->record = a->len;
        a->len += size;
        pmkit_put32(a->buf + 4, pmkit_get32(a->buf + 4) + 1);
    }
    pthread_mutex_unlock(&lock);
    return sts;
}

static int add_param(int idx, int highres, pmID pmid, int type, const pmAtomValue *avp)
{
    const void *value;
    size_t size, padded;
    event_array *a;
    unsigned char *p;
    int sts, fixed;

    if (avp == NULL)
        return -EINVAL;
    if ((fixed = pmkit_event_value_size(type)) == PM_ERR_TYPE)
        return PM_ERR_TYPE;
    if (fixed > 0) { /* held in the atom itself */
        value = avp;
        size = (size_t)fixed;
    } else if (type == PM_TYPE_STRING) {
        if (avp->cp == NULL)
            return -EINVAL;
        value = avp->cp;
        size = strlen(avp->cp);
    } else {
        if (avp->vbp == NULL || avp->vbp->vlen < PM_VAL_HDR_SIZE)
            return -EINVAL;
        value = avp->vbp->vbuf;
        size = avp->vbp->vlen - PM_VAL_HDR_SIZE;
    }
    if (size > LEN_MAX - PM_VAL_HDR_SIZE)
        return PM_ERR_TOOBIG;
    padded = (PM_VAL_HDR_SIZE + size + 3) & ~(size_t)3;
    pthread_mutex_lock(&lock);
    if ((a = find(idx, highres)) == NULL) {
        sts = PM_ERR_NOCONTEXT;
    } else if (a->record == 0) {
        sts = -EINVAL; /* no record to add it to (PCP's library crashes) */
    } else if ((sts = reserve(a, 4 + padded)) == 0) {
        size_t count = a->record + PMKIT_EVENT_STAMP(highres) + 4;
        p = a->buf + a->len;
        pmkit_put32(p, pmid);
        pmkit_put32(p + 4, (uint32_t)type << 24 | (uint32_t)(PM_VAL_HDR_SIZE + size));
        memcpy(p + 8, value, size);
        memset(p + 8 + size, 0, padded - PM_VAL_HDR_SIZE - size);
        a->len += 4 + padded;
        pmkit_put32(a->buf + count, pmkit_get32(a->buf + count) + 1);
    }
    pthread_mutex_unlock(&lock);
    return sts;
}

/* The array with its header word filled in, or NULL. */
static void *address(int idx, int highres)
{
    event_array *a;
    void *base = NULL;

    pthread_mutex_lock(&lock);
    if ((a = find(idx, highres)) != NULL) {
        int type = highres ? PM_TYPE_HIGHRES_EVENT : PM_TYPE_EVENT;
        pmkit_put32(a->buf, (uint32_t)type << 24 | (uint32_t)a->len);
        base = a->buf;
    }
    pthread_mutex_unlock(&lock);
    return base;
}

int pmdaEventNewArray(void)
{
    return new_array(0);
}

int pmdaEventResetArray(int idx)
{
    return reset_array(idx, 0);
}

int pmdaEventReleaseArray(int idx)
{
    return release_array(idx, 0);
}

int pmdaEventAddRecord(int idx, struct timeval *tp, int flags)
{
    if (tp == NULL)
        return -EINVAL;
    return add_record(idx, 0, tp->tv_sec, tp->tv_usec, (uint32_t)flags, 0);
}

int pmdaEventAddMissedRecord(int idx, struct timeval *tp, int nmissed)
{
    if (tp == NULL)
        return -EINVAL;
    return add_record(idx, 0, tp->tv_sec, tp->tv_usec, PM_EVENT_FLAG_MISSED, (uint32_t)nmissed);
}

int pmdaEventAddParam(int idx, pmID pmid, int type, pmAtomValue *avp)
{
    return add_param(idx, 0, pmid, type, avp);
}

pmEventArray *pmdaEventGetAddr(int idx)
{
    return address(idx, 0);
}

int pmdaEventNewHighResArray(void)
{
    return new_array(1);
}

int pmdaEventResetHighResArray(int idx)
{
    return reset_array(idx, 1);
}

int pmdaEventReleaseHighResArray(int idx)
{
    return release_array(idx, 1);
}

int pmdaEventAddHighResRecord(int idx, struct timespec *ts, int flags)
{
    if (ts == NULL)
        return -EINVAL;
    return add_record(idx, 1, ts->tv_sec, ts->tv_nsec, (uint32_t)flags, 0);
}

int pmdaEventAddHighResMissedRecord(int idx, struct timespec *ts, int nmissed)
{
    if (ts == NULL)
        return -EINVAL;
    return add_record(idx, 1, ts->tv_sec, ts->tv_nsec, PM_EVENT_FLAG_MISSED, (uint32_t)nmissed);
}

int pmdaEventAddHighResParam(int idx, pmID pmid, int type, pmAtomValue *avp)
{
    return add_param(idx, 1, pmid, type, avp);
}

pmHighResEventArray *pmdaEventGetHighResAddr(int idx)
{
    return address(idx, 1);
}

/* The older names of the last two. */
int pmdaEventHighResAddParam(int idx, pmID pmid, int type, pmAtomValue *avp)
{
    return add_param(idx, 1, pmid, type, avp);
}

pmHighResEventArray *pmdaEventHighResGetAddr(int idx)
{
    return address(idx, 1);
}

/*
 * An event record's bytes for a log line, as PCP's makes them: the first
 * min(bufsize, msgsize) - 1 bytes, each printable one as itself, white
 * space as ' ' and the rest as '.', then a NUL; the rest of msg up to
 * msgsize is filled with '.'.  NULL (msg untouched) when msgsize < 4.
 * With bufsize <= 0, PCP's writes before msg (or reads past buffer);
 * pmkit's gives "".
 */
char *__pmdaEventPrint(const char *buffer, int bufsize, char *msg, int msgsize)
{
    int i, n;

    if (msgsize < 4)
        return NULL;
    n = bufsize < msgsize ? bufsize : msgsize;
    if (n < 1)
        n = 1;
    for (i = 0; i < msgsize; i++) {
        unsigned char c = i < n - 1 ? (unsigned char)buffer[i] : 0;

        if (c >= 0x20 && c < 0x7f) /* the C locale's printable bytes */
            msg[i] = (char)c;
        else if (c >= '\t' && c <= '\r' && i < n - 1)
            msg[i] = ' ';
        else
            msg[i] = '.';
    }
    msg[n - 1] = '\0';
    return msg;
}
