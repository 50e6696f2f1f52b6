#!/usr/bin/env python3
"""Sweeps on a job scheduler (issue 47 item 6): `sweep --shard I/N` runs one
shard and saves it as BASE.rank-I-of-N; `sweep --resume BASE` merges the
shards into the output of one process, byte for byte.

- 3 shards (--shard I/3, and --shard slurm with Slurm's array variables,
  task ids from 1) merged by --resume: table, JSON and CSV identical to one
  process's.
- A shard SIGKILLed and started again verbatim (a requeued task) goes on from
  its file; a merge with an extra, overlapping, half-done shard of another
  count is still identical.
- A missing shard is refused in one line naming the shard and the variants
  no file holds; an unfinished one is evaluated by the merge.
- Negative control: one row of a shard's file changed (its record's checksum
  recomputed) makes the merged output differ, so the comparison sees the
  shards' rows.
- A shard whose filesystem fills up during its run (a private tmpfs, as
  root) fails with exit 2 rather than reporting its variants saved; the
  control, the same shard on a larger tmpfs, exits 0.

Usage: shard_checks.py ECMPSIM   (from the source tree)"""
import os
import random
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checkpoint_file import Checkpoint, rows_held  # noqa: E402  (checksums by xxh64.py, checked on import)

BIN = os.path.realpath(sys.argv[1])
CFG = "configs/paper16.toml"
SEEDS = os.environ.get("ECMPSIM_SHARD_SEEDS", "0:6000")
SEED = int(os.environ.get("ECMPSIM_SHARD_SEED", str(int(time.time()))))
rng = random.Random(SEED)
tmp = tempfile.mkdtemp()
base = os.path.join(tmp, "ck")
notes = []


def fail(msg):
    print("shard_checks: %s (ECMPSIM_SHARD_SEED=%d)" % (msg, SEED), file=sys.stderr)
    sys.exit(1)


def sweep(extra, fmt="json"):
    return [BIN, "sweep", CFG, "--algos", "xxh3", "--qps", "1,2", "--seeds", SEEDS, "-f", fmt, "-j", "2"] + extra


def run(args, env=None, timeout=300):
    p = subprocess.run(args, capture_output=True, timeout=timeout, env=env)
    return p.returncode, p.stdout, p.stderr.decode(errors="replace")


def clean():
    for f in os.listdir(tmp):
        os.remove(os.path.join(tmp, f))


def shard(i, n, extra=()):
    rc, out, err = run(sweep(["--shard", "%d/%d" % (i, n), "--checkpoint", base] + list(extra)))
    if rc != 0 or out or "shard %d of %d: " % (i, n) not in err:
        fail("shard %d/%d: exit %d, said %r" % (i, n, rc, err))


def merged(fmt):
    rc, out, err = run(sweep(["--resume", base], fmt))
    if rc != 0:
        fail("merging the shards (%s): exit %d, %s" % (fmt, rc, err))
    return out


ref = {}
for fmt in ("table", "json", "csv"):
    rc, ref[fmt], err = run(sweep([], fmt))
    if rc != 0:
        fail("the one-process sweep failed: " + err)
start = time.monotonic()
run(sweep([], "csv"))
length = time.monotonic() - start

# Three shards, merged: the bytes of one process, in every format.
for i in range(3):
    shard(i, 3)
for fmt in ("table", "json", "csv"):
    if merged(fmt) != ref[fmt]:
        fail("3 shards merged differ from one process (%s)" % fmt)

# --shard slurm: tasks 1..3 of an array (sbatch --array=1-3) are shards 0..2 of 3, the same files.
clean()
for task in (1, 2, 3):
    env = dict(os.environ, SLURM_ARRAY_TASK_ID=str(task), SLURM_ARRAY_TASK_COUNT="3", SLURM_ARRAY_TASK_MIN="1",
               SLURM_ARRAY_TASK_MAX="3", SLURM_ARRAY_TASK_STEP="1")
    rc, out, err = run(sweep(["--shard", "slurm", "--checkpoint", base]), env=env)
    if rc != 0 or "ck.rank-%d-of-3" % (task - 1) not in err:
        fail("--shard slurm, task %d: exit %d, said %r" % (task, rc, err))
if merged("json") != ref["json"]:
    fail("3 Slurm array tasks merged differ from one process")

# A shard SIGKILLed midway and started again goes on from its file: the
# requeued task evaluates exactly what the file did not hold.
def killed_shard(i, n, fraction):
    """Shard i/n started afresh and SIGKILLed at about `fraction` of the sweep's
    length, sooner each time it finished first, later each time it had saved
    nothing yet (up to 8 tries): the rows its file holds, some but not all."""
    path = "%s.rank-%d-of-%d" % (base, i, n)
    for _ in range(8):
        if os.path.exists(path):
            os.remove(path)
        p = subprocess.Popen(sweep(["--shard", "%d/%d" % (i, n), "--checkpoint", base, "--checkpoint-every", "0.02"]),
                             stderr=subprocess.DEVNULL)
        time.sleep(fraction * length)
        p.send_signal(signal.SIGKILL)
        p.wait()
        held = rows_held(path)
        if p.returncode == -signal.SIGKILL and held > 0:
            return held
        fraction = fraction * 2 if p.returncode == -signal.SIGKILL else fraction / 2
    fail("shard %d/%d: none of 8 kills came after its first save and before its end" % (i, n))


