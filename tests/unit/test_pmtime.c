/*
 * Tests of libpcp_gui (<pcp/pmtime.h>): the layout of pmTime and
 * pmTimeControls and the protocol's constants (pinned as literals, from
 * compiling against Debian's PCP 6.0.3 header on Linux x86-64); the
 * messages the calls send and how they read what arrives (over a socket
 * pair, or a loopback server forked for the handshake); and the state
 * machine of pmTimeStateVector, with callbacks that count.  Whole runs
 * against Debian's pmval and library are tests/oracle/pmtime_diff.sh's.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include <pcp/pmapi.h>
#include <pcp/pmtime.h>

#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static void layout_of_pmtime(void **state)
{
    (void)state;
    assert_int_equal(sizeof(pmTime), 88);
    assert_int_equal(offsetof(pmTime, length), 4);
    assert_int_equal(offsetof(pmTime, command), 8);
    assert_int_equal(offsetof(pmTime, source), 12);
    assert_int_equal(offsetof(pmTime, state), 16);
    assert_int_equal(offsetof(pmTime, mode), 20);
    assert_int_equal(offsetof(pmTime, delta), 24);
    assert_int_equal(offsetof(pmTime, position), 40);
    assert_int_equal(offsetof(pmTime, start), 56);
    assert_int_equal(offsetof(pmTime, end), 72);
    assert_int_equal(offsetof(pmTime, data), 88);
    assert_int_equal(sizeof(pmTimeControls), 96);
    assert_int_equal(offsetof(pmTimeControls, newzone), 56);
    assert_int_equal(offsetof(pmTimeControls, delta), 64);
    assert_int_equal(offsetof(pmTimeControls, fd), 80);
    assert_int_equal(offsetof(pmTimeControls, showgui), 84);
    assert_int_equal(offsetof(pmTimeControls, context), 88);
    assert_int_equal(offsetof(pmTimeControls, padding), 92);
}

static void constants(void **state)
{
    (void)state;
    assert_int_equal(PMTIME_MAGIC, 0x54494d45);
    assert_int_equal(PM_TCTL_SET, 1);
    assert_int_equal(PM_TCTL_STEP, 2);
    assert_int_equal(PM_TCTL_TZ, 4);
    assert_int_equal(PM_TCTL_VCRMODE, 8);
    assert_int_equal(PM_TCTL_VCRMODE_DRAG, 16);
    assert_int_equal(PM_TCTL_GUISHOW, 32);
    assert_int_equal(PM_TCTL_GUIHIDE, 64);
    assert_int_equal(PM_TCTL_BOUNDS, 128);
    assert_int_equal(PM_TCTL_ACK, 256);
    assert_int_equal(PM_STATE_BACKWARD, 2);
    assert_int_equal(PM_MODE_FAST, 2);
    assert_int_equal(PM_SOURCE_NONE, -1);
    assert_int_equal(PM_SOURCE_ARCHIVE, 1);
    assert_int_equal(sizeof(pm_tctl_command), 4);
}

/* ------------------------------------------------------------ helpers */

static int pair[2]; /* [0] the client's end, [1] the test's */

static int open_pair(void **state)
{
    (void)state;
    return socketpair(AF_UNIX, SOCK_STREAM, 0, pair);
}

static int close_pair(void **state)
{
    (void)state;
    close(pair[0]);
    close(pair[1]);
    return 0;
}

static void message(pmTime *m, int cmd, int dir, long sec)
{
    memset(m, 0, sizeof(*m));
    m->magic = PMTIME_MAGIC;
    m->length = sizeof(*m);
    m->command = cmd;
    m->state = dir;
    m->delta.tv_sec = 1;
    m->position.tv_sec = sec;
}

static void put(const pmTime *m)
{
    assert_int_equal(write(pair[1], m, m->length), (ssize_t)m->length);
}

/* The next message the client sent: its command, *pos its position. */
static int took(long *pos)
{
    pmTime m;

    assert_int_equal(read(pair[1], &m, sizeof(m)), (ssize_t)sizeof(m));
    assert_int_equal(m.magic, PMTIME_MAGIC);
    assert_int_equal(m.length, 88);
    if (pos != NULL)
        *pos = m.position.tv_sec;
    return m.command;
}

/* -------------------------------------------------------- the messages */

