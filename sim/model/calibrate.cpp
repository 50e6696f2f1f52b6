// The calibration fit: a 2-D grid over (nic_efficiency, net_latency_us)
// narrowed around its best cell, so the result is the same on every run
// and thread count, with nothing to tune but the ranges.
#include "sim/model/calibrate.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sim/base/error.h"

namespace ecmpsim {

namespace {

constexpr int kCells = 40;   // grid cells per axis and round
constexpr int kRounds = 10;  // each narrows the box to 4 cells around the best

NcclComm with_params(const NcclComm& base, double efficiency, double latency_us) {
  NcclComm c = base;
  c.net_busbw = base.net_busbw * efficiency;
  c.host.net_latency_us = latency_us;
  return c;
}

bool in_fit(const CalibrationOptions& o, std::uint64_t size) { return size >= o.fit_min && size <= o.fit_max; }

double cost(const NcclComm& base, const NcclTestsTable& t, const CalibrationOptions& o, double eff, double lat) {
  const NcclComm c = with_params(base, eff, lat);
  double sum = 0;
  for (const NcclTestsRow& r : t.rows) {
    if (!in_fit(o, r.size)) continue;
    const auto got = nccl_choose(c, r.size, o.algo, o.proto);
    if (!got || !std::isfinite(got->time_us)) return std::numeric_limits<double>::infinity();
    const double e = std::log(got->time_us / r.time_us[0]);
    sum += e * e;
  }
  return sum;
}

}  // namespace

std::vector<CalibrationRow> predict_rows(const NcclComm& base, const NcclTestsTable& table,
                                         const CalibrationOptions& o, double efficiency, double latency_us) {
  const NcclComm c = with_params(base, efficiency, latency_us);
  std::vector<CalibrationRow> out;
  for (const NcclTestsRow& r : table.rows) {
    const auto got = nccl_choose(c, r.size, o.algo, o.proto);
    if (!got) continue;
    out.push_back({r.size, r.time_us[0], got->time_us, got->time_us / r.time_us[0] - 1, got->algo, got->proto,
                   in_fit(o, r.size)});
  }
  return out;
}

CalibrationFit calibrate(const NcclComm& base, const NcclTestsTable& table, const CalibrationOptions& o) {
  const auto fitted = std::count_if(table.rows.begin(), table.rows.end(), [&](const NcclTestsRow& r) { return in_fit(o, r.size); });
  if (fitted < 2)
    throw InputError(option_at("fit_sizes", table.source),
                     "only " + std::to_string(fitted) + " of the table's sizes in the fit range; two parameters need at least 2");
  double lo[2] = {kMinEfficiency, 0}, hi[2] = {1, kMaxLatencyUs};
  double best[2] = {1, 0};
  for (int round = 0; round < kRounds; ++round) {
    double best_cost = std::numeric_limits<double>::infinity();
    const double step[2] = {(hi[0] - lo[0]) / kCells, (hi[1] - lo[1]) / kCells};
    for (int j = 0; j <= kCells; ++j)
      for (int i = 0; i <= kCells; ++i) {
        const double eff = lo[0] + i * step[0], lat = lo[1] + j * step[1];
        const double c = cost(base, table, o, eff, lat);
        if (c < best_cost) best_cost = c, best[0] = eff, best[1] = lat;
      }
    lo[0] = std::max(kMinEfficiency, best[0] - 2 * step[0]), hi[0] = std::min(1.0, best[0] + 2 * step[0]);
    lo[1] = std::max(0.0, best[1] - 2 * step[1]), hi[1] = std::min(kMaxLatencyUs, best[1] + 2 * step[1]);
  }
  CalibrationFit fit;
  fit.nic_efficiency = best[0];
  fit.net_latency_us = best[1];
  fit.efficiency_at_bound = best[0] >= 1.0 - 1e-12;
  fit.rows = predict_rows(base, table, o, best[0], best[1]);
  return fit;
}

double median_abs_error(std::span<const CalibrationRow> rows, std::uint64_t lo, std::uint64_t hi) {
  std::vector<double> e;
  for (const CalibrationRow& r : rows)
    if (r.size >= lo && r.size < hi) e.push_back(std::abs(r.error));
  if (e.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(e.begin(), e.end());
  const std::size_t n = e.size();
  return n % 2 == 1 ? e[n / 2] : (e[n / 2 - 1] + e[n / 2]) / 2;
}

}  // namespace ecmpsim
