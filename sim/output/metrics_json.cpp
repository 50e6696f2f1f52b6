#include <nlohmann/json.hpp>

#include "sim/output/metrics_json.h"

namespace ecmpsim {

namespace {

Json ratios_json(const Imbalance& m) {
  return {{"fim", m.fim}, {"max_mean", m.max_mean}, {"cov", m.cov}, {"jain", m.jain}};
}

}  // namespace

Json fabric_json(const Simulation& sim) {
  return {{"switches", sim.fabric().switches().size()},
          {"endpoints", sim.fabric().endpoints().size()},
          {"metric_links", sim.metric_links().size()}};
}

Json imbalance_json(const Imbalance& flows, const Imbalance& bytes) {
  Json m = ratios_json(flows);
  m["max_flows"] = flows.max;
  m["mean_flows"] = flows.mean;
  m["links"] = flows.links;
  m["bytes"] = ratios_json(bytes);
  m["bytes"]["max_bytes"] = bytes.max;
  m["bytes"]["mean_bytes"] = bytes.mean;
  return m;
}

Json prediction_json(const JobPrediction& p) {
  return {{"completion_s", p.completion.value}, {"ideal_s", p.ideal.value}, {"slowdown", p.slowdown},
          {"busbw_gbps", p.busbw.value},       {"algbw_gbps", p.algbw.value}};
}

Json link_json(const Simulation& sim, const ScenarioResult& r, LinkId l) {
  const Fabric& fabric = sim.fabric();
  const Link& link = fabric.link(l);
  Json one = {{"id", fabric.link_name(l)}, {"from", fabric.node(link.from).name}, {"to", fabric.node(link.to).name}};
  if (r.trace.split()) {  // sums of shares: fractional
    one["flows"] = r.trace.link_share[l];
    one["bytes"] = r.trace.link_share_bytes[l];
  } else {
    one["flows"] = r.trace.link_flows[l];
    one["bytes"] = r.trace.link_bytes[l];
  }
  if (r.is_down(l)) one["down"] = true;
  // A port-channel member: its LAG, so the members' loads read side by side.
  if (link.lag != kNone) one["lag"] = fabric.lags()[link.lag].name;
  return one;
}

Json links_json(const Simulation& sim, const ScenarioResult& r) {
  Json links = Json::array();
  for (LinkId l : sim.metric_links()) links.push_back(link_json(sim, r, l));
  return links;
}

Json summary_json(const MetricSummary& s) {
  return {{"min", s.min}, {"mean", s.mean}, {"p10", s.p10}, {"p50", s.p50}, {"p90", s.p90}, {"p99", s.p99}, {"max", s.max}};
}

}  // namespace ecmpsim
