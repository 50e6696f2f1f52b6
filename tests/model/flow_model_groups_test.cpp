// The grouped flow model (flows on identical paths solved as one variable,
// issue 36) against the model before grouping, kept verbatim as
// sim/model/reference_models.h: every flow's start rate and finish time,
// and every job's completion (its last finish), must agree to 1e-9 relative,
// on random networks where many flows share paths with distinct random sizes,
// on paper16's routed paths carrying thousands of randomly sized flows, and on
// small multi-job mixes. A hand-worked case pins the grouped arithmetic, and
// a perturbed input shows the comparison can fail.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "sim/config/config.h"
#include "sim/model/flow_model.h"
#include "sim/model/simulation.h"
#include "tests/support/flow_compare.h"
#include "sim/model/reference_models.h"

namespace flow_model_groups_test {

using namespace ecmpsim;
using test_support::disagreements;

namespace {

struct Net {
  std::vector<Gbps> cap;
  std::vector<std::uint64_t> bytes;
  std::vector<std::uint32_t> begin{0};
  std::vector<LinkId> path;
  std::vector<double> fraction;
  FlowNetwork view() const { return {cap, bytes, begin, path, fraction}; }
};

// `paths` random paths over `links` links, each carrying several flows of
// random sizes (a few repeated, so some finish together); split in `split`.
Net random_net(std::mt19937& rng, bool split, bool dead) {
  Net n;
  const std::size_t links = 3 + rng() % 30, paths = 1 + rng() % 40;
  for (std::size_t l = 0; l < links; ++l)
    n.cap.push_back(Gbps{std::array{10.0, 25.0, 100.0, 400.0, 0.0}[rng() % (dead ? 5 : 4)]});
  std::vector<std::vector<LinkId>> shapes(paths);
  std::vector<std::vector<double>> fracs(paths);
  for (std::size_t p = 0; p < paths; ++p) {
    const std::size_t hops = 1 + rng() % 4;
    for (std::size_t h = 0; h < hops; ++h) {
      const auto l = static_cast<LinkId>(rng() % links);
      if (std::find(shapes[p].begin(), shapes[p].end(), l) == shapes[p].end()) {
        shapes[p].push_back(l);
        fracs[p].push_back(static_cast<double>(1 + rng() % 8) / 8);
      }
    }
  }
  const std::size_t flows = 1 + rng() % 300;
  for (std::size_t f = 0; f < flows; ++f) {
    const std::size_t p = rng() % paths;
    n.bytes.push_back(rng() % 10 == 0 ? 4'000'000 : 1 + rng() % 50'000'000);
    n.path.insert(n.path.end(), shapes[p].begin(), shapes[p].end());
    if (split) n.fraction.insert(n.fraction.end(), fracs[p].begin(), fracs[p].end());
    n.begin.push_back(static_cast<std::uint32_t>(n.path.size()));
  }
  return n;
}

// paper16's ECMP paths carrying `flows` flows of random sizes (1 KiB to
// 1 GiB), each on the path of a random one of its 64 ring flows: what
// `run configs/paper16.toml --flows F.csv` solves with random sizes.
Net paper16_random(std::size_t flows, std::uint32_t seed) {
  const Simulation sim(load_config(ECMPSIM_SOURCE_DIR "/configs/paper16.toml"));
  const ScenarioResult r = sim.run(sim.spec().scenarios.at(0));
  Net n;
  n.cap = sim.capacity();
  std::mt19937 rng(seed);
  for (std::size_t f = 0; f < flows; ++f) {
    const std::size_t p = rng() % sim.flows().size();
    n.bytes.push_back(1024 + rng() % (1u << 30));
    n.path.insert(n.path.end(), r.trace.path_links.begin() + r.trace.path_begin[p],
                  r.trace.path_links.begin() + r.trace.path_begin[p + 1]);
    n.begin.push_back(static_cast<std::uint32_t>(n.path.size()));
  }
  return n;
}

}  // namespace

TEST_CASE("two flows on one path are one group: hand-worked finish times") {
  // One 8 Gb/s link; 8 and 16 Gbit. Both at 4 Gb/s until the first ends at
  // 2 s; the second, 8 Gbit left, alone at 8 Gb/s ends 1 s later, at 3 s.
  // A third flow on a path of its own (link 1, 2 Gb/s, 4 Gbit) ends at 2 s
  // too: one event.
  const std::vector<Gbps> cap{Gbps{8}, Gbps{2}};
  const std::vector<std::uint64_t> bytes{2'000'000'000, 1'000'000'000, 500'000'000};
  const std::vector<std::uint32_t> begin{0, 1, 2, 3};
  const std::vector<LinkId> links{0, 0, 1};
  FlowTimes t;
  FlowModel().run({cap, bytes, begin, links}, t);
  CHECK(t.groups == 2);
  CHECK(t.start_rate[0].value == 4.0);
  CHECK(t.start_rate[1].value == 4.0);
  CHECK(t.finish[1].value == doctest::Approx(2.0).epsilon(1e-12));
  CHECK(t.finish[2].value == doctest::Approx(2.0).epsilon(1e-12));
  CHECK(t.finish[0].value == doctest::Approx(3.0).epsilon(1e-12));
  CHECK(t.events == 2);
}

TEST_CASE("grouped model = flow-level model on random shared paths (300 cases, a third split, some dead links)") {
  std::mt19937 rng(36);
  std::size_t flows = 0, groups = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const Net n = random_net(rng, trial % 3 == 2, trial % 10 == 0);
    reference::FlowLevelModel before;
    FlowModel scan(std::numeric_limits<std::size_t>::max()), heap(0);
    FlowTimes want, a, b;
    before.run(n.view(), want);
    scan.run(n.view(), a);
    heap.run(n.view(), b);
    CAPTURE(trial);
    CHECK(disagreements(want, a) == 0);
    CHECK(disagreements(want, b) == 0);
    flows += n.bytes.size();
    groups += a.groups;
  }
  MESSAGE(flows << " flows in " << groups << " groups");
  CHECK(groups * 3 < flows);  // the grouping was exercised, not one flow per group
}

