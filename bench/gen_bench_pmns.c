/*
 * gen_bench_pmns OUTFILE NAMES [SEED]
 *
 * Writes a synthetic but realistic ASCII PMNS for bench/bench_pmns.c:
 *
 *   OUTFILE         the namespace: exactly NAMES leaf names (entries with a
 *                   PMID, dynamic-subtree roots included)
 *   OUTFILE.names   every leaf name, one per line, in depth-first file order
 *                   (the order pmTraversePMNS("") reports them)
 *   OUTFILE.pmids   every distinct static PMID, one per line as D.C.I, in
 *                   order of first appearance (dynamic roots are left out)
 *
 * Shape, modelled on the Linux root namespace:
 *   - about 45 top-level subtrees (kernel, mem, disk, network, proc, cgroup,
 *     xfs, ...) with skewed sizes; several share a PMDA domain (linux 60,
 *     proc 3, ...), as they do in real life;
 *   - leaves at depth 2 to 6; most nodes mix a few leaves with non-leaf
 *     children, in shuffled order;
 *   - some wide nodes with 1000-6000 leaf children (per-CPU / per-device
 *     style names such as cpu17 or dev_read4);
 *   - one leaf in 100 reuses the PMID of an earlier leaf of the same domain
 *     (aliases), so pmNameAll sees several names for some PMIDs;
 *   - a few dynamic-subtree roots "D:*:*": three at the top level, two nested;
 *   - clusters and items as a PMDA would number them: each node's leaves
 *     usually start a new cluster, items count up from 0 within a cluster.
 *
 * The text is plain: no macros, no comments, no '#' lines, so both
 * pmLoadNameSpace (no preprocessor) and pmLoadASCIINameSpace (through
 * pmcpp) read it.  Blocks are written in pre-order, children one per line
 * as "\tname" or "\tname\tD:C:I".
 *
 * Output is a function of NAMES, SEED (default 1) and GBP_VERSION only.
 * Bump GBP_VERSION whenever the output changes: bench_pmns caches generated
 * files under names that include it.
 *
 * The files are written under temporary names and renamed into place,
 * OUTFILE last, so a reader that sees OUTFILE also sees complete companions.
 *
 * bench_pmns.c #includes this file with GEN_BENCH_PMNS_NO_MAIN defined and
 * calls gbp_generate() itself; on its own it is a command-line tool:
 *   cc -O2 -std=c11 -o gen_bench_pmns bench/gen_bench_pmns.c
 */
#if !defined(_POSIX_C_SOURCE) && !defined(_DEFAULT_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

#define GBP_VERSION 1

#define GBP_MAX_DEPTH    6    /* deepest leaf: root.a.b.c.d.e (6 components) */
#define GBP_WIDE_MIN     1000 /* a wide node has this many leaves or more ... */
#define GBP_WIDE_MAX     6000 /* ... and at most this many */
#define GBP_MAX_CLUSTER  4095
#define GBP_MAX_ITEM     1023
#define GBP_SPILL_DOMAIN 400 /* domains used when a real one runs out of clusters */

/* ---- deterministic PRNG (bench.h's splitmix64) ------------------------- */

static uint64_t gbp_rng;

static uint64_t gbp_rnd(void)
{
    return bench_rng_next(&gbp_rng);
}

/* uniform in [0, n), n >= 1 */
static long gbp_urand(long n)
{
    return (long)(gbp_rnd() % (uint64_t)n);
}

/* uniform in [lo, hi] */
static long gbp_range(long lo, long hi)
{
    return lo + gbp_urand(hi - lo + 1);
}

/* uniform in (0, 1] */
static double gbp_unit(void)
{
    return ((double)(gbp_rnd() >> 11) + 1.0) / 9007199254740992.0;
}

#define GBP_NELEM(a) ((long)(sizeof(a) / sizeof((a)[0])))
#define GBP_PICK(a)  ((a)[gbp_urand(GBP_NELEM(a))])

/* ---- vocabulary ---------------------------------------------------------- */

struct gbp_top {
    const char *name;
    int domain;
    int weight; /* relative share of the leaves */
};

