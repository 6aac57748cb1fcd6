/*
 * hostspec_cases.h - the host specifications probe_hostspec.c and
 * probe_hostattrs.c give to Debian's libpcp and pmkit's, made from parts
 * (schemes, hosts, ports, proxies, queries, damaged forms), and the
 * printing of a parsed host list both share.  Included by those two
 * probes only (everything here is static).
 */
#ifndef PMKIT_TESTS_HOSTSPEC_CASES_H
#define PMKIT_TESTS_HOSTSPEC_CASES_H

#include <stdio.h>

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

/* Each specification, to one(): every scheme and host (with every_size
 * set), then the damaged forms and the caller's extra ones, then ports,
 * proxies and queries each with a few schemes and hosts.  With arguments,
 * those specifications instead.  Long: the list is most of it. */
static void hostspec_cases(int argc, char **argv, void (*one)(const char *),
                           const char *const *extra, size_t nextra)
{
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
    static const char *const proxies[] = {"",
                                          "@firewall.servers.com",
                                          "@firewall.servers.com:44322",
                                          "@fw:1,2",
                                          "@:44322",
                                          "@a@b",
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
    size_t ns = sizeof(schemes) / sizeof(schemes[0]);
    size_t nh = sizeof(hosts) / sizeof(hosts[0]);
    size_t np = sizeof(ports) / sizeof(ports[0]);
    size_t nx = sizeof(proxies) / sizeof(proxies[0]);
    size_t nq = sizeof(queries) / sizeof(queries[0]);
    static const char *const odd[] = {
        "a@@b",   "a@:1", "a@/x", "a@?x",   "a@:",    "a@[::1", "a@[x]y",
        "a:1@b:", ":",    "a::1", "a:?",    "a:/",    "a:@b",   "a:1?x",
        "a:1/x",  "a?b",  "a/b",  "[a]b",   "a:007",  "a: 1",   "a:+1",
        "a:1 ",   " a",   "a b",  "a\tb:1", "[::1]]", "[[::1]", "a:1,2,3,4,5,6,7,8,9,10"};
    char spec[512];

    if (argc > 1) {
        for (int i = 1; i < argc; i++)
            one(argv[i]);
        return;
    }
    every_size = 1;
    for (size_t s = 0; s < ns; s++)
        for (size_t h = 0; h < nh; h++) {
            snprintf(spec, sizeof(spec), "%s%s", schemes[s], hosts[h]);
            one(spec);
        }
    one("a:1,2@[::1]:3@b");
    one("host:44321,4321@firewall.servers.com:44322");
    every_size = 0;
    for (size_t i = 0; i < sizeof(odd) / sizeof(odd[0]); i++)
        one(odd[i]);
    for (size_t i = 0; i < nextra; i++)
        one(extra[i]);
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
}

#endif
