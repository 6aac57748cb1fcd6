/*
 * linux.c - the linux agent (domain 60): kernel, processor, memory, disk
 * and network metrics from /proc under PCP's names and PMIDs, built as
 * the DSO pmda_linux.so (entry point linux_init) and, with main.c, as the
 * daemon pmdalinux.
 *
 * Every fetch and instance request first re-reads the /proc files its
 * metrics or instance domain come from (each at most once per request),
 * then lets libpcp_pmda's pmdaFetch / pmdaInstance walk the tables.
 * Instance domains: processors (60.0, instance N is "cpuN", a table
 * rebuilt from /proc/stat), disks (60.1) and network interfaces (60.3)
 * in pmdaCaches, so an instance keeps its number while the device comes
 * and goes and, as PCP's agent does, across restarts ($PCP_VAR_DIR/config/
 * pmda), and the three load averages (60.2, a fixed table).
 *
 * PCP's test hooks are honoured: $LINUX_STATSPATH is put in front of every
 * /proc path, $LINUX_NCPUS, $LINUX_HERTZ and $LINUX_PAGESIZE replace the
 * processor count, clock tick rate and page size.  network.all leaves out
 * the interfaces matched by the extended regular expression in
 * $PCP_SYSCONF_DIR/linux/interfaces.conf (comments and white space
 * removed), by default lo, bondN and teamN.
 *
 * Not done: the rest of PCP's linux agent (per-node, interrupts, vmstat,
 * slabinfo, sockets, NFS, ...), sysfs-based metrics (disk scheduler and
 * capacity, interface speed and flags), labels, and the old /proc layouts
 * of Linux 2.4 beyond /proc/partitions statistics.
 */
#include "linux.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "domain.h"

linux_agent linux_state;

/* The tables handed to pmdaInit (which rewrites them in place). */
static pmdaMetric *metrics;
static pmdaInstid loadavg_insts[] = {
    {1, "1 minute"},
    {5, "5 minute"},
    {15, "15 minute"},
};

/* Scratch copy of a device name, NUL-terminated for the cache API. */
static char *namebuf;
static size_t namecap;

/* Interfaces left out of network.all when interfaces.conf says nothing. */
static const char default_exclude[] = "^(lo|bond[0-9]+|team[0-9]+)$";

static char *name_copy(const char *name, size_t len)
{
    if (len + 1 > namecap) {
        size_t cap = len + 64;
        char *p = realloc(namebuf, cap);
        if (p == NULL)
            return NULL;
        namebuf = p;
        namecap = cap;
    }
    memcpy(namebuf, name, len);
    namebuf[len] = '\0';
    return namebuf;
}

/* ---- processors ------------------------------------------------------- */

/* Rebuilds the processor instance table from the parsed /proc/stat. */
static int cpu_indom(linux_agent *a)
{
    const proc_stat *s = &a->stat;
    pmdaInstid *insts;
    unsigned n = 0;

    if (a->cpu_nnames < s->nslots) {
        char(*names)[16] = realloc(a->cpu_names, s->nslots * sizeof *names);
        if (names == NULL)
            return -ENOMEM;
        for (unsigned i = a->cpu_nnames; i < s->nslots; i++)
            snprintf(names[i], sizeof names[i], "cpu%u", i);
        a->cpu_names = names;
        a->cpu_nnames = s->nslots;
    }
    if ((insts = realloc(a->cpu_insts, (s->ncpu + 1) * sizeof *insts)) == NULL)
        return -ENOMEM;
    a->cpu_insts = insts;
    for (unsigned i = 0; i < s->nslots; i++)
        if (s->seen[i]) {
            insts[n].i_inst = (int)i;
            insts[n++].i_name = a->cpu_names[i];
        }
    a->indoms[CPU_INDOM].it_numinst = (int)n;
    a->indoms[CPU_INDOM].it_set = insts;
    return 0;
}

static int refresh_stat(linux_agent *a)
{
    int err;

    /* no file, no processors (even the one a single-processor system has) */
    unsigned maxcpu = proc_read(&a->buf, a->statspath, "/proc/stat") < 0 ? 0 : a->maxcpu;

    if ((err = proc_stat_parse(&a->stat, a->buf.data, a->buf.len, maxcpu)) < 0)
        return err;
    return cpu_indom(a);
}

