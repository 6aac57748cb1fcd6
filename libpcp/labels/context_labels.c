/*
 * context_labels.c - the labels of a local context, as PCP 6.0.3 gives
 * them: the label files of this host and the host's own labels.
 *
 * - The files of $PCP_SYSCONF_DIR/labels (every file not starting with
 *   '.', in name order, a later file's label replacing an earlier one;
 *   files that do not parse are skipped), then those of its optional/
 *   directory (flagged PM_LABEL_OPTIONAL).  Labels from files carry
 *   PM_LABEL_COMPOUND as PCP's do.  Without the labels directory the
 *   answer is -ENOENT.
 * - Then the host's own: domainname, groupid, hostname, machineid and
 *   userid, which replace any the files gave.
 *
 * libpcp_pmda's pmdaLabel gives the files' labels alone
 * (__pmkit_file_labelset).  Not here: asking agents or pmcd for labels
 * (metrics/labelget.c).
 */
#include "labels.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* s as a JSON string into buf: quotes and backslashes escaped, control
 * characters dropped. */
void pmkit_json_string(char *buf, size_t size, const char *s)
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
    pmkit_json_string(qhost, sizeof(qhost), host);
    pmkit_json_string(qdomain, sizeof(qdomain), domain);
    pmkit_json_string(qid, sizeof(qid), id);
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
int pmkit_labelset_one(const pmkit_lbls *l, pmLabelSet **sets)
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
        sts = pmkit_labelset_one(&acc, sets);
    pmkit_lbls_free(&acc);
    return sts;
}

int pmkit_context_labels(pmLabelSet **sets)
{
    pmkit_lbls acc = {0}, host;
    int sts;

    if ((sts = file_labels(&acc)) == 0 && (sts = host_labels(&host)) >= 0) {
        sts = pmkit_lbls_merge(&acc, &host, NULL, NULL, NULL, NULL);
        pmkit_lbls_free(&host);
    }
    if (sts >= 0)
        sts = pmkit_labelset_one(&acc, sets);
    pmkit_lbls_free(&acc);
    return sts;
}
