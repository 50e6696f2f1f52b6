// Writers of the size table. The text follows nccl-tests' print format
// (src/common.cu: "%12li  %12li  %8s", time "%7.2f" below 100 us, "%7.1f"
// below 10 ms, else "%7.0f", bandwidths "%6.2f") so the two line up.
#include "sim/output/sizes_output.h"

#include <cstdio>

#include <nlohmann/json.hpp>

#include "sim/base/text.h"
#include "sim/output/busbw_figures.h"
#include "sim/model/size_table.h"

namespace ecmpsim {

namespace {

std::string nccl_tests_time(double us) {
  char buf[32];
  std::snprintf(buf, sizeof buf, us >= 10000 ? "%7.0f" : us >= 100 ? "%7.1f" : "%7.2f", us);
  return buf;
}

std::string row_text(const SizeRow& row) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%12llu  %12llu  %8s  %7s  %6.2f  %6.2f  %5s  %6s  %8.4f\n",
                static_cast<unsigned long long>(row.size.value), static_cast<unsigned long long>(row.count),
                kElementType, nccl_tests_time(row.time_us).c_str(), row.algbw_gbs, row.busbw_gbs,
                std::string(size_algo_name(row)).c_str(),
                std::string(name_of(workloads::kNcclProtos, row.proto)).c_str(), row.slowdown);
  return buf;
}

std::string job_heading(const Simulation& sim, const ScenarioResult& r, std::uint32_t j) {
  const JobInfo& info = sim.jobs()[j];
  const JobSpec& js = sim.spec().jobs[j];
  return "\nsizes: scenario " + r.spec->name + ", " + info.name + " (" + info.collective + ", " +
         std::to_string(info.ranks) + " ranks; NCCL " + workloads::nccl_version_text(js.nccl_version) +
         " cost model, " +
         std::string(name_of(workloads::kChannelCouplings, js.nccl.coupling)) + " channels)\n" +
         "#       size         count      type     time   algbw   busbw   algo   proto  slowdown\n"
         "#        (B)    (elements)               (us)  (GB/s)  (GB/s)                 vs ideal\n"
         "# busbw is the " + busbw_legend(BusbwFigure::NcclTests) + "\n";
}

}  // namespace

std::string sizes_text(const Simulation& sim, const std::vector<ScenarioResult>& results,
                       std::span<const std::vector<SizeRow>> sizes) {
  std::string out;
  for (std::size_t s = 0; s < results.size(); ++s) {
    const ScenarioResult& r = results[s];
    const std::vector<SizeRow>& rows = sizes[s];
    for (std::size_t i = 0; i < rows.size(); ++i) {
      if (i == 0 || rows[i].job != rows[i - 1].job) out += job_heading(sim, r, rows[i].job);
      out += row_text(rows[i]);
    }
  }
  return out;
}

Json sizes_json(const Simulation& sim, std::span<const SizeRow> table) {
  Json rows = Json::array();
  for (const SizeRow& row : table) {
    Json o;
    o["job"] = sim.jobs()[row.job].name;
    o["size"] = row.size.value;
    o["count"] = row.count;
    o["type"] = kElementType;
    o["time_us"] = row.time_us;
    o["algbw_gbs"] = row.algbw_gbs;
    o["busbw_gbs"] = row.busbw_gbs;
    o["algo"] = size_algo_name(row);
    o["proto"] = name_of(workloads::kNcclProtos, row.proto);
    o["slowdown"] = row.slowdown;
    rows.push_back(std::move(o));
  }
  return rows;
}

void sizes_csv(const Simulation& sim, const std::vector<ScenarioResult>& results,
               std::span<const std::vector<SizeRow>> sizes, Csv& csv) {
  csv.cells({"scenario", "job", "size", "count", "type", "time_us", "algbw_gbs", "busbw_gbs", "algo", "proto", "slowdown"})
      .end_row();
  for (std::size_t s = 0; s < results.size(); ++s)
    for (const SizeRow& row : sizes[s]) {
      csv.cell(results[s].spec->name).cell(sim.jobs()[row.job].name).cell(row.size.value).cell(row.count).cell(kElementType);
      csv.cell(format_number(row.time_us)).cell(format_number(row.algbw_gbs)).cell(format_number(row.busbw_gbs));
      csv.cell(size_algo_name(row)).cell(name_of(workloads::kNcclProtos, row.proto));
      csv.cell(format_number(row.slowdown)).end_row();
    }
}

}  // namespace ecmpsim
