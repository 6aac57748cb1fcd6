/*
 * labelget.c - the labels of the current context's metrics, level by
 * level (pmGetContextLabels ... pmGetInstancesLabels) and all but the
 * instances' at once (pmLookupLabels).  In a local context the agents
 * answer from their label methods and the context's own labels come from
 * this host; a host context asks pmcd.
 *
 * What PCP 6.0.3's local contexts do, and so what this does:
 *
 * - Context labels are the files of $PCP_SYSCONF_DIR/labels (every file
 *   not starting with '.', in name order, a later file's label replacing
 *   an earlier one; files that do not parse are skipped), then those of
 *   its optional/ directory (flagged PM_LABEL_OPTIONAL), then the host's
 *   own: domainname, groupid, hostname, machineid and userid, which
 *   replace any the files gave.  Labels from files carry
 *   PM_LABEL_COMPOUND as PCP's do.  Without the labels directory the call
 *   fails with -ENOENT, and so does pmLookupLabels.
 * - An agent of interface 7 or later is asked through its label method;
 *   the identifier it gets is the domain number, the instance domain or
 *   the PMID (pmLookupLabels asks for the cluster with item 0, the single
 *   call with the PMID as given).  An older agent has one domain label,
 *   {"agent":PATH}, PATH its shared object, and no other labels.
 *
 * In a host context pmcd answers every level, the context's included
 * (LABEL_REQ, host_api.c): its own host's labels, its agents'.
 */
#include "pmapi_int.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---------------------------------------------------------------- */
/* The context's labels. */

/* s as a JSON string into buf: quotes and backslashes escaped, control
 * characters dropped. */
static void json_string(char *buf, size_t size, const char *s)
{
    size_t n = 0;

    buf[n++] = '"';
    for (; *s != '\0' && n + 3 < size; s++) {
        if ((unsigned char)*s < 0x20)
            continue;
        if (*s == '"' || *s == '\\')
            buf[n++] = '\\';
        buf[n++] = *s;
    }
    buf[n++] = '"';
    buf[n] = '\0';
}

/* Merge the label object in text into acc, each label with flags. */
static int merge_text(pmkit_lbls *acc, const char *text, int flags)
{
    pmkit_lbls upd;
    char *json;
    int sts = pmkit_labels_parse(text, flags, 1, &json, &upd);

    if (sts <= 0)
        return sts;
    free(json);
    sts = pmkit_lbls_merge(acc, &upd, NULL, NULL, NULL, NULL);
    pmkit_lbls_free(&upd);
    return sts;
}

/* The contents of path (to a NUL, which JSON has none of), NULL if it
 * cannot be read (a directory) or is empty. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    char *text = NULL;
    size_t cap = 0;

    if (f == NULL)
        return NULL;
    if (getdelim(&text, &cap, '\0', f) < 0) {
        free(text);
        text = NULL;
    }
    fclose(f);
    return text;
}

static int visible(const struct dirent *d)
{
    return d->d_name[0] != '.';
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

/* The label files of dir merged into acc, in name order; -errno if the
 * directory cannot be read. */
static int label_dir(pmkit_lbls *acc, const char *dir, int flags)
{
    struct dirent **list;
    int n = scandir(dir, &list, visible, by_name), sts = 0;

    if (n < 0)
        return -errno;
    for (int i = 0; i < n; i++) {
        char path[MAXPATHLEN], *text;
        pmsprintf(path, sizeof(path), "%s/%s", dir, list[i]->d_name);
        free(list[i]);
        if (sts < 0 || (text = slurp(path)) == NULL)
            continue;
        if (merge_text(acc, text, flags) == -ENOMEM) /* a file that does not parse is skipped */
            sts = -ENOMEM;
        free(text);
    }
    free(list);
    return sts;
}

/* The host's own labels (hostname, domainname, machineid, userid,
 * groupid) into l, flagged PM_LABEL_CONTEXT. */
