/*
 * fake_pmcd SOCKET MODE - a pmcd that serves one client on a unix socket
 * and answers its fetch badly, for host_errors_diff.sh: Debian's pminfo
 * and pmkit's are run against the same answers and must report them the
 * same way.
 *
 * It greets as a version 2 pmcd without features, takes the CREDS, and
 * answers: PMNS_TRAVERSE with the one name trivial.time; PMNS_NAMES with
 * the PMID 250.0.0 for every name; DESC_REQ with
 * a U32 counter descriptor of no instance domain; TEXT_REQ and LABEL_REQ
 * with an ERROR PDU (PM_ERR_TEXT, PM_ERR_NOLABELS); PROFILE with nothing;
 * any other request with an ERROR PDU of PM_ERR_NYI.  A FETCH (or
 * HIGHRES_FETCH) gets, by MODE: an ERROR PDU of PM_ERR_NOAGENT ("error"),
 * PM_ERR_IPC ("ipc") or PM_ERR_GENERIC ("generic"); a RESULT cut short
 * before its count of value sets ("undecodable"), claiming 1000 value sets
 * ("numpmid"), a value set of 50 values and none there ("numval"), a value
 * block outside the PDU ("dptr"); a PDU header of 8 bytes ("shortlen") or
 * of 2 GiB ("biglen"); a TEXT PDU ("wrongtype"); the end of the connection
 * ("eof").  It ends when the client does, or after 20 seconds;
 * FAKE_PMCD_TRACE=1 lists the requests on stderr.  The PDUs are written
 * from tests/pmcd_wire.h, not from pmkit's encoder.
 */
#include <pcp/pmapi.h>

#include "../pmcd_wire.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

#define T_DESC          0x7005
#define T_TEXT_REQ      0x7008
#define T_PMNS_TRAVERSE 0x7010
#define T_LABEL_REQ     0x7012
#define T_HIGHRES_FETCH 0x7014

static void error_pdu(int fd, int code)
{
    const uint32_t w[] = {16, T_ERROR, 0, (uint32_t)code};

    put_words(fd, w, 4);
}

/* PMNS_IDS: every name of the request found, as 250.0.0. */
static void ids(int fd, const unsigned char *req)
{
    uint32_t n = word(req + 20), w[64];

    if (n > 58)
        n = 58;
    w[0] = 4 * (5 + n), w[1] = T_PMNS_IDS, w[2] = 0, w[3] = n, w[4] = n;
    for (uint32_t i = 0; i < n; i++)
        w[5 + i] = 0x3e800000;
    put_words(fd, w, 5 + n);
}

/* PMNS_NAMES answering a traversal: the one metric there is. */
static void names(int fd)
{
    const uint32_t w[] = {40, T_PMNS_NAMES, 0, 13, 0, 1, 12, 0x74726976, 0x69616c2e, 0x74696d65};

    put_words(fd, w, 10);
}

/* A fetch's answer by mode: the PDU's words. */
static const struct answer {
    const char *mode;
    size_t n;
    uint32_t w[11];
} answers[] = {
    {"error", 4, {16, T_ERROR, 0, (uint32_t)PM_ERR_NOAGENT}},
    {"ipc", 4, {16, T_ERROR, 0, (uint32_t)PM_ERR_IPC}},
    {"generic", 4, {16, T_ERROR, 0, (uint32_t)PM_ERR_GENERIC}},
    {"undecodable", 5, {20, T_RESULT, 0, 5, 6}},
    {"numpmid", 8, {32, T_RESULT, 0, 5, 6, 1000, 0x3e800000, 0}},
    {"numval", 8, {32, T_RESULT, 0, 5, 6, 1, 0x3e800000, 50}},
    {"dptr", 11, {44, T_RESULT, 0, 5, 6, 1, 0x3e800000, 1, 2, 0, 1000}},
    {"shortlen", 3, {8, T_RESULT, 0}},
    {"biglen", 3, {0x7fffffff, T_RESULT, 0}},
    {"wrongtype", 5, {20, T_TEXT, 0, 0, 0}},
};

static void fetch_answer(int fd, const char *mode)
{
    for (size_t i = 0; i < sizeof(answers) / sizeof(answers[0]); i++) {
        if (strcmp(mode, answers[i].mode) == 0) {
            put_words(fd, answers[i].w, answers[i].n);
            return;
        }
    }
    exit(0); /* "eof" */
}

static void serve(int fd, const char *mode)
{
    static unsigned char buf[70000];
    const uint32_t desc[] = {32, T_DESC, 0, 0x3e800000, PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_COUNTER,
                             0};
    int t;

    greet(fd, 0x02010000);
    while ((t = get_pdu(fd, buf, sizeof(buf))) != -1) {
        if (getenv("FAKE_PMCD_TRACE"))
            fprintf(stderr, "fake_pmcd: %#x len %u\n", t, word(buf));
        if (t == T_CREDS || t == T_PROFILE)
            continue;
        if (t == T_PMNS_NAMES)
            ids(fd, buf);
        else if (t == T_PMNS_TRAVERSE)
            names(fd);
        else if (t == T_DESC_REQ)
            put_words(fd, desc, 8);
        else if (t == T_TEXT_REQ)
            error_pdu(fd, PM_ERR_TEXT);
        else if (t == T_LABEL_REQ)
            error_pdu(fd, PM_ERR_NOLABELS);
        else if (t == T_FETCH || t == T_HIGHRES_FETCH)
            fetch_answer(fd, mode);
        else
            error_pdu(fd, PM_ERR_NYI);
    }
}

int main(int argc, char **argv)
{
    struct sockaddr_un sun;
    int lfd, fd;

    if (argc != 3 || strlen(argv[1]) >= sizeof(sun.sun_path)) {
        fprintf(stderr, "Usage: fake_pmcd SOCKET MODE\n");
        return 2;
    }
    alarm(20);
    signal(SIGPIPE, SIG_IGN);
    memset(&sun, 0, sizeof(sun));
    sun.sun_family = AF_UNIX;
    strcpy(sun.sun_path, argv[1]);
    if ((lfd = socket(AF_UNIX, SOCK_STREAM, 0)) < 0 ||
        bind(lfd, (struct sockaddr *)&sun, sizeof(sun)) < 0 || listen(lfd, 1) < 0) {
        perror("fake_pmcd");
        return 1;
    }
    if ((fd = accept(lfd, NULL, NULL)) < 0)
        return 1;
    serve(fd, argv[2]);
    return 0;
}