/* ---- disks and network interfaces -------------------------------------- */

/*
 * Marks NM (NUL-terminated) active in cache instance domain SERIAL with
 * fresh counters COL (SIZE bytes) as its private data; *ADDED is set when
 * the name is new to the cache.  A name the cache refuses (its first word
 * is another instance's, for one) is skipped with a warning and changes
 * nothing.
 */
static void cache_update(int serial, const char *nm, const uint64_t *col, size_t size, int *added)
{
    pmInDom indom = LINUX_INDOM(serial);
    char *old_name = NULL;
    void *prev = NULL, *old, *priv;
    int inst = -1, sts;

    /* the cache matches names by their first word: reuse only an exact match */
    if (pmdaCacheLookupName(indom, nm, &inst, &prev) < 0)
        inst = -1;
    old = prev;
    if (inst >= 0 && (pmdaCacheLookup(indom, inst, &old_name, NULL) < 0 || strcmp(old_name, nm)))
        old = NULL;
    if ((priv = old) == NULL && (priv = malloc(size)) == NULL)
        return;
    if ((sts = pmdaCacheStore(indom, PMDA_CACHE_ADD, nm, priv)) < 0) {
        pmNotifyErr(LOG_WARNING, "linux: instance \"%s\" of %s: %s", nm, pmInDomStr(indom),
                    pmErrStr(sts));
        if (priv != old)
            free(priv);
        return;
    }
    if (sts == inst && prev != NULL && prev != priv)
        free(prev); /* the entry took the new block */
    if (inst < 0)
        *added = 1;
    memcpy(priv, col, size);
}

static int disk_line(void *arg, const char *name, size_t len, const uint64_t *col)
{
    const char *nm = name_copy(name, len);

    if (nm == NULL)
        return -ENOMEM;
    if (proc_disk_is_disk(nm))
        cache_update(DISK_INDOM, nm, col, sizeof(linux_disk), arg);
    return 0;
}

/*
 * Walks the active instances of cache instance domain SERIAL: their
 * number, and each one's name and private data to FN.
 */
static unsigned walk_active(int serial, void (*fn)(linux_agent *, const char *, const void *))
{
    pmInDom indom = LINUX_INDOM(serial);
    unsigned n = 0;
    int inst;

    pmdaCacheOp(indom, PMDA_CACHE_WALK_REWIND);
    while ((inst = pmdaCacheOp(indom, PMDA_CACHE_WALK_NEXT)) >= 0) {
        char *name = NULL;
        void *priv = NULL;
        if (pmdaCacheLookup(indom, inst, &name, &priv) != PMDA_CACHE_ACTIVE || priv == NULL)
            continue;
        fn(&linux_state, name, priv);
        n++;
    }
    return n;
}

static void add_disk(linux_agent *a, const char *name, const void *priv)
{
    (void)name;
    for (int f = 0; f < N_DF; f++)
        a->disk_all[f] += linux_disk_value(((const linux_disk *)priv)->col, f);
}

static int refresh_disk(linux_agent *a)
{
    int added = 0, partitions = 0, err;

    pmdaCacheOp(LINUX_INDOM(DISK_INDOM), PMDA_CACHE_INACTIVE);
    if (proc_read(&a->buf, a->statspath, "/proc/diskstats") < 0) {
        /* kernels before 2.6 kept the statistics in /proc/partitions */
        proc_read(&a->buf, a->statspath, "/proc/partitions");
        partitions = 1;
    }
    err = proc_disk_parse(a->buf.data, a->buf.len, partitions, disk_line, &added);
    if (added)
        pmdaCacheOp(LINUX_INDOM(DISK_INDOM), PMDA_CACHE_SAVE);
    memset(a->disk_all, 0, sizeof a->disk_all);
    a->ndisk = walk_active(DISK_INDOM, add_disk);
    return err;
}

static int net_line(void *arg, const char *name, size_t len, const uint64_t *col)
{
    const char *nm = name_copy(name, len);

    /* without memory for the name, the interface is skipped */
    if (nm != NULL)
        cache_update(NET_INDOM, nm, col, sizeof(linux_netif), arg);
    return 0;
}

