#include "sim/output/output.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <memory>
#include <optional>
#include <span>
#include <nlohmann/json.hpp>

#include "hashing/key.h"
#include "sim/model/replay.h"
#include "sim/base/text.h"
#include "sim/output/metrics_json.h"
#include "sim/output/busbw_figures.h"
#include "sim/output/sizes_output.h"

namespace ecmpsim {
namespace {

using json = Json;

json hash_json(const HashSpec& h) {
  json fields = json::array();
  for (auto f : h.fields) fields.push_back(hashing::field_name(f));
  json j = {{"algo", h.algo},
            {"fields", fields},
            {"seed", h.seed},
            {"seed_mode", name_of(kSeedModes, h.seed_mode)},
            {"offset", h.offset},
            {"select", hashing::selection_name(h.select)},
            {"buckets", h.buckets}};
  if (h.rss_key) j["rss_key"] = format_hex_bytes(*h.rss_key);
  // Only where it is not the catalogue's own: outputs of configs without it are unchanged.
  if (h.seed_as != hashing::SeedAs::Register) j["seed_as"] = hashing::seed_as_name(h.seed_as);
  return j;
}

// The keys an override sets, e.g. {"tier": "spine", "algo": "crc32-lo"}.
json override_json(const HashOverride& o) {
  json j;
  if (o.switch_name.empty())
    j["tier"] = name_of(kTiers, o.tier);
  else
    j["switch"] = o.switch_name;
  const json all = hash_json(o.values);
  for (const auto& row : kHashKeys)
    if ((o.keys & row.value) && all.contains(std::string(row.name))) j[std::string(row.name)] = all[std::string(row.name)];
  return j;
}

// A planned-ports scenario's plan: range, method and what it cost.
json plan_json(const ScenarioSpec& s, const PortPlan& p) {
  return {{"plan", name_of(kSportPlans, s.sports)},
          {"min", s.sport_min},
          {"max", s.sport_max},
          {"method", name_of(kPlanMethods, p.method)},
          {"ports_tried", p.ports_tried},
          {"off_colour", p.off_colour},
          {"repaired", p.repaired}};
}

json path_json(const Fabric& fabric, std::span<const LinkId> p) {
  json path = json::array();
  path.push_back(fabric.node(fabric.link(p.front()).from).name);
  for (LinkId l : p) path.push_back(fabric.node(fabric.link(l).to).name);
  return path;
}

// The links between a path's nodes, hop by hop: which of several parallel cables.
json hop_links_json(const Fabric& fabric, std::span<const LinkId> p) {
  json links = json::array();
  for (LinkId l : p) links.push_back(fabric.link_name(l));
  return links;
}

// A sprayed flow's paths with their shares: [{"path": [...], "share": 0.25}, ...].
json split_json(const Fabric& fabric, const SplitPaths& split, std::size_t f) {
  json out = json::array();
  for (std::uint64_t p = split.flow_begin[f]; p < split.flow_begin[f + 1]; ++p)
    out.push_back({{"path", path_json(fabric, split.path(p))},
                   {"links", hop_links_json(fabric, split.path(p))},
                   {"share", split.share[p]}});
  return out;
}

json predicted_json(const Simulation& sim, const Prediction& p) {
  json out = prediction_json(p.all);
  if (p.jobs.size() > 1) {
    json jobs = json::array();
    for (const JobPrediction& j : p.jobs) {
      json one = {{"job", j.job}, {"name", sim.jobs()[j.job].name}, {"collective", sim.jobs()[j.job].collective}};
      one.update(prediction_json(j));
      // The job alone on the same paths (the shared figures include the other jobs' contention).
      if (j.job < p.alone.size()) {
        one["completion_alone_s"] = p.alone[j.job].completion.value;
        one["slowdown_alone"] = p.alone[j.job].slowdown;
      }
      jobs.push_back(std::move(one));
    }
    out["jobs"] = std::move(jobs);
  }
  return out;
}

}  // namespace

namespace {

json workload_json(const Simulation& sim) {
  const auto& flows = sim.flows();
  std::uint64_t total = 0;
  for (auto b : flows.bytes) total += b;
  if (const auto& im = sim.imported()) {
    json w{{"collective", "imported"}, {"format", im->format}, {"files", im->files}};
    if (!im->map.empty()) w["map"] = im->map;
    w["flows"] = flows.size();
    w["bytes"] = total;
    return w;
  }
  const auto& jobs = sim.spec().jobs;
  json job_list = json::array();
  std::string collective = sim.jobs().front().collective;
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    std::uint64_t job_flows = 0, job_bytes = 0;
    for (std::size_t f = 0; f < flows.size(); ++f)
      if (flows.job[f] == j) {
        ++job_flows;
        job_bytes += flows.bytes[f];
      }
    if (sim.jobs()[j].collective != collective) collective = "mixed";
    json job{{"name", jobs[j].name},
             {"collective", sim.jobs()[j].collective},
             {"flows", job_flows},
             {"bytes", job_bytes}};
    // What NCCL derives on a named GPU (docs/prediction.md, "Channels from the hardware").
    if (const auto& g = jobs[j].graphs)
      job["nccl"] = {{"channels", jobs[j].channels},
                     {"search_channels", jobs[j].search_channels},
                     {"search_bw_gbs", g->search_bw},
                     {"ring_cross_nic", g->ring.cross_nic},
                     {"ring_pxn", g->ring.pxn},
                     {"tree_bw_intra_gbs", g->tree.bw_intra},
                     {"nvls_channels", g->nvls.channels},
                     {"reason", g->reason}};
    job_list.push_back(std::move(job));
  }
  return {{"collective", collective}, {"flows", flows.size()}, {"bytes", total}, {"jobs", job_list}};
}

// How the scenario routes: its hash (and port plan), adaptive mode or static
// policy, failures and weights.
void routing_json(const ScenarioResult& r, json& s) {
  const RoutingMode& mode = routing_mode(r.spec->routing);
  if (mode.hashes) {
    s["hash"] = hash_json(r.spec->hash);
    json overrides = json::array();
    for (const auto& o : r.spec->hash_tiers) overrides.push_back(override_json(o));
    for (const auto& o : r.spec->hash_switches) overrides.push_back(override_json(o));
    if (!overrides.empty()) s["hash"]["overrides"] = std::move(overrides);
    if (r.plan) s["sports"] = plan_json(*r.spec, *r.plan);
  } else if (mode.load_aware) {
    s["adaptive"] = name_of(kAdaptiveModes, r.spec->adaptive);
  } else if (mode.tables) {
    s["policy"] = name_of(kStaticPolicies, r.spec->policy);
  }
  if (!r.spec->down.empty()) {
    json down = json::array();
    for (const auto& d : r.spec->down) down.push_back(d.text);
    s["down"] = std::move(down);
  }
  if (!r.spec->weights.empty()) {
    json w = json::object();
    for (const auto& x : r.spec->weights) w[x.cable.text] = x.weight;
    s["weights"] = std::move(w);
  }
}

// The scenario's flows, one object each, written as they are made.
void flows_json(const Simulation& sim, const ScenarioResult& r, const std::optional<SplitPaths>& split, JsonWriter& w) {
  const auto& flows = sim.flows();
  const auto& jobs = sim.spec().jobs;
  const bool imported = sim.imported().has_value();
  w.begin_array();
  json row;
  for (std::size_t f = 0; f < flows.size(); ++f) {
    row = {{"job", imported ? std::string("imported") : jobs[flows.job[f]].name},
                {"collective", imported ? std::string_view("imported")
                                        : workloads::collective_name(
                                              static_cast<workloads::Collective>(flows.collective[f]))},
                {"src_ip", hashing::format_ip(flows.src_ip[f])},
                {"dst_ip", hashing::format_ip(flows.dst_ip[f])},
                {"proto", flows.proto[f]},
                {"sport", r.sport(flows, f)},
                {"dport", flows.dport[f]},
                {"bytes", flows.bytes[f]},
                {"lqpn", flows.lqpn[f]},
                {"rqpn", flows.rqpn[f]},
                {"channel", flows.channel[f]}};
    if (split) {
      row["paths"] = split_json(sim.fabric(), *split, f);
    } else {
      row["path"] = path_json(sim.fabric(), r.trace.path(f));
      row["links"] = hop_links_json(sim.fabric(), r.trace.path(f));
    }
    if (r.modelled) {
      row["rate_gbps"] = r.times.start_rate[f].value;
      row["finish_s"] = r.times.finish[f].value;
    }
    // The label IPv6 packets carry (hashable); IPv4 ones have none unless a plan sets it.
    if (r.plan) row["flow_label"] = r.plan->flow_label[f];
    else if (sim.fabric().family() == hashing::Family::V6) row["flow_label"] = flows.flow_label[f];
    w.value(row);
  }
  w.end();
}

}  // namespace

