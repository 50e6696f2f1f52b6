#!/usr/bin/env bash
# End-to-end check of `ecmpsim emulate` on IPv6 fabrics against the running
# kernel: IPv6 addresses, static neighbours and IPv6 multipath routes in the
# namespaces; every flow sent as real IPv6/UDP packets to port 4791 carrying
# its source port and flow label, and traced hop by hop with RTM_GETROUTE
# (with the flow label); the kernel must agree with ecmpsim's prediction on
# every flow path and link count, under net.ipv6.fib_multipath_hash_policy 0
# (addresses, flow label, next header) and 1 (five-tuple), with failures and
# with a static table.
# Negative controls: a prediction with a seed the kernel does not use must
# disagree; and the flow label must really travel and be hashed: the same
# five-tuples with other flow labels (other QP numbers, fixed source port)
# must move flows under policy 0 and move none under policy 1; foreign IPv6
# datagrams while measuring must fail the run. After every run, and after an
# interrupt, no namespace of that run may remain. (--measure-time on IPv6
# fabrics is checked by measure_time_test.sh.)
#
# Usage: emulate6_test.sh PATH/TO/ecmpsim
# Exit: 0 pass, 1 fail, 77 skipped (not root, no iproute2 / netns / IPv6, or
# a kernel without net.ipv4.fib_multipath_hash_seed, added in Linux 6.11, or
# without RTA_FLOWLABEL in RTM_GETROUTE, 6.5).
# ECMPSIM_REQUIRE_KERNEL_TESTS=1 (CI) turns every skip into a failure.
set -uo pipefail

bin=$(realpath "${1:?usage: $0 PATH/TO/ecmpsim}")
cd "$(dirname "$0")/../.."
source tests/support/kernel_preamble.sh
kernel_require_netns test -d /proc/sys/net/ipv6 || skip "kernel without IPv6"

kernel_workdir ecmpsim-emulate6
source tests/emulate/emulate_checks.sh

v6=tests/emulate/fat_tree_k4_ipv6.toml
# The flows carry flow labels (the QP pairs' rdma_calc_flow_label), most of them non-zero.
"$bin" emulate "$v6" --method route-get --format json >"$work/labels.json" 2>/dev/null
labelled=$(grep -o '"flow_label": [0-9]*' "$work/labels.json" | awk '$2 != 0' | wc -l)
[[ $labelled -gt 0 ]] || fail "the IPv6 flows carry no flow label"

# Policy 1 (linux-l4) and policy 0 (linux-l3), several seeds, both methods.
agree "$v6"
agree "$v6" --seed 2024
agree "$v6" --scenario l3
agree "$v6" --scenario l3 --seed 305419896
# paper16 on IPv6 (CRC-16 in the config, emulated as linux-l4), and as linux-l3.
agree configs/paper16-ipv6.toml --seed 42
agree configs/paper16-ipv6.toml --hash linux-l3 --seed 3735928559
# Failures that change the equal-cost sets two tiers away, under policy 0.
agree "$v6" --scenario core-down
grep -q '"down": true' "$work/out.json" || fail "core-down: no link reported down"
# A static table as one /128 route per destination.
agree "$v6" --scenario static
agree configs/paper16-ipv6.toml --scenario static

# Negative controls: a wrong seed, another scenario's failures, the static
# table for an ECMP kernel.
disagree "$v6" --scenario l3 --seed 42 --predict-seed 43
disagree "$v6" --seed 42 --predict-seed 43 --method packets
disagree "$v6" --scenario core-down --predict-scenario l3 --method route-get
disagree configs/paper16-ipv6.toml --hash linux-l3 --predict-scenario static --method packets

# The flow label on the wire: fixed source ports make the flows of one host
# pair differ only by flow label; other QP numbers give the same five-tuples
# other labels. Both configs must agree with their predictions; under policy
# 0 the kernel must then forward some flows differently, under policy 1 none.
sed 's/^channels = 4$/channels = 4\nsport_model = "fixed"/' "$v6" >"$work/fixed-a.toml"
sed 's/^channels = 4$/channels = 4\nsport_model = "fixed"\nqpn_base = 4096/' "$v6" >"$work/fixed-b.toml"
labels_of() { grep -o '"flow_label": [0-9]*' "$1" | tr -d ' \n'; }
# Flows whose measured (packets) path differs between two runs of the same
# five-tuples; -1 if the five-tuples are not the same.
moved_flows() {
  python3 -c 'import json, sys
a, b = (json.load(open(f))["flow_paths"] for f in sys.argv[1:3])
key = lambda r: [r[k] for k in ("src_ip", "dst_ip", "proto", "sport", "dport")]
same = len(a) == len(b) and all(key(x) == key(y) for x, y in zip(a, b))
print(sum(x["packets"] != y["packets"] for x, y in zip(a, b)) if same else -1)' "$1" "$2"
}
for policy in l3 linux; do
  agree "$work/fixed-a.toml" --scenario $policy --method packets && cp "$work/out.json" "$work/a.json"
  agree "$work/fixed-b.toml" --scenario $policy --method packets && cp "$work/out.json" "$work/b.json"
  [[ $(labels_of "$work/a.json") != "$(labels_of "$work/b.json")" ]] || fail "qpn_base did not change the flow labels"
  moved=$(moved_flows "$work/a.json" "$work/b.json")
  [[ $moved -ge 0 ]] || fail "qpn_base changed the five-tuples, not only the flow labels"
  if [[ $policy == l3 ]]; then
    [[ $moved -gt 0 ]] || fail "policy 0: other flow labels moved no flow: the label is not on the wire or not hashed"
  else
    [[ $moved -eq 0 ]] || fail "policy 1: other flow labels moved $moved flows"
  fi
  echo "ok: policy $([[ $policy == l3 ]] && echo 0 || echo 1): other flow labels on the same five-tuples moved $moved flows"
done

interrupt INT building configs/paper16-ipv6.toml
interrupt INT measuring configs/paper16-ipv6.toml --method packets --packets 1000
interrupt TERM measuring configs/paper16-ipv6.toml --method packets --packets 1000

# The counters see only the test packets on IPv6 too.
noise configs/paper16-ipv6.toml

[[ $failures -eq 0 ]] && echo "emulate6: all runs as expected" || echo "emulate6: $failures failures" >&2
[[ $failures -eq 0 ]]
