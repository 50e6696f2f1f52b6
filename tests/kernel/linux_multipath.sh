#!/usr/bin/env bash
# Kernel agreement test for the linux-l3 / linux-l4 hash models, on IPv4
# (fib_multipath_hash, net/ipv4/route.c) or IPv6 (rt6_multipath_hash,
# net/ipv6/route.c): one script, the address family its first argument.
#
# Builds a router namespace with one ingress veth and eight egress veths,
# installs multipath routes (2, 3, 4 and 8 equal next hops and one weighted
# route), and for several net.ipv4.fib_multipath_hash_seed values (the one
# seed serves IPv6 too) and both fib_multipath_hash_policy values of the
# family asks the kernel which next hop it forwards thousands of random UDP
# tuples to: on IPv4 with `ip -batch ... route get DST from SRC iif IN
# ipproto udp sport S dport D`, on IPv6 through RTM_GETROUTE with a flow label
# (route_get6: `ip -6 route get ... flowlabel L`), the tuples carrying random
# labels. The same tuples go through ecmpsim's model (linux_hash_tool); every
# answer must match. On IPv6 a negative control: the model with the flow
# labels dropped must disagree under policy 0 (the label is really hashed) and
# agree under policy 1 (the label is not).
#
# Usage: linux_multipath.sh 4|6 PATH/TO/linux_hash_tool PATH/TO/route_get6 [tuples-per-route]
# (route_get6 is only run for 6.) ECMPSIM_HK_KEEP=DIR keeps the tuples and
# both sides' answers in DIR.
# Exit: 0 all agree, 1 a disagreement or setup failure, 77 skipped (not root,
# no `ip netns`, no IPv6 for 6, or a kernel without fib_multipath_hash_seed).
# ECMPSIM_REQUIRE_KERNEL_TESTS=1 (for CI, where the test must really run)
# turns every skip into a failure.
set -euo pipefail

usage="usage: $0 4|6 PATH/TO/linux_hash_tool PATH/TO/route_get6 [tuples-per-route]"
family=${1:?$usage}
tool=${2:?$usage}
getter=${3:?$usage}
per_route=${4:-${ECMPSIM_HK_TUPLES:-250}}
seeds=(1 42 305419896 3735928559)   # 0x12345678 and 0xdeadbeef among them
policies=(0 1)
[[ $family == 4 || $family == 6 ]] || { echo "$usage" >&2; exit 1; }
[[ -x $tool && ($family == 4 || -x $getter) ]] || { echo "linux_hash_tool or route_get6 not executable" >&2; exit 1; }

source "$(dirname "$0")/../support/kernel_preamble.sh"
[[ $family == 4 || -d /proc/sys/net/ipv6 ]] || skip "kernel without IPv6"
kernel_require_netns ip netns exec "$kernel_probe" true ||
  skip "cannot run commands in a network namespace (ip netns exec failed)"

# What differs by family: the addresses (ingress, next hop k's subnet, route
# prefix g), the sysctls, the tuples (IPv6 adds a flow label) and how the
# kernel is asked.
if [[ $family == 4 ]]; then
  name=hk; ip=(ip); policy_key=net.ipv4.fib_multipath_hash_policy
  ingress=10.99.0.1/24; hop() { echo "10.100.$1.$2"; }; hop_len=24; route_prefix() { echo "172.$1.0.0/16"; }
else
  name=hk6; ip=(ip -6); policy_key=net.ipv6.fib_multipath_hash_policy
  ingress=fd99::1/64; hop() { echo "fd10:$1::$2"; }; hop_len=64; route_prefix() { echo "fd20:$1::/32"; }
fi
prefix="ecmpsim-$name-$$-"
router="${prefix}r"
sink="${prefix}s"
kernel_workdir "ecmpsim-$name" "$prefix" "${ECMPSIM_HK_KEEP:-}"

