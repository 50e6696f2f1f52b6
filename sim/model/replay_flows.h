// The flows of a replay (sim/model/replay.h): each collective of the joined
// trace expanded by the NCCL model on its group's GPUs and NICs. A
// communicator keeps its connections, so every collective of a group that
// takes the same connections (ring, tree or point-to-point) gets the same QP
// numbers, as the group's first one did; groups allocate in turn.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/config/spec.h"
#include "sim/fabric/fabric.h"
#include "sim/model/replay.h"
#include "workloads/flow.h"

namespace ecmpsim {

struct ReplayFlows {
  workloads::Flows flows;
  std::vector<std::uint32_t> begin;  // per collective, its first flow; size collectives + 1
  std::vector<std::string> algo;     // per collective: the generator's collective name, "" when not expanded
  std::vector<std::string> notes;
};

// The ranks are job `job`'s (its nodes in order, gpus_per_node each, or
// options.rank_map) and the flows carry its id and NCCL settings.
ReplayFlows expand_collectives(const Spec& spec, const Fabric& fabric, const workloads::CommTrace& trace,
                               const ReplayOptions& options, std::size_t job = 0);

}  // namespace ecmpsim
