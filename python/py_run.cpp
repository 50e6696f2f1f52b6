// Config.flows(), Config.run() and what a run returns: the CLI's `run -f
// json` document, and per scenario the link loads, paths and flows as columns.
#include <sstream>

#include <nlohmann/json.hpp>
#include <pybind11/stl.h>

#include "python/py_module.h"
#include "sim/base/error.h"
#include "sim/app/flows.h"
#include "sim/app/run.h"
#include "sim/model/simulation.h"
#include "sim/config/config.h"
#include "sim/output/output.h"

namespace ecmpsim::python {
namespace {

struct Run {
  std::shared_ptr<const RunData> data;
  std::vector<std::string> notes;
  py::object json;
  const ScenarioResult& scenario(const std::string& name) const {
    for (const ScenarioResult& r : data->results)
      if (r.spec->name == name) return r;
    throw InputError({{}, 0, 0, "scenario"}, no_scenario_named(data->sim.spec(), name));
  }
};

// The flow columns, named as the CSV importer names them, so that a table
// read out can be routed again (Config.run(flows=...)); `sport` as given.
py::dict flow_columns(const workloads::Flows& f, std::vector<std::uint16_t> sport) {
  py::dict out;
  py::list src_ip, dst_ip;
  for (std::size_t i = 0; i < f.size(); ++i) {
    src_ip.append(hashing::format_ip(f.src_ip[i]));
    dst_ip.append(hashing::format_ip(f.dst_ip[i]));
  }
  out["src_ip"] = src_ip;
  out["dst_ip"] = dst_ip;
  out["proto"] = array_of(std::vector(f.proto));
  out["sport"] = array_of(std::move(sport));
  out["dport"] = array_of(std::vector(f.dport));
  out["bytes"] = array_of(std::vector(f.bytes));
  out["lqpn"] = array_of(std::vector(f.lqpn));
  out["rqpn"] = array_of(std::vector(f.rqpn));
  out["job"] = array_of(std::vector(f.job));
  out["channel"] = array_of(std::vector(f.channel));
  out["flow_label"] = array_of(std::vector(f.flow_label));
  return out;
}

Run run(const Config& c, app::RunRequest q, const std::optional<py::dict>& flows) {
  if (flows) q.flows_csv = columns_csv(*flows, "<flows>");
  app::RunReport report;
  std::string text;
  {
    py::gil_scoped_release release;
    report = app::run(*c.spec, q);
    text = json_line(run_result(*report.data));
  }
  return Run{std::move(report.data), std::move(report.notes), to_python(text)};
}

// Per switch-to-switch link, the JSON's `links` as columns.
py::dict link_columns(const Run& r, const std::string& name) {
  const ScenarioResult& s = r.scenario(name);
  const Simulation& sim = r.data->sim;
  const Fabric& fabric = sim.fabric();
  py::list id, from, to;
  std::vector<std::uint32_t> link, flow_count;
  std::vector<std::uint64_t> byte_count;
  std::vector<double> flow_share, byte_share;
  std::vector<std::uint8_t> down;
  for (LinkId l : sim.metric_links()) {
    id.append(fabric.link_name(l));
    from.append(fabric.node(fabric.link(l).from).name);
    to.append(fabric.node(fabric.link(l).to).name);
    link.push_back(l);
    if (s.trace.split()) {  // spraying: sums of shares, fractional (as the JSON)
      flow_share.push_back(s.trace.link_share[l]);
      byte_share.push_back(s.trace.link_share_bytes[l]);
    } else {
      flow_count.push_back(s.trace.link_flows[l]);
      byte_count.push_back(s.trace.link_bytes[l]);
    }
    down.push_back(s.is_down(l));
  }
  py::dict out;
  out["link"] = array_of(std::move(link));
  out["id"] = id;
  out["from"] = from;
  out["to"] = to;
  out["flows"] = s.trace.split() ? array_of(std::move(flow_share)) : array_of(std::move(flow_count));
  out["bytes"] = s.trace.split() ? array_of(std::move(byte_share)) : array_of(std::move(byte_count));
  out["down"] = array_of(std::move(down)).attr("astype")("bool");
  return out;
}

// Per flow: the workload with the scenario's ports, and the flow model's rates and finish times.
py::dict run_flow_columns(const Run& r, const std::string& name) {
  const ScenarioResult& s = r.scenario(name);
  const workloads::Flows& f = r.data->sim.flows();
  std::vector<std::uint16_t> sport(f.size());
  for (std::size_t i = 0; i < f.size(); ++i) sport[i] = s.sport(f, i);
  py::dict out = flow_columns(f, std::move(sport));
  if (s.modelled) {
    std::vector<double> rate(f.size()), finish(f.size());
    for (std::size_t i = 0; i < f.size(); ++i) {
      rate[i] = s.times.start_rate[i].value;
      finish[i] = s.times.finish[i].value;
    }
    out["rate_gbps"] = array_of(std::move(rate));
    out["finish_s"] = array_of(std::move(finish));
  }
  return out;
}

py::dict path_views(const Run& r, const std::string& name) {
  const Trace& t = r.scenario(name).trace;
  py::dict out;
  out["begin"] = view_of(t.path_begin.data(), t.path_begin.size(), r.data);
  out["links"] = view_of(t.path_links.data(), t.path_links.size(), r.data);
  return out;
}

}  // namespace

void add_run(py::module_& m, py::class_<Config>& config) {
  config.def(
      "flows",
      [](const Config& c) {
        app::FlowsReport r;
        {
          py::gil_scoped_release release;
          r = app::flows(*c.spec, {});
        }
        std::vector<std::uint16_t> sport = r.flows.sport;
        return flow_columns(r.flows, std::move(sport));
      },
      "The config's workload as columns (src_ip, dst_ip, proto, sport, dport, bytes, lqpn, rqpn, job, channel, "
      "flow_label), the names Config.run(flows=...) and `run --flows` CSVs take");
  config.def(
      "run",
      [](const Config& c, std::optional<std::string> scenario, std::optional<std::string> algo,
         std::optional<std::uint32_t> seed, std::optional<std::string> seed_mode,
         std::optional<std::uint32_t> sport_base, std::optional<std::uint32_t> qpn_base,
         std::optional<std::uint32_t> qps, std::optional<std::uint64_t> placement_seed, bool slowdown,
         std::optional<py::dict> flows, std::vector<std::string> down, std::optional<std::uint64_t> minbytes,
         std::optional<std::uint64_t> maxbytes, std::optional<std::uint64_t> stepfactor,
         std::optional<std::string> nccl_algo, std::optional<std::string> nccl_proto,
         std::optional<std::string> size_coupling) {
        app::RunRequest q;
        q.overrides = {scenario, algo, seed, std::nullopt, sport_base, qpn_base, qps, placement_seed};
        q.seed_mode = seed_mode.value_or("");
        q.no_slowdown = !slowdown;
        q.down = std::move(down);
        q.sizes = {minbytes, maxbytes, stepfactor, nccl_algo.value_or(""), nccl_proto.value_or(""),
                   size_coupling.value_or("")};
        return run(c, std::move(q), flows);
      },
      py::kw_only(), py::arg("scenario") = py::none(), py::arg("algo") = py::none(), py::arg("seed") = py::none(),
      py::arg("seed_mode") = py::none(), py::arg("sport_base") = py::none(), py::arg("qpn_base") = py::none(),
      py::arg("qps") = py::none(), py::arg("placement_seed") = py::none(), py::arg("slowdown") = true,
      py::arg("flows") = py::none(), py::arg("down") = std::vector<std::string>{}, py::arg("minbytes") = py::none(),
      py::arg("maxbytes") = py::none(), py::arg("stepfactor") = py::none(), py::arg("nccl_algo") = py::none(),
      py::arg("nccl_proto") = py::none(), py::arg("size_coupling") = py::none(),
      "Route the flows under every scenario, as `ecmpsim run` with the flags of the same names (down=[...] for "
      "--down, minbytes=/maxbytes=/stepfactor= for -b/-e/--stepfactor, nccl_algo=, nccl_proto=, size_coupling=); "
      "flows= routes these columns instead of the config's workload. The result carries run's notes");

  py::class_<Run>(m, "RunResult", "What Config.run() returns")
      .def_property_readonly("json", [](const Run& r) { return r.json; },
                             "The document `ecmpsim run -f json` prints, as dicts and lists (size tables included)")
      .def_property_readonly("notes", [](const Run& r) { return r.notes; },
                             "The notes `ecmpsim run` prints on stderr after 'ecmpsim: ', in order")
      .def_property_readonly(
          "scenarios",
          [](const Run& r) {
            py::list names;
            for (const ScenarioResult& s : r.data->results) names.append(s.spec->name);
            return names;
          },
          "The scenarios run, in order")
      .def("links", &link_columns, py::arg("scenario"),
           "Per switch-to-switch link (the JSON's 'links'): link (its number), id, from, to, flows, bytes, down")
      .def("flows", &run_flow_columns, py::arg("scenario"),
           "Per flow: the workload's columns with the scenario's source ports, and rate_gbps and finish_s "
           "under the flow model")
      .def("paths", &path_views, py::arg("scenario"),
           "Every flow's path without a copy: flow i crossed links[begin[i]:begin[i+1]] (link numbers, as "
           "links()'s 'link'), from its source's access link to its destination's");
}

}  // namespace ecmpsim::python
