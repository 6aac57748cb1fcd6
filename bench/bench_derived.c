/*
 * bench_derived.c - derived metrics in a local context over the bench
 * agent (bench/agent_bench.c, in $BENCH_AGENT): pmFetch of 1, 100 and
 * 1000 derived metrics (a mix of arithmetic over a scalar, a per-instance
 * expression over the 16-instance bench.cpu and an aggregate of it), and
 * pmLoadDerivedConfig of a file of 10,000 definitions.
 *
 * The fetched metrics are registered before the context opens; their
 * values depend on bench.cpu's fixed values and on bench.load, which stays
 * 0 unless bench.count is fetched, so checksums hash every value.  Each
 * registration operation writes its file first (names made unique by a
 * counter, so every load registers all 10,000) and loads it: the writing
 * (about 400 KB to $TMPDIR) is timed on both sides alike.
 */
/* bench-agent: bench/agent_bench.c */
#include <pcp/pmapi.h>

#include <unistd.h>

#include "bench.h"

#define NFETCH 1000
#define NREG   10000

static pmID ids[NFETCH];
static char cfg_path[4096];
static unsigned long reg_serial;

/* Definition k of the fetched metrics: three shapes in turn. */
static void define(int k, char *buf, size_t size)
{
    switch (k % 3) {
    case 0:
        snprintf(buf, size, "bench.load * %d + %d", k + 1, k);
        break;
    case 1:
        snprintf(buf, size, "bench.cpu * %d - bench.cpu / 2", k + 2);
        break;
    default:
        snprintf(buf, size, "%s(bench.cpu)", (k / 3) % 2 ? "sum" : "max");
        break;
    }
}

static void setup(void)
{
    const char *agent = getenv("BENCH_AGENT");
    const char *tmpdir = getenv("TMPDIR");
    char spec[4096], name[64], expr[128];
    const char *names[NFETCH];
    static char namebuf[NFETCH][32];

    if (agent == NULL) {
        fprintf(stderr, "bench_derived: $BENCH_AGENT names no agent (run it through bench/run)\n");
        exit(1);
    }
    for (int k = 0; k < NFETCH; k++) {
        snprintf(name, sizeof(name), "dbench.m%d", k);
        define(k, expr, sizeof(expr));
        if (pmRegisterDerived(name, expr) != NULL) {
            fprintf(stderr, "bench_derived: %s = %s: %s\n", name, expr, pmDerivedErrStr());
            exit(1);
        }
        snprintf(namebuf[k], sizeof(namebuf[k]), "%s", name);
        names[k] = namebuf[k];
    }
    snprintf(spec, sizeof(spec), "add,200,%s,bench_init", agent);
    if (pmSpecLocalPMDA("clear") != NULL || pmSpecLocalPMDA(spec) != NULL ||
        pmLoadNameSpace(getenv("BENCH_AGENT_PMNS")) < 0 ||
        pmNewContext(PM_CONTEXT_LOCAL, NULL) < 0 || pmLookupName(NFETCH, names, ids) != NFETCH) {
        fprintf(stderr, "bench_derived: cannot set up the local context\n");
        exit(1);
    }
    snprintf(cfg_path, sizeof(cfg_path), "%s/bench_derived.%ld.conf",
             tmpdir != NULL ? tmpdir : "/tmp", (long)getpid());
}

static uint64_t fold_result(uint64_t h, const pmResult *r, int verify)
{
    for (int i = 0; i < r->numpmid; i++) {
        const pmValueSet *vs = r->vset[i];
        h = bench_hash_u64(h, (uint64_t)(int64_t)vs->numval);
        if (!verify)
            continue;
        for (int j = 0; j < vs->numval; j++) {
            const pmValue *v = &vs->vlist[j];
            h = bench_hash_u64(h, (uint64_t)(int64_t)v->inst);
            if (vs->valfmt == PM_VAL_INSITU) {
                h = bench_hash_u64(h, (uint32_t)v->value.lval);
            } else {
                const pmValueBlock *vb = v->value.pval;
                h = bench_hash_u64(h, vb->vtype);
                h = bench_hash_bytes(h, vb->vbuf, (size_t)vb->vlen - PM_VAL_HDR_SIZE);
            }
        }
    }
    return h;
}

static uint64_t fetch_n(uint64_t n, int verify, int count)
{
    uint64_t h = BENCH_HASH_INIT;

    for (uint64_t i = 0; i < n; i++) {
        pmResult *r;
        if (pmFetch(count, ids, &r) < 0)
            exit(1);
        h = fold_result(h, r, verify);
        pmFreeResult(r);
    }
    return h;
}

static uint64_t fetch_1(uint64_t n, int verify)
{
    return fetch_n(n, verify, 1);
}

static uint64_t fetch_100(uint64_t n, int verify)
{
    return fetch_n(n, verify, 100);
}

static uint64_t fetch_1000(uint64_t n, int verify)
{
    return fetch_n(n, verify, NFETCH);
}

/* One operation: a file of NREG definitions written, then loaded. */
static uint64_t register_10k(uint64_t n, int verify)
{
    uint64_t h = BENCH_HASH_INIT;

    if (verify)
        n = n > 3 ? 3 : n; /* the checksum pass: a few loads are enough */
    for (uint64_t i = 0; i < n; i++) {
        unsigned long serial = reg_serial++;
        FILE *f = fopen(cfg_path, "w");
        if (f == NULL)
            exit(1);
        for (int k = 0; k < NREG; k++)
            fprintf(f, "r%lu.g%d.m%d = bench.load * %d + bench.cpu\n", serial, k / 100, k % 100, k);
        if (fclose(f) != 0)
            exit(1);
        int sts = pmLoadDerivedConfig(cfg_path);
        h = bench_hash_u64(h, (uint64_t)(int64_t)sts);
    }
    remove(cfg_path);
    return h;
}

int main(int argc, char **argv)
{
    static const struct bench_case cases[] = {
        {"derived_fetch_1", fetch_1},
        {"derived_fetch_100", fetch_100},
        {"derived_fetch_1000", fetch_1000},
        {"derived_register_10k", register_10k},
    };

    if (!(argc > 1 && strcmp(argv[1], "-l") == 0))
        setup();
    return bench_main(argc, argv, cases, BENCH_NCASES(cases));
}
