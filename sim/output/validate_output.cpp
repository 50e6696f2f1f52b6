// Writers of validate's result: one table, one JSON document, one CSV.
#include "sim/output/validate_output.h"

#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "sim/base/text.h"

namespace ecmpsim {

namespace {

std::string params_line(const ValidationReport& r) {
  std::string out = "parameters: " + std::string(doc_of(kParamsFrom, r.from));
  if (r.from == ParamsFrom::Calibration) out += " (" + r.calibration + ")";
  if (r.fit) {
    const CalibrationReport& f = *r.fit;
    out += " " + table_summary(f.table) + " with " + f.config + ", scenario " + f.scenario + ", " + f.job;
    if (f.options.fit_min != 0 || f.options.fit_max != ~0ULL)
      out += ", sizes " + std::to_string(f.options.fit_min) + " to " +
             (f.options.fit_max == ~0ULL ? std::string("the largest") : std::to_string(f.options.fit_max));
    out += ": " + fit_summary(f.fit);
  }
  return out + "\n";
}

std::string table_header(const ValidatedTable& t) {
  return "table: " + table_summary(t.table) + "\nmodel: " + t.config + ", scenario " + t.scenario + ", " + t.job +
         ": routed RoCEv2 goodput busbw " + fixed(t.goodput_busbw, 2) + " GB/s, intra-node cap " +
         fixed(t.intra_busbw, 1) + " GB/s, nic_efficiency " + fixed(t.nic_efficiency, 4) + ", net_latency_us " +
         fixed(t.net_latency_us, 2) + "\n";
}

std::string bands_text(const BandSummary& bands) {
  std::string out = "#    band  sizes  fitted  median |time error|  max  median |busbw error|  max\n";
  for (std::size_t i = 0; i < kSizeBands.size(); ++i) {
    const BandErrors& b = bands[i];
    char buf[160];
    std::snprintf(buf, sizeof buf, "%9s  %5zu  %6zu  %19s  %7s  %20s  %7s\n", std::string(kSizeBands[i].doc).c_str(),
                  b.sizes, b.fitted, format_percent(b.median_time).c_str(), format_percent(b.max_time).c_str(),
                  format_percent(b.median_busbw).c_str(), format_percent(b.max_busbw).c_str());
    out += buf;
  }
  return out;
}

std::string rows_text(const ValidatedTable& t) {
  std::string out =
      "#       size   measured  predicted  time error  measured  predicted  busbw error   algo   proto  fitted\n"
      "#        (B)       (us)       (us)              (GB/s)     (GB/s)\n";
  for (const ValidationRow& v : t.rows) {
    const CalibrationRow& row = v.time;
    char buf[200];
    std::snprintf(buf, sizeof buf, "%12llu  %9.2f  %9.2f  %10s  %8.2f  %9.2f  %11s  %5s  %6s  %s\n",
                  static_cast<unsigned long long>(row.size), row.measured_us, row.predicted_us,
                  format_percent(row.error).c_str(), v.measured_busbw, v.predicted_busbw, format_percent(v.busbw_error).c_str(),
                  std::string(name_of(workloads::kNcclAlgos, row.algo)).c_str(),
                  std::string(name_of(workloads::kNcclProtos, row.proto)).c_str(), row.fitted ? "yes" : "no");
    out += buf;
  }
  return out;
}

std::string text(const ValidationReport& r, bool rows) {
  std::string out = params_line(r);
  for (const ValidatedTable& t : r.tables) {
    out += "\n" + table_header(t);
    if (rows) out += rows_text(t);
    out += bands_text(t.bands);
  }
  if (r.tables.size() > 1) out += "\nall " + std::to_string(r.tables.size()) + " tables:\n" + bands_text(r.bands);
  return out;
}

Json bands_json(const BandSummary& bands) {
  Json out = Json::array();
  for (std::size_t i = 0; i < kSizeBands.size(); ++i) {
    const BandErrors& b = bands[i];
    out.push_back({{"band", kSizeBands[i].name},
                   {"sizes", b.sizes},
                   {"fitted", b.fitted},
                   {"time_error", {{"median_abs", b.median_time}, {"max_abs", b.max_time}}},
                   {"busbw_error", {{"median_abs", b.median_busbw}, {"max_abs", b.max_busbw}}}});
  }
  return out;
}

Json table_json(const ValidatedTable& t) {
  Json j = run_json(t.table, t.config, t.scenario, t.job, t.goodput_busbw, t.intra_busbw);
  j["nic_efficiency"] = t.nic_efficiency;
  j["net_latency_us"] = t.net_latency_us;
  Json rows = Json::array();
  for (const ValidationRow& v : t.rows)
    rows.push_back({{"size", v.time.size},
                    {"band", size_band(v.time.size).name},
                    {"measured_us", v.time.measured_us},
                    {"predicted_us", v.time.predicted_us},
                    {"time_error", v.time.error},
                    {"measured_busbw_gbs", v.measured_busbw},
                    {"predicted_busbw_gbs", v.predicted_busbw},
                    {"busbw_error", v.busbw_error},
                    {"algo", name_of(workloads::kNcclAlgos, v.time.algo)},
                    {"proto", name_of(workloads::kNcclProtos, v.time.proto)},
                    {"fitted", v.time.fitted}});
  j["rows"] = std::move(rows);
  j["bands"] = bands_json(t.bands);
  return j;
}

Json json_of(const ValidationReport& r) {
  Json j;
  j["parameters"] = name_of(kParamsFrom, r.from);
  if (r.from == ParamsFrom::Calibration) j["calibration"] = r.calibration;
  if (r.fit) {
    const CalibrationReport& f = *r.fit;
    j["fit"] = {{"source", f.table.source},
                {"test", f.table.test},
                {"config", f.config},
                {"scenario", f.scenario},
                {"job", f.job},
                {"nic_efficiency", f.fit[CalibParam::Efficiency].value},
                {"intra_busbw_gbs", f.fit[CalibParam::Ceiling].value},
                {"net_latency_us", f.fit[CalibParam::Latency].value},
                {"efficiency_at_bound", f.fit[CalibParam::Efficiency].bound == Bound::Upper},
                {"fit_min", f.options.fit_min},
                {"fit_max", f.options.fit_max},
                {"parameters", params_json(f.fit, f.causes)}};
  }
  Json tables = Json::array();
  for (const ValidatedTable& t : r.tables) tables.push_back(table_json(t));
  j["tables"] = std::move(tables);
  j["bands"] = bands_json(r.bands);
  return j;
}

void csv_of(const ValidationReport& r, Csv& csv) {
  csv.cells({"source", "config", "size", "band", "measured_us", "predicted_us", "time_error", "measured_busbw_gbs",
             "predicted_busbw_gbs", "busbw_error", "algo", "proto", "fitted"})
      .end_row();
  for (const ValidatedTable& t : r.tables)
    for (const ValidationRow& v : t.rows) {
      csv.cell(t.table.source).cell(t.config).cell(v.time.size).cell(size_band(v.time.size).name);
      csv.cell(format_number(v.time.measured_us)).cell(format_number(v.time.predicted_us));
      csv.cell(format_number(v.time.error)).cell(format_number(v.measured_busbw));
      csv.cell(format_number(v.predicted_busbw)).cell(format_number(v.busbw_error));
      csv.cell(name_of(workloads::kNcclAlgos, v.time.algo)).cell(name_of(workloads::kNcclProtos, v.time.proto));
      csv.cell(v.time.fitted ? "1" : "0").end_row();
    }
}

}  // namespace

Result validation_result(const ValidationReport& r) {
  Result out;
  out.text = [&r] { return text(r, true); };
  out.brief = [&r] { return text(r, false); };
  out.json = [&r](JsonWriter& w) { w.value(json_of(r)); };
  out.csv = [&r](Csv& csv) { csv_of(r, csv); };
  return out;
}

}  // namespace ecmpsim