/* Top-level subtrees, in root-block order, with their PMDA domain. */
static const struct gbp_top gbp_tops[] = {
    {"kernel", 60, 60},       {"mem", 60, 40},
    {"swap", 60, 4},          {"swapdev", 60, 2},
    {"network", 60, 60},      {"disk", 60, 50},
    {"filesys", 60, 10},      {"tmpfs", 60, 3},
    {"hinv", 60, 12},         {"ipc", 60, 4},
    {"vfs", 60, 3},           {"sysfs", 60, 2},
    {"nfs", 60, 8},           {"nfs3", 60, 6},
    {"nfs4", 60, 8},          {"rpc", 60, 6},
    {"quota", 60, 2},         {"pmcd", 2, 8},
    {"pmda", 2, 2},           {"proc", 3, 120},
    {"hotproc", 3, 40},       {"cgroup", 3, 90},
    {"xfs", 11, 40},          {"mmv", 70, 10},
    {"nvidia", 120, 8},       {"perfevent", 127, 20},
    {"bcc", 149, 30},         {"zfs", 153, 25},
    {"postgresql", 110, 25},  {"mysql", 66, 15},
    {"redis", 34, 10},        {"elasticsearch", 108, 15},
    {"openmetrics", 144, 80}, {"lustre", 134, 8},
    {"gfs2", 115, 8},         {"dm", 129, 10},
    {"rabbitmq", 159, 6},     {"nginx", 117, 2},
    {"apache", 68, 2},        {"bind2", 139, 8},
    {"netcheck", 141, 3},     {"libvirt", 140, 12},
    {"containers", 3, 6},     {"denki", 164, 2},
    {"statsd", 148, 10},
};

/* Dynamic-subtree roots: three at the top level, two nested somewhere. */
struct gbp_dyn {
    const char *name;
    int domain;
};
static const struct gbp_dyn gbp_dyn_top[] = {{"kvm", 95}, {"jbd2", 122}, {"sockets", 154}};
static const struct gbp_dyn gbp_dyn_nested[] = {{"pmdynamic", 79}, {"uprobes", 173}};

/* Words for non-leaf nodes. */
static const char *const gbp_dirs[] = {
    "all",     "percpu",   "pernode",   "dev",       "partitions", "interface",  "ip",
    "tcp",     "udp",      "icmp",      "sockstat",  "softnet",    "vmstat",     "numa",
    "util",    "alloc",    "buddyinfo", "zoneinfo",  "slabinfo",   "psinfo",     "psstat",
    "memory",  "io",       "schedstat", "fd",        "id",         "namespaces", "smaps",
    "cpuacct", "cpuset",   "blkio",     "pressure",  "hugepages",  "lru",        "cache",
    "queue",   "table",    "stats",     "control",   "buffer",     "wal",        "replication",
    "index",   "shard",    "node",      "cluster",   "pool",       "vdev",       "arc",
    "l2arc",   "zil",      "dmu",       "log",       "trans",      "btree",      "ag",
    "inode",   "dquot",    "quota",     "server",    "client",     "request",    "response",
    "lock",    "net",      "sched",     "events",    "thread",     "worker",     "gpu",
    "power",   "thermal",  "rapl",      "battery",   "domain",     "vcpu",       "block",
    "channel", "exchange", "consumer",  "zone",      "view",       "resolver",   "target",
    "volume",  "snapshot", "mount",     "export",    "ost",        "mdt",        "llite",
    "glock",   "holders",  "latency",   "histogram", "counters",   "gauges",     "timers",
};

