#include "sim/output/replay_output.h"

#include <nlohmann/json.hpp>

#include "sim/base/text.h"

namespace ecmpsim {

namespace {

Json optional_us(const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); }

std::string us_cell(const std::optional<double>& v) { return v ? fixed(*v, 1) : "-"; }

Json groups_json(const ReplayReport& r, const ReplayScenario& s) {
  Json rows = Json::array();
  for (const ReplayGroupStep& g : s.groups)
    rows.push_back({{"step", g.step},
                    {"group", r.groups[g.group]},
                    {"collectives", g.collectives},
                    {"measured_comm_us", g.measured_comm_us},
                    {"measured_exposed_us", g.measured_exposed_us},
                    {"predicted_comm_us", g.predicted_comm_us},
                    {"predicted_exposed_us", g.predicted_exposed_us}});
  return rows;
}

}  // namespace

Json replay_json(const ReplayReport& r) {
  Json doc;
  doc["files"] = r.files;
  doc["ranks"] = r.ranks;
  doc["traced_ranks"] = r.traced;
  doc["flows"] = r.flows;
  Json groups = Json::array();
  for (std::size_t g = 0; g < r.groups.size(); ++g) groups.push_back({{"name", r.groups[g]}, {"ranks", r.group_size[g]}});
  doc["groups"] = std::move(groups);
  Json scenarios = Json::array();
  for (const ReplayScenario& s : r.scenarios) {
    Json rows = Json::array();
    for (const ReplayRow& c : s.collectives)
      rows.push_back({{"group", r.groups[c.group]},
                      {"seq", c.seq},
                      {"collective", c.collective},
                      {"bytes", c.bytes},
                      {"start_us", c.start_us},
                      {"measured_us", c.measured_us},
                      {"predicted_us", optional_us(c.predicted_us)},
                      {"alone_us", optional_us(c.alone_us)},
                      {"op", c.op},
                      {"algo", c.algo},
                      {"flows", c.flows}});
    scenarios.push_back({{"name", s.name},
                         {"measured_span_us", s.measured_span_us},
                         {"predicted_span_us", s.predicted_span_us},
                         {"collectives", std::move(rows)},
                         {"groups", groups_json(r, s)}});
  }
  doc["scenarios"] = std::move(scenarios);
  doc["notes"] = r.notes;
  return doc;
}

void replay_csv(const ReplayReport& r, Csv& csv) {
  csv.cells({"scenario", "group", "seq", "collective", "op", "algo", "bytes", "flows", "start_us", "measured_us",
             "predicted_us", "alone_us"});
  csv.end_row();
  const auto num = [](const std::optional<double>& v) { return v ? format_number(*v) : std::string(); };
  for (const ReplayScenario& s : r.scenarios)
    for (const ReplayRow& c : s.collectives) {
      csv.cell(s.name).cell(r.groups[c.group]).cell(c.seq).cell(c.collective).cell(c.op).cell(c.algo).cell(c.bytes);
      csv.cell(c.flows).cell(format_number(c.start_us)).cell(format_number(c.measured_us));
      csv.cell(num(c.predicted_us)).cell(num(c.alone_us));
      csv.end_row();
    }
}

std::string replay_text(const ReplayReport& r) {
  std::string out = "replay: " + plural(r.files.size(), "trace") + ", " + std::to_string(r.traced) + " of " +
                    plural(r.ranks, "rank") + " traced, " + plural(r.groups.size(), "group") + ", " +
                    plural(r.flows, "flow") + "\n";
  for (const ReplayScenario& s : r.scenarios) {
    out += "\nscenario " + s.name + ": span measured " + fixed(s.measured_span_us, 1) + " us, predicted " +
           fixed(s.predicted_span_us, 1) + " us\n";
    out += "  group        seq  collective              bytes    start_us  measured_us  predicted_us  alone_us\n";
    for (const ReplayRow& c : s.collectives)
      out += "  " + pad_right(r.groups[c.group], 10) + pad_left(std::to_string(c.seq), 5) + "  " +
             pad_right(c.collective, 18) + pad_left(human_bytes(static_cast<double>(c.bytes)), 11) +
             pad_left(fixed(c.start_us, 1), 12) + pad_left(fixed(c.measured_us, 1), 13) +
             pad_left(us_cell(c.predicted_us), 14) + pad_left(us_cell(c.alone_us), 10) + "\n";
    out += "  step  group      collectives  comm_us (measured / predicted)  exposed_us (measured / predicted)\n";
    for (const ReplayGroupStep& g : s.groups)
      out += "  " + pad_left(std::to_string(g.step), 4) + "  " + pad_right(r.groups[g.group], 10) +
             pad_left(std::to_string(g.collectives), 12) + pad_left(fixed(g.measured_comm_us, 1), 14) + " / " +
             pad_right(fixed(g.predicted_comm_us, 1), 14) + pad_left(fixed(g.measured_exposed_us, 1), 15) + " / " +
             fixed(g.predicted_exposed_us, 1) + "\n";
  }
  for (const std::string& n : r.notes) out += "note: " + n + "\n";
  return out;
}

Result replay_result(const ReplayReport& r) {
  Result out;
  out.text = [&r] { return replay_text(r); };
  out.json = [&r](JsonWriter& w) { w.value(replay_json(r)); };
  out.csv = [&r](Csv& csv) { replay_csv(r, csv); };
  return out;
}

}  // namespace ecmpsim
