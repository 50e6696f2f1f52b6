# The checks tests/emulate/emulate_test.sh (IPv4) and emulate6_test.sh (IPv6)
# make of one `ecmpsim emulate` run, sourced after
# tests/support/kernel_preamble.sh has set up $work. Written once so both
# families are held to the same standard: exit code, agreement on every path
# and link, no stray packets, nothing left behind, clean interrupts.
#
# Needs: $bin (ecmpsim), $work. Sets: $failures.
#   fail MESSAGE                  count a failure
#   leftovers PID                 namespaces of emulate process PID (es<pid>-<node>)
#   field KEY FILE                the first JSON number or word under KEY
#   run RC ARGS...                emulate ARGS --format json into $work/out.json; exit RC, nothing left
#   agree ARGS... / disagree ARGS...   full agreement (exit 0) / some path differs (exit 3)
#   interrupt SIGNAL PHASE ARGS...     SIGNAL while `building` or `measuring`: exit 130, nothing left
#   noise CONFIG                  foreign datagrams while measuring must fail the run

failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

leftovers() { ls /run/netns 2>/dev/null | grep -c "^es$1-"; }
field() { grep -o "\"$1\": [0-9a-z.]*" "$2" | head -1 | awk '{ print $2 }'; }

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
  grep -q '"route-get"' "$work/out.json" || grep -q '"packets"' "$work/out.json" || fail "emulate $*: no method ran"
}

disagree() {
  run 3 "$@" || return
  [[ $(field paths_agree "$work/out.json") -lt $(field flows "$work/out.json") ]] ||
    fail "emulate $*: agreed on every path"
}

# wait_measuring PID: until emulate PID measures: its last node, host15, has
# its default route (on IPv6 half a second more, while emulate waits for the
# links to fall quiet), or it has ended.
wait_measuring() {
  local pid=$1 i
  for ((i = 0; i < 4000; i++)); do
    kill -0 $pid 2>/dev/null || return 0
    ip -n "es$pid-host15" route show default 2>/dev/null | grep -q via && return 0
    ip -n "es$pid-host15" -6 route show default 2>/dev/null | grep -q via && sleep 0.5 && return 0
    sleep 0.005
  done
}

# emulate runs in a process group of its own; SIGINT goes to the whole group,
# as Ctrl-C does (so an `ip` child running at that moment dies too), SIGTERM
# to emulate alone, as kill does.
interrupt() {
  local sig=$1 phase=$2
  shift 2
  setsid "$bin" emulate "$@" >/dev/null 2>"$work/err" &
  local pid=$! i rc target
  if [[ $phase == measuring ]]; then
    wait_measuring $pid
  else
    for ((i = 0; i < 4000; i++)); do
      kill -0 $pid 2>/dev/null || break
      [[ $(leftovers $pid) -gt 0 ]] && break
      sleep 0.005
    done
  fi
  target=$pid
  [[ $sig == INT ]] && target=-$pid
  kill -"$sig" -- $target 2>/dev/null
  wait $pid
  rc=$?
  [[ $rc -eq 130 ]] || fail "$sig while ${phase}: exit $rc, expected 130: $(head -c 300 "$work/err")"
  grep -q "interrupted; the emulated fabric was removed" "$work/err" || fail "$sig while ${phase}: no message"
  [[ $(leftovers $pid) -eq 0 ]] || fail "$sig while ${phase}: $(leftovers $pid) namespaces left"
  echo "ok: $sig while ${phase} -> exit $rc, no namespace left"
}

# noise CONFIG: the counters must see only the test packets, and would notice
# others: 20 datagrams from host0 to a closed port of host5 (each answered by
# an ICMP error) while the flows are measured must fail the run (exit 3).
noise() {
  "$bin" emulate "$1" --method packets --packets 1000 --format json >"$work/out.json" 2>"$work/err" &
  local pid=$! rc stray dst
  wait_measuring $pid
  dst=$(ip -n "es$pid-host5" -o addr show dev p0 2>/dev/null | awk '{ print $4; exit }' | cut -d/ -f1)
  ip netns exec "es$pid-host0" bash -c "for k in {1..20}; do echo x >/dev/udp/$dst/9; sleep 0.02; done" 2>/dev/null
  wait $pid
  rc=$?
  stray=$(field stray_packets "$work/out.json")
  [[ $rc -eq 3 && ${stray:-0} -gt 0 ]] || fail "noise on $1 went unnoticed: exit $rc, stray packets ${stray:-none}"
  [[ $(leftovers $pid) -eq 0 ]] || fail "noise run: namespaces left"
  echo "ok: noise to $dst while measuring $1 -> exit $rc, stray packets $stray"
}
