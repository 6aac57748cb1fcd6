/*
 * eventq.c - queues of events shared by an agent's client contexts
 * (pmdaEventNewQueue, pmdaEventQueueAppend, pmdaEventQueueRecords,
 * pmdaEventNewClient, pmdaEventSetFilter, ...), the layer above the event
 * array builder of event.c.
 *
 * A queue is a list of events (the agent's bytes, copied, and a
 * timestamp), each numbered in order of arrival.  A client context joins
 * a queue at its first pmdaEventQueueRecords call on it, starting at the
 * oldest event still held, and then remembers the number of the next
 * event it has to see.  An event is freed once every member has gone past
 * it, and the oldest events are dropped when a new one would take the
 * queue past its memory limit; members that had not seen them simply
 * never do (like PCP, no "missed" record is added).  Records decodes a
 * member's new events, through the agent's decoder, into the queue's one
 * event array, which the returned value points at until the next call.
 *
 * Queues and clients live in two tables of small integer handles under
 * one lock, so threads may use different queues at once.  The agent's
 * callbacks (decoder, filter, release) run with that lock held: they may
 * build event arrays but must not call the functions of this file.
 *
 * Unlike PCP 6.0.3 (docs/compat.md, "Event queues"), a client never gets
 * an event twice, an ended client no longer holds events in memory, and
 * the clients an active queue was created for are not counted again when
 * they join; NULL arguments are refused with -EINVAL rather than crashing.
 */
#include "pmda_int.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

typedef struct event {
    struct event *next;
    uint64_t seq;         /* arrival number within the queue */
    struct timeval stamp; /* as given to pmdaEventQueueAppend */
    size_t size;          /* bytes of data */
    unsigned char data[]; /* the agent's copy of the event */
} event;

typedef struct {
    int used;
    int shutdown;     /* pmdaEventQueueShutdown called: freed when no member is left */
    char *name;       /* unique among live queues */
    size_t maxmem;    /* limit on the bytes of data held */
    int array;        /* the event array handle Records fills */
    unsigned pending; /* active queue: clients expected to join, not yet joined ... */
    unsigned unnamed; /* ... of them those not connected when it was made */
    unsigned members; /* clients that have joined */
    uint32_t counter; /* events appended, ever (32 bits, as PCP reports it) */
    uint64_t bytes;   /* bytes appended, ever */
    uint64_t memory;  /* bytes held now */
    uint64_t nextseq; /* number for the next event */
    event *head, *tail;
} queue;

/* One client's state for one queue (indexed by queue handle). */
typedef struct {
    int joined;                             /* a member of the queue */
    int expected;                           /* active queue: counted in its pending */
    int access;                             /* pmdaEventSetAccess */
    int filtered;                           /* pmdaEventSetFilter was called */
    uint64_t next;                          /* joined: number of its next event */
    void *fdata;                            /* the filter's data ... */
    pmdaEventApplyFilterCallBack apply;     /* ... its test (NULL: none) ... */
    pmdaEventReleaseFilterCallBack release; /* ... and its destructor (may be NULL) */
} member;

typedef struct {
    int used;
    int context; /* the agent's client context number */
    member *q;   /* per queue handle, nq of them */
    int nq;
} client;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static queue *queues;
static int nqueues;
static client *clients;
static int nclients;

/* The live queue of handle h, or NULL; with the lock. */
static queue *find_queue(int h)
{
    return h >= 0 && h < nqueues && queues[h].used ? &queues[h] : NULL;
}

static client *find_client(int context)
{
    for (int i = 0; i < nclients; i++)
        if (clients[i].used && clients[i].context == context)
            return &clients[i];
    return NULL;
}

/* c's state for queue h, the table grown as needed; NULL if out of memory. */
static member *membership(client *c, int h)
{
    if (h >= c->nq) {
        member *t = realloc(c->q, (size_t)(h + 1) * sizeof(*t));
        if (t == NULL)
            return NULL;
        memset(t + c->nq, 0, (size_t)(h + 1 - c->nq) * sizeof(*t));
        c->q = t;
        c->nq = h + 1;
    }
    return &c->q[h];
}

static void drop_head(queue *q)
{
    event *e = q->head;

    q->head = e->next;
    if (q->head == NULL)
        q->tail = NULL;
    q->memory -= e->size;
    free(e);
}

