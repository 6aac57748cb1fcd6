/*
 * hostspec.c - host specifications as PCP's programs give them
 * (<pcp/libpcp.h>): "host[:port[,port...]][@proxy[:port...]]...", a host
 * being a name or a bracketed IPv6 address.  __pmParseHostSpec makes the
 * list of hosts and their ports, __pmUnparseHostSpec the text again,
 * __pmFreeHostSpec frees the list.
 *
 * As Debian's libpcp answers (tests/oracle/probe_hostspec.c): a host name
 * runs to the next ':', '@', '/', '?' or the end, but such a character
 * first in a proxy's name is part of it; ports are digits, read as PCP
 * reads them (a value past an int wraps); errors are PM_ERR_GENERIC with
 * PCP's message, the specification and a caret under the place.  Where
 * PCP's reads past the end of the text (a specification ending in '@'),
 * pmkit's takes an empty proxy name with no ports, and empty brackets
 * are an empty name (PCP's takes the ']').
 *
 * The URL form, __pmParseHostAttrsSpec: an optional "pcp:", "pcps:",
 * "local:" or "unix:" (slashes after it skipped), then hosts as above, or
 * for the last two a socket path (to a ':', '?' or the end; PCP's default
 * socket for none, or one byte before a '?'), then "?key[=value]&..."
 * attributes, each a hash node (unknown keys dropped, repeats kept); a
 * '/' after the hosts ends the text.  The protocol goes in first, as
 * PCP_ATTR_PROTOCOL, PCP_ATTR_LOCAL or PCP_ATTR_UNIXSOCK with its word,
 * and a socket host has -1 (local) or -2 (unix) ports.
 * A "local" or "unixsock" attribute with a value ends the attributes,
 * with an empty value.  Values are URL-decoded; a '%' without two hex
 * digits is -EINVAL (no message).  __pmUnparseHostAttrsSpec writes the protocol
 * ("pcp://", else "unix:/", else "local:/"), the hosts and the other
 * attributes in hash walk order.
 */
#include "support.h"

#include <ctype.h>
#include <stdint.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <pcp/libpcp.h>

/* PCP's message: the specification, then a caret under at and why. */
static int spec_error(const char *spec, const char *at, const char *why, char **errmsg)
{
    size_t len = strlen(spec), col = (size_t)(at - spec);
    size_t need = len + 1 + col + strlen(why) + 8;
    char *msg = malloc(need);

    if (msg != NULL) {
        memcpy(msg, spec, len);
        msg[len] = '\n';
        memset(msg + len + 1, ' ', col);
        pmsprintf(msg + len + 1 + col, need - len - 1 - col, "^ -- %s\n", why);
    }
    *errmsg = msg;
    return PM_ERR_GENERIC;
}

static int is_end(char c)
{
    return c == ':' || c == '@' || c == '\0' || c == '/' || c == '?';
}

void __pmFreeHostSpec(__pmHostSpec *specp, int count)
{
    if (specp == NULL)
        return;
    for (int i = 0; i < count; i++) {
        free(specp[i].name);
        free(specp[i].ports);
    }
    free(specp);
}

/* A new host of len bytes at name, last of *hosts; 0 or -ENOMEM. */
static int add_host(__pmHostSpec **hosts, int *count, const char *name, size_t len)
{
    __pmHostSpec *h = realloc(*hosts, (size_t)(*count + 1) * sizeof(*h));

    if (h == NULL)
        return -ENOMEM;
    *hosts = h;
    h += *count;
    if ((h->name = malloc(len + 1)) == NULL)
        return -ENOMEM;
    memcpy(h->name, name, len);
    h->name[len] = '\0';
    h->ports = NULL;
    h->nports = 0;
    (*count)++;
    return 0;
}

static int add_port(__pmHostSpec *h, int port)
{
    int *p = realloc(h->ports, (size_t)(h->nports + 1) * sizeof(*p));

    if (p == NULL)
        return -ENOMEM;
    p[h->nports++] = port;
    h->ports = p;
    return 0;
}

/* The ports after a ':' at *sp, for host h; *sp ends at what ends them. */
static int parse_ports(const char *spec, const char **sp, __pmHostSpec *h, char **errmsg)
{
    const char *s = *sp, *start = s;
    int sts;

    for (;; s++) {
        if (*s == ',' || *s == '@' || *s == '\0' || *s == '/' || *s == '?') {
            if (s == start)
                return spec_error(spec, s, "missing port", errmsg);
            if ((sts = add_port(h, (int)strtol(start, NULL, 10))) < 0)
                return sts;
            if (*s != ',')
                break;
            start = s + 1;
        } else if (!isdigit((unsigned char)*s)) {
            return spec_error(spec, s, "non-numeric port", errmsg);
        }
    }
    *sp = s;
    return 0;
}

