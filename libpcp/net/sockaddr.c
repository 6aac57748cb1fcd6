/*
 * sockaddr.c - socket addresses and host lookups as PCP's libpcp hands
 * them to agents and tools (<pcp/libpcp.h>'s __pmSockAddr and
 * __pmHostEnt): an IPv4, IPv6 or unix address in one union, made, taken
 * apart, compared and written out; a host's addresses from getaddrinfo.
 *
 * As Debian's libpcp answers (tests/oracle/probe_net.c): a text is an
 * address when it is numeric IPv4 or IPv6, or a path starting with '/'
 * (unix); two addresses compare by family, then by their bytes (ports
 * play no part); an address of no known family has no text and a port of
 * 0, reported through pmNotifyErr as PCP reports it.
 */
#include "support.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <pcp/libpcp.h>

struct __pmSockAddr {
    union {
        struct sockaddr raw;
        struct sockaddr_in inet;
        struct sockaddr_in6 ipv6;
        struct sockaddr_un local;
    } sockaddr;
};

struct __pmHostEnt {
    char *name;
    struct addrinfo *addresses;
};

__pmSockAddr *__pmSockAddrAlloc(void)
{
    return calloc(1, sizeof(__pmSockAddr));
}

void __pmSockAddrFree(__pmSockAddr *addr)
{
    free(addr);
}

size_t __pmSockAddrSize(void)
{
    return sizeof(__pmSockAddr);
}

__pmSockAddr *__pmSockAddrDup(const __pmSockAddr *addr)
{
    __pmSockAddr *dup = malloc(sizeof(*dup));

    if (dup != NULL)
        *dup = *addr;
    return dup;
}

/* family with address (INADDR_ANY or INADDR_LOOPBACK for IPv6, any IPv4
 * address in host order) and port; other families are refused. */
void __pmSockAddrInit(__pmSockAddr *addr, int family, int address, int port)
{
    memset(addr, 0, sizeof(*addr));
    if (family == AF_INET) {
        addr->sockaddr.inet.sin_family = AF_INET;
        addr->sockaddr.inet.sin_addr.s_addr = htonl((uint32_t)address);
        addr->sockaddr.inet.sin_port = htons((uint16_t)port);
    } else if (family == AF_INET6) {
        addr->sockaddr.ipv6.sin6_family = AF_INET6;
        if ((uint32_t)address == INADDR_LOOPBACK)
            addr->sockaddr.ipv6.sin6_addr = in6addr_loopback;
        else
            addr->sockaddr.ipv6.sin6_addr = in6addr_any;
        addr->sockaddr.ipv6.sin6_port = htons((uint16_t)port);
    } else {
        pmNotifyErr(LOG_ERR, "auxconnect.c:__pmSockAddrInit: Invalid address family: %d\n",
                    addr->sockaddr.raw.sa_family);
    }
}

void __pmSockAddrSetFamily(__pmSockAddr *addr, int family)
{
    addr->sockaddr.raw.sa_family = (sa_family_t)family;
}

int __pmSockAddrGetFamily(const __pmSockAddr *addr)
{
    return addr->sockaddr.raw.sa_family;
}

void __pmSockAddrSetPort(__pmSockAddr *addr, int port)
{
    if (addr->sockaddr.raw.sa_family == AF_INET)
        addr->sockaddr.inet.sin_port = htons((uint16_t)port);
    else if (addr->sockaddr.raw.sa_family == AF_INET6)
        addr->sockaddr.ipv6.sin6_port = htons((uint16_t)port);
    else
        pmNotifyErr(LOG_ERR, "__pmSockAddrSetPort: Invalid address family: %d\n",
                    addr->sockaddr.raw.sa_family);
}

int __pmSockAddrGetPort(const __pmSockAddr *addr)
{
    if (addr->sockaddr.raw.sa_family == AF_INET)
        return ntohs(addr->sockaddr.inet.sin_port);
    if (addr->sockaddr.raw.sa_family == AF_INET6)
        return ntohs(addr->sockaddr.ipv6.sin6_port);
    if (addr->sockaddr.raw.sa_family == AF_UNIX)
        return 0;
    pmNotifyErr(LOG_ERR, "__pmSockAddrGetPort: Invalid address family: %d\n",
                addr->sockaddr.raw.sa_family);
    return 0;
}

void __pmSockAddrSetPath(__pmSockAddr *addr, const char *path)
{
    if (addr->sockaddr.raw.sa_family == AF_UNIX)
        pmstrncpy(addr->sockaddr.local.sun_path, sizeof(addr->sockaddr.local.sun_path), path);
    else
        pmNotifyErr(LOG_ERR, "__pmSockAddrSetPath: Invalid address family: %d\n",
                    addr->sockaddr.raw.sa_family);
}

int __pmSockAddrIsInet(const __pmSockAddr *addr)
{
    return addr->sockaddr.raw.sa_family == AF_INET;
}

int __pmSockAddrIsIPv6(const __pmSockAddr *addr)
{
    return addr->sockaddr.raw.sa_family == AF_INET6;
}

int __pmSockAddrIsUnix(const __pmSockAddr *addr)
{
    return addr->sockaddr.raw.sa_family == AF_UNIX;
}

int __pmSockAddrIsLoopBack(const __pmSockAddr *addr)
{
    if (addr->sockaddr.raw.sa_family == AF_INET)
        return ntohl(addr->sockaddr.inet.sin_addr.s_addr) == INADDR_LOOPBACK;
    if (addr->sockaddr.raw.sa_family == AF_INET6)
        return IN6_IS_ADDR_LOOPBACK(&addr->sockaddr.ipv6.sin6_addr);
    return 0;
}

