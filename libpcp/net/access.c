/*
 * access.c - PCP's access control lists (<pcp/libpcp.h>'s __pmAcc*): the
 * operations a server names (one bit each), and for hosts, users and
 * groups which of them each may do and how many connections each may
 * hold, as pmcd and pmdapipe keep them.
 *
 * Hosts are addresses with a mask and a level (0 for one address, one
 * more for each part a wildcard leaves out: "10.1.*" is level 2, ".*"
 * level 4, ":*" level 8, the unix socket entry level 1), kept in order of
 * level and then of arrival; a client takes each operation from the most
 * specific entry that names it, and its connection is counted against
 * every entry it matches that has a limit.  A host name stands for all
 * its addresses; "*" for every IPv4 and IPv6 address and the unix socket;
 * "local:" for the socket and localhost.  Users and groups come from the
 * password and group databases; the first of either kind brings a "*"
 * entry that denies every operation to those not named.
 *
 * As Debian's libpcp (tests/oracle/probe_access.c, and the testsuite's
 * chkacc1-3 and multithread2 in oracle.testsuite_access): the texts of the
 * dumps and of the messages, which repeated statements clash, the errors
 * (PM_ERR_THREAD from a second thread, -EINVAL, PM_ERR_PERMISSION,
 * PM_ERR_CONNLIMIT, PM_ERR_TOOBIG for a second save, PM_ERR_TOOSMALL for a
 * restore with nothing saved).  The lists are the library's state, as
 * PCP's are: one thread (the first to call) may use them.
 *
 * Not done: a user or group statement for "*" given by the caller (Debian's
 * own dump then crashes, so there is nothing to match) merges into the
 * implied "*" entry.
 */
#include "support.h"

#include <arpa/inet.h>
#include <errno.h>
#include <grp.h>
#include <netdb.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <syslog.h>
#include <unistd.h>

#include <pcp/libpcp.h>

#define ADDR_WIDTH 39 /* the longest IPv6 text: the dump's column */

typedef struct {
    char *name; /* as given: the dump's host-name */
    int family; /* AF_INET, AF_INET6 or AF_UNIX */
    unsigned char addr[16], mask[16];
    int level;
    unsigned int spec, deny; /* deny within spec */
    int maxcons, curcons;
} host_entry;

/* A user (ids are groups) or a group (ids are users); wild for "*". */
typedef struct {
    char *name;
    int wild;
    unsigned int id;
    unsigned int *ids;
    int nids;
    unsigned int spec, deny;
    int maxcons, curcons;
} account_entry;

typedef struct {
    host_entry *v;
    int n;
} host_list;

typedef struct {
    account_entry *v;
    int n;
} account_list;

static unsigned int all_ops;
static host_list hosts, saved_hosts;
static account_list users, saved_users, groups, saved_groups;
static int hosts_saved, users_saved, groups_saved;

static int other_thread(void)
{
    return PM_MULTIPLE_THREADS(PM_SCOPE_ACL);
}

/* ---------------------------------------------------------------- operations */

int __pmAccAddOp(unsigned int op)
{
    if (other_thread())
        return PM_ERR_THREAD;
    if (op == 0 || (op & (op - 1)) != 0 || (op & all_ops) != 0)
        return -EINVAL;
    all_ops |= op;
    return 0;
}

/* Does a new statement of spec/deny/maxcons clash with an entry's? */
static int clashes(unsigned int ospec, unsigned int odeny, int omax, unsigned int spec,
                   unsigned int deny, int max)
{
    if ((ospec & spec) != 0 && (spec & deny) != (ospec & odeny))
        return 1;
    return omax != 0 && max != 0 && omax != max;
}

/* ---------------------------------------------------------------- host lists */

static void hosts_free(host_list *l)
{
    for (int i = 0; i < l->n; i++)
        free(l->v[i].name);
    free(l->v);
    l->v = NULL;
    l->n = 0;
}

/* e as a new entry, after those of its level and below; 0 or -ENOMEM. */
static int hosts_insert(const host_entry *e)
{
    host_entry *v = realloc(hosts.v, (size_t)(hosts.n + 1) * sizeof(*v));
    int at = 0;

    if (v == NULL)
        return -ENOMEM;
    hosts.v = v;
    while (at < hosts.n && hosts.v[at].level <= e->level)
        at++;
    memmove(&v[at + 1], &v[at], (size_t)(hosts.n - at) * sizeof(*v));
    v[at] = *e;
    if ((v[at].name = strdup(e->name)) == NULL) {
        memmove(&v[at], &v[at + 1], (size_t)(hosts.n - at) * sizeof(*v));
        return -ENOMEM;
    }
    hosts.n++;
    return 0;
}

