/*
 * context_labels.c - the labels of a local context, as PCP 6.0.3 gives
 * them: the label files of this host and the host's own labels.
 *
 * - The entries of $PCP_SYSCONF_DIR/labels, in alphasort order, each not
 *   starting with '.' read as a file (its first 64 KiB less two bytes, to
 *   a NUL; one that cannot be read, such as the optional/ directory
 *   itself, reads as no text) and added to one set with __pmAddLabels:
 *   the first file's labels in their first form, and once the set exists
 *   every later file merged in, flat, even one that adds nothing; a file
 *   that does not parse is skipped.  Then the entries of its optional/
 *   directory the same way, flagged PM_LABEL_OPTIONAL.  Labels from files
 *   carry PM_LABEL_COMPOUND as PCP's do.  Without the labels directory
 *   the answer is -ENOENT.
 * - Then the host's own, added the same way: hostname ("localhost" if it
 *   cannot be had), domainname ("localdomain" for none) and machineid (the
 *   first word of /etc/machine-id, "localmachine" without one), then
 *   groupid and userid, flagged PM_LABEL_OPTIONAL too.
 *
 * libpcp_pmda's pmdaLabel gives the files' labels alone
 * (__pmGetContextLabels), and only when $PCP_SYSCONF_DIR/labels itself
 * gave some: a labels directory holding only optional/, as Debian's pcp
 * package installs it, answers no set.  PCP decides that by the last file
 * it added, so a last file that does not parse hides every label; pmkit
 * does not (docs/compat.md).  Not here: asking agents or pmcd for labels
 * (metrics/labelget.c).
 */
#include "labels.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* How much of a label file PCP reads. */
#define LABEL_FILE_MAX 65534

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

/* The text of the label file at path into text (LABEL_FILE_MAX + 1
 * bytes): empty if it cannot be opened or read. */
static void read_label_file(const char *path, char *text)
{
    FILE *f = fopen(path, "r");
    size_t n = 0;

    if (f != NULL) {
        n = fread(text, 1, LABEL_FILE_MAX, f);
        fclose(f);
    }
    text[n] = '\0';
}

/* The entries of dir added to *set, each label with flags; 0, or -errno
 * if the directory cannot be read or memory runs out. */
static int label_dir(pmLabelSet **set, const char *dir, int flags)
{
    struct dirent **list;
    char path[MAXPATHLEN], *text;
    int n = scandir(dir, &list, NULL, alphasort), sts = 0;

    if (n < 0)
        return -errno;
    if ((text = malloc(LABEL_FILE_MAX + 1)) == NULL)
        sts = -ENOMEM;
    for (int i = 0; i < n; i++) {
        if (sts == 0 && list[i]->d_name[0] != '.') {
            pmsprintf(path, sizeof(path), "%s/%s", dir, list[i]->d_name);
            read_label_file(path, text);
            if (__pmAddLabels(set, text, flags) == -ENOMEM)
                sts = -ENOMEM; /* a file that does not parse is skipped */
        }
        free(list[i]);
    }
    free(list);
    free(text);
    return sts;
}

/* The files' labels added to *set (NULL or a set of this library's): 1
 * if $PCP_SYSCONF_DIR/labels gave any, 0 if not, -errno (the set freed)
 * if it cannot be read. */
int __pmGetContextLabels(pmLabelSet **set)
{
    char dir[MAXPATHLEN], opt[MAXPATHLEN + 16];
    int sts, found;

    pmsprintf(dir, sizeof(dir), "%s/labels", pmGetConfig("PCP_SYSCONF_DIR"));
    pmsprintf(opt, sizeof(opt), "%s/optional", dir);
    if ((sts = label_dir(set, dir, PM_LABEL_CONTEXT | PM_LABEL_COMPOUND)) == 0) {
        found = *set != NULL && (*set)->nlabels > 0;
        sts = label_dir(set, opt, PM_LABEL_CONTEXT | PM_LABEL_COMPOUND | PM_LABEL_OPTIONAL);
        if (sts != -ENOMEM)
            sts = found; /* optional/ is optional */
    }
    if (sts < 0) {
        pmFreeLabelSets(*set, *set != NULL ? 1 : 0);
        *set = NULL;
    }
    return sts;
}

/* The first word of /etc/machine-id into id (256 bytes), as PCP reads it;
 * "localmachine" without one. */
static void machine_id(char *id)
{
    char word[257];
    FILE *f = fopen("/etc/machine-id", "r");
    int got = f != NULL && fscanf(f, "%256s", word) == 1;

    if (f != NULL)
        fclose(f);
    pmsprintf(id, 256, "%s", got ? word : "localmachine");
}

/* The host's own labels added to *set: hostname, domainname and
 * machineid flagged PM_LABEL_CONTEXT, then groupid and userid optional
 * too; the set's label count or -errno. */
static int add_host_labels(pmLabelSet **set)
{
    char host[64], domain[64], id[256], text[2 * (64 + 64 + 256) + 128];
    char qhost[2 * sizeof(host) + 3], qdomain[2 * sizeof(domain) + 3], qid[2 * sizeof(id) + 3];
    int sts;

    /* PCP's buffers: a name that does not fit is no name */
    if (gethostname(host, sizeof(host)) < 0)
        strcpy(host, "localhost");
    host[sizeof(host) - 1] = '\0';
    if (getdomainname(domain, sizeof(domain)) < 0 || domain[0] == '\0' ||
        strcmp(domain, "(none)") == 0)
        strcpy(domain, "localdomain");
    domain[sizeof(domain) - 1] = '\0';
    machine_id(id);
    pmkit_json_string(qhost, sizeof(qhost), host);
    pmkit_json_string(qdomain, sizeof(qdomain), domain);
    pmkit_json_string(qid, sizeof(qid), id);
    pmsprintf(text, sizeof(text), "{\"hostname\":%s,\"domainname\":%s,\"machineid\":%s}", qhost,
              qdomain, qid);
    if ((sts = __pmAddLabels(set, text, PM_LABEL_CONTEXT)) <= 0)
        return sts;
    pmsprintf(text, sizeof(text), "{\"groupid\":%u,\"userid\":%u}", (unsigned)getgid(),
              (unsigned)getuid());
    return __pmAddLabels(set, text, PM_LABEL_CONTEXT | PM_LABEL_OPTIONAL);
}

int pmkit_context_labels(pmLabelSet **sets)
{
    pmLabelSet *set = NULL;
    int sts;

    if ((sts = __pmGetContextLabels(&set)) < 0)
        return sts;
    if ((sts = add_host_labels(&set)) <= 0) {
        pmFreeLabelSets(set, set != NULL ? 1 : 0);
        return sts;
    }
    *sets = set;
    return 1;
}
