# SPDX-License-Identifier: EPL-2.0
# JUnit 5 tests of the plugin's Trace-Compass-free parts, run by the JUnit
# console launcher and registered with CTest:
#   plugin_model_tests   models, statistics, cache, transforms (no display)
#   plugin_widget_tests  SWT widgets under Xvfb; PNGs land in render/
# Tests tagged "gui" need a display; the model run excludes them.

find_file(TRACESYNC_JUNIT_CONSOLE_JAR junit-platform-console-standalone.jar PATHS /usr/share/java NO_DEFAULT_PATH)
if(NOT TRACESYNC_JUNIT_CONSOLE_JAR)
  message(STATUS "plugin: tests not built: missing Debian package junit5")
  return()
endif()

file(GLOB_RECURSE test_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/test/*.java)
set(test_classes ${CMAKE_CURRENT_BINARY_DIR}/classes/test)
tracesync_javac(tracesync_plugin_test_classes ${plugin_werror} OUTPUT_DIR ${test_classes}
  SOURCES ${test_sources}
  CLASSPATH ${widget_classes} ${widget_classpath} ${TRACESYNC_JUNIT_CONSOLE_JAR}
  DEPENDS ${tracesync_plugin_widget_classes_STAMP})
add_dependencies(tracesync_plugin_test_classes tracesync_plugin_widgets)

set(test_classpath ${test_classes} ${widgets_jar} ${bridge_jar} ${TRACESYNC_PROTOBUF_JAR} ${TRACESYNC_SWT_JAR}
  ${TRACESYNC_JFACE_JAR} ${TRACESYNC_CORE_COMMANDS_JAR} ${TRACESYNC_EQUINOX_COMMON_JAR})
list(JOIN test_classpath ":" test_classpath_text)
set(render_dir ${CMAKE_CURRENT_BINARY_DIR}/render)
# The JNI library (by its file: java.library.path must stay the JVM's, where SWT's own library is found) and the
# shared fixtures: the live tests follow real folders.
set(junit ${Java_JAVA_EXECUTABLE} -Dtracesync.render.dir=${render_dir}
  -Dtracesync.jni.library=${CMAKE_BINARY_DIR}/lib/libtracesync_jni.so -Dtracesync.shared.dir=${TRACESYNC_SHARED_DIR} -jar ${TRACESYNC_JUNIT_CONSOLE_JAR}
  --disable-banner --disable-ansi-colors --details=tree --fail-if-no-tests
  --class-path ${test_classpath_text} --select-package org.tracesync.tracecompass)

add_test(NAME plugin_model_tests COMMAND ${junit} --exclude-tag gui)
set_tests_properties(plugin_model_tests PROPERTIES LABELS "java;plugin" TIMEOUT 120)

find_program(TRACESYNC_XVFB_RUN xvfb-run)
if(TRACESYNC_XVFB_RUN)
  add_test(NAME plugin_widget_tests
    COMMAND ${TRACESYNC_XVFB_RUN} -a -s "-screen 0 1280x1024x24" ${junit} --include-tag gui)
else()
  # Reported as skipped (not passed) by CTest: exit code 77 below.
  add_test(NAME plugin_widget_tests
    COMMAND sh -c "echo 'plugin_widget_tests skipped: xvfb-run not found (apt-get install xvfb xauth)'; exit 77")
  set_tests_properties(plugin_widget_tests PROPERTIES SKIP_RETURN_CODE 77)
endif()
set_tests_properties(plugin_widget_tests PROPERTIES LABELS "java;plugin;gui" TIMEOUT 180)
