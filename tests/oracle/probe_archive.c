/*
 * probe_archive.c - an archive read through whichever libpcp this is
 * linked with; archive_diff.sh runs the pmkit and the Debian builds over
 * the same archives and compares what they print.
 *
 *   probe_archive [-s SECTIONS] [-v] [-f FLAGS] ARCHIVE
 *
 * SECTIONS (default "lnditLfb") chooses what is printed, in this order:
 *   l  pmGetArchiveLabel, pmGetHighResArchiveLabel, pmGetArchiveEnd and
 *      pmGetHighResArchiveEnd
 *   n  the names of a traversal from the root, each looked up again, and
 *      every name of each PMID (pmNameAll, pmNameID)
 *   d  the descriptor of each PMID
 *   i  each instance domain: pmGetInDomArchive, pmGetInDom at the start,
 *      and every instance looked up both ways in both forms
 *   t  one-line and long help of each PMID (but the derived metrics') and
 *      instance domain
 *   L  the labels of each level of each metric, and the context's
 *   f  every record forward (pmFetchArchive), with the name of each
 *      instance at that time (pmNameInDom)
 *   b  every record backward from the end (pmSetMode(PM_MODE_BACK) and
 *      pmFetchHighResArchive)
 *   s  pmSetMode to the time of each tenth record (and a microsecond either
 *      side) and one fetch, both ways, but forward near the end (e)
 *   p  pmDupContext mid-way: the copy and the original go on apart
 *   m  every record forward, asking for the label after each
 *   e  a seek forward to the end, and one fetch
 * Records print as one line each with a hash of their contents (their
 * time, every value set, every value's bytes); -v prints the contents.
 * -f FLAGS is ORed into pmNewContext's type (PM_CTXFLAG_NO_FEATURE_CHECK).
 *
 * A record loop (PCP 6.0.3 returns the same <mark> record forever at the
 * end of some multi-archive contexts, docs/compat.md) stops after three
 * repeats with "loop"; no side reads more than RECORD_CAP records.
 */
#include <pcp/pmapi.h>

#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define RECORD_CAP 200000

static int verbose;

/* ------------------------------------------------------------------ */
/* Output: lines, or (records) a hash of the lines. */

static uint64_t hash;
static int hashing;

static void out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void out(const char *fmt, ...)
{
    char buf[8192];
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n >= sizeof(buf))
        n = (int)sizeof(buf) - 1;
    if (hashing && !verbose) {
        for (int i = 0; i < n; i++)
            hash = (hash ^ (unsigned char)buf[i]) * 0x100000001b3ull;
        return;
    }
    fputs(buf, stdout);
}

static const char *err(int sts)
{
    static char buf[PM_MAXERRMSGLEN + 32];

    snprintf(buf, sizeof(buf), "%d %s", sts, pmErrStr(sts));
    return buf;
}

/* ------------------------------------------------------------------ */

static void label_section(void)
{
    pmLogLabel l;
    pmHighResLogLabel h;
    struct timeval tv;
    struct timespec ts;
    int sts;

    memset(&l, 0x5a, sizeof(l));
    if ((sts = pmGetArchiveLabel(&l)) < 0)
        out("label: %s\n", err(sts));
    else
        out("label: magic %x pid %d start %ld.%06ld host \"%.*s\" tz \"%.*s\"\n", l.ll_magic,
            (int)l.ll_pid, (long)l.ll_start.tv_sec, (long)l.ll_start.tv_usec,
            (int)sizeof(l.ll_hostname), l.ll_hostname, (int)sizeof(l.ll_tz), l.ll_tz);
    memset(&h, 0x5a, sizeof(h));
    if ((sts = pmGetHighResArchiveLabel(&h)) < 0)
        out("hlabel: %s\n", err(sts));
    else
        out("hlabel: magic %x pid %d start %lld.%09ld host \"%.*s\" tz \"%.*s\" zone \"%.*s\"\n",
            h.magic, (int)h.pid, (long long)h.start.tv_sec, h.start.tv_nsec,
            (int)sizeof(h.hostname), h.hostname, (int)sizeof(h.timezone), h.timezone,
            (int)sizeof(h.zoneinfo), h.zoneinfo);
    if ((sts = pmGetArchiveEnd(&tv)) < 0)
        out("end: %s\n", err(sts));
    else
        out("end: %ld.%06ld\n", (long)tv.tv_sec, (long)tv.tv_usec);
    if ((sts = pmGetHighResArchiveEnd(&ts)) < 0)
        out("hend: %s\n", err(sts));
    else
        out("hend: %lld.%09ld\n", (long long)ts.tv_sec, ts.tv_nsec);
}

