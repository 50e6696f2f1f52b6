// The size table: lockstep channel times on hand-built paths, nccl-tests'
// size and count arithmetic, and rows whose slowdown comes from the routed
// versus the ideal bus bandwidth. Expected values worked by hand.
#include <doctest/doctest.h>

#include <vector>

#include "sim/model/size_table.h"

namespace size_table_test {

using namespace ecmpsim;

namespace {

// Two nodes A, B with 800G NICs and two 400G spine paths each way:
// links 0 A-up, 1 via s1, 2 via s2, 3 B-down; 4 B-up, 5 s1 back, 6 s2 back, 7 A-down.
const std::vector<Gbps> kCap{Gbps{800}, Gbps{400}, Gbps{400}, Gbps{800},
                             Gbps{800}, Gbps{400}, Gbps{400}, Gbps{800}};

struct Net {
  std::vector<std::uint64_t> bytes;
  std::vector<std::uint32_t> begin{0};
  std::vector<LinkId> links;
  std::vector<std::uint16_t> job, channel;
  void add(std::vector<LinkId> path, std::uint64_t b, std::uint16_t ch) {
    links.insert(links.end(), path.begin(), path.end());
    begin.push_back(static_cast<std::uint32_t>(links.size()));
    bytes.push_back(b);
    job.push_back(0);
    channel.push_back(ch);
  }
  FlowNetwork view() const { return {kCap, bytes, begin, links}; }
};

}  // namespace

TEST_CASE("lockstep: a ring channel runs at its slowest connection") {
  // Each channel: A->B and B->A, 1e9 B = 8 Gbit each.
  Net spread, collided;
  spread.add({0, 1, 3}, 1'000'000'000, 0);
  spread.add({4, 5, 7}, 1'000'000'000, 0);
  spread.add({0, 2, 3}, 1'000'000'000, 1);
  spread.add({4, 6, 7}, 1'000'000'000, 1);
  // Every flow alone on a 400G spine link, NICs 800G shared by two: 8 Gbit / 400 = 20 ms.
  CHECK(lockstep_times(spread.view(), spread.job, spread.channel, 1)[0].value == doctest::Approx(0.02));
  // Channel 1's A->B hashed onto s1 too: both A->B connections get 200G there; the
  // B->A connections could run at 400 but each ring waits for its slow one: 40 ms.
  collided.add({0, 1, 3}, 1'000'000'000, 0);
  collided.add({4, 5, 7}, 1'000'000'000, 0);
  collided.add({0, 1, 3}, 1'000'000'000, 1);
  collided.add({4, 6, 7}, 1'000'000'000, 1);
  CHECK(lockstep_times(collided.view(), collided.job, collided.channel, 1)[0].value == doctest::Approx(0.04));
}

TEST_CASE("lockstep: a smaller connection moves proportionally slower") {
  // One channel: 8 Gbit on s1 and 4 Gbit on s2 (weight 0.5) finish together in 20 ms at 400G.
  Net n;
  n.add({0, 1, 3}, 1'000'000'000, 0);
  n.add({4, 6, 7}, 500'000'000, 0);
  CHECK(lockstep_times(n.view(), n.job, n.channel, 1)[0].value == doctest::Approx(0.02));
  // With nothing to send the job takes no time.
  Net empty;
  CHECK(lockstep_times(empty.view(), empty.job, empty.channel, 1)[0].value == 0);
}

TEST_CASE("nccl-tests' size and count") {
  // all-reduce: count = size / 4.
  CHECK(nccl_tests_size(NcclColl::AllReduce, 16, Bytes{1000}).count == 250);
  CHECK(nccl_tests_size(NcclColl::AllReduce, 16, Bytes{1000}).size.value == 1000);
  // all-gather, 16 ranks: 250 elements / 16 = 15, aligned down to 4 (16 B) = 12; size 12 x 4 x 16 = 768.
  CHECK(nccl_tests_size(NcclColl::AllGather, 16, Bytes{1000}).count == 12);
  CHECK(nccl_tests_size(NcclColl::AllGather, 16, Bytes{1000}).size.value == 768);
}

TEST_CASE("the sweep's sizes as nccl-tests steps them") {
  using workloads::SizeSweep;
  CHECK(workloads::sweep_sizes(SizeSweep{8, 64, 2}) == std::vector<std::uint64_t>{8, 16, 32, 64});
  CHECK(workloads::sweep_sizes(SizeSweep{8, 100, 4}) == std::vector<std::uint64_t>{8, 32});
  CHECK(workloads::sweep_sizes(SizeSweep{}).empty());
}

TEST_CASE("rows: busbw as nccl-tests computes it, slowdown against the ideal fabric") {
  // Routed busbw 25 GB/s (a collision), ideal 50 GB/s; two ranks: busbw = algbw x 2(2-1)/2.
  const NcclComm routed{NcclColl::AllReduce, 2, 2, 2, 4, 25}, ideal{NcclColl::AllReduce, 2, 2, 2, 4, 50};
  const std::vector<Bytes> sizes{Bytes{8}, Bytes{1ULL << 30}};
  const auto rows = size_rows(0, routed, ideal, BusPattern::AllReduce, sizes, {});
  REQUIRE(rows.size() == 2);
  // 8 B: Ring/LL, 16.6 + 8/12500 = 16.60064 us against 16.60032 us.
  CHECK(rows[0].count == 2);
  CHECK(rows[0].time_us == doctest::Approx(16.60064));
  CHECK(rows[0].slowdown == doctest::Approx(16.60064 / 16.60032));
  // 1 GiB: Ring/Simple, 50.96 + 2^30/25000 = 43000.63296 us; algbw 2^30 B / that = 24.97037 GB/s.
  CHECK(rows[1].proto == workloads::NcclProto::Simple);
  CHECK(rows[1].time_us == doctest::Approx(43000.63296));
  CHECK(rows[1].algbw_gbs == doctest::Approx(24.97037).epsilon(1e-6));
  CHECK(rows[1].busbw_gbs == doctest::Approx(rows[1].algbw_gbs));
  CHECK(rows[1].slowdown == doctest::Approx(43000.63296 / 21525.79648));
  // A forced protocol holds at every size.
  workloads::NcclSizes ll;
  ll.proto = workloads::NcclProto::LL;
  CHECK(size_rows(0, routed, ideal, BusPattern::AllReduce, sizes, ll)[1].proto == workloads::NcclProto::LL);
}
}  // namespace size_table_test
