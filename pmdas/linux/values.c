/*
 * values.c - the linux agent's fetch callback: from a metric's kind and
 * argument (metrics.c) and an instance to the value, out of what the
 * latest refresh parsed (linux.c).
 *
 * The arithmetic is PCP's: derived counters add and subtract in 64-bit
 * unsigned arithmetic (wrapping as the kernel's counters do), 32-bit
 * metrics keep the low 32 bits, processor ticks become milliseconds
 * through a double (proc_ticks_to_msec), and a meminfo metric has no value
 * when a line it needs is absent.  Nothing here reads a file.
 */
#include "linux.h"

#include <string.h>

int linux_source(int kind)
{
    switch (kind) {
    case K_CPU_ALL:
    case K_CPU_PER:
    case K_STAT:
        return SRC_STAT;
    case K_MEM:
    case K_MEM_CALC:
        return SRC_MEMINFO;
    case K_LOAD:
    case K_LOADINT:
        return SRC_LOADAVG;
    case K_UPTIME:
        return SRC_UPTIME;
    case K_DISK_DEV:
    case K_DISK_ALL:
    case K_NDISK:
        return SRC_DISK;
    case K_NET_IF:
    case K_NET_ALL:
    case K_NINTERFACE:
        return SRC_NET;
    case K_UNAME:
        return SRC_UNAME;
    default:
        return SRC_NONE;
    }
}

/* Stores V as the metric's integer TYPE: U32, 64 or U64 (the table has no 32). */
static int put(pmAtomValue *atom, int type, uint64_t v)
{
    switch (type) {
    case PM_TYPE_U32:
        atom->ul = (uint32_t)v;
        break;
    case PM_TYPE_64:
        atom->ll = (int64_t)v;
        break;
    default:
        atom->ull = v;
        break;
    }
    return PMDA_FETCH_STATIC;
}

/* Ticks of one CF_* field of a cpu line. */
static uint64_t cpu_ticks(const proc_cpu *c, int field)
{
    const uint64_t *t = c->ticks;

    switch (field) {
    case CF_INTR:
        return t[CPU_IRQ] + t[CPU_SOFTIRQ];
    case CF_VUSER:
        return t[CPU_USER] - t[CPU_GUEST];
    case CF_VNICE:
        return t[CPU_NICE] - t[CPU_GUEST_NICE];
    default:
        return t[field];
    }
}

static uint64_t stat_counter(const proc_stat *s, int field)
{
    switch (field) {
    case ST_INTR:
        return s->intr;
    case ST_CTXT:
        return s->ctxt;
    case ST_PROCESSES:
        return s->processes;
    case ST_RUNNING:
        return s->procs_running;
    case ST_BLOCKED:
        return s->procs_blocked;
    case ST_BTIME:
        return s->btime;
    default:
        return s->ncpu;
    }
}

/* D read as a signed difference, negative ones as 0. */
static uint64_t non_negative(uint64_t d)
{
    return d >> 63 ? 0 : d;
}

/* One MC_* value; 0 when an input is absent. */
static int mem_calc(const proc_meminfo *m, int field, uint64_t *v)
{
    const uint64_t *mi = m->v;
    uint64_t pagesize = mi[MI_HUGEPAGESIZE];

    switch (field) {
    case MC_USED:
        *v = mi[MI_MEMTOTAL] - mi[MI_MEMFREE];
        return mi[MI_MEMTOTAL] != PROC_ABSENT && mi[MI_MEMFREE] != PROC_ABSENT;
    case MC_OTHER:
        if (mi[MI_MEMTOTAL] == PROC_ABSENT || mi[MI_MEMFREE] == PROC_ABSENT ||
            mi[MI_CACHED] == PROC_ABSENT || mi[MI_BUFFERS] == PROC_ABSENT)
            return 0;
        *v = non_negative(mi[MI_MEMTOTAL] - mi[MI_MEMFREE] - mi[MI_CACHED] - mi[MI_BUFFERS]);
        return 1;
    case MC_CACHE_CLEAN:
        if (mi[MI_CACHED] == PROC_ABSENT || mi[MI_DIRTY] == PROC_ABSENT ||
            mi[MI_WRITEBACK] == PROC_ABSENT)
            return 0;
        *v = non_negative(mi[MI_CACHED] - mi[MI_DIRTY] - mi[MI_WRITEBACK]);
        return 1;
    case MC_PHYSMEM_MB:
        *v = mi[MI_MEMTOTAL] / 1024;
        return mi[MI_MEMTOTAL] != PROC_ABSENT;
    case MC_HUGEPAGESIZE:
        *v = pagesize * 1024;
        return pagesize != PROC_ABSENT;
    default:
        /* the page counts in bytes; PCP's agent needs only the count */
        *v = mi[MI_HUGEPAGES_TOTAL + field - MC_HUGE_TOTAL_BYTES];
        if (*v == PROC_ABSENT)
            return 0;
        *v *= pagesize * 1024;
        return 1;
    }
}

