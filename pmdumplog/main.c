/*
 * pmdumplog - dump the contents of a PCP archive.
 *
 *   pmdumplog [options] [archive [metricname ...]]
 *
 * Options, usage text, output and exit status as Debian's pmdumplog 6.0.3
 * for archives of versions 2 and 3: the label (-l, -L), the descriptors
 * (-d), the instance domains as a client sees them (-i) and as stored
 * (-I), label sets (-e), help text (-h), the temporal index (-t) and the
 * data records (-m, the default; -r backwards, -S/-T a window, -s sizes,
 * -x longer timestamps), optionally only those of some metrics.
 *
 * Like PCP's, this tool reads the archive through the library's archive
 * room (archive.h) rather than a PMAPI context: the index, the on-disk
 * instance records and the records' sizes are not in the PMAPI.  Where
 * PCP's output follows the order of libpcp's internal hash tables (-d,
 * -i), pcp_hash_order reproduces that order from the order of first
 * appearance in the metadata; names follow the archive namespace's tree
 * (pmns_order); -h and -e come sorted, as PCP prints them.
 *
 * Event records are unpacked and printed record by record, parameter by
 * parameter (print_events).  -n (pmGetOptions loads the file) makes names
 * come from that namespace rather than the archive's; -v dumps one file's
 * records as hex bytes (raw_dump), whatever it holds.  <mark> records are
 * printed unless metrics are named, then only with -M.
 *
 * An archive whose end cannot be found gets PCP's warning, "UNKNOWN" as
 * the label's end and the end of time as the window's: records are read
 * to the damage (and its error), and -S alone, or -r from past the last
 * index entry, dump nothing, as PCP's do (window_and_zone, dump_records).
 *
 * Not here: multi-archive contexts, which PCP 6.0.3's pmdumplog refuses
 * (an argument with a comma, or a directory) and so does this one.
 */
#include <pcp/pmapi.h>
#include <pcp/libpcp.h>

#include "archive.h"
#include "cmdline.h"
#include "outfile.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static int override(int c, pmOptions *o);

static pmLongOptions longopts[] = {
    PMAPI_OPTIONS_HEADER("Options"),
    {"all", 0, 'a', 0, "dump everything"},
    {"descs", 0, 'd', 0, "dump metric descriptions"},
    {"labelsets", 0, 'e', 0, "dump all metric label metadata"},
    {"helptext", 0, 'h', 0, "dump all metric help text"},
    {"on-disk-insts", 0, 'I', 0, "dump on-disk instance domain descriptions"},
    {"insts", 0, 'i', 0, "dump instance domain descriptions"},
    {"", 0, 'L', 0, "more verbose form of archive label dump"},
    {"label", 0, 'l', 0, "dump the archive label"},
    {"markrecs", 0, 'M', 0, "report <mark> records"},
    {"metrics", 0, 'm', 0, "dump values of the metrics (default)"},
    PMOPT_NAMESPACE,
    {"reverse", 0, 'r', 0, "process archive in reverse chronological order"},
    PMOPT_START,
    {"sizes", 0, 's', 0, "report size of data records in archive"},
    PMOPT_FINISH,
    {"", 0, 't', 0, "dump the temporal index"},
    {"", 1, 'v', "FILE", "verbose hex dump of a physical file in raw format"},
    {"", 0, 'x', 0, "include date, usec (-xx) and Epoch (-xxx) in reported timestamps"},
    PMOPT_TIMEZONE,
    PMOPT_HOSTZONE,
    PMOPT_VERSION,
    PMOPT_HELP,
    PMAPI_OPTIONS_END,
};

static pmOptions opts = {
    .flags = PM_OPTFLAG_DONE,
    .short_options = "aD:deIhiLlMmn:rS:sT:tv:xZ:z?",
    .long_options = longopts,
    .short_usage = "[options] [archive [metricname ...]]",
    .override = override,
};

/* -a, -h, -L, -s and -t are pmdumplog's, not the standard options. */
static int override(int c, pmOptions *o)
{
    (void)o;
    return c == 'a' || c == 'h' || c == 'L' || c == 's' || c == 't';
}

typedef struct pmns_walk {
    int n;
    const char **names;
    pmID *pmids;
} pmns_walk;

typedef struct dump {
    arch_set *set;
    int nsfile; /* -n: names from the namespace loaded, not the archive's */
    int mflag;  /* -M */
    const arch_label *label;
    int v3;    /* nanosecond timestamps */
    int xflag; /* -x count */
    int sflag; /* -s */
    int rflag; /* -r */
    struct timespec start, finish;
    struct timespec end; /* the archive's, for the label */
    int end_unknown;     /* not found: end of time, "UNKNOWN" in the label */
    char base[4096];     /* the archive's base name, for -t's checks */
    pmns_walk pmns;      /* the archive's namespace, walked */
    int nsel;            /* metrics named on the command line (0: all) */
    pmID *sel;
} dump;

/* ------------------------------------------------------------------ */
/* The order of PCP's hash walks. */

/*
 * The order in which libpcp's hash table walks keys added in the order
 * keys[0..n): one bucket at first, then 6, 14, 30 and doubling, grown
 * when a key's arrival makes the keys more than four per bucket; a key is
 * pushed at its bucket's head, and growing moves each old bucket's chain,
 * bucket by bucket and tail first, to the tails of the new buckets.
 * Writes the walk into order[0..n) (indices into keys); -1 when out of
 * memory.  Observed on Debian's libpcp with random keys (up to 20000).
 */
static int pcp_hash_order(const unsigned *keys, int n, int *order)
{
    int size = 1, cap = 1;
    int *next = malloc((size_t)(n > 0 ? n : 1) * sizeof(int));
    int *head = NULL, *tail = NULL, *tmp = malloc((size_t)(n > 0 ? n : 1) * sizeof(int));
    int sts = -1;

    while (cap / 4 <= n) /* a table for every size reached */
        cap = cap < 6 ? 6 : cap < 14 ? 14 : cap < 30 ? 30 : cap * 2;
    head = malloc((size_t)cap * sizeof(int) * 2);
    if (next == NULL || head == NULL || tmp == NULL)
        goto out;
    tail = head + cap;
    head[0] = tail[0] = -1;
    for (int i = 0; i < n; i++) {
        if ((i + 1) / 4 > size) {
            int nsize = size == 1 ? 6 : size == 6 ? 14 : size == 14 ? 30 : size * 2;
            int *oh = malloc((size_t)size * sizeof(int));
            if (oh == NULL)
                goto out;
            memcpy(oh, head, (size_t)size * sizeof(int));
            for (int b = 0; b < nsize; b++)
                head[b] = tail[b] = -1;
            for (int b = 0; b < size; b++) {
                int m = 0;
                for (int k = oh[b]; k >= 0; k = next[k])
                    tmp[m++] = k;
                while (m-- > 0) {
                    int k = tmp[m], nb = (int)(keys[k] % (unsigned)nsize);
                    next[k] = -1;
                    if (tail[nb] < 0)
                        head[nb] = k;
                    else
                        next[tail[nb]] = k;
                    tail[nb] = k;
                }
            }
            free(oh);
            size = nsize;
        }
        int b = (int)(keys[i] % (unsigned)size);
        next[i] = head[b];
        head[b] = i;
        if (tail[b] < 0)
            tail[b] = i;
    }
    int m = 0;
    for (int b = 0; b < size; b++)
        for (int k = head[b]; k >= 0; k = next[k])
            order[m++] = k;
    sts = 0;
out:
    free(next);
    free(head);
    free(tmp);
    return sts;
}

