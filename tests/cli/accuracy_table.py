#!/usr/bin/env python3
"""The accuracy table of docs/prediction.md ("How good the predictions are"),
regenerated with `ecmpsim validate` on the corpus of measured runs
(tests/data/measured/, indexed by its README) so that the page cannot drift
from the program (issue 45). Per run, the median |busbw error| in each size
band (< 1 MiB, 1-64 MiB, >= 64 MiB) with the host parameters

- hardware-only: the run's config as its source states it;
- calibrated on itself: fitted on the whole table (in-sample);
- held out: fitted on another run and scored on this one. The partner was
  chosen by a rule fixed before any number was seen: the same cluster and
  NCCL settings at another node count; else another collective on the same
  nodes; else this run's own sizes >= 64 MiB, predicting the smaller bands
  (whose cells then show the fitted band as "fit").

plus one line for the whole corpus hardware-only (one validate command, a
config per table). Every indexed run must have a held-out partner below, and
every partner must be an indexed run.

Negative control: the table the page quotes must differ from the one
generated with every config's nic_efficiency halved (a calibration file), so
the comparison is not vacuous.

Usage: accuracy_table.py ECMPSIM [--write]   (from the source tree)"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measured_corpus import DIR, index_rows  # noqa: E402

BIN = os.path.realpath(sys.argv[1])
DOC = "docs/prediction.md"
BEGIN = "<!-- accuracy-table:begin: tests/cli/accuracy_table.py ECMPSIM --write regenerates it -->"
END = "<!-- accuracy-table:end -->"
BANDS = ("lt_1MiB", "1MiB_64MiB", "ge_64MiB")

# Held out: the run each run is predicted from ("64M:": its own sizes >= 64 MiB).
HELD_OUT = {
    "coreweave/gb200-nvl72-1rack-all_reduce.txt": "coreweave/gb200-nvl72-2rack-all_reduce.txt",
    "coreweave/gb200-nvl72-2rack-all_reduce.txt": "coreweave/gb200-nvl72-20rack-all_reduce.txt",
    "coreweave/gb200-nvl72-20rack-all_reduce.txt": "coreweave/gb200-nvl72-2rack-all_reduce.txt",
    "coreweave/h100-sharp-all_reduce.txt": "64M:",
    "oci-hpc-oke/a100-2n-2024-02-all_reduce.txt": "64M:",
    "oci-hpc-oke/a100-b4.8-2n-2025-09-all_reduce.txt": "64M:",
    "oci-hpc-oke/a100-b4.8-2n-2026-06-ring-all_reduce.txt": "64M:",
    "nccl-tests-309/xe9680-h100-ib-2n-all_reduce.txt": "nccl-tests-309/h100-ib-vm-4n-all_reduce.txt",
    "nccl-tests-309/h100-ib-vm-4n-all_reduce.txt": "nccl-tests-309/xe9680-h100-ib-2n-all_reduce.txt",
    "nccl-tests-309/gjaion-h100-ib-2n-all_reduce.txt": "nccl-tests-309/gjaion-h100-ib-4n-all_reduce.txt",
    "nccl-tests-309/gjaion-h100-ib-4n-all_reduce.txt": "nccl-tests-309/gjaion-h100-ib-2n-all_reduce.txt",
    "nccl-tests-309/gjaion-h100-ib-8n-all_reduce.txt": "nccl-tests-309/gjaion-h100-ib-4n-all_reduce.txt",
    "nccl-tests-309/gjaion-h100-ib-8n-ctas24-qps2-all_reduce.txt":
        "nccl-tests-309/gjaion-h100-ib-2n-ring-ctas24-qps2-all_reduce.txt",
    "nccl-tests-309/gjaion-h100-ib-2n-ring-ctas24-qps2-all_reduce.txt":
        "nccl-tests-309/gjaion-h100-ib-8n-ctas24-qps2-all_reduce.txt",
    "dranet/b200-a4-2n-all_gather.txt": "64M:",
    "vultr-b200/b200-ib-2n-all_reduce.txt": "vultr-b200/b200-ib-2n-all_gather.txt",
    "vultr-b200/b200-ib-2n-all_gather.txt": "vultr-b200/b200-ib-2n-all_reduce.txt",
    "vultr-b200/b200-ib-2n-reduce_scatter.txt": "vultr-b200/b200-ib-2n-all_reduce.txt",
    "spectrumx-h200/h200-roce-2n-all_reduce.txt": "64M:",
    "../nccl-tests/vp-h100-4n-all_reduce.txt": "../nccl-tests/vp-h100-4n-all_gather.txt",
    "../nccl-tests/vp-h100-4n-all_gather.txt": "../nccl-tests/vp-h100-4n-all_reduce.txt",
}


def fail(msg):
    print("accuracy_table: " + msg, file=sys.stderr)
    sys.exit(1)


def validate(args):
    r = subprocess.run([BIN, "validate"] + args + ["-f", "json"], capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        fail(f"validate {' '.join(args)}: exit {r.returncode}: {r.stderr.strip()}")
    return json.loads(r.stdout)


def cells(bands, held_out=False):
    """The three bands' median |busbw error|, "-" for a band without sizes; held out, "fit" for a band the fit used."""
    out = []
    for b in bands:
        if b["sizes"] == 0:
            out.append("-")
        elif held_out and b["fitted"] > 0:
            out.append("fit")
        else:
            out.append(f"{100 * b['busbw_error']['median_abs']:.1f}%")
    return " / ".join(out)