/* Words for leaves (combined into name or name_name). */
static const char *const gbp_leaves[] = {
    "read",        "write",     "total",     "bytes",     "blocks",      "count",      "errors",
    "drops",       "packets",   "user",      "sys",       "idle",        "nice",       "wait",
    "intr",        "steal",     "guest",     "free",      "used",        "avail",      "cached",
    "buffers",     "dirty",     "active",    "inactive",  "shared",      "mapped",     "slab",
    "pages",       "faults",    "majflt",    "minflt",    "time",        "rate",       "avg",
    "max",         "min",       "samples",   "ops",       "calls",       "hits",       "misses",
    "evictions",   "size",      "capacity",  "load",      "running",     "blocked",    "queued",
    "retrans",     "resets",    "opens",     "closes",    "in",          "out",        "rss",
    "vsize",       "utime",     "stime",     "cutime",    "cstime",      "priority",   "threads",
    "state",       "pid",       "ppid",      "uid",       "gid",         "cmd",        "psargs",
    "start",       "merge",     "discard",   "flush",     "aveq",        "inflight",   "util",
    "temperature", "voltage",   "watts",     "energy",    "fan",         "clock",      "commits",
    "rollbacks",   "deadlocks", "conflicts", "tuples",    "scans",       "fetches",    "inserts",
    "updates",     "deletes",   "locks",     "latency",   "bandwidth",   "throughput", "requests",
    "responses",   "timeouts",  "retries",   "failures",  "connections", "sessions",   "uptime",
    "version",     "status",    "numa_hit",  "numa_miss", "local",       "remote",     "other",
    "alloc",       "allocated", "reclaimed", "scanned",   "stolen",      "compact",    "migrate",
};

/* Stems for the leaves of wide nodes: stem + index (cpu0 .. cpu5999). */
static const char *const gbp_wide_stems[] = {
    "cpu", "node", "dev", "lun", "port", "queue", "irq", "core", "slot", "bucket", "q", "vf",
};

/* ---- generator state ------------------------------------------------------- */

struct gbp_domain_state {
    int domain;       /* current (possibly spill) domain number */
    long cluster;     /* current cluster; -1 before the first leaf */
    long item;        /* next item in the cluster */
    long clusters;    /* clusters started so far */
    long total, done; /* leaves planned for / generated in this domain */
    uint32_t *pmids;  /* every PMID handed out, for aliases */
    long npmids, cap;
};

struct gbp_child {
    char *name;  /* malloc'd */
    int leaf;    /* 1: leaf entry, 0: non-leaf */
    long budget; /* non-leaf: leaves below it */
    int dyn;     /* leaf: dynamic-root domain, or 0 */
    uint32_t pmid;
};

struct gbp {
    FILE *pmns, *names, *pmids;
    struct gbp_domain_state dom[512];
    int spill_next;
    long nleaves, nnonleaf, ndup, ndyn, nwide, maxfan;
    long depth_hist[GBP_MAX_DEPTH + 1];
    int dyn_nested_left;
};

#define GBP_PMID(d, c, i) (((uint32_t)(d) << 22) | ((uint32_t)(c) << 10) | (uint32_t)(i))

static void *gbp_xalloc(size_t n)
{
    void *p = malloc(n == 0 ? 1 : n);
    if (p == NULL) {
        fprintf(stderr, "gen_bench_pmns: out of memory\n");
        exit(1);
    }
    return p;
}

static char *gbp_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(gbp_xalloc(n), s, n);
}

/* The domain-state slot for a real domain number (spill domains chain from it). */
static struct gbp_domain_state *gbp_dom(struct gbp *g, int domain)
{
    struct gbp_domain_state *d = &g->dom[domain];
    if (d->domain == 0)
        d->domain = domain, d->cluster = -1;
    return d;
}

/* Start a new cluster; move to a spill domain if this one is exhausted. */
static void gbp_new_cluster(struct gbp *g, struct gbp_domain_state *d)
{
    if (d->cluster >= GBP_MAX_CLUSTER) {
        d->domain = g->spill_next++;
        if (d->domain > 510) {
            fprintf(stderr, "gen_bench_pmns: ran out of PMIDs\n");
            exit(1);
        }
        d->cluster = -1;
    }
    d->cluster++;
    d->item = 0;
    d->clusters++;
}

/* A node is about to get its leaves: maybe start a new cluster, as a PMDA
 * usually gives each group of metrics its own; clusters are rationed so a
 * domain holding a million leaves still fits in 4096 of them. */
