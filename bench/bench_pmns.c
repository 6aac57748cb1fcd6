/*
 * bench_pmns.c: PMNS loading and name services, pmkit against PCP's libpcp.
 *
 * Uses only the public API (<pcp/pmapi.h>).  The namespaces come from
 * gen_bench_pmns.c, which is #included here (GEN_BENCH_PMNS_NO_MAIN) so the
 * binary can generate the files it needs; both builds therefore read the very
 * same files.  For every size N (BENCH_PMNS_SIZES) there are these cases, L being
 * the size as a label (3k, 100k, 1m, or the number):
 *
 *   load_rss_kib_L  resident anonymous memory grown by one pmLoadNameSpace,
 *                   in KiB (/proc/self/statm resident - shared, before and
 *                   after), measured in a process whose heap has not been
 *                   used yet (namespaces are generated in a child; if the
 *                   heap has been used, the binary re-executes itself for
 *                   this case), with 128 KiB of stack touched first.
 *                   Printed in the ns/op column.
 *   lookup_L        pmLookupName(1, &name, &pmid), a random leaf name per call
 *   nameid_L        pmNameID on a random PMID of the namespace (then free)
 *   nameall_L       pmNameAll on a random PMID of the namespace (then free)
 *   children_L      pmGetChildren on a random non-leaf name, "" included (free)
 *   traverse_L      pmTraversePMNS("") of the whole namespace (one op)
 *   load_L          pmLoadNameSpace (no preprocessor): one op is the whole load;
 *                   repeated until about 1 s has gone (at most 20 times, at
 *                   least once), best one reported; pmUnloadNameSpace after
 *                   each (not timed)
 *   load_ascii_L    the same for pmLoadASCIINameSpace(file, 1), i.e. through
 *                   $PCP_BINADM_DIR/pmcpp.  Only listed if that pmcpp exists
 *                   (Debian's libpcp3 does not ship it: point PCP_BINADM_DIR
 *                   at a directory that has one; it applies to both sides).
 *
 * The per-call cases use bench.h's scheme (a warm-up call, calibrated to
 * BENCH_REP_MS, best of 5 repetitions, checksum from a fixed untimed pass),
 * except that the repetitions stop early once they have taken about 1 s (a
 * whole-namespace traversal can take seconds with PCP's libpcp) and the
 * checksum pass is 1000 calls (1 traversal).  Random choices come from a
 * fixed-seed generator, so both builds make the same calls, and are made
 * before a case is timed (struct questions).  Checksums: the
 * load cases hash the return code, 1000 lookups and the root's children
 * after loading; the others hash every result (status, PMIDs, names in the
 * order returned).
 *
 * Environment:
 *   BENCH_PMNS_SIZES  leaf counts, separated by spaces or commas
 *                     (default "3000 100000")
 *   BENCH_PMNS_BIG=1  also 1000000 (PCP's libpcp needs minutes per load there:
 *                     see bench/README.md)
 *   BENCH_PMNS_SEED   generator seed (default 1)
 *   BENCH_PMNS_DIR    where generated namespaces are kept (default: pmns-data/
 *                     next to this binary); files are made on first use and
 *                     reused, named pmns-N-sSEED-vVERSION (+ .names, .pmids)
 *   BENCH_PMNS_FILE   benchmark this namespace file instead (label "file");
 *                     FILE.names (leaf names, one a line) and FILE.pmids (D.C.I
 *                     a line) are used if present, else gathered through the
 *                     library with pmTraversePMNS and pmLookupName
 *   BENCH_PMNS_BUDGET_MS  time after which repetitions stop (default 1000)
 *   PCP_DERIVED_CONFIG    set to "" unless already set, so that no derived
 *                     metrics file adds names to the namespace
 *
 * bench_pmns_image.c #includes this file with BENCH_PMNS_NO_MAIN defined,
 * for everything but bench_pmns's own cases and main(): the sizes and the
 * variables above (BENCH_PMNS_FILE aside), the generated files, the data
 * read from them, loading, the lookup, nameid and traverse cases, load
 * timing and the case table.
 *
 * Usage: bench_pmns [-l] [NAME...]  (as every bench binary; see bench.h)
 */
#include <pcp/pmapi.h>

