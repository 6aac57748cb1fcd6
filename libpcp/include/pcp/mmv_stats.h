/*
 * pcp/mmv_stats.h - the instrumentation interface of PCP's libpcp_mmv: the
 * types a program uses to describe the metrics and instance domains it
 * exports through a memory-mapped values (MMV) file, and the calls of the
 * library that creates and updates such a file.  Installed where Debian's
 * libpcp-mmv1-dev puts it.
 *
 * pmkit does not build libpcp_mmv: a program calling these functions
 * compiles against this header and then needs PCP's library to link, as it
 * does under PCP.  Programs that only read or write MMV files themselves
 * (with <pcp/mmv_dev.h>'s on-disk layout) need nothing but libpcp.  Names,
 * prototypes, enumerators and struct layouts are PCP 6's, checked against
 * Debian's header by tests/oracle/mmv_trace_headers.sh.  pmapi.h, which
 * PCP's version expects to be included first, is included here.
 */
#ifndef PCP_MMV_STATS_H
#define PCP_MMV_STATS_H

#include "pmapi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Sizes of the fixed-length text fields, terminating NUL included. */
#define MMV_NAMEMAX   64  /* metric and instance names */
#define MMV_LABELMAX  244 /* a label's JSON text */
#define MMV_STRINGMAX 256 /* a string value or help text */

/* Value types: PMAPI's, plus an elapsed-time counter of MMV's own. */
typedef enum mmv_metric_type {
    MMV_TYPE_NOSUPPORT = PM_TYPE_NOSUPPORT,
    MMV_TYPE_I32 = PM_TYPE_32,
    MMV_TYPE_U32 = PM_TYPE_U32,
    MMV_TYPE_I64 = PM_TYPE_64,
    MMV_TYPE_U64 = PM_TYPE_U64,
    MMV_TYPE_FLOAT = PM_TYPE_FLOAT,
    MMV_TYPE_DOUBLE = PM_TYPE_DOUBLE,
    MMV_TYPE_STRING = PM_TYPE_STRING,
    MMV_TYPE_ELAPSED = 9, /* 64-bit time accumulated between two calls */
} mmv_metric_type_t;

/* Semantics, PMAPI's values. */
typedef enum mmv_metric_sem {
    MMV_SEM_COUNTER = PM_SEM_COUNTER,
    MMV_SEM_INSTANT = PM_SEM_INSTANT,
    MMV_SEM_DISCRETE = PM_SEM_DISCRETE,
} mmv_metric_sem_t;

/* A metric without instances names this instance domain serial. */
enum { MMV_INDOM_NULL = PM_INDOM_NULL };

/* An instance, its name held inline (version 1 files)... */
typedef struct mmv_instances {
    __int32_t internal;
    char external[MMV_NAMEMAX];
} mmv_instances_t;

/* ... or by pointer, any length (version 2 and later). */
typedef struct mmv_instances2 {
    __int32_t internal;
    const char *external;
} mmv_instances2_t;

/* An instance domain: its serial, its instances and its help texts. */
typedef struct mmv_indom {
    __uint32_t serial;
    __uint32_t count;
    mmv_instances_t *instances;
    char *shorttext;
    char *helptext;
} mmv_indom_t;

typedef struct mmv_indom2 {
    __uint32_t serial;
    __uint32_t count;
    mmv_instances2_t *instances;
    char *shorttext;
    char *helptext;
} mmv_indom2_t;

/* A metric: name, item number, type, semantics, units, the serial of its
 * instance domain (MMV_INDOM_NULL for none) and its help texts. */
typedef struct mmv_metric {
    char name[MMV_NAMEMAX];
    __uint32_t item;
    mmv_metric_type_t type;
    mmv_metric_sem_t semantics;
    pmUnits dimension;
    __uint32_t indom;
    char *shorttext;
    char *helptext;
} mmv_metric_t;

typedef struct mmv_metric2 {
    char *name;
    __uint32_t item;
    mmv_metric_type_t type;
    mmv_metric_sem_t semantics;
    pmUnits dimension;
    __uint32_t indom;
    char *shorttext;
    char *helptext;
} mmv_metric2_t;

/* A label (version 3): PM_LABEL_* flags, the identifier of what it labels
 * (instance domain, cluster or item), the instance or PM_IN_NULL, and the
 * JSON name:value text. */
typedef struct mmv_label {
    __uint32_t flags;
    __uint32_t identity;
    __int32_t internal;
    char payload[MMV_LABELMAX];
} mmv_label_t;

/* The flags of a registry and of a file's header. */
typedef enum mmv_stats_flags {
    MMV_FLAG_NOPREFIX = 0x1, /* metric names not prefixed with the file's name */
    MMV_FLAG_PROCESS = 0x2,  /* values live only while the writing process does */
    MMV_FLAG_SENTINEL = 0x4, /* sentinel values stand for "no value" */
} mmv_stats_flags_t;

