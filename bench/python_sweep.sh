#!/usr/bin/env bash
# A 100,000-seed sweep of configs/paper16.toml through the Python module
# against the same sweep through the CLI (issue 37: at most 1.1x), measured
# in one run on this machine, alternating the two, REPS times each (default
# 5), and printing the medians of wall and CPU time (user + system, all
# threads; steadier than wall time on a loaded machine) and their ratios:
#   cli          `ecmpsim sweep configs/paper16.toml --seeds 0:N -f json -o /dev/null`, the process's wall time;
#   python call  ecmpsim.load(...) then .sweep(seeds=range(0, N)) (its JSON
#                document as dicts), timed inside one interpreter;
#   python run   the same as a whole `python3 -c` process (interpreter start
#                and `import ecmpsim` included).
# Usage: bench/python_sweep.sh [BUILD_DIR]   (a tree configured with
# -DECMPSIM_PYTHON=ON; default build)   Env: SEEDS (default 100000), REPS, PYTHON (default /usr/bin/python3)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
seeds=${SEEDS:-100000}
reps=${REPS:-5}
python=${PYTHON:-/usr/bin/python3}
cd "$root"
cmake --build "$build" -j"$(nproc)" --target ecmpsim ecmpsim_python >/dev/null

echo "commit   $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' (modified)')"
echo "machine  $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
PYTHONPATH="$build/python" "$python" - "$build/ecmpsim" "$seeds" "$reps" <<'PY'
import resource, statistics, subprocess, sys, time
import ecmpsim

exe, seeds, reps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
code = ("import ecmpsim; ecmpsim.load('configs/paper16.toml').sweep(seeds=range(0, %d))" % seeds)


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


wall = {"cli": [], "python call": [], "python run": []}
cpu = {k: [] for k in wall}
for _ in range(reps):
    t, c = time.perf_counter(), child_cpu()
    subprocess.run([exe, "sweep", "configs/paper16.toml", "--seeds", f"0:{seeds}", "-f", "json", "-o", "/dev/null"],
                   check=True)
    wall["cli"].append(time.perf_counter() - t)
    cpu["cli"].append(child_cpu() - c)
    t, c = time.perf_counter(), time.process_time()
    ecmpsim.load("configs/paper16.toml").sweep(seeds=range(0, seeds))
    wall["python call"].append(time.perf_counter() - t)
    cpu["python call"].append(time.process_time() - c)
    t, c = time.perf_counter(), child_cpu()
    subprocess.run([sys.executable, "-c", code], check=True)
    wall["python run"].append(time.perf_counter() - t)
    cpu["python run"].append(child_cpu() - c)
for what, table in (("wall", wall), ("CPU", cpu)):
    base = statistics.median(table["cli"])
    for name, ts in table.items():
        m = statistics.median(ts)
        print(f"  {what:4s} {name:12s} {seeds} seeds: median {m:.3f} s of {', '.join(f'{x:.3f}' for x in ts)}; "
              f"{m / base:.2f}x the CLI")
PY
