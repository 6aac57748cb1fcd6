# pmkit_agent(NAME <name> SOURCES <files> DAEMON <files> [CONF <file>])
#
# Builds one agent into ${PMKIT_PMDAS_BUILD_DIR}/<name>, a directory laid out
# like $PCP_PMDAS_DIR/<name>:
#   pmda_<name>.so   the DSO (SOURCES; init function <name>_init), linked
#                    against pmkit's libpcp_pmda and libpcp
#   pmda<name>       the daemon (SOURCES plus DAEMON, which holds main())
#   pmns             the agent's namespace: its root file run through pmkit's
#                    pmcpp (root includes domain.h and pmns)
#   pmns.bin         that namespace compiled by pmkit's pmnscomp, if built
#   help.dir/.pag    its help source compiled by pmkit's newhelp, if built
#   CONF             copied as is (e.g. simple.conf)
# and installs the same (with the sources of pmns, root, help and domain.h)
# under ${PMKIT_PMDAS_DIR}/<name>.  Expects root, pmns, help and domain.h in
# the calling directory.
function(pmkit_agent)
  cmake_parse_arguments(A "" "NAME;CONF" "SOURCES;DAEMON" ${ARGN})
  set(src ${CMAKE_CURRENT_SOURCE_DIR})
  set(out ${PMKIT_PMDAS_BUILD_DIR}/${A_NAME})
  set(dest ${PMKIT_PMDAS_DIR}/${A_NAME})

  add_library(pmda_${A_NAME} MODULE ${A_SOURCES})
  target_link_libraries(pmda_${A_NAME} PRIVATE pcp_pmda pcp)
  set_target_properties(pmda_${A_NAME} PROPERTIES PREFIX "" LIBRARY_OUTPUT_DIRECTORY ${out})
  # Every symbol the DSO needs must come from pmkit's libraries (clang's
  # sanitizer runtimes are only linked into executables, so not there).
  if(CMAKE_C_COMPILER_ID STREQUAL "GNU" OR NOT (PMKIT_SANITIZE OR PMKIT_FUZZ))
    target_link_options(pmda_${A_NAME} PRIVATE -Wl,--no-undefined)
  endif()

  add_executable(pmda${A_NAME} ${A_SOURCES} ${A_DAEMON})
  target_link_libraries(pmda${A_NAME} PRIVATE pcp_pmda pcp)
  set_target_properties(pmda${A_NAME} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${out})

  set(files ${out}/pmns)
  add_custom_command(
    OUTPUT ${out}/pmns
    COMMAND pmcpp -P ${src}/root ${out}/pmns
    # pmcpp looks for #include files in its working directory first, which
    # must not be ${out} (it holds the output, also called pmns)
    WORKING_DIRECTORY ${src}
    DEPENDS pmcpp ${src}/root ${src}/pmns ${src}/domain.h
    COMMENT "pmcpp: ${A_NAME} agent's namespace")
  if(TARGET pmnscomp)
    add_custom_command(
      OUTPUT ${out}/pmns.bin
      COMMAND pmnscomp -f -n ${out}/pmns ${out}/pmns.bin
      DEPENDS pmnscomp ${out}/pmns
      COMMENT "pmnscomp: ${A_NAME} agent's namespace")
    list(APPEND files ${out}/pmns.bin)
    install(FILES ${out}/pmns.bin DESTINATION ${dest})
  endif()
  if(TARGET newhelp)
    add_custom_command(
      OUTPUT ${out}/help.dir ${out}/help.pag
      COMMAND newhelp -n ${out}/pmns -o ${out}/help ${src}/help
      DEPENDS newhelp ${out}/pmns ${src}/help
      COMMENT "newhelp: ${A_NAME} agent's help text")
    list(APPEND files ${out}/help.dir ${out}/help.pag)
    install(FILES ${out}/help.dir ${out}/help.pag DESTINATION ${dest})
  endif()
  if(A_CONF)
    configure_file(${src}/${A_CONF} ${out}/${A_CONF} COPYONLY)
    install(FILES ${src}/${A_CONF} DESTINATION ${dest})
  endif()
  add_custom_target(pmda_${A_NAME}_files ALL DEPENDS ${files})

  install(TARGETS pmda_${A_NAME} LIBRARY DESTINATION ${dest})
  install(TARGETS pmda${A_NAME} RUNTIME DESTINATION ${dest})
  install(FILES ${src}/root ${src}/pmns ${src}/help ${src}/domain.h DESTINATION ${dest})
endfunction()
