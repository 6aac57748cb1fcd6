/*
 * Unit tests for event queues and their clients (libpcp/pmda/eventq.c):
 * the memory limit, clients at different positions, late joiners, filters
 * and their release functions, access, shutdown, active queues, decoder
 * errors, bad handles and NULL arguments, and allocation failures.
 *
 * Where PCP 6.0.3 and pmkit agree, tests/oracle/probe_eventq.c compares
 * them; the expected values here are PCP's where it behaves as its manual
 * says, and pmkit's deliberate answers where PCP does not (docs/compat.md,
 * "Event queues": PCP hands a client the same events again, keeps events
 * for ended clients, counts an active queue's clients twice and crashes on
 * NULL arguments).
 *
 * malloc, calloc, realloc and strdup's allocations go through the wrappers
 * below (ld --wrap, tests/unit/CMakeLists.txt) so that one can be made to
 * fail; ASan reports anything leaked on those paths.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <cmocka.h>

#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include "alloc_hooks.h"

/* ---- helpers ---- */

static struct timeval stamp = {500, 0};
static char seen[1024];  /* what the decoder saw, "a,b,..." */
static int decoder_fail; /* events starting with this byte fail */

static int decoder(int array, void *buf, size_t len, struct timeval *tv, void *data)
{
    (void)data;
    if (len > 0 && decoder_fail != 0 && *(char *)buf == decoder_fail)
        return -E2BIG;
    snprintf(seen + strlen(seen), sizeof(seen) - strlen(seen), "%s%.*s", seen[0] ? "," : "",
             (int)len, (char *)buf);
    return pmdaEventAddRecord(array, tv, PM_EVENT_FLAG_POINT) == 0 ? 1 : -1;
}

/* ctx's new events from q as "a,b"; *nrec gets the array's record count. */
static const char *fetch(int q, int ctx, int *nrec)
{
    pmAtomValue av;
    int sts;

    seen[0] = '\0';
    sts = pmdaEventQueueRecords(q, &av, ctx, decoder, NULL);
    if (nrec != NULL)
        *nrec = sts == 1 ? ((pmEventArray *)av.vbp)->ea_nrecords : -1;
    if (sts == 0)
        assert_null(av.vbp);
    return sts < 0 ? "error" : seen;
}

static void append(int q, const char *text)
{
    stamp.tv_sec++;
    assert_int_equal(pmdaEventQueueAppend(q, (void *)text, strlen(text), &stamp), 0);
}

static unsigned long long qstat(int (*f)(int, pmAtomValue *), int q, int wide)
{
    pmAtomValue av;

    assert_int_equal(f(q, &av), 1);
    return wide ? av.ull : av.ul;
}

#define MEMORY(q)  qstat(pmdaEventQueueMemory, q, 1)
#define CLIENTS(q) qstat(pmdaEventQueueClients, q, 0)

static void join(int q, int ctx)
{
    assert_true(pmdaEventNewClient(ctx) >= 0);
    assert_int_equal(pmdaEventSetAccess(ctx, q, 1), 0);
    assert_string_equal(fetch(q, ctx, NULL), "");
}

/* Ends the clients, then shuts the queue down (freed: no member left). */
static void finish(int q, int n, ...)
{
    va_list ap;

    va_start(ap, n);
    for (int i = 0; i < n; i++)
        assert_int_equal(pmdaEventEndClient(va_arg(ap, int)), 0);
    va_end(ap);
    assert_int_equal(pmdaEventQueueShutdown(q), 0);
    assert_int_equal(pmdaEventQueueShutdown(q), -EINVAL);
}

/* ---- tests ---- */

