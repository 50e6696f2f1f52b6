#!/usr/bin/env python3
"""What a killed MPI rank loses (issue 35, docs/sweeps.md "MPI checkpoints"):
a 2-rank sweep with --checkpoint (default interval, 5 s) has rank 1
SIGKILLed at half the uninterrupted run's wall time; the rank files then hold
`held` variants, and the run is resumed at 2 ranks. Prints the uninterrupted
time, the kill moment, what the files held, the work lost in seconds of the
uninterrupted rate, the resumed run's time and whether its bytes are the
uninterrupted run's. Too long for CTest (about three times the sweep).

Usage: bench/mpi_kill_resume.py MPIEXEC ECMPSIM_MPI [SEEDS]   (from the source tree)"""
import os
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "support"))
from checkpoint_file import rows_held  # noqa: E402

mpiexec, binary = sys.argv[1], os.path.realpath(sys.argv[2])
seeds = sys.argv[3] if len(sys.argv) > 3 else "0:1000000"
env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
tmp = tempfile.mkdtemp()
ck = os.path.join(tmp, "ck")
total = int(seeds.split(":")[1]) - int(seeds.split(":")[0])


def sweep(extra):
    return [mpiexec, "-q", "--oversubscribe", "-np", "2", binary, "sweep", "configs/paper16.toml", "--algos", "xxh3",
            "--seeds", seeds, "-f", "json", "-j", "1"] + extra


start = time.monotonic()
full = subprocess.run(sweep([]), capture_output=True, env=env, check=True).stdout
t_full = time.monotonic() - start

start = time.monotonic()
p = subprocess.Popen(sweep(["--checkpoint", ck]), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
time.sleep(t_full / 2)
t_kill = time.monotonic() - start
ranks = subprocess.run(["ps", "-o", "pid=", "--ppid", str(p.pid)], capture_output=True, text=True).stdout.split()
os.kill(int(ranks[1]), signal.SIGKILL)
p.wait()
t_killed = time.monotonic() - start
held = sum(rows_held(os.path.join(tmp, f)) for f in os.listdir(tmp))

start = time.monotonic()
resumed = subprocess.run(sweep(["--resume", ck]), capture_output=True, env=env, check=True).stdout
t_resume = time.monotonic() - start
rate = total / t_full
print("uninterrupted %.1f s (%.0f variants/s with start-up); rank 1 killed at %.1f s (mpirun ended at %.1f s); "
      "the files held %d variants, %.1f s of work short of %.0f done at the kill's moment; resumed in %.1f s; "
      "%.1f s in all against %.1f s; bytes %s"
      % (t_full, rate, t_kill, t_killed, held, (rate * t_kill - held) / rate, rate * t_kill, t_resume,
         t_killed + t_resume, t_full, "identical" if resumed == full else "DIFFER"))
for f in os.listdir(tmp):
    os.remove(os.path.join(tmp, f))
os.rmdir(tmp)
