#include "workloads/traces/side_inputs.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "sim/base/error.h"
#include "workloads/traces/pytorch_trace.h"

namespace ecmpsim::workloads {

namespace {

using nlohmann::json;

std::uint32_t line_at(std::string_view text, std::size_t offset) {
  return static_cast<std::uint32_t>(1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

const json& member(const json& obj, const char* key, const std::string& file, std::uint32_t line) {
  const auto it = obj.find(key);
  if (it == obj.end()) throw InputError({file, line, 0, key}, std::string("an Inspector record without ") + key);
  return *it;
}

// A whole number up to max. json's get<uint64_t>() on a float out of range
// is undefined (the fuzzer found 4e52) and wraps a negative integer.
std::uint64_t whole(const json& v, double max, const std::string& file, std::uint32_t line, const char* key) {
  const bool ok = v.is_number_unsigned() ? static_cast<double>(v.get<std::uint64_t>()) <= max
                  : v.is_number_float()  ? v.get<double>() >= 0 && v.get<double>() <= max &&
                                              v.get<double>() == static_cast<double>(static_cast<std::uint64_t>(v.get<double>()))
                                         : false;
  if (!ok) throw InputError({file, line, 0, key}, "not a whole number in range: " + v.dump());
  return v.is_number_unsigned() ? v.get<std::uint64_t>() : static_cast<std::uint64_t>(v.get<double>());
}

InspectorRecord record_of(const json& doc, const std::string& file, std::uint32_t line) {
  if (!doc.is_object()) throw InputError({file, line, 0, ""}, "an Inspector record is a JSON object");
  const json& header = member(doc, "header", file, line);
  const json& perf = member(doc, "coll_perf", file, line);
  InspectorRecord r;
  r.line = line;
  try {
    r.rank = static_cast<std::uint32_t>(whole(member(header, "rank", file, line), 4294967295.0, file, line, "rank"));
    const json& id = member(header, "id", file, line);
    r.comm = id.is_string() ? id.get<std::string>() : id.dump();
    r.coll = member(perf, "coll", file, line).get<std::string>();
    r.sn = whole(member(perf, "coll_sn", file, line), 9.0e18, file, line, "coll_sn");
    r.bytes = whole(member(perf, "coll_msg_size_bytes", file, line), 9.0e18, file, line, "coll_msg_size_bytes");
    r.exec_us = member(perf, "coll_exec_time_us", file, line).get<double>();
  } catch (const json::exception& e) {
    throw InputError({file, line, 0, ""}, std::string("an Inspector record with a value of the wrong type: ") + e.what());
  }
  if (r.exec_us < 0) throw InputError({file, line, 0, "coll_exec_time_us"}, "a negative execution time");
  if (const auto ts = perf.find("event_trace_ts"); ts != perf.end() && ts->is_object())
    if (const auto ks = ts->find("kernel_events"); ks != ts->end() && ks->is_array() && !ks->empty())
      if (const auto s = ks->front().find("kernel_start_ts"); s != ks->front().end() && s->is_number())
        r.start_us = s->get<double>();
  return r;
}

}  // namespace

std::vector<InspectorRecord> read_inspector(std::string_view text, const std::string& file) {
  std::vector<InspectorRecord> out;
  std::size_t at = 0;
  while (true) {
    at = text.find_first_not_of(" \t\r\n", at);
    if (at == std::string_view::npos) break;
    // One object: up to its matching brace (strings may hold braces).
    std::size_t depth = 0, end = at;
    bool in_string = false;
    for (; end < text.size(); ++end) {
      const char c = text[end];
      if (in_string) {
        if (c == '\\') ++end;
        else if (c == '"') in_string = false;
      } else if (c == '"') {
        in_string = true;
      } else if (c == '{') {
        ++depth;
      } else if (c == '}' && depth > 0 && --depth == 0) {
        break;
      }
    }
    const std::uint32_t line = line_at(text, at);
    if (text[at] != '{' || end >= text.size())
      throw InputError({file, line, 0, ""}, "not an Inspector record (a JSON object per collective)");
    json doc;
    try {
      doc = json::parse(text.substr(at, end + 1 - at));
    } catch (const json::exception& e) {
      throw InputError({file, line, 0, ""}, std::string("not JSON: ") + e.what());
    }
    out.push_back(record_of(doc, file, line));
    at = end + 1;
  }
  return out;
}

std::vector<TraceGroup> read_flight_recorder(std::string_view text, const std::string& file) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::exception& e) {
    throw InputError({file, 0, 0, ""}, std::string("not a JSON Flight Recorder dump: ") + e.what());
  }
  const auto pgs = doc.is_object() ? doc.find("pg_config") : doc.end();
  if (!doc.is_object() || pgs == doc.end())
    throw InputError({file, 0, 0, "pg_config"}, "a Flight Recorder dump without pg_config");
  std::vector<TraceGroup> out;
  const auto add = [&](const std::string& key, const json& pg) {
    if (!pg.is_object()) throw InputError({file, 0, 0, "pg_config." + key}, "a group that is not a JSON object");
    TraceGroup g;
    g.name = pg.contains("name") && pg["name"].is_string() ? pg["name"].get<std::string>() : key;
    g.desc = pg.contains("desc") && pg["desc"].is_string() ? pg["desc"].get<std::string>() : "";
    const auto r = pg.find("ranks");
    std::optional<RankList> list;
    if (r != pg.end() && r->is_string()) list = parse_rank_list(r->get<std::string>());
    if (r != pg.end() && r->is_array()) list = parse_rank_list(r->dump());
    if (!list) throw InputError({file, 0, 0, "pg_config." + key + ".ranks"}, "not a list of ranks");
    g.ranks = list->ranks;
    g.ranks_cut = list->cut;
    out.push_back(std::move(g));
  };
  if (pgs->is_object())
    for (const auto& [key, pg] : pgs->items()) add(key, pg);
  else if (pgs->is_array())
    for (std::size_t i = 0; i < pgs->size(); ++i) add(std::to_string(i), (*pgs)[i]);
  else
    throw InputError({file, 0, 0, "pg_config"}, "pg_config is neither an object nor a list");
  return out;
}

}  // namespace ecmpsim::workloads
