#include <doctest/doctest.h>

#include <cmath>

#include "sim/emulate/emulate.h"
#include "tests/support/fabrics.h"

namespace emulate_time_test {

using namespace ecmpsim;

namespace {

// 2 leaves x 2 spines, 1 host per leaf, 100 Gb/s everywhere; links host0-leaf0
// 0/1, host1-leaf1 2/3, leaf0-spine0 4/5, leaf0-spine1 6/7, leaf1-spine0 8/9,
// leaf1-spine1 10/11.
Fabric small() { return test_support::leaf_spine(2, 2, 1); }

// One flow host0 -> host1 over spine0: links 0, 4, 9, 3.
Trace one_path() {
  Trace t;
  t.path_begin = {0, 4};
  t.path_links = {0, 4, 9, 3};
  return t;
}

}  // namespace

TEST_CASE("--scale reads 1/N or a number in (0, 1]") {
  CHECK(parse_scale("1/40000") == doctest::Approx(2.5e-5));
  CHECK(parse_scale("2.5e-5") == doctest::Approx(2.5e-5));
  CHECK(parse_scale("1") == doctest::Approx(1.0));
  CHECK_FALSE(parse_scale("0"));
  CHECK_FALSE(parse_scale("2"));
  CHECK_FALSE(parse_scale("1/0"));
  CHECK_FALSE(parse_scale("1/0.5"));
  CHECK_FALSE(parse_scale("1/40000x"));
  CHECK_FALSE(parse_scale("-1"));
  CHECK_FALSE(parse_scale("ten"));
  CHECK(scale_text(2.5e-5) == "1/40000");
  CHECK(scale_text(5e-6) == "1/200000");
  CHECK(scale_text(1.0 / 19500.4) == "1/19500");
  CHECK(scale_text(0.3) == "0.3");
  CHECK(scale_text(1) == "1");
}

TEST_CASE("the load: every link carrying a flow busy at its shaped rate, plus one ACK per two segments") {
  const Fabric f = small();
  // 4 links at 100 Gb/s x 1e-4 = 10 Mb/s of payload, 10e6 / (8 x 1448) frames/s each, x 1.5.
  const double frames = 10e6 / (8.0 * 1448);
  CHECK(packet_load(f, one_path(), 1e-4) == doctest::Approx(4 * frames * 1.5).epsilon(1e-6));
  // The scale that fits a budget is proportional to it.
  const double at_one = 4 * 100e9 / (8.0 * 1448) * 1.5;
  CHECK(max_scale(f, one_path(), 1000) == doctest::Approx(1000 / at_one).epsilon(1e-6));
  CHECK(max_scale(f, one_path(), 1e30) == 1.0);
}

TEST_CASE("the default scale: the fastest link at 10 Mb/s, halved in 1-2-5 steps until half the budget holds it") {
  const Fabric f = small();
  const double frames = 10e6 / (8.0 * 1448) * 4 * 1.5;  // the load at 1e-4 (10 Mb/s)
  // Budget twice that load: 1e-4 fits.
  CHECK(choose_scale(f, one_path(), 2 * frames + 1) == doctest::Approx(1e-4));
  // A little less: one step down, 1e-4 / 2 (5 Mb/s).
  CHECK(choose_scale(f, one_path(), 2 * frames - 1) == doctest::Approx(5e-5));
  // Under a quarter: two steps, 1e-4 / 5 (2 Mb/s); a fifth: three, 1e-4 / 10; less: 1e-4 / 20.
  CHECK(choose_scale(f, one_path(), 0.5 * frames - 1) == doctest::Approx(2e-5));
  CHECK(choose_scale(f, one_path(), 0.2 * frames + 1) == doctest::Approx(1e-5));
  CHECK(choose_scale(f, one_path(), 0.2 * frames - 1) == doctest::Approx(5e-6));
  // Whatever it chooses fits half the budget.
  for (double budget : {1e3, 3.3e4, 7.7e5}) {
    const double s = choose_scale(f, one_path(), budget);
    CHECK(packet_load(f, one_path(), s) <= budget / 2);
  }
}

TEST_CASE("timed agreement needs every flow finished, on its path, and the slowdown within tolerance") {
  TimeReport t;
  t.bytes = {1000, 1000};
  t.finished = 2;
  t.tolerance = 0.15;
  t.relative_error = 0.149;
  CHECK(t.agree());
  t.relative_error = -0.151;
  CHECK_FALSE(t.agree());
  t.relative_error = 0.0;
  t.tcp_paths_checked = true;
  t.tcp_paths_agree = 1;
  CHECK_FALSE(t.agree());
  t.tcp_paths_agree = 2;
  CHECK(t.agree());
  t.finished = 1;
  CHECK_FALSE(t.agree());
  t.finished = 2;
  t.relative_error = std::nan("");
  CHECK_FALSE(t.agree());
  t.relative_error = 0.0;
  t.skipped = "no path";
  CHECK_FALSE(t.agree());
}
}  // namespace emulate_time_test
