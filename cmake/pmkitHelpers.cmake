# pmkitHelpers.cmake - build a PMDA's namespace, help text, metric maps and
# domain header with pmkit's tools.  Installed with the pmkit CMake package;
# find_package(pmkit) includes it after defining the imported tools
# (pmkit::pmnscomp, pmkit::pmcpp, pmkit::pmnsmerge, pmkit::newhelp,
# pmkit::pmgenmap).
#
#   pcp_domain_header(OUTPUT <file> NAMES <NAME>... [STDPMID <file>...] [TARGET <t>])
#       domain.h: "#define NAME number" for each NAME, looked up in the
#       stdpmid files (lines "NAME number" or "#define NAME number"; default
#       ${pmkit_PMNS_DIR}/stdpmid, else /var/lib/pcp/pmns/stdpmid).
#   pcp_compile_pmns(OUTPUT <image> SOURCE <root> [ASCII <file>]
#                    [DEFINES <name[=value]>...] [INCLUDE_DIRS <dir>...]
#                    [DUPLICATES] [DEPENDS <file>...] [TARGET <t>])
#       pmnscomp: the namespace image; ASCII also writes the preprocessed
#       text (pmcpp -P), the form PCP's own tools read.  Both commands write
#       a depfile, so editing any #include'd file rebuilds them.
#   pcp_merge_pmns(OUTPUT <root> SOURCES <file>... [BASE <file>] [IMAGE]
#                  [ORDERED] [NODUPS] [DEPENDS <file>...] [TARGET <t>])
#       pmnsmerge: one namespace from several whole ones (root_* files),
#       as $PCP_VAR_DIR/pmns/Rebuild makes the system's: BASE (default an
#       empty "root { }", Rebuild's start) merged with the SOURCES in
#       their _DATESTAMP order (ORDERED: as listed, pmnsmerge -a); ASCII,
#       or with IMAGE a namespace image; NODUPS refuses duplicate PMIDs
#       (-x).
#   pcp_compile_help(OUTPUT <base> SOURCES <file>... PMNS <pmns>
#                    [STRICT] [DEPENDS <file>...] [TARGET <t>])
#       newhelp: <base>.dir and <base>.pag.  Any diagnostic fails the
#       build: newhelp writes nothing after an error (exit 2), and writes
#       the database after warnings only (exit 1); either way the command
#       runs again at the next build.  A key given twice follows PCP's rule
#       (newhelp(1)); STRICT (newhelp -S) refuses every repeat.
#   pcp_genmap(OUTPUT <header> SOURCE <spec> [PMNS <pmns>] [GUARD <macro>]
#              [DEPENDS <file>...] [TARGET <t>])
#       pmgenmap: a C header of metric names; with PMNS every name is
#       checked against the namespace.  The header's date is
#       $SOURCE_DATE_EPOCH at build time, 0 (1970) when that is unset, so
#       the header is reproducible.
#
# Paths: a relative OUTPUT is in CMAKE_CURRENT_BINARY_DIR; a relative input
# is in CMAKE_CURRENT_SOURCE_DIR if it exists there, else it must be the
# output of an earlier command of this directory (e.g. the domain.h or the
# image made just before).  TARGET adds a target (built by "all") that
# depends on the outputs; without it, list the outputs in some target.
#
# Include files: pmnscomp and pmcpp look for '#include "x"' in their
# working directory, then in the directory of the root, then in each -I
# directory.  They run in an empty directory (so an output never shadows a
# source of the same name, and every path in the depfiles is absolute),
# with INCLUDE_DIRS and then CMAKE_CURRENT_BINARY_DIR as -I: a root's
# '#include "domain.h"' finds a generated domain.h.  newhelp and pmgenmap
# read PMNS without -I, so give them the image (or ASCII) that
# pcp_compile_pmns made rather than a root that includes generated files.
#
# Diagnostics: the tools run with PMKIT_DIAGNOSTICS set to
# PMKIT_HELPERS_DIAGNOSTICS, "rich" unless the project sets it: messages as
# file:line:col: with the source line, every error of a run, as compilers
# write them (a build's output is seldom a terminal); "pcp" gives PCP's
# messages, and an empty value leaves the choice to the environment.
#
# The same file runs as a script (cmake -P) for the two steps that are not
# a single tool run: writing domain.h and running pmgenmap with a fixed
# date.  Not here: installing the files (use install(FILES)) and the PMDA's
# Install/Remove scripts.
if(CMAKE_VERSION VERSION_LESS 3.20)
  message(FATAL_ERROR "pmkitHelpers.cmake needs CMake 3.20 or later (DEPFILE)")
