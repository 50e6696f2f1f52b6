#include "sim/output.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "hashing/key.h"
#include "sim/parse.h"

namespace ecmpsim {
namespace {

using json = nlohmann::ordered_json;

std::string_view routing_name(RoutingKind r) { return r == RoutingKind::Ecmp ? "ecmp" : "static"; }

json metrics_json(const Imbalance& m) {
  return {{"fim", m.fim}, {"max_mean", m.max_mean}, {"cov", m.cov}, {"jain", m.jain}};
}

json hash_json(const HashSpec& h) {
  json fields = json::array();
  for (auto f : h.fields) fields.push_back(hashing::field_name(f));
  return {{"algo", h.algo},     {"fields", fields}, {"seed", h.seed}, {"offset", h.offset},
          {"select", hashing::selection_name(h.select)}};
}

std::string pad(std::string s, std::size_t w, bool right = false) {
  if (s.size() >= w) return s;
  return right ? std::string(w - s.size(), ' ') + s : s + std::string(w - s.size(), ' ');
}

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string human_bytes(std::uint64_t b) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(b);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  return fixed(v, u == 0 ? 0 : 2) + " " + units[u];
}

}  // namespace

std::string run_json(const Simulation& sim, const std::vector<ScenarioResult>& results) {
  const Fabric& fabric = sim.fabric();
  const auto& flows = sim.flows();
  std::uint64_t total = 0;
  for (auto b : flows.bytes) total += b;
  json doc;
  doc["config"] = sim.spec().source;
  doc["fabric"] = {{"switches", fabric.switches().size()},
                   {"endpoints", fabric.endpoints().size()},
                   {"metric_links", sim.metric_links().size()}};
  const auto& jobs = sim.spec().jobs;
  if (const auto& im = sim.imported()) {
    doc["workload"] = {{"collective", "imported"}, {"format", im->format}, {"files", im->files},
                       {"flows", flows.size()}, {"bytes", total}};
  } else {
    json job_list = json::array();
    std::string collective(workloads::collective_name(jobs.front().collective));
    for (std::size_t j = 0; j < jobs.size(); ++j) {
      std::uint64_t job_flows = 0, job_bytes = 0;
      for (std::size_t f = 0; f < flows.size(); ++f)
        if (flows.job[f] == j) {
          ++job_flows;
          job_bytes += flows.bytes[f];
        }
      if (workloads::collective_name(jobs[j].collective) != collective) collective = "mixed";
      job_list.push_back({{"name", jobs[j].name},
                          {"collective", workloads::collective_name(jobs[j].collective)},
                          {"flows", job_flows},
                          {"bytes", job_bytes}});
    }
    doc["workload"] = {{"collective", collective}, {"flows", flows.size()}, {"bytes", total}, {"jobs", job_list}};
  }
  json scenarios = json::array();
  for (const ScenarioResult& r : results) {
    json s;
    s["name"] = r.spec->name;
    s["routing"] = routing_name(r.spec->routing);
    if (r.spec->routing == RoutingKind::Ecmp) s["hash"] = hash_json(r.spec->hash);
    json m = metrics_json(r.flows);
    m["max_flows"] = r.flows.max;
    m["mean_flows"] = r.flows.mean;
    m["links"] = r.flows.links;
    m["bytes"] = metrics_json(r.bytes);
    m["bytes"]["max_bytes"] = r.bytes.max;
    m["bytes"]["mean_bytes"] = r.bytes.mean;
    s["metrics"] = std::move(m);
    json links = json::array();
    for (LinkId l : sim.metric_links()) {
      const Link& link = fabric.link(l);
      links.push_back({{"from", fabric.node(link.from).name},
                       {"to", fabric.node(link.to).name},
                       {"flows", r.trace.link_flows[l]},
                       {"bytes", r.trace.link_bytes[l]}});
    }
    s["links"] = std::move(links);
    json fl = json::array();
    for (std::size_t f = 0; f < flows.size(); ++f) {
      json path = json::array();
      const auto p = r.trace.path(f);
      path.push_back(fabric.node(fabric.link(p.front()).from).name);
      for (LinkId l : p) path.push_back(fabric.node(fabric.link(l).to).name);
      const bool imported = sim.imported().has_value();
      fl.push_back({{"job", imported ? std::string("imported") : jobs[flows.job[f]].name},
                    {"collective", imported ? std::string_view("imported")
                                            : workloads::collective_name(
                                                  static_cast<workloads::Collective>(flows.collective[f]))},
                    {"src_ip", format_ipv4(flows.src_ip[f])},
                    {"dst_ip", format_ipv4(flows.dst_ip[f])},
                    {"proto", flows.proto[f]},
                    {"sport", flows.sport[f]},
                    {"dport", flows.dport[f]},
                    {"bytes", flows.bytes[f]},
                    {"lqpn", flows.lqpn[f]},
                    {"rqpn", flows.rqpn[f]},
                    {"channel", flows.channel[f]},
                    {"path", std::move(path)}});
    }
    s["flows"] = std::move(fl);
    scenarios.push_back(std::move(s));
  }
  doc["scenarios"] = std::move(scenarios);
  return doc.dump(2) + "\n";
}