static void add_netif(linux_agent *a, const char *name, const void *priv)
{
    if (regexec(&a->net_exclude, name, 0, NULL, 0) == 0)
        return;
    for (int f = 0; f < N_NF; f++)
        a->net_all[f] += linux_net_value(((const linux_netif *)priv)->col, f);
}

static int refresh_net(linux_agent *a)
{
    int added = 0, err;

    pmdaCacheOp(LINUX_INDOM(NET_INDOM), PMDA_CACHE_INACTIVE);
    proc_read(&a->buf, a->statspath, "/proc/net/dev");
    err = proc_net_dev_parse(a->buf.data, a->buf.len, net_line, &added);
    if (added)
        pmdaCacheOp(LINUX_INDOM(NET_INDOM), PMDA_CACHE_SAVE);
    memset(a->net_all, 0, sizeof a->net_all);
    a->ninterface = walk_active(NET_INDOM, add_netif);
    return err;
}

/* ---- the rest, and dispatch -------------------------------------------- */

/* Re-reads source SRC; files that cannot be read count as empty. */
static int refresh(linux_agent *a, int src)
{
    switch (src) {
    case SRC_STAT:
        return refresh_stat(a);
    case SRC_MEMINFO:
        proc_read(&a->buf, a->statspath, "/proc/meminfo");
        proc_meminfo_parse(&a->mem, a->buf.data, a->buf.len);
        return 0;
    case SRC_LOADAVG:
        proc_read(&a->buf, a->statspath, "/proc/loadavg");
        proc_loadavg_parse(&a->loadavg, a->buf.data);
        return 0;
    case SRC_UPTIME:
        proc_read(&a->buf, a->statspath, "/proc/uptime");
        proc_uptime_parse(&a->uptime, a->buf.data);
        return 0;
    case SRC_DISK:
        return refresh_disk(a);
    case SRC_NET:
        return refresh_net(a);
    case SRC_UNAME:
        a->uts_ok = uname(&a->uts) == 0;
        return 0;
    default:
        return 0;
    }
}

