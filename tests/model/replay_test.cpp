// `replay` on hand-made traces whose answers follow from the fabric: groups
// on disjoint links replayed together take what each takes alone; groups
// sharing an uplink are slower together than staggered; a collective alone
// is what `run` predicts for the same collective.
#include <doctest/doctest.h>

#include <cmath>

#include "sim/config/config.h"
#include "sim/model/replay.h"
#include "sim/model/simulation.h"
#include "tests/support/trace_builder.h"
#include "workloads/traces/join.h"
#include "workloads/traces/pytorch_trace.h"

namespace replay_test {

using namespace ecmpsim;

namespace {

// Four leaves of two hosts, one GPU and one 400G NIC per host, 400G uplinks
// to two spines: hosts 0,1 on leaf 0, 2,3 on leaf 1, ...
constexpr std::string_view kFourLeaves = R"(
[fabric]
leaves = 4
spines = 2
hosts_per_leaf = 2
host_speed_gbps = 400
fabric_speed_gbps = 400
[workload]
nodes = 8
channels = 1
message_bytes = "1GiB"
[[scenario]]
name = "ecmp"
[scenario.hash]
algo = "crc16-ccitt"
)";

// Two leaves of two hosts and one spine: every flow between the leaves
// crosses the one 400G uplink of its leaf.
constexpr std::string_view kOneSpine = R"(
[fabric]
leaves = 2
spines = 1
hosts_per_leaf = 2
host_speed_gbps = 400
fabric_speed_gbps = 400
[workload]
nodes = 4
channels = 1
message_bytes = "1GiB"
[[scenario]]
name = "ecmp"
)";

HandKernel allreduce(const std::string& group, const std::string& ranks, std::uint64_t nelems, double ts) {
  HandKernel k;
  k.name = "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)";
  k.group = group;
  k.ranks = ranks;
  k.in_nelems = nelems;
  k.ts = ts;
  k.dur = 1000;
  return k;
}

workloads::CommTrace join(const std::vector<std::pair<std::uint32_t, std::vector<HandKernel>>>& ranks) {
  std::vector<workloads::RankTrace> traces;
  for (const auto& [rank, kernels] : ranks)
    traces.push_back(workloads::read_pytorch_trace(hand_trace(rank, kernels), "rank" + std::to_string(rank) + ".json"));
  return workloads::join_traces(std::move(traces), {}, {});
}

const ReplayRow& row(const ReplayReport& r, const std::string& group) {
  for (const ReplayRow& c : r.scenarios.front().collectives)
    if (r.groups[c.group] == group) return c;
  FAIL("no collective of group " << group);
  return r.scenarios.front().collectives.front();
}

constexpr std::uint64_t kNelems = 1ULL << 26;  // 256 MiB of floats

}  // namespace

TEST_CASE("two groups on disjoint leaves replayed together take what each takes alone") {
  const Spec spec = parse_config(kFourLeaves, "four-leaves.toml");
  // Group a: hosts 0 and 2 (leaves 0, 1); group b: hosts 4 and 6 (leaves 2, 3).
  const auto trace = join({{0, {allreduce("a", "[0, 2]", kNelems, 0)}},
                           {2, {allreduce("a", "[0, 2]", kNelems, 0)}},
                           {4, {allreduce("b", "[4, 6]", kNelems, 0)}},
                           {6, {allreduce("b", "[4, 6]", kNelems, 0)}}});
  const ReplayReport r = replay(spec, trace);
  REQUIRE(r.scenarios.size() == 1);
  REQUIRE(r.scenarios[0].collectives.size() == 2);
  for (const char* g : {"a", "b"}) {
    const ReplayRow& c = row(r, g);
    REQUIRE(c.predicted_us);
    REQUIRE(c.alone_us);
    CHECK(c.flows == 2);
    CHECK(*c.predicted_us == doctest::Approx(*c.alone_us).epsilon(1e-12));
    // A 2-rank ring all-reduce sends S * 2(n-1)/n = S each way at 400 Gb/s.
    CHECK(*c.alone_us == doctest::Approx(kNelems * 4 * 8 / 400e9 * 1e6).epsilon(1e-9));
  }
}