/* ------------------------------------------------------------------ */
/* Names, and the PMIDs and instance domains met on the way. */

static char **names;
static int nnames, namesroom;
static pmID *pmids;
static int npmids;
static pmInDom *indoms;
static int nindoms;

static void collect(const char *name)
{
    if (nnames == namesroom) {
        namesroom = namesroom == 0 ? 256 : namesroom * 2;
        names = realloc(names, (size_t)namesroom * sizeof(*names));
        if (names == NULL)
            exit(2);
    }
    names[nnames++] = strdup(name);
}

static void add_pmid(pmID pmid)
{
    for (int i = 0; i < npmids; i++)
        if (pmids[i] == pmid)
            return;
    pmids = realloc(pmids, (size_t)(npmids + 1) * sizeof(*pmids));
    if (pmids == NULL)
        exit(2);
    pmids[npmids++] = pmid;
}

static void add_indom(pmInDom indom)
{
    if (indom == PM_INDOM_NULL)
        return;
    for (int i = 0; i < nindoms; i++)
        if (indoms[i] == indom)
            return;
    indoms = realloc(indoms, (size_t)(nindoms + 1) * sizeof(*indoms));
    if (indoms == NULL)
        exit(2);
    indoms[nindoms++] = indom;
}

static void gather(int print)
{
    int sts = pmTraversePMNS("", collect);

    if (print)
        out("traverse: %d\n", sts);
    for (int i = 0; i < nnames; i++) {
        pmID pmid;
        char *name = names[i];
        sts = pmLookupName(1, (const char **)&name, &pmid);
        if (print)
            out("name %s: %s\n", name, sts < 0 ? err(sts) : pmIDStr(pmid));
        if (sts >= 0)
            add_pmid(pmid);
    }
    for (int i = 0; i < npmids; i++) {
        pmDesc d;
        if (pmLookupDesc(pmids[i], &d) >= 0)
            add_indom(d.indom);
    }
}

static void names_section(void)
{
    for (int i = 0; i < npmids; i++) {
        char **all, *one;
        int n = pmNameAll(pmids[i], &all), sts;
        if (n < 0) {
            out("nameall %s: %s\n", pmIDStr(pmids[i]), err(n));
        } else {
            out("nameall %s: %d", pmIDStr(pmids[i]), n);
            for (int j = 0; j < n; j++)
                out(" %s", all[j]);
            out("\n");
            free(all);
        }
        if ((sts = pmNameID(pmids[i], &one)) < 0) {
            out("nameid %s: %s\n", pmIDStr(pmids[i]), err(sts));
        } else {
            out("nameid %s: %s\n", pmIDStr(pmids[i]), one);
            free(one);
        }
    }
}

static void desc_section(void)
{
    for (int i = 0; i < npmids; i++) {
        pmDesc d;
        int sts = pmLookupDesc(pmids[i], &d);
        if (sts < 0)
            out("desc %s: %s\n", pmIDStr(pmids[i]), err(sts));
        else
            out("desc %s: type %d indom %s sem %d units %s\n", pmIDStr(d.pmid), d.type,
                pmInDomStr(d.indom), d.sem, pmUnitsStr(&d.units));
    }
}

/* ------------------------------------------------------------------ */

/* Is the first word of name[j] (k bytes) one PCP may find for another
 * instance: one whose first word is a shorter prefix of it?  (PCP's
 * lookups match the first word as a prefix, docs/compat.md.) */
static int ambiguous(int n, char *const *name, int j, size_t k)
{
    for (int i = 0; i < n; i++) {
        size_t w = strcspn(name[i], " ");
        if (i != j && name[i][w] == ' ' && w < k && strncmp(name[i], name[j], w) == 0)
            return 1;
    }
    return 0;
}

