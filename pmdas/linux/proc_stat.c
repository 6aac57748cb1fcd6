/*
 * proc_stat.c - /proc/stat: processor time per column, for the whole
 * system ("cpu") and per processor ("cpuN"), and the interrupt, context
 * switch, fork, boot time and run-queue counters.
 *
 * One pass over the lines; each line's first word picks what it is, the
 * way PCP's agent reads the file (see proc_stat_parse in proc.h).  The
 * per-processor arrays grow to the highest N seen (never to the configured
 * maximum, which can be thousands), and are kept between parses.  Not
 * read: "softirq" and the per-interrupt columns of "intr".  Keywords out
 * of the kernel's order are each found wherever they are (PCP's agent
 * then loses some; docs/compat.md).
 */
#include "proc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The single-number lines: the word naming each, and its field. */
static const struct {
    const char *word;
    size_t off; /* of the uint64_t in proc_stat */
} counters[] = {
    {"intr", offsetof(proc_stat, intr)},
    {"ctxt", offsetof(proc_stat, ctxt)},
    {"btime", offsetof(proc_stat, btime)},
    {"processes", offsetof(proc_stat, processes)},
    {"procs_running", offsetof(proc_stat, procs_running)},
    {"procs_blocked", offsetof(proc_stat, procs_blocked)},
};
#define NCOUNTERS (sizeof counters / sizeof counters[0])

static uint64_t *counter(proc_stat *s, size_t i)
{
    return (uint64_t *)((char *)s + counters[i].off);
}

static int word_is(const char *w, size_t len, const char *s)
{
    return strlen(s) == len && memcmp(w, s, len) == 0;
}

/* The columns of a cpu line, from P to END: as many as convert, the rest 0. */
static void read_columns(proc_cpu *c, const char *p, const char *end)
{
    memset(c, 0, sizeof *c);
    for (int i = 0; i < CPU_NCOLUMNS; i++)
        if (!proc_scan_ull(&p, end, &c->ticks[i]))
            break;
}

/* Makes cpu[id] and seen[id] exist. */
static int reserve(proc_stat *s, unsigned id)
{
    unsigned n = s->nslots ? s->nslots : 8;
    proc_cpu *cpu;
    unsigned char *seen;

    if (id < s->nslots)
        return 0;
    while (n <= id)
        n = n > UINT32_MAX / 2 ? id + 1 : n * 2;
    if ((cpu = realloc(s->cpu, n * sizeof *cpu)) == NULL)
        return -ENOMEM;
    s->cpu = cpu;
    if ((seen = realloc(s->seen, n)) == NULL)
        return -ENOMEM;
    memset(seen + s->nslots, 0, n - s->nslots);
    s->seen = seen;
    s->nslots = n;
    return 0;
}

/* Processor N of a line starting "cpuN": N as sscanf's "%u" stores it, then its columns. */
static int one_cpu(proc_stat *s, const char *line, const char *eol, unsigned maxcpu)
{
    const char *p = line + 3;
    uint64_t n = 0;
    unsigned id;
    int err;

    proc_scan_ull(&p, eol, &n);
    id = (unsigned)n;
    if (maxcpu <= 1 || id >= maxcpu)
        return 0;
    if ((err = reserve(s, id)) < 0)
        return err;
    read_columns(&s->cpu[id], p, eol);
    if (!s->seen[id]) {
        s->seen[id] = 1;
        s->ncpu++;
    }
    return 0;
}

static int starts_cpu(const char *line, const char *eol)
{
    return eol - line >= 3 && memcmp(line, "cpu", 3) == 0;
}

int proc_stat_parse(proc_stat *s, const char *text, size_t len, unsigned maxcpu)
{
    const char *p = text, *end = text + len, *line, *eol, *w;
    unsigned char done[NCOUNTERS] = {0};
    int first = 1, err;
    size_t wl;

    memset(&s->all, 0, sizeof s->all);
    if (s->nslots)
        memset(s->seen, 0, s->nslots);
    s->ncpu = 0;
    for (size_t i = 0; i < NCOUNTERS; i++)
        *counter(s, i) = 0;

    while (proc_next_line(&p, end, &line, &eol)) {
        const char *q = line;
        if (first && starts_cpu(line, eol))
            read_columns(&s->all, line + 3, eol);
        first = 0;
        if (starts_cpu(line, eol) && eol - line > 3 && line[3] >= '0' && line[3] <= '9') {
            if ((err = one_cpu(s, line, eol, maxcpu)) < 0)
                return err;
            continue;
        }
        /* keywords start the line (PCP's agent ignores indented ones too) */
        if (line == eol || *line == ' ' || *line == '\t' || !proc_next_word(&q, eol, &w, &wl))
            continue;
        for (size_t i = 0; i < NCOUNTERS; i++) {
            if (done[i] || !word_is(w, wl, counters[i].word))
                continue;
            proc_scan_ull(&q, eol, counter(s, i));
            done[i] = 1;
        }
    }
    if (maxcpu == 1) {
        if ((err = reserve(s, 0)) < 0)
            return err;
        s->cpu[0] = s->all;
        s->seen[0] = 1;
        s->ncpu = 1;
    }
    return 0;
}

void proc_stat_free(proc_stat *s)
{
    free(s->cpu);
    free(s->seen);
    memset(s, 0, sizeof *s);
}