/* ------------------------------------------------------------------ */
/* Timestamps. */

/* "HH:MM:SS.frac", or with -x the date around it, with -xx the offset from
 * the archive's start, with -xxx the seconds since the Epoch. */
static void stamp_str(const dump *d, const struct timespec *t, char *buf, size_t size)
{
    struct tm tm;
    time_t sec = t->tv_sec;
    char frac[24];
    size_t n;

    pmLocaltime(&sec, &tm);
    if (d->v3)
        snprintf(frac, sizeof(frac), "%09ld", (long)t->tv_nsec);
    else
        snprintf(frac, sizeof(frac), "%06ld", (long)(t->tv_nsec / 1000));
    if (d->xflag == 0) {
        snprintf(buf, size, "%02d:%02d:%02d.%s", tm.tm_hour, tm.tm_min, tm.tm_sec, frac);
        return;
    }
    char date[32];
    strftime(date, sizeof(date), "%a %b %e %H:%M:%S", &tm);
    snprintf(buf, size, "%s.%s %d", date, frac, tm.tm_year + 1900);
    n = strlen(buf);
    if (d->xflag >= 2) {
        double delta = pmtimespecSub(t, &d->label->start);
        snprintf(buf + n, size - n, d->v3 ? " (%.9f)" : " (%.6f)", delta);
        n = strlen(buf);
    }
    if (d->xflag >= 3)
        snprintf(buf + n, size - n, " %lld", (long long)t->tv_sec);
}

static void print_stamp(const dump *d, const struct timespec *t)
{
    char buf[96];
    stamp_str(d, t, buf, sizeof(buf));
    fputs(buf, stdout);
}

/* The label's dates: always with the date, -xxx adds the Epoch. */
static void print_label_date(const dump *d, const struct timespec *t)
{
    dump l = *d;
    l.xflag = 1;
    print_stamp(&l, t);
    if (d->xflag >= 3)
        printf(" %lld", (long long)t->tv_sec);
}

/* ------------------------------------------------------------------ */
/* The sections. */

static void dump_label(const dump *d, int verbose)
{
    const arch_label *l = d->label;
    printf("Log Label (Log Format Version %d)\n", l->version);
    printf("Performance metrics from host %s\n", l->hostname);
    printf("    commencing ");
    print_label_date(d, &l->start);
    printf("\n    ending     ");
    if (d->end_unknown)
        printf("UNKNOWN");
    else
        print_label_date(d, &d->end);
    printf("\n");
    if (verbose) {
        printf("Archive timezone: %s\n", l->timezone);
        if (l->version >= PM_LOG_VERS03 && l->zoneinfo[0] != '\0')
            printf("Archive zoneinfo: %s\n", l->zoneinfo);
        printf("PID for pmlogger: %d\n", l->pid);
    }
}

/*
 * The archive's namespace as PCP's libpcp builds it from the .meta names:
 * a tree whose nodes take each new child at the head of their children.
 * A depth-first walk of it is pmTraversePMNS's order; pmNameAll gives a
 * PMID's names in the reverse of that walk.  Kept as the walk: names[i]
 * and pmids[i] for the i-th leaf.
 */
typedef struct pnode {
    const char *part; /* not NUL-terminated: partlen bytes */
    size_t partlen;
    int child, sibling; /* indices, -1 for none */
    int leaf;           /* index of the full name, or -1 */
} pnode;

static int tree_child(pnode *t, int *nt, int parent, const char *part, size_t len)
{
    for (int c = t[parent].child; c >= 0; c = t[c].sibling)
        if (t[c].partlen == len && memcmp(t[c].part, part, len) == 0)
            return c;
    t[*nt] = (pnode){part, len, -1, t[parent].child, -1};
    t[parent].child = *nt;
    return (*nt)++;
}

static void tree_walk(const pnode *t, int node, const dump *d, pmns_walk *w)
{
    for (int c = t[node].child; c >= 0; c = t[c].sibling) {
        if (t[c].leaf >= 0) {
            pmID pmid;
            w->names[w->n] = arch_name_at(d->set, t[c].leaf, &pmid);
            w->pmids[w->n++] = pmid;
        }
        tree_walk(t, c, d, w);
    }
}

static int pmns_order(const dump *d, pmns_walk *w)
{
    int total = arch_nnames(d->set), nt = 1;
    size_t parts = 1;
    pnode *t;

    for (int i = 0; i < total; i++) {
        pmID pmid;
        for (const char *p = arch_name_at(d->set, i, &pmid); *p; p++)
            parts += *p == '.';
        parts++;
    }
    t = malloc(parts * sizeof(*t));
    w->names = malloc((size_t)(total > 0 ? total : 1) * sizeof(char *));
    w->pmids = malloc((size_t)(total > 0 ? total : 1) * sizeof(pmID));
    w->n = 0;
    if (t == NULL || w->names == NULL || w->pmids == NULL) {
        free(t);
        return -ENOMEM;
    }
    t[0] = (pnode){"", 0, -1, -1, -1};
    for (int i = 0; i < total; i++) {
        pmID pmid;
        const char *name = arch_name_at(d->set, i, &pmid), *p = name;
        int node = 0;
        for (;;) {
            const char *dot = strchr(p, '.');
            size_t len = dot ? (size_t)(dot - p) : strlen(p);
            node = tree_child(t, &nt, node, p, len);
            if (dot == NULL)
                break;
            p = dot + 1;
        }
        if (t[node].leaf < 0)
            t[node].leaf = i;
    }
    tree_walk(t, 0, d, w);
    free(t);
    return 0;
}

/* -n: the loaded namespace's leaves in its walk's order, each name
 * strdup'd (freed by free_pmns). */
typedef struct leaves {
    int n, cap, failed;
    const char **names;
} leaves;

static void collect_leaf(const char *name, void *arg)
{
    leaves *l = arg;
    if (l->failed)
        return;
    if (l->n == l->cap) {
        int cap = l->cap ? l->cap * 2 : 64;
        const char **nn = realloc(l->names, (size_t)cap * sizeof(*nn));
        if (nn == NULL) {
            l->failed = 1;
            return;
        }
        l->names = nn;
        l->cap = cap;
    }
    if ((l->names[l->n] = strdup(name)) == NULL)
        l->failed = 1;
    else
        l->n++;
}

static int pmns_loaded(pmns_walk *w)
{
    leaves l = {0, 0, 0, NULL};
    int sts = pmTraversePMNS_r("", collect_leaf, &l);

    w->names = l.names;
    w->n = l.n;
    w->pmids = malloc((size_t)(l.n > 0 ? l.n : 1) * sizeof(pmID));
    if (l.failed || w->pmids == NULL)
        return -ENOMEM;
    if (sts < 0) /* an empty namespace */
        return 0;
    for (int i = 0; i < l.n; i++)
        if (pmLookupName(1, &l.names[i], &w->pmids[i]) < 0)
            w->pmids[i] = PM_ID_NULL;
    return 0;
}

static void free_pmns(dump *d)
{
    if (d->nsfile)
        for (int i = 0; i < d->pmns.n; i++)
            free((char *)d->pmns.names[i]);
    free(d->pmns.names);
    free(d->pmns.pmids);
}