/* Instances looked up one by one, per instance domain (PCP's lookups in
 * archives take time in proportion to the domain's size). */
#define LOOKUPS 100

static void inst_lookups(pmInDom indom, int n, const int *inst, char *const *name)
{
    for (int j = 0; j < n && j < LOOKUPS; j++) {
        char *s;
        int sts = pmNameInDomArchive(indom, inst[j], &s);
        if (sts < 0) {
            out("  namearch %d: %s\n", inst[j], err(sts));
        } else {
            out("  namearch %d: \"%s\"\n", inst[j], s);
            free(s);
        }
        out("  lookarch \"%s\": %d\n", name[j], pmLookupInDomArchive(indom, name[j]));
        if ((sts = pmNameInDom(indom, inst[j], &s)) < 0) {
            out("  name %d: %s\n", inst[j], err(sts));
        } else {
            out("  name %d: \"%s\"\n", inst[j], s);
            free(s);
        }
        out("  look \"%s\": %d\n", name[j], pmLookupInDom(indom, name[j]));
        /* the first word alone, as PCP matches it too */
        {
            char word[1024];
            size_t k = strcspn(name[j], " ");
            if (k < strlen(name[j]) && k < sizeof(word) && !ambiguous(n, name, j, k)) {
                memcpy(word, name[j], k);
                word[k] = '\0';
                out("  lookword \"%s\": %d %d\n", word, pmLookupInDomArchive(indom, word),
                    pmLookupInDom(indom, word));
            }
        }
    }
}

static void print_indom(const char *what, pmInDom indom, int n, const int *inst, char *const *name)
{
    out("%s %s: %d\n", what, pmInDomStr(indom), n);
    for (int j = 0; j < n; j++)
        out("  %d \"%s\"\n", inst[j], name[j]);
}

/* pmGetInDomArchive and the lookups of its instances, in a child process:
 * PCP 6.0.3 crashes there on v3 archives whose deltas remove instances
 * (docs/compat.md).  The child's output is printed if it ends normally. */
static void archive_lookups(pmInDom indom)
{
    int fds[2], status;
    char buf[4096];
    ssize_t got;
    pid_t pid;

    fflush(stdout);
    if (pipe(fds) < 0 || (pid = fork()) < 0) {
        out("indomarch %s: fork failed\n", pmInDomStr(indom));
        return;
    }
    if (pid == 0) {
        int *inst;
        char **name;
        int n;
        close(fds[0]);
        /* glibc's report of a corrupted heap goes to stderr: into the pipe */
        if (dup2(fds[1], 1) < 0 || dup2(fds[1], 2) < 0)
            _exit(3);
        n = pmGetInDomArchive(indom, &inst, &name);
        if (n < 0) {
            out("indomarch %s: %s\n", pmInDomStr(indom), err(n));
        } else {
            print_indom("indomarch", indom, n, inst, name);
            inst_lookups(indom, n, inst, name);
        }
        fflush(stdout);
        _exit(0);
    }
    close(fds[1]);
    {
        char *all = NULL;
        size_t len = 0;
        while ((got = read(fds[0], buf, sizeof(buf))) > 0) {
            all = realloc(all, len + (size_t)got + 1);
            memcpy(all + len, buf, (size_t)got);
            len += (size_t)got;
        }
        close(fds[0]);
        waitpid(pid, &status, 0);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
            fwrite(all, 1, len, stdout);
        else
            out("indomarch %s: crashed\n", pmInDomStr(indom));
        free(all);
    }
}

static void indom_section(void)
{
    for (int i = 0; i < nindoms; i++) {
        int *inst;
        char **name;
        int n;
        archive_lookups(indoms[i]);
        if ((n = pmGetInDom(indoms[i], &inst, &name)) < 0) {
            out("indom %s: %s\n", pmInDomStr(indoms[i]), err(n));
        } else {
            print_indom("indom", indoms[i], n, inst, name);
            if (n > 0) {
                free(inst);
                free(name);
            }
        }
        out("  namearch 987654: %d\n", pmNameInDomArchive(indoms[i], 987654, &(char *){NULL}));
        out("  lookarch \"no such\": %d\n", pmLookupInDomArchive(indoms[i], "no such"));
    }
    {
        int *inst = NULL, n;
        char **name = NULL;
        n = pmGetInDomArchive(pmInDom_build(1, 1), &inst, &name);
        out("indomarch 1.1: %d\n", n);
        if (n > 0) { /* (LeakSanitizer in ASan builds) */
            free(inst);
            free(name);
        }
    }
}

