// Every max-min solver behind the one interface (sim/model/max_min.h) on
// networks small enough to work by hand: the production FlowModel with both
// bottleneck searches and both re-solves, and its two references
// (sim/model/reference_models.h). The randomized comparisons between them are
// tests/model/flow_model_reference_test.cpp, flow_model_groups_test.cpp and
// flow_local_test.cpp; here each is held to the same worked numbers, so a
// fault common to a solver and its reference cannot hide. (Flows grouped on
// one path, worked by hand: flow_model_groups_test.cpp.)
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "sim/model/flow_model.h"
#include "sim/model/reference_models.h"

namespace max_min_solvers_test {

using namespace ecmpsim;

namespace {

struct Labelled {
  std::string name;
  std::unique_ptr<MaxMinSolver> solver;
};

std::vector<Labelled> solvers() {
  constexpr std::size_t kAlwaysScan = std::numeric_limits<std::size_t>::max();
  std::vector<Labelled> out;
  out.push_back({"FlowModel", std::make_unique<FlowModel>()});
  out.push_back({"FlowModel, sorted search, local re-solves", std::make_unique<FlowModel>(0, true)});
  out.push_back({"FlowModel, sorted search, suffix re-solves", std::make_unique<FlowModel>(0, false)});
  out.push_back({"FlowLevelModel", std::make_unique<reference::FlowLevelModel>()});
  out.push_back({"FlowLevelModel, sorted search", std::make_unique<reference::FlowLevelModel>(0)});
  out.push_back({"ReferenceFlowModel, scan", std::make_unique<reference::ReferenceFlowModel>(kAlwaysScan)});
  out.push_back({"ReferenceFlowModel, heap", std::make_unique<reference::ReferenceFlowModel>(0)});
  return out;
}

}  // namespace

TEST_CASE("every solver: three flows, unequal bottlenecks, rates re-shared as flows finish") {
  // Link A = 10 Gb/s, link B = 4 Gb/s. f1 crosses A (16 Gbit), f2 A and B
  // (10 Gbit), f3 B (3 Gbit). t = 0: B's share 2 is the least: f2 = f3 = 2,
  // f1 = 10 - 2 = 8; f3 finishes first, at 3/2 = 1.5 s (f1 has 4 Gbit left,
  // f2 7). Then B: f2 = 4, A: f1 = 6, which finishes 4/6 s later, at 13/6 s
  // (f2 has 7 - 8/3 = 13/3 left). f2 alone at 4: 13/12 s more, 3.25 s.
  const std::vector<Gbps> cap{Gbps{10}, Gbps{4}};
  const std::vector<std::uint64_t> bytes{2'000'000'000, 1'250'000'000, 375'000'000};
  const std::vector<std::uint32_t> begin{0, 1, 3, 4};
  const std::vector<LinkId> links{0, 0, 1, 1};
  for (const auto& [name, solver] : solvers()) {
    CAPTURE(name);
    FlowTimes t;
    solver->run({cap, bytes, begin, links}, t);
    CHECK(t.start_rate[0].value == doctest::Approx(8));
    CHECK(t.start_rate[1].value == doctest::Approx(2));
    CHECK(t.start_rate[2].value == doctest::Approx(2));
    CHECK(t.finish[2].value == doctest::Approx(1.5));
    CHECK(t.finish[0].value == doctest::Approx(13.0 / 6));
    CHECK(t.finish[1].value == doctest::Approx(3.25));
    CHECK(t.events == 3);
    // The same object again (its buffers kept from the first run): the same answer.
    FlowTimes again;
    solver->run({cap, bytes, begin, links}, again);
    CHECK(again.finish == t.finish);
    CHECK(again.start_rate == t.start_rate);
  }
}

TEST_CASE("every solver: a link's share is its capacity over its flows' fractions; zero bytes; a dead link") {
  // L0, L1 = 100 Gb/s, L2 = 10, L3 = 100. A sprays half on L0, half on L1
  // (30 Gbit); B is on L0 (10 Gbit); C puts 1/4 on L2, 3/4 on L3 (40 Gbit).
  // Weights L0 1.5, L1 0.5, L2 0.25, L3 0.75: L2's share 40 is the least, so
  // C = 40; then L0: A = B = 100 / 1.5 = 200/3. B ends at 10 / (200/3) =
  // 0.15 s, A (20 Gbit left) alone gets 100 / 0.5 = 200 and ends 0.1 s
  // later, at 0.25 s; C at 40 / 40 = 1 s. D sends nothing (finishes at 0);
  // E crosses L4, which is down: it never finishes.
  const std::vector<Gbps> cap{Gbps{100}, Gbps{100}, Gbps{10}, Gbps{100}, Gbps{0}};
  const std::vector<std::uint64_t> bytes{3'750'000'000, 1'250'000'000, 5'000'000'000, 0, 1'000};
  const std::vector<std::uint32_t> begin{0, 2, 3, 5, 6, 8};
  const std::vector<LinkId> links{0, 1, 0, 2, 3, 0, 4, 3};
  const std::vector<double> fraction{0.5, 0.5, 1.0, 0.25, 0.75, 1.0, 1.0, 1.0};
  for (const auto& [name, solver] : solvers()) {
    CAPTURE(name);
    FlowTimes t;
    solver->run({cap, bytes, begin, links, fraction}, t);
    CHECK(t.start_rate[0].value == doctest::Approx(200.0 / 3));
    CHECK(t.start_rate[1].value == doctest::Approx(200.0 / 3));
    CHECK(t.start_rate[2].value == doctest::Approx(40));
    CHECK(t.finish[1].value == doctest::Approx(0.15));
    CHECK(t.finish[0].value == doctest::Approx(0.25));
    CHECK(t.finish[2].value == doctest::Approx(1.0));
    CHECK(t.finish[3].value == 0);
    CHECK(t.start_rate[3].value == 0);
    CHECK(t.finish[4].value == std::numeric_limits<double>::infinity());
    CHECK(t.start_rate[4].value == 0);
    // Negative control: the same paths taken whole give other rates (A and B
    // 50 on L0, C 10 on L2).
    FlowTimes whole;
    solver->run({cap, bytes, begin, links}, whole);
    CHECK(whole.start_rate[0].value == doctest::Approx(50));
    CHECK(whole.start_rate[2].value == doctest::Approx(10));
  }
}

}  // namespace max_min_solvers_test
