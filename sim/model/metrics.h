// Imbalance of a load vector (flows or bytes per link).
#pragma once

#include <cstdint>
#include <span>

namespace ecmpsim {

struct Imbalance {
  std::size_t links = 0;
  double max = 0;
  double mean = 0;
  double fim = 0;       // mean absolute deviation / mean
  double max_mean = 0;  // max / mean
  double cov = 0;       // population standard deviation / mean
  double jain = 0;      // (sum x)^2 / (n * sum x^2)
};

// All ratios are 0 for an empty or all-zero vector, and jain is 1 there
// (nothing is unfairly shared).
Imbalance imbalance(std::span<const double> load);

}  // namespace ecmpsim
