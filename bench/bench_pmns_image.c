/*
 * bench_pmns_image.c: the binary namespace image (pmnscomp's output)
 * against PCP's libpcp, which has no image and loads the ASCII file.
 *
 * Built from this one source against both libraries (bench/run).  The
 * pmkit side is recognised at compile time by <pcp/pmkit.h>; there the
 * namespace is opened from its image, compiled once with
 * BUILD/bin/pmnscomp (or $PMNSCOMP) next to the ASCII file; on PCP's side
 * the same names come from pmLoadNameSpace of the ASCII file.  Either way
 * each case is "the fastest way this library has to open the namespace".
 * The namespaces are bench_pmns.c's (gen_bench_pmns.c, same files, same
 * sizes and variables: BENCH_PMNS_SIZES, BENCH_PMNS_BIG, BENCH_PMNS_SEED,
 * BENCH_PMNS_DIR, BENCH_PMNS_BUDGET_MS).  For every size L:
 *
 *   open_L          one pmLoadNameSpace: the image (pmkit), the ASCII file
 *                   (PCP); pmUnloadNameSpace after each, untimed.  Repeated
 *                   until the budget is spent (at most 2000 times), best one
 *   open_ascii_L    one pmLoadNameSpace of the ASCII file, on both sides
 *   lookup_L        pmLookupName(1, ...) of a random leaf name
 *   nameid_L        pmNameID of a random PMID of the namespace (then free)
 *   traverse_L      pmTraversePMNS("") of the whole namespace
 *   anon_kib_L      anonymous resident memory (KiB) one open adds, from
 *                   /proc/self/smaps_rollup: memory only this process can
 *                   use (the heap: PCP's whole tree, pmkit's few bytes)
 *   file_kib_L      file-backed resident memory (KiB) one open adds: pages
 *                   of the mapped image, shared by every process that maps
 *                   it through the page cache
 *   anon_all_kib_L, file_all_kib_L
 *                   the same after the open and one traversal plus a lookup
 *                   of every name, when every page has been touched
 *   bytes_per_name_L  image bytes per leaf name (pmkit); ASCII bytes per
 *                   leaf name (PCP, which has only the text)
 *
 * Memory cases run in a fresh process (the binary re-executes itself),
 * like bench_pmns's load_rss_kib.  Values that are not times are printed
 * in the ns/op column.  Checksums hash each case's results (the load
 * status, 1000 lookups and the root's children for the memory and open
 * cases), so equal checksums mean both libraries answered alike.
 *
 * Usage: bench_pmns_image [-l] [NAME...]  (as every bench binary)
 */
#include <pcp/pmapi.h>

#include "bench.h"

#define GEN_BENCH_PMNS_NO_MAIN
#include "gen_bench_pmns.c"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<pcp/pmkit.h>)
#define HAVE_IMAGE 1 /* pmkit: namespace images */
#endif
#endif
#ifndef HAVE_IMAGE
#define HAVE_IMAGE 0
#endif

#define MAX_SIZES    8
#define VERIFY_CALLS 1000
#define OPEN_REPS    2000

enum kind {
    K_OPEN,
    K_OPEN_ASCII,
    K_LOOKUP,
    K_NAMEID,
    K_TRAVERSE,
    K_ANON,
    K_FILE,
    K_ANON_ALL,
    K_FILE_ALL,
    K_BYTES
};
static const char *const kind_name[] = {
    "open",     "open_ascii", "lookup",       "nameid",       "traverse",
    "anon_kib", "file_kib",   "anon_all_kib", "file_all_kib", "bytes_per_name",
};
#define NKINDS ((int)(sizeof kind_name / sizeof kind_name[0]))

struct size {
    long n;           /* leaves */
    char label[24];   /* 3k, 100k, 1m */
    char file[4200];  /* the ASCII namespace */
    char image[4300]; /* its image (pmkit) */
    char **names;     /* leaf names (file.names) */
    long nnames;
    pmID *pmids; /* distinct static PMIDs (file.pmids) */
    long npmids;
};

