#!/usr/bin/env bash
# The end-to-end benchmark: builds Release into BUILD_DIR (default build-bench)
# and prints, on this machine:
#  1. flow-hop decisions per second on 1 thread and on all threads (the route
#     step of bench/route_bench.cpp), and the cost of one flow-hop against the
#     hash alone, measured in the same run;
#  2. paper16 seeds per second: `ecmpsim sweep configs/paper16.toml --seeds 0:N`, CRC (the
#     config) and xxh3, each with the flow model (default) and --no-slowdown;
#  3. ecmpsim hash --tuples on a million random five-tuples;
#  4. a 100-seed sweep with the slowdown metric on a k = 16 fat-tree with random
#     placement (bench/configs/sweep-ft16-random.toml);
#  5. ecmpsim fit: a full 2^32 seed search over one non-affine family (xxh32,
#     the five-tuple; the hidden seed near the top, so every seed is tried) and
#     default fits of 1,000 observations (every algorithm, field list,
#     selection);
#  6. a scale series (bench/configs/scale-*.toml): fat-trees k = 8..48, a
#     100,000-NIC rail-optimized fabric, and four-job mixes on k = 16, k = 48
#     and the 100,000-GPU rail fabric (scale-rail100k-jobs), each `ecmpsim run
#     --format summary` with its wall time and peak memory (GNU time -v);
#  7. imported flows of random sizes on paper16 (bench/random_flows.py),
#     10^4..10^6 (IMPORTED, default "10000 100000 1000000"), each `ecmpsim run
#     --flows F --format summary` with and without --no-slowdown: the flow
#     model's growth with distinct flow sizes (issue 36);
#  8. what a kill loses and what the default checkpoint costs (bench/kill_loss.py,
#     issue 47): a million-seed paper16 xxh3 sweep with --out SIGKILLed at
#     KILLS moments spread over it, the work its checkpoint lost against
#     max(5 s, 10% of the time so far); then with and without the default
#     checkpoint, alternated.
# Usage: bench/run.sh [BUILD_DIR]      Env: SEEDS (default 100000), CASES (glob, default scale-*),
#                                           IMPORTED (flow counts of section 7), KILLS (section 8, default 8)
# Not part of the test suite; takes minutes: the k = 48 four-job mix alone
# (scale-ft48-jobs, 1.1 M flows) took 51-54 s on 2 cores, the rail mix
# (scale-rail100k-jobs, 426 k flows) 3.4 s (bench/RESULTS.md);
# CASES='scale-ft[01]*' skips the k = 32 and 48 and rail cases.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-bench}
seeds=${SEEDS:-100000}
cases=${CASES:-scale-*}
imported=${IMPORTED:-10000 100000 1000000}
cd "$root"

cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DECMPSIM_BENCH=ON -DECMPSIM_TESTS=OFF >/dev/null
cmake --build "$build" -j"$(nproc)" >/dev/null
bin=$build/ecmpsim

echo "commit   $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' (modified)')"
echo "machine  $(nproc) cores, $(awk '/MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo

echo "== flow-hop decisions (paper16, route step; best of 3 repetitions)"
"$build/bench/route_bench" --benchmark_filter='BM_RouteStep|BM_HashOnly' --benchmark_repetitions=3 \
  --benchmark_min_time=0.5 --benchmark_format=json 2>/dev/null | python3 -c '
import json, sys
best = {}
for b in json.load(sys.stdin)["benchmarks"]:
    if b.get("run_type") != "iteration": continue
    name = b["run_name"]
    best[name] = max(best.get(name, 0), b["items_per_second"])
for name, v in sorted(best.items()):
    unit = "flow-hops/s" if "RouteStep" in name else "hashes/s"
    print(f"  {name:32s} {v / 1e6:10.1f} M {unit}")
hop, hash1 = best.get("BM_RouteStep/real_time/threads:1"), best.get("BM_HashOnly/real_time/threads:1")
if hop and hash1:
    print(f"  one flow-hop costs {hash1 / hop:.2f}x the hash alone (1 thread; target <= 3x)")
