# pkg-config files for libpcp and libpcp_pmda, and (cmake/package.cmake)
# the CMake package, the man pages and the run paths of installed programs.
#  - build/lib/pkgconfig/*.pc describe the build tree (headers in the source
#    tree, libraries in build/lib, tools in build/bin), so benchmarks and
#    out-of-tree tests can compile against an uninstalled pmkit exactly as
#    against Debian's PCP;
#  - the installed ones are relocatable: prefix is found from the .pc
#    file's own directory (${pcfiledir}), so `cmake --install --prefix`
#    and DESTDIR staging need no rewriting.
# Besides Cflags and Libs both carry PCP's directory names (pcp_bin_dir,
# pcp_binadm_dir, pcp_var_dir, pcp_pmdas_dir, pcp_pmns_dir), the default
# pcp_conf and one variable per tool (pmcpp, pmnscomp, pmnsmerge, pmnsadd,
# pmnsdel, newhelp, chkhelp, pmgenmap, pminfo, pmerr) holding its path, for
# make and meson users.

# Where agents install (PMKIT_PMDAS_DIR, a cache variable of
# pmdas/CMakeLists.txt) and the namespace directory beside it.
get_filename_component(PMKIT_PC_VAR_DIR ${PMKIT_PMDAS_DIR} DIRECTORY)
set(PMKIT_PC_PMNS_DIR ${PMKIT_PC_VAR_DIR}/pmns)

# One .pc file; the PC_* variables of the caller describe the layout.
function(pmkit_pc name description requires libs out)
  set(PC_NAME ${name})
  set(PC_DESCRIPTION ${description})
  set(PC_REQUIRES ${requires})
  set(PC_LIBS ${libs})
  set(PC_VERSION ${PROJECT_VERSION})
  set(PC_PCP_CONF ${PMKIT_PCP_CONF})
  configure_file(${PROJECT_SOURCE_DIR}/share/pkgconfig.pc.in ${out} @ONLY)
endfunction()

# ${prefix}-relative form of an install directory (absolute ones stay).
function(pmkit_pc_dir var dir)
  if(IS_ABSOLUTE "${dir}")
    set(${var} "${dir}" PARENT_SCOPE)
  else()
    set(${var} "\${prefix}/${dir}" PARENT_SCOPE)
  endif()
endfunction()

function(pmkit_pc_pair dir)
  pmkit_pc(libpcp "Performance Co-Pilot PMAPI (pmkit)" "" "-lpcp" ${dir}/libpcp.pc)
  pmkit_pc(libpcp_pmda "Performance Co-Pilot PMDA library (pmkit)" "libpcp" "-lpcp_pmda"
           ${dir}/libpcp_pmda.pc)
endfunction()

# The build tree.
set(PC_PREFIX ${PROJECT_BINARY_DIR})
set(PC_INCLUDEDIR ${PMKIT_INCLUDE_DIR})
set(PC_LIBDIR ${PROJECT_BINARY_DIR}/lib)
set(PC_BINDIR ${PROJECT_BINARY_DIR}/bin)
set(PC_MANDIR ${PROJECT_SOURCE_DIR}/share/man)
set(PC_VAR_DIR ${PROJECT_BINARY_DIR})
set(PC_PMDAS_DIR ${PROJECT_BINARY_DIR}/pmdas)
set(PC_PMNS_DIR ${PROJECT_BINARY_DIR}/pmns)
pmkit_pc_pair(${PROJECT_BINARY_DIR}/lib/pkgconfig)

# The installed tree, relative to the .pc file's directory.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(PC_PREFIX ${CMAKE_INSTALL_PREFIX})
else()
  file(RELATIVE_PATH _up /p/${CMAKE_INSTALL_LIBDIR}/pkgconfig /p)
  string(REGEX REPLACE "/$" "" _up "${_up}")
  set(PC_PREFIX "\${pcfiledir}/${_up}")
endif()
pmkit_pc_dir(PC_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR})
pmkit_pc_dir(PC_LIBDIR ${CMAKE_INSTALL_LIBDIR})
pmkit_pc_dir(PC_BINDIR ${CMAKE_INSTALL_BINDIR})
pmkit_pc_dir(PC_MANDIR ${CMAKE_INSTALL_MANDIR})
pmkit_pc_dir(PC_VAR_DIR ${PMKIT_PC_VAR_DIR})
pmkit_pc_dir(PC_PMDAS_DIR ${PMKIT_PMDAS_DIR})
pmkit_pc_dir(PC_PMNS_DIR ${PMKIT_PC_PMNS_DIR})
set(_pcdir ${PROJECT_BINARY_DIR}/pkgconfig-install)
pmkit_pc_pair(${_pcdir})
install(FILES ${_pcdir}/libpcp.pc ${_pcdir}/libpcp_pmda.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

include(${CMAKE_CURRENT_LIST_DIR}/package.cmake)
