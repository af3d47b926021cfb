# SPDX-License-Identifier: EPL-2.0
# The whole bundle, compiled against a Trace Compass installation and packed,
# with the bridge jar, protobuf-java, the JNI library and the tracesync
# command (it reads each trace in a process of its own), as a jar to drop
# into Trace Compass's dropins/ folder (README.md).

set(TRACECOMPASS_HOME "$ENV{TRACECOMPASS_HOME}" CACHE PATH
  "A Trace Compass installation (the folder holding plugins/): set it to build the whole bundle")
if(NOT TRACECOMPASS_HOME)
  message(STATUS "plugin: the Trace Compass bundle is not built: TRACECOMPASS_HOME is not set "
    "(point it at a Trace Compass 10.x installation); the widgets jar and its tests are built")
  return()
endif()
if(NOT IS_DIRECTORY "${TRACECOMPASS_HOME}/plugins")
  message(STATUS "plugin: the Trace Compass bundle is not built: ${TRACECOMPASS_HOME}/plugins does not exist")
  return()
endif()

# The bridge's jar and JNI library, as the java-bridge and jni folders build them.
set(TRACESYNC_BRIDGE_JAR "${CMAKE_BINARY_DIR}/java/tracesync-bridge.jar" CACHE FILEPATH "The Java bridge's jar")
set(TRACESYNC_JNI_LIBRARY "${CMAKE_BINARY_DIR}/lib/libtracesync_jni.so" CACHE FILEPATH "The JNI library")
set(TRACESYNC_PROGRAM "${CMAKE_BINARY_DIR}/bin/tracesync" CACHE FILEPATH
  "The tracesync command, which reads each trace in a process of its own")
set(TRACESYNC_BRIDGE_TARGETS "tracesync_jni;tracesync_bridge_jar;tracesync" CACHE STRING
  "Targets that build the bridge jar and the JNI library (those that exist are built first)")

# Trace Compass's bundles: jars, and unpacked bundles (folders, with their own jars inside).
file(GLOB tc_classpath "${TRACECOMPASS_HOME}/plugins/*.jar")
file(GLOB tc_entries LIST_DIRECTORIES true "${TRACECOMPASS_HOME}/plugins/*")
foreach(entry IN LISTS tc_entries)
  if(IS_DIRECTORY "${entry}")
    file(GLOB_RECURSE inner_jars "${entry}/*.jar")
    list(APPEND tc_classpath "${entry}" ${inner_jars})
  endif()
endforeach()

