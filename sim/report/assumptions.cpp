#include "sim/report/assumptions.h"


#include <cstdio>

#include "hashing/key.h"
#include "hashing/select.h"
#include "sim/base/text.h"
#include "sim/model/replay.h"
#include "sim/routing/flow_label_note.h"
#include "workloads/generators/ring.h"

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

// ", the seed prepended to the key" unless it enters the register.
std::string seed_as_text(hashing::SeedAs as) {
  if (as == hashing::SeedAs::Register) return {};
  return as == hashing::SeedAs::Prefix ? ", the seed prepended to the key" : ", the seed XORed into the hash";
}

std::string hash_text(const HashSpec& h) {
  std::string out = h.algo + " over (" + fields_text(h.fields) + "), seed " + std::to_string(h.seed) + " " +
                    std::string(doc_of(kSeedModes, h.seed_mode)) + seed_as_text(h.seed_as) + ", " +
                    std::string(hashing::selection_name(h.select)) + " selection";
  if (h.select == hashing::Selection::Resilient) out += " over " + std::to_string(h.buckets) + " buckets";
  if (h.offset != 0) out += ", hash rotated right by " + std::to_string(h.offset) + " bits";
  if (h.rss_key) out += ", Toeplitz key " + format_hex_bytes(*h.rss_key);
  return out;
}

// The keys an override sets, e.g. "algo crc32-lo, seed 25 on every switch".
std::string override_text(const HashOverride& o) {
  const HashSpec& h = o.values;
  std::string out;
  auto add = [&](std::uint32_t key, const std::string& text) {
    if (o.keys & key) out += (out.empty() ? "" : ", ") + text;
  };
  add(kHashAlgo, "algo " + h.algo);
  add(kHashFields, "fields (" + fields_text(h.fields) + ")");
  add(kHashSeed | kHashSeedMode, "seed " + std::to_string(h.seed) + " " + std::string(doc_of(kSeedModes, h.seed_mode)));
  // A named algorithm's own convention is said only when it is not the register's.
  if ((o.keys & kHashSeedAs) || ((o.keys & kHashAlgo) && h.seed_as != hashing::SeedAs::Register))
    out += (out.empty() ? "" : ", ") + std::string(hashing::seed_as_name(h.seed_as)) + " seed convention";
  add(kHashOffset, "hash rotated right by " + std::to_string(h.offset) + " bits");
  add(kHashSelect, std::string(hashing::selection_name(h.select)) + " selection");
  add(kHashBuckets, std::to_string(h.buckets) + " buckets");
  if (h.rss_key) add(kHashRssKey, "Toeplitz key " + format_hex_bytes(*h.rss_key));
  return out;
}

std::string static_text(const ScenarioSpec& s) {
  std::string out(doc_of(kStaticPolicies, s.policy));
  const std::size_t listed = s.routes.size() + (s.routes_file ? s.routes_file->rows.size() : 0);
  if (listed > 0 && s.policy != StaticPolicy::Table)
    out += "; " + plural(listed, "explicit route") + " consulted first (longest-prefix match)";
  else if (listed > 0)
    out += ": " + plural(listed, "route") + " (longest-prefix match)";
  if (s.routes_file) out += ", from " + s.routes_file->path;
  return out;
}

// "per leaf 1600 Gb/s down, 1600 Gb/s up: oversubscription 1:1".
std::string oversubscription(const std::string& where, double down, double up) {
  return "; per " + where + " " + format_number(down) + " Gb/s down, " + format_number(up) +
         " Gb/s up: oversubscription " + ratio(down, up);
}

