/*
 * probe_misc.c - smaller PMAPI and PMDA helpers, probed the same way
 * against pmkit's libraries and Debian's (compare.sh wants identical
 * output):
 *  - pmdaRehash after pmdaInit: e_direct, the lookup flags, descriptor
 *    lookups through the new table, back to a direct table and to none;
 *  - pmdaCachePurgeCallback after SAVE and SYNC: which entries go, which
 *    private data the callback sees, PM_INDOM_NULL, a NULL callback;
 *  - pmPrintStamp and pmPrintHighResStamp, in local time (TZ=UTC) and in a
 *    reporting zone;
 *  - pmGetHostName without a context, with a local one and short buffers
 *    (the host's own name is masked), with a handle that is not one;
 *  - pmfstring over lines of words, blanks, empty lines and end of file.
 * Only <pcp/pmapi.h>, <pcp/pmda.h> and standard C.
 */
#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static pmdaMetric direct_tab[] = {
    {NULL,
     {PMDA_PMID(0, 0), PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT, PMDA_PMUNITS(0, 0, 0, 0, 0, 0)}},
    {NULL,
     {PMDA_PMID(0, 1), PM_TYPE_32, PM_INDOM_NULL, PM_SEM_INSTANT, PMDA_PMUNITS(0, 0, 0, 0, 0, 0)}},
};
static pmdaMetric other_tab[] = {
    {NULL,
     {PMDA_PMID(1, 7), PM_TYPE_64, PM_INDOM_NULL, PM_SEM_COUNTER, PMDA_PMUNITS(0, 0, 1, 0, 0, 0)}},
    /* PMIDs of domain 29 set in rehash() */
    {NULL, {0, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_INSTANT, PMDA_PMUNITS(0, 0, 0, 0, 0, 0)}},
    {NULL, {0, PM_TYPE_DOUBLE, PM_INDOM_NULL, PM_SEM_DISCRETE, PMDA_PMUNITS(1, 0, 0, 0, 0, 0)}},
};

static int fetch_cb(pmdaMetric *m, unsigned int inst, pmAtomValue *a)
{
    (void)m;
    (void)inst;
    a->l = 1;
    return 1;
}

/* Help text of its own, so that pmdaInit has nothing to warn about. */
static int no_text(int ident, int type, char **buffer, pmdaExt *e)
{
    (void)ident;
    (void)type;
    (void)buffer;
    (void)e;
    return PM_ERR_TEXT;
}

static void show_ext(const char *when, const pmdaExt *e)
{
    printf("%s: direct %d lookup flags 0x%x metrics %d\n", when, e->e_direct,
           e->e_flags & (PMDA_EXT_FLAG_DIRECT | PMDA_EXT_FLAG_HASHED), e->e_nmetrics);
}

static void descs(pmdaExt *e)
{
    pmID want[5] = {pmID_build(29, 1, 7), pmID_build(29, 0, 1), pmID_build(29, 2, 3),
                    pmID_build(29, 0, 0), pmID_build(0, 1, 7)};
    pmDesc desc;

    for (int i = 0; i < 5; i++) {
        int sts = pmdaDesc(want[i], &desc, e);

        printf("  desc %s: %s", pmIDStr(want[i]), sts < 0 ? pmErrStr(sts) : "ok");
        if (sts >= 0)
            printf(" type %d sem %d", desc.type, desc.sem);
        printf("\n");
    }
}

static void rehash(void)
{
    static pmdaInterface d; /* as an agent keeps it: what pmdaDSO allocates stays reachable */
    pmdaExt *e;

    other_tab[1].m_desc.pmid = pmID_build(29, 0, 1);
    other_tab[2].m_desc.pmid = pmID_build(29, 2, 3);
    memset(&d, 0, sizeof(d));
    pmdaDSO(&d, PMDA_INTERFACE_7, "probe", NULL);
    d.domain = 29;
    pmdaSetFetchCallBack(&d, fetch_cb);
    d.version.seven.text = no_text;
    pmdaInit(&d, NULL, 0, direct_tab, 2);
    e = d.version.any.ext;
    show_ext("init", e);
    descs(e);
    pmdaRehash(e, other_tab, 3);
    show_ext("rehash", e);
    printf("  table %s\n", e->e_metrics == other_tab ? "new" : "old");
    descs(e);
    pmdaRehash(e, direct_tab, 2);
    show_ext("rehash to a direct table", e);
    descs(e);
    pmdaRehash(e, NULL, 0);
    show_ext("rehash to none", e);
    descs(e);
}

