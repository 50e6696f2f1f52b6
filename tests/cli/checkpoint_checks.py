#!/usr/bin/env python3
"""One sweep command that is safe to run again (issue 47 items 2 and 3).

- D3: the same command line with --checkpoint FILE, SIGKILLed at random
  moments and started again verbatim, never loses saved variants (the file's
  rows never shrink across a restart) and finishes with the bytes of the
  uninterrupted run; so does a command with only --out (its default
  checkpoint OUT.checkpoint), whose checkpoint is gone once the output is
  written.
- A checkpoint of another sweep is refused in one line naming the axis or the
  input that differs, and stays byte-identical; so is another build's.
- D4: a checkpoint that cannot be written is refused before the work (a
  missing directory; a read-only and a full filesystem, each a private tmpfs
  when this runs as root); one whose filesystem fills up during the sweep
  warns once and the sweep still writes its whole output, exit 0.

Usage: checkpoint_checks.py ECMPSIM   (from the source tree)"""
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checkpoint_file import Checkpoint, rows_held  # noqa: E402  (checksums by xxh64.py, checked on import)

BIN = os.path.realpath(sys.argv[1])
CFG = "configs/paper16.toml"
SEEDS = os.environ.get("ECMPSIM_CHECKPOINT_SEEDS", "0:8000")
TOTAL = int(SEEDS.split(":")[1]) - int(SEEDS.split(":")[0])
SEED = int(os.environ.get("ECMPSIM_CHECKPOINT_SEED", str(int(time.time()))))
rng = random.Random(SEED)
tmp = tempfile.mkdtemp()
notes = []


def fail(msg):
    print("checkpoint_checks: %s (ECMPSIM_CHECKPOINT_SEED=%d)" % (msg, SEED), file=sys.stderr)
    sys.exit(1)


def sweep(extra, seeds=SEEDS, fmt="csv", threads=2):
    return [BIN, "sweep", CFG, "--algos", "xxh3", "--seeds", seeds, "-f", fmt, "-j", str(threads)] + extra


def run(args, timeout=300):
    p = subprocess.run(args, capture_output=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr.decode(errors="replace")


def with_header(data, old, new):
    """A checkpoint with `old` replaced by `new` in its header, its checksums recomputed."""
    c = Checkpoint(data)
    c.lines = [l.replace(old, new, 1) for l in c.lines]
    return c.bytes()


rc, ref, err = run(sweep([]))
if rc != 0:
    fail("the uninterrupted sweep failed: " + err)
start = time.monotonic()
run(sweep([]))
length = time.monotonic() - start


def restarts(extra, out, ck, kills):
    """The command `extra` started at least `kills` times, SIGKILLed at random,
    then run to the end. A run the kill came too late for (the machine's load
    fell since `length` was measured) finished: its output is removed and the
    next kill comes sooner; at least one kill must land after a save and
    before the end, else the check of the rows held would be vacuous."""
    before, window, partial, started = 0, 0.9 * length, 0, 0
    while started < kills or (partial == 0 and started < 4 * kills):
        started += 1
        p = subprocess.Popen(sweep(extra + ["--checkpoint-every", "0.02"]), stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.02, window))
        p.send_signal(signal.SIGKILL)
        p.wait()
        now = rows_held(ck)
        if os.path.exists(out):
            # It finished first: its output must be the uninterrupted run's. Every later
            # run would resume --checkpoint FILE's whole rows and finish at once, so the
            # chain starts again from nothing (a default checkpoint is gone with the output
            # written, checked below), and the next kill comes sooner.
            with open(out, "rb") as f:
                if f.read() != ref:
                    fail("%s, finished after %d kills, differs from the uninterrupted run" % (" ".join(extra), started))
            os.remove(out)
            if os.path.exists(ck):
                os.remove(ck)
            window = max(0.05, window / 2)
            before = 0
            continue
        if now < before:
            fail("a restart of %s lost saved variants: %d, then %d" % (" ".join(extra), before, now))
        partial += 0 < now < TOTAL
        before = now
    if partial == 0:
        fail("none of %d kills of %s came after a save and before the end" % (started, " ".join(extra)))
    rc, _, err = run(sweep(extra + ["--checkpoint-every", "0.02"]))
    if rc != 0:
        fail("the restarted %s failed: %s" % (" ".join(extra), err))
    with open(out, "rb") as f:
        if f.read() != ref:
            fail("%s, restarted after %d kills, differs from the uninterrupted run" % (" ".join(extra), started))
    return before, partial, started


# D3: the same command again, with --checkpoint FILE (kept) and with --out alone (its default checkpoint).
out, ck = os.path.join(tmp, "out.csv"), os.path.join(tmp, "ck")
held, partial, started = restarts(["--out", out, "--checkpoint", ck], out, ck, 6)
if not os.path.exists(ck) or rows_held(ck) != TOTAL:
    fail("--checkpoint FILE is kept whole after the output: %d variants" % rows_held(ck))
os.remove(out)
held_default, partial_default, started_default = restarts(["--out", out], out, out + ".checkpoint", 6)
if os.path.exists(out + ".checkpoint"):
    fail("the default checkpoint outlived the output it was resuming")
notes.append("restarted verbatim %d + %d times, %d + %d kills between a save and the end (last held %d and %d "
             "variants)" % (started, started_default, partial, partial_default, held, held_default))