/* The JSON type of a label's value. */
typedef enum mmv_value_type {
    MMV_STRING_TYPE = 0x1,
    MMV_NUMBER_TYPE = 0x2,
    MMV_BOOLEAN_TYPE = 0x3,
    MMV_NULL_TYPE = 0x4,
    MMV_ARRAY_TYPE = 0x5,
    MMV_MAP_TYPE = 0x6,
} mmv_value_type_t;

/* A pmUnits initialiser from its dimensions and scales, in PMDA_PMUNITS'
 * argument order, whatever order the bit-fields are allocated in. */
#ifdef PMKIT_BITFIELDS_HIGH_FIRST
#define MMV_UNITS(a, b, c, d, e, f)                                                                \
    {                                                                                              \
        a, b, c, d, e, f, 0                                                                        \
    }
#else
#define MMV_UNITS(a, b, c, d, e, f)                                                                \
    {                                                                                              \
        0, f, e, d, c, b, a                                                                        \
    }
#endif

/* The registry a file is described in before it is created; opaque. */
struct mmv_registry;
typedef struct mmv_registry mmv_registry_t;

/* Describing: a registry for a file name, cluster and flags, then its
 * instance domains, metrics, instances and labels. */
extern mmv_registry_t *mmv_stats_registry(const char *, int, mmv_stats_flags_t);
extern int mmv_stats_add_indom(mmv_registry_t *, int, const char *, const char *);
extern int mmv_stats_add_metric(mmv_registry_t *, const char *, int, mmv_metric_type_t,
                                mmv_metric_sem_t, pmUnits, int, const char *, const char *);
extern int mmv_stats_add_instance(mmv_registry_t *, int, int, const char *);
extern int mmv_stats_add_registry_label(mmv_registry_t *, const char *, const char *,
                                        mmv_value_type_t, int);
extern int mmv_stats_add_indom_label(mmv_registry_t *, int, const char *, const char *,
                                     mmv_value_type_t, int);
extern int mmv_stats_add_metric_label(mmv_registry_t *, int, const char *, const char *,
                                      mmv_value_type_t, int);
extern int mmv_stats_add_instance_label(mmv_registry_t *, int, int, const char *, const char *,
                                        mmv_value_type_t, int);

/* Creating the file (the address of its mapping) and letting it go. */
extern void *mmv_stats_start(mmv_registry_t *);
extern void mmv_stats_free(mmv_registry_t *);

/* A value's slot in the mapping, by metric and instance name. */
extern pmAtomValue *mmv_lookup_value_desc(void *, const char *, const char *);

/* Updating a value through its slot: the fast way. */
extern void mmv_inc(void *, pmAtomValue *);
extern void mmv_add(void *, pmAtomValue *, void *);
extern void mmv_inc_atomvalue(void *, pmAtomValue *, pmAtomValue *);
extern void mmv_inc_value(void *, pmAtomValue *, double);
extern void mmv_set(void *, pmAtomValue *, void *);
extern void mmv_set_atomvalue(void *, pmAtomValue *, pmAtomValue *);
extern void mmv_set_value(void *, pmAtomValue *, double);
extern void mmv_set_string(void *, pmAtomValue *, const char *, int);

/* Updating a value by metric and instance name: a lookup each call. */
extern void mmv_stats_add(void *, const char *, const char *, double);
extern void mmv_stats_inc(void *, const char *, const char *);
extern void mmv_stats_set(void *, const char *, const char *, double);
extern void mmv_stats_add_fallback(void *, const char *, const char *, const char *, double);
extern void mmv_stats_inc_fallback(void *, const char *, const char *, const char *);
extern pmAtomValue *mmv_stats_interval_start(void *, pmAtomValue *, const char *, const char *);
extern void mmv_stats_interval_end(void *, pmAtomValue *);
extern void mmv_stats_set_string(void *, const char *, const char *, const char *);
extern void mmv_stats_set_strlen(void *, const char *, const char *, const char *, size_t);

/* The older interface: a file made in one call from arrays of metrics and
 * instance domains, and unmapped by name. */
extern void *mmv_stats_init(const char *, int, mmv_stats_flags_t, const mmv_metric_t *, int,
                            const mmv_indom_t *, int);
extern void *mmv_stats2_init(const char *, int, mmv_stats_flags_t, const mmv_metric2_t *, int,
                             const mmv_indom2_t *, int);
extern void mmv_stats_stop(const char *, void *);

#ifdef __cplusplus
}
#endif

#endif /* PCP_MMV_STATS_H */