#include "bench.h"

#define GEN_BENCH_PMNS_NO_MAIN
#include "gen_bench_pmns.c"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef BENCH_PMNS_PROG
#define BENCH_PMNS_PROG "bench_pmns" /* in messages */
#endif

#define MAX_SIZES    8
#define VERIFY_CALLS 1000

/* The questions of one per-call case, in the order they are asked: names
 * (their strings one after another) or PMIDs, drawn from a pool on first
 * use (next_question). */
struct questions {
    char *const *name_pool; /* what to draw from: names ... */
    const pmID *pmid_pool;  /* ... or PMIDs */
    long npool;
    uint64_t seed;
    const char **names; /* drawn, or NULL */
    pmID *pmids;
    long n;     /* 0 until drawn */
    long timed; /* the timed passes' next question */
};

struct pmns_size {
    long n;         /* leaves asked for (0 for BENCH_PMNS_FILE) */
    char label[24]; /* 3k, 100k, 1m, ... */
    char *file;     /* the namespace */
    int have_files; /* file (and companions) known to exist */
    int have_data;  /* names, pmids, nonleaf read */
    char **names;   /* leaf names */
    long nnames;
    pmID *pmids; /* distinct static PMIDs */
    long npmids;
    char **nonleaf; /* non-leaf names, "" first */
    long nnonleaf;
    struct questions lookup, nameid, nameall, children; /* each case's (ask_*) */
};

static struct pmns_size sizes[MAX_SIZES];
static int nsizes;
static struct pmns_size *cur; /* the size the case functions work on */
static const char *loaded;    /* the file loaded now (a size's file or image), or NULL */
static unsigned long unloads; /* how many namespaces unload() has unloaded */
static int heap_used;         /* generated, read or loaded anything yet? */
static char *self_argv0;
static double budget_s = 1.0;
static const char *data_dir;
static unsigned long long seed = 1; /* BENCH_PMNS_SEED */

/* ------------------------------------------------------------- utilities */

static void die(const char *fmt, ...)
{
    va_list ap;
    fputs(BENCH_PMNS_PROG ": ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(1);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n == 0 ? 1 : n);
    if (p == NULL)
        die("out of memory");
    return p;
}

/* Touch the stack down to 128 KiB below here, so that stack pages the
 * library's calls reach are not counted as the namespace's memory. */
static void touch_stack(void)
{
    volatile char pad[128 * 1024];
    for (size_t i = 0; i < sizeof(pad); i += 1024)
        pad[i] = 0;
}

/* Read a whole file into one buffer that is never freed; NULL if absent. */
static char *slurp(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY);
    struct stat st;
    char *buf;
    size_t got = 0;

    if (fd < 0)
        return NULL;
    if (fstat(fd, &st) < 0)
        die("cannot stat %s: %s", path, strerror(errno));
    buf = xmalloc((size_t)st.st_size + 1);
    while (got < (size_t)st.st_size) {
        ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            die("cannot read %s: %s", path, r < 0 ? strerror(errno) : "short read");
        got += (size_t)r;
    }
    close(fd);
    buf[got] = '\0';
    *len = got;
    return buf;
}

/* Split a buffer into its non-empty lines (in place). */
static char **split_lines(char *buf, size_t len, long *count)
{
    long n = 0, i = 0;
    char **v;
    for (size_t k = 0; k < len; k++)
        if (buf[k] == '\n')
            n++;
    n++; /* a last line without '\n' */
    v = xmalloc((size_t)n * sizeof *v);
    for (char *p = buf, *e = buf + len; p < e;) {
        char *nl = memchr(p, '\n', (size_t)(e - p));
        if (nl == NULL)
            nl = e;
        *nl = '\0';
        if (nl > p)
            v[i++] = p;
        p = nl + 1;
    }
    *count = i;
    return v;
}

/* Wait for child pid: 0 if it exited with status 0, else 1. */
static int wait_child(pid_t pid)
{
    int status;

    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            die("waitpid: %s", strerror(errno));
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}

/* Run path with argv in a child, its stdout sent to /dev/null if quiet;
 * 0 if it exited 0, else 1. */
