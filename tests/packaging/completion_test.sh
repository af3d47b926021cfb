#!/usr/bin/env bash
# SPDX-License-Identifier: EPL-2.0
# The bash completion offers, after --format, the formats the command's own
# help names: check and bench take text or json, sync and apply all four.
#
#   tests/packaging/completion_test.sh TRACESYNC SOURCE_DIR
set -euo pipefail
tracesync=$1
source_dir=$2
# bash-completion's helpers, reduced to what the completion calls.
_init_completion() { words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD; cur=${COMP_WORDS[COMP_CWORD]}; prev=${COMP_WORDS[COMP_CWORD-1]}; }
_filedir() { COMPREPLY=(); }
complete() { :; }
# shellcheck source=/dev/null
source "$source_dir/packaging/tracesync.bash-completion"

offered() {
  COMP_WORDS=("$tracesync" "$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _tracesync
  printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' '
}

failed=0
expect() {
  local want=$1; shift
  local got
  got=$(offered "$@")
  if [[ $got != "$want" ]]; then
    echo "FAIL: tracesync $* -> '$got', expected '$want'" >&2
    failed=1
  else
    echo "ok: tracesync $* -> $got"
  fi
}
expect "json text " check --format ""
expect "json text " bench hull -f ""
expect "html json protobuf text " sync --format ""
expect "html json protobuf text " apply --format ""
expect "json " check --format j
exit $failed
