#include "sim/assumptions.h"

#include <cstdio>

#include "hashing/key.h"
#include "hashing/select.h"
#include "sim/parse.h"
#include "workloads/ring.h"

namespace ecmpsim {
namespace {

std::string gbps(Gbps g) { return format_number(g.value) + " Gb/s"; }

std::string size_text(Bytes b) {
  const std::uint64_t v = b.value;
  const char* units[] = {"TiB", "GiB", "MiB", "KiB"};
  const int shifts[] = {40, 30, 20, 10};
  for (int i = 0; i < 4; ++i)
    if (v >= (1ULL << shifts[i]) && v % (1ULL << shifts[i]) == 0)
      return std::to_string(v >> shifts[i]) + " " + units[i] + " (" + std::to_string(v) + " bytes)";
  return std::to_string(v) + " bytes";
}

std::string hex(std::uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%x", v);
  return buf;
}

std::string ratio(double a, double b) {
  if (b <= 0) return "no uplinks";
  const double r = a / b;
  return format_number(static_cast<double>(static_cast<long long>(r * 100 + 0.5)) / 100) + ":1";
}

std::string fields_text(const std::vector<hashing::Field>& fields) {
  std::string out;
  for (std::size_t i = 0; i < fields.size(); ++i) out += (i ? ", " : "") + std::string(hashing::field_name(fields[i]));
  return out;
}

std::string hash_text(const HashSpec& h) {
  std::string out = h.algo + " over (" + fields_text(h.fields) + "), seed " + std::to_string(h.seed) +
                    " on every switch, " + std::string(hashing::selection_name(h.select)) + " selection";
  if (h.select == hashing::Selection::Resilient) out += " over " + std::to_string(h.buckets) + " buckets";
  if (h.offset != 0) out += ", hash rotated right by " + std::to_string(h.offset) + " bits";
  return out;
}

std::string static_text(const ScenarioSpec& s) {
  std::string out;
  if (s.policy == StaticPolicy::DstMod)
    out = "generated dst-mod table: at every switch, destination endpoint i takes member i mod n of its "
          "equal-cost set";
  else
    out = "only the listed routes";
  if (!s.routes.empty())
    out += "; " + std::to_string(s.routes.size()) + " explicit route" + (s.routes.size() == 1 ? "" : "s") +
           " consulted first (longest-prefix match)";
  return out;
}

}  // namespace

std::string routing_summary(const ScenarioSpec& s) {
  if (s.routing == RoutingKind::Ecmp) return "ECMP " + s.hash.algo + ", seed " + std::to_string(s.hash.seed);
  return std::string("static ") + (s.policy == StaticPolicy::DstMod ? "dst-mod" : "table");
}

// How a multi-NIC job picks its NICs: the ring graph's crossNic, PXN for p2p,
// the search channel for trees.
std::string nic_choice(const JobSpec& j) {
  using workloads::Collective;
  if (j.collective == Collective::AllToAll || j.collective == Collective::SendRecv)
    return j.pxn || j.cross_nic == 0 ? "; the sender uses the NIC of the destination GPU's rail (PXN)"
                                     : "; each GPU sends on its own NIC (PXN off)";
  if (j.collective == Collective::TreeAllReduce)
    return "; tree edges of channel c use NIC (c mod P) mod K at both ends";
  const auto g = workloads::ring_graph(j.cross_nic, j.ring_cross_nic);
  std::string s = "; NCCL_CROSS_NIC " + std::to_string(j.cross_nic) + ", ring graph crossNic ";
  if (g == workloads::RingGraph::SameNic) return s + "0 (each channel enters and leaves a node by one NIC)";
  if (g == workloads::RingGraph::CrossNic1) return s + "1 (channels pair NICs)";
  return s + "2 (channels pair NICs and swap on odd nodes)";
}

std::vector<Assumption> assumptions(const Spec& spec) {
  std::vector<Assumption> out;
  const LeafSpineSpec& f = spec.fabric.leaf_spine;
  switch (spec.fabric.kind) {
    case FabricKind::FatTree:
      out.push_back({"fabric", "k = " + std::to_string(spec.fabric.fat_tree_k) + " fat-tree: " +
                                   std::to_string(spec.fabric.fat_tree_k) + " pods of k/2 edge and k/2 aggregation "
                                   "switches, (k/2)^2 cores"});
      out.push_back({"speeds", "host links " + gbps(f.host_speed) + ", edge-aggregation links " +
                                   gbps(f.fabric_speed) + ", aggregation-core links " +
                                   gbps(spec.fabric.core_speed.value > 0 ? spec.fabric.core_speed : f.fabric_speed)});
      break;
    case FabricKind::Rail:
      out.push_back({"fabric", "rail-optimised: " + std::to_string(spec.fabric.rail_nodes) + " nodes, one rail per "
                                   "NIC index, " + std::to_string(f.spines) + " spines, " +
                                   std::to_string(f.links_per_pair) + " link(s) per leaf-spine pair"});
      out.push_back({"speeds", "host links " + gbps(f.host_speed) + ", leaf-spine links " + gbps(f.fabric_speed)});
      break;
    case FabricKind::File:
      out.push_back({"fabric", "read from a topology file"});
      break;
    default: {
    const std::uint32_t hosts = f.leaves * f.hosts_per_leaf;
    out.push_back({"fabric", "two-tier leaf-spine: " + std::to_string(f.leaves) + " leaves x " +
                                 std::to_string(f.hosts_per_leaf) + " hosts (" + std::to_string(hosts) +
                                 " hosts), " + std::to_string(f.spines) + " spines, " +
                                 std::to_string(f.links_per_pair) + " link" + (f.links_per_pair == 1 ? "" : "s") +
                                 " per leaf-spine pair"});
    const double down = f.hosts_per_leaf * f.host_speed.value;
    const double up = static_cast<double>(f.spines) * f.links_per_pair * f.fabric_speed.value;
    out.push_back({"speeds", "host links " + gbps(f.host_speed) + ", leaf-spine links " + gbps(f.fabric_speed) +
                                 "; per leaf " + format_number(down) + " Gb/s down, " + format_number(up) +
                                 " Gb/s up: oversubscription " + ratio(down, up)});
    }
  }
  const FabricSpec& fs = spec.fabric;
  out.push_back({"nodes and NICs",
                 std::to_string(fs.nics_per_node) + " NIC" + (fs.nics_per_node == 1 ? "" : "s") + " and " +
                     std::to_string(fs.gpus_per_node) + " GPU" + (fs.gpus_per_node == 1 ? "" : "s") +
                     " per node, each NIC its own endpoint and IP; addresses from " +
                     format_ipv4(fs.address_base) + ", a block per ToR"});
  for (const JobSpec& j : spec.jobs) {
    const std::string p = spec.jobs.size() == 1 ? "" : " (" + j.name + ")";
    const std::string nodes = j.nodes == 0 ? "every free node" : std::to_string(j.nodes) + " nodes";
    std::string coll = "NCCL " + std::string(workloads::collective_name(j.collective)) + " over " + nodes +
                       ", ranks placed " + std::string(workloads::placement_name(j.placement));
    if (j.placement == workloads::Placement::Strided) coll += " (round-robin over leaves)";
    if (j.placement == workloads::Placement::Contiguous) coll += " (each leaf filled in turn)";
    if (j.placement == workloads::Placement::Random) coll += " (seed " + std::to_string(j.seed) + ")";
    if (j.collective == workloads::Collective::RingAllReduce)
      coll += "; each rank sends 2(N-1)/N x S bytes to its ring successor";
    out.push_back({"collective" + p, coll});
    out.push_back({"message" + p, "S = " + size_text(j.message)});
    out.push_back({"channels" + p, std::to_string(j.channels) + " NCCL channels, each with its own connections" +
                                       (fs.nics_per_node > 1 ? nic_choice(j) : std::string())});
    const workloads::RoceParams& r = j.roce;
    std::string qps = std::to_string(j.qps_per_connection) + " QP" + (j.qps_per_connection == 1 ? "" : "s") +
                      " per connection (bytes split evenly); QP numbers ";
    if (r.qpn == workloads::QpnModel::Sequential)
      qps += "allocated per NIC from " + hex(r.qpn_base) + " in steps of " + std::to_string(r.qpn_stride);
    else
      qps += "drawn at random per NIC (seed " + std::to_string(r.seed) + ")";
    out.push_back({"QPs" + p, qps});
    std::string sport = "UDP (17) to port 4791; source port ";
    switch (r.sport) {
      case workloads::SportModel::Linux:
        sport += "from the QP pair by the Linux/mlx5 formula (rdma_calc_flow_label, rdma_flow_label_to_udp_sport)";
        break;
      case workloads::SportModel::Mlx4: sport += "from the QP pair by the ConnectX-3 (mlx4) folding"; break;
      case workloads::SportModel::Fixed: sport += std::to_string(r.sport_base) + " on every QP"; break;
      case workloads::SportModel::Range:
        sport += std::to_string(r.sport_base) + " + (QP index mod " + std::to_string(r.sport_range) + ")";
        break;
      default:
        sport += std::string(workloads::sport_model_name(r.sport)) + " model from " + std::to_string(r.sport_base) +
                 ", range " + std::to_string(r.sport_range) + ", seed " + std::to_string(r.seed);
    }
    out.push_back({"five-tuple" + p, sport});
  }
  for (const ScenarioSpec& s : spec.scenarios) {
    if (s.routing == RoutingKind::Ecmp)
      out.push_back({"hash (" + s.name + ")", "ECMP: " + hash_text(s.hash)});
    else
      out.push_back({"static (" + s.name + ")", static_text(s)});
  }
  return out;
}

}  // namespace ecmpsim