static int run_child(const char *path, char *const argv[], int quiet)
{
    pid_t pid;

    fflush(NULL);
    if ((pid = fork()) < 0)
        die("fork: %s", strerror(errno));
    if (pid == 0) {
        int fd = quiet ? open("/dev/null", O_WRONLY) : -1;
        if (fd >= 0)
            dup2(fd, 1);
        execv(path, argv);
        fprintf(stderr, BENCH_PMNS_PROG ": cannot run %s: %s\n", path, strerror(errno));
        _exit(127);
    }
    return wait_child(pid);
}

/* ------------------------------------------------------------ the sizes */

static void add_size(long n)
{
    struct pmns_size *s;
    for (int i = 0; i < nsizes; i++)
        if (sizes[i].n == n)
            return;
    if (nsizes == MAX_SIZES)
        die("too many sizes in BENCH_PMNS_SIZES");
    s = &sizes[nsizes++];
    s->n = n;
    if (n % 1000000 == 0)
        snprintf(s->label, sizeof s->label, "%ldm", n / 1000000);
    else if (n % 1000 == 0)
        snprintf(s->label, sizeof s->label, "%ldk", n / 1000);
    else
        snprintf(s->label, sizeof s->label, "%ld", n);
}

static void setup(void)
{
    const char *file = getenv("BENCH_PMNS_FILE");
    const char *list = getenv("BENCH_PMNS_SIZES");
    const char *big = getenv("BENCH_PMNS_BIG");
    const char *seed_s = getenv("BENCH_PMNS_SEED");
    const char *dir = getenv("BENCH_PMNS_DIR");
    const char *b = getenv("BENCH_PMNS_BUDGET_MS");
    char *dirbuf = NULL;

    if (b != NULL && *b != '\0') {
        long ms = strtol(b, NULL, 10);
        if (ms >= 1)
            budget_s = (double)ms / 1000.0;
    }
    if (file != NULL && *file != '\0') {
        nsizes = 1;
        sizes[0].n = 0;
        strcpy(sizes[0].label, "file");
        sizes[0].file = (char *)file;
        return;
    }
    if (list == NULL || *list == '\0')
        list = "3000 100000";
    for (const char *p = list; *p;) {
        char *end;
        long n;
        if (*p == ' ' || *p == ',' || *p == '\t') {
            p++;
            continue;
        }
        n = strtol(p, &end, 10);
        if (end == p || n < 1 || n > 50000000 || (*end && !strchr(" ,\t", *end)))
            die("BENCH_PMNS_SIZES must be leaf counts (1..50000000), not '%s'", list);
        add_size(n);
        p = end;
    }
    if (big != NULL && strcmp(big, "1") == 0)
        add_size(1000000);
    if (seed_s != NULL && *seed_s != '\0') {
        char *end;
        seed = strtoull(seed_s, &end, 10);
        if (*end != '\0')
            die("BENCH_PMNS_SEED must be a number, not '%s'", seed_s);
    }
    if (dir == NULL || *dir == '\0') {
        /* pmns-data/ next to the binary */
        const char *slash = strrchr(self_argv0, '/');
        size_t n = slash == NULL ? 0 : (size_t)(slash - self_argv0 + 1);
        dirbuf = xmalloc(n + 16);
        memcpy(dirbuf, self_argv0, n);
        strcpy(dirbuf + n, "pmns-data");
        dir = dirbuf;
    }
    for (int i = 0; i < nsizes; i++) {
        size_t len = strlen(dir) + 96;
        sizes[i].file = xmalloc(len);
        snprintf(sizes[i].file, len, "%s/pmns-%ld-s%llu-v%d", dir, sizes[i].n, seed, GBP_VERSION);
        sizes[i].have_files = 0;
    }
    data_dir = dir; /* created when something is generated */
}

