/*
 * progname.c - the program's name used in diagnostics: PCP's pmProgname
 * (<pcp/deprecated.h>), which programs may also assign themselves, set by
 * pmSetProgname and __pmSetProgname and read by pmGetProgname.
 *
 * The name is the one piece of process state here; it is set once by a
 * tool or agent at start-up, as in PCP.  pmkit keeps its own copy of the
 * name's last component (at most 255 bytes) where PCP points into the
 * caller's string.
 */
#include "support.h"

#include <string.h>

#include <pcp/deprecated.h>

/* The program's name: pmProgname is PCP's old variable (<pcp/deprecated.h>),
 * which programs may also assign themselves; pmGetProgname reads it. */
char *pmProgname = "pcp";
static char progname_buf[256];

void pmSetProgname(const char *name)
{
    const char *base;

    if (name == NULL) {
        pmProgname = "pcp";
        return;
    }
    base = strrchr(name, '/');
    base = base == NULL ? name : base + 1;
    pmkit_copy(progname_buf, (int)sizeof(progname_buf), base);
    pmProgname = progname_buf;
}

int __pmSetProgname(const char *name)
{
    pmSetProgname(name);
    return 0;
}

char *pmGetProgname(void)
{
    return pmProgname;
}
