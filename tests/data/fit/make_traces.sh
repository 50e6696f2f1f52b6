#!/usr/bin/env bash
# Writes the traced decisions `ecmpsim fit` is tested on (tests/cli/fit_command_test.cpp)
# from real Linux routers: `ecmpsim emulate` builds configs/oversubscribed.toml from
# network namespaces with net.ipv4.fib_multipath_hash_policy = 1 and
# fib_multipath_hash_seed = 4242, traces every flow with `ip route get` and writes
# each decision the kernel made among several next hops, one row per flow and
# switch: the leaves choose among 4 uplinks (2 spines x 2 cables), the spines
# among the 2 cables down to a leaf. The committed file was written on kernel
# 6.18.44 (emulate reported AGREE). Needs root (network namespaces); the
# output is committed, re-run after changing the config.
set -euo pipefail
cd "$(dirname "$0")/../../.."
bin=${1:-./build/ecmpsim}
"$bin" emulate configs/oversubscribed.toml --seed 4242 --method route-get \
  --observations tests/data/fit/oversubscribed_traced.csv >/dev/null