static void test_limit_drops_oldest(void **state)
{
    int q = pmdaEventNewQueue("limit", 10), nrec;

    (void)state;
    join(q, 1);
    join(q, 2);
    append(q, "aaaa");
    append(q, "bbbb");
    assert_int_equal(MEMORY(q), 8);
    append(q, "cccc"); /* 12 > 10: aaaa goes */
    assert_int_equal(MEMORY(q), 8);
    assert_string_equal(fetch(q, 1, &nrec), "bbbb,cccc");
    assert_int_equal(nrec, 2); /* no "missed" record, as in PCP */
    append(q, "dddd");         /* bbbb goes: client 2 never sees it */
    append(q, "0123456789AB"); /* larger than the queue: counted, not kept */
    assert_int_equal(qstat(pmdaEventQueueCounter, q, 0), 5);
    assert_int_equal(qstat(pmdaEventQueueBytes, q, 1), 28);
    assert_string_equal(fetch(q, 2, &nrec), "cccc,dddd");
    assert_int_equal(nrec, 2);
    assert_int_equal(MEMORY(q), 4); /* cccc freed: both have seen it */
    assert_string_equal(fetch(q, 1, NULL), "dddd");
    assert_int_equal(MEMORY(q), 0);
    append(q, "0123456789"); /* exactly the limit */
    assert_int_equal(MEMORY(q), 10);
    append(q, "z");
    assert_int_equal(MEMORY(q), 1);
    assert_string_equal(fetch(q, 1, NULL), "z");
    assert_string_equal(fetch(q, 2, NULL), "z");
    finish(q, 2, 1, 2);
}

/* Each client sees each event once, whatever the others do (PCP hands a
 * client everything still held on each call). */
static void test_positions(void **state)
{
    int q = pmdaEventNewQueue("positions", 1000);

    (void)state;
    join(q, 1);
    join(q, 2);
    join(q, 3);
    append(q, "a");
    append(q, "b");
    assert_string_equal(fetch(q, 1, NULL), "a,b");
    assert_string_equal(fetch(q, 1, NULL), "");
    append(q, "c");
    assert_string_equal(fetch(q, 1, NULL), "c");
    assert_string_equal(fetch(q, 2, NULL), "a,b,c");
    assert_int_equal(MEMORY(q), 3); /* client 3 has seen none */
    append(q, "d");
    assert_string_equal(fetch(q, 3, NULL), "a,b,c,d");
    assert_int_equal(MEMORY(q), 1); /* d: 1 and 2 have not */
    assert_string_equal(fetch(q, 2, NULL), "d");
    assert_string_equal(fetch(q, 1, NULL), "d");
    assert_int_equal(MEMORY(q), 0);
    /* a client joining later starts at the oldest event held */
    append(q, "e");
    assert_int_equal(pmdaEventNewClient(4), 3);
    assert_int_equal(pmdaEventSetAccess(4, q, 1), 0);
    assert_string_equal(fetch(q, 4, NULL), "e");
    assert_int_equal(CLIENTS(q), 4);
    /* an ended client holds nothing (PCP keeps its events) */
    assert_int_equal(pmdaEventEndClient(1), 0);
    assert_int_equal(pmdaEventEndClient(2), 0);
    assert_int_equal(MEMORY(q), 1);
    assert_int_equal(pmdaEventEndClient(3), 0);
    assert_int_equal(MEMORY(q), 0);
    assert_int_equal(CLIENTS(q), 1);
    assert_int_equal(pmdaEventEndClient(4), 0);
    append(q, "nobody"); /* counted, not kept */
    assert_int_equal(MEMORY(q), 0);
    assert_int_equal(qstat(pmdaEventQueueCounter, q, 0), 6);
    finish(q, 0);
}

static char released[256];
static int filter_says;

static int apply(void *fdata, void *buf, size_t len)
{
    (void)fdata;
    return len > 0 && *(char *)buf == filter_says;
}

static void release(void *fdata)
{
    snprintf(released + strlen(released), sizeof(released) - strlen(released), "%s%s",
             released[0] ? "," : "", (char *)fdata);
}

