/*
 * bench_help.c: help database lookups, pmkit's libpcp_pmda against PCP's.
 *
 * Uses only the public API (<pcp/pmapi.h>, <pcp/pmda.h>).  The binary
 * writes its own help database in PCP's version 2 format (little-endian
 * .dir sorted as newhelp sorts it, .pag in entry order) into a temporary
 * directory, so both builds read the very same files.  For each size N
 * (3k and 100k entries, L its label) the cases are:
 *
 *   gethelp_L        pmdaGetHelp of a random PMID of the database, one-line
 *                    and long text alternately
 *   gethelp_miss_L   pmdaGetHelp of a PMID that is not there
 *   getindomhelp_L   pmdaGetInDomHelp of a random InDom (N/100 of them)
 *   openhelp_L       pmdaOpenHelp + pmdaCloseHelp of the whole database
 *                    (one op; both map the files and read no record)
 *   openhelp_first_L pmdaOpenHelp, one pmdaGetHelp of a random PMID,
 *                    pmdaCloseHelp: a process's first answer (both scan)
 *
 * Checksums hash every returned string (NULL included), so equal checksums
 * mean both libraries gave the same answers.
 *
 * Usage: bench_help [-l] [NAME...]  (as every bench binary; see bench.h)
 */
/* bench-pkgs: libpcp libpcp_pmda */
#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include "bench.h"

#include <unistd.h>

#define DOMAIN 60
#define NKEYS  4096 /* random keys drawn per size */

/* One database size, made and opened on first use. */
struct db {
    unsigned n;             /* PMID entries; n/100 InDoms besides */
    char base[128];         /* BASE of BASE.dir/.pag, "" until made */
    int h;                  /* pmdaOpenHelp handle, -1 until opened */
    unsigned keys[NKEYS];   /* random PMIDs of the database */
    unsigned indoms[NKEYS]; /* random InDoms of the database */
};

static char tmpdir[64];
static struct db dbs[] = {{.n = 3000, .h = -1}, {.n = 100000, .h = -1}};

static void put32(FILE *fp, unsigned v)
{
    unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                          (unsigned char)(v >> 24)};
    fwrite(b, 1, 4, fp);
}

/* The PMID of entry i: clusters of 1000 items. */
static unsigned pmid_of(unsigned i)
{
    return (unsigned)DOMAIN << 22 | (i / 1000) << 10 | (i % 1000);
}

/* BASE.dir/.pag with n PMIDs and n/100 InDoms; offsets recorded in order. */
static void make_db(const char *base, unsigned n)
{
    unsigned nindom = n / 100, total = n + nindom;
    unsigned *one = malloc(total * sizeof(*one)), *text = malloc(total * sizeof(*text));
    char path[160];
    FILE *pag, *dir;

    snprintf(path, sizeof(path), "%s.pag", base);
    pag = fopen(path, "wb");
    fputs("PcPh22\n", pag);
    for (unsigned i = 0; i < total; i++) {
        if (i < n)
            fprintf(pag, "\n@ bench.group%u.metric%u ", i / 1000, i);
        else
            fprintf(pag, "\n@ %d.%u ", DOMAIN, i - n);
        one[i] = (unsigned)ftell(pag);
        fprintf(pag, "One-line summary of entry %u", i);
        fputc('\0', pag);
        text[i] = (unsigned)ftell(pag);
        fprintf(pag,
                "Longer help text for entry %u.\nIt explains what the value means,\n"
                "its units and its semantics, over a few lines.",
                i);
        fputc('\0', pag);
    }
    fclose(pag);
    snprintf(path, sizeof(path), "%s.dir", base);
    dir = fopen(path, "wb");
    put32(dir, 0x50635068);
    put32(dir, 0x31320000);
    put32(dir, total);
    for (unsigned i = 0; i < total; i++) {
        put32(dir, i < n ? pmid_of(i) : 0x80000000u | (unsigned)DOMAIN << 22 | (i - n));
        put32(dir, one[i]);
        put32(dir, text[i]);
    }
    fclose(dir);
    free(one);
    free(text);
}

static void cleanup(void)
{
    char path[160];

    for (size_t b = 0; b < sizeof dbs / sizeof dbs[0]; b++) {
        if (dbs[b].base[0] == '\0')
            continue;
        snprintf(path, sizeof(path), "%s.dir", dbs[b].base);
        unlink(path);
        snprintf(path, sizeof(path), "%s.pag", dbs[b].base);
        unlink(path);
    }
    if (tmpdir[0] != '\0')
        rmdir(tmpdir);
}

