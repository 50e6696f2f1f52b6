#!/usr/bin/env python3
"""Two JSON outputs equal but for rounding: the same keys, strings, booleans
and array lengths, and every pair of numbers within a relative tolerance
(default 1e-9; numbers below 1e-300 in magnitude compare as zero).

A refactor that must not change results (issue 46: every shipped config's
`run -f json` equal to main's to 1e-9) runs the old and the new binary and
compares their documents with this; exact equality would refuse a change of
summation order, a loose one would hide a change of model.

Usage: json_close.py A.json B.json [--rel 1e-9]
Prints the number of numbers compared, the largest relative difference and
every disagreement (its path, both values); exit 1 on any disagreement, 2 on
a file that is not JSON.
"""
import argparse
import json
import math
import sys


def walk(a, b, path, tol, out):
    """Compares a and b, appending (path, a, b) disagreements; returns (numbers, worst)."""
    if isinstance(a, bool) or isinstance(b, bool) or not (isinstance(a, (int, float)) and isinstance(b, (int, float))):
        if isinstance(a, dict) and isinstance(b, dict):
            if list(a) != list(b):
                out.append((path + " (keys)", sorted(a), sorted(b)))
                return 0, 0.0
            counts = [walk(a[k], b[k], f"{path}.{k}", tol, out) for k in a]
        elif isinstance(a, list) and isinstance(b, list):
            if len(a) != len(b):
                out.append((path + " (length)", len(a), len(b)))
                return 0, 0.0
            counts = [walk(x, y, f"{path}[{i}]", tol, out) for i, (x, y) in enumerate(zip(a, b))]
        else:
            if a != b or type(a) is not type(b):
                out.append((path, a, b))
            return 0, 0.0
        return sum(c[0] for c in counts), max((c[1] for c in counts), default=0.0)
    if math.isnan(a) or math.isnan(b) or math.isinf(a) or math.isinf(b):
        if not (a == b or (math.isnan(a) and math.isnan(b))):
            out.append((path, a, b))
        return 1, 0.0
    scale = max(abs(a), abs(b))
    rel = 0.0 if scale < 1e-300 else abs(a - b) / scale
    if rel > tol:
        out.append((path, a, b))
    return 1, rel


def load(name):
    try:
        with open(name, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        print(f"json_close.py: {name}: {e}", file=sys.stderr)
        sys.exit(2)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("--rel", type=float, default=1e-9)
    args = p.parse_args()
    bad = []
    numbers, worst = walk(load(args.a), load(args.b), "$", args.rel, bad)
    print(f"{numbers} numbers, largest relative difference {worst:.3g}, {len(bad)} disagreements")
    for path, x, y in bad[:20]:
        print(f"  {path}: {x!r} vs {y!r}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