static struct size sizes[MAX_SIZES];
static int nsizes;
static struct size *cur;
static int loaded;
static char *self;
static double budget_s = 1.0;
static const char *data_dir;
static unsigned long long seed = 1;

/* ------------------------------------------------------------- utilities */

static void die(const char *what, const char *arg)
{
    fprintf(stderr, "bench_pmns_image: %s%s%s\n", what, arg ? ": " : "", arg ? arg : "");
    exit(1);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL)
        die("out of memory", NULL);
    return p;
}

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static long pick(uint64_t *s, long n)
{
    return (long)(((rng_next(s) >> 32) * (uint64_t)n) >> 32);
}

/* Non-empty lines of a file, in one buffer never freed. */
static char **lines_of(const char *path, long *count)
{
    struct stat st;
    int fd = open(path, O_RDONLY);
    char *buf, **v;
    long n = 0;
    size_t got = 0;

    if (fd < 0 || fstat(fd, &st) < 0)
        die("cannot read", path);
    buf = xmalloc((size_t)st.st_size + 1);
    while (got < (size_t)st.st_size) {
        ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);
        if (r <= 0)
            die("cannot read", path);
        got += (size_t)r;
    }
    close(fd);
    buf[got] = '\n';
    for (size_t i = 0; i <= got; i++)
        n += buf[i] == '\n';
    v = xmalloc((size_t)n * sizeof(*v));
    n = 0;
    for (char *p = buf; p < buf + got;) {
        char *nl = memchr(p, '\n', (size_t)(buf + got + 1 - p));
        *nl = '\0';
        if (nl > p)
            v[n++] = p;
        p = nl + 1;
    }
    *count = n;
    return v;
}

/* Anonymous and file-backed resident KiB, from /proc/self/smaps_rollup. */
static void rss_kib(long *anon, long *file)
{
    char line[256];
    long rss = 0, an = 0, v;
    FILE *fp = fopen("/proc/self/smaps_rollup", "r");

    if (fp == NULL)
        die("cannot read /proc/self/smaps_rollup", NULL);
    while (fgets(line, sizeof(line), fp) != NULL) {
        if (sscanf(line, "Rss: %ld", &v) == 1)
            rss = v;
        else if (sscanf(line, "Anonymous: %ld", &v) == 1)
            an = v;
    }
    fclose(fp);
    *anon = an;
    *file = rss - an;
}

/* --------------------------------------------------------------- sizes */

static void add_size(long n)
{
    struct size *s;

    for (int i = 0; i < nsizes; i++)
        if (sizes[i].n == n)
            return;
    if (nsizes == MAX_SIZES)
        die("too many sizes in BENCH_PMNS_SIZES", NULL);
    s = &sizes[nsizes++];
    s->n = n;
    if (n % 1000000 == 0)
        snprintf(s->label, sizeof(s->label), "%ldm", n / 1000000);
    else if (n % 1000 == 0)
        snprintf(s->label, sizeof(s->label), "%ldk", n / 1000);
    else
        snprintf(s->label, sizeof(s->label), "%ld", n);
}