uint64_t linux_disk_value(const uint64_t col[DS_NCOLUMNS], int field)
{
    switch (field) {
    case DF_READ:
        return col[DS_READS];
    case DF_WRITE:
        return col[DS_WRITES];
    case DF_TOTAL:
        return col[DS_READS] + col[DS_WRITES];
    case DF_BLKREAD:
        return col[DS_READ_SECTORS];
    case DF_BLKWRITE:
        return col[DS_WRITE_SECTORS];
    case DF_BLKTOTAL:
        return col[DS_READ_SECTORS] + col[DS_WRITE_SECTORS];
    case DF_READ_BYTES: /* 512-byte sectors to kilobytes */
        return col[DS_READ_SECTORS] / 2;
    case DF_WRITE_BYTES:
        return col[DS_WRITE_SECTORS] / 2;
    case DF_TOTAL_BYTES:
        return (col[DS_READ_SECTORS] + col[DS_WRITE_SECTORS]) / 2;
    case DF_READ_MERGE:
        return col[DS_READ_MERGES];
    case DF_WRITE_MERGE:
        return col[DS_WRITE_MERGES];
    case DF_AVACTIVE:
        return (uint32_t)col[DS_IO_TICKS];
    case DF_READ_RAWACTIVE:
        return (uint32_t)col[DS_READ_TICKS];
    case DF_WRITE_RAWACTIVE:
        return (uint32_t)col[DS_WRITE_TICKS];
    case DF_TOTAL_RAWACTIVE:
        return (uint32_t)(col[DS_READ_TICKS] + col[DS_WRITE_TICKS]);
    case DF_AVEQ:
        return (uint32_t)col[DS_TIME_IN_QUEUE];
    case DF_DISCARD:
        return col[DS_DISCARDS];
    case DF_BLKDISCARD:
        return col[DS_DISCARD_SECTORS];
    case DF_DISCARD_BYTES:
        return col[DS_DISCARD_SECTORS] / 2;
    case DF_DISCARD_MERGE:
        return col[DS_DISCARD_MERGES];
    case DF_DISCARD_RAWACTIVE:
        return (uint32_t)col[DS_DISCARD_TICKS];
    case DF_FLUSH:
        return col[DS_FLUSHES];
    case DF_FLUSH_RAWACTIVE:
        return (uint32_t)col[DS_FLUSH_TICKS];
    default: /* DF_INFLIGHT */
        return (uint32_t)col[DS_IN_FLIGHT];
    }
}

uint64_t linux_net_value(const uint64_t col[ND_NCOLUMNS], int field)
{
    switch (field) {
    case NF_TOTAL_BYTES:
        return col[ND_RX_BYTES] + col[ND_TX_BYTES];
    case NF_TOTAL_PACKETS:
        return col[ND_RX_PACKETS] + col[ND_TX_PACKETS];
    case NF_TOTAL_ERRS:
        return col[ND_RX_ERRS] + col[ND_TX_ERRS];
    case NF_TOTAL_DROP:
        return col[ND_RX_DROP] + col[ND_TX_DROP];
    case NF_TOTAL_MCASTS:
        return col[ND_RX_MULTICAST];
    default:
        return col[field];
    }
}

/* The private data of an active entry of a cache instance domain, or NULL. */
static void *cached(int serial, unsigned int inst)
{
    void *priv = NULL;

    if (pmdaCacheLookup(LINUX_INDOM(serial), (int)inst, NULL, &priv) != PMDA_CACHE_ACTIVE)
        return NULL;
    return priv;
}