TEST_CASE("grouped model = flow-level model on paper16's paths with 3,000 random flow sizes") {
  for (const std::uint32_t seed : {1u, 2u}) {
    const Net n = paper16_random(3000, seed);
    FlowTimes want, got;
    reference::FlowLevelModel().run(n.view(), want);
    FlowModel().run(n.view(), got);
    CAPTURE(seed);
    CHECK(disagreements(want, got) == 0);
    CHECK(got.events == want.events);
    CHECK(got.events > 2900);  // distinct sizes: nearly one event per flow
    CHECK(got.groups <= 64);
  }
}

TEST_CASE("grouped model = flow-level model on small multi-job mixes, per flow and per job") {
  std::mt19937 rng(3636);
  std::size_t scenarios = 0;
  for (int trial = 0; trial < 25; ++trial) {
    std::ostringstream c;
    const unsigned k = std::array{4u, 6u}[rng() % 2];
    c << "[fabric]\nkind = \"fat-tree\"\nk = " << k << "\nhost_speed_gbps = 400\nfabric_speed_gbps = "
      << std::array{100, 200, 400}[rng() % 3] << "\n";
    const std::array<const char*, 4> kinds{"ring-allreduce", "alltoall", "allgather", "sendrecv"};
    std::size_t left = k * k * k / 4;
    for (std::size_t j = 0; j < 3 && left >= 2; ++j) {
      const std::size_t nodes = 2 + rng() % std::min<std::size_t>(left - 1, 10);
      left -= nodes;
      c << "[[job]]\ncollective = \"" << kinds[j == 0 ? 0 : rng() % kinds.size()] << "\"\nnodes = " << nodes
        << "\nplacement = \"random\"\nseed = " << rng() % 1000 << "\nmessage_bytes = " << (1 + rng() % 64) * 500'000
        << "\nchannels = " << 1 + rng() % 4 << "\nqps_per_connection = " << 1 + rng() % 2 << "\n";
    }
    c << "[[scenario]]\nname = \"ecmp\"\n[scenario.hash]\nalgo = \"crc16-ccitt\"\nseed = " << rng() % 100 << "\n";
    if (rng() % 2 == 0) c << "[[scenario]]\nname = \"spray\"\nrouting = \"spray\"\n";
    CAPTURE(c.str());
    const Simulation sim(parse_config(c.str(), "mix.toml"));
    for (const ScenarioSpec& s : sim.spec().scenarios) {
      const ScenarioResult r = sim.run(s);
      FlowTimes want;
      reference::FlowLevelModel().run({sim.capacity(), sim.flows().bytes, r.trace.path_begin, r.trace.path_links,
                                       r.trace.split_fraction},
                                      want);
      CAPTURE(s.name);
      CHECK(disagreements(want, r.times, sim.flows().job) == 0);
      ++scenarios;
    }
  }
  CHECK(scenarios >= 25);
}

TEST_CASE("the comparison can fail: one flow's bytes perturbed by 1e-6 is caught") {
  // Negative control: the same network with one flow 1e-6 larger disagrees
  // (on that flow's finish at least); unperturbed, it agrees.
  const Net n = paper16_random(200, 9);
  Net perturbed = n;
  const std::size_t largest = static_cast<std::size_t>(std::max_element(n.bytes.begin(), n.bytes.end()) - n.bytes.begin());
  perturbed.bytes[largest] += n.bytes[largest] / 1'000'000;
  FlowTimes want, got;
  reference::FlowLevelModel().run(n.view(), want);
  FlowModel().run(perturbed.view(), got);
  CHECK(disagreements(want, got) >= 1);  // at least the flow itself
  FlowModel().run(n.view(), got);
  CHECK(disagreements(want, got) == 0);
}

}  // namespace flow_model_groups_test
