/*
 * bench_local.c - PMAPI calls in a local context, each library running the
 * same agent (bench/agent_bench.c, built against that library's
 * libpcp_pmda by bench/run, path in $BENCH_AGENT): pmFetch of one and of
 * several metrics, pmLookupDesc, pmLookupText (one-line and help),
 * pmLookupInDomText and pmGetInDom.  Checksums hash every value fetched
 * (except those of bench.count and bench.load in local_fetch_4), every field
 * of each pmDesc and every text and instance returned.
 */
/* bench-agent: bench/agent_bench.c */
#include <pcp/pmapi.h>

#include "bench.h"

static pmID ids[4];
static pmInDom cpu_indom;

static void setup(void)
{
    const char *agent = getenv("BENCH_AGENT");
    const char *names[4] = {"bench.count", "bench.load", "bench.name", "bench.cpu"};
    char spec[4096];
    pmDesc d;

    if (agent == NULL) {
        fprintf(stderr, "bench_local: $BENCH_AGENT names no agent (run it through bench/run)\n");
        exit(1);
    }
    snprintf(spec, sizeof(spec), "add,200,%s,bench_init", agent);
    if (pmSpecLocalPMDA("clear") != NULL || pmSpecLocalPMDA(spec) != NULL ||
        pmLoadNameSpace(getenv("BENCH_AGENT_PMNS")) < 0 ||
        pmNewContext(PM_CONTEXT_LOCAL, NULL) < 0 || pmLookupName(4, names, ids) != 4 ||
        pmLookupDesc(ids[3], &d) < 0) {
        fprintf(stderr, "bench_local: cannot set up the local context\n");
        exit(1);
    }
    cpu_indom = d.indom;
}

/*
 * Hash a fetch: the number of values of each metric and, when verifying,
 * each value's instance and bytes.  The values of the first nvolatile
 * metrics are left out: bench.count and bench.load follow the agent's
 * fetch counter, i.e. how many fetches calibration made.
 */
static uint64_t fold_result(uint64_t h, const pmResult *r, int verify, int nvolatile)
{
    for (int i = 0; i < r->numpmid; i++) {
        const pmValueSet *vs = r->vset[i];
        h = bench_hash_u64(h, (uint64_t)(int64_t)vs->numval);
        if (!verify)
            continue;
        h = bench_hash_u64(h, (uint64_t)(int64_t)vs->valfmt);
        for (int j = 0; j < vs->numval; j++) {
            const pmValue *v = &vs->vlist[j];
            h = bench_hash_u64(h, (uint64_t)(int64_t)v->inst);
            if (i < nvolatile)
                continue;
            if (vs->valfmt == PM_VAL_INSITU) {
                h = bench_hash_u64(h, (uint32_t)v->value.lval);
            } else {
                const pmValueBlock *vb = v->value.pval;
                h = bench_hash_u64(h, vb->vtype);
                h = bench_hash_u64(h, vb->vlen);
                if (vb->vlen > PM_VAL_HDR_SIZE)
                    h = bench_hash_bytes(h, vb->vbuf, (size_t)vb->vlen - PM_VAL_HDR_SIZE);
            }
        }
    }
    return h;
}

static uint64_t fetch_n(uint64_t n, int verify, int count, pmID *list, int nvolatile)
{
    uint64_t h = BENCH_HASH_INIT;

    for (uint64_t i = 0; i < n; i++) {
        pmResult *r;
        if (pmFetch(count, list, &r) < 0)
            exit(1);
        h = fold_result(h, r, verify, nvolatile);
        pmFreeResult(r);
    }
    return h;
}

/* bench.load alone: only fetches of bench.count advance the agent's
 * counter, and this case runs before local_fetch_4, so its value is 0. */
static uint64_t fetch_one(uint64_t n, int verify)
{
    return fetch_n(n, verify, 1, &ids[1], 0);
}

