#!/usr/bin/env python3
"""Writes htsim connection matrices (.cm) from ecmpsim's own flows.

Both simulators must see the same flows: this reads `ecmpsim run CONFIG
--format json` (first scenario) and writes, for htsim's main_roce, one
connection per ecmpsim flow (one per QP) with the same source, destination
and bytes. ecmpsim's paths are not passed on: htsim routes each connection by
its own per-switch ECMP hash (seeded by -seed), and the comparison is between
the two distributions over seeds (README.md).

Hosts: htsim's FatTreeTopology puts host h on leaf h // hosts_per_leaf.
ecmpsim's NIC names are mapped so that NICs on ecmpsim's i-th leaf (leaves
in the order of their number in the name) become htsim hosts
i*hosts_per_leaf .. on htsim's i-th leaf, in the order of their names.

Modes:
  streams    every flow starts at time 0 and streams its bytes (ecmpsim's
             `predicted`: each QP at its own max-min rate);
  ring-steps a ring all-reduce step by step: in each channel the 2(n-1) steps
             of every rank are flows of bytes/(2(n-1)) per QP; rank r's step t
             starts when all QPs of rank r-1's step t-1 have arrived (htsim
             barrier triggers), so a chunk moves around its ring as in NCCL's
             ring, without NCCL's slicing within a step.

Usage: make_inputs.py RUN_JSON MODE HOSTS_PER_LEAF OUT_CM
"""
import json
import re
import sys


def nic_key(name):
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", name)]


def host_map(flows, hosts_per_leaf):
    leaf_of = {}
    for f in flows:
        leaf_of[f["path"][0]] = f["path"][1]
        leaf_of[f["path"][-1]] = f["path"][-2]
    leaves = sorted(set(leaf_of.values()), key=nic_key)
    index = {}
    for li, leaf in enumerate(leaves):
        nics = sorted((n for n, l in leaf_of.items() if l == leaf), key=nic_key)
        if len(nics) > hosts_per_leaf:
            sys.exit(f"make_inputs.py: leaf {leaf} has {len(nics)} NICs > {hosts_per_leaf}")
        for k, nic in enumerate(nics):
            index[nic] = li * hosts_per_leaf + k
    return index, len(leaves) * hosts_per_leaf


def streams(flows, index):
    lines = []
    for i, f in enumerate(flows, start=1):
        lines.append(f"{index[f['path'][0]]}->{index[f['path'][-1]]} id {i} start 0 size {f['bytes']}")
    return lines, []


def ring_steps(flows, index):
    # Per channel: the ring's connections (src -> dst), each with its QPs.
    chans = {}
    for f in flows:
        conn = chans.setdefault(f["channel"], {}).setdefault(f["path"][0], {"dst": f["path"][-1], "qps": []})
        conn["qps"].append(f["bytes"])
    lines, triggers = [], []
    fid, tid = 0, 0
    for ch in sorted(chans):
        conns = chans[ch]
        n = len(conns)
        steps = 2 * (n - 1)
        # ring order: follow dst from the smallest-named NIC
        start = sorted(conns, key=nic_key)[0]
        order, at = [], start
        while True:
            order.append(at)
            at = conns[at]["dst"]
            if at == start:
                break
        if len(order) != n:
            sys.exit(f"make_inputs.py: channel {ch} is not one ring")
        # trigger id of (rank position p, step t): fires when all QPs of it arrived
        trig = {}
        for t in range(steps - 1):
            for p in range(n):
                tid += 1
                trig[(p, t)] = tid
                triggers.append(f"trigger id {tid} barrier count {len(conns[order[p]]['qps'])}")
        for t in range(steps):
            for p in range(n):
                src = order[p]
                dst = conns[src]["dst"]
                for qbytes in conns[src]["qps"]:
                    fid += 1
                    size = qbytes // steps
                    head = f"{index[src]}->{index[dst]} id {fid}"
                    start = "start 0" if t == 0 else f"trigger {trig[((p - 1) % n, t - 1)]}"
                    done = f" send_done_trigger {trig[(p, t)]}" if t < steps - 1 else ""
                    lines.append(f"{head} {start} size {size}{done}")
    return lines, triggers


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    run, mode, hpl, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    flows = json.load(open(run))["scenarios"][0]["flows"]
    index, nodes = host_map(flows, hpl)
    if mode == "streams":
        lines, triggers = streams(flows, index)
    elif mode == "ring-steps":
        lines, triggers = ring_steps(flows, index)
    else:
        sys.exit(f"make_inputs.py: unknown mode {mode}")
    with open(out, "w") as f:
        f.write(f"Nodes {nodes}\nConnections {len(lines)}\n")
        if triggers:
            f.write(f"Triggers {len(triggers)}\n")
        f.write("\n".join(lines) + "\n")
        if triggers:
            f.write("\n".join(triggers) + "\n")


if __name__ == "__main__":
    main()
