/*
 * probe_hostattrs.c - host specifications in their URL form, with
 * attributes (libpcp.h), as PCP's own programs parse them, built against pmkit's libraries and
 * Debian's (compare.sh wants the same output): each specification of a list made here from parts
 * (schemes, hosts, ports, proxies, attributes, damaged forms) is given to __pmParseHostAttrsSpec;
 * the hosts and ports, the attributes (walking the hash, each shown by __pmAttrStr_r) or the error
 * and its message are printed, then the result made text again by
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

static void print_hosts(const __pmHostSpec *hosts, int count)
{
    for (int i = 0; i < count; i++) {
        printf("  host[%d]: \"%s\" nports %d:", i, hosts[i].name, hosts[i].nports);
        for (int j = 0; j < hosts[i].nports; j++)
            printf(" %d", hosts[i].ports[j]);
        putchar('\n');
    }
}

/* Unparse into buffers of every size too (for the first specifications). */
static int every_size;

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

static const char *const schemes[] = {
    "",        "pcp://",  "pcps://", "local:", "unix:", "local://",
    "unix://", "http://", "pcp:",    "pcp:/",  "PCP://"};
static const char *const hosts[] = {"",
                                    "some.host",
                                    "localhost",
                                    "127.0.0.1",
                                    "[fda4:caa0:9105:6d00:c06b:922:fae:9423]",
                                    "[::1]",
                                    "[::1",
                                    "::1",
                                    "/tmp/holey.sock",
                                    "where/am/i.sock",
                                    "host_name-9"};
static const char *const ports[] = {"",     ":44321", ":1,2,3", ":44321,4321", ":",     ":abc",
                                    ":12x", ":-1",    ":99999", ":0",          ":1,,2", ":1,",
                                    ",1",   ":1:2",   ":65535", ":4294967297"};
static const char *const proxies[] = {
    "",        "@firewall.servers.com", "@firewall.servers.com:44322", "@fw:1,2", "@:44322", "@a@b",
    "@[::1]:3"};
static const char *const queries[] = {"",
                                      "?",
                                      "?compress",
                                      "?user=pcpqa&compress&pass=blah",
                                      "?user=pcpqa",
                                      "?compress&exclusive",
                                      "?container=web01&secure=enforce",
                                      "?method=plain&realm=R&authname=a&userid=1&groupid=2",
                                      "?protocol=pcps&secure",
                                      "?unknown=1&user=u",
                                      "?user=",
                                      "?=x",
                                      "?&",
                                      "?user=a&user=b",
                                      "?user=a?b",
                                      "?local&unixsock=/x&processid=3"};

int main(int argc, char **argv)
{
    size_t ns = sizeof(schemes) / sizeof(schemes[0]);
    size_t nh = sizeof(hosts) / sizeof(hosts[0]);
    size_t np = sizeof(ports) / sizeof(ports[0]);
    size_t nx = sizeof(proxies) / sizeof(proxies[0]);
    size_t nq = sizeof(queries) / sizeof(queries[0]);
    char spec[512];

    if (argc > 1) {
        for (int i = 1; i < argc; i++)
            one(argv[i]);
        return 0;
    }
    /* every scheme and host; each port, proxy and query with a few */
    every_size = 1;
    for (size_t s = 0; s < ns; s++)
        for (size_t h = 0; h < nh; h++) {
            snprintf(spec, sizeof(spec), "%s%s", schemes[s], hosts[h]);
            one(spec);
        }
    one("a:1,2@[::1]:3@b");
    one("host:44321,4321@firewall.servers.com:44322");
    every_size = 0;
    {
        static const char *const odd[] = {
            "a@@b",   "a@:1", "a@/x", "a@?x",   "a@:",    "a@[::1", "a@[x]y",
            "a:1@b:", ":",    "a::1", "a:?",    "a:/",    "a:@b",   "a:1?x",
            "a:1/x",  "a?b",  "a/b",  "[a]b",   "a:007",  "a: 1",   "a:+1",
            "a:1 ",   " a",   "a b",  "a\tb:1", "[::1]]", "[[::1]", "a:1,2,3,4,5,6,7,8,9,10"};
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
        for (size_t i = 0; i < sizeof(odd) / sizeof(odd[0]); i++)
            one(odd[i]);
        for (size_t i = 0; i < sizeof(urls) / sizeof(urls[0]); i++)
            one(urls[i]);
    }
    for (size_t s = 0; s < 3; s++)
        for (size_t h = 1; h < nh; h += 3)
            for (size_t p = 1; p < np; p++) {
                snprintf(spec, sizeof(spec), "%s%s%s", schemes[s], hosts[h], ports[p]);
                one(spec);
            }
    for (size_t h = 0; h < nh; h += 2)
        for (size_t p = 0; p < np; p += 3)
            for (size_t x = 1; x < nx; x++) {
                snprintf(spec, sizeof(spec), "%s%s%s", hosts[h], ports[p], proxies[x]);
                one(spec);
            }
    for (size_t s = 0; s < ns; s++)
        for (size_t h = 0; h < nh; h += 2)
            for (size_t q = 1; q < nq; q++) {
                snprintf(spec, sizeof(spec), "%s%s%s%s", schemes[s], hosts[h],
                         h % 4 == 2 ? ":44321" : "", queries[q]);
                one(spec);
            }
    return 0;
}