static int host_labels(pmkit_lbls *l)
{
    char host[MAXHOSTNAMELEN], domain[MAXHOSTNAMELEN], id[256], text[4 * MAXHOSTNAMELEN + 512];
    char qhost[2 * MAXHOSTNAMELEN + 3], qdomain[2 * MAXHOSTNAMELEN + 3], qid[2 * sizeof(id) + 3];
    FILE *f;
    int sts;

    memset(l, 0, sizeof(*l));
    if (gethostname(host, sizeof(host)) < 0)
        host[0] = '\0';
    host[sizeof(host) - 1] = '\0';
    if (getdomainname(domain, sizeof(domain)) < 0 || domain[0] == '\0' ||
        strcmp(domain, "(none)") == 0)
        strcpy(domain, "localdomain");
    domain[sizeof(domain) - 1] = '\0';
    id[0] = '\0';
    if ((f = fopen("/etc/machine-id", "r")) != NULL) {
        if (fgets(id, sizeof(id), f) == NULL)
            id[0] = '\0';
        id[strcspn(id, "\r\n")] = '\0';
        fclose(f);
    }
    json_string(qhost, sizeof(qhost), host);
    json_string(qdomain, sizeof(qdomain), domain);
    json_string(qid, sizeof(qid), id);
    pmsprintf(text, sizeof(text), "{\"domainname\":%s,\"hostname\":%s%s%s}", qdomain, qhost,
              id[0] != '\0' ? ",\"machineid\":" : "", id[0] != '\0' ? qid : "");
    if ((sts = merge_text(l, text, PM_LABEL_CONTEXT)) < 0)
        return sts;
    pmsprintf(text, sizeof(text), "{\"groupid\":%u,\"userid\":%u}", (unsigned)getgid(),
              (unsigned)getuid());
    if ((sts = merge_text(l, text, PM_LABEL_CONTEXT | PM_LABEL_OPTIONAL)) < 0)
        pmkit_lbls_free(l);
    return sts < 0 ? sts : l->n;
}

/* One set of labels, flat; 1 or -errno. */
static int one_set(const pmkit_lbls *l, pmLabelSet **sets)
{
    pmLabelSet *set = calloc(1, sizeof(*set));
    int sts;

    if (set == NULL)
        return -ENOMEM;
    set->inst = PM_IN_NULL;
    if ((sts = pmkit_labelset_flat(set, l)) < 0) {
        free(set);
        return sts;
    }
    *sets = set;
    return 1;
}

/* The labels of the files of $PCP_SYSCONF_DIR/labels and its optional/
 * directory into acc; -ENOENT without the labels directory. */
static int file_labels(pmkit_lbls *acc)
{
    char dir[MAXPATHLEN], opt[MAXPATHLEN + 16];
    int sts;

    pmsprintf(dir, sizeof(dir), "%s/labels", pmGetConfig("PCP_SYSCONF_DIR"));
    pmsprintf(opt, sizeof(opt), "%s/optional", dir);
    if ((sts = label_dir(acc, dir, PM_LABEL_CONTEXT | PM_LABEL_COMPOUND)) == 0) {
        sts = label_dir(acc, opt, PM_LABEL_CONTEXT | PM_LABEL_COMPOUND | PM_LABEL_OPTIONAL);
        if (sts == -ENOENT || sts == -ENOTDIR)
            sts = 0; /* optional/ is optional */
    }
    return sts;
}

/* The files' labels alone, as one new set: what PCP's pmdaLabel gives for
 * the context (the host's own labels are the client library's to add). */
int __pmkit_file_labelset(pmLabelSet **sets)
{
    pmkit_lbls acc = {0};
    int sts = file_labels(&acc);

    if (sts >= 0)
        sts = one_set(&acc, sets);
    pmkit_lbls_free(&acc);
    return sts;
}

int pmGetContextLabels(pmLabelSet **sets)
{
    pmkit_lbls acc = {0}, host;
    int sts;

    *sets = NULL;
    if (pmkit_ctx_type_current() == PM_CONTEXT_HOST)
        return pmkit_host_labels((int)PM_IN_NULL, PM_LABEL_CONTEXT, sets);
    pmkit_lock();
    sts = pmkit_ctx_current() == NULL ? PM_ERR_NOCONTEXT : 0;
    pmkit_unlock();
    if (sts == 0 && (sts = file_labels(&acc)) == 0 && (sts = host_labels(&host)) >= 0) {
        sts = pmkit_lbls_merge(&acc, &host, NULL, NULL, NULL, NULL);
        pmkit_lbls_free(&host);
    }
    if (sts >= 0)
        sts = one_set(&acc, sets);
    pmkit_lbls_free(&acc);
    return sts;
}

/* ---------------------------------------------------------------- */
/* The agents' labels. */

/* {"agent":PATH}, the one label of an agent older than interface 7. */
static int agent_label(const char *path, pmLabelSet **sets)
{
    pmkit_lbls l;
    char *json, *text;
    size_t size = 2 * strlen(path) + 16;
    int sts;

    if ((text = malloc(size)) == NULL)
        return -ENOMEM;
    memcpy(text, "{\"agent\":", 9);
    json_string(text + 9, size - 10, path);
    strcat(text, "}");
    sts = pmkit_labels_parse(text, PM_LABEL_DOMAIN, 0, &json, &l);
    free(text);
    if (sts > 0) {
        free(json);
        sts = one_set(&l, sets);
    }
    pmkit_lbls_free(&l);
    return sts;
}

