// Writers of calibrate's result: one table, one JSON document, one CSV.
#include "sim/output/calibrate_output.h"

#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "sim/base/text.h"

namespace ecmpsim {

namespace {

constexpr std::uint64_t kMB = 1ULL << 20;  // the split of the published errors: >= 1 MiB and below

// "0.5930 [0.5570, 0.6130]", with where it sits: "at its upper bound" or
// "unconstrained: 0.6350 to 1.0000 fit alike".
std::string param_text(const FittedParam& p, std::size_t k) {
  const int d = k == 0 ? 4 : 2;
  std::string out = fixed(p.value, d) + " [" + fixed(p.lo, d) + ", " + fixed(p.hi, d) + "]";
  if (!p.constrains)
    out += " unconstrained: " + fixed(p.alike_lo, d) + " to " + fixed(p.alike_hi, d) + " fit alike";
  else if (p.bound != Bound::None)
    out += p.bound == Bound::Upper ? " at its upper bound" : " at its lower bound";
  return out;
}

std::string header(const CalibrationReport& r) {
  std::string out = "calibrate: " + table_summary(r.table) + "\nmodel: " + r.config + ", scenario " + r.scenario +
                    ", " + r.job + ": routed RoCEv2 goodput busbw " + fixed(r.goodput_busbw, 2) +
                    " GB/s, intra-node cap " + fixed(r.intra_busbw, 1) + " GB/s\n";
  out += "fit (90% interval over " + std::to_string(r.fit.resamples) + " resamples of the sizes):\n";
  for (std::size_t k = 0; k < 3; ++k) {
    out += "  " + pad_right(std::string(kCalibParamKeys[k]), 16) + param_text(r.fit.params[k], k);
    if (!r.causes[k].empty()) out += ": " + r.causes[k];
    out += "\n";
  }
  return out;
}

std::string_view bound_name(Bound b) { return b == Bound::Upper ? "upper" : b == Bound::Lower ? "lower" : "none"; }

std::string rows_text(const CalibrationReport& r) {
  std::string out =
      "#       size   measured  predicted    error   algo   proto  fitted\n"
      "#        (B)       (us)       (us)\n";
  for (const CalibrationRow& row : r.fit.rows) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "%12llu  %9.2f  %9.2f  %7s  %5s  %6s  %s\n",
                  static_cast<unsigned long long>(row.size), row.measured_us, row.predicted_us,
                  format_percent(row.error).c_str(), std::string(name_of(workloads::kNcclAlgos, row.algo)).c_str(),
                  std::string(name_of(workloads::kNcclProtos, row.proto)).c_str(), row.fitted ? "yes" : "no");
    out += buf;
  }
  out += "median |error|: sizes >= 1 MiB " + format_percent(median_abs_error(r.fit.rows, kMB, ~0ULL)) + ", below " +
         format_percent(median_abs_error(r.fit.rows, 0, kMB)) + "\n";
  return out;
}

Json json_of(const CalibrationReport& r) {
  Json j = run_json(r.table, r.config, r.scenario, r.job, r.goodput_busbw, r.intra_busbw);
  const FittedParam& eff = r.fit[CalibParam::Efficiency];
  j["fit"] = {{"nic_efficiency", eff.value},
              {"intra_busbw_gbs", r.fit[CalibParam::Ceiling].value},
              {"net_latency_us", r.fit[CalibParam::Latency].value},
              {"efficiency_at_bound", eff.bound == Bound::Upper},
              {"fit_min", r.options.fit_min},
              {"fit_max", r.options.fit_max},
              {"resamples", r.fit.resamples}};
  j["parameters"] = params_json(r.fit, r.causes);
  j["median_abs_error"] = {{"ge_1MiB", median_abs_error(r.fit.rows, kMB, ~0ULL)},
                           {"lt_1MiB", median_abs_error(r.fit.rows, 0, kMB)}};
  Json rows = Json::array();
  for (const CalibrationRow& row : r.fit.rows)
    rows.push_back({{"size", row.size},
                    {"measured_us", row.measured_us},
                    {"predicted_us", row.predicted_us},
                    {"error", row.error},
                    {"algo", name_of(workloads::kNcclAlgos, row.algo)},
                    {"proto", name_of(workloads::kNcclProtos, row.proto)},
                    {"fitted", row.fitted}});
  j["rows"] = std::move(rows);
  return j;
}

