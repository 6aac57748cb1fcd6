/*
 * stack.c - __pmDumpStack and __pmDumpStackInit (<pcp/libpcp.h>): the
 * calling thread's stack on stderr, as Debian's libpcp prints it (a
 * heading, then up to 32 frames from the dump itself outwards, each
 * "  FILE(SYMBOL+0xOFFSET)[ADDRESS]", or "  FILE(+0xOFFSET)[ADDRESS]" from
 * the file's base where no exported symbol covers the address: glibc's
 * backtrace_symbols form without its blank before '['; seen with
 * tests/oracle/probe_system.c).
 *
 * Not here: names of static functions (dladdr knows exported names only,
 * as for PCP), and signal handlers: __pmDumpStackInit installs none in
 * Debian's libpcp either.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* dladdr */
#endif
#include "support.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <stdint.h>
#include <stdio.h>

#include <pcp/libpcp.h>

#define STACK_DEPTH 32 /* frames Debian's dump shows at most */

static void print_frame(void *addr)
{
    Dl_info info;

    if (dladdr(addr, &info) == 0 || info.dli_fname == NULL)
        fprintf(stderr, "  [%p]\n", addr);
    else if (info.dli_sname != NULL && info.dli_saddr != NULL)
        fprintf(stderr, "  %s(%s+0x%lx)[%p]\n", info.dli_fname, info.dli_sname,
                (unsigned long)((uintptr_t)addr - (uintptr_t)info.dli_saddr), addr);
    else
        fprintf(stderr, "  %s(+0x%lx)[%p]\n", info.dli_fname,
                (unsigned long)((uintptr_t)addr - (uintptr_t)info.dli_fbase), addr);
}

void __pmDumpStack(void)
{
    void *frames[STACK_DEPTH];
    int n = backtrace(frames, STACK_DEPTH);

    fprintf(stderr, "Procedure call traceback ...\n");
    for (int i = 0; i < n; i++)
        print_frame(frames[i]);
}

/* Takes one trace so that glibc loads its unwinder now, not first in a
 * signal handler or with memory exhausted.  The argument is unused (PCP
 * ignores it too: nothing it is given changes what a dump prints). */
void __pmDumpStackInit(void *unused)
{
    void *frame;

    (void)unused;
    (void)backtrace(&frame, 1);
}
