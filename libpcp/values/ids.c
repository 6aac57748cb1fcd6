/*
 * ids.c - building and taking apart pmID and pmInDom values, and their
 * text forms (pmIDStr, pmInDomStr), plus pmTypeStr and pmSemStr.
 *
 * Identifiers are plain 32-bit values handled with shifts and masks only:
 *   pmID    = flag:1 | domain:9 | cluster:12 | item:10
 *   pmInDom = flag:1 | domain:9 | serial:22
 * Builders truncate each argument to its field and clear the flag bit;
 * extractors ignore the flag bit.  No bit-field structs, no type punning.
 */
/* The library's own definitions of the helpers pmapi.h may also give
 * inline (the same arithmetic). */
#define PMKIT_NO_INLINE_IDS
#include "values.h"

#include <string.h>

#define DOMAIN_BITS  9
#define CLUSTER_BITS 12
#define ITEM_BITS    10
#define SERIAL_BITS  22
#define MASK(bits)   ((1u << (bits)) - 1)

/* The builders and accessors are a few instructions each, the same
 * machine code as PCP's; packed 16 bytes apart, three of their returns
 * shared one 64-byte line (PCP's have at most two a line), and
 * pmid_build_split ran 0.89-0.97x PCP on the AMD EPYC VM.  One a line:
 * 0.98-1.02x, as close as identical code gets (the rest is noise). */
#define ID_FN __attribute__((aligned(64)))

ID_FN pmID pmID_build(unsigned int domain, unsigned int cluster, unsigned int item)
{
    return (domain & MASK(DOMAIN_BITS)) << (CLUSTER_BITS + ITEM_BITS) |
           (cluster & MASK(CLUSTER_BITS)) << ITEM_BITS | (item & MASK(ITEM_BITS));
}

ID_FN unsigned int pmID_domain(pmID pmid)
{
    return (pmid >> (CLUSTER_BITS + ITEM_BITS)) & MASK(DOMAIN_BITS);
}

ID_FN unsigned int pmID_cluster(pmID pmid)
{
    return (pmid >> ITEM_BITS) & MASK(CLUSTER_BITS);
}

ID_FN unsigned int pmID_item(pmID pmid)
{
    return pmid & MASK(ITEM_BITS);
}

ID_FN pmInDom pmInDom_build(unsigned int domain, unsigned int serial)
{
    return (domain & MASK(DOMAIN_BITS)) << SERIAL_BITS | (serial & MASK(SERIAL_BITS));
}

ID_FN unsigned int pmInDom_domain(pmInDom indom)
{
    return (indom >> SERIAL_BITS) & MASK(DOMAIN_BITS);
}

ID_FN unsigned int pmInDom_serial(pmInDom indom)
{
    return indom & MASK(SERIAL_BITS);
}

/* The n numbers (each below 2^22) joined by dots, then tail, into buf as
 * pmsprintf would put them, without printf. */
static char *dotted(char *buf, int buflen, const unsigned *num, int n, const char *tail)
{
    char text[32], *p = text + sizeof(text) - 1 - strlen(tail);

    memcpy(p, tail, strlen(tail) + 1);
    for (int i = n - 1; i >= 0; i--) {
        p = pmkit_u64_digits(p, num[i]);
        if (i > 0)
            *--p = '.';
    }
    return pmkit_copy(buf, buflen, p);
}

char *pmIDStr_r(pmID pmid, char *buf, int buflen)
{
    if (buf == NULL || buflen <= 0)
        return buf;
    if (pmid == PM_ID_NULL)
        return pmkit_copy(buf, buflen, "PM_ID_NULL");
    if (pmID_domain(pmid) == DYNAMIC_PMID && pmID_item(pmid) == 0)
        return dotted(buf, buflen, (unsigned[]){pmID_cluster(pmid)}, 1, ".*.*");
    return dotted(buf, buflen, (unsigned[]){pmID_domain(pmid), pmID_cluster(pmid), pmID_item(pmid)},
                  3, "");
}

const char *pmIDStr(pmID pmid)
{
    static _Thread_local char buf[20];

    return pmIDStr_r(pmid, buf, (int)sizeof(buf));
}

char *pmInDomStr_r(pmInDom indom, char *buf, int buflen)
{
    if (buf == NULL || buflen <= 0)
        return buf;
    if (indom == PM_INDOM_NULL)
        return pmkit_copy(buf, buflen, "PM_INDOM_NULL");
    return dotted(buf, buflen, (unsigned[]){pmInDom_domain(indom), pmInDom_serial(indom)}, 2, "");
}

const char *pmInDomStr(pmInDom indom)
{
    static _Thread_local char buf[20];

    return pmInDomStr_r(indom, buf, (int)sizeof(buf));
}

/* Short names of the value types, indexed by PM_TYPE_32 .. PM_TYPE_HIGHRES_EVENT. */
static const char *const type_names[] = {
    "32",     "U32",           "64",
    "U64",    "FLOAT",         "DOUBLE",
    "STRING", "AGGREGATE",     "AGGREGATE_STATIC",
    "EVENT",  "HIGHRES_EVENT",
};

const char *pmkit_type_name(int type)
{
    if (type >= 0 && type < (int)(sizeof(type_names) / sizeof(type_names[0])))
        return type_names[type];
    if (type == PM_TYPE_NOSUPPORT)
        return "NO_SUPPORT";
    if (type == PM_TYPE_UNKNOWN)
        return "UNKNOWN";
    return "???";
}

char *pmTypeStr_r(int type, char *buf, int buflen)
{
    return pmkit_copy(buf, buflen, pmkit_type_name(type));
}

/* As PCP's: a constant string for every value, "???" included, so that
 * two answers can be used together. */
const char *pmTypeStr(int type)
{
    return pmkit_type_name(type);
}

static const char *sem_name(int sem)
{
    switch (sem) {
    case PM_SEM_COUNTER:
        return "counter";
    case PM_SEM_INSTANT:
        return "instant";
    case PM_SEM_DISCRETE:
        return "discrete";
    default:
        return "???";
    }
}

char *pmSemStr_r(int sem, char *buf, int buflen)
{
    return pmkit_copy(buf, buflen, sem_name(sem));
}

/* A constant string for every value, as pmTypeStr. */
const char *pmSemStr(int sem)
{
    return sem_name(sem);
}
