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
 * The namespaces, their sizes and variables and the lookup, nameid and
 * traverse cases are bench_pmns.c's, which is #included here
 * (BENCH_PMNS_NO_MAIN): same files, same BENCH_PMNS_SIZES, BENCH_PMNS_BIG,
 * BENCH_PMNS_SEED, BENCH_PMNS_DIR, BENCH_PMNS_BUDGET_MS (BENCH_PMNS_FILE
 * is ignored: the image cases need the generated files).  For every size L:
 *
 *   open_L          one pmLoadNameSpace: the image (pmkit), the ASCII file
 *                   (PCP); pmUnloadNameSpace after each, untimed.  Repeated
 *                   until the budget is spent (at most 2000 times), best one
 *   open_ascii_L    one pmLoadNameSpace of the ASCII file, on both sides
 *   lookup_L        pmLookupName(1, ...) of a random leaf name, once every
 *                   name has been looked up and every PMID's name asked
 *                   for (open_warm), as for lookup_batch_L and nameid_L
 *   lookup_batch_L  pmLookupName(64, ...) of 64 random leaf names (the
 *                   same ones as lookup_L); one op is one name
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
 * With BENCH_PMNS_PAUSE set, the process stops itself (SIGSTOP) before
 * timing each of lookup_L, lookup_batch_L and nameid_L, once the
 * namespace is open and warm: bench/pmns_interleave.sh runs the other
 * library's binary while this one waits, so that a side that needs
 * minutes to load is still measured right next to the other.
 *
 * Memory cases run in a fresh process (the binary re-executes itself),
 * like bench_pmns's load_rss_kib, with 128 KiB of stack touched first so
 * that only what the library keeps is counted.  Values that are not times
 * are printed in the ns/op column.  Checksums hash each case's results (the
 * load status, 1000 lookups and the root's children for the memory and
 * open cases), so equal checksums mean both libraries answered alike.
 *
 * Usage: bench_pmns_image [-l] [NAME...]  (as every bench binary)
 */
#define BENCH_PMNS_NO_MAIN
#define BENCH_PMNS_PROG "bench_pmns_image"
#include "bench_pmns.c"

#include <signal.h>

#if defined(__has_include)
#if __has_include(<pcp/pmkit.h>)
#define HAVE_IMAGE 1 /* pmkit: namespace images */
#endif
#endif
#ifndef HAVE_IMAGE
#define HAVE_IMAGE 0
#endif

#define OPEN_REPS 2000

enum kind {
    K_OPEN,
    K_OPEN_ASCII,
    K_LOOKUP,
    K_LOOKUP_BATCH,
    K_NAMEID,
    K_TRAVERSE,
    K_ANON,
    K_FILE,
    K_ANON_ALL,
    K_FILE_ALL,
    K_BYTES
};
static const char *const kind_name[] = {
    "open",     "open_ascii", "lookup",       "lookup_batch", "nameid",         "traverse",
    "anon_kib", "file_kib",   "anon_all_kib", "file_all_kib", "bytes_per_name",
};
#define NKINDS ((int)(sizeof kind_name / sizeof kind_name[0]))

static char *images[MAX_SIZES]; /* FILE.img of each size (pmkit) */
static int fresh;               /* --fresh: this is a memory case's own process */

/* Anonymous and file-backed resident KiB, from /proc/self/smaps_rollup,
 * read without stdio: a FILE and its buffer on the heap would add pages of
 * their own to what is measured. */
static void rss_kib(long *anon, long *file)
{
    char buf[4096];
    long rss = 0, an = 0;
    int fd = open("/proc/self/smaps_rollup", O_RDONLY);
    ssize_t got = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
    char *save = NULL;

    if (fd >= 0)
        close(fd);
    if (got <= 0)
        die("cannot read /proc/self/smaps_rollup");
    buf[got] = '\0';
    for (char *l = strtok_r(buf, "\n", &save); l != NULL; l = strtok_r(NULL, "\n", &save)) {
        long v;
        if (sscanf(l, "Rss: %ld", &v) == 1)
            rss = v;
        else if (sscanf(l, "Anonymous: %ld", &v) == 1)
            an = v;
    }
    *anon = an;
    *file = rss - an;
}

/* The namespace and, for pmkit, its image, compiled if older. */
static void ensure_image(struct pmns_size *s)
{
    const char *image = images[s - sizes];
    struct stat a, b;

    ensure_files(s);
    if (HAVE_IMAGE && (stat(image, &a) != 0 || stat(s->file, &b) != 0 || a.st_mtime < b.st_mtime)) {
        char comp[4200];
        const char *env = getenv("PMNSCOMP"), *slash = strrchr(self_argv0, '/');
        char *argv[] = {comp, "-d", "-f", "-n", s->file, (char *)image, NULL};
        if (env != NULL && *env != '\0')
            snprintf(comp, sizeof(comp), "%s", env);
        else
            snprintf(comp, sizeof(comp), "%.*s../bin/pmnscomp",
                     slash ? (int)(slash - self_argv0 + 1) : 0, self_argv0);
        fprintf(stderr, BENCH_PMNS_PROG ": %s -d -n %s %s\n", comp, s->file, image);
        if (run_child(comp, argv, 1) != 0)
            die("pmnscomp failed (set PMNSCOMP to pmkit's pmnscomp): %s", comp);
    }
}

#define BATCH 64