/* Labels of type for ident from the agent of domain: the number of sets. */
static int agent_labels(unsigned int domain, int ident, int type, pmLabelSet **sets)
{
    pmkit_ctx *ctx;
    __pmDSO *dso;
    int sts;

    *sets = NULL;
    if (pmkit_ctx_type_current() == PM_CONTEXT_HOST)
        return pmkit_host_labels(ident, type, sets);
    pmkit_lock();
    if ((ctx = pmkit_ctx_current()) == NULL) {
        sts = PM_ERR_NOCONTEXT;
    } else if ((dso = pmkit_dso_for(domain, ctx)) == NULL) {
        sts = PM_ERR_NOAGENT;
    } else if (dso->dispatch.comm.pmda_interface >= PMDA_INTERFACE_7 &&
               dso->dispatch.version.seven.label != NULL) {
        pmLabelSet *got = NULL;
        sts = dso->dispatch.version.seven.label(ident, type, &got, dso->dispatch.version.any.ext);
        if (sts < 0) {
            pmFreeLabelSets(got, type == PM_LABEL_INSTANCES ? 0 : 1);
        } else {
            *sets = got;
            if (type != PM_LABEL_INSTANCES)
                sts = got != NULL;
            else if (got == NULL)
                sts = 0;
        }
    } else if (type == PM_LABEL_DOMAIN) {
        sts = agent_label(dso->name, sets);
    } else {
        sts = 0;
    }
    pmkit_unlock();
    return sts;
}

int pmGetDomainLabels(int domain, pmLabelSet **sets)
{
    return agent_labels((unsigned)domain, domain, PM_LABEL_DOMAIN, sets);
}

int pmGetInDomLabels(pmInDom indom, pmLabelSet **sets)
{
    return agent_labels(pmInDom_domain(indom), (int)indom, PM_LABEL_INDOM, sets);
}

int pmGetClusterLabels(pmID pmid, pmLabelSet **sets)
{
    return agent_labels(pmID_domain(pmid), (int)pmid, PM_LABEL_CLUSTER, sets);
}

int pmGetItemLabels(pmID pmid, pmLabelSet **sets)
{
    return agent_labels(pmID_domain(pmid), (int)pmid, PM_LABEL_ITEM, sets);
}

int pmGetInstancesLabels(pmInDom indom, pmLabelSet **sets)
{
    return agent_labels(pmInDom_domain(indom), (int)indom, PM_LABEL_INSTANCES, sets);
}

/* Append the n sets at *more to *all (n counting *all's), taking them. */
static int append(pmLabelSet **all, int *n, pmLabelSet *more, int nmore)
{
    pmLabelSet *grown;

    if (nmore <= 0)
        return 0;
    if ((grown = realloc(*all, (size_t)(*n + nmore) * sizeof(*grown))) == NULL) {
        pmFreeLabelSets(more, nmore);
        return -ENOMEM;
    }
    memcpy(grown + *n, more, (size_t)nmore * sizeof(*more));
    free(more);
    *all = grown;
    *n += nmore;
    return 0;
}

int pmLookupLabels(pmID pmid, pmLabelSet **sets)
{
    pmLabelSet *all = NULL, *got;
    unsigned int domain = pmID_domain(pmid);
    pmDesc desc;
    int n = 0, sts;

    *sets = NULL;
    if ((sts = pmLookupDesc(pmid, &desc)) < 0)
        return sts;
    if ((sts = pmGetContextLabels(&got)) >= 0)
        sts = append(&all, &n, got, sts);
    if (sts >= 0 && (sts = agent_labels(domain, (int)domain, PM_LABEL_DOMAIN, &got)) >= 0)
        sts = append(&all, &n, got, sts);
    if (sts >= 0 && desc.indom != PM_INDOM_NULL &&
        (sts = agent_labels(domain, (int)desc.indom, PM_LABEL_INDOM, &got)) >= 0)
        sts = append(&all, &n, got, sts);
    if (sts >= 0 && (sts = agent_labels(domain, (int)pmID_build(domain, pmID_cluster(pmid), 0),
                                        PM_LABEL_CLUSTER, &got)) >= 0)
        sts = append(&all, &n, got, sts);
    if (sts >= 0 && (sts = agent_labels(domain, (int)pmid, PM_LABEL_ITEM, &got)) >= 0)
        sts = append(&all, &n, got, sts);
    if (sts < 0) {
        pmFreeLabelSets(all, n);
        return sts;
    }
    *sets = all;
    return n;
}