void fabric_assumptions(const FabricSpec& fs, std::vector<Assumption>& out) {
  const LeafSpineSpec& f = fs.leaf_spine;
  const std::string pairs = plural(f.links_per_pair, "link") + " per leaf-spine pair";
  switch (fs.kind) {
    case FabricKind::FatTree: {
      const std::uint32_t k = fs.fat_tree_k, half = k / 2;
      const Gbps core = fs.core_speed.value > 0 ? fs.core_speed : f.fabric_speed;
      out.push_back({"fabric", "k = " + std::to_string(k) + " fat-tree: " + std::to_string(k) +
                                   " pods of k/2 edge and k/2 aggregation switches, (k/2)^2 cores"});
      out.push_back({"speeds", "host links " + gbps(f.host_speed) + ", edge-aggregation links " +
                                   gbps(f.fabric_speed) + ", aggregation-core links " + gbps(core) +
                                   oversubscription("edge", half * f.host_speed.value, half * f.fabric_speed.value) +
                                   oversubscription("aggregation", half * f.fabric_speed.value, half * core.value)});
      return;
    }
    case FabricKind::Rail: {
      const std::uint32_t per_leaf = fs.rail_leaf_nodes == 0 ? fs.rail_nodes : fs.rail_leaf_nodes;
      out.push_back({"fabric", "rail-optimised: " + std::to_string(fs.rail_nodes) + " nodes, one rail per NIC index, " +
                                   std::to_string(per_leaf) + " nodes per rail leaf, " +
                                   std::to_string(f.spines) + " spines, " + pairs});
      out.push_back({"speeds", "host links " + gbps(f.host_speed) + ", leaf-spine links " + gbps(f.fabric_speed) +
                                   oversubscription("rail leaf", per_leaf * f.host_speed.value,
                                                    static_cast<double>(f.spines) * f.links_per_pair *
                                                        f.fabric_speed.value)});
      return;
    }
    case FabricKind::File: out.push_back({"fabric", "read from a topology file"}); return;
    case FabricKind::LeafSpine: break;
  }
  const std::uint32_t hosts = f.leaves * f.hosts_per_leaf;
  out.push_back({"fabric", "two-tier leaf-spine: " + std::to_string(f.leaves) + " leaves x " +
                               std::to_string(f.hosts_per_leaf) + " hosts (" + std::to_string(hosts) + " hosts), " +
                               std::to_string(f.spines) + " spines, " + pairs});
  out.push_back({"speeds", "host links " + gbps(f.host_speed) + ", leaf-spine links " + gbps(f.fabric_speed) +
                               oversubscription("leaf", f.hosts_per_leaf * f.host_speed.value,
                                                static_cast<double>(f.spines) * f.links_per_pair *
                                                    f.fabric_speed.value)});
}

}  // namespace

std::string routing_summary(const ScenarioSpec& s) {
  const RoutingMode& mode = routing_mode(s.routing);
  if (mode.hashes) {
    std::string out = "ECMP " + s.hash.algo + ", seed " + std::to_string(s.hash.seed);
    if (s.hash.seed_mode != SeedMode::Same) out += " (" + std::string(name_of(kSeedModes, s.hash.seed_mode)) + ")";
    if (!s.hash_tiers.empty() || !s.hash_switches.empty()) out += ", with overrides";
    if (s.sports == SportPlan::Planned) out += ", planned source ports";
    return out;
  }
  if (mode.load_aware) return std::string(mode.name) + " " + std::string(name_of(kAdaptiveModes, s.adaptive));
  if (mode.splits) return std::string(mode.name) + (s.weights.empty() ? "" : ", with WCMP weights");
  if (mode.tables) return std::string(mode.name) + " " + std::string(name_of(kStaticPolicies, s.policy));
  return std::string(mode.name);  // a mode with no parameters of its own
}

namespace {

// The GPU-NIC map when the config states one: "GPU 0: NIC 3, GPU 1: NIC 2".
std::string gpu_nic_text(const FabricSpec& fs) {
  if (fs.gpu_nics.near.empty()) return {};
  std::string out = "; GPU-NIC map (gpu_nics) ";
  for (std::size_t g = 0; g < fs.gpu_nics.near.size(); ++g) {
    out += (g ? ", GPU " : "GPU ") + std::to_string(g) + ": NIC";
    for (std::size_t i = 0; i < fs.gpu_nics.near[g].size(); ++i)
      out += (i ? "/" : " ") + std::to_string(fs.gpu_nics.near[g][i]);
  }
  return out;
}

}  // namespace

// How a multi-NIC job picks its NICs: the ring graph's crossNic, PXN for p2p,
// the search channel for trees.
std::string nic_choice(const JobSpec& j, const FabricSpec& fabric) {
  const workloads::CollectiveShape shape = workloads::collective_info(j.collective).shape;
  if (shape == workloads::CollectiveShape::PointToPoint)
    return j.pxn || j.cross_nic == 0 ? "; the sender uses the NIC of the destination GPU's rail (PXN)"
                                     : "; each GPU sends on its own NIC (PXN off)";
  if (shape == workloads::CollectiveShape::Tree)
    return "; tree edges of channel c use NIC (c mod P) mod K at both ends";
  const auto& rules = workloads::ring_rules(j.nccl_version);
  const auto g = workloads::ring_graph(
      j.cross_nic, j.ring_cross_nic,
      workloads::same_nic_falls_short(fabric.gpu_nics, fabric.gpus_per_node, fabric.nics_per_node, j.pxn), rules);
  std::string s = "; NCCL " + workloads::nccl_version_text(j.nccl_version) + ", NCCL_CROSS_NIC " +
                  std::to_string(j.cross_nic) + ", ring graph crossNic ";
  if (g == workloads::RingGraph::SameNic) return s + "0 (each channel enters and leaves a node by one NIC)";
  s += g == workloads::RingGraph::CrossNic1 ? "1 (channels pair NICs" : "2 (channels pair NICs";
  const std::uint32_t search = j.search_channels ? j.search_channels : workloads::default_search_channels(j.channels);
  // The node count is the fabric's to say; an exchange that depends on it is named as such.
  if (rules.swap == workloads::RingSwap::NonZeroEvenNodes && search % 2 == 0)
    return s + "; odd nodes swap channel pairs when the job has an even node count)";
  return s + (workloads::ring_swaps(g, rules, 2, search) ? " and swap them on odd nodes)" : ")");
}