held = killed_shard(1, 3, rng.uniform(0.05, 0.3))
rc, out, err = run(sweep(["--shard", "1/3", "--checkpoint", base]))
said = re.search(r"shard 1 of 3: (\d+) of (\d+) variants saved in \S+ \((\d+) evaluated now\)", err)
if rc != 0 or not said or said.group(1) != said.group(2) or int(said.group(3)) != int(said.group(2)) - held:
    fail("the requeued shard, whose file held %d variants: exit %d, said %r" % (held, rc, err))
if merged("json") != ref["json"]:
    fail("3 shards, one killed after saving %d variants and requeued, merged differ from one process" % held)
notes.append("a shard killed holding %d of %s variants and requeued evaluated %s" % (held, said.group(2), said.group(3)))

# An extra, half-done shard of another count overlaps the others: the merge is the same.
killed_shard(0, 2, 0.3)
if merged("csv") != ref["csv"]:
    fail("shards of 3 with a half-done shard of 2 merged differ from one process")
for f in os.listdir(tmp):
    if ".rank-" in f and f.endswith("-of-2"):
        os.remove(os.path.join(tmp, f))

# A missing shard is refused, naming it and the variants no file holds.
os.rename(base + ".rank-1-of-3", base + ".away")
rc, out, err = run(sweep(["--resume", base, "--out", os.path.join(tmp, "out.json")]))
if (rc != 2 or err.count("\n") != 1 or out or "ck.rank-1-of-3: missing: no file for rank (shard) 1 of 3" not in err
        or "variants are in no file: " not in err or os.path.exists(os.path.join(tmp, "out.json"))):
    fail("a missing shard: exit %d, said %r" % (rc, err))
os.rename(base + ".away", base + ".rank-1-of-3")

# An unfinished shard (killed, not requeued): the merge evaluates the rest and says how much it found.
killed_shard(2, 3, 0.15)
rc, out, err = run(sweep(["--resume", base]))
if rc != 0 or out != ref["json"] or "resuming from " + base not in err:
    fail("merging an unfinished shard: exit %d, said %r" % (rc, err))
notes.append(err.strip().split("\n")[0].replace(tmp + "/", ""))

# Negative control: one row of a shard's file changed (its record's checksum recomputed).
path = base + ".rank-0-of-3"
with open(path, "rb") as f:
    c = Checkpoint(f.read())
rows = c.records[0][3]
c.records[0][3] = struct.pack("<d", struct.unpack_from("<d", rows, 0)[0] + 1.0) + rows[8:]
with open(path, "wb") as f:
    f.write(c.bytes())
if merged("csv") == ref["csv"]:
    fail("negative control: a changed row in a shard's file gave the one-process bytes")

# A shard's rank file is its only output: one whose filesystem fills up during
# the run fails (exit 2, naming the file and what was not saved) rather than
# claiming its variants saved with exit 0. Run as root in a private mount
# namespace over a small tmpfs; the control, the same shard on a larger one,
# saves everything and exits 0.
def shard_in_tmpfs(size, i, n):
    mnt = os.path.join(tmp, "fs")
    os.makedirs(mnt, exist_ok=True)
    args = sweep(["--shard", "%d/%d" % (i, n), "--checkpoint", os.path.join(mnt, "ck"), "--checkpoint-every", "0.02"])
    script = 'mount -t tmpfs -o size=%s tmpfs "$0" || exit 99; "$@"; rc=$?; ls -l "$0" >&2; exit $rc' % size
    p = subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c", script, mnt] + args,
                       capture_output=True, timeout=300)
    return p.returncode, p.stderr.decode(errors="replace")


probe = subprocess.run(["unshare", "--mount", "sh", "-c", "mount -t tmpfs -o size=4k tmpfs /mnt"], capture_output=True)
if probe.returncode == 0:
    rc, err = shard_in_tmpfs("24k", 0, 3)
    if rc != 2 or "No space left on device" not in err or "were not all saved: run the same command again" not in err \
            or "variants saved in" in err:
        fail("a shard whose filesystem filled up: exit %d, said %r" % (rc, err))
    rc, err = shard_in_tmpfs("4m", 0, 3)
    if rc != 0 or "variants saved in" not in err or "warning" in err:
        fail("control: the same shard on a large enough tmpfs: exit %d, said %r" % (rc, err))
    notes.append("a shard whose filesystem filled up failed (exit 2), the control on a larger one saved all")
else:
    notes.append("no tmpfs (not root): the full-filesystem shard was not run")

shutil.rmtree(tmp)
print("shard_checks: 3 shards (I/N and Slurm array tasks 1-3) merged byte-identical in table, JSON and CSV; "
      "an overlapping half shard of 2; a missing shard refused; %s; a changed row differs" % "; ".join(notes))
