/*
 * Unit tests for the checks of libpcp's lock rules (PMKIT_CHECK, in
 * builds with PMKIT_CHECKS: ASan+UBSan and Debug): a room function whose
 * caller must hold the library lock aborts with its place named when
 * called without it, and runs when the lock is held.  Each call that must
 * abort runs in a child process.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "context.h"

/* Run fn in a child with stderr captured: the child's wait status, and
 * what it wrote in out[cap]. */
static int in_child(void (*fn)(void), char *out, size_t cap)
{
    int fds[2], status;
    size_t len = 0;
    ssize_t n;
    pid_t pid;

    assert_int_equal(pipe(fds), 0);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fds[1], 2);
        close(fds[0]);
        signal(SIGABRT, SIG_DFL);
        fn();
        _exit(0);
    }
    close(fds[1]);
    while (len + 1 < cap && (n = read(fds[0], out + len, cap - 1 - len)) > 0)
        len += (size_t)n;
    out[len] = '\0';
    close(fds[0]);
    assert_int_equal(waitpid(pid, &status, 0), pid);
    return status;
}

static void current_unlocked(void)
{
    (void)pmkit_ctx_current();
}

static void dso_unlocked(void)
{
    (void)pmkit_dso_for(2, NULL);
}

static void unlock_unheld(void)
{
    pmkit_unlock();
}

static void current_locked(void)
{
    pmkit_lock();
    (void)pmkit_ctx_current();
    (void)pmkit_dso_for(2, NULL);
    pmkit_unlock();
}

static void expect_abort(void (*fn)(void), const char *what)
{
    char out[4096];
    int status = in_child(fn, out, sizeof(out));

    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGABRT);
    assert_non_null(strstr(out, "pmkit: internal check failed at "));
    assert_non_null(strstr(out, what));
}

static void test_unlocked_calls_abort(void **state)
{
    (void)state;
    expect_abort(current_unlocked, "pmkit_lock_held()");
    expect_abort(dso_unlocked, "pmkit_lock_held()");
    expect_abort(unlock_unheld, "lock_depth > 0");
}

static void test_locked_calls_run(void **state)
{
    char out[4096];
    int status;

    (void)state;
    status = in_child(current_locked, out, sizeof(out));
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_string_equal(out, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unlocked_calls_abort),
        cmocka_unit_test(test_locked_calls_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
