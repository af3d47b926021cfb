# The whole bundle, compiled against a Trace Compass installation.
if(NOT DEFINED ENV{TRACECOMPASS_HOME} AND NOT TRACECOMPASS_HOME)
  message(STATUS "plugin: the Trace Compass bundle is not built: set TRACECOMPASS_HOME to a Trace Compass installation")
  return()
endif()
