# The configuration part of <pcp/platform_defs.h>: which headers, functions,
# types and features this machine's C library has, under the HAVE_* names
# PCP's configure gives them, written to <pcp/config.h> in the build tree's
# include directory (installed beside the other headers).
#
# PCP programs test these macros to choose code (sample.c's sysinfo and
# stat times, a test's statvfs), so each must say the truth about the
# machine the program is built on: every one is checked here, none is
# copied from Debian's build.  The checks are batched to keep configure
# quick: one preprocessor run answers every header (__has_include), one
# compile and link answers every other check when all of them hold, and
# only when that fails is each one tried alone.
#
# Not here: the macros of features pmkit itself does not have (secure
# sockets, compressed archives, readline and the other libraries PCP's own
# programs link): they stay undefined (docs/compat.md).

# name -> header, for HAVE_<name>.
set(pmkit_platform_headers
  ARPA_INET_H arpa/inet.h  AVAHI_COMMON_ALTERNATIVE_H avahi-common/alternative.h
  BITS_WORDSIZE_H bits/wordsize.h  CURSES_H curses.h  DIRENT_H dirent.h  DLFCN_H dlfcn.h
  ENDIAN_H endian.h  EXECINFO_H execinfo.h  FCNTL_H fcntl.h  FTS_H fts.h  GRP_H grp.h
  INFINIBAND_MAD_H infiniband/mad.h  INFINIBAND_UMAD_H infiniband/umad.h
  INTTYPES_H inttypes.h  LIBGEN_H libgen.h  LIMITS_H limits.h
  LINUX_PERF_EVENT_H linux/perf_event.h  LZMA_H lzma.h  MALLOC_H malloc.h  MATH_H math.h
  NCURSESW_CURSES_H ncursesw/curses.h  NCURSES_H ncurses.h  NETDB_H netdb.h
  NETINET_IN_H netinet/in.h  NETINET_TCP_H netinet/tcp.h  NET_IF_H net/if.h
  PERFMON_PFMLIB_PERF_EVENT_H perfmon/pfmlib_perf_event.h  POLL_H poll.h
  PTHREAD_H pthread.h  PWD_H pwd.h  REGEX_H regex.h  SCHED_H sched.h  STDDEF_H stddef.h
  STDINT_H stdint.h  STDLIB_H stdlib.h  STRINGS_H strings.h  STRING_H string.h
  SYSLOG_H syslog.h  SYSTEMD_SD_DAEMON_H systemd/sd-daemon.h  SYS_IOCTL_H sys/ioctl.h
  SYS_MMAN_H sys/mman.h  SYS_MOUNT_H sys/mount.h  SYS_PRCTL_H sys/prctl.h
  SYS_RESOURCE_H sys/resource.h  SYS_SELECT_H sys/select.h  SYS_SOCKET_H sys/socket.h
  SYS_STATFS_H sys/statfs.h  SYS_STATVFS_H sys/statvfs.h  SYS_STAT_H sys/stat.h
  SYS_SYSINFO_H sys/sysinfo.h  SYS_TERMIOS_H sys/termios.h  SYS_TIMES_H sys/times.h
  SYS_TYPES_H sys/types.h  SYS_UN_H sys/un.h  SYS_WAIT_H sys/wait.h  TERMIOS_H termios.h
  TERMIO_H termio.h  UNISTD_H unistd.h  VALUES_H values.h)

# name -> header: the function (or macro) in lower case is declared there
# and links.
set(pmkit_platform_functions
  ATEXIT stdlib.h  BACKTRACE execinfo.h  BASENAME libgen.h  BRK unistd.h  CHOWN unistd.h
  CLOCK_GETTIME time.h  DIRNAME libgen.h  DLOPEN dlfcn.h  FCHMOD sys/stat.h
  FCHOWN unistd.h  FCNTL fcntl.h  FPCLASSIFY math.h  GETCWD unistd.h
  GETDOMAINNAME unistd.h  GETGID unistd.h  GETGRENT grp.h  GETGRENT_R grp.h
  GETGRGID grp.h  GETGRGID_R grp.h  GETGRNAM grp.h  GETGRNAM_R grp.h
  GETHOSTNAME unistd.h  GETPWENT pwd.h  GETPWENT_R pwd.h  GETPWNAM pwd.h
  GETPWNAM_R pwd.h  GETPWUID pwd.h  GETPWUID_R pwd.h  GETRUSAGE sys/resource.h
  GETUID unistd.h  IOCTL sys/ioctl.h  KILL signal.h  MEMALIGN malloc.h  MKSTEMP stdlib.h
  MKTIME time.h  NANOSLEEP time.h  PIPE2 unistd.h  POSIX_MEMALIGN stdlib.h  POW math.h
  PRCTL sys/prctl.h  RECVMSG sys/socket.h  REGCOMP regex.h  REGEXEC regex.h
  SBRK unistd.h  SCANDIR dirent.h  SELECT sys/select.h  SENDMSG sys/socket.h
  SETLINEBUF stdio.h  SETNS sched.h  SIGHOLD signal.h  SIGNAL signal.h
  SIGRELSE signal.h  SOCKET sys/socket.h  STRCHRNUL string.h  STRNDUP string.h
  STRTOD stdlib.h  STRTOL stdlib.h  STRTOLL stdlib.h  STRTOULL stdlib.h
  SYSINFO sys/sysinfo.h  SYSLOG syslog.h  TCGETATTR termios.h  UNAME sys/utsname.h
  UNSETENV stdlib.h  USLEEP unistd.h  VALLOC stdlib.h  VPRINTF stdio.h  WAIT3 sys/wait.h
  WAITPID sys/wait.h)

