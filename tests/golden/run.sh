#!/usr/bin/env bash
# Runs every golden scenario and compares its output with the blessed copy:
# tests/golden/NAME.args holds the command line after `ecmpsim` (paths from
# the repository root), NAME.expected its blessed stdout.
# Usage: run.sh ECMPSIM [--bless]
set -euo pipefail
bin=$1
bless=${2:-}
dir=$(cd "$(dirname "$0")" && pwd)
cd "$dir/../.."
fail=0
for spec in tests/golden/*.args; do
  name=${spec%.args}
  read -r -a args < "$spec"
  actual=$("$bin" "${args[@]}")
  if [ "$bless" = "--bless" ]; then
    printf '%s\n' "$actual" > "$name.expected"
    echo "blessed $name.expected"
  elif ! diff -u "$name.expected" <(printf '%s\n' "$actual"); then
    echo "golden mismatch: ecmpsim ${args[*]}" >&2
    fail=1
  fi
done
exit $fail
