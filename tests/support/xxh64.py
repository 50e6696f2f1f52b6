"""XXH64 (seed 0 by default) in pure Python, for the tests that read or forge
sweep checkpoints (tests/cli/resume_checks.py, tests/mpi/resume.py): Collet's
xxHash specification, github.com/Cyan4973/xxHash/blob/dev/doc/xxhash_spec.md.
Checked against the published vectors on import."""
import struct

P1, P2, P3, P4, P5 = (0x9E3779B185EBCA87, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9,
                      0x85EBCA77C2B2AE63, 0x27D4EB2F165667C5)
M = (1 << 64) - 1


def rotl(x, r):
    return ((x << r) | (x >> (64 - r))) & M


def xxh_round(acc, lane):
    return (rotl((acc + lane * P2) & M, 31) * P1) & M


def xxh64(data, seed=0):
    n, i = len(data), 0
    if n >= 32:
        v = [(seed + P1 + P2) & M, (seed + P2) & M, seed, (seed - P1) & M]
        while i + 32 <= n:
            lanes = struct.unpack_from("<4Q", data, i)
            v = [xxh_round(a, l) for a, l in zip(v, lanes)]
            i += 32
        acc = (rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18)) & M
        for a in v:
            acc = ((acc ^ xxh_round(0, a)) * P1 + P4) & M
    else:
        acc = (seed + P5) & M
    acc = (acc + n) & M
    while i + 8 <= n:
        acc = (rotl(acc ^ xxh_round(0, struct.unpack_from("<Q", data, i)[0]), 27) * P1 + P4) & M
        i += 8
    if i + 4 <= n:
        acc = (rotl(acc ^ (struct.unpack_from("<I", data, i)[0] * P1) & M, 23) * P2 + P3) & M
        i += 4
    while i < n:
        acc = (rotl(acc ^ (data[i] * P5) & M, 11) * P1) & M
        i += 1
    acc = ((acc ^ (acc >> 33)) * P2) & M
    acc = ((acc ^ (acc >> 29)) * P3) & M
    return acc ^ (acc >> 32)


# The published test vectors (xxhash_spec / xxhsum): the Python twin is the real XXH64.
if xxh64(b"") != 0xEF46DB3751D8E999 or xxh64(b"a") != 0xD24EC4F1A98C6E5B or \
        xxh64(b"abc") != 0x44BC2CF5AD770999:
    raise AssertionError("tests/support/xxh64.py does not match the published XXH64 vectors")
