#!/usr/bin/env bash
# End-to-end check of `ecmpsim emulate` against the running kernel: builds
# each fabric from network namespaces, sends every flow as real UDP packets and
# traces it with `ip route get`, and requires the kernel to agree with
# ecmpsim's prediction on every flow path and every link count — for several
# seeds, both hash policies and several shapes. A negative control (the
# prediction made with a different seed) must disagree. After every run no
# namespace of that run may remain.
#
# Usage: emulate_test.sh PATH/TO/ecmpsim
# Exit: 0 pass, 1 fail, 77 skipped (not root, no iproute2 / netns, or a kernel
# without net.ipv4.fib_multipath_hash_seed, added in Linux 6.11).
set -uo pipefail

bin=${1:?usage: $0 PATH/TO/ecmpsim}
cd "$(dirname "$0")/../.."
skip() { echo "SKIP: $*"; exit 77; }
[[ $(id -u) -eq 0 ]] || skip "needs root for network namespaces"
command -v ip >/dev/null || skip "iproute2 not installed"
[[ -e /proc/sys/net/ipv4/fib_multipath_hash_seed ]] ||
  skip "kernel $(uname -r) has no net.ipv4.fib_multipath_hash_seed: its multipath key is random per boot"
probe="es$$-probe"
ip netns add "$probe" 2>/dev/null || skip "cannot create network namespaces"
ip netns del "$probe"

work=$(mktemp -d "${TMPDIR:-/tmp}/ecmpsim-emulate.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# The namespaces of process $1 (ecmpsim names them es<pid>-<node>).
leftovers() { ls /run/netns 2>/dev/null | grep -c "^es$1-"; }
field() { grep -o "\"$1\": [0-9a-z.]*" "$2" | head -1 | awk '{ print $2 }'; }

# run EXPECTED_RC ARGS...: runs emulate in the background (its pid names its
# namespaces), checks the exit code and that nothing is left behind.
run() {
  local want=$1
  shift
  "$bin" emulate "$@" --format json >"$work/out.json" 2>"$work/err" &
  local pid=$!
  wait $pid
  local rc=$?
  local left
  left=$(leftovers $pid)
  [[ $left -eq 0 ]] || fail "emulate $*: $left namespaces left behind"
  if [[ $rc -ne $want ]]; then
    fail "emulate $*: exit $rc, expected $want: $(head -c 300 "$work/err")"
    return 1
  fi
  echo "ok: emulate $* -> exit $rc, flows $(field flows "$work/out.json"), paths agree" \
    "$(field paths_agree "$work/out.json"), links agree $(field links_agree "$work/out.json")/$(field links "$work/out.json")," \
    "FIM measured $(field fim_measured "$work/out.json") predicted $(field fim_predicted "$work/out.json")"
}

# Full agreement: exit 0 and the JSON says so.
agree() {
  run 0 "$@" || return
  local flows paths links nlinks
  flows=$(field flows "$work/out.json")
  paths=$(field paths_agree "$work/out.json")
  links=$(field links_agree "$work/out.json")
  nlinks=$(field links "$work/out.json")
  [[ -n $flows && $flows -gt 0 && $paths == "$flows" && $links == "$nlinks" ]] ||
    fail "emulate $*: paths $paths/$flows, links $links/$nlinks"
  [[ $(field fim_measured "$work/out.json") == $(field fim_predicted "$work/out.json") ]] ||
    fail "emulate $*: FIM measured differs from predicted"
  grep -q '"stray_packets": 0' "$work/out.json" || fail "emulate $*: stray packets on the links"
}

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
  [[ -f $cfg ]] || continue
  agree "$cfg" --seed 11 --method packets
  agree "$cfg" --seed 2024
done

# Negative control: predicting with a seed the kernel does not use must show.
if run 3 configs/paper16.toml --seed 42 --predict-seed 43; then
  paths=$(field paths_agree "$work/out.json")
  [[ $paths -lt $(field flows "$work/out.json") ]] || fail "wrong seed agreed on every path"
fi
if run 3 tests/emulate/parallel.toml --predict-seed 8 --method packets; then
  [[ $(field paths_agree "$work/out.json") -lt $(field flows "$work/out.json") ]] || fail "wrong seed agreed"
fi

# SIGTERM part way: exit 130 and nothing left.
"$bin" emulate configs/paper16.toml >/dev/null 2>"$work/err" &
pid=$!
sleep 1
kill -TERM $pid
wait $pid
rc=$?
[[ $rc -eq 130 || $rc -eq 0 ]] || fail "SIGTERM: exit $rc: $(cat "$work/err")"
[[ $(leftovers $pid) -eq 0 ]] || fail "SIGTERM left namespaces"
echo "ok: SIGTERM -> exit $rc, no namespace left"

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

# Bad input stays exit 2.
"$bin" emulate configs/paper16.toml --hash crc16-ccitt >/dev/null 2>&1
[[ $? -eq 2 ]] || fail "--hash crc16-ccitt should be bad input"
if command -v setpriv >/dev/null; then
  setpriv --reuid=65534 --regid=65534 --clear-groups "$bin" emulate configs/paper16.toml >/dev/null 2>"$work/err"
  rc=$?
  [[ $rc -eq 2 ]] || fail "as non-root: exit $rc, expected 2"
  grep -q "needs root" "$work/err" || fail "as non-root: no clear error"
fi

[[ $failures -eq 0 ]] && echo "emulate: all runs as expected" || echo "emulate: $failures failures" >&2
[[ $failures -eq 0 ]]
