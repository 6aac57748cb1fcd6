/*
 * fake_pmtime PORTFILE LOG STEP... - a time control server for one client,
 * for pmtime_diff.sh: Debian's pmval and pmkit's are stepped through the
 * same script, and what each sends is logged to LOG for comparison.
 *
 * It listens on a free loopback port (written to PORTFILE once it
 * listens), takes the client's first message and answers it with an ACK
 * of the same source, waits for the client's request to show its window,
 * then plays the STEPs:
 *   Fs[:d]  a step forward to s seconds (a decimal) past the client's
 *           first position, with a step of d seconds (default the
 *           client's); the client's answer is logged;
 *   Bs[:d]  the same backward;
 *   V0, V1  play stopped / resumed          D  the slider dragged
 *   S       the server's own position set   X  a command no one knows
 *   Z:tz:label  a new time zone and its label.
 * Only steps are answered.  The log has one line per message received,
 * each field's bytes in hex as they came (the state and mode of the
 * first message, which PCP leaves unset, shown as dots; a live client's
 * times too, which are now's or unset, in its answers as well), and "eof"
 * when the client goes.
 * The connection is closed after the last STEP; the program gives up after
 * 60 seconds.  Messages are built byte by byte from the layout pmtime.h
 * documents (88 bytes: six 4-byte fields, four struct timevals), not with
 * pmkit's library.
 */
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define FIXED  88
#define MAXMSG 4096

static FILE *logfile;

static void put32(unsigned char *b, int off, uint32_t v)
{
    memcpy(b + off, &v, 4);
}

static void put64(unsigned char *b, int off, int64_t v)
{
    memcpy(b + off, &v, 8);
}

static uint32_t get32(const unsigned char *b, int off)
{
    uint32_t v;
    memcpy(&v, b + off, 4);
    return v;
}

static int64_t get64(const unsigned char *b, int off)
{
    int64_t v;
    memcpy(&v, b + off, 8);
    return v;
}

static void timeout(int sig)
{
    (void)sig;
    static const char msg[] = "fake_pmtime: no end after 60 seconds\n";
    if (write(2, msg, sizeof(msg) - 1) < 0)
        _exit(3);
    _exit(3);
}