/* Make sure the namespace and its companions exist. */
static void ensure_files(struct pmns_size *s)
{
    if (s->have_files)
        return;
    if (s->n > 0 && access(s->file, R_OK) != 0) {
        double t0 = bench_now();
        pid_t pid;
        fprintf(stderr, BENCH_PMNS_PROG ": generating %s ...\n", s->file);
        if (mkdir(data_dir, 0777) < 0 && errno != EEXIST)
            die("cannot create %s: %s", data_dir, strerror(errno));
        /* in a child, so this process's heap stays unused (see run_rss) */
        fflush(NULL);
        pid = fork();
        if (pid < 0)
            die("fork: %s", strerror(errno));
        if (pid == 0)
            _exit(gbp_generate(s->file, s->n, seed, NULL) == 0 ? 0 : 1);
        if (wait_child(pid) != 0)
            die("cannot generate %s", s->file);
        fprintf(stderr, BENCH_PMNS_PROG ": generated %s in %.1f s\n", s->file, bench_now() - t0);
    } else if (access(s->file, R_OK) != 0) {
        die("cannot read %s: %s", s->file, strerror(errno));
    }
    s->have_files = 1;
}

static void unload(void)
{
    if (loaded != NULL) {
        pmUnloadNameSpace();
        loaded = NULL;
        unloads++;
    }
}

/* Load path (one of the sizes' files, compared by address) unless it is
 * loaded already. */
static void load_once(const char *path)
{
    int sts;
    char msg[PM_MAXERRMSGLEN];
    if (loaded == path)
        return;
    unload();
    heap_used = 1;
    sts = pmLoadNameSpace(path);
    if (sts < 0)
        die("pmLoadNameSpace(%s): %s", path, pmErrStr_r(sts, msg, sizeof msg));
    loaded = path;
}

static void ensure_loaded(struct pmns_size *s)
{
    ensure_files(s);
    load_once(s->file);
}

static char **gathered;
static long ngathered, gathered_cap;

static void gather(const char *name)
{
    if (ngathered == gathered_cap) {
        gathered_cap = gathered_cap ? 2 * gathered_cap : 4096;
        gathered = realloc(gathered, (size_t)gathered_cap * sizeof *gathered);
        if (gathered == NULL)
            die("out of memory");
    }
    size_t n = strlen(name) + 1;
    gathered[ngathered++] = memcpy(xmalloc(n), name, n);
}

static int cmp_pmid(const void *a, const void *b)
{
    pmID x = *(const pmID *)a, y = *(const pmID *)b;
    return x < y ? -1 : x > y;
}

/*
 * Non-leaf names from the leaf names: every proper dotted prefix.  Names in
 * depth-first order share a prefix only with their neighbours, so comparing
 * each name with the previous one finds every non-leaf once.
 */
static void derive_nonleaf(struct pmns_size *s)
{
    size_t bytes = 1;
    long count = 1;
    char *arena, *ap = NULL;

    for (int pass = 0; pass < 2; pass++) {
        const char *prev = "";
        if (pass == 1) {
            s->nonleaf = xmalloc((size_t)count * sizeof *s->nonleaf);
            arena = ap = xmalloc(bytes);
            *ap++ = '\0';
            s->nonleaf[0] = arena; /* the root */
            s->nnonleaf = 1;
        }
        for (long i = 0; i < s->nnames; i++) {
            const char *nm = s->names[i];
            long shared = 0, dot = 0;
            size_t k = 0;
            while (nm[k] != '\0' && nm[k] == prev[k]) {
                if (nm[k] == '.')
                    shared++;
                k++;
            }
            for (k = 0; nm[k] != '\0'; k++) {
                if (nm[k] != '.')
                    continue;
                if (dot++ < shared)
                    continue;
                if (pass == 0) {
                    count++;
                    bytes += k + 1;
                } else {
                    memcpy(ap, nm, k);
                    ap[k] = '\0';
                    s->nonleaf[s->nnonleaf++] = ap;
                    ap += k + 1;
                }
            }
            prev = nm;
        }
    }
}

#define SEED_LOOKUP   UINT64_C(0x6c6f6f6b7570)
#define SEED_NAMEID   UINT64_C(0x6e616d656964)
#define SEED_NAMEALL  UINT64_C(0x6e616d65616c6c)
#define SEED_CHILDREN UINT64_C(0x6368696c64)

