// run's size-table flags in nccl-tests' and NCCL's names: -b/--minbytes,
// -e/--maxbytes, --stepfactor (nccl-tests' -f is --format here), --nccl-algo,
// --nccl-proto (NCCL_ALGO / NCCL_PROTO values) and --size-coupling. They
// override every job's config keys (`sizes`, `nccl_algo`, ...).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "sim/cli/cli.h"
#include "sim/config/spec.h"

namespace ecmpsim::cli {

struct SizeFlags {
  std::optional<std::uint64_t> minbytes, maxbytes, stepfactor;
  std::string algo, proto, coupling;
};

void add_size_flags(CLI::App* sub, SizeFlags& f);

// Applies the flags to every job; InputError naming the flag for min > max,
// a factor without sizes, or one bound without the other.
void apply_size_flags(Spec& spec, const SizeFlags& f);

// The flags as given, each " --name value", for a command line a page shows.
std::string size_flags_text(const SizeFlags& f);

}  // namespace ecmpsim::cli
