#!/usr/bin/env bash
# The MPI build's `ecmpsim sweep` under mpirun (-np 2 and -np 3, oversubscribed:
# the machine may have fewer cores than ranks) against the same binary run as
# one process: stdout and --out files byte for byte, in every format and at
# different thread counts; errors reported once, exit 2; SIGUSR1 to mpirun
# stops every rank and reports the finished prefix, exit 130.
# Usage: sweep.sh MPIEXEC ECMPSIM   (run from the source tree)
set -euo pipefail
mpiexec=$1 bin=$2
# Root in containers: Open MPI refuses to run as root without these.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# -q: no Open MPI banner when a rank exits non-zero (ecmpsim's one line is the error).
mpirun() { "$mpiexec" -q --oversubscribe -np "$@"; }
fail() { echo "mpi sweep: $*" >&2; exit 1; }

cases=(
  # The issue's own: every variant equal (CRC seeds permute paper16's members alike).
  "configs/paper16.toml --seeds 0:100000"
  # Values that differ: four scenarios x two algorithms x QPs x source-port bases x seeds, per-switch seeds.
  "configs/fattree-k8.toml --seeds 0:40 --qps 1,2 --sport-base 49152:49200:16 --seed-mode per-switch
   --algos xxh3,crc16-ccitt --threshold 0.6 --bins 7"
  "configs/paper16.toml --algos xxh3,crc32 --qpn-base 256:264 --seeds 0:300 --seed-mode per-tier"
  # IPv6 (issue 23): 16-byte addresses and flow labels in every key; linux-l3 hashes the label.
  "configs/paper16-ipv6.toml --algos xxh3,linux-l3,crc32 --qps 1,2 --seeds 0:200 --seed-mode per-switch"
)
n=0
for c in "${cases[@]}"; do
  read -r -a args <<< "$(echo $c)"
  for format in table json csv; do
    n=$((n + 1))
    "$bin" sweep "${args[@]}" --format "$format" --threads 1 > "$tmp/one" 2> "$tmp/one.err"
    [ -s "$tmp/one" ] && [ ! -s "$tmp/one.err" ] || fail "single process: no output or an error: ${args[*]}"
    for run in "2 --threads 2" "3 --threads 1"; do
      read -r np threads <<< "$run"
      mpirun $np "$bin" sweep "${args[@]}" --format "$format" $threads > "$tmp/many" 2> "$tmp/many.err" ||
        fail "-np $np exited $?: ${args[*]} --format $format"
      cmp -s "$tmp/one" "$tmp/many" || fail "-np $np $threads differs from one process: ${args[*]} --format $format"
      [ ! -s "$tmp/many.err" ] || fail "-np $np printed on stderr: $(cat "$tmp/many.err")"
    done
  done
  # --out: rank 0 writes the file, nobody prints, nothing else is left in the directory.
  mkdir "$tmp/out"
  mpirun 3 "$bin" sweep "${args[@]}" --format json --out "$tmp/out/r.json" > "$tmp/many"
  "$bin" sweep "${args[@]}" --format json > "$tmp/one"
  cmp -s "$tmp/one" "$tmp/out/r.json" || fail "-np 3 --out differs from one process: ${args[*]}"
  [ ! -s "$tmp/many" ] || fail "-np 3 --out still printed on stdout"
  [ "$(ls -A "$tmp/out")" = "r.json" ] || fail "-np 3 --out left other files: $(ls -A "$tmp/out")"
  rm -r "$tmp/out"
done

# Bad input: every rank fails alike; rank 0 alone prints the single process's line; exit 2, no stdout.
for bad in "nosuch.toml" "configs/paper16.toml --seeds 5:1" "configs/paper16.toml --bogus" \
           "configs/paper16.toml --seeds 0:20000000"; do
  read -r -a args <<< "$bad"
  set +e
  "$bin" sweep "${args[@]}" > "$tmp/one" 2> "$tmp/one.err"; one=$?
  mpirun 3 "$bin" sweep "${args[@]}" > "$tmp/many" 2> "$tmp/many.err"; many=$?
  set -e
  [ "$one" = 2 ] && [ "$many" = 2 ] || fail "exit codes $one (one) and $many (-np 3) for: $bad"
  [ "$(wc -l < "$tmp/one.err")" = 1 ] || fail "single process error not one line: $bad"
  cmp -s "$tmp/one.err" "$tmp/many.err" || fail "-np 3 error differs: $(cat "$tmp/many.err")"
  [ ! -s "$tmp/many" ] || fail "-np 3 printed on stdout for: $bad"
done
# An --out that rank 0 cannot write: every rank fails with rank 0's line, no
# rank waits for the others in the sweep (it hung there before).
set +e
"$bin" sweep configs/paper16.toml --seeds 0:100 --out "$tmp/no/dir.csv" > "$tmp/one" 2> "$tmp/one.err"; one=$?
timeout 120 "$mpiexec" -q --oversubscribe -np 2 "$bin" sweep configs/paper16.toml --seeds 0:100 \
  --out "$tmp/no/dir.csv" > "$tmp/many" 2> "$tmp/many.err"; many=$?
set -e
[ "$one" = 2 ] && [ "$many" = 2 ] || fail "unwritable --out: exit codes $one (one) and $many (-np 2)"
cmp -s "$tmp/one.err" "$tmp/many.err" || fail "unwritable --out under -np 2: $(cat "$tmp/many.err")"
# Bad input on rank 1 only (an MPMD launch): reported once, naming the rank, and no deadlock.
set +e
timeout 120 "$mpiexec" -q --oversubscribe -np 1 "$bin" sweep configs/paper16.toml --seeds 0:100 \
  : -np 1 "$bin" sweep configs/paper16.toml --seeds 0:100 --bogus > "$tmp/many" 2> "$tmp/many.err"
many=$?
set -e
[ "$many" = 2 ] || fail "ranks with different command lines exited $many"
[ "$(cat "$tmp/many.err")" = "ecmpsim: the ranks were given different command lines" ] ||
  fail "different command lines: $(cat "$tmp/many.err")"

# SIGUSR1 to mpirun (forwarded to every rank): the finished prefix, as one process computes it.
big=(configs/paper16.toml --algos xxh3 --seeds 0:10000000 --threads 1 --format csv)
set +e
"$mpiexec" -q --oversubscribe -np 2 "$bin" sweep "${big[@]}" --out "$tmp/prefix.csv" 2> "$tmp/many.err" &
pid=$!
sleep 3
kill -USR1 "$pid"
wait "$pid"; many=$?
set -e
[ "$many" = 130 ] || fail "SIGUSR1: exit $many, expected 130 (did the sweep end before the signal?)"
done=$(sed -n 's/^ecmpsim: interrupted: reported the first \([0-9]*\) of 10000000 variants$/\1/p' "$tmp/many.err")
[ -n "$done" ] && [ "$done" -gt 0 ] && [ "$done" -lt 10000000 ] || fail "SIGUSR1: $(cat "$tmp/many.err")"
"$bin" sweep configs/paper16.toml --algos xxh3 --seeds "0:$done" --format csv > "$tmp/one"
cmp -s "$tmp/one" "$tmp/prefix.csv" || fail "SIGUSR1: the $done variants reported differ from one process's"

echo "mpi sweep: $n outputs at -np 2 and 3 identical to one process's; errors once; SIGUSR1 prefix of $done identical"