/* One address (or wildcard) of a statement: merged into the entry for the
 * same address, mask and level, or added. */
static int host_add(host_entry *e, unsigned int spec, unsigned int deny, int max)
{
    size_t len = e->family == AF_INET ? 4 : 16;

    e->spec = spec;
    e->deny = deny & spec;
    e->maxcons = max;
    e->curcons = 0;
    for (int i = 0; i < hosts.n; i++) {
        host_entry *h = &hosts.v[i];
        if (h->family != e->family || h->level != e->level || memcmp(h->addr, e->addr, len) != 0 ||
            memcmp(h->mask, e->mask, len) != 0)
            continue;
        if (clashes(h->spec, h->deny, h->maxcons, spec, deny, max)) {
            pmNotifyErr(LOG_ERR, "Permission clash for %s with earlier statement for %s\n", e->name,
                        h->name);
            return -EINVAL;
        }
        h->deny |= deny & spec;
        h->spec |= spec;
        if (max != 0)
            h->maxcons = max;
        return 0;
    }
    return hosts_insert(e);
}

/* ---------------------------------------------------------------- host patterns */

static void set_all(host_entry *e, int family, const char *name)
{
    memset(e, 0, sizeof(*e));
    e->family = family;
    e->name = (char *)name;
    e->level = family == AF_INET ? 4 : family == AF_INET6 ? 8 : 1;
}

/* An IPv4 wildcard ("10.1.*", "10.1*"): parts in decimal, the first not
 * empty, at most three. */
static int parse_inet_wild(const char *name, host_entry *e)
{
    const char *p = name;
    int parts = 0;

    set_all(e, AF_INET, name);
    if (strcmp(name, ".*") == 0)
        return 0;
    if (strchr(name, '.') == NULL)
        goto bad;
    while (*p != '*') {
        char *end;
        int n = (int)strtol(p, &end, 10);
        if ((end == p && parts == 0) || n < 0 || n > 255)
            goto bad;
        if (++parts > 3) {
            pmNotifyErr(LOG_ERR, "Too many dots in host pattern \"%s\"\n", name);
            return -EINVAL;
        }
        e->addr[parts - 1] = (unsigned char)n;
        e->mask[parts - 1] = 0xff;
        p = end;
        if (*p == '.')
            p++;
        else if (*p != '*')
            goto bad;
    }
    e->level = 4 - parts;
    return 0;
bad:
    pmNotifyErr(LOG_ERR, "Bad IP address wildcard, %s\n", name);
    return -EINVAL;
}

/* An IPv6 wildcard ("fe80::*", "26:ca:*"): the text before the '*' in
 * parts split at ':' (one empty part after it dropped), each hex or empty
 * (once: the "::"), at most seven.  The address is that text with the
 * wildcard part zero, the mask the same with all ones for each part given;
 * the level is 8 less the parts. */
static int parse_ipv6_wild(const char *name, host_entry *e)
{
    char text[128], mtext[128];
    size_t plen = strlen(name) - 1, m = 0;
    const char *p = name, *stop = name + plen;
    int parts = 0, empty = 0, trailing = plen > 0 && name[plen - 1] == ':';

    set_all(e, AF_INET6, name);
    if (strcmp(name, ":*") == 0 || strcmp(name, "::*") == 0)
        return 0;
    if (plen >= sizeof(text) - 8 || (name[0] == ':' && name[1] != ':'))
        goto bad;
    if (name[0] == ':')
        p++; /* a leading "::" is one empty part */
    if (trailing)
        stop--;
    while (p <= stop) {
        char *end;
        long n = strtol(p, &end, 16);
        if (end == p) {
            if (p < stop && *p != ':')
                goto bad;
            if (++empty > 1) {
                pmNotifyErr(LOG_ERR, "Too many empty regions in host pattern \"%s\"\n", name);
                return -EINVAL;
            }
        } else if (n < 0 || n > 0xffff || (end != stop && *end != ':')) {
            goto bad;
        }
        if (++parts > 7) {
            pmNotifyErr(LOG_ERR, "Too many colons in host pattern \"%s\"\n", name);
            return -EINVAL;
        }
        m += (size_t)snprintf(mtext + m, sizeof(mtext) - m, "%s%s", parts > 1 ? ":" : "",
                              end == p ? "" : "ffff");
        p = end + 1;
    }
    memcpy(text, name, plen);
    text[plen] = '\0';
    if (strstr(name, "::") != NULL) {
        strcat(text, trailing ? "0" : ":0");
        snprintf(mtext + m, sizeof(mtext) - m, ":0");
    } else {
        strcat(text, trailing ? ":" : "::");
        snprintf(mtext + m, sizeof(mtext) - m, "::");
    }
    if (name[0] == ':' || inet_pton(AF_INET6, text, e->addr) != 1 ||
        inet_pton(AF_INET6, mtext, e->mask) != 1) {
        pmNotifyErr(LOG_ERR, "__pmStringToSockAddr failure\n");
        return -EINVAL;
    }
    e->level = 8 - parts;
    return 0;
bad:
    pmNotifyErr(LOG_ERR, "Bad IPv6 address wildcard, %s\n", name);
    return -EINVAL;
}

