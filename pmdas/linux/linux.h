/*
 * linux.h - the linux agent's internal interface: the metric table
 * (metrics.c), the agent's state and refresh (linux.c) and the fetch
 * callback's value functions (values.c).
 */
#ifndef PMDA_LINUX_LINUX_H
#define PMDA_LINUX_LINUX_H

#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include <regex.h>
#include <sys/utsname.h>

#include "proc.h"

/* Instance domain serials, PCP's numbers for the linux domain. */
enum { CPU_INDOM = 0, DISK_INDOM = 1, LOADAVG_INDOM = 2, NET_INDOM = 3, N_INDOMS };

/* Where a metric's value comes from: each source is refreshed at most once per request. */
enum {
    SRC_NONE,    /* constants: kernel.all.hz, hinv.pagesize */
    SRC_STAT,    /* /proc/stat */
    SRC_MEMINFO, /* /proc/meminfo */
    SRC_LOADAVG, /* /proc/loadavg */
    SRC_UPTIME,  /* /proc/uptime */
    SRC_DISK,    /* /proc/diskstats (or /proc/partitions) */
    SRC_NET,     /* /proc/net/dev */
    SRC_UNAME,   /* uname(2) */
    N_SOURCES
};

/* What a metric is (its "kind"; ARG refines it); each kind has one source. */
enum {
    K_CONST,      /* ARG: C_HZ or C_PAGESIZE */
    K_CPU_ALL,    /* ARG: a CF_* field of the "cpu" line */
    K_CPU_PER,    /* ARG: a CF_* field of a "cpuN" line */
    K_STAT,       /* ARG: an ST_* counter */
    K_MEM,        /* ARG: an MI_* meminfo line, reported as is */
    K_MEM_CALC,   /* ARG: an MC_* value computed from meminfo */
    K_LOAD,       /* kernel.all.load */
    K_LOADINT,    /* ARG: LA_* */
    K_UPTIME,     /* ARG: 0 uptime, 1 idle time */
    K_DISK_DEV,   /* ARG: a DF_* field of one disk */
    K_DISK_ALL,   /* ARG: a DF_* field summed over the disks */
    K_NDISK,      /* hinv.ndisk */
    K_NET_IF,     /* ARG: an NF_* field of one interface */
    K_NET_ALL,    /* ARG: an NF_* field summed over the interfaces network.all covers */
    K_NINTERFACE, /* hinv.ninterface */
    K_UNAME       /* ARG: a UN_* field */
};

enum { C_HZ, C_PAGESIZE };
/* The CPU_* columns, then the three derived values. */
enum { CF_INTR = CPU_NCOLUMNS, CF_VUSER, CF_VNICE };
enum { ST_INTR, ST_CTXT, ST_PROCESSES, ST_RUNNING, ST_BLOCKED, ST_BTIME, ST_NCPU };
enum {
    MC_USED,
    MC_OTHER,
    MC_CACHE_CLEAN,
    MC_PHYSMEM_MB,
    MC_HUGE_TOTAL_BYTES,
    MC_HUGE_FREE_BYTES,
    MC_HUGE_RSVD_BYTES,
    MC_HUGE_SURP_BYTES,
    MC_HUGEPAGESIZE
};
enum { LA_LASTPID, LA_RUNNABLE, LA_NPROCS };
enum {
    DF_READ,
    DF_WRITE,
    DF_TOTAL,
    DF_BLKREAD,
    DF_BLKWRITE,
    DF_BLKTOTAL,
    DF_READ_BYTES,
    DF_WRITE_BYTES,
    DF_TOTAL_BYTES,
    DF_READ_MERGE,
    DF_WRITE_MERGE,
    DF_AVACTIVE,
    DF_READ_RAWACTIVE,
    DF_WRITE_RAWACTIVE,
    DF_TOTAL_RAWACTIVE,
    DF_AVEQ,
    DF_DISCARD,
    DF_BLKDISCARD,
    DF_DISCARD_BYTES,
    DF_DISCARD_MERGE,
    DF_DISCARD_RAWACTIVE,
    DF_FLUSH,
    DF_FLUSH_RAWACTIVE,
    DF_INFLIGHT,
    N_DF
};
/* The ND_* columns, then the per-interface sums of receive and transmit. */
enum {
    NF_TOTAL_BYTES = ND_NCOLUMNS,
    NF_TOTAL_PACKETS,
    NF_TOTAL_ERRS,
    NF_TOTAL_DROP,
    NF_TOTAL_MCASTS,
    N_NF
};
enum { UN_RELEASE, UN_VERSION, UN_SYSNAME, UN_MACHINE, UN_NODENAME };