static void release_filter(member *m)
{
    if (m->filtered && m->release != NULL)
        m->release(m->fdata);
    m->filtered = 0;
    m->apply = NULL;
    m->release = NULL;
    m->fdata = NULL;
}

/* Free the events every member has gone past (all of them when no member
 * is left and none is expected). */
static void trim(queue *q, int h)
{
    uint64_t low = UINT64_MAX;

    if (q->pending > 0)
        return;
    for (int i = 0; i < nclients; i++) {
        client *c = &clients[i];
        if (c->used && h < c->nq && c->q[h].joined && c->q[h].next < low)
            low = c->q[h].next;
    }
    while (q->head != NULL && q->head->seq < low)
        drop_head(q);
}

/* The queue and every client's state for it, gone (filters released). */
static void destroy(queue *q, int h)
{
    for (int i = 0; i < nclients; i++) {
        client *c = &clients[i];
        if (c->used && h < c->nq) {
            release_filter(&c->q[h]);
            c->q[h] = (member){0};
        }
    }
    while (q->head != NULL)
        drop_head(q);
    pmdaEventReleaseArray(q->array);
    free(q->name);
    *q = (queue){0};
}

static int new_queue(const char *name, size_t maxmem, unsigned int expected)
{
    queue *q;
    int h, sts;

    if (name == NULL || maxmem == 0)
        return -EINVAL;
    pthread_mutex_lock(&lock);
    for (h = 0; h < nqueues; h++)
        if (queues[h].used && strcmp(queues[h].name, name) == 0) {
            pthread_mutex_unlock(&lock);
            return -EEXIST;
        }
    for (h = 0; h < nqueues && queues[h].used; h++)
        ;
    if (h == nqueues) {
        queue *t = realloc(queues, (size_t)(nqueues + 1) * sizeof(*t));
        if (t == NULL) {
            pthread_mutex_unlock(&lock);
            return -ENOMEM;
        }
        queues = t;
        queues[nqueues++] = (queue){0};
    }
    q = &queues[h];
    *q = (queue){.maxmem = maxmem, .pending = expected, .unnamed = expected};
    if ((q->name = strdup(name)) == NULL)
        sts = -ENOMEM;
    else if ((sts = q->array = pmdaEventNewArray()) >= 0)
        q->used = 1;
    /* the expected clients are those connected now, as far as they go:
     * only their joining or ending counts, not that of others */
    for (int i = 0; q->used && q->unnamed > 0 && i < nclients; i++) {
        member *m;
        if (!clients[i].used)
            continue;
        if ((m = membership(&clients[i], h)) == NULL) {
            destroy(q, h); /* the marks made so far too */
            sts = -ENOMEM;
            break;
        }
        *m = (member){.expected = 1};
        q->unnamed--;
    }
    if (!q->used) {
        free(q->name);
        *q = (queue){0};
        h = sts;
    }
    pthread_mutex_unlock(&lock);
    return h;
}

int pmdaEventNewQueue(const char *name, size_t maxmem)
{
    return new_queue(name, maxmem, 0);
}

/* For queues made while clients are already connected: events are kept
 * for those clients until they join (or end). */
int pmdaEventNewActiveQueue(const char *name, size_t maxmem, unsigned int nclients_now)
{
    return new_queue(name, maxmem, nclients_now);
}

int pmdaEventQueueHandle(const char *name)
{
    int h, sts = -ESRCH;

    if (name == NULL)
        return -EINVAL;
    pthread_mutex_lock(&lock);
    for (h = 0; h < nqueues; h++)
        if (queues[h].used && strcmp(queues[h].name, name) == 0) {
            sts = h;
            break;
        }
    pthread_mutex_unlock(&lock);
    return sts;
}

/* A queue is freed at once if it has no member, else when its last
 * member ends; until then it works as before (as in PCP). */
int pmdaEventQueueShutdown(int h)
{
    queue *q;
    int sts = 0;

    pthread_mutex_lock(&lock);
    if ((q = find_queue(h)) == NULL) {
        sts = -EINVAL;
    } else {
        q->shutdown = 1;
        /* it waits for no one any more: the marks go with the count, or a
         * marked client joining later would take the count below 0 */
        for (int i = 0; i < nclients; i++)
            if (clients[i].used && h < clients[i].nq)
                clients[i].q[h].expected = 0;
        q->pending = q->unnamed = 0;
        if (q->members == 0)
            destroy(q, h);
    }
    pthread_mutex_unlock(&lock);
    return sts;
}

