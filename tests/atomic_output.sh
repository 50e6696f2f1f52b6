#!/usr/bin/env bash
# A long sweep killed midway (SIGKILL) leaves no output file and no temporary
# beside it (at most the checkpoint it had saved); Ctrl-C (SIGINT), SIGTERM (`timeout`, Slurm) and SIGHUP end it
# with 130, 143 and 129 and a complete JSON document of the variants done so
# far, marked interrupted, and the checkpoint beside it (out.json.checkpoint,
# which every sweep writing --out keeps) that the same command continues.
# Usage: atomic_output.sh ECMPSIM     Env: ECMPSIM_SIGNAL_AFTER (seconds, default 1.5)
set -euo pipefail
bin=$1
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT

# Far more variants than finish in the time we wait: minutes in Release, hours under ASan.
start_sweep() {
  "$bin" sweep configs/paper16.toml --seeds 0:50000000 --force --algos xxh3 --threads 2 \
    --format json --out "$tmp/out.json" 2>"$tmp/err" &
  pid=$!
  sleep "${ECMPSIM_SIGNAL_AFTER:-1.5}"
  kill -0 "$pid" 2>/dev/null || { echo "FAIL: the sweep ended before it was signalled: $(cat "$tmp/err")" >&2; exit 1; }
}

for sig in KILL; do
  start_sweep
  kill -"$sig" "$pid"
  rc=0; wait "$pid" || rc=$?
  pid=
  [ "$rc" -ne 0 ] || { echo "FAIL: SIG$sig: the sweep exited 0" >&2; exit 1; }
  # A checkpoint saved before the kill may stay (that is what it is for); no output, no temporary.
  left=$(ls -A "$tmp" | grep -v -e '^err$' -e '^out.json.checkpoint$' || true)
  [ -z "$left" ] || { echo "FAIL: SIG$sig midway left files behind: $left" >&2; exit 1; }
  rm -f "$tmp/out.json.checkpoint"
done

for stop in INT:130 TERM:143 HUP:129; do
  sig=${stop%:*} want=${stop#*:}
  rm -f "$tmp/out.json"
  start_sweep
  kill -"$sig" "$pid"
  rc=0; wait "$pid" || rc=$?
  pid=
  [ "$rc" -eq "$want" ] || { echo "FAIL: SIG$sig: exit $rc, expected $want" >&2; exit 1; }
  python3 - "$tmp/out.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["interrupted"] is True, doc["interrupted"]
assert 0 < doc["samples"] < doc["variants"], (doc["samples"], doc["variants"])
assert set(doc["metrics"]["fim"]) >= {"min", "mean", "p50", "p90", "p99", "max", "histogram"}
PY
  grep -q "interrupted: reported the first" "$tmp/err" || { echo "FAIL: SIG$sig: no interruption note on stderr" >&2; exit 1; }
  [ -s "$tmp/out.json.checkpoint" ] || { echo "FAIL: SIG$sig: no checkpoint beside the output" >&2; exit 1; }
  grep -q "saved to $tmp/out.json.checkpoint: run the same command again to continue" "$tmp/err" || { echo "FAIL: SIG$sig: no resume note" >&2; exit 1; }
  rm -f "$tmp/out.json.checkpoint"
  left=$(ls -A "$tmp" | grep -v -e '^err$' -e '^out.json$' || true)
  [ -z "$left" ] || { echo "FAIL: SIG$sig left a temporary behind: $left" >&2; exit 1; }
done
echo "atomic output: no partial file after SIGKILL; SIGINT, SIGTERM and SIGHUP wrote a whole, interrupted report and a checkpoint"
