/*
 * metrics.c - every metric of the linux agent: PCP's PMID (cluster and
 * item of the linux domain), descriptor, and which value of which /proc
 * file it reports (kind and argument, see linux.h).
 *
 * The descriptors are PCP's own for these names (type, instance domain,
 * semantics and units as Debian's PCP 6 linux agent reports them), so
 * archives and tools see the same metrics whichever agent answers.  The
 * table must stay in PMID order (cluster, then item): linux.c's
 * find_metric binary-searches it.
 */
#include "linux.h"

/* Shorthands for the table below. */
#define NULL_INDOM   PM_INDOM_NULL
#define UNITS_NONE   PMDA_PMUNITS(0, 0, 0, 0, 0, 0)
#define UNITS_COUNT  PMDA_PMUNITS(0, 0, 1, 0, 0, PM_COUNT_ONE)
#define UNITS_MSEC   PMDA_PMUNITS(0, 1, 0, 0, PM_TIME_MSEC, 0)
#define UNITS_SEC    PMDA_PMUNITS(0, 1, 0, 0, PM_TIME_SEC, 0)
#define UNITS_BYTES  PMDA_PMUNITS(1, 0, 0, PM_SPACE_BYTE, 0, 0)
#define UNITS_KBYTES PMDA_PMUNITS(1, 0, 0, PM_SPACE_KBYTE, 0, 0)
#define UNITS_MBYTES PMDA_PMUNITS(1, 0, 0, PM_SPACE_MBYTE, 0, 0)
#define UNITS_PERSEC PMDA_PMUNITS(0, -1, 1, 0, PM_TIME_SEC, PM_COUNT_ONE)

