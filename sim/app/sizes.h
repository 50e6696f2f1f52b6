// The size-table options of `run` and `report`, in nccl-tests' and NCCL's
// names (minbytes, maxbytes, stepfactor, nccl_algo, nccl_proto,
// size_coupling; on the command line -b/--minbytes, -e/--maxbytes, ...).
// They override every job's config keys (`sizes`, `nccl_algo`, ...).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "sim/config/spec.h"

namespace ecmpsim::app {

struct SizeFlags {
  std::optional<std::uint64_t> minbytes, maxbytes, stepfactor;
  std::string algo, proto, coupling;  // NCCL_ALGO, NCCL_PROTO and channel coupling names; empty: the config's
};

// Applies the options to every job; InputError naming the option for
// min > max, a factor without sizes, or one bound without the other.
void apply_size_flags(Spec& spec, const SizeFlags& f);

}  // namespace ecmpsim::app
