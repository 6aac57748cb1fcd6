/*
 * proc_misc.c - the one-line files: /proc/loadavg ("0.14 1.17 1.60 3/96
 * 3163") and /proc/uptime ("8915.80 5533.95").
 *
 * Both are read with sscanf conversions, as PCP's agent reads them, so
 * out-of-range and partial input behave the same way: fields that do not
 * convert keep 0, numbers too large for an unsigned int keep their low
 * bits, floats overflow to infinity.
 */
#include "proc.h"

#include <stdio.h>
#include <string.h>

void proc_loadavg_parse(proc_loadavg *l, const char *text)
{
    memset(l, 0, sizeof *l);
    (void)sscanf(text, "%f %f %f %u/%u %u", &l->load[0], &l->load[1], &l->load[2], &l->runnable,
                 &l->nprocs, &l->lastpid);
}

void proc_uptime_parse(proc_uptime *u, const char *text)
{
    memset(u, 0, sizeof *u);
    (void)sscanf(text, "%lf %lf", &u->uptime, &u->idletime);
}
