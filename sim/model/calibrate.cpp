// The calibration fit: a 3-D grid over (nic_efficiency, intra_busbw_gbs,
// net_latency_us) narrowed around its best cell, then the same fit on the
// fitted sizes resampled with replacement (a fixed-seed bootstrap), so the
// result is the same on every run and thread count, with nothing to tune but
// the ranges; and the likeliest cause of each parameter's flag.
#include "sim/model/calibrate.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "sim/base/error.h"
#include "workloads/seeded.h"

namespace ecmpsim {

namespace {

using Params = std::array<double, 3>;
constexpr double kInf = std::numeric_limits<double>::infinity();

constexpr int kCells = 16;       // grid cells per axis and round of the fit
constexpr int kRounds = 8;       // each narrows the box to 4 cells around the best
constexpr int kSeedCells = 10;   // the bootstrap's shared coarse grid
constexpr int kRefineCells = 4;  // and each resample's refinement from its best cell
constexpr int kRefineRounds = 4;
constexpr std::uint64_t kSeed = 0xCA11B4A7E5EEDULL;

NcclComm with_params(const NcclComm& base, const Params& p) {
  NcclComm c = scaled_network(base, p[0]);
  c.host.intra_busbw = p[1];
  c.host.net_latency_us = p[2];
  return c;
}

bool in_fit(const CalibrationOptions& o, std::uint64_t size) { return size >= o.fit_min && size <= o.fit_max; }

// The fitted rows' log errors at p (false when a size has no algorithm),
// and their weighted sum of squares.
class Residuals {
 public:
  Residuals(const NcclComm& base, const NcclTestsTable& t, const CalibrationOptions& o) : base_(base), o_(o) {
    for (const NcclTestsRow& r : t.rows)
      if (in_fit(o, r.size)) rows_.push_back(&r);
  }
  std::size_t size() const noexcept { return rows_.size(); }
  bool at(const Params& p, std::vector<double>& e) const {
    const NcclComm c = with_params(base_, p);
    e.resize(rows_.size());
    for (std::size_t i = 0; i < rows_.size(); ++i) {
      const auto got = nccl_choose(c, rows_[i]->size, o_.algo, o_.proto);
      if (!got || !std::isfinite(got->time_us)) return false;
      e[i] = std::log(got->time_us / rows_[i]->time_us[0]);
    }
    return true;
  }
  // Sum of w_i e_i^2 (w: each row's count in the sample).
  double cost(const Params& p, std::span<const double> w) const {
    std::vector<double> e;
    if (!at(p, e)) return kInf;
    double sum = 0;
    for (std::size_t i = 0; i < e.size(); ++i) sum += w[i] * e[i] * e[i];
    return sum;
  }