# Resumed from a checkpoint, a run says so on stderr and its output is the same.
rc, out_b, err = run(sweep(["--checkpoint", ck]))
if rc != 0 or out_b != ref or "resuming from %s: %d of %d variants done" % (ck, TOTAL, TOTAL) not in err:
    fail("resuming a whole checkpoint: exit %d, %s" % (rc, err))

# Another sweep's checkpoint is refused naming the axis, and stays as it was.
with open(ck, "rb") as f:
    before = f.read()
for seeds, extra, cause in [("0:1000", [], "axis.seeds: the checkpoint is of another sweep: its axis.seeds is "
                                           "'%s', this sweep's '0:1000'" % SEEDS),
                            (SEEDS, ["--qpn-base", "0:2"], "axis.qpn_base: the checkpoint is of another sweep: its "
                                                           "axis.qpn_base is 'none', this sweep's '0:2'")]:
    rc, out_b, err = run(sweep(extra + ["--checkpoint", ck], seeds=seeds))
    if rc != 2 or err.count("\n") != 1 or cause not in err or "never replaced" not in err or out_b:
        fail("another sweep's checkpoint: exit %d, said %r" % (rc, err))
    with open(ck, "rb") as f:
        if f.read() != before:
            fail("another sweep's checkpoint was changed")
other_cfg = os.path.join(tmp, "other.toml")
with open(CFG) as src, open(other_cfg, "w") as dst:
    dst.write(src.read() + "\n# one more line\n")
rc, _, err = run([BIN, "sweep", other_cfg, "--algos", "xxh3", "--seeds", SEEDS, "--checkpoint", ck])
if rc != 2 or "config: the checkpoint is of another sweep: its config is 'xxh64:" not in err:
    fail("another config's checkpoint: exit %d, said %r" % (rc, err))
other_build = os.path.join(tmp, "build.ck")
with open(other_build, "wb") as f:
    f.write(with_header(before, b"build ", b"build x"))
rc, _, err = run(sweep(["--checkpoint", other_build]))
if rc != 2 or "build: the checkpoint is of another sweep: its build is 'x" not in err:
    fail("another build's checkpoint: exit %d, said %r" % (rc, err))

# D4: a checkpoint that cannot be written fails before the work.
start = time.monotonic()
rc, out_b, err = run(sweep(["--checkpoint", os.path.join(tmp, "no", "ck")], seeds="0:100000000", fmt="csv") +
                     ["--force"])
if rc != 2 or "cannot create a file in " + os.path.join(tmp, "no") not in err or time.monotonic() - start > 20:
    fail("a checkpoint in a missing directory: exit %d after %.1f s, said %r" % (rc, time.monotonic() - start, err))


def in_tmpfs(options, fill, args):
    """`args` run in a private mount namespace over a tmpfs mounted at tmp/fs, filled with `fill` bytes first."""
    mnt = os.path.join(tmp, "fs")
    os.makedirs(mnt, exist_ok=True)
    script = ('mount -t tmpfs -o %s tmpfs "$0" || exit 99; ' % options +
              ('head -c %d /dev/zero > "$0/fill" 2>/dev/null; ' % fill if fill else "") +
              ('mount -o remount,ro "$0"; ' if "ro" in options.split(",") else "") + 'exec "$@"')
    p = subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c", script, mnt] + args,
                       capture_output=True, timeout=300)
    return p.returncode, p.stdout, p.stderr.decode(errors="replace")


probe = subprocess.run(["unshare", "--mount", "sh", "-c", "mount -t tmpfs -o size=4k tmpfs /mnt"], capture_output=True)
if probe.returncode == 0:
    ck_fs = os.path.join(tmp, "fs", "ck")
    big = sweep(["--checkpoint", ck_fs], seeds="0:100000000") + ["--force"]
    for options, fill, causes in [("size=64k,ro", 0, ["Read-only file system"]),
                                  ("size=64k", 64 * 1024, ["No space left on device", "no space for a first save"])]:
        start = time.monotonic()
        rc, out_b, err = in_tmpfs(options, fill, big)
        if rc != 2 or not any(c in err for c in causes) or err.count("\n") != 1 or time.monotonic() - start > 20:
            fail("a checkpoint on a %s filesystem: exit %d after %.1f s, said %r"
                 % ("read-only" if "ro" in options else "full", rc, time.monotonic() - start, err))
    # Room for the first saves only: the later ones fail, the sweep goes on and writes its output.
    out = os.path.join(tmp, "full.csv")
    rc, _, err = in_tmpfs("size=96k", 0, sweep(["--checkpoint", ck_fs, "--checkpoint-every", "0.02", "--out", out]))
    warnings = [l for l in err.splitlines() if "warning: the checkpoint was not saved" in l]
    if rc != 0 or len(warnings) != 1 or "No space left on device" not in warnings[0]:
        fail("a checkpoint filesystem filling up: exit %d, said %r" % (rc, err))
    with open(out, "rb") as f:
        if f.read() != ref:
            fail("the sweep whose checkpoint filled its filesystem wrote other bytes")
    notes.append("read-only and full filesystems refused before the work, one filling up warned once")
else:
    notes.append("no tmpfs (not root): the filesystem cases were not run")

shutil.rmtree(tmp)
print("checkpoint_checks: " + "; ".join(notes))