/* ---------------------------------------------------------------- host statements */

/* The family and bytes of a socket address; 0 for no family known. */
static int addr_bytes(const __pmSockAddr *a, unsigned char *out)
{
    int family = __pmSockAddrGetFamily(a);
    char *text;
    int ok = 0;

    memset(out, 0, 16);
    if (family == AF_UNIX)
        return AF_UNIX;
    if (family != AF_INET && family != AF_INET6)
        return 0;
    if ((text = __pmSockAddrToString(a)) != NULL)
        ok = inet_pton(family, text, out) == 1;
    free(text);
    return ok ? family : 0;
}

/* Has this address come already (getaddrinfo gives one for each kind of
 * socket)? */
#define MAX_SEEN 64
static int seen(const host_entry *done, int n, const host_entry *e)
{
    for (int i = 0; i < n; i++)
        if (done[i].family == e->family && memcmp(done[i].addr, e->addr, 16) == 0)
            return 1;
    return 0;
}

/* Every address of the host name (once), each a level-0 entry. */
static int add_named(const char *name, const char *label, unsigned int spec, unsigned int deny,
                     int max)
{
    __pmHostEnt *he;
    __pmSockAddr *a;
    void *walk = NULL;
    host_entry done[MAX_SEEN];
    int sts = 0, ndone = 0;

    h_errno = 0;
    if ((he = __pmGetAddrInfo(name)) == NULL) {
        pmNotifyErr(LOG_ERR, "__pmGetAddrInfo(%s), %s\n", name, hstrerror(h_errno));
        return -EHOSTUNREACH;
    }
    while (sts == 0 && (a = __pmHostEntGetSockAddr(he, &walk)) != NULL) {
        host_entry e;
        memset(&e, 0, sizeof(e));
        e.name = (char *)label;
        e.family = addr_bytes(a, e.addr);
        __pmSockAddrFree(a);
        if ((e.family != AF_INET && e.family != AF_INET6) || seen(done, ndone, &e))
            continue;
        memset(e.mask, 0xff, sizeof(e.mask));
        if (ndone < MAX_SEEN)
            done[ndone++] = e;
        sts = host_add(&e, spec, deny, max);
    }
    __pmHostEntFree(he);
    return sts;
}

static int add_wild(int family, const char *name, unsigned int spec, unsigned int deny, int max)
{
    host_entry e;

    set_all(&e, family, name);
    return host_add(&e, spec, deny, max);
}

/* Does this host's own name resolve?  PCP's libpcp looks it up before it
 * takes localhost (by that name or through local:), and takes no localhost
 * entry when it does not: a chroot or container whose name is not in its
 * /etc/hosts gets the message and PCP's -EHOSTUNREACH. */
static int own_name_resolves(void)
{
    char host[256] = "";
    __pmHostEnt *he;

    if (gethostname(host, sizeof(host)) != 0)
        host[0] = '\0';
    host[sizeof(host) - 1] = '\0';
    h_errno = 0;
    if ((he = __pmGetAddrInfo(host)) == NULL) {
        pmNotifyErr(LOG_ERR, "__pmGetAddrInfo(%s), %s\n", host, hstrerror(h_errno));
        return 0;
    }
    __pmHostEntFree(he);
    return 1;
}

/* "local:..." or "unix:...": the socket entry, and for local: localhost. */
static int add_local(const char *name, int local, unsigned int spec, unsigned int deny, int max)
{
    const char *path = strchr(name, ':') + 1;
    int sts, lsts, known = 0;

    if (*path != '\0' && strcmp(path, "*") != 0)
        pmNotifyErr(LOG_WARNING, "Ignoring the path in host pattern \"%s\"\n", path);
    if (local)
        known = own_name_resolves();
    sts = add_wild(AF_UNIX, "unix:", spec, deny, max);
    if (!local)
        return sts;
    if (!known)
        return sts; /* the socket entry's answer alone */
    lsts = add_named("localhost", "localhost", spec, deny, max);
    return sts == 0 ? 0 : lsts;
}