/* ------------------------------------------------------------------ */

static void text_one(const char *what, int sts, char *text)
{
    if (sts < 0) {
        out("%s: %s\n", what, err(sts));
        return;
    }
    out("%s: [", what);
    for (const char *p = text; *p != '\0'; p++)
        out(*p == '\n' ? "\\n" : "%c", *p);
    out("]\n");
    free(text);
}

static void text_section(void)
{
    char what[128], *text;
    int sts;

    /* each call before the print: arguments are evaluated in any order;
     * the derived metrics' text is pmkit's own words */
    for (int i = 0; i < npmids; i++) {
        if (pmID_domain(pmids[i]) == 511)
            continue;
        snprintf(what, sizeof(what), "oneline %s", pmIDStr(pmids[i]));
        sts = pmLookupText(pmids[i], PM_TEXT_ONELINE, &text);
        text_one(what, sts, text);
        snprintf(what, sizeof(what), "help %s", pmIDStr(pmids[i]));
        sts = pmLookupText(pmids[i], PM_TEXT_HELP, &text);
        text_one(what, sts, text);
    }
    for (int i = 0; i < nindoms; i++) {
        snprintf(what, sizeof(what), "oneline %s", pmInDomStr(indoms[i]));
        sts = pmLookupInDomText(indoms[i], PM_TEXT_ONELINE, &text);
        text_one(what, sts, text);
        snprintf(what, sizeof(what), "help %s", pmInDomStr(indoms[i]));
        sts = pmLookupInDomText(indoms[i], PM_TEXT_HELP, &text);
        text_one(what, sts, text);
    }
}

/* ------------------------------------------------------------------ */

static void print_sets(const char *what, int n, pmLabelSet *sets)
{
    if (n < 0) {
        out("%s: %s\n", what, err(n));
        return;
    }
    out("%s: %d\n", what, n);
    for (int i = 0; i < n; i++) {
        pmLabelSet *s = &sets[i];
        out("  set inst %d nlabels %d json %.*s\n", (int)s->inst, s->nlabels, (int)s->jsonlen,
            s->json != NULL ? s->json : "");
        for (int j = 0; j < s->nlabels; j++) {
            pmLabel *l = &s->labels[j];
            out("    label %u %u %u %u %u\n", l->name, l->namelen, l->flags, l->value, l->valuelen);
        }
    }
    if (n > 0)
        pmFreeLabelSets(sets, n);
}

static void labels_section(void)
{
    pmLabelSet *sets;
    char what[128];
    int n;

    n = pmGetContextLabels(&sets);
    print_sets("context", n, sets);
    for (int i = 0; i < npmids; i++) {
        pmDesc d;
        pmID p = pmids[i];
        snprintf(what, sizeof(what), "domain %s", pmIDStr(p));
        n = pmGetDomainLabels((int)pmID_domain(p), &sets);
        print_sets(what, n, sets);
        snprintf(what, sizeof(what), "cluster %s", pmIDStr(p));
        n = pmGetClusterLabels(p, &sets);
        print_sets(what, n, sets);
        snprintf(what, sizeof(what), "item %s", pmIDStr(p));
        n = pmGetItemLabels(p, &sets);
        print_sets(what, n, sets);
        if (pmLookupDesc(p, &d) < 0 || d.indom == PM_INDOM_NULL)
            continue;
        snprintf(what, sizeof(what), "indom %s", pmIDStr(p));
        n = pmGetInDomLabels(d.indom, &sets);
        print_sets(what, n, sets);
        snprintf(what, sizeof(what), "instances %s", pmIDStr(p));
        n = pmGetInstancesLabels(d.indom, &sets);
        print_sets(what, n, sets);
        snprintf(what, sizeof(what), "lookup %s", pmIDStr(p));
        n = pmLookupLabels(p, &sets);
        print_sets(what, n, sets);
    }
}

