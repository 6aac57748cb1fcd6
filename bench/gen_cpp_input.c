/*
 * gen_cpp_input OUTDIR SIZE_MB [SEED]
 *
 * Writes a synthetic pmcpp benchmark input (used by bench/pmcpp_bench.sh):
 *
 *   OUTDIR/main.pmns          about SIZE_MB * 10^6 bytes
 *   OUTDIR/inc/stdpmid        ~180 domain #defines, included once at the top
 *   OUTDIR/inc/chunkN.pmns    4 fragments, each #included many times
 *   OUTDIR/stats              key=value description of what was written
 *
 * The text mixes PMNS-style and pmlogger-config-style lines: #define of
 * about 200 macros, single-level #ifdef/#ifndef/#else/#endif blocks, C
 * comments (whole-line, inline, multi-line, and comments that open in the
 * middle of a line and close on a later one), lines with several macro
 * substitutions, lines without any, blank lines, mostly 20-120 character
 * lines and a few multi-KB ones.
 *
 * Constraints kept so that both Debian's pmcpp and `mcpp -P` accept it:
 *   - no nested conditionals; #include only outside conditionals;
 *   - #else only in blocks whose condition is true (Debian's pmcpp breaks on
 *     a second #else that turns a block true, see toolchain.md 2.15);
 *   - every macro is defined once, except the scratch macros TMP_A..TMP_D
 *     that are always #undef'd before they are defined again;
 *   - no '#' lines other than the directives above, no #shell, no
 *     apostrophes, backslashes or unbalanced quotes, no "slash-star" outside
 *     comments, every line ends with a newline;
 *   - #include "inc/..." resolves both from the top-level file's directory
 *     (pmcpp) and from the including file's directory (mcpp).
 *
 * Output is a function of SIZE_MB and SEED only (default seed 1).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

/* ---- deterministic PRNG (splitmix64) ---------------------------------- */

static uint64_t rng_state;

