#!/usr/bin/env bash
# Kernel agreement test for the linux-l3 / linux-l4 hash models.
#
# Builds a router namespace with one ingress veth and eight egress veths,
# installs legacy multipath routes (2, 3, 4 and 8 equal next hops and one
# weighted route), and for several non-zero net.ipv4.fib_multipath_hash_seed
# values and both fib_multipath_hash_policy values asks the kernel, with
# `ip -batch ... route get DST from SRC iif IN ipproto udp sport S dport D`,
# which next hop it forwards thousands of random UDP five-tuples to. The same
# tuples go through ecmpsim's model (linux_hash_tool); every answer must match.
#
# Usage: linux_multipath.sh PATH/TO/linux_hash_tool [tuples-per-route]
# ECMPSIM_HK_KEEP=DIR keeps the tuples and both sides' answers in DIR.
# Exit: 0 all agree, 1 a disagreement or setup failure, 77 skipped (not root,
# no `ip netns`, or a kernel without fib_multipath_hash_seed).
# ECMPSIM_REQUIRE_KERNEL_TESTS=1 (for CI, where the test must really run) turns
# every skip into a failure.
set -euo pipefail

tool=${1:?usage: $0 PATH/TO/linux_hash_tool [tuples-per-route]}
per_route=${2:-${ECMPSIM_HK_TUPLES:-250}}
seeds=(1 42 305419896 3735928559)   # 0x12345678 and 0xdeadbeef among them
policies=(0 1)

[[ -x $tool ]] || { echo "linux_hash_tool not executable: $tool" >&2; exit 1; }
source "$(dirname "$0")/../support/kernel_preamble.sh"
kernel_require_netns ip netns exec "$kernel_probe" true ||
  skip "cannot run commands in a network namespace (ip netns exec failed)"

prefix="ecmpsim-hk-$$-"
router="${prefix}r"
sink="${prefix}s"
kernel_workdir ecmpsim-hk "$prefix" "${ECMPSIM_HK_KEEP:-}"

ip netns add "$router"
ip netns add "$sink"
R() { ip netns exec "$router" "$@"; }

# Forwarding on, no reverse-path filtering: `route get ... iif` is then a
# forwarding decision for any source outside the router's own subnets.
R sysctl -qw net.ipv4.ip_forward=1 net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.default.rp_filter=0 \
  net.ipv4.fib_multipath_use_neigh=0 >/dev/null

ip link add vin netns "$router" type veth peer name pin netns "$sink"
R ip addr add 10.99.0.1/24 dev vin
R ip link set vin up
ip -n "$sink" link set pin up
for k in 1 2 3 4 5 6 7 8; do
  ip link add "v$k" netns "$router" type veth peer name "p$k" netns "$sink"
  R ip addr add "10.100.$k.1/24" dev "v$k"
  R ip link set "v$k" up
  ip -n "$sink" addr add "10.100.$k.2/24" dev "p$k"
  ip -n "$sink" link set "p$k" up
done
R ip link set lo up

# name|prefix second octet|weights (next hop k is via 10.100.k.2 dev vk)
routes=("ecmp2|18|1 1" "ecmp3|19|1 1 1" "ecmp4|20|1 1 1 1" "ecmp8|21|1 1 1 1 1 1 1 1" "weighted|22|1 3 5 2")
for r in "${routes[@]}"; do
  IFS='|' read -r _ octet weights <<<"$r"
  args=()
  k=0
  for w in $weights; do
    k=$((k + 1))
    args+=(nexthop via "10.100.$k.2" dev "v$k" weight "$w")
  done
  R ip route add "172.$octet.0.0/16" "${args[@]}"
done

total=0
mismatches=0
for seed in "${seeds[@]}"; do
  for policy in "${policies[@]}"; do
    R sysctl -qw net.ipv4.fib_multipath_hash_policy="$policy" net.ipv4.fib_multipath_hash_seed="$seed" >/dev/null
    [[ $(R sysctl -n net.ipv4.fib_multipath_hash_seed) == "$seed" ]] || { echo "seed not set" >&2; exit 1; }
    for r in "${routes[@]}"; do
      IFS='|' read -r name octet weights <<<"$r"
      tuples="$work/$name-$seed-$policy.tuples"
      # Random sources from 1-126.x.x.x (not 10/8, not the router's own
      # subnets), destinations inside the route's prefix, random UDP ports
      # with every fourth destination port the RoCEv2 4791.
      awk -v n="$per_route" -v octet="$octet" -v rs="$((seed % 100000 * 10 + policy))$octet" 'BEGIN {
        srand(rs)
        for (i = 0; i < n; i++) {
          do { a = 1 + int(rand() * 126) } while (a == 10)
          src = a "." int(rand() * 256) "." int(rand() * 256) "." (1 + int(rand() * 254))
          dst = "172." octet "." int(rand() * 256) "." (1 + int(rand() * 254))
          sport = 1 + int(rand() * 65535)
          dport = (i % 4 == 0) ? 4791 : 1 + int(rand() * 65535)
          print src, dst, 17, sport, dport
        }
      }' >"$tuples"
      awk '{ printf "route get %s from %s iif vin ipproto 17 sport %s dport %s\n", $2, $1, $4, $5 }' \
        "$tuples" >"$tuples.batch"
      ip -n "$router" -force -batch "$tuples.batch" 2>"$tuples.err" |
        grep -o 'via 10\.100\.[0-9]*\.2' | awk -F. '{ print $3 - 1 }' >"$tuples.kernel" || true
      { echo "seed $seed"; echo "policy $policy"; echo "weights $weights"; cat "$tuples"; } |
        "$tool" >"$tuples.model"
      n_kernel=$(wc -l <"$tuples.kernel")
      if [[ $n_kernel -ne $per_route ]]; then
        echo "FAIL: $name seed=$seed policy=$policy: kernel answered $n_kernel of $per_route queries" >&2
        head -3 "$tuples.err" >&2
        exit 1
      fi
      bad=$(paste "$tuples" "$tuples.kernel" "$tuples.model" | awk -F'\t' '$2 != $3' | tee "$tuples.diff" | wc -l)
      if [[ $bad -ne 0 ]]; then
        echo "MISMATCH: $name seed=$seed policy=$policy: $bad of $per_route (tuple, kernel, model):" >&2
        head -5 "$tuples.diff" >&2
      fi
      total=$((total + per_route))
      mismatches=$((mismatches + bad))
    done
  done
done

echo "kernel $(uname -r): $total tuples compared ($((${#seeds[@]} * ${#policies[@]})) seed/policy settings x ${#routes[@]} routes), $mismatches disagreements"
[[ $mismatches -eq 0 ]]
