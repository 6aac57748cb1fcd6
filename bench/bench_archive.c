/*
 * bench_archive.c - reading a PCP archive: pmNewContext, pmFetchArchive over
 * the whole archive forwards and backwards, and pmSetMode to a random time
 * followed by one fetch, with the same source built against pmkit and
 * against Debian's libpcp.  The archives are not made here:
 * bench/archive_bench.sh writes them with tests/oracle/gen_archive at the
 * sizes asked for and names them in $BENCH_ARCHIVES, a list of
 * LABEL=BASENAME words; without it this benchmark has no cases.
 *
 * Cases, for each LABEL:
 *   archive_open_L        ns for pmNewContext + pmDestroyContext
 *   archive_open_kib_L    growth of VmRSS over the process's first
 *                         pmNewContext of the archive (KiB, not a time)
 *   archive_fwd_L         ns per 10^6 bytes of data volumes for one pass of
 *                         pmFetchArchive (and pmFreeResult) from the start
 *                         to PM_ERR_EOL
 *   archive_back_L        the same from the end backwards (PM_MODE_BACK)
 *   archive_cat_L         ns per 10^6 bytes to read() the data volumes whole
 *                         into a 1 MiB buffer: the floor of the two above
 *   archive_catcmd_L      the same for cat(1) run over the volumes, its
 *                         output to /dev/null (the yardstick); with
 *                         BENCH_CLOCK=cpu timed by the CPU time of the
 *                         waited-for child, not the benchmark's own
 *   archive_seek_L        ns for pmSetMode(PM_MODE_FORW) to a random time
 *                         between the archive's start and end, then one
 *                         pmFetchArchive
 *
 * A pass over the archive is timed whole; the best of BENCH_ARCHIVE_PASSES
 * passes (default 2) counts.  Its checksum hashes every record's time,
 * number of metrics and the number of values of each metric, and is the
 * same for every pass.  The checksum of archive_seek_L hashes the time of
 * the record each of 1000 seeks found; that of archive_open_L the label's
 * fields and the archive's end.
 */
#include <pcp/pmapi.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

#define MAX_ARCHIVES 8

static const char *arch_path; /* the archive of the case being run */
static int ctx = -1;
static double data_mb; /* 10^6 bytes of data volumes */
static struct timeval t_start, t_end;

static void die(const char *what, int sts)
{
    fprintf(stderr, "bench_archive: %s: %s: %s\n", arch_path, what, pmErrStr(sts));
    exit(1);
}

static double tv_sec(const struct timeval *tv)
{
    return (double)tv->tv_sec + (double)tv->tv_usec * 1e-6;
}

/* Sum the sizes of volumes 0, 1, ... of the archive. */
static double volume_mb(void)
{
    double total = 0;
    char name[4096];
    struct stat st;

    for (int v = 0;; v++) {
        snprintf(name, sizeof(name), "%s.%d", arch_path, v);
        if (stat(name, &st) != 0)
            break;
        total += (double)st.st_size;
    }
    if (total == 0) {
        fprintf(stderr, "bench_archive: %s.0: no data volume\n", arch_path);
        exit(1);
    }
    return total / 1e6;
}

static void open_ctx(void)
{
    pmLogLabel lab;
    int sts;

    if ((ctx = pmNewContext(PM_CONTEXT_ARCHIVE, arch_path)) < 0)
        die("pmNewContext", ctx);
    if ((sts = pmGetArchiveLabel(&lab)) < 0)
        die("pmGetArchiveLabel", sts);
    t_start = lab.ll_start;
    if ((sts = pmGetArchiveEnd(&t_end)) < 0)
        die("pmGetArchiveEnd", sts);
    data_mb = volume_mb();
}

static long rss_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;

    if (f == NULL)
        return -1;
    while (fgets(line, sizeof(line), f) != NULL)
        if (sscanf(line, "VmRSS: %ld", &kib) == 1)
            break;
    fclose(f);
    return kib;
}

static uint64_t open_case(uint64_t n, int verify)
{
    uint64_t h = BENCH_HASH_INIT;

    for (uint64_t i = 0; i < n; i++) {
        int c = pmNewContext(PM_CONTEXT_ARCHIVE, arch_path);
        if (c < 0)
            die("pmNewContext", c);
        if (verify) {
            pmLogLabel lab;
            struct timeval end;
            if (pmGetArchiveLabel(&lab) < 0 || pmGetArchiveEnd(&end) < 0)
                die("label or end", PM_ERR_LABEL);
            h = bench_hash_u64(h, (uint64_t)lab.ll_magic);
            h = bench_hash_u64(h, (uint64_t)lab.ll_pid);
            h = bench_hash_u64(h, (uint64_t)lab.ll_start.tv_sec);
            h = bench_hash_u64(h, (uint64_t)lab.ll_start.tv_usec);
            h = bench_hash_str(h, lab.ll_hostname);
            h = bench_hash_str(h, lab.ll_tz);
            h = bench_hash_u64(h, (uint64_t)end.tv_sec);
            h = bench_hash_u64(h, (uint64_t)end.tv_usec);
        } else
            h += (uint64_t)c; /* its number depends on how many came before */
        pmDestroyContext(c);
    }
    return h;
}

