#!/usr/bin/env python3
"""Bounded memory, refused before the work (issue 47, item 4).

D5: every reader stops at its limit on an input that is not a regular file
(/dev/zero, a FIFO, standard input, a symlink to a device), with one line
naming the file and the limit's flag, exit 2, and a peak RSS near the limit
(before: read until memory ran out, `internal error: std::bad_alloc`). The
negative control: the same readers accept a regular file within the limit.

D6: a fabric whose routing tables cannot fit (one spine, 200,000 leaves:
200,001 x 200,000 equal-cost set entries) is refused by the default
--max-memory (half of physical memory) at once, and the issue's one spine
with 20,000 leaves by --max-memory 2G; a smaller one runs. The estimate the
refusal prints is compared with the measured peak RSS of the same runs on
fabrics dominated by different parts (process, routing tables, flows and
flow models, a sweep's rows): within a factor of 2 either way.

D8: `sweep --seeds 0:400000000 --force` is refused before it runs (before:
std::bad_alloc, exit 1).

Streamed output: `run -f json`, `-f csv` and `flows -f json` peak within 1.25x
(+ 4 MiB) of the same run's summary table (before: 3.1x for run -f json on
the k = 16 mix).

Usage: memory_checks.py ECMPSIM   (from the source tree)"""
import os
import re
import subprocess
import sys
import tempfile
import threading

BIN = os.path.realpath(sys.argv[1])
CFG = "configs/paper16.toml"
tmp = tempfile.mkdtemp()
MIB = 1 << 20


def fail(msg):
    print("memory_checks: " + msg, file=sys.stderr)
    sys.exit(1)


def run(args, stdin=None, timeout=120):
    """(exit code, stderr text, peak RSS in bytes) of one run."""
    p = subprocess.run(["/usr/bin/time", "-f", "peak %M", BIN] + args, stdin=stdin, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, timeout=timeout)
    err = [ln for ln in p.stderr.decode(errors="replace").splitlines() if not ln.startswith("Command exited")]
    peak = int(err[-1].split()[1]) * 1024
    return p.returncode, "\n".join(err[:-1]), peak


def refused(args, path, flag, limit, stdin=None):
    rc, err, peak = run(args, stdin)
    want = f"ecmpsim: {path}"
    if rc != 2 or err.count("\n") != 0 or not err.startswith(want) or flag not in err:
        fail(f"{args!r}: exit {rc}, said {err!r}; wanted one line starting {want!r} naming {flag}")
    if peak > limit + 160 * MIB:
        fail(f"{args!r}: peak RSS {peak / MIB:.0f} MiB for a limit of {limit / MIB:.0f} MiB")
    return err


def write(name, text):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    return path


# D5: each reader, each kind of input.
LIMIT = "1M"
zero = "/dev/zero"
refused(["run", CFG, "--flows", zero, "--max-capture-bytes", LIMIT], zero, "--max-capture-bytes", MIB)
refused(["run", zero, "--max-config-bytes", LIMIT], zero, "--max-config-bytes", MIB)
os.symlink(zero, os.path.join(tmp, "topo.csv"))
os.symlink(zero, os.path.join(tmp, "routes.csv"))
topo_cfg = write("t.toml", '[fabric]\nkind = "file"\nfile = "topo.csv"\n')
err = refused(["run", topo_cfg, "--max-config-bytes", LIMIT], topo_cfg + ":3:8", "--max-config-bytes", MIB)
if "topo.csv" not in err:
    fail(f"the topology's refusal does not name the file: {err}")
routes_cfg = write("r.toml", '[[scenario]]\nname = "s"\nrouting = "static"\nroutes_file = "routes.csv"\n')
err = refused(["run", routes_cfg, "--max-config-bytes", LIMIT], routes_cfg + ":4:15", "--max-config-bytes", MIB)
if "routes.csv" not in err:
    fail(f"the routes file's refusal does not name the file: {err}")
hash_args = ["hash", "--algo", "crc32", "--members", "4", "--max-capture-bytes", LIMIT, "--tuples"]
refused(hash_args + [zero], zero, "--max-capture-bytes", MIB)
with open(zero, "rb") as z:
    refused(hash_args + ["-"], "<stdin>", "--max-capture-bytes", MIB, stdin=z)
refused(["fit", zero, "-n", "4", "--max-capture-bytes", LIMIT], zero, "--max-capture-bytes", MIB)
with open(zero, "rb") as z:
    refused(["fit", "-", "-n", "4", "--max-capture-bytes", LIMIT], "<stdin>", "--max-capture-bytes", MIB, stdin=z)
refused(["calibrate", zero, "--max-capture-bytes", LIMIT], zero, "--max-capture-bytes", MIB)
refused(["report", CFG, "--emulation", zero, "--max-capture-bytes", LIMIT, "--out", os.path.join(tmp, "r.html")],
        zero, "--max-capture-bytes", MIB)
refused(["sweep", CFG, "--seeds", "0:10", "--resume", zero], zero, "checkpoint", MIB)
# A FIFO fed 2 MiB by a writer that stops when the reader goes.
fifo = os.path.join(tmp, "flows.csv")
os.mkfifo(fifo)


def feed():
    try:
        with open(fifo, "wb") as f:
            for _ in range(32):
                f.write(b"src,dst\n" * 8192)
    except BrokenPipeError:
        pass


