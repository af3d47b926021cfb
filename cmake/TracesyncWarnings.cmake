# SPDX-License-Identifier: EPL-2.0
# tracesync_set_warnings(<target>): the project's warning set, fatal in CI.
function(tracesync_set_warnings target)
  target_compile_options(${target} PRIVATE
    # No -Wpedantic: __int128 and __float128 are the point of our numerics
    # and -Wpedantic flags every use of them.
    -Wall -Wextra -Wshadow -Wconversion -Wno-sign-conversion
    -Wnon-virtual-dtor -Wold-style-cast -Woverloaded-virtual)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    # model/orientation.h ORs overflow flags with '|' on purpose: all four
    # subtractions happen, without a branch between them.
    target_compile_options(${target} PRIVATE -Wno-bitwise-instead-of-logical)
  endif()
  if(TRACESYNC_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

# tracesync_layer(<name> SOURCES ... DEPENDS ...): one static library per
# layer of native/, named tracesync_<name>, with the project's warnings.
# Includes are rooted at native/ ("model/int256.h").
function(tracesync_layer name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPENDS;PRIVATE_DEPENDS" ${ARGN})
  add_library(tracesync_${name} STATIC ${ARG_SOURCES})
  target_include_directories(tracesync_${name} PUBLIC ${PROJECT_SOURCE_DIR}/native)
  target_link_libraries(tracesync_${name} PUBLIC ${ARG_DEPENDS} PRIVATE ${ARG_PRIVATE_DEPENDS})
  tracesync_set_warnings(tracesync_${name})
  if(TRACESYNC_BUILD_FUZZERS AND name IN_LIST TRACESYNC_FUZZED_LAYERS)
    target_compile_options(tracesync_${name} PRIVATE -fsanitize=fuzzer-no-link)
  endif()
endfunction()