static int has_name(const dump *d, pmID pmid)
{
    for (int i = 0; i < d->pmns.n; i++)
        if (d->pmns.pmids[i] == pmid)
            return 1;
    return 0;
}

/* The names of pmid joined by " or "; none: its PMID, or with -n
 * NONAME, as PCP prints each place. */
static void print_names(const dump *d, pmID pmid, const char *noname)
{
    int first = 1;

    if (d->nsfile) {
        char **names;
        int n = pmNameAll(pmid, &names);
        for (int i = 0; i < n; i++)
            printf("%s%s", i ? " or " : "", names[i]);
        if (n > 0)
            free(names);
        else
            printf("%s", noname);
        return;
    }
    for (int i = d->pmns.n - 1; i >= 0; i--)
        if (d->pmns.pmids[i] == pmid) {
            printf("%s%s", first ? "" : " or ", d->pmns.names[i]);
            first = 0;
        }
    if (first)
        printf("%s", pmIDStr(pmid));
}

static int dump_descs(dump *d)
{
    int n = arch_npmids(d->set);
    unsigned *keys = malloc((size_t)(n > 0 ? n : 1) * sizeof(unsigned));
    int *order = malloc((size_t)(n > 0 ? n : 1) * sizeof(int));

    if (keys == NULL || order == NULL) {
        free(keys);
        free(order);
        return -ENOMEM;
    }
    for (int i = 0; i < n; i++)
        keys[i] = arch_pmid_at(d->set, i);
    if (pcp_hash_order(keys, n, order) < 0) {
        free(keys);
        free(order);
        return -ENOMEM;
    }
    printf("\nDescriptions for Metrics in the Log ...\n");
    for (int i = 0; i < n; i++) {
        pmDesc desc;
        pmID pmid = keys[order[i]];
        if (arch_desc(d->set, pmid, &desc) < 0)
            continue;
        printf("PMID: %s (", pmIDStr(pmid));
        print_names(d, pmid, "<noname>");
        printf(")\n");
        pmPrintDesc(stdout, &desc);
    }
    free(keys);
    free(order);
    return 0;
}

/* The instance domains in .meta order, each once, for -i. */
typedef struct indoms {
    int n, cap;
    unsigned *keys;
} indoms;

static int collect_indom(const arch_indom_rec *r, void *arg)
{
    indoms *s = arg;
    for (int i = 0; i < s->n; i++)
        if (s->keys[i] == r->indom)
            return 0;
    if (s->n == s->cap) {
        int cap = s->cap ? s->cap * 2 : 16;
        unsigned *k = realloc(s->keys, (size_t)cap * sizeof(unsigned));
        if (k == NULL)
            return -ENOMEM;
        s->keys = k;
        s->cap = cap;
    }
    s->keys[s->n++] = r->indom;
    return 0;
}

/* One observation of an instance domain as -i prints it: its time and
 * its text (NULL for a v3 delta, worked out after the walk). */
typedef struct obs {
    struct timespec t;
    char *text;
} obs;

typedef struct observations {
    int n, cap;
    obs *o;
} observations;

static char *indom_text(int n, const int *inst, const char *const *name)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    if (f == NULL)
        return NULL;
    fprintf(f, " %d instances\n", n);
    for (int j = 0; j < n; j++)
        fprintf(f, "   %d or \"%s\"\n", inst[j], name[j]);
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

static int collect_obs(const arch_indom_rec *r, void *arg)
{
    observations *s = arg;
    if (s->n == s->cap) {
        int cap = s->cap ? s->cap * 2 : 16;
        obs *o = realloc(s->o, (size_t)cap * sizeof(*o));
        if (o == NULL)
            return -ENOMEM;
        s->o = o;
        s->cap = cap;
    }
    s->o[s->n].t = r->stamp;
    s->o[s->n].text = NULL;
    if (!r->delta && (s->o[s->n].text = indom_text(r->n, r->inst, r->name)) == NULL)
        return -ENOMEM;
    s->n++;
    return 0;
}

/* One instance domain: each observation (a delta as the whole domain
 * after it), but for one at the same time as the one before and equal to
 * it, which PCP keeps once. */
static int dump_indom(dump *d, pmInDom indom)
{
    observations st = {0, 0, NULL};
    int sts = arch_indom_walk(d->set, indom, collect_obs, &st);

    printf("InDom: %s\n", pmInDomStr(indom));
    for (int i = 0; sts >= 0 && i < st.n; i++) {
        arch_indom_view v;
        if (st.o[i].text == NULL) {
            if (arch_indom_at(d->set, indom, &st.o[i].t, &v) < 0)
                continue;
            if ((st.o[i].text = indom_text(v.n, v.inst, v.name)) == NULL) {
                sts = -ENOMEM;
                break;
            }
        }
        if (i > 0 && st.o[i].t.tv_sec == st.o[i - 1].t.tv_sec &&
            st.o[i].t.tv_nsec == st.o[i - 1].t.tv_nsec && st.o[i - 1].text != NULL &&
            strcmp(st.o[i].text, st.o[i - 1].text) == 0)
            continue;
        print_stamp(d, &st.o[i].t);
        fputs(st.o[i].text, stdout);
    }
    for (int i = 0; i < st.n; i++)
        free(st.o[i].text);
    free(st.o);
    return sts;
}

static int dump_indoms(dump *d)
{
    indoms s = {0, 0, NULL};
    int *order = NULL, sts;

    if ((sts = arch_indom_walk(d->set, PM_INDOM_NULL, collect_indom, &s)) >= 0) {
        order = malloc((size_t)(s.n > 0 ? s.n : 1) * sizeof(int));
        if (order == NULL || pcp_hash_order(s.keys, s.n, order) < 0)
            sts = -ENOMEM;
    }
    if (sts >= 0) {
        printf("\nInstance Domains in the Log ...\n");
        for (int i = 0; i < s.n && sts >= 0; i++)
            sts = dump_indom(d, s.keys[order[i]]);
    }
    free(order);
    free(s.keys);
    return sts < 0 ? sts : 0;
}

static int ondisk_one(const arch_indom_rec *r, void *arg)
{
    dump *d = arg;
    print_stamp(d, &r->stamp);
    printf(" InDom: %s%s %d instances\n", pmInDomStr(r->indom), r->delta ? " delta" : "", r->n);
    for (int j = 0; j < r->n; j++) {
        if (!r->delta)
            printf("   %d or \"%s\"\n", r->inst[j], r->name[j]);
        else if (r->name[j] != NULL)
            printf("   add %d or \"%s\"\n", r->inst[j], r->name[j]);
        else
            printf("   del %d\n", r->inst[j]);
    }
    return 0;
}

static int dump_ondisk(dump *d)
{
    printf("\nInstance Domains on-disk ...\n");
    return arch_indom_walk(d->set, PM_INDOM_NULL, ondisk_one, d);
}

/* The size of an uncompressed file of the archive, or -1. */
static long long file_size(const dump *d, const char *suffix)
{
    char path[4096 + 32];
    struct stat sb;

    snprintf(path, sizeof(path), "%s.%s", d->base, suffix);
    return stat(path, &sb) == 0 && S_ISREG(sb.st_mode) ? (long long)sb.st_size : -1;
}

