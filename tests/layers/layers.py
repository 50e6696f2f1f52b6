#!/usr/bin/env python3
"""Every #include between project folders points down the pipeline
(docs/architecture.md): a stage may include itself and the stages below it,
never one above. Link errors catch upward calls (sim/CMakeLists.txt); this
catches upward includes of inline code, which no linker sees."""
import pathlib, re, sys

BELOW = {
    "hashing": [],
    "workloads": ["hashing"],
    "sim/base": ["hashing"],
    "sim/fit": ["sim/base", "workloads", "hashing"],
    "sim/config": ["sim/base", "workloads", "hashing"],
    "sim/fabric": ["sim/config"],
    "sim/routing": ["sim/fabric"],
    "sim/model": ["sim/routing"],
    "sim/sweep": ["sim/model"],
    "sim/output": ["sim/sweep"],
    "sim/report": ["sim/output"],
    "sim/emulate": ["sim/model"],
    "sim/mpi": ["sim/sweep"],
    "sim/cli": ["sim/emulate", "sim/report", "sim/mpi", "sim/fit"],
}

def allowed(stage, seen=None):
    seen = set() if seen is None else seen
    for s in BELOW[stage]:
        if s not in seen:
            seen.add(s)
            allowed(s, seen)
    return seen | {stage}

def stage_of(path):
    for s in sorted(BELOW, key=len, reverse=True):
        if path == s or path.startswith(s + "/"):
            return s
    return None

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
bad = []
for f in sorted(root.glob("**/*")):
    rel = f.relative_to(root).as_posix()
    if f.suffix not in (".h", ".cpp") or rel.startswith(("build", "tests/", "bench/")):
        continue
    here = stage_of(rel)
    if here is None:
        continue
    for n, line in enumerate(f.read_text().splitlines(), 1):
        m = re.match(r'#include "([^"]+)"', line)
        if m and stage_of(m.group(1)) and stage_of(m.group(1)) not in allowed(here):
            bad.append(f"{rel}:{n}: {here} includes {m.group(1)}, a stage above it")
print("\n".join(bad) if bad else f"layers: every include points down ({len(BELOW)} stages)")
sys.exit(1 if bad else 0)