/* One pass of pmFetchArchive to the end in mode (FORW or BACK). */
static uint64_t pass(int mode)
{
    uint64_t h = BENCH_HASH_INIT;
    pmResult *r;
    int sts;

    if ((sts = pmSetMode(mode, mode == PM_MODE_FORW ? &t_start : &t_end, 0)) < 0)
        die("pmSetMode", sts);
    while ((sts = pmFetchArchive(&r)) >= 0) {
        uint64_t vals = 0;
        for (int i = 0; i < r->numpmid; i++)
            vals = vals * 31 + (uint64_t)(int64_t)r->vset[i]->numval;
        h = bench_hash_u64(h, (uint64_t)r->timestamp.tv_sec);
        h = bench_hash_u64(h, (uint64_t)r->timestamp.tv_usec);
        h = bench_hash_u64(h, (uint64_t)r->numpmid);
        h = bench_hash_u64(h, vals);
        pmFreeResult(r);
    }
    if (sts != PM_ERR_EOL)
        die("pmFetchArchive", sts);
    return h;
}

static uint64_t cat_pass(void)
{
    static char buf[1 << 20];
    uint64_t h = BENCH_HASH_INIT;
    char name[4096];

    for (int v = 0;; v++) {
        ssize_t got;
        int fd;
        snprintf(name, sizeof(name), "%s.%d", arch_path, v);
        if ((fd = open(name, O_RDONLY)) < 0)
            break;
        while ((got = read(fd, buf, sizeof(buf))) > 0)
            h = bench_hash_u64(h, (uint64_t)got);
        close(fd);
    }
    return h;
}

#define MAX_VOLUMES 64

extern char **environ;

/* The time to charge a run of cat(1) with: the CPU time of the children
 * waited for so far when BENCH_CLOCK=cpu (the benchmark's own clock
 * would not see the child), else bench_now()'s wall clock. */
static double child_now(void)
{
    struct rusage ru;

    if (bench_clock() != CLOCK_PROCESS_CPUTIME_ID)
        return bench_now();
    if (getrusage(RUSAGE_CHILDREN, &ru) != 0) {
        perror("bench_archive: getrusage");
        exit(1);
    }
    return tv_sec(&ru.ru_utime) + tv_sec(&ru.ru_stime);
}

/* One run of cat(1) over the data volumes, its output to /dev/null: the
 * number of volumes hashed (cat's own output is not seen). */
static uint64_t catcmd_pass(void)
{
    static char names[MAX_VOLUMES][4096];
    char *argv[MAX_VOLUMES + 2] = {"cat"};
    posix_spawn_file_actions_t fa;
    struct stat st;
    int n = 0, status, err;
    pid_t pid;

    while (n < MAX_VOLUMES) {
        snprintf(names[n], sizeof(names[n]), "%s.%d", arch_path, n);
        if (stat(names[n], &st) != 0)
            break;
        argv[1 + n] = names[n];
        n++;
    }
    argv[1 + n] = NULL;
    if (posix_spawn_file_actions_init(&fa) != 0 ||
        posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0) != 0) {
        fprintf(stderr, "bench_archive: posix_spawn_file_actions failed\n");
        exit(1);
    }
    if ((err = posix_spawnp(&pid, "cat", &fa, NULL, argv, environ)) != 0) {
        fprintf(stderr, "bench_archive: cannot run cat: %s\n", strerror(err));
        exit(1);
    }
    posix_spawn_file_actions_destroy(&fa);
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "bench_archive: cat of %s's volumes failed\n", arch_path);
        exit(1);
    }
    return bench_hash_u64(BENCH_HASH_INIT, (uint64_t)n);
}

static int passes(void)
{
    const char *s = getenv("BENCH_ARCHIVE_PASSES");
    int n = s != NULL ? atoi(s) : 2;
    return n < 1 ? 1 : n > 20 ? 20 : n;
}

enum { PASS_READ = -1, PASS_CATCMD = -2 }; /* modes of run_passes beside PCP's */