TEST_CASE("two groups sharing an uplink are slower together than staggered") {
  const Spec spec = parse_config(kOneSpine, "one-spine.toml");
  // Group a: hosts 0 (leaf 0) and 2 (leaf 1); group b: hosts 1 (leaf 0) and 3 (leaf 1).
  const double alone_us = kNelems * 4 * 8 / 400e9 * 1e6;
  const auto run_at = [&](double b_start) {
    const auto trace = join({{0, {allreduce("a", "[0, 2]", kNelems, 0)}},
                             {2, {allreduce("a", "[0, 2]", kNelems, 0)}},
                             {1, {allreduce("b", "[1, 3]", kNelems, b_start)}},
                             {3, {allreduce("b", "[1, 3]", kNelems, b_start)}}});
    return replay(spec, trace);
  };
  const ReplayReport together = run_at(0);
  const ReplayReport staggered = run_at(2 * alone_us);
  for (const char* g : {"a", "b"}) {
    CHECK(*row(together, g).alone_us == doctest::Approx(alone_us).epsilon(1e-9));
    // Both groups' flows halve the one uplink each way: twice the time.
    CHECK(*row(together, g).predicted_us == doctest::Approx(2 * alone_us).epsilon(1e-9));
    CHECK(*row(staggered, g).predicted_us == doctest::Approx(alone_us).epsilon(1e-9));
  }
  // Half-overlapped: b starts when a is half done; a's first half ran alone.
  const ReplayReport half = run_at(alone_us / 2);
  CHECK(*row(half, "a").predicted_us == doctest::Approx(1.5 * alone_us).epsilon(1e-9));
  CHECK(*row(half, "b").predicted_us == doctest::Approx(1.5 * alone_us).epsilon(1e-9));
}

TEST_CASE("a rank map moves ranks: the two groups each within a leaf no longer share the uplink") {
  const Spec spec = parse_config(kOneSpine, "one-spine.toml");
  const double alone_us = kNelems * 4 * 8 / 400e9 * 1e6;
  const auto trace = join({{0, {allreduce("a", "[0, 2]", kNelems, 0)}},
                           {2, {allreduce("a", "[0, 2]", kNelems, 0)}},
                           {1, {allreduce("b", "[1, 3]", kNelems, 0)}},
                           {3, {allreduce("b", "[1, 3]", kNelems, 0)}}});
  ReplayOptions options;
  options.rank_map = {std::pair{std::string("host0"), 0u}, std::pair{std::string("host2"), 0u},
                      std::pair{std::string("host1"), 0u}, std::pair{std::string("host3"), 0u}};
  const ReplayReport r = replay(spec, trace, options);
  for (const char* g : {"a", "b"}) CHECK(*row(r, g).predicted_us == doctest::Approx(alone_us).epsilon(1e-9));
  // Without the map (the control), ranks in order: both groups cross the uplinks, twice as long.
  const ReplayReport in_order = replay(spec, trace);
  CHECK(*row(in_order, "a").predicted_us == doctest::Approx(2 * alone_us).epsilon(1e-9));
  options.rank_map[3] = std::pair{std::string("host9"), 0u};
  CHECK_THROWS_WITH_AS(replay(spec, trace, options), "no node named 'host9' in the fabric", InputError);
}

TEST_CASE("a collective replayed alone is what run predicts for it") {
  const Spec spec = parse_config(kFourLeaves, "four-leaves.toml");
  // The config's job: a ring all-reduce of 1 GiB on all 8 nodes, 1 channel.
  std::string ranks = "[0, 1, 2, 3, 4, 5, 6, 7]";
  std::vector<std::pair<std::uint32_t, std::vector<HandKernel>>> traced;
  HandKernel k = allreduce("world", ranks, (1ULL << 30) / 4, 0);
  k.group_size = 8;
  for (std::uint32_t r = 0; r < 8; ++r) traced.push_back({r, {k}});
  const ReplayReport r = replay(spec, join(traced));
  const Simulation sim(spec);
  const ScenarioResult run = sim.run(spec.scenarios.front());
  const ReplayRow& c = r.scenarios.front().collectives.front();
  CHECK(c.flows == sim.flows().size());
  CHECK(*c.predicted_us == doctest::Approx(run.predicted.jobs[0].completion.value * 1e6).epsilon(1e-12));
  CHECK(*c.alone_us == doctest::Approx(run.predicted.jobs[0].completion.value * 1e6).epsilon(1e-12));
}

