// `calibrate` and the measured run it shares with `validate` (see calibrate.h).
#include "sim/app/calibrate.h"

#include <algorithm>

#include "sim/app/load.h"
#include "sim/app/run.h"
#include "sim/base/error.h"
#include "sim/base/input_file.h"
#include "sim/base/parse.h"
#include "sim/config/config.h"
#include "sim/model/calibrate.h"
#include "sim/model/simulation.h"
#include "sim/model/size_table.h"
#include "workloads/generators/collective.h"
#include "workloads/generators/locality.h"

namespace ecmpsim::app {
namespace {

std::size_t pick_scenario(const Spec& spec, const std::string& name) {
  if (name.empty()) return 0;
  for (std::size_t i = 0; i < spec.scenarios.size(); ++i)
    if (spec.scenarios[i].name == name) return i;
  throw InputError(option_at("scenario"), "no scenario named '" + name + "' in " + spec.source);
}

bool same_shape(const NcclTestsTable& t, const NcclComm& c) {
  return t.coll == c.coll && (t.ranks == 0 || t.ranks == c.ranks) && (t.nodes == 0 || t.nodes == c.nodes);
}

// The named job, else the first priced job whose collective, ranks and nodes
// are the table's, else the first priced job (which check_match refuses).
const JobComm& pick_job(const Spec& spec, const std::vector<JobComm>& comms, const std::string& name,
                        const NcclTestsTable& table) {
  for (const JobComm& c : comms)
    if (name.empty() ? same_shape(table, c.routed) : spec.jobs[c.job].name == name) return c;
  if (!name.empty()) throw InputError(option_at("job"), "no job named '" + name + "' that NCCL's cost model prices");
  if (!comms.empty()) return comms.front();
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

// What bound_causes needs of the job. The NICs' line rate is the first
// server's first NIC's link, as NCCL's search reads it (sim/model/nccl_derive.cpp),
// times the NICs of an NCCL node.
CalibrationContext context_of(const Simulation& sim, const JobSpec& js, const JobComm& jc) {
  const Spec& spec = sim.spec();
  const FabricSpec& fs = spec.fabric;
  const Fabric& fabric = sim.fabric();
  CalibrationContext c;
  c.nodes = jc.routed.nodes;
  c.nics = static_cast<std::uint32_t>(workloads::search_nic_order(fs.gpu_nics, fs.gpus_per_node, fs.nics_per_node).size());
  const std::uint32_t p = js.search_channels ? js.search_channels : workloads::default_search_channels(js.channels);
  c.nics_used = js.graphs ? c.nics : std::min(p, c.nics);
  c.gpu = spec.hosts.gpu.has_value();
  if (fabric.server_count() > 0 && !fabric.server_nics(0).empty()) {
    const double gbps = fabric.link(fabric.uplink(fabric.server_nics(0)[0])).speed.value;
    // NCCL's node: a server, or (MNNVL) the job's servers in one NVLink domain.
    c.line_busbw = static_cast<double>(fabric.server_nics(0).size() * std::max(1u, js.node_servers)) * gbps / 8;
  }
  c.routed_busbw = jc.routed.net_busbw;
  return c;
}

}  // namespace

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

MeasuredRun measured_run(const TableRun& run, const Limits& limits, std::span<const std::string> outs) {
  MeasuredRun out;
  out.table = parse_nccl_tests(run.table,
                               read_input_file(run.table, {run.table, 0, 0, {}}, "file",
                                               {limits.max_capture_bytes, "max_capture_bytes"}),
                               run.run);
  Spec spec = load_spec(run.config, limits);
  if (!run.calibration.empty())
    read_calibration(read_input_file(run.calibration, {run.calibration, 0, 0, {}}, "file",
                                     {limits.max_config_bytes, "max_config_bytes"}),
                     run.calibration, spec.hosts);
  // The table, the config, every file it reads and the calibration: what no output may replace.
  out.inputs = spec_inputs(spec, {run.calibration});
  out.inputs.push_back(run.table);
  for (const std::string& o : outs) check_out(o, out.inputs);
  out.nic_efficiency = spec.hosts.nic_efficiency;
  out.net_latency_us = spec.hosts.net_latency_us;
  out.intra_busbw_gbs = spec.hosts.intra_busbw;
  // The job priced with NCCL's own values of the host parameters; callers scale from there.
  spec.hosts.nic_efficiency = 1;
  spec.hosts.net_latency_us = 0;
  const std::size_t which = pick_scenario(spec, run.scenario);
  const Simulation sim(std::move(spec));
  const ScenarioSpec& scenario = sim.spec().scenarios[which];
  const auto comms = job_comms(sim, sim.run(scenario));
  const JobComm& jc = pick_job(sim.spec(), comms, run.job, out.table);
  const JobSpec& js = sim.spec().jobs[jc.job];
  check_match(out.table, jc, js);
  out.base = jc.routed;
  // The ceiling at its top: the hardware's, or the config's where it states more.
  HostSpec hardware = sim.spec().hosts;
  hardware.intra_busbw = 0;
  out.base.host.intra_busbw = std::max(out.base.host.intra_busbw, nccl_host(hardware, js.nccl_version).intra_busbw);
  out.bus_factor = bus_factor(jc.pattern, jc.routed.ranks);
  out.options.algo = js.nccl.algo;
  out.options.proto = js.nccl.proto;
  out.config = sim.spec().source;
  out.scenario = scenario.name;
  out.job = js.name;
  out.goodput_busbw = jc.routed.net_busbw;
  out.intra_busbw = out.base.host.intra_busbw;
  out.context = context_of(sim, js, jc);
  out.notes = workload_notes(sim);
  return out;
}

CalibrationReport fit_run(MeasuredRun&& run, CalibrationOptions o) {
  // The keys start from NCCL's own values and the hardware's ceiling,
  // whatever the config's [calibration] says.
  o.algo = run.options.algo;
  o.proto = run.options.proto;
  CalibrationReport report;
  report.fit = ecmpsim::calibrate(run.base, run.table, o);
  report.causes = bound_causes(report.fit, run.table, o, run.context);
  report.table = std::move(run.table);
  report.options = o;
  report.config = std::move(run.config);
  report.scenario = std::move(run.scenario);
  report.job = std::move(run.job);
  report.goodput_busbw = run.goodput_busbw;
  report.intra_busbw = run.intra_busbw;
  return report;
}

CalibrateReport calibrate(const CalibrateRequest& o) {
  CalibrateReport out;
  CalibrationOptions copt;
  if (!o.fit_sizes.empty()) read_fit_sizes(o.fit_sizes, copt);
  const std::string outs[] = {o.snippet.empty() ? "-" : o.snippet, o.out};
  MeasuredRun run = measured_run({o.input, o.config, o.scenario, o.job, {}, o.run}, o.limits, outs);
  out.inputs = std::move(run.inputs);
  out.notes = std::move(run.notes);
  out.report = fit_run(std::move(run), copt);
  return out;
}

}  // namespace ecmpsim::app
