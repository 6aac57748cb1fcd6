# pmkit_agent(NAME <name> SOURCES <files> DAEMON <files> [CONF <file>] [LIBS <targets>])
#
# Builds one agent into ${PMKIT_PMDAS_BUILD_DIR}/<name>, a directory laid out
# like $PCP_PMDAS_DIR/<name>:
#   pmda_<name>.so   the DSO (SOURCES; init function <name>_init), linked
#                    against pmkit's libpcp_pmda and libpcp
#   pmda<name>       the daemon (SOURCES plus DAEMON, which holds main())
#   pmns             the agent's namespace: its root file run through pmkit's
#                    pmcpp (root includes domain.h and pmns)
#   pmns.bin         that namespace compiled by pmkit's pmnscomp
#   help.dir/.pag    its help source compiled by pmkit's newhelp
#   CONF             copied as is (e.g. simple.conf)
# and installs all of these but the preprocessed pmns, whose place the
# source fragment pmns takes (beside the sources root, help and domain.h),
# under ${PMKIT_PMDAS_DIR}/<name>.  Expects root, pmns, help and domain.h in
# the calling directory.  SOURCES are compiled once (position-independent,
# as every target here) for both the DSO and the daemon; LIBS are linked
# into both and give SOURCES their headers.  The namespace and help commands are
# cmake/pmkitHelpers.cmake's, the ones agents built outside this tree use;
# their depfiles (pmns.d, pmns.bin.d, beside the outputs) make an edit to
# any file root includes rebuild them.
function(pmkit_agent)
  cmake_parse_arguments(A "" "NAME;CONF" "SOURCES;DAEMON;LIBS" ${ARGN})
  set(src ${CMAKE_CURRENT_SOURCE_DIR})
  set(out ${PMKIT_PMDAS_BUILD_DIR}/${A_NAME})
  set(dest ${PMKIT_PMDAS_DIR}/${A_NAME})

  add_library(pmda_${A_NAME}_objs OBJECT ${A_SOURCES})
  target_link_libraries(pmda_${A_NAME}_objs PRIVATE pcp_pmda pcp ${A_LIBS})

  add_library(pmda_${A_NAME} MODULE $<TARGET_OBJECTS:pmda_${A_NAME}_objs>)
  target_link_libraries(pmda_${A_NAME} PRIVATE ${A_LIBS} pcp_pmda pcp)
  set_target_properties(pmda_${A_NAME} PROPERTIES PREFIX "" LIBRARY_OUTPUT_DIRECTORY ${out})
  # Every symbol the DSO needs must come from pmkit's libraries (clang's
  # sanitizer runtimes are only linked into executables, so not there).
  if(CMAKE_C_COMPILER_ID STREQUAL "GNU" OR NOT (PMKIT_SANITIZE OR PMKIT_FUZZ))
    target_link_options(pmda_${A_NAME} PRIVATE -Wl,--no-undefined)
  endif()

  add_executable(pmda${A_NAME} $<TARGET_OBJECTS:pmda_${A_NAME}_objs> ${A_DAEMON})
  target_link_libraries(pmda${A_NAME} PRIVATE ${A_LIBS} pcp_pmda pcp)
  set_target_properties(pmda${A_NAME} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${out})

  # root includes domain.h and pmns from ${src}, root's own directory
  pcp_compile_pmns(OUTPUT ${out}/pmns.bin ASCII ${out}/pmns SOURCE ${src}/root)
  pcp_compile_help(OUTPUT ${out}/help SOURCES ${src}/help PMNS ${out}/pmns)
  set(files ${out}/pmns ${out}/pmns.bin ${out}/help.dir ${out}/help.pag)
  install(FILES ${out}/pmns.bin ${out}/help.dir ${out}/help.pag DESTINATION ${dest})
  if(A_CONF)
    configure_file(${src}/${A_CONF} ${out}/${A_CONF} COPYONLY)
    install(FILES ${src}/${A_CONF} DESTINATION ${dest})
  endif()
  add_custom_target(pmda_${A_NAME}_files ALL DEPENDS ${files})

  install(TARGETS pmda_${A_NAME} LIBRARY DESTINATION ${dest})
  install(TARGETS pmda${A_NAME} RUNTIME DESTINATION ${dest})
  install(FILES ${src}/root ${src}/pmns ${src}/help ${src}/domain.h DESTINATION ${dest})
endfunction()