/* Counted even when not kept: too large, or nobody to keep it for. */
static int append(queue *q, void *buffer, size_t bytes, const struct timeval *tv)
{
    event *e;

    q->counter++;
    q->bytes += bytes;
    if (bytes > q->maxmem) {
        pmNotifyErr(LOG_WARNING, "Event too large for queue %s (%zu > %zu)", q->name, bytes,
                    q->maxmem);
        return 0;
    }
    if (q->members == 0 && q->pending == 0)
        return 0;
    while (q->head != NULL && q->memory + bytes > q->maxmem)
        drop_head(q);
    if ((e = malloc(sizeof(*e) + bytes)) == NULL)
        return -ENOMEM;
    *e = (event){.seq = q->nextseq++, .stamp = *tv, .size = bytes};
    if (bytes > 0)
        memcpy(e->data, buffer, bytes);
    if (q->tail != NULL)
        q->tail->next = e;
    else
        q->head = e;
    q->tail = e;
    q->memory += bytes;
    return 0;
}

int pmdaEventQueueAppend(int h, void *buffer, size_t bytes, struct timeval *tv)
{
    queue *q;
    int sts;

    if (tv == NULL || (buffer == NULL && bytes > 0))
        return -EINVAL;
    pthread_mutex_lock(&lock);
    sts = (q = find_queue(h)) == NULL ? -EINVAL : append(q, buffer, bytes, tv);
    pthread_mutex_unlock(&lock);
    return sts;
}

/* The queue statistics: which one, into avp. */
enum { STAT_CLIENTS, STAT_COUNTER, STAT_BYTES, STAT_MEMORY };

static int queue_stat(int h, pmAtomValue *avp, int which)
{
    queue *q;
    int sts = 1;

    if (avp == NULL)
        return -EINVAL;
    pthread_mutex_lock(&lock);
    if ((q = find_queue(h)) == NULL)
        sts = -EINVAL;
    else if (which == STAT_CLIENTS)
        avp->ul = q->members + q->pending;
    else if (which == STAT_COUNTER)
        avp->ul = q->counter;
    else if (which == STAT_BYTES)
        avp->ull = q->bytes;
    else
        avp->ull = q->memory;
    pthread_mutex_unlock(&lock);
    return sts;
}

int pmdaEventQueueClients(int h, pmAtomValue *avp)
{
    return queue_stat(h, avp, STAT_CLIENTS);
}

int pmdaEventQueueCounter(int h, pmAtomValue *avp)
{
    return queue_stat(h, avp, STAT_COUNTER);
}

int pmdaEventQueueBytes(int h, pmAtomValue *avp)
{
    return queue_stat(h, avp, STAT_BYTES);
}

int pmdaEventQueueMemory(int h, pmAtomValue *avp)
{
    return queue_stat(h, avp, STAT_MEMORY);
}

/* Does m's client get this event: a filter decides if one is set (PCP
 * then ignores the access flag), else the access flag. */
static int wanted(const member *m, event *e)
{
    if (m->apply != NULL)
        return m->apply(m->fdata, e->data, e->size) == 0;
    return m->access;
}

/*
 * m's events from the queue through the decoder into the array: the sum
 * of the decoder's answers, or the first error.  The event that failed
 * stays the next one (it is tried again on the next call, as in PCP).
 */
static int decode(queue *q, member *m, pmdaEventDecodeCallBack decoder, void *data)
{
    int count = 0;

    pmdaEventResetArray(q->array);
    for (event *e = q->head; e != NULL; e = e->next) {
        if (e->seq < m->next)
            continue;
        if (wanted(m, e)) {
            int sts = decoder(q->array, e->data, e->size, &e->stamp, data);
            if (sts < 0)
                return sts;
            count += sts;
        }
        m->next = e->seq + 1;
    }
    return count;
}

