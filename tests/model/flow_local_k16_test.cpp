// The flow model's local re-solve on a mix large enough to need every rule of
// sim/model/flow_local.cpp: a ring all-reduce on 509 nodes and two
// all-to-alls (311 and 168 nodes) placed at random on a k = 16 fat-tree,
// 307,080 flows, 8,559 events. Found by random mixes at k = 16 (the k = 6/8
// mixes of flow_local_test.cpp never hit it): a version that checked a
// member of the re-solved set only while its rate stayed at or above the
// lowest finishing rate left a member an intermediate round had pushed below
// it unchecked, and its finish times moved by up to 6.0e-4 relative against
// the suffix solve. The model with local re-solves must match the model
// without them (itself matched to the from-scratch reference by
// flow_model_reference_test.cpp) to 1e-9 on every start rate and finish time.
// In the Release tree alone (tests/CMakeLists.txt): 13 s there.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "sim/config/config.h"
#include "sim/model/flow_model.h"
#include "sim/model/simulation.h"

namespace flow_local_k16_test {

using namespace ecmpsim;

constexpr const char* kMix = R"([fabric]
kind = "fat-tree"
k = 16
host_speed_gbps = 400
fabric_speed_gbps = 100
[[job]]
collective = "ring-allreduce"
nodes = 509
placement = "random"
seed = 561
message_bytes = 48750000
channels = 4
[[job]]
collective = "alltoall"
nodes = 311
placement = "random"
seed = 517
message_bytes = 41250000
channels = 2
[[job]]
collective = "alltoall"
nodes = 168
placement = "random"
seed = 472
message_bytes = 19500000
channels = 4
[[scenario]]
name = "ecmp"
[scenario.hash]
algo = "crc16-ccitt"
seed = 21
)";

double relative(double a, double b) {
  if (std::isinf(a) || std::isinf(b)) return a == b ? 0 : 1;
  const double scale = std::max(std::abs(a), std::abs(b));
  return scale == 0 ? 0 : std::abs(a - b) / scale;
}

TEST_CASE("local re-solve = suffix re-solve on a k = 16 three-job mix (307,080 flows)") {
  const Simulation sim(parse_config(kMix, "mix.toml"));
  const ScenarioResult r = sim.run(sim.spec().scenarios.front(), {.model = false});
  std::vector<Gbps> cap;
  for (const auto& link : sim.fabric().links()) cap.push_back(link.speed);
  const FlowNetwork net{cap, sim.flows().bytes, r.trace.path_begin, r.trace.path_links, r.trace.split_fraction};
  FlowModel local, suffix(kScanLinks, false);
  FlowTimes a, b;
  local.run(net, a);
  suffix.run(net, b);
  REQUIRE(a.finish.size() == 307'080);
  REQUIRE(b.finish.size() == a.finish.size());
  double worst = 0;
  for (std::size_t f = 0; f < a.finish.size(); ++f) {
    worst = std::max(worst, relative(a.finish[f].value, b.finish[f].value));
    worst = std::max(worst, relative(a.start_rate[f].value, b.start_rate[f].value));
  }
  CAPTURE(worst);
  CHECK(worst <= 1e-9);
  // The local path must carry most events, or this compares the suffix with itself.
  MESSAGE(a.local << " of " << a.events << " events solved locally");
  CHECK(a.local * 2 >= a.events);
}

}  // namespace flow_local_k16_test
