/*
 * probe_serverfeatures.c - the features a server says it has (libpcp.h's
 * __pmServerHasFeature, __pmServerSetFeature, __pmServerClearFeature),
 * built against pmkit's libraries and Debian's (compare.sh wants the same
 * output): every feature and a value either side of the list asked for,
 * then each set and asked again, then each cleared and asked again.
 */
#include <pcp/pmapi.h>
#include "libpcp.h"

#include <stdio.h>

static void has_all(const char *when)
{
    printf("%-12s", when);
    for (int f = -1; f <= PM_SERVER_FEATURES + 1; f++)
        printf(" %d", __pmServerHasFeature((__pmServerFeature)f));
    putchar('\n');
}

int main(void)
{
    has_all("at start");
    for (int f = -1; f <= PM_SERVER_FEATURES + 1; f++) {
        printf("set %d -> %d\n", f, __pmServerSetFeature((__pmServerFeature)f));
        has_all("after set");
    }
    for (int f = -1; f <= PM_SERVER_FEATURES + 1; f++) {
        printf("clear %d -> %d\n", f, __pmServerClearFeature((__pmServerFeature)f));
        has_all("after clear");
    }
    printf("set again %d -> %d\n", PM_SERVER_FEATURE_DISCOVERY,
           __pmServerSetFeature(PM_SERVER_FEATURE_DISCOVERY));
    has_all("at end");
    return 0;
}
