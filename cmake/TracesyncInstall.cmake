# SPDX-License-Identifier: EPL-2.0
# What `cmake --install` puts where (Debian's usual places), and the .deb
# that `cpack` builds from it.
#   bin/tracesync                                 the command
#   bin/tracesync-dask                            the Dask driver (python3-distributed)
#   share/man/man1/tracesync.1                    its manual
#   share/bash-completion/completions/tracesync   its completion
#   lib/<multiarch>/jni/libtracesync_jni.so        the JNI library (Java only)
#   share/java/tracesync-bridge.jar               the Java bridge (Java only)
# all in the component (and package) `tracesync`; tracesync probe's lttng-ust
# provider, lib/<multiarch>/tracesync/libtracesync-probe-lttng.so, is in
# `probe_lttng` (native/probe/CMakeLists.txt), the package
# tracesync-probe-lttng.
include(GNUInstallDirs)
set(CMAKE_INSTALL_DEFAULT_COMPONENT_NAME tracesync)

# The manual is written from the program's own help (cmake/ManPage.cmake).
set(man_page ${CMAKE_BINARY_DIR}/man/tracesync.1)
add_custom_command(OUTPUT ${man_page}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/man
  COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:tracesync> -DOUT=${man_page} -DVERSION=${PROJECT_VERSION}
    -P ${PROJECT_SOURCE_DIR}/cmake/ManPage.cmake
  DEPENDS tracesync ${PROJECT_SOURCE_DIR}/cmake/ManPage.cmake
  COMMENT "Writing the manual page tracesync(1)"
  VERBATIM)
add_custom_target(tracesync_man_page ALL DEPENDS ${man_page})

install(TARGETS tracesync RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The Dask driver (docs/scale-out.md): a Python script under /usr/bin/python3.
install(PROGRAMS ${PROJECT_SOURCE_DIR}/scripts/tracesync-dask DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${man_page} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/tracesync.bash-completion
  DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME tracesync)
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR})

if(TRACESYNC_BUILD_JAVA)
  set(jni_dir ${CMAKE_INSTALL_LIBDIR}/jni)
  install(TARGETS tracesync_jni LIBRARY DESTINATION ${jni_dir})
  install(FILES ${CMAKE_BINARY_DIR}/java/tracesync-bridge.jar DESTINATION ${CMAKE_INSTALL_DATADIR}/java)
  # The JNI library finds the installed reading program from its own folder.
  file(RELATIVE_PATH program_from_jni /prefix/${jni_dir} /prefix/${CMAKE_INSTALL_BINDIR}/tracesync)
  target_compile_definitions(tracesync_jni PRIVATE TRACESYNC_PROGRAM_FROM_JNI_DIR="${program_from_jni}")
endif()

# ---- cpack: a .deb for Debian 12, its library dependencies found by dpkg-shlibdeps.
# One package a component: tracesync, and (where the provider was built)
# tracesync-probe-lttng, so that tracesync installs without lttng-ust: the
# provider is the only file that links liblttng-ust1, and tracesync probe
# runs without it (docs/probe.md). tracesync Recommends it.
set(CPACK_GENERATOR DEB)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL tracesync)
set(CPACK_DEBIAN_TRACESYNC_PACKAGE_NAME tracesync)
if(TARGET tracesync_probe_lttng)
  list(APPEND CPACK_COMPONENTS_ALL probe_lttng)
  set(CPACK_DEBIAN_PROBE_LTTNG_PACKAGE_NAME tracesync-probe-lttng)
  set(CPACK_DEBIAN_PROBE_LTTNG_PACKAGE_DEPENDS "tracesync (= ${PROJECT_VERSION})")
  set(CPACK_DEBIAN_PROBE_LTTNG_PACKAGE_SUGGESTS "lttng-tools")
  set(CPACK_DEBIAN_TRACESYNC_PACKAGE_RECOMMENDS tracesync-probe-lttng)
  set(CPACK_DEBIAN_PROBE_LTTNG_DESCRIPTION "The lttng-ust tracepoint provider of tracesync probe: \
loaded by tracesync probe at run time, it records the probe's round trips as tracesync_probe:round_send and \
tracesync_probe:round_recv events in lttng-ust traces, which tracesync sync --messages probe pairs. Without it \
tracesync probe still exchanges its round trips, which kernel traces record.")
endif()
set(CPACK_PACKAGE_NAME tracesync)
set(CPACK_PACKAGE_VENDOR "tracesync")
set(CPACK_PACKAGE_CONTACT "tracesync maintainers <tracesync@invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "synchronize the clocks of LTTng kernel traces from their TCP messages")
set(CPACK_PACKAGE_DESCRIPTION "tracesync puts the kernel traces of many hosts on one time base after the fact: \
it pairs the TCP send and receive events already in LTTng traces, bounds each pair of clocks exactly with \
convex hulls, and gives every trace a transform onto one reference clock with an honest error bound.")
set(CPACK_DEBIAN_TRACESYNC_DESCRIPTION ${CPACK_PACKAGE_DESCRIPTION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_LICENSE EPL-2.0)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# tracesync-dask needs Dask distributed; the command does not.
set(CPACK_DEBIAN_TRACESYNC_PACKAGE_SUGGESTS "python3-distributed")
if(TRACESYNC_BUILD_JAVA)
  # The bridge jar needs protobuf-java and a JVM; the command does not.
  set(CPACK_DEBIAN_TRACESYNC_PACKAGE_SUGGESTS "openjdk-17-jre-headless, libprotobuf-java, python3-distributed")
endif()
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
include(CPack)