ip netns add "$router"
ip netns add "$sink"
R() { ip netns exec "$router" "$@"; }

if [[ $family == 4 ]]; then
  # Forwarding on, no reverse-path filtering: `route get ... iif` is then a
  # forwarding decision for any source outside the router's own subnets.
  R sysctl -qw net.ipv4.ip_forward=1 net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.default.rp_filter=0 \
    net.ipv4.fib_multipath_use_neigh=0 >/dev/null
  nodad=()
else
  # Forwarding on, no duplicate address detection (addresses usable at once).
  for ns in "$router" "$sink"; do
    ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.accept_dad=0 net.ipv6.conf.default.accept_dad=0 >/dev/null
  done
  R sysctl -qw net.ipv6.conf.all.forwarding=1 >/dev/null
  nodad=(nodad)
fi

ip link add vin netns "$router" type veth peer name pin netns "$sink"
R "${ip[@]}" addr add "$ingress" dev vin "${nodad[@]}"
R ip link set vin up
ip -n "$sink" link set pin up
for k in 1 2 3 4 5 6 7 8; do
  ip link add "v$k" netns "$router" type veth peer name "p$k" netns "$sink"
  R "${ip[@]}" addr add "$(hop "$k" 1)/$hop_len" dev "v$k" "${nodad[@]}"
  R ip link set "v$k" up
  ip -n "$sink" "${ip[@]:1}" addr add "$(hop "$k" 2)/$hop_len" dev "p$k" "${nodad[@]}"
  ip -n "$sink" link set "p$k" up
done
R ip link set lo up

# name|prefix group|weights (next hop k is via hop k 2, dev vk)
routes=("ecmp2|18|1 1" "ecmp3|19|1 1 1" "ecmp4|20|1 1 1 1" "ecmp8|21|1 1 1 1 1 1 1 1" "weighted|22|1 3 5 2")
for r in "${routes[@]}"; do
  IFS='|' read -r _ group weights <<<"$r"
  args=()
  k=0
  for w in $weights; do
    k=$((k + 1))
    args+=(nexthop via "$(hop "$k" 2)" dev "v$k" weight "$w")
  done
  R "${ip[@]}" route add "$(route_prefix "$group")" "${args[@]}"
done

# Random tuples for route group $1 with awk seed $2: sources outside the
# router's subnets (IPv4: 1-126.x.x.x but not 10/8; IPv6: fd30::/16),
# destinations inside the route's prefix, random UDP ports with every fourth
# destination port the RoCEv2 4791; on IPv6 random 20-bit flow labels (every
# eighth 0, the label of a packet that sets none).
tuples_for() {
  awk -v n="$per_route" -v group="$1" -v rs="$2" -v family="$family" 'BEGIN {
    srand(rs)
    for (i = 0; i < n; i++) {
      if (family == 4) {
        do { a = 1 + int(rand() * 126) } while (a == 10)
        src = a "." int(rand() * 256) "." int(rand() * 256) "." (1 + int(rand() * 254))
        dst = "172." group "." int(rand() * 256) "." (1 + int(rand() * 254))
      } else {
        src = sprintf("fd30:%x:%x:%x::%x", int(rand() * 65536), int(rand() * 65536), int(rand() * 65536), 1 + int(rand() * 65535))
        dst = sprintf("fd20:%s:%x:%x:%x::%x", group, int(rand() * 65536), int(rand() * 65536), int(rand() * 65536), 1 + int(rand() * 65535))
      }
      sport = 1 + int(rand() * 65535)
      dport = (i % 4 == 0) ? 4791 : 1 + int(rand() * 65535)
      if (family == 4) { print src, dst, 17, sport, dport; continue }
      label = (i % 8 == 0) ? 0 : int(rand() * 1048576)
      print src, dst, 17, sport, dport, label
    }
  }'
}

