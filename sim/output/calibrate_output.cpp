// Writers of calibrate's result: one table, one JSON document, one CSV.
#include "sim/output/calibrate_output.h"

#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "sim/base/text.h"

namespace ecmpsim {

namespace {

constexpr std::uint64_t kMB = 1ULL << 20;  // the split of the published errors: >= 1 MiB and below

std::string percent(double v) { return std::isnan(v) ? "-" : fixed(100 * v, 1) + "%"; }

std::string header(const CalibrationReport& r) {
  return "calibrate: " + table_summary(r.table) + "\nmodel: " + r.config + ", scenario " + r.scenario + ", " + r.job +
         ": routed RoCEv2 goodput busbw " + fixed(r.goodput_busbw, 2) + " GB/s, intra-node cap " +
         fixed(r.intra_busbw, 1) + " GB/s\nfit: " + fit_summary(r.fit) + "\n";
}

std::string rows_text(const CalibrationReport& r) {
  std::string out =
      "#       size   measured  predicted    error   algo   proto  fitted\n"
      "#        (B)       (us)       (us)\n";
  for (const CalibrationRow& row : r.fit.rows) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "%12llu  %9.2f  %9.2f  %7s  %5s  %6s  %s\n",
                  static_cast<unsigned long long>(row.size), row.measured_us, row.predicted_us,
                  percent(row.error).c_str(), std::string(name_of(workloads::kNcclAlgos, row.algo)).c_str(),
                  std::string(name_of(workloads::kNcclProtos, row.proto)).c_str(), row.fitted ? "yes" : "no");
    out += buf;
  }
  out += "median |error|: sizes >= 1 MiB " + percent(median_abs_error(r.fit.rows, kMB, ~0ULL)) + ", below " +
         percent(median_abs_error(r.fit.rows, 0, kMB)) + "\n";
  return out;
}

Json json_of(const CalibrationReport& r) {
  Json j = run_json(r.table, r.config, r.scenario, r.job, r.goodput_busbw, r.intra_busbw);
  j["fit"] = {{"nic_efficiency", r.fit.nic_efficiency},
              {"net_latency_us", r.fit.net_latency_us},
              {"efficiency_at_bound", r.fit.efficiency_at_bound},
              {"fit_min", r.options.fit_min},
              {"fit_max", r.options.fit_max}};
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

std::string fit_summary(const CalibrationFit& f) {
  return "nic_efficiency " + fixed(f.nic_efficiency, 4) +
         (f.efficiency_at_bound ? " (at its bound: the measured table is faster than the routed fabric allows)" : "") +
         ", net_latency_us " + fixed(f.net_latency_us, 2);
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
  out += "nic_efficiency = " + format_number(r.fit.nic_efficiency) + "\n";
  out += "net_latency_us = " + format_number(r.fit.net_latency_us) + "\n";
  return out;
}

}  // namespace ecmpsim
