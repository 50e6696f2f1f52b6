#include "workloads/traces/join.h"

#include <algorithm>
#include <array>
#include <map>
#include <tuple>

#include "sim/base/error.h"

namespace ecmpsim::workloads {

namespace {

// A group's members from every source that lists them whole; a cut list
// only counts as far as it goes.
struct Members {
  std::vector<std::uint32_t> ranks;
  bool whole = false;
  std::uint32_t size = 0;  // "Group size", when a kernel gave one
  std::string file;        // where the group was first seen, for messages
  std::uint32_t event = 0;
};

void offer(Members& m, const std::vector<std::uint32_t>& ranks, bool cut) {
  if (m.whole || ranks.empty()) return;
  if (!cut) {
    m.ranks = ranks;
    m.whole = true;
  } else if (ranks.size() > m.ranks.size()) {
    m.ranks = ranks;
  }
}

using Key = std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, std::uint64_t>;  // group, src, dst, seq

struct Entry {
  const TraceKernel* kernel;
  const RankTrace* trace;
  std::uint32_t rank;
};

void number_ranks(std::vector<RankTrace>& ranks) {
  if (ranks.size() == 1 && !ranks[0].rank) ranks[0].rank = 0;
  for (const RankTrace& t : ranks)
    if (!t.rank)
      throw InputError({t.file, 0, 0, "distributedInfo.rank"},
                       "the trace does not say which rank it is, so the ranks' traces cannot be joined");
  std::sort(ranks.begin(), ranks.end(), [](const RankTrace& a, const RankTrace& b) { return *a.rank < *b.rank; });
  for (std::size_t i = 1; i < ranks.size(); ++i)
    if (*ranks[i].rank == *ranks[i - 1].rank)
      throw InputError({ranks[i].file, 0, 0, "distributedInfo.rank"},
                       "rank " + std::to_string(*ranks[i].rank) + " is traced twice (also in " + ranks[i - 1].file + ")");
}

// Every group's members, from the kernels, the traces' pg_config and the dumps.
std::map<std::string, Members> gather_members(const std::vector<RankTrace>& ranks, std::span<const TraceGroup> dumps) {
  std::map<std::string, Members> out;
  for (const RankTrace& t : ranks) {
    for (const TraceKernel& k : t.kernels) {
      Members& m = out[k.group];
      if (m.file.empty()) {
        m.file = t.file;
        m.event = k.event;
      }
      m.size = std::max(m.size, k.group_size);
      offer(m, k.ranks, k.ranks_cut);
    }
  }
  for (const RankTrace& t : ranks)
    for (const TraceGroup& g : t.groups)
      if (const auto it = out.find(g.name); it != out.end()) offer(it->second, g.ranks, g.ranks_cut);
  for (const TraceGroup& g : dumps)
    if (const auto it = out.find(g.name); it != out.end()) offer(it->second, g.ranks, g.ranks_cut);
  return out;
}

TraceCollective make_collective(std::uint32_t group, const Key& key, const std::vector<Entry>& entries,
                                std::uint32_t n) {
  const TraceKernel& first = *entries.front().kernel;
  TraceCollective c;
  c.group = group;
  c.seq = std::get<3>(key);
  c.op = first.op == TraceOp::Recv ? TraceOp::Send : first.op;
  c.collective = first.collective;
  c.bytes = collective_bytes(first, n);
  c.kernel = first.name;
  c.src = std::get<1>(key);
  c.dst = std::get<2>(key);
  for (const Entry& e : entries) {
    const TraceKernel& k = *e.kernel;
    if (!c.algo && k.algo) c.algo = k.algo;
    if (!c.proto && k.proto) c.proto = k.proto;
    if (c.algo_name.empty()) c.algo_name = k.algo_name;
    const bool p2p = first.op == TraceOp::Send || first.op == TraceOp::Recv;
    const bool same_op = p2p ? (k.op == TraceOp::Send || k.op == TraceOp::Recv) : k.op == first.op;
    if (!same_op || collective_bytes(k, n) != c.bytes)
      throw InputError({e.trace->file, 0, 0, "Collective name", k.event},
                       "collective " + std::to_string(c.seq) + " of group '" + first.group + "' is " + k.collective +
                           " of " + std::to_string(collective_bytes(k, n)) + " bytes here but " + first.collective +
                           " of " + std::to_string(c.bytes) + " bytes in " + entries.front().trace->file);
    c.held.push_back(e.rank);
    c.rank_start_us.push_back(k.ts_us);
    c.rank_end_us.push_back(k.ts_us + k.dur_us);
  }
  // From the last rank's start to the last rank's end, summed as
  // (its start - the last start) + its duration, so that one rank's
  // measured time is its kernel's duration exactly.
  const double start = *std::max_element(c.rank_start_us.begin(), c.rank_start_us.end());
  c.start_us = start;
  for (const Entry& e : entries)
    c.measured_us = std::max(c.measured_us, (e.kernel->ts_us - start) + e.kernel->dur_us);
  return c;
}

// Inspector records replace the measured time of the collectives they match.
void apply_inspector(CommTrace& out, std::span<const InspectorRecord> inspector) {
  if (inspector.empty()) return;
  std::map<std::tuple<std::uint32_t, std::string, std::uint64_t>, std::vector<const InspectorRecord*>> queue;
  for (const InspectorRecord& r : inspector) queue[{r.rank, r.coll, r.bytes}].push_back(&r);
  for (auto& [key, list] : queue)
    std::stable_sort(list.begin(), list.end(), [](auto* a, auto* b) { return a->sn < b->sn; });
  std::map<std::tuple<std::uint32_t, std::string, std::uint64_t>, std::size_t> used;
  std::size_t matched = 0;
  for (TraceCollective& c : out.collectives) {
    double exec = -1;
    for (std::size_t i = 0; i < c.held.size(); ++i) {
      const auto key = std::make_tuple(c.held[i], std::string(trace_op_name(c.op)), c.bytes);
      const auto it = queue.find(key);
      if (it == queue.end() || used[key] >= it->second.size()) continue;
      const InspectorRecord* r = it->second[used[key]++];
      exec = std::max(exec, r->exec_us);
    }
    if (exec < 0) continue;
    c.measured_us = exec;
    ++matched;
  }
  out.notes.push_back("NCCL Inspector: " + std::to_string(matched) + " of " + std::to_string(out.collectives.size()) +
                      " collectives take their measured time from its records");
}

}  // namespace

std::vector<Interval> merge_intervals(std::vector<Interval> v) {
  std::sort(v.begin(), v.end(), [](const Interval& a, const Interval& b) { return a.begin < b.begin; });
  std::size_t kept = 0;
  for (const Interval& i : v) {
    if (kept > 0 && i.begin <= v[kept - 1].end)
      v[kept - 1].end = std::max(v[kept - 1].end, i.end);
    else
      v[kept++] = i;
  }
  v.resize(kept);
  return v;
}

std::uint64_t collective_bytes(const TraceKernel& k, std::uint32_t n) noexcept {
  const std::uint64_t size = k.dtype_bytes;
  switch (k.op) {
    case TraceOp::AllGather: return std::max(k.out_nelems, k.in_nelems * n) * size;
    case TraceOp::ReduceScatter: return std::max(k.in_nelems, k.out_nelems * n) * size;
    case TraceOp::Send:
    case TraceOp::Recv: return std::max(k.in_nelems, k.out_nelems) * size;
    default: return k.in_nelems * size;
  }
}

std::string_view trace_op_name(TraceOp op) noexcept {
  static constexpr std::array<std::string_view, 10> kNames{"AllReduce", "AllGather", "ReduceScatter", "AllToAll", "Send",
                                                           "Recv",      "Broadcast", "Reduce",        "Barrier",  "Other"};
  return kNames[static_cast<std::size_t>(op)];
}

CommTrace join_traces(std::vector<RankTrace> ranks, std::span<const TraceGroup> membership,
                      std::span<const InspectorRecord> inspector) {
  CommTrace out;
  number_ranks(ranks);
  for (const RankTrace& t : ranks) {
    out.files.push_back(t.file);
    out.traced_ranks.push_back(*t.rank);
  }
  const auto members = gather_members(ranks, membership);
  std::map<std::string, std::uint32_t> group_index;
  for (const auto& [name, m] : members) {
    if (!m.whole || (m.size != 0 && m.ranks.size() != m.size))
      throw InputError({m.file, 0, 0, "Process Group Ranks", m.event},
                       "group '" + name + "' lists " + std::to_string(m.ranks.size()) + " of its " +
                           std::to_string(std::max<std::size_t>(m.size, m.ranks.size())) +
                           " ranks (PyTorch keeps the first 30): give its membership with --flight-recorder");
    group_index[name] = static_cast<std::uint32_t>(out.groups.size());
    CommGroup g{name, m.ranks, 0};
    for (std::uint32_t r : g.ranks) g.traced += std::binary_search(out.traced_ranks.begin(), out.traced_ranks.end(), r);
    out.groups.push_back(std::move(g));
  }
  // Each rank's kernels numbered in their group's order (p2p: per ordered pair).
  std::map<Key, std::vector<Entry>> by_key;
  for (const RankTrace& t : ranks) {
    std::map<Key, std::uint64_t> next;
    for (const TraceKernel& k : t.kernels) {
      const std::uint32_t g = group_index.at(k.group);
      std::uint32_t src = 0, dst = 0;
      if ((k.op == TraceOp::Send || k.op == TraceOp::Recv) && k.peer) {
        // PyTorch's peer is the rank within the group.
        const auto& gr = out.groups[g].ranks;
        if (*k.peer >= gr.size())
          throw InputError({t.file, 0, 0, k.op == TraceOp::Send ? "Dst Rank" : "Src Rank", k.event},
                           "peer " + std::to_string(*k.peer) + " is not a rank of group '" + k.group + "' (" +
                               std::to_string(gr.size()) + " ranks)");
        const std::uint32_t peer = gr[*k.peer];
        src = k.op == TraceOp::Send ? *t.rank : peer;
        dst = k.op == TraceOp::Send ? peer : *t.rank;
      }
      const std::uint64_t seq = next[{g, src, dst, 0}]++;
      by_key[{g, src, dst, seq}].push_back({&k, &t, *t.rank});
    }
  }
  if (by_key.empty()) {
    std::string files;
    for (const std::string& f : out.files) files += (files.empty() ? "" : ", ") + f;
    throw InputError({out.files.empty() ? std::string() : out.files.front(), 0, 0, ""},
                     "no NCCL kernel with PyTorch's collective metadata (\"Collective name\") in " + files);
  }
  for (const auto& [key, entries] : by_key) {
    const std::uint32_t g = std::get<0>(key);
    out.collectives.push_back(make_collective(g, key, entries, static_cast<std::uint32_t>(out.groups[g].ranks.size())));
  }
  std::stable_sort(out.collectives.begin(), out.collectives.end(),
                   [](const TraceCollective& a, const TraceCollective& b) { return a.start_us < b.start_us; });
  out.origin_us = out.collectives.front().start_us;
  for (const RankTrace& t : ranks)
    for (const TraceKernel& k : t.kernels) out.origin_us = std::min(out.origin_us, k.ts_us);
  for (TraceCollective& c : out.collectives) {
    c.start_us -= out.origin_us;
    for (double& s : c.rank_start_us) s -= out.origin_us;
    for (double& e : c.rank_end_us) e -= out.origin_us;
  }
  for (const RankTrace& t : ranks) {
    auto& compute = out.compute.emplace_back(t.compute);
    for (Interval& i : compute) i = {i.begin - out.origin_us, i.end - out.origin_us};
  }
  for (double s : ranks.front().steps) out.steps.push_back(s - out.origin_us);
  std::string completed;
  for (const CommGroup& g : out.groups)
    if (g.traced < g.ranks.size())
      completed += (completed.empty() ? "" : ", ") + ("'" + g.name + "' (" + std::to_string(g.traced) + " of " +
                                                      std::to_string(g.ranks.size()) + " ranks traced)");
  if (!completed.empty()) out.notes.push_back("groups completed from membership: " + completed);
  apply_inspector(out, inspector);
  return out;
}

CommTrace step_trace(const TrainingStep& step) {
  CommTrace out;
  std::uint32_t ranks = 0;
  for (const StepGroup& g : step.groups) {
    out.groups.push_back({g.name, g.ranks, static_cast<std::uint32_t>(g.ranks.size())});
    for (std::uint32_t r : g.ranks) ranks = std::max(ranks, r + 1);
  }
  for (std::uint32_t r = 0; r < ranks; ++r) out.traced_ranks.push_back(r);
  out.compute.resize(ranks);
  std::vector<std::uint64_t> seq(step.groups.size(), 0);
  for (std::size_t i = 0; i < step.collectives.size(); ++i) {
    const StepCollective& s = step.collectives[i];
    TraceCollective c;
    c.group = s.group;
    c.seq = seq[s.group]++;
    const CollectiveInfo& info = collective_info(s.collective);
    c.op = info.op == CollectiveOp::AllReduce       ? TraceOp::AllReduce
           : info.op == CollectiveOp::AllGather     ? TraceOp::AllGather
           : info.op == CollectiveOp::ReduceScatter ? TraceOp::ReduceScatter
           : info.op == CollectiveOp::AllToAll      ? TraceOp::AllToAll
                                                    : TraceOp::Send;
    c.collective = std::string(collective_name(s.collective));
    c.bytes = s.bytes;
    if (s.collective == Collective::RingAllReduce) c.algo = NcclAlgo::Ring;
    if (s.collective == Collective::TreeAllReduce) c.algo = NcclAlgo::Tree;
    c.src = s.src;
    c.dst = s.dst;
    c.held = c.op == TraceOp::Send ? std::vector<std::uint32_t>{s.src, s.dst} : step.groups[s.group].ranks;
    // Nothing measured: every collective at 0, and no gap on any rank's
    // stream (the order is the vector's).
    c.rank_start_us.assign(c.held.size(), 0.0);
    c.rank_end_us.assign(c.held.size(), 0.0);
    out.collectives.push_back(std::move(c));
  }
  return out;
}

}  // namespace ecmpsim::workloads