/* One metric: its descriptor and where its value comes from. */
typedef struct {
    pmDesc desc;        /* as PCP's agent describes it; pmid with domain 0, indom a serial */
    unsigned char kind; /* K_* */
    unsigned char arg;  /* kind-specific */
} linux_metric;

extern const linux_metric linux_metrictab[];
extern const int linux_nmetrics;

/* The SRC_* a K_* kind of metric is read from. */
int linux_source(int kind);

/* A block device seen in diskstats; the private data of its cache entry. */
typedef struct {
    uint64_t col[DS_NCOLUMNS]; /* its latest counters */
} linux_disk;

/* A network interface; the private data of its cache entry. */
typedef struct {
    uint64_t col[ND_NCOLUMNS]; /* its latest counters */
} linux_netif;

/* Everything the agent knows; one per process (PMDA callbacks carry no context). */
typedef struct {
    char *statspath;            /* $LINUX_STATSPATH: prefix of /proc paths ("" normally) */
    unsigned maxcpu;            /* $LINUX_NCPUS or the configured processor count */
    unsigned hz;                /* $LINUX_HERTZ or sysconf(_SC_CLK_TCK) */
    unsigned pagesize;          /* $LINUX_PAGESIZE or sysconf(_SC_PAGESIZE) */
    pmdaIndom indoms[N_INDOMS]; /* handed to pmdaInit, which turns serials into pmInDoms */
    proc_buf buf;               /* the file being parsed */

    proc_stat stat;        /* /proc/stat */
    pmdaInstid *cpu_insts; /* CPU_INDOM's table: one per processor seen */
    char (*cpu_names)[16]; /* cpu_names[N] = "cpuN", for N < cpu_nnames */
    unsigned cpu_nnames;   /* entries in cpu_names */

    proc_meminfo mem;     /* /proc/meminfo */
    proc_loadavg loadavg; /* /proc/loadavg */
    proc_uptime uptime;   /* /proc/uptime */

    uint64_t disk_all[N_DF]; /* DF_* sums over the disks */
    unsigned ndisk;          /* disks in the latest refresh */

    uint64_t net_all[N_NF]; /* NF_* sums over the interfaces network.all covers */
    unsigned ninterface;    /* interfaces in the latest refresh */
    regex_t net_exclude;    /* interfaces network.all leaves out */

    struct utsname uts; /* uname(2) */
    int uts_ok;         /* uname succeeded */
} linux_agent;

extern linux_agent linux_state;

/* The pmInDom of serial S (valid after pmdaInit). */
#define LINUX_INDOM(s) (linux_state.indoms[s].it_indom)

/* Per-field values, shared by the callback and the sums made at refresh. */
uint64_t linux_disk_value(const uint64_t col[DS_NCOLUMNS], int field);
uint64_t linux_net_value(const uint64_t col[ND_NCOLUMNS], int field);

/* The fetch callback (values.c). */
int linux_fetch_callback(pmdaMetric *m, unsigned int inst, pmAtomValue *atom);

/* $PCP_PMDAS_DIR/linux/help, malloc'd (linux.c). */
char *linux_help_path(void);

/* Installs the tables and methods after pmdaDSO or pmdaDaemon (linux.c). */
void linux_setup(pmdaInterface *dp);

/* The DSO's entry point. */
void __PMDA_INIT_CALL linux_init(pmdaInterface *dp);

#endif