int __pmAccAddHost(const char *name, unsigned int spec, unsigned int deny, int maxcons)
{
    const char *star;
    host_entry e;
    int sts;

    if (other_thread())
        return PM_ERR_THREAD;
    if ((spec & ~all_ops) != 0 || maxcons < 0)
        return -EINVAL;
    if (strncmp(name, "local:", 6) == 0)
        return add_local(name, 1, spec, deny, maxcons);
    if (strncmp(name, "unix:", 5) == 0)
        return add_local(name, 0, spec, deny, maxcons);
    if (strcasecmp(name, "localhost") == 0 && !own_name_resolves())
        return -EHOSTUNREACH;
    if ((star = strchr(name, '*')) == NULL)
        return add_named(name, name, spec, deny, maxcons);
    if (star[1] != '\0') {
        pmNotifyErr(LOG_ERR, "Wildcard in host pattern \"%s\" is not at the end\n", name);
        return -EINVAL;
    }
    if (strcmp(name, "*") == 0) {
        int s4 = add_wild(AF_INET, ".*", spec, deny, maxcons);
        int s6 = add_wild(AF_INET6, ":*", spec, deny, maxcons);
        int su = add_wild(AF_UNIX, "unix:", spec, deny, maxcons);
        return s4 == 0 || s6 == 0 || su == 0 ? 0 : s4;
    }
    sts = strchr(name, ':') != NULL ? parse_ipv6_wild(name, &e) : parse_inet_wild(name, &e);
    return sts < 0 ? sts : host_add(&e, spec, deny, maxcons);
}

/* ---------------------------------------------------------------- clients */

static int host_matches(const host_entry *h, int family, const unsigned char *addr)
{
    size_t len = family == AF_INET ? 4 : 16;

    if (h->family != family)
        return 0;
    if (family == AF_UNIX)
        return 1;
    for (size_t i = 0; i < len; i++)
        if ((addr[i] & h->mask[i]) != h->addr[i])
            return 0;
    return 1;
}

/* The addresses a client stands for: its own, or for a loopback address
 * those of this host's name (else of localhost).  An array of *n
 * families and bytes; NULL with *n the error. */
typedef struct {
    int family;
    unsigned char addr[16];
} client_id;

static client_id *client_ids(const __pmSockAddr *a, int *n)
{
    char host[256] = "";
    __pmHostEnt *he = NULL;
    __pmSockAddr *x;
    client_id *ids = NULL, *more;
    void *walk = NULL;
    int count = 0;

    if (!__pmSockAddrIsLoopBack(a)) {
        if ((ids = calloc(1, sizeof(*ids))) == NULL) {
            *n = -ENOMEM;
            return NULL;
        }
        ids->family = addr_bytes(a, ids->addr);
        *n = 1;
        return ids;
    }
    if (gethostname(host, sizeof(host)) == 0) {
        host[sizeof(host) - 1] = '\0';
        he = __pmGetAddrInfo(host);
    }
    if (he == NULL && (he = __pmGetAddrInfo("localhost")) == NULL) {
        pmNotifyErr(LOG_ERR, "__pmGetAddrInfo failure for both %s and localhost\n", host);
        *n = -EHOSTUNREACH;
        return NULL;
    }
    while ((x = __pmHostEntGetSockAddr(he, &walk)) != NULL) {
        if ((more = realloc(ids, (size_t)(count + 1) * sizeof(*ids))) == NULL) {
            __pmSockAddrFree(x);
            break;
        }
        ids = more;
        ids[count].family = addr_bytes(x, ids[count].addr);
        count++;
        __pmSockAddrFree(x);
    }
    __pmHostEntFree(he);
    *n = count;
    return ids;
}

/* One address of a client: the operations denied, a refusal, or the
 * connection counted against every entry with a limit it matches. */
static int admit_one(const client_id *id, unsigned int *deny)
{
    unsigned int seen = 0;
    host_entry *first = NULL;

    for (int i = 0; i < hosts.n; i++) {
        host_entry *h = &hosts.v[i];
        if (!host_matches(h, id->family, id->addr))
            continue;
        if (first == NULL)
            first = h;
        *deny |= h->deny & ~seen;
        seen |= h->spec;
    }
    if (first == NULL)
        return 0;
    if ((*deny & all_ops) == all_ops)
        return PM_ERR_PERMISSION;
    if (first->maxcons != 0 && first->curcons >= first->maxcons) {
        *deny = all_ops;
        return PM_ERR_CONNLIMIT;
    }
    for (int i = 0; i < hosts.n; i++)
        if (hosts.v[i].maxcons != 0 && host_matches(&hosts.v[i], id->family, id->addr))
            hosts.v[i].curcons++;
    return 0;
}

