// NCCL's choices derived when the simulation is built (sim/model/nccl_derive.h):
// channels and search channels from [hosts] gpu and the fabric's NICs, the
// ring's crossNic, a given channel count winning, nothing without a GPU;
// multi-node NVLink domains; broadcast and reduce flows.
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "sim/config/config.h"
#include "sim/model/nccl_derive.h"
#include "sim/model/simulation.h"

namespace nccl_derive_test {

using namespace ecmpsim;

namespace {

std::string cluster(int nodes, int nics, int gbps, const std::string& gpu, const std::string& job) {
  return "[fabric]\nkind = \"rail\"\nnodes = " + std::to_string(nodes) + "\nnics_per_node = " + std::to_string(nics) +
         "\ngpus_per_node = 8\nspines = 2\nhost_speed_gbps = " + std::to_string(gbps) +
         "\nfabric_speed_gbps = " + std::to_string(gbps) + "\n" + (gpu.empty() ? "" : "[hosts]\ngpu = \"" + gpu + "\"\n") +
         "[[job]]\ncollective = \"ring-allreduce\"\nmessage_bytes = \"1GiB\"\n" + job + "[[scenario]]\nname = \"ecmp\"\n";
}

// The NIC indices node 0's flows leave by.
std::set<std::uint32_t> node0_send_nics(const Simulation& sim) {
  std::set<std::uint32_t> out;
  const Fabric& f = sim.fabric();
  for (std::size_t i = 0; i < sim.flows().size(); ++i) {
    const std::uint32_t s = f.server_of(sim.flows().src[i]);
    if (s != 0) continue;
    const auto nics = f.server_nics(s);
    for (std::uint32_t k = 0; k < nics.size(); ++k)
      if (nics[k] == sim.flows().src[i]) out.insert(k);
  }
  return out;
}

}  // namespace

TEST_CASE("A100, 2 nodes x 8 GPUs x 16 x 100G: 32 channels over all 16 NICs") {
  const Simulation sim(parse_config(cluster(2, 16, 100, "A100", "nccl_version = \"2.25.1\"\n"), "t.toml"));
  const JobSpec& j = sim.spec().jobs.front();
  CHECK(j.channels == 32);
  CHECK(j.search_channels == 16);
  REQUIRE(j.graphs);
  CHECK(node0_send_nics(sim).size() == 16);
  CHECK(nccl_notes(sim.spec()) ==
        std::vector<std::string>{"job 'job0' (A100, NCCL 2.25.1): 32 channels: 16 search channels of 100 Gb/s NICs "
                                 "(16 per node) at 12 GB/s (PXN), doubled"});
  // Negative control: without the GPU nothing is derived: 4 channels, 2 NICs.
  const Simulation plain(parse_config(cluster(2, 16, 100, "", "nccl_version = \"2.25.1\"\n"), "t.toml"));
  CHECK(plain.spec().jobs.front().channels == 4);
  CHECK(!plain.spec().jobs.front().graphs);
  CHECK(node0_send_nics(plain).size() == 2);
  CHECK(nccl_notes(plain.spec()).empty());
}

TEST_CASE("a given channel count wins; the search still sets the search channels") {
  const Simulation sim(parse_config(cluster(2, 16, 100, "A100", "channels = 8\nnccl_version = \"2.25.1\"\n"), "t.toml"));
  const JobSpec& j = sim.spec().jobs.front();
  CHECK(j.channels == 8);
  CHECK(j.search_channels == 8);  // min(16 searched, 8 run)
  CHECK(j.graphs->reason.ends_with("(the config's channels = 8 wins)"));
}

TEST_CASE("H100 with 8 x 400G: the ring graph crosses NICs (crossNic 2) and the flows pair them") {
  const Simulation sim(parse_config(cluster(2, 8, 400, "H100", "nccl_version = \"2.23.4\"\n"), "t.toml"));
  const JobSpec& j = sim.spec().jobs.front();
  CHECK(j.channels == 16);
  CHECK(j.ring_cross_nic == workloads::CrossNicOutcome::On);
  // Channel 0 enters node 1 on NIC 1 (exchanged on the odd node) and leaves node 0 on NIC 1.
  const Fabric& f = sim.fabric();
  for (std::size_t i = 0; i < sim.flows().size(); ++i) {
    if (sim.flows().channel[i] != 0 || f.server_of(sim.flows().src[i]) != 0) continue;
    CHECK(sim.flows().src[i] == f.server_nics(0)[1]);
    CHECK(sim.flows().dst[i] == f.server_nics(1)[1]);
  }
  // Negative control: NCCL_CROSS_NIC=0 keeps every channel on its NIC (8 x 45 over PXN).
  const Simulation same(parse_config(cluster(2, 8, 400, "H100", "nccl_version = \"2.23.4\"\ncross_nic = 0\n"), "t.toml"));
  CHECK(same.spec().jobs.front().ring_cross_nic == workloads::CrossNicOutcome::Off);
  CHECK(same.spec().jobs.front().graphs->search_bw == 45);
}

TEST_CASE("releases before 2.18.3 are refused when a GPU is named") {
  try {
    const Simulation sim(parse_config(cluster(2, 8, 400, "H100", "nccl_version = \"2.17.1\"\n"), "t.toml"));
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("from release 2.18.3 on, not 2.17.1") != std::string::npos);
  }
}

