#!/usr/bin/env python3
"""Names and paths from outside in every output (issue 47, D7, D11, D12).

A config whose path holds ESC, a line break, a bidi override and an invalid
UTF-8 byte, over a topology file whose node names hold an invalid byte, a C1
control and a bidi override, with a scenario named 'a b;id':

- every JSON output parses (before: internal error type_error.316, exit 1),
  its strings never hold U+FFFD, and the bytes of each name come back from
  its parsed string by the rule docs/errors.md gives (D7);
- no table, CSV or error line holds a control character but its line
  breaks, a C1 control, a bidi control or invalid UTF-8 (D11, D12);
- the sweep's suggested `ecmpsim run` commands, pasted into bash, give
  ecmpsim the config path and the scenario name as they are and run nothing
  else (D11); the same words joined unquoted do run `id` (the negative
  control that the paste test sees an injection).

Usage: escaping_checks.py ECMPSIM   (from the source tree)"""
import json
import os
import re
import subprocess
import sys
import tempfile

BIN = os.path.realpath(sys.argv[1])
tmp = tempfile.mkdtemp()


def fail(msg):
    print("escaping_checks: " + msg, file=sys.stderr)
    sys.exit(1)


def run(args, rc=0):
    p = subprocess.run([BIN] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    if p.returncode != rc:
        fail(f"{args!r} exited {p.returncode}, not {rc}: {p.stderr[:400]!r}")
    return p


# docs/errors.md#names-and-paths-in-outputs: the bytes a parsed JSON string stands for.
def json_bytes(s):
    return re.sub(rb"\\(\\|x[0-9a-fA-F]{2})", lambda m: b"\\" if m[1] == b"\\" else bytes([int(m[1][1:], 16)]),
                  s.encode())


BIDI = set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A)) | {0x061C, 0x200E, 0x200F, 0x2028, 0x2029}


def problem(data):
    """What in bytes a terminal shows is not strict UTF-8 without controls (but line breaks), C1 or bidi."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        return f"invalid UTF-8 in the output: {e}"
    for c in text:
        o = ord(c)
        if (o < 0x20 and c != "\n") or 0x7F <= o <= 0x9F or o in BIDI:
            return f"U+{o:04X} reached the output"
    return None


def check_shown(what, data):
    if (p := problem(data)) is not None:
        fail(f"{what}: {p}")


# The hostile names. Each holds what a terminal acts on, and the checks above
# would flag each if it reached an output unescaped (asserted below).
SPINE = b"spine\xff"                # invalid UTF-8
LEAF0 = b"leaf0\xc2\x9b31m"         # C1 CSI
LEAF1 = b"leaf1\xe2\x80\xaeevil"    # RIGHT-TO-LEFT OVERRIDE
HOSTS = [b"h0", b"h1\\xff", b"h2\\", b"h3"]  # backslashes that look like escapes, or end the name
topo = b"".join([b"node," + n + b",spine\n" for n in [SPINE]] + [b"node," + LEAF0 + b",leaf\n", b"node," + LEAF1 + b",leaf\n"] +
                [b"node," + h + b",host\n" for h in HOSTS] +
                [b"link," + SPINE + b"," + LEAF0 + b",400\n", b"link," + SPINE + b"," + LEAF1 + b",400\n"] +
                [b"link," + HOSTS[i] + b"," + (LEAF0 if i < 2 else LEAF1) + b",400\n" for i in range(4)])
with open(os.path.join(tmp, "topo.csv"), "wb") as f:
    f.write(topo)
CFG = os.path.join(tmp, "c\x1b[2J\nx\u202ey").encode() + b"\xff q.toml"
with open(CFG, "wb") as f:
    f.write(b'[fabric]\nkind = "file"\nfile = "topo.csv"\n\n[workload]\ncollective = "ring-allreduce"\n\n'
            b'[[scenario]]\nname = "a b;id"\nrouting = "ecmp"\n\n[[scenario]]\nname = "st"\nrouting = "static"\n'
            b'policy = "dst-mod"\n')
for raw in [SPINE, LEAF0, LEAF1, CFG]:  # the checks would see each name raw
    if problem(raw) is None:
        fail(f"the check passes the raw name {raw!r}: it cannot fail")
cfg = os.fsdecode(CFG)

# D7: every JSON output parses and gives the bytes back.
for args in (["run", cfg, "-f", "json"], ["flows", cfg, "-f", "json"], ["sweep", cfg, "--seeds", "0:3", "-f", "json"]):
    out = run(args).stdout
    if b"\xef\xbf\xbd" in out or b"ufffd" in out.lower():
        fail(f"{args[0]} -f json holds U+FFFD")
    check_shown(args[0] + " -f json", out)  # JSON escapes controls and bidi too
    doc = json.loads(out)
    if args[0] in ("run", "sweep") and json_bytes(doc["config"]) != CFG:
        fail(f"{args[0]} -f json: config {doc['config']!r} does not give back {CFG!r}")
    if args[0] == "run":
        names = {json_bytes(link[end]) for s in doc["scenarios"] for link in s["links"] for end in ("from", "to")}
        if names != {SPINE, LEAF0, LEAF1}:
            fail(f"run -f json: link ends {names!r}")
        hops = {json_bytes(n) for s in doc["scenarios"] for fl in s["flows"] for n in fl["path"]}
        if not set(HOSTS) <= hops:
            fail(f"run -f json: paths name {hops!r}, not every host of {HOSTS!r}")
    if args[0] == "flows" and {json_bytes(fl["src"]) for fl in doc["flows"]} != set(HOSTS):
        fail("flows -f json: the sources are not the hosts' names")

# D11, D12: tables, CSV, error lines.
for args in (["run", cfg], ["run", cfg, "-f", "summary"], ["run", cfg, "-f", "csv"], ["flows", cfg, "-f", "csv"],
             ["sweep", cfg, "--seeds", "0:3"], ["sweep", cfg, "--seeds", "0:3", "-f", "csv"]):
    p = run(args)
    check_shown(" ".join(args[:1] + args[2:]), p.stdout)
    check_shown(" ".join(args[:1] + args[2:]) + " (stderr)", p.stderr)
p = run(["run", cfg, "--scenario", "\udcff\u202e\x1b"], rc=2)
check_shown("an unknown scenario's error", p.stderr)
if p.stderr.count(b"\n") != 1:
    fail(f"the error is not one line: {p.stderr!r}")

# D11: the suggested commands, pasted.
table = run(["sweep", cfg, "--seeds", "0:3"]).stdout.decode()
lines = [ln.strip() for ln in table.splitlines() if ln.strip().startswith("ecmpsim run ")]
if len(lines) < 2:
    fail(f"no suggested commands in the sweep table:\n{table}")
for line in lines:
    script = "ecmpsim() { printf '%s\\0' \"$@\"; }\n" + line + "\n"
    got = subprocess.run(["bash", "-c", script], stdout=subprocess.PIPE, timeout=30).stdout
    words = got.split(b"\0")[:-1]
    if b"uid=" in got or words[:4] != [b"run", CFG, b"--scenario", b"a b;id"]:
        fail(f"pasting {line!r} gave {got!r}")
    naive = "ecmpsim() { printf '%s\\0' \"$@\"; }\necmpsim run x --scenario a b;id\n"
    if b"uid=" not in subprocess.run(["bash", "-c", naive], stdout=subprocess.PIPE, timeout=30).stdout:
        fail("negative control: the unquoted command did not run id")
print("escaping_checks: ok")