endif()
# The functions keep the policies in force here (include() gives this file
# its own policy scope), whatever the calling project asked for.
cmake_policy(VERSION 3.20...3.25)

# Script mode: cmake -DPMKIT_STEP=domain|genmap ... -P pmkitHelpers.cmake.
if(CMAKE_SCRIPT_MODE_FILE AND DEFINED PMKIT_STEP)
  # Lists come joined with "|" (a ";" would split the command line).
  string(REPLACE "|" ";" names "${NAMES}")
  string(REPLACE "|" ";" stdpmid "${STDPMID}")
  if(PMKIT_STEP STREQUAL "domain")
    # Every NAME's domain number from the stdpmid files, first file first.
    foreach(file IN LISTS stdpmid)
      file(STRINGS "${file}" lines)
      set(lineno 0)
      foreach(line IN LISTS lines)
        math(EXPR lineno "${lineno} + 1")
        if(NOT line MATCHES "^[ \t]*(#define[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)[ \t]+([0-9]+)[ \t]*$")
          continue()
        endif()
        set(name "${CMAKE_MATCH_2}")
        set(number "${CMAKE_MATCH_3}")
        if(number GREATER 510)
          message(FATAL_ERROR "${file}:${lineno}: domain ${number} of ${name} is over 510")
        endif()
        if(DEFINED domain_${name} AND NOT domain_${name} EQUAL number)
          message(FATAL_ERROR "${file}:${lineno}: ${name} is ${number} here but "
                              "${domain_${name}} at ${where_${name}}")
        endif()
        if(NOT DEFINED domain_${name})
          set(domain_${name} ${number})
          set(where_${name} "${file}:${lineno}")
        endif()
      endforeach()
    endforeach()
    set(text "/* Performance metrics domain numbers, from stdpmid (pcp_domain_header). */\n")
    foreach(name IN LISTS names)
      if(NOT DEFINED domain_${name})
        string(REPLACE ";" ", " files "${stdpmid}")
        message(FATAL_ERROR "pcp_domain_header: ${name} is not in ${files}")
      endif()
      string(APPEND text "#define ${name} ${domain_${name}}\n")
    endforeach()
    file(WRITE "${OUTPUT}.tmp" "${text}")
    file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
  elseif(PMKIT_STEP STREQUAL "genmap")
    if(NOT DEFINED ENV{SOURCE_DATE_EPOCH})
      set(ENV{SOURCE_DATE_EPOCH} 0)
    endif()
    if(NOT DIAGNOSTICS STREQUAL "")
      set(ENV{PMKIT_DIAGNOSTICS} "${DIAGNOSTICS}")
    endif()
    string(REPLACE "|" ";" args "${ARGS}")
    execute_process(COMMAND "${TOOL}" ${args} RESULT_VARIABLE status)
    if(NOT status EQUAL 0)
      message(FATAL_ERROR "pmgenmap failed (${status})")
    endif()
  else()
    message(FATAL_ERROR "pmkitHelpers.cmake: unknown step ${PMKIT_STEP}")
  endif()
  return()
endif()

set(PMKIT_HELPERS_FILE "${CMAKE_CURRENT_LIST_FILE}")
if(NOT DEFINED PMKIT_HELPERS_DIAGNOSTICS)
  set(PMKIT_HELPERS_DIAGNOSTICS rich)
endif()

# var = the command prefix that runs a tool with the helpers' form of
# diagnostics (nothing when PMKIT_HELPERS_DIAGNOSTICS is empty).
function(pmkit_helper_env var)
  set(env)
  if(NOT PMKIT_HELPERS_DIAGNOSTICS STREQUAL "")
    set(env "${CMAKE_COMMAND}" -E env "PMKIT_DIAGNOSTICS=${PMKIT_HELPERS_DIAGNOSTICS}")
  endif()
  set(${var} ${env} PARENT_SCOPE)