static uint64_t rnd(void)
{
    uint64_t z = (rng_state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* uniform in [0, n) */
static unsigned urand(unsigned n)
{
    return (unsigned)(rnd() % n);
}

/* true with probability pct/100 */
static int chance(unsigned pct)
{
    return urand(100) < pct;
}

#define PICK(arr) ((arr)[urand((unsigned)(sizeof(arr) / sizeof((arr)[0])))])

/* ---- output with accounting ------------------------------------------- */

struct out {
    FILE *f;
    char *path; /* owned */
    uint64_t bytes, lines;
    uint64_t blank, comment_lines, directive_lines, text_lines;
    uint64_t long_lines, macro_uses, includes, scratch_pairs, false_bytes;
};

static char *linebuf;
static size_t linecap;

static void die(const char *what, const char *path)
{
    fprintf(stderr, "gen_cpp_input: %s %s: %s\n", what, path, strerror(errno));
    exit(1);
}

static void emit_raw(struct out *o, const char *s, size_t n)
{
    if (fwrite(s, 1, n, o->f) != n)
        die("cannot write", o->path);
    o->bytes += n;
    for (size_t i = 0; i < n; i++)
        if (s[i] == '\n')
            o->lines++;
}

/* printf-style append of text (caller supplies the newlines) */
static void emitf(struct out *o, const char *fmt, ...)
{
    va_list ap;
    int n;

    for (;;) {
        va_start(ap, fmt);
        n = vsnprintf(linebuf, linecap, fmt, ap);
        va_end(ap);
        if (n < 0) {
            fprintf(stderr, "gen_cpp_input: vsnprintf failed\n");
            exit(1);
        }
        if ((size_t)n < linecap)
            break;
        linecap = (size_t)n + 1;
        if ((linebuf = realloc(linebuf, linecap)) == NULL) {
            fprintf(stderr, "gen_cpp_input: out of memory\n");
            exit(1);
        }
    }
    emit_raw(o, linebuf, (size_t)n);
}

/* takes ownership of path */
static struct out *open_out(char *path)
{
    struct out *o = calloc(1, sizeof(*o));

    if (o == NULL)
        exit(1);
    o->path = path;
    if ((o->f = fopen(path, "w")) == NULL)
        die("cannot create", path);
    setvbuf(o->f, NULL, _IOFBF, 1 << 20);
    return o;
}

static void close_out(struct out *o)
{
    if (fclose(o->f) != 0)
        die("cannot write", o->path);
    o->f = NULL;
}

static void free_out(struct out *o)
{
    free(o->path);
    free(o);
}

/* ---- vocabulary ------------------------------------------------------- */

static const char *const real_domains[] = {
    "PMCD",          "LINUX",      "SAMPLE",     "SAMPLEDSO",   "MMV",    "PROC",    "XFS",
    "NFSCLIENT",     "KVM",        "JBD2",       "BPFTRACE",    "DM",     "BCC",     "NVIDIA",
    "ELASTICSEARCH", "POSTGRESQL", "MYSQL",      "APACHE",      "NGINX",  "REDIS",   "ZFS",
    "LUSTRE",        "GFS2",       "INFINIBAND", "CIFS",        "DOCKER", "PODMAN",  "SMART",
    "SOCKETS",       "HACLUSTER",  "LMSENSORS",  "OPENMETRICS", "RAPL",   "ROOT",    "TRACE",
    "SIMPLE",        "TXMON",      "SENDMAIL",   "CISCO",       "SHPING", "DBPING",  "ORACLE",
    "SUMMARY",       "WEBLOG",     "MEMCACHE",   "ROUNDROBIN",  "GPFS",   "HOTPROC", "DENKI",
    "RESCTRL",       "STATSD",
};

static const char *const words[] = {
    "kernel",   "all",       "percpu",      "cpu",      "user",       "nice",        "sys",
    "idle",     "wait",      "intr",        "disk",     "dev",        "read",        "write",
    "bytes",    "blkread",   "blkwrite",    "mem",      "util",       "free",        "swap",
    "network",  "interface", "in",          "out",      "packets",    "errors",      "drops",
    "filesys",  "capacity",  "used",        "avail",    "proc",       "nprocs",      "runq",
    "hinv",     "ncpu",      "pmcd",        "agent",    "status",     "xfs",         "nfs",
    "client",   "server",    "ops",         "vfs",      "files",      "inodes",      "ipc",
    "sem",      "msg",       "shm",         "tty",      "pagesize",   "load",        "uptime",
    "gpu",      "memused",   "temperature", "buffer",   "cache",      "slab",        "active",
    "inactive", "dirty",     "writeback",   "mapped",   "committed",  "hugepages",   "numa",
    "node",     "zone",      "vmstat",      "pgfault",  "pgmajfault", "context",     "switches",
    "forks",    "running",   "blocked",     "softirqs", "latency",    "queue",       "sockets",
    "tcp",      "udp",       "icmp",        "retrans",  "listen",     "established", "timewait",
    "total",
};

static const char *const comment_words[] = {
    "metrics",    "exported",   "by",       "the",      "agent",
    "for",        "this",       "subtree",  "counter",  "instantaneous",
    "value",      "in",         "bytes",    "per",      "second",
    "see",        "pmdaproc",   "and",      "stdpmid",  "numbers",
    "must",       "be",         "unique",   "cluster",  "item",
    "reserved",   "deprecated", "since",    "release",  "new",
    "semantics",  "units",      "kbyte",    "millisec", "derived",
    "from",       "sysfs",      "optional", "only",     "when",
    "configured", "note",       "do",       "not",      "edit",
};

static const char *const instances[] = {
    "sda",      "sdb",      "sdc",       "nvme0n1", "nvme1n1", "dm-0", "dm-1",  "md0",  "eth0",
    "eth1",     "lo",       "wlan0",     "bond0",   "cpu0",    "cpu1", "cpu2",  "cpu3", "node0",
    "1 minute", "5 minute", "15 minute", "/",       "/home",   "/var", "/boot",
};

/* macros defined in main.pmns: clusters, intervals, flags */
#define NCLUSTERS 20
static const char *const cluster_names[NCLUSTERS] = {
    "CL_STAT",         "CL_MEMINFO", "CL_LOADAVG",     "CL_NET_DEV",    "CL_INTERRUPTS",
    "CL_FILESYS",      "CL_SWAPDEV", "CL_NET_NETSTAT", "CL_PARTITIONS", "CL_VMSTAT",
    "CL_UPTIME",       "CL_SLAB",    "CL_SEM_LIMITS",  "CL_MSG_LIMITS", "CL_SHM_LIMITS",
    "CL_NUMA_MEMINFO", "CL_CPUINFO", "CL_TCP",         "CL_UDP",        "CL_SOFTIRQS",
};
static const char *const intervals[] = {
    "INTERVAL_FAST",
    "INTERVAL_DEFAULT",
    "INTERVAL_SLOW",
    "INTERVAL_HOURLY",
};
static const char *const interval_values[] = {
    "'1 sec'",
    "\"30 sec\"",
    "\"5 min\"",
    "\"1 hour\"",
};
static const char *const flags_def[] = {
    "HAVE_NUMA",     "HAVE_XFS",     "HAVE_NVIDIA",   "HAVE_CGROUPS",
    "HAVE_PMDA_KVM", "WANT_PER_CPU", "WANT_PER_DISK",
};
static const char *const flags_undef[] = {
    "HAVE_INFINIBAND",  "HAVE_LUSTRE",        "HAVE_GPFS",
    "WANT_PROC_DETAIL", "WANT_DEBUG_METRICS", "HAVE_ZFS_ARC",
};
static const char *const misc_macros[][2] = {
    {"PCP_HOST", "\"monitor.example.com\""},
    {"ARCHIVE_DIR", "/var/log/pcp/pmlogger"},
    {"ACCESS_NET", "192.168.0.0"},
    {"MAX_INST", "4096"},
    {"ITEM_BASE", "100"},
    {"OPT_EMPTY", ""},
};
static const char *const scratch[] = {"TMP_A", "TMP_B", "TMP_C", "TMP_D"};

#define NDOMAINS 180
static char domain_names[NDOMAINS][32];
static unsigned ndomains;

/* ---- generators --------------------------------------------------------- */

static const char *domain_macro(void)
{
    return domain_names[urand(ndomains)];
}

static void metric_name(char *buf, size_t len, unsigned parts)
{
    size_t n = 0;

    buf[0] = '\0';
    for (unsigned i = 0; i < parts && n + 1 < len; i++) {
        int w = snprintf(buf + n, len - n, "%s%s", i ? "." : "", PICK(words));
        if (w < 0 || (size_t)w >= len - n)
            break;
        n += (size_t)w;
    }
}

static void comment_text(char *buf, size_t len, unsigned nwords)
{
    size_t n = 0;

    buf[0] = '\0';
    for (unsigned i = 0; i < nwords; i++) {
        int w = snprintf(buf + n, len - n, "%s%s", i ? " " : "", PICK(comment_words));
        if (w < 0 || (size_t)w >= len - n)
            break;
        n += (size_t)w;
    }
}

/* "    name\t\tDOMAIN:CLUSTER:ITEM [ inline comment ]" */
static void pmns_leaf(struct out *o)
{
    char name[64], cmt[160];
    const char *dom, *cl;
    char dnum[16], cnum[16];
    unsigned item = urand(1000);

    metric_name(name, sizeof(name), 1 + urand(2));
    if (chance(75)) {
        dom = domain_macro();
        o->macro_uses++;
    } else {
        snprintf(dnum, sizeof(dnum), "%u", 1 + urand(510));
        dom = dnum;
    }
    if (chance(45)) {
        cl = cluster_names[urand(NCLUSTERS)];
        o->macro_uses++;
    } else {
        snprintf(cnum, sizeof(cnum), "%u", urand(4096));
        cl = cnum;
    }
    if (chance(12)) {
        comment_text(cmt, sizeof(cmt), 2 + urand(8));
        emitf(o, "    %s\t\t%s:%s:%u\t/* %s */\n", name, dom, cl, item, cmt);
    } else {
        emitf(o, "    %s%*s%s:%s:%u\n", name, (int)(1 + urand(24)), "", dom, cl, item);
    }
    o->text_lines++;
}

static void comment_line(struct out *o)
{
    char cmt[400];

    comment_text(cmt, sizeof(cmt), 2 + urand(12));
    emitf(o, "%s/* %s */\n", chance(30) ? "    " : "", cmt);
    o->comment_lines++;
}

static void comment_block(struct out *o)
{
    char cmt[400];
    unsigned n = 1 + urand(7);

    emitf(o, "/*\n");
    for (unsigned i = 0; i < n; i++) {
        comment_text(cmt, sizeof(cmt), 3 + urand(12));
        emitf(o, " * %s\n", cmt);
    }
    emitf(o, " */\n");
    o->comment_lines += n + 2;
}

/* a comment that opens after text and closes on a later line, before text */
static void comment_straddle(struct out *o)
{
    char name[64], cmt[200];

    metric_name(name, sizeof(name), 2);
    comment_text(cmt, sizeof(cmt), 3 + urand(5));
    emitf(o, "    %s\t%s:%u:%u\t/* %s\n", name, domain_macro(), urand(64), urand(1000), cmt);
    comment_text(cmt, sizeof(cmt), 4 + urand(8));
    emitf(o, "       %s\n", cmt);
    metric_name(name, sizeof(name), 2);
    emitf(o, "       end of note */ %s\t%s:%u:%u\n", name, domain_macro(), urand(64), urand(1000));
    o->macro_uses += 2;
    o->text_lines += 2;
    o->comment_lines++;
}

static void plain_line(struct out *o)
{
    char name[96];

    metric_name(name, sizeof(name), 2 + urand(4));
    switch (urand(4)) {
    case 0:
        emitf(o, "    %s\n", name);
        break;
    case 1:
        emitf(o, "    %s [ \"%s\" \"%s\" ]\n", name, PICK(instances), PICK(instances));
        break;
    case 2:
        emitf(o, "%s {\n", name);
        break;
    default:
        emitf(o, "}\n");
        break;
    }
    o->text_lines++;
}

/* one line carrying several macros: pmlogger/pmns mix */
static void multi_macro_line(struct out *o)
{
    char name[64];

    metric_name(name, sizeof(name), 2);
    switch (urand(3)) {
    case 0:
        emitf(o, "    %s\t%s:%s:%u %s:%s:%u\n", name, domain_macro(),
              cluster_names[urand(NCLUSTERS)], urand(1000), domain_macro(),
              cluster_names[urand(NCLUSTERS)], urand(1000));
        o->macro_uses += 4;
        break;
    case 1:
        emitf(o, "allow %s, %s : all except store; /* on %s */\n", "ACCESS_NET", "PCP_HOST",
              PICK(words));
        o->macro_uses += 2;
        break;
    default:
        emitf(o, "    %s.%s\t%s:%s:ITEM_BASE OPT_EMPTY MAX_INST\n", name, PICK(words),
              domain_macro(), cluster_names[urand(NCLUSTERS)]);
        o->macro_uses += 5;
        break;
    }
    o->text_lines++;
}

static void blank_lines(struct out *o)
{
    unsigned n = 1 + (chance(20) ? urand(3) : 0);

    for (unsigned i = 0; i < n; i++)
        emitf(o, "\n");
    o->blank += n;
}

/* 2..16 KB: an instance list or a long PMNS-ish line */
static void long_line(struct out *o)
{
    unsigned target = 2048 + urand(14 * 1024);
    uint64_t start = o->bytes;
    char name[64];

    metric_name(name, sizeof(name), 3);
    emitf(o, "    %s [", name);
    while (o->bytes - start < target) {
        if (chance(10)) {
            emitf(o, " %s:%u", domain_macro(), urand(100));
            o->macro_uses++;
        } else {
            emitf(o, " \"%s\"", PICK(instances));
        }
    }
    emitf(o, " ]\n");
    o->long_lines++;
    o->text_lines++;
}

static void text_item(struct out *o)
{
    unsigned r = urand(100);

    if (r < 50)
        pmns_leaf(o);
    else if (r < 64)
        plain_line(o);
    else if (r < 77)
        multi_macro_line(o);
    else if (r < 84)
        comment_line(o);
    else if (r < 92)
        blank_lines(o);
    else if (r < 95)
        comment_block(o);
    else if (r < 97)
        comment_straddle(o);
    else {
        /* pmlogger group header/footer */
        emitf(o, "log %s on %s {\n", chance(80) ? "mandatory" : "advisory", PICK(intervals));
        o->macro_uses++;
        o->text_lines++;
    }
}

/* single-level conditional; #else only when the condition is true */
static void conditional(struct out *o)
{
    int want_true = chance(60);
    int use_ifdef = chance(65);
    const char *name;
    unsigned n;

    if (use_ifdef == want_true)
        name = PICK(flags_def);
    else
        name = PICK(flags_undef);
    uint64_t start;

    emitf(o, "#%s %s%s\n", use_ifdef ? "ifdef" : "ifndef", name,
          chance(10) ? "\t/* feature test */" : "");
    o->directive_lines++;
    n = 1 + urand(12);
    start = o->bytes;
    for (unsigned i = 0; i < n; i++)
        text_item(o);
    if (!want_true)
        o->false_bytes += o->bytes - start;
    if (want_true && chance(40)) {
        emitf(o, "#else\n");
        o->directive_lines++;
        n = 1 + urand(8);
        start = o->bytes;
        for (unsigned i = 0; i < n; i++)
            text_item(o);
        o->false_bytes += o->bytes - start;
    }
    emitf(o, "#endif%s\n", chance(20) ? " /* feature test */" : "");
    o->directive_lines++;
}

/*
 * Debian's pmcpp keeps every #undef'd macro as a dead entry in its linearly
 * searched table, so each define/undef pair slows all later lookups; with
 * pairs spread over the whole input its time would grow faster than
 * linearly.  Hence a fixed number of pairs, all near the top of main.pmns.
 */
static unsigned scratch_left;

/* #define of a scratch macro, a few uses, #undef */
static void scratch_macro(struct out *o)
{
    const char *s = PICK(scratch);
    char name[64];

    emitf(o, "#define %s %u\n", s, urand(100000));
    o->scratch_pairs++;
    metric_name(name, sizeof(name), 2);
    emitf(o, "    %s\t%s:%s:%s\n", name, domain_macro(), s, s);
    emitf(o, "#undef %s\n", s);
    o->directive_lines += 2;
    o->text_lines++;
    o->macro_uses += 3;
}

/* what can appear outside a conditional */
static void top_item(struct out *o)
{
    unsigned r = urand(1000);

    if (r < 60)
        conditional(o);
    else if (r < 64 && scratch_left > 0) {
        scratch_left--;
        scratch_macro(o);
    } else
        text_item(o);
}

/* ---- files ---------------------------------------------------------------- */

static char *path_join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);

    if (p == NULL)
        exit(1);
    snprintf(p, n, "%s/%s", dir, name);
    return p;
}

