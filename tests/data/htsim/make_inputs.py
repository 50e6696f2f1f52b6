#!/usr/bin/env python3
"""Writes htsim connection matrices (.cm) from ecmpsim's own flows.

Both simulators must see the same flows: this reads `ecmpsim run CONFIG
--format json` (first scenario) and writes, for htsim's main_roce, one
connection per ecmpsim flow (one per QP) with the same source, destination
and bytes. By default ecmpsim's paths are not passed on: htsim routes each
connection by its own per-switch ECMP hash (seeded by -seed), and the
comparison is between the two distributions over seeds (README.md). With
`+paths` after the mode (and htsim's -seed as SEED), each connection's flow id
is chosen so that htsim's hash puts it on ecmpsim's spine (force_paths.py):
the two then route every flow the same way, and differ only in how rates
are shared.

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

Usage: make_inputs.py RUN_JSON MODE[+paths] TOPO OUT_CM [SEED]
  TOPO: the htsim topology file (hosts per leaf and spines: Tier 0's
  Radix_Down and Radix_Up). With +paths the connection matrix starts with
  the primers and its real flows at force_paths.PRIMER_END_PS; a comment line
  "# offset_ps N" says so.
"""
import json
import re
import sys

import force_paths


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


def streams(flows):
    """Every QP streams its bytes from t = 0."""
    return [{"flow": f, "start": 0, "size": f["bytes"]} for f in flows], []


def ring_steps(flows):
    # Per channel: the ring's connections (src -> dst), each with its QPs' flows.
    chans = {}
    for f in flows:
        conn = chans.setdefault(f["channel"], {}).setdefault(f["path"][0], {"dst": f["path"][-1], "qps": []})
        conn["qps"].append(f)
    conns_out, triggers = [], []
    tid = 0
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
                for f in conns[order[p]]["qps"]:
                    c = {"flow": f, "size": f["bytes"] // steps}
                    if t == 0:
                        c["start"] = 0
                    else:
                        c["trigger"] = trig[((p - 1) % n, t - 1)]
                    if t < steps - 1:
                        c["done"] = trig[(p, t)]
                    conns_out.append(c)
    return conns_out, triggers


def read_topo(path):
    """hosts per leaf and spines of a 2-tier FatTreeTopology file (Tier 0's radices)."""
    tier, radix = None, {}
    for line in open(path):
        tok = line.split()
        if len(tok) == 2 and tok[0] == "Tier":
            tier = int(tok[1])
        elif len(tok) == 2 and tier == 0 and tok[0] in ("Radix_Down", "Radix_Up"):
            radix[tok[0]] = int(tok[1])
    if len(radix) != 2:
        sys.exit(f"make_inputs.py: {path}: no Tier 0 Radix_Down and Radix_Up")
    return radix["Radix_Down"], radix["Radix_Up"]


def spine_index(scenario, flows):
    leaves = {f["path"][1] for f in flows} | {f["path"][-2] for f in flows}
    spines = sorted({l["to"] for l in scenario["links"] if l["from"] in leaves and l["to"].startswith("spine")},
                    key=nic_key)
    return {s: i for i, s in enumerate(spines)}


def connection_lines(conns, index, chooser, hpl, spine_of, offset):
    lines = []
    for i, c in enumerate(conns, start=1):
        path = c["flow"]["path"]
        src, dst = index[path[0]], index[path[-1]]
        if chooser is None:
            fid = i
        elif len(path) == 5:
            fid = chooser.take(src // hpl, spine_of[path[2]])
        elif len(path) == 3:
            fid = chooser.any_id()  # under one leaf: no spine to choose
        else:
            sys.exit(f"make_inputs.py: flow path {path} is not leaf-spine")
        start = f"start {c['start'] + offset}" if "start" in c else f"trigger {c['trigger']}"
        done = f" send_done_trigger {c['done']}" if "done" in c else ""
        lines.append(f"{src}->{dst} id {fid} {start} size {c['size']}{done}")
    return lines


def with_path(flows):
    """A sprayed flow (routing = "spray") lists its paths: all share its ends, take the first."""
    return [f if "path" in f else {**f, "path": f["paths"][0]["path"]} for f in flows]


def main():
    if len(sys.argv) not in (5, 6):
        sys.exit(__doc__)
    run, mode, topo, out = sys.argv[1:5]
    mode, _, forced = mode.partition("+")
    if forced not in ("", "paths") or (forced == "paths") != (len(sys.argv) == 6):
        sys.exit("make_inputs.py: MODE+paths takes htsim's SEED, and only it")
    hpl, spines = read_topo(topo)
    scenario = json.load(open(run))["scenarios"][0]
    flows = with_path(scenario["flows"])
    if forced and any("paths" in f for f in scenario["flows"]):
        sys.exit("make_inputs.py: +paths needs one path per flow, not a sprayed scenario")
    index, nodes = host_map(flows, hpl)
    if mode == "streams":
        conns, triggers = streams(flows)
    elif mode == "ring-steps":
        conns, triggers = ring_steps(flows)
    else:
        sys.exit(f"make_inputs.py: unknown mode {mode}")
    head, prim, chooser, offset, spine_of = [], [], None, 0, {}
    if forced:
        spine_of = spine_index(scenario, flows)
        if len(spine_of) != spines:
            sys.exit(f"make_inputs.py: ecmpsim has {len(spine_of)} spines, {topo} {spines}")
        chooser = force_paths.IdChooser(int(sys.argv[5]), nodes // hpl, spines)
        offset = force_paths.PRIMER_END_PS
        head = [f"# offset_ps {offset}"]
    lines = connection_lines(conns, index, chooser, hpl, spine_of, offset)
    if forced:
        prim = force_paths.primers(nodes // hpl, hpl, chooser)
    with open(out, "w") as f:
        f.write("".join(h + "\n" for h in head))
        f.write(f"Nodes {nodes}\nConnections {len(prim) + len(lines)}\n")
        if triggers:
            f.write(f"Triggers {len(triggers)}\n")
        f.write("\n".join(prim + lines) + "\n")
        if triggers:
            f.write("\n".join(triggers) + "\n")


if __name__ == "__main__":
    main()
