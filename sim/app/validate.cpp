// `validate` (see validate.h).
#include "sim/app/validate.h"

#include <algorithm>

#include "sim/app/files.h"
#include "sim/base/error.h"

namespace ecmpsim::app {
namespace {

// A table's run with the request's fields where the table leaves them empty.
TableRun resolved(TableRun run, const ValidateRequest& q) {
  for (auto [mine, theirs] : {std::pair{&run.config, &q.config}, std::pair{&run.scenario, &q.scenario},
                              std::pair{&run.job, &q.job}, std::pair{&run.calibration, &q.calibration}})
    if (mine->empty()) *mine = *theirs;
  if (run.run == 0) run.run = q.run;
  return run;
}

// Whether `m` is the run the fit was made on: the same table routed as the same job.
bool is_fit(const MeasuredRun& m, const CalibrationReport& f) {
  return same_file(m.table.source, f.table.source) && same_file(m.config, f.config) && m.scenario == f.scenario &&
         m.job == f.job;
}

void check_request(const ValidateRequest& q) {
  if (q.tables.empty()) throw InputError(option_at("tables"), "no nccl-tests table to score");
  if (!q.fit_sizes.empty() && q.fit_on.table.empty())
    throw InputError(option_at("fit_sizes"), "sizes to fit on need a table to fit: give " + option_ref("fit_on"));
  if (!q.fit_on.config.empty() && q.fit_on.table.empty())
    throw InputError(option_at("fit_config"), "a config to fit on needs a table to fit: give " + option_ref("fit_on"));
  const bool own_configs = std::any_of(q.tables.begin(), q.tables.end(), [](const TableRun& t) { return !t.config.empty(); });
  if (!q.fit_on.table.empty() && q.fit_on.config.empty() && q.config.empty() && own_configs)
    throw InputError(option_at("fit_config"), "the tables have configs of their own: name the one " +
                                                  option_ref("fit_on") + " ran on");
  if (!q.calibration.empty() && !q.fit_on.table.empty())
    throw InputError(option_at("calibration"), "the parameters come from a calibration file or from a fit on " +
                                                   option_ref("fit_on") + ", not both");
}

ValidatedTable score(MeasuredRun&& m, const std::optional<CalibrationReport>& fit) {
  ValidatedTable t;
  // Each parameter the fit's where its table constrains it (what its
  // snippet writes), else the config's (the ceiling: else the hardware's).
  const auto fitted = [&](CalibParam k, double stated) {
    return fit && (*fit).fit[k].constrains ? (*fit).fit[k].value : stated;
  };
  t.nic_efficiency = fitted(CalibParam::Efficiency, m.nic_efficiency);
  t.intra_busbw = fitted(CalibParam::Ceiling, m.intra_busbw_gbs > 0 ? m.intra_busbw_gbs : m.base.host.intra_busbw);
  t.net_latency_us = fitted(CalibParam::Latency, m.net_latency_us);
  // The fitted sizes: the fit's range on the fit's own run, none elsewhere.
  CalibrationOptions o = m.options;
  o.fit_min = ~0ULL;
  o.fit_max = 0;
  if (fit && is_fit(m, *fit)) o.fit_min = fit->options.fit_min, o.fit_max = fit->options.fit_max;
  t.rows = validation_rows(
      predict_rows(m.base, m.table, o, {t.nic_efficiency, t.intra_busbw, t.net_latency_us}), m.bus_factor);
  for (std::size_t i = 0; i < kSizeBands.size(); ++i) t.bands[i] = band_errors(t.rows, kSizeBands[i]);
  t.table = std::move(m.table);
  t.config = std::move(m.config);
  t.scenario = std::move(m.scenario);
  t.job = std::move(m.job);
  t.goodput_busbw = m.goodput_busbw;
  return t;
}

}  // namespace

ValidateReport validate(const ValidateRequest& q) {
  check_request(q);
  ValidateReport out;
  ValidationReport& report = out.report;
  const std::string outs[] = {q.out};
  if (!q.fit_on.table.empty()) {
    CalibrationOptions copt;
    if (!q.fit_sizes.empty()) read_fit_sizes(q.fit_sizes, copt);
    MeasuredRun f = measured_run(resolved(q.fit_on, q), q.limits, outs);
    out.inputs = f.inputs;
    report.from = ParamsFrom::Fit;
    report.fit = fit_run(std::move(f), copt);
  } else if (!q.calibration.empty()) {
    report.from = ParamsFrom::Calibration;
    report.calibration = q.calibration;
  }
  std::vector<ValidationRow> all;
  for (const TableRun& run : q.tables) {
    MeasuredRun m = measured_run(resolved(run, q), q.limits, outs);
    out.inputs.insert(out.inputs.end(), m.inputs.begin(), m.inputs.end());
    report.tables.push_back(score(std::move(m), report.fit));
    all.insert(all.end(), report.tables.back().rows.begin(), report.tables.back().rows.end());
  }
  for (std::size_t i = 0; i < kSizeBands.size(); ++i) report.bands[i] = band_errors(all, kSizeBands[i]);
  return out;
}

void add_tables(ValidateRequest& q, const std::vector<std::string>& paths, const std::vector<std::string>& configs) {
  if (configs.size() > 1 && configs.size() != paths.size())
    throw InputError(option_at("config"), "give one config for every table or one per table (" +
                                              std::to_string(paths.size()) + " tables, " +
                                              std::to_string(configs.size()) + " configs)");
  if (configs.size() == 1) q.config = configs.front();
  for (std::size_t i = 0; i < paths.size(); ++i)
    q.tables.push_back({paths[i], configs.size() > 1 ? configs[i] : std::string(), {}, {}, {}, 0});
}

}  // namespace ecmpsim::app