# name -> a C body (inside a function; headers from the list above that
# this machine has are included first, _GNU_SOURCE defined) that must
# compile and link.  '@' stands for ';' (CMake lists).
set(pmkit_platform_snippets
  __CLONE "extern int __clone(int (*)(void *), void *, int, void *, ...)@ return __clone != 0@"
  ETEXT "extern char etext@ return &etext != 0@"
  _ETEXT "extern char _etext@ return &_etext != 0@"
  __ETEXT "extern char __etext@ return &__etext != 0@"
  __EXECUTABLE_START "extern char __executable_start@ return &__executable_start != 0@"
  GID_T "gid_t v = 0@ return (int)v@"
  UID_T "uid_t v = 0@ return (int)v@"
  SOCKLEN_T "socklen_t v = 0@ return (int)v@"
  PTRDIFF_T "ptrdiff_t v = 0@ return (int)v@"
  PTHREAD_MUTEX_T "pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER@ return pthread_mutex_lock(&m)@"
  PTHREAD_BARRIER_T "pthread_barrier_t b@ return pthread_barrier_init(&b, 0, 1)@"
  STRUCT_SOCKADDR_UN "struct sockaddr_un s@ s.sun_family = AF_UNIX@ return (int)sizeof(s.sun_path)@"
  STRUCT_TIMESPEC "struct timespec t = {0, 0}@ return (int)t.tv_nsec@"
  STRUCT_UCRED "struct ucred u@ u.pid = 0@ return (int)u.pid@"
  AI_ADDRCONFIG "return AI_ADDRCONFIG@"
  CAST_U64_DOUBLE "unsigned long long u = 3@ double d = (double)u@ return (int)d@"
  CONST_DIRENT "struct dirent **l@ int (*f)(const struct dirent *) = 0@ return scandir(\".\", &l, f, alphasort)@"
  CONST_LONGLONG "long long v = 1LL@ return (int)v@"
  DIRENT_D_OFF "struct dirent d@ d.d_off = 0@ return (int)d.d_off@"
  FNDELAY "return FNDELAY@"
  PR_SET_PDEATHSIG "return prctl(PR_SET_PDEATHSIG, 0)@"
  SA_SIGINFO "struct sigaction s@ s.sa_flags = SA_SIGINFO@ return s.sa_flags@"
  SIGBUS "return SIGBUS@"
  SIGHUP "return SIGHUP@"
  SIGPIPE "return SIGPIPE@"
  STAT_TIMESPEC "struct stat s@ s.st_mtim.tv_nsec = 0@ return (int)s.st_mtim.tv_sec@"
  STRERROR_R_PTR "char b[8]@ char *p = strerror_r(1, b, sizeof(b))@ return p != 0@"
  __THREAD "static __thread int v@ return v@")

# name -> header -> body: checks that include that one header alone.
set(pmkit_platform_alone
  WAIT_INCLUDES_SIGNAL sys/wait.h "return SIGKILL@")

# Checks whose answer needs the program to run: printf's %p (PCP's
# PRINTF_P_PFX is "" when %p already prints 0x), strftime's %z, and
# whether <sys/wait.h> brings in <signal.h>'s names.
set(pmkit_platform_runs
  PRINTF_P_PFX "char b[32]@ snprintf(b, sizeof(b), \"%p\", (void *)b)@ return !(b[0] == '0' && b[1] == 'x')@"
  STRFTIME_z "char b[32]@ struct tm t = {0}@ return strftime(b, sizeof(b), \"%z\", &t) == 5 ? 0 : 1@")

