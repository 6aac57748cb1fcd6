/*
 * debug.c - PCP's debug options: pmDebugOptions (one int per option, as
 * agents test them) set by name with pmSetDebug / pmClearDebug.
 *
 * A specification is a comma-separated list of option names, "all", or a
 * number (the historic bitmap, accepted and ignored).  An unknown name
 * makes the call return -1 after the known ones are applied; tools then
 * report "unrecognized debug options specification", as PCP's do.
 * pmkit itself prints no debug traces yet; the flags exist so agents and
 * tools that consult them behave as under PCP.
 */
#include "support.h"

#include <ctype.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

pmdebugoptions_t pmDebugOptions;

#define OPT(name)                                                                                  \
    {                                                                                              \
#name, offsetof(pmdebugoptions_t, name)                                                    \
    }
static const struct {
    const char *name;
    size_t offset;
} options[] = {
    OPT(pdu),    OPT(fetch),     OPT(profile), OPT(value),    OPT(context),     OPT(indom),
    OPT(pdubuf), OPT(log),       OPT(logmeta), OPT(optfetch), OPT(af),          OPT(appl0),
    OPT(appl1),  OPT(appl2),     OPT(pmns),    OPT(libpmda),  OPT(timecontrol), OPT(pmc),
    OPT(derive), OPT(lock),      OPT(interp),  OPT(config),   OPT(pmapi),       OPT(fault),
    OPT(auth),   OPT(discovery), OPT(attr),    OPT(http),     OPT(desperate),   OPT(deprecated),
    OPT(exec),   OPT(labels),    OPT(series),  OPT(libweb),   OPT(alloc),       OPT(services),
    OPT(appl3),  OPT(appl4),     OPT(appl5),   OPT(access),   OPT(qa),          OPT(search),
    OPT(query),  OPT(compress),  OPT(dev0),    OPT(dev1),     OPT(dev2),        OPT(pmlc),
    OPT(appl6),  OPT(appl7),     OPT(appl8),   OPT(appl9),    OPT(tls),
};
#undef OPT

static int *flag(size_t i)
{
    return (int *)((char *)&pmDebugOptions + options[i].offset);
}

/* Set (value 1) or clear (0) every option named in spec; -1 if any name is
 * unknown. */
static int apply(const char *spec, int value)
{
    const char *p = spec;
    int sts = 0;

    if (spec == NULL)
        return -1;
    while (*p != '\0') {
        size_t n = strcspn(p, ",");
        bool known = false;
        if (n == 3 && strncmp(p, "all", 3) == 0) {
            for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++)
                *flag(i) = value;
            known = true;
        } else if (n > 0 && isdigit((unsigned char)p[0])) {
            known = strspn(p, "0123456789") >= n; /* the historic bitmap: accepted */
        }
        for (size_t i = 0; !known && i < sizeof(options) / sizeof(options[0]); i++) {
            if (strlen(options[i].name) == n && strncmp(p, options[i].name, n) == 0) {
                *flag(i) = value;
                known = true;
            }
        }
        if (!known)
            sts = -1;
        p += n;
        if (*p == ',')
            p++;
    }
    return sts;
}

int pmSetDebug(const char *spec)
{
    return apply(spec, 1);
}

int pmClearDebug(const char *spec)
{
    return apply(spec, 0);
}
