#include "sim/model/replay_flows.h"

#include <algorithm>
#include <map>

#include "sim/base/error.h"
#include "sim/model/nccl_cost.h"
#include "sim/model/nccl_derive.h"
#include "sim/model/simulation.h"
#include "workloads/generators/job.h"
#include "workloads/generators/locality.h"

namespace ecmpsim {

namespace {

using workloads::Collective;
using workloads::TraceOp;

struct RankPlace {
  std::uint32_t server = 0;
  std::uint32_t gpu = 0;
};

// Every rank's node and GPU: the rank map, else in order over the first job's nodes.
std::vector<RankPlace> place_ranks(const Spec& spec, const Fabric& fabric, const workloads::CommTrace& trace,
                                   const ReplayOptions& options, std::size_t job) {
  std::uint32_t ranks = 0;
  for (const auto& g : trace.groups)
    for (std::uint32_t r : g.ranks) ranks = std::max(ranks, r + 1);
  const std::vector<std::uint32_t> nodes = place_jobs(spec, fabric)[job];
  const std::uint32_t gpus = spec.fabric.gpus_per_node;
  std::vector<RankPlace> out(ranks);
  for (std::uint32_t r = 0; r < ranks; ++r) {
    if (r < options.rank_map.size() && options.rank_map[r]) {
      const auto& [name, gpu] = *options.rank_map[r];
      const std::uint32_t server = fabric.find_server(name);
      if (server == kNone || gpu >= gpus)
        throw InputError({options.rank_map_file, 0, 0, "rank " + std::to_string(r)},
                         server == kNone ? "no node named '" + name + "' in the fabric"
                                         : "GPU " + std::to_string(gpu) + " of a node of " + std::to_string(gpus));
      out[r] = {server, gpu};
      continue;
    }
    const std::uint32_t node = r / gpus, gpu = r % gpus;
    if (node >= nodes.size())
      throw InputError({spec.source, 0, 0, "job"},
                       "rank " + std::to_string(r) + " of the trace needs node " + std::to_string(node) + " GPU " +
                           std::to_string(gpu) + " but job '" + spec.jobs[job].name + "' has " +
                           std::to_string(nodes.size()) + " nodes of " + std::to_string(gpus) + " GPUs");
    out[r] = {nodes[node], gpu};
  }
  return out;
}

// The layout of a group's members: its nodes in the order the members reach
// them; the whole node (the config's NICs and locality) when every GPU of it
// is a member, else the NICs near the member GPUs (rail-aligned default).
// nullopt when nodes hold different numbers of members.
std::optional<workloads::JobLayout> group_layout(const Spec& spec, const Fabric& fabric,
                                                 const std::vector<RankPlace>& place,
                                                 const std::vector<std::uint32_t>& members) {
  std::vector<std::uint32_t> servers;
  std::map<std::uint32_t, std::vector<std::uint32_t>> gpus_of;
  for (std::uint32_t r : members) {
    const RankPlace p = place[r];
    if (!gpus_of.contains(p.server)) servers.push_back(p.server);
    gpus_of[p.server].push_back(p.gpu);
  }
  workloads::JobLayout layout;
  const std::uint32_t per_node = static_cast<std::uint32_t>(gpus_of[servers.front()].size());
  const std::uint32_t gpus = spec.fabric.gpus_per_node, nics = spec.fabric.nics_per_node;
  layout.gpus_per_node = per_node;
  for (std::uint32_t s : servers) {
    if (gpus_of[s].size() != per_node) return std::nullopt;
    const auto node_nics = fabric.server_nics(s);
    if (per_node == gpus) {
      layout.nics.insert(layout.nics.end(), node_nics.begin(), node_nics.end());
      continue;
    }
    std::vector<std::uint32_t> near;
    std::vector<std::uint32_t> sorted = gpus_of[s];
    std::sort(sorted.begin(), sorted.end());
    for (std::uint32_t g : sorted) {
      const std::uint32_t k = workloads::gpu_nic(spec.fabric.gpu_nics, g, gpus, nics, 0);
      if (std::find(near.begin(), near.end(), k) == near.end()) near.push_back(k);
    }
    if (s != servers.front() && near.size() != layout.nics_per_node) return std::nullopt;
    layout.nics_per_node = static_cast<std::uint32_t>(near.size());
    for (std::uint32_t k : near) layout.nics.push_back(node_nics[k]);
  }
  if (per_node == gpus) {
    layout.nics_per_node = nics;
    layout.gpu_nics = spec.fabric.gpu_nics;
  }
  return layout;
}

// The generator's collective for a traced one: the kernel's algorithm when it
// names Ring or Tree, else NCCL's choice for the size; nullopt when the NCCL
// model here does not expand the operation.
std::optional<Collective> generator_for(const JobSpec& job, const Fabric& fabric, const workloads::TraceCollective& c,
                                        const workloads::JobLayout& layout) {
  switch (c.op) {
    case TraceOp::AllGather: return Collective::AllGather;
    case TraceOp::ReduceScatter: return Collective::ReduceScatter;
    case TraceOp::AllToAll: return Collective::AllToAll;
    case TraceOp::Send:
    case TraceOp::Recv: return Collective::SendRecv;
    case TraceOp::AllReduce: break;
    default: return std::nullopt;
  }
  if (c.algo) return *c.algo == workloads::NcclAlgo::Tree ? Collective::TreeAllReduce : Collective::RingAllReduce;
  NcclComm comm;
  comm.ranks = layout.ranks();
  comm.nodes = layout.nodes();
  comm.channels = job.channels;
  comm.search_channels = job.search_channels != 0 ? job.search_channels : workloads::default_search_channels(job.channels);
  // What the NICs could carry: the choice before any routing is known.
  comm.net_busbw = fabric.link(fabric.uplink(layout.nics.front())).speed.value / 8 * layout.nics_per_node;
  const auto choice = nccl_choose(comm, c.bytes);
  return choice && choice->algo == workloads::NcclAlgo::Tree ? Collective::TreeAllReduce : Collective::RingAllReduce;
}

// The job's own parameters (collective_params), at the kernel's size and with
// the first peer: a replayed kernel is one operation, not the job's pattern.
workloads::CollectiveParams params_for(const JobSpec& job, Collective coll, std::uint64_t bytes) {
  workloads::CollectiveParams p = collective_params(job, coll);
  p.message_bytes = bytes;
  p.peer_offset = 1;
  return p;
}

}  // namespace

ReplayFlows expand_collectives(const Spec& spec, const Fabric& fabric, const workloads::CommTrace& trace,
                               const ReplayOptions& options, std::size_t job_index) {
  const std::vector<RankPlace> place = place_ranks(spec, fabric, trace, options, job_index);
  const auto endpoints = fabric.endpoints();
  std::vector<hashing::IpAddr> ips(endpoints.size());
  for (std::size_t e = 0; e < endpoints.size(); ++e) ips[e] = fabric.node(endpoints[e]).ip;
  const JobSpec& job = spec.jobs[job_index];
  ReplayFlows out;
  out.begin.push_back(0);
  std::vector<std::optional<workloads::JobLayout>> layouts(trace.groups.size());
  std::vector<std::uint8_t> laid(trace.groups.size(), 0);
  workloads::QpnAllocator shared(endpoints.size(), job.roce);
  std::map<std::pair<std::uint32_t, workloads::CollectiveShape>, workloads::QpnAllocator> connections;
  std::size_t skipped = 0, uneven = 0;
  for (const workloads::TraceCollective& c : trace.collectives) {
    const bool p2p = c.op == TraceOp::Send;
    std::optional<workloads::JobLayout> layout;
    if (p2p) {
      if (c.src != c.dst) layout = group_layout(spec, fabric, place, {c.src, c.dst});
    } else {
      if (!laid[c.group]) layouts[c.group] = group_layout(spec, fabric, place, trace.groups[c.group].ranks);
      laid[c.group] = 1;
      layout = layouts[c.group];
    }
    const auto coll = layout ? generator_for(job, fabric, c, *layout) : std::nullopt;
    uneven += !layout && (!p2p || c.src != c.dst);
    if (!coll || c.bytes == 0) {
      skipped += layout.has_value();
      out.algo.emplace_back();
      out.begin.push_back(static_cast<std::uint32_t>(out.flows.size()));
      continue;
    }
    // The group's first collective on these connections allocates its QPs
    // from the shared allocator; later ones reuse them.
    const auto key = std::pair{c.group, workloads::collective_info(*coll).shape};
    auto it = connections.find(key);
    const bool first = it == connections.end();
    if (first) it = connections.emplace(key, shared).first;
    workloads::QpnAllocator qpns = it->second;
    workloads::FlowMaker maker(job.roce, qpns, ips, static_cast<std::uint16_t>(job_index), *coll);
    maker.set_max_flows(spec.limits.max_flows - std::min<std::uint64_t>(spec.limits.max_flows, out.flows.size()));
    workloads::Flows made;
    try {
      workloads::generate(params_for(job, *coll, c.bytes), *layout, maker, made);
    } catch (const workloads::FlowLimitExceeded&) {
      throw InputError({spec.source, 0, 0, "--max-flows"},
                       "the replay takes the workload past " + std::to_string(spec.limits.max_flows) + " flows");
    }
    if (first) shared = qpns;
    // A send's layout pairs both directions: only the sender's half is sent.
    const auto sender_nics = fabric.server_nics(place[p2p ? c.src : 0].server);
    for (std::size_t f = 0; f < made.size(); ++f) {
      if (made.src[f] == made.dst[f]) continue;
      if (p2p && std::ranges::find(sender_nics, made.src[f]) == sender_nics.end()) continue;
      out.flows.push_back(made[f]);
    }
    out.algo.emplace_back(workloads::collective_name(*coll));
    out.begin.push_back(static_cast<std::uint32_t>(out.flows.size()));
  }
  if (skipped > 0)
    out.notes.push_back(std::to_string(skipped) +
                        " collectives are operations the NCCL model here does not expand (broadcast, reduce, "
                        "barrier, ...) or of unknown dtype: listed without a prediction");
  if (uneven > 0)
    out.notes.push_back(std::to_string(uneven) +
                        " collectives belong to groups with different numbers of ranks on their nodes: listed "
                        "without a prediction");
  return out;
}

}  // namespace ecmpsim