int __pmAccAddClient(__pmSockAddr *addr, unsigned int *deny)
{
    client_id *ids;
    int n, sts = 0;

    if (other_thread())
        return PM_ERR_THREAD;
    *deny = 0;
    if (hosts.n == 0)
        return 0;
    if ((ids = client_ids(addr, &n)) == NULL)
        return n < 0 ? n : 0;
    for (int i = 0; i < n && sts == 0; i++)
        sts = admit_one(&ids[i], deny);
    free(ids);
    return sts;
}

void __pmAccDelClient(__pmSockAddr *addr)
{
    client_id *ids;
    int n;

    if (other_thread() || (ids = client_ids(addr, &n)) == NULL)
        return;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < hosts.n; j++)
            if (hosts.v[j].maxcons != 0 && host_matches(&hosts.v[j], ids[i].family, ids[i].addr))
                hosts.v[j].curcons--;
    free(ids);
}

/* ---------------------------------------------------------------- users and groups */

static void accounts_free(account_list *l)
{
    for (int i = 0; i < l->n; i++) {
        free(l->v[i].name);
        free(l->v[i].ids);
    }
    free(l->v);
    l->v = NULL;
    l->n = 0;
}

/* The ids of a user's groups (getgrouplist's order) or of a group's users
 * (those of it as their first group or listed in it, in password file
 * order); -errno or the count. */
static int user_groups(const struct passwd *pw, unsigned int **out)
{
    int n = 16;
    gid_t *g = NULL;

    for (;;) {
        gid_t *more = realloc(g, (size_t)n * sizeof(*g));
        int want = n;
        if (more == NULL) {
            free(g);
            return -ENOMEM;
        }
        g = more;
        if (getgrouplist(pw->pw_name, pw->pw_gid, g, &want) >= 0) {
            n = want;
            break;
        }
        if (want <= n || want > 65536) {
            free(g);
            return -EINVAL;
        }
        n = want;
    }
    _Static_assert(sizeof(gid_t) == sizeof(unsigned int), "gid_t is an unsigned int");
    *out = (unsigned int *)g;
    return n;
}

static int group_users(const struct group *gr, unsigned int **out)
{
    struct passwd *pw;
    unsigned int *ids = NULL, *more;
    int n = 0;

    setpwent();
    while ((pw = getpwent()) != NULL) {
        int member = pw->pw_gid == gr->gr_gid;
        for (char **m = gr->gr_mem; !member && m != NULL && *m != NULL; m++)
            member = strcmp(*m, pw->pw_name) == 0;
        if (!member)
            continue;
        if ((more = realloc(ids, (size_t)(n + 1) * sizeof(*ids))) == NULL) {
            free(ids);
            endpwent();
            return -ENOMEM;
        }
        ids = more;
        ids[n++] = pw->pw_uid;
    }
    endpwent();
    *out = ids;
    return n;
}

/* The "*" entry a list gets with its first member: every operation denied. */
static int accounts_insert(account_list *l, const account_entry *e)
{
    int wild = l->n == 0;
    account_entry *v = realloc(l->v, (size_t)(l->n + 1 + wild) * sizeof(*v));

    if (v == NULL)
        return -ENOMEM;
    l->v = v;
    if (wild) {
        memset(&v[0], 0, sizeof(v[0]));
        if ((v[0].name = strdup("*")) == NULL)
            return -ENOMEM;
        v[0].wild = 1;
        v[0].spec = v[0].deny = all_ops;
        l->n = 1;
    }
    memmove(&v[1], &v[0], (size_t)l->n * sizeof(*v));
    v[0] = *e;
    l->n++;
    return 0;
}

