/* a PMNS whose content depends on #if and nested conditionals */
#include "inc/stdpmid.h"
#define KERNEL_VERSION 6
root {
    kernel
#if defined(MMV) && MMV > 0
    mmv		MMV:*:*
#endif
}
kernel {
#if KERNEL_VERSION >= 5
    pressure
#elif KERNEL_VERSION >= 4
    legacy
#endif
#ifdef PROC
#ifndef NO_PROC
    proc	PROC:0:0
#endif
#endif
}
