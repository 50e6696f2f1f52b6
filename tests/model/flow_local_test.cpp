// The flow model's local re-solve (sim/model/flow_local.cpp): an event
// re-solves only the groups around its finishing flows, grown until every
// group has a bottleneck. A hand-worked cascade pins the growth (the group
// that changes shares no link with the finishing flow), and the model with
// the local re-solve must match the model without it (suffix re-solves only)
// and the from-scratch reference to 1e-9 on random networks and on multi-job
// mixes routed on fat-trees, where the local path must carry most events.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "sim/config/config.h"
#include "sim/model/flow_model.h"
#include "sim/model/simulation.h"
#include "tests/support/flow_compare.h"
#include "sim/model/reference_models.h"
#include "tests/support/random_flow_nets.h"

namespace flow_local_test {

using namespace ecmpsim;
using test_support::disagreements;

TEST_CASE("a hand-worked cascade: the flow that speeds up shares no link with the one that finishes") {
  // Links L0 (4 Gb/s), L1 (8), L2 (10). A on L0; B on L0, L1; C on L1, L2; D on L2.
  // At 0: L0 freezes A, B at 2; then L2 (share 5) C, D at 5 (L1: 2 + 5 < 8).
  // A (1 Gbit) ends at 0.5 s. Then L0 and L1 both offer 4: B = C = 4, and D
  // takes what C leaves on L2: 6. The local re-solve starts from B (the only
  // group on A's links) and must grow twice: B lacks a bottleneck (C, faster,
  // holds L1), so C joins; then D lacks one (L2 no longer saturated), so D
  // joins. Stopping at B would leave C at 5 and D at 5, D finishing at 2.0 s.
  // D (10 Gbit, 2.5 sent) ends at 0.5 + 7.5 / 6 = 1.75 s; C (2.5 + 4 x 1.25 =
  // 7.5 sent) at 1.75 + 2.5 / 4 = 2.375 s; B (1 + 4 x 1.875 = 8.5 sent; L0
  // holds it at 4 alone) at 2.375 + 1.5 / 4 = 2.75 s.
  const std::vector<Gbps> cap{Gbps{4}, Gbps{8}, Gbps{10}};
  const std::vector<std::uint64_t> bytes{125'000'000, 1'250'000'000, 1'250'000'000, 1'250'000'000};
  const std::vector<std::uint32_t> begin{0, 1, 3, 5, 6};
  const std::vector<LinkId> links{0, 0, 1, 1, 2, 2};
  for (const bool local : {true, false}) {
    CAPTURE(local);
    FlowModel model(0, local);  // 0: the sparse path, where the local re-solve runs
    FlowTimes t;
    model.run({cap, bytes, begin, links}, t);
    CHECK(t.start_rate[0].value == doctest::Approx(2));
    CHECK(t.start_rate[1].value == doctest::Approx(2));
    CHECK(t.start_rate[2].value == doctest::Approx(5));
    CHECK(t.start_rate[3].value == doctest::Approx(5));
    CHECK(t.finish[0].value == doctest::Approx(0.5).epsilon(1e-12));
    CHECK(t.finish[3].value == doctest::Approx(1.75).epsilon(1e-12));
    CHECK(t.finish[2].value == doctest::Approx(2.375).epsilon(1e-12));
    CHECK(t.finish[1].value == doctest::Approx(2.75).epsilon(1e-12));
    // With the local re-solve, both events that re-solve were solved locally
    // (A's end and C's; at D's end no group at or above D's 6 Gb/s is left).
    CHECK(t.events == 4);
    CHECK(t.local == (local ? 2 : 0));
  }
}

TEST_CASE("local re-solve = suffix re-solve = reference on random networks (300 cases, a third split)") {
  std::mt19937 rng(20261206);
  std::size_t local_events = 0, events = 0;
  for (int trial = 0; trial < 300; ++trial) {
    // Equal sizes in half the cases, else up to 8 MB with distinct remainders.
    const auto size = [&](std::mt19937& r) -> std::uint64_t {
      if (trial % 2) return 4'000'000;
      const std::uint64_t megabytes = r() % 9;
      return megabytes * 1'000'000 + r() % 1000;
    };
    const auto n = test_support::random_flow_net(rng, trial, 60, 150, 5, size);
    const FlowNetwork net = n.view();
    reference::ReferenceFlowModel ref;
    FlowModel local(0, true), suffix(0, false);
    FlowTimes want, a, b;
    ref.run(net, want);
    local.run(net, a);
    suffix.run(net, b);
    CAPTURE(trial);
    CHECK(disagreements(want, a) == 0);
    CHECK(disagreements(b, a) == 0);
    local_events += a.local;
    events += a.events;
  }
  MESSAGE(local_events << " of " << events << " events solved locally");
  CHECK(local_events * 3 >= events);
}

TEST_CASE("local re-solve = suffix re-solve = reference on multi-job mixes on k = 6 and 8 fat-trees") {
  std::mt19937 rng(36);
  std::size_t local_events = 0, events = 0, local_work = 0, suffix_work = 0, scenarios = 0;
  for (int trial = 0; trial < 30; ++trial) {
    // k = 6 and 8 fat-trees (324 and 768 loaded links: past kScanLinks, so
    // the default model takes the sparse path, where local re-solves run).
    const std::string toml = test_support::mix_config(rng, {6, 8}, 16, 3);
    CAPTURE(toml);
    const Simulation sim(parse_config(toml, "mix.toml"));
    for (const ScenarioSpec& s : sim.spec().scenarios) {
      const ScenarioResult r = sim.run(s, {.model = false});
      std::vector<Gbps> cap;
      for (const auto& link : sim.fabric().links()) cap.push_back(link.speed);
      const FlowNetwork net{cap, sim.flows().bytes, r.trace.path_begin, r.trace.path_links, r.trace.split_fraction};
      reference::ReferenceFlowModel ref;
      FlowModel local, suffix(kScanLinks, false);
      FlowTimes want, a, b;
      ref.run(net, want);
      local.run(net, a);
      suffix.run(net, b);
      CAPTURE(s.name);
      CHECK(disagreements(want, a) == 0);
      CHECK(disagreements(b, a) == 0);
      local_events += a.local;
      events += a.events;
      local_work += a.resolved;
      suffix_work += b.resolved;
      ++scenarios;
    }
  }
  MESSAGE(scenarios << " scenarios: " << local_events << " of " << events << " events solved locally; groups re-solved "
                    << local_work << " with the local re-solve, " << suffix_work << " without");
  CHECK(local_events * 3 >= events);
  CHECK(local_work < suffix_work);
}

}  // namespace flow_local_test