/* A statement for a user (is_user) or group, merged or added as hosts are. */
static int accounts_add(account_list *l, account_entry *e, const char *kind, unsigned int spec,
                        unsigned int deny, int max)
{
    for (int i = 0; i < l->n; i++) {
        account_entry *a = &l->v[i];
        if (a->wild != e->wild || (!e->wild && a->id != e->id))
            continue;
        free(e->name);
        free(e->ids);
        if (clashes(a->spec, a->deny, a->maxcons, spec, deny, max)) {
            pmNotifyErr(LOG_ERR, "Permission clash for %s %s with earlier statement\n", kind,
                        a->name);
            return -EINVAL;
        }
        a->deny |= deny & spec;
        a->spec |= spec;
        if (max != 0)
            a->maxcons = max;
        return 0;
    }
    e->spec = spec;
    e->deny = deny & spec;
    e->maxcons = max;
    if (accounts_insert(l, e) < 0) {
        free(e->name);
        free(e->ids);
        return -ENOMEM;
    }
    return 0;
}

/* A named user's uid and groups into e (messages as PCP's), or -EINVAL. */
static int user_lookup(const char *name, account_entry *e)
{
    struct passwd pw, *found = NULL;
    char buf[4096];
    int sts = getpwnam_r(name, &pw, buf, sizeof(buf), &found);

    if (found == NULL) {
        pmNotifyErr(LOG_ERR, "Failed to lookup user \"%s\": %s\n", name,
                    strerror(sts != 0 ? sts : ENOENT));
        return -EINVAL;
    }
    e->id = pw.pw_uid;
    if ((sts = user_groups(&pw, &e->ids)) < 0) {
        pmNotifyErr(LOG_ERR, "Failed to lookup groups for user \"%s\": %s\n", name, strerror(-sts));
        return -EINVAL;
    }
    e->nids = sts;
    return 0;
}

/* A named group's gid and members into e (messages as PCP's), or -EINVAL. */
static int group_lookup(const char *name, account_entry *e)
{
    struct group gr, *found = NULL;
    char buf[16384];
    int sts = getgrnam_r(name, &gr, buf, sizeof(buf), &found);

    if (found == NULL) {
        pmNotifyErr(LOG_ERR, "Failed to lookup group \"%s\": %s\n", name,
                    strerror(sts != 0 ? sts : ENOENT));
        return -EINVAL;
    }
    e->id = gr.gr_gid;
    if ((sts = group_users(&gr, &e->ids)) < 0) {
        pmNotifyErr(LOG_ERR, "Failed to lookup users in group \"%s\": %s\n", name, strerror(-sts));
        return -EINVAL;
    }
    e->nids = sts;
    return 0;
}

/* A user or group statement: "*" or a name found by lookup, then merged
 * into list l or added to it. */
static int account_statement(account_list *l, const char *kind,
                             int (*lookup)(const char *, account_entry *), const char *name,
                             unsigned int spec, unsigned int deny, int maxcons)
{
    account_entry e;

    if (other_thread())
        return PM_ERR_THREAD;
    if ((spec & ~all_ops) != 0 || maxcons < 0)
        return -EINVAL;
    memset(&e, 0, sizeof(e));
    if (strcmp(name, "*") == 0)
        e.wild = 1;
    else if (lookup(name, &e) < 0)
        return -EINVAL;
    if ((e.name = strdup(name)) == NULL) {
        free(e.ids);
        return -ENOMEM;
    }
    return accounts_add(l, &e, kind, spec, deny, maxcons);
}

int __pmAccAddUser(const char *name, unsigned int spec, unsigned int deny, int maxcons)
{
    return account_statement(&users, "user", user_lookup, name, spec, deny, maxcons);
}

int __pmAccAddGroup(const char *name, unsigned int spec, unsigned int deny, int maxcons)
{
    return account_statement(&groups, "group", group_lookup, name, spec, deny, maxcons);
}

static int has_id(const account_entry *a, unsigned int id)
{
    for (int i = 0; i < a->nids; i++)
        if (a->ids[i] == id)
            return 1;
    return 0;
}

/* The entries an account matches, each as often as it is reached: its
 * user (or the "*" user) and the groups of that user's list, the groups
 * of its group id (or the "*" group) and the users of those groups. */
static int account_matches(unsigned int uid, unsigned int gid, account_entry **m)
{
    int n = 0, nu, ng, grouped;

    for (int i = 0; i < users.n; i++)
        if (!users.v[i].wild && users.v[i].id == uid)
            m[n++] = &users.v[i];
    nu = n;
    for (int i = 0; i < groups.n; i++)
        if (!groups.v[i].wild && groups.v[i].id == gid)
            m[n++] = &groups.v[i];
    ng = n;
    for (int k = 0; k < nu; k++)
        for (int i = 0; i < groups.n; i++)
            if (!groups.v[i].wild && has_id(m[k], groups.v[i].id))
                m[n++] = &groups.v[i];
    grouped = n - nu;
    for (int k = nu; k < ng; k++)
        for (int i = 0; i < users.n; i++)
            if (!users.v[i].wild && has_id(m[k], users.v[i].id))
                m[n++] = &users.v[i];
    if (nu == 0 && users.n > 0)
        m[n++] = &users.v[users.n - 1];
    if (grouped == 0 && groups.n > 0)
        m[n++] = &groups.v[groups.n - 1];
    return n;
}

