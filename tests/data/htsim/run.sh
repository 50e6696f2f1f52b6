#!/usr/bin/env bash
# Runs an already built htsim_roce on ecmpsim's flows and appends one row per
# run to a results CSV (tests/data/htsim/README.md says how the recorded
# results.csv was made: which htsim commit, binary and machine).
#
# usage: run.sh HTSIM_ROCE ECMPSIM OUT_CSV CASE...
#   CASE = CONFIG:MODE:TOPO:SEEDS:QPS   (SEEDS, QPS: comma lists)
#   e.g. paper16_ring.toml:streams:paper16.topo:1,2,3:1,2,4,8,16
#   MODE: streams or ring-steps, +paths to put htsim on ecmpsim's paths,
#   +spray to have htsim's switches spray packets round-robin (-strat ecmp_rr;
#   for configs with routing = "spray"; the run ends at 20 ms, 16x the ideal:
#   under go-back-N some connections never finish, and their retransmissions
#   fill gigabytes of host queue),
#   +nopfc (last) to run htsim without PFC pauses (a diagnostic: thresholds
#   and output queues of 10^6 packets, so nothing pauses and nothing drops).
#   CASE = probe:KIND:TOPO:SEEDS:BYTES runs probe_forcing.py's check (KIND
#   matching or pairs) instead; its row has config "probe" and mode KIND.
# Each run: ecmpsim run CONFIG --placement-seed S --qps Q -f json, then
# make_inputs.py writes the connection matrix, then htsim_roce routes it with
# -seed S, under a frozen clock (faketime -f: htsim's RoceSrc reseeds its RNG
# with time(NULL), so without it runs are not repeatable, and +paths needs the
# path id that clock gives; force_paths.py).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
htsim=$1 ecmpsim=$2 out=$3
shift 3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[[ -s $out ]] || echo "config,mode,seed,qps,flows,ideal_s,ecmpsim_slowdown,htsim_completion_s,htsim_efficiency,htsim_flows_done,rtx_packets,lossless_overflows,input_sha256" > "$out"

# run_htsim TOPO SEED CONFIG MODE QPS NFLOWS IDEAL SLOWDOWN: runs $work/in.cm, appends the row
run_htsim() {
  local topo=$1 seed=$2
  local nodes queue=(-q 64)
  local strat=ecmp_host end=1000000
  [[ $4 == *+nopfc ]] && queue=(-q 1000000 -pfc_thresholds 999999 1000000)
  [[ $4 == *+spray* ]] && strat=ecmp_rr end=20000
  nodes=$(sed -n 's/^Nodes //p' "$work/in.cm")
  # htsim can abort (an assertion in FairPriorityQueue::beginService on some
  # inputs): the row then says "aborted K/N" in htsim_flows_done (K of the N
  # connections had finished); its completion is nan unless K = N.
  (cd "$work" && faketime -f '2024-01-01 00:00:00' nice -n 15 "$htsim" -topo "$here/$topo" -tm in.cm -nodes "$nodes" \
      -linkspeed 400000 -strat "$strat" -paths "$(awk '$1=="Radix_Up"{print $2; exit}' "$here/$topo")" \
      -mtu 4096 "${queue[@]}" -seed "$seed" -end "$end" -o log.dat > out.txt 2> err.txt) || echo "ABORTED" >> "$work/out.txt"
  python3 - "$work/out.txt" "$work/in.cm" "${@:3}" "$seed" >> "$out" <<'PY'
import hashlib, re, sys
text = open(sys.argv[1]).read()
cm = open(sys.argv[2], "rb").read()
cfg, mode, qps, nflows, ideal, slowdown, seed = sys.argv[3:10]
offset = re.search(rb"^# offset_ps (\d+)", cm, re.M)
offset_us = int(offset.group(1)) / 1e6 if offset else 0.0
fin = [float(m) for m in re.findall(r"^Flow \S+ \d+ finished at ([0-9.e+-]+) total bytes", text, re.M)]
conns = int(re.search(rb"^Connections (\d+)", cm, re.M).group(1))
rtx = re.search(r"^New: (-?\d+) Rtx: (-?\d+)", text, re.M)
over = text.count("LOSSLESS not working")
aborted = "ABORTED" in text
ok = len(fin) == conns  # an abort after the last connection finished leaves its completion
comp = (max(fin) - offset_us) * 1e-6 if ok else float("nan")
eff = float(ideal) / comp if ok else float("nan")
done = ("aborted " if aborted else "") + f"{len(fin)}/{conns}"
print(f"{cfg},{mode},{seed},{qps},{nflows},{ideal},{slowdown},{comp!r},{eff:.6f},{done},"
      f"{rtx.group(2) if rtx else 'NA'},{over},{hashlib.sha256(cm).hexdigest()}")
PY
  tail -1 "$out"
}

for case in "$@"; do
  IFS=: read -r cfg mode topo seeds qpss <<< "$case"
  for seed in ${seeds//,/ }; do
    if [[ $cfg == probe ]]; then
      python3 "$here/probe_forcing.py" "$here/$topo" "$seed" "$mode" "$qpss" "$work/in.cm"
      nodes=$(sed -n 's/^Nodes //p' "$work/in.cm")
      # ideal: one flow of BYTES at 400 Gb/s per NIC
      run_htsim "$topo" "$seed" probe "$mode" 1 "$nodes" "$(python3 -c "print(repr($qpss * 8 / 400e9))")" NA
      continue
    fi
    for qps in ${qpss//,/ }; do
      "$ecmpsim" run "$here/$cfg" --placement-seed "$seed" --qps "$qps" -f json -o "$work/run.json"
      extra=()
      [[ ${mode%+nopfc} == *+paths ]] && extra=("$seed")
      base=${mode%+nopfc}
      python3 "$here/make_inputs.py" "$work/run.json" "${base%+spray}" "$here/$topo" "$work/in.cm" "${extra[@]}"
      read -r ideal slowdown nflows < <(python3 -c "
import json,sys; s=json.load(open(sys.argv[1]))['scenarios'][0]
print(repr(s['predicted']['ideal_s']), repr(s['predicted']['slowdown']), len(s['flows']))" "$work/run.json")
      run_htsim "$topo" "$seed" "$cfg" "$mode" "$qps" "$nflows" "$ideal" "$slowdown"
    done
  done
done
