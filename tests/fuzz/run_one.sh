#!/usr/bin/env bash
# Runs one fuzz target for a bounded time on a scratch copy of its seed corpus,
# so new inputs never land in the repository. Usage: run_one.sh TARGET CORPUS SECONDS
set -euo pipefail
target=$(realpath "$1") corpus=$(realpath "$2") seconds=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$corpus/." "$work/"
cd "$work"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  "$target" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 "$work" 2>&1 | tail -n 25
exit "${PIPESTATUS[0]}"
