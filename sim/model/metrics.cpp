#include "sim/model/metrics.h"

#include <algorithm>
#include <cmath>

namespace ecmpsim {

Imbalance imbalance(std::span<const double> load) {
  Imbalance m;
  m.links = load.size();
  if (load.empty()) {
    m.jain = 1;
    return m;
  }
  double sum = 0, sq = 0;
  for (double x : load) {
    sum += x;
    sq += x * x;
    m.max = std::max(m.max, x);
  }
  const double n = static_cast<double>(load.size());
  m.mean = sum / n;
  if (sum == 0) {
    m.jain = 1;
    return m;
  }
  double mad = 0, var = 0;
  for (double x : load) {
    mad += std::abs(x - m.mean);
    var += (x - m.mean) * (x - m.mean);
  }
  m.fim = mad / n / m.mean;
  m.max_mean = m.max / m.mean;
  m.cov = std::sqrt(var / n) / m.mean;
  m.jain = sum * sum / (n * sq);
  return m;
}

}  // namespace ecmpsim