static void setup(void)
{
    const char *list = getenv("BENCH_PMNS_SIZES"), *big = getenv("BENCH_PMNS_BIG");
    const char *sd = getenv("BENCH_PMNS_SEED"), *dir = getenv("BENCH_PMNS_DIR");
    const char *b = getenv("BENCH_PMNS_BUDGET_MS");
    static char dirbuf[4096];

    if (list == NULL || *list == '\0')
        list = "3000 100000";
    for (const char *p = list; *p;) {
        char *end;
        long n = strtol(p, &end, 10);
        if (end == p) {
            if (*p != ' ' && *p != ',' && *p != '\t')
                die("BENCH_PMNS_SIZES must be leaf counts, not", list);
            p++;
            continue;
        }
        if (n < 1 || n > 50000000)
            die("BENCH_PMNS_SIZES must be leaf counts, not", list);
        add_size(n);
        p = end;
    }
    if (big != NULL && strcmp(big, "1") == 0)
        add_size(1000000);
    if (sd != NULL && *sd != '\0')
        seed = strtoull(sd, NULL, 10);
    if (b != NULL && strtol(b, NULL, 10) >= 1)
        budget_s = (double)strtol(b, NULL, 10) / 1000.0;
    if (dir == NULL || *dir == '\0') {
        const char *slash = strrchr(self, '/');
        snprintf(dirbuf, sizeof(dirbuf), "%.*spmns-data", slash ? (int)(slash - self + 1) : 0,
                 self);
        dir = dirbuf;
    }
    data_dir = dir;
    for (int i = 0; i < nsizes; i++) {
        snprintf(sizes[i].file, sizeof(sizes[i].file), "%s/pmns-%ld-s%llu-v%d", dir, sizes[i].n,
                 seed, GBP_VERSION);
        snprintf(sizes[i].image, sizeof(sizes[i].image), "%s.img", sizes[i].file);
    }
}

/* Run argv in a child; 0 if it exited 0. */
static int run(char *const argv[])
{
    pid_t pid;
    int status;

    fflush(NULL);
    if ((pid = fork()) < 0)
        die("fork", strerror(errno));
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        if (fd >= 0)
            dup2(fd, 1);
        execv(argv[0], argv);
        _exit(127);
    }
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            die("waitpid", strerror(errno));
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* The namespace (generated in a child) and, for pmkit, its image. */
static void ensure_files(struct size *s)
{
    struct stat a, b;

    if (access(s->file, R_OK) != 0) {
        pid_t pid;
        int status;
        if (mkdir(data_dir, 0777) < 0 && errno != EEXIST)
            die("cannot create", data_dir);
        fprintf(stderr, "bench_pmns_image: generating %s ...\n", s->file);
        fflush(NULL);
        if ((pid = fork()) == 0)
            _exit(gbp_generate(s->file, s->n, seed, NULL) == 0 ? 0 : 1);
        if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
            WEXITSTATUS(status) != 0)
            die("cannot generate", s->file);
    }
    if (HAVE_IMAGE &&
        (stat(s->image, &a) != 0 || stat(s->file, &b) != 0 || a.st_mtime < b.st_mtime)) {
        char comp[4200];
        const char *env = getenv("PMNSCOMP"), *slash = strrchr(self, '/');
        char *argv[] = {comp, "-d", "-f", "-n", s->file, s->image, NULL};
        if (env != NULL && *env != '\0')
            snprintf(comp, sizeof(comp), "%s", env);
        else
            snprintf(comp, sizeof(comp), "%.*s../bin/pmnscomp", slash ? (int)(slash - self + 1) : 0,
                     self);
        fprintf(stderr, "bench_pmns_image: %s -d -n %s %s\n", comp, s->file, s->image);
        if (run(argv) != 0)
            die("pmnscomp failed (set PMNSCOMP to pmkit's pmnscomp)", comp);
    }
}

static void ensure_data(struct size *s)
{
    char path[4300];

    if (s->names != NULL)
        return;
    ensure_files(s);
    snprintf(path, sizeof(path), "%s.names", s->file);
    s->names = lines_of(path, &s->nnames);
    snprintf(path, sizeof(path), "%s.pmids", s->file);
    {
        long n;
        char **l = lines_of(path, &n);
        s->pmids = xmalloc((size_t)(n ? n : 1) * sizeof(*s->pmids));
        for (long i = 0; i < n; i++) {
            unsigned d, c, it;
            if (sscanf(l[i], "%u.%u.%u", &d, &c, &it) == 3)
                s->pmids[s->npmids++] = pmID_build(d, c, it);
        }
    }
    if (s->nnames == 0 || s->npmids == 0)
        die("no names or PMIDs for", s->file);
}

/* The fastest open this library has. */
static const char *best_file(const struct size *s)
{
    return HAVE_IMAGE ? s->image : s->file;
}