void run_json(const RunData& data, JsonWriter& w) {
  const Simulation& sim = data.sim;
  w.begin_object();
  w.key("config").value(sim.spec().source);
  w.key("fabric").value(fabric_json(sim));
  w.key("workload").value(workload_json(sim));
  w.key("scenarios").begin_array();
  for (std::size_t i = 0; i < data.results.size(); ++i) {
    const ScenarioResult& r = data.results[i];
    json s;  // the members that do not grow with the fabric or the flows
    s["name"] = r.spec->name;
    s["routing"] = name_of(kRoutingKinds, r.spec->routing);
    if (!r.spec->base.empty()) s["base"] = r.spec->base;
    routing_json(r, s);
    s["metrics"] = imbalance_json(r.flows, r.bytes);
    json tiers = json::object();
    for (const TierImbalance& t : r.tiers) tiers[t.name] = imbalance_json(t.flows, t.bytes);
    s["tiers"] = std::move(tiers);
    s["collisions"] = r.collisions;
    if (r.modelled) s["predicted"] = predicted_json(sim, r.predicted);
    if (wants_sizes(sim.spec())) s["sizes"] = sizes_json(sim, data.sizes[i]);
    w.begin_object().members(s);
    w.key("links").begin_array();
    for (LinkId l : sim.metric_links()) w.value(link_json(sim, r, l));
    w.end();
    w.key("flows");
    flows_json(sim, r, data.split[i], w);
    w.end();
  }
  w.end().end();
}