# The kernel's next hop (0-based) for each tuple of file $1.
ask_kernel() {
  if [[ $family == 4 ]]; then
    awk '{ printf "route get %s from %s iif vin ipproto 17 sport %s dport %s\n", $2, $1, $4, $5 }' "$1" >"$1.batch"
    ip -n "$router" -force -batch "$1.batch" 2>"$1.err" |
      grep -o 'via 10\.100\.[0-9]*\.2' | awk -F. '{ print $3 - 1 }' || true
  else
    R "$getter" vin <"$1" 2>"$1.err" | sed -n 's/^v\([0-9]*\)$/\1/p' | awk '{ print $1 - 1 }' || true
  fi
}

total=0
mismatches=0
control_changed=0
control_same=0
for seed in "${seeds[@]}"; do
  for policy in "${policies[@]}"; do
    R sysctl -qw "$policy_key=$policy" net.ipv4.fib_multipath_hash_seed="$seed" >/dev/null
    [[ $(R sysctl -n net.ipv4.fib_multipath_hash_seed) == "$seed" ]] || { echo "seed not set" >&2; exit 1; }
    [[ $(R sysctl -n "$policy_key") == "$policy" ]] || { echo "policy not set" >&2; exit 1; }
    for r in "${routes[@]}"; do
      IFS='|' read -r rname group weights <<<"$r"
      tuples="$work/$rname-$seed-$policy.tuples"
      tuples_for "$group" "$((seed % 100000 * 10 + policy))$group" >"$tuples"
      ask_kernel "$tuples" >"$tuples.kernel"
      { echo "seed $seed"; echo "policy $policy"; echo "weights $weights"; cat "$tuples"; } | "$tool" >"$tuples.model"
      n_kernel=$(wc -l <"$tuples.kernel")
      if [[ $n_kernel -ne $per_route ]]; then
        echo "FAIL: $rname seed=$seed policy=$policy: kernel answered $n_kernel of $per_route queries" >&2
        head -3 "$tuples.err" >&2
        exit 1
      fi
      bad=$(paste -d'\t' "$tuples" "$tuples.kernel" "$tuples.model" | awk -F'\t' '$2 != $3' | tee "$tuples.diff" | wc -l)
      if [[ $bad -ne 0 ]]; then
        echo "MISMATCH: $rname seed=$seed policy=$policy: $bad of $per_route (tuple, kernel, model):" >&2
        head -5 "$tuples.diff" >&2
      fi
      if [[ $family == 6 ]]; then
        # Negative control: the model without the flow labels.
        { echo "seed $seed"; echo "policy $policy"; echo "weights $weights"; awk '{ $6 = 0; print }' "$tuples"; } |
          "$tool" >"$tuples.nolabel"
        changed=$(paste -d'\t' "$tuples.kernel" "$tuples.nolabel" | awk -F'\t' '$1 != $2' | wc -l)
        if [[ $policy -eq 0 ]]; then control_changed=$((control_changed + changed)); else control_same=$((control_same + changed)); fi
      fi
      total=$((total + per_route))
      mismatches=$((mismatches + bad))
    done
  done
done

settings="$((${#seeds[@]} * ${#policies[@]})) seed/policy settings x ${#routes[@]} routes"
if [[ $family == 4 ]]; then
  echo "kernel $(uname -r): $total tuples compared ($settings), $mismatches disagreements"
  [[ $mismatches -eq 0 ]]
else
  echo "kernel $(uname -r), IPv6: $total tuples compared ($settings), $mismatches disagreements; without flow labels the model disagrees on $control_changed policy-0 tuples and $control_same policy-1 tuples"
  [[ $mismatches -eq 0 ]] || exit 1
  [[ $control_changed -gt 0 ]] || { echo "FAIL: dropping the flow labels changed no policy-0 answer: the label is not exercised" >&2; exit 1; }
  [[ $control_same -eq 0 ]] || { echo "FAIL: policy 1 must not hash the flow label" >&2; exit 1; }
fi
