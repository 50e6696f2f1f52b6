// The steps around the engine that app::SweepJob (sweep.h) takes for every
// front door: the sweep a request describes (its options over the config's
// [sweep] axes, checked before it runs) and the summaries of a finished run.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "sim/app/sweep.h"

namespace ecmpsim::app {

// The sweep the request describes over `spec` (read from `path`, which
// messages name): the axes (options over its [sweep] section), the size
// metrics and the variant limit checked. InputError names the option.
std::unique_ptr<const Sweep> make_sweep(const SweepRequest& o, Spec spec, const std::string& path);

// rank_by and over checked against the sweep's axes, before it runs.
std::optional<RankSpec> rank_spec_from(const SweepRequest& o, const VariantSpace& space);

SweepSummaries summarize_sweep(const SweepRequest& o, const Sweep& sweep, const SweepRun& run,
                               const std::optional<RankSpec>& rank);

}  // namespace ecmpsim::app