# pmkit_platform_header_checks(OUT): HAVE_ names of the headers this
# machine has, from one preprocessor run.
function(pmkit_platform_header_checks out)
  set(src "")
  set(i 0)
  list(LENGTH pmkit_platform_headers n)
  while(i LESS n)
    list(GET pmkit_platform_headers ${i} name)
    math(EXPR j "${i} + 1")
    list(GET pmkit_platform_headers ${j} hdr)
    string(APPEND src "#if __has_include(<${hdr}>)\nint pmkit_have_${name};\n#endif\n")
    math(EXPR i "${i} + 2")
  endwhile()
  set(file ${CMAKE_BINARY_DIR}/CMakeFiles/pmkit_platform_headers.c)
  file(WRITE ${file} "${src}")
  execute_process(COMMAND ${CMAKE_C_COMPILER} -E ${file}
                  OUTPUT_VARIABLE cpp RESULT_VARIABLE rc ERROR_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "platform: ${CMAKE_C_COMPILER} cannot preprocess __has_include")
  endif()
  string(REGEX MATCHALL "pmkit_have_[A-Za-z0-9_]+" found "${cpp}")
  string(REPLACE "pmkit_have_" "" found "${found}")
  set(${out} ${found} PARENT_SCOPE)
endfunction()

# pmkit_platform_source(OUT NAMES BODIES HEADERS [RUN]): a program with
# one function per check, each body from BODIES (same order as NAMES).
function(pmkit_platform_source out names bodies headers)
  set(src "#define _GNU_SOURCE 1\n")
  foreach(h IN LISTS headers)
    string(APPEND src "#include <${h}>\n")
  endforeach()
  set(calls "")
  foreach(name body IN ZIP_LISTS names bodies)
    string(REPLACE "@" ";" body "${body}")
    string(APPEND src "int check_${name}(void);\nint check_${name}(void) { ${body} }\n")
    string(APPEND calls "    r |= check_${name}();\n")
  endforeach()
  string(APPEND src "int main(void)\n{\n    int r = 0;\n${calls}    return r;\n}\n")
  set(${out} "${src}" PARENT_SCOPE)
endfunction()

# pmkit_platform_try(OUT NAMES BODIES HEADERS LIBS RUN): the names whose
# checks hold; all in one program first, one by one if that fails.
function(pmkit_platform_try out names bodies headers libs run)
  set(dir ${CMAKE_BINARY_DIR}/CMakeFiles/pmkit_platform)
  set(ok "")
  pmkit_platform_source(src "${names}" "${bodies}" "${headers}")
  file(WRITE ${dir}/all.c "${src}")
  if(run)
    try_run(rrc crc SOURCES ${dir}/all.c LINK_LIBRARIES ${libs})
    set(all_ok FALSE)
    if(crc AND rrc EQUAL 0)
      set(all_ok TRUE)
    endif()
  else()
    try_compile(all_ok SOURCES ${dir}/all.c LINK_LIBRARIES ${libs})
  endif()
  if(all_ok)
    set(${out} ${names} PARENT_SCOPE)
    return()
  endif()
  foreach(name body IN ZIP_LISTS names bodies)
    pmkit_platform_source(src "${name}" "${body}" "${headers}")
    file(WRITE ${dir}/${name}.c "${src}")
    if(run)
      try_run(rrc crc SOURCES ${dir}/${name}.c LINK_LIBRARIES ${libs})
      if(crc AND rrc EQUAL 0)
        list(APPEND ok ${name})
      endif()
    else()
      try_compile(one SOURCES ${dir}/${name}.c LINK_LIBRARIES ${libs})
      if(one)
        list(APPEND ok ${name})
      endif()
    endif()
  endforeach()
  set(${out} ${ok} PARENT_SCOPE)
endfunction()