int pmdaEventQueueRecords(int h, pmAtomValue *avp, int context, pmdaEventDecodeCallBack decoder,
                          void *data)
{
    queue *q;
    client *c;
    member *m = NULL;
    int sts;

    if (avp == NULL || decoder == NULL)
        return -EINVAL;
    pthread_mutex_lock(&lock);
    if ((q = find_queue(h)) == NULL || (c = find_client(context)) == NULL)
        sts = -EINVAL;
    else if ((m = membership(c, h)) == NULL)
        sts = -ENOMEM;
    else
        sts = 0;
    if (sts == 0 && !m->joined) {
        m->joined = 1;
        m->next = q->head != NULL ? q->head->seq : q->nextseq;
        q->members++;
        if (m->expected || q->unnamed > 0) { /* one the active queue waited for */
            q->unnamed -= !m->expected;
            m->expected = 0;
            q->pending--;
        }
    }
    if (sts == 0) {
        sts = decode(q, m, decoder, data);
        trim(q, h);
    }
    if (sts >= 0) {
        avp->vbp = sts > 0 ? (pmValueBlock *)pmdaEventGetAddr(q->array) : NULL;
        sts = sts > 0 ? PMDA_FETCH_STATIC : PMDA_FETCH_NOVALUES;
    }
    pthread_mutex_unlock(&lock);
    return sts;
}

/* The client's slot number (its existing one if it has one). */
int pmdaEventNewClient(int context)
{
    client *c;
    int i;

    pthread_mutex_lock(&lock);
    if ((c = find_client(context)) != NULL) {
        i = (int)(c - clients);
        pthread_mutex_unlock(&lock);
        return i;
    }
    for (i = 0; i < nclients && clients[i].used; i++)
        ;
    if (i == nclients) {
        client *t = realloc(clients, (size_t)(nclients + 1) * sizeof(*t));
        if (t == NULL) {
            pthread_mutex_unlock(&lock);
            return -ENOMEM;
        }
        clients = t;
        clients[nclients++] = (client){0};
    }
    clients[i] = (client){.used = 1, .context = context};
    pthread_mutex_unlock(&lock);
    return i;
}

/* The client leaves every queue: its filters are released, the events only
 * it still needed are freed, and shut down queues it was the last member
 * of go.  An unknown context is not an error (as in PCP). */
int pmdaEventEndClient(int context)
{
    client *c;

    pthread_mutex_lock(&lock);
    if ((c = find_client(context)) != NULL) {
        for (int h = 0; h < nqueues; h++) {
            queue *q = &queues[h];
            member *m = h < c->nq ? &c->q[h] : NULL;
            if (!q->used)
                continue;
            if (m != NULL)
                release_filter(m);
            if (m == NULL || !m->joined) {
                if (m != NULL && m->expected) /* one the active queue waited for */
                    q->pending--;
                continue;
            }
            m->joined = 0;
            q->members--;
            if (q->shutdown && q->members == 0)
                destroy(q, h);
            else
                trim(q, h);
        }
        free(c->q);
        *c = (client){0};
    }
    pthread_mutex_unlock(&lock);
    return 0;
}

int pmdaEventClients(pmAtomValue *avp)
{
    unsigned n = 0;

    if (avp == NULL)
        return -EINVAL;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < nclients; i++)
        n += clients[i].used != 0;
    pthread_mutex_unlock(&lock);
    avp->ul = n;
    return 1;
}

/* c's state for queue h, or NULL with *sts set; with the lock. */
static member *client_queue(int context, int h, int *sts)
{
    client *c;
    member *m = NULL;

    if (find_queue(h) == NULL || (c = find_client(context)) == NULL)
        *sts = -EINVAL;
    else if ((m = membership(c, h)) == NULL)
        *sts = -ENOMEM;
    else
        *sts = 0;
    return m;
}

/* The previous filter, if any, is released first (PCP calls a NULL
 * release function and crashes; pmkit skips it). */
int pmdaEventSetFilter(int context, int h, void *filter, pmdaEventApplyFilterCallBack apply,
                       pmdaEventReleaseFilterCallBack release)
{
    member *m;
    int sts;

    pthread_mutex_lock(&lock);
    if ((m = client_queue(context, h, &sts)) != NULL) {
        release_filter(m);
        m->filtered = 1;
        m->fdata = filter;
        m->apply = apply;
        m->release = release;
    }
    pthread_mutex_unlock(&lock);
    return sts;
}

int pmdaEventSetAccess(int context, int h, int allow)
{
    member *m;
    int sts;

    pthread_mutex_lock(&lock);
    if ((m = client_queue(context, h, &sts)) != NULL)
        m->access = allow != 0;
    pthread_mutex_unlock(&lock);
    return sts;
}
