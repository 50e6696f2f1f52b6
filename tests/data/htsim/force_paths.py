"""Puts htsim's connections on ecmpsim's own spines by choosing their flow ids.

htsim_roce (-strat ecmp_host) has no way to take a path per connection: each
leaf picks the uplink of a packet as `uproutes[freeBSDHash(flow_id, pathid,
salt) % n]`. Everything in that is known from htsim's source (commit 841d9e7),
so the connection's flow id (the `id` field of the connection matrix) can be
chosen to land on the spine ecmpsim gave the flow:

- htsim's rand()/random() are its own std::mt19937 (sim/rng.cpp);
- main_roce seeds it with -seed, then FatTreeTopology builds the leaves first
  (fat_tree_topology.cpp), each taking one draw as its salt
  (fat_tree_switch.cpp): leaf j's salt is draw j of mt19937(seed);
- every RoceSrc reseeds it with time(NULL) and draws its path id (roce.cpp):
  under a frozen clock (faketime -f) all have the same path id, draw 0 of
  mt19937(T), and the generator is left after that draw;
- a leaf's first packet going up builds its uplink list in spine order and
  shuffles it with n draws (permute_paths). Which leaf comes first depends on
  the event order, so one 1-packet primer per leaf, staggered by 10 ns from
  t = 0, makes the order leaf 0, 1, ...; the real flows start at PRIMER_END.

`check_forcing` in make_inputs.py's caller (run.sh's probe) confirms it by
running htsim: a perfect matching forced onto distinct spines runs at the
balanced ceiling, the same flows forced two to a spine at half of it.
"""

FROZEN_TIME = 1704067200  # faketime -f '2024-01-01 00:00:00', TZ=UTC
PRIMER_STAGGER_PS = 10_000
PRIMER_END_PS = 5_000_000  # real flows start at 5 us, after every primer's lookup and ACK
PRIMER_BYTES = 4096
FIRST_ID = 1


class MT19937:
    def __init__(self, seed):
        self.mt = [0] * 624
        self.mt[0] = seed & 0xFFFFFFFF
        for i in range(1, 624):
            self.mt[i] = (1812433253 * (self.mt[i - 1] ^ (self.mt[i - 1] >> 30)) + i) & 0xFFFFFFFF
        self.i = 624

    def _twist(self):
        for k in range(624):
            y = (self.mt[k] & 0x80000000) | (self.mt[(k + 1) % 624] & 0x7FFFFFFF)
            v = self.mt[(k + 397) % 624] ^ (y >> 1)
            self.mt[k] = v ^ 0x9908B0DF if y & 1 else v
        self.i = 0

    def random(self):  # htsim's random(): the 32-bit output & INT_MAX
        if self.i >= 624:
            self._twist()
        y = self.mt[self.i]
        self.i += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        y ^= y >> 18
        return y & 0x7FFFFFFF


def free_bsd_hash(t1, t2, t3):
    m = 0xFFFFFFFF
    a, b, c = (0x9E3779B9 + t1) & m, (0x9E3779B9 + t3) & m, t2 & m
    for sa, sb, sc in ((13, 8, 13), (12, 16, 5), (3, 10, 15)):
        a = (a - b - c) & m; a ^= c >> sa
        b = (b - c - a) & m; b ^= (a << sb) & m
        c = (c - a - b) & m; c ^= b >> sc
    return c


def uplink_maps(seed, leaves, spines):
    """Per leaf, the list mapping hash % spines to the spine id; and the path id."""
    g = MT19937(seed)
    salts = [g.random() for _ in range(leaves)]
    t = MT19937(FROZEN_TIME)
    pathid = t.random() % 256
    perms = []
    for _ in range(leaves):  # in primer order: leaf 0 first
        up = list(range(spines))
        n = len(up)
        for i in range(n):
            ix = t.random() % (n - i)
            up[ix], up[n - 1 - i] = up[n - 1 - i], up[ix]
        perms.append(up)
    return salts, pathid, perms


class IdChooser:
    """Hands out unused flow ids whose hash at the source leaf picks a given spine."""

    def __init__(self, seed, leaves, spines):
        self.salts, self.pathid, self.perms = uplink_maps(seed, leaves, spines)
        self.spines = spines
        self.next = {}  # (leaf, spine) -> next id to try
        self.used = set()

    def spine_of(self, fid, leaf):
        return self.perms[leaf][free_bsd_hash(fid, self.pathid, self.salts[leaf]) % self.spines]

    def take(self, leaf, spine):
        fid = self.next.get((leaf, spine), FIRST_ID)
        while fid in self.used or self.spine_of(fid, leaf) != spine:
            fid += 1
        self.used.add(fid)
        self.next[(leaf, spine)] = fid + 1
        return fid

    def any_id(self):
        fid = FIRST_ID
        while fid in self.used:
            fid += 1
        self.used.add(fid)
        return fid


def primers(leaves, hosts_per_leaf, chooser):
    """One 1-packet connection per leaf to the next leaf, leaf j at j x 10 ns."""
    lines = []
    for j in range(leaves):
        src, dst = j * hosts_per_leaf, ((j + 1) % leaves) * hosts_per_leaf
        lines.append(f"{src}->{dst} id {chooser.any_id()} start {j * PRIMER_STAGGER_PS} size {PRIMER_BYTES}")
    return lines
