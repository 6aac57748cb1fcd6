/*
 * probe_logctl.c - libpcp's side of pmlogger's control protocol, built
 * against pmkit's libpcp and Debian's (compare.sh wants the same output):
 *  - __pmLoggerTimeout under several $PMLOGGER_REQUEST_TIMEOUT values;
 *  - the LOG_REQUEST, LOG_CONTROL and LOG_STATUS PDUs __pmSend* writes
 *    (their bytes, read back through a pipe) and what __pmDecode* makes of
 *    them and of damaged copies;
 *  - __pmLogFindPort over a made-up $PCP_TMP_DIR/pmlogger of port files:
 *    the primary logger, one by pid, all of them, files for processes
 *    that are gone, files that are empty or not port files;
 *  - __pmConnectLogger and __pmControlLog against a scripted pmlogger
 *    (a child process of the probe, speaking raw bytes, not libpcp): the
 *    greeting each way it can go wrong, over the port a port file names,
 *    a given port, local: and unix:; the bytes the client sends; the
 *    answers to a control request (a result, an error, nothing, the
 *    logger going away).
 * Process ids and the logger's TCP port are printed by name (self, dead,
 * PORT); pmNotifyErr's messages lose their date and pid.
 */
#include <pcp/pmapi.h>
#include "libpcp.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[64];   /* the made-up $PCP_TMP_DIR and $PCP_RUN_DIR */
static int self, dead; /* this process, and one that has ended */
static int tcp_port;   /* the scripted logger's TCP port */
static int lsn_tcp = -1, lsn_unix = -1;
static char errpath[96];  /* stderr's file */
static const char *shown; /* a logger's name as printed, if not as given */

static const char *pidname(int pid)
{
    static char buf[32];

    if (pid == self && pid > 0)
        return "self";
    if (pid == dead && pid > 0)
        return "dead";
    snprintf(buf, sizeof(buf), "%d", pid);
    return buf;
}

static const char *portname(int port)
{
    static char buf[32];

    if (port == tcp_port && port > 0)
        return "PORT";
    snprintf(buf, sizeof(buf), "%d", port);
    return buf;
}

static void hex(const unsigned char *p, int n)
{
    for (int i = 0; i < n; i++)
        printf(" %02x", p[i]);
}

/* What went to stderr (a file) since the last call, on stdout: with
 * pmNotifyErr's date and pid, the scratch directory and this process's
 * pid named. */
static void show_err(void)
{
    char line[1024], self_s[16];
    FILE *f;

    fflush(stderr);
    if ((f = fopen(errpath, "r")) == NULL)
        return;
    snprintf(self_s, sizeof(self_s), "%d", self);
    while (fgets(line, sizeof(line), f) != NULL) {
        char *p = line, *d;

        if (line[0] == '[' && (p = strstr(line, ") ")) != NULL)
            p += 2;
        else
            p = line;
        printf("stderr: ");
        while ((d = strstr(p, dir)) != NULL) {
            printf("%.*sDIR", (int)(d - p), p);
            p = d + strlen(dir);
            if (strncmp(p, "/pmlogger/", 10) == 0 && strncmp(p + 10, self_s, strlen(self_s)) == 0 &&
                !isdigit((unsigned char)p[10 + strlen(self_s)])) {
                printf("/pmlogger/self");
                p += 10 + strlen(self_s);
            }
        }
        printf("%s", p);
    }
    fclose(f);
    if (truncate(errpath, 0) < 0)
        printf("truncate: %s\n", strerror(errno));
}

/* ------------------------------------------------------------- timeouts */

static void timeouts(void)
{
    static const char *values[] = {NULL,  "5",  " 7", "0", "2.5",
                                   "abc", "-1", "7x", "",  "99999999999"};

    for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
        pid_t pid;
        int status;

        fflush(stdout);
        if ((pid = fork()) == 0) {
            if (values[i] == NULL)
                unsetenv("PMLOGGER_REQUEST_TIMEOUT");
            else
                setenv("PMLOGGER_REQUEST_TIMEOUT", values[i], 1);
            printf("timeout [%s]: %d", values[i] ? values[i] : "unset", __pmLoggerTimeout());
            printf(" again %d\n", __pmLoggerTimeout());
            fflush(stdout);
            _exit(0);
        }
        waitpid(pid, &status, 0);
        show_err();
    }
}

/* ----------------------------------------------------------------- PDUs */

static int rfd, wfd;

/* The bytes in the pipe, printed; then put back for __pmGetPDU. */
static __pmPDU *read_back(const char *what, int sent)
{
    unsigned char buf[4096];
    ssize_t n = 0;
    __pmPDU *pb = NULL;
    int sts;

    if (sent > 0 && (size_t)sent <= sizeof(buf))
        n = read(rfd, buf, (size_t)sent);
    printf("%s: sent %d:", what, sent);
    hex(buf, (int)n);
    printf("\n");
    if (n <= 0)
        return NULL;
    if (write(wfd, buf, (size_t)n) != n)
        return NULL;
    sts = __pmGetPDU(rfd, ANY_SIZE, TIMEOUT_NEVER, &pb);
    if (sts < 0) {
        printf("  __pmGetPDU -> %d\n", sts);
        return NULL;
    }
    return pb;
}

