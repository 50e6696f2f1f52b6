#!/usr/bin/env bash
# Installs the Debian 12 packages ecmpsim needs, and nothing when they are
# all present already. Without arguments: what building `ecmpsim` needs (the
# README's first command). With --test: also what the test command needs
# (scripts/test.sh calls it so): the test and benchmark libraries, clang for
# the fuzz targets, Open MPI, the kernel's tools for the emulation tests,
# Chromium for the report tests, Wireshark's text2pcap for the captures,
# pybind11 and Python's numpy, pytest, pandas and matplotlib for the module.
set -euo pipefail
build=(
  cmake ninja-build g++ pkg-config
  libboost-graph-dev libtbb-dev libtomlplusplus-dev libxxhash-dev libcli11-dev nlohmann-json3-dev libpcap-dev zlib1g-dev
)
test=(
  python3 libbenchmark-dev doctest-dev
  clang libclang-rt-14-dev
  iproute2 netbase  # ip and tc (emulate); netbase: /etc/protocols, without which `ip route get ... ipproto udp` fails
  libopenmpi-dev openmpi-bin  # distributed sweeps (-DECMPSIM_MPI=ON)
  time  # /usr/bin/time -v, peak memory in bench/run.sh
  chromium tidy fonts-dejavu-core
  wireshark-common  # text2pcap, for tests/data/make_captures.sh
  # The Python module (-DECMPSIM_PYTHON=ON, docs/python.md) and its tests,
  # for Debian's /usr/bin/python3: pandas and matplotlib run docs/python.md.
  pybind11-dev python3-dev python3-pybind11 python3-numpy python3-pytest python3-pandas python3-matplotlib
)
case "${1:-}" in
  "") packages=("${build[@]}") ;;
  --test) packages=("${build[@]}" "${test[@]}") ;;
  *) echo "setup: unknown argument '$1' (expected nothing or --test)" >&2; exit 2 ;;
esac
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo >/dev/null; then
      echo "setup: missing packages ${missing[*]}; run this script as root (no sudo on this machine)" >&2
      exit 2
    fi
    sudo="sudo"
  fi
  echo "setup: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