TEST_CASE("kernel names give the algorithm and protocol") {
  workloads::TraceKernel k;
  workloads::parse_kernel_name("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)", k);
  CHECK(k.algo == workloads::NcclAlgo::Ring);
  CHECK(k.proto == workloads::NcclProto::LL);
  workloads::TraceKernel t;
  workloads::parse_kernel_name("ncclDevKernel_AllReduce_TREE_LL128(ncclDevComm*)", t);
  CHECK(t.algo == workloads::NcclAlgo::Tree);
  CHECK(t.proto == workloads::NcclProto::LL128);
  workloads::TraceKernel n;
  workloads::parse_kernel_name("ncclDevKernel_AllReduce_NVLS_TREE_SIMPLE", n);
  CHECK(!n.algo);  // NVLS_TREE is not Tree
  CHECK(n.algo_name == "NVLS");
  workloads::TraceKernel g;
  workloads::parse_kernel_name("ncclDevKernel_Generic(ncclDevComm*)", g);
  CHECK(!g.algo);
  CHECK(!g.proto);
}

TEST_CASE("bad traces are refused naming the file and the cause") {
  CHECK_THROWS_WITH_AS(workloads::read_pytorch_trace("{\"traceEvents\": 3}", "t.json"),
                       "traceEvents is not a list of events", InputError);
  CHECK_THROWS_AS(workloads::read_pytorch_trace("{not json", "t.json"), InputError);
  // Events whose cat or name is not text are not kernels (the fuzzer's find:
  // json's value() threw a type_error past the InputError handlers).
  const auto odd = workloads::read_pytorch_trace(R"({"traceEvents": [{"cat": 5, "name": 7, "ts": 1, "dur": 2}]})", "t.json");
  CHECK(odd.kernels.empty());
  CHECK(odd.compute.empty());
  // Two ranks disagreeing on what collective 0 of group 0 is.
  std::vector<workloads::RankTrace> two;
  two.push_back(workloads::read_pytorch_trace(hand_trace(0, {allreduce("0", "[0, 1]", 100, 0)}), "r0.json"));
  two.push_back(workloads::read_pytorch_trace(hand_trace(1, {allreduce("0", "[0, 1]", 200, 0)}), "r1.json"));
  CHECK_THROWS_AS(workloads::join_traces(std::move(two), {}, {}), InputError);
  // A group listed past 30 ranks with no Flight Recorder dump.
  HandKernel cut = allreduce("big", "[0, 1, ...]", 100, 0);
  cut.group_size = 64;
  std::vector<workloads::RankTrace> one;
  one.push_back(workloads::read_pytorch_trace(hand_trace(0, {cut}), "r0.json"));
  CHECK_THROWS_WITH_AS(workloads::join_traces(one, {}, {}),
                       doctest::Contains("give its membership with --flight-recorder"), InputError);
  // ... which the dump completes: the partial trace replays with a note.
  workloads::TraceGroup big{"big", "", {}, false};
  for (std::uint32_t r = 0; r < 64; ++r) big.ranks.push_back(r);
  const auto joined = workloads::join_traces(one, std::vector{big}, {});
  REQUIRE(joined.groups.size() == 1);
  CHECK(joined.groups[0].ranks.size() == 64);
  REQUIRE(!joined.notes.empty());
  CHECK(joined.notes[0] == "groups completed from membership: 'big' (1 of 64 ranks traced)");
}

}  // namespace replay_test
