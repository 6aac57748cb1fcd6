/*
 * pcp/mmv_dev.h - the on-disk layout of PCP's memory-mapped values (MMV)
 * files, as libpcp_mmv writes them and the mmv agent reads them: a header,
 * a table of contents, and sections of instance domains, instances,
 * metrics, values, strings and labels, each found by its offset from the
 * start of the file.  Installed where Debian's libpcp-mmv1-dev puts it.
 *
 * Declarations only, for programs that write or inspect such files
 * themselves.  Every field, its size and its offset are PCP 6's
 * (tests/oracle/mmv_trace_headers.sh compares them with Debian's header on
 * Linux x86-64): 64-bit fields fall on 8-byte boundaries, with explicit
 * padding fields, written as zeros, where a record needs them.  Numbers
 * are in the writer's byte order.  mmv_stats.h, whose types these use and
 * which PCP's version expects to be included first, is included here.
 */
#ifndef PCP_MMV_DEV_H
#define PCP_MMV_DEV_H

#include "mmv_stats.h"

/* Format versions: 1 the first, 2 adds the metric2 and instance2 records
 * (names as string offsets), 3 adds labels; MMV_VERSION is what a file is
 * created as unless it needs a later one. */
#define MMV_VERSION1 1
#define MMV_VERSION2 2
#define MMV_VERSION3 3
#define MMV_VERSION  1

/* The kinds of section a table-of-contents entry points at. */
typedef enum mmv_toc_type {
    MMV_TOC_INDOMS = 1,    /* mmv_disk_indom_t */
    MMV_TOC_INSTANCES = 2, /* mmv_disk_instance_t or mmv_disk_instance2_t */
    MMV_TOC_METRICS = 3,   /* mmv_disk_metric_t or mmv_disk_metric2_t */
    MMV_TOC_VALUES = 4,    /* mmv_disk_value_t */
    MMV_TOC_STRINGS = 5,   /* mmv_disk_string_t */
    MMV_TOC_LABELS = 6,    /* mmv_disk_label_t */
} mmv_toc_type_t;

/* A table-of-contents entry: kind, number of records, section offset. */
typedef struct mmv_disk_toc {
    mmv_toc_type_t type;
    __int32_t count;
    __uint64_t offset;
} mmv_disk_toc_t;

/* An instance domain: serial, its instance count, the offset of its first
 * instance, and the offsets of its help texts (0 for none). */
typedef struct mmv_disk_indom {
    __uint32_t serial;
    __uint32_t count;
    __uint64_t offset;
    __uint64_t shorttext;
    __uint64_t helptext;
} mmv_disk_indom_t;

/* An instance: the offset of its domain's record, then its number and its
 * name inline (version 1) or as a string's offset (version 2 on). */
typedef struct mmv_disk_instance {
    __uint64_t indom;
    __uint32_t padding;
    __int32_t internal;
    char external[MMV_NAMEMAX];
} mmv_disk_instance_t;

typedef struct mmv_disk_instance2 {
    __uint64_t indom;
    __uint32_t padding;
    __int32_t internal;
    __uint64_t external;
} mmv_disk_instance2_t;

/* A string section record: one NUL-terminated string, fixed size. */
typedef struct mmv_disk_string {
    char payload[MMV_STRINGMAX];
} mmv_disk_string_t;

/* A label record: as mmv_label_t. */
typedef struct mmv_disk_label {
    __uint32_t flags;
    __uint32_t identity;
    __int32_t internal;
    char payload[MMV_LABELMAX];
} mmv_disk_label_t;

/* A metric: its name inline (version 1) or as a string's offset
 * (version 2 on), item, type, semantics, units, instance domain serial
 * (-1 for none), and the offsets of its help texts. */
typedef struct mmv_disk_metric {
    char name[MMV_NAMEMAX];
    __uint32_t item;
    mmv_metric_type_t type;
    mmv_metric_sem_t semantics;
    pmUnits dimension;
    __int32_t indom;
    __uint32_t padding;
    __uint64_t shorttext;
    __uint64_t helptext;
} mmv_disk_metric_t;

typedef struct mmv_disk_metric2 {
    __uint64_t name;
    __uint32_t item;
    mmv_metric_type_t type;
    mmv_metric_sem_t semantics;
    pmUnits dimension;
    __int32_t indom;
    __uint32_t padding;
    __uint64_t shorttext;
    __uint64_t helptext;
} mmv_disk_metric2_t;

/* A value: the value itself, an extra word (the start time of an elapsed
 * value, the offset of a string value's text), and the offsets of its
 * metric and instance records. */
typedef struct mmv_disk_value {
    pmAtomValue value;
    __int64_t extra;
    __uint64_t metric;
    __uint64_t instance;
} mmv_disk_value_t;

/* The file's header: "MMV\0", the version, two generation numbers (equal
 * once the file is complete: a reader refuses it while they differ), the
 * number of table-of-contents entries after it, the flags, the writer's
 * process id (with MMV_FLAG_PROCESS) and the cluster the agent should
 * give its metrics. */
typedef struct mmv_disk_header {
    char magic[4];
    __int32_t version;
    __uint64_t g1;
    __uint64_t g2;
    __int32_t tocs;
    mmv_stats_flags_t flags;
    __int32_t process;
    __int32_t cluster;
} mmv_disk_header_t;

#endif /* PCP_MMV_DEV_H */