static int read_full(int fd, unsigned char *b, size_t len)
{
    size_t done = 0;
    while (done < len) {
        ssize_t n = read(fd, b + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        done += (size_t)n;
    }
    return 0;
}

/* A message's bytes on one line of the log, a space between fields; the
 * state and mode (masks & 1) or the times (masks & 2) as dots. */
static void log_msg(const char *what, const unsigned char *b, uint32_t len, int masks)
{
    fprintf(logfile, "%s", what);
    for (uint32_t i = 0; i < len; i++) {
        if (i == 0 || i == 4 || i == 8 || i == 12 || i == 16 || i == 20 || i == 24 || i == 40 ||
            i == 56 || i == 72 || i == FIXED)
            fputc(' ', logfile);
        if (((masks & 1) && i >= 16 && i < 24) || ((masks & 2) && i >= 40 && i < FIXED))
            fputs("..", logfile);
        else
            fprintf(logfile, "%02x", b[i]);
    }
    fputc('\n', logfile);
}

/* One message in; its length, or -1 at the end (logged). */
static int recv_msg(int fd, unsigned char *b)
{
    uint32_t len;

    if (read_full(fd, b, FIXED) < 0) {
        fprintf(logfile, "eof\n");
        return -1;
    }
    len = get32(b, 4);
    if (len < FIXED || len > MAXMSG || read_full(fd, b + FIXED, len - FIXED) < 0) {
        fprintf(logfile, "bad length %u\n", len);
        return -1;
    }
    return (int)len;
}

/* A client gone before a message could go is the end, as when it goes
 * before its answer (whichever the timing of its leaving gives). */
static void send_msg(int fd, unsigned char *b, size_t len)
{
    ssize_t n = write(fd, b, len);

    if (n < 0 && (errno == EPIPE || errno == ECONNRESET)) {
        fprintf(logfile, "eof\n");
        exit(0);
    }
    if (n != (ssize_t)len) {
        fprintf(logfile, "send failed: %s\n", strerror(errno));
        exit(1);
    }
}

static void message(unsigned char *b, uint32_t cmd, uint32_t source, uint32_t state)
{
    memset(b, 0, FIXED);
    put32(b, 0, 0x54494D45);
    put32(b, 4, FIXED);
    put32(b, 8, cmd);
    put32(b, 12, source);
    put32(b, 16, state);
    put32(b, 20, 1); /* normal pace */
}

/* STEP to base + s seconds; the client's answer logged. */
static int step(int fd, const char *arg, uint32_t source, const unsigned char *hello)
{
    unsigned char b[MAXMSG];
    double s = strtod(arg + 1, NULL);
    const char *colon = strchr(arg, ':');
    int64_t sec = get64(hello, 40), usec = get64(hello, 48);
    int64_t add = (int64_t)(s * 1000000 + 0.5);
    int len;

    message(b, 2, source, arg[0] == 'B' ? 2 : 1);
    if (colon != NULL) {
        double d = strtod(colon + 1, NULL);
        put64(b, 24, (int64_t)d);
        put64(b, 32, (int64_t)((d - (int64_t)d) * 1000000 + 0.5));
    } else {
        memcpy(b + 24, hello + 24, 16);
    }
    usec += add % 1000000;
    sec += add / 1000000 + usec / 1000000;
    put64(b, 40, sec);
    put64(b, 48, usec % 1000000);
    send_msg(fd, b, FIXED);
    if ((len = recv_msg(fd, b)) < 0)
        return -1;
    log_msg("answer", b, (uint32_t)len, source == 0 ? 2 : 0);
    return 0;
}

/* Z:tz:label */
static void zone(int fd, const char *arg, uint32_t source)
{
    unsigned char b[MAXMSG];
    const char *tz = arg + 2, *label = strchr(tz, ':');
    size_t tzlen, lablen;

    if (label == NULL)
        label = "";
    else
        label++;
    tzlen = strcspn(tz, ":");
    lablen = strlen(label);
    message(b, 4, source, 1);
    memcpy(b + FIXED, tz, tzlen);
    b[FIXED + tzlen] = '\0';
    memcpy(b + FIXED + tzlen + 1, label, lablen + 1);
    put32(b, 4, (uint32_t)(FIXED + tzlen + 1 + lablen + 1));
    send_msg(fd, b, FIXED + tzlen + 1 + lablen + 1);
}

static int play(int fd, const char *arg, uint32_t source, const unsigned char *hello)
{
    unsigned char b[FIXED];

    switch (arg[0]) {
    case 'F':
    case 'B':
        return step(fd, arg, source, hello);
    case 'V':
        message(b, 8, source, arg[1] == '0' ? 0 : 1);
        break;
    case 'D':
        message(b, 16, source, 1);
        break;
    case 'S':
        message(b, 1, source, 1);
        break;
    case 'X':
        message(b, 512, source, 1);
        break;
    case 'Z':
        zone(fd, arg, source);
        return 0;
    default:
        fprintf(stderr, "fake_pmtime: unknown step %s\n", arg);
        exit(2);
    }
    send_msg(fd, b, FIXED);
    return 0;
}

static int listen_here(const char *portfile)
{
    struct sockaddr_in a;
    socklen_t alen = sizeof(a);
    char tmp[4096];
    FILE *f;
    int s = socket(AF_INET, SOCK_STREAM, 0);

    memset(&a, 0, sizeof(a));
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(s, 1) < 0 ||
        getsockname(s, (struct sockaddr *)&a, &alen) < 0) {
        perror("fake_pmtime: listen");
        exit(2);
    }
    snprintf(tmp, sizeof(tmp), "%s.tmp", portfile);
    if ((f = fopen(tmp, "w")) == NULL || fprintf(f, "%d\n", ntohs(a.sin_port)) < 0 ||
        fclose(f) != 0 || rename(tmp, portfile) < 0) {
        perror("fake_pmtime: port file");
        exit(2);
    }
    return s;
}

int main(int argc, char **argv)
{
    unsigned char hello[MAXMSG], b[MAXMSG];
    uint32_t source;
    int s, fd, len;

    if (argc < 3) {
        fprintf(stderr, "Usage: fake_pmtime PORTFILE LOG STEP...\n");
        return 2;
    }
    signal(SIGALRM, timeout);
    signal(SIGPIPE, SIG_IGN);
    alarm(60);
    if ((logfile = fopen(argv[2], "w")) == NULL) {
        perror(argv[2]);
        return 2;
    }
    setvbuf(logfile, NULL, _IOLBF, 0);
    s = listen_here(argv[1]);
    if ((fd = accept(s, NULL, NULL)) < 0) {
        perror("fake_pmtime: accept");
        return 2;
    }
    if ((len = recv_msg(fd, hello)) < 0)
        return 0;
    source = get32(hello, 12);
    log_msg("hello", hello, (uint32_t)len, source == 0 ? 3 : 1);
    message(b, 256, source, 0);
    put32(b, 20, 0);
    send_msg(fd, b, FIXED);
    if ((len = recv_msg(fd, b)) < 0)
        return 0;
    log_msg("window", b, (uint32_t)len, 0);
    for (int i = 3; i < argc; i++)
        if (play(fd, argv[i], source, hello) < 0)
            return 0;
    close(fd);
    return 0;
}
