// `topology` (see topology.h).
#include "sim/app/topology.h"

#include "sim/app/load.h"
#include "sim/base/input_file.h"
#include "sim/fabric/fabric.h"
#include "sim/output/topology_output.h"

namespace ecmpsim::app {
namespace {

// PATTERN=TIER.
TierRule tier_rule(const std::string& text) {
  const auto eq = text.rfind('=');
  if (eq == std::string::npos || eq == 0) throw InputError(option_at("tier"), "expected PATTERN=TIER, got '" + text + "'");
  const std::string tier = text.substr(eq + 1);
  for (const auto& row : kTiers)
    if (row.name == tier) return {text.substr(0, eq), row.value};
  throw InputError(option_at("tier"), "unknown tier '" + tier + "' (" + quoted_choices(kTiers) + ")");
}

}  // namespace

TopologyReport topology(const TopologyRequest& q) {
  DiscoverOptions d;
  d.device = q.device;
  d.format = q.lldp_format;
  d.speed_gbps = q.speed;
  d.lags = !q.no_lags;
  for (const std::string& t : q.tiers) d.tiers.push_back(tier_rule(t));
  TopologyReport r;
  r.against = q.against;
  r.out = q.out;
  r.inputs = q.files;
  // The config compared with, and its topology file, are inputs too: the
  // output may not overwrite the intended fabric it is compared with.
  std::optional<Spec> spec;
  if (!q.against.empty()) {
    spec = load_spec(q.against, q.limits);
    for (std::string& f : spec_inputs(*spec)) r.inputs.push_back(std::move(f));
  }
  check_out(q.out, r.inputs);
  std::vector<LldpFile> files;
  for (const std::string& f : q.files) files.push_back({f, read_input_file(f, {f, 0, 0, {}}, "file", {q.limits.max_capture_bytes, "max_capture_bytes"})});
  r.discovered = discover_topology(files, d);
  if (spec) r.diff = compare_cabling(r.discovered.cables, build_fabric(spec->fabric));
  return r;
}

void TopologyReport::spell(OptionSpelling spelling) {
  for (std::string& n : discovered.notes) n = spell_options(n, spelling);
  for (DiscoveredNode& n : discovered.nodes) n.why = spell_options(n.why, spelling);
}

Result TopologyReport::result() const {
  return topology_result({&discovered, diff ? &*diff : nullptr, against, out});
}

}  // namespace ecmpsim::app