static void unload(void)
{
    if (loaded) {
        pmUnloadNameSpace();
        loaded = 0;
    }
}

static void load(const char *file)
{
    char msg[PM_MAXERRMSGLEN];
    int sts;

    unload();
    if ((sts = pmLoadNameSpace(file)) < 0)
        die(pmErrStr_r(sts, msg, sizeof(msg)), file);
    loaded = 1;
}

/* --------------------------------------------------------------- cases */

static uint64_t b_lookup(uint64_t n, int verify)
{
    uint64_t h = BENCH_HASH_INIT, rs = UINT64_C(0x6c6f6f6b7570);

    for (uint64_t i = 0; i < n; i++) {
        const char *nm = cur->names[pick(&rs, cur->nnames)];
        pmID id;
        int sts = pmLookupName(1, &nm, &id);
        if (verify)
            h = bench_hash_u64(bench_hash_u64(h, (uint64_t)(int64_t)sts), id);
        else
            h += (uint64_t)sts + id;
    }
    return h;
}

static uint64_t b_nameid(uint64_t n, int verify)
{
    uint64_t h = BENCH_HASH_INIT, rs = UINT64_C(0x6e616d656964);

    for (uint64_t i = 0; i < n; i++) {
        char *name = NULL;
        int sts = pmNameID(cur->pmids[pick(&rs, cur->npmids)], &name);
        h = verify ? bench_hash_u64(h, (uint64_t)(int64_t)sts) : h + (uint64_t)sts;
        if (sts >= 0) {
            h = verify ? bench_hash_str(h, name) : h + (unsigned char)name[0];
            free(name);
        }
    }
    return h;
}

static uint64_t trav_hash, trav_count;
static int trav_verify;

static void trav_cb(const char *name)
{
    trav_count++;
    trav_hash = trav_verify ? bench_hash_str(trav_hash, name) : trav_hash + (unsigned char)name[0];
}

static uint64_t b_traverse(uint64_t n, int verify)
{
    uint64_t h = BENCH_HASH_INIT;

    for (uint64_t i = 0; i < n; i++) {
        int sts;
        trav_hash = BENCH_HASH_INIT;
        trav_count = 0;
        trav_verify = verify;
        sts = pmTraversePMNS("", trav_cb);
        h = bench_hash_u64(bench_hash_u64(bench_hash_u64(h, (uint64_t)(int64_t)sts), trav_count),
                           trav_hash);
    }
    return h;
}

/* After an open: its status, 1000 lookups and the root's children. */
static uint64_t load_checksum(int sts)
{
    uint64_t h = bench_hash_u64(BENCH_HASH_INIT, (uint64_t)(int64_t)sts);
    char **kids = NULL;
    int n;

    if (sts < 0)
        return h;
    h = bench_hash_u64(h, b_lookup(VERIFY_CALLS, 1));
    n = pmGetChildren("", &kids);
    h = bench_hash_u64(h, (uint64_t)(int64_t)n);
    for (int k = 0; k < n; k++)
        h = bench_hash_str(h, kids[k]);
    if (n > 0)
        free(kids);
    return h;
}



static void run_open(const char *name, const char *file)
{
    double best = -1, spent = 0;
    uint64_t sum = 0;

    for (int r = 0; r < OPEN_REPS && (r == 0 || spent < budget_s); r++) {
        double t0, el;
        int sts;
        unload();
        t0 = bench_now();
        sts = pmLoadNameSpace(file);
        el = bench_now() - t0;
        loaded = sts >= 0;
        if (r == 0)
            sum = load_checksum(sts);
        if (best < 0 || el < best)
            best = el;
        spent += el;
        if (sts < 0)
            break;
    }
    unload();
    bench_print_line(name, best * 1e9, sum);
}

/* Memory of one open (and, with all, of touching everything), in a
 * process that has done nothing else: the binary runs itself again. */