static void ack_and_dialog_bytes(void **state)
{
    struct timeval tv = {12345, 678};
    pmTime m;

    (void)state;
    assert_int_equal(pmTimeSendAck(pair[0], &tv), 88);
    assert_int_equal(read(pair[1], &m, sizeof(m)), 88);
    assert_int_equal(m.command, PM_TCTL_ACK);
    assert_int_equal(m.position.tv_sec, 12345);
    assert_int_equal(m.position.tv_usec, 678);
    assert_int_equal(m.source, 0);
    assert_int_equal(m.delta.tv_sec, 0);
    assert_int_equal(pmTimeShowDialog(pair[0], 1), 88);
    assert_int_equal(took(NULL), PM_TCTL_GUISHOW);
    assert_int_equal(pmTimeShowDialog(pair[0], 0), 88);
    assert_int_equal(took(NULL), PM_TCTL_GUIHIDE);
    errno = 0;
    assert_int_equal(pmTimeDisconnect(-1), -1);
    assert_int_equal(errno, EINVAL);
}

static void recv_text_and_limits(void **state)
{
    pmTime m, *p = malloc(sizeof(pmTime));
    char text[] = "EST\0east";

    (void)state;
    message(&m, PM_TCTL_TZ, 1, 0);
    m.length = 88 + sizeof(text);
    assert_int_equal(write(pair[1], &m, 88), 88);
    assert_int_equal(write(pair[1], text, sizeof(text)), (ssize_t)sizeof(text));
    assert_int_equal(pmTimeRecv(pair[0], &p), PM_TCTL_TZ);
    assert_string_equal(p->data, "EST");
    assert_string_equal(p->data + 4, "east");
    /* text of more than 80 bytes, and a length below the fixed part */
    m.length = 88 + 81;
    assert_int_equal(write(pair[1], &m, 88), 88);
    assert_int_equal(pmTimeRecv(pair[0], &p), PM_ERR_IPC);
    m.length = 87;
    assert_int_equal(write(pair[1], &m, 88), 88);
    assert_int_equal(pmTimeRecv(pair[0], &p), PM_ERR_IPC);
    /* a message cut short by the end of the connection */
    assert_int_equal(write(pair[1], &m, 40), 40);
    shutdown(pair[1], SHUT_WR);
    errno = 0;
    assert_int_equal(pmTimeRecv(pair[0], &p), -1);
    assert_int_equal(errno, EMSGSIZE);
    free(p);
}

/* ----------------------------------------------------------- handshake */

/* A server on a loopback port that answers the first message with an ACK
 * of the given source and command; the port. */
static int serve_once(int source, int cmd, pid_t *pid)
{
    struct sockaddr_in a = {.sin_family = AF_INET};
    socklen_t alen = sizeof(a);
    int s = socket(AF_INET, SOCK_STREAM, 0);

    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_true(s >= 0);
    assert_int_equal(bind(s, (struct sockaddr *)&a, sizeof(a)), 0);
    assert_int_equal(listen(s, 1), 0);
    assert_int_equal(getsockname(s, (struct sockaddr *)&a, &alen), 0);
    if ((*pid = fork()) == 0) {
        char buf[4096];
        pmTime m;
        int fd = accept(s, NULL, NULL);
        ssize_t n = read(fd, buf, sizeof(buf));
        message(&m, cmd, 0, 0);
        m.source = source;
        _exit(n >= 88 && write(fd, &m, 88) == 88 ? 0 : 1);
    }
    close(s);
    return ntohs(a.sin_port);
}

static void connect_handshake(void **state)
{
    static const struct {
        int source, cmd, sts, err;
    } cases[] = {
        {PM_SOURCE_ARCHIVE, PM_TCTL_ACK, 0, 0},
        {PM_SOURCE_HOST, PM_TCTL_ACK, -4, ENOSYS},
        {PM_SOURCE_ARCHIVE, PM_TCTL_STEP, -4, EPROTO},
    };
    pmTime hello;

    (void)state;
    message(&hello, PM_TCTL_SET, 0, 5);
    hello.source = PM_SOURCE_ARCHIVE;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        pid_t pid;
        int port = serve_once(cases[i].source, cases[i].cmd, &pid), fd, wsts;
        errno = 0;
        fd = pmTimeConnect(port, &hello);
        if (cases[i].sts == 0) {
            assert_true(fd >= 0);
            assert_int_equal(pmTimeDisconnect(fd), 0);
        } else {
            assert_int_equal(fd, cases[i].sts);
            assert_int_equal(errno, cases[i].err);
        }
        assert_int_equal(waitpid(pid, &wsts, 0), pid);
    }
}

/* ------------------------------------------------------- state machine */

static struct {
    int resume, rewind, boundary, position, interval, stepped, newzone;
    char zone[16], label[16];
} calls;