/* Whether the archive's file with suffix exists, plain or compressed
 * (the suffixes PCP's libpcp tries). */
static const char *const zip_suffix[] = {"", ".xz", ".lzma", ".bz2", ".bz", ".gz", ".Z", ".z"};

static int file_exists(const dump *d, const char *suffix)
{
    char path[4096 + 48];
    struct stat sb;

    for (size_t i = 0; i < sizeof(zip_suffix) / sizeof(zip_suffix[0]); i++) {
        snprintf(path, sizeof(path), "%s.%s%s", d->base, suffix, zip_suffix[i]);
        if (stat(path, &sb) == 0)
            return 1;
    }
    return 0;
}

/* An index entry's time with its fraction as the signed 32-bit number
 * the file holds (PCP prints and checks it so). */
static void index_signed_stamp(const dump *d, arch_ti *ti)
{
    long long frac = d->v3 ? (long long)ti->stamp.tv_nsec : (long long)ti->stamp.tv_nsec / 1000;
    if (frac > INT32_MAX)
        frac -= 4294967296LL;
    ti->stamp.tv_nsec = (long)(d->v3 ? frac : frac * 1000);
}

/* PCP's checks of an index entry on its own: its volume's file missing,
 * its time out of range, its offsets past the files' ends; two tabs in
 * whatever -x says. */
static void index_check(const dump *d, const arch_ti *ti)
{
    char vol[16];
    long long size, vsize;

    snprintf(vol, sizeof(vol), "%d", ti->vol);
    if ((vsize = file_size(d, vol)) < 0 && !file_exists(d, vol))
        printf("\t\tWarning: file missing for log volume %d\n", ti->vol);
    if (ti->stamp.tv_sec < 0 || ti->stamp.tv_nsec < 0 || ti->stamp.tv_nsec >= 1000000000L)
        printf("\t\tError: illegal timestamp value (%lld sec, %ld nsec)\n",
               (long long)ti->stamp.tv_sec, (long)ti->stamp.tv_nsec);
    if ((size = file_size(d, "meta")) >= 0 && (long long)ti->meta_off > size)
        printf("\t\tError: offset to meta file past end of file (%lld)\n", size);
    if (vsize >= 0 && (long long)ti->data_off > vsize)
        printf("\t\tError: offset to log file past end of file (%lld)\n", vsize);
}

/* PCP's checks of an index entry against the one before it (after those
 * against the files' sizes): time going backwards, the volume number
 * decreasing, and, within a volume, either offset decreasing.  Always
 * two tabs in, the times short whatever -x says. */
static void index_order_check(const dump *d, const arch_ti *prev, const arch_ti *ti)
{
    if (ti->stamp.tv_sec < prev->stamp.tv_sec ||
        (ti->stamp.tv_sec == prev->stamp.tv_sec && ti->stamp.tv_nsec < prev->stamp.tv_nsec)) {
        dump s = *d;
        char from[96], to[96];
        s.xflag = 0;
        stamp_str(&s, &prev->stamp, from, sizeof(from));
        stamp_str(&s, &ti->stamp, to, sizeof(to));
        printf("\t\tError: timestamp went backwards in time %s -> %s\n", from, to);
    }
    if (ti->vol < prev->vol)
        printf("\t\tError: volume number decreased\n");
    if (ti->vol == prev->vol && ti->meta_off < prev->meta_off)
        printf("\t\tError: offset to meta file decreased\n");
    if (ti->vol == prev->vol && ti->data_off < prev->data_off)
        printf("\t\tError: offset to log file decreased\n");
}

/* Label sets for -e, from the label sets' table as Debian's library keeps
 * it (arch_label_table): the times, classes and identifiers of its entries
 * (every node's, keys added twice included) sorted and each taken once;
 * for each, the entries of that time in the chain found by the key (the
 * newest node of it, so an older node's entries are not printed, but its
 * time is), in chain order.  Context labels, whatever their entries'
 * identifiers, are taken once a time, from every node in walk order (as
 * Debian's pmdumplog prints them).  Each entry's sets go through
 * pmPrintLabelSets, each label's kind from its own flags. */
typedef struct lrec {
    struct timespec t;
    int type, ident;
} lrec;

typedef struct lrecs {
    int n, cap;
    lrec *r;
} lrecs;

static int collect_entry(lrecs *l, const __pmLogLabelSet *e)
{
    if (l->n == l->cap) {
        int cap = l->cap ? l->cap * 2 : 32;
        lrec *n = realloc(l->r, (size_t)cap * sizeof(*n));
        if (n == NULL)
            return -ENOMEM;
        l->r = n;
        l->cap = cap;
    }
    l->r[l->n++] = (lrec){{(time_t)e->stamp.sec, (long)e->stamp.nsec}, e->type, (int)e->ident};
    return 0;
}

static int collect_labels(__pmHashCtl *types, lrecs *l)
{
    for (int i = 0; i < types->hsize; i++) {
        for (__pmHashNode *n = types->hash[i]; n != NULL; n = n->next) {
            __pmHashCtl *idents = n->data;
            for (int j = 0; j < idents->hsize; j++) {
                for (__pmHashNode *m = idents->hash[j]; m != NULL; m = m->next) {
                    for (const __pmLogLabelSet *e = m->data; e != NULL; e = e->next)
                        if (collect_entry(l, e) < 0)
                            return -ENOMEM;
                }
            }
        }
    }
    return 0;
}

static int label_class(int type)
{
    switch (type & ~PM_LABEL_COMPOUND & ~PM_LABEL_OPTIONAL) {
    case PM_LABEL_CONTEXT:
        return 0;
    case PM_LABEL_DOMAIN:
        return 1;
    case PM_LABEL_CLUSTER:
        return 2;
    case PM_LABEL_ITEM:
        return 3;
    case PM_LABEL_INDOM:
        return 4;
    default:
        return 5;
    }
}

static int label_cmp(const void *a, const void *b)
{
    const lrec *x = a, *y = b;
    int c = arch_cmp(&x->t, &y->t);

    if (c != 0)
        return c;
    if (label_class(x->type) != label_class(y->type))
        return label_class(x->type) - label_class(y->type);
    if (x->type != PM_LABEL_CONTEXT && x->ident != y->ident)
        return (unsigned)x->ident < (unsigned)y->ident ? -1 : 1;
    return 0;
}

/* The sets of the entries at r's time in the chain the table finds for
 * r's class and identifier. */
static void print_chain(const __pmHashNode *n, const lrec *r)
{
    for (const __pmLogLabelSet *e = n->data; e != NULL; e = e->next) {
        struct timespec t = {(time_t)e->stamp.sec, (long)e->stamp.nsec};
        if (arch_cmp(&t, &r->t) == 0)
            pmPrintLabelSets(stdout, (int)e->ident, e->type, e->labelsets, e->nsets);
    }
}

static void print_entries(__pmHashCtl *types, const lrec *r)
{
    __pmHashNode *n = __pmHashSearch((unsigned)r->type, types);
    __pmHashCtl *idents;

    if (n == NULL)
        return;
    idents = n->data;
    if (r->type == PM_LABEL_CONTEXT) {
        for (int i = 0; i < idents->hsize; i++)
            for (n = idents->hash[i]; n != NULL; n = n->next)
                print_chain(n, r);
    } else if ((n = __pmHashSearch((unsigned)r->ident, idents)) != NULL) {
        print_chain(n, r);
    }
}

