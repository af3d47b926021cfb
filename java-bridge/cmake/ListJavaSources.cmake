# SPDX-License-Identifier: EPL-2.0
# cmake -DDIR=<folder> -DOUT=<file> -P ListJavaSources.cmake
# Writes a javac @argument file naming every .java file under DIR: protoc's
# Java output depends on the messages in the .proto, so it is listed after
# protoc has run rather than at configure time.
file(GLOB_RECURSE sources "${DIR}/*.java")
list(SORT sources)
set(text "")
foreach(source IN LISTS sources)
  string(APPEND text "\"${source}\"\n")
endforeach()
file(WRITE "${OUT}" "${text}")
