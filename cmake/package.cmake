# The installed CMake package, man pages and run paths (included by
# cmake/pkgconfig.cmake, once every target exists).
#
#  - ${libdir}/cmake/pmkit: pmkitConfig.cmake (cmake/pmkitConfig.cmake.in),
#    pmkitConfigVersion.cmake (same major version, same pointer size),
#    pmkitTargets*.cmake (the export set "pmkit": the libraries and the
#    tools, as pmkit::<target>) and pmkitHelpers.cmake (pcp_compile_pmns,
#    pcp_compile_help, pcp_genmap, pcp_domain_header);
#  - share/man/man1 and man3 under ${CMAKE_INSTALL_MANDIR}, plus one
#    ".so" page for every other name in a man3 page's NAME section, made at
#    configure time so the list of names lives only in the pages;
#  - installed programs and libpcp_pmda find pmkit's libraries through a
#    run path relative to themselves ($ORIGIN), so an install under any
#    prefix uses its own libpcp and never the system's (Debian's libpcp.so.3
#    has the same soname).  PMKIT_INSTALL_RPATH=OFF leaves them without.
include(CMakePackageConfigHelpers)

option(PMKIT_INSTALL_RPATH "Installed programs find pmkit's libraries relative to themselves" ON)

set(PMKIT_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/pmkit)
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/pmkitConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/pmkitConfig.cmake
  INSTALL_DESTINATION ${PMKIT_CMAKE_DIR}
  PATH_VARS CMAKE_INSTALL_BINDIR CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_LIBDIR
            CMAKE_INSTALL_MANDIR PMKIT_PMDAS_DIR PMKIT_PC_PMNS_DIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cmake/pmkitConfigVersion.cmake
                                 COMPATIBILITY SameMajorVersion)
install(EXPORT pmkit NAMESPACE pmkit:: FILE pmkitTargets.cmake DESTINATION ${PMKIT_CMAKE_DIR})
install(FILES ${PROJECT_BINARY_DIR}/cmake/pmkitConfig.cmake
              ${PROJECT_BINARY_DIR}/cmake/pmkitConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/pmkitHelpers.cmake
        DESTINATION ${PMKIT_CMAKE_DIR})

# Run paths: executables in bindir, libpcp_pmda and libpcp_gui beside libpcp.
if(PMKIT_INSTALL_RPATH AND NOT IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}"
   AND NOT IS_ABSOLUTE "${CMAKE_INSTALL_BINDIR}")
  file(RELATIVE_PATH _rel /p/${CMAKE_INSTALL_BINDIR} /p/${CMAKE_INSTALL_LIBDIR})
  set_target_properties(pmcpp pmerr pminfo pmgenmap newhelp chkhelp pmnscomp pmnsmerge pmnsadd
                        pmnsdel pmval
                        PROPERTIES INSTALL_RPATH "$ORIGIN/${_rel}")
  set_target_properties(pcp_pmda pcp_gui PROPERTIES INSTALL_RPATH "$ORIGIN")
endif()

# Man pages, and the .so pages of the other names of each man3 page.
file(GLOB PMKIT_MAN1 ${PROJECT_SOURCE_DIR}/share/man/man1/*.1)
file(GLOB PMKIT_MAN3 ${PROJECT_SOURCE_DIR}/share/man/man3/*.3)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PMKIT_MAN3})
set(PMKIT_MAN_ALIASES)
foreach(page ${PMKIT_MAN3})
  get_filename_component(self ${page} NAME_WE)
  file(READ ${page} text)
  # The NAME paragraph: "name, name, ... \- summary".
  if(NOT text MATCHES "\n\\.SH NAME\n([^\n]*(\n[^.][^\n]*)*)")
    message(FATAL_ERROR "${page}: no NAME section")
  endif()
  string(REGEX REPLACE "\\\\-.*" "" names "${CMAKE_MATCH_1}")
  string(REGEX REPLACE "[ \t\n]" "" names "${names}")
  string(REPLACE "\\" "" names "${names}")
  string(REPLACE "," ";" names "${names}")
  foreach(name ${names})
    if(NOT name STREQUAL self)
      file(CONFIGURE OUTPUT ${PROJECT_BINARY_DIR}/man/man3/${name}.3
           CONTENT ".so man3/${self}.3\n" @ONLY)
      list(APPEND PMKIT_MAN_ALIASES ${PROJECT_BINARY_DIR}/man/man3/${name}.3)
    endif()
  endforeach()
endforeach()
install(FILES ${PMKIT_MAN1} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${PMKIT_MAN3} ${PMKIT_MAN_ALIASES} DESTINATION ${CMAKE_INSTALL_MANDIR}/man3)
