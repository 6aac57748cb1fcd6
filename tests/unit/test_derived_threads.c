/*
 * Derived metrics fetched by several threads in one local context over
 * tests/oracle/dm_agent.c (domain 245): the context's state is then
 * shared, its mutexes taken for real (libpcp/derived/registry.h marks
 * them instead while the process has one thread, as every other test of
 * derived metrics runs), its kept plan taken and given back by several
 * threads, replaced when their requests differ and dropped when a thread
 * adds a metric to the context meanwhile.
 *
 * Each result must hold its metrics' values from one agent fetch (th.b
 * is twice th.a less one, and th.s, a sum over instances, is the same
 * fetch's), and a metric added by one thread is fetched by the next
 * request that names it.  What interleaving happens is up to the
 * scheduler: the test checks every result whatever it was, not timing.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <pcp/pmapi.h>

#include "dm_setup.h"

enum { NTHREADS = 3, NFETCH = 20000, NADD = 20 };

static int ctx;
static pmID ids[3]; /* th.a, th.b, th.s */
static pthread_barrier_t start;

typedef struct worker {
    int id;
    int bad;       /* results that broke a rule */
    int added;     /* metrics this thread added (worker 0) */
    char why[160]; /* the first broken rule */
} worker;

static void note(worker *w, const char *fmt, int a, int b)
{
    if (w->bad++ == 0)
        snprintf(w->why, sizeof(w->why), fmt, a, b);
}

/* One result of ids in the order given by at[] (positions of a, b, s). */
static void check(worker *w, const pmResult *r, const int at[3])
{
    const pmValueSet *a = r->vset[at[0]], *b = r->vset[at[1]], *s = r->vset[at[2]];

    if (a->numval != 1 || b->numval != 1 || s->numval != 1) {
        note(w, "numval %d, %d", a->numval, b->numval);
        return;
    }
    /* the agent's n-th fetch: dm.u32 is 10n, dm.ia.u32 100 i + n over
     * instances 0 1 2 3 5, 2 missing when n is even (dm_agent.c) */
    int va = a->vlist[0].value.lval, vb = b->vlist[0].value.lval, vs = s->vlist[0].value.lval;
    int n = (va - 1) / 10;
    if (vb != 2 * (va - 1))
        note(w, "th.b %d for th.a %d", vb, va);
    if (s->valfmt != PM_VAL_INSITU || vs != (n % 2 != 0 ? 1100 + 5 * n : 900 + 4 * n))
        note(w, "th.s %d for th.a %d", vs, va);
}

/* Worker 0 also adds metrics to the shared context as it goes, and checks
 * each added one is fetched by its next request. */
static void *work(void *arg)
{
    worker *w = arg;
    static const int orders[2][3] = {{0, 1, 2}, {2, 0, 1}};
    char name[32], *err;
    pmResult *r;

    int used = pmUseContext(ctx);
    pthread_barrier_wait(&start); /* all at once, the likelier to meet */
    if (used < 0) {
        note(w, "pmUseContext %d %d", used, ctx);
        return NULL;
    }
    for (int k = 0; k < NFETCH; k++) {
        const int *at = orders[(k + w->id) % 2 == 0 || w->id == 2 ? 0 : 1];
        pmID req[3];
        for (int i = 0; i < 3; i++)
            req[at[i]] = ids[i];
        int sts = pmFetch(3, req, &r);
        if (sts < 0) {
            note(w, "pmFetch %d at %d", sts, k);
            continue;
        }
        check(w, r, at);
        pmFreeResult(r);
        if (w->id != 0 || k % (NFETCH / NADD) != 0)
            continue;
        pmID added, both[2] = {ids[0], PM_ID_NULL};
        const char *nm = name;
        snprintf(name, sizeof(name), "th.x%d", w->added);
        err = NULL;
        if (pmAddDerivedMetric(name, "dm.u32 + 1", &err) < 0 || pmLookupName(1, &nm, &added) != 1) {
            note(w, "add %d at %d", w->added, k);
            free(err);
            continue;
        }
        w->added++;
        both[1] = added;
        if ((sts = pmFetch(2, both, &r)) < 0) {
            note(w, "pmFetch %d of an added metric at %d", sts, k);
            continue;
        }
        if (r->vset[1]->numval != 1 ||
            r->vset[1]->vlist[0].value.lval != r->vset[0]->vlist[0].value.lval)
            note(w, "added metric numval %d at %d", r->vset[1]->numval, k);
        pmFreeResult(r);
    }
    return NULL;
}

static void test_threads_share_context(void **state)
{
    static const char *names[] = {"th.a", "th.b", "th.s"};
    static const char *const exprs[] = {"dm.u32 + 1", "dm.u32 * 2", "sum(dm.ia.u32)"};
    pthread_t t[NTHREADS];
    worker w[NTHREADS];
    char *err = NULL;

    (void)state;
    assert_true((ctx = pmNewContext(PM_CONTEXT_LOCAL, NULL)) >= 0);
    for (int i = 0; i < 3; i++) {
        if (pmAddDerivedMetric(names[i], exprs[i], &err) < 0) {
            fprintf(stderr, "%s\n", err != NULL ? err : "?");
            fail();
        }
        assert_int_equal(pmLookupName(1, &names[i], &ids[i]), 1);
    }
    memset(w, 0, sizeof(w));
    assert_int_equal(pthread_barrier_init(&start, NULL, NTHREADS), 0);
    for (int i = 0; i < NTHREADS; i++) {
        w[i].id = i;
        assert_int_equal(pthread_create(&t[i], NULL, work, &w[i]), 0);
    }
    for (int i = 0; i < NTHREADS; i++)
        assert_int_equal(pthread_join(t[i], NULL), 0);
    pthread_barrier_destroy(&start);
    for (int i = 0; i < NTHREADS; i++) {
        if (w[i].bad != 0)
            fprintf(stderr, "thread %d: %d bad results, first: %s\n", i, w[i].bad, w[i].why);
        assert_int_equal(w[i].bad, 0);
    }
    assert_int_equal(w[0].added, NADD);
    assert_int_equal(pmDestroyContext(ctx), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threads_share_context),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
