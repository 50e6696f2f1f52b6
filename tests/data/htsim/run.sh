#!/usr/bin/env bash
# Runs an already built htsim_roce on ecmpsim's flows and appends one row per
# run to a results CSV (tests/data/htsim/README.md says how the recorded
# results.csv was made: which htsim commit, binary and machine).
#
# usage: run.sh HTSIM_ROCE ECMPSIM OUT_CSV CASE...
#   CASE = CONFIG:MODE:HOSTS_PER_LEAF:TOPO:SEEDS:QPS   (SEEDS, QPS: comma lists)
#   e.g. paper16_ring.toml:streams:4:paper16.topo:1,2,3:1,2,4,8,16
# Each run: ecmpsim run CONFIG --placement-seed S --qps Q -f json, then
# make_inputs.py writes the connection matrix, then htsim_roce routes it by its
# own ECMP hash seeded with -seed S, under faketime (htsim's RoceSrc reseeds its
# RNG with time(NULL), so without a fixed clock its runs are not repeatable).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
htsim=$1 ecmpsim=$2 out=$3
shift 3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[[ -s $out ]] || echo "config,mode,seed,qps,flows,ideal_s,ecmpsim_slowdown,htsim_completion_s,htsim_efficiency,htsim_flows_done,rtx_packets,lossless_overflows,input_sha256" > "$out"
for case in "$@"; do
  IFS=: read -r cfg mode hpl topo seeds qpss <<< "$case"
  for seed in ${seeds//,/ }; do
    for qps in ${qpss//,/ }; do
      "$ecmpsim" run "$here/$cfg" --placement-seed "$seed" --qps "$qps" -f json -o "$work/run.json"
      python3 "$here/make_inputs.py" "$work/run.json" "$mode" "$hpl" "$work/in.cm"
      read -r ideal slowdown nflows < <(python3 -c "
import json,sys; s=json.load(open(sys.argv[1]))['scenarios'][0]
print(repr(s['predicted']['ideal_s']), repr(s['predicted']['slowdown']), len(s['flows']))" "$work/run.json")
      nodes=$(sed -n 's/^Nodes //p' "$work/in.cm")
      (cd "$work" && faketime '2024-01-01 00:00:00' nice -n 15 "$htsim" -topo "$here/$topo" -tm in.cm -nodes "$nodes" \
          -linkspeed 400000 -strat ecmp_host -paths 4 -mtu 4096 -q 64 -seed "$seed" -end 1000000 -o log.dat > out.txt)
      python3 - "$work/out.txt" "$work/in.cm" "$cfg" "$mode" "$seed" "$qps" "$nflows" "$ideal" "$slowdown" >> "$out" <<'EOF'
import hashlib, re, sys
text = open(sys.argv[1]).read()
cm = open(sys.argv[2], "rb").read()
cfg, mode, seed, qps, nflows, ideal, slowdown = sys.argv[3:10]
fin = [float(m) for m in re.findall(r"^Flow \S+ \d+ finished at ([0-9.e+-]+) total bytes", text, re.M)]
conns = int(re.search(rb"^Connections (\d+)", cm, re.M).group(1))
rtx = re.search(r"^New: (\d+) Rtx: (\d+)", text, re.M)
over = text.count("LOSSLESS not working")
done = len(fin)
comp = max(fin) * 1e-6 if done == conns else float("nan")
eff = float(ideal) / comp if done == conns else float("nan")
print(f"{cfg},{mode},{seed},{qps},{nflows},{ideal},{slowdown},{comp!r},{eff:.6f},{done}/{conns},"
      f"{rtx.group(2) if rtx else 'NA'},{over},{hashlib.sha256(cm).hexdigest()}")
EOF
      tail -1 "$out"
    done
  done
done