namespace {

// The table's predicted block: overall, then per job when there are several.
template <typename Row>
void predicted_rows(const Simulation& sim, Row& row, std::string& out) {
  out += "\npredicted (max-min fair flow model)\n";
  row("completion (ms)", [](const ScenarioResult& r) { return r.predicted.all.completion.value * 1e3; }, 6);
  row("ideal (ms)", [](const ScenarioResult& r) { return r.predicted.all.ideal.value * 1e3; }, 6);
  row("slowdown", [](const ScenarioResult& r) { return r.predicted.all.slowdown; }, 4);
  const std::string bw(busbw_label(BusbwFigure::FabricBound));
  row(bw + " (Gb/s)", [](const ScenarioResult& r) { return r.predicted.all.busbw.value; }, 1);
  // nccl-tests' unit beside the link's, as sweep prints it.
  row(bw + " (GB/s)", [](const ScenarioResult& r) { return r.predicted.all.busbw.value / 8; }, 2);
  if (sim.jobs().size() > 1)
    for (std::size_t j = 0; j < sim.jobs().size(); ++j) {
      const std::string job = sim.jobs()[j].name + " ";
      row(job + "completion (ms)",
          [j](const ScenarioResult& r) { return r.predicted.jobs[j].completion.value * 1e3; }, 6);
      row(job + "slowdown (shared)", [j](const ScenarioResult& r) { return r.predicted.jobs[j].slowdown; }, 4);
      row(job + "slowdown alone", [j](const ScenarioResult& r) {
        return j < r.predicted.alone.size() ? r.predicted.alone[j].slowdown : r.predicted.jobs[j].slowdown;
      }, 4);
      row(job + bw + " (Gb/s)", [j](const ScenarioResult& r) { return r.predicted.jobs[j].busbw.value; }, 1);
      row(job + bw + " (GB/s)", [j](const ScenarioResult& r) { return r.predicted.jobs[j].busbw.value / 8; }, 2);
    }
  if (sim.jobs().size() > 1)
    out += "(a job's completion, slowdown and busbw include the other jobs' contention on shared links; "
           "'alone' is the job's flows by themselves on the same paths)\n";
  out += "(" + busbw_legend(BusbwFigure::FabricBound) + ")\n";
}

}  // namespace

