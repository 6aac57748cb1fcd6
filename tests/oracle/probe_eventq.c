/*
 * probe_eventq.c - event queues and their clients (pmdaEventNewQueue,
 * pmdaEventQueueAppend, pmdaEventQueueRecords, pmdaEventNewClient,
 * pmdaEventSetFilter, pmdaEventSetAccess, ...) from one source built
 * twice, against pmkit's libpcp_pmda and against Debian's, printing every
 * answer: handles and error codes, the statistics, which events each
 * decoder call sees and the arrays returned.  compare.sh compares the two
 * outputs.  The warnings both libraries write to stderr are caught in a
 * file and printed without their date and process id.
 *
 * Left out, because PCP 6.0.3 gets them wrong (docs/compat.md, "Event
 * queues"; tests/unit/test_eventq.c covers pmkit's answers): a client
 * fetching twice before the others (PCP hands it the same events again),
 * clients joining while events are held for others, an active queue's
 * client count once its clients join, the memory held after a client
 * ends, filters without an apply or release function and NULL arguments
 * (PCP crashes), and a filter set for a client without access.
 */
#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

static struct timeval stamp = {1000, 250};
static int decoder_answer = 1;

static const char *err(int sts)
{
    static char buf[PM_MAXERRMSGLEN];

    return sts < 0 ? pmErrStr_r(sts, buf, sizeof(buf)) : "ok";
}

/* Prints the event and adds a record for it unless told to answer 0 or an
 * error; events starting with '!' fail with -E2BIG. */
static int decoder(int array, void *buf, size_t len, struct timeval *tv, void *data)
{
    int answer = len > 0 && *(char *)buf == '!' ? -E2BIG : decoder_answer;

    printf("    decode array %d \"%.*s\" (%zu) at %ld.%06ld data %s -> %d\n", array, (int)len,
           (char *)buf, len, (long)tv->tv_sec, (long)tv->tv_usec, (char *)data, answer);
    if (answer > 0)
        pmdaEventAddRecord(array, tv, PM_EVENT_FLAG_POINT);
    return answer;
}

static int filter_answer;

static int apply(void *fdata, void *buf, size_t len)
{
    printf("    apply %s \"%.*s\" -> %d\n", (char *)fdata, (int)len, (char *)buf, filter_answer);
    return filter_answer;
}

static void release(void *fdata)
{
    printf("    release %s\n", (char *)fdata);
}

static void show_array(const pmAtomValue *av)
{
    const unsigned char *p = (const unsigned char *)av->vbp;
    unsigned int w[2], len;

    if (p == NULL) {
        printf("    no array\n");
        return;
    }
    memcpy(w, p, sizeof(w));
    len = w[0] & 0xffffff;
    printf("    array type %u len %u records %u:", w[0] >> 24, len, w[1]);
    for (unsigned int at = 8; at + 4 <= len; at += 4) {
        unsigned int v;
        memcpy(&v, p + at, 4);
        printf(" %08x", v);
    }
    printf("\n");
}

static void records(int q, int ctx)
{
    pmAtomValue av;
    int sts = pmdaEventQueueRecords(q, &av, ctx, decoder, "cookie");

    printf("  records(queue %d, context %d) = %d %s\n", q, ctx, sts, err(sts));
    if (sts >= 0)
        show_array(&av);
}

static void stats(int q)
{
    pmAtomValue av;
    int sts;

    printf("  queue %d:", q);
    if ((sts = pmdaEventQueueClients(q, &av)) < 0)
        printf(" clients %s", err(sts));
    else
        printf(" clients %d/%u", sts, av.ul);
    if ((sts = pmdaEventQueueCounter(q, &av)) < 0)
        printf(" counter %s", err(sts));
    else
        printf(" counter %d/%u", sts, av.ul);
    if ((sts = pmdaEventQueueBytes(q, &av)) < 0)
        printf(" bytes %s", err(sts));
    else
        printf(" bytes %d/%llu", sts, (unsigned long long)av.ull);
    if ((sts = pmdaEventQueueMemory(q, &av)) < 0)
        printf(" memory %s", err(sts));
    else
        printf(" memory %d/%llu", sts, (unsigned long long)av.ull);
    sts = pmdaEventClients(&av);
    printf(" all clients %d/%u\n", sts, av.ul);
}

static void append(int q, const char *text)
{
    int sts;

    stamp.tv_sec++;
    sts = pmdaEventQueueAppend(q, (void *)text, strlen(text), &stamp);
    printf("  append(queue %d, \"%s\") = %d %s\n", q, text, sts, err(sts));
}

