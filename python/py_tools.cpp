// ecmpsim.hash(), algorithms(), fit(), calibrate(), validate(), reproduce() and
// catalogue(): the commands from keyword arguments named like their flags,
// filling the same app:: requests (sim/app/*.h), so the answers, the JSON and
// the messages are the commands'.

#include <nlohmann/json.hpp>
#include <pybind11/stl.h>

#include "hashing/hasher.h"
#include "python/py_module.h"
#include "sim/base/input_file.h"
#include "sim/app/calibrate.h"
#include "sim/app/fit.h"
#include "sim/app/hash.h"
#include "sim/app/reproduce.h"
#include "sim/app/topology.h"
#include "sim/app/validate.h"
#include "sim/base/error.h"

namespace ecmpsim::python {
namespace {

// A command's notes on stderr ("note: members N from the rows") as Python warnings.
void warn_notes(const std::vector<std::string>& notes) {
  for (const std::string& line : notes) {
    const std::string note = line.starts_with("note: ") ? line.substr(6) : line;
    if (PyErr_WarnEx(PyExc_UserWarning, note.c_str(), 1) != 0) throw py::error_already_set();
  }
}

// A keyword's value as its flag's text; None leaves the flag's default.
void set_text(std::string& flag, const py::object& v) {
  if (!v.is_none()) flag = py::str(v);
}

py::object hash(const std::string& algo, const py::kwargs& kwargs) {
  app::HashOptions o;
  o.algo = algo;
  for (const auto& [key, value] : kwargs) {
    const std::string k = py::str(key);
    const py::object v = py::reinterpret_borrow<py::object>(value);
    std::string* flag = k == "src"          ? &o.src
                        : k == "dst"        ? &o.dst
                        : k == "proto"      ? &o.proto
                        : k == "sport"      ? &o.sport
                        : k == "dport"      ? &o.dport
                        : k == "seed"       ? &o.seed
                        : k == "seed_as"    ? &o.seed_as
                        : k == "offset"     ? &o.offset
                        : k == "dst_qp"     ? &o.dst_qp
                        : k == "flow_label" ? &o.flow_label
                        : k == "in_port"    ? &o.in_port
                        : k == "rss_key"    ? &o.rss_key
                        : k == "src_mac"    ? &o.src_mac
                        : k == "dst_mac"    ? &o.dst_mac
                        : k == "ethertype"  ? &o.ethertype
                        : k == "vlan_id"    ? &o.vlan_id
                        : k == "members"    ? &o.members
                        : k == "select"     ? &o.select
                        : k == "buckets"    ? &o.buckets
                                            : nullptr;
    if (flag != nullptr) {
      set_text(*flag, v);
    } else if (k == "fields" || k == "weights") {
      auto& list = k == "fields" ? o.fields : o.weights;
      for (const py::handle item : py::iter(v)) list.emplace_back(py::str(item));
    } else {
      throw py::type_error("hash() got an unexpected keyword argument '" + k + "'");
    }
  }
  return to_python(json_text(app::hash_one(o).json(), -1));
}

// fit(): observations as columns (src, dst, proto, sport, dport, member,
// and the optional ones `ecmpsim fit` reads) or a CSV file's path.
py::object fit_columns(const py::object& observations, const py::object& members, const py::object& algos,
               const py::object& fields, const std::string& seeds, std::uint32_t threads, std::uint32_t top,
               bool exhaustive, const std::vector<std::uint32_t>& weights, std::uint32_t buckets,
               const std::string& only_switch, const std::string& seed_as) {
  app::FitOptions o;
  if (!members.is_none()) o.members = py::str(members);
  const auto names = [](py::object v, std::vector<std::string>& out) {
    if (py::isinstance<py::str>(v)) v = py::reinterpret_borrow<py::object>(v.attr("split")(","));
    if (!v.is_none())
      for (const py::handle item : py::iter(v)) out.emplace_back(py::str(item));
  };
  names(algos, o.algos);
  names(fields, o.fields);
  o.seeds = seeds;
  o.threads = threads;
  o.top = top;
  o.exhaustive = exhaustive;
  o.weights = weights;
  o.buckets = buckets;
  o.only_switch = only_switch;
  o.seed_as = seed_as;
  std::string name, text;
  if (py::isinstance<py::dict>(observations)) {
    name = "<observations>";
    text = columns_csv(py::cast<py::dict>(observations), name);
  } else {
    name = py::str(observations);
    text = read_input_file(name, {name, 0, 0, {}}, "file", {o.max_capture_bytes, "max_capture_bytes"});
  }
  std::string json;
  std::vector<std::string> notes;
  {
    py::gil_scoped_release release;
    const app::Fitted fitted = app::fit_observations(o, text, name);
    json = json_line(fitted.result());
    notes = fitted.notes;
  }
  warn_notes(notes);
  return to_python(json);
}

// calibrate(): `ecmpsim calibrate -f json` from keyword arguments.
py::object calibrate(const std::string& nccl_tests_output, const std::string& config, const std::string& scenario,
                     const std::string& job, const std::string& fit_sizes, std::uint32_t run) {
  app::CalibrateRequest q;
  q.input = nccl_tests_output;
  q.config = config;
  q.scenario = scenario;
  q.job = job;
  q.fit_sizes = fit_sizes;
  q.run = run;
  std::string json;
  std::vector<std::string> notes;
  {
    py::gil_scoped_release release;
    const app::CalibrateReport report = app::calibrate(q);  // outlives the result, which borrows it
    json = json_line(calibration_result(report.report));
    notes = report.notes;
  }
  warn_notes(notes);
  return to_python(json);
}

// topology(): `ecmpsim topology -f json` from keyword arguments, with the
// topology file `--out` would write as "topology" (its text).
py::object topology(const std::vector<std::string>& files, const std::vector<std::string>& tier,
                    const std::string& device, const std::string& lldp_format, double speed, bool no_lags,
                    const std::string& against) {
  app::TopologyRequest q;
  q.files = files;
  q.tiers = tier;
  q.device = device;
  q.lldp_format = lldp_format;
  q.speed = speed;
  q.no_lags = no_lags;
  q.against = against;
  std::string json;
  {
    py::gil_scoped_release release;
    app::TopologyReport r = app::topology(q);
    r.spell(keyword_spelling);
    Json doc = Json::parse(write(Format::Json, r.result()));
    doc["topology"] = r.discovered.csv;
    json = json_text(doc, -1);
  }
  return to_python(json);
}

// validate(): `ecmpsim validate -f json`; `tables` one path, or a list of
// paths and (table, config) pairs, a pair's config standing for `config`.
py::object validate(const py::object& tables, const std::string& config, const std::string& scenario,
                    const std::string& job, const std::string& calibration, const std::string& fit_on,
                    const std::string& fit_config, const std::string& fit_sizes, std::uint32_t run) {
  app::ValidateRequest q;
  const auto add = [&q](const py::handle item) {
    if (py::isinstance<py::str>(item)) {
      q.tables.push_back({py::str(item), {}, {}, {}, {}, 0});
      return;
    }
    const auto pair = py::cast<std::pair<std::string, std::string>>(item);
    q.tables.push_back({pair.first, pair.second, {}, {}, {}, 0});
  };
  if (py::isinstance<py::str>(tables)) {
    add(tables);
  } else {
    for (const py::handle item : py::iter(tables)) add(item);
  }
  q.config = config;
  q.scenario = scenario;
  q.job = job;
  q.calibration = calibration;
  q.fit_on.table = fit_on;
  q.fit_on.config = fit_config;
  q.fit_sizes = fit_sizes;
  q.run = run;
  std::string json;
  {
    py::gil_scoped_release release;
    const app::ValidateReport report = app::validate(q);  // outlives the result, which borrows it
    json = json_line(validation_result(report.report));
  }
  return to_python(json);
}

// reproduce(): a catalogue experiment's result as `ecmpsim reproduce NAME -f json` prints it.
py::object reproduce(const std::string& name) {
  if (find_published(name) == nullptr)
    throw InputError({{}, 0, 0, "NAME"}, "'" + name + "' is not an experiment of the catalogue (ecmpsim.catalogue())");
  app::ReproduceRequest q;
  q.config = name;
  std::string json;
  {
    py::gil_scoped_release release;
    const app::ReproduceReport report = app::reproduce(q);  // outlives the result, which borrows it
    json = json_line(published_result(*report.published));
  }
  return to_python(json);
}

}  // namespace

void add_tools(py::module_& m) {
  m.def("topology", &topology, py::arg("files"), py::kw_only(), py::arg("tier") = std::vector<std::string>{},
        py::arg("device") = "", py::arg("lldp_format") = "", py::arg("speed") = 400.0, py::arg("no_lags") = false,
        py::arg("against") = "",
        "A topology file from LLDP neighbour tables, as `ecmpsim topology -f json` prints it, the file's text as "
        "'topology' (files: the tables' paths; tier=['SRV-*=host'], device, lldp_format, speed, no_lags, "
        "against=CONFIG as the command's flags; the comparison is the document's 'against')");
  m.def("calibrate", &calibrate, py::arg("nccl_tests_output"), py::kw_only(), py::arg("config") = "",
        py::arg("scenario") = "", py::arg("job") = "", py::arg("fit_sizes") = "", py::arg("run") = 0,
        "Fit the hosts' parameters to a real nccl-tests output on the config's routed fabric, as `ecmpsim "
        "calibrate -f json` prints it, its notes as warnings (config='' is configs/paper16.toml; fit_sizes='256M:' "
        "as --fit-sizes; run=N as --run)");
  m.def("validate", &validate, py::arg("tables"), py::kw_only(), py::arg("config") = "", py::arg("scenario") = "",
        py::arg("job") = "", py::arg("calibration") = "", py::arg("fit_on") = "", py::arg("fit_config") = "",
        py::arg("fit_sizes") = "", py::arg("run") = 0,
        "Score the predicted against measured nccl-tests tables, as `ecmpsim validate -f json` prints it "
        "(tables: a path, or a list of paths and (table, config) pairs; fit_on='t.txt', fit_sizes='64M:', run=N as "
        "--fit-on, --fit-sizes, --run)");
  m.def("reproduce", &reproduce, py::arg("name"),
        "A published experiment of the catalogue by name, as `ecmpsim reproduce NAME -f json` prints it");
  m.def(
      "catalogue",
      [] {
        py::list names;
        for (const PublishedExperiment& e : published_experiments()) names.append(std::string(e.name));
        return names;
      },
      "The catalogue's experiment names (`ecmpsim reproduce --list`)");
  m.def("fit", &fit_columns, py::arg("observations"), py::kw_only(), py::arg("members") = py::none(),
        py::arg("algos") = py::none(), py::arg("fields") = py::none(), py::arg("seeds") = "0:65536",
        py::arg("threads") = 0, py::arg("top") = 20, py::arg("exhaustive") = false,
        py::arg("weights") = std::vector<std::uint32_t>{}, py::arg("buckets") = 128, py::arg("switch") = "",
        py::arg("seed_as") = "",
        "Learn a switch's hash from the members its flows took, as `ecmpsim fit -f json` prints it: "
        "observations are columns (src, dst, proto, sport, dport, member, ...) or a CSV file's path; the "
        "keywords are the command's flags (members=4 or 'leaf0=4,...', algos, fields, seeds='A:B', threads "
        "(0: every core), top, exhaustive, weights, buckets, switch, seed_as)");
  m.def("hash", &hash, py::arg("algo"),
        "One flow's hash and ECMP member, as `ecmpsim hash -f json` prints it: "
        "hash('crc16-ccitt', src='10.0.0.1', dst='10.0.0.2', sport=49152, members=4); the other keywords are "
        "the command's flags (proto, dport, seed, seed_as, offset, dst_qp, flow_label, in_port, rss_key, src_mac, dst_mac, "
        "ethertype, vlan_id, select, buckets, fields=[...], weights=[...])");
  m.def(
      "algorithms",
      [] {
        py::list names;
        for (const auto& a : hashing::catalogue()) names.append(std::string(a.name));
        return names;
      },
      "The hash catalogue's algorithm names (`ecmpsim hash --list`)");
}

}  // namespace ecmpsim::python
