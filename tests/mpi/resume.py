#!/usr/bin/env python3
"""MPI kill and resume (issue 35, items 1 and 6): a 2-rank sweep with
--checkpoint has one of its ranks SIGKILLed at a random moment (mpirun then
ends the job); it is resumed from the rank files at the same rank count, at
another (3 ranks, itself killed and resumed again) and in one process, and
each final output must be the bytes of the uninterrupted single-process run.
Negative control: one row of a rank file changed (its checksum recomputed)
must change the resumed output, so the comparison sees the checkpoint's rows
(a resume that ignored them and recomputed everything would pass the rest).
A missing rank file and another sweep's files are refused in one line, exit 2.

Usage: resume.py MPIEXEC ECMPSIM   (from the source tree)
Env: ECMPSIM_MPI_RESUME_SEED (the random kills' seed; default: the time)."""
import os
import random
import signal
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checkpoint_file import Checkpoint, rows_held  # noqa: E402  (its checksums by xxh64.py, checked on import)

MPIEXEC, BIN = sys.argv[1], os.path.realpath(sys.argv[2])
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
# xxh3 spreads the metrics over seeds (paper16's CRC leaves them flat), so a wrong row shows.
SWEEP = ["sweep", "configs/paper16.toml", "--algos", "xxh3", "--seeds",
         os.environ.get("ECMPSIM_MPI_RESUME_SEEDS", "0:30000"), "-f", "csv", "-j", "1"]
seed = int(os.environ.get("ECMPSIM_MPI_RESUME_SEED", str(int(time.time()))))
rng = random.Random(seed)
tmp = tempfile.mkdtemp()
CK, OUT = os.path.join(tmp, "ck"), os.path.join(tmp, "out.csv")
LOGS = tempfile.mkdtemp()  # mpirun's stderr, apart from the rank files
HUNG = []  # the rank counts of kills after which mpirun had to be killed


def fail(msg):
    print("mpi resume (seed %d): %s" % (seed, msg), file=sys.stderr)
    sys.exit(1)


def mpirun(np, extra):
    return [MPIEXEC, "-q", "--oversubscribe", "-np", str(np), BIN] + SWEEP + extra


def run(args):
    p = subprocess.run(args, capture_output=True, timeout=300, env=ENV)
    return p.returncode, p.stdout, p.stderr.decode(errors="replace")


def rank_files():
    return sorted(f for f in os.listdir(tmp) if f.startswith("ck.rank-"))


def held():
    """Variants the rank files hold, counted from their whole records (overlaps counted twice)."""
    return sum(rows_held(os.path.join(tmp, f)) for f in rank_files())


def kill_session(p):
    """SIGKILLs mpirun and every process of its session (Open MPI gives each rank its own process group)."""
    pids = subprocess.run(["ps", "-o", "pid=", "-s", str(p.pid)], capture_output=True, text=True).stdout.split()
    for pid in pids:
        try:
            os.kill(int(pid), signal.SIGKILL)
        except ProcessLookupError:
            pass
    p.wait()


def killed_run(np, extra, length, window=0.6):
    """Starts an np-rank sweep and SIGKILLs one rank at a random moment after
    every rank's first file is written, within `window` x `length` of it. Returns the rank killed, or None when
    the sweep finished first (its output is then removed). mpirun should end
    the job (it SIGTERMs, then SIGKILLs, the other ranks); Open MPI 4.1's
    runtime has been seen not to, once in many CI runs, with mpirun itself
    waiting: after 30 s the job is killed whole and the case is counted in
    HUNG, with what each process was doing printed, because the rank files
    it leaves are what the resume below is about."""
    log = open(os.path.join(LOGS, "mpirun-%d.log" % len(os.listdir(LOGS))), "w+")
    p = subprocess.Popen(mpirun(np, extra + ["--checkpoint-every", "0.05", "--out", OUT]), env=ENV,
                         stdout=subprocess.DEVNULL, stderr=log, start_new_session=True)
    deadline = time.monotonic() + 60
    while len([f for f in rank_files() if f.endswith("-of-%d" % np)]) < np and p.poll() is None:
        if time.monotonic() > deadline:
            kill_session(p)
            fail("-np %d wrote no rank files in 60 s" % np)
        time.sleep(0.005)
    time.sleep(rng.uniform(min(0.1, window * length / 2), window * length))
    ranks = subprocess.run(["ps", "-o", "pid=", "--ppid", str(p.pid)], capture_output=True, text=True).stdout.split()
    victim = rng.randrange(len(ranks)) if ranks and p.poll() is None else None
    if victim is not None:
        try:
            os.kill(int(ranks[victim]), signal.SIGKILL)
        except ProcessLookupError:  # it ended between ps and the kill: the sweep was finishing
            victim = None
    try:
        p.wait(timeout=30)
    except subprocess.TimeoutExpired:
        ps = subprocess.run(["ps", "-o", "pid,ppid,stat,wchan:24,etime,args", "-s", str(p.pid)],
                            capture_output=True, text=True).stdout
        log.seek(0)
        print("mpi resume (seed %d): note: -np %d mpirun had not ended 30 s after rank %d was SIGKILLed; "
              "killing the job. Its processes:\n%smpirun said:\n%s" % (seed, np, victim, ps, log.read()),
              file=sys.stderr)
        kill_session(p)
        HUNG.append(np)
    log.close()
    if os.path.exists(OUT):  # it finished before the kill: not an interruption
        os.remove(OUT)
        return None
    return victim


