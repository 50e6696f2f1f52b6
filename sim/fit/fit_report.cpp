#include "sim/fit/fit_report.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "sim/base/text.h"

namespace ecmpsim::fit {
namespace {

using json = Json;

std::string verdict_text(const FitResult& r) {
  const std::string more = std::to_string(r.more_needed) + (r.more_needed == 1 ? " more observation" : " more observations");
  if (!r.uses_linear()) {
    if (r.certain)
      return r.candidates == 1 ? "one catalogue model fits, beyond chance"
                               : "one model fits, beyond chance: the " + std::to_string(r.candidates) +
                                     " consistent models predict alike for every flow like the observed ones (they differ "
                                     "only in what never varied, or are the same hash bits)";
    const std::string left = std::to_string(r.candidates) + (r.candidates == 1 ? " candidate fits" : " candidates fit");
    return "NOT CERTAIN: " + left + " (" + std::to_string(r.distinct) +
           " different predictions among the best " + std::to_string(r.classified) + "); add about " + more + " to settle it";
  }
  const LinearFit& l = *r.linear;
  if (r.certain && l.determined())
    return "no catalogue model fits; the learned affine map is confirmed and places every flow";
  if (r.certain)
    return "no catalogue model fits; the learned affine map is confirmed for flows whose key bits combine observed "
           "ones (--predict refuses others; about " + more + " with new key bits would place every flow)";
  return "NOT CERTAIN: no catalogue model fits; an affine map fits but is barely confirmed: add about " + more;
}

std::string linear_text(const FitResult& r) {
  const LinearFit& l = *r.linear;
  if (!l.applicable()) return "not applicable (" + l.why_not() + ")";
  if (!l.consistent()) return "inconsistent: no affine map of the key bits gives these members";
  return "consistent: rank " + std::to_string(l.rank()) + " of " + std::to_string(l.unknowns()) +
         " unknowns (varying key bits + 1) from " + std::to_string(l.rank()) + " independent of " +
         std::to_string(l.used()) + " observations; " + (l.determined() ? "fully determined" : "not fully determined");
}

json linear_json(const FitResult& r) {
  const LinearFit& l = *r.linear;
  json j{{"applicable", l.applicable()}};
  if (!l.applicable()) {
    j["why_not"] = l.why_not();
    return j;
  }
  j["consistent"] = l.consistent();
  j["member_bits"] = l.member_bits();
  j["unknowns"] = l.unknowns();
  j["independent"] = l.rank();
  j["used"] = l.used();
  j["determined"] = l.determined();
  if (!l.consistent()) j["contradiction_lines"] = l.contradiction();
  j["best"] = r.uses_linear();
  return j;
}

}  // namespace

std::string hash_toml(const Model& m, const Group& g) {
  std::string s = "[scenario.hash]\nalgo = \"" + std::string(m.algo->name) + "\"\n";
  if (hashing::key_layout(m.algo->layout).fixed.empty()) {
    s += "fields = [";
    for (std::size_t i = 0; i < m.fields.size(); ++i)
      s += (i ? ", \"" : "\"") + std::string(hashing::field_name(m.fields[i])) + "\"";
    s += "]\n";
  }
  s += "seed = " + std::to_string(m.seed) + "\n";
  // The algorithm is printed by its catalogue name, whose default is the register.
  if (m.seed_as != hashing::SeedAs::Register) s += "seed_as = \"" + std::string(hashing::seed_as_name(m.seed_as)) + "\"\n";
  s += "offset = " + std::to_string(m.offset) + "\n";
  s += "select = \"" + std::string(hashing::selection_name(m.select)) + "\"\n";
  if (m.select == hashing::Selection::Resilient) s += "buckets = " + std::to_string(g.buckets) + "\n";
  return s;
}

std::string fit_table(const Observations& obs, const FitResult& r) {
  std::string out;
  std::string fields;
  for (hashing::Field f : obs.fields) fields += (fields.empty() ? "" : ",") + std::string(hashing::field_name(f));
  out += "observations  " + std::to_string(r.observations) + " from " + escape_text(obs.source) +
         (obs.whose.empty() ? "" : ", " + obs.whose) + " (members " +
         std::to_string(r.group.members) + (r.group.weighted() ? ", weighted" : "") + "; fields " + fields + ")\n";
  out += "searched      " + format_number(r.hypotheses) + " catalogue models: " + r.searched + "\n";
  if (!r.skipped.empty()) out += "skipped       " + r.skipped + "\n";
  out += "evidence      " + fixed(r.evidence_bits, 1) + " bits in the members; " +
         fixed(std::log2(std::max(1.0, r.hypotheses)), 1) + " bits to tell the models tried apart\n";
  out += "verdict       " + verdict_text(r) + "\n";
  out += "linear        " + linear_text(r) + "\n";
  if (!r.models.empty()) {
    out += "\n" + pad_left("rank", 4) + "  " + pad_right("algo", 14) + pad_right("fields", 48) + pad_left("seed", 11) +
           pad_left("offset", 7) + "  " + pad_right("select", 10) + "agree\n";
    for (std::size_t i = 0; i < r.models.size(); ++i) {
      const Model& m = r.models[i];
      out += pad_left(std::to_string(i + 1), 4) + "  " + pad_right(std::string(m.algo->name), 14) +
             pad_right(fields_text(m, r.family), 48) + pad_left(std::to_string(m.seed) + (m.seed_class ? "*" : ""), 11) +
             pad_left(std::to_string(m.offset), 7) + "  " + pad_right(std::string(hashing::selection_name(m.select)), 10) +
             std::to_string(r.agree[i]) + "/" + std::to_string(r.observations) + "\n";
    }
    if (r.candidates > r.models.size())
      out += "      ... and " + std::to_string(r.candidates - r.models.size()) + " more consistent models\n";
    bool any_class = false;
    for (const Model& m : r.models) any_class = any_class || m.seed_class;
    if (r.models.front().seed_as != hashing::SeedAs::Register)
      out += "      seeds are " + std::string(hashing::seed_as_name(r.models.front().seed_as)) + " seeds: " +
             std::string(doc_of(hashing::kSeedAs, r.models.front().seed_as)) + "\n";
    if (any_class)
      out += "      * the smallest of a class of seeds: for this seed-affine algorithm every seed with the same\n"
             "        effect on the window read picks the same members\n";
    out += "\nbest model, for the config (" + std::string(r.certain ? "certain" : "NOT certain") + "):\n" +
           hash_toml(r.models.front(), r.group);
  } else {
    out += "\nno catalogue model fits: `ecmpsim fit --predict` uses the learned affine map; `ecmpsim run` cannot\n"
           "(no [scenario.hash] names it)\n";
  }
  return out;
}

Json fit_json(const FitResult& r) {
  json models = json::array();
  for (std::size_t i = 0; i < r.models.size(); ++i) {
    const Model& m = r.models[i];
    json fields = json::array();
    for (hashing::Field f : hashed_fields(m, r.family)) fields.push_back(hashing::field_name(f));
    models.push_back({{"algo", m.algo->name},
                      {"fields", fields},
                      {"seed", m.seed},
                      {"seed_as", hashing::seed_as_name(m.seed_as)},
                      {"offset", m.offset},
                      {"select", hashing::selection_name(m.select)},
                      {"members", r.group.members},
                      {"agree", r.agree[i]}});
  }
  json doc{{"observations", r.observations}, {"models", models}, {"linear", linear_json(r)}};
  doc["verdict"] = {{"certain", r.certain},
                    {"candidates", r.candidates},
                    {"more_observations", r.more_needed},
                    {"evidence_bits", r.evidence_bits},
                    {"models_tried", r.hypotheses},
                    {"searched", r.searched},
                    {"skipped", r.skipped}};
  return doc;
}

Result fit_result(const Observations& obs, const FitResult& r) {
  Result out;
  out.text = [o = &obs, p = &r] { return fit_table(*o, *p); };
  out.json = [p = &r](JsonWriter& w) { w.value(fit_json(*p)); };
  return out;
}

namespace {

// The group (0-based) whose fit holds switch `name`.
std::size_t group_of(const std::vector<SwitchGroupFit>& groups, const std::string& name) {
  for (std::size_t g = 0; g < groups.size(); ++g)
    if (std::find(groups[g].switches.begin(), groups[g].switches.end(), name) != groups[g].switches.end()) return g;
  return groups.size();
}

}  // namespace

std::string members_origin(const SwitchRows& s) {
  if (!s.members_from_rows) return "--members";
  const double p = s.unseen_member_chance;
  return "rows (largest seen + 1; a member " + std::to_string(s.members) + " would stay unseen with chance " +
         (p < 0.001 ? std::string("< 0.001") : fixed(p, 3)) + ")";
}

std::string switches_table(const std::vector<SwitchRows>& switches, const std::vector<SwitchGroupFit>& groups) {
  std::string out = "switches      " + std::to_string(switches.size()) + " in " + escape_text(switches.front().obs.source) +
                    ", fitted as " + std::to_string(groups.size()) +
                    (groups.size() == 1 ? " group sharing one model" : " groups, one model each") + "\n\n";
  std::size_t width = 6;
  for (const SwitchRows& s : switches) width = std::max(width, s.name.size() + 2);
  out += pad_right("switch", width) + pad_left("rows", 6) + pad_left("members", 9) + pad_left("model", 7) +
         "  members from\n";
  for (const SwitchRows& s : switches)
    out += pad_right(s.name, width) + pad_left(std::to_string(s.obs.rows.size()), 6) +
           pad_left(std::to_string(s.members), 9) + pad_left(std::to_string(group_of(groups, s.name) + 1), 7) + "  " +
           members_origin(s) + "\n";
  for (std::size_t g = 0; g < groups.size(); ++g) {
    out += "\nmodel " + std::to_string(g + 1) + ": ";
    for (std::size_t i = 0; i < groups[g].switches.size(); ++i) out += (i ? ", " : "") + groups[g].switches[i];
    out += "\n" + fit_table(groups[g].obs, groups[g].result);
  }
  return out;
}

Json switches_json(const std::vector<SwitchRows>& switches, const std::vector<SwitchGroupFit>& groups) {
  json rows = json::array(), fits = json::array();
  for (const SwitchRows& s : switches) {
    json row{{"switch", s.name},
             {"observations", s.obs.rows.size()},
             {"members", s.members},
             {"members_from", s.members_from_rows ? "rows" : "flag"},
             {"group", group_of(groups, s.name)}};
    if (s.members_from_rows) row["unseen_member_chance"] = s.unseen_member_chance;
    rows.push_back(std::move(row));
  }
  for (const SwitchGroupFit& g : groups) {
    json one = fit_json(g.result);
    one["switches"] = g.switches;
    fits.push_back(std::move(one));
  }
  return json{{"switches", rows}, {"groups", fits}};
}

Result switches_result(const std::vector<SwitchRows>& switches, const std::vector<SwitchGroupFit>& groups) {
  Result out;
  out.text = [s = &switches, g = &groups] { return switches_table(*s, *g); };
  out.json = [s = &switches, g = &groups](JsonWriter& w) { w.value(switches_json(*s, *g)); };
  return out;
}

}  // namespace ecmpsim::fit
