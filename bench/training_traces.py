#!/usr/bin/env python3
"""Writes one PyTorch profiler trace per rank for a Megatron-style training
step (bench/run.sh's replay case): tp x pp x dp ranks, the collectives of
workloads/generators/training.cpp (tensor all-reduces, pipeline sends, data
all-reduce buckets) with PyTorch's metadata keys, on a synthetic clock (one
collective every 50 us, each 40 us long, a 10 us compute kernel before it).

Usage: training_traces.py DIR [TP PP DP LAYERS HIDDEN SEQ MICROBATCHES]"""
import json
import os
import sys


def main():
    out = sys.argv[1]
    tp, pp, dp, layers, hidden, seq, mb = (int(x) for x in (sys.argv[2:] or [8, 4, 32, 32, 4096, 4096, 2]))
    elem = 2  # bf16
    ranks = tp * pp * dp
    rank = lambda t, d, p: t + tp * (d + dp * p)
    tp_groups = {}
    for p in range(pp):
        for d in range(dp):
            tp_groups[(d, p)] = [rank(t, d, p) for t in range(tp)]
    dp_groups = {(t, p): [rank(t, d, p) for d in range(dp)] for p in range(pp) for t in range(tp)}
    pp_groups = {(t, d): [rank(t, d, p) for p in range(pp)] for d in range(dp) for t in range(tp)}
    names = {}
    for kind, groups in (("tp", tp_groups), ("dp", dp_groups), ("pp", pp_groups)):
        for i, key in enumerate(sorted(groups)):
            names[(kind, key)] = f"{kind}{i}"
    events = [[] for _ in range(ranks)]
    clock = [0.0]

    def kernel(r, coll, nelems, group, members, extra=None):
        args = {"Collective name": coll, "In msg nelems": nelems, "Out msg nelems": nelems, "Group size": len(members),
                "dtype": "BFloat16", "Process Group Name": group,
                "Process Group Ranks": "[" + ", ".join(map(str, members)) + "]"}
        args.update(extra or {})
        name = "ncclDevKernel_SendRecv(ncclDevComm*)" if coll in ("send", "recv") else \
            "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*)"
        events[r].append({"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": clock[0] - 10,
                          "dur": 10, "args": {"stream": 7}})
        events[r].append({"ph": "X", "cat": "kernel", "name": name, "pid": 0, "tid": 9, "ts": clock[0], "dur": 40,
                          "args": args})

    def collective(kind, key, coll, nelems):
        members = {"tp": tp_groups, "dp": dp_groups}[kind][key]
        if len(members) < 2:
            return
        for r in members:
            kernel(r, coll, nelems, names[(kind, key)], members)
        clock[0] += 50

    activation = seq * hidden  # elements of b * s * h, b = 1
    per_stage = layers // pp

    def layer(p):
        for _ in range(2):
            for d in range(dp):
                collective("tp", (d, p), "allreduce", activation)

    def boundary(src_p, dst_p):
        for d in range(dp):
            for t in range(tp):
                members = pp_groups[(t, d)]
                group = names[("pp", (t, d))]
                kernel(rank(t, d, src_p), "send", activation // tp, group, members, {"Dst Rank": dst_p})
                kernel(rank(t, d, dst_p), "recv", activation // tp, group, members, {"Src Rank": src_p})
        clock[0] += 50

    for _ in range(mb):
        for p in range(pp):
            for _ in range(per_stage):
                layer(p)
            if p + 1 < pp:
                boundary(p, p + 1)
    for _ in range(mb):
        for p in reversed(range(pp)):
            for _ in range(per_stage):
                layer(p)
            if p > 0:
                boundary(p, p - 1)
    grads = 12 * hidden * hidden // tp * per_stage
    bucket = max(40_000_000, 1_000_000 * dp)
    for p in reversed(range(pp)):
        done = 0
        while done < grads:
            n = min(bucket, grads - done)
            for t in range(tp):
                collective("dp", (t, p), "allreduce", n)
            done += n
    os.makedirs(out, exist_ok=True)
    for r in range(ranks):
        doc = {"schemaVersion": 1, "distributedInfo": {"backend": "nccl", "rank": r, "world_size": ranks},
               "traceEvents": events[r]}
        with open(os.path.join(out, f"rank-{r:04d}.pt.trace.json"), "w") as f:
            json.dump(doc, f)


if __name__ == "__main__":
    main()
