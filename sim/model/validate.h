// `ecmpsim validate`: a prediction scored against a measured nccl-tests
// table without refitting. Per size, the time error (predicted / measured
// - 1, as calibrate's rows) and the busbw error; per band of sizes, the
// median and the largest |error| of each (docs/prediction.md, "Validation").
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "sim/model/calibrate.h"

namespace ecmpsim {

// The size bands errors are summarized over: latency-bound, middle,
// bandwidth-bound. One row per band, [lo, hi) in bytes.
enum class SizeBand : std::uint8_t { Below1MiB, To64MiB, From64MiB };
struct SizeBandRow {
  SizeBand value;
  std::string_view name;  // the JSON and CSV key
  std::string_view doc;   // the table's label
  std::uint64_t lo, hi;
};
inline constexpr std::array<SizeBandRow, 3> kSizeBands{{
    {SizeBand::Below1MiB, "lt_1MiB", "< 1 MiB", 0, 1ULL << 20},
    {SizeBand::To64MiB, "1MiB_64MiB", "1-64 MiB", 1ULL << 20, 64ULL << 20},
    {SizeBand::From64MiB, "ge_64MiB", ">= 64 MiB", 64ULL << 20, ~0ULL},
}};
const SizeBandRow& size_band(std::uint64_t size) noexcept;

// nccl-tests' busbw = size / time x bus factor, measured and predicted, both
// from the times (the printed busbw column is rounded to 0.01 GB/s, and 0.00
// at small sizes): busbw_error = measured / predicted time - 1.
struct ValidationRow {
  CalibrationRow time;  // size, measured and predicted time, time error, NCCL's choice, fitted
  double measured_busbw = 0;   // GB/s
  double predicted_busbw = 0;  // GB/s
  double busbw_error = 0;      // predicted / measured busbw - 1
};
std::vector<ValidationRow> validation_rows(std::span<const CalibrationRow> rows, double bus_factor);

// One band's summary: its sizes (of which `fitted` were fitted), the median
// and the largest |time error| and |busbw error|; NaN for an empty band.
struct BandErrors {
  std::size_t sizes = 0, fitted = 0;
  double median_time = 0, max_time = 0, median_busbw = 0, max_busbw = 0;
};
BandErrors band_errors(std::span<const ValidationRow> rows, const SizeBandRow& band);

}  // namespace ecmpsim