# The transforms fragment (fragment/): its classes load in tmf.core's class loader, which reads transforms back.
file(GLOB_RECURSE fragment_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/fragment/src/*.java)
set(fragment_classes ${CMAKE_CURRENT_BINARY_DIR}/classes/fragment)
tracesync_javac(tracesync_plugin_fragment_classes ${plugin_werror} OUTPUT_DIR ${fragment_classes}
  SOURCES ${fragment_sources} CLASSPATH ${tc_classpath})

file(GLOB_RECURSE bundle_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/*.java)
set(bundle_classes ${CMAKE_CURRENT_BINARY_DIR}/classes/bundle)
tracesync_javac(tracesync_plugin_bundle_classes ${plugin_werror} OUTPUT_DIR ${bundle_classes}
  SOURCES ${bundle_sources}
  CLASSPATH ${TRACESYNC_BRIDGE_JAR} ${TRACESYNC_PROTOBUF_JAR} ${fragment_classes} ${tc_classpath}
  DEPENDS ${tracesync_plugin_fragment_classes_STAMP})
add_dependencies(tracesync_plugin_bundle_classes tracesync_plugin_fragment_classes)
foreach(target IN LISTS TRACESYNC_BRIDGE_TARGETS)
  if(TARGET ${target})
    add_dependencies(tracesync_plugin_bundle_classes ${target})
  endif()
endforeach()

# Bundle-Version 0.1.0.qualifier: the qualifier is the configure time, as Tycho would stamp it.
file(STRINGS ${CMAKE_CURRENT_SOURCE_DIR}/META-INF/MANIFEST.MF version_line REGEX "^Bundle-Version:")
string(REGEX REPLACE "^Bundle-Version:[ ]*" "" bundle_version "${version_line}")
string(TIMESTAMP qualifier "v%Y%m%d%H%M" UTC)
string(REPLACE "qualifier" "${qualifier}" bundle_version "${bundle_version}")
file(READ ${CMAKE_CURRENT_SOURCE_DIR}/META-INF/MANIFEST.MF manifest)
string(REGEX REPLACE "Bundle-Version:[^\n]*" "Bundle-Version: ${bundle_version}" manifest "${manifest}")
set(bundle_manifest ${CMAKE_CURRENT_BINARY_DIR}/bundle-MANIFEST.MF)
file(CONFIGURE OUTPUT ${bundle_manifest} CONTENT "${manifest}")
file(READ ${CMAKE_CURRENT_SOURCE_DIR}/fragment/META-INF/MANIFEST.MF manifest)
string(REGEX REPLACE "Bundle-Version:[^\n]*" "Bundle-Version: ${bundle_version}" manifest "${manifest}")
set(fragment_manifest ${CMAKE_CURRENT_BINARY_DIR}/fragment-MANIFEST.MF)
file(CONFIGURE OUTPUT ${fragment_manifest} CONTENT "${manifest}")

set(stage ${CMAKE_CURRENT_BINARY_DIR}/bundle-stage)
set(bundle_jar ${CMAKE_CURRENT_BINARY_DIR}/dropins/org.tracesync.tracecompass_${bundle_version}.jar)
set(fragment_jar ${CMAKE_CURRENT_BINARY_DIR}/dropins/org.tracesync.tracecompass.transforms_${bundle_version}.jar)
# Always run: it is cheap, and it picks up a rebuilt bridge jar or JNI library.
add_custom_target(tracesync_plugin_bundle ALL
  COMMAND ${CMAKE_COMMAND} -E rm -rf ${stage} ${CMAKE_CURRENT_BINARY_DIR}/dropins
  COMMAND ${CMAKE_COMMAND} -E make_directory ${stage}/lib/linux/x86_64
    ${CMAKE_CURRENT_BINARY_DIR}/dropins
  COMMAND ${CMAKE_COMMAND} -E copy_directory ${bundle_classes} ${stage}
  COMMAND ${CMAKE_COMMAND} -E copy ${CMAKE_CURRENT_SOURCE_DIR}/plugin.xml ${stage}/
  COMMAND ${CMAKE_COMMAND} -E copy ${TRACESYNC_BRIDGE_JAR} ${stage}/lib/tracesync-bridge.jar
  COMMAND ${CMAKE_COMMAND} -E copy ${TRACESYNC_PROTOBUF_JAR} ${stage}/lib/protobuf-java.jar
  COMMAND ${CMAKE_COMMAND} -E copy ${TRACESYNC_JNI_LIBRARY} ${stage}/lib/linux/x86_64/libtracesync_jni.so
  COMMAND ${CMAKE_COMMAND} -E copy ${TRACESYNC_PROGRAM} ${stage}/lib/linux/x86_64/tracesync
  COMMAND ${Java_JAR_EXECUTABLE} --create --file ${bundle_jar} --manifest ${bundle_manifest} -C ${stage} .
  COMMAND ${Java_JAR_EXECUTABLE} --create --file ${fragment_jar} --manifest ${fragment_manifest} -C ${fragment_classes} .
  DEPENDS ${tracesync_plugin_bundle_classes_STAMP} ${tracesync_plugin_fragment_classes_STAMP} ${bundle_manifest}
    ${fragment_manifest}
  COMMENT "Assembling dropins/org.tracesync.tracecompass_${bundle_version}.jar and its transforms fragment"
  VERBATIM)
add_dependencies(tracesync_plugin_bundle tracesync_plugin_bundle_classes)
message(STATUS "plugin: the Trace Compass bundle is built against ${TRACECOMPASS_HOME}: ${bundle_jar} and ${fragment_jar}")