static void make_dir(const char *path)
{
    if (mkdir(path, 0777) != 0 && errno != EEXIST)
        die("cannot create directory", path);
}

static void write_stdpmid(struct out *o)
{
    unsigned used[512] = {0};
    size_t nreal = sizeof(real_domains) / sizeof(real_domains[0]);

    emitf(o, "/*\n * stdpmid-like table of PMDA domain numbers (generated)\n"
             " *\n * Each domain number must be unique.\n */\n\n");
    o->comment_lines += 5;
    o->blank++;
    for (unsigned i = 0; i < NDOMAINS; i++) {
        unsigned num;

        do
            num = 1 + urand(510);
        while (used[num]);
        used[num] = 1;
        if (i < nreal)
            snprintf(domain_names[i], sizeof(domain_names[i]), "%s", real_domains[i]);
        else
            snprintf(domain_names[i], sizeof(domain_names[i]), "DOM_%s%u",
                     words[urand(sizeof(words) / sizeof(words[0]))], i);
        for (char *c = domain_names[i]; *c; c++)
            if (*c >= 'a' && *c <= 'z')
                *c = (char)(*c - 'a' + 'A');
        if (chance(25)) {
            char cmt[200];

            comment_text(cmt, sizeof(cmt), 2 + urand(6));
            emitf(o, "#define %s\t\t%u\t/* %s */\n", domain_names[i], num, cmt);
        } else {
            emitf(o, "#define %s\t\t%u\n", domain_names[i], num);
        }
        o->directive_lines++;
        if (chance(8)) {
            emitf(o, "\n");
            o->blank++;
        }
    }
    ndomains = NDOMAINS;
}

