/*
 * bench_interp.c - interpolated fetches from an archive (PM_MODE_INTERP),
 * with the same source built against pmkit and against Debian's libpcp.
 * The archive is not made here: bench/interp_bench.sh writes it with
 * tests/oracle/gen_archive and names it in $BENCH_INTERP_ARCHIVE; without
 * that variable this benchmark has no cases.
 *
 * Cases (N: 1, 100 or all of the archive's metrics, in the order of their
 * sorted names; STEP: 1s, 1m, 10m or 1h):
 *   interp_fwd_N_STEP   ns per pmFetch of N metrics, the context's time
 *                       going forwards from 0.37 s after the archive's
 *                       start by STEP
 *   interp_back_N_STEP  the same going backwards from 0.37 s before its end
 *   interp_kib_open     VmHWM (peak RSS, KiB) after pmNewContext and the
 *                       names' lookup (not a time)
 *   interp_kib_peak     VmHWM after 200 fetches of all metrics each way at
 *                       each step, in one process (not a time)
 *
 * A fetch that meets the archive's end (PM_ERR_EOL) sets the mode again at
 * the first time and fetches again; both are timed, as a tool that loops
 * over an archive pays for them.  At 1 h steps over a day, that is one
 * pmSetMode per 24 fetches.  The context is opened, and the mode set,
 * before the timing.  Checksums hash every value of VERIFY_OPS fetches
 * (times, numval, value formats and the values' bytes).
 */
#include <pcp/pmapi.h>

#include <errno.h>

#include "bench.h"

#define VERIFY_OPS 10 /* a verify pass at 1 h steps costs Debian seconds */

#define INTERP_PROG "bench_interp"
#include "interp_common.h"

static uint64_t fold(uint64_t h, const pmResult *r, int verify)
{
    if (!verify)
        return h + (uint64_t)r->numpmid + (uint64_t)r->vset[0]->numval;
    h = bench_hash_u64(h, (uint64_t)r->timestamp.tv_sec);
    h = bench_hash_u64(h, (uint64_t)r->timestamp.tv_usec);
    for (int i = 0; i < r->numpmid; i++) {
        const pmValueSet *vs = r->vset[i];
        h = bench_hash_u64(h, vs->pmid);
        h = bench_hash_u64(h, (uint64_t)(int64_t)vs->numval);
        if (vs->numval <= 0)
            continue;
        h = bench_hash_u64(h, (uint64_t)vs->valfmt);
        for (int j = 0; j < vs->numval; j++) {
            const pmValue *v = &vs->vlist[j];
            h = bench_hash_u64(h, (uint64_t)(int64_t)v->inst);
            if (vs->valfmt == PM_VAL_INSITU)
                h = bench_hash_u64(h, (uint64_t)(int64_t)v->value.lval);
            else
                h = bench_hash_bytes(h, v->value.pval, v->value.pval->vlen);
        }
    }
    return h;
}

static uint64_t fetch_case(uint64_t n, int verify)
{
    uint64_t h = verify ? BENCH_HASH_INIT : 0;

    if (verify)
        set_mode(); /* the same fetches on both sides, whatever ran before */
    for (uint64_t k = 0; k < n; k++) {
        pmResult *r = fetch_one();
        h = fold(h, r, verify);
        pmFreeResult(r);
    }
    return h;
}

static long vm_hwm_kib(void)
{
    char line[256];
    long kib = -1;
    FILE *f = fopen("/proc/self/status", "r");

    if (f == NULL)
        return -1;
    while (fgets(line, sizeof(line), f) != NULL)
        if (strncmp(line, "VmHWM:", 6) == 0)
            kib = strtol(line + 6, NULL, 10);
    fclose(f);
    return kib;
}

static const char *const counts[] = {"1", "100", "all"};
static const char *const steps[] = {"1s", "1m", "10m", "1h"};
static const int step_ms[] = {1000, 60000, 600000, 3600000};

static int count_of(int k)
{
    if (k == 0)
        return 1;
    if (k == 1)
        return nnames < 100 ? nnames : 100;
    return nnames;
}

/* interp_kib_peak: every direction and step, 200 fetches of all metrics. */
static void peak_case(const char *name)
{
    uint64_t h = BENCH_HASH_INIT;

    want = nnames;
    for (int d = 0; d < 2; d++)
        for (size_t s = 0; s < BENCH_NCASES(steps); s++) {
            start(d == 0, step_ms[s]);
            h = bench_hash_u64(h, fetch_case(200, 0));
        }
    bench_print_line(name, (double)vm_hwm_kib(), h);
}

static int wanted(int argc, char **argv, int first, const char *name)
{
    if (first >= argc)
        return 1;
    for (int a = first; a < argc; a++)
        if (strcmp(argv[a], name) == 0)
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    int list = argc > 1 && strcmp(argv[1], "-l") == 0, first = 1 + list;
    char name[64];

    if (getenv("BENCH_INTERP_ARCHIVE") == NULL)
        return 0; /* no archive: no cases */
    if (!list)
        open_archive(getenv("BENCH_INTERP_ARCHIVE"));
    for (int d = 0; d < 2; d++)
        for (size_t c = 0; c < BENCH_NCASES(counts); c++)
            for (size_t s = 0; s < BENCH_NCASES(steps); s++) {
                snprintf(name, sizeof(name), "interp_%s_%s_%s", d == 0 ? "fwd" : "back", counts[c],
                         steps[s]);
                if (!wanted(argc, argv, first, name))
                    continue;
                if (list) {
                    printf("%s\n", name);
                    continue;
                }
                want = count_of((int)c);
                start(d == 0, step_ms[s]);
                bench_run_budget(name, fetch_case, VERIFY_OPS, 2.0);
            }
    if (wanted(argc, argv, first, "interp_kib_open")) {
        if (list)
            printf("interp_kib_open\n");
        else
            bench_print_line("interp_kib_open", (double)vm_hwm_kib(), (uint64_t)nnames);
    }
    if (wanted(argc, argv, first, "interp_kib_peak")) {
        if (list)
            printf("interp_kib_peak\n");
        else
            peak_case("interp_kib_peak");
    }
    return 0;
}
