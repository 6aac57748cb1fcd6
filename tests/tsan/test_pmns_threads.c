/*
 * test_pmns_threads.c - name lookups from several threads while another
 * thread unloads and reloads the namespace (alternating between two files
 * that give the same names different PMIDs).  Built and run under
 * ThreadSanitizer: any data race, use after free or wrong answer fails.
 *
 * Readers check every answer against both namespaces: a lookup sees one
 * whole namespace or none (PM_ERR_NOPMNS), never a mixture or freed memory.
 */
#include <pcp/pmapi.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define READERS 4
#define NAMES   64

static char files[2][64];
static atomic_int stop;
static atomic_long answers, misses, wrong;

/* Namespace k: root { m0 .. m63 } with mI = k+1 : 0 : I */
static void write_ns(int k)
{
    FILE *fp;

    snprintf(files[k], sizeof(files[k]), "/tmp/pmkit_tsan_ns%d.%d", k, (int)getpid());
    if ((fp = fopen(files[k], "w")) == NULL)
        exit(2);
    fprintf(fp, "root {\n");
    for (int i = 0; i < NAMES; i++)
        fprintf(fp, "    m%d %d:0:%d\n", i, k + 1, i);
    fprintf(fp, "    sub\n}\nsub {\n    leaf %d:1:0\n}\n", k + 1);
    fclose(fp);
}

static void count_leaf(const char *name, void *closure)
{
    (void)name;
    ++*(int *)closure;
}

static void *reader(void *arg)
{
    unsigned seed = (unsigned)(uintptr_t)arg;

    while (!atomic_load(&stop)) {
        char name[16], **kids, *back;
        const char *np = name;
        int i = (int)(rand_r(&seed) % NAMES), n = 0, sts;
        pmID pmid;

        snprintf(name, sizeof(name), "m%d", i);
        sts = pmLookupName(1, &np, &pmid);
        if (sts == PM_ERR_NOPMNS) {
            atomic_fetch_add(&misses, 1);
            continue;
        }
        if (sts != 1 || (pmID_domain(pmid) != 1 && pmID_domain(pmid) != 2) ||
            pmID_item(pmid) != (unsigned)i)
            atomic_fetch_add(&wrong, 1);
        if ((sts = pmNameID(pmid, &back)) == 0) {
            if (strcmp(back, name) != 0)
                atomic_fetch_add(&wrong, 1);
            free(back);
        } else if (sts != PM_ERR_NOPMNS && sts != PM_ERR_PMID) {
            atomic_fetch_add(&wrong, 1); /* PM_ERR_PMID: the other namespace came in */
        }
        if ((sts = pmGetChildren("", &kids)) > 0) {
            if (sts != NAMES + 2 || strcmp(kids[0], "m0") != 0) /* + sub, event */
                atomic_fetch_add(&wrong, 1);
            free(kids);
        }
        if ((sts = pmTraversePMNS_r("sub", count_leaf, &n)) >= 0 && (sts != 1 || n != 1))
            atomic_fetch_add(&wrong, 1);
        atomic_fetch_add(&answers, 1);
    }
    return NULL;
}

int main(void)
{
    pthread_t t[READERS];
    struct timespec end, now;
    int loads = 0;

    write_ns(0);
    write_ns(1);
    if (pmLoadNameSpace(files[0]) < 0)
        return 2;
    for (int i = 0; i < READERS; i++)
        pthread_create(&t[i], NULL, reader, (void *)(uintptr_t)(i + 1));
    clock_gettime(CLOCK_MONOTONIC, &end);
    end.tv_sec += 2;
    do { /* the writer: swap namespaces as fast as it can */
        pmUnloadNameSpace();
        if (pmLoadNameSpace(files[++loads % 2]) < 0)
            atomic_fetch_add(&wrong, 1);
        nanosleep(&(struct timespec){0, 2000000}, NULL); /* let the readers in */
        clock_gettime(CLOCK_MONOTONIC, &now);
    } while (now.tv_sec < end.tv_sec || (now.tv_sec == end.tv_sec && now.tv_nsec < end.tv_nsec));
    atomic_store(&stop, 1);
    for (int i = 0; i < READERS; i++)
        pthread_join(t[i], NULL);
    pmUnloadNameSpace();
    unlink(files[0]);
    unlink(files[1]);
    printf("%d loads, %ld answers, %ld while unloaded, %ld wrong\n", loads, atomic_load(&answers),
           atomic_load(&misses), atomic_load(&wrong));
    return atomic_load(&wrong) == 0 && atomic_load(&answers) > 100 && loads > 10 ? 0 : 1;
}
