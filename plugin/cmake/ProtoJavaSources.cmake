# tracesync_proto_java_sources(<proto> <java package dir> <outer class> <out var>)
#
# The Java files protoc writes for a proto file with java_multiple_files: one per
# top-level enum, two per top-level message (the class and its OrBuilder), and
# the outer class. Knowing them at configure time lets the build list them as
# outputs; the proto file is a configure dependency, so a new message is seen.
function(tracesync_proto_java_sources proto package_dir outer_class out_var)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${proto}")
  file(STRINGS "${proto}" declarations REGEX "^(message|enum)[ \t]+[A-Za-z_][A-Za-z0-9_]*")
  set(sources "${package_dir}/${outer_class}.java")
  foreach(declaration IN LISTS declarations)
    string(REGEX MATCH "^(message|enum)[ \t]+([A-Za-z_][A-Za-z0-9_]*)" _ "${declaration}")
    list(APPEND sources "${package_dir}/${CMAKE_MATCH_2}.java")
    if(CMAKE_MATCH_1 STREQUAL "message")
      list(APPEND sources "${package_dir}/${CMAKE_MATCH_2}OrBuilder.java")
    endif()
  endforeach()
  set(${out_var} "${sources}" PARENT_SCOPE)
endfunction()
