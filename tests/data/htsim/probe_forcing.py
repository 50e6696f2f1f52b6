#!/usr/bin/env python3
"""Writes the connection matrices that check force_paths.py against htsim itself.

On a 2-tier topology of L leaves x H hosts and S = H spines, host k of leaf a
sends BYTES to host k of leaf a+1. `matching` forces host k's flow onto
spine k: every uplink, downlink and NIC carries one flow, so htsim must finish
at its balanced ceiling. `pairs` forces it onto spine 2 (k // 2): every used
uplink and downlink carries two flows, so htsim must take twice as long. With
htsim's own hash instead, a matching is unlikely (paper16: each leaf's four
flows on four spines, (4!/4^4)^4 = 8e-5), so the probe fails if the forcing
does not hold.

Usage: probe_forcing.py TOPO SEED matching|pairs BYTES OUT_CM
"""
import sys

import force_paths
from make_inputs import read_topo


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    topo, seed, kind, size, out = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5]
    hpl, spines = read_topo(topo)
    if hpl != spines:
        sys.exit("probe_forcing.py: needs as many spines as hosts per leaf")
    nodes = int(next(l.split()[1] for l in open(topo) if l.startswith("Nodes ")))
    leaves = nodes // hpl
    chooser = force_paths.IdChooser(seed, leaves, spines)
    lines = []
    for a in range(leaves):
        for k in range(hpl):
            spine = k if kind == "matching" else 2 * (k // 2)
            fid = chooser.take(a, spine)
            dst = ((a + 1) % leaves) * hpl + k
            lines.append(f"{a * hpl + k}->{dst} id {fid} start {force_paths.PRIMER_END_PS} size {size}")
    prim = force_paths.primers(leaves, hpl, chooser)
    with open(out, "w") as f:
        f.write(f"# offset_ps {force_paths.PRIMER_END_PS}\nNodes {nodes}\nConnections {len(prim) + len(lines)}\n")
        f.write("\n".join(prim + lines) + "\n")


if __name__ == "__main__":
    main()
