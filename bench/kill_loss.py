#!/usr/bin/env python3
"""What a kill loses, end to end (issue 47 item 3: at most max(5 s, 10%) of
the work done), and what the default checkpoint costs (at most 2%).

A paper16 xxh3 seed sweep written with --out (so checkpointed by default to
OUT.checkpoint, every 5 s). First its saves are watched: the checkpoint's size
polled every 10 ms through a whole run; a kill just before a save loses the
work since the one before (or since the start), so the longest such stretch,
against max(5 s, 10% of the time at its end), is the worst a kill can do.
Then it is SIGKILLed at KILLS moments spread over its length; each time, the variants its checkpoint holds are read (whole records
only, as the resume reads them) and compared with what the sweep had done by
then, at the rate of the uninterrupted runs measured around it: lost =
kill time - saved / rate (start-up included in the rate, so a kill before the
first variant loses nothing it could have kept). Then the same sweep with the
default checkpoint against --no-checkpoint, alternated REPEATS times, wall and
CPU (the children's rusage).

Usage: bench/kill_loss.py ECMPSIM [SEEDS [KILLS [REPEATS]]]   (from the source tree)"""
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "support"))
from checkpoint_file import rows_held  # noqa: E402

BIN = os.path.realpath(sys.argv[1])
SEEDS = int(sys.argv[2]) if len(sys.argv) > 2 else 1000000
KILLS = int(sys.argv[3]) if len(sys.argv) > 3 else 8
REPEATS = int(sys.argv[4]) if len(sys.argv) > 4 else 3
tmp = tempfile.mkdtemp()
out = os.path.join(tmp, "out.csv")


def sweep(extra):
    return [BIN, "sweep", "configs/paper16.toml", "--algos", "xxh3", "--seeds", "0:%d" % SEEDS, "-f", "csv", "-j", "2",
            "--out", out] + extra


def timed(extra):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    subprocess.run(sweep(extra), check=True, stderr=subprocess.DEVNULL)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def load():
    return open("/proc/loadavg").read().split()[0]


print("load average %s; %d seeds" % (load(), SEEDS))
ref_wall, _ = timed(["--no-checkpoint"])
print("uninterrupted: %.2f s (%.0f variants/s)" % (ref_wall, SEEDS / ref_wall))

def timeline():
    """The moments (s from the start) the default checkpoint grew, and the run's end."""
    ck = out + ".checkpoint"
    start = time.monotonic()
    p = subprocess.Popen(sweep([]), stderr=subprocess.DEVNULL)
    size, grew = 0, []
    while p.poll() is None:
        now = os.stat(ck).st_size if os.path.exists(ck) else 0
        if now > size:
            grew.append(time.monotonic() - start)
        size = max(size, now)
        time.sleep(0.01)
    return grew, time.monotonic() - start


grew, end = timeline()
stretches = [(b - a, b) for a, b in zip([0.0] + grew, grew)]
worst_gap, at_gap = max(stretches)
worst_ratio = max(gap / max(5.0, 0.1 * t) for gap, t in stretches)
print("watched: %d saves over %.2f s (the first at %.2f s, the last at %.2f s); the longest stretch without one "
      "%.2f s, ending at %.2f s (bound there %.2f s); worst stretch %.0f%% of its bound"
      % (len(grew), end, grew[0], grew[-1], worst_gap, at_gap, max(5.0, 0.1 * at_gap), 100 * worst_ratio))
worst = 0.0
for k in range(KILLS):
    at = ref_wall * (0.1 + 0.85 * k / max(1, KILLS - 1))
    if os.path.exists(out + ".checkpoint"):
        os.remove(out + ".checkpoint")
    p = subprocess.Popen(sweep([]), stderr=subprocess.DEVNULL)
    time.sleep(at)
    if p.poll() is not None:
        # The machine got faster than the rate measured: the default checkpoint
        # is gone with the output written, and nothing was lost.
        print("kill at %6.2f s: the sweep had finished (exit %d): nothing to lose" % (at, p.returncode))
        timed(["--no-checkpoint"])
        continue
    p.send_signal(signal.SIGKILL)
    p.wait()
    held = rows_held(out + ".checkpoint")
    wall, _ = timed(["--no-checkpoint"])  # the rate around this kill
    rate = SEEDS / ((ref_wall + wall) / 2)
    lost = max(0.0, at - held / rate)
    bound = max(5.0, 0.1 * at)
    worst = max(worst, lost / bound)
    print("kill at %6.2f s: %8d variants saved, %6.2f s of work lost (bound %.2f s)%s"
          % (at, held, lost, bound, "" if lost <= bound else "  OVER"))
    ref_wall = wall
print("worst loss: %.0f%% of its bound" % (100 * worst))
rows = {"default checkpoint": [], "--no-checkpoint": []}
for _ in range(REPEATS):
    for name, extra in (("default checkpoint", []), ("--no-checkpoint", ["--no-checkpoint"])):
        # A checkpoint the last kill left would be resumed: each run starts from nothing.
        if os.path.exists(out + ".checkpoint"):
            os.remove(out + ".checkpoint")
        rows[name].append(timed(extra))
for name, runs in rows.items():
    walls = sorted(w for w, _ in runs)
    cpus = sorted(c for _, c in runs)
    print("%-20s wall %s s, CPU %s s" % (name, " ".join("%.2f" % w for w in walls), " ".join("%.2f" % c for c in cpus)))
med = {n: (sorted(w for w, _ in r)[len(r) // 2], sorted(c for _, c in r)[len(r) // 2]) for n, r in rows.items()}
print("median overhead: wall %+.2f%%, CPU %+.2f%%; load average %s"
      % (100 * (med["default checkpoint"][0] / med["--no-checkpoint"][0] - 1),
         100 * (med["default checkpoint"][1] / med["--no-checkpoint"][1] - 1), load()))
shutil.rmtree(tmp)