/*
 * The hosts from *sp on, each after the first following an '@'; *sp is
 * left where they end (the end of the text, or a '/' or '?' after them).
 */
static int parse_hosts(const char *spec, const char **sp, __pmHostSpec **hosts, int *count,
                       char **errmsg)
{
    const char *s = *sp, *first = s;
    int sts;

    while (*s != '\0' || s != first) {
        const char *start = s, *end;
        if (*s == '[') {
            if ((end = strchr(s + 1, ']')) == NULL)
                return spec_error(spec, s + strlen(s), "missing closing ']' for host spec", errmsg);
            if ((sts = add_host(hosts, count, s + 1, (size_t)(end - s - 1))) < 0)
                return sts;
            s = end + 1;
            if (!is_end(*s))
                return spec_error(spec, s, "extra characters after host spec", errmsg);
        } else {
            if (is_end(*s) && s == first)
                break;
            if (is_end(*s) && *s != '\0')
                s++; /* first in a proxy's name: part of it */
            while (!is_end(*s))
                s++;
            if ((sts = add_host(hosts, count, start, (size_t)(s - start))) < 0)
                return sts;
        }
        if (*s == ':') {
            s++;
            if ((sts = parse_ports(spec, &s, &(*hosts)[*count - 1], errmsg)) < 0)
                return sts;
        }
        if (*s != '@')
            break;
        s++;
    }
    *sp = s;
    return 0;
}

int __pmParseHostSpec(const char *spec, __pmHostSpec **rslt, int *count, char **errmsg)
{
    const char *s = spec;
    __pmHostSpec *hosts = NULL;
    int n = 0, sts;

    *errmsg = NULL;
    if ((sts = parse_hosts(spec, &s, &hosts, &n, errmsg)) == 0 && *s != '\0')
        sts = spec_error(spec, s, "unexpected terminal character", errmsg);
    if (sts < 0) {
        __pmFreeHostSpec(hosts, n);
        *rslt = NULL;
        *count = 0;
        return sts;
    }
    *rslt = hosts;
    *count = n;
    return 0;
}

/* The text of count hosts appended to out (len bytes so far, cap
 * allocated); 0 or -ENOMEM. */
static int text_of_hosts(const __pmHostSpec *hosts, int count, char **out, size_t *len)
{
    for (int i = 0; i < count; i++) {
        const char *name = hosts[i].name != NULL ? hosts[i].name : "";
        int v6 = strchr(name, ':') != NULL;
        size_t need =
            *len + strlen(name) + 4 + (size_t)(hosts[i].nports > 0 ? hosts[i].nports : 0) * 12;
        char *p = realloc(*out, need);
        if (p == NULL)
            return -ENOMEM;
        *out = p;
        *len += (size_t)pmsprintf(p + *len, need - *len, "%s%s%s%s", i ? "@" : "", v6 ? "[" : "",
                                  name, v6 ? "]" : "");
        for (int j = 0; j < hosts[i].nports; j++)
            *len +=
                (size_t)pmsprintf(p + *len, need - *len, "%c%d", j ? ',' : ':', hosts[i].ports[j]);
    }
    return 0;
}

/* text (len bytes) into string as PCP's unparsers give it: nothing for no
 * text, -E2BIG for no room at all, else as much as fits and the length of
 * that. */
static int give_text(const char *text, size_t len, char *string, size_t size)
{
    if (len == 0)
        return 0; /* nothing written at all */
    if (size == 0)
        return -E2BIG;
    if (len > size - 1)
        len = size - 1;
    memcpy(string, text, len);
    string[len] = '\0';
    return (int)len;
}

int __pmUnparseHostSpec(__pmHostSpec *hostp, int count, char *string, size_t size)
{
    char *text = NULL;
    size_t len = 0;
    int sts = text_of_hosts(hostp, count, &text, &len);

    if (sts == 0)
        sts = give_text(text != NULL ? text : "", len, string, size);
    free(text);
    return sts;
}

void __pmFreeAttrsSpec(__pmHashCtl *attrs)
{
    for (int i = 0; i < attrs->hsize; i++)
        for (__pmHashNode *n = attrs->hash[i]; n != NULL; n = n->next) {
            free(n->data);
            n->data = NULL;
        }
}

