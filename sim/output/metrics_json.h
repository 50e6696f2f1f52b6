// The JSON shapes of the metrics, written once: `run --format json`, the
// report's embedded data and the sweep JSON all build their documents from
// these, so what the report promises (its data equals run's) holds by
// construction.
#pragma once

#include "sim/base/format.h"
#include "sim/model/simulation.h"
#include "sim/sweep/sweep_stats.h"

namespace ecmpsim {

// {"switches", "endpoints", "metric_links"}.
Json fabric_json(const Simulation& sim);
// "metrics": ratios by flow count, max/mean flows and links, then "bytes"
// with the ratios by bytes.
Json imbalance_json(const Imbalance& flows, const Imbalance& bytes);
// {"completion_s", "ideal_s", "slowdown", "busbw_gbps", "algbw_gbps"}.
Json prediction_json(const JobPrediction& p);
// One metric link: id (Fabric::link_name, which `down` accepts), from, to,
// flows, bytes, and "down": true when failed.
Json link_json(const Simulation& sim, const ScenarioResult& r, LinkId l);
// Every metric link's link_json, in metric_links() order.
Json links_json(const Simulation& sim, const ScenarioResult& r);
// {"min", "mean", "p10", "p50", "p90", "p99", "max"}.
Json summary_json(const MetricSummary& s);

}  // namespace ecmpsim
