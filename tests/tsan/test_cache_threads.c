/*
 * test_cache_threads.c - pmdaInstance asked for instance names by id
 * while an agent thread culls and re-adds the entries of the same cached
 * instance domain, and renames them.  Every answer must be a whole name
 * of one of the instance's two forms, or PM_ERR_INST (culled at that
 * moment).  A name read after the cache's lock is released, while the
 * agent thread frees and reuses it, gives wrong names within the run's
 * 2 seconds (6 runs in 6 with the old code); the ThreadSanitizer build
 * may also report the race.
 */
#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* libpcp's own (PCP's libpcp.h, not a public header): frees what
 * pmdaInstance returns */
void __pmFreeInResult(pmInResult *res);

#define DOM   29
#define NINST 16

static pmInDom indom;
static int ids[NINST];
static atomic_int stop;

/* Instance i's name in its two forms. */
static void name_of(int i, int form, char *buf, size_t len)
{
    snprintf(buf, len, form ? "instance-%02d-renamed-with-a-longer-name" : "inst%02d", i);
}

/* Instance i is keyed by i, so it keeps its id when it comes back. */
static int put(int i, int flags, int form)
{
    char name[64];

    name_of(i, form, name, sizeof(name));
    return pmdaCacheStoreKey(indom, flags, name, (int)sizeof(i), &i, NULL);
}

static void *agent(void *arg)
{
    (void)arg;
    for (unsigned round = 1; !atomic_load(&stop); round++) {
        for (int i = 0; i < NINST; i++) {
            /* drop the entry, freeing its name, and add it back under
             * the other form: a new name string each time */
            if (put(i, PMDA_CACHE_CULL, (int)(round & 1) ^ 1) != ids[i] ||
                put(i, PMDA_CACHE_ADD, (int)(round & 1)) != ids[i])
                abort();
        }
    }
    return NULL;
}

int main(void)
{
    pmdaInterface dispatch;
    pmdaExt *pmda;
    pthread_t t;
    struct timespec end, now;
    long answers = 0, culled = 0, wrong = 0;

    memset(&dispatch, 0, sizeof(dispatch));
    pmdaDSO(&dispatch, PMDA_INTERFACE_7, "tsan", NULL);
    pmdaInit(&dispatch, NULL, 0, NULL, 0);
    pmda = dispatch.version.any.ext;
    indom = pmInDom_build(DOM, 1);
    for (int i = 0; i < NINST; i++)
        if ((ids[i] = put(i, PMDA_CACHE_ADD, 0)) < 0)
            return 2;
    if (pthread_create(&t, NULL, agent, NULL) != 0)
        return 2;
    clock_gettime(CLOCK_MONOTONIC, &end);
    end.tv_sec += 2;
    do {
        for (int i = 0; i < NINST; i++) {
            pmInResult *res = NULL;
            char a[64], b[64];
            int sts = pmdaInstance(indom, ids[i], NULL, &res, pmda);
            if (sts == PM_ERR_INST) {
                culled++;
                continue;
            }
            name_of(i, 0, a, sizeof(a));
            name_of(i, 1, b, sizeof(b));
            if (sts < 0 || res->numinst != 1 ||
                (strcmp(res->namelist[0], a) != 0 && strcmp(res->namelist[0], b) != 0))
                wrong++;
            else
                answers++;
            if (sts >= 0)
                __pmFreeInResult(res);
        }
        clock_gettime(CLOCK_MONOTONIC, &now);
    } while (now.tv_sec < end.tv_sec || (now.tv_sec == end.tv_sec && now.tv_nsec < end.tv_nsec));
    atomic_store(&stop, 1);
    pthread_join(t, NULL);
    printf("%ld answers, %ld culled at the time, %ld wrong\n", answers, culled, wrong);
    return wrong == 0 && answers > 0 ? 0 : 1;
}