static int run_memory(const char *name, struct size *s, int kind, int fresh)
{
    long a0, f0, a1, f1;
    int sts, all = kind == K_ANON_ALL || kind == K_FILE_ALL;
    uint64_t sum;

    ensure_data(s);
    if (!fresh) {
        char *argv[] = {self, "--fresh", (char *)name, NULL};
        pid_t pid;
        int status;
        fflush(NULL);
        if ((pid = fork()) == 0) {
            execv("/proc/self/exe", argv);
            _exit(1);
        }
        if (pid < 0 || waitpid(pid, &status, 0) < 0)
            die("cannot run", self);
        return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
    }
    rss_kib(&a0, &f0);
    sts = pmLoadNameSpace(best_file(s));
    loaded = sts >= 0;
    if (all && sts >= 0) {
        cur = s;
        b_traverse(1, 0);
        for (long i = 0; i < s->nnames; i++) {
            pmID id;
            pmLookupName(1, (const char **)&s->names[i], &id);
        }
    }
    rss_kib(&a1, &f1);
    sum = load_checksum(sts);
    if (kind == K_ANON || kind == K_ANON_ALL)
        bench_print_line(name, a1 > a0 ? (double)(a1 - a0) : 0, sum);
    else
        bench_print_line(name, f1 > f0 ? (double)(f1 - f0) : 0, sum);
    return 0;
}

static int run_case(struct size *s, int kind, const char *name, int fresh)
{
    struct stat st;

    cur = s;
    ensure_data(s);
    switch (kind) {
    case K_OPEN:
        run_open(name, best_file(s));
        return 0;
    case K_OPEN_ASCII:
        run_open(name, s->file);
        return 0;
    case K_ANON:
    case K_FILE:
    case K_ANON_ALL:
    case K_FILE_ALL:
        return run_memory(name, s, kind, fresh);
    case K_BYTES:
        if (stat(best_file(s), &st) < 0)
            die("cannot stat", best_file(s));
        bench_print_line(name, (double)st.st_size / (double)s->nnames,
                   bench_hash_u64(BENCH_HASH_INIT, (uint64_t)s->nnames));
        return 0;
    default:
        break;
    }
    if (!loaded)
        load(best_file(s));
    if (kind == K_LOOKUP)
        bench_run_budget(name, b_lookup, VERIFY_CALLS, budget_s);
    else if (kind == K_NAMEID)
        bench_run_budget(name, b_nameid, VERIFY_CALLS, budget_s);
    else
        bench_run_budget(name, b_traverse, 1, budget_s);
    return 0;
}

int main(int argc, char **argv)
{
    int list = 0, first = 1, fresh = 0, status = 0;

    self = argv[0];
    setenv("PCP_DERIVED_CONFIG", "", 0);
    if (argc > 1 && strcmp(argv[1], "-l") == 0)
        list = 1, first = 2;
    else if (argc > 1 && strcmp(argv[1], "--fresh") == 0)
        fresh = 1, first = 2;
    setup();
    for (int a = first; a < argc; a++) {
        int found = 0;
        for (int i = 0; i < nsizes; i++)
            for (int k = 0; k < NKINDS; k++) {
                char nm[64];
                snprintf(nm, sizeof(nm), "%s_%s", kind_name[k], sizes[i].label);
                found |= strcmp(nm, argv[a]) == 0;
            }
        if (!found) {
            fprintf(stderr, "%s: no benchmark named '%s'; try -l\n", argv[0], argv[a]);
            return 2;
        }
    }
    for (int i = 0; i < nsizes; i++)
        for (int k = 0; k < NKINDS; k++) {
            char nm[64];
            int want = first >= argc;
            snprintf(nm, sizeof(nm), "%s_%s", kind_name[k], sizes[i].label);
            for (int a = first; a < argc && !want; a++)
                want = strcmp(nm, argv[a]) == 0;
            if (!want)
                continue;
            if (list)
                printf("%s\n", nm);
            else if (run_case(&sizes[i], k, nm, fresh) != 0)
                status = 1;
        }
    return status;
}