void __pmFreeHostAttrsSpec(__pmHostSpec *specp, int count, __pmHashCtl *attrs)
{
    __pmFreeHostSpec(specp, count);
    __pmFreeAttrsSpec(attrs);
}

/* Copy n bytes at p as a string (NULL for no memory). */
static char *copy(const char *p, size_t n)
{
    char *c = malloc(n + 1);

    if (c != NULL) {
        memcpy(c, p, n);
        c[n] = '\0';
    }
    return c;
}

static int hexval(char c)
{
    return isdigit((unsigned char)c)    ? c - '0'
           : isxdigit((unsigned char)c) ? tolower((unsigned char)c) - 'a' + 10
                                        : -1;
}

/* The len bytes at value URL-decoded ('+' a blank, %XX a byte) into *out;
 * 0, -EINVAL for a '%' without two hex digits, or -ENOMEM. */
static int decoded(const char *value, size_t len, char **out)
{
    char *v = malloc(len + 1), *p = v;

    if (v == NULL)
        return -ENOMEM;
    for (size_t i = 0; i < len; i++) {
        if (value[i] == '+') {
            *p++ = ' ';
        } else if (value[i] != '%') {
            *p++ = value[i];
        } else if (i + 2 < len && hexval(value[i + 1]) >= 0 && hexval(value[i + 2]) >= 0) {
            *p++ = (char)(hexval(value[i + 1]) * 16 + hexval(value[i + 2]));
            i += 2;
        } else {
            free(v);
            return -EINVAL;
        }
    }
    *p = '\0';
    *out = v;
    return 0;
}

/* key (a PCP_ATTR_*) with value decoded (NULL stays NULL); 0 or -ENOMEM. */
static int attr_add(__pmHashCtl *attrs, int key, const char *value, size_t len)
{
    char *v = NULL;
    int sts;

    if (value != NULL && (sts = decoded(value, len, &v)) < 0)
        return sts;
    if (__pmHashAdd((unsigned)key, v, attrs) < 0) {
        free(v);
        return -ENOMEM;
    }
    return 0;
}

/* The attributes after the '?' at s, to the end of the text. */
static int parse_attrs(const char *s, __pmHashCtl *attrs)
{
    while (*s == '?' || *s == '&') {
        const char *key = ++s, *value = NULL;
        size_t klen, vlen = 0;
        char *k;
        int attr, sts;
        while (*s != '\0' && *s != '&' && *s != '=')
            s++;
        klen = (size_t)(s - key);
        if (*s == '=') {
            value = ++s;
            while (*s != '\0' && *s != '&')
                s++;
            vlen = (size_t)(s - value);
        }
        if ((k = copy(key, klen)) == NULL)
            return -ENOMEM;
        attr = (int)__pmLookupAttrKey(k, klen + 1);
        free(k);
        if ((attr == PCP_ATTR_LOCAL || attr == PCP_ATTR_UNIXSOCK) && value != NULL)
            return attr_add(attrs, attr, "", 0); /* a path: PCP's keeps none, reads no more */
        if (attr != PCP_ATTR_NONE && (sts = attr_add(attrs, attr, value, vlen)) < 0)
            return sts;
    }
    return 0;
}

/* A socket path at *sp (slashes skipped) as the one host, nports -1 for
 * local, -2 for unix; *sp left at what ends it. */
static int parse_socket(const char **sp, int local, __pmHostSpec **hosts, int *count)
{
    const char *s = *sp, *start;
    char buf[MAXPATHLEN];
    size_t n;
    int sts;

    while (*s == '/')
        s++;
    start = s;
    while (*s != '\0' && *s != '?' && *s != ':')
        s++;
    n = (size_t)(s - start);
    if (n == 0 || (*s == '?' && n == 1)) {
        const char *run = pmGetOptionalConfig("PCP_RUN_DIR");
        pmsprintf(buf, sizeof(buf), "%s/pmcd.socket", run != NULL ? run : "/run/pcp");
    } else {
        pmsprintf(buf, sizeof(buf), "/%.*s", (int)(n < sizeof(buf) ? n : sizeof(buf) - 2), start);
    }
    if ((sts = add_host(hosts, count, buf, strlen(buf))) < 0)
        return sts;
    (*hosts)[0].nports = local ? -1 : -2;
    *sp = s;
    return 0;
}

