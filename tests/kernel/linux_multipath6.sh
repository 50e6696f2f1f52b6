#!/usr/bin/env bash
# Kernel agreement test for the linux-l3 / linux-l4 hash models on IPv6
# (rt6_multipath_hash, net/ipv6/route.c).
#
# Builds a router namespace with one ingress veth and eight egress veths,
# installs IPv6 multipath routes (2, 3, 4 and 8 equal next hops and one
# weighted route), and for several net.ipv4.fib_multipath_hash_seed values
# (the one seed serves IPv6 too) and both net.ipv6.fib_multipath_hash_policy
# values asks the kernel, through RTM_GETROUTE with a flow label
# (route_get6: `ip -6 route get DST from SRC iif vin ipproto udp sport S
# dport D flowlabel L`), which next hop it forwards random UDP tuples with
# random flow labels to. The same tuples go through ecmpsim's model
# (linux_hash_tool); every answer must match. A negative control: the model
# with the flow labels dropped must disagree under policy 0 (the label is
# really hashed) and agree under policy 1 (the label is not).
#
# Usage: linux_multipath6.sh PATH/TO/linux_hash_tool PATH/TO/route_get6 [tuples-per-route]
# Exit: 0 all agree, 1 a disagreement or setup failure, 77 skipped (not root,
# no `ip netns`, no IPv6, or a kernel without fib_multipath_hash_seed).
# ECMPSIM_REQUIRE_KERNEL_TESTS=1 turns every skip into a failure.
set -euo pipefail

tool=${1:?usage: $0 PATH/TO/linux_hash_tool PATH/TO/route_get6 [tuples-per-route]}
getter=${2:?usage: $0 PATH/TO/linux_hash_tool PATH/TO/route_get6 [tuples-per-route]}
per_route=${3:-${ECMPSIM_HK_TUPLES:-250}}
seeds=(1 42 305419896 3735928559)
policies=(0 1)

[[ -x $tool && -x $getter ]] || { echo "linux_hash_tool or route_get6 not executable" >&2; exit 1; }
source "$(dirname "$0")/../support/kernel_preamble.sh"
[[ -d /proc/sys/net/ipv6 ]] || skip "kernel without IPv6"
kernel_require_netns ip netns exec "$kernel_probe" true ||
  skip "cannot run commands in a network namespace (ip netns exec failed)"

prefix="ecmpsim-hk6-$$-"
router="${prefix}r"
sink="${prefix}s"
kernel_workdir ecmpsim-hk6 "$prefix" "${ECMPSIM_HK_KEEP:-}"

ip netns add "$router"
ip netns add "$sink"
R() { ip netns exec "$router" "$@"; }

# Forwarding on, no duplicate address detection (addresses usable at once).
for ns in "$router" "$sink"; do
  ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.accept_dad=0 net.ipv6.conf.default.accept_dad=0 >/dev/null
done
R sysctl -qw net.ipv6.conf.all.forwarding=1 >/dev/null

ip link add vin netns "$router" type veth peer name pin netns "$sink"
R ip -6 addr add fd99::1/64 dev vin nodad
R ip link set vin up
ip -n "$sink" link set pin up
for k in 1 2 3 4 5 6 7 8; do
  ip link add "v$k" netns "$router" type veth peer name "p$k" netns "$sink"
  R ip -6 addr add "fd10:$k::1/64" dev "v$k" nodad
  R ip link set "v$k" up
  ip -n "$sink" -6 addr add "fd10:$k::2/64" dev "p$k" nodad
  ip -n "$sink" link set "p$k" up
done
R ip link set lo up

# name|prefix group|weights (next hop k is via fd10:k::2 dev vk)
routes=("ecmp2|18|1 1" "ecmp3|19|1 1 1" "ecmp4|20|1 1 1 1" "ecmp8|21|1 1 1 1 1 1 1 1" "weighted|22|1 3 5 2")
for r in "${routes[@]}"; do
  IFS='|' read -r _ group weights <<<"$r"
  args=()
  k=0
  for w in $weights; do
    k=$((k + 1))
    args+=(nexthop via "fd10:$k::2" dev "v$k" weight "$w")
  done
  R ip -6 route add "fd20:$group::/32" "${args[@]}"
done

