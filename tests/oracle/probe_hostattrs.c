/*
 * probe_hostattrs.c - host specifications in their URL form, with
 * attributes (libpcp.h), as PCP's own programs parse them, built against pmkit's libraries and
 * Debian's (compare.sh wants the same output): each specification of hostspec_cases.h's list, and
 * the URL forms listed here, is given to __pmParseHostAttrsSpec; the hosts and ports, the
 * attributes (walking the hash, each shown by __pmAttrStr_r) or the error and its message are
 * printed, then the result made text again by
 * __pmUnparseHostAttrsSpec (into buffers of every size up to the text's,
 * for the first ones) and freed with __pmFreeHostAttrsSpec.  With
 * arguments, those specifications instead.  Not given: what
 * probe_hostspec.c leaves out, for the same reasons.
 */
#include <pcp/pmapi.h>
#include "libpcp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostspec_cases.h"

/* The unparsed text, and into buffers of each size from 1 to one past it. */
static __pmHashWalkState print_attr(const __pmHashNode *node, void *arg)
{
    char buf[256] = "";
    int n = __pmAttrStr_r((__pmAttrKey)node->key, node->data, buf, sizeof(buf));

    (void)arg;
    printf("  attr %u \"%s\" -> %d \"%s\"\n", node->key,
           node->data != NULL ? (const char *)node->data : "(null)", n, n > 0 ? buf : "");
    return PM_HASH_WALK_NEXT;
}

static void unparse(const __pmHostSpec *hosts, int count, __pmHashCtl *attrs)
{
    char buf[1024] = "";
    int full = __pmUnparseHostAttrsSpec((__pmHostSpec *)hosts, count, attrs, buf, sizeof(buf));

    printf("  unparse: %d \"%s\"\n", full, full >= 0 ? buf : "");
    for (int size = 0; every_size && full >= 0 && size <= full + 1; size++) {
        int n;
        memset(buf, 'X', sizeof(buf));
        n = __pmUnparseHostAttrsSpec((__pmHostSpec *)hosts, count, attrs, buf, (size_t)size);
        buf[size] = '\0'; /* what was written, and no more */
        printf("    size %d: %d \"%s\"\n", size, n, n >= 0 ? buf : "");
    }
}

static void one(const char *spec)
{
    __pmHostSpec *hosts = NULL;
    __pmHashCtl attrs;
    char *msg = NULL;
    int count = -1, sts;

    printf("=== \"%s\"\n", spec);
    __pmHashInit(&attrs);
    sts = __pmParseHostAttrsSpec(spec, &hosts, &count, &attrs, &msg);
    printf(" attrsspec: %d", sts);
    if (sts < 0) {
        printf(" %s\n%s<end>\n", pmErrStr(sts), msg != NULL ? msg : "(no message)");
        free(msg);
        __pmFreeAttrsSpec(&attrs);
        __pmHashClear(&attrs);
        return;
    }
    printf(" count %d\n", count);
    print_hosts(hosts, count);
    __pmHashWalkCB(print_attr, NULL, &attrs);
    unparse(hosts, count, &attrs);
    __pmFreeHostAttrsSpec(hosts, count, &attrs);
    __pmHashClear(&attrs);
}

int main(int argc, char **argv)
{
    static const char *const urls[] = {"local:ab",
                                       "local:a",
                                       "local:/a",
                                       "local://a",
                                       "local:ab?x",
                                       "local:/",
                                       "local:a/",
                                       "local:a/b",
                                       "unix:a@b:c",
                                       "local:abc?user=u",
                                       "local:a?user=u",
                                       "a/b?user=x",
                                       "a:1/b?user=x",
                                       "local:/a?x",
                                       "local:a:?",
                                       "local:a&?x",
                                       "unix:b?x",
                                       "unix:bc?x",
                                       "a?unixsock=/x",
                                       "a?unixsock&user=u",
                                       "a?local=/y&user=u",
                                       "a?user=u&unixsock=/x&pass=p",
                                       "a?unix=/z&user=u",
                                       "a?local&user=u",
                                       "a?user=u&local",
                                       "local:p?unixsock",
                                       "unix:p?local",
                                       "pcp://a?local",
                                       "pcp://a?user=a%20b&pass=a+b c!~'()",
                                       "pcps://x?secure",
                                       "?user=x",
                                       "pcp:?",
                                       "a:1?",
                                       "local:a b",
                                       "a?user=%zz&pass=%2",
                                       "a?user=%&pass=%4",
                                       "a?user=%41%4a%4A+",
                                       "a?user=%00x"};

    hostspec_cases(argc, argv, one, urls, sizeof(urls) / sizeof(urls[0]));
    return 0;
}