static const char *uname_field(const struct utsname *u, int field)
{
    switch (field) {
    case UN_RELEASE:
        return u->release;
    case UN_VERSION:
        return u->version;
    case UN_SYSNAME:
        return u->sysname;
    case UN_MACHINE:
        return u->machine;
    default:
        return u->nodename;
    }
}

/* kernel.all.load's instances are 1, 5 and 15 (minutes). */
static int load_value(unsigned int inst, pmAtomValue *atom)
{
    const proc_loadavg *l = &linux_state.loadavg;

    switch (inst) {
    case 1:
        atom->f = l->load[0];
        break;
    case 5:
        atom->f = l->load[1];
        break;
    case 15:
        atom->f = l->load[2];
        break;
    default:
        return PM_ERR_INST;
    }
    return PMDA_FETCH_STATIC;
}

/* kernel.all.{lastpid,runnable,nprocs}, kernel.all.{uptime,idletime}, kernel.uname.* */
static int small_value(const linux_metric *lm, pmAtomValue *atom)
{
    const linux_agent *a = &linux_state;

    switch (lm->kind) {
    case K_LOADINT:
        atom->ul = lm->arg == LA_LASTPID    ? a->loadavg.lastpid
                   : lm->arg == LA_RUNNABLE ? a->loadavg.runnable
                                            : a->loadavg.nprocs;
        return PMDA_FETCH_STATIC;
    case K_UPTIME:
        atom->d = lm->arg == 0 ? a->uptime.uptime : a->uptime.idletime;
        return PMDA_FETCH_STATIC;
    default: /* K_UNAME */
        if (!a->uts_ok)
            return PM_ERR_AGAIN;
        atom->cp = (char *)uname_field(&a->uts, lm->arg);
        return PMDA_FETCH_STATIC;
    }
}

/*
 * The fetch callback: one value of metric M for instance INST (PM_IN_NULL
 * for metrics without instances).  One case per kind, in linux.h's order;
 * the few lines each are kept together rather than split per kind.
 */
int linux_fetch_callback(pmdaMetric *m, unsigned int inst, pmAtomValue *atom)
{
    const linux_metric *lm = m->m_user;
    const linux_agent *a = &linux_state;
    int type = lm->desc.type;
    const void *p;
    uint64_t v;

    switch (lm->kind) {
    case K_CONST:
        return put(atom, type, lm->arg == C_HZ ? a->hz : a->pagesize);
    case K_CPU_ALL:
        return put(atom, type, proc_ticks_to_msec(cpu_ticks(&a->stat.all, lm->arg), a->hz));
    case K_CPU_PER:
        if (inst >= a->stat.nslots || !a->stat.seen[inst])
            return PM_ERR_INST;
        return put(atom, type, proc_ticks_to_msec(cpu_ticks(&a->stat.cpu[inst], lm->arg), a->hz));
    case K_STAT:
        return put(atom, type, stat_counter(&a->stat, lm->arg));
    case K_MEM:
        v = a->mem.v[lm->arg];
        return v == PROC_ABSENT ? PMDA_FETCH_NOVALUES : put(atom, type, v);
    case K_MEM_CALC:
        return mem_calc(&a->mem, lm->arg, &v) ? put(atom, type, v) : PMDA_FETCH_NOVALUES;
    case K_LOAD:
        return load_value(inst, atom);
    case K_DISK_DEV:
        if ((p = cached(DISK_INDOM, inst)) == NULL)
            return PM_ERR_INST;
        return put(atom, type, linux_disk_value(((const linux_disk *)p)->col, lm->arg));
    case K_DISK_ALL:
        return put(atom, type, a->disk_all[lm->arg]);
    case K_NDISK:
        return put(atom, type, a->ndisk);
    case K_NET_IF:
        if ((p = cached(NET_INDOM, inst)) == NULL)
            return PM_ERR_INST;
        return put(atom, type, linux_net_value(((const linux_netif *)p)->col, lm->arg));
    case K_NET_ALL:
        return put(atom, type, a->net_all[lm->arg]);
    case K_NINTERFACE:
        return put(atom, type, a->ninterface);
    default:
        return small_value(lm, atom);
    }
}
