// The memory a sweep will take (sweep.h: check_sweep_memory), estimated as
// sim/model/memory.h estimates a run's: each constant is the bytes one
// element costs in the arrays named beside it (docs/performance.md#memory-estimate).
#include <algorithm>

#include "sim/model/memory.h"
#include "sim/sweep/sweep.h"
#include "sim/sweep/sweep_kernel.h"

namespace ecmpsim {
namespace {

std::uint64_t mul(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r = 0;
  return __builtin_mul_overflow(a, b, &r) ? ~0ULL : r;
}

// workloads::Flows, as in sim/model/memory.cpp: a thread's own workload when
// the sweep varies it (placement seeds, QPs, ports).
constexpr std::uint64_t kPerFlow = 70;
// A worker (sim/sweep/sweep_kernel.h) per flow: its ends (8), path_begin_
// (4), per key configuration a key (hashing::kMaxKeyBytes, 80) and its
// length (1), per hash base h(key, 0) (8); 4 bytes per path link.
constexpr std::uint64_t kWorkerPerFlow = 12;
constexpr std::uint64_t kWorkerPerKey = 81;
constexpr std::uint64_t kWorkerPerBase = 8;
constexpr std::uint64_t kWorkerPerHop = 4;
// A plan per (scenario, algorithm): a SwitchHash and class per switch.
constexpr std::uint64_t kPlanPerSwitch = 160;
// A variant's row (value_table.h): 8 bytes per value; the summaries sort a
// copy of one column at a time, with its variant indices (16 bytes a variant).
constexpr std::uint64_t kSummaryPerVariant = 16;

}  // namespace

void check_sweep_memory(const Sweep& sweep, unsigned threads) {
  const Spec& spec = sweep.base().spec();
  const VariantSpace& space = sweep.space();
  const std::uint64_t flows = sweep.base().flows().size();
  const std::uint64_t switches = sweep.base().fabric().switches().size();
  std::uint32_t hops = generated_max_hops(spec);
  if (hops == 0) hops = max_path_links(sweep.base().sets());
  MemoryEstimate m = routing_memory(spec);
  m.add(mul(flows, kPerFlow), std::to_string(flows) + " flows");
  std::uint64_t keys = 0, bases = 0;
  for (std::uint64_t c = 0; c < space.combos(); ++c) {
    keys = std::max<std::uint64_t>(keys, sweep.plan(c).key_configs().size());
    bases = std::max<std::uint64_t>(bases, sweep.plan(c).bases());
  }
  m.add(mul(space.combos(), mul(switches, kPlanPerSwitch)), std::to_string(space.combos()) + " plans");
  const std::uint64_t per_flow =
      kPerFlow + kWorkerPerFlow + kWorkerPerKey * keys + kWorkerPerBase * bases + kWorkerPerHop * hops;
  const std::uint64_t model =
      space.axes().slowdown ? flow_model_bytes(flows, path_groups_bound(sweep.base().fabric(), sweep.base().flows()),
                                               hops, sweep.base().fabric().links().size())
                            : 0;
  m.add(mul(std::max(1u, threads), mul(flows, per_flow) + model),
        std::to_string(std::max(1u, threads)) + " threads' routes" +
            (space.axes().slowdown ? " and flow models" : "") + " of " + std::to_string(flows) + " flows");
  const std::uint64_t width = ValueTable(spec.jobs.size()).width();
  m.add(mul(space.size(), mul(width, sizeof(double)) + kSummaryPerVariant),
        std::to_string(space.size()) + " variants x " + std::to_string(width) + " values x 8 B of results");
  check_memory(m, spec, "the sweep");
}

}  // namespace ecmpsim
