/*
 * Unit tests for host contexts (libpcp/context/host.c, host_api.c) against a
 * scripted pmcd on a unix socket or TCP: what the client does with
 * greetings it must refuse, answers of the wrong type, answers whose
 * counts do not match the request, a pmcd that closes the connection or
 * never answers, the state-change bits before a fetch's result, the lazy
 * profile (sent before the first fetch and after each change, not
 * otherwise), a lookup of many long names split into requests of at most
 * 63 KiB, local:'s fallback to TCP, and that a thread waiting for one pmcd
 * does not hold up another thread's calls on another context, nor a
 * destruction of the context it waits on.  The PDUs' own decoding on
 * hostile bytes is unit.pdu's; the answers of a real pmcd are
 * oracle.host's.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include <pcp/pmapi.h>

#include "../pmcd_wire.h"

/* The scripted pmcd: a thread accepting on path (or on a TCP port of
 * 127.0.0.1) and running script. */
struct fake {
    char dir[64], path[128], spec[160];
    int lfd, port;
    void (*script)(struct fake *f);
    pthread_t thread;
    int failed; /* the script saw something it did not expect */
};

/* Accept, greet as a version 2 pmcd without features, take the CREDS. */
static int accept_client(struct fake *f)
{
    unsigned char buf[256];
    int fd = accept(f->lfd, NULL, NULL);

    if (fd < 0)
        return -1;
    greet(fd, 0x02010000);
    if (get_pdu(fd, buf, sizeof(buf)) != T_CREDS || word(buf) != 20 ||
        word(buf + 8) != (uint32_t)getpid() || word(buf + 12) != 1 || word(buf + 16) != 0x01020000)
        f->failed = 1;
    return fd;
}

static void *run(void *arg)
{
    struct fake *f = arg;

    f->script(f);
    return NULL;
}

/* Over TCP the socket path is made up but not made (for local:'s
 * fallback), and the spec is 127.0.0.1:PORT. */
