/*
 * probe_pmnschanged.c - __pmHasPMNSFileChanged (libpcp.h), pmcd's check
 * of whether the namespace it loaded has changed, built against pmkit's
 * libraries and Debian's (compare.sh wants the same output): asked of
 * the same and other names with nothing loaded, after loading a file
 * (as named, as another path to it, the default, missing), after the
 * file's time changes, after unloading, and with the default namespace
 * ($PMNS_DEFAULT) loaded.
 */
#include <pcp/pmapi.h>
#include "libpcp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utime.h>

static char ns1[64], ns2[64], ns1_dot[80];

static void ask(const char *when)
{
    printf("%-16s ns1 %d  ./ns1 %d  ns2 %d  NULL %d  missing %d\n", when,
           __pmHasPMNSFileChanged(ns1), __pmHasPMNSFileChanged(ns1_dot),
           __pmHasPMNSFileChanged(ns2), __pmHasPMNSFileChanged(NULL),
           __pmHasPMNSFileChanged("/nonexistent/root"));
}

static int write_ns(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");

    if (f == NULL)
        return -1;
    fputs(text, f);
    return fclose(f);
}

int main(void)
{
    char dir[] = "/tmp/probe_pmnschanged.XXXXXX";
    struct utimbuf old = {1000000000, 1000000000};

    if (mkdtemp(dir) == NULL || chdir(dir) < 0)
        return 1;
    snprintf(ns1, sizeof(ns1), "%s/ns1", dir);
    snprintf(ns2, sizeof(ns2), "%s/ns2", dir);
    snprintf(ns1_dot, sizeof(ns1_dot), "%s/./ns1", dir);
    if (write_ns(ns1, "root {\n    a 1:0:1\n}\n") < 0 ||
        write_ns(ns2, "root {\n    b 1:0:2\n}\n") < 0)
        return 1;
    setenv("PMNS_DEFAULT", ns1, 1);
    ask("nothing loaded");
    printf("load ns2 -> %d\n", pmLoadASCIINameSpace(ns2, 1));
    ask("ns2 loaded");
    utime(ns2, &old);
    ask("ns2 touched");
    pmUnloadNameSpace();
    ask("unloaded");
    printf("load default -> %d\n", pmLoadNameSpace(NULL));
    ask("default loaded");
    write_ns(ns1, "root {\n    a 1:0:1\n    c 1:0:3\n}\n");
    utime(ns1, &old);
    ask("ns1 rewritten");
    pmUnloadNameSpace();
    unlink(ns1);
    unlink(ns2);
    rmdir(dir);
    return 0;
}
