/*
 * pcp_environ.h - for tests and fuzz targets of pmGetOptions, which reads
 * every $PCP_* variable: unset_pcp_environ() takes the caller's out of
 * the environment.  (Included by tests/fuzz/fuzz_getopt.c and
 * tests/unit/test_options.c.)
 */
#ifndef PMKIT_TEST_PCP_ENVIRON_H
#define PMKIT_TEST_PCP_ENVIRON_H

#include <stdlib.h>
#include <string.h>

extern char **environ;

static inline void unset_pcp_environ(void)
{
    char name[256];

    for (int i = 0; environ[i] != NULL;) {
        size_t n = strcspn(environ[i], "=");
        if (strncmp(environ[i], "PCP_", 4) == 0 && n < sizeof(name)) {
            memcpy(name, environ[i], n);
            name[n] = '\0';
            unsetenv(name); /* environ[i] is now the next one */
        } else {
            i++;
        }
    }
}

#endif