#define CALL(x)                                                                                    \
    do {                                                                                           \
        int sts_ = (x);                                                                            \
        printf("  %s = %d %s\n", #x, sts_, err(sts_));                                             \
    } while (0)

static void handles(void)
{
    printf("handles\n");
    CALL(pmdaEventNewArray());
    CALL(pmdaEventNewQueue("alpha", 100));
    CALL(pmdaEventNewArray());
    CALL(pmdaEventNewQueue("beta", 100));
    CALL(pmdaEventNewQueue("alpha", 50));
    CALL(pmdaEventNewQueue("gamma", 0));
    CALL(pmdaEventNewQueue(NULL, 10));
    CALL(pmdaEventNewActiveQueue("delta", 0, 1));
    CALL(pmdaEventNewActiveQueue("beta", 10, 1));
    CALL(pmdaEventNewQueue("", 10));
    CALL(pmdaEventQueueHandle("alpha"));
    CALL(pmdaEventQueueHandle("beta"));
    CALL(pmdaEventQueueHandle(""));
    CALL(pmdaEventQueueHandle("nosuch"));
    CALL(pmdaEventQueueShutdown(99));
    CALL(pmdaEventQueueShutdown(-1));
    CALL(pmdaEventQueueAppend(99, "x", 1, &stamp));
    stats(0);
    stats(99);
    stats(-1);
}

static void client_slots(void)
{
    pmAtomValue av;

    printf("client slots\n");
    CALL(pmdaEventEndClient(42));
    CALL(pmdaEventNewClient(10));
    CALL(pmdaEventNewClient(11));
    CALL(pmdaEventNewClient(10));
    CALL(pmdaEventNewClient(0));
    CALL(pmdaEventNewClient(-1));
    CALL(pmdaEventClients(&av));
    printf("  %u clients\n", av.ul);
    CALL(pmdaEventEndClient(11));
    CALL(pmdaEventEndClient(11));
    CALL(pmdaEventNewClient(12));
    CALL(pmdaEventNewClient(13));
    CALL(pmdaEventClients(&av));
    printf("  %u clients\n", av.ul);
    for (int ctx = -1; ctx <= 13; ctx++)
        pmdaEventEndClient(ctx);
    CALL(pmdaEventClients(&av));
    printf("  %u clients\n", av.ul);
}

/* One client reading after each round, then two reading in turn. */
static void rounds(void)
{
    int q = pmdaEventNewQueue("rounds", 1000);

    printf("rounds on queue %d\n", q);
    append(q, "before anyone");
    stats(q);
    CALL(pmdaEventNewClient(1));
    CALL(pmdaEventSetAccess(1, q, 1));
    CALL(pmdaEventSetAccess(7, q, 1));
    CALL(pmdaEventSetAccess(1, 99, 1));
    records(q, 7);
    records(99, 1);
    stats(q);
    records(q, 1);
    stats(q);
    append(q, "one");
    stats(q);
    records(q, 1);
    stats(q);
    append(q, "two");
    append(q, "three");
    records(q, 1);
    records(q, 1);
    stats(q);
    CALL(pmdaEventNewClient(2));
    CALL(pmdaEventSetAccess(2, q, 3));
    records(q, 2);
    for (int round = 0; round < 3; round++) {
        char text[32];
        snprintf(text, sizeof(text), "round %d", round);
        append(q, text);
        if (round == 1)
            append(q, "");
        stats(q);
        records(q, 2);
        stats(q);
        records(q, 1);
        stats(q);
    }
    printf(" decoder answers\n");
    decoder_answer = 2;
    append(q, "answer 2");
    records(q, 1);
    records(q, 2);
    decoder_answer = 0;
    append(q, "answer 0");
    records(q, 1);
    records(q, 2);
    decoder_answer = 1;
    append(q, "ok first");
    append(q, "!fails");
    append(q, "after");
    stats(q);
    records(q, 1);
    stats(q);
    records(q, 2);
    stats(q);
    records(q, 1);
    stats(q);
    CALL(pmdaEventEndClient(1));
    CALL(pmdaEventEndClient(2));
}

/* Events dropped at the memory limit, two clients reading in turn. */
static void limit(void)
{
    int q = pmdaEventNewQueue("small", 10);

    printf("memory limit on queue %d\n", q);
    CALL(pmdaEventNewClient(3));
    CALL(pmdaEventNewClient(4));
    CALL(pmdaEventSetAccess(3, q, 1));
    CALL(pmdaEventSetAccess(4, q, 1));
    records(q, 3);
    records(q, 4);
    append(q, "aaaa");
    stats(q);
    append(q, "bbbb");
    stats(q);
    append(q, "cccc");
    stats(q);
    append(q, "dddd");
    stats(q);
    records(q, 3);
    records(q, 4);
    stats(q);
    append(q, "0123456789");
    stats(q);
    append(q, "0123456789AB");
    stats(q);
    append(q, "z");
    stats(q);
    records(q, 4);
    records(q, 3);
    stats(q);
    CALL(pmdaEventEndClient(3));
    CALL(pmdaEventEndClient(4));
}

static void access_and_filters(void)
{
    int q = pmdaEventNewQueue("filtered", 100);

    printf("access and filters on queue %d\n", q);
    CALL(pmdaEventNewClient(5));
    CALL(pmdaEventNewClient(6));
    CALL(pmdaEventNewClient(8));
    CALL(pmdaEventSetAccess(5, q, 1));
    CALL(pmdaEventSetAccess(6, q, 1));
    CALL(pmdaEventSetFilter(5, q, "F5", apply, release));
    CALL(pmdaEventSetFilter(9, q, "F9", apply, release));
    CALL(pmdaEventSetFilter(5, 99, "F99", apply, release));
    records(q, 5);
    records(q, 6);
    records(q, 8);
    stats(q);
    append(q, "kept");
    records(q, 5);
    records(q, 6);
    records(q, 8);
    stats(q);
    filter_answer = 1;
    append(q, "filtered");
    records(q, 5);
    records(q, 6);
    records(q, 8);
    stats(q);
    CALL(pmdaEventSetFilter(5, q, "F5b", apply, release));
    CALL(pmdaEventSetFilter(5, q, "F5c", apply, release));
    filter_answer = 0;
    CALL(pmdaEventSetAccess(6, q, 0));
    append(q, "after revoking");
    records(q, 5);
    records(q, 6);
    records(q, 8);
    stats(q);
    CALL(pmdaEventEndClient(5));
    CALL(pmdaEventEndClient(6));
    CALL(pmdaEventEndClient(8));
    stats(q);
}

static void shutdown_and_active(void)
{
    int q = pmdaEventNewQueue("idle", 100), r, a;

    printf("shutdown of queue %d with no clients\n", q);
    CALL(pmdaEventQueueShutdown(q));
    CALL(pmdaEventQueueHandle("idle"));
    CALL(pmdaEventQueueShutdown(q));
    stats(q);
    r = pmdaEventNewQueue("busy", 100);
    printf("shutdown of queue %d with clients\n", r);
    CALL(pmdaEventNewClient(20));
    CALL(pmdaEventNewClient(21));
    CALL(pmdaEventSetAccess(20, r, 1));
    CALL(pmdaEventSetFilter(21, r, "F21", apply, release));
    records(r, 20);
    records(r, 21);
    append(r, "before");
    CALL(pmdaEventQueueShutdown(r));
    CALL(pmdaEventQueueHandle("busy"));
    CALL(pmdaEventNewQueue("busy", 10));
    append(r, "after");
    stats(r);
    records(r, 20);
    records(r, 21);
    stats(r);
    CALL(pmdaEventEndClient(20));
    stats(r);
    CALL(pmdaEventEndClient(21));
    stats(r);
    CALL(pmdaEventQueueHandle("busy"));
    append(r, "gone");
    records(r, 20);
    CALL(pmdaEventNewQueue("reused", 100));

    CALL(pmdaEventNewClient(30));
    CALL(pmdaEventNewClient(31));
    a = pmdaEventNewActiveQueue("active", 100, 2);
    printf("active queue %d\n", a);
    stats(a);
    append(a, "waiting");
    stats(a);
    CALL(pmdaEventSetAccess(30, a, 1));
    records(a, 30);
    CALL(pmdaEventEndClient(30));
    CALL(pmdaEventEndClient(31));

    /* a client the active queue did not wait for ends before the one it
     * did fetches: the events are still there for that one */
    CALL(pmdaEventNewClient(40));
    a = pmdaEventNewActiveQueue("waiting for 40", 100, 1);
    CALL(pmdaEventSetAccess(40, a, 1));
    CALL(pmdaEventNewClient(41));
    CALL(pmdaEventEndClient(41));
    append(a, "kept");
    append(a, "for 40");
    records(a, 40);
    CALL(pmdaEventEndClient(40));
}

/* PCP's warnings carry a date and a process id: print what follows. */
static void show_stderr(FILE *f)
{
    char line[512];

    fflush(stderr);
    rewind(f);
    printf("stderr\n");
    while (fgets(line, sizeof(line), f) != NULL) {
        char *p = strstr(line, ") ");
        printf("  %s", p != NULL ? p + 2 : line);
    }
}

int main(void)
{
    FILE *f;

    setvbuf(stdout, NULL, _IONBF, 0);
    if ((f = tmpfile()) == NULL || dup2(fileno(f), 2) < 0) {
        perror("tmpfile");
        return 1;
    }
    handles();
    client_slots();
    rounds();
    limit();
    access_and_filters();
    shutdown_and_active();
    show_stderr(f);
    return 0;
}
