#!/usr/bin/env bash
# End-to-end check of `ecmpsim emulate --measure-time` against the running
# kernel: paper16 built from network namespaces, every link shaped by tc HTB
# to 1/100000 of its speed (400 Gb/s -> 4 Mb/s), every flow a real TCP
# connection. The measured slowdown must be within 15% of the flow model's,
# for ECMP and for the static table, and ECMP must stay the slower of the
# two. The predicted slowdowns are checked against the hand-worked values
# (paper16's ring puts 4 flows on every link of a balanced fabric; linux-l4
# seed 1 stacks 7 on the busiest, so ECMP's slowdown is 7/4; the dst-mod
# table puts 4 everywhere, 1). The same on paper16-ipv6 (IPv6 TCP, u32 ip6
# filters, ip -6 rules), under policy 0 (linux-l3: addresses, flow label
# and next header, so each connection must carry its flow's label; the ip6
# filters match the label, so 64 TCP flows counted in their classes says
# every segment carried it) and policy 1 (linux-l4); there the predicted
# slowdown is checked against the busiest link the kernel's own forwarding
# of the flows made, over 4. Negative control: timing the ECMP kernel
# against the static table's prediction must disagree. Interrupts (SIGINT,
# SIGTERM) during the timed transfers, a --timeout that runs out, a `tc`
# that fails half way and a --scale the machine cannot hold must leave no
# namespace behind.
#
# Usage: measure_time_test.sh PATH/TO/ecmpsim
# Exit: 0 pass, 1 fail, 77 skipped (as emulate_test.sh, and without tc HTB).
# ECMPSIM_REQUIRE_KERNEL_TESTS=1 turns every skip into a failure.
set -uo pipefail

bin=$(realpath "${1:?usage: $0 PATH/TO/ecmpsim}")
cd "$(dirname "$0")/../.."
source tests/support/kernel_preamble.sh
command -v tc >/dev/null || skip "tc (iproute2) not installed"
command -v python3 >/dev/null || skip "python3 not installed"
kernel_require_netns tc -n "$kernel_probe" qdisc add dev lo root handle 1: htb ||
  skip "kernel $(uname -r) has no HTB qdisc (CONFIG_NET_SCH_HTB)"

kernel_workdir ecmpsim-time
source tests/emulate/emulate_checks.sh
# json FILE EXPR: a Python expression over the document d.
json() { python3 -c "import json, sys; d = json.load(open(sys.argv[1])); print($2)" "$1"; }

scale=(--scale 1/100000 --seconds 2)

# timed EXPECTED_RC OUT ARGS...: runs emulate --measure-time in the background,
# checks its exit code and that it left no namespace.
timed() {
  local want=$1 out=$2
  shift 2
  "$bin" emulate --measure-time "${scale[@]}" "$@" --format json >"$out" 2>"$work/err" &
  local pid=$!
  wait $pid
  local rc=$?
  [[ $(leftovers $pid) -eq 0 ]] || fail "emulate --measure-time $*: $(leftovers $pid) namespaces left behind"
  if [[ $rc -ne $want ]]; then
    fail "emulate --measure-time $*: exit $rc, expected $want: $(head -c 300 "$work/err")"
    return 1
  fi
  echo "ok: emulate --measure-time $* -> exit $rc, slowdown measured $(json "$out" "d['slowdown_measured']")" \
    "predicted $(json "$out" "d['slowdown_predicted']"), error $(json "$out" "d['relative_error']")," \
    "$(json "$out" "d['time']['emulated_seconds']") s emulated"
}

# agrees OUT PREDICTED: every path and every TCP class as predicted, the
# predicted slowdown the hand-worked one (a Python expression over d), the
# measured within 15%.
agrees() {
  local out=$1 predicted=$2
  [[ $(json "$out" "d['paths_agree'] == d['flows'] == 64") == True ]] || fail "$out: paths do not all agree"
  [[ $(json "$out" "d['time']['tcp_paths_agree'] == 64 and d['time']['flows_finished'] == 64") == True ]] ||
    fail "$out: not every TCP flow finished on its path"
  [[ $(json "$out" "abs(d['slowdown_predicted'] - ($predicted)) < 1e-9") == True ]] ||
    fail "$out: predicted slowdown $(json "$out" "d['slowdown_predicted']"), expected $(json "$out" "$predicted")"
  # The relative error, recomputed here from the two slowdowns.
  [[ $(json "$out" "abs(d['slowdown_measured'] / d['slowdown_predicted'] - 1) <= 0.15") == True ]] ||
    fail "$out: measured slowdown $(json "$out" "d['slowdown_measured']") not within 15% of $(json "$out" "$predicted")"
  [[ $(json "$out" "d['completion_measured_s'] > 0 and d['completion_predicted_s'] > 0") == True ]] ||
    fail "$out: no completion times"
}