std::vector<Assumption> assumptions(const Spec& spec) {
  std::vector<Assumption> out;
  fabric_assumptions(spec.fabric, out);
  const FabricSpec& fs = spec.fabric;
  out.push_back({"nodes and NICs",
                 std::to_string(fs.nics_per_node) + " NIC" + (fs.nics_per_node == 1 ? "" : "s") + " and " +
                     std::to_string(fs.gpus_per_node) + " GPU" + (fs.gpus_per_node == 1 ? "" : "s") +
                     " per node, each NIC its own endpoint and IP; addresses from " +
                     hashing::format_ip(fs.address_base) + ", a block per ToR" + gpu_nic_text(fs)});
  for (const JobSpec& j : spec.jobs) {
    const std::string p = spec.jobs.size() == 1 ? "" : " (" + j.name + ")";
    const std::string nodes = j.nodes == 0 ? "every free node" : std::to_string(j.nodes) + " nodes";
    if (j.kind == workloads::JobKind::Training) {
      out.push_back({"training" + p, training_text(j.training) + " over " + nodes +
                                         "; every collective of the step at once (docs/workloads.md)"});
      continue;
    }
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
                                       (fs.nics_per_node > 1 ? nic_choice(j, fs) : std::string())});
    const workloads::RoceParams& r = j.roce;
    std::string qps = std::to_string(j.qps_per_connection) + " QP" + (j.qps_per_connection == 1 ? "" : "s") +
                      " per connection (bytes split evenly); QP numbers ";
    if (r.qpn == workloads::QpnModel::Sequential)
      qps += "allocated per NIC from " + format_hex(r.qpn_base) + " in steps of " + std::to_string(r.qpn_stride);
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
        sport += std::to_string(r.sport_base) + " + (the QP's index in the job, over all its NICs, mod " +
                 std::to_string(r.sport_range) + ")";
        break;
      default:
        sport += std::string(workloads::sport_model_name(r.sport)) + " model from " + std::to_string(r.sport_base) +
                 ", range " + std::to_string(r.sport_range) + ", seed " + std::to_string(r.seed);
    }
    out.push_back({"five-tuple" + p, sport});
  }
  if (auto note = flow_label_note(spec, spec.fabric.address_base.family())) out.push_back({"flow label", std::move(*note)});
  for (const ScenarioSpec& s : spec.scenarios) {
    const RoutingMode& mode = routing_mode(s.routing);
    const std::string topic = std::string(mode.name) + " (" + s.name + ")";
    if (mode.tables) {
      out.push_back({topic, static_text(s)});
      continue;
    }
    if (mode.load_aware) {
      out.push_back({topic,
                     std::string(doc_of(kAdaptiveModes, s.adaptive)) +
                         "; load = bytes placed / link speed, ties to the lowest member index"});
      continue;
    }
    if (mode.splits) {
      out.push_back({topic, std::string(mode.doc) + "; link loads are sums of shares; predicted times give each link the flow's share of its rate"});
      continue;
    }
    if (!mode.hashes) {  // a mode with no parameters of its own: its doc says it
      out.push_back({topic, std::string(mode.doc)});
      continue;
    }
    if (s.sports == SportPlan::Planned)
      out.push_back({"source ports (" + s.name + ")",
                     "planned per flow in " + std::to_string(s.sport_min) + ".." + std::to_string(s.sport_max) +
                         " for this scenario's hashes (each QP's GRH flow label set so the kernel derives the port)"});
    out.push_back({"hash (" + s.name + ")", "ECMP: " + hash_text(s.hash)});
    for (const HashOverride& o : s.hash_tiers)
      out.push_back({"hash (" + s.name + ")", std::string(name_of(kTiers, o.tier)) + " switches: " + override_text(o)});
    for (const HashOverride& o : s.hash_switches)
      out.push_back({"hash (" + s.name + ")", "switch " + o.switch_name + ": " + override_text(o)});
  }
  return out;
}

}  // namespace ecmpsim