static const struct {
    const char *prefix;
    int attr;
} protocols[] = {
    {"pcp:", PCP_ATTR_PROTOCOL},
    {"pcps:", PCP_ATTR_PROTOCOL},
    {"local:", PCP_ATTR_LOCAL},
    {"unix:", PCP_ATTR_UNIXSOCK},
};

int __pmParseHostAttrsSpec(const char *spec, __pmHostSpec **host, int *count,
                           __pmHashCtl *attributes, char **errmsg)
{
    const char *s = spec;
    __pmHostSpec *hosts = NULL;
    int n = 0, sts = 0, attr = PCP_ATTR_NONE;

    *errmsg = NULL;
    for (size_t i = 0; i < sizeof(protocols) / sizeof(protocols[0]); i++) {
        size_t len = strlen(protocols[i].prefix);
        if (strncmp(spec, protocols[i].prefix, len) == 0) {
            attr = protocols[i].attr;
            sts = attr_add(attributes, attr, spec, len - 1);
            s = spec + len;
            break;
        }
    }
    if (sts == 0 && (attr == PCP_ATTR_LOCAL || attr == PCP_ATTR_UNIXSOCK)) {
        sts = parse_socket(&s, attr == PCP_ATTR_LOCAL, &hosts, &n);
    } else if (sts == 0) {
        while (attr != PCP_ATTR_NONE && *s == '/')
            s++;
        sts = parse_hosts(spec, &s, &hosts, &n, errmsg);
    }
    if (sts == 0 && *s == '?')
        sts = parse_attrs(s, attributes);
    else if (sts == 0 && *s != '\0' && *s != '/')
        sts = spec_error(spec, s, "unexpected terminal character", errmsg);
    if (sts < 0) {
        __pmFreeHostSpec(hosts, n);
        *host = NULL;
        *count = 0;
        return sts;
    }
    *host = hosts;
    *count = n;
    return 0;
}

/* The attributes' text ("?a&b...") appended to out, in walk order. */
typedef struct {
    char *text;
    size_t len;
    int any; /* an attribute written: the next follows a '&' */
    int sts;
} attr_text;

static __pmHashWalkState add_attr_text(const __pmHashNode *node, void *arg)
{
    attr_text *t = arg;
    char buf[4096];
    int n;
    char *p;

    if (node->key == PCP_ATTR_PROTOCOL || node->key == PCP_ATTR_LOCAL ||
        node->key == PCP_ATTR_UNIXSOCK)
        return PM_HASH_WALK_NEXT;
    if ((n = __pmAttrStr_r((__pmAttrKey)node->key, node->data, buf, sizeof(buf))) <= 0)
        return PM_HASH_WALK_NEXT;
    if ((p = realloc(t->text, t->len + (size_t)n + 2)) == NULL) {
        t->sts = -ENOMEM;
        return PM_HASH_WALK_STOP;
    }
    t->text = p;
    p[t->len++] = t->any ? '&' : '?';
    t->any = 1;
    memcpy(p + t->len, buf, (size_t)n + 1);
    t->len += (size_t)n;
    return PM_HASH_WALK_NEXT;
}

int __pmUnparseHostAttrsSpec(__pmHostSpec *hosts, int count, __pmHashCtl *attributes, char *string,
                             size_t size)
{
    __pmHashNode *node;
    attr_text t = {NULL, 0, 0, 0};
    int sts = 0;

    if ((node = __pmHashSearch(PCP_ATTR_PROTOCOL, attributes)) != NULL) {
        const char *proto = node->data != NULL ? node->data : "pcp";
        if ((t.text = malloc(strlen(proto) + 4)) == NULL)
            return -ENOMEM;
        t.len = (size_t)pmsprintf(t.text, strlen(proto) + 4, "%s://", proto);
        sts = text_of_hosts(hosts, count, &t.text, &t.len);
    } else {
        const char *word = __pmHashSearch(PCP_ATTR_UNIXSOCK, attributes) != NULL ? "unix:/"
                           : __pmHashSearch(PCP_ATTR_LOCAL, attributes) != NULL  ? "local:/"
                                                                                 : "";
        if ((t.text = strdup(word)) == NULL)
            return -ENOMEM;
        t.len = strlen(word);
        sts = text_of_hosts(hosts, count, &t.text, &t.len);
    }
    if (sts == 0) {
        __pmHashWalkCB(add_attr_text, &t, attributes);
        sts = t.sts;
    }
    if (sts == 0)
        sts = give_text(t.text != NULL ? t.text : "", t.len, string, size);
    free(t.text);
    return sts;
}