/* Time whole passes; print the best in ns per 10^6 bytes of volumes. */
static void run_passes(const char *name, int mode)
{
    double best = -1;
    uint64_t sum = 0;

    for (int p = passes(); p > 0; p--) {
        double t0 = mode == PASS_CATCMD ? child_now() : bench_now(), el;
        uint64_t h = mode == PASS_CATCMD ? catcmd_pass()
                     : mode == PASS_READ ? cat_pass()
                                         : pass(mode);
        el = (mode == PASS_CATCMD ? child_now() : bench_now()) - t0;
        if (sum != 0 && h != sum) {
            fprintf(stderr, "bench_archive: %s: passes differ\n", name);
            exit(1);
        }
        sum = h;
        if (best < 0 || el < best)
            best = el;
    }
    bench_print_line(name, best * 1e9 / data_mb, sum);
}

static uint64_t seek_state = 42;

static uint64_t seek_case(uint64_t n, int verify)
{
    double lo = tv_sec(&t_start), span = tv_sec(&t_end) - lo;
    uint64_t h = BENCH_HASH_INIT;
    uint64_t state = verify ? 7 : seek_state;

    for (uint64_t i = 0; i < n; i++) {
        double at = lo + span * (double)bench_pick(&state, 1000000) / 1e6;
        struct timeval tv = {(time_t)at, (suseconds_t)((at - (double)(time_t)at) * 1e6)};
        pmResult *r;
        int sts;
        if ((sts = pmSetMode(PM_MODE_FORW, &tv, 0)) < 0)
            die("pmSetMode", sts);
        if ((sts = pmFetchArchive(&r)) < 0)
            die("pmFetchArchive after pmSetMode", sts);
        h = bench_hash_u64(h, (uint64_t)r->timestamp.tv_sec);
        h = bench_hash_u64(h, (uint64_t)r->timestamp.tv_usec);
        pmFreeResult(r);
    }
    if (!verify)
        seek_state = state;
    return h;
}

static void run_case(const char *kind, const char *label)
{
    char name[128];

    snprintf(name, sizeof(name), "archive_%s_%s", kind, label);
    if (strcmp(kind, "open_kib") == 0) {
        long before = rss_kib(), after;
        pmLogLabel lab;
        if ((ctx = pmNewContext(PM_CONTEXT_ARCHIVE, arch_path)) < 0)
            die("pmNewContext", ctx);
        after = rss_kib();
        if (pmGetArchiveLabel(&lab) < 0)
            die("pmGetArchiveLabel", PM_ERR_LABEL);
        bench_print_line(name, (double)(after - before),
                         bench_hash_u64(BENCH_HASH_INIT, (uint64_t)lab.ll_start.tv_sec));
        return;
    }
    if (strcmp(kind, "open") == 0) {
        bench_run_budget(name, open_case, 20, 5.0);
        return;
    }
    open_ctx();
    if (strcmp(kind, "fwd") == 0)
        run_passes(name, PM_MODE_FORW);
    else if (strcmp(kind, "back") == 0)
        run_passes(name, PM_MODE_BACK);
    else if (strcmp(kind, "cat") == 0)
        run_passes(name, PASS_READ);
    else if (strcmp(kind, "catcmd") == 0)
        run_passes(name, PASS_CATCMD);
    else
        bench_run_budget(name, seek_case, BENCH_VERIFY_OPS, 5.0);
}

int main(int argc, char **argv)
{
    static const char *kinds[] = {"open", "open_kib", "fwd", "back", "cat", "catcmd", "seek"};
    char *spec = getenv("BENCH_ARCHIVES") ? strdup(getenv("BENCH_ARCHIVES")) : NULL;
    char *labels[MAX_ARCHIVES], *paths[MAX_ARCHIVES];
    int list = argc > 1 && strcmp(argv[1], "-l") == 0, narch = 0;

    for (char *w = spec ? strtok(spec, " ") : NULL; w != NULL && narch < MAX_ARCHIVES;
         w = strtok(NULL, " ")) {
        char *eq = strchr(w, '=');
        if (eq == NULL) {
            fprintf(stderr, "bench_archive: '%s' in $BENCH_ARCHIVES is not LABEL=PATH\n", w);
            return 2;
        }
        *eq = '\0';
        labels[narch] = w;
        paths[narch++] = eq + 1;
    }
    for (int a = 0; a < narch; a++)
        for (size_t k = 0; k < BENCH_NCASES(kinds); k++) {
            char name[128];
            int want = argc == 1 + list;
            snprintf(name, sizeof(name), "archive_%s_%s", kinds[k], labels[a]);
            for (int i = 1 + list; i < argc && !want; i++)
                want = strcmp(argv[i], name) == 0;
            if (!want)
                continue;
            if (list) {
                printf("%s\n", name);
                continue;
            }
            arch_path = paths[a];
            run_case(kinds[k], labels[a]);
        }
    free(spec);
    return 0;
}
