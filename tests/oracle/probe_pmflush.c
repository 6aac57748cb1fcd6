/*
 * probe_pmflush.c - where pmflush sends what pmprintf gathered, with
 * $PCP_STDERR set, changed or removed as a program runs, built against
 * pmkit's libpcp and Debian's (compare.sh wants the same output).
 *
 * Each case is a child process (the variable is read once per process)
 * whose stderr is a file, in a scratch directory: it sets the variable
 * before or after its first pmprintf and pmflush (or an empty flush, or
 * other library calls), changes it, removes it, names a file that cannot
 * be appended to, or one removed between two flushes.  The parent prints
 * what each pmflush returned, the child's stderr and every file in the
 * directory.  Not here: the "DISPLAY" value (a pop-up window in PCP,
 * stderr in pmkit: docs/compat.md).
 */
#include <pcp/pmapi.h>

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void say(const char *text)
{
    pmprintf("%s\n", text);
}

/* pmflush, its answer on stdout. */
static void flush(void)
{
    printf("pmflush %d\n", pmflush());
    fflush(stdout);
}

static void one_case(int c)
{
    switch (c) {
    case 0: /* set before anything */
        setenv("PCP_STDERR", "f", 1);
        say("one");
        flush();
        break;
    case 1: /* set after a flush: too late */
        say("zero");
        flush();
        setenv("PCP_STDERR", "f", 1);
        say("one");
        flush();
        break;
    case 2: /* set after a pmprintf, before its flush: in time */
        say("zero");
        setenv("PCP_STDERR", "f", 1);
        say("one");
        flush();
        break;
    case 3: /* after other calls into the library: in time */
        pmGetConfig("PCP_TMP_DIR");
        pmSetProgname("probe");
        pmGetOptionalConfig("PCP_STDERR");
        pmErrStr(PM_ERR_GENERIC);
        setenv("PCP_STDERR", "f", 1);
        say("one");
        flush();
        break;
    case 4: /* set, changed, removed: the first holds */
        setenv("PCP_STDERR", "f", 1);
        say("zero");
        flush();
        setenv("PCP_STDERR", "g", 1);
        say("one");
        flush();
        unsetenv("PCP_STDERR");
        say("two");
        flush();
        break;
    case 5: /* an empty flush reads nothing */
        flush();
        setenv("PCP_STDERR", "f", 1);
        say("one");
        flush();
        break;
    case 6: /* empty: stderr, for good */
        setenv("PCP_STDERR", "", 1);
        say("zero");
        flush();
        setenv("PCP_STDERR", "f", 1);
        say("one");
        flush();
        break;
    case 7: /* cannot be appended to: said so each time, stderr */
        setenv("PCP_STDERR", "missing/f", 1);
        say("one");
        flush();
        setenv("PCP_STDERR", "f", 1);
        say("two");
        flush();
        break;
    case 8: /* a directory */
        mkdir("d", 0755);
        setenv("PCP_STDERR", "d", 1);
        say("one");
        flush();
        break;
    case 9: /* opened by name at each flush */
        setenv("PCP_STDERR", "f", 1);
        say("one");
        flush();
        unlink("f");
        say("two");
        flush();
        break;
    }
}

/* The files a case may leave, in order, then gone. */
static void show_files(void)
{
    static const char *const names[] = {"f", "g", "stderr"};

    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        char line[256];
        FILE *f = fopen(names[i], "r");
        if (f == NULL)
            continue;
        printf("-- %s\n", names[i]);
        while (fgets(line, sizeof(line), f) != NULL)
            fputs(line, stdout);
        fclose(f);
        unlink(names[i]);
    }
    rmdir("d");
}

int main(void)
{
    char dir[] = "/tmp/probe_pmflush.XXXXXX";

    unsetenv("PCP_STDERR");
    if (mkdtemp(dir) == NULL || chdir(dir) < 0) {
        perror("probe_pmflush: scratch directory");
        return 1;
    }
    for (int c = 0; c < 10; c++) {
        int fd, status;
        pid_t pid;
        printf("== case %d\n", c);
        fflush(stdout);
        if ((pid = fork()) < 0)
            return 1;
        if (pid == 0) {
            if ((fd = open("stderr", O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0 || dup2(fd, 2) < 0)
                _exit(1);
            one_case(c);
            _exit(0);
        }
        waitpid(pid, &status, 0);
        printf("status %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        show_files();
    }
    if (chdir("/") == 0)
        rmdir(dir);
    return 0;
}
