// Generated NCCL traffic checked against NCCL_DEBUG=INFO logs of real clusters.
// Each case builds a config shaped like the cluster the log came from, reads
// the log lines with a parser of NCCL's own format ("Channel CC/Q : A[a] ->
// B[b] [send|receive] via NET/IB/N", src/transport/net.cc) and checks that the
// generated flow of that channel between those two nodes uses NIC N at the
// logging rank's end. NCCL numbers ranks node by node, as ecmpsim does with
// contiguous placement, and NET/IB/N is the N-th NIC in NCCL's order, ecmpsim's
// NIC index N.
#include <doctest/doctest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "sim/config/config.h"
#include "sim/model/simulation.h"

namespace nccl_logs_test {

using namespace ecmpsim;

namespace {

struct LogLine {
  unsigned channel = 0, from = 0, to = 0, nic = 0;
  bool send = false;
};

LogLine parse_log(const std::string& line) {
  LogLine l;
  char kind[16] = {};
  unsigned conn = 0, from_dev = 0, to_dev = 0;
  const auto at = line.find("Channel ");
  REQUIRE(at != std::string::npos);
  REQUIRE(std::sscanf(line.c_str() + at, "Channel %u/%u : %u[%u] -> %u[%u] [%15[a-z]] via NET/IB/%u", &l.channel,
                      &conn, &l.from, &from_dev, &l.to, &to_dev, kind, &l.nic) == 8);
  l.send = std::string(kind) == "send";
  return l;
}

// A rail-optimized cluster of `nodes` x 8 GPUs x `nics` NICs running one ring
// all-reduce on every node, with `extra` job keys.
std::string rail_cluster(int nodes, int nics, int channels, const std::string& extra) {
  return "[fabric]\nkind = \"rail\"\nnodes = " + std::to_string(nodes) + "\nnics_per_node = " + std::to_string(nics) +
         "\ngpus_per_node = 8\nspines = 2\nhost_speed_gbps = 200\nfabric_speed_gbps = 200\n"
         "[[job]]\ncollective = \"ring-allreduce\"\nplacement = \"contiguous\"\nmessage_bytes = \"1GiB\"\n"
         "channels = " + std::to_string(channels) + "\n" + extra +
         "[[scenario]]\nname = \"ecmp\"\n";
}

struct Generated {
  Spec spec;
  Fabric fabric;
  workloads::Flows flows;
  explicit Generated(const std::string& toml)
      : spec(parse_config(toml, "cluster.toml")), fabric(fabric_for(spec)), flows(generate_flows(spec, fabric)) {}