endfunction()

# var = the absolute path of OUTPUT argument path.
function(pmkit_helper_output var path)
  if(NOT IS_ABSOLUTE "${path}")
    set(path "${CMAKE_CURRENT_BINARY_DIR}/${path}")
  endif()
  set(${var} "${path}" PARENT_SCOPE)
endfunction()

# var = the absolute path of input path (see the header: source directory,
# else an output of this directory).
function(pmkit_helper_input var path what)
  if(IS_ABSOLUTE "${path}")
    set(${var} "${path}" PARENT_SCOPE)
    return()
  endif()
  if(EXISTS "${CMAKE_CURRENT_SOURCE_DIR}/${path}")
    set(${var} "${CMAKE_CURRENT_SOURCE_DIR}/${path}" PARENT_SCOPE)
    return()
  endif()
  set(bin "${CMAKE_CURRENT_BINARY_DIR}/${path}")
  get_source_file_property(generated "${bin}" GENERATED)
  if(NOT generated)
    message(FATAL_ERROR "${what}: ${path} is neither in ${CMAKE_CURRENT_SOURCE_DIR} "
                        "nor made by an earlier command of this directory")
  endif()
  set(${var} "${bin}" PARENT_SCOPE)
endfunction()

# var = the list of absolute paths of the input paths in ARGN.
function(pmkit_helper_inputs var what)
  set(out)
  foreach(path IN LISTS ARGN)
    pmkit_helper_input(abs "${path}" ${what})
    list(APPEND out "${abs}")
  endforeach()
  set(${var} "${out}" PARENT_SCOPE)
endfunction()

# var = the imported (or in-tree) tool's path, as a generator expression.
function(pmkit_helper_tool var tool what)
  if(NOT TARGET pmkit::${tool})
    message(FATAL_ERROR "${what} needs pmkit::${tool}: find_package(pmkit) first")
  endif()
  set(${var} "$<TARGET_FILE:pmkit::${tool}>" PARENT_SCOPE)
endfunction()

# TARGET <t>: a target built by "all" that depends on the outputs.
function(pmkit_helper_target target)
  if(target)
    add_custom_target(${target} ALL DEPENDS ${ARGN})
  endif()
endfunction()

function(pcp_domain_header)
  cmake_parse_arguments(PARSE_ARGV 0 A "" "OUTPUT;TARGET" "NAMES;STDPMID")
  if(NOT A_OUTPUT OR NOT A_NAMES OR A_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "usage: pcp_domain_header(OUTPUT <file> NAMES <NAME>... "
                        "[STDPMID <file>...] [TARGET <t>])")
  endif()
  if(NOT A_STDPMID)
    foreach(candidate "${pmkit_PMNS_DIR}/stdpmid" "/var/lib/pcp/pmns/stdpmid")
      if(EXISTS "${candidate}")
        set(A_STDPMID "${candidate}")
        break()
      endif()
    endforeach()
    if(NOT A_STDPMID)
      message(FATAL_ERROR "pcp_domain_header: no stdpmid found; name one with STDPMID")
    endif()
  endif()
  pmkit_helper_output(out "${A_OUTPUT}")
  pmkit_helper_inputs(stdpmid pcp_domain_header ${A_STDPMID})
  string(REPLACE ";" "|" names "${A_NAMES}")
  string(REPLACE ";" "|" files "${stdpmid}")
  get_filename_component(base "${out}" NAME)
  add_custom_command(
    OUTPUT "${out}"
    COMMAND "${CMAKE_COMMAND}" -DPMKIT_STEP=domain "-DOUTPUT=${out}" "-DNAMES=${names}"
            "-DSTDPMID=${files}" -P "${PMKIT_HELPERS_FILE}"
    DEPENDS ${stdpmid} "${PMKIT_HELPERS_FILE}"
    COMMENT "pcp_domain_header: ${base}"
    VERBATIM)
  pmkit_helper_target("${A_TARGET}" "${out}")
endfunction()