static void gbp_node_cluster(struct gbp *g, struct gbp_domain_state *d)
{
    double allowed = 3000.0 * (double)(d->done + 1) / (double)(d->total > 0 ? d->total : 1);
    if (d->cluster < 0 || ((double)d->clusters < allowed && gbp_urand(100) < 85))
        gbp_new_cluster(g, d);
}

static uint32_t gbp_alloc_pmid(struct gbp *g, struct gbp_domain_state *d, int *fresh)
{
    uint32_t id;
    d->done++;
    if (d->npmids > 0 && gbp_urand(100) == 0) {
        /* an alias of an earlier metric of this PMDA */
        *fresh = 0;
        g->ndup++;
        return d->pmids[gbp_urand(d->npmids)];
    }
    if (d->cluster < 0 || d->item > GBP_MAX_ITEM)
        gbp_new_cluster(g, d);
    id = GBP_PMID(d->domain, d->cluster, d->item);
    d->item++;
    if (d->npmids == d->cap) {
        uint32_t *n;
        d->cap = d->cap ? 2 * d->cap : 1024;
        n = realloc(d->pmids, (size_t)d->cap * sizeof *n);
        if (n == NULL) {
            fprintf(stderr, "gen_bench_pmns: out of memory\n");
            exit(1);
        }
        d->pmids = n;
    }
    d->pmids[d->npmids++] = id;
    *fresh = 1;
    return id;
}

/* ---- sibling names ----------------------------------------------------------- */

/* A tiny set of name hashes, to keep the children of one node distinct. */
struct gbp_set {
    uint64_t *slot;
    size_t mask;
};

static uint64_t gbp_strhash(const char *s)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= UINT64_C(0x100000001b3);
    }
    return h | 1; /* 0 marks an empty slot */
}

static void gbp_set_init(struct gbp_set *s, long n)
{
    size_t cap = 16;
    while (cap < (size_t)n * 2)
        cap *= 2;
    s->slot = calloc(cap, sizeof *s->slot);
    if (s->slot == NULL) {
        fprintf(stderr, "gen_bench_pmns: out of memory\n");
        exit(1);
    }
    s->mask = cap - 1;
}

/* Insert; returns 0 if the name was already there. */
static int gbp_set_add(struct gbp_set *s, const char *name)
{
    uint64_t h = gbp_strhash(name);
    size_t i = (size_t)h & s->mask;
    while (s->slot[i] != 0) {
        if (s->slot[i] == h)
            return 0;
        i = (i + 1) & s->mask;
    }
    s->slot[i] = h;
    return 1;
}

/* A fresh name for a non-leaf (word) or a leaf (word or word_word). */
static char *gbp_fresh_name(struct gbp_set *s, int leaf)
{
    char buf[96];
    for (int tries = 0;; tries++) {
        if (!leaf)
            snprintf(buf, sizeof buf, "%s", GBP_PICK(gbp_dirs));
        else if (gbp_urand(100) < 45)
            snprintf(buf, sizeof buf, "%s", GBP_PICK(gbp_leaves));
        else
            snprintf(buf, sizeof buf, "%s_%s", GBP_PICK(gbp_leaves), GBP_PICK(gbp_leaves));
        if (tries > 20) {
            /* crowded node: a third word, then a letter suffix, keep it unique */
            size_t n = strlen(buf);
            snprintf(buf + n, sizeof buf - n, "_%s", GBP_PICK(gbp_leaves));
            if (tries > 40) {
                n = strlen(buf);
                snprintf(buf + n, sizeof buf - n, "_%c%c", 'a' + (int)gbp_urand(26),
                         'a' + (int)gbp_urand(26));
            }
        }
        if (gbp_set_add(s, buf))
            return gbp_strdup(buf);
    }
}

/* ---- the tree ------------------------------------------------------------------- */

/* Split total into k parts >= 1 with skewed weights (u^3: a few big parts, many small), each part
 * at most cap (cap * k >= total is guaranteed by the caller). */
