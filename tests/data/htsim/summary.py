#!/usr/bin/env python3
"""Prints docs/prediction.md's table of the packet-level cross-check from results.csv.

Per group (config, mode, QPs): the completed seeds and the aborted ones,
ecmpsim's and htsim's efficiency over them (mean / p10 / p90; htsim's divided
by its balanced ceiling, ceiling.csv), and the comparison
tests/model/htsim_crosscheck_test.cpp makes: for htsim's own hash the
distributions within 0.05 + 2 SE (x1.71 for p10, p90), for `+paths` every
seed within 0.05 (the largest gap is shown). ecmpsim's side is the recorded
`ecmpsim_slowdown` (efficiency = 1 / slowdown); the test recomputes it.

Usage: summary.py [results.csv]
"""
import csv
import math
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def quantile(v, q):
    v = sorted(v)
    at = q * (len(v) - 1)
    lo = int(math.floor(at))
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (at - lo) * (v[hi] - v[lo])


def finished(done):
    """Every connection finished ("K/K", or "aborted K/K": htsim stopped after the last)."""
    k, _, n = done.removeprefix("aborted ").partition("/")
    return k == n


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "results.csv")
    ceiling = float(next(csv.DictReader(open(os.path.join(HERE, "ceiling.csv"))))["htsim_efficiency"])
    groups = {}
    for r in csv.DictReader(open(path)):
        groups.setdefault((r["config"], r["mode"], int(r["qps"])), []).append(r)
    print("| config | mode | QPs | seeds (not finished) | ecmpsim mean / p10 / p90 | htsim mean / p10 / p90 "
          "| tolerance | largest seed gap | agree |")
    print("|---|---|---|---|---|---|---|---|---|")
    for (cfg, mode, qps), rows in sorted(groups.items()):
        done = [r for r in rows if finished(r["htsim_flows_done"])]
        e = [1 / float(r["ecmpsim_slowdown"]) for r in done]
        h = [float(r["htsim_efficiency"]) / ceiling for r in done]
        n = len(e)
        if n < 3:  # not compared: say how far htsim got
            got = ", ".join(r["htsim_flows_done"] for r in rows)
            print(f"| {cfg.removesuffix('.toml')} | {mode} | {qps} | {n} ({len(rows) - n}) "
                  f"| {1 / float(rows[0]['ecmpsim_slowdown']):.3f} | connections finished: {got} | - | - | - |")
            continue
        paired = "+paths" in mode
        if paired:
            gap = max(abs(a - b) for a, b in zip(e, h))
            tol, ok, gap_s = 0.05, gap <= 0.05, f"{gap:.3f}"
        else:
            se = math.sqrt((statistics.stdev(e) ** 2 + statistics.stdev(h) ** 2) / n)
            tol, tq = 0.05 + 2 * se, 0.05 + 2 * 1.71 * se
            ok = (abs(statistics.mean(e) - statistics.mean(h)) <= tol
                  and abs(quantile(e, .1) - quantile(h, .1)) <= tq and abs(quantile(e, .9) - quantile(h, .9)) <= tq)
            gap_s = "-"

        def d(v):
            return f"{statistics.mean(v):.3f} / {quantile(v, .1):.3f} / {quantile(v, .9):.3f}"

        print(f"| {cfg.removesuffix('.toml')} | {mode} | {qps} | {n} ({len(rows) - n}) | {d(e)} | {d(h)} "
              f"| {tol:.3f} | {gap_s} | {'yes' if ok else '**no**'} |")


if __name__ == "__main__":
    main()