static void fake_listen(struct fake *f, void (*script)(struct fake *), int tcp)
{
    struct sockaddr_un sun;
    struct sockaddr_in sin;
    socklen_t len = sizeof(sin);

    memset(f, 0, sizeof(*f));
    strcpy(f->dir, "/tmp/test_host.XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    snprintf(f->path, sizeof(f->path), "%s/pmcd.socket", f->dir);
    snprintf(f->spec, sizeof(f->spec), "unix:%s", f->path);
    memset(&sun, 0, sizeof(sun));
    sun.sun_family = AF_UNIX;
    strcpy(sun.sun_path, f->path);
    memset(&sin, 0, sizeof(sin));
    sin.sin_family = AF_INET;
    sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    f->lfd = socket(tcp ? AF_INET : AF_UNIX, SOCK_STREAM, 0);
    assert_true(f->lfd >= 0);
    if (tcp) {
        assert_int_equal(bind(f->lfd, (struct sockaddr *)&sin, sizeof(sin)), 0);
        assert_int_equal(getsockname(f->lfd, (struct sockaddr *)&sin, &len), 0);
        f->port = ntohs(sin.sin_port);
        snprintf(f->spec, sizeof(f->spec), "127.0.0.1:%d", f->port);
    } else {
        assert_int_equal(bind(f->lfd, (struct sockaddr *)&sun, sizeof(sun)), 0);
    }
    assert_int_equal(listen(f->lfd, 4), 0);
    f->script = script;
    assert_int_equal(pthread_create(&f->thread, NULL, run, f), 0);
}

static void fake_start(struct fake *f, void (*script)(struct fake *))
{
    fake_listen(f, script, 0);
}

static void fake_end(struct fake *f)
{
    pthread_join(f->thread, NULL);
    close(f->lfd);
    unlink(f->path);
    rmdir(f->dir);
    assert_int_equal(f->failed, 0);
}

/* ---- greetings ---- */

static void refuse_scripts(struct fake *f)
{
    const uint32_t plain[] = {16, T_ERROR, 0, 0};
    const uint32_t refusal[] = {20, T_ERROR, 0, (uint32_t)-1042, 0x02010000};
    int fd;

    /* a V1-numbered refusal: PM_ERR_PERMISSION */
    fd = accept(f->lfd, NULL, NULL);
    put_words(fd, refusal, 5);
    close(fd);
    /* a greeting of 16 bytes */
    fd = accept(f->lfd, NULL, NULL);
    put_words(fd, plain, 4);
    close(fd);
    /* protocol version 3 */
    fd = accept(f->lfd, NULL, NULL);
    greet(fd, 0x03010000);
    close(fd);
    /* no greeting at all */
    fd = accept(f->lfd, NULL, NULL);
    close(fd);
}

static void test_greetings(void **state)
{
    struct fake f;

    (void)state;
    fake_start(&f, refuse_scripts);
    assert_int_equal(pmNewContext(PM_CONTEXT_HOST, f.spec), PM_ERR_PERMISSION);
    assert_int_equal(pmNewContext(PM_CONTEXT_HOST, f.spec), PM_ERR_IPC);
    assert_int_equal(pmNewContext(PM_CONTEXT_HOST, f.spec), PM_ERR_IPC);
    assert_int_equal(pmNewContext(PM_CONTEXT_HOST, f.spec), PM_ERR_IPC);
    assert_int_equal(pmWhichContext(), PM_ERR_NOCONTEXT);
    fake_end(&f);
}

/* ---- answers ---- */

static void answer_script(struct fake *f)
{
    unsigned char buf[256];
    /* trivial.time's descriptor would be a DESC; a TEXT is the wrong type */
    const uint32_t text[] = {20, T_TEXT, 0, 0, 0};
    /* PMNS_IDS with one id for a two-name lookup */
    const uint32_t ids[] = {24, T_PMNS_IDS, 0, 1, 1, 0x3e800000};
    const uint32_t bits[] = {16, T_ERROR, 0, PMCD_ADD_AGENT};
    /* RESULT: one value set, numval 0 */
    const uint32_t res1[] = {32, T_RESULT, 0, 5, 6, 1, 0x3e800000, 0};
    const uint32_t res2[] = {40, T_RESULT, 0, 5, 6, 2, 0x3e800000, 0, 0x3e800000, 0};
    const uint32_t noprof[] = {16, T_ERROR, 0, (uint32_t)PM_ERR_NOPROFILE};
    int fd = accept_client(f), t;

    if (get_pdu(fd, buf, sizeof(buf)) != T_DESC_REQ)
        f->failed = 1;
    put_words(fd, text, 5);
    /* the client gives up the connection: EOF here */
    if (get_pdu(fd, buf, sizeof(buf)) != -1)
        f->failed = 1;
    close(fd);

    /* pmReconnectContext */
    fd = accept_client(f);
    if (get_pdu(fd, buf, sizeof(buf)) != T_PMNS_NAMES)
        f->failed = 1;
    put_words(fd, ids, 6);
    if (get_pdu(fd, buf, sizeof(buf)) != -1)
        f->failed = 1;
    close(fd);

    fd = accept_client(f);
    /* first fetch: the profile first, then FETCH (no HIGHRES offered) */
    if (get_pdu(fd, buf, sizeof(buf)) != T_PROFILE || get_pdu(fd, buf, sizeof(buf)) != T_FETCH)
        f->failed = 1;
    put_words(fd, bits, 4);
    put_words(fd, res1, 8);
    /* second fetch: no profile change, no PROFILE */
    if ((t = get_pdu(fd, buf, sizeof(buf))) != T_FETCH)
        f->failed = 1;
    put_words(fd, noprof, 4);
    /* after pmAddProfile: PROFILE again; a result of the wrong size */
    if (get_pdu(fd, buf, sizeof(buf)) != T_PROFILE || get_pdu(fd, buf, sizeof(buf)) != T_FETCH)
        f->failed = 1;
    put_words(fd, res2, 10);
    if (get_pdu(fd, buf, sizeof(buf)) != -1)
        f->failed = 1;
    close(fd);
}

static void test_answers(void **state)
{
    struct fake f;
    pmDesc d;
    pmID pmid = 0x3e800000, got[2];
    const char *names[] = {"a.b", "c.d"};
    pmResult *r;
    int ctx;

    (void)state;
    fake_start(&f, answer_script);
    assert_true((ctx = pmNewContext(PM_CONTEXT_HOST, f.spec)) >= 0);
    assert_int_equal(pmGetPMNSLocation(), PMNS_REMOTE);
    assert_int_equal(pmLookupDesc(pmid, &d), PM_ERR_IPC);
    /* the connection is gone until pmReconnectContext */
    assert_int_equal(pmLookupDesc(pmid, &d), PM_ERR_IPC);
    assert_int_equal(pmReconnectContext(ctx), ctx);
    assert_int_equal(pmLookupName(2, names, got), PM_ERR_IPC);
    assert_int_equal(pmReconnectContext(ctx), ctx);
    assert_int_equal(pmFetch(1, &pmid, &r), PMCD_ADD_AGENT);
    assert_int_equal(r->numpmid, 1);
    assert_int_equal(r->timestamp.tv_sec, 5);
    assert_int_equal(r->timestamp.tv_usec, 6);
    assert_int_equal(r->vset[0]->numval, 0);
    pmFreeResult(r);
    assert_int_equal(pmFetch(1, &pmid, &r), PM_ERR_NOPROFILE);
    assert_int_equal(pmAddProfile(0x3e800000, 0, NULL), 0);
    assert_int_equal(pmFetch(1, &pmid, &r), PM_ERR_IPC);
    assert_int_equal(pmDestroyContext(ctx), 0);
    fake_end(&f);
}

/* ---- a pmcd that never answers ---- */

static void silent_script(struct fake *f)
{
    unsigned char buf[256];
    int fd = accept_client(f);

    if (get_pdu(fd, buf, sizeof(buf)) != T_DESC_REQ)
        f->failed = 1;
    /* no answer: wait for the client to give up and close */
    if (get_pdu(fd, buf, sizeof(buf)) != -1)
        f->failed = 1;
    close(fd);
}

static void test_timeout(void **state)
{
    struct fake f;
    pmDesc d;
    int ctx;

    (void)state;
    setenv("PMCD_REQUEST_TIMEOUT", "0.2", 1);
    fake_start(&f, silent_script);
    assert_true((ctx = pmNewContext(PM_CONTEXT_HOST, f.spec)) >= 0);
    assert_int_equal(pmLookupDesc(0x3e800000, &d), PM_ERR_TIMEOUT);
    assert_int_equal(pmDestroyContext(ctx), 0);
    fake_end(&f);
    unsetenv("PMCD_REQUEST_TIMEOUT");
}

/* ---- a pmcd that answers one byte at a time ---- */

static void drip_script(struct fake *f)
{
    /* a DESC answer's 32 bytes, one every 100 ms: 3.2 s in all */
    const unsigned char desc[32] = {0, 0, 0, 32, 0, 0, 0x70, 0x05};
    unsigned char buf[256];
    int fd = accept_client(f);

    if (get_pdu(fd, buf, sizeof(buf)) != T_DESC_REQ)
        f->failed = 1;
    for (size_t i = 0; i < sizeof(desc); i++) {
        if (send(fd, &desc[i], 1, MSG_NOSIGNAL) != 1)
            break; /* the client gave up and closed */
        usleep(100000);
    }
    close(fd);
}

/* The timeout bounds the whole answer, not each read: the per-read socket
 * timeout alone would wait for all 32 bytes. */
static void test_timeout_dripping(void **state)
{
    struct fake f;
    struct timespec t0, t1;
    pmDesc d;
    int ctx;

    (void)state;
    setenv("PMCD_REQUEST_TIMEOUT", "0.3", 1);
    fake_start(&f, drip_script);
    assert_true((ctx = pmNewContext(PM_CONTEXT_HOST, f.spec)) >= 0);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    assert_int_equal(pmLookupDesc(0x3e800000, &d), PM_ERR_TIMEOUT);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    assert_true(t1.tv_sec - t0.tv_sec < 2);
    assert_int_equal(pmDestroyContext(ctx), 0);
    fake_end(&f);
    unsetenv("PMCD_REQUEST_TIMEOUT");
}

/* ---- a long list of names goes in several requests ---- */

#define SPLIT_MAX  843 /* names in the longest lookup below */
#define SPLIT_REQS 8

static int split_counts[SPLIT_REQS], split_requests;
static uint32_t split_lens[SPLIT_REQS];

/* PMNS_IDS answering a PMNS_NAMES of n names: the k-th name asked so far
 * gets PMID 1000 + k. */
static void ids_answer(int fd, uint32_t first, uint32_t n)
{
    uint32_t *w = malloc((5 + n) * sizeof(*w));

    w[0] = 4 * (5 + n);
    w[1] = T_PMNS_IDS;
    w[2] = 0;
    w[3] = n; /* all found */
    w[4] = n;
    for (uint32_t i = 0; i < n; i++)
        w[5 + i] = 1000 + first + i;
    for (uint32_t i = 0; i < 5 + n; i += 64)
        put_words(fd, w + i, 5 + n - i < 64 ? 5 + n - i : 64);
    free(w);
}

static void split_script(struct fake *f)
{
    static unsigned char buf[192 * 1024];
    uint32_t asked = 0;
    int fd = accept_client(f), t;

    while ((t = get_pdu(fd, buf, sizeof(buf))) == T_PMNS_NAMES && split_requests < SPLIT_REQS) {
        uint32_t n = word(buf + 20);
        split_lens[split_requests] = word(buf);
        split_counts[split_requests++] = (int)n;
        ids_answer(fd, asked, n);
        asked += n;
    }
    if (t != -1)
        f->failed = 1;
    close(fd);
}

/* Look up n names of len bytes (PMIDs counted on from *asked, as the fake
 * gives them); the requests must be want[0..] (a 0 ends it), each with its
 * names in 24 + count x (4 + len padded to 4) bytes. */
static void split_case(int n, int len, const int *want, uint32_t *asked)
{
    static char text[SPLIT_MAX][256];
    static const char *names[SPLIT_MAX];
    static pmID got[SPLIT_MAX];
    int k;

    for (int i = 0; i < n; i++) {
        memset(text[i], 'a' + i % 26, (size_t)len);
        text[i][len] = '\0';
        names[i] = text[i];
    }
    split_requests = 0;
    assert_int_equal(pmLookupName(n, names, got), n);
    for (int i = 0; i < n; i++)
        assert_int_equal(got[i], 1000 + *asked + (uint32_t)i);
    *asked += (uint32_t)n;
    for (k = 0; want[k] != 0; k++) {
        assert_int_equal(split_counts[k], want[k]);
        assert_int_equal(split_lens[k], 24 + want[k] * (4 + ((len + 3) & ~3)));
    }
    assert_int_equal(split_requests, k);
}

/* A lookup of 500 names or more goes in PMNS_NAMES requests each as full
 * as 63 KiB allow (its last names too, however few), as PCP's library
 * splits it (the same counts and lengths, measured against a fake pmcd),
 * and returns the names found in all of them; fewer names go in one
 * request, however long. */
static void test_lookup_split(void **state)
{
    static const int two[] = {316, 284, 0}, three[] = {393, 393, 57, 0}, one[] = {499, 0};
    uint32_t asked = 0;
    struct fake f;
    int ctx;

    (void)state;
    fake_start(&f, split_script);
    assert_true((ctx = pmNewContext(PM_CONTEXT_HOST, f.spec)) >= 0);
    split_case(600, 199, two, &asked);   /* 204 bytes a name: 316 fill 63 KiB */
    split_case(843, 160, three, &asked); /* 164 bytes: 393 */
    split_case(499, 199, one, &asked);
    assert_int_equal(pmDestroyContext(ctx), 0);
    fake_end(&f);
}

/* ---- one context waiting does not stop the others ---- */

static int slow_waiting[2], slow_go[2]; /* pipes: the slow pmcd has the
                                         * request; it may answer */

/* Take a DESC_REQ, say so, answer PM_ERR_PMID only when told to. */
static void desc_then_eof(struct fake *f, int fd, int signal)
{
    const uint32_t nope[] = {16, T_ERROR, 0, (uint32_t)PM_ERR_PMID};
    unsigned char buf[256];
    char c = 'x';

    if (get_pdu(fd, buf, sizeof(buf)) != T_DESC_REQ)
        f->failed = 1;
    if (signal && (write(slow_waiting[1], &c, 1) != 1 || read(slow_go[0], &c, 1) != 1))
        f->failed = 1;
    put_words(fd, nope, 4);
    /* then the end of the connection: the context destroyed */
    if (get_pdu(fd, buf, sizeof(buf)) != -1)
        f->failed = 1;
    close(fd);
}

static void slow_script(struct fake *f)
{
    desc_then_eof(f, accept_client(f), 1);
}

static void quick_script(struct fake *f)
{
    desc_then_eof(f, accept_client(f), 0);
}

static int waiter_ctx, waiter_sts[2], second_using[2]; /* a pipe */

/* The second waiter says when it has made the context its own. */
static void *waiter(void *arg)
{
    int *sts = arg;
    pmDesc d;
    char c = 'x';

    if ((*sts = pmUseContext(waiter_ctx)) == 0) {
        if (sts == &waiter_sts[1] && write(second_using[1], &c, 1) != 1)
            *sts = -EIO;
        else
            *sts = pmLookupDesc(0x3e800000, &d);
    }
    return NULL;
}

/* A thread waits for a pmcd that holds its answer back; meanwhile another
 * thread connects to a second pmcd and gets an answer, and destroys the
 * waiting thread's context, which lives on until that call is over.  With
 * one lock for every context the second thread would wait until the first
 * timed out (5 s) and the first would get PM_ERR_TIMEOUT.  A third thread
 * that asks on the same context meanwhile waits for the first and then
 * finds the context destroyed: nothing reaches the slow pmcd from it (the
 * script would fail).  It has made the context its own before the
 * destruction, and most likely waits for it by then (50 ms later); if it
 * does not yet, it finds the context gone at once, with the same answer. */
static void test_contexts_apart(void **state)
{
    struct fake slow, quick;
    struct timespec t0, t1;
    pthread_t t, t2;
    pmDesc d;
    char c = 'x';
    int ctx;

    (void)state;
    setenv("PMCD_REQUEST_TIMEOUT", "5", 1);
    assert_int_equal(pipe(slow_waiting), 0);
    assert_int_equal(pipe(slow_go), 0);
    assert_int_equal(pipe(second_using), 0);
    fake_start(&slow, slow_script);
    fake_start(&quick, quick_script);
    assert_true((waiter_ctx = pmNewContext(PM_CONTEXT_HOST, slow.spec)) >= 0);
    assert_int_equal(pthread_create(&t, NULL, waiter, &waiter_sts[0]), 0);
    assert_int_equal(read(slow_waiting[0], &c, 1), 1);
    assert_int_equal(pthread_create(&t2, NULL, waiter, &waiter_sts[1]), 0);
    assert_int_equal(read(second_using[0], &c, 1), 1);
    usleep(50000); /* most likely waiting for the context by now */

    clock_gettime(CLOCK_MONOTONIC, &t0);
    assert_true((ctx = pmNewContext(PM_CONTEXT_HOST, quick.spec)) >= 0);
    assert_int_equal(pmLookupDesc(0x3e800000, &d), PM_ERR_PMID);
    assert_int_equal(pmDestroyContext(waiter_ctx), 0);
    assert_int_equal(pmDestroyContext(waiter_ctx), PM_ERR_NOCONTEXT);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    assert_true(t1.tv_sec - t0.tv_sec < 3);

    assert_int_equal(write(slow_go[1], &c, 1), 1);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_int_equal(pthread_join(t2, NULL), 0);
    assert_int_equal(waiter_sts[0], PM_ERR_PMID);
    assert_int_equal(waiter_sts[1], PM_ERR_NOCONTEXT);
    assert_int_equal(pmDestroyContext(ctx), 0);
    fake_end(&quick);
    fake_end(&slow); /* saw the connection end once the waiter was done */
    for (int i = 0; i < 2; i++) {
        close(slow_waiting[i]);
        close(slow_go[i]);
        close(second_using[i]);
    }
    unsetenv("PMCD_REQUEST_TIMEOUT");
}

/* ---- over TCP, and local:'s fallback to it ---- */

static void tcp_script(struct fake *f)
{
    for (int i = 0; i < 2; i++)
        desc_then_eof(f, accept_client(f), 0);
}

/* local: with no socket at its path connects to localhost's pmcd port
 * ($PMCD_PORT), as PCP's does; unix: does not; host:port goes over TCP.
 * The fake pmcd takes exactly two connections. */
static void test_tcp(void **state)
{
    struct fake f;
    char port[16], local[160], unix_[160];
    pmDesc d;
    int ctx;

    (void)state;
    fake_listen(&f, tcp_script, 1);
    snprintf(port, sizeof(port), "%d", f.port);
    snprintf(local, sizeof(local), "local:%s", f.path);
    snprintf(unix_, sizeof(unix_), "unix:%s", f.path);
    setenv("PMCD_PORT", port, 1);
    assert_true(pmNewContext(PM_CONTEXT_HOST, unix_) < 0);
    assert_true((ctx = pmNewContext(PM_CONTEXT_HOST, local)) >= 0);
    assert_int_equal(pmLookupDesc(0x3e800000, &d), PM_ERR_PMID);
    assert_int_equal(pmDestroyContext(ctx), 0);
    unsetenv("PMCD_PORT");
    assert_true((ctx = pmNewContext(PM_CONTEXT_HOST, f.spec)) >= 0);
    assert_int_equal(pmLookupDesc(0x3e800000, &d), PM_ERR_PMID);
    assert_int_equal(pmDestroyContext(ctx), 0);
    fake_end(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_greetings),      cmocka_unit_test(test_answers),
        cmocka_unit_test(test_timeout),        cmocka_unit_test(test_timeout_dripping),
        cmocka_unit_test(test_lookup_split),   cmocka_unit_test(test_tcp),
        cmocka_unit_test(test_contexts_apart),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