timed 0 "$work/ecmp.json" configs/paper16.toml --scenario ecmp && agrees "$work/ecmp.json" 1.75
timed 0 "$work/static.json" configs/paper16.toml --scenario static && agrees "$work/static.json" 1.0
if [[ -s $work/ecmp.json && -s $work/static.json ]]; then
  e=$(json "$work/ecmp.json" "d['slowdown_measured']")
  s=$(json "$work/static.json" "d['slowdown_measured']")
  [[ $(python3 -c "print($e > $s)") == True ]] || fail "ordering lost: ECMP measured $e, static $s"
  echo "ok: ECMP measured slower than static ($e > $s)"
fi

# IPv6: paper16's flows, ring and speeds, so the slowdown is again the
# busiest link's flows over 4 — that link read off the packets the kernel
# forwarded (the packets method's max_flows), not off the prediction.
busiest="max(m['max_flows'] for m in d['method'] if m['method'] == 'packets') / 4"
for hash in linux-l3 linux-l4; do
  timed 0 "$work/ecmp6-$hash.json" configs/paper16-ipv6.toml --scenario ecmp --hash $hash &&
    agrees "$work/ecmp6-$hash.json" "$busiest"
done
if [[ -s $work/ecmp6-linux-l3.json ]]; then
  [[ $(json "$work/ecmp6-linux-l3.json" "d['kernel']['fib_multipath_hash_policy'] == 0 and $busiest > 1") == True ]] ||
    fail "IPv6 linux-l3: not policy 0, or no link busier than the ideal 4 flows (nothing to time)"
fi

# Negative control: the kernel runs ECMP, the prediction is the static
# table's (slowdown 1): the measured 7/4 must not pass for it.
if timed 3 "$work/neg.json" configs/paper16.toml --scenario ecmp --predict-scenario static; then
  [[ $(json "$work/neg.json" "d['time_agree'] == False and d['relative_error'] > 0.15") == True ]] ||
    fail "ECMP timed against the static prediction agreed (error $(json "$work/neg.json" "d['relative_error']"))"
fi

# A --timeout shorter than the transfers: exit 3, unfinished flows, nothing left.
if timed 3 "$work/timeout.json" configs/paper16.toml --timeout 1; then
  [[ $(json "$work/timeout.json" "d['time']['timed_out'] and d['time']['flows_finished'] < 64") == True ]] ||
    fail "--timeout 1: the run did not time out"
fi

# A scale the machine cannot hold: bad input (exit 2) naming the scale it can, before anything is built.
"$bin" emulate configs/paper16.toml --measure-time --scale 1 >/dev/null 2>"$work/err" &
pid=$!
wait $pid
rc=$?
[[ $rc -eq 2 ]] && grep -q "cannot hold scale 1 .*at most 1/" "$work/err" ||
  fail "--scale 1: exit $rc, expected 2 naming the scale this machine holds: $(cat "$work/err")"
[[ $(leftovers $pid) -eq 0 ]] || fail "--scale 1: namespaces left"

# A `tc` failing half way through the shaping (a wrapper ahead of the real tc
# in PATH refuses spine2's batch): an error, exit 1, the fabric removed.
mkdir -p "$work/bin"
cat >"$work/bin/tc" <<EOF
#!/usr/bin/env bash
if [[ "\$*" == *"-n es"*"-spine2 "* ]]; then echo "injected tc failure" >&2; exit 1; fi
exec $(command -v tc) "\$@"
EOF
chmod +x "$work/bin/tc"
PATH="$work/bin:$PATH" "$bin" emulate configs/paper16.toml --measure-time "${scale[@]}" >/dev/null 2>"$work/err" &
pid=$!
wait $pid
rc=$?
[[ $rc -eq 1 ]] && grep -q "injected tc failure" "$work/err" ||
  fail "failing tc: exit $rc, expected 1 with tc's message: $(cat "$work/err")"
[[ $(leftovers $pid) -eq 0 ]] || fail "failing tc: $(leftovers $pid) namespaces left"
echo "ok: tc failing half way -> exit $rc, no namespace left"

# interrupt_timing SIGNAL: stops emulate while its flows are running (host0 has
# its steering and its flows are connected); exit 130, nothing left.
interrupt_timing() {
  local sig=$1 target
  setsid "$bin" emulate configs/paper16.toml --measure-time "${scale[@]}" >/dev/null 2>"$work/err" &
  local pid=$! i rc
  for ((i = 0; i < 6000; i++)); do
    kill -0 $pid 2>/dev/null || break
    ip netns exec "es$pid-host0" ss -Htn state established 2>/dev/null | grep -q . && break
    sleep 0.005
  done
  sleep 0.3
  target=$pid
  [[ $sig == INT ]] && target=-$pid
  kill -"$sig" -- $target 2>/dev/null
  wait $pid
  rc=$?
  [[ $rc -eq 130 ]] || fail "$sig while timing: exit $rc, expected 130: $(head -c 300 "$work/err")"
  [[ $(leftovers $pid) -eq 0 ]] || fail "$sig while timing: $(leftovers $pid) namespaces left"
  echo "ok: $sig while timing -> exit $rc, no namespace left"
}
interrupt_timing TERM
interrupt_timing INT

[[ $failures -eq 0 ]] && echo "measure-time: all runs as expected" || echo "measure-time: $failures failures" >&2
[[ $failures -eq 0 ]]