static void test_filters(void **state)
{
    int q = pmdaEventNewQueue("filters", 1000), r = pmdaEventNewQueue("filters2", 100);

    (void)state;
    released[0] = '\0';
    join(q, 1);
    join(q, 2);
    filter_says = 'x';
    assert_int_equal(pmdaEventSetFilter(1, q, "F1", apply, release), 0);
    append(q, "xskip");
    append(q, "keep");
    assert_string_equal(fetch(q, 1, NULL), "keep");
    assert_string_equal(fetch(q, 2, NULL), "xskip,keep");
    assert_int_equal(MEMORY(q), 0); /* a filtered event counts as seen */
    assert_int_equal(pmdaEventSetFilter(1, q, "F2", apply, release), 0);
    assert_string_equal(released, "F1");
    assert_int_equal(pmdaEventSetFilter(1, q, "F3", apply, NULL), 0);
    assert_int_equal(pmdaEventSetFilter(1, q, "F4", NULL, release), 0); /* no release: skipped */
    assert_string_equal(released, "F1,F2");
    append(q, "xnow kept"); /* no apply function: the access flag decides */
    assert_string_equal(fetch(q, 1, NULL), "xnow kept");
    /* a filter on a queue not yet joined, and on a queue shut down */
    assert_int_equal(pmdaEventSetFilter(2, r, "G2", apply, release), 0);
    assert_int_equal(pmdaEventSetFilter(1, r, "G1", apply, release), 0);
    assert_int_equal(pmdaEventQueueShutdown(r), 0); /* no member: freed, filters released */
    assert_string_equal(released, "F1,F2,G1,G2");   /* in client order */
    assert_int_equal(pmdaEventSetFilter(1, r, "G3", apply, release), -EINVAL);
    assert_int_equal(pmdaEventEndClient(1), 0);
    assert_string_equal(released, "F1,F2,G1,G2,F4");
    assert_int_equal(pmdaEventEndClient(2), 0);
    assert_string_equal(released, "F1,F2,G1,G2,F4");
    finish(q, 0);
}

static void test_access(void **state)
{
    int q = pmdaEventNewQueue("access", 1000);

    (void)state;
    join(q, 1);
    assert_int_equal(pmdaEventNewClient(2), 1);
    assert_string_equal(fetch(q, 2, NULL), ""); /* joins without access */
    assert_int_equal(CLIENTS(q), 2);
    append(q, "secret");
    assert_string_equal(fetch(q, 2, NULL), "");
    assert_int_equal(MEMORY(q), 6);
    assert_string_equal(fetch(q, 1, NULL), "secret");
    assert_int_equal(MEMORY(q), 0);
    assert_int_equal(pmdaEventSetAccess(2, q, 7), 0);
    assert_int_equal(pmdaEventSetAccess(1, q, 0), 0);
    append(q, "open");
    assert_string_equal(fetch(q, 2, NULL), "open");
    assert_string_equal(fetch(q, 1, NULL), "");
    /* a filter decides whatever the access flag says (as in PCP) */
    filter_says = 'n';
    assert_int_equal(pmdaEventSetFilter(1, q, "F", apply, NULL), 0);
    append(q, "via filter");
    assert_string_equal(fetch(q, 1, NULL), "via filter");
    finish(q, 2, 1, 2);
}

static void test_shutdown(void **state)
{
    int q = pmdaEventNewQueue("down", 100), h;

    (void)state;
    join(q, 1);
    join(q, 2);
    append(q, "one");
    assert_int_equal(pmdaEventQueueShutdown(q), 0);
    assert_int_equal(pmdaEventQueueHandle("down"), q); /* still there for its members */
    assert_int_equal(pmdaEventNewQueue("down", 100), -EEXIST);
    append(q, "two");
    assert_string_equal(fetch(q, 1, NULL), "one,two");
    assert_int_equal(pmdaEventEndClient(1), 0);
    assert_int_equal(pmdaEventQueueHandle("down"), q);
    assert_int_equal(pmdaEventEndClient(2), 0); /* the last member: gone */
    assert_int_equal(pmdaEventQueueHandle("down"), -ESRCH);
    assert_int_equal(pmdaEventQueueAppend(q, "x", 1, &stamp), -EINVAL);
    h = pmdaEventNewQueue("down again", 100);
    assert_int_equal(h, q); /* the handle is used again */
    finish(h, 0);
}