std::string run_table(const RunData& data, bool per_link) {
  const Simulation& sim = data.sim;
  const std::vector<ScenarioResult>& results = data.results;
  const Fabric& fabric = sim.fabric();
  std::string out;
  out += "config    " + escape_text(sim.spec().source) + "\n";
  out += "fabric    " + std::to_string(fabric.switches().size()) + " switches, " +
         std::to_string(fabric.endpoints().size()) + " endpoints, " + std::to_string(sim.metric_links().size()) +
         " switch-to-switch links (both directions)\n";
  if (const auto& im = sim.imported()) {
    std::uint64_t total = 0;
    for (auto b : sim.flows().bytes) total += b;
    out += "workload  imported " + im->format + " from " + escape_text(im->files) +
           (im->map.empty() ? "" : " (map " + escape_text(im->map) + ")") +
           ": " + std::to_string(sim.flows().size()) +
           " flows, " + human_bytes(total) + "\n\n";
  } else {
    const auto& jobs = sim.spec().jobs;
    for (std::size_t j = 0; j < jobs.size(); ++j) {
      const JobSpec& w = jobs[j];
      std::size_t n = 0;
      for (auto id : sim.flows().job) n += id == j;
      const std::string what = w.kind == workloads::JobKind::Training
                                   ? training_text(w.training)
                                   : std::string(workloads::collective_name(w.collective)) + " of " +
                                         human_bytes(static_cast<double>(w.message.value));
      out += std::string(j == 0 ? "workload  " : "          ") + w.name + ": " + what + ", " +
             std::to_string(w.channels) + " channels x " + std::to_string(w.qps_per_connection) +
             " QP: " + std::to_string(n) + " flows\n";
    }
    out += "\n";
  }
  // Wide enough for the predicted block's labels ("JOB fabric-bound busbw (Gb/s)").
  std::size_t label_width = 22;
  if (results.front().modelled)
    for (const JobInfo& job : sim.jobs())
      label_width = std::max(label_width, (sim.jobs().size() > 1 ? job.name.size() + 1 : 0) +
                                    busbw_label(BusbwFigure::FabricBound).size() + 8);
  // Each scenario's column as wide as its name and two spaces, 14 at the least.
  std::size_t col = 14;
  for (const auto& r : results) col = std::max(col, r.spec->name.size() + 2);
  std::string head = pad_right("metric", label_width);
  for (const auto& r : results) head += pad_left(r.spec->name, col);
  out += head + "\n" + std::string(head.size(), '-') + "\n";
  auto row = [&](const std::string& label, auto get, int digits) {
    std::string line = pad_right(label, label_width);
    for (const auto& r : results) line += pad_left(fixed(get(r), digits), col);
    out += line + "\n";
  };
  row("FIM (flows)", [](const ScenarioResult& r) { return r.flows.fim; }, 4);
  row("max/mean (flows)", [](const ScenarioResult& r) { return r.flows.max_mean; }, 4);
  row("CoV (flows)", [](const ScenarioResult& r) { return r.flows.cov; }, 4);
  row("Jain (flows)", [](const ScenarioResult& r) { return r.flows.jain; }, 4);
  row("max flows on a link", [](const ScenarioResult& r) { return r.flows.max; }, 0);
  row("mean flows per link", [](const ScenarioResult& r) { return r.flows.mean; }, 3);
  row("FIM (bytes)", [](const ScenarioResult& r) { return r.bytes.fim; }, 4);
  for (std::size_t t = 0; t < results.front().tiers.size(); ++t) {
    const std::string& name = results.front().tiers[t].name;
    row("FIM flows " + name, [t](const ScenarioResult& r) { return r.tiers[t].flows.fim; }, 4);
    row("FIM bytes " + name, [t](const ScenarioResult& r) { return r.tiers[t].bytes.fim; }, 4);
  }
  row("colliding flow pairs", [](const ScenarioResult& r) { return static_cast<double>(r.collisions); }, 0);
  if (results.front().modelled) predicted_rows(sim, row, out);
  if (wants_sizes(sim.spec())) out += sizes_text(sim, results, data.sizes);
  if (!per_link) return out;
  out += "\nflows per link (bytes in GiB)\n";
  std::string lhead = pad_right("link", label_width);
  for (const auto& r : results) lhead += pad_left(r.spec->name, col);
  out += lhead + "\n" + std::string(lhead.size(), '-') + "\n";
  for (LinkId l : sim.metric_links()) {
    const std::uint32_t lag = fabric.link(l).lag;
    std::string line = pad_right(fabric.link_name(l) + (lag == kNone ? "" : " [" + fabric.lags()[lag].name + "]"), label_width);
    for (const auto& r : results) {
      const std::string flows =
          r.trace.split() ? fixed(r.trace.flows_on(l), 2) : std::to_string(r.trace.link_flows[l]);
      line += pad_left(r.is_down(l) ? std::string("down")
                                    : flows + " (" + fixed(r.trace.bytes_on(l) / (1ULL << 30), 2) + ")",
                       col);
    }
    out += line + "\n";
  }
  return out;
}