static int dump_labels(dump *d)
{
    lrecs l = {0, 0, NULL};
    __pmHashCtl types;
    int sts;

    __pmHashInit(&types);
    if ((sts = arch_label_table(d->set, &types)) >= 0)
        sts = collect_labels(&types, &l);
    if (sts >= 0) {
        if (l.n > 0)
            qsort(l.r, (size_t)l.n, sizeof(*l.r), label_cmp);
        printf("\nMetric Labels in the Log ...\n");
        for (int i = 0; i < l.n; i++) {
            if (i > 0 && label_cmp(&l.r[i - 1], &l.r[i]) == 0)
                continue;
            if (i == 0 || arch_cmp(&l.r[i - 1].t, &l.r[i].t) != 0) {
                print_stamp(d, &l.r[i].t);
                printf("\n");
            }
            print_entries(&types, &l.r[i]);
        }
    }
    free(l.r);
    arch_label_table_free(&types);
    return sts < 0 ? sts : 0;
}

/* Help text for -h: every text of the .meta, PMIDs before InDoms, each
 * kind by identifier, the one-line text before the full one. */
typedef struct htext {
    int type, ident;
    const char *text;
} htext;

typedef struct htexts {
    int n, cap;
    htext *t;
} htexts;

static int collect_text(int type, int ident, const char *text, void *arg)
{
    htexts *h = arg;
    if (h->n == h->cap) {
        int cap = h->cap ? h->cap * 2 : 32;
        htext *t = realloc(h->t, (size_t)cap * sizeof(*t));
        if (t == NULL)
            return -ENOMEM;
        h->t = t;
        h->cap = cap;
    }
    h->t[h->n++] = (htext){type, ident, text};
    return 0;
}

static int text_cmp(const void *a, const void *b)
{
    const htext *x = a, *y = b;
    int xi = (x->type & PM_TEXT_INDOM) != 0, yi = (y->type & PM_TEXT_INDOM) != 0;
    int xh = (x->type & PM_TEXT_HELP) != 0, yh = (y->type & PM_TEXT_HELP) != 0;

    if (xi != yi)
        return xi - yi;
    if (x->ident != y->ident)
        return (unsigned)x->ident < (unsigned)y->ident ? -1 : 1;
    return xh - yh;
}

static int dump_help(dump *d)
{
    htexts h = {0, 0, NULL};
    int sts = arch_text_walk(d->set, collect_text, &h);

    if (sts >= 0) {
        if (h.n > 0)
            qsort(h.t, (size_t)h.n, sizeof(*h.t), text_cmp);
        printf("\nMetric Help Text in the Log ...\n");
        for (int i = 0; i < h.n; i++) {
            const htext *t = &h.t[i];
            if (t->type & PM_TEXT_INDOM)
                printf("InDom: %s", pmInDomStr((pmInDom)t->ident));
            else
                printf("PMID: %s", pmIDStr((pmID)t->ident));
            if (t->type & PM_TEXT_HELP)
                printf("\n%s\n", t->text);
            else
                printf(" [%s]\n", t->text);
        }
    }
    free(h.t);
    return sts < 0 ? sts : 0;
}

static void dump_index(dump *d)
{
    for (int a = 0; a < arch_count(d->set); a++) {
        uint64_t n = arch_nindex(d->set, a);
        char buf[96];
        dump z = *d;
        arch_label zl = *d->label;
        size_t len;

        /* the heading's tabs: as many as a stamp at the Epoch with -x,
         * its offset (-xx) from itself, 0 */
        zl.start.tv_sec = 0;
        zl.start.tv_nsec = 0;
        z.label = &zl;
        stamp_str(&z, &zl.start, buf, sizeof(buf));
        len = strlen(buf);
        printf("\nTemporal Index\n");
        for (size_t k = 0; k <= len / 8; k++)
            putchar('\t');
        printf("Log Vol    end(meta)     end(log)\n");
        arch_ti ti, prev;
        for (uint64_t j = 0; j < n; j++) {
            if (arch_index_entry(d->set, a, j, &ti) < 0)
                break;
            index_signed_stamp(d, &ti);
            print_stamp(d, &ti.stamp);
            printf("\t%7d %12llu %12llu\n", ti.vol, (unsigned long long)ti.meta_off,
                   (unsigned long long)ti.data_off);
            index_check(d, &ti);
            if (j > 0)
                index_order_check(d, &prev, &ti);
            prev = ti;
        }
    }
}

/* ------------------------------------------------------------------ */
/* Data records. */

/* The name of instance inst of desc's domain at t, or NULL. */
static const char *inst_name(dump *d, const pmDesc *desc, const struct timespec *t, int inst)
{
    arch_indom_view v;
    if (arch_indom_at(d->set, desc->indom, t, &v) == 0) {
        for (int i = 0; i < v.n; i++)
            if (v.inst[i] == inst)
                return v.name[i];
    }
    return NULL;
}

static void print_inst(dump *d, const pmDesc *desc, const struct timespec *t, int inst)
{
    const char *name = inst_name(d, desc, t, inst);
    if (name != NULL)
        printf("inst [%d or \"%s\"]", inst, name);
    else
        printf("inst [%d or ???]", inst);
}

/*
 * One parameter of an event record, the index-th of its record: event.flags
 * (first) ends the record's heading with the flags, event.missed after the
 * missed flag says how many were missed, the others print their value.
 */
static void print_param(dump *d, const pmValueSet *vs, int index, unsigned *flags)
{
    pmDesc desc;
    int sts;

    if (index == 0 && vs->pmid == pmID_build(511, 0, 1)) {
        *flags = (unsigned)vs->vlist[0].value.lval;
        printf(" flags 0x%x (%s) ---\n", *flags, pmEventFlagsStr((int)*flags));
        return;
    }
    if (index == 0)
        printf(" ---\n");
    if ((*flags & PM_EVENT_FLAG_MISSED) && index == 1 && vs->pmid == pmID_build(511, 0, 2)) {
        printf("        ==> %d missed event records\n", vs->vlist[0].value.lval);
        return;
    }
    if (has_name(d, vs->pmid)) {
        printf("        %s (", pmIDStr(vs->pmid));
        print_names(d, vs->pmid, "<nonames>");
        printf("):");
    } else
        printf("        PMID: %s:", pmIDStr(vs->pmid));
    if ((sts = arch_desc(d->set, vs->pmid, &desc)) < 0) {
        printf(" pmLookupDesc: %s\n", pmErrStr(sts));
        return;
    }
    printf(" value ");
    pmPrintValue(stdout, vs->valfmt, desc.type, &vs->vlist[0], 1);
    printf("\n");
}

/* An event record's heading up to its stamp; then its parameters. */
static void print_event(dump *d, int r, const struct timespec *t, int highres, int numpmid,
                        pmValueSet *const *vset)
{
    unsigned flags = 0;

    printf("        --- event record [%d] timestamp ", r);
    if (highres) {
        /* always the time of day to the nanosecond, as pmPrintHighResStamp */
        struct tm tm;
        time_t sec = t->tv_sec;
        pmLocaltime(&sec, &tm);
        printf("%02d:%02d:%02d.%09ld", tm.tm_hour, tm.tm_min, tm.tm_sec, (long)t->tv_nsec);
    } else {
        /* microseconds, as in a version 2 archive, whatever the archive's */
        dump v2 = *d;
        v2.v3 = 0;
        arch_label l = *d->label; /* -xx's offset from a start in microseconds */
        l.start.tv_nsec -= l.start.tv_nsec % 1000;
        v2.label = &l;
        if (v2.xflag > 2)
            v2.xflag = 2; /* and no seconds since the Epoch */
        print_stamp(&v2, t);
    }
    if (numpmid == 0) {
        printf(" ---\n\t          No parameters\n");
        return;
    }
    for (int p = 0; p < numpmid; p++)
        print_param(d, vset[p], p, &flags);
}