static void test_active_queue(void **state)
{
    int q;

    (void)state;
    assert_int_equal(pmdaEventNewClient(1), 0);
    assert_int_equal(pmdaEventNewClient(2), 1);
    assert_int_equal(pmdaEventNewClient(3), 2);
    q = pmdaEventNewActiveQueue("active", 100, 3);
    assert_true(q >= 0);
    assert_int_equal(CLIENTS(q), 3);
    append(q, "early");
    assert_int_equal(MEMORY(q), 5); /* kept for the clients already there */
    assert_int_equal(pmdaEventSetAccess(1, q, 1), 0);
    assert_int_equal(pmdaEventSetAccess(2, q, 1), 0);
    assert_string_equal(fetch(q, 1, NULL), "early");
    assert_int_equal(CLIENTS(q), 3); /* PCP counts 4 */
    assert_string_equal(fetch(q, 2, NULL), "early");
    assert_int_equal(MEMORY(q), 5); /* client 3 expected still */
    assert_int_equal(pmdaEventEndClient(3), 0);
    assert_int_equal(CLIENTS(q), 2);
    append(q, "late");
    assert_string_equal(fetch(q, 1, NULL), "late");
    assert_string_equal(fetch(q, 2, NULL), "late");
    assert_int_equal(MEMORY(q), 0);
    finish(q, 2, 1, 2);

    /* only the clients it waits for count: one made later ending does not */
    assert_int_equal(pmdaEventNewClient(4), 0);
    q = pmdaEventNewActiveQueue("waits for 4", 100, 1);
    assert_int_equal(pmdaEventSetAccess(4, q, 1), 0);
    assert_int_equal(pmdaEventNewClient(5), 1);
    assert_int_equal(pmdaEventEndClient(5), 0);
    append(q, "kept");
    assert_int_equal(MEMORY(q), 4);
    assert_string_equal(fetch(q, 4, NULL), "kept");
    /* more expected than connected: the first ones to join stand in */
    assert_int_equal(pmdaEventNewClient(6), 1);
    finish(q, 2, 4, 6);
    q = pmdaEventNewActiveQueue("waits for two", 100, 2);
    assert_int_equal(pmdaEventNewClient(7), 0);
    assert_int_equal(pmdaEventSetAccess(7, q, 1), 0);
    append(q, "x");
    assert_string_equal(fetch(q, 7, NULL), "x");
    assert_int_equal(MEMORY(q), 1); /* one more is expected */
    finish(q, 1, 7);

    /* shut down while still waiting: the one it waited for may join after */
    assert_int_equal(pmdaEventNewClient(8), 0);
    assert_int_equal(pmdaEventNewClient(9), 1);
    q = pmdaEventNewActiveQueue("shut while waiting", 100, 2);
    assert_int_equal(pmdaEventSetAccess(8, q, 1), 0);
    assert_int_equal(pmdaEventSetAccess(9, q, 1), 0);
    assert_string_equal(fetch(q, 8, NULL), "");
    assert_int_equal(pmdaEventQueueShutdown(q), 0);
    assert_string_equal(fetch(q, 9, NULL), "");
    append(q, "y");
    assert_string_equal(fetch(q, 8, NULL), "y");
    assert_string_equal(fetch(q, 9, NULL), "y");
    assert_int_equal(MEMORY(q), 0); /* both have it: freed */
    assert_int_equal(CLIENTS(q), 2);
    assert_int_equal(pmdaEventEndClient(8), 0);
    assert_int_equal(pmdaEventEndClient(9), 0);
    assert_int_equal(pmdaEventQueueShutdown(q), -EINVAL); /* gone with its last member */
}

static void test_decoder_error(void **state)
{
    int q = pmdaEventNewQueue("decoder", 100);
    pmAtomValue av = {.ul = 77};

    (void)state;
    join(q, 1);
    append(q, "ok");
    append(q, "!bad");
    append(q, "after");
    decoder_fail = '!';
    assert_string_equal(fetch(q, 1, NULL), "error");
    assert_int_equal(pmdaEventQueueRecords(q, &av, 1, decoder, NULL), -E2BIG);
    assert_int_equal(av.ul, 77);    /* untouched */
    assert_int_equal(MEMORY(q), 9); /* ok consumed; the failed one stays next */
    decoder_fail = 0;
    assert_string_equal(fetch(q, 1, NULL), "!bad,after");
    finish(q, 1, 1);
}

