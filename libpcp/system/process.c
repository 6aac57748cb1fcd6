/*
 * process.c - libpcp's process helpers (<pcp/libpcp.h>): is a process
 * there, end one, start one on a pair of pipes, the data segment's growth,
 * signal handlers, file mappings, errno values as PCP maps them, whether
 * a path is absolute, native paths, whether an agent's DSO is there and the
 * client identity pmie sends pmcd.
 *
 * As Debian's libpcp answers (tests/oracle/probe_system.c).  Not here:
 * commands with arguments and pipes (exec.c), the alarm timers (alarm.c).
 */
#include "support.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <pcp/libpcp.h>

/* 1 when pid is a process (one we may not signal counts), else 0. */
int __pmProcessExists(pid_t pid)
{
    return kill(pid, 0) == 0 || errno == EPERM;
}

/* SIGTERM, or SIGKILL when force is set: kill's answer (-1 and errno).
 * The process is not waited for. */
int __pmProcessTerminate(pid_t pid, int force)
{
    return kill(pid, force ? SIGKILL : SIGTERM);
}

/*
 * argv[0] run with argv, its standard input fed from *outfd and its
 * standard output read on *infd: the child's pid, or -errno.  A program
 * that cannot be run says so on stderr (perror) and exits 1.
 */
pid_t __pmProcessCreate(char **argv, int *infd, int *outfd)
{
    int in[2], out[2];
    pid_t pid;

    if (pipe(in) < 0)
        return -oserror();
    if (pipe(out) < 0) {
        int sts = -oserror();
        close(in[0]);
        close(in[1]);
        return sts;
    }
    if ((pid = fork()) < 0) {
        int sts = -oserror();
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        return sts;
    }
    if (pid == 0) {
        dup2(out[0], STDIN_FILENO);
        dup2(in[1], STDOUT_FILENO);
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        execvp(argv[0], argv);
        perror("execvp");
        _exit(1);
    }
    close(in[1]);
    close(out[0]);
    *infd = in[0];
    *outfd = out[1];
    return pid;
}

/* The data segment's growth in KB since the first call (which answers 0). */
int __pmProcessDataSize(unsigned long *size)
{
    static uintptr_t base;
    uintptr_t now = (uintptr_t)sbrk(0);

    if (base == 0)
        base = now;
    if (size != NULL)
        *size = now > base ? (unsigned long)((now - base) / 1024) : 0;
    return 0;
}

int __pmSetSignalHandler(int sig, __pmSignalHandler func)
{
    struct sigaction sa;

    sa.sa_handler = func;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;
    sigaction(sig, &sa, NULL); /* PCP answers 0 whatever this says */
    return 0;
}

void __pmIgnoreSignalPIPE(void)
{
    signal(SIGPIPE, SIG_IGN);
}

/* The first sz bytes of fd mapped shared (writable if asked), or NULL with
 * errno set. */
void *__pmMemoryMap(int fd, size_t sz, int writable)
{
    void *p = mmap(NULL, sz, PROT_READ | (writable ? PROT_WRITE : 0), MAP_SHARED, fd, 0);

    return p == MAP_FAILED ? NULL : p;
}

void __pmMemoryUnmap(void *addr, size_t sz)
{
    munmap(addr, sz);
}

/* errno values need no mapping on POSIX systems. */
int __pmMapErrno(int sts)
{
    return sts;
}

/* 1 if path is absolute (starts with '/'), else 0. */
int __pmAbsolutePath(char *path)
{
    return path != NULL && path[0] == '/';
}

/* The path as this platform writes it: on POSIX the path itself, unchanged
 * (PCP converts separators on Windows only). */
char *__pmNativePath(char *path)
{
    return path;
}

/* pmcd's check of an agent's DSO path: the name itself when a file (or
 * directory) of that name exists, else NULL; nothing is searched. */
const char *__pmFindPMDA(const char *name)
{
    return access(name, F_OK) == 0 ? name : NULL;
}

/* The first argc arguments joined by single blanks, as pmie names itself
 * to pmcd; malloc'd, NULL when argc is less than 1 or memory ran out. */
char *__pmGetClientId(int argc, char **argv)
{
    size_t len = 0, at = 0;
    char *id;

    if (argc < 1)
        return NULL;
    for (int i = 0; i < argc; i++)
        len += strlen(argv[i]) + 1;
    if ((id = malloc(len)) == NULL)
        return NULL;
    for (int i = 0; i < argc; i++) {
        size_t n = strlen(argv[i]);
        memcpy(id + at, argv[i], n);
        at += n;
        id[at++] = i + 1 < argc ? ' ' : '\0';
    }
    return id;
}