def resumed(np, label):
    args = mpirun(np, ["--resume", CK, "--out", OUT]) if np > 1 else [BIN] + SWEEP + ["--resume", CK, "--out", OUT]
    rc, _, err = run(args)
    if rc != 0:
        fail("%s: exit %d: %s" % (label, rc, err))
    with open(OUT, "rb") as f:
        got = f.read()
    os.remove(OUT)
    return got


def fresh_kill(label, length):
    """A sweep from nothing, killed midway. A run that finished before its
    kill (the machine got faster since `length` was measured) leaves whole
    rank files, which every later try would resume and finish at once: each
    try starts from nothing again, with the kill window halved."""
    for attempt in range(6):
        for f in os.listdir(tmp):  # the rank files, and the single-process checkpoint a resume in one process saved
            os.remove(os.path.join(tmp, f))
        if killed_run(2, ["--checkpoint", CK], length, 0.6 * 0.5 ** attempt) is not None:
            return held()
    fail("%s: the sweep finished before its kill six times, the last within %.3f s" % (label, 0.6 * 0.5 ** 5 * length))


rc, REF, err = run([BIN] + SWEEP)
if rc != 0:
    fail("the uninterrupted single-process sweep failed: " + err)
start = time.monotonic()
rc, out, err = run(mpirun(2, []))
length = time.monotonic() - start
if rc != 0 or out != REF:
    fail("the uninterrupted -np 2 sweep: exit %d, %s" % (rc, err or "other bytes than one process"))

# Killed at 2 ranks, resumed at 2.
h_same = fresh_kill("same count", length)
if resumed(2, "resumed at -np 2") != REF:
    fail("killed at -np 2, resumed at -np 2: bytes differ from the uninterrupted run")
# Killed at 2, resumed at 3 and killed again, resumed at 2.
h_other = fresh_kill("other count", length)
again = killed_run(3, ["--resume", CK], length)
if resumed(2, "resumed at -np 2 after -np 3") != REF:
    fail("killed at -np 2 and at -np 3, resumed at -np 2: bytes differ")
if any(not f.endswith("-of-2") for f in rank_files()):
    fail("a resumed -np 2 run left the files of another rank count: %s" % rank_files())
# Killed at 2, resumed in one process (the prefix of the rank files).
h_one = fresh_kill("one process", length)
if resumed(1, "resumed in one process") != REF:
    fail("killed at -np 2, resumed in one process: bytes differ")

# Negative control: a row of a rank file changed, its checksum made valid again.
def change_a_row():
    """The first rank file holding rows, with its first value changed; None if none holds any."""
    for f in rank_files():
        with open(os.path.join(tmp, f), "rb") as fh:
            c = Checkpoint(fh.read())
        if c.records:
            rows = c.records[0][3]
            value = struct.unpack_from("<d", rows, 0)[0]
            c.records[0][3] = struct.pack("<d", value + 0.125) + rows[8:]
            with open(os.path.join(tmp, f), "wb") as fh:
                fh.write(c.bytes())
            return f
    return None


# A kill before any rank saved a row leaves nothing to change: kill again.
victim = None
for _ in range(5):
    fresh_kill("control", length)
    victim = change_a_row()
    if victim is not None:
        break
if victim is None:
    fail("control: five killed runs' rank files held no rows")
if resumed(2, "control") == REF:
    fail("negative control: a changed row in %s gave the uninterrupted bytes" % victim)

# Refusals, on the control's files (whole again after its resume): another sweep's, then a lost one.
rc, out, err = run(mpirun(3, ["--resume", CK, "--qpn-base", "0:2"]))
if rc != 2 or err.count("\n") != 1 or "axis.qpn_base: the checkpoint is of another sweep" not in err or out:
    fail("another sweep's rank files: exit %d, said %r" % (rc, err))
# Rank 0's file holds what the control's resume carried over, which no other file holds now.
os.remove(CK + ".rank-0-of-2")
rc, out, err = run(mpirun(2, ["--resume", CK]))
if rc != 2 or err.count("\n") != 1 or "ck.rank-0-of-2: missing: no file for rank (shard) 0 of 2" not in err or out:
    fail("a lost rank file: exit %d, said %r" % (rc, err))
for f in os.listdir(tmp):
    os.remove(os.path.join(tmp, f))
os.rmdir(tmp)
for f in os.listdir(LOGS):
    os.remove(os.path.join(LOGS, f))
os.rmdir(LOGS)
print("mpi resume: -np 2 sweeps (%.2f s) with a rank SIGKILLed, holding %d, %d and %d variants, resumed at -np 2, "
      "at -np 3 (killed again: %s) then 2, and in one process: bytes identical; a changed row differs; a lost and a "
      "foreign rank file refused%s" % (length, h_same, h_other, h_one, "yes" if again is not None else "finished first",
                                   "; mpirun killed after hanging at -np %s" % HUNG if HUNG else ""))
