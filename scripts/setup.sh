#!/usr/bin/env bash
# Installs the Debian 12 packages ecmpsim needs to build and test, and nothing
# when they are all present already.
set -euo pipefail
packages=(
  cmake ninja-build g++ pkg-config python3
  libboost-graph-dev libtbb-dev libtomlplusplus-dev libxxhash-dev libbenchmark-dev doctest-dev
  libcli11-dev nlohmann-json3-dev libpcap-dev
  clang libclang-rt-14-dev
  iproute2
  wireshark-common  # text2pcap, for tests/data/make_captures.sh
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "setup: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