'
echo

echo "== paper16 seeds per second"
if "$bin" sweep --help >/dev/null 2>&1; then
  for extra in "" "--no-slowdown" "--algos xxh3" "--algos xxh3 --no-slowdown"; do
    for t in 1 "$(nproc)"; do
      start=$(date +%s.%N)
      # shellcheck disable=SC2086
      "$bin" sweep configs/paper16.toml --seeds "0:$seeds" --threads "$t" $extra --format json >/dev/null
      end=$(date +%s.%N)
      awk -v n="$seeds" -v s="$start" -v e="$end" -v t="$t" -v x="${extra:-(default: CRC, with slowdown)}" \
        'BEGIN { printf "  %d thread(s) %-28s %d seeds in %.2f s = %.0f seeds/s\n", t, x, n, e - s, n / (e - s) }'
    done
  done
else
  echo "  (this build has no 'ecmpsim sweep')"
fi
echo

echo "== ecmpsim hash --tuples (batch, crc16-ccitt, 8 members)"
tuples=$(mktemp)
python3 -c '
import random
r = random.Random(1)
print("src,dst,proto,sport,dport")
for _ in range(1000000):
    print(f"10.{r.randrange(256)}.{r.randrange(256)}.{r.randrange(1, 255)},10.{r.randrange(256)}.{r.randrange(256)}.{r.randrange(1, 255)},17,{r.randrange(49152, 65536)},4791")
' > "$tuples"
start=$(date +%s.%N)
"$bin" hash --algo crc16-ccitt --members 8 --tuples "$tuples" >/dev/null
end=$(date +%s.%N)
awk -v s="$start" -v e="$end" 'BEGIN { printf "  1000000 tuples in %.2f s = %.2f M tuples/s (file read, parsed, hashed, printed)\n", e - s, 1 / (e - s) }'
rm -f "$tuples"
echo

echo "== slowdown sweep on a heterogeneous fabric (k = 16, random placement, 20 channels, 100 seeds)"
start=$(date +%s.%N)
# xxh3: the config's CRC-16 is affine in its seed, so its 100 seeds give one answer.
"$bin" sweep bench/configs/sweep-ft16-random.toml --seeds 0:100 --algos xxh3 --format json >/dev/null
end=$(date +%s.%N)
awk -v s="$start" -v e="$end" 'BEGIN { printf "  100 variants x 20,480 flows in %.2f s = %.1f ms per variant\n", e - s, (e - s) * 10 }'
echo

echo "== ecmpsim fit"
fitdir=$(mktemp -d)
python3 -c '
import random
r = random.Random(7)
print("src,dst,proto,sport,dport")
for _ in range(1000):
    print(f"10.0.{r.randrange(4)}.{r.randrange(1, 255)},10.1.{r.randrange(4)}.{r.randrange(1, 255)},17,{r.randrange(49152, 65536)},4791")
' >"$fitdir/tuples.csv"
# observe N ALGO SEED: the first N tuples with the member ALGO/SEED picks of 4.
observe() {
  "$bin" hash --algo "$2" --seed "$3" --members 4 --tuples "$fitdir/tuples.csv" | cut -d, -f2 >"$fitdir/m"
  paste -d, <(head -$(($1 + 1)) "$fitdir/tuples.csv") <(echo member; head -"$1" "$fitdir/m") >"$fitdir/obs.csv"
}
timed() {
  local start end
  start=$(date +%s.%N)
  "$@" >"$fitdir/out" 2>/dev/null
  end=$(date +%s.%N)
  awk -v s="$start" -v e="$end" 'BEGIN { printf "%.2f s", e - s }'
}
observe 64 xxh32 4294967280
echo "  full 2^32 seeds, xxh32, 64 observations, $(nproc) threads: $(timed "$bin" fit "$fitdir/obs.csv" --members 4 \
  --algos xxh32 --fields src-ip,dst-ip,proto,src-port,dst-port --seeds 0:4294967296) ($(grep -c 4294967280 "$fitdir/out") model line(s) with the hidden seed)"
