/*
 * probe_hostspec.c - host specifications (libpcp.h) as PCP's own programs
 * parse them, built against pmkit's libraries and Debian's (compare.sh
 * wants the same output): each specification of hostspec_cases.h's list
 * (made from schemes, hosts, ports, proxies, attributes, damaged forms) is
 * given to __pmParseHostSpec; the hosts and ports or the error and its
 * message are printed, then the result made text again by
 * __pmUnparseHostSpec (into buffers of every size up to the text's, for
 * the first ones) and freed with __pmFreeHostSpec.  With arguments, those
 * specifications instead.  Not given: a specification ending in '@' (PCP's
 * parser reads past the end of it) and empty brackets ("[]": PCP's takes
 * the ']' for the name, pmkit's an empty name; docs/compat.md).
 */
#include <pcp/pmapi.h>
#include "libpcp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostspec_cases.h"

/* The unparsed text, and into buffers of each size from 1 to one past it. */
static void unparse(const __pmHostSpec *hosts, int count)
{
    char buf[1024] = "";
    int full = __pmUnparseHostSpec((__pmHostSpec *)hosts, count, buf, sizeof(buf));

    printf("  unparse: %d \"%s\"\n", full, full >= 0 ? buf : "");
    for (int size = 0; every_size && full >= 0 && size <= full + 1; size++) {
        int n;
        memset(buf, 'X', sizeof(buf));
        n = __pmUnparseHostSpec((__pmHostSpec *)hosts, count, buf, (size_t)size);
        buf[size] = '\0'; /* what was written, and no more */
        printf("    size %d: %d \"%s\"\n", size, n, n >= 0 ? buf : "");
    }
}

static void one(const char *spec)
{
    __pmHostSpec *hosts = NULL;
    char *msg = NULL;
    int count = -1, sts;

    printf("=== \"%s\"\n", spec);
    sts = __pmParseHostSpec(spec, &hosts, &count, &msg);
    printf(" hostspec: %d", sts);
    if (sts < 0) {
        printf(" %s\n%s<end>\n", pmErrStr(sts), msg != NULL ? msg : "(no message)");
        free(msg);
    } else {
        printf(" count %d\n", count);
        print_hosts(hosts, count);
        unparse(hosts, count);
        __pmFreeHostSpec(hosts, count);
    }
}

int main(int argc, char **argv)
{
    hostspec_cases(argc, argv, one, NULL, 0);
    return 0;
}