static void write_chunk(struct out *o, unsigned idx, size_t target)
{
    emitf(o, "/* chunk %u: a fragment included several times */\n", idx);
    o->comment_lines++;
    while (o->bytes < target)
        top_item(o);
    emitf(o, "/* end of chunk %u */\n", idx);
    o->comment_lines++;
}

/* composition of a written file: comment bytes as pmcpp strips them, line lengths */
struct scan {
    uint64_t comment_bytes, len0, len1_19, len20_120, len121_1023, len1024, maxlen;
};

static void scan_file(const char *path, struct scan *sc)
{
    static char buf[1 << 16];
    FILE *f = fopen(path, "r");
    size_t n;
    uint64_t len = 0;
    int in_comment = 0, prev = 0;

    if (f == NULL)
        die("cannot read", path);
    memset(sc, 0, sizeof(*sc));
    while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
        for (size_t i = 0; i < n; i++) {
            int c = (unsigned char)buf[i];

            if (c == '\n') {
                if (len == 0)
                    sc->len0++;
                else if (len < 20)
                    sc->len1_19++;
                else if (len <= 120)
                    sc->len20_120++;
                else if (len < 1024)
                    sc->len121_1023++;
                else
                    sc->len1024++;
                if (len > sc->maxlen)
                    sc->maxlen = len;
                len = 0;
            } else {
                len++;
            }
            if (in_comment) {
                if (c != '\n')
                    sc->comment_bytes++;
                if (prev == '*' && c == '/') {
                    in_comment = 0;
                    c = 0; /* a closing slash does not start a new opener */
                }
            } else if (prev == '/' && c == '*') {
                in_comment = 1;
                sc->comment_bytes += 2;
                c = 0; /* the opening star cannot also close */
            }
            prev = c;
        }
    }
    fclose(f);
}