total=0
mismatches=0
control_changed=0
control_same=0
for seed in "${seeds[@]}"; do
  for policy in "${policies[@]}"; do
    R sysctl -qw net.ipv6.fib_multipath_hash_policy="$policy" net.ipv4.fib_multipath_hash_seed="$seed" >/dev/null
    [[ $(R sysctl -n net.ipv4.fib_multipath_hash_seed) == "$seed" ]] || { echo "seed not set" >&2; exit 1; }
    [[ $(R sysctl -n net.ipv6.fib_multipath_hash_policy) == "$policy" ]] || { echo "policy not set" >&2; exit 1; }
    for r in "${routes[@]}"; do
      IFS='|' read -r name group weights <<<"$r"
      tuples="$work/$name-$seed-$policy.tuples"
      # Random sources in fd30::/16 (outside the router's subnets),
      # destinations inside the route's prefix, random UDP ports with every
      # fourth destination port the RoCEv2 4791, random 20-bit flow labels
      # (every eighth 0, the label of a packet that sets none).
      awk -v n="$per_route" -v group="$group" -v rs="$((seed % 100000 * 10 + policy))$group" 'BEGIN {
        srand(rs)
        for (i = 0; i < n; i++) {
          src = sprintf("fd30:%x:%x:%x::%x", int(rand() * 65536), int(rand() * 65536), int(rand() * 65536), 1 + int(rand() * 65535))
          dst = sprintf("fd20:%s:%x:%x:%x::%x", group, int(rand() * 65536), int(rand() * 65536), int(rand() * 65536), 1 + int(rand() * 65535))
          sport = 1 + int(rand() * 65535)
          dport = (i % 4 == 0) ? 4791 : 1 + int(rand() * 65535)
          label = (i % 8 == 0) ? 0 : int(rand() * 1048576)
          print src, dst, 17, sport, dport, label
        }
      }' >"$tuples"
      R "$getter" vin <"$tuples" 2>"$tuples.err" | sed -n 's/^v\([0-9]*\)$/\1/p' | awk '{ print $1 - 1 }' >"$tuples.kernel" || true
      { echo "seed $seed"; echo "policy $policy"; echo "weights $weights"; cat "$tuples"; } |
        "$tool" >"$tuples.model"
      n_kernel=$(wc -l <"$tuples.kernel")
      if [[ $n_kernel -ne $per_route ]]; then
        echo "FAIL: $name seed=$seed policy=$policy: kernel answered $n_kernel of $per_route queries" >&2
        head -3 "$tuples.err" >&2
        exit 1
      fi
      bad=$(paste -d'\t' "$tuples" "$tuples.kernel" "$tuples.model" | awk -F'\t' '$2 != $3' | tee "$tuples.diff" | wc -l)
      if [[ $bad -ne 0 ]]; then
        echo "MISMATCH: $name seed=$seed policy=$policy: $bad of $per_route (tuple, kernel, model):" >&2
        head -5 "$tuples.diff" >&2
      fi
      # Negative control: the model without the flow labels.
      { echo "seed $seed"; echo "policy $policy"; echo "weights $weights"; awk '{ $6 = 0; print }' "$tuples"; } |
        "$tool" >"$tuples.nolabel"
      changed=$(paste -d'\t' "$tuples.kernel" "$tuples.nolabel" | awk -F'\t' '$1 != $2' | wc -l)
      if [[ $policy -eq 0 ]]; then control_changed=$((control_changed + changed)); else control_same=$((control_same + changed)); fi
      total=$((total + per_route))
      mismatches=$((mismatches + bad))
    done
  done
done

echo "kernel $(uname -r), IPv6: $total tuples compared ($((${#seeds[@]} * ${#policies[@]})) seed/policy settings x ${#routes[@]} routes), $mismatches disagreements; without flow labels the model disagrees on $control_changed policy-0 tuples and $control_same policy-1 tuples"
[[ $mismatches -eq 0 ]] || exit 1
[[ $control_changed -gt 0 ]] || { echo "FAIL: dropping the flow labels changed no policy-0 answer: the label is not exercised" >&2; exit 1; }
[[ $control_same -eq 0 ]] || { echo "FAIL: policy 1 must not hash the flow label" >&2; exit 1; }