/*
 * Random questions are drawn from a fixed-seed stream, so that both
 * libraries answer the same ones, and written down before a case is timed
 * (by the untimed first call, or the checksum pass), in the order they are
 * asked: a caller reading its own list.  The timed
 * calls then wait for the library's memory, not for the bench's: picking
 * a random entry of a million-entry array and then its string costs cache
 * misses that belong to neither library (two per lookup at 1M, about half
 * of pmkit's time per call before this was done).  A list holds as many
 * questions as there are candidates, at least 4096 and at most 2^20; it
 * wraps around, and by then a large namespace's calls have gone through
 * far more memory than any cache holds.
 */
static long question_count(long candidates)
{
    return candidates < 4096 ? 4096 : candidates > (1L << 20) ? 1L << 20 : candidates;
}

/* Names drawn from q's pool, their strings copied one after another. */
static void ask_names(struct questions *q)
{
    long n = question_count(q->npool);
    uint64_t seed = q->seed;
    size_t bytes = 0;
    char *arena;

    q->names = xmalloc((size_t)n * sizeof *q->names);
    for (long i = 0; i < n; i++) {
        q->names[i] = q->name_pool[bench_pick(&seed, q->npool)];
        bytes += strlen(q->names[i]) + 1;
    }
    arena = xmalloc(bytes);
    for (long i = 0; i < n; i++) {
        size_t len = strlen(q->names[i]) + 1;
        memcpy(arena, q->names[i], len);
        q->names[i] = arena;
        arena += len;
    }
    q->n = n;
}

static void ask_pmids(struct questions *q)
{
    long n = question_count(q->npool);
    uint64_t seed = q->seed;

    q->pmids = xmalloc((size_t)n * sizeof *q->pmids);
    for (long i = 0; i < n; i++)
        q->pmids[i] = q->pmid_pool[bench_pick(&seed, q->npool)];
    q->n = n;
}

/* Leaf names, PMIDs and non-leaf names of a size (read once, kept). */
static void ensure_data(struct pmns_size *s)
{
    char path[4200];
    char *buf;
    size_t len;

    if (s->have_data)
        return;
    ensure_files(s);
    heap_used = 1;

    snprintf(path, sizeof path, "%s.names", s->file);
    buf = slurp(path, &len);
    if (buf != NULL) {
        s->names = split_lines(buf, len, &s->nnames);
    } else {
        /* custom namespace without a names file: ask the library */
        char msg[PM_MAXERRMSGLEN];
        int sts;
        ensure_loaded(s);
        sts = pmTraversePMNS("", gather);
        if (sts < 0)
            die("pmTraversePMNS: %s", pmErrStr_r(sts, msg, sizeof msg));
        s->names = gathered;
        s->nnames = ngathered;
        gathered = NULL;
        ngathered = gathered_cap = 0;
    }
    if (s->nnames == 0)
        die("%s: no names", s->file);

    snprintf(path, sizeof path, "%s.pmids", s->file);
    buf = slurp(path, &len);
    if (buf != NULL) {
        long n;
        char **lines = split_lines(buf, len, &n);
        s->pmids = xmalloc((size_t)(n ? n : 1) * sizeof *s->pmids);
        for (long i = 0; i < n; i++) {
            unsigned d, c, it;
            if (sscanf(lines[i], "%u.%u.%u", &d, &c, &it) != 3)
                die("%s: bad line '%s'", path, lines[i]);
            s->pmids[s->npmids++] = pmID_build(d, c, it);
        }
    } else {
        /* look every name up, keep the distinct static PMIDs */
        long n = 0;
        ensure_loaded(s);
        s->pmids = xmalloc((size_t)s->nnames * sizeof *s->pmids);
        for (long i = 0; i < s->nnames; i++) {
            pmID id;
            const char *nm = s->names[i];
            if (pmLookupName(1, &nm, &id) == 1 && id != PM_ID_NULL && pmID_domain(id) != 511)
                s->pmids[n++] = id;
        }
        qsort(s->pmids, (size_t)n, sizeof *s->pmids, cmp_pmid);
        s->npmids = 0;
        for (long i = 0; i < n; i++)
            if (i == 0 || s->pmids[i] != s->pmids[i - 1])
                s->pmids[s->npmids++] = s->pmids[i];
    }
    if (s->npmids == 0)
        die("%s: no PMIDs", s->file);
    derive_nonleaf(s);
    s->lookup = (struct questions){.name_pool = s->names, .npool = s->nnames, .seed = SEED_LOOKUP};
    s->nameid = (struct questions){.pmid_pool = s->pmids, .npool = s->npmids, .seed = SEED_NAMEID};
    s->nameall =
        (struct questions){.pmid_pool = s->pmids, .npool = s->npmids, .seed = SEED_NAMEALL};
    s->children =
        (struct questions){.name_pool = s->nonleaf, .npool = s->nnonleaf, .seed = SEED_CHILDREN};
    s->have_data = 1;
}

