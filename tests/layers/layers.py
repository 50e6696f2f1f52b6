#!/usr/bin/env python3
"""Every #include between project folders points down the pipeline
(docs/architecture.md): a stage may include itself and the stages below it,
never one above. Link errors catch upward calls (sim/CMakeLists.txt); this
catches upward includes of inline code, which no linker sees.

The stage graph is read from CMake, its one declaration: each
ecmpsim_library(NAME DIR) is a stage, its target_link_libraries' ecmpsim::X
are the stages below it, and an executable's (or the Python module's,
pybind11_add_module) sources in a folder of their own (sim/cli/mpi, python)
are a stage on the libraries it links."""
import pathlib, re, sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")


def stage_graph(root):
    folder, links, exe_dir = {}, {}, {}
    for cmake in sorted(root.glob("**/CMakeLists.txt")):
        rel = cmake.parent.relative_to(root).as_posix()
        if rel.startswith(("build", "tests", "bench")):
            continue
        text = re.sub(r"#.*", "", cmake.read_text())
        for name, d in re.findall(r"ecmpsim_library\(\s*(\w+)\s+([\w/]+)\s*\)", text):
            folder[name] = d
        for call in re.finditer(r"(add_executable|pybind11_add_module|target_link_libraries)\(\s*([\w${}]+)([^)]*)\)", text):
            kind, target, args = call.groups()
            if kind != "target_link_libraries":
                srcs = [a for a in args.split() if a.endswith(".cpp") and "$" not in a]
                if srcs:
                    exe_dir[target] = (pathlib.PurePosixPath(rel) / srcs[0]).parent.as_posix()
            else:
                below = re.findall(r"ecmpsim::(\w+)", args)
                key = target[len("ecmpsim_"):] if target.startswith("ecmpsim_") and target[8:] in folder else None
                if key is None and target in exe_dir:
                    key = "exe:" + exe_dir[target]
                if key is not None:
                    links.setdefault(key, set()).update(below)
    graph = {d: set() for d in folder.values()}
    for key, below in links.items():
        d = key[4:] if key.startswith("exe:") else folder[key]
        graph.setdefault(d, set()).update(folder[b] for b in below if b in folder and folder[b] != d)
    return graph


BELOW = stage_graph(root)

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
