"""Reference counting and memory over repeated calls: 1,000 rounds of run
(with its link, path and flow columns), hash and, every tenth round, sweep
calls grow the process by no more than a bound, and the Python objects a
result holds are freed with it. A negative control shows the measurement
sees a leak: the same calls with their results kept grow it past the bound."""
import gc
import sys

import ecmpsim
from conftest import PAPER16

ROUNDS = 1000


def rss_kib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4  # resident pages of 4 KiB


def tiny():
    """paper16 on a 2 x 2 leaf-spine with 4 nodes: the calls' cost is the module's, not the engine's."""
    text = open(PAPER16).read()
    for a, b in (("leaves = 4", "leaves = 2"), ("spines = 4", "spines = 2"),
                 ("hosts_per_leaf = 4", "hosts_per_leaf = 2"), ("nodes = 16", "nodes = 4")):
        assert a in text
        text = text.replace(a, b)
    return ecmpsim.load(text)


def churn(cfg, rounds, keep=None):
    for i in range(rounds):
        r = cfg.run(scenario="ecmp", seed=i, slowdown=(i % 2 == 0))
        held = [r, r.json, r.links("ecmp"), r.paths("ecmp"), r.flows("ecmp"),
                ecmpsim.hash("xxh3", src="10.0.0.1", dst="10.0.0.2", sport=i, members=8)]
        if i % 10 == 0:
            s = cfg.sweep(seeds=range(i, i + 4), threads=1)
            held += [s, s.json, s.columns()]
        if keep is not None:
            keep.append(held)


def test_repeated_calls_do_not_grow_memory():
    cfg = tiny()
    churn(cfg, 100)  # warm-up: allocator pools, numpy, json
    gc.collect()
    refs, objects, before = sys.getrefcount(cfg), len(gc.get_objects()), rss_kib()
    churn(cfg, ROUNDS)
    gc.collect()
    grown = rss_kib() - before
    assert sys.getrefcount(cfg) == refs
    assert len(gc.get_objects()) - objects < 100
    # Negative control: half the rounds with their results kept grow
    # the process by far more than the bound below allows.
    kept = []
    start = rss_kib()
    churn(cfg, ROUNDS // 2, kept)
    leak = rss_kib() - start
    print(f"RSS: +{grown} KiB over {ROUNDS} rounds; +{leak} KiB over {ROUNDS // 2} rounds kept")
    assert leak > 4 * 2048, leak
    assert grown < 2048, f"RSS grew {grown} KiB over {ROUNDS} rounds of calls (a leak?)"
