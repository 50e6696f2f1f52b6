// The calibration fit (sim/model/calibrate.h) on tables whose parameters are
// known: made by NCCL's cost model at chosen nic_efficiency, ceiling and
// latencyInter, the fit must find them with a bootstrap interval around them;
// a parameter the table cannot see is flagged as such, and a table faster
// than the fabric pins nic_efficiency at 1 with the cause the job's
// context points to. Negative controls: a table of other parameters is fitted
// elsewhere, and a fit inside its range carries no cause.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "sim/base/error.h"
#include "sim/model/calibrate.h"

namespace calibrate_fit_test {

using namespace ecmpsim;

namespace {

// nodes x 8 GPUs, 8 search channels, ring network `net` GB/s, ceiling 370.8, NCCL 2.23.4, no GPU profile.
NcclComm comm(std::uint32_t nodes, double net) {
  NcclComm c{NcclColl::AllReduce, nodes * 8, nodes, 8, 16, net, NcclHost{}};
  c.host.intra_busbw = 370.8;
  c.version = {2, 23, 4};
  return c;
}

// An all-reduce table, 8 B to 1 GiB in steps of x4, whose times NCCL's model
// gives at `params` on `c` (busbw as nccl-tests prints it: size / time x 2 (n-1) / n).
NcclTestsTable table_at(const NcclComm& c, const std::array<double, 3>& params) {
  NcclTestsTable t;
  t.source = "made.txt";
  t.test = "all_reduce_perf";
  for (std::uint64_t s = 8; s <= (1ULL << 30); s *= 4) t.rows.push_back({s, s / 4, {1, 1}, {0, 0}, {0, 0}, 0});
  const CalibrationOptions o;
  const auto rows = predict_rows(c, t, o, params);
  const double n = c.ranks;
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    t.rows[i].time_us[0] = t.rows[i].time_us[1] = rows[i].predicted_us;
    t.rows[i].busbw_gbs[0] = static_cast<double>(t.rows[i].size) / (1000 * rows[i].predicted_us) * 2 * (n - 1) / n;
  }
  return t;
}

CalibrationOptions quick() {
  CalibrationOptions o;
  o.resamples = 20;
  return o;
}

}  // namespace

TEST_CASE("the fit finds the parameters that made the table, each inside its bootstrap interval") {
  // 4 nodes, ring network 100 GB/s: at nic_efficiency 0.7 the network gives
  // 70 GB/s, under the ceiling 370.8, which the table never reaches.
  const NcclComm c = comm(4, 100);
  const NcclTestsTable t = table_at(c, {0.7, 370.8, 6.0});
  const CalibrationFit fit = calibrate(c, t, quick());
  const FittedParam& eff = fit[CalibParam::Efficiency];
  const FittedParam& lat = fit[CalibParam::Latency];
  const FittedParam& cap = fit[CalibParam::Ceiling];
  CHECK(eff.value == doctest::Approx(0.7).epsilon(1e-4));
  CHECK(lat.value == doctest::Approx(6.0).epsilon(1e-3));
  // Exact data: every resample finds the same point, up to the refinement's step.
  CHECK(eff.lo <= 0.7 + 1e-3);
  CHECK(eff.hi >= 0.7 - 1e-3);
  CHECK(eff.hi - eff.lo < 2e-3);
  CHECK(lat.hi - lat.lo < 0.2);
  CHECK(eff.bound == Bound::None);
  CHECK(eff.constrains);
  CHECK(fit.resamples == 20);
  // The ceiling: not reached, so it stays at the hardware's figure and says so.
  CHECK(cap.value == doctest::Approx(370.8));
  CHECK(cap.bound == Bound::Upper);
  CHECK_FALSE(cap.constrains);
  // Every algorithm's busbw is min(network x 0.7, ceiling) here: any ceiling
  // from 100 x 0.7 = 70 GB/s up predicts alike; the efficiency is pinned.
  CHECK(cap.alike_lo == doctest::Approx(70).epsilon(1e-4));
  CHECK(cap.alike_hi == doctest::Approx(370.8));
  CHECK(eff.alike_lo == doctest::Approx(0.7).epsilon(1e-4));
  CHECK(eff.alike_hi == doctest::Approx(0.7).epsilon(1e-4));
  CHECK(std::abs(fit.rows.back().error) < 1e-4);
  const auto causes = bound_causes(fit, t, quick(), {4, 8, 8, false, 400, 100});
  CHECK(causes[0].empty());
  CHECK(causes[1] == "not reached: the network limits every size");
  CHECK(causes[2].empty());
  // Negative control: a table made at 0.5 and 20 us is fitted there, not at 0.7 and 6.
  const CalibrationFit other = calibrate(c, table_at(c, {0.5, 370.8, 20.0}), quick());
  CHECK(other[CalibParam::Efficiency].value == doctest::Approx(0.5).epsilon(1e-4));
  CHECK(other[CalibParam::Latency].value == doctest::Approx(20.0).epsilon(1e-3));
}

