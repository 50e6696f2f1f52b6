// `calibrate` (see calibrate.h).
#include "sim/app/calibrate.h"

#include <algorithm>

#include "sim/app/load.h"
#include "sim/app/run.h"
#include "sim/base/error.h"
#include "sim/base/input_file.h"
#include "sim/base/parse.h"
#include "sim/model/calibrate.h"
#include "sim/model/simulation.h"
#include "sim/model/size_table.h"
#include "workloads/generators/collective.h"
#include "workloads/generators/locality.h"

namespace ecmpsim::app {
namespace {

// "MIN:MAX" with either side empty ("256M:", ":1G").
void read_fit_sizes(const std::string& text, CalibrationOptions& o) {
  const SourcePos at = option_at("fit_sizes");
  const auto colon = text.find(':');
  if (colon == std::string::npos) throw InputError(at, "expected MIN:MAX (either may be empty), e.g. 256M: or 1K:1G");
  const auto side = [&](std::string_view s, std::uint64_t fallback) {
    if (s.empty()) return fallback;
    const auto b = parse_size(s);
    if (!b) throw InputError(at, "invalid size '" + std::string(s) + "' (" + std::string(kSizeExamples) + ")");
    return b->value;
  };
  o.fit_min = side(std::string_view(text).substr(0, colon), 0);
  o.fit_max = side(std::string_view(text).substr(colon + 1), ~0ULL);
  if (o.fit_min > o.fit_max) throw InputError(at, "MIN is larger than MAX");
}

std::size_t pick_scenario(const Spec& spec, const std::string& name) {
  if (name.empty()) return 0;
  for (std::size_t i = 0; i < spec.scenarios.size(); ++i)
    if (spec.scenarios[i].name == name) return i;
  throw InputError(option_at("scenario"), "no scenario named '" + name + "' in " + spec.source);
}

const JobComm& pick_job(const Spec& spec, const std::vector<JobComm>& comms, const std::string& name) {
  for (const JobComm& c : comms)
    if (name.empty() || spec.jobs[c.job].name == name) return c;
  if (!name.empty()) throw InputError(option_at("job"), "no job named '" + name + "' that NCCL's cost model prices");
  throw InputError({spec.source, 0, 0, {}},
                   "no job of two or more ranks running all-reduce, allgather or reduce-scatter to calibrate");
}

// The table must be the job's collective on the job's ranks and nodes.
void check_match(const NcclTestsTable& t, const JobComm& c, const JobSpec& js) {
  const SourcePos at{t.source, t.rows.front().line, 0, {}};
  if (t.coll != c.routed.coll)
    throw InputError(at, t.test + " does not match job " + js.name + "'s " +
                             std::string(workloads::collective_name(js.collective)));
  if (t.ranks != 0 && t.ranks != c.routed.ranks)
    throw InputError(at, "nccl-tests ran " + std::to_string(t.ranks) + " ranks; job " + js.name + " has " +
                             std::to_string(c.routed.ranks));
  if (t.nodes != 0 && t.nodes != c.routed.nodes)
    throw InputError(at, "nccl-tests ran on " + std::to_string(t.nodes) + " nodes; job " + js.name + " spans " +
                             std::to_string(c.routed.nodes));
}

// What bound_causes needs of the job.
CalibrationContext context_of(const Spec& spec, const JobSpec& js, const JobComm& jc) {
  const FabricSpec& fs = spec.fabric;
  CalibrationContext c;
  c.nodes = jc.routed.nodes;
  c.nics = static_cast<std::uint32_t>(workloads::search_nic_order(fs.gpu_nics, fs.gpus_per_node, fs.nics_per_node).size());
  const std::uint32_t p = js.search_channels ? js.search_channels : workloads::default_search_channels(js.channels);
  c.nics_used = js.graphs ? c.nics : std::min(p, c.nics);
  c.gpu = spec.hosts.gpu.has_value();
  c.line_busbw = fs.nics_per_node * fs.host_speed.value / 8;
  c.routed_busbw = jc.routed.net_busbw;
  return c;
}

}  // namespace

CalibrateReport calibrate(const CalibrateRequest& o) {
  CalibrateReport out;
  CalibrationOptions copt;
  if (!o.fit_sizes.empty()) read_fit_sizes(o.fit_sizes, copt);
  CalibrationReport& report = out.report;
  report.table = parse_nccl_tests(o.input, read_input_file(o.input, {o.input, 0, 0, {}}, "file"), o.run);
  Spec spec = load_spec(o.config, o.limits);
  // The table, the config and every file it reads: what neither output may replace.
  std::vector<std::string>& inputs = out.inputs;
  inputs = spec_inputs(spec);
  inputs.push_back(o.input);
  if (!o.snippet.empty()) check_out(o.snippet, inputs);
  check_out(o.out, inputs);
  // The fitted keys start from NCCL's own values and the hardware's ceiling,
  // whatever the config's [calibration] says.
  spec.hosts.nic_efficiency = 1;
  spec.hosts.net_latency_us = 0;
  spec.hosts.intra_busbw = 0;
  const std::size_t which = pick_scenario(spec, o.scenario);
  const Simulation sim(std::move(spec));
  const ScenarioSpec& scenario = sim.spec().scenarios[which];
  const auto comms = job_comms(sim, sim.run(scenario));
  const JobComm& jc = pick_job(sim.spec(), comms, o.job);
  const JobSpec& js = sim.spec().jobs[jc.job];
  check_match(report.table, jc, js);
  copt.algo = js.nccl.algo;
  copt.proto = js.nccl.proto;
  report.fit = ecmpsim::calibrate(jc.routed, report.table, copt);
  report.causes = bound_causes(report.fit, report.table, copt, context_of(sim.spec(), js, jc));
  out.notes = workload_notes(sim);
  report.options = copt;
  report.config = sim.spec().source;
  report.scenario = scenario.name;
  report.job = js.name;
  report.goodput_busbw = jc.routed.net_busbw;
  report.intra_busbw = jc.routed.host.intra_busbw;
  return out;
}

}  // namespace ecmpsim::app