/* The count of records, with those missed, and its noun. */
static void print_event_count(int n, pmValueSet *const *const *vsets, const int *numpmids)
{
    int missed = 0;
    for (int r = 0; r < n; r++)
        if (numpmids[r] == 2 && vsets[r][0]->pmid == pmID_build(511, 0, 1) &&
            (vsets[r][0]->vlist[0].value.lval & PM_EVENT_FLAG_MISSED) &&
            vsets[r][1]->pmid == pmID_build(511, 0, 2))
            missed += vsets[r][1]->vlist[0].value.lval;
    printf("%d", n);
    if (missed > 0)
        printf(" (and %d missed)", missed);
    printf(n + missed == 1 ? " event record\n" : " event records\n");
}

/*
 * The j-th value of vs, an event metric's: its heading (name and
 * instance) and each record unpacked, as PCP's pmdumplog prints them.
 */
static void print_events(dump *d, const pmValueSet *vs, int j, const pmDesc *desc,
                         const struct timespec *t)
{
    int highres = desc->type == PM_TYPE_HIGHRES_EVENT;
    int n;
    void **res = NULL;

    printf("    %s (", pmIDStr(vs->pmid));
    print_names(d, vs->pmid, "<nonames>");
    if (desc->indom != PM_INDOM_NULL) {
        const char *name = inst_name(d, desc, t, vs->vlist[j].inst);
        if (name != NULL)
            printf("[%d or \"%s\"])", vs->vlist[j].inst, name);
        else
            printf("[%d or ???])", vs->vlist[j].inst);
    } else
        printf(")");
    printf(": ");
    if (highres)
        n = pmUnpackHighResEventRecords((pmValueSet *)vs, j, (pmHighResResult ***)&res);
    else
        n = pmUnpackEventRecords((pmValueSet *)vs, j, (pmResult ***)&res);
    if (n < 0) {
        printf("%s: %s\n", highres ? "pmUnpackHighResEventRecords" : "pmUnpackEventRecords",
               pmErrStr(n));
        return;
    }
    if (n == 0)
        printf("No event records\n");
    else {
        pmValueSet *const **vsets = malloc((size_t)n * sizeof(*vsets));
        int *numpmids = malloc((size_t)n * sizeof(int));
        struct timespec *stamps = malloc((size_t)n * sizeof(*stamps));
        if (vsets == NULL || numpmids == NULL || stamps == NULL) {
            printf("%s\n", pmErrStr(-ENOMEM));
            n = 0;
        }
        for (int r = 0; r < n; r++) {
            if (highres) {
                pmHighResResult *hr = res[r];
                vsets[r] = hr->vset;
                numpmids[r] = hr->numpmid;
                stamps[r] = hr->timestamp;
            } else {
                pmResult *lr = res[r];
                vsets[r] = lr->vset;
                numpmids[r] = lr->numpmid;
                stamps[r].tv_sec = lr->timestamp.tv_sec;
                stamps[r].tv_nsec = lr->timestamp.tv_usec * 1000;
            }
        }
        if (n > 0)
            print_event_count(n, vsets, numpmids);
        for (int r = 0; r < n; r++)
            print_event(d, r, &stamps[r], highres, numpmids[r], vsets[r]);
        free(vsets);
        free(numpmids);
        free(stamps);
    }
    if (highres)
        pmFreeHighResEventResult((pmHighResResult **)res);
    else
        pmFreeEventResult((pmResult **)res);
}

static void print_vset(dump *d, const pmValueSet *vs, int valfmt, const struct timespec *t)
{
    pmDesc desc;
    int have = arch_desc(d->set, vs->pmid, &desc) == 0;

    if (have && vs->numval > 0 &&
        (desc.type == PM_TYPE_EVENT || desc.type == PM_TYPE_HIGHRES_EVENT)) {
        for (int j = 0; j < vs->numval; j++)
            print_events(d, vs, j, &desc, t);
        return;
    }
    printf("    %s (", pmIDStr(vs->pmid));
    print_names(d, vs->pmid, "<nonames>");
    printf("):");
    if (vs->numval < 0) {
        printf(" %s\n", pmErrStr(vs->numval));
        return;
    }
    if (vs->numval == 0) {
        printf(" No values returned!\n");
        return;
    }
    if (!have) {
        printf(" (no descriptor)\n");
        return;
    }
    for (int j = 0; j < vs->numval; j++) {
        const pmValue *v = &vs->vlist[j];
        if (vs->numval > 1)
            printf("\n        ");
        else
            printf(" ");
        if (desc.indom != PM_INDOM_NULL) {
            print_inst(d, &desc, t, v->inst);
            printf(" ");
        }
        printf("value ");
        pmPrintValue(stdout, valfmt, desc.type, v, 1);
    }
    printf("\n");
}

static int selected(const dump *d, pmID pmid)
{
    if (d->nsel == 0)
        return 1;
    for (int i = 0; i < d->nsel; i++)
        if (d->sel[i] == pmid)
            return 1;
    return 0;
}

/* The value sets of res to print (into *n), and whether res is printed:
 * with metrics named, only when it has some of them (or is a <mark> and
 * -M was given). */
static int record_shown(const dump *d, const pmHighResResult *res, int *n)
{
    *n = 0;
    if (d->nsel == 0) {
        *n = res->numpmid;
        return 1;
    }
    for (int i = 0; i < res->numpmid; i++)
        *n += selected(d, res->vset[i]->pmid);
    return *n > 0 || (res->numpmid == 0 && d->mflag);
}

static void print_record(dump *d, const arch_record *rec, const pmHighResResult *res)
{
    int n;

    if (!record_shown(d, res, &n))
        return;
    printf("\n");
    if (d->sflag)
        printf("[%u bytes]\n", rec->len);
    print_stamp(d, &res->timestamp);
    if (res->numpmid == 0) {
        printf("  <mark>\n");
        return;
    }
    printf(" %d metric%s\n", n, n == 1 ? "" : "s");
    if (d->nsel > 0) {
        for (int s = 0; s < d->nsel; s++)
            for (int i = 0; i < res->numpmid; i++)
                if (res->vset[i]->pmid == d->sel[s])
                    print_vset(d, res->vset[i], res->vset[i]->valfmt, &res->timestamp);
        return;
    }
    for (int i = 0; i < res->numpmid; i++)
        print_vset(d, res->vset[i], res->vset[i]->valfmt, &res->timestamp);
}

static int before_start(const dump *d, const struct timespec *t)
{
    return t->tv_sec < d->start.tv_sec ||
           (t->tv_sec == d->start.tv_sec && t->tv_nsec < d->start.tv_nsec);
}

