/*
 * internal.c - libpcp's internal label helpers (<pcp/libpcp.h>): a copy of
 * label sets, a set parsed from JSON, an agent's domain labels, the label
 * names labels.conf may rename, and the debugging dump of sets, as Debian's
 * libpcp gives them (tests/oracle/probe_internal.c).
 *
 * Not here: parsing and merging (labels.c), a context's own labels
 * (context_labels.c).  $PCP_SYSCONF_DIR/labels.conf is not read, so the
 * host's labels keep PCP's default names (docs/compat.md).
 */
#include "labels.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pcp/libpcp.h>

/* nsets sets copied into one new array (each set's text and labels its
 * own), or NULL. */
pmLabelSet *__pmDupLabelSets(pmLabelSet *sets, int nsets)
{
    pmLabelSet *dup;

    if (sets == NULL || nsets <= 0 || (dup = calloc((size_t)nsets, sizeof(*dup))) == NULL)
        return NULL;
    for (int i = 0; i < nsets; i++) {
        dup[i] = sets[i];
        dup[i].json = NULL;
        dup[i].labels = NULL;
        dup[i].hash = NULL;
        if (sets[i].json != NULL && (dup[i].json = strdup(sets[i].json)) == NULL)
            goto fail;
        if (sets[i].nlabels > 0 && sets[i].labels != NULL) {
            size_t n = (size_t)sets[i].nlabels * sizeof(pmLabel);
            if ((dup[i].labels = malloc(n)) == NULL)
                goto fail;
            memcpy(dup[i].labels, sets[i].labels, n);
        }
    }
    return dup;
fail:
    pmFreeLabelSets(dup, nsets);
    return NULL;
}

/* A new set of the labels in the first jsonlen bytes of json: 1, or
 * -EINVAL for text that is not a label object. */
int __pmParseLabelSet(const char *json, int jsonlen, int flags, pmLabelSet **set)
{
    char *text;
    int sts;

    if (json == NULL || jsonlen < 0 || set == NULL)
        return -EINVAL;
    if ((text = strndup(json, (size_t)jsonlen)) == NULL)
        return -ENOMEM;
    *set = NULL;
    sts = __pmAddLabels(set, text, flags);
    free(text);
    return sts < 0 ? sts : 1;
}

/* An agent's own label, {"agent":"NAME"}, as a new set.  NAME is the
 * agent's name as PCP's libpcp takes it: a leading "pmda" dropped and
 * then a trailing " DSO" (where something is left besides), written as
 * it is, unescaped: a name that is no JSON string gets PCP's answer. */
int __pmGetDomainLabels(int domain, const char *name, pmLabelSet **set)
{
    size_t len;
    char *text;
    int sts;

    (void)domain;
    if (name == NULL || set == NULL)
        return -EINVAL;
    len = strlen(name);
    if (len > 4 && strncmp(name, "pmda", 4) == 0) {
        name += 4;
        len -= 4;
    }
    if (len > 4 && strcmp(name + len - 4, " DSO") == 0)
        len -= 4;
    if ((text = malloc(len + 16)) == NULL)
        return -ENOMEM;
    snprintf(text, len + 16, "{\"agent\":\"%.*s\"}", (int)len, name);
    *set = NULL;
    sts = __pmAddLabels(set, text, PM_LABEL_DOMAIN);
    free(text);
    return sts < 0 ? sts : 1;
}

/* The host's own labels: each call writes the value into buf (cut to
 * fit) and returns the label's name, as PCP's do.  As the context's labels
 * have them: the host name (else "localhost"), /etc/machine-id (else
 * "localmachine"), the NIS domain (else "localdomain"). */
const char *__pmGetLabelConfigHostName(char *buf, size_t buflen)
{
    char host[MAXHOSTNAMELEN];

    if (gethostname(host, sizeof(host)) < 0 || host[0] == '\0')
        strcpy(host, "localhost");
    host[sizeof(host) - 1] = '\0';
    if (buf != NULL && buflen > 0)
        pmstrncpy(buf, buflen, host);
    return "hostname";
}

const char *__pmGetLabelConfigMachineID(char *buf, size_t buflen)
{
    char id[256] = "";
    FILE *f = fopen("/etc/machine-id", "r");

    if (f != NULL) {
        if (fgets(id, sizeof(id), f) == NULL)
            id[0] = '\0';
        id[strcspn(id, "\r\n")] = '\0';
        fclose(f);
    }
    if (id[0] == '\0')
        strcpy(id, "localmachine");
    if (buf != NULL && buflen > 0)
        pmstrncpy(buf, buflen, id);
    return "machineid";
}

const char *__pmGetLabelConfigDomainName(char *buf, size_t buflen)
{
    char domain[MAXHOSTNAMELEN];

    if (getdomainname(domain, sizeof(domain)) < 0 || domain[0] == '\0' ||
        strcmp(domain, "(none)") == 0)
        strcpy(domain, "localdomain");
    domain[sizeof(domain) - 1] = '\0';
    if (buf != NULL && buflen > 0)
        pmstrncpy(buf, buflen, domain);
    return "domainname";
}

void __pmDumpLabelSets(FILE *f, const pmLabelSet *sets, int nsets)
{
    for (int i = 0; sets != NULL && i < nsets; i++) {
        const pmLabelSet *s = &sets[i];
        fprintf(f, "[%d] pmLabelSet dump from %p inst=%d nlabels=%d\n", i, (const void *)s,
                (int)s->inst, s->nlabels);
        if (s->nlabels <= 0)
            continue;
        fprintf(f, "pmLabelSet %p json:\n    %s\n", (const void *)s,
                s->json != NULL ? s->json : "(null)");
        fprintf(f, "pmLabelSet %p index:\n", (const void *)s);
        for (int j = 0; s->labels != NULL && j < s->nlabels; j++) {
            const pmLabel *lb = &s->labels[j];
            fprintf(f, "    [%d] name(%u,%u) : value(%u,%u) [%s%s%s]\n", j, lb->name, lb->namelen,
                    lb->value, lb->valuelen, __pmLabelTypeString(lb->flags),
                    lb->flags & PM_LABEL_COMPOUND ? ",compound" : "",
                    lb->flags & PM_LABEL_OPTIONAL ? ",optional" : "");
        }
    }
}
