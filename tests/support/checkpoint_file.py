"""Sweep checkpoint files (format 2, sim/sweep/checkpoint.cpp; docs/sweeps.md,
"The file") for the tests and benches that take them apart or build them:
the header's lines and the whole records, every checksum computed here with
tests/support/xxh64.py (itself checked against the published vectors)."""
import struct

from xxh64 import xxh64

RECORD_MAGIC = 0x314345524B434345  # "ECCKREC1" as little-endian bytes


class Checkpoint:
    """lines: the header's lines (magic and identity, no checksum); width:
    values a variant; records: [begin, end, decisions, rows bytes] of the
    whole records; dropped: the bytes after them."""

    def __init__(self, data):
        head_end = data.index(b"\n\n") + 2
        self.lines = data[:head_end - 2].split(b"\n")
        seed = xxh64(data[:head_end])
        if data[head_end:head_end + 26] != b"checksum %016x\n" % seed:
            raise ValueError("the header does not match its checksum")
        self.width = int(self.field(b"width"))
        self.records = []
        at = head_end + 26
        while at + 40 <= len(data):
            magic, begin, end, decisions = struct.unpack_from("<4Q", data, at)
            size = 32 + (end - begin) * self.width * 8 + 8
            if magic != RECORD_MAGIC or end <= begin or at + size > len(data):
                break
            if struct.unpack_from("<Q", data, at + size - 8)[0] != xxh64(data[at:at + size - 8], seed):
                break
            self.records.append([begin, end, decisions, data[at + 32:at + size - 8]])
            at += size
        self.dropped = len(data) - at

    def field(self, name):
        return [l for l in self.lines if l.startswith(name + b" ")][0].split(b" ", 1)[1]

    def rows(self):
        """Variants the whole records hold."""
        return sum(end - begin for begin, end, _, _ in self.records)

    def bytes(self):
        """The file again, every checksum recomputed (after lines or records were changed)."""
        head = b"\n".join(self.lines) + b"\n\n"
        seed = xxh64(head)
        out = head + b"checksum %016x\n" % seed
        for begin, end, decisions, rows in self.records:
            record = struct.pack("<4Q", RECORD_MAGIC, begin, end, decisions) + rows
            out += record + struct.pack("<Q", xxh64(record, seed))
        return out


def rows_held(path):
    """Variants in the whole records of the checkpoint at `path` (0 when it is absent)."""
    try:
        with open(path, "rb") as f:
            return Checkpoint(f.read()).rows()
    except FileNotFoundError:
        return 0
