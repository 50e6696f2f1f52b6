// `run` (see run.h): the config with the request's overrides, failures and
// size options applied, the workload generated or imported, every scenario
// routed and modelled, and the notes gathered.
#include "sim/app/run.h"

#include <span>

#include "sim/app/load.h"
#include "sim/app/run_data.h"
#include "sim/base/error.h"
#include "sim/model/flows_import.h"
#include "sim/model/nccl_derive.h"
#include "sim/model/size_table.h"
#include "sim/routing/flow_label_note.h"
#include "sim/routing/seeds.h"
#include "workloads/import/import_csv.h"
#include "workloads/generators/collective.h"
#include "workloads/generators/job.h"
#include "workloads/generators/locality.h"

namespace ecmpsim::app {
namespace {

// The first p NICs of the search order: "0..3" when they run in index order, else "3, 2".
std::string search_nics_text(std::span<const std::uint32_t> order, std::uint32_t p) {
  bool in_order = true;
  for (std::uint32_t i = 0; i < p; ++i) in_order = in_order && order[i] == i;
  if (in_order) return "0.." + std::to_string(p - 1);
  std::string out;
  for (std::uint32_t i = 0; i < p; ++i) out += (i ? ", " : "") + std::to_string(order[i]);
  return out;
}

// Every scenario gets a twin NAME+down with the listed failures added.
void add_down_scenarios(Spec& spec, const std::vector<std::string>& list) {
  std::vector<LinkRef> refs;
  for (const std::string& item : list) refs.push_back({item, option_at("down")});
  std::vector<ScenarioSpec> out;
  for (const ScenarioSpec& s : spec.scenarios) {
    out.push_back(s);
    ScenarioSpec twin = s;
    twin.base = s.name;
    twin.name = s.name + "+down";
    twin.down.insert(twin.down.end(), refs.begin(), refs.end());
    out.push_back(std::move(twin));
  }
  spec.scenarios = std::move(out);
}

// The request's overrides on `spec`: InputError naming the option at fault.
void apply_request(Spec& spec, const RunRequest& q) {
  Overrides o = q.overrides;
  if (!q.seed_mode.empty()) {
    o.seed_mode = parse_name(kSeedModes, q.seed_mode);
    if (!o.seed_mode)
      throw InputError(option_at("seed_mode"),
                       "unknown seed mode '" + q.seed_mode + "'; one of " + quoted_choices(kSeedModes));
  }
  apply_overrides(spec, o);
  check_hash_overrides(spec, o);
  apply_size_flags(spec, q.sizes);
  if (!q.down.empty()) add_down_scenarios(spec, q.down);
}

// The import options given; InputError for one that needs --flows without it.
FlowsImportOptions import_options(const RunRequest& q, const Spec& spec) {
  if (q.flows && q.flows->empty()) throw InputError(option_at("flows"), "no file given");
  if (!q.flows) {
    for (const auto& [given, flag] : {std::pair{q.flows_format.has_value(), "flows_format"},
                                      std::pair{q.rdma_map.has_value(), "rdma_map"},
                                      std::pair{q.flow_bytes.has_value(), "flow_bytes"},
                                      std::pair{q.allow_unpaired, "allow_unpaired"}})
      if (given) throw InputError(option_at(flag), "only used with " + option_ref("flows"));
  }
  if ((q.flows || q.flows_csv) && wants_sizes(spec))
    throw InputError(option_at("flows"), "no size table for imported flows (they name no collective)");
  FlowsImportOptions im;
  im.flows = q.flows.value_or("");
  im.format = q.flows_format.value_or("");
  im.rdma_map = q.rdma_map.value_or("");
  if (q.flow_bytes) im.flow_bytes = Bytes{*q.flow_bytes};
  im.allow_unpaired = q.allow_unpaired;
  return im;
}

}  // namespace

std::vector<std::string> idle_nic_notes(const Spec& spec) {
  std::vector<std::string> out;
  const FabricSpec& fs = spec.fabric;
  const std::vector<std::uint32_t> order = workloads::search_nic_order(fs.gpu_nics, fs.gpus_per_node, fs.nics_per_node);
  const auto k = static_cast<std::uint32_t>(order.size());
  for (const JobSpec& j : spec.jobs) {
    const bool rings_or_trees =
        workloads::collective_info(j.collective).shape != workloads::CollectiveShape::PointToPoint;
    const std::uint32_t p = j.search_channels ? j.search_channels : workloads::default_search_channels(j.channels);
    // A job whose channels were derived (nccl_notes) says where they leave.
    if (!rings_or_trees || k < 2 || p >= k || j.graphs) continue;
    out.push_back("note: job '" + j.name + "': " + std::to_string(j.channels) + " channels search " +
                  std::to_string(p) + (j.search_channels ? "" : " (NCCL doubles what its search finds)") +
                  ", so they leave each node by NICs " + search_nics_text(order, p) + " of its " + std::to_string(k) +
                  "; set search_channels (or more channels) if NCCL's log shows more");
  }
  return out;
}

std::vector<std::string> workload_notes(const Simulation& sim) {
  // After the simulation is built: it derives the channels of a named GPU.
  const Spec& spec = sim.spec();
  std::vector<std::string> out;
  for (const std::string& line : nccl_notes(spec)) out.push_back("note: " + line);
  for (std::string& line : idle_nic_notes(spec)) out.push_back(std::move(line));
  if (const auto note = flow_label_note(spec, sim.fabric().family())) out.push_back("note: " + *note);
  return out;
}

RunReport run(const RunRequest& request, const Progress& progress) {
  return run(load_spec(request.config, request.limits), request, progress);
}

RunReport run(Spec spec, const RunRequest& q, const Progress& progress) {
  apply_request(spec, q);
  RunReport report;
  report.inputs = spec_inputs(spec, {q.flows.value_or(""), q.rdma_map.value_or("")});
  check_out(q.out, report.inputs);
  const FlowsImportOptions im = import_options(q, spec);
  if (q.no_slowdown && wants_sizes(spec))
    throw InputError(option_at("no_slowdown"), "the size table needs the flow model that " + option_ref("no_slowdown") + " turns off");
  if (im.flows.empty() && !q.flows_csv) {
    report.data = simulate(std::move(spec), nullptr, !q.no_slowdown, progress);
    report.notes = workload_notes(report.data->sim);
    return report;
  }
  const workloads::ImportedFlows imported = [&] {
    if (!q.flows_csv) return import_flows(im, spec);
    auto parsed = workloads::parse_flows_csv(*q.flows_csv, "<flows>");
    if (auto* e = std::get_if<InputError>(&parsed)) throw *e;
    return std::move(std::get<workloads::ImportedFlows>(parsed));
  }();
  report.notes.insert(report.notes.end(), imported.notes.begin(), imported.notes.end());
  report.data = simulate(std::move(spec), &imported, !q.no_slowdown, progress);
  return report;
}

}  // namespace ecmpsim::app