  // (node, NIC index) of an endpoint.
  std::pair<std::uint32_t, std::uint32_t> where(std::uint32_t endpoint) const {
    for (std::uint32_t s = 0; s < fabric.server_count(); ++s) {
      const auto nics = fabric.server_nics(s);
      for (std::uint32_t k = 0; k < nics.size(); ++k)
        if (nics[k] == endpoint) return {s, k};
    }
    FAIL("endpoint of no node");
    return {};
  }
};

// The log lines whose NIC the generated flows do not reproduce.
std::vector<std::string> unmatched(const Generated& g, const std::vector<std::string>& log, unsigned gpus) {
  std::vector<std::string> out;
  for (const auto& line : log) {
    const LogLine l = parse_log(line);
    bool found = false, matches = false;
    for (std::size_t f = 0; f < g.flows.size(); ++f) {
      const auto [src_node, src_nic] = g.where(g.flows.src[f]);
      const auto [dst_node, dst_nic] = g.where(g.flows.dst[f]);
      if (g.flows.channel[f] != l.channel || src_node != l.from / gpus || dst_node != l.to / gpus) continue;
      found = true;
      matches = (l.send ? src_nic : dst_nic) == l.nic;
    }
    if (!found || !matches) out.push_back(line);
  }
  return out;
}

// NVIDIA/nccl issue #1412: 2 nodes x 8 A100 x 4 NICs, 8 channels, NCCL_CROSS_NIC
// unset (2), logged on the first node (ranks 0-7).
const std::vector<std::string> kIssue1412{
    "swat1-04:2017630:2017699 [5] NCCL INFO Channel 03/0 : 5[5] -> 12[4] [send] via NET/IB/3",
    "swat1-04:2017630:2017700 [4] NCCL INFO Channel 03/0 : 13[5] -> 4[4] [receive] via NET/IB/3",
    "swat1-04:2017630:2017699 [5] NCCL INFO Channel 07/0 : 5[5] -> 12[4] [send] via NET/IB/3",
    "swat1-04:2017630:2017700 [4] NCCL INFO Channel 07/0 : 13[5] -> 4[4] [receive] via NET/IB/3",
};

}  // namespace

TEST_CASE("the log parser reads NCCL's connection lines") {
  const LogLine l = parse_log(kIssue1412[1]);
  CHECK(l.channel == 3);
  CHECK(l.from == 13);
  CHECK(l.to == 4);
  CHECK(!l.send);
  CHECK(l.nic == 3);
}

TEST_CASE("nccl#1412, 2 nodes x 8 GPUs x 4 NICs: every ring channel enters and leaves a node by one NIC") {
  const Generated g(rail_cluster(2, 4, 8, ""));
  CHECK(unmatched(g, kIssue1412, 8).empty());
  // The same setup spelled out: NCCL_CROSS_NIC=2 and the graph outcome derived.
  const Generated explicit_auto(rail_cluster(2, 4, 8, "cross_nic = 2\nring_cross_nic = \"auto\"\n"));
  CHECK(unmatched(explicit_auto, kIssue1412, 8).empty());
  // Negative control: a graph that ended with crossNic 2 pairs NICs (channel 3
  // enters node 0 on NIC 3 and leaves on NIC 2), which the log contradicts.
  const Generated crossed(rail_cluster(2, 4, 8, "ring_cross_nic = \"on\"\n"));
  CHECK(unmatched(crossed, kIssue1412, 8) == std::vector<std::string>{kIssue1412[0], kIssue1412[2]});
}

// NVIDIA/nccl issue #1189 (zhou9402, 2024): 2 H20 nodes, 2 ranks per node,
// NCCL_PXN_DISABLE=1, NCCL_CROSS_NIC unset. The ring graph node 0 logged
// ("Pattern 4, crossNic 1, nChannels 4", NET/3 on GPU 0's PCI switch, NET/2 on
// GPU 1's):
//    0 : NET/3 GPU/0 GPU/1 NET/2      1 : NET/2 GPU/1 GPU/0 NET/3
//    2 : NET/3 GPU/0 GPU/1 NET/2      3 : NET/2 GPU/1 GPU/0 NET/3
// crossNic 1 under the default NCCL_CROSS_NIC 2 is the 2.19-2.22 retry value;
// in ecmpsim's NIC order NET/3 is NIC 0 and NET/2 NIC 1, so search channel c
// enters node 0 on NIC c mod 2 and leaves on NIC (c+1) mod 2.
std::string pxn_off_pair(const std::string& version, bool pxn) {
  return "[fabric]\nkind = \"rail\"\nnodes = 2\nnics_per_node = 2\ngpus_per_node = 2\nspines = 2\n"
         "host_speed_gbps = 200\nfabric_speed_gbps = 200\n"
         "[[job]]\ncollective = \"ring-allreduce\"\nplacement = \"contiguous\"\nmessage_bytes = \"1GiB\"\n"
         "channels = 8\nsearch_channels = 4\nnccl_version = \"" + version + "\"\npxn = " + (pxn ? "true" : "false") +
         "\n[[scenario]]\nname = \"ecmp\"\n";
}

// Node 0's (receive NIC, send NIC) per search channel, from the generated flows.
std::vector<std::pair<std::uint32_t, std::uint32_t>> node0_nics(const Generated& g) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> out(4, {9, 9});
  for (std::size_t f = 0; f < g.flows.size(); ++f) {
    const unsigned c = g.flows.channel[f] % 4u;
    const auto [src_node, src_nic] = g.where(g.flows.src[f]);
    const auto [dst_node, dst_nic] = g.where(g.flows.dst[f]);
    if (src_node == 0) out[c].second = src_nic;
    if (dst_node == 0) out[c].first = dst_nic;
  }
  return out;
}

TEST_CASE("nccl#1189, 2 nodes x 2 GPUs x 2 NICs with PXN off: the ring crosses NICs as the logged graph") {
  const std::vector<std::pair<std::uint32_t, std::uint32_t>> logged{{0, 1}, {1, 0}, {0, 1}, {1, 0}};
  CHECK(node0_nics(Generated(pxn_off_pair("2.22.3", false))) == logged);
  CHECK(node0_nics(Generated(pxn_off_pair("2.19.3", false))) == logged);
  // Negative control: with PXN on, the same-NIC search succeeds and every
  // channel leaves node 0 by the NIC it entered, which the log contradicts.
  const std::vector<std::pair<std::uint32_t, std::uint32_t>> same{{0, 0}, {1, 1}, {0, 0}, {1, 1}};
  CHECK(node0_nics(Generated(pxn_off_pair("2.22.3", true))) == same);
  // Before 2.19 the retry could not leave the entry NIC at all.
  CHECK(node0_nics(Generated(pxn_off_pair("2.18.6", false))) == same);
}

// The same graph in NCCL's own NIC numbers, with the node's GPU-NIC map
// stated (issue 34 item 4). The log's topology dump puts GPU/18000 (GPU 0)
// and NIC/19000 -> NET/3 under one PCI switch (PCI/16000), and the graph's
// type NVL/PIX says each GPU reaches its NET through one PCI switch: GPU 0
// is close to NET/3 and GPU 1 to NET/2. The node's other NETs (NET/4..8 are
// SYS to both GPUs in the dump) carry no ring; NET/0 and NET/1 stand for
// them here (nics_per_node = 4 so that NET/3 has index 3).
std::string pxn_off_pair_mapped(const std::string& gpu_nics) {
  return "[fabric]\nkind = \"rail\"\nnodes = 2\nnics_per_node = 4\ngpus_per_node = 2\n" + gpu_nics +
         "spines = 2\nhost_speed_gbps = 200\nfabric_speed_gbps = 200\n"
         "[[job]]\ncollective = \"ring-allreduce\"\nplacement = \"contiguous\"\nmessage_bytes = \"1GiB\"\n"
         "channels = 8\nsearch_channels = 4\nnccl_version = \"2.22.3\"\npxn = false\n[[scenario]]\nname = \"ecmp\"\n";
}