def fit_text(doc):
    """Each fitted parameter with its 90% bootstrap interval (where it has a width), "(bound)" at an
    end of its range, "(unconstrained)" where the table does not move it."""
    out = []
    for p, digits in zip(doc["fit"]["parameters"], (3, 1, 2)):
        lo, hi = f"{p['lo']:.{digits}f}", f"{p['hi']:.{digits}f}"
        text = f"{p['value']:.{digits}f}" + (f" [{lo}-{hi}]" if lo != hi else "")
        if not p["constrained"]:
            text += " (unconstrained)"
        elif p["bound"] != "none":
            text += " (bound)"
        out.append(text)
    return ", ".join(out)


def short(path):
    return os.path.relpath(path, DIR)


def table(rows):
    lines = ["| run | collective, nodes | hardware-only | calibrated on itself | fit (nic_efficiency, intra_busbw_gbs, net_latency_us) "
             "| held out: fitted on | held out |", "|---|---|---|---|---|---|---|"]
    for t, c, coll, nodes, _ in rows:
        key = short(t)
        partner = HELD_OUT[key]
        hw = validate([t, "--config", c])
        own = validate([t, "--config", c, "--fit-on", t])
        if partner == "64M:":
            held = validate([t, "--config", c, "--fit-on", t, "--fit-sizes", "64M:"])
            where = "its sizes >= 64 MiB"
        else:
            pt, pc = next((r[0], r[1]) for r in rows if short(r[0]) == partner)
            held = validate([t, "--config", c, "--fit-on", pt, "--fit-config", pc])
            where = f"`{partner}`"
        lines.append(f"| `{key}` | {coll}, {nodes} | {cells(hw['bands'])} | {cells(own['bands'])} | {fit_text(own)} "
                     f"| {where} | {cells(held['bands'], held_out=True)} |")
    args = []
    for t, c, *_ in rows:
        args += [t, "--config", c]
    corpus = validate(args)
    n = sum(b["sizes"] for b in corpus["bands"])
    lines.append(f"| all {len(rows)} runs ({n} sizes) | | {cells(corpus['bands'])} | | | | |")
    return "\n".join(lines) + "\n"


def main():
    rows = index_rows()
    keys = {short(t) for t, *_ in rows}
    if set(HELD_OUT) != keys:
        fail("runs without a held-out partner: " + ", ".join(sorted(keys - set(HELD_OUT))) +
             "; partners of no indexed run: " + ", ".join(sorted(set(HELD_OUT) - keys)))
    for key, partner in HELD_OUT.items():
        if partner != "64M:" and (partner not in keys or partner == key):
            fail(f"{key}: held out from {partner}, which is not another indexed run")
    generated = table(rows)
    text = open(DOC, encoding="utf-8").read()
    if BEGIN not in text or END not in text:
        fail(f"{DOC} lacks the markers {BEGIN!r} and {END!r}")
    head, rest = text.split(BEGIN, 1)
    quoted, tail = rest.split(END, 1)
    if "--write" in sys.argv[2:]:
        open(DOC, "w", encoding="utf-8").write(head + BEGIN + "\n" + generated + END + tail)
        print(f"accuracy_table: wrote {DOC}")
        return
    if quoted.strip() != generated.strip():
        fail(f"{DOC}'s accuracy table differs from validate's (run tests/cli/accuracy_table.py ECMPSIM --write):\n"
             + generated)
    with tempfile.TemporaryDirectory() as tmp:
        half = os.path.join(tmp, "half.toml")
        open(half, "w", encoding="utf-8").write("[calibration]\nnic_efficiency = 0.5\n")
        t, c, *_ = rows[-1]
        if cells(validate([t, "--config", c, "--calibration", half])["bands"]) == cells(validate([t, "--config", c])["bands"]):
            fail("halving nic_efficiency leaves the cells unchanged: the comparison could not fail")
    print(f"accuracy_table: {len(rows)} runs, the page's table is validate's")


main()
