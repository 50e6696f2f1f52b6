#!/usr/bin/env python3
"""Kill and resume (issues 35, 47): sweeps SIGKILLed at random moments, some
aimed at the moment a checkpoint is created or added to, each resumed with
--resume until it finishes, must write the bytes of the uninterrupted run,
over thread counts 1-3 and any number of kills; no temporary of a killed
creation survives the next run, and a record a kill cut short is dropped. A
checkpoint replayed twice (its rows merged twice, with valid checksums) must
FAIL the comparison: the negative control that the comparison sees double
counting. Corrupted headers, truncated and foreign checkpoints are refused in
one line with exit 2; a damaged or cut record is dropped, noted, and the
resume gives the same bytes.

Usage: resume_checks.py ECMPSIM   (from the source tree)
Env: ECMPSIM_KILLS (random kills in all, default 20)."""
import os
import random
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checkpoint_file import Checkpoint  # noqa: E402  (its checksums by xxh64.py, checked on import)

BIN = os.path.realpath(sys.argv[1])
CFG = "configs/paper16.toml"
# xxh3 spreads the metrics over seeds (paper16's CRC leaves them flat), so a
# wrong row shows in every format. The chains' sweep takes a fraction of a second.
SEEDS = os.environ.get("ECMPSIM_RESUME_SEEDS", "0:8000")
SMALL = "0:2000"  # the control's and the refusals' sweep: checkpoints the Python XXH64 reads quickly
KILLS = int(os.environ.get("ECMPSIM_KILLS", "20"))
rng = random.Random(int(os.environ.get("ECMPSIM_RESUME_SEED", str(int(time.time())))))
tmp = tempfile.mkdtemp()


def fail(msg):
    print("resume_checks: " + msg, file=sys.stderr)
    sys.exit(1)


def sweep_args(fmt, threads, extra, seeds=SEEDS):
    return [BIN, "sweep", CFG, "--algos", "xxh3", "--seeds", seeds, "-f", fmt, "-j", str(threads)] + extra