int __pmAccAddAccount(const char *userid, const char *groupid, unsigned int *deny)
{
    account_entry **m;
    unsigned int ops = 0;
    int n;

    if (other_thread())
        return PM_ERR_THREAD;
    if (users.n == 0 && groups.n == 0)
        return 1;
    if (userid == NULL || groupid == NULL) {
        *deny = all_ops;
        return PM_ERR_PERMISSION;
    }
    /* each user and group at most twice, and the two "*" entries */
    if ((m = calloc((size_t)(2 * (users.n + groups.n) + 2), sizeof(*m))) == NULL)
        return -ENOMEM;
    n = account_matches((unsigned int)atoi(userid), (unsigned int)atoi(groupid), m);
    for (int i = 0; i < n; i++) {
        if (m[i]->maxcons != 0 && m[i]->curcons >= m[i]->maxcons) {
            free(m);
            *deny = all_ops;
            return PM_ERR_CONNLIMIT;
        }
        ops |= m[i]->deny;
    }
    for (int i = 0; i < n; i++)
        if (m[i]->maxcons != 0)
            m[i]->curcons++;
    free(m);
    *deny |= ops;
    return 1;
}

/* ---------------------------------------------------------------- dumps */

/* The operation columns' heading, or a row's marks. */
static void op_columns(FILE *f, const char *heading, unsigned int spec, unsigned int deny)
{
    for (int i = 0; i < 32; i++) {
        unsigned int bit = 1u << i;
        if (!(all_ops & bit))
            continue;
        if (heading == NULL)
            fputs(!(spec & bit) ? "   " : (deny & bit) ? " n " : " y ", f);
        else if (heading[0] == '=')
            fputs("== ", f);
        else
            fprintf(f, "%02d ", i);
    }
}

static void rule(FILE *f, int n)
{
    for (int i = 0; i < n; i++)
        fputc('=', f);
}

static void addr_text(const host_entry *h, const unsigned char *bytes, char *buf, size_t len)
{
    if (h->family == AF_UNIX || inet_ntop(h->family, bytes, buf, (socklen_t)len) == NULL)
        pmstrncpy(buf, len, "/");
}

void __pmAccDumpHosts(FILE *f)
{
    char id[INET6_ADDRSTRLEN], mask[INET6_ADDRSTRLEN];

    if (other_thread())
        return;
    if (hosts.n == 0) {
        fprintf(f, "Host access list empty: host-based access control turned off\n");
        return;
    }
    fprintf(f, "Host access list:\n");
    op_columns(f, "", 0, 0);
    fprintf(f, "Cur/MaxCons %-*s %-*s lvl host-name\n", ADDR_WIDTH, "host-spec", ADDR_WIDTH,
            "host-mask");
    op_columns(f, "=", 0, 0);
    fputs("=========== ", f);
    rule(f, ADDR_WIDTH);
    fputc(' ', f);
    rule(f, ADDR_WIDTH);
    fputs(" === ==============\n", f);
    for (int i = 0; i < hosts.n; i++) {
        const host_entry *h = &hosts.v[i];
        op_columns(f, NULL, h->spec, h->deny);
        addr_text(h, h->addr, id, sizeof(id));
        addr_text(h, h->mask, mask, sizeof(mask));
        fprintf(f, "%5d %5d %-*s %-*s %3d %s\n", h->curcons, h->maxcons, ADDR_WIDTH, id, ADDR_WIDTH,
                mask, h->level, h->name);
    }
}

/* The name of a group (is_user: its user's groups) or user id; "" if none. */
static void id_name(int of_groups, unsigned int id, char *buf, size_t len)
{
    char tmp[4096];

    buf[0] = '\0';
    if (of_groups) {
        struct group gr, *found = NULL;
        if (getgrgid_r(id, &gr, tmp, sizeof(tmp), &found) == 0 && found != NULL)
            pmstrncpy(buf, len, gr.gr_name);
    } else {
        struct passwd pw, *found = NULL;
        if (getpwuid_r(id, &pw, tmp, sizeof(tmp), &found) == 0 && found != NULL)
            pmstrncpy(buf, len, pw.pw_name);
    }
}

