/*
 * test_zone_threads.c - reporting zones from several threads: some convert
 * times with pmCtime and pmLocaltime while one adds zones and switches
 * between them (pmNewZone, pmUseZone, pmWhichZone).  Built and run under
 * ThreadSanitizer: a data race inside the library fails.  Every answer must
 * be the time in one of the zones in use, never a mixture (a pmLocaltime
 * whose hour and offset disagree).
 */
#include <pcp/pmapi.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CONVERTERS 3

static const char *const zones[] = {"UTC", "America/New_York", "Asia/Kolkata"};
/* 1700000000 (22:13:20 UTC) in each zone */
static const char *const ctimes[] = {"Tue Nov 14 22:13:20 2023\n", "Tue Nov 14 17:13:20 2023\n",
                                     "Wed Nov 15 03:43:20 2023\n"};
static const long offsets[] = {0, -5 * 3600, 5 * 3600 + 1800};
static atomic_int stop;
static atomic_long conversions, wrong;

static void *converter(void *arg)
{
    const time_t clock = 1700000000;
    char buf[32];
    struct tm tm;

    (void)arg;
    while (!atomic_load(&stop)) {
        int ok = 0;

        pmCtime(&clock, buf);
        for (int i = 0; i < 3; i++)
            ok |= strcmp(buf, ctimes[i]) == 0;
        pmLocaltime(&clock, &tm);
        for (int i = 0, zone = 0; i < 3; i++) { /* one of the zones, hour and offset agreeing */
            zone |= tm.tm_gmtoff == offsets[i] &&
                    tm.tm_hour * 60 + tm.tm_min == (22 * 60 + 13 + offsets[i] / 60 + 1440) % 1440;
            if (i == 2)
                ok &= zone;
        }
        if (!ok)
            atomic_fetch_add(&wrong, 1);
        atomic_fetch_add(&conversions, 1);
    }
    return NULL;
}

int main(void)
{
    pthread_t t[CONVERTERS];
    char *tz;

    unsetenv("TZ");
    if (pmNewZone(zones[0]) != 0)
        return 2;
    for (int i = 0; i < CONVERTERS; i++)
        pthread_create(&t[i], NULL, converter, NULL);
    /* switch until the converters have done a few thousand conversions */
    for (int round = 0; round < 3 || atomic_load(&conversions) < 3000; round++) {
        if (round < 2)
            pmNewZone(zones[round + 1]);
        else
            pmUseZone(round % 3);
        if (pmWhichZone(&tz) < 0 || tz == NULL)
            atomic_fetch_add(&wrong, 1);
    }
    atomic_store(&stop, 1);
    for (int i = 0; i < CONVERTERS; i++)
        pthread_join(t[i], NULL);
    printf("%ld conversions, %ld wrong\n", atomic_load(&conversions), atomic_load(&wrong));
    return atomic_load(&wrong) == 0 && atomic_load(&conversions) > 0 ? 0 : 1;
}
