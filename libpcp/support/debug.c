/*
 * debug.c - PCP's debug options: pmDebugOptions (one int per option, as
 * agents test them) set by name with pmSetDebug / pmClearDebug, and the
 * older bit mask pmDebug (<pcp/deprecated.h>) with __pmParseDebug,
 * __pmSetDebugBits and __pmDumpDebug, as Debian's libpcp keeps them.
 *
 * A specification is a comma-separated list of option names (any case),
 * "all", or decimal numbers (a bit mask; -1 is every bit of the 31).  It is
 * checked whole before anything changes: an unknown name, a number with
 * other characters after it or an empty item (a comma at the end is
 * allowed) fails with PM_ERR_CONV.  The first 29 options also have a bit in
 * pmDebug; setting or clearing by name, number or "all" keeps the two in
 * step, a number touching pmDebug's bits as given.  Assigning pmDebug
 * directly changes no option, as in PCP.
 *
 * pmkit itself prints no debug traces yet; the flags exist so agents and
 * tools that consult them behave as under PCP.
 */
#include "support.h"

#include <ctype.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <pcp/deprecated.h>
#include <pcp/libpcp.h>

pmdebugoptions_t pmDebugOptions;
int pmDebug;

/* Options in PCP's order, with the pmDebug bit of the old ones (0: none). */
#define OPT(name, bit)                                                                             \
    {                                                                                              \
#name, offsetof(pmdebugoptions_t, name), bit                                               \
    }
static const struct {
    const char *name;
    size_t offset;
    int bit;
} options[] = {
    OPT(pdu, DBG_TRACE_PDU),
    OPT(fetch, DBG_TRACE_FETCH),
    OPT(profile, DBG_TRACE_PROFILE),
    OPT(value, DBG_TRACE_VALUE),
    OPT(context, DBG_TRACE_CONTEXT),
    OPT(indom, DBG_TRACE_INDOM),
    OPT(pdubuf, DBG_TRACE_PDUBUF),
    OPT(log, DBG_TRACE_LOG),
    OPT(logmeta, DBG_TRACE_LOGMETA),
    OPT(optfetch, DBG_TRACE_OPTFETCH),
    OPT(af, DBG_TRACE_AF),
    OPT(appl0, DBG_TRACE_APPL0),
    OPT(appl1, DBG_TRACE_APPL1),
    OPT(appl2, DBG_TRACE_APPL2),
    OPT(pmns, DBG_TRACE_PMNS),
    OPT(libpmda, DBG_TRACE_LIBPMDA),
    OPT(timecontrol, DBG_TRACE_TIMECONTROL),
    OPT(pmc, DBG_TRACE_PMC),
    OPT(derive, DBG_TRACE_DERIVE),
    OPT(lock, DBG_TRACE_LOCK),
    OPT(interp, DBG_TRACE_INTERP),
    OPT(config, DBG_TRACE_CONFIG),
    OPT(pmapi, DBG_TRACE_PMAPI),
    OPT(fault, DBG_TRACE_FAULT),
    OPT(auth, DBG_TRACE_AUTH),
    OPT(discovery, DBG_TRACE_DISCOVERY),
    OPT(attr, DBG_TRACE_ATTR),
    OPT(http, DBG_TRACE_HTTP),
    OPT(desperate, DBG_TRACE_DESPERATE),
    OPT(deprecated, 0),
    OPT(exec, 0),
    OPT(labels, 0),
    OPT(series, 0),
    OPT(libweb, 0),
    OPT(alloc, 0),
    OPT(services, 0),
    OPT(appl3, 0),
    OPT(appl4, 0),
    OPT(appl5, 0),
    OPT(access, 0),
    OPT(qa, 0),
    OPT(search, 0),
    OPT(query, 0),
    OPT(compress, 0),
    OPT(dev0, 0),
    OPT(dev1, 0),
    OPT(dev2, 0),
    OPT(pmlc, 0),
    OPT(appl6, 0),
    OPT(appl7, 0),
    OPT(appl8, 0),
    OPT(appl9, 0),
    OPT(tls, 0),
};
#undef OPT
#define NOPTIONS (sizeof(options) / sizeof(options[0]))

static int *flag(size_t i)
{
    return (int *)((char *)&pmDebugOptions + options[i].offset);
}

/* The option named by the n bytes at p (any case), or -1. */
static int lookup(const char *p, size_t n)
{
    for (size_t i = 0; i < NOPTIONS; i++) {
        if (strlen(options[i].name) == n && strncasecmp(p, options[i].name, n) == 0)
            return (int)i;
    }
    return -1;
}

