// Config.sweep(): `ecmpsim sweep` from keyword arguments. The arguments fill
// app::SweepRequest (sim/app/sweep.h), so the sweep is checked, run,
// checkpointed and summarized by the same code, on the same threads. The engine runs
// on a thread of its own while this one waits without the GIL and, every
// 50 ms, takes it to let Python run its signal handlers: Ctrl-C sets the
// engine's stop flag, as SIGINT does in the CLI, and raises KeyboardInterrupt.
#include <chrono>
#include <future>
#include <mutex>
#include <thread>

#include <nlohmann/json.hpp>
#include <pybind11/stl.h>

#include "python/py_module.h"
#include "sim/base/error.h"
#include "sim/base/parallel.h"
#include "sim/app/sweep.h"
#include "sim/routing/seeds.h"

namespace ecmpsim::python {
namespace {

struct SweepResult {
  std::shared_ptr<const Sweep> sweep;
  std::shared_ptr<const SweepRun> run;
  py::object json;
  std::vector<std::string> notes;  // the lines `ecmpsim sweep` prints on stderr as it runs
};

// An axis as its flag's text: a range as A:B (A:B:STEP), a str as given,
// an int as the one value N:N+1.
std::string range_text(const py::object& v, const char* name) {
  if (py::isinstance<py::str>(v)) return py::cast<std::string>(v);
  if (py::isinstance<py::int_>(v)) {
    const auto n = py::cast<std::uint64_t>(v);
    return std::to_string(n) + ":" + std::to_string(n + 1);
  }
  if (!py::isinstance(v, py::module_::import("builtins").attr("range")))
    throw py::type_error(std::string(name) + ": expected a range, an int or a str like '0:1000'");
  const auto start = py::cast<std::int64_t>(v.attr("start"));
  const auto stop = py::cast<std::int64_t>(v.attr("stop"));
  const auto step = py::cast<std::int64_t>(v.attr("step"));
  return std::to_string(start) + ":" + std::to_string(stop) + (step == 1 ? "" : ":" + std::to_string(step));
}

// A list axis as its flag's text: a str as given, else the items joined by commas.
std::string list_text(const py::object& v) {
  if (py::isinstance<py::str>(v)) return py::cast<std::string>(v);
  std::string out;
  for (const py::handle item : py::iter(v)) out += (out.empty() ? "" : ",") + std::string(py::str(item));
  return out;
}

// The checks CLI11 makes on the command's numeric flags, in its words.
void check_count(const char* flag, std::uint64_t v, std::uint64_t lo, std::uint64_t hi) {
  if (v < lo || v > hi)
    throw InputError(option_at(flag), "expected an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                                           "], got '" + std::to_string(v) + "'");
}

// Runs the job as described above; `control.stop` is the engine's stop flag.
// Interrupted, the checkpoint's last save is made before KeyboardInterrupt.
void run_polled(app::SweepJob& job) {
  SweepControl control;
  bool interrupted = false;
  std::exception_ptr error;
  {
    py::gil_scoped_release release;
    std::promise<void> finished;
    std::future<void> done = finished.get_future();
    std::thread worker([&] {
      try {
        job.run(control);
      } catch (...) {
        error = std::current_exception();
      }
      finished.set_value();
    });
    while (done.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready) {
      if (interrupted) continue;
      py::gil_scoped_acquire acquire;
      if (PyErr_CheckSignals() != 0) {  // the handler raised (KeyboardInterrupt): it stays set
        interrupted = true;
        control.stop.store(true);
      }
    }
    worker.join();
  }
  if (interrupted) {
    {
      py::gil_scoped_release release;
      job.finish(false);
    }
    throw py::error_already_set();
  }
  if (error) std::rethrow_exception(error);
}

SweepResult sweep(const Config& c, const app::SweepRequest& q) {
  auto notes = std::make_shared<std::vector<std::string>>();
  auto lock = std::make_shared<std::mutex>();
  std::unique_ptr<app::SweepJob> job;
  {
    py::gil_scoped_release release;
    job = std::make_unique<app::SweepJob>(*c.spec, q, nullptr, [notes, lock](const std::string& line) {
      const std::lock_guard<std::mutex> hold(*lock);
      notes->push_back(spell_options(line, keyword_spelling));
    });
  }
  run_polled(*job);
  std::string text;
  {
    py::gil_scoped_release release;
    const app::SweepSummaries summaries = job->summaries();
    text = json_text(sweep_json(summaries.report(*job->sweep(), *job->result())), -1);
    job->finish(true);  // the result is whole in memory: a checkpoint's last save is synced
  }
  const std::lock_guard<std::mutex> hold(*lock);
  return {job->sweep(), job->result(), to_python(text), *notes};
}

// One row per variant, the columns `sweep -f csv` writes: index, the axes,
// then the metrics and each job's busbw (Gb/s) viewed in place.
py::dict sweep_columns(const SweepResult& r) {
  const VariantSpace& space = r.sweep->space();
  const SweepSpec& a = space.axes();
  const ValueTable& values = r.run->values;
  const std::uint64_t rows = values.size();
  std::vector<std::uint64_t> index(rows);
  py::list scenario, algo, placement, qps, qpn, sport, seed, seed_mode;
  for (std::uint64_t i = 0; i < rows; ++i) {
    index[i] = r.run->begin + i;
    const Overrides o = space.at(index[i]);
    const auto value = [](const auto& opt) { return opt ? py::cast(*opt) : py::object(py::none()); };
    scenario.append(*o.scenario);
    algo.append(value(o.algo));
    placement.append(value(o.placement_seed));
    qps.append(value(o.qps));
    qpn.append(value(o.qpn_base));
    sport.append(value(o.sport_base));
    seed.append(value(o.seed));
    seed_mode.append(o.seed_mode ? py::cast(std::string(name_of(kSeedModes, *o.seed_mode))) : py::object(py::none()));
  }
  py::dict out;
  out["index"] = array_of(std::move(index));
  out["scenario"] = scenario;
  if (!a.algos.empty()) out["algo"] = algo;
  if (a.placement_seeds) out["placement_seed"] = placement;
  if (!a.qps.empty()) out["qps"] = qps;
  if (a.qpn_base) out["qpn_base"] = qpn;
  if (a.sport_base) out["sport_base"] = sport;
  if (a.seeds) {
    out["seed"] = seed;
    out["seed_mode"] = seed_mode;
  }
  const bool sized = space.combos() > 0 && !r.sweep->plan(0).sized().empty();
  for (std::size_t k = 0; k < kSweepMetrics; ++k) {
    const auto m = static_cast<SweepMetric>(k);
    if ((m == SweepMetric::Slowdown && !a.slowdown) || (per_size(m) && !sized)) continue;
    out[py::str(std::string(sweep_metric_name(m)))] = view_of(values.data() + k, rows, r.run, values.width());
  }
  for (std::size_t j = 0; a.slowdown && j < values.jobs(); ++j)
    out[py::str("busbw_gbps:" + r.sweep->base().jobs()[j].name)] =
        view_of(values.data() + busbw_column(j), rows, r.run, values.width());
  return out;
}

}  // namespace

void add_sweep(py::module_& m, py::class_<Config>& config) {
  config.def(
      "sweep",
      [](const Config& c, py::object seeds, std::optional<std::string> seed_mode, py::object sport_base,
         py::object qpn_base, py::object qps, py::object algos, py::object placement_seeds, py::object scenario,
         unsigned threads, std::optional<std::string> metric, std::optional<double> threshold, bool slowdown,
         unsigned bins, bool pooled, std::optional<std::string> rank_by, py::object over,
         std::optional<std::uint64_t> max_variants, bool force, std::optional<std::string> checkpoint,
         std::optional<std::string> resume, double checkpoint_every) {
        app::SweepRequest o;
        if (!seeds.is_none()) o.seeds = range_text(seeds, "seeds");
        o.seed_mode = seed_mode.value_or("");
        if (!sport_base.is_none()) o.sport_base = range_text(sport_base, "sport_base");
        if (!qpn_base.is_none()) o.qpn_base = range_text(qpn_base, "qpn_base");
        if (!placement_seeds.is_none()) o.placement_seeds = range_text(placement_seeds, "placement_seeds");
        if (!qps.is_none()) o.qps = py::isinstance<py::int_>(qps) ? std::string(py::str(qps)) : list_text(qps);
        if (!algos.is_none()) o.algos = list_text(algos);
        if (!scenario.is_none()) o.scenario = list_text(scenario);
        if (threads != 0) check_count("threads", threads, 1, 4096);
        o.threads = threads;
        o.metric = metric.value_or("");
        o.threshold = threshold;
        o.no_slowdown = !slowdown;
        check_count("bins", bins, 1, 10000);
        o.bins = bins;
        o.pooled = pooled;
        o.rank_by = rank_by.value_or("");
        if (!over.is_none()) o.over = list_text(over);
        if (max_variants) check_count("max_variants", *max_variants, 1, ~0ULL >> 1);
        o.max_variants = max_variants;
        o.force = force;
        o.checkpoint.checkpoint = checkpoint.value_or("");
        o.checkpoint.resume = resume.value_or("");
        if (!(checkpoint_every >= 0.001))
          throw InputError(option_at("checkpoint_every"), "expected a number >= 0.001, got '" +
                                                              std::to_string(checkpoint_every) + "'");
        o.checkpoint.every = checkpoint_every;
        return sweep(c, o);
      },
      py::kw_only(), py::arg("seeds") = py::none(), py::arg("seed_mode") = py::none(),
      py::arg("sport_base") = py::none(), py::arg("qpn_base") = py::none(), py::arg("qps") = py::none(),
      py::arg("algos") = py::none(), py::arg("placement_seeds") = py::none(), py::arg("scenario") = py::none(),
      py::arg("threads") = 0, py::arg("metric") = py::none(), py::arg("threshold") = py::none(),
      py::arg("slowdown") = true, py::arg("bins") = 20, py::arg("pooled") = false, py::arg("rank_by") = py::none(),
      py::arg("over") = py::none(), py::arg("max_variants") = py::none(), py::arg("force") = false,
      py::arg("checkpoint") = py::none(), py::arg("resume") = py::none(), py::arg("checkpoint_every") = 5.0,
      "Evaluate the variants, as `ecmpsim sweep` with the flags of the same names (seeds=range(0, 1000) for "
      "--seeds 0:1000; lists for --algos, --qps, --scenario, --over; threads=0: every core). checkpoint=FILE "
      "saves the finished variants as they come and resumes a FILE of this sweep (the same call works again "
      "after a kill); resume=FILE merges a checkpoint's rank files (MPI ranks' or shards'). Ctrl-C saves the "
      "checkpoint and raises KeyboardInterrupt");

  py::class_<SweepResult>(m, "SweepResult", "What Config.sweep() returns")
      .def_property_readonly("json", [](const SweepResult& r) { return r.json; },
                             "The document `ecmpsim sweep -f json` prints, as dicts and lists")
      .def("__len__", [](const SweepResult& r) { return r.run->values.size(); })
      .def_property_readonly("notes", [](const SweepResult& r) { return r.notes; },
                             "The lines `ecmpsim sweep` prints on stderr after 'ecmpsim: ' as it runs (a "
                             "resumed checkpoint, a save that failed), in order")
      .def("columns", &sweep_columns,
           "One row per variant, the columns `sweep -f csv` writes (the fabric-bound busbw in Gb/s, comparable "
           "with the NICs' line rate: busbw_gbps:JOB; nccl-tests busbw in GB/s, comparable with a measurement: "
           "busbw_at, busbw_avg); the metric columns are read-only views of the engine's table, not copies");
}

}  // namespace ecmpsim::python