/* ------------------------------------------------------------------ */
/* Records. */

static void hash_bytes(const void *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        hash = (hash ^ ((const unsigned char *)p)[i]) * 0x100000001b3ull;
}

/* The fields print_vset prints, hashed as they are (much faster). */
static void hash_vset(const pmValueSet *vs)
{
    hash_bytes(&vs->pmid, sizeof(vs->pmid));
    hash_bytes(&vs->numval, sizeof(vs->numval));
    if (vs->numval <= 0)
        return;
    hash_bytes(&vs->valfmt, sizeof(vs->valfmt));
    for (int j = 0; j < vs->numval; j++) {
        const pmValue *v = &vs->vlist[j];
        hash_bytes(&v->inst, sizeof(v->inst));
        if (vs->valfmt == PM_VAL_INSITU) {
            hash_bytes(&v->value.lval, sizeof(v->value.lval));
        } else {
            unsigned hdr[2] = {v->value.pval->vtype, v->value.pval->vlen};
            hash_bytes(hdr, sizeof(hdr));
            if (v->value.pval->vlen > PM_VAL_HDR_SIZE)
                hash_bytes(v->value.pval->vbuf, v->value.pval->vlen - PM_VAL_HDR_SIZE);
        }
    }
}

static void print_vset(const pmValueSet *vs, int names_too)
{
    pmDesc d;
    int have = names_too && pmLookupDesc(vs->pmid, &d) >= 0 && d.indom != PM_INDOM_NULL;

    if (hashing && !verbose && !have) {
        hash_vset(vs);
        return;
    }
    out(" %s n %d", pmIDStr(vs->pmid), vs->numval);
    if (vs->numval <= 0) {
        out("\n");
        return;
    }
    out(" fmt %d\n", vs->valfmt);
    for (int j = 0; j < vs->numval; j++) {
        const pmValue *v = &vs->vlist[j];
        out("  inst %d", v->inst);
        if (have) {
            char *s;
            int sts = pmNameInDom(d.indom, v->inst, &s);
            if (sts < 0) {
                out(" (%d)", sts);
            } else {
                out(" \"%s\"", s);
                free(s);
            }
        }
        if (vs->valfmt == PM_VAL_INSITU) {
            out(" = %d\n", v->value.lval);
            continue;
        }
        out(" type %u len %u =", v->value.pval->vtype, v->value.pval->vlen);
        for (unsigned k = 0; k + PM_VAL_HDR_SIZE < v->value.pval->vlen; k++)
            out("%02x", (unsigned char)v->value.pval->vbuf[k]);
        out("\n");
    }
}

/* A record as lines (hashed unless verbose) and its summary line. */
static void print_record(const char *what, long n, const struct timespec *t, int numpmid,
                         pmValueSet *const *vset, int names_too)
{
    hash = 0xcbf29ce484222325ull;
    hashing = 1;
    for (int i = 0; i < numpmid; i++)
        print_vset(vset[i], names_too);
    hashing = 0;
    out("%s %ld: %lld.%09ld np %d", what, n, (long long)t->tv_sec, t->tv_nsec, numpmid);
    if (!verbose)
        out(" h %016" PRIx64, hash);
    out("\n");
}

/* Is this the same empty record as the last?  (PCP's loop.) */
static int looping(const struct timespec *t, int numpmid, struct timespec *last, int *repeats)
{
    if (numpmid == 0 && t->tv_sec == last->tv_sec && t->tv_nsec == last->tv_nsec) {
        if (++*repeats >= 3)
            return 1;
    } else {
        *repeats = 0;
    }
    *last = *t;
    return 0;
}

/* Instance names are looked up for this many values at most (PCP's
 * lookups in archives are slow). */
#define NAMED_VALUES 100000

