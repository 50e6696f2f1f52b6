#!/usr/bin/env bash
# End-to-end check of `ecmpsim emulate` against the running kernel: builds
# each fabric from network namespaces, sends every flow as real UDP packets and
# traces it with `ip route get`, and requires the kernel to agree with
# ecmpsim's prediction on every flow path and every link count — for several
# seeds, both hash policies, several shapes, WCMP weights, failures and a
# static table.
# Negative controls (the prediction made with a different seed, or without
# the scenario's weights or failures) must disagree. Interrupts (SIGINT,
# SIGTERM) while building and while measuring, and an `ip` failing half way,
# must remove the fabric. After every run no namespace of that run may remain.
#
# Usage: emulate_test.sh PATH/TO/ecmpsim
# Exit: 0 pass, 1 fail, 77 skipped (not root, no iproute2 / netns, or a kernel
# without net.ipv4.fib_multipath_hash_seed, added in Linux 6.11).
# ECMPSIM_REQUIRE_KERNEL_TESTS=1 (for CI, where the test must really run) turns
# every skip into a failure.
set -uo pipefail

bin=$(realpath "${1:?usage: $0 PATH/TO/ecmpsim}")
cd "$(dirname "$0")/../.."
source tests/support/kernel_preamble.sh
kernel_require_netns

kernel_workdir ecmpsim-emulate
source tests/emulate/emulate_checks.sh


# paper16 (CRC-16 in the config, emulated as linux-l4) with three seeds.
for seed in 1 42 3735928559; do agree configs/paper16.toml --seed "$seed"; done
# The same fabric with linux-l4 in the config, and the L3 policy.
agree configs/paper16-linux.toml
agree configs/paper16-linux.toml --hash linux-l3 --seed 305419896
# Parallel links: both leaves and spines choose among equal-cost members.
agree tests/emulate/parallel.toml
agree tests/emulate/parallel.toml --seed 99
# Three tiers, when the fabric generators provide them.
for cfg in tests/emulate/fat_tree*.toml; do
  [[ -f $cfg && $cfg != *ipv6* ]] || continue  # emulate6_test.sh runs the IPv6 ones
  agree "$cfg" --seed 11 --method packets
  agree "$cfg" --seed 2024
done

# WCMP: next-hop weights at both tiers (up to 256, the kernel's largest),
# from the fabric and from the scenario.
agree tests/emulate/wcmp.toml --scenario wcmp
agree tests/emulate/wcmp.toml --scenario wcmp --seed 77 --method packets
# Failures: a cable and a whole spine down; weights and failures together; a
# fat-tree where a failure changes the equal-cost sets two tiers away.
agree tests/emulate/wcmp.toml --scenario down
agree tests/emulate/wcmp.toml --scenario wcmp-down
agree tests/emulate/fat_tree_k4.toml --scenario core-down
grep -q '"down": true' "$work/out.json" || fail "core-down: no link reported down"

# Negative control: predicting with a seed the kernel does not use must show.
if run 3 configs/paper16.toml --seed 42 --predict-seed 43; then
  paths=$(field paths_agree "$work/out.json")
  [[ $paths -lt $(field flows "$work/out.json") ]] || fail "wrong seed agreed on every path"
fi
if run 3 tests/emulate/parallel.toml --predict-seed 8 --method packets; then
  [[ $(field paths_agree "$work/out.json") -lt $(field flows "$work/out.json") ]] || fail "wrong seed agreed"
fi

# ...and predicting without the weights, or without the failures, must too:
# the kernel really forwards by the weights and around the failed links.
disagree tests/emulate/wcmp.toml --scenario wcmp --predict-scenario ecmp --method packets
disagree tests/emulate/wcmp.toml --scenario down --predict-scenario ecmp --method packets
disagree tests/emulate/fat_tree_k4.toml --scenario core-down --predict-scenario linux --method route-get
# A static table is emulated as one /32 route per destination: it must agree,
# and the ECMP kernel predicted as the static table must not.
agree configs/paper16.toml --scenario static
disagree configs/paper16-linux.toml --predict-scenario static --method packets

