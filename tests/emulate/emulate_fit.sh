#!/usr/bin/env bash
# The fit round trip against real Linux routers: `ecmpsim emulate` builds
# paper16 from network namespaces with a chosen net.ipv4.fib_multipath_hash_seed,
# traces every flow with `ip route get` and dumps the kernel's decisions
# (--observations); `ecmpsim fit` must recover linux-l4 and that seed from
# them, certain, and predict the decisions of a second, unseen set of flows.
#  1. A small seed (4242) with the default search (every algorithm, field
#     subset and selection; seeds 0..65535 for the non-affine ones): the
#     seed-by-seed search starts at 0, so it finds a small seed in seconds.
#  2. With --full-seed-space (passed by CMake with -DECMPSIM_FIT_FULL_SEARCH=ON
#     in an optimized build): a large seed (3735928559) found by searching
#     linux-l4 over all 2^32 seeds (about 2 minutes on 2 quiet cores, 12.5 at
#     load 10; see bench/RESULTS.md).
# The traces have a switch column (every leaf that chose among its uplinks):
# the leaves share the kernel's seed, so the fit reports one group for all.
# Negative controls: the same observations with the L3 policy's model only,
# and with a seed range that excludes the seed, must not fit.
# Usage: emulate_fit.sh PATH/TO/ecmpsim [--full-seed-space]
# Exit: 0 pass, 1 fail, 77 skipped (as emulate_test.sh; ECMPSIM_REQUIRE_KERNEL_TESTS=1 makes a skip fail).
set -uo pipefail

bin=$(realpath "${1:?usage: $0 PATH/TO/ecmpsim [--full-seed-space]}")
full=${2:-}
cd "$(dirname "$0")/../.."
source tests/support/kernel_preamble.sh
kernel_require_netns

kernel_workdir ecmpsim-emulate-fit
source tests/emulate/emulate_checks.sh

# measure SEED QPN_BASE NAME: emulates paper16 (its flows' source ports follow
# the QP numbers, so another base gives other flows) and keeps the kernel's
# decisions in $work/NAME.csv.
measure() {
  sed "s/^qpn_base = .*/qpn_base = $2/" configs/paper16.toml >"$work/$3.toml"
  "$bin" emulate "$work/$3.toml" --seed "$1" --method route-get --observations "$work/$3.csv" \
    >"$work/$3.out" 2>"$work/$3.err" || fail "emulate --seed $1: exit $?: $(head -c 300 "$work/$3.err")"
  echo "ok: emulate --seed $1 (qpn_base $2): $(($(wc -l <"$work/$3.csv") - 1)) decisions observed"
}

# check NAME SEED FIT_ARGS...: fits NAME.csv and requires linux-l4 with SEED,
# threshold, offset 0, certain; then predicts the unseen flows' decisions.
check() {
  local name=$1 seed=$2
  shift 2
  local start=$SECONDS
  "$bin" fit "$work/$name.csv" --members 4 --format json "$@" >"$work/fit.json" 2>"$work/fit.err" ||
    { fail "fit $name $*: exit $?: $(cat "$work/fit.err")"; return; }
  python3 - "$work/fit.json" "$seed" <<'PY' || fail "fit $name $*: did not recover linux-l4 seed $seed"
import json, sys
doc = json.load(open(sys.argv[1]))
# The trace has a switch column: every leaf runs the kernel's hash with one
# seed, so all of them share one model (one group).
groups = doc["groups"]
print("  switches:", ", ".join(s["switch"] for s in doc["switches"]), "->", len(groups), "group(s)")
if len(groups) != 1: sys.exit(1)
doc = groups[0]
best = doc["models"][0]
ok = (best["algo"] == "linux-l4" and best["seed"] == int(sys.argv[2]) and best["select"] == "threshold"
      and best["offset"] == 0 and best["agree"] == doc["observations"] and doc["verdict"]["certain"])
print("  fitted:", best["algo"], "seed", best["seed"], best["select"], "offset", best["offset"],
      "agree", best["agree"], "/", doc["observations"], "certain" if doc["verdict"]["certain"] else "NOT certain")
sys.exit(0 if ok else 1)
PY
  echo "ok: fit $name $* -> linux-l4 seed $seed in $((SECONDS - start)) s"
}

