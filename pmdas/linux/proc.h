/*
 * proc.h - the linux agent's readers of /proc: whole-file reading and
 * parsers that turn a file's text into plain C structures.
 *
 * Nothing here knows about PCP: every parser takes the text of one file
 * (a buffer and its length, as read by proc_read) and fills a structure,
 * so the unit tests feed them strings.  Lines may be of any length, any
 * field may be missing (it reads as 0, or as "absent" where the metric
 * then has no value) and numbers saturate at UINT64_MAX instead of
 * wrapping.  The agent (linux.c) decides what the numbers mean as metrics.
 */
#ifndef PMDA_LINUX_PROC_H
#define PMDA_LINUX_PROC_H

#include <stddef.h>
#include <stdint.h>

/* ---- reading files ---------------------------------------------------- */

/* A file's contents, NUL-terminated (data[len] == 0); grown as needed. */
typedef struct {
    char *data; /* malloc'd; NULL until the first read */
    size_t len; /* bytes read */
    size_t cap; /* bytes allocated */
} proc_buf;

/*
 * Reads ROOT followed by PATH (ROOT may be "" or NULL) into B, replacing
 * its contents.  Returns 0, or -errno (B then holds an empty string).
 */
int proc_read(proc_buf *b, const char *root, const char *path);
void proc_buf_free(proc_buf *b);

/* One line at a time from [*p, end): the line without its '\n'. */
int proc_next_line(const char **p, const char *end, const char **line, const char **eol);

/*
 * The next number in [*p, end): characters that are not decimal digits
 * are skipped, the digits are read (saturating at UINT64_MAX) and the
 * rest of that word, up to white space, is skipped too.  Returns 1, or 0
 * when no digit is left (then *v is untouched).
 */
int proc_scan_u64(const char **p, const char *end, uint64_t *v);

/*
 * The next number in [*p, end) the way sscanf's "%llu" reads it: blanks
 * skipped (not newlines), an optional sign (a '-' negates modulo 2^64),
 * digits, UINT64_MAX on overflow.  *p is left just after the digits.
 * Returns 0, with *p unchanged, when no number starts there.
 */
int proc_scan_ull(const char **p, const char *end, uint64_t *v);

/* The next white-space delimited word of [*p, end); 0 when there is none. */
int proc_next_word(const char **p, const char *end, const char **word, size_t *len);

/* ---- /proc/stat ------------------------------------------------------- */

/* The columns of a "cpu" line, in the kernel's order. */
enum {
    CPU_USER,
    CPU_NICE,
    CPU_SYS,
    CPU_IDLE,
    CPU_WAIT,
    CPU_IRQ,
    CPU_SOFTIRQ,
    CPU_STEAL,
    CPU_GUEST,
    CPU_GUEST_NICE,
    CPU_NCOLUMNS
};

typedef struct {
    uint64_t ticks[CPU_NCOLUMNS]; /* clock ticks; columns absent from the line are 0 */
} proc_cpu;

typedef struct {
    proc_cpu all;           /* the first line, the "cpu" totals */
    proc_cpu *cpu;          /* cpu[N] for "cpuN" lines, N < nslots */
    unsigned char *seen;    /* seen[N]: a "cpuN" line was there */
    unsigned nslots;        /* entries in cpu[] and seen[] */
    unsigned ncpu;          /* how many N were seen */
    uint64_t intr;          /* "intr": interrupts since boot */
    uint64_t ctxt;          /* "ctxt": context switches */
    uint64_t btime;         /* "btime": boot time, seconds since the epoch */
    uint64_t processes;     /* "processes": forks since boot */
    uint64_t procs_running; /* "procs_running" */
    uint64_t procs_blocked; /* "procs_blocked" */
} proc_stat;

/*
 * Parses /proc/stat into S, with PCP's agent's reading of it: the system
 * totals come from the first line (when it starts with "cpu"), a line
 * starting "cpuN" (N digits) is processor N's, numbers are read as sscanf
 * reads them, and for the other keywords the first line wins.  MAXCPU is
 * the number of processors the system is configured for: "cpuN" lines
 * with N >= MAXCPU are ignored, and with MAXCPU == 1 processor 0 is the
 * totals line itself (pass 0 when the file could not be read: no
 * processors at all).  Returns 0 or -ENOMEM; S is reset first and keeps
 * its arrays between calls (release with proc_stat_free).
 */
int proc_stat_parse(proc_stat *s, const char *text, size_t len, unsigned maxcpu);
void proc_stat_free(proc_stat *s);

/* ---- /proc/meminfo ---------------------------------------------------- */

