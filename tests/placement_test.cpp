#include <doctest/doctest.h>

#include <vector>

#include "workloads/placement.h"

using namespace ecmpsim::workloads;

TEST_CASE("contiguous and strided placement over ToRs") {
  const std::vector<std::uint32_t> tor_of{0, 0, 0, 1, 1, 1};  // two ToRs of three endpoints
  CHECK(place(Placement::Contiguous, tor_of, 4) == std::vector<std::uint32_t>{0, 1, 2, 3});
  CHECK(place(Placement::Strided, tor_of, 6) == std::vector<std::uint32_t>{0, 3, 1, 4, 2, 5});
  CHECK(place(Placement::Strided, tor_of, 3) == std::vector<std::uint32_t>{0, 3, 1});
}
