#!/usr/bin/env bash
# SPDX-License-Identifier: EPL-2.0
# Every source file the repository tracks declares its licence with an SPDX
# header (LICENSE: EPL-2.0) near its top.
#   spdx_test.sh SOURCE_DIR
set -euo pipefail
cd "$1"
if ! git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
  echo "spdx_test skipped: $1 is not a git checkout"
  exit 77
fi
missing=0 checked=0
while IFS= read -r file; do
  case $file in
    fixtures/*) continue ;;
    *.cc | *.h | *.java | *.proto | *.cmake | *.sh | *.py | *.js | CMakeLists.txt | */CMakeLists.txt | *.bash-completion | .ci/run) ;;
    *) continue ;;
  esac
  [[ -f $file ]] || continue
  checked=$((checked + 1))
  if ! head -c 400 "$file" | grep -q 'SPDX-License-Identifier: EPL-2.0'; then
    echo "no SPDX header: $file"
    missing=$((missing + 1))
  fi
done < <(git ls-files)
echo "$checked source files checked"
if ((missing)); then
  echo "0 passed, 1 failed"
  exit 1
fi
echo "1 passed, 0 failed"
