#!/usr/bin/env python3
"""The corpus of measured runs (tests/data/measured/, issue 45 item 2) is usable:
every table its README indexes parses with `ecmpsim calibrate TABLE --config
CONFIG` (the reader, plus calibrate's check that the table's ranks and nodes
are the config's), reports the collective and the rank and node counts the
index states, and every config loads with `ecmpsim run CONFIG -f
summary`. Every table and config under the folder is indexed, and every
indexed file exists.

Negative controls, so that a check that passes vacuously fails: the index
must hold at least 12 runs; an orphan file must be caught by the same
comparison; a 2-node table against a 4-node config and a table with a row
cut short must both be refused with exit 2 naming the file.

Usage: measured_corpus.py ECMPSIM   (from the source tree)"""
import json
import os
import re
import subprocess
import sys
import tempfile

BIN = os.path.realpath(sys.argv[1])
DIR = "tests/data/measured"
INDEX = os.path.join(DIR, "README.md")
ROW = re.compile(r"^\| `([^`]+)` \| `([^`]+)` \|.*\| (all_reduce|all_gather|reduce_scatter) \| (\d+) \((\d+)\) \|")


def fail(msg):
    print("measured_corpus: " + msg, file=sys.stderr)
    sys.exit(1)


def run(args):
    return subprocess.run([BIN] + args, capture_output=True, text=True, timeout=600)


def index_rows():
    rows = []
    with open(INDEX, encoding="utf-8") as f:
        for line in f:
            m = ROW.match(line)
            if m:
                table, config, coll, nodes, ranks = m.groups()
                rows.append((os.path.normpath(os.path.join(DIR, table)), os.path.normpath(os.path.join(DIR, config)),
                             coll, int(nodes), int(ranks)))
    return rows


def unindexed(files, rows):
    """Files of the folder that no index row names."""
    named = {t for t, _, _, _, _ in rows} | {c for _, c, _, _, _ in rows}
    return sorted(f for f in files if f not in named)


def corpus_files():
    out = []
    for root, _, names in os.walk(DIR):
        out += [os.path.normpath(os.path.join(root, n)) for n in names if n.endswith((".txt", ".toml"))]
    return out


def check_run(table, config, coll, nodes, ranks):
    r = run(["calibrate", table, "--config", config, "-f", "json"])
    if r.returncode != 0:
        fail(f"calibrate {table} --config {config}: exit {r.returncode}: {r.stderr.strip()}")
    doc = json.loads(r.stdout)
    if doc["test"] != coll + "_perf":
        fail(f"{table}: calibrate read {doc['test']}, the index says {coll}")
    # Tables without Rank lines report 0; calibrate has then taken the config's counts.
    for key, want in (("ranks", ranks), ("nodes", nodes)):
        if doc[key] not in (0, want):
            fail(f"{table}: {key} {doc[key]}, the index says {want}")
    s = run(["run", config, "-f", "summary"])
    if s.returncode != 0:
        fail(f"run {config}: exit {s.returncode}: {s.stderr.strip()}")


def refused(args, name):
    r = run(args)
    if r.returncode != 2 or name not in r.stderr or r.stderr.count("\n") != 1:
        fail(f"expected a one-line refusal naming {name} with exit 2, got {r.returncode}: {r.stderr!r}")


def main():
    rows = index_rows()
    if len(rows) < 12:
        fail(f"the index lists {len(rows)} runs; issue 45 asks for at least 12")
    for table, config, *_ in rows:
        for p in (table, config):
            if not os.path.isfile(p):
                fail(f"{INDEX} names {p}, which does not exist")
    files = corpus_files()
    if unindexed(files, rows):
        fail("not in the index: " + ", ".join(unindexed(files, rows)))
    if unindexed(files + [os.path.join(DIR, "x/orphan.txt")], rows) != [os.path.join(DIR, "x/orphan.txt")]:
        fail("the orphan check misses an unindexed file")
    for row in rows:
        check_run(*row)
    two = next(r for r in rows if r[3] == 2 and r[2] == "all_reduce")
    four = next(r for r in rows if r[3] == 4 and r[2] == "all_reduce")
    refused(["calibrate", two[0], "--config", four[1]], os.path.basename(two[0]))
    with tempfile.TemporaryDirectory() as tmp:
        cut = os.path.join(tmp, "cut.txt")
        lines = open(two[0], encoding="utf-8").read().splitlines(keepends=True)
        last = max(i for i, ln in enumerate(lines) if ln.strip()[:1].isdigit())
        lines[last] = " ".join(lines[last].split()[:-3]) + "\n"
        open(cut, "w", encoding="utf-8").writelines(lines)
        refused(["calibrate", cut, "--config", two[1]], "cut.txt")
    print(f"measured_corpus: {len(rows)} runs parse and their {len({r[1] for r in rows})} configs load")


if __name__ == "__main__":
    main()