static void gbp_split(long total, long k, long cap, long *part)
{
    double *w = gbp_xalloc((size_t)k * sizeof *w), sum = 0;
    long given = 0;
    for (long i = 0; i < k; i++) {
        double u = gbp_unit();
        w[i] = u * u * u + 0.02;
        sum += w[i];
    }
    for (long i = 0; i < k; i++) {
        part[i] = 1 + (long)((double)(total - k) * w[i] / sum);
        if (part[i] > cap)
            part[i] = cap;
        given += part[i];
    }
    /* hand out what rounding and capping left over, round robin */
    for (long i = gbp_urand(k); given < total; i = (i + 1) % k) {
        if (part[i] < cap) {
            long add = total - given;
            if (add > cap - part[i])
                add = cap - part[i];
            if (add > 1 + total / k / 8)
                add = 1 + total / k / 8;
            part[i] += add;
            given += add;
        }
    }
    free(w);
}

/* Most leaves a non-leaf at this depth may hold without growing too wide,
 * when leaves go no deeper than maxd. */
static long gbp_capacity(int depth, int maxd)
{
    long c = GBP_WIDE_MAX;
    for (int d = depth; d < maxd - 1; d++)
        c *= 400;
    return c;
}

/* Typical leaves below a non-leaf at this depth; sets the fan-out. */
static long gbp_target(int depth, int maxd)
{
    long t = 24;
    for (int d = depth; d < maxd - 1; d++)
        t *= 7;
    return t;
}

static void gbp_node(struct gbp *g, struct gbp_domain_state *dom, char *path, size_t plen,
                     int depth, int maxd, long budget);

/* Write the block for path, then descend in order. */
static void gbp_emit(struct gbp *g, struct gbp_domain_state *dom, char *path, size_t plen,
                     int depth, int maxd, struct gbp_child *c, long n)
{
    int leafdepth = depth + 1;

    if (n > g->maxfan)
        g->maxfan = n;
    fprintf(g->pmns, "%s {\n", depth == 0 ? "root" : path);
    for (long i = 0; i < n; i++) {
        if (!c[i].leaf)
            fprintf(g->pmns, "\t%s\n", c[i].name);
        else if (c[i].dyn)
            fprintf(g->pmns, "\t%s\t%d:*:*\n", c[i].name, c[i].dyn);
        else
            fprintf(g->pmns, "\t%s\t%u:%u:%u\n", c[i].name, (unsigned)(c[i].pmid >> 22),
                    (unsigned)((c[i].pmid >> 10) & 0xfff), (unsigned)(c[i].pmid & 0x3ff));
    }
    fputs("}\n\n", g->pmns);

    for (long i = 0; i < n; i++) {
        size_t nlen = strlen(c[i].name);
        if (depth == 0) {
            memcpy(path, c[i].name, nlen + 1);
        } else {
            path[plen] = '.';
            memcpy(path + plen + 1, c[i].name, nlen + 1);
        }
        if (c[i].leaf) {
            fprintf(g->names, "%s\n", path);
            g->nleaves++;
            g->depth_hist[leafdepth]++;
        } else {
            struct gbp_domain_state *d = dom;
            if (depth == 0) {
                /* each top-level subtree has its own depth: 3 to 6 */
                static const int depths[] = {3, 4, 4, 5, 5, 6, 6};
                maxd = GBP_PICK(depths);
                /* which top-level subtree this is: find it by name */
                for (long t = 0; t < GBP_NELEM(gbp_tops); t++)
                    if (strcmp(gbp_tops[t].name, c[i].name) == 0)
                        d = gbp_dom(g, gbp_tops[t].domain);
            }
            gbp_node(g, d, path, depth == 0 ? nlen : plen + 1 + nlen, depth + 1, maxd, c[i].budget);
        }
        path[plen] = '\0';
        free(c[i].name);
    }
}

static void gbp_leaf(struct gbp *g, struct gbp_domain_state *dom, struct gbp_child *c)
{
    int fresh;
    c->leaf = 1;
    c->pmid = gbp_alloc_pmid(g, dom, &fresh);
    if (fresh)
        fprintf(g->pmids, "%u.%u.%u\n", (unsigned)(c->pmid >> 22),
                (unsigned)((c->pmid >> 10) & 0xfff), (unsigned)(c->pmid & 0x3ff));
}

