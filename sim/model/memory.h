// The peak memory a run will take, estimated before it allocates, so that a
// fabric or a workload too large for the machine is refused in one line
// naming --max-memory instead of exhausting the memory (issue 47). The parts
// are the data structures that grow with the fabric and the flows, each
// counted from its own arrays (docs/performance.md#memory-estimate derives
// them and compares the estimate with measured peaks).
#pragma once

#include <cstdint>
#include <string>

#include "sim/config/spec.h"
#include "sim/routing/routes.h"
#include "workloads/flow.h"

namespace ecmpsim {

struct MemoryEstimate {
  std::uint64_t bytes = 0;
  std::string largest;  // the largest part and its factors, for the message
  std::uint64_t largest_bytes = 0;
  // Adds a part (saturating at 2^64 - 1).
  void add(std::uint64_t part, const std::string& what);
};

// What the config alone decides: the fabric, the equal-cost sets of every
// failure set (switches x destination ToRs), the forwarding state of the
// scenarios in flight, and the process itself.
MemoryEstimate routing_memory(const Spec& spec);

// The parts that grow with the flows once they are known: the flows, every
// scenario's paths and times, and the flow models in flight (paths of at
// most `max_hops` links, at most `groups` groups of flows on one path).
void add_flow_memory(MemoryEstimate& m, const Spec& spec, std::uint64_t flows, std::uint64_t groups,
                     std::uint32_t max_hops);

// At most how many groups the flow model makes of `flows` (flows on one path
// are one group): every flow between two ToRs a group of its own, and the
// flows within one ToR, which have one path, a group per (source,
// destination) pair.
std::uint64_t path_groups_bound(const Fabric& fabric, const workloads::Flows& flows);

// The most links a path crosses on the spec's generated fabric (host to host);
// 0 when only the built fabric can say (a topology file).
std::uint32_t generated_max_hops(const Spec& spec);

// The most links a path crosses on the fabric the sets were computed for:
// the longest switch-to-ToR distance and the two access links.
std::uint32_t max_path_links(const EqualCostSets& sets);

// Bytes of one flow model (sim/model/flow_model.h) of `flows` flows in
// `groups` groups on paths of `hops` links over `links` directed links, for
// the sweep's estimate too.
std::uint64_t flow_model_bytes(std::uint64_t flows, std::uint64_t groups, std::uint32_t hops, std::uint64_t links);

// InputError naming --max-memory when `m` is above spec.limits.max_memory.
void check_memory(const MemoryEstimate& m, const Spec& spec, const std::string& what);

}  // namespace ecmpsim
