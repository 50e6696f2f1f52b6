#!/usr/bin/env python3
"""The structure's budgets (issue 46 item 5), measured on the sources and
checked: the test fails when one is passed. docs/architecture.md quotes the
table this prints between its `budgets:begin` and `budgets:end` markers, and
--check-doc fails when the two differ, so the page never quotes from memory.

    budgets.py ROOT              measure and check; exit 1 over a budget
    budgets.py ROOT --markdown   the table the page quotes
    budgets.py ROOT --check-doc  also check the page's copy

Measures:
- spec.h's reach: the compiled files (every .cpp under sim/, hashing/,
  workloads/, tests/ and bench/) whose #include closure holds
  sim/config/spec.h. Includes are followed as `g++ -MM -MG -I. -Ibuild/generated`
  follows quoted ones (from the file's folder, then the root), without
  evaluating #if: a file that names spec.h in any branch counts.
- files naming a routing mode: those under sim/, hashing/ and workloads/
  holding `RoutingKind::`.
- writers computing a size table: files under sim/output/ and sim/report/
  calling `size_table(`.
- python/ files including sim/cli/.
- sim/cli's size: the lines of every .cpp and .h under sim/cli/, its MPI
  main (sim/cli/mpi/) included.
"""
import pathlib, re, sys

ROOT = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("--") else ".").resolve()