/* Shuffle (Fisher-Yates). */
static void gbp_shuffle(struct gbp_child *c, long n)
{
    for (long i = n - 1; i > 0; i--) {
        long j = gbp_urand(i + 1);
        struct gbp_child t = c[i];
        c[i] = c[j];
        c[j] = t;
    }
}

/* A non-leaf at depth (>= 1) with exactly budget leaves below it, none of
 * them deeper than maxd. */
static void gbp_node(struct gbp *g, struct gbp_domain_state *dom, char *path, size_t plen,
                     int depth, int maxd, long budget)
{
    long nleaf, nsub = 0, wide = 0, n = 0, rest;
    long *parts = NULL;
    struct gbp_child *c;
    struct gbp_set set;
    int dyn = 0;

    g->nnonleaf++;
    if (depth >= maxd - 1 || budget <= gbp_range(1, 30) ||
        (depth >= 2 && budget <= 80 && gbp_urand(100) < 20)) {
        nleaf = budget; /* only leaves below */
    } else if (budget >= GBP_WIDE_MIN + 200 && gbp_urand(100) < 12) {
        nleaf = gbp_range(GBP_WIDE_MIN, GBP_WIDE_MAX); /* a wide node */
        if (nleaf > budget - 1)
            nleaf = budget - 1;
        wide = 1;
    } else {
        nleaf = gbp_urand(100) < 30 ? 0 : gbp_range(1, 12);
        if (nleaf > budget - 1)
            nleaf = budget - 1;
    }
    if (nleaf > GBP_WIDE_MAX && depth < maxd - 1)
        nleaf = GBP_WIDE_MAX;
    if (nleaf >= GBP_WIDE_MIN)
        wide = 1;
    rest = budget - nleaf;
    if (rest > 0) {
        long cap = gbp_capacity(depth + 1, maxd), t = gbp_target(depth + 1, maxd);
        nsub = rest / t;
        nsub += gbp_range(1, 4);
        if (nsub < (rest + cap - 1) / cap)
            nsub = (rest + cap - 1) / cap;
        if (nsub > rest)
            nsub = rest;
        parts = gbp_xalloc((size_t)nsub * sizeof *parts);
        gbp_split(rest, nsub, cap, parts);
    }
    if (depth == 2 && g->dyn_nested_left > 0 && nleaf > 1 && !wide && gbp_urand(100) < 3)
        dyn = 1;

    c = gbp_xalloc((size_t)(nleaf + nsub) * sizeof *c);
    gbp_set_init(&set, nleaf + nsub);
    for (long i = 0; i < nsub; i++) {
        c[n].name = gbp_fresh_name(&set, 0);
        c[n].leaf = 0;
        c[n].budget = parts[i];
        c[n].dyn = 0;
        n++;
    }
    if (nleaf > 0)
        gbp_node_cluster(g, dom);
    if (wide) {
        const char *stem = GBP_PICK(gbp_wide_stems);
        const char *tail = gbp_urand(2) ? GBP_PICK(gbp_leaves) : NULL;
        char buf[96];
        for (long i = 0; i < nleaf; i++) {
            if (tail != NULL)
                snprintf(buf, sizeof buf, "%s_%s%ld", tail, stem, i);
            else
                snprintf(buf, sizeof buf, "%s%ld", stem, i);
            if (!gbp_set_add(&set, buf)) /* cannot clash with a word, but be sure */
                snprintf(buf, sizeof buf, "w%s%ld_%ld", stem, i, n);
            c[n].name = gbp_strdup(buf);
            c[n].dyn = 0;
            gbp_leaf(g, dom, &c[n]);
            n++;
        }
        g->nwide++;
    } else {
        for (long i = 0; i < nleaf; i++) {
            if (dyn && i == 0) {
                const struct gbp_dyn *d = &gbp_dyn_nested[2 - g->dyn_nested_left];
                g->dyn_nested_left--;
                c[n].name = gbp_strdup(d->name);
                if (!gbp_set_add(&set, d->name)) {
                    free(c[n].name);
                    c[n].name = gbp_fresh_name(&set, 1);
                }
                c[n].leaf = 1;
                c[n].dyn = d->domain;
                c[n].pmid = 0;
                dom->done++;
                g->ndyn++;
                n++;
                continue;
            }
            c[n].name = gbp_fresh_name(&set, 1);
            c[n].dyn = 0;
            gbp_leaf(g, dom, &c[n]);
            n++;
        }
    }
    free(set.slot);
    free(parts);
    /* wide nodes keep their leaves in index order, after the non-leaves */
    if (!wide)
        gbp_shuffle(c, n);
    gbp_emit(g, dom, path, plen, depth, maxd, c, n);
    free(c);
}