# predict NAME UNSEEN FIT_ARGS...: the model fitted on NAME predicts UNSEEN's members.
predict() {
  local name=$1 unseen=$2
  shift 2
  cut -d, -f1-5 "$work/$unseen.csv" >"$work/tuples.csv"
  { echo member; tail -n +2 "$work/$unseen.csv" | cut -d, -f7; } >"$work/want.txt"
  "$bin" fit "$work/$name.csv" --members 4 "$@" --predict "$work/tuples.csv" >"$work/got.txt" 2>"$work/fit.err" ||
    { fail "fit --predict: exit $?: $(cat "$work/fit.err")"; return; }
  cmp -s "$work/got.txt" "$work/want.txt" || fail "fit on $name mispredicts the kernel's decisions for $unseen"
  echo "ok: fitted on $name, predicted all $(($(wc -l <"$work/want.txt") - 1)) kernel decisions of $unseen"
}

measure 4242 0x100 small
measure 4242 0x5000 small-unseen
check small 4242
predict small small-unseen

# Negative controls: the L3 model cannot explain L4 decisions, nor can seeds
# that exclude the kernel's.
"$bin" fit "$work/small.csv" --members 4 --algos linux-l3 >/dev/null 2>"$work/fit.err" &&
  fail "linux-l3 fitted the kernel's L4 decisions"
"$bin" fit "$work/small.csv" --members 4 --algos linux-l4 --seeds 0:4242 >/dev/null 2>"$work/fit.err" &&
  fail "seeds 0..4241 fitted decisions made with seed 4242"
grep -q "no model fits" "$work/fit.err" || fail "no-fit message missing: $(cat "$work/fit.err")"
echo "ok: negative controls (linux-l3; seeds below the kernel's) do not fit"

# IPv6 policy 0 (linux-l3) hashes the flow label: the observations carry it,
# the fit recovers the seed from them, and the same decisions without the
# label column fit no linux-l3 seed.
"$bin" emulate configs/paper16-ipv6.toml --hash linux-l3 --seed 4243 --method route-get \
  --observations "$work/v6.csv" >"$work/v6.out" 2>"$work/v6.err" || fail "emulate IPv6: exit $?: $(head -c 300 "$work/v6.err")"
head -1 "$work/v6.csv" | grep -q '^src,dst,proto,sport,dport,flow_label,switch,member$' ||
  fail "IPv6 observations without a flow_label column: $(head -1 "$work/v6.csv")"
"$bin" fit "$work/v6.csv" --members 4 --algos linux-l3 --format json >"$work/fit.json" 2>"$work/fit.err" ||
  fail "fit IPv6: exit $?: $(cat "$work/fit.err")"
python3 -c 'import json, sys
g = json.load(open(sys.argv[1]))["groups"]; d = g[0]; m = d["models"][0]
sys.exit(0 if len(g) == 1 and m["algo"] == "linux-l3" and m["seed"] == 4243 and m["agree"] == d["observations"] else 1)' "$work/fit.json" ||
  fail "fit IPv6 did not recover linux-l3 seed 4243"
cut -d, -f1-5,7- "$work/v6.csv" >"$work/v6-nolabel.csv"
"$bin" fit "$work/v6-nolabel.csv" --members 4 --algos linux-l3 --seeds 0:65536 >/dev/null 2>"$work/fit.err" &&
  fail "IPv6 decisions fitted without their flow labels"
echo "ok: IPv6 policy 0 fitted to linux-l3 seed 4243 with flow labels ($(($(wc -l <"$work/v6.csv") - 1)) decisions), not without"

if [[ $full == --full-seed-space ]]; then
  measure 3735928559 0x100 large
  measure 3735928559 0x5000 large-unseen
  check large 3735928559 --algos linux-l4 --seeds 0:4294967296
  predict large large-unseen --algos linux-l4 --seeds 3735928559:3735928560
fi

[[ $failures -eq 0 ]] && echo "emulate_fit: all as expected" || echo "emulate_fit: $failures failures" >&2
[[ $failures -eq 0 ]]