void csv_of(const CalibrationReport& r, Csv& csv) {
  csv.cells({"size", "measured_us", "predicted_us", "error", "algo", "proto", "fitted"}).end_row();
  for (const CalibrationRow& row : r.fit.rows) {
    csv.cell(row.size).cell(format_number(row.measured_us)).cell(format_number(row.predicted_us));
    csv.cell(format_number(row.error)).cell(name_of(workloads::kNcclAlgos, row.algo));
    csv.cell(name_of(workloads::kNcclProtos, row.proto)).cell(row.fitted ? "1" : "0").end_row();
  }
}

}  // namespace

std::string table_summary(const NcclTestsTable& t) {
  std::string out = escape_text(t.source) + " (" + t.test + ", " + t.type;
  if (t.ranks != 0) out += ", " + std::to_string(t.ranks) + " ranks";
  if (t.nodes != 0) out += " on " + std::to_string(t.nodes) + " nodes";
  if (!t.nccl_version.empty()) out += ", NCCL " + t.nccl_version;
  return out + ")";
}

Json run_json(const NcclTestsTable& t, const std::string& config, const std::string& scenario, const std::string& job,
              double goodput_busbw, double intra_busbw) {
  Json j;
  j["source"] = t.source;
  j["test"] = t.test;
  j["type"] = t.type;
  j["ranks"] = t.ranks;
  j["nodes"] = t.nodes;
  j["nccl_version"] = t.nccl_version;
  j["config"] = config;
  j["scenario"] = scenario;
  j["job"] = job;
  j["goodput_busbw_gbs"] = goodput_busbw;
  j["intra_busbw_gbs"] = intra_busbw;
  return j;
}

Json params_json(const CalibrationFit& f, const std::array<std::string, 3>& causes) {
  Json out = Json::array();
  for (std::size_t k = 0; k < 3; ++k) {
    const FittedParam& p = f.params[k];
    out.push_back({{"key", kCalibParamKeys[k]}, {"value", p.value}, {"lo", p.lo}, {"hi", p.hi}, {"min", p.min},
                   {"max", p.max}, {"bound", bound_name(p.bound)}, {"constrained", p.constrains},
                   {"alike_lo", p.alike_lo}, {"alike_hi", p.alike_hi},
                   {"cause", causes[k]}});
  }
  return out;
}

std::string fit_summary(const CalibrationFit& f) {
  std::string out;
  for (std::size_t k = 0; k < 3; ++k)
    out += (k ? ", " : "") + std::string(kCalibParamKeys[k]) + " " + param_text(f.params[k], k);
  return out;
}

Result calibration_result(const CalibrationReport& r) {
  Result out;
  out.text = [&r] { return header(r) + rows_text(r) + "\n" + calibration_snippet(r); };
  out.brief = [&r] { return header(r); };
  out.json = [&r](JsonWriter& w) { w.value(json_of(r)); };
  out.csv = [&r](Csv& csv) { csv_of(r, csv); };
  return out;
}

std::string calibration_snippet(const CalibrationReport& r) {
  // Paths escaped: a line break in one would end the TOML comment and start a key.
  std::string out = "# ecmpsim calibrate: fitted on " + escape_text(r.table.source) + " (" + escape_text(r.table.test) +
                    ") with " + escape_text(r.config) +
                    ", scenario " + r.scenario + ", " + r.job + ".\n";
  out += "# Append to any config (TOML has no include): cat THIS_FILE >> config.toml; its keys override [hosts].\n";
  out += "[calibration]\n";
  // A parameter the table does not constrain is not written: the config's value stands.
  for (std::size_t k = 0; k < 3; ++k) {
    const FittedParam& p = r.fit.params[k];
    const std::string why = r.causes[k].empty() ? "" : ": " + r.causes[k];
    if (p.constrains)
      out += std::string(kCalibParamKeys[k]) + " = " + format_number(p.value) + "  # " + param_text(p, k) + why + "\n";
    else
      out += "# " + std::string(kCalibParamKeys[k]) + " not fitted (" + param_text(p, k) + why + ")\n";
  }
  return out;
}

}  // namespace ecmpsim