/* The root block: top-level subtrees in table order, dynamic roots mixed in. */
static void gbp_root(struct gbp *g, long names)
{
    long ntop = GBP_NELEM(gbp_tops), ndyn = 0, nc = 0;
    long *parts;
    double wsum = 0;
    struct gbp_child *c;
    char *path = gbp_xalloc(4096);

    if (names >= 200)
        ndyn = GBP_NELEM(gbp_dyn_top);
    if (names >= 2000)
        g->dyn_nested_left = GBP_NELEM(gbp_dyn_nested);
    /* small namespaces: fewer top-level subtrees, at least ~4 leaves each */
    if (ntop > (names - ndyn) / 4)
        ntop = (names - ndyn) / 4;
    if (ntop < 1)
        ntop = 1;
    parts = gbp_xalloc((size_t)ntop * sizeof *parts);
    {
        long given = 0, avail = names - ndyn - ntop;
        double *w = gbp_xalloc((size_t)ntop * sizeof *w);
        for (long t = 0; t < ntop; t++) {
            /* the weight, jittered by +-25% */
            w[t] = gbp_tops[t].weight * (0.75 + 0.5 * gbp_unit());
            wsum += w[t];
        }
        for (long t = 0; t < ntop; t++) {
            parts[t] = 1 + (long)((double)avail * w[t] / wsum);
            given += parts[t];
        }
        for (long t = 0; given < names - ndyn; t = (t + 1) % ntop)
            parts[t]++, given++;
        free(w);
    }
    for (long t = 0; t < ntop; t++)
        gbp_dom(g, gbp_tops[t].domain)->total += parts[t];

    c = gbp_xalloc((size_t)(ntop + ndyn) * sizeof *c);
    for (long t = 0; t < ntop; t++) {
        c[nc].name = gbp_strdup(gbp_tops[t].name);
        c[nc].leaf = 0;
        c[nc].budget = parts[t];
        c[nc].dyn = 0;
        nc++;
        if (t % 12 == 5 && t / 12 < ndyn) {
            c[nc].name = gbp_strdup(gbp_dyn_top[t / 12].name);
            c[nc].leaf = 1;
            c[nc].dyn = gbp_dyn_top[t / 12].domain;
            c[nc].pmid = 0;
            g->ndyn++;
            nc++;
        }
    }
    /* small namespaces with few top-level entries: remaining dynamic roots last */
    for (long t = (ntop + 6) / 12; t < ndyn; t++) {
        c[nc].name = gbp_strdup(gbp_dyn_top[t].name);
        c[nc].leaf = 1;
        c[nc].dyn = gbp_dyn_top[t].domain;
        c[nc].pmid = 0;
        g->ndyn++;
        nc++;
    }
    g->nnonleaf++;
    path[0] = '\0';
    gbp_emit(g, NULL, path, 0, 0, GBP_MAX_DEPTH, c, nc);
    free(c);
    free(parts);
    free(path);
}

/* ---- files ------------------------------------------------------------------------ */

static FILE *gbp_open_tmp(const char *base, const char *suffix, char **tmpname, char **final)
{
    size_t n = strlen(base) + strlen(suffix) + 64;
    FILE *f;
    *final = gbp_xalloc(n);
    *tmpname = gbp_xalloc(n);
    snprintf(*final, n, "%s%s", base, suffix);
    snprintf(*tmpname, n, "%s%s.tmp%ld", base, suffix, (long)getpid());
    f = fopen(*tmpname, "w");
    if (f == NULL)
        fprintf(stderr, "gen_bench_pmns: %s: %s\n", *tmpname, strerror(errno));
    return f;
}

