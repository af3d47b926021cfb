# SPDX-License-Identifier: EPL-2.0
# Sanitized and fuzzing builds. Each goes into a build directory of its own
# (scripts/setup.sh --test uses build-sanitize), never the release build.
#
#   -DTRACESYNC_SANITIZE=address,undefined   every target built and linked with
#       these sanitizers; any report stops the program with a non-zero exit
#       (-fno-sanitize-recover), and the tests see TRACESYNC_SANITIZED.
#   -DTRACESYNC_BUILD_FUZZERS=ON   the libFuzzer targets of tests/fuzz (clang
#       only: libFuzzer ships with clang, not gcc). The layers the fuzzers
#       feed (TRACESYNC_FUZZED_LAYERS, native/CMakeLists.txt) are built with
#       coverage instrumentation for them; the rest and the tests are not.
set(TRACESYNC_SANITIZE "" CACHE STRING "Sanitizers for every target, e.g. address,undefined (use a build directory of its own)")
option(TRACESYNC_BUILD_FUZZERS "Build the libFuzzer targets (clang only)" OFF)

if(TRACESYNC_SANITIZE)
  add_compile_options(-fsanitize=${TRACESYNC_SANITIZE} -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${TRACESYNC_SANITIZE})
endif()

if(TRACESYNC_BUILD_FUZZERS)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "TRACESYNC_BUILD_FUZZERS=ON needs clang (libFuzzer): configure with "
      "CC=clang CXX=clang++ in a build directory of its own (apt-get install clang libclang-rt-14-dev)")
  endif()
endif()

# What the sanitizers are told at run time (tests, fuzzers, the reading
# processes they start): stop at the first report, leaks of babeltrace2 and
# glib on error paths suppressed (tests/sanitizers/lsan.supp).
#
# babeltrace2 unloads its CTF plugin when its last graph goes; LeakSanitizer
# reports at exit, and then cannot name the module of the plugin's leaks
# ("<unknown module>"), so no suppression by library can match them.
# Preloading the plugin keeps it loaded to the end.
find_file(TRACESYNC_BABELTRACE2_CTF_PLUGIN babeltrace-plugin-ctf.so
  PATHS /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/babeltrace2/plugins /usr/lib/babeltrace2/plugins
        /usr/local/lib/babeltrace2/plugins
  NO_DEFAULT_PATH)
set(TRACESYNC_SANITIZER_ENVIRONMENT
  "ASAN_OPTIONS=halt_on_error=1:abort_on_error=0:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1"
  "LSAN_OPTIONS=suppressions=${PROJECT_SOURCE_DIR}/tests/sanitizers/lsan.supp:print_suppressions=0"
  "UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1")
if(TRACESYNC_BABELTRACE2_CTF_PLUGIN)
  list(APPEND TRACESYNC_SANITIZER_ENVIRONMENT "LD_PRELOAD=${TRACESYNC_BABELTRACE2_CTF_PLUGIN}")
endif()
# The same, one VAR=value a line, for the programs of another build that run
# this build's command (scripts/setup.sh --test: the end-to-end suites).
if(TRACESYNC_SANITIZE)
  list(JOIN TRACESYNC_SANITIZER_ENVIRONMENT "\n" sanitizer_environment_lines)
  file(WRITE ${CMAKE_BINARY_DIR}/sanitizer-environment "${sanitizer_environment_lines}\n")
endif()