# name: (budget, what, why). A budget below the measured value is a ratchet
# towards the target, which `target` states when it is not met yet.
BUDGETS = {
    "spec_reach": {"budget": 132, "target": 69,
                   "what": "compiled files reaching sim/config/spec.h",
                   "why": "target: 60% of 174d75c's 115 (issue 46); 111 on main before sim/app, whose 10 sources load or run a config; 7 more with replay (issue 48), which loads a config and runs it; 3 fewer once sim/report/published.h stopped including it (the catalogue's runner moved to sim/app); 5 more with issue 44, NCCL's settings read (config_nccl_env) and its channels derived from the job's spec (nccl_derive, job_shapes) with their tests; 3 with topology (issue 49): app::topology loads the --against config, its command's file, and a config test of the hash vocabularies; 3 more with issue 47: job-array shards (sim/app/sweep_shard.cpp and its test) and the sweep job in sim/app (sweep.cpp); 3 more with the memory estimate (issue 47), which reads the config before anything is built (sim/model/memory.cpp, sim/sweep/sweep_memory.cpp and their test); 8 fewer once sim/cli/cli.h stopped including sim/app/load.h (9 command files and tests no longer reach it; app::replay, which loads a config, is 1 more); 1 more with plan (issue 50): sim/app/plan.cpp runs a sweep job"},
    "routing_kind_files": {"budget": 5, "target": 5,
                           "what": "files naming RoutingKind::",
                           "why": "the table, the scenario's default and the one dispatch read the enum; the rest read its traits"},
    "writer_size_tables": {"budget": 0, "target": 0,
                           "what": "writers (sim/output, sim/report) calling size_table(",
                           "why": "a command computes its results once (sim/app); writers only format. The catalogue's runner reads busbw from the sweep engine's rows"},
    "python_cli_includes": {"budget": 0, "target": 0,
                            "what": "python/ files including sim/cli/",
                            "why": "both doors stand on sim/app (the sweep command moved there with issue 47's checkpoints and shards)"},
    "cli_lines": {"budget": 1930, "target": 2000,
                  "what": "lines of sim/cli (.cpp, .h; sim/cli/mpi included)",
                  "why": "a front door only translates (issue 46: at most 2.0k, from 2.8k); 2494 before sweep moved to sim/app; 41 more with issue 47's limits, streamed outputs and escaping in the doors; 2 more with issue 44 item 6: calibrate's --run and run's notes; 170 fewer once replay, init, the file check, the sweep's stop signals, validate's table pairing and fit's output check moved to sim/app and calibrate and validate shared their table flags (validate gaining --run); 16 more with plan (issue 50): its three flags, its name, and its report in sweep's door, whose flags, checkpoints, shards and MPI it shares"},
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def sources(*folders, suffixes=(".cpp",)):
    for folder in folders:
        base = ROOT / folder
        if base.exists():
            for f in sorted(base.rglob("*")):
                if f.suffix in suffixes and "build" not in f.relative_to(ROOT).parts[:1]:
                    yield f


def closure_has(target, start, cache):
    """Whether `start`'s quoted-include closure reaches `target` (a root-relative path)."""
    seen, stack = set(), [start]
    while stack:
        f = stack.pop()
        if f in seen:
            continue
        seen.add(f)
        if f in cache:
            names = cache[f]
        else:
            try:
                names = INCLUDE.findall(f.read_text(errors="replace"))
            except OSError:
                names = []
            cache[f] = names
        for name in names:
            for cand in (f.parent / name, ROOT / name, ROOT / "build" / "generated" / name):
                if cand.is_file():
                    cand = cand.resolve()
                    if cand == ROOT / target:
                        return True
                    stack.append(cand)
                    break
    return False


def measure():
    cache = {}
    compiled = list(sources("sim", "hashing", "workloads", "tests", "bench"))
    spec = [f for f in compiled if closure_has("sim/config/spec.h", f.resolve(), cache)]
    code = list(sources("sim", "hashing", "workloads", suffixes=(".cpp", ".h")))
    kinds = [f for f in code if "RoutingKind::" in f.read_text(errors="replace")]
    writers = [f for f in sources("sim/output", "sim/report", suffixes=(".cpp", ".h"))
               if re.search(r"\bsize_table\(", f.read_text(errors="replace"))]
    py = [f for f in sources("python", suffixes=(".cpp", ".h"))
          if re.search(r'#\s*include\s+"sim/cli/', f.read_text(errors="replace"))]
    cli = list(sources("sim/cli", suffixes=(".cpp", ".h")))
    cli_lines = sum(len(f.read_text(errors="replace").splitlines()) for f in cli)
    rel = lambda fs: [f.relative_to(ROOT).as_posix() for f in fs]
    return {"spec_reach": (len(spec), len(compiled), rel(spec)),
            "routing_kind_files": (len(kinds), None, rel(kinds)),
            "writer_size_tables": (len(writers), None, rel(writers)),
            "python_cli_includes": (len(py), None, rel(py)),
            "cli_lines": (cli_lines, None, rel(cli))}


def markdown(m):
    lines = ["| budget | measured | at most | target | why |", "| --- | --- | --- | --- | --- |"]
    for name, b in BUDGETS.items():
        n, of, _ = m[name]
        measured = f"{n} of {of}" if of is not None else str(n)
        lines.append(f"| {b['what']} | {measured} | {b['budget']} | {b['target']} | {b['why']} |")
    return "\n".join(lines) + "\n"


def main():
    m = measure()
    over = []
    # Negative controls: the measures see what they must (else a budget would pass on nothing).
    if "sim/config/config.cpp" not in m["spec_reach"][2] or "sim/app/run.cpp" not in m["spec_reach"][2]:
        over.append("the include walk misses sim/config/config.cpp or sim/app/run.cpp, which include spec.h")
    if "sim/config/routing_kind.h" not in m["routing_kind_files"][2]:
        over.append("the RoutingKind:: count misses sim/config/routing_kind.h, the table")
    if "sim/cli/mpi/main.cpp" not in m["cli_lines"][2] or "sim/cli/cli.h" not in m["cli_lines"][2]:
        over.append("the sim/cli line count misses sim/cli/cli.h or sim/cli/mpi/main.cpp")
    for name, b in BUDGETS.items():
        n, _, files = m[name]
        if n > b["budget"]:
            over.append(f"{b['what']}: {n}, over the budget of {b['budget']}" +
                        (f" ({', '.join(files)})" if len(files) <= 12 else ""))
    if "--markdown" in sys.argv:
        sys.stdout.write(markdown(m))
        return 0
    if "--check-doc" in sys.argv:
        doc = (ROOT / "docs" / "architecture.md").read_text()
        block = re.search(r"<!-- budgets:begin -->\n(.*?)<!-- budgets:end -->", doc, re.S)
        if not block or block.group(1) != markdown(m):
            over.append("docs/architecture.md's budget table differs from tests/layers/budgets.py --markdown:\n" +
                        markdown(m))
    for line in over:
        print("budgets: " + line)
    if not over:
        print("budgets: " + "; ".join(f"{BUDGETS[k]['what']} {v[0]} (at most {BUDGETS[k]['budget']})" for k, v in m.items()))
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
