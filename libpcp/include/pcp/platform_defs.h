/*
 * pcp/platform_defs.h - pmkit's platform layer for the PCP-compatible headers.
 *
 * <pcp/pmapi.h> includes this first.  It pulls in the C library headers that
 * PCP programs (agents in particular) use without including them themselves,
 * and defines the small portability macros they rely on: oserror(),
 * setoserror(), MAXPATHLEN, the syslog LOG_* levels, the 64-bit limits and
 * the PCP_CALL / PCP_DATA export markers.
 *
 * The HAVE_* macros PCP's configure defines come from <pcp/config.h>,
 * which pmkit's build writes from checks of the machine it builds on
 * (cmake/platform.cmake); programs test them to choose their code.  The
 * other configuration macros of PCP's header (IS_LINUX, RETSIGTYPE,
 * mkdir2, ...) follow, with PCP's values for such a system.
 *
 * Target: POSIX systems with an LP64 or ILP32 C library.  There is no
 * Windows branch.
 */
#ifndef PCP_PLATFORM_DEFS_H
#define PCP_PLATFORM_DEFS_H

/* A strict ISO C compile (-std=c99) hides struct timespec and friends; ask
 * for POSIX.1-2008 when the program has not chosen a feature set itself.
 * This only takes effect if no system header was included before us. */
#if defined(__STRICT_ANSI__) && !defined(_POSIX_C_SOURCE) && !defined(_XOPEN_SOURCE) &&            \
    !defined(_GNU_SOURCE) && !defined(_DEFAULT_SOURCE) && !defined(_BSD_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include <stdlib.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <inttypes.h>
#include <errno.h>
#include <string.h>
#include <limits.h>
#include <unistd.h>
#include <fcntl.h>
#include <signal.h>
#include <syslog.h>
#include <sys/types.h>
#include <sys/param.h>
#include <sys/time.h>
#include <time.h>

#include "config.h"

#if defined(HAVE_ENDIAN_H)
#include <endian.h>
#endif
#if defined(HAVE_SYS_SOCKET_H)
#include <sys/socket.h>
#endif
#if defined(HAVE_LIBGEN_H)
#include <libgen.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The system, as PCP's configure names it. */
#if defined(__linux__)
#define IS_LINUX 1
#endif
#define STDC_HEADERS        1
#define TIME_WITH_SYS_TIME  1
#define YYTEXT_POINTER      1
#define GWINSZ_IN_SYS_IOCTL 1
#define RETSIGTYPE          void
#if defined(HAVE_TERMIOS_H) && defined(HAVE_TCGETATTR)
#define HAVE_TERMIO_SIGNALS
#endif
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define HAVE_NETWORK_BYTEORDER
#endif
#define PACKAGE_BUGREPORT ""
#define PACKAGE_NAME      ""
#define PACKAGE_STRING    ""
#define PACKAGE_TARNAME   ""
#define PACKAGE_URL       ""
#define PACKAGE_VERSION   ""

/* PCP release this API corresponds to: 6.0.3, encoded as PM_VERSION(6,0,3). */
#define PM_VERSION(a, b, c) (((a) << 16) | ((b) << 8) | (c))
#define PM_VERSION_CURRENT  393219

/* Symbols the libraries export; harmless on declarations in client code. */
#if defined(__GNUC__) && __GNUC__ >= 4
#define PCP_CALL __attribute__((visibility("default")))
#define PCP_DATA __attribute__((visibility("default")))
#else
#define PCP_CALL
#define PCP_DATA
#endif

/* errno access, spelled the PCP way. */
#define oserror()               errno
#define setoserror(n)           (errno = (n))
#define neterror()              errno
#define hosterror()             h_errno
#define osstrerror()            strerror(errno)
#define netstrerror()           strerror(errno)
#define osstrerror_r(buf, len)  pmErrStr_r(-errno, (buf), (len))
#define netstrerror_r(buf, len) pmErrStr_r(-errno, (buf), (len))

/* 64-bit limits under PCP's historic names. */
#ifndef LONGLONG_MAX
#define LONGLONG_MAX 9223372036854775807LL
#endif
#ifndef ULONGLONG_MAX
#define ULONGLONG_MAX 18446744073709551615ULL
#endif

#ifndef MAXPATHLEN
#ifdef PATH_MAX
#define MAXPATHLEN PATH_MAX
#else
#define MAXPATHLEN 4096
#endif
#endif
#ifndef MAXHOSTNAMELEN
#define MAXHOSTNAMELEN 256
#endif
#ifndef MAXNAMELEN
#define MAXNAMELEN FILENAME_MAX
#endif
#ifndef MAXDOMAINNAMELEN
#define MAXDOMAINNAMELEN 64
#endif
#ifndef MAXMACHINEIDLEN
#define MAXMACHINEIDLEN 256
#endif

/* Pointer-sized signed integer and a few printf helpers PMDAs use. */
typedef intptr_t __psint_t;
#define FMT_INT64   PRId64
#define FMT_UINT64  PRIu64
#define FMT_PID     "d"
#define FMT_PTHREAD "lu"
#ifdef HAVE_PRINTF_P_PFX
#define PRINTF_P_PFX ""
#else
#define PRINTF_P_PFX "0x"
#endif

#if defined(__LP64__) || defined(_LP64)
#define HAVE_64BIT_PTR  1
#define HAVE_64BIT_LONG 1
#else
#define HAVE_32BIT_PTR  1
#define HAVE_32BIT_LONG 1
#endif
#define PM_SIZEOF_TIME_T 8
#if defined(__LP64__) || defined(_LP64)
#define PM_SIZEOF_SUSECONDS_T 8
#else
#define PM_SIZEOF_SUSECONDS_T 4
#endif

typedef uid_t __pmUserID;
typedef gid_t __pmGroupID;
typedef socklen_t __pmSockLen;

/* Old spellings PCP's sources still use. */
typedef void (*SIG_PF)(int);
#ifndef WORD_BIT
#define WORD_BIT 32
#endif
#define hoststrerror()        hstrerror(h_errno)
#define flog10(x)             (float)log10((double)x)
#define mkdir2(path, mode)    mkdir(path, mode)
#define rename2(path, target) rename(path, target)
#define pipe1(fds)            pipe(fds)
#define strtoint64            strtoll
#define strtouint64           strtoull
#define uint_t                unsigned int
#ifdef HAVE_CONST_DIRENT
#define const_dirent const struct dirent
#else
#define const_dirent struct dirent
#endif
#ifndef FNDELAY
#define FNDELAY O_NDELAY
#endif
#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif
#ifndef FD_CLOEXEC
#define FD_CLOEXEC 0
#endif

#ifdef __cplusplus
}
#endif

#endif /* PCP_PLATFORM_DEFS_H */
