/*
 * probe_openlog.c - pmOpenLog's logs from start to exit, built against
 * pmkit's libraries and Debian's (compare.sh wants the same output).
 * Each case is a child process whose stdout and stderr are files: it opens
 * one or two logs in turn ("-" keeps the stream it is given: stdout or
 * stderr; a path, a file; a path in a missing directory, a failure), each
 * on the stream the one before returned, writes a line to each and exits.
 * The parent prints the status and streams each call reported, then the
 * child's stdout, stderr and log files, with the host name and dates
 * masked (and the scratch directory): the headers PCP writes at the start and the "Log finished"
 * lines it writes at exit.
 */
#include <pcp/pmapi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[64];

/* A file's lines with the host and the dates masked. */
static void show(const char *title, const char *path)
{
    char line[512], host[256] = "";
    FILE *f = fopen(path, "r");

    gethostname(host, sizeof(host) - 1);
    printf("-- %s%s\n", title, f == NULL ? ": none" : "");
    if (f == NULL)
        return;
    while (fgets(line, sizeof(line), f) != NULL) {
        char *p = strstr(line, " started ");
        char *on = strstr(line, " on ");
        if (strncmp(line, "Log finished ", 13) == 0) {
            strcpy(line + 13, "DATE\n");
        } else if (p != NULL && on != NULL && strncmp(on + 4, host, strlen(host)) == 0) {
            strcpy(p + 9, "DATE\n");
            memmove(on + 4 + 4, on + 4 + strlen(host), strlen(on + 4 + strlen(host)) + 1);
            memcpy(on + 4, "HOST", 4);
        }
        if ((p = strstr(line, dir)) != NULL) {
            memmove(p + 3, p + strlen(dir), strlen(p + strlen(dir)) + 1);
            memcpy(p, "DIR", 3);
        }
        fputs(line, stdout);
    }
    fclose(f);
}

/* The child: pmOpenLog for each of logs[], in turn, on stream. */
static void child(const char *stream, const char *const *logs, int n)
{
    FILE *fp = strcmp(stream, "stdout") == 0 ? stdout : stderr;

    for (int i = 0; i < n; i++) {
        char path[128];
        int sts = -7;
        FILE *old = fp;
        if (strcmp(logs[i], "-") == 0)
            snprintf(path, sizeof(path), "-");
        else
            snprintf(path, sizeof(path), "%s/%s", dir, logs[i]);
        fp = pmOpenLog(i == 0 ? "first" : "second", path, old, &sts);
        printf("call %d: status %d, %s\n", i, sts,
               fp == old      ? "the same stream"
               : fp == stderr ? "stderr"
                              : "another stream");
        fflush(stdout);
        fprintf(fp, "line %d\n", i);
    }
    exit(0);
}

static void run(const char *stream, const char *const *logs, int n)
{
    char out[96], err[96], path[128];
    pid_t pid;

    printf("=== on %s:", stream);
    for (int i = 0; i < n; i++)
        printf(" %s", logs[i]);
    putchar('\n');
    fflush(stdout);
    snprintf(out, sizeof(out), "%s/out", dir);
    snprintf(err, sizeof(err), "%s/err", dir);
    if ((pid = fork()) == 0) {
        if (freopen(out, "w", stdout) == NULL || freopen(err, "w", stderr) == NULL)
            _exit(2);
        child(stream, logs, n);
    }
    waitpid(pid, NULL, 0);
    show("stdout", out);
    show("stderr", err);
    for (int i = 0; i < n; i++) {
        if (strcmp(logs[i], "-") == 0 || strchr(logs[i], '/') != NULL)
            continue;
        snprintf(path, sizeof(path), "%s/%s", dir, logs[i]);
        show(logs[i], path);
        unlink(path);
    }
    unlink(out);
    unlink(err);
}

int main(void)
{
    static const char *const cases[][3] = {
        {"stderr", "-", NULL},          {"stdout", "-", NULL},
        {"stderr", "-", "-"},           {"stdout", "-", "-"},
        {"stderr", "a.log", NULL},      {"stdout", "a.log", NULL},
        {"stderr", "a.log", "b.log"},   {"stdout", "-", "a.log"},
        {"stderr", "a.log", "-"},       {"stderr", "no/such.log", NULL},
        {"stdout", "no/such.log", "-"}, {"stdout", "-", "no/such.log"},
    };

    snprintf(dir, sizeof(dir), "/tmp/probe_openlog.XXXXXX");
    if (mkdtemp(dir) == NULL)
        return 1;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        run(cases[i][0], &cases[i][1], cases[i][2] == NULL ? 1 : 2);
    rmdir(dir);
    return 0;
}
