#include "hashing/select.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

namespace select_test {

namespace h = ecmpsim::hashing;

TEST_CASE("selection names round-trip") {
  for (auto s : {h::Selection::Modulo, h::Selection::Threshold, h::Selection::Resilient})
    CHECK(h::parse_selection(h::selection_name(s)) == s);
  CHECK_FALSE(h::parse_selection("hrw").has_value());
}

TEST_CASE("window: keep `bits` bits, rotated right by the offset within that width") {
  CHECK(h::window(0xABCD, 16, 0) == 0xABCD);
  CHECK(h::window(0x1ABCD, 16, 0) == 0xABCD);   // bits above the width are dropped
  CHECK(h::window(0xABCD, 16, 4) == 0xDABC);    // SONiC offset: rotate right
  CHECK(h::window(0xABCD, 16, 20) == 0xDABC);   // offset taken modulo the width
  CHECK(h::window(0x80000001, 32, 1) == 0xC0000000);
  CHECK(h::window(0x1, 31, 1) == 0x40000000);
  CHECK(h::window(0x0123456789ABCDEFULL, 64, 8) == 0xEF0123456789ABCDULL);
}

TEST_CASE("modulo selection") {
  CHECK(h::select_modulo(10, 4) == 2);
  CHECK(h::select_modulo(0xFFFF, 3) == 0);
}

TEST_CASE("threshold bounds follow fib_rebalance: round(W_i * 2^31 / W) - 1") {
  // By hand: 2^31 = 2147483648.
  const std::vector<std::uint32_t> two{1, 1};
  CHECK(h::threshold_bounds(two, 31) == std::vector<std::uint64_t>{1073741823, 2147483647});
  // 2^31/3 = 715827882.67 -> 715827883; 2*2^31/3 = 1431655765.33 -> 1431655765.
  const std::vector<std::uint32_t> three{1, 1, 1};
  CHECK(h::threshold_bounds(three, 31) == std::vector<std::uint64_t>{715827882, 1431655764, 2147483647});
  // Weights 1,3,5,2 (W = 11): 2^31 * {1,4,9,11}/11 = 195225786.18, 780903144.73,
  // 1757032075.64, 2^31 -> rounded, minus one.
  const std::vector<std::uint32_t> weighted{1, 3, 5, 2};
  CHECK(h::threshold_bounds(weighted, 31) ==
        std::vector<std::uint64_t>{195225785, 780903144, 1757032075, 2147483647});
  // 16-bit hashes, 4 members: 16384*i - 1.
  const std::vector<std::uint32_t> four{1, 1, 1, 1};
  CHECK(h::threshold_bounds(four, 16) == std::vector<std::uint64_t>{16383, 32767, 49151, 65535});
}

TEST_CASE("threshold selection: the first member whose bound is >= the hash") {
  const std::vector<std::uint64_t> bounds{715827882, 1431655764, 2147483647};
  CHECK(h::select_threshold(0, bounds) == 0);
  CHECK(h::select_threshold(715827882, bounds) == 0);
  CHECK(h::select_threshold(715827883, bounds) == 1);
  CHECK(h::select_threshold(1431655765, bounds) == 2);
  CHECK(h::select_threshold(2147483647, bounds) == 2);
}

TEST_CASE("resilient buckets: member i owns round(B*W_i/W) - round(B*W_{i-1}/W) buckets") {
  // B = 8, three equal members: edges round(8/3) = 3, round(16/3) = 5, 8.
  const std::vector<std::uint32_t> three{1, 1, 1};
  CHECK(h::resilient_buckets(three, 8) == std::vector<std::uint32_t>{0, 0, 0, 1, 1, 2, 2, 2});
  // Weights 1,3 over 8 buckets: edges 2, 8.
  const std::vector<std::uint32_t> weighted{1, 3};
  CHECK(h::resilient_buckets(weighted, 8) == std::vector<std::uint32_t>{0, 0, 1, 1, 1, 1, 1, 1});
}

TEST_CASE("resilient rebalance: removing a member moves only its buckets") {
  // Four equal members over 8 buckets: 0 0 1 1 2 2 3 3. Member 0 leaves
  // (weight 0): new quotas 0, round(8/3)=3, round(16/3)-3=2, 8-5=3. Members
  // 1-3 keep their buckets; member 0's buckets 0 and 1 go to the members
  // still below quota (1, then 3).
  const std::vector<std::uint32_t> table{0, 0, 1, 1, 2, 2, 3, 3};
  const std::vector<std::uint32_t> without0{0, 1, 1, 1};
  CHECK(h::resilient_rebalance(table, without0) == std::vector<std::uint32_t>{1, 3, 1, 1, 2, 2, 3, 3});
  // Re-layout from scratch would have moved buckets of surviving members.
  const std::vector<std::uint32_t> fresh = h::resilient_buckets(without0, 8);
  CHECK(fresh == std::vector<std::uint32_t>{1, 1, 1, 2, 2, 3, 3, 3});
}

TEST_CASE("resilient rebalance: adding a member takes buckets only from over-quota members") {
  // 0 0 0 1 1 2 2 2 (three equal members) plus a fourth: quotas 2 each.
  // Member 0 keeps buckets 0-1 and frees 2; member 2 keeps 5-6 and frees 7.
  const std::vector<std::uint32_t> table{0, 0, 0, 1, 1, 2, 2, 2};
  const std::vector<std::uint32_t> four{1, 1, 1, 1};
  CHECK(h::resilient_rebalance(table, four) == std::vector<std::uint32_t>{0, 0, 3, 1, 1, 2, 2, 3});
  // Same weights: nothing moves.
  const std::vector<std::uint32_t> three{1, 1, 1};
  CHECK(h::resilient_rebalance(table, three) == table);
}

TEST_CASE("default selection: threshold for the Linux multipath models, modulo otherwise") {
  CHECK(h::default_selection(*h::find("linux-l3")) == h::Selection::Threshold);
  CHECK(h::default_selection(*h::find("linux-l4")) == h::Selection::Threshold);
  CHECK(h::default_selection(*h::find("linux-bond-l34")) == h::Selection::Modulo);
  CHECK(h::default_selection(*h::find("crc16-ccitt")) == h::Selection::Modulo);
}
}  // namespace select_test