static long freed;

static void gone(void *priv)
{
    freed += (long)priv;
    printf("  callback %ld\n", (long)priv);
}

static void sizes(pmInDom in)
{
    printf("  freed %ld active %d inactive %d\n", freed, pmdaCacheOp(in, PMDA_CACHE_SIZE_ACTIVE),
           pmdaCacheOp(in, PMDA_CACHE_SIZE_INACTIVE));
}

/* pmdaCachePurgeCallback goes by the time of the SAVE or SYNC that followed
 * an entry's last activity (PCP's timestamps); the wait makes the entries
 * written at the first SYNC older than a second.  Not probed: what a purge
 * leaves behind (PCP keeps culled entries in PMDA_CACHE_SIZE and counts
 * them again in later purges; docs/compat.md), so each indom is purged of
 * anything once only. */
static void purge(void)
{
    pmInDom in = pmInDom_build(29, 5), active = pmInDom_build(29, 6), never = pmInDom_build(29, 7),
            again = pmInDom_build(29, 8);

    pmdaCacheStore(in, PMDA_CACHE_ADD, "a", (void *)1L);
    pmdaCacheStore(in, PMDA_CACHE_ADD, "b", (void *)2L);
    pmdaCacheStore(in, PMDA_CACHE_ADD, "c", NULL);
    pmdaCacheStore(in, PMDA_CACHE_ADD, "d", (void *)8L);
    pmdaCacheStore(active, PMDA_CACHE_ADD, "x", (void *)32L);
    pmdaCacheStore(never, PMDA_CACHE_ADD, "n", (void *)16L);
    pmdaCacheOp(never, PMDA_CACHE_INACTIVE);
    printf("sync: %d\n", pmdaCacheOp(in, PMDA_CACHE_SYNC));
    printf("sync again: %d\n", pmdaCacheOp(in, PMDA_CACHE_SYNC));
    printf("save: %d\n", pmdaCacheOp(active, PMDA_CACHE_SAVE));
    /* made active by the ACTIVE op after its write: not activity */
    pmdaCacheStore(again, PMDA_CACHE_ADD, "y", (void *)64L);
    printf("save: %d\n", pmdaCacheOp(again, PMDA_CACHE_SAVE));
    pmdaCacheOp(again, PMDA_CACHE_INACTIVE);
    pmdaCacheOp(again, PMDA_CACHE_ACTIVE);
    printf("sync after the ACTIVE op: %d\n", pmdaCacheOp(again, PMDA_CACHE_SYNC));
    pmdaCacheOp(in, PMDA_CACHE_INACTIVE);
    pmdaCacheStore(in, PMDA_CACHE_ADD, "a", (void *)1L); /* active since the write */
    pmdaCacheStore(in, PMDA_CACHE_HIDE, "d", NULL);
    printf("save (nothing added or culled): %d\n", pmdaCacheOp(in, PMDA_CACHE_SAVE));
    printf("purge at once, recent 1: %d\n", pmdaCachePurgeCallback(in, 1, gone));
    sleep(2);
    printf("purge, recent 60: %d\n", pmdaCachePurgeCallback(in, 60, gone));
    printf("purge, recent 1: %d\n", pmdaCachePurgeCallback(in, 1, gone));
    sizes(in);
    printf("never written, purge -5: %d\n", pmdaCachePurgeCallback(never, -5, gone));
    printf("an active entry written 2s ago, purge 1 with no callback: %d\n",
           pmdaCachePurgeCallback(active, 1, NULL));
    sizes(active);
    printf("after the ACTIVE op, purge 1: %d\n", pmdaCachePurgeCallback(again, 1, gone));
    printf("purge, PM_INDOM_NULL: %d\n", pmdaCachePurgeCallback(PM_INDOM_NULL, 0, gone));
    printf("purge, an indom with no cache: %d\n",
           pmdaCachePurgeCallback(pmInDom_build(29, 77), -5, gone));
}