static void test_bad_arguments(void **state)
{
    pmAtomValue av;
    struct timeval tv = {0, 0};
    int q = pmdaEventNewQueue("args", 100);

    (void)state;
    assert_int_equal(pmdaEventNewQueue("args", 100), -EEXIST);
    assert_int_equal(pmdaEventNewQueue("zero", 0), -EINVAL);
    assert_int_equal(pmdaEventNewQueue(NULL, 10), -EINVAL);
    assert_int_equal(pmdaEventQueueHandle("nosuch"), -ESRCH);
    assert_int_equal(pmdaEventQueueHandle(NULL), -EINVAL);
    for (int bad = -1; bad <= 1; bad += 2) {
        int h = bad < 0 ? -1 : 1000;
        assert_int_equal(pmdaEventQueueAppend(h, "x", 1, &tv), -EINVAL);
        assert_int_equal(pmdaEventQueueClients(h, &av), -EINVAL);
        assert_int_equal(pmdaEventQueueCounter(h, &av), -EINVAL);
        assert_int_equal(pmdaEventQueueBytes(h, &av), -EINVAL);
        assert_int_equal(pmdaEventQueueMemory(h, &av), -EINVAL);
        assert_int_equal(pmdaEventQueueShutdown(h), -EINVAL);
        assert_int_equal(pmdaEventQueueRecords(h, &av, 1, decoder, NULL), -EINVAL);
    }
    assert_int_equal(pmdaEventNewClient(5), 0);
    assert_int_equal(pmdaEventQueueRecords(q, &av, 6, decoder, NULL), -EINVAL);
    assert_int_equal(pmdaEventSetAccess(6, q, 1), -EINVAL);
    assert_int_equal(pmdaEventSetAccess(5, 1000, 1), -EINVAL);
    assert_int_equal(pmdaEventSetFilter(6, q, NULL, apply, NULL), -EINVAL);
    assert_int_equal(pmdaEventEndClient(6), 0); /* unknown: not an error */
    /* where PCP crashes */
    assert_int_equal(pmdaEventQueueAppend(q, "x", 1, NULL), -EINVAL);
    assert_int_equal(pmdaEventQueueAppend(q, NULL, 1, &tv), -EINVAL);
    assert_int_equal(pmdaEventQueueAppend(q, NULL, 0, &tv), 0);
    assert_int_equal(pmdaEventQueueClients(q, NULL), -EINVAL);
    assert_int_equal(pmdaEventClients(NULL), -EINVAL);
    assert_int_equal(pmdaEventQueueRecords(q, NULL, 5, decoder, NULL), -EINVAL);
    assert_int_equal(pmdaEventQueueRecords(q, &av, 5, NULL, NULL), -EINVAL);
    finish(q, 1, 5);
}

static void test_allocation_failure(void **state)
{
    int q, sts;

    (void)state;
    /* the event array's allocation fails at n 0; the name (strdup, out of
     * --wrap's reach) and the queue table (a free slot is left by the
     * tests before) do not fail here */
    for (long n = 0; n < 3; n++) {
        alloc_left = n;
        sts = pmdaEventNewQueue("nomem", 100);
        alloc_left = -1;
        if (sts >= 0)
            finish(sts, 0);
        else
            assert_int_equal(sts, -ENOMEM);
    }
    q = pmdaEventNewQueue("nomem", 100);
    assert_true(q >= 0);
    join(q, 1);
    alloc_left = 0;
    assert_int_equal(pmdaEventQueueAppend(q, "x", 1, &stamp), -ENOMEM);
    alloc_left = -1;
    assert_true(pmdaEventNewClient(99) >= 0);
    alloc_left = 0; /* its first queue state */
    assert_int_equal(pmdaEventSetAccess(99, q, 1), -ENOMEM);
    assert_int_equal(pmdaEventSetFilter(99, q, NULL, apply, NULL), -ENOMEM);
    alloc_left = -1;
    assert_int_equal(pmdaEventEndClient(99), 0);
    assert_int_equal(MEMORY(q), 0);
    append(q, "y");
    assert_string_equal(fetch(q, 1, NULL), "y");
    finish(q, 1, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_limit_drops_oldest),
        cmocka_unit_test(test_positions),
        cmocka_unit_test(test_filters),
        cmocka_unit_test(test_access),
        cmocka_unit_test(test_shutdown),
        cmocka_unit_test(test_active_queue),
        cmocka_unit_test(test_decoder_error),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_allocation_failure),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
