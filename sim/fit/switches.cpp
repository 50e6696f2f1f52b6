#include "sim/fit/switches.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "sim/base/error.h"

namespace ecmpsim::fit {
namespace {

[[noreturn]] void members_flag_error(const std::string& why) { throw InputError(option_at("members"), why); }

std::uint32_t member_count(std::string_view text, std::string_view item) {
  std::uint32_t n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (text.empty() || ec != std::errc{} || end != text.data() + text.size() || n < 2 || n > (1u << 16))
    members_flag_error("expected a group size in [2, 65536] in '" + std::string(item) + "'");
  return n;
}

// The rows of `indices`' switches as one set, in file order.
Observations pool_switch_rows(const std::vector<SwitchRows>& switches, const std::vector<std::size_t>& indices) {
  Observations out;
  out.source = switches[indices.front()].obs.source;
  out.fields = switches[indices.front()].obs.fields;
  out.whose = "switches ";
  for (std::size_t k = 0; k < indices.size(); ++k) {
    const Observations& o = switches[indices[k]].obs;
    out.rows.insert(out.rows.end(), o.rows.begin(), o.rows.end());
    out.whose += (k ? ", " : "") + switches[indices[k]].name;
  }
  std::sort(out.rows.begin(), out.rows.end(),
            [](const Observation& a, const Observation& b) { return a.line < b.line; });
  return out;
}

bool same_model(const FitResult& a, const FitResult& b) {
  if (a.models.empty() || b.models.empty()) return false;  // a learned affine map is one switch's own
  const Model &x = a.models.front(), &y = b.models.front();
  return x.algo == y.algo && x.fields == y.fields && x.seed == y.seed && x.offset == y.offset && x.select == y.select;
}

SwitchGroupFit fit_group(const std::vector<SwitchRows>& switches, const std::vector<std::size_t>& indices,
                         const FitOptions& opt) {
  SwitchGroupFit g;
  for (std::size_t i : indices) g.switches.push_back(switches[i].name);
  g.obs = indices.size() == 1 ? switches[indices.front()].obs : pool_switch_rows(switches, indices);
  g.result = fit(g.obs, opt);
  return g;
}

// The switches of one group size: all together when one model explains
// them, else each alone and then those whose best models agree together.
void fit_same_size(const std::vector<SwitchRows>& switches, const std::vector<std::size_t>& indices,
                   const FitOptions& opt, std::vector<std::pair<std::size_t, SwitchGroupFit>>& out) {
  if (indices.size() > 1) {
    try {
      SwitchGroupFit all = fit_group(switches, indices, opt);
      // A barely confirmed affine map fits almost any few rows: no sign of one hash.
      if (!all.result.uses_linear() || all.result.certain) {
        out.emplace_back(indices.front(), std::move(all));
        return;
      }
    } catch (const InputError&) {
      // Not one hash: the switches are fitted one by one below.
    }
  }
  std::vector<SwitchGroupFit> alone;
  for (std::size_t i : indices) alone.push_back(fit_group(switches, {i}, opt));
  std::vector<bool> placed(indices.size(), false);
  for (std::size_t a = 0; a < indices.size(); ++a) {
    if (placed[a]) continue;
    std::vector<std::size_t> together{indices[a]};
    for (std::size_t b = a + 1; b < indices.size(); ++b)
      if (!placed[b] && same_model(alone[a].result, alone[b].result)) {
        together.push_back(indices[b]);
        placed[b] = true;
      }
    // One model reproduces every row of these switches, so together they fit.
    out.emplace_back(indices[a], together.size() == 1 ? std::move(alone[a]) : fit_group(switches, together, opt));
  }
}

}  // namespace

MembersSpec parse_members(std::string_view text) {
  MembersSpec spec;
  std::string_view rest = text;
  while (true) {
    const std::size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos) {
      if (spec.all) members_flag_error("two group sizes for every switch ('" + std::to_string(*spec.all) + "' and '" +
                                       std::string(item) + "'); name the switch: NAME=N");
      spec.all = member_count(item, item);
    } else {
      const std::string name(item.substr(0, eq));
      if (name.empty()) members_flag_error("expected NAME=N, found '" + std::string(item) + "'");
      if (!spec.named.emplace(name, member_count(item.substr(eq + 1), item)).second)
        members_flag_error("switch '" + name + "' given twice");
    }
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return spec;
}

std::vector<SwitchRows> split_switches(const Observations& all, const MembersSpec& members) {
  for (const auto& [name, n] : members.named)
    if (std::find(all.switch_names.begin(), all.switch_names.end(), name) == all.switch_names.end())
      members_flag_error("no switch '" + name + "' in " + all.source);
  std::vector<SwitchRows> out(all.switch_names.size());
  for (std::size_t s = 0; s < out.size(); ++s) {
    out[s].name = all.switch_names[s];
    out[s].obs.source = all.source;
    out[s].obs.fields = all.fields;
    out[s].obs.whose = "switch '" + out[s].name + "'";
  }
  for (const Observation& o : all.rows) out[o.sw].obs.rows.push_back(o);
  for (SwitchRows& s : out) {
    if (const auto it = members.named.find(s.name); it != members.named.end()) {
      s.members = it->second;
    } else if (members.all) {
      s.members = *members.all;
    } else {
      std::uint32_t largest = 0;
      for (const Observation& o : s.obs.rows) largest = std::max(largest, o.member);
      if (largest == 0)
        throw InputError({all.source, 0, 0, {}}, s.obs.whose + ": every row has member 0, so the rows cannot tell "
                                                               "the group size; give it (" + option_ref("members") + " " + s.name + "=N)");
      s.members = largest + 1;
      s.members_from_rows = true;
      const double n = s.members;
      s.unseen_member_chance = std::pow(n / (n + 1), static_cast<double>(s.obs.rows.size()));
    }
  }
  return out;
}

std::vector<SwitchGroupFit> fit_switches(const std::vector<SwitchRows>& switches, const FitOptions& base) {
  // Each switch's own rows first: a contradiction or a member past the group
  // is an error before any search runs.
  for (const SwitchRows& s : switches) check_observations(s.obs, s.members);
  // Group sizes in order of first appearance, each with its switches.
  std::vector<std::pair<std::uint32_t, std::vector<std::size_t>>> sizes;
  for (std::size_t i = 0; i < switches.size(); ++i) {
    auto it = std::find_if(sizes.begin(), sizes.end(), [&](const auto& p) { return p.first == switches[i].members; });
    if (it == sizes.end()) it = sizes.insert(sizes.end(), {switches[i].members, {}});
    it->second.push_back(i);
  }
  std::vector<std::pair<std::size_t, SwitchGroupFit>> fitted;  // with the index of each group's first switch
  for (const auto& [members, indices] : sizes) {
    FitOptions opt = base;
    opt.group.members = members;
    fit_same_size(switches, indices, opt, fitted);
  }
  std::stable_sort(fitted.begin(), fitted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<SwitchGroupFit> out;
  for (auto& f : fitted) out.push_back(std::move(f.second));
  return out;
}

}  // namespace ecmpsim::fit
