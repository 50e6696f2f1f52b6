#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "sim/model/metrics.h"

namespace metrics_test {

using ecmpsim::imbalance;

TEST_CASE("metrics on hand-made load vectors") {
  SUBCASE("perfect balance") {
    const std::vector<double> x{3, 3, 3, 3};
    const auto m = imbalance(x);
    CHECK(m.fim == 0);
    CHECK(m.max_mean == 1);
    CHECK(m.cov == 0);
    CHECK(m.jain == 1);
  }
  SUBCASE("two links, all on one") {
    const std::vector<double> x{2, 0};  // mean 1, |2-1| = |0-1| = 1
    const auto m = imbalance(x);
    CHECK(m.fim == doctest::Approx(1.0));
    CHECK(m.max_mean == doctest::Approx(2.0));
    CHECK(m.cov == doctest::Approx(1.0));
    CHECK(m.jain == doctest::Approx(0.5));  // 4 / (2 * 4)
  }
  SUBCASE("4, 2, 0, 2") {
    const std::vector<double> x{4, 2, 0, 2};  // mean 2; MAD (2+0+2+0)/4 = 1; var (4+0+4+0)/4 = 2
    const auto m = imbalance(x);
    CHECK(m.mean == 2);
    CHECK(m.fim == doctest::Approx(0.5));
    CHECK(m.max_mean == doctest::Approx(2.0));
    CHECK(m.cov == doctest::Approx(std::sqrt(2.0) / 2));
    CHECK(m.jain == doctest::Approx(64.0 / 96.0));  // 8^2 / (4 * 24)
  }
  SUBCASE("idle fabric and empty vector") {
    const std::vector<double> zeros{0, 0, 0};
    CHECK(imbalance(zeros).fim == 0);
    CHECK(imbalance(zeros).jain == 1);
    CHECK(imbalance({}).links == 0);
  }
}
}  // namespace metrics_test
