#!/usr/bin/env bash
# SPDX-License-Identifier: EPL-2.0
# No thread_local with a destructor in tracesync's binaries. glibc registers
# such a destructor on a thread's first use of the variable, allocating, and
# when memory has run out it ends the process (exit 134, "failed to register
# TLS destructor") where tracesync would name the lack of memory and exit 1.
# Scratch buffers come from base::ScratchPool instead. The compiler calls
# __cxa_thread_atexit for each such variable: none may call it.
#   no_thread_exit_destructors_test.sh BINARY...
set -euo pipefail
failed=0
for binary in "$@"; do
  undefined=$(nm -D --undefined-only "$binary")
  if grep -q '__cxa_thread_atexit' <<< "$undefined"; then
    echo "$binary has a thread_local with a destructor (it calls __cxa_thread_atexit):"
    nm -C "$binary" | grep -i 'TLS init function' || true
    failed=$((failed + 1))
  else
    echo "$binary: no thread_local destructor"
  fi
done
if ((failed)); then
  echo "0 passed, 1 failed"
  exit 1
fi
echo "1 passed"