static int in_window(const dump *d, const struct timespec *t)
{
    if (before_start(d, t))
        return 0;
    if (t->tv_sec > d->finish.tv_sec ||
        (t->tv_sec == d->finish.tv_sec && t->tv_nsec > d->finish.tv_nsec))
        return 0;
    return 1;
}

/* -r's first line: the time of the last record in the window, to the
 * second. */
static void reverse_header(const struct timespec *t)
{
    char buf[32];
    time_t sec = t->tv_sec;
    printf("\nLog finished at %24.24s - dump in reverse order\n", pmCtime(&sec, buf));
}

/* No index entry at or after t: PCP then reads back from the files' end,
 * which for an archive whose end cannot be found gives nothing. */
static int index_before(dump *d, const struct timespec *t)
{
    uint64_t n = arch_nindex(d->set, 0);
    arch_ti ti;

    for (uint64_t j = 0; j < n; j++) {
        if (arch_index_entry(d->set, 0, j, &ti) < 0)
            break;
        if (ti.stamp.tv_sec > t->tv_sec ||
            (ti.stamp.tv_sec == t->tv_sec && ti.stamp.tv_nsec >= t->tv_nsec))
            return 0;
    }
    return 1;
}

static int dump_records(dump *d)
{
    int started = 0, shown;
    int stop_first =
        d->end_unknown && !d->rflag && opts.start_optarg != NULL && opts.finish_optarg == NULL;
    arch_cursor *c = arch_cursor_new(d->set);
    int dir = d->rflag ? ARCH_BACK : ARCH_FORW, sts;
    arch_record rec;

    if (c == NULL)
        return -ENOMEM;
    if (d->end_unknown && d->rflag && index_before(d, &d->finish)) {
        /* PCP's dump is empty, backwards from past the index */
        arch_cursor_free(c);
        return 0;
    }
    if (d->rflag && d->end_unknown)
        sts = arch_cursor_seek(c, &d->finish, ARCH_BACK);
    else if (d->rflag)
        sts = arch_cursor_end(c);
    else
        sts = arch_cursor_seek(c, &d->start, ARCH_FORW);
    while (sts >= 0 && (sts = arch_cursor_step(c, dir, &rec)) == 1) {
        pmHighResResult *res;
        int inside = in_window(d, &rec.stamp), early = !inside && before_start(d, &rec.stamp);
        if (!inside) {
            if (d->rflag ? started && early : rec.stamp.tv_sec > d->finish.tv_sec)
                break;
            if (!d->rflag || !early)
                continue;
            /* backwards past -S: the first record shown still dates the
             * heading, as in PCP */
        }
        if ((sts = arch_record_result(d->set, &rec, &res)) < 0)
            break;
        if (!started && record_shown(d, res, &shown)) {
            if (stop_first) {
                /* PCP stops here, -S with an end of time (as observed:
                 * with any finite -T it goes on) */
                pmFreeHighResResult(res);
                break;
            }
            if (d->rflag)
                reverse_header(&rec.stamp);
            started = 1;
        }
        if (inside)
            print_record(d, &rec, res);
        pmFreeHighResResult(res);
    }
    arch_cursor_free(c);
    return sts < 0 ? sts : 0;
}

/* ------------------------------------------------------------------ */

/* pmid is among those selected so far (each is dumped once). */
static int selected_once(const dump *d, pmID pmid)
{
    return d->nsel > 0 && selected(d, pmid);
}

/* The metrics named after the archive: each name (a leaf or a subtree of
 * the archive's namespace) adds its PMIDs, in the namespace's order. */
static int select_metrics(dump *d, int argc, char **argv)
{
    int total = d->pmns.n, ok = 0;

    d->sel = malloc((size_t)(total > 0 ? total : 1) * (size_t)argc * sizeof(pmID));
    if (d->sel == NULL)
        return -ENOMEM;
    for (int a = 0; a < argc; a++) {
        size_t len = strlen(argv[a]);
        int found = 0;
        for (int i = 0; i < total; i++) {
            const char *name = d->pmns.names[i];
            if (strcmp(name, argv[a]) == 0 ||
                (strncmp(name, argv[a], len) == 0 && name[len] == '.')) {
                if (!selected_once(d, d->pmns.pmids[i]))
                    d->sel[d->nsel++] = d->pmns.pmids[i];
                found = 1;
            }
        }
        if (found)
            ok++;
        else
            fprintf(stderr, "%s: pmLookupName(%s): %s\n", pmGetProgname(), argv[a],
                    pmErrStr(PM_ERR_NAME));
    }
    if (ok == 0) {
        fprintf(stderr, "No metric names can be translated, dump abandoned\n");
        return -1;
    }
    return 0;
}

/* The base name of the archive named, as its files' names start: the
 * name itself when it has a .meta (20180416.10.00 is a base name), else
 * without a .meta, .index or volume suffix. */
static void base_name(dump *d, const char *archive)
{
    char *dot;
    snprintf(d->base, sizeof(d->base), "%s", archive);
    if (file_exists(d, "meta"))
        return;
    if ((dot = strrchr(d->base, '.')) != NULL && strchr(dot, '/') == NULL)
        for (size_t i = 1; i < sizeof(zip_suffix) / sizeof(zip_suffix[0]); i++)
            if (strcmp(dot, zip_suffix[i]) == 0)
                *dot = '\0';
    if ((dot = strrchr(d->base, '.')) != NULL && strchr(dot, '/') == NULL) {
        const char *sfx = dot + 1;
        if (strcmp(sfx, "meta") == 0 || strcmp(sfx, "index") == 0 ||
            (*sfx >= '0' && *sfx <= '9' && strspn(sfx, "0123456789") == strlen(sfx)))
            *dot = '\0';
    }
}

/* -S and -T over the archive's span; -z and -Z.  An end that cannot be
 * found is warned about and taken as the end of time, as PCP does. */
static int window_and_zone(dump *d, const char *archive)
{
    char *msg = NULL;
    struct timespec origin, end;
    int sts;

    if ((sts = arch_end(d->set, &end)) < 0) {
        pmkit_archive_end_warning(archive, sts);
        end.tv_sec = (time_t)(~(unsigned long long)0 >> 1);
        end.tv_nsec = 0;
        d->end_unknown = 1;
    }
    d->end = end;
    d->start = d->label->start;
    d->finish = end;
    if (opts.tzflag) {
        if ((sts = pmNewZone(d->label->timezone)) < 0)
            return sts;
        printf("Note: timezone set to local timezone of host \"%s\" from archive\n\n",
               d->label->hostname);
    } else if (opts.timezone != NULL) {
        if ((sts = pmNewZone(opts.timezone)) < 0) {
            fprintf(stderr, "%s: Cannot set timezone to \"%s\": %s\n", pmGetProgname(),
                    opts.timezone, pmErrStr(sts));
            return -1;
        }
        printf("Note: timezone set to \"TZ=%s\"\n\n", opts.timezone);
    }
    if (opts.start_optarg == NULL && opts.finish_optarg == NULL)
        return 0;
    if (pmParseHighResTimeWindow(opts.start_optarg, opts.finish_optarg, NULL, NULL,
                                 &d->label->start, &end, &d->start, &d->finish, &origin,
                                 &msg) < 0) {
        fprintf(stderr, "%s: invalid time window.\n%s\n", pmGetProgname(), msg ? msg : "");
        free(msg);
        return -1;
    }
    free(msg);
    return 0;
}

