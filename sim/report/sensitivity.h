// How much `reproduce`'s answer depends on what the paper does not say.
//
// FlowTracer gives its fabric and workload in one sentence; the config fills
// in the rest, and the reduction of the flow imbalance metric by the static
// table flips sign with some of those choices. The sensitivity analysis
// re-runs the comparison with each unknown assumption varied around the
// config's value: rank placement (the config's, contiguous, strided, random
// with four placement seeds), hash family (the config's, crc16-ccitt,
// crc32, toeplitz, xxh3), NCCL channels (the config's, half, double) and QP
// numbering (the config's first QP number and seven more, 4099 apart), every
// combination a case, every job alike. A case's reduction is
// 1 - FIM_static / mean FIM_ecmp over the first (at most 100) of
// reproduce's seeds, as the headline's; ECMP runs on the sweep engine
// (without the flow model) and the static table on the same engine, one
// workload at a time, so a table generated for the workload ("balanced")
// is generated for each case's. The result: the range of reductions, per
// assumption value the range over every other assumption and whether the
// paper's 30% lies inside it, and a one-line verdict.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/config/spec.h"
#include "sim/output/metrics_json.h"

namespace ecmpsim {

struct SensitivityCase {
  std::string placement, algo;  // "strided", "random:2" (placement seed 2); catalogue name
  std::uint32_t channels = 0, qpn_base = 0;
  double ecmp_fim = 0;          // mean over the seeds
  double static_fim = 0;
  double reduction = 0;         // NaN when ECMP's mean FIM is 0
};

// One value of one assumption: the reductions of every case with that value.
struct AssumptionRange {
  std::string assumption;  // "placement", "hash", "channels", "qpn_base"
  std::string value;
  bool config = false;     // the config's own value
  std::uint64_t cases = 0;  // with a defined reduction
  double min = 0, max = 0;
  bool paper_inside = false;  // min <= 30% <= max
};

struct Sensitivity {
  UintRange seeds;                      // the seeds each case's ECMP mean is over
  std::vector<SensitivityCase> cases;   // placement outermost, QP base innermost
  std::vector<std::string> skipped;     // cases the config cannot take, with the reason
  std::uint64_t undefined = 0;          // cases whose ECMP mean FIM is 0
  double min = 0, max = 0;              // over the defined reductions
  bool paper_inside = false;
  std::uint64_t near_paper = 0;         // cases within 5 points of 30%
  double config_reduction = 0;          // the headline: the config's own assumptions
  std::vector<AssumptionRange> by_value;
  std::vector<std::size_t> closest;     // up to 5 cases nearest 30%, nearest first (indices into cases)
  std::string verdict;                  // one line
};

// `seeds`: reproduce's; the first 100 are used. `config_reduction`: the
// headline reduction vs the ECMP mean.
Sensitivity sensitivity(const Spec& spec, const ScenarioSpec& ecmp, const ScenarioSpec& stat, UintRange seeds,
                        double config_reduction, unsigned threads);

std::string sensitivity_table(const Sensitivity& s);
Json sensitivity_json(const Sensitivity& s);

}  // namespace ecmpsim
