/*
 * test_event_threads.c - four threads build event arrays at once, each
 * making, filling, reading back and releasing arrays of its own over and
 * over, so that handles are taken and given back while the others grow
 * their arrays (the table of arrays moves when it grows).  Every array
 * must hold exactly what its thread put in.  With the table's lock taken
 * out, ThreadSanitizer reports the race, and arrays get the wrong handle
 * or content.
 */
#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 4
#define ROUNDS  2000
#define RECORDS 5

static void *builder(void *arg)
{
    long me = (long)(intptr_t)arg;

    for (int round = 0; round < ROUNDS; round++) {
        int highres = round % 2, idx = highres ? pmdaEventNewHighResArray() : pmdaEventNewArray();
        const unsigned char *p;
        uint32_t want = (uint32_t)(me * 1000000 + round), word;
        if (idx < 0)
            return (void *)1;
        for (int r = 0; r < RECORDS; r++) {
            struct timeval tv = {me, r};
            struct timespec ts = {me, r};
            pmAtomValue v = {.ul = want};
            int sts =
                highres ? pmdaEventAddHighResRecord(idx, &ts, 0) : pmdaEventAddRecord(idx, &tv, 0);
            if (sts < 0 || (highres ? pmdaEventAddHighResParam(idx, 1, PM_TYPE_U32, &v)
                                    : pmdaEventAddParam(idx, 1, PM_TYPE_U32, &v)) < 0)
                return (void *)2;
        }
        p = highres ? (const unsigned char *)pmdaEventGetHighResAddr(idx)
                    : (const unsigned char *)pmdaEventGetAddr(idx);
        if (p == NULL)
            return (void *)3;
        memcpy(&word, p + 4, 4);
        if (word != RECORDS)
            return (void *)4;
        /* the last record's parameter value: the array's last word */
        memcpy(&word, p + (highres ? 8 + RECORDS * 36 : 8 + RECORDS * 28) - 4, 4);
        if (word != want)
            return (void *)5;
        if ((highres ? pmdaEventReleaseHighResArray(idx) : pmdaEventReleaseArray(idx)) < 0)
            return (void *)6;
    }
    return NULL;
}

int main(void)
{
    pthread_t t[THREADS];
    int bad = 0;

    for (long i = 0; i < THREADS; i++)
        if (pthread_create(&t[i], NULL, builder, (void *)(intptr_t)(i + 1)) != 0)
            return 2;
    for (int i = 0; i < THREADS; i++) {
        void *ret;
        pthread_join(t[i], &ret);
        if (ret != NULL) {
            fprintf(stderr, "thread %d: failure %ld\n", i, (long)(intptr_t)ret);
            bad = 1;
        }
    }
    printf("%d threads, %d arrays each: %s\n", THREADS, ROUNDS, bad ? "FAIL" : "ok");
    return bad;
}