TEST_CASE("nccl#1189 with its GPU-NIC map: node 0's NICs are the logged NET/3 and NET/2") {
  // 0 : NET/3 GPU/0 GPU/1 NET/2; 1 : NET/2 GPU/1 GPU/0 NET/3; 2 and 3 repeat them.
  const std::vector<std::pair<std::uint32_t, std::uint32_t>> logged{{3, 2}, {2, 3}, {3, 2}, {2, 3}};
  CHECK(node0_nics(Generated(pxn_off_pair_mapped("gpu_nics = [3, 2]\n"))) == logged);
  // Negative control: the default map on the same node (GPU 0 close to NICs 0
  // and 1, GPU 1 to 2 and 3) starts the channels on NET/0..3 in turn.
  const std::vector<std::pair<std::uint32_t, std::uint32_t>> rail_aligned{{0, 1}, {1, 0}, {2, 3}, {3, 2}};
  CHECK(node0_nics(Generated(pxn_off_pair_mapped(""))) == rail_aligned);
}

TEST_CASE("nccl#514-shaped, 4 nodes x 8 GPUs x 8 NICs: each hop stays on the rail of its channel") {
  // 16 channels, 8 found by the search: channel c uses NIC c mod 8 on both
  // ends of every inter-node hop.
  const Generated g(rail_cluster(4, 8, 16, ""));
  REQUIRE(g.flows.size() == 4 * 16);
  for (std::size_t f = 0; f < g.flows.size(); ++f) {
    const auto [src_node, src_nic] = g.where(g.flows.src[f]);
    const auto [dst_node, dst_nic] = g.where(g.flows.dst[f]);
    CHECK(dst_node == (src_node + 1) % 4);
    CHECK(src_nic == g.flows.channel[f] % 8u);
    CHECK(dst_nic == g.flows.channel[f] % 8u);
  }
}

// A public NCCL 2.27.5 log with NCCL_CROSS_NIC=1 (tests/data/nccl-logs): the
// second of 2 nodes x 8 GPUs x 8 RoCE NICs, 16 channels (8 searched). Its ring
// lines join two local GPUs, its tree lines the same one.
std::vector<std::string> log_lines(bool ring) {
  std::FILE* f = std::fopen(ECMPSIM_SOURCE_DIR "/tests/data/nccl-logs/slurmv4-13-nccl2.27.5-crossnic1.log", "r");
  REQUIRE(f != nullptr);
  std::vector<std::string> out;
  char buf[512];
  while (std::fgets(buf, sizeof buf, f)) {
    std::string line(buf);
    if (line.find("via NET/IB/") == std::string::npos) continue;
    const LogLine l = parse_log(line);
    if ((l.from % 8 != l.to % 8) == ring) out.push_back(line);
  }
  std::fclose(f);
  return out;
}

std::string crossnic1_cluster(const std::string& version) {
  return rail_cluster(2, 8, 16, "cross_nic = 1\nnccl_version = \"" + version + "\"\n");
}

TEST_CASE("NCCL 2.27.5 with NCCL_CROSS_NIC=1: ring channel c leaves by NIC c+1, 32 of 32 ring ends") {
  const auto ring = log_lines(true), tree = log_lines(false);
  REQUIRE(ring.size() == 32);
  REQUIRE(tree.size() == 32);
  // Worked from the lines: on the logging node channel c enters at GPU c by
  // NIC c and leaves from GPU c+1 by NIC c+1 (a rotation, not a pairing).
  for (const auto& line : ring) {
    const LogLine l = parse_log(line);
    CHECK(l.nic == (l.send ? (l.channel + 1) % 8 : l.channel % 8));
  }
  CHECK(unmatched(Generated(crossnic1_cluster("2.27.5")), ring, 8).empty());
  std::string trees = crossnic1_cluster("2.27.5");
  trees.replace(trees.find("ring-allreduce"), 14, "tree-allreduce");
  CHECK(unmatched(Generated(trees), tree, 8).empty());
  // 2.19's search never paired a crossNic 1 ring nor exchanged it: the same.
  CHECK(unmatched(Generated(crossnic1_cluster("2.19.3")), ring, 8).empty());
  // Negative controls, the other versions' rules on the same cluster. 2.20-2.22
  // pair channels (channel 1 enters by NIC 1 and leaves by 0) and exchange
  // channels c and c^1 on odd node 1; 2.23-2.25 rotate but exchange: either way
  // node 1's channel c takes channel c^1's NICs, and every end differs.
  CHECK(unmatched(Generated(crossnic1_cluster("2.22.3")), ring, 8).size() == 32);
  CHECK(unmatched(Generated(crossnic1_cluster("2.25.1")), ring, 8).size() == 32);
}

}  // namespace nccl_logs_test