#define DO_LABEL      1
#define DO_LABEL_LONG 2
#define DO_DESCS      4
#define DO_INDOMS     8
#define DO_ONDISK     16
#define DO_INDEX      32
#define DO_RECORDS    64
#define DO_HELP       128
#define DO_LABELS     256

/* Everything after the archive is open, in PCP's order of sections: 0,
 * or < 0 when the run failed (reported). */
static int run(dump *d, const char *archive, int nnames, char **names, int what)
{
    int sts;

    d->label = arch_label_of(d->set, 0);
    d->v3 = d->label->version >= PM_LOG_VERS03;
    base_name(d, archive);
    if ((d->nsfile ? pmns_loaded(&d->pmns) : pmns_order(d, &d->pmns)) < 0) {
        fprintf(stderr, "%s: %s\n", pmGetProgname(), pmErrStr(-ENOMEM));
        return -1;
    }
    if (window_and_zone(d, archive) < 0)
        return -1;
    if (nnames > 0 && select_metrics(d, nnames, names) < 0)
        return -1;
    if (what & DO_LABEL)
        dump_label(d, (what & DO_LABEL_LONG) != 0);
    if (what & DO_DESCS)
        dump_descs(d);
    if (what & DO_LABELS)
        dump_labels(d);
    if (what & DO_HELP)
        dump_help(d);
    if (what & DO_ONDISK)
        dump_ondisk(d);
    if (what & DO_INDOMS)
        dump_indoms(d);
    if (what & DO_INDEX)
        dump_index(d);
    if ((what & DO_RECORDS) && (sts = dump_records(d)) < 0) {
        fflush(stdout);
        fprintf(stderr, "%s: pmFetch: %s\n", pmGetProgname(), pmErrStr(sts));
        return sts;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* -v: one file's records as bytes. */

/* The next big-endian 32-bit word of f into *w: 1, or 0 at the end of the
 * file (with *got the bytes there were). */
static int read_word(FILE *f, int32_t *w, int *got)
{
    uint32_t v = 0;
    int c;

    for (*got = 0; *got < 4; (*got)++) {
        if ((c = getc(f)) == EOF)
            return 0;
        v = v << 8 | (uint32_t)c;
    }
    *w = (int32_t)v;
    return 1;
}

/*
 * Each record of file as PCP's pmdumplog -v prints it: its length and
 * offset, its payload in hex (4 bytes a group, 32 a line), and its
 * trailing length checked.  A short payload or a missing trailer says
 * "Unexpected EOF", a wrong trailer "Trailer botch", and either ends the
 * dump, as does a partial length or trailer (silently); exit status 0
 * whatever the bytes, 1 when the file cannot be opened.
 */
static int raw_dump(const char *file)
{
    FILE *f = fopen(file, "r");
    long long off = 0;
    int32_t len, check;
    int got;

    if (f == NULL) {
        fprintf(stderr, "%s: Cannot open \"%s\": %s\n", pmGetProgname(), file, strerror(errno));
        return 1;
    }
    printf("Raw dump of physical archive file \"%s\" ...\n", file);
    while (read_word(f, &len, &got)) {
        long long payload = (long long)len - 8, i;
        printf("Dump ... record len: %d @ offset: %lld", len, off);
        off += 4;
        for (i = 0; i < payload; i++) {
            int c = getc(f);
            if (c == EOF) {
                printf("Unexpected EOF\n");
                break;
            }
            printf("%s%s%02x", i % 32 == 0 ? "\n" : "", i % 4 == 0 ? " " : "", c);
        }
        off += i;
        printf("\n");
        if (!read_word(f, &check, &got)) {
            if (got == 0)
                printf("Unexpected EOF\n");
            break;
        }
        off += 4;
        if (check != len) {
            printf("Trailer botch: %d != %d\n", check, len);
            break;
        }
    }
    fclose(f);
    return 0;
}

/* PCP 6.0.3's pmdumplog takes one archive, not a list or a directory. */
static int multi_archive(const char *archive)
{
    struct stat sb;

    if (strchr(archive, ',') == NULL && (stat(archive, &sb) < 0 || !S_ISDIR(sb.st_mode)))
        return 0;
    fprintf(stderr, "%s: Multiple archives are not supported\n", pmGetProgname());
    return 1;
}

/* The options (a switch over PCP's letters: over 60 lines), then run(). */
int main(int argc, char **argv)
{
    int c, dflag = 0, eflag = 0, hflag = 0, Iflag = 0, iflag = 0, lflag = 0, mflag = 0, tflag = 0,
           sts;
    dump d;
    const char *archive, *vfile = NULL;

    memset(&d, 0, sizeof(d));
    while ((c = pmGetOptions(argc, argv, &opts)) != EOF) {
        switch (c) {
        case 'a':
            dflag = iflag = mflag = d.sflag = tflag = 1;
            lflag = 2;
            break;
        case 'd':
            dflag = 1;
            break;
        case 'e':
            eflag = 1;
            break;
        case 'h':
            hflag = 1;
            break;
        case 'I':
            Iflag = 1;
            break;
        case 'i':
            iflag = 1;
            break;
        case 'L':
            lflag = 2;
            break;
        case 'l':
            if (lflag == 0)
                lflag = 1;
            break;
        case 'M':
            d.mflag = 1;
            break;
        case 'm':
            mflag = 1;
            break;
        case 'r':
            d.rflag = 1;
            break;
        case 's':
            d.sflag = 1;
            break;
        case 't':
            tflag = 1;
            break;
        case 'v':
            vfile = opts.optarg;
            break;
        case 'x':
            d.xflag++;
            break;
        default:
            opts.errors++;
            break;
        }
    }
    if (opts.flags & PM_OPTFLAG_EXIT) { /* --version, whatever else is wrong */
        pmUsageMessage(&opts);
        return 0;
    }
    if (opts.errors || (vfile ? opts.optind != argc : opts.optind > argc - 1)) {
        pmUsageMessage(&opts);
        return 1;
    }
    outfile_watch_stdout();
    if (vfile != NULL) {
        sts = raw_dump(vfile);
        return outfile_stdout_close() < 0 ? 1 : sts;
    }
    archive = argv[opts.optind++];
    if (multi_archive(archive))
        return 1;
    d.nsfile = opts.nsflag;
    if ((sts = arch_open(archive, 0, &d.set)) < 0) {
        fprintf(stderr, "%s: Cannot open archive \"%s\": %s\n", pmGetProgname(), archive,
                pmErrStr(sts));
        return 1;
    }
    /* -s sizes the records dumped, and dumps none by itself */
    if (!(dflag | eflag | hflag | Iflag | iflag | lflag | tflag))
        mflag = 1;
    sts =
        run(&d, archive, argc - opts.optind, argv + opts.optind,
            (dflag ? DO_DESCS : 0) | (iflag ? DO_INDOMS : 0) | (Iflag ? DO_ONDISK : 0) |
                (tflag ? DO_INDEX : 0) | (mflag ? DO_RECORDS : 0) | (lflag ? DO_LABEL : 0) |
                (hflag ? DO_HELP : 0) | (eflag ? DO_LABELS : 0) | (lflag == 2 ? DO_LABEL_LONG : 0));
    arch_close(d.set);
    free(d.sel);
    free_pmns(&d);
    return outfile_stdout_close() < 0 || sts < 0 ? 1 : 0;
}
