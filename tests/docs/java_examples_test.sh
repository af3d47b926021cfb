#!/usr/bin/env bash
# SPDX-License-Identifier: EPL-2.0
# Every ```java block of the given Markdown files compiles as pasted against
# the bridge jar: a block is one compilation unit, named after its public class.
#   java_examples_test.sh JAVAC BRIDGE_JAR PROTOBUF_JAR FILE.md...
set -euo pipefail
javac=$1 bridge=$2 protobuf=$3
shift 3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
for markdown in "$@"; do
  # Split the java blocks into work/<n>.java.block
  awk -v dir="$work" -v base="$(basename "$markdown" .md)" '
    /^```java[ ]*$/ { n++; file = sprintf("%s/%s-%d.block", dir, base, n); inside = 1; next }
    /^```/ && inside { inside = 0; next }
    inside { print > file }' "$markdown"
done
shopt -s nullglob
blocks=("$work"/*.block)
((${#blocks[@]})) || { echo "FAIL: no \`\`\`java block in $*" >&2; exit 1; }
for block in "${blocks[@]}"; do
  class=$(grep -oE 'public (final )?class [A-Za-z0-9_]+' "$block" | head -n 1 | awk '{print $NF}')
  name=$(basename "$block" .block)
  if [[ -z $class ]]; then
    echo "FAIL: $name: a java block without a public class cannot compile as pasted"
    failed=$((failed + 1))
    continue
  fi
  mkdir -p "$work/$name"
  cp "$block" "$work/$name/$class.java"
  if "$javac" --release 17 -Xlint:all -Werror -cp "$bridge:$protobuf" -d "$work/$name/classes" "$work/$name/$class.java"; then
    echo "ok: $name ($class) compiles"
    passed=$((passed + 1))
  else
    echo "FAIL: $name ($class) does not compile"
    failed=$((failed + 1))
  fi
done
echo "$passed passed, $failed failed"
((failed == 0))
