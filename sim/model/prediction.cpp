#include "sim/model/prediction.h"

#include <algorithm>
#include <cmath>
#include <boost/pending/disjoint_sets.hpp>
#include <limits>

namespace ecmpsim {

namespace {

// Time to push `bytes` through `gbps`; +inf through a cut of capacity 0.
double cut_time(double bytes, double gbps) {
  if (bytes == 0) return 0;
  return gbps > 0 ? bytes * 8e-9 / gbps : std::numeric_limits<double>::infinity();
}

}  // namespace

double bus_factor(BusPattern pattern, std::uint32_t ranks) {
  const double n = ranks;
  switch (pattern) {
    case BusPattern::AllReduce: return ranks == 0 ? 0 : 2 * (n - 1) / n;
    case BusPattern::ReduceScatter:
    case BusPattern::AllGather:
    case BusPattern::AllToAll: return ranks == 0 ? 0 : (n - 1) / n;
    case BusPattern::SendRecv:
    case BusPattern::Broadcast:
    case BusPattern::Reduce: return 1;
  }
  return 1;
}

CutBounds::CutBounds(const Fabric& fabric) {
  const auto nodes = fabric.nodes();
  std::uint8_t top = 0;
  for (const Node& n : nodes) top = std::max(top, static_cast<std::uint8_t>(n.tier));
  std::vector<std::uint32_t> dense(nodes.size());
  for (std::uint8_t k = 0; k < top; ++k) {
    auto inside = [&](NodeId v) { return static_cast<std::uint8_t>(nodes[v].tier) <= k; };
    // The blocks of level k: nodes of tier <= k joined by links among them.
    boost::disjoint_sets_with_storage<> blocks_of(nodes.size());
    for (const Link& l : fabric.links())
      if (inside(l.from) && inside(l.to)) blocks_of.union_set(l.from, l.to);
    auto find_root = [&](NodeId v) { return static_cast<std::uint32_t>(blocks_of.find_set(v)); };
    Level level;
    std::fill(dense.begin(), dense.end(), kNone);
    std::uint32_t blocks = 0;
    for (NodeId v = 0; v < nodes.size(); ++v) {
      if (!inside(v)) continue;
      const std::uint32_t r = find_root(v);
      if (dense[r] == kNone) dense[r] = blocks++;
    }
    level.out_gbps.assign(blocks, 0);
    level.in_gbps.assign(blocks, 0);
    for (const Link& l : fabric.links()) {
      const bool from_in = inside(l.from), to_in = inside(l.to);
      if (from_in && !to_in) level.out_gbps[dense[find_root(l.from)]] += l.speed.value;
      if (to_in && !from_in) level.in_gbps[dense[find_root(l.to)]] += l.speed.value;
    }
    for (NodeId e : fabric.endpoints()) level.block_of.push_back(dense[find_root(e)]);
    levels_.push_back(std::move(level));
  }
}

Seconds CutBounds::ideal(const workloads::Flows& flows, std::uint32_t job) const {
  double ideal = 0;
  std::vector<double> out, in;
  for (const Level& level : levels_) {
    out.assign(level.out_gbps.size(), 0);
    in.assign(level.in_gbps.size(), 0);
    for (std::size_t f = 0; f < flows.size(); ++f) {
      if (job != kAllJobs && flows.job[f] != job) continue;
      const std::uint32_t a = level.block_of[flows.src[f]], b = level.block_of[flows.dst[f]];
      if (a == b) continue;
      out[a] += static_cast<double>(flows.bytes[f]);
      in[b] += static_cast<double>(flows.bytes[f]);
    }
    for (std::size_t b = 0; b < out.size(); ++b)
      ideal = std::max({ideal, cut_time(out[b], level.out_gbps[b]), cut_time(in[b], level.in_gbps[b])});
  }
  return Seconds{ideal};
}

double slowdown_of(Seconds completion, Seconds ideal) noexcept {
  if (completion.value == 0) return 1;
  // On a 1e-12 grid: the model's arithmetic carries ~1e-15 relative noise,
  // and a slowdown of exactly 2 must not bin, rank or compare as 1.999...
  const double s = completion.value / ideal.value;
  return std::isfinite(s) ? std::round(s * 1e12) / 1e12 : s;
}

Gbps algbw_of(const JobInfo& job, Seconds completion) noexcept {
  return Gbps{completion.value > 0 ? static_cast<double>(job.message.value) * 8e-9 / completion.value : 0};
}

Gbps busbw_of(const JobInfo& job, Seconds completion) noexcept {
  return Gbps{algbw_of(job, completion).value * bus_factor(job.pattern, job.ranks)};
}

Prediction predict(const workloads::Flows& flows, const FlowTimes& times, std::span<const JobInfo> jobs,
                   std::span<const Seconds> job_ideal, Seconds all_ideal) {
  Prediction p;
  p.jobs.resize(jobs.size());
  for (std::size_t j = 0; j < jobs.size(); ++j) p.jobs[j].job = static_cast<std::uint32_t>(j);
  for (std::size_t f = 0; f < flows.size(); ++f) {
    const Seconds t = times.finish[f];
    p.all.completion = std::max(p.all.completion, t);
    if (flows.job[f] < jobs.size()) p.jobs[flows.job[f]].completion = std::max(p.jobs[flows.job[f]].completion, t);
  }
  auto finish = [](JobPrediction& j, Seconds ideal) {
    j.ideal = ideal;
    j.slowdown = slowdown_of(j.completion, ideal);
  };
  finish(p.all, all_ideal);
  bool first = true;
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    JobPrediction& jp = p.jobs[j];
    finish(jp, job_ideal[j]);
    jp.algbw = algbw_of(jobs[j], jp.completion);
    jp.busbw = busbw_of(jobs[j], jp.completion);
    if (first || jp.busbw < p.all.busbw) {
      p.all.algbw = jp.algbw;
      p.all.busbw = jp.busbw;
      p.all.job = jp.job;
      first = false;
    }
  }
  return p;
}

std::vector<JobPrediction> predict_alone(const workloads::Flows& flows, const FlowNetwork& net,
                                         std::span<const JobInfo> jobs, std::span<const Seconds> job_ideal) {
  std::vector<JobPrediction> out(jobs.size());
  FlowModel model;
  FlowTimes times;
  std::vector<std::uint64_t> bytes;
  std::vector<std::uint32_t> begin;
  std::vector<LinkId> links;
  std::vector<double> fraction;
  for (std::uint32_t j = 0; j < jobs.size(); ++j) {
    bytes.clear();
    links.clear();
    fraction.clear();
    begin.assign(1, 0);
    for (std::size_t f = 0; f < flows.size(); ++f) {
      if (flows.job[f] != j) continue;
      bytes.push_back(net.bytes[f]);
      links.insert(links.end(), net.path_links.begin() + net.path_begin[f], net.path_links.begin() + net.path_begin[f + 1]);
      if (!net.fraction.empty())
        fraction.insert(fraction.end(), net.fraction.begin() + net.path_begin[f], net.fraction.begin() + net.path_begin[f + 1]);
      begin.push_back(static_cast<std::uint32_t>(links.size()));
    }
    model.run({net.capacity, bytes, begin, links, fraction}, times);
    JobPrediction& p = out[j];
    p.job = j;
    for (const Seconds t : times.finish) p.completion = std::max(p.completion, t);
    p.ideal = job_ideal[j];
    p.slowdown = slowdown_of(p.completion, p.ideal);
    p.algbw = algbw_of(jobs[j], p.completion);
    p.busbw = busbw_of(jobs[j], p.completion);
  }
  return out;
}

}  // namespace ecmpsim