void run_csv(const RunData& data, Csv& csv) {
  const Simulation& sim = data.sim;
  const std::vector<ScenarioResult>& results = data.results;
  if (wants_sizes(sim.spec())) return sizes_csv(sim, results, data.sizes, csv);
  const Fabric& fabric = sim.fabric();
  csv.cells({"scenario", "id", "from", "to", "flows", "bytes", "start_gbps"}).end_row();
  std::vector<double> start_gbps;
  for (const auto& r : results) {
    // A link's load at time 0: the sum of the max-min start rates of its flows.
    start_gbps.assign(fabric.links().size(), 0.0);
    for (std::size_t f = 0; f < r.times.start_rate.size(); ++f)  // none under --no-slowdown
      for (LinkId l : r.trace.path(f)) start_gbps[l] += r.times.start_rate[f].value;
    for (LinkId l : sim.metric_links()) {
      const Link& link = fabric.link(l);
      csv.cells({r.spec->name, fabric.link_name(l), fabric.node(link.from).name, fabric.node(link.to).name});
      if (r.trace.split())  // shares, and no start rates until the flow model splits flows
        csv.cells({format_number(r.trace.link_share[l]), format_number(r.trace.link_share_bytes[l]), ""});
      else
        csv.cell(r.trace.link_flows[l]).cell(r.trace.link_bytes[l]).cell(std::string_view(r.modelled ? format_number(start_gbps[l]) : ""));
      csv.end_row();
    }
  }
}

Result run_result(const RunData& data) {
  Result r;
  r.text = [d = &data] { return run_table(*d, true); };
  r.brief = [d = &data] { return run_table(*d, false); };
  r.json = [d = &data](JsonWriter& w) { run_json(*d, w); };
  r.csv = [d = &data](Csv& csv) { run_csv(*d, csv); };
  return r;
}

}  // namespace ecmpsim
