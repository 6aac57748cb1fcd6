# pkg-config files for libpcp and libpcp_pmda.
#  - build/lib/pkgconfig/*.pc describe the build tree (headers in the source
#    tree, libraries in build/lib), so benchmarks and out-of-tree tests can
#    compile against an uninstalled pmkit exactly as against Debian's PCP;
#  - the installed ones describe ${prefix}.
function(pmkit_pc name description requires libs prefix includedir libdir out)
  set(PC_NAME ${name})
  set(PC_DESCRIPTION ${description})
  set(PC_REQUIRES ${requires})
  set(PC_LIBS ${libs})
  set(PC_PREFIX ${prefix})
  set(PC_INCLUDEDIR ${includedir})
  set(PC_LIBDIR ${libdir})
  set(PC_VERSION ${PROJECT_VERSION})
  configure_file(${PROJECT_SOURCE_DIR}/share/pkgconfig.pc.in ${out} @ONLY)
endfunction()

set(_inc ${PROJECT_SOURCE_DIR}/libpcp/include)
set(_lib ${PROJECT_BINARY_DIR}/lib)
pmkit_pc(libpcp "Performance Co-Pilot PMAPI (pmkit)" "" "-lpcp"
         ${PROJECT_BINARY_DIR} ${_inc} ${_lib} ${_lib}/pkgconfig/libpcp.pc)
pmkit_pc(libpcp_pmda "Performance Co-Pilot PMDA library (pmkit)" "libpcp" "-lpcp_pmda"
         ${PROJECT_BINARY_DIR} ${_inc} ${_lib} ${_lib}/pkgconfig/libpcp_pmda.pc)

set(_pcdir ${PROJECT_BINARY_DIR}/pkgconfig-install)
pmkit_pc(libpcp "Performance Co-Pilot PMAPI (pmkit)" "" "-lpcp"
         ${CMAKE_INSTALL_PREFIX} "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}"
         "\${prefix}/${CMAKE_INSTALL_LIBDIR}" ${_pcdir}/libpcp.pc)
pmkit_pc(libpcp_pmda "Performance Co-Pilot PMDA library (pmkit)" "libpcp" "-lpcp_pmda"
         ${CMAKE_INSTALL_PREFIX} "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}"
         "\${prefix}/${CMAKE_INSTALL_LIBDIR}" ${_pcdir}/libpcp_pmda.pc)
install(FILES ${_pcdir}/libpcp.pc ${_pcdir}/libpcp_pmda.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