/* Lazily make and open d's database; its handle. */
static int db_open(struct db *d)
{
    uint64_t rng = d->n; /* the same keys whichever size runs first */

    if (d->h >= 0)
        return d->h;
    if (tmpdir[0] == '\0') {
        snprintf(tmpdir, sizeof(tmpdir), "/tmp/bench_help.XXXXXX");
        if (mkdtemp(tmpdir) == NULL) {
            perror("mkdtemp");
            exit(1);
        }
        atexit(cleanup);
    }
    snprintf(d->base, sizeof d->base, "%s/help%u", tmpdir, d->n);
    make_db(d->base, d->n);
    for (int i = 0; i < NKEYS; i++) {
        d->keys[i] = pmid_of((unsigned)bench_pick(&rng, d->n));
        d->indoms[i] = (unsigned)DOMAIN << 22 | (unsigned)bench_pick(&rng, d->n / 100);
    }
    if ((d->h = pmdaOpenHelp(d->base)) < 0) {
        fprintf(stderr, "pmdaOpenHelp(%s): %s\n", d->base, pmErrStr(d->h));
        exit(1);
    }
    return d->h;
}

static uint64_t gethelp(struct db *d, uint64_t n, int verify)
{
    int h = db_open(d);
    uint64_t acc = BENCH_HASH_INIT;

    for (uint64_t i = 0; i < n; i++) {
        const char *s =
            pmdaGetHelp(h, d->keys[i % NKEYS], (i & 1) ? PM_TEXT_HELP : PM_TEXT_ONELINE);
        acc = bench_fold_str(acc, s, verify);
    }
    return acc;
}

static uint64_t gethelp_miss(struct db *d, uint64_t n, int verify)
{
    int h = db_open(d);
    uint64_t acc = BENCH_HASH_INIT;

    for (uint64_t i = 0; i < n; i++) {
        /* domain 61: never there */
        const char *s = pmdaGetHelp(h, (61u << 22) | (unsigned)(i % 1000), PM_TEXT_ONELINE);
        acc = bench_fold_str(acc, s, verify);
    }
    return acc;
}

static uint64_t getindomhelp(struct db *d, uint64_t n, int verify)
{
    int h = db_open(d);
    uint64_t acc = BENCH_HASH_INIT;

    for (uint64_t i = 0; i < n; i++) {
        const char *s = pmdaGetInDomHelp(h, d->indoms[i % NKEYS], PM_TEXT_ONELINE);
        acc = bench_fold_str(acc, s, verify);
    }
    return acc;
}

static uint64_t openhelp(struct db *d, uint64_t n, int verify)
{
    uint64_t acc = verify ? BENCH_HASH_INIT : 0;

    db_open(d);
    if (verify)
        n = 3; /* the checksum pass: a few opens are enough */
    for (uint64_t i = 0; i < n; i++) {
        int h = pmdaOpenHelp(d->base);
        if (verify)
            acc = bench_hash_str(acc, pmdaGetHelp(h, pmid_of(d->n - 1), PM_TEXT_ONELINE));
        else
            acc += h >= 0;
        pmdaCloseHelp(h);
    }
    return acc;
}

/* What a process that opens the help to answer one request pays: open,
 * one lookup of a random PMID, close (the checksum pass hashes the
 * answers). */
static uint64_t openfirst(struct db *d, uint64_t n, int verify)
{
    uint64_t acc = BENCH_HASH_INIT;

    db_open(d);
    for (uint64_t i = 0; i < n; i++) {
        int h = pmdaOpenHelp(d->base);
        const char *s = pmdaGetHelp(h, d->keys[i % NKEYS], PM_TEXT_ONELINE);
        acc = bench_fold_str(acc, s, verify);
        pmdaCloseHelp(h);
    }
    return acc;
}

/* FN_3k and FN_100k: case FN on each database. */
#define SIZED(fn)                                                                                  \
    static uint64_t fn##_3k(uint64_t n, int v)                                                     \
    {                                                                                              \
        return fn(&dbs[0], n, v);                                                                  \
    }                                                                                              \
    static uint64_t fn##_100k(uint64_t n, int v)                                                   \
    {                                                                                              \
        return fn(&dbs[1], n, v);                                                                  \
    }

SIZED(gethelp)
SIZED(gethelp_miss)
SIZED(getindomhelp)
SIZED(openhelp)
SIZED(openfirst)

int main(int argc, char **argv)
{
    static const struct bench_case cases[] = {
        {"gethelp_3k", gethelp_3k},           {"gethelp_100k", gethelp_100k},
        {"gethelp_miss_3k", gethelp_miss_3k}, {"gethelp_miss_100k", gethelp_miss_100k},
        {"getindomhelp_3k", getindomhelp_3k}, {"getindomhelp_100k", getindomhelp_100k},
        {"openhelp_3k", openhelp_3k},         {"openhelp_100k", openhelp_100k},
        {"openhelp_first_3k", openfirst_3k},  {"openhelp_first_100k", openfirst_100k},
    };
    return bench_main(argc, argv, cases, BENCH_NCASES(cases));
}
