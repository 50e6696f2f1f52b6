// run's size-table flags in nccl-tests' and NCCL's names: -b/--minbytes,
// -e/--maxbytes, --stepfactor (nccl-tests' -f is --format here), --nccl-algo,
// --nccl-proto (NCCL_ALGO / NCCL_PROTO values) and --size-coupling. They
// override every job's config keys (`sizes`, `nccl_algo`, ...): sim/app/sizes.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "sim/cli/cli.h"
#include "sim/app/sizes.h"

namespace ecmpsim::cli {

using app::SizeFlags;

void add_size_flags(CLI::App* sub, SizeFlags& f);

// The flags as given, each " --name value", for a command line a page shows.
std::string size_flags_text(const SizeFlags& f);

}  // namespace ecmpsim::cli
