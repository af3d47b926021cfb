# SPDX-License-Identifier: EPL-2.0
# tracesync_javac(<target> OUTPUT_DIR <dir> SOURCES <files...> [CLASSPATH <entries...>]
#                 [DEPENDS <files or targets...>] [WERROR] [NOWARN])
#
# Compiles Java sources with javac --release 17 into OUTPUT_DIR through one
# custom command, whose stamp file the custom target <target> depends on. The
# source list goes to javac in an argument file, so any number of sources fits
# on one command line. Sets <target>_STAMP in the caller's scope.
function(tracesync_javac target)
  cmake_parse_arguments(ARG "WERROR;NOWARN" "OUTPUT_DIR" "SOURCES;CLASSPATH;DEPENDS" ${ARGN})
  set(argfile "${CMAKE_CURRENT_BINARY_DIR}/${target}.sources")
  list(JOIN ARG_SOURCES "\n" source_lines)
  file(CONFIGURE OUTPUT "${argfile}" CONTENT "${source_lines}\n")
  set(stamp "${CMAKE_CURRENT_BINARY_DIR}/${target}.stamp")
  set(flags --release 17 -encoding UTF-8 -implicit:none)
  if(ARG_NOWARN)
    list(APPEND flags -nowarn)
  else()
    # serial: no UID warnings for SWT widgets; path: jars of an installation may name absent Class-Path entries.
    list(APPEND flags -Xlint:all,-serial,-processing,-path)
    if(ARG_WERROR)
      list(APPEND flags -Werror)
    endif()
  endif()
  set(classpath_flags "")
  if(ARG_CLASSPATH)
    list(JOIN ARG_CLASSPATH ":" classpath)
    set(classpath_flags -classpath "${classpath}")
  endif()
  add_custom_command(
    OUTPUT "${stamp}"
    COMMAND ${CMAKE_COMMAND} -E rm -rf "${ARG_OUTPUT_DIR}"
    COMMAND ${CMAKE_COMMAND} -E make_directory "${ARG_OUTPUT_DIR}"
    COMMAND ${Java_JAVAC_EXECUTABLE} ${flags} ${classpath_flags} -d "${ARG_OUTPUT_DIR}" "@${argfile}"
    COMMAND ${CMAKE_COMMAND} -E touch "${stamp}"
    DEPENDS ${ARG_SOURCES} "${argfile}" ${ARG_DEPENDS}
    COMMENT "javac ${target}"
    VERBATIM)
  add_custom_target(${target} ALL DEPENDS "${stamp}")
  set(${target}_STAMP "${stamp}" PARENT_SCOPE)
endfunction()