function(pcp_compile_pmns)
  cmake_parse_arguments(PARSE_ARGV 0 A "DUPLICATES" "OUTPUT;SOURCE;ASCII;TARGET"
                        "DEFINES;INCLUDE_DIRS;DEPENDS")
  if(NOT A_OUTPUT OR NOT A_SOURCE OR A_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "usage: pcp_compile_pmns(OUTPUT <image> SOURCE <root> [ASCII <file>] "
                        "[DEFINES ...] [INCLUDE_DIRS ...] [DUPLICATES] [DEPENDS ...] "
                        "[TARGET <t>])")
  endif()
  pmkit_helper_tool(pmnscomp pmnscomp pcp_compile_pmns)
  pmkit_helper_output(out "${A_OUTPUT}")
  pmkit_helper_input(src "${A_SOURCE}" pcp_compile_pmns)
  pmkit_helper_inputs(deps pcp_compile_pmns ${A_DEPENDS})
  set(flags)
  foreach(def IN LISTS A_DEFINES)
    list(APPEND flags "-D${def}")
  endforeach()
  foreach(dir IN LISTS A_INCLUDE_DIRS ITEMS "${CMAKE_CURRENT_BINARY_DIR}")
    get_filename_component(dir "${dir}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND flags "-I${dir}")
  endforeach()
  set(cwd "${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/pmkit-empty")
  file(MAKE_DIRECTORY "${cwd}")
  set(dup)
  if(A_DUPLICATES)
    set(dup -d)
  endif()
  get_filename_component(base "${out}" NAME)
  pmkit_helper_env(env)
  add_custom_command(
    OUTPUT "${out}"
    COMMAND ${env} "${pmnscomp}" -f ${dup} ${flags} -n "${src}" -MD -MF "${out}.d" -MT "${out}"
            "${out}"
    DEPENDS "${src}" ${deps} "${pmnscomp}"
    DEPFILE "${out}.d"
    WORKING_DIRECTORY "${cwd}"
    COMMENT "pmnscomp: ${base}"
    VERBATIM)
  set(outputs "${out}")
  if(A_ASCII)
    pmkit_helper_tool(pmcpp pmcpp pcp_compile_pmns)
    pmkit_helper_output(ascii "${A_ASCII}")
    get_filename_component(base "${ascii}" NAME)
    add_custom_command(
      OUTPUT "${ascii}"
      COMMAND ${env} "${pmcpp}" -P ${flags} -MD -MF "${ascii}.d" -MT "${ascii}" "${src}" "${ascii}"
      DEPENDS "${src}" ${deps} "${pmcpp}"
      DEPFILE "${ascii}.d"
      WORKING_DIRECTORY "${cwd}"
      COMMENT "pmcpp: ${base}"
      VERBATIM)
    list(APPEND outputs "${ascii}")
  endif()
  pmkit_helper_target("${A_TARGET}" ${outputs})
endfunction()

function(pcp_merge_pmns)
  cmake_parse_arguments(PARSE_ARGV 0 A "IMAGE;ORDERED;NODUPS" "OUTPUT;BASE;TARGET" "SOURCES;DEPENDS")
  if(NOT A_OUTPUT OR NOT A_SOURCES OR A_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "usage: pcp_merge_pmns(OUTPUT <root> SOURCES <file>... [BASE <file>] "
                        "[IMAGE] [ORDERED] [NODUPS] [DEPENDS ...] [TARGET <t>])")
  endif()
  pmkit_helper_tool(pmnsmerge pmnsmerge pcp_merge_pmns)
  pmkit_helper_output(out "${A_OUTPUT}")
  pmkit_helper_inputs(sources pcp_merge_pmns ${A_SOURCES})
  pmkit_helper_inputs(deps pcp_merge_pmns ${A_DEPENDS})
  if(A_BASE)
    pmkit_helper_input(base "${A_BASE}" pcp_merge_pmns)
  else()
    set(base "${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/pmkit-empty-root")
    file(CONFIGURE OUTPUT "${base}" CONTENT "root {\n}\n" @ONLY)
  endif()
  set(flags -f)
  if(A_ORDERED)
    list(APPEND flags -a)
  endif()
  if(A_NODUPS)
    list(APPEND flags -x)
  endif()
  if(A_IMAGE)
    list(APPEND flags -b)
  endif()
  get_filename_component(name "${out}" NAME)
  add_custom_command(
    OUTPUT "${out}"
    COMMAND "${pmnsmerge}" ${flags} "${base}" ${sources} "${out}"
    DEPENDS "${base}" ${sources} ${deps} "${pmnsmerge}"
    WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}"
    COMMENT "pmnsmerge: ${name}"
    VERBATIM)
  pmkit_helper_target("${A_TARGET}" "${out}")
