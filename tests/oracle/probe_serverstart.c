/*
 * probe_serverstart.c - __pmServerStart (libpcp.h), the way a daemon goes
 * into the background, built against pmkit's libraries and Debian's
 * (compare.sh wants the same output).  For each flags value a child,
 * with its standard input a pipe, output waiting in its stdout buffer and
 * an exit handler, calls it; the probe reports how that child ended, and
 * the process that comes back from the call reports (through a pipe the
 * probe reads to its end) whether it is the same process, whether it
 * leads a new session and process group, its standard input, umask and
 * working directory, and the stop signals it ignores.
 */
#include <pcp/pmapi.h>
#include "libpcp.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void handler(void)
{
    fprintf(stderr, "exit handler ran\n");
}

/* The process that comes back: its report on fd. */
static void report(int fd, pid_t before, const char *cwd)
{
    char buf[512], now[256] = "";
    mode_t um = umask(022);
    struct sigaction sa;
    int ign = 0, n;
    static const int stops[] = {SIGTSTP, SIGTTIN, SIGTTOU, SIGHUP, SIGPIPE};

    for (size_t i = 0; i < sizeof(stops) / sizeof(stops[0]); i++)
        if (sigaction(stops[i], NULL, &sa) == 0 && sa.sa_handler == SIG_IGN)
            ign |= 1 << i;
    if (getcwd(now, sizeof(now)) == NULL)
        now[0] = '\0';
    n = snprintf(buf, sizeof(buf),
                 "  back in %s process; session leader %d; group leader %d; stdin %s; "
                 "umask %03o; cwd %s; ignored TSTP %d TTIN %d TTOU %d HUP %d PIPE %d\n",
                 getpid() == before ? "the same" : "another", getsid(0) == getpid(),
                 getpgrp() == getpid(), fcntl(0, F_GETFL) < 0 ? "closed" : "open", (unsigned)um,
                 strcmp(now, cwd) == 0 ? "unchanged" : "changed", ign & 1, (ign >> 1) & 1,
                 (ign >> 2) & 1, (ign >> 3) & 1, (ign >> 4) & 1);
    if (write(fd, buf, (size_t)n) != n)
        _exit(4);
}

static void run(int flags, const char *cwd)
{
    int out[2], in[2], st;
    pid_t pid;
    char buf[1024];
    ssize_t n;

    printf("=== flags %d\n", flags);
    fflush(stdout);
    if (pipe(out) < 0 || pipe(in) < 0)
        exit(1);
    if ((pid = fork()) == 0) {
        pid_t me = getpid();
        close(out[0]);
        dup2(in[0], 0);
        dup2(out[1], 1); /* its stdout the pipe too: buffered output shows once */
        atexit(handler);
        printf("  buffered before the call\n");
        __pmServerStart(0, NULL, flags);
        fflush(stdout);
        report(out[1], me, cwd);
        _exit(3);
    }
    close(out[1]);
    close(in[0]);
    waitpid(pid, &st, 0);
    printf("  first process: %s %d\n", WIFEXITED(st) ? "exit" : "signal",
           WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
    fflush(stdout);
    while ((n = read(out[0], buf, sizeof(buf))) > 0)
        fwrite(buf, 1, (size_t)n, stdout);
    close(out[0]);
    close(in[1]);
}

int main(void)
{
    char cwd[256];

    if (getcwd(cwd, sizeof(cwd)) == NULL)
        return 1;
    for (int flags = 0; flags <= 3; flags++)
        run(flags, cwd);
    return 0;
}