/* A PDU of raw words (the header's length filled in), for __pmGetPDU. */
static __pmPDU *raw_pdu(int type, const uint32_t *body, int n, int len)
{
    uint32_t w[64];
    __pmPDU *pb = NULL;
    int sts;

    w[0] = htonl((uint32_t)(len ? len : 12 + 4 * n));
    w[1] = htonl((uint32_t)type);
    w[2] = 0;
    for (int i = 0; i < n; i++)
        w[3 + i] = htonl(body[i]);
    if (write(wfd, w, 12 + 4 * (size_t)n) < 0)
        return NULL;
    if ((sts = __pmGetPDU(rfd, ANY_SIZE, TIMEOUT_NEVER, &pb)) < 0) {
        printf("  __pmGetPDU -> %d\n", sts);
        return NULL;
    }
    return pb;
}

static void log_requests(void)
{
    static const int types[] = {LOG_REQUEST_NEWVOLUME, LOG_REQUEST_STATUS, LOG_REQUEST_SYNC, 99,
                                -1};

    for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
        char what[64];
        int sts = __pmSendLogRequest(wfd, types[i]);
        __pmPDU *pb;
        int type = -42;

        snprintf(what, sizeof(what), "LOG_REQUEST %d", types[i]);
        if ((pb = read_back(what, sts)) == NULL)
            continue;
        sts = __pmDecodeLogRequest(pb, &type);
        printf("  __pmDecodeLogRequest -> %d type %d\n", sts, type);
        __pmUnpinPDUBuf(pb);
    }
}

static void show_control(const __pmPDU *pb)
{
    __pmResult *r = NULL;
    int control = -42, state = -42, delta = -42;
    int sts = __pmDecodeLogControl(pb, &r, &control, &state, &delta);

    printf("  __pmDecodeLogControl -> %d", sts);
    if (sts < 0) {
        printf("\n");
        return;
    }
    printf(" control %d state %d delta %d numpmid %d\n", control, state, delta, r->numpmid);
    for (int i = 0; i < r->numpmid; i++) {
        pmValueSet *vs = r->vset[i];

        printf("    %s numval %d", pmIDStr(vs->pmid), vs->numval);
        if (vs->numval > 0)
            printf(" valfmt %d", vs->valfmt);
        for (int j = 0; j < vs->numval; j++)
            printf(" [%d] %d", vs->vlist[j].inst, vs->vlist[j].value.lval);
        printf("\n");
    }
    __pmFreeResult(r);
}

static __pmResult *make_result(int numpmid, const int *numvals)
{
    __pmResult *r = __pmAllocResult(numpmid);

    if (r == NULL)
        return NULL;
    r->numpmid = numpmid;
    r->timestamp.sec = 1234567890;
    r->timestamp.nsec = 5;
    for (int i = 0; i < numpmid; i++) {
        int nv = numvals[i] > 0 ? numvals[i] : 0;
        pmValueSet *vs =
            malloc(sizeof(pmValueSet) + (size_t)(nv > 0 ? nv - 1 : 0) * sizeof(pmValue));

        vs->pmid = pmID_build(2, 4, (unsigned)(16 + i));
        vs->numval = numvals[i];
        vs->valfmt = PM_VAL_INSITU;
        for (int j = 0; j < nv; j++) {
            vs->vlist[j].inst = j == 0 && nv == 1 ? (int)PM_IN_NULL : 100 + j;
            vs->vlist[j].value.lval = 1000 * i + j + 1;
        }
        r->vset[i] = vs;
    }
    return r;
}

static void log_controls(void)
{
    static const struct {
        int control, state, delta, numpmid, numvals[3];
    } cases[] = {
        {PM_LOG_ENQUIRE, 0, 0, 2, {1, 1}},
        {PM_LOG_MANDATORY, PM_LOG_ON, 1000, 1, {1}},
        {PM_LOG_MANDATORY, PM_LOG_MAYBE, 0, 3, {3, 0, 2}},
        {PM_LOG_ADVISORY, PM_LOG_OFF, 86400000, 1, {2}},
        {PM_LOG_ADVISORY, PM_LOG_ON, -5, 0, {0}},
        {PM_LOG_MANDATORY, PM_LOG_OFF, 0, 2, {PM_ERR_PMID, 1}},
        {PM_LOG_ENQUIRE, 0, 0, 0, {0}},
        {99, 98, 7, 1, {1}},
        {PM_LOG_MANDATORY, PM_LOG_ON, 0x7fffffff, 1, {1}},
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        __pmResult *r = make_result(cases[i].numpmid, cases[i].numvals);
        char what[64];
        __pmPDU *pb;
        int sts;

        snprintf(what, sizeof(what), "LOG_CONTROL %d %d %d", cases[i].control, cases[i].state,
                 cases[i].delta);
        sts = __pmSendLogControl(wfd, r, cases[i].control, cases[i].state, cases[i].delta);
        __pmFreeResult(r);
        if ((pb = read_back(what, sts)) == NULL)
            continue;
        show_control(pb);
        __pmUnpinPDUBuf(pb);
    }
}

