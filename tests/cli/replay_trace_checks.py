#!/usr/bin/env python3
"""`ecmpsim replay` on the public HTA trace (tests/data/traces/hta): the
collectives it reports, their sizes and measured durations, against the trace
read independently here with Python's gzip and json. Usage: replay_trace_checks.py ECMPSIM"""
import gzip
import json
import subprocess
import sys

TRACE = "tests/data/traces/hta/nccl_data.json.gz"
# c10 ScalarType sizes of the dtypes this trace uses.
DTYPE = {"Float": 4, "Half": 2, "BFloat16": 2, "Double": 8, "Long": 8, "Int": 4, "Byte": 1, "Char": 1}


def expected():
    doc = json.load(gzip.open(TRACE))
    kernels = [e for e in doc["traceEvents"]
               if e.get("cat") == "kernel" and e.get("name", "").startswith("nccl")
               and "Collective name" in e.get("args", {})]
    kernels.sort(key=lambda e: e["ts"])
    out = []
    for e in kernels:
        a = e["args"]
        n = a["Group size"]
        size = DTYPE[a["dtype"]]
        if a["Collective name"] in ("allgather", "_allgather_base"):
            nbytes = max(a["Out msg nelems"], a["In msg nelems"] * n) * size
        elif a["Collective name"] in ("reduce_scatter", "_reduce_scatter_base"):
            nbytes = max(a["In msg nelems"], a["Out msg nelems"] * n) * size
        else:
            nbytes = a["In msg nelems"] * size
        out.append((a["Process Group Name"], a["Collective name"], nbytes, e["dur"], e["ts"] - kernels[0]["ts"]))
    return out


def compare(name, got, want):
    out = []
    if len(got) != len(want):
        out.append(f"{name}: {len(got)} collectives, the trace holds {len(want)}")
    for g, w in zip(got, want):
        # Exact: the durations and sizes are the trace's numbers, not recomputed.
        if g[:4] != w[:4] or abs(g[4] - w[4]) > 1e-3:
            out.append(f"{name}: {g} != trace {w}")
    return out


def main():
    ecmpsim = sys.argv[1]
    want = expected()
    run = subprocess.run([ecmpsim, "replay", TRACE, "--config", "configs/paper16.toml", "--format", "json"],
                         capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"replay failed ({run.returncode}): {run.stderr}")
    doc = json.loads(run.stdout)
    failures = []
    if "groups completed from membership: '0' (1 of 2 ranks traced)" not in run.stderr:
        failures.append(f"no note on the group completed from membership: {run.stderr!r}")
    for scenario in doc["scenarios"]:
        rows = scenario["collectives"]
        got = [(r["group"], r["collective"], r["bytes"], r["measured_us"], r["start_us"]) for r in rows]
        failures += compare(scenario["name"], got, want)
        # Negative control: one duration off by a nanosecond must be caught.
        off = [want[0][:3] + (want[0][3] + 1e-3,) + want[0][4:]] + want[1:]
        if not compare(scenario["name"], got, off):
            failures.append("the comparison missed a duration off by 1 ns")
        keys = {"group", "seq", "collective", "bytes", "start_us", "measured_us", "predicted_us", "alone_us"}
        for r in rows:
            if not keys <= r.keys():
                failures.append(f"row without the contract's keys: {sorted(keys - r.keys())}")
                break
        allreduce = [r for r in rows if r["collective"] == "allreduce"]
        if not allreduce or any(r["predicted_us"] is None or r["predicted_us"] <= 0 for r in allreduce):
            failures.append("an all-reduce without a positive prediction")
    for f in failures:
        print("FAIL:", f)
    print(f"{len(want)} collectives checked in {len(doc['scenarios'])} scenarios; {len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