endfunction()

function(pcp_compile_help)
  cmake_parse_arguments(PARSE_ARGV 0 A "STRICT" "OUTPUT;PMNS;TARGET" "SOURCES;DEPENDS")
  if(NOT A_OUTPUT OR NOT A_SOURCES OR NOT A_PMNS OR A_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "usage: pcp_compile_help(OUTPUT <base> SOURCES <file>... PMNS <pmns> "
                        "[STRICT] [DEPENDS ...] [TARGET <t>])")
  endif()
  set(strict)
  if(A_STRICT)
    set(strict -S)
  endif()
  pmkit_helper_env(env)
  pmkit_helper_tool(newhelp newhelp pcp_compile_help)
  pmkit_helper_output(out "${A_OUTPUT}")
  pmkit_helper_inputs(sources pcp_compile_help ${A_SOURCES})
  pmkit_helper_input(pmns "${A_PMNS}" pcp_compile_help)
  pmkit_helper_inputs(deps pcp_compile_help ${A_DEPENDS})
  get_filename_component(base "${out}" NAME)
  add_custom_command(
    OUTPUT "${out}.dir" "${out}.pag"
    COMMAND ${env} "${newhelp}" ${strict} -n "${pmns}" -o "${out}" ${sources}
    DEPENDS ${sources} "${pmns}" ${deps} "${newhelp}"
    WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}"
    COMMENT "newhelp: ${base}.dir, ${base}.pag"
    VERBATIM)
  pmkit_helper_target("${A_TARGET}" "${out}.dir" "${out}.pag")
endfunction()

function(pcp_genmap)
  cmake_parse_arguments(PARSE_ARGV 0 A "" "OUTPUT;SOURCE;PMNS;GUARD;TARGET" "DEPENDS")
  if(NOT A_OUTPUT OR NOT A_SOURCE OR A_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "usage: pcp_genmap(OUTPUT <header> SOURCE <spec> [PMNS <pmns>] "
                        "[GUARD <macro>] [DEPENDS ...] [TARGET <t>])")
  endif()
  pmkit_helper_tool(pmgenmap pmgenmap pcp_genmap)
  pmkit_helper_output(out "${A_OUTPUT}")
  pmkit_helper_input(spec "${A_SOURCE}" pcp_genmap)
  pmkit_helper_inputs(deps pcp_genmap ${A_DEPENDS})
  # The header names its input as given: run where the spec is and give
  # its bare name, so no build or source path ends up in the header.
  get_filename_component(spec_dir "${spec}" DIRECTORY)
  get_filename_component(spec_name "${spec}" NAME)
  set(args -o "${out}")
  set(pmns)
  if(A_PMNS)
    pmkit_helper_input(pmns "${A_PMNS}" pcp_genmap)
    list(APPEND args -n "${pmns}")
  endif()
  if(A_GUARD)
    list(APPEND args -g "${A_GUARD}")
  endif()
  list(APPEND args "${spec_name}")
  string(REPLACE ";" "|" args "${args}")
  get_filename_component(base "${out}" NAME)
  add_custom_command(
    OUTPUT "${out}"
    COMMAND "${CMAKE_COMMAND}" -DPMKIT_STEP=genmap "-DTOOL=${pmgenmap}" "-DARGS=${args}"
            "-DDIAGNOSTICS=${PMKIT_HELPERS_DIAGNOSTICS}" -P "${PMKIT_HELPERS_FILE}"
    DEPENDS "${spec}" ${pmns} ${deps} "${pmgenmap}" "${PMKIT_HELPERS_FILE}"
    WORKING_DIRECTORY "${spec_dir}"
    COMMENT "pmgenmap: ${base}"
    VERBATIM)
  pmkit_helper_target("${A_TARGET}" "${out}")
endfunction()