# pmkit_platform_config(FILE): run every check (cached) and write FILE.
function(pmkit_platform_config file)
  if(NOT DEFINED PMKIT_PLATFORM_HAVE)
    pmkit_platform_header_checks(have)
    # The headers this machine has, for the programs below.
    set(headers "")
    set(i 0)
    list(LENGTH pmkit_platform_headers n)
    while(i LESS n)
      list(GET pmkit_platform_headers ${i} name)
      math(EXPR j "${i} + 1")
      list(GET pmkit_platform_headers ${j} hdr)
      # Other libraries' headers and the old <termio.h> (whose names clash
      # with <termios.h>'s) stay out of the shared program: they are only
      # asked whether they exist.
      if(name IN_LIST have AND NOT name MATCHES "AVAHI|INFINIBAND|PERFMON|SYSTEMD|LZMA|CURSES|LINUX_PERF|^TERMIO_H$")
        list(APPEND headers ${hdr})
      endif()
      math(EXPR i "${i} + 2")
    endwhile()
    # ... and those of the C library every POSIX system has.
    list(APPEND headers stdio.h signal.h time.h sys/utsname.h)
    # Functions: a pointer to each, so that it must be declared and link.
    set(names "")
    set(bodies "")
    set(i 0)
    list(LENGTH pmkit_platform_functions n)
    while(i LESS n)
      list(GET pmkit_platform_functions ${i} name)
      math(EXPR j "${i} + 1")
      list(GET pmkit_platform_functions ${j} hdr)
      if(hdr IN_LIST headers)
        string(TOLOWER ${name} fn)
        list(APPEND names ${name})
        if(name STREQUAL "FPCLASSIFY")
          list(APPEND bodies "volatile double d = 1.0@ return fpclassify(d) == FP_NAN@")
        else()
          list(APPEND bodies "void (*volatile p)(void) = (void (*)(void))${fn}@ return p == 0@")
        endif()
      endif()
      math(EXPR i "${i} + 2")
    endwhile()
    pmkit_platform_try(fn_ok "${names}" "${bodies}" "${headers}" "m;Threads::Threads" FALSE)
    list(APPEND have ${fn_ok})
    # Types, members, macros and link-time symbols.
    set(names "")
    set(bodies "")
    list(LENGTH pmkit_platform_snippets n)
    set(i 0)
    while(i LESS n)
      list(GET pmkit_platform_snippets ${i} name)
      math(EXPR j "${i} + 1")
      list(GET pmkit_platform_snippets ${j} body)
      list(APPEND names ${name})
      list(APPEND bodies "${body}")
      math(EXPR i "${i} + 2")
    endwhile()
    pmkit_platform_try(sn_ok "${names}" "${bodies}" "${headers}" "Threads::Threads" FALSE)
    list(APPEND have ${sn_ok})
    # Checks of one header alone (<sys/wait.h> must bring <signal.h>'s
    # names in by itself).
    list(LENGTH pmkit_platform_alone n)
    set(i 0)
    while(i LESS n)
      list(GET pmkit_platform_alone ${i} name)
      math(EXPR j "${i} + 1")
      list(GET pmkit_platform_alone ${j} hdr)
      math(EXPR j "${i} + 2")
      list(GET pmkit_platform_alone ${j} body)
      pmkit_platform_try(one_ok ${name} "${body}" ${hdr} "" FALSE)
      list(APPEND have ${one_ok})
      math(EXPR i "${i} + 3")
    endwhile()
    set(names "")
    set(bodies "")
    list(LENGTH pmkit_platform_runs n)
    set(i 0)
    while(i LESS n)
      list(GET pmkit_platform_runs ${i} name)
      math(EXPR j "${i} + 1")
      list(GET pmkit_platform_runs ${j} body)
      list(APPEND names ${name})
      list(APPEND bodies "${body}")
      math(EXPR i "${i} + 2")
    endwhile()
    if(NOT CMAKE_CROSSCOMPILING)
      pmkit_platform_try(run_ok "${names}" "${bodies}" "${headers}" "" TRUE)
      list(APPEND have ${run_ok})
    endif()
    # The library functions above need libm on this machine?
    include(CheckLibraryExists)
    check_library_exists(m pow "" PMKIT_HAVE_LIBM)
    if(PMKIT_HAVE_LIBM)
      list(APPEND have LIBM)
    endif()
    set(PMKIT_PLATFORM_HAVE "${have}" CACHE INTERNAL "HAVE_* of <pcp/config.h>")
  endif()
  set(text "/*\n * pcp/config.h - what this machine's C library has, under the HAVE_*\n")
  string(APPEND text " * names of PCP's configure: written by pmkit's build (cmake/platform.cmake)\n")
  string(APPEND text " * from checks run on the machine that built it.  <pcp/platform_defs.h>\n")
  string(APPEND text " * includes it.\n */\n#ifndef PCP_CONFIG_H\n#define PCP_CONFIG_H\n\n")
  set(sorted ${PMKIT_PLATFORM_HAVE})
  list(SORT sorted)
  foreach(name IN LISTS sorted)
    string(APPEND text "#define HAVE_${name} 1\n")
  endforeach()
  string(APPEND text "\n#endif /* PCP_CONFIG_H */\n")
  file(CONFIGURE OUTPUT ${file} CONTENT "${text}" @ONLY)
endfunction()