static void show_status(__pmPDU *pb)
{
    __pmLoggerStatus *s = NULL;
    int sts = __pmDecodeLogStatus(pb, &s);

    printf("  __pmDecodeLogStatus -> %d", sts);
    if (sts < 0) {
        printf("\n");
        return;
    }
    printf(" start %lld.%09d last %lld.%09d now %lld.%09d\n", (long long)s->start.sec,
           s->start.nsec, (long long)s->last.sec, s->last.nsec, (long long)s->now.sec, s->now.nsec);
    printf("    state %d vol %d size %lld\n", s->state, s->vol, (long long)s->size);
    printf("    pmcd [%s] [%s] [%s] [%s] pmlogger [%s] [%s]\n",
           s->pmcd.hostname ? s->pmcd.hostname : "(null)", s->pmcd.fqdn ? s->pmcd.fqdn : "(null)",
           s->pmcd.timezone ? s->pmcd.timezone : "(null)",
           s->pmcd.zoneinfo ? s->pmcd.zoneinfo : "(null)",
           s->pmlogger.timezone ? s->pmlogger.timezone : "(null)",
           s->pmlogger.zoneinfo ? s->pmlogger.zoneinfo : "(null)");
    __pmFreeLogStatus(s, 1);
}

static void log_statuses(void)
{
    static char *strs[][6] = {
        {"vm", "vm.example.com", "UTC", ":Europe/Berlin", "AEST-10", ""},
        {"", "", "", "", "", ""},
        {"h", "hostname-of-some-length.example.org", "EST5EDT", "", "UTC", ":UTC"},
    };

    for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++) {
        __pmLoggerStatus s;
        char what[32];
        __pmPDU *pb;
        int sts;

        memset(&s, 0, sizeof(s));
        s.start.sec = 1700000000 + (int64_t)i;
        s.start.nsec = 123456789;
        s.last.sec = (int64_t)0x123456789LL;
        s.last.nsec = 1;
        s.now.sec = -3;
        s.now.nsec = 999999999;
        s.state = PM_LOG_STATE_INIT;
        s.vol = 7 + (int)i;
        s.size = (int64_t)0x100000002LL * (int64_t)(i + 1);
        s.pmcd.hostname = strs[i][0];
        s.pmcd.fqdn = strs[i][1];
        s.pmcd.timezone = strs[i][2];
        s.pmcd.zoneinfo = strs[i][3];
        s.pmlogger.timezone = strs[i][4];
        s.pmlogger.zoneinfo = strs[i][5];
        snprintf(what, sizeof(what), "LOG_STATUS %zu", i);
        sts = __pmSendLogStatus(wfd, &s);
        if ((pb = read_back(what, sts)) == NULL)
            continue;
        show_status(pb);
        if (i == 0) { /* the peer taken to speak version 2, whatever was read */
            __pmOverrideLastFd(PDU_OVERRIDE2);
            show_status(pb);
        }
        __pmUnpinPDUBuf(pb);
    }
}