static void dump_accounts(FILE *f, const account_list *l, int is_user)
{
    const char *kind = is_user ? "User" : "Group", *low = is_user ? "user" : "group";
    char name[256], num[16];

    if (l->n == 0) {
        fprintf(f, "%s access list empty: %s-based access control turned off\n", kind, low);
        return;
    }
    fprintf(f, "%s access list:\n", kind);
    op_columns(f, "", 0, 0);
    fprintf(f, "Cur/MaxCons %*s %-*s %s\n", 7, is_user ? "uid" : "gid", 31,
            is_user ? "user-name" : "group-name", is_user ? "group-list" : "user-list");
    op_columns(f, "=", 0, 0);
    fputs("=========== ======= ", f);
    rule(f, 31);
    fputc(' ', f);
    rule(f, 58);
    fputc('\n', f);
    for (int i = 0; i < l->n; i++) {
        const account_entry *a = &l->v[i];
        op_columns(f, NULL, a->spec, a->deny);
        if (a->wild)
            pmstrncpy(num, sizeof(num), "*");
        else
            snprintf(num, sizeof(num), "%u", a->id);
        fprintf(f, "%5d %5d %*s %-*s", a->curcons, a->maxcons, 7, num, 31, a->name);
        for (int j = 0; j < a->nids; j++) {
            id_name(is_user, a->ids[j], name, sizeof(name));
            fprintf(f, "%c%u(%s)", j == 0 ? ' ' : ',', a->ids[j], name);
        }
        fputc('\n', f);
    }
}

void __pmAccDumpUsers(FILE *f)
{
    if (!other_thread())
        dump_accounts(f, &users, 1);
}

void __pmAccDumpGroups(FILE *f)
{
    if (!other_thread())
        dump_accounts(f, &groups, 0);
}

void __pmAccDumpLists(FILE *f)
{
    if (other_thread())
        return;
    fputc('\n', f);
    __pmAccDumpHosts(f);
    __pmAccDumpUsers(f);
    __pmAccDumpGroups(f);
    fputc('\n', f);
}

/* ---------------------------------------------------------------- saving */

int __pmAccSaveHosts(void)
{
    if (other_thread())
        return PM_ERR_THREAD;
    if (hosts_saved)
        return PM_ERR_TOOBIG;
    saved_hosts = hosts;
    memset(&hosts, 0, sizeof(hosts));
    hosts_saved = 1;
    return 0;
}

int __pmAccRestoreHosts(void)
{
    if (other_thread())
        return PM_ERR_THREAD;
    if (!hosts_saved)
        return PM_ERR_TOOSMALL;
    hosts_free(&hosts);
    hosts = saved_hosts;
    memset(&saved_hosts, 0, sizeof(saved_hosts));
    hosts_saved = 0;
    return 0;
}

static int save_accounts(account_list *l, account_list *saved, int *flag)
{
    if (*flag)
        return PM_ERR_TOOBIG;
    *saved = *l;
    memset(l, 0, sizeof(*l));
    *flag = 1;
    return 0;
}

static int restore_accounts(account_list *l, account_list *saved, int *flag)
{
    if (!*flag)
        return PM_ERR_TOOSMALL;
    accounts_free(l);
    *l = *saved;
    memset(saved, 0, sizeof(*saved));
    *flag = 0;
    return 0;
}

/* All three lists, each as far as it can; the first error. */
int __pmAccSaveLists(void)
{
    int sts, code = 0;

    if (other_thread())
        return PM_ERR_THREAD;
    if ((sts = __pmAccSaveHosts()) < 0)
        code = sts;
    if ((sts = save_accounts(&users, &saved_users, &users_saved)) < 0 && code == 0)
        code = sts;
    if ((sts = save_accounts(&groups, &saved_groups, &groups_saved)) < 0 && code == 0)
        code = sts;
    return code;
}

int __pmAccRestoreLists(void)
{
    int sts, code = 0;

    if (other_thread())
        return PM_ERR_THREAD;
    if ((sts = __pmAccRestoreHosts()) < 0)
        code = sts;
    if ((sts = restore_accounts(&users, &saved_users, &users_saved)) < 0 && code == 0)
        code = sts;
    if ((sts = restore_accounts(&groups, &saved_groups, &groups_saved)) < 0 && code == 0)
        code = sts;
    return code;
}

void __pmAccFreeSavedLists(void)
{
    if (other_thread())
        return;
    hosts_free(&saved_hosts);
    accounts_free(&saved_users);
    accounts_free(&saved_groups);
    hosts_saved = users_saved = groups_saved = 0;
}