/* --------------------------------------------------------------- cases */

/*
 * The index of a case's next question in q, drawn first if need be.  The
 * checksum pass asks the first ones (*verify_at starts at 0 in each pass),
 * so the checksum does not depend on what ran before.  Timed passes go on
 * from where the last one stopped (q->timed): a repetition that asked the
 * same questions again would find their answers in the cache (a
 * repetition of 40 ms is tens of thousands of questions: megabytes of
 * cache lines, which a 1M namespace's random questions otherwise never
 * reuse).
 */
static long next_question(struct questions *q, long *verify_at, int verify)
{
    long *at = verify ? verify_at : &q->timed;
    long i;

    if (q->n == 0) {
        if (q->name_pool != NULL)
            ask_names(q);
        else
            ask_pmids(q);
    }
    i = *at % q->n;

    *at = i + 1;
    return i;
}

static uint64_t b_lookup(uint64_t n, int verify)
{
    long verify_at = 0;
    uint64_t h = BENCH_HASH_INIT;
    for (uint64_t i = 0; i < n; i++) {
        long q = next_question(&cur->lookup, &verify_at, verify);
        pmID id;
        int sts = pmLookupName(1, &cur->lookup.names[q], &id);
        if (verify)
            h = bench_hash_u64(bench_hash_u64(h, (uint64_t)(int64_t)sts), id);
        else
            h += (uint64_t)sts + id;
    }
    return h;
}

