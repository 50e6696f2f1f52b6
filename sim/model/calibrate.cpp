// The calibration fit: a grid over (nic_efficiency, intra_busbw_gbs,
// net_latency_us) narrowed around its best cell and polished by a compass
// search, once with the ceiling at the hardware's figure and once free (the
// free one kept only if it fits clearly better); then the same on the fitted
// sizes resampled with replacement (a fixed-seed bootstrap), so the result
// is the same on every run and thread count; and the likeliest cause of each
// parameter's flag. docs/prediction.md, "Calibration".
#include "sim/model/calibrate.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "sim/base/error.h"
#include "sim/base/splitmix.h"

namespace ecmpsim {

namespace {

using Params = std::array<double, 3>;
constexpr double kUnfit = std::numeric_limits<double>::infinity();

constexpr int kCells = 16;   // grid cells per axis and round of the fit
constexpr int kRounds = 4;   // each narrows the box to 4 cells around the best
constexpr double kPolishStart = 256;        // the compass search's first step: this part of the range
constexpr double kPolishTolerance = 1e-6;   // and its last
constexpr int kPolishEvals = 4000;          // a bound on its cost evaluations
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
    const NcclPrices prices(with_params(base_, p), o_.algo, o_.proto);
    e.resize(rows_.size());
    for (std::size_t i = 0; i < rows_.size(); ++i) {
      const auto got = prices.choose(rows_[i]->size);
      if (!got || !std::isfinite(got->time_us)) return false;
      e[i] = std::log(got->time_us / rows_[i]->time_us[0]);
    }
    return true;
  }
  // Sum of w_i e_i^2 (w: each row's count in the sample).
  double cost(const Params& p, std::span<const double> w) const {
    std::vector<double> e;
    if (!at(p, e)) return kUnfit;
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

// The grid's best point over `rounds` rounds of kCells cells per axis, each
// round's box 4 cells around the best of the last. An axis whose box is one
// point stays there. Ties keep NCCL's own values: efficiencies and ceilings
// are tried from the top, latencies from 0, so a parameter the sizes do not
// see stays at 1, the hardware's figure or 0.
Params grid_fit(const Residuals& res, std::span<const double> w, Box box, int rounds) {
  Params best = box.hi;
  for (int round = 0; round < rounds; ++round) {
    double best_cost = kUnfit;
    Params step;
    std::array<int, 3> cells;
    for (int k = 0; k < 3; ++k) {
      cells[k] = box.hi[k] > box.lo[k] ? kCells : 0;
      step[k] = cells[k] ? (box.hi[k] - box.lo[k]) / cells[k] : 0;
    }
    for (int a = 0; a <= cells[2]; ++a)
      for (int b = cells[1]; b >= 0; --b)
        for (int l = cells[0]; l >= 0; --l) {
          const Params p{box.lo[0] + l * step[0], box.lo[1] + b * step[1], box.lo[2] + a * step[2]};
          const double c = res.cost(p, w);
          if (c < best_cost) best_cost = c, best = p;
        }
    for (int k = 0; k < 3; ++k) {
      box.lo[k] = std::max(box.lo[k], best[k] - 2 * step[k]);
      box.hi[k] = std::min(box.hi[k], best[k] + 2 * step[k]);
    }
  }
  return best;
}

// A compass search from p: each free axis tried a step up and down, the
// first that lowers the cost taken, the steps halved when none does, until
// they are kPolishTolerance of the range. Moves only on a strict
// improvement, so a parameter the sizes do not see stays where it was.
Params polish(const Residuals& res, std::span<const double> w, Params p, const Box& range) {
  Params step;
  for (int k = 0; k < 3; ++k) step[k] = (range.hi[k] - range.lo[k]) / kPolishStart;
  double cost = res.cost(p, w);
  for (int evals = 0; evals < kPolishEvals;) {
    bool moved = false, live = false;
    for (int k = 0; k < 3 && !moved; ++k) {
      if (!(step[k] > kPolishTolerance * (range.hi[k] - range.lo[k]))) continue;
      live = true;
      for (const double d : {step[k], -step[k]}) {
        Params q = p;
        q[k] = std::clamp(p[k] + d, range.lo[k], range.hi[k]);
        if (q[k] == p[k]) continue;
        const double c = res.cost(q, w);
        ++evals;
        if (c < cost) {
          p = q, cost = c, moved = true;
          break;
        }
      }
    }
    if (!live) break;
    if (!moved)
      for (double& s : step) s /= 2;
  }
  return p;
}

// The best point with the ceiling free, unless the ceiling at the
// hardware's figure fits about as well. The free ceiling is one parameter
// more, kept only where the Bayesian information criterion prefers it:
// n ln(cost at the hardware's / cost free) > ln n (the log errors taken as
// Gaussian), and the cut is more than rounding. Without this the ceiling
// and nic_efficiency trade off freely wherever both cap the same bandwidth,
// and a ceiling lowered to fit the table's shape better in sample predicts
// other runs worse (docs/prediction.md, "Calibration").
Params choose(const Residuals& res, std::span<const double> w, const Params& fixed, const Params& free) {
  const double at_max = res.cost(fixed, w), lowered = res.cost(free, w);
  const double n = static_cast<double>(res.size());
  if (!(at_max - lowered > 1e-9 * n)) return fixed;
  return n * std::log(at_max / lowered) > std::log(n) ? free : fixed;
}

struct Starts {
  Params fixed, free;  // the ceiling at the hardware's figure; the ceiling fitted
};

// The resample's row counts: n draws with replacement from n rows.
std::vector<double> resample(std::size_t n, std::uint32_t b) {
  std::vector<double> w(n, 0);
  for (std::size_t i = 0; i < n; ++i) w[splitmix64(kSeed ^ (std::uint64_t{b} << 32) ^ i) % n] += 1;
  return w;
}

// Each resample's fit: both of the full fit's points polished on the
// resampled sizes, then chosen between as the full fit was.
std::vector<Params> bootstrap(const Residuals& res, const Box& range, const Starts& s, std::uint32_t resamples) {
  Box fixed_range = range;
  fixed_range.lo[1] = range.hi[1];
  std::vector<Params> out;
  for (std::uint32_t b = 0; b < resamples; ++b) {
    const std::vector<double> w = resample(res.size(), b);
    out.push_back(choose(res, w, polish(res, w, s.fixed, fixed_range), polish(res, w, s.free, range)));
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

// How far parameter k moves from best toward `end`, the others held,
// before the cost changes (bisection: the flat stretch is taken as one).
double alike_edge(const Residuals& res, const Params& best, std::size_t k, double end) {
  const std::vector<double> ones(res.size(), 1.0);
  const double here = res.cost(best, ones);
  const auto alike = [&](double v) {
    Params q = best;
    q[k] = v;
    const double c = res.cost(q, ones);
    return std::abs(c - here) <= 1e-12 * std::max(1.0, here);
  };
  if (alike(end)) return end;
  double in = best[k], out = end;
  for (int i = 0; i < 40; ++i) {
    const double mid = (in + out) / 2;
    (alike(mid) ? in : out) = mid;
  }
  return in;
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
  f.alike_lo = alike_edge(res, best, k, f.min);
  f.alike_hi = alike_edge(res, best, k, f.max);
  return f;
}

std::string gbs(double v) { return std::to_string(std::lround(v)) + " GB/s"; }

// nic_efficiency at 1: the table is faster than the routed fabric lets the model go.
std::string efficiency_cause(double measured, const CalibrationContext& c) {
  if (c.nics_used < c.nics)
    return "channels use " + std::to_string(c.nics_used) + " of " + std::to_string(c.nics) +
           " NICs: set gpu (or search_channels as NCCL's log shows)";
  if (c.nodes == 2 && measured > c.routed_busbw)
    return "2-node Tree/NVLS exceeds " +
           (measured > c.line_busbw ? "line rate (busbw " + gbs(measured) + ", the NICs' " + gbs(c.line_busbw)
                                    : "the routed ring (busbw " + gbs(measured) + ", the routed " + gbs(c.routed_busbw)) +
           ")" + (c.gpu ? ": NVLS or CollNet across nodes (sharp, collnet)?" : ": set gpu");
  return "busbw " + gbs(measured) + " exceeds the routed fabric's " + gbs(c.routed_busbw) +
         ": check host_speed_gbps, nics_per_node and the scenario";
}

// The ceiling's flag. One fitted far below the hardware's figure is flagged
// too: the hosts rarely lose half their NVLink bandwidth, so the likelier
// cause is a model gap at the sizes it bounds (on the corpus such a ceiling
// predicted other runs worse, docs/prediction.md "Calibration").
std::string ceiling_cause(const FittedParam& cap, bool efficiency_constrained) {
  if (!cap.constrains)
    return cap.bound != Bound::Upper    ? "the table does not constrain it"
           : efficiency_constrained     ? "not reached: the network limits every size"
                                        : "not reached: NCCL's per-channel figures bound every size";
  if (cap.bound == Bound::Upper && cap.lo < cap.max)
    return "the hardware's figure kept: a lower ceiling fits a little better, but its 90% interval reaches " +
           gbs(cap.max);
  if (cap.bound == Bound::Upper)
    return "the table reaches the hardware's " + gbs(cap.max) + " inside a node (it may want more): check gpu and intra";
  if (cap.bound == Bound::Lower) return "the table is slower than " + gbs(cap.min) + " inside a node";
  if (cap.value < cap.max / 2)
    return std::to_string(std::lround(100 * cap.value / cap.max)) + "% of the hardware's " + gbs(cap.max) +
           ": more likely what the model lacks at the sizes it bounds than the host";
  return "";
}

}  // namespace

std::vector<CalibrationRow> predict_rows(const NcclComm& base, const NcclTestsTable& table,
                                         const CalibrationOptions& o, const Params& params) {
  const NcclPrices prices(with_params(base, params), o.algo, o.proto);
  std::vector<CalibrationRow> out;
  for (const NcclTestsRow& r : table.rows) {
    const auto got = prices.choose(r.size);
    if (!got) continue;
    out.push_back({r.size, r.time_us[0], got->time_us, got->time_us / r.time_us[0] - 1, got->algo, got->proto,
                   in_fit(o, r.size)});
  }
  return out;
}

CalibrationFit calibrate(const NcclComm& base, const NcclTestsTable& table, const CalibrationOptions& o) {
  const Residuals res(base, table, o);
  if (res.size() < kMinCalibrationSizes)
    throw InputError(option_at("fit_sizes", table.source),
                     "only " + std::to_string(res.size()) + " of the table's sizes in the fit range; three parameters "
                     "need at least " + std::to_string(kMinCalibrationSizes));
  const double ceiling = std::isfinite(base.host.intra_busbw) ? base.host.intra_busbw : 1e5;
  const Box range{{kMinEfficiency, std::min(kMinCeilingGbs, ceiling), 0}, {1, ceiling, kMaxLatencyUs}};
  Box fixed_range = range;
  fixed_range.lo[1] = range.hi[1];
  const std::vector<double> ones(res.size(), 1.0);
  const Starts starts{polish(res, ones, grid_fit(res, ones, fixed_range, kRounds), fixed_range),
                      polish(res, ones, grid_fit(res, ones, range, kRounds), range)};
  const std::vector<Params> fits = bootstrap(res, range, starts, o.resamples);
  // A lowered ceiling is a finding only where the resamples exclude the
  // hardware's figure: its 90% interval ends below it.
  const bool lowered = interval(fits, 1, range.hi[1]).second < range.hi[1];
  const Params best = lowered ? choose(res, ones, starts.fixed, starts.free) : starts.fixed;
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
  const FittedParam& cap = fit[CalibParam::Ceiling];
  if (!eff.constrains)
    out[0] = c.nodes <= 1 || !std::isfinite(c.routed_busbw)
                 ? "no network traffic: the table does not constrain it"
                 : cap.constrains ? "the ceiling, not the network, bounds every size"
                                  : "the network bounds no size: NCCL's per-channel figures do";
  else if (eff.bound == Bound::Upper)
    out[0] = efficiency_cause(measured, c);
  else if (eff.bound == Bound::Lower)
    out[0] = "the table is over 100 times slower than the routed fabric: is the config the cluster it ran on?";
  out[1] = ceiling_cause(cap, eff.constrains);
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