for hidden in "crc16-ccitt 1234" "crc32 99" "xxh32 1000" "linux-l4 4242"; do
  # shellcheck disable=SC2086
  observe 1000 $hidden
  echo "  default fit of 1,000 observations of ${hidden% *} (seed ${hidden#* }): $(timed "$bin" fit "$fitdir/obs.csv" --members 4)"
done
rm -rf "$fitdir"
echo

echo "== scale series: ecmpsim run --format summary"
printf '  %-24s %10s %10s %10s %10s %10s %12s\n' case switches endpoints flows "wall (s)" "us/flow" "peak (MiB)"
declare -A walls
for cfg in bench/configs/$cases.toml; do
  name=$(basename "$cfg" .toml)
  out=$(mktemp)
  if /usr/bin/time -v -o "$out.time" "$bin" run "$cfg" --format summary >"$out" 2>"$out.err"; then
    sw=$(awk '/^fabric/ {print $2}' "$out")
    ep=$(awk '/^fabric/ {print $4}' "$out")
    fl=$(grep -oE 'QP: [0-9]+ flows' "$out" | awk '{n += $2} END {print n}')
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s}' "$out.time")
    rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2 / 1024}' "$out.time")
    walls[$name]=$wall
    printf '  %-24s %10s %10s %10s %10.2f %10.2f %12s\n' "$name" "$sw" "$ep" "$fl" "$wall" \
      "$(awk -v w="$wall" -v n="$fl" 'BEGIN { print n > 0 ? w / n * 1e6 : 0 }')" "$rss"
  else
    printf '  %-24s failed: %s\n' "$name" "$(head -1 "$out.err")"
  fi
  rm -f "$out" "$out.time" "$out.err"
done
# Random placement against contiguous placement of the same flows (issue 19
# targets: <= 5x for 110,592 flows, <= 10x for 995,328), from this run.
for pair in "scale-ft48-100k-random scale-ft48-100k" "scale-ft48-1m-random scale-ft48-1m" \
            "scale-ft16-random scale-ft16"; do
  set -- $pair
  if [[ -n ${walls[$1]:-} && -n ${walls[$2]:-} ]]; then
    awk -v a="${walls[$1]}" -v b="${walls[$2]}" -v x="$1" -v y="$2" \
      'BEGIN { printf "  %s / %s = %.2fx\n", x, y, a / b }'
  fi
done
echo

echo "== imported flows of random sizes on paper16 (bench/random_flows.py): ecmpsim run --flows F --format summary"
printf '  %10s %12s %10s %12s %12s %18s
' flows events "wall (s)" "peak (MiB)" "us/flow" "--no-slowdown (s)"
flowdir=$(mktemp -d)
for n in $imported; do
  python3 bench/random_flows.py "$n" > "$flowdir/flows.csv"
  measure() {  # wall seconds and peak MiB of one run
    /usr/bin/time -v -o "$flowdir/time" "$bin" run configs/paper16.toml --flows "$flowdir/flows.csv" --format summary \
      "$@" >/dev/null
    awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; w = s}
                /Maximum resident set size/ {r = $2 / 1024} END {printf "%.2f %.0f", w, r}' "$flowdir/time"
  }
  read -r wall rss <<<"$(measure)"
  read -r bare _ <<<"$(measure --no-slowdown)"
  printf '  %10s %10.2f %12s %12.2f %18.2f\n' "$n" "$wall" "$rss" \
    "$(awk -v w="$wall" -v n="$n" 'BEGIN { print w / n * 1e6 }')" "$bare"
done
rm -rf "$flowdir"
echo

echo "== a kill's loss and the default checkpoint's cost (bench/kill_loss.py)"
python3 bench/kill_loss.py "$bin" 1000000 "${KILLS:-8}" 3 | sed 's/^/  /'
