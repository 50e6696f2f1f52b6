// A sweep's per-variant values: one row of doubles per variant, the
// kSweepMetrics SweepMetric columns (in the enum's order) and then one column
// per job, the job's nccl-tests bus bandwidth in Gb/s under the flow model
// (0 without it). Rows are left unwritten until a variant sets them
// (UninitVector): 5M variants are hundreds of MB, which zeroed up front would
// hold back the first results. A row is contiguous, so the table travels
// between MPI ranks as `width` doubles per variant.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "sim/base/uninit_vector.h"
#include "sim/config/sweep_metric.h"

namespace ecmpsim {

// The column of job j's busbw (Gb/s) in a row.
constexpr std::size_t busbw_column(std::size_t job) noexcept { return kSweepMetrics + job; }

// Rows [0, size) of some table, read-only.
struct ValueView {
  const double* data = nullptr;
  std::uint64_t rows = 0;
  std::size_t width = kSweepMetrics;

  std::uint64_t size() const noexcept { return rows; }
  bool empty() const noexcept { return rows == 0; }
  std::size_t jobs() const noexcept { return width - kSweepMetrics; }
  std::span<const double> operator[](std::uint64_t i) const noexcept { return {data + i * width, width}; }
  // Rows [first, first + count) of this view (clamped to its end).
  ValueView sub(std::uint64_t first, std::uint64_t count) const noexcept {
    first = first < rows ? first : rows;
    count = count < rows - first ? count : rows - first;
    return {data + first * width, count, width};
  }
};

class ValueTable {
 public:
  explicit ValueTable(std::size_t jobs = 0) : width_(kSweepMetrics + jobs) {}

  std::size_t width() const noexcept { return width_; }
  std::size_t jobs() const noexcept { return width_ - kSweepMetrics; }
  std::uint64_t size() const noexcept { return data_.size() / width_; }
  bool empty() const noexcept { return data_.empty(); }
  // New rows are unwritten; shrinking keeps the first `rows`.
  void resize(std::uint64_t rows) { data_.resize(rows * width_); }
  std::span<double> operator[](std::uint64_t i) noexcept { return {data_.data() + i * width_, width_}; }
  std::span<const double> operator[](std::uint64_t i) const noexcept { return {data_.data() + i * width_, width_}; }
  double* data() noexcept { return data_.data(); }
  const double* data() const noexcept { return data_.data(); }
  // Every value, row after row.
  std::span<double> flat() noexcept { return data_; }
  ValueView view() const noexcept { return {data_.data(), size(), width_}; }
  // Implicit, so summaries and writers take a table wherever they take a view.
  operator ValueView() const noexcept { return view(); }

 private:
  std::size_t width_;
  UninitVector<double> data_;
};

}  // namespace ecmpsim
