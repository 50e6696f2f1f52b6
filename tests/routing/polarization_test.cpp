// Hash polarization on a three-tier fat-tree (Google, USENIX ATC 2022): when
// edge and aggregation switches choose their uplink from the same bits of
// the same CRC, an aggregation switch only ever sees flows whose hash already
// picked it, and so picks the same member again.
#include <doctest/doctest.h>

#include <random>
#include <set>

#include "sim/routing/forwarding.h"
#include "sim/model/trace.h"
#include "tests/support/fabrics.h"

namespace polarization_test {

using namespace ecmpsim;

namespace {

struct CoreLoad {
  std::size_t cores_used = 0;  // cores that received any upward flow
  double max_mean = 0;         // over every aggregation -> core link
};

// k = 8: 8 pods of 4 edge + 4 aggregation switches, 16 cores, 128 hosts.
// 4096 flows between hosts in different pods, RoCEv2 tuples with random
// source ports: every flow climbs to exactly one core.
struct Setup {
  Fabric fabric;
  EqualCostSets sets;
  workloads::Flows flows;
  Setup() : fabric(make()), sets(compute_equal_cost_sets(fabric)) {
    std::mt19937 rng(20220711);
    std::uniform_int_distribution<std::uint32_t> host(0, 127), port(0, 16383);
    while (flows.size() < 4096) {
      const std::uint32_t s = host(rng), d = host(rng);
      if (s / 16 == d / 16) continue;  // 16 hosts per pod: keep inter-pod flows
      workloads::FlowRecord r;
      r.src = s;
      r.dst = d;
      r.src_ip = fabric.node(fabric.endpoint_node(s)).ip;
      r.dst_ip = fabric.node(fabric.endpoint_node(d)).ip;
      r.sport = static_cast<std::uint16_t>(49152 + port(rng));
      r.bytes = 1;
      flows.push_back(r);
    }
  }
  static Fabric make() { return test_support::fat_tree(8); }
  CoreLoad run(const ScenarioSpec& sc) const {
    const Forwarding fwd(fabric, sets, sc, "polarization");
    Trace t;
    route_and_count(fabric, fwd, flows, t);
    std::set<NodeId> cores;
    double sum = 0, max = 0, n = 0;
    for (LinkId l = 0; l < fabric.links().size(); ++l) {
      const Link& link = fabric.link(l);
      if (fabric.node(link.from).tier != Tier::Spine || fabric.node(link.to).tier != Tier::Core) continue;
      if (t.link_flows[l] > 0) cores.insert(link.to);
      sum += t.link_flows[l];
      max = std::max<double>(max, t.link_flows[l]);
      ++n;
    }
    CHECK(n == 128);    // 32 aggregation switches x 4 uplinks
    CHECK(sum == 4096);  // every flow crosses one
    return {cores.size(), max / (sum / n)};
  }
};

ScenarioSpec with_spine(std::uint32_t keys, const HashSpec& values) {
  ScenarioSpec sc;  // default: CRC-16/CCITT over the five-tuple, seed 0, modulo, everywhere
  HashOverride o;
  o.tier = Tier::Spine;
  o.values = values;
  o.keys = keys;
  sc.hash_tiers.push_back(o);
  return sc;
}

}  // namespace

TEST_CASE("polarization: the same CRC at edge and aggregation uses a quarter of the cores") {
  const Setup s;
  // Why exactly k/2 = 4 cores: an edge sends a flow to aggregation switch
  // j = h mod 4 (its uplinks in agg order), and agg j of a pod links to cores
  // 4j .. 4j+3 (Al-Fares). With the same CRC, seed and fields, agg j computes
  // the same h, so h mod 4 = j again: every flow through agg j takes core 5j.
  // With another seed s the CRC is affine in its initial value: for keys of
  // one length, crc_s(x) = crc_0(x) XOR c_s, so agg j takes core 4j + (j XOR
  // (c_s mod 4)) -- one core per j again. Either way 4 of 16 cores carry all
  // upward traffic and 32 of the 128 agg->core links carry it all: max/mean
  // is at least 128/32 = 4 by pigeonhole.
  const CoreLoad same = s.run(ScenarioSpec{});
  CHECK(same.cores_used == 4);
  CHECK(same.max_mean >= 4.0);
  HashSpec seeded;
  seeded.seed = 0x5A5A;
  const CoreLoad other_seed = s.run(with_spine(kHashSeed, seeded));
  CHECK(other_seed.cores_used == 4);
  CHECK(other_seed.max_mean >= 4.0);

  // Independent choices at the aggregation tier: another hash family, or the
  // same CRC read through another bit window (offset 8: bits 8-9 are other
  // linear combinations of the key bits). Each agg then spreads its ~128
  // flows over 4 uplinks: mean 32 per link. For a balls-in-bins load X with
  // mean 32, Chernoff gives P(X >= 64) <= (e/4)^32 < 5e-6, so over 128 links
  // max/mean >= 2 has probability < 1e-3: the margin below.
  HashSpec xxh3;
  xxh3.algo = "xxh3";
  HashSpec crc32lo;
  crc32lo.algo = "crc32-lo";
  HashSpec window;
  window.offset = 8;
  for (const auto& [name, load] : {std::pair{"xxh3", s.run(with_spine(kHashAlgo, xxh3))},
                                   std::pair{"crc32-lo", s.run(with_spine(kHashAlgo, crc32lo))},
                                   std::pair{"offset 8", s.run(with_spine(kHashOffset, window))}}) {
    const std::string algo = name;  // clang 14 cannot capture a structured binding (INFO does)
    INFO(algo);
    CHECK(load.cores_used == 16);
    CHECK(load.max_mean < 2.0);
    CHECK(load.max_mean < same.max_mean / 2);
  }
}
}  // namespace polarization_test
