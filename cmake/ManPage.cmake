# SPDX-License-Identifier: EPL-2.0
# cmake -DPROGRAM=<tracesync> -DOUT=<tracesync.1> -DVERSION=<x.y.z> -P ManPage.cmake
#
# Writes the manual page tracesync(1) from the program's own help: a section
# per command with that command's `--help`, so the page, `--help` and the
# exit codes they list can never disagree.

function(roff_escape text out)
  string(REPLACE "\\" "\\e" text "${text}")
  # A line starting with . or ' would be a roff request.
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

function(help_of out)
  execute_process(COMMAND ${PROGRAM} ${ARGN} OUTPUT_VARIABLE text RESULT_VARIABLE status ERROR_VARIABLE error)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "ManPage.cmake: '${PROGRAM} ${ARGN}' exited ${status}: ${error}")
  endif()
  roff_escape("${text}" text)
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

help_of(main --help)
string(REGEX MATCHALL "\n  [a-z][a-z0-9-]+ " command_lines "${main}")
set(page ".TH TRACESYNC 1 \"\" \"tracesync ${VERSION}\" \"User Commands\"
.SH NAME
tracesync \\- synchronize the clocks of LTTng kernel traces from the TCP messages they record
.SH SYNOPSIS
.B tracesync
.I command
.RI [ options ]
.RI [ TRACE_DIR ...]
.SH DESCRIPTION
tracesync puts the kernel traces of many hosts on one time base, after the fact
and with no extra traffic. It pairs the TCP send and receive events already in
the traces, bounds each pair of clocks exactly with convex hulls, links the
hosts into a network, picks the best reference clock, and gives every trace a
transform onto that reference with an honest error bound.
.B tracesync live
does the same while the traces are recorded, following LTTng live sessions.
.PP
What follows is the program's own help, command by command.
.PP
.nf
${main}.fi
.SH COMMANDS
")
foreach(line IN LISTS command_lines)
  string(STRIP "${line}" command)
  help_of(command_help ${command} --help)
  string(APPEND page ".SS ${command}\n.nf\n${command_help}.fi\n")
endforeach()
string(APPEND page ".SH SEE ALSO
.BR babeltrace2 (1),
.BR lttng (1)
")
file(WRITE ${OUT} "${page}")
