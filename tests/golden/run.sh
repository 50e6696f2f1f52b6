#!/usr/bin/env bash
# Runs every golden scenario (tests/golden/NAME.toml with NAME.args) and compares
# the output with the blessed NAME.expected. Usage: run.sh ECMPSIM [--bless]
set -euo pipefail
bin=$1
bless=${2:-}
dir=$(cd "$(dirname "$0")" && pwd)
cd "$dir/../.."
fail=0
for cfg in tests/golden/*.toml; do
  name=${cfg%.toml}
  args=()
  [ -f "$name.args" ] && read -r -a args < "$name.args"
  actual=$("$bin" run "$cfg" "${args[@]}")
  if [ "$bless" = "--bless" ]; then
    printf '%s\n' "$actual" > "$name.expected"
    echo "blessed $name.expected"
  elif ! diff -u "$name.expected" <(printf '%s\n' "$actual"); then
    echo "golden mismatch: $cfg" >&2
    fail=1
  fi
done
exit $fail
