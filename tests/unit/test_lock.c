/*
 * Unit tests for libpcp's library lock (libpcp/context/context.c): a thread
 * that the holder starts while it holds the lock must not get in before
 * the holder leaves, whether the holder took the mutex or (alone in the
 * process) did without it; nested holds count.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include <cmocka.h>

#include "context.h"

static atomic_int entered;

static void *enter(void *arg)
{
    (void)arg;
    pmkit_lock();
    atomic_store(&entered, 1);
    pmkit_unlock();
    return NULL;
}

static void pause_ms(long ms)
{
    struct timespec ts = {0, ms * 1000000L};
    nanosleep(&ts, NULL);
}

/* Hold the lock `depth` times, start a thread that wants it, and check it
 * stays out until the last release. */
static void check_excludes(int depth)
{
    pthread_t t;

    atomic_store(&entered, 0);
    for (int i = 0; i < depth; i++)
        pmkit_lock();
    assert_int_equal(pthread_create(&t, NULL, enter, NULL), 0);
    for (int i = depth; i > 0; i--) {
        pause_ms(50);
        assert_int_equal(atomic_load(&entered), 0);
        pmkit_unlock();
    }
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_int_equal(atomic_load(&entered), 1);
}

/* Runs first, while the process has one thread: the holder skips the
 * mutex, and the thread it starts must wait all the same. */
static void test_single_threaded_holder(void **state)
{
    (void)state;
#if PMKIT_HAVE_SINGLE_THREADED
    assert_true(pmkit_single_threaded());
#endif
    check_excludes(2);
}

/* Threads have existed since: the mutex itself. */
static void test_threaded_holder(void **state)
{
    (void)state;
#if PMKIT_HAVE_SINGLE_THREADED
    assert_false(pmkit_single_threaded());
#endif
    check_excludes(1);
    check_excludes(3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_single_threaded_holder),
        cmocka_unit_test(test_threaded_holder),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