TEST_CASE("one node: the ceiling is fitted, the network's parameters are flagged as unseen") {
  // No byte crosses the network: busBw = the ceiling, 200 GB/s.
  const NcclComm c = comm(1, std::numeric_limits<double>::infinity());
  const NcclTestsTable t = table_at(c, {1.0, 200.0, 0.0});
  const CalibrationFit fit = calibrate(c, t, quick());
  CHECK(fit[CalibParam::Ceiling].value == doctest::Approx(200).epsilon(1e-4));
  CHECK(fit[CalibParam::Ceiling].bound == Bound::None);
  CHECK(fit[CalibParam::Ceiling].constrains);
  CHECK_FALSE(fit[CalibParam::Efficiency].constrains);
  CHECK_FALSE(fit[CalibParam::Latency].constrains);
  // Unseen, they keep NCCL's own values, and every value of their ranges fits alike.
  CHECK(fit[CalibParam::Efficiency].value == 1);
  CHECK(fit[CalibParam::Efficiency].alike_lo == doctest::Approx(kMinEfficiency));
  CHECK(fit[CalibParam::Latency].value == 0);
  CHECK(fit[CalibParam::Latency].alike_hi == doctest::Approx(kMaxLatencyUs));
  const auto causes = bound_causes(fit, t, quick(), {1, 8, 8, false, 400, 0});
  CHECK(causes[0] == "no network traffic: the table does not constrain it");
  CHECK(causes[1].empty());  // 200 of 370.8 GB/s: over half the hardware's, no flag
  CHECK(causes[2] == "no network step: the table does not constrain it");
  // A ceiling under half the hardware's figure is flagged: 100 / 370.8 = 27%.
  const NcclTestsTable low = table_at(c, {1.0, 100.0, 0.0});
  const CalibrationFit low_fit = calibrate(c, low, quick());
  CHECK(low_fit[CalibParam::Ceiling].value == doctest::Approx(100).epsilon(1e-4));
  CHECK(bound_causes(low_fit, low, quick(), {1, 8, 8, false, 400, 0})[1] ==
        "27% of the hardware's 371 GB/s: more likely what the model lacks at the sizes it bounds than the host");
}

TEST_CASE("a table faster than the fabric: nic_efficiency at 1, with the likeliest cause") {
  // Made on a 100 GB/s network, fitted on one of 50: the fit would want 2.
  const NcclTestsTable t2 = table_at(comm(2, 100), {1.0, 370.8, 0.0});
  const CalibrationFit fit = calibrate(comm(2, 50), t2, quick());
  REQUIRE(fit[CalibParam::Efficiency].bound == Bound::Upper);
  CHECK(fit[CalibParam::Efficiency].value == 1);
  // The 1 GiB row's busbw: 2^30 B / time x 2 x 15/16; the table's largest.
  const double busbw = t2.rows.back().busbw_gbs[0];
  CHECK(busbw > 50);
  const std::string gb = std::to_string(std::lround(busbw)) + " GB/s";
  // Channels that leave by 2 of the node's 16 NICs come first (issue 44's A100 cluster).
  CHECK(bound_causes(fit, t2, quick(), {2, 16, 2, false, 200, 50})[0] ==
        "channels use 2 of 16 NICs: set gpu (or search_channels as NCCL's log shows)");
  CHECK(busbw < 100);
  CHECK(bound_causes(fit, t2, quick(), {2, 8, 8, false, 50, 50})[0] ==
        "2-node Tree/NVLS exceeds line rate (busbw " + gb + ", the NICs' 50 GB/s): set gpu");
  CHECK(bound_causes(fit, t2, quick(), {2, 8, 8, true, 50, 50})[0] ==
        "2-node Tree/NVLS exceeds line rate (busbw " + gb + ", the NICs' 50 GB/s): NVLS or CollNet across nodes "
        "(sharp, collnet)?");
  // Under the NICs' line rate (an NVLink domain's many NICs) but over the routed ring's.
  CHECK(bound_causes(fit, t2, quick(), {2, 8, 8, true, 400, 50})[0] ==
        "2-node Tree/NVLS exceeds the routed ring (busbw " + gb + ", the routed 50 GB/s): NVLS or CollNet across "
        "nodes (sharp, collnet)?");
  CHECK(bound_causes(fit, t2, quick(), {4, 8, 8, false, 400, 50})[0] ==
        "busbw " + gb + " exceeds the routed fabric's 50 GB/s: check host_speed_gbps, nics_per_node and the scenario");
}

TEST_CASE("sizes of 1 MiB and more only: no latency to fit") {
  const NcclComm c = comm(4, 100);
  const NcclTestsTable t = table_at(c, {0.7, 370.8, 6.0});
  CalibrationOptions o = quick();
  o.fit_min = 1 << 20;
  const CalibrationFit fit = calibrate(c, t, o);
  CHECK(fit[CalibParam::Efficiency].value == doctest::Approx(0.7).epsilon(1e-3));
  CHECK(bound_causes(fit, t, o, {4, 8, 8, false, 400, 100})[2] == "no latency below 1 MiB to fit");
  // Negative control: with the small sizes in, the latency is fitted and carries no cause.
  CHECK(bound_causes(calibrate(c, t, quick()), t, quick(), {4, 8, 8, false, 400, 100})[2].empty());
  // Three sizes at least.
  o.fit_min = 1ULL << 29;
  CHECK_THROWS_AS(calibrate(c, t, o), InputError);
}

}  // namespace calibrate_fit_test