/* One row: cluster, item, type, indom, semantics, units, kind, argument. */
#define M(c, i, type, indom, sem, units, kind, arg)                                                \
    {                                                                                              \
        {PMDA_PMID(c, i), PM_TYPE_##type, indom##_INDOM, PM_SEM_##sem, UNITS_##units}, K_##kind,   \
            arg                                                                                    \
    }

const linux_metric linux_metrictab[] = {

    /* cluster 0: /proc/stat and /proc/diskstats */
    M(0, 0, U64, CPU, COUNTER, MSEC, CPU_PER, CPU_USER),        /* kernel.percpu.cpu.user */
    M(0, 1, U64, CPU, COUNTER, MSEC, CPU_PER, CPU_NICE),        /* kernel.percpu.cpu.nice */
    M(0, 2, U64, CPU, COUNTER, MSEC, CPU_PER, CPU_SYS),         /* kernel.percpu.cpu.sys */
    M(0, 3, U64, CPU, COUNTER, MSEC, CPU_PER, CPU_IDLE),        /* kernel.percpu.cpu.idle */
    M(0, 4, U64, DISK, COUNTER, COUNT, DISK_DEV, DF_READ),      /* disk.dev.read */
    M(0, 5, U64, DISK, COUNTER, COUNT, DISK_DEV, DF_WRITE),     /* disk.dev.write */
    M(0, 6, U64, DISK, COUNTER, COUNT, DISK_DEV, DF_BLKREAD),   /* disk.dev.blkread */
    M(0, 7, U64, DISK, COUNTER, COUNT, DISK_DEV, DF_BLKWRITE),  /* disk.dev.blkwrite */
    M(0, 12, U64, NULL, COUNTER, COUNT, STAT, ST_INTR),         /* kernel.all.intr */
    M(0, 13, U64, NULL, COUNTER, COUNT, STAT, ST_CTXT),         /* kernel.all.pswitch */
    M(0, 14, U64, NULL, COUNTER, COUNT, STAT, ST_PROCESSES),    /* kernel.all.sysfork */
    M(0, 15, U64, NULL, INSTANT, NONE, STAT, ST_RUNNING),       /* kernel.all.running */
    M(0, 16, U64, NULL, INSTANT, NONE, STAT, ST_BLOCKED),       /* kernel.all.blocked */
    M(0, 17, 64, NULL, DISCRETE, SEC, STAT, ST_BTIME),          /* kernel.all.boottime */
    M(0, 20, U64, NULL, COUNTER, MSEC, CPU_ALL, CPU_USER),      /* kernel.all.cpu.user */
    M(0, 21, U64, NULL, COUNTER, MSEC, CPU_ALL, CPU_NICE),      /* kernel.all.cpu.nice */
    M(0, 22, U64, NULL, COUNTER, MSEC, CPU_ALL, CPU_SYS),       /* kernel.all.cpu.sys */
    M(0, 23, U64, NULL, COUNTER, MSEC, CPU_ALL, CPU_IDLE),      /* kernel.all.cpu.idle */
    M(0, 24, U64, NULL, COUNTER, COUNT, DISK_ALL, DF_READ),     /* disk.all.read */
    M(0, 25, U64, NULL, COUNTER, COUNT, DISK_ALL, DF_WRITE),    /* disk.all.write */
    M(0, 26, U64, NULL, COUNTER, COUNT, DISK_ALL, DF_BLKREAD),  /* disk.all.blkread */
    M(0, 27, U64, NULL, COUNTER, COUNT, DISK_ALL, DF_BLKWRITE), /* disk.all.blkwrite */
    M(0, 28, U64, DISK, COUNTER, COUNT, DISK_DEV, DF_TOTAL),    /* disk.dev.total */
    M(0, 29, U64, NULL, COUNTER, COUNT, DISK_ALL, DF_TOTAL),    /* disk.all.total */
    M(0, 30, U64, CPU, COUNTER, MSEC, CPU_PER, CPU_WAIT),       /* kernel.percpu.cpu.wait.total */
    M(0, 31, U64, CPU, COUNTER, MSEC, CPU_PER, CF_INTR),        /* kernel.percpu.cpu.intr */
    M(0, 32, U32, NULL, DISCRETE, NONE, STAT, ST_NCPU),         /* hinv.ncpu */
    M(0, 33, U32, NULL, DISCRETE, NONE, NDISK, 0),              /* hinv.ndisk */
    M(0, 34, U64, NULL, COUNTER, MSEC, CPU_ALL, CF_INTR),       /* kernel.all.cpu.intr */
    M(0, 35, U64, NULL, COUNTER, MSEC, CPU_ALL, CPU_WAIT),      /* kernel.all.cpu.wait.total */
    M(0, 36, U64, DISK, COUNTER, COUNT, DISK_DEV, DF_BLKTOTAL), /* disk.dev.blktotal */
    M(0, 37, U64, NULL, COUNTER, COUNT, DISK_ALL, DF_BLKTOTAL), /* disk.all.blktotal */
    M(0, 38, U64, DISK, COUNTER, KBYTES, DISK_DEV, DF_READ_BYTES),  /* disk.dev.read_bytes */
    M(0, 39, U64, DISK, COUNTER, KBYTES, DISK_DEV, DF_WRITE_BYTES), /* disk.dev.write_bytes */
    M(0, 40, U64, DISK, COUNTER, KBYTES, DISK_DEV, DF_TOTAL_BYTES), /* disk.dev.total_bytes */
    M(0, 41, U64, NULL, COUNTER, KBYTES, DISK_ALL, DF_READ_BYTES),  /* disk.all.read_bytes */
    M(0, 42, U64, NULL, COUNTER, KBYTES, DISK_ALL, DF_WRITE_BYTES), /* disk.all.write_bytes */
    M(0, 43, U64, NULL, COUNTER, KBYTES, DISK_ALL, DF_TOTAL_BYTES), /* disk.all.total_bytes */
    M(0, 44, U64, NULL, COUNTER, MSEC, DISK_ALL, DF_AVACTIVE),      /* disk.all.avactive */
    M(0, 45, U64, NULL, COUNTER, MSEC, DISK_ALL, DF_AVEQ),          /* disk.all.aveq */
    M(0, 46, U32, DISK, COUNTER, MSEC, DISK_DEV, DF_AVACTIVE),      /* disk.dev.avactive */
    M(0, 47, U32, DISK, COUNTER, MSEC, DISK_DEV, DF_AVEQ),          /* disk.dev.aveq */
    M(0, 48, U32, NULL, DISCRETE, PERSEC, CONST, C_HZ),             /* kernel.all.hz */
    M(0, 49, U64, DISK, COUNTER, COUNT, DISK_DEV, DF_READ_MERGE),   /* disk.dev.read_merge */
    M(0, 50, U64, DISK, COUNTER, COUNT, DISK_DEV, DF_WRITE_MERGE),  /* disk.dev.write_merge */
    M(0, 51, U64, NULL, COUNTER, COUNT, DISK_ALL, DF_READ_MERGE),   /* disk.all.read_merge */
    M(0, 52, U64, NULL, COUNTER, COUNT, DISK_ALL, DF_WRITE_MERGE),  /* disk.all.write_merge */
    M(0, 53, U64, NULL, COUNTER, MSEC, CPU_ALL, CPU_SOFTIRQ),       /* kernel.all.cpu.irq.soft */
    M(0, 54, U64, NULL, COUNTER, MSEC, CPU_ALL, CPU_IRQ),           /* kernel.all.cpu.irq.hard */
    M(0, 55, U64, NULL, COUNTER, MSEC, CPU_ALL, CPU_STEAL),         /* kernel.all.cpu.steal */
    M(0, 56, U64, CPU, COUNTER, MSEC, CPU_PER, CPU_SOFTIRQ),        /* kernel.percpu.cpu.irq.soft */
    M(0, 57, U64, CPU, COUNTER, MSEC, CPU_PER, CPU_IRQ),            /* kernel.percpu.cpu.irq.hard */
    M(0, 58, U64, CPU, COUNTER, MSEC, CPU_PER, CPU_STEAL),          /* kernel.percpu.cpu.steal */
    M(0, 60, U64, NULL, COUNTER, MSEC, CPU_ALL, CPU_GUEST),         /* kernel.all.cpu.guest */
    M(0, 61, U64, CPU, COUNTER, MSEC, CPU_PER, CPU_GUEST),          /* kernel.percpu.cpu.guest */
    M(0, 72, U32, DISK, COUNTER, MSEC, DISK_DEV, DF_READ_RAWACTIVE),  /* disk.dev.read_rawactive */
    M(0, 73, U32, DISK, COUNTER, MSEC, DISK_DEV, DF_WRITE_RAWACTIVE), /* disk.dev.write_rawactive */
    M(0, 74, U64, NULL, COUNTER, MSEC, DISK_ALL, DF_READ_RAWACTIVE),  /* disk.all.read_rawactive */
    M(0, 75, U64, NULL, COUNTER, MSEC, DISK_ALL, DF_WRITE_RAWACTIVE), /* disk.all.write_rawactive */
    M(0, 76, U64, CPU, COUNTER, MSEC, CPU_PER, CF_VUSER),             /* kernel.percpu.cpu.vuser */
    M(0, 78, U64, NULL, COUNTER, MSEC, CPU_ALL, CF_VUSER),            /* kernel.all.cpu.vuser */
    M(0, 79, U32, DISK, COUNTER, MSEC, DISK_DEV, DF_TOTAL_RAWACTIVE), /* disk.dev.total_rawactive */
    M(0, 80, U64, NULL, COUNTER, MSEC, DISK_ALL, DF_TOTAL_RAWACTIVE), /* disk.all.total_rawactive */
    M(0, 81, U64, NULL, COUNTER, MSEC, CPU_ALL, CPU_GUEST_NICE),  /* kernel.all.cpu.guest_nice */
    M(0, 82, U64, NULL, COUNTER, MSEC, CPU_ALL, CF_VNICE),        /* kernel.all.cpu.vnice */
    M(0, 83, U64, CPU, COUNTER, MSEC, CPU_PER, CPU_GUEST_NICE),   /* kernel.percpu.cpu.guest_nice */
    M(0, 84, U64, CPU, COUNTER, MSEC, CPU_PER, CF_VNICE),         /* kernel.percpu.cpu.vnice */
    M(0, 88, U64, DISK, COUNTER, COUNT, DISK_DEV, DF_DISCARD),    /* disk.dev.discard */
    M(0, 89, U64, DISK, COUNTER, COUNT, DISK_DEV, DF_BLKDISCARD), /* disk.dev.blkdiscard */
    M(0, 90, U64, DISK, COUNTER, KBYTES, DISK_DEV, DF_DISCARD_BYTES), /* disk.dev.discard_bytes */
    M(0, 91, U64, DISK, COUNTER, COUNT, DISK_DEV, DF_DISCARD_MERGE),  /* disk.dev.discard_merge */
    /* disk.dev.discard_rawactive */
    M(0, 92, U32, DISK, COUNTER, MSEC, DISK_DEV, DF_DISCARD_RAWACTIVE),
    M(0, 93, U64, DISK, COUNTER, COUNT, DISK_DEV, DF_FLUSH),          /* disk.dev.flush */
    M(0, 94, U32, DISK, COUNTER, MSEC, DISK_DEV, DF_FLUSH_RAWACTIVE), /* disk.dev.flush_rawactive */
    M(0, 95, U32, DISK, INSTANT, NONE, DISK_DEV, DF_INFLIGHT),        /* disk.dev.inflight */
    M(0, 96, U64, NULL, COUNTER, COUNT, DISK_ALL, DF_DISCARD),        /* disk.all.discard */
    M(0, 97, U64, NULL, COUNTER, COUNT, DISK_ALL, DF_BLKDISCARD),     /* disk.all.blkdiscard */
    M(0, 98, U64, NULL, COUNTER, KBYTES, DISK_ALL, DF_DISCARD_BYTES), /* disk.all.discard_bytes */
    M(0, 99, U64, NULL, COUNTER, COUNT, DISK_ALL, DF_DISCARD_MERGE),  /* disk.all.discard_merge */
    /* disk.all.discard_rawactive */
    M(0, 100, U32, NULL, COUNTER, MSEC, DISK_ALL, DF_DISCARD_RAWACTIVE),
    M(0, 101, U64, NULL, COUNTER, COUNT, DISK_ALL, DF_FLUSH), /* disk.all.flush */
    /* disk.all.flush_rawactive */
    M(0, 102, U32, NULL, COUNTER, MSEC, DISK_ALL, DF_FLUSH_RAWACTIVE),
    M(0, 104, U64, NULL, INSTANT, NONE, DISK_ALL, DF_INFLIGHT), /* disk.all.inflight */

    /* cluster 1: /proc/meminfo */
    M(1, 0, U64, NULL, DISCRETE, KBYTES, MEM, MI_MEMTOTAL),         /* mem.physmem */
    M(1, 1, U64, NULL, INSTANT, KBYTES, MEM_CALC, MC_USED),         /* mem.util.used */
    M(1, 2, U64, NULL, INSTANT, KBYTES, MEM, MI_MEMFREE),           /* mem.util.free */
    M(1, 3, U64, NULL, INSTANT, KBYTES, MEM, MI_MEMSHARED),         /* mem.util.shared */
    M(1, 4, U64, NULL, INSTANT, KBYTES, MEM, MI_BUFFERS),           /* mem.util.bufmem */
    M(1, 5, U64, NULL, INSTANT, KBYTES, MEM, MI_CACHED),            /* mem.util.cached */
    M(1, 9, U32, NULL, DISCRETE, MBYTES, MEM_CALC, MC_PHYSMEM_MB),  /* hinv.physmem */
    M(1, 10, U64, NULL, INSTANT, KBYTES, MEM, MI_MEMFREE),          /* mem.freemem */
    M(1, 11, U32, NULL, DISCRETE, BYTES, CONST, C_PAGESIZE),        /* hinv.pagesize */
    M(1, 12, U64, NULL, INSTANT, KBYTES, MEM_CALC, MC_OTHER),       /* mem.util.other */
    M(1, 13, U64, NULL, INSTANT, KBYTES, MEM, MI_SWAPCACHED),       /* mem.util.swapCached */
    M(1, 14, U64, NULL, INSTANT, KBYTES, MEM, MI_ACTIVE),           /* mem.util.active */
    M(1, 15, U64, NULL, INSTANT, KBYTES, MEM, MI_INACTIVE),         /* mem.util.inactive */
    M(1, 16, U64, NULL, INSTANT, KBYTES, MEM, MI_HIGHTOTAL),        /* mem.util.highTotal */
    M(1, 17, U64, NULL, INSTANT, KBYTES, MEM, MI_HIGHFREE),         /* mem.util.highFree */
    M(1, 18, U64, NULL, INSTANT, KBYTES, MEM, MI_LOWTOTAL),         /* mem.util.lowTotal */
    M(1, 19, U64, NULL, INSTANT, KBYTES, MEM, MI_LOWFREE),          /* mem.util.lowFree */
    M(1, 20, U64, NULL, INSTANT, KBYTES, MEM, MI_SWAPTOTAL),        /* mem.util.swapTotal */
    M(1, 21, U64, NULL, INSTANT, KBYTES, MEM, MI_SWAPFREE),         /* mem.util.swapFree */
    M(1, 22, U64, NULL, INSTANT, KBYTES, MEM, MI_DIRTY),            /* mem.util.dirty */
    M(1, 23, U64, NULL, INSTANT, KBYTES, MEM, MI_WRITEBACK),        /* mem.util.writeback */
    M(1, 24, U64, NULL, INSTANT, KBYTES, MEM, MI_MAPPED),           /* mem.util.mapped */
    M(1, 25, U64, NULL, INSTANT, KBYTES, MEM, MI_SLAB),             /* mem.util.slab */
    M(1, 26, U64, NULL, INSTANT, KBYTES, MEM, MI_COMMITTED_AS),     /* mem.util.committed_AS */
    M(1, 27, U64, NULL, INSTANT, KBYTES, MEM, MI_PAGETABLES),       /* mem.util.pageTables */
    M(1, 28, U64, NULL, INSTANT, KBYTES, MEM, MI_REVERSEMAPS),      /* mem.util.reverseMaps */
    M(1, 29, U64, NULL, INSTANT, KBYTES, MEM_CALC, MC_CACHE_CLEAN), /* mem.util.cache_clean */
    M(1, 30, U64, NULL, INSTANT, KBYTES, MEM, MI_ANONPAGES),        /* mem.util.anonpages */
    M(1, 31, U64, NULL, INSTANT, KBYTES, MEM, MI_COMMITLIMIT),      /* mem.util.commitLimit */
    M(1, 32, U64, NULL, INSTANT, KBYTES, MEM, MI_BOUNCE),           /* mem.util.bounce */
    M(1, 33, U64, NULL, INSTANT, KBYTES, MEM, MI_NFS_UNSTABLE),     /* mem.util.NFS_Unstable */
    M(1, 34, U64, NULL, INSTANT, KBYTES, MEM, MI_SRECLAIMABLE),     /* mem.util.slabReclaimable */
    M(1, 35, U64, NULL, INSTANT, KBYTES, MEM, MI_SUNRECLAIM),       /* mem.util.slabUnreclaimable */
    M(1, 36, U64, NULL, INSTANT, KBYTES, MEM, MI_ACTIVE_ANON),      /* mem.util.active_anon */
    M(1, 37, U64, NULL, INSTANT, KBYTES, MEM, MI_INACTIVE_ANON),    /* mem.util.inactive_anon */
    M(1, 38, U64, NULL, INSTANT, KBYTES, MEM, MI_ACTIVE_FILE),      /* mem.util.active_file */
    M(1, 39, U64, NULL, INSTANT, KBYTES, MEM, MI_INACTIVE_FILE),    /* mem.util.inactive_file */
    M(1, 40, U64, NULL, INSTANT, KBYTES, MEM, MI_UNEVICTABLE),      /* mem.util.unevictable */
    M(1, 41, U64, NULL, INSTANT, KBYTES, MEM, MI_MLOCKED),          /* mem.util.mlocked */
    M(1, 42, U64, NULL, INSTANT, KBYTES, MEM, MI_SHMEM),            /* mem.util.shmem */
    M(1, 43, U64, NULL, INSTANT, KBYTES, MEM, MI_KERNELSTACK),      /* mem.util.kernelStack */
    M(1, 44, U64, NULL, INSTANT, COUNT, MEM, MI_HUGEPAGES_TOTAL),   /* mem.util.hugepagesTotal */
    M(1, 45, U64, NULL, INSTANT, COUNT, MEM, MI_HUGEPAGES_FREE),    /* mem.util.hugepagesFree */
    M(1, 46, U64, NULL, INSTANT, COUNT, MEM, MI_HUGEPAGES_RSVD),    /* mem.util.hugepagesRsvd */
    M(1, 47, U64, NULL, INSTANT, COUNT, MEM, MI_HUGEPAGES_SURP),    /* mem.util.hugepagesSurp */
    M(1, 48, U64, NULL, INSTANT, KBYTES, MEM, MI_DIRECTMAP4K),      /* mem.util.directMap4k */
    M(1, 49, U64, NULL, INSTANT, KBYTES, MEM, MI_DIRECTMAP2M),      /* mem.util.directMap2M */
    M(1, 50, U64, NULL, INSTANT, KBYTES, MEM, MI_VMALLOCTOTAL),     /* mem.util.vmallocTotal */
    M(1, 51, U64, NULL, INSTANT, KBYTES, MEM, MI_VMALLOCUSED),      /* mem.util.vmallocUsed */
    M(1, 52, U64, NULL, INSTANT, KBYTES, MEM, MI_VMALLOCCHUNK),     /* mem.util.vmallocChunk */
    M(1, 53, U64, NULL, INSTANT, KBYTES, MEM, MI_MMAPCOPY),         /* mem.util.mmap_copy */
    M(1, 54, U64, NULL, INSTANT, KBYTES, MEM, MI_QUICKLISTS),       /* mem.util.quicklists */
    M(1, 55, U64, NULL, INSTANT, KBYTES, MEM, MI_HARDWARECORRUPTED), /* mem.util.corrupthardware */
    M(1, 56, U64, NULL, INSTANT, KBYTES, MEM, MI_ANONHUGEPAGES),     /* mem.util.anonhugepages */
    M(1, 57, U64, NULL, INSTANT, KBYTES, MEM, MI_DIRECTMAP1G),       /* mem.util.directMap1G */
    M(1, 58, U64, NULL, INSTANT, KBYTES, MEM, MI_MEMAVAILABLE),      /* mem.util.available */
    M(1, 59, U32, NULL, DISCRETE, BYTES, MEM_CALC, MC_HUGEPAGESIZE), /* hinv.hugepagesize */
    /* mem.util.hugepagesTotalBytes */
    M(1, 60, U64, NULL, INSTANT, BYTES, MEM_CALC, MC_HUGE_TOTAL_BYTES),
    /* mem.util.hugepagesFreeBytes */
    M(1, 61, U64, NULL, INSTANT, BYTES, MEM_CALC, MC_HUGE_FREE_BYTES),
    /* mem.util.hugepagesRsvdBytes */
    M(1, 62, U64, NULL, INSTANT, BYTES, MEM_CALC, MC_HUGE_RSVD_BYTES),
    /* mem.util.hugepagesSurpBytes */
    M(1, 63, U64, NULL, INSTANT, BYTES, MEM_CALC, MC_HUGE_SURP_BYTES),

    /* cluster 2: /proc/loadavg */
    M(2, 0, FLOAT, LOADAVG, INSTANT, NONE, LOAD, 0),         /* kernel.all.load */
    M(2, 1, U32, NULL, INSTANT, NONE, LOADINT, LA_LASTPID),  /* kernel.all.lastpid */
    M(2, 2, U32, NULL, INSTANT, NONE, LOADINT, LA_RUNNABLE), /* kernel.all.runnable */
    M(2, 3, U32, NULL, INSTANT, NONE, LOADINT, LA_NPROCS),   /* kernel.all.nprocs */

    /* cluster 3: /proc/net/dev */
    M(3, 0, U64, NET, COUNTER, BYTES, NET_IF, ND_RX_BYTES),   /* network.interface.in.bytes */
    M(3, 1, U64, NET, COUNTER, COUNT, NET_IF, ND_RX_PACKETS), /* network.interface.in.packets */
    M(3, 2, U64, NET, COUNTER, COUNT, NET_IF, ND_RX_ERRS),    /* network.interface.in.errors */
    M(3, 3, U64, NET, COUNTER, COUNT, NET_IF, ND_RX_DROP),    /* network.interface.in.drops */
    M(3, 4, U64, NET, COUNTER, COUNT, NET_IF, ND_RX_FIFO),    /* network.interface.in.fifo */
    M(3, 5, U64, NET, COUNTER, COUNT, NET_IF, ND_RX_FRAME),   /* network.interface.in.frame */
    /* network.interface.in.compressed */
    M(3, 6, U64, NET, COUNTER, COUNT, NET_IF, ND_RX_COMPRESSED),
    M(3, 7, U64, NET, COUNTER, COUNT, NET_IF, ND_RX_MULTICAST), /* network.interface.in.mcasts */
    M(3, 8, U64, NET, COUNTER, BYTES, NET_IF, ND_TX_BYTES),     /* network.interface.out.bytes */
    M(3, 9, U64, NET, COUNTER, COUNT, NET_IF, ND_TX_PACKETS),   /* network.interface.out.packets */
    M(3, 10, U64, NET, COUNTER, COUNT, NET_IF, ND_TX_ERRS),     /* network.interface.out.errors */
    M(3, 11, U64, NET, COUNTER, COUNT, NET_IF, ND_TX_DROP),     /* network.interface.out.drops */
    M(3, 12, U64, NET, COUNTER, COUNT, NET_IF, ND_TX_FIFO),     /* network.interface.out.fifo */
    M(3, 13, U64, NET, COUNTER, COUNT, NET_IF, ND_TX_COLLS),    /* network.interface.collisions */
    M(3, 14, U64, NET, COUNTER, COUNT, NET_IF, ND_TX_CARRIER),  /* network.interface.out.carrier */
    /* network.interface.out.compressed */
    M(3, 15, U64, NET, COUNTER, COUNT, NET_IF, ND_TX_COMPRESSED),
    M(3, 16, U64, NET, COUNTER, BYTES, NET_IF, NF_TOTAL_BYTES), /* network.interface.total.bytes */
    /* network.interface.total.packets */
    M(3, 17, U64, NET, COUNTER, COUNT, NET_IF, NF_TOTAL_PACKETS),
    M(3, 18, U64, NET, COUNTER, COUNT, NET_IF, NF_TOTAL_ERRS), /* network.interface.total.errors */
    M(3, 19, U64, NET, COUNTER, COUNT, NET_IF, NF_TOTAL_DROP), /* network.interface.total.drops */
    /* network.interface.total.mcasts */
    M(3, 20, U64, NET, COUNTER, COUNT, NET_IF, NF_TOTAL_MCASTS),
    M(3, 27, U32, NULL, DISCRETE, NONE, NINTERFACE, 0), /* hinv.ninterface */

    /* cluster 12: uname(2) */
    M(12, 0, STRING, NULL, DISCRETE, NONE, UNAME, UN_RELEASE),  /* kernel.uname.release */
    M(12, 1, STRING, NULL, DISCRETE, NONE, UNAME, UN_VERSION),  /* kernel.uname.version */
    M(12, 2, STRING, NULL, DISCRETE, NONE, UNAME, UN_SYSNAME),  /* kernel.uname.sysname */
    M(12, 3, STRING, NULL, DISCRETE, NONE, UNAME, UN_MACHINE),  /* kernel.uname.machine */
    M(12, 4, STRING, NULL, DISCRETE, NONE, UNAME, UN_NODENAME), /* kernel.uname.nodename */

    /* cluster 26: /proc/uptime */
    M(26, 0, DOUBLE, NULL, INSTANT, SEC, UPTIME, 0), /* kernel.all.uptime */
    M(26, 1, DOUBLE, NULL, INSTANT, SEC, UPTIME, 1), /* kernel.all.idletime */

    /* cluster 90: /proc/net/dev, summed over interfaces */
    M(90, 0, U64, NULL, COUNTER, BYTES, NET_ALL, ND_RX_BYTES),      /* network.all.in.bytes */
    M(90, 1, U64, NULL, COUNTER, COUNT, NET_ALL, ND_RX_PACKETS),    /* network.all.in.packets */
    M(90, 2, U64, NULL, COUNTER, COUNT, NET_ALL, ND_RX_ERRS),       /* network.all.in.errors */
    M(90, 3, U64, NULL, COUNTER, COUNT, NET_ALL, ND_RX_DROP),       /* network.all.in.drops */
    M(90, 4, U64, NULL, COUNTER, BYTES, NET_ALL, ND_TX_BYTES),      /* network.all.out.bytes */
    M(90, 5, U64, NULL, COUNTER, COUNT, NET_ALL, ND_TX_PACKETS),    /* network.all.out.packets */
    M(90, 6, U64, NULL, COUNTER, COUNT, NET_ALL, ND_TX_ERRS),       /* network.all.out.errors */
    M(90, 7, U64, NULL, COUNTER, COUNT, NET_ALL, ND_TX_DROP),       /* network.all.out.drops */
    M(90, 8, U64, NULL, COUNTER, BYTES, NET_ALL, NF_TOTAL_BYTES),   /* network.all.total.bytes */
    M(90, 9, U64, NULL, COUNTER, COUNT, NET_ALL, NF_TOTAL_PACKETS), /* network.all.total.packets */
    M(90, 10, U64, NULL, COUNTER, COUNT, NET_ALL, NF_TOTAL_ERRS),   /* network.all.total.errors */
    M(90, 11, U64, NULL, COUNTER, COUNT, NET_ALL, NF_TOTAL_DROP),   /* network.all.total.drops */
};

const int linux_nmetrics = (int)(sizeof linux_metrictab / sizeof linux_metrictab[0]);