/* The family's difference, else memcmp's of the addresses (strcmp's of
 * unix paths); ports play no part. */
int __pmSockAddrCompare(const __pmSockAddr *a, const __pmSockAddr *b)
{
    int fa = a->sockaddr.raw.sa_family, fb = b->sockaddr.raw.sa_family;

    if (fa != fb)
        return fa - fb;
    if (fa == AF_INET)
        return memcmp(&a->sockaddr.inet.sin_addr, &b->sockaddr.inet.sin_addr,
                      sizeof(a->sockaddr.inet.sin_addr));
    if (fa == AF_INET6)
        return memcmp(&a->sockaddr.ipv6.sin6_addr, &b->sockaddr.ipv6.sin6_addr,
                      sizeof(a->sockaddr.ipv6.sin6_addr));
    if (fa == AF_UNIX)
        return strcmp(a->sockaddr.local.sun_path, b->sockaddr.local.sun_path);
    return 0;
}

/* The address as text, a string the caller frees; NULL for no family. */
char *__pmSockAddrToString(const __pmSockAddr *addr)
{
    char buf[INET6_ADDRSTRLEN];

    switch (addr->sockaddr.raw.sa_family) {
    case AF_INET:
        if (inet_ntop(AF_INET, &addr->sockaddr.inet.sin_addr, buf, sizeof(buf)) == NULL)
            return NULL;
        return strdup(buf);
    case AF_INET6:
        if (inet_ntop(AF_INET6, &addr->sockaddr.ipv6.sin6_addr, buf, sizeof(buf)) == NULL)
            return NULL;
        return strdup(buf);
    case AF_UNIX:
        return strdup(addr->sockaddr.local.sun_path);
    }
    return NULL;
}

/* A numeric IPv4 or IPv6 address, or a unix path (starting with '/'), as
 * a new address; NULL for anything else. */
__pmSockAddr *__pmStringToSockAddr(const char *cp)
{
    __pmSockAddr *addr;

    if (cp == NULL || (addr = __pmSockAddrAlloc()) == NULL)
        return NULL;
    if (cp[0] == '/') {
        addr->sockaddr.local.sun_family = AF_UNIX;
        pmstrncpy(addr->sockaddr.local.sun_path, sizeof(addr->sockaddr.local.sun_path), cp);
        return addr;
    }
    if (inet_pton(AF_INET, cp, &addr->sockaddr.inet.sin_addr) == 1) {
        addr->sockaddr.inet.sin_family = AF_INET;
        return addr;
    }
    if (inet_pton(AF_INET6, cp, &addr->sockaddr.ipv6.sin6_addr) == 1) {
        addr->sockaddr.ipv6.sin6_family = AF_INET6;
        return addr;
    }
    free(addr);
    return NULL;
}

/* The loopback address of family (IPv4 or IPv6), port 0; NULL for unix;
 * another family is refused as __pmSockAddrInit refuses it. */
__pmSockAddr *__pmLoopBackAddress(int family)
{
    __pmSockAddr *addr;

    if (family == AF_UNIX || (addr = __pmSockAddrAlloc()) == NULL)
        return NULL;
    __pmSockAddrInit(addr, family, INADDR_LOOPBACK, 0);
    return addr;
}

/* The host's name for the address, or the address as text; a unix path as
 * it is.  A string the caller frees. */
char *__pmGetNameInfo(__pmSockAddr *addr)
{
    char host[NI_MAXHOST];
    socklen_t len;

    switch (addr->sockaddr.raw.sa_family) {
    case AF_INET:
        len = sizeof(addr->sockaddr.inet);
        break;
    case AF_INET6:
        len = sizeof(addr->sockaddr.ipv6);
        break;
    case AF_UNIX:
        return strdup(addr->sockaddr.local.sun_path);
    default:
        return NULL;
    }
    if (getnameinfo(&addr->sockaddr.raw, len, host, sizeof(host), NULL, 0, 0) != 0)
        return NULL;
    return strdup(host);
}

/* ---------------------------------------------------------------- hosts */

__pmHostEnt *__pmGetAddrInfo(const char *name)
{
    struct addrinfo hints, *res;
    __pmHostEnt *he;

    memset(&hints, 0, sizeof(hints));
    hints.ai_family = AF_UNSPEC;
    hints.ai_flags = AI_ADDRCONFIG | AI_CANONNAME;
    if (name == NULL || getaddrinfo(name, NULL, &hints, &res) != 0)
        return NULL;
    if ((he = calloc(1, sizeof(*he))) == NULL || (he->name = strdup(name)) == NULL) {
        free(he);
        freeaddrinfo(res);
        return NULL;
    }
    he->addresses = res;
    return he;
}

void __pmHostEntFree(__pmHostEnt *he)
{
    if (he == NULL)
        return;
    freeaddrinfo(he->addresses);
    free(he->name);
    free(he);
}

char *__pmHostEntGetName(__pmHostEnt *he)
{
    return he->name;
}

/* The next of the host's addresses (start with *enumerator NULL), a new
 * address the caller frees; NULL after the last. */
__pmSockAddr *__pmHostEntGetSockAddr(const __pmHostEnt *he, void **enumerator)
{
    struct addrinfo *ai = *enumerator == NULL ? he->addresses : (struct addrinfo *)*enumerator;
    __pmSockAddr *addr;

    if (*enumerator != NULL)
        ai = ai->ai_next;
    while (ai != NULL && ai->ai_addrlen > sizeof(__pmSockAddr))
        ai = ai->ai_next;
    if (ai == NULL || (addr = __pmSockAddrAlloc()) == NULL)
        return NULL;
    memcpy(&addr->sockaddr, ai->ai_addr, ai->ai_addrlen);
    *enumerator = ai;
    return addr;
}