/* One item of a specification: every option ("all"), one option, or a
 * bit mask.  Returns false when the item is none of these. */
typedef struct {
    bool all;
    int option; /* or -1 */
    int mask;   /* a number's bits */
} item;

static bool parse_item(const char *p, size_t n, item *it)
{
    char buf[32], *end;
    long v;

    it->all = false;
    it->option = -1;
    it->mask = 0;
    if (n == 0)
        return false;
    if (n == 3 && strncasecmp(p, "all", 3) == 0) {
        it->all = true;
        return true;
    }
    if ((it->option = lookup(p, n)) >= 0)
        return true;
    if (n >= sizeof(buf))
        return false;
    memcpy(buf, p, n);
    buf[n] = '\0';
    errno = 0;
    v = strtol(buf, &end, 10);
    if (end == buf || *end != '\0' || isspace((unsigned char)buf[0]) || errno != 0 || v < INT_MIN ||
        v > INT_MAX)
        return false;
    it->mask = v == -1 ? INT_MAX : (int)v;
    return true;
}

/* Walk spec's items, checking them all (apply false) or applying each
 * (value 1 sets, 0 clears); 0 with *bitsp the bits the items name, or
 * PM_ERR_CONV. */
static int walk(const char *spec, bool apply, int value, int *bitsp)
{
    const char *p = spec;
    int bits = 0;

    if (spec == NULL)
        return PM_ERR_CONV;
    while (*p != '\0') {
        size_t n = strcspn(p, ",");
        item it;
        if (!parse_item(p, n, &it))
            return PM_ERR_CONV;
        if (it.all) {
            bits |= INT_MAX;
            for (size_t i = 0; apply && i < NOPTIONS; i++)
                *flag(i) = value;
            if (apply)
                pmDebug = value ? (pmDebug | INT_MAX) : (pmDebug & ~INT_MAX);
        } else if (it.option >= 0) {
            bits |= options[it.option].bit;
            if (apply) {
                *flag((size_t)it.option) = value;
                pmDebug = value ? (pmDebug | options[it.option].bit)
                                : (pmDebug & ~options[it.option].bit);
            }
        } else {
            bits |= it.mask;
            for (size_t i = 0; apply && i < NOPTIONS; i++) {
                if (options[i].bit & it.mask)
                    *flag(i) = value;
            }
            if (apply)
                pmDebug = value ? (pmDebug | it.mask) : (pmDebug & ~it.mask);
        }
        p += n;
        if (*p == ',')
            p++;
    }
    *bitsp = bits;
    return 0;
}

static int set_or_clear(const char *spec, int value)
{
    int bits;

    if (walk(spec, false, value, &bits) < 0)
        return PM_ERR_CONV;
    return walk(spec, true, value, &bits);
}

int pmSetDebug(const char *spec)
{
    return set_or_clear(spec, 1);
}

int pmClearDebug(const char *spec)
{
    return set_or_clear(spec, 0);
}

int __pmParseDebug(const char *spec)
{
    int bits;

    if (pmDebugOptions.deprecated)
        fprintf(stderr, "Warning: deprecated __pmParseDebug() called\n");
    if (walk(spec, false, 1, &bits) < 0)
        return PM_ERR_CONV;
    walk(spec, true, 1, &bits);
    return bits;
}

void __pmSetDebugBits(int bits)
{
    if (pmDebugOptions.deprecated)
        fprintf(stderr, "Warning: deprecated __pmSetDebugBits() called\n");
    for (size_t i = 0; i < NOPTIONS; i++) {
        if (options[i].bit & bits) {
            *flag(i) = 1;
            pmDebug |= options[i].bit;
        }
    }
}

/* "name,name,..." of the options for which pick says yes, or "Nothing set". */
static void dump_line(FILE *f, const char *label, bool (*pick)(size_t))
{
    bool any = false;

    fprintf(f, "%s:\t", label);
    for (size_t i = 0; i < NOPTIONS; i++) {
        if (pick(i)) {
            fprintf(f, "%s%s", any ? "," : "", options[i].name);
            any = true;
        }
    }
    fprintf(f, "%s\n", any ? "" : "Nothing set");
}

static bool in_bits(size_t i)
{
    return (options[i].bit & pmDebug) != 0;
}

static bool in_options(size_t i)
{
    return *flag(i) != 0;
}

void __pmDumpDebug(FILE *f)
{
    dump_line(f, "pmDebug", in_bits);
    dump_line(f, "pmDebugOptions", in_options);
}
