#!/usr/bin/env python3
"""Writes the checkpoint fuzz target's seed corpus (tests/fuzz/corpus/checkpoint/)
in the checkpoint format 2 (sim/sweep/checkpoint.cpp, docs/sweeps.md "The
file"): the identity of tests/fuzz/checkpoint_fuzz.cpp (version fuzz, config
xxh64:0123456789abcdef), one job (9 values a row), a sweep of 64 variants;
row values 0.5 + i, row after row. prefix.ck: a single process's [0, 3);
rank_share.ck: rank 1 of 2's [4, 6) and [10, 13); torn.ck: prefix.ck with its
record cut short (read as holding nothing); truncated.ck: cut in its header
(refused). Usage: make_checkpoint_seeds.py (from the source tree)."""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from xxh64 import xxh64  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "checkpoint")
WIDTH = 9
MAGIC = 0x314345524B434345  # "ECCKREC1" as little-endian bytes


def checkpoint(ranges, rank=None, decisions=1234):
    head = b"ecmpsim sweep checkpoint 2\nversion fuzz\nconfig xxh64:0123456789abcdef\n"
    if rank is not None:
        head += b"rank %d\nranks %d\n" % rank
    head += b"width %d\n\n" % WIDTH
    seed = xxh64(head)
    out = head + b"checksum %016x\n" % seed
    value = 0
    for i, (begin, end) in enumerate(ranges):
        rows = [0.5 + value + k for k in range((end - begin) * WIDTH)]
        value += len(rows)
        record = struct.pack("<4Q", MAGIC, begin, end, decisions if i == 0 else 0) + struct.pack("<%dd" % len(rows), *rows)
        out += record + struct.pack("<Q", xxh64(record, seed))
    return out


prefix = checkpoint([(0, 3)])
files = {"prefix.ck": prefix, "rank_share.ck": checkpoint([(4, 6), (10, 13)], (1, 2)), "torn.ck": prefix[:-20],
         "truncated.ck": prefix[:40]}
for name, data in files.items():
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)