static uint64_t fetch_all(uint64_t n, int verify)
{
    return fetch_n(n, verify, 4, ids, 2);
}

static uint64_t fetch_indom(uint64_t n, int verify)
{
    return fetch_n(n, verify, 1, &ids[3], 0);
}

/* Every field of a pmDesc, the units one by one (their bit-field layout is
 * the header's business). */
static uint64_t hash_desc(uint64_t h, const pmDesc *d)
{
    const pmUnits *u = &d->units;
    h = bench_hash_u64(h, d->pmid);
    h = bench_hash_u64(h, (uint64_t)(int64_t)d->type);
    h = bench_hash_u64(h, d->indom);
    h = bench_hash_u64(h, (uint64_t)(int64_t)d->sem);
    h = bench_hash_u64(h, (uint64_t)(int64_t)u->dimSpace);
    h = bench_hash_u64(h, (uint64_t)(int64_t)u->dimTime);
    h = bench_hash_u64(h, (uint64_t)(int64_t)u->dimCount);
    h = bench_hash_u64(h, u->scaleSpace);
    h = bench_hash_u64(h, u->scaleTime);
    return bench_hash_u64(h, (uint64_t)(int64_t)u->scaleCount);
}

static uint64_t lookup_desc(uint64_t n, int verify)
{
    uint64_t h = BENCH_HASH_INIT;

    for (uint64_t i = 0; i < n; i++) {
        pmDesc d;
        if (pmLookupDesc(ids[i & 3], &d) < 0)
            exit(1);
        h = verify ? hash_desc(h, &d) : bench_hash_u64(h, (uint64_t)d.type);
    }
    return h;
}

static uint64_t text(uint64_t n, int verify, int level)
{
    uint64_t h = BENCH_HASH_INIT;

    for (uint64_t i = 0; i < n; i++) {
        char *buf;
        if (pmLookupText(ids[i & 3], level, &buf) < 0)
            exit(1);
        h = bench_fold_str(h, buf, verify);
        free(buf);
    }
    return h;
}

static uint64_t text_oneline(uint64_t n, int verify)
{
    return text(n, verify, PM_TEXT_ONELINE);
}

static uint64_t text_help(uint64_t n, int verify)
{
    return text(n, verify, PM_TEXT_HELP);
}

static uint64_t indom_text(uint64_t n, int verify)
{
    uint64_t h = BENCH_HASH_INIT;

    for (uint64_t i = 0; i < n; i++) {
        char *buf;
        if (pmLookupInDomText(cpu_indom, PM_TEXT_ONELINE, &buf) < 0)
            exit(1);
        h = bench_fold_str(h, buf, verify);
        free(buf);
    }
    return h;
}

static uint64_t get_indom(uint64_t n, int verify)
{
    uint64_t h = BENCH_HASH_INIT;

    for (uint64_t i = 0; i < n; i++) {
        int *insts;
        char **names;
        int k = pmGetInDom(cpu_indom, &insts, &names);
        if (k < 0)
            exit(1);
        h = bench_hash_u64(h, (uint64_t)k);
        if (verify)
            for (int j = 0; j < k; j++)
                h = bench_hash_str(bench_hash_u64(h, (uint64_t)insts[j]), names[j]);
        free(insts);
        free(names);
    }
    return h;
}

int main(int argc, char **argv)
{
    static const struct bench_case cases[] = {
        {"local_fetch_1", fetch_one},         {"local_fetch_4", fetch_all},
        {"local_fetch_indom16", fetch_indom}, {"local_lookup_desc", lookup_desc},
        {"local_text_oneline", text_oneline}, {"local_text_help", text_help},
        {"local_indom_text", indom_text},     {"local_get_indom16", get_indom},
    };

    if (!(argc > 1 && strcmp(argv[1], "-l") == 0))
        setup();
    return bench_main(argc, argv, cases, BENCH_NCASES(cases));
}