 private:
  const NcclComm& base_;
  const CalibrationOptions& o_;
  std::vector<const NcclTestsRow*> rows_;
};

struct Box {
  Params lo, hi;
};

// The grid's best point over `rounds` rounds of `cells` cells per axis, each
// round's box 4 cells around the best of the last, clamped to `range`.
// Ceilings are tried from the top: one the sizes never reach ties with every
// higher one and stays at the hardware's figure.
Params grid_fit(const Residuals& res, std::span<const double> w, Box box, const Box& range, int cells, int rounds) {
  Params best = box.hi;
  for (int round = 0; round < rounds; ++round) {
    double best_cost = kInf;
    Params step;
    for (int k = 0; k < 3; ++k) step[k] = (box.hi[k] - box.lo[k]) / cells;
    for (int a = 0; a <= cells; ++a)
      for (int b = cells; b >= 0; --b)
        for (int l = 0; l <= cells; ++l) {
          const Params p{box.lo[0] + l * step[0], box.lo[1] + b * step[1], box.lo[2] + a * step[2]};
          const double c = res.cost(p, w);
          if (c < best_cost) best_cost = c, best = p;
        }
    for (int k = 0; k < 3; ++k) {
      box.lo[k] = std::max(range.lo[k], best[k] - 2 * step[k]);
      box.hi[k] = std::min(range.hi[k], best[k] + 2 * step[k]);
    }
  }
  return best;
}

// The resample's row counts: n draws with replacement from n rows.
std::vector<double> resample(std::size_t n, std::uint32_t b) {
  std::vector<double> w(n, 0);
  for (std::size_t i = 0; i < n; ++i) w[workloads::splitmix64(kSeed ^ (std::uint64_t{b} << 32) ^ i) % n] += 1;
  return w;
}

// Each resample's fit: the best point of a coarse grid shared by all (its
// residuals computed once), refined around it.
std::vector<Params> bootstrap(const Residuals& res, const Box& range, std::uint32_t resamples) {
  std::vector<Params> grid;
  std::vector<std::vector<double>> errors;
  Params step;
  for (int k = 0; k < 3; ++k) step[k] = (range.hi[k] - range.lo[k]) / kSeedCells;
  for (int a = 0; a <= kSeedCells; ++a)
    for (int b = kSeedCells; b >= 0; --b)
      for (int l = 0; l <= kSeedCells; ++l) {
        const Params p{range.lo[0] + l * step[0], range.lo[1] + b * step[1], range.lo[2] + a * step[2]};
        std::vector<double> e;
        if (res.at(p, e)) grid.push_back(p), errors.push_back(std::move(e));
      }
  std::vector<Params> out;
  for (std::uint32_t s = 0; s < resamples && !grid.empty(); ++s) {
    const std::vector<double> w = resample(res.size(), s);
    std::size_t best = 0;
    double best_cost = kInf;
    for (std::size_t g = 0; g < grid.size(); ++g) {
      double c = 0;
      for (std::size_t i = 0; i < w.size(); ++i) c += w[i] * errors[g][i] * errors[g][i];
      if (c < best_cost) best_cost = c, best = g;
    }
    Box box;
    for (int k = 0; k < 3; ++k) {
      box.lo[k] = std::max(range.lo[k], grid[best][k] - step[k]);
      box.hi[k] = std::min(range.hi[k], grid[best][k] + step[k]);
    }
    out.push_back(grid_fit(res, w, box, range, kRefineCells, kRefineRounds));
  }
  return out;
}

// The 5th and 95th percentiles of parameter k over the refits.
std::pair<double, double> interval(const std::vector<Params>& fits, std::size_t k, double value) {
  if (fits.empty()) return {value, value};
  std::vector<double> v;
  for (const Params& p : fits) v.push_back(p[k]);
  std::sort(v.begin(), v.end());
  const double n = static_cast<double>(v.size() - 1);
  return {v[static_cast<std::size_t>(std::floor(0.05 * n))], v[static_cast<std::size_t>(std::ceil(0.95 * n))]};
}

FittedParam describe(const Residuals& res, const Params& best, const Box& range, const std::vector<Params>& fits,
                     std::size_t k) {
  FittedParam f;
  f.value = best[k];
  f.min = range.lo[k];
  f.max = range.hi[k];
  std::tie(f.lo, f.hi) = interval(fits, k, best[k]);
  const double width = f.max - f.min, eps = 1e-6 * width;
  f.bound = best[k] <= f.min + eps ? Bound::Lower : best[k] >= f.max - eps ? Bound::Upper : Bound::None;
  const std::vector<double> ones(res.size(), 1.0);
  const double here = res.cost(best, ones);
  f.constrains = false;
  for (const double d : {-0.05 * width, 0.05 * width}) {
    Params q = best;
    q[k] = std::clamp(best[k] + d, f.min, f.max);
    if (q[k] != best[k] && res.cost(q, ones) != here) f.constrains = true;
  }
  return f;
}

std::string gbs(double v) { return std::to_string(std::lround(v)) + " GB/s"; }

// nic_efficiency at 1: the table is faster than the routed fabric lets the model go.
std::string efficiency_cause(double measured, const CalibrationContext& c) {
  if (c.nics_used < c.nics)
    return "channels use " + std::to_string(c.nics_used) + " of " + std::to_string(c.nics) +
           " NICs: set gpu (or search_channels as NCCL's log shows)";
  if (c.nodes == 2 && measured > c.routed_busbw)
    return "2-node Tree/NVLS exceeds line rate (busbw " + gbs(measured) + ", the NICs' " + gbs(c.line_busbw) + ")" +
           (c.gpu ? ": NVLS or CollNet across nodes (sharp, collnet)?" : ": set gpu");
  return "busbw " + gbs(measured) + " exceeds the routed fabric's " + gbs(c.routed_busbw) +
         ": check host_speed_gbps, nics_per_node and the scenario";
}

}  // namespace

std::vector<CalibrationRow> predict_rows(const NcclComm& base, const NcclTestsTable& table,
                                         const CalibrationOptions& o, const Params& params) {
  const NcclComm c = with_params(base, params);
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
  const Residuals res(base, table, o);
  if (res.size() < 3)
    throw InputError(option_at("fit_sizes", table.source),
                     "only " + std::to_string(res.size()) +
                         " of the table's sizes in the fit range; three parameters need at least 3");
  const double ceiling = std::isfinite(base.host.intra_busbw) ? base.host.intra_busbw : 1e5;
  const Box range{{kMinEfficiency, std::min(kMinCeilingGbs, ceiling), 0}, {1, ceiling, kMaxLatencyUs}};
  const std::vector<double> ones(res.size(), 1.0);
  const Params best = grid_fit(res, ones, range, range, kCells, kRounds);
  const std::vector<Params> fits = bootstrap(res, range, o.resamples);
  CalibrationFit fit;
  for (std::size_t k = 0; k < 3; ++k) fit.params[k] = describe(res, best, range, fits, k);
  fit.resamples = static_cast<std::uint32_t>(fits.size());
  fit.rows = predict_rows(base, table, o, best);
  return fit;
}

std::array<std::string, 3> bound_causes(const CalibrationFit& fit, const NcclTestsTable& table,
                                        const CalibrationOptions& o, const CalibrationContext& c) {
  double measured = 0;
  std::size_t small = 0;
  for (const NcclTestsRow& r : table.rows)
    if (in_fit(o, r.size)) measured = std::max(measured, r.busbw_gbs[0]), small += r.size < (1u << 20);
  std::array<std::string, 3> out;
  const FittedParam& eff = fit[CalibParam::Efficiency];
  if (!eff.constrains)
    out[0] = "no network traffic: the table does not constrain it";
  else if (eff.bound == Bound::Upper)
    out[0] = efficiency_cause(measured, c);
  else if (eff.bound == Bound::Lower)
    out[0] = "the table is over 100 times slower than the routed fabric: is the config the cluster it ran on?";
  const FittedParam& cap = fit[CalibParam::Ceiling];
  if (!cap.constrains)
    out[1] = cap.bound == Bound::Upper ? "not reached: the network limits every size" : "the table does not constrain it";
  else if (cap.bound == Bound::Upper)
    out[1] = "the table wants more than the hardware's " + gbs(cap.max) + " inside a node: check gpu and intra";
  else if (cap.bound == Bound::Lower)
    out[1] = "the table is slower than " + gbs(cap.min) + " inside a node";
  const FittedParam& lat = fit[CalibParam::Latency];
  if (small == 0)
    out[2] = "no latency below 1 MiB to fit";
  else if (!lat.constrains)
    out[2] = "no network step: the table does not constrain it";
  else if (lat.bound == Bound::Lower)
    out[2] = "NCCL's own latencies exceed the measured times at small sizes";
  else if (lat.bound == Bound::Upper)
    out[2] = "small sizes take over 100 us more per network step than NCCL's latencies: launch or proxy overhead";
  return out;
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
