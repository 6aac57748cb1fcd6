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
 *                    (one op; PCP maps the files, pmkit reads and checks
 *                    them and builds its index)
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

static char tmpdir[64];
static char base3k[128], base100k[128];
static int h3k = -1, h100k = -1;
static unsigned keys3k[NKEYS], keys100k[NKEYS], indoms3k[NKEYS], indoms100k[NKEYS];

static uint64_t rng = 0x1234567;
static unsigned rnd(unsigned n)
{
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)((rng >> 33) % n);
}

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
    const char *bases[] = {base3k, base100k};

    for (int b = 0; b < 2; b++) {
        if (bases[b][0] == '\0')
            continue;
        snprintf(path, sizeof(path), "%s.dir", bases[b]);
        unlink(path);
        snprintf(path, sizeof(path), "%s.pag", bases[b]);
        unlink(path);
    }
    if (tmpdir[0] != '\0')
        rmdir(tmpdir);
}

/* Lazily make and open the database of n entries. */
static int db(unsigned n)
{
    int *h = n == 3000 ? &h3k : &h100k;
    char *base = n == 3000 ? base3k : base100k;
    unsigned *keys = n == 3000 ? keys3k : keys100k, *indoms = n == 3000 ? indoms3k : indoms100k;

    if (*h >= 0)
        return *h;
    if (tmpdir[0] == '\0') {
        snprintf(tmpdir, sizeof(tmpdir), "/tmp/bench_help.XXXXXX");
        if (mkdtemp(tmpdir) == NULL) {
            perror("mkdtemp");
            exit(1);
        }
        atexit(cleanup);
    }
    snprintf(base, 128, "%s/help%u", tmpdir, n);
    make_db(base, n);
    for (int i = 0; i < NKEYS; i++) {
        keys[i] = pmid_of(rnd(n));
        indoms[i] = (unsigned)DOMAIN << 22 | rnd(n / 100);
    }
    if ((*h = pmdaOpenHelp(base)) < 0) {
        fprintf(stderr, "pmdaOpenHelp(%s): %s\n", base, pmErrStr(*h));
        exit(1);
    }
    return *h;
}

static uint64_t gethelp(unsigned size, uint64_t n, int verify)
{
    int h = db(size);
    const unsigned *keys = size == 3000 ? keys3k : keys100k;
    uint64_t acc = BENCH_HASH_INIT;

    for (uint64_t i = 0; i < n; i++) {
        const char *s = pmdaGetHelp(h, keys[i % NKEYS], (i & 1) ? PM_TEXT_HELP : PM_TEXT_ONELINE);
        acc = bench_fold_str(acc, s, verify);
    }
    return acc;
}

static uint64_t gethelp_miss(unsigned size, uint64_t n, int verify)
{
    int h = db(size);
    uint64_t acc = BENCH_HASH_INIT;

    for (uint64_t i = 0; i < n; i++) {
        /* domain 61: never there */
        const char *s = pmdaGetHelp(h, (61u << 22) | (unsigned)(i % 1000), PM_TEXT_ONELINE);
        acc = bench_fold_str(acc, s, verify);
    }
    return acc;
}

static uint64_t getindom(unsigned size, uint64_t n, int verify)
{
    int h = db(size);
    const unsigned *indoms = size == 3000 ? indoms3k : indoms100k;
    uint64_t acc = BENCH_HASH_INIT;

    for (uint64_t i = 0; i < n; i++) {
        const char *s = pmdaGetInDomHelp(h, indoms[i % NKEYS], PM_TEXT_ONELINE);
        acc = bench_fold_str(acc, s, verify);
    }
    return acc;
}

static uint64_t open_close(unsigned size, uint64_t n, int verify)
{
    const char *base = size == 3000 ? base3k : base100k;
    uint64_t acc = verify ? BENCH_HASH_INIT : 0;

    db(size);
    if (verify)
        n = 3; /* the checksum pass: a few opens are enough */
    for (uint64_t i = 0; i < n; i++) {
        int h = pmdaOpenHelp(base);
        if (verify)
            acc = bench_hash_str(acc, pmdaGetHelp(h, pmid_of(size - 1), PM_TEXT_ONELINE));
        else
            acc += h >= 0;
        pmdaCloseHelp(h);
    }
    return acc;
}

static uint64_t gethelp_3k(uint64_t n, int v)
{
    return gethelp(3000, n, v);
}
static uint64_t gethelp_100k(uint64_t n, int v)
{
    return gethelp(100000, n, v);
}
static uint64_t gethelp_miss_3k(uint64_t n, int v)
{
    return gethelp_miss(3000, n, v);
}
static uint64_t gethelp_miss_100k(uint64_t n, int v)
{
    return gethelp_miss(100000, n, v);
}
static uint64_t getindom_3k(uint64_t n, int v)
{
    return getindom(3000, n, v);
}
static uint64_t getindom_100k(uint64_t n, int v)
{
    return getindom(100000, n, v);
}
static uint64_t open_3k(uint64_t n, int v)
{
    return open_close(3000, n, v);
}
static uint64_t open_100k(uint64_t n, int v)
{
    return open_close(100000, n, v);
}

int main(int argc, char **argv)
{
    static const struct bench_case cases[] = {
        {"gethelp_3k", gethelp_3k},
        {"gethelp_100k", gethelp_100k},
        {"gethelp_miss_3k", gethelp_miss_3k},
        {"gethelp_miss_100k", gethelp_miss_100k},
        {"getindomhelp_3k", getindom_3k},
        {"getindomhelp_100k", getindom_100k},
        {"openhelp_3k", open_3k},
        {"openhelp_100k", open_100k},
    };
    return bench_main(argc, argv, cases, BENCH_NCASES(cases));
}
