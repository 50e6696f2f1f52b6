// `ecmpsim topology FILE... --out topo.csv`: a topology file from the LLDP
// neighbour tables of a running fabric (sim/fabric/discover.h), and with
// --against CONFIG the cabling compared with the config's intended fabric.
// Registers the flags, reads the files and prints; the work is the library's.
#include <memory>
#include <optional>

#include "sim/base/error.h"
#include "sim/base/input_file.h"
#include "sim/cli/cli.h"
#include "sim/fabric/discover.h"
#include "sim/fabric/fabric.h"
#include "sim/fabric/lldp/lldp.h"
#include "sim/output/topology_output.h"

namespace ecmpsim::cli {
namespace {

struct TopologyOptions {
  std::vector<std::string> files, tiers;
  std::string out, device, lldp_format, against, format;
  double speed = 400;
  bool no_lags = false;
  Limits limits;
};

// --tier PATTERN=TIER.
TierRule tier_rule(const std::string& text) {
  const auto eq = text.rfind('=');
  const SourcePos at{{}, 0, 0, "--tier"};
  if (eq == std::string::npos || eq == 0) throw InputError(at, "expected PATTERN=TIER, got '" + text + "'");
  const std::string tier = text.substr(eq + 1);
  for (const auto& row : kTiers)
    if (row.name == tier) return {text.substr(0, eq), row.value};
  throw InputError(at, "unknown tier '" + tier + "' (" + quoted_choices(kTiers) + ")");
}

int run_topology(const TopologyOptions& o, Io io) {
  std::vector<LldpFile> files;
  for (const std::string& f : o.files) files.push_back({f, read_input_file(f, {f, 0, 0, {}}, "file")});
  DiscoverOptions d;
  d.device = o.device;
  d.format = o.lldp_format;
  d.speed_gbps = o.speed;
  d.lags = !o.no_lags;
  for (const std::string& t : o.tiers) d.tiers.push_back(tier_rule(t));
  // The config compared with, and its topology file, are inputs too: --out
  // may not overwrite the intended fabric it is compared with.
  std::optional<Spec> spec;
  std::vector<std::string> inputs = o.files;
  if (!o.against.empty()) {
    spec = load_spec(o.against, o.limits);
    for (std::string& f : spec_inputs(*spec)) inputs.push_back(std::move(f));
  }
  if (!o.out.empty()) check_out(o.out, inputs);
  const TopologyReport report = discover_topology(files, d);
  std::optional<CablingDiff> diff;
  if (spec) diff = compare_cabling(report.cables, build_fabric(spec->fabric));
  if (!o.out.empty()) emit(io, report.csv, o.out, inputs);
  const TopologyOutput t{&report, diff ? &*diff : nullptr, o.against, o.out};
  emit(io, write(chosen_format(o.format), topology_result(t)), "");
  return diff && !diff->clean() ? 1 : 0;
}

}  // namespace

Action add_topology_command(CLI::App& app) {
  auto o = std::make_shared<TopologyOptions>();
  CLI::App* sub = app.add_subcommand("topology", "Build a topology file from LLDP neighbour tables");
  sub->add_option("files", o->files,
                  "LLDP tables, one per device (EOS show lldp neighbors [| json], SONiC show lldp table, "
                  "lldpcli -f json|json0|keyvalue show neighbors, NVUE nv show interface -o json); a table that "
                  "names no device is its file name's")
      ->required()
      ->check(file_role(FileRole::Input));
  add_out_flag(sub, o->out, "the topology file (CSV)");
  sub->add_option("--device", o->device, "The device of the one file given");
  std::vector<std::string> forms;
  for (const auto& f : lldp::formats()) forms.emplace_back(f.name);
  sub->add_option("--lldp-format", o->lldp_format, "Every file's form (default: recognised per file)")
      ->check(CLI::IsMember(forms));
  sub->add_option("--tier", o->tiers, "PATTERN=TIER (glob; host, leaf, spine, core), first match wins; repeatable");
  sub->add_option("--speed", o->speed, "Gb/s of cables the tables give no speed for")
      ->capture_default_str()
      ->check(number_in(0.001, 1e6));
  sub->add_flag("--no-lags", o->no_lags, "Infer no port-channels (MLAG peer links, port-channels to MLAG pairs, bonds)");
  sub->add_option("--against", o->against,
                  "Compare the cabling with this config's fabric: missing, extra and miswired cables (exit 1 "
                  "when any)")
      ->check(file_role(FileRole::Input));
  add_format_flag(sub, o->format, {Shape::Text, Shape::Json}, Format::Table);
  add_limit_flags(sub, o->limits);
  return [o](Io io) { return run_topology(*o, io); };
}

}  // namespace ecmpsim::cli