static void on_resume(void)
{
    calls.resume++;
}
static void on_rewind(void)
{
    calls.rewind++;
}
static void on_exited(void)
{
    fail_msg("the server went away");
}
static void on_boundary(void)
{
    calls.boundary++;
}
static void on_position(struct timeval tv)
{
    (void)tv;
    calls.position++;
}
static void on_interval(struct timeval tv)
{
    (void)tv;
    calls.interval++;
}
static void on_stepped(struct timeval tv)
{
    (void)tv;
    calls.stepped++;
}
static void on_newzone(char *tz, char *label)
{
    calls.newzone++;
    strncpy(calls.zone, tz, sizeof(calls.zone) - 1);
    strncpy(calls.label, label, sizeof(calls.label) - 1);
}

static pmTimeControls host_controls(void)
{
    pmTimeControls c = {on_resume,   on_rewind,       on_exited,  on_boundary, on_position,
                        on_interval, on_stepped,      on_newzone, {1, 0},      0,
                        1,           PM_CONTEXT_HOST, -1};
    c.fd = pair[0];
    memset(&calls, 0, sizeof(calls));
    return c;
}

static void vector_states(void **state)
{
    pmTimeControls c = host_controls();
    pmTime m, *msg = calloc(1, sizeof(pmTime));
    long pos;

    (void)state;
    /* the first step: the window asked for, no callbacks but stepped */
    message(&m, PM_TCTL_STEP, PM_STATE_FORWARD, 100);
    put(&m);
    assert_int_equal(pmTimeStateVector(&c, msg), 0);
    assert_int_equal(took(NULL), PM_TCTL_GUISHOW);
    assert_int_equal(calls.stepped, 1);
    assert_int_equal(calls.resume + calls.interval, 0);
    assert_int_equal(msg->position.tv_sec, 100);
    /* stepping on: nothing said */
    message(&m, PM_TCTL_STEP, PM_STATE_FORWARD, 101);
    put(&m);
    assert_int_equal(pmTimeStateVector(&c, msg), 0);
    assert_int_equal(calls.stepped, 1);
    /* backward twice (acknowledged, rewind said once), then forward with
     * another interval after a new zone */
    message(&m, PM_TCTL_STEP, PM_STATE_BACKWARD, 99);
    put(&m);
    put(&m);
    message(&m, PM_TCTL_TZ, PM_STATE_FORWARD, 0);
    m.length = 88 + 8;
    assert_int_equal(write(pair[1], &m, 88), 88);
    assert_int_equal(write(pair[1], "UTC\0utc", 8), 8);
    message(&m, PM_TCTL_STEP, PM_STATE_FORWARD, 102);
    m.delta.tv_sec = 2;
    put(&m);
    assert_int_equal(pmTimeStateVector(&c, msg), 0);
    assert_int_equal(took(&pos), PM_TCTL_ACK);
    assert_int_equal(pos, 99);
    assert_int_equal(took(&pos), PM_TCTL_ACK);
    assert_int_equal(calls.rewind, 1);
    assert_int_equal(calls.newzone, 1);
    assert_string_equal(calls.zone, "UTC");
    assert_string_equal(calls.label, "utc");
    assert_int_equal(calls.resume, 1);
    assert_int_equal(calls.interval, 1);
    assert_int_equal(calls.stepped, 2);
    assert_int_equal(c.delta.tv_sec, 2);
    assert_int_equal(msg->position.tv_sec, 102);
    /* the end: acknowledged, said once; steps after it acknowledged only,
     * until a set stops and a step resumes */
    pmTimeStateBounds(&c, msg);
    pmTimeStateBounds(&c, msg);
    assert_int_equal(calls.boundary, 1);
    assert_int_equal(took(&pos), PM_TCTL_ACK);
    assert_int_equal(pos, 102);
    assert_int_equal(took(NULL), PM_TCTL_ACK);
    message(&m, PM_TCTL_STEP, PM_STATE_FORWARD, 103);
    put(&m);
    message(&m, PM_TCTL_SET, PM_STATE_FORWARD, 0);
    put(&m);
    message(&m, PM_TCTL_STEP, PM_STATE_FORWARD, 104);
    m.delta.tv_sec = 2;
    put(&m);
    assert_int_equal(pmTimeStateVector(&c, msg), 0);
    assert_int_equal(took(&pos), PM_TCTL_ACK);
    assert_int_equal(pos, 103);
    assert_int_equal(calls.resume, 2);
    assert_int_equal(calls.interval, 1);
    assert_int_equal(calls.stepped, 3);
    free(msg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(layout_of_pmtime),
        cmocka_unit_test(constants),
        cmocka_unit_test_setup_teardown(ack_and_dialog_bytes, open_pair, close_pair),
        cmocka_unit_test_setup_teardown(recv_text_and_limits, open_pair, close_pair),
        cmocka_unit_test(connect_handshake),
        cmocka_unit_test_setup_teardown(vector_states, open_pair, close_pair),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