std::string run_table(const Simulation& sim, const std::vector<ScenarioResult>& results) {
  const Fabric& fabric = sim.fabric();
  std::string out;
  out += "config    " + sim.spec().source + "\n";
  out += "fabric    " + std::to_string(fabric.switches().size()) + " switches, " +
         std::to_string(fabric.endpoints().size()) + " endpoints, " + std::to_string(sim.metric_links().size()) +
         " switch-to-switch links (both directions)\n";
  if (const auto& im = sim.imported()) {
    std::uint64_t total = 0;
    for (auto b : sim.flows().bytes) total += b;
    out += "workload  imported " + im->format + " from " + im->files + ": " + std::to_string(sim.flows().size()) +
           " flows, " + human_bytes(total) + "\n\n";
  } else {
    const auto& jobs = sim.spec().jobs;
    for (std::size_t j = 0; j < jobs.size(); ++j) {
      const JobSpec& w = jobs[j];
      std::size_t n = 0;
      for (auto id : sim.flows().job) n += id == j;
      out += std::string(j == 0 ? "workload  " : "          ") + w.name + ": " +
             std::string(workloads::collective_name(w.collective)) + " of " + human_bytes(w.message.value) + ", " +
             std::to_string(w.channels) + " channels x " + std::to_string(w.qps_per_connection) +
             " QP: " + std::to_string(n) + " flows\n";
    }
    out += "\n";
  }
  constexpr std::size_t kLabel = 22, kCol = 14;
  std::string head = pad("metric", kLabel);
  for (const auto& r : results) head += pad(r.spec->name, kCol, true);
  out += head + "\n" + std::string(head.size(), '-') + "\n";
  auto row = [&](const char* label, auto get, int digits) {
    std::string line = pad(label, kLabel);
    for (const auto& r : results) line += pad(fixed(get(r), digits), kCol, true);
    out += line + "\n";
  };
  row("FIM (flows)", [](const ScenarioResult& r) { return r.flows.fim; }, 4);
  row("max/mean (flows)", [](const ScenarioResult& r) { return r.flows.max_mean; }, 4);
  row("CoV (flows)", [](const ScenarioResult& r) { return r.flows.cov; }, 4);
  row("Jain (flows)", [](const ScenarioResult& r) { return r.flows.jain; }, 4);
  row("max flows on a link", [](const ScenarioResult& r) { return r.flows.max; }, 0);
  row("mean flows per link", [](const ScenarioResult& r) { return r.flows.mean; }, 3);
  row("FIM (bytes)", [](const ScenarioResult& r) { return r.bytes.fim; }, 4);
  out += "\nflows per link (bytes in GiB)\n";
  std::string lhead = pad("link", kLabel);
  for (const auto& r : results) lhead += pad(r.spec->name, kCol, true);
  out += lhead + "\n" + std::string(lhead.size(), '-') + "\n";
  for (LinkId l : sim.metric_links()) {
    std::string line = pad(fabric.link_name(l), kLabel);
    for (const auto& r : results)
      line += pad(std::to_string(r.trace.link_flows[l]) + " (" +
                      fixed(static_cast<double>(r.trace.link_bytes[l]) / (1ULL << 30), 2) + ")",
                  kCol, true);
    out += line + "\n";
  }
  return out;
}

std::string run_csv(const Simulation& sim, const std::vector<ScenarioResult>& results) {
  const Fabric& fabric = sim.fabric();
  std::string out = "scenario,from,to,flows,bytes\n";
  for (const auto& r : results)
    for (LinkId l : sim.metric_links()) {
      const Link& link = fabric.link(l);
      out += r.spec->name + "," + fabric.node(link.from).name + "," + fabric.node(link.to).name + "," +
             std::to_string(r.trace.link_flows[l]) + "," + std::to_string(r.trace.link_bytes[l]) + "\n";
    }
  return out;
}

void write_file_atomically(const std::string& path, const std::string& text) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::string tmpl = (dir / ("." + target.filename().string() + ".XXXXXX")).string();
  const int fd = ::mkstemp(tmpl.data());
  if (fd < 0) throw InputError({path, 0, 0, {}}, "cannot create a temporary file in " + dir.string());
  bool ok = true;
  std::size_t done = 0;
  while (ok && done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    ok = n > 0;
    if (ok) done += static_cast<std::size_t>(n);
  }
  ok = ::fsync(fd) == 0 && ok;
  ok = ::close(fd) == 0 && ok;
  if (ok) {
    std::error_code ec;
    fs::permissions(tmpl, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                              fs::perms::others_read, ec);
    fs::rename(tmpl, target, ec);
    ok = !ec;
  }
  if (!ok) {
    std::error_code ec;
    fs::remove(tmpl, ec);
    throw InputError({path, 0, 0, {}}, "cannot write output file");
  }
}

}  // namespace ecmpsim