#define NCHUNKS 4

int main(int argc, char **argv)
{
    const char *dir;
    char *endp, *p, *incdir;
    unsigned long size_mb;
    unsigned long long seed = 1;
    uint64_t target, chunk_bytes[NCHUNKS], chunk_lines[NCHUNKS];
    uint64_t inc_bytes = 0, inc_lines = 0, chunk_incs = 0, ndefines = 0;
    struct out *m, *o;
    char chunkname[32];

    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: gen_cpp_input OUTDIR SIZE_MB [SEED]\n");
        return 2;
    }
    dir = argv[1];
    errno = 0;
    size_mb = strtoul(argv[2], &endp, 10);
    if (errno || *endp || size_mb == 0 || size_mb > 100000) {
        fprintf(stderr, "gen_cpp_input: bad SIZE_MB '%s'\n", argv[2]);
        return 2;
    }
    if (argc == 4) {
        seed = strtoull(argv[3], &endp, 10);
        if (*endp || argv[3][0] == '\0') {
            fprintf(stderr, "gen_cpp_input: bad SEED '%s'\n", argv[3]);
            return 2;
        }
    }
    rng_state = seed;
    linecap = 1024;
    if ((linebuf = malloc(linecap)) == NULL)
        return 1;
    target = (uint64_t)size_mb * 1000000u;

    make_dir(dir);
    incdir = path_join(dir, "inc");
    make_dir(incdir);

    /* inc/stdpmid */
    o = open_out(path_join(incdir, "stdpmid"));
    write_stdpmid(o);
    close_out(o);
    inc_bytes += o->bytes;
    inc_lines += o->lines;
    ndefines += o->directive_lines;
    free_out(o);

    /* inc/chunkN.pmns, 8..40 KB each */
    for (unsigned i = 0; i < NCHUNKS; i++) {
        snprintf(chunkname, sizeof(chunkname), "chunk%u.pmns", i);
        o = open_out(path_join(incdir, chunkname));
        write_chunk(o, i, 8192 + urand(32 * 1024));
        close_out(o);
        chunk_bytes[i] = o->bytes;
        chunk_lines[i] = o->lines;
        free_out(o); /* counted per inclusion below */
    }

    /* main.pmns */
    m = open_out(path_join(dir, "main.pmns"));
    emitf(m,
          "/*\n * Synthetic PMNS / pmlogger configuration for the pmcpp benchmark.\n"
          " * Generated by bench/gen_cpp_input, size %lu MB, seed %llu.\n */\n\n",
          size_mb, seed);
    m->comment_lines += 4;
    m->blank++;
    emitf(m, "#include \"inc/stdpmid\"\n\n");
    m->includes++;
    m->blank++;
    for (unsigned i = 0; i < NCLUSTERS; i++)
        emitf(m, "#define %s %u\n", cluster_names[i], i);
    for (unsigned i = 0; i < sizeof(intervals) / sizeof(intervals[0]); i++)
        emitf(m, "#define %s %s\n", intervals[i], interval_values[i]);
    for (unsigned i = 0; i < sizeof(flags_def) / sizeof(flags_def[0]); i++)
        emitf(m, "#define %s\n", flags_def[i]);
    for (unsigned i = 0; i < sizeof(misc_macros) / sizeof(misc_macros[0]); i++)
        emitf(m, "#define %s %s\n", misc_macros[i][0], misc_macros[i][1]);
    {
        uint64_t nd = NCLUSTERS + sizeof(intervals) / sizeof(intervals[0]) +
                      sizeof(flags_def) / sizeof(flags_def[0]) +
                      sizeof(misc_macros) / sizeof(misc_macros[0]);
        ndefines += nd;
        m->directive_lines += nd;
    }
    scratch_left = 24;
    emitf(m, "\nroot {\n");
    m->blank++;
    m->text_lines++;

    {
        /* one chunk include about every 1.5 MB */
        uint64_t next_inc = 1500000 + urand(500000);

        while (m->bytes < target) {
            if (m->bytes >= next_inc) {
                unsigned c = urand(NCHUNKS);

                emitf(m, "#include \"inc/chunk%u.pmns\"\n", c);
                m->includes++;
                chunk_incs++;
                inc_bytes += chunk_bytes[c];
                inc_lines += chunk_lines[c];
                next_inc = m->bytes + 1000000 + urand(1000000);
                continue;
            }
            if (urand(20000) == 0)
                long_line(m);
            else
                top_item(m);
        }
    }
    emitf(m, "}\n");
    m->text_lines++;
    close_out(m);

    /* stats */
    {
        struct scan sc;
        double mb = (double)m->bytes, ml = (double)m->lines;

        scan_file(m->path, &sc);
        p = path_join(dir, "stats");
        o = open_out(p);
        fprintf(o->f,
                "size_mb=%lu\nseed=%llu\n"
                "main_bytes=%" PRIu64 "\nmain_lines=%" PRIu64 "\n"
                "include_lines_in_main=%" PRIu64 "\nchunk_inclusions=%" PRIu64 "\n"
                "included_bytes=%" PRIu64 "\nincluded_lines=%" PRIu64 "\n"
                "total_bytes=%" PRIu64 "\ntotal_lines=%" PRIu64 "\n"
                "macros_defined=%" PRIu64 "\nscratch_define_undef_pairs=%" PRIu64 "\n"
                "main_directive_lines=%" PRIu64 "\nmain_whole_line_comment_lines=%" PRIu64 "\n"
                "main_blank_lines=%" PRIu64 "\nmain_text_lines=%" PRIu64 "\n"
                "main_macro_uses=%" PRIu64 "\n"
                "main_comment_bytes_pct=%.1f\nmain_false_block_bytes_pct=%.1f\n"
                "main_lines_len0_pct=%.1f\nmain_lines_len1_19_pct=%.1f\n"
                "main_lines_len20_120_pct=%.1f\nmain_lines_len121_1023_pct=%.2f\n"
                "main_lines_len1024plus=%" PRIu64 "\nmain_max_line_len=%" PRIu64 "\n"
                "main_mean_line_len=%.1f\n",
                size_mb, seed, m->bytes, m->lines, m->includes, chunk_incs, inc_bytes, inc_lines,
                m->bytes + inc_bytes, m->lines + inc_lines,
                ndefines + (sizeof(scratch) / sizeof(scratch[0])), m->scratch_pairs,
                m->directive_lines, m->comment_lines, m->blank, m->text_lines, m->macro_uses,
                100.0 * (double)sc.comment_bytes / mb, 100.0 * (double)m->false_bytes / mb,
                100.0 * (double)sc.len0 / ml, 100.0 * (double)sc.len1_19 / ml,
                100.0 * (double)sc.len20_120 / ml, 100.0 * (double)sc.len121_1023 / ml, sc.len1024,
                sc.maxlen, mb / ml);
    }
    close_out(o);
    free_out(o);
    free_out(m);
    free(incdir);
    free(linebuf);
    return 0;
}
