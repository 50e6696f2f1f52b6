#!/usr/bin/env python3
"""Random imported flows for configs/paper16.toml, as `ecmpsim run --flows` CSV.

Usage: bench/random_flows.py N [SEED] > flows.csv

N flows between random distinct hosts of paper16 (4 leaves x 4 hosts, addresses
10.0.LEAF.HOST+1, docs/importing.md), each with a random RoCEv2 source port
and a random size, uniform in 1 KiB .. 1 GiB: every flow has its own size, the
flow model's hard case for imported traffic (issue 36; bench/RESULTS.md).
Deterministic for a given N and SEED (default 1), so runs can be compared;
the files are generated, never committed.
"""
import random
import sys


def main() -> None:
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.strip().splitlines()[2])
    count = int(sys.argv[1])
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) == 3 else 1)
    hosts = [f"10.0.{leaf}.{host + 1}" for leaf in range(4) for host in range(4)]
    out = sys.stdout
    out.write("src_ip,dst_ip,proto,sport,dport,bytes\n")
    for _ in range(count):
        src, dst = rng.sample(hosts, 2)
        out.write(f"{src},{dst},17,{rng.randrange(49152, 65536)},4791,{rng.randint(1024, 1 << 30)}\n")


if __name__ == "__main__":
    main()
