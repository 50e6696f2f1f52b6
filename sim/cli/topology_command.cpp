// `ecmpsim topology FILE... --out topo.csv`: its flags, as
// app::TopologyRequest (sim/app/topology.h), the topology file written where
// --out says and the report (with --against, the cabling compared) printed.
#include <memory>

#include "sim/app/topology.h"
#include "sim/cli/cli.h"
#include "sim/fabric/lldp/lldp.h"

namespace ecmpsim::cli {

Action add_topology_command(CLI::App& app) {
  struct Options : app::TopologyRequest {
    std::string format;
  };
  auto o = std::make_shared<Options>();
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
  return [o](Io io) {
    app::TopologyReport r = app::topology(*o);
    r.spell(flag_spelling);
    if (!o->out.empty()) emit(io, r.discovered.csv, o->out, r.inputs);
    emit(io, write(chosen_format(o->format), r.result()), "");
    return r.clean() ? 0 : 1;
  };
}

}  // namespace ecmpsim::cli