/* pmLookupName of BATCH random leaf names per call, as a tool that looks
 * up its whole metric list at once; one op is one name. */
static uint64_t b_lookup_batch(uint64_t n, int verify)
{
    long verify_at = 0;
    uint64_t h = BENCH_HASH_INIT;
    const char *nm[BATCH];
    pmID id[BATCH];

    for (uint64_t i = 0; i < n; i += BATCH) {
        int k = n - i < BATCH ? (int)(n - i) : BATCH, sts;
        for (int j = 0; j < k; j++) {
            /* drawn first: the first call allocates cur->lookup.names */
            long q = next_question(&cur->lookup, &verify_at, verify);
            nm[j] = cur->lookup.names[q];
        }
        sts = pmLookupName(k, nm, id);
        h = verify ? bench_hash_u64(h, (uint64_t)(int64_t)sts) : h + (uint64_t)sts;
        for (int j = 0; j < k; j++)
            h = verify ? bench_hash_u64(h, id[j]) : h + id[j];
    }
    return h;
}

/* The fastest open this library has. */
static const char *best_file(const struct pmns_size *s)
{
    return HAVE_IMAGE ? images[s - sizes] : s->file;
}

/* Open s's namespace (once) and touch all of it: every name looked up and
 * every PMID's name asked for, in file order.  The per-call cases then
 * time the calls, not the page faults of a freshly mapped image (or of
 * pages the kernel has reclaimed since the file was last read): open_L
 * times the open. */
static void open_warm(struct pmns_size *s)
{
    static unsigned long warm = ~0UL; /* unloads when it was warmed */

    if (loaded == best_file(s) && warm == unloads)
        return;
    load_once(best_file(s));
    for (long i = 0; i < s->nnames; i++) {
        pmID id;
        pmLookupName(1, (const char **)&s->names[i], &id);
    }
    for (long i = 0; i < s->npmids; i++) {
        char *name = NULL;
        if (pmNameID(s->pmids[i], &name) >= 0)
            free(name);
    }
    warm = unloads;
}

/* Memory of one open (and, with all, of touching everything), in a
 * process that has done nothing else: the binary runs itself again. */
static int run_memory(const char *name, struct pmns_size *s, int kind)
{
    long a0, f0, a1, f1;
    int sts, all = kind == K_ANON_ALL || kind == K_FILE_ALL;
    uint64_t sum;

    if (!fresh) {
        char *argv[] = {self_argv0, "--fresh", (char *)name, NULL};
        return run_child("/proc/self/exe", argv, 0);
    }
    ensure_data(s);
    touch_stack();
    rss_kib(&a0, &f0); /* twice: the first faults in the code that measures */
    rss_kib(&a0, &f0);
    sts = pmLoadNameSpace(best_file(s));
    if (sts >= 0)
        loaded = best_file(s);
    if (all && sts >= 0) {
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

/* Open s warm, then stop for bench/pmns_interleave.sh if asked to. */
static void ready_to_time(struct pmns_size *s)
{
    open_warm(s);
    if (getenv("BENCH_PMNS_PAUSE") != NULL)
        raise(SIGSTOP);
}

static int run_case(struct pmns_size *s, int kind, const char *name)
{
    struct stat st;

    cur = s;
    ensure_image(s);
    switch (kind) {
    case K_ANON:
    case K_FILE:
    case K_ANON_ALL:
    case K_FILE_ALL:
        return run_memory(name, s, kind);
    case K_OPEN:
        run_load(name, s, best_file(s), 0, OPEN_REPS);
        return 0;
    case K_OPEN_ASCII:
        run_load(name, s, s->file, 0, OPEN_REPS);
        return 0;
    default:
        break;
    }
    ensure_data(s);
    switch (kind) {
    case K_BYTES:
        if (stat(best_file(s), &st) < 0)
            die("cannot stat %s", best_file(s));
        bench_print_line(name, (double)st.st_size / (double)s->nnames,
                         bench_hash_u64(BENCH_HASH_INIT, (uint64_t)s->nnames));
        break;
    case K_LOOKUP:
        ready_to_time(s);
        bench_run_budget(name, b_lookup, VERIFY_CALLS, budget_s);
        break;
    case K_LOOKUP_BATCH:
        ready_to_time(s);
        bench_run_budget(name, b_lookup_batch, VERIFY_CALLS, budget_s);
        break;
    case K_NAMEID:
        ready_to_time(s);
        bench_run_budget(name, b_nameid, VERIFY_CALLS, budget_s);
        break;
    case K_TRAVERSE:
        load_once(best_file(s));
        bench_run_budget(name, b_traverse, 1, budget_s);
        break;
    }
    return 0;
}

int main(int argc, char **argv)
{
    int list = 0, first = 1;

    self_argv0 = argv[0];
    setenv("PCP_DERIVED_CONFIG", "", 0);
    unsetenv("BENCH_PMNS_FILE");
    if (argc > 1 && strcmp(argv[1], "-l") == 0)
        list = 1, first = 2;
    else if (argc > 1 && strcmp(argv[1], "--fresh") == 0)
        fresh = 1, first = 2;
    setup();
    for (int i = 0; i < nsizes; i++) {
        size_t len = strlen(sizes[i].file) + 5;
        images[i] = xmalloc(len);
        snprintf(images[i], len, "%s.img", sizes[i].file);
    }
    return run_cases(argc, argv, first, list, kind_name, NKINDS, 0, run_case);
}
