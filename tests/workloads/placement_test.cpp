#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "workloads/generators/placement.h"

namespace placement_test {

using namespace ecmpsim::workloads;

TEST_CASE("contiguous and strided placement over ToRs") {
  const std::vector<std::uint32_t> tor_of{0, 0, 0, 1, 1, 1};  // two ToRs of three nodes
  CHECK(place(Placement::Contiguous, tor_of, 4) == std::vector<std::uint32_t>{0, 1, 2, 3});
  CHECK(place(Placement::Strided, tor_of, 6) == std::vector<std::uint32_t>{0, 3, 1, 4, 2, 5});
  CHECK(place(Placement::Strided, tor_of, 3) == std::vector<std::uint32_t>{0, 3, 1});
}

TEST_CASE("nodes taken by earlier jobs are skipped") {
  const std::vector<std::uint32_t> tor_of{0, 0, 0, 1, 1, 1};
  const std::vector<std::uint8_t> taken{1, 0, 0, 1, 0, 0};
  CHECK(place(Placement::Contiguous, tor_of, 2, 0, taken) == std::vector<std::uint32_t>{1, 2});
  CHECK(place(Placement::Strided, tor_of, 4, 0, taken) == std::vector<std::uint32_t>{1, 4, 2, 5});
}

TEST_CASE("random placement: a seeded choice of distinct free nodes") {
  const std::vector<std::uint32_t> tor_of(64, 0);
  const std::vector<std::uint8_t> taken(64, 0);
  const auto a = place(Placement::Random, tor_of, 64, 7, taken);
  auto sorted = a;
  std::sort(sorted.begin(), sorted.end());
  std::vector<std::uint32_t> all(64);
  for (std::uint32_t i = 0; i < 64; ++i) all[i] = i;
  CHECK(sorted == all);  // a permutation
  CHECK(place(Placement::Random, tor_of, 64, 7, taken) == a);
  CHECK(place(Placement::Random, tor_of, 64, 8, taken) != a);  // 1 in 64! chance of a false failure
  CHECK(a != all);
  CHECK(place(Placement::Random, tor_of, 5, 7, taken) == std::vector<std::uint32_t>(a.begin(), a.begin() + 5));
}
}  // namespace placement_test