def run(args, timeout=300):
    p = subprocess.run(args, capture_output=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr.decode(errors="replace")


def temps(name):
    return [f for f in os.listdir(tmp) if f.startswith("." + name + ".") and len(f) == len(name) + 8]


# The uninterrupted runs, timed: kills land anywhere in a run's length.
ref = {}
start = time.monotonic()
for fmt in ("csv", "json"):
    rc, out, err = run(sweep_args(fmt, 2, []))
    if rc != 0:
        fail("the uninterrupted %s sweep failed: %s" % (fmt, err))
    ref[fmt] = out
length = (time.monotonic() - start) / 2


def kill_chain(fmt, kills, during_write):
    """One sweep killed `kills` times (while a checkpoint is written when
    `during_write`), resumed after each kill, then run to the end."""
    ck, out = os.path.join(tmp, "ck"), os.path.join(tmp, "out." + fmt)
    for f in (ck, out):
        if os.path.exists(f):
            os.remove(f)
    mid_write = 0
    for _ in range(kills):
        extra = ["--checkpoint-every", "0.02", "--out", out]
        extra += ["--resume", ck] if os.path.exists(ck) else ["--checkpoint", ck]
        p = subprocess.Popen(sweep_args(fmt, rng.choice([1, 2, 3]), extra), stderr=subprocess.DEVNULL)
        if during_write:  # the file created (its temporary), or added to (its size moves)
            deadline = time.monotonic() + 3 * length + 5
            size = os.path.getsize(ck) if os.path.exists(ck) else -1
            while p.poll() is None and time.monotonic() < deadline and not temps("ck") and (
                    (os.path.getsize(ck) if os.path.exists(ck) else -1) == size):
                time.sleep(0.0002)
        else:
            time.sleep(rng.uniform(0.02, 0.9 * length))
        p.send_signal(signal.SIGKILL)
        p.wait()
        if temps("ck"):
            mid_write += 1
        elif os.path.exists(ck):
            with open(ck, "rb") as f:
                mid_write += Checkpoint(f.read()).dropped > 0
        if os.path.exists(out):  # killed after it finished: start over from the checkpoint it left
            os.remove(out)
    extra = ["--out", out] + (["--resume", ck] if os.path.exists(ck) else ["--checkpoint", ck])
    rc, _, err = run(sweep_args(fmt, rng.choice([1, 2, 3]), extra))
    if rc != 0:
        fail("the resumed %s sweep failed: %s" % (fmt, err))
    with open(out, "rb") as f:
        if f.read() != ref[fmt]:
            fail("%s after %d kills differs from the uninterrupted run" % (fmt, kills))
    if temps("ck"):
        fail("a killed checkpoint write's temporary survived the next write: %s" % temps("ck"))
    return mid_write


done, mid_write, chain = 0, 0, 0
while done < KILLS:
    kills = min(KILLS - done, rng.randint(1, 6))
    mid_write += kill_chain("csv" if chain % 2 == 0 else "json", kills, during_write=False)
    done += kills
    chain += 1
targeted = max(2, KILLS // 6)
for attempt in range(3):  # a write lasts microseconds to milliseconds: the poll may miss it
    mid_write += kill_chain("csv", targeted, during_write=True)
    if mid_write > 0:
        break

# SIGTERM while the output itself is written (after the sweep): the temporary is removed, no output appears.
big = os.path.join(tmp, "big.csv")
p = subprocess.Popen([BIN, "sweep", CFG, "--seeds", os.environ.get("ECMPSIM_TEMP_SEEDS", "0:150000"), "-f", "csv",
                      "-j", "2", "--out", big], stderr=subprocess.DEVNULL)
deadline = time.monotonic() + 120
while not temps("big.csv") and p.poll() is None and time.monotonic() < deadline:
    time.sleep(0.0005)
caught = p.poll() is None
p.send_signal(signal.SIGTERM)
p.wait()
if caught and temps("big.csv"):
    fail("SIGTERM during the output's write left its temporary: %s" % temps("big.csv"))
if caught and p.returncode != -signal.SIGTERM:
    fail("SIGTERM during the output's write: exit %d, not death by the signal" % p.returncode)

# The small sweep's checkpoint, whole (an explicit --checkpoint is kept), and its first rows alone.
ck = os.path.join(tmp, "small.ck")
rc, small_ref, err = run(sweep_args("csv", 2, ["--checkpoint", ck], SMALL))
if rc != 0:
    fail("the small sweep failed: " + err)
with open(ck, "rb") as f:
    ckpt = f.read()
try:
    small = Checkpoint(ckpt)
except ValueError as e:
    fail("the checkpoint the sweep wrote: " + str(e))
width, total = small.width, small.rows()
rows = b"".join(r[3] for r in sorted(small.records))
if total != small_ref.count(b"\n") - 1 or small.dropped:
    fail("the whole checkpoint holds %d rows (%d bytes dropped), the CSV %d"
         % (total, small.dropped, small_ref.count(b"\n") - 1))
part = rng.randint(1, total // 2)


def with_records(records):
    c = Checkpoint(ckpt)
    c.records = records
    return c.bytes()


first = rows[:part * width * 8]
part_ck, twice_ck = os.path.join(tmp, "part.ck"), os.path.join(tmp, "twice.ck")
with open(part_ck, "wb") as f:
    f.write(with_records([[0, part, 0, first]]))
with open(twice_ck, "wb") as f:
    f.write(with_records([[0, 2 * part, 0, first + first]]))
rc, out, err = run(sweep_args("csv", 3, ["--resume", part_ck], SMALL))
if rc != 0 or out != small_ref:
    fail("resuming the first %d rows: exit %d, %s" % (part, rc, err or "other bytes"))
# Negative control: the same rows merged twice must fail the comparison.
rc, out, err = run(sweep_args("csv", 2, ["--resume", twice_ck], SMALL))
if rc != 0:
    fail("the doubled checkpoint was not even accepted (exit %d: %s): the control tests nothing" % (rc, err))
if out == small_ref:
    fail("negative control: a checkpoint replayed twice gave the uninterrupted bytes")

# SIGTERM saves the finished prefix, exits 143, and the resumed run writes the same bytes.
ck_term, out_term = os.path.join(tmp, "term.ck"), os.path.join(tmp, "term.json")
for attempt in range(5):  # signalled once its first save is on disk; a sweep that finished first is tried again
    if os.path.exists(ck_term):
        os.remove(ck_term)
    p = subprocess.Popen(sweep_args("json", 2, ["--checkpoint", ck_term, "--checkpoint-every", "0.02", "--out",
                                                out_term]), stderr=subprocess.DEVNULL)
    while not os.path.exists(ck_term) and p.poll() is None:
        time.sleep(0.0005)
    p.send_signal(signal.SIGTERM)
    if p.wait() == 143:
        break
    if p.returncode != 0:
        fail("SIGTERM: exit %d, not 143" % p.returncode)
else:
    fail("SIGTERM: the sweep finished before the signal five times")
rc, out, err = run(sweep_args("json", 1, ["--resume", ck_term]))
if rc != 0 or out != ref["json"]:
    fail("resuming after SIGTERM: exit %d, %s" % (rc, err or "other bytes"))


def refused(name, data, args, cause):
    path = os.path.join(tmp, name)
    with open(path, "wb") as f:
        f.write(data)
    rc, out, err = run(args + ["--resume", path])
    if rc != 2 or err.count("\n") != 1 or cause not in err or out:
        fail("%s: exit %d, said %r" % (name, rc, err))


def with_lines(lines):
    c = Checkpoint(ckpt)
    c.lines = lines
    return c.bytes()


base = sweep_args("csv", 2, [], SMALL)
head = ckpt.index(b"\n\n")
refused("corrupt.ck", ckpt[:head - 3] + bytes([ckpt[head - 3] ^ 1]) + ckpt[head - 2:], base,
        "corrupted checkpoint: its header does not match its checksum")
refused("truncated.ck", ckpt[:head // 2], base, "truncated or not a checkpoint")
refused("empty.ck", b"", base, "truncated or not a checkpoint")
# A record damaged (a byte of its rows) or cut short: dropped with all after it, noted; the rest resumes.
mid = (head + len(ckpt)) // 2
for name, data in (("flipped.ck", ckpt[:mid] + bytes([ckpt[mid] ^ 1]) + ckpt[mid + 1:]), ("cut.ck", ckpt[:mid])):
    path = os.path.join(tmp, name)
    with open(path, "wb") as f:
        f.write(data)
    rc, out, err = run(base + ["--resume", path])
    if rc != 0 or out != small_ref or "a save cut short, were dropped; their variants are evaluated again" not in err:
        fail("%s: exit %d, said %r" % (name, rc, err))
lines = small.lines
refused("version.ck", with_lines([b"version 0.0.0-other" if l.startswith(b"version ") else l for l in lines]), base,
        "version: the checkpoint is of another sweep: its version is '0.0.0-other'")
refused("axes.ck", ckpt, base + ["--qpn-base", "0:2"],
        "axis.qpn_base: the checkpoint is of another sweep: its axis.qpn_base is 'none', this sweep's '0:2'")
other_cfg = os.path.join(tmp, "other.toml")
with open(CFG) as src, open(other_cfg, "w") as dst:
    dst.write(src.read() + "\n# one more line\n")
refused("config.ck", ckpt, [BIN, "sweep", other_cfg, "--algos", "xxh3", "--seeds", SMALL, "-f", "csv"],
        "config: the checkpoint is of another sweep: its config is 'xxh64:")
print("resume_checks: %d random kills and %d aimed at writes (%d landed mid-write: a temporary or a cut record left; "
      "cut records are also made by hand below) over a %.2f s sweep: bytes "
      "identical; %d rows replayed twice differ; damaged records dropped, corrupted headers and foreign checkpoints "
      "refused; SIGTERM %s"
      % (KILLS, targeted, mid_write, length, part,
         "during the output's write removed its temporary" if caught else "missed the output's write (not checked)"))
