# Shared preamble of the tests that need the running kernel's network
# namespaces (tests/kernel/*.sh, tests/emulate/*.sh). Sourced, not run.
#
# Every such test skips the same way (exit 77, CTest's SKIP_RETURN_CODE) when
# the machine cannot run it, turns that skip into a failure under
# ECMPSIM_REQUIRE_KERNEL_TESTS=1 (CI, where the test must really run), needs
# the same things (root, iproute2, namespaces, a kernel whose multipath hash
# takes a seed) and cleans up its work directory and namespaces on every exit.
# Written once here so the conditions and their messages cannot drift apart.
#
# Provides:
#   skip MESSAGE             exit 77 (or 1 under ECMPSIM_REQUIRE_KERNEL_TESTS=1)
#   kernel_require_netns [COMMAND...]
#                            skip unless root, iproute2, net.ipv4.fib_multipath_hash_seed
#                            (Linux 6.11) and `ip netns add` work; COMMAND, if given,
#                            runs quietly (stderr dropped) while the probe namespace
#                            $kernel_probe exists and its status is returned, for a
#                            further capability check the caller skips on
#   kernel_workdir NAME [NETNS_PREFIX [KEEP_DIR]]
#                            $work = a fresh temporary directory, removed on exit
#                            (copied to KEEP_DIR first when given); with NETNS_PREFIX
#                            every namespace named NETNS_PREFIX* is deleted on exit,
#                            and SIGINT/SIGTERM exit (130/143) through that cleanup

skip() {
  if [[ ${ECMPSIM_REQUIRE_KERNEL_TESTS:-0} == 1 ]]; then
    echo "FAIL: ECMPSIM_REQUIRE_KERNEL_TESTS=1 but the test cannot run: $*" >&2
    exit 1
  fi
  echo "SKIP: $*"
  exit 77
}

kernel_probe="es$$-probe"

kernel_require_netns() {
  [[ $(id -u) -eq 0 ]] || skip "needs root for network namespaces"
  command -v ip >/dev/null || skip "iproute2 not installed"
  [[ -e /proc/sys/net/ipv4/fib_multipath_hash_seed ]] ||
    skip "kernel $(uname -r) has no net.ipv4.fib_multipath_hash_seed (added in 6.11): its multipath key is random per boot"
  ip netns add "$kernel_probe" 2>/dev/null || skip "cannot create network namespaces"
  local rc=0
  if (($# > 0)); then "$@" 2>/dev/null || rc=$?; fi
  ip netns del "$kernel_probe"
  return $rc
}

kernel_workdir() {
  work=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")
  kernel_netns_prefix=${2:-}
  kernel_keep_dir=${3:-}
  trap kernel_cleanup EXIT
  if [[ -n $kernel_netns_prefix ]]; then
    trap 'exit 130' INT
    trap 'exit 143' TERM
  fi
}

kernel_cleanup() {
  local ns
  if [[ -n $kernel_netns_prefix ]]; then
    for ns in $(ip netns list 2>/dev/null | awk '{print $1}'); do
      [[ $ns == "$kernel_netns_prefix"* ]] && ip netns del "$ns" 2>/dev/null || true
    done
  fi
  if [[ -n $kernel_keep_dir ]]; then cp -r "$work" "$kernel_keep_dir"; fi
  rm -rf "$work"
}
