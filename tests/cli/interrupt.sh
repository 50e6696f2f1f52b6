#!/usr/bin/env bash
# Ctrl-C during `ecmpsim run` (issue 36): the run stops at once with one line,
# "ecmpsim: interrupted", exit 130, and leaves no output file. The run is held
# in its first stage by a FIFO given as --flows that nobody writes (opening it
# blocks), so the signal always lands mid-run; it is re-sent until the process
# is gone, since a background job starts with SIGINT ignored until ecmpsim
# installs its handler (run() execs ecmpsim, so $! is its pid). Negative
# control: the same run with the FIFO fed finishes, exit 0, and writes its
# output.
# Usage: interrupt.sh ECMPSIM   (run from the source tree)
set -euo pipefail
bin=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "interrupt: $*" >&2; exit 1; }
mkfifo "$tmp/flows"
run() { exec "$bin" run configs/paper16.toml --flows "$tmp/flows" --flows-format csv -f json --out "$tmp/out.json" 2> "$tmp/err"; }

# Ready when the job is ecmpsim (exec'd) and catches SIGINT (bit 1 of SigCgt):
# before that, the forked shell passes through the default action on its way
# to ignoring SIGINT, and a signal landing there kills it without a word (exit
# 130, empty stderr: seen under load).
ready() {
  [ "$(readlink "/proc/$1/exe" 2> /dev/null)" = "$bin" ] || return 1
  local mask
  mask=$(awk '/^SigCgt:/ {print $2}' "/proc/$1/status" 2> /dev/null) && [ -n "$mask" ] && (((16#$mask >> 1) & 1))
}
run &
pid=$!
for _ in $(seq 300); do
  ready "$pid" && break
  sleep 0.1
done
ready "$pid" || fail "ecmpsim never caught SIGINT while held on the FIFO"
for _ in $(seq 100); do
  kill -INT "$pid" 2> /dev/null || break
  sleep 0.2
done
rc=0
wait "$pid" || rc=$?
[ "$rc" -eq 130 ] || fail "exit $rc, not 130"
[ "$(cat "$tmp/err")" = "ecmpsim: interrupted" ] || fail "said: $(cat "$tmp/err")"
[ "$(ls "$tmp" | sort | tr '\n' ' ')" = "err flows " ] || fail "left files: $(ls "$tmp")"

run &
pid=$!
cat tests/data/paper16_flows.csv > "$tmp/flows"
wait "$pid" || fail "the fed run failed: $(cat "$tmp/err")"
[ -s "$tmp/out.json" ] || fail "the fed run wrote nothing"
[ ! -s "$tmp/err" ] || fail "the fed run said: $(cat "$tmp/err")"