static void stamps(void)
{
    static const struct timeval tv[] = {
        {1700000000, 123456}, {1700000000, 999999}, {0, 0}, {1700000000, 999500}, {86399, 1000}};
    static const struct timespec ts[] = {
        {1700000000, 123456789}, {1700000000, 999999999}, {0, 0}, {86399, 1}};

    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1)
            pmNewZone("Asia/Kolkata");
        for (size_t i = 0; i < sizeof(tv) / sizeof(tv[0]); i++) {
            printf("stamp %ld.%06ld [", (long)tv[i].tv_sec, (long)tv[i].tv_usec);
            pmPrintStamp(stdout, &tv[i]);
            printf("]\n");
        }
        for (size_t i = 0; i < sizeof(ts) / sizeof(ts[0]); i++) {
            printf("high-res stamp %ld.%09ld [", (long)ts[i].tv_sec, ts[i].tv_nsec);
            pmPrintHighResStamp(stdout, &ts[i]);
            printf("]\n");
        }
    }
}

/* pmGetHostName's answer, this host's name shown as HOST */
static void host_name(const char *what, int ctx, int len)
{
    char buf[300], host[256];
    int sts;

    memset(buf, 'x', sizeof(buf));
    buf[sizeof(buf) - 1] = '\0';
    sts = pmGetHostName(ctx, buf, len);
    gethostname(host, sizeof(host));
    host[sizeof(host) - 1] = '\0';
    printf("host name %s, %d bytes: %d [%s]\n", what, len, sts,
           strcmp(buf, host) == 0 ? "HOST" : buf);
}

static void host_names(void)
{
    int ctx;

    host_name("without a context", 0, 64);
    pmSpecLocalPMDA("clear");
    ctx = pmNewContext(PM_CONTEXT_LOCAL, NULL);
    host_name("of a local context", ctx, 256);
    host_name("of a local context", ctx, 1);
    host_name("of a handle that is not one", ctx + 7, 64);
}

static void fstrings(void)
{
    static const char *const texts[] = {
        "one two\n", "  one\ttwo   \n\n   \nthree\n  \t  four five", "\n\nx", "x\n", "   ", "",
        "a\n  \nb"};

    for (size_t t = 0; t < sizeof(texts) / sizeof(texts[0]); t++) {
        FILE *f = tmpfile();

        if (f == NULL)
            return;
        fputs(texts[t], f);
        rewind(f);
        printf("fstring text %zu:", t);
        for (int i = 0; i < 10; i++) {
            char *s = NULL;
            long before = ftell(f);
            ssize_t n = pmfstring(f, &s);

            printf(" %ld->%zd[%s]@%ld", before, n, n > 0 ? s : "", ftell(f));
            if (n > 0)
                free(s);
            if (n < 0)
                break;
        }
        printf("\n");
        fclose(f);
    }
}

int main(void)
{
    char dir[] = "/tmp/probe_misc.XXXXXX";

    char path[128];

    /* the cache files of PMDA_CACHE_SAVE/SYNC go in $PCP_VAR_DIR/config/pmda */
    if (mkdtemp(dir) == NULL)
        return 1;
    snprintf(path, sizeof(path), "%s/config", dir);
    mkdir(path, 0700);
    snprintf(path, sizeof(path), "%s/config/pmda", dir);
    mkdir(path, 0700);
    setenv("PCP_VAR_DIR", dir, 1);
    setenv("TZ", "UTC", 1);
    setvbuf(stdout, NULL, _IONBF, 0);
    rehash();
    purge();
    stamps();
    host_names();
    fstrings();
    /* what SYNC wrote, then the directories */
    {
        snprintf(path, sizeof(path), "%s/config/pmda/29.5", dir);
        unlink(path);
        snprintf(path, sizeof(path), "%s/config/pmda/29.6", dir);
        unlink(path);
        snprintf(path, sizeof(path), "%s/config/pmda/29.8", dir);
        unlink(path);
        snprintf(path, sizeof(path), "%s/config/pmda", dir);
        rmdir(path);
        snprintf(path, sizeof(path), "%s/config", dir);
        rmdir(path);
        rmdir(dir);
    }
    return 0;
}
