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
 * are an empty name (PCP's takes the ']').  Not here (yet): the
 * URL form with attributes (__pmParseHostAttrsSpec and its family).
 */
#include "support.h"

#include <ctype.h>
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
