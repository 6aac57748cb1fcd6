/*
 * exec.c - commands run by libpcp for agents and tools (<pcp/libpcp.h>):
 * an argument list built one by one (__pmProcessAddArg) or taken apart
 * from a command line (__pmProcessUnpickArgs), run and waited for
 * (__pmProcessExec) or read from or written to through a pipe
 * (__pmProcessPipe, __pmProcessPipeClose).  No shell is involved: the
 * program is found on $PATH and given the arguments as they are.
 *
 * As Debian's libpcp answers (tests/oracle/probe_system.c): a command's
 * status is its exit status, 1000 plus the signal that ended it, or 127
 * when the program cannot be run.  A command line splits at blanks; a word
 * that starts with a quote (' or ") runs to the matching quote, which is
 * dropped, and other quotes and backslashes are ordinary characters.
 */
#include "support.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <pcp/libpcp.h>

struct __pmExecCtl {
    int argc;
    char **argv; /* argc strings and a NULL */
};

static void free_ctl(__pmExecCtl_t **handle)
{
    __pmExecCtl_t *c = *handle;

    if (c == NULL)
        return;
    for (int i = 0; i < c->argc; i++)
        free(c->argv[i]);
    free(c->argv);
    free(c);
    *handle = NULL;
}

int __pmProcessAddArg(__pmExecCtl_t **handle, const char *arg)
{
    __pmExecCtl_t *c = *handle;
    char **argv, *copy;

    if (arg == NULL)
        return -EINVAL; /* PCP's crashes */
    if (c == NULL && (c = calloc(1, sizeof(*c))) == NULL)
        return -ENOMEM;
    *handle = c;
    if ((copy = strdup(arg)) == NULL)
        return -ENOMEM;
    if ((argv = realloc(c->argv, (size_t)(c->argc + 2) * sizeof(*argv))) == NULL) {
        free(copy);
        return -ENOMEM;
    }
    argv[c->argc++] = copy;
    argv[c->argc] = NULL;
    c->argv = argv;
    return 0;
}

int __pmProcessUnpickArgs(__pmExecCtl_t **handle, const char *command)
{
    const char *p = command;

    while (*p != '\0') {
        const char *start, *end;
        char *word;
        int sts;
        while (*p == ' ' || *p == '\t' || *p == '\n')
            p++;
        if (*p == '\0')
            break;
        if (*p == '\'' || *p == '"') {
            char q = *p;
            start = ++p;
            if ((end = strchr(start, q)) == NULL) {
                pmNotifyErr(LOG_WARNING,
                            "__pmProcessUnpickArgs: unterminated quote (%c) in command: %s\n", q,
                            command);
                free_ctl(handle);
                return PM_ERR_GENERIC;
            }
            p = end + 1;
        } else {
            start = p;
            p += strcspn(p, " \t\n");
            end = p;
        }
        if ((word = strndup(start, (size_t)(end - start))) == NULL)
            return -ENOMEM;
        sts = __pmProcessAddArg(handle, word);
        free(word);
        if (sts < 0)
            return sts;
    }
    return 0;
}

/* In the child: the standard streams toss names go to /dev/null. */
static void toss_streams(int toss)
{
    static const struct {
        int bit, fd, mode;
    } s[] = {{PM_EXEC_TOSS_STDIN, STDIN_FILENO, O_RDONLY},
             {PM_EXEC_TOSS_STDOUT, STDOUT_FILENO, O_WRONLY},
             {PM_EXEC_TOSS_STDERR, STDERR_FILENO, O_WRONLY}};

    for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++) {
        int fd;
        if (!(toss & s[i].bit) || (fd = open("/dev/null", s[i].mode)) < 0)
            continue;
        dup2(fd, s[i].fd);
        if (fd != s[i].fd)
            close(fd);
    }
}

/* A waitpid status as PCP reports it. */
static int status_of(int st)
{
    if (WIFEXITED(st))
        return WEXITSTATUS(st);
    if (WIFSIGNALED(st))
        return 1000 + WTERMSIG(st);
    return st;
}

static int wait_for(pid_t pid)
{
    int st;

    while (waitpid(pid, &st, 0) < 0) {
        if (errno != EINTR)
            return -oserror();
    }
    return status_of(st);
}

int __pmProcessExec(__pmExecCtl_t **handle, int toss, int wait)
{
    __pmExecCtl_t *c = *handle;
    pid_t pid;

    if (c == NULL || c->argc == 0)
        return PM_ERR_TOOSMALL;
    fflush(stdout);
    fflush(stderr);
    if ((pid = fork()) < 0) {
        int sts = -oserror();
        free_ctl(handle);
        return sts;
    }
    if (pid == 0) {
        toss_streams(toss);
        execvp(c->argv[0], c->argv);
        _exit(127);
    }
    free_ctl(handle);
    return wait == PM_EXEC_WAIT ? wait_for(pid) : 0;
}

/* Pipes open to commands, and the process at the other end of each. */
static pthread_mutex_t pipes_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pipe_child {
    FILE *f;
    pid_t pid;
    struct pipe_child *next;
} * pipes;

int __pmProcessPipe(__pmExecCtl_t **handle, const char *type, int toss, FILE **fp)
{
    __pmExecCtl_t *c = *handle;
    struct pipe_child *pc;
    int fds[2], reading;
    pid_t pid;

    if (c == NULL || c->argc == 0)
        return PM_ERR_TOOSMALL;
    if (type == NULL || (strcmp(type, "r") != 0 && strcmp(type, "w") != 0))
        return -EINVAL;
    reading = type[0] == 'r';
    if ((pc = malloc(sizeof(*pc))) == NULL)
        return -ENOMEM;
    if (pipe(fds) < 0 || (pid = fork()) < 0) {
        int sts = -oserror();
        free(pc);
        return sts;
    }
    if (pid == 0) {
        /* the pipe's own end of the child is not tossed */
        toss_streams(toss & ~(reading ? PM_EXEC_TOSS_STDOUT : PM_EXEC_TOSS_STDIN));
        dup2(fds[reading ? 1 : 0], reading ? STDOUT_FILENO : STDIN_FILENO);
        close(fds[0]);
        close(fds[1]);
        execvp(c->argv[0], c->argv);
        _exit(127);
    }
    close(fds[reading ? 1 : 0]);
    if ((pc->f = fdopen(fds[reading ? 0 : 1], type)) == NULL) {
        int sts = -oserror();
        close(fds[reading ? 0 : 1]);
        wait_for(pid);
        free(pc);
        return sts;
    }
    pc->pid = pid;
    pthread_mutex_lock(&pipes_lock);
    pc->next = pipes;
    pipes = pc;
    pthread_mutex_unlock(&pipes_lock);
    free_ctl(handle);
    *fp = pc->f;
    return 0;
}

/* Close the pipe and wait for its command: the command's status, or
 * -ECHILD for a stream __pmProcessPipe did not open. */
int __pmProcessPipeClose(FILE *f)
{
    struct pipe_child **p, *pc = NULL;
    pid_t pid;

    pthread_mutex_lock(&pipes_lock);
    for (p = &pipes; *p != NULL; p = &(*p)->next) {
        if ((*p)->f == f) {
            pc = *p;
            *p = pc->next;
            break;
        }
    }
    pthread_mutex_unlock(&pipes_lock);
    if (pc == NULL)
        return -ECHILD;
    pid = pc->pid;
    free(pc);
    fclose(f);
    return wait_for(pid);
}