static uint64_t b_nameid(uint64_t n, int verify)
{
    long verify_at = 0;
    uint64_t h = BENCH_HASH_INIT;
    for (uint64_t i = 0; i < n; i++) {
        long q = next_question(&cur->nameid, &verify_at, verify);
        char *name = NULL;
        int sts = pmNameID(cur->nameid.pmids[q], &name);
        h = verify ? bench_hash_u64(h, (uint64_t)(int64_t)sts) : h + (uint64_t)sts;
        if (sts >= 0) {
            h = bench_fold_str(h, name, verify);
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
    trav_hash = bench_fold_str(trav_hash, name, trav_verify);
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
        h = bench_hash_u64(h, (uint64_t)(int64_t)sts);
        h = bench_hash_u64(h, trav_count);
        h = bench_hash_u64(h, trav_hash);
    }
    return h;
}

/* Fold a list of names the library returned (sts: their count, or an
 * error) into h, then free it. */
static uint64_t fold_names(uint64_t h, int sts, char **list, int verify)
{
    h = verify ? bench_hash_u64(h, (uint64_t)(int64_t)sts) : h + (uint64_t)sts;
    if (sts > 0) {
        for (int k = 0; k < sts; k++)
            h = bench_fold_str(h, list[k], verify);
        free(list);
    }
    return h;
}

/* After a load: its status, 1000 lookups and the root's children. */
static uint64_t load_checksum(int sts)
{
    uint64_t h = bench_hash_u64(BENCH_HASH_INIT, (uint64_t)(int64_t)sts);
    if (sts >= 0) {
        char **kids = NULL;
        int n;
        h = bench_hash_u64(h, b_lookup(VERIFY_CALLS, 1));
        n = pmGetChildren("", &kids);
        h = fold_names(h, n, kids, 1);
    }
    return h;
}

/* ------------------------------------------------------------- runners */

/*
 * Time whole loads of path (through pmcpp if ascii) until they have taken
 * the budget, at most max_reps of them and at least one; print the best
 * with the checksum of the first.  pmUnloadNameSpace after each, untimed.
 */
static void run_load(const char *name, struct pmns_size *s, const char *path, int ascii,
                     int max_reps)
{
    double best = -1, spent = 0;
    uint64_t sum = 0;
    char msg[PM_MAXERRMSGLEN];

    ensure_data(s); /* for the checksum; read before timing */
    for (int r = 0; r < max_reps; r++) {
        double t0, el;
        int sts;
        unload();
        heap_used = 1;
        t0 = bench_now();
        sts = ascii ? pmLoadASCIINameSpace(path, 1) : pmLoadNameSpace(path);
        el = bench_now() - t0;
        if (sts >= 0)
            loaded = path;
        if (r == 0)
            sum = load_checksum(sts);
        if (best < 0 || el < best)
            best = el;
        spent += el;
        if (sts < 0) {
            fprintf(stderr, BENCH_PMNS_PROG ": %s(%s): %s\n",
                    ascii ? "pmLoadASCIINameSpace" : "pmLoadNameSpace", path,
                    pmErrStr_r(sts, msg, sizeof msg));
            break;
        }
        if (spent >= budget_s)
            break;
    }
    unload();
    bench_print_line(name, best * 1e9, sum);
}

typedef int (*case_runner)(struct pmns_size *s, int kind, const char *name);

static const char *case_name(char buf[64], const char *kind, const struct pmns_size *s)
{
    snprintf(buf, 64, "%s_%s", kind, s->label);
    return buf;
}

/* The size and kind of the case called name: 0, or -1 if there is none. */
static int find_case(const char *name, const char *const *kinds, int nkinds, int *size, int *kind)
{
    char buf[64];

    for (*size = 0; *size < nsizes; (*size)++)
        for (*kind = 0; *kind < nkinds; (*kind)++)
            if (strcmp(case_name(buf, kinds[*kind], &sizes[*size]), name) == 0)
                return 0;
    return -1;
}

/*
 * The cases are every kind at every size, named KIND_LABEL, sizes outer.
 * Runs those that argv[first..] names, in that order (a name given twice
 * runs twice), or all but the kinds in the hidden bit mask if it names
 * none; with list set, prints their names instead.  Returns the exit
 * status.
 */
static int run_cases(int argc, char **argv, int first, int list, const char *const *kinds,
                     int nkinds, unsigned hidden, case_runner run)
{
    char name[64];
    int status = 0, i, k;

    for (int a = first; a < argc; a++)
        if (find_case(argv[a], kinds, nkinds, &i, &k) < 0) {
            fprintf(stderr, "%s: no benchmark named '%s'; try -l\n", argv[0], argv[a]);
            return 2;
        }
    for (int a = first; a < argc; a++) {
        find_case(argv[a], kinds, nkinds, &i, &k);
        if (list)
            printf("%s\n", argv[a]);
        else if (run(&sizes[i], k, argv[a]) != 0)
            status = 1;
    }
    if (first < argc)
        return status;
    for (i = 0; i < nsizes; i++)
        for (k = 0; k < nkinds; k++) {
            if (hidden >> k & 1u)
                continue;
            case_name(name, kinds[k], &sizes[i]);
            if (list)
                printf("%s\n", name);
            else if (run(&sizes[i], k, name) != 0)
                status = 1;
        }
    return status;
}

#ifndef BENCH_PMNS_NO_MAIN
/* ------------------------------------------------------ bench_pmns's own */

#define LOAD_REPS 20 /* at most; they stop once they have taken the budget */

enum kind { K_RSS, K_LOOKUP, K_NAMEID, K_NAMEALL, K_CHILDREN, K_TRAVERSE, K_LOAD, K_LOAD_ASCII };
static const char *const kind_name[] = {
    "load_rss_kib", "lookup", "nameid", "nameall", "children", "traverse", "load", "load_ascii",
};
#define NKINDS ((int)(sizeof kind_name / sizeof kind_name[0]))

static long statm_rss_kib(void)
{
    char buf[256];
    long size = 0, res = 0, shared = 0;
    int fd = open("/proc/self/statm", O_RDONLY);
    ssize_t r;
    if (fd < 0)
        return 0;
    r = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (r <= 0)
        return 0;
    buf[r] = '\0';
    if (sscanf(buf, "%ld %ld %ld", &size, &res, &shared) != 3)
        return 0;
    /* anonymous pages only: library code faulted in by the first call is
     * file-backed ("shared") and would add noise */
    return (res - shared) * (sysconf(_SC_PAGESIZE) / 1024);
}

/* n calls that each return a list of names: pmNameAll of a random PMID
 * (q has PMIDs) or pmGetChildren of a random non-leaf (q has names). */
static uint64_t list_calls(uint64_t n, int verify, struct questions *q)
{
    uint64_t h = BENCH_HASH_INIT;
    long verify_at = 0;
    for (uint64_t i = 0; i < n; i++) {
        char **list = NULL;
        long k = next_question(q, &verify_at, verify);
        int sts =
            q->pmids != NULL ? pmNameAll(q->pmids[k], &list) : pmGetChildren(q->names[k], &list);
        h = fold_names(h, sts, list, verify);
    }
    return h;
}

static uint64_t b_nameall(uint64_t n, int verify)
{
    return list_calls(n, verify, &cur->nameall);
}

static uint64_t b_children(uint64_t n, int verify)
{
    return list_calls(n, verify, &cur->children);
}

/* Resident memory of one load, in a process that has done nothing else. */
static int run_rss(const char *name, struct pmns_size *s)
{
    long before, after;
    int sts;

    ensure_files(s);
    if (heap_used) {
        char *argv[] = {self_argv0, (char *)name, NULL};
        return run_child("/proc/self/exe", argv, 0);
    }
    touch_stack();
    before = statm_rss_kib(); /* twice: the first faults in the code that measures */
    before = statm_rss_kib();
    sts = pmLoadNameSpace(s->file);
    after = statm_rss_kib();
    heap_used = 1;
    if (sts >= 0)
        loaded = s->file;
    else
        fprintf(stderr, "bench_pmns: pmLoadNameSpace(%s): %d\n", s->file, sts);
    ensure_data(s);
    bench_print_line(name, after > before ? (double)(after - before) : 0.0, load_checksum(sts));
    return 0;
}

static int run_case(struct pmns_size *s, int kind, const char *name)
{
    cur = s;
    switch (kind) {
    case K_RSS:
        return run_rss(name, s);
    case K_LOAD:
    case K_LOAD_ASCII:
        run_load(name, s, s->file, kind == K_LOAD_ASCII, LOAD_REPS);
        return 0;
    default:
        break;
    }
    ensure_data(s);
    ensure_loaded(s);
    switch (kind) {
    case K_LOOKUP:
        bench_run_budget(name, b_lookup, VERIFY_CALLS, budget_s);
        break;
    case K_NAMEID:
        bench_run_budget(name, b_nameid, VERIFY_CALLS, budget_s);
        break;
    case K_NAMEALL:
        bench_run_budget(name, b_nameall, VERIFY_CALLS, budget_s);
        break;
    case K_CHILDREN:
        bench_run_budget(name, b_children, VERIFY_CALLS, budget_s);
        break;
    case K_TRAVERSE:
        bench_run_budget(name, b_traverse, 1, budget_s);
        break;
    }
    return 0;
}

static int have_pmcpp(const char **where)
{
    static char path[4200];
    const char *dir = pmGetConfig("PCP_BINADM_DIR");
    snprintf(path, sizeof path, "%s/pmcpp", dir != NULL ? dir : "");
    *where = path;
    return access(path, X_OK) == 0;
}

int main(int argc, char **argv)
{
    int list = 0, first = 1;
    const char *pmcpp;
    int ascii_ok;

    self_argv0 = argv[0];
    /* no derived-metrics file adding names (unless the caller chose one) */
    setenv("PCP_DERIVED_CONFIG", "", 0);
    setup();
    ascii_ok = have_pmcpp(&pmcpp);

    if (argc > 1 && strcmp(argv[1], "-l") == 0) {
        list = 1;
        first = 2;
    }
    if (!ascii_ok && (list || first >= argc))
        fprintf(stderr,
                "bench_pmns: no pmcpp at %s, so the load_ascii_* cases are left out; "
                "set PCP_BINADM_DIR to a directory with pmcpp to time pmLoadASCIINameSpace\n",
                pmcpp);
    return run_cases(argc, argv, first, list, kind_name, NKINDS, ascii_ok ? 0 : 1u << K_LOAD_ASCII,
                     run_case);
}
#endif /* BENCH_PMNS_NO_MAIN */