/* The meminfo lines the agent uses. */
enum {
    MI_MEMTOTAL,
    MI_MEMFREE,
    MI_MEMAVAILABLE,
    MI_MEMSHARED,
    MI_BUFFERS,
    MI_CACHED,
    MI_SWAPCACHED,
    MI_ACTIVE,
    MI_INACTIVE,
    MI_ACTIVE_ANON,
    MI_INACTIVE_ANON,
    MI_ACTIVE_FILE,
    MI_INACTIVE_FILE,
    MI_UNEVICTABLE,
    MI_MLOCKED,
    MI_HIGHTOTAL,
    MI_HIGHFREE,
    MI_LOWTOTAL,
    MI_LOWFREE,
    MI_SWAPTOTAL,
    MI_SWAPFREE,
    MI_DIRTY,
    MI_WRITEBACK,
    MI_ANONPAGES,
    MI_MAPPED,
    MI_SHMEM,
    MI_SLAB,
    MI_SRECLAIMABLE,
    MI_SUNRECLAIM,
    MI_KERNELSTACK,
    MI_PAGETABLES,
    MI_NFS_UNSTABLE,
    MI_BOUNCE,
    MI_COMMITLIMIT,
    MI_COMMITTED_AS,
    MI_VMALLOCTOTAL,
    MI_VMALLOCUSED,
    MI_VMALLOCCHUNK,
    MI_HARDWARECORRUPTED,
    MI_ANONHUGEPAGES,
    MI_HUGEPAGES_TOTAL,
    MI_HUGEPAGES_FREE,
    MI_HUGEPAGES_RSVD,
    MI_HUGEPAGES_SURP,
    MI_HUGEPAGESIZE,
    MI_DIRECTMAP4K,
    MI_DIRECTMAP2M,
    MI_DIRECTMAP1G,
    MI_REVERSEMAPS,
    MI_MMAPCOPY,
    MI_QUICKLISTS,
    MI_NKEYS
};

/* The value PROC_ABSENT marks a line that is not there (PCP's agent uses it too). */
#define PROC_ABSENT UINT64_MAX

typedef struct {
    uint64_t v[MI_NKEYS]; /* the number on each line (kB or pages), or PROC_ABSENT */
} proc_meminfo;

/* Parses /proc/meminfo into M (every value absent first; a repeated line: the last wins). */
void proc_meminfo_parse(proc_meminfo *m, const char *text, size_t len);

/* The key of meminfo line K (e.g. "Active(anon)"), for tests. */
const char *proc_meminfo_key(int k);

/* ---- /proc/loadavg and /proc/uptime ----------------------------------- */

typedef struct {
    float load[3];     /* 1, 5 and 15 minute averages */
    unsigned runnable; /* "R/T": R */
    unsigned nprocs;   /* "R/T": T */
    unsigned lastpid;  /* the last process id handed out */
} proc_loadavg;

typedef struct {
    double uptime;   /* seconds since boot */
    double idletime; /* seconds all processors spent idle, added up */
} proc_uptime;

/* Missing fields are 0 (text must be NUL-terminated, as proc_read makes it). */
void proc_loadavg_parse(proc_loadavg *l, const char *text);
void proc_uptime_parse(proc_uptime *u, const char *text);

/* ---- /proc/diskstats and /proc/partitions ----------------------------- */

/* The statistics columns of a diskstats line, in the kernel's order. */
enum {
    DS_READS,
    DS_READ_MERGES,
    DS_READ_SECTORS,
    DS_READ_TICKS,
    DS_WRITES,
    DS_WRITE_MERGES,
    DS_WRITE_SECTORS,
    DS_WRITE_TICKS,
    DS_IN_FLIGHT,
    DS_IO_TICKS,
    DS_TIME_IN_QUEUE,
    DS_DISCARDS,
    DS_DISCARD_MERGES,
    DS_DISCARD_SECTORS,
    DS_DISCARD_TICKS,
    DS_FLUSHES,
    DS_FLUSH_TICKS,
    DS_NCOLUMNS
};

/*
 * Called for each device line of /proc/diskstats or interface line of
 * /proc/net/dev: its name (not NUL-terminated) and columns (DS_NCOLUMNS or
 * ND_NCOLUMNS of them).
 */
typedef int (*proc_line_fn)(void *arg, const char *name, size_t namelen, const uint64_t *col);

/*
 * Calls FN for every device line of /proc/diskstats ("major minor name
 * columns...") or, with PARTITIONS set, of /proc/partitions ("major minor
 * blocks name [columns...]", the header skipped).  Columns that are not
 * there are 0.  Stops at and returns the first negative FN result, else 0.
 */
int proc_disk_parse(const char *text, size_t len, int partitions, proc_line_fn fn, void *arg);

/*
 * Whether NAME is a whole disk that PCP's agent counts in disk.dev: not a
 * partition (sda1, nvme0n1p1, cciss/c0d0p1, ...) and not a loop, RAM,
 * zram, device-mapper, md or SCSI CD-ROM (srN) device.
 */
int proc_disk_is_disk(const char *name);

/* ---- /proc/net/dev ---------------------------------------------------- */

/* The columns of a net/dev line, in the kernel's order. */
enum {
    ND_RX_BYTES,
    ND_RX_PACKETS,
    ND_RX_ERRS,
    ND_RX_DROP,
    ND_RX_FIFO,
    ND_RX_FRAME,
    ND_RX_COMPRESSED,
    ND_RX_MULTICAST,
    ND_TX_BYTES,
    ND_TX_PACKETS,
    ND_TX_ERRS,
    ND_TX_DROP,
    ND_TX_FIFO,
    ND_TX_COLLS,
    ND_TX_CARRIER,
    ND_TX_COMPRESSED,
    ND_NCOLUMNS
};

/*
 * Calls FN for every line holding a ':' (the headers have none): the name
 * is the text before the first ':' without leading blanks (lines where that
 * is empty are skipped), the columns are the numbers after it, 0 when
 * missing.  Stops at and returns the first negative FN result, else 0.
 */
int proc_net_dev_parse(const char *text, size_t len, proc_line_fn fn, void *arg);

/* ---- conversions shared by the agent and its tests -------------------- */

/*
 * Clock ticks to milliseconds the way PCP's agent computes them, in
 * double precision: ticks * 1000 / hz, truncated; results of 2^64 and
 * more become 0.
 */
uint64_t proc_ticks_to_msec(uint64_t ticks, unsigned hz);

#endif