static void forward_section(const char *what, long cap)
{
    struct timespec last = {-1, 0};
    int repeats = 0, sts = 0;
    long n = 0, named = 0;

    for (; n < cap; n++) {
        pmResult *r;
        struct timespec t;
        if ((sts = pmFetchArchive(&r)) < 0)
            break;
        t.tv_sec = r->timestamp.tv_sec;
        t.tv_nsec = r->timestamp.tv_usec * 1000;
        int numpmid = r->numpmid;
        print_record(what, n, &t, numpmid, r->vset, named < NAMED_VALUES);
        for (int i = 0; i < numpmid; i++)
            named += r->vset[i]->numval > 0 ? r->vset[i]->numval : 0;
        pmFreeResult(r);
        if (looping(&t, numpmid, &last, &repeats)) {
            out("%s: loop\n", what);
            return;
        }
    }
    out("%s: %ld records, %s\n", what, n, n == cap ? "cap" : err(sts));
}

static void backward_section(const char *what, long cap)
{
    struct timespec last = {-1, 0};
    int repeats = 0, sts = 0;
    long n = 0;

    for (; n < cap; n++) {
        pmHighResResult *r;
        if ((sts = pmFetchHighResArchive(&r)) < 0)
            break;
        print_record(what, n, &r->timestamp, r->numpmid, r->vset, 0);
        if (looping(&r->timestamp, r->numpmid, &last, &repeats)) {
            pmFreeHighResResult(r);
            out("%s: loop\n", what);
            return;
        }
        pmFreeHighResResult(r);
    }
    out("%s: %ld records, %s\n", what, n, n == cap ? "cap" : err(sts));
}

static void back_from_end(void)
{
    struct timespec end;
    int sts;

    if ((sts = pmGetHighResArchiveEnd(&end)) < 0) {
        out("back: end %s\n", err(sts));
        return;
    }
    if ((sts = pmSetModeHighRes(PM_MODE_BACK, &end, NULL)) < 0) {
        out("back: setmode %s\n", err(sts));
        return;
    }
    backward_section("back", RECORD_CAP);
}

/* The times of up to max records, forward from the start. */
static int record_times(struct timespec *t, int max)
{
    struct timespec start = {0, 0};
    pmHighResLogLabel l;
    int n = 0;

    if (pmGetHighResArchiveLabel(&l) >= 0)
        start = l.start;
    if (pmSetModeHighRes(PM_MODE_FORW, &start, NULL) < 0)
        return 0;
    while (n < max) {
        pmHighResResult *r;
        if (pmFetchHighResArchive(&r) < 0)
            break;
        t[n++] = r->timestamp;
        pmFreeHighResResult(r);
    }
    return n;
}

/* Seeks forward from the time of the last index entry on find nothing in
 * PCP (docs/compat.md), and that entry is at the time of the last or the
 * last but one record: those seeks are section e's. */
static int pcp_end_zone(const struct timespec *at, const struct timespec *t, int n)
{
    const struct timespec *edge = &t[n > 1 ? n - 2 : 0];

    return at->tv_sec > edge->tv_sec ||
           (at->tv_sec == edge->tv_sec && at->tv_nsec >= edge->tv_nsec);
}

static void seek_section(void)
{
    static struct timespec t[2000];
    int n = record_times(t, 2000), full = n < 2000;

    for (int i = 0; i < n; i += 10) {
        struct timespec at[3] = {t[i], t[i], t[i]};
        at[1].tv_nsec -= 1000; /* a microsecond either side */
        at[2].tv_nsec += 1000;
        for (int k = 0; k < 3; k++) {
            for (int dir = 0; dir < 2; dir++) {
                int mode = dir == 0 ? PM_MODE_FORW : PM_MODE_BACK;
                pmHighResResult *r;
                int sts;
                if (mode == PM_MODE_FORW && full && pcp_end_zone(&at[k], t, n))
                    continue;
                sts = pmSetModeHighRes(mode, &at[k], NULL);
                if (sts >= 0)
                    sts = pmFetchHighResArchive(&r);
                if (sts < 0) {
                    out("seek %d.%d.%d: %s\n", i, k, dir, err(sts));
                    continue;
                }
                out("seek %d.%d.%d: %lld.%09ld np %d\n", i, k, dir, (long long)r->timestamp.tv_sec,
                    r->timestamp.tv_nsec, r->numpmid);
                pmFreeHighResResult(r);
            }
        }
    }
}

