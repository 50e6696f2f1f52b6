// The hardware profile and the fabric as NCCL's topology search sees them,
// and the jobs' layouts on multi-node NVLink domains.
#include "sim/model/nccl_derive.h"

#include <algorithm>

#include "sim/base/error.h"
#include "workloads/generators/nccl_topo.h"
#include "workloads/gpu.h"

namespace ecmpsim {

namespace {

// The PCIe generation that ships on a NIC of this speed: ConnectX-6 (up to
// 200 Gb/s) Gen4, ConnectX-7 (400) Gen5, ConnectX-8 (800) Gen6.
std::uint8_t nic_pcie_gen(double gbps) noexcept { return gbps <= 200 ? 4 : gbps <= 400 ? 5 : 6; }

// A node's GPU-NIC map repeated over the `copies` nodes of a domain.
workloads::GpuNicMap repeat_map(const workloads::GpuNicMap& map, std::uint32_t copies, std::uint32_t nics) {
  if (map.near.empty() || copies <= 1) return map;
  workloads::GpuNicMap out;
  for (std::uint32_t t = 0; t < copies; ++t)
    for (const auto& near : map.near) {
      std::vector<std::uint32_t> shifted;
      for (const std::uint32_t n : near) shifted.push_back(n + t * nics);
      out.near.push_back(std::move(shifted));
    }
  return out;
}

}  // namespace

std::uint32_t domain_servers(const FabricSpec& f) noexcept {
  return f.nvlink_domain != 0 ? f.nvlink_domain / f.gpus_per_node : 1;
}

std::uint32_t nccl_node_gpus(const FabricSpec& f, const JobSpec& job) noexcept {
  return job.node_servers * f.gpus_per_node;
}

std::uint32_t servers_per_nccl_node(const Spec& spec, const JobSpec& job, const Fabric& fabric,
                                    std::span<const std::uint32_t> servers) {
  const std::uint32_t per_domain = domain_servers(spec.fabric);
  if (per_domain <= 1 || servers.empty()) return 1;
  const auto domain = [&](std::size_t i) { return servers[i] / per_domain; };
  std::size_t first = 0;  // the job's nodes in its first domain
  while (first < servers.size() && domain(first) == domain(0)) ++first;
  const auto fail = [&](std::size_t i, const std::string& why) {
    throw InputError(job.nodes_at, "job '" + job.name + "': node '" + fabric.server_name(servers[i]) + "' " + why +
                                       ": NCCL's nodes are the job's nodes in each NVLink domain of " +
                                       std::to_string(per_domain) + ", consecutive in rank order and as many in each (" +
                                       std::to_string(first) + " in the first)");
  };
  std::vector<std::uint32_t> seen;
  for (std::size_t i = 0; i < servers.size(); i += first) {
    if (std::find(seen.begin(), seen.end(), domain(i)) != seen.end()) fail(i, "returns to an earlier domain");
    seen.push_back(domain(i));
    for (std::size_t k = i; k < i + first; ++k)
      if (k >= servers.size() || domain(k) != domain(i)) fail(std::min(k, servers.size() - 1), "ends a short run");
    if (i + first < servers.size() && domain(i + first) == domain(i)) fail(i + first, "makes a longer run");
  }
  return static_cast<std::uint32_t>(first);
}

workloads::NcclNode nccl_node(const Spec& spec, const JobSpec& job, double nic_gbps) {
  const workloads::GpuProfile& gpu = workloads::gpu_profile(*spec.hosts.gpu);
  const FabricSpec& f = spec.fabric;
  const std::uint32_t copies = job.node_servers;
  workloads::NcclNode n;
  n.gpus = nccl_node_gpus(f, job);
  n.nics = f.nics_per_node * copies;
  n.gpu_nics = repeat_map(f.gpu_nics, copies, f.nics_per_node);
  n.sm = gpu.sm;
  const bool nvlink = spec.hosts.intra == workloads::IntraLink::NVLink && gpu.nvlinks > 0;
  n.nvlink_bw = nvlink ? gpu.nvlinks * workloads::nccl_nvlink_bw(gpu.sm, job.nccl_version) : 0;
  // A Grace-Blackwell GPU reaches its NICs over C2C to Grace, then PCIe.
  const double pcie = workloads::nccl_pcie_bw(spec.hosts.pcie_gen ? spec.hosts.pcie_gen : gpu.pcie_gen);
  n.gpu_pcie_bw = gpu.c2c_gbs > 0 ? gpu.c2c_gbs : pcie;
  n.nic_pcie_bw = workloads::nccl_pcie_bw(spec.hosts.nic_pcie_gen ? spec.hosts.nic_pcie_gen : nic_pcie_gen(nic_gbps));
  n.net_bw = workloads::nccl_net_bw(nic_gbps);
  n.pxn = job.pxn;
  return n;
}

void derive_nccl(Spec& spec, const Fabric& fabric, std::span<const std::vector<std::uint32_t>> servers) {
  for (std::size_t j = 0; j < spec.jobs.size() && j < servers.size(); ++j)
    spec.jobs[j].node_servers = servers_per_nccl_node(spec, spec.jobs[j], fabric, servers[j]);
  if (!spec.hosts.gpu) return;
  for (std::size_t j = 0; j < spec.jobs.size() && j < servers.size(); ++j) {
    JobSpec& job = spec.jobs[j];
    const std::uint32_t per_node = job.node_servers;
    if (job.nccl_version < workloads::NcclVersion{2, 18, 3})
      throw InputError(job.where, "[hosts] gpu derives NCCL's channels and tuner from release 2.18.3 on, not " +
                                      workloads::nccl_version_text(job.nccl_version));
    if (servers[j].empty()) continue;
    const double gbps = fabric.link(fabric.uplink(fabric.server_nics(servers[j].front())[0])).speed.value;
    const auto nodes = static_cast<std::uint32_t>(std::max<std::size_t>(1, servers[j].size() / per_node));
    const workloads::NcclSearchEnv env{job.cross_nic, job.min_channels, job.max_channels};
    workloads::NcclChannels got = workloads::nccl_channels(nccl_node(spec, job, gbps), nodes, job.nccl_version, env, gbps);
    if (!job.channels_given) {
      job.channels = got.channels;
      if (job.search_channels == 0) job.search_channels = std::min(got.search, got.channels);
    } else if (job.search_channels == 0) {
      job.search_channels = std::min(got.search, job.channels);
    }
    if (job.ring_cross_nic == workloads::CrossNicOutcome::Auto)
      job.ring_cross_nic = got.ring.cross_nic == 0 ? workloads::CrossNicOutcome::Off : workloads::CrossNicOutcome::On;
    if (job.channels_given) got.reason += " (the config's channels = " + std::to_string(job.channels) + " wins)";
    job.graphs = std::move(got);
  }
}

std::vector<std::string> nccl_notes(const Spec& spec) {
  std::vector<std::string> out;
  for (const JobSpec& j : spec.jobs)
    if (j.graphs && spec.hosts.gpu)
      out.push_back("job '" + j.name + "' (" + std::string(workloads::gpu_profile(*spec.hosts.gpu).name) + ", NCCL " +
                    workloads::nccl_version_text(j.nccl_version) + "): " + j.graphs->reason);
  return out;
}

workloads::CollectiveParams collective_params(const JobSpec& job, workloads::Collective shape) {
  workloads::CollectiveParams p;
  p.collective = shape;
  p.message_bytes = job.message.value;
  p.channels = job.channels;
  p.search_channels = job.search_channels;
  p.qps_per_connection = job.qps_per_connection;
  p.cross_nic = job.cross_nic;
  p.ring_cross_nic = job.ring_cross_nic;
  p.pxn = job.pxn;
  p.nccl_version = job.nccl_version;
  p.peer_offset = job.peer_offset;
  return p;
}

workloads::JobLayout job_layout(const Spec& spec, const JobSpec& job, const Fabric& fabric,
                                std::span<const std::uint32_t> servers) {
  const FabricSpec& f = spec.fabric;
  const std::uint32_t per_node = servers_per_nccl_node(spec, job, fabric, servers);
  workloads::JobLayout layout;
  layout.gpus_per_node = per_node * f.gpus_per_node;
  layout.nics_per_node = f.nics_per_node * per_node;
  layout.gpu_nics = repeat_map(f.gpu_nics, per_node, f.nics_per_node);
  for (const std::uint32_t s : servers) {
    const auto nics = fabric.server_nics(s);
    if (nics.size() != f.nics_per_node)
      throw InputError(job.where, "node '" + fabric.server_name(s) + "' does not have nics_per_node NICs");
    layout.nics.insert(layout.nics.end(), nics.begin(), nics.end());
  }
  return layout;
}

}  // namespace ecmpsim
