// validate's arithmetic (see validate.h).
#include "sim/model/validate.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ecmpsim {

const SizeBandRow& size_band(std::uint64_t size) noexcept {
  for (const SizeBandRow& b : kSizeBands)
    if (size >= b.lo && size < b.hi) return b;
  return kSizeBands.back();  // ~0: the last band's open end
}

std::vector<ValidationRow> validation_rows(std::span<const CalibrationRow> rows, double bus_factor) {
  std::vector<ValidationRow> out;
  out.reserve(rows.size());
  // bytes / us = 10^6 B/s; / 1000 gives GB/s (10^9 B/s), nccl-tests' unit.
  const auto busbw = [bus_factor](std::uint64_t size, double us) { return static_cast<double>(size) / us / 1000 * bus_factor; };
  for (const CalibrationRow& r : rows) {
    ValidationRow v;
    v.time = r;
    v.measured_busbw = busbw(r.size, r.measured_us);
    v.predicted_busbw = busbw(r.size, r.predicted_us);
    v.busbw_error = r.measured_us / r.predicted_us - 1;
    out.push_back(v);
  }
  return out;
}

BandErrors band_errors(std::span<const ValidationRow> rows, const SizeBandRow& band) {
  BandErrors out;
  // The time rows, and the same with the busbw error: calibrate's median of |error| over each.
  std::vector<CalibrationRow> time, bus;
  for (const ValidationRow& r : rows) {
    if (r.time.size < band.lo || r.time.size >= band.hi) continue;
    ++out.sizes;
    out.fitted += r.time.fitted ? 1 : 0;
    time.push_back(r.time);
    bus.push_back(r.time);
    bus.back().error = r.busbw_error;
    out.max_time = std::max(out.max_time, std::abs(r.time.error));
    out.max_busbw = std::max(out.max_busbw, std::abs(r.busbw_error));
  }
  if (out.sizes == 0) out.max_time = out.max_busbw = std::numeric_limits<double>::quiet_NaN();
  out.median_time = median_abs_error(time, band.lo, band.hi);
  out.median_busbw = median_abs_error(bus, band.lo, band.hi);
  return out;
}

}  // namespace ecmpsim