/* A seek forward to the end (pmGetArchiveEnd) and one fetch. */
static void end_section(void)
{
    struct timespec end;
    pmHighResResult *r;
    int sts = pmGetHighResArchiveEnd(&end);

    if (sts >= 0)
        sts = pmSetModeHighRes(PM_MODE_FORW, &end, NULL);
    if (sts >= 0)
        sts = pmFetchHighResArchive(&r);
    if (sts < 0) {
        out("endseek: %s\n", err(sts));
        return;
    }
    out("endseek: %lld.%09ld np %d\n", (long long)r->timestamp.tv_sec, r->timestamp.tv_nsec,
        r->numpmid);
    pmFreeHighResResult(r);
}

/* Records forward with the label asked for after each (PCP 6.0.3 loses
 * its place in some multi-archive contexts then). */
static void label_loop_section(void)
{
    struct timespec last = {-1, 0}, start = {0, 0};
    pmHighResLogLabel l;
    int repeats = 0, sts = 0;
    long n = 0;

    if (pmGetHighResArchiveLabel(&l) >= 0)
        start = l.start;
    pmSetModeHighRes(PM_MODE_FORW, &start, NULL);
    for (; n < RECORD_CAP; n++) {
        pmHighResResult *r;
        if ((sts = pmFetchHighResArchive(&r)) < 0)
            break;
        sts = pmGetHighResArchiveLabel(&l);
        out("lab %ld: %lld.%09ld np %d label %d %lld.%09ld\n", n, (long long)r->timestamp.tv_sec,
            r->timestamp.tv_nsec, r->numpmid, sts, (long long)l.start.tv_sec, l.start.tv_nsec);
        if (looping(&r->timestamp, r->numpmid, &last, &repeats)) {
            pmFreeHighResResult(r);
            out("lab: loop\n");
            return;
        }
        pmFreeHighResResult(r);
    }
    out("lab: %ld records, %s\n", n, n == RECORD_CAP ? "cap" : err(sts));
}

/* A copy made after some records goes on from there; so does the original. */
static void dup_section(void)
{
    struct timespec start = {0, 0};
    pmHighResLogLabel l;
    int orig = pmWhichContext(), copy;

    if (pmGetHighResArchiveLabel(&l) >= 0)
        start = l.start;
    pmSetModeHighRes(PM_MODE_FORW, &start, NULL);
    forward_section("pre", 5);
    if ((copy = pmDupContext()) < 0) {
        out("dup: %s\n", err(copy));
        return;
    }
    forward_section("copy", 3);
    pmUseContext(orig);
    forward_section("orig", 3);
    pmDestroyContext(copy);
}

int main(int argc, char **argv)
{
    const char *sections = "lnditLfb";
    int c, flags = 0, ctx;

    while ((c = getopt(argc, argv, "s:vf:")) != -1) {
        switch (c) {
        case 's':
            sections = optarg;
            break;
        case 'v':
            verbose = 1;
            break;
        case 'f':
            flags = (int)strtol(optarg, NULL, 0);
            break;
        default:
            return 2;
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, "usage: probe_archive [-s SECTIONS] [-v] [-f FLAGS] ARCHIVE\n");
        return 2;
    }
    setvbuf(stdout, NULL, _IOFBF, 1 << 16);
    if ((ctx = pmNewContext(PM_CONTEXT_ARCHIVE | flags, argv[optind])) < 0) {
        out("open: %s\n", err(ctx));
        return 0;
    }
    out("open: ok\n");
    gather(strchr(sections, 'n') != NULL);
    for (const char *s = sections; *s != '\0'; s++) {
        switch (*s) {
        case 'l':
            label_section();
            break;
        case 'n':
            names_section();
            break;
        case 'd':
            desc_section();
            break;
        case 'i':
            indom_section();
            break;
        case 't':
            text_section();
            break;
        case 'L':
            labels_section();
            break;
        case 'f':
            forward_section("fwd", RECORD_CAP);
            break;
        case 'b':
            back_from_end();
            break;
        case 's':
            seek_section();
            break;
        case 'p':
            dup_section();
            break;
        case 'm':
            label_loop_section();
            break;
        case 'e':
            end_section();
            break;
        default:
            fprintf(stderr, "probe_archive: unknown section %c\n", *s);
            return 2;
        }
    }
    pmDestroyContext(ctx);
    return 0;
}