static int gbp_close(FILE *f, const char *tmpname)
{
    if (f == NULL)
        return -1;
    if (ferror(f) | fclose(f)) {
        fprintf(stderr, "gen_bench_pmns: %s: write error\n", tmpname);
        return -1;
    }
    return 0;
}

/*
 * Generate OUTFILE, OUTFILE.names and OUTFILE.pmids with exactly names
 * leaves (names >= 1).  If stats is not NULL, a one-line summary goes there.
 * Returns 0 or -1 (after a message on stderr).
 */
static int gbp_generate(const char *outfile, long names, uint64_t seed, FILE *stats)
{
    struct gbp *g = calloc(1, sizeof *g);
    char *tmp[3], *fin[3];
    int rc = 0;

    if (g == NULL || names < 1) {
        fprintf(stderr, "gen_bench_pmns: bad arguments\n");
        free(g);
        return -1;
    }
    gbp_rng = seed * UINT64_C(0x2545F4914F6CDD1D) + (uint64_t)names;
    g->spill_next = GBP_SPILL_DOMAIN;
    g->pmns = gbp_open_tmp(outfile, "", &tmp[0], &fin[0]);
    g->names = gbp_open_tmp(outfile, ".names", &tmp[1], &fin[1]);
    g->pmids = gbp_open_tmp(outfile, ".pmids", &tmp[2], &fin[2]);
    if (g->pmns != NULL && g->names != NULL && g->pmids != NULL)
        gbp_root(g, names);
    else
        rc = -1;
    /* close all three; rename the companions first, the namespace last */
    for (int i = 2; i >= 0; i--) {
        FILE *f = i == 0 ? g->pmns : i == 1 ? g->names : g->pmids;
        if (gbp_close(f, tmp[i]) < 0)
            rc = -1;
    }
    if (rc == 0 && g->nleaves != names) {
        fprintf(stderr, "gen_bench_pmns: internal error: %ld leaves, wanted %ld\n", g->nleaves,
                names);
        rc = -1;
    }
    for (int i = 2; i >= 0; i--) {
        if (rc == 0 && rename(tmp[i], fin[i]) != 0) {
            fprintf(stderr, "gen_bench_pmns: rename %s: %s\n", fin[i], strerror(errno));
            rc = -1;
        }
        if (rc != 0)
            unlink(tmp[i]);
        free(tmp[i]);
        free(fin[i]);
    }
    if (rc == 0 && stats != NULL) {
        fprintf(stats,
                "gen_bench_pmns: %s: %ld leaves (%ld dynamic roots, %ld aliased PMIDs), "
                "%ld non-leaves, %ld wide nodes, widest %ld; leaves at depth",
                outfile, g->nleaves, g->ndyn, g->ndup, g->nnonleaf, g->nwide, g->maxfan);
        for (int d = 1; d <= GBP_MAX_DEPTH; d++)
            if (g->depth_hist[d])
                fprintf(stats, " %d:%ld", d, g->depth_hist[d]);
        fputc('\n', stats);
    }
    for (int i = 0; i < 512; i++)
        free(g->dom[i].pmids);
    free(g);
    return rc;
}

#ifndef GEN_BENCH_PMNS_NO_MAIN
int main(int argc, char **argv)
{
    char *end;
    long names;
    uint64_t seed = 1;

    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: gen_bench_pmns OUTFILE NAMES [SEED]\n");
        return 2;
    }
    names = strtol(argv[2], &end, 10);
    if (*end != '\0' || names < 1 || names > 50000000) {
        fprintf(stderr, "gen_bench_pmns: NAMES must be 1..50000000\n");
        return 2;
    }
    if (argc == 4) {
        seed = strtoull(argv[3], &end, 10);
        if (*end != '\0') {
            fprintf(stderr, "gen_bench_pmns: SEED must be a number\n");
            return 2;
        }
    }
    return gbp_generate(argv[1], names, seed, stderr) == 0 ? 0 : 1;
}
#endif