TEST_CASE("GB200 NVL72: two NVLink domains of 18 nodes are NCCL's two nodes; only traffic between them is flows") {
  const std::string toml =
      "[fabric]\nkind = \"rail\"\nnodes = 36\nnics_per_node = 4\ngpus_per_node = 4\nnvlink_domain = 72\n"
      "spines = 2\nhost_speed_gbps = 400\nfabric_speed_gbps = 400\n[hosts]\ngpu = \"GB200\"\n"
      "[[job]]\ncollective = \"ring-allreduce\"\nmessage_bytes = \"1GiB\"\nchannels = 16\nnccl_version = \"2.27.7\"\n"
      "[[scenario]]\nname = \"ecmp\"\n";
  const Simulation sim(parse_config(toml, "t.toml"));
  CHECK(sim.jobs().front().ranks == 144);
  // A ring between 2 domains: every channel has one hop each way, 2 x 16 flows.
  CHECK(sim.flows().size() == 32);
  const Fabric& f = sim.fabric();
  for (std::size_t i = 0; i < sim.flows().size(); ++i)
    CHECK(f.server_of(sim.flows().src[i]) / 18 != f.server_of(sim.flows().dst[i]) / 18);
  // Negative control: the same racks as 36 nodes make a ring through every node: 36 x 16 flows.
  std::string nodes = toml;
  nodes.erase(nodes.find("nvlink_domain = 72\n"), 19);
  CHECK(Simulation(parse_config(nodes, "t.toml")).flows().size() == 36 * 16);
}

TEST_CASE("GB200 NVL72 racks a job fills in part: NCCL's nodes are its 16 trays in each rack") {
  std::string hosts;
  for (int rack = 0; rack < 2; ++rack)
    for (int t = 0; t < 16; ++t) hosts += (hosts.empty() ? "\"node" : ", \"node") + std::to_string(rack * 18 + t) + "\"";
  const std::string fabric =
      "[fabric]\nkind = \"rail\"\nnodes = 36\nnics_per_node = 4\ngpus_per_node = 4\nnvlink_domain = 72\n"
      "spines = 2\nhost_speed_gbps = 400\nfabric_speed_gbps = 400\n[hosts]\ngpu = \"GB200\"\n";
  const std::string job = "[[job]]\ncollective = \"ring-allreduce\"\nchannels = 16\nnccl_version = \"2.26.2\"\n";
  const Simulation sim(parse_config(fabric + job + "hosts = [" + hosts + "]\n[[scenario]]\nname = \"ecmp\"\n", "t.toml"));
  CHECK(sim.spec().jobs.front().node_servers == 16);
  CHECK(sim.jobs().front().ranks == 128);
  CHECK(sim.flows().size() == 2 * 16);  // one hop each way between the two 64-GPU nodes, per channel
  // Negative control: 32 consecutive nodes are 18 in the first rack and 14 in the second.
  try {
    const Simulation bad(parse_config(fabric + job + "nodes = 32\n[[scenario]]\nname = \"ecmp\"\n", "t.toml"));
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.describe() ==
          "t.toml:16:9: job.nodes: job 'job0': node 'node31' ends a short run: NCCL's nodes are the job's nodes in each "
          "NVLink domain of 18, consecutive in rank order and as many in each (18 in the first)");
  }
}

TEST_CASE("broadcast and reduce: one pass along the ring chain from root 0") {
  const auto flows = [](const std::string& coll) {
    std::string t = cluster(4, 1, 400, "", "channels = 2\n");
    t.replace(t.find("ring-allreduce"), 14, coll);
    return Simulation(parse_config(t, "t.toml")).flows();
  };
  // 4 nodes, 2 channels: broadcast 3 hops per channel (none back into the
  // root's node), reduce 4; every hop carries the channel's half of 1 GiB.
  const auto b = flows("broadcast"), r = flows("reduce");
  CHECK(b.size() == 3 * 2);
  CHECK(r.size() == 4 * 2);
  for (const std::uint64_t bytes : b.bytes) CHECK(bytes == (1ull << 29));
  for (const std::uint64_t bytes : r.bytes) CHECK(bytes == (1ull << 29));
}

}  // namespace nccl_derive_test