/* PDUs that do not add up, through each decoder. */
static void damaged(void)
{
    static const struct {
        const char *what;
        int type, n, len;
        uint32_t body[24];
    } cases[] = {
        {"request empty", PDU_LOG_REQUEST, 0, 0, {0}},
        {"request long", PDU_LOG_REQUEST, 2, 0, {2, 5}},
        {"control short", PDU_LOG_CONTROL, 3, 0, {13, 0, 0}},
        {"control no pmids", PDU_LOG_CONTROL, 4, 0, {13, 0, 0, 0}},
        {"control numpmid big", PDU_LOG_CONTROL, 6, 0, {13, 0, 0, 1000000, 1, 0}},
        {"control numpmid negative", PDU_LOG_CONTROL, 6, 0, {13, 0, 0, (uint32_t)-1, 1, 0}},
        {"control numval past end", PDU_LOG_CONTROL, 6, 0, {13, 0, 0, 1, 0x800410, 5}},
        {"control numval negative", PDU_LOG_CONTROL, 6, 0, {13, 0, 0, 1, 0x800410, (uint32_t)-3}},
        {"control vset cut", PDU_LOG_CONTROL, 5, 0, {13, 0, 0, 1, 0x800410}},
        {"control extra words",
         PDU_LOG_CONTROL,
         10,
         0,
         {13, 0, 0, 1, 0x800410, 1, (uint32_t)-1, 7, 9, 9}},
        {"status short", PDU_LOG_STATUS, 10, 0, {0}},
        {"status string past end",
         PDU_LOG_STATUS,
         19,
         0,
         {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1000, 0, 0, 0, 0, 0}},
        {"status no strings",
         PDU_LOG_STATUS,
         19,
         0,
         {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
        {"status v2",
         PDU_LOG_STATUS_V2,
         19,
         0,
         {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        __pmPDU *pb;

        printf("damaged %s:\n", cases[i].what);
        if ((pb = raw_pdu(cases[i].type, cases[i].body, cases[i].n, cases[i].len)) == NULL)
            continue;
        if (cases[i].type == PDU_LOG_REQUEST) {
            int type = -42;
            int sts = __pmDecodeLogRequest(pb, &type);
            printf("  __pmDecodeLogRequest -> %d type %d\n", sts, type);
        } else if (cases[i].type == PDU_LOG_CONTROL)
            show_control(pb);
        else
            show_status(pb);
        __pmUnpinPDUBuf(pb);
    }
}

/* ------------------------------------------------------------ port files */

static void put_file(const char *name, const char *text)
{
    char path[256];
    FILE *f;

    snprintf(path, sizeof(path), "%s/pmlogger/%s", dir, name);
    if ((f = fopen(path, "w")) == NULL)
        return;
    fputs(text, f);
    fclose(f);
}

static void rm_file(const char *name)
{
    char path[256];

    snprintf(path, sizeof(path), "%s/pmlogger/%s", dir, name);
    unlink(path);
}

static void find_port(const char *host, int pid)
{
    __pmLogPort *lpp = NULL;
    int sts = __pmLogFindPort(host, pid, &lpp);

    printf("__pmLogFindPort(%s, %s) -> %d", host, pidname(pid), sts);
    if (sts < 0)
        printf(" %s", pmErrStr(sts));
    printf("\n");
    show_err();
    for (int i = 0; i < sts; i++) {
        const char *name = lpp[i].name;

        printf("  pid %s port %s host [%s] archive [%s]", pidname(lpp[i].pid),
               portname(lpp[i].port), lpp[i].pmcd_host ? lpp[i].pmcd_host : "(null)",
               lpp[i].archive ? lpp[i].archive : "(null)");
        if (name == NULL)
            printf(" name (null)\n");
        else if (atoi(name) == self)
            printf(" name [self]\n");
        else if (strncmp(name, dir, strlen(dir)) == 0)
            printf(" name DIR%s\n", name + strlen(dir));
        else
            printf(" name [%s]\n", name);
    }
}

static void port_files(void)
{
    char self_s[16], dead_s[16], path[256], target[256];

    snprintf(self_s, sizeof(self_s), "%d", self);
    snprintf(dead_s, sizeof(dead_s), "%d", dead);
    printf("-- no pmlogger directory\n");
    find_port("localhost", PM_LOG_PRIMARY_PID);
    find_port("localhost", PM_LOG_ALL_PIDS);
    find_port("localhost", self);
    snprintf(path, sizeof(path), "%s/pmlogger", dir);
    mkdir(path, 0755);
    printf("-- empty directory\n");
    find_port("localhost", PM_LOG_PRIMARY_PID);
    find_port("localhost", PM_LOG_ALL_PIDS);
    find_port("localhost", self);
    find_port("localhost", dead);
    printf("-- one logger, a dead one's file\n");
    put_file(self_s, "4330\nvm\n/var/log/pcp/pmlogger/vm/20260101\n");
    put_file(dead_s, "4331\nother\n/tmp/arch\n");
    find_port("localhost", self);
    find_port("localhost", dead);
    find_port("localhost", PM_LOG_ALL_PIDS);
    find_port("localhost", PM_LOG_PRIMARY_PID);
    find_port("127.0.0.1", self);
    find_port("local:", self);
    printf("-- the primary: a link to self's file\n");
    snprintf(path, sizeof(path), "%s/pmlogger/primary", dir);
    snprintf(target, sizeof(target), "%s/pmlogger/%s", dir, self_s);
    if (symlink(target, path) < 0)
        printf("symlink: %s\n", strerror(errno));
    find_port("localhost", PM_LOG_PRIMARY_PID);
    find_port("localhost", PM_LOG_ALL_PIDS);
    printf("-- the primary: a link to the dead one's file\n");
    unlink(path);
    snprintf(target, sizeof(target), "%s/pmlogger/%s", dir, dead_s);
    if (symlink(target, path) < 0)
        printf("symlink: %s\n", strerror(errno));
    find_port("localhost", PM_LOG_PRIMARY_PID);
    find_port("localhost", PM_LOG_ALL_PIDS);
    unlink(path);
    printf("-- files that are no port files\n");
    put_file("notapid", "4332\nx\ny\n");
    put_file("12x", "4333\nx\ny\n");
    find_port("localhost", PM_LOG_ALL_PIDS);
    rm_file("notapid");
    rm_file("12x");
    /* names starting with a live pid and going on, one with no port
     * either, pid 1's, and a pid with a sign */
    char more[4][32];
    snprintf(more[0], sizeof(more[0]), "%sx", self_s);
    snprintf(more[1], sizeof(more[1]), "%sy", self_s);
    snprintf(more[2], sizeof(more[2]), "1");
    snprintf(more[3], sizeof(more[3]), "+%s", self_s);
    put_file(more[0], "4334\nx\ny\n");
    put_file(more[1], "abc\n");
    put_file(more[2], "4335\nx\ny\n");
    put_file(more[3], "4336\nh\n/a\n");
    find_port("localhost", PM_LOG_ALL_PIDS);
    find_port("localhost", self);
    for (int i = 0; i < 4; i++)
        rm_file(more[i]);
    static const char *bad[] = {"",
                                "\n",
                                "abc\nvm\n/a\n",
                                "4330",
                                "4330\n",
                                "4330\nvm",
                                "4330\nvm\n",
                                "4330 extra\nvm\n/a\n",
                                "-5\nvm\n/a\n",
                                "4330\n\n\n",
                                "99999999999\nh\n/a\n",
                                "4330\nvm\n/a\nmore lines\nhere\n",
                                "  77\n  host with spaces  \n /arch \n"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        printf("-- self's file [");
        for (const char *p = bad[i]; *p; p++)
            printf(*p == '\n' ? "\\n" : "%c", *p);
        printf("]\n");
        put_file(self_s, bad[i]);
        find_port("localhost", self);
        find_port("localhost", PM_LOG_ALL_PIDS);
    }
    rm_file(self_s);
    rm_file(dead_s);
}

/* ------------------------------------------------------ a scripted logger */

/* What the logger does: its greeting, then its answer to a control request. */
enum greet {
    G_OK,
    G_V2,
    G_V9,
    G_WRONG_TYPE,
    G_CLOSE,
    G_SILENT,
    G_XTEND,
    G_OTHER,
    G_V1,
    G_V0,
    G_BUSY /* serving another client: an error for a greeting, then gone */
};
enum answer { A_RESULT, A_ERROR, A_CLOSE, A_SILENT, A_WRONG, A_STATUS };

static void put_words(int fd, int type, int from, const uint32_t *body, int n)
{
    uint32_t w[64];

    w[0] = htonl((uint32_t)(12 + 4 * n));
    w[1] = htonl((uint32_t)type);
    w[2] = htonl((uint32_t)from);
    for (int i = 0; i < n; i++)
        w[3 + i] = htonl(body[i]);
    if (write(fd, w, 12 + 4 * (size_t)n) < 0)
        _exit(3);
}

/* Read one PDU (whole) into buf; its length, or 0 at the end. */
static int get_raw(int fd, unsigned char *buf, int size)
{
    int got = 0, need = 12;

    while (got < need) {
        ssize_t n = read(fd, buf + got, (size_t)(need - got));
        if (n <= 0)
            return 0;
        got += (int)n;
        if (got == 12) {
            need = (int)ntohl(*(uint32_t *)buf);
            if (need < 12 || need > size)
                return 0;
        }
    }
    return got;
}

/* The logger's side of one connection; what it read goes to log_fd. */
static void logger(int fd, enum greet g, enum answer a, int log_fd)
{
    unsigned char buf[4096];
    uint32_t w[32];
    int n;

    switch (g) {
    case G_OK:
    case G_V2:
    case G_V9:
    case G_OTHER:
    case G_V1:
    case G_V0:
        w[0] = g == G_V2 ? 2 : g == G_V9 ? 9 : g == G_V1 ? 1 : g == G_V0 ? 0 : 3;
        put_words(fd, PDU_ERROR, g == G_OTHER ? 4242 : self, w, 1);
        break;
    case G_XTEND:
        w[0] = 3;
        w[1] = 17;
        put_words(fd, PDU_ERROR, self, w, 2);
        break;
    case G_WRONG_TYPE:
        w[0] = 3;
        put_words(fd, PDU_TEXT_REQ, self, w, 1);
        break;
    case G_BUSY:
        w[0] = (uint32_t)-EADDRINUSE;
        put_words(fd, PDU_ERROR, self, w, 1);
        return;
    case G_CLOSE:
        return;
    case G_SILENT:
        /* no greeting: wait for the client to give up */
        while (get_raw(fd, buf, sizeof(buf)) > 0)
            ;
        return;
    }
    while ((n = get_raw(fd, buf, sizeof(buf))) > 0) {
        uint32_t type = ntohl(*(uint32_t *)(buf + 4));

        if (write(log_fd, buf, (size_t)n) != n)
            _exit(3);
        if (type == PDU_CREDS)
            continue;
        if (type == PDU_LOG_REQUEST) {
            /* a status: the times, state, vol, size and six strings */
            static const uint32_t st[] = {
                1700000000, 0, 5, 1700000100, 0,          6,          1700000200, 0,
                7,          1, 2, 0,          4096,       3,          5,          4,
                0,          4, 0, 0x766d0068, 0x6f737400, 0x55544300, 0x55544300};
            put_words(fd, PDU_LOG_STATUS, 4242, st, (int)(sizeof(st) / sizeof(st[0])));
            continue;
        }
        switch (a) {
        case A_RESULT: {
            /* a result of one value set: pmid 2.4.16, one value, insitu */
            static const uint32_t r[] = {1700000000, 250000,       1,     0x800410, 1,
                                         0,          (uint32_t)-1, 0x3e8f};
            put_words(fd, PDU_RESULT, 4242, r, 8);
            break;
        }
        case A_ERROR:
            w[0] = (uint32_t)PM_ERR_PMID;
            put_words(fd, PDU_ERROR, 4242, w, 1);
            break;
        case A_CLOSE:
            return;
        case A_SILENT:
            while (get_raw(fd, buf, sizeof(buf)) > 0)
                ;
            return;
        case A_WRONG:
            w[0] = 1;
            put_words(fd, PDU_TEXT_REQ, 4242, w, 1);
            break;
        case A_STATUS:
            w[0] = 0;
            put_words(fd, PDU_LOG_STATUS, 4242, w, 1);
            break;
        }
    }
}

/* The PDUs the client sent, as the logger read them. */
static void show_sent(const char *path)
{
    unsigned char buf[4096];
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof(buf), f) : 0;

    if (f)
        fclose(f);
    for (size_t off = 0; off + 12 <= n;) {
        uint32_t len = ntohl(*(uint32_t *)(buf + off));
        uint32_t from = ntohl(*(uint32_t *)(buf + off + 8));

        if (len < 12 || off + len > n)
            break;
        printf("  client sent len %u type %#x from %s:", len, ntohl(*(uint32_t *)(buf + off + 4)),
               pidname((int)from));
        hex(buf + off + 12, (int)len - 12);
        printf("\n");
        off += len;
    }
}

/* Serve one connection on the socket lsn with the given script. */
static pid_t serve(int lsn, enum greet g, enum answer a, const char *log)
{
    pid_t pid;

    fflush(stdout);
    if ((pid = fork()) == 0) {
        struct pollfd p = {lsn, POLLIN, 0};
        int log_fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int fd;

        if (poll(&p, 1, 5000) <= 0)
            _exit(2);
        if ((fd = accept(lsn, NULL, NULL)) < 0)
            _exit(2);
        logger(fd, g, a, log_fd);
        close(fd);
        close(log_fd);
        _exit(0);
    }
    return pid;
}

static void finish(pid_t server, const char *log)
{
    int status;

    waitpid(server, &status, 0);
    show_sent(log);
    unlink(log);
}

static void control(int fd, enum answer a)
{
    __pmResult *req, *status = NULL;
    int one = 1;
    int sts;

    (void)a;
    req = make_result(1, &one);
    sts = __pmControlLog(fd, req, PM_LOG_MANDATORY, PM_LOG_ON, 2500, &status);
    printf("  __pmControlLog -> %d", sts);
    if (sts < 0)
        printf(" %s\n", pmErrStr(sts));
    else {
        printf(" numpmid %d", status->numpmid);
        for (int i = 0; i < status->numpmid; i++) {
            pmValueSet *vs = status->vset[i];
            printf(" %s numval %d", pmIDStr(vs->pmid), vs->numval);
            for (int j = 0; j < vs->numval; j++)
                printf(" [%d] %#x", vs->vlist[j].inst, vs->vlist[j].value.lval);
        }
        printf("\n");
        __pmFreeResult(status);
    }
    __pmFreeResult(req);
}

static void connect_case(const char *host, int pid, int port, int lsn, enum greet g, enum answer a,
                         int request)
{
    char log[256];
    pid_t server = -1;
    int p = pid, q = port;
    int fd;

    snprintf(log, sizeof(log), "%s/sent", dir);
    if (lsn >= 0)
        server = serve(lsn, g, a, log);
    fd = __pmConnectLogger(host, &p, &q);
    if (shown != NULL)
        printf("__pmConnectLogger(%s, %s, %s) -> %s", shown, pidname(pid), portname(port),
               fd >= 0 ? "fd" : pmErrStr(fd));
    else if (strstr(host, dir) != NULL)
        printf("__pmConnectLogger(%.*sDIR%s, %s, %s) -> %s", (int)(strstr(host, dir) - host), host,
               strstr(host, dir) + strlen(dir), pidname(pid), portname(port),
               fd >= 0 ? "fd" : pmErrStr(fd));
    else
        printf("__pmConnectLogger(%s, %s, %s) -> %s", host, pidname(pid), portname(port),
               fd >= 0 ? "fd" : pmErrStr(fd));
    printf(" pid %s port %s\n", pidname(p), portname(q));
    show_err();
    if (fd >= 0) {
        printf("  version %d\n", __pmVersionIPC(fd));
        if (request) {
            __pmPDU *pb = NULL;
            int sts = __pmSendLogRequest(fd, LOG_REQUEST_STATUS);

            printf("  __pmSendLogRequest -> %d", sts);
            sts = __pmGetPDU(fd, ANY_SIZE, __pmLoggerTimeout(), &pb);
            printf(" __pmGetPDU -> %d\n", sts);
            if (sts == PDU_LOG_STATUS)
                show_status(pb);
            if (pb != NULL)
                __pmUnpinPDUBuf(pb);
        }
        if (request) {
            /* no metrics: refused before anything is sent */
            __pmResult *none = __pmAllocResult(1), *status = NULL;
            int sts;

            none->numpmid = 0;
            sts = __pmControlLog(fd, none, PM_LOG_ENQUIRE, 0, 0, &status);

            printf("  __pmControlLog of no metrics -> %d\n", sts);
            __pmFreeResult(none);
        }
        control(fd, a);
        __pmCloseSocket(fd);
    }
    if (server > 0)
        finish(server, log);
}

static void listeners(void)
{
    struct sockaddr_in in;
    struct sockaddr_un un;
    socklen_t len = sizeof(in);
    int one = 1;

    lsn_tcp = socket(AF_INET, SOCK_STREAM, 0);
    setsockopt(lsn_tcp, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    memset(&in, 0, sizeof(in));
    in.sin_family = AF_INET;
    in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(lsn_tcp, (struct sockaddr *)&in, sizeof(in)) < 0 || listen(lsn_tcp, 5) < 0 ||
        getsockname(lsn_tcp, (struct sockaddr *)&in, &len) < 0) {
        printf("listen: %s\n", strerror(errno));
        exit(1);
    }
    tcp_port = ntohs(in.sin_port);
    lsn_unix = socket(AF_UNIX, SOCK_STREAM, 0);
    memset(&un, 0, sizeof(un));
    un.sun_family = AF_UNIX;
    snprintf(un.sun_path, sizeof(un.sun_path), "%s/pmlogger.%d.socket", dir, self);
    if (bind(lsn_unix, (struct sockaddr *)&un, sizeof(un)) < 0 || listen(lsn_unix, 5) < 0) {
        printf("listen: %s\n", strerror(errno));
        exit(1);
    }
}

static void connections(void)
{
    char self_s[16], text[256], path[256], target[256];
    static const struct {
        enum greet g;
        enum answer a;
    } scripts[] = {
        {G_OK, A_RESULT},         {G_OK, A_ERROR},      {G_OK, A_CLOSE},     {G_OK, A_WRONG},
        {G_OK, A_STATUS},         {G_V2, A_RESULT},     {G_V9, A_RESULT},    {G_XTEND, A_RESULT},
        {G_WRONG_TYPE, A_RESULT}, {G_CLOSE, A_RESULT},  {G_OTHER, A_RESULT}, {G_V1, A_RESULT},
        {G_V0, A_RESULT},         {G_SILENT, A_RESULT}, {G_OK, A_SILENT},    {G_BUSY, A_RESULT},
    };

    listeners();
    snprintf(self_s, sizeof(self_s), "%d", self);
    snprintf(text, sizeof(text), "%d\nvm\n/tmp/arch\n", tcp_port);
    put_file(self_s, text);
    for (size_t i = 0; i < sizeof(scripts) / sizeof(scripts[0]); i++) {
        printf("-- logger script %d/%d\n", scripts[i].g, scripts[i].a);
        connect_case("localhost", self, PM_LOG_NO_PORT, lsn_tcp, scripts[i].g, scripts[i].a,
                     i == 0);
    }
    printf("-- ways to name the logger\n");
    connect_case("localhost", PM_LOG_NO_PID, tcp_port, lsn_tcp, G_OK, A_RESULT, 0);
    connect_case("localhost", self, tcp_port, lsn_tcp, G_OK, A_RESULT, 0);
    connect_case("127.0.0.1", self, PM_LOG_NO_PORT, lsn_tcp, G_OK, A_RESULT, 0);
    connect_case("local:", self, PM_LOG_NO_PORT, lsn_unix, G_OK, A_RESULT, 0);
    connect_case("local:", self, tcp_port, lsn_unix, G_OK, A_RESULT, 0);
    snprintf(path, sizeof(path), "unix:%s/pmlogger.%d.socket", dir, self);
    shown = "unix:DIR/pmlogger.self.socket";
    connect_case(path, PM_LOG_NO_PID, PM_LOG_NO_PORT, lsn_unix, G_OK, A_RESULT, 0);
    shown = NULL;
    printf("-- the primary\n");
    connect_case("localhost", PM_LOG_PRIMARY_PID, PM_LOG_NO_PORT, -1, G_OK, A_RESULT, 0);
    snprintf(path, sizeof(path), "%s/pmlogger/primary", dir);
    snprintf(target, sizeof(target), "%s/pmlogger/%s", dir, self_s);
    if (symlink(target, path) < 0)
        printf("symlink: %s\n", strerror(errno));
    connect_case("localhost", PM_LOG_PRIMARY_PID, PM_LOG_NO_PORT, lsn_tcp, G_OK, A_RESULT, 0);
    connect_case("local:", PM_LOG_PRIMARY_PID, PM_LOG_NO_PORT, -1, G_OK, A_RESULT, 0);
    unlink(path);
    printf("-- nobody there\n");
    connect_case("localhost", dead, PM_LOG_NO_PORT, -1, G_OK, A_RESULT, 0);
    connect_case("localhost", PM_LOG_NO_PID, PM_LOG_NO_PORT, -1, G_OK, A_RESULT, 0);
    connect_case("localhost", PM_LOG_ALL_PIDS, PM_LOG_NO_PORT, -1, G_OK, A_RESULT, 0);
    connect_case("local:", dead, PM_LOG_NO_PORT, -1, G_OK, A_RESULT, 0);
    snprintf(path, sizeof(path), "unix:%s/nosuch.socket", dir);
    connect_case(path, PM_LOG_NO_PID, PM_LOG_NO_PORT, -1, G_OK, A_RESULT, 0);
    connect_case("local:", PM_LOG_NO_PID, PM_LOG_NO_PORT, -1, G_OK, A_RESULT, 0);
    connect_case("local:", PM_LOG_ALL_PIDS, PM_LOG_NO_PORT, -1, G_OK, A_RESULT, 0);
    connect_case("unix:", PM_LOG_NO_PID, PM_LOG_NO_PORT, -1, G_OK, A_RESULT, 0);
    connect_case("unix:", PM_LOG_NO_PID, PM_LOG_PRIMARY_PORT, -1, G_OK, A_RESULT, 0);
    connect_case("local:", PM_LOG_NO_PID, PM_LOG_PRIMARY_PORT, -1, G_OK, A_RESULT, 0);
    connect_case("localhost", PM_LOG_NO_PID, PM_LOG_PRIMARY_PORT, -1, G_OK, A_RESULT, 0);
    connect_case("localhost", PM_LOG_PRIMARY_PID, PM_LOG_PRIMARY_PORT, -1, G_OK, A_RESULT, 0);
    connect_case("unix:", dead, PM_LOG_NO_PORT, -1, G_OK, A_RESULT, 0);
    snprintf(path, sizeof(path), "local:%s/nosuch.socket", dir);
    connect_case(path, PM_LOG_NO_PID, PM_LOG_NO_PORT, -1, G_OK, A_RESULT, 0);
    connect_case(path, dead, PM_LOG_NO_PORT, -1, G_OK, A_RESULT, 0);
    connect_case("nosuchhost.invalid", PM_LOG_NO_PID, tcp_port, -1, G_OK, A_RESULT, 0);
    snprintf(text, sizeof(text), "%d\nvm\n/tmp/arch\n", 1);
    put_file(self_s, text);
    connect_case("localhost", self, PM_LOG_NO_PORT, -1, G_OK, A_RESULT, 0);
    rm_file(self_s);
    close(lsn_tcp);
    close(lsn_unix);
}

int main(void)
{
    pid_t pid;
    int status, fds[2];

    self = (int)getpid();
    if ((pid = fork()) == 0)
        _exit(0);
    waitpid(pid, &status, 0);
    dead = (int)pid;
    snprintf(dir, sizeof(dir), "/tmp/probe_logctl.XXXXXX");
    if (mkdtemp(dir) == NULL)
        return 1;
    snprintf(errpath, sizeof(errpath), "%s/stderr", dir);
    if (freopen(errpath, "a", stderr) == NULL)
        return 1;
    setvbuf(stderr, NULL, _IONBF, 0);
    setenv("PCP_TMP_DIR", dir, 1);
    setenv("PCP_RUN_DIR", dir, 1);
    signal(SIGPIPE, SIG_IGN);
    setvbuf(stdout, NULL, _IOLBF, 0);

    timeouts();
    setenv("PMLOGGER_REQUEST_TIMEOUT", "1", 1);
    if (pipe(fds) < 0)
        return 1;
    rfd = fds[0];
    wfd = fds[1];
    log_requests();
    log_controls();
    log_statuses();
    int other = dup(2);

    for (int v = 2; v <= 3; v++) {
        printf("-- the pipe at version %d\n", v);
        __pmSetVersionIPC(rfd, v);
        __pmSetVersionIPC(wfd, v);
        /* another descriptor set last: the decoders follow the one read */
        __pmSetVersionIPC(other, 5 - v);
        log_statuses();
        damaged();
    }
    port_files();
    connections();
    show_err();

    {
        char cmd[128];
        snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
        if (system(cmd) != 0)
            return 1;
    }
    return 0;
}