/* The table entry of PMID (any domain), or NULL; the table is in PMID order. */
static const linux_metric *find_metric(pmID pmid)
{
    unsigned key = pmID_cluster(pmid) << 10 | pmID_item(pmid);
    int lo = 0, hi = linux_nmetrics;

    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        pmID id = linux_metrictab[mid].desc.pmid;
        unsigned k = pmID_cluster(id) << 10 | pmID_item(id);
        if (k == key)
            return &linux_metrictab[mid];
        if (k < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

static int linux_fetch(int numpmid, pmID *pmidlist, pmResult **resp, pmdaExt *pmda)
{
    unsigned char need[N_SOURCES] = {0};
    int err;

    for (int i = 0; i < numpmid; i++) {
        const linux_metric *lm = find_metric(pmidlist[i]);
        if (lm != NULL)
            need[linux_source(lm->kind)] = 1;
    }
    for (int s = 0; s < N_SOURCES; s++)
        if (need[s] && (err = refresh(&linux_state, s)) < 0)
            return err;
    return pmdaFetch(numpmid, pmidlist, resp, pmda);
}

static int linux_instance(pmInDom indom, int inst, char *name, pmInResult **result, pmdaExt *pmda)
{
    int err = 0;

    switch (pmInDom_serial(indom)) {
    case CPU_INDOM:
        err = refresh(&linux_state, SRC_STAT);
        break;
    case DISK_INDOM:
        err = refresh(&linux_state, SRC_DISK);
        break;
    case NET_INDOM:
        err = refresh(&linux_state, SRC_NET);
        break;
    }
    if (err < 0)
        return err;
    return pmdaInstance(indom, inst, name, result, pmda);
}

/* ---- set-up ------------------------------------------------------------ */

/* A positive number from environment variable VAR, else FALLBACK. */
static unsigned env_number(const char *var, long fallback)
{
    const char *s = getenv(var);
    long v = s ? strtol(s, NULL, 10) : 0;

    if (v <= 0 || v > 0x7fffffffL)
        v = fallback > 0 ? fallback : 1;
    return (unsigned)v;
}

/* The network.all exclusion pattern: interfaces.conf without comments and white space. */
static void net_exclusions(linux_agent *a)
{
    const char *dir = pmGetConfig("PCP_SYSCONF_DIR");
    proc_buf b = {0};
    char *re = NULL, msg[256];
    size_t n = 0;
    int sts;

    if (proc_read(&b, dir, "/linux/interfaces.conf") == 0 && (re = malloc(b.len + 1)) != NULL) {
        for (size_t i = 0; i < b.len; i++) {
            if (b.data[i] == '#')
                while (i + 1 < b.len && b.data[i + 1] != '\n')
                    i++;
            else if (!isspace((unsigned char)b.data[i]))
                re[n++] = b.data[i];
        }
        re[n] = '\0';
    }
    if (n > 0 && (sts = regcomp(&a->net_exclude, re, REG_EXTENDED | REG_NOSUB)) != 0) {
        regerror(sts, &a->net_exclude, msg, sizeof msg);
        pmNotifyErr(LOG_WARNING, "linux: %s/linux/interfaces.conf: ignoring pattern \"%s\": %s",
                    dir, re, msg);
        n = 0;
    }
    if (n == 0)
        regcomp(&a->net_exclude, default_exclude, REG_EXTENDED | REG_NOSUB);
    free(re);
    proc_buf_free(&b);
}

/* $PCP_PMDAS_DIR/linux/help, malloc'd (NULL if out of memory). */
char *linux_help_path(void)
{
    const char *dir = pmGetConfig("PCP_PMDAS_DIR");
    size_t n = strlen(dir) + sizeof "/linux/help";
    char *path = malloc(n);

    if (path != NULL)
        snprintf(path, n, "%s/linux/help", dir);
    return path;
}

/* Everything after pmdaDSO/pmdaDaemon: shared by the DSO and the daemon. */
void linux_setup(pmdaInterface *dp)
{
    linux_agent *a = &linux_state;
    const char *root = getenv("LINUX_STATSPATH");

    if (dp->status != 0)
        return;
    if ((a->statspath = strdup(root ? root : "")) == NULL ||
        (metrics = calloc((size_t)linux_nmetrics, sizeof *metrics)) == NULL) {
        dp->status = -ENOMEM;
        return;
    }
    a->maxcpu = env_number("LINUX_NCPUS", sysconf(_SC_NPROCESSORS_CONF));
    a->hz = env_number("LINUX_HERTZ", sysconf(_SC_CLK_TCK));
    a->pagesize = env_number("LINUX_PAGESIZE", sysconf(_SC_PAGESIZE));
    net_exclusions(a);
    for (int i = 0; i < linux_nmetrics; i++) {
        metrics[i].m_user = (void *)&linux_metrictab[i];
        metrics[i].m_desc = linux_metrictab[i].desc;
    }
    for (int i = 0; i < N_INDOMS; i++)
        a->indoms[i].it_indom = (pmInDom)i;
    a->indoms[LOADAVG_INDOM].it_numinst = 3;
    a->indoms[LOADAVG_INDOM].it_set = loadavg_insts;

    dp->version.any.fetch = linux_fetch;
    dp->version.any.instance = linux_instance;
    pmdaSetFetchCallBack(dp, linux_fetch_callback);
    pmdaSetFlags(dp, PMDA_EXT_FLAG_HASHED);
    pmdaInit(dp, a->indoms, N_INDOMS, metrics, linux_nmetrics);
    if (dp->status != 0)
        return;
    /* instance numbers given out before, by this agent or PCP's */
    pmdaCacheOp(LINUX_INDOM(DISK_INDOM), PMDA_CACHE_LOAD);
    pmdaCacheOp(LINUX_INDOM(NET_INDOM), PMDA_CACHE_LOAD);
}

void __PMDA_INIT_CALL linux_init(pmdaInterface *dp)
{
    static char *help; /* the library may keep the pointer */

    if (help == NULL)
        help = linux_help_path();
    pmdaDSO(dp, PMDA_INTERFACE_7, "linux DSO", help);
    linux_setup(dp);
}