interrupt TERM building configs/paper16.toml
interrupt INT building configs/paper16.toml
# Long enough (64 flows x 1000 packets) to be stopped while sending.
interrupt TERM measuring configs/paper16.toml --method packets --packets 1000
interrupt INT measuring configs/paper16.toml --method packets --packets 1000

noise configs/paper16.toml

# An `ip` batch failing half way (a wrapper ahead of the real ip in PATH
# refuses spine2's batch, after every namespace exists): an error, exit 1,
# and the namespaces made so far are removed.
mkdir -p "$work/bin"
cat >"$work/bin/ip" <<EOF
#!/usr/bin/env bash
if [[ "\$*" == *"-n es"*"-spine2 "* ]]; then echo "injected failure" >&2; exit 1; fi
exec $(command -v ip) "\$@"
EOF
chmod +x "$work/bin/ip"
PATH="$work/bin:$PATH" "$bin" emulate configs/paper16.toml >/dev/null 2>"$work/err" &
pid=$!
wait $pid
rc=$?
[[ $rc -eq 1 ]] || fail "failing ip: exit $rc, expected 1: $(cat "$work/err")"
grep -q "injected failure" "$work/err" || fail "failing ip: the error does not carry ip's message"
[[ $(leftovers $pid) -eq 0 ]] || fail "failing ip: $(leftovers $pid) namespaces left"
echo "ok: ip failing half way -> exit $rc, no namespace left"

# --cleanup removes namespaces of dead emulate processes, and nothing else.
dead=999999
while kill -0 "$dead" 2>/dev/null; do dead=$((dead - 1)); done
ip netns add "es$dead-leftover"
ip netns add "es-other-$$"
"$bin" emulate --cleanup 2>"$work/err" || fail "--cleanup failed: $(cat "$work/err")"
[[ -e /run/netns/es$dead-leftover ]] && fail "--cleanup kept es$dead-leftover"
[[ -e /run/netns/es-other-$$ ]] || fail "--cleanup deleted a namespace that is not ours"
ip netns del "es-other-$$" 2>/dev/null
ip netns del "es$dead-leftover" 2>/dev/null
echo "ok: --cleanup"

# Bad input stays exit 2, before anything is built.
"$bin" emulate configs/paper16.toml --hash crc16-ccitt >/dev/null 2>&1
[[ $? -eq 2 ]] || fail "--hash crc16-ccitt should be bad input"
"$bin" emulate configs/paper16-linux.toml --predict-scenario nosuch >/dev/null 2>&1
[[ $? -eq 2 ]] || fail "--predict-scenario nosuch should be bad input"
# A legacy multipath route holds next-hop weights up to 256 (one byte, weight - 1).
sed 's/"leaf1-spine2" = 4/"leaf1-spine2" = 300/' tests/emulate/wcmp.toml >"$work/w300.toml"
"$bin" emulate "$work/w300.toml" --scenario wcmp >/dev/null 2>"$work/err"
[[ $? -eq 2 ]] && grep -q "w300.toml: weights: link leaf1->spine2#0 has weight 300" "$work/err" ||
  fail "weight 300: expected a bad-input error naming the link: $(cat "$work/err")"
if command -v setpriv >/dev/null; then
  setpriv --reuid=65534 --regid=65534 --clear-groups "$bin" emulate configs/paper16.toml >/dev/null 2>"$work/err"
  rc=$?
  [[ $rc -eq 2 ]] || fail "as non-root: exit $rc, expected 2"
  grep -q "needs root" "$work/err" || fail "as non-root: no clear error"
fi

[[ $failures -eq 0 ]] && echo "emulate: all runs as expected" || echo "emulate: $failures failures" >&2
[[ $failures -eq 0 ]]