writer = threading.Thread(target=feed)
writer.start()
refused(["run", CFG, "--flows", fifo, "--max-capture-bytes", LIMIT], fifo, "--max-capture-bytes", MIB)
writer.join(timeout=30)
# The negative control: regular files within the limits are read.
for args in (["run", CFG, "--flows", "tests/data/paper16_flows.csv", "--max-capture-bytes", LIMIT],
             ["run", CFG, "--max-config-bytes", LIMIT]):
    rc, err, _ = run(args)
    if rc != 0:
        fail(f"{args!r}: exit {rc}: {err}")

# D6: routing tables past the limit, refused before the fabric is built.
def one_spine(name, leaves):
    """The issue's fabric, as a topology file: one spine, `leaves` leaves of one host each."""
    rows = ["node,spine,spine"] + [f"node,leaf{i},leaf\nnode,h{i},host\nlink,leaf{i},spine,400\nlink,h{i},leaf{i},400"
                                   for i in range(leaves)]
    write(name + ".csv", "\n".join(rows) + "\n")
    return write(name + ".toml", f'[fabric]\nkind = "file"\nfile = "{name}.csv"\n\n'
                                 '[workload]\ncollective = "ring-allreduce"\nnodes = 2\n')


physical = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
# 100,000 rail leaves on one spine: 100,001 x 100,000 (switch, ToR) pairs at 8 bytes, 74.5 GiB.
huge = write("huge.toml", '[fabric]\nkind = "rail"\nnodes = 100000\nnics_per_node = 1\ngpus_per_node = 1\n'
                          'rail_leaf_nodes = 1\nspines = 1\n')
if physical < 140 << 30:
    err = refused(["run", huge], huge, "--max-memory", 16 * MIB)
    if "100001 switches x 100000 destination ToRs" not in err:
        fail(f"the refusal does not name the dominant part: {err}")
issue = one_spine("issue", 20000)
err = refused(["run", issue, "--max-memory", "2G"], issue, "--max-memory", 64 * MIB)
if "20001 switches x 20000 destination ToRs" not in err:
    fail(f"the refusal does not count the topology file's ToRs: {err}")
rc, err, _ = run(["run", one_spine("small", 2000), "--max-memory", "2G", "-f", "summary"])
if rc != 0:
    fail(f"the negative control, 2,000 leaves, exit {rc}: {err}")

# D8: a --force sweep whose rows cannot fit.
if physical < 500 << 30:
    err = refused(["sweep", CFG, "--seeds", "0:400000000", "--force"], CFG, "--max-memory", 16 * MIB)
    if "400000000 variants" not in err:
        fail(f"the sweep's refusal does not name its rows: {err}")
rc, err, _ = run(["sweep", CFG, "--seeds", "0:2000", "--force", "--max-variants", "1000", "-f", "csv"])
if rc != 0:
    fail(f"the negative control, a forced sweep that fits, exit {rc}: {err}")


# Streamed output: run's JSON and CSV and flows' JSON take no more memory than
# the table of the same run (the k = 16 four-job mix: its run JSON is 7.8 MB;
# built in memory, the document took -f json to 46.4 MB and flows -f json to
# 22.6 MB, against 15.0 MB for the summary).
mix = "bench/configs/scale-ft16-jobs.toml"
_, _, table_peak = run(["run", mix, "-f", "summary"])
for args in (["run", mix, "-f", "json"], ["run", mix, "-f", "csv"], ["flows", mix, "-f", "json"]):
    out = os.path.join(tmp, args[0] + "." + args[-1])
    rc, err, peak = run(args + ["--out", out])
    if rc != 0 or peak > table_peak * 1.25 + 4 * MIB:
        fail(f"{args!r}: exit {rc}, peak RSS {peak / MIB:.1f} MiB against the summary's {table_peak / MIB:.1f} MiB")
if os.path.getsize(os.path.join(tmp, "run.json")) < 5 * MIB:
    fail("the run's JSON is too small to tell a document in memory from one streamed")


# The estimate against the measured peak. A refusal prints the estimate; a
# limit at the config-only estimate lets the first check pass and the next
# one (flows, or the sweep) refuse with the whole estimate.
def estimate(args):
    limit = 1
    for _ in range(3):
        rc, err, _ = run(args + ["--max-memory", str(limit)])
        m = re.search(r"needs an estimated .* \((\d+) bytes\)", err)
        if rc == 0 or not m:
            break
        limit = int(m[1])
    return limit


cases = [
    ("paper16 run: the process", ["run", CFG, "-f", "summary"]),
    ("1 spine x 6000 leaves: routing tables", ["run", one_spine("ls6000", 6000), "-f", "summary"]),
    ("k = 16 fat-tree, all-to-all: flows and flow model",
     ["run", write("a2a.toml", '[fabric]\nkind = "fat-tree"\nk = 16\n\n[workload]\ncollective = "alltoall"\n'
                              'nodes = 512\n'), "-f", "summary"]),
    ("paper16 sweep of 2,000,000 seeds: rows", ["sweep", CFG, "--seeds", "0:2000000", "--no-slowdown", "-f", "csv",
                                                 "--out", os.path.join(tmp, "s.csv"), "--no-checkpoint"]),
]
for name, args in cases:
    est = estimate(args)
    rc, err, peak = run(args, timeout=600)
    if rc != 0:
        fail(f"{name}: exit {rc}: {err}")
    ratio = est / peak
    print(f"memory_checks: {name}: estimate {est / MIB:.1f} MiB, peak RSS {peak / MIB:.1f} MiB, ratio {ratio:.2f}")
    if not 0.5 <= ratio <= 2:
        fail(f"{name}: the estimate is off by more than a factor of 2")
print("memory_checks: ok")
